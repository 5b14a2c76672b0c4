"""The in-place helpers the optimizers use: ``addcmul_``, ``addcdiv_``, ``lerp_``."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug

A = np.array([1.0, -2.0, 3.0])
B = np.array([0.5, 4.0, -1.5])
C = np.array([2.0, 0.25, -3.0])


@pytest.mark.parametrize("value", [1, 2.5, -0.75])
def test_addcmul_values_storage_and_version(value):
    t = ug.tensor(A.copy())
    storage = t._data
    out = t.addcmul_(ug.tensor(B), ug.tensor(C), value=value)
    assert out is t and t._data is storage
    assert t._version == 1
    np.testing.assert_allclose(t.numpy(), A + value * B * C, rtol=1e-15)


@pytest.mark.parametrize("value", [1, 2.5, -0.75])
def test_addcdiv_values_storage_and_version(value):
    t = ug.tensor(A.copy())
    storage = t._data
    out = t.addcdiv_(ug.tensor(B), ug.tensor(C), value=value)
    assert out is t and t._data is storage
    assert t._version == 1
    np.testing.assert_allclose(t.numpy(), A + value * B / C, rtol=1e-15)


@pytest.mark.parametrize("weight", [0.1, 0.9])
def test_lerp_scalar_and_tensor_weight(weight):
    t = ug.tensor(A.copy())
    t.lerp_(ug.tensor(B), weight)
    np.testing.assert_allclose(t.numpy(), A + weight * (B - A), rtol=1e-15)
    u = ug.tensor(A.copy())
    u.lerp_(ug.tensor(B), ug.tensor(np.abs(C) / 4))
    np.testing.assert_allclose(u.numpy(), A + np.abs(C) / 4 * (B - A), rtol=1e-15)
    assert u._version == 1


def test_broadcast_operands_and_float32_stays_float32():
    t = ug.tensor(np.ones((2, 3), np.float32))
    t.addcmul_(ug.tensor(np.float32([1.0, 2.0, 3.0])), ug.tensor(np.float32(2.0)), value=0.5)
    assert t.dtype == ug.float32
    np.testing.assert_allclose(t.numpy(), [[2.0, 3.0, 4.0]] * 2)


def test_the_ops_are_differentiable_when_recorded():
    x = ug.tensor(B, requires_grad=True)
    y = ug.tensor(C, requires_grad=True)
    acc = ug.tensor(A, requires_grad=True) * 1.0
    acc.addcmul_(x, y, value=2.0)
    acc.addcdiv_(x, y, value=3.0)
    acc.lerp_(x, 0.25)
    acc.sum().backward()
    # acc = 0.75 * (a + 2xy + 3x/y) + 0.25 x
    np.testing.assert_allclose(x.grad.numpy(), 0.75 * (2 * C + 3 / C) + 0.25, rtol=1e-14)
    np.testing.assert_allclose(y.grad.numpy(), 0.75 * (2 * B - 3 * B / C ** 2), rtol=1e-14)


@pytest.mark.parametrize("method", ["addcmul_", "addcdiv_"])
def test_value_must_be_a_number(method):
    t = ug.tensor(A.copy())
    with pytest.raises(TypeError, match=rf"{method}\(\): argument 'value' must be Number, not "
                                        "Tensor"):
        getattr(t, method)(ug.tensor(B), ug.tensor(C), value=ug.tensor(2.0))
    with pytest.raises(TypeError, match="must be Number, not str"):
        getattr(t, method)(ug.tensor(B), ug.tensor(C), value="2")
    np.testing.assert_array_equal(t.numpy(), A)
    assert t._version == 0


def test_leaf_requiring_grad_is_refused_outside_no_grad():
    w = ug.tensor(A.copy(), requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        w.addcmul_(ug.tensor(B), ug.tensor(C))
    with ug.no_grad():
        w.addcdiv_(ug.tensor(B), ug.tensor(C), value=-1)
    np.testing.assert_allclose(w.detach().numpy(), A - B / C)


def test_shape_mismatch_is_refused_before_writing():
    t = ug.tensor(A.copy())
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        t.addcmul_(ug.tensor(np.ones((2, 3))), ug.tensor(np.ones((2, 3))))
    np.testing.assert_array_equal(t.numpy(), A)


@pytest.mark.torch
def test_against_torch():
    torch = pytest.importorskip("torch")
    for method, args, kwargs in [("addcmul_", (B, C), {"value": -0.3}),
                                 ("addcdiv_", (B, C), {"value": 1.7}),
                                 ("lerp_", (B,), {}), ]:
        extra = (0.3,) if method == "lerp_" else ()
        mine = ug.tensor(A.copy())
        getattr(mine, method)(*[ug.tensor(a) for a in args], *extra, **kwargs)
        theirs = torch.tensor(A.copy())
        getattr(theirs, method)(*[torch.tensor(a) for a in args], *extra, **kwargs)
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-15, atol=1e-15)
