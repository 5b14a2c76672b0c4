"""TensorFlow's pooling: ``tf.nn.max_pool`` / ``max_pool1d`` / ``max_pool2d`` / ``max_pool3d``,
``max_pool_with_argmax``, ``avg_pool`` / ``avg_pool1d`` / ``avg_pool2d`` / ``avg_pool3d`` and
``pool``, on unigrad's
``nn.functional`` pooling, with the layouts and padding of ``_nn_convolution``. SAME average
pooling averages only the real entries of each window, as TensorFlow does.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> image = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
    >>> tf.nn.max_pool2d(image, ksize=2, strides=2, padding="VALID")[0, :, :, 0].numpy()
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
"""

from __future__ import annotations

import collections
import math

import unigrad as ug
import unigrad.nn.functional as F

from ._dtypes import as_dtype
from ._nn_convolution import (
    _channels_first,
    _check_rank,
    _pad,
    _paddings,
    _per_axis,
    _to_channels_first,
    _to_channels_last,
)
from ._tensor import Tensor, as_tf, operand
from .math import _ret

__all__ = ["max_pool_with_argmax", "max_pool", "max_pool1d", "max_pool2d", "max_pool3d",
           "avg_pool", "avg_pool1d", "avg_pool2d", "avg_pool3d", "pool"]

_TF_INT64 = as_dtype("int64")
_MAX_POOL = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
_AVG_POOL = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}


def _pool(input, ksize, strides, padding, data_format, rank: int, kind: str) -> Tensor:
    x = operand(input, "input")
    _check_rank(x, rank, "input")
    first = _channels_first(data_format)
    windows = _per_axis(ksize, rank, "ksize", first)
    strides = _per_axis(strides, rank, "strides", first)
    inputs = _to_channels_first(x, first)
    pairs = _paddings(padding, tuple(inputs.shape[2:]), windows, strides, (1,) * rank, first)
    if kind == "MAX":
        result = _MAX_POOL[rank](_pad(inputs, pairs, -math.inf), windows, strides)
    else:
        total = _AVG_POOL[rank](_pad(inputs, pairs), windows, strides)
        if any(before or after for before, after in pairs):
            ones = ug.ones((1, 1, *inputs.shape[2:]), dtype=inputs.dtype)
            total = total / _AVG_POOL[rank](_pad(ones, pairs), windows, strides)
        result = total
    return _ret(_to_channels_last(result, first), x)


def _pool_rank(input, data_format) -> int:
    rank = operand(input, "input").ndim - 2
    if rank not in _MAX_POOL:
        raise ValueError(f"input must be 3-D to 5-D, got rank {rank + 2}")
    return rank


def max_pool(input, ksize, strides, padding, data_format=None, name: str | None = None):
    """The maximum over each window of a 3-D to 5-D channels-last ``input``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.max_pool(tf.reshape(tf.range(4.0), (1, 4, 1)), 2, 2, "VALID")[0, :, 0].numpy()
        array([1., 3.], dtype=float32)
    """
    return _pool(input, ksize, strides, padding, data_format, _pool_rank(input, data_format),
                 "MAX")


def avg_pool(input, ksize, strides, padding, data_format=None, name: str | None = None):
    """The mean over each window (of its real entries, with SAME padding).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.avg_pool(tf.reshape(tf.range(4.0), (1, 4, 1)), 2, 2, "VALID")[0, :, 0].numpy()
        array([0.5, 2.5], dtype=float32)
    """
    return _pool(input, ksize, strides, padding, data_format, _pool_rank(input, data_format),
                 "AVG")


def max_pool1d(input, ksize, strides, padding, data_format: str = "NWC",
               name: str | None = None) -> Tensor:
    """The maximum over each window of an ``NWC`` ``input``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.max_pool1d(tf.reshape(tf.range(5.0), (1, 5, 1)), 2, 2, "SAME")[0, :, 0].numpy()
        array([1., 3., 4.], dtype=float32)
    """
    return _pool(input, ksize, strides, padding, data_format, 1, "MAX")


def max_pool2d(input, ksize, strides, padding, data_format: str = "NHWC",
               name: str | None = None) -> Tensor:
    """The maximum over each window of an ``NHWC`` ``input``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> y = tf.nn.max_pool2d(tf.reshape(tf.range(9.0), (1, 3, 3, 1)), 2, 1, "VALID")
        >>> y[0, :, :, 0].numpy()
        array([[4., 5.],
               [7., 8.]], dtype=float32)
    """
    return _pool(input, ksize, strides, padding, data_format, 2, "MAX")


def max_pool3d(input, ksize, strides, padding, data_format: str = "NDHWC",
               name: str | None = None) -> Tensor:
    """The maximum over each window of an ``NDHWC`` ``input``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.reshape(tf.range(8.0), (1, 2, 2, 2, 1))
        >>> tf.nn.max_pool3d(x, 2, 2, "VALID").numpy().ravel()
        array([7.], dtype=float32)
    """
    return _pool(input, ksize, strides, padding, data_format, 3, "MAX")


def avg_pool1d(input, ksize, strides, padding, data_format: str = "NWC",
               name: str | None = None) -> Tensor:
    """The mean over each window of an ``NWC`` ``input``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.avg_pool1d(tf.reshape(tf.range(5.0), (1, 5, 1)), 2, 2, "SAME")[0, :, 0].numpy()
        array([0.5, 2.5, 4. ], dtype=float32)
    """
    return _pool(input, ksize, strides, padding, data_format, 1, "AVG")


def avg_pool2d(input, ksize, strides, padding, data_format: str = "NHWC",
               name: str | None = None) -> Tensor:
    """The mean over each window of an ``NHWC`` ``input``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
        >>> tf.nn.avg_pool2d(x, 2, 2, "SAME")[0, :, :, 0].numpy()
        array([[2. , 3.5],
               [6.5, 8. ]], dtype=float32)
    """
    return _pool(input, ksize, strides, padding, data_format, 2, "AVG")


def avg_pool3d(input, ksize, strides, padding, data_format: str = "NDHWC",
               name: str | None = None) -> Tensor:
    """The mean over each window of an ``NDHWC`` ``input``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.reshape(tf.range(8.0), (1, 2, 2, 2, 1))
        >>> tf.nn.avg_pool3d(x, 2, 2, "VALID").numpy().ravel()
        array([3.5], dtype=float32)
    """
    return _pool(input, ksize, strides, padding, data_format, 3, "AVG")


def pool(input, window_shape, pooling_type, strides=None, padding: str = "VALID",
         data_format=None, dilations=None, name: str | None = None) -> Tensor:
    """``"MAX"`` or ``"AVG"`` pooling over windows of ``window_shape`` (strides default 1).

    Raises:
        ValueError: For another ``pooling_type``.
        NotImplementedError: For dilations other than 1.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> y = tf.nn.pool(tf.reshape(tf.range(4.0), (1, 4, 1)), [2], "AVG", strides=[2])
        >>> y[0, :, 0].numpy()
        array([0.5, 2.5], dtype=float32)
    """
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"Invalid pooling_type: {pooling_type!r}")
    rank = len(window_shape)
    if dilations is not None and any(int(d) != 1 for d in dilations):
        raise NotImplementedError("tf.nn.pool: dilations other than 1 are not supported")
    return _pool(input, window_shape, strides, padding, data_format, rank, pooling_type)


MaxPoolWithArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])


def max_pool_with_argmax(input, ksize, strides, padding, data_format: str = "NHWC",
                         output_dtype=_TF_INT64, include_batch_in_index: bool = False,
                         name: str | None = None) -> MaxPoolWithArgmax:
    """``(output, argmax)``: :func:`max_pool2d` of an ``NHWC`` ``input`` and, for each
    result, the flat index ``(y * width + x) * channels + c`` of its input entry (plus
    ``b * height * width * channels`` with ``include_batch_in_index``).

    Raises:
        ValueError: For a ``data_format`` other than ``NHWC``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> values, where = tf.nn.max_pool_with_argmax(tf.reshape(tf.range(4.0), (1, 2, 2, 1)),
        ...                                            2, 2, "VALID")
        >>> values.numpy().ravel(), where.numpy().ravel()
        (array([3.], dtype=float32), array([3]))
    """
    if data_format != "NHWC":
        raise ValueError(f"Data formats other than 'NHWC' are not yet supported, got "
                         f"{data_format!r}")
    x = operand(input, "input")
    _check_rank(x, 2, "input")
    windows = _per_axis(ksize, 2, "ksize", False)
    strides = _per_axis(strides, 2, "strides", False)
    inputs = _to_channels_first(x, False)
    batch, channels, height, width = inputs.shape
    pairs = _paddings(padding, (height, width), windows, strides, (1, 1), False)
    padded = _pad(inputs, pairs, -math.inf)
    values, positions = F.max_pool2d(padded, windows, strides, return_indices=True)
    rows = positions // padded.shape[-1] - pairs[0][0]
    columns = positions % padded.shape[-1] - pairs[1][0]
    channel = ug.reshape(ug.arange(channels), (1, channels, 1, 1))
    flat = (rows * width + columns) * channels + channel
    if include_batch_in_index:
        flat = flat + ug.reshape(ug.arange(batch), (batch, 1, 1, 1)) * (height * width * channels)
    where = ug.cast(_to_channels_last(flat, False), as_dtype(output_dtype))
    return MaxPoolWithArgmax(_ret(_to_channels_last(values, False), x), as_tf(where))
