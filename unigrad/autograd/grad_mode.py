"""Grad modes: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode``.

Each is thread-local and works as a context manager and as a decorator.

Example:
    >>> import unigrad as ug
    >>> x = ug.tensor([1.0], requires_grad=True)
    >>> with ug.no_grad():
    ...     y = x * 2
    >>> y.requires_grad
    False
"""

from __future__ import annotations

import functools
import inspect

from .. import _state

_local = _state.local


class _GradModeContext:
    """Base: subclasses set the mode in ``__enter__`` and restore it in ``__exit__``."""

    def __call__(self, fn):
        if not callable(fn):
            raise TypeError(f"{type(self).__name__} decorates callables, got {type(fn).__name__}")
        factory = self._clone
        if inspect.isgeneratorfunction(fn):
            @functools.wraps(fn)
            def generator_wrapper(*args, **kwargs):
                generator = fn(*args, **kwargs)
                try:
                    with factory():
                        value = next(generator)
                    while True:
                        sent = yield value
                        with factory():
                            value = generator.send(sent)
                except StopIteration as stop:
                    return stop.value
            return generator_wrapper

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with factory():
                return fn(*args, **kwargs)
        return wrapper

    def _clone(self):
        return type(self)()


class _BareDecoratorContext(_GradModeContext):
    """A mode that also decorates without parentheses: ``@ug.no_grad`` as ``@ug.no_grad()``."""

    def __new__(cls, function=None):
        if function is None:
            return super().__new__(cls)
        return cls()(function)


class no_grad(_BareDecoratorContext):
    """Disable recording of operations (outputs do not require grad)."""

    def __enter__(self):
        self._previous = _local.grad_enabled
        _local.grad_enabled = False
        return self

    def __exit__(self, *exc):
        _local.grad_enabled = self._previous
        return False


class enable_grad(_BareDecoratorContext):
    """Re-enable recording inside ``no_grad``."""

    def __enter__(self):
        self._previous = _local.grad_enabled
        _local.grad_enabled = True
        return self

    def __exit__(self, *exc):
        _local.grad_enabled = self._previous
        return False


class set_grad_enabled(_GradModeContext):
    """Set grad mode: takes effect at once, and restores on ``__exit__`` when used with ``with``."""

    def __init__(self, mode: bool):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): mode must be a bool, got {type(mode).__name__}")
        self._previous = _local.grad_enabled
        self.mode = mode
        _local.grad_enabled = mode

    def _clone(self):
        return set_grad_enabled(self.mode)

    def __call__(self, fn):
        _local.grad_enabled = self._previous
        return super().__call__(fn)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _local.grad_enabled = self._previous
        return False


class inference_mode(_GradModeContext):
    """Like ``no_grad``; tensors made inside cannot later be saved for backward."""

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __init__(self, mode: bool = True):
        if not isinstance(mode, bool):
            raise TypeError(f"inference_mode(): mode must be a bool, got {type(mode).__name__}")
        self.mode = mode

    def _clone(self):
        return inference_mode(self.mode)

    def __enter__(self):
        self._previous = (_local.grad_enabled, _local.inference_mode)
        if self.mode:
            _local.grad_enabled = False
            _local.inference_mode = True
        return self

    def __exit__(self, *exc):
        _local.grad_enabled, _local.inference_mode = self._previous
        return False


def is_grad_enabled() -> bool:
    """Whether operations are recorded in this thread."""
    return _local.grad_enabled


def is_inference_mode_enabled() -> bool:
    return _local.inference_mode
