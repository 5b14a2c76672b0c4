"""The graph passes on small hand-built graphs: structure, validity and preserved values."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import unigrad  # noqa: F401  (registers every primitive)
from unigrad.graph.ir import Eqn, Graph, Literal, Var
from unigrad.graph.passes import (
    PASSES,
    algebraic_simplification,
    common_subexpression_elimination,
    constant_folding,
    dead_code_elimination,
    optimize,
)
from unigrad.graph.passes.cse import hashable_key
from unigrad.graph.passes.fold import LARGEST_FOLDED_SIZE
from unigrad.ops._primitive import PRIMITIVES
from unigrad.ops._shape_rules import shape_of

F32 = np.float32
P = PRIMITIVES


# ----------------------------------------------------------------------------- helpers

def evaluate(graph: Graph, *arrays) -> list:
    """The graph's outputs for the given input arrays, one eqn at a time."""
    values = dict(zip(graph.inputs, arrays))

    def read(atom):
        return atom.value if isinstance(atom, Literal) else values[atom]

    for eqn in graph.eqns:
        values[eqn.out] = eqn.prim.impl(*(read(atom) for atom in eqn.inputs), **eqn.params)
    return [np.asarray(read(atom)) for atom in graph.outputs]


def random_inputs(graph: Graph, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(var.shape).astype(var.dtype) for var in graph.inputs]


def snapshot(graph: Graph) -> tuple:
    """Everything a pass could change in place: the lists, each eqn's operands and params."""
    return (list(graph.inputs), list(graph.eqns), list(graph.outputs),
            [(eqn.prim, list(eqn.inputs), eqn.out, {key: id(value) for key, value in
                                                    eqn.params.items()})
             for eqn in graph.eqns])


def check(graph: Graph, optimize_pass) -> Graph:
    """Run the pass; check the input is untouched, the result valid, and the values kept."""
    graph.verify()
    before = snapshot(graph)
    result = optimize_pass(graph)
    assert snapshot(graph) == before
    result.verify()
    assert result.inputs == graph.inputs
    assert len(result.outputs) == len(graph.outputs)
    for seed in range(3):
        arrays = random_inputs(graph, seed)
        for expected, actual in zip(evaluate(graph, *arrays), evaluate(result, *arrays)):
            assert actual.shape == expected.shape
            assert actual.dtype == expected.dtype
            assert_allclose(actual, expected, rtol=1e-6)
    return result


def names(graph: Graph) -> list:
    return [eqn.prim.name for eqn in graph.eqns]


def var(*shape, dtype=F32) -> Var:
    return Var(shape, dtype)


def unary(name: str, operand, **params) -> Eqn:
    """An eqn with its output var typed by the primitive's shape rule."""
    return apply(name, [operand], **params)


def apply(name: str, operands: list, **params) -> Eqn:
    from unigrad.graph.ir import abstract_operand
    prim = P[name]
    shape, dtype = prim.shape(*(abstract_operand(atom) for atom in operands), **params)
    return Eqn(prim, operands, Var(shape, dtype), params)


class FakeRandom:
    """An impure primitive: a fresh random array of ``x``'s shape on every call."""

    name = "fake_random"
    kind = "other"
    differentiable = False
    impure = True

    @staticmethod
    def impl(x):
        return np.random.default_rng().standard_normal(np.shape(x)).astype(F32)

    @staticmethod
    def shape(x):
        return shape_of(x), np.dtype(F32)


class Lookup:
    """A pure primitive with an unhashable param: ``x + table[0]``."""

    name = "lookup"
    kind = "other"
    differentiable = False

    @staticmethod
    def impl(x, table):
        return x + F32(table[0])

    @staticmethod
    def shape(x, table):
        return shape_of(x), np.dtype(F32)


# ----------------------------------------------------------------------------- dead code

def test_dce_drops_unused_chains_and_keeps_what_outputs_need():
    x, unused_input = var(3), var(3)
    a = unary("exp", x)
    b = unary("neg", a.out)
    dead = unary("log", a.out)
    dead_too = unary("sin", dead.out)
    c = apply("add", [b.out, x])
    graph = Graph([x, unused_input], [a, dead, b, dead_too, c], [c.out, a.out])
    result = check(graph, dead_code_elimination)
    assert result.eqns == [a, b, c]
    assert all(new is old for new, old in zip(result.eqns, [a, b, c]))
    assert result.inputs == [x, unused_input]
    assert result.outputs == [c.out, a.out]


def test_dce_of_graph_whose_outputs_are_inputs_and_literals():
    x = var(2)
    a = unary("exp", x)
    graph = Graph([x], [a], [x, Literal(2.0)])
    result = check(graph, dead_code_elimination)
    assert result.eqns == []
    assert result.outputs[0] is x and result.outputs[1] is graph.outputs[1]
    assert_array_equal(evaluate(result, np.ones(2, F32))[1], 2.0)


def test_dce_keeps_a_fully_live_graph_unchanged():
    x = var(2)
    a = unary("exp", x)
    b = unary("neg", a.out)
    graph = Graph([x], [a, b], [b.out])
    assert check(graph, dead_code_elimination).eqns == [a, b]


# ----------------------------------------------------------------------------- cse

def test_cse_merges_repeats_and_redirects_uses_and_outputs():
    x = var(4)
    a = unary("exp", x)
    b = unary("exp", x)
    c = apply("add", [a.out, b.out])
    graph = Graph([x], [a, b, c], [c.out, b.out])
    result = check(graph, common_subexpression_elimination)
    assert names(result) == ["exp", "add"]
    assert result.eqns[0] is a
    assert result.eqns[1].inputs == [a.out, a.out]
    assert result.outputs == [c.out, a.out]
    assert c.inputs == [a.out, b.out]  # the input eqn is untouched


def test_cse_merges_along_chains_of_redirections():
    x = var(2, 3)
    first = [unary("exp", x)]
    second = [unary("exp", x)]
    for chain in (first, second):
        chain.append(unary("neg", chain[-1].out))
        chain.append(unary("sum", chain[-1].out, axes=(1,), keepdims=False))
    total = apply("add", [first[-1].out, second[-1].out])
    graph = Graph([x], [*first, *second, total], [total.out])
    result = check(graph, common_subexpression_elimination)
    assert names(result) == ["exp", "neg", "sum", "add"]
    assert result.eqns[-1].inputs == [first[-1].out, first[-1].out]


@pytest.mark.parametrize("one, other, merged", [
    (2.0, 2.0, True),
    (2.0, 2, False),  # a float and an int promote differently
    (0.0, -0.0, False),  # x * -0.0 differs from x * 0.0 in its sign
    (True, 1, False),
    (np.array(2.0, F32), np.array(2.0, F32), True),
    (np.array(2.0, F32), np.array(2.0, np.float64), False),
    (np.arange(3, dtype=F32), np.arange(3, dtype=F32), True),
    (np.arange(6, dtype=F32)[::2], np.array([0.0, 2.0, 4.0], F32), True),
    (np.arange(3, dtype=F32), np.arange(1, 4, dtype=F32), False),
    (np.ones(100, F32), np.ones(100, F32), False),  # large arrays: compared by identity
])
def test_cse_compares_literals_by_value(one, other, merged):
    x = var(100) if np.size(one) == 100 else var(3)
    a = apply("mul", [x, Literal(one)])
    b = apply("mul", [x, Literal(other)])
    graph = Graph([x], [a, b], [a.out, b.out])
    result = check(graph, common_subexpression_elimination)
    assert len(result.eqns) == (1 if merged else 2)


def test_cse_merges_a_large_array_literal_held_twice():
    x = var(100)
    weights = np.ones(100, F32)
    a = apply("mul", [x, Literal(weights)])
    b = apply("mul", [x, Literal(weights)])
    result = check(Graph([x], [a, b], [a.out, b.out]), common_subexpression_elimination)
    assert result.outputs == [a.out, a.out]


def test_cse_compares_params():
    x = var(2, 3)
    eqns = [unary("transpose", x, axes=(1, 0)), unary("transpose", x, axes=(1, 0)),
            unary("sum", x, axes=(0,), keepdims=False), unary("sum", x, axes=(1,), keepdims=False),
            unary("sum", x, axes=(1,), keepdims=True),
            unary("cast", x, dtype=np.dtype(np.float64)), unary("cast", x, dtype=np.float64),
            unary("cast", x, dtype=np.dtype(np.float16))]
    graph = Graph([x], eqns, [eqn.out for eqn in eqns])
    result = check(graph, common_subexpression_elimination)
    assert names(result) == ["transpose", "sum", "sum", "sum", "cast", "cast"]
    assert result.outputs[1] is eqns[0].out
    assert result.outputs[6] is eqns[5].out


def test_cse_compares_index_params_with_slices_and_arrays():
    from unigrad.ops.indexing import normalize_index
    x = var(4, 5)
    indices = [(slice(1, 3), np.array([0, 2])), (slice(1, 3), np.array([0, 2])),
               (slice(1, 3), np.array([0, 3])), (slice(0, 3), np.array([0, 2]))]
    eqns = [unary("index", x, index=normalize_index(index, x.shape)) for index in indices]
    graph = Graph([x], eqns, [eqn.out for eqn in eqns])
    result = check(graph, common_subexpression_elimination)
    assert len(result.eqns) == 3
    assert result.outputs[1] is eqns[0].out


def test_hashable_key_of_nested_params():
    def params():
        return {"index": (slice(None, 2), np.array([1, 2]), None, Ellipsis),
                "dtype": np.dtype(F32), "shape": [2, 3], "nested": ((1, 2.5), np.int64)}
    assert hashable_key(params()) == hashable_key(params())
    hash(hashable_key(params()))
    changed = params()
    changed["index"] = (slice(None, 3), np.array([1, 2]), None, Ellipsis)
    assert hashable_key(changed) != hashable_key(params())
    assert hashable_key({"dtype": F32}) == hashable_key({"dtype": np.dtype(F32)})
    assert hashable_key(np.array([1, 2], np.int32)) != hashable_key(np.array([1, 2], np.int64))


def test_cse_compares_unhashable_params_by_identity():
    x = var(3)
    table, equal_table = bytearray(b"\x01"), bytearray(b"\x01")
    eqns = [Eqn(Lookup, [x], var(3), {"table": table}) for _ in range(2)]
    eqns.append(Eqn(Lookup, [x], var(3), {"table": equal_table}))
    graph = Graph([x], eqns, [eqn.out for eqn in eqns])
    result = check(graph, common_subexpression_elimination)
    assert result.outputs == [eqns[0].out, eqns[0].out, eqns[2].out]


def test_cse_never_merges_impure_primitives():
    x = var(3)
    a, b = (Eqn(FakeRandom, [x], var(3), {}) for _ in range(2))
    graph = Graph([x], [a, b], [a.out, b.out])
    graph.verify()
    result = common_subexpression_elimination(graph)
    assert result.eqns == [a, b]
    first, second = evaluate(result, np.zeros(3, F32))
    assert not np.array_equal(first, second)


# ----------------------------------------------------------------------------- constant folding

def test_fold_replaces_an_all_literal_output_by_a_literal():
    y = Var((), np.float64)
    graph = Graph([], [Eqn(P["add"], [Literal(1.0), Literal(2.0)], y, {})], [y])
    result = check(graph, constant_folding)
    assert result.eqns == []
    (output,) = result.outputs
    assert isinstance(output, Literal)
    assert isinstance(output.value, np.ndarray)
    assert output.value.dtype == np.float64 and output.value.shape == ()
    assert output.value == 3.0


def test_fold_follows_chains_and_rewires_uses():
    x = var(3)
    three = apply("add", [Literal(np.array(1.0, F32)), Literal(np.array(2.0, F32))])
    nine = apply("mul", [three.out, three.out])
    y = apply("mul", [x, nine.out])
    graph = Graph([x], [three, nine, y], [y.out, nine.out])
    result = check(graph, constant_folding)
    assert names(result) == ["mul"]
    folded = result.eqns[0].inputs[1]
    assert isinstance(folded, Literal) and folded.value.dtype == F32 and folded.value == 9.0
    assert result.outputs[1].value == 9.0
    assert_allclose(evaluate(result, np.ones(3, F32))[0], [9.0, 9.0, 9.0])


def test_fold_casts_to_the_output_dtype():
    # NumPy returns NumPy scalars here: they become 0-d arrays of the output's dtype
    y = Var((), np.int64)
    graph = Graph([], [Eqn(P["add"], [Literal(2), Literal(3)], y, {})], [y])
    result = check(graph, constant_folding)
    value = result.outputs[0].value
    assert type(value) is np.ndarray and value.dtype == np.int64 and value == 5
    z = Var((), F32)
    graph = Graph([], [Eqn(P["exp"], [Literal(np.float32(0.0))], z, {})], [z])
    value = check(graph, constant_folding).outputs[0].value
    assert type(value) is np.ndarray and value.dtype == F32 and value == 1.0


def test_fold_keeps_results_too_large_to_bake_in():
    x = var(100, 100)
    big = unary("broadcast_to", Literal(np.array(1.0, F32)), shape=(100, 100))
    small = unary("broadcast_to", Literal(np.array(2.0, F32)), shape=(4, 4))
    y = apply("mul", [x, big.out])
    graph = Graph([x], [big, small, y], [y.out, small.out])
    assert big.out.size > LARGEST_FOLDED_SIZE
    result = check(graph, constant_folding)
    assert names(result) == ["broadcast_to", "mul"]
    folded = result.outputs[1].value
    assert folded.shape == (4, 4) and folded.dtype == F32
    assert_array_equal(folded, np.full((4, 4), 2.0, F32))


def test_fold_skips_impure_primitives_and_eqns_that_fail():
    y = Var((3,), F32)
    random = Eqn(FakeRandom, [Literal(np.zeros(3, F32))], y, {})
    z = Var((1,), np.float64)
    failing = Eqn(P["reshape"], [Literal(2.0)], z, {"shape": (1,)})  # a float has no .reshape
    graph = Graph([], [random, failing], [y, z])
    graph.verify()
    assert constant_folding(graph).eqns == [random, failing]


# ----------------------------------------------------------------------------- simplification

@pytest.mark.parametrize("name, constant, position", [
    ("mul", 1.0, 1), ("mul", 1.0, 0), ("add", 0.0, 1), ("add", 0.0, 0), ("sub", 0.0, 1),
    ("div", 1.0, 1), ("mul", np.array(1, np.int8), 1), ("add", np.array(0.0, F32), 0),
    ("mul", np.ones((2, 3), F32), 0),
])
def test_simplify_drops_neutral_operands(name, constant, position):
    x = var(2, 3)
    operands = [x, Literal(constant)] if position == 1 else [Literal(constant), x]
    eqn = apply(name, operands)
    result = check(Graph([x], [eqn], [eqn.out]), algebraic_simplification)
    assert result.outputs == [x]
    assert result.eqns == []


@pytest.mark.parametrize("name, constant, position", [
    ("mul", 0.0, 1),  # nan * 0 is nan
    ("sub", 0.0, 0),  # 0 - x is -x
    ("div", 1.0, 0),  # 1 / x
    ("mul", 2.0, 1),
    ("mul", np.array(1.0, np.float64), 1),  # the output is float64: x is float32
    ("add", np.zeros((4, 2, 3), F32), 1),  # the output is larger than x
    ("mul", np.array([1.0, 2.0, 1.0], F32), 1),  # not one constant
])
def test_simplify_keeps_what_is_not_an_identity(name, constant, position):
    x = var(2, 3)
    operands = [x, Literal(constant)] if position == 1 else [Literal(constant), x]
    eqn = apply(name, operands)
    result = check(Graph([x], [eqn], [eqn.out]), algebraic_simplification)
    assert result.eqns == [eqn]
    assert result.outputs == [eqn.out]


def test_simplify_sees_broadcast_constants():
    g = var(2, 3)
    ones = unary("broadcast_to", Literal(np.array(1.0, F32)), shape=(2, 3))
    zeros = unary("broadcast_to", Literal(np.float32(0.0)), shape=(1, 3))
    zeros_again = unary("broadcast_to", zeros.out, shape=(2, 3))
    scaled = apply("mul", [g, ones.out])
    shifted = apply("add", [zeros_again.out, scaled.out])
    graph = Graph([g], [ones, zeros, zeros_again, scaled, shifted], [shifted.out])
    result = check(graph, algebraic_simplification)
    assert result.outputs == [g]
    assert names(dead_code_elimination(result)) == []


def test_simplify_respects_types_of_broadcast_constants():
    g = var(1, 3)
    ones = unary("broadcast_to", Literal(np.array(1.0, F32)), shape=(2, 3))
    wider = apply("mul", [g, ones.out])  # (2, 3): g is (1, 3)
    ones64 = unary("broadcast_to", Literal(1.0), shape=(1, 3))
    promoted = apply("mul", [g, ones64.out])  # float64: g is float32
    graph = Graph([g], [ones, wider, ones64, promoted], [wider.out, promoted.out])
    result = check(graph, algebraic_simplification)
    assert result.eqns == graph.eqns
    assert result.outputs == graph.outputs


def test_simplify_removes_double_negation():
    x = var(3)
    eqns = [unary("neg", x)]
    for _ in range(2):
        eqns.append(unary("neg", eqns[-1].out))
    graph = Graph([x], eqns, [eqns[1].out, eqns[2].out])
    result = check(graph, algebraic_simplification)
    assert result.outputs == [x, eqns[2].out]
    (remaining,) = dead_code_elimination(result).eqns
    assert remaining.prim.name == "neg" and remaining.inputs == [x]


@pytest.mark.parametrize("inner, outer, composed", [
    ((1, 2, 0), (2, 0, 1), None),
    ((1, 0, 2), (0, 2, 1), (1, 2, 0)),
    ((-2, -3, -1), (0, -1, 1), (1, 2, 0)),
    ((2, 0, 1), (0, 1, 2), (2, 0, 1)),
])
def test_simplify_composes_transposes(inner, outer, composed):
    x = var(2, 3, 4)
    first = unary("transpose", x, axes=inner)
    second = unary("transpose", first.out, axes=outer)
    graph = Graph([x], [first, second], [second.out])
    result = dead_code_elimination(check(graph, algebraic_simplification))
    if composed is None:
        assert result.outputs == [x] and result.eqns == []
    else:
        (eqn,) = result.eqns
        assert eqn.prim.name == "transpose" and eqn.inputs == [x]
        assert eqn.params["axes"] == composed and eqn.out is second.out
    assert second.inputs == [first.out] and second.params["axes"] == outer


def test_simplify_removes_identity_transpose_reshape_broadcast_and_cast():
    x = var(2, 3)
    eqns = [unary("transpose", x, axes=(0, 1)), unary("reshape", x, shape=(2, -1)),
            unary("broadcast_to", x, shape=(2, 3)), unary("cast", x, dtype=np.dtype(F32))]
    graph = Graph([x], eqns, [eqn.out for eqn in eqns])
    result = check(graph, algebraic_simplification)
    assert result.outputs == [x, x, x, x]
    assert result.eqns == []


def test_simplify_keeps_real_reshapes_broadcasts_and_casts():
    x = var(2, 3)
    eqns = [unary("reshape", x, shape=(3, 2)), unary("broadcast_to", x, shape=(4, 2, 3)),
            unary("cast", x, dtype=np.dtype(np.float64)), unary("transpose", x, axes=(1, 0))]
    graph = Graph([x], eqns, [eqn.out for eqn in eqns])
    result = check(graph, algebraic_simplification)
    assert result.eqns == eqns


def test_simplify_composes_reshapes():
    x = var(2, 3, 4)
    flat = unary("reshape", x, shape=(24,))
    matrix = unary("reshape", flat.out, shape=(6, -1))
    back = unary("reshape", flat.out, shape=(2, 3, 4))
    graph = Graph([x], [flat, matrix, back], [matrix.out, back.out])
    result = dead_code_elimination(check(graph, algebraic_simplification))
    (eqn,) = result.eqns
    assert eqn.inputs == [x] and eqn.params["shape"] == (6, -1) and eqn.out is matrix.out
    assert result.outputs == [matrix.out, x]


def test_simplify_follows_chains_of_replacements():
    x = var(3)
    times_one = apply("mul", [x, Literal(1.0)])
    plus_zero = apply("add", [times_one.out, Literal(0.0)])
    negated = unary("neg", plus_zero.out)
    divided = apply("div", [negated.out, Literal(1.0)])
    back = unary("neg", divided.out)
    exp = unary("exp", back.out)
    graph = Graph([x], [times_one, plus_zero, negated, divided, back, exp], [exp.out])
    result = dead_code_elimination(check(graph, algebraic_simplification))
    assert names(result) == ["exp"]
    assert result.eqns[0].inputs == [x]
    assert exp.inputs == [back.out]


# ----------------------------------------------------------------------------- optimize

def backward_like_graph() -> tuple[Graph, Var]:
    """What tracing ``d/dx sum(exp(x) * w)`` twice might give: ones, repeats, dead code."""
    x, w = var(2, 3), var(2, 3)
    one = apply("add", [Literal(np.array(0.5, F32)), Literal(np.array(0.5, F32))])
    ones = unary("broadcast_to", one.out, shape=(2, 3))
    eqns = [one, ones]
    grads = []
    for _ in range(2):
        exp = unary("exp", x)
        product = apply("mul", [exp.out, w])
        total = unary("sum", product.out, axes=(0, 1), keepdims=False)
        g = apply("mul", [ones.out, w])
        grad = apply("mul", [g.out, exp.out])
        eqns += [exp, product, total, g, grad]
        grads.append(grad.out)
    transposed = unary("transpose", grads[1], axes=(1, 0))
    back = unary("transpose", transposed.out, axes=(1, 0))
    result = apply("add", [grads[0], back.out])
    eqns += [transposed, back, result]
    return Graph([x, w], eqns, [result.out]), x


def test_optimize_runs_the_passes_to_a_fixed_point():
    graph, x = backward_like_graph()
    result = check(graph, optimize)
    assert names(result) == ["exp", "mul", "add"]
    exp, product, total = result.eqns
    assert exp.inputs == [x]
    assert product.inputs == [graph.inputs[1], exp.out]
    assert total.inputs == [product.out, product.out]
    again = optimize(result)
    assert again.eqns == result.eqns and again.outputs == result.outputs
    assert len(graph.eqns) == 15


def test_optimize_with_chosen_passes_and_the_default_order():
    assert [name for name, _ in PASSES] == [
        "algebraic_simplification", "constant_folding", "common_subexpression_elimination",
        "dead_code_elimination"]
    graph, _ = backward_like_graph()
    only_dce = check(graph, lambda g: optimize(g, passes=[("dce", dead_code_elimination)]))
    assert len(only_dce.eqns) == len(graph.eqns) - 4  # the two unused products and sums
    assert "sum" not in names(only_dce)
    only_cse = check(graph, lambda g: optimize(
        g, passes=[("cse", common_subexpression_elimination), ("dce", dead_code_elimination)]))
    assert names(only_cse) == ["add", "broadcast_to", "exp", "mul", "mul", "transpose",
                               "transpose", "add"]
