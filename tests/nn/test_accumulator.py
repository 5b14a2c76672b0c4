"""GradAccumulator: k micro-batches of a 1/k-scaled mean loss give the full-batch gradient."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn


def make_problem():
    ug.manual_seed(3)
    x = ug.randn(32, 4, dtype=ug.float64)
    y = ug.randn(32, 2, dtype=ug.float64)
    model = nn.SequentialCell(nn.Dense(4, 8), nn.Tanh(), nn.Dense(8, 2)).to(ug.float64)
    return model, x, y


def test_summed_micro_batch_gradients_equal_the_full_batch_gradient():
    model, x, y = make_problem()
    loss_fn = nn.MSELoss()
    weights = model.trainable_params()
    steps = 4

    def micro_loss(data, label):
        return loss_fn(model(data), label) / steps

    full = ug.grad(lambda d, l: loss_fn(model(d), l), None, weights)(x, y)
    micro = ug.grad(micro_loss, None, weights)
    summed = [ug.zeros_like(w) for w in weights]
    for chunk in range(steps):
        part = slice(8 * chunk, 8 * chunk + 8)
        summed = [s + g for s, g in zip(summed, micro(x[part], y[part]))]
    for total, expected in zip(summed, full):
        np.testing.assert_allclose(total.numpy(), expected.numpy(), rtol=1e-12, atol=1e-14)


def test_accumulator_updates_like_one_full_batch_step():
    model, x, y = make_problem()
    twin, _, _ = make_problem()
    loss_fn = nn.MSELoss()
    steps = 4
    optimizer = ug.optim.SGD(model.trainable_params(), lr=0.5)
    accumulator = ug.GradAccumulator(optimizer, accumulate_steps=steps)
    grad_fn = ug.value_and_grad(lambda d, l: loss_fn(model(d), l) / steps, None,
                                model.trainable_params())
    ran = []
    for chunk in range(steps):
        part = slice(8 * chunk, 8 * chunk + 8)
        _, grads = grad_fn(x[part], y[part])
        ran.append(accumulator(grads))
    assert ran == [False, False, False, True] and accumulator.counter == 4
    assert all(float(abs(b).sum()) == 0.0 for b in accumulator.inner_grads)

    twin_optimizer = ug.optim.SGD(twin.trainable_params(), lr=0.5)
    twin_optimizer(ug.grad(lambda d, l: loss_fn(twin(d), l), None,
                           twin.trainable_params())(x, y))
    for mine, theirs in zip(model.parameters(), twin.parameters()):
        np.testing.assert_allclose(mine.numpy(force=True), theirs.numpy(force=True),
                                   rtol=1e-12, atol=1e-14)


def test_pytorch_style_step_accumulates_grad_attributes():
    model, x, y = make_problem()
    twin, _, _ = make_problem()
    loss_fn = nn.MSELoss()
    optimizer = ug.optim.SGD(model.parameters(), lr=0.5)
    accumulator = ug.GradAccumulator(optimizer, accumulate_steps=2)
    stepped = []
    for part in (slice(0, 16), slice(16, 32)):
        (loss_fn(model(x[part]), y[part]) / 2).backward()
        stepped.append(accumulator.step())
    assert stepped == [False, True] and all(p.grad is None for p in model.parameters())

    twin_optimizer = ug.optim.SGD(twin.parameters(), lr=0.5)
    loss_fn(twin(x), y).backward()
    twin_optimizer.step()
    for mine, theirs in zip(model.parameters(), twin.parameters()):
        np.testing.assert_allclose(mine.numpy(force=True), theirs.numpy(force=True),
                                   rtol=1e-12, atol=1e-14)


def test_accumulator_errors_leave_state_unchanged():
    model, x, y = make_problem()
    optimizer = ug.optim.SGD(model.trainable_params(), lr=0.5)
    with pytest.raises(ValueError, match="'accumulate_steps' must be a positive int"):
        ug.GradAccumulator(optimizer, 0)
    with pytest.raises(TypeError, match="'optimizer' must be a ug.optim optimizer"):
        ug.GradAccumulator([1, 2], 2)
    accumulator = ug.GradAccumulator(optimizer, 2)
    with pytest.raises(ValueError, match="got 1 gradients for 4 parameters"):
        accumulator((ug.zeros(2),))
    good = [ug.ones_like(p) for p in model.trainable_params()]
    bad = good[:-1] + [ug.ones(5)]
    with pytest.raises(ValueError, match=r"gradient 3 has shape \(5,\), expected \(2,\)"):
        accumulator(bad)
    assert accumulator.counter == 0
    assert all(float(abs(b).sum()) == 0.0 for b in accumulator.inner_grads)
    assert [b.name for b in accumulator.inner_grads] == [
        "accumulate_.0.weight", "accumulate_.0.bias", "accumulate_.2.weight",
        "accumulate_.2.bias"]
