"""Training wrappers (MindSpore): a network with its loss, one optimizer step, loss scaling.

``WithLossCell(backbone, loss_fn)`` joins a network and a loss;
``TrainOneStepCell(net_with_loss, optimizer)`` runs forward, backward and the
optimizer update in one call; ``TrainOneStepWithLossScaleCell`` does the same
with a scaled loss, skips the update when a gradient overflows, and lets a
``DynamicLossScaleUpdateCell`` or ``FixedLossScaleUpdateCell`` manage the scale.
The optimizer is any ``ug.optim`` optimizer: it is called MindSpore-style,
``optimizer(grads)``, with gradients in ``optimizer.parameters`` order.
"""

from __future__ import annotations

import math

import numpy as np

from ..autograd.grad_mode import no_grad
from ..backend import float32
from ..tensor import Tensor
from ..transforms.functional import value_and_grad
from ..transforms.positions import weight_id
from .cell import Cell
from .parameter import Parameter


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)`` as one Cell (MindSpore); Parameter names unchanged.

    Example:
        >>> import unigrad as ug
        >>> net = ug.nn.Dense(3, 1, has_bias=False)
        >>> _ = net.weight.set_data(ug.tensor([[2.0, 3.0, 4.0]]))
        >>> with_loss = ug.nn.WithLossCell(net, ug.nn.MSELoss())
        >>> with_loss(ug.tensor([[1.0, 2.0, 3.0]]), ug.tensor([[19.0]]))
        tensor(1., grad_fn=<MseLossBackward0>)
        >>> [p.name for p in with_loss.trainable_params()]
        ['weight']
    """

    def __init__(self, backbone: Cell, loss_fn: Cell):
        super().__init__(auto_prefix=False)
        if not callable(backbone) or not callable(loss_fn):
            raise TypeError("WithLossCell: 'backbone' and 'loss_fn' must be callable Cells")
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self) -> Cell:
        return self._backbone


def _identity(grads):
    return grads


def check_optimizer(optimizer, owner: str) -> tuple:
    """The optimizer's parameters, or a TypeError when ``optimizer`` is not a ug.optim one."""
    weights = getattr(optimizer, "parameters", None)
    if not callable(optimizer) or weights is None:
        raise TypeError(f"For '{owner}', 'optimizer' must be a ug.optim optimizer (callable with "
                        f"gradients, with a 'parameters' tuple), but got "
                        f"{type(optimizer).__name__}")
    return tuple(weights)


class TrainOneStepCell(Cell):
    """One training step per call: loss, gradients of ``optimizer.parameters``, update.

    ``sens`` (a number, default 1.0) is the gradient fed to the loss (a
    manual loss scale); ``return_grad=True`` also returns ``{name: gradient}``.
    The network must return one loss tensor.

    Example:
        >>> import unigrad as ug
        >>> net = ug.nn.Dense(3, 1, has_bias=False)
        >>> _ = net.weight.set_data(ug.tensor([[2.0, 3.0, 4.0]]))
        >>> loss_net = ug.nn.WithLossCell(net, ug.nn.MSELoss())
        >>> step = ug.nn.TrainOneStepCell(loss_net, ug.optim.SGD(net.trainable_params(), lr=0.1))
        >>> step(ug.tensor([[1.0, 2.0, 3.0]]), ug.tensor([[19.0]]))
        tensor(1.)
        >>> net.weight
        Parameter containing:
        tensor([[1.8000, 2.6000, 3.4000]], requires_grad=True)
    """

    def __init__(self, network: Cell, optimizer, sens: float | None = None,
                 return_grad: bool = False):
        super().__init__(auto_prefix=False)
        if sens is not None:
            if isinstance(sens, bool) or not isinstance(sens, (int, float)):
                raise TypeError(f"For 'TrainOneStepCell', 'sens' must be a number or None, but "
                                f"got {type(sens).__name__}")
            if sens == 0:
                raise ValueError("The input argument of 'sens' can not be 0.")
        if not isinstance(return_grad, bool):
            raise TypeError(f"For 'TrainOneStepCell', 'return_grad' must be bool, but got "
                            f"{type(return_grad).__name__}")
        self.weights = check_optimizer(optimizer, "TrainOneStepCell")
        self.network = network
        self.optimizer = optimizer
        self.sens = sens
        self.return_grad = return_grad
        self.grad_reducer = _identity
        self._forward_and_grads = value_and_grad(network, None, self.weights, sens_param=True)

    def construct(self, *inputs):
        sens = 1.0 if self.sens is None else float(self.sens)
        loss, grads = self._forward_and_grads(*inputs, sens=sens)
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        if self.return_grad:
            return loss, {weight_id(w, i): g for i, (w, g) in enumerate(zip(self.weights, grads))}
        return loss


class DynamicLossScaleUpdateCell(Cell):
    """Grows the loss scale after ``scale_window`` clean steps and shrinks it on overflow.

    MindSpore's rule (it differs from ``ug.amp.DynamicLossScaler``): on
    overflow the scale becomes ``max(scale / scale_factor, 1)``; when at least
    ``scale_window`` steps have passed since the last overflow or growth and
    this step is clean, it is multiplied by ``scale_factor``. Called as
    ``cell(loss_scale, overflow)``, it updates the ``loss_scale`` Parameter in
    place and returns ``overflow``.

    Example:
        >>> import unigrad as ug
        >>> manager = ug.nn.DynamicLossScaleUpdateCell(1024.0, scale_factor=2, scale_window=2)
        >>> scale = ug.nn.Parameter(ug.tensor(1024.0), name="scale_sense")
        >>> history = []
        >>> for overflow in [False, False, True, False]:
        ...     _ = manager(scale, ug.tensor(overflow))
        ...     history.append(float(scale))
        >>> history
        [1024.0, 2048.0, 1024.0, 1024.0]
    """

    def __init__(self, loss_scale_value: float, scale_factor: int, scale_window: int):
        super().__init__()
        _check_scale_value(loss_scale_value, "DynamicLossScaleUpdateCell", "loss_scale_value")
        for name, value in (("scale_factor", scale_factor), ("scale_window", scale_window)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"For 'DynamicLossScaleUpdateCell', '{name}' must be a positive "
                                 f"number, but got {value!r}")
        self.loss_scale_value = float(loss_scale_value)
        self.scale_factor = scale_factor
        self.scale_window = scale_window
        self.cur_iter = 1
        self.last_overflow_iter = 0

    def get_loss_scale(self) -> float:
        """The initial loss scale (MindSpore)."""
        return self.loss_scale_value

    def construct(self, loss_scale: Parameter, overflow):
        overflowed = bool(overflow)
        scale = float(loss_scale)
        if overflowed:
            scale = max(scale / self.scale_factor, 1.0)
        should_grow = self.cur_iter - self.last_overflow_iter >= self.scale_window
        if overflowed or should_grow:
            self.last_overflow_iter = self.cur_iter
        if should_grow and not overflowed:
            scale = scale * self.scale_factor
        if math.isfinite(scale):
            _assign_scale(loss_scale, scale)
        self.cur_iter += 1
        return overflow

    def extra_repr(self) -> str:
        return (f"loss_scale_value={self.loss_scale_value}, scale_factor={self.scale_factor}, "
                f"scale_window={self.scale_window}")


class FixedLossScaleUpdateCell(Cell):
    """A loss scale that never changes; ``cell(loss_scale, overflow)`` returns ``overflow``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.FixedLossScaleUpdateCell(128.0).get_loss_scale()
        128.0
    """

    def __init__(self, loss_scale_value: float):
        super().__init__()
        _check_scale_value(loss_scale_value, "FixedLossScaleUpdateCell", "loss_scale_value")
        self.loss_scale_value = float(loss_scale_value)

    def get_loss_scale(self) -> float:
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        return overflow

    def extra_repr(self) -> str:
        return f"loss_scale_value={self.loss_scale_value}"


def _check_scale_value(value, owner: str, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{owner}', '{name}' must be a float or int, but got "
                        f"{type(value).__name__}")
    if not value > 0 or not math.isfinite(value):
        raise ValueError(f"For '{owner}', '{name}' must be a positive finite number, but got "
                         f"{value}")


def _assign_scale(parameter: Parameter, value: float) -> None:
    with no_grad():
        parameter.fill_(value)  # in place (in the trace's view under ug.jit)


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """A training step with loss scaling; an overflowing step leaves the parameters untouched.

    ``scale_sense`` is a ``DynamicLossScaleUpdateCell``/``FixedLossScaleUpdateCell``
    or a Tensor of shape ``()`` or ``(1,)`` holding a fixed scale. Each call
    back-propagates ``scale`` instead of 1, divides the gradients by it, checks
    them for Inf/NaN and, only if all are finite, calls the optimizer; then
    the update cell adjusts the scale. Returns ``(loss, overflow, scale)``
    where ``scale`` is the scale this step used.

    Example:
        >>> import unigrad as ug
        >>> net = ug.nn.Dense(3, 1, has_bias=False)
        >>> _ = net.weight.set_data(ug.tensor([[2.0, 3.0, 4.0]]))
        >>> loss_net = ug.nn.WithLossCell(net, ug.nn.MSELoss())
        >>> manager = ug.nn.DynamicLossScaleUpdateCell(2.0 ** 10, 2, 1000)
        >>> step = ug.nn.TrainOneStepWithLossScaleCell(
        ...     loss_net, ug.optim.SGD(net.trainable_params(), lr=0.1), scale_sense=manager)
        >>> loss, overflow, scale = step(ug.tensor([[1.0, 2.0, 3.0]]), ug.tensor([[19.0]]))
        >>> float(loss), bool(overflow), float(scale)
        (1.0, False, 1024.0)
        >>> net.weight.tolist()
        [[1.7999999523162842, 2.5999999046325684, 3.4000000953674316]]
    """

    def __init__(self, network: Cell, optimizer, scale_sense):
        super().__init__(network, optimizer)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            scale = scale_sense.get_loss_scale()
            self.scale_sense = Parameter(Tensor(np.asarray(scale, np.float32)),
                                         name="scale_sense", requires_grad=False)
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((), (1,)):
                raise ValueError(f"For 'TrainOneStepWithLossScaleCell', the shape of "
                                 f"'scale_sense' must be (1,) or (), but got {scale_sense.shape}")
            self.scale_sense = Parameter(scale_sense.detach().to(float32).clone(),
                                         name="scale_sense", requires_grad=False)
        else:
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be "
                            f"Cell or Tensor, but got 'scale_sense' type: "
                            f"{type(scale_sense).__name__}.")

    def set_sense_scale(self, sens: Tensor) -> None:
        """Replace the current loss scale (a Tensor of the same shape)."""
        if not isinstance(sens, Tensor):
            raise TypeError(f"The input type must be Tensor, but got {type(sens).__name__}")
        self.scale_sense.set_data(sens)

    def construct(self, *inputs):
        scale = float(self.scale_sense.reshape(-1)[0])
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is expected and handled
            loss, grads = self._forward_and_grads(*inputs, sens=scale)
            grads = tuple(g * (1.0 / scale) if isinstance(g, Tensor) else g for g in grads)
        grads = self.grad_reducer(grads)
        from ..amp.loss_scaler import all_finite  # amp imports nn.parameter: import late
        overflow = not bool(all_finite(grads))
        if self.loss_scaling_manager is not None:
            self.loss_scaling_manager(self.scale_sense, overflow)
        if not overflow:
            self.optimizer(grads)
        return loss, Tensor(np.asarray(overflow)), Tensor(np.asarray(scale, np.float32))


__all__ = ["WithLossCell", "TrainOneStepCell", "TrainOneStepWithLossScaleCell",
           "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell"]
