"""Reading a tensor's values on the host from TensorFlow's ops, safely inside ``tf.function``.

While ``tf.function`` traces, an argument's values are not known: an op that needs them in
Python (an output shape that depends on them, or a check of their range) must not read the
values of the first call and bake them into the graph. :func:`host_array` reads through the
active trace, so it raises :class:`unigrad.graph.ConcretizationError` for a traced value;
:func:`known_array` gives None instead, for checks that may be skipped.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> from unigrad.compat.tensorflow._host import host_array
    >>> host_array(tf.constant([1, 2]))
    array([1, 2], dtype=int32)
"""

from __future__ import annotations

import numpy as np

from unigrad import _state, backend
from unigrad.graph.tracer import Tracer
from unigrad.tensor import Tensor as _UgTensor

__all__ = ["host_array", "known_array"]


def _data(tensor: _UgTensor):
    trace = _state.local.trace
    return tensor._data if trace is None else trace.read(tensor)


def host_array(tensor: _UgTensor) -> np.ndarray:
    """The values of ``tensor`` as a NumPy array.

    Raises:
        ConcretizationError: Inside ``tf.function`` for a value only known at each call.
    """
    return np.asarray(backend.to_numpy(_data(tensor)))


def known_array(tensor: _UgTensor) -> np.ndarray | None:
    """The values of ``tensor`` as a NumPy array, or None while they are being traced.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> from unigrad.compat.tensorflow._host import known_array
        >>> known_array(tf.constant(3.0))
        array(3., dtype=float32)
    """
    data = _data(tensor)
    return None if type(data) is Tracer else np.asarray(backend.to_numpy(data))
