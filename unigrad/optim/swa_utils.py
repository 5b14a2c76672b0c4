"""Stochastic weight averaging and exponential moving averages of a model
(``torch.optim.swa_utils``): AveragedModel, SWALR, update_bn and the averaging rules.

A typical SWA run trains normally, then from some epoch on keeps a running
average of the weights (``swa_model.update_parameters(model)`` each epoch)
while :class:`SWALR` holds the learning rate at ``swa_lr``; at the end,
:func:`update_bn` recomputes the batch-norm statistics for the averaged weights.

Example:
    >>> import unigrad as ug
    >>> from unigrad.optim.swa_utils import AveragedModel
    >>> model = ug.nn.Linear(1, 1, bias=False)
    >>> swa_model = AveragedModel(model)
    >>> for value in (1.0, 2.0, 6.0):
    ...     _ = model.weight.detach().fill_(value)
    ...     swa_model.update_parameters(model)
    >>> swa_model.module.weight.item(), swa_model.n_averaged.item()
    (3.0, 3)
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Iterable
from typing import Any

from ..autograd.grad_mode import no_grad
from ..backend import int64
from ..nn.cell import Cell, Module
from ..nn.layers.normalization import _BatchNorm
from ..ops.creation import tensor
from ..tensor import Tensor
from .lr_scheduler import LRScheduler, _check_int, _per_group
from .optimizer import Optimizer

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn",
           "get_ema_avg_fn", "get_swa_avg_fn"]


def _check_decay(decay) -> float:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] "
                         "range.")
    return decay


def get_ema_avg_fn(decay: float = 0.999) -> Callable:
    """``avg_fn`` of an exponential moving average: ``decay * average + (1 - decay) * current``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim.swa_utils import get_ema_avg_fn
        >>> get_ema_avg_fn(0.9)(ug.tensor(1.0), ug.tensor(2.0), 5)
        tensor(1.1000)
    """
    decay = _check_decay(decay)

    def ema_update(ema_param: Tensor, current_param: Tensor, num_averaged) -> Tensor:
        with no_grad():
            return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_swa_avg_fn() -> Callable:
    """``avg_fn`` of the equal-weight average: ``average + (current - average) / (n + 1)``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim.swa_utils import get_swa_avg_fn
        >>> get_swa_avg_fn()(ug.tensor(1.0), ug.tensor(4.0), 2)
        tensor(2.)
    """
    def swa_update(averaged_param: Tensor, current_param: Tensor, num_averaged) -> Tensor:
        with no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable:
    """``multi_avg_fn`` of an exponential moving average, updating lists of tensors in place.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim.swa_utils import get_ema_multi_avg_fn
        >>> average = [ug.tensor([1.0, 3.0])]
        >>> get_ema_multi_avg_fn(0.5)(average, [ug.tensor([3.0, 3.0])], 1)
        >>> average
        [tensor([2., 3.])]
    """
    decay = _check_decay(decay)

    def ema_update(ema_params: list, current_params: list, num_averaged) -> None:
        with no_grad():
            for average, current in zip(ema_params, current_params):
                if average.is_floating_point() or average.is_complex():
                    average.lerp_(current, 1 - decay)
                else:
                    average.copy_(average * decay + current * (1 - decay))
    return ema_update


def get_swa_multi_avg_fn() -> Callable:
    """``multi_avg_fn`` of the equal-weight average, updating lists of tensors in place.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim.swa_utils import get_swa_multi_avg_fn
        >>> average = [ug.tensor([1.0])]
        >>> get_swa_multi_avg_fn()(average, [ug.tensor([4.0])], 2)
        >>> average
        [tensor([2.])]
    """
    def swa_update(averaged_params: list, current_params: list, num_averaged) -> None:
        count = float(num_averaged.item() if isinstance(num_averaged, Tensor) else num_averaged)
        with no_grad():
            for average, current in zip(averaged_params, current_params):
                if average.is_floating_point() or average.is_complex():
                    average.lerp_(current, 1.0 / (count + 1))
                else:
                    average.add_((current - average) / (count + 1))
    return swa_update


class AveragedModel(Module):
    """A copy of ``model`` whose parameters are the running average of the model's.

    ``AveragedModel(model, device=None, avg_fn=None, multi_avg_fn=None,
    use_buffers=False)``: ``module`` is a deep copy of ``model`` (moved to
    ``device`` if given); ``n_averaged`` (a 0-d int64 buffer) counts the
    averaged snapshots. The default rule is the equal-weight (SWA) average;
    :func:`get_ema_multi_avg_fn` gives an EMA. With ``use_buffers=True``
    buffers are averaged too; otherwise they are copied from the model. Calling
    it runs ``module``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn
        >>> model = ug.nn.Linear(2, 1)
        >>> ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
        >>> list(ema.state_dict())
        ['n_averaged', 'module.weight', 'module.bias']
    """

    def __init__(self, model: Module, device=None, avg_fn: Callable | None = None,
                 multi_avg_fn: Callable | None = None, use_buffers: bool = False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        for name, function in (("avg_fn", avg_fn), ("multi_avg_fn", multi_avg_fn)):
            if function is not None and not callable(function):
                raise TypeError(f"AveragedModel: '{name}' must be callable or None, got "
                                f"{type(function).__name__}")
        if not isinstance(model, Cell):
            raise TypeError(f"AveragedModel: 'model' must be a Module, got "
                            f"{type(model).__name__}")
        self.module = copy.deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        count = tensor(0, dtype=int64)
        self.register_buffer("n_averaged", count if device is None else count.to(device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        """Run the averaged copy of the model."""
        return self.module(*args, **kwargs)

    def _tensors(self, model: Module) -> list[Tensor]:
        if self.use_buffers:
            return list(itertools.chain(model.parameters(), model.buffers()))
        return list(model.parameters())

    def update_parameters(self, model: Module) -> None:
        """Fold ``model``'s current parameters (and buffers, by ``use_buffers``) into the average.

        The first call copies them; later calls apply ``avg_fn``/``multi_avg_fn``
        (the SWA average by default). Without ``use_buffers``, buffers are copied.
        """
        averaged = [t.detach() for t in (self._tensors(self.module) if self.use_buffers
                                         else list(self.parameters()))]
        current = [t.detach().to(a.device) for a, t in zip(averaged, self._tensors(model))]
        count = int(self.n_averaged.item())
        with no_grad():
            if count == 0:
                for average, value in zip(averaged, current):
                    average.copy_(value)
            elif self.multi_avg_fn is not None:
                self.multi_avg_fn(averaged, current, self.n_averaged)
            else:
                rule = self.avg_fn if self.avg_fn is not None else get_swa_avg_fn()
                for average, value in zip(averaged, current):
                    average.copy_(rule(average, value, self.n_averaged))
            if not self.use_buffers:
                own = list(self.module.buffers())
                theirs = list(model.buffers())
                if len(own) != len(theirs):
                    raise ValueError(f"AveragedModel.update_parameters: the model has "
                                     f"{len(theirs)} buffers, the averaged copy {len(own)}")
                for buffer, value in zip(own, theirs):
                    buffer.detach().copy_(value.detach().to(buffer.device))
            self.n_averaged.add_(1)


def update_bn(loader: Iterable[Any], model: Module, device=None) -> None:
    """Recompute every BatchNorm's running statistics with one pass over ``loader``.

    Each batch (or its first element, for a tuple/list batch) is fed to
    ``model`` in training mode with ``momentum=None`` (a cumulative average);
    the momenta and training mode are restored afterwards.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim.swa_utils import update_bn
        >>> model = ug.nn.Sequential(ug.nn.BatchNorm1d(1))
        >>> batches = [(ug.tensor([[1.0], [3.0]]), 0), (ug.tensor([[5.0], [7.0]]), 1)]
        >>> update_bn(batches, model)
        >>> model[0].running_mean
        tensor([4.])
    """
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    try:
        with no_grad():
            for batch in loader:
                if isinstance(batch, (list, tuple)):
                    batch = batch[0]
                if device is not None:
                    batch = batch.to(device)
                model(batch)
    finally:
        for module, momentum in momenta.items():
            module.momentum = momentum
        model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's rate to ``swa_lr`` over ``anneal_epochs`` epochs, then hold it.

    ``SWALR(optimizer, swa_lr, anneal_epochs=10, anneal_strategy='cos',
    last_epoch=-1)``; ``swa_lr`` is one rate or one per group.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.swa_utils import SWALR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
        >>> scheduler = SWALR(opt, swa_lr=0.2, anneal_epochs=2, anneal_strategy="linear")
        >>> lrs = []
        >>> for _ in range(4):
        ...     lrs.append(round(scheduler.get_last_lr()[0], 6))
        ...     _ = opt([ug.zeros(1)])
        ...     scheduler.step()
        >>> lrs
        [1.0, 0.6, 0.2, 0.2]
    """

    _NOT_STATE = ("optimizer", "anneal_func")

    def __init__(self, optimizer: Optimizer, swa_lr, anneal_epochs: int = 10,
                 anneal_strategy: str = "cos", last_epoch: int = -1) -> None:
        owner = type(self).__name__
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        swa_lrs = _per_group(owner, "swa_lr", optimizer, swa_lr)
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        if isinstance(anneal_epochs, bool) or not isinstance(anneal_epochs, int) \
                or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        _check_int(owner, "last_epoch", last_epoch, low=-1)
        for rate, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = rate
        self._set_anneal_func(anneal_strategy)
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = _cosine_anneal if anneal_strategy == "cos" else _linear_anneal

    def get_lr(self) -> list[float]:
        """The next rates: the previous ones moved toward ``swa_lr`` by the anneal fraction."""
        self._warn_if_outside_step()
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        previous_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        previous = [_initial_lr(group["lr"], group["swa_lr"], previous_alpha)
                    for group in self.optimizer.param_groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [group["swa_lr"] * alpha + lr * (1 - alpha)
                for group, lr in zip(self.optimizer.param_groups, previous)]

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a :meth:`state_dict` (the anneal function follows the saved strategy)."""
        super().load_state_dict(state_dict)
        self._set_anneal_func(self._anneal_strategy)


def _linear_anneal(fraction: float) -> float:
    return fraction


def _cosine_anneal(fraction: float) -> float:
    return (1 - math.cos(math.pi * fraction)) / 2


def _initial_lr(lr: float, swa_lr: float, alpha: float) -> float:
    """The rate before an anneal step of weight ``alpha`` produced ``lr``."""
    if alpha == 1:
        return swa_lr
    return (lr - alpha * swa_lr) / (1 - alpha)
