"""TensorFlow's scatter and mask ops: ``tf.tensor_scatter_nd_update`` / ``_add`` / ``_sub`` /
``_max`` / ``_min``, ``tf.boolean_mask`` and ``tf.math.unsorted_segment_sum``, on
unigrad's scatter ops (so they differentiate as those do).

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.tensor_scatter_nd_add(tf.zeros([3]), [[0], [2], [0]], [1.0, 2.0, 3.0]).numpy().tolist()
    [4.0, 0.0, 2.0]
"""

from __future__ import annotations

import numpy as np

import unigrad as ug
from unigrad.ops.scatter import scatter_nd_into
from unigrad.tensor import Tensor as _UgTensor

from ._tensor import Tensor, constant, operand
from .math import _ret

__all__ = ["tensor_scatter_nd_update", "tensor_scatter_nd_add", "tensor_scatter_nd_sub",
           "tensor_scatter_nd_max", "tensor_scatter_nd_min", "boolean_mask",
           "unsorted_segment_sum"]


def _indices(value, name: str) -> _UgTensor:
    index = value if isinstance(value, _UgTensor) else constant(value)
    if index.dtype not in (ug.int32, ug.int64):
        raise TypeError(f"{name} must be an int32 or int64 tensor, got {index.dtype}")
    return index


def _updates(value, like: _UgTensor) -> _UgTensor:
    updates = value if isinstance(value, _UgTensor) else constant(value, dtype=like.dtype)
    if updates.dtype != like.dtype:
        raise TypeError(f"updates must have the dtype of tensor ({like.dtype}), got "
                        f"{updates.dtype}")
    return updates


def _scatter_nd(owner: str, tensor, indices, updates, reduce: str | None) -> Tensor:
    x = operand(tensor, "tensor")
    result = scatter_nd_into(x, _indices(indices, "indices"), _updates(updates, x), reduce,
                             owner=owner)
    return _ret(result, x)


def tensor_scatter_nd_update(tensor, indices, updates, name: str | None = None) -> Tensor:
    """``tf.tensor_scatter_nd_update``: ``tensor`` with the slices at ``indices`` replaced.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.tensor_scatter_nd_update(tf.zeros([2, 2]), [[1, 0]], [5.0]).numpy().tolist()
        [[0.0, 0.0], [5.0, 0.0]]
    """
    return _scatter_nd("tensor_scatter_nd_update", tensor, indices, updates, None)


def tensor_scatter_nd_add(tensor, indices, updates, name: str | None = None) -> Tensor:
    """``tf.tensor_scatter_nd_add``: ``updates`` added at ``indices`` (repeats accumulate)."""
    return _scatter_nd("tensor_scatter_nd_add", tensor, indices, updates, "add")


def tensor_scatter_nd_sub(tensor, indices, updates, name: str | None = None) -> Tensor:
    """``tf.tensor_scatter_nd_sub``: ``updates`` subtracted at ``indices``."""
    return _scatter_nd("tensor_scatter_nd_sub", tensor, indices, updates, "sub")


def tensor_scatter_nd_max(tensor, indices, updates, name: str | None = None) -> Tensor:
    """``tf.tensor_scatter_nd_max``: the maximum of ``tensor`` and the ``updates`` at
    ``indices``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.tensor_scatter_nd_max(tf.constant([1.0, 5.0]), [[0], [1]], [3.0, 2.0]).numpy()
        array([3., 5.], dtype=float32)
    """
    return _scatter_nd("tensor_scatter_nd_max", tensor, indices, updates, "amax")


def tensor_scatter_nd_min(tensor, indices, updates, name: str | None = None) -> Tensor:
    """``tf.tensor_scatter_nd_min``: the minimum of ``tensor`` and the ``updates`` at
    ``indices``."""
    return _scatter_nd("tensor_scatter_nd_min", tensor, indices, updates, "amin")


def boolean_mask(tensor, mask, axis=None, name: str = "boolean_mask") -> Tensor:
    """``tf.boolean_mask``: the entries (or slices) of ``tensor`` where the k-D ``mask``
    holds, over the dimensions ``axis .. axis + k - 1`` (default 0).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.boolean_mask(tf.constant([[1, 2], [3, 4]]), [False, True]).numpy().tolist()
        [[3, 4]]
    """
    x = operand(tensor, "tensor")
    where = mask if isinstance(mask, _UgTensor) else constant(np.asarray(mask, dtype=bool))
    if where.dtype != ug.bool_:
        raise TypeError(f"mask must be a boolean tensor, got {where.dtype}")
    if where.ndim == 0:
        raise ValueError("mask cannot be scalar.")
    axis = 0 if axis is None else int(axis) % max(x.ndim, 1)
    if tuple(x.shape[axis:axis + where.ndim]) != tuple(where.shape):
        raise ValueError(f"Shapes {list(x.shape[axis:axis + where.ndim])} and "
                         f"{list(where.shape)} are incompatible")
    return _ret(x[(slice(None),) * axis + (where,)], x)


def unsorted_segment_sum(data, segment_ids, num_segments, name: str | None = None) -> Tensor:
    """``tf.math.unsorted_segment_sum``: ``out[i] = sum(data[j...] for segment_ids[j...] == i)``
    with ``num_segments`` rows (negative ids are dropped; empty segments are 0).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.unsorted_segment_sum(tf.constant([1.0, 2.0, 3.0]), [1, 0, 1], 3).numpy()
        array([2., 4., 0.], dtype=float32)
    """
    x = operand(data, "data")
    ids = _indices(segment_ids, "segment_ids")
    count = int(num_segments.item() if isinstance(num_segments, _UgTensor) else num_segments)
    rank = ids.ndim
    if tuple(x.shape[:rank]) != tuple(ids.shape):
        raise ValueError(f"segment_ids.shape {list(ids.shape)} must be a prefix of data.shape "
                         f"{list(x.shape)}")
    host = np.asarray(ids.numpy()).reshape(-1)
    if host.size and host.max() >= count:
        raise ValueError(f"segment_ids[{int(np.argmax(host))}] = {int(host.max())} is out of "
                         f"range [0, {count})")
    keep = host >= 0
    rows = ug.reshape(x, (host.size,) + tuple(x.shape[rank:]))
    if not keep.all():
        rows = rows[ug.tensor(keep)]
    zeros = ug.zeros((count,) + tuple(x.shape[rank:]), dtype=x.dtype)
    return _ret(ug.index_add(zeros, 0, ug.tensor(host[keep]), rows), x)
