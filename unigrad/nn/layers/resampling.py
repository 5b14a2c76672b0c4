"""Resampling layers: Upsample, PixelShuffle/PixelUnshuffle, ChannelShuffle, Fold/Unfold.

Each is PyTorch's module over the matching ``unigrad.nn.functional`` function,
with the same constructor arguments, attributes and ``extra_repr``.

Example:
    >>> import unigrad as ug
    >>> ug.nn.Upsample(scale_factor=2, mode="bilinear")
    Upsample(scale_factor=2.0, mode='bilinear')
    >>> ug.nn.PixelShuffle(2)(ug.zeros(1, 8, 3, 3)).shape
    (1, 2, 6, 6)
"""

from __future__ import annotations

from ...ops.nn_convolution import fold, unfold
from ...ops.nn_resampling import channel_shuffle, interpolate, pixel_shuffle, pixel_unshuffle
from ...tensor import Tensor
from ..cell import Cell


class Upsample(Cell):
    """Resize ``(N, C, *spatial)`` input by ``size`` or ``scale_factor`` (F.interpolate).

    Example:
        >>> import unigrad as ug
        >>> up = ug.nn.Upsample(size=(1, 3), mode="bilinear", align_corners=True)
        >>> up
        Upsample(size=(1, 3), mode='bilinear')
        >>> up(ug.tensor([[[[0.0, 2.0]]]]))
        tensor([[[[0., 1., 2.]]]])
    """

    def __init__(self, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                 recompute_scale_factor=None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, input: Tensor) -> Tensor:
        return interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                           recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            return f"scale_factor={self.scale_factor!r}, mode={self.mode!r}"
        return f"size={self.size!r}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """Nearest-neighbour 2-D upsampling (``Upsample(mode='nearest')``).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.UpsamplingNearest2d(scale_factor=2)(ug.ones(1, 1, 2, 2)).shape
        (1, 1, 4, 4)
    """

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Bilinear 2-D upsampling with ``align_corners=True``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.UpsamplingBilinear2d(size=(1, 3))(ug.tensor([[[[0.0, 4.0]]]]))
        tensor([[[[0., 2., 4.]]]])
    """

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class PixelShuffle(Cell):
    """``(*, C * r**2, H, W)`` -> ``(*, C, H * r, W * r)`` (F.pixel_shuffle).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.PixelShuffle(3)
        PixelShuffle(upscale_factor=3)
    """

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input: Tensor) -> Tensor:
        return pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Cell):
    """``(*, C, H * r, W * r)`` -> ``(*, C * r**2, H, W)`` (F.pixel_unshuffle).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.PixelUnshuffle(2)(ug.zeros(1, 1, 4, 6)).shape
        (1, 4, 2, 3)
    """

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def construct(self, input: Tensor) -> Tensor:
        return pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Cell):
    """Interleave channels across ``groups`` (F.channel_shuffle).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ChannelShuffle(2)(ug.arange(4.0).reshape(1, 4, 1)).flatten()
        tensor([0., 2., 1., 3.])
    """

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def construct(self, input: Tensor) -> Tensor:
        return channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


class Fold(Cell):
    """Sum sliding blocks ``(N, C * prod(kernel_size), L)`` into ``(N, C, *output_size)``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Fold(output_size=(3, 3), kernel_size=2)
        Fold(output_size=(3, 3), kernel_size=2, dilation=1, padding=0, stride=1)
    """

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def construct(self, input: Tensor) -> Tensor:
        return fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                    self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")


class Unfold(Cell):
    """Extract sliding blocks: ``(N, C, H, W)`` -> ``(N, C * prod(kernel_size), L)``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Unfold(kernel_size=(2, 3))
        Unfold(kernel_size=(2, 3), dilation=1, padding=0, stride=1)
        >>> ug.nn.Unfold(2)(ug.ones(1, 3, 4, 4)).shape
        (1, 12, 9)
    """

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def construct(self, input: Tensor) -> Tensor:
        return unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


__all__ = ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle",
           "PixelUnshuffle", "ChannelShuffle", "Fold", "Unfold"]
