"""TensorFlow's modulus ops and cross product with TensorFlow's arguments:
``tf.math.floormod`` (the sign of the divisor, as Python's ``%``), ``tf.math.truncatemod``
(the sign of the dividend, as C's ``fmod``) and ``tf.linalg.cross`` (3-vectors along the
last axis, both of one shape). Imported into :mod:`unigrad.compat.tensorflow.math` and
:mod:`unigrad.compat.tensorflow.linalg`.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.math.floormod(tf.constant([-7, 7]), 3).numpy()
    array([2, 1], dtype=int32)
    >>> tf.math.truncatemod(tf.constant([-7, 7]), 3).numpy()
    array([-1,  1], dtype=int32)
"""

from __future__ import annotations

import unigrad as ug

from ._tensor import Tensor, operand
from .math import _binary, _ret

__all__ = ["floormod", "truncatemod", "cross"]

floormod = _binary("floormod", ug.remainder)
truncatemod = _binary("truncatemod", ug.fmod)


def cross(a, b, name: str | None = None) -> Tensor:
    """``tf.linalg.cross(a, b)``: the cross product of the 3-vectors along the last axis of
    ``a`` and ``b`` (one shape); differentiable.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.cross(tf.constant([1.0, 0.0, 0.0]), tf.constant([0.0, 1.0, 0.0])).numpy()
        array([0., 0., 1.], dtype=float32)
    """
    a, b = operand(a, "a"), operand(b, "b")
    if tuple(a.shape) != tuple(b.shape):
        raise ValueError(f"Dimensions must be equal, but are {list(a.shape)} and "
                         f"{list(b.shape)} for 'Cross'")
    if not tuple(a.shape) or tuple(a.shape)[-1] != 3:
        raise ValueError(f"Dimension must be 3 but is {tuple(a.shape)[-1] if a.shape else 0} "
                         f"for 'Cross'")
    return _ret(ug.linalg.cross(a, b), a, b)
