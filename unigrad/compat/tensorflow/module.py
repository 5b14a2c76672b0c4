"""TensorFlow's ``tf.Module`` and ``tf.name_scope`` over unigrad.

``name_scope`` keeps the current name scope (one per thread, as TensorFlow's
eager context does): a ``tf.Variable(..., name="w")`` made inside
``with tf.name_scope("dense"):`` is named ``"dense/w:0"``. ``Module`` is a
named container whose ``variables``, ``trainable_variables``,
``non_trainable_variables`` and ``submodules`` are found by walking its
attributes in name order (into lists, tuples and dicts, then into the modules
found), each object once, in TensorFlow's order.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> from unigrad.compat.tensorflow.module import Module
    >>> class Scale(Module):
    ...     def __init__(self, name=None):
    ...         super().__init__(name=name)
    ...         self.factor = tf.Variable(2.0, name="factor")
    ...     def __call__(self, x):
    ...         return self.factor * x
    >>> model = Scale()
    >>> model.name, model(tf.constant(3.0))
    ('scale', <tf.Tensor: shape=(), dtype=float32, numpy=6.0>)
    >>> [variable.numpy().item() for variable in model.trainable_variables]
    [2.0]
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterator, Mapping, MappingView, Sequence

from ._tensor import Variable

__all__ = ["Module", "name_scope", "current_scope"]

_CAMEL_TO_SNAKE = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")
_VALID_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")


class _ScopeState(threading.local):
    """The current name scope of this thread: ``""`` (the root) or ``"outer/inner/"``."""

    scope = ""


_state = _ScopeState()


def current_scope() -> str:
    """The name scope entered on this thread, with its trailing ``/`` (``""`` at the root).

    Variables prefix their names with it.

    Example:
        >>> from unigrad.compat.tensorflow.module import current_scope, name_scope
        >>> current_scope()
        ''
        >>> with name_scope("outer"), name_scope("inner"):
        ...     current_scope()
        'outer/inner/'
    """
    return _state.scope


class name_scope:  # noqa: N801 - TensorFlow's spelling
    """A context manager that prefixes the names made inside it (``tf.name_scope``).

    ``name`` is appended to the current scope (``"outer/"`` + ``"inner"`` gives
    ``"outer/inner/"``); a name ending in ``/`` is used as the whole scope, and
    ``""`` returns to the root. ``with`` gives the scope entered. As in eager
    TensorFlow, entering the same name twice gives the same scope (no ``_1``).

    Raises:
        ValueError: If ``name`` is not a string (TensorFlow's type).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> from unigrad.compat.tensorflow.module import name_scope
        >>> with name_scope("dense") as scope:
        ...     print(scope)
        ...     with name_scope("kernel") as inner:
        ...         print(inner)
        dense/
        dense/kernel/
    """

    __slots__ = ("_name", "_previous")

    def __init__(self, name: str) -> None:
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._previous: list[str] = []

    @property
    def name(self) -> str:
        """The name given to the constructor."""
        return self._name

    def __enter__(self) -> str:
        previous = _state.scope
        if not self._name:
            scope = ""
        elif self._name.endswith("/"):
            scope = self._name
        else:
            scope = previous + self._name + "/"
        self._previous.append(previous)
        _state.scope = scope
        return scope

    def __exit__(self, exception_type, exception, traceback) -> bool:
        _state.scope = self._previous.pop()
        return False


def _camel_to_snake(value: str) -> str:
    """A class name as a module name: ``"MyHTTPModule"`` -> ``"my_http_module"``."""
    return _CAMEL_TO_SNAKE.sub(r"_\1", value).lower()


def _check_name(name) -> None:
    if not isinstance(name, str):
        raise TypeError(f"name must be a str or None, got {type(name).__name__}")
    if not _VALID_NAME.match(name):
        raise ValueError(f"{name!r} is not a valid module name. Module names must be valid "
                         "Python identifiers (e.g. a valid class name).")


def _is_variable(value) -> bool:
    return isinstance(value, Variable)


def _is_trainable_variable(value) -> bool:
    return _is_variable(value) and bool(getattr(value, "trainable", False))


def _is_non_trainable_variable(value) -> bool:
    return _is_variable(value) and not getattr(value, "trainable", False)


def _is_module(value) -> bool:
    return isinstance(value, Module)


def _is_sequence(value) -> bool:
    return isinstance(value, (Sequence, MappingView)) and not isinstance(
        value, (str, bytes, bytearray))


def _leaves(value, path: tuple = ()) -> Iterator[tuple[tuple, object]]:
    """``(path, leaf)`` for each leaf of ``value`` as ``tf.nest`` flattens it: dicts by sorted
    key, namedtuples by field, other sequences by position; anything else is one leaf."""
    if isinstance(value, Mapping):
        for key in sorted(value):
            yield from _leaves(value[key], (*path, key))
    elif isinstance(value, tuple) and hasattr(value, "_fields"):
        for field in value._fields:
            yield from _leaves(getattr(value, field), (*path, field))
    elif _is_sequence(value):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    else:
        yield path, value


def _attribute_leaves(key: str, value) -> list[tuple[tuple, object]]:
    """The leaves of the attribute ``key``, or a ValueError naming it."""
    try:
        return [((key, *path), leaf) for path, leaf in _leaves(value)]
    except Exception as cause:
        raise ValueError(f"Error processing property {key!r} of {value!r}") from cause


def _flatten_module(module: Module, recursive: bool, predicate: Callable,
                    attribute_traversal_key: Callable | None, with_path: bool,
                    module_path: tuple, seen: set, recursion_stack: list) -> Iterator:
    """The leaves of ``module``'s attributes (in name order), then those of each module
    found among them, recursively; each object once unless ``with_path``."""
    if id(module) in recursion_stack:
        recursive = False
    submodules = []
    for key in sorted(vars(module), key=attribute_traversal_key):
        if key in module._TF_MODULE_IGNORED_PROPERTIES:
            continue
        for leaf_path, leaf in _attribute_leaves(key, vars(module)[key]):
            if not with_path:
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
            if predicate(leaf):
                yield (module_path + leaf_path, leaf) if with_path else leaf
            if recursive and _is_module(leaf):
                submodules.append((module_path + leaf_path, leaf))
    recursion_stack.append(id(module))
    for submodule_path, submodule in submodules:
        yield from _flatten_module(submodule, recursive, predicate, attribute_traversal_key,
                                   with_path, submodule_path, seen, recursion_stack)
    recursion_stack.pop()


class Module:
    """A named container of variables and other modules (``tf.Module``).

    ``name`` defaults to the class name in snake case (``MyModel`` ->
    ``"my_model"``); the module's :attr:`name_scope` is the scope current at
    construction plus ``name``. Variables, trainable variables and submodules
    are found among the attributes (sorted by name, into lists, tuples and
    dicts), then among those of the submodules found, each object once.

    Raises:
        ValueError: If ``name`` is not a Python identifier.
        TypeError: If ``name`` is not a string.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> from unigrad.compat.tensorflow.module import Module
        >>> class Dense(Module):
        ...     def __init__(self, in_features, out_features, name=None):
        ...         super().__init__(name=name)
        ...         with self.name_scope:
        ...             self.w = tf.Variable(tf.ones([in_features, out_features]), name="w")
        ...             self.b = tf.Variable(tf.zeros([out_features]), name="b")
        ...     def __call__(self, x):
        ...         return tf.nn.relu(tf.matmul(x, self.w) + self.b)
        >>> layer = Dense(3, 2, name="dense")
        >>> layer(tf.constant([[1.0, 2.0, 3.0]]))
        <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[6., 6.]], dtype=float32)>
        >>> [tuple(variable.shape) for variable in layer.trainable_variables]
        [(2,), (3, 2)]
    """

    _TF_MODULE_IGNORED_PROPERTIES: frozenset = frozenset()

    def __init__(self, name: str | None = None) -> None:
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        else:
            _check_name(name)
        self._name = name
        with name_scope(name) as scope:
            self._name_scope = name_scope(scope)

    @property
    def name(self) -> str:
        """The module's own name (without the enclosing scopes).

        Example:
            >>> from unigrad.compat.tensorflow.module import Module
            >>> class EncoderBlock(Module):
            ...     pass
            >>> EncoderBlock().name, EncoderBlock(name="block_1").name
            ('encoder_block', 'block_1')
        """
        return self._name

    @property
    def name_scope(self) -> name_scope:
        """The module's :class:`name_scope` (its ``name`` is the full scope, ``"outer/dense/"``).

        Example:
            >>> from unigrad.compat.tensorflow.module import Module, name_scope
            >>> with name_scope("outer"):
            ...     module = Module(name="dense")
            >>> module.name, module.name_scope.name
            ('dense', 'outer/dense/')
        """
        return self._name_scope

    @property
    def variables(self) -> tuple:
        """Every variable of this module and its submodules, in TensorFlow's order.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> from unigrad.compat.tensorflow.module import Module
            >>> module = Module()
            >>> module.b = tf.Variable(1.0, name="b", trainable=False)
            >>> module.a = [tf.Variable(2.0, name="a"), module.b]
            >>> [variable.name for variable in module.variables]
            ['a:0', 'b:0']
        """
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self) -> tuple:
        """The variables (see :attr:`variables`) whose ``trainable`` is true.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> from unigrad.compat.tensorflow.module import Module
            >>> module = Module()
            >>> module.weight = tf.Variable(1.0, name="weight")
            >>> module.count = tf.Variable(0, name="count", trainable=False)
            >>> [variable.name for variable in module.trainable_variables]
            ['weight:0']
        """
        return tuple(self._flatten(predicate=_is_trainable_variable))

    @property
    def non_trainable_variables(self) -> tuple:
        """The variables (see :attr:`variables`) whose ``trainable`` is false.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> from unigrad.compat.tensorflow.module import Module
            >>> module = Module()
            >>> module.weight = tf.Variable(1.0, name="weight")
            >>> module.count = tf.Variable(0, name="count", trainable=False)
            >>> [variable.name for variable in module.non_trainable_variables]
            ['count:0']
        """
        return tuple(self._flatten(predicate=_is_non_trainable_variable))

    @property
    def submodules(self) -> tuple:
        """Every module found in this module's attributes, then in theirs, recursively.

        Example:
            >>> from unigrad.compat.tensorflow.module import Module
            >>> a, b, c = Module(name="a"), Module(name="b"), Module(name="c")
            >>> a.b = b
            >>> b.c = c
            >>> [module.name for module in a.submodules]
            ['b', 'c']
        """
        return tuple(self._flatten(predicate=_is_module))

    def _flatten(self, recursive: bool = True, predicate: Callable | None = None,
                 attribute_traversal_key: Callable | None = None, with_path: bool = False,
                 expand_composites: bool = False) -> Iterator:
        """The leaves of the attributes (sorted by ``attribute_traversal_key`` of their names)
        that satisfy ``predicate``, then those of the submodules when ``recursive``.

        ``with_path=True`` yields ``(path, leaf)`` pairs and keeps repeated objects.
        ``expand_composites`` is accepted for TensorFlow's signature (unigrad has no
        composite tensors).

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> from unigrad.compat.tensorflow.module import Module
            >>> module = Module()
            >>> module.weights = {"w": tf.Variable(1.0, name="w")}
            >>> [(path, leaf.name) for path, leaf in module._flatten(with_path=True)
            ...  if isinstance(leaf, tf.Variable)]
            [(('weights', 'w'), 'w:0')]
        """
        del expand_composites
        return _flatten_module(self, recursive, predicate or (lambda _: True),
                               attribute_traversal_key, with_path, (), {id(self)}, [])

    @classmethod
    def with_name_scope(cls, method: Callable) -> Callable:
        """Decorate ``method`` so that its calls run inside the module's :attr:`name_scope`.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> from unigrad.compat.tensorflow.module import Module, current_scope
            >>> class Scoped(Module):
            ...     @Module.with_name_scope
            ...     def __call__(self):
            ...         return current_scope()
            >>> Scoped()()
            'scoped/'
        """

        @functools.wraps(method)
        def method_with_name_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)

        return method_with_name_scope
