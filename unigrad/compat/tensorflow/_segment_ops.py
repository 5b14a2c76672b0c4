"""TensorFlow's segment reductions: ``tf.math.segment_sum`` / ``_mean`` / ``_max`` / ``_min`` /
``_prod`` (sorted ids, ``max(id) + 1`` rows) and ``tf.math.unsorted_segment_max`` / ``_min`` /
``_mean`` / ``_prod`` / ``_sqrt_n`` (any order, ``num_segments`` rows), on unigrad's
``index_add`` and ``scatter_reduce`` (so they differentiate as those do: ties of a max share
its gradient).

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> tf.math.segment_sum(data, [0, 0, 1]).numpy()
    array([[4., 6.],
           [5., 6.]], dtype=float32)
    >>> tf.math.unsorted_segment_max(tf.constant([1.0, 5.0, 3.0]), [1, 1, 0], 3).numpy()
    array([ 3.0000000e+00,  5.0000000e+00, -3.4028235e+38], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import unigrad as ug
from unigrad.tensor import Tensor as _UgTensor

from ._host import host_array, known_array
from ._tensor import Tensor, constant, operand
from .errors import InvalidArgumentError
from .math import _ret, _with_example

__all__ = ["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod",
           "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_mean",
           "unsorted_segment_prod", "unsorted_segment_sqrt_n"]


def _segment_ids(value) -> _UgTensor:
    ids = value if isinstance(value, _UgTensor) else constant(value)
    if ids.dtype not in (ug.int32, ug.int64):
        raise TypeError(f"segment_ids must be an int32 or int64 tensor, got {ids.dtype!r}")
    return ids


def _rows(x: _UgTensor, ids: _UgTensor) -> _UgTensor:
    """``x`` with the ``ids``-shaped leading axes flattened into one."""
    if tuple(x.shape[:ids.ndim]) != tuple(ids.shape):
        raise ValueError(f"segment_ids.shape {list(ids.shape)} must be a prefix of data.shape "
                         f"{list(x.shape)}")
    return ug.reshape(x, (int(np.prod(ids.shape, dtype=np.int64)),) + tuple(x.shape[ids.ndim:]))


def _targets(ids: _UgTensor, count: int) -> _UgTensor:
    """The flat segment of each row, a dropped (negative) id sent to the extra row ``count``."""
    flat = ug.reshape(ug.cast(ids, ug.int64), (-1,))
    return ug.where(flat < 0, ug.full_like(flat, count), flat)


def _fill(dtype, reduce: str):
    """The value of an empty segment: the lowest value for max, the highest for min, 1 for a
    product, 0 otherwise."""
    numpy_dtype = np.dtype(dtype.np_dtype)
    if reduce in ("amax", "amin") and numpy_dtype.kind in "iu":
        info = np.iinfo(numpy_dtype)
        return int(info.min if reduce == "amax" else info.max)
    if reduce in ("amax", "amin"):
        info = np.finfo(numpy_dtype)
        return float(info.min if reduce == "amax" else info.max)
    return 1 if reduce == "prod" else 0


def _reduce(x: _UgTensor, ids: _UgTensor, count: int, reduce: str, fill) -> _UgTensor:
    """The ``reduce`` of the rows of ``x`` per id into ``count`` rows (``fill`` where none)."""
    rows = _rows(x, ids)
    initial = ug.full((count + 1,) + tuple(rows.shape[1:]), fill, dtype=x.dtype)
    if rows.shape[0]:
        index = _targets(ids, count)
        if reduce == "sum":
            initial = ug.index_add(initial, 0, index, rows)
        else:  # scatter_reduce takes a traced index tensor (index_reduce does not)
            shape = (rows.shape[0],) + (1,) * (rows.ndim - 1)
            positions = ug.broadcast_to(ug.reshape(index, shape), tuple(rows.shape))
            initial = ug.scatter_reduce(initial, 0, positions, rows, reduce, include_self=False)
    return ug.narrow(initial, 0, 0, count)


def _sorted_segment(tf_name: str, reduce: str) -> Callable:
    def fn(data, segment_ids, name: str | None = None) -> Tensor:
        x = operand(data, "data")
        tensor = _segment_ids(segment_ids)
        ids = host_array(tensor)  # the number of segments, hence the shape, depends on them
        if ids.ndim != 1:
            raise ValueError(f"segment_ids should be a vector, got shape {list(ids.shape)}")
        if ids.size and (np.any(np.diff(ids) < 0) or ids[0] < 0):
            raise InvalidArgumentError(None, None, "segment ids are not increasing")
        count = int(ids[-1]) + 1 if ids.size else 0
        result = _reduce(x, tensor, count, reduce, _fill(x.dtype, reduce))
        empty = np.bincount(ids, minlength=count) == 0
        if reduce in ("amax", "amin") and empty.any():
            mask = ug.tensor(empty.reshape((count,) + (1,) * (x.ndim - 1)))
            result = ug.where(mask, ug.zeros_like(result), result)
        return _ret(result, x)
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = (f"``tf.math.{tf_name}(data, segment_ids, name=None)``: the {reduce.lstrip('a')}"
                  f" of the rows of ``data`` that share a (sorted, non-negative) segment id; "
                  f"``max(segment_ids) + 1`` rows, an empty segment is 0 (1 for a product).")
    return fn


def _segment_count(num_segments) -> int:
    if isinstance(num_segments, _UgTensor):
        num_segments = host_array(num_segments)[()]
    if isinstance(num_segments, (bool, float)) or int(num_segments) < 0:
        raise ValueError(f"num_segments must be a non-negative int, got {num_segments!r}")
    return int(num_segments)


def _unsorted(segment_ids, num_segments) -> tuple:
    ids = _segment_ids(segment_ids)
    count = _segment_count(num_segments)
    known = known_array(ids)  # checked when known (not while tf.function traces)
    if known is not None and known.size and known.max() >= count:
        raise InvalidArgumentError(None, None, f"segment_ids[{int(np.argmax(known.reshape(-1)))}]"
                                   f" = {int(known.max())} is out of range [0, {count})")
    return ids, count


def _unsorted_segment(tf_name: str, reduce: str) -> Callable:
    def fn(data, segment_ids, num_segments, name: str | None = None) -> Tensor:
        x = operand(data, "data")
        ids, count = _unsorted(segment_ids, num_segments)
        return _ret(_reduce(x, ids, count, reduce, _fill(x.dtype, reduce)), x)
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = (f"``tf.math.{tf_name}(data, segment_ids, num_segments, name=None)``: the "
                  f"{reduce.lstrip('a')} of the rows of ``data`` per segment id (any order; "
                  f"negative ids dropped), ``num_segments`` rows; an empty segment holds "
                  f"{_fill(ug.float32, reduce)!r} (the dtype's extreme for max/min).")
    return fn


segment_sum = _with_example(
    _sorted_segment("segment_sum", "sum"),
    "tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0]), [0, 0, 1]).numpy()",
    "array([3., 3.], dtype=float32)")
segment_mean = _with_example(
    _sorted_segment("segment_mean", "mean"),
    "tf.math.segment_mean(tf.constant([1.0, 2.0, 3.0]), [0, 0, 1]).numpy()",
    "array([1.5, 3. ], dtype=float32)")
segment_max = _with_example(
    _sorted_segment("segment_max", "amax"),
    "tf.math.segment_max(tf.constant([1.0, 2.0, 3.0]), [0, 0, 2]).numpy()",
    "array([2., 0., 3.], dtype=float32)")
segment_min = _with_example(
    _sorted_segment("segment_min", "amin"),
    "tf.math.segment_min(tf.constant([1.0, 2.0, 3.0]), [0, 0, 1]).numpy()",
    "array([1., 3.], dtype=float32)")
segment_prod = _with_example(
    _sorted_segment("segment_prod", "prod"),
    "tf.math.segment_prod(tf.constant([2.0, 3.0, 4.0]), [0, 0, 2]).numpy()",
    "array([6., 1., 4.], dtype=float32)")
unsorted_segment_max = _with_example(
    _unsorted_segment("unsorted_segment_max", "amax"),
    "tf.math.unsorted_segment_max(tf.constant([1, 5, 3]), [1, 1, 0], 2).numpy()",
    "array([3, 5], dtype=int32)")
unsorted_segment_min = _with_example(
    _unsorted_segment("unsorted_segment_min", "amin"),
    "tf.math.unsorted_segment_min(tf.constant([1, 5, 3]), [1, 1, 0], 2).numpy()",
    "array([3, 1], dtype=int32)")
unsorted_segment_prod = _with_example(
    _unsorted_segment("unsorted_segment_prod", "prod"),
    "tf.math.unsorted_segment_prod(tf.constant([2.0, 5.0, 3.0]), [1, 1, 0], 3).numpy()",
    "array([ 3., 10.,  1.], dtype=float32)")
unsorted_segment_mean = _with_example(
    _unsorted_segment("unsorted_segment_mean", "mean"),
    "tf.math.unsorted_segment_mean(tf.constant([1.0, 5.0, 3.0]), [1, 1, 0], 3).numpy()",
    "array([3., 3., 0.], dtype=float32)")


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name: str | None = None) -> Tensor:
    """``tf.math.unsorted_segment_sqrt_n``: each segment's sum divided by the square root of
    its number of rows (an empty segment is 0).

    Raises:
        InvalidArgumentError: For a segment id not below ``num_segments``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.unsorted_segment_sqrt_n(tf.constant([3.0, 1.0]), [0, 0], 2).numpy()
        array([2.828427, 0.      ], dtype=float32)
    """
    x = operand(data, "data")
    ids, count = _unsorted(segment_ids, num_segments)
    total = _reduce(x, ids, count, "sum", 0)
    ones = ug.ones(tuple(ids.shape), dtype=x.dtype)
    sizes = _reduce(ones, ids, count, "sum", 0)
    scale = ug.sqrt(ug.clamp(ug.reshape(sizes, (count,) + (1,) * (total.ndim - 1)), min=1))
    return _ret(total / scale, x)
