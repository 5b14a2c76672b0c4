"""MindSpore's learning-rate schedules: the Cells of ``mindspore.nn.learning_rate_schedule``
(``nn.ExponentialDecayLR(...)(global_step)`` returns a float32 Tensor) and the functions of
``mindspore.nn.dynamic_lr`` (``nn.exponential_decay_lr(...)`` returns a list with one rate
per step), with MindSpore's argument checks and messages.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> nn.piecewise_constant_lr([2, 3], [0.1, 0.05])
    [0.1, 0.1, 0.05]
    >>> print(nn.WarmUpLR(0.1, 4)(ms.Tensor(1, ms.int32)))
    0.025
"""

from __future__ import annotations

import math

import numpy as np

from ._tensor import Tensor
from .nn import Cell

__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR",
           "InverseDecayLR", "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR",
           "piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr",
           "inverse_decay_lr", "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]


# ------------------------------------------------------------------------------ checks

def _prefix(owner: str | None) -> str:
    return f"For '{owner}', the" if owner else "The"


def _check_positive_int(value, name: str, owner: str | None = None) -> None:
    """MindSpore's ``check_positive_int``: an int (not bool) greater than 0."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{_prefix(owner)} '{name}' must be int, but got "
                        f"'{type(value).__name__}'")
    if value <= 0:
        raise ValueError(f"{_prefix(owner)} '{name}' must be int and must > 0, but got "
                         f"'{value}' with type 'int'.")


def _check_float(value, name: str, owner: str | None = None, strict: bool = True) -> None:
    """MindSpore's ``check_positive_float`` (``strict``) or ``check_non_negative_float``."""
    if not isinstance(value, float):
        raise TypeError(f"{_prefix(owner)} '{name}' must be float, but got "
                        f"'{type(value).__name__}'")
    if value <= 0 if strict else value < 0:
        raise ValueError(f"{_prefix(owner)} '{name}' must be float and must "
                         f"{'>' if strict else '>='} 0, but got '{value}' with type 'float'.")


def _check_bool(value, name: str, owner: str | None = None) -> None:
    if not isinstance(value, bool):
        owner_text = f"For '{owner}', the" if owner else "The"
        raise TypeError(f"{owner_text} type of '{name}' should be 'bool', but got type "
                        f"'{type(value).__name__}'.")


def _check_min_max(owner: str, min_lr, max_lr) -> None:
    """``min_lr``/``max_lr`` of the cosine schedules: floats, ``0 <= min_lr < max_lr``."""
    if not isinstance(min_lr, float):
        raise TypeError(f"For '{owner}', the argument 'min_lr' must be type of float, but got "
                        f"'min_lr' type: {type(min_lr)}.")
    _check_float(min_lr, "min_lr", None if owner[0].islower() else owner, strict=False)
    _check_float(max_lr, "max_lr", None if owner[0].islower() else owner)


def _check_order(owner: str, min_lr: float, max_lr: float) -> None:
    if min_lr >= max_lr:
        raise ValueError(f"For '{owner}', the 'max_lr' must be greater than the 'min_lr', but "
                         f"got 'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")


def _check_end_rate(owner: str, end_learning_rate) -> None:
    if not isinstance(end_learning_rate, float):
        raise TypeError(f"For '{owner}', the argument 'end_learning_rate' must be type of "
                        f"float, but got 'end_learning_rate' type: {type(end_learning_rate)}.")
    _check_float(end_learning_rate, "end_learning_rate",
                 None if owner[0].islower() else owner, strict=False)


def _check_decay(learning_rate, decay_rate, is_stair, owner: str | None = None) -> None:
    _check_float(learning_rate, "learning_rate", owner)
    _check_float(decay_rate, "decay_rate", owner)
    _check_bool(is_stair, "is_stair", owner)


# ------------------------------------------------------------------------------ Cells

class LearningRateSchedule(Cell):
    """``nn.LearningRateSchedule()``: the base of the schedules; a subclass defines
    ``construct(global_step)`` returning the learning rate at that step.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> class Halving(nn.LearningRateSchedule):
        ...     def construct(self, global_step):
        ...         return 0.5 ** global_step
        >>> print(Halving()(ms.Tensor(2.0)))
        0.25
    """

    def construct(self, global_step):
        raise NotImplementedError


def _float_step(global_step) -> np.ndarray:
    """The step as float32 (MindSpore casts the step Tensor before computing)."""
    return np.asarray(global_step._data if isinstance(global_step, Tensor) else global_step,
                      np.float32)


def _rate(value) -> Tensor:
    return Tensor(np.asarray(value, np.float32))


class _DecayLR(LearningRateSchedule):
    """``learning_rate``, ``decay_rate``, ``decay_steps`` and ``is_stair`` of the decays."""

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int,
                 is_stair: bool = False):
        super().__init__()
        owner = type(self).__name__
        _check_positive_int(decay_steps, "decay_steps", owner)
        _check_decay(learning_rate, decay_rate, is_stair, owner)
        self.learning_rate, self.decay_rate = learning_rate, decay_rate
        self.decay_steps, self.is_stair = decay_steps, is_stair

    def _progress(self, global_step) -> np.ndarray:
        """``step / decay_steps`` (floored with ``is_stair``), in float32."""
        progress = _float_step(global_step) / np.float32(self.decay_steps)
        return np.floor(progress) if self.is_stair else progress


class ExponentialDecayLR(_DecayLR):
    """``nn.ExponentialDecayLR(learning_rate, decay_rate, decay_steps, is_stair=False)``:
    ``learning_rate * decay_rate ** p`` with ``p = global_step / decay_steps`` (floored with
    ``is_stair``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.ExponentialDecayLR(0.1, 0.5, 2)(ms.Tensor(4, ms.int32)))
        0.025
    """

    def construct(self, global_step):
        decay = np.power(np.float32(self.decay_rate), self._progress(global_step))
        return _rate(np.float32(self.learning_rate) * decay)


class NaturalExpDecayLR(_DecayLR):
    """``nn.NaturalExpDecayLR(learning_rate, decay_rate, decay_steps, is_stair=False)``:
    ``learning_rate * e ** (-decay_rate * p)`` with ``p = global_step`` (rounded down to a
    multiple of ``decay_steps`` with ``is_stair``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.NaturalExpDecayLR(0.1, 0.5, 2, is_stair=True)(ms.Tensor(3, ms.int32)))
        0.036787946
    """

    def construct(self, global_step):
        steps = self._progress(global_step) * np.float32(self.decay_steps) if self.is_stair \
            else _float_step(global_step)
        decay = np.power(np.float32(math.e), np.float32(-self.decay_rate) * steps)
        return _rate(np.float32(self.learning_rate) * decay)


class InverseDecayLR(_DecayLR):
    """``nn.InverseDecayLR(learning_rate, decay_rate, decay_steps, is_stair=False)``:
    ``learning_rate / (1 + decay_rate * p)`` with ``p = global_step / decay_steps``
    (floored with ``is_stair``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.InverseDecayLR(0.1, 0.5, 2)(ms.Tensor(4, ms.int32)))
        0.05
    """

    def construct(self, global_step):
        denominator = np.float32(1.0) + np.float32(self.decay_rate) * self._progress(global_step)
        return _rate(np.float32(self.learning_rate) / denominator)


class CosineDecayLR(LearningRateSchedule):
    """``nn.CosineDecayLR(min_lr, max_lr, decay_steps)``:
    ``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * p))`` with
    ``p = min(global_step, decay_steps) / decay_steps``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.CosineDecayLR(0.01, 0.1, 4)(ms.Tensor(2, ms.int32)))
        0.055
    """

    def __init__(self, min_lr: float, max_lr: float, decay_steps: int):
        super().__init__()
        _check_min_max("CosineDecayLR", min_lr, max_lr)
        _check_positive_int(decay_steps, "decay_steps", "CosineDecayLR")
        _check_order("CosineDecayLR", min_lr, max_lr)
        self.min_lr, self.max_lr, self.decay_steps = min_lr, max_lr, decay_steps
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step):
        steps = np.minimum(_float_step(global_step), np.float32(self.decay_steps))
        angle = np.float32(math.pi) * (steps / np.float32(self.decay_steps) + np.float32(0.5))
        return _rate(np.float32(self.min_lr)
                     + np.float32(self.delta) * (np.float32(1.0) + np.sin(angle)))


class PolynomialDecayLR(LearningRateSchedule):
    """``nn.PolynomialDecayLR(learning_rate, end_learning_rate, decay_steps, power,
    update_decay_steps=False)``: ``(learning_rate - end_learning_rate) * (1 - p) ** power +
    end_learning_rate`` with ``p = min(global_step, decay_steps) / decay_steps``; with
    ``update_decay_steps`` the step is not clipped and ``decay_steps`` grows to the next
    multiple of it at or above the step.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.PolynomialDecayLR(0.1, 0.01, 4, 2.0)(ms.Tensor(2, ms.int32)))
        0.0325
    """

    def __init__(self, learning_rate: float, end_learning_rate: float, decay_steps: int,
                 power: float, update_decay_steps: bool = False):
        super().__init__()
        owner = "PolynomialDecayLR"
        _check_float(learning_rate, "learning_rate")
        _check_end_rate(owner, end_learning_rate)
        _check_positive_int(decay_steps, "decay_steps", owner)
        _check_bool(update_decay_steps, "update_decay_steps", owner)
        _check_float(power, "power", owner)
        self.decay_steps, self.power = decay_steps, power
        self.start_learning_rate, self.end_learning_rate = learning_rate, end_learning_rate
        self.diff_learning_rate = learning_rate - end_learning_rate
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step):
        step, decay_steps = _float_step(global_step), np.float32(self.decay_steps)
        if self.update_decay_steps:
            decay_steps = decay_steps * np.maximum(np.ceil(step / decay_steps), np.float32(1))
        else:
            step = np.minimum(step, decay_steps)
        remaining = np.power(np.float32(1.0) - step / decay_steps, np.float32(self.power))
        return _rate(np.float32(self.diff_learning_rate) * remaining
                     + np.float32(self.end_learning_rate))


class WarmUpLR(LearningRateSchedule):
    """``nn.WarmUpLR(learning_rate, warmup_steps)``:
    ``learning_rate * min(global_step, warmup_steps) / warmup_steps``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.WarmUpLR(0.1, 2)(ms.Tensor(5, ms.int32)))
        0.1
    """

    def __init__(self, learning_rate: float, warmup_steps: int):
        super().__init__()
        if not isinstance(learning_rate, float):
            raise TypeError(f"For 'WarmUpLR', the argument 'learning_rate' must be type of float, "
                            f"but got 'learning_rate' type: {type(learning_rate)}.")
        _check_float(learning_rate, "learning_rate", "WarmUpLR", strict=False)
        _check_positive_int(warmup_steps, "warmup_steps", "WarmUpLR")
        self.learning_rate, self.warmup_steps = learning_rate, warmup_steps

    def construct(self, global_step):
        steps = np.minimum(_float_step(global_step), np.float32(self.warmup_steps))
        return _rate(np.float32(self.learning_rate) * (steps / np.float32(self.warmup_steps)))


# ------------------------------------------------------------------------------ functions

def piecewise_constant_lr(milestone: list | tuple, learning_rates: list | tuple) -> list:
    """``nn.piecewise_constant_lr(milestone, learning_rates)``: ``learning_rates[t]`` for
    the steps ``milestone[t - 1] <= i < milestone[t]``.

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> nn.piecewise_constant_lr([1, 3], [0.5, 0.25])
        [0.5, 0.25, 0.25]
    """
    for name, value in (("milestone", milestone), ("learning_rates", learning_rates)):
        if not isinstance(value, (tuple, list)):
            raise TypeError(f"The type of '{name}' should be one of '['tuple', 'list']', but got "
                            f"type '{type(value).__name__}'.")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For 'piecewise_constant_lr', the size of 'milestone' must be same "
                         f"with the size of 'learning_rates', but got 'milestone' size: "
                         f"{len(milestone)}, 'learning_rates' size: {len(learning_rates)}.")
    rates, last = [], 0
    for index, (end, rate) in enumerate(zip(milestone, learning_rates)):
        _check_positive_int(end, f"milestone[{index}]")
        if not isinstance(rate, float):
            raise TypeError(f"The type of 'learning_rates[{index}]' must be 'float', but got "
                            f"'{type(rate).__name__}'.")
        if end < last:
            raise ValueError(f"For 'piecewise_constant_lr', the value of milestone[{index}] "
                             f"must be greater than milestone[{index - 1}], but got "
                             f"milestone[{index}]: {end}, milestone[{index - 1}]: {last}.")
        rates += [rate] * (end - last)
        last = end
    return rates


def _epochs(total_step: int, step_per_epoch: int, decay_epoch: int) -> list:
    """The epoch of each step, after MindSpore's checks of the three counts."""
    _check_positive_int(total_step, "total_step")
    _check_positive_int(step_per_epoch, "step_per_epoch")
    _check_positive_int(decay_epoch, "decay_epoch")
    return [step // step_per_epoch for step in range(total_step)]


def _checked_decay_epochs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                          is_stair) -> list:
    epochs = _epochs(total_step, step_per_epoch, decay_epoch)
    _check_decay(learning_rate, decay_rate, is_stair)
    return epochs


def exponential_decay_lr(learning_rate: float, decay_rate: float, total_step: int,
                         step_per_epoch: int, decay_epoch: int, is_stair: bool = False) -> list:
    """``nn.exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch,
    decay_epoch, is_stair=False)``: ``learning_rate * decay_rate ** (epoch / decay_epoch)``
    for each step (the exponent floored with ``is_stair``).

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> nn.exponential_decay_lr(0.1, 0.5, 4, 1, 2, is_stair=True)
        [0.1, 0.1, 0.05, 0.05]
    """
    epochs = _checked_decay_epochs(learning_rate, decay_rate, total_step, step_per_epoch,
                                   decay_epoch, is_stair)
    return [learning_rate * decay_rate ** (epoch // decay_epoch if is_stair
                                           else epoch / decay_epoch) for epoch in epochs]


def natural_exp_decay_lr(learning_rate: float, decay_rate: float, total_step: int,
                         step_per_epoch: int, decay_epoch: int, is_stair: bool = False) -> list:
    """``nn.natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch,
    decay_epoch, is_stair=False)``: ``learning_rate * e ** (-decay_rate * epoch)`` for each
    step (the epoch rounded down to a multiple of ``decay_epoch`` with ``is_stair``).

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> [round(rate, 6) for rate in nn.natural_exp_decay_lr(0.1, 0.5, 3, 1, 2)]
        [0.1, 0.060653, 0.036788]
    """
    epochs = _checked_decay_epochs(learning_rate, decay_rate, total_step, step_per_epoch,
                                   decay_epoch, is_stair)
    return [learning_rate * math.e ** (-decay_rate * (epoch // decay_epoch * decay_epoch
                                                      if is_stair else epoch))
            for epoch in epochs]


def inverse_decay_lr(learning_rate: float, decay_rate: float, total_step: int,
                     step_per_epoch: int, decay_epoch: int, is_stair: bool = False) -> list:
    """``nn.inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch,
    decay_epoch, is_stair=False)``: ``learning_rate / (1 + decay_rate * epoch / decay_epoch)``
    for each step (``epoch / decay_epoch`` floored with ``is_stair``).

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> nn.inverse_decay_lr(0.1, 1.0, 3, 1, 1)
        [0.1, 0.05, 0.03333333333333333]
    """
    epochs = _checked_decay_epochs(learning_rate, decay_rate, total_step, step_per_epoch,
                                   decay_epoch, is_stair)
    if is_stair:
        return [learning_rate / (1 + decay_rate * (epoch // decay_epoch)) for epoch in epochs]
    return [learning_rate / (1 + decay_rate * epoch / decay_epoch) for epoch in epochs]


def cosine_decay_lr(min_lr: float, max_lr: float, total_step: int, step_per_epoch: int,
                    decay_epoch: int) -> list:
    """``nn.cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch)``:
    ``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(epoch, decay_epoch) /
    decay_epoch))`` for each step.

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> [round(rate, 6) for rate in nn.cosine_decay_lr(0.0, 0.1, 4, 1, 2)]
        [0.1, 0.05, 0.0, 0.0]
    """
    _check_min_max("cosine_decay_lr", min_lr, max_lr)
    epochs = _epochs(total_step, step_per_epoch, decay_epoch)
    _check_order("cosine_decay_lr", min_lr, max_lr)
    delta = 0.5 * (max_lr - min_lr)
    return [min_lr + delta * (1 + math.cos(math.pi * min(epoch, decay_epoch) / decay_epoch))
            for epoch in epochs]


def polynomial_decay_lr(learning_rate: float, end_learning_rate: float, total_step: int,
                        step_per_epoch: int, decay_epoch: int, power: float,
                        update_decay_epoch: bool = False) -> list:
    """``nn.polynomial_decay_lr(learning_rate, end_learning_rate, total_step,
    step_per_epoch, decay_epoch, power, update_decay_epoch=False)``:
    ``(learning_rate - end_learning_rate) * (1 - epoch / decay_epoch) ** power +
    end_learning_rate``, the epoch clipped at ``decay_epoch`` (or, with
    ``update_decay_epoch``, ``decay_epoch`` grown to the next multiple at or above it).

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> nn.polynomial_decay_lr(0.1, 0.0, 4, 1, 2, 1.0)
        [0.1, 0.05, 0.0, 0.0]
    """
    _check_float(learning_rate, "learning_rate")
    _check_end_rate("polynomial_decay_lr", end_learning_rate)
    _check_float(power, "power")
    epochs = _epochs(total_step, step_per_epoch, decay_epoch)
    _check_bool(update_decay_epoch, "update_decay_epoch")
    delta, rates = learning_rate - end_learning_rate, []
    for epoch in epochs:
        if update_decay_epoch:
            period = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            period, epoch = decay_epoch, min(epoch, decay_epoch)
        rates.append(delta * (1 - epoch / period) ** power + end_learning_rate)
    return rates


def warmup_lr(learning_rate: float, total_step: int, step_per_epoch: int,
              warmup_epoch: int) -> list:
    """``nn.warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch)``:
    ``learning_rate * min(epoch, warmup_epoch) / warmup_epoch`` for each step.

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> nn.warmup_lr(0.1, 4, 1, 2)
        [0.0, 0.05, 0.1, 0.1]
    """
    if not isinstance(learning_rate, float):
        raise TypeError(f"For 'warmup_lr', the argument 'learning_rate' must be type of float, "
                        f"but got 'learning_rate' type: {type(learning_rate)}.")
    _check_float(learning_rate, "learning_rate", strict=False)
    _check_positive_int(warmup_epoch, "warmup_epoch")
    epochs = _epochs(total_step, step_per_epoch, 1)
    return [learning_rate * min(epoch, warmup_epoch) / warmup_epoch for epoch in epochs]
