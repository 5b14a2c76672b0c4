"""The scatter / masked / index-writing ops under the three frameworks' names."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch

X = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]


def test_torch_functions_and_methods():
    x = torch.tensor(X)
    index = torch.tensor([2, 0, 2])
    assert torch.index_add(x, 1, index, torch.ones(2, 3)).tolist() == [[2.0, 2.0, 5.0],
                                                                       [5.0, 5.0, 8.0]]
    assert x.index_add(1, index, torch.ones(2, 3), alpha=2).tolist()[0] == [3.0, 2.0, 7.0]
    assert torch.index_copy(x, 0, torch.tensor([1]), torch.zeros(1, 3)).tolist()[1] == [0.0] * 3
    assert x.index_fill(1, torch.tensor([0]), -1.0).tolist() == [[-1.0, 2.0, 3.0],
                                                                 [-1.0, 5.0, 6.0]]
    assert torch.index_put(x, (torch.tensor([0]), torch.tensor([2])),
                           torch.tensor(9.0)).tolist()[0] == [1.0, 2.0, 9.0]
    mask = torch.tensor([True, False, True])
    assert torch.masked_select(x, mask).tolist() == [1.0, 3.0, 4.0, 6.0]
    assert x.masked_select(mask).tolist() == [1.0, 3.0, 4.0, 6.0]
    assert torch.masked_scatter(x, mask, torch.zeros(4)).tolist() == [[0.0, 2.0, 0.0],
                                                                      [0.0, 5.0, 0.0]]
    assert x.masked_scatter(mask, torch.zeros(4)).sum().item() == 7.0
    rows = torch.tensor([[1, 0, 1]])
    assert torch.scatter(x, 0, rows, torch.zeros(1, 3)).tolist() == [[1.0, 0.0, 3.0],
                                                                     [0.0, 5.0, 0.0]]
    assert x.scatter(0, rows, 7.0).tolist()[1] == [7.0, 5.0, 7.0]
    assert torch.scatter_reduce(x, 0, rows, torch.tensor([[9.0, 0.0, 1.0]]), "amax",
                                include_self=True).tolist() == [[1.0, 2.0, 3.0],
                                                                [9.0, 5.0, 6.0]]
    assert x.scatter_reduce(0, rows, torch.tensor([[9.0, 0.0, 1.0]]),
                            "sum").tolist()[1] == [13.0, 5.0, 7.0]
    assert torch.nonzero(torch.tensor([0, 3, 0, 4])).tolist() == [[1], [3]]
    assert [t.tolist() for t in torch.tensor([0, 3]).nonzero(as_tuple=True)] == [[1]]
    assert torch.argwhere(torch.tensor([[0, 1]])).tolist() == [[0, 1]]
    assert torch.tensor([[0, 1]]).argwhere().tolist() == [[0, 1]]


def test_torch_inplace_methods():
    x = torch.zeros(2, 3)
    x.index_add_(0, torch.tensor([1]), torch.ones(1, 3))
    x.index_copy_(1, torch.tensor([0]), torch.full((2, 1), 5.0))
    x.index_fill_(1, torch.tensor([2]), 2.0)
    x.index_put_((torch.tensor([0]), torch.tensor([1])), torch.tensor(3.0), accumulate=True)
    x.masked_scatter_(torch.tensor([[False, False, True], [False, False, False]]),
                      torch.tensor([8.0]))
    x.scatter_(1, torch.tensor([[1], [1]]), 4.0)
    x.scatter_reduce_(1, torch.tensor([[0], [0]]), torch.tensor([[1.0], [9.0]]), "amin")
    assert x.tolist() == [[1.0, 4.0, 8.0], [5.0, 4.0, 2.0]]


def test_tensorflow_scatter_nd():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    indices = [[0, 1], [1, 0], [0, 1]]
    updates = tf.constant([10.0, -1.0, 5.0])
    assert tf.tensor_scatter_nd_add(x, indices, updates).numpy().tolist() == [[1.0, 17.0],
                                                                             [2.0, 4.0]]
    assert tf.tensor_scatter_nd_sub(x, indices, updates).numpy().tolist() == [[1.0, -13.0],
                                                                             [4.0, 4.0]]
    assert tf.tensor_scatter_nd_max(x, indices, updates).numpy().tolist() == [[1.0, 10.0],
                                                                             [3.0, 4.0]]
    assert tf.tensor_scatter_nd_min(x, indices, updates).numpy().tolist() == [[1.0, 2.0],
                                                                             [-1.0, 4.0]]
    rows = tf.tensor_scatter_nd_update(x, [[1]], tf.constant([[7.0, 8.0]]))
    assert rows.numpy().tolist() == [[1.0, 2.0], [7.0, 8.0]]
    assert type(rows).__name__ == "EagerTensor" and rows.dtype == tf.float32
    with pytest.raises(ValueError, match="do not index"):
        tf.tensor_scatter_nd_update(x, [[2, 0]], tf.constant([1.0]))
    with pytest.raises(ValueError, match="updates must have shape"):
        tf.tensor_scatter_nd_add(x, [[0]], tf.constant([1.0]))


def test_tensorflow_scatter_nd_gradient():
    x = tf.Variable([1.0, 2.0, 3.0])
    updates = tf.Variable([5.0, 1.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.tensor_scatter_nd_max(x, [[0], [2]], updates) * [1.0, 2.0, 3.0])
    grad_x, grad_updates = tape.gradient(loss, [x, updates])
    assert grad_x.numpy().tolist() == [0.0, 2.0, 3.0]
    assert grad_updates.numpy().tolist() == [1.0, 0.0]


def test_tensorflow_boolean_mask_where_and_segments():
    x = tf.constant([[1, 2, 3], [4, 5, 6]])
    assert tf.boolean_mask(x, [True, False]).numpy().tolist() == [[1, 2, 3]]
    assert tf.boolean_mask(x, [False, True, True], axis=1).numpy().tolist() == [[2, 3], [5, 6]]
    assert tf.boolean_mask(x, [[True, False, False], [False, False, True]]).numpy().tolist() \
        == [1, 6]
    with pytest.raises(ValueError, match="incompatible"):
        tf.boolean_mask(x, [True, False, True])
    assert tf.where(tf.constant([[True, False], [False, True]])).numpy().tolist() == [[0, 0],
                                                                                      [1, 1]]
    data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    summed = tf.math.unsorted_segment_sum(data, [2, 0, 2], 4)
    assert summed.numpy().tolist() == [[3.0, 4.0], [0.0, 0.0], [6.0, 8.0], [0.0, 0.0]]
    assert tf.math.unsorted_segment_sum(tf.constant([1.0, 2.0]), [-1, 1], 2).numpy().tolist() \
        == [0.0, 2.0]


def test_mindspore_ops():
    ops = ms.ops
    x = ms.Tensor(np.array(X, dtype=np.float32))
    got = ops.index_add(x, ms.Tensor(np.array([2, 0], dtype=np.int32)),
                        ms.Tensor(np.ones((2, 2), dtype=np.float32)), 1)
    assert got.asnumpy().tolist() == [[2.0, 2.0, 4.0], [5.0, 5.0, 7.0]]
    assert type(got).__name__ == "Tensor" and "Tensor(shape=" in repr(got)
    assert ops.index_fill(x, 1, ms.Tensor([0]), 0.0).asnumpy()[:, 0].tolist() == [0.0, 0.0]
    mask = ms.Tensor(np.array([True, False, True]))
    assert ops.masked_select(x, mask).asnumpy().tolist() == [1.0, 3.0, 4.0, 6.0]
    assert ops.masked_scatter(x, mask, ms.Tensor(np.zeros(4, np.float32))).asnumpy().sum() \
        == 7.0
    index = ms.Tensor(np.array([[1, 0, 1]]))
    src = ms.Tensor(np.array([[0.0, 0.0, 0.0]], dtype=np.float32))
    assert ops.scatter(x, 0, index, src).asnumpy().tolist() == [[1.0, 0.0, 3.0],
                                                                [0.0, 5.0, 0.0]]
    elements = ops.tensor_scatter_elements(x, ms.Tensor(np.array([[-1, 0]])),
                                           ms.Tensor(np.array([[1.0, 1.0]], np.float32)),
                                           axis=1, reduction="add")
    assert elements.asnumpy().tolist() == [[2.0, 2.0, 4.0], [4.0, 5.0, 6.0]]
    assert ops.nonzero(ms.Tensor([0, 2, 3])).asnumpy().tolist() == [[1], [2]]
    assert [t.asnumpy().tolist() for t in ops.nonzero(ms.Tensor([0, 2]), as_tuple=True)] == [[1]]
    assert ops.argwhere(ms.Tensor([[0, 1]])).asnumpy().tolist() == [[0, 1]]
    nd = ops.scatter_nd(ms.Tensor(np.array([[0, 1], [0, 1]])),
                        ms.Tensor(np.array([1.5, 2.0], np.float32)), (2, 2))
    assert nd.asnumpy().tolist() == [[0.0, 3.5], [0.0, 0.0]]
    pairs = ms.Tensor(np.array([[0, 0], [0, 0]]))
    updates = ms.Tensor(np.array([1.0, 2.2], np.float32))
    assert ops.tensor_scatter_max(x, pairs, updates).asnumpy()[0, 0] == np.float32(2.2)
    assert ops.tensor_scatter_min(x, pairs, updates).asnumpy()[0, 0] == 1.0
    assert ops.tensor_scatter_add(x, pairs, updates).asnumpy()[0, 0] == np.float32(4.2)
    assert ops.tensor_scatter_sub(x, pairs, updates).asnumpy()[0, 0] == np.float32(-2.2)
