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
    Net(
      (fc): Dense(input_channels=3, output_channels=1)
    )
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from ... import nn as _ugnn
from ... import optim as _optim
from ...optim.optimizer import check_bool, check_number, step_tensor
from ._tensor import Parameter, ParameterTuple, to_ms
from ._transforms import GradOperation, check_hook_fn
from .common.initializer import initializer as _ms_initializer
from .dtype import float32

__all__ = ["Cell", "Dense", "SequentialCell", "CellList", "ReLU", "Tanh", "Sigmoid", "GELU",
           "LeakyReLU", "Softmax", "LogSoftmax", "Flatten", "Dropout", "Identity", "MSELoss",
           "L1Loss", "SmoothL1Loss", "SoftmaxCrossEntropyWithLogits", "CrossEntropyLoss",
           "BCEWithLogitsLoss", "WithLossCell", "TrainOneStepCell",
           "TrainOneStepWithLossScaleCell", "DynamicLossScaleUpdateCell",
           "FixedLossScaleUpdateCell", "Optimizer", "SGD", "Momentum", "Adam", "AdamWeightDecay",
           "RMSProp", "Adagrad", "Adadelta", "AdaMax", "ASGD", "Rprop", "Lamb", "LARS", "Parameter",
           "ParameterTuple", "ForwardValueAndGrad"]


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

    _starts_training = False  # a new Cell is in evaluation mode until set_train()

    def __setattr__(self, name: str, value) -> None:
        if isinstance(value, _ugnn.Parameter):
            to_ms(value)
        elif isinstance(value, _ugnn.Cell):
            _ms_parameters(value)
        super().__setattr__(name, value)

    def to_float(self, dst_type) -> Cell:
        """``Cell.to_float(dst_type)``: this Cell and the Cells inside it compute in
        ``dst_type`` (``ms.float16``/``ms.float32``); Parameters stay float32. Returns the Cell.

        Example:
            >>> import unigrad.compat.mindspore as ms
            >>> from unigrad.compat.mindspore import nn
            >>> nn.Dense(2, 1).to_float(ms.float16)(ms.Tensor([[0.1, 0.2]])).dtype
            mindspore.float16
        """
        from .amp import cell_to_float
        return cell_to_float(self, dst_type)

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
        """Text shown inside this Cell's ``(...)`` in ``repr``: none by default; layers and
        your own Cells override it (MindSpore's name for PyTorch's ``extra_repr``)."""
        return ""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if "bprop" in vars(cls):
            cls.bprop = _input_gradients_of(vars(cls)["bprop"])

    def register_forward_pre_hook(self, hook_fn: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False):
        """``hook_fn(cell, inputs)`` runs before ``construct`` and may return replacement
        inputs (``hook_fn(cell, args, kwargs)`` returning ``(args, kwargs)`` with
        ``with_kwargs``); returns a handle whose ``remove()`` unregisters it.

        Example:
            >>> from unigrad.compat.mindspore import nn
            >>> import unigrad.compat.mindspore as ms
            >>> cell = nn.ReLU()
            >>> handle = cell.register_forward_pre_hook(lambda cell, inputs: (inputs[0] * -1,))
            >>> cell(ms.Tensor([-2.0]))
            Tensor(shape=[1], dtype=Float32, value= [2.00000000e+000])
            >>> handle.remove()
        """
        return super().register_forward_pre_hook(_ms_hook(hook_fn), prepend=prepend,
                                                 with_kwargs=with_kwargs)

    def register_forward_hook(self, hook_fn: Callable, *, prepend: bool = False,
                              with_kwargs: bool = False, always_call: bool = False):
        """``hook_fn(cell, inputs, outputs)`` runs after ``construct`` and may return
        replacement outputs (``hook_fn(cell, args, kwargs, outputs)`` with ``with_kwargs``;
        ``always_call`` runs it even when ``construct`` raises).

        Example:
            >>> from unigrad.compat.mindspore import nn
            >>> import unigrad.compat.mindspore as ms
            >>> cell = nn.ReLU()
            >>> handle = cell.register_forward_hook(lambda cell, inputs, outputs: outputs + 1)
            >>> cell(ms.Tensor([-2.0]))
            Tensor(shape=[1], dtype=Float32, value= [1.00000000e+000])
        """
        return super().register_forward_hook(_ms_hook(hook_fn), prepend=prepend,
                                             with_kwargs=with_kwargs, always_call=always_call)

    def register_backward_hook(self, hook_fn: Callable):
        """``hook_fn(cell, grad_input, grad_output)`` runs when the gradients of the Cell's
        inputs are known (tuples, one entry per input and per output); it may return a
        replacement ``grad_input`` tuple.

        Example:
            >>> from unigrad.compat.mindspore import nn
            >>> import unigrad.compat.mindspore as ms
            >>> cell = nn.ReLU()
            >>> handle = cell.register_backward_hook(
            ...     lambda cell, grad_input, grad_output: (grad_input[0] * 10,))
            >>> ms.grad(cell)(ms.Tensor([1.0, -1.0]))
            Tensor(shape=[2], dtype=Float32, value= [1.00000000e+001, 0.00000000e+000])
        """
        return self.register_full_backward_hook(_ms_hook(hook_fn))

    def register_backward_pre_hook(self, hook_fn: Callable):
        """``hook_fn(cell, grad_output)`` runs when the gradients of the Cell's outputs are
        known, before its inputs' are computed; it may return a replacement ``grad_output``.

        Example:
            >>> from unigrad.compat.mindspore import nn
            >>> import unigrad.compat.mindspore as ms
            >>> cell = nn.ReLU()
            >>> handle = cell.register_backward_pre_hook(
            ...     lambda cell, grad_output: (grad_output[0] * 3,))
            >>> ms.grad(cell)(ms.Tensor([1.0, -1.0]))
            Tensor(shape=[2], dtype=Float32, value= [3.00000000e+000, 0.00000000e+000])
        """
        return self.register_full_backward_pre_hook(_ms_hook(hook_fn))

    def __repr__(self) -> str:
        return _cell_repr(self)


class ForwardValueAndGrad(Cell):
    """``ForwardValueAndGrad(network, weights=None, get_all=False, get_by_list=False,
    sens_param=False)``: a Cell whose call returns ``(network(*inputs), grads)``, the
    gradients structured as ``ops.GradOperation(get_all, get_by_list, sens_param)``'s
    (with ``sens_param`` the last input is the sensitivity).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> dense = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
        >>> loss, grads = nn.ForwardValueAndGrad(dense, weights=dense.trainable_params(),
        ...                                      get_by_list=True)(ms.Tensor([[1.0, 2.0]]))
        >>> print(loss, grads[0], grads[1])
        [[3.]] [[1. 2.]] [1.]
    """

    def __init__(self, network, weights=None, get_all: bool = False, get_by_list: bool = False,
                 sens_param: bool = False):
        super().__init__(auto_prefix=False)
        _check_forward_value_and_grad(network, weights, get_all, get_by_list)
        self.network = network
        self.weights = weights
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list,
                                  sens_param=sens_param)

    def construct(self, *inputs):
        loss = self.network(*(inputs[:-1] if self.sens_param else inputs))
        weights = self.weights if self.get_by_list else None
        return loss, self.grad(self.network, weights)(*inputs)


def _check_forward_value_and_grad(network, weights, get_all, get_by_list) -> None:
    prefix = "For 'ForwardValueAndGrad', "
    if not callable(network):
        raise TypeError(f"{prefix}the argument 'network' must be cell, function type or method "
                        f"type, but got '{type(network)}'")
    for name, flag in (("get_all", get_all), ("get_by_list", get_by_list)):
        if not isinstance(flag, bool):
            raise TypeError(f"{prefix}the type of '{name}' must be bool, but got '{type(flag)}'")
    if get_by_list and not isinstance(weights, (tuple, list, ParameterTuple)):
        raise TypeError(f"{prefix}when 'get_by_list' is set to True, the argument 'weights' "
                        f"must be Parameters array, but got '{type(weights)}'")


def _ms_hook(hook_fn: Callable) -> Callable:
    """``hook_fn`` seeing MindSpore Tensors (the engine hands it unigrad ones)."""
    check_hook_fn(hook_fn)

    @functools.wraps(hook_fn)
    def call(cell, *values):
        return hook_fn(cell, *to_ms(values))
    return call


def _input_gradients_of(bprop: Callable) -> Callable:
    """A Cell's ``bprop`` returning only its inputs' gradients: MindSpore's
    ``return (dx,), {param: dparam}`` form is accepted and, as in PyNative mode, the
    Parameters' entries are dropped (they get no gradient through the Cell)."""
    @functools.wraps(bprop)
    def call(*args):
        result = bprop(*to_ms(args))
        if isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], dict):
            return result[0]
        return result
    return call


def _cell_repr(cell: _ugnn.Cell) -> str:
    """MindSpore's ``Name(extra)`` text of a Cell: a one-line extra stays on the name's line,
    otherwise the extra lines and the children (unigrad Cells too) are indented below."""
    extra = cell.extend_repr() if isinstance(cell, Cell) else cell.extra_repr()
    extra_lines = extra.split("\n") if extra else []
    child_lines = [f"({name}): " + _cell_repr(child).replace("\n", "\n  ")
                   for name, child in cell._cells.items() if child is not None]
    if len(extra_lines) == 1 and not child_lines:
        return f"{type(cell).__name__}({extra_lines[0]})"
    lines = extra_lines + child_lines
    if not lines:
        return f"{type(cell).__name__}()"
    return f"{type(cell).__name__}(\n  " + "\n  ".join(lines) + "\n)"


# ------------------------------------------------------------------------------ layers

class Dense(Cell, _ugnn.Dense):
    """``nn.Dense(in_channels, out_channels, weight_init=None, bias_init=None,
    has_bias=True, activation=None, dtype=ms.float32)``: ``activation(x @ weight.T + bias)``,
    ``weight`` of shape ``(out_channels, in_channels)``."""

    def __init__(self, in_channels: int, out_channels: int, weight_init=None, bias_init=None,
                 has_bias: bool = True, activation=None, dtype=float32):
        if weight_init is not None:  # MindSpore's initializers, names and Tensors
            weight_init = _ms_initializer(weight_init, (out_channels, in_channels), dtype)
        if has_bias and bias_init is not None:
            bias_init = _ms_initializer(bias_init, (out_channels,), dtype)
        _ugnn.Dense.__init__(self, in_channels, out_channels, weight_init, bias_init, has_bias,
                             activation, dtype)

    def extend_repr(self) -> str:
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
    """``nn.Dropout(keep_prob=0.5, p=None, dtype=ms.float32)``: in training, zeroes elements
    with probability ``p`` when it is given (``keep_prob`` is then ignored), else
    ``1 - keep_prob``; the others are scaled by ``1 / (1 - rate)``.

    Raises:
        TypeError: When ``keep_prob`` is not a float or ``p`` not a number.
        ValueError: When ``keep_prob`` is outside ``(0, 1]`` or ``p`` outside ``[0, 1)``.
    """

    def __init__(self, keep_prob: float = 0.5, p: float | None = None, dtype=float32):
        if p is None:
            if not isinstance(keep_prob, float):
                raise TypeError(f"For 'Dropout', the type of 'keep_prob' should be 'float', but "
                                f"got type '{type(keep_prob).__name__}'.")
            if keep_prob <= 0 or keep_prob > 1:
                raise ValueError(f"For 'Dropout', the 'keep_prob' must be a number in range "
                                 f"(0, 1], but got {keep_prob}.")
            rate = 1.0 - keep_prob
        else:
            if isinstance(p, bool) or not isinstance(p, (float, int)):
                raise TypeError(f"For 'Dropout', the type of 'p' should be one of "
                                f"'['float', 'int']', but got type '{type(p).__name__}'.")
            if p < 0 or p >= 1:
                raise ValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1), "
                                 f"but got {p}.")
            rate = p
        _ugnn.Dropout.__init__(self, rate)
        self.keep_prob, self._p_given = keep_prob, p is not None

    def extend_repr(self) -> str:
        return f"p={self.p}" if self._p_given else f"keep_prob={self.keep_prob}"


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


def _float32_values(values: tuple) -> tuple:
    """``values`` rounded to float32: MindSpore keeps ``beta1``/``beta2`` in float32 tensors,
    so ``1 - beta2`` is that of the float32 number."""
    return tuple(float(np.float32(value)) for value in values)


class _MindSporeRule:
    """MindSpore's order of work, mixed into a native optimizer: ``weight_decay * param`` is
    added to each gradient first (with a flat parameter list, not to Parameters named
    ``beta``/``gamma``), then the update rule runs without weight decay of its own."""

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        decay = float(group.get("weight_decay", 0.0))
        if decay != 0:
            grads = [grad.add(param, alpha=decay) if _optim.Momentum._decays(self, param)
                     else grad for param, grad in zip(params, grads)]
        self._rule({**group, "weight_decay": 0.0}, params, grads, lr)

    def _rule(self, group: dict, params: list, grads: list, lr: float) -> None:
        """The update rule after weight decay: the native one unless overridden."""
        super()._update_group(group, params, grads, lr)


class SGD(_MindSporeRule, _optim.SGD):
    """``nn.SGD(params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0,
    nesterov=False, loss_scale=1.0)``: PyTorch's rule, with MindSpore's weight decay
    (added to the gradients, not to Parameters named ``beta``/``gamma`` in a flat list).

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


class Adam(_MindSporeRule, _optim.Adam):
    """``nn.Adam(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
    use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0,
    use_amsgrad=False)``; ``use_nesterov=True`` is not supported (ValueError).

    MindSpore's rule adds ``eps`` to ``sqrt(v)`` before the bias correction::

        m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g * g
        param -= lr * sqrt(1 - beta2**t) / (1 - beta1**t) * m / (sqrt(v) + eps)

    (with ``use_amsgrad``, ``v`` is the running maximum of ``v``). It runs
    eagerly only (not inside ``ug.jit``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> nn.Adam([w], learning_rate=0.1, eps=1.0)((ms.Tensor([2.0]),))
        True
        >>> print(w.asnumpy())  # 1 - 0.1 * sqrt(0.001) / 0.1 * 0.2 / (sqrt(0.004) + 1)
        [0.9940517]
    """

    _supports_graph = False

    def __init__(self, params, learning_rate=1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False,
                 weight_decay: float = 0.0, loss_scale: float = 1.0,
                 use_amsgrad: bool = False):
        if use_nesterov:
            raise ValueError("For 'Adam', use_nesterov=True is not supported by unigrad's Adam")
        super().__init__(params, eps=eps, weight_decay=weight_decay, learning_rate=learning_rate,
                         beta1=beta1, beta2=beta2, use_amsgrad=use_amsgrad,
                         loss_scale=loss_scale)

    def _rule(self, group: dict, params: list, grads: list, lr: float) -> None:
        # eps / sqrt(1 - beta2**t) inside PyTorch's bias-corrected denominator is MindSpore's
        betas = _float32_values(group["betas"])
        for param, grad in zip(params, grads):
            step = float(self.state[param]["step"].item()) + 1 if self.state[param] else 1.0
            eps = float(group["eps"]) / (1.0 - betas[1] ** step) ** 0.5
            super()._rule({**group, "eps": eps, "betas": betas}, [param], [grad], lr)


class AdamWeightDecay(_optim.Adam):
    """``nn.AdamWeightDecay(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
    weight_decay=0.0)``: Adam without bias correction, the decay added to the update::

        m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g * g
        param -= lr * (m / (sqrt(v) + eps) + weight_decay * param)

    (no decay for Parameters named ``beta``/``gamma`` given in a flat list).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> nn.AdamWeightDecay([w], learning_rate=0.1, weight_decay=0.5)((ms.Tensor([2.0]),))
        True
        >>> print(w.asnumpy())  # 1 - 0.1 * (0.2 / (sqrt(0.004) + 1e-6) + 0.5)
        [0.6337751]
    """

    def __init__(self, params, learning_rate=1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-6, weight_decay: float = 0.0):
        super().__init__(params, eps=eps, weight_decay=weight_decay, learning_rate=learning_rate,
                         beta1=beta1, beta2=beta2)

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        beta1, beta2 = _float32_values(group["betas"])
        decay = float(group["weight_decay"])
        for param, grad in zip(params, grads):
            state = self.state[param]
            if not state:
                state["step"] = step_tensor()
                state["exp_avg"] = self._new_state(param)
                state["exp_avg_sq"] = self._new_state(param)
            state["step"].add_(1.0)
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            exp_avg.lerp_(grad, 1.0 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1.0 - beta2)
            update = exp_avg / (exp_avg_sq.sqrt() + float(group["eps"]))
            if decay != 0 and _optim.Momentum._decays(self, param):
                update = update.add(param, alpha=decay)
            param.sub_(update, alpha=lr)


def _check_bound(owner: str, name: str, value, strict: bool) -> None:
    """MindSpore's ValueError unless ``value > 0`` (``strict``) or ``value >= 0``."""
    if not (value > 0 if strict else value >= 0):
        raise ValueError(f"For '{owner}', the '{name}' must be float and must "
                         f"{'>' if strict else '>='} 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")


def _check_lamb_values(learning_rate, beta1, beta2, eps, weight_decay) -> None:
    """MindSpore's checks (and messages) of ``nn.Lamb``'s numbers, in its order."""
    for name, value in (("learning rate", learning_rate), ("weight_decay", weight_decay)):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            _check_bound("Lamb", name, float(value), strict=False)
    for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        _optim.lars.check_type("Lamb", name, value, float)
    for name, value in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"For 'Lamb', the '{name}' must be in range of (0.0, 1.0), but got "
                             f"{value} with type 'float'.")
    _check_bound("Lamb", "eps", eps, strict=True)


class Lamb(_optim.Lamb):
    """``nn.Lamb(params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0)``:
    the native Lamb with MindSpore's float32 ``beta1``/``beta2``, argument checks and
    weight decay filter (no decay for Parameters named ``beta``/``gamma`` in a flat list)::

        m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g * g
        u = m / (1 - beta1**t) / (sqrt(v / (1 - beta2**t)) + eps) + weight_decay * param
        param -= lr * ||param|| / ||u|| * u     # the ratio is 1 when either norm is 0

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> w = ms.Parameter(ms.Tensor([3.0, 4.0]), name="w")
        >>> nn.Lamb([w], learning_rate=0.1)((ms.Tensor([0.0, 2.0]),))
        True
        >>> print(w.asnumpy())  # 4 - 0.1 * 5 * 1 / 1 (up to eps)
        [3.  3.5]
    """

    def __init__(self, params, learning_rate, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-6, weight_decay: float = 0.0):
        _check_lamb_values(learning_rate, beta1, beta2, eps, weight_decay)
        super().__init__(params, learning_rate=learning_rate, beta1=beta1, beta2=beta2, eps=eps,
                         weight_decay=weight_decay)

    def _decays(self, param) -> bool:
        return _optim.Momentum._decays(self, param)

    def _betas(self, group: dict) -> tuple[float, float]:
        return _float32_values(group["betas"])


LARS = _optim.LARS


class RMSProp(_MindSporeRule, _optim.RMSprop):
    """``nn.RMSProp(params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10,
    use_locking=False, centered=False, loss_scale=1.0, weight_decay=0.0)``.

    MindSpore's rule: the mean square starts at one, ``epsilon`` is inside the
    square root and the rate inside the momentum buffer::

        s = decay * s + (1 - decay) * g * g
        mg = decay * mg + (1 - decay) * g                  # centered
        mom = momentum * mom + lr * g / sqrt(s - mg * mg + epsilon)
        param -= mom

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> nn.RMSProp([w], learning_rate=0.1, decay=0.5)((ms.Tensor([2.0]),))
        True
        >>> print(w.asnumpy())  # 1 - 0.1 * 2 / sqrt(0.5 + 0.5 * 4)
        [0.87350893]
    """

    def __init__(self, params, learning_rate=0.1, decay: float = 0.9, momentum: float = 0.0,
                 epsilon: float = 1e-10, use_locking: bool = False, centered: bool = False,
                 loss_scale: float = 1.0, weight_decay: float = 0.0):
        super().__init__(params, alpha=decay, eps=epsilon, weight_decay=weight_decay,
                         momentum=momentum, centered=centered, learning_rate=learning_rate,
                         loss_scale=loss_scale)

    def _rule(self, group: dict, params: list, grads: list, lr: float) -> None:
        decay = float(group["alpha"])
        for param, grad in zip(params, grads):
            state = self.state[param]
            if not state:
                state["step"] = step_tensor()
                state["square_avg"] = self._new_state(param).fill_(1.0)
                state["momentum_buffer"] = self._new_state(param)
                if group["centered"]:
                    state["grad_avg"] = self._new_state(param)
            state["step"].add_(1.0)
            square_avg = state["square_avg"].mul_(decay).addcmul_(grad, grad, value=1.0 - decay)
            if group["centered"]:
                grad_avg = state["grad_avg"].lerp_(grad, 1.0 - decay)
                square_avg = square_avg.addcmul(grad_avg, grad_avg, value=-1.0)
            denominator = square_avg.add(float(group["eps"])).sqrt_()
            buffer = state["momentum_buffer"].mul_(float(group["momentum"]))
            buffer.addcdiv_(grad, denominator, value=lr)
            param.sub_(buffer)


class Adagrad(_MindSporeRule, _optim.Adagrad):
    """``nn.Adagrad(params, accum=0.1, learning_rate=0.001, update_slots=True,
    loss_scale=1.0, weight_decay=0.0)``: ``accum`` (the initial accumulator) grows by
    ``g * g`` unless ``update_slots=False``; ``param -= lr * g / sqrt(accum)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> nn.Adagrad([w], accum=5.0, learning_rate=0.1)((ms.Tensor([2.0]),))
        True
        >>> print(w.asnumpy())  # 1 - 0.1 * 2 / sqrt(5 + 4)
        [0.93333334]
    """

    def __init__(self, params, accum: float = 0.1, learning_rate=0.001,
                 update_slots: bool = True, loss_scale: float = 1.0,
                 weight_decay: float = 0.0):
        self.update_slots = check_bool("Adagrad", "update_slots", update_slots)
        super().__init__(params, weight_decay=weight_decay, initial_accumulator_value=accum,
                         eps=0.0, learning_rate=learning_rate, loss_scale=loss_scale)

    def _rule(self, group: dict, params: list, grads: list, lr: float) -> None:
        if self.update_slots:
            super()._rule(group, params, grads, lr)
            return
        for param, grad in zip(params, grads):  # the accumulator stays as it is
            self.state[param]["step"].add_(1.0)
            param.addcdiv_(grad, self.state[param]["sum"].sqrt(), value=-lr)


class Adadelta(_MindSporeRule, _optim.Adadelta):
    """``nn.Adadelta(params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0,
    weight_decay=0.0)``: the Adadelta rule (PyTorch's, which is MindSpore's).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> nn.Adadelta([w], rho=0.5, epsilon=0.01)((ms.Tensor([2.0]),))
        True
        >>> print(w.asnumpy())  # 1 - sqrt(0.01) / sqrt(0.5 * 4 + 0.01) * 2
        [0.8589309]
    """

    def __init__(self, params, learning_rate=1.0, rho: float = 0.9, epsilon: float = 1e-6,
                 loss_scale: float = 1.0, weight_decay: float = 0.0):
        super().__init__(params, rho=rho, eps=epsilon, weight_decay=weight_decay,
                         learning_rate=learning_rate, loss_scale=loss_scale)


class AdaMax(_MindSporeRule, _optim.Adamax):
    """``nn.AdaMax(params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-8,
    weight_decay=0.0, loss_scale=1.0)``. MindSpore adds ``eps`` after the maximum::

        m = beta1 * m + (1 - beta1) * g;  u = max(beta2 * u, |g|)
        param -= lr / (1 - beta1**t) * m / (u + eps)

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> nn.AdaMax([w], learning_rate=0.1, eps=1.0)((ms.Tensor([2.0]),))
        True
        >>> print(w.asnumpy())  # 1 - 0.1 * 2 / (2 + 1)
        [0.93333334]
    """

    def __init__(self, params, learning_rate=0.001, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, weight_decay: float = 0.0, loss_scale: float = 1.0):
        super().__init__(params, betas=(beta1, beta2), eps=eps, weight_decay=weight_decay,
                         learning_rate=learning_rate, loss_scale=loss_scale)

    def _rule(self, group: dict, params: list, grads: list, lr: float) -> None:
        beta1, beta2 = (float(b) for b in group["betas"])
        for param, grad in zip(params, grads):
            state = self.state[param]
            if not state:
                state["step"] = step_tensor()
                state["exp_avg"] = self._new_state(param)
                state["exp_inf"] = self._new_state(param)
            step = self._counted(state["step"])
            state["exp_avg"].lerp_(grad, 1.0 - beta1)
            state["exp_inf"].mul_(beta2).maximum_(grad.abs())
            self._add_ratio(param, state["exp_avg"], state["exp_inf"] + float(group["eps"]),
                            -(lr / (1.0 - beta1 ** step)))


class ASGD(_MindSporeRule, _optim.ASGD):
    """``nn.ASGD(params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6,
    weight_decay=0.0)``: averaged SGD (PyTorch's rule, which is MindSpore's).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> nn.ASGD([w], learning_rate=0.1, lambd=0.0)((ms.Tensor([2.0]),))
        True
        >>> print(w.asnumpy())
        [0.8]
    """

    def __init__(self, params, learning_rate=0.1, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: float = 0.0):
        super().__init__(params, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                         learning_rate=learning_rate)


class Rprop(_MindSporeRule, _optim.Rprop):
    """``nn.Rprop(params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0),
    weight_decay=0.0)``: resilient backpropagation (PyTorch's rule, which is MindSpore's).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
        >>> nn.Rprop([w], learning_rate=0.1)((ms.Tensor([2.0]),))
        True
        >>> print(w.asnumpy())
        [0.9]
    """

    def __init__(self, params, learning_rate=0.1, etas: tuple = (0.5, 1.2),
                 step_sizes: tuple = (1e-6, 50.0), weight_decay: float = 0.0):
        super().__init__(params, etas=etas, step_sizes=step_sizes, learning_rate=learning_rate)
        decay = check_number("Rprop", "weight_decay", weight_decay,
                             "Invalid weight_decay value: {}")
        self.defaults["weight_decay"] = decay
        for group in self.param_groups:
            group.setdefault("weight_decay", decay)

def __getattr__(name: str):
    """``mindspore.nn`` re-exports the metrics of ``mindspore.train`` (imported on first use:
    ``train`` imports this module)."""
    if name in ("Metric", "Accuracy", "MAE", "MSE", "Loss"):
        from .train import metrics
        return getattr(metrics, name)
    if name in ("Fbeta", "F1", "Precision", "Recall", "TopKCategoricalAccuracy",
                "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "Perplexity", "Dice",
                "ConfusionMatrix", "ROC", "auc"):
        from .train import metrics_more
        return getattr(metrics_more, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


from ._nn_layers import *  # noqa: E402, F403 - the layers with MindSpore's defaults
from ._nn_layers import __all__ as _layer_names  # noqa: E402

__all__ = [*__all__, *_layer_names]
