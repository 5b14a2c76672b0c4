"""``mindspore.ops`` solvers and matrix functions with MindSpore's argument names:
``matrix_exp``, ``matrix_power``, ``lu_solve``, ``lu_unpack`` (``None`` for the parts not
unpacked), ``cholesky_solve``, ``cholesky_inverse`` and ``vander`` (decreasing powers).
Imported into :mod:`unigrad.compat.mindspore.ops`.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> print(ops.matrix_exp(ms.Tensor([[0.0, 1.0], [0.0, 0.0]])))
    [[1. 1.]
     [0. 1.]]
"""

from __future__ import annotations

from ... import ops as _ug
from .ops import _bool, _int, _ms, _tensor

__all__ = ["matrix_exp", "matrix_power", "lu_solve", "lu_unpack", "cholesky_solve",
           "cholesky_inverse", "vander"]


@_ms
def matrix_exp(input):
    """The matrix exponential of each square matrix (``(*, n, n)``)."""
    x = _tensor(input, "matrix_exp", "input")
    if len(x.shape) < 2:
        raise ValueError(f"For 'matrix_exp', the rank of 'input' must be at least 2, but got "
                         f"{len(x.shape)}")
    if x.shape[-1] != x.shape[-2]:
        raise ValueError("For 'matrix_exp', the last two dimensions of 'input' must be equal")
    return _ug.matrix_exp(x)


@_ms
def matrix_power(input, n: int):
    """``input`` raised to the integer power ``n`` (negative: powers of the inverse)."""
    return _ug.matrix_power(_tensor(input, "matrix_power", "input"),
                            _int(n, "matrix_power", "n"))


@_ms
def lu_solve(b, LU_data, LU_pivots):
    """The solution of ``A x = b`` from ``A``'s packed LU factorization and its pivots."""
    return _ug.lu_solve(_tensor(b, "lu_solve", "b"), _tensor(LU_data, "lu_solve", "LU_data"),
                        _ug.cast(_tensor(LU_pivots, "lu_solve", "LU_pivots"), "int32"))


@_ms
def lu_unpack(LU_data, LU_pivots, unpack_data: bool = True, unpack_pivots: bool = True):
    """``(P, L, U)`` from a packed LU factorization; ``None`` for the parts not unpacked."""
    unpack_data = _bool(unpack_data, "lu_unpack", "unpack_data")
    unpack_pivots = _bool(unpack_pivots, "lu_unpack", "unpack_pivots")
    pivots = _ug.cast(_tensor(LU_pivots, "lu_unpack", "LU_pivots"), "int32")
    permutation, lower, upper = _ug.lu_unpack(_tensor(LU_data, "lu_unpack", "LU_data"), pivots,
                                              unpack_data, unpack_pivots)
    return (permutation if unpack_pivots else None, lower if unpack_data else None,
            upper if unpack_data else None)


@_ms
def cholesky_solve(input, input2, upper: bool = False):
    """The solution of ``A x = input`` given the Cholesky factor ``input2`` of ``A``."""
    return _ug.cholesky_solve(_tensor(input, "cholesky_solve", "input"),
                              _tensor(input2, "cholesky_solve", "input2"),
                              _bool(upper, "cholesky_solve", "upper"))


@_ms
def cholesky_inverse(input_x, upper: bool = False):
    """The inverse of ``A`` from its Cholesky factor ``input_x``."""
    return _ug.cholesky_inverse(_tensor(input_x, "cholesky_inverse", "input_x"),
                                _bool(upper, "cholesky_inverse", "upper"))


@_ms
def vander(x, N=None):
    """The Vandermonde matrix of a 1-D ``x``, column ``i`` holding ``x ** (N - i - 1)``."""
    x = _tensor(x, "vander", "x")
    if len(x.shape) != 1:
        raise ValueError(f"For 'vander', 'x' must be 1-D, but got {len(x.shape)}-D")
    if N is not None and _int(N, "vander", "N") <= 0:
        raise ValueError(f"For 'vander', 'N' must be greater than 0, but got {N}")
    return _ug.vander(x, N)
