"""``tf.linalg`` decompositions with TensorFlow's arguments and result orders: ``svd``
(``s, u, v``), ``eigh`` (``e, v``), ``eigvalsh``, ``qr``, ``pinv``, ``lstsq``,
``matrix_rank`` and ``norm``
(also ``tf.norm``), on unigrad's differentiable ops (:mod:`unigrad.ops.decompositions`).
Imported into :mod:`unigrad.compat.tensorflow.linalg`. Real dtypes only.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.linalg.svd(tf.constant([[3.0, 0.0], [0.0, -4.0]]), compute_uv=False).numpy()
    array([4., 3.], dtype=float32)
"""

from __future__ import annotations

import math

import numpy as np

import unigrad as ug
from unigrad.ops.linalg import _adjoint

from ._tensor import Tensor, as_tf, operand

__all__ = ["svd", "eigh", "eigvalsh", "qr", "pinv", "lstsq", "matrix_rank", "norm"]


def svd(tensor, full_matrices: bool = False, compute_uv: bool = True, name: str | None = None):
    """``(s, u, v)`` with ``tensor = u diag(s) v^T`` (``s`` alone with ``compute_uv=False``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> s, u, v = tf.linalg.svd(tf.constant([[2.0, 0.0], [0.0, 1.0]]))
        >>> s.numpy()
        array([2., 1.], dtype=float32)
    """
    a = operand(tensor, "tensor")
    if not compute_uv:
        return as_tf(ug.linalg.svdvals(a))
    u, s, vh = ug.linalg.svd(a, full_matrices=full_matrices)
    return as_tf(s), as_tf(u), as_tf(_adjoint(vh))


def eigh(tensor, name: str | None = None):
    """``(e, v)``: the eigenvalues (ascending) and eigenvectors of symmetric matrices (the
    lower triangle is read).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.eigh(tf.constant([[2.0, 0.0], [0.0, 1.0]]))[0].numpy()
        array([1., 2.], dtype=float32)
    """
    values, vectors = ug.linalg.eigh(operand(tensor, "tensor"))
    return as_tf(values), as_tf(vectors)


def eigvalsh(tensor, name: str | None = None) -> Tensor:
    """The eigenvalues (ascending) of symmetric matrices.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.eigvalsh(tf.constant([[1.0, 2.0], [2.0, 1.0]])).numpy()
        array([-1.,  3.], dtype=float32)
    """
    return as_tf(ug.linalg.eigvalsh(operand(tensor, "tensor")))


def qr(input, full_matrices: bool = False, name: str | None = None):
    """``(q, r)``: the reduced QR decomposition (``full_matrices=True``: the complete one).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> q, r = tf.linalg.qr(tf.constant([[3.0], [4.0]]))
        >>> abs(r.numpy())
        array([[5.]], dtype=float32)
    """
    q, r = ug.linalg.qr(operand(input, "input"), mode="complete" if full_matrices else "reduced")
    return as_tf(q), as_tf(r)


def _eps(a) -> float:
    return float(np.finfo(a._data.dtype).eps)


def pinv(a, rcond=None, validate_args: bool = False, name: str | None = None) -> Tensor:
    """The pseudo-inverse; singular values below ``rcond * largest`` are dropped (default
    ``rcond = 10 * max(m, n) * eps``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.pinv(tf.constant([[2.0, 0.0], [0.0, 0.0]])).numpy()
        array([[0.5, 0. ],
               [0. , 0. ]], dtype=float32)
    """
    x = operand(a, "a")
    if rcond is None:
        rcond = 10.0 * max(tuple(x.shape)[-2:]) * _eps(x)
    return as_tf(ug.linalg.pinv(x, rtol=float(rcond)))


def matrix_rank(a, tol=None, validate_args: bool = False, name: str | None = None) -> Tensor:
    """The number of singular values above ``tol`` (default ``eps * max(m, n) * largest``),
    as int32.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]]))
        <tf.Tensor: shape=(), dtype=int32, numpy=1>
    """
    x = operand(a, "a")
    rank = ug.linalg.matrix_rank(x) if tol is None else ug.linalg.matrix_rank(x, atol=tol,
                                                                              rtol=0.0)
    return as_tf(rank.to(ug.int32))


def lstsq(matrix, rhs, l2_regularizer=0.0, fast: bool = True, name: str | None = None):
    """The least-squares solution of ``matrix @ x = rhs`` (``rhs`` is ``[..., M, K]``), with
    Tikhonov regularization ``l2_regularizer``; without it the minimum-norm solution.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.lstsq(tf.constant([[2.0], [0.0]]), tf.constant([[1.0], [3.0]])).numpy()
        array([[0.5]], dtype=float32)
    """
    a, b = operand(matrix, "matrix"), operand(rhs, "rhs")
    if len(tuple(b.shape)) < 2:
        raise ValueError(f"rhs must be at least 2-dimensional, got shape {tuple(b.shape)}")
    regularizer = float(l2_regularizer)
    if regularizer == 0.0:
        return as_tf(ug.linalg.lstsq(a, b).solution)
    m, n = tuple(a.shape)[-2:]
    if m >= n:
        gram = _adjoint(a) @ a + ug.eye(n, dtype=a.dtype) * regularizer
        return as_tf(ug.linalg.solve(gram, _adjoint(a) @ b))
    gram = a @ _adjoint(a) + ug.eye(m, dtype=a.dtype) * regularizer
    return as_tf(_adjoint(a) @ ug.linalg.solve(gram, b))


_VECTOR_ORDS = ("euclidean", 1, 2, math.inf)
_MATRIX_ORDS = ("euclidean", "fro", 1, 2, math.inf)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name: str | None = None) -> Tensor:
    """``tf.norm``: a vector norm over ``axis`` (everything when None) or a matrix norm over a
    2-tuple ``axis``; ``ord`` is ``'euclidean'``, ``'fro'`` (matrices), 1, 2, ``inf`` or a
    positive p (vectors).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.norm(tf.constant([[3.0, 4.0], [0.0, 0.0]]), axis=1).numpy()
        array([5., 0.], dtype=float32)
    """
    x = operand(tensor, "tensor")
    keep = bool(keepdims)
    if isinstance(axis, (list, tuple)) and len(axis) == 2:
        if ord not in _MATRIX_ORDS:
            raise ValueError(f"'ord' must be a supported matrix norm in {list(_MATRIX_ORDS)}, "
                             f"got {ord}")
        ord = "fro" if ord == "euclidean" else ord
        return as_tf(ug.linalg.matrix_norm(x, ord, tuple(axis), keep))
    if isinstance(axis, (list, tuple)):
        if len(axis) != 1:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {axis}")
        axis = axis[0]
    positive = isinstance(ord, (int, float)) and not isinstance(ord, bool) and ord > 0
    if ord not in _VECTOR_ORDS and not positive:
        raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    p = 2 if ord == "euclidean" else ord
    if axis is None:
        result = ug.linalg.vector_norm(x, p)
        if keep:
            result = ug.reshape(result, (1,) * len(tuple(x.shape)))
        return as_tf(result)
    return as_tf(ug.linalg.vector_norm(x, p, int(axis), keep))
