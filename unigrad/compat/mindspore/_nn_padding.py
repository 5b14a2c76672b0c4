"""MindSpore's padding layers (``nn.ZeroPad2d``, ``nn.ConstantPad1d/2d/3d``,
``nn.ReflectionPad1d/2d/3d``, ``nn.ReplicationPad1d/2d/3d``): unigrad's layers with
MindSpore's argument checks; ``padding`` is an int or ``(left, right, top, bottom, ...)``
(negative amounts crop).

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> print(nn.ConstantPad1d((1, 0), -1.0)(ms.Tensor([[[0.0, 1.0]]])))
    [[[-1.  0.  1.]]]
"""

from __future__ import annotations

import numbers

from ... import nn as _ugnn
from .nn import Cell

__all__ = ["ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d",
           "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d"]


class _Pad(Cell):
    """MindSpore's check of ``padding`` (and ``value``); ``repr`` shows no arguments."""

    def _checked(self, padding, value=0.0):
        owner = type(self).__name__
        if isinstance(padding, tuple) and len(padding) % 2 != 0:
            raise ValueError(f"For '{owner}', the length of parameter 'padding' with tuple type "
                             f"must be a multiple of 2, but got {len(padding)}")
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"For '{owner}', the type of parameter 'value' must be in [int, "
                            f"float], but got {type(value)}")
        return padding

    def extend_repr(self) -> str:
        return ""


class _ConstantPad(_Pad):
    """``ConstantPadNd(padding, value)``: pads with ``value``."""

    _base: type = _ugnn.ConstantPad1d

    def __init__(self, padding, value: float):
        self._base.__init__(self, self._checked(padding, value), value)


class _ModePad(_Pad):
    """``ReflectionPadNd(padding)``/``ReplicationPadNd(padding)``/``ZeroPad2d(padding)``."""

    _base: type = _ugnn.ZeroPad2d

    def __init__(self, padding):
        self._base.__init__(self, self._checked(padding))


class ZeroPad2d(_ModePad, _ugnn.ZeroPad2d):
    """``nn.ZeroPad2d(padding)``: pads the last two axes with zeros.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.ZeroPad2d(1)(ms.ops.ones((1, 2, 2), ms.float32)).shape
        (1, 4, 4)
    """


class ConstantPad1d(_ConstantPad, _ugnn.ConstantPad1d):
    """``nn.ConstantPad1d(padding, value)``: pads the last axis with ``value``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.ConstantPad1d(2, 0.5)(ms.ops.ones((1, 2, 3), ms.float32)).shape
        (1, 2, 7)
    """


class ConstantPad2d(_ConstantPad, _ugnn.ConstantPad2d):
    """``nn.ConstantPad2d(padding, value)``: pads the last two axes with ``value``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.ConstantPad2d((1, 0, 2, 0), 0.5)(ms.ops.ones((1, 2, 3), ms.float32)).shape
        (1, 4, 4)
    """

    _base = _ugnn.ConstantPad2d


class ConstantPad3d(_ConstantPad, _ugnn.ConstantPad3d):
    """``nn.ConstantPad3d(padding, value)``: pads the last three axes with ``value``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.ConstantPad3d(1, 0.0)(ms.ops.ones((1, 1, 2, 2), ms.float32)).shape
        (1, 3, 4, 4)
    """

    _base = _ugnn.ConstantPad3d


class ReflectionPad1d(_ModePad, _ugnn.ReflectionPad1d):
    """``nn.ReflectionPad1d(padding)``: pads the last axis with its mirror image.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.ReflectionPad1d((1, 2))(ms.Tensor([[[0.0, 1.0, 2.0]]])))
        [[[1. 0. 1. 2. 1. 0.]]]
    """

    _base = _ugnn.ReflectionPad1d


class ReflectionPad2d(_ModePad, _ugnn.ReflectionPad2d):
    """``nn.ReflectionPad2d(padding)``: mirror padding of the last two axes.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.ReflectionPad2d(1)(ms.ops.ones((1, 3, 3), ms.float32)).shape
        (1, 5, 5)
    """

    _base = _ugnn.ReflectionPad2d


class ReflectionPad3d(_ModePad, _ugnn.ReflectionPad3d):
    """``nn.ReflectionPad3d(padding)``: mirror padding of the last three axes.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.ReflectionPad3d(1)(ms.ops.ones((1, 3, 3, 3), ms.float32)).shape
        (1, 5, 5, 5)
    """

    _base = _ugnn.ReflectionPad3d


class ReplicationPad1d(_ModePad, _ugnn.ReplicationPad1d):
    """``nn.ReplicationPad1d(padding)``: pads the last axis by repeating its edge values.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.ReplicationPad1d(1)(ms.Tensor([[[0.0, 1.0]]])))
        [[[0. 0. 1. 1.]]]
    """

    _base = _ugnn.ReplicationPad1d


class ReplicationPad2d(_ModePad, _ugnn.ReplicationPad2d):
    """``nn.ReplicationPad2d(padding)``: edge padding of the last two axes.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.ReplicationPad2d((1, 1, 0, 2))(ms.ops.ones((1, 2, 2), ms.float32)).shape
        (1, 4, 4)
    """

    _base = _ugnn.ReplicationPad2d


class ReplicationPad3d(_ModePad, _ugnn.ReplicationPad3d):
    """``nn.ReplicationPad3d(padding)``: edge padding of the last three axes.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> nn.ReplicationPad3d(1)(ms.ops.ones((1, 2, 2, 2), ms.float32)).shape
        (1, 4, 4, 4)
    """

    _base = _ugnn.ReplicationPad3d
