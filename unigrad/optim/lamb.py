"""Lamb (MindSpore's ``nn.Lamb``): Adam moments with a layer-wise trust ratio.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([3.0, 4.0]))
    >>> opt = optim.Lamb([w], lr=0.1)
    >>> opt([ug.tensor([1.0, 1.0])])  # the step has length lr * ||w||: here 0.5
    True
    >>> w
    Parameter containing:
    tensor([2.6464, 3.6464], requires_grad=True)
"""

from __future__ import annotations

from .. import ops
from ..tensor import Tensor
from .adam import _resolve_betas
from .optimizer import (
    Optimizer,
    _param_label,
    check_betas,
    check_number,
    default,
    resolve_alias,
    step_tensor,
)


def trust_ratio(param: Tensor, update: Tensor) -> Tensor:
    """``||param|| / ||update||`` as a 0-d tensor, or 1 where either norm is 0 (LAMB's rule).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim.lamb import trust_ratio
        >>> trust_ratio(ug.tensor([3.0, 4.0]), ug.tensor([0.0, 2.0]))
        tensor(2.5000)
        >>> trust_ratio(ug.tensor([0.0, 0.0]), ug.tensor([1.0, 2.0]))
        tensor(1.)
    """
    param_norm = (param * param).sum().sqrt()
    update_norm = (update * update).sum().sqrt()
    both = (param_norm > 0) & (update_norm > 0)
    return ops.where(both, param_norm / ops.where(both, update_norm, 1.0), 1.0)


class Lamb(Optimizer):
    """Lamb (MindSpore's ``nn.Lamb`` rule; PyTorch has no Lamb).

    ``Lamb(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-6, weight_decay=0)``;
    MindSpore spellings ``learning_rate`` (also a list of per-step rates),
    ``beta1``/``beta2`` and ``loss_scale`` are accepted as keywords. Per
    parameter and step ``t``::

        m = lerp(m, g, 1 - beta1);  v = beta2 * v + (1 - beta2) * g * g
        u = m / (1 - beta1**t) / (sqrt(v / (1 - beta2**t)) + eps) + weight_decay * param
        r = ||param|| / ||u||   (1 when either norm is 0)
        param -= lr * r * u

    State: ``step`` (0-d float Tensor), ``exp_avg`` (``m``) and ``exp_avg_sq``
    (``v``). Real floating-point parameters only.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([0.6, 0.8]))
        >>> opt = optim.Lamb([w], lr=0.1, weight_decay=0.01)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> [round(x, 6) for x in w.tolist()], sorted(opt.state[w])
        ([0.52936, 0.729219], ['exp_avg', 'exp_avg_sq', 'step'])
    """

    _tensor_step = True

    def __init__(self, params, lr: float = default(1e-3),
                 betas: tuple[float, float] = default((0.9, 0.999)), eps: float = 1e-6,
                 weight_decay: float = 0, *, learning_rate=None, beta1: float | None = None,
                 beta2: float | None = None, loss_scale: float = 1.0) -> None:
        owner = type(self).__name__
        lr = resolve_alias(owner, "lr", lr, "learning_rate", learning_rate)
        betas = _resolve_betas(owner, betas, beta1, beta2)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay}
        super().__init__(params, defaults, loss_scale=loss_scale)

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        group["eps"] = check_number(owner, "eps", group["eps"], "Invalid epsilon value: {}")
        group["betas"] = check_betas(owner, group["betas"])
        group["weight_decay"] = check_number(owner, "weight_decay", group["weight_decay"],
                                             "Invalid weight_decay value: {}")

    def _check_target(self, param: Tensor, index: int) -> None:
        if param._data.dtype.kind != "f":
            raise TypeError(f"For '{type(self).__name__}', parameter "
                            f"{_param_label(param, index)} has dtype {param.dtype.name}; only "
                            "real floating-point parameters can be optimized")

    def _decays(self, param: Tensor) -> bool:
        """Whether ``weight_decay`` applies to ``param`` (all of them; front-ends narrow it)."""
        return True

    def _betas(self, group: dict) -> tuple[float, float]:
        """The group's ``(beta1, beta2)`` as the rule uses them."""
        return tuple(float(beta) for beta in group["betas"])

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        beta1, beta2 = self._betas(group)
        eps = float(group["eps"])
        decay = float(group["weight_decay"])
        for param, grad in zip(params, grads):
            state = self.state[param]
            if not state:
                state["step"] = step_tensor()
                state["exp_avg"] = self._new_state(param)
                state["exp_avg_sq"] = self._new_state(param)
            step = self._counted(state["step"])
            exp_avg = state["exp_avg"].lerp_(grad, 1.0 - beta1)
            exp_avg_sq = state["exp_avg_sq"].mul_(beta2).addcmul_(grad, grad, value=1.0 - beta2)
            denominator = (exp_avg_sq / (1.0 - beta2 ** step)).sqrt_().add_(eps)
            update = exp_avg / (1.0 - beta1 ** step) / denominator
            if decay != 0 and self._decays(param):
                update = update.add_(param, alpha=decay)
            param.sub_(update * (trust_ratio(param, update) * lr))


__all__ = ["Lamb"]
