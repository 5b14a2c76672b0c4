"""RNN / LSTM / GRU and their cells against PyTorch: outputs, input/state and parameter
gradients (float64, parameters copied from torch by state_dict key)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import unigrad as ug
from unigrad.nn.utils import rnn as ug_rnn

RTOL, ATOL = 1e-9, 1e-11


def _twin(name: str, *args, **kwargs):
    """The same layer in torch and unigrad (float64) with torch's parameters copied over."""
    torch.manual_seed(0)
    theirs = getattr(torch.nn, name)(*args, dtype=torch.float64, **kwargs)
    ours = getattr(ug.nn, name)(*args, dtype=ug.float64, **kwargs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    ours.load_state_dict({key: value.numpy() for key, value in theirs.state_dict().items()})
    return theirs, ours


def _leaf(array):
    return torch.tensor(array, requires_grad=True), ug.tensor(array, requires_grad=True)


def _flatten(result):
    if isinstance(result, (tuple, list)):
        return [leaf for item in result for leaf in _flatten(item)]
    if isinstance(result, ug_rnn.PackedSequence) or isinstance(
            result, torch.nn.utils.rnn.PackedSequence):
        return [result.data]
    return [] if result is None else [result]


def _compare(theirs, ours, torch_inputs, ug_inputs, torch_leaves, ug_leaves, seed=1):
    """Outputs equal; the gradients of a random projection of all outputs equal."""
    torch_out, ug_out = _flatten(theirs(*torch_inputs)), _flatten(ours(*ug_inputs))
    assert len(torch_out) == len(ug_out)
    rng = np.random.default_rng(seed)
    torch_loss, ug_loss = 0, 0
    for expected, actual in zip(torch_out, ug_out):
        assert tuple(actual.shape) == tuple(expected.shape)
        np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), rtol=RTOL,
                                   atol=ATOL)
        weight = rng.standard_normal(tuple(expected.shape))
        torch_loss = torch_loss + (expected * torch.tensor(weight)).sum()
        ug_loss = ug_loss + (actual * ug.tensor(weight)).sum()
    torch_loss.backward()
    ug_loss.backward()
    for expected, actual in zip(torch_leaves, ug_leaves):
        np.testing.assert_allclose(actual.grad.numpy(), expected.grad.numpy(), rtol=RTOL,
                                   atol=ATOL)
    torch_grads = {key: p.grad for key, p in theirs.named_parameters()}
    for key, parameter in ours.named_parameters():
        np.testing.assert_allclose(parameter.grad.numpy(), torch_grads[key].numpy(), rtol=RTOL,
                                   atol=ATOL, err_msg=key)


CONFIGS = [
    ("RNN", {}),
    ("RNN", {"nonlinearity": "relu", "num_layers": 2, "bidirectional": True}),
    ("RNN", {"batch_first": True, "bias": False}),
    ("LSTM", {}),
    ("LSTM", {"num_layers": 2, "bidirectional": True, "batch_first": True}),
    ("LSTM", {"proj_size": 2, "num_layers": 2, "bidirectional": True}),
    ("GRU", {}),
    ("GRU", {"num_layers": 2, "bidirectional": True, "bias": False}),
    ("GRU", {"num_layers": 3, "dropout": 0.0, "batch_first": True}),
]


@pytest.mark.parametrize("name,kwargs", CONFIGS)
def test_padded_input_without_initial_state(name, kwargs):
    theirs, ours = _twin(name, 3, 4, **kwargs)
    shape = (2, 5, 3) if kwargs.get("batch_first") else (5, 2, 3)
    torch_x, ug_x = _leaf(np.random.default_rng(0).standard_normal(shape))
    _compare(theirs, ours, (torch_x,), (ug_x,), [torch_x], [ug_x])


def _states(name: str, kwargs: dict, batch: tuple, rng) -> list:
    count = kwargs.get("num_layers", 1) * (2 if kwargs.get("bidirectional") else 1)
    sizes = [kwargs.get("proj_size") or 4] + ([4] if name == "LSTM" else [])
    return [rng.standard_normal((count,) + batch + (size,)) for size in sizes]


@pytest.mark.parametrize("name,kwargs", CONFIGS)
def test_initial_states_receive_gradients(name, kwargs):
    theirs, ours = _twin(name, 3, 4, **kwargs)
    rng = np.random.default_rng(2)
    shape = (2, 5, 3) if kwargs.get("batch_first") else (5, 2, 3)
    torch_x, ug_x = _leaf(rng.standard_normal(shape))
    pairs = [_leaf(state) for state in _states(name, kwargs, (2,), rng)]
    torch_states, ug_states = [p[0] for p in pairs], [p[1] for p in pairs]
    torch_hx = tuple(torch_states) if name == "LSTM" else torch_states[0]
    ug_hx = tuple(ug_states) if name == "LSTM" else ug_states[0]
    _compare(theirs, ours, (torch_x, torch_hx), (ug_x, ug_hx), [torch_x, *torch_states],
             [ug_x, *ug_states])


@pytest.mark.parametrize("name,kwargs", [CONFIGS[1], CONFIGS[5], CONFIGS[7]])
def test_unbatched_input_with_state(name, kwargs):
    theirs, ours = _twin(name, 3, 4, **kwargs)
    rng = np.random.default_rng(3)
    torch_x, ug_x = _leaf(rng.standard_normal((5, 3)))
    pairs = [_leaf(state) for state in _states(name, kwargs, (), rng)]
    torch_states, ug_states = [p[0] for p in pairs], [p[1] for p in pairs]
    torch_hx = tuple(torch_states) if name == "LSTM" else torch_states[0]
    ug_hx = tuple(ug_states) if name == "LSTM" else ug_states[0]
    _compare(theirs, ours, (torch_x, torch_hx), (ug_x, ug_hx), [torch_x, *torch_states],
             [ug_x, *ug_states])


@pytest.mark.parametrize("name,kwargs", [CONFIGS[1], CONFIGS[5], CONFIGS[7]])
@pytest.mark.parametrize("enforce_sorted", [True, False])
def test_packed_input(name, kwargs, enforce_sorted):
    theirs, ours = _twin(name, 3, 4, **kwargs)
    rng = np.random.default_rng(4)
    lengths = [5, 3, 3, 1] if enforce_sorted else [3, 5, 1, 3]
    torch_x, ug_x = _leaf(rng.standard_normal((5, 4, 3)))
    pairs = [_leaf(state) for state in _states(name, kwargs, (4,), rng)]
    torch_states, ug_states = [p[0] for p in pairs], [p[1] for p in pairs]
    torch_hx = tuple(torch_states) if name == "LSTM" else torch_states[0]
    ug_hx = tuple(ug_states) if name == "LSTM" else ug_states[0]
    torch_packed = torch.nn.utils.rnn.pack_padded_sequence(torch_x, lengths,
                                                           enforce_sorted=enforce_sorted)
    ug_packed = ug_rnn.pack_padded_sequence(ug_x, lengths, enforce_sorted=enforce_sorted)
    result = ours(ug_packed, ug_hx)
    assert isinstance(result[0], ug_rnn.PackedSequence)
    assert result[0].batch_sizes.tolist() == torch_packed.batch_sizes.tolist()
    _compare(theirs, ours, (torch_packed, torch_hx), (ug_packed, ug_hx),
             [torch_x, *torch_states], [ug_x, *ug_states])


def test_packed_input_without_state_pads_back_like_torch():
    theirs, ours = _twin("LSTM", 2, 3, bidirectional=True)
    x = np.random.default_rng(5).standard_normal((4, 3, 2))
    torch_out, _ = theirs(torch.nn.utils.rnn.pack_padded_sequence(
        torch.tensor(x), [2, 4, 1], enforce_sorted=False))
    ug_out, _ = ours(ug_rnn.pack_padded_sequence(ug.tensor(x), [2, 4, 1], enforce_sorted=False))
    expected, expected_lengths = torch.nn.utils.rnn.pad_packed_sequence(torch_out)
    actual, lengths = ug_rnn.pad_packed_sequence(ug_out)
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), rtol=RTOL,
                               atol=ATOL)
    assert lengths.tolist() == expected_lengths.tolist() == [2, 4, 1]


@pytest.mark.parametrize("name,kwargs", [("RNNCell", {}), ("RNNCell", {"nonlinearity": "relu"}),
                                         ("LSTMCell", {}), ("GRUCell", {}),
                                         ("GRUCell", {"bias": False})])
@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("with_state", [True, False])
def test_cells(name, kwargs, batched, with_state):
    theirs, ours = _twin(name, 3, 4, **kwargs)
    rng = np.random.default_rng(6)
    batch = (2,) if batched else ()
    torch_x, ug_x = _leaf(rng.standard_normal(batch + (3,)))
    leaves = [(torch_x, ug_x)]
    torch_args, ug_args = [torch_x], [ug_x]
    if with_state:
        pairs = [_leaf(rng.standard_normal(batch + (4,)))
                 for _ in range(2 if name == "LSTMCell" else 1)]
        leaves += pairs
        torch_args.append(tuple(p[0] for p in pairs) if name == "LSTMCell" else pairs[0][0])
        ug_args.append(tuple(p[1] for p in pairs) if name == "LSTMCell" else pairs[0][1])
    _compare(theirs, ours, torch_args, ug_args, [p[0] for p in leaves], [p[1] for p in leaves])


@pytest.mark.parametrize("name,args,kwargs", [
    ("RNN", (3, 4), {}),
    ("RNN", (3, 4, 2), {"nonlinearity": "relu", "bias": False, "batch_first": True,
                        "dropout": 0.5, "bidirectional": True}),
    ("LSTM", (3, 4), {"proj_size": 2}),
    ("GRU", (3, 4), {"num_layers": 2}),
    ("RNNCell", (3, 4), {"nonlinearity": "relu"}),
    ("LSTMCell", (3, 4), {"bias": False}),
    ("GRUCell", (3, 4), {}),
])
def test_repr_parameters_and_init_like_torch(name, args, kwargs):
    theirs = getattr(torch.nn, name)(*args, **kwargs)
    ours = getattr(ug.nn, name)(*args, **kwargs)
    assert repr(ours) == repr(theirs)
    assert [(key, tuple(p.shape)) for key, p in ours.named_parameters()] == [
        (key, tuple(p.shape)) for key, p in theirs.named_parameters()]
    bound = 1 / np.sqrt(4)
    for parameter in ours.parameters():
        values = parameter.detach().numpy()
        assert values.dtype == np.float32
        assert values.min() >= -bound and values.max() <= bound and values.std() > 0.1 * bound


def test_all_weights_and_flatten_parameters():
    ours = ug.nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2)
    theirs = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2)
    assert [[tuple(w.shape) for w in group] for group in ours.all_weights] == [
        [tuple(w.shape) for w in group] for group in theirs.all_weights]
    assert ours.all_weights[3][0] is ours.weight_ih_l1_reverse
    assert ours.flatten_parameters() is None


def test_dropout_between_layers_only_in_training():
    ug.manual_seed(0)
    net = ug.nn.GRU(3, 4, num_layers=2, dropout=0.5, dtype=ug.float64)
    x = ug.tensor(np.random.default_rng(7).standard_normal((4, 2, 3)))
    net.eval()
    first, _ = net(x)
    np.testing.assert_array_equal(net(x)[0].detach().numpy(), first.detach().numpy())
    net.train()
    trained, _ = net(x)
    assert not np.allclose(trained.detach().numpy(), first.detach().numpy())
    net.dropout = 0.0
    np.testing.assert_allclose(net(x)[0].detach().numpy(), first.detach().numpy())


def test_gradients_flow_through_lstm_dropout_between_layers():
    ug.manual_seed(1)
    net = ug.nn.LSTM(2, 3, num_layers=2, dropout=0.3)
    out, _ = net(ug.ones(3, 1, 2))
    out.sum().backward()
    assert all(p.grad is not None for p in net.parameters())


def test_dropout_warning_and_constructor_errors():
    with pytest.warns(UserWarning, match="num_layers greater than 1"):
        ug.nn.RNN(2, 3, dropout=0.2)
    with pytest.raises(ValueError, match="dropout should be a number in range"):
        ug.nn.LSTM(2, 3, dropout=1.5)
    with pytest.raises(ValueError, match="hidden_size must be greater than zero"):
        ug.nn.GRU(2, 0)
    with pytest.raises(TypeError, match="input_size should be of type int"):
        ug.nn.GRU(2.0, 3)
    with pytest.raises(ValueError, match="num_layers must be greater than zero"):
        ug.nn.GRU(2, 3, num_layers=0)
    with pytest.raises(ValueError, match="proj_size has to be smaller than hidden_size"):
        ug.nn.LSTM(2, 3, proj_size=3)
    with pytest.raises(ValueError, match="Unknown nonlinearity 'sigmoid'"):
        ug.nn.RNN(2, 3, nonlinearity="sigmoid")
    with pytest.raises(TypeError, match="bias should be of type bool"):
        ug.nn.RNN(2, 3, bias=1)


def test_forward_errors_match_torch_messages():
    ours = ug.nn.LSTM(3, 4, num_layers=2)
    with pytest.raises(ValueError, match="LSTM: Expected input to be 2D or 3D, got 4D instead"):
        ours(ug.ones(1, 2, 3, 3))
    with pytest.raises(RuntimeError, match="input.size\\(-1\\) must be equal to input_size. "
                                           "Expected 3, got 2"):
        ours(ug.ones(5, 2, 2))
    with pytest.raises(RuntimeError, match=r"Expected hidden\[0\] size \(2, 2, 4\), got "
                                           r"\[1, 2, 4\]"):
        ours(ug.ones(5, 2, 3), (ug.zeros(1, 2, 4), ug.zeros(2, 2, 4)))
    with pytest.raises(RuntimeError, match=r"Expected hidden\[1\] size \(2, 2, 4\), got "
                                           r"\[2, 2, 3\]"):
        ours(ug.ones(5, 2, 3), (ug.zeros(2, 2, 4), ug.zeros(2, 2, 3)))
    with pytest.raises(RuntimeError, match=r"Expected hidden size \(1, 2, 4\), got \[1, 3, 4\]"):
        ug.nn.GRU(3, 4)(ug.ones(5, 2, 3), ug.zeros(1, 3, 4))
    with pytest.raises(RuntimeError, match="hx and cx should also be 3-D"):
        ours(ug.ones(5, 2, 3), (ug.zeros(2, 4), ug.zeros(2, 4)))
    with pytest.raises(ValueError, match="RNN input dtype"):
        ug.nn.GRU(3, 4)(ug.ones(5, 2, 3, dtype=ug.float64))
    with pytest.raises(RuntimeError, match="hx should also be 2-D but got 3-D"):
        ug.nn.GRU(3, 4)(ug.ones(5, 3), ug.zeros(1, 1, 4))
    with pytest.raises(ValueError, match="GRUCell: Expected input to be 1D or 2D, got 3D"):
        ug.nn.GRUCell(3, 4)(ug.ones(1, 2, 3))
    with pytest.raises(RuntimeError, match="input has inconsistent input_size: got 2"):
        ug.nn.LSTMCell(3, 4)(ug.ones(2, 2))
    with pytest.raises(RuntimeError, match="Input batch size 2 doesn't match hidden0 batch "
                                           "size 3"):
        ug.nn.LSTMCell(3, 4)(ug.ones(2, 3), (ug.ones(3, 4), ug.ones(3, 4)))
    with pytest.raises(RuntimeError, match="hidden0 has inconsistent hidden_size: got 5, "
                                           "expected 4"):
        ug.nn.GRUCell(3, 4)(ug.ones(2, 3), ug.ones(2, 5))
    with pytest.raises(RuntimeError, match="Unknown nonlinearity: sigmoid"):
        ug.nn.RNNCell(3, 4, nonlinearity="sigmoid")(ug.ones(2, 3))
    with pytest.raises(ValueError, match="RNNCell: Expected hidden to be 1D or 2D, got 3D"):
        ug.nn.RNNCell(3, 4)(ug.ones(2, 3), ug.ones(1, 2, 4))
