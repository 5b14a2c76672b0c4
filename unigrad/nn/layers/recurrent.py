"""Recurrent layers: RNN, LSTM, GRU and their Cells (PyTorch's parameters and state_dict keys).

The multi-layer modules project every step's input at once
(``x @ weight_ih.T + bias_ih`` over the whole sequence), then run a Python
loop over the time steps with the gate math as composites of differentiable
ops, so gradients reach the input, the initial states and every parameter.
Packed inputs (:class:`~unigrad.nn.utils.rnn.PackedSequence`) run each step
on the ``batch_sizes[t]`` sequences still going; the others keep their state.

Example:
    >>> import unigrad as ug
    >>> lstm = ug.nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    >>> lstm
    LSTM(3, 4, num_layers=2, bidirectional=True)
    >>> output, (h_n, c_n) = lstm(ug.ones(5, 2, 3))
    >>> output.shape, h_n.shape, c_n.shape
    ((5, 2, 8), (4, 2, 4), (4, 2, 4))
"""

from __future__ import annotations

import math
import numbers
import warnings

from ...ops.creation import zeros
from ...ops.linalg import matmul
from ...ops.nn_functional import dropout, linear
from ...ops.shape import concat, reshape, split, stack, transpose
from ...tensor import Tensor
from .. import init
from ..cell import Module
from ..utils.rnn import PackedSequence
from ._common import device_of, floating_dtype, new_parameter

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


# ----------------------------------------------------------------------------- one step

def _rnn_step(activation):
    def step(projected, state, weight_hh, bias_hh, weight_hr=None):
        return (activation(projected + _recurrent(state[0], weight_hh, bias_hh)),)
    return step


def _lstm_step(projected, state, weight_hh, bias_hh, weight_hr=None):
    """PyTorch's LSTM update; ``state`` is ``(h, c)`` and the gates are ordered i, f, g, o."""
    hidden, memory = state
    gates = projected + _recurrent(hidden, weight_hh, bias_hh)
    input_gate, forget_gate, cell_gate, output_gate = gates.chunk(4, -1)
    memory = forget_gate.sigmoid() * memory + input_gate.sigmoid() * cell_gate.tanh()
    hidden = output_gate.sigmoid() * memory.tanh()
    if weight_hr is not None:
        hidden = linear(hidden, weight_hr)
    return hidden, memory


def _gru_step(projected, state, weight_hh, bias_hh, weight_hr=None):
    """PyTorch's GRU update; the gates are ordered r, z, n and ``r`` scales ``W_hn h + b_hn``."""
    hidden = state[0]
    input_reset, input_update, input_new = projected.chunk(3, -1)
    hidden_reset, hidden_update, hidden_new = _recurrent(hidden, weight_hh, bias_hh).chunk(3, -1)
    reset = (input_reset + hidden_reset).sigmoid()
    update = (input_update + hidden_update).sigmoid()
    new = (input_new + reset * hidden_new).tanh()
    return (new + update * (hidden - new),)


_STEPS = {"RNN_TANH": _rnn_step(lambda x: x.tanh()), "RNN_RELU": _rnn_step(lambda x: x.relu()),
          "LSTM": _lstm_step, "GRU": _gru_step}


def _recurrent(hidden, weight_hh_t, bias_hh):
    """``hidden @ weight_hh_t + bias_hh``; ``weight_hh_t`` is ``weight_hh`` transposed."""
    output = matmul(hidden, weight_hh_t)
    return output if bias_hh is None else output + bias_hh


def _c_contiguous_transpose(weight):
    """``weight.T`` as a C-contiguous copy (differentiable): BLAS multiplies by it faster."""
    rows, columns = weight.shape
    return reshape(reshape(transpose(weight), (-1,)), (columns, rows))


def _run_direction(step, steps: list, state: tuple, weights: dict, reverse: bool) -> tuple:
    """Run ``step`` over the projected ``steps`` (each ``(batch_t, gates)``, batch_t not
    increasing); rows past ``batch_t`` keep their state. Returns (outputs per step, state)."""
    batch = state[0].shape[0]
    weight_hh_t = _c_contiguous_transpose(weights["weight_hh"])
    outputs = [None] * len(steps)
    order = range(len(steps) - 1, -1, -1) if reverse else range(len(steps))
    for index in order:
        size = steps[index].shape[0]
        current = state if size == batch else tuple(part[:size] for part in state)
        new = step(steps[index], current, weight_hh_t, weights["bias_hh"],
                   weights["weight_hr"])
        outputs[index] = new[0]
        state = new if size == batch else tuple(
            concat([fresh, part[size:]], 0) for fresh, part in zip(new, state))
    return outputs, state


def _reset_uniform(module: Module) -> None:
    """PyTorch's recurrent initialization: every parameter from ``U(-k, k)``,
    ``k = 1/sqrt(hidden_size)``."""
    bound = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0.0
    for weight in module.parameters():
        init.uniform_(weight, -bound, bound)


# ----------------------------------------------------------------------------- multi-layer

def _check_flag(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} should be of type bool, got: {type(value).__name__}")
    return value


def _check_size(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} should be of type int, got: {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{name} must be greater than zero")
    return value


class RNNBase(Module):
    """The multi-layer recurrent network shared by :class:`RNN`, :class:`LSTM` and :class:`GRU`.

    ``mode`` is ``'RNN_TANH'``, ``'RNN_RELU'``, ``'LSTM'`` or ``'GRU'``. The
    parameters of layer ``k`` are ``weight_ih_lk``, ``weight_hh_lk``,
    ``bias_ih_lk``, ``bias_hh_lk`` (and ``weight_hr_lk`` with ``proj_size``),
    with ``_reverse`` appended for the backward direction, in PyTorch's order,
    drawn from ``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``.

    Example:
        >>> import unigrad as ug
        >>> net = ug.nn.RNNBase("GRU", 2, 3, num_layers=2)
        >>> [name for name, _ in net.named_parameters()][:4]
        ['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0']
        >>> [tuple(p.shape) for p in net.all_weights[1]]
        [(9, 3), (9, 3), (9,), (9,)]
    """

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__()
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + str(mode))
        if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool)
                or not 0 <= dropout <= 1):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn(f"dropout option adds dropout after all but last recurrent layer, so "
                          f"non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", stacklevel=2)
        self.mode = mode
        self.bias = _check_flag(bias, "bias")
        self.batch_first = _check_flag(batch_first, "batch_first")
        self.input_size = _check_size(input_size, "input_size")
        self.hidden_size = _check_size(hidden_size, "hidden_size")
        if isinstance(num_layers, bool) or not isinstance(num_layers, int) or num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if isinstance(proj_size, bool) or not isinstance(proj_size, int) or proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable "
                             "projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        self.num_layers, self.dropout = num_layers, float(dropout)
        self.bidirectional, self.proj_size = bool(bidirectional), proj_size
        self._flat_weights_names, self._all_weights = [], []
        dtype, device = floating_dtype(dtype, type(self).__name__), device_of(device)
        for layer in range(num_layers):
            for direction in range(self.num_directions):
                self._add_direction(layer, direction, dtype, device)
        self.reset_parameters()

    @property
    def num_directions(self) -> int:
        return 2 if self.bidirectional else 1

    @property
    def real_hidden_size(self) -> int:
        """The size of ``h``: ``proj_size`` when projecting, else ``hidden_size``."""
        return self.proj_size if self.proj_size > 0 else self.hidden_size

    def _add_direction(self, layer: int, direction: int, dtype, device) -> None:
        gates = _GATES[self.mode] * self.hidden_size
        inputs = self.input_size if layer == 0 else self.real_hidden_size * self.num_directions
        shapes = {"weight_ih": (gates, inputs), "weight_hh": (gates, self.real_hidden_size)}
        if self.bias:
            shapes.update(bias_ih=(gates,), bias_hh=(gates,))
        if self.proj_size > 0:
            shapes["weight_hr"] = (self.proj_size, self.hidden_size)
        suffix = "_reverse" if direction == 1 else ""
        names = []
        for kind, shape in shapes.items():
            name = f"{kind}_l{layer}{suffix}"
            setattr(self, name, new_parameter(0.0, shape, dtype, device))
            names.append(name)
        self._flat_weights_names.extend(names)
        self._all_weights.append(names)

    def reset_parameters(self) -> None:
        """Draw every parameter from ``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``."""
        _reset_uniform(self)

    def flatten_parameters(self) -> None:
        """A no-op kept for PyTorch compatibility (there is no cuDNN weight buffer)."""

    @property
    def all_weights(self) -> list:
        """The parameters of each layer and direction, as lists in PyTorch's order."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def _weights(self, layer: int, direction: int) -> dict:
        suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
        return {kind: getattr(self, kind + suffix, None)
                for kind in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")}

    # ------------------------------------------------------------------ checks
    def _state_sizes(self) -> tuple:
        sizes = (self.real_hidden_size,)
        return sizes + (self.hidden_size,) if self.mode == "LSTM" else sizes

    def _check_input(self, data: Tensor, packed: bool) -> None:
        expected = 2 if packed else 3
        weight_dtype = self.weight_ih_l0.dtype
        if data.dtype != weight_dtype:
            raise ValueError(f"RNN input dtype ({data.dtype}) does not match weight dtype "
                             f"({weight_dtype}). Convert input: input.to({weight_dtype}), or "
                             f"convert model: model.to({data.dtype})")
        if data.ndim != expected:
            raise RuntimeError(f"input must have {expected} dimensions, got {data.ndim}")
        if data.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {data.shape[-1]}")

    def _check_states(self, states: tuple, batch: int) -> None:
        lstm = self.mode == "LSTM"
        for index, (state, size) in enumerate(zip(states, self._state_sizes())):
            expected = (self.num_layers * self.num_directions, batch, size)
            if tuple(state.shape) != expected:
                name = f"hidden[{index}] size" if lstm else "hidden size"
                raise RuntimeError(f"Expected {name} {expected}, got {list(state.shape)}")

    def _initial_states(self, hx, data: Tensor, batch: int, batched: bool) -> tuple:
        if hx is None:
            count = self.num_layers * self.num_directions
            return tuple(zeros(count, batch, size, dtype=data.dtype, device=data.device)
                         for size in self._state_sizes())
        states = tuple(hx) if self.mode == "LSTM" else (hx,)
        wanted = 3 if batched else 2
        if any(state.ndim != wanted for state in states):
            described = ", ".join(f"{state.ndim}-D" for state in states)
            kind = "batched 3-D" if batched else "unbatched 2-D"
            if self.mode == "LSTM":
                raise RuntimeError(f"For {kind} input, hx and cx should also be {wanted}-D but "
                                   f"got ({described}) tensors")
            raise RuntimeError(f"For {kind} input, hx should also be {wanted}-D but got "
                               f"{described} tensor")
        return states if batched else tuple(state.unsqueeze(1) for state in states)

    # ------------------------------------------------------------------ forward
    def forward(self, input, hx=None):
        """Run the network; see :class:`RNN`, :class:`LSTM` and :class:`GRU` for the results."""
        packed = isinstance(input, PackedSequence)
        batched = True
        if packed:
            data, batch_sizes = input.data, [int(size) for size in input.batch_sizes.tolist()]
            batch = batch_sizes[0]
        else:
            if input.ndim not in (2, 3):
                name = "LSTM" if self.mode == "LSTM" else "RNN"
                tensor_word = " tensor" if name == "RNN" else ""
                raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.ndim}D"
                                 f"{tensor_word} instead")
            batched = input.ndim == 3
            data = input if batched else input.unsqueeze(0 if self.batch_first else 1)
            if self.batch_first:
                data = transpose(data, 0, 1)
            batch, batch_sizes = data.shape[1], None
        states = self._initial_states(hx, data, batch, batched)
        self._check_input(data, packed)
        self._check_states(states, batch)
        if packed and input.sorted_indices is not None:
            states = tuple(state.index_select(1, input.sorted_indices) for state in states)
        output, states = self._layers(data, batch_sizes, states)
        if packed:
            if input.unsorted_indices is not None:
                states = tuple(state.index_select(1, input.unsorted_indices)
                               for state in states)
            output = PackedSequence(output, input.batch_sizes, input.sorted_indices,
                                    input.unsorted_indices)
        else:
            if self.batch_first:
                output = transpose(output, 0, 1)
            if not batched:
                output = output.squeeze(0 if self.batch_first else 1)
                states = tuple(state.squeeze(1) for state in states)
        return output, (states if self.mode == "LSTM" else states[0])

    def _layers(self, data: Tensor, batch_sizes: list | None, states: tuple) -> tuple:
        """All layers over ``data`` (``(T, B, F)``, or packed ``(N, F)`` with ``batch_sizes``)."""
        step = _STEPS[self.mode]
        finals = []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(self.num_directions):
                weights = self._weights(layer, direction)
                projected = linear(data, weights["weight_ih"], weights["bias_ih"])
                steps = (list(projected.unbind(0)) if batch_sizes is None
                         else list(split(projected, batch_sizes, 0)))
                index = layer * self.num_directions + direction
                initial = tuple(state[index] for state in states)
                per_step, final = _run_direction(step, steps, initial, weights, direction == 1)
                outputs.append(stack(per_step, 0) if batch_sizes is None
                               else concat(per_step, 0))
                finals.append(final)
            data = outputs[0] if len(outputs) == 1 else concat(outputs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                data = dropout(data, self.dropout, True)
        return data, tuple(stack(parts, 0) for parts in zip(*finals))

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            text += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if self.batch_first is not False:
            text += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            text += f", bidirectional={self.bidirectional}"
        return text


class RNN(RNNBase):
    """Elman RNN: ``h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`` (or ReLU).

    ``forward(input, hx=None)`` takes ``input`` of shape ``(L, N, input_size)``
    (``(N, L, input_size)`` when ``batch_first``, ``(L, input_size)``
    unbatched, or a PackedSequence) and ``hx`` of shape
    ``(num_layers * num_directions, N, hidden_size)``; it returns
    ``(output, h_n)``.

    Example:
        >>> import unigrad as ug
        >>> rnn = ug.nn.RNN(2, 3, nonlinearity="relu", batch_first=True)
        >>> rnn
        RNN(2, 3, batch_first=True)
        >>> output, h_n = rnn(ug.ones(4, 5, 2))
        >>> output.shape, h_n.shape
        ((4, 5, 3), (1, 4, 3))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
                 dropout: float = 0.0, bidirectional: bool = False, device=None,
                 dtype=None) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             f"'relu'.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size,
                         hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device=device, dtype=dtype)
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    """Long short-term memory; with ``proj_size > 0`` each ``h_t`` is projected by
    ``weight_hr`` to ``proj_size`` features.

    ``forward(input, hx=None)`` takes ``hx = (h_0, c_0)`` (shapes
    ``(num_layers * num_directions, N, proj_size or hidden_size)`` and
    ``(..., N, hidden_size)``) and returns ``(output, (h_n, c_n))``.

    Example:
        >>> import unigrad as ug
        >>> lstm = ug.nn.LSTM(2, 4, proj_size=3)
        >>> lstm
        LSTM(2, 4, proj_size=3)
        >>> output, (h_n, c_n) = lstm(ug.ones(5, 2))
        >>> output.shape, h_n.shape, c_n.shape
        ((5, 3), (1, 3), (1, 4))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device, dtype)


class GRU(RNNBase):
    """Gated recurrent unit (PyTorch's gate order r, z, n); returns ``(output, h_n)``.

    Example:
        >>> import unigrad as ug
        >>> gru = ug.nn.GRU(2, 3, num_layers=2, bias=False)
        >>> gru
        GRU(2, 3, num_layers=2, bias=False)
        >>> [name for name, _ in gru.named_parameters()]
        ['weight_ih_l0', 'weight_hh_l0', 'weight_ih_l1', 'weight_hh_l1']
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, device=None, dtype=None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, device=device, dtype=dtype)


# ----------------------------------------------------------------------------- cells

class RNNCellBase(Module):
    """The parameters shared by the single-step cells: ``weight_ih``
    ``(num_chunks * hidden_size, input_size)``, ``weight_hh``, ``bias_ih``, ``bias_hh``.

    Example:
        >>> import unigrad as ug
        >>> cell = ug.nn.RNNCellBase(3, 2, bias=True, num_chunks=4)
        >>> tuple(cell.weight_ih.shape), tuple(cell.bias_hh.shape)
        ((8, 3), (8,))
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        dtype, device = floating_dtype(dtype, type(self).__name__), device_of(device)
        gates = num_chunks * hidden_size
        self.weight_ih = new_parameter(0.0, (gates, input_size), dtype, device)
        self.weight_hh = new_parameter(0.0, (gates, hidden_size), dtype, device)
        if bias:
            self.bias_ih = new_parameter(0.0, (gates,), dtype, device)
            self.bias_hh = new_parameter(0.0, (gates,), dtype, device)
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw every parameter from ``U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``."""
        _reset_uniform(self)

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            text += f", nonlinearity={self.nonlinearity}"
        return text

    def _step(self, step, input: Tensor, states: tuple | None) -> tuple:
        """One ``step`` on ``input`` (1-D or 2-D) from ``states`` (zeros when None)."""
        name = type(self).__name__
        if input.ndim not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.ndim}D instead")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[-1]} "
                               f"expected {self.input_size}")
        batched = input.ndim == 2
        batch_input = input if batched else input.unsqueeze(0)
        if states is None:
            size = (batch_input.shape[0], self.hidden_size)
            count = 2 if step is _lstm_step else 1
            states = (zeros(*size, dtype=input.dtype, device=input.device),) * count
        elif not batched:
            states = tuple(state.unsqueeze(0) for state in states)
        for index, state in enumerate(states):
            if state.shape[0] != batch_input.shape[0]:
                raise RuntimeError(f"Input batch size {batch_input.shape[0]} doesn't match "
                                   f"hidden{index} batch size {state.shape[0]}")
            if state.shape[1] != self.hidden_size:
                raise RuntimeError(f"hidden{index} has inconsistent hidden_size: got "
                                   f"{state.shape[1]}, expected {self.hidden_size}")
        projected = linear(batch_input, self.weight_ih, self.bias_ih)
        result = step(projected, states, transpose(self.weight_hh), self.bias_hh)
        return result if batched else tuple(part.squeeze(0) for part in result)

    def _check_state_rank(self, states: tuple) -> None:
        name = type(self).__name__
        for index, state in enumerate(states):
            if state.ndim not in (1, 2):
                label = "hidden" if len(states) == 1 else f"hx[{index}]"
                raise ValueError(f"{name}: Expected {label} to be 1D or 2D, got {state.ndim}D "
                                 f"instead")


class RNNCell(RNNCellBase):
    """One Elman RNN step ``h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)`` (or ReLU).

    Example:
        >>> import unigrad as ug
        >>> cell = ug.nn.RNNCell(3, 2, nonlinearity="relu")
        >>> cell
        RNNCell(3, 2, nonlinearity=relu)
        >>> cell(ug.ones(4, 3)).shape
        (4, 2)
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        if hx is not None:
            self._check_state_rank((hx,))
        step = _STEPS.get({"tanh": "RNN_TANH", "relu": "RNN_RELU"}.get(self.nonlinearity))
        if step is None:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return self._step(step, input, None if hx is None else (hx,))[0]


class LSTMCell(RNNCellBase):
    """One LSTM step; ``forward(input, hx=None)`` takes and returns ``(h, c)``.

    Example:
        >>> import unigrad as ug
        >>> cell = ug.nn.LSTMCell(3, 2)
        >>> h, c = cell(ug.ones(3))
        >>> h.shape, c.shape
        ((2,), (2,))
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input: Tensor, hx: tuple | None = None) -> tuple:
        if hx is not None:
            self._check_state_rank(tuple(hx))
        return self._step(_lstm_step, input, None if hx is None else tuple(hx))


class GRUCell(RNNCellBase):
    """One GRU step (PyTorch's gate order r, z, n).

    Example:
        >>> import unigrad as ug
        >>> cell = ug.nn.GRUCell(3, 2, bias=False)
        >>> cell
        GRUCell(3, 2, bias=False)
        >>> cell(ug.ones(4, 3), ug.zeros(4, 2)).shape
        (4, 2)
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        if hx is not None:
            self._check_state_rank((hx,))
        return self._step(_gru_step, input, None if hx is None else (hx,))[0]
