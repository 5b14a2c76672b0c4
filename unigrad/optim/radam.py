"""RAdam (``torch.optim.RAdam``): Adam with a rectified adaptive learning rate.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0]))
    >>> opt = optim.RAdam([w], lr=0.1)
    >>> opt([ug.tensor([2.0])])  # the first steps are plain momentum steps
    True
    >>> round(w.item(), 6)
    0.8
"""

from __future__ import annotations

from ..ops import where
from ..tensor import Tensor
from .optimizer import (
    Optimizer,
    check_betas,
    check_bool,
    check_flags,
    check_number,
    default,
    in_pytorch_order,
    resolve_alias,
    step_tensor,
)


def _rectification(rho_t, rho_inf: float, clamp: bool = False):
    """RAdam's variance rectification term (``clamp``: a traced ``rho_t`` at most 4 gives 0
    instead of the square root of a negative number; that branch is not used then)."""
    ratio = (rho_t - 4.0) * (rho_t - 2.0) * rho_inf / ((rho_inf - 4.0) * (rho_inf - 2.0) * rho_t)
    return (ratio.clamp(min=0.0) if clamp else ratio) ** 0.5


class RAdam(Optimizer):
    """RAdam (``torch.optim.RAdam``), with L2 or decoupled weight decay.

    ``RAdam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    decoupled_weight_decay=False, *, foreach=None, maximize=False,
    capturable=False, differentiable=False)``; ``learning_rate`` (also a list
    of per-step rates) and ``loss_scale`` are accepted as keywords. Per
    parameter and step ``t``::

        g = -grad if maximize else grad
        param *= 1 - lr * weight_decay            # decoupled, or else
        g = g + weight_decay * param              # L2
        m = lerp(m, g, 1 - beta1);  v = beta2 * v + (1 - beta2) * g * g
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 t beta2**t / (1 - beta2**t)
        if rho_t > 5:
            r = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))
            param -= lr * m / (1 - beta1**t) * r * sqrt(1 - beta2**t) / (sqrt(v) + eps)
        else:
            param -= lr * m / (1 - beta1**t)

    State: ``step`` (0-d float Tensor), ``exp_avg`` and ``exp_avg_sq``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([0.5]))
        >>> opt = optim.RAdam([w], lr=0.01)
        >>> for _ in range(7):
        ...     opt.zero_grad()
        ...     (w * w).sum().backward()
        ...     opt.step()
        >>> round(w.item(), 6), opt.state[w]["step"]
        (0.450498, tensor(7.))
    """

    _tensor_step = True

    def __init__(self, params, lr: float = default(1e-3),
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, learning_rate=None,
                 loss_scale: float = 1.0) -> None:
        flags = check_flags("RAdam", foreach=foreach, capturable=capturable,
                    differentiable=differentiable)
        lr = resolve_alias("RAdam", "lr", lr, "learning_rate", learning_rate)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, in_pytorch_order(
            "lr betas eps weight_decay "
            "maximize foreach capturable decoupled_weight_decay differentiable",
            defaults, flags), loss_scale=loss_scale)

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        group["eps"] = check_number(owner, "eps", group["eps"], "Invalid epsilon value: {}")
        group["betas"] = check_betas(owner, group["betas"])
        group["weight_decay"] = check_number(owner, "weight_decay", group["weight_decay"])
        for name in ("decoupled_weight_decay", "maximize"):
            group[name] = check_bool(owner, name, group[name])

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        beta1, beta2 = (float(b) for b in group["betas"])
        eps = float(group["eps"])
        weight_decay = float(group["weight_decay"])
        decoupled = group["decoupled_weight_decay"]
        rho_inf = 2.0 / (1.0 - beta2) - 1.0
        for param, grad in zip(params, grads):
            grad = self._directed(param, grad, group["maximize"], 0.0)
            state = self.state[param]
            if not state:
                state["step"] = step_tensor()
                state["exp_avg"] = self._new_state(param)
                state["exp_avg_sq"] = self._new_state(param)
            real_param, grad, exp_avg, exp_avg_sq = self._real_views(
                param, grad, state["exp_avg"], state["exp_avg_sq"])
            step = self._counted(state["step"])
            grad = self._decayed(real_param, grad, lr, weight_decay, decoupled)
            exp_avg.lerp_(grad, 1.0 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1.0 - beta2)
            bias_correction1 = 1.0 - beta1 ** step
            bias_correction2 = 1.0 - beta2 ** step
            update = exp_avg / bias_correction1 * lr
            rho_t = rho_inf - 2.0 * step * beta2 ** step / bias_correction2
            if isinstance(step, Tensor):  # graph mode: both branches, chosen by where
                rectified = _rectification(rho_t, rho_inf, clamp=True) * \
                    (bias_correction2 ** 0.5 / exp_avg_sq.sqrt().add_(eps))
                update = update * where(rho_t > 5.0, rectified, 1.0)
            elif rho_t > 5.0:
                adaptive = bias_correction2 ** 0.5 / exp_avg_sq.sqrt().add_(eps)
                update = update * adaptive * _rectification(rho_t, rho_inf)
            real_param.sub_(update)
            self._written(param, real_param)


__all__ = ["RAdam"]
