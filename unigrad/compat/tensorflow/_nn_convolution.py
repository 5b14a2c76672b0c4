"""TensorFlow's convolutions (``tf.nn.conv1d`` / ``conv2d`` / ``conv3d`` /
``convolution``, ``atrous_conv2d``, ``conv1d_transpose`` / ``conv2d_transpose`` /
``conv3d_transpose`` / ``conv_transpose`` / ``atrous_conv2d_transpose``,
``depthwise_conv2d``, ``separable_conv2d``) on unigrad's ``nn.functional`` ops.

Tensors are channels-last (``NWC``, ``NHWC``, ``NDHWC``) unless ``data_format`` starts with
``NC``; filters are ``[*window, in_channels, out_channels]``. ``padding`` is ``"VALID"``,
``"SAME"`` (TensorFlow's: output ``ceil(size / stride)``, the odd pixel of padding after)
or explicit ``[[before, after], ...]`` pairs for every axis. The pooling ops, which share
these helpers, are in ``_nn_pooling``.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> image = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
    >>> tf.nn.conv2d(image, tf.ones((2, 2, 1, 1)), strides=2, padding="SAME").shape
    TensorShape([1, 2, 2, 1])
"""

from __future__ import annotations

import math

import unigrad as ug
import unigrad.nn.functional as F
from unigrad.tensor import Tensor as _UgTensor

from ._tensor import Tensor, operand
from .errors import InvalidArgumentError
from .math import _ret

__all__ = ["conv1d", "conv2d", "conv3d", "convolution", "conv1d_transpose", "conv2d_transpose",
           "conv3d_transpose", "conv_transpose", "atrous_conv2d", "atrous_conv2d_transpose",
           "separable_conv2d", "depthwise_conv2d"]

_CONVOLVE = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_TRANSPOSED = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


def _channels_first(data_format) -> bool:
    return data_format is not None and str(data_format).startswith("NC")


def _per_axis(value, rank: int, name: str, channels_first: bool) -> tuple:
    """``strides``/``ksize``/``dilations``: an int, ``rank`` ints, or ``rank + 2`` ints whose
    batch and channel entries are 1."""
    if value is None:
        return (1,) * rank
    if isinstance(value, _UgTensor):
        value = value.tolist()
    if isinstance(value, int):
        return (value,) * rank
    values = tuple(int(v) for v in value)
    if len(values) == 1:
        return values * rank
    if len(values) == rank:
        return values
    if len(values) == rank + 2:
        return values[2:] if channels_first else values[1:-1]
    raise ValueError(f"{name} should be of length 1, {rank} or {rank + 2}. Received: "
                     f"{name}={list(values)} of length {len(values)}")


def _to_channels_first(x: _UgTensor, channels_first: bool) -> _UgTensor:
    if channels_first:
        return x
    return ug.permute(x, (0, x.ndim - 1, *range(1, x.ndim - 1)))


def _to_channels_last(x: _UgTensor, channels_first: bool) -> _UgTensor:
    if channels_first:
        return x
    return ug.permute(x, (0, *range(2, x.ndim), 1))


def _same_padding(size: int, window: int, stride: int, dilation: int) -> tuple:
    effective = (window - 1) * dilation + 1
    total = max((math.ceil(size / stride) - 1) * stride + effective - size, 0)
    return total // 2, total - total // 2


def _paddings(padding, sizes: tuple, windows: tuple, strides: tuple, dilations: tuple,
              channels_first: bool) -> list:
    """``[(before, after)]`` for each spatial axis."""
    if isinstance(padding, str):
        mode = padding.upper()
        if mode == "VALID":
            return [(0, 0)] * len(sizes)
        if mode == "SAME":
            return [_same_padding(*args) for args in zip(sizes, windows, strides, dilations)]
        raise InvalidArgumentError(None, None, f"Value for attr 'padding' of \"{padding}\" is "
                                   f"not in the list of allowed values: \"SAME\", \"VALID\", "
                                   f"\"EXPLICIT\"")
    pairs = [tuple(int(n) for n in pair) for pair in padding]
    if len(pairs) != len(sizes) + 2:
        raise ValueError(f"padding should have {len(sizes) + 2} pairs (one per axis), got "
                         f"{padding!r}")
    return pairs[2:] if channels_first else pairs[1:-1]


def _pad(x: _UgTensor, pairs: list, value: float = 0.0) -> _UgTensor:
    if not any(before or after for before, after in pairs):
        return x
    flat = [n for pair in reversed(pairs) for n in pair]
    return F.pad(x, tuple(flat), value=value)


def _check_rank(x: _UgTensor, rank: int, name: str) -> None:
    if x.ndim != rank + 2:
        raise ValueError(f"{name} must be {rank + 2}-D (batch, {rank} spatial axes, channels), "
                         f"got shape {tuple(x.shape)}")


def _convolve(input, filters, strides, padding, data_format, dilations, rank: int,
              groups_from_channels: bool = True) -> Tensor:
    x = operand(input, "input")
    kernel = operand(filters, "filters")
    _check_rank(x, rank, "input")
    if kernel.ndim != rank + 2:
        raise ValueError(f"filters must be {rank + 2}-D ([*window, in_channels, out_channels]), "
                         f"got shape {tuple(kernel.shape)}")
    first = _channels_first(data_format)
    strides = _per_axis(strides, rank, "strides", first)
    dilations = _per_axis(dilations, rank, "dilations", first)
    inputs = _to_channels_first(x, first)
    channels = inputs.shape[1]
    if channels % kernel.shape[-2]:
        raise ValueError(f"input depth {channels} must be a multiple of the filters' input "
                         f"depth {kernel.shape[-2]}")
    windows = tuple(kernel.shape[:rank])
    pairs = _paddings(padding, tuple(inputs.shape[2:]), windows, strides, dilations, first)
    weight = ug.permute(kernel, (rank + 1, rank, *range(rank)))
    result = _CONVOLVE[rank](_pad(inputs, pairs), weight, stride=strides, dilation=dilations,
                             groups=channels // kernel.shape[-2])
    return _ret(_to_channels_last(result, first), x, kernel)


def conv1d(input, filters, stride, padding, data_format: str = "NWC", dilations=None,
           name: str | None = None) -> Tensor:
    """The 1-D convolution of ``NWC`` ``input`` with ``[width, in, out]`` ``filters``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.conv1d(tf.ones((1, 4, 1)), tf.ones((3, 1, 1)), 1, "SAME")[0, :, 0].numpy()
        array([2., 3., 3., 2.], dtype=float32)
    """
    return _convolve(input, filters, stride, padding, data_format, dilations, 1)


def conv2d(input, filters, strides, padding, data_format: str = "NHWC", dilations=None,
           name: str | None = None) -> Tensor:
    """The 2-D convolution (cross-correlation) of ``NHWC`` ``input`` with
    ``[height, width, in, out]`` ``filters``; input depth a multiple of ``in`` groups it.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> y = tf.nn.conv2d(tf.ones((1, 3, 3, 1)), tf.ones((2, 2, 1, 1)), 1, "VALID")
        >>> y[0, :, :, 0].numpy()
        array([[4., 4.],
               [4., 4.]], dtype=float32)
    """
    return _convolve(input, filters, strides, padding, data_format, dilations, 2)


def conv3d(input, filters, strides, padding, data_format: str = "NDHWC", dilations=None,
           name: str | None = None) -> Tensor:
    """The 3-D convolution of ``NDHWC`` ``input`` with ``[depth, height, width, in, out]``
    ``filters``; ``strides`` (and ``dilations``) must be lists of 5, as in TensorFlow.

    Raises:
        TypeError: When ``strides`` is not a list.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x, w = tf.ones((1, 2, 3, 3, 1)), tf.ones((2, 2, 2, 1, 4))
        >>> tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "VALID").shape
        TensorShape([1, 1, 2, 2, 4])
    """
    if not isinstance(strides, (list, tuple)):
        raise TypeError(f"Expected list for 'strides' argument to 'conv3d' Op, not {strides!r}.")
    return _convolve(input, filters, strides, padding, data_format, dilations, 3)


def convolution(input, filters, strides=None, padding: str = "VALID", data_format=None,
                dilations=None, name: str | None = None) -> Tensor:
    """The N-D convolution (N = ``filters.ndim - 2``, 1 to 3) of ``input`` with ``filters``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.convolution(tf.ones((1, 3, 3, 1)), tf.ones((2, 2, 1, 1))).shape
        TensorShape([1, 2, 2, 1])
    """
    rank = operand(filters, "filters").ndim - 2
    if rank not in _CONVOLVE:
        raise ValueError(f"filters must be 3-D to 5-D, got rank {rank + 2}")
    return _convolve(input, filters, strides, padding, data_format, dilations, rank)


def _transpose_convolve(input, filters, output_shape, strides, padding, data_format,
                        dilations, rank: int) -> Tensor:
    x = operand(input, "input")
    kernel = operand(filters, "filters")
    _check_rank(x, rank, "input")
    first = _channels_first(data_format)
    strides = _per_axis(strides, rank, "strides", first)
    dilations = _per_axis(dilations, rank, "dilations", first)
    target = [int(n) for n in (output_shape.tolist() if isinstance(output_shape, _UgTensor)
                               else output_shape)]
    sizes = target[2:] if first else target[1:-1]
    windows = tuple(kernel.shape[:rank])
    if kernel.shape[-1] != (x.shape[1] if first else x.shape[-1]):
        raise ValueError(f"input depth {x.shape[1] if first else x.shape[-1]} must equal the "
                         f"filters' last dimension {kernel.shape[-1]}")
    pairs = _paddings(padding, tuple(sizes), windows, strides, dilations, first)
    weight = ug.permute(kernel, (rank + 1, rank, *range(rank)))
    full = _TRANSPOSED[rank](_to_channels_first(x, first), weight, stride=strides,
                             dilation=dilations)
    for axis, (size, (before, _)) in enumerate(zip(sizes, pairs), start=2):
        available = full.shape[axis] - before
        if available < size:
            grow = [(0, 0)] * (full.ndim - 2)
            grow[axis - 2] = (0, size - available)
            full = _pad(full, grow)
        full = ug.narrow(full, axis, before, size)
    return _ret(_to_channels_last(full, first), x, kernel)


def conv1d_transpose(input, filters, output_shape, strides, padding: str = "SAME",
                     data_format: str = "NWC", dilations=None, name: str | None = None) -> Tensor:
    """The transpose (gradient) of :func:`conv1d`: ``filters`` is ``[width, out, in]`` and the
    result has ``output_shape``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> y = tf.nn.conv1d_transpose(tf.ones((1, 2, 1)), tf.ones((2, 1, 1)), (1, 4, 1), 2)
        >>> y[0, :, 0].numpy()
        array([1., 1., 1., 1.], dtype=float32)
    """
    return _transpose_convolve(input, filters, output_shape, strides, padding, data_format,
                               dilations, 1)


def conv2d_transpose(input, filters, output_shape, strides, padding: str = "SAME",
                     data_format: str = "NHWC", dilations=None, name: str | None = None) -> Tensor:
    """The transpose (gradient) of :func:`conv2d`: ``filters`` is ``[height, width, out, in]``
    and the result has ``output_shape``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> y = tf.nn.conv2d_transpose(tf.ones((1, 2, 2, 1)), tf.ones((2, 2, 1, 1)),
        ...                            output_shape=(1, 4, 4, 1), strides=2)
        >>> y[0, :, :, 0].numpy()
        array([[1., 1., 1., 1.],
               [1., 1., 1., 1.],
               [1., 1., 1., 1.],
               [1., 1., 1., 1.]], dtype=float32)
    """
    return _transpose_convolve(input, filters, output_shape, strides, padding, data_format,
                               dilations, 2)


def conv3d_transpose(input, filters, output_shape, strides, padding: str = "SAME",
                     data_format: str = "NDHWC", dilations=None,
                     name: str | None = None) -> Tensor:
    """The transpose (gradient) of :func:`conv3d`: ``filters`` is
    ``[depth, height, width, out, in]`` and the result has ``output_shape``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x, w = tf.ones((1, 2, 2, 2, 1)), tf.ones((2, 2, 2, 3, 1))
        >>> tf.nn.conv3d_transpose(x, w, (1, 4, 4, 4, 3), 2).shape
        TensorShape([1, 4, 4, 4, 3])
    """
    return _transpose_convolve(input, filters, output_shape, strides, padding, data_format,
                               dilations, 3)


def conv_transpose(input, filters, output_shape, strides, padding: str = "SAME",
                   data_format=None, dilations=None, name: str | None = None) -> Tensor:
    """The N-D transposed convolution (N = ``len(output_shape) - 2``, 1 to 3).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x, w = tf.ones((1, 2, 2, 1)), tf.ones((2, 2, 1, 1))
        >>> tf.nn.conv_transpose(x, w, (1, 3, 3, 1), 1, "VALID")[0, :, :, 0].numpy()
        array([[1., 2., 1.],
               [2., 4., 2.],
               [1., 2., 1.]], dtype=float32)
    """
    rank = len(output_shape.tolist() if isinstance(output_shape, _UgTensor)
               else output_shape) - 2
    if rank not in _TRANSPOSED:
        raise ValueError(f"output_shape must have 3 to 5 entries, got {rank + 2}")
    return _transpose_convolve(input, filters, output_shape, strides, padding, data_format,
                               dilations, rank)


def atrous_conv2d(value, filters, rate: int, padding, name: str | None = None) -> Tensor:
    """:func:`conv2d` of ``NHWC`` ``value`` with stride 1 and the filters dilated by
    ``rate``.

    Raises:
        ValueError: For a ``rate`` below 1.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.atrous_conv2d(tf.ones((1, 5, 5, 1)), tf.ones((2, 2, 1, 1)), 2, "VALID").shape
        TensorShape([1, 3, 3, 1])
    """
    if int(rate) < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return _convolve(value, filters, 1, padding, None, int(rate), 2)


def atrous_conv2d_transpose(value, filters, output_shape, rate: int, padding,
                            name: str | None = None) -> Tensor:
    """The transpose of :func:`atrous_conv2d` (``filters``: ``[height, width, out, in]``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x, w = tf.ones((1, 3, 3, 1)), tf.ones((2, 2, 1, 1))
        >>> tf.nn.atrous_conv2d_transpose(x, w, (1, 5, 5, 1), 2, "VALID").shape
        TensorShape([1, 5, 5, 1])
    """
    if int(rate) < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return _transpose_convolve(value, filters, output_shape, 1, padding, None, int(rate), 2)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,
                     data_format=None, dilations=None, name: str | None = None) -> Tensor:
    """:func:`depthwise_conv2d` followed by a 1x1 :func:`conv2d` with ``pointwise_filter``
    (``[1, 1, in * multiplier, out]``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> depthwise, pointwise = tf.ones((2, 2, 2, 1)), tf.ones((1, 1, 2, 4))
        >>> tf.nn.separable_conv2d(tf.ones((1, 3, 3, 2)), depthwise, pointwise, [1, 1, 1, 1],
        ...                        "VALID").shape
        TensorShape([1, 2, 2, 4])
    """
    depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format,
                                 dilations)
    return conv2d(depthwise, pointwise_filter, 1, "VALID", data_format or "NHWC")


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None,
                     name: str | None = None) -> Tensor:
    """Each input channel convolved with its own ``channel_multiplier`` filters
    (``filter``: ``[height, width, in, multiplier]``); ``in * multiplier`` output channels.

    Raises:
        ValueError: When ``strides`` is not 4 entries or the channel counts disagree.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x, w = tf.ones((1, 3, 3, 2)), tf.ones((2, 2, 2, 3))
        >>> tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID").shape
        TensorShape([1, 2, 2, 6])
    """
    kernel = operand(filter, "filter")
    if kernel.ndim != 4:
        raise ValueError(f"filter must be 4-D, got shape {tuple(kernel.shape)}")
    height, width, channels, multiplier = kernel.shape
    grouped = ug.reshape(kernel, (height, width, 1, channels * multiplier))
    return _convolve(input, grouped, strides, padding, data_format, dilations, 2)
