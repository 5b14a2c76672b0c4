"""Array namespaces per device, dtypes and PyTorch's type-promotion rules.

Every piece of array work in unigrad goes through the namespace returned by
:func:`namespace` (NumPy for ``"cpu"``, CuPy for ``"cuda"`` when installed), so
primitives never name NumPy or CuPy directly.

Example:
    >>> import unigrad as ug
    >>> ug.tensor([1.0, 2.0]).dtype
    unigrad.float32
    >>> (ug.tensor([1, 2]) * 1.5).dtype
    unigrad.float32
"""

from __future__ import annotations

import numpy as np

from . import _state

ndarray = np.ndarray
_global = _state.global_state


class DType:
    """A unigrad dtype: a thin, hashable name over a NumPy dtype."""

    __slots__ = ("name", "np_dtype", "is_floating_point", "is_complex", "is_signed", "kind",
                 "itemsize", "_category")

    def __init__(self, name: str, np_dtype: np.dtype, category: int):
        self.name = name
        self.np_dtype = np.dtype(np_dtype)
        self.is_floating_point = category == 2
        self.is_complex = category == 3
        self.is_signed = self.np_dtype.kind in "ifc"
        self.kind = self.np_dtype.kind  # NumPy's kind letter: "b", "u", "i", "f" or "c"
        self.itemsize = self.np_dtype.itemsize
        self._category = category

    @property
    def is_differentiable(self) -> bool:
        """Whether tensors of this dtype can require gradients (floating and complex)."""
        return self._category >= 2

    def to_real(self) -> DType:
        """The real dtype of the same precision (``complex64 -> float32``; others unchanged)."""
        return _REAL_OF.get(self, self)

    def to_complex(self) -> DType:
        """The complex dtype of the same precision (``float64 -> complex128``).

        Example:
            >>> import unigrad as ug
            >>> ug.float64.to_complex(), ug.complex64.to_real()
            (unigrad.complex128, unigrad.float32)
        """
        if self._category == 3:
            return self
        if self._category != 2:
            raise RuntimeError(f"to_complex is only supported for floating point dtypes, got "
                               f"{self.name}")
        return complex128 if self.np_dtype == np.float64 else complex64

    def __repr__(self) -> str:
        return f"{_global.text_names}.{self.name}"

    def __eq__(self, other) -> bool:
        if isinstance(other, DType):
            return self.np_dtype == other.np_dtype
        try:
            return self.np_dtype == to_numpy_dtype(other)
        except TypeError:
            return NotImplemented

    def __hash__(self) -> int:
        return hash(self.np_dtype)

    def __reduce__(self):
        return (from_numpy_dtype, (self.np_dtype,))


# category: 0 bool, 1 integer, 2 floating, 3 complex
bool_ = DType("bool", np.bool_, 0)
uint8 = DType("uint8", np.uint8, 1)
int8 = DType("int8", np.int8, 1)
int16 = DType("int16", np.int16, 1)
int32 = DType("int32", np.int32, 1)
int64 = DType("int64", np.int64, 1)
float16 = DType("float16", np.float16, 2)
float32 = DType("float32", np.float32, 2)
float64 = DType("float64", np.float64, 2)
complex64 = DType("complex64", np.complex64, 3)
complex128 = DType("complex128", np.complex128, 3)

_ALL_DTYPES = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64, complex64,
               complex128)
_REAL_OF = {complex64: float32, complex128: float64}
_BY_NUMPY = {d.np_dtype: d for d in _ALL_DTYPES}
_BY_NAME = {d.name: d for d in _ALL_DTYPES}
_BY_NAME.update({"float": float32, "double": float64, "half": float16, "long": int64, "int": int32,
                  "cfloat": complex64, "cdouble": complex128})

DEFAULT_FLOAT = np.dtype(np.float32)  # the initial default float dtype: see default_float()
DEFAULT_INT = np.dtype(np.int64)

# Process-global, as in PyTorch: ``set_default_dtype`` / ``set_default_device`` change them.
_DEFAULTS = {"float": DEFAULT_FLOAT, "device": None}


def default_float() -> np.dtype:
    """The NumPy dtype of the current default float dtype (``ug.get_default_dtype()``)."""
    return _DEFAULTS["float"]


def default_device():
    """The current default :class:`Device` (``ug.get_default_device()``)."""
    device = _DEFAULTS["device"]
    return CPU if device is None else device


def from_numpy_dtype(np_dtype) -> DType:
    """The unigrad dtype for a NumPy dtype (raises TypeError for unsupported ones)."""
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"unsupported dtype {np_dtype!r}; expected one of "
                        f"{', '.join(d.name for d in _ALL_DTYPES)}") from None


def to_numpy_dtype(dtype) -> np.dtype:
    """Normalise any dtype spelling (``ug.float32``, ``np.float32``, ``"float32"``, ``float``)."""
    if isinstance(dtype, DType):
        return dtype.np_dtype
    if dtype is float:
        return _DEFAULTS["float"]
    if dtype is int:
        return DEFAULT_INT
    if dtype is bool:
        return np.dtype(np.bool_)
    if isinstance(dtype, str):  # names only: NumPy's one-letter codes ("b" is int8) are not
        if dtype in _BY_NAME:
            return _BY_NAME[dtype].np_dtype
        raise TypeError(f"dtype must be a unigrad dtype such as ug.float32 or one of the names "
                        f"{', '.join(sorted(_BY_NAME))}, got {dtype!r}")
    try:
        result = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"dtype must be a unigrad dtype such as ug.float32, "
                        f"got {dtype!r}") from None
    if result not in _BY_NUMPY:
        raise TypeError(f"unsupported dtype {dtype!r}; expected one of "
                        f"{', '.join(d.name for d in _ALL_DTYPES)}")
    return result


def is_floating(np_dtype: np.dtype) -> bool:
    return np_dtype.kind == "f"


def is_differentiable(np_dtype: np.dtype) -> bool:
    """Whether arrays of this NumPy dtype carry gradients: floating and complex ones."""
    return np_dtype.kind in "fc"


def default_complex() -> np.dtype:
    """The complex dtype matching the default float dtype (complex64 for float32)."""
    return np.dtype(np.complex128) if _DEFAULTS["float"] == np.float64 else \
        np.dtype(np.complex64)


def complex_of(np_dtype: np.dtype) -> np.dtype:
    """The complex NumPy dtype of ``np_dtype``'s precision (float64 -> complex128;
    integral and bool dtypes -> the default complex dtype)."""
    if np_dtype.kind == "c":
        return np_dtype
    if np_dtype.kind == "f":
        return np.dtype(np.complex128) if np_dtype == np.float64 else np.dtype(np.complex64)
    return default_complex()


def real_of(np_dtype: np.dtype) -> np.dtype:
    """The real NumPy dtype of a complex one's precision (complex64 -> float32)."""
    if np_dtype.kind != "c":
        return np_dtype
    return np.dtype(np.float64) if np_dtype == np.complex128 else np.dtype(np.float32)


_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _category(np_dtype: np.dtype) -> int:
    return _CATEGORY[np_dtype.kind]


def promote_types(a: np.dtype, b: np.dtype) -> np.dtype:
    """Promotion of two tensor dtypes of equal standing (bool < int < float < complex).

    As in PyTorch, a floating dtype wins over any integer one (int64 with float32 is
    float32), and a complex one over both, keeping the floating one's precision
    (float64 with complex64 is complex128; int64 with complex64 is complex64).
    """
    if a == b:
        return a
    kind_a, kind_b = a.kind, b.kind
    if kind_a == kind_b or (kind_a in "iub" and kind_b in "iub"):
        return np.promote_types(a, b)
    if _CATEGORY[kind_a] < _CATEGORY[kind_b]:
        a, b = b, a
    if a.kind == "c" and b.kind == "f":
        return np.promote_types(a, b)
    return a


def result_dtype(dims_and_dtypes, scalars) -> np.dtype:
    """PyTorch's result type for an elementwise op.

    ``dims_and_dtypes`` lists ``(ndim, dtype)`` of tensor operands; ``scalars``
    lists Python numbers. Priority: dimensioned tensors, then zero-dim tensors,
    then Python scalars; a lower-priority operand only matters when it is of a
    higher category (bool < integer < floating < complex). A complex operand of a
    lower priority lifts a floating result to the complex dtype of its precision.
    """
    dim_dtype = None
    zero_dtype = None
    for ndim, dt in dims_and_dtypes:
        if ndim:
            dim_dtype = dt if dim_dtype is None else promote_types(dim_dtype, dt)
        else:
            zero_dtype = dt if zero_dtype is None else promote_types(zero_dtype, dt)
    result = dim_dtype
    if zero_dtype is not None:
        if result is None:
            result = zero_dtype
        elif _category(zero_dtype) > _category(result):
            result = promote_types(zero_dtype, result) if result.kind == "f" else zero_dtype
    scalar_category = -1
    for s in scalars:
        scalar_category = max(scalar_category, 0 if isinstance(s, (bool, np.bool_)) else
                              (2 if isinstance(s, float) else (3 if isinstance(s, complex)
                                                               else 1)))
    if scalar_category >= 0:
        if result is None:
            result = (np.dtype(np.bool_), DEFAULT_INT, _DEFAULTS["float"],
                      default_complex())[scalar_category]
        elif scalar_category > _category(result):
            result = (None, DEFAULT_INT, _DEFAULTS["float"], complex_of(result))[scalar_category]
    return result


# ----------------------------------------------------------------------------
# Devices and namespaces
# ----------------------------------------------------------------------------

class InvalidDeviceError(RuntimeError, ValueError):
    """An unknown device string: PyTorch's RuntimeError, also the ValueError of a bad value."""


class Device:
    """Where a tensor lives: ``cpu`` (NumPy) or ``cuda[:n]`` (CuPy)."""

    __slots__ = ("type", "index")

    def __init__(self, type="cpu", index: int | None = None):  # noqa: A002 - PyTorch's name
        spec = type
        if isinstance(spec, Device):
            self.type, self.index = spec.type, spec.index
            return
        if isinstance(spec, int) and not isinstance(spec, bool):  # torch.device(0): cuda:0
            spec = f"cuda:{spec}"
        if not isinstance(spec, str):
            raise TypeError(f"device must be a string such as 'cpu' or 'cuda', got {spec!r}")
        kind, _, text_index = spec.partition(":")
        if kind not in ("cpu", "cuda"):
            raise InvalidDeviceError(f"device must be 'cpu' or 'cuda[:N]', got {spec!r}")
        if text_index and index is not None:
            raise RuntimeError(f"type (string) must not include an index because index was "
                               f"passed explicitly: {spec}")
        if index is not None and (isinstance(index, bool) or not isinstance(index, int)
                                  or index < 0):
            raise RuntimeError(f"Device index must not be negative, got {index!r}")
        self.type = kind
        if text_index:
            self.index = int(text_index)
        elif index is not None:
            self.index = index
        else:
            self.index = 0 if kind == "cuda" else None

    def __eq__(self, other):
        if isinstance(other, str):  # unigrad compares with spellings ("cpu"); PyTorch does not
            try:
                other = Device(other)
            except (TypeError, ValueError):
                return False
        return isinstance(other, Device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __repr__(self):
        return f"device(type='{self.type}')" if self.index is None else \
            f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"


CPU = Device("cpu")


class DeviceUnavailableError(RuntimeError, AssertionError):
    """A tensor was sent to a device this machine cannot use: a RuntimeError (unigrad,
    MindSpore) and, as PyTorch's CPU build raises, an AssertionError."""


def _import_cupy():
    try:
        import cupy
    except ImportError:  # pragma: no cover - depends on the machine
        if _global.text_names == "torch":  # PyTorch's CPU build: exactly its error
            raise AssertionError("Torch not compiled with CUDA enabled") from None
        raise DeviceUnavailableError("device 'cuda' needs CuPy: pip install 'unigrad[gpu]'") \
            from None
    return cupy


def namespace(device: Device | str = CPU):
    """The array module (``numpy`` or ``cupy``) that backs ``device``."""
    device = device if isinstance(device, Device) else Device(device)
    if device.type == "cpu":
        return np
    return _import_cupy()


def namespace_of(array):
    """The array module of an array (NumPy unless it is a CuPy array)."""
    if type(array) is np.ndarray or not hasattr(array, "__cuda_array_interface__"):
        return np
    return _import_cupy()


def device_of(array) -> Device:
    if type(array) is np.ndarray or not hasattr(array, "__cuda_array_interface__"):
        return CPU
    return Device(f"cuda:{array.device.id}")


def to_device(array, device: Device):
    """Move an array to ``device`` (a no-op when it is already there)."""
    if device_of(array) == device:
        return array
    if device.type == "cpu":
        return array.get()
    cupy = _import_cupy()
    with cupy.cuda.Device(device.index):
        return cupy.asarray(array)


def to_numpy(array) -> np.ndarray:
    """A NumPy view or copy of any backend array."""
    if type(array) is np.ndarray:
        return array
    if hasattr(array, "__cuda_array_interface__"):
        return array.get()
    return np.asarray(array)
