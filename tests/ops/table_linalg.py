"""Op-table specs for ``unigrad/ops/linalg.py`` (matmul, einsum, inv, det, solve, cholesky...)."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, away_from_zero, normal


def pairs(*entries):
    """Samples of a two-tensor op: ``(label, first_shape, second_shape)`` entries."""
    def samples(rng: np.random.Generator) -> list:
        return [Sample((normal(rng, *a), normal(rng, *b)), label=label) for label, a, b in entries]
    return samples


def well_conditioned(rng: np.random.Generator, *shape) -> np.ndarray:
    """Square matrices ``I * n + noise``: far from singular."""
    size = shape[-1]
    return np.eye(size) * size + normal(rng, *shape) * 0.5


def positive_definite(rng: np.random.Generator, *shape) -> np.ndarray:
    """Symmetric positive-definite matrices ``M M^T + n I``."""
    matrices = normal(rng, *shape)
    return matrices @ np.swapaxes(matrices, -1, -2) + np.eye(shape[-1]) * shape[-1]


def symmetric_cholesky(a, upper: bool = False):
    """Cholesky of the symmetric part: the factor depends on every entry, as differences see it."""
    return ug.linalg.cholesky((a + a.mT) * 0.5, upper=upper)


def symmetric_cholesky_reference(a, upper: bool = False):
    factor = np.linalg.cholesky((a + np.swapaxes(a, -1, -2)) * 0.5)
    return np.swapaxes(factor, -1, -2) if upper else factor


def solve_reference(a, b, left: bool = True):
    if not left:
        return np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
    if vector:
        return np.linalg.solve(a, b[..., None])[..., 0]
    return np.linalg.solve(a, b)


def matrix_norm_reference(a, ord="fro"):
    return np.linalg.norm(a, ord)


MATMUL_CASES = (
    ("matrix", (3, 4), (4, 5)),
    ("batch_matrix", (2, 3, 4), (4, 5)),
    ("vector_vector", (5,), (5,)),
    ("matrix_vector", (3, 4), (4,)),
    ("vector_matrix", (4,), (4, 3)),
    ("batch_broadcast", (2, 1, 3, 4), (5, 4, 2)),
    ("vector_batch", (4,), (2, 4, 3)),
    ("batch_vector", (2, 3, 4), (4,)),
    ("batch_batch", (2, 3, 4), (2, 4, 5)),
    ("matrix_batch", (3, 4), (2, 4, 5)),
    ("empty_rows", (0, 4), (4, 3)),
    ("empty_inner", (3, 0), (0, 2)),
)


def matmul_samples(rng: np.random.Generator) -> list:
    samples = pairs(*MATMUL_CASES)(rng)
    samples.append(Sample((normal(rng, 4, 3).T, normal(rng, 5, 4).T), label="transposed"))
    return samples


def einsum_sample(rng, equation: str, *shapes, label: str) -> Sample:
    return Sample((equation,) + tuple(normal(rng, *shape) for shape in shapes), label=label)


def einsum_samples(rng: np.random.Generator) -> list:
    return [
        einsum_sample(rng, "ij,jk->ik", (3, 4), (4, 5), label="matmul"),
        einsum_sample(rng, "ii->", (3, 3), label="trace"),
        einsum_sample(rng, "ii->i", (3, 3), label="diagonal"),
        einsum_sample(rng, "iij->j", (2, 2, 3), label="diagonal_sum"),
        einsum_sample(rng, "ij->", (3, 4), label="sum"),
        einsum_sample(rng, "ij->ji", (3, 4), label="transpose"),
        einsum_sample(rng, "bij,bjk->bik", (2, 3, 4), (2, 4, 5), label="batch"),
        einsum_sample(rng, "...ij,...jk->...ik", (2, 1, 3, 4), (5, 4, 2),
                      label="ellipsis_broadcast"),
        einsum_sample(rng, "i,j->ij", (3,), (4,), label="outer"),
        einsum_sample(rng, "ij,jk", (3, 4), (4, 2), label="implicit"),
        einsum_sample(rng, "ij,jk,kl->il", (2, 3), (3, 4), (4, 2), label="three_operands"),
        einsum_sample(rng, "ij,ij->i", (3, 4), (3, 4), label="rowwise_dot"),
        einsum_sample(rng, "ij,j->i", (3, 1), (4,), label="size_one_broadcast"),
        einsum_sample(rng, "ij,jk->ik", (3, 0), (0, 2), label="empty"),
        einsum_sample(rng, "->", (), label="scalar"),
    ]


def einsum_reference(equation, *operands):
    return np.einsum(equation, *operands)


OPS = [
    OpSpec("matmul", ug.matmul, np.matmul, matmul_samples, primitives=("matmul",)),
    OpSpec("operator_matmul", lambda a, b: a @ b, np.matmul,
           pairs(("matrix", (3, 4), (4, 2)), ("batch", (2, 3, 4), (4,)))),
    OpSpec("matmul_method", lambda a, b: a.matmul(b), np.matmul,
           pairs(("matrix", (2, 3), (3, 2)))),
    OpSpec("mm", ug.mm, np.matmul, pairs(("matrix", (3, 4), (4, 5)))),
    OpSpec("bmm", ug.bmm, np.matmul, pairs(("batch", (2, 3, 4), (2, 4, 5)))),
    OpSpec("mv", ug.mv, np.matmul, pairs(("matrix_vector", (3, 4), (4,)))),
    OpSpec("dot", ug.dot, np.dot, pairs(("vectors", (5,), (5,)), ("empty", (0,), (0,)))),
    OpSpec("outer", ug.outer, np.outer, pairs(("vectors", (3,), (4,)))),
    OpSpec("einsum", ug.einsum, einsum_reference, einsum_samples, primitives=("einsum",)),
    OpSpec("inv", ug.inv, np.linalg.inv, lambda rng: [
        Sample((well_conditioned(rng, 3, 3),), label="matrix"),
        Sample((well_conditioned(rng, 2, 3, 3),), label="batch"),
        Sample((well_conditioned(rng, 1, 1),), label="one_by_one"),
        Sample((well_conditioned(rng, 3, 3).T,), label="transposed"),
    ], primitives=("inv",)),
    OpSpec("linalg_inv", ug.linalg.inv, np.linalg.inv,
           lambda rng: [Sample((well_conditioned(rng, 2, 2),), label="matrix")]),
    OpSpec("det", ug.det, np.linalg.det, lambda rng: [
        Sample((well_conditioned(rng, 3, 3),), label="matrix"),
        Sample((well_conditioned(rng, 2, 3, 3),), label="batch"),
        Sample((normal(rng, 1, 1) + 2.0,), label="one_by_one"),
    ], primitives=("det",)),
    OpSpec("slogdet", ug.slogdet, np.linalg.slogdet, lambda rng: [
        Sample((well_conditioned(rng, 3, 3) * np.array([1.0, 1.0, -1.0]),), label="negative"),
        Sample((well_conditioned(rng, 2, 3, 3),), label="batch"),
    ], primitives=("logabsdet",)),
    OpSpec("logdet", ug.logdet, lambda a: np.log(np.linalg.det(a)), lambda rng: [
        Sample((positive_definite(rng, 3, 3),), label="matrix"),
    ]),
    OpSpec("solve", ug.solve, solve_reference, lambda rng: [
        Sample((well_conditioned(rng, 3, 3), normal(rng, 3, 2)), label="matrix"),
        Sample((well_conditioned(rng, 3, 3), normal(rng, 3)), label="vector"),
        Sample((well_conditioned(rng, 2, 3, 3), normal(rng, 2, 3)), label="batch_vector"),
        Sample((well_conditioned(rng, 2, 3, 3), normal(rng, 2, 3, 2)), label="batch"),
        Sample((well_conditioned(rng, 2, 1, 3, 3), normal(rng, 4, 3, 2)),
               label="batch_broadcast"),
        Sample((well_conditioned(rng, 3, 3), normal(rng, 2, 3)), {"left": False},
               label="right"),
    ], primitives=("solve",)),
    OpSpec("cholesky", symmetric_cholesky, symmetric_cholesky_reference, lambda rng: [
        Sample((positive_definite(rng, 3, 3),), label="matrix"),
        Sample((positive_definite(rng, 2, 3, 3),), label="batch"),
        Sample((positive_definite(rng, 3, 3),), {"upper": True}, label="upper"),
        Sample((positive_definite(rng, 1, 1),), label="one_by_one"),
    ], primitives=("cholesky",)),
    OpSpec("linalg_norm", ug.linalg.norm,
           lambda a, ord=None, dim=None: np.linalg.norm(a, ord, axis=dim), lambda rng: [
               Sample((away_from_zero(rng, 3, 4),), label="default"),
               Sample((away_from_zero(rng, 3, 4),), {"ord": "fro"}, label="fro"),
               Sample((away_from_zero(rng, 3, 4),), {"ord": 1}, label="matrix_one"),
               Sample((away_from_zero(rng, 3, 4),), {"ord": float("inf")}, label="matrix_inf"),
               Sample((away_from_zero(rng, 3, 4),), {"ord": -1}, label="matrix_minus_one"),
               Sample((away_from_zero(rng, 4),), {"ord": 3}, label="vector_three"),
               Sample((away_from_zero(rng, 3, 4),), {"ord": 1, "dim": 1}, label="vector_dim"),
           ]),
    OpSpec("matrix_norm", ug.linalg.matrix_norm, matrix_norm_reference, lambda rng: [
        Sample((away_from_zero(rng, 3, 4),), {"ord": float("-inf")}, label="minus_inf"),
    ]),
]
