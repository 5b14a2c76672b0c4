"""TensorFlow 1 graphs: ops are recorded while a graph is being built and computed when a
``Session`` runs them.

While a graph is the default (``with tf.Graph().as_default():``, or after
``tf.compat.v1.disable_eager_execution()``) every TensorFlow function and tensor
operator returns a *graph tensor* (:class:`SymbolicTensor`) instead of a value:
its operation (:class:`Operation`) remembers the function and its arguments.
Placeholders (:func:`placeholder`) stand for values fed at run time and may
have unknown dimensions (``None``). :func:`evaluate` computes fetched tensors
from the feeds by running the recorded functions eagerly on unigrad's engine,
under a recorder of everything (:mod:`unigrad.autograd.recording`), so the
``gradients`` operations inside the graph differentiate with respect to any
tensor, to any order.

Shapes are known at construction, as in TensorFlow: each graph tensor carries
two *probe* shapes, where unknown dimensions have two different sizes; a
function's output shapes come from running it on probe stand-ins (no values
computed), and the dimensions that differ between the probes are unknown.

Example:
    >>> import unigrad.compat.tensorflow.compat.v1 as tf
    >>> with tf.Graph().as_default():
    ...     x = tf.placeholder(tf.float32, shape=[None, 2])
    ...     y = tf.reduce_sum(x * 2.0, axis=1)
    ...     print(y)
    ...     with tf.Session() as sess:
    ...         print(sess.run(y, feed_dict={x: [[1.0, 2.0], [3.0, 4.0]]}))
    Tensor("Sum:0", shape=(None,), dtype=float32)
    [ 6. 14.]
"""

from __future__ import annotations

import contextlib
import functools
import re
import threading
from collections.abc import Callable, Iterator

import numpy as np

import unigrad as ug
from unigrad import _state, backend
from unigrad.abstract import ShapedArray
from unigrad.autograd.recording import Recorder
from unigrad.interpreters import Interpreter, pop, push
from unigrad.interpreters.array import AbstractArray
from unigrad.tensor import Tensor as _UgTensor
from unigrad.transforms.tree import tree_flatten, tree_unflatten

from ._tensor import Tensor, Variable, _dtype
from .errors import InvalidArgumentError
from .tensor_shape import TensorShape

__all__ = ["Graph", "Operation", "SymbolicTensor", "placeholder", "placeholder_with_default",
           "get_default_graph",
           "building", "evaluate", "init_scope", "deferring", "install"]

# The two sizes an unknown dimension has in the two probes (unusual, so a composite's
# special cases for sizes 0 and 1 never apply).
_PROBE_SIZES = (7, 11)

# TensorFlow's operation type for the functions and primitives that are named differently
_OP_TYPES = {
    "constant": "Const", "convert_to_tensor": "Const", "matmul": "MatMul", "reduce_mean": "Mean",
    "reduce_sum": "Sum", "reduce_max": "Max", "reduce_min": "Min", "reduce_prod": "Prod",
    "concat": "concat", "add": "add", "multiply": "mul", "subtract": "sub",
    "divide": "truediv", "div": "truediv", "mul": "mul", "sub": "sub", "neg": "Neg",
    "negative": "Neg", "getitem": "strided_slice", "pow": "pow", "random_normal": "random_normal",
    "normal": "random_normal", "uniform": "random_uniform", "truncated_normal":
    "truncated_normal", "add_n": "AddN", "zeros": "zeros", "ones": "ones", "stack": "stack",
    "transpose": "transpose", "gather": "GatherV2", "expand_dims": "ExpandDims",
    "relu": "Relu", "cast": "Cast", "shape": "Shape", "maximum": "Maximum",
    "minimum": "Minimum", "abs": "Abs", "squared_difference": "SquaredDifference",
}


def _op_type(name: str) -> str:
    """TensorFlow's spelling of an operation type for a function or primitive name."""
    if name in _OP_TYPES:
        return _OP_TYPES[name]
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


# --------------------------------------------------------------------------- which graph

class _Building(threading.local):
    def __init__(self):
        self.stack: list = []  # graphs made default in this thread; None: building suspended
        self.probing = 0  # > 0 while a function runs on probe stand-ins for its shapes
        self.view = 0  # which probe's shapes graph tensors show (1: the second probe)


_building = _Building()
_global = {"default": None, "eager_disabled": False}
# graphs being built now in any thread (as_default blocks, disabled eager execution): while
# zero, the graph-aware functions skip every other check
_active = [0]


def get_default_graph() -> Graph:
    """The graph new operations go to (``tf.compat.v1.get_default_graph``)."""
    stack = _building.stack
    if stack and stack[-1] is not None:
        return stack[-1]
    if _global["default"] is None:
        _global["default"] = Graph()
    return _global["default"]


def building() -> Graph | None:
    """The graph being built in this thread (None: eager execution)."""
    stack = _building.stack
    if stack:
        return stack[-1]
    return get_default_graph() if _global["eager_disabled"] else None


def probing() -> bool:
    """Whether a function runs on probe stand-ins now (for its output shapes)."""
    return _building.probing > 0


@contextlib.contextmanager
def _suspended() -> Iterator[None]:
    """Run eagerly inside the block (what ``Session.run`` and initializers do)."""
    _building.stack.append(None)
    try:
        yield
    finally:
        _building.stack.pop()


init_scope = _suspended  # ``tf.init_scope``: the block runs eagerly, outside the graph


def disable_eager_execution() -> None:
    """Build graphs from now on (in the calling thread: ops go to the default graph)."""
    if not _global["eager_disabled"]:
        _global["eager_disabled"] = True
        _active[0] += 1
        _building.eager_builder = _GraphBuilder()
        push(_building.eager_builder)


def enable_eager_execution() -> None:
    """Compute eagerly again (unigrad allows switching back; TensorFlow does not)."""
    if _global["eager_disabled"]:
        _active[0] -= 1
    _global["eager_disabled"] = False
    builder = getattr(_building, "eager_builder", None)
    if builder is not None:
        pop(builder)
        _building.eager_builder = None


def reset_default_graph() -> None:
    """A fresh default graph (operation names start again)."""
    if _building.stack and _building.stack[-1] is not None:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If "
                             "you need a cleared graph, exit the nesting and create a new graph.")
    _global["default"] = Graph()


# --------------------------------------------------------------------------- graph tensors

class Symbol(AbstractArray):
    """What a graph tensor holds instead of an array: its dtype and two probe shapes."""

    __slots__ = ("shapes", "dtype", "rank_known", "tensor")

    def __init__(self, shape: tuple, alternate: tuple, dtype, rank_known: bool = True):
        self.shapes = (tuple(shape), tuple(alternate))
        self.dtype = np.dtype(dtype)
        self.rank_known = rank_known
        self.tensor = None  # the graph tensor holding this symbol (None while probing)

    @property
    def shape(self) -> tuple:
        """The shape in the probe now running (the first probe's outside probes)."""
        return self.shapes[_building.view]

    @property
    def alternate(self) -> tuple:
        return self.shapes[1]

    def dimensions(self) -> tuple | None:
        """The shape TensorFlow shows: None for unknown dimensions (None: unknown rank)."""
        if not self.rank_known:
            return None
        first, second = self.shapes
        return tuple(a if a == b else None for a, b in zip(first, second))

    def _concrete_error(self, what: str) -> Exception:
        name = "" if self.tensor is None else f" ({self.tensor.name})"
        return TypeError(f"{what} of a symbolic tf.Tensor{name} is not allowed in graph "
                         f"execution: run it in a tf.compat.v1.Session")

    def __array__(self, dtype=None, copy=None):
        """A graph tensor that depends on no placeholder can be read (it is computed now:
        what a variable's initial value needs)."""
        if self.tensor is None:
            raise self._concrete_error("Conversion to a NumPy array")
        value = np.asarray(backend.to_numpy(evaluate([self.tensor], {})[0]._data))
        return value if dtype is None else value.astype(dtype)


def _shapes_of(value) -> tuple[tuple, tuple, object, bool]:
    """(probe shape, alternate probe shape, dtype, rank known) of a tensor or array."""
    data = value._data if isinstance(value, _UgTensor) else value
    if isinstance(data, Symbol):
        return data.shapes[0], data.shapes[1], data.dtype, data.rank_known
    return tuple(data.shape), tuple(data.shape), data.dtype, True


def _is_symbolic(value) -> bool:
    data = value._data if isinstance(value, _UgTensor) else value
    return isinstance(data, Symbol)


class SymbolicTensor(Tensor):
    """A tensor of a graph: output ``index`` of operation ``op``, computed by a Session.

    Example:
        >>> import unigrad.compat.tensorflow.compat.v1 as tf
        >>> with tf.Graph().as_default():
        ...     c = tf.constant(2.0)
        >>> c, c.name, c.op.type
        (<tf.Tensor 'Const:0' shape=() dtype=float32>, 'Const:0', 'Const')
    """

    __slots__ = ("_op", "_index")

    @property
    def op(self) -> Operation:
        """The operation that computes this tensor."""
        return self._op

    @property
    def graph(self) -> Graph:
        return self._op.graph

    @property
    def value_index(self) -> int:
        return self._index

    @property
    def name(self) -> str:
        """``"<operation name>:<output index>"``."""
        return f"{self._op.name}:{self._index}"

    @property
    def shape(self) -> TensorShape:
        """The static shape, ``None`` for unknown dimensions (the probe's sizes while a
        function runs on probes, so that its shape arithmetic works)."""
        if _building.probing:
            return TensorShape(self._data.shape)
        return TensorShape(self._data.dimensions())

    def get_shape(self) -> TensorShape:
        return self.shape

    def set_shape(self, shape) -> None:
        """Narrow the static shape (unknown dimensions become known)."""
        wanted = TensorShape(shape)
        if not self.shape.is_compatible_with(wanted):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied "
                             f"shape {wanted}.")
        dims = wanted.as_list() if wanted.rank is not None else None
        if dims is None:
            return
        symbol = self._data
        symbol.shapes = tuple(tuple(size if d is None else d for size, d in zip(shape, dims))
                              for shape in symbol.shapes)
        symbol.rank_known = True

    def numpy(self):
        raise NotImplementedError("numpy() is only available when eager execution is enabled.")

    def eval(self, feed_dict=None, session=None):
        """This tensor's value in ``session`` (default: the default session)."""
        from ._v1 import _session_for
        return _session_for(session, "evaluate tensor").run(self, feed_dict=feed_dict)

    def _shape_text(self) -> str:
        dims = self._data.dimensions()
        return "<unknown>" if dims is None else str(dims if len(dims) != 1 else f"({dims[0]},)")

    def __repr__(self) -> str:
        return (f"<tf.Tensor '{self.name}' shape={self._shape_text()} "
                f"dtype={self.dtype.name}>")

    def __str__(self) -> str:
        dims = self._data.dimensions()
        shape = "" if dims is None else f"shape={self._shape_text()}, "
        return f'Tensor("{self.name}", {shape}dtype={self.dtype.name})'

    def __bool__(self):
        raise TypeError("Using a symbolic `tf.Tensor` as a Python `bool` is not allowed in "
                        "Graph execution. Use Eager execution or decorate this function with "
                        "@tf.function.")

    def __iter__(self):
        dims = self._data.dimensions()
        if dims is None or not dims or dims[0] is None:
            raise TypeError("Cannot iterate over a tensor with unknown first dimension.")
        return (self[index] for index in range(dims[0]))

    def __len__(self) -> int:
        dims = self._data.dimensions()
        if dims is None or not dims or dims[0] is None:
            raise TypeError(f"len is not well defined for a symbolic Tensor ({self.name}). "
                            "Please call `x.shape` rather than `len(x)` for shape information.")
        return dims[0]

    __hash__ = object.__hash__


def _new_tensor(op: Operation | None, index: int, shapes: tuple) -> SymbolicTensor:
    """Output ``index`` of ``op`` with these probe shapes (``op`` None: a stand-in of a
    probe, in no graph)."""
    shape, alternate, dtype, rank_known = shapes
    tensor = object.__new__(SymbolicTensor)
    symbol = Symbol(shape, alternate, dtype, rank_known)
    if op is not None:
        symbol.tensor = tensor
    tensor._data = symbol
    tensor._requires_grad = False
    tensor._grad_fn = None
    tensor._grad = None
    tensor._vc = None
    tensor._extra = None
    tensor._op = op
    tensor._index = index
    return tensor


# --------------------------------------------------------------------------- graphs and ops

class Graph:
    """A TensorFlow graph: operations in creation order with unique names.

    Example:
        >>> import unigrad.compat.tensorflow.compat.v1 as tf
        >>> graph = tf.Graph()
        >>> with graph.as_default():
        ...     a = tf.constant(1.0)
        ...     b = tf.constant(2.0)
        ...     c = a + b
        >>> [op.name for op in graph.get_operations()]
        ['Const', 'Const_1', 'add']
        >>> graph.get_tensor_by_name("add:0") is c
        True
    """

    def __init__(self):
        self._operations: list[Operation] = []
        self._by_name: dict[str, Operation] = {}
        self._name_counts: dict[str, int] = {}
        self._finalized = False
        self._collections: dict[str, list] = {}

    def unique_name(self, base: str) -> str:
        """``base``, or ``base_<n>`` when that name is taken."""
        base = re.sub(r"[^A-Za-z0-9_./>-]", "_", base) or "op"
        count = self._name_counts.get(base, 0)
        name = base if count == 0 else f"{base}_{count}"
        while name in self._by_name:
            count += 1
            name = f"{base}_{count}"
        self._name_counts[base] = count + 1
        return name

    def _add(self, operation: Operation) -> None:
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        self._operations.append(operation)
        self._by_name[operation.name] = operation

    @contextlib.contextmanager
    def as_default(self) -> Iterator[Graph]:
        """Make this the graph new operations go to inside the block."""
        builder = _GraphBuilder()
        push(builder)
        _building.stack.append(self)
        _active[0] += 1
        try:
            yield self
        finally:
            _active[0] -= 1
            _building.stack.pop()
            pop(builder)

    def get_operations(self) -> list:
        return list(self._operations)

    def get_operation_by_name(self, name: str) -> Operation:
        if name not in self._by_name:
            raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")
        return self._by_name[name]

    def get_tensor_by_name(self, name: str) -> SymbolicTensor:
        operation_name, _, index = name.rpartition(":")
        if not operation_name or not index.isdigit():
            raise ValueError(f"The name {name!r} looks a like an Operation name, not a Tensor "
                             "name. Tensor names must be of the form \"<op_name>:<output_index>\".")
        operation = self.get_operation_by_name(operation_name)
        if int(index) >= len(operation.outputs):
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The "
                           f"operation, {operation_name!r}, exists but only has "
                           f"{len(operation.outputs)} outputs.")
        return operation.outputs[int(index)]

    def finalize(self) -> None:
        """Forbid new operations."""
        self._finalized = True

    @property
    def finalized(self) -> bool:
        return self._finalized

    def add_to_collection(self, name: str, value) -> None:
        self._collections.setdefault(name, []).append(value)

    def get_collection(self, name: str, scope=None) -> list:
        return list(self._collections.get(name, []))


class Operation:
    """One node of a graph (``tf.Operation``): its ``kernel`` computes its outputs.

    ``inputs`` are the graph tensors it reads; ``control_inputs`` operations that
    must run first. The kernel is called with ``values`` (``{id(graph tensor):
    Tensor}``, the computed inputs) and returns the outputs' values.
    """

    def __init__(self, graph: Graph, name: str, type_name: str, inputs: list,
                 output_shapes: list, kernel: Callable | None,
                 control_inputs: list | None = None):
        self.graph = graph
        self.name = graph.unique_name(name)
        self.type = type_name
        self.inputs = list(inputs)
        self.control_inputs = list(control_inputs or [])
        self.kernel = kernel
        self.outputs = [_new_tensor(self, index, shapes)
                        for index, shapes in enumerate(output_shapes)]
        graph._add(self)

    def compute(self, values: dict) -> list:
        """The outputs' values (Tensors), given the values of the inputs."""
        return self.kernel(values)

    def run(self, feed_dict=None, session=None) -> None:
        """Run this operation in ``session`` (default: the default session)."""
        from ._v1 import _session_for
        _session_for(session, "execute operation").run(self, feed_dict=feed_dict)

    def __repr__(self) -> str:
        return f"<tf.Operation '{self.name}' type={self.type}>"


class _PlaceholderKernel:
    """A placeholder computes nothing: running its operation unfed is an error."""

    def __init__(self, operation: Operation):
        self.operation = operation

    def __call__(self, values: dict) -> list:
        symbol = self.operation.outputs[0]._data
        dims = symbol.dimensions()
        shape = "<unknown>" if dims is None else \
            "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"
        kind = {"f": "float", "i": "int", "u": "uint", "b": "bool", "c": "complex"}.get(
            symbol.dtype.kind, str(symbol.dtype))
        raise InvalidArgumentError(None, None, f"You must feed a value for placeholder tensor "
                                               f"'{self.operation.name}' with dtype {kind} and "
                                               f"shape {shape}")


class CallKernel:
    """Runs ``function(*args, **kwargs)`` with the graph tensors among them computed."""

    def __init__(self, function: Callable, args: tuple, kwargs: dict):
        self.leaves, self.definition = tree_flatten((args, kwargs))
        self.function = function

    def graph_inputs(self) -> list:
        return [leaf for leaf in self.leaves if isinstance(leaf, SymbolicTensor)]

    def __call__(self, values: dict) -> list:
        leaves = [values[id(leaf)] if isinstance(leaf, SymbolicTensor) else leaf
                  for leaf in self.leaves]
        args, kwargs = tree_unflatten(self.definition, leaves)
        result = self.function(*args, **kwargs)
        return [leaf for leaf in tree_flatten(result)[0] if isinstance(leaf, _UgTensor)]


class _PrimitiveCall:
    """``bind(prim, *args, **params)``: a primitive applied to graph tensors."""

    __slots__ = ("prim", "params")

    def __init__(self, prim, params: dict):
        self.prim = prim
        self.params = params

    def __call__(self, *args):
        from unigrad.ops._primitive import bind
        return bind(self.prim, *args, **self.params)


class _GradientsKernel:
    """``tf.gradients``: the gradients of ``sum(ys)`` with respect to the connected ``xs``,
    through what the running session recorded."""

    def __init__(self, ys: list, xs: list, grad_ys: list, stops: list):
        self.ys, self.xs, self.grad_ys, self.stops = ys, xs, grad_ys, stops

    def __call__(self, values: dict) -> list:
        def value(tensor):
            if tensor is None:
                return None
            return values[id(tensor)] if isinstance(tensor, SymbolicTensor) else tensor

        xs = [value(x) for x in self.xs]
        grads = _running_recorder().pullback(
            [value(y) for y in self.ys], [value(seed) for seed in self.grad_ys], xs,
            create_graph=True, stop=[value(stop) for stop in self.stops] or None)
        return [ug.zeros_like(x) if grad is None else grad for x, grad in zip(xs, grads)]


def _call_operation(graph: Graph, function: Callable, args: tuple, kwargs: dict,
                    type_name: str, name: str | None, output_shapes: list) -> Operation:
    kernel = CallKernel(function, args, kwargs)
    return Operation(graph, name or type_name, type_name, kernel.graph_inputs(), output_shapes,
                     kernel)


# --------------------------------------------------------------------------- building

def placeholder(dtype, shape=None, name: str | None = None) -> SymbolicTensor:
    """``tf.compat.v1.placeholder``: a graph tensor whose value is fed to ``Session.run``.

    ``shape`` may hold ``None`` for dimensions of any size, or be None for any shape.

    Raises:
        RuntimeError: When eager execution is enabled (no graph is being built).

    Example:
        >>> import unigrad.compat.tensorflow.compat.v1 as tf
        >>> with tf.Graph().as_default():
        ...     x = tf.placeholder(tf.float32, shape=[None, 3], name="x")
        >>> x
        <tf.Tensor 'x:0' shape=(None, 3) dtype=float32>
    """
    graph = building()
    if graph is None:
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    numpy_dtype = backend.to_numpy_dtype(_dtype(dtype, "dtype"))
    if shape is None:
        shapes = ((), (), numpy_dtype, False)
    else:
        dims = TensorShape(shape).as_list() if not isinstance(shape, TensorShape) else \
            shape.as_list()
        shapes = (tuple(_PROBE_SIZES[0] if d is None else d for d in dims),
                  tuple(_PROBE_SIZES[1] if d is None else d for d in dims), numpy_dtype, True)
    operation = Operation(graph, name or "Placeholder", "Placeholder", [], [shapes], None)
    operation.kernel = _PlaceholderKernel(operation)
    return operation.outputs[0]


def placeholder_with_default(input, shape, name: str | None = None) -> SymbolicTensor:
    """``tf.compat.v1.placeholder_with_default``: a placeholder that gives ``input`` when it
    is not fed.

    Example:
        >>> import unigrad.compat.tensorflow.compat.v1 as tf
        >>> with tf.Graph().as_default():
        ...     rate = tf.placeholder_with_default(0.5, shape=[])
        ...     with tf.Session() as sess:
        ...         sess.run(rate), sess.run(rate, feed_dict={rate: 0.0})
        (np.float32(0.5), np.float32(0.0))
    """
    from ._tensor import constant
    with _suspended():
        default = constant(input)
    tensor = placeholder(default.dtype, shape=shape, name=name or "PlaceholderWithDefault")
    if not tensor.shape.is_compatible_with(default.shape):
        raise ValueError(f"The default value's shape {default.shape} is not compatible with "
                         f"the placeholder's shape {tensor.shape}")
    tensor.op.type = "PlaceholderWithDefault"
    tensor.op.kernel = lambda values: [default]
    return tensor


def _probe_run(function: Callable, args: tuple, kwargs: dict):
    """``function`` run on the probe stand-ins of its graph tensors: its output, whose
    graph tensors carry shapes but belong to no operation."""
    _building.probing += 1
    try:
        return function(*args, **kwargs)
    finally:
        _building.probing -= 1


def _record_call(graph: Graph, function: Callable, args: tuple, kwargs: dict,
                 type_name: str, name: str | None):
    """Add a call of ``function`` to ``graph``; returns its output with graph tensors."""
    probe = _probe_run(function, args, kwargs)
    leaves, definition = tree_flatten(probe)
    tensor_positions = [index for index, leaf in enumerate(leaves)
                        if isinstance(leaf, _UgTensor) and not isinstance(leaf, Variable)]
    if not tensor_positions:  # not an op (a variable, a dtype...): its result as it is
        return probe
    argument_ids = {id(leaf) for leaf in tree_flatten((args, kwargs))[0]}
    if len(leaves) == 1 and id(leaves[0]) in argument_ids and _is_symbolic(leaves[0]):
        return leaves[0]  # an argument returned as it is (convert_to_tensor of a graph tensor)
    first = [_shapes_of(leaves[index]) for index in tensor_positions]
    second = _second_probe_shapes(function, args, kwargs, tensor_positions, first)
    shapes = [(a[0], b, a[2], a[3]) for a, b in zip(first, second)]
    operation = _call_operation(graph, function, args, kwargs, type_name, name, shapes)
    for position, output in zip(tensor_positions, operation.outputs):
        leaves[position] = output
    return tree_unflatten(definition, leaves)


def _second_probe_shapes(function: Callable, args: tuple, kwargs: dict, positions: list,
                         first: list) -> list:
    """The output shapes of ``function`` run on the second probe (unknown dimensions at
    their other size): the first probe's shapes when every input is fully known; all
    dimensions unknown (-1) where the second probe fails or disagrees in rank."""
    inputs = [leaf for leaf in tree_flatten((args, kwargs))[0] if _is_symbolic(leaf)]
    if all(leaf._data.shapes[0] == leaf._data.shapes[1] for leaf in inputs):
        return [shapes[0] for shapes in first]
    unknown = [tuple(-1 for _ in shapes[0]) for shapes in first]
    _building.view = 1
    try:
        leaves = tree_flatten(_probe_run(function, args, kwargs))[0]
    except Exception:  # noqa: BLE001 - a size baked from the first probe: sizes unknown
        return unknown
    finally:
        _building.view = 0
    if len(leaves) <= max(positions):
        return unknown
    second = []
    for index, fallback, shapes in zip(positions, unknown, first):
        leaf = leaves[index]
        shape = _shapes_of(leaf)[0] if isinstance(leaf, _UgTensor) else None
        second.append(shape if shape is not None and len(shape) == len(shapes[0])
                      else fallback)
    return second


def deferring(function: Callable) -> Callable:
    """``function`` that, while a graph is being built, adds an operation calling it to
    the graph instead of running (TensorFlow's graph construction)."""
    if getattr(function, "_defers_in_graphs", False):
        return function
    type_name = _op_type(getattr(function, "__name__", "Op"))

    @functools.wraps(function)
    def call(*args, **kwargs):
        if not _active[0]:
            return function(*args, **kwargs)
        graph = building()
        # (inside a branch or loop body being traced, a tf function is an op of that trace)
        if graph is None or _building.probing or _state.local.trace is not None:
            return function(*args, **kwargs)
        name = kwargs.get("name") if isinstance(kwargs.get("name"), str) else None
        return _record_call(graph, function, args, kwargs, type_name, name)

    call._defers_in_graphs = True
    return call


# Functions that are not operations (or record their own): never deferred.
_NOT_DEFERRED = {
    "gradients", "hessians", "function", "custom_gradient", "recompute_grad", "get_variable",
    "placeholder", "placeholder_with_default", "executing_eagerly", "disable_eager_execution",
    "enable_eager_execution",
    "disable_v2_behavior", "reset_default_graph", "global_variables", "trainable_variables",
    "global_variables_initializer", "variables_initializer", "get_default_session",
    "get_default_graph", "name_scope", "device", "as_dtype", "vectorized_map", "init_scope",
    "group", "no_op", "print", "map_fn", "while_loop", "cond", "is_tensor", "get_static_value",
    "inverse_stft_window_fn",
}


def install(module) -> None:
    """Make the public functions of ``module`` (a TensorFlow namespace) graph-aware."""
    import inspect
    names = getattr(module, "__all__", None) or [name for name in vars(module)
                                                if not name.startswith("_")]
    for name in names:
        value = getattr(module, name, None)
        if name in _NOT_DEFERRED or not inspect.isfunction(value):
            continue
        if getattr(value, "__module__", "").startswith("unigrad.compat.tensorflow"):
            setattr(module, name, _wrapped(value))


_WRAPPED: dict = {}


def _wrapped(function: Callable) -> Callable:
    """One graph-aware wrapper per function (aliases in several namespaces share it)."""
    wrapper = _WRAPPED.get(id(function))
    if wrapper is None:
        wrapper = _WRAPPED[id(function)] = deferring(function)
    return wrapper


class _GraphBuilder(Interpreter):
    """Primitives applied to graph tensors (operators, methods) become operations."""

    __slots__ = ()

    def process(self, prim, args: tuple, params: dict):
        graph = building()
        if graph is None:
            return self.process_parent(prim, args, params)
        symbolic = any(_is_symbolic(arg) for arg in args)
        if _building.probing:
            if not symbolic:
                return self.process_parent(prim, args, params)
            return _probe_primitive(prim, args, params)
        if not any(isinstance(arg, _UgTensor) for arg in args):
            return self.process_parent(prim, args, params)
        shapes = _primitive_shapes(prim, args, params)
        operation = _call_operation(graph, _PrimitiveCall(prim, params), args, {},
                                    _op_type(prim.name), None, [shapes])
        return operation.outputs[0]


def _abstract(value, alternate: bool):
    if isinstance(value, _UgTensor) or isinstance(value, (Symbol, np.ndarray)):
        shape, other, dtype, _ = _shapes_of(value)
        return ShapedArray(other if alternate else shape, dtype)
    return value


def _ranks_known(args: tuple) -> bool:
    """Whether every tensor operand has a known rank (else the result's rank is unknown)."""
    return all(_shapes_of(a)[3] for a in args if isinstance(a, (_UgTensor, Symbol)))


def _primitive_shapes(prim, args: tuple, params: dict) -> tuple:
    """The probe shapes of ``prim(*args)``: dimensions that differ between the probes are
    unknown; so is the rank of a result of an operand of unknown rank."""
    shape, dtype = prim.shape(*(_abstract(a, False) for a in args), **params)
    try:
        alternate, _ = prim.shape(*(_abstract(a, True) for a in args), **params)
    except (ValueError, IndexError, TypeError, RuntimeError):
        alternate = tuple(-1 for _ in shape)  # sizes baked from the first probe: unknown
    if len(alternate) != len(shape):
        alternate = tuple(-1 for _ in shape)
    return tuple(shape), tuple(alternate), dtype, _ranks_known(args)


def _probe_primitive(prim, args: tuple, params: dict):
    """A probe result: the shape rule on the shapes of the probe now running."""
    shape, dtype = prim.shape(*(_abstract(a, bool(_building.view)) for a in args), **params)
    shapes = (tuple(shape), tuple(shape), dtype, _ranks_known(args))
    if not any(isinstance(arg, _UgTensor) for arg in args):
        return Symbol(*shapes)
    return _new_tensor(None, 0, shapes)


def assignment(variable: Variable, kind: str, value) -> SymbolicTensor:
    """The graph tensor of ``variable.<kind>(value)`` (``assign``, ``assign_add``,
    ``assign_sub``): running it assigns and gives the variable's new value."""
    graph = building()

    def assign(values: dict) -> list:
        getattr(variable, kind)(values[id(value)] if isinstance(value, SymbolicTensor)
                                else value)
        return [variable.read_value()]

    type_name = {"assign": "Assign", "assign_add": "AssignAdd", "assign_sub": "AssignSub"}[kind]
    inputs = [value] if isinstance(value, SymbolicTensor) else []
    operation = Operation(graph, type_name, type_name, inputs, [_shapes_of(variable)], assign)
    return operation.outputs[0]


# --------------------------------------------------------------------------- gradients

def _connected(ys: list, xs: list, stops: list) -> list[bool]:
    """Whether each of ``xs`` is an input, through the graph, of some of ``ys`` (stopping at
    ``stops``)."""
    stop_ids = {id(t) for t in stops}
    reached: set[int] = set()
    pending = [y for y in ys if isinstance(y, _UgTensor)]
    seen_ops: set[int] = set()
    while pending:
        tensor = pending.pop()
        if id(tensor) in reached:
            continue
        reached.add(id(tensor))
        if id(tensor) in stop_ids or not isinstance(tensor, SymbolicTensor):
            continue
        operation = tensor._op
        if id(operation) in seen_ops:
            continue
        seen_ops.add(id(operation))
        pending.extend(operation.inputs)
        if isinstance(operation.kernel, CallKernel):
            pending.extend(leaf for leaf in operation.kernel.leaves
                           if isinstance(leaf, _UgTensor) and not _is_symbolic(leaf))
    return [id(x) in reached and x._data.dtype.kind in "fc" for x in xs]


def gradients(ys: list, xs: list, grad_ys: list, stops: list) -> list:
    """``tf.gradients`` in a graph: one graph tensor per ``x`` (None when unconnected)."""
    graph = building()
    connected = _connected(ys, xs, stops)
    if not any(connected):
        return [None] * len(xs)
    linked = [x for x, is_linked in zip(xs, connected) if is_linked]
    inputs = [t for t in ys + linked + grad_ys + stops if isinstance(t, SymbolicTensor)]
    operation = Operation(graph, "gradients", "Gradients", inputs,
                          [_shapes_of(x) for x in linked],
                          _GradientsKernel(ys, linked, grad_ys, stops))
    outputs = iter(operation.outputs)
    return [next(outputs) if linked else None for linked in connected]


# --------------------------------------------------------------------------- running

class _Run(threading.local):
    def __init__(self):
        self.recorders: list[Recorder] = []


_runs = _Run()


def _running_recorder() -> Recorder:
    return _runs.recorders[-1]


def _order(fetches: list, operations: list, fed: set) -> list:
    """The operations needed to compute ``fetches`` and run ``operations``, inputs first."""
    order: list = []
    done: set[int] = set()
    stack: list = [(op, False) for op in reversed(operations)]
    stack += [(t._op, False) for t in reversed(fetches)
              if isinstance(t, SymbolicTensor) and id(t) not in fed]
    while stack:
        operation, expanded = stack.pop()
        if id(operation) in done:
            continue
        if expanded:
            done.add(id(operation))
            order.append(operation)
            continue
        stack.append((operation, True))
        for control in operation.control_inputs:
            if id(control) not in done:
                stack.append((control, False))
        for tensor in operation.inputs:
            if id(tensor) not in fed and id(tensor._op) not in done:
                stack.append((tensor._op, False))
    return order


def evaluate(fetches: list, feeds: dict, operations: list | None = None) -> list:
    """The values of graph tensors ``fetches`` (and the effects of ``operations``) with
    ``feeds`` (``{id(graph tensor): Tensor}``) standing for the tensors they name."""
    values = dict(feeds)
    order = _order(fetches, list(operations or []), set(feeds))
    with _suspended(), Recorder(records_everything=True) as recorder:
        _runs.recorders.append(recorder)
        try:
            for operation in order:
                if all(id(output) in values for output in operation.outputs) \
                        and operation.outputs:
                    continue
                results = operation.compute(values)
                for output, result in zip(operation.outputs, results):
                    values.setdefault(id(output), result)
        finally:
            _runs.recorders.pop()
    return [values[id(t)] if isinstance(t, SymbolicTensor) else t for t in fetches]


def reset_for_tests() -> None:
    """Back to eager execution with a fresh default graph (test isolation)."""
    enable_eager_execution()
    _global["default"] = None
    _building.stack.clear()
