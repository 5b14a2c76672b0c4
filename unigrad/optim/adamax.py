"""Adamax (``torch.optim.Adamax``): Adam with an infinity-norm second moment.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0, -1.0]))
    >>> opt = optim.Adamax([w], lr=0.1)
    >>> opt([ug.tensor([2.0, -0.5])])  # the first step moves each entry by ~lr
    True
    >>> w
    Parameter containing:
    tensor([ 0.9000, -0.9000], requires_grad=True)
"""

from __future__ import annotations

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


class Adamax(Optimizer):
    """Adamax (``torch.optim.Adamax``).

    ``Adamax(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    foreach=None, *, maximize=False, differentiable=False, capturable=False)``;
    ``learning_rate`` (also a list of per-step rates) and ``loss_scale`` are
    accepted as keywords. Per parameter and step ``t``::

        g = (-grad if maximize else grad) + weight_decay * param
        m = lerp(m, g, 1 - beta1)
        u = max(beta2 * u, |g| + eps)
        param -= lr / (1 - beta1**t) * m / u

    State: ``step`` (0-d float Tensor), ``exp_avg`` (``m``) and ``exp_inf``
    (``u``).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([0.5]))
        >>> opt = optim.Adamax([w], lr=0.01)
        >>> for _ in range(2):
        ...     opt.zero_grad()
        ...     (w * w).sum().backward()
        ...     opt.step()
        >>> round(w.item(), 6), opt.state[w]["step"]
        (0.480095, tensor(2.))
    """

    _tensor_step = True

    def __init__(self, params, lr: float = default(2e-3),
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False, capturable: bool = False,
                 learning_rate=None, loss_scale: float = 1.0) -> None:
        flags = check_flags("Adamax", foreach=foreach, capturable=capturable,
                    differentiable=differentiable)
        lr = resolve_alias("Adamax", "lr", lr, "learning_rate", learning_rate)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize}
        super().__init__(params, in_pytorch_order(
            "lr betas eps weight_decay foreach maximize differentiable capturable",
            defaults, flags), loss_scale=loss_scale)

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        group["eps"] = check_number(owner, "eps", group["eps"], "Invalid epsilon value: {}")
        group["betas"] = check_betas(owner, group["betas"])
        group["weight_decay"] = check_number(owner, "weight_decay", group["weight_decay"])
        group["maximize"] = check_bool(owner, "maximize", group["maximize"])

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        beta1, beta2 = (float(b) for b in group["betas"])
        eps = float(group["eps"])
        for param, grad in zip(params, grads):
            grad = self._directed(param, grad, group["maximize"], float(group["weight_decay"]))
            state = self.state[param]
            if not state:
                state["step"] = step_tensor()
                state["exp_avg"] = self._new_state(param)
                state["exp_inf"] = self._new_state(param)
            step = self._counted(state["step"])
            real_param, grad, exp_avg, exp_inf = self._real_views(
                param, grad, state["exp_avg"], state["exp_inf"])
            exp_avg.lerp_(grad, 1.0 - beta1)
            exp_inf.mul_(beta2).maximum_(grad.abs().add_(eps))
            self._add_ratio(real_param, exp_avg, exp_inf, -(lr / (1.0 - beta1 ** step)))
            self._written(param, real_param)


__all__ = ["Adamax"]
