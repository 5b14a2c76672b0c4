"""The layout ops (stacking, grids, diagonals, roll/rotate, splitting, index generators)
under the three frameworks' names and argument conventions."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch

M = np.arange(12, dtype=np.float32).reshape(3, 4)
V = np.array([1.0, 2.0, 3.0], dtype=np.float32)


def numpy_of(value):
    return value.asnumpy() if hasattr(value, "asnumpy") else value.numpy()


TORCH_FUNCTIONS = [
    ("atleast_1d", lambda t: t.atleast_1d(t.tensor(2.0)), np.array([2.0])),
    ("atleast_2d", lambda t: t.atleast_2d(t.tensor(V)), V[None]),
    ("atleast_3d", lambda t: t.atleast_3d(t.tensor(M)), M[..., None]),
    ("hstack", lambda t: t.hstack([t.tensor(V), t.tensor(V)]), np.hstack([V, V])),
    ("vstack", lambda t: t.vstack([t.tensor(V), t.tensor(V)]), np.vstack([V, V])),
    ("row_stack", lambda t: t.row_stack([t.tensor(V), t.tensor(V)]), np.vstack([V, V])),
    ("dstack", lambda t: t.dstack([t.tensor(M), t.tensor(M)]), np.dstack([M, M])),
    ("column_stack", lambda t: t.column_stack([t.tensor(V), t.tensor(V)]),
     np.column_stack([V, V])),
    ("meshgrid", lambda t: t.meshgrid(t.tensor(V), t.tensor(V[:2]), indexing="xy")[0],
     np.meshgrid(V, V[:2])[0]),
    ("diag", lambda t: t.diag(t.tensor(V), 1), np.diag(V, 1)),
    ("diag_embed", lambda t: t.diag_embed(t.tensor(M)), M[..., None] * np.eye(4)),
    ("diagonal", lambda t: t.diagonal(t.tensor(M), -1), np.diagonal(M, -1)),
    ("diagflat", lambda t: t.diagflat(t.tensor(V)), np.diagflat(V)),
    ("trace", lambda t: t.trace(t.tensor(M)), np.trace(M)),
    ("kron", lambda t: t.kron(t.tensor(V), t.tensor(V)), np.kron(V, V)),
    ("roll", lambda t: t.roll(t.tensor(M), 1, 0), np.roll(M, 1, 0)),
    ("rot90", lambda t: t.rot90(t.tensor(M), 1, [0, 1]), np.rot90(M)),
    ("flipud", lambda t: t.flipud(t.tensor(M)), np.flipud(M)),
    ("fliplr", lambda t: t.fliplr(t.tensor(M)), np.fliplr(M)),
    ("tensor_split", lambda t: t.tensor_split(t.tensor(M), 2, 1)[1], M[:, 2:]),
    ("hsplit", lambda t: t.hsplit(t.tensor(M), 2)[0], M[:, :2]),
    ("vsplit", lambda t: t.vsplit(t.tensor(M), [1])[1], M[1:]),
    ("dsplit", lambda t: t.dsplit(t.tensor(M[None]), 4)[3], M[None][..., 3:]),
    ("unflatten", lambda t: t.unflatten(t.tensor(M), 1, (2, 2)), M.reshape(3, 2, 2)),
    ("block_diag", lambda t: t.block_diag(t.tensor(V), t.tensor(1.0)),
     np.array([[1.0, 2.0, 3.0, 0.0], [0.0, 0.0, 0.0, 1.0]])),
    ("cartesian_prod", lambda t: t.cartesian_prod(t.tensor(V[:2]), t.tensor(V[:2])),
     np.array([[1.0, 1.0], [1.0, 2.0], [2.0, 1.0], [2.0, 2.0]])),
    ("combinations", lambda t: t.combinations(t.tensor(V)),
     np.array([[1.0, 2.0], [1.0, 3.0], [2.0, 3.0]])),
    ("tril_indices", lambda t: t.tril_indices(2, 2), np.array([[0, 1, 1], [0, 0, 1]])),
    ("triu_indices", lambda t: t.triu_indices(2, 2), np.array([[0, 0, 1], [0, 1, 1]])),
]


@pytest.mark.parametrize("name, call, expected", TORCH_FUNCTIONS,
                         ids=[case[0] for case in TORCH_FUNCTIONS])
def test_torch_functions(name, call, expected):
    np.testing.assert_array_equal(call(torch).numpy(), expected)


TORCH_METHODS = [
    ("diag", lambda x: x.diag(), np.diagonal(M)),
    ("diag_embed", lambda x: x.diag_embed(), M[..., None] * np.eye(4)),
    ("diagonal", lambda x: x.diagonal(1), np.diagonal(M, 1)),
    ("diagflat", lambda x: x.diagflat().shape, (12, 12)),
    ("trace", lambda x: x.trace(), np.trace(M)),
    ("kron", lambda x: x.kron(x).shape, (9, 16)),
    ("roll", lambda x: x.roll(-1), np.roll(M, -1)),
    ("rot90", lambda x: x.rot90(2), np.rot90(M, 2)),
    ("flipud", lambda x: x.flipud(), np.flipud(M)),
    ("fliplr", lambda x: x.fliplr(), np.fliplr(M)),
    ("tensor_split", lambda x: x.tensor_split([1], 1)[0], M[:, :1]),
    ("hsplit", lambda x: x.hsplit(4)[3], M[:, 3:]),
    ("vsplit", lambda x: x.vsplit(3)[2], M[2:]),
    ("unflatten", lambda x: x.unflatten(0, (-1, 1)), M.reshape(3, 1, 4)),
    ("unfold", lambda x: x.unfold(1, 2, 2), M.reshape(3, 2, 2)),
    ("narrow", lambda x: x.narrow(1, 1, 2), M[:, 1:3]),
    ("movedim", lambda x: x.movedim(0, 1), M.T),
    ("moveaxis", lambda x: x.moveaxis(1, 0), M.T),
    ("unbind", lambda x: x.unbind(1)[2], M[:, 2]),
    ("repeat_interleave", lambda x: x.repeat_interleave(2, 0), np.repeat(M, 2, 0)),
    ("ravel", lambda x: x.ravel(), M.ravel()),
]


@pytest.mark.parametrize("name, call, expected", TORCH_METHODS,
                         ids=[case[0] for case in TORCH_METHODS])
def test_torch_tensor_methods(name, call, expected):
    out = call(torch.tensor(M))
    if isinstance(expected, tuple):
        assert tuple(out) == expected
    else:
        np.testing.assert_array_equal(out.numpy(), expected)


def test_tensorflow_linalg():
    x = tf.constant(M)
    np.testing.assert_array_equal(tf.linalg.diag_part(x).numpy(), np.diagonal(M))
    np.testing.assert_array_equal(tf.linalg.diag_part(x, k=-1).numpy(), np.diagonal(M, -1))
    np.testing.assert_array_equal(tf.linalg.diag(tf.constant(V)).numpy(), np.diag(V))
    np.testing.assert_array_equal(tf.linalg.diag(tf.constant(V), k=1).numpy(), np.diag(V, 1))
    batched = np.stack([M, M + 1])
    assert tf.linalg.diag(tf.constant(batched)).shape == (2, 3, 4, 4)
    np.testing.assert_array_equal(tf.linalg.trace(tf.constant(batched)).numpy(),
                                  np.trace(batched, axis1=-2, axis2=-1))
    ints = tf.linalg.trace(tf.constant([[1, 2], [3, 4]]))
    assert ints.numpy() == 5 and ints.dtype == tf.int32
    np.testing.assert_array_equal(tf.linalg.tensor_diag(tf.constant(V)).numpy(), np.diag(V))
    assert tf.linalg.tensor_diag(tf.constant(M)).shape == (3, 4, 3, 4)
    assert tf.linalg.matmul(x, tf.transpose(x)).shape == (3, 3)
    with pytest.raises(NotImplementedError):
        tf.linalg.diag_part(x, k=(0, 1))


def test_tensorflow_roll_and_meshgrid():
    x = tf.constant(M)
    np.testing.assert_array_equal(tf.roll(x, shift=1, axis=1).numpy(), np.roll(M, 1, 1))
    np.testing.assert_array_equal(tf.roll(x, shift=[1, 2], axis=[0, 0]).numpy(),
                                  np.roll(M, 3, 0))
    grids = tf.meshgrid(tf.constant(V), tf.constant(V[:2]))
    assert isinstance(grids, list) and [tuple(g.shape) for g in grids] == [(2, 3), (2, 3)]
    np.testing.assert_array_equal(grids[0].numpy(), np.meshgrid(V, V[:2])[0])
    ij = tf.meshgrid(tf.constant(V), tf.constant(V[:2]), indexing="ij")
    assert tuple(ij[0].shape) == (3, 2)
    assert isinstance(grids[0], tf.Tensor)


def test_tensorflow_gradient_through_diag_part():
    x = tf.Variable(M)
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(tf.linalg.diag_part(x))
    np.testing.assert_array_equal(tape.gradient(total, x).numpy(), np.eye(3, 4))


MS_FUNCTIONS = [
    ("hstack", lambda o: o.hstack([ms.Tensor(V), ms.Tensor(V)]), np.hstack([V, V])),
    ("vstack", lambda o: o.vstack((ms.Tensor(V), ms.Tensor(V))), np.vstack([V, V])),
    ("dstack", lambda o: o.dstack([ms.Tensor(M), ms.Tensor(M)]), np.dstack([M, M])),
    ("column_stack", lambda o: o.column_stack([ms.Tensor(V), ms.Tensor(V)]),
     np.column_stack([V, V])),
    ("meshgrid_xy_default", lambda o: o.meshgrid(ms.Tensor(V), ms.Tensor(V[:2]))[1],
     np.meshgrid(V, V[:2])[1]),
    ("meshgrid_tuple_ij", lambda o: o.meshgrid((ms.Tensor(V), ms.Tensor(V[:2])),
                                               indexing="ij")[0],
     np.meshgrid(V, V[:2], indexing="ij")[0]),
    ("diag_tensor_diag", lambda o: o.diag(ms.Tensor(V)), np.diag(V)),
    ("diagflat", lambda o: o.diagflat(ms.Tensor(V), 1), np.diagflat(V, 1)),
    ("diagonal", lambda o: o.diagonal(ms.Tensor(M), 1), np.diagonal(M, 1)),
    ("diag_embed", lambda o: o.diag_embed(ms.Tensor(V)), np.diag(V)),
    ("trace", lambda o: o.trace(ms.Tensor(M)), np.trace(M)),
    ("kron", lambda o: o.kron(ms.Tensor(V), ms.Tensor(V)), np.kron(V, V)),
    ("roll", lambda o: o.roll(ms.Tensor(M), 2), np.roll(M, 2)),
    ("roll_dims", lambda o: o.roll(ms.Tensor(M), shifts=1, dims=1), np.roll(M, 1, 1)),
    ("rot90", lambda o: o.rot90(ms.Tensor(M), 1, (0, 1)), np.rot90(M)),
    ("tensor_split", lambda o: o.tensor_split(ms.Tensor(M), [1], axis=1)[1], M[:, 1:]),
    ("hsplit", lambda o: o.hsplit(ms.Tensor(M), 2)[1], M[:, 2:]),
    ("vsplit", lambda o: o.vsplit(ms.Tensor(M), 3)[0], M[:1]),
    ("dsplit", lambda o: o.dsplit(ms.Tensor(M[None]), 2)[0], M[None][..., :2]),
    ("atleast_1d", lambda o: o.atleast_1d(ms.Tensor(2.0)), np.array([2.0])),
    ("atleast_2d_tuple", lambda o: o.atleast_2d((ms.Tensor(V), ms.Tensor(M)))[0], V[None]),
    ("atleast_3d", lambda o: o.atleast_3d(ms.Tensor(V)), V[None, :, None]),
    ("flipud", lambda o: o.flipud(ms.Tensor(M)), np.flipud(M)),
    ("fliplr", lambda o: o.fliplr(ms.Tensor(M)), np.fliplr(M)),
    ("block_diag", lambda o: o.block_diag(ms.Tensor(V[:1]), ms.Tensor(V[:1])), np.eye(2)),
    ("cartesian_prod", lambda o: o.cartesian_prod(ms.Tensor(V[:1]), ms.Tensor(V[:2])),
     np.array([[1.0, 1.0], [1.0, 2.0]])),
    ("combinations", lambda o: o.combinations(ms.Tensor(V), 3), V[None]),
    ("tril_indices", lambda o: o.tril_indices(3, 2, -1), np.array([[1, 2, 2], [0, 0, 1]])),
    ("triu_indices", lambda o: o.triu_indices(2, 3, 1), np.array([[0, 0, 1], [1, 2, 2]])),
]


@pytest.mark.parametrize("name, call, expected", MS_FUNCTIONS,
                         ids=[case[0] for case in MS_FUNCTIONS])
def test_mindspore_ops(name, call, expected):
    out = call(ms.ops)
    assert isinstance(out, ms.Tensor)
    np.testing.assert_array_equal(numpy_of(out), expected)


def test_mindspore_diag_is_rank_doubling_and_indices_are_int64():
    assert ms.ops.diag(ms.Tensor(M)).shape == (3, 4, 3, 4)
    assert ms.ops.tril_indices(3, 3).dtype == ms.int64
    assert ms.ops.triu_indices(3, 3, dtype=ms.int32).dtype == ms.int32
    with pytest.raises(ValueError):
        ms.ops.meshgrid(ms.Tensor(V), indexing="yx")
    with pytest.raises(ValueError):
        ms.ops.tril_indices(-1, 3)


def test_mindspore_gradient_through_roll():
    grad = ms.grad(lambda x: (ms.ops.roll(x, 1) * ms.Tensor(V)).sum())(ms.Tensor(V))
    np.testing.assert_array_equal(numpy_of(grad), np.roll(V, -1))
