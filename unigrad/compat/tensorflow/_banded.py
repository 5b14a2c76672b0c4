"""TensorFlow's banded matrices: ``tf.linalg.tridiagonal_matmul``, ``tridiagonal_solve`` and
``banded_triangular_solve``, computed on the dense matrices their bands describe with
unigrad's differentiable ``matmul`` and solvers (small systems; no banded speed-up).

Tridiagonal ``diagonals`` come as ``"compact"`` (``[..., 3, M]``: superdiagonal with its last
entry ignored, diagonal, subdiagonal with its first entry ignored), ``"sequence"`` (those
three ``[..., M]`` tensors) or ``"matrix"`` (``[..., M, M]``).

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> diagonals = tf.constant([[1.0, 1.0, 0.0], [2.0, 2.0, 2.0], [0.0, 1.0, 1.0]])
    >>> tf.linalg.tridiagonal_matmul(diagonals, tf.ones((3, 1))).numpy()
    array([[3.],
           [4.],
           [3.]], dtype=float32)
"""

from __future__ import annotations

import unigrad as ug
from unigrad.tensor import Tensor as _UgTensor

from ._linalg_solvers import solve, triangular_solve
from ._tensor import Tensor, operand
from .errors import InvalidArgumentError
from .math import _pair, _ret

__all__ = ["tridiagonal_matmul", "tridiagonal_solve", "banded_triangular_solve"]


def _offset_diagonal(values: _UgTensor, offset: int) -> _UgTensor:
    """The ``[..., M, M]`` matrix with ``values`` (``M - |offset|`` long) on diagonal
    ``offset``."""
    return ug.diag_embed(values, offset)


def _tridiagonal_matrix(diagonals, diagonals_format: str) -> _UgTensor:
    if diagonals_format == "matrix":
        matrix = operand(diagonals, "diagonals")
        if matrix.ndim < 2 or matrix.shape[-1] != matrix.shape[-2]:
            raise ValueError(f"Expected last two dimensions of diagonals to be same, got "
                             f"{tuple(matrix.shape[-2:])}")
        return matrix
    if diagonals_format == "sequence":
        if not isinstance(diagonals, (list, tuple)) or len(diagonals) != 3:
            raise ValueError("Expected diagonals to be a sequence of length 3.")
        superdiagonal, main, subdiagonal = (operand(d, "diagonals") for d in diagonals)
    elif diagonals_format == "compact":
        packed = operand(diagonals, "diagonals")
        if packed.ndim < 2 or packed.shape[-2] != 3:
            raise ValueError(f"Expected diagonals to have shape [..., 3, M], got "
                             f"{tuple(packed.shape)}")
        superdiagonal, main, subdiagonal = (packed[..., i, :] for i in range(3))
    else:
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    size = main.shape[-1]
    return (_offset_diagonal(main, 0)
            + _offset_diagonal(ug.narrow(superdiagonal, -1, 0, size - 1), 1)
            + _offset_diagonal(ug.narrow(subdiagonal, -1, 1, size - 1), -1))


def tridiagonal_matmul(diagonals, rhs, diagonals_format: str = "compact",
                       name: str | None = None) -> Tensor:
    """The product of the tridiagonal matrices ``diagonals`` describe with ``rhs``
    (``[..., M, N]``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> diagonals = tf.constant([[1.0, 1.0, 0.0], [2.0, 2.0, 2.0], [0.0, 1.0, 1.0]])
        >>> tf.linalg.tridiagonal_matmul(diagonals, tf.ones((3, 1))).numpy()
        array([[3.],
               [4.],
               [3.]], dtype=float32)
    """
    matrix = _tridiagonal_matrix(diagonals, diagonals_format)
    matrix, right = _pair(matrix, rhs)
    return _ret(ug.matmul(matrix, right), matrix, right)


def tridiagonal_solve(diagonals, rhs, diagonals_format: str = "compact",
                      transpose_rhs: bool = False, conjugate_rhs: bool = False,
                      name: str | None = None, partial_pivoting: bool = True,
                      perturb_singular: bool = False) -> Tensor:
    """The solution ``x`` of ``A @ x = rhs`` for the tridiagonal ``A`` of ``diagonals``;
    ``rhs`` is ``[..., M]`` or ``[..., M, K]`` (``[..., K, M]`` with ``transpose_rhs``),
    conjugated first with ``conjugate_rhs``.

    Raises:
        InvalidArgumentError: When a matrix is singular.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> diagonals = tf.constant([[1.0, 1.0, 0.0], [2.0, 2.0, 2.0], [0.0, 1.0, 1.0]])
        >>> tf.linalg.tridiagonal_solve(diagonals, tf.constant([3.0, 4.0, 3.0])).numpy()
        array([1., 1., 1.], dtype=float32)
    """
    matrix = _tridiagonal_matrix(diagonals, diagonals_format)
    matrix, right = _pair(matrix, rhs)
    vector = right.ndim == matrix.ndim - 1
    if transpose_rhs and not vector:
        right = ug.transpose(right, -2, -1)
    if conjugate_rhs and right.is_complex():
        right = ug.conj(right)
    columns = ug.unsqueeze(right, -1) if vector else right
    try:
        result = solve(matrix, columns)
    except (RuntimeError, ValueError) as error:
        raise InvalidArgumentError(None, None, f"The matrix is not invertible. ({error})") \
            from None
    return _ret(ug.squeeze(result, -1) if vector else result, matrix, right)


def _banded_matrix(bands: _UgTensor, lower: bool) -> _UgTensor:
    count, size = bands.shape[-2:]
    if count > size:
        raise ValueError(f"bands must store at most {size} diagonals, got {count}")
    matrix = None
    for index in range(count):
        if lower:  # bands[i] is subdiagonal i, right-aligned
            diagonal = _offset_diagonal(ug.narrow(bands[..., index, :], -1, index,
                                                  size - index), -index)
        else:  # bands[count - 1 - i] is superdiagonal i, left-aligned
            row = bands[..., count - 1 - index, :]
            diagonal = _offset_diagonal(ug.narrow(row, -1, 0, size - index), index)
        matrix = diagonal if matrix is None else matrix + diagonal
    return matrix


def banded_triangular_solve(bands, rhs, lower: bool = True, adjoint: bool = False,
                            name: str | None = None) -> Tensor:
    """The solution of ``A @ x = rhs`` (``adjoint(A) @ x = rhs`` with ``adjoint``) for the
    triangular ``A`` whose ``K`` diagonals ``bands`` (``[..., K, M]``) stores: with
    ``lower``, row ``i`` is subdiagonal ``i`` (aligned right); otherwise row ``K - 1 - i``
    is superdiagonal ``i`` (aligned left).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> bands = tf.constant([[2.0, 3.0, 4.0], [1.0, 2.0, 3.0]])
        >>> tf.linalg.banded_triangular_solve(bands, tf.ones((3, 1))).numpy()
        array([[0.5 ],
               [0.  ],
               [0.25]], dtype=float32)
    """
    packed = operand(bands, "bands")
    if packed.ndim < 2:
        raise ValueError(f"bands must be at least 2-D ([..., K, M]), got {tuple(packed.shape)}")
    matrix = _banded_matrix(packed, bool(lower))
    return triangular_solve(matrix, rhs, lower=bool(lower), adjoint=bool(adjoint))
