"""MindSpore's ``nn.Conv2dTranspose`` (``pad_mode='same'`` and ``has_bias=False`` by
default): the full transposed convolution of unigrad, then cropped (or extended) to the
size ``pad_mode`` gives: ``'same'`` ``size * stride``, ``'valid'``
``(size - 1) * stride + dilation * (kernel_size - 1) + 1``, ``'pad'`` that minus
``padding``; ``output_padding`` then appends that many rows/columns of zeros (plus the bias).

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> up = nn.Conv2dTranspose(1, 1, 2, stride=2, weight_init="ones")
    >>> print(up(ms.Tensor([[[[1.0, 2.0]]]])))
    [[[[1. 1. 2. 2.]
       [1. 1. 2. 2.]]]]
"""

from __future__ import annotations

import math

from ...nn import functional as _functional
from ...nn.layers._common import int_tuple
from ...ops import shape as _shape
from ._nn_conv import _check_conv_arguments, _init_text, _one_row, _one_row_weight
from ._tensor import Parameter, Tensor
from .common.initializer import HeUniform, Uniform, initializer
from .dtype import float32
from .nn import Cell

__all__ = ["Conv2dTranspose", "Conv1dTranspose"]


def _parameter(init, shape: tuple, dtype, name: str) -> Parameter:
    """A Parameter filled by ``init`` (a copy when ``init`` is a Tensor)."""
    return Parameter(Tensor(initializer(init, shape, dtype).asnumpy().copy()), name=name)


class Conv2dTranspose(Cell):
    """``nn.Conv2dTranspose(in_channels, out_channels, kernel_size, stride=1,
    pad_mode='same', padding=0, output_padding=0, dilation=1, group=1, has_bias=False,
    weight_init=None, bias_init=None, dtype=ms.float32)``: the transposed convolution,
    ``weight`` of shape ``(in_channels, out_channels / group, *kernel_size)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> up = nn.Conv2dTranspose(2, 4, 3, stride=2, pad_mode="pad", padding=1)
        >>> up(ms.ops.ones((1, 2, 3, 3), ms.float32)).shape, up.weight.shape
        ((1, 4, 5, 5), (2, 4, 3, 3))
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1,
                 pad_mode: str = "same", padding=0, output_padding=0, dilation=1,
                 group: int = 1, has_bias: bool = False, weight_init=None, bias_init=None,
                 dtype=float32):
        super().__init__()
        owner = "Conv2dTranspose"
        _check_conv_arguments(pad_mode, padding, group, in_channels, out_channels)
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = int_tuple(kernel_size, 2, "kernel_size", owner)
        self.stride = int_tuple(stride, 2, "stride", owner)
        self.dilation = int_tuple(dilation, 2, "dilation", owner)
        self.output_padding = int_tuple(output_padding, 2, "output_padding", owner, minimum=0)
        self.pad_mode, self.padding, self.group, self.has_bias = pad_mode, padding, group, has_bias
        self.format = "NCHW"
        weight_shape = (in_channels, out_channels // group, *self.kernel_size)
        self.weight_init = HeUniform(math.sqrt(5)) if weight_init is None else weight_init
        self.weight = _parameter(self.weight_init, weight_shape, dtype, "weight")
        self.bias_init = self.bias = None
        if has_bias:
            fan_in = weight_shape[1] * math.prod(self.kernel_size)
            self.bias_init = Uniform(1 / math.sqrt(fan_in)) if bias_init is None else bias_init
            self.bias = _parameter(self.bias_init, (out_channels,), dtype, "bias")

    def _crops(self, height: int, width: int) -> list:
        """``(before, after)`` rows/columns to remove from the full output, per axis (an
        ``after`` below zero adds rows)."""
        paddings = self._pad_amounts()
        crops = []
        for axis, size in enumerate((height, width)):
            full = (size - 1) * self.stride[axis] + self.dilation[axis] * (
                self.kernel_size[axis] - 1) + 1
            if self.pad_mode == "same":
                total = full - size * self.stride[axis]
                crops.append((total // 2, total - total // 2) if total >= 0 else (0, total))
            else:
                crops.append(paddings[axis])
        return crops

    def _pad_amounts(self) -> tuple:
        """``((top, bottom), (left, right))`` of ``pad_mode='pad'`` (zeros otherwise)."""
        if self.pad_mode != "pad":
            return ((0, 0), (0, 0))
        if isinstance(self.padding, int):
            return ((self.padding, self.padding),) * 2
        top, bottom, left, right = int_tuple(self.padding, 4, "padding", "Conv2dTranspose",
                                             minimum=0)
        return ((top, bottom), (left, right))

    def construct(self, x):
        full = _functional.conv_transpose2d(x, self.weight, None, self.stride, 0, 0, self.group,
                                            self.dilation)
        (top, bottom), (left, right) = self._crops(*x.shape[-2:])
        output = _shape.pad(full, (-left, -right, -top, -bottom))
        if any(self.output_padding):  # zero rows/columns at the end
            output = _shape.pad(output, (0, self.output_padding[1], 0, self.output_padding[0]))
        if self.bias is not None:
            output = output + self.bias.reshape(-1, 1, 1)
        return output

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, "
                f"dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={_init_text(self.weight_init)}, "
                f"bias_init={_init_text(self.bias_init) if self.has_bias else None}, "
                f"format={self.format}")



class Conv1dTranspose(Conv2dTranspose):
    """``nn.Conv1dTranspose(in_channels, out_channels, kernel_size, stride=1,
    pad_mode='same', padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
    bias_init=None, dtype=ms.float32)``: :class:`Conv2dTranspose` over ``(N, C, W)`` inputs;
    ``weight`` has MindSpore's shape ``(in_channels, out_channels / group, 1, kernel_size)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> up = nn.Conv1dTranspose(2, 4, 3, stride=2)
        >>> up(ms.ops.ones((1, 2, 5), ms.float32)).shape, up.weight.shape
        ((1, 4, 10), (2, 4, 1, 3))
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 pad_mode: str = "same", padding: int = 0, dilation: int = 1, group: int = 1,
                 has_bias: bool = False, weight_init=None, bias_init=None, dtype=float32):
        owner = "Conv1dTranspose"
        _one_row(padding, "padding", owner)  # an int, as MindSpore checks
        super().__init__(in_channels, out_channels, _one_row(kernel_size, "kernel_size", owner),
                         _one_row(stride, "stride", owner), pad_mode, (0, 0, padding, padding),
                         0, _one_row(dilation, "dilation", owner), group, has_bias,
                         _one_row_weight(weight_init, owner), bias_init, dtype)

    def construct(self, x):
        return _shape.squeeze(super().construct(_shape.unsqueeze(x, 2)), 2)
