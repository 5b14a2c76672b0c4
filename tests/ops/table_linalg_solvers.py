"""Op-table specs for ``unigrad/ops/linalg_solvers.py``: triangular and Cholesky solvers,
the ``_ex`` variants, LU (factor, unpack, solve), matrix_exp, matrix_power, multi_dot,
vecdot, linalg.diagonal, tensorsolve/tensorinv, vander and householder_product."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, normal


def well_conditioned(rng: np.random.Generator, *shape) -> np.ndarray:
    """Square matrices (batched) far from singular: normal entries plus 4 I."""
    return normal(rng, *shape) + 4.0 * np.eye(shape[-1])


def lower_factor(rng: np.random.Generator, *shape) -> np.ndarray:
    """A Cholesky-like lower factor with a positive diagonal well away from 0."""
    return np.tril(normal(rng, *shape)) + 3.0 * np.eye(shape[-1])


def lu_reference(a: np.ndarray):
    """Packed LU and 1-based int32 pivots of partial pivoting (LAPACK getrf), batched."""
    a = np.array(a, dtype=np.float64)
    rows, columns = a.shape[-2:]
    batch = a.shape[:-2]
    flat = a.reshape((int(np.prod(batch, dtype=np.int64)), rows, columns))
    pivots = np.zeros((flat.shape[0], min(rows, columns)), dtype=np.int32)
    for matrix, swaps in zip(flat, pivots):
        for j in range(min(rows, columns)):
            chosen = j + int(np.argmax(np.abs(matrix[j:, j])))
            swaps[j] = chosen + 1
            matrix[[j, chosen]] = matrix[[chosen, j]]
            matrix[j + 1:, j] /= matrix[j, j]
            matrix[j + 1:, j + 1:] -= np.outer(matrix[j + 1:, j], matrix[j, j + 1:])
    return flat.reshape(a.shape), pivots.reshape(batch + (min(rows, columns),))


def unpack_reference(a: np.ndarray):
    """``(P, L, U)`` with ``a = P L U``."""
    packed, pivots = lu_reference(a)
    rows, columns = a.shape[-2:]
    steps = min(rows, columns)
    lower = np.tril(packed, -1)[..., :, :steps] + np.eye(rows, steps)
    upper = np.triu(packed[..., :steps, :])
    order = np.broadcast_to(np.arange(rows), pivots.shape[:-1] + (rows,)).copy()
    for index in np.ndindex(pivots.shape[:-1]):
        for i, target in enumerate(pivots[index] - 1):
            order[index + (i,)], order[index + (target,)] = order[index + (target,)], \
                order[index + (i,)]
    permutation = (np.arange(rows)[:, None] == order[..., None, :]).astype(a.dtype)
    return permutation, lower, upper


def expm_reference(a: np.ndarray) -> np.ndarray:
    """``exp`` by a long Taylor series with scaling and squaring."""
    result = np.empty_like(a)
    if not a.size:
        return result
    for index in np.ndindex(a.shape[:-2]):
        matrix = a[index]
        squarings = max(0, int(np.ceil(np.log2(max(np.abs(matrix).sum(0).max(), 1e-300)))) + 1)
        scaled = matrix / 2.0 ** squarings
        term = total = np.eye(a.shape[-1])
        for k in range(1, 30):
            term = term @ scaled / k
            total = total + term
        for _ in range(squarings):
            total = total @ total
        result[index] = total
    return result


def householder_reference(a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    rows, columns = a.shape[-2:]
    result = np.empty(a.shape)
    for index in np.ndindex(a.shape[:-2]):
        product = np.eye(rows)
        for i in range(tau.shape[-1]):
            v = np.concatenate([np.zeros(i), [1.0], a[index][i + 1:, i]])
            product = product @ (np.eye(rows) - tau[index][i] * np.outer(v, v))
        result[index] = product[:, :columns]
    return result


def triangle(a: np.ndarray, upper: bool, unitriangular: bool = False) -> np.ndarray:
    if unitriangular:
        return (np.triu(a, 1) if upper else np.tril(a, -1)) + np.eye(a.shape[-1])
    return np.triu(a) if upper else np.tril(a)


def solve_triangular_reference(a, b, *, upper, left=True, unitriangular=False):
    part = triangle(a, upper, unitriangular)
    if left:
        return np.linalg.solve(part, b)
    return np.swapaxes(np.linalg.solve(np.swapaxes(part, -1, -2), np.swapaxes(b, -1, -2)),
                       -1, -2)


def cholesky_solve_reference(b, factor, upper=False):
    lower = np.swapaxes(np.triu(factor), -1, -2) if upper else np.tril(factor)
    return np.linalg.solve(lower @ np.swapaxes(lower, -1, -2), b)


def cholesky_inverse_reference(factor, upper=False):
    lower = np.swapaxes(np.triu(factor), -1, -2) if upper else np.tril(factor)
    return np.linalg.inv(lower @ np.swapaxes(lower, -1, -2))


def lu_solve_reference(a, b, *, left=True, adjoint=False):
    matrix = np.swapaxes(a, -1, -2) if adjoint else a
    if left:
        return np.linalg.solve(matrix, b)
    return np.swapaxes(np.linalg.solve(np.swapaxes(matrix, -1, -2), np.swapaxes(b, -1, -2)),
                       -1, -2)


def lu_solve_through_factor(a, b, **kwargs):
    LU, pivots = ug.linalg.lu_factor(a)
    return ug.linalg.lu_solve(LU, pivots, b, **kwargs)


def zero_info(shape):
    return np.zeros(shape, dtype=np.int32)


def cholesky_ex_reference(a: np.ndarray):
    """Per matrix: the first leading minor (order k) with no Cholesky factor, and the factor
    of the leading k - 1 block above the remaining lower triangle (the full factor if none)."""
    size = a.shape[-1]
    flat = a.reshape(-1, size, size)
    factors, infos = [], []
    for matrix in flat:
        info = next((k for k in range(1, size + 1)
                     if not np.all(np.linalg.eigvalsh(matrix[:k, :k]) > 0)), 0)
        done = info - 1 if info else size
        factor = np.tril(matrix)
        factor[:done, :done] = np.linalg.cholesky(matrix[:done, :done])
        factors.append(factor)
        infos.append(info)
    return (np.stack(factors).reshape(a.shape),
            np.array(infos, dtype=np.int32).reshape(a.shape[:-2]))


def spd(rng: np.random.Generator, *shape) -> np.ndarray:
    """Symmetric positive-definite matrices: ``F F^T`` of a :func:`lower_factor` ``F``."""
    factor = lower_factor(rng, *shape)
    return factor @ np.swapaxes(factor, -1, -2)


def vander_reference(x, N=None, increasing=False):
    return np.vander(x, N, increasing=increasing)


def linalg_vander_reference(x, *, N=None):
    return x[..., None] ** np.arange(x.shape[-1] if N is None else N)


OPS = [
    OpSpec("solve_triangular", ug.linalg.solve_triangular, solve_triangular_reference,
           lambda rng: [
               Sample((lower_factor(rng, 3, 3).T, normal(rng, 3, 2)), {"upper": True},
                      label="upper"),
               Sample((normal(rng, 3, 3) + 3 * np.eye(3), normal(rng, 2, 3, 2)),
                      {"upper": False}, label="lower_broadcast_batch"),
               Sample((normal(rng, 2, 3, 3) + 3 * np.eye(3), normal(rng, 4, 3)),
                      {"upper": True, "left": False}, label="right"),
               Sample((normal(rng, 3, 3), normal(rng, 3, 1)),
                      {"upper": False, "unitriangular": True}, label="unitriangular"),
               Sample((normal(rng, 0, 0), normal(rng, 0, 2)), {"upper": True}, label="empty"),
           ]),
    OpSpec("triangular_solve", lambda b, a, **k: ug.triangular_solve(b, a, **k),
           lambda b, a, upper=True, transpose=False, unitriangular=False: (
               np.linalg.solve(np.swapaxes(triangle(a, upper, unitriangular), -1, -2)
                               if transpose else triangle(a, upper, unitriangular), b), a),
           lambda rng: [
               Sample((normal(rng, 3, 2), lower_factor(rng, 3, 3).T), label="default"),
               Sample((normal(rng, 2, 3, 2), lower_factor(rng, 2, 3, 3)),
                      {"upper": False, "transpose": True}, label="lower_transpose"),
           ]),
    # the factor's unread triangle gets PyTorch's (non-zero) gradient, which central
    # differences cannot see: the table differentiates through the read triangle only
    OpSpec("cholesky_solve", lambda b, factor, upper=False: ug.cholesky_solve(
        b, ug.triu(factor) if upper else ug.tril(factor), upper),
        cholesky_solve_reference, lambda rng: [
        Sample((normal(rng, 3, 2), lower_factor(rng, 3, 3)), label="lower"),
        Sample((normal(rng, 2, 3, 1), np.swapaxes(lower_factor(rng, 2, 3, 3), -1, -2)),
               {"upper": True}, label="upper_batched"),
    ]),
    OpSpec("cholesky_inverse", lambda factor, upper=False: ug.cholesky_inverse(
        ug.triu(factor) if upper else ug.tril(factor), upper),
        cholesky_inverse_reference, lambda rng: [
        Sample((lower_factor(rng, 3, 3),), label="lower"),
        Sample((np.swapaxes(lower_factor(rng, 2, 3, 3), -1, -2),), {"upper": True},
               label="upper_batched"),
    ]),
    OpSpec("cholesky_ex", lambda a: ug.linalg.cholesky_ex(a),
           lambda a: (np.linalg.cholesky(a), zero_info(a.shape[:-2])), lambda rng: [
               Sample((np.array([[4.0, 2.0, 0.5], [2.0, 5.0, 1.0], [0.5, 1.0, 3.0]]),),
                      diff=(), label="spd"),
           ], grad=False),
    # the factor's gradient (cholesky's rule) through the symmetric part, as differences see it
    OpSpec("cholesky_ex.grad", lambda a, check_errors=False: ug.linalg.cholesky_ex(
        (a + a.mT) * 0.5, check_errors=check_errors).L,
           lambda a, check_errors=False: np.linalg.cholesky((a + np.swapaxes(a, -1, -2)) * 0.5),
           lambda rng: [
               Sample((spd(rng, 3, 3),), label="matrix"),
               Sample((spd(rng, 2, 3, 3),), {"check_errors": True}, label="batch_checked"),
           ], primitives=("cholesky_ex", "cholesky_info", "cholesky_check")),
    OpSpec("cholesky_ex.not_positive_definite", lambda a: ug.linalg.cholesky_ex(a),
           cholesky_ex_reference, lambda rng: [
               Sample((np.array([[4.0, 2.0, 0.5], [2.0, -1.0, 1.0], [0.5, 1.0, 3.0]]),),
                      diff=(), label="second_minor"),
               Sample((np.stack([spd(rng, 3, 3), np.diag([1.0, 2.0, -3.0])]),), diff=(),
                      label="batch_one_failing"),
           ], grad=False, primitives=("cholesky_ex", "cholesky_info")),
    OpSpec("inv_ex", lambda a: ug.linalg.inv_ex(a),
           lambda a: (np.linalg.inv(a), zero_info(a.shape[:-2])), lambda rng: [
               Sample((well_conditioned(rng, 3, 3),), label="matrix"),
               Sample((well_conditioned(rng, 2, 3, 3),), label="batch"),
           ]),
    OpSpec("solve_ex", lambda a, b: ug.linalg.solve_ex(a, b),
           lambda a, b: (np.linalg.solve(a, b), zero_info(a.shape[:-2])), lambda rng: [
               Sample((well_conditioned(rng, 2, 3, 3), normal(rng, 2, 3, 2)), label="batch"),
           ]),
    OpSpec("lu_factor", lambda a: ug.linalg.lu_factor(a), lu_reference, lambda rng: [
        Sample((normal(rng, 4, 4),), label="square"),
        Sample((normal(rng, 2, 5, 3),), label="tall_batch"),
        Sample((normal(rng, 3, 5),), label="wide"),
        Sample((normal(rng, 0, 0),), label="empty"),
    ], primitives=("lu_pivots", "lu_permutation")),
    OpSpec("lu_factor_ex", lambda a: ug.linalg.lu_factor_ex(a),
           lambda a: lu_reference(a) + (zero_info(a.shape[:-2]),),
           lambda rng: [Sample((normal(rng, 2, 3, 3),), label="batch")]),
    OpSpec("linalg_lu", lambda a: ug.linalg.lu(a), unpack_reference, lambda rng: [
        Sample((normal(rng, 4, 4),), label="square"),
        Sample((normal(rng, 2, 5, 3),), label="tall_batch"),
        Sample((normal(rng, 3, 5),), label="wide"),
    ]),
    OpSpec("torch_lu", lambda a: ug.lu(a, get_infos=True),
           lambda a: lu_reference(a) + (zero_info(a.shape[:-2]),),
           lambda rng: [Sample((normal(rng, 3, 3),), label="matrix")]),
    OpSpec("lu_unpack", lambda a: ug.lu_unpack(*ug.linalg.lu_factor(a)), unpack_reference,
           lambda rng: [
               Sample((normal(rng, 3, 3),), label="square"),
               Sample((normal(rng, 2, 4, 3),), label="tall_batch"),
           ]),
    OpSpec("lu_solve", lu_solve_through_factor, lu_solve_reference, lambda rng: [
        Sample((well_conditioned(rng, 3, 3), normal(rng, 3, 2)), label="left"),
        Sample((well_conditioned(rng, 2, 3, 3), normal(rng, 2, 3, 2)), {"adjoint": True},
               label="adjoint_batch"),
        Sample((well_conditioned(rng, 3, 3), normal(rng, 2, 3)), {"left": False},
               label="right"),
        Sample((well_conditioned(rng, 3, 3), normal(rng, 2, 3)),
               {"left": False, "adjoint": True}, label="right_adjoint"),
    ]),
    OpSpec("torch_lu_solve", lambda b, a: ug.lu_solve(b, *ug.linalg.lu_factor(a)),
           lambda b, a: np.linalg.solve(a, b),
           lambda rng: [Sample((normal(rng, 3, 2), well_conditioned(rng, 3, 3)))]),
    OpSpec("matrix_exp", ug.matrix_exp, expm_reference, lambda rng: [
        Sample((normal(rng, 3, 3),), label="matrix"),
        Sample((normal(rng, 2, 2, 2) * 3.0,), label="batch_large"),
        Sample((normal(rng, 1, 1),), label="one"),
        Sample((normal(rng, 0, 0),), label="empty"),
    ], primitives=("matrix_exp",)),
    OpSpec("matrix_power", ug.linalg.matrix_power, np.linalg.matrix_power, lambda rng: [
        Sample((normal(rng, 3, 3), 3), label="three"),
        Sample((normal(rng, 2, 3, 3), 1), label="one_batch"),
        Sample((normal(rng, 3, 3), 0), label="zero"),
        Sample((well_conditioned(rng, 3, 3), -2), label="minus_two"),
    ]),
    OpSpec("multi_dot", lambda *m: ug.linalg.multi_dot(list(m)),
           lambda *m: np.linalg.multi_dot(list(m)), lambda rng: [
               Sample((normal(rng, 3), normal(rng, 3, 4), normal(rng, 4, 2)), label="vector"),
               Sample((normal(rng, 2, 3), normal(rng, 3, 4), normal(rng, 4)), label="column"),
           ]),
    OpSpec("chain_matmul", ug.chain_matmul, lambda *m: np.linalg.multi_dot(list(m)),
           lambda rng: [Sample((normal(rng, 2, 3), normal(rng, 3, 4), normal(rng, 4, 2)))]),
    OpSpec("vecdot", ug.linalg.vecdot, lambda x, y, dim=-1: np.sum(x * y, axis=dim),
           lambda rng: [
               Sample((normal(rng, 3, 4), normal(rng, 4)), label="broadcast"),
               Sample((normal(rng, 3, 4), normal(rng, 3, 1)), {"dim": 0}, label="dim0"),
           ]),
    OpSpec("linalg_diagonal", ug.linalg.diagonal,
           lambda a, offset=0: np.diagonal(a, offset, -2, -1), lambda rng: [
               Sample((normal(rng, 2, 3, 4),), label="batch"),
               Sample((normal(rng, 3, 4),), {"offset": 1}, label="offset"),
           ]),
    OpSpec("tensorsolve", ug.linalg.tensorsolve, np.linalg.tensorsolve, lambda rng: [
        Sample((well_conditioned(rng, 6, 6).reshape(2, 3, 6), normal(rng, 2, 3)),
               label="split"),
    ]),
    OpSpec("tensorinv", ug.linalg.tensorinv, np.linalg.tensorinv, lambda rng: [
        Sample((well_conditioned(rng, 4, 4).reshape(4, 2, 2), 1), label="ind1"),
        Sample((well_conditioned(rng, 4, 4).reshape(2, 2, 2, 2),), label="ind2"),
    ]),
    OpSpec("linalg_vander", ug.linalg.vander, linalg_vander_reference, lambda rng: [
        Sample((normal(rng, 4),), label="square"),
        Sample((normal(rng, 2, 3),), {"N": 4}, label="batch_N"),
    ]),
    OpSpec("vander", ug.vander, vander_reference, lambda rng: [
        Sample((normal(rng, 4),), label="decreasing"),
        Sample((normal(rng, 3),), {"N": 2, "increasing": True}, label="increasing"),
    ]),
    OpSpec("householder_product", ug.linalg.householder_product, householder_reference,
           lambda rng: [
               Sample((normal(rng, 4, 3), normal(rng, 2)), label="tall"),
               Sample((normal(rng, 2, 3, 3), normal(rng, 2, 3)), label="batch"),
           ]),
]
