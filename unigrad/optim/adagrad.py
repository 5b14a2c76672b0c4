"""Adagrad (``torch.optim.Adagrad``): per-entry rates from the sum of squared gradients.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0, -1.0]))
    >>> opt = optim.Adagrad([w], lr=0.1)
    >>> opt([ug.tensor([2.0, -0.5])])  # the first step moves each entry by ~lr
    True
    >>> w
    Parameter containing:
    tensor([ 0.9000, -0.9000], requires_grad=True)
"""

from __future__ import annotations

from .optimizer import (
    Optimizer,
    check_bool,
    check_flags,
    check_number,
    default,
    in_pytorch_order,
    resolve_alias,
    step_tensor,
)


class Adagrad(Optimizer):
    """Adagrad (``torch.optim.Adagrad``), with learning-rate decay.

    ``Adagrad(params, lr=1e-2, lr_decay=0, weight_decay=0,
    initial_accumulator_value=0, eps=1e-10, foreach=None, *, maximize=False,
    differentiable=False, fused=None)``; ``learning_rate`` (also a list of
    per-step rates) and ``loss_scale`` are accepted as keywords. As in
    PyTorch the state is created when the optimizer is built, ``sum`` filled
    with the optimizer's ``initial_accumulator_value``. Per parameter and
    step ``t``::

        g = (-grad if maximize else grad) + weight_decay * param
        sum = sum + g * g
        param -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(sum) + eps)

    State: ``step`` (0-d float Tensor) and ``sum``. Sparse gradients do not
    exist in unigrad.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([0.5]))
        >>> opt = optim.Adagrad([w], lr=0.1, initial_accumulator_value=3.0)
        >>> opt.state[w]
        {'step': tensor(0.), 'sum': tensor([3.])}
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> round(w.item(), 6)  # 0.5 - 0.1 * 1 / sqrt(3 + 1)
        0.45
    """

    _tensor_step = True

    def __init__(self, params, lr: float = default(1e-2), lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, fused: bool | None = None, learning_rate=None,
                 loss_scale: float = 1.0) -> None:
        flags = check_flags("Adagrad", foreach=foreach, fused=fused, differentiable=differentiable)
        lr = resolve_alias("Adagrad", "lr", lr, "learning_rate", learning_rate)
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value,
                    "maximize": maximize}
        super().__init__(params, in_pytorch_order(
            "lr lr_decay eps weight_decay "
            "initial_accumulator_value foreach maximize differentiable fused",
            defaults, flags), loss_scale=loss_scale)
        for group in self.param_groups:
            for param in group["params"]:
                self._init_state(param)

    def _init_state(self, param) -> None:
        state = self.state[param]
        if not state:
            state["step"] = step_tensor()
            state["sum"] = self._new_state(param)
            self._real_views(param, state["sum"])[1].fill_(
                float(self.defaults["initial_accumulator_value"]))

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        group["eps"] = check_number(owner, "eps", group["eps"], "Invalid epsilon value: {}")
        for name in ("lr_decay", "weight_decay", "initial_accumulator_value"):
            group[name] = check_number(owner, name, group[name])
        group["maximize"] = check_bool(owner, "maximize", group["maximize"])

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        eps = float(group["eps"])
        lr_decay = float(group["lr_decay"])
        for param, grad in zip(params, grads):
            grad = self._directed(param, grad, group["maximize"], float(group["weight_decay"]))
            self._init_state(param)
            state = self.state[param]
            clr = lr / (1.0 + (self._counted(state["step"]) - 1.0) * lr_decay)
            real_param, grad, state_sum = self._real_views(param, grad, state["sum"])
            state_sum.addcmul_(grad, grad, value=1.0)
            self._add_ratio(real_param, grad, state_sum.sqrt().add_(eps), -clr)
            self._written(param, real_param)


__all__ = ["Adagrad"]
