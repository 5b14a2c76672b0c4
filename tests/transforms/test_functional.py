"""JAX-style transforms (vjp, jvp, linearize, jacobians, hessian, hvp), their composition
to any order, nesting with the tape, and thread safety."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import unigrad as ug
import unigrad.autograd.forward_ad as fwAD


def t64(values):
    return ug.tensor(values, dtype=ug.float64)


def assert_close(tensor, expected, rtol=1e-10, atol=1e-12):
    assert isinstance(tensor, ug.Tensor)
    np.testing.assert_allclose(tensor.numpy(), expected, rtol=rtol, atol=atol)


def cubic(x):
    return (x ** 3).sum()


# ------------------------------------------------------------------ vjp

def test_vjp_returns_one_gradient_per_primal_and_is_reusable():
    out, pull = ug.vjp(lambda x, y: x * y, t64([1.0, 2.0]), t64(3.0))
    assert_close(out, [3.0, 6.0])
    gx, gy = pull(t64([1.0, 10.0]))
    assert_close(gx, [3.0, 30.0])
    assert_close(gy, 21.0)
    gx, gy = pull(t64([0.0, 1.0]))
    assert_close(gx, [0.0, 3.0])
    (only,) = ug.vjp(ug.sin, t64(0.0))[1](t64(2.0))
    assert_close(only, 2.0)


def test_vjp_pytrees_and_aux():
    params = {"w": t64([1.0, 2.0]), "b": t64(0.5)}
    out, pull, aux = ug.vjp(lambda p: ((p["w"] * p["b"], p["b"] * 2), "note"), params,
                            has_aux=True)
    assert aux == "note"
    (grads,) = pull((t64([1.0, 1.0]), t64(1.0)))
    assert_close(grads["w"], [0.5, 0.5])
    assert_close(grads["b"], 3.0 + 2.0)


def test_vjp_errors():
    _, pull = ug.vjp(lambda x: (x, x), t64(1.0))
    with pytest.raises(ValueError, match="structure"):
        pull(t64(1.0))
    with pytest.raises(ValueError, match="shape"):
        ug.vjp(lambda x: x * 2, t64([1.0, 2.0]))[1](t64([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError, match="The 'has_aux' must be bool type."):
        ug.vjp(lambda x: x, t64(1.0), has_aux=1)
    with pytest.raises(ValueError, match="When 'has_aux' is True, origin 'fn' requires more"):
        ug.vjp(lambda x: x, t64(1.0), has_aux=True)


# ------------------------------------------------------------------ jvp

def test_jvp_is_forward_mode_not_double_vjp():
    calls = []

    def f(x):
        calls.append(fwAD.tangent_of(x, ug.autograd.forward_ad._active_levels()[-1]))
        return ug.exp(x) * 2

    out, tangent = ug.jvp(f, (t64([0.0, 1.0]),), (t64([1.0, 2.0]),))
    assert len(calls) == 1 and calls[0] is not None  # one pass carrying the tangent
    assert_close(out, 2 * np.exp([0.0, 1.0]))
    assert_close(tangent, 2 * np.exp([0.0, 1.0]) * [1.0, 2.0])


def test_jvp_accepts_mindspore_single_tensor_and_lists():
    out, tangent = ug.jvp(lambda x: x * x, t64(3.0), t64(1.0))
    assert_close(out, 9.0)
    assert_close(tangent, 6.0)
    out, tangent = ug.jvp(lambda x, y: x * y, [t64(2.0), t64(5.0)], [t64(1.0), t64(0.0)])
    assert_close(tangent, 5.0)


def test_jvp_outputs_without_tangent_are_zeros_and_aux():
    out, tangent, aux = ug.jvp(lambda x: ((x * 2, t64(7.0)), x * 3), (t64(1.0),), (t64(1.0),),
                               has_aux=True)
    assert_close(tangent[0], 2.0)
    assert_close(tangent[1], 0.0)
    assert_close(aux, 3.0)


def test_jvp_errors():
    with pytest.raises(ValueError, match="v has invalid length: should be 2, but got 1"):
        ug.jvp(lambda x, y: x, (t64(1.0), t64(2.0)), (t64(1.0),))
    with pytest.raises(TypeError, match="The inputs type must be a Tensor, tuple or list"):
        ug.jvp(lambda x: x, 1.0, 1.0)
    with pytest.raises(ValueError, match="tangent shape"):
        ug.jvp(lambda x: x, (t64([1.0, 2.0]),), (t64(1.0),))


# ------------------------------------------------------------------ linearize

def test_linearize_does_not_rerun_fn():
    calls = []

    def f(x):
        calls.append(1)
        return ug.sin(x) * x

    x = t64([0.5, 1.5])
    out, f_jvp = ug.linearize(f, x)
    assert len(calls) == 1
    for direction in ([1.0, 0.0], [0.3, -2.0]):
        expected = ug.jvp(f, (x,), (t64(direction),))[1]
        assert_close(f_jvp(t64(direction)), expected.numpy())
    assert len(calls) == 1 + 2  # the jvp reference calls only


# ------------------------------------------------------------------ jacobians and hessians

def f_vector(x, y):
    return ug.stack([x[0] * y, ug.sin(x[1]), x[0] * x[1]])


def test_jacrev_and_jacfwd_match_closed_form():
    x, y = t64([2.0, 0.5]), t64(3.0)
    expected_x = [[3.0, 0.0], [0.0, np.cos(0.5)], [0.5, 2.0]]
    expected_y = [2.0, 0.0, 0.0]
    for transform in (ug.jacrev, ug.jacfwd, ug.jacobian):
        jx, jy = transform(f_vector, argnums=(0, 1))(x, y)
        assert_close(jx, expected_x)
        assert_close(jy, expected_y)
        assert_close(transform(f_vector)(x, y), expected_x)
        assert_close(transform(f_vector, grad_position=1)(x, y), expected_y)


def test_jacobian_shapes_for_matrices_and_pytree_outputs():
    a = t64(np.arange(6.0).reshape(2, 3))
    jac = ug.jacrev(lambda m: {"t": m.T * 2, "s": m.sum()})(a)
    assert tuple(jac["t"].shape) == (3, 2, 2, 3) and tuple(jac["s"].shape) == (2, 3)
    assert_close(jac["s"], np.ones((2, 3)))
    forward = ug.jacfwd(lambda m: {"t": m.T * 2, "s": m.sum()})(a)
    assert_close(forward["t"], jac["t"].numpy())


def test_jacobian_with_aux_and_argument_errors():
    jac, aux = ug.jacrev(lambda x: (x * 2, x.sum()), has_aux=True)(t64([1.0, 2.0]))
    assert_close(jac, 2 * np.eye(2))
    assert_close(aux, 3.0)
    with pytest.raises(RuntimeError, match=r"jacrev: Got argnums=1, but only 1 positional inputs"):
        ug.jacrev(lambda x: x, argnums=1)(t64(1.0))
    with pytest.raises(ValueError, match=r"The element in grad_position must belong to \[0, "):
        ug.jacrev(lambda x: x, grad_position=1)(t64(1.0))
    with pytest.raises(TypeError, match="argnums"):
        ug.jacfwd(lambda x: x, argnums=[0])(t64(1.0))
    for transform in (ug.jacrev, ug.jacfwd):
        with pytest.raises(TypeError, match="argument 0 must be a Tensor"):
            transform(lambda x: x)(2.0)


def test_hessian_equals_closed_form():
    def rosenbrock(v):
        return (1 - v[0]) ** 2 + 100 * (v[1] - v[0] ** 2) ** 2

    x0, y0 = 0.7, -0.3
    expected = [[2 - 400 * (y0 - x0 ** 2) + 800 * x0 ** 2, -400 * x0], [-400 * x0, 200.0]]
    assert_close(ug.hessian(rosenbrock)(t64([x0, y0])), expected, rtol=1e-9)
    assert_close(ug.jacrev(ug.jacrev(rosenbrock))(t64([x0, y0])), expected, rtol=1e-9)
    assert_close(ug.jacfwd(ug.jacfwd(rosenbrock))(t64([x0, y0])), expected, rtol=1e-9)


def test_hvp_matches_hessian_times_vector():
    x, v = t64([0.3, -1.2, 2.0]), t64([1.0, 0.5, -2.0])

    def f(x):
        return (ug.tanh(x) * x.sum()).sum()

    (product,) = ug.hvp(f, (x,), (v,))
    assert_close(product, ug.hessian(f)(x).numpy() @ v.numpy(), rtol=1e-9)


# ------------------------------------------------------------------ composition to any order

def test_grad_of_grad_of_grad():
    f = lambda x: ug.sin(x) * x  # noqa: E731
    x = t64(0.8)
    d1 = ug.grad(f)(x)
    d2 = ug.grad(ug.grad(f))(x)
    d3 = ug.grad(ug.grad(ug.grad(f)))(x)
    s, c = np.sin(0.8), np.cos(0.8)
    assert_close(d1, s + 0.8 * c)
    assert_close(d2, 2 * c - 0.8 * s)
    assert_close(d3, -3 * s - 0.8 * c)
    assert not d3.requires_grad


def test_jvp_of_grad_and_grad_of_jvp():
    x, v = t64(0.8), t64(1.0)
    f = lambda x: ug.exp(x) * ug.tanh(x)  # noqa: E731
    second = ug.grad(ug.grad(f))(x)
    assert_close(ug.jvp(ug.grad(f), (x,), (v,))[1], second.numpy())
    assert_close(ug.grad(lambda x: ug.jvp(f, (x,), (v,))[1])(x), second.numpy())
    assert_close(ug.jvp(lambda x: ug.jvp(f, (x,), (v,))[1], (x,), (v,))[1], second.numpy())


def test_grad_with_weights_nested_inside_grad():
    w = ug.tensor(3.0, dtype=ug.float64, requires_grad=True)

    def inner(x):
        return ug.grad(lambda x: (w * x) ** 2, None, w)(x)  # d/dw = 2 w x^2

    assert_close(ug.grad(inner)(t64(2.0)), 4 * 3.0 * 2.0)  # d/dx 2 w x^2


def test_results_are_plain_tensors_unless_the_input_is_on_a_tape():
    assert not ug.grad(cubic)(t64([1.0])).requires_grad
    x = ug.tensor([1.0, 2.0], dtype=ug.float64, requires_grad=True)
    g = ug.grad(cubic)(x)
    assert g.requires_grad
    g.sum().backward()  # d/dx sum(3 x^2) = 6x
    assert_close(x.grad, [6.0, 12.0])


def test_tape_inside_a_transform():
    def f(x):
        x = x.clone()
        (g,) = ug.autograd.grad((x ** 3).sum(), x, create_graph=True)
        return g.sum()

    assert_close(ug.grad(f)(t64([1.0, 2.0])), [6.0, 12.0])


# ------------------------------------------------------------------ threads

def test_eight_threads_get_single_threaded_results():
    f = ug.grad(lambda x, y: (ug.tanh(x * y) ** 2).sum() + x.sum() ** 3, (0, 1))
    inputs = [(t64(np.linspace(-1, 1, 5) * (i + 1)), t64(0.5 + i)) for i in range(8)]
    expected = [tuple(g.numpy() for g in f(*args)) for args in inputs]
    results: dict = {}
    errors = []
    barrier = threading.Barrier(8)

    def work(index):
        try:
            barrier.wait()
            for _ in range(25):
                got = f(*inputs[index])
                results.setdefault(index, []).append(tuple(g.numpy() for g in got))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    for index in range(8):
        for got in results[index]:
            for g, e in zip(got, expected[index]):
                np.testing.assert_array_equal(g, e)
