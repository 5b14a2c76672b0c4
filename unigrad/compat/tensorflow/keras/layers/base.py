"""Keras 3's ``Layer`` base class over unigrad: weights, building, calling, losses.

A layer creates its weights in ``build(input_shape)`` (run on the first call,
inside the layer's name scope) with :meth:`Layer.add_weight`, which makes a
:class:`KerasVariable`: a ``tf.Variable`` named like Keras' (``v.name`` is
``"kernel"``, ``v.path`` is ``"dense/kernel"``, or ``"sequential/dense/kernel"``
when the layer is built by a model). Layers and variables assigned as attributes
are tracked in assignment order. Calling a layer on a symbolic
``keras.Input`` tensor records a node of the functional graph instead (see
:mod:`.input_layer`).

Example:
    >>> import numpy as np
    >>> import unigrad.compat.tensorflow as tf
    >>> class Scale(tf.keras.layers.Layer):
    ...     def build(self, input_shape):
    ...         self.factor = self.add_weight(shape=(input_shape[-1],), initializer="ones",
    ...                                       name="factor")
    ...     def call(self, inputs):
    ...         return inputs * self.factor
    >>> layer = Scale(name="scale")
    >>> layer(np.array([[1.0, 2.0]]))
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 2.]], dtype=float32)>
    >>> layer.factor.path, layer.factor.name
    ('scale/factor', 'factor')
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
from collections.abc import Callable

import numpy as np

import unigrad as ug
from unigrad.tensor import Tensor as _UgTensor

from ..._tensor import ResourceVariable, Variable, _numpy_text, as_tf, constant
from .. import backend, initializers, regularizers

__all__ = ["Layer", "KerasVariable", "KerasTensor", "Operation", "in_symbolic_pass"]


# ----------------------------------------------------------------------------- variables

class KerasVariable(ResourceVariable):
    """A Keras layer's weight: a ``tf.Variable`` with Keras 3's ``name`` (``"kernel"``) and
    ``path`` (``"dense/kernel"``), printed as Keras prints it.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.Dense(2, kernel_initializer="ones", name="d")
        >>> layer.build((None, 1))
        >>> layer.kernel
        <Variable path=d/kernel, shape=(1, 2), dtype=float32, value=[[1. 1.]]>
    """

    __slots__ = ("_keras_name", "_path")

    def __init__(self, initial_value, name: str, path: str, trainable: bool = True,
                 dtype=None):
        super().__init__(initial_value, trainable=trainable, name=name, dtype=dtype)
        self._keras_name = name
        self._path = path

    @property
    def name(self) -> str:
        """The weight's own name (``"kernel"``), without scopes or ``:0``."""
        return self._keras_name

    @property
    def path(self) -> str:
        """The weight's full path: the layers that built it, then its name."""
        return self._path

    @property
    def value(self):
        """The current value as a tensor (a property in Keras 3, a method on ``tf.Variable``).

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> layer = tf.keras.layers.Dense(1, bias_initializer="ones")
            >>> layer.build((None, 1))
            >>> layer.bias.value
            <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
        """
        return self.read_value()

    @property
    def trainable(self) -> bool:
        """Whether optimizers train the weight (settable, as in Keras)."""
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self._trainable = bool(value)
        if self.dtype.is_floating_point or self.dtype.is_complex:
            self.requires_grad_(self._trainable)

    def __repr__(self) -> str:
        return (f"<Variable path={self._path}, shape={tuple(self.shape)}, "
                f"dtype={self.dtype.name}, value={_numpy_text(self._array(), False).lstrip()}>")

    __str__ = __repr__


# ----------------------------------------------------------------------------- scopes

class _CallState:
    """Keras' global call state: the path of layers being built or called, the ``training``
    flag an outer call hands to inner ones, and how deep the calls are nested."""

    path: list = []
    training: list = []
    symbolic_depth = 0


def in_symbolic_pass() -> bool:
    """Whether layers are running on placeholders to find symbolic output shapes (layers
    then leave their state, such as batch statistics, unchanged).

    Example:
        >>> in_symbolic_pass()
        False
    """
    return _CallState.symbolic_depth > 0


@contextlib.contextmanager
def _layer_scope(layer: Layer):
    """Put ``layer``'s name on the path of the weights created inside (once, when it is not
    already the innermost entry)."""
    entered = not (_CallState.path and _CallState.path[-1][1] is layer)
    if entered:
        _CallState.path.append((layer.name, layer))
    try:
        yield
    finally:
        if entered:
            _CallState.path.pop()


def _current_path(name: str) -> str:
    return "/".join([entry[0] for entry in _CallState.path] + [name])


def _wrap_build(build: Callable) -> Callable:
    """``build`` run in the layer's name scope, marking the layer built."""

    @functools.wraps(build)
    def build_wrapper(self, *args, **kwargs):
        with _layer_scope(self):
            result = build(self, *args, **kwargs)
        self.built = True
        if args:
            self._build_input_shape = args[0]
        return result

    build_wrapper._keras_scoped = True
    return build_wrapper


# ----------------------------------------------------------------------------- symbolic tensors

class KerasTensor:
    """A symbolic tensor of Keras' functional API: a shape (``None`` for unknown sizes), a
    dtype, and the layer call that produced it (``_keras_history``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.keras.Input(shape=(3,), name="features")
        >>> x.shape, x.dtype
        ((None, 3), 'float32')
    """

    def __init__(self, shape, dtype="float32", name: str | None = None):
        self.shape = tuple(None if size is None else int(size) for size in shape)
        self.dtype = dtype
        self.name = name or backend.unique_name("keras_tensor")
        self._keras_history: tuple | None = None

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype}, sparse=False, "
                f"ragged=False, name={self.name}>")

    def __bool__(self) -> bool:
        raise TypeError("A symbolic KerasTensor cannot be used as a Python `bool`.")

    def __add__(self, other):
        return _apply_operation("Add", self, other)

    def __radd__(self, other):
        return _apply_operation("Add", other, self)

    def __sub__(self, other):
        return _apply_operation("Subtract", self, other)

    def __rsub__(self, other):
        return _apply_operation("Subtract", other, self)

    def __mul__(self, other):
        return _apply_operation("Multiply", self, other)

    def __rmul__(self, other):
        return _apply_operation("Multiply", other, self)

    def __truediv__(self, other):
        return _apply_operation("TrueDivide", self, other)

    def __rtruediv__(self, other):
        return _apply_operation("TrueDivide", other, self)

    def __pow__(self, other):
        return _apply_operation("Power", self, other)

    def __matmul__(self, other):
        return _apply_operation("Matmul", self, other)

    def __neg__(self):
        return _apply_operation("Negative", self)

    def __getitem__(self, key):
        return _apply_operation("GetItem", self, key)


class Node:
    """One call of a layer in the functional graph: its arguments (with KerasTensors in them)
    and the KerasTensors it produced.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.keras.Input((2,), name="node_in")
        >>> layer = tf.keras.layers.Dense(3)
        >>> y = layer(x)
        >>> node = layer._inbound_nodes[0]
        >>> [t.name for t in node.input_tensors], node.output_tensors[0] is y
        (['node_in'], True)
    """

    def __init__(self, layer: Layer, args: tuple, kwargs: dict, outputs) -> None:
        self.layer = layer
        self.args = args
        self.kwargs = kwargs
        self.outputs = outputs
        self.output_tensors = _flatten(outputs)
        self.input_tensors = [leaf for leaf in _flatten((args, kwargs))
                              if isinstance(leaf, KerasTensor)]


def _flatten(structure) -> list:
    if isinstance(structure, dict):
        return [leaf for key in structure for leaf in _flatten(structure[key])]
    if isinstance(structure, (list, tuple)):
        return [leaf for item in structure for leaf in _flatten(item)]
    return [structure]


def _map(function: Callable, structure):
    if isinstance(structure, dict):
        return {key: _map(function, value) for key, value in structure.items()}
    if isinstance(structure, list):
        return [_map(function, item) for item in structure]
    if isinstance(structure, tuple):
        return tuple(_map(function, item) for item in structure)
    return function(structure)


def _has_symbolic(structure) -> bool:
    return any(isinstance(leaf, KerasTensor) for leaf in _flatten(structure))


def shape_of(value):
    """The shape of a tensor, KerasTensor or array as a tuple; lists of them give lists.

    Example:
        >>> import numpy as np
        >>> shape_of([np.ones((2, 3)), KerasTensor((None, 4), name="probe")])
        [(2, 3), (None, 4)]
    """
    if isinstance(value, (list, tuple)) and value and not isinstance(value[0], (int, type(None))):
        return [shape_of(item) for item in value]
    if isinstance(value, KerasTensor):
        return value.shape
    if isinstance(value, _UgTensor):
        return tuple(value.shape)
    return tuple(np.shape(value))


_PLACEHOLDER_SIZES = (8, 9)


def _placeholder(tensor: KerasTensor, size: int) -> _UgTensor:
    shape = tuple(size if dimension is None else dimension for dimension in tensor.shape)
    return constant(np.ones(shape, dtype=tensor.dtype))


def _symbolic_outputs(trials: list):
    """KerasTensors for the outputs of a layer run on two placeholder sizes: a dimension that
    follows the placeholders is unknown (``None``)."""
    first = trials[0]

    def to_symbolic(index_and_value):
        index, value = index_and_value
        shapes = [tuple(_flatten(trial)[index].shape) for trial in trials]
        shape = tuple(None if len({shape[axis] for shape in shapes}) > 1 else size
                      for axis, size in enumerate(shapes[0]))
        return KerasTensor(shape, value.dtype.name)

    leaves = _flatten(first)
    counter = iter(range(len(leaves)))
    return _map(lambda value: to_symbolic((next(counter), value)), first)


# ----------------------------------------------------------------------------- Layer

def reject_constraints(owner: str, **constraints) -> None:
    """A NotImplementedError naming the weight constraints given (unigrad's optimizers do not
    apply Keras constraints after their updates).

    Example:
        >>> reject_constraints("Dense", kernel_constraint=None)
        >>> try:
        ...     reject_constraints("Dense", kernel_constraint="non_neg")
        ... except NotImplementedError as error:
        ...     print(str(error)[:40])
        Dense: kernel_constraint (weight constra
    """
    given = [name for name, value in constraints.items() if value is not None]
    if given:
        raise NotImplementedError(f"{owner}: {', '.join(given)} (weight constraints) are not "
                                  "supported by unigrad's Keras layers")


def _check_trainable(trainable) -> None:
    if not isinstance(trainable, bool):
        raise ValueError(f"Expected `trainable` to be a boolean. Received: "
                         f"trainable={trainable} (of type {type(trainable)})")


def _dtype_name(dtype) -> str:
    if dtype is None:
        return "float32"
    if isinstance(dtype, dict):
        return dtype["config"]["name"]
    return getattr(dtype, "name", None) or np.dtype(dtype).name


class Layer:
    """Keras 3's base layer (``tf.keras.layers.Layer``).

    ``Layer(activity_regularizer=None, trainable=True, dtype=None, autocast=True,
    name=None)``; ``input_shape=``/``input_dim=`` are accepted for a ``Sequential``'s
    first layer. Subclasses create weights in ``build(input_shape)`` with
    :meth:`add_weight` and compute in ``call(inputs, ...)``; ``training=`` is
    passed to ``call`` when it accepts it (an outer layer's value is handed down).

    Raises:
        ValueError: For unknown keyword arguments or a non-bool ``trainable``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.Dense(3, name="projection")
        >>> layer.built, layer.name
        (False, 'projection')
        >>> layer(tf.ones((2, 4))).shape
        TensorShape([2, 3])
        >>> layer.built, [variable.path for variable in layer.weights]
        (True, ['projection/kernel', 'projection/bias'])
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None and not getattr(build, "_keras_scoped", False):
            cls.build = _wrap_build(build)

    def __init__(self, *, activity_regularizer=None, trainable: bool = True, dtype=None,
                 autocast: bool = True, name: str | None = None, **kwargs) -> None:
        input_dim = kwargs.pop("input_dim", None)
        input_shape = (input_dim,) if input_dim is not None else kwargs.pop("input_shape", None)
        kwargs.pop("batch_size", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments passed to "
                             f"{type(self).__name__}: {kwargs}")
        _check_trainable(trainable)
        self._ensure_tracking()
        self._name = name or backend.unique_name(backend.to_snake_case(type(self).__name__))
        self._dtype = _dtype_name(dtype)
        self.autocast = autocast
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self._input_shape_arg = tuple(input_shape) if input_shape is not None else None
        self._trainable = trainable
        self.built = False
        self._build_input_shape = None
        self._inbound_nodes: list[Node] = []
        self._losses: list = []
        self._unnamed_weights = 0

    # ---------------------------------------------------------------- tracking

    def _ensure_tracking(self) -> None:
        if "_trainable_variables" not in self.__dict__:
            object.__setattr__(self, "_layers", [])
            object.__setattr__(self, "_trainable_variables", [])
            object.__setattr__(self, "_non_trainable_variables", [])
            object.__setattr__(self, "_regularized", [])

    def __setattr__(self, name: str, value) -> None:
        if not name.startswith("_"):
            self._ensure_tracking()
            for item in (value if isinstance(value, (list, tuple)) else (value,)):
                self._track(item)
        object.__setattr__(self, name, value)

    def _track(self, item) -> None:
        if isinstance(item, Layer) and item is not self:
            if not any(existing is item for existing in self._layers):
                self._layers.append(item)
        elif isinstance(item, Variable):
            known = self._trainable_variables + self._non_trainable_variables
            if not any(existing is item for existing in known):
                (self._trainable_variables if item.trainable
                 else self._non_trainable_variables).append(item)

    # ---------------------------------------------------------------- properties

    @property
    def name(self) -> str:
        """The layer's name (automatic: the class name in snake case, made unique)."""
        return self._name

    @property
    def dtype(self) -> str:
        """The dtype of the layer's weights (``'float32'``)."""
        return self._dtype

    @property
    def compute_dtype(self) -> str:
        """The dtype of the layer's computations (``'float32'``)."""
        return self._dtype

    variable_dtype = dtype

    @property
    def trainable(self) -> bool:
        """Whether the layer's weights are trained; setting it sets every sublayer's and
        every weight's ``trainable``.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> layer = tf.keras.layers.Dense(2)
            >>> layer.build((None, 3))
            >>> layer.trainable = False
            >>> len(layer.trainable_weights), len(layer.non_trainable_weights)
            (0, 2)
        """
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        _check_trainable(value)
        self._trainable = value
        for variable in self._trainable_variables:
            variable.trainable = value
        for layer in self._layers:
            layer.trainable = value

    def _own_then_nested(self, attribute: str) -> list:
        result, seen = [], set()
        for variable in self._trainable_variables + self._non_trainable_variables:
            if id(variable) not in seen:
                result.append(variable)
                seen.add(id(variable))
        for layer in self._layers:
            for variable in getattr(layer, attribute):
                if id(variable) not in seen:
                    result.append(variable)
                    seen.add(id(variable))
        return result

    @property
    def weights(self) -> list:
        """Every weight: the layer's own (in creation order), then its sublayers'."""
        return self._own_then_nested("weights")

    @property
    def variables(self) -> list:
        """Every variable of the layer and its sublayers (the same as :attr:`weights`)."""
        return self._own_then_nested("variables")

    @property
    def trainable_weights(self) -> list:
        """The trainable weights (none when the layer is frozen)."""
        return [w for w in self.weights if w.trainable] if self.trainable else []

    @property
    def non_trainable_weights(self) -> list:
        """The weights not trained (all of them when the layer is frozen)."""
        return [w for w in self.weights if not w.trainable] if self.trainable else self.weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def losses(self) -> list:
        """Losses from :meth:`add_loss` (this layer's, then its sublayers') followed by the
        weight regularizers' penalties, computed now.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> layer = tf.keras.layers.Dense(1, kernel_initializer="ones",
            ...                               kernel_regularizer=tf.keras.regularizers.L2(0.5))
            >>> layer.build((None, 2))
            >>> layer.losses
            [<tf.Tensor: shape=(), dtype=float32, numpy=1.0>]
        """
        collected = []
        for layer in self._flatten_layers():
            collected.extend(layer._losses)
        for layer in self._flatten_layers():
            collected.extend(regularizer(variable) for variable, regularizer in layer._regularized)
        return collected

    def _flatten_layers(self) -> list:
        """This layer then every nested sublayer (each once)."""
        result, seen, stack = [], set(), [self]
        while stack:
            layer = stack.pop(0)
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            result.append(layer)
            stack = list(layer._layers) + stack
        return result

    def add_loss(self, loss) -> None:
        """Add a loss tensor to :attr:`losses` (cleared when an outer call starts).

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> layer = tf.keras.layers.Layer()
            >>> layer.add_loss(tf.constant(0.5))
            >>> layer.losses
            [<tf.Tensor: shape=(), dtype=float32, numpy=0.5>]
        """
        self._losses.append(loss)

    def _clear_losses(self) -> None:
        for layer in self._flatten_layers():
            layer._losses = []

    # ---------------------------------------------------------------- weights

    def add_weight(self, shape=None, initializer=None, dtype=None, trainable: bool = True,
                   autocast: bool = True, regularizer=None, constraint=None,
                   aggregation: str = "none", overwrite_with_gradient: bool = False,
                   name: str | None = None) -> KerasVariable:
        """Create a weight (a :class:`KerasVariable`) of this layer.

        ``initializer`` defaults to ``"glorot_uniform"`` for floating dtypes and ``"zeros"``
        otherwise; ``regularizer`` adds its penalty to :attr:`losses`.

        Raises:
            ValueError: For an unknown initializer or regularizer name.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> layer = tf.keras.layers.Layer(name="holder")
            >>> w = layer.add_weight(shape=(2,), initializer="ones", name="w")
            >>> w.path, w.numpy(), layer.weights[0] is w
            ('holder/w', array([1., 1.], dtype=float32), True)
        """
        del autocast, aggregation, overwrite_with_gradient
        reject_constraints(type(self).__name__, constraint=constraint)
        if isinstance(shape, str):
            raise ValueError(f"`name` must be passed as a keyword argument. Received: "
                             f"add_weight('{shape}', ...). Use: add_weight(shape=..., "
                             f"name='{shape}').")
        shape = () if shape is None else tuple(int(size) for size in shape)
        dtype = _dtype_name(dtype if dtype is not None else self._dtype)
        if initializer is None:
            initializer = "glorot_uniform" if np.dtype(dtype).kind == "f" else "zeros"
        initializer = initializers.get(initializer)
        regularizer = regularizers.get(regularizer)
        if name is None:
            name = "variable" if not self._unnamed_weights else \
                f"variable_{self._unnamed_weights}"
            self._unnamed_weights += 1
        with _layer_scope(self):
            path = _current_path(name)
        value = initializer(shape, dtype=dtype)
        variable = KerasVariable(value, name=name, path=path, trainable=trainable, dtype=dtype)
        self._track(variable)
        if regularizer is not None:
            self._regularized.append((variable, regularizer))
        return variable

    def get_weights(self) -> list:
        """The weights' values as NumPy arrays, in :attr:`weights` order.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> layer = tf.keras.layers.Dense(2, kernel_initializer="ones")
            >>> layer.build((None, 1))
            >>> layer.get_weights()
            [array([[1., 1.]], dtype=float32), array([0., 0.], dtype=float32)]
        """
        return [variable.numpy() for variable in self.weights]

    def set_weights(self, weights) -> None:
        """Set the weights from NumPy arrays (in :attr:`weights` order); nothing changes when
        the number or a shape is wrong.

        Raises:
            ValueError: For a wrong number of arrays or a wrong shape (Keras' messages).

        Example:
            >>> import numpy as np
            >>> import unigrad.compat.tensorflow as tf
            >>> layer = tf.keras.layers.Dense(1, name="d")
            >>> layer.build((None, 2))
            >>> layer.set_weights([np.ones((2, 1)), np.zeros(1)])
            >>> layer(np.array([[1.0, 2.0]])).numpy()
            array([[3.]], dtype=float32)
        """
        current = self.weights
        if len(current) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a "
                             f"weight list of length {len(weights)}, but the layer was "
                             f"expecting {len(current)} weights.")
        for variable, value in zip(current, weights):
            if tuple(variable.shape) != tuple(np.shape(value)):
                raise ValueError(f"Layer {self.name} weight shape {tuple(variable.shape)} is "
                                 f"not compatible with provided weight shape "
                                 f"{tuple(np.shape(value))}.")
        for variable, value in zip(current, weights):
            variable.assign(np.asarray(value, dtype=variable.numpy().dtype))

    def count_params(self) -> int:
        """The number of scalars in the weights.

        Raises:
            ValueError: When the layer is not built.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> layer = tf.keras.layers.Dense(4)
            >>> layer.build((None, 3))
            >>> layer.count_params()
            16
        """
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer '{self.name}', but "
                             "the layer isn't built. You can build it manually via: "
                             "`layer.build(input_shape)`.")
        return int(sum(math.prod(tuple(variable.shape)) for variable in self.weights))

    # ---------------------------------------------------------------- building and calling

    def build(self, input_shape=None) -> None:
        """Create the weights for inputs of ``input_shape`` (a layer without weights only
        marks itself built)."""
        self.built = True
        self._build_input_shape = input_shape

    build._keras_scoped = True
    build._keras_default = True

    def call(self, *args, **kwargs):
        """The layer's computation (subclasses define it)."""
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call()` "
                                  "method implemented.")

    def _call_accepts(self, argument: str) -> bool:
        parameters = inspect.signature(self.call).parameters
        return argument in parameters or any(
            parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in parameters.values())

    def _convert_inputs(self, value):
        """NumPy arrays and Python numbers as tensors; floating inputs in the layer's dtype."""
        def convert(leaf):
            if isinstance(leaf, _UgTensor):
                if self.autocast and leaf.dtype.is_floating_point and \
                        leaf.dtype.name != self._dtype:
                    return ug.cast(leaf, getattr(ug, self._dtype))
                return leaf
            if isinstance(leaf, (np.ndarray, np.generic, float, int, list)) and \
                    not isinstance(leaf, bool):
                array = np.asarray(leaf)
                if array.dtype.kind == "f":
                    array = array.astype(self._dtype)
                elif array.dtype.kind in "iu" and array.dtype.itemsize == 8 and \
                        not isinstance(leaf, np.ndarray):
                    array = array.astype(np.int32)
                return constant(array)
            return leaf
        if isinstance(value, list) and all(
                isinstance(leaf, (int, float)) for leaf in _flatten(value)):
            return convert(value)
        return _map(convert, value)

    def _maybe_build(self, inputs) -> None:
        """Build for the shape of ``inputs`` unless built; a model without its own ``build``
        only records the shape (its sublayers build as ``call`` runs)."""
        if self.built:
            return
        shape = shape_of(inputs)
        if getattr(self.build, "_keras_default", False):
            self.built = True
            return
        self.build(shape)
        self.built = True

    def __call__(self, *args, **kwargs):
        if not args:
            raise ValueError(f"Layer {self.name} was called without inputs.")
        if _has_symbolic((args, kwargs)):
            return self._symbolic_call(args, kwargs)
        args = (self._convert_inputs(args[0]), *args[1:])
        outermost = not _CallState.training
        if outermost:
            self._clear_losses()
        training = kwargs.pop("training", None)
        if training is None and _CallState.training:
            training = _CallState.training[-1]
        if self._call_accepts("training") and training is not None:
            kwargs["training"] = training
        _CallState.training.append(training)
        try:
            with _layer_scope(self):
                self._maybe_build(args[0])
                outputs = self.call(*args, **kwargs)
        finally:
            _CallState.training.pop()
        if self.activity_regularizer is not None:
            for output in _flatten(outputs):
                self.add_loss(self.activity_regularizer(output))
        return outputs

    def _symbolic_call(self, args: tuple, kwargs: dict):
        """Record a node: build on the symbolic shapes, then find the output shapes by running
        the layer on placeholders (the weights are left as they were)."""
        if not self.built:
            self._maybe_build(args[0])
        outputs = _symbolic_outputs(self._trial_runs(args, kwargs))
        node = Node(self, args, kwargs, outputs)
        self._inbound_nodes.append(node)
        for index, tensor in enumerate(node.output_tensors):
            tensor._keras_history = (self, len(self._inbound_nodes) - 1, index)
        return outputs

    def _trial_runs(self, args: tuple, kwargs: dict) -> list:
        """The layer's outputs on placeholders of two sizes for the unknown dimensions (see
        :func:`in_symbolic_pass`)."""
        trials = []
        _CallState.symbolic_depth += 1
        try:
            with ug.no_grad(), np.errstate(all="ignore"):
                for size in _PLACEHOLDER_SIZES:
                    def fill(leaf, size=size):
                        return _placeholder(leaf, size) if isinstance(leaf, KerasTensor) else leaf
                    trials.append(self(*_map(fill, args), **_map(fill, kwargs)))
        finally:
            _CallState.symbolic_depth -= 1
            self._clear_losses()
        return trials

    def compute_output_shape(self, input_shape):
        """The output shape for inputs of ``input_shape`` (``None`` for unknown sizes).

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> tf.keras.layers.Dense(4).compute_output_shape((None, 3))
            (None, 4)
        """
        def symbolic(shape):
            return KerasTensor(shape, self._dtype, name="shape_probe")

        if isinstance(input_shape, list) and input_shape and isinstance(input_shape[0],
                                                                       (list, tuple)):
            inputs = [symbolic(shape) for shape in input_shape]
        else:
            inputs = symbolic(input_shape)
        if not self.built:
            self._maybe_build(inputs)
        outputs = _symbolic_outputs(self._trial_runs((inputs,), {}))
        return _map(lambda tensor: tensor.shape, outputs)

    @property
    def input(self):
        """The symbolic input of the layer's only functional call.

        Raises:
            AttributeError: When the layer was called symbolically never or several times.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> layer = tf.keras.layers.Dense(2)
            >>> x = tf.keras.Input((3,), name="x")
            >>> y = layer(x)
            >>> layer.input.name, layer.output.shape
            ('x', (None, 2))
        """
        return self._single_node("input").args[0]

    @property
    def output(self):
        """The symbolic output of the layer's only functional call (see :attr:`input`)."""
        return self._single_node("output").outputs

    def _single_node(self, what: str) -> Node:
        if not self._inbound_nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has "
                                 f"no defined {what}.")
        if len(self._inbound_nodes) > 1:
            raise AttributeError(f"Layer {self.name} has multiple inbound nodes, with "
                                 f"different {what}s. Use `get_{what}_at(node_index)` "
                                 "instead.")
        return self._inbound_nodes[0]

    # ---------------------------------------------------------------- config

    def get_config(self) -> dict:
        """The layer's constructor arguments (Keras' ``get_config``)."""
        return {"name": self.name, "trainable": self.trainable,
                "dtype": {"module": "keras", "class_name": "DTypePolicy",
                          "config": {"name": self._dtype}, "registered_name": None}}

    @classmethod
    def from_config(cls, config: dict) -> Layer:
        """A layer built from :meth:`get_config`'s dict."""
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


Layer.build = _wrap_build(Layer.build)


# ----------------------------------------------------------------------------- operations

class Operation(Layer):
    """An operator applied to KerasTensors (``x + 1.0``, ``x[:, 0]``): a weightless step of
    the functional graph, listed by ``summary()`` but not in ``model.layers``, as in Keras.

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.keras.Input((2,))
        >>> model = tf.keras.Model(x, (x + 1.0) * 2.0)
        >>> model(np.array([[1.0, 2.0]])).numpy()
        array([[4., 6.]], dtype=float32)
    """

    function: Callable = staticmethod(lambda *args: args[0])

    def call(self, *args):
        return as_tf(type(self).function(*args))


def _power(base, exponent):
    return base ** exponent


def _get_item(value, key):
    return value[key]


_OPERATIONS = {"Add": ug.add, "Subtract": ug.sub, "Multiply": ug.mul, "TrueDivide": ug.div,
               "Power": _power, "Matmul": ug.matmul, "Negative": ug.neg, "GetItem": _get_item}
_OPERATION_CLASSES: dict = {}


def _apply_operation(class_name: str, *args):
    """Record ``class_name``'s operator (a new :class:`Operation`) applied to ``args``."""
    if class_name not in _OPERATION_CLASSES:
        _OPERATION_CLASSES[class_name] = type(class_name, (Operation,), {
            "function": staticmethod(_OPERATIONS[class_name]), "__module__": __name__,
            "__doc__": f"The ``{class_name}`` operator of KerasTensors (see Operation)."})
    operation = _OPERATION_CLASSES[class_name]()
    return operation(*args)
