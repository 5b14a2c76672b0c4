"""Eight threads at once: tape autograd, functional transforms, ``ug.jit`` and optimizers each
give exactly the single-threaded answer; shared leaves accumulate every update; grad mode is
per thread."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn

pytestmark = pytest.mark.stress

THREADS = 8
TIMEOUT = 60.0  # seconds a thread waits at the barrier or the main thread waits for a join


@pytest.fixture(autouse=True)
def frequent_thread_switches():
    """Switch threads every 10 microseconds (Python's default is 5 ms) so that the threads'
    operations interleave finely."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(interval)


def run_in_threads(work, count: int = THREADS) -> list:
    """Start ``work(index)`` in ``count`` threads together; return their results by index and
    re-raise the first failure in the calling thread."""
    barrier = threading.Barrier(count, timeout=TIMEOUT)
    results: list = [None] * count
    errors: list = []

    def guarded(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except BaseException as error:  # re-raised in the main thread
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
        assert not thread.is_alive(), "a worker thread hung"
    if errors:
        raise errors[0]
    return results


def inputs_for(index: int) -> np.ndarray:
    """Distinct float64 inputs per thread."""
    return np.linspace(-1.0, 1.0, 6) * (index + 1) + 0.25 * index


def loss_of(x):
    return ((x.sin() * x).exp() + x * x).sum()


def tape_gradients(index: int) -> tuple:
    """``.backward()`` and ``ug.autograd.grad`` on a graph built by this thread."""
    x = ug.tensor(inputs_for(index), dtype=ug.float64, requires_grad=True)
    loss_of(x).backward()
    y = ug.tensor(inputs_for(index), dtype=ug.float64, requires_grad=True)
    (first,) = ug.autograd.grad(loss_of(y), y, create_graph=True)
    (second,) = ug.autograd.grad(first.sum(), y)
    return x.grad.numpy(), first.detach().numpy(), second.numpy()


def transform_gradients(index: int) -> tuple:
    """``ug.grad`` and ``ug.vjp`` of the same function."""
    x = ug.tensor(inputs_for(index), dtype=ug.float64)
    gradient = ug.grad(loss_of)(x)
    out, vjp_fn = ug.vjp(lambda a: (a.sin() * a).exp(), x)
    (cotangent,) = vjp_fn(ug.tensor(np.arange(6.0) + index, dtype=ug.float64))
    return gradient.numpy(), out.numpy(), cotangent.numpy()


def repeat_and_check(compute, index: int, repeats: int) -> tuple:
    """Run ``compute(index)`` ``repeats`` times; every run must give the same arrays."""
    first = compute(index)
    for _ in range(repeats - 1):
        again = compute(index)
        for a, b in zip(first, again):
            np.testing.assert_array_equal(a, b)
    return first


def assert_results_equal(results: list, expected: list) -> None:
    for got, want in zip(results, expected):
        assert len(got) == len(want)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)


def test_threads_build_their_own_graphs_and_backward():
    expected = [tape_gradients(i) for i in range(THREADS)]
    results = run_in_threads(lambda i: repeat_and_check(tape_gradients, i, 30))
    assert_results_equal(results, expected)
    x = inputs_for(2)
    np.testing.assert_allclose(
        expected[2][0], np.exp(np.sin(x) * x) * (np.cos(x) * x + np.sin(x)) + 2 * x, rtol=1e-12)


def test_threads_use_grad_and_vjp_transforms():
    expected = [transform_gradients(i) for i in range(THREADS)]
    results = run_in_threads(lambda i: repeat_and_check(transform_gradients, i, 30))
    assert_results_equal(results, expected)
    x = inputs_for(5)
    np.testing.assert_allclose(expected[5][1], np.exp(np.sin(x) * x), rtol=1e-12)


@ug.jit
def shared_jitted(a, b):
    return (a * b).sum(axis=-1).tanh() + a.mean()


def jit_shapes(index: int) -> tuple:
    """Shapes that differ between threads (and repeat between pairs of threads)."""
    return (index % 4 + 1, 3) if index % 2 else (index % 4 + 2,)


def jit_inputs(index: int, repeat: int) -> tuple:
    shape = jit_shapes(index)
    size = int(np.prod(shape))
    a = np.linspace(-1.0, 1.0, size).reshape(shape) * (index + 1) + repeat
    b = np.cos(np.arange(size, dtype=np.float64)).reshape(shape) + index
    return a, b


def jit_reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.tanh((a * b).sum(axis=-1)) + a.mean()


def test_threads_call_one_shared_jit_function_with_different_shapes_and_values():
    def work(index: int) -> list:
        outputs = []
        for repeat in range(20):
            a, b = jit_inputs(index, repeat)
            outputs.append(shared_jitted(ug.tensor(a, dtype=ug.float64),
                                         ug.tensor(b, dtype=ug.float64)).numpy())
        return outputs

    results = run_in_threads(work)
    for index in range(THREADS):
        for repeat in range(20):
            expected = jit_reference(*jit_inputs(index, repeat))
            assert results[index][repeat].shape == expected.shape
            np.testing.assert_allclose(results[index][repeat], expected, rtol=1e-12, atol=1e-12)


@ug.jit
@ug.grad
def shared_jitted_gradient(a):
    return (a.sin() * a).sum()


def test_threads_call_one_shared_jitted_gradient():
    def work(index: int) -> list:
        return [shared_jitted_gradient(ug.tensor(inputs_for(index)[: index % 3 + 2] + repeat,
                                                 dtype=ug.float64)).numpy()
                for repeat in range(20)]

    results = run_in_threads(work)
    for index in range(THREADS):
        for repeat in range(20):
            a = inputs_for(index)[: index % 3 + 2] + repeat
            np.testing.assert_allclose(results[index][repeat], np.cos(a) * a + np.sin(a),
                                       rtol=1e-12, atol=1e-12)


def train_model(index: int, steps: int = 15) -> list:
    """Own model, own Adam: returns the final parameters."""
    generator = np.random.default_rng(index)
    model = nn.Sequential(nn.Linear(4, 5, dtype=ug.float64), nn.Tanh(),
                          nn.Linear(5, 1, dtype=ug.float64))
    with ug.no_grad():
        for parameter in model.parameters():
            parameter.copy_(ug.tensor(generator.standard_normal(parameter.shape),
                                      dtype=ug.float64))
    optimizer = ug.optim.Adam(model.parameters(), lr=0.05)
    inputs = ug.tensor(generator.standard_normal((8, 4)), dtype=ug.float64)
    targets = ug.tensor(generator.standard_normal((8, 1)), dtype=ug.float64)
    for _ in range(steps):
        optimizer.zero_grad()
        ((model(inputs) - targets) ** 2).mean().backward()
        optimizer.step()
    return [parameter.detach().numpy().copy() for parameter in model.parameters()]


def test_threads_step_their_own_optimizers():
    expected = [train_model(i) for i in range(THREADS)]
    results = run_in_threads(train_model)
    assert_results_equal(results, expected)
    assert not np.array_equal(expected[0][0], expected[1][0])


def test_threads_backward_into_the_same_leaf_accumulate_the_exact_sum():
    shared = ug.tensor(np.zeros(10), dtype=ug.float64, requires_grad=True)
    repeats = 100
    # integer-valued contributions: the float64 sum is exact in any order
    rows = [np.arange(10.0) * (index + 1) + index for index in range(THREADS)]

    def work(index: int) -> None:
        x = ug.tensor(rows[index], dtype=ug.float64)
        for _ in range(repeats):
            (shared * x).sum().backward()
            (shared * shared * 0.5 * 0.0 + shared).sum().backward()

    run_in_threads(work)
    expected = repeats * (np.sum(rows, axis=0) + THREADS)
    np.testing.assert_array_equal(shared.grad.numpy(), expected)


def test_threads_backward_into_shared_module_parameters():
    layer = nn.Linear(3, 2, dtype=ug.float64)
    with ug.no_grad():
        layer.weight.copy_(ug.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]], dtype=ug.float64))
        layer.bias.copy_(ug.tensor([0.5, -0.5], dtype=ug.float64))
    batches = [np.full((2, 3), float(index)) for index in range(THREADS)]

    def work(index: int) -> None:
        for _ in range(25):
            layer(ug.tensor(batches[index], dtype=ug.float64)).sum().backward()

    run_in_threads(work)
    # d(sum)/dW[o, i] = sum over rows of x[:, i]; d/db = number of rows
    np.testing.assert_array_equal(layer.weight.grad.numpy(),
                                  np.full((2, 3), 25 * 2 * sum(range(THREADS))))
    np.testing.assert_array_equal(layer.bias.grad.numpy(), np.full(2, 25 * 2 * THREADS))


def test_no_grad_in_one_thread_does_not_disable_recording_in_another():
    inside = threading.Event()
    recorded = threading.Event()
    observed = {}

    def without_grad() -> None:
        with ug.no_grad():
            inside.set()
            assert recorded.wait(TIMEOUT)
            x = ug.tensor([1.0], requires_grad=True)
            observed["no_grad"] = ((x * 2).requires_grad, ug.is_grad_enabled())

    def with_grad() -> None:
        assert inside.wait(TIMEOUT)
        x = ug.tensor([3.0], dtype=ug.float64, requires_grad=True)
        y = x * x
        observed["grad"] = (y.requires_grad, ug.is_grad_enabled())
        y.sum().backward()
        observed["value"] = x.grad.item()
        recorded.set()

    run_in_threads(lambda i: (without_grad if i == 0 else with_grad)(), count=2)
    assert observed == {"no_grad": (False, False), "grad": (True, True), "value": 6.0}
    assert ug.is_grad_enabled()


def test_set_grad_enabled_is_per_thread():
    def work(index: int) -> list:
        enabled = index % 2 == 0
        seen = []
        ug.set_grad_enabled(enabled)
        try:
            for _ in range(50):
                x = ug.tensor([float(index)], requires_grad=True)
                seen.append((ug.is_grad_enabled(), (x.exp() * x).requires_grad))
        finally:
            ug.set_grad_enabled(True)
        return seen

    results = run_in_threads(work)
    for index, seen in enumerate(results):
        enabled = index % 2 == 0
        assert seen == [(enabled, enabled)] * 50
    assert ug.is_grad_enabled()
