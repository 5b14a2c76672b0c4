"""Lazy convolutions against PyTorch: repr and ``state_dict`` before and after the first call,
the inferred ``in_channels``, the class they become, outputs and gradients, initialization
bounds, ``state_dict`` loading and errors (``unigrad.nn.LazyConv*``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn

from .helpers import as_np

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

CASES = [
    ("LazyConv1d", (4, 3), {}, (2, 3, 7)),
    ("LazyConv1d", (4, 2), {"padding": "same", "padding_mode": "reflect", "bias": False},
     (5, 6)),
    ("LazyConv2d", (4, 3), {"stride": 2, "padding": 1, "groups": 2}, (2, 6, 5, 5)),
    ("LazyConv2d", (2, (1, 2)), {"dilation": (1, 2)}, (3, 4, 5)),
    ("LazyConv3d", (2, 2), {"bias": False}, (1, 3, 3, 3, 3)),
    ("LazyConvTranspose1d", (3, 3), {"stride": 2, "output_padding": 1}, (2, 4, 5)),
    ("LazyConvTranspose2d", (4, 2), {"groups": 2, "dilation": 2, "padding": 1}, (1, 4, 3, 3)),
    ("LazyConvTranspose2d", (2, 3), {"bias": False}, (3, 2, 2)),
    ("LazyConvTranspose3d", (2, 2), {"stride": (1, 2, 1)}, (1, 2, 2, 2, 2)),
]


def pair(name: str, args: tuple, kwargs: dict, dtype=None):
    torch_dtype = None if dtype is None else getattr(torch, dtype)
    ug_dtype = None if dtype is None else getattr(ug, dtype)
    return (getattr(nn, name)(*args, **kwargs, dtype=ug_dtype),
            getattr(torch.nn, name)(*args, **kwargs, dtype=torch_dtype))


@pytest.mark.parametrize("name, args, kwargs, shape", CASES)
def test_lazy_conv_matches_torch_before_and_after_the_first_call(name, args, kwargs, shape):
    ours, theirs = pair(name, args, kwargs, "float64")
    assert repr(ours) == repr(theirs)
    assert ours.in_channels == theirs.in_channels == 0
    assert repr(ours.weight) == "<UninitializedParameter>"
    assert ours.has_uninitialized_params()
    assert list(ours.state_dict()) == list(theirs.state_dict())
    x = np.random.default_rng(0).standard_normal(shape)
    ours(ug.tensor(x))
    theirs(torch.tensor(x))
    becomes = name.replace("Lazy", "")
    assert type(ours).__name__ == type(theirs).__name__ == becomes
    assert type(ours) is getattr(nn, becomes)
    assert repr(ours) == repr(theirs) and ours.in_channels == theirs.in_channels
    assert [(k, v.shape, v.dtype) for k, v in ours.state_dict().items()] == [
        (k, tuple(v.shape), ug.float64) for k, v in theirs.state_dict().items()]
    ours.load_state_dict({k: ug.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    x_ours = ug.tensor(x, requires_grad=True)
    x_theirs = torch.tensor(x, requires_grad=True)
    result, expected = ours(x_ours), theirs(x_theirs)
    np.testing.assert_allclose(as_np(result), expected.detach().numpy(), rtol=1e-10,
                               atol=1e-12)
    upstream = np.random.default_rng(1).standard_normal(tuple(expected.shape))
    (result * ug.tensor(upstream)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    np.testing.assert_allclose(as_np(x_ours.grad), x_theirs.grad.numpy(), rtol=1e-10,
                               atol=1e-12)
    for (key, mine), (_, reference) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_allclose(as_np(mine.grad), reference.grad.numpy(), rtol=1e-10,
                                   atol=1e-12, err_msg=key)


@pytest.mark.parametrize("name, transposed", [("LazyConv2d", False),
                                              ("LazyConvTranspose2d", True)])
def test_lazy_conv_initializes_like_torch(name, transposed):
    layer = getattr(nn, name)(8, 3, groups=2)
    layer(ug.ones(1, 40, 4, 4))
    fan_in = (8 if transposed else 40) // 2 * 9
    bound = 1 / math.sqrt(fan_in)
    weight, bias = as_np(layer.weight), as_np(layer.bias)
    assert layer.weight.shape == ((40, 4, 3, 3) if transposed else (8, 20, 3, 3))
    assert layer.weight.dtype == ug.float32 and layer.weight.requires_grad
    assert np.abs(weight).max() <= bound and np.abs(weight).max() > 0.9 * bound
    assert np.abs(bias).max() <= bound and np.unique(bias).size == 8


def test_loading_a_state_dict_materializes_the_lazy_conv():
    source = torch.nn.Conv2d(6, 4, 3, groups=2, bias=False).double()
    layer = nn.LazyConv2d(4, 3, groups=2, bias=False, dtype=ug.float64)
    layer.load_state_dict({"weight": ug.tensor(source.weight.detach().numpy())})
    assert layer.weight.shape == (4, 3, 3, 3) and not layer.has_uninitialized_params()
    assert type(layer) is nn.LazyConv2d
    x = np.random.default_rng(2).standard_normal((1, 6, 4, 4))
    np.testing.assert_allclose(as_np(layer(ug.tensor(x))),
                               source(torch.tensor(x)).detach().numpy(), rtol=1e-10)
    assert repr(layer) == "Conv2d(6, 4, kernel_size=(3, 3), stride=(1, 1), groups=2, bias=False)"


def test_a_nested_lazy_conv_transpose_loads_its_entries():
    source = torch.nn.Sequential(torch.nn.ConvTranspose1d(5, 2, 3)).double()
    model = nn.Sequential(nn.LazyConvTranspose1d(2, 3, dtype=ug.float64))
    model.load_state_dict({k: ug.tensor(v.numpy()) for k, v in source.state_dict().items()})
    x = np.random.default_rng(3).standard_normal((2, 5, 4))
    np.testing.assert_allclose(as_np(model(ug.tensor(x))),
                               source(torch.tensor(x)).detach().numpy(), rtol=1e-10)
    assert model[0].in_channels == 5 and type(model[0]) is nn.ConvTranspose1d


def test_lazy_conv_errors_leave_the_module_uninitialized():
    layer = nn.LazyConv2d(4, 3, groups=2)
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        layer(ug.ones(1, 3, 5, 5))
    with pytest.raises(RuntimeError, match=r"Expected 3D \(unbatched\) or 4D \(batched\) input "
                                           r"to LazyConv2d, but got input of size: \[5, 5\]"):
        layer(ug.ones(5, 5))
    assert layer.in_channels == 0 and layer.has_uninitialized_params()
    assert type(layer) is nn.LazyConv2d
    assert layer(ug.ones(1, 4, 5, 5)).shape == (1, 4, 3, 3)
    with pytest.raises(ValueError, match="padding_mode"):
        nn.LazyConv1d(2, 3, padding_mode="edge")
    with pytest.raises(ValueError, match='Only "zeros" padding mode'):
        nn.LazyConvTranspose2d(2, 3, padding_mode="reflect")
    with pytest.raises(TypeError, match="out_channels"):
        nn.LazyConv3d(2.5, 3)


def test_conv_accepts_zero_channels_like_torch():
    with pytest.warns(UserWarning, match="zero-element"):
        layer = nn.Conv2d(0, 4, 3)
    with pytest.warns(UserWarning, match="zero-element"):
        reference = torch.nn.Conv2d(0, 4, 3)
    assert repr(layer) == repr(reference)
    assert layer.weight.shape == (4, 0, 3, 3)
