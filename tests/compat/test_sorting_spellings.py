"""The sorting and order-statistics ops under the three frameworks' names."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch
from unigrad.compat.mindspore import ops

ROWS = [[3.0, 1.0, 2.0, 1.0], [0.5, 4.0, -1.0, 2.5]]


def test_torch_functions():
    x = torch.tensor(ROWS)
    values, indices = torch.sort(x, dim=1, descending=True)
    np.testing.assert_array_equal(values.numpy(), [[3, 2, 1, 1], [4, 2.5, 0.5, -1]])
    np.testing.assert_array_equal(indices.numpy(), [[0, 2, 1, 3], [1, 3, 0, 2]])
    np.testing.assert_array_equal(torch.argsort(x, stable=True, dim=1).numpy(),
                                  [[1, 3, 2, 0], [2, 0, 3, 1]])
    np.testing.assert_array_equal(torch.msort(x).numpy(), [[0.5, 1, -1, 1], [3, 4, 2, 2.5]])
    np.testing.assert_array_equal(torch.topk(x, 2).indices.numpy(), [[0, 2], [1, 3]])
    assert torch.kthvalue(x, 2, 1).values.tolist() == [1.0, 0.5]
    assert torch.median(x).item() == 1.0
    assert torch.median(x, 1).indices.tolist() == [3, 0]
    assert torch.nanmedian(torch.tensor([float("nan"), 2.0, 1.0])).item() == 1.0
    assert torch.mode(torch.tensor([2, 1, 2, 1, 3])).values.item() == 1
    assert torch.quantile(x, 0.5, dim=1).tolist() == [1.5, 1.5]
    assert torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0]), 0.5).item() == 2.0
    assert torch.unique(torch.tensor([3, 1, 3])).tolist() == [1, 3]
    assert torch.unique_consecutive(torch.tensor([3, 3, 1, 3])).tolist() == [3, 1, 3]
    assert torch.searchsorted(torch.tensor([1.0, 2.0, 3.0]), 2.0, right=True).item() == 2
    assert torch.bucketize(torch.tensor([2.0]), torch.tensor([1.0, 3.0])).tolist() == [1]
    assert torch.histc(torch.tensor([1.0, 2.0, 2.5]), bins=2, min=1, max=3).tolist() == [1, 2]
    assert torch.bincount(torch.tensor([0, 2, 2])).tolist() == [1, 0, 2]


@pytest.mark.parametrize("name, args, expected", [
    ("sort", (1,), [[1, 1, 2, 3], [-1, 0.5, 2.5, 4]]),
    ("argsort", (), [[1, 3, 2, 0], [2, 0, 3, 1]]),
    ("msort", (), [[0.5, 1, -1, 1], [3, 4, 2, 2.5]]),
    ("topk", (1,), [[3], [4]]),
    ("kthvalue", (1,), [1, -1]),
    ("median", (1,), [1, 0.5]),
    ("nanmedian", (1,), [1, 0.5]),
    ("mode", (1,), [1, -1]),
    ("quantile", (1.0, 1), [3, 4]),
    ("nanquantile", (0.0, 1), [1, -1]),
    ("unique", (), [-1, 0.5, 1, 2, 2.5, 3, 4]),
    ("unique_consecutive", (), [3, 1, 2, 1, 0.5, 4, -1, 2.5]),
    ("histc", (2, 0, 4), [3, 4]),
])
def test_torch_tensor_methods(name, args, expected):
    out = getattr(torch.tensor(ROWS), name)(*args)
    out = out[0] if isinstance(out, tuple) else out
    np.testing.assert_allclose(out.numpy(), expected)
    assert torch.tensor([0, 3, 3]).bincount().tolist() == [1, 0, 0, 2]


def test_tensorflow_names():
    x = tf.constant(ROWS)
    np.testing.assert_array_equal(tf.sort(x, direction="DESCENDING").numpy()[0], [3, 2, 1, 1])
    indices = tf.argsort(x, axis=0, stable=True)
    assert indices.dtype == tf.int32
    np.testing.assert_array_equal(indices.numpy(), [[1, 0, 1, 0], [0, 1, 0, 1]])
    for top_k in (tf.math.top_k, tf.nn.top_k):
        values, positions = top_k(x, k=2)
        np.testing.assert_array_equal(values.numpy(), [[3, 2], [4, 2.5]])
        np.testing.assert_array_equal(positions.numpy(), [[0, 2], [1, 3]])
    y, idx = tf.unique(tf.constant([4, 1, 4, 2]))
    assert y.numpy().tolist() == [4, 1, 2] and idx.numpy().tolist() == [0, 1, 0, 2]
    assert tf.searchsorted(tf.constant([1.0, 2.0, 3.0]), tf.constant([2.0]),
                           side="right").numpy().tolist() == [2]
    assert tf.math.bincount(tf.constant([0, 2, 2]), maxlength=2).numpy().tolist() == [1, 0]
    counts = tf.histogram_fixed_width(tf.constant([-1.0, 0.5, 9.0]), [0.0, 1.0], nbins=2)
    assert counts.numpy().tolist() == [1, 2]
    with pytest.raises(ValueError, match="direction"):
        tf.sort(x, direction="UP")


def test_mindspore_names():
    x = ms.Tensor(ROWS)
    values, indices = ops.sort(x, axis=0, descending=True)
    np.testing.assert_array_equal(values.asnumpy(), [[3, 4, 2, 2.5], [0.5, 1, -1, 1]])
    assert indices.dtype == ms.int32
    assert ops.argsort(x, descending=True).asnumpy().tolist() == [[0, 2, 1, 3], [1, 3, 0, 2]]
    values, indices = ops.topk(x, 1, largest=False)
    assert values.asnumpy().tolist() == [[1], [-1]] and indices.asnumpy().tolist() == [[1], [2]]
    y, idx = ops.unique(ms.Tensor([1, 2, 5, 2]))
    assert y.asnumpy().tolist() == [1, 2, 5] and idx.asnumpy().tolist() == [0, 1, 2, 1]
    assert ops.searchsorted(ms.Tensor([1.0, 2.0]), ms.Tensor([1.5]),
                            out_int32=True).asnumpy().tolist() == [1]
    values, indices = ops.median(ms.Tensor([[9, 3, 4, 5], [5, 2, 7, 4], [8, 1, 3, 6]]), axis=0)
    assert values.asnumpy().tolist() == [8, 2, 4, 5] and indices.asnumpy().tolist() == [2, 1, 0, 0]
    assert ops.kthvalue(x, 2, 1)[0].asnumpy().tolist() == [1, 0.5]
    np.testing.assert_allclose(ops.quantile(x, 0.5, axis=1).asnumpy(), [1.5, 1.5])
    assert ops.bincount(ms.Tensor([0, 2, 2]), minlength=4).asnumpy().tolist() == [1, 0, 2, 0]
    with pytest.raises(TypeError, match="'descending' must be bool"):
        ops.sort(x, descending=1)
