"""Anomaly detection: forward tracebacks for failing backward nodes, NaN/Inf checks.

With anomaly mode on, every recorded node keeps the traceback of the forward
call that created it, and after each node computes its gradients the engine
calls :func:`check_node_outputs`, which raises when one of them holds NaN and
names the user source line of the forward op. As PyTorch's, the check is for
NaN only: an infinite gradient (``sqrt`` at 0) is a legitimate value.

Example:
    >>> import unigrad as ug
    >>> x = ug.tensor([0.0, 1.0], requires_grad=True)
    >>> with ug.autograd.detect_anomaly():
    ...     y = (ug.sqrt(x) * 0.0).sum()
    ...     try:
    ...         y.backward()
    ...     except RuntimeError as error:
    ...         print(str(error).splitlines()[0])
    Function 'SqrtBackward0' returned nan values in its 0th output.
"""

from __future__ import annotations

import os
import traceback
import warnings

from .. import _state
from ..tensor import Tensor

_global = _state.global_state
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_ENABLED_WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime "
                    "and should only be enabled for debugging.")


class detect_anomaly:
    """Context manager and decorator turning anomaly detection on for its duration."""

    def __init__(self, check_nan: bool = True):
        self.check_nan = check_nan
        self._previous = None
        warnings.warn(_ENABLED_WARNING, UserWarning, stacklevel=2)

    def __enter__(self) -> detect_anomaly:
        self._previous = (_global.anomaly_enabled, _global.anomaly_check_nan)
        _global.anomaly_enabled = True
        _global.anomaly_check_nan = self.check_nan
        return self

    def __exit__(self, *exc) -> bool:
        _global.anomaly_enabled, _global.anomaly_check_nan = self._previous
        return False

    def __call__(self, fn):
        import functools

        check_nan = self.check_nan

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            mode = object.__new__(detect_anomaly)  # the warning was given when decorating
            mode.check_nan = check_nan
            with mode:
                return fn(*args, **kwargs)
        return wrapper


class set_detect_anomaly:
    """Turn anomaly detection on or off now; used with ``with``, restore it on exit.

    Example:
        >>> import unigrad as ug
        >>> with ug.autograd.set_detect_anomaly(True):
        ...     ug.autograd.is_anomaly_enabled()
        True
        >>> ug.autograd.is_anomaly_enabled()
        False
    """

    def __init__(self, mode: bool, check_nan: bool = True):
        self._previous = (_global.anomaly_enabled, _global.anomaly_check_nan)
        _global.anomaly_enabled = bool(mode)
        _global.anomaly_check_nan = bool(check_nan)

    def __enter__(self) -> set_detect_anomaly:
        return self

    def __exit__(self, *exc) -> bool:
        _global.anomaly_enabled, _global.anomaly_check_nan = self._previous
        return False


def is_anomaly_enabled() -> bool:
    """Whether anomaly detection is on.

    Example:
        >>> import unigrad as ug
        >>> ug.autograd.is_anomaly_enabled()
        False
    """
    return _global.anomaly_enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly detection also checks backward results for NaN."""
    return _global.anomaly_check_nan


def user_frames(trace) -> list:
    """The frames of ``trace`` outside the unigrad package (the user's own code)."""
    if not trace:
        return []
    return [frame for frame in trace
            if not os.path.abspath(frame.filename).startswith(_PACKAGE_DIR + os.sep)]


def forward_trace(node) -> list | None:
    """The traceback recorded when ``node`` was created in anomaly mode (None otherwise)."""
    hooks = node.hooks
    return None if hooks is None else hooks.forward_trace


def forward_location(node) -> str:
    """``File "...", line N: code`` of the user line that created ``node`` ('' if unknown)."""
    frames = user_frames(forward_trace(node))
    if not frames:
        return ""
    frame = frames[-1]
    return f'File "{frame.filename}", line {frame.lineno}: {frame.line}'


def check_node_outputs(node, grads) -> None:
    """Raise if a gradient computed by ``node`` holds NaN (when checking NaN); Inf passes."""
    if not _global.anomaly_check_nan or grads is None:
        return
    for index, grad in enumerate(grads):
        problem = _non_finite_kind(grad)
        if problem is None:
            continue
        _warn_forward_trace(node)
        message = f"Function '{node.name()}' returned {problem} values in its {index}th output."
        location = forward_location(node)
        if location:
            message += f"\nThe forward call that created it: {location}"
        raise RuntimeError(message)


def _non_finite_kind(grad) -> str | None:
    slots = getattr(grad, "slots", None)
    if slots is not None:
        for value in slots.values():
            kind = _non_finite_kind(value)
            if kind is not None:
                return kind
        return None
    if grad is None:
        return None
    data = grad._data if isinstance(grad, Tensor) else grad
    if data.dtype.kind not in "fc":
        return None
    from ..backend import namespace_of
    xp = namespace_of(data)
    if bool(xp.isnan(data).any()):
        return "nan"
    return None


def _warn_forward_trace(node) -> None:
    frames = user_frames(forward_trace(node))
    if not frames:
        return
    text = "".join(traceback.format_list(frames))
    warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the "
                  f"error:\n{text}", UserWarning, stacklevel=2)
