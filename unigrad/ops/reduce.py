"""Reduction primitives (sum, mean, prod, amax/amin, argmax/argmin, all/any, cumsum)
and reduction composites (max/min, var/std, logsumexp, norm, count_nonzero).

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

import builtins
import math
import numbers
import warnings
from collections import namedtuple

import numpy as np

from .. import _state
from ..autograd.node import present_as
from ..backend import namespace_of
from ..interpreters.batching import over_axes
from ..tensor import Tensor
from . import elementwise as _elementwise
from . import shape as _shape
from ._dtypes import DEFAULT_INT, float_operand, torch_dtype_name
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, normalize_axes, normalize_axis, shape_of
from .registry import op

_local = _state.local

__all__ = ["sum", "mean", "prod", "amax", "amin", "max", "min", "argmax", "argmin", "all", "any",
           "cumsum", "count_nonzero", "var", "std", "logsumexp", "norm", "vector_norm"]


def reduced_shape(shape: tuple, axes: tuple, keepdims: bool) -> tuple:
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def expand_reduced(g, shape: tuple, axes: tuple, keepdims: bool):
    """Broadcast a reduced cotangent back to the input ``shape``."""
    broadcast_to, reshape = _shape.broadcast_to, _shape.reshape
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


def _sum_expression(eqn, operands: list, namer) -> str | None:
    """``x.sum(axis=..., keepdims=...)`` in generated graph code (floating sums only)."""
    if eqn.out.dtype.kind not in "fc" or eqn.inputs[0].dtype != eqn.out.dtype:
        return None
    axes = eqn.params["axes"]
    return (f"{operands[0]}.sum(axis={namer.value(axes)}, "
            f"keepdims={bool(eqn.params['keepdims'])!r})")


sum_p = Primitive("sum", lambda x, axes, keepdims: x.sum(axis=axes, keepdims=keepdims,
                                                          dtype=_sum_dtype(x.dtype)),
                  _reduce_rule(_sum_dtype), kind="linear",
                  vjp=lambda g, out, needs, x, axes, keepdims: (
                      expand_reduced(g, x.shape, axes, keepdims),), saves="nothing",
                  autocast="float32", expression=_sum_expression, batch=over_axes("axes"),
                  result_memory="fresh")


def _mean_vjp(g, out, needs, x, axes, keepdims):
    count = 1
    for a in axes:
        count *= x.shape[a]
    return (expand_reduced(g, x.shape, axes, keepdims) * (1.0 / builtins.max(count, 1)),)


def _mean_impl(x, axes, keepdims):
    # sum / count rather than ndarray.mean, whose Python wrapper costs more than the sum on
    # small arrays; float16 accumulates in float32, as NumPy's mean does
    count = 1
    for axis in axes:
        count *= x.shape[axis]
    if x.dtype == np.float16:
        total = x.sum(axis=axes, keepdims=keepdims, dtype=np.float32)
        return (total / count).astype(np.float16) if count else total.astype(np.float16) * np.nan
    total = x.sum(axis=axes, keepdims=keepdims)
    if not count:
        return total * np.nan
    return total / count


mean_p = Primitive("mean", _mean_impl, _reduce_rule(), kind="linear",
                   vjp=_mean_vjp, saves="nothing", autocast="float32", batch=over_axes("axes"),
                   result_memory="fresh")


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


@op(methods=("sum",))
def sum(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False, dtype=None):
    """Sum over ``dim`` (all dimensions by default); integers sum to int64 unless ``dtype``
    says otherwise.

    Example:
        >>> import unigrad as ug
        >>> ug.sum(ug.ones((2, 3)), dim=1)
        tensor([3., 3.])
    """
    axes, keep = _axes_and_keepdims(input, dim, keepdim, axis, keepdims)
    if dtype is None:
        total = bind(sum_p, input, axes=axes, keepdims=keep)
    else:
        cast = _elementwise.cast
        total = bind(sum_p, cast(input, dtype), axes=axes, keepdims=keep)
        # integers accumulate in int64; an explicit integer dtype is the result's (PyTorch)
        total = total if total.dtype == dtype else cast(total, dtype)
    if dim is None and axis is None:
        return total
    return present_as(total, "SumBackward1", input)  # PyTorch's node for sum over dims


@op(methods=("mean",))
def mean(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False, dtype=None):
    """Arithmetic mean over ``dim`` (floating tensors only, as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.mean(ug.tensor([1.0, 2.0, 6.0]))
        tensor(3.)
    """
    if dtype is not None:
        cast = _elementwise.cast
        input = cast(input, dtype)
    if isinstance(input, Tensor) and input._data.dtype.kind not in "fc":
        raise RuntimeError(f"mean(): could not infer output dtype. Input dtype must be either a "
                           f"floating point or complex dtype. Got: {input.dtype.name.capitalize()}")
    axes, keep = _axes_and_keepdims(input, dim, keepdim, axis, keepdims)
    average = bind(mean_p, input, axes=axes, keepdims=keep)
    if dim is None and axis is None:
        return average
    return present_as(average, "MeanBackward1", input)  # PyTorch's node for mean over dims


# ----------------------------------------------------------------------------- prod

def _prod_partials(out, x, axes, keepdims):
    """``d prod(x) / d x`` broadcast to ``x``'s shape, exact when ``x`` holds zeros.

    A nonzero element's partial is ``prod / x``; a zero element's is the product
    of the other elements: the product of the nonzero ones if it is the only
    zero, else 0. Built from differentiable ops, so it is right to second order
    except across two zeros of the same reduction.
    """
    where = _elementwise.where
    is_zero = x == 0
    zero_count = sum(is_zero, axis=axes, keepdims=True)
    safe = where(is_zero, 1.0, x)
    nonzero_product = bind(prod_p, safe, axes=axes, keepdims=True)
    product = expand_reduced(out, x.shape, axes, keepdims)
    return where(is_zero, where(zero_count == 1, nonzero_product, 0.0), product / safe)


def _prod_vjp(g, out, needs, x, axes, keepdims):
    return (expand_reduced(g, x.shape, axes, keepdims) * _prod_partials(out, x, axes, keepdims),)


def _prod_jvp(tangents, out, x, axes, keepdims):
    return sum(tangents[0] * _prod_partials(out, x, axes, keepdims), axis=axes, keepdims=keepdims)


prod_p = Primitive("prod", lambda x, axes, keepdims: x.prod(axis=axes, keepdims=keepdims,
                                                            dtype=_sum_dtype(x.dtype)),
                   _reduce_rule(_sum_dtype), vjp=_prod_vjp, jvp=_prod_jvp,
                   saves="inputs and output", autocast="float32", batch=over_axes("axes"),
                   complex_gradient="holomorphic")


# ----------------------------------------------------------------------------- amax / amin

def _extreme_share(out, x, axes, keepdims, nan_shares=False):
    """1/k on the k elements equal to the extreme value of their reduction, 0 elsewhere.

    With ``nan_shares`` (PyTorch's ``max()``/``min()`` over everything), a NaN extreme
    shares among the NaN elements; otherwise (``amax``/``amin``, as PyTorch and JAX) no
    element equals a NaN extreme and its gradient is NaN.
    """
    cast = _elementwise.cast
    hit = x == expand_reduced(out, x.shape, axes, keepdims)
    if nan_shares:
        isnan = _elementwise.isnan
        hit = hit | isnan(x)  # NaN elements only ever meet a NaN extreme
    hit = cast(hit, x.dtype)
    return hit / sum(hit, axis=axes, keepdims=True)


def _extreme_vjp(g, out, needs, x, axes, keepdims, nan_shares=False):
    share = _extreme_share(out, x, axes, keepdims, nan_shares)
    return (expand_reduced(g, x.shape, axes, keepdims) * share,)


def _extreme_jvp(tangents, out, x, axes, keepdims, nan_shares=False):
    share = _extreme_share(out, x, axes, keepdims, nan_shares)
    return sum(tangents[0] * share, axis=axes, keepdims=keepdims)


amax_p = Primitive("amax", lambda x, axes, keepdims, nan_shares=False: x.max(axis=axes,
                                                                             keepdims=keepdims),
                   _reduce_rule(), vjp=_extreme_vjp, jvp=_extreme_jvp, saves="inputs and output",
                   batch=over_axes("axes"))
amin_p = Primitive("amin", lambda x, axes, keepdims, nan_shares=False: x.min(axis=axes,
                                                                             keepdims=keepdims),
                   _reduce_rule(), vjp=_extreme_vjp, jvp=_extreme_jvp, saves="inputs and output",
                   batch=over_axes("axes"))


# ----------------------------------------------------------------------------- argmax / argmin

def _arg_rule(x, axis, keepdims):
    shape = shape_of(x)
    if axis is None:
        return ((1,) * len(shape) if keepdims else ()), DEFAULT_INT
    return reduced_shape(shape, (axis,), keepdims), DEFAULT_INT


def _arg_impl(method):
    def impl(x, axis, keepdims):
        return getattr(x, method)(axis=axis, keepdims=keepdims).astype(DEFAULT_INT, copy=False)
    return impl


argmax_p = Primitive("argmax", _arg_impl("argmax"), _arg_rule, differentiable=False,
                     batch=over_axes("axis"))
argmin_p = Primitive("argmin", _arg_impl("argmin"), _arg_rule, differentiable=False,
                     batch=over_axes("axis"))





# ----------------------------------------------------------------------------- all / any

def _logical_dtype(dtype):
    return np.uint8 if dtype == np.uint8 else np.bool_


def _logical_impl(method):
    def impl(x, axes, keepdims):
        return getattr(x, method)(axis=axes, keepdims=keepdims).astype(_logical_dtype(x.dtype),
                                                                       copy=False)
    return impl


all_p = Primitive("all", _logical_impl("all"), _reduce_rule(_logical_dtype), differentiable=False,
                  batch=over_axes("axes"))
any_p = Primitive("any", _logical_impl("any"), _reduce_rule(_logical_dtype), differentiable=False,
                  batch=over_axes("axes"))


# ----------------------------------------------------------------------------- cumsum

def _cumsum_impl(x, axis, reverse):
    dtype = _sum_dtype(x.dtype)
    if not reverse:
        return x.cumsum(axis=axis, dtype=dtype)
    flip = (slice(None),) * axis + (slice(None, None, -1),)
    return x[flip].cumsum(axis=axis, dtype=dtype)[flip]


cumsum_p = Primitive("cumsum", _cumsum_impl,
                     lambda x, axis, reverse: (shape_of(x), np.dtype(_sum_dtype(dtype_of(x)))),
                     kind="linear",
                     vjp=lambda g, out, needs, x, axis, reverse: (
                         bind(cumsum_p, g, axis=axis, reverse=not reverse),), saves="nothing",
                     autocast="float32", batch=over_axes("axis"))


# ============================================================================= public functions

MaxResult = namedtuple("max", ("values", "indices"))
MinResult = namedtuple("min", ("values", "indices"))


def _reduce(prim, input, dim, keepdim, axis, keepdims):
    axes, keep = _axes_and_keepdims(input, dim, keepdim, axis, keepdims)
    return bind(prim, input, axes=axes, keepdims=keep)


def _check_nonempty(name: str, input, axes: tuple) -> None:
    shape = tuple(input.shape)
    for a in axes:
        if shape[a] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {a} to have non-zero size.")


@op(methods=("prod",))
def prod(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False,
         dtype=None):
    """Product over ``dim`` (all dimensions by default); integers multiply to int64.

    The gradient is exact when the input holds zeros.

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([2.0, 0.0, 3.0], requires_grad=True)
        >>> ug.prod(x).backward()
        >>> x.grad
        tensor([0., 6., 0.])
    """
    if dtype is not None:
        cast = _elementwise.cast
        input = cast(input, dtype)
    return _reduce(prod_p, input, dim, keepdim, axis, keepdims)


@op(methods=("amax",))
def amax(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False):
    """Largest value over ``dim``; tied maxima share the gradient equally.

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([1.0, 3.0, 3.0], requires_grad=True)
        >>> ug.amax(x).backward()
        >>> x.grad
        tensor([0.0000, 0.5000, 0.5000])
    """
    axes, keep = _axes_and_keepdims(input, dim, keepdim, axis, keepdims)
    _check_nonempty("amax", input, axes)
    return bind(amax_p, input, axes=axes, keepdims=keep)


@op(methods=("amin",))
def amin(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False):
    """Smallest value over ``dim``; tied minima share the gradient equally.

    Example:
        >>> import unigrad as ug
        >>> ug.amin(ug.tensor([[1.0, 5.0], [4.0, 2.0]]), dim=1)
        tensor([1., 2.])
    """
    axes, keep = _axes_and_keepdims(input, dim, keepdim, axis, keepdims)
    _check_nonempty("amin", input, axes)
    return bind(amin_p, input, axes=axes, keepdims=keep)


def _numel(input) -> int:
    return math.prod(tuple(input.shape))


def _extreme(name, value_prim, arg_prim, result_type, input, dim, keepdim, axis, keepdims):
    """PyTorch's ``max``/``min`` over everything, or over one dim as (values, indices)."""
    if axis is not None and dim is not None:
        raise TypeError("pass either dim= or axis=, not both")
    dim = dim if dim is not None else axis
    keep = bool(keepdim or keepdims)
    shape = tuple(input.shape)
    if dim is None:
        if _numel(input) == 0:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                               f"input.numel() == 0. Specify the reduction dim with the 'dim' "
                               f"argument.")
        everything = bind(value_prim, input, axes=tuple(range(len(shape))), keepdims=False,
                          nan_shares=True)
        return present_as(everything, f"{name.capitalize()}Backward1", input)
    if isinstance(dim, (list, tuple)):
        axes, keep = _axes_and_keepdims(input, dim, keep, None, False)
        _check_nonempty(name, input, axes)
        return bind(value_prim, input, axes=axes, keepdims=keep)
    if not shape:
        normalize_axis(dim, 0)
        return result_type(bind(value_prim, input, axes=(), keepdims=False),
                           bind(arg_prim, input, axis=None, keepdims=False))
    axis = normalize_axis(dim, len(shape))
    _check_nonempty(name, input, (axis,))
    indices = bind(arg_prim, input, axis=axis, keepdims=True)
    values = _take_along(value_prim, input, indices, axis)
    if not keep:
        reshape = _shape.reshape
        kept = reduced_shape(shape, (axis,), False)
        indices, values = reshape(indices, kept), reshape(values, kept)
    return result_type(present_as(values, f"{name.capitalize()}Backward0", input), indices)


def _take_along(value_prim, input, indices, axis: int):
    """``input`` at ``indices`` along ``axis`` (kept as size 1), as PyTorch's max(dim):
    the whole gradient goes to the returned index, even among ties."""
    if not isinstance(input, Tensor) or input._data.dtype.kind != "f":
        return bind(value_prim, input, axes=(axis,), keepdims=True)
    where = _elementwise.where
    positions = namespace_of(input._data).arange(input.shape[axis]).reshape(
        tuple(-1 if i == axis else 1 for i in range(input.ndim)))
    # the primitive directly: max(dim) is not an autocast op, its values keep the input's dtype
    return bind(sum_p, where(indices == positions, input, 0.0), axes=(axis,), keepdims=True)


@op(methods=("max",), autocast="inputs")
def max(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False):
    """PyTorch's ``max``: the largest value; with an int ``dim``, ``(values, indices)``;
    with a Tensor second argument, the elementwise :func:`maximum`.

    Over everything, tied maxima share the gradient (like :func:`amax`); over one
    dim the gradient goes to the returned index. A tuple of dims gives the values.

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([[1.0, 5.0], [4.0, 2.0]])
        >>> ug.max(x)
        tensor(5.)
        >>> values, indices = ug.max(x, dim=1)
        >>> values, indices
        (tensor([5., 4.]), tensor([1, 0]))
    """
    if isinstance(dim, Tensor):
        maximum = _elementwise.maximum
        return maximum(input, dim)
    return _extreme("max", amax_p, argmax_p, MaxResult, input, dim, keepdim, axis, keepdims)


@op(methods=("min",), autocast="inputs")
def min(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False):
    """PyTorch's ``min``: the smallest value; with an int ``dim``, ``(values, indices)``;
    with a Tensor second argument, the elementwise :func:`minimum`.

    Example:
        >>> import unigrad as ug
        >>> ug.min(ug.tensor([[1.0, 5.0], [4.0, 2.0]]), dim=0).indices
        tensor([0, 1])
    """
    if isinstance(dim, Tensor):
        minimum = _elementwise.minimum
        return minimum(input, dim)
    return _extreme("min", amin_p, argmin_p, MinResult, input, dim, keepdim, axis, keepdims)


def _arg_extreme(name, prim, input, dim, keepdim, axis, keepdims):
    if axis is not None and dim is not None:
        raise TypeError("pass either dim= or axis=, not both")
    dim = dim if dim is not None else axis
    keep = bool(keepdim or keepdims)
    shape = tuple(input.shape)
    if dim is None:
        if _numel(input) == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             f"input.numel() == 0.")
        return bind(prim, input, axis=None, keepdims=keep)
    if not shape:
        normalize_axis(dim, 0)
        return bind(prim, input, axis=None, keepdims=False)
    axis = normalize_axis(dim, len(shape))
    _check_nonempty(name, input, (axis,))
    return bind(prim, input, axis=axis, keepdims=keep)


@op(methods=("argmax",))
def argmax(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False):
    """Index of the largest value (of the flattened input when ``dim`` is None); int64.

    Example:
        >>> import unigrad as ug
        >>> ug.argmax(ug.tensor([[1.0, 5.0], [4.0, 2.0]]), dim=1)
        tensor([1, 0])
    """
    return _arg_extreme("argmax", argmax_p, input, dim, keepdim, axis, keepdims)


@op(methods=("argmin",))
def argmin(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False):
    """Index of the smallest value (of the flattened input when ``dim`` is None); int64.

    Example:
        >>> import unigrad as ug
        >>> ug.argmin(ug.tensor([3.0, 1.0, 2.0]))
        tensor(1)
    """
    return _arg_extreme("argmin", argmin_p, input, dim, keepdim, axis, keepdims)


@op(methods=("all",))
def all(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False):
    """Whether every element over ``dim`` is nonzero (bool; uint8 stays uint8).

    Example:
        >>> import unigrad as ug
        >>> ug.all(ug.tensor([[1.0, 0.0], [2.0, 3.0]]), dim=1)
        tensor([False,  True])
    """
    return _reduce(all_p, input, dim, keepdim, axis, keepdims)


@op(methods=("any",))
def any(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False):
    """Whether some element over ``dim`` is nonzero (bool; uint8 stays uint8).

    Example:
        >>> import unigrad as ug
        >>> ug.any(ug.tensor([0.0, 0.0, 2.0]))
        tensor(True)
    """
    return _reduce(any_p, input, dim, keepdim, axis, keepdims)


@op(methods=("count_nonzero",))
def count_nonzero(input, dim=None, *, axis=None):
    """Number of nonzero elements over ``dim`` (int64).

    Example:
        >>> import unigrad as ug
        >>> ug.count_nonzero(ug.tensor([[0.0, 1.0], [2.0, 3.0]]), dim=0)
        tensor([1, 2])
    """
    return sum(input != 0, dim, axis=axis)


@op(methods=("cumsum",))
def cumsum(input, dim=None, *, axis=None, dtype=None):
    """Cumulative sum along ``dim``; integers accumulate in int64.

    Example:
        >>> import unigrad as ug
        >>> ug.cumsum(ug.tensor([1.0, 2.0, 3.0]), dim=0)
        tensor([1., 3., 6.])
    """
    if axis is not None and dim is not None:
        raise TypeError("pass either dim= or axis=, not both")
    dim = dim if dim is not None else axis
    if dim is None:
        raise TypeError("cumsum() missing required argument 'dim'")
    if dtype is not None:
        cast = _elementwise.cast
        input = cast(input, dtype)
    shape = tuple(input.shape)
    if not shape:
        reshape = _shape.reshape
        normalize_axis(dim, 0)
        return reshape(bind(cumsum_p, reshape(input, (1,)), axis=0, reverse=False), ())
    return bind(cumsum_p, input, axis=normalize_axis(dim, len(shape)), reverse=False)


def _correction(unbiased, correction, ddof) -> float:
    given = [value for value in (unbiased, correction, ddof) if value is not None]
    if len(given) > 1:
        raise TypeError("pass only one of unbiased=, correction= and ddof=")
    if unbiased is not None:
        return 1.0 if unbiased else 0.0
    if not given:
        return 1.0
    return float(given[0])


@op(methods=("var",), autocast="float32")
def var(input, dim=None, unbiased: bool | None = None, keepdim: bool = False, *,
        correction=None, axis=None, keepdims: bool = False, ddof=None):
    """Variance over ``dim`` with Bessel's ``correction`` (default 1, as in PyTorch).

    ``unbiased=False`` (PyTorch) and ``ddof=0`` (NumPy) mean ``correction=0``.

    Example:
        >>> import unigrad as ug
        >>> ug.var(ug.tensor([1.0, 2.0, 3.0, 4.0]))
        tensor(1.6667)
        >>> ug.var(ug.tensor([1.0, 2.0, 3.0, 4.0]), correction=0)
        tensor(1.2500)
    """
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if isinstance(input, Tensor) and input._data.dtype.kind not in "fc":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    axes, keep = _axes_and_keepdims(input, dim, keepdim, axis, keepdims)
    shape = tuple(input.shape)
    count = 1
    for a in axes:
        count *= shape[a]
    freedom = builtins.max(count - _correction(unbiased, correction, ddof), 0.0)
    centered = input - mean(input, axis=axes, keepdims=True)
    from .complex_numbers import squared_magnitude  # (complex_numbers imports this module)
    squares = sum(squared_magnitude(centered), axis=axes, keepdims=keep)
    if freedom == 0:
        warnings.warn("var(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=2)
        with np.errstate(divide="ignore", invalid="ignore"):
            return present_as(squares / 0.0, "VarBackward0", input)
    return present_as(squares * (1.0 / freedom), "VarBackward0", input)


@op(methods=("std",), autocast="float32")
def std(input, dim=None, unbiased: bool | None = None, keepdim: bool = False, *,
        correction=None, axis=None, keepdims: bool = False, ddof=None):
    """Standard deviation: ``sqrt(var(...))`` with the same arguments.

    Example:
        >>> import unigrad as ug
        >>> ug.std(ug.tensor([[1.0, 3.0], [2.0, 2.0]]), dim=1)
        tensor([1.4142, 0.0000])
    """
    sqrt = _elementwise.sqrt
    deviation = sqrt(var(input, dim, unbiased, keepdim, correction=correction, axis=axis,
                         keepdims=keepdims, ddof=ddof))
    return present_as(deviation, "StdBackward0", input)


def _stop(value):
    return value.detach() if isinstance(value, Tensor) else value


@op(methods=("logsumexp",), autocast="float32")
def logsumexp(input, dim=None, keepdim: bool = False, *, axis=None, keepdims: bool = False):
    """``log(sum(exp(input), dim))`` computed stably (the max is subtracted first).

    Example:
        >>> import unigrad as ug
        >>> ug.logsumexp(ug.tensor([100.0, 100.0]), dim=0)
        tensor(100.6931)
    """
    exp, log = _elementwise.exp, _elementwise.log
    isfinite, where = _elementwise.isfinite, _elementwise.where
    reshape = _shape.reshape
    input = float_operand(input)
    axes, keep = _axes_and_keepdims(input, dim, keepdim, axis, keepdims)
    shape = tuple(input.shape)
    if builtins.any(shape[a] == 0 for a in axes):
        with np.errstate(divide="ignore"):
            return log(sum(exp(input), axis=axes, keepdims=keep))
    from .complex_numbers import real  # complex input: shift by the largest real part
    shift = bind(amax_p, _stop(real(input)), axes=axes, keepdims=True)
    shift = where(isfinite(shift), shift, 0.0)
    with np.errstate(divide="ignore"):  # every element -inf: the result is -inf, as in PyTorch
        result = log(sum(exp(input - shift), axis=axes, keepdims=True)) + shift
    return result if keep else reshape(result, reduced_shape(shape, axes, False))


def _safe_root(total, order: float):
    """``total ** (1 / order)`` with a zero (not NaN) gradient where ``total`` is 0.

    A NaN total stays NaN (a norm of NaN values is NaN, as in PyTorch).
    """
    sqrt, where = _elementwise.sqrt, _elementwise.where
    zero = total == 0
    safe = where(zero, 1.0, total)
    root = sqrt(safe) if order == 2 else safe ** (1.0 / order)
    return where(zero, 0.0, root)


@op(autocast="float32")
def vector_norm(input, ord=2, dim=None, keepdim: bool = False, *, axis=None,
                keepdims: bool = False, dtype=None):
    """The vector ``ord``-norm over ``dim`` (all elements by default), as ``torch.linalg``.

    ``ord`` is any number, ``inf`` or ``-inf``; the gradient at a zero vector is 0.

    Example:
        >>> import unigrad as ug
        >>> ug.vector_norm(ug.tensor([3.0, 4.0]))
        tensor(5.)
        >>> ug.vector_norm(ug.tensor([3.0, -4.0]), ord=float("inf"))
        tensor(4.)
    """
    norm = _vector_norm(input, ord, dim, keepdim, axis, keepdims, dtype)
    return present_as(norm, "LinalgVectorNormBackward0", input)


def _vector_norm(input, ord, dim, keepdim: bool, axis, keepdims: bool, dtype):
    abs, cast, where = _elementwise.abs, _elementwise.cast, _elementwise.where
    if dtype is not None:
        input = cast(input, dtype)
    if isinstance(input, Tensor) and input._data.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {torch_dtype_name(input._data.dtype)}")
    if isinstance(ord, bool) or not isinstance(ord, numbers.Real):
        raise ValueError(f"vector_norm(): ord must be a number, inf or -inf, got {ord!r}")
    if isinstance(input, Tensor) and input._data.dtype.kind == "c":
        input = abs(input)  # the norm of the magnitudes (the gradient is x / |x|, 0 at 0)
    axes, keep = _axes_and_keepdims(input, dim, keepdim, axis, keepdims)
    if ord == math.inf:
        return amax(abs(input), axes, keep)
    if ord == -math.inf:
        return amin(abs(input), axes, keep)
    if ord == 0:
        return sum(where(input != 0, 1.0, input * 0.0), axes, keep)
    if ord == 1:
        return sum(abs(input), axes, keep)
    if ord == 2:
        return _safe_root(sum(input * input, axes, keep), 2)
    magnitude = abs(input)
    if ord > 0:  # |x|**p with a zero (sub)gradient at x == 0, as in PyTorch, also for p < 1
        zero = input == 0
        powered = where(zero, 0.0, where(zero, 1.0, magnitude) ** float(ord))
        return _safe_root(sum(powered, axes, keep), float(ord))
    # p < 0: a slice holding a zero has norm 0 and (as in PyTorch) a zero gradient
    has_zero = any(input == 0, axes, True)
    safe = where(has_zero, 1.0, magnitude)
    total = sum(safe ** float(ord), axes, keep)
    return where(has_zero if keep else any(input == 0, axes, False), 0.0,
                 total ** (1.0 / float(ord)))


@op(methods=("norm",), autocast="float32")
def norm(input, p="fro", dim=None, keepdim: bool = False, dtype=None, *, axis=None,
         keepdims: bool = False):
    """PyTorch's ``torch.norm``: ``'fro'`` or a number ``p`` as a vector norm over ``dim``.

    ``'fro'`` is the 2-norm of the elements; the gradient at a zero input is 0.

    Example:
        >>> import unigrad as ug
        >>> x = ug.zeros(3, requires_grad=True)
        >>> ug.norm(x).backward()
        >>> x.grad
        tensor([0., 0., 0.])
        >>> ug.norm(ug.tensor([[3.0, 4.0], [0.0, 0.0]]), dim=1)
        tensor([5., 0.])
    """
    if p == "fro" or p is None:
        p = 2
    elif p == "nuc":  # the sum of the singular values over two dims (all of a matrix)
        from .linalg import matrix_norm
        if dtype is not None:
            from .elementwise import cast
            input = cast(input, dtype)
        dims = tuple(range(len(tuple(input.shape)))) if dim is None else dim
        dims = (dims,) if isinstance(dims, int) else tuple(dims)
        if len(dims) != 2:
            raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                               f"{' '.join(str(d) for d in dims)}")
        return matrix_norm(input, "nuc", dims, keepdim or keepdims)
    elif isinstance(p, str):
        raise RuntimeError(f"norm(): p must be 'fro', 'nuc' or a number, got {p!r} (order "
                           f"{p} not supported)")
    return vector_norm(input, p, dim, keepdim, axis=axis, keepdims=keepdims, dtype=dtype)
