"""The design test: a brand-new primitive is one declaration, and every mode works with it.

``cube_root_p`` below is declared here and nowhere else (no table in the package is
edited): eager, the tape to second order, forward mode, vmap, ``ug.jit`` with the op
fused into a compiled loop, autocast, its Tensor method and its in-place variant all
follow from the declaration.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad.graph.fusion import numba_available
from unigrad.ops._primitive import PRIMITIVES, Primitive, bind
from unigrad.ops._shape_rules import elementwise_rule
from unigrad.ops.registry import op

# ----------------------------------------------------------------------------- the declaration

cube_root_p = Primitive(
    "test_cube_root", np.cbrt, elementwise_rule(), kind="elementwise",
    vjp=lambda g, out, needs, x: (g / (out * out * 3.0),), saves="output",
    scalar="np.cbrt({0})", ufunc="cbrt", autocast="float32")


@op(methods=("test_cube_root",), inplace=("test_cube_root_",))
def cube_root(input):
    """The real cube root (a primitive declared by the test suite)."""
    return bind(cube_root_p, input)


# ----------------------------------------------------------------------------- the checks

VALUES = np.array([0.5, 2.0, 8.0, 27.0])


def test_it_is_registered_once():
    assert PRIMITIVES["test_cube_root"] is cube_root_p


def test_eager_value_and_tensor_method():
    x = ug.tensor(VALUES)
    np.testing.assert_allclose(cube_root(x).numpy(), np.cbrt(VALUES), rtol=1e-15)
    np.testing.assert_allclose(x.test_cube_root().numpy(), np.cbrt(VALUES), rtol=1e-15)


def test_tape_first_and_second_order():
    x = ug.tensor(VALUES, requires_grad=True)
    (first,) = ug.autograd.grad(cube_root(x).sum(), x, create_graph=True)
    np.testing.assert_allclose(first.detach().numpy(), VALUES ** (-2 / 3) / 3, rtol=1e-12)
    (second,) = ug.autograd.grad(first.sum(), x)
    np.testing.assert_allclose(second.numpy(), -2 / 9 * VALUES ** (-5 / 3), rtol=1e-12)
    assert cube_root(x).grad_fn.name() == "TestCubeRootBackward0"


def test_forward_mode():
    _, tangent = ug.jvp(cube_root, (ug.tensor(VALUES),), (ug.ones(4, dtype=ug.float64),))
    np.testing.assert_allclose(tangent.numpy(), VALUES ** (-2 / 3) / 3, rtol=1e-12)


def test_vmap_and_vmap_of_grad():
    batch = np.stack([VALUES, VALUES * 2])
    np.testing.assert_allclose(ug.vmap(cube_root)(ug.tensor(batch)).numpy(), np.cbrt(batch),
                               rtol=1e-15)
    gradients = ug.vmap(ug.grad(lambda x: cube_root(x).sum()))(ug.tensor(batch))
    np.testing.assert_allclose(gradients.numpy(), batch ** (-2 / 3) / 3, rtol=1e-12)


def test_jit_fuses_it_and_agrees_with_eager():
    def f(x):
        return ug.tanh(cube_root(x * 2.0)) + 1.0

    compiled = ug.jit(f)
    x = ug.tensor(VALUES)
    np.testing.assert_allclose(compiled(x).numpy(), f(x).numpy(), rtol=1e-14)
    names = [eqn.prim.name for eqn in compiled.lower(x).graph.eqns]
    if numba_available():
        assert names == ["fused"]
        assert "np.cbrt" in compiled.lower(x).graph.eqns[0].prim.source
    gradient = ug.jit(ug.grad(lambda v: cube_root(v).sum()))(x)
    np.testing.assert_allclose(gradient.numpy(), VALUES ** (-2 / 3) / 3, rtol=1e-12)


def test_numpy_ufunc_on_an_interpreter_array_maps_to_it():
    # rules that call NumPy on the arrays they get (vmap's batches, jit's tracers) bind it
    batch = np.stack([VALUES, VALUES * 2])
    got = ug.vmap(lambda x: ug.zeros(4, dtype=ug.float64) + np.cbrt(x._data))(ug.tensor(batch))
    np.testing.assert_allclose(got.numpy(), np.cbrt(batch), rtol=1e-15)


def test_autocast_runs_it_in_float32():
    half = ug.tensor(VALUES, dtype=ug.float16)
    with ug.amp.autocast():
        assert cube_root(half).dtype == ug.float32
    assert cube_root(half).dtype == ug.float16


def test_in_place_variant_bumps_the_version_and_keeps_the_tape():
    x = ug.tensor(VALUES, requires_grad=True)
    y = x * 1.0
    y.test_cube_root_()
    np.testing.assert_allclose(y.detach().numpy(), np.cbrt(VALUES), rtol=1e-15)
    assert y._version == 1
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), VALUES ** (-2 / 3) / 3, rtol=1e-12)


@pytest.mark.parametrize("spec", [
    dict(saves="everything"), dict(kind="pointwise"), dict(autocast="float16")])
def test_a_malformed_declaration_is_refused(spec):
    with pytest.raises(ValueError):
        Primitive("test_malformed", np.cbrt, elementwise_rule(), register=False, **spec)
