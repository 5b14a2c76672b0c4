"""Op-table specs for ``unigrad/ops/special.py`` (lgamma, digamma, polygamma, mvlgamma,
erfinv, i0, i0e, i1, i1e), with ``scipy.special`` references."""

from __future__ import annotations

import math

import scipy.special as scipy_special

import unigrad as ug

from .spec import OpSpec
from .table_elementwise import symmetric, unary, unary_samples, uniform

# positive values away from the poles; (-0.9, 0.9) for erfinv
GAMMA_DOMAIN = uniform(0.5, 4.0)
MVLGAMMA_DOMAIN = uniform(1.6, 4.0)  # above (p - 1) / 2 for p = 3
ERFINV_DOMAIN = uniform(-0.9, 0.9)
BESSEL_DOMAIN = symmetric(0.2, 3.0)  # (i0e and i1e have a kink at 0)


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
]
