"""``mindspore.amp``: loss scalers, ``all_finite`` and the loss-scale managers.

The scalers are unigrad's (MindSpore's rules); here their state is held in
MindSpore Parameters and their results are MindSpore Tensors.

Example (MindSpore's recipe):
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore.amp import StaticLossScaler, all_finite
    >>> scaler = StaticLossScaler(1024.)
    >>> grads = scaler.unscale((ms.Tensor([2048.0, 4096.0]),))
    >>> grads
    (Tensor(shape=[2], dtype=Float32, value= [2.00000000e+000, 4.00000000e+000]),)
    >>> print(all_finite(grads))
    True
"""

from __future__ import annotations

from ... import amp as _ugamp
from ._tensor import Tensor, to_ms
from .nn import DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell

__all__ = ["LossScaler", "StaticLossScaler", "DynamicLossScaler", "all_finite",
           "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]

LossScaler = _ugamp.LossScaler


class _MsScaler:
    """Mixin: MindSpore Tensors in and out of ``scale``/``unscale``."""

    def _ms_state(self) -> None:
        for name in ("scale_value", "counter"):
            if hasattr(self, name):
                to_ms(getattr(self, name))

    def scale(self, inputs):
        """``inputs * scale_value`` (a Tensor or a nested tuple/list of Tensors)."""
        return to_ms(super().scale(inputs))  # type: ignore[misc]

    def unscale(self, inputs):
        """``inputs / scale_value`` (a Tensor or a nested tuple/list of Tensors)."""
        return to_ms(super().unscale(inputs))  # type: ignore[misc]


class StaticLossScaler(_MsScaler, _ugamp.StaticLossScaler):
    """``amp.StaticLossScaler(scale_value)``: a fixed loss scale (at least 1).

    Example:
        >>> from unigrad.compat.mindspore.amp import StaticLossScaler
        >>> StaticLossScaler(8).scale_value
        Parameter (name=scale_value, shape=(), dtype=Float32, requires_grad=False)
    """

    def __init__(self, scale_value: float):
        _ugamp.StaticLossScaler.__init__(self, scale_value)
        self._ms_state()


class DynamicLossScaler(_MsScaler, _ugamp.DynamicLossScaler):
    """``amp.DynamicLossScaler(scale_value, scale_factor, scale_window)``: the scale grows by
    ``scale_factor`` after ``scale_window`` finite steps and shrinks on overflow.

    Example:
        >>> from unigrad.compat.mindspore.amp import DynamicLossScaler
        >>> scaler = DynamicLossScaler(scale_value=2**10, scale_factor=2, scale_window=1)
        >>> scaler.adjust(False)
        True
        >>> scaler.scale_value.asnumpy()
        array(512., dtype=float32)
    """

    def __init__(self, scale_value: float, scale_factor: int, scale_window: int):
        _ugamp.DynamicLossScaler.__init__(self, scale_value, scale_factor, scale_window)
        self._ms_state()


def all_finite(inputs, status=None) -> Tensor:
    """A 0-d Bool Tensor: True iff every Tensor in ``inputs`` is finite (prints ``True``)."""
    return to_ms(_ugamp.all_finite(inputs, status))


class LossScaleManager:
    """Base of MindSpore's loss-scale managers (``get_loss_scale``, ``get_update_cell``)."""

    def get_loss_scale(self) -> float:
        raise NotImplementedError("LossScaleManager subclasses define get_loss_scale()")

    def get_update_cell(self):
        raise NotImplementedError("LossScaleManager subclasses define get_update_cell()")


class FixedLossScaleManager(LossScaleManager):
    """``amp.FixedLossScaleManager(loss_scale=128.0, drop_overflow_update=True)``.

    Example:
        >>> from unigrad.compat.mindspore.amp import FixedLossScaleManager
        >>> manager = FixedLossScaleManager(1024.0)
        >>> manager.get_loss_scale(), manager.get_update_cell()
        (1024.0, FixedLossScaleUpdateCell<loss_scale_value=1024.0>)
    """

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True):
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, (int, float)):
            raise TypeError(f"For 'FixedLossScaleManager', 'loss_scale' must be float or int, "
                            f"but got {type(loss_scale).__name__}")
        if loss_scale < 1:
            raise ValueError(f"For 'FixedLossScaleManager', 'loss_scale' must be >= 1, but got "
                             f"{loss_scale}")
        if not isinstance(drop_overflow_update, bool):
            raise TypeError(f"For 'FixedLossScaleManager', 'drop_overflow_update' must be bool, "
                            f"but got {type(drop_overflow_update).__name__}")
        self._loss_scale = float(loss_scale)
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self) -> float:
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        return self._drop_overflow_update

    def get_update_cell(self):
        """A ``FixedLossScaleUpdateCell`` when overflowing steps are dropped, else None."""
        if not self._drop_overflow_update:
            return None
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """``amp.DynamicLossScaleManager(init_loss_scale=2**24, scale_factor=2,
    scale_window=2000)``; ``get_update_cell()`` is a ``DynamicLossScaleUpdateCell``."""

    def __init__(self, init_loss_scale: float = 2 ** 24, scale_factor: int = 2,
                 scale_window: int = 2000):
        self._update_cell = DynamicLossScaleUpdateCell(init_loss_scale, scale_factor,
                                                       scale_window)
        self._loss_scale = float(init_loss_scale)
        self.scale_factor = scale_factor
        self.scale_window = scale_window

    def get_loss_scale(self) -> float:
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        return True

    def get_update_cell(self):
        return self._update_cell
