"""The decompositions (svd, eigh, qr, pinv, lstsq, matrix_rank, cond, spectral norms) under
the three frameworks' names and argument conventions."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch

A = np.array([[3.0, 1.0], [1.0, 2.0], [0.0, 1.0]])
SYMMETRIC = np.array([[2.0, 1.0], [1.0, 2.0]])


def singular_values(a):
    return np.linalg.svd(a, compute_uv=False)


def test_torch_linalg_names():
    x = torch.tensor(A, dtype=torch.float64)
    U, S, Vh = torch.linalg.svd(x, full_matrices=False)
    np.testing.assert_allclose((U @ torch.diag(S) @ Vh).numpy(), A, atol=1e-12)
    assert tuple(torch.linalg.svd(x).U.shape) == (3, 3)
    np.testing.assert_allclose(torch.linalg.svdvals(x).numpy(), singular_values(A))
    eigenvalues, eigenvectors = torch.linalg.eigh(torch.tensor(SYMMETRIC))
    np.testing.assert_allclose(eigenvalues.numpy(), [1.0, 3.0], atol=1e-6)
    np.testing.assert_allclose(np.abs(eigenvectors.numpy()), np.full((2, 2), 0.5 ** 0.5),
                               atol=1e-6)
    np.testing.assert_allclose(torch.linalg.eigvalsh(torch.tensor(SYMMETRIC), UPLO="U").numpy(),
                               [1.0, 3.0], atol=1e-6)
    Q, R = torch.linalg.qr(x)
    np.testing.assert_allclose((Q @ R).numpy(), A, atol=1e-12)
    np.testing.assert_allclose(torch.linalg.pinv(x).numpy(), np.linalg.pinv(A), atol=1e-12)
    assert int(torch.linalg.matrix_rank(x)) == 2
    np.testing.assert_allclose(float(torch.linalg.cond(x)),
                               singular_values(A)[0] / singular_values(A)[1])
    solution = torch.linalg.lstsq(x, torch.tensor([[1.0], [2.0], [3.0]], dtype=torch.float64))
    np.testing.assert_allclose(solution.solution.numpy(),
                               np.linalg.lstsq(A, [[1.0], [2.0], [3.0]], rcond=None)[0])
    np.testing.assert_allclose(float(torch.linalg.matrix_norm(x, "nuc")),
                               singular_values(A).sum())
    np.testing.assert_allclose(float(torch.linalg.norm(x, 2)), singular_values(A)[0])
    np.testing.assert_allclose(float(torch.norm(x, p="nuc")), singular_values(A).sum())


def test_torch_top_level_names_and_methods():
    x = torch.tensor(A, dtype=torch.float64)
    U, S, V = torch.svd(x)
    np.testing.assert_allclose((U @ torch.diag(S) @ V.T).numpy(), A, atol=1e-12)
    np.testing.assert_allclose(x.svd().S.numpy(), singular_values(A))
    assert tuple(torch.svd(x, some=False).V.shape) == (2, 2)
    assert tuple(x.qr(some=False).Q.shape) == (3, 3)
    Q, R = torch.qr(x)
    np.testing.assert_allclose((Q @ R).numpy(), A, atol=1e-12)
    np.testing.assert_allclose(torch.pinverse(x).numpy(), np.linalg.pinv(A), atol=1e-12)
    np.testing.assert_allclose(x.pinverse(rcond=0.5).numpy(), np.linalg.pinv(A, rcond=0.5),
                               atol=1e-12)
    np.testing.assert_allclose(x.mH.numpy(), A.T)
    S_out = torch.zeros(2, dtype=torch.float64)
    torch.svd(x, out=(torch.zeros(3, 2, dtype=torch.float64), S_out,
                      torch.zeros(2, 2, dtype=torch.float64)))
    np.testing.assert_allclose(S_out.numpy(), singular_values(A))
    with pytest.raises(TypeError):
        torch.pinverse(x, out=torch.zeros(2, 3))


def test_tensorflow_names():
    x = tf.constant(A.astype(np.float32))
    s, u, v = tf.linalg.svd(x)
    np.testing.assert_allclose(s.numpy(), singular_values(A), rtol=1e-6)
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ v.numpy().T, A, atol=1e-5)
    assert tuple(tf.linalg.svd(x, full_matrices=True)[1].shape) == (3, 3)
    np.testing.assert_allclose(tf.linalg.svd(x, compute_uv=False).numpy(), singular_values(A),
                               rtol=1e-6)
    e, vectors = tf.linalg.eigh(tf.constant(SYMMETRIC.astype(np.float32)))
    np.testing.assert_allclose(e.numpy(), [1.0, 3.0], atol=1e-6)
    assert tuple(vectors.shape) == (2, 2)
    np.testing.assert_allclose(tf.linalg.eigvalsh(tf.constant(SYMMETRIC)).numpy(), [1.0, 3.0])
    q, r = tf.linalg.qr(x)
    assert (tuple(q.shape), tuple(r.shape)) == ((3, 2), (2, 2))
    assert tuple(tf.linalg.qr(x, full_matrices=True)[0].shape) == (3, 3)
    np.testing.assert_allclose(tf.linalg.pinv(x).numpy(), np.linalg.pinv(A), atol=1e-5)
    rhs = np.array([[1.0], [2.0], [3.0]])
    np.testing.assert_allclose(tf.linalg.lstsq(tf.constant(A), tf.constant(rhs)).numpy(),
                               np.linalg.lstsq(A, rhs, rcond=None)[0], atol=1e-12)
    rank = tf.linalg.matrix_rank(x)
    assert int(rank.numpy()) == 2 and rank.dtype == tf.int32
    assert int(tf.linalg.matrix_rank(x, tol=2.0).numpy()) == 1
    regularized = np.linalg.solve(A.T @ A + 0.5 * np.eye(2), A.T @ rhs)
    np.testing.assert_allclose(
        tf.linalg.lstsq(tf.constant(A), tf.constant(rhs), l2_regularizer=0.5).numpy(),
        regularized, atol=1e-12)


def test_tensorflow_norm():
    x = tf.constant(A)
    np.testing.assert_allclose(tf.norm(x).numpy(), np.linalg.norm(A))
    np.testing.assert_allclose(tf.norm(x, ord=1).numpy(), np.abs(A).sum())
    np.testing.assert_allclose(tf.norm(x, axis=1).numpy(), np.linalg.norm(A, axis=1))
    np.testing.assert_allclose(tf.norm(x, ord=np.inf, axis=0, keepdims=True).numpy(),
                               np.abs(A).max(0, keepdims=True))
    np.testing.assert_allclose(tf.linalg.norm(x, ord=2, axis=(0, 1)).numpy(),
                               singular_values(A)[0])
    np.testing.assert_allclose(tf.norm(x, ord="fro", axis=[-2, -1]).numpy(), np.linalg.norm(A))
    np.testing.assert_allclose(tf.norm(x, ord=1, axis=(0, 1)).numpy(), np.linalg.norm(A, 1))
    np.testing.assert_allclose(tf.norm(x, ord=np.inf, axis=(0, 1)).numpy(),
                               np.linalg.norm(A, np.inf))
    with pytest.raises(ValueError):
        tf.norm(x, ord="fro")
    with pytest.raises(ValueError):
        tf.norm(x, ord="nuc", axis=(0, 1))


def test_mindspore_names():
    x = ms.Tensor(A.astype(np.float32))
    s, u, v = ms.ops.svd(x)
    np.testing.assert_allclose(s.asnumpy(), singular_values(A), rtol=1e-6)
    assert (tuple(u.shape), tuple(v.shape)) == ((3, 2), (2, 2))
    np.testing.assert_allclose((u.asnumpy() * s.asnumpy()) @ v.asnumpy().T, A, atol=1e-5)
    assert tuple(ms.ops.svd(x, full_matrices=True)[1].shape) == (3, 3)
    np.testing.assert_allclose(ms.ops.svd(x, compute_uv=False).asnumpy(), singular_values(A),
                               rtol=1e-6)
    q, r = ms.ops.qr(x)
    np.testing.assert_allclose(q.asnumpy() @ r.asnumpy(), A, atol=1e-5)
    assert tuple(ms.ops.qr(x, mode="complete")[0].shape) == (3, 3)
    np.testing.assert_allclose(ms.ops.pinv(x).asnumpy(), np.linalg.pinv(A), atol=1e-5)
    s_method, u_method, v_method = x.svd()
    np.testing.assert_allclose(s_method.asnumpy(), s.asnumpy())
    np.testing.assert_allclose(x.svd(compute_uv=False).asnumpy(), s.asnumpy())
    with pytest.raises(TypeError):
        ms.ops.svd(x, full_matrices=1)
