"""Helpers for shape rules: abstract values and broadcasting without computing."""

from __future__ import annotations

import numpy as np


def shape_of(value) -> tuple:
    return tuple(getattr(value, "shape", ()))


def dtype_of(value) -> np.dtype:
    """The NumPy dtype of an array, an abstract array, a Tensor or a Python number."""
    dtype = getattr(value, "dtype", None)
    if dtype is not None:
        return np.dtype(getattr(dtype, "np_dtype", dtype))  # a Tensor's DType wraps one
    return np.result_type(value)


def broadcast_shapes(*shapes) -> tuple:
    """NumPy broadcasting of shapes; ValueError naming both shapes when incompatible."""
    ndim = max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for shape in shapes:
        for i, dim in enumerate(shape):
            axis = ndim - len(shape) + i
            if dim == result[axis] or dim == 1:
                continue
            if result[axis] == 1:
                result[axis] = dim
            else:
                raise ValueError(f"shapes {' and '.join(str(list(s)) for s in shapes)} cannot be "
                                 f"broadcast together (dimension {axis}: {result[axis]} vs {dim})")
    return tuple(result)


def elementwise_rule(dtype_rule=None):
    """A shape rule for an elementwise op: broadcast shapes, dtype from ``dtype_rule``."""
    def rule(*avals, **params):
        shape = broadcast_shapes(*(shape_of(a) for a in avals))
        arrays = [a for a in avals if hasattr(a, "shape")]
        if dtype_rule is not None:
            dtype = np.dtype(dtype_rule(*avals))
        elif arrays:  # Python numbers are weak, as in NumPy (NEP 50): f32 * 2.0 is f32
            dtype = np.result_type(*(a.dtype for a in arrays),
                                   *(a for a in avals if type(a) in (int, float, bool, complex)))
        else:
            dtype = dtype_of(avals[0])
        return shape, dtype
    return rule


def integer_argument(value, function: str, name: str) -> int:
    """``value`` (an int or a one-element integer Tensor, never a bool) as an int, or
    PyTorch's TypeError naming ``function`` and the argument ``name``.

    Example:
        >>> from unigrad.ops._shape_rules import integer_argument
        >>> integer_argument(3, "tril", "diagonal")
        3
        >>> integer_argument(1.5, "tril", "diagonal")
        Traceback (most recent call last):
        ...
        TypeError: tril(): argument 'diagonal' must be int, not float
    """
    from ..tensor import Tensor
    if isinstance(value, Tensor) and value._data.ndim == 0:
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{function}(): argument '{name}' must be int, not "
                        f"{type(value).__name__}")
    return int(value)


def normalize_axis(axis, ndim: int, name: str = "dim") -> int:
    """A dim in ``[-ndim, ndim)`` as a positive axis (0-d tensors accept 0 and -1)."""
    if type(axis) is int and -ndim <= axis < ndim:  # the common case
        return axis % ndim
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"{name} must be an int, got {type(axis).__name__}")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(ndim, 1)}, {max(ndim, 1) - 1}], but got {axis})")
    return int(axis) % max(ndim, 1)


def normalize_axes(axis, ndim: int, name: str = "dim") -> tuple:
    """``None`` -> all axes; an int or a sequence of ints -> a sorted tuple of positive axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (list, tuple)):
        axes = []
        for a in axis:  # a loop, not a generator: this runs on every reduction
            axes.append(normalize_axis(a, ndim, name))
        axes = tuple(axes)
        if len(set(axes)) != len(axes):
            repeated = next(a for a in axes if axes.count(a) > 1)
            raise RuntimeError(f"{name} {repeated} appears multiple times in the list of dims")
        return tuple(sorted(axes))
    return (normalize_axis(axis, ndim, name),)
