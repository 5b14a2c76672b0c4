"""The values of a tensor for ops whose result shape depends on them.

``nonzero``, ``unique``, ``bincount`` and friends need the input's values to
know their result's shape. Inside ``ug.vmap`` (one shape per example) and
``ug.jit`` (no values while tracing) they refuse, as ``torch.func.vmap`` and
``jax.jit`` do.

Example:
    >>> import unigrad as ug
    >>> from unigrad.ops._values import values_for_shape
    >>> values_for_shape("nonzero", ug.tensor([0.0, 2.0]))
    array([0., 2.], dtype=float32)
"""

from __future__ import annotations

import numpy as np

from .. import backend
from ..interpreters import has_values
from ..interpreters.batching import BatchingError, BatchTracer
from ..tensor import Tensor


def values_for_shape(name: str, input):
    """``input``'s array (on its device), or a ``BatchingError`` inside ``ug.vmap`` and a
    ``ConcretizationError`` inside ``ug.jit``."""
    data = input._data if isinstance(input, Tensor) else input
    if type(data) is BatchTracer:
        raise BatchingError(f"vmap: {name} is not supported: its result's shape depends on "
                            f"each example's values (torch.func.vmap refuses operators with "
                            f"dynamic output shapes too)")
    if not has_values(data):
        from ..graph.tracer import _concretization_error
        raise _concretization_error(f"{name} (its result's shape depends on the values)")
    return data


def known_values(value) -> np.ndarray | None:
    """``value``'s numbers as a NumPy array for a data-dependent check, or None inside
    ``ug.vmap`` and ``ug.jit`` (no values there: the check is skipped)."""
    data = value._data if isinstance(value, Tensor) else value
    if not has_values(data):
        return None
    return backend.to_numpy(data)
