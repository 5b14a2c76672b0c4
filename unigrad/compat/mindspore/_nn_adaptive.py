"""MindSpore's adaptive pooling layers ``nn.AdaptiveAvgPool1d/2d`` and
``nn.AdaptiveMaxPool1d/2d``, and the power-average pools ``nn.LPPool1d/2d``: unigrad's
layers, printed as MindSpore prints them (no arguments).

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> print(nn.AdaptiveAvgPool1d(2)(ms.Tensor([[[1.0, 2.0, 3.0, 4.0]]])))
    [[[1.5 3.5]]]
"""

from __future__ import annotations

from ... import nn as _ugnn
from .nn import Cell

__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "LPPool1d", "LPPool2d"]


class _Adaptive(Cell):
    """An adaptive pool whose ``repr`` shows no arguments, as MindSpore prints them."""

    def extend_repr(self) -> str:
        return ""


class _Adaptive1d(_Adaptive):
    """MindSpore's 1-d adaptive pools take ``(N, C, L)`` inputs whose ``L`` is a multiple of
    ``output_size`` (equal windows)."""

    def construct(self, x):
        prefix = f"For {type(self).__name__}, the"
        size = self.output_size
        if x.ndim != 3:
            raise ValueError(f"{prefix} input must has 3 dim, but got {x.ndim}.")
        if x.shape[2] < size:
            raise ValueError(f"{prefix} input's last dimension must be greater or equal to "
                             f"output size {size}, but got {x.shape[2]}.")
        if x.shape[2] % size != 0:
            raise ValueError(f"{prefix} input's last dimension must be divisible by output "
                             f"size {size}, but got {x.shape[2]}.")
        return super().construct(x)


class AdaptiveAvgPool1d(_Adaptive1d, _ugnn.AdaptiveAvgPool1d):
    """``nn.AdaptiveAvgPool1d(output_size)``: averages ``(N, C, L)`` inputs over
    ``output_size`` equal windows (``L`` must be a multiple of ``output_size``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.AdaptiveAvgPool1d(3)(ms.ops.ones((1, 2, 6), ms.float32)).shape
        (1, 2, 3)
    """

    def __init__(self, output_size: int):
        _ugnn.AdaptiveAvgPool1d.__init__(self, output_size)


class AdaptiveAvgPool2d(_Adaptive, _ugnn.AdaptiveAvgPool2d):
    """``nn.AdaptiveAvgPool2d(output_size)``: averages ``(N, C, H, W)`` (or ``(C, H, W)``)
    inputs to ``output_size`` (an int, or a pair whose ``None`` keeps that size).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.AdaptiveAvgPool2d((1, None))(ms.ops.ones((1, 2, 5, 4), ms.float32)).shape
        (1, 2, 1, 4)
    """

    def __init__(self, output_size):
        _ugnn.AdaptiveAvgPool2d.__init__(self, output_size)


class AdaptiveMaxPool1d(_Adaptive1d, _ugnn.AdaptiveMaxPool1d):
    """``nn.AdaptiveMaxPool1d(output_size)``: the maximum of ``output_size`` equal windows of
    ``(N, C, L)`` inputs (``L`` must be a multiple of ``output_size``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.AdaptiveMaxPool1d(2)(ms.Tensor([[[1.0, 4.0, 3.0, 2.0]]])))
        [[[4. 3.]]]
    """

    def __init__(self, output_size: int):
        _ugnn.AdaptiveMaxPool1d.__init__(self, output_size)


class AdaptiveMaxPool2d(_Adaptive, _ugnn.AdaptiveMaxPool2d):
    """``nn.AdaptiveMaxPool2d(output_size, return_indices=False)``: the maximum of each
    adaptive window (and the flat indices of the maxima with ``return_indices``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.AdaptiveMaxPool2d(1)(ms.Tensor([[[[1.0, 4.0], [3.0, 2.0]]]])))
        [[[[4.]]]]
    """

    def __init__(self, output_size, return_indices: bool = False):
        _ugnn.AdaptiveMaxPool2d.__init__(self, output_size, return_indices)


class LPPool1d(_Adaptive, _ugnn.LPPool1d):
    """``nn.LPPool1d(norm_type, kernel_size, stride=None, ceil_mode=False)``: the
    ``norm_type``-norm of each window, ``(sum x ** p) ** (1 / p)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.LPPool1d(2, 2)(ms.Tensor([[[3.0, 4.0, 0.0, 1.0]]])))
        [[[5. 1.]]]
    """

    def __init__(self, norm_type: float, kernel_size: int, stride: int | None = None,
                 ceil_mode: bool = False):
        _ugnn.LPPool1d.__init__(self, norm_type, kernel_size, stride, ceil_mode)


class LPPool2d(_Adaptive, _ugnn.LPPool2d):
    """``nn.LPPool2d(norm_type, kernel_size, stride=None, ceil_mode=False)``: the
    ``norm_type``-norm of each 2-d window.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.LPPool2d(2, 2)(ms.ops.ones((1, 2, 4, 4), ms.float32)).shape
        (1, 2, 2, 2)
    """

    def __init__(self, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False):
        _ugnn.LPPool2d.__init__(self, norm_type, kernel_size, stride, ceil_mode)
