"""MindSpore's rearranging and resampling layers ``nn.PixelShuffle``, ``nn.PixelUnshuffle``,
``nn.Unflatten`` and ``nn.Upsample``: unigrad's layers under MindSpore's argument names,
printed as MindSpore prints them (no arguments).

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> nn.PixelShuffle(2)(ms.ops.ones((1, 8, 3, 3), ms.float32)).shape
    (1, 2, 6, 6)
"""

from __future__ import annotations

from ... import nn as _ugnn
from .nn import Cell

__all__ = ["PixelShuffle", "PixelUnshuffle", "Unflatten", "Upsample", "ChannelShuffle"]


class _Plain(Cell):
    """A layer whose ``repr`` shows no arguments, as MindSpore prints these."""

    def extend_repr(self) -> str:
        return ""


class PixelShuffle(_Plain, _ugnn.PixelShuffle):
    """``nn.PixelShuffle(upscale_factor)``: ``(N, C * r * r, H, W)`` to
    ``(N, C, H * r, W * r)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.PixelShuffle(2)(ms.Tensor([[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]])))
        [[[[1. 2.]
           [3. 4.]]]]
    """

    def __init__(self, upscale_factor: int):
        _ugnn.PixelShuffle.__init__(self, upscale_factor)


class PixelUnshuffle(_Plain, _ugnn.PixelUnshuffle):
    """``nn.PixelUnshuffle(downscale_factor)``: the inverse of :class:`PixelShuffle`.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.PixelUnshuffle(2)(ms.ops.ones((1, 2, 6, 6), ms.float32)).shape
        (1, 8, 3, 3)
    """

    def __init__(self, downscale_factor: int):
        _ugnn.PixelUnshuffle.__init__(self, downscale_factor)


class ChannelShuffle(_Plain, _ugnn.ChannelShuffle):
    """``nn.ChannelShuffle(groups)``: splits the channels into ``groups`` and interleaves
    them.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> x = ms.Tensor([[[[0.0]], [[1.0]], [[2.0]], [[3.0]]]])
        >>> print(nn.ChannelShuffle(2)(x).asnumpy().ravel())
        [0. 2. 1. 3.]
    """

    def __init__(self, groups: int):
        _ugnn.ChannelShuffle.__init__(self, groups)


class Unflatten(_Plain, _ugnn.Unflatten):
    """``nn.Unflatten(axis, unflattened_size)``: splits axis ``axis`` into
    ``unflattened_size``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.Unflatten(1, (2, 3))(ms.ops.ones((4, 6), ms.float32)).shape
        (4, 2, 3)
    """

    def __init__(self, axis: int, unflattened_size):
        _ugnn.Unflatten.__init__(self, axis, unflattened_size)


# the (mode, rank) pairs MindSpore's interpolation runs, with the options each accepts
_SUPPORTED = {"nearest": {3: (), 4: (), 5: ("scale_factor",)},
              "linear": {3: ("align_corners",)},
              "bilinear": {4: ("align_corners",)},
              "bicubic": {4: ("align_corners",)},
              "area": {3: ("scale_factor",), 4: ("scale_factor",), 5: ("scale_factor",)},
              "nearest-exact": {3: (), 4: ()},
              "trilinear": {5: ("align_corners", "scale_factor")}}


def _check_interpolation(mode: str, rank: int, scale_factor, align_corners,
                         recompute_scale_factor) -> None:
    """MindSpore's refusals of mode/rank/option combinations (ValueError, its messages)."""
    if mode not in _SUPPORTED:
        raise ValueError(f"For 'interpolate', 'mode' must be in '{list(_SUPPORTED)}', but got "
                         f"{mode}")
    ranks = _SUPPORTED[mode]
    if rank not in ranks:
        raise ValueError(f"For 'interpolate', {mode} only support '{list(ranks)}'D, but got "
                         f"{rank}D")
    computes_size = bool(recompute_scale_factor) or mode == "area"
    if scale_factor is not None and not computes_size and "scale_factor" not in ranks[rank]:
        raise ValueError(f"For 'interpolate', 'scale_factor' option cannot currently be set "
                         f"with the mode = {mode} and dim = {rank}D.")
    if align_corners is not None and "align_corners" not in ranks[rank]:
        raise ValueError(f"For 'interpolate', 'align_corners' option cannot currently be set "
                         f"with the mode = {mode}, and dim = {rank}D")


class Upsample(_Plain, _ugnn.Upsample):
    """``nn.Upsample(size=None, scale_factor=None, mode='nearest', align_corners=None,
    recompute_scale_factor=None)``: resizes the spatial axes to ``size`` or by
    ``scale_factor`` (``'nearest'``, ``'linear'``, ``'bilinear'``, ``'bicubic'``,
    ``'trilinear'``...). As in MindSpore, ``scale_factor`` is refused for ``'nearest'`` on
    3-d/4-d inputs (give ``size``, or ``recompute_scale_factor=True``), and
    ``align_corners`` is only for the linear modes.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Upsample(size=4)(ms.Tensor([[[1.0, 2.0]]])))
        [[[1. 1. 2. 2.]]]
    """

    def __init__(self, size=None, scale_factor=None, mode: str = "nearest",
                 align_corners: bool | None = None, recompute_scale_factor=None):
        _ugnn.Upsample.__init__(self, size, scale_factor, mode, align_corners,
                                recompute_scale_factor)

    def construct(self, x):
        _check_interpolation(self.mode, x.ndim, self.scale_factor, self.align_corners,
                             self.recompute_scale_factor)
        return _ugnn.Upsample.construct(self, x)
