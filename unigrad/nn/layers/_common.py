"""Argument checks and Parameter construction shared by the layers.

Example:
    >>> import unigrad as ug
    >>> from unigrad.nn.layers._common import new_parameter
    >>> new_parameter("ones", (2,), ug.float64, None)
    Parameter containing:
    tensor([1., 1.], dtype=unigrad.float64, requires_grad=True)
"""

from __future__ import annotations

import numbers

import numpy as np

from ...backend import (
    Device,
    DType,
    default_float,
    from_numpy_dtype,
    to_device,
    to_numpy_dtype,
)
from ...tensor import Tensor
from ..init import initializer
from ..parameter import Parameter


def floating_dtype(dtype, owner: str) -> DType:
    """``dtype`` (any spelling) as a floating-point unigrad dtype; None means the default
    floating dtype (float32 unless changed by ``set_default_dtype``, as in PyTorch)."""
    if dtype is None:
        return from_numpy_dtype(default_float())
    resolved = from_numpy_dtype(to_numpy_dtype(dtype))
    if not resolved.is_floating_point:
        raise TypeError(f"For '{owner}', the argument 'dtype' must be a floating-point dtype, "
                        f"but got {resolved.name}")
    return resolved


def device_of(device) -> Device | None:
    return None if device is None else (device if isinstance(device, Device) else Device(device))


def new_parameter(init, shape: tuple, dtype: DType, device: Device | None,
                  requires_grad: bool = True, *, argument: str | None = None,
                  owner: str = "") -> Parameter:
    """A Parameter of ``shape`` filled by ``initializer(init, shape, dtype)`` on ``device``.

    ``argument``/``owner`` name the user's argument (``'weight_init'`` of
    ``'Dense'``) in the error raised for an unusable ``init``.
    """
    try:
        data = initializer(init, shape, dtype)._data
    except (TypeError, ValueError) as error:
        if argument is None:
            raise
        raise type(error)(f"For '{owner}', the argument '{argument}' cannot initialize a "
                          f"parameter of shape {shape}: {error}") from error
    if device is not None:
        data = to_device(data, device)
    return Parameter(data, requires_grad=requires_grad)


def new_buffer(value, shape: tuple, dtype, device: Device | None) -> Tensor:
    """A plain (non-Parameter) tensor filled with the constant ``value``."""
    data = np.full(shape, value, dtype=to_numpy_dtype(dtype))
    tensor = Tensor(data)
    if device is not None:
        tensor._data = to_device(tensor._data, device)
    return tensor


class NegativeSizeError(RuntimeError, ValueError):
    """A negative layer size: PyTorch's RuntimeError (from creating the weight) that is also
    the ValueError MindSpore's and Keras's argument checks raise."""


def positive_int(value, name: str, owner: str, allow_zero: bool = False) -> int:
    """``value`` as an int, or an error naming ``owner`` and ``name``: TypeError for a
    non-int, RuntimeError for a negative size (PyTorch's, from creating the weight),
    ValueError for a zero one where zero is not allowed."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{owner}: argument '{name}' must be an int, "
                        f"got {type(value).__name__}")
    if value < 0:
        raise NegativeSizeError(f"{owner}: argument '{name}' must be a non-negative integer, "
                                f"got {value} (a tensor cannot have a negative dimension)")
    if value == 0 and not allow_zero:
        bound = "non-negative" if allow_zero else "positive"
        raise ValueError(f"{owner}: argument '{name}' must be a {bound} integer, got {value}")
    return int(value)


def int_tuple(value, rank: int, name: str, owner: str, minimum: int = 1) -> tuple[int, ...]:
    """An int or a sequence of ``rank`` ints as a ``rank``-tuple, each at least ``minimum``."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        items = (int(value),) * rank
    elif isinstance(value, (tuple, list)) and len(value) == rank and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
        items = tuple(int(v) for v in value)
    else:
        raise TypeError(f"{owner}: argument '{name}' must be an int or a tuple of {rank} ints, "
                        f"got {value!r}")
    if any(v < minimum for v in items):
        raise ValueError(f"{owner}: argument '{name}' must be >= {minimum}, got {value!r}")
    return items


def real_number(value, name: str, owner: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{owner}: argument '{name}' must be a real number, "
                        f"got {type(value).__name__}")
    return float(value)
