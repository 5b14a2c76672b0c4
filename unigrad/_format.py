"""PyTorch-style text form of tensors: ``tensor([1., 2.], requires_grad=True)``."""

from __future__ import annotations

import numpy as np

from . import backend

_DEFAULT_DTYPES = (np.dtype(np.int64), np.dtype(np.bool_))


def _is_default_dtype(dtype: np.dtype) -> bool:
    """Whether PyTorch leaves ``dtype=`` out of the repr: the default float dtype, its
    complex dtype, int64 and bool."""
    return dtype in _DEFAULT_DTYPES or dtype == backend.default_float() or \
        dtype == backend.default_complex()


def format_array(array: np.ndarray) -> str:
    """Values as PyTorch prints them: 4 decimals unless every value is integral."""
    if array.dtype == np.float16:  # NumPy prints half floats in scientific notation
        array = array.astype(np.float32)
    if array.dtype.kind == "f" and array.size:
        finite = array[np.isfinite(array)]
        integral = finite.size == 0 or bool(np.all(finite == np.round(finite)))
        magnitude = float(np.max(np.abs(finite))) if finite.size else 0.0
        smallest = float(np.min(np.abs(finite[finite != 0]))) if np.any(finite != 0) else 1.0
        if integral and magnitude < 1e8:
            if finite.size != array.size:  # PyTorch pads to the finite values' width only
                return _with_formatter(array, "float_kind", _integral_formatter(finite))
            options = dict(floatmode="unique")
        elif magnitude >= 1e8 or smallest < 1e-4:
            width = max((len(f"{value:.4e}") for value in finite.tolist()), default=1)
            return _with_formatter(array, "float_kind",
                                   lambda value: f"{value:.4e}".rjust(width))
        else:
            options = dict(precision=4, floatmode="fixed")
        return np.array2string(array, separator=", ", prefix="tensor(", suppress_small=False,
                               **options)
    if array.dtype.kind == "c" and array.size:
        return _with_formatter(array, "complex_kind", _complex_formatter(array))
    if array.dtype == np.bool_ and array.size:
        width = 4 if bool(array.all()) else 5  # "True" pads only next to a "False"
        return _with_formatter(array, "bool", lambda value: str(bool(value)).rjust(width))
    return np.array2string(array, separator=", ", prefix="tensor(")


def _with_formatter(array: np.ndarray, kind: str, formatter) -> str:
    return np.array2string(array, separator=", ", prefix="tensor(", formatter={kind: formatter})


def _integral_formatter(finite: np.ndarray):
    """PyTorch's integral-float form (``2.``), right-aligned to the width of the nonzero
    finite values; ``nan``/``inf``/``-inf`` are never padded beyond it."""
    nonzero = finite[finite != 0]
    width = max((len(f"{value:.0f}") + 1 for value in nonzero.tolist()), default=1)

    def format_value(value) -> str:
        text = f"{value:.0f}." if np.isfinite(value) else str(float(value))
        return text.rjust(width)
    return format_value


def _part_formatter(values: np.ndarray):
    """One real part's formatter, as PyTorch picks it for a complex tensor's real or
    imaginary parts: integral (``2.``), scientific (``1.0000e-05``) or fixed (``1.5000``),
    right-aligned to the widest value."""
    finite = values[np.isfinite(values)]
    integral = finite.size == 0 or bool(np.all(finite == np.round(finite)))
    magnitude = float(np.max(np.abs(finite))) if finite.size else 0.0
    smallest = float(np.min(np.abs(finite[finite != 0]))) if np.any(finite != 0) else 1.0
    if integral and magnitude < 1e8:
        return _integral_formatter(finite)
    if magnitude >= 1e8 or smallest < 1e-4:
        spell = "{:.4e}".format
    else:
        spell = "{:.4f}".format
    width = max((len(spell(value)) for value in finite.tolist()), default=1)

    def format_value(value) -> str:
        return (spell(value) if np.isfinite(value) else str(float(value))).rjust(width)
    return format_value


def _complex_formatter(array: np.ndarray):
    """PyTorch's complex form: the real part aligned, then the signed imaginary part
    (``1.5000+2.j``, ``-3.0000-1.j``)."""
    real = _part_formatter(array.real.astype(np.float64))
    imag = _part_formatter(array.imag.astype(np.float64))

    def format_value(value) -> str:
        imag_text = imag(value.imag).lstrip()
        if imag_text[0] not in "+-":
            imag_text = "+" + imag_text
        return real(value.real) + imag_text + "j"
    return format_value


def format_tensor(tensor) -> str:
    array = backend.to_numpy(tensor._data)
    body = format_array(array)
    extras = []
    if tensor.device.type != "cpu":
        extras.append(f"device='{tensor.device}'")
    if array.size == 0 and array.shape != (0,):
        extras.append(f"size={tuple(array.shape)}")
    if not _is_default_dtype(array.dtype) or (array.size == 0 and
                                              array.dtype != backend.default_float()):
        extras.append(f"dtype={backend.from_numpy_dtype(array.dtype)!r}")
    if tensor._grad_fn is not None:
        extras.append(f"grad_fn=<{tensor._grad_fn.name()}>")
    elif tensor._requires_grad:
        extras.append("requires_grad=True")
    return "tensor(" + ", ".join([body] + extras) + ")"
