"""MindSpore's recurrent layers ``nn.RNN``, ``nn.GRU`` and ``nn.LSTM``: unigrad's layers
under MindSpore's arguments (``has_bias``...), with the Parameters listed in MindSpore's
order (every ``weight_ih_l*``, then ``weight_hh_l*``, ``bias_ih_l*``, ``bias_hh_l*``); and
the single steps ``nn.RNNCell``, ``nn.GRUCell``, ``nn.LSTMCell`` (``construct(x, hx)``).

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> lstm = nn.LSTM(3, 4, batch_first=True)
    >>> output, (h, c) = lstm(ms.ops.ones((2, 5, 3), ms.float32))
    >>> output.shape, h.shape, c.shape
    ((2, 5, 4), (1, 2, 4), (1, 2, 4))
"""

from __future__ import annotations

from ... import nn as _ugnn
from .dtype import float32
from .nn import Cell

__all__ = ["RNN", "GRU", "LSTM", "RNNCell", "GRUCell", "LSTMCell"]

_KINDS = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")


class _MindSporeRecurrent(Cell):
    """MindSpore's checks, Parameter order and ``construct(x, hx=None, seq_length=None)``."""

    def _build(self, base: type, *arguments, dropout: float, **keywords) -> None:
        owner = type(self).__name__
        if not isinstance(dropout, float):
            raise TypeError(f"For '{owner}', the 'dropout' must be float, but got "
                            f"{type(dropout).__name__}.")
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{owner}', the 'dropout' must be a number in range [0, 1) "
                             f"representing the probability of an element being zeroed, but "
                             f"got {dropout}.")
        base.__init__(self, *arguments, dropout=dropout, **keywords)
        self._base = base
        self._list_in_mindspore_order()

    def _list_in_mindspore_order(self) -> None:
        """Re-register the Parameters kind by kind, layer by layer, forward then reverse."""
        params = self._params
        order = [name for kind in _KINDS for layer in range(self.num_layers)
                 for name in (f"{kind}_l{layer}", f"{kind}_l{layer}_reverse") if name in params]
        for name in order:
            params.move_to_end(name)

    def construct(self, x, hx=None, seq_length=None):
        if seq_length is not None:
            raise ValueError(f"For '{type(self).__name__}', 'seq_length' is not supported by "
                             f"unigrad; pass sequences of their full length.")
        return self._base.forward(self, x, hx)

    def extend_repr(self) -> str:
        return ""


class RNN(_MindSporeRecurrent, _ugnn.RNN):
    """``nn.RNN(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False,
    dropout=0.0, bidirectional=False, dtype=ms.float32, nonlinearity='tanh')``: Elman RNN
    layers; ``construct(x, hx=None)`` returns ``(output, h_n)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> rnn = nn.RNN(3, 4, num_layers=2, nonlinearity="relu")
        >>> [p.name for p in rnn.trainable_params()][:3]
        ['weight_ih_l0', 'weight_ih_l1', 'weight_hh_l0']
        >>> output, h = rnn(ms.ops.ones((5, 2, 3), ms.float32))
        >>> output.shape, h.shape
        ((5, 2, 4), (2, 2, 4))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 has_bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, dtype=float32, *, nonlinearity: str = "tanh"):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNN', the 'nonlinearity' must be in ['tanh', 'relu'], but "
                             f"got {nonlinearity}.")
        self._build(_ugnn.RNN, input_size, hidden_size, num_layers, nonlinearity, has_bias,
                    batch_first, dropout=dropout, bidirectional=bidirectional, dtype=dtype)


class GRU(_MindSporeRecurrent, _ugnn.GRU):
    """``nn.GRU(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False,
    dropout=0.0, bidirectional=False, dtype=ms.float32)``: GRU layers (gates r, z, n);
    ``construct(x, hx=None)`` returns ``(output, h_n)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> output, h = nn.GRU(3, 4, bidirectional=True)(ms.ops.ones((5, 2, 3), ms.float32))
        >>> output.shape, h.shape
        ((5, 2, 8), (2, 2, 4))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 has_bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, dtype=float32):
        self._build(_ugnn.GRU, input_size, hidden_size, num_layers, has_bias, batch_first,
                    dropout=dropout, bidirectional=bidirectional, dtype=dtype)


class LSTM(_MindSporeRecurrent, _ugnn.LSTM):
    """``nn.LSTM(input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False,
    dropout=0.0, bidirectional=False, dtype=ms.float32)``: LSTM layers (gates i, f, g, o);
    ``construct(x, hx=None)`` takes ``hx = (h_0, c_0)`` and returns
    ``(output, (h_n, c_n))``.

    Example:
        >>> from unigrad.compat.mindspore import nn
        >>> [p.shape for p in nn.LSTM(3, 4).trainable_params()]
        [(16, 3), (16, 4), (16,), (16,)]
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 has_bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, dtype=float32):
        self._build(_ugnn.LSTM, input_size, hidden_size, num_layers, has_bias, batch_first,
                    dropout=dropout, bidirectional=bidirectional, dtype=dtype)


# ------------------------------------------------------------------------------ single steps

class _Step(Cell):
    """A single-step cell: ``construct(x, hx)`` (``hx`` is required, as in MindSpore);
    ``_step_class`` is the unigrad cell class whose ``forward`` runs it."""

    _step_class: type = _ugnn.RNNCell

    def construct(self, x, hx):
        return self._step_class.forward(self, x, hx)

    def extend_repr(self) -> str:
        return ""


class RNNCell(_Step, _ugnn.RNNCell):
    """``nn.RNNCell(input_size, hidden_size, has_bias=True, nonlinearity='tanh',
    dtype=ms.float32)``: one Elman step, ``h' = act(x @ weight_ih.T + bias_ih +
    hx @ weight_hh.T + bias_hh)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> cell = nn.RNNCell(2, 3)
        >>> cell(ms.ops.ones((4, 2), ms.float32), ms.ops.zeros((4, 3), ms.float32)).shape
        (4, 3)
    """

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 nonlinearity: str = "tanh", dtype=float32):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNNCell', the 'nonlinearity' must be in ['tanh', 'relu'], "
                             f"but got {nonlinearity}.")
        _ugnn.RNNCell.__init__(self, input_size, hidden_size, has_bias, nonlinearity,
                               dtype=dtype)


class GRUCell(_Step, _ugnn.GRUCell):
    """``nn.GRUCell(input_size, hidden_size, has_bias=True, dtype=ms.float32)``: one GRU
    step (gates r, z, n); returns ``h'``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> cell = nn.GRUCell(2, 3)
        >>> [p.name for p in cell.trainable_params()]
        ['weight_ih', 'weight_hh', 'bias_ih', 'bias_hh']
    """

    _step_class = _ugnn.GRUCell

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype=float32):
        _ugnn.GRUCell.__init__(self, input_size, hidden_size, has_bias, dtype=dtype)


class LSTMCell(_Step, _ugnn.LSTMCell):
    """``nn.LSTMCell(input_size, hidden_size, has_bias=True, dtype=ms.float32)``: one LSTM
    step (gates i, f, g, o); ``construct(x, (h, c))`` returns ``(h', c')``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> state = (ms.ops.zeros((4, 3), ms.float32), ms.ops.zeros((4, 3), ms.float32))
        >>> h, c = nn.LSTMCell(2, 3)(ms.ops.ones((4, 2), ms.float32), state)
        >>> h.shape, c.shape
        ((4, 3), (4, 3))
    """

    _step_class = _ugnn.LSTMCell

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype=float32):
        _ugnn.LSTMCell.__init__(self, input_size, hidden_size, has_bias, dtype=dtype)
