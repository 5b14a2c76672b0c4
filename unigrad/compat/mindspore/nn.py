"""``mindspore.nn``: Cells, layers, losses, training wrappers and optimizers.

:class:`Cell` is :class:`unigrad.nn.Cell` whose Parameters are MindSpore
Parameters and whose calls take and return MindSpore Tensors; every layer
here is the unigrad layer of the same name with that Cell mixed in (and
MindSpore's argument names). Optimizers take MindSpore's arguments
(``learning_rate``, ``beta1``...) and are called with gradients:
``optimizer(grads)``.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> class Net(nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc = nn.Dense(3, 1, has_bias=False)
    ...     def construct(self, x):
    ...         return self.fc(x)
    >>> net = Net()
    >>> net.fc.weight.set_data(ms.Tensor([[2, 3, 4]], ms.float32))
    Parameter (name=fc.weight, shape=(1, 3), dtype=Float32, requires_grad=True)
    >>> net(ms.Tensor([[1.0, 2.0, 3.0]]))
    Tensor(shape=[1, 1], dtype=Float32, value=
    [[2.00000000e+001]])
    >>> net
    Net<
      (fc): Dense<input_channels=3, output_channels=1>
      >
"""

from __future__ import annotations

from ... import nn as _ugnn
from ... import optim as _optim
from ._tensor import Parameter, ParameterTuple, to_ms
from .dtype import float32

__all__ = ["Cell", "Dense", "SequentialCell", "CellList", "ReLU", "Tanh", "Sigmoid", "GELU",
           "LeakyReLU", "Softmax", "LogSoftmax", "Flatten", "Dropout", "Identity", "MSELoss",
           "L1Loss", "SmoothL1Loss", "SoftmaxCrossEntropyWithLogits", "CrossEntropyLoss",
           "BCEWithLogitsLoss", "WithLossCell", "TrainOneStepCell",
           "TrainOneStepWithLossScaleCell", "DynamicLossScaleUpdateCell",
           "FixedLossScaleUpdateCell", "Optimizer", "SGD", "Momentum", "Adam", "Parameter",
           "ParameterTuple"]


def _ms_parameters(cell: _ugnn.Cell) -> None:
    for param in _ugnn.Cell.parameters(cell):
        to_ms(param)


class Cell(_ugnn.Cell):
    """MindSpore's ``nn.Cell``: subclass it and define ``construct``.

    Parameters assigned to it (directly or inside child Cells) become
    MindSpore Parameters named by their attribute path (``fc.weight``);
    calling it passes MindSpore Tensors to ``construct`` and returns
    MindSpore Tensors. ``repr`` is MindSpore's ``Name<...>``.
    """

    def __setattr__(self, name: str, value) -> None:
        if isinstance(value, _ugnn.Parameter):
            to_ms(value)
        elif isinstance(value, _ugnn.Cell):
            _ms_parameters(value)
        super().__setattr__(name, value)

    def __call__(self, *args, **kwargs):
        return to_ms(super().__call__(*to_ms(args), **to_ms(kwargs)))

    # the walks hand out MindSpore Parameters even for children registered by containers
    def parameters(self, recurse: bool = True):
        for param in super().parameters(recurse):
            yield to_ms(param)

    def get_parameters(self, expand: bool = True):
        """Every Parameter, trainable or not (MindSpore)."""
        return self.parameters(expand)

    def trainable_params(self, recurse: bool = True) -> list:
        """The Parameters with ``requires_grad=True``, as a list."""
        return [to_ms(p) for p in super().trainable_params(recurse)]

    def untrainable_params(self, recurse: bool = True) -> list:
        """The Parameters with ``requires_grad=False``, as a list."""
        return [to_ms(p) for p in super().untrainable_params(recurse)]

    def parameters_dict(self, recurse: bool = True) -> dict:
        """``{parameter.name: parameter}`` (MindSpore)."""
        return {p.name: p for p in self.parameters(recurse)}

    def insert_param_to_cell(self, param_name: str, param: Parameter,
                             check_name_contain_dot: bool = True) -> None:
        """Add ``param`` as the attribute ``param_name`` (MindSpore)."""
        if not isinstance(param_name, str) or (check_name_contain_dot and "." in param_name):
            raise KeyError(f"For 'insert_param_to_cell', the argument 'param_name' must be a "
                           f"str without '.', but got {param_name!r}")
        if not isinstance(param, _ugnn.Parameter):
            raise TypeError(f"For 'insert_param_to_cell', the argument 'param' must be a "
                            f"Parameter, but got {type(param).__name__}")
        setattr(self, param_name, param)

    def extend_repr(self) -> str:
        """Text shown inside this Cell's ``<...>`` in ``repr`` (MindSpore's name)."""
        return self.extra_repr()

    def __repr__(self) -> str:
        return _cell_repr(self)


def _cell_repr(cell: _ugnn.Cell) -> str:
    """MindSpore's ``Name<extra>`` text of a Cell, children (unigrad Cells too) indented."""
    extra = cell.extend_repr() if isinstance(cell, Cell) else cell.extra_repr()
    text = type(cell).__name__ + "<"
    children = [(name, child) for name, child in cell._cells.items() if child is not None]
    if not children:
        return text + extra + ">"
    body = "\n"
    if extra:
        body += extra + "\n"
    for name, child in children:
        body += f"({name}): {_cell_repr(child)}\n"
    return text + body.replace("\n", "\n  ") + ">"


# ------------------------------------------------------------------------------ layers

class Dense(Cell, _ugnn.Dense):
    """``nn.Dense(in_channels, out_channels, weight_init=None, bias_init=None,
    has_bias=True, activation=None, dtype=ms.float32)``: ``activation(x @ weight.T + bias)``,
    ``weight`` of shape ``(out_channels, in_channels)``."""

    def __init__(self, in_channels: int, out_channels: int, weight_init=None, bias_init=None,
                 has_bias: bool = True, activation=None, dtype=float32):
        _ugnn.Dense.__init__(self, in_channels, out_channels, weight_init, bias_init, has_bias,
                             activation, dtype)

    def extra_repr(self) -> str:
        text = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            text += f", has_bias={self.has_bias}"
        if self.activation_flag:
            activation = self.activation
            text += ", activation=" + (_cell_repr(activation) if isinstance(activation, _ugnn.Cell)
                                       else getattr(activation, "__name__", repr(activation)))
        return text


class SequentialCell(Cell, _ugnn.SequentialCell):
    """``nn.SequentialCell(*cells)`` or ``SequentialCell([cells])``: calls its cells in order."""


class CellList(Cell, _ugnn.CellList):
    """``nn.CellList(cells)``: a list of Cells registered as children."""


class ReLU(Cell, _ugnn.ReLU):
    """``nn.ReLU()``: max(x, 0)."""

    def __init__(self):
        _ugnn.ReLU.__init__(self)


class Tanh(Cell, _ugnn.Tanh):
    """``nn.Tanh()``: hyperbolic tangent."""


class Sigmoid(Cell, _ugnn.Sigmoid):
    """``nn.Sigmoid()``: 1 / (1 + exp(-x))."""


class GELU(Cell, _ugnn.GELU):
    """``nn.GELU(approximate=True)``: the GELU activation (tanh approximation by default,
    as in MindSpore)."""

    def __init__(self, approximate: bool = True):
        if not isinstance(approximate, bool):
            raise TypeError(f"For 'GELU', 'approximate' must be bool, but got "
                            f"{type(approximate).__name__}")
        _ugnn.GELU.__init__(self, "tanh" if approximate else "none")


class LeakyReLU(Cell, _ugnn.LeakyReLU):
    """``nn.LeakyReLU(alpha=0.2)``: x for x >= 0, ``alpha * x`` otherwise."""

    def __init__(self, alpha: float = 0.2):
        _ugnn.LeakyReLU.__init__(self, alpha)


class Softmax(Cell, _ugnn.Softmax):
    """``nn.Softmax(axis=-1)``: softmax along ``axis``."""

    def __init__(self, axis: int = -1):
        _ugnn.Softmax.__init__(self, axis=axis)


class LogSoftmax(Cell, _ugnn.LogSoftmax):
    """``nn.LogSoftmax(axis=-1)``: log-softmax along ``axis``."""

    def __init__(self, axis: int = -1):
        _ugnn.LogSoftmax.__init__(self, axis=axis)


class Flatten(Cell, _ugnn.Flatten):
    """``nn.Flatten(start_dim=1, end_dim=-1)``: merge axes ``start_dim..end_dim``."""


class Dropout(Cell, _ugnn.Dropout):
    """``nn.Dropout(keep_prob=None, p=None, dtype=ms.float32)``: zero elements with
    probability ``p`` (or ``1 - keep_prob``; 0.5 when neither is given) in training."""

    def __init__(self, keep_prob: float | None = None, p: float | None = None, dtype=float32):
        if keep_prob is not None and p is not None:
            raise ValueError("For 'Dropout', 'keep_prob' and 'p' can not be given at the same "
                             "time")
        if keep_prob is not None:
            _ugnn.Dropout.__init__(self, keep_prob=keep_prob)
        else:
            _ugnn.Dropout.__init__(self, 0.5 if p is None else p)

    def extra_repr(self) -> str:
        return f"p={self.p}"


class Identity(Cell, _ugnn.Identity):
    """``nn.Identity()``: returns its input."""


class MSELoss(Cell, _ugnn.MSELoss):
    """``nn.MSELoss(reduction='mean')``: mean squared error."""

    def __init__(self, reduction: str = "mean"):
        _ugnn.MSELoss.__init__(self, reduction)


class L1Loss(Cell, _ugnn.L1Loss):
    """``nn.L1Loss(reduction='mean')``: mean absolute error."""

    def __init__(self, reduction: str = "mean"):
        _ugnn.L1Loss.__init__(self, reduction)


class SmoothL1Loss(Cell, _ugnn.SmoothL1Loss):
    """``nn.SmoothL1Loss(beta=1.0, reduction='none')``: the Huber-like smooth L1 loss."""

    def __init__(self, beta: float = 1.0, reduction: str = "none"):
        _ugnn.SmoothL1Loss.__init__(self, reduction, beta)


class SoftmaxCrossEntropyWithLogits(Cell, _ugnn.SoftmaxCrossEntropyWithLogits):
    """``nn.SoftmaxCrossEntropyWithLogits(sparse=False, reduction='none')``."""


class CrossEntropyLoss(Cell, _ugnn.CrossEntropyLoss):
    """``nn.CrossEntropyLoss(weight=None, ignore_index=-100, reduction='mean',
    label_smoothing=0.0)``."""

    def __init__(self, weight=None, ignore_index: int = -100, reduction: str = "mean",
                 label_smoothing: float = 0.0):
        _ugnn.CrossEntropyLoss.__init__(self, weight, ignore_index, reduction, label_smoothing)


class BCEWithLogitsLoss(Cell, _ugnn.BCEWithLogitsLoss):
    """``nn.BCEWithLogitsLoss(reduction='mean', weight=None, pos_weight=None)``."""

    def __init__(self, reduction: str = "mean", weight=None, pos_weight=None):
        _ugnn.BCEWithLogitsLoss.__init__(self, weight, reduction, pos_weight=pos_weight)


# ------------------------------------------------------------------------------ wrappers

class WithLossCell(Cell, _ugnn.WithLossCell):
    """``nn.WithLossCell(backbone, loss_fn)``: ``loss_fn(backbone(data), label)``."""


class TrainOneStepCell(Cell, _ugnn.TrainOneStepCell):
    """``nn.TrainOneStepCell(network, optimizer, sens=None, return_grad=False)``: each call
    computes the loss, the gradients of ``optimizer.parameters`` and updates them;
    returns the loss."""


class TrainOneStepWithLossScaleCell(Cell, _ugnn.TrainOneStepWithLossScaleCell):
    """``nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense)``: a training
    step with loss scaling that skips the update on overflow; returns
    ``(loss, overflow, scale)``."""


class DynamicLossScaleUpdateCell(Cell, _ugnn.DynamicLossScaleUpdateCell):
    """``nn.DynamicLossScaleUpdateCell(loss_scale_value, scale_factor, scale_window)``."""


class FixedLossScaleUpdateCell(Cell, _ugnn.FixedLossScaleUpdateCell):
    """``nn.FixedLossScaleUpdateCell(loss_scale_value)``."""


# ------------------------------------------------------------------------------ optimizers

Optimizer = _optim.Optimizer
Momentum = _optim.Momentum


class SGD(_optim.SGD):
    """``nn.SGD(params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0,
    nesterov=False, loss_scale=1.0)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> nn.SGD([w], learning_rate=0.5)((ms.Tensor([1.0]),))
        True
        >>> print(w)
        Parameter (name=w, shape=(1,), dtype=Float32, requires_grad=True)
        >>> print(w.asnumpy())
        [0.5]
    """

    def __init__(self, params, learning_rate=0.1, momentum: float = 0.0,
                 dampening: float = 0.0, weight_decay: float = 0.0, nesterov: bool = False,
                 loss_scale: float = 1.0):
        super().__init__(params, momentum=momentum, dampening=dampening,
                         weight_decay=weight_decay, nesterov=nesterov,
                         learning_rate=learning_rate, loss_scale=loss_scale)


class Adam(_optim.Adam):
    """``nn.Adam(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
    use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0,
    use_amsgrad=False)``; ``use_nesterov=True`` is not supported (ValueError)."""

    def __init__(self, params, learning_rate=1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False,
                 weight_decay: float = 0.0, loss_scale: float = 1.0,
                 use_amsgrad: bool = False):
        if use_nesterov:
            raise ValueError("For 'Adam', use_nesterov=True is not supported by unigrad's Adam")
        super().__init__(params, eps=eps, weight_decay=weight_decay, learning_rate=learning_rate,
                         beta1=beta1, beta2=beta2, use_amsgrad=use_amsgrad,
                         loss_scale=loss_scale)
