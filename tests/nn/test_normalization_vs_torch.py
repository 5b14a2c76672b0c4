"""Normalization, dropout variants, distances, embedding_bag, bilinear and lazy layers against
PyTorch: values, input and weight gradients, running statistics, state_dict keys, reprs and
errors (functional forms and modules)."""

from __future__ import annotations

import collections
import math
import warnings

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.functional as F
from unigrad import nn

from .helpers import as_np, to_torch, to_ug

torch = pytest.importorskip("torch")
TF = torch.nn.functional
pytestmark = pytest.mark.torch


def check_against_torch(ours, theirs, *arrays, rtol=1e-10, atol=1e-12):
    """Same value and the same gradient of every floating array, for a random cotangent."""
    ug_args = [to_ug(a, True) for a in arrays]
    torch_args = [to_torch(a, True) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result, expected = ours(*ug_args), theirs(*torch_args)
    np.testing.assert_allclose(as_np(result), expected.detach().numpy(), rtol=rtol, atol=atol)
    upstream = np.random.default_rng(3).standard_normal(tuple(expected.shape))
    (result * ug.tensor(upstream)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    for ug_arg, torch_arg in zip(ug_args, torch_args):
        if isinstance(torch_arg, torch.Tensor) and torch_arg.requires_grad:
            expected_grad = np.zeros(torch_arg.shape) if torch_arg.grad is None else \
                torch_arg.grad.numpy()  # None: not connected (p=0 norms), i.e. zero
            np.testing.assert_allclose(as_np(ug_arg.grad), expected_grad, rtol=rtol, atol=atol)


def both(name, **kwargs):
    """``F.name`` of both libraries with the same keyword arguments."""
    return (lambda *a: getattr(F, name)(*a, **kwargs),
            lambda *a: getattr(TF, name)(*a, **kwargs))


def rng():
    return np.random.default_rng(0)


# ----------------------------------------------------------------------------- functional norms

@pytest.mark.parametrize("shape", [(2, 3, 4), (2, 2, 3, 2), (1, 2, 2, 2, 3)])
def test_instance_norm_updates_running_statistics_as_torch(shape):
    x = rng().standard_normal(shape)
    channels = shape[1]
    weight, bias = rng().standard_normal(channels), rng().uniform(-1, 1, channels)
    mean_ug, var_ug = ug.zeros(channels, dtype=ug.float64), ug.ones(channels, dtype=ug.float64)
    mean_t, var_t = torch.zeros(channels, dtype=torch.float64), torch.ones(channels,
                                                                           dtype=torch.float64)
    check_against_torch(
        lambda a, w, b: F.instance_norm(a, mean_ug, var_ug, w, b, momentum=0.3, eps=1e-3),
        lambda a, w, b: TF.instance_norm(a, mean_t, var_t, w, b, momentum=0.3, eps=1e-3),
        x, weight, bias)
    np.testing.assert_allclose(as_np(mean_ug), mean_t.numpy(), rtol=1e-12)
    np.testing.assert_allclose(as_np(var_ug), var_t.numpy(), rtol=1e-12)


def test_instance_norm_with_running_statistics_only():
    x = rng().standard_normal((2, 3, 5))
    mean, var = rng().standard_normal(3), rng().uniform(0.5, 2, 3)
    check_against_torch(
        lambda a: F.instance_norm(a, ug.tensor(mean), ug.tensor(var), use_input_stats=False),
        lambda a: TF.instance_norm(a, torch.tensor(mean), torch.tensor(var),
                                   use_input_stats=False), x)
    with pytest.raises(RuntimeError, match="Expected running_mean and running_var to be defined"):
        F.instance_norm(ug.ones(2, 3, 4), use_input_stats=False)
    with pytest.raises(ValueError, match="Expected more than 1 spatial element when training"):
        F.instance_norm(ug.ones(2, 3, 1))


@pytest.mark.parametrize("shape, groups, affine", [((2, 4, 3), 2, True), ((3, 6), 3, False),
                                                   ((1, 4, 2, 3), 1, True),
                                                   ((2, 4, 2, 1, 2), 4, True)])
def test_group_norm_matches_torch(shape, groups, affine):
    x = rng().standard_normal(shape)
    parameters = [rng().standard_normal(shape[1]), rng().standard_normal(shape[1])] if affine \
        else []
    ours, theirs = both("group_norm", eps=1e-4)
    check_against_torch(lambda a, *p: ours(a, groups, *p), lambda a, *p: theirs(a, groups, *p),
                        x, *parameters)


def test_group_norm_errors_as_torch():
    with pytest.raises(RuntimeError, match="Expected number of channels in input to be "
                                           r"divisible by num_groups, but got input of shape "
                                           r"\[2, 3, 4\] and num_groups=2"):
        F.group_norm(ug.ones(2, 3, 4), 2)
    with pytest.raises(RuntimeError, match="Expected at least 2 dimensions for input tensor but "
                                           "received 1"):
        F.group_norm(ug.ones(3), 1)
    assert F.group_norm(ug.ones(0, 4, 2), 2).shape == (0, 4, 2)


@pytest.mark.parametrize("eps", [None, 1e-3])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rms_norm_matches_torch_including_default_eps(eps, dtype):
    x = (rng().standard_normal((3, 2, 4)) * 1e-4).astype(dtype)  # small: eps matters
    weight = rng().standard_normal((2, 4)).astype(dtype)
    rtol = 1e-10 if dtype == np.float64 else 1e-5
    check_against_torch(lambda a, w: F.rms_norm(a, (2, 4), w, eps),
                        lambda a, w: TF.rms_norm(a, (2, 4), w, eps), x, weight, rtol=rtol,
                        atol=1e-12 if dtype == np.float64 else 1e-5)
    assert F.rms_norm(ug.tensor(x), [4]).dtype == ug.float32 if dtype == np.float32 else True


@pytest.mark.parametrize("shape, size", [((2, 5, 3), 3), ((1, 4, 2, 2), 2),
                                         ((1, 3, 2, 1, 2), 4), ((2, 6, 2), 1)])
def test_local_response_norm_matches_torch(shape, size):
    x = rng().standard_normal(shape)
    ours, theirs = both("local_response_norm", alpha=0.5, beta=0.6, k=1.5)
    check_against_torch(lambda a: ours(a, size), lambda a: theirs(a, size), x)
    with pytest.raises(ValueError, match="Expected 3D or higher dimensionality"):
        F.local_response_norm(ug.ones(2, 3), 2)


@pytest.mark.parametrize("kwargs", [{}, {"p": 1.0, "dim": 0}, {"p": 3.0, "dim": -1},
                                    {"p": math.inf}, {"eps": 0.5}])
def test_normalize_matches_torch(kwargs):
    x = rng().standard_normal((3, 4))
    x[1] = 0.0  # a zero row: clamped by eps, zero gradient through the norm
    ours, theirs = both("normalize", **kwargs)
    check_against_torch(ours, theirs, x)


def test_batch_norm_eps_errors_and_empty_batch():
    mean, var = ug.zeros(3), ug.ones(3)
    with pytest.raises(ValueError, match="batch_norm eps must be positive during training, but "
                                         "got 0.0"):
        F.batch_norm(ug.ones(4, 3), mean, var, training=True, eps=0.0)
    with pytest.raises(ValueError, match="batch_norm eps must be non-negative, but got -1.0"):
        F.batch_norm(ug.ones(4, 3), mean, var, eps=-1.0)
    assert mean.tolist() == [0.0] * 3
    out = F.batch_norm(ug.ones(0, 3, 2), mean, var, training=True)
    assert out.shape == (0, 3, 2) and mean.tolist() == [0.0] * 3 and var.tolist() == [1.0] * 3


@pytest.mark.parametrize("shape", [(4, 3), (3, 2, 5), (2, 2, 2, 3), (2, 2, 1, 2, 3)])
def test_batch_norm_functional_ranks_and_running_statistics(shape):
    x = rng().standard_normal(shape)
    channels = shape[1]
    mean_ug, var_ug = ug.zeros(channels, dtype=ug.float64), ug.ones(channels, dtype=ug.float64)
    mean_t = torch.zeros(channels, dtype=torch.float64)
    var_t = torch.ones(channels, dtype=torch.float64)
    weight, bias = rng().standard_normal(channels), rng().standard_normal(channels)
    check_against_torch(lambda a, w, b: F.batch_norm(a, mean_ug, var_ug, w, b, True, 0.2),
                        lambda a, w, b: TF.batch_norm(a, mean_t, var_t, w, b, True, 0.2),
                        x, weight, bias)
    np.testing.assert_allclose(as_np(mean_ug), mean_t.numpy(), rtol=1e-12)
    np.testing.assert_allclose(as_np(var_ug), var_t.numpy(), rtol=1e-12)


# ----------------------------------------------------------------------------- distances

@pytest.mark.parametrize("shapes, kwargs", [(((3, 4), (3, 4)), {}),
                                            (((3, 1, 4), (1, 2, 4)), {"dim": -1}),
                                            (((2, 3), (2, 3)), {"dim": 0, "eps": 0.5})])
def test_cosine_similarity_matches_torch(shapes, kwargs):
    arrays = [rng().standard_normal(shape) for shape in shapes]
    ours, theirs = both("cosine_similarity", **kwargs)
    check_against_torch(ours, theirs, *arrays)


def test_cosine_similarity_clamped_norm_gradient_is_torchs():
    x1 = rng().standard_normal((2, 3)) * 1e-6  # norms below eps: clamped, gradient unclamped
    x2 = rng().standard_normal((2, 3))
    x2[1] = 0.0
    ours, theirs = both("cosine_similarity", eps=1e-3)
    check_against_torch(ours, theirs, x1, x2)


@pytest.mark.parametrize("kwargs", [{}, {"p": 1.0, "keepdim": True}, {"p": 3.0, "eps": 0.0},
                                    {"p": math.inf}, {"p": 0.5}, {"p": 0.0}])
def test_pairwise_distance_matches_torch(kwargs):
    x1, x2 = rng().standard_normal((4, 5)), rng().standard_normal((4, 5)) + 0.5
    ours, theirs = both("pairwise_distance", **kwargs)
    check_against_torch(ours, theirs, x1, x2)
    check_against_torch(ours, theirs, x1[0], x2[:, :])  # 1-D against 2-D broadcasts


@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, math.inf, 0.0])
def test_pdist_matches_torch_including_repeated_rows(p):
    x = rng().standard_normal((5, 3))
    x[3] = x[1]  # a zero distance: PyTorch's gradient there is 0
    ours, theirs = both("pdist", p=p)
    check_against_torch(ours, theirs, x)


def test_pdist_errors_and_edge_shapes():
    with pytest.raises(RuntimeError, match="pdist only supports 2D tensors, got: 1D"):
        F.pdist(ug.ones(3))
    with pytest.raises(RuntimeError, match="pdist only supports non-negative p values"):
        F.pdist(ug.ones(3, 2), p=-1.0)
    assert F.pdist(ug.ones(1, 3)).shape == (0,)


# ----------------------------------------------------------------------------- embedding_bag

BAG_CASES = [
    ({"mode": "sum"}, [0, 2, 2, 5]),
    ({"mode": "mean"}, [0, 3]),
    ({"mode": "max"}, [0, 1, 4]),
    ({"mode": "mean", "padding_idx": 2}, [0, 1, 3]),
    ({"mode": "max", "padding_idx": 2}, [0, 1, 3]),
    ({"mode": "sum", "include_last_offset": True}, [0, 2, 4, 6]),
    ({"mode": "mean", "include_last_offset": True}, [0, 2, 2, 6]),
    ({"mode": "max", "include_last_offset": True}, [0, 2, 6]),
]


@pytest.mark.parametrize("kwargs, offsets", BAG_CASES)
def test_embedding_bag_matches_torch(kwargs, offsets):
    indices = np.array([0, 2, 4, 2, 1, 3])
    weight = rng().standard_normal((5, 3))
    check_against_torch(
        lambda w: F.embedding_bag(ug.tensor(indices), w, ug.tensor(offsets), **kwargs),
        lambda w: TF.embedding_bag(torch.tensor(indices), w, torch.tensor(offsets), **kwargs),
        weight)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_2d_input_matches_torch(mode):
    indices = np.array([[0, 2, 1], [4, 4, 3]])
    weight = rng().standard_normal((5, 2))
    check_against_torch(lambda w: F.embedding_bag(ug.tensor(indices), w, mode=mode),
                        lambda w: TF.embedding_bag(torch.tensor(indices), w, mode=mode), weight)


def test_embedding_bag_per_sample_weights_gradients():
    indices, offsets = np.array([1, 0, 1, 3]), np.array([0, 1])
    check_against_torch(
        lambda w, s: F.embedding_bag(ug.tensor(indices), w, ug.tensor(offsets), mode="sum",
                                     per_sample_weights=s),
        lambda w, s: TF.embedding_bag(torch.tensor(indices), w, torch.tensor(offsets),
                                      mode="sum", per_sample_weights=s),
        rng().standard_normal((4, 2)), rng().standard_normal(4))


@pytest.mark.parametrize("call, error, message", [
    (lambda w: F.embedding_bag(ug.tensor([1, 2]), w, ug.tensor([1])), RuntimeError,
     "offsets\\[0\\] has to be 0"),
    (lambda w: F.embedding_bag(ug.tensor([1, 5]), w, ug.tensor([0])), RuntimeError,
     "Index 1 of input takes value 5 which is not in the valid range \\[0, 4\\)"),
    (lambda w: F.embedding_bag(ug.tensor([1, 2]), w, ug.tensor([0, 3])), RuntimeError,
     "offsets\\[-1\\] can not be greater than input's length 2"),
    (lambda w: F.embedding_bag(ug.tensor([1, 2]), w, ug.tensor([0]), padding_idx=7),
     RuntimeError, "padding_idx must be within the number of embeddings, -4 through 3"),
    (lambda w: F.embedding_bag(ug.tensor([1, 2]), w, ug.tensor([0]), mode="min"), ValueError,
     "mode has to be one of sum, mean or max"),
    (lambda w: F.embedding_bag(ug.tensor([1, 2]), w, ug.tensor([0]), mode="max",
                               per_sample_weights=ug.ones(2)), NotImplementedError,
     "per_sample_weights is only supported for mode='sum'"),
    (lambda w: F.embedding_bag(ug.tensor([1, 2]), w), ValueError,
     "offsets has to be a 1D Tensor but got None"),
    (lambda w: F.embedding_bag(ug.tensor([[1, 2]]), w, ug.tensor([0])), ValueError,
     "if input is 2D, then offsets has to be None"),
    (lambda w: F.embedding_bag(ug.tensor([1, 2]), w, ug.tensor([0]),
                               per_sample_weights=ug.ones(3)), ValueError,
     "embedding_bag: If per_sample_weights"),
    (lambda w: F.embedding_bag(ug.tensor([1, 2]), w.reshape(-1), ug.tensor([0])), ValueError,
     "weight has to be a 2D Tensor, but got Tensor of dimension 1"),
])
def test_embedding_bag_errors(call, error, message):
    weight = ug.ones(4, 2)
    with pytest.raises(error, match=message):
        call(weight)


# ----------------------------------------------------------------------------- bilinear

@pytest.mark.parametrize("shapes", [((3, 2), (3, 4), (5, 2, 4), (5,)),
                                    ((2, 2, 3), (2, 2, 1), (2, 3, 1)),
                                    ((2,), (3,), (1, 2, 3), (1,))])
def test_bilinear_matches_torch(shapes):
    arrays = [rng().standard_normal(shape) for shape in shapes]
    check_against_torch(F.bilinear, TF.bilinear, *arrays)


def test_bilinear_errors():
    with pytest.raises(RuntimeError, match="input batch dimensions do not match at dim 0: got "
                                           "2 and 3"):
        F.bilinear(ug.ones(2, 3), ug.ones(3, 4), ug.ones(5, 3, 4))
    with pytest.raises(RuntimeError, match="input1 size does not match weight size: got 3 but "
                                           "expected 2"):
        F.bilinear(ug.ones(2, 3), ug.ones(2, 4), ug.ones(5, 2, 4))
    with pytest.raises(RuntimeError, match="bias size does not match weight size: got 4 but "
                                           "expected 5"):
        F.bilinear(ug.ones(2, 3), ug.ones(2, 4), ug.ones(5, 3, 4), ug.ones(4))


# ----------------------------------------------------------------------------- dropout variants

@pytest.mark.parametrize("function, shape, channel_shape", [
    (F.dropout1d, (4, 6, 5), (4, 6, 1)), (F.dropout1d, (6, 5), (6, 1)),
    (F.dropout2d, (3, 6, 2, 2), (3, 6, 1, 1)), (F.dropout3d, (2, 4, 2, 1, 2), (2, 4, 1, 1, 1)),
    (F.dropout3d, (4, 2, 1, 2), (4, 1, 1, 1))])
def test_channel_dropout_zeroes_whole_channels(function, shape, channel_shape):
    ug.manual_seed(1)
    x = ug.tensor(rng().uniform(1, 2, shape), requires_grad=True)
    out = function(x, p=0.5)
    ratio = as_np(out) / as_np(x)
    within_channel = tuple(axis for axis, size in enumerate(channel_shape) if size == 1)
    np.testing.assert_allclose(np.broadcast_to(ratio.max(axis=within_channel, keepdims=True),
                                               shape), ratio, rtol=1e-12)
    assert set(np.unique(np.round(ratio, 12))) == {0.0, 2.0}
    out.sum().backward()
    np.testing.assert_allclose(as_np(x.grad), ratio, rtol=1e-12)
    assert function(x, p=0.5, training=False) is x


def test_channel_dropout_statistics_and_inplace():
    ug.manual_seed(2)
    x = ug.ones(200, 50, 2)
    kept = (as_np(F.dropout1d(x, p=0.3))[..., 0] != 0).mean()
    assert abs(kept - 0.7) < 0.02
    y = ug.ones(2, 3, 4)
    result = F.dropout1d(y, p=1.0, inplace=True)
    assert result is y and y.tolist() == np.zeros((2, 3, 4)).tolist()


def test_channel_dropout_warnings_and_errors_as_torch():
    with pytest.raises(RuntimeError, match="dropout1d: Expected 2D or 3D input, but received a "
                                           "4D input"):
        F.dropout1d(ug.ones(1, 2, 3, 4))
    with pytest.warns(UserWarning, match="dropout2d: Received a 3D input to dropout2d and "
                                         "assuming that channel-wise 1D dropout"):
        F.dropout2d(ug.ones(2, 3, 4))
    with pytest.warns(UserWarning, match="dropout3d: Received a 3-D input to dropout3d, which "
                                         "is deprecated"):
        F.dropout3d(ug.ones(2, 3, 4), training=False)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but "
                                         "got 1.5"):
        F.dropout2d(ug.ones(1, 2, 3, 4), p=1.5)


def test_alpha_dropout_values_and_statistics():
    p = 0.2
    alpha = 1.7580993408473766
    scale = 1.0 / math.sqrt((alpha * alpha * p + 1) * (1 - p))
    x = ug.tensor(rng().standard_normal(20000))
    ug.manual_seed(3)
    out = as_np(F.alpha_dropout(x, p, training=True))
    kept = np.isclose(out, scale * as_np(x) + alpha * scale * p)
    dropped = np.isclose(out, alpha * scale * p - alpha * scale)
    assert np.all(kept | dropped) and abs(kept.mean() - (1 - p)) < 0.01
    assert abs(out.mean()) < 0.03 and abs(out.std() - 1.0) < 0.03
    assert F.alpha_dropout(x, p) is x  # training=False by default, as PyTorch
    assert F.alpha_dropout(x, 1.0, training=True).tolist() == [0.0] * 20000


def test_feature_alpha_dropout_drops_whole_channels():
    ug.manual_seed(4)
    out = as_np(F.feature_alpha_dropout(ug.zeros(3, 8, 4, dtype=ug.float64), 0.5, True))
    assert np.all(out == out[..., :1])
    assert len(np.unique(np.round(out, 10))) == 2
    with pytest.raises(RuntimeError, match="Feature dropout requires at least 2 dimensions"):
        F.feature_alpha_dropout(ug.ones(3), 0.5, True)


# ----------------------------------------------------------------------------- module helpers

def copy_state(ours, theirs) -> None:
    """Load torch's state (parameters and buffers) into ours, in float64."""
    ours.load_state_dict({name: ug.tensor(value.detach().numpy())
                          for name, value in theirs.state_dict().items()})


def compare_module(ours, theirs, *inputs, rtol=1e-10, atol=1e-12):
    """Same outputs, input and parameter gradients and state afterwards."""
    ug_inputs = [ug.tensor(x, requires_grad=x.dtype.kind == "f") for x in inputs]
    torch_inputs = [torch.tensor(x, requires_grad=x.dtype.kind == "f") for x in inputs]
    result, expected = ours(*ug_inputs), theirs(*torch_inputs)
    np.testing.assert_allclose(as_np(result), expected.detach().numpy(), rtol=rtol, atol=atol)
    if expected.requires_grad:
        upstream = np.random.default_rng(5).standard_normal(tuple(expected.shape))
        (result * ug.tensor(upstream)).sum().backward()
        (expected * torch.tensor(upstream)).sum().backward()
        for mine, theirs_input in zip(ug_inputs, torch_inputs):
            if theirs_input.requires_grad:
                np.testing.assert_allclose(as_np(mine.grad), theirs_input.grad.numpy(),
                                           rtol=rtol, atol=atol)
        mine_parameters = dict(ours.named_parameters())
        for name, parameter in theirs.named_parameters():
            if parameter.grad is not None:
                np.testing.assert_allclose(as_np(mine_parameters[name].grad),
                                           parameter.grad.numpy(), rtol=rtol, atol=atol)
    theirs_state = theirs.state_dict()
    assert list(ours.state_dict()) == list(theirs_state)
    for name, value in ours.state_dict().items():
        np.testing.assert_allclose(as_np(value), theirs_state[name].numpy(), rtol=rtol,
                                   atol=atol)


def module_pair(name, *args, **kwargs):
    theirs = getattr(torch.nn, name)(*args, **kwargs).double()
    ours = getattr(nn, name)(*args, **kwargs).double()
    with torch.no_grad():  # non-trivial affine parameters
        for parameter in theirs.parameters():
            parameter.copy_(torch.randn(parameter.shape, dtype=torch.float64))
    copy_state(ours, theirs)
    assert repr(ours) == repr(theirs)
    return ours, theirs


# ----------------------------------------------------------------------------- norm modules

@pytest.mark.parametrize("name, shape, kwargs", [
    ("BatchNorm1d", (4, 3), {"momentum": None}),
    ("BatchNorm1d", (4, 3, 2), {"affine": False}),
    ("BatchNorm2d", (2, 3, 2, 2), {"track_running_stats": False}),
    ("BatchNorm3d", (2, 3, 2, 1, 2), {"momentum": 0.3}),
    ("BatchNorm3d", (2, 3, 1, 2, 2), {"momentum": None, "bias": False}),
    ("SyncBatchNorm", (3, 3, 2), {}),
])
def test_batch_norm_modules_over_several_steps(name, shape, kwargs):
    ours, theirs = module_pair(name, 3, **kwargs)
    for step in range(3):
        x = np.random.default_rng(step).standard_normal(shape)
        compare_module(ours, theirs, x)
    ours.eval()
    theirs.eval()
    compare_module(ours, theirs, np.random.default_rng(9).standard_normal(shape))


@pytest.mark.parametrize("name, shape, kwargs", [
    ("InstanceNorm1d", (2, 3, 4), {}),
    ("InstanceNorm1d", (3, 4), {"affine": True}),
    ("InstanceNorm2d", (2, 3, 2, 3), {"affine": True, "track_running_stats": True}),
    ("InstanceNorm2d", (3, 2, 3), {"track_running_stats": True, "momentum": None}),
    ("InstanceNorm3d", (2, 3, 2, 1, 2), {"affine": True, "track_running_stats": True,
                                         "momentum": 0.4}),
    ("InstanceNorm3d", (3, 2, 2, 2), {"affine": True}),
])
def test_instance_norm_modules_over_several_steps(name, shape, kwargs):
    ours, theirs = module_pair(name, 3, **kwargs)
    for step in range(2):
        compare_module(ours, theirs, np.random.default_rng(step).standard_normal(shape))
    ours.eval()
    theirs.eval()
    compare_module(ours, theirs, np.random.default_rng(7).standard_normal(shape))


def test_instance_norm_channel_mismatch():
    with pytest.raises(ValueError, match=r"expected input's size at dim=1 to match num_features "
                                         r"\(3\), but got: 2\."):
        nn.InstanceNorm1d(3, affine=True)(ug.ones(2, 2, 4))
    with pytest.warns(UserWarning, match="input's size at dim=0 does not match num_features"):
        nn.InstanceNorm1d(3)(ug.ones(2, 4))
    with pytest.raises(ValueError, match=r"expected 3D or 4D input \(got 2D input\)"):
        nn.InstanceNorm2d(3)(ug.ones(2, 4))


@pytest.mark.parametrize("name, args, kwargs, shape", [
    ("GroupNorm", (2, 4), {}, (3, 4, 5)),
    ("GroupNorm", (3, 6), {"affine": False, "eps": 1e-3}, (2, 6)),
    ("GroupNorm", (1, 2), {"bias": False}, (2, 2, 2, 2)),
    ("RMSNorm", ((2, 3),), {}, (4, 2, 3)),
    ("RMSNorm", (3,), {"eps": 1e-2, "elementwise_affine": False}, (2, 3)),
    ("LocalResponseNorm", (3,), {"alpha": 0.5, "beta": 0.7, "k": 2.0}, (2, 5, 3)),
    ("LocalResponseNorm", (2,), {}, (2, 4, 2, 2)),
    ("LayerNorm", ((2, 3),), {"bias": False}, (3, 2, 3)),
    ("CrossMapLRN2d", (3,), {"alpha": 0.5, "beta": 0.75, "k": 1}, (2, 3, 2, 2)),
    ("CrossMapLRN2d", (5,), {"alpha": 0.5, "beta": 0.75, "k": 2}, (2, 4, 1, 2)),
])
def test_stateless_norm_modules_match_torch(name, args, kwargs, shape):
    ours, theirs = module_pair(name, *args, **kwargs)
    compare_module(ours, theirs, np.random.default_rng(3).standard_normal(shape))


def test_cross_map_lrn2d_values_over_many_channels():
    # PyTorch's running-sum windows keep channel 0 in every window: the values match them
    x = np.random.default_rng(4).standard_normal((2, 7, 2, 2))
    theirs = torch.nn.CrossMapLRN2d(3, alpha=0.5, beta=0.75, k=1)
    expected = theirs(torch.tensor(x)).numpy()
    np.testing.assert_allclose(as_np(nn.CrossMapLRN2d(3, 0.5, 0.75, 1)(ug.tensor(x))), expected,
                               rtol=1e-10)
    with pytest.raises(ValueError, match="CrossMapLRN2d: Expected input to be 4D, got 3D "
                                         "instead."):
        nn.CrossMapLRN2d(3)(ug.ones(1, 2, 3))


def test_norm_module_constructor_errors():
    with pytest.raises(ValueError, match="num_channels must be divisible by num_groups"):
        nn.GroupNorm(2, 3)
    with pytest.raises(ValueError, match=r"expected 5D input \(got 4D input\)"):
        nn.BatchNorm3d(2)(ug.ones(2, 2, 2, 2))
    with pytest.raises(ValueError, match=r"expected at least 2D input \(got 1D input\)"):
        nn.SyncBatchNorm(2)(ug.ones(2))


def test_sync_batch_norm_conversion_shares_state():
    net = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3, momentum=None),
                        nn.Sequential(nn.BatchNorm2d(3, affine=False)))
    net.eval()
    bn = net[1]
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(net)
    assert converted is net
    assert type(net[1]).__name__ == "SyncBatchNorm" and type(net[2][0]).__name__ == \
        "SyncBatchNorm"
    assert net[1].weight is bn.weight and net[1].running_mean is bn.running_mean
    assert net[1].momentum is None and not net[1].training and net[2][0].weight is None
    assert list(net.state_dict()) == list(torch.nn.SyncBatchNorm.convert_sync_batchnorm(
        torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.BatchNorm1d(3),
                            torch.nn.Sequential(torch.nn.BatchNorm2d(3, affine=False))))
        .state_dict())


# ----------------------------------------------------------------------------- lazy modules

@pytest.mark.parametrize("name, kwargs, shape, becomes", [
    ("LazyBatchNorm1d", {}, (4, 3), "BatchNorm1d"),
    ("LazyBatchNorm2d", {"affine": False}, (2, 3, 2, 2), "BatchNorm2d"),
    ("LazyBatchNorm3d", {"momentum": None}, (2, 3, 1, 2, 2), "BatchNorm3d"),
    ("LazyInstanceNorm1d", {}, (2, 3, 4), "InstanceNorm1d"),
    ("LazyInstanceNorm2d", {"track_running_stats": False}, (2, 3, 2, 2), "InstanceNorm2d"),
    ("LazyInstanceNorm3d", {"bias": False}, (2, 3, 2, 1, 2), "InstanceNorm3d"),
    ("LazyLinear", {"out_features": 4}, (2, 5), "Linear"),
])
def test_lazy_modules_materialize_like_torch(name, kwargs, shape, becomes):
    ours, theirs = getattr(nn, name)(**kwargs), getattr(torch.nn, name)(**kwargs)
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert ours.has_uninitialized_params()
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    ours(ug.tensor(x))
    theirs(torch.tensor(x))
    assert type(ours).__name__ == type(theirs).__name__ == becomes
    assert repr(ours) == repr(theirs)
    theirs_state = theirs.state_dict()
    assert list(ours.state_dict()) == list(theirs_state)
    for key, value in ours.state_dict().items():
        assert value.shape == tuple(theirs_state[key].shape)
        if becomes != "Linear":  # the linear weights are random draws
            np.testing.assert_allclose(as_np(value), theirs_state[key].numpy(), rtol=1e-6)
    copy_state(ours, theirs)
    compare_module(ours.double(), theirs.double(), np.random.default_rng(1).standard_normal(shape),
                   rtol=1e-9)


def test_lazy_linear_initialization_bounds_and_state_dict_loading():
    layer = nn.LazyLinear(3)
    assert repr(layer.weight) == "<UninitializedParameter>"
    layer(ug.ones(2, 400))
    bound = 1 / math.sqrt(400)
    assert np.abs(as_np(layer.weight)).max() <= bound and np.abs(as_np(layer.bias)).max() <= \
        bound
    assert np.abs(as_np(layer.weight)).max() > 0.9 * bound
    fresh = nn.LazyLinear(3)
    fresh.load_state_dict(layer.state_dict())
    np.testing.assert_array_equal(as_np(fresh.weight), as_np(layer.weight))
    assert fresh(ug.ones(1, 400)).shape == (1, 3) and type(fresh).__name__ == "Linear"


def test_uninitialized_parameter_materialize():
    weight = nn.UninitializedParameter(dtype=ug.float64)
    assert repr(weight) == "<UninitializedParameter>"
    weight.materialize((2, 3))
    assert type(weight) is nn.Parameter and weight.shape == (2, 3)
    assert weight.dtype == ug.float64 and weight.requires_grad


# ----------------------------------------------------------------------------- other modules

@pytest.mark.parametrize("name, kwargs, shape", [("Dropout1d", {"p": 0.2}, (2, 3, 4)),
                                                 ("Dropout2d", {}, (2, 3, 2, 2)),
                                                 ("Dropout3d", {"inplace": True}, (2, 3, 2, 2, 2)),
                                                 ("AlphaDropout", {"p": 0.3}, (4,)),
                                                 ("FeatureAlphaDropout", {}, (2, 3, 2))])
def test_dropout_modules_repr_and_eval(name, kwargs, shape):
    ours, theirs = getattr(nn, name)(**kwargs), getattr(torch.nn, name)(**kwargs)
    assert repr(ours) == repr(theirs)
    x = ug.ones(*shape)
    assert ours.eval()(x) is x
    assert ours.train()(x).shape == shape
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        getattr(nn, name)(p=-0.1)


def test_alpha_dropout_module_trains():
    ug.manual_seed(0)
    out = as_np(nn.AlphaDropout(0.5)(ug.zeros(1000)))
    assert len(np.unique(np.round(out, 10))) == 2


@pytest.mark.parametrize("name, kwargs", [("CosineSimilarity", {}),
                                          ("CosineSimilarity", {"dim": 0, "eps": 0.1}),
                                          ("PairwiseDistance", {}),
                                          ("PairwiseDistance", {"p": 1.0, "keepdim": True})])
def test_distance_modules_match_torch(name, kwargs):
    ours, theirs = module_pair(name, **kwargs)
    generator = np.random.default_rng(0)
    compare_module(ours, theirs, generator.standard_normal((3, 4)),
                   generator.standard_normal((3, 4)))


@pytest.mark.parametrize("kwargs, offsets", [({}, [0, 2, 3]),
                                             ({"mode": "sum", "padding_idx": 1}, [0, 2, 3]),
                                             ({"mode": "max", "include_last_offset": True},
                                              [0, 2, 5])])
def test_embedding_bag_module_matches_torch(kwargs, offsets):
    ours, theirs = module_pair("EmbeddingBag", 5, 3, **kwargs)
    compare_module(ours, theirs, np.array([0, 1, 4, 1, 3]), np.array(offsets))


def test_embedding_bag_module_max_norm_matches_torch():
    weight = np.random.default_rng(0).standard_normal((5, 3)) * 3
    indices, offsets = np.array([0, 1, 1, 3, 1]), np.array([0, 2])
    for kwargs in ({"max_norm": 1.5}, {"max_norm": 2.0, "norm_type": 1.0, "mode": "sum"}):
        ours = nn.EmbeddingBag.from_pretrained(ug.tensor(weight), freeze=False, **kwargs)
        theirs = torch.nn.EmbeddingBag.from_pretrained(torch.tensor(weight), freeze=False,
                                                       **kwargs)
        assert repr(ours) == repr(theirs)
        compare_module(ours, theirs, indices, offsets)  # the renormalized weights too


@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_embedding_bag_module_scale_grad_by_freq_is_documented_semantics(mode):
    # Each row's gradient is divided by its index's count in the mini-batch (PyTorch's
    # documented semantics, which torch.nn.Embedding follows; torch's CPU embedding_bag kernel
    # divides some rows by another index's count), so the reference is an Embedding lookup
    weight = np.random.default_rng(0).standard_normal((5, 3))
    indices, offsets = np.array([0, 1, 1, 3, 1]), [0, 2]
    ours = nn.EmbeddingBag.from_pretrained(ug.tensor(weight), freeze=False, mode=mode,
                                           scale_grad_by_freq=True)
    reference = torch.tensor(weight, requires_grad=True)
    rows = TF.embedding(torch.tensor(indices), reference, scale_grad_by_freq=True)
    reduce = torch.sum if mode == "sum" else torch.mean
    expected = torch.stack([reduce(rows[0:2], 0), reduce(rows[2:], 0)])
    result = ours(ug.tensor(indices), ug.tensor(offsets))
    np.testing.assert_allclose(as_np(result), expected.detach().numpy(), rtol=1e-12)
    upstream = np.random.default_rng(1).standard_normal((2, 3))
    (result * ug.tensor(upstream)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    np.testing.assert_allclose(as_np(ours.weight.grad), reference.grad.numpy(), rtol=1e-12)
    assert repr(ours) == f"EmbeddingBag(5, 3, scale_grad_by_freq=True, mode='{mode}')"


def test_embedding_bag_module_per_sample_weights_and_from_pretrained():
    weight = np.random.default_rng(1).standard_normal((4, 2))
    ours = nn.EmbeddingBag.from_pretrained(ug.tensor(weight), mode="sum")
    theirs = torch.nn.EmbeddingBag.from_pretrained(torch.tensor(weight), mode="sum")
    assert not ours.weight.requires_grad
    samples = np.random.default_rng(2).standard_normal(3)
    np.testing.assert_allclose(
        as_np(ours(ug.tensor([1, 2, 3]), ug.tensor([0, 1]), ug.tensor(samples))),
        theirs(torch.tensor([1, 2, 3]), torch.tensor([0, 1]), torch.tensor(samples)).numpy(),
        rtol=1e-12)
    with pytest.raises(ValueError, match="mode has to be one of sum, mean or max"):
        nn.EmbeddingBag(3, 2, mode="median")


def test_bilinear_module_matches_torch():
    ours, theirs = module_pair("Bilinear", 2, 3, 4)
    generator = np.random.default_rng(0)
    compare_module(ours, theirs, generator.standard_normal((5, 2)),
                   generator.standard_normal((5, 3)))
    bound = 1 / math.sqrt(2)
    fresh = nn.Bilinear(2, 3, 4, bias=False)
    assert fresh.bias is None and np.abs(as_np(fresh.weight)).max() <= bound
    assert list(fresh.state_dict()) == ["weight"]


def test_linear_accepts_torchs_keyword():
    layer = nn.Linear(2, 1)
    assert layer(input=ug.ones(3, 2)).shape == (3, 1)


def test_embedding_from_pretrained_matches_torch():
    weight = np.random.default_rng(0).standard_normal((4, 2))
    ours = nn.Embedding.from_pretrained(ug.tensor(weight), padding_idx=1)
    theirs = torch.nn.Embedding.from_pretrained(torch.tensor(weight), padding_idx=1)
    assert repr(ours) == repr(theirs)
    np.testing.assert_allclose(as_np(ours(ug.tensor([[1, 3]]))),
                               theirs(torch.tensor([[1, 3]])).numpy())


def test_channel_dropout_under_vmap_draws_per_example_channel_masks():
    ug.manual_seed(5)
    out = as_np(ug.vmap(lambda x: F.dropout2d(x), randomness="different")(ug.ones(6, 2, 8, 2, 2)))
    np.testing.assert_array_equal(out, np.broadcast_to(out[..., :1, :1], out.shape))
    assert not np.all(out[0] == out[1:])  # the examples' masks differ
    with pytest.raises(ValueError, match="called random operation dropout1d"):
        ug.vmap(lambda x: F.dropout1d(x))(ug.ones(2, 3, 4))  # randomness="error" by default


def test_lazy_modules_survive_deepcopy_and_dtype_conversion():
    import copy
    original = nn.LazyBatchNorm2d().double()
    clone = copy.deepcopy(original)
    assert repr(clone.running_mean) == "<UninitializedBuffer>"
    clone(ug.ones(2, 3, 2, 2, dtype=ug.float64))
    assert type(clone).__name__ == "BatchNorm2d" and clone.running_mean.dtype == ug.float64
    np.testing.assert_allclose(as_np(clone.running_mean), [0.1] * 3)
    assert type(original).__name__ == "LazyBatchNorm2d" and original.has_uninitialized_params()


@pytest.mark.parametrize("kwargs", [{"max_norm": 1.0}, {"max_norm": 2.0, "norm_type": 1.0},
                                    {"scale_grad_by_freq": True},
                                    {"scale_grad_by_freq": True, "padding_idx": 1,
                                     "max_norm": 1.5}])
def test_functional_embedding_options_match_torch(kwargs):
    indices = np.array([[0, 1, 1], [3, 1, 0]])
    weight = np.random.default_rng(0).standard_normal((5, 3)) * 2
    ours_weight = ug.tensor(weight, requires_grad=True)
    theirs_weight = torch.tensor(weight, requires_grad=True)
    result = F.embedding(ug.tensor(indices), ours_weight, **kwargs)
    expected = TF.embedding(torch.tensor(indices), theirs_weight, **kwargs)
    np.testing.assert_allclose(as_np(result), expected.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(as_np(ours_weight), theirs_weight.detach().numpy(), rtol=1e-12)
    upstream = np.random.default_rng(1).standard_normal(tuple(expected.shape))
    (result * ug.tensor(upstream)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    np.testing.assert_allclose(as_np(ours_weight.grad), theirs_weight.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_functional_embedding_bag_max_norm_matches_torch(mode):
    indices, offsets = np.array([0, 1, 1, 3, 4]), np.array([0, 2])
    weight = np.random.default_rng(0).standard_normal((5, 3)) * 2
    ours_weight, theirs_weight = ug.tensor(weight), torch.tensor(weight)
    result = F.embedding_bag(ug.tensor(indices), ours_weight, ug.tensor(offsets), max_norm=1.0,
                             mode=mode)
    expected = TF.embedding_bag(torch.tensor(indices), theirs_weight, torch.tensor(offsets),
                                max_norm=1.0, mode=mode)
    np.testing.assert_allclose(as_np(result), expected.numpy(), rtol=1e-12)
    np.testing.assert_allclose(as_np(ours_weight), theirs_weight.numpy(), rtol=1e-12)
    with pytest.raises(ValueError, match="max mode does not support scaling the gradient"):
        F.embedding_bag(ug.tensor(indices), ours_weight, ug.tensor(offsets), mode="max",
                        scale_grad_by_freq=True)


@pytest.mark.parametrize("call, error, message", [
    (lambda: F.group_norm(ug.ones(2, 4, 3), 2, ug.ones(3)), RuntimeError,
     r"Expected weight to be a vector of size equal to the number of channels in input, but "
     r"got weight of shape \[3\] and input of shape \[2, 4, 3\]"),
    (lambda: F.rms_norm(ug.ones(2, 3), (3,), ug.ones(2)), RuntimeError,
     r"Expected weight to be of same shape as normalized_shape, but got weight of shape \[2\] "
     r"and normalized_shape = \[3\]"),
    (lambda: F.layer_norm(ug.ones(2, 3), (3,), None, ug.ones(2)), RuntimeError,
     r"Expected bias to be of same shape as normalized_shape"),
    (lambda: F.local_response_norm(ug.ones(1, 2, 3), 0), RuntimeError,
     "greater than zero"),
    (lambda: F.instance_norm(ug.ones(2, 4, 3), weight=ug.ones(3)), RuntimeError,
     "weight should contain 4 elements not 3"),
])
def test_normalization_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_normalize_writes_out():
    x = np.random.default_rng(0).standard_normal((2, 3))
    out = ug.zeros(2, 3, dtype=ug.float64)
    result = F.normalize(ug.tensor(x), out=out)
    assert result is out
    np.testing.assert_allclose(as_np(out), TF.normalize(torch.tensor(x)).numpy(), rtol=1e-12)


def test_batch_norm_without_per_channel_tensors_takes_any_channel_count():
    ours, theirs = module_pair("BatchNorm2d", 3, affine=False, track_running_stats=False)
    compare_module(ours, theirs, np.random.default_rng(0).standard_normal((2, 5, 2, 2)))


def test_embedding_bag_old_argument_order_warns_and_swaps():
    weight = ug.tensor(np.random.default_rng(0).standard_normal((4, 2)))
    with pytest.warns(UserWarning, match="Argument order of nn.functional.embedding_bag was "
                                         "changed"):
        swapped = F.embedding_bag(weight, ug.tensor([1, 2]), ug.tensor([0]))
    np.testing.assert_allclose(as_np(swapped),
                               as_np(F.embedding_bag(ug.tensor([1, 2]), weight, ug.tensor([0]))))
    with pytest.raises(RuntimeError, match="expected indices of an integer dtype"):
        F.embedding_bag(ug.tensor([1.0]), weight, ug.tensor([0]))


# ----------------------------------------------------------------------------- seeded references
# (the op table's jit checks cannot run random ops: these are its value checks for them)

_SELU_LIMIT = 1.7580993408473766  # -SELU(-inf): the value alpha dropout drops to (before scaling)


def _channel_draw_shape(shape, batched=True):
    if not batched:
        return shape[:1] + (1,) * (len(shape) - 1)
    return shape[:2] + (1,) * (len(shape) - 2)


def channel_dropout_reference(x, p, batched=True):
    """The generator seeded with 0 draws one uniform per channel; kept ones scale by 1/(1-p)."""
    keep = np.random.default_rng(0).random(_channel_draw_shape(x.shape, batched)) >= p
    return x * keep / (1 - p)


def alpha_dropout_reference(x, p, per_channel=False):
    shape = _channel_draw_shape(x.shape) if per_channel else x.shape
    keep = (np.random.default_rng(0).random(shape) >= p).astype(float)
    scale = 1.0 / np.sqrt((_SELU_LIMIT ** 2 * p + 1) * (1 - p))
    return x * keep * scale + (keep - 1) * _SELU_LIMIT * scale + _SELU_LIMIT * scale * p


@pytest.mark.parametrize("function, reference, shape, p", [
    (F.dropout1d, channel_dropout_reference, (3, 4, 2), 0.4),
    (F.dropout1d, lambda x, p: channel_dropout_reference(x, p, batched=False), (5, 3), 0.5),
    (F.dropout2d, channel_dropout_reference, (2, 5, 2, 2), 0.3),
    (F.dropout3d, channel_dropout_reference, (2, 4, 2, 1, 2), 0.5),
    (lambda x, p: F.alpha_dropout(x, p, True), alpha_dropout_reference, (4, 5), 0.2),
    (lambda x, p: F.feature_alpha_dropout(x, p, True),
     lambda x, p: alpha_dropout_reference(x, p, per_channel=True), (3, 4, 2), 0.5),
])
def test_random_dropouts_equal_numpy_reference_of_the_seeded_draws(function, reference, shape,
                                                                    p):
    x = np.random.default_rng(1).standard_normal(shape)
    expected = reference(x, p)
    ug.manual_seed(0)  # the default generator then draws what default_rng(0) draws
    tensor = ug.tensor(x, requires_grad=True)
    result = function(tensor, p)
    np.testing.assert_allclose(as_np(result), expected, rtol=1e-12, atol=1e-15)
    result.sum().backward()
    slope = reference(np.ones(shape), p) - reference(np.zeros(shape), p)  # the mask times scale
    np.testing.assert_allclose(as_np(tensor.grad), slope, rtol=1e-12, atol=1e-15)


def test_old_checkpoints_without_num_batches_tracked_load_as_in_torch():
    current = ug.nn.BatchNorm2d(3)
    old = collections.OrderedDict((k, v) for k, v in current.state_dict().items()
                                  if k != "num_batches_tracked")
    old._metadata = {"": {"version": 1}}  # saved before num_batches_tracked existed
    _ = current.num_batches_tracked.fill_(5)
    assert str(current.load_state_dict(old)) == "<All keys matched successfully>"
    assert current.num_batches_tracked.item() == 0
    new = collections.OrderedDict(old)
    new._metadata = {"": {"version": 2}}  # a current checkpoint missing the key: reported
    result = current.load_state_dict(new, strict=False)
    assert result.missing_keys == ["num_batches_tracked"]
