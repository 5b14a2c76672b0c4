"""MindSpore's data types (``mindspore.dtype``): unigrad dtypes that print as ``Float32``.

Each MindSpore dtype is a :class:`unigrad.DType` (it compares and hashes equal
to the unigrad and NumPy dtype of the same kind, so it can be passed anywhere
unigrad takes a dtype); only its text form is MindSpore's.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> print(ms.float32, ms.int64, ms.bool_)
    Float32 Int64 Bool
    >>> ms.float32, ms.int64, ms.bool_
    (mindspore.float32, mindspore.int64, mindspore.bool)
    >>> ms.float32 == ms.dtype.float32 == ms.single
    True
    >>> ms.dtype_to_nptype(ms.float16)
    <class 'numpy.float16'>
"""

from __future__ import annotations

import numpy as np

from ... import backend
from ...backend import DType

__all__ = ["MsType", "bool_", "int8", "int16", "int32", "int64", "uint8", "float16", "float32",
           "float64", "complex64", "complex128", "half", "single", "double", "float_", "int_",
           "short", "intc", "intp",
           "dtype_to_nptype", "pytype_to_dtype", "get_py_obj_dtype", "to_ms_dtype"]


class MsType(DType):
    """A unigrad dtype with MindSpore's names: ``str`` is ``Float32``, ``repr`` is
    ``mindspore.float32``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> str(ms.float32), repr(ms.float32), repr(ms.bool_)
        ('Float32', 'mindspore.float32', 'mindspore.bool')
    """

    __slots__ = ()

    def __str__(self) -> str:
        return _MS_NAMES[self.np_dtype]

    def __repr__(self) -> str:
        return "mindspore." + _MS_NAMES[self.np_dtype].lower()

    def __eq__(self, other) -> bool:
        return DType.__eq__(self, other)

    def __hash__(self) -> int:
        return hash(self.np_dtype)


_MS_NAMES = {
    np.dtype(np.bool_): "Bool", np.dtype(np.int8): "Int8", np.dtype(np.int16): "Int16",
    np.dtype(np.int32): "Int32", np.dtype(np.int64): "Int64", np.dtype(np.uint8): "UInt8",
    np.dtype(np.float16): "Float16", np.dtype(np.float32): "Float32",
    np.dtype(np.float64): "Float64", np.dtype(np.complex64): "Complex64",
    np.dtype(np.complex128): "Complex128",
}


def _make(ug_dtype: DType) -> MsType:
    return MsType(ug_dtype.name, ug_dtype.np_dtype, ug_dtype._category)


bool_ = _make(backend.bool_)
int8 = _make(backend.int8)
int16 = _make(backend.int16)
int32 = _make(backend.int32)
int64 = _make(backend.int64)
uint8 = _make(backend.uint8)
float16 = _make(backend.float16)
float32 = _make(backend.float32)
float64 = _make(backend.float64)
complex64 = _make(backend.complex64)
complex128 = _make(backend.complex128)

# MindSpore's aliases (``float_``/``int_`` are its generic Float/Int; the widths used by
# default stand for them here)
half = float16
single = float32
double = float64
float_ = float32
int_ = int64
short = int16
intc = int32
intp = int64

_BY_NUMPY = {t.np_dtype: t for t in (bool_, int8, int16, int32, int64, uint8, float16, float32,
                                     float64, complex64, complex128)}


def to_ms_dtype(dtype) -> MsType:
    """The MindSpore dtype for any dtype spelling (``ms.float32``, ``ug.float32``,
    ``np.float32``, ``"float32"``); ``TypeError`` for unsupported ones.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.dtype import to_ms_dtype
        >>> to_ms_dtype(np.int32)
        mindspore.int32
    """
    return _BY_NUMPY[backend.to_numpy_dtype(dtype)]


def dtype_to_nptype(type_) -> type:
    """The NumPy scalar type of a MindSpore dtype (``mindspore.dtype_to_nptype``)."""
    return to_ms_dtype(type_).np_dtype.type


def pytype_to_dtype(obj) -> MsType:
    """The MindSpore dtype of a Python or NumPy type (``bool`` -> ``Bool``, ``int`` ->
    ``Int64``, ``float`` -> ``Float64``, ``complex`` -> ``Complex128``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> ms.pytype_to_dtype(float), ms.pytype_to_dtype(bool)
        (mindspore.float64, mindspore.bool)
    """
    if isinstance(obj, MsType):
        return obj
    if obj is float:  # Python floats are doubles (unigrad's default float is float32)
        return float64
    return to_ms_dtype(obj)


def get_py_obj_dtype(obj) -> MsType:
    """The MindSpore dtype of a value: a Tensor's dtype, or the type of a Python number."""
    dtype = getattr(obj, "dtype", None)
    if dtype is not None:
        return to_ms_dtype(dtype)
    return pytype_to_dtype(type(obj))
