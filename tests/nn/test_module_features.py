"""Module features PyTorch users rely on: hooks (forward, full backward, state dict), the
state-dict protocol (``_load_from_state_dict``, extra state, assign), copying, pickling and
repr, each compared with torch.nn.Module."""

from __future__ import annotations

import copy
import pickle
from collections import OrderedDict

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _numpy(value):
    return None if value is None else value.detach().numpy()


# ------------------------------------------------------------------------ forward hooks
@pytest.mark.parametrize("library", ["unigrad", "torch"])
def test_forward_hooks_prepend_with_kwargs_and_order(library):
    lib = ug if library == "unigrad" else torch

    class Scale(lib.nn.Module):
        def forward(self, x, factor=1.0):
            return x * factor

    module, order = Scale(), []
    module.register_forward_pre_hook(lambda m, args: order.append("pre"))
    module.register_forward_pre_hook(lambda m, args, kwargs: (args, {"factor": 10.0}),
                                     with_kwargs=True)
    module.register_forward_pre_hook(lambda m, args: order.append("first"), prepend=True)
    module.register_forward_hook(lambda m, args, kwargs, out: order.append(kwargs) or out + 1,
                                 with_kwargs=True)
    result = module(lib.tensor([1.0, 2.0]), factor=2.0)
    assert result.tolist() == [11.0, 21.0]
    assert order == ["first", "pre", {"factor": 10.0}]


@pytest.mark.parametrize("library", ["unigrad", "torch"])
def test_always_call_forward_hook_runs_when_forward_raises(library):
    lib = ug if library == "unigrad" else torch

    class Broken(lib.nn.Module):
        def forward(self, x):
            raise ValueError("broken forward")

    module, seen = Broken(), []
    module.register_forward_hook(lambda m, args, out: seen.append(("always", out)),
                                 always_call=True)
    module.register_forward_hook(lambda m, args, out: seen.append("normal"))
    with pytest.raises(ValueError, match="broken forward"):
        module(lib.tensor(1.0))
    assert seen == [("always", None)]


def test_bad_forward_pre_hook_result_is_an_error():
    module = nn.Identity()
    module.register_forward_pre_hook(lambda m, args, kwargs: 3, with_kwargs=True)
    with pytest.raises(RuntimeError, match=r"tuple of \(new_args, new_kwargs\)"):
        module(ug.tensor(1.0))


def test_handles_remove_every_registry_entry_and_work_as_context_managers():
    module = nn.Identity()
    with module.register_forward_hook(lambda m, a, k, o: o * 2, with_kwargs=True,
                                      always_call=True) as handle:
        assert module(ug.tensor(1.0)).item() == 2.0
    assert module(ug.tensor(1.0)).item() == 1.0
    assert handle.id not in module._forward_hooks_with_kwargs
    assert handle.id not in module._forward_hooks_always_called


# ---------------------------------------------------------------------- backward hooks
def _two_input_module(lib):
    class Combine(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = lib.nn.Parameter(lib.tensor([2.0, -1.0], dtype=lib.float64))

        def forward(self, x, scale, y):
            return x * y * self.weight * scale, x + y

    return Combine()


def _run_backward_hooks(lib, replace_input: bool, replace_output: bool):
    module = _two_input_module(lib)
    seen = []

    def pre_hook(m, grad_output):
        seen.append(("pre", [_numpy(g) for g in grad_output]))
        if replace_output:
            doubled = None if grad_output[0] is None else grad_output[0] * 2
            return (doubled, grad_output[1])

    def hook(m, grad_input, grad_output):
        seen.append(("full", [_numpy(g) for g in grad_input],
                     [_numpy(g) for g in grad_output]))
        if replace_input:
            return (grad_input[0] * 0 + 5, None, grad_input[2])

    module.register_full_backward_pre_hook(pre_hook)
    module.register_full_backward_hook(hook)
    x = lib.tensor([1.0, 3.0], dtype=lib.float64, requires_grad=True)
    y = lib.tensor([2.0, 4.0], dtype=lib.float64, requires_grad=True)
    first, second = module(x, 3.0, y)
    (first * lib.tensor([1.0, 2.0], dtype=lib.float64)).sum().backward(retain_graph=True)
    second.sum().backward()
    return seen, _numpy(x.grad), _numpy(y.grad), _numpy(module.weight.grad)


def _assert_nested_equal(got, want):
    if isinstance(want, np.ndarray):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    elif isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _assert_nested_equal(g, w)
    else:
        assert got == want


@pytest.mark.parametrize(("replace_input", "replace_output"),
                         [(False, False), (True, False), (False, True), (True, True)])
def test_full_backward_hooks_match_torch(replace_input, replace_output):
    ours = _run_backward_hooks(ug, replace_input, replace_output)
    theirs = _run_backward_hooks(torch, replace_input, replace_output)
    _assert_nested_equal(ours, theirs)


@pytest.mark.parametrize("library", ["unigrad", "torch"])
def test_full_backward_hook_without_input_gradients_warns_and_gets_nones(library):
    lib = ug if library == "unigrad" else torch
    layer = lib.nn.Linear(2, 1)
    seen = []
    layer.register_full_backward_hook(
        lambda m, gi, go: seen.append((gi, [tuple(g.shape) for g in go])))
    with pytest.warns(UserWarning, match="no inputs require gradients"):
        layer(lib.ones(3, 2)).sum().backward()
    assert seen == [((None,), [(3, 1)])]


def test_regular_and_full_backward_hooks_do_not_mix():
    layer = nn.Linear(2, 1)
    layer.register_full_backward_hook(lambda *args: None)
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks and full"):
        layer.register_backward_hook(lambda *args: None)


def test_deprecated_backward_hook_sees_the_last_node_gradients():
    layer = nn.Linear(2, 1)
    seen = []
    layer.register_backward_hook(lambda m, gi, go: seen.append(tuple(g.shape for g in go)))
    layer(ug.ones(3, 2, requires_grad=True)).sum().backward()
    assert seen == [((3, 1),)]


def test_backward_hook_returning_the_wrong_count_is_an_error():
    layer = nn.Linear(2, 1)
    layer.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
    with pytest.raises(RuntimeError, match="invalid number of grad_input, got 2, but expected 1"):
        layer(ug.ones(1, 2, requires_grad=True)).sum().backward()


# ----------------------------------------------------------------- state dict protocol
def _nested(lib):
    model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3))
    model.register_buffer("scratch", lib.zeros(1), persistent=False)
    return model


def test_state_dict_keys_metadata_and_hooks_match_torch():
    ours, theirs = _nested(ug), _nested(torch)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    # (torch's BatchNorm is at _version 2; its own metadata is the layer's business)
    assert list(ours.state_dict()._metadata) == list(theirs.state_dict()._metadata)
    assert ours.state_dict()._metadata["0"] == theirs.state_dict()._metadata["0"]
    for model in (ours, theirs):
        calls = []

        def record(module, prefix, keep_vars, calls=calls):
            calls.append(prefix)

        def drop_counter(module, state, prefix, metadata):
            del state[prefix + "1.num_batches_tracked"]

        model[1].register_state_dict_pre_hook(record)
        model.register_state_dict_post_hook(drop_counter)
        assert list(model.state_dict(prefix="net.")) != []
        assert calls == ["net.1."]
        assert "1.num_batches_tracked" not in model.state_dict()
    assert list(ours.state_dict()) == list(theirs.state_dict())


def test_private_state_dict_hook_may_replace_the_result():
    model = nn.Linear(2, 1)
    model._register_state_dict_hook(lambda m, state, prefix, meta: {"only": 1})
    assert model.state_dict() == {"only": 1}
    public = nn.Linear(2, 1)
    public.register_state_dict_post_hook(lambda m, state, prefix, meta: {"only": 1})
    with pytest.raises(RuntimeError, match="state_dict post-hook must return None"):
        public.state_dict()


def test_load_from_state_dict_override_converts_old_checkpoints():
    class Renamed(nn.Module):
        _version = 2

        def __init__(self):
            super().__init__()
            self.scale = nn.Parameter(ug.ones(2))

        def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing,
                                  unexpected, errors):
            if local_metadata.get("version", 1) < 2 and prefix + "gain" in state_dict:
                state_dict[prefix + "scale"] = state_dict.pop(prefix + "gain")
            super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing,
                                          unexpected, errors)

    outer = nn.Sequential(Renamed())
    old = OrderedDict({"0.gain": ug.tensor([3.0, 4.0])})
    old._metadata = {"0": {"version": 1}}
    assert repr(outer.load_state_dict(old)) == "<All keys matched successfully>"
    assert outer[0].scale.tolist() == [3.0, 4.0]
    assert outer.state_dict()._metadata["0"] == {"version": 2}


def test_load_state_dict_errors_change_nothing_and_match_torch_messages():
    ours, theirs = nn.Linear(2, 1), torch.nn.Linear(2, 1)
    before = ours.weight.tolist()
    bad = {"weight": ug.zeros(1, 2), "bias": ug.zeros(1), "extra.child": ug.zeros(1),
           "stray": ug.zeros(1)}
    with pytest.raises(RuntimeError) as error:
        ours.load_state_dict(bad)
    with pytest.raises(RuntimeError) as torch_error:
        theirs.load_state_dict({k: torch.zeros(tuple(v.shape)) for k, v in bad.items()})
    assert str(error.value).split(":\n")[1] == str(torch_error.value).split(":\n")[1]
    assert ours.weight.tolist() == before
    result = ours.load_state_dict(bad, strict=False)
    assert result.unexpected_keys == ["extra.child", "stray"] and not result.missing_keys
    assert ours.weight.tolist() == [[0.0, 0.0]]


def test_load_state_dict_pre_and_post_hooks():
    model = nn.Sequential(nn.Linear(2, 1))
    model[0].register_load_state_dict_pre_hook(
        lambda m, state, prefix, *rest: state.setdefault(prefix + "bias", ug.tensor([7.0])))
    model.register_load_state_dict_post_hook(
        lambda m, keys: keys.unexpected_keys.clear())
    result = model.load_state_dict({"0.weight": ug.ones(1, 2), "junk": ug.ones(1)})
    assert model[0].bias.tolist() == [7.0] and result.unexpected_keys == []


def test_load_state_dict_assign_uses_the_checkpoint_tensors():
    model = nn.Linear(2, 1)
    model.bias.requires_grad_(False)
    weight = ug.tensor([[5.0, 6.0]])
    model.load_state_dict({"weight": weight, "bias": ug.tensor([1.0])}, assign=True)
    assert isinstance(model.weight, nn.Parameter) and model.weight.requires_grad
    assert not model.bias.requires_grad
    weight[0, 0] = 9.0  # the parameter shares the checkpoint tensor's storage
    assert model.weight.tolist() == [[9.0, 6.0]]


@pytest.mark.parametrize("library", ["unigrad", "torch"])
def test_extra_state_round_trips(library):
    lib = ug if library == "unigrad" else torch

    class Counter(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def get_extra_state(self):
            return {"calls": self.calls}

        def set_extra_state(self, state):
            self.calls = state["calls"]

    first, second = lib.nn.Sequential(Counter()), lib.nn.Sequential(Counter())
    first[0].calls = 4
    state = first.state_dict()
    assert list(state) == ["0._extra_state"]
    second.load_state_dict(state)
    assert second[0].calls == 4
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "0._extra_state"'):
        second.load_state_dict({})


# ------------------------------------------------------------------- copying and moving
def test_deepcopy_gives_independent_parameters_and_pickle_round_trips():
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    model(ug.ones(3, 2)).sum().backward()
    clone = copy.deepcopy(model)
    assert clone[0].weight is not model[0].weight
    assert clone[0].weight.grad is not None
    with ug.no_grad():
        clone[0].weight.fill_(0.0)
    assert model[0].weight.abs().sum().item() > 0
    restored = pickle.loads(pickle.dumps(model))
    assert list(restored.state_dict()) == list(model.state_dict())
    assert restored[0].weight.tolist() == model[0].weight.tolist()
    assert restored(ug.ones(3, 2)).shape == (3, 2)


def test_type_to_empty_cpu_share_memory_and_chaining():
    model = nn.BatchNorm1d(2)
    assert model.type(ug.float64) is model
    assert model.num_batches_tracked.dtype == ug.float64  # type() casts integers too
    assert model.to_empty(device="cpu").weight.shape == (2,)
    assert model.cpu() is model and model.share_memory() is model
    assert model.train() is model and model.eval() is model and not model.training
    assert model.requires_grad_(False) is model and not model.weight.requires_grad


def test_named_modules_and_parameters_with_duplicates_match_torch():
    def build(lib):
        shared = lib.nn.Linear(1, 1)
        return lib.nn.Sequential(shared, lib.nn.ReLU(), shared)

    ours, theirs = build(ug), build(torch)
    for kwargs in ({}, {"remove_duplicate": False}):
        assert [n for n, _ in ours.named_modules(**kwargs)] \
            == [n for n, _ in theirs.named_modules(**kwargs)]
        assert [n for n, _ in ours.named_parameters(**kwargs)] \
            == [n for n, _ in theirs.named_parameters(**kwargs)]
    assert [n for n, _ in ours.named_modules(prefix="net")] \
        == [n for n, _ in theirs.named_modules(prefix="net")]


def test_repr_matches_torch():
    def build(lib):
        model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU(),
                                  lib.nn.Sequential(lib.nn.Tanh(), lib.nn.Identity()))
        model.add_module("empty", None)
        return model

    assert repr(build(ug)) == repr(build(torch))
    assert repr(nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Tanh(), nn.ReLU()])) \
        == repr(torch.nn.ModuleList([torch.nn.ReLU(), torch.nn.ReLU(), torch.nn.Tanh(),
                                     torch.nn.ReLU()]))


def test_buffer_assignment_to_tensor_and_get_buffer_match_torch():
    from unigrad.nn.parameter import Buffer

    for lib, buffer in ((ug, Buffer), (torch, torch.nn.Buffer)):
        module = lib.nn.Linear(2, 1)
        module.total = buffer(lib.zeros(2))
        module.scratch = buffer(lib.ones(1), persistent=False)
        assert list(module.state_dict()) == ["weight", "bias", "total"]
        assert [name for name, _ in module.named_buffers()] == ["total", "scratch"]
        assert module.get_buffer("total") is module.total
        with pytest.raises(AttributeError, match="is not a buffer"):
            module.get_buffer("weight")
    model = nn.Linear(2, 1).to(ug.zeros(1, dtype=ug.float64))
    assert model.weight.dtype == ug.float64
