"""TensorFlow's small utility ops: ``tf.tuple`` and ``tf.guarantee_const`` (values passed
through), ``tf.bitcast`` (the same bytes read as another dtype) and ``tf.timestamp``.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.bitcast(tf.constant([1.0]), tf.int32).numpy()
    array([1065353216], dtype=int32)
"""

from __future__ import annotations

import time

import numpy as np

from ._dtypes import as_dtype
from ._host import host_array
from ._tensor import Tensor, constant, operand
from .errors import InvalidArgumentError
from .math import _ret

__all__ = ["tuple", "guarantee_const", "bitcast", "timestamp"]


def tuple(tensors, control_inputs=None, name: str | None = None) -> list:  # noqa: A001
    """The tensors of ``tensors`` passed through as a list (None entries stay None); eager
    execution has no control dependencies to group.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> [t.numpy() for t in tf.tuple([tf.constant(1), tf.constant([2.0])])]
        [np.int32(1), array([2.], dtype=float32)]
    """
    if control_inputs is not None and not isinstance(control_inputs, (list, type(()))):
        raise TypeError("control_inputs must be a list or tuple")
    return [None if t is None else guarantee_const(t) for t in tensors]


def guarantee_const(input, name: str | None = None) -> Tensor:
    """``input`` itself (TensorFlow's promise that it is a constant, for its optimizer).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.guarantee_const(tf.constant([1.5])).numpy()
        array([1.5], dtype=float32)
    """
    x = operand(input, "input")
    return _ret(x, x)


def bitcast(input, type, name: str | None = None) -> Tensor:  # noqa: A002
    """The bytes of ``input`` read as ``type``: a narrower type adds a last axis of
    ``size(input.dtype) / size(type)`` entries, a wider one consumes a last axis of that
    many. Not differentiable; inside ``tf.function`` only for values known when tracing.

    Raises:
        InvalidArgumentError: When the last axis does not match a wider ``type``.
        ConcretizationError: Inside ``tf.function`` for a value only known at each call.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.bitcast(tf.constant([1], tf.int32), tf.uint8).numpy()
        array([[1, 0, 0, 0]], dtype=uint8)
    """
    array = np.ascontiguousarray(host_array(operand(input, "input")))
    target = as_dtype(type)
    source_size, target_size = array.dtype.itemsize, target.itemsize
    if target_size > source_size:
        ratio = target_size // source_size
        if array.ndim == 0 or array.shape[-1] != ratio:
            raise InvalidArgumentError(None, None, f"Cannot bitcast from {array.dtype.name} to "
                                       f"{target.name}: shape {list(array.shape)}")
        result = array.view(target.np_dtype).reshape(array.shape[:-1])
    elif target_size < source_size:
        result = array.reshape(array.shape + (1,)).view(target.np_dtype)
    else:
        result = array.view(target.np_dtype)
    return constant(result)


def timestamp(name: str | None = None) -> Tensor:
    """The current time in seconds since the epoch, a float64 scalar.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.timestamp().dtype
        tf.float64
    """
    return constant(np.float64(time.time()))
