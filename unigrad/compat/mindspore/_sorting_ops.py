"""``mindspore.ops`` sorting and order statistics with MindSpore's argument names and
defaults: ``sort``/``argsort`` (``axis``, int32 indices), ``topk`` (``dim=None``: the last
axis; int32 indices), ``unique`` (sorted values and int32 positions), ``searchsorted``,
``median``/``kthvalue`` (int64 indices), ``quantile`` and ``bincount``. Imported into
:mod:`unigrad.compat.mindspore.ops`.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> values, indices = ops.sort(ms.Tensor([[8.0, 2.0, 1.0]]))
    >>> print(values, indices)
    [[1. 2. 8.]] [[2 1 0]]
"""

from __future__ import annotations

from ... import ops as _ug
from ...backend import int32 as _int32
from .ops import _int, _ms, _tensor

__all__ = ["sort", "argsort", "topk", "unique", "searchsorted", "median", "kthvalue",
           "quantile", "bincount"]


def _bool(value, owner: str, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{owner}', the '{name}' must be bool, but got "
                        f"{type(value).__name__}")
    return value


@_ms
def sort(input_x, axis: int = -1, descending: bool = False):
    """``(values, indices)`` sorted along ``axis``; the indices are int32."""
    x = _tensor(input_x, "sort", "input_x")
    result = _ug.sort(x, _int(axis, "sort", "axis"), _bool(descending, "sort", "descending"))
    return result.values, _ug.cast(result.indices, _int32)


@_ms
def argsort(input, axis: int = -1, descending: bool = False):
    """The int32 indices that sort ``input`` along ``axis``."""
    x = _tensor(input, "argsort", "input")
    indices = _ug.argsort(x, _int(axis, "argsort", "axis"),
                          _bool(descending, "argsort", "descending"))
    return _ug.cast(indices, _int32)


@_ms
def topk(input, k: int, dim=None, largest: bool = True, sorted: bool = True):
    """The ``k`` largest (or smallest) entries along ``dim`` (the last axis when None) and
    their int32 indices; equal values come in index order."""
    x = _tensor(input, "topk", "input")
    axis = -1 if dim is None else _int(dim, "topk", "dim")
    values, indices = _ug.topk(x, _int(k, "topk", "k"), axis, _bool(largest, "topk", "largest"),
                               _bool(sorted, "topk", "sorted"))
    return values, _ug.cast(indices, _int32)


@_ms
def unique(input):
    """``(y, idx)``: the sorted distinct elements and each element's int32 position in them
    (``idx`` has the input's shape)."""
    values, inverse = _ug.unique(_tensor(input, "unique", "input"), return_inverse=True)
    return values, _ug.cast(inverse, _int32)


@_ms
def searchsorted(sorted_sequence, values, *, out_int32: bool = False, right: bool = False,
                 side=None, sorter=None):
    """Where each of ``values`` goes in the innermost axis of ``sorted_sequence``."""
    return _ug.searchsorted(_tensor(sorted_sequence, "searchsorted", "sorted_sequence"),
                            _tensor(values, "searchsorted", "values"), out_int32=out_int32,
                            right=right, side=side, sorter=sorter)


@_ms
def median(input, axis: int = -1, keepdims: bool = False):
    """``(values, indices)``: the lower median along ``axis`` and its int64 index."""
    values, indices = _ug.median(_tensor(input, "median", "input"), _int(axis, "median", "axis"),
                                 _bool(keepdims, "median", "keepdims"))
    return values, indices


@_ms
def kthvalue(input, k: int, dim: int = -1, keepdim: bool = False):
    """``(values, indices)``: the ``k``-th smallest entry along ``dim`` (``k`` from 1)."""
    values, indices = _ug.kthvalue(_tensor(input, "kthvalue", "input"),
                                   _int(k, "kthvalue", "k"), _int(dim, "kthvalue", "dim"),
                                   _bool(keepdim, "kthvalue", "keepdim"))
    return values, indices


@_ms
def quantile(input, q, axis=None, keepdims: bool = False):
    """The ``q``-th quantiles along ``axis`` (of everything when None), linearly
    interpolated; a 1-D ``q`` adds a leading dimension."""
    return _ug.quantile(_tensor(input, "quantile", "input"), q, axis, keepdims)


@_ms
def bincount(input, weights=None, minlength: int = 0):
    """How often each value ``0 .. max(input)`` occurs in the 1-D ``input`` (or the sums of
    ``weights``), with at least ``minlength`` bins."""
    weights = None if weights is None else _tensor(weights, "bincount", "weights")
    return _ug.bincount(_tensor(input, "bincount", "input"), weights,
                        _int(minlength, "bincount", "minlength"))
