"""Op-table specs for ``unigrad/ops/decompositions.py``: svd, svdvals, eigh, eigvalsh, qr,
pinv, matrix_rank, lstsq, cond and the spectral / nuclear matrix norms.

Singular vectors and eigenvectors are defined up to sign, so the specs compare (and
differentiate) sign-invariant functions of them: their absolute values."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, normal
from .table_linalg import well_conditioned


def _k(a) -> int:
    return min(tuple(a.shape)[-2:])


# ----------------------------------------------------------------------------- svd

def svd_abs(a, full_matrices=True):
    """``(|U|, S, |Vh|)`` narrowed to ``k`` vectors (the rest of a full basis is arbitrary)."""
    u, s, vh = ug.linalg.svd(a, full_matrices=full_matrices)
    k = _k(a)
    return u[..., :k].abs(), s, vh[..., :k, :].abs()


def svd_abs_reference(a, full_matrices=True):
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    k = min(a.shape[-2:])
    return np.abs(u[..., :k]), s, np.abs(vh[..., :k, :])


def torch_svd_abs(a, some=True):
    u, s, v = ug.svd(a, some=some)
    k = _k(a)
    return u[..., :k].abs(), s, v[..., :k].abs()


def torch_svd_abs_reference(a, some=True):
    u, s, vh = np.linalg.svd(a, full_matrices=not some)
    k = min(a.shape[-2:])
    return np.abs(u[..., :k]), s, np.abs(np.swapaxes(vh, -1, -2)[..., :k])


def shapes(*entries, kwargs=None):
    """Random matrices of the given shapes, each with every kwargs variant."""
    variants = kwargs or [{}]

    def samples(rng: np.random.Generator) -> list:
        return [Sample((normal(rng, *shape),), dict(extra), label=f"{shape}{extra}")
                for shape in entries for extra in variants]
    return samples


MATRIX_SHAPES = ((4, 3), (3, 4), (3, 3), (2, 4, 3), (2, 1, 2, 3))


# ----------------------------------------------------------------------------- eigh

def symmetric(a):
    return (a + a.mT) * 0.5


def _symmetric(a):
    return (a + np.swapaxes(a, -1, -2)) * 0.5


def eigh_abs(a, UPLO="L"):
    values, vectors = ug.linalg.eigh(symmetric(a), UPLO=UPLO)
    return values, vectors.abs()


def eigh_abs_reference(a, UPLO="L"):
    values, vectors = np.linalg.eigh(_symmetric(a), UPLO=UPLO)
    return values, np.abs(vectors)


def eigvalsh_symmetric(a, UPLO="L"):
    return ug.linalg.eigvalsh(symmetric(a), UPLO=UPLO)


def squares(rng: np.random.Generator) -> list:
    return [Sample((normal(rng, *shape),), dict(extra), label=f"{shape}{extra}")
            for shape in ((3, 3), (2, 4, 4), (1, 1)) for extra in ({}, {"UPLO": "U"})]


# ----------------------------------------------------------------------------- qr

def qr_abs(a, mode="reduced"):
    q, r = ug.linalg.qr(a, mode=mode)
    return q.abs(), r.abs()


def qr_abs_reference(a, mode="reduced"):
    q, r = np.linalg.qr(a, mode=mode)
    return np.abs(q), np.abs(r)


def qr_samples(rng: np.random.Generator) -> list:
    cases = [((4, 3), "reduced"), ((3, 4), "reduced"), ((3, 3), "complete"),
             ((3, 5), "complete"), ((2, 4, 3), "reduced"), ((2, 2, 4), "reduced")]
    return [Sample((normal(rng, *shape),), {"mode": mode}, label=f"{shape} {mode}")
            for shape, mode in cases]


def qr_r_only(a):
    return ug.linalg.qr(a, mode="r")[1].abs()


def qr_r_only_reference(a):
    return np.abs(np.linalg.qr(a, mode="r"))


def torch_qr_abs(a, some=True):
    q, r = ug.qr(a, some=some)
    return q.abs(), r.abs()


def torch_qr_abs_reference(a, some=True):
    return qr_abs_reference(a, "reduced" if some else "complete")


# ----------------------------------------------------------------------------- pinv, lstsq

def pinv_reference(a, hermitian=False, **tolerances):
    return np.linalg.pinv(a, hermitian=hermitian)


def pinv_symmetric(a, hermitian=True):
    return ug.linalg.pinv(symmetric(a), hermitian=hermitian)


def pinv_symmetric_reference(a, hermitian=True):
    return np.linalg.pinv(_symmetric(a), hermitian=hermitian)


def lstsq_solution(a, b):
    return ug.linalg.lstsq(a, b).solution


def lstsq_reference(a, b):
    if b.ndim == a.ndim - 1:
        return (np.linalg.pinv(a) @ b[..., None])[..., 0]
    return np.linalg.pinv(a) @ b


def lstsq_samples(rng: np.random.Generator) -> list:
    cases = [((5, 3), (5, 2)), ((3, 5), (3, 2)), ((2, 4, 3), (2, 4, 1)), ((4, 3), (4,))]
    return [Sample((normal(rng, *a), normal(rng, *b)), label=f"{a} {b}") for a, b in cases]


def lstsq_residuals(a, b):
    return ug.linalg.lstsq(a, b, driver="gelsd").residuals


def lstsq_residuals_reference(a, b):
    x = np.linalg.pinv(a) @ b
    return ((a @ x - b) ** 2).sum(-2)


def matrix_rank_reference(a, hermitian=False, **tolerances):
    return np.asarray(np.linalg.matrix_rank(a, hermitian=hermitian), dtype=np.int64)


def rank_samples(rng: np.random.Generator) -> list:
    low = normal(rng, 2, 4, 2) @ normal(rng, 2, 2, 3)
    return [Sample((normal(rng, 4, 3),), label="full"), Sample((low,), label="rank 2 batch"),
            Sample((np.zeros((3, 3)),), label="zero")]


def square_rank_samples(rng: np.random.Generator) -> list:
    low = normal(rng, 2, 3, 2) @ normal(rng, 2, 2, 3)
    return [Sample((normal(rng, 3, 3),), label="full"), Sample((low,), label="rank 2 batch"),
            Sample((np.zeros((3, 3)),), label="zero")]


# ----------------------------------------------------------------------------- norms, cond

def cond_reference(a, p=None):
    return np.asarray(np.linalg.cond(a, p))


def cond_samples(rng: np.random.Generator) -> list:
    samples = [Sample((normal(rng, 4, 3),), {"p": p}, label=f"rect {p}") for p in (None, 2, -2)]
    samples += [Sample((well_conditioned(rng, 2, 3, 3),), {"p": p}, label=f"square {p}")
                for p in (None, 2, -2, "fro", "nuc", 1, -1, np.inf, -np.inf)]
    return samples


def spectral_norm_reference(a, ord="nuc", dim=(-2, -1), keepdim=False):
    moved = np.moveaxis(a, dim, (-2, -1))
    values = np.linalg.svd(moved, compute_uv=False)
    result = {"nuc": values.sum(-1), 2: values.max(-1), -2: values.min(-1)}[ord]
    if keepdim:
        for axis in sorted(d % a.ndim for d in dim):
            result = np.expand_dims(result, axis)
    return result


def spectral_norm_samples(rng: np.random.Generator) -> list:
    samples = [Sample((normal(rng, 4, 3),), {"ord": ord}, label=str(ord)) for ord in ("nuc", 2, -2)]
    samples.append(Sample((normal(rng, 3, 2, 4),), {"ord": "nuc", "dim": (0, 2)}, label="dims"))
    samples.append(Sample((normal(rng, 3, 2, 4),), {"ord": 2, "dim": (2, 0), "keepdim": True},
                          label="keepdim"))
    return samples


def norm_nuc(a, dim=None, keepdim=False):
    return ug.norm(a, p="nuc", dim=dim, keepdim=keepdim)


def norm_nuc_reference(a, dim=None, keepdim=False):
    return spectral_norm_reference(a, "nuc", (0, 1) if dim is None else dim, keepdim)


OPS = [
    OpSpec("linalg.svd", svd_abs, svd_abs_reference,
           shapes(*MATRIX_SHAPES, kwargs=[{"full_matrices": False}, {"full_matrices": True}]),
           primitives=("linalg_svd",), atol=1e-6, grad_atol=1e-4, float32_tol=1e-3),
    OpSpec("svd", torch_svd_abs, torch_svd_abs_reference,
           shapes((4, 3), (2, 3, 4), kwargs=[{}, {"some": False}]),
           primitives=("linalg_svd",), grad_atol=1e-4, float32_tol=1e-3),
    OpSpec("linalg.svdvals", ug.linalg.svdvals,
           lambda a: np.linalg.svd(a, compute_uv=False), shapes(*MATRIX_SHAPES),
           primitives=("linalg_svd",), float32_tol=1e-3),
    OpSpec("linalg.eigh", eigh_abs, eigh_abs_reference, squares, primitives=("linalg_eigh",),
           grad_atol=1e-4, float32_tol=1e-3),
    OpSpec("linalg.eigvalsh", eigvalsh_symmetric,
           lambda a, UPLO="L": np.linalg.eigvalsh(_symmetric(a), UPLO=UPLO), squares,
           primitives=("linalg_eigh",), float32_tol=1e-3),
    OpSpec("linalg.qr", qr_abs, qr_abs_reference, qr_samples, primitives=("linalg_qr",),
           grad_atol=1e-4, float32_tol=1e-3),
    # mode='r' computes no Q, and PyTorch refuses to differentiate it (tested in
    # test_decompositions_vs_torch.py)
    OpSpec("linalg.qr.r", qr_r_only, qr_r_only_reference, shapes((4, 3), (2, 3, 4)),
           primitives=("linalg_qr",), grad=False, float32_tol=1e-3),
    OpSpec("qr", torch_qr_abs, torch_qr_abs_reference,
           shapes((3, 4), (3, 3), kwargs=[{}, {"some": False}]),
           primitives=("linalg_qr",), grad_atol=1e-4, float32_tol=1e-3),
    OpSpec("linalg.pinv", ug.linalg.pinv, pinv_reference, shapes(*MATRIX_SHAPES),
           primitives=("linalg_pinv",), grad_atol=1e-4, float32_tol=1e-3),
    OpSpec("linalg.pinv.hermitian", pinv_symmetric, pinv_symmetric_reference,
           lambda rng: [Sample((well_conditioned(rng, *shape),), label=str(shape))
                        for shape in ((3, 3), (2, 4, 4))],
           primitives=("linalg_pinv",), grad_atol=1e-4, float32_tol=1e-3),
    OpSpec("pinverse", ug.pinverse, lambda a: np.linalg.pinv(a), shapes((4, 3), (2, 3, 4)),
           primitives=("linalg_pinv",), grad_atol=1e-4, float32_tol=1e-3),
    OpSpec("linalg.lstsq", lstsq_solution, lstsq_reference, lstsq_samples,
           primitives=("linalg_pinv",), grad_atol=1e-4, float32_tol=1e-3),
    # the residuals exist only when every matrix has full rank: a value-dependent result
    OpSpec("linalg.lstsq.residuals", lstsq_residuals, lstsq_residuals_reference,
           lambda rng: [Sample((normal(rng, 5, 3), normal(rng, 5, 2)), label="tall")],
           primitives=("linalg_pinv",), grad_atol=1e-4, float32_tol=1e-3, jit=False,
           vmap=False),
    OpSpec("linalg.matrix_rank", ug.linalg.matrix_rank, matrix_rank_reference, rank_samples,
           primitives=("linalg_svd",), grad=False),
    OpSpec("linalg.matrix_rank.hermitian", lambda a: ug.linalg.matrix_rank(symmetric(a),
                                                                           hermitian=True),
           lambda a: matrix_rank_reference(_symmetric(a), hermitian=True), square_rank_samples,
           primitives=("linalg_eigh",), grad=False),
    OpSpec("linalg.cond", ug.linalg.cond, cond_reference, cond_samples,
           primitives=("linalg_svd",), grad_atol=1e-4, float32_tol=1e-3),
    OpSpec("linalg.matrix_norm.spectral", ug.linalg.matrix_norm, spectral_norm_reference,
           spectral_norm_samples, primitives=("linalg_svd",), grad_atol=1e-4,
           float32_tol=1e-3),
    OpSpec("norm.nuc", norm_nuc, norm_nuc_reference,
           lambda rng: [Sample((normal(rng, 4, 3),), label="matrix"),
                        Sample((normal(rng, 3, 2, 4),), {"dim": (0, 2), "keepdim": True},
                               label="dims")],
           primitives=("linalg_svd",), grad_atol=1e-4, float32_tol=1e-3),
]
