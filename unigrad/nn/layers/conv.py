"""Convolution layers ``Conv1d/2d/3d`` (PyTorch's signature, MindSpore's keywords), the
transposed convolutions ``ConvTranspose1d/2d/3d`` (PyTorch's signature) and their lazy
versions ``LazyConv1d/2d/3d``, ``LazyConvTranspose1d/2d/3d`` (``in_channels`` from the first
input).

``ug.nn.Conv2d`` keeps PyTorch's defaults (``padding=0``, ``bias=True``,
PyTorch's initialization); MindSpore's defaults (``pad_mode='same'``,
``has_bias=False``) belong to the MindSpore front-end. The MindSpore keywords
``pad_mode`` (``'same'``, ``'valid'``, ``'pad'``), ``group``, ``has_bias``,
``weight_init`` and ``bias_init`` are accepted here too. ``pad_mode='same'``
pads as TensorFlow/MindSpore do (any stride: the output has
``ceil(size / stride)`` positions, the odd pixel padded at the end), while
PyTorch's ``padding='same'`` needs stride 1. Non-zero ``padding_mode``
(``'reflect'``, ``'replicate'``, ``'circular'``) pads with ``F.pad`` first.

Example:
    >>> import unigrad as ug
    >>> conv = ug.nn.Conv2d(1, 1, 3, padding=1, bias=False)
    >>> _ = ug.nn.init.ones_(conv.weight)
    >>> conv(ug.ones(1, 1, 3, 3))[0, 0]
    tensor([[4., 6., 4.],
            [6., 9., 6.],
            [4., 6., 4.]], grad_fn=<...>)
"""

from __future__ import annotations

import math

import numpy as np

from ...ops.nn_convolution import (
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
)
from ...ops.shape import pad
from ...tensor import Tensor
from .. import init
from ..cell import Cell
from ._common import device_of, floating_dtype, int_tuple, new_parameter, positive_int
from ._lazy import LazyModuleMixin, UninitializedParameter

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")
_PADDING_STRINGS = ("same", "valid")
_PAD_MODES = ("same", "valid", "pad")


def _merged(pytorch_value, pytorch_default, mindspore_value, names: tuple, owner: str):
    """The MindSpore spelling's value when given, refusing a conflicting PyTorch value."""
    if mindspore_value is None:
        return pytorch_value
    if pytorch_value != pytorch_default and pytorch_value != mindspore_value:
        raise TypeError(f"{owner}: got '{names[0]}={pytorch_value}' and its MindSpore spelling "
                        f"'{names[1]}={mindspore_value}'; pass only one")
    return mindspore_value


class _ConvNd(Cell):
    """The shared N-d convolution layer; subclasses set ``_rank`` and ``_function``."""

    _rank = 0

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None, *, pad_mode: str | None = None,
                 group: int | None = None, has_bias: bool | None = None, weight_init=None,
                 bias_init=None):
        super().__init__()
        owner, rank = type(self).__name__, self._rank
        groups = _merged(groups, 1, group, ("groups", "group"), owner)
        bias = _merged(bias, True, has_bias, ("bias", "has_bias"), owner)
        in_channels = positive_int(in_channels, "in_channels", owner, allow_zero=True)
        out_channels = positive_int(out_channels, "out_channels", owner, allow_zero=True)
        if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups <= 0:
            raise ValueError("groups must be a positive integer")
        groups = int(groups)
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        kernel_size = int_tuple(kernel_size, rank, "kernel_size", owner)
        stride = int_tuple(stride, rank, "stride", owner)
        dilation = int_tuple(dilation, rank, "dilation", owner)
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {list(_PADDING_MODES)}, but got "
                             f"padding_mode='{padding_mode}'")
        if not isinstance(bias, bool):
            raise TypeError(f"{owner}: argument 'bias' must be a bool, got {type(bias).__name__}")
        pairs, padding = self._padding_pairs(padding, pad_mode, kernel_size, stride, dilation)
        dtype, device = floating_dtype(dtype, owner), device_of(device)

        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.dilation = kernel_size, stride, dilation
        self.padding, self.padding_mode = padding, padding_mode
        self.output_padding = (0,) * rank
        self.transposed = False
        self.groups = self.group = groups
        self.has_bias = bias
        self.pad_mode = pad_mode.lower() if pad_mode is not None else None
        self._pairs = pairs  # None: TensorFlow-style 'same', computed from the input size
        self._create_parameters(weight_init, bias_init, dtype, device)

    def _weight_shape(self) -> tuple:
        """``(out_channels, in_channels / groups, *kernel_size)``."""
        return (self.out_channels, self.in_channels // self.groups) + self.kernel_size

    def _create_parameters(self, weight_init, bias_init, dtype, device) -> None:
        """``weight`` (of :meth:`_weight_shape`) and ``bias``, initialized as PyTorch does
        unless ``weight_init``/``bias_init`` are given."""
        owner = type(self).__name__
        self.weight = new_parameter(0.0 if weight_init is None else weight_init,
                                    self._weight_shape(), dtype, device, argument="weight_init",
                                    owner=owner)
        if self.has_bias:
            self.bias = new_parameter(0.0 if bias_init is None else bias_init,
                                      (self.out_channels,), dtype, device, argument="bias_init",
                                      owner=owner)
        else:
            self.register_parameter("bias", None)
        self._reset_defaults(weight_init is None, self.has_bias and bias_init is None)

    def _padding_pairs(self, padding, pad_mode, kernel_size, stride, dilation):
        """``((before, after), ...)`` per spatial axis (or None) and the ``padding`` attribute."""
        owner, rank = type(self).__name__, self._rank
        if pad_mode is not None:
            return self._mindspore_pairs(padding, pad_mode, owner, rank)
        if isinstance(padding, str):
            if padding not in _PADDING_STRINGS:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 f"{list(_PADDING_STRINGS)}")
            if padding == "valid":
                return ((0, 0),) * rank, padding
            if any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
            totals = [d * (k - 1) for k, d in zip(kernel_size, dilation)]
            return tuple((t // 2, t - t // 2) for t in totals), padding
        amounts = int_tuple(padding, rank, "padding", owner, minimum=0)
        return tuple((p, p) for p in amounts), amounts

    @staticmethod
    def _mindspore_pairs(padding, pad_mode, owner: str, rank: int):
        if not isinstance(pad_mode, str) or pad_mode.lower() not in _PAD_MODES:
            raise ValueError(f"For '{owner}', the 'pad_mode' must be one of {list(_PAD_MODES)}, "
                             f"but got {pad_mode!r}")
        pad_mode = pad_mode.lower()
        if isinstance(padding, str):
            raise TypeError(f"For '{owner}', 'padding' must be an int or a tuple of ints when "
                            f"'pad_mode' is given, but got {padding!r}")
        if pad_mode != "pad":
            if padding != 0 and (not isinstance(padding, (tuple, list)) or any(padding)):
                raise ValueError(f"For '{owner}', the 'padding' must be zero when 'pad_mode' is "
                                 f"not equal to 'pad', but got 'padding': {padding}")
            return (None if pad_mode == "same" else ((0, 0),) * rank), 0
        if isinstance(padding, (tuple, list)) and len(padding) == 2 * rank:
            amounts = int_tuple(padding, 2 * rank, "padding", owner, minimum=0)
            return tuple(zip(amounts[::2], amounts[1::2])), amounts
        amounts = int_tuple(padding, rank, "padding", owner, minimum=0)
        return tuple((p, p) for p in amounts), amounts

    def _reset_defaults(self, weight: bool, bias: bool) -> None:
        if weight:
            init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if bias:
            fan_in = self.weight.shape[1] * math.prod(self.kernel_size)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0.0
            init.uniform_(self.bias, -bound, bound)

    def reset_parameters(self) -> None:
        """Re-draw ``weight`` and ``bias`` with PyTorch's default initialization."""
        self._reset_defaults(True, self.bias is not None)

    def _same_pairs(self, spatial: tuple) -> tuple:
        """TensorFlow's 'SAME' padding: ``ceil(size / stride)`` outputs, extra pixel at the end."""
        pairs = []
        for size, k, s, d in zip(spatial, self.kernel_size, self.stride, self.dilation):
            count = -(-size // s)
            total = max((count - 1) * s + d * (k - 1) + 1 - size, 0)
            pairs.append((total // 2, total - total // 2))
        return tuple(pairs)

    def construct(self, input: Tensor) -> Tensor:
        rank, shape = self._rank, tuple(input.shape)
        if len(shape) not in (rank + 1, rank + 2):
            raise RuntimeError(f"Expected {rank + 1}D (unbatched) or {rank + 2}D (batched) input "
                               f"to {type(self).__name__.lower()}, but got input of size: "
                               f"{list(shape)}")
        pairs = self._pairs if self._pairs is not None else self._same_pairs(shape[-rank:])
        if self.padding_mode == "zeros" and all(before == after for before, after in pairs):
            padding = tuple(before for before, _ in pairs)
        else:
            widths = tuple(amount for pair in reversed(pairs) for amount in pair)
            mode = "constant" if self.padding_mode == "zeros" else self.padding_mode
            input, padding = pad(input, widths, mode=mode), 0
        return type(self)._function(input, self.weight, self.bias, self.stride, padding,
                                    self.dilation, self.groups)

    def extra_repr(self) -> str:
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if isinstance(self.padding, str) or any(self.padding):
            text += f", padding={self.padding}"
        if any(d != 1 for d in self.dilation):
            text += f", dilation={self.dilation}"
        if any(self.output_padding):
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        if self.pad_mode is not None:
            text += f", pad_mode={self.pad_mode}"
        return text


class Conv1d(_ConvNd):
    """1-D convolution over ``(N, C_in, L)`` or ``(C_in, L)`` input.

    ``weight`` is ``(out_channels, in_channels / groups, kernel_size)``. See
    the module docstring for ``padding`` (int, 1-tuple, ``'same'``, ``'valid'``),
    ``padding_mode`` and the MindSpore keywords.

    Example:
        >>> import unigrad as ug
        >>> conv = ug.nn.Conv1d(2, 4, 3, padding="same")
        >>> conv
        Conv1d(2, 4, kernel_size=(3,), stride=(1,), padding=same)
        >>> conv(ug.ones(8, 2, 10)).shape
        (8, 4, 10)
    """

    _rank = 1
    _function = staticmethod(conv1d)


class Conv2d(_ConvNd):
    """2-D convolution over ``(N, C_in, H, W)`` or ``(C_in, H, W)`` input (im2col + GEMM).

    ``weight`` is ``(out_channels, in_channels / groups, kH, kW)``;
    ``kernel_size``, ``stride``, ``padding`` and ``dilation`` are ints or pairs,
    ``padding`` may be ``'same'``/``'valid'``. With ``pad_mode='pad'`` a
    4-tuple ``padding`` is MindSpore's ``(top, bottom, left, right)``.

    Example:
        >>> import unigrad as ug
        >>> conv = ug.nn.Conv2d(3, 6, 3, stride=2, groups=3, bias=False)
        >>> conv
        Conv2d(3, 6, kernel_size=(3, 3), stride=(2, 2), groups=3, bias=False)
        >>> conv(ug.ones(2, 3, 9, 9)).shape, conv.weight.shape
        ((2, 6, 4, 4), (6, 1, 3, 3))
        >>> ug.nn.Conv2d(3, 6, 3, stride=2, pad_mode="same")(ug.ones(1, 3, 9, 9)).shape
        (1, 6, 5, 5)
    """

    _rank = 2
    _function = staticmethod(conv2d)


class Conv3d(_ConvNd):
    """3-D convolution over ``(N, C_in, D, H, W)`` or ``(C_in, D, H, W)`` input.

    ``weight`` is ``(out_channels, in_channels / groups, kD, kH, kW)``;
    ``kernel_size``, ``stride``, ``padding`` and ``dilation`` are ints or triples.

    Example:
        >>> import unigrad as ug
        >>> conv = ug.nn.Conv3d(2, 4, (3, 1, 1), padding=(1, 0, 0), padding_mode="replicate")
        >>> conv
        Conv3d(2, 4, kernel_size=(3, 1, 1), stride=(1, 1, 1), padding=(1, 0, 0), \
padding_mode=replicate)
        >>> conv(ug.ones(2, 5, 3, 3)).shape
        (4, 5, 3, 3)
    """

    _rank = 3
    _function = staticmethod(conv3d)


class _ConvTransposeNd(_ConvNd):
    """The shared N-d transposed convolution layer (PyTorch's signature and checks)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                 padding_mode: str = "zeros", device=None, dtype=None):
        owner = type(self).__name__
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {owner}')
        output_padding = int_tuple(output_padding, self._rank, "output_padding", owner,
                                   minimum=0)
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, device, dtype)
        self.output_padding = output_padding
        self.transposed = True

    def _weight_shape(self) -> tuple:
        """``(in_channels, out_channels / groups, *kernel_size)``."""
        return (self.in_channels, self.out_channels // self.groups) + self.kernel_size

    def _padding_pairs(self, padding, pad_mode, kernel_size, stride, dilation):
        amounts = int_tuple(padding, self._rank, "padding", type(self).__name__, minimum=0)
        return tuple((p, p) for p in amounts), amounts

    def _output_padding(self, input: Tensor, output_size) -> tuple:
        """``output_padding``, or the one that makes the output ``output_size`` (PyTorch's rule)."""
        if output_size is None:
            return self.output_padding
        rank, dims = self._rank, len(input.shape)
        leading = 2 if dims == rank + 2 else 1
        sizes = tuple(output_size)
        if len(sizes) == leading + rank:
            sizes = sizes[leading:]
        if len(sizes) != rank:
            raise ValueError(f"ConvTranspose{rank}D: for {dims}D input, output_size must have "
                             f"{rank} or {leading + rank} elements (got {len(sizes)})")
        smallest = [(n - 1) * s - 2 * p + d * (k - 1) + 1 for n, s, p, d, k in zip(
            input.shape[-rank:], self.stride, self.padding, self.dilation, self.kernel_size)]
        largest = [low + s - 1 for low, s in zip(smallest, self.stride)]
        if any(not low <= size <= high for size, low, high in zip(sizes, smallest, largest)):
            raise ValueError(f"requested an output size of {list(sizes)}, but valid sizes range "
                             f"from {smallest} to {largest} (for an input of "
                             f"{tuple(input.shape[-rank:])})")
        return tuple(size - low for size, low in zip(sizes, smallest))

    def construct(self, input: Tensor, output_size=None) -> Tensor:
        rank, shape = self._rank, tuple(input.shape)
        if len(shape) not in (rank + 1, rank + 2):
            raise RuntimeError(f"Expected {rank + 1}D (unbatched) or {rank + 2}D (batched) input "
                               f"to {type(self).__name__.lower()}, but got input of size: "
                               f"{list(shape)}")
        output_padding = self._output_padding(input, output_size)
        return type(self)._function(input, self.weight, self.bias, self.stride, self.padding,
                                    output_padding, self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """1-D transposed convolution over ``(N, C_in, L)`` or ``(C_in, L)`` input.

    ``weight`` is ``(in_channels, out_channels / groups, kernel_size)``;
    ``forward(input, output_size=None)`` picks ``output_padding`` to reach
    ``output_size`` when given.

    Example:
        >>> import unigrad as ug
        >>> up = ug.nn.ConvTranspose1d(4, 2, 3, stride=2, padding=1)
        >>> up
        ConvTranspose1d(4, 2, kernel_size=(3,), stride=(2,), padding=(1,))
        >>> up(ug.ones(1, 4, 5)).shape, up(ug.ones(1, 4, 5), output_size=[10]).shape
        ((1, 2, 9), (1, 2, 10))
    """

    _rank = 1
    _function = staticmethod(conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    """2-D transposed convolution over ``(N, C_in, H, W)`` or ``(C_in, H, W)`` input.

    ``weight`` is ``(in_channels, out_channels / groups, kH, kW)``.

    Example:
        >>> import unigrad as ug
        >>> up = ug.nn.ConvTranspose2d(4, 2, 2, stride=2, output_padding=1, dilation=2)
        >>> up
        ConvTranspose2d(4, 2, kernel_size=(2, 2), stride=(2, 2), dilation=(2, 2), \
output_padding=(1, 1))
        >>> up(ug.ones(4, 3, 3)).shape, up.weight.shape
        ((2, 8, 8), (4, 2, 2, 2))
    """

    _rank = 2
    _function = staticmethod(conv_transpose2d)


class ConvTranspose3d(_ConvTransposeNd):
    """3-D transposed convolution over ``(N, C_in, D, H, W)`` or ``(C_in, D, H, W)`` input.

    ``weight`` is ``(in_channels, out_channels / groups, kD, kH, kW)``.

    Example:
        >>> import unigrad as ug
        >>> up = ug.nn.ConvTranspose3d(2, 4, 2, stride=2, groups=2, bias=False)
        >>> up
        ConvTranspose3d(2, 4, kernel_size=(2, 2, 2), stride=(2, 2, 2), groups=2, bias=False)
        >>> up(ug.ones(1, 2, 2, 2, 2)).shape
        (1, 4, 4, 4, 4)
    """

    _rank = 3
    _function = staticmethod(conv_transpose3d)


class _LazyConvMixin(LazyModuleMixin):
    """What the lazy convolutions share: placeholder parameters until the first input gives
    ``in_channels`` (``input.shape[1]``, or ``input.shape[0]`` unbatched)."""

    def _create_parameters(self, weight_init, bias_init, dtype, device) -> None:
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if self.has_bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        else:
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        """Re-draw as the non-lazy layer does, once the parameters have their shapes."""
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def _in_channels_of(self, input: Tensor) -> int:
        rank, dims = self._rank, len(input.shape)
        if dims not in (rank + 1, rank + 2):
            raise RuntimeError(f"Expected {rank + 1}D (unbatched) or {rank + 2}D (batched) input "
                               f"to {type(self).__name__}, but got input of size: "
                               f"{list(input.shape)}")
        return int(input.shape[1] if dims == rank + 2 else input.shape[0])

    def _loaded_in_channels(self) -> int:
        """``in_channels`` implied by a weight loaded from a ``state_dict``."""
        if self.transposed:
            return int(self.weight.shape[0])
        return int(self.weight.shape[1]) * self.groups

    def initialize_parameters(self, input: Tensor, *args, **kwargs) -> None:
        """Take ``in_channels`` from ``input`` and materialize ``weight`` and ``bias``."""
        if not self.has_uninitialized_params():  # loaded from a state_dict: its shapes
            self.in_channels = self._loaded_in_channels()
            return
        in_channels = self._in_channels_of(input)
        if in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        self.in_channels = in_channels
        self.weight.materialize(self._weight_shape())
        if self.bias is not None:
            self.bias.materialize((self.out_channels,))
        self.reset_parameters()


class _LazyConvNd(_LazyConvMixin):
    """The lazy ``ConvNd`` constructor: PyTorch's ``ConvNd`` arguments less ``in_channels``."""

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None,
                 dtype=None):
        super().__init__(0, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype)
        self._lazy_setup()


class _LazyConvTransposeNd(_LazyConvMixin):
    """The lazy ``ConvTransposeNd`` constructor: its arguments less ``in_channels``."""

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros",
                 device=None, dtype=None):
        super().__init__(0, out_channels, kernel_size, stride, padding, output_padding, groups,
                         bias, dilation, padding_mode, device, dtype)
        self._lazy_setup()


class LazyConv1d(_LazyConvNd, Conv1d):
    """:class:`Conv1d` whose ``in_channels`` comes from the first input; it then becomes one.

    Example:
        >>> import unigrad as ug
        >>> conv = ug.nn.LazyConv1d(4, 3)
        >>> conv, conv.weight
        (LazyConv1d(0, 4, kernel_size=(3,), stride=(1,)), <UninitializedParameter>)
        >>> conv(ug.ones(2, 5, 8)).shape
        (2, 4, 6)
        >>> conv, conv.weight.shape
        (Conv1d(5, 4, kernel_size=(3,), stride=(1,)), (4, 5, 3))
    """

    cls_to_become = Conv1d


class LazyConv2d(_LazyConvNd, Conv2d):
    """:class:`Conv2d` whose ``in_channels`` comes from the first input; it then becomes one.

    Example:
        >>> import unigrad as ug
        >>> conv = ug.nn.LazyConv2d(4, 3, padding=1, groups=2, bias=False)
        >>> conv
        LazyConv2d(0, 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), groups=2, bias=False)
        >>> conv(ug.ones(6, 5, 5)).shape, conv.weight.shape
        ((4, 5, 5), (4, 3, 3, 3))
        >>> type(conv).__name__, conv.in_channels
        ('Conv2d', 6)
    """

    cls_to_become = Conv2d


class LazyConv3d(_LazyConvNd, Conv3d):
    """:class:`Conv3d` whose ``in_channels`` comes from the first input; it then becomes one.

    Example:
        >>> import unigrad as ug
        >>> conv = ug.nn.LazyConv3d(2, 1)
        >>> conv(ug.ones(1, 3, 2, 2, 2)).shape, conv.weight.shape
        ((1, 2, 2, 2, 2), (2, 3, 1, 1, 1))
    """

    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConvTransposeNd, ConvTranspose1d):
    """:class:`ConvTranspose1d` whose ``in_channels`` comes from the first input.

    Example:
        >>> import unigrad as ug
        >>> up = ug.nn.LazyConvTranspose1d(2, 3, stride=2)
        >>> up
        LazyConvTranspose1d(0, 2, kernel_size=(3,), stride=(2,))
        >>> up(ug.ones(1, 4, 5)).shape, up.weight.shape
        ((1, 2, 11), (4, 2, 3))
        >>> up
        ConvTranspose1d(4, 2, kernel_size=(3,), stride=(2,))
    """

    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTransposeNd, ConvTranspose2d):
    """:class:`ConvTranspose2d` whose ``in_channels`` comes from the first input.

    Example:
        >>> import unigrad as ug
        >>> up = ug.nn.LazyConvTranspose2d(2, 2, stride=2, bias=False)
        >>> up(ug.ones(3, 4, 4)).shape, up.weight.shape
        ((2, 8, 8), (3, 2, 2, 2))
    """

    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTransposeNd, ConvTranspose3d):
    """:class:`ConvTranspose3d` whose ``in_channels`` comes from the first input.

    Example:
        >>> import unigrad as ug
        >>> up = ug.nn.LazyConvTranspose3d(4, 2, groups=2)
        >>> up(ug.ones(1, 2, 2, 2, 2)).shape, up.weight.shape
        ((1, 4, 3, 3, 3), (2, 2, 2, 2, 2))
    """

    cls_to_become = ConvTranspose3d


__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
           "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d",
           "LazyConvTranspose2d", "LazyConvTranspose3d"]
