"""ug.jit and threads: tracing never modifies the tensors it reads, so eager code in other
threads keeps working on them while functions compile, and the cache is shared safely."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn
from unigrad.graph import ConcretizationError
from unigrad.graph.tracer import Tracer, current_trace

TIMEOUT = 60.0  # seconds any thread waits for another before the test fails
THREADS = 8


def make_model(seed: int = 0):
    """A small MLP with seeded weights."""
    ug.manual_seed(seed)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))


def batch(seed: int = 3):
    """One seeded (inputs, targets) batch."""
    rng = np.random.default_rng(seed)
    return (ug.from_numpy(rng.standard_normal((16, 4)).astype(np.float32)),
            ug.from_numpy(rng.standard_normal((16, 1)).astype(np.float32)))


def snapshot(model) -> list:
    """Everything a trace could disturb, per parameter: the objects and copies of the values."""
    for p in model.parameters():
        p.detach()  # gives each its version counter (eager detach() creates it on first use)
    return [(p, p._data, p._data.copy(), p._grad, None if p._grad is None else p._grad._data.copy(),
             p._grad_fn, p._requires_grad, p._extra, p._vc, p._version)
            for p in model.parameters()]


def assert_untouched(state: list) -> None:
    for (p, data, values, grad, grad_values, grad_fn, requires_grad, extra, counter,
         version) in state:
        assert type(p._data) is np.ndarray and p._data is data
        np.testing.assert_array_equal(p._data, values)
        assert p._grad is grad and p._grad_fn is grad_fn and p._extra is extra
        assert p._requires_grad is requires_grad and p._vc is counter and p._version == version
        if grad is not None:
            assert type(grad._data) is np.ndarray
            np.testing.assert_array_equal(grad._data, grad_values)


def run_threads(targets: list) -> None:
    """Run each callable in its own thread; re-raise the first failure."""
    errors = []

    def guarded(target):
        try:
            target()
        except BaseException as error:  # noqa: BLE001 - reported in the main thread
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(target,)) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a thread did not finish"
    if errors:
        raise errors[0]


def eager_reader(model, x, expected, state, stop: threading.Event, progress=None,
                 max_rounds: int = 100_000):
    """Forward passes and reads of the parameters until ``stop`` (bounded), all checked."""
    def read():
        for rounds in range(max_rounds):
            with ug.no_grad():
                out = model(x)
            assert type(out._data) is np.ndarray
            np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
            for p in model.parameters():
                assert type(p.data._data) is np.ndarray and not isinstance(p._data, Tracer)
                grad = p.grad
                assert grad is None or type(grad._data) is np.ndarray
                float(p.detach().sum())
            assert_untouched(state)
            if progress is not None and rounds == 20:
                progress.set()
            if stop.is_set() and rounds >= 20:
                return
        raise AssertionError("the reader never saw the compiling thread finish")
    return read


# ----------------------------------------------------------------------------- the view


def test_user_tensors_are_the_same_objects_and_values_inside_the_trace():
    model = make_model()
    optimizer = ug.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loss_fn = nn.MSELoss()
    x, y = batch()
    loss_fn(model(x), y).backward()  # every parameter has a .grad before the trace
    state = snapshot(model)
    seen = {}

    def step(x, y):
        optimizer.zero_grad(set_to_none=False)
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        if current_trace() is not None:
            weight = model[0].weight
            seen["grad"] = weight.grad  # the traced .grad
            seen["data"] = weight._data
            assert_untouched(state)  # after the in-place update and the .grad writes
        return loss.detach()

    compiled = ug.jit(step)
    compiled(x, y)
    assert isinstance(seen["grad"]._data, Tracer) and seen["data"] is state[0][1]
    # the compiled call replayed the update and the .grad writes on the real tensors
    reference = make_model()
    reference_optimizer = ug.optim.SGD(reference.parameters(), lr=0.1, momentum=0.9)
    loss_fn(reference(x), y).backward()
    reference_optimizer.zero_grad(set_to_none=False)
    loss_fn(reference(x), y).backward()
    reference_optimizer.step()
    for got, want in zip(model.parameters(), reference.parameters()):
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-6)
        np.testing.assert_allclose(got.grad.numpy(), want.grad.numpy(), rtol=1e-6)
        assert got._version > 0


def test_grad_assignment_inside_the_trace_is_replayed_not_applied():
    weight = nn.Parameter(ug.tensor([1.0, 2.0]))
    during = []

    def f(x):
        weight.grad = x * 2.0
        during.append(weight._grad)
        return weight * x

    out = ug.jit(f)(ug.tensor([3.0, 4.0]))
    assert during == [None]  # the tensor itself was not written while tracing
    assert out.tolist() == [3.0, 8.0] and weight.grad.tolist() == [6.0, 8.0]


def test_reading_a_captured_tensor_as_a_python_value_is_a_concretization_error():
    weight = nn.Parameter(ug.tensor([1.0, 2.0]))
    scale = ug.tensor(3.0)
    reads = [lambda: float(scale), lambda: scale.item(), lambda: bool(scale), lambda: int(scale),
             lambda: weight.tolist(), lambda: weight.detach().numpy(),
             lambda: np.asarray(weight.data)]
    for read in reads:
        def f(x, read=read):
            y = weight * scale + x  # both are graph inputs now
            read()
            return y
        with pytest.raises(ConcretizationError, match="traced value"):
            ug.jit(f)(ug.ones(2))
    assert weight.tolist() == [1.0, 2.0] and scale.item() == 3.0
    assert weight._version == 0 and scale._version == 0


def test_differentiated_in_place_write_to_an_outside_tensor_is_refused_untouched():
    buffer = ug.zeros(2)
    weight = nn.Parameter(ug.tensor([1.0, 2.0]))

    def f(x):
        buffer.copy_(weight * x)  # would give the buffer a gradient history
        return buffer.sum()

    with pytest.raises(NotImplementedError, match="clone"):
        ug.jit(f)(ug.ones(2))
    assert buffer.tolist() == [0.0, 0.0] and buffer.grad_fn is None and buffer._version == 0


# ----------------------------------------------------------------------------- threads


def test_eager_threads_see_concrete_parameters_while_a_training_step_compiles():
    model = make_model()
    optimizer = ug.optim.Adam(model.parameters(), lr=0.05)
    loss_fn = nn.MSELoss()
    x, y = batch()
    loss_fn(model(x), y).backward()
    with ug.no_grad():
        expected = model(x).numpy().copy()
    state = snapshot(model)
    in_trace = threading.Event()
    readers_progressed = [threading.Event() for _ in range(3)]
    compiled_done = threading.Event()

    def step(x, y):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        if current_trace() is not None:  # parameters and .grad are updated in the trace now
            in_trace.set()
            for event in readers_progressed:
                assert event.wait(TIMEOUT)
        return loss.detach()

    jitted = ug.jit(step)

    def compile_step():
        try:
            jitted.lower(x, y)
        finally:
            compiled_done.set()

    def reader(progress):
        def run():
            assert in_trace.wait(TIMEOUT)
            eager_reader(model, x, expected, state, compiled_done, progress)()
        return run

    run_threads([compile_step] + [reader(event) for event in readers_progressed])
    assert jitted.trace_count == 1
    assert_untouched(state)
    # the compiled step now trains exactly like the eager one
    reference = make_model()
    reference_optimizer = ug.optim.Adam(reference.parameters(), lr=0.05)
    loss_fn(reference(x), y).backward()
    for _ in range(3):
        got = jitted(x, y).item()
        reference_optimizer.zero_grad()
        loss = loss_fn(reference(x), y)
        loss.backward()
        reference_optimizer.step()
        np.testing.assert_allclose(got, loss.item(), rtol=1e-5)
    for got, want in zip(model.parameters(), reference.parameters()):
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-5,
                                   atol=1e-6)
    assert jitted.trace_count <= 2  # once more when .grad first exists


def loss_and_grads(model, loss_fn, scale: float = 1.0):
    """``(x, y) -> (loss, gradients of the parameters)``: reads the parameters, writes nothing."""
    params = model.trainable_params()

    def forward(x, y):
        return loss_fn(model(x), y) * scale
    return ug.value_and_grad(forward, None, params)


def assert_results(got, want) -> None:
    """Equal losses and gradients."""
    loss, grads = got
    want_loss, want_grads = want
    np.testing.assert_allclose(loss.item(), want_loss.item(), rtol=1e-5)
    for g, w in zip(grads, want_grads):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-6)


def test_eight_threads_compile_the_same_function_once_while_eager_threads_run():
    model = make_model()
    loss_fn = nn.MSELoss()
    x, y = batch()
    data = [batch(seed) for seed in range(THREADS)]
    function = loss_and_grads(model, loss_fn)
    expected = [function(bx, by) for bx, by in data]
    with ug.no_grad():
        forward = model(x).numpy().copy()
    state = snapshot(model)
    jitted = ug.jit(function)
    start = threading.Barrier(THREADS + 2, timeout=TIMEOUT)
    done = threading.Event()
    finished = []
    lowered = []

    def compiler(index):
        def run():
            bx, by = data[index]
            start.wait()
            lowered.append(jitted.lower(bx, by))
            for _ in range(3):
                assert_results(jitted(bx, by), expected[index])
            finished.append(index)
            if len(finished) == THREADS:
                done.set()
        return run

    def reader():
        start.wait()
        eager_reader(model, x, forward, state, done)()

    run_threads([compiler(i) for i in range(THREADS)] + [reader, reader])
    assert sorted(finished) == list(range(THREADS))
    assert jitted.trace_count == 1 and len(jitted.reports) == 1
    assert all(compiled is lowered[0] for compiled in lowered)
    assert len(jitted._cache) == 1 and [len(v) for v in jitted._cache.values()] == [1]
    assert not jitted._compiling
    assert_untouched(state)


def test_eight_threads_trace_different_functions_over_the_same_parameters_at_once():
    model = make_model()
    loss_fn = nn.MSELoss()
    x, y = batch()
    functions = [loss_and_grads(model, loss_fn, scale=1.0 + index) for index in range(THREADS)]
    expected = [function(x, y) for function in functions]
    with ug.no_grad():
        forward = model(x).numpy().copy()
    state = snapshot(model)
    tracing = threading.Barrier(THREADS, timeout=TIMEOUT)  # all eight traces active at once
    start = threading.Barrier(THREADS + 2, timeout=TIMEOUT)
    done = threading.Event()
    finished = []

    def traced(function):
        def run(x, y):
            result = function(x, y)
            if current_trace() is not None:
                tracing.wait()
            return result
        return ug.jit(run)

    jitted = [traced(function) for function in functions]

    def compiler(index):
        def run():
            start.wait()
            for _ in range(3):
                assert_results(jitted[index](x, y), expected[index])
            finished.append(index)
            if len(finished) == THREADS:
                done.set()
        return run

    def reader():
        start.wait()
        eager_reader(model, x, forward, state, done)()

    run_threads([compiler(i) for i in range(THREADS)] + [reader, reader])
    assert sorted(finished) == list(range(THREADS))
    assert all(function.trace_count == 1 for function in jitted)
    assert_untouched(state)


def test_eight_threads_compile_a_training_step_without_disturbing_the_parameters():
    model = make_model()
    optimizer = ug.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loss_fn = nn.MSELoss()
    x, y = batch()
    with ug.no_grad():
        forward = model(x).numpy().copy()
    state = snapshot(model)

    def step(x, y):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.detach()

    jitted = ug.jit(step)
    start = threading.Barrier(THREADS + 1, timeout=TIMEOUT)
    done = threading.Event()
    lowered = []

    def compiler():
        start.wait()
        lowered.append(jitted.lower(x, y))
        if len(lowered) == THREADS:
            done.set()

    def reader():
        start.wait()
        eager_reader(model, x, forward, state, done)()

    run_threads([compiler] * THREADS + [reader])
    # the first trace creates the momentum buffers, which the optimizer's guard sees: one more
    assert jitted.trace_count <= 2 and len({id(c) for c in lowered}) == jitted.trace_count
    assert sum(len(v) for v in jitted._cache.values()) == jitted.trace_count
    assert_untouched(state)
    reference = make_model()
    reference_optimizer = ug.optim.SGD(reference.parameters(), lr=0.1, momentum=0.9)
    for _ in range(3):
        got = jitted(x, y).item()
        reference_optimizer.zero_grad()
        loss = loss_fn(reference(x), y)
        loss.backward()
        reference_optimizer.step()
        np.testing.assert_allclose(got, loss.item(), rtol=1e-5)
    for got, want in zip(model.parameters(), reference.parameters()):
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-5,
                                   atol=1e-6)
