"""Elementwise primitives (arithmetic, unary math, comparisons) and their composites.

NumPy ufuncs are used as the kernels: CuPy arrays dispatch them to CuPy through
``__array_ufunc__``, so the same declaration serves both backends.

Example:
    >>> import unigrad as ug
    >>> x = ug.tensor([0.0, 1.0], requires_grad=True)
    >>> ug.exp(x).sum().backward()
    >>> x.grad
    tensor([1.0000, 2.7183])
"""

from __future__ import annotations

import cmath
import math

import numpy as np

from .. import backend
from ..backend import namespace_of, to_numpy_dtype
from ..tensor import PLAIN_TENSOR_TYPES, Tensor
from ._dtypes import _CONSTANTS, coerce_operands, float_constant, float_operand, true_divide_dtype
from ._primitive import PRIMITIVES, Primitive, bind, bind_first_tensor, others_need
from ._rewrites import involution, neutral_operand, operand_when_unchanged
from ._shape_rules import dtype_of, elementwise_rule, shape_of
from .registry import op

_ndarray = np.ndarray
_same = elementwise_rule()
_boolean = elementwise_rule(lambda *avals: np.bool_)


# ----------------------------------------------------------------------------- arithmetic

add_p = Primitive("add", np.add, _same, kind="elementwise", saves="nothing",
                  vjp=lambda g, out, needs, x, y: (g if needs[0] else None,
                                                   g if needs[1] else None),
                  scalar="({0} + {1})", ufunc="add", simplify=neutral_operand(0, (0, 1)),
                  complex_gradient="holomorphic")
sub_p = Primitive("sub", np.subtract, _same, kind="elementwise", saves="nothing",
                  vjp=lambda g, out, needs, x, y: (g if needs[0] else None,
                                                   -g if needs[1] else None),
                  scalar="({0} - {1})", ufunc="subtract", simplify=neutral_operand(0, (1,)),
                  complex_gradient="holomorphic")
mul_p = Primitive("mul", np.multiply, _same, kind="elementwise", saves=others_need,
                  vjp=lambda g, out, needs, x, y: (g * y if needs[0] else None,
                                                   g * x if needs[1] else None),
                  scalar="({0} * {1})", ufunc="multiply", simplify=neutral_operand(1, (0, 1)),
                  complex_gradient="holomorphic")
div_p = Primitive("div", np.true_divide, _same, kind="elementwise",
                  saves=lambda needs: (needs[1], needs[0] or needs[1]),
                  vjp=lambda g, out, needs, x, y: (g / y if needs[0] else None,
                                                   -g * x / (y * y) if needs[1] else None),
                  scalar="({0} / {1})", ufunc="true_divide", simplify=neutral_operand(1, (1,)),
                  complex_gradient="holomorphic")
neg_p = Primitive("neg", np.negative, _same, kind="elementwise", saves="nothing",
                  vjp=lambda g, out, needs, x: (-g,), scalar="(-{0})", ufunc="negative",
                  simplify=involution, complex_gradient="holomorphic")


def _pow_vjp(g, out, needs, x, y):
    gx = gy = None
    if needs[0]:
        if isinstance(y, (int, float, complex)):
            gx = g * 0 if y == 0 else g * y * x ** (y - 1)
        else:
            gx = where(y == 0, 0.0, g * y * x ** where(y == 0, 1.0, y - 1))
    if needs[1]:
        # PyTorch: g * x**y * log(x), except 0 where x == 0 and y >= 0 (log(x) is -inf at
        # x == 0 and NaN for x < 0, without NumPy's warnings)
        if isinstance(x, complex) or (not isinstance(x, (int, float)) and x.dtype.kind == "c"):
            # complex base: the principal log, 0 where x == 0 (this runs at conjugated
            # primals, so it is conj(x**y log x) as the convention asks)
            if isinstance(x, complex):
                gy = g * 0 if x == 0 else g * x ** y * cmath.log(x)
            else:
                zero = x == 0
                gy = where(zero, 0.0, g * x ** y * log(where(zero, 1.0, x)))
        elif isinstance(x, (int, float)):
            log_x = math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)
            gy = g * x ** y * log_x if x != 0 else where(y >= 0, 0.0, g * x ** y * log_x)
        else:
            positive = x > 0
            log_x = where(positive, log(where(positive, x, 1.0)),
                          where(x == 0, -np.inf, np.nan))
            gy = where((x == 0) & (y >= 0), 0.0, g * x ** y * log_x)
    return gx, gy


pow_p = Primitive("pow", np.power, _same, kind="elementwise", vjp=_pow_vjp,
                  scalar="({0} ** {1})", ufunc="power", complex_gradient="holomorphic")


def _extremum_vjp(loses):
    """maximum/minimum's vjp as PyTorch's: ties share the gradient equally, the operand that
    ``loses`` gets none, and where either is NaN (no order) both get all of it."""
    def vjp(g, out, needs, x, y):
        tie = x == y
        return (g * where(tie, 0.5, where(loses(x, y), 0.0, 1.0)) if needs[0] else None,
                g * where(tie, 0.5, where(loses(y, x), 0.0, 1.0)) if needs[1] else None)
    return vjp


maximum_p = Primitive("maximum", np.maximum, _same, kind="elementwise",
                      vjp=_extremum_vjp(lambda x, y: x < y),
                      scalar="_maximum({0}, {1})", ufunc="maximum")
minimum_p = Primitive("minimum", np.minimum, _same, kind="elementwise",
                      vjp=_extremum_vjp(lambda x, y: x > y),
                      scalar="_minimum({0}, {1})", ufunc="minimum")


def _where_impl(condition, x, y):
    return namespace_of(x if hasattr(x, "shape") else condition).where(condition, x, y)


def _where_rule(condition, x, y):
    shape = elementwise_rule()(condition, x, y)[0]
    arrays = [a for a in (x, y) if hasattr(a, "shape")]
    dtype = np.result_type(*(a.dtype for a in arrays)) if arrays else dtype_of(x)
    return shape, dtype


where_p = Primitive("where", _where_impl, _where_rule, kind="elementwise",
                    saves=lambda needs: (True, False, False),
                    vjp=lambda g, out, needs, c, x, y: (
                        None,
                        where(c, g, 0.0) if needs[1] else None,
                        where(c, 0.0, g) if needs[2] else None),
                    scalar="({1} if {0} else {2})", complex_gradient="holomorphic")


def _clip_impl(x, min=None, max=None):
    return np.clip(x, min, max)


def _clip_vjp(g, out, needs, x, min=None, max=None):
    inside = 1.0
    if min is not None:
        inside = (x >= min) * inside
    if max is not None:
        inside = (x <= max) * inside
    return (g * inside,)


def _clip_scalar(operands: list, params: dict, dtype) -> str | None:
    """``_minimum(_maximum(x, min), max)`` for number bounds (tensor bounds are not fused)."""
    from ..graph.fusion import typed_number
    expression = operands[0]
    low, high = params.get("min"), params.get("max")
    if not all(v is None or isinstance(v, (int, float)) for v in (low, high)):
        return None
    if low is not None:
        expression = f"_maximum({expression}, {typed_number(low, dtype)})"
    if high is not None:
        expression = f"_minimum({expression}, {typed_number(high, dtype)})"
    return expression


clip_p = Primitive("clip", _clip_impl, lambda x, **p: (shape_of(x), dtype_of(x)),
                   kind="elementwise", vjp=_clip_vjp, scalar=_clip_scalar,
                   backward_name="ClampBackward1")


def _cast_impl(x, dtype):
    if x.dtype.kind == "c" and np.dtype(dtype).kind != "c":
        x = x.real  # PyTorch: casting to a real dtype keeps the real part
    return x.astype(dtype, copy=False)


# What ``Tensor.detach()`` records while a graph is traced: the same values, and no gradient
# when the graph itself is differentiated (grad of a jitted call); an identity once optimized.
stop_gradient_p = Primitive("stop_gradient", lambda x: x, lambda x: (shape_of(x), dtype_of(x)),
                            differentiable=False, saves="nothing", is_view=True,
                            batch=lambda values, dims: (bind(stop_gradient_p, values[0]),
                                                        dims[0]),
                            scalar=lambda operands, params, dtype: operands[0],
                            simplify=operand_when_unchanged)

cast_p = Primitive("cast", _cast_impl, lambda x, dtype: (shape_of(x), np.dtype(dtype)),
                   kind="linear", saves="nothing", vjp=lambda g, out, needs, x, dtype: (g,),
                   backward_name="ToCopyBackward0",
                   batch=lambda values, dims, dtype: (bind(cast_p, values[0], dtype=dtype),
                                                      dims[0]),
                   scalar=lambda operands, params, dtype: operands[0],
                   simplify=operand_when_unchanged)


# ----------------------------------------------------------------------------- unary math

def _unary(name, kernel, vjp, *, saves="inputs", backward_name=None, scalar=None, ufunc=None,
           complex_gradient=None):
    return Primitive(name, kernel, _same, kind="elementwise", vjp=vjp, saves=saves,
                     backward_name=backward_name, scalar=scalar, ufunc=ufunc,
                     complex_gradient=complex_gradient)


exp_p = _unary("exp", np.exp, lambda g, out, needs, x: (g * out,), saves="output",
               scalar="np.exp({0})", ufunc="exp", complex_gradient="holomorphic")
log_p = _unary("log", np.log, lambda g, out, needs, x: (g / x,), scalar="np.log({0})",
               ufunc="log", complex_gradient="holomorphic")
log1p_p = _unary("log1p", np.log1p, lambda g, out, needs, x: (g / (x + 1.0),),
                 scalar="np.log1p({0})", ufunc="log1p", complex_gradient="holomorphic")
expm1_p = _unary("expm1", np.expm1, lambda g, out, needs, x: (g * (out + 1.0),),
                 saves="output", scalar="np.expm1({0})", ufunc="expm1",
                 complex_gradient="holomorphic")
sqrt_p = _unary("sqrt", np.sqrt, lambda g, out, needs, x: (g / (out * 2.0),), saves="output",
                scalar="np.sqrt({0})", ufunc="sqrt", complex_gradient="holomorphic")
sin_p = _unary("sin", np.sin, lambda g, out, needs, x: (g * cos(x),), scalar="np.sin({0})",
               ufunc="sin", complex_gradient="holomorphic")
cos_p = _unary("cos", np.cos, lambda g, out, needs, x: (-g * sin(x),), scalar="np.cos({0})",
               ufunc="cos", complex_gradient="holomorphic")
tan_p = _unary("tan", np.tan, lambda g, out, needs, x: (g * (out * out + 1.0),),
               saves="output", scalar="np.tan({0})", ufunc="tan", complex_gradient="holomorphic")
# g - g*out*out rather than g*(1 - out*out): array-array ops only; NumPy is about twice as
# slow per call on small arrays when one operand is a Python float
tanh_p = _unary("tanh", np.tanh, lambda g, out, needs, x: (g - g * out * out,),
                saves="output", scalar="np.tanh({0})", ufunc="tanh", complex_gradient="holomorphic")


def _sigmoid_impl(x):
    # 1/(1+e^-x) as PyTorch computes it (float16 in float32); e^-x overflows to inf only
    # where the result is 0
    if x.dtype == np.float16:
        return _sigmoid_impl(x.astype(np.float32)).astype(np.float16)
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + namespace_of(x).exp(-x))


# sigmoid is a primitive, not exp-based composite: one stable kernel instead of
# four ops, and a backward that needs only the output (tested in test_elementwise).
sigmoid_p = _unary("sigmoid", _sigmoid_impl,
                   lambda g, out, needs, x: (g * out * (1.0 - out),), saves="output",
                   scalar="_sigmoid({0})", complex_gradient="holomorphic")
def _threshold_backward_impl(g, x, threshold):
    # a product with the mask: np.where over a data-dependent mask is ~10x slower
    return g * ~(x <= threshold)


def _threshold_backward_vjp(gg, out, needs, g, x, threshold):
    """Linear in ``g``; zero (yet recorded, as PyTorch's) in ``x``: the mask is a step."""
    return (bind(threshold_backward_p, gg, x, threshold=threshold) if needs[0] else None,
            gg * 0.0 if needs[1] else None)


def _threshold_backward_scalar(operands: list, params: dict, dtype) -> str:
    """``g * 0`` where masked, as the impl's product (nan for an infinite ``g``, -0.0 for a
    negative one), else ``g``."""
    from ..graph.fusion import typed_number
    return (f"({operands[0]} * {typed_number(0, dtype)} if {operands[1]} <= "
            f"{typed_number(params['threshold'], dtype)} else {operands[0]})")


# PyTorch's threshold_backward(grad, x, threshold): ``grad`` where ``x > threshold`` (and
# where ``x`` is NaN), else 0. As a primitive of ``x`` too, a gradient computed through it
# depends on ``x`` (with a zero derivative): relu's second derivative is 0, not "does not
# require grad".
threshold_backward_p = Primitive(
    "threshold_backward", _threshold_backward_impl,
    lambda g, x, threshold: (elementwise_rule()(g, x)[0], dtype_of(g)), kind="elementwise",
    vjp=_threshold_backward_vjp, saves=lambda needs: (False, True),
    scalar=_threshold_backward_scalar)
relu_p = _unary("relu", lambda x: np.maximum(x, 0).astype(x.dtype, copy=False),
                lambda g, out, needs, x: (bind(threshold_backward_p, g, out, threshold=0.0),),
                saves="output", scalar="_maximum({0}, 0)")
def _unit(x):
    """``x / |x|`` of a complex value, 0 at 0 (the derivative direction of ``|x|``)."""
    magnitude = abs(x)
    return x / where(magnitude == 0, 1.0, magnitude)


def _abs_vjp(g, out, needs, x):
    if x.dtype.kind == "c":
        return (g * _unit(x),)
    return (g * sign(x),)


def _abs_jvp(tangents, out, x):
    t = tangents[0]
    if x.dtype.kind == "c":
        from .complex_numbers import conj, real  # complex inputs only
        return real(conj(_unit(x)) * t)
    return t * sign(x)


abs_p = Primitive("abs", np.abs, lambda x: (shape_of(x), backend.real_of(np.dtype(dtype_of(x)))),
                  kind="elementwise", vjp=_abs_vjp, jvp=_abs_jvp, scalar="abs({0})",
                  ufunc="absolute", complex_gradient="own")


def _erf_kernel(x):
    xp = namespace_of(x)
    if xp is not np:
        from cupyx.scipy.special import erf as cupy_erf
        return cupy_erf(x)
    try:
        from scipy.special import erf as scipy_erf
    except ImportError:
        return _math_erf(x).astype(x.dtype, copy=False)
    return scipy_erf(x).astype(x.dtype, copy=False)


_math_erf = np.vectorize(math.erf, otypes=[np.float64])

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
erf_p = _unary("erf", _erf_kernel,
               lambda g, out, needs, x: (g * exp(-(x * x)) * _TWO_OVER_SQRT_PI,))


def _zero_grad(g, out, needs, *inputs):
    return (g * 0.0,) + (None,) * (len(inputs) - 1)


# scalar: numba's np.sign(-0.0) is -0.0, NumPy's 0.0; adding 0 gives 0.0 and keeps the rest
sign_p = _unary("sign", np.sign, _zero_grad, saves="nothing", scalar="(np.sign({0}) + 0)",
                ufunc="sign")
floor_p = _unary("floor", np.floor, _zero_grad, saves="nothing", scalar="np.floor({0})",
                 ufunc="floor")
ceil_p = _unary("ceil", np.ceil, _zero_grad, saves="nothing", scalar="np.ceil({0})",
                ufunc="ceil")
round_p = _unary("round", np.round, _zero_grad, saves="nothing")


def _remainder_vjp(g, out, needs, x, y):
    return (g if needs[0] else None, -g * floor(x / y) if needs[1] else None)


remainder_p = Primitive("remainder", np.remainder, _same, kind="elementwise",
                        vjp=_remainder_vjp, ufunc="remainder")
# PyTorch: d/dother = -trunc(input / other)
fmod_p = Primitive("fmod", np.fmod, _same, kind="elementwise", ufunc="fmod",
                   vjp=lambda g, out, needs, x, y: (g if needs[0] else None,
                                                    -g * trunc(x / y) if needs[1] else None))
# piecewise constant: a zero gradient (PyTorch's outputs require grad like floor's)
floordiv_p = Primitive("floordiv", np.floor_divide, _same, kind="elementwise", saves="nothing",
                       vjp=lambda g, out, needs, x, y: (g * 0.0 if needs[0] else None,
                                                        g * 0.0 if needs[1] else None),
                       ufunc="floor_divide")

# ----------------------------------------------------------------------------- comparisons


def _predicate(name: str, kernel, *, scalar: str | None = None,
               ufunc: str | None = None) -> Primitive:
    """A non-differentiable elementwise primitive with a boolean result."""
    return Primitive(name, kernel, _boolean, kind="elementwise", differentiable=False,
                     scalar=scalar, ufunc=ufunc)


eq_p = _predicate("eq", np.equal, scalar="({0} == {1})", ufunc="equal")
ne_p = _predicate("ne", np.not_equal, scalar="({0} != {1})", ufunc="not_equal")
lt_p = _predicate("lt", np.less, scalar="({0} < {1})", ufunc="less")
le_p = _predicate("le", np.less_equal, scalar="({0} <= {1})", ufunc="less_equal")
gt_p = _predicate("gt", np.greater, scalar="({0} > {1})", ufunc="greater")
ge_p = _predicate("ge", np.greater_equal, scalar="({0} >= {1})", ufunc="greater_equal")
logical_and_p = _predicate("logical_and", np.logical_and, scalar="(bool({0}) and bool({1}))",
                           ufunc="logical_and")
logical_or_p = _predicate("logical_or", np.logical_or, scalar="(bool({0}) or bool({1}))",
                          ufunc="logical_or")
logical_xor_p = _predicate("logical_xor", np.logical_xor, scalar="(bool({0}) != bool({1}))",
                           ufunc="logical_xor")
logical_not_p = _predicate("logical_not", np.logical_not, scalar="(not {0})",
                           ufunc="logical_not")
isnan_p = _predicate("isnan", np.isnan, scalar="np.isnan({0})", ufunc="isnan")
isinf_p = _predicate("isinf", np.isinf, scalar="np.isinf({0})", ufunc="isinf")
isfinite_p = _predicate("isfinite", np.isfinite, scalar="np.isfinite({0})", ufunc="isfinite")


# ============================================================================= public functions

def _binary(prim):
    def op(input, other):
        return bind(prim, *coerce_operands(input, other))
    return op


def _bind_unary(prim, input):
    """``bind(prim, input)`` through the single-Tensor fast path when it applies."""
    if type(input) in PLAIN_TENSOR_TYPES:
        return bind_first_tensor(prim, input)
    return bind(prim, input)


def _same_float_tensors(input, other) -> bool:
    """Two Tensors of one floating dtype: nothing to promote (the common case)."""
    return type(input) in PLAIN_TENSOR_TYPES and type(other) in PLAIN_TENSOR_TYPES and \
        input._data.dtype is other._data.dtype and input._data.dtype.kind == "f"


def _constant_for(data, value: float):
    """``value`` as a cached 0-d array of ``data``'s float dtype (None if not a float array)."""
    dtype = data.dtype
    if dtype.kind != "f" or type(data) is not _ndarray:
        return None
    constant = _CONSTANTS.get((value, dtype))
    return float_constant(value, dtype) if constant is None else constant


def _check_alpha(input, other, alpha) -> None:
    """PyTorch refuses a floating ``alpha`` when both operands are integral."""
    if isinstance(alpha, float) and all(
            isinstance(x, (bool, int)) or (isinstance(x, Tensor) and x._data.dtype.kind in "biu")
            for x in (input, other)):
        raise RuntimeError(f"For integral input tensors, argument alpha must not be a floating "
                           f"point number (got alpha={alpha}).")


@op(methods=("add",), inplace=("add_",))
def add(input, other, *, alpha=None):
    """``input + alpha * other`` with broadcasting.

    Example:
        >>> import unigrad as ug
        >>> ug.add(ug.tensor([1.0, 2.0]), 1.0)
        tensor([2., 3.])
    """
    if alpha is not None:
        _check_alpha(input, other, alpha)
        other = mul(other, alpha)
    if type(other) is float and type(input) in PLAIN_TENSOR_TYPES:
        constant = _constant_for(input._data, other)
        if constant is not None:
            return bind_first_tensor(add_p, input, constant)
    if _same_float_tensors(input, other):
        return bind(add_p, input, other)
    return bind(add_p, *coerce_operands(input, other))


@op(methods=("sub", "subtract"), inplace=("sub_",))
def sub(input, other, *, alpha=None):
    """``input - alpha * other`` with broadcasting.

    Example:
        >>> import unigrad as ug
        >>> ug.sub(ug.tensor([3.0, 5.0]), 1.0)
        tensor([2., 4.])
        >>> ug.sub(ug.tensor([3.0, 5.0]), ug.tensor([1.0, 2.0]), alpha=2)
        tensor([1., 1.])
    """
    if alpha is not None:
        _check_alpha(input, other, alpha)
        other = mul(other, alpha)
    if type(other) is float and type(input) in PLAIN_TENSOR_TYPES:
        constant = _constant_for(input._data, other)
        if constant is not None:
            return bind_first_tensor(sub_p, input, constant)
    if _same_float_tensors(input, other):
        return bind(sub_p, input, other)
    return bind(sub_p, *coerce_operands(input, other))


@op(methods=("mul", "multiply"), inplace=("mul_",))
def mul(input, other):
    """Elementwise product with broadcasting.

    Example:
        >>> import unigrad as ug
        >>> ug.mul(ug.tensor([1.0, 2.0]), ug.tensor([[3.0], [4.0]])).shape
        (2, 2)
    """
    if type(other) is float and type(input) in PLAIN_TENSOR_TYPES:
        constant = _constant_for(input._data, other)
        if constant is not None:
            return bind_first_tensor(mul_p, input, constant)
    if _same_float_tensors(input, other):
        return bind(mul_p, input, other)
    return bind(mul_p, *coerce_operands(input, other))


@op(methods=("div", "true_divide", "divide"), inplace=("div_",))
def div(input, other, *, rounding_mode=None):
    """True division (integers give the default float dtype); ``rounding_mode`` 'floor'/'trunc'.

    Example:
        >>> import unigrad as ug
        >>> ug.div(ug.tensor([1, 3]), 2)
        tensor([0.5000, 1.5000])
        >>> ug.div(ug.tensor([-7.0, 7.0]), 2, rounding_mode="floor")
        tensor([-4.,  3.])
        >>> ug.div(ug.tensor([-7, 7]), 2, rounding_mode="trunc")
        tensor([-3,  3])
    """
    if rounding_mode == "floor":
        return floor_divide(input, other)
    if rounding_mode == "trunc":
        if _integer_operands(input, other):  # stays integer, as PyTorch's
            return mul(floor_divide(abs(input), abs(other)), mul(sign(input), sign(other)))
        return trunc(div(input, other))
    if rounding_mode is not None:
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{rounding_mode}'")
    if type(other) is float and type(input) in PLAIN_TENSOR_TYPES:
        constant = _constant_for(input._data, other)
        if constant is not None:
            return bind_first_tensor(div_p, input, constant)
    if _same_float_tensors(input, other):
        return bind(div_p, input, other)
    return bind(div_p, *true_divide_dtype(input, other))


def _integer_operands(input, other) -> bool:
    """Whether both operands are integer tensors or Python ints (not bool)."""
    def integer(value):
        if isinstance(value, Tensor):
            return value._data.dtype.kind in "iu"
        return isinstance(value, int) and not isinstance(value, bool)
    return integer(input) and integer(other)


true_divide = divide = div
multiply = mul
subtract = sub


@op(methods=("trunc", "fix"), inplace=("trunc_", "fix_"))
def trunc(input):
    """Round towards zero (zero gradient); ``fix`` is the same function.

    Example:
        >>> import unigrad as ug
        >>> ug.trunc(ug.tensor([-1.5, 1.5]))
        tensor([-1.,  1.])
    """
    return where(input >= 0, floor(input), ceil(input))


@op(methods=("neg", "negative"), inplace=("neg_", "negative_"))
def neg(input):
    """``-input``.

    Example:
        >>> import unigrad as ug
        >>> ug.neg(ug.tensor([1.0, -2.0]))
        tensor([-1.,  2.])
    """
    return _bind_unary(neg_p, input)


negative = neg


def _named(result, name: str, *operands):
    """``result`` shown as PyTorch's node ``name`` over ``operands`` when it is recorded
    (:func:`unigrad.autograd.node.present_as`)."""
    if not isinstance(result, Tensor) or result._grad_fn is None:
        return result
    from ..autograd.node import present_as  # (autograd imports this module)
    return present_as(result, name, *operands)


@op(methods=("pow",), inplace=("pow_",))
def pow(input, exponent):
    """``input ** exponent`` with broadcasting.

    Example:
        >>> import unigrad as ug
        >>> ug.pow(ug.tensor([2.0, 3.0]), 2)
        tensor([4., 9.])
    """
    power = bind(pow_p, *coerce_operands(input, exponent, names=("input", "exponent")))
    if isinstance(exponent, Tensor):
        return power
    return _named(power, "PowBackward0", input)  # PyTorch: a scalar exponent, one operand


@op(methods=("maximum",), inplace=("maximum_",))
def maximum(input, other):
    """Elementwise maximum; a tie sends half the gradient to each side.

    Example:
        >>> import unigrad as ug
        >>> ug.maximum(ug.tensor([1.0, 4.0]), ug.tensor([3.0, 2.0]))
        tensor([3., 4.])
    """
    return bind(maximum_p, *coerce_operands(input, other))


@op(methods=("minimum",), inplace=("minimum_",))
def minimum(input, other):
    """Elementwise minimum; a tie sends half the gradient to each side.

    Example:
        >>> import unigrad as ug
        >>> ug.minimum(ug.tensor([1.0, 4.0]), ug.tensor([3.0, 2.0]))
        tensor([1., 2.])
    """
    return bind(minimum_p, *coerce_operands(input, other))


def where(condition, input, other):
    """``input`` where ``condition`` holds, else ``other``.

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([-1.0, 2.0])
        >>> ug.where(x > 0, x, 0.0)
        tensor([0., 2.])
    """
    mask = condition._data if isinstance(condition, Tensor) else condition
    kind = getattr(getattr(mask, "dtype", None), "kind", "b")
    if kind != "b":
        from ._dtypes import torch_dtype_name
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {torch_dtype_name(mask.dtype)}")
    if isinstance(condition, Tensor) or isinstance(input, Tensor) or isinstance(other, Tensor):
        input, other = coerce_operands(input, other)
    return bind(where_p, condition, input, other)


@op(methods=("clip", "clamp"), inplace=("clamp_", "clip_"))
def clip(input, min=None, max=None):
    """Clamp values into ``[min, max]``; the gradient flows where the input is inside.

    Example:
        >>> import unigrad as ug
        >>> ug.clip(ug.tensor([-2.0, 0.5, 3.0]), -1.0, 1.0)
        tensor([-1.0000,  0.5000,  1.0000])
    """
    if min is None and max is None:
        raise RuntimeError("clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(input, Tensor) and input._data.dtype.kind == "c":
        raise NotImplementedError("clamp is not supported for complex types")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        result = input
        if min is not None:
            result = where(result < min, min, result)
        if max is not None:
            result = where(result > max, max, result)
        return result
    if isinstance(input, Tensor) and input._data.dtype.kind != "f" and (
            isinstance(min, float) or isinstance(max, float)):
        input = float_operand(input)
    return bind(clip_p, input, min=min, max=max)


clamp = clip


@op(methods=("astype",))
def cast(input, dtype):
    """``input`` converted to ``dtype`` (differentiable between float dtypes).

    Example:
        >>> import unigrad as ug
        >>> ug.cast(ug.tensor([1.5, 2.0]), ug.int64)
        tensor([1, 2])
    """
    dtype = to_numpy_dtype(dtype)
    if input.dtype == dtype if not isinstance(input, Tensor) else input._data.dtype == dtype:
        return input
    return bind(cast_p, input, dtype=dtype)


@op(methods=("remainder",), inplace=("remainder_",))
def remainder(input, other):
    """Python-style modulus (sign of the divisor).

    Example:
        >>> import unigrad as ug
        >>> ug.remainder(ug.tensor([-3, 3]), 2)
        tensor([1, 1])
    """
    input, other = coerce_operands(input, other)
    _check_integer_divisor(other)
    return bind(remainder_p, input, other)


def _check_integer_divisor(other) -> None:
    """PyTorch's error for an integer division by zero (on concrete values)."""
    data = other._data if isinstance(other, Tensor) else other
    if type(data) in (int, _ndarray) and np.asarray(data).dtype.kind in "iu" and \
            not np.all(data):
        raise RuntimeError("ZeroDivisionError")



@op(methods=("fmod",), inplace=("fmod_",))
def fmod(input, other):
    """C-style remainder (sign of the dividend), as ``torch.fmod``.

    Example:
        >>> import unigrad as ug
        >>> ug.fmod(ug.tensor([-3.0, 3.0]), 2.0)
        tensor([-1.,  1.])
    """
    input, other = coerce_operands(input, other)
    _check_integer_divisor(other)
    return bind(fmod_p, input, other)


@op(methods=("floor_divide",))
def floor_divide(input, other):
    """Floor division (its gradient is zero, as floor's).

    Example:
        >>> import unigrad as ug
        >>> ug.floor_divide(ug.tensor([-3, 3]), 2)
        tensor([-2,  1])
    """
    input, other = coerce_operands(input, other)
    if isinstance(input, Tensor) and input._data.dtype.kind in "iu":
        _check_integer_divisor(other)
    return bind(floordiv_p, input, other)


def _unary_public(prim, doc, *, methods: tuple, inplace: tuple = ()):
    """The public function of a unary floating primitive (integers compute as floats)."""
    def unary(input):
        if type(input) in PLAIN_TENSOR_TYPES and input._data.dtype.kind == "f":
            return bind_first_tensor(prim, input)
        return bind(prim, float_operand(input))
    unary.__name__ = unary.__qualname__ = prim.name
    unary.__doc__ = doc
    return op(methods=methods, inplace=inplace)(unary)


exp = _unary_public(exp_p, """Elementwise ``e ** input``.

    Example:
        >>> import unigrad as ug
        >>> ug.exp(ug.tensor([0.0, 1.0]))
        tensor([1.0000, 2.7183])
    """, methods=("exp",), inplace=("exp_",))
log = _unary_public(log_p, """Natural logarithm.

    Example:
        >>> import unigrad as ug
        >>> ug.log(ug.tensor([1.0, 2.0]))
        tensor([0.0000, 0.6931])
    """, methods=("log",), inplace=("log_",))
log1p = _unary_public(log1p_p, """``log(1 + input)``, accurate near zero.

    Example:
        >>> import unigrad as ug
        >>> ug.log1p(ug.tensor([0.0, 1e-8]))
        tensor([0.0000e+00, 1.0000e-08])
    """, methods=("log1p",), inplace=("log1p_",))
expm1 = _unary_public(expm1_p, """``exp(input) - 1``, accurate near zero.

    Example:
        >>> import unigrad as ug
        >>> ug.expm1(ug.tensor([0.0, 1.0]))
        tensor([0.0000, 1.7183])
    """, methods=("expm1",), inplace=("expm1_",))
sqrt = _unary_public(sqrt_p, """Square root.

    Example:
        >>> import unigrad as ug
        >>> ug.sqrt(ug.tensor([4.0, 9.0]))
        tensor([2., 3.])
    """, methods=("sqrt",), inplace=("sqrt_",))
sin = _unary_public(sin_p, """Sine.

    Example:
        >>> import unigrad as ug
        >>> ug.sin(ug.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8415])
    """, methods=("sin",), inplace=("sin_",))
cos = _unary_public(cos_p, """Cosine.

    Example:
        >>> import unigrad as ug
        >>> ug.cos(ug.tensor([0.0, 1.0]))
        tensor([1.0000, 0.5403])
    """, methods=("cos",), inplace=("cos_",))
tan = _unary_public(tan_p, """Tangent.

    Example:
        >>> import unigrad as ug
        >>> ug.tan(ug.tensor([0.0, 1.0]))
        tensor([0.0000, 1.5574])
    """, methods=("tan",), inplace=("tan_",))
tanh = _unary_public(tanh_p, """Hyperbolic tangent.

    Example:
        >>> import unigrad as ug
        >>> ug.tanh(ug.tensor([0.0, 1.0]))
        tensor([0.0000, 0.7616])
    """, methods=("tanh",), inplace=("tanh_",))
sigmoid = _unary_public(sigmoid_p, """Logistic sigmoid ``1 / (1 + exp(-input))``, stable.

    Example:
        >>> import unigrad as ug
        >>> ug.sigmoid(ug.tensor([0.0, 2.0]))
        tensor([0.5000, 0.8808])
    """, methods=("sigmoid",), inplace=("sigmoid_",))
erf = _unary_public(erf_p, """The error function.

    Example:
        >>> import unigrad as ug
        >>> ug.erf(ug.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8427])
    """, methods=("erf",), inplace=("erf_",))


@op(methods=("relu",), inplace=("relu_",))
def relu(input):
    """``max(input, 0)``; the gradient at 0 is 0 as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> ug.relu(ug.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """
    return _bind_unary(relu_p, input)


@op(methods=("abs",), inplace=("abs_",))
def abs(input):
    """Absolute value; gradient ``sign(input)`` (0 at 0).

    Example:
        >>> import unigrad as ug
        >>> ug.abs(ug.tensor([-1.5, 2.0]))
        tensor([1.5000, 2.0000])
    """
    _refuse_kinds("abs", (input,), "b")
    return _bind_unary(abs_p, input)


absolute = abs


@op(methods=("sign",))
def sign(input):
    """-1, 0 or 1 (zero gradient).

    Example:
        >>> import unigrad as ug
        >>> ug.sign(ug.tensor([-2.0, 0.0, 3.0]))
        tensor([-1.,  0.,  1.])
    """
    return _bind_unary(sign_p, input)


@op(methods=("floor",), inplace=("floor_",))
def floor(input):
    """Round down (zero gradient).

    Example:
        >>> import unigrad as ug
        >>> ug.floor(ug.tensor([-1.5, 1.5]))
        tensor([-2.,  1.])
    """
    return _bind_unary(floor_p, input)


@op(methods=("ceil",), inplace=("ceil_",))
def ceil(input):
    """Round up (zero gradient).

    Example:
        >>> import unigrad as ug
        >>> ug.ceil(ug.tensor([-1.5, 1.5]))
        tensor([-1.,  2.])
    """
    return _bind_unary(ceil_p, input)


@op(methods=("round",), inplace=("round_",))
def round(input, *, decimals: int = 0):
    """Round half to even to ``decimals`` decimal places (negative: to tens, hundreds...);
    zero gradient. As PyTorch, ``round(x * 10 ** decimals) / 10 ** decimals`` in the input's
    dtype, and integers accept no ``decimals``.

    Example:
        >>> import unigrad as ug
        >>> ug.round(ug.tensor([0.5, 1.5, 2.7]))
        tensor([0., 2., 3.])
        >>> ug.round(ug.tensor([1.2345, 2.5]), decimals=2)
        tensor([1.2300, 2.5000])
        >>> ug.round(ug.tensor([1234.5, 25.0]), decimals=-1)
        tensor([1230.,   20.])
    """
    if not isinstance(decimals, (int, np.integer)) or isinstance(decimals, bool):
        raise TypeError(f"round(): argument 'decimals' must be int, not "
                        f"{type(decimals).__name__}")
    if decimals == 0:
        return _bind_unary(round_p, input)
    if isinstance(input, Tensor) and input._data.dtype.kind != "f":
        from ._dtypes import torch_dtype_name
        raise NotImplementedError(f'"round_cpu" not implemented for '
                                  f"'{torch_dtype_name(input._data.dtype)}'")
    if decimals > 0:
        scale = 10.0 ** decimals
        return _bind_unary(round_p, input * scale) / scale
    scale = 10.0 ** -decimals
    return _bind_unary(round_p, input / scale) * scale


# ----------------------------------------------------------------------------- composites

@op(methods=("rsqrt",), inplace=("rsqrt_",))
def rsqrt(input):
    """``1 / sqrt(input)``.

    Example:
        >>> import unigrad as ug
        >>> ug.rsqrt(ug.tensor([4.0, 16.0]))
        tensor([0.5000, 0.2500])
    """
    return 1.0 / sqrt(input)


@op(methods=("reciprocal",), inplace=("reciprocal_",))
def reciprocal(input):
    """``1 / input``.

    Example:
        >>> import unigrad as ug
        >>> ug.reciprocal(ug.tensor([2.0, 4.0]))
        tensor([0.5000, 0.2500])
    """
    return div(1.0, float_operand(input))


@op(methods=("square",), inplace=("square_",))
def square(input):
    """``input * input``.

    Example:
        >>> import unigrad as ug
        >>> ug.square(ug.tensor([-2.0, 3.0]))
        tensor([4., 9.])
    """
    return mul(input, input)


def silu(input):
    """``input * sigmoid(input)`` (also called swish).

    Example:
        >>> import unigrad as ug
        >>> ug.silu(ug.tensor([0.0, 1.0]))
        tensor([0.0000, 0.7311])
    """
    input = float_operand(input)
    return _named(input * sigmoid(input), "SiluBackward0", input)


def gelu(input, approximate: str = "none"):
    """Gaussian error linear unit; ``approximate='tanh'`` for the tanh formula.

    Example:
        >>> import unigrad as ug
        >>> ug.gelu(ug.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8413])
    """
    input = float_operand(input)
    if approximate == "tanh":
        inner = (input + input * input * input * 0.044715) * math.sqrt(2.0 / math.pi)
        return _named(input * 0.5 * (tanh(inner) + 1.0), "GeluBackward0", input)
    if approximate != "none":
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    return _named(input * 0.5 * (erf(input * (1.0 / math.sqrt(2.0))) + 1.0), "GeluBackward0",
                  input)


def softplus(input, beta: float = 1.0, threshold: float = 20.0):
    """``log(1 + exp(beta * input)) / beta``, linear above ``threshold`` as in PyTorch.

    Built on the ``logsigmoid`` primitive (``softplus(x) = -logsigmoid(-x)``), so
    its derivatives are exact at 0, where a relu/abs formula has kinks.

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor(0.0, requires_grad=True)
        >>> (slope,) = ug.autograd.grad(ug.softplus(x), x)
        >>> slope
        tensor(0.5000)
    """
    from .nn_activations import logsigmoid
    input = float_operand(input)
    scaled = input * beta if beta != 1.0 else input
    stable = -logsigmoid(-scaled)
    if beta != 1.0:
        stable = stable / beta
    return _named(where(scaled > threshold, input, stable), "SoftplusBackward0", input)


def logaddexp(input, other):
    """``log(exp(input) + exp(other))`` without overflow.

    Example:
        >>> import unigrad as ug
        >>> ug.logaddexp(ug.tensor([0.0, 1000.0]), ug.tensor([0.0, 1000.0]))
        tensor([6.9315e-01, 1.0007e+03])
    """
    input, other = coerce_operands(float_operand(input), float_operand(other))
    if isinstance(input, Tensor) and input._data.dtype.kind == "c":
        # complex: shift by the larger real part (held constant), then log(e^a + e^b)
        # PyTorch's form: the operand with the larger real part plus log1p(exp(difference))
        from .complex_numbers import real
        first = real(input) >= real(other)
        big, small = where(first, input, other), where(first, other, input)
        return big + log1p(exp(small - big))
    big = maximum(input, other)
    return big + log1p(exp(-abs(input - other)))


@op(methods=("lerp",), inplace=("lerp_",))
def lerp(input, end, weight):
    """``input + weight * (end - input)``.

    Example:
        >>> import unigrad as ug
        >>> ug.lerp(ug.tensor([0.0, 10.0]), ug.tensor([10.0, 20.0]), 0.5)
        tensor([ 5., 15.])
    """
    from ._dtypes import torch_dtype_name
    if isinstance(input, Tensor) and input._data.dtype.kind not in "fc":
        kernel = "lerp_kernel_tensor" if isinstance(weight, Tensor) else "lerp_kernel_scalar"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{torch_dtype_name(input._data.dtype)}'")
    for name, value in (("end", end), ("weight", weight)):
        if isinstance(value, Tensor) and isinstance(input, Tensor) and \
                value._data.dtype != input._data.dtype:
            raise RuntimeError(f"expected dtype {torch_dtype_name(input._data.dtype).lower()} "
                               f"for `{name}` but got dtype "
                               f"{torch_dtype_name(value._data.dtype).lower()}")
    return input + (end - input) * weight


# what each comparison's docstring example prints (see _comparison)
_COMPARISON_EXAMPLES = {
    "eq": "tensor([False,  True, False])",
    "ne": "tensor([ True, False,  True])",
    "lt": "tensor([ True, False, False])",
    "le": "tensor([ True,  True, False])",
    "gt": "tensor([False, False,  True])",
    "ge": "tensor([False,  True,  True])",
    "logical_and": "tensor([ True, False, False])",
    "logical_or": "tensor([ True,  True, False])",
    "logical_xor": "tensor([False,  True, False])",
}


def _refuse_kinds(name: str, operands, kinds: str) -> None:
    """PyTorch's NotImplementedError for a kernel without these dtype kinds ("c": complex)."""
    for operand in operands:
        if isinstance(operand, Tensor) and operand._data.dtype.kind in kinds:
            from ._dtypes import torch_dtype_name
            raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                      f"'{torch_dtype_name(operand._data.dtype)}'")


def _comparison(name):
    prim = PRIMITIVES[name]

    def comparison(input, other):
        return bind(prim, *coerce_operands(input, other))

    def ordering(input, other):
        operands = coerce_operands(input, other)
        _refuse_kinds(name, operands, "c")  # complex numbers have no order
        return bind(prim, *operands)
    if name in ("lt", "le", "gt", "ge"):
        comparison = ordering
    comparison.__name__ = name
    if name.startswith("logical_"):
        call = f"ug.{name}(ug.tensor([True, True, False]), ug.tensor([True, False, False]))"
    else:
        call = f"ug.{name}(ug.tensor([0.0, 2.0, 3.0]), 2.0)"
    comparison.__doc__ = (f"Elementwise ``{name}`` (boolean result, no gradient).\n\n"
                          f"Example:\n"
                          f"    >>> import unigrad as ug\n"
                          f"    >>> {call}\n"
                          f"    {_COMPARISON_EXAMPLES[name]}\n")
    return op(methods=(name,))(comparison)


eq = _comparison("eq")
ne = _comparison("ne")
lt = _comparison("lt")
le = _comparison("le")
gt = _comparison("gt")
ge = _comparison("ge")
logical_and = _comparison("logical_and")
logical_or = _comparison("logical_or")
logical_xor = _comparison("logical_xor")
greater, greater_equal, less, less_equal, equal, not_equal = gt, ge, lt, le, eq, ne


@op(methods=("logical_not",))
def logical_not(input):
    """Elementwise not (boolean result).

    Example:
        >>> import unigrad as ug
        >>> ug.logical_not(ug.tensor([True, False]))
        tensor([False,  True])
    """
    return bind(logical_not_p, input)


@op(methods=("isnan",))
def isnan(input):
    """Elementwise test for NaN (boolean result).

    Example:
        >>> import unigrad as ug
        >>> ug.isnan(ug.tensor([1.0, float("nan")]))
        tensor([False,  True])
    """
    return bind(isnan_p, input)


@op(methods=("isinf",))
def isinf(input):
    """Elementwise test for positive or negative infinity (boolean result).

    Example:
        >>> import unigrad as ug
        >>> ug.isinf(ug.tensor([1.0, float("inf"), float("nan")]))
        tensor([False,  True, False])
    """
    return bind(isinf_p, input)


@op(methods=("isfinite",))
def isfinite(input):
    """Elementwise test for finite values, not inf or NaN (boolean result).

    Example:
        >>> import unigrad as ug
        >>> ug.isfinite(ug.tensor([1.0, float("inf"), float("nan")]))
        tensor([ True, False, False])
    """
    return bind(isfinite_p, input)

