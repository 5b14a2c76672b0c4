"""The new elementwise math ops under the three frameworks' names."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch

VALUES = [0.25, 0.5]


@pytest.mark.parametrize("name, reference", [
    ("acos", np.arccos), ("asin", np.arcsin), ("atan", np.arctan), ("sinh", np.sinh),
    ("cosh", np.cosh), ("asinh", np.arcsinh), ("atanh", np.arctanh)])
def test_unary_spellings(name, reference):
    expected = reference(np.array(VALUES, dtype=np.float32))
    np.testing.assert_allclose(getattr(torch, name)(torch.tensor(VALUES)).numpy(), expected,
                               rtol=1e-6)
    np.testing.assert_allclose(getattr(torch.tensor(VALUES), name)().numpy(), expected,
                               rtol=1e-6)
    np.testing.assert_allclose(getattr(tf.math, name)(tf.constant(VALUES)).numpy(), expected,
                               rtol=1e-6)
    np.testing.assert_allclose(getattr(ms.ops, name)(ms.Tensor(VALUES)).asnumpy(), expected,
                               rtol=1e-6)


def test_binary_spellings():
    y, x = np.array([1.0, -1.0], dtype=np.float32), np.array([2.0, 3.0], dtype=np.float32)
    np.testing.assert_allclose(torch.atan2(torch.tensor(y), torch.tensor(x)).numpy(),
                               np.arctan2(y, x), rtol=1e-6)
    np.testing.assert_allclose(tf.math.atan2(tf.constant(y), tf.constant(x)).numpy(),
                               np.arctan2(y, x), rtol=1e-6)
    np.testing.assert_allclose(tf.math.xlogy(tf.constant([0.0, 2.0]),
                                             tf.constant([0.0, 3.0])).numpy(),
                               [0.0, 2.0 * np.log(3.0)], rtol=1e-6)
    np.testing.assert_allclose(torch.hypot(torch.tensor(x), torch.tensor(y)).numpy(),
                               np.hypot(x, y), rtol=1e-6)


def test_special_and_scan_spellings():
    x = np.array([0.5, 3.0], dtype=np.float32)
    lgamma = np.array([0.5723649, 0.6931472], dtype=np.float32)
    np.testing.assert_allclose(torch.lgamma(torch.tensor(x)).numpy(), lgamma, rtol=1e-5)
    np.testing.assert_allclose(tf.math.lgamma(tf.constant(x)).numpy(), lgamma, rtol=1e-5)
    np.testing.assert_allclose(ms.ops.lgamma(ms.Tensor(x)).asnumpy(), lgamma, rtol=1e-5)
    np.testing.assert_allclose(tf.math.bessel_i0(tf.constant([0.0])).numpy(), [1.0])
    np.testing.assert_allclose(torch.tensor([1.0, 2.0, 3.0]).cumprod(0).numpy(), [1.0, 2.0, 6.0])
    values, indices = torch.cummax(torch.tensor([1.0, 3.0, 2.0]), 0)
    np.testing.assert_array_equal(values.numpy(), [1.0, 3.0, 3.0])
    np.testing.assert_array_equal(indices.numpy(), [0, 1, 1])
