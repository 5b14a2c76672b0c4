"""Op-table specs for ``unigrad/ops/special.py`` (lgamma, digamma, polygamma, mvlgamma,
erfinv, i0, i0e, i1, i1e, erfcx, ndtr, log_ndtr, ndtri, entr, bessel_j0, bessel_j1, bessel_y0,
bessel_y1, the modified Bessel functions K0 and K1 (and scaled), zeta,
igamma, igammac, the orthogonal polynomials), with ``scipy.special`` references."""

from __future__ import annotations

import math

import numpy as np
import scipy.special as scipy_special

import unigrad as ug

from .spec import OpSpec, Sample
from .table_elementwise import symmetric, unary, unary_samples, uniform

# positive values away from the poles; (-0.9, 0.9) for erfinv
GAMMA_DOMAIN = uniform(0.5, 4.0)
MVLGAMMA_DOMAIN = uniform(1.6, 4.0)  # above (p - 1) / 2 for p = 3
ERFINV_DOMAIN = uniform(-0.9, 0.9)
BESSEL_DOMAIN = symmetric(0.2, 3.0)  # (i0e and i1e have a kink at 0)
ZETA_ORDERS, ZETA_SHIFTS = uniform(1.5, 4.0), uniform(0.5, 3.0)
GAMMA_SHAPES, GAMMA_POINTS = uniform(0.5, 4.0), uniform(0.3, 4.0)


def second_argument_samples(first, second, python_first: bool = True):
    """Binary samples differentiated in the second argument only (PyTorch has no derivative
    of zeta, igamma and igammac in the first): same shapes, broadcasting, 0-d, zero-size,
    transposed, and a Python number first."""
    def samples(rng: np.random.Generator) -> list:
        result = [Sample((first(rng, 3, 4), second(rng, 3, 4)), diff=(1,), label="same"),
                  Sample((first(rng, 3, 1), second(rng, 1, 4)), diff=(1,), label="broadcast"),
                  Sample((first(rng), second(rng, 2, 3)), diff=(1,), label="scalar_tensor"),
                  Sample((first(rng, 0, 3), second(rng, 1, 3)), diff=(1,), label="empty"),
                  Sample((first(rng, 4, 3).T, second(rng, 3, 4)), diff=(1,),
                         label="transposed")]
        if python_first:
            result.append(Sample((2.5, second(rng, 2, 3)), diff=(1,), label="python_first"))
        return result
    return samples


def _chebyshev_v(n, x):
    return scipy_special.eval_chebyu(n, x) - scipy_special.eval_chebyu(n - 1, x)


def _chebyshev_w(n, x):
    return scipy_special.eval_chebyu(n, x) + scipy_special.eval_chebyu(n - 1, x)


# torch.special's polynomial name: scipy's P_n(x) (n a non-negative integer array)
POLYNOMIAL_REFERENCES = {
    "chebyshev_polynomial_t": scipy_special.eval_chebyt,
    "chebyshev_polynomial_u": scipy_special.eval_chebyu,
    "chebyshev_polynomial_v": _chebyshev_v,
    "chebyshev_polynomial_w": _chebyshev_w,
    "shifted_chebyshev_polynomial_t": scipy_special.eval_sh_chebyt,
    "shifted_chebyshev_polynomial_u": scipy_special.eval_sh_chebyu,
    "shifted_chebyshev_polynomial_v": lambda n, x: _chebyshev_v(n, 2 * x - 1),
    "shifted_chebyshev_polynomial_w": lambda n, x: _chebyshev_w(n, 2 * x - 1),
    "hermite_polynomial_h": scipy_special.eval_hermite,
    "hermite_polynomial_he": scipy_special.eval_hermitenorm,
    "laguerre_polynomial_l": scipy_special.eval_laguerre,
    "legendre_polynomial_p": scipy_special.eval_legendre,
}


def polynomial_samples(rng: np.random.Generator) -> list:
    """Degrees as a Python int, an integer-valued float tensor (broadcast, up to 12: past
    the Chebyshev kernels' switch to the trigonometric form) and an int64 tensor."""
    x = uniform(0.05, 0.95)
    return [Sample((x(rng, 3, 4), 3), label="python_degree"),
            Sample((x(rng, 3, 1), np.array([[0.0, 1.0, 7.0, 12.0]])), label="tensor_degree"),
            Sample((x(rng), 5), label="scalar"),
            Sample((x(rng, 0, 3), 2), label="empty"),
            Sample((x(rng, 4, 3).T, rng.integers(0, 10, size=(3, 4))), label="int_degree")]


def polynomial_spec(name: str) -> OpSpec:
    reference = POLYNOMIAL_REFERENCES[name]
    return OpSpec(name, getattr(ug, name),
                  lambda x, n: reference(np.asarray(n, dtype=np.int64), x),
                  polynomial_samples, (name,), grad=False, rtol=1e-10)


def mvlgamma_reference(x, p):
    return (sum(scipy_special.gammaln(x - i / 2.0) for i in range(p))
            + p * (p - 1) / 4.0 * math.log(math.pi))


def polygamma_spec(n: int, method: bool = False) -> OpSpec:
    name = f"polygamma_{n}" + ("_method" if method else "")
    function = (lambda x: x.polygamma(n)) if method else (lambda x: ug.polygamma(n, x))
    return OpSpec(name, function, lambda x: scipy_special.polygamma(n, x),
                  unary_samples(GAMMA_DOMAIN), ("polygamma",))


OPS = [
    unary("lgamma", ug.lgamma, scipy_special.gammaln, GAMMA_DOMAIN, ("lgamma",)),
    unary("digamma", ug.digamma, scipy_special.psi, GAMMA_DOMAIN, ("digamma",)),
    polygamma_spec(0),
    polygamma_spec(1),
    polygamma_spec(2),
    polygamma_spec(3, method=True),
    unary("erfinv", ug.erfinv, scipy_special.erfinv, ERFINV_DOMAIN, ("erfinv",)),
    OpSpec("mvlgamma", lambda x: ug.mvlgamma(x, 3), lambda x: mvlgamma_reference(x, 3),
           unary_samples(MVLGAMMA_DOMAIN), ("lgamma",)),
    OpSpec("mvlgamma_method", lambda x: x.mvlgamma(1), lambda x: mvlgamma_reference(x, 1),
           unary_samples(MVLGAMMA_DOMAIN), ("lgamma",)),
    unary("i0", ug.i0, scipy_special.i0, BESSEL_DOMAIN, ("i0",)),
    unary("i0e", ug.i0e, scipy_special.i0e, BESSEL_DOMAIN, ("i0e",)),
    unary("i1", ug.i1, scipy_special.i1, BESSEL_DOMAIN, ("i1",)),
    unary("i1e", ug.i1e, scipy_special.i1e, BESSEL_DOMAIN, ("i1e",)),
    OpSpec("i0_method", lambda x: x.i0(), scipy_special.i0, unary_samples(BESSEL_DOMAIN),
           ("i0",)),
    unary("erfcx", ug.erfcx, scipy_special.erfcx, uniform(-1.5, 3.0), ("erfcx",)),
    unary("ndtr", ug.ndtr, scipy_special.ndtr, primitives=("ndtr",)),
    unary("log_ndtr", ug.log_ndtr, scipy_special.log_ndtr, uniform(-6.0, 3.0), ("log_ndtr",)),
    unary("ndtri", ug.ndtri, scipy_special.ndtri, uniform(0.05, 0.95), ("ndtri",)),
    unary("entr", ug.entr, scipy_special.entr, uniform(0.2, 3.0), ("entr",)),
    unary("bessel_j0", ug.bessel_j0, scipy_special.j0, symmetric(0.2, 8.0), ("bessel_j0",)),
    unary("bessel_j1", ug.bessel_j1, scipy_special.j1, symmetric(0.2, 8.0), ("bessel_j1",)),
    unary("bessel_y0", ug.bessel_y0, scipy_special.y0, uniform(0.3, 8.0), ("bessel_y0",)),
    unary("bessel_y1", ug.bessel_y1, scipy_special.y1, uniform(0.3, 8.0), ("bessel_y1",)),
    unary("modified_bessel_k0", ug.modified_bessel_k0, scipy_special.k0, uniform(0.3, 8.0),
          ("modified_bessel_k0",)),
    unary("modified_bessel_k1", ug.modified_bessel_k1, scipy_special.k1, uniform(0.3, 8.0),
          ("modified_bessel_k1",)),
    unary("scaled_modified_bessel_k0", ug.scaled_modified_bessel_k0, scipy_special.k0e,
          uniform(0.3, 8.0), ("scaled_modified_bessel_k0",)),
    unary("scaled_modified_bessel_k1", ug.scaled_modified_bessel_k1, scipy_special.k1e,
          uniform(0.3, 8.0), ("scaled_modified_bessel_k1",)),
    OpSpec("zeta", ug.zeta, scipy_special.zeta,
           second_argument_samples(ZETA_ORDERS, ZETA_SHIFTS), ("zeta",)),
    OpSpec("igamma", ug.igamma, scipy_special.gammainc,
           second_argument_samples(GAMMA_SHAPES, GAMMA_POINTS), ("igamma",)),
    OpSpec("igammac", ug.igammac, scipy_special.gammaincc,
           second_argument_samples(GAMMA_SHAPES, GAMMA_POINTS), ("igammac",)),
    OpSpec("igamma_method", lambda a, x: a.igamma(x), scipy_special.gammainc,
           second_argument_samples(GAMMA_SHAPES, GAMMA_POINTS, python_first=False),
           ("igamma",)),
    *[polynomial_spec(name) for name in POLYNOMIAL_REFERENCES],
]
