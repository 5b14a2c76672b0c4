"""SequentialCell/Sequential, CellList/ModuleList, CellDict/ModuleDict."""

from __future__ import annotations

from collections import OrderedDict

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
