"""The numeric (predicates, fills, spacings, histograms, gradients) and product ops under
the three frameworks' names: ``unigrad.compat.torch`` functions and Tensor methods,
``tf.tensordot``/``tf.linalg.tensordot`` and the ``mindspore.ops`` functions."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch

INF = float("inf")
VALUES = [-INF, 1.0, INF, float("nan")]


def test_torch_predicates_and_fills():
    x = torch.tensor(VALUES)
    assert torch.isneginf(x).tolist() == [True, False, False, False]
    assert x.isposinf().tolist() == [False, False, True, False]
    assert torch.isreal(x).tolist() == [True] * 4 and x.isreal().tolist() == [True] * 4
    assert torch.isin(torch.tensor([1, 2, 3]), torch.tensor([3, 1]), invert=True).tolist() == \
        [False, True, False]
    assert torch.positive(x) is x
    assert x.positive().shape == (4,)
    assert torch.rsub(torch.tensor([1.0, 2.0]), 5.0, alpha=2).tolist() == [3.0, 1.0]
    assert torch.fill(torch.tensor([1, 2]), 7).tolist() == [7, 7]
    assert torch.scalar_tensor(3).item() == 3.0 and torch.scalar_tensor(3).dtype == torch.float32
    assert torch.empty_strided((2, 3), (3, 1)).shape == (2, 3)
    assert torch.tensor([1, 2]).new_empty((2, 2)).dtype == torch.int64
    out = torch.empty(0, dtype=torch.bool)
    torch.isneginf(x, out=out)
    assert out.tolist() == [True, False, False, False]


def test_torch_spacing_histogram_gradient():
    np.testing.assert_allclose(torch.logspace(0, 2, 3).numpy(), [1.0, 10.0, 100.0])
    np.testing.assert_allclose(torch.logspace(0, 3, 4, base=2.0).numpy(), [1.0, 2.0, 4.0, 8.0])
    y = torch.tensor([1.0, 2.0, 3.0])
    assert torch.trapz(y).item() == 4.0 and torch.trapz(y, dx=2).item() == 8.0
    assert torch.trapz(y, torch.tensor([0.0, 1.0, 3.0])).item() == 6.5
    hist, edges = torch.histogram(torch.tensor([1.0, 2.0, 1.0]), 4, range=(0.0, 3.0))
    assert hist.tolist() == [0.0, 2.0, 1.0, 0.0]
    np.testing.assert_allclose(edges.numpy(), [0.0, 0.75, 1.5, 2.25, 3.0])
    result = torch.tensor([1.0, 2.0, 1.0]).histogram(torch.tensor([0.0, 1.5, 3.0]))
    assert result.hist.tolist() == [2.0, 1.0] and type(result).__name__ == "histogram"
    (derivative,) = torch.gradient(torch.tensor([1.0, 4.0, 9.0, 16.0]))
    assert derivative.tolist() == [3.0, 4.0, 6.0, 7.0]
    rows, columns = torch.gradient(torch.tensor([[1.0, 4.0, 9.0], [2.0, 3.0, 5.0]]),
                                   spacing=[1.0, 2.0])
    assert rows.shape == columns.shape == (2, 3)


def test_torch_products():
    a, b = torch.ones(2, 3), torch.ones(3, 4)
    assert torch.tensordot(a, b, dims=1).tolist() == [[3.0] * 4] * 2
    assert torch.tensordot(a, b, dims=([1], [0])).shape == (2, 4)
    assert torch.inner(a, torch.ones(5, 3)).shape == (2, 5) and a.inner(a).shape == (2, 2)
    assert torch.vdot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])).item() == 11.0
    assert torch.tensor([1.0, 2.0]).vdot(torch.tensor([3.0, 4.0])).item() == 11.0
    c = torch.zeros(2, 4)
    assert torch.addmm(c, a, b, beta=2, alpha=0.5).tolist() == [[1.5] * 4] * 2
    assert c.addmm(a, b).tolist() == [[3.0] * 4] * 2
    c.addmm_(a, b, alpha=2)
    assert c.tolist() == [[6.0] * 4] * 2
    assert torch.addmv(torch.zeros(2), a, torch.ones(3)).tolist() == [3.0, 3.0]
    assert torch.zeros(2).addmv(a, torch.ones(3)).tolist() == [3.0, 3.0]
    assert torch.addr(torch.zeros(2, 2), torch.tensor([1.0, 2.0]),
                      torch.tensor([1.0, 3.0])).tolist() == [[1.0, 3.0], [2.0, 6.0]]
    assert torch.zeros(2, 2).addr(torch.ones(2), torch.ones(2)).tolist() == [[1.0] * 2] * 2
    batch1, batch2 = torch.ones(3, 2, 4), torch.ones(3, 4, 2)
    assert torch.baddbmm(torch.zeros(3, 2, 2), batch1, batch2).shape == (3, 2, 2)
    assert torch.zeros(3, 2, 2).baddbmm(batch1, batch2).shape == (3, 2, 2)
    assert torch.addbmm(torch.zeros(2, 2), batch1, batch2).tolist() == [[12.0] * 2] * 2
    assert torch.zeros(2, 2).addbmm(batch1, batch2).tolist() == [[12.0] * 2] * 2
    out = torch.empty(0)
    torch.addmm(torch.zeros(2, 4), a, b, out=out)
    assert out.tolist() == [[3.0] * 4] * 2


@pytest.mark.parametrize("namespace", [tf, tf.linalg])
def test_tensorflow_tensordot(namespace):
    a, b = tf.ones((2, 3)), tf.ones((3, 4))
    np.testing.assert_allclose(namespace.tensordot(a, b, axes=1).numpy(), np.full((2, 4), 3.0))
    np.testing.assert_allclose(namespace.tensordot(a, b, axes=[[1], [0]]).numpy(),
                               np.full((2, 4), 3.0))
    assert namespace.tensordot(a, b, axes=0).shape == (2, 3, 3, 4)
    assert float(namespace.tensordot(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]),
                                     axes=[0, 0]).numpy()) == 11.0
    x = tf.Variable([[1.0, 2.0, 3.0]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.tensordot(x, tf.ones((3, 2)), axes=1))
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), [[2.0, 2.0, 2.0]])


def test_mindspore_spellings():
    ops = ms.ops
    x = ms.Tensor(VALUES)
    assert ops.isneginf(x).asnumpy().tolist() == [True, False, False, False]
    assert ops.isposinf(x).asnumpy().tolist() == [False, False, True, False]
    assert ops.isreal(x).asnumpy().all()
    logspace = ops.logspace(0.0, 2.0, 3)
    np.testing.assert_allclose(logspace.asnumpy(), [1.0, 10.0, 100.0])
    assert logspace.asnumpy().dtype == np.float32
    y = ms.Tensor([1.0, 2.0, 3.0])
    assert float(ops.trapz(y, dx=2.0).asnumpy()) == 8.0
    assert float(ops.trapz(y, ms.Tensor([0.0, 1.0, 3.0])).asnumpy()) == 6.5
    np.testing.assert_allclose(ops.inner(ms.Tensor([1.0, 2.0, 3.0]),
                                         ms.Tensor([4.0, 5.0, 6.0])).asnumpy(), 32.0)
    np.testing.assert_allclose(
        ops.tensor_dot(ops.ones((1, 2, 3)), ops.ones((3, 1, 2)), ((0, 1), (1, 2))).asnumpy(),
        np.full((3, 3), 2.0))
    m, a, b = np.ones((3, 3), np.float32), np.arange(24.0).reshape(2, 3, 4), \
        np.arange(24.0).reshape(2, 4, 3)
    np.testing.assert_allclose(
        ops.addbmm(ms.Tensor(m), ms.Tensor(a), ms.Tensor(b)).asnumpy(),
        [[949.0, 1009.0, 1069.0], [1285.0, 1377.0, 1469.0], [1621.0, 1745.0, 1869.0]])
    np.testing.assert_allclose(
        ops.addr(ms.Tensor([[2.0, 2.0], [3.0, 2.0], [3.0, 4.0]]), ms.Tensor([2.0, 3.0, 2.0]),
                 ms.Tensor([3.0, 4.0])).asnumpy(), [[8.0, 10.0], [12.0, 14.0], [9.0, 12.0]])
    np.testing.assert_allclose(
        ops.addmm(ops.zeros((2, 2)), ops.ones((2, 3)), ops.ones((3, 2)), beta=0,
                  alpha=2).asnumpy(), np.full((2, 2), 6.0))
    np.testing.assert_allclose(
        ops.addmv(ops.ones(2), ops.ones((2, 3)), ops.ones(3), alpha=0.5).asnumpy(), [2.5, 2.5])
    np.testing.assert_allclose(
        ops.baddbmm(ops.ones((1, 2, 2)), ops.ones((1, 2, 3)), ops.ones((1, 3, 2)), 0.5,
                    2).asnumpy(), np.full((1, 2, 2), 6.5))
    assert type(ops.addmm(ops.zeros((2, 2)), ops.ones((2, 3)),
                          ops.ones((3, 2)))).__name__ == "Tensor"
