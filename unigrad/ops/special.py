"""Special functions with PyTorch's names and semantics: the log-gamma function and its
derivatives (``lgamma``, ``digamma``, ``polygamma``, ``mvlgamma``), the inverse
error function (``erfinv``), the modified Bessel functions of the first kind
(``i0``, ``i1`` and their exponentially scaled ``i0e``, ``i1e``), the normal distribution
(``ndtr``, ``log_ndtr``, ``ndtri``), ``erfcx``, ``entr``, the Hurwitz ``zeta``, the
regularized incomplete gamma functions (``igamma``/``gammainc``, ``igammac``/``gammaincc``)
the Bessel functions ``bessel_j0``, ``bessel_j1``, ``bessel_y0``, ``bessel_y1`` and the
modified ``modified_bessel_k0``, ``modified_bessel_k1`` (and their ``scaled_`` forms);
``torch.special``'s aliases ``expit``, ``gammaln``, ``psi`` and ``multigammaln``;
``spherical_bessel_j0`` and the orthogonal polynomials (Chebyshev, Hermite, Laguerre,
Legendre) of ``torch.special``.

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

from ..tensor import Tensor
from . import _orthogonal_polynomials as polynomials
from . import _special_fallbacks as fallbacks
from ._dtypes import coerce_operands, float_operand
from ._primitive import Primitive, bind
from ._shape_rules import elementwise_rule
from .elementwise import _unary_public, abs, exp, isinf, log, sigmoid, sign, sin, where
from .elementwise_math import _example, _float_pair
from .registry import op

__all__ = ["lgamma", "digamma", "polygamma", "erfinv", "mvlgamma", "i0", "i0e", "i1", "i1e",
           "erfcx", "ndtr", "log_ndtr", "ndtri", "entr", "zeta", "bessel_j0", "bessel_j1",
           "igamma", "igammac", "gammainc", "gammaincc", "expit", "gammaln", "psi",
           "multigammaln", "spherical_bessel_j0", "bessel_y0", "bessel_y1", "modified_bessel_k0",
           "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
           *polynomials.KINDS]

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


# ============================================================================= special functions II
# (the NumPy-only kernels live in ``_special_fallbacks``)

def _scipy_kernel(name, fallback, fix=None):
    """An elementwise impl: CuPy's, SciPy's (then ``fix(result, *inputs)``) or ``fallback``."""
    def impl(*arrays):
        if any(hasattr(a, "__cuda_array_interface__") for a in arrays):  # CuPy
            import cupyx.scipy.special
            return getattr(cupyx.scipy.special, name)(*arrays)
        dtype = np.result_type(*arrays)
        special = _scipy_special()
        with np.errstate(all="ignore"):
            if special is None:
                return np.asarray(fallback(*arrays)).astype(dtype, copy=False)
            result = np.asarray(getattr(special, name)(*arrays))
            if fix is not None:
                result = fix(result, *arrays)
        return result.astype(dtype, copy=False)
    return impl


def _zeta_fix(result, x, q):
    # PyTorch (Cephes without the large-q expansion): NaN at q = inf unless x == 1
    return np.where((q == np.inf) & (x != 1), np.nan, result)


_SQRT_2PI = math.sqrt(2.0 * math.pi)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _entr_fallback(x):
    with np.errstate(all="ignore"):
        value = -x * np.log(x)
    return np.where(x > 0, value, np.where(x == 0, 0.0, np.where(x < 0, -np.inf, x)))


def _incomplete_gamma_fix(upper):
    def fix(result, a, x):
        # PyTorch's order of edge cases: x == 0 first, then infinite a, then infinite x
        with np.errstate(invalid="ignore"):
            result = np.where(np.isinf(x) & (a > 0) & ~np.isinf(a), float(not upper), result)
            result = np.where(np.isinf(x) & np.isnan(a), float(not upper), result)
            result = np.where(np.isinf(a) & np.isnan(x), float(upper), result)
            result = np.where((x == 0) & np.isnan(a), float(upper), result)
        return result
    return fix


_TORCH_INTEGER_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char",
                        "uint8": "Byte", "bool": "Bool"}


def _incomplete_gamma_operands(name, input, other):
    """The operands promoted; PyTorch has no integer kernel of igamma/igammac."""
    input, other = coerce_operands(input, other)
    dtype = next((v._data.dtype for v in (input, other) if isinstance(v, Tensor)), None)
    if dtype is not None and dtype.kind != "f":
        raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                  f"'{_TORCH_INTEGER_NAMES.get(dtype.name, dtype.name)}'")
    return _float_pair(input, other)


def _not_implemented(name):
    raise NotImplementedError(f"the derivative for '{name}' is not implemented.")


def _zeta_vjp(g, out, needs, x, q):
    # PyTorch: d/dq zeta(x, q) = -x zeta(x + 1, q); none for x
    if needs[0]:
        _not_implemented("zeta")
    return None, (g * -x * bind(zeta_p, x + 1.0, q) if needs[1] else None)


def _incomplete_gamma_vjp(name, sign):
    def vjp(g, out, needs, a, x):
        # PyTorch: d/dx P(a, x) = x^(a-1) e^(-x) / Gamma(a); none for a
        if needs[0]:
            _not_implemented(f"{name}: input")
        if not needs[1]:
            return None, None
        log_gamma = _math_lgamma_scalar(a) if isinstance(a, (int, float)) else lgamma(a)
        return None, sign * g * exp((a - 1.0) * log(x) - x - log_gamma)
    return vjp


def _bessel_j1_vjp(g, out, needs, x):
    zero, reciprocal = _safe_reciprocal(x)
    return (g * where(zero, 0.5, bessel_j0(x) - out * reciprocal),)


def _elementwise(name, impl, vjp, *, saves="inputs", backward_name=None):
    return Primitive(name, impl, _same, kind="elementwise", vjp=vjp, saves=saves,
                     backward_name=backward_name)


def _torch_special(name):
    """PyTorch's node name of a ``torch.special`` op: ``SpecialLogNdtrBackward0``."""
    return "Special" + "".join(part.capitalize() for part in name.split("_")) + "Backward0"


erfcx_p = _elementwise(
    "erfcx", _scipy_kernel("erfcx", fallbacks.erfcx_fallback),
    lambda g, out, needs, x: (g * (2.0 * x * out - _TWO_OVER_SQRT_PI),),
    saves="inputs and output", backward_name=_torch_special("erfcx"))
ndtr_p = _elementwise(
    "ndtr", _scipy_kernel("ndtr", fallbacks.ndtr_fallback),
    lambda g, out, needs, x: (g * exp(-0.5 * x * x) / _SQRT_2PI,))
log_ndtr_p = _elementwise(
    "log_ndtr", _scipy_kernel("log_ndtr", fallbacks.log_ndtr_fallback),
    lambda g, out, needs, x: (g / _SQRT_2PI * exp(-(out + 0.5 * x * x)),),
    saves="inputs and output", backward_name=_torch_special("log_ndtr"))
ndtri_p = _elementwise(
    "ndtri", _scipy_kernel("ndtri", fallbacks.ndtri_fallback),
    lambda g, out, needs, x: (g * _SQRT_2PI * exp(0.5 * out * out),),
    saves="output", backward_name=_torch_special("ndtri"))
entr_p = _elementwise(
    "entr", _scipy_kernel("entr", _entr_fallback),
    lambda g, out, needs, x: (-g * (1.0 + log(x)),), backward_name=_torch_special("entr"))
bessel_j0_p = _elementwise(
    "bessel_j0", _scipy_kernel("j0", lambda x: fallbacks.bessel_j_fallback(x, 0)),
    lambda g, out, needs, x: (-g * bessel_j1(x),))
bessel_j1_p = _elementwise(
    "bessel_j1", _scipy_kernel("j1", lambda x: fallbacks.bessel_j_fallback(x, 1)),
    _bessel_j1_vjp, saves="inputs and output")
bessel_y0_p = _elementwise(
    "bessel_y0", _scipy_kernel("y0", lambda x: fallbacks.bessel_y_fallback(x, 0)),
    lambda g, out, needs, x: (-g * bessel_y1(x),))
bessel_y1_p = _elementwise(
    "bessel_y1", _scipy_kernel("y1", lambda x: fallbacks.bessel_y_fallback(x, 1)),
    lambda g, out, needs, x: (g * (bessel_y0(x) - out / x),), saves="inputs and output")


def _bessel_k_kernel(order, scaled):
    name = f"k{order}" + ("e" if scaled else "")
    return _scipy_kernel(name, lambda x: fallbacks.bessel_k_fallback(x, order, scaled))


modified_bessel_k0_p = _elementwise(
    "modified_bessel_k0", _bessel_k_kernel(0, False),
    lambda g, out, needs, x: (-g * modified_bessel_k1(x),))
modified_bessel_k1_p = _elementwise(
    "modified_bessel_k1", _bessel_k_kernel(1, False),
    lambda g, out, needs, x: (-g * (modified_bessel_k0(x) + out / x),),
    saves="inputs and output")
scaled_modified_bessel_k0_p = _elementwise(
    "scaled_modified_bessel_k0", _bessel_k_kernel(0, True),
    lambda g, out, needs, x: (g * (out - scaled_modified_bessel_k1(x)),),
    saves="inputs and output")
scaled_modified_bessel_k1_p = _elementwise(
    "scaled_modified_bessel_k1", _bessel_k_kernel(1, True),
    lambda g, out, needs, x: (g * (out - scaled_modified_bessel_k0(x) - out / x),),
    saves="inputs and output")
zeta_p = _elementwise(
    "zeta", _scipy_kernel("zeta", fallbacks.zeta_fallback, fix=_zeta_fix), _zeta_vjp,
    backward_name=_torch_special("zeta"))
igamma_p = _elementwise(
    "igamma", _scipy_kernel("gammainc", fallbacks.gammainc_fallback,
                            fix=_incomplete_gamma_fix(False)),
    _incomplete_gamma_vjp("igamma", 1.0))
igammac_p = _elementwise(
    "igammac", _scipy_kernel("gammaincc", lambda a, x: fallbacks.gammainc_fallback(a, x, True),
                             fix=_incomplete_gamma_fix(True)),
    _incomplete_gamma_vjp("igammac", -1.0))

erfcx = _unary_public(erfcx_p, "The scaled complementary error function "
                      "``exp(input^2) * erfc(input)``, without overflow for large input."
                      + _example("erfcx", "ug.tensor([0.0, 30.0])", "tensor([1.0000, 0.0188])"),
                      methods=())
ndtr = _unary_public(ndtr_p, "The standard normal distribution function "
                     "``(1 + erf(input / sqrt(2))) / 2``."
                     + _example("ndtr", "ug.tensor([0.0, 1.0])", "tensor([0.5000, 0.8413])"),
                     methods=())
log_ndtr = _unary_public(log_ndtr_p, "``log(ndtr(input))``, accurate for very negative input."
                         + _example("log_ndtr", "ug.tensor([-40.0, 0.0])",
                                    "tensor([-804.6084,   -0.6931])"), methods=())
ndtri = _unary_public(ndtri_p, "The normal quantile, the inverse of :func:`ndtr` "
                      "(``-inf`` at 0, ``inf`` at 1, NaN outside [0, 1])."
                      + _example("ndtri", "ug.tensor([0.5, 0.975])", "tensor([0.0000, 1.9600])"),
                      methods=())
entr = _unary_public(entr_p, "The entropy term ``-input * log(input)``: 0 at 0, ``-inf`` below."
                     + _example("entr", "ug.tensor([0.0, 0.5, -1.0])",
                                "tensor([0.0000, 0.3466,   -inf])"), methods=())
bessel_j0 = _unary_public(bessel_j0_p, "The Bessel function of the first kind of order 0."
                          + _example("bessel_j0", "ug.tensor([0.0, 1.0])",
                                     "tensor([1.0000, 0.7652])"), methods=())
bessel_j1 = _unary_public(bessel_j1_p, "The Bessel function of the first kind of order 1."
                          + _example("bessel_j1", "ug.tensor([0.0, 1.0])",
                                     "tensor([0.0000, 0.4401])"), methods=())

bessel_y0 = _unary_public(bessel_y0_p, "The Bessel function of the second kind of order 0 "
                          "(``-inf`` at 0, NaN below)."
                          + _example("bessel_y0", "ug.tensor([1.0, 2.0])",
                                     "tensor([0.0883, 0.5104])"), methods=())
bessel_y1 = _unary_public(bessel_y1_p, "The Bessel function of the second kind of order 1 "
                          "(``-inf`` at 0, NaN below)."
                          + _example("bessel_y1", "ug.tensor([1.0, 2.0])",
                                     "tensor([-0.7812, -0.1070])"), methods=())

modified_bessel_k0 = _unary_public(
    modified_bessel_k0_p, "The modified Bessel function of the second kind of order 0 "
    "(``inf`` at 0, NaN below)." + _example("modified_bessel_k0", "ug.tensor([1.0, 2.0])",
                                            "tensor([0.4210, 0.1139])"), methods=())
modified_bessel_k1 = _unary_public(
    modified_bessel_k1_p, "The modified Bessel function of the second kind of order 1 "
    "(``inf`` at 0, NaN below)." + _example("modified_bessel_k1", "ug.tensor([1.0, 2.0])",
                                            "tensor([0.6019, 0.1399])"), methods=())
scaled_modified_bessel_k0 = _unary_public(
    scaled_modified_bessel_k0_p, "``modified_bessel_k0(input) * exp(input)``, without "
    "underflow." + _example("scaled_modified_bessel_k0", "ug.tensor([1.0, 2.0])",
                            "tensor([1.1445, 0.8416])"), methods=())
scaled_modified_bessel_k1 = _unary_public(
    scaled_modified_bessel_k1_p, "``modified_bessel_k1(input) * exp(input)``, without "
    "underflow." + _example("scaled_modified_bessel_k1", "ug.tensor([1.0, 2.0])",
                            "tensor([1.6362, 1.0335])"), methods=())


@op()
def zeta(input: Tensor | float, other: Tensor | float) -> Tensor:
    """The Hurwitz zeta function ``sum_{k >= 0} (k + other) ** -input``.

    Differentiable with respect to ``other`` only, as in PyTorch (the derivative with
    respect to ``input`` raises ``NotImplementedError``). Either argument may be a number.

    Example:
        >>> import unigrad as ug
        >>> ug.zeta(ug.tensor([2.0, 4.0]), 1.0)
        tensor([1.6449, 1.0823])
    """
    return bind(zeta_p, *_float_pair(input, other))


@op(methods=("igamma",), inplace=("igamma_",))
def igamma(input: Tensor | float, other: Tensor | float) -> Tensor:
    """The regularized lower incomplete gamma function ``P(input, other)``.

    Differentiable with respect to ``other`` only, as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> ug.igamma(ug.tensor([1.0, 2.0]), ug.tensor([1.0, 1.0]))
        tensor([0.6321, 0.2642])
    """
    return bind(igamma_p, *_incomplete_gamma_operands("igamma", input, other))


@op(methods=("igammac",), inplace=("igammac_",))
def igammac(input: Tensor | float, other: Tensor | float) -> Tensor:
    """The regularized upper incomplete gamma function ``Q(input, other) = 1 - P``.

    Differentiable with respect to ``other`` only, as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> ug.igammac(ug.tensor([1.0, 2.0]), ug.tensor([1.0, 1.0]))
        tensor([0.3679, 0.7358])
    """
    return bind(igammac_p, *_incomplete_gamma_operands("igammac", input, other))


# SciPy's and ``torch.special``'s spellings
gammainc, gammaincc = igamma, igammac
expit = sigmoid
gammaln = lgamma
psi = digamma
multigammaln = mvlgamma


@op()
def spherical_bessel_j0(input: Tensor) -> Tensor:
    """The spherical Bessel function of the first kind of order 0, ``sin(input) / input``
    (1 at 0, 0 at ``±inf``); PyTorch's series below ``|input| = 0.5``.

    Example:
        >>> import unigrad as ug
        >>> ug.spherical_bessel_j0(ug.tensor([0.0, 1.0]))
        tensor([1.0000, 0.8415])
    """
    x = float_operand(input)
    small = abs(x) < 0.5
    square = x * x
    series = 1.0
    for denominator in (156.0, 110.0, 72.0, 42.0, 20.0, 6.0):
        series = 1.0 - square / denominator * series
    safe = where(small | isinf(x), 1.0, x)
    return where(small, series, where(isinf(x), 0.0, sin(safe) / safe))


# ----------------------------------------------------------------------------- polynomials

def _polynomial_impl(kind):
    def impl(x, n):
        dtype = np.result_type(x, n)
        return polynomials.evaluate(kind, x, n).astype(dtype, copy=False)
    return impl


_POLYNOMIAL_EXAMPLES = {  # name: (x, n, printed)
    "chebyshev_polynomial_t": ("[0.5, 2.0]", 3, "tensor([-1., 26.])"),
    "chebyshev_polynomial_u": ("[0.5, 2.0]", 3, "tensor([-1., 56.])"),
    "chebyshev_polynomial_v": ("[0.5, 2.0]", 3, "tensor([-1., 41.])"),
    "chebyshev_polynomial_w": ("[0.5, 2.0]", 3, "tensor([-1., 71.])"),
    "shifted_chebyshev_polynomial_t": ("[0.25, 1.5]", 3, "tensor([ 1., 26.])"),
    "shifted_chebyshev_polynomial_u": ("[0.25, 1.5]", 3, "tensor([ 1., 56.])"),
    "shifted_chebyshev_polynomial_v": ("[0.25, 1.5]", 3, "tensor([ 1., 41.])"),
    "shifted_chebyshev_polynomial_w": ("[0.25, 1.5]", 3, "tensor([ 1., 71.])"),
    "hermite_polynomial_h": ("[0.5, 2.0]", 3, "tensor([-5., 40.])"),
    "hermite_polynomial_he": ("[0.5, 2.0]", 3, "tensor([-1.3750,  2.0000])"),
    "laguerre_polynomial_l": ("[0.5, 2.0]", 3, "tensor([-0.1458, -0.3333])"),
    "legendre_polynomial_p": ("[0.5, 2.0]", 3, "tensor([-0.4375, 17.0000])"),
}


def _polynomial_public(kind):
    prim = Primitive(kind, _polynomial_impl(kind), _same, kind="elementwise",
                     differentiable=False)

    def polynomial(input: Tensor | float, n: Tensor | int) -> Tensor:
        return bind(prim, *_float_pair(input, n))
    x, n, printed = _POLYNOMIAL_EXAMPLES[kind]
    words = kind.replace("_polynomial", "").replace("_", " ")
    polynomial.__name__ = polynomial.__qualname__ = kind
    polynomial.__doc__ = (
        f"The {words} polynomial of degree ``n`` (truncated to an integer; 0 below 0) at "
        f"``input``, as PyTorch computes it; not differentiable (PyTorch records no "
        f"derivative).\n\n    Example:\n        >>> import unigrad as ug\n"
        f"        >>> ug.{kind}(ug.tensor({x}), {n})\n        {printed}\n    ")
    return op()(polynomial)


for _kind in polynomials.KINDS:
    globals()[_kind] = _polynomial_public(_kind)
