"""TensorFlow's shaping, splitting and indexing ops at the top of ``tf``: ``broadcast_to``,
``one_hot``, ``repeat``, ``reverse``, ``reverse_sequence``, ``sequence_mask``, ``slice``,
``strided_slice``, ``split``, ``shape_n``, ``identity_n``, ``ensure_shape``, ``gather_nd``,
``scatter_nd``, ``dynamic_partition``, ``dynamic_stitch``, ``unique_with_counts``,
``is_tensor``, ``get_static_value`` and ``no_op``, as composites of unigrad's ops.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.one_hot([0, 2], depth=3).numpy()
    array([[1., 0., 0.],
           [0., 0., 1.]], dtype=float32)
    >>> [part.numpy().tolist() for part in tf.split(tf.range(6), [1, 5])]
    [[0], [1, 2, 3, 4, 5]]
"""

from __future__ import annotations

import builtins
import collections

import numpy as np

import unigrad as ug
from unigrad.ops.scatter import scatter_nd_into
from unigrad.tensor import Tensor as _UgTensor

from ._array_ops import _shape_arg
from ._dtypes import as_dtype
from ._host import host_array, known_array
from ._sorting import unique
from ._tensor import Tensor, Variable, as_tf, constant, operand
from .errors import InvalidArgumentError
from .math import _axis, _ret
from .tensor_shape import TensorShape

# TensorFlow's dtypes as argument defaults
_TF_BOOL = as_dtype("bool")
_TF_INT32 = as_dtype("int32")

__all__ = ["broadcast_to", "one_hot", "repeat", "reverse", "reverse_sequence", "sequence_mask",
           "slice", "strided_slice", "split", "shape_n", "identity_n", "ensure_shape",
           "gather_nd", "scatter_nd", "dynamic_partition", "dynamic_stitch",
           "unique_with_counts", "is_tensor", "get_static_value", "no_op", "newaxis"]

newaxis = None


def _host_ints(value, name: str) -> np.ndarray:
    """Integer values needed in Python (shapes, counts): ``ConcretizationError`` inside
    ``tf.function`` when they are only known at each call."""
    tensor = value if isinstance(value, _UgTensor) else constant(value)
    if tensor.dtype.kind not in "iu":
        raise TypeError(f"{name} must be an int32 or int64 tensor, got {tensor.dtype!r}")
    return host_array(tensor)


def broadcast_to(input, shape, name: str | None = None) -> Tensor:
    """``input`` broadcast to ``shape`` (NumPy's rules).

    Raises:
        InvalidArgumentError: When the shapes are not compatible.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.broadcast_to(tf.constant([1, 2]), [2, 2]).numpy()
        array([[1, 2],
               [1, 2]], dtype=int32)
    """
    x = operand(input, "input")
    target = _shape_arg(shape, "shape")
    try:
        np.broadcast_shapes(tuple(x.shape), target)
        if len(target) < x.ndim or np.broadcast_shapes(tuple(x.shape), target) != target:
            raise ValueError
    except ValueError:
        raise InvalidArgumentError(None, None, f"Unable to broadcast tensor of shape "
                                   f"{list(x.shape)} to tensor of shape {list(target)}") from None
    return _ret(ug.broadcast_to(x, target), x)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None,
            name: str | None = None) -> Tensor:
    """A new axis (last, or ``axis``) of size ``depth`` holding ``on_value`` (1) at each
    index and ``off_value`` (0) elsewhere; out-of-range indices give all ``off_value``. Not
    differentiable, as in TensorFlow.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.one_hot([1, 0], 2, on_value=5, off_value=-1).numpy()
        array([[-1,  5],
               [ 5, -1]], dtype=int32)
    """
    ids = _index_tensor(indices, "indices")
    depth = int(depth)
    if dtype is not None:
        target = as_dtype(dtype)
    elif on_value is not None:
        target = operand(on_value, "on_value").dtype
    elif off_value is not None:
        target = operand(off_value, "off_value").dtype
    else:
        target = as_dtype("float32")
    on = _value_of(1 if on_value is None else on_value, target)
    off = _value_of(0 if off_value is None else off_value, target)
    hits = ug.unsqueeze(ids, -1) == ug.arange(depth, dtype=ids.dtype)
    result = ug.where(hits, on, off)
    if axis is not None and int(axis) != -1:
        result = ug.movedim(result, -1, int(axis))
    return _ret(result, on, off)


def _value_of(value, target) -> _UgTensor:
    """An on/off value of ``one_hot`` (not differentiated: TensorFlow's OneHot has no
    gradient)."""
    if isinstance(value, _UgTensor):
        value = value.detach()
        return value if value.dtype == target else ug.cast(value, target)
    return constant(value, dtype=target)


def _index_tensor(value, name: str) -> _UgTensor:
    tensor = value if isinstance(value, _UgTensor) else constant(value)
    if tensor.dtype.kind not in "iu":
        raise TypeError(f"{name} must be an int32 or int64 tensor, got {tensor.dtype!r}")
    return tensor


def repeat(input, repeats, axis=None, name: str | None = None) -> Tensor:
    """Each entry of ``input`` repeated ``repeats`` times (an int, or one count per entry)
    along ``axis``; ``axis=None`` flattens first.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.repeat(tf.constant([[1, 2], [3, 4]]), [1, 2], axis=0).numpy()
        array([[1, 2],
               [3, 4],
               [3, 4]], dtype=int32)
    """
    x = operand(input, "input")
    counts = _host_ints(repeats, "repeats")
    if axis is None:
        x, axis = ug.reshape(x, (-1,)), 0
    counts = np.broadcast_to(counts, (x.shape[int(axis)],)) if counts.ndim == 0 or \
        counts.size == 1 else counts
    index = np.repeat(np.arange(x.shape[int(axis)]), counts)
    return _ret(ug.index_select(x, int(axis), ug.tensor(index.astype(np.int64))), x)


def reverse(tensor, axis, name: str | None = None) -> Tensor:
    """``tensor`` with the order along each of ``axis`` (a list of ints) reversed.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.reverse(tf.constant([[1, 2], [3, 4]]), [1]).numpy()
        array([[2, 1],
               [4, 3]], dtype=int32)
    """
    x = operand(tensor, "tensor")
    axes = _axis(axis)
    axes = (axes,) if isinstance(axes, int) else axes
    if len(set(a % max(x.ndim, 1) for a in axes)) != len(axes):
        raise InvalidArgumentError(None, None, f"axis {list(axes)} specified more than once.")
    return _ret(ug.flip(x, axes) if axes else x, x)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None,
                     name: str | None = None) -> Tensor:
    """For each batch entry ``i`` (along ``batch_axis``, default 0), the first
    ``seq_lengths[i]`` entries along ``seq_axis`` reversed; the rest kept.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.reverse_sequence(tf.constant([[1, 2, 3], [4, 5, 6]]), [2, 3], seq_axis=1).numpy()
        array([[2, 1, 3],
               [6, 5, 4]], dtype=int32)
    """
    x = operand(input, "input")
    lengths = _index_tensor(seq_lengths, "seq_lengths")
    seq_axis = int(seq_axis) % x.ndim
    batch_axis = int(0 if batch_axis is None else batch_axis) % x.ndim
    size = x.shape[seq_axis]
    known = known_array(lengths)
    if tuple(lengths.shape) != (x.shape[batch_axis],) or (known is not None
                                                          and (known > size).any()):
        raise InvalidArgumentError(None, None, f"seq_lengths must have one length <= {size} per "
                                   f"batch entry, got {lengths!r}")
    positions = ug.arange(size, dtype=lengths.dtype)
    counts = ug.unsqueeze(lengths, 1)
    source = ug.where(positions < counts, counts - 1 - positions, positions)  # [batch, seq]
    if batch_axis > seq_axis:
        source = ug.transpose(source, 0, 1)
    shape = [1] * x.ndim
    shape[batch_axis], shape[seq_axis] = x.shape[batch_axis], size
    index = ug.broadcast_to(ug.reshape(source, tuple(shape)), tuple(x.shape))
    return _ret(ug.gather(x, seq_axis, ug.cast(index, ug.int64)), x)


def sequence_mask(lengths, maxlen=None, dtype=_TF_BOOL, name: str | None = None) -> Tensor:
    """``mask[..., j] = j < lengths[...]`` with ``maxlen`` (default ``max(lengths)``)
    columns, as ``dtype``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.sequence_mask([1, 3], 4).numpy()
        array([[ True, False, False, False],
               [ True,  True,  True, False]])
    """
    counts = operand(lengths, "lengths")
    if maxlen is None:
        width = int(host_array(counts).max(initial=0))
    else:
        width = int(host_array(maxlen) if isinstance(maxlen, _UgTensor) else maxlen)
    mask = ug.arange(width, dtype=counts.dtype) < ug.unsqueeze(counts, -1)
    return as_tf(ug.cast(mask, as_dtype(dtype)))


def slice(input_, begin, size, name: str | None = None) -> Tensor:  # noqa: A001
    """The block of ``input_`` starting at ``begin`` with ``size`` entries per axis (-1: to
    the end).

    Raises:
        InvalidArgumentError: When the block does not fit.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.slice(tf.reshape(tf.range(9), (3, 3)), [1, 0], [2, -1]).numpy()
        array([[3, 4, 5],
               [6, 7, 8]], dtype=int32)
    """
    x = operand(input_, "input_")
    starts = _host_ints(begin, "begin").reshape(-1).tolist()
    sizes = _host_ints(size, "size").reshape(-1).tolist()
    if len(starts) != x.ndim or len(sizes) != x.ndim:
        raise InvalidArgumentError(None, None, f"Expected begin and size arguments to be 1-D "
                                   f"tensors of size {x.ndim}, but got shapes "
                                   f"[{len(starts)}] and [{len(sizes)}] instead.")
    result = x
    for axis, (start, count) in enumerate(zip(starts, sizes)):
        count = x.shape[axis] - start if count == -1 else count
        if start < 0 or count < 0 or start + count > x.shape[axis]:
            raise InvalidArgumentError(None, None, f"Expected size[{axis}] in [0, "
                                       f"{x.shape[axis] - start}], but got {count}")
        result = ug.narrow(result, axis, start, count)
    return _ret(result, x)


def _strided_key(begin: list, end: list, strides: list, begin_mask: int, end_mask: int,
                 ellipsis_mask: int, new_axis_mask: int, shrink_axis_mask: int) -> tuple:
    """The NumPy index that ``strided_slice``'s arguments and bit masks spell."""
    key = []
    for i, (start, stop, step) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            key.append(Ellipsis)
        elif new_axis_mask & bit:
            key.append(None)
        elif shrink_axis_mask & bit:
            key.append(start)
        else:
            key.append(builtins.slice(None if begin_mask & bit else start,
                                      None if end_mask & bit else stop, step))
    return tuple(key)


def strided_slice(input_, begin, end, strides=None, begin_mask: int = 0, end_mask: int = 0,
                  ellipsis_mask: int = 0, new_axis_mask: int = 0, shrink_axis_mask: int = 0,
                  var=None, name: str | None = None) -> Tensor:
    """``input_[begin:end:strides]`` per axis, with TensorFlow's bit masks: bit ``i`` of
    ``begin_mask``/``end_mask`` ignores ``begin[i]``/``end[i]``, of ``ellipsis_mask`` makes
    entry ``i`` an ellipsis, of ``new_axis_mask`` a new axis, of ``shrink_axis_mask`` an
    index (the axis is removed).

    Raises:
        ValueError: When ``begin``, ``end`` and ``strides`` differ in length, or a stride
            is 0.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.reshape(tf.range(12), (3, 4))
        >>> tf.strided_slice(x, [0, 3], [3, 0], [2, -1], shrink_axis_mask=0).numpy()
        array([[ 3,  2,  1],
               [11, 10,  9]], dtype=int32)
    """
    x = operand(input_, "input_")
    starts = _host_ints(begin, "begin").reshape(-1).tolist()
    stops = _host_ints(end, "end").reshape(-1).tolist()
    steps = [1] * len(starts) if strides is None else \
        _host_ints(strides, "strides").reshape(-1).tolist()
    if not len(starts) == len(stops) == len(steps):
        raise ValueError(f"begin, end and strides must have the same length, got "
                         f"{len(starts)}, {len(stops)} and {len(steps)}")
    if 0 in steps:
        raise ValueError("strides entries must be non-zero")
    key = _strided_key(starts, stops, steps, int(begin_mask), int(end_mask),
                       int(ellipsis_mask), int(new_axis_mask), int(shrink_axis_mask))
    return _ret(x[key], x)


def split(value, num_or_size_splits, axis=0, num=None, name: str = "split") -> list:
    """``value`` cut along ``axis`` into ``num_or_size_splits`` equal parts, or parts of the
    given sizes (one may be -1: the rest).

    Raises:
        InvalidArgumentError: When the sizes do not add up or do not divide the axis.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> [t.numpy() for t in tf.split(tf.range(4), 2)]
        [array([0, 1], dtype=int32), array([2, 3], dtype=int32)]
    """
    x = operand(value, "value")
    axis = int(axis.item() if isinstance(axis, _UgTensor) else axis)
    total = x.shape[axis]
    if isinstance(num_or_size_splits, (int, np.integer)) or (
            isinstance(num_or_size_splits, _UgTensor) and num_or_size_splits.ndim == 0):
        parts = int(num_or_size_splits)
        if parts <= 0 or total % parts:
            raise InvalidArgumentError(None, None, f"Number of ways to split should evenly "
                                       f"divide the split dimension, but got split_dim {axis} "
                                       f"(size = {total}) and num_split {parts}")
        sizes = [total // parts] * parts
    else:
        sizes = _host_ints(num_or_size_splits, "num_or_size_splits").reshape(-1).tolist()
        if sizes.count(-1) == 1:
            sizes[sizes.index(-1)] = total - (sum(sizes) + 1)
        if sum(sizes) != total or any(s < 0 for s in sizes):
            raise InvalidArgumentError(None, None, f"Determined shape must either match input "
                                       f"shape along split_dim exactly if fully specified, or "
                                       f"be less than the size of the input along split_dim "
                                       f"if not fully specified.  Got: {sum(sizes)}")
    pieces, start = [], 0
    for size in sizes:
        pieces.append(as_tf(ug.narrow(x, axis, start, size)))
        start += size
    return pieces


def shape_n(input, out_type=_TF_INT32, name: str | None = None) -> list:
    """The shapes of a list of tensors, each an ``out_type`` vector.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> [s.numpy() for s in tf.shape_n([tf.zeros((2, 3)), tf.zeros(())])]
        [array([2, 3], dtype=int32), array([], dtype=int32)]
    """
    target = as_dtype(out_type)
    return [constant(list(operand(t, "input").shape), dtype=target) for t in input]


def identity_n(input, name: str | None = None) -> list:
    """A list of tensors passed through (differentiably), as :func:`tf.identity`.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> [t.numpy() for t in tf.identity_n([tf.constant(1), tf.constant([2.0])])]
        [np.int32(1), array([2.], dtype=float32)]
    """
    return [_ret(ug.clone(t), t) for t in (operand(t, "input") for t in input)]


def ensure_shape(x, shape, name: str | None = None) -> Tensor:
    """``x`` unchanged when its shape matches ``shape`` (None: any size).

    Raises:
        InvalidArgumentError: When it does not.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.ensure_shape(tf.zeros((2, 3)), (None, 3)).shape
        TensorShape([2, 3])
    """
    tensor = operand(x, "x")
    expected = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    if not expected.is_compatible_with(TensorShape(tuple(tensor.shape))):
        raise InvalidArgumentError(None, None, f"Shape of tensor x {list(tensor.shape)} is not "
                                   f"compatible with expected shape {expected}.")
    return _ret(ug.clone(tensor), tensor)


def gather_nd(params, indices, batch_dims: int = 0, name: str | None = None,
              bad_indices_policy: str = "") -> Tensor:
    """The slices of ``params`` at ``indices[..., :k]`` (``k = indices.shape[-1]``): shape
    ``indices.shape[:-1] + params.shape[k:]``; only ``batch_dims=0``.

    Raises:
        InvalidArgumentError: For an index out of range.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.gather_nd(tf.constant([[1, 2], [3, 4]]), [[1, 0], [0, 1]]).numpy()
        array([3, 2], dtype=int32)
    """
    x = operand(params, "params")
    index = _index_tensor(indices, "indices")
    if int(batch_dims) != 0:
        raise NotImplementedError("tf.gather_nd: only batch_dims=0 is supported")
    depth = index.shape[-1]
    limits = tuple(x.shape[:depth])
    known = known_array(index)
    if depth > x.ndim or (known is not None and ((known < 0) | (known >= limits)).any()):
        shown = "" if known is None else known.tolist()
        raise InvalidArgumentError(None, None, f"indices{shown} does not index into param "
                                   f"shape {list(x.shape)}")
    strides = np.cumprod((1,) + limits[:0:-1])[::-1].astype(np.int64)
    flat = ug.sum(ug.cast(index, ug.int64) * ug.tensor(strides), -1) if depth else \
        ug.zeros(tuple(index.shape[:-1]), dtype=ug.int64)
    rows = ug.reshape(x, (int(np.prod(limits)),) + tuple(x.shape[depth:]))
    picked = ug.index_select(rows, 0, ug.reshape(flat, (-1,)))
    return _ret(ug.reshape(picked, tuple(index.shape[:-1]) + tuple(x.shape[depth:])), x)


def scatter_nd(indices, updates, shape, name: str | None = None,
               bad_indices_policy: str = "") -> Tensor:
    """A zero tensor of ``shape`` with ``updates`` added at ``indices`` (repeats
    accumulate).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.scatter_nd([[1], [3], [1]], tf.constant([1.0, 2.0, 3.0]), [4]).numpy()
        array([0., 4., 0., 2.], dtype=float32)
    """
    values = operand(updates, "updates")
    index = indices if isinstance(indices, _UgTensor) else constant(indices)
    zeros = ug.zeros(_shape_arg(shape, "shape"), dtype=values.dtype)
    return _ret(scatter_nd_into(zeros, index, values, "add", owner="scatter_nd"), values)


def dynamic_partition(data, partitions, num_partitions: int, name: str | None = None) -> list:
    """``num_partitions`` tensors: part ``i`` holds the slices of ``data`` whose partition
    (``partitions``, shaped like a prefix of ``data``) is ``i``, in order.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> parts = tf.dynamic_partition(tf.constant([10, 20, 30]), [1, 0, 1], 2)
        >>> [part.numpy().tolist() for part in parts]
        [[20], [10, 30]]
    """
    x = operand(data, "data")
    groups = _host_ints(partitions, "partitions")
    if tuple(x.shape[:groups.ndim]) != groups.shape:
        raise ValueError(f"partitions.shape {list(groups.shape)} must be a prefix of "
                         f"data.shape {list(x.shape)}")
    flat = groups.reshape(-1)
    if flat.size and (flat.min() < 0 or flat.max() >= int(num_partitions)):
        raise InvalidArgumentError(None, None, f"partitions must be in [0, {num_partitions})")
    rows = ug.reshape(x, (flat.size,) + tuple(x.shape[groups.ndim:]))
    return [as_tf(ug.index_select(rows, 0, ug.tensor(np.flatnonzero(flat == part))))
            for part in range(int(num_partitions))]


def dynamic_stitch(indices, data, name: str | None = None) -> Tensor:
    """Interleave the ``data`` tensors: ``merged[indices[m][i]] = data[m][i]`` (a later
    duplicate wins), ``max(index) + 1`` rows. As in TensorFlow, every ``data[m][i]`` gets the
    gradient of its row, overwritten or not.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.dynamic_stitch([[0, 2], [1]], [tf.constant([1.0, 3.0]), tf.constant([2.0])]).numpy()
        array([1., 2., 3.], dtype=float32)
    """
    parts = [operand(d, "data") for d in data]
    positions = [_host_ints(i, "indices") for i in indices]
    if len(parts) != len(positions):
        raise ValueError("indices and data must be lists of the same length")
    tail = tuple(parts[0].shape[positions[0].ndim:])
    flat_index = np.concatenate([p.reshape(-1) for p in positions]).astype(np.int64)
    rows = ug.cat([ug.reshape(d, (p.size,) + tail) for d, p in zip(parts, positions)], 0)
    count = int(flat_index.max(initial=-1)) + 1
    winner = np.full(count, -1, np.int64)
    winner[flat_index] = np.arange(flat_index.size)
    if (winner < 0).any():
        raise InvalidArgumentError(None, None, "Missing indices in dynamic_stitch")
    merged = ug.index_select(rows, 0, ug.tensor(winner))
    index = ug.tensor(flat_index)
    spread = ug.index_add(ug.zeros((count,) + tail, dtype=rows.dtype), 0, index, rows)
    return _ret(merged.detach() + (spread - spread.detach()) if rows.requires_grad else merged,
                *parts)


UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def unique_with_counts(x, out_idx=_TF_INT32, name: str | None = None) -> UniqueWithCounts:
    """:func:`tf.unique <unique>` with the number of occurrences of each distinct value.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> y, idx, count = tf.unique_with_counts([1, 1, 2, 4, 4, 4])
        >>> y.numpy(), count.numpy()
        (array([1, 2, 4], dtype=int32), array([2, 1, 3], dtype=int32))
    """
    values, positions = unique(x, out_idx=out_idx)
    counts = np.bincount(host_array(positions), minlength=values.shape[0])
    return UniqueWithCounts(values, positions, constant(counts, dtype=as_dtype(out_idx)))


def is_tensor(x) -> bool:
    """Whether ``x`` is a tensor or a Variable (not a NumPy array or Python value).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.is_tensor(tf.constant(1)), tf.is_tensor(1.0)
        (True, False)
    """
    return isinstance(x, (_UgTensor, Variable))


def get_static_value(tensor, partial: bool = False):
    """The value of a tensor as a NumPy array, or None inside ``tf.function`` for a value only
    known at each call; non-tensors are returned unchanged.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.get_static_value(tf.constant([1, 2]))
        array([1, 2], dtype=int32)
    """
    if isinstance(tensor, _UgTensor):
        value = known_array(tensor)
        return None if value is None else (value[()] if value.ndim == 0 else value.copy())
    return tensor


def no_op(name: str | None = None) -> None:
    """Does nothing (TensorFlow's control-dependency placeholder; eager: returns None).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.no_op() is None
        True
    """
    return None
