"""MindSpore's convolution and pooling layers (``nn.Conv1d/2d/3d``, ``nn.MaxPool1d/2d``,
``nn.AvgPool1d/2d``) with MindSpore's defaults: ``pad_mode='same'`` and ``has_bias=False`` for
convolutions, ``kernel_size=1, stride=1, pad_mode='valid'`` for pooling. ``Conv1d`` and the 1-d
pools run as their 2-d versions over a height of 1 (so ``Conv1d``'s ``weight`` has
MindSpore's shape ``(out_channels, in_channels / group, 1, kernel_size)``).

Example:
    >>> import numpy as np
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> conv = nn.Conv2d(1, 1, 3, weight_init="ones")
    >>> conv(ms.Tensor(np.ones((1, 1, 3, 3), np.float32)))[0, 0]
    Tensor(shape=[3, 3], dtype=Float32, value=
    [[4.00000000e+000, 6.00000000e+000, 4.00000000e+000],
     [6.00000000e+000, 9.00000000e+000, 6.00000000e+000],
     [4.00000000e+000, 6.00000000e+000, 4.00000000e+000]])
"""

from __future__ import annotations

import math

from ... import nn as _ugnn
from ...nn import functional as _functional
from ...nn.layers._common import int_tuple
from ...ops import creation as _creation
from ...ops import shape as _shape
from ...tensor import Tensor as _UgTensor
from .common.initializer import HeUniform, Uniform, initializer
from .dtype import float32
from .nn import Cell

__all__ = ["Conv1d", "Conv2d", "Conv3d", "MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d"]


def _initial_value(init, shape: tuple, dtype):
    """``init`` as a Tensor of ``shape`` (None stays None: the layer's default draw)."""
    return None if init is None else initializer(init, shape, dtype)


def _check_conv_arguments(pad_mode, padding, group, in_channels, out_channels) -> None:
    """MindSpore's checks (and messages) of a convolution's ``pad_mode`` and ``group``."""
    if not isinstance(pad_mode, str) or pad_mode not in ("valid", "same", "pad"):
        raise ValueError(f"For 'Conv2D', the 'pad_mode' must be str and must be in "
                         f"'['valid', 'same', 'pad']', but got '{pad_mode}'.")
    zero = padding == 0 or (isinstance(padding, (tuple, list)) and not any(padding))
    if pad_mode != "pad" and not zero:
        raise ValueError(f"For 'Conv2D', the 'pad' must be zero when 'pad_mode' is not 'pad', "
                         f"but got 'pad': {padding} and 'pad_mode': {pad_mode}.")
    if in_channels % group != 0 or out_channels % group != 0:
        raise ValueError(f"The argument 'group' should be divisible by 'in_channels' and "
                         f"'out_channels', but got group:{group}, in_channels:{in_channels}, "
                         f"out_channels:{out_channels}.")


def _init_text(init) -> str:
    """How MindSpore's conv ``repr`` shows an initializer argument."""
    if isinstance(init, _UgTensor):
        return str(init.asnumpy())
    return str(init) if isinstance(init, str) else repr(init)


def _check_format(owner: str, data_format: str, allowed: str) -> str:
    if data_format != allowed:
        raise ValueError(f"For '{owner}', the 'data_format' must be '{allowed}' (the only "
                         f"layout unigrad supports), but got '{data_format}'.")
    return data_format


class _MindSporeConv:
    """MindSpore's constructor, defaults and ``repr`` mixed into a unigrad convolution."""

    _format = "NCHW"
    _base = _ugnn.Conv2d

    def _build(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding,
               dilation, group, has_bias, weight_init, bias_init, data_format, dtype) -> None:
        owner = type(self).__name__
        _check_format(owner, data_format, self._format)
        _check_conv_arguments(pad_mode, padding, group, in_channels, out_channels)
        rank = self._rank
        kernel = int_tuple(kernel_size, rank, "kernel_size", owner)
        weight_shape = (out_channels, in_channels // max(int(group), 1), *kernel)
        weight = _initial_value(weight_init, weight_shape, dtype)
        bias = _initial_value(bias_init, (out_channels,), dtype) if has_bias else None
        self._base.__init__(
            self, in_channels, out_channels, kernel_size, stride, padding, dilation,
            dtype=dtype, pad_mode=pad_mode, group=group, has_bias=has_bias,
            weight_init=weight, bias_init=bias)
        self.format = data_format
        self.padding_argument = padding
        self.weight_init = HeUniform(math.sqrt(5)) if weight_init is None else weight_init
        fan_in = math.prod(weight_shape[1:])
        self.bias_init = None if not has_bias else (
            Uniform(1 / math.sqrt(fan_in)) if bias_init is None else bias_init)

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding_argument}, "
                f"dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={_init_text(self.weight_init)}, "
                f"bias_init={_init_text(self.bias_init) if self.has_bias else None}, "
                f"format={self.format}")


class Conv2d(_MindSporeConv, Cell, _ugnn.Conv2d):
    """``nn.Conv2d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
    padding=0, dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
    data_format='NCHW', dtype=ms.float32)``.

    ``pad_mode`` is ``'same'`` (output size ``ceil(size / stride)``), ``'valid'`` (no
    padding) or ``'pad'`` (``padding``: an int, or ``(top, bottom, left, right)``).
    ``weight_init``/``bias_init`` take an Initializer, an alias name, a number or a Tensor;
    by default ``weight`` is drawn from ``HeUniform(negative_slope=sqrt(5))`` and ``bias``
    from ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> conv = nn.Conv2d(2, 4, 3, stride=2)
        >>> conv(ms.ops.ones((1, 2, 5, 5), ms.float32)).shape
        (1, 4, 3, 3)
        >>> conv.weight.shape, conv.bias
        ((4, 2, 3, 3), None)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1,
                 pad_mode: str = "same", padding=0, dilation=1, group: int = 1,
                 has_bias: bool = False, weight_init=None, bias_init=None,
                 data_format: str = "NCHW", dtype=float32):
        self._build(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation,
                    group, has_bias, weight_init, bias_init, data_format, dtype)


class Conv3d(_MindSporeConv, Cell, _ugnn.Conv3d):
    """``nn.Conv3d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
    padding=0, dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
    data_format='NCDHW', dtype=ms.float32)``: :class:`Conv2d` over three spatial axes
    (``padding`` an int or 6 ints).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.Conv3d(1, 2, 3)(ms.ops.ones((1, 1, 4, 4, 4), ms.float32)).shape
        (1, 2, 4, 4, 4)
    """

    _format = "NCDHW"
    _base = _ugnn.Conv3d

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1,
                 pad_mode: str = "same", padding=0, dilation=1, group: int = 1,
                 has_bias: bool = False, weight_init=None, bias_init=None,
                 data_format: str = "NCDHW", dtype=float32):
        self._build(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation,
                    group, has_bias, weight_init, bias_init, data_format, dtype)


def _one_row(value, name: str, owner: str) -> tuple:
    """A 1-d ``kernel_size``/``stride``/``dilation`` as the 2-d ``(1, value)``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{owner}', the '{name}' must be an int, but got "
                        f"{type(value).__name__}.")
    return (1, value)


def _one_row_weight(weight_init, owner: str):
    """A 1-d convolution's Tensor ``weight_init`` (3-d) as its 4-d weight (height 1)."""
    if not isinstance(weight_init, _UgTensor):
        return weight_init
    if weight_init.ndim != 3:
        raise ValueError(f"For '{owner}', the 'weight_init_shape' must be int and must = 3, "
                         f"but got '{weight_init.ndim}' with type 'int'.")
    return _shape.unsqueeze(weight_init, 2)


class Conv1d(Conv2d):
    """``nn.Conv1d(in_channels, out_channels, kernel_size, stride=1, pad_mode='same',
    padding=0, dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
    dtype=ms.float32)``: convolution over ``(N, C, W)`` inputs; ``weight`` has MindSpore's
    shape ``(out_channels, in_channels / group, 1, kernel_size)`` (a Tensor ``weight_init``
    has the 3-d shape ``(out_channels, in_channels / group, kernel_size)``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> conv = nn.Conv1d(2, 4, 3, pad_mode="valid")
        >>> conv(ms.ops.ones((1, 2, 5), ms.float32)).shape, conv.weight.shape
        ((1, 4, 3), (4, 2, 1, 3))
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 pad_mode: str = "same", padding=0, dilation: int = 1, group: int = 1,
                 has_bias: bool = False, weight_init=None, bias_init=None, dtype=float32):
        owner = "Conv1d"
        if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
            raise TypeError(f"For '{owner}', the 'padding' must be an int or a tuple of 2 "
                            f"ints, but got {type(padding).__name__}.")
        widths = (padding, padding) if isinstance(padding, int) else tuple(padding)
        weight_init = _one_row_weight(weight_init, owner)
        self._build(in_channels, out_channels, _one_row(kernel_size, "kernel_size", owner),
                    _one_row(stride, "stride", owner), pad_mode, (0, 0, *widths),
                    _one_row(dilation, "dilation", owner), group, has_bias, weight_init,
                    bias_init, "NCHW", dtype)

    def construct(self, x):
        return _shape.squeeze(super().construct(_shape.unsqueeze(x, 2)), 2)


# ------------------------------------------------------------------------------ pooling

class _Pool2d(Cell):
    """MindSpore's 2-d pooling: ``pad_mode`` 'valid', 'same' (TensorFlow's padding) or 'pad'
    (``padding``, ``ceil_mode``...); ``_pool(x, padding)`` pools a padded input."""

    def __init__(self, kernel_size, stride, pad_mode: str, padding, ceil_mode: bool,
                 data_format: str):
        super().__init__()
        owner = type(self).__name__
        _check_format(owner, data_format, "NCHW")
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME", "PAD"):
            raise ValueError(f"For '{owner}', the 'pad_mode' must be str and must be in "
                             f"'['VALID', 'SAME', 'PAD']', but got '{str(pad_mode).upper()}'.")
        self.kernel_size, self.stride = kernel_size, stride
        self.pad_mode = pad_mode.upper()
        if self.pad_mode != "PAD" and (padding != 0 or ceil_mode):
            self._refuse_pad_arguments(pad_mode)
        self.padding, self.ceil_mode = padding, ceil_mode
        self._kernel = int_tuple(kernel_size, 2, "kernel_size", owner)
        self._stride = int_tuple(stride, 2, "stride", owner)

    def _refuse_pad_arguments(self, pad_mode: str) -> None:
        raise ValueError(f"For {type(self).__name__}, the parameter 'padding', 'dilation', "
                         f"'return_indices', 'ceil_mode' can not be set to non-default value "
                         f"when pad_mode is not 'pad', but got pad_mode:{pad_mode}.")

    def _same_widths(self, height: int, width: int) -> tuple:
        """``F.pad`` widths of TensorFlow's 'SAME' padding (the odd pixel at the end)."""
        widths = []
        for size, kernel, stride in zip((width, height), self._kernel[::-1], self._stride[::-1]):
            total = max((-(-size // stride) - 1) * stride + kernel - size, 0)
            widths += [total // 2, total - total // 2]
        return tuple(widths)

    def construct(self, x):
        if self.pad_mode == "SAME":
            return self._pool_same(x, self._same_widths(*x.shape[-2:]))
        return self._pool(x)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool2d(_Pool2d):
    """``nn.MaxPool2d(kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1,
    return_indices=False, ceil_mode=False, data_format='NCHW')``: the maximum of each window
    (``padding``, ``dilation``, ``return_indices`` and ``ceil_mode`` with ``pad_mode='pad'``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> pool = nn.MaxPool2d(kernel_size=2, stride=2)
        >>> pool(ms.Tensor([[[[1.0, 2.0], [4.0, 3.0]]]]))
        Tensor(shape=[1, 1, 1, 1], dtype=Float32, value=
        [[[[4.00000000e+000]]]])
        >>> pool
        MaxPool2d(kernel_size=2, stride=2, pad_mode=VALID)
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode: str = "valid", padding=0,
                 dilation=1, return_indices: bool = False, ceil_mode: bool = False,
                 data_format: str = "NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, data_format)
        dilation_pairs = int_tuple(dilation, 2, "dilation", "MaxPool2d")
        if self.pad_mode != "PAD" and (dilation_pairs != (1, 1) or return_indices):
            self._refuse_pad_arguments(pad_mode)
        self.dilation, self.return_indices = dilation, return_indices

    def _pool(self, x):
        return _functional.max_pool2d(x, self._kernel, self._stride, self.padding,
                                      self.dilation, self.ceil_mode, self.return_indices)

    def _pool_same(self, x, widths: tuple):
        padded = _shape.pad(x, widths, value=-math.inf)
        return _functional.max_pool2d(padded, self._kernel, self._stride)


class AvgPool2d(_Pool2d):
    """``nn.AvgPool2d(kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
    count_include_pad=True, divisor_override=None, data_format='NCHW')``: the mean of each
    window (with ``pad_mode='same'`` the padded positions are not counted).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.AvgPool2d(kernel_size=2)(ms.Tensor([[[[1.0, 2.0], [4.0, 3.0]]]]))
        Tensor(shape=[1, 1, 1, 1], dtype=Float32, value=
        [[[[2.50000000e+000]]]])
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode: str = "valid", padding=0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None, data_format: str = "NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, data_format)
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def _pool(self, x):
        return _functional.avg_pool2d(x, self._kernel, self._stride, self.padding,
                                      self.ceil_mode, self.count_include_pad,
                                      self.divisor_override)

    def _pool_same(self, x, widths: tuple):
        sums = _functional.avg_pool2d(_shape.pad(x, widths), self._kernel, self._stride)
        counts = _functional.avg_pool2d(_shape.pad(_creation.ones_like(x), widths),
                                        self._kernel, self._stride)
        return sums / counts


class _Pool1d:
    """A 2-d pool run over ``(N, C, W)`` inputs as ``(N, C, 1, W)``; MindSpore shows the
    1-d sizes as ``(1, size)``."""

    def _as_1d(self, kernel_size, stride, padding) -> tuple:
        owner = type(self).__name__
        return (_one_row(kernel_size, "kernel_size", owner), _one_row(stride, "stride", owner),
                _one_row(padding, "padding", owner))

    def construct(self, x):
        return _shape.squeeze(super().construct(_shape.unsqueeze(x, 2)), 2)


class MaxPool1d(_Pool1d, MaxPool2d):
    """``nn.MaxPool1d(kernel_size=1, stride=1, pad_mode='valid', padding=0, dilation=1,
    return_indices=False, ceil_mode=False)``: :class:`MaxPool2d` over ``(N, C, W)`` inputs.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.MaxPool1d(kernel_size=2, stride=2)(ms.Tensor([[[1.0, 3.0, 2.0, 0.0]]]))
        Tensor(shape=[1, 1, 2], dtype=Float32, value=
        [[[3.00000000e+000, 2.00000000e+000]]])
    """

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid",
                 padding: int = 0, dilation: int = 1, return_indices: bool = False,
                 ceil_mode: bool = False):
        kernel, step, pads = self._as_1d(kernel_size, stride, padding)
        MaxPool2d.__init__(self, kernel, step, pad_mode, pads if padding else 0,
                           _one_row(dilation, "dilation", "MaxPool1d"), return_indices,
                           ceil_mode)


class AvgPool1d(_Pool1d, AvgPool2d):
    """``nn.AvgPool1d(kernel_size=1, stride=1, pad_mode='valid', padding=0, ceil_mode=False,
    count_include_pad=True)``: :class:`AvgPool2d` over ``(N, C, W)`` inputs.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.AvgPool1d(kernel_size=2, stride=2)(ms.Tensor([[[1.0, 3.0, 2.0, 0.0]]]))
        Tensor(shape=[1, 1, 2], dtype=Float32, value=
        [[[2.00000000e+000, 1.00000000e+000]]])
    """

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid",
                 padding: int = 0, ceil_mode: bool = False, count_include_pad: bool = True):
        kernel, step, pads = self._as_1d(kernel_size, stride, padding)
        AvgPool2d.__init__(self, kernel, step, pad_mode, pads if padding else 0, ceil_mode,
                           count_include_pad)

