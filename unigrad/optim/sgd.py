"""Stochastic gradient descent: PyTorch's ``SGD`` and MindSpore's ``Momentum``.

Both update parameters in place with unigrad in-place ops under ``no_grad``.
``SGD`` follows ``torch.optim.SGD`` (momentum buffer started from the first
gradient, dampening, Nesterov, maximize); ``Momentum`` follows MindSpore's
``ApplyMomentum`` (accumulator started from zero, no dampening).

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0]))
    >>> opt = optim.SGD([w], lr=0.1, momentum=0.5)
    >>> for _ in range(2):
    ...     _ = opt([ug.tensor([1.0])])
    >>> round(w.item(), 6)  # 1 - 0.1 * 1 - 0.1 * (0.5 * 1 + 1)
    0.75
"""

from __future__ import annotations

from .optimizer import (
    Optimizer,
    check_bool,
    check_flags,
    check_number,
    default,
    in_pytorch_order,
    required,
    resolve_alias,
)


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum (``torch.optim.SGD``).

    ``SGD(params, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
    nesterov=False, *, maximize=False, foreach=None, differentiable=False,
    fused=None)``; ``foreach``/``fused`` are accepted and change nothing,
    ``differentiable=True`` raises NotImplementedError. MindSpore spellings
    ``learning_rate`` (= ``lr``; also a list of per-step rates),
    ``use_nesterov`` (= ``nesterov``) and ``loss_scale`` (gradients are divided
    by it) are accepted as keywords. Per parameter and step::

        g = -grad if maximize else grad
        g = g + weight_decay * param
        buf = g (first step) else momentum * buf + (1 - dampening) * g
        g = g + momentum * buf if nesterov else buf      # when momentum != 0
        param -= lr * g

    State: ``momentum_buffer`` (when momentum != 0).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([1.0, -1.0]))
        >>> opt = optim.SGD([w], lr=0.1, weight_decay=0.5)
        >>> (w * 2.0).sum().backward()
        >>> opt.step()
        >>> w.detach()  # w - 0.1 * (2 + 0.5 * w)
        tensor([ 0.7500, -1.1500])
        >>> opt
        SGD (
        Parameter Group 0
            dampening: 0
            differentiable: False
            foreach: None
            fused: None
            lr: 0.1
            maximize: False
            momentum: 0
            nesterov: False
            weight_decay: 0.5
        )
    """

    def __init__(self, params, lr: float = default(1e-3), momentum: float = 0,
                 dampening: float = 0, weight_decay: float = 0, nesterov: bool = default(False),
                 *, maximize: bool = False, foreach: bool | None = None,
                 differentiable: bool = False, fused: bool | None = None, learning_rate=None,
                 use_nesterov: bool | None = None, loss_scale: float = 1.0) -> None:
        flags = check_flags("SGD", foreach=foreach, fused=fused, differentiable=differentiable)
        lr = resolve_alias("SGD", "lr", lr, "learning_rate", learning_rate)
        nesterov = resolve_alias("SGD", "nesterov", nesterov, "use_nesterov", use_nesterov)
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize}
        super().__init__(params, in_pytorch_order(
            "lr momentum dampening weight_decay nesterov maximize foreach differentiable fused",
            defaults, flags), loss_scale=loss_scale)

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        group["momentum"] = check_number(owner, "momentum", group["momentum"],
                                         "Invalid momentum value: {}")
        group["dampening"] = check_number(owner, "dampening", group["dampening"],
                                          low=float("-inf"))
        group["weight_decay"] = check_number(owner, "weight_decay", group["weight_decay"],
                                             "Invalid weight_decay value: {}")
        group["nesterov"] = check_bool(owner, "nesterov", group["nesterov"])
        group["maximize"] = check_bool(owner, "maximize", group["maximize"])
        if group["nesterov"] and (group["momentum"] <= 0 or group["dampening"] != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        momentum = float(group["momentum"])
        dampening = float(group["dampening"])
        weight_decay = float(group["weight_decay"])
        nesterov = group["nesterov"]
        maximize = group["maximize"]
        state = self.state
        for param, grad in zip(params, grads):
            if maximize:
                grad = -grad
            if weight_decay != 0:
                grad = grad.add(param, alpha=weight_decay)
            if momentum != 0:
                param_state = state[param]
                buf = param_state.get("momentum_buffer")
                if buf is None:
                    buf = param_state["momentum_buffer"] = self._new_state(param)
                    buf.copy_(grad)
                elif dampening == 0:
                    buf.mul_(momentum).add_(grad)
                else:
                    buf.mul_(momentum).add_(grad, alpha=1.0 - dampening)
                grad = grad.add(buf, alpha=momentum) if nesterov else buf
            param.add_(grad, alpha=-lr)


class Momentum(Optimizer):
    """MindSpore's momentum optimizer (``mindspore.nn.Momentum``).

    ``Momentum(params, learning_rate, momentum, weight_decay=0.0,
    loss_scale=1.0, use_nesterov=False)``; ``lr`` is accepted for
    ``learning_rate`` and ``learning_rate`` may be a list of per-step rates.
    Per parameter and step (``accum`` starts at zero)::

        g = grad / loss_scale + weight_decay * param
        accum = momentum * accum + g
        param -= lr * accum                     # or, Nesterov:
        param -= lr * (g + momentum * accum)

    As in MindSpore, when ``params`` is a flat list (no groups) weight decay
    skips Parameters whose name contains ``'beta'`` or ``'gamma'`` (the
    normalisation shifts and scales); with groups each group's
    ``weight_decay`` applies to all of its parameters. State:
    ``momentum_buffer`` (the accumulator).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> w = ug.nn.Parameter(ug.tensor([1.0]), name="w")
        >>> opt = optim.Momentum([w], learning_rate=0.1, momentum=0.9)
        >>> for _ in range(2):
        ...     _ = opt((ug.tensor([1.0]),))
        >>> round(w.item(), 6)  # 1 - 0.1 * 1 - 0.1 * (0.9 + 1)
        0.71
    """

    def __init__(self, params, learning_rate=required, momentum=required,
                 weight_decay: float = 0.0, loss_scale: float = 1.0, use_nesterov: bool = False,
                 *, lr=None) -> None:
        learning_rate = resolve_alias("Momentum", "learning_rate", learning_rate, "lr", lr)
        missing = [name for name, value in (("learning_rate", learning_rate),
                                            ("momentum", momentum)) if value is required]
        if missing:
            quoted = " and ".join(f"'{name}'" for name in missing)
            plural = "s" if len(missing) > 1 else ""
            raise TypeError(f"Momentum.__init__() missing {len(missing)} required positional "
                            f"argument{plural}: {quoted}")
        defaults = {"lr": learning_rate, "momentum": momentum, "weight_decay": weight_decay,
                    "nesterov": use_nesterov}
        super().__init__(params, defaults, loss_scale=loss_scale)

    @property
    def use_nesterov(self) -> bool:
        """Whether group 0 uses Nesterov momentum (MindSpore attribute)."""
        return self.param_groups[0]["nesterov"]

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        group["momentum"] = check_number(owner, "momentum", group["momentum"],
                                         "Invalid momentum value: {}")
        group["weight_decay"] = check_number(owner, "weight_decay", group["weight_decay"],
                                             "Invalid weight_decay value: {}")
        group["nesterov"] = check_bool(owner, "use_nesterov", group["nesterov"])

    def _decays(self, param) -> bool:
        if self._grouped:
            return True
        name = getattr(param, "name", None)
        return not (isinstance(name, str) and ("beta" in name or "gamma" in name))

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        momentum = float(group["momentum"])
        weight_decay = float(group["weight_decay"])
        nesterov = group["nesterov"]
        state = self.state
        for param, grad in zip(params, grads):
            if weight_decay != 0 and self._decays(param):
                grad = grad.add(param, alpha=weight_decay)
            param_state = state[param]
            accum = param_state.get("momentum_buffer")
            if accum is None:
                accum = param_state["momentum_buffer"] = self._new_state(param)
            accum.mul_(momentum).add_(grad)
            if nesterov:
                param.sub_(grad.add(accum, alpha=momentum), alpha=lr)
            else:
                param.sub_(accum, alpha=lr)


__all__ = ["SGD", "Momentum"]
