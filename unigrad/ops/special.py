"""Special functions with PyTorch's names and semantics: the log-gamma function and its
derivatives (``lgamma``, ``digamma``, ``polygamma``, ``mvlgamma``) and the inverse
error function (``erfinv``), and the modified Bessel functions of the first kind
(``i0``, ``i1`` and their exponentially scaled ``i0e``, ``i1e``).

Each kernel uses ``scipy.special`` when it can be imported and a NumPy-only fallback
otherwise (SciPy is not a dependency). Poles give what PyTorch gives: ``lgamma`` is
``inf`` at the non-positive integers, ``digamma`` is ``-inf`` at ``0.0`` (``inf`` at
``-0.0``) and NaN at the negative integers, ``polygamma(n >= 1)`` is ``(-1)^(n+1) inf`` there.
Derivative rules are written with unigrad ops, so they are differentiable to any order.

Example:
    >>> import unigrad as ug
    >>> x = ug.tensor([1.0, 2.0], requires_grad=True)
    >>> ug.lgamma(x).sum().backward()
    >>> x.grad
    tensor([-0.5772,  0.4228])
"""

from __future__ import annotations

import math

import numpy as np

from ._dtypes import float_operand
from ._primitive import Primitive, bind
from ._shape_rules import elementwise_rule
from .elementwise import _unary_public, abs, exp, sign, where
from .elementwise_math import _example
from .registry import op

__all__ = ["lgamma", "digamma", "polygamma", "erfinv", "mvlgamma", "i0", "i0e", "i1", "i1e"]

_same = elementwise_rule()


def _scipy_special():
    try:
        import scipy.special
    except ImportError:
        return None
    return scipy.special


def _on_numpy(x, name):
    if type(x) is not np.ndarray:  # CuPy
        import cupyx.scipy.special
        return getattr(cupyx.scipy.special, name)
    return None


def _poles(x):
    return (x <= 0) & (x == np.floor(x))


# ----------------------------------------------------------------------------- NumPy fallbacks

def _math_lgamma_scalar(v: float) -> float:
    try:
        return math.lgamma(v)
    except ValueError:  # a pole
        return math.inf


_math_lgamma = np.vectorize(_math_lgamma_scalar, otypes=[np.float64])


def lgamma_fallback(x):
    """``log|Gamma(x)|`` in float64 with NumPy only."""
    return _math_lgamma(np.asarray(x, dtype=np.float64))


# B_{2k} / (2k) for k = 1..8 (digamma's asymptotic series)
_DIGAMMA_SERIES = (1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760, 1 / 12,
                   -3617 / 8160)
# B_{2k} for k = 1..10
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
              43867 / 798, -174611 / 330)


def _digamma_positive(x):
    """Digamma of positive finite float64 values: the recurrence, then the asymptotic series."""
    x = x.copy()
    shift = np.zeros_like(x)
    while True:
        small = x < 10.0
        if not small.any():
            break
        shift[small] += 1.0 / x[small]
        x[small] += 1.0
    inverse_square = 1.0 / (x * x)
    series = np.zeros_like(x)
    for coefficient in reversed(_DIGAMMA_SERIES):
        series = (series + coefficient) * inverse_square
    return np.log(x) - 0.5 / x - series - shift


def digamma_fallback(x):
    """Digamma in float64 with NumPy only (PyTorch's values at the poles)."""
    x = np.asarray(x, dtype=np.float64)
    result = np.full(x.shape, np.nan)
    finite = np.isfinite(x)
    positive = finite & (x > 0)
    result[positive] = _digamma_positive(x[positive])
    negative = finite & (x < 0) & (x != np.floor(x))
    if negative.any():  # reflection: psi(x) = psi(1 - x) - pi / tan(pi x)
        v = x[negative]
        result[negative] = _digamma_positive(1.0 - v) - math.pi / np.tan(math.pi * v)
    result[x == np.inf] = np.inf
    zero = x == 0
    result[zero] = np.copysign(np.inf, -x[zero])
    return result


def polygamma_fallback(n: int, x):
    """``polygamma(n, x)`` for ``n >= 1`` in float64 with NumPy only."""
    if n == 0:
        return digamma_fallback(x)
    x = np.asarray(x, dtype=np.float64)
    result = np.full(x.shape, np.nan)
    sign = 1.0 if n % 2 else -1.0
    factorial = math.factorial(n)
    result[_poles(x) & (x > -np.inf)] = sign * np.inf  # PyTorch: (-1)^(n+1) inf
    result[x == np.inf] = 0.0
    ordinary = np.isfinite(x) & ~_poles(x)
    v = x[ordinary].copy()
    # psi_n(x) = psi_n(x + 1) + (-1)^(n+1) n! / x^(n+1)
    shift = np.zeros_like(v)
    threshold = 15.0 + n
    while True:
        small = v < threshold
        if not small.any():
            break
        shift[small] += 1.0 / v[small] ** (n + 1)
        v[small] += 1.0
    # (-1)^(n+1) [(n-1)!/x^n + n!/(2 x^(n+1)) + sum B_2k (2k+n-1)!/((2k)! x^(2k+n))]
    series = np.zeros_like(v)
    inverse = 1.0 / v
    for k in range(len(_BERNOULLI), 0, -1):
        coefficient = _BERNOULLI[k - 1] * math.factorial(2 * k + n - 1) / math.factorial(2 * k)
        series = series * inverse * inverse + coefficient
    series = series * inverse ** (n + 2)
    asymptotic = (math.factorial(n - 1) * inverse ** n + factorial * 0.5 * inverse ** (n + 1)
                  + series)
    result[ordinary] = sign * (asymptotic + factorial * shift)
    return result


def _erfinv_initial(y):
    """Giles' single-precision approximation of erfinv (relative error ~1e-7)."""
    w = -np.log((1.0 - y) * (1.0 + y))
    central = w < 5.0
    wc = np.where(central, w - 2.5, 0.0)
    p = 2.81022636e-08
    for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
              -0.00417768164, 0.246640727, 1.50140941):
        p = c + p * wc
    wt = np.sqrt(np.where(central, 5.0, w)) - 3.0
    q = -0.000200214257
    for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
              0.00943887047, 1.00167406, 2.83297682):
        q = c + q * wt
    return np.where(central, p, q) * y


_math_erf = np.vectorize(math.erf, otypes=[np.float64])
_math_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def erfinv_fallback(y):
    """The inverse error function in float64 with NumPy only (Newton steps on erf)."""
    y = np.asarray(y, dtype=np.float64)
    result = np.full(y.shape, np.nan)
    inside = np.abs(y) < 1
    v = y[inside]
    with np.errstate(all="ignore"):
        x = _erfinv_initial(v)
        magnitude, tail = np.abs(v), np.abs(v) > 0.5
        for _ in range(8):
            # the residual erf(x) - y, through erfc where |y| > 1/2 (1 - |y| is exact there)
            ax = np.abs(x)
            residual = np.where(tail, (1.0 - magnitude) - _math_erfc(ax),
                                _math_erf(ax) - magnitude) * np.sign(v)
            derivative = 2.0 / math.sqrt(math.pi) * np.exp(-x * x)
            step = residual / derivative
            x = x - step / (1.0 + x * step)  # Halley's correction
    result[inside] = x
    result[y == 1] = np.inf
    result[y == -1] = -np.inf
    return result


# ----------------------------------------------------------------------------- kernels

def _lgamma_impl(x):
    cupy = _on_numpy(x, "gammaln")
    if cupy is not None:
        return cupy(x)
    special = _scipy_special()
    if special is None:
        return lgamma_fallback(x).astype(x.dtype, copy=False)
    result = np.where(x == -np.inf, np.inf, special.gammaln(x))  # PyTorch: inf at -inf
    return result.astype(x.dtype, copy=False)


def _digamma_impl(x):
    cupy = _on_numpy(x, "digamma")
    if cupy is not None:
        return cupy(x)
    special = _scipy_special()
    if special is None:
        return digamma_fallback(x).astype(x.dtype, copy=False)
    result = np.asarray(special.psi(x))
    zero = x == 0
    result = np.where(zero, np.copysign(np.inf, -x), result)  # PyTorch: -inf at 0.0
    result = np.where(_poles(x) & ~zero, np.nan, result)
    return result.astype(x.dtype, copy=False)


def _polygamma_impl(x, n):
    if n == 0:
        return _digamma_impl(x)
    cupy = _on_numpy(x, "polygamma")
    if cupy is not None:
        return cupy(n, x)
    special = _scipy_special()
    if special is None:
        return polygamma_fallback(n, x).astype(x.dtype, copy=False)
    result = np.asarray(special.polygamma(n, x.astype(np.float64)))
    sign = 1.0 if n % 2 else -1.0
    result = np.where(_poles(x), sign * np.inf, result)
    result = np.where(x == -np.inf, np.nan, result)
    return result.astype(x.dtype, copy=False)


def _erfinv_impl(x):
    cupy = _on_numpy(x, "erfinv")
    if cupy is not None:
        return cupy(x)
    special = _scipy_special()
    result = erfinv_fallback(x) if special is None else special.erfinv(x)
    return result.astype(x.dtype, copy=False)


# ----------------------------------------------------------------------------- primitives

_SQRT_PI_OVER_2 = math.sqrt(math.pi) / 2.0
_EPSILON = float(np.finfo(np.float64).eps)

lgamma_p = Primitive("lgamma", _lgamma_impl, _same, kind="elementwise",
                     vjp=lambda g, out, needs, x: (g * digamma(x),))
digamma_p = Primitive("digamma", _digamma_impl, _same, kind="elementwise",
                      vjp=lambda g, out, needs, x: (g * polygamma(1, x),))
polygamma_p = Primitive("polygamma", _polygamma_impl, lambda x, **p: _same(x),
                        kind="elementwise",
                        vjp=lambda g, out, needs, x, n: (g * polygamma(n + 1, x),))
erfinv_p = Primitive("erfinv", _erfinv_impl, _same, kind="elementwise", saves="output",
                     vjp=lambda g, out, needs, x: (g * _SQRT_PI_OVER_2 * exp(out * out),))


# ============================================================================= public functions

lgamma = _unary_public(lgamma_p, "``log|Gamma(input)|`` (``inf`` at the poles)." + _example(
    "lgamma", "ug.tensor([0.5, 3.0])", "tensor([0.5724, 0.6931])"),
    methods=("lgamma",), inplace=("lgamma_",))
digamma = _unary_public(digamma_p, "The logarithmic derivative of Gamma, ``psi``." + _example(
    "digamma", "ug.tensor([1.0, 2.0])", "tensor([-0.5772,  0.4228])"),
    methods=("digamma",), inplace=("digamma_",))
erfinv = _unary_public(erfinv_p, "The inverse error function (``±inf`` at ±1, NaN outside)."
                       + _example("erfinv", "ug.tensor([0.0, 0.5])", "tensor([0.0000, 0.4769])"),
                       methods=("erfinv",), inplace=("erfinv_",))


def polygamma(n, input):
    """The ``n``-th derivative of digamma (``polygamma(0, x)`` is ``digamma(x)``).

    Example:
        >>> import unigrad as ug
        >>> ug.polygamma(1, ug.tensor([1.0, 2.0]))
        tensor([1.6449, 0.6449])
    """
    n = int(n)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    if n == 0:
        return digamma(input)
    return bind(polygamma_p, float_operand(input), n=n)


@op(methods=("polygamma",), inplace=("polygamma_",))
def _polygamma_method(input, n):
    """``input.polygamma(n)``: :func:`polygamma` with the tensor first, as in PyTorch."""
    return polygamma(n, input)


@op(methods=("mvlgamma",), inplace=("mvlgamma_",))
def mvlgamma(input, p):
    """The multivariate log-gamma function of dimension ``p``.

    ``p (p - 1) / 4 log(pi) + sum_{i < p} lgamma(input - i / 2)``.

    Example:
        >>> import unigrad as ug
        >>> ug.mvlgamma(ug.tensor([2.5, 3.0]), 2)
        tensor([0.8570, 1.5502])
    """
    p = int(p)
    if p < 1:
        raise ValueError("p has to be greater than or equal to 1")
    result = lgamma(input)
    for i in range(1, p):
        result = result + lgamma(input - i / 2.0)
    return result + p * (p - 1) / 4.0 * math.log(math.pi)


# ----------------------------------------------------------------------------- modified Bessel

def _bessel_series(x, order):
    """``I_order(x)`` (order 0 or 1) by its power series (all terms positive), float64."""
    quarter_square = x * x / 4.0
    term = np.ones_like(x) if order == 0 else x / 2.0
    total = term.copy()
    for k in range(1, 90):
        term = term * quarter_square / (k * (k + order))
        total = total + term
    return total


def _bessel_asymptotic_scaled(x, order):
    """``I_order(|x|) exp(-|x|)`` for large ``|x|`` by Hankel's asymptotic series."""
    ax = np.abs(x)
    mu = 4.0 * order * order
    term = np.ones_like(ax)
    total = term.copy()
    for k in range(1, 40):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * ax)
        total = total + term
    return total / np.sqrt(2.0 * math.pi * ax)


def bessel_fallback(x, order: int, scaled: bool):
    """``i0``, ``i1`` (and with ``scaled`` ``i0e``, ``i1e``) in float64 with NumPy only."""
    x = np.asarray(x, dtype=np.float64)
    result = np.full(x.shape, np.nan)
    ax = np.abs(x)
    small = ax <= 20.0
    large = (ax > 20.0) & np.isfinite(x)
    with np.errstate(over="ignore", invalid="ignore"):
        series = _bessel_series(x[small], order)
        result[small] = series * np.exp(-ax[small]) if scaled else series
        asymptotic = _bessel_asymptotic_scaled(x[large], order)
        if order == 1:
            asymptotic = asymptotic * np.sign(x[large])
        result[large] = asymptotic if scaled else asymptotic * np.exp(ax[large])
    infinite = np.isinf(x)  # (as SciPy and PyTorch: NaN unscaled, 0 scaled)
    sign = np.sign(x[infinite]) if order == 1 else 1.0
    result[infinite] = 0.0 * sign if scaled else np.nan
    return result


def _bessel_impl(name, order, scaled):
    def impl(x):
        cupy = _on_numpy(x, name)
        if cupy is not None:
            return cupy(x)
        special = _scipy_special()
        if special is None:
            return bessel_fallback(x, order, scaled).astype(x.dtype, copy=False)
        return np.asarray(getattr(special, name)(x)).astype(x.dtype, copy=False)
    return impl


def _safe_reciprocal(x):
    # PyTorch: the derivative of i1 and i1e is 0.5 where not |x| > eps (NaN included)
    tiny = ~(abs(x) > _EPSILON)
    return tiny, 1.0 / where(tiny, 1.0, x)


def _i1_vjp(g, out, needs, x):
    zero, reciprocal = _safe_reciprocal(x)
    return (g * where(zero, 0.5, i0(x) - out * reciprocal),)


def _i1e_vjp(g, out, needs, x):
    zero, reciprocal = _safe_reciprocal(x)
    return (g * where(zero, 0.5, i0e(x) - out * (sign(x) + reciprocal)),)


i0_p = Primitive("i0", _bessel_impl("i0", 0, False), _same, kind="elementwise",
                 vjp=lambda g, out, needs, x: (g * i1(x),))
i0e_p = Primitive("i0e", _bessel_impl("i0e", 0, True), _same, kind="elementwise",
                  saves="inputs and output",
                  vjp=lambda g, out, needs, x: (g * (i1e(x) - sign(x) * out),))
i1_p = Primitive("i1", _bessel_impl("i1", 1, False), _same, kind="elementwise",
                 saves="inputs and output", vjp=_i1_vjp)
i1e_p = Primitive("i1e", _bessel_impl("i1e", 1, True), _same, kind="elementwise",
                  saves="inputs and output", vjp=_i1e_vjp)

i0 = _unary_public(i0_p, "The modified Bessel function of the first kind, order 0." + _example(
    "i0", "ug.tensor([0.0, 1.0])", "tensor([1.0000, 1.2661])"),
    methods=("i0",), inplace=("i0_",))
i0e = _unary_public(i0e_p, "``i0(input) * exp(-|input|)``, without overflow." + _example(
    "i0e", "ug.tensor([0.0, 1.0])", "tensor([1.0000, 0.4658])"), methods=())
i1 = _unary_public(i1_p, "The modified Bessel function of the first kind, order 1." + _example(
    "i1", "ug.tensor([0.0, 1.0])", "tensor([0.0000, 0.5652])"), methods=())
i1e = _unary_public(i1e_p, "``i1(input) * exp(-|input|)``, without overflow." + _example(
    "i1e", "ug.tensor([0.0, 1.0])", "tensor([0.0000, 0.2079])"), methods=())
