"""SparseAdam (``torch.optim.SparseAdam``), which only accepts sparse gradients.

unigrad has no sparse tensors, so every gradient it sees is dense and, as
PyTorch does for a dense gradient, a step that has any gradient to apply
raises ``RuntimeError`` (before changing anything). The class exists so that
PyTorch code that builds it, saves or loads its state, or steps without
gradients, runs unchanged.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.ones(2))
    >>> opt = optim.SparseAdam([w], lr=0.01)
    >>> opt.step()  # no gradient yet: nothing to do
    >>> w.sum().backward()
    >>> opt.step()
    Traceback (most recent call last):
    ...
    RuntimeError: SparseAdam does not support dense gradients, please consider Adam instead
"""

from __future__ import annotations

from ..tensor import Tensor
from .optimizer import (
    Optimizer,
    check_betas,
    check_bool,
    check_number,
    default,
    lr_at,
    resolve_alias,
)


class SparseAdam(Optimizer):
    """Adam for sparse gradients (``torch.optim.SparseAdam``); dense gradients are refused.

    ``SparseAdam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
    maximize=False)``; ``learning_rate`` and ``loss_scale`` are accepted as
    keywords. ``lr`` and ``eps`` must be ``> 0``; complex parameters are
    refused when the optimizer is built. State (PyTorch's): ``step`` (an int),
    ``exp_avg``, ``exp_avg_sq``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.optim as optim
        >>> opt = optim.SparseAdam([ug.nn.Parameter(ug.ones(2))])
        >>> opt.param_groups[0]["betas"], opt.param_groups[0]["eps"]
        ((0.9, 0.999), 1e-08)
        >>> optim.SparseAdam([ug.nn.Parameter(ug.ones(2))], lr=0.0)
        Traceback (most recent call last):
        ...
        ValueError: Invalid learning rate: 0.0
    """

    def __init__(self, params, lr: float = default(1e-3),
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 maximize: bool = False, *, learning_rate=None,
                 loss_scale: float = 1.0) -> None:
        lr = resolve_alias("SparseAdam", "lr", lr, "learning_rate", learning_rate)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize}
        super().__init__(params, defaults, loss_scale=loss_scale)
        complex_params = [[index, inner] for index, group in enumerate(self.param_groups)
                          for inner, param in enumerate(group["params"])
                          if param._data.dtype.kind == "c"]
        if complex_params:
            raise ValueError(f"Complex params at indices {complex_params}: SparseAdam does not "
                             "support complex parameters")

    def _check_hyperparameters(self, group: dict) -> None:
        super()._check_hyperparameters(group)
        owner = type(self).__name__
        lr = group["lr"]
        rates = lr if isinstance(lr, tuple) else (lr,)
        if any(lr_at(rate, 0) == 0 for rate in rates):
            raise ValueError(f"Invalid learning rate: {lr}")
        eps = check_number(owner, "eps", group["eps"], "Invalid epsilon value: {}")
        if eps == 0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        group["eps"] = eps
        group["betas"] = check_betas(owner, group["betas"])
        group["maximize"] = check_bool(owner, "maximize", group["maximize"])

    def _check_target(self, param: Tensor, index: int) -> None:
        super()._check_target(param, index)
        raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam "
                           "instead")


__all__ = ["SparseAdam"]
