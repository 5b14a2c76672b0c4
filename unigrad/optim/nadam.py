"""NAdam (``torch.optim.NAdam``): Adam with Nesterov momentum and a momentum schedule.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0]))
    >>> opt = optim.NAdam([w], lr=0.1)
    >>> opt([ug.tensor([2.0])])
    True
    >>> round(w.item(), 6)
    0.894355
"""

from __future__ import annotations

from .optimizer import (
    Optimizer,
    check_betas,
    check_bool,
    check_flags,
    check_number,
    default,
    resolve_alias,
    step_tensor,
)


class NAdam(Optimizer):
    """NAdam (``torch.optim.NAdam``), with L2 or decoupled weight decay.

    ``NAdam(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
    maximize=False, capturable=False, differentiable=False)``;
    ``learning_rate`` (also a list of per-step rates) and ``loss_scale`` are
    accepted as keywords. Per parameter and step ``t``::

        g = -grad if maximize else grad
        param *= 1 - lr * weight_decay            # decoupled, or else
        g = g + weight_decay * param              # L2
        mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))
        mu_product = mu_product * mu_t
        m = lerp(m, g, 1 - beta1);  v = beta2 * v + (1 - beta2) * g * g
        denom = sqrt(v / (1 - beta2**t)) + eps
        param -= lr * (1 - mu_t) / (1 - mu_product) * g / denom
        param -= lr * mu_{t+1} / (1 - mu_product * mu_{t+1}) * m / denom

    State: ``step`` and ``mu_product`` (0-d float Tensors), ``exp_avg`` and
    ``exp_avg_sq``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([0.5]))
        >>> opt = optim.NAdam([w], lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> round(w.item(), 6), sorted(opt.state[w])
        (0.488936, ['exp_avg', 'exp_avg_sq', 'mu_product', 'step'])
    """

    _tensor_step = True
    _scalar_states = frozenset({"mu_product"})

    def __init__(self, params, lr: float = default(2e-3),
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False, differentiable: bool = False,
                 learning_rate=None, loss_scale: float = 1.0) -> None:
        flags = check_flags("NAdam", foreach=foreach, capturable=capturable,
                    differentiable=differentiable)
        lr = resolve_alias("NAdam", "lr", lr, "learning_rate", learning_rate)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay,
                    "decoupled_weight_decay": decoupled_weight_decay, "maximize": maximize}
        super().__init__(params, {**defaults, **flags}, loss_scale=loss_scale)

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        group["eps"] = check_number(owner, "eps", group["eps"], "Invalid epsilon value: {}")
        group["betas"] = check_betas(owner, group["betas"])
        for name in ("weight_decay", "momentum_decay"):
            group[name] = check_number(owner, name, group[name])
        for name in ("decoupled_weight_decay", "maximize"):
            group[name] = check_bool(owner, name, group[name])

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        beta1, beta2 = (float(b) for b in group["betas"])
        eps = float(group["eps"])
        weight_decay = float(group["weight_decay"])
        momentum_decay = float(group["momentum_decay"])
        decoupled = group["decoupled_weight_decay"]
        for param, grad in zip(params, grads):
            grad = self._directed(param, grad, group["maximize"], 0.0)
            state = self.state[param]
            if not state:
                state["step"] = step_tensor()
                state["mu_product"] = step_tensor(1.0)
                state["exp_avg"] = self._new_state(param)
                state["exp_avg_sq"] = self._new_state(param)
            real_param, grad, exp_avg, exp_avg_sq = self._real_views(
                param, grad, state["exp_avg"], state["exp_avg_sq"])
            step = self._counted(state["step"])
            grad = self._decayed(real_param, grad, lr, weight_decay, decoupled)
            mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * momentum_decay))
            mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1.0) * momentum_decay))
            mu_product = state["mu_product"]
            mu_product.mul_(mu)
            exp_avg.lerp_(grad, 1.0 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1.0 - beta2)
            denom = exp_avg_sq.div(1.0 - beta2 ** step).sqrt().add_(eps)
            product = float(mu_product.item()) if isinstance(step, float) else mu_product
            self._add_ratio(real_param, grad, denom, -lr * (1.0 - mu) / (1.0 - product))
            self._add_ratio(real_param, exp_avg, denom, -lr * mu_next / (1.0 - product * mu_next))
            self._written(param, real_param)


__all__ = ["NAdam"]
