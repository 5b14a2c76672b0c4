"""``finfo`` and ``iinfo``: the numeric limits of floating and integer dtypes (PyTorch's).

Example:
    >>> import unigrad as ug
    >>> ug.finfo(ug.float32).eps
    1.1920928955078125e-07
    >>> ug.iinfo(ug.int8)
    iinfo(min=-128, max=127, dtype=int8)
    >>> ug.finfo(ug.complex128).bits
    64
"""

from __future__ import annotations

import numpy as np

from . import _state, backend

__all__ = ["finfo", "iinfo"]

_global = _state.global_state


class finfo:  # noqa: N801 - PyTorch's and NumPy's name
    """The limits of a floating dtype (a complex dtype gives its real part's):
    ``bits``, ``eps``, ``max``, ``min``, ``tiny`` (= ``smallest_normal``), ``resolution``
    and ``dtype`` (its name). Without an argument: the default float dtype.

    Example:
        >>> import unigrad as ug
        >>> info = ug.finfo(ug.float16)
        >>> info.max, info.tiny, info.resolution, info.dtype
        (65504.0, 6.103515625e-05, 0.001, 'float16')
    """

    __slots__ = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")
    __hash__ = None

    def __init__(self, type=None):  # noqa: A002 - PyTorch's argument name
        dtype = backend.from_numpy_dtype(backend.default_float() if type is None else
                                         backend.to_numpy_dtype(type))
        if not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError(f"{_global.text_names}.finfo() requires a floating point input "
                            f"type. Use {_global.text_names}.iinfo to handle "
                            f"'{_global.text_names}.finfo'")
        limits = np.finfo(dtype.to_real().np_dtype)
        self.bits = int(limits.bits)
        self.eps = float(limits.eps)
        self.max = float(limits.max)
        self.min = float(limits.min)
        self.tiny = self.smallest_normal = float(limits.smallest_normal)
        self.resolution = 10.0 ** -int(limits.precision)
        self.dtype = dtype.to_real().name

    def __eq__(self, other) -> bool:
        return isinstance(other, finfo) and self.dtype == other.dtype

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:  # noqa: N801 - PyTorch's and NumPy's name
    """The limits of an integer dtype: ``bits``, ``max``, ``min`` and ``dtype`` (its name).

    Example:
        >>> import unigrad as ug
        >>> ug.iinfo(ug.uint8).max, ug.iinfo(ug.int64).bits
        (255, 64)
    """

    __slots__ = ("bits", "max", "min", "dtype")
    __hash__ = None

    def __init__(self, type):  # noqa: A002 - PyTorch's argument name
        dtype = backend.from_numpy_dtype(backend.to_numpy_dtype(type))
        names = _global.text_names
        if dtype == backend.bool_:
            raise TypeError(f"{dtype!r} is not supported by {names}.iinfo")
        if dtype.is_floating_point or dtype.is_complex:
            raise TypeError(f"{names}.iinfo() requires an integer input type. Use "
                            f"{names}.finfo to handle '{names}.iinfo'")
        limits = np.iinfo(dtype.np_dtype)
        self.bits = int(limits.bits)
        self.max = int(limits.max)
        self.min = int(limits.min)
        self.dtype = dtype.name

    def __eq__(self, other) -> bool:
        return isinstance(other, iinfo) and self.dtype == other.dtype

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
