"""NumPy-only kernels of the special functions of :mod:`unigrad.ops.special` that SciPy
would otherwise compute: ``erfcx``, ``ndtr``, ``log_ndtr``, ``ndtri``, the Hurwitz ``zeta``,
the regularized incomplete gamma functions and the Bessel functions ``J0`` and ``J1``.

Each takes and returns float64 arrays, with the edge values PyTorch (Cephes) gives; they
are checked against ``scipy.special`` in ``tests/ops/test_special_vs_torch.py``.

Example:
    >>> import numpy as np
    >>> from unigrad.ops._special_fallbacks import ndtri_fallback
    >>> print(np.round(ndtri_fallback(np.array([0.5, 0.975])), 4))
    [0.   1.96]
"""

from __future__ import annotations

import math

import numpy as np

_SQRT_HALF = math.sqrt(0.5)
_SQRT_2PI = math.sqrt(2.0 * math.pi)
_EPSILON = float(np.finfo(np.float64).eps)

_math_erfc = np.vectorize(math.erfc, otypes=[np.float64])


# ----------------------------------------------------------------------------- erfcx and ndtr

def _erfcx_asymptotic(x):
    """``exp(x^2) erfc(x)`` for ``x >= 8``: ``1 / (x sqrt(pi)) sum (-1)^k (2k-1)!! / (2x^2)^k``."""
    inverse = 1.0 / (2.0 * x * x)
    term = np.ones_like(x)
    total = term.copy()
    for k in range(1, 30):
        term = -term * (2 * k - 1) * inverse
        total = total + term
    return total / (x * math.sqrt(math.pi))


def erfcx_fallback(x):
    """The scaled complementary error function ``exp(x^2) erfc(x)``, float64."""
    x = np.asarray(x, dtype=np.float64)
    ax = np.abs(x)
    positive = np.full(x.shape, np.nan)  # erfcx(|x|)
    with np.errstate(over="ignore", invalid="ignore"):
        large = ax >= 8.0
        positive[large] = _erfcx_asymptotic(ax[large])
        moderate = ax < 8.0
        v = ax[moderate]
        positive[moderate] = np.exp(v * v) * _math_erfc(v)
        positive[ax == np.inf] = 0.0
        # erfcx(x) = 2 exp(x^2) - erfcx(-x)
        return np.where(x < 0, 2.0 * np.exp(x * x) - positive, positive)


def ndtr_fallback(x):
    """The standard normal distribution function ``erfc(-x / sqrt(2)) / 2``, float64."""
    x = np.asarray(x, dtype=np.float64)
    return 0.5 * _math_erfc(-x * _SQRT_HALF)


def log_ndtr_fallback(x):
    """``log(ndtr(x))``, through ``erfcx`` below -1 (no underflow), float64."""
    x = np.asarray(x, dtype=np.float64)
    t = x * _SQRT_HALF
    with np.errstate(divide="ignore", invalid="ignore"):
        low = np.log(erfcx_fallback(-t) / 2.0) - t * t
        high = np.log1p(-_math_erfc(t) / 2.0)
    return np.where(x < -1.0, low, high)


# Acklam's rational approximation of the normal quantile (relative error 1.2e-9)
_ACKLAM_A = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00)
_ACKLAM_B = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
             6.680131188771972e+01, -1.328068155288572e+01)
_ACKLAM_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00)
_ACKLAM_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
             3.754408661907416e+00)


def _polynomial(coefficients, x):
    total = np.zeros_like(x)
    for c in coefficients:
        total = total * x + c
    return total


def _ndtri_initial(p):
    tail = np.minimum(p, 1.0 - p)
    central = tail > 0.02425
    q = p - 0.5
    r = q * q
    middle = (_polynomial(_ACKLAM_A, r) * q) / (_polynomial(_ACKLAM_B, r) * r + 1.0)
    s = np.sqrt(-2.0 * np.log(np.where(central, 0.5, tail)))
    outer = _polynomial(_ACKLAM_C, s) / (_polynomial(_ACKLAM_D, s) * s + 1.0)
    outer = np.where(p > 0.5, -outer, outer)
    return np.where(central, middle, outer)


def ndtri_fallback(p):
    """The normal quantile (inverse of ``ndtr``): ``-inf`` at 0, ``inf`` at 1, NaN outside."""
    p = np.asarray(p, dtype=np.float64)
    result = np.full(p.shape, np.nan)
    inside = (p > 0) & (p < 1)
    v = p[inside]
    with np.errstate(all="ignore"):
        x = _ndtri_initial(v)
        upper = v > 0.5
        for _ in range(3):
            # Halley steps on the tail probability nearer 0 (exact there)
            residual = np.where(upper, (1.0 - v) - ndtr_fallback(-x), ndtr_fallback(x) - v)
            density = np.exp(-0.5 * x * x) / _SQRT_2PI
            step = residual / density
            x = x - step / (1.0 + 0.5 * x * step)
    result[inside] = x
    result[p == 0] = -np.inf
    result[p == 1] = np.inf
    return result


# ----------------------------------------------------------------------------- Hurwitz zeta

# (2k)! / B_2k, Cephes' Euler-Maclaurin coefficients
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)


def _zeta_scalar(x: float, q: float) -> float:
    """Cephes' ``zeta(x, q)`` (as PyTorch computes it, NaN comparisons included), one
    element."""
    if x == 1.0:
        return math.inf
    if x < 1.0:
        return math.nan
    if q <= 0.0:
        if q == np.floor(q):
            return math.inf
        if x != np.floor(x):
            return math.nan
    if q == math.inf or math.isnan(q) or math.isnan(x):
        return math.nan
    try:
        s = q ** -x
        a, b, i = q, 0.0, 0
        while i < 9 or a <= 9.0:
            i += 1
            a += 1.0
            b = a ** -x
            s += b
            if s != 0.0 and abs(b / s) < _EPSILON:
                return s
        w = a
        s += b * w / (x - 1.0)
        s -= 0.5 * b
        a, k = 1.0, 0.0
        for coefficient in _ZETA_A:
            a *= x + k
            b /= w
            t = a * b / coefficient
            s += t
            if s != 0.0 and abs(t / s) < _EPSILON:
                return s
            k += 1.0
            a *= x + k
            b /= w
            k += 1.0
        return s
    except (OverflowError, ZeroDivisionError):
        return math.nan


_zeta_vectorized = np.vectorize(_zeta_scalar, otypes=[np.float64])


def zeta_fallback(x, q):
    """The Hurwitz zeta function ``sum_k (k + q)^(-x)``, float64."""
    x, q = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(q, dtype=np.float64))
    return _zeta_vectorized(x, q)


# ----------------------------------------------------------------------------- incomplete gamma

def _gamma_prefactor(a: float, x: float) -> float:
    return math.exp(a * math.log(x) - x - math.lgamma(a))


def _lower_series(a: float, x: float) -> float:
    """``P(a, x)`` by its power series (``x < a + 1``)."""
    term = total = 1.0 / a
    n = a
    for _ in range(100000):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * _EPSILON:
            break
    return total * _gamma_prefactor(a, x)


def _upper_fraction(a: float, x: float) -> float:
    """``Q(a, x)`` by Lentz's continued fraction (``x >= a + 1``)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPSILON:
            break
    return h * _gamma_prefactor(a, x)


def _gammainc_scalar(a: float, x: float, upper: bool) -> float:
    # PyTorch's edge cases, in its order (a NaN fails every comparison)
    if x < 0 or a < 0:
        return math.nan
    if a == 0:
        return float(not upper) if x > 0 else math.nan
    if x == 0:
        return float(upper)
    if math.isinf(a):
        return math.nan if math.isinf(x) else float(upper)
    if math.isinf(x):
        return float(not upper)
    if math.isnan(a) or math.isnan(x):
        return math.nan
    if x < a + 1.0:
        lower = _lower_series(a, x)
        return 1.0 - lower if upper else lower
    complement = _upper_fraction(a, x)
    return complement if upper else 1.0 - complement


_gammainc_vectorized = np.vectorize(_gammainc_scalar, otypes=[np.float64])


def gammainc_fallback(a, x, upper: bool = False):
    """The regularized lower incomplete gamma function ``P(a, x)`` (``Q(a, x)`` with
    ``upper``), float64."""
    a, x = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(x, dtype=np.float64))
    return _gammainc_vectorized(a, x, upper)


# ----------------------------------------------------------------------------- Bessel J0, J1

def _bessel_j_series(x, order):
    """``J_order(x)`` (0 or 1) by its power series, for ``|x| < 5``."""
    quarter_square = x * x / 4.0
    term = np.ones_like(x) if order == 0 else x / 2.0
    total = term.copy()
    for k in range(1, 40):
        term = -term * quarter_square / (k * (k + order))
        total = total + term
    return total


def _bessel_j_miller(x, order, start=70):
    """``J_order(x)`` for ``5 <= |x| <= 25`` by Miller's backward recurrence, normalized by
    ``J0 + 2 sum J_2k = 1``."""
    following = np.zeros_like(x)
    current = np.full_like(x, 1e-30)
    norm = np.zeros_like(x)
    wanted = np.zeros_like(x)
    for k in range(start, 0, -1):  # current is J_k; compute J_{k-1}
        previous = (2.0 * k / x) * current - following
        following, current = current, previous
        if (k - 1) % 2 == 0 and k - 1 > 0:
            norm = norm + 2.0 * current
        if k - 1 == order:
            wanted = current
    norm = norm + current  # J_0
    return wanted / norm


def _hankel(x, order):
    """Hankel's asymptotic ``P``, ``Q`` and phase of order 0 or 1 (for ``x > 25``)."""
    mu = 4.0 * order * order
    p = np.ones_like(x)
    q = np.zeros_like(x)
    term = np.ones_like(x)
    for k in range(1, 40):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        if k % 2:
            q = q + (term if k % 4 == 1 else -term)
        else:
            p = p + (term if k % 4 == 0 else -term)
    return p, q, x - (order / 2.0 + 0.25) * math.pi


def _bessel_j_asymptotic(x, order):
    """Hankel's expansion of ``J_order(x)`` for ``x > 25``."""
    p, q, phase = _hankel(x, order)
    return np.sqrt(2.0 / (math.pi * x)) * (p * np.cos(phase) - q * np.sin(phase))


def bessel_j_fallback(x, order: int):
    """The Bessel function of the first kind ``J0`` or ``J1``, float64 (NaN at ±inf)."""
    x = np.asarray(x, dtype=np.float64)
    ax = np.abs(x)
    result = np.full(x.shape, np.nan)
    small = ax < 5.0
    middle = (ax >= 5.0) & (ax <= 25.0)
    large = (ax > 25.0) & np.isfinite(ax)
    result[small] = _bessel_j_series(ax[small], order)
    result[middle] = _bessel_j_miller(ax[middle], order)
    result[large] = _bessel_j_asymptotic(ax[large], order)
    if order == 1:
        result = np.where(x < 0, -result, result)
        result[x == 0] = x[x == 0]  # (signed zero)
    return result


# ----------------------------------------------------------------------------- Bessel Y0, Y1

_EULER_GAMMA = 0.5772156649015329


def _bessel_y_series(x, order):
    """``Y_order(x)`` for ``0 < x < 5`` by the ascending series (A&S 9.1.11, 9.1.13)."""
    log_half = np.log(x / 2.0)
    quarter_square = x * x / 4.0
    if order == 0:
        total = np.zeros_like(x)
        term = np.ones_like(x)
        harmonic = 0.0
        for k in range(1, 40):
            term = -term * quarter_square / (k * k)  # (-1)^k (x^2/4)^k / (k!)^2
            harmonic += 1.0 / k
            total = total - harmonic * term
        return 2.0 / math.pi * ((log_half + _EULER_GAMMA) * _bessel_j_series(x, 0) + total)
    total = np.zeros_like(x)
    term = x / 2.0  # (-1)^k (x/2)^(2k+1) / (k! (k+1)!)
    harmonic = 0.0  # H_k
    for k in range(0, 40):
        if k:
            term = -term * quarter_square / (k * (k + 1))
            harmonic += 1.0 / k
        digammas = 2.0 * -_EULER_GAMMA + harmonic + harmonic + 1.0 / (k + 1)
        total = total + digammas * term
    return (-2.0 / (math.pi * x) + 2.0 / math.pi * log_half * _bessel_j_series(x, 1)
            - total / math.pi)


def _bessel_y_neumann(x, order, start=70):
    """``Y_order(x)`` for ``5 <= x <= 25`` by Neumann's series in the ``J_k`` of Miller's
    backward recurrence: ``Y0 = 2/pi ((log(x/2) + gamma) J0 - 2 sum (-1)^k J_2k / k)``, and
    ``Y1 = -Y0'``."""
    following = np.zeros_like(x)
    current = np.full_like(x, 1e-30)
    norm = np.zeros_like(x)
    even_sum = np.zeros_like(x)  # sum_k (-1)^k J_2k / k
    odd_sum = np.zeros_like(x)  # sum_k (-1)^k (J_2k-1 - J_2k+1) / k
    first = np.zeros_like(x)
    for k in range(start, 0, -1):
        current, following = (2.0 * k / x) * current - following, current
        m = k - 1  # current is J_m
        if m == 1:
            first = current
        if m and m % 2 == 0:
            norm = norm + 2.0 * current
            even_sum = even_sum + (-1) ** (m // 2) * current / (m // 2)
        elif m % 2:
            k_up = (m + 1) // 2
            coefficient = (-1) ** k_up / k_up
            if m >= 3:
                k_down = (m - 1) // 2
                coefficient -= (-1) ** k_down / k_down
            odd_sum = odd_sum + coefficient * current
    norm = norm + current
    j0, j1 = current / norm, first / norm
    scale = np.log(x / 2.0) + _EULER_GAMMA
    if order == 0:
        return 2.0 / math.pi * (scale * j0 - 2.0 * even_sum / norm)
    return 2.0 / math.pi * (scale * j1 - j0 / x + odd_sum / norm)


def bessel_y_fallback(x, order: int):
    """The Bessel function of the second kind ``Y0`` or ``Y1``, float64 (``-inf`` at 0, NaN
    below 0 and at ``inf``)."""
    x = np.asarray(x, dtype=np.float64)
    result = np.full(x.shape, np.nan)
    small = (x > 0) & (x < 5.0)
    middle = (x >= 5.0) & (x <= 25.0)
    large = (x > 25.0) & np.isfinite(x)
    with np.errstate(over="ignore"):
        result[small] = _bessel_y_series(x[small], order)
    result[middle] = _bessel_y_neumann(x[middle], order)
    v = x[large]
    p, q, phase = _hankel(v, order)
    result[large] = np.sqrt(2.0 / (math.pi * v)) * (p * np.sin(phase) + q * np.cos(phase))
    result[x == 0] = -np.inf
    return result


# ----------------------------------------------------------------------------- Bessel K0, K1

def _bessel_k_series(x, order):
    """``K_order(x)`` for ``0 < x <= 2`` by the ascending series (A&S 9.6.13, 9.6.11)."""
    quarter_square = x * x / 4.0
    log_half = np.log(x / 2.0)
    if order == 0:
        term = np.ones_like(x)  # (x^2/4)^k / (k!)^2
        i0 = term.copy()
        total = np.zeros_like(x)
        harmonic = 0.0
        for k in range(1, 30):
            term = term * quarter_square / (k * k)
            harmonic += 1.0 / k
            i0 = i0 + term
            total = total + harmonic * term
        return -(log_half + _EULER_GAMMA) * i0 + total
    term = np.ones_like(x)  # (x^2/4)^k / (k! (k+1)!)
    i1 = x / 2.0
    total = (1.0 - 2.0 * _EULER_GAMMA) * term  # psi(1) + psi(2)
    harmonic = 0.0
    for k in range(1, 30):
        term = term * quarter_square / (k * (k + 1))
        harmonic += 1.0 / k
        i1 = i1 + term * x / 2.0
        total = total + (2.0 * (harmonic - _EULER_GAMMA) + 1.0 / (k + 1)) * term
    return 1.0 / x + i1 * log_half - x / 4.0 * total


def _bessel_k_scaled_steed(x):
    """``exp(x) K0(x)`` and ``exp(x) K1(x)`` for ``x > 2`` by Steed's continued fraction
    (Numerical Recipes' ``bessik`` at order 0)."""
    b = 2.0 * (1.0 + x)
    d = 1.0 / b
    h = delh = d
    q1, q2 = np.zeros_like(x), np.ones_like(x)
    a1 = 0.25
    q = np.full_like(x, a1)
    c = np.full_like(x, a1)
    a = -a1
    s = 1.0 + q * delh
    active = np.ones(x.shape, dtype=bool)
    for i in range(2, 200):  # (converged elements are frozen: their c would overflow)
        a -= 2.0 * (i - 1)
        c_next = -a * c / i
        q_new = (q1 - b * q2) / a
        q_next = q + c_next * q_new
        b = b + 2.0
        d_next = 1.0 / (b + a * d)
        delh_next = (b * d_next - 1.0) * delh
        step = q_next * delh_next
        c, q1, q2 = (np.where(active, new, old) for new, old in
                     ((c_next, c), (q2, q1), (q_new, q2)))
        q, d, delh = (np.where(active, new, old) for new, old in
                      ((q_next, q), (d_next, d), (delh_next, delh)))
        h = np.where(active, h + delh_next, h)
        s = np.where(active, s + step, s)
        active = active & ~(np.abs(step) < _EPSILON * np.abs(s))
        if not active.any():
            break
    k0 = np.sqrt(math.pi / (2.0 * x)) / s
    return k0, k0 * (x + 0.5 - a1 * h) / x


def bessel_k_fallback(x, order: int, scaled: bool):
    """The modified Bessel function of the second kind ``K0`` or ``K1`` (``exp(x) K`` with
    ``scaled``), float64: ``inf`` at 0, NaN below, 0 at ``inf``."""
    x = np.asarray(x, dtype=np.float64)
    result = np.full(x.shape, np.nan)
    small = (x > 0) & (x <= 2.0)
    large = (x > 2.0) & np.isfinite(x)
    v = x[small]
    with np.errstate(over="ignore"):
        series = _bessel_k_series(v, order)
        result[small] = series * np.exp(v) if scaled else series
    v = x[large]
    with np.errstate(over="ignore", invalid="ignore"):
        values = _bessel_k_scaled_steed(v)[order]
    result[large] = values if scaled else values * np.exp(-v)
    result[x == 0] = np.inf
    result[x == np.inf] = 0.0
    return result
