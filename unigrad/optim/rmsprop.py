"""RMSprop (``torch.optim.RMSprop``): steps scaled by a running RMS of the gradients.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0, -1.0]))
    >>> opt = optim.RMSprop([w], lr=0.01)
    >>> opt([ug.tensor([2.0, -0.5])])  # the first step moves each entry by lr / sqrt(1 - alpha)
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


class RMSprop(Optimizer):
    """RMSprop (``torch.optim.RMSprop``), optionally centered and with momentum.

    ``RMSprop(params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0,
    momentum=0, centered=False, capturable=False, foreach=None,
    maximize=False, differentiable=False)``; ``learning_rate`` (also a list of
    per-step rates) and ``loss_scale`` are accepted as keywords. Per parameter
    and step::

        g = (-grad if maximize else grad) + weight_decay * param
        v = alpha * v + (1 - alpha) * g * g
        avg = sqrt(v - m * m) + eps, m = lerp(m, g, 1 - alpha)   # centered
        avg = sqrt(v) + eps                                      # otherwise
        buf = momentum * buf + g / avg;  param -= lr * buf       # momentum > 0
        param -= lr * g / avg                                    # otherwise

    State: ``step`` (0-d float Tensor), ``square_avg`` and, as needed,
    ``momentum_buffer`` and ``grad_avg``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([0.5]))
        >>> opt = optim.RMSprop([w], lr=0.01, momentum=0.9, centered=True)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> round(w.item(), 6), sorted(opt.state[w])
        (0.399496, ['grad_avg', 'momentum_buffer', 'square_avg', 'step'])
    """

    _tensor_step = True

    def __init__(self, params, lr: float = default(1e-2), alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, *, learning_rate=None,
                 loss_scale: float = 1.0) -> None:
        flags = check_flags("RMSprop", foreach=foreach, capturable=capturable,
                    differentiable=differentiable)
        lr = resolve_alias("RMSprop", "lr", lr, "learning_rate", learning_rate)
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay, "maximize": maximize}
        super().__init__(params, in_pytorch_order(
            "lr momentum alpha eps centered "
            "weight_decay capturable foreach maximize differentiable",
            defaults, flags), loss_scale=loss_scale)

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        group["eps"] = check_number(owner, "eps", group["eps"], "Invalid epsilon value: {}")
        for name in ("momentum", "weight_decay", "alpha"):
            group[name] = check_number(owner, name, group[name])
        group["centered"] = check_bool(owner, "centered", group["centered"])
        group["maximize"] = check_bool(owner, "maximize", group["maximize"])

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        alpha = float(group["alpha"])
        eps = float(group["eps"])
        momentum = float(group["momentum"])
        centered = group["centered"]
        for param, grad in zip(params, grads):
            grad = self._directed(param, grad, group["maximize"], float(group["weight_decay"]))
            state = self.state[param]
            if not state:
                state["step"] = step_tensor()
                state["square_avg"] = self._new_state(param)
            for name, wanted in (("momentum_buffer", momentum > 0), ("grad_avg", centered)):
                if wanted and name not in state:
                    state[name] = self._new_state(param)
            state["step"].add_(1.0)
            real_param, grad, square_avg, grad_avg, buf = self._real_views(
                param, grad, state["square_avg"], state.get("grad_avg"),
                state.get("momentum_buffer"))
            square_avg.mul_(alpha).addcmul_(grad, grad, value=1.0 - alpha)
            if centered:
                grad_avg.lerp_(grad, 1.0 - alpha)
                avg = square_avg.addcmul(grad_avg, grad_avg, value=-1.0).sqrt_()
            else:
                avg = square_avg.sqrt()
            avg = avg.add_(eps)
            if momentum > 0:
                buf.mul_(momentum).addcdiv_(grad, avg)
                real_param.add_(buf, alpha=-lr)
            else:
                real_param.addcdiv_(grad, avg, value=-lr)
            self._written(param, real_param)


__all__ = ["RMSprop"]
