"""Custom derivative rules: stop_gradient, custom_vjp, custom_jvp, custom_gradient, Cell bprop."""

from __future__ import annotations

import math
import threading

import numpy as np
import pytest

import unigrad as ug
import unigrad.autograd.forward_ad as fwAD
from unigrad.interpreters import eager


def scalar(value: float) -> ug.Tensor:
    return ug.tensor(value, dtype=ug.float64)


def close(tensor, expected, tol: float = 1e-10) -> bool:
    return np.allclose(np.asarray(tensor.detach().numpy()), expected, atol=tol, rtol=tol)


# ----------------------------------------------------------------------------- stop_gradient

def test_stop_gradient_blocks_the_gradient():
    assert ug.grad(lambda x: ug.stop_gradient(x) ** 2 + x)(ug.tensor(3.0)).item() == 1.0


def test_stop_gradient_blocks_every_nesting_level():
    # f'(x) = 2 x sg(x), and the outer derivative also treats sg(x) as a constant
    def f(x):
        return ug.stop_gradient(x) * x ** 2

    assert close(ug.grad(f)(scalar(3.0)), 18.0)
    assert close(ug.grad(ug.grad(f))(scalar(3.0)), 6.0)


def test_stop_gradient_with_backward_and_autograd_grad():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    (ug.stop_gradient(x) * x).sum().backward()
    assert close(x.grad, [1.0, 2.0])
    stopped = ug.stop_gradient(x * 3.0)
    assert not stopped.requires_grad and stopped.grad_fn is None
    assert close(stopped, [3.0, 6.0])


def test_stop_gradient_removes_forward_mode_tangents():
    _, tangent = ug.jvp(lambda x: ug.stop_gradient(x) * x, (scalar(3.0),), (scalar(1.0),))
    assert close(tangent, 3.0)
    with fwAD.dual_level():
        dual = fwAD.make_dual(scalar(2.0), scalar(1.0))
        assert fwAD.unpack_dual(ug.stop_gradient(dual)).tangent is None


def test_stop_gradient_on_pytrees_passes_other_leaves_through():
    x = ug.tensor(1.0, requires_grad=True)
    marker = object()
    tree = {"a": x * 2.0, "b": [x, 3, marker], "c": (None, "text")}
    result = ug.stop_gradient(tree)
    assert set(result) == {"a", "b", "c"}
    assert close(result["a"], 2.0) and not result["a"].requires_grad
    assert not result["b"][0].requires_grad and result["b"][0] is not x
    assert result["b"][1] == 3 and result["b"][2] is marker
    assert result["c"] == (None, "text")
    assert ug.stop_gradient(5) == 5
    assert ug.ops.stop_gradient is ug.stop_gradient


# ----------------------------------------------------------------------------- custom_vjp

def make_clipped_identity():
    @ug.custom_vjp
    def clip_gradient(x):
        return x * 1.0

    clip_gradient.defvjp(lambda x: (x * 1.0, None),
                         lambda _, g: (ug.clip(g, -1.0, 1.0),))
    return clip_gradient


def make_sine():
    @ug.custom_vjp
    def sine(x):
        return ug.sin(x)

    sine.defvjp(lambda x: (ug.sin(x), ug.cos(x)), lambda cos_x, g: (cos_x * g,))
    return sine


def test_custom_vjp_values_and_every_reverse_path():
    clip_gradient = make_clipped_identity()

    def f(x):
        return (clip_gradient(x) * 5.0).sum()

    x = ug.tensor([1.0, -2.0], dtype=ug.float64)
    assert close(clip_gradient(x), [1.0, -2.0])
    assert close(ug.grad(f)(x), [1.0, 1.0])
    leaf = x.clone().requires_grad_()
    f(leaf).backward()
    assert close(leaf.grad, [1.0, 1.0])
    assert close(ug.autograd.grad(f(leaf), leaf)[0], [1.0, 1.0])
    out, vjp_fn = ug.vjp(clip_gradient, x)
    assert close(out, [1.0, -2.0])
    assert close(vjp_fn(ug.tensor([3.0, -0.5], dtype=ug.float64))[0], [1.0, -0.5])


def test_custom_vjp_node_name_and_function_metadata():
    sine = make_sine()
    x = ug.tensor(0.3, requires_grad=True)
    assert sine(x).grad_fn.name() == "CustomVJPBackward"
    assert sine.__name__ == "sine"


def test_custom_vjp_pytree_output_and_cotangent():
    @ug.custom_vjp
    def split(x):
        return {"double": x * 2.0, "pair": (x * 3.0, "tag")}

    def split_fwd(x):
        return split(x), x.shape

    seen = []

    def split_bwd(shape, g):
        seen.append(g)
        assert g["pair"][1] == "tag"
        return (g["double"] * 20.0 + g["pair"][0] * 30.0,)

    split.defvjp(split_fwd, split_bwd)
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    out = split(x)
    assert out["pair"][1] == "tag" and close(out["double"], [2.0, 4.0])
    (out["double"].sum() + out["pair"][0].sum() * 2.0).backward()
    assert close(x.grad, [80.0, 80.0])
    assert set(seen[0]) == {"double", "pair"}
    _, vjp_fn = ug.vjp(split, ug.tensor([1.0, 2.0]))
    cotangent = {"double": ug.tensor([1.0, 0.0]), "pair": (ug.tensor([0.0, 1.0]), "tag")}
    assert close(vjp_fn(cotangent)[0], [20.0, 30.0])


def test_custom_vjp_unused_output_gets_a_zero_cotangent():
    @ug.custom_vjp
    def two(x):
        return x * 2.0, x * 3.0

    two.defvjp(lambda x: (two(x), None), lambda _, g: (g[0] * 2.0 + g[1] * 3.0,))
    x = ug.tensor(1.0, requires_grad=True)
    two(x)[1].backward()
    assert close(x.grad, 3.0)


def test_custom_vjp_nondiff_argnums():
    @ug.custom_vjp
    def power(n, x):
        return x ** n

    def power_fwd(n, x):
        return x ** n, x

    def power_bwd(n, x, g):
        return (g * n * x ** (n - 1) * 10.0,)

    power = ug.custom_vjp(power.fun, nondiff_argnums=(0,))
    power.defvjp(power_fwd, power_bwd)
    x = scalar(2.0)
    assert close(power(3, x), 8.0)
    assert close(ug.grad(lambda x: power(3, x))(x), 120.0)
    assert close(ug.grad(lambda x: power(n=2, x=x))(x), 40.0)


def test_custom_vjp_several_arguments_with_none_gradients():
    @ug.custom_vjp
    def mix(x, y, z):
        return x * y + z

    mix.defvjp(lambda x, y, z: (mix(x, y, z), (x, y)),
               lambda res, g: (g * res[1], None, g * 7.0))
    x, y, z = scalar(2.0), scalar(3.0), scalar(1.0)
    gx, gy, gz = ug.grad(mix, grad_position=(0, 1, 2))(x, y, z)
    assert close(gx, 3.0) and close(gy, 0.0) and close(gz, 7.0)
    xs = [t.clone().requires_grad_() for t in (x, y, z)]
    mix(*xs).backward()
    assert close(xs[0].grad, 3.0) and xs[1].grad is None and close(xs[2].grad, 7.0)


def test_custom_vjp_pytree_arguments():
    @ug.custom_vjp
    def weighted(params, x):
        return params["w"] * x + params["b"][0]

    weighted.defvjp(lambda p, x: (weighted(p, x), (p, x)),
                    lambda res, g: ({"w": g * res[1], "b": [g]}, g * res[0]["w"]))
    params = {"w": scalar(2.0), "b": [scalar(1.0)]}
    grads = ug.grad(weighted, grad_position=(0, 1))(params, scalar(5.0))
    assert close(grads[0]["w"], 5.0) and close(grads[0]["b"][0], 1.0)
    assert close(grads[1], 2.0)


def test_custom_vjp_second_order_uses_differentiable_residuals():
    sine = make_sine()
    x = scalar(0.5)
    assert close(ug.grad(sine)(x), math.cos(0.5))
    assert close(ug.grad(ug.grad(sine))(x), -math.sin(0.5))
    assert close(ug.grad(ug.grad(ug.grad(sine)))(x), -math.cos(0.5))
    leaf = scalar(0.5).requires_grad_()
    (g,) = ug.autograd.grad(sine(leaf), leaf, create_graph=True)
    assert close(ug.autograd.grad(g, leaf)[0], -math.sin(0.5))


def test_custom_vjp_rejects_forward_mode():
    sine = make_sine()
    message = "can't apply forward-mode autodiff (jvp) to a custom_vjp function."
    with pytest.raises(TypeError) as info:
        ug.jvp(sine, (scalar(0.5),), (scalar(1.0),))
    assert str(info.value) == message
    with fwAD.dual_level():
        with pytest.raises(TypeError, match="custom_vjp"):
            sine(fwAD.make_dual(scalar(0.5), scalar(1.0)))
        assert close(sine(scalar(0.0)), 0.0)  # no tangent: fine inside a level


def test_custom_vjp_mindspore_defbwd_spelling():
    @ug.custom_vjp
    def scaled(x, y):
        return x * y

    def bwd(x, y, out, dout):
        assert close(out, x.detach() * y.detach())
        return dout * y * 10.0, dout * x

    assert scaled.defbwd(bwd) is scaled
    x, y = scalar(2.0), scalar(3.0)
    assert close(scaled(x, y), 6.0)
    gx, gy = ug.grad(scaled, grad_position=(0, 1))(x, y)
    assert close(gx, 30.0) and close(gy, 2.0)

    @ug.custom_vjp
    def single(x):
        return x * 2.0

    single.defbwd(lambda x, out, dout: (dout * 5.0,))
    assert close(ug.grad(single)(x), 5.0)
    single.defbwd(lambda x, out, dout: (dout, dout))
    with pytest.raises(ValueError, match="single"):
        ug.grad(single)(x)


def test_custom_vjp_called_before_defvjp():
    @ug.custom_vjp
    def undefined(x):
        return x

    with pytest.raises(AttributeError, match="No VJP defined for custom_vjp function undefined"):
        undefined(ug.tensor(1.0))


def test_custom_vjp_wrong_number_of_cotangents_names_the_function():
    @ug.custom_vjp
    def pair_fn(x, y):
        return x * y

    def pair_bwd(res, g):
        return (g,)

    pair_fn.defvjp(lambda x, y: (pair_fn(x, y), None), pair_bwd)
    with pytest.raises(TypeError, match=r"pair_bwd for function pair_fn .*length 1"):
        ug.grad(pair_fn)(scalar(1.0), scalar(2.0))
    pair_fn.defvjp(lambda x, y: (pair_fn(x, y), None), lambda res, g: g)
    with pytest.raises(TypeError, match="must produce a tuple"):
        ug.grad(pair_fn)(scalar(1.0), scalar(2.0))


def test_custom_vjp_bad_fwd_and_bad_cotangent_shape():
    @ug.custom_vjp
    def f(x):
        return x * 2.0

    f.defvjp(lambda x: x * 2.0, lambda res, g: (g,))
    with pytest.raises(TypeError, match="must produce a pair"):
        ug.grad(f)(scalar(1.0))
    f.defvjp(lambda x: (x * 2.0, None), lambda res, g: (ug.ones(3),))
    with pytest.raises(ValueError, match="shape"):
        ug.grad(lambda x: f(x).sum())(ug.ones(2))


def test_custom_vjp_without_differentiation_runs_the_primal_function():
    calls = []

    @ug.custom_vjp
    def f(x):
        calls.append("fun")
        return x + 1.0

    def fwd(x):
        calls.append("fwd")
        return x + 1.0, None

    f.defvjp(fwd, lambda res, g: (g,))
    assert close(f(scalar(1.0)), 2.0)
    assert calls == ["fun"]
    f(scalar(1.0).requires_grad_())
    assert calls == ["fun", "fwd"]


# ----------------------------------------------------------------------------- custom_jvp

def make_clipped_cube():
    """x**3 whose derivative rule is clipped to [-1, 1] (different from the true 3 x**2)."""
    @ug.custom_jvp
    def cube(x):
        return x ** 3

    @cube.defjvp
    def cube_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return cube(x), t * ug.clip(3.0 * x ** 2, -1.0, 1.0)

    return cube


def test_custom_jvp_forward_mode_uses_the_rule():
    cube = make_clipped_cube()
    out, tangent = ug.jvp(cube, (scalar(2.0),), (scalar(3.0),))
    assert close(out, 8.0) and close(tangent, 3.0)
    out, tangent = ug.jvp(cube, (scalar(0.5),), (scalar(1.0),))
    assert close(tangent, 0.75)
    with fwAD.dual_level():
        dual = cube(fwAD.make_dual(scalar(2.0), scalar(1.0)))
        primal, tangent = fwAD.unpack_dual(dual)
    assert close(primal, 8.0) and close(tangent, 1.0)


def test_custom_jvp_reverse_mode_uses_the_same_rule():
    cube = make_clipped_cube()
    assert close(ug.grad(cube)(scalar(2.0)), 1.0)
    assert close(ug.grad(cube)(scalar(0.5)), 0.75)
    x = ug.tensor([2.0, 0.5, -3.0], dtype=ug.float64, requires_grad=True)
    (cube(x) * ug.tensor([1.0, 2.0, 3.0], dtype=ug.float64)).sum().backward()
    assert close(x.grad, [1.0, 1.5, 3.0])
    assert cube(x).grad_fn.name() == "CustomJVPBackward"
    assert close(ug.autograd.grad(cube(x).sum(), x)[0], [1.0, 0.75, 1.0])


def test_custom_jvp_second_order():
    cube = make_clipped_cube()
    # d/dx clip(3x^2): 6x inside the clip range, 0 where it saturates
    assert close(ug.grad(ug.grad(cube))(scalar(0.5)), 3.0)
    assert close(ug.grad(ug.grad(cube))(scalar(2.0)), 0.0)
    leaf = scalar(0.5).requires_grad_()
    (g,) = ug.autograd.grad(cube(leaf), leaf, create_graph=True)
    assert close(ug.autograd.grad(g, leaf)[0], 3.0)
    # forward over reverse and reverse over forward agree
    assert close(ug.jvp(ug.grad(cube), (scalar(0.5),), (scalar(1.0),))[1], 3.0)
    assert close(ug.grad(lambda x: ug.jvp(cube, (x,), (scalar(1.0),))[1])(scalar(0.5)), 3.0)
    assert close(ug.jvp(lambda x: ug.jvp(cube, (x,), (scalar(1.0),))[1], (scalar(0.5),),
                        (scalar(1.0),))[1], 3.0)


def test_custom_jvp_stable_log1pexp():
    @ug.custom_jvp
    def log1pexp(x):
        return ug.log(1.0 + ug.exp(x))

    @log1pexp.defjvp
    def log1pexp_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return log1pexp(x), t * (1.0 - 1.0 / (1.0 + ug.exp(x)))

    x = scalar(100.0)
    assert close(ug.grad(log1pexp)(x), 1.0)
    assert close(ug.jvp(log1pexp, (x,), (scalar(1.0),))[1], 1.0)


def test_custom_jvp_defjvps_sums_per_argument_rules():
    @ug.custom_jvp
    def product(x, y):
        return x * y

    # the x rule is doubled on purpose: the result must follow the rules, not the math
    product.defjvps(lambda tx, out, x, y: 2.0 * tx * y, lambda ty, out, x, y: ty * x)
    x, y = scalar(3.0), scalar(5.0)
    assert close(ug.jvp(product, (x, y), (scalar(1.0), scalar(0.0)))[1], 10.0)
    assert close(ug.jvp(product, (x, y), (scalar(1.0), scalar(1.0)))[1], 13.0)
    gx, gy = ug.grad(product, grad_position=(0, 1))(x, y)
    assert close(gx, 10.0) and close(gy, 3.0)
    with fwAD.dual_level():
        dual = product(fwAD.make_dual(x, scalar(1.0)), y)  # y gets a zero tangent
        assert close(fwAD.unpack_dual(dual).tangent, 10.0)
    product.defjvps(None, lambda ty, out, x, y: ty * x)
    gx, gy = ug.grad(product, grad_position=(0, 1))(x, y)
    assert close(gx, 0.0) and close(gy, 3.0)


def test_custom_jvp_nondiff_argnums_and_pytree_output():
    def scaled_pair(k, x):
        return {"a": x * k, "b": (x * x, k)}

    scaled_pair = ug.custom_jvp(scaled_pair, nondiff_argnums=(0,))

    @scaled_pair.defjvp
    def rule(k, primals, tangents):
        (x,), (t,) = primals, tangents
        return scaled_pair(k, x), {"a": t * k * 10.0, "b": (t * 2.0 * x, 0.0)}

    x = scalar(3.0)
    out, tangent = ug.jvp(lambda x: scaled_pair(2.0, x), (x,), (scalar(1.0),))
    assert close(out["a"], 6.0) and out["b"][1] == 2.0
    assert close(tangent["a"], 20.0) and close(tangent["b"][0], 6.0)
    g = ug.grad(lambda x: scaled_pair(2.0, x)["a"] + scaled_pair(2.0, x)["b"][0])(x)
    assert close(g, 26.0)
    with pytest.raises(TypeError, match="nondiff_argnums"):
        scaled_pair.defjvps(None)


def test_custom_jvp_errors():
    @ug.custom_jvp
    def f(x):
        return x * 2.0

    with pytest.raises(AttributeError, match="No JVP defined for custom_jvp function f"):
        f(scalar(1.0))
    f.defjvp(lambda primals, tangents: primals[0] * 2.0)
    with pytest.raises(TypeError, match="must produce a pair"):
        ug.jvp(f, (scalar(1.0),), (scalar(1.0),))
    f.defjvp(lambda primals, tangents: (f(*primals), (tangents[0], tangents[0])))
    with pytest.raises(TypeError, match="equal container"):
        ug.grad(f)(scalar(1.0))


def test_custom_jvp_without_differentiation_runs_the_function():
    cube = make_clipped_cube()
    out = cube(scalar(2.0))
    assert close(out, 8.0) and not out.requires_grad


# ----------------------------------------------------------------------------- custom_gradient

@ug.custom_gradient
def log1pexp(x):
    e = ug.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))

    return ug.log(1 + e), grad


def test_custom_gradient_tensorflow_log1pexp_example():
    x = ug.tensor(100.0, requires_grad=True)  # float32: exp(100) overflows
    with np.errstate(over="ignore", invalid="ignore"):
        naive = ug.log(1 + ug.exp(x))
        (naive_grad,) = ug.autograd.grad(naive, x)
        y = log1pexp(x)
        y.backward()
    assert math.isnan(naive_grad.item())
    assert x.grad.item() == 1.0
    assert close(log1pexp(ug.tensor(0.0)), math.log(2.0), 1e-6)
    assert close(ug.grad(log1pexp)(ug.tensor(0.0)), 0.5, 1e-6)
    assert y.grad_fn.name() == "CustomGradientBackward"


def test_custom_gradient_several_inputs_and_outputs():
    @ug.custom_gradient
    def f(x, y):
        def grad(d_sum, d_product):
            return [d_sum + d_product * y * 10.0, d_sum + d_product * x]

        return (x + y, x * y), grad

    x, y = scalar(2.0), scalar(3.0)
    gx, gy = ug.grad(lambda x, y: f(x, y)[0] + f(x, y)[1], grad_position=(0, 1))(x, y)
    assert close(gx, 31.0) and close(gy, 3.0)


def test_custom_gradient_with_variables():
    w = ug.tensor(3.0, dtype=ug.float64, requires_grad=True)
    received = []

    @ug.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            received.append(variables)
            return dy * w * 100.0, [dy * x]

        return x * w, grad

    x = scalar(2.0).requires_grad_()
    scale(x).backward()
    assert close(x.grad, 300.0) and close(w.grad, 2.0)
    assert len(received[0]) == 1 and received[0][0] is w
    gx, (gw,) = ug.grad(scale, grad_position=0, weights=[w])(scalar(2.0))
    assert close(gx, 300.0) and close(gw, 2.0)


def test_custom_gradient_variables_need_the_keyword():
    w = ug.tensor(3.0, requires_grad=True)

    @ug.custom_gradient
    def scale(x):
        return x * w, lambda dy: dy * w

    with pytest.raises(TypeError) as info:
        scale(ug.tensor(2.0))
    assert str(info.value) == ("If using @custom_gradient with a function that uses variables, "
                               "then grad_fn must accept a keyword argument 'variables'.")


def test_custom_gradient_wrong_variable_gradient_count():
    w = ug.tensor(3.0, requires_grad=True)

    @ug.custom_gradient
    def scale(x):
        return x * w, lambda dy, variables=None: (dy * w, [dy, dy])

    with pytest.raises(ValueError) as info:
        scale(ug.tensor(2.0, requires_grad=True)).backward()
    expected = "Must return gradient for each variable from @custom_gradient grad_fn."
    assert str(info.value) == expected


def test_custom_gradient_wrong_input_gradient_count():
    @ug.custom_gradient
    def f(x):
        return x * 2.0, lambda dy: (dy, dy)

    with pytest.raises(ValueError) as info:
        ug.grad(f)(ug.tensor(1.0))
    assert info.value.args == ("custom_gradient function expected to return", 1,
                               "gradients but returned", 2, "instead.")


def test_custom_gradient_ignores_other_threads_and_cleans_up():
    other = ug.tensor(1.0, requires_grad=True)

    def work_elsewhere():
        _ = other * 2.0

    @ug.custom_gradient
    def f(x):
        thread = threading.Thread(target=work_elsewhere)
        thread.start()
        thread.join()
        return x * 2.0, lambda dy: dy * 3.0  # no 'variables': none may be found

    assert close(ug.grad(f)(ug.tensor(1.0)), 3.0)
    assert eager.observers == []

    @ug.custom_gradient
    def broken(x):
        raise KeyError("inside f")

    with pytest.raises(KeyError):
        broken(ug.tensor(1.0, requires_grad=True))
    assert eager.observers == []


def test_custom_gradient_plain_call_and_decorator_with_parentheses():
    @ug.custom_gradient()
    def f(x):
        return x * 2.0, lambda dy: dy * 7.0

    assert close(f(ug.tensor(1.0)), 2.0)
    with ug.no_grad():
        assert close(f(ug.tensor(1.0, requires_grad=True)), 2.0)
    assert close(ug.grad(f)(ug.tensor(1.0)), 7.0)
    with pytest.raises(TypeError, match="pair"):
        ug.custom_gradient(lambda x: x)(ug.tensor(1.0))


# ----------------------------------------------------------------------------- Cell bprop

class TenfoldBprop:
    """A Cell-like class: ``construct`` doubles, ``bprop`` claims the gradient is tenfold."""

    def __init__(self, result=None):
        self.result = result

    def construct(self, x, y):
        return x * 2.0 + y

    def bprop(self, x, y, out, dout):
        if self.result is not None:
            return self.result(x, y, dout)
        return dout * 10.0, dout * y

    __call__ = lambda self, *args: ug.transforms.call_with_bprop(self, *args)  # noqa: E731


def test_bprop_values_and_gradients():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    y = ug.tensor([3.0, 4.0], requires_grad=True)
    out = TenfoldBprop()(x, y)
    assert close(out, [5.0, 8.0])
    assert out.grad_fn.name() == "CellBpropBackward"
    out.sum().backward()
    assert close(x.grad, [10.0, 10.0]) and close(y.grad, [3.0, 4.0])
    gx, gy = ug.grad(lambda a, b: TenfoldBprop()(a, b).sum(), grad_position=(0, 1))(
        ug.tensor([1.0, 2.0]), ug.tensor([3.0, 4.0]))
    assert close(gx, [10.0, 10.0]) and close(gy, [3.0, 4.0])


def test_bprop_forward_without_gradient_is_construct():
    out = TenfoldBprop()(ug.tensor([1.0]), ug.tensor([2.0]))
    assert close(out, [4.0]) and not out.requires_grad


def test_bprop_receives_out_and_a_one_tuple_for_one_input():
    class Single:
        def construct(self, x):
            return x * x

        def bprop(self, x, out, dout):
            assert close(out, x.detach() * x.detach())
            return (dout * 5.0 * x,)

        __call__ = lambda self, *args: ug.transforms.call_with_bprop(self, *args)  # noqa: E731

    x = ug.tensor(3.0, dtype=ug.float64, requires_grad=True)
    (g,) = ug.autograd.grad(Single()(x), x, create_graph=True)
    assert close(g, 15.0)
    assert close(ug.autograd.grad(g, x)[0], 5.0)


def test_bprop_wrong_count():
    cell = TenfoldBprop(lambda x, y, dout: (dout,))
    with pytest.raises(ValueError, match="TenfoldBprop.*number of return values.*2.*1"):
        cell(ug.tensor(1.0, requires_grad=True), ug.tensor(2.0)).backward()


def test_bprop_non_tensor_gradient():
    cell = TenfoldBprop(lambda x, y, dout: (dout, 3))
    with pytest.raises(TypeError, match="TenfoldBprop.*1th return value.*should be Tensor"):
        cell(ug.tensor(1.0, requires_grad=True), ug.tensor(2.0)).backward()


def test_bprop_wrong_shape():
    cell = TenfoldBprop(lambda x, y, dout: (ug.ones(3), dout))
    with pytest.raises(ValueError, match="TenfoldBprop.*0th return value.*same shape"):
        cell(ug.ones(2, requires_grad=True), ug.ones(2)).sum().backward()


def test_bprop_with_non_tensor_input_and_tuple_output():
    class Affine:
        def construct(self, x, scale):
            return x * scale, x + scale

        def bprop(self, x, scale, out, dout):
            return dout[0] * 100.0 + dout[1], None

        __call__ = lambda self, *args: ug.transforms.call_with_bprop(self, *args)  # noqa: E731

    x = ug.tensor(1.0, requires_grad=True)
    product, total = Affine()(x, 3.0)
    assert close(product, 3.0) and close(total, 4.0)
    (product + total).backward()
    assert close(x.grad, 101.0)


def test_rules_reject_forward_mode_for_custom_gradient_and_bprop():
    with fwAD.dual_level():
        dual = fwAD.make_dual(scalar(1.0), scalar(1.0))
        with pytest.raises(TypeError, match="forward-mode"):
            log1pexp(dual)
        with pytest.raises(TypeError, match="TenfoldBprop"):
            TenfoldBprop()(dual, scalar(1.0))
