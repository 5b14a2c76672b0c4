"""``tf.dtypes``: TensorFlow's dtypes (:class:`DType`), with ``tf.dtypes.cast``,
``tf.dtypes.complex`` and ``tf.dtypes.as_dtype``.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.dtypes.complex64 is tf.complex64, tf.dtypes.float32 is tf.float32
    (True, True)
    >>> tf.dtypes.cast(tf.constant([1.5 + 2j]), tf.dtypes.float32).numpy()
    array([1.5], dtype=float32)
"""

from __future__ import annotations

from ._array_ops import cast
from ._complex_math import complex
from ._dtypes import DType, as_dtype

__all__ = ["DType", "as_dtype", "bool", "cast", "complex", "complex64", "complex128", "double",
           "float16", "float32", "float64", "half", "int8", "int16", "int32", "int64", "string",
           "uint8", "uint16", "uint32", "uint64"]

float16 = half = as_dtype("float16")
float32 = as_dtype("float32")
float64 = double = as_dtype("float64")
int8 = as_dtype("int8")
int16 = as_dtype("int16")
int32 = as_dtype("int32")
int64 = as_dtype("int64")
uint8 = as_dtype("uint8")
uint16 = as_dtype("uint16")
uint32 = as_dtype("uint32")
uint64 = as_dtype("uint64")
bool = as_dtype("bool")  # noqa: A001 - TensorFlow's spelling
complex64 = as_dtype("complex64")
complex128 = as_dtype("complex128")
string = as_dtype("string")
