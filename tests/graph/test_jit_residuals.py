"""A jitted call differentiated by the tape runs its forward once: the forward program
returns the residuals, the backward program reads them (issue 19, item 4)."""

from __future__ import annotations

import sys
import threading
import weakref

import numpy as np
import pytest

import unigrad as ug
from unigrad.graph.jit import _split_programs, _SplitPrograms

RANDOM = np.random.default_rng(0)


def leaf(*shape):
    return ug.tensor(RANDOM.standard_normal(shape).astype(np.float32), requires_grad=True)


def grads_of(function, tensors, seeds=None):
    """Run ``function(*tensors)`` eagerly and jitted and backward from its scalar result,
    or from ``sum(output * seed)`` over the outputs whose seed is not None; returns
    (eager grads, jit grads, the jitted function)."""
    jitted = ug.jit(function)
    collected = []
    for run in (function, jitted):
        copies = [t.detach().requires_grad_(t.requires_grad) for t in tensors]
        outputs = run(*copies)
        if seeds is None:
            total = outputs
        else:
            total = sum((out * seed).sum() for out, seed in zip(outputs, seeds)
                        if seed is not None)
        total.backward()
        collected.append([None if c.grad is None else c.grad.numpy() for c in copies])
    # the call ran the split programs (not the recomputing fallback)
    assert isinstance(jitted._last._split, _SplitPrograms)
    return collected[0], collected[1], jitted


def assert_same_grads(eager, graph):
    assert len(eager) == len(graph)
    for expected, actual in zip(eager, graph):
        if expected is None:
            assert actual is None
        else:
            np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)


def counting(program, calls, name):
    """Make ``program`` count its calls in ``calls[name]``."""
    function = program.function

    def counted(*arrays):
        calls[name] = calls.get(name, 0) + 1
        return function(*arrays)
    program.function = counted


# ----------------------------------------------------------------------------- values


def test_mlp_gradients_equal_eager():
    def mlp(x, w1, b1, w2, b2):
        hidden = ug.tanh(x @ w1 + b1)
        return ((hidden @ w2 + b2) ** 2).mean()
    tensors = [leaf(5, 4).detach(), leaf(4, 8), leaf(8), leaf(8, 3), leaf(3)]
    eager, graph, _ = grads_of(mlp, tensors)
    assert eager[0] is None
    assert_same_grads(eager, graph)


def test_a_jitted_module_trains_its_parameters_as_eager():
    model = ug.nn.Sequential(ug.nn.Linear(4, 6), ug.nn.Tanh(), ug.nn.Linear(6, 2))
    jitted = ug.jit(model)
    inputs = ug.tensor(RANDOM.standard_normal((5, 4)).astype(np.float32))
    grads = []
    for run in (model, jitted):
        model.zero_grad()
        (run(inputs) ** 2).mean().backward()
        grads.append([parameter.grad.numpy().copy() for parameter in model.parameters()])
    assert_same_grads(grads[0], grads[1])
    assert isinstance(jitted._last._split, _SplitPrograms)


def test_broadcasting_gradients_equal_eager():
    def broadcast(x, y, z):
        return ug.exp(x * y) / (1.0 + z * z)
    eager, graph, _ = grads_of(broadcast, [leaf(3, 1), leaf(1, 4), leaf()],
                               seeds=[ug.tensor(RANDOM.standard_normal((3, 4)).astype(np.float32))])
    assert_same_grads(eager, graph)


def test_integer_and_constant_outputs_among_the_results():
    def mixed(x, c):
        return (ug.sigmoid(x) * x).sum(), ug.argmax(x), c * 3.0
    x, c = leaf(6), leaf(2).detach()
    eager, graph, jitted = grads_of(mixed, [x, c], seeds=[ug.tensor(2.0), None, None])
    assert_same_grads(eager, graph)
    loss, index, scaled = jitted(x, c)
    assert loss.requires_grad and not index.requires_grad and not scaled.requires_grad
    assert index.item() == int(np.argmax(x.detach().numpy()))


def test_several_outputs_with_only_some_used():
    def three(x, w):
        return ug.sin(x) * w, ug.cos(x).sum(), ug.log(w * w)

    seeds = [ug.tensor(RANDOM.standard_normal(4).astype(np.float32)), None,
             ug.tensor(RANDOM.standard_normal(4).astype(np.float32))]
    eager, graph, _ = grads_of(three, [leaf(4), leaf(4)], seeds=seeds)
    assert_same_grads(eager, graph)


def test_a_repeated_output_receives_both_cotangents():
    def repeated(x):
        y = x * 2.0
        return y, y, x.sum()
    seeds = [ug.ones(3), ug.full((3,), 3.0), ug.tensor(1.0)]
    eager, graph, _ = grads_of(repeated, [leaf(3)], seeds=seeds)
    assert_same_grads(eager, graph)
    np.testing.assert_allclose(graph[0], [9.0, 9.0, 9.0])


# ----------------------------------------------------------------------------- once


def test_the_forward_runs_once_and_the_backward_reads_residuals():
    f = ug.jit(lambda x, w: ug.tanh(x @ w).sum())
    x, w = leaf(4, 3), leaf(3, 2)
    f(x, w).backward()  # the first differentiable call compiles both programs
    compiled = f.lower(x, w)
    split = _split_programs(compiled)
    calls = {}
    counting(compiled.program, calls, "plain")
    counting(split.forward, calls, "forward")
    counting(split.backward, calls, "backward")
    x.grad = w.grad = None
    f(x, w).backward()
    assert calls == {"forward": 1, "backward": 1}
    assert compiled._vjp is None  # the recomputing vjp was never built
    graphs = compiled.vjp_graphs()
    names = [eqn.prim.name for eqn in graphs.backward.eqns]
    assert "tanh" not in names and names.count("matmul") == 2
    # the residual tanh(x @ w) is a forward output; x and w are read as inputs
    assert sorted(graphs.residuals) == [("input", 0), ("input", 1), ("output", 1)]
    assert len(graphs.forward.outputs) == 2
    text = str(graphs)
    assert "# forward: returns 1 result, then 1 residual" in text
    assert "# backward: reads 3 residuals (2 of them inputs), then 1 cotangent" in text


def test_tf_print_inside_a_tf_function_under_a_gradient_tape_prints_once(capsys):
    import unigrad.compat.tensorflow as tf

    @tf.function
    def loss(x):
        tf.print("forward", output_stream=sys.stdout)
        return tf.reduce_sum(tf.tanh(x) * x)

    x = tf.Variable([1.0, 2.0])
    for _ in range(2):  # the first call compiles, the second replays
        with tf.GradientTape() as tape:
            value = loss(x)
        gradient = tape.gradient(value, x)
        assert capsys.readouterr().out == "forward\n"
    t = np.tanh([1.0, 2.0])
    np.testing.assert_allclose(gradient.numpy(), t + np.array([1.0, 2.0]) * (1 - t * t),
                               rtol=1e-6)


def test_threads_differentiating_one_new_signature_build_its_programs_once(monkeypatch):
    module = sys.modules["unigrad.graph.jit"]
    original = module._compile_split
    builds = []

    def counted(compiled):
        builds.append(compiled)
        return original(compiled)
    monkeypatch.setattr(module, "_compile_split", counted)
    f = ug.jit(lambda x: (ug.sin(x) * x).sum())
    barrier = threading.Barrier(4)
    values = [np.linspace(-1.0, 1.0, 5) + k for k in range(4)]
    grads = [None] * 4

    def work(index):
        x = ug.tensor(values[index], requires_grad=True)
        barrier.wait()
        f(x).backward()
        grads[index] = x.grad.numpy()
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1
    for value, grad in zip(values, grads):
        np.testing.assert_allclose(grad, np.cos(value) * value + np.sin(value), rtol=1e-12)


def test_a_random_draw_runs_in_the_forward_and_its_mask_is_a_residual():
    f = ug.jit(lambda x: ug.nn.functional.dropout(x, 0.5, training=True) * x)
    x = ug.tensor(np.linspace(1.0, 2.0, 16).astype(np.float32), requires_grad=True)
    for _ in range(2):  # each call draws a new mask; its backward uses that call's mask
        x.grad = None
        y = f(x)
        y.sum().backward()
        kept = y.detach().numpy() != 0
        np.testing.assert_allclose(x.grad.numpy(), 4 * x.detach().numpy() * kept, rtol=1e-6)
    graphs = f.lower(x).vjp_graphs()
    assert [eqn.prim.name for eqn in graphs.forward.eqns].count("random_draw") == 1
    assert "random_draw" not in str(graphs.backward)


# ----------------------------------------------------------------------------- higher order


def test_create_graph_gives_the_second_derivative():
    f = ug.jit(lambda x: (ug.tanh(x) * x).sum())
    values = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    x = ug.tensor(values, requires_grad=True)
    (first,) = ug.autograd.grad(f(x), x, create_graph=True)
    (second,) = ug.autograd.grad(first.sum(), x)
    t = np.tanh(values)
    np.testing.assert_allclose(first.detach().numpy(), t + values * (1 - t * t), rtol=1e-5)
    np.testing.assert_allclose(second.numpy(), 2 * (1 - t * t) * (1 - values * t), rtol=1e-5)


# ----------------------------------------------------------------------------- memory


def test_residuals_are_freed_after_backward_unless_retained():
    f = ug.jit(lambda x: ug.exp(x).sum())
    x = leaf(3)
    y = f(x)
    residuals = [weakref.ref(value._data) for value in y.grad_fn.saved
                 if isinstance(value, ug.Tensor) and value is not x]
    assert len(residuals) == 1  # exp(x), computed by the forward program
    y.backward(retain_graph=True)
    assert residuals[0]() is not None
    y.backward()  # the residuals were retained: a second pass accumulates
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp(x.detach().numpy()), rtol=1e-6)
    assert residuals[0]() is None
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_modifying_a_saved_result_in_place_is_detected():
    f = ug.jit(lambda x: ug.exp(x))
    y = f(leaf(3))
    assert f.lower(leaf(3)).vjp_graphs().residuals == [("output", 0)]
    with ug.no_grad():
        y.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_writing_into_a_gradient_or_result_leaves_the_programs_constants_alone():
    f = ug.jit(lambda x, w: ((x * 2.0).sum() + (w > 0).sum(), ug.ones(2)))
    x, w = ug.ones(3, requires_grad=True), ug.ones(3, requires_grad=True)
    total, ones = f(x, w)
    total.backward()  # w's gradient is the backward program's constant zeros
    (w * 3.0).sum().backward()  # accumulates into w.grad in place
    ones.add_(1.0)
    w.grad = None
    total, ones = f(x, w)
    total.backward()
    assert w.grad.numpy().tolist() == [0.0, 0.0, 0.0]
    assert ones.numpy().tolist() == [1.0, 1.0]


# ----------------------------------------------------------------------------- graphs in one


def test_jit_of_value_and_grad_computes_the_forward_once():
    def loss(x, w):
        return ug.tanh(x @ w).sum()

    def count(graph, name):
        total = 0
        for eqn in graph.eqns:
            total += eqn.prim.name == name
            body = getattr(eqn.prim, "body", None)
            if body is not None:
                total += count(body, name)
        return total

    x, w = ug.ones(4, 3), ug.ones(3, 2)
    both = ug.jit(ug.value_and_grad(loss, grad_position=(0, 1))).lower(x, w).graph
    assert (count(both, "tanh"), count(both, "matmul")) == (1, 3)  # forward 1, backward 2
    first = ug.jit(ug.grad(loss)).lower(x, w).graph
    assert (count(first, "tanh"), count(first, "matmul")) == (1, 2)


# ----------------------------------------------------------------------------- errors


def test_vjp_graphs_of_a_signature_without_gradients_is_an_error():
    f = ug.jit(lambda x: x * 2.0)
    with pytest.raises(ValueError, match="no result of this signature requires grad"):
        f.lower(ug.ones(2)).vjp_graphs()
    weight = ug.ones(2, requires_grad=True)

    def step(x):  # writes .grad: its results are returned detached
        loss = (x * weight).sum()
        loss.backward()
        return loss
    with pytest.raises(ValueError, match="ran its own backward"):
        ug.jit(step).lower(ug.ones(2)).vjp_graphs()


def test_a_call_writing_in_place_returns_its_effect_outputs_then_residuals():
    counter = ug.zeros(1)

    def counting(x):
        with ug.no_grad():
            counter.add_(1.0)
        return ug.exp(x).sum()
    f = ug.jit(counting)
    x = leaf(2)
    graphs = f.lower(x).vjp_graphs()
    assert (graphs.num_results, graphs.num_effects) == (1, 1)
    assert len(graphs.forward.outputs) == 3  # the result, the counter, exp(x)
    f(x).backward()
    f(x).backward()
    np.testing.assert_array_equal(counter.numpy(), [2.0])
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp(x.detach().numpy()), rtol=1e-6)


def test_a_vjp_that_cannot_be_traced_keeps_the_recomputing_backward(monkeypatch):
    def refuse(joint):
        raise NotImplementedError("no partition today")
    monkeypatch.setattr("unigrad.graph.partition.partition", refuse)
    f = ug.jit(lambda x: (x * x).sum())
    x = leaf(3)
    f(x).backward()  # the forward still runs; the backward recomputes it
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy(), rtol=1e-6)
    with pytest.raises(NotImplementedError, match="no partition today"):
        f.lower(x).vjp_graphs()
