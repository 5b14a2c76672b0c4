"""``tf.keras.regularizers``: weight penalties added to a layer's ``losses``.

A regularizer is called on a weight and returns a scalar penalty:
``L1(l1)``: ``l1 * sum(abs(x))``; ``L2(l2)``: ``l2 * sum(square(x))``;
``L1L2(l1, l2)``: both. ``l1``, ``l2`` and ``l1_l2`` are the same classes
(Keras' aliases); :func:`get` takes a name, a regularizer, a callable or
``None``.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.keras.regularizers.L2(0.5)(tf.constant([1.0, 2.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=2.5>
"""

from __future__ import annotations

import unigrad as ug

from .._tensor import Tensor, as_tf, operand

__all__ = ["Regularizer", "L1", "L2", "L1L2", "l1", "l2", "l1_l2", "get", "serialize"]


def _validate_factor(value, name: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
        raise ValueError(f"Value for argument `{name}` should be a positive float or int. "
                         f"Received: {name}={value}")
    return float(value)


class Regularizer:
    """Base class: ``regularizer(x)`` gives a scalar penalty of the weight ``x``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> isinstance(tf.keras.regularizers.L1(), tf.keras.regularizers.Regularizer)
        True
    """

    def __call__(self, x) -> Tensor:
        return as_tf(ug.zeros((), dtype=operand(x, "x").dtype))

    def get_config(self) -> dict:
        """The constructor's arguments (Keras' ``get_config``)."""
        return {}

    @classmethod
    def from_config(cls, config: dict) -> Regularizer:
        """A regularizer built from :meth:`get_config`'s dict."""
        return cls(**config)


class L1(Regularizer):
    """``l1 * sum(abs(x))`` (``l1`` defaults to 0.01).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.regularizers.L1(0.1)(tf.constant([-1.0, 2.0])).numpy()
        np.float32(0.3)
    """

    def __init__(self, l1: float = 0.01):
        self.l1 = _validate_factor(l1, "l1")

    def __call__(self, x) -> Tensor:
        return as_tf(self.l1 * ug.sum(ug.abs(operand(x, "x"))))

    def get_config(self) -> dict:
        return {"l1": self.l1}


class L2(Regularizer):
    """``l2 * sum(square(x))`` (``l2`` defaults to 0.01).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.regularizers.L2()(tf.constant([3.0, 4.0])).numpy()
        np.float32(0.25)
    """

    def __init__(self, l2: float = 0.01):
        self.l2 = _validate_factor(l2, "l2")

    def __call__(self, x) -> Tensor:
        return as_tf(self.l2 * ug.sum(ug.square(operand(x, "x"))))

    def get_config(self) -> dict:
        return {"l2": self.l2}


class L1L2(Regularizer):
    """``l1 * sum(abs(x)) + l2 * sum(square(x))`` (both default to 0).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.regularizers.L1L2(l1=1.0, l2=1.0)(tf.constant([2.0])).numpy()
        np.float32(6.0)
    """

    def __init__(self, l1: float = 0.0, l2: float = 0.0):
        self.l1 = _validate_factor(l1, "l1")
        self.l2 = _validate_factor(l2, "l2")

    def __call__(self, x) -> Tensor:
        x = operand(x, "x")
        penalty = ug.zeros((), dtype=x.dtype)
        if self.l1:
            penalty = penalty + self.l1 * ug.sum(ug.abs(x))
        if self.l2:
            penalty = penalty + self.l2 * ug.sum(ug.square(x))
        return as_tf(penalty)

    def get_config(self) -> dict:
        return {"l1": self.l1, "l2": self.l2}


l1, l2, l1_l2 = L1, L2, L1L2

_BY_NAME = {"l1": L1, "l2": L2, "l1_l2": L1L2, "L1": L1, "L2": L2, "L1L2": L1L2}


def get(identifier):
    """The regularizer named by ``identifier`` (``"l1"``, ``"l2"``, a class name, a
    :func:`serialize`-d dict, a regularizer, a callable, or ``None``).

    Raises:
        ValueError: For anything else.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.regularizers.get("l2").get_config()
        {'l2': 0.01}
    """
    if identifier is None or isinstance(identifier, Regularizer):
        return identifier
    if isinstance(identifier, dict) and identifier.get("class_name") in ("L1", "L2", "L1L2"):
        return _BY_NAME[identifier["class_name"]](**identifier.get("config", {}))
    if isinstance(identifier, str) and identifier in ("l1", "l2", "L1", "L2", "L1L2"):
        return _BY_NAME[identifier]()
    if callable(identifier) and not isinstance(identifier, str):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")


def serialize(regularizer) -> dict | None:
    """Keras' config dict of a regularizer (``None`` for none).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.regularizers.serialize(tf.keras.regularizers.L1())["config"]
        {'l1': 0.01}
    """
    if regularizer is None:
        return None
    return {"module": "keras.regularizers", "class_name": type(regularizer).__name__,
            "config": regularizer.get_config(), "registered_name": None}
