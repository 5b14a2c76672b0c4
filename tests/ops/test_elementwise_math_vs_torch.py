"""``unigrad.ops.elementwise_math`` against PyTorch: values and first derivatives on grids
that include the edge points (domain boundaries, zeros, NaN and infinities)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import unigrad as ug

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch

INF, NAN = math.inf, math.nan

UNIT = [-1.5, -1.0, -0.999, -0.5, -0.0, 0.0, 0.3, 0.999, 1.0, 1.5, NAN]
WIDE = [-INF, -30.0, -3.0, -1.0, -0.5, 0.0, 0.25, 1.0, 2.0, 30.0, INF, NAN]
POSITIVE = [-1.0, 0.0, 1e-3, 0.5, 1.0, 2.0, 10.0, INF, NAN]
ABOVE_ONE = [0.0, 0.5, 1.0, 1.001, 2.0, 10.0, INF, NAN]
PROBABILITY = [-0.5, 0.0, 0.05, 0.3, 0.5, 0.9, 1.0, 1.5, NAN]
INTEGERS = [-2.5, -1.0, -0.75, -0.0, 0.0, 0.4, 1.0, 2.5, 7.0]

UNARY = [
    ("acos", UNIT), ("asin", UNIT), ("atan", WIDE), ("sinh", WIDE), ("cosh", WIDE),
    ("asinh", WIDE), ("acosh", ABOVE_ONE), ("atanh", UNIT), ("log2", POSITIVE),
    ("log10", POSITIVE), ("exp2", WIDE), ("erfc", WIDE), ("sinc", WIDE),
    ("deg2rad", WIDE), ("rad2deg", WIDE), ("frac", INTEGERS), ("sgn", WIDE),
    ("signbit", WIDE), ("nan_to_num", WIDE), ("logit", PROBABILITY),
    ("arccos", UNIT), ("arcsin", UNIT), ("arctan", WIDE), ("arcsinh", WIDE),
    ("arccosh", ABOVE_ONE), ("arctanh", UNIT),
]

# pairs on a grid: the first operand from ``first`` and the second from ``second``
BINARY = [
    ("atan2", [-2.0, -0.0, 0.0, 1.0, INF, NAN], [-3.0, -0.0, 0.0, 2.0, -INF, INF]),
    ("arctan2", [-2.0, 0.0, 1.0], [-3.0, 0.0, 2.0]),
    ("hypot", [-3.0, 0.0, 4.0, INF, NAN], [-0.0, 0.0, 2.0, NAN]),
    ("xlogy", [-1.0, 0.0, 2.0, NAN], [-1.0, 0.0, 0.5, 3.0, INF, NAN]),
    ("xlog1py", [-1.0, 0.0, 2.0, NAN], [-2.0, -1.0, 0.0, 0.5, INF, NAN]),
    ("copysign", [-2.0, -0.0, 0.0, 3.0, INF], [-1.0, -0.0, 0.0, 2.0, NAN]),
    ("fmax", [-1.0, 0.0, 2.0, NAN], [-1.0, 1.0, 2.0, NAN]),
    ("fmin", [-1.0, 0.0, 2.0, NAN], [-1.0, 1.0, 2.0, NAN]),
    # (a base of 0 is left out: pow's exponent gradient is 0 there, PyTorch's is -inf)
    ("float_power", [0.5, 2.0, 3.0], [-1.0, 0.0, 0.5, 2.0]),
    ("logaddexp2", [-INF, -30.0, 0.0, 1.0, 30.0], [-INF, 0.0, 2.0, 30.0]),
    ("heaviside", [-1.0, 0.0, 2.0], [0.0, 0.5, 1.0]),
]

NO_GRADIENT = {"signbit", "heaviside"}


def _torch_function(name):
    return getattr(torch, name, None) or getattr(torch.special, name)


def _grid(first, second):
    a, b = np.meshgrid(np.array(first), np.array(second), indexing="ij")
    return a.ravel(), b.ravel()


def _compare(actual, expected, *, rtol=1e-10, atol=1e-12):
    actual = np.asarray(actual)
    if hasattr(expected, "detach"):  # (sgn's gradient is a ZeroTensor)
        expected = expected.detach().numpy(force=True)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)


def _run(name, arrays, kwargs=None, grad=True):
    kwargs = kwargs or {}
    ours = [ug.tensor(a, requires_grad=grad) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=grad) for a in arrays]
    result = getattr(ug, name)(*ours, **kwargs)
    expected = _torch_function(name)(*theirs, **kwargs)
    _compare(result.detach().numpy(), expected)
    if not grad:
        return
    weights = np.linspace(0.5, 1.5, result.numel()).reshape(tuple(result.shape))
    (result * ug.tensor(weights)).sum().backward()
    (expected * torch.tensor(weights)).sum().backward()
    for mine, reference in zip(ours, theirs):
        _compare(mine.grad.numpy(), reference.grad)


@pytest.mark.parametrize("name, grid", UNARY, ids=[u[0] for u in UNARY])
def test_unary_matches_torch(name, grid):
    with np.errstate(all="ignore"):
        _run(name, [np.array(grid)], grad=name not in NO_GRADIENT)


@pytest.mark.parametrize("name, first, second", BINARY, ids=[b[0] for b in BINARY])
def test_binary_matches_torch(name, first, second):
    with np.errstate(all="ignore"):
        _run(name, _grid(first, second), grad=name not in NO_GRADIENT)


def test_logit_eps_matches_torch():
    _run("logit", [np.array(PROBABILITY)], {"eps": 0.1})


def test_nan_to_num_values_match_torch():
    _run("nan_to_num", [np.array(WIDE)], {"nan": 2.0, "posinf": 5.0, "neginf": -5.0})


@pytest.mark.parametrize("name", ["clamp_min", "clamp_max"])
def test_clamp_bound_matches_torch(name):
    x = np.array([-2.0, -0.5, 0.0, 0.5, 2.0])
    ours = ug.tensor(x, requires_grad=True)
    theirs = torch.tensor(x, requires_grad=True)
    result, expected = getattr(ug, name)(ours, 0.5), getattr(torch, name)(theirs, 0.5)
    _compare(result.detach().numpy(), expected)
    result.sum().backward()
    expected.sum().backward()
    _compare(ours.grad.numpy(), theirs.grad)


@pytest.mark.parametrize("name", ["addcmul", "addcdiv"])
def test_addc_matches_torch(name):
    arrays = [np.array([1.0, -2.0, 0.5]), np.array([3.0, 0.0, -1.0]), np.array([2.0, 4.0, -0.5])]
    _run(name, arrays, {"value": 0.5})


def test_isclose_matches_torch():
    a, b = _grid([-INF, 0.0, 1.0, 1.0 + 1e-6, INF, NAN], [-INF, 0.0, 1.0, INF, NAN])
    for equal_nan in (False, True):
        result = ug.isclose(ug.tensor(a), ug.tensor(b), equal_nan=equal_nan)
        expected = torch.isclose(torch.tensor(a), torch.tensor(b), equal_nan=equal_nan)
        _compare(result.detach().numpy(), expected)


@pytest.mark.parametrize("name", ["acos", "atan", "exp2", "log2", "erfc", "deg2rad", "sinc"])
def test_integer_input_gives_the_default_float(name):
    data = [0, 1, 2]
    result = getattr(ug, name)(ug.tensor(data))
    expected = getattr(torch, name)(torch.tensor(data))
    _compare(result.numpy(), expected, rtol=1e-6)


def test_integer_atan2_and_float_power_dtypes():
    a, b = [1, -2, 3], [2, 2, -1]
    _compare(ug.atan2(ug.tensor(a), ug.tensor(b)).numpy(),
             torch.atan2(torch.tensor(a), torch.tensor(b)), rtol=1e-6)
    _compare(ug.float_power(ug.tensor(a), 2).numpy(), torch.float_power(torch.tensor(a), 2))


@pytest.mark.parametrize("method", ["acos", "arccos", "asin", "atan", "sinh", "cosh", "asinh",
                                    "atanh", "log2", "log10", "exp2", "erfc", "sinc",
                                    "deg2rad", "rad2deg", "frac", "sgn", "logit"])
def test_unary_methods_and_inplace(method):
    x = np.array([0.1, 0.4, 0.7])
    expected = getattr(torch.tensor(x), method)()
    _compare(getattr(ug.tensor(x), method)().numpy(), expected)
    ours = ug.tensor(x)
    assert getattr(ours, method + "_")() is ours
    _compare(ours.numpy(), expected)


@pytest.mark.parametrize("method", ["atan2", "arctan2", "hypot", "xlogy", "copysign",
                                    "fmax", "fmin", "float_power", "heaviside"])
def test_binary_methods(method):
    x, y = np.array([0.5, -1.0, 2.0]), np.array([1.5, 0.5, -2.0])
    expected = getattr(torch.tensor(x), method)(torch.tensor(y))
    _compare(getattr(ug.tensor(x), method)(ug.tensor(y)).numpy(), expected)


def test_inplace_binary_and_clamp_methods():
    x = np.array([0.5, -1.0, 2.0])
    ours, theirs = ug.tensor(x), torch.tensor(x)
    ours.atan2_(ug.tensor(1.0))
    theirs.atan2_(torch.tensor(1.0))
    ours.clamp_min_(0.2)
    theirs.clamp_min_(0.2)
    ours.addcmul_(ug.tensor(x), ug.tensor(x), value=2.0)
    theirs.addcmul_(torch.tensor(x), torch.tensor(x), value=2.0)
    _compare(ours.numpy(), theirs)
