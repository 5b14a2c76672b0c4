"""Op-table specs for ``unigrad/ops/integer_math.py`` (bitwise ops, shifts, gcd/lcm, frexp,
ldexp, nextafter, fix) and the elementwise fixes made with it (fmod's primitive,
``round(decimals=)``)."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, away_from_zero, normal
from .table_elementwise import between_integers, booleans, unary_samples

# ----------------------------------------------------------------------------- references


def shift_reference(left: bool):
    """PyTorch's shifts: amounts outside [0, bits) give 0, or -1 for right shifts of
    negative values."""
    def reference(x, y):
        dtype = np.result_type(x, y)
        x = np.asarray(x, dtype)
        y = np.asarray(y, dtype)
        bits = dtype.itemsize * 8
        outside = (y < 0) | (y >= bits)
        amount = np.where(outside, 0, y).astype(dtype)
        if left:
            return np.where(outside, 0, np.left_shift(x, amount)).astype(dtype)
        fill = np.where(x < 0, -1, 0) if dtype.kind == "i" else 0
        return np.where(outside, fill, np.right_shift(x, amount)).astype(dtype)
    return reference


def frexp_reference(x):
    mantissa, exponent = np.frexp(x)
    return mantissa, exponent.astype(np.int32)


def round_reference(x, decimals=0):
    if decimals >= 0:
        return np.round(x * 10.0 ** decimals) / 10.0 ** decimals
    return np.round(x / 10.0 ** -decimals) * 10.0 ** -decimals


# ----------------------------------------------------------------------------- samples


def integers(rng: np.random.Generator, *shape, low: int = -40, high: int = 40) -> np.ndarray:
    return rng.integers(low, high, size=shape)


def integer_pair_samples(rng: np.random.Generator) -> list:
    return [Sample((integers(rng, 3, 4), integers(rng, 3, 4)), label="same"),
            Sample((integers(rng, 3, 1), integers(rng, 1, 4)), label="broadcast"),
            Sample((integers(rng, 2, 3), 6), label="python_int"),
            Sample((13, integers(rng, 2, 3)), label="python_int_first"),
            Sample((integers(rng), integers(rng, 2, 3)), label="scalar_tensor"),
            Sample((integers(rng, 0, 3), integers(rng, 1, 3)), label="empty"),
            Sample((integers(rng, 2, 3).astype(np.uint8), integers(rng, 2, 3).astype(np.int8)),
                   label="uint8_int8"),
            Sample((booleans(rng, 3, 4), booleans(rng, 3, 4)), label="bool"),
            Sample((booleans(rng, 2, 3), 3), label="bool_python_int")]


def shift_samples(rng: np.random.Generator) -> list:
    amounts = rng.integers(-2, 70, size=(3, 4))
    return [Sample((integers(rng, 3, 4), amounts), label="out_of_range"),
            Sample((integers(rng, 3, 4), rng.integers(0, 5, size=(1, 4))), label="broadcast"),
            Sample((integers(rng, 2, 3), 3), label="python_int"),
            Sample((3, rng.integers(0, 9, size=(2, 3))), label="python_int_first"),
            Sample((integers(rng, 2, 3).astype(np.int8), np.array([[0, 7, 8], [9, 1, 3]],
                                                                     dtype=np.int8)),
                   label="int8"),
            Sample((integers(rng, 2, 3, low=0, high=200).astype(np.uint8),
                    np.array([[0, 7, 8], [9, 1, 3]], dtype=np.uint8)), label="uint8"),
            Sample((booleans(rng, 2, 3), 2), label="bool_python_int"),
            Sample((integers(rng, 0, 2), 1), label="empty")]


def gcd_samples(rng: np.random.Generator) -> list:
    values = integers(rng, 3, 4)
    values[0, 0] = 0
    others = integers(rng, 3, 4)
    others[0, :2] = 0
    return [Sample((values, others), label="with_zeros"),
            Sample((integers(rng, 3, 1), integers(rng, 1, 4)), label="broadcast"),
            Sample((integers(rng, 2, 3).astype(np.int32), integers(rng, 2, 3)),
                   label="int32_int64"),
            Sample((integers(rng, 0, 2), integers(rng, 1, 2)), label="empty")]


def away_from_powers_of_two(rng: np.random.Generator, *shape) -> np.ndarray:
    """Magnitudes 1.2 to 1.8 times a power of two (the mantissa is smooth there)."""
    magnitude = rng.uniform(1.2, 1.8, size=shape) * 2.0 ** rng.integers(-4, 5, size=shape)
    return magnitude * rng.choice([-1.0, 1.0], size=shape)


def ldexp_samples(rng: np.random.Generator) -> list:
    return [Sample((normal(rng, 3, 4), rng.integers(-3, 4, size=(3, 4))), label="int_exponent"),
            Sample((normal(rng, 3, 1), normal(rng, 1, 4)), label="float_exponent"),
            Sample((normal(rng), rng.integers(-3, 4, size=(2, 3))), label="scalar"),
            Sample((rng.integers(-3, 4, size=(2, 3)), rng.integers(-3, 4, size=(2, 3))),
                   label="int_int"),
            Sample((normal(rng, 0, 3), rng.integers(-3, 4, size=(1, 3))), label="empty")]


def nextafter_samples(rng: np.random.Generator) -> list:
    return [Sample((normal(rng, 3, 4), normal(rng, 3, 4)), label="same"),
            Sample((normal(rng, 3, 1), normal(rng, 1, 4)), label="broadcast"),
            Sample((normal(rng, 2, 3), normal(rng)), label="scalar_other"),
            Sample((normal(rng, 0, 3), normal(rng, 1, 3)), label="empty")]


def round_samples(rng: np.random.Generator) -> list:
    # x * 10 ** decimals stays away from integers and halves (round is flat there)
    return [Sample((between_integers(rng, 3, 4) / 100.0,), {"decimals": 2}, label="two"),
            Sample((between_integers(rng, 3, 4) * 10.0,), {"decimals": -1}, label="tens"),
            Sample((between_integers(rng, 2, 3),), {"decimals": 0}, label="zero"),
            Sample((between_integers(rng, 0, 3) / 10.0,), {"decimals": 1}, label="empty")]


def fmod_samples(rng: np.random.Generator) -> list:
    divisor = away_from_zero(rng, 3, 4)
    quotient = rng.integers(-3, 3, size=(3, 4)) + rng.uniform(0.1, 0.9, size=(3, 4))
    return [Sample((quotient * divisor, divisor), label="same"),
            Sample((rng.integers(-9, 9, size=(2, 3)), np.array([2, -3, 4])), label="int64")]


OPS = [
    OpSpec("bitwise_and", ug.bitwise_and, np.bitwise_and, integer_pair_samples,
           ("bitwise_and", "logical_and"), grad=False),
    OpSpec("bitwise_or", ug.bitwise_or, np.bitwise_or, integer_pair_samples,
           ("bitwise_or", "logical_or"), grad=False),
    OpSpec("bitwise_xor", ug.bitwise_xor, np.bitwise_xor, integer_pair_samples,
           ("bitwise_xor", "logical_xor"), grad=False),
    OpSpec("bitwise_not", ug.bitwise_not, np.invert,
           lambda rng: [Sample((integers(rng, 3, 4),), label="int64"),
                        Sample((integers(rng, 2, 3).astype(np.uint8),), label="uint8"),
                        Sample((booleans(rng, 3, 4),), label="bool"),
                        Sample((integers(rng),), label="scalar"),
                        Sample((integers(rng, 0, 2),), label="empty")],
           ("bitwise_not", "logical_not"), grad=False),
    OpSpec("bitwise_left_shift", ug.bitwise_left_shift, shift_reference(True), shift_samples,
           ("bitwise_left_shift",), grad=False),
    OpSpec("bitwise_right_shift", ug.bitwise_right_shift, shift_reference(False),
           shift_samples, ("bitwise_right_shift",), grad=False),
    OpSpec("operator_and", lambda x, y: x & y, np.bitwise_and,
           lambda rng: integer_pair_samples(rng)[:3], grad=False),
    OpSpec("operator_or", lambda x, y: x | y, np.bitwise_or,
           lambda rng: integer_pair_samples(rng)[:3], grad=False),
    OpSpec("operator_xor", lambda x, y: x ^ y, np.bitwise_xor,
           lambda rng: integer_pair_samples(rng)[:3], grad=False),
    OpSpec("operator_invert_integer", lambda x: ~x, np.invert,
           lambda rng: [Sample((integers(rng, 3, 4),)), Sample((booleans(rng, 3),), label="b")],
           grad=False),
    OpSpec("operator_lshift", lambda x, y: x << y, shift_reference(True),
           lambda rng: shift_samples(rng)[:3], grad=False),
    OpSpec("operator_rshift", lambda x, y: x >> y, shift_reference(False),
           lambda rng: shift_samples(rng)[:3], grad=False),
    OpSpec("gcd", ug.gcd, np.gcd, gcd_samples, ("gcd",), grad=False),
    OpSpec("lcm", ug.lcm, np.lcm, gcd_samples, ("lcm",), grad=False),
    OpSpec("frexp", ug.frexp, frexp_reference, unary_samples(away_from_powers_of_two),
           ("frexp_mantissa", "frexp_exponent")),
    OpSpec("ldexp", ug.ldexp, lambda x, y: x * 2.0 ** y, ldexp_samples, ("pow", "mul")),
    OpSpec("nextafter", ug.nextafter, np.nextafter, nextafter_samples, ("nextafter",),
           float32_tol=1e-4),
    OpSpec("fix", ug.fix, np.trunc, unary_samples(between_integers)),
    OpSpec("round_decimals", ug.round, round_reference, round_samples, ("round",)),
    OpSpec("fmod_primitive", ug.fmod, np.fmod, fmod_samples, ("fmod",)),
]
