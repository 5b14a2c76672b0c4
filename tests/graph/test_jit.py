"""ug.jit: caching and retracing, errors, autodiff through and inside graphs, Cells, training."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn
from unigrad.graph import ConcretizationError, TracerLeakError

from ..transforms.test_seed_mindspore_examples import SeedNet2, seed_net


def to_list(value):
    if isinstance(value, tuple):
        return tuple(to_list(v) for v in value)
    return value.detach().numpy().tolist() if isinstance(value, ug.Tensor) else value


# ----------------------------------------------------------------------------- cache


def test_no_retrace_on_same_signature_and_retrace_on_change():
    f = ug.jit(lambda x, y: (x * y).sum())
    a, b = ug.ones(3), ug.full((3,), 2.0)
    assert f(a, b).item() == 6.0
    assert f(b, a).item() == 6.0  # same shapes: replayed
    assert f.trace_count == 1
    assert f(b, b).item() == 12.0  # one tensor in both places: a graph of its own
    assert f.trace_count == 2
    assert f(ug.ones(4), ug.ones(4)).item() == 4.0  # new shape
    assert f.trace_count == 3
    assert f(ug.ones(3, dtype=ug.float64), ug.ones(3, dtype=ug.float64)).item() == 3.0
    assert f.trace_count == 4
    f(a, b)
    f(a, a)
    assert f.trace_count == 4  # still cached
    assert len(f.compile_report()) == 4


def test_python_scalars_are_part_of_the_signature_and_static_argnums():
    f = ug.jit(lambda x, scale: x * scale)
    assert to_list(f(ug.ones(2), 2.0)) == [2.0, 2.0]
    assert to_list(f(ug.ones(2), 3.0)) == [3.0, 3.0]
    assert f.trace_count == 2

    def power(x, n):
        for _ in range(n):  # Python control flow on a static argument is fine
            x = x * 2.0
        return x
    g = ug.jit(power, static_argnums=1)
    assert to_list(g(ug.ones(2), 3)) == [8.0, 8.0]
    assert to_list(g(ug.ones(2), 1)) == [2.0, 2.0]
    assert g.trace_count == 2
    with pytest.raises(TypeError, match="static argument 1 must be hashable"):
        g(ug.ones(2), [1])
    with pytest.raises(TypeError, match="static_argnums"):
        ug.jit(power, static_argnums="1")
    with pytest.raises(ValueError, match="cache_size"):
        ug.jit(power, cache_size=0)
    with pytest.raises(TypeError, match="callable 'fn'"):
        ug.jit(3)


def test_cache_is_bounded():
    f = ug.jit(lambda x: x + 1.0, cache_size=2)
    for n in (1, 2, 3):
        f(ug.ones(n))
    f(ug.ones(1))  # evicted (least recently used): traced again
    assert f.trace_count == 4
    f(ug.ones(3))
    assert f.trace_count == 4


def test_decorator_forms_and_pytrees():
    @ug.jit
    def f(inputs):
        return {"sum": inputs["a"] + inputs["b"][0], "same": inputs["b"][1]}

    out = f({"a": ug.ones(2), "b": (ug.ones(2), 5)})
    assert to_list(out["sum"]) == [2.0, 2.0] and out["same"] == 5

    @ug.jit(static_argnums=(1,))
    def g(x, name):
        return x * (2.0 if name == "double" else 3.0)

    assert to_list(g(ug.ones(1), "double")) == [2.0]
    assert to_list(g(ug.ones(1), "triple")) == [3.0]


def test_jit_on_a_method_compiles_per_instance():
    class Scaler:
        def __init__(self, factor):
            self.factor = factor

        @ug.jit
        def apply(self, x):
            return x * self.factor

    double, triple = Scaler(2.0), Scaler(3.0)
    assert to_list(double.apply(ug.ones(2))) == [2.0, 2.0]
    assert to_list(triple.apply(ug.ones(2))) == [3.0, 3.0]
    assert double.apply is double.apply and double.apply.trace_count == 1
    assert double.apply is not triple.apply


def test_returned_argument_is_the_same_object():
    x = ug.ones(2)
    f = ug.jit(lambda a: (a, a * 2.0))
    for _ in range(2):
        same, doubled = f(x)
        assert same is x and to_list(doubled) == [2.0, 2.0]


# ----------------------------------------------------------------------------- errors


def test_control_flow_on_a_traced_value_names_the_line():
    def f(x):
        if x.sum() > 0:  # the offending line
            return x
        return -x

    with pytest.raises(ConcretizationError) as error:
        ug.jit(f, autograph=False)(ug.ones(2))
    message = str(error.value)
    assert "test_jit.py" in message and "if x.sum() > 0:" in message
    assert "autograph=False" in message and "ug.cond" in message and "ug.where" in message
    assert "static_argnums" in message
    assert float(ug.jit(f)(-ug.ones(2)).sum()) == 2.0  # converted by default
    for convert in (float, int, lambda t: t.item(), lambda t: t.numpy().tolist()):
        with pytest.raises(ConcretizationError):
            ug.jit(lambda t, convert=convert: convert(t.sum()))(ug.ones(2))


def test_leaked_tracer_is_a_clear_error():
    stash = []

    @ug.jit
    def f(x):
        stash.append(x * 2.0)
        return x

    f(ug.ones(2))
    with pytest.raises(TracerLeakError, match="exist only while their function is traced"):
        stash[0] + 1.0


def test_failed_trace_leaves_closed_over_tensors_unchanged():
    weight = nn.Parameter(ug.tensor([1.0, 2.0]))

    def f(x):
        with ug.no_grad():
            weight.add_(x)
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        ug.jit(f)(ug.ones(2))
    assert to_list(weight) == [1.0, 2.0] and weight.grad is None and weight._version == 0


def test_cond_selects_on_data():
    f = ug.jit(lambda x: ug.ops.cond(x.sum() > 0, lambda v: v * 2.0, lambda v: -v, x))
    assert to_list(f(ug.ones(2))) == [2.0, 2.0]
    assert to_list(f(-ug.ones(2))) == [1.0, 1.0]
    assert f.trace_count == 1
    assert to_list(ug.ops.cond(ug.tensor(False), lambda v: v * 2.0, lambda v: -v,
                               ug.ones(1))) == [-1.0]


# ----------------------------------------------------------------------------- autodiff


def chain(x):
    for _ in range(20):
        x = ug.tanh(x * 1.0001 + 0.0001)
    return x.sum()


def test_jit_of_grad_and_grad_of_jit_agree_with_eager():
    x = ug.tensor(np.linspace(-1, 1, 7), dtype=ug.float64)
    expected = ug.grad(chain)(x).numpy()
    np.testing.assert_allclose(ug.jit(ug.grad(chain))(x).numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(ug.grad(ug.jit(chain))(x).numpy(), expected, rtol=1e-12)
    value, grad = ug.jit(ug.value_and_grad(chain))(x)
    np.testing.assert_allclose(value.item(), chain(x).item(), rtol=1e-12)
    np.testing.assert_allclose(grad.numpy(), expected, rtol=1e-12)


def test_backward_through_a_jitted_call_accumulates_grad():
    x = ug.tensor([0.5, -0.25], dtype=ug.float64, requires_grad=True)
    f = ug.jit(chain)
    f(x).backward()
    first = x.grad.numpy().copy()
    f(x).backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * first, rtol=1e-12)
    np.testing.assert_allclose(first, ug.grad(chain)(x.detach()).numpy(), rtol=1e-12)


def test_higher_order_through_jit():
    def cube(x):
        return (x * x * x).sum()

    x = ug.tensor([2.0], dtype=ug.float64)
    assert ug.grad(ug.grad(ug.jit(cube)))(x).item() == 12.0
    assert ug.jit(ug.grad(ug.grad(cube)))(x).item() == 12.0
    assert ug.grad(ug.jit(ug.grad(cube)))(x).item() == 12.0
    assert ug.grad(ug.grad(ug.grad(ug.jit(cube))))(x).item() == 6.0


def test_vjp_and_jvp_of_jitted_functions():
    def f(x):
        return ug.sin(x) * x

    x = ug.tensor([0.3, 1.2], dtype=ug.float64)
    direction = ug.tensor([1.0, -2.0], dtype=ug.float64)
    primal, tangent = ug.jvp(ug.jit(f), (x,), (direction,))
    expected_primal, expected_tangent = ug.jvp(f, (x,), (direction,))
    np.testing.assert_allclose(primal.numpy(), expected_primal.numpy(), rtol=1e-12)
    np.testing.assert_allclose(tangent.numpy(), expected_tangent.numpy(), rtol=1e-12)
    out, pullback = ug.vjp(ug.jit(f), x)
    (cotangent,) = pullback(direction)
    _, expected_pullback = ug.vjp(f, x)
    np.testing.assert_allclose(cotangent.numpy(), expected_pullback(direction)[0].numpy(),
                               rtol=1e-12)


# ----------------------------------------------------------------------------- seed 004 network

SEED_CASES = {
    "1": dict(grad_position=0, weights=None, has_aux=True),
    "2": dict(grad_position=1, weights=None, has_aux=True),
    "3": dict(grad_position=(0, 1), weights=None, has_aux=True),
    "4": dict(grad_position=None, weights="params", has_aux=True),
    "5": dict(grad_position=0, weights="params", has_aux=True),
    "6": dict(grad_position=(0, 1), weights="params", has_aux=True),
    "7": dict(grad_position=0, weights=None, has_aux=False),
}


@pytest.mark.parametrize("case", sorted(SEED_CASES))
def test_seed_004_grads_under_jit_equal_eager(case):
    net = seed_net()
    inputs = ug.tensor([[1.0, 2.0, 3.0]]), ug.tensor(19.0)
    options = dict(SEED_CASES[case])
    if options["weights"] == "params":
        options["weights"] = net.trainable_params()
    eager = ug.grad(net, **options)(*inputs)
    jitted = ug.jit(ug.grad(net, **options))
    assert to_list(jitted(*inputs)) == to_list(eager)
    assert to_list(jitted(*inputs)) == to_list(eager)  # replayed
    assert jitted.trace_count == 1


def test_seed_004_grads_8_and_value_and_grad_under_jit():
    net = seed_net()
    with pytest.raises(ValueError):
        ug.jit(ug.grad(net, grad_position=None, weights=None, has_aux=True))
    inputs = ug.tensor([[1.0, 2.0, 3.0]]), ug.tensor(19.0)
    value_and_grad = ug.value_and_grad(net, grad_position=(0, 1), weights=net.trainable_params(),
                                       has_aux=True)
    assert to_list(ug.jit(value_and_grad)(*inputs)) == to_list(value_and_grad(*inputs))
    net2 = seed_net(SeedNet2)
    assert to_list(ug.jit(ug.grad(net2, grad_position=0))(*inputs)) == [[6.0, 9.0, 12.0]]


# ----------------------------------------------------------------------------- training


def make_model(seed: int = 0):
    ug.manual_seed(seed)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))


def batches(count: int):
    rng = np.random.default_rng(3)
    return [(ug.from_numpy(rng.standard_normal((16, 4)).astype(np.float32)),
             ug.from_numpy(rng.standard_normal((16, 1)).astype(np.float32)))
            for _ in range(count)]


def mindspore_step(model, optimizer, loss_fn):
    def forward(x, y):
        return loss_fn(model(x), y)
    grad_fn = ug.value_and_grad(forward, None, optimizer.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss
    return step


def pytorch_step(model, optimizer, loss_fn):
    def step(x, y):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return loss.detach()
    return step


@pytest.mark.parametrize("style", [mindspore_step, pytorch_step])
@pytest.mark.parametrize("make_optimizer", [
    lambda params: ug.optim.SGD(params, lr=0.1),
    lambda params: ug.optim.SGD(params, lr=0.1, momentum=0.9, nesterov=True),
    lambda params: ug.optim.Momentum(params, learning_rate=0.1, momentum=0.9),
    lambda params: ug.optim.Adam(params, lr=0.02),
    lambda params: ug.optim.AdamW(params, lr=0.02, amsgrad=True)],
    ids=["sgd", "sgd-nesterov", "momentum", "adam", "adamw-amsgrad"])
def test_jitted_training_step_follows_the_eager_loss_curve(style, make_optimizer):
    curves = []
    for compiled in (False, True):
        model = make_model()
        optimizer = make_optimizer(model.parameters())
        step = style(model, optimizer, nn.MSELoss())
        if compiled:
            step = ug.jit(step)
        curves.append([step(x, y).item() for x, y in batches(12)])
        final = [p.detach().numpy().copy() for p in model.parameters()]
        curves.append(final)
    eager_curve, eager_params, graph_curve, graph_params = curves
    np.testing.assert_allclose(graph_curve, eager_curve, rtol=1e-5, atol=1e-6)
    assert graph_curve[-1] < graph_curve[0]
    for got, want in zip(graph_params, eager_params):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert step.trace_count <= 2  # PyTorch style: once more when .grad first exists


def test_train_one_step_cell_under_jit_updates_parameters_in_place():
    model = make_model()
    weights = [p for p in model.parameters()]
    storage = [p._data for p in weights]
    train = nn.TrainOneStepCell(nn.WithLossCell(model, nn.MSELoss()),
                                ug.optim.SGD(model.parameters(), lr=0.05))
    compiled = ug.jit(train)
    losses = [compiled(x, y).item() for x, y in batches(8)]
    assert losses[-1] < losses[0]
    assert all(p._data is data for p, data in zip(weights, storage))  # written in place
    assert all(p._version > 0 for p in weights)
    reference = make_model()
    eager = nn.TrainOneStepCell(nn.WithLossCell(reference, nn.MSELoss()),
                                ug.optim.SGD(reference.parameters(), lr=0.05))
    expected = [eager(x, y).item() for x, y in batches(8)]
    np.testing.assert_allclose(losses, expected, rtol=1e-5)


def test_graph_mode_context_compiles_cells():
    model = make_model()
    x = batches(1)[0][0]
    eager = model(x)
    ug.set_context(mode=ug.GRAPH_MODE)
    try:
        graph_out = model(x)
        model(x)
        function = model._graph_function()
        assert function.trace_count == 1
        model.eval()
        model(x)
        assert function.trace_count == 2  # the training flag is part of the signature
    finally:
        ug.set_context(mode=ug.PYNATIVE_MODE)
    np.testing.assert_allclose(graph_out.detach().numpy(), eager.detach().numpy(), rtol=1e-6)
    graph_out.sum().backward()  # outputs of a compiled Cell are differentiable
    assert model[0].weight.grad is not None
    with pytest.raises(ValueError, match="'mode'"):
        ug.set_context(mode=5)
    with pytest.raises(ValueError, match="unknown setting"):
        ug.set_context(colour="blue")


# ----------------------------------------------------------------------------- inspection


def test_lower_shows_graph_source_and_dot():
    f = ug.jit(ug.grad(lambda x: ug.tanh(x * 2.0).sum()))
    lowered = f.lower(ug.ones(3))
    text = str(lowered.graph)
    assert text.startswith("graph(%0: f32[3])") and "return" in text
    assert lowered.source.startswith("def graph_function(a0):")
    assert "digraph" in lowered.to_dot()
    lowered.graph.verify()
    lowered.raw_graph.verify()
    assert len(lowered.raw_graph.eqns) > len(lowered.graph.eqns)
    assert lowered.report.total_seconds > 0 and "traced" in str(lowered.report)
    assert lowered.report.first_run_seconds is None  # lowering does not run the code
    f(ug.ones(3))
    assert lowered.report.first_run_seconds > 0
    assert "first run" in str(lowered.report)
    assert f.graph is lowered.graph


# ----------------------------------------------------------------------------- tensors from outside


def test_writes_through_a_detached_alias_reach_the_tensor_as_in_eager_mode():
    weight = nn.Parameter(ug.tensor([1.0, 2.0]))

    def f(x):
        with ug.no_grad():
            weight.data.mul_(2.0)  # the alias shares the parameter's storage
        return weight * x

    compiled = ug.jit(f)
    assert to_list(compiled(ug.ones(2))) == [2.0, 4.0] and to_list(weight) == [2.0, 4.0]
    assert to_list(compiled(ug.ones(2))) == [4.0, 8.0] and to_list(weight) == [4.0, 8.0]
    assert compiled.trace_count == 1


def test_vmap_of_grad_inside_jit_reads_the_parameters_at_each_call():
    weight = nn.Parameter(ug.tensor([[1.0, 2.0], [3.0, 4.0]]))

    def per_example(x):
        return ug.grad(lambda v: (weight @ v).sum() ** 2)(x)

    compiled = ug.jit(lambda xs: ug.vmap(per_example)(xs))
    xs = ug.tensor([[1.0, 1.0], [1.0, -1.0]])
    assert to_list(compiled(xs)) == to_list(ug.vmap(per_example)(xs))
    with ug.no_grad():
        weight.mul_(2.0)
    assert to_list(compiled(xs)) == to_list(ug.vmap(per_example)(xs))
    assert compiled.trace_count == 1
