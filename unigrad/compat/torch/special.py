"""``torch.special`` spelled on unigrad: ``import unigrad.compat.torch as torch`` then
``torch.special.erfcx(x)``.

Holds the names of PyTorch 2.13's ``torch.special`` that unigrad provides, with PyTorch's
signatures (``softmax(input, dim, *, dtype=None)``, ``round(input, *, decimals=0)``...).
Not provided: ``airy_ai``, nor the ``out=`` arguments.

Example:
    >>> import unigrad.compat.torch as torch
    >>> torch.special.ndtr(torch.tensor([0.0, 1.0]))
    tensor([0.5000, 0.8413])
    >>> torch.special.round(torch.tensor([1.2345]), decimals=2)
    tensor([1.2300])
"""

from __future__ import annotations

import unigrad.ops as _ops
from unigrad.ops import (
    bessel_j0,
    bessel_j1,
    bessel_y0,
    bessel_y1,
    chebyshev_polynomial_t,
    chebyshev_polynomial_u,
    chebyshev_polynomial_v,
    chebyshev_polynomial_w,
    digamma,
    entr,
    erf,
    erfc,
    erfcx,
    erfinv,
    exp2,
    expit,
    expm1,
    gammainc,
    gammaincc,
    gammaln,
    hermite_polynomial_h,
    hermite_polynomial_he,
    i0,
    i0e,
    i1,
    i1e,
    laguerre_polynomial_l,
    legendre_polynomial_p,
    log1p,
    log_ndtr,
    logit,
    modified_bessel_k0,
    modified_bessel_k1,
    multigammaln,
    ndtr,
    ndtri,
    polygamma,
    psi,
    scaled_modified_bessel_k0,
    scaled_modified_bessel_k1,
    shifted_chebyshev_polynomial_t,
    shifted_chebyshev_polynomial_u,
    shifted_chebyshev_polynomial_v,
    shifted_chebyshev_polynomial_w,
    sinc,
    spherical_bessel_j0,
    xlog1py,
    xlogy,
    zeta,
)
from unigrad.tensor import Tensor

from . import _out

__all__ = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t",
           "chebyshev_polynomial_u",
           "chebyshev_polynomial_v", "chebyshev_polynomial_w", "digamma", "entr", "erf", "erfc",
           "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc", "gammaln",
           "hermite_polynomial_h", "hermite_polynomial_he", "i0", "i0e", "i1", "i1e",
           "laguerre_polynomial_l", "legendre_polynomial_p", "log1p", "log_ndtr", "log_softmax",
           "logit", "logsumexp", "modified_bessel_i0", "modified_bessel_i1",
           "modified_bessel_k0", "modified_bessel_k1", "multigammaln", "ndtr", "ndtri",
           "polygamma", "psi", "round", "scaled_modified_bessel_k0",
           "scaled_modified_bessel_k1", "shifted_chebyshev_polynomial_t",
           "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
           "shifted_chebyshev_polynomial_w", "sinc", "softmax", "spherical_bessel_j0",
           "xlog1py", "xlogy", "zeta"]

# (PyTorch computes these with other kernels than ``i0``/``i1``, to the same values)
modified_bessel_i0 = i0
modified_bessel_i1 = i1


def softmax(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """``exp(input) / sum(exp(input), dim)``, computed in ``dtype`` when given.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> torch.special.softmax(torch.tensor([1.0, 2.0]), 0)
        tensor([0.2689, 0.7311])
    """
    return _ops.softmax(input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """``log(softmax(input, dim))``, computed stably (in ``dtype`` when given).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> torch.special.log_softmax(torch.tensor([1.0, 2.0]), 0)
        tensor([-1.3133, -0.3133])
    """
    return _ops.log_softmax(input, dim, dtype=dtype)


def logsumexp(input: Tensor, dim, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(input), dim))`` without overflow.

    Example:
        >>> import unigrad.compat.torch as torch
        >>> torch.special.logsumexp(torch.tensor([0.0, 0.0]), 0)
        tensor(0.6931)
    """
    return _ops.logsumexp(input, dim, keepdim)


round = _ops.round  # noqa: A001 - PyTorch's name; takes decimals=

# every function but softmax and log_softmax takes PyTorch's out=
_out.install(globals(), [name for name in __all__ if name not in ("softmax", "log_softmax")])
