"""Activation functions and their modules against PyTorch: values, gradients, reprs, errors."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.functional as F
from unigrad import nn

from .helpers import as_np

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def kinked_values(rng, *shape) -> np.ndarray:
    """Normal values plus the kinks of the piecewise activations (0, +-0.5, +-1, +-3, 6)."""
    values = rng.standard_normal(shape) * 3.0
    flat = values.reshape(-1)
    kinks = np.array([0.0, 0.5, -0.5, 1.0, -1.0, 3.0, -3.0, 6.0, 25.0, -25.0])
    count = min(flat.size, kinks.size)
    flat[:count] = kinks[:count]
    return values


def check_against_torch(ours, theirs, *arrays, rtol=1e-10, atol=1e-12):
    """Same values and the same gradient of every array argument (float64)."""
    rng = np.random.default_rng(7)
    ug_args = [ug.tensor(array, requires_grad=True) for array in arrays]
    torch_args = [torch.tensor(array, requires_grad=True) for array in arrays]
    result, expected = ours(*ug_args), theirs(*torch_args)
    np.testing.assert_allclose(as_np(result), expected.detach().numpy(), rtol=rtol, atol=atol)
    upstream = rng.standard_normal(tuple(expected.shape))
    (result * ug.tensor(upstream)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    for ug_arg, torch_arg in zip(ug_args, torch_args):
        np.testing.assert_allclose(as_np(ug_arg.grad), torch_arg.grad.numpy(), rtol=rtol,
                                   atol=atol)


ELEMENTWISE = [
    ("elu", {}), ("elu", {"alpha": 0.7}), ("selu", {}), ("celu", {}), ("celu", {"alpha": 2.5}),
    ("leaky_relu", {"negative_slope": 0.2}), ("hardtanh", {}),
    ("hardtanh", {"min_val": -0.5, "max_val": 3.0}), ("relu6", {}), ("hardsigmoid", {}),
    ("hardswish", {}), ("mish", {}), ("softsign", {}), ("tanhshrink", {}),
    ("threshold", {"threshold": 0.5, "value": -2.0}), ("hardshrink", {}),
    ("hardshrink", {"lambd": 1.0}), ("softshrink", {}), ("softshrink", {"lambd": 1.0}),
    ("logsigmoid", {}), ("rrelu", {}), ("rrelu", {"lower": 0.2, "upper": 0.6}),
]


# PyTorch's hardsigmoid/hardswish backward multiplies by a float32 1/6 even in float64
SINGLE_PRECISION_SIXTH = {"hardsigmoid": 1e-7, "hardswish": 1e-7}


@pytest.mark.parametrize("name, kwargs", ELEMENTWISE)
def test_elementwise_activation_matches_torch(rng, name, kwargs):
    values = kinked_values(rng, 4, 5)
    check_against_torch(lambda x: getattr(F, name)(x, **kwargs),
                        lambda x: getattr(torch.nn.functional, name)(x, **kwargs), values,
                        rtol=SINGLE_PRECISION_SIXTH.get(name, 1e-10))


INPLACE = {"elu", "selu", "celu", "leaky_relu", "hardtanh", "relu6", "hardsigmoid", "hardswish",
           "mish", "threshold", "rrelu"}


@pytest.mark.parametrize("name, kwargs", [(n, k) for n, k in ELEMENTWISE if n in INPLACE])
def test_inplace_argument_matches_torch(rng, name, kwargs):
    values = kinked_values(rng, 3, 4)

    def ours(x):
        y = x * 1.0
        out = getattr(F, name)(y, inplace=True, **kwargs)
        assert out is y
        return y

    def theirs(x):
        y = x * 1.0
        getattr(torch.nn.functional, name)(y, inplace=True, **kwargs)
        return y
    check_against_torch(ours, theirs, values, rtol=SINGLE_PRECISION_SIXTH.get(name, 1e-10))


@pytest.mark.parametrize("name, args", [
    ("elu_", (0.5,)), ("relu_", ()), ("leaky_relu_", (0.3,)), ("hardtanh_", (-0.5, 2.0)),
    ("selu_", ()), ("celu_", (1.5,)), ("rrelu_", (0.1, 0.3)), ("threshold_", (0.2, 7.0))])
def test_inplace_functions_match_torch(rng, name, args):
    values = kinked_values(rng, 3, 4)
    ours, theirs = ug.tensor(values), torch.tensor(values)
    assert getattr(F, name)(ours, *args) is ours
    getattr(torch.nn.functional, name)(theirs, *args)
    np.testing.assert_allclose(as_np(ours), theirs.numpy(), rtol=1e-12)


@pytest.mark.parametrize("shape, slopes", [((4, 3), 3), ((2, 3, 4), 3), ((2, 3, 2, 2), 1),
                                           ((5,), 1), ((), 1)])
def test_prelu_matches_torch_with_weight_gradient(rng, shape, slopes):
    values = kinked_values(rng, *shape) if shape else np.array(-2.0)
    check_against_torch(F.prelu, torch.nn.functional.prelu, values,
                        rng.uniform(0.1, 0.5, slopes))


@pytest.mark.parametrize("shape, dim", [((4, 6), -1), ((4, 6), 1), ((2, 4, 3), 1), ((6,), 0)])
def test_glu_matches_torch(rng, shape, dim):
    check_against_torch(lambda x: F.glu(x, dim), lambda x: torch.nn.functional.glu(x, dim),
                        rng.standard_normal(shape))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmin_matches_torch(rng, dim):
    check_against_torch(lambda x: F.softmin(x, dim), lambda x: torch.nn.functional.softmin(x, dim),
                        rng.standard_normal((3, 4)))
    result = F.softmin(ug.tensor(rng.standard_normal((3, 4))), dim, dtype=ug.float32)
    assert result.dtype == ug.float32


def test_softmin_implicit_dim_warns_like_torch(rng):
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmin"):
        result = F.softmin(ug.tensor(rng.standard_normal((3, 4))))
    np.testing.assert_allclose(as_np(result.sum(1)), np.ones(3))


def test_rrelu_training_draws_slopes_in_bounds():
    ug.manual_seed(0)
    x = ug.full((2000,), -1.0, dtype=ug.float64, requires_grad=True)
    out = F.rrelu(x, 0.1, 0.3, training=True)
    slopes = -as_np(out)
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3
    assert abs(slopes.mean() - 0.2) < 0.01 and slopes.std() > 0.05
    out.sum().backward()
    np.testing.assert_allclose(as_np(x.grad), slopes)  # gradient is the drawn slope
    positive = F.rrelu(ug.tensor([2.0, 3.0]), training=True)
    assert positive.tolist() == [2.0, 3.0]
    ug.manual_seed(0)
    np.testing.assert_array_equal(as_np(F.rrelu(x, 0.1, 0.3, training=True)), -slopes)


def test_gumbel_softmax_soft_and_hard():
    ug.manual_seed(0)
    logits = ug.tensor(np.log([[0.7, 0.2, 0.1]] * 3000), requires_grad=True)
    soft = F.gumbel_softmax(logits, tau=0.5)
    np.testing.assert_allclose(as_np(soft.sum(-1)), np.ones(3000))
    hard = F.gumbel_softmax(logits, hard=True)
    values = as_np(hard)
    assert set(np.unique(values)) == {0.0, 1.0}
    np.testing.assert_allclose(values.sum(-1), np.ones(3000))
    np.testing.assert_allclose(values.mean(0), [0.7, 0.2, 0.1], atol=0.03)  # Gumbel-max
    (hard * ug.tensor([1.0, 2.0, 3.0])).sum().backward()  # straight-through gradient
    assert np.abs(as_np(logits.grad)).sum() > 0
    assert F.gumbel_softmax(ug.zeros(4, 2), dim=0, hard=True).sum(0).tolist() == [1.0, 1.0]
    with pytest.warns(UserWarning, match="`eps` parameter is deprecated"):
        F.gumbel_softmax(ug.zeros(2), eps=1e-3)


def test_activation_errors_match_torch():
    with pytest.raises(RuntimeError, match="ZeroDivisionError: alpha cannot be 0 for CELU"):
        F.celu(ug.ones(2), 0.0)
    with pytest.raises(RuntimeError, match="Lower bound should be less than or equal"):
        F.rrelu(ug.ones(2), 0.5, 0.1)
    with pytest.raises(RuntimeError, match=r"Halving dimension must be even, but dimension 1 is "
                                           r"size 3"):
        F.glu(ug.ones(2, 3))
    with pytest.raises(RuntimeError, match="glu does not support scalars"):
        F.glu(ug.tensor(1.0))
    with pytest.raises(RuntimeError, match=r"lambda must be in range \[0, 3.40282e\+38\] for "
                                           r"input dtype Float, but found -1"):
        F.softshrink(ug.ones(2), -1)
    with pytest.raises(RuntimeError, match="Found parameter numbers = 2 and channel size = 3"):
        F.prelu(ug.ones(2, 3), ug.ones(2))
    with pytest.raises(RuntimeError, match="Expected `weight` to be a scalar or 1D tensor"):
        F.prelu(ug.ones(2, 3), ug.ones(1, 3))
    with pytest.raises(ValueError, match="Softmax2d: expected input to be 3D or 4D, got 2D"):
        nn.Softmax2d()(ug.ones(2, 3))
    x = ug.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError):
        F.elu(x, inplace=True)  # a leaf that requires grad
    assert x.tolist() == [1.0, 1.0]


MODULES = [
    ("CELU", (), {}), ("CELU", (0.5, True), {}), ("SELU", (), {}), ("SELU", (True,), {}),
    ("RReLU", (), {}), ("RReLU", (0.1, 0.2, True), {}), ("Hardsigmoid", (), {}),
    ("Hardsigmoid", (True,), {}), ("Hardswish", (), {}), ("Mish", (), {}), ("Mish", (True,), {}),
    ("Softsign", (), {}), ("Tanhshrink", (), {}), ("Threshold", (0.1, 20), {}),
    ("Threshold", (0.1, 20.0, True), {}), ("GLU", (), {}), ("GLU", (-2,), {}),
    ("Softmin", (), {"dim": 1}), ("Softmin", (), {}), ("Softmax2d", (), {}),
    ("Hardshrink", (), {}), ("Hardshrink", (1.5,), {}), ("Softshrink", (0.25,), {}),
    ("PReLU", (), {}), ("PReLU", (3, 0.1), {}),
]


@pytest.mark.parametrize("name, args, kwargs", MODULES)
def test_module_repr_and_forward_match_torch(rng, name, args, kwargs):
    ours, theirs = getattr(nn, name)(*args, **kwargs), getattr(torch.nn, name)(*args, **kwargs)
    assert repr(ours) == repr(theirs)
    ours.eval()
    theirs.eval()
    values = kinked_values(rng, 2, 3, 4, 4)
    x_ours, x_theirs = ug.tensor(values), torch.tensor(values)
    if name == "PReLU":
        np.testing.assert_allclose(as_np(ours.weight), theirs.weight.detach().numpy(), rtol=1e-7)
        assert [n for n, _ in ours.named_parameters()] == ["weight"]
        theirs = theirs.double()
        ours.weight.data = ug.tensor(theirs.weight.detach().numpy())
    if name == "Softmin" and "dim" not in kwargs:
        with pytest.warns(UserWarning, match="Implicit dimension choice for softmin"):
            result = ours(x_ours)
        with pytest.warns(UserWarning):
            np.testing.assert_allclose(as_np(result), theirs(x_theirs).numpy(), rtol=1e-12)
        return
    expected = theirs(x_theirs).detach().numpy()
    np.testing.assert_allclose(as_np(ours(x_ours)), expected, rtol=1e-10, atol=1e-12)
    if args and args[-1] is True:  # inplace=True wrote the result into the input
        np.testing.assert_allclose(as_np(x_ours), expected, rtol=1e-10, atol=1e-12)


def test_prelu_module_state_dict_dtype_and_reset():
    layer = nn.PReLU(4, init=0.3, dtype=ug.float64)
    assert list(layer.state_dict()) == ["weight"]
    assert layer.weight.dtype == ug.float64 and layer.weight.tolist() == [0.3] * 4
    layer.weight.data.fill_(1.0)
    layer.reset_parameters()
    assert layer.weight.tolist() == [0.3] * 4
    with pytest.raises(ValueError, match="num_parameters"):
        nn.PReLU(0)


def test_rrelu_module_is_random_in_training_only():
    layer = nn.RReLU(0.1, 0.3)
    x = ug.full((500,), -1.0)
    assert not np.allclose(as_np(layer(x)), -0.2)
    layer.eval()
    np.testing.assert_allclose(as_np(layer(x)), -0.2 * np.ones(500), rtol=1e-6)
