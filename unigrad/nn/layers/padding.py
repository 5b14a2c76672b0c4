"""Padding layers: constant, zero, reflection, replication and circular padding
(1, 2 and 3 dimensions), PyTorch's ``nn.*Pad*d`` over ``F.pad``.

``padding`` is an int (the same on every side) or a sequence
``(left, right[, top, bottom[, front, back]])``, kept as PyTorch keeps it.

Example:
    >>> import unigrad as ug
    >>> ug.nn.ReflectionPad2d((1, 1, 2, 0))
    ReflectionPad2d((1, 1, 2, 0))
    >>> ug.nn.ReflectionPad1d(2)(ug.tensor([[0.0, 1.0, 2.0, 3.0]]))
    tensor([[2., 1., 0., 1., 2., 3., 2., 1.]])
"""

from __future__ import annotations

import numbers

import numpy as np

from ...ops.shape import pad
from ...tensor import Tensor
from ..cell import Cell


def _padding_tuple(padding, rank: int, owner: str) -> tuple:
    """An int repeated for both sides of ``rank`` dimensions, or a sequence as a tuple."""
    items = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * (2 * rank)
    if not all(isinstance(p, (int, np.integer)) and not isinstance(p, bool) for p in items):
        raise TypeError(f"{owner}: argument 'padding' must be an int or a tuple of ints, "
                        f"got {padding!r}")
    return tuple(int(p) for p in items)


class _PadNd(Cell):
    """One padding mode over ``rank`` trailing dimensions."""

    mode = "constant"
    rank = 1

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = _padding_tuple(padding, self.rank, type(self).__name__)

    def construct(self, input: Tensor) -> Tensor:
        return pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{type(self).__name__}: argument 'value' must be a real number, "
                            f"got {type(value).__name__}")
        super().__init__(padding)
        self.value = value

    def construct(self, input: Tensor) -> Tensor:
        return pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dimension with ``value``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ConstantPad1d((1, 2), 3.5)(ug.zeros(1, 2))
        tensor([[3.5000, 0.0000, 0.0000, 3.5000, 3.5000]])
    """

    rank = 1


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dimensions with ``value``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ConstantPad2d(1, -1.0)(ug.zeros(1, 1, 1)).shape
        (1, 3, 3)
        >>> ug.nn.ConstantPad2d(1, -1.0)
        ConstantPad2d(padding=(1, 1, 1, 1), value=-1.0)
    """

    rank = 2


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dimensions with ``value``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ConstantPad3d((1, 0, 0, 1, 2, 0), 0.5)(ug.zeros(1, 1, 1, 1)).shape
        (1, 3, 2, 2)
    """

    rank = 3


class _ZeroFill:
    """Constant padding with 0.0 (mixed in before a ConstantPad class, as PyTorch's
    ZeroPad subclasses ConstantPad)."""

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroFill, ConstantPad1d):
    """Pad the last dimension with zeros.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ZeroPad1d((2, 0))(ug.ones(1, 2))
        tensor([[0., 0., 1., 1.]])
    """


class ZeroPad2d(_ZeroFill, ConstantPad2d):
    """Pad the last two dimensions with zeros.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ZeroPad2d((1, 0, 0, 1))(ug.ones(1, 1, 1))
        tensor([[[0., 1.],
                 [0., 0.]]])
    """


class ZeroPad3d(_ZeroFill, ConstantPad3d):
    """Pad the last three dimensions with zeros.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ZeroPad3d(1)(ug.ones(1, 1, 1, 1)).shape
        (1, 3, 3, 3)
    """


class ReflectionPad1d(_PadNd):
    """Pad the last dimension with its reflection (the edge is not repeated).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ReflectionPad1d((1, 2))(ug.tensor([[0.0, 1.0, 2.0]]))
        tensor([[1., 0., 1., 2., 1., 0.]])
    """

    mode = "reflect"
    rank = 1


class ReflectionPad2d(_PadNd):
    """Pad the last two dimensions with their reflection.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ReflectionPad2d(1)(ug.arange(4.0).reshape(1, 2, 2))
        tensor([[[3., 2., 3., 2.],
                 [1., 0., 1., 0.],
                 [3., 2., 3., 2.],
                 [1., 0., 1., 0.]]])
    """

    mode = "reflect"
    rank = 2


class ReflectionPad3d(_PadNd):
    """Pad the last three dimensions with their reflection.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ReflectionPad3d(1)(ug.ones(1, 2, 2, 2)).shape
        (1, 4, 4, 4)
    """

    mode = "reflect"
    rank = 3


class ReplicationPad1d(_PadNd):
    """Pad the last dimension by repeating its edge values.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ReplicationPad1d((2, 1))(ug.tensor([[1.0, 2.0]]))
        tensor([[1., 1., 1., 2., 2.]])
    """

    mode = "replicate"
    rank = 1


class ReplicationPad2d(_PadNd):
    """Pad the last two dimensions by repeating their edge values.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ReplicationPad2d((1, 0, 0, 1))(ug.tensor([[[1.0, 2.0]]]))
        tensor([[[1., 1., 2.],
                 [1., 1., 2.]]])
    """

    mode = "replicate"
    rank = 2


class ReplicationPad3d(_PadNd):
    """Pad the last three dimensions by repeating their edge values.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.ReplicationPad3d(1)(ug.ones(1, 1, 1, 1)).shape
        (1, 3, 3, 3)
    """

    mode = "replicate"
    rank = 3


class _CircularPadNd(_PadNd):
    mode = "circular"

    def construct(self, input: Tensor) -> Tensor:
        ndim = len(input.shape)
        if ndim not in (self.rank + 1, self.rank + 2):
            raise ValueError(f"expected {self.rank + 1}D or {self.rank + 2}D input (got {ndim}D "
                             f"input)")
        return super().construct(input)


class CircularPad1d(_CircularPadNd):
    """Pad the last dimension by wrapping around (periodic padding).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.CircularPad1d(1)(ug.tensor([[1.0, 2.0, 3.0]]))
        tensor([[3., 1., 2., 3., 1.]])
    """

    rank = 1


class CircularPad2d(_CircularPadNd):
    """Pad the last two dimensions by wrapping around.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.CircularPad2d((1, 0, 1, 0))(ug.arange(4.0).reshape(1, 2, 2))
        tensor([[[3., 2., 3.],
                 [1., 0., 1.],
                 [3., 2., 3.]]])
    """

    rank = 2


class CircularPad3d(_CircularPadNd):
    """Pad the last three dimensions by wrapping around.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.CircularPad3d(1)(ug.ones(1, 1, 2, 2, 2)).shape
        (1, 1, 4, 4, 4)
    """

    rank = 3


__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d",
           "CircularPad2d", "CircularPad3d"]
