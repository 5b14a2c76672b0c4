"""PyTorch-style text form of tensors: ``tensor([1., 2.], requires_grad=True)``."""

from __future__ import annotations

import numpy as np

from . import backend

_DEFAULT_DTYPES = (np.dtype(np.float32), np.dtype(np.int64), np.dtype(np.bool_))


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
            options = dict(floatmode="unique")
        elif magnitude >= 1e8 or smallest < 1e-4:
            return np.array2string(array, separator=", ", prefix="tensor(",
                                   formatter={"float_kind": lambda v: f"{v:.4e}"})
        else:
            options = dict(precision=4, floatmode="fixed")
        return np.array2string(array, separator=", ", prefix="tensor(", suppress_small=False,
                               **options)
    return np.array2string(array, separator=", ", prefix="tensor(")


def format_tensor(tensor) -> str:
    array = backend.to_numpy(tensor._data)
    body = format_array(array)
    extras = []
    if tensor.device.type != "cpu":
        extras.append(f"device='{tensor.device}'")
    if array.size == 0 and array.shape != (0,):
        extras.append(f"size={tuple(array.shape)}")
    if array.dtype not in _DEFAULT_DTYPES or (array.size == 0 and array.dtype != np.float32):
        extras.append(f"dtype={backend.from_numpy_dtype(array.dtype)!r}")
    if tensor._grad_fn is not None:
        extras.append(f"grad_fn=<{tensor._grad_fn.name()}>")
    elif tensor._requires_grad:
        extras.append("requires_grad=True")
    return "tensor(" + ", ".join([body] + extras) + ")"
