"""``tf.broadcast_dynamic_shape``, ``tf.broadcast_static_shape`` and ``tf.unravel_index``
with TensorFlow's arguments, on :func:`unigrad.broadcast_shapes` and
:func:`unigrad.unravel_index`.

TensorFlow's ``InvalidArgumentError`` (incompatible shapes, an index out of
range) is a ``ValueError`` here; ``broadcast_static_shape`` returns the shape as a
tuple of ints (TensorFlow returns a ``TensorShape``).

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.broadcast_dynamic_shape(tf.constant([2, 1]), tf.constant([3])).numpy()
    array([2, 3], dtype=int32)
    >>> tf.unravel_index(tf.constant([4, 1]), tf.constant([3, 2])).numpy()
    array([[2, 0],
           [0, 1]], dtype=int32)
"""

from __future__ import annotations

import math

import numpy as np

import unigrad as ug

from ._tensor import Tensor, as_tf, constant, operand

__all__ = ["broadcast_dynamic_shape", "broadcast_static_shape", "unravel_index"]


def _shape_values(shape, name: str) -> tuple:
    if isinstance(shape, ug.Tensor):
        if shape.dtype not in (ug.int32, ug.int64) or shape.ndim != 1:
            raise ValueError(f"{name} must be a 1-D int32 or int64 tensor, got dtype "
                             f"{shape.dtype} and shape {list(shape.shape)}")
        return tuple(int(d) for d in shape.tolist())
    return tuple(int(d) for d in shape)


def _broadcast(shape_x: tuple, shape_y: tuple) -> tuple:
    try:
        return ug.broadcast_shapes(shape_x, shape_y)
    except RuntimeError:
        raise ValueError(f"Incompatible shapes: {list(shape_x)} vs. {list(shape_y)}") from None


def broadcast_dynamic_shape(shape_x, shape_y) -> Tensor:
    """The broadcast shape of two shape vectors, as a shape vector of their dtype
    (int32 unless they are int64).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.broadcast_dynamic_shape([1, 4], [3, 1]).numpy()
        array([3, 4], dtype=int32)
    """
    x, y = operand(shape_x, "shape_x"), operand(shape_y, "shape_y")
    result = _broadcast(_shape_values(x, "shape_x"), _shape_values(y, "shape_y"))
    dtype = ug.int64 if ug.int64 in (x.dtype, y.dtype) else ug.int32
    return constant(np.asarray(result, dtype=np.int64), dtype=dtype)


def broadcast_static_shape(shape_x, shape_y) -> tuple:
    """The broadcast shape of two shapes (tuples or lists of ints), as a tuple.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.broadcast_static_shape((2, 1), (3,))
        (2, 3)
    """
    return _broadcast(_shape_values(shape_x, "shape_x"), _shape_values(shape_y, "shape_y"))


def unravel_index(indices, dims, name: str | None = None) -> Tensor:
    """The coordinates of the flat positions ``indices`` in an array of shape ``dims``, stacked
    along a new first axis (shape ``[len(dims)] + indices.shape``, ``indices``' dtype);
    positions outside ``[0, prod(dims))`` are a ``ValueError``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.unravel_index(5, [2, 3]).numpy()
        array([1, 2], dtype=int32)
    """
    x = operand(indices, "indices")
    if x.dtype not in (ug.int32, ug.int64):
        raise TypeError(f"indices must be int32 or int64, got {x.dtype}")
    shape = _shape_values(operand(dims, "dims"), "dims")
    size = math.prod(shape)
    values = x.numpy()
    if values.size and (values.min() < 0 or values.max() >= size):
        raise ValueError(f"index is out of bound as with dims: indices must be in "
                         f"[0, {size}), got {values.reshape(-1).tolist()}")
    coordinates = ug.unravel_index(x, shape)
    if not coordinates:
        return constant(np.zeros((0,) + values.shape, dtype=values.dtype))
    return as_tf(ug.cast(ug.stack(list(coordinates)), x.dtype))
