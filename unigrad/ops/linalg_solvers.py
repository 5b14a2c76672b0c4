"""Linear solvers, LU/Cholesky helpers and matrix functions, with ``torch.linalg``'s names.

Primitives: the (non-differentiable) LU pivots of partial pivoting and the row
permutation they describe, ``cholesky_ex``'s factor (differentiated as
``cholesky``) and its (non-differentiable) ``info``, and ``matrix_exp`` (its
vjp and jvp are the corner block of the exponential of a block-triangular
matrix, as in PyTorch). The rest are composites of differentiable ops: the LU
factors are an unpivoted Doolittle elimination of the row-permuted input (so
their gradient is PyTorch's, to any order), triangular solves are ``solve`` of
the masked triangle, and the Cholesky solvers differentiate through the full
factor exactly as PyTorch does.
Only real float32/float64 tensors exist in unigrad (complex support comes later).

Example:
    >>> import unigrad as ug
    >>> A = ug.tensor([[2.0, 0.0], [1.0, 1.0]])
    >>> ug.linalg.solve_triangular(A, ug.tensor([[2.0], [3.0]]), upper=False)
    tensor([[1.],
            [2.]])
    >>> ug.linalg.lu_factor(ug.tensor([[1.0, 2.0], [3.0, 4.0]])).pivots
    tensor([2, 2], dtype=unigrad.int32)
"""

from __future__ import annotations

import functools
import math
from collections import namedtuple

import numpy as np

from ..interpreters import has_values
from ..interpreters.batching import over_leading_dims
from ..tensor import Tensor, _make_tensor
from . import elementwise as _elementwise
from . import layout as _layout
from . import reduce as _reduce
from . import shape as _shape
from ._primitive import Primitive, bind
from ._shape_rules import broadcast_shapes, dtype_of, shape_of
from .creation import eye, zeros_like
from .indexing import take_along_dim
from .linalg import (
    LinAlgError,
    _adjoint,
    _check_square,
    _cholesky_jvp,
    _cholesky_vjp,
    _mT,
    _operand,
    inv,
    matmul,
    solve_p,
)
from .registry import op
from .scans import cumprod

__all__ = ["solve_triangular", "triangular_solve", "cholesky_solve", "cholesky_inverse",
           "cholesky_ex", "inv_ex", "solve_ex", "lu_factor", "lu_factor_ex", "lu", "lu_solve",
           "lu_unpack", "matrix_exp", "matrix_power", "multi_dot", "chain_matmul", "vecdot",
           "tensorsolve", "tensorinv", "vander", "householder_product", "orgqr"]
# linalg_lu, linalg_lu_solve, linalg_diagonal and linalg_vander are torch.linalg's spellings
# (``unigrad.linalg.lu``...), whose top-level torch names mean something else

TriangularSolveResult = namedtuple("triangular_solve", ("solution", "cloned_coefficient"))
CholeskyExResult = namedtuple("linalg_cholesky_ex", ("L", "info"))
InvExResult = namedtuple("linalg_inv_ex", ("inverse", "info"))
SolveExResult = namedtuple("linalg_solve_ex", ("result", "info"))
LUFactorResult = namedtuple("linalg_lu_factor", ("LU", "pivots"))
LUFactorExResult = namedtuple("linalg_lu_factor_ex", ("LU", "pivots", "info"))
LUResult = namedtuple("linalg_lu", ("P", "L", "U"))
LUUnpackResult = namedtuple("lu_unpack", ("P", "L", "U"))


def _floating_matrix(name: str, value, label: str = "A", complex_ok: bool = False):
    """``value`` as a floating (batch of) matrix; ``complex_ok``: complex ones too."""
    value = _operand(value)
    shape = tuple(value.shape)
    if len(shape) < 2:
        raise RuntimeError(f"{name}: The input tensor {label} must have at least 2 dimensions.")
    if isinstance(value, Tensor) and value._data.dtype.kind not in ("fc" if complex_ok else "f"):
        raise RuntimeError(f"{name}: Expected a floating point tensor as input. Got "
                           f"{value.dtype.name.capitalize()}")
    return value


def _connected(value, source):
    """``value`` (broadcast to ``source``'s shape), joined to ``source`` with a zero gradient
    (PyTorch's results of this kind still require grad)."""
    return _elementwise.where(True, value, source)


def _eye_like(value, rows: int, columns: int | None = None):
    """An identity of ``value``'s dtype (as a Tensor)."""
    return eye(rows, columns, dtype=value.dtype)


# ----------------------------------------------------------------------------- triangular

def _triangle(A, upper: bool, unitriangular: bool):
    """The triangle of ``A`` a triangular solver reads (a unit diagonal when asked)."""
    if unitriangular:
        part = _shape.triu(A, 1) if upper else _shape.tril(A, -1)
        return part + _eye_like(A, A.shape[-1])
    return _shape.triu(A) if upper else _shape.tril(A)


def _solve_batched(A, B):
    return bind(solve_p, A, B)


@op()
def solve_triangular(A, B, *, upper: bool, left: bool = True, unitriangular: bool = False):
    """The solution ``X`` of ``A X = B`` (``X A = B`` with ``left=False``), ``A`` triangular.

    Only the triangle named by ``upper`` is read (and not its diagonal with
    ``unitriangular=True``); the gradient of ``A`` is that triangle's, as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> A = ug.tensor([[2.0, 1.0], [0.0, 4.0]])
        >>> ug.linalg.solve_triangular(A, ug.tensor([[4.0], [8.0]]), upper=True)
        tensor([[1.],
                [2.]])
    """
    A = _floating_matrix("linalg.solve_triangular", A, complex_ok=True)
    B = _floating_matrix("linalg.solve_triangular", B, "B", complex_ok=True)
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.solve_triangular: A must be batches of square matrices, "
                           f"but they are {A.shape[-2]} by {A.shape[-1]} matrices")
    size = B.shape[-2] if left else B.shape[-1]
    if size != A.shape[-1]:
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the "
                           f"equation {'AX = B' if left else 'XA = B'} "
                           f"({A.shape[-2]}x{A.shape[-1]} and {B.shape[-2]}x{B.shape[-1]})")
    if A.dtype != B.dtype:
        raise RuntimeError(f"linalg.solve_triangular: Expected A and B to have the same dtype, "
                           f"but found A of type {A.dtype.name.capitalize()} and B of type "
                           f"{B.dtype.name.capitalize()} instead")
    triangle = _triangle(A, upper, unitriangular)
    if left:
        return _solve_batched(triangle, B)
    return _mT(_solve_batched(_mT(triangle), _mT(B)))


@op(methods=("triangular_solve",))
def triangular_solve(input, A, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False):
    """``torch.triangular_solve(b, A)``: ``(solution, cloned_coefficient)`` of ``op(A) X = b``.

    ``op(A)`` is ``A`` or, with ``transpose=True``, its transpose (deprecated in PyTorch
    for :func:`solve_triangular`).

    Example:
        >>> import unigrad as ug
        >>> A = ug.tensor([[2.0, 1.0], [0.0, 4.0]])
        >>> ug.triangular_solve(ug.tensor([[4.0], [8.0]]), A).solution
        tensor([[1.],
                [2.]])
    """
    input, A = _operand(input), _operand(A)
    for label, value in (("A", A), ("b", input)):
        if len(value.shape) < 2:
            raise RuntimeError(f"triangular_solve: The input tensor {label} must have at least "
                               f"2 dimensions.")
    coefficient = _transpose_copy(A) if transpose else A
    solution = solve_triangular(coefficient, input, upper=upper != transpose,
                                unitriangular=unitriangular)
    from .views_copies import clone
    return TriangularSolveResult(solution, clone(A))


def _transpose_copy(A):
    return _mT(A)


# ----------------------------------------------------------------------------- Cholesky

def _factor_as_given(L, upper: bool):
    """The lower factor: values of the read triangle, gradient to every entry (as PyTorch)."""
    from ..transforms._core import detached
    triangle = _shape.triu(L) if upper else _shape.tril(L)
    full = L + detached(triangle - L)
    return _adjoint(full) if upper else full


@op(methods=("cholesky_solve",))
def cholesky_solve(input, input2, upper: bool = False):
    """The solution ``X`` of ``A X = B`` given the Cholesky factor of ``A`` (``input2``).

    ``input`` is ``B``; ``input2`` is ``L`` with ``A = L L^T`` (``U^T U`` when
    ``upper=True``). As in PyTorch, only the factor's triangle is read but its
    gradient is that of ``(L L^T)^{-1} B`` with respect to the whole ``L``.

    Example:
        >>> import unigrad as ug
        >>> L = ug.tensor([[2.0, 0.0], [1.0, 1.0]])
        >>> ug.cholesky_solve(ug.tensor([[4.0], [3.0]]), L)
        tensor([[0.5000],
                [1.0000]])
    """
    B = _floating_matrix("cholesky_solve", input, "b", complex_ok=True)
    L = _floating_matrix("cholesky_solve", input2, complex_ok=True)
    _check_square("cholesky_solve", L, complex_ok=True)
    if B.shape[-2] != L.shape[-1]:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is "
                           f"{L.shape[-1]} by {L.shape[-1]} but each b matrix is "
                           f"{B.shape[-2]} by {B.shape[-1]}")
    lower = _factor_as_given(L, upper)
    return _solve_batched(_adjoint(lower), _solve_batched(lower, B))


@op(methods=("cholesky_inverse",))
def cholesky_inverse(input, upper: bool = False):
    """The inverse of ``A = L L^T`` (``U^T U`` with ``upper=True``) from its Cholesky factor.

    Example:
        >>> import unigrad as ug
        >>> ug.cholesky_inverse(ug.tensor([[2.0, 0.0], [0.0, 0.5]]))
        tensor([[0.2500, 0.0000],
                [0.0000, 4.0000]])
    """
    L = _floating_matrix("cholesky_inverse", input, complex_ok=True)
    _check_square("cholesky_inverse", L, complex_ok=True)
    lower = _factor_as_given(L, upper)
    return inv(matmul(lower, _adjoint(lower)))


def _info_tensor(values: np.ndarray):
    return _make_tensor(np.asarray(values, dtype=np.int32))


def _cholesky_info(raw: np.ndarray) -> np.ndarray:
    """The order of the first leading minor that is not positive-definite (0: none)."""
    size = raw.shape[-1]
    flat = raw.reshape((math.prod(raw.shape[:-2]), size, size))
    info = np.zeros(flat.shape[0], dtype=np.int32)
    for index, matrix in enumerate(flat):
        for order in range(1, size + 1):
            try:
                np.linalg.cholesky(matrix[:order, :order])
            except np.linalg.LinAlgError:
                info[index] = order
                break
    return info.reshape(raw.shape[:-2])


def _factors(a) -> np.ndarray | None:
    """The lower Cholesky factors of every matrix of ``a``, or None if one fails."""
    try:
        return np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        return None


def _cholesky_ex_impl(a):
    """Per matrix its lower Cholesky factor; where the factorization fails at the leading
    minor of order ``k``, the factor of the leading ``k - 1`` block above the input's
    remaining lower triangle."""
    a = np.asarray(a)
    factor = _factors(a)
    if factor is not None:
        return factor
    size = a.shape[-1]
    flat = np.tril(a).reshape((-1, size, size))
    for matrix, order in zip(flat, _cholesky_info(a).reshape(-1)):
        done = size if order == 0 else order - 1  # the block that is positive-definite
        if done:
            block = matrix[:done, :done]
            matrix[:done, :done] = np.linalg.cholesky(block + np.tril(block, -1).conj().T)
    return flat.reshape(a.shape)


def _cholesky_info_impl(a, check_errors: bool = False):
    """Per matrix the order of its first leading minor that is not positive-definite (0 on
    success), ``int32``; ``check_errors``: a failure raises LinAlgError."""
    a = np.asarray(a)
    if _factors(a) is not None:
        return np.zeros(a.shape[:-2], dtype=np.int32)
    info = _cholesky_info(a)
    if check_errors:
        first = int(info.reshape(-1)[np.flatnonzero(info)[0]])
        raise LinAlgError(f"linalg.cholesky_ex: The factorization could not be completed "
                          f"because the input is not positive-definite (the leading minor of "
                          f"order {first} is not positive-definite).")
    return info


def _info_abstract(a):
    return shape_of(a)[:-2], np.dtype(np.int32)


# cholesky_ex's factor: cholesky's where it succeeds, and differentiated as cholesky
cholesky_ex_p = Primitive("cholesky_ex", _cholesky_ex_impl, lambda a: (shape_of(a), dtype_of(a)),
                          vjp=_cholesky_vjp, jvp=_cholesky_jvp,
                          backward_name="LinalgCholeskyExBackward0", saves="output",
                          batch=over_leading_dims(), complex_gradient="own")
cholesky_info_p = Primitive("cholesky_info", _cholesky_info_impl, _info_abstract,
                            differentiable=False, batch=over_leading_dims())
# the info of cholesky_ex(check_errors=True): a failure raises, so no graph drops the check
cholesky_check_p = Primitive("cholesky_check",
                             functools.partial(_cholesky_info_impl, check_errors=True),
                             _info_abstract, differentiable=False, impure=True,
                             batch=over_leading_dims())


def cholesky_ex(A, *, upper: bool = False, check_errors: bool = False):
    """``(L, info)``: :func:`~unigrad.linalg.cholesky` and, per matrix, the order of the
    first leading minor that is not positive-definite (0 on success), ``int32``.

    With ``check_errors=True`` a failure raises :class:`~unigrad.linalg.LinAlgError`.
    Where the factorization fails, ``L`` holds the factor of the positive-definite
    leading block and the input's remaining lower triangle (its gradient there, the
    rule of ``cholesky``, means nothing).

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.cholesky_ex(ug.tensor([[4.0, 2.0], [2.0, 5.0]]))
        linalg_cholesky_ex(L=tensor([[2., 0.],
                [1., 2.]]), info=tensor(0, dtype=unigrad.int32))
        >>> ug.linalg.cholesky_ex(ug.tensor([[4.0, 2.0], [2.0, 1.0]]))
        linalg_cholesky_ex(L=tensor([[2., 0.],
                [2., 1.]]), info=tensor(2, dtype=unigrad.int32))
    """
    A = _floating_matrix("linalg.cholesky_ex", A, complex_ok=True)
    _check_square("cholesky_ex", A, complex_ok=True)
    info = bind(cholesky_check_p if check_errors else cholesky_info_p, A)
    factor = bind(cholesky_ex_p, A)
    return CholeskyExResult(_adjoint(factor) if upper else factor, info)


def _lu_info(U) -> np.ndarray:
    """LAPACK's ``info``: the 1-based index of the first zero on ``U``'s diagonal (0: none)."""
    diagonal = np.diagonal(np.asarray(U._data if isinstance(U, Tensor) else U), 0, -2, -1)
    zero = diagonal == 0
    if not zero.shape[-1]:
        return np.zeros(zero.shape[:-1], dtype=np.int32)
    return np.where(zero.any(-1), zero.argmax(-1) + 1, 0).astype(np.int32)


def inv_ex(A, *, check_errors: bool = False):
    """``(inverse, info)``: the inverse and LAPACK's ``info`` (``int32``, 0 when invertible).

    A singular matrix (``info > 0``) gives non-finite values instead of an error unless
    ``check_errors=True``, as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.inv_ex(ug.tensor([[2.0, 0.0], [0.0, 4.0]])).info
        tensor(0, dtype=unigrad.int32)
    """
    A = _floating_matrix("linalg.inv_ex", A, complex_ok=True)
    _check_square("inv_ex", A, complex_ok=True)
    result, info = _solve_with_info("linalg.inv_ex", A, inv, check_errors)
    return InvExResult(result, info)


def _solve_with_info(name: str, A, solver, check_errors: bool):
    """``solver(A)`` and LAPACK's ``info``; NaN results where ``A`` is singular (PyTorch:
    its back substitution's inf/NaN), the other matrices solved as usual."""
    raw = A._data if isinstance(A, Tensor) else A
    if not has_values(raw):
        return solver(A), _make_tensor(np.zeros(tuple(A.shape[:-2]), np.int32))
    info = _lu_info(lu_factor_ex(A).LU)
    if not info.any():
        return solver(A), _info_tensor(info)
    if check_errors:
        raise LinAlgError(f"{name}: The solver failed because the input matrix is singular.")
    singular = info.reshape(info.shape + (1, 1)) > 0
    result = solver(_elementwise.where(_make_tensor(singular), _eye_like(A, A.shape[-1]), A))
    rank = len(result.shape)
    mask = info.reshape(info.shape + (1,) * (rank - info.ndim)) > 0
    return _elementwise.where(_make_tensor(mask), float("nan"), result), _info_tensor(info)


def solve_ex(A, B, *, left: bool = True, check_errors: bool = False):
    """``(result, info)``: :func:`~unigrad.linalg.solve` and LAPACK's ``info`` (``int32``).

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.solve_ex(ug.tensor([[2.0, 0.0], [0.0, 4.0]]), ug.tensor([2.0, 4.0]))
        linalg_solve_ex(result=tensor([1., 1.]), info=tensor(0, dtype=unigrad.int32))
    """
    from .linalg import solve
    A, B = _operand(A), _operand(B)
    _check_square("solve_ex", A, complex_ok=True)
    result, info = _solve_with_info("torch.linalg.solve_ex", A,
                                    lambda matrix: solve(matrix, B, left=left), check_errors)
    return SolveExResult(result, info)


# ----------------------------------------------------------------------------- LU

def _lu_pivots_impl(a):
    """LAPACK ``getrf``'s pivots (1-based, ``int32``) of partial pivoting, batched."""
    a = np.array(a, dtype=np.complex128 if a.dtype.kind == "c" else np.float64)
    rows, columns = a.shape[-2:]
    steps = min(rows, columns)
    batch = a.shape[:-2]
    a = a.reshape((math.prod(batch), rows, columns))
    pivots = np.empty((a.shape[0], steps), dtype=np.int32)
    every = np.arange(a.shape[0])
    for j in range(steps):
        column = a[:, j:, j]
        # LAPACK's pivot: the largest |x| (|re| + |im| for complex entries, as izamax)
        size = np.abs(column.real) + np.abs(column.imag) if column.dtype.kind == "c" \
            else np.abs(column)
        chosen = j + np.argmax(size, axis=1)
        pivots[:, j] = chosen + 1
        row = a[every, j].copy()
        a[every, j] = a[every, chosen]
        a[every, chosen] = row
        pivot = a[:, j, j]
        factors = a[:, j + 1:, j] / np.where(pivot == 0, 1.0, pivot)[:, None]
        a[:, j + 1:, j:] -= factors[:, :, None] * a[:, None, j, j:]
    return pivots.reshape(batch + (steps,))


lu_pivots_p = Primitive(
    "lu_pivots", _lu_pivots_impl,
    lambda a: (shape_of(a)[:-2] + (min(shape_of(a)[-2:]),), np.dtype(np.int32)),
    differentiable=False, batch=over_leading_dims())


def _permutation_impl(pivots, rows):
    """The row order ``perm`` the pivots' swaps give: ``(P^T A)[i] = A[perm[i]]``."""
    pivots = np.asarray(pivots)
    batch, steps = pivots.shape[:-1], pivots.shape[-1]
    swaps = pivots.reshape((math.prod(batch), steps)).astype(np.int64) - 1
    order = np.tile(np.arange(rows, dtype=np.int64), (swaps.shape[0], 1))
    every = np.arange(swaps.shape[0])
    for i in range(steps):
        target = swaps[:, i]
        kept = order[every, i].copy()
        order[every, i] = order[every, target]
        order[every, target] = kept
    return order.reshape(batch + (rows,))


lu_permutation_p = Primitive(
    "lu_permutation", _permutation_impl,
    lambda pivots, rows: (shape_of(pivots)[:-1] + (rows,), np.dtype(np.int64)),
    differentiable=False, batch=over_leading_dims())


def _check_pivots(pivots, rows: int, steps: int):
    pivots = _operand(pivots)
    if isinstance(pivots, Tensor) and pivots._data.dtype != np.int32:
        raise RuntimeError(f"lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                           f"torch.int32 dtype. Note: this function is intended to be used with "
                           f"the output produced by torch.linalg.lu_factor, got "
                           f"{pivots.dtype}")
    if not pivots.shape or pivots.shape[-1] != steps:
        raise RuntimeError(f"lu_unpack: the last dimension of LU_pivots must be "
                           f"min(m, n) = {steps}, got shape {list(pivots.shape)}")
    raw = pivots._data if isinstance(pivots, Tensor) else pivots
    if has_values(raw) and raw.size and (np.asarray(raw).min() < 1 or
                                         np.asarray(raw).max() > rows):
        raise RuntimeError("lu_unpack: LU_pivots' values must be between 1 and the number of "
                           f"rows {rows}")
    return pivots


def _row_order(pivots, rows: int):
    return bind(lu_permutation_p, pivots, rows=rows)


def _permutation_matrix(order, like):
    """``P`` with ``P[order[i], i] = 1`` (so ``A = P (P^T A)``), of ``like``'s dtype."""
    from .creation import arange
    rows = order.shape[-1]
    positions = _shape.reshape(arange(rows), (rows, 1))
    matches = positions == _shape.unsqueeze(order, -2)
    return _elementwise.cast(matches, like.dtype)


def _permute_rows(A, order):
    """``A[..., order, :]`` (``order`` broadcasts over ``A``'s batch)."""
    batch = broadcast_shapes(tuple(order.shape[:-1]), tuple(A.shape[:-2]))
    order = _shape.broadcast_to(order, batch + tuple(order.shape[-1:]))
    A = _shape.broadcast_to(A, batch + tuple(A.shape[-2:]))
    return take_along_dim(A, _shape.unsqueeze(order, -1), -2)


def _doolittle(M):
    """``(L, U)`` of the unpivoted LU ``M = L U`` (``L`` unit lower ``m x k``, ``U`` upper
    ``k x n``), written with differentiable ops; a zero pivot leaves its column as it is."""
    rows, columns = M.shape[-2:]
    steps = min(rows, columns)
    upper_rows = []
    lower_columns = []
    rest = M
    for j in range(steps):
        row = rest[..., 0, :]
        pivot = row[..., j:j + 1]
        below = rest[..., 1:, :]
        safe = _elementwise.where(pivot == 0, 1.0, pivot)
        factors = below[..., j] / safe
        rest = below - _shape.unsqueeze(factors, -1) * _shape.unsqueeze(row, -2)
        from .shape import cat
        lower_columns.append(cat([zeros_like(M[..., :j + 1, 0]), factors], -1))
        upper_rows.append(row)
    from .shape import stack
    if steps == 0:
        return M[..., :, :0], M[..., :0, :]
    lower = stack(lower_columns, -1) + _eye_like(M, rows, steps)
    upper = _shape.triu(stack(upper_rows, -2))
    return lower, upper


def _pack(lower, upper, M):
    """LAPACK's packed ``LU`` (``m x n``): strict lower part of ``L`` and ``U``."""
    from .shape import cat
    rows, columns = M.shape[-2:]
    strict = _shape.tril(lower, -1)
    if rows >= columns:
        return strict + cat([upper, zeros_like(M[..., columns:, :])], -2)
    return upper + cat([strict, zeros_like(M[..., :, rows:])], -1)


def _factorize(name: str, A, pivot: bool):
    A = _floating_matrix(name, A, complex_ok=True)
    if not pivot:
        raise RuntimeError(f"{name}: LU without pivoting is not implemented on the CPU")
    pivots = bind(lu_pivots_p, A)
    order = _row_order(pivots, A.shape[-2])
    lower, upper = _doolittle(_permute_rows(A, order))
    return A, pivots, order, lower, upper


def lu_factor_ex(A, *, pivot: bool = True, check_errors: bool = False):
    """``(LU, pivots, info)``: LAPACK's packed LU with partial pivoting, its 1-based
    ``int32`` pivots and ``info`` (the first zero pivot, 1-based; 0 when none).

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.lu_factor_ex(ug.tensor([[1.0, 2.0], [3.0, 4.0]])).info
        tensor(0, dtype=unigrad.int32)
    """
    A, pivots, order, lower, upper = _factorize("linalg.lu_factor_ex", A, pivot)
    packed = _pack(lower, upper, A)
    raw = packed._data if isinstance(packed, Tensor) else packed
    if not has_values(raw):
        return LUFactorExResult(packed, pivots,
                                _make_tensor(np.zeros(tuple(A.shape[:-2]), np.int32)))
    info = _lu_info(packed)
    if check_errors and info.any():
        raise LinAlgError(f"torch.linalg.lu_factor_ex: U[{int(info.max())},"
                          f"{int(info.max())}] is zero and using it on lu_solve would result in "
                          f"a division by zero.")
    return LUFactorExResult(packed, pivots, _info_tensor(info))


def lu_factor(A, *, pivot: bool = True):
    """``(LU, pivots)``: the packed LU factorization with partial pivoting (as LAPACK).

    ``A = P L U`` where ``L`` is the unit lower part of ``LU``, ``U`` its upper part,
    and ``P`` the row swaps ``pivots`` (1-based, ``int32``) describe; a zero on ``U``'s
    diagonal raises, as in PyTorch (use :func:`lu_factor_ex` to get ``info``).

    Example:
        >>> import unigrad as ug
        >>> LU, pivots = ug.linalg.lu_factor(ug.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> LU
        tensor([[3.0000, 4.0000],
                [0.3333, 0.6667]])
    """
    result = lu_factor_ex(A, pivot=pivot)
    if isinstance(result.info, Tensor) and has_values(result.info._data) and \
            np.asarray(result.info._data).any():
        where = int(np.asarray(result.info._data).max())  # PyTorch prints info itself
        raise RuntimeError(f"torch.linalg.lu_factor: U[{where},{where}] is zero and using it "
                           f"on lu_solve would result in a division by zero. If you still want "
                           f"to perform the factorization, consider calling linalg.lu(A, pivot) "
                           f"or linalg.lu_factor_ex(A, pivot)")
    return LUFactorResult(result.LU, result.pivots)


def linalg_lu(A, *, pivot: bool = True):
    """``(P, L, U)`` with ``A = P L U``: partial pivoting, ``L`` unit lower, ``U`` upper.

    Example:
        >>> import unigrad as ug
        >>> P, L, U = ug.linalg.lu(ug.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> P
        tensor([[0., 1.],
                [1., 0.]])
    """
    A, pivots, order, lower, upper = _factorize("linalg.lu", A, pivot)
    return LUResult(_permutation_matrix(order, A), lower, upper)


@op(methods=("lu",))
def lu(A, pivot: bool = True, get_infos: bool = False):
    """``torch.lu``: ``(A_LU, pivots)`` of :func:`lu_factor` (and ``infos`` with
    ``get_infos=True``), as a plain tuple.

    Example:
        >>> import unigrad as ug
        >>> A_LU, pivots = ug.lu(ug.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> pivots
        tensor([2, 2], dtype=unigrad.int32)
    """
    result = lu_factor_ex(A, pivot=pivot)
    return tuple(result) if get_infos else (result.LU, result.pivots)


@op()
def lu_unpack(LU_data, LU_pivots, unpack_data: bool = True, unpack_pivots: bool = True):
    """``(P, L, U)`` from :func:`lu_factor`'s ``(LU, pivots)``; the parts not asked for
    are empty tensors, as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> LU, pivots = ug.linalg.lu_factor(ug.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> ug.lu_unpack(LU, pivots).U
        tensor([[3.0000, 4.0000],
                [0.0000, 0.6667]])
    """
    LU_data = _floating_matrix("lu_unpack", LU_data, "LU_data", complex_ok=True)
    rows, columns = LU_data.shape[-2:]
    steps = min(rows, columns)
    empty = LU_data.reshape(-1)[:0]
    if unpack_data:
        lower = _shape.tril(LU_data, -1)[..., :, :steps] + _eye_like(LU_data, rows, steps)
        upper = _shape.triu(LU_data[..., :steps, :])
    else:
        lower = upper = empty
    permutation = empty
    if unpack_pivots:
        pivots = _check_pivots(LU_pivots, rows, steps)
        permutation = _permutation_matrix(_row_order(pivots, rows), LU_data)
    return LUUnpackResult(permutation, lower, upper)


def linalg_lu_solve(LU, pivots, B, *, left: bool = True, adjoint: bool = False):
    """The solution ``X`` of ``A X = B`` given ``A``'s :func:`lu_factor`; ``left=False``
    solves ``X A = B`` and ``adjoint=True`` uses the adjoint ``A^H`` (``A^T`` when real).

    Example:
        >>> import unigrad as ug
        >>> A = ug.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> LU, pivots = ug.linalg.lu_factor(A)
        >>> ug.linalg.lu_solve(LU, pivots, ug.tensor([[5.0], [11.0]]))
        tensor([[1.],
                [2.]])
    """
    LU = _floating_matrix("linalg.lu_solve", LU, "LU", complex_ok=True)
    B = _floating_matrix("linalg.lu_solve", B, "B", complex_ok=True)
    _check_square("lu_solve", LU, complex_ok=True)
    size = LU.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != size:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({size}x{size} and "
                           f"{B.shape[-2]}x{B.shape[-1]})")
    pivots = _check_pivots(pivots, size, size)
    if not left:  # X op(A) = B  <=>  op(A)^H X^H = B^H
        return _adjoint(linalg_lu_solve(LU, pivots, _adjoint(B), adjoint=not adjoint))
    order = _row_order(pivots, size)
    lower = _triangle(LU, upper=False, unitriangular=True)
    upper = _triangle(LU, upper=True, unitriangular=False)
    if not adjoint:  # A = P L U:  X = U^-1 L^-1 P^T B
        return _solve_batched(upper, _solve_batched(lower, _permute_rows(B, order)))
    # A^H = U^H L^H P^T:  X = P L^-H U^-H B
    inner = _solve_batched(_adjoint(lower), _solve_batched(_adjoint(upper), B))
    return matmul(_permutation_matrix(order, LU), inner)


@op(methods=("lu_solve",))
def lu_solve(input, LU_data, LU_pivots):
    """``torch.lu_solve(b, LU_data, LU_pivots)``: :func:`lu_solve` in the old argument order.

    Example:
        >>> import unigrad as ug
        >>> LU, pivots = ug.linalg.lu_factor(ug.tensor([[2.0, 0.0], [0.0, 4.0]]))
        >>> ug.lu_solve(ug.tensor([[2.0], [4.0]]), LU, pivots)
        tensor([[1.],
                [1.]])
    """
    return linalg_lu_solve(LU_data, LU_pivots, input)


# ----------------------------------------------------------------------------- matrix functions

def _expm_numpy(a: np.ndarray) -> np.ndarray:
    """``exp`` of each matrix: SciPy's Padé approximant when installed, else a Taylor
    series with scaling and squaring."""
    try:
        from scipy.linalg import expm
    except ImportError:
        expm = None
    if a.size == 0:
        return a.copy()
    if expm is not None:
        return np.asarray(expm(a), dtype=a.dtype)
    size = a.shape[-1]
    result = np.empty_like(a)
    count = math.prod(a.shape[:-2])
    flat_in, flat_out = a.reshape((count, size, size)), result.reshape((count, size, size))
    for matrix, out in zip(flat_in, flat_out):
        norm = np.abs(matrix).sum(0).max()
        squarings = max(0, math.ceil(math.log2(norm / 0.5))) if norm > 0.5 else 0
        scaled = matrix / 2.0 ** squarings
        term = np.eye(size, dtype=a.dtype)
        total = term.copy()
        for k in range(1, 20):
            term = term @ scaled / k
            total += term
        for _ in range(squarings):
            total = total @ total
        out[...] = total
    return result


def _corner_exp(top_left, corner):
    """The top-right block of ``exp([[top_left, corner], [0, top_left]])``."""
    from .shape import cat
    size = top_left.shape[-1]
    top = cat([top_left, corner], -1)
    bottom = cat([zeros_like(top_left), top_left], -1)
    block = bind(matrix_exp_p, cat([top, bottom], -2))
    return block[..., :size, size:]


matrix_exp_p = Primitive(
    "matrix_exp", _expm_numpy, lambda a: (shape_of(a), dtype_of(a)),
    vjp=lambda g, out, needs, a: (_corner_exp(_mT(a), g),),
    jvp=lambda tangents, out, a: _corner_exp(a, tangents[0]),
    backward_name="LinalgMatrixExpBackward0", saves="inputs", batch=over_leading_dims(),
    complex_gradient="holomorphic")


@op(methods=("matrix_exp",))
def matrix_exp(A):
    """The matrix exponential ``sum_k A^k / k!`` of each square matrix.

    Example:
        >>> import unigrad as ug
        >>> ug.matrix_exp(ug.tensor([[0.0, 1.0], [0.0, 0.0]]))
        tensor([[1., 1.],
                [0., 1.]])
    """
    A = _floating_matrix("linalg.matrix_exp", A, complex_ok=True)
    _check_square("matrix_exp", A, complex_ok=True)
    return bind(matrix_exp_p, A)


@op(methods=("matrix_power",))
def matrix_power(input, n: int):
    """``A^n`` for an integer ``n`` by repeated squaring (``n < 0``: powers of the inverse).

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.matrix_power(ug.tensor([[1.0, 1.0], [0.0, 1.0]]), 3)
        tensor([[1., 3.],
                [0., 1.]])
    """
    A = _operand(input)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"matrix_power(): argument 'n' must be int, not {type(n).__name__}")
    shape = tuple(A.shape)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise RuntimeError(f"linalg.matrix_power: A must be batches of square matrices, but "
                           f"they are {shape[-2] if len(shape) > 1 else shape} by "
                           f"{shape[-1] if shape else shape} matrices")
    if n == 0:
        return _connected(_eye_like(A, shape[-1]), A)
    if n < 0:
        A, n = inv(A), -n
    result = None
    power = A
    while n:
        if n & 1:
            result = power if result is None else matmul(result, power)
        n >>= 1
        if n:
            power = matmul(power, power)
    return result


def multi_dot(tensors):
    """The product of a list of matrices; the first may be a row and the last a column
    vector (1-D), as in ``torch.linalg.multi_dot``.

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.multi_dot([ug.ones(2), ug.ones((2, 3)), ug.ones(3)])
        tensor(6.)
    """
    tensors = [_operand(t) for t in tensors]
    count = len(tensors)
    if count < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {count}")
    for index, value in enumerate(tensors):
        rank = len(value.shape)
        allowed = (1, 2) if index in (0, count - 1) else (2,)
        if rank not in allowed:
            if index == 0:
                raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got "
                                   f"{rank}D")
            if index == count - 1:
                raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got "
                                   f"{rank}D")
            raise RuntimeError(f"multi_dot(): tensor {index} must be 2D but got {rank}D")
    dtype = tensors[0].dtype
    for value in tensors[1:]:
        if value.dtype != dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but "
                               f"tensor 0 is {dtype.name} and tensor "
                               f"{tensors.index(value)} {value.dtype.name}")
    result = tensors[0]
    for value in tensors[1:]:
        inner = result.shape[-1]
        if value.shape[0] != inner:
            rows = tuple(result.shape) if len(result.shape) == 2 else (1, inner)
            raise RuntimeError(f"multi_dot(): tensors {tensors.index(value) - 1} and "
                               f"{tensors.index(value)} with shapes {list(rows)} and "
                               f"{list(value.shape)} cannot be multiplied")
        result = matmul(result, value)
    return result


def chain_matmul(*matrices):
    """The product of 2-D matrices (deprecated in PyTorch for :func:`multi_dot`).

    Example:
        >>> import unigrad as ug
        >>> ug.chain_matmul(ug.ones((2, 3)), ug.ones((3, 4))).shape
        (2, 4)
    """
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    for value in matrices:
        if len(_operand(value).shape) != 2:
            raise RuntimeError(f"Tensor dimension is {len(_operand(value).shape)}, expected 2 "
                               f"instead.")
    if len(matrices) == 1:
        from .views_copies import clone
        return clone(_operand(matrices[0]))
    return multi_dot(list(matrices))


def vecdot(x, y, *, dim: int = -1):
    """The dot product of vectors along ``dim``, broadcast over the other dimensions.

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.vecdot(ug.tensor([[1.0, 2.0], [3.0, 4.0]]), ug.tensor([1.0, 1.0]))
        tensor([3., 7.])
    """
    x, y = _operand(x), _operand(y)
    if x.dtype != y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found "
                           f"x of type {x.dtype.name.capitalize()} and y of type "
                           f"{y.dtype.name.capitalize()} instead")
    if x._data.dtype.kind == "c":  # PyTorch conjugates x
        from .complex_numbers import conj
        x = conj(x)
    return _reduce.sum(x * y, dim)


def linalg_diagonal(A, *, offset: int = 0, dim1: int = -2, dim2: int = -1):
    """``torch.linalg.diagonal``: :func:`~unigrad.diagonal` with matrix defaults (a view).

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.diagonal(ug.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor([1., 4.])
    """
    return _layout.diagonal(A, offset, dim1, dim2)


def tensorsolve(A, B, dims=None):
    """The ``X`` with ``tensordot(A, X, X.ndim) == B``; ``dims`` moves those dimensions of
    ``A`` to the end first.

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.tensorsolve(ug.eye(6).reshape(2, 3, 6), ug.ones((2, 3))).shape
        (6,)
    """
    from .linalg import solve
    A, B = _operand(A), _operand(B)
    if dims is not None:
        dims = [d % len(A.shape) for d in dims]
        A = _shape.movedim(A, dims, list(range(len(A.shape) - len(dims), len(A.shape))))
    rest = tuple(A.shape[len(B.shape):])
    rows = math.prod(A.shape[:len(B.shape)])
    columns = math.prod(rest)
    if rows != columns:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:"
                           "]) == prod(self.shape[:other.ndim]), but got "
                           f"{columns} != {rows}")
    solution = solve(_shape.reshape(A, (rows, columns)), _shape.reshape(B, (rows,)))
    return _shape.reshape(solution, rest)


def tensorinv(A, ind: int = 2):
    """The inverse with respect to ``tensordot`` over ``ind`` dimensions.

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.tensorinv(ug.eye(4).reshape(4, 2, 2), ind=1).shape
        (2, 2, 4)
    """
    A = _operand(A)
    if not isinstance(ind, int) or ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    outer, inner = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    rows, columns = math.prod(outer), math.prod(inner)
    if rows != columns:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {columns} != {rows}")
    return _shape.reshape(inv(_shape.reshape(A, (rows, columns))), inner + outer)


_NARROW_INTEGERS = ("bool", "uint8", "int8", "int16", "int32")


def linalg_vander(x, *, N: int | None = None):
    """``torch.linalg.vander``: ``x[..., i] ** j`` for ``j`` in ``0..N-1`` (increasing).

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.vander(ug.tensor([1.0, 2.0, 3.0]))
        tensor([[1., 1., 1.],
                [1., 2., 4.],
                [1., 3., 9.]])
    """
    from .shape import cat
    x = _operand(x)
    if not x.shape:
        x = _shape.reshape(x, (1,))
    if x.dtype.name == "bool":
        raise RuntimeError("linalg.vander supports floating point, complex, and integer "
                           "tensors, but got Bool")
    size = x.shape[-1] if N is None else N
    if size <= 1:
        raise RuntimeError("N must be greater than 1.")
    wide = x
    if x.dtype.name in _NARROW_INTEGERS:
        wide = _elementwise.cast(x, "int64")
    repeated = _shape.broadcast_to(_shape.unsqueeze(wide, -1),
                                   tuple(wide.shape) + (size - 1,))
    ones = _shape.unsqueeze(wide, -1) ** 0
    return cumprod(cat([ones, repeated], -1), -1)


def vander(x, N: int | None = None, increasing: bool = False):
    """``torch.vander``: the Vandermonde matrix of a 1-D ``x`` (decreasing powers unless
    ``increasing=True``).

    Example:
        >>> import unigrad as ug
        >>> ug.vander(ug.tensor([1, 2, 3]))
        tensor([[1, 1, 1],
                [4, 2, 1],
                [9, 3, 1]])
    """
    x = _operand(x)
    if len(x.shape) != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    if N is not None and N < 0:
        raise RuntimeError("N must be non-negative.")
    size = x.shape[0] if N is None else N
    if size <= 1:  # linalg.vander wants N > 1
        result = _shape.unsqueeze(x, -1)[:, :size] ** 0
        return _elementwise.cast(result, "int64") if x.dtype.name in _NARROW_INTEGERS else result
    result = linalg_vander(x, N=size)
    return result if increasing else _shape.flip(result, (-1,))


@op(methods=("orgqr",))
def householder_product(A, tau):
    """The first ``n`` columns of ``H_1 ... H_k``, ``H_i = I - tau_i v_i v_i^H`` with
    ``v_i`` the ``i``-th column of ``A`` below the diagonal and a 1 on it (LAPACK's ``orgqr``
    and ``ungqr``: real or complex, differentiable in both).

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.householder_product(ug.tensor([[1.0], [0.0]]), ug.tensor([2.0]))
        tensor([[-1.],
                [ 0.]])
        >>> ug.linalg.householder_product(ug.tensor([[1j], [1j]]), ug.tensor([1.0 + 0j]))
        tensor([[0.+0.j],
                [0.-1.j]])
    """
    A, tau = _operand(A), _operand(tau)
    if len(A.shape) < 2:
        raise RuntimeError("torch.linalg.householder_product: input must have at least 2 "
                           "dimensions.")
    rows, columns = A.shape[-2:]
    if columns > rows:
        raise RuntimeError("torch.linalg.householder_product: input.shape[-2] must be greater "
                           "than or equal to input.shape[-1]")
    if not tau.shape or tau.shape[-1] > columns:
        raise RuntimeError("torch.linalg.householder_product: input.shape[-1] must be greater "
                           "than or equal to tau.shape[-1]")
    if len(tau.shape) != len(A.shape) - 1:
        raise RuntimeError(f"torch.linalg.householder_product: Expected tau to have one "
                           f"dimension less than input, but got tau.ndim equal to "
                           f"{len(tau.shape)} and input.ndim is equal to {len(A.shape)}")
    if tuple(tau.shape[:-1]) != tuple(A.shape[:-2]):
        raise RuntimeError(f"torch.linalg.householder_product: Expected batch dimensions of "
                           f"tau to be equal to input.shape[:-2], but got "
                           f"{list(tau.shape[:-1])}")
    if A.dtype != tau.dtype:
        raise RuntimeError(f"torch.linalg.householder_product: tau dtype {tau.dtype.name} does "
                           f"not match input dtype {A.dtype.name}")
    steps = tau.shape[-1]
    if steps == 0:
        return _connected(_eye_like(A, rows, columns), A)
    reflectors = _shape.tril(A, -1) + _eye_like(A, rows, columns)
    product = _shape.broadcast_to(_eye_like(A, rows), tuple(A.shape[:-2]) + (rows, rows))
    for i in range(steps):
        v = reflectors[..., :, i:i + 1]
        scale = _shape.unsqueeze(_shape.unsqueeze(tau[..., i], -1), -1)
        product = product - matmul(matmul(product, v) * scale, _adjoint(v))
    return product[..., :, :columns]


orgqr = householder_product
