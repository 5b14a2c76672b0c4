"""View copies, writes into views, splits and broadcasting helpers under the three
frameworks' names."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch
from unigrad.compat.mindspore import ops

X = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]


def test_torch_broadcasting_and_splits():
    assert torch.broadcast_shapes((2, 1), (3,)) == (2, 3)
    a, b = torch.broadcast_tensors(torch.tensor([[1.0], [2.0]]), torch.tensor([3.0, 4.0]))
    assert a.tolist() == [[1.0, 1.0], [2.0, 2.0]] and b.tolist() == [[3.0, 4.0], [3.0, 4.0]]
    x = torch.tensor(X)
    assert [p.tolist() for p in torch.split_with_sizes(x, [1, 2], 1)] == [[[1.0], [4.0]],
                                                                         [[2.0, 3.0],
                                                                          [5.0, 6.0]]]
    assert [p.shape for p in x.split_with_sizes([2, 1], dim=1)] == [(2, 2), (2, 1)]
    assert [p.shape for p in torch.unsafe_split(x, 2, 1)] == [(2, 2), (2, 1)]
    assert [p.shape for p in x.unsafe_split(1)] == [(1, 3), (1, 3)]
    assert [p.shape for p in torch.unsafe_chunk(x, 2, 1)] == [(2, 2), (2, 1)]
    assert [p.shape for p in x.unsafe_chunk(2)] == [(1, 3), (1, 3)]
    assert x.sum_to_size(3).tolist() == [5.0, 7.0, 9.0]
    assert x.sum_to_size((2, 1)).tolist() == [[6.0], [15.0]]


def test_torch_copies():
    x = torch.tensor(X)
    assert torch.alias_copy(x).tolist() == X
    assert not torch.detach_copy(x.requires_grad_()).requires_grad
    x = torch.tensor(X)
    assert torch.diagonal_copy(x, 1).tolist() == [2.0, 6.0]
    assert torch.expand_copy(torch.tensor([1.0]), (2, 2)).tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert torch.narrow_copy(x, 1, 1, 1).tolist() == [[2.0], [5.0]]
    assert x.narrow_copy(0, 1, 1).tolist() == [[4.0, 5.0, 6.0]]
    assert torch.permute_copy(x, (1, 0)).shape == (3, 2)
    assert torch.select_copy(x, 1, 0).tolist() == [1.0, 4.0]
    assert torch.squeeze_copy(torch.zeros(1, 2), 0).shape == (2,)
    assert torch.t_copy(x).tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
    assert torch.transpose_copy(x, 0, 1).shape == (3, 2)
    assert [t.tolist() for t in torch.unbind_copy(x)] == X
    assert torch.unfold_copy(torch.arange(4.0), 0, 2, 2).tolist() == [[0.0, 1.0], [2.0, 3.0]]
    assert torch.unsqueeze_copy(x, 0).shape == (1, 2, 3)
    assert torch.view_copy(x, (3, 2)).tolist() == [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    assert [p.shape for p in torch.split_copy(x, 2, 1)] == [(2, 2), (2, 1)]
    assert [p.shape for p in torch.split_with_sizes_copy(x, [1, 2], 1)] == [(2, 1), (2, 2)]


def test_torch_copies_take_out():
    out = torch.zeros(3, 2)
    assert torch.t_copy(torch.tensor(X), out=out) is out
    assert out.tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
    with pytest.raises(TypeError):
        torch.select_scatter(torch.zeros(2), torch.tensor(1.0), 0, 0, out=torch.zeros(2))


def test_torch_scatters_put_and_index_reduce():
    x = torch.tensor(X)
    assert torch.select_scatter(x, torch.zeros(3), 0, 1).tolist()[1] == [0.0] * 3
    assert x.select_scatter(torch.zeros(2), 1, -1).tolist() == [[1.0, 2.0, 0.0],
                                                                 [4.0, 5.0, 0.0]]
    assert torch.slice_scatter(x, torch.zeros(2, 2), 1, 0, None, 2).tolist() == [
        [0.0, 2.0, 0.0], [0.0, 5.0, 0.0]]
    assert x.slice_scatter(torch.zeros(1, 3), start=1).tolist()[1] == [0.0] * 3
    assert torch.diagonal_scatter(x, torch.zeros(2)).tolist() == [[0.0, 2.0, 3.0],
                                                                   [4.0, 0.0, 6.0]]
    assert x.diagonal_scatter(torch.zeros(1), -1).tolist()[1] == [0.0, 5.0, 6.0]
    assert torch.put(x, torch.tensor([0, -1]), torch.tensor([9.0, 8.0])).tolist() == [
        [9.0, 2.0, 3.0], [4.0, 5.0, 8.0]]
    assert x.put(torch.tensor([1, 1]), torch.tensor([1.0, 1.0]), accumulate=True).tolist()[0] \
        == [1.0, 4.0, 3.0]
    source = torch.tensor([[0.0, 9.0, 1.0]])
    assert torch.index_reduce(x, 0, torch.tensor([1]), source, "amax").tolist()[1] == [
        4.0, 9.0, 6.0]
    assert x.index_reduce(0, torch.tensor([0]), source, "prod",
                          include_self=False).tolist()[0] == [0.0, 9.0, 1.0]
    y = torch.tensor(X)
    assert y.put_(torch.tensor([2]), torch.tensor([0.0])) is y
    assert y.index_reduce_(1, torch.tensor([0]), torch.tensor([[3.0], [3.0]]), "mean") is y
    assert y.tolist() == [[2.0, 2.0, 0.0], [3.5, 5.0, 6.0]]
    rows, cols = torch.unravel_index(torch.tensor([4, 1]), (3, 2))
    assert rows.tolist() == [2, 0] and cols.tolist() == [0, 1]


def test_torch_scatter_gradients():
    x = torch.tensor(X, requires_grad=True)
    src = torch.tensor([7.0, 8.0], requires_grad=True)
    torch.diagonal_scatter(x, src, 1).sum().backward()
    assert x.grad.tolist() == [[1.0, 0.0, 1.0], [1.0, 1.0, 0.0]]
    assert src.grad.tolist() == [1.0, 1.0]


def test_tensorflow():
    shape = tf.broadcast_dynamic_shape(tf.constant([2, 1]), tf.constant([4]))
    assert shape.numpy().tolist() == [2, 4] and shape.dtype == tf.int32
    wide = tf.broadcast_dynamic_shape(tf.constant([3], dtype=tf.int64), [1, 1])
    assert wide.dtype == tf.int64 and wide.numpy().tolist() == [1, 3]
    assert tf.broadcast_static_shape((1, 3), [2, 1]) == (2, 3)
    with pytest.raises(ValueError, match="Incompatible shapes"):
        tf.broadcast_static_shape((2,), (3,))
    coordinates = tf.unravel_index(tf.constant([22, 41, 37]), tf.constant([7, 6]))
    assert coordinates.dtype == tf.int32
    np.testing.assert_array_equal(coordinates.numpy(), [[3, 6, 6], [4, 5, 1]])
    assert tf.unravel_index(tf.constant(5, dtype=tf.int64), [2, 3]).numpy().tolist() == [1, 2]
    with pytest.raises(ValueError, match="out of bound"):
        tf.unravel_index(tf.constant([6]), [2, 3])
    with pytest.raises(TypeError):
        tf.unravel_index(tf.constant([1.0]), [2, 3])


def test_mindspore_ops_and_methods():
    x = ms.Tensor(np.array(X, dtype=np.float32))
    assert ops.select_scatter(x, ops.zeros(3), axis=0, index=1).asnumpy().tolist()[1] == [0.0] * 3
    assert ops.slice_scatter(x, ops.zeros((2, 2)), axis=1, start=1).asnumpy().tolist() == [
        [1.0, 0.0, 0.0], [4.0, 0.0, 0.0]]
    assert ops.diagonal_scatter(x, ops.zeros(1), offset=-1).asnumpy().tolist()[1][0] == 0.0
    assert isinstance(ops.diagonal_scatter(x, ops.zeros(2)), ms.Tensor)
    assert x.select_scatter(ops.zeros(2), axis=1, index=0).asnumpy().tolist()[0][0] == 0.0
    assert x.slice_scatter(ops.zeros((1, 3)), axis=0, start=0, end=1).asnumpy().sum() == 15.0
    assert x.diagonal_scatter(ops.zeros(2), dim1=0, dim2=1).asnumpy().sum() == 15.0
    with pytest.raises(ValueError):
        ops.slice_scatter(x, ops.zeros((2, 2)), axis=1, start=0, end=1)
    with pytest.raises(TypeError):
        ops.select_scatter(x, ops.zeros(3), axis=0.5, index=1)
