"""Deep graphs: 100k-op chains, 10k-view chains, thousands of modules, deleting and printing
deep graphs; no RecursionError and exact values everywhere."""

from __future__ import annotations

import gc
import sys
import weakref

import numpy as np
import pytest

import unigrad as ug
from unigrad.autograd.node import Node

pytestmark = pytest.mark.stress

STEP = 3e-5  # y <- y + STEP * sin(y): the derivative stays O(1) over tens of thousands of steps
LONG_STEPS = 33_334  # three ops a step: a 100k-op chain
SHORT_STEPS = 3_334  # a 10k-op chain for create_graph=True


def chain(x, steps: int):
    y = x
    for _ in range(steps):
        y = y + y.sin() * STEP
    return y


def chain_reference(start: float, steps: int) -> tuple:
    """The chain's value and its first and second derivatives, by forward recurrence."""
    y, first, second = start, 1.0, 0.0
    for _ in range(steps):
        slope = 1.0 + STEP * np.cos(y)
        second = slope * second - STEP * np.sin(y) * first * first
        first = slope * first
        y = y + STEP * np.sin(y)
    return y, first, second


def leaf(value: float = 0.7):
    return ug.tensor(value, dtype=ug.float64, requires_grad=True)


def test_100k_op_chain_backward_and_autograd_grad():
    x = leaf()
    y = chain(x, LONG_STEPS)
    value, first, _ = chain_reference(0.7, LONG_STEPS)
    assert first > 1.5  # the chain really changes the gradient
    np.testing.assert_allclose(y.item(), value, rtol=1e-12)
    (gradient,) = ug.autograd.grad(y, x, retain_graph=True)
    np.testing.assert_allclose(gradient.item(), first, rtol=1e-10)
    assert x.grad is None
    y.backward()
    np.testing.assert_allclose(x.grad.item(), first, rtol=1e-10)
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        y.backward()


def test_10k_op_chain_with_create_graph_gives_second_derivative():
    x = leaf()
    y = chain(x, SHORT_STEPS)
    _, first, second = chain_reference(0.7, SHORT_STEPS)
    (gradient,) = ug.autograd.grad(y, x, create_graph=True)
    assert gradient.requires_grad
    np.testing.assert_allclose(gradient.item(), first, rtol=1e-10)
    gradient.backward()
    assert abs(second) > 1e-3
    np.testing.assert_allclose(x.grad.item(), second, rtol=1e-9)


def test_create_graph_through_a_long_relu_chain():
    x = leaf()
    y = x
    for _ in range(SHORT_STEPS):
        y = (y + y.sin() * STEP).relu()  # y stays positive: relu is the identity here
    _, first, second = chain_reference(0.7, SHORT_STEPS)
    (gradient,) = ug.autograd.grad(y, x, create_graph=True)
    assert gradient.requires_grad
    np.testing.assert_allclose(gradient.item(), first, rtol=1e-10)
    (curvature,) = ug.autograd.grad(gradient, x)
    np.testing.assert_allclose(curvature.item(), second, rtol=1e-9)


def test_second_derivative_of_relu_alone_is_zero():
    x = ug.tensor([-1.0, 0.5, 2.0], dtype=ug.float64, requires_grad=True)
    (gradient,) = ug.autograd.grad(x.relu().sum(), x, create_graph=True)
    np.testing.assert_array_equal(gradient.detach().numpy(), [0.0, 1.0, 1.0])
    assert gradient.requires_grad  # as in PyTorch: the gradient is a function of x
    (curvature,) = ug.autograd.grad(gradient.sum(), x)
    np.testing.assert_array_equal(curvature.numpy(), [0.0, 0.0, 0.0])


def test_functional_grad_of_a_long_python_loop():
    def function(a):
        return chain(a, SHORT_STEPS)

    _, first, _ = chain_reference(0.7, SHORT_STEPS)
    np.testing.assert_allclose(ug.grad(function)(ug.tensor(0.7, dtype=ug.float64)).item(),
                               first, rtol=1e-10)


def view_chain(tensor, length: int):
    """Alternate ``view((2, 2))`` and ``view((4,))`` ``length`` times."""
    for index in range(length):
        tensor = tensor.view((2, 2)) if index % 2 == 0 else tensor.view((4,))
    return tensor


VIEW_LENGTHS = [1, 2, 3, 10_000, 10_001]


@pytest.mark.parametrize("length", VIEW_LENGTHS)
def test_in_place_on_the_base_is_seen_by_the_last_view_of_a_long_view_chain(length):
    source = ug.tensor([1.0, 2.0, 3.0, 4.0], dtype=ug.float64, requires_grad=True)
    base = source * 1.0
    last = view_chain(base, length)
    assert last.shape == ((4,) if length % 2 == 0 else (2, 2))
    base.mul_(ug.tensor([2.0, 3.0, 4.0, 5.0], dtype=ug.float64))
    np.testing.assert_array_equal(last.detach().numpy().reshape(-1), [2.0, 6.0, 12.0, 20.0])
    (last * last).sum().backward()
    # d/ds sum((s * m)^2) = 2 s m^2
    np.testing.assert_array_equal(source.grad.numpy(), [8.0, 36.0, 96.0, 200.0])


@pytest.mark.parametrize("length", VIEW_LENGTHS)
def test_in_place_on_the_last_view_flows_back_through_the_base(length):
    source = ug.tensor([1.0, 2.0, 3.0, 4.0], dtype=ug.float64, requires_grad=True)
    base = source * 1.0
    last = view_chain(base, length)
    scale = ug.tensor(np.arange(2.0, 6.0).reshape(last.shape), dtype=ug.float64,
                      requires_grad=True)
    last.mul_(scale)
    np.testing.assert_array_equal(base.detach().numpy(), [2.0, 6.0, 12.0, 20.0])
    (base * base).sum().backward()
    np.testing.assert_array_equal(source.grad.numpy(), [8.0, 36.0, 96.0, 200.0])
    # d/dm sum((s * m)^2) = 2 s^2 m
    np.testing.assert_array_equal(scale.grad.numpy().reshape(-1), [4.0, 24.0, 72.0, 160.0])


def copy_into(module, reference) -> None:
    """Give a unigrad module the parameters of a torch module with the same structure."""
    with ug.no_grad():
        for (name, parameter), (torch_name, torch_parameter) in zip(
                module.named_parameters(), reference.named_parameters()):
            assert name == torch_name
            parameter.copy_(ug.tensor(torch_parameter.detach().numpy(), dtype=ug.float64))


def flat_sequential(library, count: int):
    layers = [library.nn.Identity() if index % 2 else library.nn.Linear(3, 3, dtype=library.float64)
              for index in range(count)]
    return library.nn.Sequential(*layers)


def test_sequential_of_2000_modules_matches_torch():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    reference = flat_sequential(torch, 2_000)
    with torch.no_grad():
        for layer in reference[::2]:  # near-identity layers keep 1,000 products bounded
            layer.weight.copy_(torch.eye(3, dtype=torch.float64) + 0.01 * layer.weight)
            layer.bias.mul_(0.01)
    module = flat_sequential(ug, 2_000)
    copy_into(module, reference)
    assert list(module.state_dict()) == list(reference.state_dict())
    assert repr(module) == repr(reference)
    inputs = np.linspace(-1.0, 1.0, 6).reshape(2, 3)
    expected = reference(torch.tensor(inputs))
    expected.pow(2).sum().backward()
    output = module(ug.tensor(inputs, dtype=ug.float64))
    output.pow(2).sum().backward()
    np.testing.assert_allclose(output.detach().numpy(), expected.detach().numpy(), rtol=1e-10)
    for parameter, torch_parameter in zip(module.parameters(), reference.parameters()):
        np.testing.assert_allclose(parameter.grad.numpy(), torch_parameter.grad.numpy(),
                                   rtol=1e-9, atol=1e-12)


def nested_sequential(library, depth: int):
    module = library.nn.Linear(2, 2, dtype=library.float64)
    for _ in range(depth):
        module = library.nn.Sequential(library.nn.Identity(), module)
    return module


def run_nested(library, depth: int) -> tuple:
    module = nested_sequential(library, depth)
    innermost = module.get_submodule(".".join(["1"] * depth))
    with library.no_grad():
        innermost.weight.fill_(2.0)
        innermost.bias.fill_(0.5)
    output = module(library.ones(1, 2, dtype=library.float64))
    return list(module.state_dict()), output.detach().numpy()


def test_nested_sequential_100_deep():
    keys, output = run_nested(ug, 100)
    assert keys == [".".join(["1"] * 100 + ["weight"]), ".".join(["1"] * 100 + ["bias"])]
    np.testing.assert_array_equal(output, [[4.5, 4.5]])


def test_nested_sequential_200_deep_runs_like_torch():
    torch = pytest.importorskip("torch")
    try:
        torch_keys, torch_output = run_nested(torch, 200)
    except RecursionError:  # a deeper stack than pytest's usual one: nothing to compare
        pytest.skip("torch itself runs out of stack here")
    keys, output = run_nested(ug, 200)
    assert keys == torch_keys
    np.testing.assert_array_equal(output, torch_output)


def capture_unraisable(monkeypatch) -> list:
    """Exceptions raised where Python cannot propagate them (``__del__``, weakref callbacks)."""
    seen: list = []
    monkeypatch.setattr(sys, "unraisablehook", lambda report: seen.append(report.exc_value))
    return seen


def additions(x, steps: int):
    y = x
    for _ in range(steps):
        y = y + 1.0
    return y


def test_deleting_a_100k_node_graph(monkeypatch):
    errors = capture_unraisable(monkeypatch)
    x = leaf(0.0)
    y = additions(x, 100_000)
    first_node = weakref.ref(y.grad_fn)
    deepest = y.grad_fn
    for _ in range(99_999):
        deepest = deepest.next_functions[0][0]
    deepest_node = weakref.ref(deepest)
    del deepest
    np.testing.assert_array_equal(y.item(), 100_000.0)
    del y
    gc.collect()
    assert first_node() is None and deepest_node() is None
    assert errors == []


def test_deleting_a_30k_node_graph_after_backward_with_retain_graph(monkeypatch):
    errors = capture_unraisable(monkeypatch)
    x = leaf(0.0)
    y = additions(x, 30_000)
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.item() == 2.0
    node = weakref.ref(y.grad_fn)
    del y
    gc.collect()
    assert node() is None
    assert errors == []


def test_repr_of_deep_graph_nodes():
    x = leaf(1.0)
    y = additions(x, 100_000) * 2.0
    assert repr(y) == "tensor(200002., dtype=unigrad.float64, grad_fn=<MulBackward0>)"
    assert repr(y.grad_fn).startswith("<MulBackward0 object at ")
    assert y.grad_fn.name() == "MulBackward0"
    node, names = y.grad_fn, []
    while isinstance(node, Node) and node.next_functions:
        names.append(node.name())
        node = node.next_functions[0][0]
    assert names == ["MulBackward0"] + ["AddBackward0"] * 100_000
    assert repr(node).startswith("<AccumulateGrad object at ")
    assert node.variable is x
