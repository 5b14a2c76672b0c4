"""Activation checkpointing: same gradients as the plain computation, less memory."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.functional as F


def float64(array) -> ug.Tensor:
    return ug.tensor(np.asarray(array, dtype=np.float64))


def same(a, b, tol: float = 1e-12) -> bool:
    return np.allclose(a.detach().numpy(), b.detach().numpy(), atol=tol, rtol=tol)


@pytest.fixture
def weight(rng):
    return float64(rng.standard_normal((3, 3))).requires_grad_()


@pytest.fixture
def inputs(rng):
    return float64(rng.standard_normal((2, 3))).requires_grad_()


def both_ways(fn):
    """The plain function and its checkpointed version."""
    return [fn, lambda *args, **kwargs: ug.checkpoint(fn, *args, **kwargs)]


def test_backward_matches_for_arguments_and_closure_parameters(weight, inputs):
    def block(x):
        return ug.tanh(x @ weight) * 2.0

    grads = []
    for fn in both_ways(block):
        weight.grad = inputs.grad = None
        (fn(inputs) ** 2).sum().backward()
        grads.append((inputs.grad, weight.grad))
    assert same(grads[0][0], grads[1][0]) and same(grads[0][1], grads[1][1])
    assert ug.checkpoint(block, inputs).grad_fn.name() == "CheckpointBackward"


def test_autograd_grad_and_functional_grad_with_weights_match(weight, inputs):
    def block(x):
        return ug.sin(x @ weight).sum()

    plain, checkpointed = both_ways(block)
    expected = ug.autograd.grad(plain(inputs), (inputs, weight))
    found = ug.autograd.grad(checkpointed(inputs), (inputs, weight))
    assert all(same(a, b) for a, b in zip(expected, found))
    data = inputs.detach()
    expected_x, (expected_w,) = ug.grad(plain, grad_position=0, weights=[weight])(data)
    found_x, (found_w,) = ug.grad(checkpointed, grad_position=0, weights=[weight])(data)
    assert same(expected_x, found_x) and same(expected_w, found_w)
    assert same(ug.vjp(plain, data)[1](float64(1.0))[0], ug.vjp(checkpointed, data)[1](
        float64(1.0))[0])


def nested_second_derivative(fn, x):
    def cubed(x):
        return (fn(x) ** 3).sum()

    return ug.grad(lambda x: ug.grad(cubed)(x).sum())(x)


def test_second_order_matches(weight, inputs):
    def block(x, scale=1.0):
        return ug.tanh(x @ weight) * scale

    results = []
    for fn in both_ways(block):
        loss = (fn(inputs, scale=2.0) ** 2).sum()
        gx, gw = ug.autograd.grad(loss, (inputs, weight), create_graph=True)
        hx, hw = ug.autograd.grad((gx ** 2).sum() + (gw ** 2).sum(), (inputs, weight))
        results.append((gx, gw, hx, hw, nested_second_derivative(fn, inputs.detach())))
    for expected, found in zip(*results):
        assert same(expected, found, 1e-10)


def test_closure_parameters_only(weight, rng):
    data = float64(rng.standard_normal((4, 3)))  # no gradient for the data itself

    def block(x):
        return (ug.relu(x @ weight) @ weight).sum()

    grads = []
    for fn in both_ways(block):
        weight.grad = None
        fn(data).backward()
        grads.append(weight.grad)
    assert same(*grads)


def test_keyword_arguments_and_pytree_inputs(weight, inputs, rng):
    bias = float64(rng.standard_normal(3)).requires_grad_()

    def block(params, x, *, shift, mode="tanh"):
        assert mode == "tanh"
        return (ug.tanh(x @ params["w"] + shift) * params["scale"][0]).sum()

    grads = []
    for fn in both_ways(block):
        params = {"w": weight, "scale": [3.0]}
        grads.append(ug.autograd.grad(fn(params, inputs, shift=bias, mode="tanh"),
                                      (inputs, weight, bias)))
    assert all(same(a, b) for a, b in zip(*grads))


def test_pytree_outputs_with_non_tensor_leaves(weight, inputs):
    def block(x):
        hidden = x @ weight
        return {"hidden": hidden, "stats": (hidden.sum(), "note", 7), "count": ug.tensor(3)}

    out = ug.checkpoint(block, inputs)
    assert out["stats"][1:] == ("note", 7)
    assert out["count"].dtype == ug.int64 and out["count"].item() == 3
    (out["hidden"] ** 2).sum().add(out["stats"][0]).backward()
    checkpointed = (inputs.grad, weight.grad)
    inputs.grad = weight.grad = None
    plain = block(inputs)
    (plain["hidden"] ** 2).sum().add(plain["stats"][0]).backward()
    assert same(checkpointed[0], inputs.grad) and same(checkpointed[1], weight.grad)


def test_random_state_is_replayed_in_the_recomputation(weight, inputs):
    def block(x):
        return F.dropout(x @ weight, p=0.5) * 3.0

    results = []
    for fn in both_ways(block):
        ug.manual_seed(11)
        inputs.grad = weight.grad = None
        out = fn(inputs)
        after_forward = ug.rand(4)
        (out ** 2).sum().backward()
        results.append((out, inputs.grad, weight.grad, after_forward, ug.rand(4)))
    for expected, found in zip(*results):
        assert same(expected, found)
    assert not same(results[0][3], results[0][4])  # backward left the generator where it was


def test_recomputation_runs_once_per_backward(weight, inputs):
    calls = []

    def block(x):
        calls.append(ug.is_grad_enabled())
        return (x @ weight).sum()

    out = ug.checkpoint(block, inputs)
    assert calls == [False]
    out.backward(retain_graph=True)
    out.backward()
    assert calls == [False, True, True]
    assert same(inputs.grad, 2.0 * ug.ones(2, 3, dtype=ug.float64) @ weight.T)


def test_nested_checkpoints(weight, inputs):
    def inner(x):
        return ug.tanh(x @ weight)

    def outer(x):
        return ug.checkpoint(inner, ug.checkpoint(inner, x)).sum()

    expected = ug.autograd.grad(inner(inner(inputs)).sum(), (inputs, weight))
    found = ug.autograd.grad(ug.checkpoint(outer, inputs), (inputs, weight))
    assert all(same(a, b) for a, b in zip(expected, found))


def test_argument_computed_from_a_closure_parameter(weight, inputs):
    # weight tying: the argument depends on the weight the block reads again
    def block(h):
        return ug.tanh(h @ weight)

    results = []
    for fn in both_ways(block):
        loss = (fn(inputs @ weight) ** 2).sum()
        gx, gw = ug.autograd.grad(loss, (inputs, weight), create_graph=True)
        results.append((gx, gw, *ug.autograd.grad(gx.sum() + gw.sum(), (inputs, weight))))
    for expected, found in zip(*results):
        assert same(expected, found, 1e-10)


def chained_closure_gradients(weight, inputs, checkpointed: bool):
    doubled = weight * 2.0  # a non-leaf closure tensor computed from another one
    transposed = doubled.T  # and a view of it

    def block(x):
        return (x @ doubled + x @ weight + x @ transposed).sum()

    out = ug.checkpoint(block, inputs) if checkpointed else block(inputs)
    return ug.autograd.grad(out, (inputs, weight))


def test_closure_tensors_computed_from_each_other(weight, inputs):
    expected = chained_closure_gradients(weight, inputs, False)
    found = chained_closure_gradients(weight, inputs, True)
    assert all(same(a, b) for a, b in zip(expected, found))


def test_returned_arguments_and_closure_tensors(weight, inputs):
    def block(x):
        return x, weight, x * 2.0

    a, b, c = ug.checkpoint(block, inputs)
    assert a is not inputs and b is not weight and weight.grad_fn is None
    (a.sum() + (b * 3.0).sum() + c.sum()).backward()
    assert same(inputs.grad, ug.full((2, 3), 3.0, dtype=ug.float64))
    assert same(weight.grad, ug.full((3, 3), 3.0, dtype=ug.float64))


def test_plain_call_when_nothing_is_differentiated(rng):
    data = float64(rng.standard_normal(3))
    out = ug.checkpoint(lambda x: x * 2.0, data)
    assert not out.requires_grad and same(out, data * 2.0)
    with ug.no_grad():
        out = ug.checkpoint(lambda x: x * 2.0, data.requires_grad_())
    assert not out.requires_grad
    primal, tangent = ug.jvp(lambda x: ug.checkpoint(ug.sin, x), (float64(0.0),), (float64(2.0),))
    assert primal.item() == 0.0 and tangent.item() == 2.0
    with pytest.raises(TypeError, match="callable"):
        ug.checkpoint(3, data)


def test_in_place_change_of_a_saved_argument_is_detected(weight):
    x = float64([[1.0, 2.0, 3.0]]).requires_grad_()
    h = x * 1.0
    out = ug.checkpoint(lambda h: (h @ weight).sum(), h)
    with ug.no_grad():
        h.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.backward()


def mlp_peak_bytes(weights, data, segments: int | None) -> int:
    """Peak traced memory of forward + backward through a tanh MLP."""
    def layers(chunk):
        def run(h):
            for w in chunk:
                h = ug.tanh(h @ w)
            return h
        return run

    size = len(weights) // (segments or 1)
    tracemalloc.start()
    try:
        h = data
        for start in range(0, len(weights), size):
            block = layers(weights[start:start + size])
            h = ug.checkpoint(block, h) if segments else block(h)
        h.sum().backward()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_checkpointing_lowers_peak_memory(rng):
    # batch > width: the activations (kept by the plain run) outweigh the parameter gradients
    # (which both runs must allocate)
    width, batch, depth = 128, 512, 50
    weights = [float64(rng.standard_normal((width, width)) / np.sqrt(width)).requires_grad_()
               for _ in range(depth)]
    data = float64(rng.standard_normal((batch, width))).requires_grad_()
    plain = mlp_peak_bytes(weights, data, None)
    expected = [w.grad for w in weights] + [data.grad]
    for tensor in weights + [data]:
        tensor.grad = None
    checkpointed = mlp_peak_bytes(weights, data, 10)
    found = [w.grad for w in weights] + [data.grad]
    assert all(same(a, b, 1e-9) for a, b in zip(expected, found))
    assert checkpointed < 0.6 * plain, (checkpointed, plain)


def test_concurrent_checkpoints_each_find_their_own_closure_parameters():
    import threading

    errors = []
    barrier = threading.Barrier(4)

    def work(seed):
        try:
            weight = ug.tensor([float(seed + 1), 2.0], dtype=ug.float64, requires_grad=True)
            x = ug.tensor([0.5, -0.25], dtype=ug.float64)
            barrier.wait()
            for _ in range(50):
                weight.grad = None
                ug.checkpoint(lambda v: ug.tanh(v * weight), x).sum().backward()
                expected = x.numpy() * (1 - np.tanh(x.numpy() * weight.detach().numpy()) ** 2)
                np.testing.assert_allclose(weight.grad.numpy(), expected, rtol=1e-12)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[0]
