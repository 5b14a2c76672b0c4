"""MindSpore's evaluation wrapper ``nn.WithEvalCell``.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> net = nn.WithEvalCell(nn.Dense(2, 1, weight_init="ones", bias_init=0.0), nn.MSELoss())
    >>> loss, outputs, label = net(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0]]))
    >>> print(loss, outputs)
    4.0 [[3.]]
"""

from __future__ import annotations

from .dtype import float32
from .nn import Cell

__all__ = ["WithEvalCell"]


class WithEvalCell(Cell):
    """``nn.WithEvalCell(network, loss_fn, add_cast_fp32=False)``: ``construct(data, label)``
    returns ``(loss_fn(outputs, label), outputs, label)`` for ``outputs = network(data)``
    (both cast to float32 first when ``add_cast_fp32``). Its Parameters keep the network's
    names (no ``_network.`` prefix).

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> nn.WithEvalCell(nn.Dense(2, 1), nn.MSELoss())._loss_fn
        MSELoss()
    """

    def __init__(self, network: Cell, loss_fn: Cell, add_cast_fp32: bool = False):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            label = label.astype(float32)
            outputs = outputs.astype(float32)
        return self._loss_fn(outputs, label), outputs, label
