"""Elementwise math beyond the arithmetic core: inverse trigonometric and hyperbolic
functions, logarithms and exponentials in other bases, two-argument functions
(``atan2``, ``hypot``, ``fmax``...) and composites following PyTorch's conventions.

Each primitive is one declaration (see :mod:`unigrad.ops._primitive`); vjp rules
are written with unigrad ops, so they are differentiable to any order.

Example:
    >>> import unigrad as ug
    >>> x = ug.tensor([0.0, 0.5], requires_grad=True)
    >>> ug.asin(x).sum().backward()
    >>> x.grad
    tensor([1.0000, 1.1547])
"""

from __future__ import annotations

import builtins
import math

import numpy as np

from ..autograd.node import present_as
from ..tensor import Tensor
from ._dtypes import coerce_operands, float_operand
from ._primitive import Primitive, bind
from ._shape_rules import elementwise_rule
from .elementwise import (
    _unary_public,
    _unit,
    abs,
    cast,
    clip,
    exp,
    isfinite,
    isinf,
    isnan,
    log,
    log1p,
    logaddexp,
    sign,
    sin,
    sqrt,
    trunc,
    where,
)
from .registry import op

__all__ = ["acos", "asin", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log2", "log10",
           "exp2", "erfc", "atan2", "hypot", "arccos", "arcsin", "arctan", "arcsinh",
           "arccosh", "arctanh", "arctan2", "logit", "xlogy", "xlog1py", "sinc", "deg2rad",
           "rad2deg", "frac", "copysign", "heaviside", "fmax", "fmin", "float_power",
           "logaddexp2", "clamp_min", "clamp_max", "nan_to_num", "signbit", "sgn", "addcmul",
           "addcdiv", "isclose"]

_same = elementwise_rule()
_boolean = elementwise_rule(lambda *avals: np.bool_)
_LN2 = math.log(2.0)
_LN10 = math.log(10.0)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _unary(name, kernel, vjp, *, saves="inputs", ufunc=None, complex_gradient=None):
    scalar = f"np.{ufunc}({{0}})" if ufunc else None
    return Primitive(name, kernel, _same, kind="elementwise", vjp=vjp, saves=saves,
                     scalar=scalar, ufunc=ufunc, complex_gradient=complex_gradient)


# ----------------------------------------------------------------------------- primitives

acos_p = _unary("acos", np.arccos, lambda g, out, needs, x: (-g / sqrt(1.0 - x * x),),
                ufunc="arccos", complex_gradient="holomorphic")
asin_p = _unary("asin", np.arcsin, lambda g, out, needs, x: (g / sqrt(1.0 - x * x),),
                ufunc="arcsin", complex_gradient="holomorphic")
atan_p = _unary("atan", np.arctan, lambda g, out, needs, x: (g / (x * x + 1.0),),
                ufunc="arctan", complex_gradient="holomorphic")
sinh_p = _unary("sinh", np.sinh, lambda g, out, needs, x: (g * cosh(x),), ufunc="sinh",
                complex_gradient="holomorphic")
cosh_p = _unary("cosh", np.cosh, lambda g, out, needs, x: (g * sinh(x),), ufunc="cosh",
                complex_gradient="holomorphic")
asinh_p = _unary("asinh", np.arcsinh, lambda g, out, needs, x: (g / sqrt(x * x + 1.0),),
                 ufunc="arcsinh", complex_gradient="holomorphic")
acosh_p = _unary("acosh", np.arccosh,
                 lambda g, out, needs, x: (g / sqrt((x - 1.0) * (x + 1.0)),), ufunc="arccosh",
                 complex_gradient="holomorphic")
atanh_p = _unary("atanh", np.arctanh, lambda g, out, needs, x: (g / (1.0 - x * x),),
                 ufunc="arctanh",
                 complex_gradient="holomorphic")
log2_p = _unary("log2", np.log2, lambda g, out, needs, x: (g / (x * _LN2),), ufunc="log2",
                complex_gradient="holomorphic")
log10_p = _unary("log10", np.log10, lambda g, out, needs, x: (g / (x * _LN10),),
                 ufunc="log10", complex_gradient="holomorphic")
exp2_p = _unary("exp2", np.exp2, lambda g, out, needs, x: (g * out * _LN2,), saves="output",
                ufunc="exp2", complex_gradient="holomorphic")


_math_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _erfc_impl(x):
    if type(x) is not np.ndarray:  # CuPy
        from cupyx.scipy.special import erfc as cupy_erfc
        return cupy_erfc(x)
    try:
        from scipy.special import erfc as scipy_erfc
    except ImportError:
        return _math_erfc(x).astype(x.dtype, copy=False)
    return scipy_erfc(x).astype(x.dtype, copy=False)


erfc_p = Primitive("erfc", _erfc_impl, _same, kind="elementwise",
                   vjp=lambda g, out, needs, x: (-g * exp(-(x * x)) * _TWO_OVER_SQRT_PI,))


def _atan2_vjp(g, out, needs, y, x):
    # PyTorch: a zero gradient at (0, 0)
    denominator = y * y + x * x
    zero = denominator == 0
    safe = where(zero, 1.0, denominator)
    return (where(zero, 0.0, g * x / safe) if needs[0] else None,
            where(zero, 0.0, -g * y / safe) if needs[1] else None)


atan2_p = Primitive("atan2", np.arctan2, _same, kind="elementwise", vjp=_atan2_vjp,
                    scalar="np.arctan2({0}, {1})", ufunc="arctan2")

# PyTorch's rule ``g * x / out``: NaN at (0, 0), as in PyTorch
hypot_p = Primitive("hypot", np.hypot, _same, kind="elementwise", saves="inputs and output",
                    vjp=lambda g, out, needs, x, y: (g * x / out if needs[0] else None,
                                                     g * y / out if needs[1] else None),
                    scalar="np.hypot({0}, {1})", ufunc="hypot")


def _fextremum_vjp(keeps_first):
    # PyTorch: the gradient goes to ``input`` where it is selected (ties included)
    def vjp(g, out, needs, x, y):
        first = keeps_first(x, y) | isnan(y)
        return (where(first, g, 0.0) if needs[0] else None,
                where(first, 0.0, g) if needs[1] else None)
    return vjp


fmax_p = Primitive("fmax", np.fmax, _same, kind="elementwise",
                   vjp=_fextremum_vjp(lambda x, y: x >= y), ufunc="fmax")
fmin_p = Primitive("fmin", np.fmin, _same, kind="elementwise",
                   vjp=_fextremum_vjp(lambda x, y: x <= y), ufunc="fmin")


def _logit_impl(x, eps=None):
    if eps is not None:
        x = np.clip(x, eps, 1.0 - eps)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(x / (1.0 - x)).astype(x.dtype, copy=False)


def _logit_vjp(g, out, needs, x, eps=None):
    # PyTorch: NaN outside [0, 1] without eps, 0 outside [eps, 1 - eps] with it
    product = x * (1.0 - x)
    if eps is None:
        return (where((x < 0) | (x > 1), log(product), g / product),)  # log: NaN there
    return (where((x < eps) | (x > 1.0 - eps), 0.0, g / product),)


logit_p = Primitive("logit", _logit_impl, lambda x, **p: _same(x), kind="elementwise",
                    vjp=_logit_vjp)


def _xlog_impl(function):
    def impl(x, y):
        with np.errstate(divide="ignore", invalid="ignore"):
            result = np.where((x == 0) & ~np.isnan(y), 0.0, x * function(y))
        return result.astype(np.result_type(x, y), copy=False)
    return impl


def _xlogy_vjp(g, out, needs, x, y):
    # PyTorch: d/dx = log(y), 0 where x == 0 and y <= 0; d/dy = x / y
    gx = gy = None
    if needs[0]:
        gx = g * log(where((x == 0) & (y <= 0), 1.0, y))
    if needs[1]:
        gy = g * x / y
    return gx, gy


def _xlog1py_vjp(g, out, needs, x, y):
    gx = gy = None
    if needs[0]:
        gx = g * log1p(where((x == 0) & (y <= -1), 0.0, y))
    if needs[1]:
        gy = g * x / (y + 1.0)
    return gx, gy


xlogy_p = Primitive("xlogy", _xlog_impl(np.log), _same, kind="elementwise", vjp=_xlogy_vjp)
xlog1py_p = Primitive("xlog1py", _xlog_impl(np.log1p), _same, kind="elementwise",
                      vjp=_xlog1py_vjp)


def _copysign_vjp(g, out, needs, x, y):
    # PyTorch: ``g * out / x``, 0 where x == 0 (NaN at infinite x); no gradient to ``other``
    return (where(x == 0, 0.0, g * out / where(x == 0, 1.0, x)) if needs[0] else None,
            g * 0.0 if needs[1] else None)


copysign_p = Primitive("copysign", np.copysign, _same, kind="elementwise",
                       saves="inputs and output", vjp=_copysign_vjp,
                       scalar="np.copysign({0}, {1})", ufunc="copysign")
signbit_p = Primitive("signbit", np.signbit, _boolean, kind="elementwise",
                      differentiable=False, scalar="np.signbit({0})", ufunc="signbit")
heaviside_p = Primitive("heaviside", np.heaviside, _same, kind="elementwise",
                        differentiable=False, ufunc="heaviside")


# ============================================================================= public functions

def _example(name: str, args: str, printed: str) -> str:
    return f"""

    Example:
        >>> import unigrad as ug
        >>> ug.{name}({args})
        {printed}
    """


acos = _unary_public(acos_p, "Inverse cosine (NaN outside [-1, 1])." + _example(
    "acos", "ug.tensor([1.0, 0.0])", "tensor([0.0000, 1.5708])"),
    methods=("acos", "arccos"), inplace=("acos_", "arccos_"))
asin = _unary_public(asin_p, "Inverse sine (NaN outside [-1, 1])." + _example(
    "asin", "ug.tensor([0.0, 1.0])", "tensor([0.0000, 1.5708])"),
    methods=("asin", "arcsin"), inplace=("asin_", "arcsin_"))
atan = _unary_public(atan_p, "Inverse tangent." + _example(
    "atan", "ug.tensor([0.0, 1.0])", "tensor([0.0000, 0.7854])"),
    methods=("atan", "arctan"), inplace=("atan_", "arctan_"))
sinh = _unary_public(sinh_p, "Hyperbolic sine." + _example(
    "sinh", "ug.tensor([0.0, 1.0])", "tensor([0.0000, 1.1752])"),
    methods=("sinh",), inplace=("sinh_",))
cosh = _unary_public(cosh_p, "Hyperbolic cosine." + _example(
    "cosh", "ug.tensor([0.0, 1.0])", "tensor([1.0000, 1.5431])"),
    methods=("cosh",), inplace=("cosh_",))
asinh = _unary_public(asinh_p, "Inverse hyperbolic sine." + _example(
    "asinh", "ug.tensor([0.0, 1.0])", "tensor([0.0000, 0.8814])"),
    methods=("asinh", "arcsinh"), inplace=("asinh_", "arcsinh_"))
acosh = _unary_public(acosh_p, "Inverse hyperbolic cosine (NaN below 1)." + _example(
    "acosh", "ug.tensor([1.0, 2.0])", "tensor([0.0000, 1.3170])"),
    methods=("acosh", "arccosh"), inplace=("acosh_", "arccosh_"))
atanh = _unary_public(atanh_p, "Inverse hyperbolic tangent (NaN outside [-1, 1])." + _example(
    "atanh", "ug.tensor([0.0, 0.5])", "tensor([0.0000, 0.5493])"),
    methods=("atanh", "arctanh"), inplace=("atanh_", "arctanh_"))
log2 = _unary_public(log2_p, "Base-2 logarithm." + _example(
    "log2", "ug.tensor([1.0, 8.0])", "tensor([0., 3.])"),
    methods=("log2",), inplace=("log2_",))
log10 = _unary_public(log10_p, "Base-10 logarithm." + _example(
    "log10", "ug.tensor([1.0, 10.0])", "tensor([0., 1.])"),
    methods=("log10",), inplace=("log10_",))
exp2 = _unary_public(exp2_p, "``2 ** input``." + _example(
    "exp2", "ug.tensor([0.0, 3.0])", "tensor([1., 8.])"),
    methods=("exp2",), inplace=("exp2_",))
erfc = _unary_public(erfc_p, "The complementary error function ``1 - erf(input)``." + _example(
    "erfc", "ug.tensor([0.0, 1.0])", "tensor([1.0000, 0.1573])"),
    methods=("erfc",), inplace=("erfc_",))

arccos, arcsin, arctan = acos, asin, atan
arcsinh, arccosh, arctanh = asinh, acosh, atanh


def _float_pair(input, other):
    """Operands promoted together, then to the default float dtype if integral."""
    input, other = coerce_operands(input, other)
    for value in (input, other):
        if isinstance(value, Tensor):
            if value._data.dtype.kind != "f":
                return coerce_operands(float_operand(input) if isinstance(input, Tensor)
                                       else float(input),
                                       float_operand(other) if isinstance(other, Tensor)
                                       else float(other))
            break
    else:
        return float_operand(input), float_operand(other)
    return input, other


@op(methods=("atan2", "arctan2"), inplace=("atan2_", "arctan2_"))
def atan2(input, other):
    """The angle of the point ``(other, input)``: ``atan(input / other)`` in the right quadrant.

    Example:
        >>> import unigrad as ug
        >>> ug.atan2(ug.tensor([1.0, 1.0]), ug.tensor([1.0, -1.0]))
        tensor([0.7854, 2.3562])
    """
    return bind(atan2_p, *_float_pair(input, other))


arctan2 = atan2


@op(methods=("hypot",), inplace=("hypot_",))
def hypot(input, other):
    """``sqrt(input ** 2 + other ** 2)`` without overflow.

    Example:
        >>> import unigrad as ug
        >>> ug.hypot(ug.tensor([3.0]), ug.tensor([4.0]))
        tensor([5.])
    """
    return bind(hypot_p, *_float_pair(input, other))


@op(methods=("fmax",))
def fmax(input, other):
    """Elementwise maximum ignoring NaN (NaN only where both are NaN).

    Example:
        >>> import unigrad as ug
        >>> ug.fmax(ug.tensor([1.0, float("nan")]), ug.tensor([float("nan"), 2.0]))
        tensor([1., 2.])
    """
    return bind(fmax_p, *coerce_operands(input, other))


@op(methods=("fmin",))
def fmin(input, other):
    """Elementwise minimum ignoring NaN (NaN only where both are NaN).

    Example:
        >>> import unigrad as ug
        >>> ug.fmin(ug.tensor([1.0, float("nan")]), ug.tensor([float("nan"), 2.0]))
        tensor([1., 2.])
    """
    return bind(fmin_p, *coerce_operands(input, other))


@op(methods=("signbit",))
def signbit(input):
    """Whether the sign bit is set (true for -0.0), a bool tensor.

    Example:
        >>> import unigrad as ug
        >>> ug.signbit(ug.tensor([-1.0, -0.0, 2.0]))
        tensor([ True,  True, False])
    """
    return bind(signbit_p, input)


@op(methods=("heaviside",), inplace=("heaviside_",))
def heaviside(input, values):
    """0 for negative ``input``, 1 for positive, ``values`` where it is zero (no gradient).

    Example:
        >>> import unigrad as ug
        >>> ug.heaviside(ug.tensor([-1.0, 0.0, 2.0]), ug.tensor(0.5))
        tensor([0.0000, 0.5000, 1.0000])
    """
    return bind(heaviside_p, *coerce_operands(input, values))


# ----------------------------------------------------------------------------- composites

@op(methods=("logit",), inplace=("logit_",))
def logit(input, eps=None):
    """``log(p / (1 - p))``; with ``eps`` the input is clamped to ``[eps, 1 - eps]`` first.

    Example:
        >>> import unigrad as ug
        >>> ug.logit(ug.tensor([0.5, 0.75]))
        tensor([0.0000, 1.0986])
    """
    return bind(logit_p, float_operand(input), eps=None if eps is None else float(eps))


@op(methods=("xlogy",), inplace=("xlogy_",))
def xlogy(input, other):
    """``input * log(other)``, 0 where ``input`` is 0 (unless ``other`` is NaN).

    Example:
        >>> import unigrad as ug
        >>> ug.xlogy(ug.tensor([0.0, 2.0]), ug.tensor([0.0, 1.0]))
        tensor([0., 0.])
    """
    return bind(xlogy_p, *_float_pair(input, other))


def xlog1py(input, other):
    """``input * log1p(other)``, 0 where ``input`` is 0 (unless ``other`` is NaN).

    Example:
        >>> import unigrad as ug
        >>> ug.xlog1py(ug.tensor([0.0, 2.0]), ug.tensor([-1.0, 0.0]))
        tensor([0., 0.])
    """
    return bind(xlog1py_p, *_float_pair(input, other))


@op(methods=("sinc",), inplace=("sinc_",))
def sinc(input):
    """The normalized sinc ``sin(pi x) / (pi x)``, 1 at 0.

    Example:
        >>> import unigrad as ug
        >>> ug.sinc(ug.tensor([0.0, 0.5]))
        tensor([1.0000, 0.6366])
    """
    input = float_operand(input)
    zero = input == 0
    scaled = where(zero, 1.0, input) * math.pi
    return where(zero, 1.0, sin(scaled) / scaled)


@op(methods=("deg2rad",), inplace=("deg2rad_",))
def deg2rad(input):
    """Degrees to radians.

    Example:
        >>> import unigrad as ug
        >>> ug.deg2rad(ug.tensor([180.0]))
        tensor([3.1416])
    """
    return float_operand(input) * (math.pi / 180.0)


@op(methods=("rad2deg",), inplace=("rad2deg_",))
def rad2deg(input):
    """Radians to degrees.

    Example:
        >>> import unigrad as ug
        >>> ug.rad2deg(ug.tensor([3.141592653589793]))
        tensor([180.])
    """
    return float_operand(input) * (180.0 / math.pi)


@op(methods=("frac",), inplace=("frac_",))
def frac(input):
    """The fractional part ``input - trunc(input)`` (sign of the input; gradient 1).

    Example:
        >>> import unigrad as ug
        >>> ug.frac(ug.tensor([1.25, -1.25]))
        tensor([ 0.2500, -0.2500])
    """
    return input - trunc(input)


@op(methods=("copysign",), inplace=("copysign_",))
def copysign(input, other):
    """``|input|`` with the sign of ``other`` (-0.0 counts as negative); gradient to ``input``.

    Example:
        >>> import unigrad as ug
        >>> ug.copysign(ug.tensor([1.0, -2.0]), ug.tensor([-0.0, 3.0]))
        tensor([-1.,  2.])
    """
    return bind(copysign_p, *_float_pair(input, other))


@op(methods=("float_power",))
def float_power(input, exponent):
    """``input ** exponent`` computed in float64.

    Example:
        >>> import unigrad as ug
        >>> ug.float_power(ug.tensor([2, 3]), 2)
        tensor([4., 9.], dtype=unigrad.float64)
    """
    from .elementwise import pow
    complex_case = builtins.any(
        isinstance(value, builtins.complex) or (isinstance(value, Tensor) and
                                                value._data.dtype.kind == "c")
        for value in (input, exponent))
    wide = np.complex128 if complex_case else np.float64  # PyTorch: double or complex double
    scalar = builtins.complex if complex_case else float
    input = cast(input, wide) if isinstance(input, Tensor) else scalar(input)
    if isinstance(exponent, Tensor):
        exponent = cast(exponent, wide)
    elif not isinstance(input, Tensor):
        raise TypeError("float_power expects at least one Tensor argument")
    else:
        exponent = scalar(exponent)
    if not isinstance(input, Tensor):
        from .creation import tensor
        input = tensor(input, dtype=wide)
    return pow(input, exponent)


def logaddexp2(input, other):
    """``log2(2 ** input + 2 ** other)`` without overflow.

    Example:
        >>> import unigrad as ug
        >>> ug.logaddexp2(ug.tensor([0.0, 3.0]), ug.tensor([0.0, 3.0]))
        tensor([1., 4.])
    """
    input, other = _float_pair(input, other)
    general = logaddexp(input * _LN2, other * _LN2) * (1.0 / _LN2)
    return where(isinf(input) & (input == other), input, general)  # -inf, -inf: -inf


@op(methods=("clamp_min",), inplace=("clamp_min_",))
def clamp_min(input, min):
    """``max(input, min)`` (gradient where the input is at or above ``min``).

    Example:
        >>> import unigrad as ug
        >>> ug.clamp_min(ug.tensor([-1.0, 2.0]), 0.0)
        tensor([0., 2.])
    """
    return present_as(clip(input, min=min), "ClampMinBackward0", input)


@op(methods=("clamp_max",), inplace=("clamp_max_",))
def clamp_max(input, max):
    """``min(input, max)`` (gradient where the input is at or below ``max``).

    Example:
        >>> import unigrad as ug
        >>> ug.clamp_max(ug.tensor([-1.0, 2.0]), 0.0)
        tensor([-1.,  0.])
    """
    return present_as(clip(input, max=max), "ClampMaxBackward0", input)


@op(methods=("nan_to_num",), inplace=("nan_to_num_",))
def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced (by default by 0 and the dtype's largest and lowest values).

    Example:
        >>> import unigrad as ug
        >>> ug.nan_to_num(ug.tensor([float("nan"), float("inf"), 1.0]), posinf=9.0)
        tensor([0., 9., 1.])
    """
    dtype = input._data.dtype if isinstance(input, Tensor) else np.asarray(input).dtype
    if dtype.kind != "f":
        return input
    info = np.finfo(dtype)
    posinf = float(info.max) if posinf is None else posinf
    neginf = float(info.min) if neginf is None else neginf
    result = where(isnan(input), nan, input)
    infinite = isinf(input)  # (no inf constants: fused graph code cannot spell them)
    result = where(infinite & (input > 0), posinf, result)
    return where(infinite & (input < 0), neginf, result)


@op(methods=("sgn",), inplace=("sgn_",))
def sgn(input):
    """The sign of real input (``sign``, zero gradient); ``input / |input|`` of complex
    input (0 at 0).

    Example:
        >>> import unigrad as ug
        >>> ug.sgn(ug.tensor([-2.0, 0.0, 3.0]))
        tensor([-1.,  0.,  1.])
        >>> ug.sgn(ug.tensor([3 + 4j, 0j]))
        tensor([0.6000+0.8000j, 0.0000+0.0000j])
    """
    if isinstance(input, Tensor) and input._data.dtype.kind == "c":
        return _unit(input)
    return where(isnan(input), 0.0, sign(input))


@op(methods=("addcmul",))
def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2``.

    Example:
        >>> import unigrad as ug
        >>> ug.addcmul(ug.tensor([1.0]), ug.tensor([2.0]), ug.tensor([3.0]), value=0.5)
        tensor([4.])
    """
    product = tensor1 * tensor2
    return input + (product * value if value != 1 else product)


@op(methods=("addcdiv",))
def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2``.

    Example:
        >>> import unigrad as ug
        >>> ug.addcdiv(ug.tensor([1.0]), ug.tensor([2.0]), ug.tensor([4.0]), value=2)
        tensor([2.])
    """
    quotient = tensor1 / tensor2
    return input + (quotient * value if value != 1 else quotient)


@op(methods=("isclose",))
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``|input - other| <= atol + rtol * |other|`` elementwise (equal infinities are close).

    Example:
        >>> import unigrad as ug
        >>> ug.isclose(ug.tensor([1.0, 2.0]), ug.tensor([1.0, 2.1]))
        tensor([ True, False])
    """
    input, other = coerce_operands(input, other)
    input = input.detach() if isinstance(input, Tensor) else input
    other = other.detach() if isinstance(other, Tensor) else other
    finite = isfinite(input) & isfinite(other)  # infinities are close only when equal
    close = (input == other) | (finite & (abs(input - other) <= atol + rtol * abs(other)))
    if equal_nan:
        close = close | (isnan(input) & isnan(other))
    return close

