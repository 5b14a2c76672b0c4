"""Op-table specs for ``unigrad/ops/elementwise.py`` (arithmetic, unary math, comparisons)."""

from __future__ import annotations

import math

import numpy as np

import unigrad as ug
from unigrad.ops._primitive import bind
from unigrad.ops.elementwise import threshold_backward_p

from .spec import OpSpec, Sample, away_from_zero, distinct, normal, positive

# ----------------------------------------------------------------------------- value generators


def symmetric(low: float, high: float):
    """Values with magnitude in [low, high] and a random sign."""
    def generate(rng: np.random.Generator, *shape) -> np.ndarray:
        return rng.uniform(low, high, size=shape) * rng.choice([-1.0, 1.0], size=shape)
    return generate


def uniform(low: float, high: float):
    def generate(rng: np.random.Generator, *shape) -> np.ndarray:
        return rng.uniform(low, high, size=shape)
    return generate


def between_integers(rng: np.random.Generator, *shape) -> np.ndarray:
    """Values at least 0.1 away from integers and from halves (floor, ceil and round are flat)."""
    return rng.integers(-3, 3, size=shape) + rng.uniform(0.1, 0.4, size=shape)


def small_integers(rng: np.random.Generator, *shape) -> np.ndarray:
    """Integer-valued floats in [-2, 2]: comparisons see ties."""
    return rng.integers(-2, 3, size=shape).astype(np.float64)


def spread(rng: np.random.Generator, *shape) -> np.ndarray:
    """Values on both sides of 0.5 and at least 0.05 away from it (softplus's threshold)."""
    grid = np.array([-1.5, -0.3, 0.2, 0.9, 1.6])
    return rng.choice(grid, size=shape) + rng.uniform(-0.05, 0.05, size=shape)


def booleans(rng: np.random.Generator, *shape) -> np.ndarray:
    return rng.random(size=shape) < 0.5


def with_specials(rng: np.random.Generator, *shape) -> np.ndarray:
    """Normal values with nan, inf and -inf sprinkled in."""
    values = rng.standard_normal(size=shape)
    choices = np.array([np.nan, np.inf, -np.inf, 1.0])
    mask = rng.random(size=shape) < 0.4
    values[mask] = rng.choice(choices, size=int(mask.sum()))
    return values


def quotient_away_from_integers(rng: np.random.Generator, divisor: np.ndarray,
                                shape: tuple) -> np.ndarray:
    """A dividend whose quotient by ``divisor`` is at least 0.1 away from an integer."""
    quotient = rng.integers(-3, 3, size=shape) + rng.uniform(0.1, 0.9, size=shape)
    return quotient * divisor


# ----------------------------------------------------------------------------- sample builders


def unary_samples(generate=normal, integer_input: bool = False):
    """Matrix, 0-d, zero-size and transposed (non-contiguous) inputs."""
    def samples(rng: np.random.Generator) -> list:
        result = [Sample((generate(rng, 3, 4),), label="matrix"),
                  Sample((generate(rng),), label="scalar"),
                  Sample((generate(rng, 0, 3),), label="empty"),
                  Sample((generate(rng, 4, 3).T,), label="transposed")]
        if integer_input:
            result.append(Sample((rng.integers(-2, 3, size=(2, 3)),), label="int64"))
        return result
    return samples


def binary_samples(first=normal, second=normal, python_scalar: float | None = 0.7,
                   scalar_first: bool = False):
    """Same shapes, (3,1)x(1,4) broadcasting, 0-d, zero-size, transposed and Python scalars."""
    def samples(rng: np.random.Generator) -> list:
        result = [Sample((first(rng, 3, 4), second(rng, 3, 4)), label="same"),
                  Sample((first(rng, 3, 1), second(rng, 1, 4)), label="broadcast"),
                  Sample((first(rng), second(rng, 2, 3)), label="scalar_tensor"),
                  Sample((first(rng, 0, 3), second(rng, 1, 3)), label="empty"),
                  Sample((first(rng, 4, 3).T, second(rng, 3, 4)), label="transposed")]
        if python_scalar is not None:
            result.append(Sample((first(rng, 2, 3), python_scalar), label="python_scalar"))
            if scalar_first:
                result.append(Sample((python_scalar, second(rng, 2, 3)), label="scalar_first"))
        return result
    return samples


def extremum_samples(rng: np.random.Generator) -> list:
    """Distinct values with no ties between the two operands (offsets keep them apart)."""
    return [Sample((distinct(rng, 3, 4), distinct(rng, 3, 4) + 0.05), label="same"),
            Sample((distinct(rng, 3, 1), distinct(rng, 1, 4) + 0.05), label="broadcast"),
            Sample((distinct(rng), distinct(rng, 2, 3) + 0.05), label="scalar_tensor"),
            Sample((distinct(rng, 0, 3), distinct(rng, 1, 3)), label="empty"),
            Sample((distinct(rng, 4, 3).T, distinct(rng, 3, 4) + 0.05), label="transposed"),
            Sample((distinct(rng, 2, 3), 0.1), label="python_scalar")]


def threshold_backward(g, x):
    """PyTorch's relu backward kernel: ``g`` where ``x > 0`` (the relu output) else 0."""
    return bind(threshold_backward_p, g, x, threshold=0.0)


def threshold_backward_reference(g, x):
    return np.where(x <= 0.0, 0.0, g) + 0.0 * x  # broadcast like the op


def where_samples(rng: np.random.Generator) -> list:
    return [Sample((booleans(rng, 3, 4), normal(rng, 3, 4), normal(rng, 3, 4)), label="same"),
            Sample((booleans(rng, 3, 1), normal(rng, 1, 4), normal(rng, 3, 4)),
                   label="broadcast"),
            Sample((booleans(rng), normal(rng, 2, 3), normal(rng)), label="scalar_tensor"),
            Sample((booleans(rng, 0, 3), normal(rng, 0, 3), normal(rng, 1, 3)), label="empty"),
            Sample((booleans(rng, 2, 3), normal(rng, 2, 3), 0.0), label="python_scalar")]


def clip_values(rng: np.random.Generator, *shape) -> np.ndarray:
    """Values at least 0.08 away from the bounds used by the clip samples."""
    grid = np.array([-1.5, -0.9, -0.1, 0.2, 0.8, 1.4])
    return rng.choice(grid, size=shape) + rng.uniform(-0.02, 0.02, size=shape)


def clip_samples(rng: np.random.Generator) -> list:
    return [Sample((clip_values(rng, 3, 4), -0.5, 0.5), label="both"),
            Sample((clip_values(rng, 3, 4),), {"min": -0.5}, label="min_only"),
            Sample((clip_values(rng, 3, 4),), {"max": 0.5}, label="max_only"),
            Sample((clip_values(rng),), {"min": -0.5, "max": 0.5}, label="scalar"),
            Sample((clip_values(rng, 0, 3), -0.5, 0.5), label="empty"),
            Sample((clip_values(rng, 4, 3).T, -0.5, 0.5), label="transposed")]


def clip_tensor_samples(rng: np.random.Generator) -> list:
    """Tensor bounds in [-0.7, -0.3] and [0.3, 0.7]: the clip values stay 0.08 away."""
    def lower(*shape):
        return rng.uniform(-0.7, -0.3, size=shape)

    def upper(*shape):
        return rng.uniform(0.3, 0.7, size=shape)
    return [Sample((clip_values(rng, 3, 4), lower(3, 4), upper(3, 4)), label="same"),
            Sample((clip_values(rng, 3, 4), lower(3, 1), upper(1, 4)), label="broadcast"),
            Sample((clip_values(rng, 2, 3), lower()), {"max": None}, label="min_only")]


def remainder_samples(rng: np.random.Generator) -> list:
    divisor = away_from_zero(rng, 3, 4)
    row_divisor = away_from_zero(rng, 1, 4)
    return [Sample((quotient_away_from_integers(rng, divisor, (3, 4)), divisor), label="same"),
            Sample((quotient_away_from_integers(rng, row_divisor, (3, 4)), row_divisor),
                   label="broadcast"),
            Sample((quotient_away_from_integers(rng, 0.7, (2, 3)), 0.7), label="python_scalar"),
            Sample((normal(rng, 0, 3), away_from_zero(rng, 1, 3)), label="empty")]


def comparison_samples(rng: np.random.Generator) -> list:
    return [Sample((small_integers(rng, 3, 4), small_integers(rng, 3, 4)), label="same"),
            Sample((small_integers(rng, 3, 1), small_integers(rng, 1, 4)), label="broadcast"),
            Sample((small_integers(rng), small_integers(rng, 2, 3)), label="scalar_tensor"),
            Sample((small_integers(rng, 0, 3), small_integers(rng, 1, 3)), label="empty"),
            Sample((small_integers(rng, 2, 3), 1.0), label="python_scalar")]


def logical_samples(rng: np.random.Generator) -> list:
    return [Sample((booleans(rng, 3, 4), booleans(rng, 3, 4)), label="same"),
            Sample((booleans(rng, 3, 1), booleans(rng, 1, 4)), label="broadcast"),
            Sample((booleans(rng, 0, 3), booleans(rng, 1, 3)), label="empty")]


def lerp_samples(rng: np.random.Generator) -> list:
    return [Sample((normal(rng, 3, 4), normal(rng, 3, 4), normal(rng, 3, 4)), label="same"),
            Sample((normal(rng, 3, 1), normal(rng, 1, 4), 0.3), label="python_weight")]


# ----------------------------------------------------------------------------- references

erf_reference = np.vectorize(math.erf, otypes=[np.float64])


def sigmoid_reference(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))



def gelu_reference(x: np.ndarray, approximate: str = "none") -> np.ndarray:
    if approximate == "tanh":
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1.0 + erf_reference(x / math.sqrt(2.0)))


def softplus_reference(x: np.ndarray, beta: float = 1.0, threshold: float = 20.0) -> np.ndarray:
    return np.where(x * beta > threshold, x, np.log1p(np.exp(beta * x)) / beta)


def clip_reference(x, min=None, max=None):
    return np.clip(x, min, max)


def trunc_divide_reference(x, y):
    return np.trunc(x / y)


def unary(name: str, op, ref, generate=normal, primitives: tuple = (), **options) -> OpSpec:
    integer_input = options.pop("integer_input", False)
    return OpSpec(name, op, ref, unary_samples(generate, integer_input), primitives, **options)


def binary(name: str, op, ref, first=normal, second=normal, primitives: tuple = (),
           python_scalar: float | None = 0.7, scalar_first: bool = False, **options) -> OpSpec:
    return OpSpec(name, op, ref, binary_samples(first, second, python_scalar, scalar_first),
                  primitives, **options)


def comparison(name: str, op, ref) -> OpSpec:
    return OpSpec(name, op, ref, comparison_samples, grad=False)


OPS = [
    # arithmetic
    binary("add", ug.add, np.add, scalar_first=True),
    OpSpec("add_alpha", lambda x, y: ug.add(x, y, alpha=2.0), lambda x, y: x + 2.0 * y,
           binary_samples()),
    OpSpec("add_int64", ug.add, np.add,
           lambda rng: [Sample((rng.integers(-3, 3, size=(2, 3)), 1.5), label="int_float"),
                        Sample((rng.integers(-3, 3, size=(2, 3)), normal(rng, 2, 3)),
                               label="int_tensor")]),
    binary("sub", ug.sub, np.subtract, scalar_first=True),
    binary("mul", ug.mul, np.multiply, scalar_first=True),
    binary("div", ug.div, np.true_divide, second=away_from_zero, scalar_first=True),
    OpSpec("div_floor", lambda x, y: ug.div(x, y, rounding_mode="floor"), np.floor_divide,
           remainder_samples),
    OpSpec("div_trunc", lambda x, y: ug.div(x, y, rounding_mode="trunc"), trunc_divide_reference,
           remainder_samples),
    unary("neg", ug.neg, np.negative),
    binary("pow", ug.pow, np.power, first=positive, python_scalar=2.5),
    OpSpec("pow_scalar_exponent", ug.pow, np.power,
           lambda rng: [Sample((normal(rng, 3, 4), 3), label="int_cube"),
                        Sample((normal(rng, 3, 4), 2.0), label="square"),
                        Sample((positive(rng, 3, 4), -1.5), label="negative"),
                        Sample((normal(rng, 2, 3), 0.0), label="zero"),
                        Sample((positive(rng), 0.5), label="scalar")]),
    OpSpec("pow_scalar_base", ug.pow, np.power,
           lambda rng: [Sample((2.0, normal(rng, 3, 4)), label="two"),
                        Sample((0.5, normal(rng)), label="scalar")]),
    OpSpec("maximum", ug.maximum, np.maximum, extremum_samples),
    OpSpec("minimum", ug.minimum, np.minimum, extremum_samples),
    OpSpec("where", ug.where, np.where, where_samples),
    OpSpec("clip", ug.clip, clip_reference, clip_samples),
    OpSpec("clamp_tensor_bounds", ug.clamp, clip_reference, clip_tensor_samples),
    OpSpec("remainder", ug.remainder, np.remainder, remainder_samples),
    OpSpec("fmod", ug.fmod, np.fmod, remainder_samples),
    OpSpec("floor_divide", ug.floor_divide, np.floor_divide, remainder_samples),
    unary("reciprocal", ug.reciprocal, np.reciprocal, away_from_zero),
    unary("square", ug.square, np.square),
    binary("logaddexp", ug.logaddexp, np.logaddexp),
    OpSpec("lerp", ug.lerp, lambda x, end, weight: x + weight * (end - x), lerp_samples),
    # unary math
    unary("exp", ug.exp, np.exp, integer_input=True),
    unary("log", ug.log, np.log, positive),
    unary("log1p", ug.log1p, np.log1p, uniform(-0.5, 2.0)),
    unary("expm1", ug.expm1, np.expm1),
    unary("sqrt", ug.sqrt, np.sqrt, positive),
    unary("rsqrt", ug.rsqrt, lambda x: 1.0 / np.sqrt(x), positive),
    unary("sin", ug.sin, np.sin),
    unary("cos", ug.cos, np.cos),
    unary("tan", ug.tan, np.tan, uniform(-1.2, 1.2)),
    unary("tanh", ug.tanh, np.tanh),
    unary("sigmoid", ug.sigmoid, sigmoid_reference, symmetric(0.0, 5.0)),
    unary("relu", ug.relu, lambda x: np.maximum(x, 0.0), away_from_zero),
    binary("threshold_backward", threshold_backward, threshold_backward_reference,
           second=away_from_zero, python_scalar=None, primitives=("threshold_backward",)),
    unary("gelu", ug.gelu, gelu_reference),
    OpSpec("gelu_tanh", lambda x: ug.gelu(x, approximate="tanh"),
           lambda x: gelu_reference(x, approximate="tanh"), unary_samples()),
    unary("silu", ug.silu, lambda x: x * sigmoid_reference(x)),
    unary("softplus", ug.softplus, softplus_reference),
    OpSpec("softplus_beta_threshold", lambda x: ug.softplus(x, beta=2.0, threshold=1.0),
           lambda x: softplus_reference(x, beta=2.0, threshold=1.0),
           unary_samples(spread)),
    unary("erf", ug.erf, erf_reference),
    unary("abs", ug.abs, np.abs, away_from_zero),
    # piecewise constant: samples stay away from the jumps, so the gradient is 0
    unary("sign", ug.sign, np.sign, away_from_zero),
    unary("floor", ug.floor, np.floor, between_integers),
    unary("ceil", ug.ceil, np.ceil, between_integers),
    unary("round", ug.round, np.round, between_integers),
    unary("trunc", ug.trunc, np.trunc, between_integers),
    # dtype conversion
    OpSpec("cast_float32", lambda x: ug.cast(x, ug.float32), lambda x: x.astype(np.float32),
           unary_samples(), grad=False, second_order=False, jvp=False),
    OpSpec("cast_int64", lambda x: ug.cast(x, ug.int64), lambda x: x.astype(np.int64),
           unary_samples(between_integers), grad=False),
    # float64 -> float32 -> float64 is the identity up to float32 rounding: a wide eps
    # makes the rounding error small against the step.
    OpSpec("cast_roundtrip", lambda x: ug.cast(ug.cast(x, ug.float32), ug.float64),
           lambda x: x.astype(np.float32).astype(np.float64), unary_samples(),
           eps=1e-2, grad_atol=1e-4, grad_rtol=1e-3, float32=False),
    # comparisons and predicates (no gradient)
    comparison("eq", ug.eq, np.equal),
    comparison("ne", ug.ne, np.not_equal),
    comparison("lt", ug.lt, np.less),
    comparison("le", ug.le, np.less_equal),
    comparison("gt", ug.gt, np.greater),
    comparison("ge", ug.ge, np.greater_equal),
    OpSpec("logical_and", ug.logical_and, np.logical_and, logical_samples, grad=False),
    OpSpec("logical_or", ug.logical_or, np.logical_or, logical_samples, grad=False),
    OpSpec("logical_xor", ug.logical_xor, np.logical_xor, logical_samples, grad=False),
    OpSpec("logical_not", ug.logical_not, np.logical_not,
           lambda rng: [Sample((booleans(rng, 3, 4),)), Sample((booleans(rng),), label="scalar")],
           grad=False),
    unary("isnan", ug.isnan, np.isnan, with_specials, grad=False),
    unary("isinf", ug.isinf, np.isinf, with_specials, grad=False),
    unary("isfinite", ug.isfinite, np.isfinite, with_specials, grad=False),
    # operators (Tensor methods reached through Python syntax)
    OpSpec("operator_rsub", lambda y: 2.0 - y, lambda y: 2.0 - y, unary_samples()),
    OpSpec("operator_rtruediv", lambda y: 2.0 / y, lambda y: 2.0 / y,
           unary_samples(away_from_zero)),
    OpSpec("operator_rpow", lambda y: 2.0 ** y, lambda y: 2.0 ** y, unary_samples()),
    OpSpec("operator_pow", lambda x: x ** 2, lambda x: x ** 2, unary_samples()),
    OpSpec("operator_mod", lambda x, y: x % y, np.remainder, remainder_samples),
    OpSpec("operator_floordiv", lambda x, y: x // y, np.floor_divide, remainder_samples),
    OpSpec("operator_abs", abs, np.abs, unary_samples(away_from_zero)),
    OpSpec("operator_invert", lambda x: ~x, np.logical_not,
           lambda rng: [Sample((booleans(rng, 3, 4),))], grad=False),
]
