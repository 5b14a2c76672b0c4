"""The integer/bitwise ops and the statistics ops under the three frameworks' names:
``torch.*`` functions and Tensor methods, ``tf.bitwise.*``, ``tf.math.floormod`` /
``truncatemod``, ``tf.linalg.cross`` and ``mindspore.ops.*``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch

A = [12, -3, 7, 0]
B = [6, 2, 5, 3]


@pytest.mark.parametrize("name, reference", [
    ("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
    ("bitwise_xor", np.bitwise_xor), ("bitwise_left_shift", np.left_shift),
    ("bitwise_right_shift", np.right_shift), ("gcd", np.gcd), ("lcm", np.lcm)])
def test_torch_integer_functions_and_methods(name, reference):
    expected = reference(np.array(A), np.array(B))
    x, y = torch.tensor(A), torch.tensor(B)
    np.testing.assert_array_equal(getattr(torch, name)(x, y).numpy(), expected)
    np.testing.assert_array_equal(getattr(x, name)(y).numpy(), expected)
    inplace = torch.tensor(A)
    assert getattr(inplace, name + "_")(y) is inplace
    np.testing.assert_array_equal(inplace.numpy(), expected)
    np.testing.assert_array_equal(getattr(ms.ops, name)(ms.Tensor(A), ms.Tensor(B)).asnumpy(),
                                  expected)


def test_torch_operators_and_unary_spellings():
    x, y = torch.tensor(A), torch.tensor(B)
    np.testing.assert_array_equal((x & y).numpy(), np.bitwise_and(A, B))
    np.testing.assert_array_equal((x | y).numpy(), np.bitwise_or(A, B))
    np.testing.assert_array_equal((x ^ y).numpy(), np.bitwise_xor(A, B))
    np.testing.assert_array_equal((x << y).numpy(), np.left_shift(A, B))
    np.testing.assert_array_equal((x >> y).numpy(), np.right_shift(A, B))
    np.testing.assert_array_equal((~x).numpy(), np.invert(A))
    np.testing.assert_array_equal(torch.bitwise_not(x).numpy(), np.invert(A))
    np.testing.assert_array_equal(x.bitwise_not().numpy(), np.invert(A))
    np.testing.assert_array_equal(torch.fix(torch.tensor([-1.5, 2.5])).numpy(), [-1.0, 2.0])
    np.testing.assert_array_equal(torch.tensor([-1.5, 2.5]).fix().numpy(), [-1.0, 2.0])


def test_float_decomposition_spellings():
    values = [8.0, -3.0]
    mantissa, exponent = torch.frexp(torch.tensor(values))
    np.testing.assert_array_equal(mantissa.numpy(), [0.5, -0.75])
    assert exponent.dtype == torch.int32 and exponent.tolist() == [4, 2]
    assert torch.tensor(values).frexp().exponent.tolist() == [4, 2]
    np.testing.assert_array_equal(torch.ldexp(torch.tensor([1.0, 3.0]), torch.tensor([2, -1]))
                                  .numpy(), [4.0, 1.5])
    np.testing.assert_array_equal(torch.tensor([1.0, 3.0]).ldexp(torch.tensor([2, -1])).numpy(),
                                  [4.0, 1.5])
    np.testing.assert_array_equal(ms.ops.ldexp(ms.Tensor([1.0, 3.0]), ms.Tensor([2, -1]))
                                  .asnumpy(), [4.0, 1.5])
    up = np.nextafter(np.float32(1.0), np.float32(2.0))
    assert torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0])).numpy()[0] == up
    assert torch.tensor([1.0]).nextafter(torch.tensor([2.0])).numpy()[0] == up
    assert ms.ops.nextafter(ms.Tensor([1.0]), ms.Tensor([2.0])).asnumpy()[0] == up
    np.testing.assert_array_equal(torch.round(torch.tensor([1.234]), decimals=2).numpy(),
                                  np.float32([1.23]))


def test_tensorflow_bitwise():
    x, y = tf.constant(A), tf.constant(B)
    for name, reference in (("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                            ("bitwise_xor", np.bitwise_xor), ("left_shift", np.left_shift),
                            ("right_shift", np.right_shift)):
        result = getattr(tf.bitwise, name)(x, y)
        assert result.dtype == tf.int32
        np.testing.assert_array_equal(result.numpy(), reference(np.array(A), np.array(B)))
    np.testing.assert_array_equal(tf.bitwise.invert(x).numpy(), np.invert(np.int32(A)))
    np.testing.assert_array_equal(tf.bitwise.invert(tf.constant([1], dtype=tf.uint8)).numpy(),
                                  [254])
    with pytest.raises(TypeError, match="not in the list of allowed values"):
        tf.bitwise.bitwise_and(tf.constant([1.0]), tf.constant([1.0]))
    with pytest.raises(TypeError, match="was expected to be a int32 tensor"):
        tf.bitwise.bitwise_and(x, tf.constant(B, dtype=tf.int64))


def test_tensorflow_modulus_and_cross():
    x, y = tf.constant([-7, 7, -7]), tf.constant([3, -3, -3])
    np.testing.assert_array_equal(tf.math.floormod(x, y).numpy(), [2, -2, -1])
    np.testing.assert_array_equal(tf.math.truncatemod(x, y).numpy(), [-1, 1, -1])
    np.testing.assert_allclose(tf.math.truncatemod(tf.constant([-7.5]), 2.0).numpy(), [-1.5])
    a = tf.Variable([[1.0, 2.0, 3.0]])
    b = tf.constant([[0.0, 1.0, 0.0]])
    with tf.GradientTape() as tape:
        result = tf.reduce_sum(tf.linalg.cross(a, b) * tf.constant([[1.0, 2.0, 3.0]]))
    np.testing.assert_array_equal(tf.linalg.cross(a, b).numpy(), [[-3.0, 0.0, 1.0]])
    # d/da <a x b, c> = b x c
    np.testing.assert_array_equal(tape.gradient(result, a).numpy(), [[3.0, 0.0, -1.0]])
    with pytest.raises(ValueError):
        tf.linalg.cross(a, tf.constant([0.0, 1.0, 0.0]))


def test_torch_statistics_spellings():
    data = [[0.0, 1.0, 2.0], [2.0, 1.0, 5.0]]
    x = torch.tensor(data)
    covariance = np.cov(np.array(data))
    np.testing.assert_allclose(torch.cov(x).numpy(), covariance, rtol=1e-6)
    np.testing.assert_allclose(x.cov().numpy(), covariance, rtol=1e-6)
    np.testing.assert_allclose(torch.corrcoef(x).numpy(), np.corrcoef(np.array(data)),
                               rtol=1e-6)
    np.testing.assert_allclose(x.corrcoef().numpy(), np.corrcoef(np.array(data)), rtol=1e-6)
    points, others = torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0], [1.0, 0.0]])
    np.testing.assert_allclose(torch.cdist(points, others).numpy(), [[5.0, 1.0]])
    assert torch.dist(torch.tensor([1.0, 2.0]), torch.tensor([4.0, 6.0])).item() == 5.0
    assert torch.tensor([1.0, 2.0]).dist(torch.tensor([4.0, 6.0]), 1).item() == 7.0
    rows = torch.tensor([[3.0, 4.0], [0.3, 0.4]])
    np.testing.assert_allclose(torch.renorm(rows, 2, 0, 1.0).numpy(), [[0.6, 0.8], [0.3, 0.4]],
                               rtol=1e-6)
    np.testing.assert_allclose(rows.renorm(2, 0, 1.0).numpy(), [[0.6, 0.8], [0.3, 0.4]],
                               rtol=1e-6)
    a, b = torch.tensor([[1.0, 0.0, 0.0]]), torch.tensor([[0.0, 1.0, 0.0]])
    np.testing.assert_array_equal(torch.cross(a, b, dim=1).numpy(), [[0.0, 0.0, 1.0]])
    np.testing.assert_array_equal(a.cross(b, dim=1).numpy(), [[0.0, 0.0, 1.0]])
    np.testing.assert_array_equal(torch.linalg.cross(a, b).numpy(), [[0.0, 0.0, 1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(torch.cross(a, b).numpy(), [[0.0, 0.0, 1.0]])


def test_mindspore_statistics_spellings():
    data = [[0.0, 1.0, 2.0], [2.0, 1.0, 5.0]]
    np.testing.assert_allclose(ms.ops.cov(ms.Tensor(data)).asnumpy(), np.cov(np.array(data)),
                               rtol=1e-6)
    np.testing.assert_allclose(ms.ops.cov(ms.Tensor(data), correction=0).asnumpy(),
                               np.cov(np.array(data), ddof=0), rtol=1e-6)
    np.testing.assert_allclose(
        ms.ops.cdist(ms.Tensor([[0.0, 0.0]]), ms.Tensor([[3.0, 4.0]]), p=1.0).asnumpy(), [[7.0]])
    assert ms.ops.dist(ms.Tensor([1.0, 2.0]), ms.Tensor([4.0, 6.0])).asnumpy() == 5.0
    np.testing.assert_allclose(
        ms.ops.renorm(ms.Tensor([[1.0, 1, 1], [2, 2, 2], [3, 3, 3]]), 1, 0, 6.0).asnumpy(),
        [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [2.0, 2.0, 2.0]], rtol=1e-6)
    with pytest.raises(ValueError):
        ms.ops.renorm(ms.Tensor([[1.0, 1.0]]), 0, 0, 1.0)
    with pytest.raises(TypeError):
        ms.ops.renorm(ms.Tensor([[1.0, 1.0]]), 1.5, 0, 1.0)
    np.testing.assert_array_equal(
        ms.ops.cross(ms.Tensor([[1, 0, 0]]), ms.Tensor([[0, 1, 0]])).asnumpy(), [[0, 0, 1]])
    np.testing.assert_array_equal(ms.ops.invert(ms.Tensor([0, 5])).asnumpy(), [-1, -6])
    assert isinstance(ms.ops.gcd(ms.Tensor([4]), ms.Tensor([6])), ms.Tensor)
