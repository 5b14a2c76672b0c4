"""TensorFlow's further reductions and scans: ``tf.math.reduce_euclidean_norm``,
``count_nonzero``, ``zero_fraction``, ``cumprod``, ``cumulative_logsumexp``,
``is_non_decreasing``, ``is_strictly_increasing``, ``l2_normalize``, ``in_top_k``,
``confusion_matrix``, ``invert_permutation``, ``approx_max_k`` / ``approx_min_k`` and
``tf.histogram_fixed_width_bins``, as composites of unigrad's ops.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.math.reduce_euclidean_norm(tf.constant([[3.0, 4.0], [6.0, 8.0]]), axis=1).numpy()
    array([ 5., 10.], dtype=float32)
    >>> tf.math.cumprod(tf.constant([1.0, 2.0, 3.0]), exclusive=True).numpy()
    array([1., 1., 2.], dtype=float32)
"""

from __future__ import annotations

import collections
from collections.abc import Callable

import numpy as np

import unigrad as ug
from unigrad.tensor import Tensor as _UgTensor

from ._dtypes import as_dtype
from ._host import host_array, known_array
from ._tensor import Tensor, as_tf, constant, operand
from .errors import InvalidArgumentError
from .math import _axis, _ret

# TensorFlow's dtypes as argument defaults
_TF_INT32 = as_dtype("int32")
_TF_INT64 = as_dtype("int64")

__all__ = ["reduce_euclidean_norm", "count_nonzero", "zero_fraction", "cumprod",
           "cumulative_logsumexp", "is_non_decreasing", "is_strictly_increasing", "l2_normalize",
           "in_top_k", "confusion_matrix", "invert_permutation", "histogram_fixed_width_bins",
           "approx_max_k", "approx_min_k"]


def reduce_euclidean_norm(input_tensor, axis=None, keepdims: bool = False,
                          name: str | None = None) -> Tensor:
    """``sqrt(sum(x ** 2))`` over ``axis`` (all axes when None); integers keep their dtype
    (the root truncated), as in TensorFlow.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.reduce_euclidean_norm(tf.constant([1, 2, 3])).numpy()
        np.int32(3)
    """
    x = operand(input_tensor, "input_tensor")
    axis = _axis(axis)
    squares = ug.real(x * ug.conj(x)) if x.is_complex() else x * x
    if x.dtype.kind in "biu":
        total = ug.sum(squares.to(ug.float64), dim=axis, keepdim=bool(keepdims))
        return _ret(ug.trunc(ug.sqrt(total)).to(x.dtype), x)
    norm = ug.sqrt(ug.sum(squares, dim=axis, keepdim=bool(keepdims)))
    return _ret(norm.to(x.dtype) if x.is_complex() else norm, x)


def count_nonzero(input, axis=None, keepdims=None, dtype=_TF_INT64,
                  name: str | None = None) -> Tensor:
    """The number of non-zero entries over ``axis`` (all axes when None), as ``dtype``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.count_nonzero(tf.constant([[0, 1], [2, 0]]), axis=0).numpy()
        array([1, 1])
    """
    x = operand(input, "input")
    counts = ug.sum((x != 0).to(ug.int64), dim=_axis(axis), keepdim=bool(keepdims))
    return as_tf(ug.cast(counts, as_dtype(dtype)))


def zero_fraction(value, name: str | None = None) -> Tensor:
    """The fraction of entries of ``value`` that are zero, as float32.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.zero_fraction(tf.constant([0.0, 1.0, 0.0, 3.0])).numpy()
        np.float32(0.5)
    """
    x = operand(value, "value")
    return as_tf(ug.mean((x == 0).to(ug.float32)))


def _scan(op: Callable, x: _UgTensor, axis: int, exclusive: bool, reverse: bool,
          identity: float) -> _UgTensor:
    axis = int(axis)
    source = ug.flip(x, (axis,)) if reverse else x
    if exclusive:
        length = source.shape[axis]
        pad = ug.full_like(ug.narrow(source, axis, 0, 1), identity) if length else source
        source = ug.cat([pad, ug.narrow(source, axis, 0, max(length - 1, 0))], axis)
    result = op(source, axis)
    return ug.flip(result, (axis,)) if reverse else result


def cumprod(x, axis: int = 0, exclusive: bool = False, reverse: bool = False,
            name: str | None = None) -> Tensor:
    """The running product along ``axis``; ``exclusive`` leaves each entry out (the first is
    1), ``reverse`` runs from the end.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.cumprod(tf.constant([1.0, 2.0, 3.0]), reverse=True).numpy()
        array([6., 6., 3.], dtype=float32)
    """
    x = operand(x, "x")
    return _ret(_scan(ug.cumprod, x, axis, exclusive, reverse, 1).to(x.dtype), x)


def cumulative_logsumexp(x, axis: int = 0, exclusive: bool = False, reverse: bool = False,
                         name: str | None = None) -> Tensor:
    """The running ``log(sum(exp(x)))`` along ``axis`` (``exclusive``: the first is -inf).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0])).numpy()
        array([0.       , 0.6931472], dtype=float32)
    """
    x = operand(x, "x")
    return _ret(_scan(ug.logcumsumexp, x, axis, exclusive, reverse, -np.inf), x)


def _is_ordered(x, strict: bool) -> Tensor:
    flat = ug.reshape(operand(x, "x"), (-1,))
    if flat.shape[0] < 2:
        return constant(True)
    step = flat[1:] - flat[:-1] if flat.dtype != ug.bool_ else \
        flat[1:].to(ug.int8) - flat[:-1].to(ug.int8)
    return as_tf(ug.all(step > 0) if strict else ug.all(step >= 0))


def is_non_decreasing(x, name: str | None = None) -> Tensor:
    """Whether ``x`` (flattened in row-major order) never decreases.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.is_non_decreasing([1, 1, 2]).numpy()
        np.True_
    """
    return _is_ordered(x, strict=False)


def is_strictly_increasing(x, name: str | None = None) -> Tensor:
    """Whether ``x`` (flattened in row-major order) always increases.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.is_strictly_increasing([1, 1, 2]).numpy()
        np.False_
    """
    return _is_ordered(x, strict=True)


def l2_normalize(x, axis=None, epsilon: float = 1e-12, name: str | None = None,
                 dim=None) -> Tensor:
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))`` (all axes when ``axis`` is None).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.l2_normalize(tf.constant([3.0, 4.0])).numpy()
        array([0.6, 0.8], dtype=float32)
    """
    x = operand(x, "x")
    axis = _axis(dim if axis is None else axis)
    squares = ug.real(x * ug.conj(x)) if x.is_complex() else x * x
    total = ug.sum(squares, dim=axis, keepdim=True)
    return _ret(x * ug.rsqrt(ug.clamp(total, min=epsilon)), x)


def in_top_k(targets, predictions, k: int, name: str | None = None) -> Tensor:
    """Whether each ``targets[i]`` is among the ``k`` largest of ``predictions[i]`` (ties
    count as in; a row with a non-finite value gives False).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.in_top_k([0, 1], tf.constant([[0.1, 0.9], [0.8, 0.2]]), k=1).numpy()
        array([False, False])
    """
    scores = operand(predictions, "predictions").detach()
    labels = ug.cast(operand(targets, "targets"), ug.int64)
    if scores.ndim != 2 or tuple(labels.shape) != tuple(scores.shape[:1]):
        raise ValueError(f"predictions must be 2-D and targets 1-D with its number of rows, got "
                         f"{list(scores.shape)} and {list(labels.shape)}")
    valid = (labels >= 0) & (labels < scores.shape[1])
    clipped = ug.clamp(labels, min=0, max=scores.shape[1] - 1)
    target = ug.gather(scores, 1, ug.unsqueeze(clipped, 1))
    better = ug.sum((scores > target).to(ug.int64), dim=1)
    finite = ug.all(ug.isfinite(scores), dim=1)
    return as_tf(valid & finite & (better < int(k)))


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=_TF_INT32,
                     name: str | None = None) -> Tensor:
    """``[num_classes, num_classes]`` counts (or summed ``weights``) of each (label,
    prediction) pair; ``num_classes`` defaults to the largest value + 1.

    Raises:
        InvalidArgumentError: For negative labels or predictions, or ones not below
            ``num_classes``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.confusion_matrix([1, 2, 4], [2, 2, 4]).numpy()
        array([[0, 0, 0, 0, 0],
               [0, 0, 1, 0, 0],
               [0, 0, 1, 0, 0],
               [0, 0, 0, 0, 0],
               [0, 0, 0, 0, 1]], dtype=int32)
    """
    truth = ug.reshape(ug.cast(operand(labels, "labels"), ug.int64), (-1,))
    guess = ug.reshape(ug.cast(operand(predictions, "predictions"), ug.int64), (-1,))
    if tuple(truth.shape) != tuple(guess.shape):
        raise ValueError(f"labels and predictions must have the same shape, got "
                         f"{list(truth.shape)} and {list(guess.shape)}")
    known = [known_array(truth), known_array(guess)]  # checked when known
    if num_classes is None:  # the shape depends on the values
        known = [host_array(truth), host_array(guess)]
        count = int(max(known[0].max(initial=-1), known[1].max(initial=-1)) + 1)
    else:
        count = int(host_array(num_classes) if isinstance(num_classes, _UgTensor)
                    else num_classes)
    if any(values is not None and (values < 0).any() for values in known):
        raise InvalidArgumentError(None, None, "`labels` and `predictions` must be non-negative")
    if any(values is not None and (values >= count).any() for values in known):
        raise InvalidArgumentError(None, None, f"`labels` and `predictions` must be less than "
                                   f"num_classes {count}")
    target = as_dtype(dtype)
    values = ug.ones(tuple(truth.shape), dtype=target) if weights is None else \
        ug.reshape(ug.cast(operand(weights, "weights"), target), (-1,))
    flat = ug.zeros((count * count,), dtype=target)
    matrix = ug.index_add(flat, 0, truth * count + guess, values)
    return as_tf(ug.reshape(matrix, (count, count)))


def invert_permutation(x, name: str | None = None) -> Tensor:
    """The inverse permutation: ``y[x[i]] = i``.

    Raises:
        InvalidArgumentError: When ``x`` is not a permutation of ``0 .. n-1``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.invert_permutation([3, 4, 0, 2, 1]).numpy()
        array([2, 4, 3, 0, 1], dtype=int32)
    """
    tensor = operand(x, "x")
    if tensor.ndim != 1:
        raise ValueError(f"x must be a vector, got shape {list(tensor.shape)}")
    order = known_array(tensor)  # checked when known (not while tf.function traces)
    if order is not None:
        for value in order.tolist():
            if not 0 <= value < order.size:
                raise InvalidArgumentError(None, None, f"{value} is not between 0 and "
                                           f"{order.size}")
        values, counts = np.unique(order, return_counts=True)
        if (counts > 1).any():
            raise InvalidArgumentError(None, None, f"{values[counts > 1][0]} is duplicated in "
                                       f"the input.")
    positions = ug.arange(tensor.shape[0], dtype=tensor.dtype)
    inverse = ug.index_add(ug.zeros_like(positions), 0, ug.cast(tensor, ug.int64), positions)
    return as_tf(inverse.detach())


def histogram_fixed_width_bins(values, value_range, nbins: int = 100, dtype=_TF_INT32,
                               name: str | None = None) -> Tensor:
    """The bin (``0 .. nbins - 1``) of each of ``values`` among ``nbins`` equal bins over
    ``value_range``; values outside go to the first or last bin. The result is int32
    whatever ``dtype`` says, as in TensorFlow.

    Raises:
        InvalidArgumentError: For integer ``values`` or ``nbins < 1`` (as in TensorFlow).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.histogram_fixed_width_bins(tf.constant([-1.0, 0.0, 1.5, 5.0]), [0.0, 5.0], 5).numpy()
        array([0, 0, 1, 4], dtype=int32)
    """
    data = operand(values, "values").detach()
    if data.dtype.kind not in "f":  # TensorFlow's own composite fails for integers
        raise InvalidArgumentError(None, None, f"cannot compute Mul as input #1(zero-based) was "
                                   f"expected to be a {data.dtype.name} tensor but is a double "
                                   f"tensor")
    bounds = ug.cast(operand(value_range, "value_range").detach(), data.dtype)
    count = int(nbins)
    if count < 1:
        raise InvalidArgumentError(None, None, f"nbins {count} must > 0")
    scaled = (data - bounds[0]) / (bounds[1] - bounds[0])
    bins = ug.clamp(ug.floor(scaled * count), min=0, max=count - 1)
    return as_tf(ug.cast(bins, ug.int32))


ApproxTopK = collections.namedtuple("ApproxTopK", ["values", "indices"])


def _approx_k(operand_value, k: int, reduction_dimension: int, largest: bool) -> ApproxTopK:
    x = operand(operand_value, "operand")
    if x.dtype.name not in ("float16", "float32"):
        raise InvalidArgumentError(None, None, f"Value for attr 'T' of {x.dtype.name} is not in "
                                   f"the list of allowed values: half, bfloat16, float")
    axis = int(reduction_dimension)
    values, indices = ug.topk(x, int(k), dim=axis, largest=largest, sorted=True)
    return ApproxTopK(as_tf(values), as_tf(ug.cast(indices, as_dtype("int32"))))


def approx_max_k(operand, k: int, reduction_dimension: int = -1, recall_target: float = 0.95,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True,
                 name: str | None = None) -> ApproxTopK:
    """``(values, indices)`` of the ``k`` largest entries along ``reduction_dimension``,
    largest first (exact here: ``recall_target`` is met with recall 1).

    Raises:
        InvalidArgumentError: For an ``operand`` that is not float16 or float32.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.approx_max_k(tf.constant([[3.0, 1.0, 4.0]]), 2).indices.numpy()
        array([[2, 0]], dtype=int32)
    """
    return _approx_k(operand, k, reduction_dimension, largest=True)


def approx_min_k(operand, k: int, reduction_dimension: int = -1, recall_target: float = 0.95,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True,
                 name: str | None = None) -> ApproxTopK:
    """``(values, indices)`` of the ``k`` smallest entries along ``reduction_dimension``,
    smallest first (exact here).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.approx_min_k(tf.constant([[3.0, 1.0, 4.0]]), 2).values.numpy()
        array([[1., 3.]], dtype=float32)
    """
    return _approx_k(operand, k, reduction_dimension, largest=False)
