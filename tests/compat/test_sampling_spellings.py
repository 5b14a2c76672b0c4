"""Front-end spellings of random sampling: ``unigrad.compat.torch`` (functions, Tensor
methods, ``Generator``, RNG state, default dtype/device), ``tf.random`` and ``ms.ops``."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch
from unigrad.compat.mindspore import ops
from unigrad.compat.torch._out import unwrapped

pytestmark = pytest.mark.usefixtures("restore_random_defaults")


TORCH_FUNCTIONS = ["Generator", "bernoulli", "default_generator", "get_default_device",
                   "get_rng_state", "initial_seed", "manual_seed",
                   "multinomial", "normal", "poisson", "rand", "rand_like", "randint",
                   "randint_like", "randn", "randn_like", "randperm", "seed",
                   "set_default_device", "set_default_dtype", "set_rng_state"]
TENSOR_METHODS = ["bernoulli", "bernoulli_", "cauchy_", "exponential_", "geometric_",
                  "log_normal_", "multinomial", "normal_", "random_", "uniform_"]


@pytest.mark.parametrize("name", TORCH_FUNCTIONS)
def test_torch_names_are_unigrad_objects(name):
    assert unwrapped(getattr(torch, name)) is getattr(ug, name)


@pytest.mark.parametrize("name", TENSOR_METHODS)
def test_tensor_methods_exist(name):
    assert callable(getattr(torch.zeros(1), name))


def test_torch_spellings_run():
    g = torch.Generator()
    assert g.manual_seed(3) is g and g.initial_seed() == 3
    a = torch.randn(3, generator=g)
    g.manual_seed(3)
    assert torch.equal(torch.randn(3, generator=g), a)
    assert torch.manual_seed(4) is torch.default_generator
    state = torch.get_rng_state()
    x = torch.rand(2)
    torch.set_rng_state(state)
    assert torch.equal(torch.rand(2), x)
    torch.set_default_dtype(torch.float64)
    assert torch.get_default_dtype() == torch.float64 and torch.tensor(1.0).dtype == torch.float64
    torch.set_default_dtype(torch.float32)
    assert torch.get_default_dtype() == torch.float32
    assert sorted(torch.randperm(4).tolist()) == [0, 1, 2, 3]
    assert torch.multinomial(torch.tensor([0.0, 1.0]), 2, replacement=True).tolist() == [1, 1]
    assert torch.normal(torch.tensor([1.0]), 0.0).tolist() == [1.0]
    assert torch.zeros(2).uniform_(1.0, 1.0).tolist() == [1.0, 1.0]
    assert torch.zeros(2).normal_(2.0, 0.0).tolist() == [2.0, 2.0]
    assert torch.zeros(2, dtype=torch.int64).random_(7, 8).tolist() == [7, 7]


def test_tf_random_spellings():
    for name in ("normal", "uniform", "set_seed", "poisson", "categorical", "shuffle"):
        assert callable(getattr(tf.random, name))
    tf.random.set_seed(1)
    samples = tf.random.poisson([10], [0.5, 1.5])
    assert samples.shape == (10, 2) and samples.dtype == ug.float32
    assert tf.random.poisson([7, 5], [12.2, 3.3], dtype=tf.float64).shape == (7, 5, 2)
    np.testing.assert_array_equal(tf.random.poisson([3], 0.0).numpy(), [0.0, 0.0, 0.0])
    assert type(samples).__module__.startswith("unigrad.compat.tensorflow")
    picks = tf.random.categorical([[0.0, float("-inf")], [float("-inf"), 0.0]], 4)
    assert picks.dtype == ug.int64
    np.testing.assert_array_equal(picks.numpy(), [[0] * 4, [1] * 4])
    assert tf.random.categorical([[0.0, 0.0]], 3, dtype=tf.int32).dtype == ug.int32
    with pytest.raises(ValueError, match="matrix"):
        tf.random.categorical([0.0, 1.0], 2)
    rows = tf.random.shuffle([[1, 2], [3, 4], [5, 6]]).numpy()
    assert sorted(map(tuple, rows)) == [(1, 2), (3, 4), (5, 6)]
    tf.random.set_seed(9)
    first = tf.random.shuffle(list(range(10))).numpy()
    tf.random.set_seed(9)
    np.testing.assert_array_equal(tf.random.shuffle(list(range(10))).numpy(), first)


def test_mindspore_ops_spellings():
    x = ops.randint(1, 10, (2, 3))
    assert x.shape == (2, 3) and x.dtype == ms.int64
    assert (x.asnumpy() >= 1).all() and (x.asnumpy() < 10).all()
    with pytest.raises(TypeError, match="tuple"):
        ops.randint(1, 10, 5)
    np.testing.assert_array_equal(ops.randint(0, 100, (4,), seed=3).asnumpy(),
                                  ops.randint(0, 100, (4,), seed=3).asnumpy())
    perm = ops.randperm(4)
    assert sorted(perm.asnumpy().tolist()) == [0, 1, 2, 3] and perm.dtype == ms.int64
    np.testing.assert_array_equal(ops.randperm(6, seed=2).asnumpy(),
                                  ops.randperm(6, seed=2).asnumpy())
    with pytest.raises(ValueError, match="positive"):
        ops.randperm(0)
    picks = ops.multinomial(ms.Tensor([0.0, 9.0, 4.0, 0.0], ms.float32), 2, replacement=False)
    assert sorted(picks.asnumpy().tolist()) == [1, 2]
    assert (ops.multinomial(ms.Tensor([0.0, 9.0, 0.0]), 4).asnumpy() == 1).all()
    bits = ops.bernoulli(ms.Tensor(np.array([1, 2, 3]), ms.int8), p=1.0)
    assert bits.dtype == ms.int8 and bits.asnumpy().tolist() == [1, 1, 1]
    picked = ops.bernoulli(ms.Tensor([1, 2, 3], ms.int8), ms.Tensor([0.0, 1.0, 1.0]))
    assert picked.asnumpy().tolist() == [0, 1, 1]
    with pytest.raises(ValueError, match="shape"):
        ops.bernoulli(ms.Tensor([1, 2, 3]), ms.Tensor([0.5, 0.5]))
    out = ops.normal((3, 1, 2), ms.Tensor([[3.0, 4.0], [5.0, 6.0]], ms.float32),
                     ms.Tensor(1.0, ms.float32), seed=5)
    assert out.shape == (3, 2, 2) and out.dtype == ms.float32
    np.testing.assert_array_equal(ops.normal((2,), 1.5, 0.0).asnumpy(), [1.5, 1.5])
