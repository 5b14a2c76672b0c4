"""Sorting and order statistics, with PyTorch's names, arguments and result types.

Primitives (all non-differentiable, integer results): ``sort_indices`` (a stable
argsort, NaN sorting as the largest value), ``mode_indices`` (where each slice's
smallest most frequent value lies), ``searchsorted`` and ``histc``. The values of
``sort``/``topk``/``kthvalue``/``median``/``mode`` are the input gathered at those
indices, so the gradient goes to the selected positions and vjp, jvp, vmap and
second order come from :func:`~unigrad.ops.indexing.gather`. ``quantile``
interpolates between two gathered order statistics (as PyTorch). ``unique``,
``unique_consecutive`` and ``bincount`` have value-dependent result shapes: they
compute eagerly and give results without gradient.

Example:
    >>> import unigrad as ug
    >>> ug.sort(ug.tensor([3.0, 1.0, 2.0]))
    sort(values=tensor([1., 2., 3.]), indices=tensor([1, 2, 0]))
    >>> ug.quantile(ug.tensor([1.0, 2.0, 3.0, 4.0]), 0.5)
    tensor(2.5000)
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .. import backend
from ..interpreters import has_values
from ..interpreters.batching import (
    RuleFor,
    looped_batch_rule,
    materialize,
    move_to_front,
    over_axes,
)
from ..tensor import Tensor, _make_tensor
from . import elementwise as _elementwise
from . import reduce as _reduce
from . import shape as _shape
from ._dtypes import DEFAULT_INT
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, normalize_axis, shape_of
from ._values import values_for_shape
from .creation import as_tensor
from .indexing import gather
from .registry import op
from .scans import _on_vector

__all__ = ["sort", "argsort", "msort", "topk", "kthvalue", "median", "nanmedian", "mode",
           "quantile", "nanquantile", "unique", "unique_consecutive", "searchsorted",
           "bucketize", "histc", "bincount"]

SortResult = namedtuple("sort", ("values", "indices"))
TopkResult = namedtuple("topk", ("values", "indices"))
KthvalueResult = namedtuple("kthvalue", ("values", "indices"))
MedianResult = namedtuple("median", ("values", "indices"))
NanmedianResult = namedtuple("nanmedian", ("values", "indices"))
ModeResult = namedtuple("mode", ("values", "indices"))


# ============================================================================= primitives

def _sort_indices_impl(x, axis, descending):
    """A stable argsort along ``axis``; NaN is the largest value; descending keeps ties in
    ascending index order (sorting the flipped slice and flipping back)."""
    if not descending:
        return np.argsort(x, axis=axis, kind="stable").astype(DEFAULT_INT, copy=False)
    order = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return (x.shape[axis] - 1 - np.flip(order, axis)).astype(DEFAULT_INT, copy=False)


sort_indices_p = Primitive(
    "sort_indices", _sort_indices_impl, lambda x, axis, descending: (shape_of(x),
                                                                     np.dtype(DEFAULT_INT)),
    differentiable=False, batch=over_axes("axis"))


def _mode_impl(x, axis):
    """The index of each slice's mode (kept as size 1 along ``axis``): the smallest of the
    most frequent values, at its last occurrence (as PyTorch's CPU kernel)."""
    moved = np.moveaxis(x, axis, -1)
    n = moved.shape[-1]
    rows = moved.reshape(-1, n)
    order = np.argsort(rows, axis=-1, kind="stable")
    ordered = np.take_along_axis(rows, order, -1)
    starts = np.ones(ordered.shape, dtype=bool)
    same = ordered[:, 1:] == ordered[:, :-1]
    if ordered.dtype.kind == "f":
        same |= np.isnan(ordered[:, 1:]) & np.isnan(ordered[:, :-1])
    starts[:, 1:] = ~same
    positions = np.arange(n)
    run_start = np.maximum.accumulate(np.where(starts, positions, 0), axis=-1)
    # the running length of each run: its first maximum ends the smallest most frequent run
    best = np.argmax(positions - run_start, axis=-1)
    index = np.take_along_axis(order, best[:, None], -1)
    return np.moveaxis(index.reshape(moved.shape[:-1] + (1,)), -1, axis).astype(DEFAULT_INT)


def _kept_rule(x, axis):
    shape = list(shape_of(x))
    shape[axis] = 1
    return tuple(shape), np.dtype(DEFAULT_INT)


mode_indices_p = Primitive("mode_indices", _mode_impl, _kept_rule, differentiable=False,
                           batch=over_axes("axis"))


def _searchsorted_impl(sequence, values, right):
    side = "right" if right else "left"
    if sequence.ndim == 1:
        return np.searchsorted(sequence, values, side).astype(DEFAULT_INT, copy=False)
    count = int(np.prod(sequence.shape[:-1]))
    rows = sequence.reshape(count, sequence.shape[-1])
    queries = values.reshape(count, values.shape[-1])
    out = np.empty(queries.shape, dtype=DEFAULT_INT)
    for row, (boundaries, wanted) in enumerate(zip(rows, queries)):
        out[row] = np.searchsorted(boundaries, wanted, side)
    return out.reshape(values.shape)


def _searchsorted_batch(values, dims, right):
    """Batch axes first; a batched 1-D sequence searches its example's values flattened."""
    sequence, queries = values
    sequence_dim, query_dim = dims
    size = int((sequence if sequence_dim is not None else queries).shape[
        sequence_dim if sequence_dim is not None else query_dim])
    example_ndim = (sequence.ndim - (sequence_dim is not None))
    if sequence_dim is None and example_ndim == 1:
        return bind(searchsorted_p, sequence, move_to_front(queries, query_dim), right=right), 0
    sequence = materialize(sequence, sequence_dim, size)
    queries = materialize(queries, query_dim, size)
    if example_ndim == 1:
        shape = tuple(queries.shape)
        flat = _shape.reshape(queries, (size, -1))
        return _shape.reshape(bind(searchsorted_p, sequence, flat, right=right), shape), 0
    return bind(searchsorted_p, sequence, queries, right=right), 0


searchsorted_p = Primitive(
    "searchsorted", _searchsorted_impl,
    lambda sequence, values, right: (shape_of(values), np.dtype(DEFAULT_INT)),
    differentiable=False, batch=_searchsorted_batch)


def _histc_range(flat, low: float, high: float) -> tuple:
    if low == high and flat.size:
        low, high = flat.min().item(), flat.max().item()
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{low}, {high}] is not finite")
    if low == high:
        low, high = low - 1, high + 1
    return low, high


def _histc_impl(x, bins, low, high):
    """PyTorch's histc kernel: bin ``(x - low) * bins / (high - low)`` truncated, ``high``
    itself in the last bin, values outside ``[low, high]`` (and NaN) ignored."""
    flat = x.reshape(-1)
    low, high = _histc_range(flat, low, high)
    kept = flat[(flat >= low) & (flat <= high)]
    start, stop = x.dtype.type(low), x.dtype.type(high)
    positions = ((kept - start) * x.dtype.type(bins) / (stop - start)).astype(DEFAULT_INT)
    positions = np.minimum(positions, bins - 1)
    return np.bincount(positions, minlength=bins).astype(x.dtype)


histc_p = Primitive("histc", _histc_impl, lambda x, bins, low, high: ((bins,), dtype_of(x)),
                    differentiable=False, batch=RuleFor(looped_batch_rule))


# ============================================================================= helpers

def _is_float(input) -> bool:
    return dtype_of(input._data if isinstance(input, Tensor) else input).kind == "f"


def _squeezed(result_type, values, indices, axis: int, keepdim: bool):
    if not keepdim:
        squeeze = _shape.squeeze
        values, indices = squeeze(values, axis), squeeze(indices, axis)
    return result_type(values, indices)


def _check_nonempty(name: str, input, axis: int) -> None:
    if tuple(input.shape)[axis] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {axis} to have non-zero size.")


def _order_statistic(name, result_type, input, dim, keepdim, position):
    """``(values, indices)`` of the sorted slice at ``position(input, axis, order)`` (an
    index tensor kept as size 1 along ``axis``); the gradient goes to that index."""
    def select(x, axis):
        _check_nonempty(name, x, axis)
        order = bind(sort_indices_p, x, axis=axis, descending=False)
        indices = position(x, axis, order)
        return _squeezed(result_type, gather(x, axis, indices), indices, axis, keepdim)
    return _on_vector(select, input, dim)


def _non_nan_count(x, axis: int):
    isnan = _elementwise.isnan
    return _reduce.sum(_elementwise.logical_not(isnan(x)), axis, True)


def _median_position(ignore_nan: bool):
    where = _elementwise.where

    def position(x, axis, order):
        n = tuple(x.shape)[axis]
        if not _is_float(x):
            return _shape.narrow(order, axis, (n - 1) // 2, 1)
        count = _non_nan_count(x, axis)
        if ignore_nan:
            at = where(count > 0, _elementwise.floor_divide(count - 1, 2), (n - 1) // 2)
        else:  # a NaN is the median of its slice: the first one in sorted order
            at = where(count < n, count, (n - 1) // 2)
        return gather(order, axis, at)
    return position


def _evenly_shared(input, value):
    """``value`` (an element of ``input``) whose gradient is shared evenly among the elements
    equal to it, as PyTorch's median() without dim; a NaN or infinite value keeps its own."""
    where, isnan, isfinite = _elementwise.where, _elementwise.isnan, _elementwise.isfinite
    fixed = value.detach() if isinstance(value, Tensor) else value
    equal = (input == fixed) | (isnan(input) & isnan(fixed))
    count = _reduce.sum(equal)
    shared = _reduce.sum(where(equal, input, 0.0)) / count
    return where(isfinite(fixed), fixed + (shared - shared.detach()), value)


def _whole_median(name: str, input, ignore_nan: bool):
    flat = _shape.reshape(input, (-1,))
    if tuple(flat.shape)[0] == 0:
        if not _is_float(input):
            raise RuntimeError(f"{name}(): cannot compute the median of an empty integer tensor")
        return _reduce.sum(flat) * float("nan")
    result_type = NanmedianResult if ignore_nan else MedianResult
    value = _order_statistic(name, result_type, flat, 0, False,
                             _median_position(ignore_nan)).values
    return _evenly_shared(flat, value) if _is_float(input) else value


def _host(input, name: str) -> np.ndarray:
    """The values of ``input`` as a NumPy array (value-dependent result shapes need them;
    refused inside ``ug.vmap`` and ``ug.jit``)."""
    return backend.to_numpy(values_for_shape(name, input))


def _result(array, like) -> Tensor:
    """A Tensor of a NumPy result on the device of ``like``."""
    data = like._data if isinstance(like, Tensor) else like
    xp = backend.namespace_of(data)
    return _make_tensor(xp.asarray(np.asarray(array, order="C")))  # (0-d stays 0-d)


# ============================================================================= sort / topk

@op(methods=("sort",))
def sort(input, dim: int = -1, descending: bool = False, *, stable: bool = False):
    """``(values, indices)`` of ``input`` sorted along ``dim``.

    The sort is always stable (ties keep their order, also when descending); NaN
    sorts as the largest value. The gradient goes to the sorted positions.

    Example:
        >>> import unigrad as ug
        >>> ug.sort(ug.tensor([2.0, float("nan"), 1.0, 2.0]), descending=True).indices
        tensor([1, 0, 3, 2])
        >>> ug.sort(ug.tensor([[3, 1, 2]]), dim=1)
        sort(values=tensor([[1, 2, 3]]), indices=tensor([[1, 2, 0]]))
    """
    def sorted_along(x, axis):
        indices = bind(sort_indices_p, x, axis=axis, descending=bool(descending))
        return SortResult(gather(x, axis, indices), indices)
    return _on_vector(sorted_along, input, dim)


@op(methods=("argsort",))
def argsort(input, dim: int = -1, descending: bool = False, *, stable: bool = False):
    """The indices that sort ``input`` along ``dim`` (see :func:`sort`).

    Example:
        >>> import unigrad as ug
        >>> ug.argsort(ug.tensor([[3, 1, 2]]), dim=1)
        tensor([[1, 2, 0]])
    """
    return _on_vector(lambda x, axis: bind(sort_indices_p, x, axis=axis,
                                           descending=bool(descending)), input, dim)


@op(methods=("msort",))
def msort(input):
    """``input`` sorted along its first dimension (``sort(input, dim=0).values``).

    Example:
        >>> import unigrad as ug
        >>> ug.msort(ug.tensor([[3.0, 1.0], [1.0, 2.0]]))
        tensor([[1., 1.],
                [3., 2.]])
    """
    return sort(input, 0).values


@op(methods=("topk",))
def topk(input, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):
    """The ``k`` largest (or smallest) elements along ``dim`` as ``(values, indices)``.

    They always come sorted; tied values come in index order (PyTorch's CPU kernel
    may order tied indices otherwise).

    Example:
        >>> import unigrad as ug
        >>> ug.topk(ug.tensor([1.0, 4.0, 2.0, 3.0]), 2)
        topk(values=tensor([4., 3.]), indices=tensor([1, 3]))
    """
    def top(x, axis):
        if not 0 <= k <= tuple(x.shape)[axis]:
            raise RuntimeError("selected index k out of range")
        order = bind(sort_indices_p, x, axis=axis, descending=bool(largest))
        indices = _shape.narrow(order, axis, 0, k)
        return TopkResult(gather(x, axis, indices), indices)
    return _on_vector(top, input, dim)


# ============================================================================= order statistics

@op(methods=("kthvalue",))
def kthvalue(input, k: int, dim: int = -1, keepdim: bool = False):
    """The ``k``-th smallest element along ``dim`` (``k`` from 1) as ``(values, indices)``.

    Example:
        >>> import unigrad as ug
        >>> ug.kthvalue(ug.tensor([3.0, 1.0, 2.0]), 2)
        kthvalue(values=tensor(2.), indices=tensor(2))
    """
    def position(x, axis, order):
        if not 1 <= k <= tuple(x.shape)[axis]:
            raise RuntimeError(f"kthvalue(): selected number k out of range for dimension "
                               f"{axis}")
        return _shape.narrow(order, axis, k - 1, 1)
    return _order_statistic("kthvalue", KthvalueResult, input, dim, keepdim, position)


@op(methods=("median",))
def median(input, dim: int | None = None, keepdim: bool = False):
    """The lower median: of all elements (a tensor; the gradient is shared among the
    elements equal to it), or along ``dim`` as ``(values, indices)``. NaN propagates.

    Example:
        >>> import unigrad as ug
        >>> ug.median(ug.tensor([4.0, 1.0, 3.0, 2.0]))
        tensor(2.)
        >>> ug.median(ug.tensor([[4.0, 1.0, 3.0], [0.0, 5.0, 6.0]]), dim=1)
        median(values=tensor([3., 5.]), indices=tensor([2, 1]))
    """
    if dim is None:
        return _whole_median("median", input, ignore_nan=False)
    return _order_statistic("median", MedianResult, input, dim, keepdim,
                            _median_position(ignore_nan=False))


@op(methods=("nanmedian",))
def nanmedian(input, dim: int | None = None, keepdim: bool = False):
    """:func:`median` ignoring NaN (NaN only where a slice holds nothing else).

    Example:
        >>> import unigrad as ug
        >>> ug.nanmedian(ug.tensor([float("nan"), 1.0, 3.0, 2.0]))
        tensor(2.)
    """
    if dim is None:
        return _whole_median("nanmedian", input, ignore_nan=True)
    return _order_statistic("nanmedian", NanmedianResult, input, dim, keepdim,
                            _median_position(ignore_nan=True))


@op(methods=("mode",))
def mode(input, dim: int = -1, keepdim: bool = False):
    """The most frequent value along ``dim`` (the smallest among equally frequent ones) and
    the index of its last occurrence, as ``(values, indices)``.

    Example:
        >>> import unigrad as ug
        >>> ug.mode(ug.tensor([[1, 2, 2, 1], [3, 3, 3, 0]]), 1)
        mode(values=tensor([1, 3]), indices=tensor([3, 2]))
    """
    def most_frequent(x, axis):
        _check_nonempty("mode", x, axis)
        indices = bind(mode_indices_p, x, axis=axis)
        return _squeezed(ModeResult, gather(x, axis, indices), indices, axis, keepdim)
    return _on_vector(most_frequent, input, dim)


# ============================================================================= quantile

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_levels(name: str, q, input):
    """``q`` as a tensor of the input's dtype (0-d or 1-D), checked as PyTorch does."""
    dtype = input._data.dtype if isinstance(input, Tensor) else np.dtype(input.dtype)
    if isinstance(q, Tensor):
        if q.ndim > 1:
            raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
        if q._data.dtype != dtype:
            raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
        if has_values(q):
            host = backend.to_numpy(q._data)
            if host.size and not bool(np.all((host >= 0) & (host <= 1))):
                raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
        return q
    if isinstance(q, bool) or not isinstance(q, (int, float)):
        raise TypeError(f"{name}(): q must be a float or a Tensor, got {type(q).__name__}")
    if not 0 <= q <= 1:
        raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {q}")
    return as_tensor(float(q), dtype=dtype)


def _quantile(name: str, input, q, dim, keepdim: bool, interpolation: str, ignore_nan: bool):
    where, floor, cast = _elementwise.where, _elementwise.floor, _elementwise.cast
    if not isinstance(input, Tensor) or input._data.dtype not in (np.float32, np.float64):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    levels = _quantile_levels(name, q, input)
    shape = tuple(input.shape)
    if 0 in shape:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    if dim is None:
        axis, kept = 0, (1,) * len(shape)
        x = _shape.reshape(input, (-1,))
    else:
        axis = normalize_axis(dim, len(shape))
        kept = tuple(1 if i == axis else s for i, s in enumerate(shape))
        x = _shape.movedim(input, axis, -1) if shape else _shape.reshape(input, (1,))
    ordered = sort(x, -1).values  # rest + (n,), NaN last
    n = tuple(ordered.shape)[-1]
    rest = tuple(ordered.shape)[:-1]
    level_shape = tuple(levels.shape)
    levels = _shape.reshape(levels, level_shape + (1,) * len(ordered.shape))
    if ignore_nan:
        count = cast(_non_nan_count(ordered, -1), ordered.dtype)
        ranks = levels * (count - 1.0)
        ranks = where(ranks < 0, 0.0, ranks)
    else:
        has_nan = _reduce.any(_elementwise.isnan(ordered), -1, True)
        ranks = where(has_nan, float(n - 1), levels * float(n - 1))
    ordered = _shape.broadcast_to(ordered, tuple(ranks.shape)[:-1] + (n,))
    if interpolation in ("lower", "higher", "nearest"):
        rounding = {"lower": floor, "higher": _elementwise.ceil,
                    "nearest": _elementwise.round}[interpolation]
        out = gather(ordered, -1, cast(rounding(ranks), DEFAULT_INT))
    else:
        below = floor(ranks)
        lower = gather(ordered, -1, cast(below, DEFAULT_INT))
        upper = gather(ordered, -1, cast(_elementwise.ceil(ranks), DEFAULT_INT))
        weights = 0.5 if interpolation == "midpoint" else ranks - below
        out = _elementwise.lerp(lower, upper, weights)
    target = level_shape + (kept if keepdim else (rest if dim is not None else ()))
    if keepdim and dim is not None and shape:
        return _shape.movedim(out, -1, axis + len(level_shape))
    return _shape.reshape(out, target)


@op(methods=("quantile",))
def quantile(input, q, dim: int | None = None, keepdim: bool = False, *,
             interpolation: str = "linear"):
    """The ``q``-th quantiles along ``dim`` (of all elements when None); a 1-D ``q`` adds a
    leading dimension. A slice holding NaN gives NaN. The gradient flows to the two
    order statistics interpolated (and to a tensor ``q``), as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 8.0]])
        >>> ug.quantile(x, ug.tensor([0.25, 0.5]), dim=1)
        tensor([[0.5000, 3.5000],
                [1.0000, 4.0000]])
        >>> ug.quantile(x, 0.5, interpolation="lower")
        tensor(2.)
    """
    return _quantile("quantile", input, q, dim, keepdim, interpolation, ignore_nan=False)


@op(methods=("nanquantile",))
def nanquantile(input, q, dim: int | None = None, keepdim: bool = False, *,
                interpolation: str = "linear"):
    """:func:`quantile` ignoring NaN (NaN only where a slice holds nothing else).

    Example:
        >>> import unigrad as ug
        >>> ug.nanquantile(ug.tensor([1.0, float("nan"), 3.0]), 0.5)
        tensor(2.)
    """
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation, ignore_nan=True)


# ============================================================================= unique

def _unique_results(input, values, inverse, counts, return_inverse: bool,
                    return_counts: bool):
    out = [_result(values, input)]
    if return_inverse:
        out.append(_result(inverse.astype(DEFAULT_INT), input))
    if return_counts:
        out.append(_result(counts.astype(DEFAULT_INT), input))
    return out[0] if len(out) == 1 else tuple(out)


@op(methods=("unique",))
def unique(input, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim: int | None = None):
    """The distinct elements of ``input`` (or distinct slices along ``dim``), sorted; with
    ``return_inverse`` the index of each element in them, with ``return_counts`` how often
    each occurs. NaNs stay distinct. The results carry no gradient.

    Example:
        >>> import unigrad as ug
        >>> ug.unique(ug.tensor([3, 1, 3, 2]), return_inverse=True, return_counts=True)
        (tensor([1, 2, 3]), tensor([2, 0, 2, 1]), tensor([1, 1, 2]))
    """
    data = _host(input, "unique")
    if dim is None:
        values, inverse, counts = np.unique(data.reshape(-1), return_inverse=True,
                                            return_counts=True, equal_nan=False)
        inverse = inverse.reshape(data.shape)
    else:
        axis = normalize_axis(dim, data.ndim)
        values, inverse, counts = np.unique(data, return_inverse=True, return_counts=True,
                                            axis=axis)
        inverse = inverse.reshape(-1)
    return _unique_results(input, values, inverse, counts, return_inverse, return_counts)


@op(methods=("unique_consecutive",))
def unique_consecutive(input, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None):
    """``input`` with each run of equal consecutive elements (or slices along ``dim``)
    kept once; ``return_inverse`` and ``return_counts`` as in :func:`unique`.

    Example:
        >>> import unigrad as ug
        >>> ug.unique_consecutive(ug.tensor([1, 1, 2, 2, 3, 1, 1]), return_counts=True)
        (tensor([1, 2, 3, 1]), tensor([2, 2, 1, 2]))
    """
    data = _host(input, "unique_consecutive")
    axis = 0 if dim is None else normalize_axis(dim, data.ndim)
    moved = data.reshape(-1, 1) if dim is None else np.moveaxis(data, axis, 0)
    rows = moved.reshape(moved.shape[0], int(np.prod(moved.shape[1:])))
    starts = np.ones(rows.shape[0], dtype=bool)
    starts[1:] = np.any(rows[1:] != rows[:-1], axis=1)
    first = np.flatnonzero(starts)
    values = data.reshape(-1)[first] if dim is None else np.take(data, first, axis=axis)
    inverse = np.cumsum(starts) - 1
    if dim is None:
        inverse = inverse.reshape(data.shape)
    counts = np.diff(np.append(first, rows.shape[0]))
    return _unique_results(input, values, inverse, counts, return_inverse, return_counts)


# ============================================================================= searching

def _as_values(values, like) -> Tensor:
    if isinstance(values, Tensor):
        return values
    if isinstance(values, (bool, int, float)):
        return as_tensor(values)
    raise TypeError(f"expected a Tensor or a number as input, got {type(values).__name__}")


@op()
def searchsorted(sorted_sequence, input, *, out_int32: bool = False, right: bool = False,
                 side: str | None = None, sorter=None):
    """Where each element of ``input`` would be inserted in the last dimension of
    ``sorted_sequence`` to keep it sorted (the first such place, or the last one with
    ``right=True``/``side="right"``). ``sorted_sequence`` is 1-D, or has the leading
    dimensions of ``input``; ``sorter`` sorts an unsorted sequence.

    Example:
        >>> import unigrad as ug
        >>> ug.searchsorted(ug.tensor([1.0, 3.0, 5.0]), ug.tensor([3.0, 6.0]))
        tensor([1, 3])
        >>> ug.searchsorted(ug.tensor([1.0, 3.0, 5.0]), 3.0, right=True)
        tensor(2)
    """
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but "
                               f"got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to "
                               "opposites, got side of left while right was True")
        right = side == "right"
    values = _as_values(input, sorted_sequence)
    sequence_shape, value_shape = tuple(sorted_sequence.shape), tuple(values.shape)
    if len(sequence_shape) != 1 and (not sequence_shape or
                                     sequence_shape[:-1] != value_shape[:-1] or
                                     len(sequence_shape) != len(value_shape)):
        raise RuntimeError(
            f"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            f"dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {list(sequence_shape)} and input value tensor "
            f"{list(value_shape)}")
    if sorter is not None:
        if tuple(sorter.shape) != sequence_shape:
            raise RuntimeError(
                f"torch.searchsorted(): boundary and sorter must have the same size, but got "
                f"boundary tensor {list(sequence_shape)} and got sorter tensor "
                f"{list(sorter.shape)}")
        sorted_sequence = gather(sorted_sequence, -1, sorter)
    out = bind(searchsorted_p, sorted_sequence, values, right=bool(right))
    return _elementwise.cast(out, np.int32) if out_int32 else out


@op()
def bucketize(input, boundaries, *, out_int32: bool = False, right: bool = False):
    """The bucket of each element of ``input`` among the 1-D ``boundaries``: the ``i`` with
    ``boundaries[i-1] < x <= boundaries[i]`` (``<=``/``<`` with ``right=True``).

    Example:
        >>> import unigrad as ug
        >>> ug.bucketize(ug.tensor([1.0, 4.0, 5.0]), ug.tensor([1.0, 3.0, 5.0]))
        tensor([0, 2, 2])
    """
    if len(tuple(boundaries.shape)) != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got "
                           f"dim({len(tuple(boundaries.shape))})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


# ============================================================================= counting

@op(methods=("histc",))
def histc(input, bins: int = 100, min: float = 0, max: float = 0):
    """A histogram of ``input`` in ``bins`` equal bins over ``[min, max]`` (the data's range
    when both are 0); values outside are ignored. Not differentiable.

    Example:
        >>> import unigrad as ug
        >>> ug.histc(ug.tensor([1.0, 2.0, 1.0, 4.0]), bins=4, min=0, max=4)
        tensor([0., 2., 1., 1.])
    """
    if not _is_float(input):
        raise NotImplementedError(f'"histogram_cpu" not implemented for '
                                  f"'{backend.to_numpy_dtype(input.dtype).name}'")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           f"dimension 0")
    if min > max:
        raise RuntimeError("torch.histc: max must be larger than min")
    return bind(histc_p, input, bins=int(bins), low=float(min), high=float(max))


@op(methods=("bincount",))
def bincount(input, weights=None, minlength: int = 0):
    """How often each value ``0 .. max(input)`` occurs in the 1-D non-negative integer
    ``input`` (at least ``minlength`` bins); with ``weights``, their sums instead (float64
    for integer weights). The result carries no gradient.

    Example:
        >>> import unigrad as ug
        >>> ug.bincount(ug.tensor([0, 1, 1, 3]))
        tensor([1, 2, 0, 1])
    """
    data = _host(input, "bincount")
    if data.ndim != 1 or data.dtype.kind not in "biu" or (data.size and data.min() < 0):
        if data.dtype.kind == "f":
            raise NotImplementedError(f'"bincount_cpu" not implemented for '
                                      f"'{'Float' if data.dtype == np.float32 else 'Double'}'")
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is None:
        return _result(np.bincount(data, minlength=minlength).astype(DEFAULT_INT), input)
    weight_data = _host(weights, "bincount")
    if weight_data.shape != data.shape:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    dtype = weight_data.dtype if weight_data.dtype.kind == "f" else np.dtype(np.float64)
    counted = np.bincount(data, weights=weight_data.astype(np.float64), minlength=minlength)
    return _result(counted.astype(dtype), input)
