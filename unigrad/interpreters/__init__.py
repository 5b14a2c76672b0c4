"""Interpreters: what :func:`unigrad.ops._primitive.bind` does with a primitive, per mode.

Each mode is a small class in its own module, and the active ones form a stack
per thread (``unigrad._state.local.interpreter`` is the innermost; each holds
its ``parent``), as JAX's trace stack does:

- :mod:`~unigrad.interpreters.eager`: compute now on backend arrays and record on
  the tape (the bottom of every stack; with nothing else active, ``bind`` calls
  it directly);
- :mod:`~unigrad.interpreters.forward`: forward-mode duals (``dual_level``, ``jvp``);
- :mod:`~unigrad.interpreters.batching`: ``vmap``'s batched values;
- :mod:`~unigrad.interpreters.autocast`: mixed precision by each primitive's policy;
- graph tracing (:mod:`unigrad.graph.tracer`) for ``ug.jit``.

An interpreter handles what belongs to it and hands everything else (and the
primitives its own rules bind) to its parent. Interpreters never mutate user
objects.

Example:
    >>> import unigrad as ug
    >>> from unigrad import _state
    >>> _state.local.interpreter is None      # plain eager code
    True
    >>> with ug.amp.autocast():
    ...     type(_state.local.interpreter).__name__
    'AutocastInterpreter'
"""

from __future__ import annotations

from .. import _state

_local = _state.local


class Interpreter:
    """One mode on the stack: ``process`` a primitive, or hand it to ``parent``."""

    __slots__ = ("parent",)

    def __init__(self):
        self.parent = None

    def process(self, prim, args: tuple, params: dict):
        """The result of ``prim(*args, **params)`` under this interpreter."""
        raise NotImplementedError

    def process_parent(self, prim, args: tuple, params: dict):
        """Hand the primitive to the next interpreter out (eager at the bottom)."""
        parent = self.parent
        if parent is not None:
            return parent.process(prim, args, params)
        from .eager import bind_eager
        return bind_eager(prim, args, params)

    def __enter__(self):
        push(self)
        return self

    def __exit__(self, *exc_info) -> None:
        pop(self)


def push(interpreter: Interpreter) -> None:
    """Make ``interpreter`` the innermost on this thread."""
    interpreter.parent = _local.interpreter
    _local.interpreter = interpreter


def pop(interpreter: Interpreter) -> None:
    """Remove ``interpreter`` from this thread's stack (normally the innermost)."""
    top = _local.interpreter
    if top is interpreter:
        _local.interpreter = interpreter.parent
        return
    while top is not None:  # left out of order (a generator's context): splice it out
        if top.parent is interpreter:
            top.parent = interpreter.parent
            return
        top = top.parent


class running_parent:
    """``with running_parent(interpreter):`` makes its parent the innermost for the block
    (where an interpreter's own rules run, so the primitives they bind go outwards)."""

    __slots__ = ("interpreter", "previous")

    def __init__(self, interpreter: Interpreter):
        self.interpreter = interpreter

    def __enter__(self) -> None:
        self.previous = _local.interpreter
        _local.interpreter = self.interpreter.parent

    def __exit__(self, *exc_info) -> None:
        _local.interpreter = self.previous


def has_values(*values) -> bool:
    """Whether these arrays (or Tensors) hold concrete numbers now.

    False while a graph trace records this thread's ops (values are abstract
    until the compiled function runs) and for an interpreter's stand-in such as
    a vmap batch: data-dependent checks and Python branches on values are then
    skipped or expressed as ops.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.interpreters import has_values
        >>> has_values(ug.ones(2))
        True
        >>> ug.vmap(lambda x: ug.tensor(has_values(x)))(ug.ones(2))
        tensor([False, False])
    """
    if _local.trace is not None:
        return False
    from .array import AbstractArray
    return not any(isinstance(getattr(value, "_data", value), AbstractArray) for value in values)
