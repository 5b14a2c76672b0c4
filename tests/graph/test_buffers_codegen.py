"""Buffer reuse, the transposed-matmul rewrite and the generated code's NumPy fast path."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

import unigrad as ug
from unigrad.graph import codegen
from unigrad.graph.buffers import reuse_buffers
from unigrad.graph.fusion import fuse_elementwise, numba_available
from unigrad.graph.ir import Eqn, Graph, Literal, Var
from unigrad.graph.passes import algebraic_simplification, dead_code_elimination
from unigrad.ops._primitive import PRIMITIVES as P

F32 = np.float32
needs_numba = pytest.mark.skipif(not numba_available(), reason="numba ([jit] extra) not installed")


def run(graph: Graph, *arrays):
    return codegen.generate(graph).function(*arrays)


def test_a_dying_ufunc_result_lends_its_buffer_and_values_are_kept():
    x, y, z, w = (Var((3,), F32) for _ in range(4))
    graph = Graph([x], [Eqn(P["exp"], [x], y, {}), Eqn(P["tanh"], [y], z, {}),
                        Eqn(P["neg"], [z], w, {})], [w])
    reused = reuse_buffers(graph)
    assert reused.eqns[1].params["_out"] is y and reused.eqns[2].params["_out"] is z
    data = np.array([0.0, 0.5, -1.0], F32)
    assert_allclose(run(reused, data)[0], -np.tanh(np.exp(data)), rtol=1e-6)


def test_graph_inputs_and_outputs_never_lend_buffers():
    x, y, z = (Var((3,), F32) for _ in range(3))
    graph = Graph([x], [Eqn(P["exp"], [x], y, {}), Eqn(P["tanh"], [y], z, {})], [y, z])
    reused = reuse_buffers(graph)
    assert all("_out" not in eqn.params for eqn in reused.eqns)


def test_no_reuse_while_a_view_of_the_buffer_is_still_read():
    x, y, t, z, w = Var((2, 2), F32), Var((2, 2), F32), Var((2, 2), F32), Var((2, 2), F32), \
        Var((2, 2), F32)
    graph = Graph([x], [Eqn(P["exp"], [x], y, {}),
                        Eqn(P["transpose"], [y], t, {"axes": (1, 0)}),
                        Eqn(P["tanh"], [y], z, {}),       # y's last direct read...
                        Eqn(P["add"], [z, t], w, {})],    # ...but its view t is read later
                  [w])
    reused = reuse_buffers(graph)
    assert "_out" not in reused.eqns[2].params
    data = np.arange(4, dtype=F32).reshape(2, 2) / 4
    expected = np.tanh(np.exp(data)) + np.exp(data).T
    assert_allclose(run(reused, data)[0], expected, rtol=1e-6)


def test_a_donated_input_receives_the_value_written_back_into_it():
    p, g, scaled, new = Var((4,), F32), Var((4,), F32), Var((4,), F32), Var((4,), F32)
    graph = Graph([p, g], [Eqn(P["mul"], [g, Literal(0.5)], scaled, {}),
                           Eqn(P["sub"], [p, scaled], new, {})], [new])
    reused = reuse_buffers(graph, donated={p: new})
    assert reused.eqns[1].params["_out"] is p
    params, grads = np.ones(4, F32), np.arange(4, dtype=F32)
    (result,) = run(reused, params, grads)
    assert result is params  # written in place
    assert_allclose(params, 1 - 0.5 * np.arange(4))


@needs_numba
def test_a_fused_update_writes_into_the_donated_buffer():
    p, g, scaled, new = Var((4,), F32), Var((4,), F32), Var((4,), F32), Var((4,), F32)
    graph = Graph([p, g], [Eqn(P["mul"], [g, Literal(0.5)], scaled, {}),
                           Eqn(P["sub"], [p, scaled], new, {})], [new])
    reused = reuse_buffers(fuse_elementwise(graph), donated={p: new})
    (fused,) = reused.eqns
    assert fused.prim.name == "fused" and fused.params["_out"] == (p,)
    program = codegen.generate(reused)
    assert "c_contiguous" in program.source  # the fast path checks the donated buffer
    params, grads = np.ones(4, F32), np.arange(4, dtype=F32)
    (result,) = program.function(params, grads)
    assert result is params
    assert_allclose(params, 1 - 0.5 * np.arange(4))
    # a non-contiguous buffer takes the generic path and is still updated in place
    strided = np.ones(8, F32)[::2]
    (result,) = program.function(strided, grads)
    assert_allclose(strided, 1 - 0.5 * np.arange(4))


@needs_numba
def test_a_fused_kernel_never_writes_over_an_operand_read_through_a_transposed_view():
    p, t, new, other = Var((3, 3), F32), Var((3, 3), F32), Var((3, 3), F32), Var((3, 3), F32)
    graph = Graph([p], [Eqn(P["transpose"], [p], t, {"axes": (1, 0)}),
                        Eqn(P["mul"], [p, Literal(2.0)], other, {}),
                        Eqn(P["add"], [other, t], new, {})], [new])
    reused = reuse_buffers(fuse_elementwise(graph), donated={p: new})
    assert all(eqn.params.get("_out") in (None, (None,)) for eqn in reused.eqns)
    data = np.arange(9, dtype=F32).reshape(3, 3)
    (result,) = run(reused, data.copy())
    assert_allclose(result, 2 * data + data.T)


def test_transpose_of_a_matrix_product_becomes_a_product_of_transposes():
    a, b, m, t = Var((4, 3), F32), Var((4, 5), F32), Var((3, 5), F32), Var((5, 3), F32)
    a_t = Var((3, 4), F32)
    graph = Graph([a, b], [Eqn(P["transpose"], [a], a_t, {"axes": (1, 0)}),
                           Eqn(P["matmul"], [a_t, b], m, {}),
                           Eqn(P["transpose"], [m], t, {"axes": (1, 0)})], [t])
    simplified = dead_code_elimination(algebraic_simplification(graph))
    simplified.verify()
    names = [eqn.prim.name for eqn in simplified.eqns]
    assert names == ["transpose", "matmul"]  # b.T @ a: the result comes out contiguous
    rng = np.random.default_rng(0)
    left, right = rng.standard_normal((4, 3)).astype(F32), rng.standard_normal((4, 5)).astype(F32)
    (result,) = run(simplified, left, right)
    assert result.flags.c_contiguous
    assert_allclose(result, (left.T @ right).T, rtol=1e-5)


def test_a_product_read_elsewhere_is_not_rewritten():
    a, b, m, t = Var((2, 2), F32), Var((2, 2), F32), Var((2, 2), F32), Var((2, 2), F32)
    graph = Graph([a, b], [Eqn(P["matmul"], [a, b], m, {}),
                           Eqn(P["transpose"], [m], t, {"axes": (1, 0)})], [t, m])
    assert [e.prim.name for e in algebraic_simplification(graph).eqns] == ["matmul", "transpose"]


def test_structural_ops_are_written_as_array_expressions():
    a, b, m, s, r = Var((2, 3), F32), Var((3, 4), F32), Var((2, 4), F32), Var((4,), F32), \
        Var((2, 2), F32)
    graph = Graph([a, b], [Eqn(P["matmul"], [a, b], m, {}),
                           Eqn(P["sum"], [m], s, {"axes": (0,), "keepdims": False}),
                           Eqn(P["reshape"], [s], r, {"shape": (2, 2)})], [r])
    program = codegen.generate(graph)
    assert "a0 @ a1" in program.source and ".sum(axis=(0,)" in program.source
    left, right = np.ones((2, 3), F32), np.ones((3, 4), F32)
    assert_allclose(program.function(left, right)[0], np.full((2, 2), 6.0))


def test_jitted_sgd_step_updates_parameters_in_their_own_buffers():
    ug.manual_seed(0)
    model = ug.nn.Sequential(ug.nn.Linear(3, 4), ug.nn.Tanh(), ug.nn.Linear(4, 1))
    optimizer = ug.optim.SGD(model.trainable_params(), lr=0.1)
    grad_fn = ug.value_and_grad(lambda x, y: ((model(x) - y) ** 2).mean(), None,
                                optimizer.parameters)

    @ug.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    x, y = ug.randn(8, 3), ug.randn(8, 1)
    buffers = [p._data for p in model.parameters()]
    reference = [p.detach().numpy().copy() for p in model.parameters()]
    _, grads = grad_fn(x, y)
    step(x, y)
    for parameter, buffer, before, grad in zip(model.parameters(), buffers, reference, grads):
        assert parameter._data is buffer
        assert_allclose(parameter.detach().numpy(), before - 0.1 * grad.numpy(), rtol=1e-5,
                        atol=1e-7)
    # a parameter whose storage is not contiguous still gets the right update
    weight = model[0].weight
    weight.set_data(ug.from_numpy(np.ascontiguousarray(weight.detach().numpy().T).T))
    assert not weight._data.flags.c_contiguous
    before = weight.detach().numpy().copy()
    (_, (expected_grad, *_)) = grad_fn(x, y)
    step(x, y)
    assert_allclose(weight.detach().numpy(), before - 0.1 * expected_grad.numpy(), rtol=1e-5,
                    atol=1e-7)


@pytest.mark.parametrize("constant", [float("inf"), -float("inf"), float("nan")])
def test_fused_kernels_take_non_finite_constants(constant):
    def f(x):
        return (ug.exp(x) + constant) * (x < constant) + 1.0

    x = ug.tensor([0.0, 1.0])
    np.testing.assert_array_equal(ug.jit(f)(x).numpy(), f(x).numpy())
