"""TensorFlow's statistics and normalization layers-as-functions: ``tf.nn.moments``,
``sufficient_statistics``, ``normalize_moments``, ``weighted_moments``,
``batch_normalization``, ``batch_norm_with_global_normalization``,
``local_response_normalization`` (``lrn``), and the small ops ``bias_add``, ``dropout``,
``embedding_lookup``, ``crelu`` and ``selu``, as composites of unigrad's differentiable ops.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> mean, variance = tf.nn.moments(tf.constant([[1.0, 2.0], [3.0, 6.0]]), axes=[0])
    >>> mean.numpy(), variance.numpy()
    (array([2., 4.], dtype=float32), array([1., 4.], dtype=float32))
"""

from __future__ import annotations

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F
from unigrad.tensor import Tensor as _UgTensor

from . import random
from ._host import known_array
from ._tensor import Tensor, as_tf, constant, operand
from .errors import InvalidArgumentError
from .math import _axis, _pair, _ret

__all__ = ["batch_norm_with_global_normalization", "moments", "sufficient_statistics",
           "normalize_moments", "weighted_moments", "batch_normalization",
           "local_response_normalization", "lrn", "bias_add", "dropout", "embedding_lookup",
           "crelu", "selu"]


def _axes(axes, name: str = "axes") -> tuple:
    axes = _axis(axes)
    if axes is None:
        raise TypeError(f"{name} must be an int or a list of ints, got None")
    return (axes,) if isinstance(axes, int) else axes


def moments(x, axes, shift=None, keepdims: bool = False, name: str | None = None) -> tuple:
    """The mean and (population) variance of ``x`` over ``axes``; ``shift`` is unused, as in
    TensorFlow 2. float16 inputs are computed in float32 and cast back.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> [t.numpy() for t in tf.nn.moments(tf.constant([1.0, 2.0, 6.0]), axes=[0])]
        [np.float32(3.0), np.float32(4.6666665)]
    """
    x = operand(x, "x")
    axes = _axes(axes)
    work = x.to(ug.float32) if x.dtype == ug.float16 else x
    mean = ug.mean(work, dim=axes, keepdim=True)
    variance = ug.mean(ug.square(work - mean.detach()), dim=axes, keepdim=True)
    if not keepdims:
        mean, variance = ug.squeeze(mean, axes), ug.squeeze(variance, axes)
    return as_tf(mean.to(x.dtype)), as_tf(variance.to(x.dtype))


def sufficient_statistics(x, axes, shift=None, keepdims: bool = False,
                          name: str | None = None) -> tuple:
    """``(count, sum(x - shift), sum((x - shift) ** 2), shift)`` over ``axes``: the inputs
    of :func:`normalize_moments` (``shift`` None: no shift, returned as None).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> count, total, squares, shift = tf.nn.sufficient_statistics(
        ...     tf.constant([1.0, 2.0, 3.0]), axes=[0])
        >>> count.numpy(), total.numpy(), squares.numpy(), shift
        (np.float32(3.0), np.float32(6.0), np.float32(14.0), None)
    """
    x = operand(x, "x")
    axes = _axes(axes)
    count = float(np.prod([x.shape[axis] for axis in axes]))
    centred = x if shift is None else x - _pair(x, shift)[1]
    total = ug.sum(centred, dim=axes, keepdim=bool(keepdims))
    squares = ug.sum(ug.square(centred), dim=axes, keepdim=bool(keepdims))
    shift_out = None if shift is None else as_tf(ug.clone(_pair(x, shift)[1]))
    return constant(count, dtype=x.dtype), as_tf(total), as_tf(squares), shift_out


def normalize_moments(counts, mean_ss, variance_ss, shift, name: str | None = None) -> tuple:
    """The mean and variance from :func:`sufficient_statistics`' sums.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> mean, variance = tf.nn.normalize_moments(3.0, tf.constant(6.0), 14.0, None)
        >>> float(mean), round(float(variance), 4)
        (2.0, 0.6667)
    """
    mean_ss = operand(mean_ss, "mean_ss")
    divisor = ug.reciprocal(_pair(mean_ss, counts)[1])
    shifted_mean = mean_ss * divisor
    mean = shifted_mean if shift is None else shifted_mean + _pair(mean_ss, shift)[1]
    variance = _pair(mean_ss, variance_ss)[1] * divisor - ug.square(shifted_mean)
    return as_tf(mean), as_tf(variance)


def weighted_moments(x, axes, frequency_weights, keepdims: bool = False,
                     name: str | None = None) -> tuple:
    """The ``frequency_weights``-weighted mean and variance of ``x`` over ``axes`` (0 where
    the weights sum to 0).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> mean, variance = tf.nn.weighted_moments(tf.constant([1.0, 3.0]), [0], [3.0, 1.0])
        >>> mean.numpy(), variance.numpy()
        (np.float32(1.5), np.float32(0.75))
    """
    x, weights = _pair(x, frequency_weights)
    axes = _axes(axes)
    weights = weights + ug.zeros_like(x)
    total_weight = ug.sum(weights, dim=axes, keepdim=True)
    safe = ug.where(total_weight == 0, ug.ones_like(total_weight), total_weight)
    mean = ug.sum(weights * x, dim=axes, keepdim=True) / safe
    variance = ug.sum(weights * ug.square(x - mean), dim=axes, keepdim=True) / safe
    zero = total_weight == 0
    mean = ug.where(zero, ug.zeros_like(mean), mean)
    variance = ug.where(zero, ug.zeros_like(variance), variance)
    if not keepdims:
        mean, variance = ug.squeeze(mean, axes), ug.squeeze(variance, axes)
    return as_tf(mean), as_tf(variance)


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon,
                        name: str | None = None) -> Tensor:
    """``scale * (x - mean) / sqrt(variance + variance_epsilon) + offset`` (``offset`` and
    ``scale`` may be None).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.batch_normalization(tf.constant([1.0, 3.0]), 2.0, 1.0, None, None, 0.0).numpy()
        array([-1.,  1.], dtype=float32)
    """
    x = operand(x, "x")
    mean, variance = _pair(x, mean)[1], _pair(x, variance)[1]
    inverse = ug.rsqrt(variance + variance_epsilon)
    if scale is not None:
        inverse = inverse * _pair(x, scale)[1]
    shift = -mean * inverse
    if offset is not None:
        shift = shift + _pair(x, offset)[1]
    return _ret(x * inverse + shift, x)


def batch_norm_with_global_normalization(input, mean, variance, beta, gamma,
                                         variance_epsilon, scale_after_normalization,
                                         name: str | None = None) -> Tensor:
    """:func:`batch_normalization` with offset ``beta`` and, when
    ``scale_after_normalization``, scale ``gamma`` (TensorFlow 1's argument order).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> mean, variance, beta, gamma = (tf.constant(v) for v in (2.0, 1.0, 0.5, 2.0))
        >>> tf.nn.batch_norm_with_global_normalization(tf.constant([1.0, 3.0]), mean, variance,
        ...                                            beta, gamma, 0.0, True).numpy()
        array([-1.5,  2.5], dtype=float32)
    """
    return batch_normalization(input, mean, variance, beta,
                               gamma if scale_after_normalization else None, variance_epsilon)


def local_response_normalization(input, depth_radius: int = 5, bias: float = 1,
                                 alpha: float = 1, beta: float = 0.5,
                                 name: str | None = None) -> Tensor:
    """``input / (bias + alpha * sqr_sum) ** beta`` with ``sqr_sum`` the sum of squares over
    the ``2 * depth_radius + 1`` nearest channels (last axis) of a 4-D ``input``.

    Raises:
        InvalidArgumentError: When ``input`` is not 4-D.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.local_response_normalization(tf.ones((1, 1, 1, 3)), depth_radius=1).numpy()
        array([[[[0.57735026, 0.5       , 0.57735026]]]], dtype=float32)
    """
    x = operand(input, "input")
    if x.ndim != 4:
        raise InvalidArgumentError(None, None, f"input must be 4-dimensional, got shape "
                                   f"{list(x.shape)}")
    radius = int(depth_radius)
    squares = ug.square(x)
    padded = F.pad(squares, (radius, radius))
    channels = x.shape[-1]
    window = sum(ug.narrow(padded, -1, offset, channels) for offset in range(2 * radius + 1))
    return _ret(x * ug.pow(bias + alpha * window, -beta), x)


lrn = local_response_normalization


def bias_add(value, bias, data_format=None, name: str | None = None) -> Tensor:
    """``value + bias`` along the channel axis: the last (``N...C``) or axis 1 (``NC...``).

    Raises:
        ValueError: When ``bias`` is not 1-D or its size is not the channel count.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.bias_add(tf.zeros((1, 2)), [1.0, 2.0]).numpy()
        array([[1., 2.]], dtype=float32)
    """
    value, bias = _pair(value, bias)
    if bias.ndim != 1:
        raise ValueError(f"bias must be 1-D, got shape {tuple(bias.shape)}")
    if value.ndim < 2:
        raise ValueError(f"value must be at least 2-D, got shape {tuple(value.shape)}")
    channels_first = data_format is not None and str(data_format).startswith("NC")
    axis = 1 if channels_first else -1
    if value.shape[axis] != bias.shape[0]:
        raise ValueError(f"Dimensions must be equal, but are {value.shape[axis]} and "
                         f"{bias.shape[0]} for bias_add")
    shape = [1] * value.ndim
    shape[axis] = bias.shape[0]
    return _ret(value + ug.reshape(bias, tuple(shape)), value, bias)


def dropout(x, rate, noise_shape=None, seed=None, name: str | None = None) -> Tensor:
    """Zero each entry with probability ``rate`` and scale the kept ones by
    ``1 / (1 - rate)`` (``noise_shape`` broadcasts one draw over axes of size 1).

    Raises:
        ValueError: For a ``rate`` outside ``[0, 1)`` or a non-floating ``x``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.dropout(tf.ones((4,)), rate=0.0).numpy()
        array([1., 1., 1., 1.], dtype=float32)
    """
    x = operand(x, "x")
    if x.dtype.kind != "f":
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. "
                         f"Received: x_dtype={x.dtype}")
    rate = float(rate)
    if not 0 <= rate < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). "
                         f"Received: rate={rate}")
    shape = tuple(x.shape) if noise_shape is None else tuple(int(n) for n in noise_shape)
    keep = random.uniform(shape, seed=seed, dtype=x.dtype) >= rate
    return _ret(ug.where(keep, x / (1 - rate), ug.zeros_like(x)), x)


def embedding_lookup(params, ids, max_norm=None, name: str | None = None) -> Tensor:
    """The rows of ``params`` at ``ids`` (any shape); with ``max_norm``, rows whose L2 norm
    exceeds it are scaled down to it.

    Raises:
        InvalidArgumentError: For an id outside ``[0, len(params))``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.embedding_lookup(tf.constant([[1.0, 2.0], [3.0, 4.0]]), [[1], [0]]).numpy()
        array([[[3., 4.]],
        <BLANKLINE>
               [[1., 2.]]], dtype=float32)
    """
    table = operand(params[0] if isinstance(params, (list, tuple)) and len(params) == 1
                    else params, "params")
    index = ids if isinstance(ids, _UgTensor) else constant(ids)
    known = known_array(index)  # checked when known (not while tf.function traces)
    if known is not None and known.size and (known.min() < 0 or known.max() >= table.shape[0]):
        bad = known[(known < 0) | (known >= table.shape[0])][0]
        raise InvalidArgumentError(None, None, f"indices[{int(np.argmax(known == bad))}] = "
                                   f"{bad} is not in [0, {table.shape[0]})")
    rows = ug.index_select(table, 0, ug.reshape(ug.cast(index, ug.int64), (-1,)))
    if max_norm is not None:
        norms = ug.sqrt(ug.sum(ug.square(rows), dim=tuple(range(1, rows.ndim)), keepdim=True))
        rows = rows * ug.where(norms > max_norm, max_norm / norms, ug.ones_like(norms))
    return _ret(ug.reshape(rows, tuple(index.shape) + tuple(table.shape[1:])), table)


def crelu(features, axis: int = -1, name: str | None = None) -> Tensor:
    """``concat([relu(features), relu(-features)], axis)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.crelu(tf.constant([1.0, -2.0])).numpy()
        array([1., 0., 0., 2.], dtype=float32)
    """
    x = operand(features, "features")
    return _ret(ug.cat([ug.relu(x), ug.relu(-x)], int(axis)), x)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(features, name: str | None = None) -> Tensor:
    """The scaled exponential linear unit (``scale * elu(features, alpha)`` with SELU's
    constants); at 0 the gradient is ``scale``, as in TensorFlow.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.selu(tf.constant([1.0])).numpy()
        array([1.050701], dtype=float32)
    """
    x = operand(features, "features")
    negative = _SELU_SCALE * _SELU_ALPHA * ug.expm1(ug.minimum(x, ug.zeros_like(x)))
    return _ret(ug.where(x < 0, negative, _SELU_SCALE * x), x)
