"""TensorFlow's grayscale morphology: ``tf.nn.dilation2d`` (the max over each window of
``input + filters``) and ``tf.nn.erosion2d`` (the min of ``value - filters``, the filters
mirrored), on unigrad's ops: the window offsets are stacked and reduced, so the gradient
goes to the entry that wins, as in TensorFlow.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
    >>> tf.nn.dilation2d(x, tf.zeros((2, 2, 1)), [1, 1, 1, 1], "VALID", "NHWC",
    ...                  [1, 1, 1, 1])[0, :, :, 0].numpy()
    array([[4., 5.],
           [7., 8.]], dtype=float32)
"""

from __future__ import annotations

import math

import unigrad as ug

from ._nn_convolution import _pad, _paddings, _per_axis
from ._tensor import Tensor, operand
from .math import _pair, _ret

__all__ = ["dilation2d", "erosion2d"]


def _dilate(x, kernel, strides, padding, data_format, dilations):
    if data_format != "NHWC":
        raise ValueError(f"data_format must be 'NHWC', got {data_format!r}")
    if x.ndim != 4 or kernel.ndim != 3 or kernel.shape[-1] != x.shape[-1]:
        raise ValueError(f"input must be [batch, height, width, depth] and filters [height, "
                         f"width, depth], got {tuple(x.shape)} and {tuple(kernel.shape)}")
    strides = _per_axis(strides, 2, "strides", False)
    rates = _per_axis(dilations, 2, "dilations", False)
    windows = tuple(kernel.shape[:2])
    pairs = _paddings(padding, tuple(x.shape[1:3]), windows, strides, rates, False)
    padded = ug.permute(_pad(ug.permute(x, (0, 3, 1, 2)), pairs, -math.inf), (0, 2, 3, 1))
    spans = [(padded.shape[1 + axis] - (windows[axis] - 1) * rates[axis] - 1) // strides[axis]
             + 1 for axis in range(2)]
    candidates = []
    for row in range(windows[0]):
        for column in range(windows[1]):
            top, left = row * rates[0], column * rates[1]
            window = padded[:, top:top + (spans[0] - 1) * strides[0] + 1:strides[0],
                            left:left + (spans[1] - 1) * strides[1] + 1:strides[1], :]
            candidates.append(window + kernel[row, column])
    return ug.max(ug.stack(candidates, 0), dim=0)[0]


def dilation2d(input, filters, strides, padding, data_format, dilations,
               name: str | None = None) -> Tensor:
    """``out[b, y, x, c] = max over (dy, dx) of input[b, y*sy + dy*ry, x*sx + dx*rx, c] +
    filters[dy, dx, c]`` (``padding`` SAME pads with -inf).

    Raises:
        ValueError: For a ``data_format`` other than NHWC or mismatched shapes.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.reshape(tf.range(4.0), (1, 2, 2, 1))
        >>> tf.nn.dilation2d(x, tf.ones((2, 2, 1)), [1, 1, 1, 1], "VALID", "NHWC",
        ...                  [1, 1, 1, 1]).numpy().ravel()
        array([4.], dtype=float32)
    """
    x, kernel = _pair(operand(input, "input"), filters)
    return _ret(_dilate(x, kernel, strides, padding, data_format, dilations), x, kernel)


def erosion2d(value, filters, strides, padding, data_format, dilations,
              name: str | None = None) -> Tensor:
    """``-dilation2d(-value, mirrored filters)``: the min over each window of ``value``
    minus the (mirrored) filters (a zero minimum prints as ``-0.``, as in TensorFlow).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.reshape(tf.range(9.0), (1, 3, 3, 1))
        >>> tf.nn.erosion2d(x, tf.zeros((2, 2, 1)), [1, 1, 1, 1], "VALID", "NHWC",
        ...                 [1, 1, 1, 1])[0, :, :, 0].numpy()
        array([[-0.,  1.],
               [ 3.,  4.]], dtype=float32)
    """
    x, kernel = _pair(operand(value, "value"), filters)
    mirrored = ug.flip(kernel, (0, 1))
    return _ret(-_dilate(-x, mirrored, strides, padding, data_format, dilations), x, kernel)
