"""ASGD (``torch.optim.ASGD``): SGD with a decaying rate and a running parameter average.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0]))
    >>> opt = optim.ASGD([w], lr=0.1, lambd=0.0)
    >>> opt([ug.tensor([2.0])])
    True
    >>> round(w.item(), 6), opt.state[w]["ax"]
    (0.8, tensor([0.8000]))
"""

from __future__ import annotations

from ..ops import where
from ..tensor import Tensor
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


class ASGD(Optimizer):
    """Averaged stochastic gradient descent (``torch.optim.ASGD``).

    ``ASGD(params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
    foreach=None, maximize=False, differentiable=False, capturable=False)``;
    ``learning_rate`` (also a list of per-step rates; read when the state is
    created and at every step) and ``loss_scale`` are accepted as keywords.
    Per parameter and step ``t`` (``eta`` starts at ``lr``, ``mu`` at 1)::

        g = (-grad if maximize else grad) + weight_decay * param
        param = param * (1 - lambd * eta) - eta * g
        ax = param if mu == 1 else ax + mu * (param - ax)
        eta = lr / (1 + lambd * lr * t) ** alpha;  mu = 1 / max(1, t - t0)

    State: ``step``, ``eta`` and ``mu`` (0-d float Tensors in the default
    float dtype, as PyTorch keeps them) and ``ax`` (the averaged parameter).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([0.5]))
        >>> opt = optim.ASGD([w], lr=0.1, t0=0)
        >>> for _ in range(2):
        ...     opt.zero_grad()
        ...     (w * w).sum().backward()
        ...     opt.step()
        >>> round(w.item(), 6), round(opt.state[w]["ax"].item(), 6), opt.state[w]["mu"]
        (0.319993, 0.319993, tensor(0.5000))
    """

    _tensor_step = True
    _scalar_states = frozenset({"eta", "mu"})

    def __init__(self, params, lr: float = default(1e-2), lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False, *, learning_rate=None,
                 loss_scale: float = 1.0) -> None:
        flags = check_flags("ASGD", foreach=foreach, capturable=capturable,
                    differentiable=differentiable)
        lr = resolve_alias("ASGD", "lr", lr, "learning_rate", learning_rate)
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0,
                    "weight_decay": weight_decay, "maximize": maximize}
        super().__init__(params, in_pytorch_order(
            "lr lambd alpha t0 weight_decay foreach maximize differentiable capturable",
            defaults, flags), loss_scale=loss_scale)

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        for name in ("lambd", "alpha", "t0"):
            group[name] = check_number(owner, name, group[name], low=float("-inf"))
        group["weight_decay"] = check_number(owner, "weight_decay", group["weight_decay"])
        group["maximize"] = check_bool(owner, "maximize", group["maximize"])

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        lambd = float(group["lambd"])
        alpha = float(group["alpha"])
        t0 = float(group["t0"])
        for param, grad in zip(params, grads):
            grad = self._directed(param, grad, group["maximize"], float(group["weight_decay"]))
            state = self.state[param]
            if not state:
                state["step"] = step_tensor()
                state["eta"] = step_tensor(lr)
                state["mu"] = step_tensor(1.0)
                state["ax"] = self._new_state(param)
            real_param, grad, ax = self._real_views(param, grad, state["ax"])
            eta, mu = state["eta"], state["mu"]
            step = self._counted(state["step"])
            if isinstance(step, Tensor):  # graph mode: the rule on traced values
                real_param.mul_(1.0 - lambd * eta)
                real_param.sub_(grad * eta)
                ax.copy_(where(mu == 1.0, real_param, ax + (real_param - ax) * mu))
                eta.copy_(lr / ((1.0 + lambd * lr * step) ** alpha))
                mu.copy_(1.0 / (step - t0).clamp(min=1.0))
                continue
            eta_value = float(eta.item())
            real_param.mul_(1.0 - lambd * eta_value)
            real_param.add_(grad, alpha=-eta_value)
            mu_value = float(mu.item())
            if mu_value != 1.0:
                ax.add_(real_param.sub(ax).mul_(mu_value))
            else:
                ax.copy_(real_param)
            # as PyTorch: the new values pass through the default float dtype
            eta.copy_(step_tensor(lr / ((1.0 + lambd * lr * step) ** alpha)))
            mu.copy_(step_tensor(1.0 / max(1.0, step - t0)))
            self._written(param, real_param)


__all__ = ["ASGD"]
