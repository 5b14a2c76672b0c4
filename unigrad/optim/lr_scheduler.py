"""Learning-rate schedulers, step for step as ``torch.optim.lr_scheduler``.

A scheduler rewrites ``group['lr']`` of its optimizer's parameter groups each
time :meth:`LRScheduler.step` is called (after ``optimizer.step()``). The
update rules are PyTorch's chainable (recursive) forms, so the values match
PyTorch's to the last bit; ``step(epoch)`` (deprecated, as in PyTorch) uses
the closed forms. Schedulers need a float learning rate: a MindSpore dynamic
learning rate (a list of per-step rates) is already a schedule.

Example:
    >>> import unigrad as ug
    >>> from unigrad.optim import SGD
    >>> from unigrad.optim.lr_scheduler import CosineAnnealingLR, LinearLR, SequentialLR
    >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
    >>> warmup = LinearLR(opt, start_factor=0.5, total_iters=2)
    >>> cosine = CosineAnnealingLR(opt, T_max=2)
    >>> schedule = SequentialLR(opt, [warmup, cosine], milestones=[2])
    >>> lrs = []
    >>> for _ in range(5):
    ...     lrs.append(round(schedule.get_last_lr()[0], 4))
    ...     _ = opt([ug.zeros(1)])
    ...     schedule.step()
    >>> lrs
    [0.5, 0.75, 1.0, 0.5, 0.0]
"""

from __future__ import annotations

import copy
import math
import numbers
import types
import warnings
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .optimizer import Optimizer

__all__ = ["LRScheduler", "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR",
           "LinearLR", "ExponentialLR", "PolynomialLR", "CosineAnnealingLR", "SequentialLR",
           "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts",
           "OneCycleLR"]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where "
    "possible. Please use `scheduler.step()` to step the scheduler. During the deprecation, if "
    "epoch is different from None, the closed form is used instead of the new chainable form, "
    "where available. Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose.")

_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
    "later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first value "
    "of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _check_int(owner: str, name: str, value, low: int | None = None) -> int:
    if not _is_int(value):
        raise TypeError(f"{owner}: '{name}' must be an int, got {type(value).__name__}")
    if low is not None and value < low:
        raise ValueError(f"{owner}: '{name}' must be >= {low}, got {value}")
    return int(value)


def _check_real(owner: str, name: str, value) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{owner}: '{name}' must be a real number, got {type(value).__name__}")
    return value if type(value) in (int, float) else float(value)


def _float_lrs(owner: str, optimizer: Optimizer) -> None:
    """Schedulers rewrite ``group['lr']``: a MindSpore per-step list cannot be scheduled."""
    for index, group in enumerate(optimizer.param_groups):
        lr = group["lr"]
        if isinstance(lr, (bool, np.bool_)) or not isinstance(lr, numbers.Real):
            raise TypeError(f"{owner}: param_groups[{index}]['lr'] is a dynamic learning rate "
                            f"({type(lr).__name__} of per-step rates); a scheduler needs a float "
                            "learning rate. Use either a scheduler or a list of rates, not both.")


class LRScheduler:
    """Base class of the schedulers (``torch.optim.lr_scheduler.LRScheduler``).

    ``LRScheduler(optimizer, last_epoch=-1)`` records ``initial_lr`` in each
    parameter group (when ``last_epoch == -1``; resuming with
    ``last_epoch >= 0`` requires it to be there) and takes the initial step.
    Subclasses define :meth:`get_lr`, the next rates from the current ones.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import LRScheduler
        >>> class Halving(LRScheduler):
        ...     def get_lr(self):
        ...         return [base / 2 ** self.last_epoch for base in self.base_lrs]
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=0.8)
        >>> scheduler = Halving(opt)
        >>> _ = opt([ug.zeros(1)])
        >>> scheduler.step()
        >>> scheduler.get_last_lr(), opt.param_groups[0]["initial_lr"]
        ([0.4], 0.8)
    """

    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        owner = type(self).__name__
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        last_epoch = _check_int(owner, "last_epoch", last_epoch, low=-1)
        _float_lrs(owner, optimizer)
        if last_epoch != -1:
            for index, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{index}] "
                                   "when resuming scheduler with last_epoch >= 0.")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        self.base_lrs: list[float] = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._initial_step()

    def _initial_step(self) -> None:
        """Reset the step count and take the initial step (``last_epoch`` -> ``last_epoch + 1``)."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self) -> list[float]:
        """The next learning rate of each parameter group (called by :meth:`step`)."""
        raise NotImplementedError(f"{type(self).__name__} does not define get_lr()")

    def get_last_lr(self) -> list[float]:
        """The learning rates set by the latest :meth:`step` (one per parameter group)."""
        return list(self._last_lr)

    def step(self, epoch: int | None = None) -> None:
        """Advance the schedule by one epoch and write the new rates into the optimizer.

        ``epoch`` (deprecated, as in PyTorch) jumps to that epoch with the
        closed-form rates where the scheduler has them.
        """
        if self._step_count == 1 and not getattr(self.optimizer, "_opt_called", False):
            warnings.warn(_ORDER_WARNING, UserWarning, stacklevel=2)
        if epoch is not None:
            epoch = _check_int(type(self).__name__, "epoch", epoch, low=0)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        _float_lrs(type(self).__name__, self.optimizer)
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", None)
                values = closed_form() if closed_form is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def _warn_if_outside_step(self) -> None:
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use "
                          "`get_last_lr()`.", UserWarning, stacklevel=3)

    def _group_lrs(self) -> list[float]:
        return [group["lr"] for group in self.optimizer.param_groups]

    # ------------------------------------------------------------ state dicts
    _NOT_STATE = ("optimizer",)

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's attributes except the optimizer (a copy; JSON-friendly values).

        Example:
            >>> import unigrad as ug
            >>> from unigrad.optim import SGD
            >>> from unigrad.optim.lr_scheduler import StepLR
            >>> scheduler = StepLR(SGD([ug.nn.Parameter(ug.ones(1))], lr=0.1), step_size=3)
            >>> sd = scheduler.state_dict()
            >>> sd["step_size"], sd["last_epoch"], sd["base_lrs"]
            (3, 0, [0.1])
        """
        return {key: copy.deepcopy(value) for key, value in self.__dict__.items()
                if key not in self._NOT_STATE}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a :meth:`state_dict` (checked first; nothing changes on an error).

        Example:
            >>> import unigrad as ug
            >>> from unigrad.optim import SGD
            >>> from unigrad.optim.lr_scheduler import ExponentialLR
            >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
            >>> scheduler = ExponentialLR(opt, gamma=0.5)
            >>> scheduler.load_state_dict({**scheduler.state_dict(), "last_epoch": 4})
            >>> scheduler.last_epoch
            4
        """
        self._check_state_dict(state_dict)
        self.__dict__.update({key: copy.deepcopy(value) for key, value in state_dict.items()
                              if key not in self._NOT_STATE})

    def _check_state_dict(self, state_dict) -> None:
        owner = type(self).__name__
        if not isinstance(state_dict, dict):
            raise TypeError(f"{owner}.load_state_dict: expected a dict, got "
                            f"{type(state_dict).__name__}")
        for key in ("last_epoch", "base_lrs"):
            if key not in state_dict:
                raise ValueError(f"{owner}.load_state_dict: the state dict has no '{key}' entry")
        _check_int(owner, "last_epoch", state_dict["last_epoch"], low=-1)
        base_lrs = state_dict["base_lrs"]
        groups = len(self.optimizer.param_groups)
        if not isinstance(base_lrs, (list, tuple)) or len(base_lrs) != groups:
            raise ValueError(f"{owner}.load_state_dict: 'base_lrs' must hold one rate per "
                             f"parameter group ({groups}), got {base_lrs!r}")


def _lambdas(owner: str, optimizer: Optimizer, lr_lambda) -> list:
    groups = len(optimizer.param_groups) if isinstance(optimizer, Optimizer) else 1
    if isinstance(lr_lambda, (list, tuple)):
        if len(lr_lambda) != groups:
            raise ValueError(f"Expected {groups} lr_lambdas, but got {len(lr_lambda)}")
        lambdas = list(lr_lambda)
    else:
        lambdas = [lr_lambda] * groups
    for fn in lambdas:
        if not callable(fn):
            raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
    return lambdas


class _LambdaState:
    """State dicts of the lambda schedulers: plain functions are not saved, objects' dicts are."""

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's state; plain functions save as None, callable objects as their dict."""
        state = {key: copy.deepcopy(value) for key, value in self.__dict__.items()
                 if key not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if _is_plain_function(fn) else copy.deepcopy(fn.__dict__)
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore :meth:`state_dict`; saved callable-object dicts update the current lambdas."""
        self._check_state_dict(state_dict)
        saved = state_dict.get("lr_lambdas", [None] * len(self.lr_lambdas))
        if not isinstance(saved, (list, tuple)) or len(saved) != len(self.lr_lambdas):
            raise ValueError(f"{type(self).__name__}.load_state_dict: 'lr_lambdas' must hold one "
                             f"entry per lambda ({len(self.lr_lambdas)})")
        self.__dict__.update({key: copy.deepcopy(value) for key, value in state_dict.items()
                              if key not in ("optimizer", "lr_lambdas")})
        for fn, attributes in zip(self.lr_lambdas, saved):
            if attributes is not None:
                fn.__dict__.update(copy.deepcopy(attributes))


def _is_plain_function(fn) -> bool:
    import types
    return isinstance(fn, (types.FunctionType, types.BuiltinFunctionType, types.MethodType))


class LambdaLR(_LambdaState, LRScheduler):
    """``lr = initial_lr * lr_lambda(epoch)``; one function, or one per parameter group.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import LambdaLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=0.1)
        >>> scheduler = LambdaLR(opt, lambda epoch: 0.5 ** epoch)
        >>> _ = opt([ug.zeros(1)])
        >>> scheduler.step()
        >>> scheduler.get_last_lr()
        [0.05]
    """

    def __init__(self, optimizer: Optimizer,
                 lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
                 last_epoch: int = -1) -> None:
        self.lr_lambdas = _lambdas(type(self).__name__, optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """``base_lr * lr_lambda(last_epoch)`` for each group."""
        self._warn_if_outside_step()
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas,
                                                                     self.base_lrs)]


class MultiplicativeLR(_LambdaState, LRScheduler):
    """``lr *= lr_lambda(epoch)`` at every step after the first.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import MultiplicativeLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
        >>> scheduler = MultiplicativeLR(opt, lambda epoch: 0.5)
        >>> for _ in range(2):
        ...     _ = opt([ug.zeros(1)])
        ...     scheduler.step()
        >>> scheduler.get_last_lr()
        [0.25]
    """

    def __init__(self, optimizer: Optimizer,
                 lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
                 last_epoch: int = -1) -> None:
        self.lr_lambdas = _lambdas(type(self).__name__, optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """The current rates times ``lr_lambda(last_epoch)`` (unchanged at the initial step)."""
        self._warn_if_outside_step()
        if self._is_initial:
            return self._group_lrs()
        return [group["lr"] * fn(self.last_epoch)
                for fn, group in zip(self.lr_lambdas, self.optimizer.param_groups)]


class StepLR(LRScheduler):
    """Multiply the rate by ``gamma`` every ``step_size`` epochs.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import StepLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
        >>> scheduler = StepLR(opt, step_size=2, gamma=0.1)
        >>> lrs = []
        >>> for _ in range(5):
        ...     lrs.append(scheduler.get_last_lr()[0])
        ...     _ = opt([ug.zeros(1)])
        ...     scheduler.step()
        >>> lrs
        [1.0, 1.0, 0.1, 0.1, 0.010000000000000002]
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.step_size = _check_int(type(self).__name__, "step_size", step_size, low=1)
        self.gamma = _check_real(type(self).__name__, "gamma", gamma)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """The current rates, times ``gamma`` when ``last_epoch`` is a multiple of ``step_size``."""
        self._warn_if_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._group_lrs()
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size)
                for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the rate by ``gamma`` at each milestone epoch (repeated milestones compound).

    In :meth:`state_dict` the milestones are a sorted list (JSON-friendly);
    PyTorch keeps a ``Counter``. Both load.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import MultiStepLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
        >>> scheduler = MultiStepLR(opt, milestones=[1, 3], gamma=0.5)
        >>> lrs = []
        >>> for _ in range(4):
        ...     lrs.append(scheduler.get_last_lr()[0])
        ...     _ = opt([ug.zeros(1)])
        ...     scheduler.step()
        >>> lrs
        [1.0, 0.5, 0.5, 0.25]
    """

    def __init__(self, optimizer: Optimizer, milestones: Iterable[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.milestones = _milestone_counter(type(self).__name__, milestones)
        self.gamma = _check_real(type(self).__name__, "gamma", gamma)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """The current rates, times ``gamma ** count`` at a milestone."""
        self._warn_if_outside_step()
        if self.last_epoch not in self.milestones:
            return self._group_lrs()
        return [group["lr"] * self.gamma ** self.milestones[self.last_epoch]
                for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch)
                for base_lr in self.base_lrs]

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's state, with the milestones as a sorted list of ints."""
        state = super().state_dict()
        state["milestones"] = sorted(self.milestones.elements())
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore :meth:`state_dict` (milestones as a list, a Counter or a JSON object)."""
        self._check_state_dict(state_dict)
        milestones = state_dict.get("milestones", self.milestones)
        if isinstance(milestones, dict):  # a Counter, or a JSON object with string keys
            milestones = [int(k) for k, count in milestones.items() for _ in range(int(count))]
        counter = _milestone_counter(type(self).__name__, milestones)
        super().load_state_dict({**state_dict, "milestones": counter})


def _milestone_counter(owner: str, milestones) -> Counter:
    if isinstance(milestones, (str, bytes)) or not isinstance(milestones, Iterable):
        raise TypeError(f"{owner}: 'milestones' must be an iterable of ints, got "
                        f"{type(milestones).__name__}")
    values = list(milestones)
    for value in values:
        _check_int(owner, "milestones", value)
    return Counter(int(v) for v in values)


class ConstantLR(LRScheduler):
    """Scale the rate by ``factor`` until epoch ``total_iters``, then restore it.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import ConstantLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=0.9)
        >>> scheduler = ConstantLR(opt, factor=0.5, total_iters=2)
        >>> lrs = []
        >>> for _ in range(3):
        ...     lrs.append(scheduler.get_last_lr()[0])
        ...     _ = opt([ug.zeros(1)])
        ...     scheduler.step()
        >>> lrs
        [0.45, 0.45, 0.9]
    """

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        factor = _check_real(type(self).__name__, "factor", factor)
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = _check_int(type(self).__name__, "total_iters", total_iters, low=0)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """``lr * factor`` at epoch 0, ``lr / factor`` at ``total_iters``, else unchanged."""
        self._warn_if_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return self._group_lrs()
        return [group["lr"] * (1.0 / self.factor) for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * (self.factor + (self.last_epoch >= self.total_iters)
                           * (1 - self.factor)) for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """Ramp the rate's factor linearly from ``start_factor`` to ``end_factor`` (warm-up).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import LinearLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
        >>> scheduler = LinearLR(opt, start_factor=0.25, total_iters=3)
        >>> lrs = []
        >>> for _ in range(5):
        ...     lrs.append(scheduler.get_last_lr()[0])
        ...     _ = opt([ug.zeros(1)])
        ...     scheduler.step()
        >>> lrs
        [0.25, 0.5, 0.75, 1.0, 1.0]
    """

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3,
                 end_factor: float = 1.0, total_iters: int = 5, last_epoch: int = -1) -> None:
        owner = type(self).__name__
        start_factor = _check_real(owner, "start_factor", start_factor)
        end_factor = _check_real(owner, "end_factor", end_factor)
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and "
                             "less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = _check_int(owner, "total_iters", total_iters, low=1)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """The current rates times the ratio of consecutive linear factors."""
        self._warn_if_outside_step()
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._group_lrs()
        delta = self.end_factor - self.start_factor
        ratio = 1.0 + delta / (self.total_iters * self.start_factor
                               + (self.last_epoch - 1) * delta)
        return [group["lr"] * ratio for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * (self.start_factor + (self.end_factor - self.start_factor)
                           * min(self.total_iters, self.last_epoch) / self.total_iters)
                for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the rate by ``gamma`` every epoch.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import ExponentialLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
        >>> scheduler = ExponentialLR(opt, gamma=0.5)
        >>> for _ in range(3):
        ...     _ = opt([ug.zeros(1)])
        ...     scheduler.step()
        >>> scheduler.get_last_lr()
        [0.125]
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = _check_real(type(self).__name__, "gamma", gamma)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """The current rates times ``gamma`` (unchanged at the initial step)."""
        self._warn_if_outside_step()
        if self._is_initial:
            return self._group_lrs()
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decay the rate as ``(1 - epoch / total_iters) ** power`` until ``total_iters``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import PolynomialLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
        >>> scheduler = PolynomialLR(opt, total_iters=4, power=1.0)
        >>> lrs = []
        >>> for _ in range(5):
        ...     lrs.append(scheduler.get_last_lr()[0])
        ...     _ = opt([ug.zeros(1)])
        ...     scheduler.step()
        >>> lrs
        [1.0, 0.75, 0.5, 0.25, 0.0]
    """

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1) -> None:
        self.total_iters = _check_int(type(self).__name__, "total_iters", total_iters, low=1)
        self.power = _check_real(type(self).__name__, "power", power)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """The current rates times the ratio of consecutive polynomial factors."""
        self._warn_if_outside_step()
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._group_lrs()
        decay = ((1.0 - self.last_epoch / self.total_iters)
                 / (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [group["lr"] * decay for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters)
                ** self.power for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Cosine annealing from the initial rate to ``eta_min`` over ``T_max`` epochs.

    Uses PyTorch's recursive form (each rate is computed from the previous
    one), so the values match PyTorch's, which differ slightly from the
    closed form ``eta_min + (base - eta_min) * (1 + cos(pi * t / T_max)) / 2``
    when the rate was changed by someone else. Past ``T_max`` the rate
    rises again (the cosine continues).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import CosineAnnealingLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
        >>> scheduler = CosineAnnealingLR(opt, T_max=4, eta_min=0.0)
        >>> lrs = []
        >>> for _ in range(5):
        ...     lrs.append(round(scheduler.get_last_lr()[0], 4))
        ...     _ = opt([ug.zeros(1)])
        ...     scheduler.step()
        >>> lrs
        [1.0, 0.8536, 0.5, 0.1464, 0.0]
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0,  # noqa: N803
                 last_epoch: int = -1) -> None:
        owner = type(self).__name__
        T_max = _check_real(owner, "T_max", T_max)  # noqa: N806
        if not T_max > 0:
            raise ValueError(f"{owner}: 'T_max' must be > 0, got {T_max}")
        self.T_max = T_max
        self.eta_min = _check_real(owner, "eta_min", eta_min)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """The next rates from the current ones (PyTorch's recursive cosine step)."""
        self._warn_if_outside_step()
        if self._is_initial:
            return self._group_lrs()
        if self._step_count == 1 and self.last_epoch > 0:
            return [self.eta_min + (base_lr - self.eta_min)
                    * (1 + math.cos(self.last_epoch * math.pi / self.T_max)) / 2
                    for base_lr in self.base_lrs]
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return [group["lr"] + (base_lr - self.eta_min)
                    * (1 - math.cos(math.pi / self.T_max)) / 2
                    for base_lr, group in zip(self.base_lrs, self.optimizer.param_groups)]
        return [(1 + math.cos(math.pi * self.last_epoch / self.T_max))
                / (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max))
                * (group["lr"] - self.eta_min) + self.eta_min
                for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float]:
        return [self.eta_min + (base_lr - self.eta_min)
                * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


class _SchedulerOfSchedulers:
    """State dicts of a scheduler that drives others (``_schedulers``): its attributes plus
    one state dict per inner scheduler, all checked before anything is restored."""

    _NOT_STATE = ("optimizer", "_schedulers")

    def state_dict(self) -> dict[str, Any]:
        """This scheduler's attributes plus each inner scheduler's state dict."""
        state = LRScheduler.state_dict(self)
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore :meth:`state_dict`, inner schedulers included (checked first)."""
        owner = type(self).__name__
        if not isinstance(state_dict, dict):
            raise TypeError(f"{owner}.load_state_dict: expected a dict, got "
                            f"{type(state_dict).__name__}")
        inner = state_dict.get("_schedulers")
        if not isinstance(inner, (list, tuple)) or len(inner) != len(self._schedulers):
            raise ValueError(f"{owner}.load_state_dict: '_schedulers' must hold one state dict "
                             f"per scheduler ({len(self._schedulers)})")
        for scheduler, saved in zip(self._schedulers, inner):
            scheduler._check_state_dict(saved)
        self._check_own_state(state_dict)
        self.__dict__.update({key: copy.deepcopy(value) for key, value in state_dict.items()
                              if key not in self._NOT_STATE})
        for scheduler, saved in zip(self._schedulers, inner):
            scheduler.load_state_dict(saved)

    def _check_own_state(self, state_dict: dict) -> None:
        """Checks of this scheduler's own entries (none by default)."""


class SequentialLR(_SchedulerOfSchedulers, LRScheduler):
    """Run ``schedulers`` one after another, switching at the ``milestones`` epochs.

    The usual warm-up recipe: ``SequentialLR(opt, [LinearLR(...),
    CosineAnnealingLR(...)], milestones=[warmup_epochs])``. Each scheduler
    restarts from epoch 0 at its milestone.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import ConstantLR, ExponentialLR, SequentialLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
        >>> first = ConstantLR(opt, factor=0.1, total_iters=2)
        >>> second = ExponentialLR(opt, gamma=0.5)
        >>> schedule = SequentialLR(opt, [first, second], milestones=[2])
        >>> lrs = []
        >>> for _ in range(5):
        ...     lrs.append(schedule.get_last_lr()[0])
        ...     _ = opt([ug.zeros(1)])
        ...     schedule.step()
        >>> lrs
        [0.1, 0.1, 1.0, 0.5, 0.25]
    """

    def __init__(self, optimizer: Optimizer, schedulers: list[LRScheduler], milestones: list[int],
                 last_epoch: int = -1) -> None:
        owner = type(self).__name__
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        if not isinstance(schedulers, (list, tuple)) or len(schedulers) < 1:
            raise ValueError(f"{owner} expects at least one scheduler, but got no scheduler.")
        for index, scheduler in enumerate(schedulers):
            if not isinstance(scheduler, LRScheduler):
                raise TypeError(f"{owner} at index {index} should be an LRScheduler, got "
                                f"{type(scheduler).__name__}")
            if scheduler.optimizer is not optimizer:
                raise ValueError(f"{owner} expects all schedulers to belong to the same "
                                 f"optimizer, but got scheduler {type(scheduler).__name__} at "
                                 f"index {index} has {type(scheduler.optimizer).__name__} "
                                 f"{id(scheduler.optimizer):#x}, which is different from "
                                 f"{type(optimizer).__name__} {id(optimizer):#x}.")
        if isinstance(milestones, (str, bytes)) or not isinstance(milestones, Iterable):
            raise TypeError(f"{owner}: 'milestones' must be a list of ints, got "
                            f"{type(milestones).__name__}")
        milestones = [_check_int(owner, "milestones", m) for m in milestones]
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be "
                             "one more than the number of milestone points, but got number of "
                             f"schedulers {len(schedulers)} and the number of milestones to be "
                             f"equal to {len(milestones)}")
        last_epoch = _check_int(owner, "last_epoch", last_epoch, low=-1)
        _float_lrs(owner, optimizer)
        self._schedulers = list(schedulers)
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:  # back to the initial rates
            group["lr"] = group["initial_lr"]
        for scheduler in self._schedulers:  # undo the initial step of each scheduler
            _recursive_undo(scheduler)
        index = bisect_right(self._milestones, 0)
        self._schedulers[index]._initial_step()
        self._last_lr = self._schedulers[index].get_last_lr()

    def step(self) -> None:  # type: ignore[override]
        """Step the scheduler that owns the next epoch (restarting it at its milestone)."""
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    def recursive_undo(self, sched: LRScheduler | None = None) -> None:
        """Take one epoch back from ``sched`` (default: every scheduler in the sequence)."""
        _recursive_undo(self if sched is None else sched)

    def _check_own_state(self, state_dict: dict) -> None:
        _check_int(type(self).__name__, "last_epoch", state_dict.get("last_epoch"), low=0)


def _recursive_undo(scheduler) -> None:
    if hasattr(scheduler, "_schedulers"):
        for inner in scheduler._schedulers:
            _recursive_undo(inner)
    elif hasattr(scheduler, "last_epoch"):
        scheduler.last_epoch -= 1


_LRScheduler = LRScheduler  # PyTorch's old name, kept for existing code


def _per_group(owner: str, name: str, optimizer: Optimizer, value) -> list:
    """``value`` for each parameter group: a list/tuple (one per group) or one number for all."""
    groups = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != groups:
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                             f"{name} has {len(value)} values, param_groups has {groups}.")
        return [_check_real(owner, name, v) for v in value]
    return [_check_real(owner, name, value)] * groups


def _momentum_key(owner: str, optimizer: Optimizer) -> str:
    """Which group entry a momentum-cycling scheduler rewrites: ``betas`` (Adam-like) or
    ``momentum`` (SGD-like)."""
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option "
                         "enabled")
    return "betas" if "betas" in optimizer.defaults else "momentum"


def _set_momentum(group: dict, use_beta1: bool, value: float) -> None:
    if use_beta1:
        group["betas"] = (value, *group["betas"][1:])
    else:
        group["momentum"] = value


def _start_momentum_cycle(owner: str, optimizer: Optimizer, base_momentum, max_momentum,
                          last_epoch: int) -> tuple[bool, list, list]:
    """Check and record the momentum range of a cycling scheduler; on a fresh start every
    group begins at its ``max_momentum`` (as PyTorch's CyclicLR and OneCycleLR)."""
    use_beta1 = _momentum_key(owner, optimizer) == "betas"
    base_momentums = _per_group(owner, "base_momentum", optimizer, base_momentum)
    max_momentums = _per_group(owner, "max_momentum", optimizer, max_momentum)
    if last_epoch == -1:
        for high, low, group in zip(max_momentums, base_momentums, optimizer.param_groups):
            _set_momentum(group, use_beta1, high)
            group["max_momentum"] = high
            group["base_momentum"] = low
    return use_beta1, base_momentums, max_momentums


class ChainedScheduler(_SchedulerOfSchedulers, LRScheduler):
    """Step several schedulers of one optimizer together: their factors multiply.

    ``ChainedScheduler(schedulers, optimizer=None)``; each :meth:`step` calls
    every scheduler's ``step()`` in order. ReduceLROnPlateau (which needs a
    metric) cannot be chained.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import ChainedScheduler, ConstantLR, ExponentialLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
        >>> chain = ChainedScheduler([ConstantLR(opt, factor=0.1, total_iters=2),
        ...                           ExponentialLR(opt, gamma=0.5)])
        >>> lrs = []
        >>> for _ in range(4):
        ...     lrs.append(round(chain.get_last_lr()[0], 6))
        ...     _ = opt([ug.zeros(1)])
        ...     chain.step()
        >>> lrs
        [0.1, 0.05, 0.25, 0.125]
    """

    def __init__(self, schedulers, optimizer: Optimizer | None = None) -> None:
        owner = type(self).__name__
        if isinstance(schedulers, LRScheduler) or not isinstance(schedulers, (list, tuple)):
            raise TypeError(f"{owner}: 'schedulers' must be a list of schedulers, got "
                            f"{type(schedulers).__name__}")
        if len(schedulers) < 1:
            raise ValueError(f"{owner} expects at least one scheduler to be chained, but got no "
                             "scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        for index, scheduler in enumerate(schedulers):
            if not hasattr(scheduler, "optimizer"):
                raise TypeError(f"{owner} at index {index} should have `optimizer` as its "
                                "attribute.")
            if isinstance(scheduler, ReduceLROnPlateau):
                raise ValueError(f"{owner} does not support `ReduceLROnPlateau` scheduler as it "
                                 "requires additional kwargs to be specified when calling "
                                 f"`step`, but got one at index {index} in the given schedulers "
                                 "sequence.")
            if scheduler.optimizer is not optimizer:
                raise ValueError(f"{owner} expects all schedulers to belong to the same "
                                 f"optimizer, but got scheduler {type(scheduler).__name__} at "
                                 f"index {index} has {scheduler.optimizer!r}, which is "
                                 f"different from {type(optimizer).__name__}.")
        self._schedulers = list(schedulers)
        self.optimizer = optimizer
        self._last_lr = self._group_lrs()

    def step(self) -> None:  # type: ignore[override]
        """Step every chained scheduler once, in order."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = self._group_lrs()


class ReduceLROnPlateau(LRScheduler):
    """Multiply the rates by ``factor`` when a metric stops improving for ``patience`` epochs.

    ``ReduceLROnPlateau(optimizer, mode='min', factor=0.1, patience=10,
    threshold=1e-4, threshold_mode='rel', cooldown=0, min_lr=0, eps=1e-8)``;
    call ``step(metric)`` once per epoch. ``mode='max'`` for metrics that
    should grow; ``threshold_mode`` ``'rel'`` compares with ``best * (1 -
    threshold)``, ``'abs'`` with ``best - threshold``; after a reduction
    ``cooldown`` epochs pass before bad epochs count again; a reduction smaller
    than ``eps`` is skipped; rates never go below ``min_lr`` (one per group or
    one for all).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import ReduceLROnPlateau
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
        >>> scheduler = ReduceLROnPlateau(opt, factor=0.5, patience=1)
        >>> for loss in [1.0, 0.9, 0.9, 0.9, 0.9, 0.9]:
        ...     scheduler.step(loss)
        >>> scheduler.get_last_lr(), scheduler.best
        ([0.25], 0.9)
    """

    def __init__(self, optimizer: Optimizer, mode: str = "min", factor: float = 0.1,
                 patience: int = 10, threshold: float = 1e-4, threshold_mode: str = "rel",
                 cooldown: int = 0, min_lr=0, eps: float = 1e-8) -> None:
        owner = type(self).__name__
        factor = _check_real(owner, "factor", factor)
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        _float_lrs(owner, optimizer)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError(f"expected {len(optimizer.param_groups)} min_lrs, got "
                                 f"{len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = [_check_real(owner, "min_lr", v) for v in min_lr]
        else:
            self.default_min_lr = _check_real(owner, "min_lr", min_lr)
            self.min_lrs = [self.default_min_lr] * len(optimizer.param_groups)
        self.factor = factor
        self.optimizer = optimizer
        self.patience = _check_int(owner, "patience", patience, low=0)
        self.cooldown = _check_int(owner, "cooldown", cooldown, low=0)
        self.eps = _check_real(owner, "eps", eps)
        self.last_epoch = 0
        self._last_lr = self._group_lrs()
        self._init_is_better(mode, _check_real(owner, "threshold", threshold), threshold_mode)
        self._reset()

    def _init_is_better(self, mode: str, threshold: float, threshold_mode: str) -> None:
        if mode not in ("min", "max"):
            raise ValueError(f"mode {mode} is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"threshold mode {threshold_mode} is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def _reset(self) -> None:
        """Forget the best value, the bad-epoch count and the cooldown."""
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    @property
    def in_cooldown(self) -> bool:
        """Whether the scheduler is still cooling down after a reduction."""
        return self.cooldown_counter > 0

    def is_better(self, a: float, best: float) -> bool:
        """Whether metric ``a`` improves on ``best`` under ``mode`` and ``threshold``."""
        if self.threshold_mode == "rel":
            scale = 1.0 - self.threshold if self.mode == "min" else self.threshold + 1.0
            return a < best * scale if self.mode == "min" else a > best * scale
        if self.mode == "min":
            return a < best - self.threshold
        return a > best + self.threshold

    def step(self, metrics, epoch=None) -> None:  # type: ignore[override]
        """Record this epoch's metric and reduce the rates after ``patience`` bad epochs."""
        try:
            current = float(metrics)
        except (TypeError, ValueError):
            raise TypeError("ReduceLROnPlateau.step: 'metrics' must be a number or a one-element "
                            f"Tensor, got {type(metrics).__name__}") from None
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self.is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs during the cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = self._group_lrs()

    def _reduce_lr(self) -> None:
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(f"The number of param groups in the `optimizer` ({len(groups)}) "
                                   "differs from when `ReduceLROnPlateau` was initialized "
                                   f"({len(self.min_lrs)}), usually due to a new param group "
                                   "being added to the optimizer. Please modify the `min_lrs` "
                                   "field to match the length of the `optimizer` param groups.")
            self.min_lrs = [self.default_min_lr] * len(groups)
        for group, min_lr in zip(groups, self.min_lrs):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, min_lr)
            if old_lr - new_lr > self.eps:
                group["lr"] = new_lr

    def _check_state_dict(self, state_dict) -> None:
        owner = type(self).__name__
        if not isinstance(state_dict, dict):
            raise TypeError(f"{owner}.load_state_dict: expected a dict, got "
                            f"{type(state_dict).__name__}")
        for key in ("mode", "threshold", "threshold_mode", "best", "last_epoch"):
            if key not in state_dict:
                raise ValueError(f"{owner}.load_state_dict: the state dict has no '{key}' entry")

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a :meth:`state_dict` (checked first; nothing changes on an error)."""
        self._check_state_dict(state_dict)
        probe = copy.copy(self)
        probe._init_is_better(state_dict["mode"], state_dict["threshold"],
                              state_dict["threshold_mode"])
        super().load_state_dict(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)


class CyclicLR(LRScheduler):
    """Cycle the rate between ``base_lr`` and ``max_lr`` (and momentum the other way).

    ``CyclicLR(optimizer, base_lr, max_lr, step_size_up=2000,
    step_size_down=None, mode='triangular', gamma=1.0, scale_fn=None,
    scale_mode='cycle', cycle_momentum=True, base_momentum=0.8,
    max_momentum=0.9, last_epoch=-1)``, stepped after every batch. Modes:
    ``'triangular'`` (constant amplitude), ``'triangular2'`` (halved every
    cycle), ``'exp_range'`` (scaled by ``gamma ** iteration``), or a custom
    ``scale_fn`` of the cycle number or iteration (``scale_mode``). With
    ``cycle_momentum`` the optimizer's ``momentum`` (or Adam's ``beta1``) moves
    inversely between ``max_momentum`` and ``base_momentum``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import CyclicLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=0.1, momentum=0.9)
        >>> scheduler = CyclicLR(opt, base_lr=0.1, max_lr=0.5, step_size_up=2)
        >>> lrs = []
        >>> for _ in range(5):
        ...     lrs.append(round(scheduler.get_last_lr()[0], 6))
        ...     _ = opt([ug.zeros(1)])
        ...     scheduler.step()
        >>> lrs, round(opt.param_groups[0]["momentum"], 6)
        ([0.1, 0.3, 0.5, 0.3, 0.1], 0.85)
    """

    _NOT_STATE = ("optimizer", "_scale_fn_custom")

    def __init__(self, optimizer: Optimizer, base_lr, max_lr, step_size_up: int = 2000,
                 step_size_down: int | None = None, mode: str = "triangular", gamma: float = 1.0,
                 scale_fn: Callable[[float], float] | None = None, scale_mode: str = "cycle",
                 cycle_momentum: bool = True, base_momentum: float = 0.8,
                 max_momentum: float = 0.9, last_epoch: int = -1) -> None:
        owner = type(self).__name__
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        last_epoch = _check_int(owner, "last_epoch", last_epoch, low=-1)
        base_lrs = _per_group(owner, "base_lr", optimizer, base_lr)
        self.max_lrs = _per_group(owner, "max_lr", optimizer, max_lr)
        step_size_up = float(_check_real(owner, "step_size_up", step_size_up))
        step_size_down = (step_size_up if step_size_down is None
                          else float(_check_real(owner, "step_size_down", step_size_down)))
        if not step_size_up + step_size_down > 0:
            raise ValueError(f"{owner}: step_size_up + step_size_down must be > 0, got "
                             f"{step_size_up + step_size_down}")
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        if scale_fn is not None and not callable(scale_fn):
            raise TypeError(f"{owner}: 'scale_fn' must be callable, got "
                            f"{type(scale_fn).__name__}")
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError(f"{owner}: 'scale_mode' must be 'cycle' or 'iterations', got "
                             f"{scale_mode!r}")
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        self.mode = mode
        self.gamma = _check_real(owner, "gamma", gamma)
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = bool(cycle_momentum)
        if self.cycle_momentum:
            self.use_beta1, self.base_momentums, self.max_momentums = _start_momentum_cycle(
                owner, optimizer, base_momentum, max_momentum, last_epoch)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group["lr"] = lr
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        if self._scale_fn_custom is None:  # the built-in modes fix the scale mode
            self.scale_mode = "iterations" if self.mode == "exp_range" else "cycle"

    def scale_fn(self, x: float) -> float:
        """The amplitude factor at cycle (or iteration) ``x``."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        if self.mode == "exp_range":
            return self.gamma ** x
        return 1.0

    def get_lr(self) -> list[float]:
        """The rates (and, with cycle_momentum, the momenta it writes) at ``last_epoch``."""
        self._warn_if_outside_step()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [base_lr + (max_lr - base_lr) * scale_factor * scale
               for base_lr, max_lr in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            for group, low, high in zip(self.optimizer.param_groups, self.base_momentums,
                                        self.max_momentums):
                _set_momentum(group, self.use_beta1, high - (high - low) * scale_factor * scale)
        return lrs

    def state_dict(self) -> dict[str, Any]:
        """The state; a plain ``scale_fn`` saves as None, a callable object as its dict."""
        state = super().state_dict()
        custom = self._scale_fn_custom
        state["_scale_fn_custom"] = (copy.deepcopy(custom.__dict__) if custom is not None and
                                     not isinstance(custom, types.FunctionType) else None)
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a :meth:`state_dict` (a saved scale_fn object's dict is loaded back)."""
        self._check_state_dict(state_dict)
        saved_fn = state_dict.get("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if saved_fn is not None and self._scale_fn_custom is not None:
            self._scale_fn_custom.__dict__.update(saved_fn)
        self._init_scale_fn()


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing restarted every ``T_i`` epochs, with ``T_i`` growing by ``T_mult``.

    ``CosineAnnealingWarmRestarts(optimizer, T_0, T_mult=1, eta_min=0.0,
    last_epoch=-1)``. ``step(epoch)`` accepts a fractional epoch (``epoch +
    batch / batches``), as in PyTorch, for per-batch annealing.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import CosineAnnealingWarmRestarts
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=1.0)
        >>> scheduler = CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)
        >>> lrs = []
        >>> for _ in range(7):
        ...     lrs.append(round(scheduler.get_last_lr()[0], 4))
        ...     _ = opt([ug.zeros(1)])
        ...     scheduler.step()
        >>> lrs
        [1.0, 0.5, 1.0, 0.8536, 0.5, 0.1464, 1.0]
    """

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1,  # noqa: N803
                 eta_min: float = 0.0, last_epoch: int = -1) -> None:
        if not _is_int(T_0) or T_0 <= 0:
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if not _is_int(T_mult) or T_mult < 1:
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if isinstance(eta_min, bool) or not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type "
                             f"{type(eta_min)}")
        self.T_0 = self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """``eta_min + (base - eta_min) * (1 + cos(pi * T_cur / T_i)) / 2`` per group."""
        self._warn_if_outside_step()
        return [self.eta_min + (base_lr - self.eta_min)
                * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base_lr in self.base_lrs]

    def step(self, epoch: float | None = None) -> None:
        """Advance one epoch, or jump to (possibly fractional) ``epoch``.

        As in PyTorch, this step neither counts calls nor warns about the order
        of ``optimizer.step()`` and ``scheduler.step()``.
        """
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            epoch = _check_real(type(self).__name__, "epoch", epoch)
            if epoch < 0:
                raise ValueError(f"Expected non-negative epoch, but got {epoch}")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    cycles = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** cycles - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** cycles
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        _float_lrs(type(self).__name__, self.optimizer)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = self._group_lrs()


class OneCycleLR(LRScheduler):
    """The 1cycle policy: warm up to ``max_lr``, then anneal far below the start.

    ``OneCycleLR(optimizer, max_lr, total_steps=None, epochs=None,
    steps_per_epoch=None, pct_start=0.3, anneal_strategy='cos',
    cycle_momentum=True, base_momentum=0.85, max_momentum=0.95,
    div_factor=25.0, final_div_factor=1e4, three_phase=False, last_epoch=-1)``,
    stepped after every batch, ``total_steps`` (or ``epochs *
    steps_per_epoch``) times at most. Starts at ``max_lr / div_factor``, ends
    at that divided by ``final_div_factor``; momentum (or Adam's ``beta1``)
    moves the other way between ``max_momentum`` and ``base_momentum``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.optim import SGD
        >>> from unigrad.optim.lr_scheduler import OneCycleLR
        >>> opt = SGD([ug.nn.Parameter(ug.ones(1))], lr=0.1, momentum=0.9)
        >>> scheduler = OneCycleLR(opt, max_lr=1.0, total_steps=5, anneal_strategy="linear",
        ...                        div_factor=10.0, final_div_factor=10.0)
        >>> lrs = []
        >>> for _ in range(4):
        ...     lrs.append(round(scheduler.get_last_lr()[0], 4))
        ...     _ = opt([ug.zeros(1)])
        ...     scheduler.step()
        >>> lrs.append(round(scheduler.get_last_lr()[0], 4))
        >>> lrs  # step 0 starts at max_lr / div_factor, step 4 ends at that / final_div_factor
        [0.1, 0.8586, 0.5757, 0.2929, 0.01]
        >>> scheduler.step()  # one step past the end is allowed, as in PyTorch
        >>> scheduler.step()
        Traceback (most recent call last):
        ...
        ValueError: Tried to step 6 times. The specified number of total steps is 5
    """

    def __init__(self, optimizer: Optimizer, max_lr, total_steps: int | None = None,
                 epochs: int | None = None, steps_per_epoch: int | None = None,
                 pct_start: float = 0.3, anneal_strategy: str = "cos",
                 cycle_momentum: bool = True, base_momentum=0.85, max_momentum=0.95,
                 div_factor: float = 25.0, final_div_factor: float = 1e4,
                 three_phase: bool = False, last_epoch: int = -1) -> None:
        owner = type(self).__name__
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        last_epoch = _check_int(owner, "last_epoch", last_epoch, low=-1)
        if total_steps is not None:
            if not _is_int(total_steps) or total_steps <= 0:
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = int(total_steps)
        elif epochs is not None and steps_per_epoch is not None:
            if not _is_int(epochs) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not _is_int(steps_per_epoch) or steps_per_epoch <= 0:
                raise ValueError(f"Expected positive integer steps_per_epoch, but got "
                                 f"{steps_per_epoch}")
            self.total_steps = int(epochs) * int(steps_per_epoch)
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        if not isinstance(pct_start, float) or pct_start < 0 or pct_start > 1:
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        self._schedule_phases = self._phases(pct_start, bool(three_phase))
        div_factor = _check_real(owner, "div_factor", div_factor)
        final_div_factor = _check_real(owner, "final_div_factor", final_div_factor)
        max_lrs = _per_group(owner, "max_lr", optimizer, max_lr)
        self.cycle_momentum = bool(cycle_momentum)
        if self.cycle_momentum:
            self.use_beta1 = _start_momentum_cycle(owner, optimizer, base_momentum, max_momentum,
                                                   last_epoch)[0]
        if last_epoch == -1:
            for high, group in zip(max_lrs, optimizer.param_groups):
                group["initial_lr"] = high / div_factor
                group["max_lr"] = high
                group["min_lr"] = group["initial_lr"] / final_div_factor
        super().__init__(optimizer, last_epoch)

    def _phases(self, pct_start: float, three_phase: bool) -> list[dict]:
        """The schedule's phases: their last step and the group entries they move between."""
        warm_end = float(pct_start * self.total_steps) - 1
        last = self.total_steps - 1
        if three_phase:
            return [_phase(warm_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                    _phase(float(2 * pct_start * self.total_steps) - 2, "max_lr", "initial_lr",
                           "base_momentum", "max_momentum"),
                    _phase(last, "initial_lr", "min_lr", "max_momentum", "max_momentum")]
        return [_phase(warm_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                _phase(last, "max_lr", "min_lr", "base_momentum", "max_momentum")]

    def _anneal(self, start: float, end: float, fraction: float) -> float:
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * fraction) + 1)
        return (end - start) * fraction + start

    def get_lr(self) -> list[float]:
        """The rates (and momenta it writes) at step ``last_epoch`` of the cycle."""
        self._warn_if_outside_step()
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total steps "
                             f"is {self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for index, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step <= end_step or index == len(self._schedule_phases) - 1:
                    fraction = (step - start_step) / (end_step - start_step)
                    lrs.append(self._anneal(group[phase["start_lr"]], group[phase["end_lr"]],
                                            fraction))
                    if self.cycle_momentum:
                        _set_momentum(group, self.use_beta1,
                                      self._anneal(group[phase["start_momentum"]],
                                                   group[phase["end_momentum"]], fraction))
                    break
                start_step = phase["end_step"]
        return lrs


def _phase(end_step: float, start_lr: str, end_lr: str, start_momentum: str,
           end_momentum: str) -> dict:
    return {"end_step": end_step, "start_lr": start_lr, "end_lr": end_lr,
            "start_momentum": start_momentum, "end_momentum": end_momentum}
