"""Adadelta (``torch.optim.Adadelta``): step sizes from running averages, no base rate needed.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0]))
    >>> opt = optim.Adadelta([w])
    >>> opt([ug.tensor([2.0])])
    True
    >>> round(w.item(), 6)  # 1 - sqrt(1e-6) / sqrt(0.1 * 4 + 1e-6) * 2
    0.996838
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


class Adadelta(Optimizer):
    """Adadelta (``torch.optim.Adadelta``).

    ``Adadelta(params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0,
    foreach=None, *, capturable=False, maximize=False, differentiable=False)``;
    ``learning_rate`` (also a list of per-step rates) and ``loss_scale`` are
    accepted as keywords. Per parameter and step::

        g = (-grad if maximize else grad) + weight_decay * param
        v = rho * v + (1 - rho) * g * g
        delta = sqrt(u + eps) / sqrt(v + eps) * g
        u = rho * u + (1 - rho) * delta * delta
        param -= lr * delta

    State: ``step`` (0-d float Tensor), ``square_avg`` (``v``) and
    ``acc_delta`` (``u``).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([0.5]))
        >>> opt = optim.Adadelta([w], lr=0.5, rho=0.5, eps=0.01)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> round(w.item(), 6), sorted(opt.state[w])
        (0.429986, ['acc_delta', 'square_avg', 'step'])
    """

    _tensor_step = True

    def __init__(self, params, lr: float = default(1.0), rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0, foreach: bool | None = None, *,
                 capturable: bool = False, maximize: bool = False, differentiable: bool = False,
                 learning_rate=None, loss_scale: float = 1.0) -> None:
        flags = check_flags("Adadelta", foreach=foreach, capturable=capturable,
                    differentiable=differentiable)
        lr = resolve_alias("Adadelta", "lr", lr, "learning_rate", learning_rate)
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize}
        super().__init__(params, in_pytorch_order(
            "lr rho eps weight_decay maximize capturable foreach differentiable",
            defaults, flags), loss_scale=loss_scale)

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        rho = check_number(owner, "rho", group["rho"])
        if rho > 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        group["rho"] = rho
        group["eps"] = check_number(owner, "eps", group["eps"], "Invalid epsilon value: {}")
        group["weight_decay"] = check_number(owner, "weight_decay", group["weight_decay"])
        group["maximize"] = check_bool(owner, "maximize", group["maximize"])

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        rho = float(group["rho"])
        eps = float(group["eps"])
        for param, grad in zip(params, grads):
            grad = self._directed(param, grad, group["maximize"], float(group["weight_decay"]))
            state = self.state[param]
            if not state:
                state["step"] = step_tensor()
                state["square_avg"] = self._new_state(param)
                state["acc_delta"] = self._new_state(param)
            state["step"].add_(1.0)
            real_param, grad, square_avg, acc_delta = self._real_views(
                param, grad, state["square_avg"], state["acc_delta"])
            square_avg.mul_(rho).addcmul_(grad, grad, value=1.0 - rho)
            std = square_avg.add(eps).sqrt_()
            delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
            acc_delta.mul_(rho).addcmul_(delta, delta, value=1.0 - rho)
            real_param.add_(delta, alpha=-lr)
            self._written(param, real_param)


__all__ = ["Adadelta"]
