"""Pooling layers: ``MaxPool1d/2d`` and ``AvgPool1d/2d`` over the pooling functions.

The 1-D layers run the 2-D functions on the input with a unit height axis.

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

from ...ops.nn_convolution import avg_pool2d, max_pool2d
from ...ops.shape import squeeze, unsqueeze
from ...tensor import Tensor
from ..cell import Cell
from ._common import int_tuple


class _PoolNd(Cell):
    """Shared argument handling: values are checked, and kept as given for ``repr``."""

    _rank = 2

    def _set_window(self, kernel_size, stride, padding, dilation=1) -> None:
        owner, rank = type(self).__name__, self._rank
        int_tuple(kernel_size, rank, "kernel_size", owner)
        if stride is not None:
            int_tuple(stride, rank, "stride", owner)
        int_tuple(padding, rank, "padding", owner, minimum=0)
        int_tuple(dilation, rank, "dilation", owner)
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation

    def _lifted(self, input, name: str):
        """1-D input ``(N, C, L)`` or ``(C, L)`` with a unit height axis inserted."""
        if len(input.shape) not in (2, 3):
            raise RuntimeError(f"{name}() Expected 2D or 3D input tensor, but got "
                               f"{list(input.shape)}")
        return unsqueeze(input, -2)

    @staticmethod
    def _pair(value, fill: int):
        item = value[0] if isinstance(value, (tuple, list)) else value
        return (fill, item)


class MaxPool2d(_PoolNd):
    """2-D max pooling; padding counts as ``-inf``, ``return_indices`` gives flat indices.

    Example:
        >>> import unigrad as ug
        >>> pool = ug.nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True)
        >>> pool
        MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=True)
        >>> pool(ug.ones(1, 2, 6, 6)).shape
        (1, 2, 4, 4)
    """

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1,
                 return_indices: bool = False, ceil_mode: bool = False):
        super().__init__()
        self._set_window(kernel_size, stride, padding, dilation)
        self.return_indices = bool(return_indices)
        self.ceil_mode = bool(ceil_mode)

    def construct(self, input: Tensor) -> Tensor | tuple[Tensor, Tensor]:
        return max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                          ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class AvgPool2d(_PoolNd):
    """2-D average pooling (``count_include_pad``, ``divisor_override`` as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> pool = ug.nn.AvgPool2d(2, padding=1, count_include_pad=False)
        >>> pool
        AvgPool2d(kernel_size=2, stride=2, padding=1)
        >>> pool(ug.ones(1, 1, 2, 2))
        tensor([[[[1., 1.],
                  [1., 1.]]]])
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None):
        super().__init__()
        self._set_window(kernel_size, stride, padding)
        if divisor_override is not None and (isinstance(divisor_override, bool) or
                                             not isinstance(divisor_override, int) or
                                             divisor_override == 0):
            raise ValueError(f"divisor_override must be a non-zero int or None, "
                             f"got {divisor_override!r}")
        self.ceil_mode = bool(ceil_mode)
        self.count_include_pad = bool(count_include_pad)
        self.divisor_override = divisor_override

    def construct(self, input: Tensor) -> Tensor:
        return avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxPool1d(MaxPool2d):
    """1-D max pooling over ``(N, C, L)`` or ``(C, L)`` input.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.MaxPool1d(2)(ug.tensor([[[1.0, 3.0, 2.0, 0.0, 5.0]]]))
        tensor([[[3., 2.]]])
    """

    _rank = 1

    def construct(self, input: Tensor) -> Tensor | tuple[Tensor, Tensor]:
        result = max_pool2d(self._lifted(input, "max_pool1d"), self._pair(self.kernel_size, 1),
                            self._pair(self.stride, 1), self._pair(self.padding, 0),
                            self._pair(self.dilation, 1), ceil_mode=self.ceil_mode,
                            return_indices=self.return_indices)
        if self.return_indices:
            return squeeze(result[0], -2), squeeze(result[1], -2)
        return squeeze(result, -2)


class AvgPool1d(_PoolNd):
    """1-D average pooling over ``(N, C, L)`` or ``(C, L)`` input.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.AvgPool1d(2)(ug.tensor([[[1.0, 3.0, 2.0, 0.0, 5.0]]]))
        tensor([[[2., 1.]]])
    """

    _rank = 1

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True):
        super().__init__()
        self._set_window(kernel_size, stride, padding)
        self.ceil_mode = bool(ceil_mode)
        self.count_include_pad = bool(count_include_pad)

    def construct(self, input: Tensor) -> Tensor:
        result = avg_pool2d(self._lifted(input, "avg_pool1d"), self._pair(self.kernel_size, 1),
                            self._pair(self.stride, 1), self._pair(self.padding, 0),
                            self.ceil_mode, self.count_include_pad)
        return squeeze(result, -2)

    def extra_repr(self) -> str:
        return f"kernel_size={self._as_tuple(self.kernel_size)}, " \
               f"stride={self._as_tuple(self.stride)}, padding={self._as_tuple(self.padding)}"

    @staticmethod
    def _as_tuple(value):
        return tuple(value) if isinstance(value, (tuple, list)) else (value,)


__all__ = ["MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d"]
