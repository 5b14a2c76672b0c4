"""MindSpore's activation Cells missing from ``nn.py`` (``nn.ELU``, ``nn.HSwish``,
``nn.SiLU``...), each the unigrad activation under MindSpore's name and arguments
(``axis`` for ``dim``); like MindSpore, their ``repr`` shows no arguments (``ELU()``).

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> print(nn.HSwish()(ms.Tensor([-4.0, 0.0, 1.0, 4.0])))
    [0.        0.        0.6666667 4.       ]
"""

from __future__ import annotations

import numbers

from ... import nn as _ugnn
from ...nn import functional as _functional
from ...tensor import Tensor as _UgTensor
from ._tensor import Parameter, Tensor
from .common.initializer import initializer
from .nn import Cell

__all__ = ["ELU", "CELU", "HSwish", "HSigmoid", "SiLU", "ReLU6", "Mish", "Softsign",
           "LogSigmoid", "Tanhshrink", "Hardtanh", "SoftShrink", "HShrink", "Softmin", "GLU",
           "PReLU", "SeLU", "Threshold", "Softmax2d"]


class _Activation(Cell):
    """An activation Cell whose ``repr`` is just its name, as MindSpore prints them."""

    def extend_repr(self) -> str:
        return ""


class ELU(_Activation, _ugnn.ELU):
    """``nn.ELU(alpha=1.0)``: ``x`` where positive, ``alpha * (exp(x) - 1)`` elsewhere.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.ELU(alpha=2.0)(ms.Tensor([-100.0, 1.0])))
        [-2.  1.]
    """

    def __init__(self, alpha: float = 1.0):
        _ugnn.ELU.__init__(self, alpha)


class CELU(_Activation, _ugnn.CELU):
    """``nn.CELU(alpha=1.0)``: ``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.CELU(alpha=2.0)(ms.Tensor([-100.0, 1.0])))
        [-2.  1.]
    """

    def __init__(self, alpha: float = 1.0):
        _ugnn.CELU.__init__(self, alpha)


class HSwish(_Activation, _ugnn.Hardswish):
    """``nn.HSwish()``: ``x * relu6(x + 3) / 6``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.HSwish()(ms.Tensor([-1.0, 3.0])))
        [-0.33333334  3.        ]
    """

    def __init__(self):
        _ugnn.Hardswish.__init__(self)


class HSigmoid(_Activation, _ugnn.Hardsigmoid):
    """``nn.HSigmoid()``: ``relu6(x + 3) / 6``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.HSigmoid()(ms.Tensor([-4.0, 0.0, 4.0])))
        [0.  0.5 1. ]
    """

    def __init__(self):
        _ugnn.Hardsigmoid.__init__(self)


class SiLU(_Activation, _ugnn.SiLU):
    """``nn.SiLU()``: ``x * sigmoid(x)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.SiLU()(ms.Tensor([0.0, 1.0])))
        [0.        0.7310586]
    """

    def __init__(self):
        _ugnn.SiLU.__init__(self)


class ReLU6(_Activation, _ugnn.ReLU6):
    """``nn.ReLU6()``: ``min(max(x, 0), 6)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.ReLU6()(ms.Tensor([-1.0, 3.0, 9.0])))
        [0. 3. 6.]
    """

    def __init__(self):
        _ugnn.ReLU6.__init__(self)


class Mish(_Activation, _ugnn.Mish):
    """``nn.Mish()``: ``x * tanh(softplus(x))``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Mish()(ms.Tensor([0.0, 1.0])))
        [0.        0.8650984]
    """

    def __init__(self):
        _ugnn.Mish.__init__(self)


class Softsign(_Activation, _ugnn.Softsign):
    """``nn.Softsign()``: ``x / (1 + |x|)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Softsign()(ms.Tensor([-1.0, 3.0])))
        [-0.5   0.75]
    """

    def __init__(self):
        _ugnn.Softsign.__init__(self)


class LogSigmoid(_Activation, _ugnn.LogSigmoid):
    """``nn.LogSigmoid()``: ``log(sigmoid(x))``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.LogSigmoid()(ms.Tensor([0.0])))
        [-0.6931472]
    """

    def __init__(self):
        _ugnn.LogSigmoid.__init__(self)


class Tanhshrink(_Activation, _ugnn.Tanhshrink):
    """``nn.Tanhshrink()``: ``x - tanh(x)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Tanhshrink()(ms.Tensor([0.0, 1.0])))
        [0.         0.23840582]
    """

    def __init__(self):
        _ugnn.Tanhshrink.__init__(self)


class Hardtanh(_Activation, _ugnn.Hardtanh):
    """``nn.Hardtanh(min_val=-1.0, max_val=1.0)``: ``x`` clipped to ``[min_val, max_val]``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Hardtanh(-2.0, 2.0)(ms.Tensor([-3.0, 1.0, 3.0])))
        [-2.  1.  2.]
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0):
        _ugnn.Hardtanh.__init__(self, min_val, max_val)


class SoftShrink(_Activation, _ugnn.Softshrink):
    """``nn.SoftShrink(lambd=0.5)``: ``x -/+ lambd`` outside ``[-lambd, lambd]``, else 0.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.SoftShrink()(ms.Tensor([-1.0, 0.25, 2.0])))
        [-0.5  0.   1.5]
    """

    def __init__(self, lambd: float = 0.5):
        _ugnn.Softshrink.__init__(self, lambd)


class HShrink(_Activation, _ugnn.Hardshrink):
    """``nn.HShrink(lambd=0.5)``: ``x`` outside ``[-lambd, lambd]``, else 0.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.HShrink()(ms.Tensor([-1.0, 0.25, 2.0])))
        [-1.  0.  2.]
    """

    def __init__(self, lambd: float = 0.5):
        _ugnn.Hardshrink.__init__(self, lambd)


class Softmin(_Activation, _ugnn.Softmin):
    """``nn.Softmin(axis=-1)``: ``softmax(-x)`` along ``axis``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Softmin()(ms.Tensor([0.0, 0.0])))
        [0.5 0.5]
    """

    def __init__(self, axis: int = -1):
        _ugnn.Softmin.__init__(self, axis)


class GLU(_Activation, _ugnn.GLU):
    """``nn.GLU(axis=-1)``: the first half of ``x`` along ``axis`` times the sigmoid of the
    second half.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.GLU()(ms.Tensor([2.0, 0.0])))
        [1.]
    """

    def __init__(self, axis: int = -1):
        _ugnn.GLU.__init__(self, axis)


class SeLU(_Activation, _ugnn.SELU):
    """``nn.SeLU()``: ``scale * elu(x, alpha)`` with the self-normalizing constants
    (alpha 1.67326..., scale 1.05070...).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.SeLU()(ms.Tensor([0.0, 1.0])))
        [0.       1.050701]
    """

    def __init__(self):
        _ugnn.SELU.__init__(self)


class Threshold(_Activation, _ugnn.Threshold):
    """``nn.Threshold(threshold, value)``: ``x`` where ``x > threshold``, else ``value``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Threshold(1.0, -1.0)(ms.Tensor([0.5, 1.0, 2.0])))
        [-1. -1.  2.]
    """

    def __init__(self, threshold: float, value: float):
        _ugnn.Threshold.__init__(self, threshold, value)


class Softmax2d(_Activation, _ugnn.Softmax2d):
    """``nn.Softmax2d()``: softmax over the channel axis of ``(N, C, H, W)`` or
    ``(C, H, W)`` inputs.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.Softmax2d()(ms.ops.zeros((2, 1, 1), ms.float32)).asnumpy().ravel())
        [0.5 0.5]
    """

    def __init__(self):
        _ugnn.Softmax2d.__init__(self)


class PReLU(_Activation):
    """``nn.PReLU(channel=1, w=0.25)``: ``x`` where positive, ``w * x`` elsewhere, with one
    learnable slope per channel (axis 1), the Parameter ``w`` (a number or a Tensor of shape
    ``(channel,)``; MindSpore names it ``a`` when the layer stands alone).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> prelu = nn.PReLU(2, 0.1)
        >>> print(prelu(ms.Tensor([[-1.0, 2.0], [-3.0, -4.0]])))
        [[-0.1  2. ]
         [-0.3 -0.4]]
    """

    def __init__(self, channel: int = 1, w=0.25):
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, int) or channel < 1:
            raise ValueError(f"For 'PReLU', the 'channel' must be a positive int, but got "
                             f"{channel}.")
        if isinstance(w, bool) or not isinstance(w, (numbers.Real, _UgTensor)):
            raise TypeError(f"For 'PReLU', the 'w' must be a float or a Tensor, but got "
                            f"{type(w).__name__}.")
        slopes = initializer(w, (channel,)).asnumpy().copy()
        self.w = Parameter(Tensor(slopes), name="w")

    def construct(self, x):
        return _functional.prelu(x, self.w)
