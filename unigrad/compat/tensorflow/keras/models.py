"""``tf.keras.Model``, ``tf.keras.Sequential`` and ``tf.keras.Input``.

Three ways to make a model, as in Keras 3:

* functional: ``Model(inputs, outputs)`` from symbolic ``Input`` tensors; calling
  it replays the recorded layer calls on real tensors (several inputs and
  outputs, shared layers);
* ``Sequential([...])``: a stack of layers, built from an ``Input`` first
  layer or on the first call;
* subclassed: a ``Model`` subclass creating layers as attributes (tracked in
  assignment order) and computing in ``call``.

Models are layers (weights, ``get_weights``/``set_weights``, ``summary()``,
``save_weights``/``load_weights``) and inherit Keras' training loop from
:class:`~._training.Trainer`.

Example:
    >>> import numpy as np
    >>> import unigrad.compat.tensorflow as tf
    >>> inputs = tf.keras.Input(shape=(3,))
    >>> outputs = tf.keras.layers.Dense(1, kernel_initializer="ones")(inputs)
    >>> model = tf.keras.Model(inputs, outputs)
    >>> model(np.array([[1.0, 2.0, 3.0]])).numpy()
    array([[6.]], dtype=float32)
"""

from __future__ import annotations

import os

import numpy as np

import unigrad as ug

from ._summary import print_summary
from ._training import Trainer
from .layers.base import KerasTensor, Layer, Node, Operation, _flatten, _map
from .layers.input_layer import Input, InputLayer

__all__ = ["Model", "Sequential", "Input"]

_WEIGHTS_SUFFIX = ".weights.h5"


def _connections(node: Node) -> str:
    texts = []
    for tensor in node.input_tensors:
        layer, node_index, tensor_index = tensor._keras_history
        texts.append(f"{layer.name}[{node_index}][{tensor_index}]")
    return ", ".join(texts) or "-"


class Model(Trainer, Layer):
    """A layer with training (``tf.keras.Model``): functional or subclassed.

    ``Model(inputs, outputs, name=None)`` makes a functional model (its class is
    ``Functional``); a subclass calling ``super().__init__()`` defines ``call``.

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.tensorflow as tf
        >>> class TwoLayers(tf.keras.Model):
        ...     def __init__(self):
        ...         super().__init__(name="two_layers")
        ...         self.hidden = tf.keras.layers.Dense(4, activation="relu", name="hidden")
        ...         self.out = tf.keras.layers.Dense(1, name="out")
        ...     def call(self, inputs):
        ...         return self.out(self.hidden(inputs))
        >>> model = TwoLayers()
        >>> model(np.ones((2, 3))).shape
        TensorShape([2, 1])
        >>> [variable.path for variable in model.trainable_variables][:2]
        ['two_layers/hidden/kernel', 'two_layers/hidden/bias']
    """

    def __new__(cls, *args, **kwargs):
        if cls is Model and (args or "inputs" in kwargs or "outputs" in kwargs):
            return object.__new__(Functional)
        return object.__new__(cls)

    def __init__(self, *args, **kwargs) -> None:
        if args:
            raise TypeError(f"{type(self).__name__}.__init__() takes keyword arguments only "
                            f"(inputs and outputs make a functional Model), got {args!r}")
        Layer.__init__(self, **kwargs)
        Trainer.__init__(self)

    def build(self, input_shape=None) -> None:
        """Create the weights by running ``call`` on placeholder inputs of ``input_shape``.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> class Single(tf.keras.Model):
            ...     def __init__(self):
            ...         super().__init__()
            ...         self.dense = tf.keras.layers.Dense(2)
            ...     def call(self, inputs):
            ...         return self.dense(inputs)
            >>> model = Single()
            >>> model.build((None, 5))
            >>> model.count_params()
            12
        """
        self.built = True
        if input_shape is not None:
            self._build_input_shape = input_shape
            self._trial_runs((KerasTensor(input_shape, self.dtype, name="build_probe"),), {})

    build._keras_default = True

    @property
    def layers(self) -> list:
        """The model's layers: for a subclassed model, those assigned as attributes, in
        assignment order."""
        return list(self._layers)

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        """The layer named ``name`` or at position ``index`` of :attr:`layers`.

        Raises:
            ValueError: When no layer matches, or neither argument is given.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, name="only")])
            >>> model.get_layer("only") is model.get_layer(index=0)
            True
        """
        if index is not None and name is not None:
            raise ValueError(f"Provide only a layer name or a layer index. Received: "
                             f"index={index}, name={name}.")
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model "
                                 f"only has {len(self.layers)} layers.")
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError(f"No such layer: {name}. Existing layers are: "
                             f"{[layer.name for layer in self.layers]}.")
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    # ---------------------------------------------------------------- summary

    def _summary_rows(self) -> tuple[list, bool]:
        """``(layer, output shapes, connections)`` per row, and whether the model is
        sequential-like (no "Connected to" column)."""
        rows = []
        for layer in self.layers:
            shapes = None
            if layer.built and layer._build_input_shape is not None:
                try:
                    shapes = layer.compute_output_shape(layer._build_input_shape)
                except (NotImplementedError, ValueError, TypeError):
                    shapes = None
            if shapes is not None and not isinstance(shapes, list):
                shapes = [shapes]
            rows.append((layer, shapes, "-"))
        return rows, True

    def summary(self, line_length: int | None = None, positions=None, print_fn=None,
                expand_nested: bool = False, show_trainable: bool = False,
                layer_range=None) -> None:
        """Print Keras 3's table of the layers, their output shapes and parameter counts,
        then the totals (``print_fn`` receives the whole text instead).

        ``expand_nested``, ``show_trainable`` and ``layer_range`` are not supported
        (NotImplementedError).

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> model = tf.keras.Sequential([tf.keras.Input((2,)),
            ...                              tf.keras.layers.Dense(3, name="hidden")],
            ...                             name="tiny")
            >>> model.summary(line_length=60)
            Model: "tiny"
            ┏━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┓
            ┃ Layer (type)             ┃ Output Shape      ┃   Param # ┃
            ┡━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━┩
            │ hidden (Dense)           │ (None, 3)         │         9 │
            └──────────────────────────┴───────────────────┴───────────┘
             Total params: 9 (36.00 B)
             Trainable params: 9 (36.00 B)
             Non-trainable params: 0 (0.00 B)
        """
        if expand_nested or show_trainable or layer_range is not None:
            raise NotImplementedError("summary: `expand_nested`, `show_trainable` and "
                                      "`layer_range` are not supported by unigrad's Keras")
        rows, sequential_like = self._summary_rows()
        print_summary(self, rows, sequential_like, line_length, positions, print_fn)

    # ---------------------------------------------------------------- weight files

    def save_weights(self, filepath, overwrite: bool = True, max_shard_size=None) -> None:
        """Save the weights to ``filepath`` (which must end in ``.weights.h5``, as Keras
        requires). The file is unigrad's safetensors checkpoint (see :mod:`unigrad.io`), not
        HDF5: only :meth:`load_weights` of unigrad reads it.

        Raises:
            ValueError: For another suffix.
            FileExistsError: When the file exists and ``overwrite`` is false.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
            >>> model.save_weights("model.h5")
            Traceback (most recent call last):
            ...
            ValueError: The filename must end in `.weights.h5`. Received: filepath=model.h5
        """
        filepath = os.fspath(filepath)
        if not str(filepath).endswith(_WEIGHTS_SUFFIX):
            raise ValueError(f"The filename must end in `{_WEIGHTS_SUFFIX}`. Received: "
                             f"filepath={filepath}")
        if max_shard_size is not None:
            raise NotImplementedError("save_weights: `max_shard_size` is not supported by "
                                      "unigrad's Keras")
        if not overwrite and os.path.exists(filepath):
            raise FileExistsError(f"{filepath} exists and overwrite=False")
        ug.io.save({"weights": [ug.tensor(variable.numpy()) for variable in self.weights],
                    "paths": [variable.path for variable in self.weights]}, filepath)

    def load_weights(self, filepath, skip_mismatch: bool = False, **kwargs) -> None:
        """Load weights saved by :meth:`save_weights` (in :attr:`weights` order); nothing
        changes when the file does not fit the model.

        Raises:
            ValueError: For a wrong suffix, or a file with another number or shapes of
                weights.

        Example:
            >>> import os, tempfile
            >>> import unigrad.compat.tensorflow as tf
            >>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
            >>> path = os.path.join(tempfile.mkdtemp(), "model.weights.h5")
            >>> model.save_weights(path)
            >>> before = model.get_weights()
            >>> model.set_weights([w * 0 for w in before])
            >>> model.load_weights(path)
            >>> all((a == b).all() for a, b in zip(model.get_weights(), before))
            True
        """
        filepath = os.fspath(filepath)
        if not str(filepath).endswith(_WEIGHTS_SUFFIX):
            raise ValueError(f"The filename must end in `{_WEIGHTS_SUFFIX}`. Received: "
                             f"filepath={filepath}")
        stored = ug.io.load(filepath)["weights"]
        arrays = [np.asarray(weight.numpy()) for weight in stored]
        current = self.weights
        if skip_mismatch:
            pairs = [(variable, array) for variable, array in zip(current, arrays)
                     if tuple(variable.shape) == array.shape]
            for variable, array in pairs:
                variable.assign(array)
            return
        if len(arrays) != len(current):
            raise ValueError(f"A total of {len(arrays)} weights were found in {filepath}, but "
                             f"model '{self.name}' has {len(current)} weights.")
        self.set_weights(arrays)


class Functional(Model):
    """A model defined by a graph of layer calls on symbolic inputs (``Model(inputs,
    outputs)``); ``model.layers`` lists the input layers first, then the others in the
    order they are computed.

    Raises:
        ValueError: When an input is not a ``keras.Input`` tensor, or an output was not
            computed from the inputs.

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.tensorflow as tf
        >>> a, b = tf.keras.Input((2,), name="a"), tf.keras.Input((2,), name="b")
        >>> shared = tf.keras.layers.Dense(1, kernel_initializer="ones", name="shared")
        >>> total = tf.keras.layers.Add(name="add")([shared(a), shared(b)])
        >>> model = tf.keras.Model([a, b], total)
        >>> model([np.ones((1, 2)), np.ones((1, 2))]).numpy()
        array([[4.]], dtype=float32)
        >>> [layer.name for layer in model.layers]
        ['a', 'b', 'shared', 'add']
    """

    def __init__(self, inputs, outputs, name: str | None = None, **kwargs) -> None:
        trainable = kwargs.pop("trainable", True)
        Layer.__init__(self, name=name or _auto_name("functional"), trainable=trainable,
                       **kwargs)
        Trainer.__init__(self)
        self._inputs_struct = inputs
        self._outputs_struct = outputs
        self.inputs = _checked_inputs(_flatten(inputs))
        self.outputs = _flatten(outputs)
        self._nodes, self._depths = _graph(self.inputs, self.outputs)
        self._operations = _ordered_layers(self._nodes, self._depths)
        self._layers = [layer for layer in self._operations if not isinstance(layer, Operation)]
        self.built = True

    @property
    def input(self):
        """The symbolic inputs, in the structure given to the constructor."""
        return self._inputs_struct

    @property
    def output(self):
        """The symbolic outputs, in the structure given to the constructor."""
        return self._outputs_struct

    def call(self, inputs, training=None, mask=None):
        values = {}
        given = _flatten(inputs) if isinstance(self._inputs_struct, (list, tuple, dict)) \
            else [inputs]
        if isinstance(self._inputs_struct, dict) and isinstance(inputs, dict):
            given = [inputs[key] for key in self._inputs_struct]
        if len(given) != len(self.inputs):
            raise ValueError(f"Layer \"{self.name}\" expects {len(self.inputs)} input(s), but "
                             f"it received {len(given)} input tensors.")
        for tensor, value in zip(self.inputs, given):
            values[id(tensor)] = value
        for node in self._nodes:
            if isinstance(node.layer, InputLayer):
                continue
            args = _map(lambda leaf: values[id(leaf)] if isinstance(leaf, KerasTensor) else leaf,
                        node.args)
            kwargs = _map(lambda leaf: values[id(leaf)] if isinstance(leaf, KerasTensor)
                          else leaf, node.kwargs)
            results = _flatten(node.layer(*args, **kwargs))
            for tensor, result in zip(node.output_tensors, results):
                values[id(tensor)] = result
        return _map(lambda tensor: values[id(tensor)], self._outputs_struct)

    def _summary_rows(self) -> tuple[list, bool]:
        rows = []
        for layer in self._operations:
            nodes = [node for node in self._nodes if node.layer is layer]
            shapes = [tensor.shape for tensor in nodes[-1].output_tensors]
            rows.append((layer, shapes, ", ".join(_connections(node) for node in nodes)))
        return rows, _sequential_like(self._nodes, self._depths)


def _auto_name(prefix: str) -> str:
    from . import backend

    return backend.unique_name(prefix)


def _checked_inputs(inputs: list) -> list:
    for tensor in inputs:
        if not isinstance(tensor, KerasTensor) or tensor._keras_history is None or \
                not isinstance(tensor._keras_history[0], InputLayer):
            raise ValueError(f"All `inputs` values must be KerasTensors made by "
                             f"`keras.Input`. Received: inputs={inputs} including invalid "
                             f"value {tensor} of type {type(tensor)}")
    return inputs


def _graph(inputs: list, outputs: list) -> tuple[list, dict]:
    """The nodes computing ``outputs`` from ``inputs`` (inputs first, then in dependency
    order) and each node's depth (0 for the output nodes, more for earlier ones)."""
    order, seen = [], set()
    input_ids = {id(tensor) for tensor in inputs}

    def visit(tensor) -> None:
        if not isinstance(tensor, KerasTensor) or tensor._keras_history is None:
            raise ValueError(f"Output tensors of a Functional model must be the output of a "
                             f"Keras layer. Received: {tensor}")
        layer, node_index, _ = tensor._keras_history
        node = layer._inbound_nodes[node_index]
        if id(node) in seen:
            return
        if isinstance(layer, InputLayer) and id(tensor) not in input_ids:
            raise ValueError(f"Graph disconnected: cannot find parent for tensor {tensor} "
                             f"(the input {layer.name} is not in `inputs`)")
        seen.add(id(node))
        for parent in node.input_tensors:
            visit(parent)
        order.append(node)

    for tensor in outputs:
        visit(tensor)
    reached = {id(node.layer) for node in order}
    for tensor in inputs:
        if id(tensor._keras_history[0]) not in reached:
            raise ValueError(f"Graph disconnected: the input {tensor} is not used to compute "
                             "the outputs")
    depths = {id(node): 0 for node in order}
    for node in reversed(order):
        for parent in node.input_tensors:
            layer, node_index, _ = parent._keras_history
            key = id(layer._inbound_nodes[node_index])
            depths[key] = max(depths[key], depths[id(node)] + 1)
    return order, depths


def _ordered_layers(nodes: list, depths: dict) -> list:
    """The layers of ``nodes`` as Keras orders them: by their deepest node (the earliest
    computed first), in discovery order within a depth."""
    layers, depth = [], {}
    for node in nodes:
        if id(node.layer) not in depth:
            layers.append(node.layer)
        depth[id(node.layer)] = max(depth.get(id(node.layer), 0), depths[id(node)])
    order = sorted(range(len(layers)), key=lambda index: (-depth[id(layers[index])], index))
    return [layers[index] for index in order]


def _sequential_like(nodes: list, depths: dict) -> bool:
    """Keras' test for the 3-column summary: one node per depth, each with one input, and
    no shared layers."""
    by_depth: dict = {}
    for node in nodes:
        by_depth.setdefault(depths[id(node)], []).append(node)
    if any(len(group) > 1 or len(group[0].input_tensors) > 1 for group in by_depth.values()):
        return False
    return len({id(node.layer) for node in nodes}) == len(nodes)


class Sequential(Model):
    """A linear stack of layers (``tf.keras.Sequential``).

    Built when its input shape is known: from a first ``keras.Input`` (or a layer given
    ``input_shape=``), else on the first call. ``layers`` excludes the input layer;
    weights built by the model have paths ``"<model>/<layer>/<weight>"``.

    Raises:
        ValueError: When something other than a layer is added.

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.tensorflow as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer="ones"),
        ...                              tf.keras.layers.Dense(1, kernel_initializer="ones")])
        >>> model.built
        False
        >>> model(np.ones((1, 3))).numpy(), model.built
        (array([[6.]], dtype=float32), True)
    """

    def __init__(self, layers=None, trainable: bool = True, name: str | None = None) -> None:
        Layer.__init__(self, trainable=trainable, name=name)
        Trainer.__init__(self)
        self._stack: list = []
        self._graph_nodes: list = []
        self._output_shapes: dict = {}
        for layer in layers or []:
            self.add(layer, rebuild=False)
        self._maybe_rebuild()

    @property
    def layers(self) -> list:
        """The layers of the stack (without the input layer)."""
        return [layer for layer in self._stack if not isinstance(layer, InputLayer)]

    @property
    def _layers(self) -> list:
        return self.layers

    @_layers.setter
    def _layers(self, value) -> None:
        del value

    def add(self, layer, rebuild: bool = True) -> None:
        """Add ``layer`` (or a ``keras.Input`` tensor, as the first item) on top; the model is
        rebuilt when its input shape is known.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> model = tf.keras.Sequential()
            >>> model.add(tf.keras.Input((3,)))
            >>> model.add(tf.keras.layers.Dense(2))
            >>> model.built, model.count_params()
            (True, 8)

        Raises:
            ValueError: When ``layer`` is not a layer, or an input layer comes after other
                layers.
        """
        if isinstance(layer, KerasTensor) and layer._keras_history is not None:
            layer = layer._keras_history[0]
        if not isinstance(layer, Layer):
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential "
                            f"model. Received: {layer} (of type {type(layer)})")
        if isinstance(layer, InputLayer) and self._stack:
            configured = self._input_layer().batch_shape if self._input_layer() else None
            raise ValueError(f"Sequential model '{self.name}' has already been configured to "
                             f"use input shape {configured}. You cannot add a different "
                             "Input layer to it.")
        if not self._stack and not isinstance(layer, InputLayer) and \
                layer._input_shape_arg is not None:
            self._stack.append(InputLayer(shape=layer._input_shape_arg))
        self._stack.append(layer)
        if rebuild:
            self._maybe_rebuild()

    def pop(self, rebuild: bool = True) -> Layer:
        """Remove and return the top layer.

        Raises:
            IndexError: When the model has no layers.

        Example:
            >>> import unigrad.compat.tensorflow as tf
            >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="a"),
            ...                              tf.keras.layers.Dense(1, name="b")])
            >>> model.pop().name, [layer.name for layer in model.layers]
            ('b', ['a'])
        """
        if not self.layers:
            raise IndexError("list index out of range")
        layer = self._stack.pop()
        self.built = False
        if rebuild:
            self._maybe_rebuild()
        return layer

    def _input_layer(self) -> InputLayer | None:
        return self._stack[0] if self._stack and isinstance(self._stack[0], InputLayer) \
            else None

    def _maybe_rebuild(self) -> None:
        input_layer = self._input_layer()
        if input_layer is not None and self.layers:
            self.built = False
            self.build(input_layer.batch_shape)

    def build(self, input_shape=None) -> None:
        """Build every layer for inputs of ``input_shape`` (batch axis included).

        Raises:
            ValueError: Without an input shape.
        """
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        input_layer = self._input_layer()
        if input_layer is None or tuple(input_layer.batch_shape) != tuple(input_shape):
            if input_layer is not None:
                self._stack.pop(0)
            input_layer = InputLayer(batch_shape=tuple(input_shape))
            self._stack.insert(0, input_layer)
        for layer, node in self._graph_nodes:
            if node in layer._inbound_nodes:
                layer._inbound_nodes.remove(node)
        self._graph_nodes, self._output_shapes = [], {}
        _auto_name("functional")  # Keras builds a Functional model here, using the name
        tensor = input_layer.output
        for layer in self.layers:
            tensor = layer(tensor)
            self._graph_nodes.append((layer, layer._inbound_nodes[-1]))
            self._output_shapes[id(layer)] = [leaf.shape for leaf in _flatten(tensor)]
        self.built = True
        self._build_input_shape = tuple(input_shape)

    def call(self, inputs, training=None, mask=None):
        outputs = inputs
        for layer in self.layers:
            outputs = layer(outputs)
        return outputs

    def _summary_rows(self) -> tuple[list, bool]:
        return [(layer, self._output_shapes.get(id(layer)), "-") for layer in self.layers], True

    def get_config(self) -> dict:
        return {"name": self.name, "trainable": self.trainable,
                "layers": [{"module": "keras.layers", "class_name": type(layer).__name__,
                            "config": layer.get_config(), "registered_name": None}
                           for layer in self._stack]}

