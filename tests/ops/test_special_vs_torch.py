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


# ============================================================================= special functions II

from unigrad.ops import _special_fallbacks as fallbacks  # noqa: E402

REAL = [-INF, -40.0, -30.0, -5.0, -1.0, -1e-3, -0.0, 0.0, 1e-8, 0.5, 2.0, 5.0, 26.0, 30.0, 1e10,
        INF, NAN]
PROBABILITY = [-0.5, 0.0, 1e-300, 1e-10, 0.025, 0.3, 0.5, 0.9, 1 - 1e-12, 1.0, 1.5, NAN]
NONNEGATIVE = [-1.0, -1e-3, -0.0, 0.0, 1e-300, 1e-8, 0.5, 1.0, 3.0, 1e10, INF, NAN]


@pytest.mark.parametrize("name, grid", [("erfcx", REAL), ("log_ndtr", REAL), ("expit", REAL),
                                        ("ndtri", PROBABILITY), ("entr", NONNEGATIVE),
                                        ("gammaln", GAMMA)])
def test_special_unary_matches_torch(name, grid):
    _run(getattr(ug, name), getattr(torch.special, name), grid)


def test_ndtr_matches_torch():
    # PyTorch's ndtr is (1 + erf(x / sqrt 2)) / 2, which loses the far left tail (~1e-17
    # absolute); unigrad's is erfc(-x / sqrt 2) / 2 (SciPy's), accurate there
    _run(ug.ndtr, torch.special.ndtr, REAL, rtol=1e-15)
    far = np.array([-30.0, -10.0])
    np.testing.assert_allclose(ug.ndtr(ug.tensor(far)).numpy(), scipy_special.ndtr(far),
                               rtol=1e-13)


def test_psi_and_multigammaln_match_torch():
    _run(ug.psi, torch.special.psi, NO_NEGATIVE_POLES, rtol=TRIGAMMA_RTOL)
    _run(lambda x: ug.multigammaln(x, 3), lambda x: torch.special.multigammaln(x, 3),
         [1.1, 2.0, 5.5])


def test_spherical_bessel_j0_matches_torch():
    grid = [-INF, -7.5, -0.3, -0.0, 0.0, 1e-3, 0.49, 0.51, 5.0, 1e20, INF, NAN]
    _run(ug.spherical_bessel_j0, torch.special.spherical_bessel_j0, grid, grad=False,
         rtol=1e-14)


BESSEL_J = [-INF, -30.0, -5.0, -1.0, -1e-3, -0.0, 0.0, 1e-8, 0.5, 2.0, 4.0, 8.0, 30.0, 1e10,
            INF, NAN]


@pytest.mark.parametrize("name", ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1"])
def test_bessel_j_and_y_values_match_torch(name):
    # PyTorch's Cephes port is off by ~1e-8 near x = 5 (SciPy's and unigrad's are exact there)
    _run(getattr(ug, name), getattr(torch.special, name), BESSEL_J, grad=False, rtol=1e-7)
    _relative(getattr(ug, name)(ug.tensor(np.array(BESSEL_J))).numpy(),
              getattr(scipy_special, name[-2:])(np.array(BESSEL_J)), rtol=1e-15)


BESSEL_K = [-INF, -1.0, -0.0, 0.0, 1e-300, 1e-8, 0.5, 2.0, 2.0000001, 5.0, 25.0, 700.0, 800.0,
            1e10, INF, NAN]
K_NAMES = {"modified_bessel_k0": "k0", "modified_bessel_k1": "k1",
           "scaled_modified_bessel_k0": "k0e", "scaled_modified_bessel_k1": "k1e"}


@pytest.mark.parametrize("name", list(K_NAMES))
def test_bessel_k_values_match_torch(name):
    _run(getattr(ug, name), getattr(torch.special, name), BESSEL_K, grad=False, rtol=1e-13)


def test_bessel_k_derivatives():
    # PyTorch records no derivative for these; unigrad has K0' = -K1, K1' = -K0 - K1/x
    data = np.array([1e-3, 0.7, 2.5, 12.0, 40.0])
    x = ug.tensor(data, requires_grad=True)
    k0, k1, k0e, k1e = (getattr(scipy_special, n)(data) for n in ("k0", "k1", "k0e", "k1e"))
    for name, expected in (("modified_bessel_k0", -k1), ("modified_bessel_k1", -k0 - k1 / data),
                           ("scaled_modified_bessel_k0", k0e - k1e),
                           ("scaled_modified_bessel_k1", k1e - k0e - k1e / data)):
        (derivative,) = ug.autograd.grad(getattr(ug, name)(x).sum(), x)
        np.testing.assert_allclose(derivative.numpy(), expected, rtol=1e-13)
    np.testing.assert_allclose(-k0 - k1 / data, scipy_special.kvp(1, data), rtol=1e-12)


def test_bessel_y_derivatives():
    # PyTorch records no derivative for bessel_y0/y1; unigrad has y0' = -y1, y1' = y0 - y1/x
    data = np.array([1e-3, 0.7, 2.5, 12.0, 40.0])
    x = ug.tensor(data, requires_grad=True)
    (d0,) = ug.autograd.grad(ug.bessel_y0(x).sum(), x)
    (d1,) = ug.autograd.grad(ug.bessel_y1(x).sum(), x)
    np.testing.assert_allclose(d0.numpy(), -scipy_special.y1(data), rtol=1e-14)
    np.testing.assert_allclose(d1.numpy(), scipy_special.yvp(1, data), rtol=1e-12, atol=1e-15)


def test_bessel_j_derivatives():
    # PyTorch records no derivative for bessel_j0/j1; unigrad has j0' = -j1, j1' = j0 - j1/x
    data = np.array([-3.0, -1e-9, 0.0, 0.7, 2.5, 12.0])
    x = ug.tensor(data, requires_grad=True)
    (d0,) = ug.autograd.grad(ug.bessel_j0(x).sum(), x)
    (d1,) = ug.autograd.grad(ug.bessel_j1(x).sum(), x)
    np.testing.assert_allclose(d0.numpy(), -scipy_special.j1(data), rtol=1e-14)
    np.testing.assert_allclose(d1.numpy(), scipy_special.jvp(1, data), rtol=1e-12, atol=1e-15)


ZETA_X = [-INF, -2.0, 0.5, 1.0, 1.5, 2.0, 3.0, 10.0, INF, NAN]
ZETA_Q = [-INF, -2.0, -1.5, 0.0, 0.5, 1.0, 3.0, 1e5, INF, NAN]


def test_zeta_values_match_torch():
    x, q = np.meshgrid(ZETA_X, ZETA_Q)
    with np.errstate(all="ignore"):
        _compare(ug.zeta(ug.tensor(x), ug.tensor(q)).numpy(),
                 torch.special.zeta(torch.tensor(x), torch.tensor(q)), rtol=1e-13)


def test_zeta_gradient_with_respect_to_q_matches_torch():
    q = np.array([0.3, 1.0, 2.5, 40.0])
    ours, theirs = ug.tensor(q, requires_grad=True), torch.tensor(q, requires_grad=True)
    ug.zeta(ug.tensor([2.0, 3.0, 4.5, 1.5]), ours).sum().backward()
    torch.special.zeta(torch.tensor([2.0, 3.0, 4.5, 1.5], dtype=torch.float64),
                       theirs).sum().backward()
    _compare(ours.grad.numpy(), theirs.grad, rtol=1e-12)
    scalar = ug.tensor(q, requires_grad=True)
    ug.zeta(3.0, scalar).sum().backward()  # PyTorch's zeta(Number, Tensor)
    scalar_t = torch.tensor(q, requires_grad=True)
    torch.special.zeta(3.0, scalar_t).sum().backward()
    _compare(scalar.grad.numpy(), scalar_t.grad, rtol=1e-12)


@pytest.mark.parametrize("name", ["zeta", "gammainc", "gammaincc"])
def test_no_derivative_with_respect_to_the_first_argument(name):
    x = ug.tensor([2.0], requires_grad=True)
    result = getattr(ug, name)(x, ug.tensor([1.5]))
    with pytest.raises(NotImplementedError, match="derivative"):
        result.backward()


GAMMA_A = [-1.0, 0.0, 1e-3, 0.5, 1.0, 3.0, 100.0, INF, NAN]
GAMMA_X = [-1.0, 0.0, 1e-3, 0.5, 1.0, 3.0, 95.0, INF, NAN]


@pytest.mark.parametrize("name", ["gammainc", "gammaincc"])
def test_incomplete_gamma_matches_torch(name):
    a, x = np.meshgrid(GAMMA_A, GAMMA_X)
    with np.errstate(all="ignore"):
        # (PyTorch's large-a expansion is good to ~5e-10 at a = 100; SciPy's, used here, better)
        _compare(getattr(ug, name)(ug.tensor(a), ug.tensor(x)).numpy(),
                 getattr(torch.special, name)(torch.tensor(a), torch.tensor(x)), rtol=1e-9)
        _compare(fallbacks.gammainc_fallback(a, x, name == "gammaincc"),
                 getattr(torch.special, name)(torch.tensor(a), torch.tensor(x)), rtol=1e-9)
    _run(lambda v: getattr(ug, name)(ug.tensor([0.5, 2.0, 3.0, 7.0]), v),
         lambda v: getattr(torch.special, name)(torch.tensor([0.5, 2.0, 3.0, 7.0],
                                                             dtype=torch.float64), v),
         [0.1, 1.0, 2.5, 9.0], rtol=1e-12)


@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_incomplete_gamma_refuses_integers_as_torch(name):
    with pytest.raises(NotImplementedError, match="Long"):
        getattr(torch, name)(torch.tensor([2, 3]), torch.tensor([1, 2]))
    with pytest.raises(NotImplementedError, match="Long"):
        getattr(ug, name)(ug.tensor([2, 3]), ug.tensor([1, 2]))
    _compare(getattr(ug, name)(ug.tensor([2, 3]), ug.tensor([1.0, 2.0])).numpy(),
             getattr(torch, name)(torch.tensor([2, 3]), torch.tensor([1.0, 2.0])), rtol=1e-6)


def test_igamma_methods_and_inplace():
    a, x = np.array([0.5, 2.0]), np.array([1.0, 1.5])
    expected = torch.tensor(a).igammac(torch.tensor(x))
    _compare(ug.tensor(a).igammac(ug.tensor(x)).numpy(), expected)
    ours = ug.tensor(a)
    assert ours.igamma_(ug.tensor(x)) is ours
    _compare(ours.numpy(), torch.tensor(a).igamma(torch.tensor(x)))


@pytest.mark.parametrize("name", ["erfcx", "ndtr", "log_ndtr", "entr", "bessel_j0", "bessel_j1",
                                  "expit", "gammaln", "psi", "spherical_bessel_j0"])
def test_integer_and_float32_dtypes_match_torch(name):
    ints = [0, 1, 2]
    _compare(getattr(ug, name)(ug.tensor(ints)).numpy(),
             getattr(torch.special, name)(torch.tensor(ints)), rtol=1e-6)
    singles = np.array([0.25, 1.5, 3.0], dtype=np.float32)
    _compare(getattr(ug, name)(ug.tensor(singles)).numpy(),
             getattr(torch.special, name)(torch.tensor(singles)), rtol=1e-5, atol=1e-6)


def test_binary_dtypes_match_torch():
    _compare(ug.zeta(ug.tensor([2, 3]), ug.tensor([1, 2])).numpy(),
             torch.special.zeta(torch.tensor([2, 3]), torch.tensor([1, 2])), rtol=1e-6)
    for name in ("zeta", "gammainc", "gammaincc"):
        singles = np.array([1.5, 2.5], dtype=np.float32)
        _compare(getattr(ug, name)(ug.tensor(singles), ug.tensor(singles + 1)).numpy(),
                 getattr(torch.special, name)(torch.tensor(singles), torch.tensor(singles + 1)),
                 rtol=1e-5)


# ----------------------------------------------------------------------------- their fallbacks

WIDE = np.concatenate([np.linspace(-26.0, 60.0, 4001), [1e5, 1e200, -1e-300]])


def test_erfcx_fallback_matches_scipy():
    _relative(fallbacks.erfcx_fallback(WIDE), scipy_special.erfcx(WIDE), rtol=1e-13)
    edges = np.array([-INF, INF, NAN, 0.0])
    np.testing.assert_array_equal(fallbacks.erfcx_fallback(edges), scipy_special.erfcx(edges))


def test_ndtr_and_log_ndtr_fallbacks_match_scipy():
    values = np.linspace(-37.0, 9.0, 3001)
    _relative(fallbacks.ndtr_fallback(values), scipy_special.ndtr(values), rtol=1e-12)
    values = np.concatenate([np.linspace(-1e3, 30.0, 5001), [-1e10, -1e150]])
    _relative(fallbacks.log_ndtr_fallback(values), scipy_special.log_ndtr(values), rtol=1e-12)
    edges = np.array([-INF, INF, NAN])
    np.testing.assert_array_equal(fallbacks.log_ndtr_fallback(edges),
                                  scipy_special.log_ndtr(edges))


def test_ndtri_fallback_matches_scipy():
    p = np.concatenate([np.linspace(1e-6, 1 - 1e-6, 5001), np.logspace(-300, -1, 300),
                        1 - np.logspace(-16, -1, 100)])
    np.testing.assert_allclose(fallbacks.ndtri_fallback(p), scipy_special.ndtri(p), rtol=1e-13,
                               atol=1e-15)
    edges = np.array(PROBABILITY)
    np.testing.assert_allclose(fallbacks.ndtri_fallback(edges), scipy_special.ndtri(edges),
                               rtol=1e-14)


def test_zeta_fallback_matches_torch():
    x, q = np.meshgrid(ZETA_X + [1.1, 4.5, 30.0], ZETA_Q + [0.1, 7.0, -0.5, 1e3])
    with np.errstate(all="ignore"):
        _compare(fallbacks.zeta_fallback(x, q),
                 torch.special.zeta(torch.tensor(x), torch.tensor(q)), rtol=1e-13)


def test_incomplete_gamma_fallback_matches_scipy():
    a = np.array([0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 100.0, 0.5, 3.0, 30.0])
    x = np.array([0.05, 2.0, 1.0, 5.0, 3.0, 12.0, 95.0, 30.0, 1e-5, 29.0])
    _relative(fallbacks.gammainc_fallback(a, x), scipy_special.gammainc(a, x), rtol=1e-12)
    _relative(fallbacks.gammainc_fallback(a, x, True), scipy_special.gammaincc(a, x),
              rtol=1e-12)
    # (the edge values are checked against PyTorch in test_incomplete_gamma_matches_torch)


@pytest.mark.parametrize("order", [0, 1])
def test_bessel_j_fallback_matches_scipy(order):
    values = np.concatenate([np.linspace(-60.0, 60.0, 4001), [1e-8, -1e-8, 1e5, -300.5]])
    reference = getattr(scipy_special, f"j{order}")(values)
    np.testing.assert_allclose(fallbacks.bessel_j_fallback(values, order), reference,
                               rtol=1e-12, atol=2e-15)
    edges = np.array([-INF, -0.0, 0.0, INF, NAN])
    np.testing.assert_array_equal(fallbacks.bessel_j_fallback(edges, order),
                                  getattr(scipy_special, f"j{order}")(edges))


@pytest.mark.parametrize("order", [0, 1])
def test_bessel_y_fallback_matches_scipy(order):
    values = np.concatenate([np.linspace(0.01, 60.0, 4001), [1e-300, 1e-8, 1e5]])
    reference = getattr(scipy_special, f"y{order}")(values)
    np.testing.assert_allclose(fallbacks.bessel_y_fallback(values, order), reference,
                               rtol=1e-11, atol=3e-15)
    edges = np.array([-INF, -1.0, -0.0, 0.0, INF, NAN])
    np.testing.assert_array_equal(fallbacks.bessel_y_fallback(edges, order),
                                  getattr(scipy_special, f"y{order}")(edges))


@pytest.mark.parametrize("name", list(K_NAMES))
def test_bessel_k_fallback_matches_scipy(name):
    order, scaled = int(K_NAMES[name][1]), K_NAMES[name].endswith("e")
    values = np.concatenate([np.linspace(0.001, 60.0, 4001), [1e-300, 1e-8, 700.0, 1e5]])
    _relative(fallbacks.bessel_k_fallback(values, order, scaled),
              getattr(scipy_special, K_NAMES[name])(values), rtol=1e-13)
    edges = np.array([-INF, -1.0, -0.0, 0.0, INF, NAN, 800.0])
    np.testing.assert_allclose(fallbacks.bessel_k_fallback(edges, order, scaled),
                               getattr(scipy_special, K_NAMES[name])(edges), rtol=1e-15)


def test_new_ops_use_the_fallbacks_without_scipy(monkeypatch):
    monkeypatch.setattr(special, "_scipy_special", lambda: None)
    x = np.array([0.3, 1.5, 4.0, 12.0])
    for name, reference in (("erfcx", scipy_special.erfcx), ("ndtr", scipy_special.ndtr),
                            ("log_ndtr", scipy_special.log_ndtr), ("entr", scipy_special.entr),
                            ("bessel_j0", scipy_special.j0), ("bessel_j1", scipy_special.j1),
                            ("bessel_y0", scipy_special.y0), ("bessel_y1", scipy_special.y1),
                            ("modified_bessel_k1", scipy_special.k1),
                            ("scaled_modified_bessel_k0", scipy_special.k0e)):
        _relative(getattr(ug, name)(ug.tensor(x)).numpy(), reference(x), rtol=1e-12)
    _relative(ug.ndtri(ug.tensor(x / 13)).numpy(), scipy_special.ndtri(x / 13), rtol=1e-12)
    _relative(ug.zeta(ug.tensor(x + 1), ug.tensor(x)).numpy(), scipy_special.zeta(x + 1, x))
    _relative(ug.gammainc(ug.tensor(x), ug.tensor(x[::-1])).numpy(),
              scipy_special.gammainc(x, x[::-1]))
    _relative(ug.gammaincc(ug.tensor(x), ug.tensor(x[::-1])).numpy(),
              scipy_special.gammaincc(x, x[::-1]), rtol=1e-11)
    assert ug.zeta(ug.tensor(x + 1, dtype=ug.float32), 2.0).dtype == ug.float32
    entr = ug.entr(ug.tensor([-1.0, 0.0, NAN])).numpy()
    np.testing.assert_array_equal(entr, [-INF, 0.0, NAN])


# ----------------------------------------------------------------------------- polynomials

POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
               "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
               "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
               "laguerre_polynomial_l", "legendre_polynomial_p"]
# (PyTorch's vectorized kernels give garbage at NaN x, so NaN x is left out)
POLYNOMIAL_X = [-INF, -3.0, -1.0, -0.999, -0.7, -0.3, 0.0, 1e-3, 0.25, 0.5, 0.77, 0.999, 1.0,
                1.5, 4.0, INF]
POLYNOMIAL_N = [-2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 13.0, 20.0,
                2.7, NAN, INF, -INF, 1e300]


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomials_match_torch(name):
    x, n = np.meshgrid(POLYNOMIAL_X, POLYNOMIAL_N)
    with np.errstate(all="ignore"):
        _compare(getattr(ug, name)(ug.tensor(x), ug.tensor(n)).numpy(),
                 getattr(torch.special, name)(torch.tensor(x), torch.tensor(n)), rtol=1e-12)
    # a Python degree, an int64 degree tensor, a Python input; float32 and integer inputs
    # (PyTorch computes float32 in float32, unigrad in float64: the tolerance is float32's)
    points = np.array([0.1, 0.6, 2.0], dtype=np.float32)
    _compare(getattr(ug, name)(ug.tensor(points), 4).numpy(),
             getattr(torch.special, name)(torch.tensor(points), 4), rtol=1e-5, atol=1e-5)
    _compare(getattr(ug, name)(ug.tensor(points), ug.tensor([1, 5, 9])).numpy(),
             getattr(torch.special, name)(torch.tensor(points), torch.tensor([1, 5, 9])),
             rtol=1e-5, atol=1e-5)
    _compare(getattr(ug, name)(0.3, ug.tensor([2.0, 3.0])).numpy(),
             getattr(torch.special, name)(0.3, torch.tensor([2.0, 3.0])), rtol=1e-5, atol=1e-5)
    _compare(getattr(ug, name)(ug.tensor([1, 2]), 3).numpy(),
             getattr(torch.special, name)(torch.tensor([1, 2]), 3), rtol=1e-5, atol=1e-5)


def test_polynomials_record_no_gradient_as_torch():
    x = ug.tensor([0.5, 2.0], requires_grad=True)
    result = ug.hermite_polynomial_h(x, 3)
    assert not result.requires_grad
    assert not torch.special.hermite_polynomial_h(torch.tensor([0.5], requires_grad=True),
                                                  3).requires_grad
