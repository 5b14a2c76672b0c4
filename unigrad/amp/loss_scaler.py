"""Loss scaling for mixed-precision training: MindSpore's ``amp.StaticLossScaler``,
``amp.DynamicLossScaler`` and ``amp.all_finite``.

Small float16 gradients underflow to zero. Multiplying the loss by a large
scale inside the differentiated function multiplies every gradient by it;
``unscale`` divides the gradients back before the optimizer step, and a
dynamic scaler lowers the scale whenever the gradients overflow.

Example (MindSpore's recipe):
    >>> import unigrad as ug
    >>> from unigrad import amp
    >>> from unigrad.nn.parameter import Parameter
    >>> scaler = amp.StaticLossScaler(1024.0)
    >>> w = Parameter(ug.tensor([1.0, 2.0]), name="w")
    >>> def forward(x):
    ...     return scaler.scale((w * x).sum())
    >>> loss, grads = ug.value_and_grad(forward, None, [w])(ug.tensor([3.0, 4.0]))
    >>> loss, grads
    (tensor(11264.), (tensor([3072., 4096.]),))
    >>> grads = scaler.unscale(grads)
    >>> grads, bool(amp.all_finite(grads))
    ((tensor([3., 4.]),), True)
"""

from __future__ import annotations

import abc
import math
import numbers

import numpy as np

from .. import _state
from ..autograd.grad_mode import no_grad
from ..backend import namespace_of
from ..interpreters import has_values
from ..nn.parameter import Parameter
from ..ops.elementwise import cast, maximum, minimum, reciprocal, where
from ..tensor import Tensor, _make_tensor, bump_version

__all__ = ["LossScaler", "StaticLossScaler", "DynamicLossScaler", "all_finite"]

_local = _state.local
_FLOAT16 = np.dtype(np.float16)
_FLOAT32 = np.dtype(np.float32)


def _check_scale_value(scale_value) -> float:
    if isinstance(scale_value, (bool, np.bool_)) or not isinstance(scale_value, numbers.Real):
        raise TypeError(f"The argument 'scale_value' must be float or int, but got "
                        f"{type(scale_value).__name__}")
    value = float(scale_value)
    if not value >= 1.0:  # NaN fails too
        raise ValueError(f"The argument 'scale_value' must be > 1, but got {scale_value}")
    if math.isinf(value):
        raise ValueError(f"The argument 'scale_value' must be finite, but got {scale_value}")
    return value


def _check_positive_int(value, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"The argument '{name}' must be int, but got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"The argument '{name}' must be a positive int, but got {value}")
    return int(value)


def _map_tensors(fn, inputs, method: str):
    """``fn`` applied to every Tensor of a Tensor or a nested tuple/list (types kept)."""
    if isinstance(inputs, Tensor):
        return fn(inputs)
    if isinstance(inputs, list):
        return [_map_tensors(fn, item, method) for item in inputs]
    if isinstance(inputs, tuple):
        items = [_map_tensors(fn, item, method) for item in inputs]
        return type(inputs)._make(items) if hasattr(inputs, "_fields") else tuple(items)
    raise TypeError(f"For '{method}', the argument 'inputs' must be a Tensor or a (nested) tuple "
                    f"or list of Tensors, but got {type(inputs).__name__}")


def _times(x: Tensor, factor: Tensor) -> Tensor:
    """``x * factor`` cast back to ``x``'s dtype; float16 multiplies in float32."""
    dtype = x._data.dtype
    if dtype == _FLOAT16:
        return cast(cast(x, _FLOAT32) * factor, _FLOAT16)
    return cast(x * factor, dtype)


class LossScaler(abc.ABC):
    """Base class of the loss scalers: ``scale``, ``unscale`` and ``adjust``.

    A subclass keeps its current scale in the float32 0-d Parameter
    ``scale_value`` (``requires_grad=False``) and decides in ``adjust`` how
    the scale evolves.

    Example:
        >>> from unigrad import amp
        >>> isinstance(amp.StaticLossScaler(8), amp.LossScaler)
        True
    """

    scale_value: Parameter

    def scale(self, inputs: Tensor | tuple | list) -> Tensor | tuple | list:
        """``inputs * scale_value`` for a Tensor or a nested tuple/list of Tensors.

        Each result keeps its input's dtype (float16 inputs are multiplied in
        float32); lists stay lists and tuples stay tuples. Differentiable: call
        it on the loss inside the function being differentiated.

        Example:
            >>> import unigrad as ug
            >>> from unigrad import amp
            >>> amp.StaticLossScaler(1024.0).scale(ug.tensor(1.0))
            tensor(1024.)
        """
        factor = self.scale_value
        return _map_tensors(lambda x: _times(x, factor), inputs, "scale")

    def unscale(self, inputs: Tensor | tuple | list) -> Tensor | tuple | list:
        """``inputs * reciprocal(scale_value)`` for a Tensor or a nested tuple/list of Tensors.

        Example:
            >>> import unigrad as ug
            >>> from unigrad import amp
            >>> amp.StaticLossScaler(1024.0).unscale((ug.tensor([[2048.0, 4096.0, 6144.0]]),))
            (tensor([[2., 4., 6.]]),)
        """
        factor = reciprocal(self.scale_value)
        return _map_tensors(lambda x: _times(x, factor), inputs, "unscale")

    @abc.abstractmethod
    def adjust(self, grads_finite: bool | Tensor) -> bool:
        """Update the scale after a step whose gradients were finite or not."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(scale_value={float(self.scale_value)})"


class StaticLossScaler(LossScaler):
    """A loss scaler whose scale never changes (MindSpore ``amp.StaticLossScaler``).

    ``scale_value`` is a float or int, at least 1 (TypeError for other types,
    ValueError below 1).

    Example:
        >>> import unigrad as ug
        >>> from unigrad import amp
        >>> scaler = amp.StaticLossScaler(scale_value=2**10)
        >>> scaler.scale(ug.tensor([1.0, 2.0]))
        tensor([1024., 2048.])
        >>> scaler.adjust(False), float(scaler.scale_value)
        (False, 1024.0)
    """

    def __init__(self, scale_value: float):
        value = _check_scale_value(scale_value)
        self.scale_value = Parameter(np.array(value, np.float32), name="scale_value",
                                     requires_grad=False)

    def adjust(self, grads_finite: bool | Tensor) -> bool:
        """The static scale does not change: always returns ``False``.

        Example:
            >>> from unigrad import amp
            >>> amp.StaticLossScaler(4.0).adjust(True)
            False
        """
        return False


def _finite_flag(grads_finite) -> bool | Tensor:
    """``grads_finite`` as a Python bool; a 0-d bool Tensor when its value is not known (graph
    mode, vmap)."""
    if isinstance(grads_finite, (bool, np.bool_)):
        return bool(grads_finite)
    if isinstance(grads_finite, Tensor):
        data = grads_finite._data  # dtype and size only: the same as the traced value's
        if data.dtype != np.bool_:
            raise TypeError(f"For 'adjust', the argument 'grads_finite' must be a bool or a bool "
                            f"Tensor, but got a Tensor of dtype {grads_finite.dtype!r}")
        if data.size != 1:
            raise ValueError(f"For 'adjust', the argument 'grads_finite' must hold one value, "
                             f"but got a Tensor of shape {tuple(data.shape)}")
        if _local.trace is not None or hasattr(data, "__unigrad_abstract__"):
            return grads_finite.reshape(())  # no value to read (has_values, inlined: hot path)
        return bool(data.reshape(()))
    raise TypeError(f"For 'adjust', the argument 'grads_finite' must be a bool or a bool Tensor, "
                    f"but got {type(grads_finite).__name__}")


class DynamicLossScaler(LossScaler):
    """A loss scaler that grows after ``scale_window`` finite steps and shrinks on overflow.

    MindSpore's ``amp.DynamicLossScaler(scale_value, scale_factor,
    scale_window)``: ``scale_factor`` and ``scale_window`` are positive ints.
    ``adjust(grads_finite)`` follows MindSpore's rule exactly:

    - finite gradients: the step counter advances; on the step where it
      completes ``scale_window`` finite steps in a row, the scale is multiplied
      by ``scale_factor`` unless that product overflows float32;
    - an overflow: the scale is divided by ``scale_factor`` (never below 1)
      and the counter restarts.

    Example (MindSpore's docstring):
        >>> from unigrad import amp
        >>> scaler = amp.DynamicLossScaler(scale_value=2**10, scale_factor=2, scale_window=1)
        >>> scaler.adjust(False)
        True
        >>> float(scaler.scale_value)
        512.0
    """

    def __init__(self, scale_value: float, scale_factor: int, scale_window: int):
        value = _check_scale_value(scale_value)
        self.scale_factor = _check_positive_int(scale_factor, "scale_factor")
        self.scale_window = _check_positive_int(scale_window, "scale_window")
        self.scale_value = Parameter(np.array(value, np.float32), name="scale_value",
                                     requires_grad=False)
        self.counter = Parameter(np.array(0, np.int32), name="counter", requires_grad=False)

    def adjust(self, grads_finite: bool | Tensor) -> bool:
        """Grow or shrink the scale given whether this step's gradients were finite.

        ``grads_finite`` is a Python bool or a one-element bool Tensor (what
        ``amp.all_finite`` returns). Returns ``True``. Inside ``ug.jit`` the update
        is part of the graph (in-place writes of ``scale_value`` and ``counter``).

        Example:
            >>> from unigrad import amp
            >>> scaler = amp.DynamicLossScaler(1024, scale_factor=2, scale_window=2)
            >>> for finite in (True, True, False):
            ...     _ = scaler.adjust(finite)
            ...     print(float(scaler.scale_value))
            1024.0
            2048.0
            1024.0
        """
        finite = _finite_flag(grads_finite)
        if _local.trace is not None:  # ug.jit: the update as graph ops
            self._adjust_traced(finite)
            return True
        scale = np.float32(float(self.scale_value._data))  # float(): CuPy arrays too
        counter = int(self.counter._data)
        factor = np.float32(self.scale_factor)
        if finite:
            new_scale = scale
            if counter == self.scale_window - 1:
                with np.errstate(over="ignore"):
                    grown = scale * factor
                if np.isfinite(grown):
                    new_scale = grown
            new_counter = (counter + 1) % self.scale_window
        else:
            new_scale = max(np.float32(1.0), scale / factor)
            new_counter = 0
        self._assign(self.scale_value, new_scale)
        self._assign(self.counter, new_counter)
        return True

    def _adjust_traced(self, finite: bool | Tensor) -> None:
        """``adjust`` as ops and in-place writes (graph mode: the scale, the counter and maybe
        ``finite`` are values of the graph, not known while it is traced)."""
        scale, counter = self.scale_value, self.counter
        factor = np.float32(self.scale_factor)
        with no_grad():
            if finite is not False:
                # grow on the last step of the window unless scale * factor overflows float32
                # (scale <= limit); the minimum keeps the unused product finite
                limit = _growth_limit(factor)
                grow = (counter == self.scale_window - 1) & (scale <= limit)
                grown = where(grow, minimum(scale, limit) * factor, scale)
                advanced = (counter + 1) % self.scale_window
            if finite is not True:
                shrunk = maximum(scale / factor, 1.0)
            if finite is True:
                new_scale, new_counter = grown, advanced
            elif finite is False:
                new_scale, new_counter = shrunk, 0
            else:
                new_scale, new_counter = where(finite, grown, shrunk), where(finite, advanced, 0)
            scale.copy_(new_scale)
            if isinstance(new_counter, Tensor):
                counter.copy_(new_counter)
            else:
                counter.fill_(new_counter)

    @staticmethod
    def _assign(param: Parameter, value) -> None:
        param._data[...] = value  # eager only (adjust takes _adjust_traced under ug.jit)
        bump_version(param)


def _growth_limit(factor: np.float32) -> np.float32:
    """The largest float32 scale whose product with ``factor`` is finite in float32 (the
    product rounds up monotonically, so exactly the scales up to it can grow)."""
    if not np.isfinite(factor):
        return np.float32(-np.inf)  # nothing can grow
    up, down = np.float32(np.inf), np.float32(0.0)
    with np.errstate(over="ignore"):
        limit = np.float32(np.finfo(np.float32).max / factor)
        while np.isfinite(np.nextafter(limit, up) * factor):
            limit = np.nextafter(limit, up)
        while limit > 0 and not np.isfinite(limit * factor):
            limit = np.nextafter(limit, down)
    return limit


# ----------------------------------------------------------------------------- all_finite

def _collect_tensors(inputs, tensors: list) -> None:
    if isinstance(inputs, Tensor):
        tensors.append(inputs)
    elif isinstance(inputs, (tuple, list)):
        for item in inputs:
            _collect_tensors(item, tensors)
    else:
        raise TypeError(f"For 'all_finite', the argument 'inputs' must be a Tensor or a (nested) "
                        f"tuple or list of Tensors, but got {type(inputs).__name__}")


def all_finite(inputs: Tensor | tuple | list, status: Tensor | None = None) -> Tensor:
    """A 0-d bool Tensor: True iff every element of every Tensor in ``inputs`` is finite.

    ``inputs`` is a Tensor or a nested tuple/list of Tensors (an empty tuple
    is finite); integer and bool tensors are always finite. The check reads
    the arrays directly: nothing is recorded on the autograd tape. ``status``
    is MindSpore's Ascend overflow-status Tensor; there is no Ascend backend,
    so it is accepted (None or a Tensor) and not read.

    Example:
        >>> import unigrad as ug
        >>> from unigrad import amp
        >>> amp.all_finite((ug.tensor([1.0, 2.0]), [ug.tensor(3)]))
        tensor(True)
        >>> amp.all_finite(ug.tensor([1.0, float("inf")]))
        tensor(False)
    """
    if status is not None and not isinstance(status, Tensor):
        raise TypeError(f"For 'all_finite', the argument 'status' must be None or a Tensor, but "
                        f"got {type(status).__name__}")
    tensors: list = []
    _collect_tensors(inputs, tensors)
    floating = [t for t in tensors if t._data.dtype.kind in "fc"]  # (the traced dtype too)
    if not floating:
        xp = namespace_of(tensors[0]._data) if tensors else np
        return _make_tensor(xp.asarray(True))
    if not has_values(*floating):  # graph mode or vmap: the check is part of the graph
        from ..ops import isfinite, stack
        with no_grad():  # the tensors themselves: ug.jit reads their traced values
            return stack([isfinite(t).all() for t in floating]).all()
    floating = [t._data for t in floating]
    xp = namespace_of(floating[0])
    if xp is np:
        return _make_tensor(np.asarray(all(np.isfinite(a).all() for a in floating)))
    result = xp.asarray(True)  # on the device: no synchronization per tensor
    for array in floating:
        result = result & xp.isfinite(array).all()
    return _make_tensor(result)
