"""Resampling and padding against PyTorch: interpolate (every mode, align_corners, size /
scale_factor / recompute_scale_factor, antialias, 3-D/4-D/5-D), grid_sample (every mode and
padding mode, gradients w.r.t. input and grid), affine_grid, pixel/channel shuffles, their
modules, the padding modules; values, gradients, reprs, warnings and errors (float64)."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.functional as F

from ..ops.torch_comparison import compare

torch = pytest.importorskip("torch")
TF = torch.nn.functional

pytestmark = pytest.mark.torch


def _normal(*shape, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


# ----------------------------------------------------------------------------- interpolate

SHAPES = {1: (2, 2, 5), 2: (1, 2, 5, 4), 3: (1, 2, 3, 4, 2)}
RESIZES = [{"size": 7}, {"size": 3}, {"scale_factor": 1.7}, {"scale_factor": 0.6},
           {"scale_factor": 2}, {"scale_factor": 2.5, "recompute_scale_factor": True},
           {"scale_factor": 1.0001}]


@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("mode", ["nearest", "nearest-exact", "area"])
@pytest.mark.parametrize("resize", RESIZES, ids=str)
def test_interpolate_non_interpolating_modes(rank, mode, resize):
    # torch's 1-D/3-D nearest backward copies an axis of unchanged size although its forward
    # does not: our gradient is the forward's true gradient, so only values are compared there
    inconsistent = mode == "nearest" and rank != 2 and resize == {"scale_factor": 1.0001}
    compare(lambda x: F.interpolate(x, mode=mode, **resize),
            lambda x: TF.interpolate(x, mode=mode, **resize), _normal(*SHAPES[rank]),
            grad=not inconsistent)


@pytest.mark.parametrize("mode", ["linear", "bilinear", "bicubic", "trilinear"])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("resize", RESIZES, ids=str)
def test_interpolate_interpolating_modes(mode, align_corners, resize):
    rank = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}[mode]
    # torch's bicubic backward copies an axis of unchanged size but its forward does not: our
    # gradient is the forward's true gradient, so only values are compared there
    inconsistent = mode == "bicubic" and resize == {"scale_factor": 1.0001}
    compare(lambda x: F.interpolate(x, mode=mode, align_corners=align_corners, **resize),
            lambda x: TF.interpolate(x, mode=mode, align_corners=align_corners, **resize),
            _normal(*SHAPES[rank]), grad=not inconsistent)


@pytest.mark.parametrize("mode, align_corners", [("bilinear", False), ("bilinear", True),
                                                  ("bicubic", False), ("bicubic", True),
                                                  ("lanczos", False)])
@pytest.mark.parametrize("resize", [{"size": (3, 2)}, {"scale_factor": 0.4}, {"size": (9, 5)},
                                    {"size": (1, 1)}, {"scale_factor": 1.0001}], ids=str)
def test_interpolate_antialias(mode, align_corners, resize):
    # torch's antialiased forward copies an axis of unchanged size but its backward does not
    inconsistent = resize == {"scale_factor": 1.0001} and not align_corners
    compare(lambda x: F.interpolate(x, mode=mode, align_corners=align_corners, antialias=True,
                                    **resize),
            lambda x: TF.interpolate(x, mode=mode, align_corners=align_corners, antialias=True,
                                     **resize),
            _normal(1, 2, 7, 6), grad=not inconsistent)


def test_interpolate_per_axis_sizes_and_scales():
    x = _normal(1, 1, 4, 6)
    compare(lambda v: F.interpolate(v, size=[3, 8], mode="bilinear"),
            lambda v: TF.interpolate(v, size=[3, 8], mode="bilinear"), x)
    compare(lambda v: F.interpolate(v, scale_factor=(0.5, 1.5), mode="bicubic"),
            lambda v: TF.interpolate(v, scale_factor=(0.5, 1.5), mode="bicubic"), x)


def test_interpolate_float32_keeps_dtype_and_values():
    x = _normal(1, 2, 3, 5).astype(np.float32)
    ours = F.interpolate(ug.tensor(x), scale_factor=1.5, mode="bicubic")
    theirs = TF.interpolate(torch.tensor(x), scale_factor=1.5, mode="bicubic")
    assert ours.dtype == ug.float32
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("call", [
    lambda f, x: f.interpolate(x, size=2, scale_factor=2),
    lambda f, x: f.interpolate(x),
    lambda f, x: f.interpolate(x, size=(2, 3, 4)),
    lambda f, x: f.interpolate(x, scale_factor=(2, 3, 4)),
    lambda f, x: f.interpolate(x, size=(2, 2.5)),
    lambda f, x: f.interpolate(x, size=2, mode="nearest", align_corners=True),
    lambda f, x: f.interpolate(x, size=2, recompute_scale_factor=True),
    lambda f, x: f.interpolate(x, size=2, mode="linear"),
    lambda f, x: f.interpolate(x, size=2, mode="trilinear"),
    lambda f, x: f.interpolate(x, size=2, mode="cubic"),
    lambda f, x: f.interpolate(x, size=2, mode="nearest", antialias=True),
    lambda f, x: f.interpolate(x, size=(0, 3)),
    lambda f, x: f.interpolate(x, scale_factor=0.1),
    lambda f, x: f.interpolate(x[0, 0], size=2),
    lambda f, x: f.interpolate(x[0], size=2, mode="bicubic"),
    lambda f, x: f.interpolate(x, size=2, mode="lanczos"),
    lambda f, x: f.interpolate(x, size=2, mode="lanczos", antialias=True, align_corners=True),
    lambda f, x: f.interpolate(x[0], size=2, mode="lanczos", antialias=True),
    lambda f, x: f.interpolate(x[0], size=2, mode="lanczos"),
])
def test_interpolate_errors_match_torch(call):
    x = _normal(1, 2, 4, 5)
    with pytest.raises(Exception) as theirs:
        call(TF, torch.tensor(x))
    with pytest.raises(type(theirs.value)) as ours:
        call(F, ug.tensor(x))
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("name, kwargs", [
    ("upsample", {"scale_factor": 2, "mode": "bilinear", "align_corners": False}),
    ("upsample_nearest", {"size": (3, 7)}),
    ("upsample_bilinear", {"scale_factor": 1.5}),
])
def test_deprecated_upsample_functions_warn_and_match(name, kwargs):
    x = _normal(1, 2, 2, 3)
    with pytest.warns(UserWarning, match=f"`nn.functional.{name}` is deprecated"):
        ours = getattr(F, name)(ug.tensor(x), **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = getattr(TF, name)(torch.tensor(x), **kwargs)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12, atol=1e-12)


# ----------------------------------------------------------------------------- grid_sample

def _grid(*shape, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1.25, 1.25, size=shape)


@pytest.mark.parametrize("mode, padding_mode, align_corners", list(itertools.product(
    ["bilinear", "nearest", "bicubic"], ["zeros", "border", "reflection"], [False, True])))
def test_grid_sample_2d_values_and_gradients(mode, padding_mode, align_corners):
    def sample(f):
        return lambda x, g: f.grid_sample(x, g, mode=mode, padding_mode=padding_mode,
                                          align_corners=align_corners)
    compare(sample(F), sample(TF), _normal(2, 3, 4, 5), _grid(2, 3, 6, 2))
    compare(sample(F), sample(TF), _normal(1, 2, 1, 3), _grid(1, 2, 2, 2, seed=2))


@pytest.mark.parametrize("mode, padding_mode, align_corners", list(itertools.product(
    ["bilinear", "nearest"], ["zeros", "border", "reflection"], [False, True])))
def test_grid_sample_3d_values_and_gradients(mode, padding_mode, align_corners):
    def sample(f):
        return lambda x, g: f.grid_sample(x, g, mode=mode, padding_mode=padding_mode,
                                          align_corners=align_corners)
    compare(sample(F), sample(TF), _normal(2, 2, 3, 4, 2), _grid(2, 2, 3, 2, 3))


def test_grid_sample_gradient_of_nearest_grid_is_zeros():
    x, g = ug.tensor(_normal(1, 1, 3, 3)), ug.tensor(_grid(1, 2, 2, 2), requires_grad=True)
    F.grid_sample(x, g, mode="nearest", align_corners=False).sum().backward()
    np.testing.assert_array_equal(g.grad.numpy(), np.zeros((1, 2, 2, 2)))


def test_grid_sample_align_corners_none_warns_like_torch():
    x, g = _normal(1, 1, 3, 3), _grid(1, 2, 2, 2)
    with pytest.warns(UserWarning, match="Default grid_sample and affine_grid behavior"):
        ours = F.grid_sample(ug.tensor(x), ug.tensor(g))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = TF.grid_sample(torch.tensor(x), torch.tensor(g))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("input_shape, grid_shape, kwargs", [
    ((1, 2, 3, 3), (1, 2, 2, 3), {}),
    ((1, 2, 3, 3), (2, 2, 2, 2), {}),
    ((1, 2, 3, 3), (1, 2, 2, 2, 2), {}),
    ((1, 1, 2, 2, 2), (1, 2, 2, 2, 3), {"mode": "bicubic"}),
    ((1, 2, 3, 3), (1, 2, 2, 2), {"mode": "linear"}),
    ((1, 2, 3, 3), (1, 2, 2, 2), {"padding_mode": "wrap"}),
])
def test_grid_sample_errors_match_torch(input_shape, grid_shape, kwargs):
    x, g = _normal(*input_shape), _grid(*grid_shape)
    with pytest.raises(Exception) as theirs:
        TF.grid_sample(torch.tensor(x), torch.tensor(g), align_corners=False, **kwargs)
    with pytest.raises(type(theirs.value)) as ours:
        F.grid_sample(ug.tensor(x), ug.tensor(g), align_corners=False, **kwargs)
    assert str(ours.value) == str(theirs.value)


def test_integer_inputs_are_refused_where_torch_refuses_them():
    with pytest.raises(NotImplementedError, match="mode 'bilinear' needs a floating-point input"):
        F.interpolate(ug.ones(1, 1, 2, 2, dtype=ug.int64), size=3, mode="bilinear")
    with pytest.raises(NotImplementedError, match="expected floating-point input and grid"):
        F.grid_sample(ug.ones(1, 1, 2, 2, dtype=ug.int64), ug.zeros(1, 1, 1, 2, dtype=ug.int64),
                      align_corners=False)


def test_interpolate_nearest_keeps_integer_dtype():
    out = F.interpolate(ug.tensor([[[1, 2]]]), scale_factor=2)
    assert out.dtype == ug.int64
    assert out.tolist() == [[[1, 1, 2, 2]]]


def test_empty_batches_match_torch():
    x, g = _normal(0, 2, 3, 4), _grid(0, 2, 5, 2)
    compare(lambda v: F.interpolate(v, size=(4, 5), mode="bicubic"),
            lambda v: TF.interpolate(v, size=(4, 5), mode="bicubic"), x)
    compare(lambda v, w: F.grid_sample(v, w, align_corners=False),
            lambda v, w: TF.grid_sample(v, w, align_corners=False), x, g)


def test_interpolate_refuses_a_fractional_size():
    with pytest.raises(TypeError, match="expected size to be one of int"):
        F.interpolate(ug.ones(1, 1, 2, 2), size=2.5)


def test_grid_sample_refuses_mixed_dtypes():
    with pytest.raises(RuntimeError, match="expected input and grid to have same dtype"):
        F.grid_sample(ug.ones(1, 1, 2, 2), ug.zeros(1, 1, 1, 2, dtype=ug.float64),
                      align_corners=False)


# ----------------------------------------------------------------------------- affine_grid

@pytest.mark.parametrize("size", [(2, 3, 4, 5), (2, 1, 1, 3), (2, 1, 3, 2, 4)])
@pytest.mark.parametrize("align_corners", [False, True])
def test_affine_grid_values_and_theta_gradient(size, align_corners):
    rank = len(size) - 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compare(lambda t: F.affine_grid(t, size, align_corners=align_corners),
                lambda t: TF.affine_grid(t, size, align_corners=align_corners),
                _normal(2, rank, rank + 1))


def test_affine_grid_composes_with_grid_sample():
    theta, image = _normal(2, 2, 3) * 0.5, _normal(2, 3, 4, 5)
    compare(lambda t, x: F.grid_sample(x, F.affine_grid(t, (2, 3, 3, 4), align_corners=False),
                                       align_corners=False),
            lambda t, x: TF.grid_sample(x, TF.affine_grid(t, (2, 3, 3, 4), align_corners=False),
                                        align_corners=False),
            theta, image)


@pytest.mark.parametrize("theta_shape, size", [
    ((1, 2, 3), (1, 1, 0, 2)), ((1, 3, 4), (1, 1, 2, 2)), ((1, 2, 3), (1, 1, 2, 2, 2)),
    ((1, 2, 3), (1, 2, 3)),
])
def test_affine_grid_errors_match_torch(theta_shape, size):
    theta = _normal(*theta_shape)
    with pytest.raises(Exception) as theirs:
        TF.affine_grid(torch.tensor(theta), size, align_corners=False)
    with pytest.raises(type(theirs.value)) as ours:
        F.affine_grid(ug.tensor(theta), size, align_corners=False)
    assert str(ours.value) == str(theirs.value)


def test_affine_grid_refuses_integer_theta():
    with pytest.raises(ValueError, match="Expected theta to have floating point type"):
        F.affine_grid(ug.zeros(1, 2, 3, dtype=ug.int64), (1, 1, 2, 2), align_corners=False)


# ----------------------------------------------------------------------------- shuffles

@pytest.mark.parametrize("name, shape, factor", [
    ("pixel_shuffle", (2, 8, 2, 3), 2), ("pixel_shuffle", (9, 1, 2), 3),
    ("pixel_shuffle", (2, 1, 4, 2, 1), 2), ("pixel_unshuffle", (2, 2, 4, 6), 2),
    ("pixel_unshuffle", (1, 3, 3), 3), ("pixel_unshuffle", (2, 1, 1, 2, 4), 2),
    ("channel_shuffle", (2, 6, 3), 3), ("channel_shuffle", (1, 4, 2, 2, 2), 2),
    ("native_channel_shuffle", (2, 6, 3), 2),
])
def test_shuffles_match_torch(name, shape, factor):
    # torch has no derivative for native_channel_shuffle; its gradient is channel_shuffle's
    compare(lambda x: getattr(F, name)(x, factor), lambda x: getattr(TF, name)(x, factor),
            _normal(*shape), grad=name != "native_channel_shuffle")


@pytest.mark.parametrize("name, shape, factor", [
    ("pixel_shuffle", (4, 4), 2), ("pixel_shuffle", (1, 5, 2, 2), 0),
    ("pixel_shuffle", (1, 5, 2, 2), 2), ("pixel_unshuffle", (4, 4), 2),
    ("pixel_unshuffle", (1, 1, 4, 4), 0), ("pixel_unshuffle", (1, 1, 5, 4), 2),
    ("pixel_unshuffle", (1, 1, 4, 5), 2), ("channel_shuffle", (4, 4), 2),
    ("channel_shuffle", (1, 4, 2), 0), ("channel_shuffle", (1, 5, 2), 2),
])
def test_shuffle_errors_match_torch(name, shape, factor):
    x = _normal(*shape)
    with pytest.raises(Exception) as theirs:
        getattr(TF, name)(torch.tensor(x), factor)
    with pytest.raises(type(theirs.value)) as ours:
        getattr(F, name)(ug.tensor(x), factor)
    assert str(ours.value) == str(theirs.value)


# ----------------------------------------------------------------------------- modules

def _module_pair(name: str, *args, **kwargs):
    return getattr(ug.nn, name)(*args, **kwargs), getattr(torch.nn, name)(*args, **kwargs)


def _same_forward(ours, theirs, x: np.ndarray) -> None:
    source, target = ug.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    got, want = ours(source), theirs(target)
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-12,
                               atol=1e-12)
    weights = _normal(*want.shape, seed=5)
    (got * ug.tensor(weights)).sum().backward()
    (want * torch.tensor(weights)).sum().backward()
    np.testing.assert_allclose(source.grad.numpy(), target.grad.numpy(), rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("name, args, kwargs, shape", [
    ("Upsample", (), {"scale_factor": 2}, (1, 2, 3)),
    ("Upsample", (), {"size": (3, 5), "mode": "bilinear"}, (1, 2, 2, 3)),
    ("Upsample", (), {"scale_factor": (1.5, 2.0), "mode": "bicubic", "align_corners": True},
     (1, 1, 2, 3)),
    ("Upsample", (), {"scale_factor": 1.5, "mode": "trilinear",
                      "recompute_scale_factor": True}, (1, 1, 2, 3, 2)),
    ("UpsamplingNearest2d", (), {"scale_factor": 3}, (1, 2, 2, 2)),
    ("UpsamplingBilinear2d", (), {"size": (4, 5)}, (1, 2, 2, 3)),
    ("PixelShuffle", (2,), {}, (1, 8, 2, 2)),
    ("PixelUnshuffle", (2,), {}, (1, 1, 4, 2)),
    ("ChannelShuffle", (3,), {}, (2, 6, 2)),
    ("Fold", ((3, 4), 2), {"stride": 1}, (2, 8, 6)),
    ("Unfold", ((2, 3),), {"padding": 1, "stride": (1, 2)}, (2, 2, 3, 4)),
])
def test_resampling_modules_match_torch(name, args, kwargs, shape):
    ours, theirs = _module_pair(name, *args, **kwargs)
    assert repr(ours) == repr(theirs)
    _same_forward(ours, theirs, _normal(*shape))


def test_upsample_module_attributes_match_torch():
    ours, theirs = _module_pair("Upsample", scale_factor=(2, 3), mode="nearest-exact")
    for attribute in ("name", "size", "scale_factor", "mode", "align_corners",
                      "recompute_scale_factor"):
        assert getattr(ours, attribute) == getattr(theirs, attribute)


PADDINGS = [
    ("ConstantPad1d", ((2, 1), 3.5), (2, 4)), ("ConstantPad2d", ((1, 0, 2, 1), -1.0), (2, 3, 3)),
    ("ConstantPad3d", (1, 0.5), (1, 2, 2, 2)), ("ConstantPad2d", (2, 1.0), (1, 1, 2, 2)),
    ("ZeroPad1d", ((0, 2),), (1, 2, 3)), ("ZeroPad2d", ((1, 1, 2, 0),), (2, 3, 3)),
    ("ZeroPad3d", (1,), (1, 2, 2, 2)),
    ("ReflectionPad1d", ((2, 1),), (2, 4)), ("ReflectionPad2d", ((1, 1, 2, 0),), (1, 2, 3, 4)),
    ("ReflectionPad3d", (1,), (1, 2, 2, 3, 2)),
    ("ReplicationPad1d", ((3, 1),), (1, 2, 3)), ("ReplicationPad2d", (2,), (2, 3, 3)),
    ("ReplicationPad3d", ((1, 0, 2, 1, 0, 1),), (1, 1, 2, 2, 2)),
    ("CircularPad1d", ((2, 1),), (2, 4)), ("CircularPad2d", ((1, 0, 2, 1),), (1, 2, 3, 4)),
    ("CircularPad3d", (1,), (1, 2, 2, 3, 2)),
    ("ZeroPad2d", ((-1, 1, 0, -1),), (1, 3, 3)),
]


@pytest.mark.parametrize("name, args, shape", PADDINGS)
def test_padding_modules_match_torch(name, args, shape):
    ours, theirs = _module_pair(name, *args)
    assert repr(ours) == repr(theirs)
    assert ours.padding == theirs.padding
    _same_forward(ours, theirs, _normal(*shape))


@pytest.mark.parametrize("name, shape", [
    ("CircularPad1d", (4,)), ("CircularPad2d", (2, 2)), ("CircularPad3d", (2, 2, 2)),
    ("ReflectionPad1d", (2, 2)), ("ReplicationPad2d", (3,)),
    ("ConstantPad3d", (2,)),
])
def test_padding_module_errors_match_torch(name, shape):
    ours, theirs = _module_pair(name, *((2, 0.0) if name.startswith("Constant") else (2,)))
    x = _normal(*shape)
    with pytest.raises(Exception) as expected:
        theirs(torch.tensor(x))
    with pytest.raises(type(expected.value)):
        ours(ug.tensor(x))


def test_padding_modules_are_constant_pads_and_reject_non_integers():
    assert isinstance(ug.nn.ZeroPad2d(1), ug.nn.ConstantPad2d)
    assert ug.nn.ZeroPad2d(1).value == 0.0
    with pytest.raises(TypeError, match="padding"):
        ug.nn.ReflectionPad2d(1.5)
    with pytest.raises(TypeError, match="value"):
        ug.nn.ConstantPad1d(1, "zero")
