"""Keras 3's convolutions ``Conv1D`` and ``Conv2D`` (channels last by default).

The kernel has Keras' layout ``(*kernel_size, input_channels // groups,
filters)``; the computation is unigrad's ``conv1d``/``conv2d`` on transposed
inputs. ``padding="same"`` pads as TensorFlow does (the extra row or column
after), ``"causal"`` (Conv1D) pads only before.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> layer = tf.keras.layers.Conv2D(4, 3, padding="same")
    >>> layer(tf.ones((1, 5, 5, 2))).shape
    TensorShape([1, 5, 5, 4])
    >>> tuple(layer.kernel.shape)
    (3, 3, 2, 4)
"""

from __future__ import annotations

import math

import unigrad as ug
import unigrad.nn.functional as F

from ..._tensor import as_tf
from .. import activations, initializers, regularizers
from .base import Layer, reject_constraints
from .core import weight_config

__all__ = ["Conv1D", "Conv2D", "same_padding", "normalize_tuple"]


def normalize_tuple(value, rank: int, name: str) -> tuple:
    """``value`` (an int or ``rank`` ints) as a tuple of ``rank`` positive ints.

    Raises:
        ValueError: For anything else (Keras' message).

    Example:
        >>> normalize_tuple(3, 2, "kernel_size")
        (3, 3)
    """
    values = (value,) * rank if isinstance(value, int) else tuple(value)
    if len(values) != rank or not all(isinstance(item, int) and item > 0 for item in values):
        raise ValueError(f"The `{name}` argument must be a tuple of {rank} integers. Received "
                         f"{name}={value}")
    return values


def same_padding(size: int, kernel: int, stride: int, dilation: int = 1) -> tuple[int, int]:
    """TensorFlow's ``"same"`` padding ``(before, after)`` of one axis: output
    ``ceil(size / stride)``, the odd pixel after.

    Example:
        >>> same_padding(5, 2, 2)
        (0, 1)
    """
    effective = (kernel - 1) * dilation + 1
    total = max((math.ceil(size / stride) - 1) * stride + effective - size, 0)
    return total // 2, total - total // 2


def check_padding(padding: str, allowed: tuple) -> str:
    padding = padding.lower() if isinstance(padding, str) else padding
    if padding not in allowed:
        raise ValueError(f"The `padding` argument must be a list/tuple or one of "
                         f"{', '.join(allowed)}. Received: {padding}")
    return padding


class _Conv(Layer):
    """The shared part of ``Conv1D``/``Conv2D``: arguments, weights and the computation."""

    rank = 2

    def __init__(self, filters: int, kernel_size, strides=1, padding: str = "valid",
                 data_format=None, dilation_rate=1, groups: int = 1, activation=None,
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs) -> None:
        reject_constraints(type(self).__name__, kernel_constraint=kernel_constraint,
                           bias_constraint=bias_constraint)
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(filters, int) or filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        if groups <= 0 or filters % groups:
            raise ValueError(f"The number of filters must be evenly divisible by the number "
                             f"of groups. Received: groups={groups}, filters={filters}.")
        self.filters = filters
        self.groups = groups
        self.kernel_size = normalize_tuple(kernel_size, self.rank, "kernel_size")
        self.strides = normalize_tuple(strides, self.rank, "strides")
        self.dilation_rate = normalize_tuple(dilation_rate, self.rank, "dilation_rate")
        allowed = ("valid", "same", "causal") if self.rank == 1 else ("valid", "same")
        self.padding = check_padding(padding, allowed)
        self.data_format = data_format or "channels_last"
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)

    def build(self, input_shape) -> None:
        channels = input_shape[-1] if self.data_format == "channels_last" else input_shape[1]
        if channels % self.groups:
            raise ValueError(f"The number of input channels must be evenly divisible by the "
                             f"number of groups. Received groups={self.groups}, but the input "
                             f"has {channels} channels (full input shape is {input_shape}).")
        self.kernel = self.add_weight(
            name="kernel", shape=(*self.kernel_size, channels // self.groups, self.filters),
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer)
        self.bias = self.add_weight(name="bias", shape=(self.filters,),
                                    initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer) if self.use_bias else None

    def _pads(self, spatial: tuple) -> list[tuple[int, int]]:
        if self.padding == "valid":
            return [(0, 0)] * self.rank
        if self.padding == "causal":
            return [((self.kernel_size[0] - 1) * self.dilation_rate[0], 0)]
        return [same_padding(size, kernel, stride, dilation) for size, kernel, stride, dilation
                in zip(spatial, self.kernel_size, self.strides, self.dilation_rate)]

    def call(self, inputs):
        channels_last = self.data_format == "channels_last"
        x = ug.movedim(inputs, -1, 1) if channels_last else inputs
        pads = self._pads(tuple(x.shape[2:]))
        if any(before or after for before, after in pads):
            x = F.pad(x, [size for pair in reversed(pads) for size in pair])
        weight = ug.permute(self.kernel, (self.rank + 1, self.rank,
                                          *range(self.rank)))
        convolve = F.conv1d if self.rank == 1 else F.conv2d
        outputs = convolve(x, weight, None, stride=self.strides, padding=0,
                           dilation=self.dilation_rate, groups=self.groups)
        if channels_last:
            outputs = ug.movedim(outputs, 1, -1)
        if self.bias is not None:
            outputs = outputs + (self.bias if channels_last else
                                 ug.reshape(self.bias, (self.filters,) + (1,) * self.rank))
        return as_tf(self.activation(outputs))

    def get_config(self) -> dict:
        return weight_config(
            self, filters=self.filters, kernel_size=self.kernel_size, strides=self.strides,
            padding=self.padding, data_format=self.data_format,
            dilation_rate=self.dilation_rate, groups=self.groups, activation=self.activation,
            use_bias=self.use_bias, kernel_initializer=self.kernel_initializer,
            bias_initializer=self.bias_initializer, kernel_regularizer=self.kernel_regularizer,
            bias_regularizer=self.bias_regularizer,
            activity_regularizer=self.activity_regularizer, kernel_constraint=None,
            bias_constraint=None)


class Conv1D(_Conv):
    """1-D convolution over ``(batch, steps, channels)`` inputs (``tf.keras.layers.Conv1D``).

    ``padding``: ``"valid"``, ``"same"`` or ``"causal"``.

    Raises:
        ValueError: For bad ``filters``, ``kernel_size``, ``padding`` or ``groups``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.Conv1D(2, 3, padding="causal", kernel_initializer="ones")
        >>> layer(tf.ones((1, 4, 1))).numpy()[0, :, 0]
        array([1., 2., 3., 3.], dtype=float32)
    """

    rank = 1


class Conv2D(_Conv):
    """2-D convolution over ``(batch, height, width, channels)`` inputs
    (``tf.keras.layers.Conv2D``).

    Raises:
        ValueError: For bad ``filters``, ``kernel_size``, ``padding`` or ``groups``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.Conv2D(1, 2, strides=2, kernel_initializer="ones")
        >>> layer(tf.ones((1, 4, 4, 1))).numpy()[0, :, :, 0]
        array([[4., 4.],
               [4., 4.]], dtype=float32)
    """

    def __init__(self, filters: int, kernel_size, strides=(1, 1), padding: str = "valid",
                 data_format=None, dilation_rate=(1, 1), groups: int = 1, activation=None,
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs) -> None:
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate,
                         groups, activation, use_bias, kernel_initializer, bias_initializer,
                         kernel_regularizer, bias_regularizer, activity_regularizer,
                         kernel_constraint, bias_constraint, **kwargs)
