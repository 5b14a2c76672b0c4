"""``tf.bitwise``: bitwise ops on integer tensors with TensorFlow's arguments.

Both operands take one integer dtype (a Python number takes the tensor's); floats and
bools raise ``TypeError``, as TensorFlow's kernels are registered for integers only.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.bitwise.bitwise_and(tf.constant([12, 10]), tf.constant([6, 3])).numpy()
    array([4, 2], dtype=int32)
    >>> tf.bitwise.invert(tf.constant([0, 5], dtype=tf.uint8)).numpy()
    array([255, 250], dtype=uint8)
"""

from __future__ import annotations

from collections.abc import Callable

import unigrad as ug

from ._tensor import Tensor, operand
from .math import _pair, _ret

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]


def _check_integer(op_name: str, *values) -> None:
    dtypes = {value.dtype for value in values}
    for value in values:
        if value._data.dtype.kind not in "iu":
            raise TypeError(f"Value for attr 'T' of {value.dtype.name} is not in the list of "
                            f"allowed values for {op_name}: int8, int16, int32, int64, uint8, "
                            f"uint16, uint32, uint64")
    if len(dtypes) > 1:
        first, second = (value.dtype.name for value in values)
        raise TypeError(f"cannot compute {op_name} as input #1(zero-based) was expected to be a "
                        f"{first} tensor but is a {second} tensor")


def _bitwise(tf_name: str, op_name: str, op: Callable) -> Callable:
    def fn(x, y, name: str | None = None) -> Tensor:
        x, y = _pair(x, y)
        _check_integer(op_name, x, y)
        return _ret(op(x, y), x, y)
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = (f"``tf.bitwise.{tf_name}(x, y, name=None)``: elementwise on integers of one "
                  f"dtype (unigrad's ``{op.__name__}``).")
    return fn


bitwise_and = _bitwise("bitwise_and", "BitwiseAnd", ug.bitwise_and)
bitwise_or = _bitwise("bitwise_or", "BitwiseOr", ug.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", "BitwiseXor", ug.bitwise_xor)
left_shift = _bitwise("left_shift", "LeftShift", ug.bitwise_left_shift)
right_shift = _bitwise("right_shift", "RightShift", ug.bitwise_right_shift)


def invert(x, name: str | None = None) -> Tensor:
    """``tf.bitwise.invert(x)``: every bit of the integers in ``x`` flipped.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.bitwise.invert(tf.constant([0, -3])).numpy()
        array([-1,  2], dtype=int32)
    """
    x = operand(x, "x")
    _check_integer("Invert", x)
    return _ret(ug.bitwise_not(x), x)
