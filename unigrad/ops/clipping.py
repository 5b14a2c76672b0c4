"""MindSpore's clipping ops: ``ops.clip_by_global_norm`` and ``ops.clip_by_value``.

Both are composites of differentiable ops, so they work on gradients before an
optimizer step and inside a differentiated function alike. (The module is not
called ``clip``: that name is the elementwise ``ug.clip``.)

Example:
    >>> import unigrad as ug
    >>> grads = (ug.tensor([3.0, 0.0]), ug.tensor([[0.0, 4.0]]))
    >>> ug.ops.clip_by_global_norm(grads, clip_norm=1.0)
    (tensor([0.6000, 0.0000]), tensor([[0.0000, 0.8000]]))
    >>> ug.ops.clip_by_value(ug.tensor([-2.0, 0.5, 3.0]), -1.0, 1.0)
    tensor([-1.0000,  0.5000,  1.0000])
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..tensor import Tensor
from .elementwise import cast, maximum, minimum, sqrt, where
from .reduce import sum

__all__ = ["clip_by_global_norm", "clip_by_value"]

_FLOAT32 = np.dtype(np.float32)
_FLOAT64 = np.dtype(np.float64)


def _is_real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _check_clip_norm(clip_norm) -> float:
    if not _is_real(clip_norm):
        raise TypeError(f"For '_ClipByGlobalNorm', the 'clip_norm' must be float or int, but got "
                        f"{type(clip_norm).__name__}")
    value = float(clip_norm)
    if not value > 0.0 or math.isinf(value):
        raise ValueError(f"For '_ClipByGlobalNorm', the 'clip_norm' must be a finite number > 0, "
                         f"but got {clip_norm}.")
    return value


def clip_by_global_norm(x: tuple | list, clip_norm: float = 1.0, use_norm=None) -> tuple:
    """Scale a tuple of tensors so that their global L2 norm is at most ``clip_norm``.

    With ``g = sqrt(sum_i sum(x_i ** 2))`` (accumulated in float32, or in
    float64 when an ``x_i`` is float64), each ``x_i`` becomes
    ``x_i * clip_norm / max(g, clip_norm)`` cast back to ``x_i``'s dtype:
    tensors whose global norm is already within ``clip_norm`` come back
    unchanged; a NaN global norm makes every element NaN, an infinite one
    every finite element 0. ``x`` is a tuple or list of Tensors; the result
    is a tuple. Differentiable (the gradient at an all-zero ``x`` is finite).

    Example:
        >>> import unigrad as ug
        >>> ug.clip_by_global_norm([ug.tensor([6.0, 8.0])], clip_norm=5.0)
        (tensor([3., 4.]),)
        >>> ug.clip_by_global_norm((ug.tensor([0.3, 0.4]),))
        (tensor([0.3000, 0.4000]),)
    """
    if use_norm is not None:
        raise ValueError(f"For '_ClipByGlobalNorm', input 'use_norm' only supports None "
                         f"currently, but got 'use_norm': {use_norm}")
    clip_norm = _check_clip_norm(clip_norm)
    if not isinstance(x, (tuple, list)):
        raise TypeError(f"For 'clip_by_global_norm', the argument 'x' must be a tuple or list of "
                        f"Tensors, but got {type(x).__name__}")
    for index, item in enumerate(x):
        if not isinstance(item, Tensor):
            raise TypeError(f"For 'clip_by_global_norm', the argument 'x' must be a tuple or list "
                            f"of Tensors, but element {index} is {type(item).__name__}")
    if not x:
        return ()
    compute = _FLOAT64 if any(item._data.dtype == _FLOAT64 for item in x) else _FLOAT32
    total = None
    for item in x:
        wide = cast(item, compute)
        square_sum = sum(wide * wide)
        total = square_sum if total is None else total + square_sum
    # sqrt through a where: at a zero norm the gradient is 0, not 0 * inf; NaN stays NaN
    zero = total == 0
    norm = where(zero, 0.0, sqrt(where(zero, 1.0, total)))
    factor = clip_norm / maximum(norm, clip_norm)
    return tuple(cast(cast(item, compute) * factor, item._data.dtype) for item in x)


def _check_bound(value, name: str) -> None:
    if value is not None and not isinstance(value, Tensor) and not _is_real(value):
        raise TypeError(f"For 'clip_by_value', the type of argument '{name}' must be Tensor, "
                        f"float, int or None, but got {type(value).__name__}")


def _bound_like(bound, x: Tensor):
    """The bound in ``x``'s dtype (MindSpore casts it): a Tensor stays a Tensor."""
    dtype = x._data.dtype
    if isinstance(bound, Tensor):
        return cast(bound, dtype)
    if dtype.kind == "f":
        return float(bound)
    return np.asarray(bound).astype(dtype).item()


def _clip_tensor(x: Tensor, clip_value_min, clip_value_max) -> Tensor:
    if clip_value_min is not None:
        x = maximum(x, _bound_like(clip_value_min, x))
    if clip_value_max is not None:
        x = minimum(x, _bound_like(clip_value_max, x))
    return x


def clip_by_value(x: Tensor | tuple | list, clip_value_min: Tensor | float | None = None,
                  clip_value_max: Tensor | float | None = None) -> Tensor | tuple | list:
    """``min(max(x, clip_value_min), clip_value_max)`` for a Tensor, list or tuple of Tensors.

    Each bound is a Tensor (broadcast against ``x``), a number or None (no
    bound on that side; not both); bounds are cast to each tensor's dtype.
    When ``clip_value_min > clip_value_max`` every element becomes
    ``clip_value_max``. A list gives a list, a tuple a tuple.

    Example:
        >>> import unigrad as ug
        >>> ug.clip_by_value([ug.tensor([1.0, 5.0]), ug.tensor([-5.0])], clip_value_max=2.0)
        [tensor([1., 2.]), tensor([-5.])]
        >>> ug.clip_by_value(ug.tensor([0.0, 9.0]), 3.0, 2.0)
        tensor([2., 2.])
    """
    if clip_value_min is None and clip_value_max is None:
        raise ValueError("For 'clip_by_value', at least one of 'clip_value_min' or "
                         "'clip_value_max' must not be None")
    if isinstance(x, (tuple, list)):
        tensors = list(x)
    else:
        tensors = [x]
    if not all(isinstance(item, Tensor) for item in tensors):
        raise TypeError("For 'clip_by_value', the type of argument 'x' must be Tensor or "
                        "tuple[Tensor] or list[Tensor]")
    _check_bound(clip_value_min, "clip_value_min")
    _check_bound(clip_value_max, "clip_value_max")
    clipped = [_clip_tensor(item, clip_value_min, clip_value_max) for item in tensors]
    if isinstance(x, list):
        return clipped
    if isinstance(x, tuple):
        return tuple(clipped)
    return clipped[0]
