"""TensorFlow's ``tf.DType``: a unigrad dtype that prints and answers as TensorFlow's.

Each ``DType`` is a :class:`unigrad.backend.DType` (it compares and hashes equal to
the unigrad and NumPy dtype of the same kind, and to its name, so it can be passed
anywhere unigrad takes a dtype); only its text (``tf.float32``,
``<dtype: 'float32'>``) and TensorFlow's properties are added.

Example:
    >>> import numpy as np
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.float32, str(tf.float32)
    (tf.float32, "<dtype: 'float32'>")
    >>> tf.float32 == np.float32 == tf.as_dtype("float32")
    True
"""

from __future__ import annotations

import numpy as np

from unigrad import backend

__all__ = ["DType", "as_dtype", "ALL_DTYPES"]


class DType(backend.DType):
    """The type of a tensor's elements (``tf.DType``), with TensorFlow's properties.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.uint8.is_integer, tf.uint8.is_unsigned, tf.uint8.min, tf.uint8.max
        (True, True, 0, 255)
        >>> tf.complex64.real_dtype, tf.complex64.size
        (tf.float32, 8)
    """

    __slots__ = ("_enum",)

    def __init__(self, name: str, np_dtype, category: int, enum: int) -> None:
        super().__init__(name, np_dtype, category)
        self._enum = enum

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"

    def __eq__(self, other) -> bool:
        if other is None:
            return False
        if isinstance(other, str):
            return _BY_NAME.get(other) is self
        return backend.DType.__eq__(self, other)

    def __ne__(self, other) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.np_dtype)

    def __reduce__(self):
        return (as_dtype, (self.name,))

    @property
    def as_numpy_dtype(self) -> type:
        """The NumPy scalar type (``numpy.float32``)."""
        return self.np_dtype.type

    @property
    def as_datatype_enum(self) -> int:
        """TensorFlow's ``DataType`` enum number (``1`` for float32)."""
        return self._enum

    @property
    def base_dtype(self) -> DType:
        """The dtype itself (TensorFlow 1 reference dtypes do not exist here)."""
        return self

    @property
    def real_dtype(self) -> DType:
        """The dtype of the real part: ``float32`` for ``complex64``, else the dtype itself."""
        return _REAL.get(self.name, self)

    @property
    def is_floating(self) -> bool:
        return self._category == 2

    @property
    def is_integer(self) -> bool:
        return self._category == 1

    @property
    def is_bool(self) -> bool:
        return self._category == 0

    @property
    def is_unsigned(self) -> bool:
        return self.kind == "u"

    @property
    def is_numeric(self) -> bool:
        return self._category in (1, 2, 3)

    @property
    def is_quantized(self) -> bool:
        return False

    @property
    def size(self) -> int:
        """Bytes per element (0 for ``string``)."""
        return 0 if self.name == "string" else self.itemsize

    @property
    def min(self):
        """The smallest value of the dtype.

        Raises:
            TypeError: For bool, complex and string dtypes, which have none.
        """
        return self._limit("minimum", lambda info: info.min)

    @property
    def max(self):
        """The largest value of the dtype (``TypeError`` for bool, complex and string)."""
        return self._limit("maximum", lambda info: info.max)

    @property
    def limits(self) -> tuple:
        """TensorFlow's image-value range with the low end clipped to 0: ``(0, max)`` for
        integers, ``(0, True)`` for bool, ``(0, 1)`` for float32 and float64.

        Raises:
            ValueError: For the other dtypes, which have no defined limits.
        """
        if self.is_integer:
            return (0, int(self.max))
        if self.is_bool:
            return (0, True)
        if self.name in ("float32", "float64"):
            return (0, 1)
        raise ValueError(f"{self} does not have defined limits.")

    def _limit(self, which: str, pick):
        if self._category == 2:
            return pick(np.finfo(self.np_dtype))
        if self._category == 1:
            return int(pick(np.iinfo(self.np_dtype)))
        raise TypeError(f"Cannot find {which} value of {self} with type {self}.")

    def is_compatible_with(self, other) -> bool:
        """Whether ``other`` (any dtype spelling) is this dtype.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> tf.float32.is_compatible_with("float32"), tf.float32.is_compatible_with(tf.int32)
            (True, False)
        """
        return as_dtype(other) is self


_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3, "O": -1}  # -1: string

# name, NumPy dtype, TensorFlow's DataType enum number
_TABLE = (("float32", np.float32, 1), ("float64", np.float64, 2), ("int32", np.int32, 3),
          ("uint8", np.uint8, 4), ("int16", np.int16, 5), ("int8", np.int8, 6),
          ("string", np.object_, 7), ("complex64", np.complex64, 8), ("int64", np.int64, 9),
          ("bool", np.bool_, 10), ("uint16", np.uint16, 17), ("complex128", np.complex128, 18),
          ("float16", np.float16, 19), ("uint32", np.uint32, 22), ("uint64", np.uint64, 23))

ALL_DTYPES = tuple(DType(name, np_dtype, _CATEGORY[np.dtype(np_dtype).kind], enum)
                   for name, np_dtype, enum in _TABLE)
_BY_NAME = {dtype.name: dtype for dtype in ALL_DTYPES}
_REAL = {"complex64": _BY_NAME["float32"], "complex128": _BY_NAME["float64"]}
_BY_NAME.update({"half": _BY_NAME["float16"], "float": _BY_NAME["float32"],
                 "double": _BY_NAME["float64"]})
_BY_NUMPY = {dtype.np_dtype: dtype for dtype in ALL_DTYPES}
_BY_ENUM = {dtype.as_datatype_enum: dtype for dtype in ALL_DTYPES}
_BY_NUMPY[np.dtype(np.str_)] = _BY_NUMPY[np.dtype(np.bytes_)] = _BY_NAME["string"]


def as_dtype(type_value) -> DType:
    """``tf.as_dtype``: the TensorFlow dtype of a dtype, NumPy dtype or type, name
    (``"float32"``) or ``DataType`` enum number.

    Raises:
        TypeError: When ``type_value`` names no TensorFlow dtype.

    Example:
        >>> import numpy as np
        >>> import unigrad as ug
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.as_dtype("complex128"), tf.as_dtype(np.int8), tf.as_dtype(ug.float64)
        (tf.complex128, tf.int8, tf.float64)
    """
    found = _find(type_value)
    if found is None:
        raise TypeError(f"Cannot convert the argument `type_value`: {type_value!r} to a "
                        f"TensorFlow DType.")
    return found


def _find(type_value) -> DType | None:
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, backend.DType):
        return _BY_NUMPY[type_value.np_dtype]
    if isinstance(type_value, str):
        return _BY_NAME.get(type_value)
    if isinstance(type_value, (int, np.integer)) and not isinstance(type_value, bool):
        return _BY_ENUM.get(int(type_value))
    if type_value is None or type_value is int or type_value is complex:
        return None
    if type_value is float:
        return _BY_NAME["float32"]
    if type_value is object or type_value is str or type_value is bytes:
        return _BY_NAME["string"]
    try:
        return _BY_NUMPY.get(np.dtype(type_value))
    except TypeError:
        return None
