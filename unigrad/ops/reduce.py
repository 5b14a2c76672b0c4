"""Reduction primitives (sum, mean) and reduction composites.

``dim``/``keepdim`` (PyTorch) and ``axis``/``keepdims`` (NumPy) are both accepted.

Example:
    >>> import unigrad as ug
    >>> x = ug.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> ug.sum(x, dim=0)
    tensor([4., 6.])
    >>> x.mean(axis=1, keepdims=True).shape
    (2, 1)
"""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from ._dtypes import DEFAULT_INT
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, normalize_axes, shape_of


def reduced_shape(shape: tuple, axes: tuple, keepdims: bool) -> tuple:
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def expand_reduced(g, shape: tuple, axes: tuple, keepdims: bool):
    """Broadcast a reduced cotangent back to the input ``shape``."""
    from .shape import broadcast_to, reshape
    if not keepdims:
        g = reshape(g, reduced_shape(shape, axes, True))
    return broadcast_to(g, shape)


def _reduce_rule(dtype_rule=None):
    def rule(x, axes, keepdims, **params):
        dtype = dtype_of(x) if dtype_rule is None else np.dtype(dtype_rule(dtype_of(x)))
        return reduced_shape(shape_of(x), axes, keepdims), dtype
    return rule


def _sum_dtype(dtype):
    return DEFAULT_INT if dtype.kind in "biu" else dtype


sum_p = Primitive("sum", lambda x, axes, keepdims: x.sum(axis=axes, keepdims=keepdims,
                                                          dtype=_sum_dtype(x.dtype)),
                  _reduce_rule(_sum_dtype), kind="linear", saves_inputs=False,
                  vjp=lambda g, out, needs, x, axes, keepdims: (
                      expand_reduced(g, x.shape, axes, keepdims),))


def _mean_vjp(g, out, needs, x, axes, keepdims):
    count = 1
    for a in axes:
        count *= x.shape[a]
    return (expand_reduced(g, x.shape, axes, keepdims) * (1.0 / max(count, 1)),)


mean_p = Primitive("mean", lambda x, axes, keepdims: x.mean(axis=axes, keepdims=keepdims),
                   _reduce_rule(), kind="linear", saves_inputs=False, vjp=_mean_vjp)


def _axes_and_keepdims(x, dim, keepdim, axis, keepdims):
    if axis is not None and dim is not None:
        raise TypeError("pass either dim= or axis=, not both")
    if dim is None:
        dim = axis
    keep = bool(keepdim or keepdims)
    ndim = len(x.shape)
    if ndim == 0:
        normalize_axes(dim, 1) if dim is not None and dim != () else None
        return (), keep
    if isinstance(dim, (list, tuple)) and len(dim) == 0:
        dim = None
    return normalize_axes(dim, ndim), keep


def sum(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False, dtype=None):
    """Sum over ``dim`` (all dimensions by default); integers sum to int64.

    Example:
        >>> import unigrad as ug
        >>> ug.sum(ug.ones((2, 3)), dim=1)
        tensor([3., 3.])
    """
    axes, keep = _axes_and_keepdims(input, dim, keepdim, axis, keepdims)
    if dtype is not None:
        from .elementwise import cast
        input = cast(input, dtype)
    return bind(sum_p, input, axes=axes, keepdims=keep)


def mean(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False, dtype=None):
    """Arithmetic mean over ``dim`` (floating tensors only, as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.mean(ug.tensor([1.0, 2.0, 6.0]))
        tensor(3.)
    """
    if dtype is not None:
        from .elementwise import cast
        input = cast(input, dtype)
    if isinstance(input, Tensor) and input._data.dtype.kind != "f":
        raise RuntimeError(f"mean(): could not infer output dtype. Input dtype must be either a "
                           f"floating point or complex dtype. Got: {input.dtype.name.capitalize()}")
    axes, keep = _axes_and_keepdims(input, dim, keepdim, axis, keepdims)
    return bind(mean_p, input, axes=axes, keepdims=keep)
