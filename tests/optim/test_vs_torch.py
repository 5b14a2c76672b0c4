"""Every optimizer option against ``torch.optim``, step by step (skipped without torch)."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.optim as optim

from ._harness import assert_histories_close, make_params, problem, run_torch, run_unigrad

pytestmark = pytest.mark.torch


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


SGD_CASES = [
    {"lr": 0.1},
    {"lr": 0.1, "momentum": 0.9},
    {"lr": 0.05, "momentum": 0.8, "dampening": 0.5},
    {"lr": 0.1, "momentum": 0.9, "nesterov": True},
    {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.1},
    {"lr": 0.1, "weight_decay": 0.3},
    {"lr": 0.1, "momentum": 0.7, "weight_decay": 0.05, "maximize": True},
    {"lr": 0.02, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01, "maximize": True},
]

ADAM_CASES = [
    {"lr": 0.01},
    {"lr": 0.01, "amsgrad": True},
    {"lr": 0.01, "weight_decay": 0.1},
    {"lr": 0.01, "maximize": True},
    {"lr": 0.03, "betas": (0.8, 0.95), "eps": 1e-6},
    {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True, "maximize": True},
]

ADAMW_CASES = [
    {"lr": 0.01},
    {"lr": 0.01, "weight_decay": 0.1},
    {"lr": 0.01, "weight_decay": 0.2, "amsgrad": True},
    {"lr": 0.02, "weight_decay": 0.05, "maximize": True, "betas": (0.85, 0.99)},
]


def _cases():
    for index, kwargs in enumerate(SGD_CASES):
        yield pytest.param("SGD", kwargs, id=f"SGD-{index}")
    for index, kwargs in enumerate(ADAM_CASES):
        yield pytest.param("Adam", kwargs, id=f"Adam-{index}")
    for index, kwargs in enumerate(ADAMW_CASES):
        yield pytest.param("AdamW", kwargs, id=f"AdamW-{index}")


@pytest.mark.parametrize("mode", ["grad", "call"])
@pytest.mark.parametrize("name, kwargs", list(_cases()))
def test_float64_updates_match_torch(torch, name, kwargs, mode):
    init, grads = problem(seed=len(kwargs) * 7 + len(name))
    mine, opt, params = run_unigrad(lambda p: getattr(optim, name)(p, **kwargs), init, grads, mode)
    theirs, topt, tparams = run_torch(torch, lambda p: getattr(torch.optim, name)(p, **kwargs),
                                      init, grads)
    assert_histories_close(mine, theirs, np.float64)
    # the per-parameter state has PyTorch's names and values
    for p, tp in zip(params, tparams):
        assert set(opt.state[p]) == set(topt.state[tp])
        for key, value in opt.state[p].items():
            np.testing.assert_allclose(value.numpy(), topt.state[tp][key].numpy(), rtol=1e-12,
                                       atol=1e-14, err_msg=key)
    # the hyper-parameters of the groups are PyTorch's (PyTorch has a few more flags)
    mine_group = opt.state_dict()["param_groups"][0]
    torch_group = topt.state_dict()["param_groups"][0]
    for key, value in mine_group.items():
        assert torch_group[key] == value, key


@pytest.mark.parametrize("name, kwargs", [
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1}),
    ("AdamW", {"lr": 0.01, "weight_decay": 0.1, "maximize": True}),
])
@pytest.mark.parametrize("mode", ["grad", "call"])
def test_float32_updates_match_torch(torch, name, kwargs, mode):
    init, grads = problem(seed=3, dtype=np.float32)
    mine, _, params = run_unigrad(lambda p: getattr(optim, name)(p, **kwargs), init, grads, mode)
    theirs, _, _ = run_torch(torch, lambda p: getattr(torch.optim, name)(p, **kwargs), init,
                             grads)
    assert all(p.dtype.name == "float32" for p in params)
    assert_histories_close(mine, theirs, np.float32)


@pytest.mark.parametrize("name, kwargs", [
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("Adam", {"lr": 0.01}),
    ("AdamW", {"lr": 0.01, "amsgrad": True}),
])
@pytest.mark.parametrize("mode", ["grad", "call"])
def test_parameters_without_gradient_are_skipped_as_torch_does(torch, name, kwargs, mode):
    init, grads = problem(seed=11, skip=True)
    mine, opt, params = run_unigrad(lambda p: getattr(optim, name)(p, **kwargs), init, grads,
                                    mode)
    theirs, topt, tparams = run_torch(torch, lambda p: getattr(torch.optim, name)(p, **kwargs),
                                      init, grads)
    assert_histories_close(mine, theirs, np.float64)
    np.testing.assert_array_equal(mine[2][1], mine[1][1])  # untouched at the skipped step
    if "step" in opt.state[params[1]]:
        assert opt.state[params[1]]["step"].item() == topt.state[tparams[1]]["step"].item() == 5


@pytest.mark.parametrize("mode", ["grad", "call"])
@pytest.mark.parametrize("name, defaults, groups", [
    ("SGD", {"lr": 0.1, "momentum": 0.9},
     [{"lr": 0.3, "momentum": 0.5}, {"weight_decay": 0.2, "nesterov": True}]),
    ("Adam", {"lr": 0.01, "betas": (0.9, 0.99)},
     [{"lr": 0.3, "amsgrad": True}, {"weight_decay": 0.2, "eps": 1e-3}]),
    ("AdamW", {"lr": 0.01}, [{"lr": 0.05, "maximize": True}, {"weight_decay": 0.5}]),
])
def test_param_groups_with_their_own_hyper_parameters(torch, name, defaults, groups, mode):
    def grouped(params, flavour):
        spec = [{"params": params[:1], **groups[0]}, {"params": params[1:], **groups[1]}]
        return getattr(flavour, name)(spec, **defaults)

    init, grads = problem(seed=5)
    mine, opt, _ = run_unigrad(lambda p: grouped(p, optim), init, grads, mode)
    theirs, topt, _ = run_torch(torch, lambda p: grouped(p, torch.optim), init, grads)
    assert_histories_close(mine, theirs, np.float64)
    assert [g["lr"] for g in opt.param_groups] == [g["lr"] for g in topt.param_groups]


@pytest.mark.parametrize("nesterov", [False, True])
@pytest.mark.parametrize("mode", ["grad", "call"])
def test_mindspore_momentum_equals_torch_sgd_without_dampening(torch, nesterov, mode):
    """MindSpore's accumulator starts at 0, so its first value is the gradient: PyTorch's buffer."""
    init, grads = problem(seed=9)
    scale = 128.0
    scaled = [[g * scale for g in step] for step in grads]
    mine, _, _ = run_unigrad(
        lambda p: optim.Momentum(p, learning_rate=0.05, momentum=0.9, weight_decay=0.01,
                                 loss_scale=scale, use_nesterov=nesterov), init, scaled, mode)
    theirs, _, _ = run_torch(
        torch, lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, weight_decay=0.01,
                                         nesterov=nesterov), init, grads)
    assert_histories_close(mine, theirs, np.float64)


def test_repr_matches_torch(torch):
    init, _ = problem(seed=1)
    mine = repr(optim.SGD(make_params(init), lr=0.1, momentum=0.9))
    theirs = repr(torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1, momentum=0.9))
    assert mine == theirs  # PyTorch's implementation switches included (foreach, fused...)
