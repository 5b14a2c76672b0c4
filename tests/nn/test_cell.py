"""Cell/Module, Parameter and ParameterTuple: registration, walks, state dicts, modes, errors."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import unigrad as ug
from unigrad.nn import Cell, Module, Parameter, ParameterTuple


class Affine(Cell):
    """``x * w + b`` with a trainable w and a frozen b."""

    def __init__(self, size: int = 2):
        super().__init__()
        self.w = Parameter(ug.arange(1.0, size + 1.0))
        self.b = Parameter(ug.ones(size), requires_grad=False)

    def construct(self, x):
        return x * self.w + self.b


class Stack(Module):
    """Two Affines and a buffer, written PyTorch-style."""

    def __init__(self):
        super().__init__()
        self.first = Affine()
        self.second = Affine()
        self.register_buffer("steps", ug.tensor(0))
        self.register_buffer("scratch", ug.zeros(2), persistent=False)

    def forward(self, x):
        return self.second(self.first(x))


# ------------------------------------------------------------------ Parameter
def test_parameter_is_a_named_leaf_that_requires_grad():
    w = Parameter(ug.tensor([1.0, 2.0]), name="w")
    assert isinstance(w, ug.Tensor) and w.is_leaf and w.requires_grad and w.name == "w"
    (w * w).sum().backward()
    assert w.grad.tolist() == [2.0, 4.0]


def test_parameter_pytorch_order_and_shared_storage():
    data = ug.tensor([1.0, 2.0])
    frozen = Parameter(data, False)
    assert not frozen.requires_grad and frozen.name is None
    frozen._data[0] = 7.0
    assert data.tolist() == [7.0, 2.0]


def test_parameter_of_a_non_leaf_is_a_leaf():
    x = ug.tensor([1.0], requires_grad=True)
    p = Parameter(x * 3)
    assert p.is_leaf and p.grad_fn is None and p.tolist() == [3.0]


def test_integer_parameter_never_requires_grad():
    counter = Parameter(ug.tensor(1, dtype=ug.int32), "counter_")
    assert not counter.requires_grad and counter.dtype == ug.int32


def test_parameter_bad_arguments():
    with pytest.raises(TypeError, match="name must be a str"):
        Parameter(ug.ones(1), name=3)
    with pytest.raises(TypeError, match="requires_grad must be a bool"):
        Parameter(ug.ones(1), "w", requires_grad="yes")


def test_set_data_casts_checks_shape_and_bumps_version():
    w = Parameter(ug.zeros(2), "w")
    before = w._version
    assert w.set_data(ug.tensor([1, 2])) is w
    assert w.dtype == ug.float32 and w.tolist() == [1.0, 2.0] and w._version > before
    with pytest.raises(ValueError, match=r"shape of the new data \(3,\).*'w' \(2,\)"):
        w.set_data(ug.zeros(3))
    with pytest.raises(TypeError, match="set_data.*'data'"):
        w.set_data("abc")
    counter = Parameter(ug.tensor([1]), "c")
    with pytest.raises(TypeError, match="cannot cast"):
        counter.set_data(ug.tensor([1.5]))
    assert w.tolist() == [1.0, 2.0] and counter.tolist() == [1]


def test_set_data_invalidates_saved_values():
    w = Parameter(ug.tensor([2.0]), "w")
    y = (w * w).sum()
    w.set_data(ug.tensor([3.0]))
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_parameter_ops_give_plain_tensors_and_repr():
    w = Parameter(ug.tensor([1.0, 2.0]), "w")
    assert type(w * 2) is ug.Tensor
    assert repr(w) == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"


def test_parameter_deepcopy_and_pickle_keep_type_name_and_grad():
    w = Parameter(ug.tensor([1.0, 2.0]), "w")
    (w.sum() * 3).backward()
    clone = copy.deepcopy(w)
    assert type(clone) is Parameter and clone.name == "w" and clone.requires_grad
    assert clone.grad.tolist() == [3.0, 3.0] and clone._data is not w._data
    restored = pickle.loads(pickle.dumps(w))
    assert type(restored) is Parameter and restored.name == "w" and restored.tolist() == [1.0, 2.0]


def test_parameter_takes_the_fast_paths_and_differentiates():
    w = Parameter(ug.tensor([[1.0, 2.0]]), "w")
    x = ug.tensor([[3.0], [4.0]])
    out = (w @ x).exp().sum() + (w + 1.0).sum()
    out.backward()
    np.testing.assert_allclose(w.grad.numpy(), np.exp(11.0) * np.array([[3.0, 4.0]]) + 1.0,
                               rtol=1e-6)


# -------------------------------------------------------------- ParameterTuple
def test_parameter_tuple_is_a_tuple_and_clones():
    w, b = Parameter(ug.ones(2), "w"), Parameter(ug.tensor(3.0), "b")
    params = ParameterTuple([w, b])
    assert isinstance(params, tuple) and params[0] is w and len(params) == 2
    zeros = params.clone(prefix="accumulate_", init="zeros")
    assert [p.name for p in zeros] == ["accumulate_.w", "accumulate_.b"]
    assert zeros[0].tolist() == [0.0, 0.0] and zeros[1].item() == 0.0
    same = params.clone("copy")
    assert same[1].item() == 3.0 and same[1]._data is not b._data
    assert params.clone("one", init="ones")[1].item() == 1.0


def test_parameter_tuple_flattens_as_a_tuple_in_transforms():
    w = Parameter(ug.tensor([1.0, 2.0]), "w")
    grads = ug.grad(lambda x: (x * w).sum(), None, ParameterTuple([w]))(ug.tensor([3.0, 4.0]))
    assert isinstance(grads, tuple) and grads[0].tolist() == [3.0, 4.0]


def test_parameter_tuple_errors():
    with pytest.raises(TypeError, match="Parameter collection.*element 1 is Tensor"):
        ParameterTuple([Parameter(ug.ones(1), "a"), ug.ones(1)])
    with pytest.raises(ValueError, match="name 'a' of element 1 already exists"):
        ParameterTuple([Parameter(ug.ones(1), "a"), Parameter(ug.ones(1), "a")])
    params = ParameterTuple([Parameter(ug.ones(1), "a")])
    with pytest.raises(ValueError, match="'init' must be one of"):
        params.clone("p", init="normal")
    with pytest.raises(ValueError, match="'prefix'"):
        params.clone("")


# ----------------------------------------------------------------- registration
def test_registration_order_names_and_walks():
    net = Stack()
    assert [name for name, _ in net.named_parameters()] == [
        "first.w", "first.b", "second.w", "second.b"]
    assert [p.name for p in net.trainable_params()] == ["first.w", "second.w"]
    assert [p.name for p in net.untrainable_params()] == ["first.b", "second.b"]
    assert [name for name, _ in net.named_cells()] == ["", "first", "second"]
    assert list(net.name_cells()) == ["first", "second"]
    assert list(net.cells()) == [net.first, net.second]
    assert [name for name, _ in net.named_buffers()] == ["steps", "scratch"]
    assert net.get_submodule("second") is net.second
    assert net.get_parameter("second.w") is net.second.w
    assert [name for name, _ in net.parameters_and_names()] == [
        "first.w", "first.b", "second.w", "second.b"]


def test_user_names_are_kept_and_prefixed_once():
    class Named(Cell):
        def __init__(self):
            super().__init__()
            self.p = Parameter(ug.ones(1), name="custom")

    inner = Named()
    outer = Cell()
    outer.block = inner
    outer.again = inner  # shared: names stay as the first parent made them
    assert inner.p.name == "block.custom"
    assert [name for name, _ in outer.named_parameters()] == ["block.p"]  # once


def test_shared_parameters_appear_once():
    net = Cell()
    net.a = Affine()
    net.b = Affine()
    net.b.w = net.a.w
    assert len(list(net.parameters())) == 3
    assert len(list(net.named_parameters(remove_duplicate=False))) == 4


def test_reassignment_moves_between_registries():
    net = Affine()
    with pytest.raises(TypeError, match="cannot assign 'Tensor' as parameter 'w'"):
        net.w = ug.ones(2)
    net.w = None
    assert [name for name, _ in net.named_parameters()] == ["b"]
    net.w = Affine()
    assert "w" in net._cells and "w" not in net._params
    del net.w
    with pytest.raises(AttributeError, match="'Affine' object has no attribute 'w'"):
        _ = net.w


def test_assigning_before_init_is_a_clear_error():
    class Forgot(Cell):
        def __init__(self):
            self.w = Parameter(ug.ones(1))

    with pytest.raises(AttributeError, match="before Cell.__init__"):
        Forgot()


def test_register_errors():
    net = Cell()
    with pytest.raises(KeyError, match="empty or contain"):
        net.register_buffer("a.b", ug.ones(1))
    with pytest.raises(TypeError, match="buffer 'x'"):
        net.register_buffer("x", [1.0])
    with pytest.raises(TypeError, match="parameter 'x'"):
        net.register_parameter("x", ug.ones(1))
    with pytest.raises(KeyError, match="attribute 'train' already exists"):
        net.register_parameter("train", Parameter(ug.ones(1)))
    with pytest.raises(TypeError, match="is not a Cell subclass"):
        net.add_module("m", object())


# -------------------------------------------------------------------- calling
def test_construct_and_forward_spellings():
    x = ug.tensor([1.0, 1.0])
    assert Affine()(x).tolist() == [2.0, 3.0]
    assert Stack()(x).tolist() == [3.0, 7.0]
    with pytest.raises(NotImplementedError, match="neither construct"):
        Cell()(x)


def test_forward_spellings_call_each_other():
    x = ug.tensor([1.0, 1.0])
    assert Affine().forward(x).tolist() == [2.0, 3.0]
    assert Stack().construct(x).tolist() == [3.0, 7.0]


def test_forward_hooks_replace_inputs_and_outputs_and_remove():
    net = Affine()
    pre = net.register_forward_pre_hook(lambda cell, args: (args[0] * 10,))
    post = net.register_forward_hook(lambda cell, args, out: out + 100)
    assert net(ug.tensor([1.0, 1.0])).tolist() == [111.0, 121.0]
    pre.remove()
    post.remove()
    assert net(ug.tensor([1.0, 1.0])).tolist() == [2.0, 3.0]


def test_cell_bprop_replaces_the_backward():
    class Doubler(Cell):
        def construct(self, x):
            return x * 2.0

        def bprop(self, x, out, dout):
            return (dout * 100.0,)

    x = ug.tensor([1.0, 2.0], requires_grad=True)
    y = Doubler()(x)
    assert y.tolist() == [2.0, 4.0]
    y.sum().backward()
    assert x.grad.tolist() == [100.0, 100.0]
    assert ug.grad(lambda v: Doubler()(v).sum())(ug.tensor([1.0])).tolist() == [100.0]


def test_seed_mindspore_bprop_cell_with_parameter():
    """Seed 003: a Cell with a Parameter and a custom bprop; input gradient from bprop."""

    class Net(Cell):
        def __init__(self):
            super().__init__()
            self.z = Parameter(ug.tensor([1.0]), name="z")

        def construct(self, x, y):
            return x * self.z * y

        def bprop(self, x, y, out, dout):
            return (y * dout, x * dout)

    x, y = ug.tensor([2.0]), ug.tensor([3.0])
    gx, gy = ug.grad(Net(), grad_position=(0, 1))(x, y)
    assert gx.tolist() == [3.0] and gy.tolist() == [2.0]


# ----------------------------------------------------------------- state dicts
def test_state_dict_holds_detached_shared_tensors_and_persistent_buffers():
    net = Stack()
    state = net.state_dict()
    # PyTorch's order: a Cell's own Parameters and buffers, then its children's
    assert list(state) == ["steps", "first.w", "first.b", "second.w", "second.b"]
    assert all(type(t) is ug.Tensor and not t.requires_grad for t in state.values())
    state["first.w"]._data[0] = 42.0  # shares storage, as PyTorch's does
    assert net.first.w.tolist()[0] == 42.0
    assert net.state_dict(keep_vars=True)["first.w"] is net.first.w


def test_load_state_dict_round_trip_in_place():
    source, target = Stack(), Stack()
    source.first.w.set_data(ug.tensor([5.0, 6.0]))
    source.steps._data[...] = 7
    keep = target.first.w
    result = target.load_state_dict(source.state_dict())
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert target.first.w is keep and target.first.w.tolist() == [5.0, 6.0]
    assert target.steps.item() == 7 and target.first.w.requires_grad


def test_load_state_dict_strict_errors_change_nothing():
    net = Stack()
    good = Stack().state_dict()
    before = {k: v.numpy().copy() for k, v in net.state_dict().items()}
    bad = dict(good)
    bad["second.w"] = ug.zeros(3)
    del bad["first.b"]
    bad["extra"] = ug.zeros(1)
    with pytest.raises(RuntimeError) as error:
        net.load_state_dict(bad)
    message = str(error.value)
    assert message.startswith("Error(s) in loading state_dict for Stack:")
    assert 'Missing key(s) in state_dict: "first.b"' in message
    assert 'Unexpected key(s) in state_dict: "extra"' in message
    assert "size mismatch for second.w: copying a param with shape (3,) from checkpoint, the " \
           "shape in current model is (2,)." in message
    for key, value in net.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), before[key])


def test_load_state_dict_non_strict_reports_keys():
    net = Affine()
    result = net.load_state_dict({"w": ug.tensor([9.0, 8.0]), "other": ug.ones(1)}, strict=False)
    assert result.missing_keys == ["b"] and result.unexpected_keys == ["other"]
    assert net.w.tolist() == [9.0, 8.0]
    with pytest.raises(RuntimeError, match="size mismatch"):
        net.load_state_dict({"w": ug.ones(5)}, strict=False)
    with pytest.raises(TypeError, match="dict-like"):
        net.load_state_dict([1, 2])


def test_load_state_dict_accepts_arrays_and_casts():
    net = Affine()
    net.load_state_dict({"w": np.array([3.0, 4.0]), "b": [1, 1]})
    assert net.w.dtype == ug.float32 and net.w.tolist() == [3.0, 4.0]


# ------------------------------------------------------------------ modes etc.
def test_train_eval_recursive():
    net = Stack()
    assert net.training and net.first.training
    assert net.eval() is net
    assert not net.training and not net.second.training
    net.set_train()
    assert net.first.training
    with pytest.raises(ValueError, match="boolean"):
        net.train(1)


def test_requires_grad_zero_grad_apply():
    net = Stack()
    net(ug.ones(2)).sum().backward()
    assert net.first.w.grad is not None
    net.zero_grad(set_to_none=False)
    assert net.first.w.grad.tolist() == [0.0, 0.0]
    net.zero_grad()
    assert net.first.w.grad is None
    net.requires_grad_(False)
    assert net.trainable_params() == []
    visited = []
    net.apply(lambda cell: visited.append(type(cell).__name__))
    assert visited == ["Affine", "Affine", "Stack"]


def test_to_casts_floating_tensors_only():
    net = Stack()
    assert net.to(ug.float64) is net
    assert net.first.w.dtype == ug.float64 and net.steps.dtype == ug.int64
    assert net.float().second.b.dtype == ug.float32
    assert net.to("cpu", dtype=ug.float16).first.w.dtype == ug.float16


def test_repr_nests_children():
    assert repr(Stack()) == "Stack(\n  (first): Affine()\n  (second): Affine()\n)"


def test_deepcopy_of_a_cell_copies_parameters():
    net = Stack()
    clone = copy.deepcopy(net)
    assert type(clone.first.w) is Parameter
    clone.first.w._data[0] = 99.0
    assert net.first.w.tolist()[0] == 1.0
    assert [n for n, _ in clone.named_parameters()] == [n for n, _ in net.named_parameters()]


def test_grad_with_trainable_params_of_a_cell():
    net = Stack()
    x = ug.tensor([1.0, 2.0])
    grads = ug.grad(lambda v: net(v).sum(), None, net.trainable_params())(x)
    # out = (x*w1 + 1)*w2 + 1, w1 = w2 = [1, 2]
    assert grads[0].tolist() == [1.0, 4.0] and grads[1].tolist() == [2.0, 5.0]
