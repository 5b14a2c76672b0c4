"""Pooling layers over the pooling functions (PyTorch's ``torch.nn`` pooling modules).

Max, average and power-average pools in 1, 2 and 3 dimensions, max unpooling,
adaptive average/max pools and fractional max pools. Arguments are checked
when the layer is built and kept as given (or as tuples where PyTorch keeps
tuples) for ``repr``.

Example:
    >>> import unigrad as ug
    >>> x = ug.arange(16.0).reshape(1, 1, 4, 4)
    >>> ug.nn.MaxPool2d(2)(x)
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
    >>> ug.nn.AvgPool2d(2, stride=2)(x)
    tensor([[[[ 2.5000,  4.5000],
              [10.5000, 12.5000]]]])
"""

from __future__ import annotations

import numbers

import numpy as np

from ...ops import nn_pooling as P
from ...tensor import Tensor
from ..cell import Cell
from ._common import int_tuple


def _window_tuple(value, rank: int, name: str, owner: str, minimum: int = 1) -> tuple:
    """A checked int or ``rank``-tuple as a tuple (a 1-tuple also fills every axis)."""
    if isinstance(value, (tuple, list)) and len(value) == 1 and rank > 1:
        value = value[0]
    return int_tuple(value, rank, name, owner, minimum)


class _PoolNd(Cell):
    """Shared argument checks; subclasses set ``_rank`` and the pooling ``_function``."""

    _rank = 2

    def _check_window(self, kernel_size, stride, padding=0, dilation=1) -> None:
        owner, rank = type(self).__name__, self._rank
        _window_tuple(kernel_size, rank, "kernel_size", owner)
        if stride is not None:
            _window_tuple(stride, rank, "stride", owner)
        _window_tuple(padding, rank, "padding", owner, minimum=0)
        _window_tuple(dilation, rank, "dilation", owner)


class _MaxPoolNd(_PoolNd):
    """Max pooling; padding counts as ``-inf``, ``return_indices`` also returns flat indices."""

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1,
                 return_indices: bool = False, ceil_mode: bool = False):
        super().__init__()
        self._check_window(kernel_size, stride, padding, dilation)
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = bool(return_indices)
        self.ceil_mode = bool(ceil_mode)

    def construct(self, input: Tensor) -> Tensor | tuple[Tensor, Tensor]:
        return type(self)._function(input, self.kernel_size, self.stride, self.padding,
                                    self.dilation, ceil_mode=self.ceil_mode,
                                    return_indices=self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    """1-D max pooling over ``(N, C, L)`` or ``(C, L)`` input.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.MaxPool1d(2)(ug.tensor([[[1.0, 3.0, 2.0, 0.0, 5.0]]]))
        tensor([[[3., 2.]]])
    """

    _rank = 1
    _function = staticmethod(P.max_pool1d)


class MaxPool2d(_MaxPoolNd):
    """2-D max pooling; padding counts as ``-inf``, ``return_indices`` gives flat indices.

    Example:
        >>> import unigrad as ug
        >>> pool = ug.nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True)
        >>> pool
        MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=True)
        >>> pool(ug.ones(1, 2, 6, 6)).shape
        (1, 2, 4, 4)
    """

    _rank = 2
    _function = staticmethod(P.max_pool2d)


class MaxPool3d(_MaxPoolNd):
    """3-D max pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Example:
        >>> import unigrad as ug
        >>> pool = ug.nn.MaxPool3d((1, 2, 2), return_indices=True)
        >>> output, indices = pool(ug.arange(8.0).reshape(1, 2, 2, 2))
        >>> output.flatten(), indices.flatten()
        (tensor([3., 7.]), tensor([3, 7]))
    """

    _rank = 3
    _function = staticmethod(P.max_pool3d)


class _AvgPoolNd(_PoolNd):
    """Average pooling (``count_include_pad``, ``divisor_override`` as in PyTorch)."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None):
        super().__init__()
        self._check_window(kernel_size, stride, padding)
        if divisor_override is not None and (isinstance(divisor_override, bool) or
                                             not isinstance(divisor_override, int) or
                                             divisor_override == 0):
            raise ValueError(f"divisor_override must be a non-zero int or None, "
                             f"got {divisor_override!r}")
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = bool(ceil_mode)
        self.count_include_pad = bool(count_include_pad)
        self.divisor_override = divisor_override

    def construct(self, input: Tensor) -> Tensor:
        return type(self)._function(input, self.kernel_size, self.stride, self.padding,
                                    self.ceil_mode, self.count_include_pad,
                                    self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    """1-D average pooling over ``(N, C, L)`` or ``(C, L)`` input.

    Example:
        >>> import unigrad as ug
        >>> pool = ug.nn.AvgPool1d(2)
        >>> pool
        AvgPool1d(kernel_size=(2,), stride=(2,), padding=(0,))
        >>> pool(ug.tensor([[[1.0, 3.0, 2.0, 0.0, 5.0]]]))
        tensor([[[2., 1.]]])
    """

    _rank = 1

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True):
        owner = type(self).__name__
        stride = kernel_size if stride is None else stride
        super().__init__(_window_tuple(kernel_size, 1, "kernel_size", owner),
                         _window_tuple(stride, 1, "stride", owner),
                         _window_tuple(padding, 1, "padding", owner, minimum=0), ceil_mode,
                         count_include_pad)

    def construct(self, input: Tensor) -> Tensor:
        return P.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class AvgPool2d(_AvgPoolNd):
    """2-D average pooling (``count_include_pad``, ``divisor_override`` as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> pool = ug.nn.AvgPool2d(2, padding=1, count_include_pad=False)
        >>> pool
        AvgPool2d(kernel_size=2, stride=2, padding=1)
        >>> pool(ug.ones(1, 1, 3, 3))
        tensor([[[[1., 1.],
                  [1., 1.]]]])
    """

    _rank = 2
    _function = staticmethod(P.avg_pool2d)


class AvgPool3d(_AvgPoolNd):
    """3-D average pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Example:
        >>> import unigrad as ug
        >>> pool = ug.nn.AvgPool3d(2, divisor_override=1)
        >>> pool
        AvgPool3d(kernel_size=2, stride=2, padding=0)
        >>> pool(ug.ones(1, 2, 2, 2))
        tensor([[[[8.]]]])
    """

    _rank = 3
    _function = staticmethod(P.avg_pool3d)


class _LPPoolNd(_PoolNd):
    """Power-average pooling: each window's ``(sum x ** norm_type) ** (1 / norm_type)``."""

    def __init__(self, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False):
        super().__init__()
        owner = type(self).__name__
        if isinstance(norm_type, bool) or not isinstance(norm_type, numbers.Real) or \
                norm_type == 0:
            raise ValueError(f"{owner}: norm_type must be a non-zero real number, "
                             f"got {norm_type!r}")
        self._check_window(kernel_size, stride)
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = bool(ceil_mode)

    def construct(self, input: Tensor) -> Tensor:
        return type(self)._function(input, float(self.norm_type), self.kernel_size, self.stride,
                                    self.ceil_mode)

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """1-D power-average pooling over ``(N, C, L)`` or ``(C, L)`` input.

    Example:
        >>> import unigrad as ug
        >>> pool = ug.nn.LPPool1d(2, 2)
        >>> pool
        LPPool1d(norm_type=2, kernel_size=2, stride=None, ceil_mode=False)
        >>> pool(ug.tensor([[3.0, 4.0, 6.0, 8.0]]))
        tensor([[ 5., 10.]])
    """

    _rank = 1
    _function = staticmethod(P.lp_pool1d)


class LPPool2d(_LPPoolNd):
    """2-D power-average pooling over ``(N, C, H, W)`` or ``(C, H, W)`` input.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.LPPool2d(1, 2)(ug.ones(1, 4, 4))
        tensor([[[4., 4.],
                 [4., 4.]]])
    """

    _rank = 2
    _function = staticmethod(P.lp_pool2d)


class LPPool3d(_LPPoolNd):
    """3-D power-average pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.LPPool3d(float("inf"), 2)(-ug.arange(8.0).reshape(1, 2, 2, 2))
        tensor([[[[7.]]]])
    """

    _rank = 3
    _function = staticmethod(P.lp_pool3d)


class _MaxUnpoolNd(_PoolNd):
    """Partial inverse of max pooling: ``forward(input, indices, output_size=None)``."""

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        owner, rank = type(self).__name__, self._rank
        self.kernel_size = _window_tuple(kernel_size, rank, "kernel_size", owner)
        self.stride = _window_tuple(stride if stride is not None else kernel_size, rank,
                                    "stride", owner)
        self.padding = _window_tuple(padding, rank, "padding", owner, minimum=0)

    def construct(self, input: Tensor, indices: Tensor, output_size=None) -> Tensor:
        return type(self)._function(input, indices, self.kernel_size, self.stride, self.padding,
                                    output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """Puts each value of a :class:`MaxPool1d` output back at its index, zeros elsewhere.

    Example:
        >>> import unigrad as ug
        >>> pool, unpool = ug.nn.MaxPool1d(2, return_indices=True), ug.nn.MaxUnpool1d(2)
        >>> unpool
        MaxUnpool1d(kernel_size=(2,), stride=(2,), padding=(0,))
        >>> unpool(*pool(ug.tensor([[[1.0, 5.0, 2.0, 4.0, 3.0]]])), output_size=[5])
        tensor([[[0., 5., 0., 4., 0.]]])
    """

    _rank = 1
    _function = staticmethod(P.max_unpool1d)


class MaxUnpool2d(_MaxUnpoolNd):
    """Partial inverse of :class:`MaxPool2d` over ``(N, C, H, W)`` or ``(C, H, W)``.

    Example:
        >>> import unigrad as ug
        >>> pool, unpool = ug.nn.MaxPool2d(2, return_indices=True), ug.nn.MaxUnpool2d(2)
        >>> unpool(*pool(ug.tensor([[[1.0, 2.0], [4.0, 3.0]]])))
        tensor([[[0., 0.],
                 [4., 0.]]])
    """

    _rank = 2
    _function = staticmethod(P.max_unpool2d)


class MaxUnpool3d(_MaxUnpoolNd):
    """Partial inverse of :class:`MaxPool3d` over ``(N, C, D, H, W)`` or ``(C, D, H, W)``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.MaxUnpool3d(2)(ug.ones(1, 1, 1, 1), ug.tensor([[[[0]]]])).sum()
        tensor(1.)
    """

    _rank = 3
    _function = staticmethod(P.max_unpool3d)


def _check_output_size(output_size, rank: int, owner: str) -> None:
    items = output_size if isinstance(output_size, (tuple, list)) else (output_size,)
    if isinstance(output_size, (tuple, list)) and len(items) not in (1, rank):
        raise ValueError(f"{owner}: output_size must be an int, None or a tuple of {rank} "
                         f"values, got {output_size!r}")
    for item in items:
        if item is not None and (isinstance(item, bool) or
                                 not isinstance(item, (int, np.integer)) or item < 0):
            raise ValueError(f"{owner}: output_size must hold non-negative ints or None, "
                             f"got {output_size!r}")


class _AdaptiveAvgPoolNd(_PoolNd):
    """Average pooling to a fixed ``output_size`` whatever the input size."""

    def __init__(self, output_size):
        super().__init__()
        _check_output_size(output_size, self._rank, type(self).__name__)
        self.output_size = output_size

    def construct(self, input: Tensor) -> Tensor:
        return type(self)._function(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """Adaptive average pooling of ``(N, C, L)`` or ``(C, L)`` to ``output_size``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.AdaptiveAvgPool1d(2)(ug.tensor([[1.0, 2.0, 3.0, 4.0, 5.0]]))
        tensor([[2., 4.]])
    """

    _rank = 1
    _function = staticmethod(P.adaptive_avg_pool1d)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """Adaptive average pooling of ``(N, C, H, W)`` or ``(C, H, W)`` (None keeps an axis).

    Example:
        >>> import unigrad as ug
        >>> pool = ug.nn.AdaptiveAvgPool2d((None, 1))
        >>> pool
        AdaptiveAvgPool2d(output_size=(None, 1))
        >>> pool(ug.arange(6.0).reshape(1, 2, 3))
        tensor([[[1.],
                 [4.]]])
    """

    _rank = 2
    _function = staticmethod(P.adaptive_avg_pool2d)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """Adaptive average pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.AdaptiveAvgPool3d(1)(ug.ones(2, 3, 4, 5, 6)).shape
        (2, 3, 1, 1, 1)
    """

    _rank = 3
    _function = staticmethod(P.adaptive_avg_pool3d)


class _AdaptiveMaxPoolNd(_PoolNd):
    """Max pooling to a fixed ``output_size``; ``return_indices`` also returns flat indices."""

    def __init__(self, output_size, return_indices: bool = False):
        super().__init__()
        _check_output_size(output_size, self._rank, type(self).__name__)
        self.output_size = output_size
        self.return_indices = bool(return_indices)

    def construct(self, input: Tensor) -> Tensor | tuple[Tensor, Tensor]:
        return type(self)._function(input, self.output_size, self.return_indices)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Adaptive max pooling of ``(N, C, L)`` or ``(C, L)`` to ``output_size``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.AdaptiveMaxPool1d(2, return_indices=True)(ug.tensor([[1.0, 3.0, 2.0]]))
        (tensor([[3., 3.]]), tensor([[1, 1]]))
    """

    _rank = 1
    _function = staticmethod(P.adaptive_max_pool1d)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Adaptive max pooling of ``(N, C, H, W)`` or ``(C, H, W)`` (None keeps an axis).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.AdaptiveMaxPool2d((1, None))(ug.arange(6.0).reshape(1, 2, 3))
        tensor([[[3., 4., 5.]]])
    """

    _rank = 2
    _function = staticmethod(P.adaptive_max_pool2d)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Adaptive max pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.AdaptiveMaxPool3d(1)(ug.arange(8.0).reshape(1, 2, 2, 2))
        tensor([[[[7.]]]])
    """

    _rank = 3
    _function = staticmethod(P.adaptive_max_pool3d)


class _FractionalMaxPoolNd(_PoolNd):
    """Fractional max pooling; ``_random_samples`` (a buffer) fixes the window offsets."""

    def __init__(self, kernel_size, output_size=None, output_ratio=None,
                 return_indices: bool = False, _random_samples=None):
        super().__init__()
        owner, rank = type(self).__name__, self._rank
        self.kernel_size = _window_tuple(kernel_size, rank, "kernel_size", owner)
        self.return_indices = bool(return_indices)
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = None if output_size is None else _window_tuple(
            output_size, rank, "output_size", owner)
        self.output_ratio = None if output_ratio is None else self._ratios(output_ratio)
        if output_size is None and output_ratio is None:
            raise ValueError(f"{owner} requires specifying either an output size, or a pooling "
                             f"ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def _ratios(self, output_ratio) -> tuple:
        if isinstance(output_ratio, (tuple, list)):
            ratios = tuple(output_ratio)
        else:
            ratios = (output_ratio,) * self._rank
        if len(ratios) != self._rank or not all(isinstance(r, numbers.Real) for r in ratios):
            raise ValueError(f"{type(self).__name__}: output_ratio must be a number or a tuple of "
                             f"{self._rank} numbers, got {output_ratio!r}")
        return ratios

    def construct(self, input: Tensor) -> Tensor | tuple[Tensor, Tensor]:
        return type(self)._function(input, self.kernel_size, self.output_size,
                                    self.output_ratio, self.return_indices,
                                    _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Fractional max pooling (Graham, 2014) of ``(N, C, H, W)`` or ``(C, H, W)``.

    Example:
        >>> import unigrad as ug
        >>> pool = ug.nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5))
        >>> pool(ug.randn(2, 4, 10, 10)).shape
        (2, 4, 5, 5)
    """

    _rank = 2
    _function = staticmethod(P.fractional_max_pool2d)


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Fractional max pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)``.

    Example:
        >>> import unigrad as ug
        >>> pool = ug.nn.FractionalMaxPool3d(2, output_size=(3, 3, 3))
        >>> pool(ug.randn(4, 6, 6, 6)).shape
        (4, 3, 3, 3)
    """

    _rank = 3
    _function = staticmethod(P.fractional_max_pool3d)


__all__ = [
    "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "LPPool1d",
    "LPPool2d", "LPPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d", "FractionalMaxPool2d", "FractionalMaxPool3d",
]
