"""Control-flow primitives in graph mode: cond/switch, while_loop, fori_loop, scan.

Inside ``ug.jit`` each is one equation holding its branches or body; one trace
serves every branch and trip count; gradients (both modes, both orders where
defined), vmap and in-place effects in branches agree with eager Python, also on
randomly generated programs.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad.ops.control import compiled_loops


def f64(*values):
    return ug.tensor(np.array(values, dtype=np.float64))


def close(a, b, tol=1e-10):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


# ----------------------------------------------------------------------------- cond

def branchy(x):
    return ug.cond(x.sum() > 0, lambda v: (v * v).sum(), lambda v: ug.sin(v).sum() * 3.0, x)


def test_one_trace_serves_both_branches_and_the_graph_holds_them():
    compiled = ug.jit(branchy)
    assert float(compiled(f64(1.0, 2.0))) == 5.0
    close(compiled(f64(-1.0, 0.5)), np.sin([-1.0, 0.5]).sum() * 3.0)
    assert compiled.trace_count == 1
    text = str(compiled.graph)
    assert "cond(" in text and "false_fn:" in text and "true_fn:" in text
    assert "sin(" in text and "mul(" in text


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_cond_gradients_go_through_the_chosen_branch(sign):
    x = f64(0.3, 1.2) * sign
    expected = ug.grad(branchy)(x)
    close(ug.grad(ug.jit(branchy))(x), expected)
    close(ug.jit(ug.grad(branchy))(x), expected)
    close(ug.jvp(ug.jit(branchy), (x,), (f64(1.0, -2.0),))[1],
          ug.jvp(branchy, (x,), (f64(1.0, -2.0),))[1])


def test_untaken_branch_does_not_poison_gradients():
    # where()-based selection would give nan here: the log branch is not taken
    f = ug.jit(lambda x: ug.cond(x > 0, lambda v: ug.log(v), lambda v: v * 2.0, x))
    close(ug.grad(f)(ug.tensor(-1.0, dtype=ug.float64)), 2.0)


def test_vmap_of_cond_with_a_per_example_predicate():
    batch = ug.tensor(np.array([[1.0, 2.0], [-1.0, 0.5], [3.0, -4.0]]))
    close(ug.vmap(branchy)(batch), [float(branchy(row)) for row in batch])
    close(ug.vmap(ug.grad(branchy))(batch), np.stack([ug.grad(branchy)(row).numpy()
                                                      for row in batch]))


def test_switch_clamps_its_index_under_jit():
    branches = [lambda v: v + 1.0, lambda v: v * 10.0, lambda v: -v]
    f = ug.jit(lambda i, x: ug.switch(i, branches, x))
    x = ug.tensor(2.0)
    assert [float(f(ug.tensor(i), x)) for i in (-3, 0, 1, 2, 9)] == [3.0, 3.0, 20.0, -2.0, -2.0]
    assert f.trace_count == 1


def test_in_place_updates_in_a_branch_happen_only_when_it_is_taken():
    def run(compile_step: bool, optimizer):
        ug.manual_seed(0)
        model = ug.nn.Linear(2, 1)
        opt = optimizer(model.parameters(), lr=0.1)

        def step(x):
            opt.zero_grad()
            loss = (model(x) ** 2).mean()
            loss.backward()
            finite = ug.amp.all_finite([p.grad for p in model.parameters()])
            ug.cond(finite, lambda: opt.step(), lambda: None)
            return loss
        f = ug.jit(step) if compile_step else step
        losses = [float(f(ug.ones(4, 2) * (float("nan") if i == 1 else 1.0))) for i in range(4)]
        return losses, model.weight.detach().numpy().copy(), f
    for optimizer in (ug.optim.SGD, ug.optim.Adam):
        eager_losses, eager_weight, _ = run(False, optimizer)
        jit_losses, jit_weight, compiled = run(True, optimizer)
        np.testing.assert_allclose(jit_losses, eager_losses, rtol=1e-4)
        np.testing.assert_allclose(jit_weight, eager_weight, rtol=1e-4)
        assert np.isnan(jit_losses[1]) and compiled.trace_count == 1


def test_cond_branches_must_agree():
    f = ug.jit(lambda x: ug.cond(x.sum() > 0, lambda v: v, lambda v: v[:1], x))
    with pytest.raises(TypeError, match=r"same shape and dtype, got f32\[1\] and f32\[2\]"):
        f(ug.ones(2))
    with pytest.raises(ValueError, match="'pred' must be a single boolean"):
        ug.cond(ug.ones(2) > 0, lambda: 1, lambda: 2)


# ----------------------------------------------------------------------------- while_loop

def newton_sqrt(a):
    """``while err > tol and i < 50``: a trip count that depends on the data."""
    def keep_going(state):
        x, i = state
        return ug.logical_and((x * x - a).abs().max() > 1e-12, i < 50)

    def step(state):
        x, i = state
        return 0.5 * (x + a / x), i + 1
    return ug.while_loop(keep_going, step, (a, 0))


def test_while_loop_with_a_data_dependent_trip_count():
    compiled = ug.jit(newton_sqrt)
    root, steps = compiled(f64(4.0, 9.0))
    close(root, [2.0, 3.0])
    root, more_steps = compiled(f64(400.0, 1e6))
    close(root, [20.0, 1000.0])
    assert int(more_steps) > int(steps) and compiled.trace_count == 1
    assert "while_loop(" in str(compiled.graph)


def test_while_loop_gradients_in_both_modes():
    loss = lambda a: newton_sqrt(a)[0].sum()  # noqa: E731
    a = f64(4.0, 2.5)
    expected = 0.5 / np.sqrt([4.0, 2.5])
    close(ug.grad(loss)(a), expected, 1e-8)
    close(ug.grad(ug.jit(loss))(a), expected, 1e-8)
    close(ug.jit(ug.grad(loss))(a), expected, 1e-8)
    close(ug.jvp(ug.jit(loss), (a,), (f64(1.0, 1.0),))[1], expected.sum(), 1e-8)


def test_vmap_of_while_loop_runs_each_example_its_own_number_of_steps():
    roots, steps = ug.vmap(newton_sqrt)(f64(4.0, 1e6, 2.0))
    close(roots, np.sqrt([4.0, 1e6, 2.0]))
    assert len(set(steps.tolist())) > 1


def test_the_gradient_of_while_loops_gradient_is_refused():
    loss = ug.jit(lambda a: newton_sqrt(a)[0].sum())
    with pytest.raises(NotImplementedError, match="fori_loop or scan"):
        ug.grad(lambda a: ug.grad(loss)(a).sum())(f64(4.0))


def test_while_loop_carries_keep_their_types():
    f = ug.jit(lambda x: ug.while_loop(lambda v: v.sum() < 3, lambda v: ug.cat([v, v]), x))
    with pytest.raises(TypeError, match=r"carry 0 enters as f32\[1\] and leaves as f32\[2\]"):
        f(ug.ones(1))


# ----------------------------------------------------------------------------- fori_loop / scan

def rk4_rollout(state, weight, steps=20, dt=0.05):
    """An ODE integrated by RK4 through a tiny network (the issue's target workload)."""
    field = lambda y: ug.tanh(y @ weight)  # noqa: E731

    def step(_, y):
        k1 = field(y)
        k2 = field(y + 0.5 * dt * k1)
        k3 = field(y + 0.5 * dt * k2)
        k4 = field(y + dt * k3)
        return y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    return ug.fori_loop(0, steps, step, state)


def test_fori_loop_is_one_scan_and_its_gradients_match_eager():
    rng = np.random.default_rng(0)
    state = ug.tensor(rng.standard_normal((3, 4)))
    weight = ug.tensor(rng.standard_normal((4, 4)) * 0.5)
    loss = lambda s, w: (rk4_rollout(s, w) ** 2).sum()  # noqa: E731
    compiled = ug.jit(loss)
    close(compiled(state, weight), loss(state, weight))
    assert [e.prim.name for e in compiled.graph.eqns].count("scan") == 1
    expected = ug.grad(loss, grad_position=(0, 1))(state, weight)
    for got in (ug.grad(compiled, grad_position=(0, 1))(state, weight),
                ug.jit(ug.grad(loss, grad_position=(0, 1)))(state, weight)):
        for a, b in zip(got, expected):
            close(a, b, 1e-9)


def test_scan_second_order_and_forward_mode_match_eager():
    def loss(x):
        carry, ys = ug.scan(lambda c, v: (ug.sin(c) * v + v, c * v), x[0], x)
        return carry + ys.sum()
    x = f64(0.3, -0.7, 1.1)
    close(ug.hessian(ug.jit(loss))(x), ug.hessian(loss)(x), 1e-9)
    close(ug.jvp(ug.jit(loss), (x,), (f64(1.0, 0.5, -1.0),))[1],
          ug.jvp(loss, (x,), (f64(1.0, 0.5, -1.0),))[1], 1e-9)


def test_scan_over_parameters_of_a_module_fills_their_grad():
    def run(compile_it: bool):
        ug.manual_seed(1)
        layer = ug.nn.Linear(3, 3)
        xs = ug.ones(5, 3)

        def loss():
            carry, _ = ug.scan(lambda c, x: (ug.tanh(layer(c) + x), None), ug.zeros(3), xs)
            return carry.sum()
        (ug.jit(loss) if compile_it else loss)().backward()
        return layer.weight.grad.numpy()
    np.testing.assert_allclose(run(True), run(False), rtol=1e-5, atol=1e-6)


def test_reverse_scan_and_pytree_carries():
    def f(xs):
        (total, count), ys = ug.scan(lambda c, x: ((c[0] + x, c[1] + 1), c[0]), (0.0, 0), xs,
                                     reverse=True)
        return total, count, ys
    xs = ug.tensor([1.0, 2.0, 3.0])
    for got in (ug.jit(f)(xs), f(xs)):
        assert float(got[0]) == 6.0 and int(got[1]) == 3
        assert got[2].tolist() == [5.0, 3.0, 0.0]


def test_compiled_loops_run_the_primitives_eagerly():
    with compiled_loops():
        value = ug.fori_loop(0, 100, lambda i, x: x * 0.5 + 1.0, ug.tensor(0.0))
    close(value, 2.0, 1e-6)


# ----------------------------------------------------------------------------- random programs

def random_program(seed: int):
    """A random composition of elementwise ops, cond, while_loop, fori_loop and scan."""
    rng = np.random.default_rng(seed)
    unary = [ug.sin, ug.tanh, lambda v: v * 0.7 + 0.1, lambda v: v * v * 0.3, ug.cos]

    def pick():
        return unary[int(rng.integers(len(unary)))]

    def block(depth: int):
        kind = int(rng.integers(5 if depth < 2 else 1))
        first, second = pick(), pick()
        if kind == 0:
            return lambda x: second(first(x))
        inner = block(depth + 1)
        if kind == 1:
            return lambda x: ug.cond(x.sum() > 0, inner, first, x)
        if kind == 2:
            steps = int(rng.integers(1, 4))
            return lambda x: ug.fori_loop(0, steps, lambda i, v: inner(v) + 0.1, x)
        if kind == 3:
            return lambda x: ug.scan(lambda c, v: (inner(c) * 0.5 + v, c.sum()), x,
                                     ug.stack([x, first(x)]))[0] + x
        return lambda x: ug.while_loop(lambda c: c[1] < 3, lambda c: (inner(c[0]), c[1] + 1),
                                       (x, 0))[0]
    program = block(0)
    return lambda x: (program(x) ** 2).sum()


@pytest.mark.parametrize("seed", range(12))
def test_random_programs_agree_with_eager_in_values_and_gradients(seed):
    program = random_program(seed)
    x = ug.tensor(np.random.default_rng(100 + seed).standard_normal(3))
    close(ug.jit(program)(x), program(x), 1e-9)
    expected = ug.grad(program)(x)
    close(ug.grad(ug.jit(program))(x), expected, 1e-9)
    close(ug.jit(ug.grad(program))(x), expected, 1e-9)
