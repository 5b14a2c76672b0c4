"""Layers: values and gradients against NumPy references and PyTorch, registration, modes."""

from __future__ import annotations

import math

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.functional as F
from unigrad import nn

from .helpers import as_np

# ----------------------------------------------------------------------------- helpers


def load_torch_state(ours: nn.Cell, theirs) -> None:
    """Copy a torch module's parameters and buffers into ``ours`` (same names)."""
    ours.load_state_dict({k: v.detach().numpy() for k, v in theirs.state_dict().items()})


def check_against_torch(ours, theirs, torch, x: np.ndarray, rng, atol=1e-10, rtol=1e-7,
                        integer_input=False):
    """Same output, input gradient and parameter gradients through ``.backward()``."""
    if integer_input:
        x_ours, x_theirs = ug.tensor(x), torch.tensor(x)
    else:
        x_ours = ug.tensor(x, requires_grad=True)
        x_theirs = torch.tensor(x, requires_grad=True)
    out, expected = ours(x_ours), theirs(x_theirs)
    np.testing.assert_allclose(as_np(out), expected.detach().numpy(), rtol=rtol, atol=atol)
    upstream = rng.standard_normal(tuple(expected.shape))
    (out * ug.tensor(upstream)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    if not integer_input:
        np.testing.assert_allclose(as_np(x_ours.grad), x_theirs.grad.numpy(), rtol=rtol,
                                   atol=atol)
    names = [name for name, _ in ours.named_parameters()]
    assert names == [name for name, _ in theirs.named_parameters()]
    theirs_params = dict(theirs.named_parameters())
    for name, param in ours.named_parameters():
        np.testing.assert_allclose(as_np(param.grad), theirs_params[name].grad.numpy(),
                                   rtol=rtol, atol=atol, err_msg=name)
    return out


# ----------------------------------------------------------------------------- Dense / Linear


def test_seed_004_network_gives_the_tutorial_numbers():
    class Net(nn.Cell):
        def __init__(self, in_channel, out_channel):
            super().__init__()
            self.fc = nn.Dense(in_channel, out_channel, has_bias=False)
            self.loss = nn.MSELoss()

        def construct(self, x, y):
            logits = self.fc(x).squeeze()
            return self.loss(logits, y), logits

    net = Net(3, 1)
    net.fc.weight.set_data(ug.tensor([[2.0, 3.0, 4.0]]))
    assert [(p.name, p.tolist()) for p in net.trainable_params()] == [
        ("fc.weight", [[2.0, 3.0, 4.0]])]
    x, y = ug.tensor([[1.0, 2.0, 3.0]]), ug.tensor(19.0)
    loss, logits = net(x, y)
    assert logits.item() == 20.0 and loss.item() == 1.0
    loss.backward()
    assert net.fc.weight.grad.tolist() == [[2.0, 4.0, 6.0]]
    grads = ug.grad(lambda x, y: net(x, y)[0], grad_position=(0, 1))(x, y)
    assert grads[0].tolist() == [[4.0, 6.0, 8.0]] and grads[1].item() == -2.0


def test_dense_matches_numpy_for_every_input_rank(rng):
    w, b = rng.standard_normal((4, 3)), rng.standard_normal(4)
    layer = nn.Dense(3, 4, weight_init=ug.tensor(w), bias_init=ug.tensor(b), dtype=ug.float64)
    for shape in [(3,), (5, 3), (2, 5, 3)]:
        x = rng.standard_normal(shape)
        np.testing.assert_allclose(as_np(layer(ug.tensor(x))), x @ w.T + b, rtol=1e-12)
    x = ug.tensor(rng.standard_normal((5, 3)), requires_grad=True)
    layer(x).sum().backward()
    np.testing.assert_allclose(as_np(layer.weight.grad), np.tile(as_np(x).sum(0), (4, 1)))
    np.testing.assert_allclose(as_np(layer.bias.grad), np.full(4, 5.0))
    np.testing.assert_allclose(as_np(x.grad), np.tile(w.sum(0), (5, 1)))


def test_dense_activation_and_initializers():
    net = nn.Dense(2, 3, weight_init="ones", bias_init=-1.0, activation="relu")
    out = net(ug.tensor([[0.25, 0.25], [2.0, 1.0]]))
    assert out.tolist() == [[0.0, 0.0, 0.0], [2.0, 2.0, 2.0]]
    assert repr(net).startswith("Dense(\n  input_channels=2, output_channels=3, has_bias=True, "
                                "activation=ReLU()\n  (activation): ReLU()\n)")
    tanh = nn.Dense(1, 1, weight_init=2.0, bias_init="zeros", activation=nn.Tanh())
    assert math.isclose(tanh(ug.tensor([[0.5]])).item(), math.tanh(1.0), rel_tol=1e-6)
    softmax = nn.Dense(2, 2, weight_init="zeros", bias_init="zeros", activation="softmax")
    assert softmax(ug.ones(3, 2)).tolist() == [[0.5, 0.5]] * 3
    gelu = nn.Dense(1, 1, weight_init=1.0, bias_init=0.0, activation="gelu")
    x = 1.5
    tanh_gelu = 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    assert math.isclose(gelu(ug.tensor([[x]])).item(), tanh_gelu, rel_tol=1e-6)  # MindSpore's
    assert nn.Dense(1, 1, activation=ug.sigmoid, weight_init=0.0, bias_init=0.0)(
        ug.ones(1, 1)).item() == 0.5


def test_dense_default_init_statistics_follow_pytorch():
    ug.manual_seed(4)
    layer = nn.Dense(400, 300)
    bound = 1 / math.sqrt(400)  # kaiming_uniform(a=sqrt(5)) and the bias rule give the same bound
    weight, bias = as_np(layer.weight), as_np(layer.bias)
    assert weight.dtype == np.float32 and weight.shape == (300, 400)
    assert np.abs(weight).max() <= bound and np.abs(weight).max() > 0.99 * bound
    assert abs(weight.mean()) < 0.01 * bound
    assert math.isclose(weight.std(), bound / math.sqrt(3), rel_tol=0.01)
    assert np.abs(bias).max() <= bound and bias.std() > 0.4 * bound
    ug.manual_seed(4)
    again = nn.Dense(400, 300)
    assert np.array_equal(as_np(again.weight), weight) and np.array_equal(as_np(again.bias), bias)


def test_dense_registration_repr_and_state_dict():
    dense = nn.Dense(3, 1, has_bias=False)
    assert [p.name for p in dense.trainable_params()] == ["weight"]
    assert dense.bias is None and list(dense.state_dict()) == ["weight"]
    assert repr(dense) == "Dense(input_channels=3, output_channels=1)"
    assert repr(nn.Dense(3, 1)) == "Dense(input_channels=3, output_channels=1, has_bias=True)"
    linear = nn.Linear(3, 1)
    assert repr(linear) == "Linear(in_features=3, out_features=1, bias=True)"
    assert isinstance(linear, nn.Dense) and (linear.in_features, linear.out_features) == (3, 1)
    assert repr(nn.Linear(3, 1, bias=False)) == "Linear(in_features=3, out_features=1, bias=False)"
    assert [name for name, _ in linear.named_parameters()] == ["weight", "bias"]
    assert nn.Dense(2, 2, dtype=ug.float64).weight.dtype == ug.float64
    assert nn.Linear(2, 2, dtype=ug.float16).bias.dtype == ug.float16


def test_dense_and_linear_input_errors():
    with pytest.raises(ValueError, match=r"in_channels=3.*last dimension is 4"):
        nn.Dense(3, 2)(ug.ones(1, 4))
    with pytest.raises(ValueError, match="in_channels=3"):
        nn.Dense(3, 2)(ug.tensor(1.0))
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied "
                                           r"\(6x4 and 3x2\)"):
        nn.Linear(3, 2)(ug.ones(2, 3, 4))
    with pytest.raises(ValueError, match=r"For 'Dense', the argument 'weight_init' cannot "
                                         r"initialize a parameter of shape \(2, 3\)"):
        nn.Dense(3, 2, weight_init=ug.ones(3, 2))
    with pytest.raises(ValueError, match=r"'bias_init' cannot .* 'init' must be one of"):
        nn.Conv2d(3, 2, 1, bias_init="glorot")
    with pytest.raises(TypeError, match="'has_bias' must be a bool"):
        nn.Dense(3, 2, has_bias="yes")
    with pytest.raises(TypeError, match="'activation' must be a str, a Cell"):
        nn.Dense(3, 2, activation=3)
    with pytest.raises(ValueError, match="activation 'nope' is not supported"):
        nn.Dense(3, 2, activation="nope")
    with pytest.raises(ValueError, match="'in_features' must be a non-negative integer"):
        nn.Linear(-1, 2)
    with pytest.raises(TypeError, match="'dtype' must be a floating-point dtype"):
        nn.Linear(2, 2, dtype=ug.int64)


@pytest.mark.torch
def test_linear_matches_torch(rng):
    torch = pytest.importorskip("torch")
    theirs = torch.nn.Linear(5, 3).double()
    ours = nn.Linear(5, 3, dtype=ug.float64)
    load_torch_state(ours, theirs)
    check_against_torch(ours, theirs, torch, rng.standard_normal((2, 4, 5)), rng)


# ----------------------------------------------------------------------------- convolution


def conv2d_reference(x, w, b, stride, padding, dilation, groups):
    """Direct loops over output positions (NCHW)."""
    x = np.pad(x, ((0, 0), (0, 0), (padding[0], padding[0]), (padding[1], padding[1])))
    n, c, h, wd = x.shape
    out_c, in_per_group, kh, kw = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, out_c, oh, ow))
    per_group = out_c // groups
    for o in range(out_c):
        g = o // per_group
        channels = x[:, g * in_per_group:(g + 1) * in_per_group]
        for i in range(oh):
            for j in range(ow):
                rows = i * stride[0] + dilation[0] * np.arange(kh)
                cols = j * stride[1] + dilation[1] * np.arange(kw)
                patch = channels[:, :, rows][:, :, :, cols]
                out[:, o, i, j] = (patch * w[o]).sum(axis=(1, 2, 3)) + b[o]
    return out


@pytest.mark.parametrize("stride, padding, dilation, groups", [
    ((1, 1), (0, 0), (1, 1), 1), ((2, 1), (1, 2), (1, 1), 1), ((1, 1), (1, 1), (2, 1), 2)])
def test_conv2d_matches_numpy_loops(rng, stride, padding, dilation, groups):
    layer = nn.Conv2d(4, 6, (3, 2), stride=stride, padding=padding, dilation=dilation,
                      groups=groups, dtype=ug.float64)
    x = rng.standard_normal((2, 4, 7, 6))
    expected = conv2d_reference(x, as_np(layer.weight), as_np(layer.bias), stride, padding,
                                dilation, groups)
    np.testing.assert_allclose(as_np(layer(ug.tensor(x))), expected, rtol=1e-10, atol=1e-12)


def test_conv2d_default_init_and_registration():
    ug.manual_seed(1)
    conv = nn.Conv2d(8, 16, 3, groups=2)
    fan_in = 4 * 9
    assert conv.weight.shape == (16, 4, 3, 3) and conv.bias.shape == (16,)
    assert np.abs(as_np(conv.weight)).max() <= 1 / math.sqrt(fan_in)
    assert np.abs(as_np(conv.bias)).max() <= 1 / math.sqrt(fan_in)
    assert math.isclose(as_np(conv.weight).std(), 1 / math.sqrt(3 * fan_in), rel_tol=0.06)
    assert list(conv.state_dict()) == ["weight", "bias"]
    assert repr(nn.Conv2d(3, 8, 3)) == "Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1))"
    assert repr(nn.Conv2d(3, 8, (3, 5), 2, 1, 2, bias=False, padding_mode="reflect")) == (
        "Conv2d(3, 8, kernel_size=(3, 5), stride=(2, 2), padding=(1, 1), dilation=(2, 2), "
        "bias=False, padding_mode=reflect)")
    assert repr(nn.Conv1d(2, 2, 3, padding="same")) == (
        "Conv1d(2, 2, kernel_size=(3,), stride=(1,), padding=same)")


def test_conv_mindspore_keywords():
    conv = nn.Conv2d(2, 4, 3, pad_mode="pad", padding=(1, 0, 2, 1), has_bias=False, group=2,
                     weight_init="ones")
    assert conv.bias is None and conv.groups == 2 and conv.weight.tolist()[0][0][0] == [1.0] * 3
    out = conv(ug.ones(1, 2, 5, 5))
    assert out.shape == (1, 4, 4, 6)  # H: 5 + 1 + 0 - 2, W: 5 + 2 + 1 - 2
    assert out[0, 0, 0, 0].item() == 2.0 and out[0, 0, 1, 2].item() == 9.0  # corner: 2 x 1 ones
    # TensorFlow/MindSpore 'same' works with strides: ceil(size / stride), extra at the end
    same = nn.Conv2d(1, 1, 3, stride=2, pad_mode="same", weight_init="ones", bias_init=0.0)
    out = same(ug.ones(1, 1, 6, 6))
    assert out.shape == (1, 1, 3, 3)
    assert out[0, 0].tolist() == [[9.0, 9.0, 6.0], [9.0, 9.0, 6.0], [6.0, 6.0, 4.0]]
    valid = nn.Conv1d(1, 1, 2, pad_mode="VALID", weight_init=1.0, bias_init=0.0)
    assert valid(ug.tensor([[[1.0, 2.0, 3.0]]])).tolist() == [[[3.0, 5.0]]]


def test_conv_argument_errors():
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.Conv2d(3, 6, 3, groups=2)
    with pytest.raises(ValueError, match="out_channels must be divisible by groups"):
        nn.Conv2d(4, 6, 3, groups=4)
    with pytest.raises(ValueError, match="groups must be a positive integer"):
        nn.Conv2d(4, 4, 3, groups=0)
    with pytest.raises(ValueError, match="padding='same' is not supported for strided"):
        nn.Conv2d(4, 4, 3, stride=2, padding="same")
    with pytest.raises(ValueError, match="Invalid padding string 'full'"):
        nn.Conv2d(4, 4, 3, padding="full")
    with pytest.raises(ValueError, match="padding_mode must be one of"):
        nn.Conv2d(4, 4, 3, padding_mode="mirror")
    with pytest.raises(ValueError, match="'padding' must be zero when 'pad_mode' is not"):
        nn.Conv2d(4, 4, 3, pad_mode="same", padding=1)
    with pytest.raises(ValueError, match="'pad_mode' must be one of"):
        nn.Conv2d(4, 4, 3, pad_mode="full")
    with pytest.raises(TypeError, match="'groups=2' and its MindSpore spelling 'group=4'"):
        nn.Conv2d(4, 4, 3, groups=2, group=4)
    with pytest.raises(TypeError, match="'kernel_size' must be an int or a tuple of 2 ints"):
        nn.Conv2d(4, 4, (3, 3, 3))
    with pytest.raises(ValueError, match="'stride' must be >= 1"):
        nn.Conv1d(4, 4, 3, stride=0)
    conv = nn.Conv2d(4, 4, 3)
    with pytest.raises(RuntimeError, match="Expected 3D \\(unbatched\\) or 4D \\(batched\\)"):
        conv(ug.ones(4, 5))
    with pytest.raises(RuntimeError, match="expected input\\[1, 3, 5, 5\\] to have 4 channels"):
        conv(ug.ones(1, 3, 5, 5))


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:Using padding='same' with even kernel")
@pytest.mark.parametrize("kwargs", [
    {},
    {"stride": 2, "padding": 1},
    {"stride": (2, 1), "padding": (0, 2), "dilation": (1, 2)},
    {"groups": 2, "padding": "same", "dilation": 2},
    {"padding": "same", "kernel_size": (2, 4)},
    {"padding": "valid", "bias": False},
    {"padding": 1, "padding_mode": "reflect"},
    {"padding": (1, 2), "padding_mode": "replicate", "stride": 2},
    {"padding": 2, "padding_mode": "circular"},
])
def test_conv2d_matches_torch(rng, kwargs):
    torch = pytest.importorskip("torch")
    kwargs = dict(kwargs)
    kernel = kwargs.pop("kernel_size", 3)
    theirs = torch.nn.Conv2d(4, 6, kernel, **kwargs).double()
    ours = nn.Conv2d(4, 6, kernel, dtype=ug.float64, **kwargs)
    load_torch_state(ours, theirs)
    check_against_torch(ours, theirs, torch, rng.standard_normal((2, 4, 7, 8)), rng)
    assert repr(ours) == repr(theirs)


@pytest.mark.torch
@pytest.mark.parametrize("kwargs", [{}, {"stride": 2, "padding": 2, "dilation": 2},
                                    {"padding": "same", "groups": 3},
                                    {"padding": 1, "padding_mode": "circular"}])
def test_conv1d_matches_torch(rng, kwargs):
    torch = pytest.importorskip("torch")
    theirs = torch.nn.Conv1d(3, 6, 4, **kwargs).double()
    ours = nn.Conv1d(3, 6, 4, dtype=ug.float64, **kwargs)
    load_torch_state(ours, theirs)
    check_against_torch(ours, theirs, torch, rng.standard_normal((2, 3, 11)), rng)
    check_against_torch(ours, theirs, torch, rng.standard_normal((3, 9)), rng)  # unbatched


# ----------------------------------------------------------------------------- pooling


def test_pooling_values_and_repr():
    x = ug.arange(16.0).reshape(1, 1, 4, 4)
    assert nn.MaxPool2d(2)(x).tolist() == [[[[5.0, 7.0], [13.0, 15.0]]]]
    out, indices = nn.MaxPool2d(2, return_indices=True)(x)
    assert indices.tolist() == [[[[5, 7], [13, 15]]]]
    assert nn.AvgPool2d(2, divisor_override=1)(x).tolist() == [[[[10.0, 18.0], [42.0, 50.0]]]]
    assert repr(nn.MaxPool2d(2)) == ("MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, "
                                     "ceil_mode=False)")
    assert repr(nn.AvgPool2d(3, 1)) == "AvgPool2d(kernel_size=3, stride=1, padding=0)"
    assert repr(nn.AvgPool1d(3)) == "AvgPool1d(kernel_size=(3,), stride=(3,), padding=(0,))"
    line = ug.tensor([[[1.0, 4.0, 2.0, 8.0, 5.0]]])
    assert nn.MaxPool1d(2, ceil_mode=True)(line).tolist() == [[[4.0, 8.0, 5.0]]]
    values, where = nn.MaxPool1d(3, stride=2, return_indices=True)(line)
    assert values.tolist() == [[[4.0, 8.0]]] and where.tolist() == [[[1, 3]]]
    assert nn.AvgPool1d(2, padding=1, count_include_pad=False)(line).tolist() == [
        [[1.0, 3.0, 6.5]]]
    with pytest.raises(RuntimeError, match="Expected 2D or 3D input"):
        nn.MaxPool1d(2)(ug.ones(1, 1, 2, 2))
    with pytest.raises(ValueError, match="'kernel_size' must be >= 1"):
        nn.MaxPool2d(0)
    with pytest.raises(ValueError, match="divisor_override must be a non-zero int"):
        nn.AvgPool2d(2, divisor_override=0)


@pytest.mark.torch
@pytest.mark.parametrize("cls, kwargs", [
    ("MaxPool2d", {"kernel_size": 2}),
    ("MaxPool2d", {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}),
    ("MaxPool2d", {"kernel_size": (2, 3), "stride": (1, 2), "dilation": 2}),
    ("AvgPool2d", {"kernel_size": 3, "stride": 2, "padding": 1}),
    ("AvgPool2d", {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True,
                   "count_include_pad": False}),
    ("AvgPool2d", {"kernel_size": 2, "divisor_override": 3}),
    ("MaxPool1d", {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}),
    ("AvgPool1d", {"kernel_size": 3, "stride": 2, "padding": 1, "count_include_pad": False}),
])
def test_pooling_matches_torch(rng, cls, kwargs):
    torch = pytest.importorskip("torch")
    ours, theirs = getattr(nn, cls)(**kwargs), getattr(torch.nn, cls)(**kwargs)
    shape = (2, 3, 7, 8) if cls.endswith("2d") else (2, 3, 9)
    check_against_torch(ours, theirs, torch, rng.standard_normal(shape), rng)
    assert repr(ours) == repr(theirs)


# ----------------------------------------------------------------------------- normalization


def test_batchnorm_running_statistics_closed_form(rng):
    bn = nn.BatchNorm1d(2, momentum=0.5, dtype=ug.float64)
    batches = [rng.standard_normal((4, 2)) * 3 + 1 for _ in range(3)]
    mean, var = np.zeros(2), np.ones(2)
    for batch in batches:
        out = as_np(bn(ug.tensor(batch)))
        expected = (batch - batch.mean(0)) / np.sqrt(batch.var(0) + 1e-5)
        np.testing.assert_allclose(out, expected, rtol=1e-10)
        mean = 0.5 * mean + 0.5 * batch.mean(0)
        var = 0.5 * var + 0.5 * batch.var(0, ddof=1)
    np.testing.assert_allclose(as_np(bn.running_mean), mean, rtol=1e-12)
    np.testing.assert_allclose(as_np(bn.running_var), var, rtol=1e-12)
    assert bn.num_batches_tracked.item() == 3 and bn.num_batches_tracked.dtype == ug.int64
    bn.eval()
    x = rng.standard_normal((3, 2))
    np.testing.assert_allclose(as_np(bn(ug.tensor(x))), (x - mean) / np.sqrt(var + 1e-5),
                               rtol=1e-10)
    assert bn.num_batches_tracked.item() == 3  # evaluation tracks nothing


def test_batchnorm_cumulative_average_when_momentum_is_none(rng):
    bn = nn.BatchNorm2d(3, momentum=None, dtype=ug.float64)
    batches = [rng.standard_normal((2, 3, 2, 2)) + k for k in range(3)]
    for batch in batches:
        bn(ug.tensor(batch))
    means = [b.mean(axis=(0, 2, 3)) for b in batches]
    variances = [b.var(axis=(0, 2, 3), ddof=1) for b in batches]
    np.testing.assert_allclose(as_np(bn.running_mean), np.mean(means, axis=0), rtol=1e-12)
    # the first update averages with the initial 1 at factor 1/1, i.e. replaces it
    np.testing.assert_allclose(as_np(bn.running_var), np.mean(variances, axis=0), rtol=1e-12)


def test_batchnorm_registration_state_dict_and_errors():
    bn = nn.BatchNorm2d(4)
    assert list(bn.state_dict()) == ["weight", "bias", "running_mean", "running_var",
                                     "num_batches_tracked"]
    assert [p.name for p in bn.trainable_params()] == ["weight", "bias"]
    assert repr(bn) == ("BatchNorm2d(4, eps=1e-05, momentum=0.1, affine=True, bias=True, "
                        "track_running_stats=True)")
    no_shift = nn.BatchNorm2d(4, bias=False)
    assert list(no_shift.state_dict())[:2] == ["weight", "running_mean"]
    plain = nn.BatchNorm1d(3, affine=False, track_running_stats=False)
    assert list(plain.state_dict()) == [] and plain.weight is None
    x = ug.tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
    scale = 1 / math.sqrt(1 + 1e-5)  # batch statistics even in evaluation mode
    np.testing.assert_allclose(as_np(plain.eval()(x)), [[-scale, 0, scale], [scale, 0, -scale]],
                               rtol=1e-6)
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D input\)"):
        nn.BatchNorm1d(3)(ug.ones(2, 3, 4, 4))
    with pytest.raises(ValueError, match=r"expected 4D input \(got 3D input\)"):
        bn(ug.ones(2, 4, 4))
    tracked = nn.BatchNorm1d(3)
    with pytest.raises(ValueError, match="Expected more than 1 value per channel"):
        tracked(ug.ones(1, 3))
    with pytest.raises(ValueError, match="expected input with 3 channels"):
        tracked(ug.ones(4, 2))
    assert tracked.num_batches_tracked.item() == 0  # nothing changed by the failed calls
    assert tracked.running_mean.tolist() == [0.0, 0.0, 0.0]
    tracked(ug.tensor([[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]]))
    tracked.reset_running_stats()
    assert tracked.running_var.tolist() == [1.0] * 3 and tracked.num_batches_tracked.item() == 0


@pytest.mark.torch
@pytest.mark.parametrize("cls, shape, kwargs", [
    ("BatchNorm1d", (6, 3), {}),
    ("BatchNorm1d", (4, 3, 5), {"momentum": None}),
    ("BatchNorm2d", (3, 3, 4, 5), {"momentum": 0.3, "eps": 1e-3}),
    ("BatchNorm2d", (3, 3, 4, 5), {"affine": False}),
    ("BatchNorm2d", (3, 3, 2, 2), {"track_running_stats": False}),
    ("BatchNorm2d", (3, 3, 2, 2), {"bias": False}),
])
def test_batchnorm_matches_torch_over_three_steps_and_eval(rng, cls, shape, kwargs):
    torch = pytest.importorskip("torch")
    theirs = getattr(torch.nn, cls)(3, **kwargs).double()
    ours = getattr(nn, cls)(3, dtype=ug.float64, **kwargs)
    with torch.no_grad():
        if theirs.weight is not None:
            theirs.weight.copy_(torch.tensor(rng.uniform(0.5, 2.0, 3)))
        if theirs.bias is not None:
            theirs.bias.copy_(torch.tensor(rng.standard_normal(3)))
    load_torch_state(ours, theirs)
    for _ in range(3):
        theirs.zero_grad()
        ours.zero_grad()
        check_against_torch(ours, theirs, torch, rng.standard_normal(shape) * 2 + 1, rng)
    for name, buffer in theirs.state_dict().items():
        np.testing.assert_allclose(as_np(ours.state_dict()[name]), buffer.numpy(), rtol=1e-12,
                                   err_msg=name)
    ours.eval()
    theirs.eval()
    theirs.zero_grad()
    ours.zero_grad()
    check_against_torch(ours, theirs, torch, rng.standard_normal(shape), rng)
    assert repr(ours) == repr(theirs)


def test_layernorm_values_and_repr(rng):
    norm = nn.LayerNorm((2, 3), eps=1e-6, dtype=ug.float64)
    x = rng.standard_normal((4, 2, 3))
    flat = x.reshape(4, 6)
    expected = ((flat - flat.mean(1, keepdims=True)) / np.sqrt(flat.var(1, keepdims=True) + 1e-6))
    np.testing.assert_allclose(as_np(norm(ug.tensor(x))), expected.reshape(4, 2, 3), rtol=1e-10)
    assert repr(norm) == "LayerNorm((2, 3), eps=1e-06, elementwise_affine=True, bias=True)"
    assert list(nn.LayerNorm(4, bias=False).state_dict()) == ["weight"]
    assert list(nn.LayerNorm(4, elementwise_affine=False).state_dict()) == []
    with pytest.raises(RuntimeError, match="expected input with shape \\[\\*, 2, 3\\]"):
        norm(ug.ones(4, 3, 2))


@pytest.mark.torch
@pytest.mark.parametrize("shape, kwargs", [(5, {}), ((3, 5), {"eps": 1e-3}),
                                           (5, {"bias": False}),
                                           (5, {"elementwise_affine": False})])
def test_layernorm_matches_torch(rng, shape, kwargs):
    torch = pytest.importorskip("torch")
    theirs = torch.nn.LayerNorm(shape, **kwargs).double()
    ours = nn.LayerNorm(shape, dtype=ug.float64, **kwargs)
    if theirs.weight is not None:
        with torch.no_grad():
            theirs.weight.copy_(torch.tensor(rng.uniform(0.5, 2.0, theirs.weight.shape)))
    load_torch_state(ours, theirs)
    check_against_torch(ours, theirs, torch, rng.standard_normal((2, 3, 5)), rng)
    assert repr(ours) == repr(theirs)


# ----------------------------------------------------------------------------- embedding


def test_embedding_init_lookup_and_padding_gradient():
    ug.manual_seed(7)
    table = nn.Embedding(1000, 20, padding_idx=-1)
    weight = as_np(table.weight)
    assert table.padding_idx == 999 and not weight[999].any()
    assert abs(weight[:999].mean()) < 0.02 and math.isclose(weight[:999].std(), 1.0, rel_tol=0.02)
    indices = ug.tensor([[1, 999], [1, 2]])
    out = table(indices)
    assert out.shape == (2, 2, 20)
    np.testing.assert_array_equal(as_np(out[1, 0]), weight[1])
    out.sum().backward()
    grad = as_np(table.weight.grad)
    assert grad[1].tolist() == [2.0] * 20 and grad[2].tolist() == [1.0] * 20
    assert not grad[999].any() and not grad[0].any()
    assert repr(table) == "Embedding(1000, 20, padding_idx=999)"


def test_embedding_max_norm_and_errors():
    table = nn.Embedding.from_pretrained(ug.tensor([[3.0, 4.0], [0.3, 0.4]]), max_norm=1.0)
    assert table(ug.tensor([0])).tolist()[0] == pytest.approx([0.6, 0.8], rel=1e-6)
    assert table.weight.tolist()[1] == pytest.approx([0.3, 0.4])  # not looked up: untouched
    with pytest.raises(ValueError, match="Padding_idx must be within num_embeddings"):
        nn.Embedding(3, 2, padding_idx=3)
    with pytest.raises(ValueError, match="Shape of weight does not match"):
        nn.Embedding(3, 2, _weight=ug.ones(2, 2))
    with pytest.raises(IndexError, match="index out of range in self"):
        table(ug.tensor([2]))
    assert table.weight.tolist()[0] == pytest.approx([0.6, 0.8])
    with pytest.raises(RuntimeError, match="'indices' to have one of the following scalar"):
        table(ug.tensor([0.0]))
    with pytest.raises(NotImplementedError, match="sparse"):
        nn.Embedding(3, 2, sparse=True)


@pytest.mark.torch
@pytest.mark.parametrize("kwargs", [{}, {"padding_idx": 2}, {"scale_grad_by_freq": True},
                                    {"padding_idx": 0, "scale_grad_by_freq": True},
                                    {"max_norm": 1.5}, {"max_norm": 2.0, "norm_type": 1.0}])
def test_embedding_matches_torch(rng, kwargs):
    torch = pytest.importorskip("torch")
    theirs = torch.nn.Embedding(6, 4, **kwargs).double()
    ours = nn.Embedding(6, 4, dtype=ug.float64, **kwargs)
    load_torch_state(ours, theirs)
    indices = np.array([[0, 2, 2, 5], [2, 1, 0, 2]])
    check_against_torch(ours, theirs, torch, indices, rng, integer_input=True)
    np.testing.assert_allclose(as_np(ours.weight), theirs.weight.detach().numpy(), rtol=1e-12)
    assert repr(ours) == repr(theirs)


# ----------------------------------------------------------------------------- dropout


def test_dropout_train_eval_and_seeding():
    drop = nn.Dropout(0.3)
    ug.manual_seed(11)
    first = as_np(drop(ug.ones(10000)))
    ug.manual_seed(11)
    assert np.array_equal(as_np(drop(ug.ones(10000))), first)
    kept = first != 0
    assert set(np.unique(first)) == {0.0, np.float32(1 / 0.7)}
    assert abs(kept.mean() - 0.7) < 0.02
    x = ug.ones(5, requires_grad=True)
    ug.manual_seed(11)
    out = drop(x)
    out.sum().backward()
    np.testing.assert_array_equal(as_np(x.grad), as_np(out))  # the gradient is the mask
    drop.eval()
    assert drop(ug.ones(4)).tolist() == [1.0] * 4
    assert nn.Dropout(keep_prob=0.8).p == pytest.approx(0.2)
    assert repr(nn.Dropout(0.2, inplace=True)) == "Dropout(p=0.2, inplace=True)"
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but "
                                         "got 1.5"):
        nn.Dropout(1.5)
    with pytest.raises(ValueError, match="'keep_prob' must be a number in range \\(0, 1\\]"):
        nn.Dropout(keep_prob=0.0)
    with pytest.raises(TypeError, match="either 'p'"):
        nn.Dropout(0.2, keep_prob=0.5)


def test_train_eval_propagate_through_containers():
    net = nn.SequentialCell(nn.Dense(3, 4), nn.BatchNorm1d(4), nn.Dropout(0.5))
    assert all(cell.training for cell in net.cells())
    net.set_train(False)
    assert not any(cell.training for cell in net.cells())
    x = ug.ones(2, 3)
    assert np.array_equal(as_np(net(x)), as_np(net(x)))  # deterministic in evaluation


# ----------------------------------------------------------------------------- activations


ACTIVATION_CASES = [
    ("ReLU", {}, lambda x: np.maximum(x, 0)),
    ("ReLU6", {}, lambda x: np.clip(x, 0, 6)),
    ("Hardtanh", {"min_val": -0.5, "max_val": 2.0}, lambda x: np.clip(x, -0.5, 2.0)),
    ("Tanh", {}, np.tanh),
    ("Sigmoid", {}, lambda x: 1 / (1 + np.exp(-x))),
    ("SiLU", {}, lambda x: x / (1 + np.exp(-x))),
    ("LeakyReLU", {"negative_slope": 0.2}, lambda x: np.where(x > 0, x, 0.2 * x)),
    ("ELU", {"alpha": 1.5}, lambda x: np.where(x > 0, x, 1.5 * np.expm1(x))),
    ("Softplus", {"beta": 2.0, "threshold": 5.0},
     lambda x: np.where(2 * x > 5, x, np.log1p(np.exp(2 * x)) / 2)),
    ("LogSigmoid", {}, lambda x: -np.log1p(np.exp(-x))),
    ("Softmax", {"dim": 1}, lambda x: np.exp(x) / np.exp(x).sum(1, keepdims=True)),
    ("LogSoftmax", {"dim": 0}, lambda x: x - np.log(np.exp(x).sum(0, keepdims=True))),
    ("GELU", {"approximate": "tanh"},
     lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))),
]


@pytest.mark.parametrize("name, kwargs, reference", ACTIVATION_CASES)
def test_activation_values(rng, name, kwargs, reference):
    x = rng.standard_normal((3, 4)) * 4
    np.testing.assert_allclose(as_np(getattr(nn, name)(**kwargs)(ug.tensor(x))), reference(x),
                               rtol=1e-10, atol=1e-12)


@pytest.mark.torch
@pytest.mark.parametrize("name, kwargs, reference", ACTIVATION_CASES + [
    ("GELU", {}, None), ("Identity", {}, None), ("Flatten", {}, None),
    ("Flatten", {"start_dim": 0, "end_dim": 1}, None),
    ("Unflatten", {"dim": 1, "unflattened_size": (2, 2)}, None)])
def test_activation_and_shape_cells_match_torch(rng, name, kwargs, reference):
    torch = pytest.importorskip("torch")
    ours, theirs = getattr(nn, name)(**kwargs), getattr(torch.nn, name)(**kwargs)
    check_against_torch(ours, theirs, torch, rng.standard_normal((3, 4)) * 4, rng)
    assert repr(ours) == repr(theirs)


def test_inplace_activations_write_into_the_input():
    x = ug.tensor([-1.0, 2.0])
    assert nn.ReLU(inplace=True)(x) is x and x.tolist() == [0.0, 2.0]
    y = ug.tensor([-1.0, 2.0])
    nn.LeakyReLU(0.5, inplace=True)(y)
    assert y.tolist() == [-0.5, 2.0]
    leaf = ug.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        nn.ELU(inplace=True)(leaf)
    z = ug.tensor([-2.0, 3.0], requires_grad=True)
    out = nn.SiLU(inplace=True)(z * 1.0)
    out.sum().backward()
    s = 1 / (1 + np.exp(-np.array([-2.0, 3.0])))
    np.testing.assert_allclose(as_np(z.grad), s * (1 + np.array([-2.0, 3.0]) * (1 - s)),
                               rtol=1e-6)


def test_activation_reprs_and_get_activation():
    assert repr(nn.ReLU()) == "ReLU()" and repr(nn.ReLU(inplace=True)) == "ReLU(inplace=True)"
    assert repr(nn.LeakyReLU()) == "LeakyReLU(negative_slope=0.01)"
    assert repr(nn.Softmax(dim=-1)) == "Softmax(dim=-1)"
    assert repr(nn.GELU()) == "GELU(approximate='none')"
    assert repr(nn.get_activation("leakyrelu")) == "LeakyReLU(negative_slope=0.2)"
    assert repr(nn.get_activation("GELU")) == "GELU(approximate='tanh')"
    assert nn.get_activation(None) is None
    with pytest.raises(ValueError, match="approximate argument must be either none or tanh"):
        nn.GELU("exact")
    with pytest.raises(ValueError, match="min_val cannot be greater than max_val"):
        nn.Hardtanh(1.0, 0.0)
    with pytest.raises(TypeError, match="'name' must be a str"):
        nn.get_activation(1)


def test_flatten_and_unflatten():
    x = ug.arange(24.0).reshape(2, 3, 4)
    assert nn.Flatten()(x).shape == (2, 12) and nn.Flatten(0, -2)(x).shape == (6, 4)
    assert nn.Unflatten(2, (2, -1))(x).shape == (2, 3, 2, 2)
    assert repr(nn.Flatten()) == "Flatten(start_dim=1, end_dim=-1)"
    with pytest.raises(RuntimeError, match="don't multiply up to the size of dim 1"):
        nn.Unflatten(1, (2, 2))(x)
    with pytest.raises(TypeError, match="'start_dim' must be an int"):
        nn.Flatten(1.0)


def test_layers_compose_into_a_trainable_cnn():
    ug.manual_seed(0)
    net = nn.SequentialCell(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
                            nn.MaxPool2d(2), nn.Flatten(), nn.Dense(4 * 4 * 4, 3))
    x, y = ug.randn(6, 1, 8, 8), ug.tensor([0, 1, 2, 0, 1, 2])
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _ in range(15):
        loss = loss_fn(net(x), y)
        net.zero_grad()
        loss.backward()
        with ug.no_grad():
            for param in net.trainable_params():
                param.sub_(param.grad * 0.1)
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]
    assert F.softmax(net.set_train(False)(x), dim=1).shape == (6, 3)
