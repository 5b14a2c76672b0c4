"""TensorFlow 1's variable scopes: ``variable_scope`` and ``get_variable_scope``.

Inside ``with tf.compat.v1.variable_scope("layer"):`` the variables of
``get_variable`` are named ``layer/<name>``, the scope's ``initializer`` and
``reuse`` are their defaults (``reuse=True`` fetches existing variables,
``AUTO_REUSE`` fetches or creates them; a reusing scope's nested scopes reuse
too), and ``tf.Variable`` names take the prefix through the name scope the
variable scope opens. Scopes are per thread.

Example:
    >>> import unigrad.compat.tensorflow.compat.v1 as tf
    >>> tf.reset_default_graph()
    >>> with tf.variable_scope("layer"):
    ...     w = tf.get_variable("w", shape=[2], initializer=tf.zeros_initializer())
    >>> with tf.variable_scope("layer", reuse=True):
    ...     tf.get_variable("w") is w
    True
    >>> w.name
    'layer/w:0'
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from .module import name_scope

__all__ = ["VariableScope", "variable_scope", "get_variable_scope"]


class VariableScope:
    """A variable scope: its ``name``, ``reuse`` mode and default ``initializer``."""

    def __init__(self, reuse=None, name: str = "", initializer=None, dtype=None):
        self.name = name
        self.reuse = reuse
        self.initializer = initializer
        self.dtype = dtype
        self.original_name_scope = name + "/" if name else ""

    def reuse_variables(self) -> None:
        """Reuse variables in this scope from now on (``get_variable`` fetches them)."""
        self.reuse = True

    def set_initializer(self, initializer) -> None:
        self.initializer = initializer

    def prefixed(self, name: str) -> str:
        """``name`` under this scope."""
        return f"{self.name}/{name}" if self.name else name

    def __repr__(self) -> str:
        return f"<VariableScope {self.name!r} reuse={self.reuse}>"


class _Scopes(threading.local):
    def __init__(self):
        self.stack: list[VariableScope] = [VariableScope()]
        self.default_counts: dict[str, int] = {}


_scopes = _Scopes()


def get_variable_scope() -> VariableScope:
    """The innermost variable scope of this thread (the root scope, named ``""``, outside
    every ``variable_scope``)."""
    return _scopes.stack[-1]


@contextlib.contextmanager
def variable_scope(name_or_scope=None, default_name: str | None = None, values=None,
                   initializer=None, regularizer=None, caching_device=None, partitioner=None,
                   custom_getter=None, reuse=None, dtype=None, use_resource=None,
                   constraint=None, auxiliary_name_scope: bool = True) -> Iterator[VariableScope]:
    """``tf.compat.v1.variable_scope``: a (nested) scope for :func:`get_variable` names,
    with its ``reuse`` mode and default ``initializer``; a ``VariableScope`` object
    re-enters that scope.

    Raises:
        ValueError: When neither ``name_or_scope`` nor ``default_name`` is given, or
            ``reuse`` is not True, False, None or ``AUTO_REUSE``.
        TypeError: When ``name_or_scope`` is neither a string nor a ``VariableScope``.
    """
    from ._v1 import AUTO_REUSE  # here: _v1 imports this module
    if reuse not in (None, True, False) and reuse is not AUTO_REUSE:
        raise ValueError(f"reuse must be True, False, None or tf.AUTO_REUSE, got {reuse!r}")
    parent = get_variable_scope()
    if isinstance(name_or_scope, VariableScope):
        name = name_or_scope.name
        base_reuse, base_initializer = name_or_scope.reuse, name_or_scope.initializer
    elif isinstance(name_or_scope, str):
        name = parent.prefixed(name_or_scope)
        base_reuse, base_initializer = parent.reuse, parent.initializer
    elif name_or_scope is None:
        if default_name is None:
            raise ValueError("If default_name is None then name_or_scope is required")
        name = parent.prefixed(_unique_default(parent.prefixed(default_name)))
        base_reuse, base_initializer = parent.reuse, parent.initializer
    else:
        raise TypeError(f"VariableScope: name_or_scope must be a string or VariableScope, got "
                        f"{type(name_or_scope).__name__}")
    if parent.reuse is True:  # a reusing scope's nested scopes reuse too
        scope_reuse = True
    elif reuse is True or reuse is AUTO_REUSE:
        scope_reuse = reuse
    else:  # None or False: inherit
        scope_reuse = base_reuse
    scope = VariableScope(reuse=scope_reuse, name=name, dtype=dtype,
                          initializer=base_initializer if initializer is None else initializer)
    opened = name_scope(name.rsplit("/", 1)[-1]) if auxiliary_name_scope and name else \
        contextlib.nullcontext()
    _scopes.stack.append(scope)
    try:
        with opened:
            yield scope
    finally:
        _scopes.stack.pop()


def _unique_default(name: str) -> str:
    """``name``'s last part, numbered as TensorFlow numbers default scope names."""
    count = _scopes.default_counts.get(name, 0)
    _scopes.default_counts[name] = count + 1
    last = name.rsplit("/", 1)[-1]
    return last if count == 0 else f"{last}_{count}"


def reset() -> None:
    """Forget default-name counts (``reset_default_graph``)."""
    _scopes.default_counts.clear()
