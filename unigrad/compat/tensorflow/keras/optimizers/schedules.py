"""``tf.keras.optimizers.schedules``: learning rates as functions of the optimizer's step.

A schedule is called with the step (``optimizer.iterations``: the number of
updates done so far) and returns the rate as a float32 tensor; pass one as an
optimizer's ``learning_rate``. Formulas are Keras 3's.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=2,
    ...                                                            decay_rate=0.5)
    >>> [round(float(schedule(step)), 6) for step in range(3)]
    [0.1, 0.070711, 0.05]
"""

from __future__ import annotations

import math

import numpy as np

from ..._tensor import Tensor, constant
from ...dtypes import float32

__all__ = ["LearningRateSchedule", "ExponentialDecay", "PiecewiseConstantDecay", "CosineDecay",
           "PolynomialDecay", "InverseTimeDecay"]


def _step(step) -> float:
    """The step as a Python float (a tensor, a variable or a number)."""
    return float(step.numpy()) if isinstance(step, Tensor) else float(step)


def _positive(name: str, value) -> None:
    if not value > 0:
        raise ValueError(f"Argument `{name}` must be > 0. Received: {name}={value}")


class LearningRateSchedule:
    """Base class of the schedules: subclasses define ``__call__(step)`` and ``get_config()``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> class Halving(tf.keras.optimizers.schedules.LearningRateSchedule):
        ...     def __call__(self, step):
        ...         return 1.0 / 2 ** float(step)
        >>> Halving()(3)
        0.125
    """

    def __call__(self, step):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  "override `__call__(self, step)`.")

    def get_config(self) -> dict:
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  "override `get_config()` in order to be serializable.")

    @classmethod
    def from_config(cls, config: dict):
        """A schedule built from :meth:`get_config`'s dict."""
        return cls(**config)

    def _rate(self, value: float) -> Tensor:
        return constant(value, dtype=float32)


class _RateDecay(LearningRateSchedule):
    """What ExponentialDecay and InverseTimeDecay share: their arguments, the decay
    progress ``step / decay_steps`` (floored with ``staircase``) and their config."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase: bool = False,
                 name: str | None = None):
        _positive("decay_steps", decay_steps)
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = type(self).__name__ if name is None else name

    def __call__(self, step) -> Tensor:
        progress = _step(step) / self.decay_steps
        if self.staircase:
            progress = math.floor(progress)
        return self._rate(self._decayed(progress))

    def _decayed(self, progress: float) -> float:
        raise NotImplementedError

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_RateDecay):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)`` (the exponent floored
    with ``staircase=True``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> schedule = tf.keras.optimizers.schedules.ExponentialDecay(1.0, 2, 0.5,
        ...                                                            staircase=True)
        >>> schedule(3)
        <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """

    def _decayed(self, progress: float) -> float:
        return self.initial_learning_rate * self.decay_rate ** progress


class InverseTimeDecay(_RateDecay):
    """``initial_learning_rate / (1 + decay_rate * step / decay_steps)`` (the ratio floored
    with ``staircase=True``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.optimizers.schedules.InverseTimeDecay(1.0, 1, 0.5)(2)
        <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """

    def _decayed(self, progress: float) -> float:
        return self.initial_learning_rate / (1.0 + self.decay_rate * progress)


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[0]`` while ``step <= boundaries[0]``, ``values[i]`` while
    ``boundaries[i-1] < step <= boundaries[i]``, ``values[-1]`` after the last boundary.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay([1, 3],
        ...                                                                  [1.0, 0.5, 0.1])
        >>> [float(schedule(step)) for step in range(5)]
        [1.0, 1.0, 0.5, 0.5, 0.10000000149011612]
    """

    def __init__(self, boundaries, values, name: str = "PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError("The length of boundaries should be 1 less than the length of "
                             f"values. Received: boundaries={boundaries} of length "
                             f"{len(boundaries)}, and values={values} of length {len(values)}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step) -> Tensor:
        position = int(np.searchsorted(np.asarray(self.boundaries, dtype=float), _step(step),
                                       side="left"))
        return self._rate(self.values[position])

    def get_config(self) -> dict:
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """``(initial - end) * (1 - step / decay_steps) ** power + end``, the step capped at
    ``decay_steps`` (or, with ``cycle=True``, ``decay_steps`` stretched to the next
    multiple above the step).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> schedule = tf.keras.optimizers.schedules.PolynomialDecay(1.0, 4, 0.0, power=2.0)
        >>> [float(schedule(step)) for step in (0, 2, 6)]
        [1.0, 0.25, 0.0]
    """

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001,
                 power=1.0, cycle: bool = False, name: str = "PolynomialDecay"):
        _positive("decay_steps", decay_steps)
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def __call__(self, step) -> Tensor:
        step = _step(step)
        decay_steps = float(self.decay_steps)
        if self.cycle:
            decay_steps *= 1.0 if step == 0 else math.ceil(step / self.decay_steps)
        else:
            step = min(step, decay_steps)
        fraction = (1.0 - step / decay_steps) ** self.power
        return self._rate((self.initial_learning_rate - self.end_learning_rate) * fraction
                          + self.end_learning_rate)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """Cosine decay from ``initial_learning_rate`` (or, after a linear warmup of
    ``warmup_steps`` to ``warmup_target``, from that) to ``alpha`` times it over
    ``decay_steps``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> schedule = tf.keras.optimizers.schedules.CosineDecay(1.0, 4)
        >>> [float(schedule(step)) for step in (0, 2, 4)]
        [1.0, 0.5, 0.0]
    """

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name: str = "CosineDecay",
                 warmup_target=None, warmup_steps=0):
        _positive("decay_steps", decay_steps)
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_target = warmup_target
        self.warmup_steps = warmup_steps

    def _decayed(self, step: float, start: float) -> float:
        cosine = 0.5 * (1.0 + math.cos(math.pi * step / self.decay_steps))
        return start * ((1.0 - self.alpha) * cosine + self.alpha)

    def __call__(self, step) -> Tensor:
        step = _step(step)
        if self.warmup_target is None:
            return self._rate(self._decayed(min(step, self.decay_steps),
                                            self.initial_learning_rate))
        step = min(step, self.decay_steps + self.warmup_steps)
        if step < self.warmup_steps:
            change = self.warmup_target - self.initial_learning_rate
            return self._rate(change * step / self.warmup_steps + self.initial_learning_rate)
        return self._rate(self._decayed(step - self.warmup_steps, self.warmup_target))

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}
