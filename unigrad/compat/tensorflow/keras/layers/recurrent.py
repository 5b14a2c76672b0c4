"""Keras 3's recurrent layers ``SimpleRNN``, ``LSTM`` and ``GRU`` (and their cells).

Inputs are ``(batch, timesteps, features)``. The weights live in the cell
sublayer with Keras' names and layouts (``lstm/lstm_cell/kernel``): ``kernel``
``(features, k * units)``, ``recurrent_kernel`` ``(units, k * units)`` and
``bias``, with the gates in Keras' order (LSTM: input, forget, cell, output;
GRU: update, reset, candidate; GRU's ``reset_after=True`` bias is ``(2, 3 *
units)``: input and recurrent biases). ``return_sequences`` returns every
step's output, ``return_state`` appends the final states; ``go_backwards``
reads the sequence reversed. ``dropout``/``recurrent_dropout`` (when called
with ``training=True``) drop the inputs and the previous state with masks
drawn once per sequence, as Keras does (one mask per gate once
``recurrent_dropout`` is set). ``stateful`` and masking are not supported
(NotImplementedError).

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> layer = tf.keras.layers.LSTM(3, return_sequences=True, return_state=True, name="lstm")
    >>> outputs, hidden, cell = layer(tf.ones((2, 5, 4)))
    >>> outputs.shape, hidden.shape, cell.shape
    (TensorShape([2, 5, 3]), TensorShape([2, 3]), TensorShape([2, 3]))
    >>> [variable.path for variable in layer.weights]
    ['lstm/lstm_cell/kernel', 'lstm/lstm_cell/recurrent_kernel', 'lstm/lstm_cell/bias']
"""

from __future__ import annotations

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F

from ..._tensor import as_tf
from .. import activations, initializers, regularizers
from .base import Layer, reject_constraints
from .core import weight_config

__all__ = ["SimpleRNNCell", "LSTMCell", "GRUCell", "SimpleRNN", "LSTM", "GRU"]


class _ForgetGateBias(initializers.Initializer):
    """LSTM's ``unit_forget_bias`` bias: zeros except ones for the forget gate."""

    def __init__(self, units: int, base) -> None:
        self.units = units
        self.base = base

    def __call__(self, shape, dtype=None):
        base = np.asarray(self.base((self.units,), dtype=dtype).numpy())
        ones = np.ones((self.units,), base.dtype)
        tail = np.asarray(self.base((2 * self.units,), dtype=dtype).numpy())
        return initializers.Constant(np.concatenate([base, ones, tail]))(shape, dtype=dtype)


class _Cell(Layer):
    """The weights and options shared by the cells; ``gates`` is how many blocks of
    ``units`` the kernels have."""

    gates = 1
    state_count = 1

    def __init__(self, units: int, activation="tanh", recurrent_activation="sigmoid",
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 **kwargs) -> None:
        self.dropout = min(1.0, max(0.0, float(kwargs.pop("dropout", 0.0))))
        self.recurrent_dropout = min(1.0, max(0.0, float(kwargs.pop("recurrent_dropout", 0.0))))
        self.seed = kwargs.pop("seed", None)
        super().__init__(**kwargs)
        self._sequence_masks = None
        if not isinstance(units, int) or units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a "
                             f"positive integer, got {units}.")
        self.units = units
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)

    def _bias_shape(self) -> tuple:
        return (self.gates * self.units,)

    def _bias_initializer(self):
        return self.bias_initializer

    def build(self, input_shape) -> None:
        width = self.gates * self.units
        self.kernel = self.add_weight(shape=(input_shape[-1], width), name="kernel",
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        self.recurrent_kernel = self.add_weight(shape=(self.units, width),
                                                name="recurrent_kernel",
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer)
        self.bias = self.add_weight(shape=self._bias_shape(), name="bias",
                                    initializer=self._bias_initializer(),
                                    regularizer=self.bias_regularizer) if self.use_bias else None

    def _split(self, value) -> list:
        return [value[..., index * self.units:(index + 1) * self.units]
                for index in range(self.gates)]

    def make_masks(self, inputs, previous, training) -> tuple:
        """Dropout masks ``(input masks, recurrent masks)`` (``None`` where there is no
        dropout): one mask, or one per gate when ``recurrent_dropout`` is set, as Keras."""
        count = self.gates if self.recurrent_dropout > 0 else 1

        def masks(like, rate: float):
            if not training or not 0.0 < rate < 1.0:
                return None
            return [F.dropout(ug.ones_like(like), p=rate, training=True) for _ in range(count)]

        return masks(inputs, self.dropout), masks(previous, self.recurrent_dropout)

    def _masks(self, inputs, previous, training) -> tuple:
        """The masks the RNN layer drew for the whole sequence, else fresh ones."""
        if self._sequence_masks is not None:
            return self._sequence_masks
        return self.make_masks(inputs, previous, training)

    def _project(self, value, kernel, masks):
        """``value @ kernel`` with ``value`` dropped by ``masks`` (one for the whole kernel or
        one per gate)."""
        if masks is None:
            return ug.matmul(value, kernel)
        if len(masks) == 1:
            return ug.matmul(value * masks[0], kernel)
        return ug.cat([ug.matmul(value * mask, part)
                       for mask, part in zip(masks, self._split(kernel))], dim=-1)


class SimpleRNNCell(_Cell):
    """One step of ``SimpleRNN``: ``h = activation(x @ kernel + bias + h_prev @
    recurrent_kernel)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> cell = tf.keras.layers.SimpleRNNCell(2)
        >>> output, states = cell(tf.ones((1, 3)), [tf.zeros((1, 2))])
        >>> output.shape
        TensorShape([1, 2])
    """

    def call(self, sequence, states, training=False):
        previous = states[0] if isinstance(states, (list, tuple)) else states
        input_masks, recurrent_masks = self._masks(sequence, previous, training)
        hidden = self._project(sequence, self.kernel, input_masks)
        if self.bias is not None:
            hidden = hidden + self.bias
        output = as_tf(self.activation(
            hidden + self._project(previous, self.recurrent_kernel, recurrent_masks)))
        return output, [output]


class LSTMCell(_Cell):
    """One step of ``LSTM`` (gates input, forget, cell, output).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> cell = tf.keras.layers.LSTMCell(2)
        >>> output, (hidden, memory) = cell(tf.ones((1, 3)), [tf.zeros((1, 2))] * 2)
        >>> memory.shape
        TensorShape([1, 2])
    """

    gates = 4
    state_count = 2

    def __init__(self, units: int, activation="tanh", recurrent_activation="sigmoid",
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias: bool = True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, **kwargs) -> None:
        super().__init__(units, activation, recurrent_activation, use_bias,
                         kernel_initializer, recurrent_initializer, bias_initializer,
                         kernel_regularizer, recurrent_regularizer, bias_regularizer, **kwargs)
        self.unit_forget_bias = unit_forget_bias

    def _bias_initializer(self):
        if self.unit_forget_bias:
            return _ForgetGateBias(self.units, self.bias_initializer)
        return self.bias_initializer

    def call(self, sequence, states, training=False):
        hidden, memory = states
        input_masks, recurrent_masks = self._masks(sequence, hidden, training)
        z = self._project(sequence, self.kernel, input_masks) + \
            self._project(hidden, self.recurrent_kernel, recurrent_masks)
        if self.bias is not None:
            z = z + self.bias
        input_gate, forget_gate, candidate, output_gate = self._split(z)
        memory = self.recurrent_activation(forget_gate) * memory + \
            self.recurrent_activation(input_gate) * self.activation(candidate)
        hidden = as_tf(self.recurrent_activation(output_gate) * self.activation(memory))
        return hidden, [hidden, as_tf(memory)]


class GRUCell(_Cell):
    """One step of ``GRU`` (gates update, reset, candidate); ``reset_after=True`` applies
    the reset gate after the recurrent matrix product (two biases).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> cell = tf.keras.layers.GRUCell(2)
        >>> cell.build((None, 3))
        >>> tuple(cell.bias.shape)
        (2, 6)
    """

    gates = 3

    def __init__(self, units: int, activation="tanh", recurrent_activation="sigmoid",
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 reset_after: bool = True, **kwargs) -> None:
        super().__init__(units, activation, recurrent_activation, use_bias,
                         kernel_initializer, recurrent_initializer, bias_initializer,
                         kernel_regularizer, recurrent_regularizer, bias_regularizer, **kwargs)
        self.reset_after = reset_after

    def _bias_shape(self) -> tuple:
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def call(self, sequence, states, training=False):
        previous = states[0] if isinstance(states, (list, tuple)) else states
        input_bias, recurrent_bias = (None, None) if self.bias is None else (
            (self.bias[0], self.bias[1]) if self.reset_after else (self.bias, None))
        input_masks, recurrent_masks = self._masks(sequence, previous, training)
        projected = self._project(sequence, self.kernel, input_masks)
        if input_bias is not None:
            projected = projected + input_bias
        x_update, x_reset, x_candidate = self._split(projected)
        if self.reset_after:
            inner = self._project(previous, self.recurrent_kernel, recurrent_masks)
            if recurrent_bias is not None:
                inner = inner + recurrent_bias
            r_update, r_reset, r_candidate = self._split(inner)
            reset = self.recurrent_activation(x_reset + r_reset)
            candidate_inner = reset * r_candidate
        else:
            masks = recurrent_masks * self.gates if recurrent_masks and \
                len(recurrent_masks) == 1 else recurrent_masks
            dropped = [previous * mask for mask in masks] if masks else [previous] * 3
            kernels = self._split(self.recurrent_kernel)
            r_update = ug.matmul(dropped[0], kernels[0])
            reset = self.recurrent_activation(x_reset + ug.matmul(dropped[1], kernels[1]))
            candidate_inner = ug.matmul(reset * dropped[2], kernels[2])
        update = self.recurrent_activation(x_update + r_update)
        candidate = self.activation(x_candidate + candidate_inner)
        hidden = as_tf(update * previous + (1.0 - update) * candidate)
        return hidden, [hidden]


class _RNN(Layer):
    """Runs a cell over the time axis."""

    cell_class: type = SimpleRNNCell
    cell_name = "simple_rnn_cell"

    def __init__(self, cell_arguments: dict, return_sequences: bool = False,
                 return_state: bool = False, go_backwards: bool = False,
                 stateful: bool = False, unroll: bool = False, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, layer_arguments: dict | None = None) -> None:
        (layer_arguments or {}).pop("zero_output_for_mask", None)
        if stateful:
            raise NotImplementedError(f"{type(self).__name__}: `stateful=True` is not supported "
                                      "by unigrad's Keras layers")
        super().__init__(**(layer_arguments or {}))
        self.cell = self.cell_class(name=self.cell_name, dropout=dropout,
                                    recurrent_dropout=recurrent_dropout, **cell_arguments)
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.unroll = unroll
        self.dropout = self.cell.dropout
        self.recurrent_dropout = self.cell.recurrent_dropout

    @property
    def units(self) -> int:
        return self.cell.units

    def build(self, sequences_shape, initial_state_shape=None) -> None:
        self.cell.build((sequences_shape[0], sequences_shape[-1]))

    def call(self, sequences, initial_state=None, mask=None, training=False):
        if mask is not None:
            raise NotImplementedError("RNN masks are not supported by unigrad's Keras layers")
        batch = sequences.shape[0]
        if initial_state is None:
            states = [as_tf(ug.zeros((batch, self.cell.units), dtype=sequences.dtype))
                      for _ in range(self.cell.state_count)]
        else:
            states = list(initial_state) if isinstance(initial_state, (list, tuple)) \
                else [initial_state]
        steps = range(sequences.shape[1])
        outputs = []
        self.cell._sequence_masks = self.cell.make_masks(sequences[:, 0], states[0], training)
        try:
            for step in (reversed(steps) if self.go_backwards else steps):
                output, states = self.cell.call(sequences[:, step], states)
                outputs.append(output)
        finally:
            self.cell._sequence_masks = None
        result = as_tf(ug.stack(outputs, dim=1)) if self.return_sequences else outputs[-1]
        return [result, *states] if self.return_state else result

    def _config(self) -> dict:
        cell = self.cell
        config = weight_config(
            self, return_sequences=self.return_sequences, return_state=self.return_state,
            go_backwards=self.go_backwards, stateful=False, unroll=self.unroll,
            zero_output_for_mask=False, units=cell.units, activation=cell.activation,
            use_bias=cell.use_bias, kernel_initializer=cell.kernel_initializer,
            recurrent_initializer=cell.recurrent_initializer,
            bias_initializer=cell.bias_initializer, kernel_regularizer=cell.kernel_regularizer,
            recurrent_regularizer=cell.recurrent_regularizer,
            bias_regularizer=cell.bias_regularizer,
            activity_regularizer=self.activity_regularizer, kernel_constraint=None,
            recurrent_constraint=None, bias_constraint=None, dropout=self.dropout,
            recurrent_dropout=self.recurrent_dropout, seed=None)
        return config

    def get_config(self) -> dict:
        return self._config()


class SimpleRNN(_RNN):
    """A fully connected RNN: ``h_t = activation(x_t @ kernel + bias + h_{t-1} @
    recurrent_kernel)`` (``tf.keras.layers.SimpleRNN``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.layers.SimpleRNN(4)(tf.ones((2, 3, 5))).shape
        TensorShape([2, 4])
    """

    def __init__(self, units: int, activation="tanh", use_bias: bool = True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, return_sequences: bool = False,
                 return_state: bool = False, go_backwards: bool = False,
                 stateful: bool = False, unroll: bool = False, seed=None, **kwargs) -> None:
        reject_constraints(type(self).__name__, kernel_constraint=kernel_constraint,
                           recurrent_constraint=recurrent_constraint,
                           bias_constraint=bias_constraint)
        super().__init__(
            {"units": units, "activation": activation, "use_bias": use_bias,
             "kernel_initializer": kernel_initializer,
             "recurrent_initializer": recurrent_initializer,
             "bias_initializer": bias_initializer, "kernel_regularizer": kernel_regularizer,
             "recurrent_regularizer": recurrent_regularizer,
             "bias_regularizer": bias_regularizer},
            return_sequences, return_state, go_backwards, stateful, unroll, dropout,
            recurrent_dropout,
            {"activity_regularizer": activity_regularizer, **kwargs})


class LSTM(_RNN):
    """Long short-term memory (``tf.keras.layers.LSTM``); ``return_state`` adds the final
    hidden and cell states.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> layer = tf.keras.layers.LSTM(2, name="lstm_example")
        >>> layer(tf.ones((1, 3, 4))).shape
        TensorShape([1, 2])
        >>> layer.cell.bias.numpy()
        array([0., 0., 1., 1., 0., 0., 0., 0.], dtype=float32)
    """

    cell_class = LSTMCell
    cell_name = "lstm_cell"

    def __init__(self, units: int, activation="tanh", recurrent_activation="sigmoid",
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias: bool = True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None,
                 dropout: float = 0.0, recurrent_dropout: float = 0.0, seed=None,
                 return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 use_cudnn="auto", **kwargs) -> None:
        reject_constraints(type(self).__name__, kernel_constraint=kernel_constraint,
                           recurrent_constraint=recurrent_constraint,
                           bias_constraint=bias_constraint)
        super().__init__(
            {"units": units, "activation": activation,
             "recurrent_activation": recurrent_activation, "use_bias": use_bias,
             "kernel_initializer": kernel_initializer,
             "recurrent_initializer": recurrent_initializer,
             "bias_initializer": bias_initializer, "unit_forget_bias": unit_forget_bias,
             "kernel_regularizer": kernel_regularizer,
             "recurrent_regularizer": recurrent_regularizer,
             "bias_regularizer": bias_regularizer},
            return_sequences, return_state, go_backwards, stateful, unroll, dropout,
            recurrent_dropout,
            {"activity_regularizer": activity_regularizer, **kwargs})

    def get_config(self) -> dict:
        return {**self._config(),
                "recurrent_activation": activations.serialize(self.cell.recurrent_activation),
                "unit_forget_bias": self.cell.unit_forget_bias}


class GRU(_RNN):
    """Gated recurrent unit (``tf.keras.layers.GRU``), ``reset_after=True`` by default.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> outputs, state = tf.keras.layers.GRU(3, return_state=True)(tf.ones((2, 4, 5)))
        >>> outputs.shape, state.shape
        (TensorShape([2, 3]), TensorShape([2, 3]))
    """

    cell_class = GRUCell
    cell_name = "gru_cell"

    def __init__(self, units: int, activation="tanh", recurrent_activation="sigmoid",
                 use_bias: bool = True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout: float = 0.0, recurrent_dropout: float = 0.0,
                 seed=None, return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 reset_after: bool = True, use_cudnn="auto", **kwargs) -> None:
        reject_constraints(type(self).__name__, kernel_constraint=kernel_constraint,
                           recurrent_constraint=recurrent_constraint,
                           bias_constraint=bias_constraint)
        super().__init__(
            {"units": units, "activation": activation,
             "recurrent_activation": recurrent_activation, "use_bias": use_bias,
             "kernel_initializer": kernel_initializer,
             "recurrent_initializer": recurrent_initializer,
             "bias_initializer": bias_initializer, "kernel_regularizer": kernel_regularizer,
             "recurrent_regularizer": recurrent_regularizer,
             "bias_regularizer": bias_regularizer, "reset_after": reset_after},
            return_sequences, return_state, go_backwards, stateful, unroll, dropout,
            recurrent_dropout,
            {"activity_regularizer": activity_regularizer, **kwargs})

    def get_config(self) -> dict:
        return {**self._config(),
                "recurrent_activation": activations.serialize(self.cell.recurrent_activation),
                "reset_after": self.cell.reset_after}
