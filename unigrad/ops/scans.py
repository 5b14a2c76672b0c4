"""Scans and NaN-aware / paired reductions, with PyTorch's names and argument orders.

Primitives: ``cumprod`` (its vjp and jvp are exact also where the input holds
zeros, as PyTorch's) and the (non-differentiable) running arg-extreme behind
``cummax``/``cummin``. Composites: ``logcumsumexp`` (a stable log-add-exp
doubling scan), ``cummax``/``cummin`` values (the input gathered at the indices,
so the gradient goes to the selected index), ``diff``, ``nansum``, ``nanmean``,
``aminmax``, ``var_mean``, ``std_mean``, ``trapezoid`` and
``cumulative_trapezoid``.

Example:
    >>> import unigrad as ug
    >>> ug.cumprod(ug.tensor([1.0, 2.0, 3.0]), 0)
    tensor([1., 2., 6.])
    >>> ug.cummax(ug.tensor([1.0, 3.0, 2.0]), 0).indices
    tensor([0, 1, 1])
    >>> ug.diff(ug.tensor([1.0, 4.0, 9.0]))
    tensor([3., 5.])
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..interpreters.batching import over_axes
from ..tensor import Tensor
from . import elementwise as _elementwise
from . import reduce as _reduce
from . import shape as _shape
from ._dtypes import DEFAULT_INT
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, normalize_axis, shape_of
from .registry import op

__all__ = ["cumprod", "logcumsumexp", "cummax", "cummin", "diff", "nansum", "nanmean",
           "aminmax", "var_mean", "std_mean", "trapezoid", "cumulative_trapezoid"]


# ----------------------------------------------------------------------------- cumprod

def _acc_dtype(dtype):
    return DEFAULT_INT if dtype.kind in "biu" else dtype


def _cumprod_masks(x, axis):
    """``(is_zero, before, first)``: zeros, positions before the slice's first zero,
    and the first zero itself."""
    is_zero = x == 0
    count = bind(_reduce.cumsum_p, _elementwise.cast(is_zero, DEFAULT_INT), axis=axis,
                 reverse=False)
    return is_zero, count == 0, is_zero & (count == 1)


def _cumprod_vjp(g, out, needs, x, axis):
    """``dx_k = sum_{i>=k} g_i prod_{j<=i, j!=k} x_j``: at a nonzero ``x_k``,
    ``rcumsum(g out)_k / x_k``; at the slice's first zero ``rcumsum(g out')_k`` where
    ``out'`` is the cumprod with that zero replaced by 1; at later zeros 0.

    Exact to first order everywhere, and to second order except across two zeros of
    the same slice (as :func:`unigrad.prod`)."""
    where = _elementwise.where
    is_zero, before, first = _cumprod_masks(x, axis)
    safe = where(is_zero, 1.0, x)
    rcumsum = bind(_reduce.cumsum_p, g * out, axis=axis, reverse=True)
    skipped = bind(cumprod_p, where(first, 1.0, x), axis=axis)
    at_first = bind(_reduce.cumsum_p, g * skipped, axis=axis, reverse=True)
    return (where(is_zero, where(first, at_first, 0.0), rcumsum / safe),)


def _cumprod_jvp(tangents, out, x, axis):
    where = _elementwise.where
    t = tangents[0]
    is_zero, before, first = _cumprod_masks(x, axis)
    safe = where(is_zero, 1.0, x)
    head = out * bind(_reduce.cumsum_p, where(before, t / safe, 0.0), axis=axis, reverse=False)
    skipped = bind(cumprod_p, where(first, 1.0, x), axis=axis)
    tail = bind(_reduce.cumsum_p, where(first, t, 0.0), axis=axis, reverse=False) * skipped
    return where(before, head, tail)


cumprod_p = Primitive(
    "cumprod", lambda x, axis: x.cumprod(axis=axis, dtype=_acc_dtype(x.dtype)),
    lambda x, axis: (shape_of(x), np.dtype(_acc_dtype(dtype_of(x)))),
    vjp=_cumprod_vjp, jvp=_cumprod_jvp, saves="inputs and output", autocast="float32",
    batch=over_axes("axis"), complex_gradient="holomorphic")


# ----------------------------------------------------------------------------- cummax / cummin

def _running_arg_impl(accumulate):
    def impl(x, axis):
        if x.size == 0:
            return np.zeros(x.shape, dtype=DEFAULT_INT)
        running = accumulate(x, axis=axis)
        positions = np.arange(x.shape[axis]).reshape(
            tuple(-1 if i == axis else 1 for i in range(x.ndim)))
        # ties: the latest index (PyTorch compares with >= / <=); from a NaN on, the
        # running value is NaN and the index the latest NaN's (NaN == NaN is false)
        hit = (x == running) | np.isnan(x)
        marked = np.where(hit, positions, 0)
        return np.maximum.accumulate(marked, axis=axis).astype(DEFAULT_INT, copy=False)
    return impl


def _running_arg_rule(x, axis):
    return shape_of(x), np.dtype(DEFAULT_INT)


cummax_indices_p = Primitive("cummax_indices", _running_arg_impl(np.maximum.accumulate),
                             _running_arg_rule, differentiable=False, batch=over_axes("axis"))
cummin_indices_p = Primitive("cummin_indices", _running_arg_impl(np.minimum.accumulate),
                             _running_arg_rule, differentiable=False, batch=over_axes("axis"))


# ============================================================================= public functions

CummaxResult = namedtuple("cummax", ("values", "indices"))
CumminResult = namedtuple("cummin", ("values", "indices"))
AminmaxResult = namedtuple("aminmax", ("min", "max"))


def _on_vector(function, input, dim):
    """Run a scan ``function(x, axis)`` treating a 0-d input as shape (1,)."""
    reshape = _shape.reshape
    if not tuple(input.shape):
        normalize_axis(dim, 0)
        result = function(reshape(input, (1,)), 0)
        if isinstance(result, tuple):
            return type(result)(*(reshape(r, ()) for r in result))
        return reshape(result, ())
    return function(input, normalize_axis(dim, len(tuple(input.shape))))


@op(methods=("cumprod",))
def cumprod(input, dim, *, dtype=None):
    """Cumulative product along ``dim``; integers accumulate in int64.

    The gradient is exact where the input holds zeros (as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.cumprod(ug.tensor([2.0, 0.0, 3.0]), dim=0)
        tensor([2., 0., 0.])
    """
    if dtype is not None:
        input = _elementwise.cast(input, dtype)
    return _on_vector(lambda x, axis: bind(cumprod_p, x, axis=axis), input, dim)


def _log_scan(x, axis: int):
    """Inclusive log-add-exp scan by doubling: each step is a stable ``logaddexp``."""
    n = tuple(x.shape)[axis]
    narrow, cat, logaddexp = _shape.narrow, _shape.cat, _elementwise.logaddexp
    step = 1
    while step < n:
        head = narrow(x, axis, 0, step)
        tail = logaddexp(narrow(x, axis, step, n - step), narrow(x, axis, 0, n - step))
        x = cat([head, tail], axis)
        step *= 2
    return x


@op(methods=("logcumsumexp",), autocast="float32")
def logcumsumexp(input, dim):
    """``log(cumsum(exp(input), dim))`` computed stably.

    Example:
        >>> import unigrad as ug
        >>> ug.logcumsumexp(ug.tensor([-1000.0, 1000.0, 0.0]), 0)
        tensor([-1000.,  1000.,  1000.])
    """
    from ._dtypes import float_operand
    input = float_operand(input)
    if input._data.dtype.kind == "c":
        # complex: shift by the largest real part along dim (held constant)
        from ..transforms.custom import stop_gradient
        from .complex_numbers import real
        shift = stop_gradient(_reduce.amax(real(input), dim, keepdim=True))
        return _elementwise.log(_reduce.cumsum(_elementwise.exp(input - shift), dim)) + shift
    return _on_vector(_log_scan, input, dim)


def _running_extreme(prim, result_type, input, dim):
    from .indexing import gather

    def scan(x, axis):
        indices = bind(prim, x, axis=axis)
        return result_type(gather(x, axis, indices), indices)
    return _on_vector(scan, input, dim)


@op(methods=("cummax",))
def cummax(input, dim):
    """Running maximum along ``dim`` as ``(values, indices)``; ties take the latest
    index, and the gradient goes to the selected index (as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.cummax(ug.tensor([1.0, 3.0, 3.0, 2.0]), 0)
        cummax(values=tensor([1., 3., 3., 3.]), indices=tensor([0, 1, 2, 2]))
    """
    return _running_extreme(cummax_indices_p, CummaxResult, input, dim)


@op(methods=("cummin",))
def cummin(input, dim):
    """Running minimum along ``dim`` as ``(values, indices)`` (see :func:`cummax`).

    Example:
        >>> import unigrad as ug
        >>> ug.cummin(ug.tensor([2.0, 1.0, 3.0]), 0).values
        tensor([2., 1., 1.])
    """
    return _running_extreme(cummin_indices_p, CumminResult, input, dim)


@op(methods=("diff",))
def diff(input, n: int = 1, dim: int = -1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim``, after concatenating ``prepend``
    and ``append`` (as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.diff(ug.tensor([1.0, 2.0, 4.0]), prepend=ug.tensor([0.0]))
        tensor([1., 1., 2.])
    """
    shape = tuple(input.shape)
    if not shape:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    axis = normalize_axis(dim, len(shape))
    if n == 0:  # PyTorch returns the input as it is, ignoring prepend and append
        return input
    narrow, cat = _shape.narrow, _shape.cat
    parts = [p for p in (prepend, input, append) if p is not None]
    x = cat(parts, axis) if len(parts) > 1 else input
    for _ in range(n):
        length = tuple(x.shape)[axis]
        if length == 0:
            break
        x = narrow(x, axis, 1, length - 1) - narrow(x, axis, 0, length - 1)
    return x


@op(methods=("nansum",))
def nansum(input, dim=None, keepdim: bool = False, *, dtype=None):
    """Sum over ``dim`` treating NaN as zero.

    Example:
        >>> import unigrad as ug
        >>> ug.nansum(ug.tensor([1.0, float("nan"), 2.0]))
        tensor(3.)
    """
    where, isnan = _elementwise.where, _elementwise.isnan
    if dtype is not None:
        input = _elementwise.cast(input, dtype)
    if isinstance(input, Tensor) and input._data.dtype.kind != "f":
        return _reduce.sum(input, dim, keepdim)  # no NaN to skip; integers sum in int64
    return _reduce.sum(where(isnan(input), 0.0, input), dim, keepdim)


@op(methods=("nanmean",))
def nanmean(input, dim=None, keepdim: bool = False, *, dtype=None):
    """Mean over ``dim`` of the non-NaN elements (NaN where there are none).

    Example:
        >>> import unigrad as ug
        >>> ug.nanmean(ug.tensor([1.0, float("nan"), 2.0]))
        tensor(1.5000)
    """
    isnan, cast = _elementwise.isnan, _elementwise.cast
    if dtype is not None:
        input = cast(input, dtype)
    if isinstance(input, Tensor) and input._data.dtype.kind != "f":
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype")
    count = _reduce.sum(cast(~isnan(input), input.dtype), dim, keepdim)
    with np.errstate(divide="ignore", invalid="ignore"):
        return nansum(input, dim, keepdim) / count


@op(methods=("aminmax",))
def aminmax(input, *, dim=None, keepdim: bool = False):
    """``(min, max)`` over ``dim`` (everything when None), as :func:`amin`/:func:`amax`.

    Example:
        >>> import unigrad as ug
        >>> ug.aminmax(ug.tensor([[1.0, 5.0], [4.0, 2.0]]), dim=1)
        aminmax(min=tensor([1., 2.]), max=tensor([5., 4.]))
    """
    if dim is None:
        shape = tuple(input.shape)
        if shape and 0 in shape:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as "
                               "the operation has no identity.")
        reshape = _shape.reshape
        result = AminmaxResult(_reduce.amin(input), _reduce.amax(input))
        if keepdim:
            kept = (1,) * len(shape)
            result = AminmaxResult(reshape(result.min, kept), reshape(result.max, kept))
        return result
    return AminmaxResult(_reduce.amin(input, dim, keepdim), _reduce.amax(input, dim, keepdim))


@op(autocast="float32")
def var_mean(input, dim=None, unbiased: bool | None = None, keepdim: bool = False, *,
             correction=None):
    """``(var, mean)`` over ``dim`` with Bessel's ``correction`` (default 1;
    ``unbiased=False`` means 0).

    Example:
        >>> import unigrad as ug
        >>> ug.var_mean(ug.tensor([1.0, 2.0, 3.0, 4.0]))
        (tensor(1.6667), tensor(2.5000))
    """
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return (_reduce.var(input, dim, unbiased, keepdim, correction=correction),
            _reduce.mean(input, dim, keepdim))


@op(autocast="float32")
def std_mean(input, dim=None, unbiased: bool | None = None, keepdim: bool = False, *,
             correction=None):
    """``(std, mean)`` over ``dim`` with Bessel's ``correction`` (default 1;
    ``unbiased=False`` means 0).

    Example:
        >>> import unigrad as ug
        >>> ug.std_mean(ug.tensor([1.0, 3.0]))
        (tensor(1.4142), tensor(2.))
    """
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return (_reduce.std(input, dim, unbiased, keepdim, correction=correction),
            _reduce.mean(input, dim, keepdim))


def _spacing(y, x, dx, axis: int):
    """The interval widths along ``axis``: ``dx`` (a number) or ``diff(x)`` broadcast."""
    if x is None:
        return 1.0 if dx is None else dx
    if dx is not None:
        raise TypeError("trapezoid: pass either x or dx, not both")
    ndim = len(tuple(y.shape))
    if len(tuple(x.shape)) == 1:
        widths = diff(x)
        return _shape.reshape(widths, tuple(-1 if i == axis else 1 for i in range(ndim)))
    return diff(x, dim=axis - ndim)


def _trapezoid_pieces(y, x, dx, dim):
    shape = tuple(y.shape)
    if not shape:
        raise IndexError("trapezoid: Dimension out of range")
    axis = normalize_axis(dim, len(shape))
    narrow = _shape.narrow
    n = shape[axis]
    if n == 0:
        return None, axis
    pairs = narrow(y, axis, 1, n - 1) + narrow(y, axis, 0, n - 1)
    return pairs * _spacing(y, x, dx, axis) * 0.5, axis


@op()
def trapezoid(y, x=None, *, dx=None, dim: int = -1):
    """The trapezoidal rule along ``dim``, with sample points ``x`` or spacing ``dx``.

    Example:
        >>> import unigrad as ug
        >>> ug.trapezoid(ug.tensor([1.0, 2.0, 3.0]))
        tensor(4.)
    """
    if isinstance(x, (int, float)):
        x, dx = None, x
    pieces, axis = _trapezoid_pieces(y, x, dx, dim)
    if pieces is None:
        return _reduce.sum(y * 0.0, axis)
    return _reduce.sum(pieces, axis)


@op()
def cumulative_trapezoid(y, x=None, *, dx=None, dim: int = -1):
    """The running trapezoidal rule along ``dim`` (one element fewer than ``y``).

    Example:
        >>> import unigrad as ug
        >>> ug.cumulative_trapezoid(ug.tensor([1.0, 2.0, 3.0]))
        tensor([1.5000, 4.0000])
    """
    if isinstance(x, (int, float)):
        x, dx = None, x
    pieces, axis = _trapezoid_pieces(y, x, dx, dim)
    if pieces is None:
        return y
    return _reduce.cumsum(pieces, axis)
