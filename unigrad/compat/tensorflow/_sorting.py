"""TensorFlow's sorting and counting ops with TensorFlow's arguments: ``tf.sort``,
``tf.argsort``, ``tf.math.top_k`` (also ``tf.nn.top_k``), ``tf.unique`` (values in order of
first occurrence), ``tf.searchsorted``, ``tf.math.bincount`` and
``tf.histogram_fixed_width``. Indices are int32 unless asked otherwise, as in TensorFlow.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.sort(tf.constant([3, 1, 2]), direction="DESCENDING").numpy()
    array([3, 2, 1], dtype=int32)
    >>> tf.math.top_k(tf.constant([1.0, 4.0, 2.0]), k=2).indices.numpy()
    array([1, 2], dtype=int32)
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

import unigrad as ug

from ._tensor import Tensor, _dtype, as_tf, operand
from .math import _axis, _ret

__all__ = ["sort", "argsort", "top_k", "unique", "searchsorted", "bincount",
           "histogram_fixed_width"]

TopKV2 = namedtuple("TopKV2", ("values", "indices"))
Unique = namedtuple("Unique", ("y", "idx"))

_DIRECTIONS = ("ASCENDING", "DESCENDING")


def _descending(direction: str) -> bool:
    if direction not in _DIRECTIONS:
        raise ValueError(f"`direction` should be one of {{'ASCENDING', 'DESCENDING'}}. "
                         f"Received: direction={direction}")
    return direction == "DESCENDING"


def sort(values, axis: int = -1, direction: str = "ASCENDING", name: str | None = None) -> Tensor:
    """``values`` sorted along ``axis`` (``direction`` ``'ASCENDING'`` or ``'DESCENDING'``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.sort(tf.constant([[2.0, 1.0], [0.0, 3.0]]), axis=0).numpy()
        array([[0., 1.],
               [2., 3.]], dtype=float32)
    """
    x = operand(values, "values")
    return _ret(ug.sort(x, _axis(axis), _descending(direction)).values, x)


def argsort(values, axis: int = -1, direction: str = "ASCENDING", stable: bool = False,
            name: str | None = None) -> Tensor:
    """The int32 indices that sort ``values`` along ``axis`` (always a stable sort).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.argsort(tf.constant([3, 1, 2])).numpy()
        array([1, 2, 0], dtype=int32)
    """
    x = operand(values, "values")
    indices = ug.argsort(x, _axis(axis), _descending(direction))
    return as_tf(ug.cast(indices, ug.int32))


def top_k(input, k: int = 1, sorted: bool = True, index_type=ug.int32,
          name: str | None = None) -> TopKV2:
    """The ``k`` largest entries of the last axis and their indices; equal values come in
    index order.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> result = tf.math.top_k(tf.constant([[1.0, 5.0, 3.0]]), k=2)
        >>> result.values.numpy(), result.indices.numpy()
        (array([[5., 3.]], dtype=float32), array([[1, 2]], dtype=int32))
    """
    x = operand(input, "input")
    if x.ndim == 0:
        raise ValueError("input must have at least 1 dimension")
    if not 0 <= int(k) <= x.shape[-1]:
        raise ValueError(f"input must have at least k={k} columns, got {x.shape[-1]}")
    values, indices = ug.topk(x, int(k), -1)
    return TopKV2(as_tf(values), as_tf(ug.cast(indices, _dtype(index_type, "index_type"))))


def unique(x, out_idx=ug.int32, name: str | None = None) -> Unique:
    """The distinct values of the 1-D ``x`` in order of first occurrence (``y``), and for each
    element its position in ``y`` (``idx``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> y, idx = tf.unique(tf.constant([4, 1, 4, 2, 1]))
        >>> y.numpy(), idx.numpy()
        (array([4, 1, 2], dtype=int32), array([0, 1, 0, 2, 1], dtype=int32))
    """
    tensor = operand(x, "x")
    if tensor.ndim != 1:
        raise ValueError(f"unique expects a 1D vector, got shape {list(tensor.shape)}")
    values, inverse = ug.unique(tensor, return_inverse=True)
    # sorted order -> first-occurrence order
    first = np.full(values.shape[0], tensor.shape[0], dtype=np.int64)
    np.minimum.at(first, inverse.numpy(), np.arange(tensor.shape[0]))
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    y = ug.index_select(values, 0, ug.tensor(order))
    idx = ug.tensor(rank[inverse.numpy()], dtype=_dtype(out_idx, "out_idx"))
    return Unique(as_tf(y), as_tf(idx))


def searchsorted(sorted_sequence, values, side: str = "left", out_type=ug.int32,
                 name: str | None = None) -> Tensor:
    """Where each of ``values`` goes in the last axis of ``sorted_sequence`` (whose leading
    dimensions match those of ``values``) to keep it sorted.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.searchsorted(tf.constant([1.0, 3.0, 5.0]), tf.constant([3.0, 6.0]),
        ...                 side="right").numpy()
        array([2, 3], dtype=int32)
    """
    if side not in ("left", "right"):
        raise ValueError(f"side must be either 'right' or 'left'. Saw: {side}")
    sequence, queries = operand(sorted_sequence, "sorted_sequence"), operand(values, "values")
    out = ug.searchsorted(sequence, queries, side=side)
    return as_tf(ug.cast(out, _dtype(out_type, "out_type")))


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=ug.int32,
             name: str | None = None, axis=None, binary_output: bool = False) -> Tensor:
    """How often each value ``0 .. max(arr)`` occurs in ``arr`` (all of it; or per row with
    ``axis=-1``), at least ``minlength`` and at most ``maxlength`` bins; with ``weights``
    their sums (in the weights' dtype), with ``binary_output`` 1 where a value occurs.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.bincount(tf.constant([1, 1, 3]), minlength=5).numpy()
        array([0, 2, 0, 1, 0], dtype=int32)
    """
    values = operand(arr, "arr").numpy()
    if values.size and values.min() < 0:
        raise ValueError("Input arr must be non-negative!")
    if axis not in (None, 0, -1):
        raise ValueError(f"Unsupported axis value {axis}. Only 0 and -1 are currently supported.")
    weight = None if weights is None else np.asarray(operand(weights, "weights").numpy())
    out_dtype = (np.dtype(_dtype(dtype, "dtype").name) if weight is None
                 else weight.dtype)
    rows = values.reshape(1, -1) if axis in (None, 0) else values.reshape(-1, values.shape[-1])
    weight_rows = None if weight is None else weight.reshape(rows.shape)
    length = int(values.max()) + 1 if values.size else 0
    length = max(length, minlength or 0)
    if maxlength is not None:
        length = min(length, int(maxlength))
    counts = np.zeros((rows.shape[0], length), dtype=np.float64)
    for index, row in enumerate(rows):
        keep = row < length
        if binary_output:
            counts[index, row[keep]] = 1
        else:
            np.add.at(counts[index], row[keep],
                      1 if weight_rows is None else weight_rows[index][keep])
    counts = counts[0] if axis in (None, 0) else counts.reshape(values.shape[:-1] + (length,))
    return as_tf(ug.tensor(counts.astype(out_dtype)))



def histogram_fixed_width(values, value_range, nbins: int = 100, dtype=ug.int32,
                          name: str | None = None) -> Tensor:
    """Counts of ``values`` in ``nbins`` equal bins over ``value_range``; values below or
    above the range go to the first or last bin.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.histogram_fixed_width(tf.constant([-1.0, 0.0, 1.5, 2.0, 5.0]),
        ...                          [0.0, 5.0], nbins=5).numpy()
        array([2, 1, 1, 0, 1], dtype=int32)
    """
    x = operand(values, "values")
    low, high = (float(v) for v in np.asarray(
        value_range.numpy() if isinstance(value_range, ug.Tensor) else value_range).reshape(-1))
    if not high > low:
        raise ValueError(f"value_range should satisfy value_range[0] < value_range[1], "
                         f"but got '[{low}, {high}]'")
    bins = ug.floor((ug.reshape(x, (-1,)) - low) / (high - low) * nbins)
    positions = ug.cast(ug.clamp(bins, 0, nbins - 1), ug.int64)
    return as_tf(ug.cast(ug.bincount(positions, minlength=nbins), _dtype(dtype, "dtype")))
