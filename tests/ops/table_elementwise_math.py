"""Op-table specs for ``unigrad/ops/elementwise_math.py`` (inverse trigonometric and
hyperbolic functions, other bases, two-argument math and composites)."""

from __future__ import annotations

import math

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, away_from_zero, distinct, normal, positive
from .table_elementwise import (
    between_integers,
    binary,
    binary_samples,
    symmetric,
    unary,
    unary_samples,
    uniform,
    with_specials,
)

# ----------------------------------------------------------------------------- references

erfc_reference = np.vectorize(math.erfc, otypes=[np.float64])


def xlogy_reference(x, y):
    return np.where(x == 0, 0.0, x * np.log(np.where(x == 0, 1.0, y)))


def xlog1py_reference(x, y):
    return np.where(x == 0, 0.0, x * np.log1p(np.where(x == 0, 0.0, y)))


def logit_reference(x, eps=None):
    if eps is not None:
        x = np.clip(x, eps, 1.0 - eps)
    return np.log(x / (1.0 - x))


def nan_to_num_reference(x, nan=0.0, posinf=None, neginf=None):
    return np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


def isclose_reference(x, y, rtol=1e-05, atol=1e-08, equal_nan=False):
    return np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)


# ----------------------------------------------------------------------------- samples


def with_zeros(generate):
    """Values from ``generate`` with about a third replaced by exact zeros."""
    def values(rng: np.random.Generator, *shape) -> np.ndarray:
        result = np.array(generate(rng, *shape), dtype=np.float64)
        result[rng.random(size=shape) < 0.35] = 0.0
        return result
    return values


def fextremum_samples(rng: np.random.Generator) -> list:
    """Distinct values (no ties), NaN in one operand at a few places."""
    def with_nan(values):
        values = np.array(values)
        values[rng.random(size=values.shape) < 0.3] = np.nan
        return values
    return [Sample((distinct(rng, 3, 4), with_nan(distinct(rng, 3, 4) + 0.05)), label="same"),
            Sample((with_nan(distinct(rng, 3, 1)), distinct(rng, 1, 4) + 0.05),
                   label="broadcast"),
            Sample((distinct(rng), distinct(rng, 2, 3) + 0.05), label="scalar_tensor"),
            Sample((distinct(rng, 0, 3), distinct(rng, 1, 3)), label="empty"),
            Sample((distinct(rng, 4, 3).T, distinct(rng, 3, 4) + 0.05), label="transposed"),
            Sample((distinct(rng, 2, 3), 0.1), label="python_scalar")]


def heaviside_samples(rng: np.random.Generator) -> list:
    def x(*shape):
        return with_zeros(away_from_zero)(rng, *shape)
    return [Sample((x(3, 4), normal(rng, 3, 4)), label="same"),
            Sample((x(3, 1), normal(rng, 1, 4)), label="broadcast"),
            Sample((x(), normal(rng)), label="scalar"),
            Sample((x(0, 3), normal(rng, 1, 3)), label="empty")]


def addc_samples(divisor=normal):
    def samples(rng: np.random.Generator) -> list:
        return [Sample((normal(rng, 3, 4), normal(rng, 3, 4), divisor(rng, 3, 4)), label="same"),
                Sample((normal(rng, 3, 1), normal(rng, 1, 4), divisor(rng, 3, 4)),
                       {"value": 0.5}, label="broadcast_value"),
                Sample((normal(rng), normal(rng, 2, 3), divisor(rng)), label="scalar"),
                Sample((normal(rng, 0, 3), normal(rng, 1, 3), divisor(rng, 1, 3)),
                       label="empty"),
                Sample((normal(rng, 4, 3).T, normal(rng, 3, 4), divisor(rng, 4, 3).T),
                       label="transposed")]
    return samples


def nan_to_num_samples(rng: np.random.Generator) -> list:
    values = {"nan": 1.5, "posinf": 7.0, "neginf": -7.0}
    return [Sample((with_specials(rng, 3, 4),), values, label="values"),
            Sample((with_specials(rng),), values, label="scalar"),
            Sample((with_specials(rng, 0, 3),), label="empty"),
            Sample((with_specials(rng, 4, 3).T,), {"posinf": 3.0}, label="transposed")]


def isclose_samples(rng: np.random.Generator) -> list:
    def near(x):
        return x + rng.choice([0.0, 1e-9, 1e-3], size=np.shape(x))
    a = with_specials(rng, 3, 4)
    b = with_specials(rng, 1, 4)
    return [Sample((a, near(a)), label="same"),
            Sample((near(b) * np.ones((3, 1)), b), label="broadcast"),
            Sample((a, near(a)), {"equal_nan": True, "rtol": 1e-2}, label="equal_nan"),
            Sample((normal(rng, 0, 3), normal(rng, 1, 3)), label="empty")]


def logit_eps_samples(rng: np.random.Generator) -> list:
    """Values at least 0.02 away from the clamp bounds 0.1 and 0.9."""
    grid = np.array([0.03, 0.3, 0.5, 0.7, 0.97])
    return [Sample((rng.choice(grid, size=(3, 4)) + rng.uniform(-0.02, 0.02, (3, 4)),),
                   {"eps": 0.1}, label="eps"),
            Sample((np.array(0.5),), {"eps": 0.1}, label="scalar")]


def clamp_values(rng: np.random.Generator, *shape) -> np.ndarray:
    """Values at least 0.08 away from the bound 0.2."""
    return rng.choice(np.array([-1.0, -0.3, 0.6, 1.4]), size=shape) + \
        rng.uniform(-0.02, 0.02, size=shape)


def clamp_samples(rng: np.random.Generator) -> list:
    return [Sample((clamp_values(rng, 3, 4), 0.2), label="matrix"),
            Sample((clamp_values(rng), 0.2), label="scalar"),
            Sample((clamp_values(rng, 0, 3), 0.2), label="empty"),
            Sample((clamp_values(rng, 4, 3).T, 0.2), label="transposed")]


def float_power_samples(rng: np.random.Generator) -> list:
    return [Sample((positive(rng, 3, 4), normal(rng, 3, 4)), label="same"),
            Sample((positive(rng, 3, 1), normal(rng, 1, 4)), label="broadcast"),
            Sample((positive(rng, 2, 3), 2.5), label="python_scalar"),
            Sample((rng.integers(1, 4, size=(2, 3)), 2), label="int64")]


def atan2_samples(rng: np.random.Generator) -> list:
    """Points away from the origin and from the negative x axis (the branch cut)."""
    return binary_samples(away_from_zero, normal, python_scalar=0.7)(rng) + \
        [Sample((rng.integers(-3, 4, size=(2, 3)), rng.integers(1, 4, size=(2, 3))),
                label="int64")]


OPS = [
    # inverse trigonometric and hyperbolic functions
    unary("acos", ug.acos, np.arccos, symmetric(0.0, 0.9), integer_input=False),
    unary("asin", ug.asin, np.arcsin, symmetric(0.0, 0.9)),
    unary("atan", ug.atan, np.arctan, integer_input=True),
    unary("sinh", ug.sinh, np.sinh),
    unary("cosh", ug.cosh, np.cosh),
    unary("asinh", ug.asinh, np.arcsinh),
    unary("acosh", ug.acosh, np.arccosh, uniform(1.2, 3.0)),
    unary("atanh", ug.atanh, np.arctanh, symmetric(0.0, 0.85)),
    unary("log2", ug.log2, np.log2, positive),
    unary("log10", ug.log10, np.log10, positive),
    unary("exp2", ug.exp2, np.exp2, integer_input=True),
    unary("erfc", ug.erfc, erfc_reference),
    OpSpec("arccos", lambda x: x.arccos(), np.arccos, unary_samples(symmetric(0.0, 0.9))),
    OpSpec("atan2", ug.atan2, np.arctan2, atan2_samples),
    OpSpec("arctan2_method", lambda y, x: y.arctan2(x), np.arctan2, atan2_samples),
    binary("hypot", ug.hypot, np.hypot, away_from_zero, away_from_zero),
    OpSpec("fmax", ug.fmax, np.fmax, fextremum_samples),
    OpSpec("fmin", ug.fmin, np.fmin, fextremum_samples),
    unary("signbit", ug.signbit, np.signbit, with_zeros(normal), grad=False),
    OpSpec("heaviside", ug.heaviside, np.heaviside, heaviside_samples, grad=False),
    # composites
    unary("logit", ug.logit, logit_reference, uniform(0.1, 0.9)),
    OpSpec("logit_eps", ug.logit, logit_reference, logit_eps_samples),
    # x == 0 is checked against torch (test_elementwise_math_vs_torch): there the gradient
    # in x is PyTorch's 0, not the central difference log(y)
    binary("xlogy", ug.xlogy, xlogy_reference, away_from_zero, positive, scalar_first=True),
    OpSpec("xlogy_zeros", ug.xlogy, xlogy_reference,
           binary_samples(with_zeros(normal), positive), grad=False),
    binary("xlog1py", ug.xlog1py, xlog1py_reference, away_from_zero, uniform(-0.5, 2.0)),
    unary("sinc", ug.sinc, np.sinc, away_from_zero),
    unary("deg2rad", ug.deg2rad, np.deg2rad, integer_input=True),
    unary("rad2deg", ug.rad2deg, np.rad2deg),
    unary("frac", ug.frac, lambda x: x - np.trunc(x), between_integers),
    binary("copysign", ug.copysign, np.copysign, away_from_zero, away_from_zero),
    OpSpec("float_power", ug.float_power, lambda x, y: np.power(np.float64(x), y),
           float_power_samples, float32=False),
    binary("logaddexp2", ug.logaddexp2, np.logaddexp2),
    OpSpec("clamp_min", ug.clamp_min, lambda x, m: np.maximum(x, m), clamp_samples),
    OpSpec("clamp_max", ug.clamp_max, lambda x, m: np.minimum(x, m), clamp_samples),
    OpSpec("nan_to_num", ug.nan_to_num, nan_to_num_reference, nan_to_num_samples, grad=False),
    # the default replacements are the dtype's extremes: float32 differs from float64
    OpSpec("nan_to_num_defaults", ug.nan_to_num, nan_to_num_reference,
           lambda rng: [Sample((with_specials(rng, 3, 4),))], grad=False, float32=False),
    unary("nan_to_num_finite", ug.nan_to_num, np.nan_to_num),
    unary("sgn", ug.sgn, np.sign, away_from_zero),
    OpSpec("addcmul", ug.addcmul, lambda x, a, b, value=1: x + value * a * b, addc_samples()),
    OpSpec("addcdiv", ug.addcdiv, lambda x, a, b, value=1: x + value * a / b,
           addc_samples(away_from_zero)),
    OpSpec("isclose", ug.isclose, isclose_reference, isclose_samples, grad=False),
]
