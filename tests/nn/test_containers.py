"""SequentialCell/Sequential, CellList/ModuleList, CellDict/ModuleDict."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn


def names(cell):
    return [p.name for p in cell.parameters()], [n for n, _ in cell.named_parameters()]


def test_sequential_applies_in_order_and_indexes():
    net = nn.SequentialCell(nn.Dense(2, 3), nn.ReLU(), nn.Dense(3, 1))
    x = ug.tensor([[1.0, -2.0]])
    expected = net[2](ug.relu(net[0](x)))
    assert net(x).tolist() == expected.tolist()
    assert len(net) == 3 and isinstance(net[-1], nn.Dense)
    head = net[:2]
    assert isinstance(head, nn.SequentialCell) and len(head) == 2 and head[0] is net[0]
    with pytest.raises(IndexError, match="index 3 is out of range for SequentialCell of length 3"):
        net[3]


def test_sequential_forms_and_names():
    a, b = nn.Linear(2, 2), nn.Linear(2, 1)
    named = nn.Sequential(OrderedDict([("hidden", a), ("out", b)]))
    assert named["hidden"] is a
    assert names(named)[1] == ["hidden.weight", "hidden.bias", "out.weight", "out.bias"]
    listed = nn.SequentialCell([nn.Dense(1, 1)])
    assert names(listed) == (["0.weight", "0.bias"], ["0.weight", "0.bias"])
    with pytest.raises(TypeError, match="every element must be a Cell, got int"):
        nn.SequentialCell(nn.ReLU(), 3)


def test_delete_and_insert_keep_names_unique_and_positional():
    seq = nn.SequentialCell(nn.Dense(2, 2), nn.ReLU(), nn.Dense(2, 1))
    del seq[1]
    assert names(seq) == (["0.weight", "0.bias", "1.weight", "1.bias"],) * 2
    cells = nn.CellList([nn.Dense(2, 2)])
    cells.insert(0, nn.Dense(2, 3))
    assert names(cells) == (["0.weight", "0.bias", "1.weight", "1.bias"],) * 2
    assert cells[0].weight.shape == (3, 2)
    ug.nn.ParameterTuple(cells.trainable_params())  # names are unique


def test_cell_list_is_registered_and_list_like():
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(2)])
    layers.append(nn.Linear(2, 1)).extend([nn.Tanh()])
    assert len(layers) == 4 and len(list(layers.parameters())) == 6
    layers[3] = nn.ReLU()
    assert isinstance(layers[3], nn.ReLU)
    assert len(layers[1:]) == 3 and isinstance(layers[1:], nn.ModuleList)
    assert len(layers + nn.ModuleList([nn.ReLU()])) == 5
    with pytest.raises(TypeError, match="every element must be a Cell"):
        layers.append("relu")


def test_cell_dict():
    heads = nn.ModuleDict({"a": nn.Linear(2, 1)})
    heads["b"] = nn.Linear(2, 3)
    assert list(heads) == ["a", "b"] and "b" in heads and len(heads) == 2
    assert [n for n, _ in heads.named_parameters()] == ["a.weight", "a.bias", "b.weight",
                                                         "b.bias"]
    assert heads.pop("a") is not None and list(heads.keys()) == ["b"]
    with pytest.raises(TypeError, match="every element must be a Cell"):
        heads.update({"c": 1})
    assert list(heads.keys()) == ["b"]


def test_containers_inside_a_cell_get_prefixed_once():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.body = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 1))

        def construct(self, x):
            return self.body(x)

    net = Net()
    assert names(net)[0] == ["body.0.weight", "body.0.bias", "body.1.weight", "body.1.bias"]


# ------------------------------------------------------------ PyTorch's container API
torch = pytest.importorskip("torch")


def _kinds(container):
    return [type(cell).__name__ for cell in container]


@pytest.mark.torch
def test_sequential_operators_match_torch():
    def build(lib):
        return lib.nn.Sequential(lib.nn.Linear(1, 1), lib.nn.ReLU())

    for lib in (nn, torch.nn):
        seq = lib.Sequential(lib.Linear(1, 1), lib.ReLU())
        doubled = seq * 2
        assert _kinds(doubled) == ["Linear", "ReLU", "Linear", "ReLU"]
        assert doubled[0] is doubled[2] and _kinds(2 * seq) == _kinds(doubled)
        combined = seq + lib.Sequential(lib.Tanh())
        assert _kinds(combined) == ["Linear", "ReLU", "Tanh"]
        seq += lib.Sequential(lib.Sigmoid())
        seq *= 2
        assert len(seq) == 6
        assert type(seq.pop(1)).__name__ == "ReLU" and len(seq) == 5
        assert seq.insert(-1, lib.Identity()) is seq and _kinds(seq)[-2] == "Identity"
        del seq[1:3]
        assert _kinds(seq) == ["Linear", "ReLU", "Identity", "Sigmoid"]
        with pytest.raises(ValueError, match="add operator supports only objects of Sequential"):
            seq + lib.ModuleList()
        with pytest.raises(ValueError, match="Non-positive multiplication factor 0"):
            seq * 0
        with pytest.raises(IndexError, match="Index out of range: 9"):
            seq.insert(9, lib.ReLU())
    assert [n for n, _ in build(ug).named_parameters()] \
        == [n for n, _ in build(torch).named_parameters()]


@pytest.mark.torch
def test_module_list_and_dict_methods_match_torch():
    for lib in (nn, torch.nn):
        layers = lib.ModuleList([lib.ReLU(), lib.Tanh()])
        layers += [lib.Sigmoid()]
        assert type(layers.pop(0)).__name__ == "ReLU" and _kinds(layers) == ["Tanh", "Sigmoid"]
        assert "0" not in dir(layers)
        heads = lib.ModuleDict([("a", lib.ReLU())])
        with pytest.raises(ValueError, match="has length 1; 2 is required"):
            heads.update([("b",)])
        heads.clear()
        assert len(heads) == 0


@pytest.mark.torch
def test_parameter_list_matches_torch():
    rng = np.random.default_rng(0)
    values = [rng.standard_normal((2, 3)), rng.standard_normal(4)]
    ours = nn.ParameterList([ug.tensor(values[0])]).append(nn.Parameter(ug.tensor(values[1])))
    theirs = torch.nn.ParameterList([torch.from_numpy(values[0])])
    theirs.append(torch.nn.Parameter(torch.from_numpy(values[1])))
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["0", "1"]
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in ours)
    assert repr(ours) == repr(theirs)
    assert len(ours[1:]) == 1 and ours[-1].shape == (4,)
    with pytest.raises(IndexError, match="index 2 is out of range"):
        ours[2]
    with pytest.raises(TypeError, match="ParameterList.extend should be called with an iterable"):
        ours.extend(ug.ones(2))
    with pytest.raises(RuntimeError, match="ParameterList should not be called"):
        ours()
    owner = nn.Module()
    owner.params = ours
    assert [n for n, _ in owner.named_parameters()] == ["params.0", "params.1"]


@pytest.mark.torch
def test_parameter_dict_matches_torch():
    data = {"scale": np.ones(2), "bias": np.zeros(2)}
    ours = nn.ParameterDict({k: ug.tensor(v) for k, v in data.items()})
    theirs = torch.nn.ParameterDict({k: torch.from_numpy(v) for k, v in data.items()})
    assert list(ours) == list(theirs) == ["bias", "scale"]  # a plain dict is added sorted
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)
    ordered = nn.ParameterDict(OrderedDict([("z", ug.ones(1)), ("a", ug.ones(1))]))
    assert list(ordered.keys()) == ["z", "a"]
    assert ours.pop("bias").shape == (2,) and list(ours) == ["scale"]
    assert ours.get("missing") is None and "scale" in ours
    ours.setdefault("extra", ug.zeros(3))
    assert isinstance(ours["extra"], nn.Parameter)
    merged = ours | nn.ParameterDict({"more": ug.ones(1)})
    assert list(merged) == ["scale", "extra", "more"] and merged["scale"] is ours["scale"]
    assert ours.popitem()[0] == "extra"
    with pytest.raises(TypeError, match="cannot be used as a key as it is not a string"):
        ours[0] = ug.ones(1)
    with pytest.raises(KeyError):
        ours["missing"]
    with pytest.raises(ValueError, match="has length 3; 2 is required"):
        ours.update([("a", 1, 2)])
