"""The special functions under the three frameworks' names: ``torch.special`` (every name
unigrad provides, against real PyTorch when it is installed), ``torch.igamma``/``igammac``
and their Tensor methods, ``tf.math`` / ``tf.math.special`` and ``ms.ops``."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch
from unigrad.compat.torch import special as torch_special
from unigrad.compat.torch._out import unwrapped

# torch.special names unigrad does not provide (and the module's own helpers)
NOT_PROVIDED = {"airy_ai", "Tensor", "common_args", "multi_dim_common", "torch"}

POINTS = [0.1, 0.5, 0.9]  # inside every function's domain (ndtri, logit, erfinv included)
# how each name is called: extra positional arguments after the input
EXTRA = {"polygamma": "n", "multigammaln": (1,), "softmax": (0,), "log_softmax": (0,),
         "logsumexp": (0,), "xlogy": "other", "xlog1py": "other", "zeta": "other",
         "gammainc": "other", "gammaincc": "other"}
SHIFT = {"multigammaln": 1.0, "zeta": 1.0}  # (multigammaln needs input > 0, zeta x > 1)


def _call(module, name, values, tensor):
    function = getattr(module, name)
    x = tensor(np.array(values) + SHIFT.get(name, 0.0))
    extra = (7,) if "polynomial" in name else EXTRA.get(name, ())
    if extra == "n":
        return function(2, x)
    if extra == "other":
        return function(x, tensor(np.array([1.5, 2.0, 2.5])))
    return function(x, *extra)


def test_namespace_is_reachable():
    assert torch.special is torch_special
    assert importlib.import_module("unigrad.compat.torch.special") is torch_special
    np.testing.assert_allclose(torch.special.erfcx(torch.tensor([0.0])).numpy(), [1.0])


def test_names_are_torchs_and_cover_it():
    real = pytest.importorskip("torch")
    theirs = {name for name in dir(real.special) if not name.startswith("_")}
    ours = set(torch_special.__all__)
    assert ours <= theirs, ours - theirs
    assert ours | NOT_PROVIDED == theirs, theirs - ours - NOT_PROVIDED


@pytest.mark.parametrize("name", torch_special.__all__)
def test_values_match_real_torch_special(name):
    real = pytest.importorskip("torch")
    ours = _call(torch_special, name, POINTS, lambda a: torch.tensor(a))
    theirs = _call(real.special, name, POINTS, lambda a: real.tensor(a))
    assert ours.dtype == ug_dtype(theirs.dtype)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12, atol=1e-14)


def ug_dtype(dtype):
    return getattr(torch, str(dtype).split(".")[-1])


def test_signatures_follow_torch():
    x = torch.tensor([1.0, 2.0])
    np.testing.assert_allclose(torch.special.softmax(torch.tensor([1, 2]), 0,
                                                     dtype=torch.float64).numpy(),
                               [0.2689414213699951, 0.7310585786300049])
    np.testing.assert_allclose(torch.special.logsumexp(x.reshape(1, 2), 1, keepdim=True).numpy(),
                               [[2.3132617]], rtol=1e-6)
    np.testing.assert_allclose(torch.special.round(torch.tensor([1234.5678, 0.125]),
                                                   decimals=-2).numpy(), [1200.0, 0.0])
    np.testing.assert_allclose(torch.special.round(torch.tensor([1.2345]), decimals=2).numpy(),
                               [1.23], rtol=1e-6)
    with pytest.raises(TypeError, match="decimals"):
        torch.special.round(x, decimals=1.5)
    assert unwrapped(torch.special.expit) is unwrapped(torch.sigmoid)
    assert unwrapped(torch.special.gammaln) is unwrapped(torch.lgamma)
    assert unwrapped(torch.special.psi) is unwrapped(torch.digamma)


def test_round_decimals_matches_real_torch():
    real = pytest.importorskip("torch")
    values = np.array([1234.5678, -0.125, 2.5, 0.0049], dtype=np.float32)
    for decimals in (-3, -1, 1, 2, 3):
        np.testing.assert_array_equal(
            torch.special.round(torch.tensor(values), decimals=decimals).numpy(),
            real.special.round(real.tensor(values), decimals=decimals).numpy())


def test_igamma_top_level_and_methods():
    a, x = torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0])
    expected = [0.6321205588, 0.2642411177]
    np.testing.assert_allclose(torch.igamma(a, x).numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(a.igamma(x).numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(a.igammac(x).numpy(), 1 - np.array(expected), rtol=1e-6)
    np.testing.assert_allclose(torch.igammac(a, x).numpy(), 1 - np.array(expected), rtol=1e-6)
    b = torch.tensor([1.0, 2.0])
    assert b.igammac_(x) is b
    np.testing.assert_allclose(b.numpy(), 1 - np.array(expected), rtol=1e-6)


def test_tensorflow_spellings():
    x = tf.constant([0.5, 1.0, 2.0, 4.0])
    np.testing.assert_allclose(tf.math.special.bessel_j0(x).numpy(),
                               [0.93846981, 0.76519769, 0.22389078, -0.39714981], rtol=1e-6)
    np.testing.assert_allclose(tf.math.special.bessel_j1(x).numpy(),
                               [0.24226846, 0.44005059, 0.57672481, -0.06604333], rtol=1e-6)
    np.testing.assert_allclose(tf.math.special.bessel_i0e(tf.constant([0.0])).numpy(), [1.0])
    np.testing.assert_allclose(tf.math.special.bessel_y0(x).numpy(),
                               [-0.44451873, 0.08825696, 0.51037567, -0.01694074], rtol=1e-6)
    np.testing.assert_allclose(tf.math.special.bessel_y1(x).numpy(),
                               [-1.47147239, -0.78121282, -0.10703243, 0.39792571], rtol=1e-6)
    np.testing.assert_allclose(tf.math.special.bessel_k0(x).numpy(),
                               [0.92441907, 0.42102444, 0.11389387, 0.01115968], rtol=1e-6)
    np.testing.assert_allclose(tf.math.special.bessel_k1e(x).numpy(),
                               [2.73100971, 1.63615349, 1.03347685, 0.68157595], rtol=1e-6)
    np.testing.assert_allclose(tf.math.special.bessel_k0e(x).numpy()
                               / tf.math.special.bessel_k1(x).numpy(),
                               [1.52410939 / 1.65644112, 1.14446308 / 0.60190723,
                                0.84156822 / 0.13986588, 0.60929767 / 0.0124835], rtol=1e-6)
    assert tf.math.special.bessel_i1(x).dtype == tf.float32
    np.testing.assert_allclose(tf.math.erfcx(tf.constant([0.0, 30.0])).numpy(),
                               [1.0, 0.01879588], rtol=1e-6)
    np.testing.assert_allclose(tf.math.ndtri(tf.constant([0.5, 0.975])).numpy(),
                               [0.0, 1.959964], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(tf.math.zeta(x=tf.constant([2.0, 4.0]), q=1.0).numpy(),
                               [1.644934, 1.082323], rtol=1e-6)
    np.testing.assert_allclose(tf.math.igamma(a=tf.constant([2.0]), x=tf.constant([1.0])).numpy(),
                               [0.26424112], rtol=1e-6)
    np.testing.assert_allclose(tf.math.igammac(tf.constant([2.0]), 1.0).numpy(),
                               [0.73575888], rtol=1e-6)
    assert tf.math.zeta(tf.constant([2.0]), 1.0).dtype == tf.float32


def test_tensorflow_igamma_gradient_with_respect_to_x():
    a, x = tf.constant([2.0]), tf.Variable([1.0])
    with tf.GradientTape() as tape:
        y = tf.math.igamma(a, x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [np.exp(-1.0)], rtol=1e-6)


def test_mindspore_spellings():
    x = ms.Tensor(np.array([0.5, 1.0], dtype=np.float32))
    np.testing.assert_allclose(ms.ops.bessel_j0(x).asnumpy(), [0.93846981, 0.76519769],
                               rtol=1e-6)
    np.testing.assert_allclose(ms.ops.bessel_j1(x).asnumpy(), [0.24226846, 0.44005059],
                               rtol=1e-6)
    np.testing.assert_allclose(ms.ops.bessel_y0(x).asnumpy(), [-0.44451873, 0.08825696],
                               rtol=1e-6)
    np.testing.assert_allclose(ms.ops.bessel_y1(x).asnumpy(), [-1.47147239, -0.78121282],
                               rtol=1e-6)
    np.testing.assert_allclose(ms.ops.bessel_k0(x).asnumpy(), [0.92441907, 0.42102444],
                               rtol=1e-6)
    np.testing.assert_allclose(ms.ops.bessel_k1(x).asnumpy(), [1.65644112, 0.60190723],
                               rtol=1e-6)
    np.testing.assert_allclose(ms.ops.bessel_k0e(x).asnumpy(), [1.52410939, 1.14446308],
                               rtol=1e-6)
    np.testing.assert_allclose(ms.ops.bessel_k1e(x).asnumpy(), [2.73100971, 1.63615349],
                               rtol=1e-6)
    np.testing.assert_allclose(ms.ops.igamma(x, x).asnumpy(), [0.68268949, 0.63212056],
                               rtol=1e-6)
    np.testing.assert_allclose(ms.ops.igammac(x, x).asnumpy(), [0.31731051, 0.36787944],
                               rtol=1e-6)
    np.testing.assert_allclose(ms.ops.zeta(ms.Tensor(np.array([2.0], np.float32)), 1.0)
                               .asnumpy(), [1.644934], rtol=1e-6)
    np.testing.assert_allclose(ms.ops.xlogy(ms.Tensor(np.array([0.0, 2.0], np.float32)),
                                            ms.Tensor(np.array([0.0, 3.0], np.float32)))
                               .asnumpy(), [0.0, 2.0 * np.log(3.0)], rtol=1e-6)
    assert type(ms.ops.zeta(x + 1, x)) is ms.Tensor
