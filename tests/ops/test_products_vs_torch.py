"""``unigrad.ops.products`` against PyTorch: values and gradients of inner, tensordot, vdot
and addmm/addmv/addr/baddbmm/addbmm (broadcast input, beta/alpha, beta=0 with NaN input,
empty contractions, integer dtypes, in-place variants)."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch

NAN = float("nan")


def compare(name, arrays, *args, **kwargs):
    """``name(*tensors, *args, **kwargs)`` in both: the value, and every input's gradient
    under a random cotangent."""
    ours = [ug.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    got = getattr(ug, name)(*ours, *args, **kwargs)
    want = getattr(torch, name)(*theirs, *args, **kwargs)
    assert tuple(got.shape) == tuple(want.shape)
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-10,
                               atol=1e-10, equal_nan=True)
    weights = np.random.default_rng(0).standard_normal(tuple(want.shape))
    got_grads = ug.autograd.grad((got * ug.tensor(weights)).sum(), ours, allow_unused=True)
    want_grads = torch.autograd.grad((want * torch.tensor(weights)).sum(), theirs,
                                     allow_unused=True)
    for g, w in zip(got_grads, want_grads):
        w = np.zeros(g.shape) if w is None else w.numpy()
        g = np.zeros(w.shape) if g is None else g.numpy()
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10)


def normal(*shape, seed=0):
    return np.random.default_rng(seed + sum(shape)).standard_normal(shape)


@pytest.mark.parametrize("shapes", [((4,), (4,)), ((2, 3, 4), (5, 4)), ((), (2, 3)),
                                    ((3,), ()), ((0, 3), (2, 3))])
def test_inner(shapes):
    compare("inner", [normal(*s) for s in shapes])


@pytest.mark.parametrize("shapes, dims", [
    (((2, 3, 4), (3, 4, 5)), 2), (((2, 3), (3, 4)), 1), (((2, 3), (4,)), 0),
    (((3, 4, 5), (4, 3, 2)), ([1, 0], [0, 1])), (((3, 4), (4, 3)), ([-1], [0])),
    (((1, 1, 1), (2, 1, 2)), ([0, 1], [2, 0])), (((2, 3), (3, 2)), [[0, 1], [1, 0]]),
])
def test_tensordot(shapes, dims):
    compare("tensordot", [normal(*s) for s in shapes], dims=dims)


def test_tensordot_errors():
    with pytest.raises(RuntimeError, match="contracted dimensions need to match"):
        ug.tensordot(ug.ones(2, 3), ug.ones(4, 5), dims=([1], [0]))
    with pytest.raises(RuntimeError, match="dims >= 0"):
        ug.tensordot(ug.ones(2, 3), ug.ones(3, 5), dims=-1)
    with pytest.raises(RuntimeError, match="same length"):
        ug.tensordot(ug.ones(2, 3), ug.ones(3, 5), dims=([1], [0, 1]))


def test_vdot_and_inner_methods():
    compare("vdot", [normal(5), normal(5, seed=1)])
    a, b = normal(3, 4), normal(4)
    np.testing.assert_allclose(ug.tensor(a).inner(ug.tensor(b)).numpy(),
                               torch.tensor(a).inner(torch.tensor(b)).numpy())
    assert ug.tensor([1, 2]).vdot(ug.tensor([3, 4])).item() == 11
    with pytest.raises(RuntimeError):
        ug.vdot(ug.ones(2, 2), ug.ones(2, 2))


CASES = {
    "addmm": [((3, 5), (3, 4), (4, 5)), ((5,), (3, 4), (4, 5)), ((), (3, 4), (4, 5)),
              ((3, 5), (3, 0), (0, 5))],
    "addmv": [((3,), (3, 4), (4,)), ((), (3, 4), (4,)), ((1,), (3, 4), (4,))],
    "addr": [((3, 4), (3,), (4,)), ((4,), (3,), (4,)), ((3, 1), (3,), (4,))],
    "baddbmm": [((2, 3, 5), (2, 3, 4), (2, 4, 5)), ((3, 5), (2, 3, 4), (2, 4, 5)),
                ((1, 1, 5), (2, 3, 4), (2, 4, 5))],
    "addbmm": [((3, 5), (2, 3, 4), (2, 4, 5)), ((5,), (2, 3, 4), (2, 4, 5)),
               ((3, 5), (0, 3, 4), (0, 4, 5))],
}


@pytest.mark.parametrize("name, shapes", [(n, s) for n, cases in CASES.items() for s in cases])
@pytest.mark.parametrize("scales", [{}, {"beta": 0.5, "alpha": -2.0}, {"beta": 0},
                                    {"alpha": 0}])
def test_scaled_products(name, shapes, scales):
    compare(name, [normal(*s, seed=i) for i, s in enumerate(shapes)], **scales)


@pytest.mark.parametrize("name", list(CASES))
def test_beta_zero_ignores_nan_input(name):
    shapes = CASES[name][0]
    arrays = [normal(*s, seed=i) for i, s in enumerate(shapes)]
    arrays[0] = np.full(shapes[0], NAN)
    compare(name, arrays, beta=0)


@pytest.mark.parametrize("name", list(CASES))
def test_integer_and_inplace(name):
    shapes = CASES[name][0]
    arrays = [np.arange(int(np.prod(s))).reshape(s) % 5 - 2 for s in shapes]
    got = getattr(ug, name)(*map(ug.tensor, arrays), beta=2, alpha=3)
    want = getattr(torch, name)(*map(torch.tensor, arrays), beta=2, alpha=3)
    assert got.dtype == ug.int64
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    ours, theirs = ug.tensor(arrays[0]), torch.tensor(arrays[0])
    returned = getattr(ours, name + "_")(*map(ug.tensor, arrays[1:]), alpha=2)
    getattr(theirs, name + "_")(*map(torch.tensor, arrays[1:]), alpha=2)
    assert returned is ours
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    method = getattr(ug.tensor(arrays[0]), name)(*map(ug.tensor, arrays[1:]))
    np.testing.assert_array_equal(method.numpy(), getattr(torch.tensor(arrays[0]), name)(
        *map(torch.tensor, arrays[1:])).numpy())


def test_shape_errors():
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        ug.addmm(ug.ones(2, 2), ug.ones(2, 3), ug.ones(2, 3))
    with pytest.raises(RuntimeError):
        ug.addmm(ug.ones(4, 2, 2), ug.ones(2, 2), ug.ones(2, 2))
    with pytest.raises(RuntimeError, match="1-D"):
        ug.addr(ug.ones(2, 2), ug.ones(2, 1), ug.ones(2))
    with pytest.raises(RuntimeError, match="3D"):
        ug.addbmm(ug.ones(2, 2), ug.ones(2, 2), ug.ones(2, 2))
    with pytest.raises(RuntimeError, match="floating point"):
        ug.addmm(ug.ones(2, 2, dtype=ug.int64), ug.ones(2, 2, dtype=ug.int64),
                 ug.ones(2, 2, dtype=ug.int64), alpha=0.5)
