"""Keras' serialization of losses and metrics: one object as a name or a config dict, and
back (shared by :mod:`.losses` and :mod:`.metrics`).

Example:
    >>> from unigrad.compat.tensorflow.keras._registry import deserialized
    >>> deserialized("abs", {"abs": abs}, "loss")(-2)
    2
"""

from __future__ import annotations

__all__ = ["serialized", "deserialized"]


def serialized(value, base: type, module: str) -> dict | str:
    """An instance of ``base`` as ``{"module", "class_name", "config", "registered_name"}``;
    a function as its name."""
    if isinstance(value, base):
        return {"module": module, "class_name": type(value).__name__,
                "config": value.get_config(), "registered_name": None}
    return value.__name__


def deserialized(identifier, objects: dict, kind: str):
    """The object ``identifier`` names in ``objects``: a config dict (its class built from
    the config) or a name.

    Raises:
        ValueError: Keras' "Could not interpret <kind> identifier" for an unknown one.
    """
    if isinstance(identifier, dict):
        cls = objects.get(identifier.get("class_name"))
        if cls is None:
            raise ValueError(f"Could not interpret {kind} identifier: {identifier}")
        return cls.from_config(identifier.get("config", {}))
    if identifier not in objects:
        raise ValueError(f"Could not interpret {kind} identifier: {identifier}")
    return objects[identifier]
