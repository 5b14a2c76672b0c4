"""vmap: JAX's in_axes/out_axes semantics, composition with every transform and jit, errors.

Values are checked against a Python loop over the batch (and against torch.func where
torch is installed, in tests/transforms/test_vmap_torch.py).
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import unigrad as ug
from unigrad.interpreters.batching import BatchingError


def loop(fn, *args, in_axes=0):
    """``stack([fn(*example) for example in batch])``: the reference for vmap."""
    axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
    size = next(a.shape[ax] for a, ax in zip(args, axes) if ax is not None)
    results = []
    for k in range(size):
        example = [a if ax is None else np.take(np.asarray(a), k, axis=ax)
                   for a, ax in zip(args, axes)]
        results.append(np.asarray(fn(*[ug.tensor(e) for e in example])._data))
    return np.stack(results)


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def test_in_axes_int_tuple_none_and_negative(rng):
    x, y = rng.standard_normal((4, 3)), rng.standard_normal((3, 4))
    f = lambda a, b: ug.tanh(a) * b.sum()  # noqa: E731
    expected = loop(f, x, y, in_axes=(0, 1))
    got = ug.vmap(f, in_axes=(0, -1))(ug.tensor(x), ug.tensor(y))
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    shared = ug.vmap(f, in_axes=(0, None))(ug.tensor(x), ug.tensor(y[:, 0]))
    np.testing.assert_allclose(shared.numpy(), np.tanh(x) * y[:, 0].sum(), rtol=1e-12)


def test_pytree_in_axes_and_out_axes(rng):
    params = {"w": rng.standard_normal((5, 3, 2)), "b": rng.standard_normal(2)}
    x = rng.standard_normal(3)

    def f(p, v):
        return {"out": v @ p["w"] + p["b"], "norm": (p["w"] ** 2).sum()}

    tensors = {k: ug.tensor(v) for k, v in params.items()}
    got = ug.vmap(f, in_axes=({"w": 0, "b": None}, None), out_axes={"out": 1, "norm": 0})(
        tensors, ug.tensor(x))
    assert got["out"].shape == (2, 5)
    np.testing.assert_allclose(got["out"].numpy(),
                               (np.einsum("i,kij->kj", x, params["w"]) + params["b"]).T)
    np.testing.assert_allclose(got["norm"].numpy(), (params["w"] ** 2).sum(axis=(1, 2)))


def test_unbatched_outputs_are_broadcast_and_out_axes_none(rng):
    x = ug.tensor(rng.standard_normal((3, 2)))
    constant, batched = ug.vmap(lambda v: (ug.ones(2), v * 2.0))(x)
    np.testing.assert_array_equal(constant.numpy(), np.ones((3, 2)))
    same = ug.vmap(lambda v: (ug.ones(2), v), out_axes=(None, 0))(x)[0]
    np.testing.assert_array_equal(same.numpy(), np.ones(2))
    with pytest.raises(BatchingError, match="out_axes is None"):
        ug.vmap(lambda v: v, out_axes=None)(x)


def test_keyword_arguments_are_not_batched():
    got = ug.vmap(lambda v, scale=1.0: v * scale)(ug.ones((2, 3)), scale=ug.tensor(3.0))
    np.testing.assert_array_equal(got.numpy(), np.full((2, 3), 3.0))


@pytest.mark.parametrize("call, error, match", [
    (lambda: ug.vmap(lambda a, b: a + b)(ug.ones((2, 3)), ug.ones((3, 3))), ValueError,
     "inconsistent sizes"),
    (lambda: ug.vmap(lambda a: a, in_axes=None)(ug.ones(2)), ValueError,
     "at least one non-None"),
    (lambda: ug.vmap(lambda a, b: a, in_axes=(0,))(ug.ones(2), ug.ones(2)), ValueError,
     "len\\(in_axes\\)=1, len\\(args\\)=2"),
    (lambda: ug.vmap(lambda a: a, in_axes=2)(ug.ones((2, 3))), ValueError,
     "axis 2"),
    (lambda: ug.vmap(lambda a: a, in_axes=1.5)(ug.ones(2)), TypeError, "in_axes must be"),
    (lambda: ug.vmap(lambda a: a, chunk_size=0)(ug.ones(2)), ValueError, "chunk_size"),
    (lambda: ug.vmap(lambda a: a, randomness="maybe"), ValueError, "randomness"),
    (lambda: ug.vmap(3), TypeError, "callable"),
])
def test_bad_arguments_raise_errors_naming_them(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_data_dependent_control_flow_raises_and_cond_selects():
    x = ug.tensor([[1.0, -1.0], [-2.0, 3.0]])
    with pytest.raises(BatchingError, match="of a batched value"):
        ug.vmap(lambda v: v if v.sum() > 0 else -v)(x)
    got = ug.vmap(lambda v: ug.ops.cond(v.sum() > 0, lambda a: a, lambda a: -a, v))(x)
    np.testing.assert_array_equal(got.numpy(), [[-1.0, 1.0], [-2.0, 3.0]])


def test_a_batched_value_used_after_vmap_raises():
    kept = []
    ug.vmap(lambda v: kept.append(v) or v)(ug.ones((2, 3)))
    with pytest.raises(BatchingError, match="after its vmap returned"):
        kept[0]._data + 1.0


def test_chunk_size_gives_the_same_result(rng):
    x = ug.tensor(rng.standard_normal((7, 4)))
    f = lambda v: ug.softmax(v, 0) * v.sum()  # noqa: E731
    np.testing.assert_allclose(ug.vmap(f, chunk_size=3)(x).numpy(), ug.vmap(f)(x).numpy(),
                               rtol=1e-12)


def test_nested_vmap_is_an_outer_product(rng):
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((5, 4))
    got = ug.vmap(ug.vmap(ug.dot, in_axes=(None, 0)), in_axes=(0, None))(ug.tensor(a),
                                                                            ug.tensor(b))
    np.testing.assert_allclose(got.numpy(), a @ b.T, rtol=1e-12)


def test_vmap_of_grad_is_per_example_gradients(rng):
    w = ug.tensor(rng.standard_normal(4))
    xs = rng.standard_normal((6, 4))
    loss = lambda weight, x: ug.tanh(weight @ x) ** 2  # noqa: E731
    got = ug.vmap(ug.grad(loss), in_axes=(None, 0))(w, ug.tensor(xs))
    expected = np.stack([ug.grad(loss)(w, ug.tensor(x)).numpy() for x in xs])
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)


def test_grad_of_vmap_reaches_inputs_and_closed_over_weights(rng):
    w = ug.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    xs = ug.tensor(rng.standard_normal((5, 3)), requires_grad=True)
    out = ug.vmap(lambda x: ug.tanh(w @ x).sum())(xs)
    out.sum().backward()
    reference_w = ug.tensor(w.detach().numpy(), requires_grad=True)
    reference_x = ug.tensor(xs.detach().numpy(), requires_grad=True)
    ug.tanh(reference_x @ reference_w.T).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), reference_w.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(xs.grad.numpy(), reference_x.grad.numpy(), rtol=1e-12)
    functional = ug.grad(lambda v: ug.vmap(lambda x: (x ** 3).sum())(v).sum())(ug.ones((2, 3)))
    np.testing.assert_array_equal(functional.numpy(), np.full((2, 3), 3.0))


def test_second_order_inside_vmap(rng):
    xs = rng.standard_normal(5)
    second = ug.vmap(ug.grad(ug.grad(lambda x: ug.sin(x) * x)))(ug.tensor(xs))
    np.testing.assert_allclose(second.numpy(), 2 * np.cos(xs) - xs * np.sin(xs), rtol=1e-12)


def test_vmap_of_jvp_and_jvp_of_vmap(rng):
    xs = ug.tensor(rng.standard_normal((4, 3)))
    tangents = ug.tensor(rng.standard_normal((4, 3)))
    _, batched = ug.vmap(lambda x, t: ug.jvp(ug.tanh, (x,), (t,)))(xs, tangents)
    np.testing.assert_allclose(batched.numpy(),
                               (1 - np.tanh(xs.numpy()) ** 2) * tangents.numpy(), rtol=1e-12)
    _, outer = ug.jvp(ug.vmap(lambda x: ug.tanh(x).sum()), (xs,), (tangents,))
    np.testing.assert_allclose(outer.numpy(),
                               ((1 - np.tanh(xs.numpy()) ** 2) * tangents.numpy()).sum(1),
                               rtol=1e-12)


def test_jit_of_vmap_and_vmap_inside_jit(rng):
    w = ug.tensor(rng.standard_normal((3, 2)))
    xs = ug.tensor(rng.standard_normal((5, 3)))
    eager = ug.vmap(lambda x: ug.tanh(x @ w))(xs).numpy()
    compiled = ug.jit(ug.vmap(lambda x: ug.tanh(x @ w)))
    np.testing.assert_allclose(compiled(xs).numpy(), eager, rtol=1e-12)
    np.testing.assert_allclose(compiled(xs).numpy(), eager, rtol=1e-12)

    @ug.jit
    def per_example_gradients(inputs):
        return ug.vmap(ug.grad(lambda x: ug.tanh(x @ w).sum()))(inputs)

    expected = np.stack([ug.grad(lambda x: ug.tanh(x @ w).sum())(x).numpy() for x in xs])
    np.testing.assert_allclose(per_example_gradients(xs).numpy(), expected, rtol=1e-12)


def test_jacobians_are_batched_and_match_the_loop_fallback(rng):
    w = ug.tensor(rng.standard_normal((4, 4)))
    f = lambda x: ug.tanh(w @ x) * x.sum()  # noqa: E731
    x = ug.tensor(rng.standard_normal(4))
    for transform in (ug.jacrev, ug.jacfwd):
        np.testing.assert_allclose(transform(f)(x).numpy(),
                                   transform(f, vectorize=False)(x).numpy(), rtol=1e-12)
    hessian = ug.hessian(lambda v: (ug.tanh(w @ v) ** 2).sum())(x)
    looped = ug.hessian(lambda v: (ug.tanh(w @ v) ** 2).sum(), vectorize=False)(x)
    np.testing.assert_allclose(hessian.numpy(), looped.numpy(), rtol=1e-10)
    assert not hessian.requires_grad


def test_jacobian_of_a_tuple_of_arguments_is_indexed_output_then_input(rng):
    f = lambda a, b: (a * b, (a ** 2).sum())  # noqa: E731
    a, b = ug.tensor(rng.standard_normal(3)), ug.tensor(rng.standard_normal(3))
    jac = ug.jacrev(f, argnums=(0, 1))(a, b)
    assert jac[0][0].shape == (3, 3) and jac[1][1].shape == (3,)
    np.testing.assert_allclose(jac[0][1].numpy(), np.diag(a.numpy()), rtol=1e-12)
    np.testing.assert_allclose(jac[1][0].numpy(), 2 * a.numpy(), rtol=1e-12)
    np.testing.assert_array_equal(jac[1][1].numpy(), np.zeros(3))
    hessian = ug.hessian(lambda a, b: (a * a * b).sum(), argnums=(0, 1))(a, b)
    np.testing.assert_allclose(hessian[0][1].numpy(), np.diag(2 * a.numpy()), rtol=1e-12)
    np.testing.assert_allclose(hessian[0][0].numpy(), np.diag(2 * b.numpy()), rtol=1e-12)


def test_per_sample_gradients_with_functional_call(rng):
    model = ug.nn.Sequential(ug.nn.Linear(4, 8), ug.nn.Tanh(), ug.nn.Linear(8, 3))
    params = {k: v.detach() for k, v in model.named_parameters()}
    xs = ug.tensor(rng.standard_normal((6, 4)), dtype=ug.float32)
    ys = ug.tensor(rng.integers(0, 3, 6))

    def loss(parameters, x, y):
        logits = ug.func.functional_call(model, parameters, (x[None],))
        return ug.nn.functional.cross_entropy(logits, y[None])

    per_sample = ug.func.vmap(ug.func.grad(loss), in_axes=(None, 0, 0))(params, xs, ys)
    for k in range(6):
        expected = ug.grad(loss)(params, xs[k], ys[k])
        for name in params:
            np.testing.assert_allclose(per_sample[name][k].numpy(), expected[name].numpy(),
                                       rtol=1e-5, atol=1e-7)
    # the model's own parameters are untouched
    assert all(p is model.get_parameter(name) for name, p in model.named_parameters())


def test_model_ensembling_with_stack_module_state(rng):
    models = [ug.nn.Linear(3, 2) for _ in range(4)]
    params, buffers = ug.func.stack_module_state(models)
    assert params["weight"].shape == (4, 2, 3) and params["weight"].requires_grad
    x = ug.tensor(rng.standard_normal((5, 3)), dtype=ug.float32)

    def run(p, b, inputs):
        return ug.func.functional_call(models[0], (p, b), (inputs,))

    out = ug.vmap(run, in_axes=(0, 0, None))(params, buffers, x)
    for k, model in enumerate(models):
        np.testing.assert_allclose(out[k].detach().numpy(), model(x).detach().numpy(),
                                   rtol=1e-6)
    with pytest.raises(RuntimeError, match="same class"):
        ug.func.stack_module_state([ug.nn.Linear(3, 2), ug.nn.Tanh()])


def test_functional_call_restores_parameters_when_the_call_raises():
    model = ug.nn.Linear(2, 2)
    original = model.weight
    with pytest.raises(RuntimeError):
        ug.func.functional_call(model, {"weight": ug.ones((2, 5))}, (ug.ones((1, 2)),))
    assert model.weight is original
    with pytest.raises(RuntimeError, match="missing key"):
        ug.func.functional_call(model, {"weight": ug.ones((2, 2))}, (ug.ones((1, 2)),),
                                strict=True)
    with pytest.raises(AttributeError, match="no parameter or buffer 'scale'"):
        ug.func.functional_call(model, {"scale": ug.ones(1)}, (ug.ones((1, 2)),))


def test_batch_norm_running_statistics_cannot_be_updated_per_example():
    x = ug.ones((3, 4, 2))
    with pytest.raises(BatchingError):
        ug.vmap(lambda v: ug.nn.functional.batch_norm(
            v, ug.zeros(2), ug.ones(2), training=True))(x)
    evaluated = ug.vmap(lambda v: ug.nn.functional.batch_norm(
        v, ug.zeros(2), ug.ones(2), training=False))(x)
    np.testing.assert_allclose(evaluated.numpy(), np.ones((3, 4, 2)) / np.sqrt(1 + 1e-5))


def test_vmap_in_threads_runs_independently(rng):
    xs = ug.tensor(rng.standard_normal((8, 3)))
    expected = ug.vmap(lambda v: ug.exp(v).sum())(xs).numpy()
    results, errors = [], []
    barrier = threading.Barrier(4)

    def work():
        try:
            barrier.wait(timeout=10)
            for _ in range(20):
                results.append(ug.vmap(lambda v: ug.exp(v).sum())(xs).numpy())
                ug.exp(xs).sum()  # eager code in the same thread between vmaps
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert len(results) == 80
    for result in results:
        np.testing.assert_allclose(result, expected, rtol=1e-12)


def test_front_end_spellings():
    import unigrad.compat.mindspore as ms
    import unigrad.compat.tensorflow as tf
    import unigrad.compat.torch as torch
    from unigrad.compat.torch.func import functional_call, stack_module_state, vmap

    assert torch.vmap is vmap
    got = vmap(torch.dot, in_dims=(0, None))(torch.ones(3, 2), torch.tensor([1.0, 2.0]))
    np.testing.assert_array_equal(got.numpy(), [3.0, 3.0, 3.0])
    model = torch.nn.Linear(2, 1)
    out = functional_call(model, {"weight": torch.ones(1, 2), "bias": torch.zeros(1)},
                          (torch.ones(1, 2),))
    np.testing.assert_array_equal(out.numpy(), [[2.0]])
    params, _ = stack_module_state([torch.nn.Linear(2, 1) for _ in range(3)])
    assert tuple(params["weight"].shape) == (3, 1, 2)
    doubled = ms.vmap(lambda x: x * 2, in_axes=0)(ms.Tensor([[1.0], [2.0]]))
    assert isinstance(doubled, ms.Tensor)
    np.testing.assert_array_equal(doubled.asnumpy(), [[2.0], [4.0]])
    assert ms.ops.vmap is ms.vmap
    mapped = tf.vectorized_map(lambda row: tf.reduce_sum(row), tf.constant([[1.0, 2.0],
                                                                           [3.0, 4.0]]))
    np.testing.assert_array_equal(mapped.numpy(), [3.0, 7.0])


def test_randomness_error_same_and_different():
    x = ug.ones((3, 4))
    with pytest.raises(BatchingError, match="randomness error mode"):
        ug.vmap(lambda v: v * ug.rand(4))(x)
    ug.manual_seed(0)
    same = ug.vmap(lambda v: v * ug.randn(4), randomness="same")(x).numpy()
    np.testing.assert_array_equal(same[0], same[1])
    ug.manual_seed(0)
    different = ug.vmap(lambda v: v * ug.randn(4), randomness="different")(x).numpy()
    assert not np.allclose(different[0], different[1])
    ug.manual_seed(0)
    np.testing.assert_array_equal(different, ug.randn(3, 4).numpy())  # one draw, batch first
    masks = ug.vmap(lambda v: ug.nn.functional.dropout(v, 0.5), randomness="different")(
        ug.ones((64, 32))).numpy()
    assert set(np.unique(masks)) <= {0.0, 2.0}
    assert not all(np.array_equal(masks[0], row) for row in masks[1:])
    nested = ug.vmap(ug.vmap(lambda v: v + ug.rand(()), randomness="different"),
                     randomness="different")(ug.zeros((3, 5))).numpy()
    assert len(np.unique(nested)) == 15


def test_in_place_ops_inside_vmap_and_their_gradients():
    def f(v):
        y = v * 1.0
        y.add_(1.0)
        y.mul_(v)
        return y

    xs = np.array([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(ug.vmap(f)(ug.tensor(xs)).numpy(), (xs + 1) * xs)
    gradients = ug.vmap(ug.grad(lambda v: f(v).sum()))(ug.tensor(xs))
    np.testing.assert_array_equal(gradients.numpy(), 2 * xs + 1)
    # a copy made inside the function may take per-example values; outside tensors may not
    def into_copy(v):
        y = ug.zeros(2) * 1.0
        y.copy_(v)
        return y

    np.testing.assert_array_equal(ug.vmap(into_copy)(ug.tensor(xs)).numpy(), xs)
    outside = ug.zeros(2)
    with pytest.raises(BatchingError, match="made outside vmap"):
        ug.vmap(lambda v: outside.add_(v))(ug.tensor(xs))
    np.testing.assert_array_equal(outside.numpy(), [0.0, 0.0])


def test_vmap_of_a_jitted_function_runs_batched():
    compiled = ug.jit(lambda x: ug.tanh(x) * 2.0)
    xs = np.arange(6.0).reshape(3, 2)
    np.testing.assert_allclose(ug.vmap(compiled)(ug.tensor(xs)).numpy(), np.tanh(xs) * 2,
                               rtol=1e-14)
    np.testing.assert_allclose(compiled(ug.tensor(xs[0])).numpy(), np.tanh(xs[0]) * 2,
                               rtol=1e-14)


def test_gradient_tape_jacobians_are_batched_and_match_the_loop(rng):
    x = ug.tensor(rng.standard_normal(3))
    unused = ug.tensor(rng.standard_normal(2))
    batch = ug.tensor(rng.standard_normal((4, 3)))
    w = ug.tensor(rng.standard_normal((3, 3)))
    with ug.GradientTape(persistent=True) as tape:
        tape.watch([x, unused, batch])
        y = ug.tanh(w @ x) * x.sum()
        z = ug.sin(batch @ w) * batch
    batched = tape.jacobian(y, {"x": x, "unused": unused})
    looped = tape.jacobian(y, {"x": x, "unused": unused}, experimental_use_pfor=False)
    np.testing.assert_allclose(batched["x"].numpy(), looped["x"].numpy(), rtol=1e-12)
    assert batched["unused"] is None and looped["unused"] is None
    zeros = tape.jacobian(y, unused, unconnected_gradients="zero")
    np.testing.assert_array_equal(zeros.numpy(), np.zeros((3, 2)))
    per_example = tape.batch_jacobian(z, batch)
    np.testing.assert_allclose(per_example.numpy(),
                               tape.batch_jacobian(z, batch, experimental_use_pfor=False).numpy(),
                               rtol=1e-12)
    assert per_example.shape == (4, 3, 3)
