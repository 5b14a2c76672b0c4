"""Convolutions and pools against PyTorch: the functions' values, indices and gradients
over many argument combinations, and the modules' parameters, ``state_dict`` keys,
``repr`` text, outputs and gradients (``unigrad.nn.functional`` / ``unigrad.nn``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.functional as F
from unigrad import nn

from ..ops.torch_comparison import compare

torch = pytest.importorskip("torch")
TF = torch.nn.functional

pytestmark = pytest.mark.torch


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def distinct(rng, *shape) -> np.ndarray:
    """Values without ties, so the maximum of every window is unique."""
    return rng.permutation(math.prod(shape)).reshape(shape) * 0.25 - 3.0


# ----------------------------------------------------------------------------- convolutions

TRANSPOSED = [
    dict(),
    dict(stride=2),
    dict(stride=(2, 3), padding=1, output_padding=(1, 2)),
    dict(dilation=2, output_padding=1),
    dict(stride=2, padding=2, output_padding=1, dilation=2),
    dict(stride=(1, 3), padding=(0, 2), output_padding=(0, 2), dilation=(2, 1)),
]


@pytest.mark.parametrize("options", TRANSPOSED)
def test_conv_transpose2d_matches_torch(options, rng):
    compare(lambda x, w, b: F.conv_transpose2d(x, w, b, **options),
            lambda x, w, b: TF.conv_transpose2d(x, w, b, **options),
            rng.standard_normal((2, 3, 4, 3)), rng.standard_normal((3, 2, 3, 2)),
            rng.standard_normal(2))


@pytest.mark.parametrize("groups, unbatched", [(2, False), (3, True)])
def test_conv_transpose_groups_and_unbatched_match_torch(groups, unbatched, rng):
    shape = (6, 4, 3) if unbatched else (2, 6, 4, 3)
    compare(lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, groups=groups, padding=1),
            lambda x, w, b: TF.conv_transpose2d(x, w, b, stride=2, groups=groups, padding=1),
            rng.standard_normal(shape), rng.standard_normal((6, 2, 2, 3)),
            rng.standard_normal(2 * groups))


@pytest.mark.parametrize("rank, options", [
    (1, dict(stride=3, padding=1, output_padding=2)),
    (1, dict(dilation=3, groups=2)),
    (3, dict(stride=2, padding=1, output_padding=1)),
    (3, dict(stride=(1, 2, 1), dilation=(2, 1, 1), groups=2, output_padding=(1, 0, 0))),
])
def test_conv_transpose_1d_3d_match_torch(rank, options, rng):
    spatial = (5, 3, 4)[:rank]
    compare(lambda x, w: getattr(F, f"conv_transpose{rank}d")(x, w, **options),
            lambda x, w: getattr(TF, f"conv_transpose{rank}d")(x, w, **options),
            rng.standard_normal((2, 4) + spatial), rng.standard_normal((4, 3) + (2,) * rank))


@pytest.mark.parametrize("options", [
    dict(),
    dict(stride=2, padding=1),
    dict(stride=(1, 2, 3), padding=(2, 0, 1), dilation=(1, 2, 1)),
    dict(groups=2, padding="same", dilation=2),
    dict(padding="valid"),
])
def test_conv3d_matches_torch(options, rng):
    groups = options.get("groups", 1)
    compare(lambda x, w, b: F.conv3d(x, w, b, **options),
            lambda x, w, b: TF.conv3d(x, w, b, **options),
            rng.standard_normal((2, 4, 5, 6, 5)), rng.standard_normal((4, 4 // groups, 2, 3, 2)),
            rng.standard_normal(4))


def test_conv3d_unbatched_and_conv_tbc_match_torch(rng):
    compare(lambda x, w: F.conv3d(x, w, stride=2), lambda x, w: TF.conv3d(x, w, stride=2),
            rng.standard_normal((2, 5, 4, 5)), rng.standard_normal((3, 2, 2, 2, 2)))
    compare(lambda x, w, b: F.conv_tbc(x, w, b, 2), lambda x, w, b: torch.conv_tbc(x, w, b, 2),
            rng.standard_normal((7, 2, 3)), rng.standard_normal((3, 3, 4)),
            rng.standard_normal(4))


def test_conv_transpose_is_the_input_gradient_of_conv(rng):
    x = ug.tensor(rng.standard_normal((2, 3, 7, 6)), requires_grad=True)
    w = ug.tensor(rng.standard_normal((4, 3, 3, 2)))
    upstream = ug.tensor(rng.standard_normal((2, 4, 4, 4)))
    (F.conv2d(x, w, stride=2, padding=1) * upstream).sum().backward()
    transposed = F.conv_transpose2d(upstream, w, stride=2, padding=1)
    np.testing.assert_allclose(transposed.numpy(), x.grad.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("call, error, message", [
    (lambda: F.conv_transpose2d(ug.ones(1, 1, 3, 3), ug.ones(1, 1, 2, 2), output_padding=1),
     RuntimeError, "output padding must be smaller than either stride or dilation"),
    (lambda: F.conv_transpose2d(ug.ones(1, 2, 3, 3), ug.ones(1, 1, 2, 2)), RuntimeError,
     "expected input.* to have 1 channels"),
    (lambda: F.conv_transpose1d(ug.ones(1, 2, 3), ug.ones(2, 1, 2), ug.ones(3)), RuntimeError,
     "expected bias to be 1-dimensional with 1 elements"),
    (lambda: F.conv_transpose2d(ug.ones(1, 1, 1, 1), ug.ones(1, 1, 1, 1), padding=1),
     RuntimeError, "Output size is too small"),
    (lambda: F.conv_transpose3d(ug.ones(1, 3, 3), ug.ones(1, 1, 1, 1, 1)), RuntimeError,
     "Expected 4D \\(unbatched\\) or 5D \\(batched\\) input to conv_transpose3d"),
    (lambda: F.conv3d(ug.ones(1, 2, 3, 3, 3), ug.ones(1, 1, 2, 2, 2)), RuntimeError,
     "to have 1 channels, but got 2 channels"),
])
def test_convolution_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ----------------------------------------------------------------------------- max pools

MAX_OPTIONS = [
    dict(kernel_size=2),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
    dict(kernel_size=2, stride=1, dilation=2),
    dict(kernel_size=3, stride=2, ceil_mode=True),
]


@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("options", MAX_OPTIONS)
@pytest.mark.parametrize("unbatched", [False, True])
def test_max_pool_values_indices_and_gradients_match_torch(rank, options, unbatched, rng):
    shape = (2, 7, 6, 5)[:rank + 1] if unbatched else (2, 2, 7, 6, 5)[:rank + 2]
    compare(lambda x: getattr(F, f"max_pool{rank}d")(x, return_indices=True, **options),
            lambda x: getattr(TF, f"max_pool{rank}d")(x, return_indices=True, **options),
            distinct(rng, *shape), check_dtype=True)
    compare(lambda x: getattr(F, f"max_pool{rank}d_with_indices")(x, **options),
            lambda x: getattr(TF, f"max_pool{rank}d_with_indices")(x, **options),
            distinct(rng, *shape), check_dtype=True)


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_max_pool_ties_route_the_gradient_like_torch(rank, rng):
    # repeated values: the whole gradient of a window goes to its first maximum
    values = rng.integers(0, 3, size=(2, 3) + (6,) * rank).astype(np.float64)
    compare(lambda x: getattr(F, f"max_pool{rank}d")(x, 3, 2, 1, return_indices=True),
            lambda x: getattr(TF, f"max_pool{rank}d")(x, 3, 2, 1, return_indices=True), values)


def test_max_pool_modules_match_torch(rng):
    x = distinct(rng, 2, 3, 6, 7, 5)
    for ours, theirs, data in [
        (nn.MaxPool1d(3, 2, 1, return_indices=True, ceil_mode=True),
         torch.nn.MaxPool1d(3, 2, 1, return_indices=True, ceil_mode=True), x[:, :, 0, 0]),
        (nn.MaxPool2d((2, 3), dilation=(2, 1)), torch.nn.MaxPool2d((2, 3), dilation=(2, 1)),
         x[:, :, 0]),
        (nn.MaxPool3d(2, (1, 2, 2), 1, return_indices=True),
         torch.nn.MaxPool3d(2, (1, 2, 2), 1, return_indices=True), x),
    ]:
        assert repr(ours) == repr(theirs)
        compare(ours, theirs, data, check_dtype=True)


# ----------------------------------------------------------------------------- average pools

AVG_OPTIONS = [
    dict(kernel_size=2),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
    dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
    dict(kernel_size=2, stride=1, padding=1, count_include_pad=False),
]


@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("options", AVG_OPTIONS)
def test_avg_pool_matches_torch(rank, options, rng):
    shape = (2, 3, 7, 6, 5)[:rank + 2]
    compare(lambda x: getattr(F, f"avg_pool{rank}d")(x, **options),
            lambda x: getattr(TF, f"avg_pool{rank}d")(x, **options),
            rng.standard_normal(shape), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("rank", [2, 3])
def test_avg_pool_divisor_override_and_unbatched_match_torch(rank, rng):
    compare(lambda x: getattr(F, f"avg_pool{rank}d")(x, 3, 2, 1, True, divisor_override=5),
            lambda x: getattr(TF, f"avg_pool{rank}d")(x, 3, 2, 1, True, divisor_override=5),
            rng.standard_normal((3, 7, 6, 5)[:rank + 1]))


def test_avg_pool_modules_match_torch(rng):
    x = rng.standard_normal((2, 3, 6, 7, 5))
    for ours, theirs, data in [
        (nn.AvgPool1d(3, 2, 1, True, False), torch.nn.AvgPool1d(3, 2, 1, True, False),
         x[:, :, 0, 0]),
        (nn.AvgPool2d((2, 3), padding=1, divisor_override=2),
         torch.nn.AvgPool2d((2, 3), padding=1, divisor_override=2), x[:, :, 0]),
        (nn.AvgPool3d(3, 2, 1, ceil_mode=True, count_include_pad=False),
         torch.nn.AvgPool3d(3, 2, 1, ceil_mode=True, count_include_pad=False), x),
    ]:
        assert repr(ours) == repr(theirs)
        compare(ours, theirs, data, rtol=1e-12, atol=1e-12)


# ----------------------------------------------------------------------------- power-average

@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("norm_type, kernel_size, stride, ceil_mode", [
    (2.0, 2, None, False), (3.0, 3, 2, True), (1.5, 2, 1, False), (math.inf, 2, 1, True),
    (-math.inf, 3, 2, False),
])
def test_lp_pool_matches_torch(rank, norm_type, kernel_size, stride, ceil_mode, rng):
    values = rng.uniform(0.2, 2.0, size=(2, 3, 7, 6, 5)[:rank + 2])
    compare(lambda x: getattr(F, f"lp_pool{rank}d")(x, norm_type, kernel_size, stride,
                                                     ceil_mode),
            lambda x: getattr(TF, f"lp_pool{rank}d")(x, norm_type, kernel_size, stride,
                                                      ceil_mode),
            values, rtol=1e-12, atol=1e-12)


def test_lp_pool_zero_windows_have_zero_gradient_like_torch():
    values = np.array([[[0.0, 0.0, 1.0, 2.0, 0.0, -3.0, 0.0, 0.0]]])
    compare(lambda x: F.lp_pool1d(x, 2, 2), lambda x: TF.lp_pool1d(x, 2, 2), values)
    compare(lambda x: F.lp_pool2d(x, 1.5, 2), lambda x: TF.lp_pool2d(x, 1.5, 2),
            np.abs(values).reshape(1, 2, 4))


def test_lp_pool_modules_match_torch(rng):
    x = rng.uniform(0.2, 2.0, size=(3, 6, 7, 5))
    for ours, theirs, data in [
        (nn.LPPool1d(2, 3, 2), torch.nn.LPPool1d(2, 3, 2), x[:, :, 0]),
        (nn.LPPool2d(1.5, (2, 3), ceil_mode=True), torch.nn.LPPool2d(1.5, (2, 3),
                                                                     ceil_mode=True), x),
        (nn.LPPool3d(3, 2), torch.nn.LPPool3d(3, 2), x),
    ]:
        assert repr(ours) == repr(theirs)
        compare(ours, theirs, data, rtol=1e-12, atol=1e-12)


# ----------------------------------------------------------------------------- max unpooling

@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("options, sized", [
    (dict(kernel_size=2), False),
    (dict(kernel_size=3, stride=2, padding=1), True),
])
def test_max_unpool_matches_torch(rank, options, sized, rng):
    data = torch.tensor(distinct(rng, *(2, 2, 8, 6, 4)[:rank + 2]))
    pooled, indices = getattr(TF, f"max_pool{rank}d")(data, return_indices=True, **options)
    size = tuple(data.shape[2:]) if sized else None
    ours = ug.tensor(indices.numpy())

    def unpool(x):
        return getattr(F, f"max_unpool{rank}d")(x, ours, output_size=size, **options)

    def theirs(x):
        return getattr(TF, f"max_unpool{rank}d")(x, indices, output_size=size, **options)
    compare(unpool, theirs, pooled.numpy())


def test_max_unpool_modules_round_trip_like_torch(rng):
    data = distinct(rng, 3, 6, 5)
    ours, theirs = nn.MaxUnpool2d(2, padding=(0, 1)), torch.nn.MaxUnpool2d(2, padding=(0, 1))
    assert repr(ours) == repr(theirs) == ("MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), "
                                          "padding=(0, 1))")
    pooled, indices = TF.max_pool2d(torch.tensor(data), 2, padding=(0, 1), return_indices=True)
    expected = theirs(pooled, indices, output_size=[6, 5])
    got = ours(ug.tensor(pooled.numpy()), ug.tensor(indices.numpy()), output_size=[6, 5])
    np.testing.assert_array_equal(got.numpy(), expected.numpy())
    assert repr(nn.MaxUnpool1d(3, 1)) == repr(torch.nn.MaxUnpool1d(3, 1))
    assert repr(nn.MaxUnpool3d(2)) == repr(torch.nn.MaxUnpool3d(2))


@pytest.mark.parametrize("call, error, message", [
    (lambda: F.max_unpool2d(ug.ones(1, 1, 2), ug.tensor([[[9, 0]]]), 2), RuntimeError,
     "Found an invalid max index: 9"),
    (lambda: F.max_unpool2d(ug.ones(1, 2, 2), ug.zeros(1, 2, 2, dtype=ug.int64), 2,
                            output_size=(9, 4)), ValueError, "invalid output_size"),
    (lambda: F.max_unpool1d(ug.ones(1, 2, 2), ug.zeros(1, 2, 3, dtype=ug.int64), 2),
     RuntimeError, "expected shape of indices to be same as that of the input"),
])
def test_max_unpool_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ----------------------------------------------------------------------------- adaptive pools

@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("size", [1, 3, 4, "none", "input"])
@pytest.mark.parametrize("unbatched", [False, True])
def test_adaptive_pools_match_torch(rank, size, unbatched, rng):
    shape = (7, 5, 6)[:rank]
    if size == "none":
        size = (None,) + (3,) * (rank - 1) if rank > 1 else 3
    elif size == "input":
        size = shape if rank > 1 else shape[0]
    lead = (3,) if unbatched else (2, 3)
    compare(lambda x: getattr(F, f"adaptive_avg_pool{rank}d")(x, size),
            lambda x: getattr(TF, f"adaptive_avg_pool{rank}d")(x, size),
            rng.standard_normal(lead + shape), rtol=1e-12, atol=1e-12)
    compare(lambda x: getattr(F, f"adaptive_max_pool{rank}d")(x, size, return_indices=True),
            lambda x: getattr(TF, f"adaptive_max_pool{rank}d")(x, size, return_indices=True),
            distinct(rng, *lead, *shape), check_dtype=True)
    compare(lambda x: getattr(F, f"adaptive_max_pool{rank}d_with_indices")(x, size),
            lambda x: getattr(TF, f"adaptive_max_pool{rank}d_with_indices")(x, size),
            rng.integers(0, 3, size=lead + shape).astype(np.float64), check_dtype=True)


def test_adaptive_pool_modules_match_torch(rng):
    x = distinct(rng, 2, 3, 7, 5, 6)
    for ours, theirs, data in [
        (nn.AdaptiveAvgPool1d(3), torch.nn.AdaptiveAvgPool1d(3), x[:, :, 0, 0]),
        (nn.AdaptiveAvgPool2d((None, 2)), torch.nn.AdaptiveAvgPool2d((None, 2)), x[:, :, 0]),
        (nn.AdaptiveAvgPool3d((2, 3, 4)), torch.nn.AdaptiveAvgPool3d((2, 3, 4)), x),
        (nn.AdaptiveMaxPool1d(4, True), torch.nn.AdaptiveMaxPool1d(4, True), x[:, :, 0, 0]),
        (nn.AdaptiveMaxPool2d(3), torch.nn.AdaptiveMaxPool2d(3), x[:, :, 0]),
        (nn.AdaptiveMaxPool3d((1, None, 2), return_indices=True),
         torch.nn.AdaptiveMaxPool3d((1, None, 2), return_indices=True), x),
    ]:
        assert repr(ours) == repr(theirs)
        compare(ours, theirs, data, rtol=1e-12, atol=1e-12)


# ----------------------------------------------------------------------------- fractional pools

@pytest.mark.parametrize("rank, kernel_size, options", [
    (2, 2, dict(output_size=(4, 3))),
    (2, (3, 2), dict(output_ratio=(0.5, 0.7))),
    (2, 2, dict(output_size=1)),
    (3, 2, dict(output_size=(4, 3, 2))),
    (3, (2, 3, 1), dict(output_ratio=(0.5, 0.5, 0.8))),
])
@pytest.mark.parametrize("unbatched", [False, True])
def test_fractional_max_pool_with_samples_matches_torch(rank, kernel_size, options, unbatched,
                                                        rng):
    shape = (3, 9, 7, 5)[:rank + 1] if unbatched else (2, 3, 9, 7, 5)[:rank + 2]
    samples = rng.uniform(size=(3, 3, rank))  # extra rows are ignored, as in PyTorch
    ours = ug.tensor(samples)
    theirs = torch.tensor(samples)
    compare(lambda x: getattr(F, f"fractional_max_pool{rank}d")(
                x, kernel_size, return_indices=True, _random_samples=ours, **options),
            lambda x: getattr(TF, f"fractional_max_pool{rank}d")(
                x, kernel_size, return_indices=True, _random_samples=theirs, **options),
            distinct(rng, *shape), check_dtype=True)


def test_fractional_max_pool_float32_samples_match_torch(rng):
    data = distinct(rng, 2, 3, 25, 23).astype(np.float32)
    samples = rng.uniform(size=(2, 3, 2)).astype(np.float32)
    got = F.fractional_max_pool2d(ug.tensor(data), 3, output_size=(11, 10), return_indices=True,
                                  _random_samples=ug.tensor(samples))
    want = TF.fractional_max_pool2d(torch.tensor(data), 3, output_size=(11, 10),
                                    return_indices=True, _random_samples=torch.tensor(samples))
    np.testing.assert_array_equal(got[1].numpy(), want[1].numpy())
    np.testing.assert_array_equal(got[0].numpy(), want[0].numpy())


def test_fractional_max_pool_random_windows_are_valid():
    ug.manual_seed(3)
    x = ug.randn(4, 3, 11, 10)
    output, indices = F.fractional_max_pool2d(x, 3, output_size=(5, 4), return_indices=True)
    assert output.shape == indices.shape == (4, 3, 5, 4)
    flat = x.numpy().reshape(4, 3, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, indices.numpy().reshape(4, 3, -1), -1),
                                  output.numpy().reshape(4, 3, -1))
    # every output is the maximum of a 3 x 3 window holding its index
    rows, cols = indices.numpy() // 10, indices.numpy() % 10
    planes = x.numpy()
    for n, c, i, j in np.ndindex(4, 3, 5, 4):
        row, col = rows[n, c, i, j], cols[n, c, i, j]
        assert any(planes[n, c, r:r + 3, q:q + 3].max() == output.numpy()[n, c, i, j]
                   for r in range(max(0, row - 2), min(row, 8) + 1)
                   for q in range(max(0, col - 2), min(col, 7) + 1))
    # different planes draw different offsets
    assert len({tuple(r) for r in rows[:, :, :, 0].reshape(12, 5)}) > 1
    ug.manual_seed(3)
    again = F.fractional_max_pool2d(ug.randn(4, 3, 11, 10), 3, output_size=(5, 4))
    np.testing.assert_array_equal(again.numpy(), output.numpy())


def test_fractional_max_pool_modules_match_torch(rng):
    samples = rng.uniform(size=(2, 3, 2))
    ours = nn.FractionalMaxPool2d(3, output_ratio=0.5, return_indices=True,
                                  _random_samples=ug.tensor(samples))
    theirs = torch.nn.FractionalMaxPool2d(3, output_ratio=0.5, return_indices=True,
                                          _random_samples=torch.tensor(samples))
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["_random_samples"]
    compare(ours, theirs, distinct(rng, 2, 3, 10, 9), check_dtype=True)
    three = nn.FractionalMaxPool3d((2, 2, 1), output_size=(3, 2, 4))
    assert three(ug.randn(2, 2, 6, 5, 4)).shape == (2, 2, 3, 2, 4)
    with pytest.raises(ValueError, match="output_ratio must be between 0 and 1"):
        nn.FractionalMaxPool2d(2, output_ratio=1.5)
    with pytest.raises(ValueError, match="only one of output_size and output_ratio"):
        nn.FractionalMaxPool2d(2, output_size=3, output_ratio=0.5)
    with pytest.raises(RuntimeError, match="pool height 3 too large relative to input height 4"):
        F.fractional_max_pool2d(ug.ones(1, 4, 4), 3, output_size=3)
    with pytest.raises(RuntimeError, match="no less than input batch size"):
        F.fractional_max_pool2d(ug.ones(3, 1, 4, 4), 2, output_size=2,
                                _random_samples=ug.rand(2, 1, 2))
    with pytest.raises(RuntimeError, match="equals to input channel size"):
        F.fractional_max_pool2d(ug.ones(3, 1, 4, 4), 2, output_size=2,
                                _random_samples=ug.rand(3, 2, 2))


# ----------------------------------------------------------------------------- conv modules

def copy_parameters(ours, theirs) -> None:
    ours.load_state_dict({k: v.detach().numpy() for k, v in theirs.state_dict().items()})


def check_module(ours, theirs, data, rng, **kwargs) -> None:
    """Same repr, state_dict keys and shapes, output and gradients (input and parameters)."""
    assert repr(ours) == repr(theirs)
    assert {k: tuple(v.shape) for k, v in ours.state_dict().items()} == {
        k: tuple(v.shape) for k, v in theirs.state_dict().items()}
    theirs.double()
    ours.double()
    copy_parameters(ours, theirs)
    for parameter in [*ours.parameters(), *theirs.parameters()]:
        parameter.grad = None
    x_ours = ug.tensor(data, requires_grad=True)
    x_theirs = torch.tensor(data, requires_grad=True)
    out, expected = ours(x_ours, **kwargs), theirs(x_theirs, **kwargs)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-10,
                               atol=1e-12)
    upstream = rng.standard_normal(tuple(expected.shape))
    (out * ug.tensor(upstream)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    np.testing.assert_allclose(x_ours.grad.numpy(), x_theirs.grad.numpy(), rtol=1e-10,
                               atol=1e-12)
    for (name, ours_parameter), (_, theirs_parameter) in zip(ours.named_parameters(),
                                                              theirs.named_parameters()):
        np.testing.assert_allclose(ours_parameter.grad.numpy(), theirs_parameter.grad.numpy(),
                                   rtol=1e-10, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("padding_mode", ["zeros", "reflect", "replicate", "circular"])
@pytest.mark.parametrize("rank", [1, 2, 3])
def test_conv_modules_padding_modes_match_torch(padding_mode, rank, rng):
    args = (4, 6, (3, 2, 2)[:rank] if rank > 1 else 3)
    options = dict(stride=2, padding=(2, 1, 0)[:rank] if rank > 1 else 2, groups=2,
                   padding_mode=padding_mode)
    ours = getattr(nn, f"Conv{rank}d")(*args, **options)
    theirs = getattr(torch.nn, f"Conv{rank}d")(*args, **options)
    check_module(ours, theirs, rng.standard_normal((2, 4) + (7, 6, 5)[:rank]), rng)


@pytest.mark.filterwarnings("ignore:Using padding='same'")
@pytest.mark.parametrize("padding", ["same", "valid"])
@pytest.mark.parametrize("padding_mode", ["zeros", "reflect", "circular"])
def test_conv_modules_padding_strings_match_torch(padding, padding_mode, rng):
    ours = nn.Conv3d(2, 3, (2, 3, 4), padding=padding, dilation=(1, 2, 1),
                     padding_mode=padding_mode, bias=False)
    theirs = torch.nn.Conv3d(2, 3, (2, 3, 4), padding=padding, dilation=(1, 2, 1),
                             padding_mode=padding_mode, bias=False)
    check_module(ours, theirs, rng.standard_normal((2, 6, 7, 6)), rng)


@pytest.mark.parametrize("rank, options", [
    (1, dict(stride=2, padding=1, output_padding=1)),
    (2, dict(stride=(2, 3), padding=(1, 0), output_padding=(1, 2), groups=2)),
    (2, dict(dilation=2, bias=False)),
    (3, dict(stride=2, padding=1, dilation=(1, 2, 1), groups=2)),
])
@pytest.mark.parametrize("unbatched", [False, True])
def test_conv_transpose_modules_match_torch(rank, options, unbatched, rng):
    ours = getattr(nn, f"ConvTranspose{rank}d")(4, 6, 3, **options)
    theirs = getattr(torch.nn, f"ConvTranspose{rank}d")(4, 6, 3, **options)
    shape = (4,) + (5, 4, 3)[:rank]
    check_module(ours, theirs, rng.standard_normal(shape if unbatched else (2,) + shape), rng)


def test_conv_transpose_output_size_matches_torch(rng):
    ours, theirs = nn.ConvTranspose2d(3, 2, 3, stride=(2, 3), padding=1), \
        torch.nn.ConvTranspose2d(3, 2, 3, stride=(2, 3), padding=1)
    check_module(ours, theirs, rng.standard_normal((2, 3, 4, 5)), rng, output_size=[8, 15])
    check_module(ours, theirs, rng.standard_normal((3, 4, 5)), rng, output_size=(2, 7, 14))
    with pytest.raises(ValueError, match="requested an output size of \\[9, 15\\], but valid "
                                         "sizes range from \\[7, 13\\] to \\[8, 15\\]"):
        ours(ug.ones(1, 3, 4, 5), output_size=[9, 15])
    with pytest.raises(ValueError, match="output_size must have 2 or 4 elements"):
        ours(ug.ones(1, 3, 4, 5), output_size=[9])


def test_conv_module_initialization_follows_torch():
    ug.manual_seed(0)
    layer = nn.ConvTranspose2d(3, 12, 3, groups=3)
    # bound 1 / sqrt(fan_in) with fan_in = weight.shape[1] * kernel = (12 / 3) * 9
    assert layer.weight.shape == (3, 4, 3, 3) and layer.bias.shape == (12,)
    bound = 1 / math.sqrt(4 * 9)
    assert np.abs(layer.bias.detach().numpy()).max() <= bound
    assert np.abs(layer.weight.detach().numpy()).max() <= bound  # kaiming_uniform_(a=sqrt(5))
    assert np.abs(layer.weight.detach().numpy()).max() > 0.8 * bound
    conv = nn.Conv3d(4, 2, 2, groups=2)
    assert conv.output_padding == (0, 0, 0) and conv.transposed is False
    assert layer.transposed is True and layer.output_padding == (0, 0)
    assert np.abs(conv.bias.detach().numpy()).max() <= 1 / math.sqrt(2 * 8)


@pytest.mark.parametrize("call, error, message", [
    (lambda: nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect"), ValueError,
     'Only "zeros" padding mode is supported for ConvTranspose2d'),
    (lambda: nn.Conv3d(3, 4, 3, groups=2), ValueError, "in_channels must be divisible by groups"),
    (lambda: nn.ConvTranspose1d(2, 3, 3, groups=2), ValueError,
     "out_channels must be divisible by groups"),
    (lambda: nn.Conv3d(2, 2, 3, stride=2, padding="same"), ValueError,
     "padding='same' is not supported for strided convolutions"),
    (lambda: nn.ConvTranspose3d(2, 2, 3, output_padding=-1), ValueError, "output_padding"),
    (lambda: nn.Conv3d(2, 2, 3)(ug.ones(2, 3, 3)), RuntimeError,
     "Expected 4D \\(unbatched\\) or 5D \\(batched\\) input to conv3d"),
])
def test_conv_module_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_pool_errors():
    with pytest.raises(RuntimeError, match="pad should be at most half of effective kernel"):
        F.max_pool3d(ug.ones(1, 4, 4, 4), 2, padding=2)
    with pytest.raises(RuntimeError, match="Expected 4D or 5D input tensor"):
        F.avg_pool3d(ug.ones(4, 4, 4), 2)
    with pytest.raises(RuntimeError, match="Output size is too small"):
        F.max_pool1d(ug.ones(1, 2), 3)
    with pytest.raises(RuntimeError, match="divisor must be not zero"):
        F.avg_pool3d(ug.ones(1, 2, 2, 2), 2, divisor_override=0)
    with pytest.raises(RuntimeError, match="Expected 2D or 3D input tensor"):
        F.adaptive_max_pool1d(ug.ones(4), 2)
    with pytest.raises(ValueError, match="output_size must hold non-negative ints"):
        nn.AdaptiveAvgPool2d((2, -1))
