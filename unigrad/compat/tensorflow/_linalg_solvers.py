"""``tf.linalg`` solvers and matrix functions with TensorFlow's arguments: ``triangular_solve``,
``cholesky_solve``, ``solve``, ``inv``, ``det``, ``slogdet``, ``logdet``, ``expm``, ``lu``,
``lu_solve``, ``lu_reconstruct`` and ``matvec``, on unigrad's differentiable ops
(:mod:`unigrad.ops.linalg_solvers`). Imported into :mod:`unigrad.compat.tensorflow.linalg`.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.linalg.triangular_solve(tf.constant([[2.0, 0.0], [1.0, 1.0]]),
    ...                            tf.constant([[2.0], [3.0]])).numpy()
    array([[1.],
           [2.]], dtype=float32)
"""

from __future__ import annotations

import unigrad as ug
from unigrad.backend import int32, int64
from unigrad.ops.linalg_solvers import _mT, linalg_lu, linalg_lu_solve

from ._tensor import Tensor, as_tf, operand
from .math import _ret

__all__ = ["triangular_solve", "cholesky_solve", "solve", "inv", "det", "slogdet", "logdet",
           "expm", "lu", "lu_solve", "lu_reconstruct", "matvec"]


def _adjoint(x, adjoint: bool):
    return _mT(x) if adjoint else x


def triangular_solve(matrix, rhs, lower: bool = True, adjoint: bool = False,
                     name: str | None = None) -> Tensor:
    """The solution of ``matrix @ x = rhs`` (``adjoint(matrix) @ x = rhs`` with
    ``adjoint=True``) where only the ``lower`` (or upper) triangle of ``matrix`` is read.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.triangular_solve(tf.constant([[2.0, 1.0], [0.0, 4.0]]),
        ...                            tf.constant([[4.0], [8.0]]), lower=False).numpy()
        array([[1.],
               [2.]], dtype=float32)
    """
    a, b = operand(matrix, "matrix"), operand(rhs, "rhs")
    triangle = ug.tril(a) if lower else ug.triu(a)
    upper = not lower
    if adjoint:
        triangle, upper = _mT(triangle), lower
    return as_tf(ug.linalg.solve_triangular(triangle, b, upper=upper))


def cholesky_solve(chol, rhs, name: str | None = None) -> Tensor:
    """The solution of ``A x = rhs`` given the lower Cholesky factor ``chol`` of ``A``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.cholesky_solve(tf.constant([[2.0, 0.0], [1.0, 1.0]]),
        ...                          tf.constant([[4.0], [3.0]])).numpy()
        array([[0.5],
               [1. ]], dtype=float32)
    """
    return as_tf(ug.cholesky_solve(operand(rhs, "rhs"), operand(chol, "chol")))


def solve(matrix, rhs, adjoint: bool = False, name: str | None = None) -> Tensor:
    """The solution of ``matrix @ x = rhs`` (``adjoint(matrix)`` with ``adjoint=True``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.solve(tf.constant([[2.0, 0.0], [0.0, 4.0]]),
        ...                 tf.constant([[2.0], [4.0]])).numpy()
        array([[1.],
               [1.]], dtype=float32)
    """
    a, b = operand(matrix, "matrix"), operand(rhs, "rhs")
    if len(b.shape) < 2:
        raise ValueError(f"rhs must be at least 2-dimensional, got shape {tuple(b.shape)}")
    return as_tf(ug.linalg.solve(_adjoint(a, adjoint), b))


def inv(input, adjoint: bool = False, name: str | None = None) -> Tensor:
    """The inverse of each square matrix (of its adjoint with ``adjoint=True``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.inv(tf.constant([[2.0, 0.0], [0.0, 4.0]])).numpy()
        array([[0.5 , 0.  ],
               [0.  , 0.25]], dtype=float32)
    """
    return as_tf(ug.linalg.inv(_adjoint(operand(input, "input"), adjoint)))


def det(input, name: str | None = None) -> Tensor:
    """The determinant of each square matrix.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.det(tf.constant([[1.0, 2.0], [3.0, 4.0]])).numpy()
        np.float32(-2.0)
    """
    return as_tf(ug.linalg.det(operand(input, "input")))


def slogdet(input, name: str | None = None) -> tuple:
    """``(sign, log_abs_determinant)`` of each square matrix.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> sign, log_abs = tf.linalg.slogdet(tf.constant([[-2.0, 0.0], [0.0, 1.0]]))
        >>> sign.numpy(), log_abs.numpy()
        (np.float32(-1.0), np.float32(0.6931472))
    """
    sign, log_abs = ug.linalg.slogdet(operand(input, "input"))
    return as_tf(sign), as_tf(log_abs)


def logdet(matrix, name: str | None = None) -> Tensor:
    """``log(det(matrix))`` of symmetric positive-definite matrices, through their Cholesky
    factor (``2 * sum(log(diag(L)))``), as TensorFlow computes it.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.logdet(tf.constant([[4.0, 0.0], [0.0, 1.0]])).numpy()
        np.float32(1.3862944)
    """
    factor = ug.linalg.cholesky(operand(matrix, "matrix"))
    return as_tf(2.0 * ug.sum(ug.log(ug.diagonal(factor, 0, -2, -1)), -1))


def expm(input, name: str | None = None) -> Tensor:
    """The matrix exponential of each square matrix.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.expm(tf.constant([[0.0, 1.0], [0.0, 0.0]])).numpy()
        array([[1., 1.],
               [0., 1.]], dtype=float32)
    """
    return as_tf(ug.matrix_exp(operand(input, "input")))


def lu(input, output_idx_type=int32, name: str | None = None) -> tuple:
    """``(lu, p)``: the packed LU factors of partial pivoting and the row order ``p`` with
    ``input[..., p, :] = L @ U``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> lower_upper, perm = tf.linalg.lu(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
        >>> perm.numpy()
        array([1, 0], dtype=int32)
    """
    x = operand(input, "input")
    if output_idx_type not in (int32, int64):
        raise TypeError(f"output_idx_type must be int32 or int64, got {output_idx_type}")
    permutation, lower, upper = linalg_lu(x)
    packed = ug.tril(lower, -1) + upper
    order = ug.argmax(permutation, dim=-2)
    return as_tf(packed), as_tf(ug.cast(order, output_idx_type))


def _pivots_from_order(perm):
    """LAPACK's 1-based sequential swaps that put the rows in the order ``perm``."""
    import numpy as np
    order = np.asarray(perm.numpy() if hasattr(perm, "numpy") else perm, dtype=np.int64)
    size = order.shape[-1]
    flat = order.reshape((-1, size))
    pivots = np.empty(flat.shape, dtype=np.int32)
    for row, swaps in zip(flat, pivots):
        current = list(range(size))
        where = list(range(size))  # where[v]: position of row v in current
        for i in range(size):
            j = where[row[i]]
            swaps[i] = j + 1
            current[i], current[j] = current[j], current[i]
            where[current[i]], where[current[j]] = i, j
    return ug.tensor(pivots.reshape(order.shape))


def lu_solve(lower_upper, perm, rhs, validate_args: bool = False,
             name: str | None = None) -> Tensor:
    """The solution of ``A x = rhs`` from :func:`lu`'s ``(lower_upper, perm)`` of ``A``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> lower_upper, perm = tf.linalg.lu(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
        >>> tf.linalg.lu_solve(lower_upper, perm, tf.constant([[5.0], [11.0]])).numpy()
        array([[1.],
               [2.]], dtype=float32)
    """
    packed, b = operand(lower_upper, "lower_upper"), operand(rhs, "rhs")
    return as_tf(linalg_lu_solve(packed, _pivots_from_order(operand(perm, "perm")), b))


def lu_reconstruct(lower_upper, perm, validate_args: bool = False,
                   name: str | None = None) -> Tensor:
    """The matrix ``A`` whose :func:`lu` is ``(lower_upper, perm)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.lu_reconstruct(*tf.linalg.lu(tf.constant([[1.0, 2.0], [3.0, 4.0]])))
        <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
        array([[1., 2.],
               [3., 4.]], dtype=float32)>
    """
    packed = operand(lower_upper, "lower_upper")
    permutation, lower, upper = ug.lu_unpack(packed, _pivots_from_order(operand(perm, "perm")))
    return as_tf(ug.matmul(permutation, ug.matmul(lower, upper)))


def matvec(a, b, transpose_a: bool = False, adjoint_a: bool = False,
           a_is_sparse: bool = False, b_is_sparse: bool = False,
           name: str | None = None) -> Tensor:
    """``a @ b`` for matrices ``a`` and vectors ``b`` (batched).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.matvec(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([1.0, 1.0]))
        <tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 7.], dtype=float32)>
    """
    x, v = operand(a, "a"), operand(b, "b")
    matrix = _adjoint(x, transpose_a or adjoint_a)
    return _ret(ug.squeeze(ug.matmul(matrix, ug.unsqueeze(v, -1)), -1), x, v)
