"""Muon (``torch.optim.Muon``): momentum updates orthogonalized by a Newton-Schulz iteration.

For 2-D parameters (weight matrices of hidden layers). As in PyTorch the
Newton-Schulz iteration runs in bfloat16; unigrad has no bfloat16 dtype, so it
computes in float32 and rounds every intermediate result to bfloat16
(round to nearest even), which reproduces PyTorch's updates to bfloat16
precision.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.zeros(2, 2))
    >>> opt = optim.Muon([w], lr=0.1, weight_decay=0.0)
    >>> opt([ug.tensor([[3.0, 0.0], [0.0, 1.0]])])
    True
    >>> w.detach()  # the update is near an orthogonal matrix, whatever the gradient's scale
    tensor([[-0.0750,  0.0000],
            [ 0.0000, -0.1133]])
"""

from __future__ import annotations

import math

import numpy as np

from ..backend import namespace_of
from ..tensor import Tensor, _make_tensor
from .optimizer import (
    Optimizer,
    _scalar,
    check_bool,
    default,
    resolve_alias,
)

_ADJUSTMENTS = (None, "original", "match_rms_adamw")


def _bfloat16(array):
    """Float32 ``array`` rounded to the nearest bfloat16 value (ties to even), as float32."""
    xp = namespace_of(array)
    bits = xp.ascontiguousarray(array, dtype=xp.float32).view(xp.uint32)
    bits = bits + (((bits >> 16) & xp.uint32(1)) + xp.uint32(0x7FFF))
    return (bits & xp.uint32(0xFFFF0000)).view(xp.float32)


def _orthogonalize(grad, coefficients: tuple, steps: int, eps: float):
    """PyTorch's quintic Newton-Schulz iteration on a 2-D array, in bfloat16 precision."""
    xp = namespace_of(grad)
    a, b, c = coefficients
    tall = grad.shape[0] > grad.shape[1]
    ortho = _bfloat16(grad.T if tall else grad)
    norm = _bfloat16(xp.sqrt(xp.sum(ortho * ortho, dtype=xp.float32)))
    ortho = _bfloat16(ortho / _bfloat16(xp.maximum(norm, xp.float32(eps))))
    for _ in range(steps):
        gram = _bfloat16(ortho @ ortho.T)
        gram_update = _bfloat16(xp.float32(b) * gram + xp.float32(c) * (gram @ gram))
        ortho = _bfloat16(xp.float32(a) * ortho + gram_update @ ortho)
    return ortho.T if tall else ortho


def _adjusted_lr(lr: float, adjust_lr_fn: str | None, shape: tuple) -> float:
    """The rate for a ``shape`` matrix: ``'original'`` scales by ``sqrt(max(1, rows/cols))``,
    ``'match_rms_adamw'`` by ``0.2 * sqrt(max(rows, cols))``."""
    rows, cols = shape[:2]
    if adjust_lr_fn == "match_rms_adamw":
        return lr * (0.2 * math.sqrt(max(rows, cols)))
    return lr * math.sqrt(max(1, rows / cols))


class Muon(Optimizer):
    """Muon (``torch.optim.Muon``) for 2-D parameters.

    ``Muon(params, lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True,
    ns_coefficients=(3.4445, -4.775, 2.0315), eps=1e-7, ns_steps=5,
    adjust_lr_fn=None)``; ``learning_rate`` (also a list of per-step rates)
    and ``loss_scale`` are accepted as keywords. Per parameter and step::

        buf = lerp(buf, grad, 1 - momentum)
        u = lerp(grad, buf, momentum) if nesterov else buf
        o = newton_schulz(u / |u|, ns_coefficients, ns_steps)   # ~ orthogonal
        param *= 1 - lr * weight_decay
        param -= adjusted_lr * o

    State: ``momentum_buffer``. Parameters that are not matrices are refused
    when the optimizer is built, complex ones at a step (as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> optim.Muon([ug.nn.Parameter(ug.ones(3))])
        Traceback (most recent call last):
        ...
        ValueError: Muon only supports 2D parameters whereas we found a parameter with size: (3,)
    """

    _supports_graph = False
    _lr_message = "Learning rate should be >= 0 but is: {}"

    def __init__(self, params, lr: float = default(1e-3), weight_decay: float = 0.1,
                 momentum: float = 0.95, nesterov: bool = True,
                 ns_coefficients: tuple[float, float, float] = (3.4445, -4.775, 2.0315),
                 eps: float = 1e-7, ns_steps: int = 5, adjust_lr_fn: str | None = None, *,
                 learning_rate=None, loss_scale: float = 1.0) -> None:
        lr = resolve_alias("Muon", "lr", lr, "learning_rate", learning_rate)
        defaults = {"lr": lr, "weight_decay": weight_decay, "momentum": momentum,
                    "nesterov": nesterov, "ns_coefficients": ns_coefficients, "eps": eps,
                    "ns_steps": ns_steps, "adjust_lr_fn": adjust_lr_fn}
        super().__init__(params, defaults, loss_scale=loss_scale)
        for group in self.param_groups:
            for param in group["params"]:
                if param.ndim != 2:
                    raise ValueError("Muon only supports 2D parameters whereas we found a "
                                     f"parameter with size: {tuple(param.shape)}")

    def _check_hyperparameters(self, group: dict) -> None:
        owner = type(self).__name__
        super()._check_hyperparameters(group)
        for name, label in (("momentum", "momentum"), ("weight_decay", "weight decay")):
            value = _scalar(owner, name, group[name])
            if not value >= 0:
                raise ValueError(f"{label} should be >= 0 but is: {value}")
            group[name] = value
        if group["adjust_lr_fn"] not in _ADJUSTMENTS:
            raise ValueError(f"Adjust learning rate function {group['adjust_lr_fn']} is not "
                             "supported")
        coefficients = group["ns_coefficients"]
        if isinstance(coefficients, Tensor) or not isinstance(coefficients, (tuple, list)) or \
                len(coefficients) != 3:
            raise ValueError("Coefficients must be a tuple of exactly 3 values")
        group["ns_coefficients"] = tuple(_scalar(owner, f"ns_coefficients[{i}]", c)
                                         for i, c in enumerate(coefficients))
        steps = group["ns_steps"]
        if isinstance(steps, (bool, np.bool_)) or not isinstance(steps, (int, np.integer)) or \
                steps < 0:
            raise TypeError(f"{owner}: 'ns_steps' must be an int >= 0, got {steps!r}")
        if steps >= 100:
            raise ValueError("Number of steps must be less than 100 for computational efficiency")
        group["eps"] = _scalar(owner, "eps", group["eps"])
        group["nesterov"] = check_bool(owner, "nesterov", group["nesterov"])

    def _check_target(self, param: Tensor, index: int) -> None:
        super()._check_target(param, index)
        if param._data.dtype.kind == "c":
            raise RuntimeError("Muon does not support complex parameters")

    def _update_group(self, group: dict, params: list, grads: list, lr: float) -> None:
        momentum = float(group["momentum"])
        weight_decay = float(group["weight_decay"])
        for param, grad in zip(params, grads):
            state = self.state[param]
            if "momentum_buffer" not in state:
                state["momentum_buffer"] = self._new_state(param)
            buf = state["momentum_buffer"]
            buf.lerp_(grad, 1.0 - momentum)
            update = grad.lerp(buf, momentum) if group["nesterov"] else buf
            ortho = _orthogonalize(update._data, group["ns_coefficients"],
                                   int(group["ns_steps"]), float(group["eps"]))
            param.mul_(1.0 - lr * weight_decay)
            param.add_(_make_tensor(ortho.astype(param._data.dtype)),
                       alpha=-_adjusted_lr(lr, group["adjust_lr_fn"], tuple(param.shape)))


__all__ = ["Muon"]
