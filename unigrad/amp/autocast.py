"""``autocast``: run matmul-like ops in float16 and precision-sensitive ops in float32.

Inside ``with autocast():`` (PyTorch's CUDA autocast policy, on any device):

- matmul, mm, bmm, mv, einsum, linear, conv1d and conv2d cast their floating
  inputs (weights and bias included) to the autocast dtype and return results
  of that dtype;
- losses, softmax, log_softmax, layer_norm and reductions (sum, mean, prod,
  cumsum, var, std, norm, vector_norm, logsumexp) cast float16 inputs up to
  float32 and return float32 results;
- every other op runs unchanged, with PyTorch's type promotion
  (``float16 + float32`` is float32).

float64 tensors are never cast down, as in PyTorch. The casts are ordinary
differentiable ops, so gradients reach float32 parameters as float32 ``.grad``.
An op of either list runs its own body with autocast off, so its internal ops
are not cast again.

The state is one thread-local field, ``_state.local.autocast_dtype`` (the NumPy
dtype, or None when off): ops test it with a single attribute read and call
into this module only while autocast is on.

Example:
    >>> import unigrad as ug
    >>> from unigrad import amp
    >>> x, w = ug.ones((2, 3)), ug.ones((3, 4), requires_grad=True)
    >>> with amp.autocast():
    ...     y = x @ w
    ...     loss = y.sum()
    >>> y.dtype, loss.dtype
    (unigrad.float16, unigrad.float32)
    >>> loss.backward()
    >>> w.grad.dtype
    unigrad.float32
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable

import numpy as np

from .. import _state, backend
from ..backend import DType
from ..interpreters import pop, push
from ..interpreters.autocast import AutocastInterpreter
from ..tensor import Tensor

__all__ = ["autocast", "is_autocast_enabled", "get_autocast_dtype"]

_local = _state.local
_FLOAT16 = np.dtype(np.float16)
_FLOAT32 = np.dtype(np.float32)
_FLOAT64 = np.dtype(np.float64)
_ALLOWED = (_FLOAT16, _FLOAT32, _FLOAT64)


def _autocast_dtype(dtype) -> np.dtype:
    """The NumPy dtype of a valid autocast ``dtype``; TypeError naming the argument otherwise."""
    expected = "ug.float16, ug.float32 or ug.float64"
    if isinstance(dtype, str) and dtype.lower() == "bfloat16":
        raise TypeError(f"autocast(): the argument 'dtype' must be {expected}, but got "
                        f"'bfloat16' (NumPy has no bfloat16; use ug.float16)")
    if dtype is None or isinstance(dtype, (bool, Tensor)):
        raise TypeError(f"autocast(): the argument 'dtype' must be {expected}, but got {dtype!r}")
    try:
        np_dtype = backend.to_numpy_dtype(dtype)
    except TypeError:
        raise TypeError(f"autocast(): the argument 'dtype' must be {expected}, but got "
                        f"{dtype!r}") from None
    if np_dtype not in _ALLOWED:
        raise TypeError(f"autocast(): the argument 'dtype' must be {expected}, but got "
                        f"{backend.from_numpy_dtype(np_dtype)!r}")
    return np_dtype


class autocast:
    """Context manager and decorator running eligible ops in ``dtype`` (mixed precision).

    ``autocast(dtype=ug.float16, enabled=True)``: ``dtype`` is ``ug.float16``
    (the default; NumPy has no bfloat16), ``ug.float32`` or ``ug.float64``.
    ``enabled=False`` turns autocast off inside the block, also inside an
    enclosing ``autocast``. The state is per thread and nests; leaving the
    block restores the previous state, also when an exception escapes. Used as
    a decorator, each call of the function runs inside a fresh ``autocast``.
    The section above lists which ops are cast to what.

    Run the backward pass outside the block, as PyTorch recommends: the
    gradients already flow back through the forward casts.

    Example:
        >>> import unigrad as ug
        >>> from unigrad import amp
        >>> a, b = ug.ones((2, 2)), ug.ones((2, 2))
        >>> with amp.autocast():
        ...     inner = (a @ b).dtype
        ...     with amp.autocast(enabled=False):
        ...         off = (a @ b).dtype
        >>> inner, off, (a @ b).dtype
        (unigrad.float16, unigrad.float32, unigrad.float32)
        >>> @amp.autocast()
        ... def product(x, y):
        ...     return x @ y
        >>> product(a, b).dtype
        unigrad.float16
    """

    def __init__(self, dtype: DType = backend.float16, enabled: bool = True):
        if not isinstance(enabled, (bool, np.bool_)):
            raise TypeError(f"autocast(): the argument 'enabled' must be a bool, but got "
                            f"{type(enabled).__name__}")
        self._np_dtype = _autocast_dtype(dtype)
        self.dtype = backend.from_numpy_dtype(self._np_dtype)
        self.enabled = bool(enabled)
        self._saved = threading.local()  # per thread: the states this instance replaced

    def __enter__(self) -> autocast:
        stack = getattr(self._saved, "stack", None)
        if stack is None:
            stack = self._saved.stack = []
        interpreter = AutocastInterpreter()
        stack.append((_local.autocast_dtype, interpreter))
        _local.autocast_dtype = self._np_dtype if self.enabled else None
        push(interpreter)
        return self

    def __exit__(self, *exc_info) -> bool:
        _local.autocast_dtype, interpreter = self._saved.stack.pop()
        pop(interpreter)
        return False

    def __call__(self, fn: Callable) -> Callable:
        if not callable(fn):
            raise TypeError(f"autocast(): a decorated object must be callable, but got "
                            f"{type(fn).__name__}")
        dtype, enabled = self.dtype, self.enabled

        @functools.wraps(fn)
        def autocast_wrapper(*args, **kwargs):
            with autocast(dtype, enabled):
                return fn(*args, **kwargs)
        return autocast_wrapper

    def __repr__(self) -> str:
        return f"autocast(dtype={self.dtype!r}, enabled={self.enabled})"


def is_autocast_enabled() -> bool:
    """Whether autocast is on in this thread.

    Example:
        >>> from unigrad import amp
        >>> with amp.autocast():
        ...     amp.is_autocast_enabled()
        True
        >>> amp.is_autocast_enabled()
        False
    """
    return _local.autocast_dtype is not None


def get_autocast_dtype() -> DType:
    """The dtype autocast casts to in this thread (``ug.float16`` when autocast is off).

    Example:
        >>> import unigrad as ug
        >>> from unigrad import amp
        >>> with amp.autocast(dtype=ug.float32):
        ...     amp.get_autocast_dtype()
        unigrad.float32
        >>> amp.get_autocast_dtype()
        unigrad.float16
    """
    dtype = _local.autocast_dtype
    return backend.float16 if dtype is None else backend.from_numpy_dtype(dtype)


# ----------------------------------------------------------------------------- op policies
# Called by the ops only while autocast is on: each casts the arguments, then runs the op
# with autocast off (its internal ops are not cast again) and restores the state.

def _to_lower(value, target: np.dtype):
    if isinstance(value, Tensor):
        dtype = value._data.dtype
        if dtype.kind == "f" and dtype != target and dtype != _FLOAT64:
            from ..ops.elementwise import cast
            return cast(value, target)
        return value
    if type(value) in (list, tuple):
        return type(value)(_to_lower(item, target) for item in value)
    return value


def _to_float32(value, target: np.dtype):
    if isinstance(value, Tensor):
        if value._data.dtype == _FLOAT16:
            from ..ops.elementwise import cast
            return cast(value, _FLOAT32)
        return value
    if type(value) in (list, tuple):
        return type(value)(_to_float32(item, target) for item in value)
    return value


_CONVERTERS = {"lower": _to_lower, "float32": _to_float32}


def convert_for(policy: str, value, dtype: np.dtype):
    """``value`` cast as an op of autocast ``policy`` ("lower" or "float32") needs it."""
    return _CONVERTERS[policy](value, dtype)


def _run(fn: Callable, convert, args: tuple, kwargs: dict):
    state = _local.autocast_dtype
    if convert is not None:
        args = tuple(convert(value, state) for value in args)
        kwargs = {name: convert(value, state) for name, value in kwargs.items()}
    _local.autocast_dtype = None
    try:
        return fn(*args, **kwargs)
    finally:
        _local.autocast_dtype = state


def call_with_policy(policy: str, fn: Callable, args: tuple, kwargs: dict):
    """``fn(*args, **kwargs)`` run by autocast ``policy``, with autocast off inside it.

    ``"lower"``: floating Tensor arguments cast to the autocast dtype (float64
    is left alone); ``"float32"``: float16 arguments cast up to float32;
    ``"inputs"``: arguments unchanged. Lists and tuples of Tensors are cast
    element by element.

    Example:
        >>> import unigrad as ug
        >>> from unigrad import amp
        >>> from unigrad.amp.autocast import call_with_policy
        >>> with amp.autocast():
        ...     call_with_policy("lower", ug.add, (ug.ones(2), ug.ones(2)), {}).dtype
        unigrad.float16
    """
    return _run(fn, _CONVERTERS.get(policy), args, kwargs)
