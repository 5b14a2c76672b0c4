"""TensorFlow and MindSpore tensors take NumPy's negative-step slices; PyTorch's do not."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch

VALUES = np.arange(24.0).reshape(2, 3, 4)
KEYS = [np.s_[::-1], np.s_[:, ::-2], np.s_[..., 3:0:-2], np.s_[1, None, ::-1, 2],
        np.s_[:, 5:-10:-1], np.s_[::-1, 0:1, ::-3], np.s_[:, 0:2:-1], np.s_[..., ::-1, :]]


@pytest.mark.parametrize("key", KEYS, ids=[str(k) for k in KEYS])
def test_values_match_numpy(key):
    np.testing.assert_array_equal(tf.constant(VALUES)[key].numpy(), VALUES[key])
    np.testing.assert_array_equal(ms.Tensor(VALUES)[key].asnumpy(), VALUES[key])


def test_results_keep_the_framework_type_and_gradients_flow_back_reversed():
    assert isinstance(tf.constant(VALUES)[::-1], tf.Tensor)
    assert isinstance(ms.Tensor(VALUES)[::-1], ms.Tensor)
    variable = tf.Variable(VALUES)
    weights = np.arange(6.0).reshape(2, 3)
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(variable[:, ::-1, 1] * tf.constant(weights))
    expected = np.zeros_like(VALUES)
    expected[:, ::-1, 1] = weights
    np.testing.assert_array_equal(tape.gradient(total, variable).numpy(), expected)


def test_torch_still_refuses_negative_steps():
    with pytest.raises(ValueError, match="step must be greater than zero"):
        torch.tensor([1.0, 2.0])[::-1]
