"""The solvers, LU/Cholesky helpers and matrix functions under the three frameworks' names."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch
from unigrad.compat.mindspore import ops

A = [[4.0, 1.0, 0.0], [2.0, 5.0, 1.0], [0.0, 1.0, 3.0]]
B = [[1.0], [2.0], [3.0]]
L = [[2.0, 0.0, 0.0], [1.0, 2.0, 0.0], [0.5, 0.5, 1.0]]


def _a():
    return np.array(A)


def _spd():
    lower = np.array(L)
    return lower @ lower.T


def test_torch_linalg_names():
    a, b = torch.tensor(A, dtype=torch.float64), torch.tensor(B, dtype=torch.float64)
    x = torch.linalg.solve_triangular(torch.triu(a), b, upper=True)
    np.testing.assert_allclose(np.triu(_a()) @ x.numpy(), B)
    LU, pivots = torch.linalg.lu_factor(a)
    assert pivots.dtype == torch.int32
    np.testing.assert_allclose(torch.linalg.lu_solve(LU, pivots, b).numpy(),
                               np.linalg.solve(_a(), B))
    P, lower, upper = torch.linalg.lu(a)
    np.testing.assert_allclose((P @ lower @ upper).numpy(), A)
    assert torch.linalg.lu_factor_ex(a).info.item() == 0
    assert torch.linalg.cholesky_ex(torch.tensor(_spd())).info.item() == 0
    np.testing.assert_allclose(torch.linalg.inv_ex(a).inverse.numpy(), np.linalg.inv(_a()))
    np.testing.assert_allclose(torch.linalg.solve_ex(a, b).result.numpy(),
                               np.linalg.solve(_a(), B))
    np.testing.assert_allclose(torch.linalg.matrix_power(a, 2).numpy(), _a() @ _a())
    np.testing.assert_allclose(torch.linalg.matrix_exp(torch.zeros(2, 2)).numpy(), np.eye(2))
    assert torch.linalg.multi_dot([a, a, b]).shape == (3, 1)
    assert torch.linalg.vecdot(a, a).tolist() == [17.0, 30.0, 10.0]
    assert torch.linalg.diagonal(a).tolist() == [4.0, 5.0, 3.0]
    assert torch.linalg.tensorinv(a, ind=1).shape == (3, 3)
    assert torch.linalg.tensorsolve(a, b[:, 0]).shape == (3,)
    assert torch.linalg.vander(torch.tensor([2.0, 3.0])).tolist() == [[1.0, 2.0], [1.0, 3.0]]
    q = torch.linalg.householder_product(a, torch.tensor([0.0, 0.0], dtype=torch.float64))
    np.testing.assert_allclose(q.numpy(), np.eye(3))


def test_torch_top_level_names_and_methods():
    a, b = torch.tensor(A, dtype=torch.float64), torch.tensor(B, dtype=torch.float64)
    lower = torch.tensor(L, dtype=torch.float64)
    solution, copy = torch.triangular_solve(b, torch.tril(a), upper=False)
    np.testing.assert_allclose(np.tril(_a()) @ solution.numpy(), B)
    np.testing.assert_allclose(copy.numpy(), np.tril(_a()))
    np.testing.assert_allclose(torch.cholesky_solve(b, lower).numpy(),
                               np.linalg.solve(_spd(), B))
    np.testing.assert_allclose(torch.cholesky_inverse(lower).numpy(), np.linalg.inv(_spd()))
    LU, pivots = torch.lu(a)
    np.testing.assert_allclose(torch.lu_solve(b, LU, pivots).numpy(), np.linalg.solve(_a(), B))
    P, lo, up = torch.lu_unpack(LU, pivots)
    np.testing.assert_allclose((P @ lo @ up).numpy(), A)
    np.testing.assert_allclose(torch.matrix_exp(torch.zeros(2, 2)).numpy(), np.eye(2))
    np.testing.assert_allclose(torch.matrix_power(a, -1).numpy(), np.linalg.inv(_a()))
    assert torch.chain_matmul(a, a).shape == (3, 3)
    assert torch.vander(torch.tensor([2, 3])).tolist() == [[2, 1], [3, 1]]
    assert torch.orgqr(a, torch.tensor([0.0], dtype=torch.float64)).shape == (3, 3)
    # Tensor methods
    np.testing.assert_allclose(b.cholesky_solve(lower).numpy(), np.linalg.solve(_spd(), B))
    np.testing.assert_allclose(lower.cholesky_inverse().numpy(), np.linalg.inv(_spd()))
    np.testing.assert_allclose(b.triangular_solve(torch.triu(a)).solution.numpy(),
                               np.linalg.solve(np.triu(_a()), B))
    np.testing.assert_allclose(b.lu_solve(*a.lu()).numpy(), np.linalg.solve(_a(), B))
    np.testing.assert_allclose(a.matrix_power(2).numpy(), _a() @ _a())
    np.testing.assert_allclose(torch.zeros(2, 2).matrix_exp().numpy(), np.eye(2))
    assert a.orgqr(torch.tensor([0.0], dtype=torch.float64)).shape == (3, 3)


def test_tensorflow_linalg():
    a, b = tf.constant(A), tf.constant(B)
    x = tf.linalg.triangular_solve(a, b, lower=True)
    np.testing.assert_allclose(np.tril(_a()) @ x.numpy(), B, rtol=1e-5)
    x = tf.linalg.triangular_solve(a, b, lower=False, adjoint=True)
    np.testing.assert_allclose(np.triu(_a()).T @ x.numpy(), B, rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.cholesky_solve(tf.constant(L), b).numpy(),
                               np.linalg.solve(_spd(), B), rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.solve(a, b, adjoint=True).numpy(),
                               np.linalg.solve(_a().T, B), rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.inv(a).numpy(), np.linalg.inv(_a()), rtol=1e-5)
    assert tf.linalg.det(a).numpy() == pytest.approx(np.linalg.det(_a()), rel=1e-5)
    sign, log_abs = tf.linalg.slogdet(a)
    assert sign.numpy() == 1.0
    assert log_abs.numpy() == pytest.approx(np.log(np.linalg.det(_a())), rel=1e-5)
    assert tf.linalg.logdet(tf.constant(_spd())).numpy() == pytest.approx(
        np.log(np.linalg.det(_spd())), rel=1e-5)
    np.testing.assert_allclose(tf.linalg.expm(tf.zeros((2, 2))).numpy(), np.eye(2))
    lower_upper, perm = tf.linalg.lu(a)
    assert perm.dtype == tf.int32
    np.testing.assert_allclose(tf.linalg.lu_solve(lower_upper, perm, b).numpy(),
                               np.linalg.solve(_a(), B), rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.lu_reconstruct(lower_upper, perm).numpy(), A,
                               rtol=1e-6)
    np.testing.assert_allclose(tf.linalg.matvec(a, tf.constant([1.0, 1.0, 1.0])).numpy(),
                               [5.0, 8.0, 4.0])
    permuted = tf.constant([[0.0, 1.0, 0.0], [0.0, 0.0, 2.0], [3.0, 0.0, 0.0]])
    lower_upper, perm = tf.linalg.lu(permuted)
    assert perm.numpy().tolist() == [2, 0, 1]
    np.testing.assert_allclose(tf.linalg.lu_reconstruct(lower_upper, perm).numpy(),
                               permuted.numpy())


def test_mindspore_ops():
    a, b = ms.Tensor(np.array(A)), ms.Tensor(np.array(B))
    np.testing.assert_allclose(ops.matrix_exp(ms.Tensor(np.zeros((2, 2)))).asnumpy(), np.eye(2))
    np.testing.assert_allclose(ops.matrix_power(a, 2).asnumpy(), _a() @ _a())
    lower = ms.Tensor(np.array(L))
    np.testing.assert_allclose(ops.cholesky_solve(b, lower).asnumpy(), np.linalg.solve(_spd(), B))
    np.testing.assert_allclose(ops.cholesky_inverse(lower).asnumpy(), np.linalg.inv(_spd()))
    LU, pivots = torch.linalg.lu_factor(torch.tensor(A, dtype=torch.float64))
    np.testing.assert_allclose(ops.lu_solve(b, LU, pivots).asnumpy(), np.linalg.solve(_a(), B))
    P, lo, up = ops.lu_unpack(LU, pivots)
    np.testing.assert_allclose((P @ lo @ up).asnumpy(), A)
    assert ops.lu_unpack(LU, pivots, unpack_data=False)[1:] == (None, None)
    np.testing.assert_allclose(ops.vander(ms.Tensor([1.0, 2.0, 3.0]), N=2).asnumpy(),
                               [[1, 1], [2, 1], [3, 1]])
    with pytest.raises(ValueError, match="'N' must be greater than 0"):
        ops.vander(ms.Tensor([1.0]), N=0)
