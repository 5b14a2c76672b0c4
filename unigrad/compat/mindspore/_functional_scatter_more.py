"""More ``mindspore.ops`` scatter functions, spelled from one table over the core's
``scatter_nd_into`` (the rows and the factory work as in :mod:`._functional_more`):
``scatter_add``/``scatter_max``/``scatter_min``/``scatter_update`` (``indices`` name
rows of ``input_x``) and ``scatter_nd_add``/``_sub``/``_max``/``_min`` (``indices[..., :]``
name elements or slices). As in MindSpore they write into ``input_x`` (a Parameter or a
Tensor) and return the new value as a Tensor. Imported into
:mod:`unigrad.compat.mindspore.ops`.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> w = ms.Parameter(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), name="w")
    >>> print(ops.scatter_add(w, ms.Tensor([1, 1]), ms.Tensor([[1.0, 1.0], [2.0, 2.0]])))
    [[1. 2.]
     [6. 7.]]
    >>> print(w.asnumpy())
    [[1. 2.]
     [6. 7.]]
"""

from __future__ import annotations

from collections.abc import Callable

from ... import ops as _ug
from ...ops.scatter import scatter_nd_into
from ._functional_more import _INT64, _publish, _segment_reduce
from ._tensor import to_ms
from .ops import _int


def _scatter(reduce: str | None, by_rows: bool, owner: str) -> Callable:
    """Combine ``updates`` into ``input_x`` (``reduce``: None replaces) at ``indices`` (row
    numbers when ``by_rows``, else index tuples), write the result into ``input_x`` and
    return it."""
    def scattered(input_x, indices, updates):
        positions = _ug.unsqueeze(indices, -1) if by_rows else indices
        result = scatter_nd_into(input_x.detach(), positions, updates, reduce, owner=owner)
        to_ms(input_x).set_data(result)
        return result
    return scattered


# inplace_*'s indices: an int, a tuple of ints or a Tensor, taken as given
_AS_GIVEN = frozenset({"indices"})


def _rows_combined(reduce: str | None, owner: str) -> Callable:
    """``inplace_add``/``_sub``/``_update``: a new x with its rows at indices (an int, a
    tuple of ints or a Tensor) combined with the rows of v (despite the names, x is kept)."""
    def combined(x, v, indices):
        if isinstance(indices, int):
            indices = (indices,)
        rows = indices if hasattr(indices, "shape") else _ug.tensor(
            [_int(index, owner, "indices") for index in indices], dtype=_INT64)
        return scatter_nd_into(x, _ug.unsqueeze(rows, -1), v, reduce, owner=owner)
    return combined


def _sparse_segment_mean(x, indices, segment_ids):
    """Row s: the mean of the rows x[indices[j]] with segment_ids[j] == s (0 when none);
    max(segment_ids) + 1 rows."""
    count = int(_ug.max(segment_ids).item()) + 1 if segment_ids.numel() else 0
    rows = _ug.index_select(x, 0, _ug.cast(indices, _INT64))
    sums = _segment_reduce("sum", "sparse_segment_mean")(rows, segment_ids, count)
    sizes = _segment_reduce("sum", "sparse_segment_mean")(
        _ug.ones(tuple(segment_ids.shape), dtype=x.dtype), segment_ids, count)
    return _ug.div(sums, _ug.reshape(_ug.clamp(sizes, min=1.0), (-1,) + (1,) * (x.ndim - 1)))


_ROWS = (
    ("scatter_add", lambda input_x, indices, updates:
        _scatter("add", True, "ScatterAdd")(input_x, indices, updates),
     "input_x with updates added to the rows indices names, in place"),
    ("scatter_max", lambda input_x, indices, updates:
        _scatter("amax", True, "ScatterMax")(input_x, indices, updates),
     "input_x with its rows at indices raised to updates, in place"),
    ("scatter_min", lambda input_x, indices, updates:
        _scatter("amin", True, "ScatterMin")(input_x, indices, updates),
     "input_x with its rows at indices lowered to updates, in place"),
    ("scatter_update", lambda input_x, indices, updates:
        _scatter(None, True, "ScatterUpdate")(input_x, indices, updates),
     "input_x with the rows indices names replaced by updates, in place"),
    ("inplace_add", lambda x, v, indices: _rows_combined("add", "InplaceAdd")(x, v, indices),
     "x with the rows of v added to its rows at indices (a new tensor)", _AS_GIVEN),
    ("inplace_sub", lambda x, v, indices: _rows_combined("sub", "InplaceSub")(x, v, indices),
     "x with the rows of v subtracted from its rows at indices (a new tensor)", _AS_GIVEN),
    ("inplace_update", lambda x, v, indices:
        _rows_combined(None, "InplaceUpdate")(x, v, indices),
     "x with its rows at indices replaced by the rows of v (a new tensor)", _AS_GIVEN),
    ("sparse_segment_mean", lambda x, indices, segment_ids:
        _sparse_segment_mean(x, indices, segment_ids),
     "the means of the rows x[indices] per (sorted) segment id"),
    ("scatter_nd_add", lambda input_x, indices, updates, use_locking=False:
        _scatter("add", False, "ScatterNdAdd")(input_x, indices, updates),
     "input_x with updates added at the index tuples indices, in place"),
    ("scatter_nd_sub", lambda input_x, indices, updates, use_locking=False:
        _scatter("sub", False, "ScatterNdSub")(input_x, indices, updates),
     "input_x with updates subtracted at the index tuples indices, in place"),
    ("scatter_nd_max", lambda input_x, indices, updates, use_locking=False:
        _scatter("amax", False, "ScatterNdMax")(input_x, indices, updates),
     "input_x raised to updates at the index tuples indices, in place"),
    ("scatter_nd_min", lambda input_x, indices, updates, use_locking=False:
        _scatter("amin", False, "ScatterNdMin")(input_x, indices, updates),
     "input_x lowered to updates at the index tuples indices, in place"),
)

__all__ = _publish(_ROWS, globals(), __name__)
