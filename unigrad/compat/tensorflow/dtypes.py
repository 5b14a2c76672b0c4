"""``tf.dtypes``: TensorFlow's dtypes (unigrad's), with ``tf.dtypes.cast``,
``tf.dtypes.complex`` and ``tf.dtypes.as_dtype``.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.dtypes.complex64 is tf.complex64, tf.dtypes.float32 is tf.float32
    (True, True)
    >>> tf.dtypes.cast(tf.constant([1.5 + 2j]), tf.dtypes.float32).numpy()
    array([1.5], dtype=float32)
"""

from __future__ import annotations

import unigrad as _ug
from unigrad.backend import DType

from ._array_ops import cast
from ._complex_math import complex
from ._tensor import _dtype

__all__ = ["DType", "as_dtype", "bool", "cast", "complex", "complex64", "complex128", "double",
           "float16", "float32", "float64", "half", "int8", "int16", "int32", "int64", "uint8"]

float16 = half = _ug.float16
float32 = _ug.float32
float64 = double = _ug.float64
int8 = _ug.int8
int16 = _ug.int16
int32 = _ug.int32
int64 = _ug.int64
uint8 = _ug.uint8
bool = _ug.bool_  # noqa: A001 - TensorFlow's spelling
complex64 = _ug.complex64
complex128 = _ug.complex128


def as_dtype(type_value) -> DType:
    """``tf.dtypes.as_dtype``: the dtype for a dtype, NumPy dtype or name (``"complex64"``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.dtypes.as_dtype("complex128") is tf.complex128
        True
    """
    return _dtype(type_value, "type_value")
