"""MindSpore's channel dropouts ``nn.Dropout1d/2d/3d(p=0.5)``: in training, each channel
of each sample is zeroed with probability ``p`` (the others scaled by ``1 / (1 - p)``);
outside training they return their input.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> drop = nn.Dropout2d(p=0.5).set_train(False)
    >>> print(drop(ms.ops.ones((1, 2, 1, 1), ms.float32)).asnumpy().ravel())
    [1. 1.]
"""

from __future__ import annotations

from ... import nn as _ugnn
from .nn import Cell

__all__ = ["Dropout1d", "Dropout2d", "Dropout3d"]


class _ChannelDropout(Cell):
    """MindSpore's check of ``p`` (a float in [0, 1])."""

    _base: type = _ugnn.Dropout2d

    def __init__(self, p: float = 0.5):
        owner = type(self).__name__
        if not isinstance(p, float):
            raise TypeError(f"For '{owner}', the type of 'p' should be 'float', but got type "
                            f"'{type(p).__name__}'.")
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"For '{owner}', the 'p' must be a number in range [0, 1], but "
                             f"got {p}.")
        self._base.__init__(self, p)

    def construct(self, x):
        if not self.training or self.p == 0:
            return x  # MindSpore checks nothing more outside training
        return self._base.construct(self, x)

    def extend_repr(self) -> str:
        # MindSpore 2.10 prints its keep probability under the name ``p``
        return f"p={1.0 - self.p}"


class Dropout1d(_ChannelDropout, _ugnn.Dropout1d):
    """``nn.Dropout1d(p=0.5)``: channel dropout of ``(N, C, L)`` inputs (``repr`` shows no
    arguments, as MindSpore's).

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> nn.Dropout1d(0.2).p
        0.2
    """

    _base = _ugnn.Dropout1d

    def extend_repr(self) -> str:
        return ""


class Dropout2d(_ChannelDropout, _ugnn.Dropout2d):
    """``nn.Dropout2d(p=0.5)``: channel dropout of ``(N, C, H, W)`` inputs (like
    MindSpore's, its ``repr`` shows the keep probability ``1 - p`` as ``p``).

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> nn.Dropout2d(0.25)
        Dropout2d(p=0.75)
    """


class Dropout3d(_ChannelDropout, _ugnn.Dropout3d):
    """``nn.Dropout3d(p=0.5)``: channel dropout of ``(N, C, D, H, W)`` inputs.

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> nn.Dropout3d(0.25).p
        0.25
    """

    _base = _ugnn.Dropout3d
