"""A small MLP learns y = sin(3x) with each optimizer, in both calling styles."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.optim as optim
from unigrad.nn.parameter import Parameter

STEPS = 300
THRESHOLD = 0.01  # the initial loss is ~0.50; every optimizer below reaches ~0.002


def _problem():
    rng = np.random.default_rng(7)
    x = np.linspace(-1.0, 1.0, 64, dtype=np.float32).reshape(64, 1)
    y = np.sin(3.0 * x).astype(np.float32)
    params = [Parameter(ug.tensor(rng.normal(0.0, 1.0, (16, 1)).astype(np.float32)),
                        name="fc1.weight"),
              Parameter(ug.tensor(rng.normal(0.0, 0.5, 16).astype(np.float32)), name="fc1.bias"),
              Parameter(ug.tensor(rng.normal(0.0, 0.25, (1, 16)).astype(np.float32)),
                        name="fc2.weight"),
              Parameter(ug.zeros(1), name="fc2.bias")]

    def forward(x, y):
        w1, b1, w2, b2 = params
        hidden = ug.tanh(x @ w1.T + b1)
        return ((hidden @ w2.T + b2 - y) ** 2).mean()

    return params, forward, ug.tensor(x), ug.tensor(y)


@pytest.mark.parametrize("make", [
    lambda p: optim.SGD(p, lr=0.1, momentum=0.9),
    lambda p: optim.Adam(p, lr=0.02),
    lambda p: optim.AdamW(p, lr=0.02, weight_decay=1e-3),
], ids=["SGD-momentum", "Adam", "AdamW"])
def test_pytorch_style_training_converges(make):
    params, forward, x, y = _problem()
    opt = make(params)
    initial = forward(x, y).item()
    for _ in range(STEPS):
        opt.zero_grad()
        loss = forward(x, y)
        loss.backward()
        opt.step()
    final = forward(x, y).item()
    assert initial > 0.4
    assert final < THRESHOLD, (initial, final)


@pytest.mark.parametrize("make", [
    lambda p: optim.Momentum(p, learning_rate=0.1, momentum=0.9),
    lambda p: optim.Adam(p, learning_rate=0.02),
], ids=["Momentum", "Adam"])
def test_mindspore_style_training_converges(make):
    params, forward, x, y = _problem()
    opt = make(params)
    grad_fn = ug.value_and_grad(forward, None, opt.parameters)
    initial = forward(x, y).item()
    for _ in range(STEPS):
        loss, grads = grad_fn(x, y)
        assert opt(grads) is True
    final = forward(x, y).item()
    assert all(p.grad is None for p in params)  # the functional path never fills .grad
    assert initial > 0.4
    assert final < THRESHOLD, (initial, final)
