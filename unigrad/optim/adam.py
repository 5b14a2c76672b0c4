"""Adam and AdamW (``torch.optim.Adam``/``AdamW``, single-tensor formulas).

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0, -1.0]))
    >>> opt = optim.Adam([w], lr=0.1)
    >>> opt([ug.tensor([3.0, -0.5])])  # the first Adam step moves each entry by ~lr
    True
    >>> w
    Parameter containing:
    tensor([ 0.9000, -0.9000], requires_grad=True)
"""

from __future__ import annotations

from .. import _state
from ..tensor import bump_version
from .optimizer import (
    Optimizer,
    _Default,
    check_betas,
    check_bool,
    check_flags,
    check_number,
    default,
    in_pytorch_order,
    resolve_alias,
    step_tensor,
)


def _resolve_betas(owner: str, betas, beta1, beta2):
    if beta1 is None and beta2 is None:
        return betas.value if isinstance(betas, _Default) else betas
    if not isinstance(betas, _Default):
        raise TypeError(f"{owner}() got both 'betas' and its aliases 'beta1'/'beta2'; pass only "
                        "one spelling")
    first, second = betas.value
    return (first if beta1 is None else beta1, second if beta2 is None else beta2)


class Adam(Optimizer):
    """Adam (``torch.optim.Adam``), with AMSGrad, maximize and optional decoupled weight decay.

    ``Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    amsgrad=False, *, foreach=None, maximize=False, capturable=False,
    differentiable=False, fused=None, decoupled_weight_decay=False)``;
    ``foreach``/``fused``/``capturable`` are accepted and change nothing,
    ``differentiable=True`` raises NotImplementedError. MindSpore spellings
    ``learning_rate`` (also a list of per-step rates), ``beta1``/``beta2``,
    ``use_amsgrad`` and ``loss_scale`` are accepted as keywords. Per parameter
    and step ``t``::

        g = -grad if maximize else grad
        param *= 1 - lr * weight_decay          # decoupled (AdamW), or else
        g = g + weight_decay * param            # L2 (Adam)
        m = lerp(m, g, 1 - beta1);  v = beta2 * v + (1 - beta2) * g * g
        v_max = max(v_max, v)                   # amsgrad: v_max is used below
        param -= lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)

    The ``eps`` placement is PyTorch's (MindSpore's ``nn.Adam`` adds ``eps``
    before the bias correction). State: ``step`` (0-d float Tensor),
    ``exp_avg``, ``exp_avg_sq`` and, with amsgrad, ``max_exp_avg_sq``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([0.5]))
        >>> opt = optim.Adam([w], learning_rate=0.01, beta1=0.8)
        >>> opt.param_groups[0]["betas"]
        (0.8, 0.999)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> round(w.item(), 6), opt.state[w]["step"]
        (0.49, tensor(1.))
    """

    _tensor_step = True

    def __init__(self, params, lr: float = default(1e-3),
                 betas: tuple[float, float] = default((0.9, 0.999)), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = default(False), *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, fused: bool | None = None,
                 decoupled_weight_decay: bool = False, learning_rate=None,
                 beta1: float | None = None, beta2: float | None = None,
                 use_amsgrad: bool | None = None, loss_scale: float = 1.0) -> None:
        owner = type(self).__name__
        flags = check_flags(owner, foreach=foreach, fused=fused, capturable=capturable,
                    differentiable=differentiable)
        lr = resolve_alias(owner, "lr", lr, "learning_rate", learning_rate)
        betas = _resolve_betas(owner, betas, beta1, beta2)
        amsgrad = resolve_alias(owner, "amsgrad", amsgrad, "use_amsgrad", use_amsgrad)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, in_pytorch_order(
            "lr betas eps weight_decay amsgrad "
            "maximize foreach capturable differentiable fused decoupled_weight_decay",
            defaults, flags), loss_scale=loss_scale)

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        group["eps"] = check_number(owner, "eps", group["eps"], "Invalid epsilon value: {}")
        group["betas"] = check_betas(owner, group["betas"])
        group["weight_decay"] = check_number(owner, "weight_decay", group["weight_decay"],
                                             "Invalid weight_decay value: {}")
        group["amsgrad"] = check_bool(owner, "amsgrad", group["amsgrad"])
        group["maximize"] = check_bool(owner, "maximize", group["maximize"])
        group["decoupled_weight_decay"] = check_bool(owner, "decoupled_weight_decay",
                                                     group["decoupled_weight_decay"])

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        beta1, beta2 = (float(b) for b in group["betas"])
        eps = float(group["eps"])
        weight_decay = float(group["weight_decay"])
        amsgrad = group["amsgrad"]
        maximize = group["maximize"]
        decoupled = group["decoupled_weight_decay"]
        state = self.state
        for param, grad in zip(params, grads):
            if maximize:
                grad = -grad
            param_state = state[param]
            if not param_state:
                param_state["step"] = step_tensor()
                param_state["exp_avg"] = self._new_state(param)
                param_state["exp_avg_sq"] = self._new_state(param)
                if amsgrad:
                    param_state["max_exp_avg_sq"] = self._new_state(param)
            exp_avg = param_state["exp_avg"]
            exp_avg_sq = param_state["exp_avg_sq"]
            complex_param = None
            if param._data.dtype.kind == "c":  # as PyTorch: the real and imaginary parts apart
                complex_param = param
                if amsgrad and "max_exp_avg_sq" not in param_state:
                    param_state["max_exp_avg_sq"] = self._new_state(param)
                param, grad, exp_avg, exp_avg_sq = (self._real_pairs(t) for t in (
                    param, grad, exp_avg, exp_avg_sq))
            step_t = param_state["step"]
            step_t.add_(1.0)
            grad = self._decayed(param, grad, lr, weight_decay, decoupled)
            exp_avg.lerp_(grad, 1.0 - beta1)
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1.0 - beta2)
            if amsgrad:
                max_exp_avg_sq = param_state.get("max_exp_avg_sq")
                if max_exp_avg_sq is None:
                    max_exp_avg_sq = param_state["max_exp_avg_sq"] = self._new_state(param)
                elif complex_param is not None:
                    max_exp_avg_sq = self._real_pairs(max_exp_avg_sq)
                max_exp_avg_sq.maximum_(exp_avg_sq)
                second_moment = max_exp_avg_sq
            else:
                second_moment = exp_avg_sq
            if _state.local.trace is None:
                step = float(step_t.item())
                bias_correction1 = 1.0 - beta1 ** step
                bias_correction2_sqrt = (1.0 - beta2 ** step) ** 0.5
                denom = second_moment.sqrt() / bias_correction2_sqrt + eps
                param.addcdiv_(exp_avg, denom, value=-(lr / bias_correction1))
            else:  # graph mode: the step count is a traced value, so is the bias correction
                bias_correction1 = 1.0 - beta1 ** step_t
                bias_correction2_sqrt = (1.0 - beta2 ** step_t).sqrt()
                denom = second_moment.sqrt() / bias_correction2_sqrt + eps
                param.sub_(exp_avg / denom * (lr / bias_correction1))
            if complex_param is not None:
                bump_version(complex_param)  # written through its real view


class AdamW(Adam):
    """Adam with decoupled weight decay (``torch.optim.AdamW``; default ``weight_decay=1e-2``).

    Each step first shrinks the parameter, ``param *= 1 - lr * weight_decay``,
    then applies the Adam update; the decay never enters the moments. Takes
    Adam's arguments except ``decoupled_weight_decay`` (always on).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([2.0]))
        >>> opt = optim.AdamW([w], lr=0.1, weight_decay=0.5)
        >>> opt([ug.tensor([0.0])])  # zero gradient: only the decay acts
        True
        >>> round(w.item(), 6)  # 2 * (1 - 0.1 * 0.5)
        1.9
    """

    def __init__(self, params, lr: float = default(1e-3),
                 betas: tuple[float, float] = default((0.9, 0.999)), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = default(False), *,
                 maximize: bool = False, foreach: bool | None = None, capturable: bool = False,
                 differentiable: bool = False, fused: bool | None = None, learning_rate=None,
                 beta1: float | None = None, beta2: float | None = None,
                 use_amsgrad: bool | None = None, loss_scale: float = 1.0) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable, differentiable=differentiable,
                         fused=fused, decoupled_weight_decay=True, learning_rate=learning_rate,
                         beta1=beta1, beta2=beta2, use_amsgrad=use_amsgrad,
                         loss_scale=loss_scale)

    def _check_hyperparameters(self, group: dict) -> None:
        group["decoupled_weight_decay"] = True
        super()._check_hyperparameters(group)


__all__ = ["Adam", "AdamW"]
