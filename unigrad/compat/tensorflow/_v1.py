"""TensorFlow 1's graph-style API, evaluated eagerly: ``get_variable``, ``Session``,
``global_variables_initializer`` and the ``tf.compat.v1`` spelling of ``gradients``.

Values exist as soon as they are computed; ``Session.run`` converts the fetched
tensors to NumPy arrays in the structure of the fetches, and running an
initializer sets variables to their initial values.

Example:
    >>> import unigrad.compat.tensorflow.compat.v1 as tf
    >>> tf.reset_default_graph()
    >>> w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
    >>> y = w * 3.0
    >>> with tf.Session() as sess:
    ...     tf.global_variables_initializer().run()
    ...     sess.run({"y": y, "g": tf.gradients(y, [w])})
    {'y': array([3., 6.], dtype=float32), 'g': [array([3., 3.], dtype=float32)]}
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import numpy as np

import unigrad as ug
from unigrad.tensor import Tensor as _UgTensor
from unigrad.transforms import UnconnectedGradients

from . import _graph, _transforms, _v1_scopes
from ._tensor import Variable, _array_from, _dtype, _make
from ._v1_initializers import glorot_uniform_initializer
from ._v1_scopes import get_variable_scope
from .module import name_scope

__all__ = ["AUTO_REUSE", "Session", "InteractiveSession", "get_variable", "get_default_session",
           "global_variables", "trainable_variables", "global_variables_initializer",
           "variables_initializer", "reset_default_graph", "gradients", "executing_eagerly",
           "disable_eager_execution", "enable_eager_execution", "disable_v2_behavior"]


class _AutoReuse:
    def __repr__(self) -> str:
        return "AUTO_REUSE"


#: ``get_variable(..., reuse=AUTO_REUSE)``: return the existing variable or create it.
AUTO_REUSE = _AutoReuse()

_variables: dict[str, Variable] = {}
_sessions = threading.local()


def _initial_array(name: str, shape, dtype, initializer) -> np.ndarray:
    """The initial value of a :func:`get_variable` variable (computed now, also in a
    graph, as TF1's initializers)."""
    dtype = _dtype(dtype, "dtype")
    if shape is not None:
        shape = tuple(int(n) for n in shape)
    if initializer is None:
        if shape is None:
            raise ValueError(f"The shape of variable {name} must be fully defined: pass shape "
                             "or a constant initializer")
        value = glorot_uniform_initializer()(shape, dtype=dtype) if dtype.is_floating_point \
            else np.zeros(shape, ug.backend.to_numpy_dtype(dtype))
    elif callable(initializer) and not isinstance(initializer, _UgTensor):
        if shape is None:
            raise ValueError(f"The shape of variable {name} must be fully defined when its "
                             "initializer is a callable")
        value = initializer(shape, dtype=dtype)
    else:
        if shape is not None and isinstance(initializer, (_UgTensor, np.ndarray, list)):
            raise ValueError("If initializer is a constant, do not specify shape.")
        value = initializer
    array = _array_from(value, dtype)
    if shape is not None and array.shape != shape:
        if array.size != 1:
            raise ValueError(f"initializer for variable {name} has shape {array.shape}, "
                             f"expected {shape}")
        array = np.broadcast_to(array.reshape(()), shape).copy()
    return array


def get_variable(name: str, shape=None, dtype=ug.float32, initializer=None, regularizer=None,
                 trainable: bool | None = None, collections=None, caching_device=None,
                 partitioner=None, validate_shape: bool = True, use_resource=None,
                 custom_getter=None, constraint=None, synchronization=None, aggregation=None,
                 reuse=None) -> Variable:
    """``tf.compat.v1.get_variable``: create (or, with ``reuse``, fetch) a named variable.

    Without ``initializer`` a floating-point variable is drawn from the
    Glorot-uniform distribution (TF1's default), an integer one is zeros; a
    callable ``initializer(shape, dtype=...)`` or a constant value also works.

    Raises:
        ValueError: When ``name`` exists and ``reuse`` is not set, does not exist with
            ``reuse=True``, or neither ``shape`` nor a constant initializer fixes the shape.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty str, got {name!r}")
    scope = get_variable_scope()
    name = scope.prefixed(name)
    reuse = scope.reuse if reuse is None or reuse is False and scope.reuse else reuse
    initializer = scope.initializer if initializer is None else initializer
    existing = _variables.get(name)
    if existing is not None:
        if reuse is True or reuse is AUTO_REUSE:
            return existing
        raise ValueError(f"Variable {name} already exists, disallowed. Did you mean to set "
                         "reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
    if reuse is True:
        raise ValueError(f"Variable {name} does not exist, or was not created with "
                         "tf.get_variable(). Did you mean to set reuse=tf.AUTO_REUSE in VarScope?")
    with _graph.init_scope():
        array = _initial_array(name, shape, dtype, initializer)
    with name_scope(""):  # TF1 variables are named by variable scopes, not name scopes
        variable = Variable(array, trainable=True if trainable is None else trainable, name=name)
    _variables[name] = variable
    return variable


def global_variables() -> list:
    """The variables of the graph being built (every ``tf.Variable`` and
    :func:`get_variable` made in it), or eagerly those made by :func:`get_variable`, in
    creation order."""
    graph = _graph.building()
    if graph is not None:
        return graph.get_collection("variables")
    return list(_variables.values())


def trainable_variables() -> list:
    """The trainable ones of :func:`global_variables`."""
    return [v for v in global_variables() if v.trainable]


class _InitializerOp:
    """An initializer operation: running it sets its variables to their initial values."""

    def __init__(self, variables: list, name: str):
        self._variables = list(variables)
        self.name = name

    def _execute(self) -> None:
        for variable in self._variables:
            variable.initialize()

    def run(self, feed_dict=None, session: Session | None = None) -> None:
        """Run in ``session`` or the default session (``with tf.Session():``).

        Raises:
            ValueError: When there is no session to run in.
        """
        _session_for(session, "execute operation").run(self, feed_dict=feed_dict)

    def __repr__(self) -> str:
        return f"<tf.Operation '{self.name}' type=NoOp>"


def global_variables_initializer() -> _InitializerOp:
    """An op that sets every variable of :func:`global_variables` to its initial value."""
    return _InitializerOp(global_variables(), "init")


def variables_initializer(var_list, name: str = "init") -> _InitializerOp:
    """An op that initializes the variables in ``var_list``."""
    var_list = list(var_list)
    for index, item in enumerate(var_list):
        if not isinstance(item, Variable):
            raise TypeError(f"var_list[{index}] must be a Variable, got {type(item).__name__}")
    return _InitializerOp(var_list, name)


def _stack() -> list:
    if not hasattr(_sessions, "stack"):
        _sessions.stack = []
    return _sessions.stack


def get_default_session() -> Session | None:
    """The innermost session entered with ``with`` or ``as_default()`` in this thread."""
    stack = _stack()
    return stack[-1] if stack else None


def _fetch_leaves(fetches, graph) -> tuple[list, object]:
    """The fetches' leaves (tensors, operations; names looked up in ``graph``) and their
    structure (lists, tuples, named tuples, dicts)."""
    if isinstance(fetches, list):
        parts = [_fetch_leaves(item, graph) for item in fetches]
        return [leaf for part in parts for leaf in part[0]], (list, [p[1] for p in parts])
    if isinstance(fetches, tuple):
        parts = [_fetch_leaves(item, graph) for item in fetches]
        kind = type(fetches) if hasattr(fetches, "_fields") else tuple
        return [leaf for part in parts for leaf in part[0]], (kind, [p[1] for p in parts])
    if isinstance(fetches, dict):
        keys = list(fetches)
        parts = [_fetch_leaves(fetches[key], graph) for key in keys]
        return ([leaf for part in parts for leaf in part[0]],
                (type(fetches), list(zip(keys, [p[1] for p in parts]))))
    if isinstance(fetches, str):
        owner = graph if graph is not None else _graph.get_default_graph()
        fetches = owner.get_tensor_by_name(fetches) if ":" in fetches else \
            owner.get_operation_by_name(fetches)
    if not isinstance(fetches, (_UgTensor, _graph.Operation, _InitializerOp)):
        raise TypeError(f"Fetch argument {fetches!r} has invalid type {type(fetches)}, must be a "
                        "string or Tensor. (Can not convert a "
                        f"{type(fetches).__name__} into a Tensor or Operation.)")
    return [fetches], None


def _rebuilt(definition, results: list):
    """``results`` (one per leaf, in order) in the structure ``definition``."""
    position = 0

    def build(node):
        nonlocal position
        if node is None:
            position += 1
            return results[position - 1]
        kind, children = node
        if kind is list:
            return [build(child) for child in children]
        if issubclass(kind, tuple):
            values = [build(child) for child in children]
            return kind(*values) if hasattr(kind, "_fields") else tuple(values)
        return kind((key, build(child)) for key, child in children)

    return build(definition)


def _fetched_value(leaf, values: dict):
    if isinstance(leaf, (_graph.Operation, _InitializerOp)):
        return None
    tensor = values.get(id(leaf), leaf)
    array = np.array(ug.backend.to_numpy(tensor._data))
    return array[()] if array.ndim == 0 else array


def _feeds(feed_dict, graph) -> dict:
    """``{id(graph tensor): Tensor}`` from a ``feed_dict`` (values cast to each tensor's
    dtype and checked against its static shape)."""
    feeds = {}
    for key, value in (feed_dict or {}).items():
        if isinstance(key, str):
            owner = graph if graph is not None else _graph.get_default_graph()
            key = owner.get_tensor_by_name(key)
        if not isinstance(key, _graph.SymbolicTensor):
            raise TypeError(f"The key of a feed_dict must be a graph tensor (a placeholder) or "
                            f"its name, got {type(key).__name__}")
        array = _array_from(value._data if isinstance(value, _UgTensor) else value, key.dtype)
        if not key.shape.is_compatible_with(array.shape):
            raise ValueError(f"Cannot feed value of shape {array.shape} for Tensor "
                             f"{key.name}, which has shape {key.shape}")
        feeds[id(key)] = _make(array)
    return feeds


def _session_for(session, what: str):
    """``session``, or the default session; a ValueError naming ``what`` when none."""
    session = get_default_session() if session is None else session
    if session is None:
        raise ValueError(f"Cannot {what} using `run()`: No default session is registered. Use "
                         "`with sess.as_default():` or pass an explicit session to "
                         "`run(session=sess)`")
    return session


class Session:
    """``tf.compat.v1.Session``: ``run(fetches)`` returns NumPy values of the fetched tensors
    in the structure of ``fetches``. Used as a context manager it is the default session
    and is closed on exit.

    Example:
        >>> import unigrad.compat.tensorflow.compat.v1 as tf
        >>> with tf.Session() as sess:
        ...     sess.run((tf.constant(1.0), [tf.constant([2, 3])]))
        (np.float32(1.0), [array([2, 3], dtype=int32)])
    """

    def __init__(self, target: str = "", graph=None, config=None):
        self._closed = False
        self._graph = graph

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Evaluate ``fetches`` (a tensor, an operation, a tensor name, or a list/tuple/dict
        of them) with ``feed_dict`` giving the values of placeholders (or of any graph
        tensor); returns NumPy values in the structure of ``fetches`` (None for operations).

        Raises:
            RuntimeError: When the session is closed.
            TypeError: For a fetch that is neither a tensor nor an operation, or a feed key
                that is not a graph tensor.
            ValueError: For a fed value whose shape the tensor's static shape excludes.
            InvalidArgumentError: When a placeholder the fetches need is not fed.
        """
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        leaves, definition = _fetch_leaves(fetches, self._graph)
        feeds = _feeds(feed_dict, self._graph)
        for leaf in leaves:
            if isinstance(leaf, _InitializerOp):
                leaf._execute()
        graph_tensors = [leaf for leaf in leaves if isinstance(leaf, _graph.SymbolicTensor)]
        operations = [leaf for leaf in leaves if isinstance(leaf, _graph.Operation)]
        values = {}
        if graph_tensors or operations:
            computed = _graph.evaluate(graph_tensors, feeds, operations)
            values = {id(tensor): value for tensor, value in zip(graph_tensors, computed)}
        results = [_fetched_value(leaf, values) for leaf in leaves]
        return _rebuilt(definition, results)

    def close(self) -> None:
        """Close the session; later ``run`` calls raise."""
        self._closed = True

    @contextlib.contextmanager
    def as_default(self) -> Iterator[Session]:
        """Make this the default session inside the block (without closing it)."""
        stack = _stack()
        stack.append(self)
        try:
            yield self
        finally:
            stack.remove(self)

    def __enter__(self) -> Session:
        _stack().append(self)
        return self

    def __exit__(self, *exc) -> bool:
        stack = _stack()
        if self in stack:
            stack.remove(self)
        self.close()
        return False


class InteractiveSession(Session):
    """A session that installs itself as the default session on creation."""

    def __init__(self, target: str = "", graph=None, config=None):
        super().__init__(target, graph, config)
        _stack().append(self)

    def close(self) -> None:
        stack = _stack()
        if self in stack:
            stack.remove(self)
        super().close()


def gradients(ys, xs, grad_ys=None, name: str = "gradients",
              colocate_gradients_with_ops: bool = False, gate_gradients: bool = False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE) -> list:
    """``tf.compat.v1.gradients`` (TF1's argument order): see ``tf.gradients``."""
    return _transforms.gradients(ys, xs, grad_ys=grad_ys, stop_gradients=stop_gradients,
                                 unconnected_gradients=unconnected_gradients)


def executing_eagerly() -> bool:
    """Whether operations run now (False while a graph is being built)."""
    return _graph.building() is None


def disable_eager_execution() -> None:
    """Build graphs from now on: operations go to the default graph and run in a
    ``Session`` (placeholders, ``feed_dict``, ``tf.gradients`` of graph tensors)."""
    _graph.disable_eager_execution()


def enable_eager_execution(config=None, device_policy=None, execution_mode=None) -> None:
    """Compute eagerly again (after :func:`disable_eager_execution`)."""
    _graph.enable_eager_execution()


def disable_v2_behavior() -> None:
    """TensorFlow 1 behaviour: graphs and sessions (:func:`disable_eager_execution`)."""
    _graph.disable_eager_execution()


def reset_default_graph() -> None:
    """A fresh default graph; forget every variable made by :func:`get_variable` (their
    names become free) and the numbering of default scope names."""
    _graph.reset_default_graph()
    _variables.clear()
    _v1_scopes.reset()
