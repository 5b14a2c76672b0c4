"""The update rules against pure-NumPy re-implementations and hand computations (no torch)."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.optim as optim
from unigrad.nn.parameter import Parameter

from . import _reference as ref
from ._harness import assert_histories_close, problem, run_unigrad

MODES = ["grad", "call"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kwargs", [
    {"lr": 0.1},
    {"lr": 0.1, "momentum": 0.9},
    {"lr": 0.05, "momentum": 0.8, "dampening": 0.5, "weight_decay": 0.1},
    {"lr": 0.1, "momentum": 0.9, "nesterov": True},
    {"lr": 0.1, "momentum": 0.7, "weight_decay": 0.05, "maximize": True},
])
def test_sgd_matches_numpy(kwargs, mode):
    init, grads = problem(seed=21, skip=True)
    mine, _, _ = run_unigrad(lambda p: optim.SGD(p, **kwargs), init, grads, mode)
    assert_histories_close(mine, ref.sgd(init, grads, **kwargs), np.float64)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kwargs", [
    {"learning_rate": 0.1, "momentum": 0.9},
    {"learning_rate": 0.1, "momentum": 0.9, "use_nesterov": True},
    {"learning_rate": 0.05, "momentum": 0.5, "weight_decay": 0.1, "loss_scale": 64.0},
    {"learning_rate": [0.2, 0.1, 0.05], "momentum": 0.9},
    {"learning_rate": 0.1, "momentum": 0.0},
])
def test_momentum_matches_numpy(kwargs, mode):
    init, grads = problem(seed=22, skip=True)
    mine, _, _ = run_unigrad(lambda p: optim.Momentum(p, **kwargs), init, grads, mode)
    expected = ref.momentum(init, grads, kwargs["learning_rate"], kwargs["momentum"],
                            weight_decay=kwargs.get("weight_decay", 0.0),
                            loss_scale=kwargs.get("loss_scale", 1.0),
                            use_nesterov=kwargs.get("use_nesterov", False))
    assert_histories_close(mine, expected, np.float64)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name, kwargs", [
    ("Adam", {"lr": 0.01}),
    ("Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.02, "betas": (0.8, 0.95), "eps": 1e-6, "maximize": True}),
    ("AdamW", {"lr": 0.01, "weight_decay": 0.1}),
    ("AdamW", {"lr": 0.01, "weight_decay": 0.3, "amsgrad": True}),
])
def test_adam_matches_numpy(name, kwargs, mode):
    init, grads = problem(seed=23, skip=True)
    mine, _, _ = run_unigrad(lambda p: getattr(optim, name)(p, **kwargs), init, grads, mode)
    expected = ref.adam(init, grads, kwargs["lr"], betas=kwargs.get("betas", (0.9, 0.999)),
                        eps=kwargs.get("eps", 1e-8),
                        weight_decay=kwargs.get("weight_decay", 0.01 if name == "AdamW" else 0),
                        amsgrad=kwargs.get("amsgrad", False),
                        maximize=kwargs.get("maximize", False), decoupled=name == "AdamW")
    assert_histories_close(mine, expected, np.float64)


def test_float32_parameters_stay_float32_and_match_numpy():
    init, grads = problem(seed=24, dtype=np.float32)
    mine, opt, params = run_unigrad(lambda p: optim.Adam(p, lr=0.01), init, grads, "call")
    assert all(p.dtype == ug.float32 for p in params)
    assert all(opt.state[p]["exp_avg"].dtype == ug.float32 for p in params)
    expected = ref.adam([a.astype(np.float64) for a in init],
                        [[g.astype(np.float64) for g in step] for step in grads], 0.01)
    for a_params, b_params in zip(mine, expected):
        for a, b in zip(a_params, b_params):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------ hand computations

def test_momentum_by_hand():
    """w=1, grads 1, 2, -1; lr 0.1, momentum 0.9: accum 1, 2.9, 1.61."""
    w = Parameter(ug.tensor(1.0, dtype=ug.float64), name="w")
    opt = optim.Momentum([w], learning_rate=0.1, momentum=0.9)
    values = []
    for g in (1.0, 2.0, -1.0):
        assert opt((ug.tensor(g, dtype=ug.float64),)) is True
        values.append(w.item())
    np.testing.assert_allclose(values, [0.9, 0.61, 0.449], rtol=1e-14)
    assert opt.state[w]["momentum_buffer"].item() == pytest.approx(1.61, rel=1e-14)


def test_momentum_nesterov_and_weight_decay_by_hand():
    """w=2, g=1, wd=0.5 -> g'=2; accum=2; nesterov: w -= 0.1 * (2 + 0.9 * 2) = 0.38."""
    w = Parameter(ug.tensor(2.0, dtype=ug.float64), name="w")
    opt = optim.Momentum([w], learning_rate=0.1, momentum=0.9, weight_decay=0.5,
                         use_nesterov=True)
    opt((ug.tensor(1.0, dtype=ug.float64),))
    assert w.item() == pytest.approx(2.0 - 0.38, rel=1e-14)


def test_momentum_skips_weight_decay_of_norm_parameters_like_mindspore():
    gamma = Parameter(ug.tensor([1.0], dtype=ug.float64), name="bn.gamma")
    beta = Parameter(ug.tensor([1.0], dtype=ug.float64), name="bn.beta")
    weight = Parameter(ug.tensor([1.0], dtype=ug.float64), name="fc.weight")
    zero = ug.zeros(1, dtype=ug.float64)
    opt = optim.Momentum([gamma, beta, weight], 0.1, 0.9, weight_decay=0.5)
    opt((zero, zero, zero))
    assert gamma.item() == beta.item() == 1.0
    assert weight.item() == pytest.approx(1.0 - 0.1 * 0.5)
    # with parameter groups, each group's weight_decay applies to all of its parameters
    gamma2 = Parameter(ug.tensor([1.0], dtype=ug.float64), name="bn.gamma")
    grouped = optim.Momentum([{"params": [gamma2], "weight_decay": 0.5}], 0.1, 0.9)
    grouped((zero,))
    assert gamma2.item() == pytest.approx(1.0 - 0.1 * 0.5)


def test_sgd_by_hand():
    """w=1, grads 1, 1: buffers 1, 1.5 (momentum 0.5): w = 0.9, then 0.75."""
    w = Parameter(ug.tensor([1.0], dtype=ug.float64))
    opt = optim.SGD([w], lr=0.1, momentum=0.5)
    opt([ug.tensor([1.0], dtype=ug.float64)])
    assert w.item() == pytest.approx(0.9, rel=1e-15)
    opt([ug.tensor([1.0], dtype=ug.float64)])
    assert w.item() == pytest.approx(0.75, rel=1e-15)


def test_adam_first_step_moves_by_lr_times_sign():
    """At t=1 the bias-corrected update is lr * g / (|g| + eps') ~ lr * sign(g)."""
    w = Parameter(ug.tensor([0.0, 0.0, 0.0], dtype=ug.float64))
    opt = optim.Adam([w], lr=0.1, eps=0.0)
    opt([ug.tensor([3.0, -0.5, 1e-3], dtype=ug.float64)])
    np.testing.assert_allclose(w.detach().numpy(), [-0.1, 0.1, -0.1], rtol=1e-12)
    assert opt.state[w]["step"].item() == 1.0


def test_adamw_decay_is_decoupled_from_the_moments():
    w = Parameter(ug.tensor([2.0], dtype=ug.float64))
    opt = optim.AdamW([w], lr=0.1, weight_decay=0.5)
    opt([ug.zeros(1, dtype=ug.float64)])
    assert w.item() == pytest.approx(2.0 * (1 - 0.05), rel=1e-15)
    assert opt.state[w]["exp_avg"].item() == 0.0 and opt.state[w]["exp_avg_sq"].item() == 0.0
    l2 = Parameter(ug.tensor([2.0], dtype=ug.float64))
    adam = optim.Adam([l2], lr=0.1, weight_decay=0.5)
    adam([ug.zeros(1, dtype=ug.float64)])
    assert adam.state[l2]["exp_avg"].item() == pytest.approx(0.1 * 0.5 * 2.0)


def test_loss_scale_divides_gradients_in_every_optimizer():
    for cls, kwargs in [(optim.SGD, {"lr": 0.1, "momentum": 0.9}),
                        (optim.Adam, {"lr": 0.1}), (optim.AdamW, {"lr": 0.1})]:
        plain = Parameter(ug.tensor([1.0, -1.0], dtype=ug.float64))
        scaled = Parameter(ug.tensor([1.0, -1.0], dtype=ug.float64))
        a, b = cls([plain], **kwargs), cls([scaled], loss_scale=1024.0, **kwargs)
        for g in ([0.5, 0.25], [-1.0, 2.0]):
            a([ug.tensor(g, dtype=ug.float64)])
            b([ug.tensor(g, dtype=ug.float64) * 1024.0])
        np.testing.assert_allclose(plain.detach().numpy(), scaled.detach().numpy(), rtol=1e-14)


# ------------------------------------------------------------------ in-place contract

@pytest.mark.parametrize("cls, kwargs", [
    (optim.SGD, {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.1}),
    (optim.Momentum, {"learning_rate": 0.1, "momentum": 0.9}),
    (optim.Adam, {"lr": 0.1, "amsgrad": True}),
    (optim.AdamW, {"lr": 0.1}),
])
def test_updates_are_in_place_and_bump_the_version(cls, kwargs):
    w = Parameter(ug.tensor([1.0, 2.0]), name="w")
    storage = w._data
    before = w._version
    opt = cls([w], **kwargs)
    w.grad = ug.tensor([0.5, -0.5])
    opt.step()
    opt([ug.tensor([0.5, -0.5])])
    assert w._data is storage
    assert w._version >= before + 2
    assert w.requires_grad and w.is_leaf and w.grad_fn is None
    assert not np.allclose(w.detach().numpy(), [1.0, 2.0])
    for value in opt.state[w].values():
        assert isinstance(value, ug.Tensor) and not value.requires_grad


def test_the_update_is_not_recorded_even_under_enable_grad():
    w = Parameter(ug.tensor([1.0, 2.0]))
    opt = optim.SGD([w], lr=0.1, momentum=0.9)
    (w * w).sum().backward()
    with ug.enable_grad():
        opt.step()
    assert w.grad_fn is None and opt.state[w]["momentum_buffer"].grad_fn is None
    # the gradient itself was not modified by the update
    np.testing.assert_allclose(w.grad.numpy(), [2.0, 4.0])


def test_momentum_buffer_is_a_copy_of_the_first_gradient():
    w = Parameter(ug.tensor([1.0, 2.0]))
    opt = optim.SGD([w], lr=0.1, momentum=0.9)
    w.grad = ug.tensor([1.0, 1.0])
    opt.step()
    buf = opt.state[w]["momentum_buffer"]
    assert buf._data is not w.grad._data
    w.grad.zero_()
    np.testing.assert_allclose(buf.numpy(), [1.0, 1.0])


def test_dynamic_learning_rate_uses_min_of_step_and_last_entry():
    w = Parameter(ug.tensor([0.0], dtype=ug.float64))
    opt = optim.SGD([w], learning_rate=ug.tensor([0.5, 0.25], dtype=ug.float64))
    assert opt.param_groups[0]["lr"] == (0.5, 0.25)
    seen = []
    for _ in range(4):
        seen.append(opt.get_lr())
        opt([ug.tensor([-1.0], dtype=ug.float64)])
    assert seen == [0.5, 0.25, 0.25, 0.25]
    assert w.item() == pytest.approx(0.5 + 0.25 * 3)
    assert opt.global_step == 4


def test_gradient_of_another_dtype_is_cast_to_the_parameter_dtype():
    w = Parameter(ug.tensor([1.0, 2.0]))  # float32
    opt = optim.SGD([w], lr=0.5, momentum=0.9)
    opt([ug.tensor([1.0, 1.0], dtype=ug.float64)])
    assert w.dtype == ug.float32
    assert opt.state[w]["momentum_buffer"].dtype == ug.float32
    np.testing.assert_allclose(w.detach().numpy(), [0.5, 1.5])
