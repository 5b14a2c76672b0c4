"""Adafactor (``torch.optim.Adafactor``): factored second moments, relative step sizes.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.ones(2, 3))
    >>> opt = optim.Adafactor([w])
    >>> opt([ug.ones(2, 3)])
    True
    >>> sorted((name, tuple(value.shape)) for name, value in opt.state[w].items())
    [('col_var', (1, 3)), ('row_var', (2, 1)), ('step', ())]
"""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from .optimizer import (
    Optimizer,
    _scalar,
    check_bool,
    check_flags,
    check_pair,
    default,
    in_pytorch_order,
    resolve_alias,
    step_tensor,
)


def _at_least(owner: str, name: str, value, low: float, message: str):
    """``value`` as a number ``>= low``; ``message`` (with ``{}``) otherwise."""
    value = _scalar(owner, name, value)
    if not value >= low:
        raise ValueError(message.format(value))
    return value


class Adafactor(Optimizer):
    """Adafactor (``torch.optim.Adafactor``), PyTorch's variant (``lr`` caps the relative step).

    ``Adafactor(params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
    weight_decay=0.0, *, foreach=None, maximize=False)``; ``learning_rate``
    (also a list of per-step rates) and ``loss_scale`` are accepted as
    keywords. ``eps[0]`` None means the machine epsilon of the (first)
    parameter's dtype. Per parameter and step ``t``::

        g = -grad if maximize else grad
        rho = min(lr, 1 / sqrt(t));  a = max(eps[1], rms(param)) * rho
        param *= 1 - lr * weight_decay
        # matrices (and stacks of them): row and column means of g * g
        R = lerp(R, mean(g * g, -1), t**beta2_decay)
        C = lerp(C, mean(g * g, -2), t**beta2_decay)
        V = R @ C / max(mean(R, -2), eps[0])
        # vectors and scalars: V = lerp(V, g * g, t**beta2_decay)
        u = g / sqrt(max(V, eps[0] ** 2))
        param -= a * u / max(1, rms(u) / d)

    State: ``step`` (0-d float Tensor) and ``row_var``/``col_var``
    (parameters with two or more dimensions) or ``variance``. Complex
    parameters are refused, as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([0.5, -2.0]))
        >>> opt = optim.Adafactor([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w.detach()  # moved by rms(w) * lr against the sign of the gradient
        tensor([ 0.3542, -1.8542])
    """

    _tensor_step = True
    _lr_message = "Learning rate should be >= 0 but is: {}"

    def __init__(self, params, lr: float = default(1e-2), beta2_decay: float = -0.8,
                 eps: tuple[float | None, float] = (None, 1e-3), d: float = 1.0,
                 weight_decay: float = 0.0, *, foreach: bool | None = None,
                 maximize: bool = False, learning_rate=None, loss_scale: float = 1.0) -> None:
        flags = check_flags("Adafactor", foreach=foreach)
        lr = resolve_alias("Adafactor", "lr", lr, "learning_rate", learning_rate)
        defaults = {"lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d,
                    "weight_decay": weight_decay, "maximize": maximize}
        super().__init__(params, in_pytorch_order(
            "lr beta2_decay eps d weight_decay foreach maximize",
            defaults, flags), loss_scale=loss_scale)

    def _check_hyperparameters(self, group: dict) -> None:
        owner = type(self).__name__
        super()._check_hyperparameters(group)
        beta2_decay = _scalar(owner, "beta2_decay", group["beta2_decay"])
        if not beta2_decay <= 0:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        group["beta2_decay"] = beta2_decay
        eps = check_pair(owner, "eps", group["eps"], "numbers (eps1 or None, eps2)")
        eps1 = None if eps[0] is None else _at_least(
            owner, "eps[0]", eps[0], 0.0, "epsilon1 should be >= 0 but is: {}")
        group["eps"] = (eps1, _at_least(owner, "eps[1]", eps[1], 0.0,
                                        "epsilon2 should be >= 0 but is: {}"))
        group["d"] = _at_least(owner, "d", group["d"], 1.0,
                               "Clipping threshold d should be >= 1 but is: {}")
        group["weight_decay"] = _at_least(owner, "weight_decay", group["weight_decay"], 0.0,
                                          "weight_decay should be >= 0 but is: {}")
        group["maximize"] = check_bool(owner, "maximize", group["maximize"])

    def _check_target(self, param: Tensor, index: int) -> None:
        super()._check_target(param, index)
        if param._data.dtype.kind == "c":
            raise RuntimeError("Adafactor does not support complex parameters")

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        beta2_decay = float(group["beta2_decay"])
        eps1, eps2 = group["eps"]
        d = float(group["d"])
        weight_decay = float(group["weight_decay"])
        for param, grad in zip(params, grads):
            grad = self._directed(param, grad, group["maximize"], 0.0)
            if eps1 is None:  # as PyTorch: the first parameter's dtype decides
                eps1 = float(np.finfo(param._data.dtype).eps)
            state = self.state[param]
            if not state:
                self._init_state(state, param)
            step = self._counted(state["step"])
            one_minus_beta2 = step ** beta2_decay
            if isinstance(one_minus_beta2, Tensor):  # lerp_ wants a weight of its dtype
                one_minus_beta2 = one_minus_beta2.to(param.dtype)
            norm, size = param.norm(2), param.numel() ** 0.5
            if isinstance(step, Tensor):  # graph mode: min/max as clamps of traced values
                alpha = (norm / size).clamp(min=eps2) * (1.0 / step.sqrt()).clamp(max=lr)
            else:
                alpha = max(eps2, float(norm.item()) / size) * min(lr, 1.0 / step ** 0.5)
            if weight_decay != 0:
                param.mul_(1.0 - lr * weight_decay)
            if grad.ndim > 1:
                row_var, col_var = state["row_var"], state["col_var"]
                row_var.lerp_(grad.norm(dim=-1, keepdim=True).square().div_(grad.shape[-1]),
                              one_minus_beta2)
                col_var.lerp_(grad.norm(dim=-2, keepdim=True).square().div_(grad.shape[-2]),
                              one_minus_beta2)
                var_estimate = (row_var @ col_var).div_(
                    row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
            else:
                variance = state["variance"]
                variance.lerp_(grad * grad, one_minus_beta2)
                var_estimate = variance.clone()
            update = var_estimate.clamp_(min=eps1 * eps1).rsqrt().mul_(grad)
            norm, size = update.norm(2), update.numel() ** 0.5 * d
            if isinstance(step, Tensor):
                param.sub_(update * (alpha / (norm / size).clamp(min=1.0)))
            else:
                param.add_(update, alpha=-alpha / max(1.0, float(norm.item()) / size))

    def _init_state(self, state: dict, param: Tensor) -> None:
        state["step"] = step_tensor()
        if param.ndim > 1:
            state["row_var"] = self._new_state(param, self._state_shape(param, "row_var"))
            state["col_var"] = self._new_state(param, self._state_shape(param, "col_var"))
        else:
            state["variance"] = self._new_state(param)

    def _state_shape(self, param: Tensor, name: str) -> tuple | None:
        shape = tuple(param.shape)
        if name == "row_var":
            return shape[:-1] + (1,)
        if name == "col_var":
            return shape[:-2] + (1,) + shape[-1:]
        return shape


__all__ = ["Adafactor"]
