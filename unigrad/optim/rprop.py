"""Rprop (``torch.optim.Rprop``): resilient backpropagation, sign-based per-entry steps.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0, -1.0]))
    >>> opt = optim.Rprop([w], lr=0.1)
    >>> opt([ug.tensor([2.0, -0.5])])  # the first step moves each entry by lr
    True
    >>> w
    Parameter containing:
    tensor([ 0.9000, -0.9000], requires_grad=True)
"""

from __future__ import annotations

from ..ops import where
from .optimizer import (
    Optimizer,
    check_bool,
    check_flags,
    check_number,
    check_pair,
    default,
    in_pytorch_order,
    resolve_alias,
    step_tensor,
)


def _check_pair(owner: str, name: str, value) -> tuple:
    """A pair of numbers (``etas``, ``step_sizes``)."""
    return tuple(check_number(owner, f"{name}[{i}]", v, low=float("-inf"))
                 for i, v in enumerate(check_pair(owner, name, value)))


class Rprop(Optimizer):
    """Rprop (``torch.optim.Rprop``).

    ``Rprop(params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
    capturable=False, foreach=None, maximize=False, differentiable=False)``;
    ``learning_rate`` (also a list of per-step rates) and ``loss_scale`` are
    accepted as keywords. Each entry's step size starts at ``lr``; per step::

        g = -grad if maximize else grad
        s = sign(g * prev)
        step_size = clamp(step_size * (etaplus if s > 0 else etaminus if s < 0 else 1),
                          *step_sizes)
        g = 0 where s < 0
        param -= sign(g) * step_size;  prev = g

    State: ``step`` (0-d float Tensor), ``prev`` and ``step_size``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([1.0, 1.0]))
        >>> opt = optim.Rprop([w], lr=0.1, etas=(0.5, 2.0))
        >>> _ = opt([ug.tensor([1.0, 1.0])])
        >>> _ = opt([ug.tensor([1.0, -1.0])])  # same sign: step doubles; sign flip: halves
        >>> opt.state[w]["step_size"], w.detach()
        (tensor([0.2000, 0.0500]), tensor([0.7000, 0.9000]))
    """

    _tensor_step = True

    def __init__(self, params, lr: float = default(1e-2),
                 etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, learning_rate=None,
                 loss_scale: float = 1.0) -> None:
        flags = check_flags("Rprop", foreach=foreach, capturable=capturable,
                    differentiable=differentiable)
        lr = resolve_alias("Rprop", "lr", lr, "learning_rate", learning_rate)
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "maximize": maximize}
        super().__init__(params, in_pytorch_order(
            "lr etas step_sizes foreach maximize differentiable capturable",
            defaults, flags), loss_scale=loss_scale)

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        etas = _check_pair(owner, "etas", group["etas"])
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        group["etas"] = etas
        group["step_sizes"] = _check_pair(owner, "step_sizes", group["step_sizes"])
        group["maximize"] = check_bool(owner, "maximize", group["maximize"])

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        etaminus, etaplus = (float(e) for e in group["etas"])
        step_size_min, step_size_max = (float(s) for s in group["step_sizes"])
        for param, grad in zip(params, grads):
            grad = self._directed(param, grad, group["maximize"], 0.0)
            state = self.state[param]
            if not state:
                state["step"] = step_tensor()
                state["prev"] = self._new_state(param)
                state["step_size"] = self._new_state(param)
                self._real_views(param, state["step_size"])[1].fill_(lr)
            state["step"].add_(1.0)
            real_param, grad, prev, step_size = self._real_views(
                param, grad, state["prev"], state["step_size"])
            sign = grad.mul(prev).sign()
            step_size.mul_(where(sign > 0, etaplus, where(sign < 0, etaminus, 1.0)))
            step_size.clamp_(step_size_min, step_size_max)
            grad = where(sign < 0, 0.0, grad)
            real_param.addcmul_(grad.sign(), step_size, value=-1.0)
            prev.copy_(grad)
            self._written(param, real_param)


__all__ = ["Rprop"]
