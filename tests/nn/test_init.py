"""Initializers: PyTorch's formulas, distribution statistics, seeding, MindSpore's initializer."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn
from unigrad.nn import init

from .helpers import as_np


def truncated_normal_moments(a: float, b: float) -> tuple[float, float]:
    """Mean and standard deviation of N(0, 1) truncated to [a, b]."""
    normal = statistics.NormalDist()
    mass = normal.cdf(b) - normal.cdf(a)
    mean = (normal.pdf(a) - normal.pdf(b)) / mass
    var = 1 + (a * normal.pdf(a) - b * normal.pdf(b)) / mass - mean ** 2
    return mean, math.sqrt(var)


# ----------------------------------------------------------------------------- gains and fans


def test_calculate_gain_table():
    assert init.calculate_gain("linear") == 1.0 and init.calculate_gain("conv2d") == 1.0
    assert init.calculate_gain("sigmoid") == 1.0
    assert init.calculate_gain("tanh") == pytest.approx(5 / 3)
    assert init.calculate_gain("relu") == pytest.approx(math.sqrt(2))
    assert init.calculate_gain("leaky_relu") == pytest.approx(math.sqrt(2 / (1 + 0.01 ** 2)))
    assert init.calculate_gain("leaky_relu", math.sqrt(5)) == pytest.approx(math.sqrt(1 / 3))
    assert init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match="Unsupported nonlinearity softsign"):
        init.calculate_gain("softsign")
    with pytest.raises(ValueError, match="negative_slope True not a valid number"):
        init.calculate_gain("leaky_relu", True)


@pytest.mark.torch
def test_gains_and_fans_match_torch():
    torch = pytest.importorskip("torch")
    for name, param in [("linear", None), ("conv_transpose3d", None), ("tanh", None),
                        ("relu", None), ("leaky_relu", None), ("leaky_relu", 0.3),
                        ("selu", None)]:
        assert init.calculate_gain(name, param) == torch.nn.init.calculate_gain(name, param)
    for shape in [(3, 4), (8, 3, 5, 5), (2, 6, 7)]:
        assert init._calculate_fan_in_and_fan_out(ug.empty(*shape)) == \
            torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(*shape))


def test_fans():
    assert init._calculate_fan_in_and_fan_out(ug.empty(8, 3, 5, 5)) == (75, 200)
    assert init._calculate_fan_in_and_fan_out(ug.empty(4, 6)) == (6, 4)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init._calculate_fan_in_and_fan_out(ug.empty(4))


# ----------------------------------------------------------------------------- fills


def test_constant_fills_keep_dtype_and_identity():
    w = ug.empty(2, 3, dtype=ug.float64)
    assert init.constant_(w, 0.25) is w
    assert w.dtype == ug.float64 and as_np(w).tolist() == [[0.25] * 3] * 2
    assert init.ones_(ug.empty(2)).tolist() == [1.0, 1.0]
    ints = init.zeros_(ug.empty(3, dtype=ug.int64))
    assert ints.dtype == ug.int64 and ints.tolist() == [0, 0, 0]
    assert init.constant_(ug.empty(2), ug.tensor(3.0)).tolist() == [3.0, 3.0]
    assert init.eye_(ug.empty(3, 2)).tolist() == [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.eye_(ug.empty(2, 2, 2))
    with pytest.raises(TypeError, match="cannot fill the int64 tensor with 0.5"):
        init.constant_(ug.empty(2, dtype=ug.int64), 0.5)
    with pytest.raises(TypeError, match="'tensor' must be a ug.Tensor, got ndarray"):
        init.ones_(np.zeros(2))


def test_initializers_work_in_place_on_parameters_without_recording():
    w = nn.Parameter(ug.ones(3))
    saved = (w * w).sum()
    version = w._version
    out = init.normal_(w)
    assert out is w and w.grad_fn is None and w.requires_grad and w.is_leaf
    assert w._version == version + 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        saved.backward()  # the graph saw the old values, as in PyTorch
    view = w[1:]
    init.zeros_(view)
    assert w.tolist()[1:] == [0.0, 0.0]  # views write through to their base


# ----------------------------------------------------------------------------- distributions


def test_uniform_and_normal_statistics_and_seeding():
    ug.manual_seed(123)
    u = as_np(init.uniform_(ug.empty(200, 100), -2.0, 3.0))
    assert u.min() >= -2.0 and u.max() < 3.0 and u.min() < -1.99 and u.max() > 2.99
    assert u.mean() == pytest.approx(0.5, abs=0.03)
    assert u.std() == pytest.approx(5 / math.sqrt(12), rel=0.01)
    n = as_np(init.normal_(ug.empty(200, 100, dtype=ug.float64), mean=-1.0, std=0.5))
    assert n.mean() == pytest.approx(-1.0, abs=0.01) and n.std() == pytest.approx(0.5, rel=0.01)
    ug.manual_seed(123)
    assert np.array_equal(as_np(init.uniform_(ug.empty(200, 100), -2.0, 3.0)), u)
    own = np.random.default_rng(5)
    first = as_np(init.normal_(ug.empty(5), generator=own))
    assert np.array_equal(first, as_np(init.normal_(ug.empty(5),
                                                    generator=np.random.default_rng(5))))
    seeded = [as_np(init.normal_(ug.empty(5), generator=ug.Generator().manual_seed(7)))
              for _ in range(2)]
    assert np.array_equal(seeded[0], seeded[1]) and not np.array_equal(seeded[0], first)
    with pytest.raises(ValueError, match="expected a <= b"):
        init.uniform_(ug.empty(2), 1.0, 0.0)
    with pytest.raises(ValueError, match="expected std >= 0"):
        init.normal_(ug.empty(2), std=-1.0)
    with pytest.raises(TypeError, match="expected a floating-point tensor, got int64"):
        init.uniform_(ug.empty(2, dtype=ug.int64))
    with pytest.raises(TypeError, match="'generator' must be|generator must be"):
        init.normal_(ug.empty(2), generator=1)


def test_trunc_normal_statistics_in_the_bulk_and_in_a_far_tail():
    ug.manual_seed(3)
    w = as_np(init.trunc_normal_(ug.empty(50000, dtype=ug.float64), mean=1.0, std=2.0, a=-1.0,
                                 b=5.0))
    assert w.min() >= -1.0 and w.max() <= 5.0
    mean, std = truncated_normal_moments(-1.0, 2.0)
    assert w.mean() == pytest.approx(1.0 + 2.0 * mean, abs=0.02)
    assert w.std() == pytest.approx(2.0 * std, rel=0.02)
    with pytest.warns(UserWarning, match="mean is more than 2 std"):  # as in PyTorch
        tail = as_np(init.trunc_normal_(ug.empty(20000, dtype=ug.float64), a=3.0, b=4.0))
    mean, std = truncated_normal_moments(3.0, 4.0)  # 0.13% of the mass: the inverse-CDF path
    assert tail.min() >= 3.0 and tail.max() <= 4.0
    assert tail.mean() == pytest.approx(mean, abs=0.01) and tail.std() == pytest.approx(
        std, rel=0.03)
    with pytest.raises(ValueError, match="expected a < b"):
        init.trunc_normal_(ug.empty(2), a=1.0, b=1.0)
    with pytest.warns(UserWarning, match="mean is more than 2 std from \\[a, b\\]"):
        init.trunc_normal_(ug.empty(2), mean=10.0, a=-1.0, b=1.0)


@pytest.mark.parametrize("mode, fan", [("fan_in", 75), ("fan_out", 200), ("FAN_OUT", 200)])
def test_kaiming_uniform_bound_and_std(mode, fan):
    ug.manual_seed(0)
    w = as_np(init.kaiming_uniform_(ug.empty(8, 3, 5, 5), mode=mode, nonlinearity="relu"))
    bound = math.sqrt(2) * math.sqrt(3 / fan)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.98 * bound


def test_kaiming_normal_and_xavier_statistics():
    ug.manual_seed(0)
    w = as_np(init.kaiming_normal_(ug.empty(300, 400), a=0.5, mode="fan_out"))
    gain = math.sqrt(2 / (1 + 0.25))
    assert w.std() == pytest.approx(gain / math.sqrt(300), rel=0.01)
    assert abs(w.mean()) < 0.005
    x = as_np(init.xavier_uniform_(ug.empty(300, 200), gain=2.0))
    bound = 2.0 * math.sqrt(6 / 500)
    assert np.abs(x).max() <= bound and np.abs(x).max() > 0.99 * bound
    x = as_np(init.xavier_normal_(ug.empty(300, 200), gain=init.calculate_gain("tanh")))
    assert x.std() == pytest.approx(5 / 3 * math.sqrt(2 / 500), rel=0.01)
    with pytest.raises(ValueError, match=r"Mode fan_avg not supported, please use one of "
                                         r"\['fan_in', 'fan_out'\]"):
        init.kaiming_uniform_(ug.empty(2, 2), mode="fan_avg")
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        init.kaiming_uniform_(ug.empty(0, 3))


@pytest.mark.parametrize("shape", [(6, 3), (3, 6), (4, 2, 3), (5, 5)])
def test_orthogonal_is_orthonormal(shape):
    ug.manual_seed(9)
    q = as_np(init.orthogonal_(ug.empty(*shape, dtype=ug.float64), gain=2.0))
    flat = q.reshape(shape[0], -1) / 2.0
    product = flat @ flat.T if flat.shape[0] <= flat.shape[1] else flat.T @ flat
    np.testing.assert_allclose(product, np.eye(min(flat.shape)), atol=1e-12)
    with pytest.raises(ValueError, match="Only tensors with 2 or more dimensions"):
        init.orthogonal_(ug.empty(3))


# ----------------------------------------------------------------------------- MindSpore


def test_initializer_names_and_statistics():
    ug.manual_seed(1)
    assert init.initializer("zeros", (2,)).tolist() == [0.0, 0.0]
    assert init.initializer("Ones", 2, ug.float64).dtype == ug.float64
    normal = as_np(init.initializer("normal", (200, 100)))
    assert normal.dtype == np.float32 and normal.std() == pytest.approx(0.01, rel=0.02)
    uniform = as_np(init.initializer("uniform", (200, 100)))
    assert np.abs(uniform).max() <= 0.07 and np.abs(uniform).max() > 0.0699
    truncated = as_np(init.initializer("truncatedNormal", (200, 100)))
    assert np.abs(truncated).max() <= 0.02
    assert truncated.std() == pytest.approx(0.01 * truncated_normal_moments(-2, 2)[1], rel=0.02)
    he = as_np(init.initializer("HE_UNIFORM", (300, 50)))
    assert np.abs(he).max() <= math.sqrt(6 / 50) and np.abs(he).max() > 0.99 * math.sqrt(6 / 50)
    he_normal = as_np(init.initializer("he_normal", (300, 500)))
    assert he_normal.std() == pytest.approx(math.sqrt(2 / 500), rel=0.01)
    xavier = as_np(init.initializer("xavier_uniform", (30, 20)))
    assert np.abs(xavier).max() <= math.sqrt(6 / 50)
    assert init.initializer("identity", (2, 2)).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    ug.manual_seed(1)
    assert np.array_equal(as_np(init.initializer("zeros", (2,))), [0, 0])
    assert np.array_equal(as_np(init.initializer("normal", (200, 100))), normal)


def test_initializer_numbers_tensors_and_errors():
    assert init.initializer(3, (2,)).tolist() == [3.0, 3.0]
    assert init.initializer(2, (2,), ug.int32).dtype == ug.int32
    source = ug.tensor([[1.0, 2.0]], dtype=ug.float64)
    copied = init.initializer(source, (1, 2))
    assert copied.dtype == ug.float32 and copied.tolist() == [[1.0, 2.0]]
    copied.add_(1.0)
    assert source.tolist() == [[1.0, 2.0]]  # a copy, not a view
    assert init.initializer(source).shape == (1, 2)
    with pytest.raises(ValueError, match=r"the shape of the 'init' Tensor \(1, 2\) must equal "
                                         r"the argument 'shape' \(2, 1\)"):
        init.initializer(source, (2, 1))
    with pytest.raises(ValueError, match="'init' must be one of .*but got 'glorot'"):
        init.initializer("glorot", (2, 2))
    with pytest.raises(TypeError, match="'init' must be a str, a number or a Tensor, but got "
                                        "list"):
        init.initializer([1.0], (1,))
    with pytest.raises(TypeError, match="but got bool"):
        init.initializer(True, (1,))
    with pytest.raises(ValueError, match="'shape' is required"):
        init.initializer("ones")
    with pytest.raises(ValueError, match="must not contain negative sizes"):
        init.initializer("ones", (2, -1))
    with pytest.raises(TypeError, match="needs a floating-point dtype"):
        init.initializer("normal", (2,), ug.int64)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init.initializer("he_uniform", (5,))


def test_layers_accept_initializer_arguments():
    dense = nn.Dense(4, 3, weight_init="xavier_uniform", bias_init="zeros")
    assert np.abs(as_np(dense.weight)).max() <= math.sqrt(6 / 7)
    assert dense.bias.tolist() == [0.0] * 3
    conv = nn.Conv2d(2, 4, 3, weight_init="he_normal", bias_init=0.1)
    assert conv.bias.tolist() == pytest.approx([0.1] * 4)
