"""``unigrad.ops.special`` against PyTorch (values and first derivatives on grids with the
edge points: poles, domain boundaries, infinities and NaN), and its NumPy-only fallbacks
against ``scipy.special``."""

from __future__ import annotations

import math

import numpy as np
import pytest

import unigrad as ug
from unigrad.ops import special

torch = pytest.importorskip("torch")
scipy_special = pytest.importorskip("scipy.special")

pytestmark = pytest.mark.torch

INF, NAN = math.inf, math.nan

GAMMA = [-INF, -2.5, -2.0, -1.5, -1.0, -0.5, -0.0, 0.0, 1e-3, 0.5, 1.0, 1.4616321449683622,
         2.0, 3.5, 10.0, 100.0, INF, NAN]
# PyTorch's trigamma is finite garbage (~1e32) at the negative integers: left out where it shows
NO_NEGATIVE_POLES = [-2.5, -1.5, -0.5, 0.0, 1e-3, 0.5, 1.0, 2.0, 3.5, 10.0, 100.0, NAN]
UNIT = [-1.5, -1.0, -0.999999, -0.9, -0.5, -0.0, 0.0, 1e-8, 0.3, 0.9, 0.999999, 1.0, 1.5, NAN]


def _compare(actual, expected, *, rtol=1e-10, atol=1e-12):
    actual = np.asarray(actual)
    if hasattr(expected, "detach"):
        expected = expected.detach().numpy()
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)


def _run(ours_fn, theirs_fn, grid, grad=True, rtol=1e-10):
    data = np.array(grid)
    ours = ug.tensor(data, requires_grad=grad)
    theirs = torch.tensor(data, requires_grad=grad)
    with np.errstate(all="ignore"):
        result = ours_fn(ours)
        expected = theirs_fn(theirs)
        _compare(result.detach().numpy(), expected, rtol=rtol)
        if not grad:
            return
        weights = np.linspace(0.5, 1.5, data.size)
        (result * ug.tensor(weights)).sum().backward()
    (expected * torch.tensor(weights)).sum().backward()
    _compare(ours.grad.numpy(), theirs.grad, rtol=rtol)


# PyTorch's trigamma (polygamma(1, x), digamma's derivative) is accurate to about 5e-10
TRIGAMMA_RTOL = 1e-8


def test_lgamma_matches_torch():
    _run(ug.lgamma, torch.lgamma, GAMMA)


def test_digamma_values_match_torch():
    _run(ug.digamma, torch.digamma, GAMMA, grad=False)


def test_digamma_gradient_matches_torch():
    _run(ug.digamma, torch.digamma, NO_NEGATIVE_POLES, rtol=TRIGAMMA_RTOL)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_polygamma_matches_torch(n):
    _run(lambda x: ug.polygamma(n, x), lambda x: torch.polygamma(n, x), NO_NEGATIVE_POLES,
         rtol=TRIGAMMA_RTOL if n < 2 else 1e-10)


@pytest.mark.parametrize("n", [2, 3])
def test_polygamma_poles_match_torch(n):
    _run(lambda x: ug.polygamma(n, x), lambda x: torch.polygamma(n, x), [-2.0, -1.0, 0.0],
         grad=False)


def test_erfinv_matches_torch():
    _run(ug.erfinv, torch.erfinv, UNIT)


@pytest.mark.parametrize("p", [1, 2, 4])
def test_mvlgamma_matches_torch(p):
    _run(lambda x: ug.mvlgamma(x, p), lambda x: torch.mvlgamma(x, p), [1.6, 2.0, 3.3, 10.0])


BESSEL = [-INF, -700.0, -30.0, -3.0, -1e-3, -0.0, 0.0, 1e-8, 0.5, 2.0, 15.0, 25.0, 700.0, INF, NAN]


@pytest.mark.parametrize("name", ["i0", "i0e", "i1", "i1e"])
def test_bessel_matches_torch(name):
    _run(getattr(ug, name), getattr(torch.special, name), BESSEL)


def test_mvlgamma_refuses_p_below_one():
    with pytest.raises(ValueError):
        ug.mvlgamma(ug.tensor([2.0]), 0)


def test_polygamma_refuses_negative_n():
    with pytest.raises(RuntimeError):
        ug.polygamma(-1, ug.tensor([2.0]))


@pytest.mark.parametrize("name", ["lgamma", "digamma", "erfinv"])
def test_integer_input_gives_the_default_float(name):
    data = [0, 1, 2] if name != "erfinv" else [-1, 0, 1]
    _compare(getattr(ug, name)(ug.tensor(data)).numpy(),
             getattr(torch, name)(torch.tensor(data)), rtol=1e-6)


def test_float32_stays_float32():
    x = np.array([0.5, 1.0, 2.5], dtype=np.float32)
    for name in ("lgamma", "digamma", "erfinv"):
        data = x / 3 if name == "erfinv" else x
        _compare(getattr(ug, name)(ug.tensor(data)).numpy(),
                 getattr(torch, name)(torch.tensor(data)), rtol=1e-5, atol=1e-6)
    _compare(ug.polygamma(2, ug.tensor(x)).numpy(), torch.polygamma(2, torch.tensor(x)),
             rtol=1e-5)


@pytest.mark.parametrize("method, args", [("lgamma", ()), ("digamma", ()), ("erfinv", ()),
                                          ("polygamma", (2,)), ("mvlgamma", (2,)),
                                          ("i0", ())])
def test_methods_and_inplace(method, args):
    x = np.array([0.1, 0.4, 0.7]) + (1.0 if method == "mvlgamma" else 0.0)
    expected = getattr(torch.tensor(x), method)(*args)
    _compare(getattr(ug.tensor(x), method)(*args).numpy(), expected)
    ours = ug.tensor(x)
    assert getattr(ours, method + "_")(*args) is ours
    _compare(ours.numpy(), expected)


def test_second_derivative_of_lgamma_is_trigamma():
    x = ug.tensor([0.5, 2.0, 7.0], requires_grad=True)
    (first,) = ug.autograd.grad(ug.lgamma(x).sum(), x, create_graph=True)
    (second,) = ug.autograd.grad(first.sum(), x)
    t = torch.tensor([0.5, 2.0, 7.0], requires_grad=True)
    (t_first,) = torch.autograd.grad(torch.lgamma(t).sum(), t, create_graph=True)
    (t_second,) = torch.autograd.grad(t_first.sum(), t)
    _compare(second.numpy(), t_second)


# ----------------------------------------------------------------------------- NumPy fallbacks

POSITIVE = np.concatenate([np.linspace(0.01, 30.0, 1500), np.logspace(-6, 5, 200)])
# negative values away from digamma's roots (cancellation there limits any reflection)
NEGATIVE = np.concatenate([-np.arange(0, 12) - 0.25, -np.arange(0, 12) - 0.75,
                           -np.arange(0, 12) - 0.9])


def _relative(actual, expected, rtol=1e-12):
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=0, equal_nan=True)


def test_lgamma_fallback_matches_scipy():
    values = POSITIVE[np.abs(POSITIVE - 1) > 0.02]
    values = values[np.abs(values - 2) > 0.02]  # (lgamma's zeros at 1 and 2)
    _relative(special.lgamma_fallback(values), scipy_special.gammaln(values))
    _relative(special.lgamma_fallback(NEGATIVE), scipy_special.gammaln(NEGATIVE), rtol=1e-11)


def test_digamma_fallback_matches_scipy():
    values = POSITIVE[np.abs(POSITIVE - 1.4616321449683622) > 0.02]  # (digamma's root)
    _relative(special.digamma_fallback(values), scipy_special.psi(values))
    _relative(special.digamma_fallback(NEGATIVE), scipy_special.psi(NEGATIVE))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_polygamma_fallback_matches_scipy(n):
    values = POSITIVE[POSITIVE < 1e4] if n > 3 else POSITIVE
    _relative(special.polygamma_fallback(n, values), scipy_special.polygamma(n, values))
    _relative(special.polygamma_fallback(n, NEGATIVE), scipy_special.polygamma(n, NEGATIVE),
              rtol=1e-10)


def test_erfinv_fallback_matches_scipy():
    values = np.concatenate([np.linspace(-0.9999, 0.9999, 4001), 1 - np.logspace(-16, -1, 200),
                             -np.logspace(-300, -1, 100)])
    values = values[values != 0]
    _relative(special.erfinv_fallback(values), scipy_special.erfinv(values))


def test_fallback_edge_values_match_torch():
    grid = np.array(GAMMA)
    with np.errstate(all="ignore"):
        _compare(special.lgamma_fallback(grid), torch.lgamma(torch.tensor(grid)))
        _compare(special.digamma_fallback(grid), torch.digamma(torch.tensor(grid)))
        for n in (2, 3):
            points = np.array([-2.0, -1.0, 0.0, 0.5, 4.0])
            _compare(special.polygamma_fallback(n, points),
                     torch.polygamma(n, torch.tensor(points)))
        unit = np.array(UNIT)
        _compare(special.erfinv_fallback(unit), torch.erfinv(torch.tensor(unit)))


@pytest.mark.parametrize("name, order, scaled", [("i0", 0, False), ("i0e", 0, True),
                                                 ("i1", 1, False), ("i1e", 1, True)])
def test_bessel_fallback_matches_scipy(name, order, scaled):
    values = np.concatenate([np.linspace(-40, 40, 3001), [-700, -300, 300, 700, 1e-8]])
    values = values[values != 0]
    _relative(special.bessel_fallback(values, order, scaled), getattr(scipy_special, name)(values))
    edges = np.array([-INF, 0.0, INF, NAN])
    np.testing.assert_array_equal(special.bessel_fallback(edges, order, scaled),
                                  getattr(scipy_special, name)(edges))


def test_ops_use_the_fallbacks_without_scipy(monkeypatch):
    monkeypatch.setattr(special, "_scipy_special", lambda: None)
    x = np.array([0.3, 1.5, 4.0, 12.0])
    _relative(ug.lgamma(ug.tensor(x)).numpy(), scipy_special.gammaln(x))
    _relative(ug.digamma(ug.tensor(x)).numpy(), scipy_special.psi(x))
    _relative(ug.polygamma(2, ug.tensor(x)).numpy(), scipy_special.polygamma(2, x))
    _relative(ug.erfinv(ug.tensor(x / 13)).numpy(), scipy_special.erfinv(x / 13))
    _relative(ug.i1e(ug.tensor(x)).numpy(), scipy_special.i1e(x))
    assert ug.lgamma(ug.tensor(x, dtype=ug.float32)).dtype == ug.float32
