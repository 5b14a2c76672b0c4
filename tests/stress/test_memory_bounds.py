"""Long training loops hold a bounded amount of memory: 1,000 steps with ``create_graph=True``
and 1,000 ``ug.jit``-compiled steps; a leaf's ``.grad`` does not keep the graph alive."""

from __future__ import annotations

import gc
import tracemalloc
import weakref

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn

pytestmark = pytest.mark.stress

STEPS = 1_000
FIRST_MEASURE = 100
# Bounds on the growth of traced memory between step 100 and step 1,000. Keeping each step's
# graph (a leak) grows the PINN loop by about 8.7 MB and keeping each jitted step's loss
# tensor grows the jitted loop by about 170 KB (both measured); a healthy loop grows by a few
# hundred bytes, plus bounded caches (unigrad's float-constant cache holds at most 512 entries).
CREATE_GRAPH_GROWTH_LIMIT = 512 * 1024
JIT_GROWTH_LIMIT = 64 * 1024


def traced_growth(step, steps: int = STEPS) -> int:
    """Bytes of traced memory allocated by ``step(index)`` between step 100 and the last step
    and not freed."""
    measured = {}
    tracemalloc.start()
    try:
        for index in range(1, steps + 1):
            step(index)
            if index in (FIRST_MEASURE, steps):
                gc.collect()
                measured[index] = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return measured[steps] - measured[FIRST_MEASURE]


def record(losses: list, index: int, loss) -> None:
    """Keep the first loss and every 100th: a list of 1,000 floats would itself be growth."""
    if index <= 1 or index % 100 == 0:
        losses.append(loss.item())


def pinn_problem():
    """u(x) with u' = cos(x) and u(-1) = 0: a gradient penalty needs create_graph=True."""
    ug.manual_seed(0)
    model = nn.Sequential(nn.Linear(1, 8, dtype=ug.float64), nn.Tanh(),
                          nn.Linear(8, 1, dtype=ug.float64))
    optimizer = ug.optim.Adam(model.parameters(), lr=1e-2)
    points = ug.tensor(np.linspace(-1.0, 1.0, 16).reshape(16, 1), dtype=ug.float64,
                       requires_grad=True)
    losses = []

    def step(index: int) -> None:
        optimizer.zero_grad()
        u = model(points)
        (slope,) = ug.autograd.grad(u.sum(), points, create_graph=True)
        loss = ((slope - points.cos()) ** 2).mean() + (u[0] ** 2).sum()
        loss.backward()
        optimizer.step()
        record(losses, index, loss)

    return step, losses, model


def test_create_graph_training_loop_memory_is_bounded():
    step, losses, model = pinn_problem()
    growth = traced_growth(step)
    assert growth < CREATE_GRAPH_GROWTH_LIMIT, f"grew by {growth} bytes"
    assert losses[-1] < 1e-2 * losses[0]
    for parameter in model.parameters():
        assert parameter.grad.grad_fn is None  # create_graph only inside autograd.grad


def mindspore_style_step(model, optimizer, loss_function):
    value_and_gradients = ug.value_and_grad(lambda x, y: loss_function(model(x), y), None,
                                            optimizer.parameters)

    def train_step(x, y):
        loss, gradients = value_and_gradients(x, y)
        optimizer(gradients)
        return loss

    return train_step


def pytorch_style_step(model, optimizer, loss_function):
    def train_step(x, y):
        optimizer.zero_grad()
        loss = loss_function(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.detach()

    return train_step


def jitted_problem(style):
    ug.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    optimizer = ug.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    train_step = ug.jit(style(model, optimizer, nn.MSELoss()))
    generator = np.random.default_rng(0)
    inputs = ug.from_numpy(generator.standard_normal((16, 4)).astype(np.float32))
    targets = ug.from_numpy(generator.standard_normal((16, 1)).astype(np.float32))
    losses = []

    def step(index: int) -> None:
        record(losses, index, train_step(inputs, targets))

    return step, losses, train_step


@pytest.mark.parametrize("style", [mindspore_style_step, pytorch_style_step],
                         ids=["value_and_grad", "backward"])
def test_jitted_training_loop_memory_is_bounded(style):
    step, losses, train_step = jitted_problem(style)
    for _ in range(3):  # compiled before tracemalloc starts (tracing is slow under tracemalloc)
        step(0)
    growth = traced_growth(step)
    assert growth < JIT_GROWTH_LIMIT, f"grew by {growth} bytes"
    assert train_step.trace_count <= 2
    assert losses[-1] < 0.5 * losses[0]


def test_backward_frees_the_graph_and_grad_does_not_keep_it_alive():
    x = ug.tensor([0.5, 1.0, 2.0], dtype=ug.float64, requires_grad=True)
    y = (x.sin() * x).exp().sum()
    root, inner = weakref.ref(y.grad_fn), weakref.ref(y.grad_fn.next_functions[0][0])
    y.backward()
    assert x.grad.grad_fn is None and not x.grad.requires_grad
    del y
    gc.collect()
    assert root() is None and inner() is None
    values = np.array([0.5, 1.0, 2.0])
    expected = np.exp(np.sin(values) * values) * (np.cos(values) * values + np.sin(values))
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-12)


def test_grad_with_create_graph_keeps_its_graph_only_while_it_lives():
    x = ug.tensor([0.5, 1.0, 2.0], dtype=ug.float64, requires_grad=True)
    y = (x ** 3).sum()
    root = weakref.ref(y.grad_fn)
    with pytest.warns(UserWarning, match="reference cycle"):  # as in PyTorch
        y.backward(create_graph=True)
    del y
    gc.collect()
    assert x.grad.grad_fn is not None
    np.testing.assert_allclose(x.grad.detach().numpy(), [0.75, 3.0, 12.0], rtol=1e-12)
    gradient_node = weakref.ref(x.grad.grad_fn)
    x.grad = None
    gc.collect()
    assert root() is None and gradient_node() is None


def test_autograd_grad_frees_the_graph_without_retain_graph():
    x = ug.tensor([0.5, 1.0], dtype=ug.float64, requires_grad=True)
    y = (x.tanh() * x).sum()
    node = weakref.ref(y.grad_fn)
    (gradient,) = ug.autograd.grad(y, x)
    del y
    gc.collect()
    assert node() is None
    assert gradient.grad_fn is None and x.grad is None
