"""Op-table specs for complex tensors: ``unigrad/ops/complex_numbers.py`` (parts, conjugates,
polar form, the real/complex views) and complex128 rows of the holomorphic primitives,
whose gradients follow PyTorch's convention (checked through the real inner product
``Re(sum(conj(a) * b))``, for which the vjp is the adjoint of the jvp)."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, normal
from .table_decompositions import (
    lstsq_reference,
    lstsq_solution,
    pinv_reference,
    qr_abs,
    qr_abs_reference,
    svd_abs,
    svd_abs_reference,
)


def complex_normal(rng: np.random.Generator, *shape) -> np.ndarray:
    return normal(rng, *shape) + 1j * normal(rng, *shape)


def away_from_zero(rng: np.random.Generator, *shape) -> np.ndarray:
    """Complex values with |z| in [0.5, 2] (for ops with a singularity at 0)."""
    radius = rng.uniform(0.5, 2.0, size=shape)
    return radius * np.exp(1j * rng.uniform(-np.pi, np.pi, size=shape))


def right_half_plane(rng: np.random.Generator, *shape) -> np.ndarray:
    """Values with a positive real part (away from log's and sqrt's branch cut)."""
    return rng.uniform(0.5, 2.0, size=shape) + 1j * normal(rng, *shape)


def unary(rng, sampler=complex_normal) -> list[Sample]:
    return [Sample((sampler(rng, 3, 4),), label="matrix"),
            Sample((sampler(rng),), label="0-d"),
            Sample((sampler(rng, 2, 0),), label="empty")]


def binary(rng, sampler=complex_normal) -> list[Sample]:
    return [Sample((sampler(rng, 3, 4), sampler(rng, 3, 4)), label="same"),
            Sample((sampler(rng, 3, 1), sampler(rng, 1, 4)), label="broadcast"),
            Sample((sampler(rng, 3, 4), normal(rng, 4)), label="real-other")]


def _holomorphic(name: str, op, ref, sampler=complex_normal, **options) -> OpSpec:
    return OpSpec(f"{name} (complex)", op, ref, lambda rng: unary(rng, sampler),
                  primitives=(name,), **options)


def well_conditioned(rng: np.random.Generator, *shape) -> np.ndarray:
    """Complex square matrices far from singular: normal entries plus 4 I."""
    return complex_normal(rng, *shape) + 4.0 * np.eye(shape[-1])


def hermitian_cholesky(a, upper: bool = False):
    """Cholesky of the Hermitian part (the factorization reads one triangle only)."""
    return ug.linalg.cholesky((a + a.mH) * 0.5, upper=upper)


def hermitian_cholesky_reference(a, upper: bool = False):
    factor = np.linalg.cholesky((a + np.conj(np.swapaxes(a, -1, -2))) * 0.5)
    return np.conj(np.swapaxes(factor, -1, -2)) if upper else factor


def hermitian_eigh_abs(a, UPLO="L"):
    """Eigenvalues and |eigenvectors| of the Hermitian part (the vectors' phases are free)."""
    values, vectors = ug.linalg.eigh((a + a.mH) * 0.5, UPLO=UPLO)
    return values, vectors.abs()


def hermitian_eigh_abs_reference(a, UPLO="L"):
    values, vectors = np.linalg.eigh((a + np.conj(np.swapaxes(a, -1, -2))) * 0.5, UPLO=UPLO)
    return values, np.abs(vectors)


def matrices(*shapes, kwargs=({},)):
    def samples(rng):
        return [Sample((complex_normal(rng, *shape),), dict(extra), label=f"{shape}{extra}")
                for shape in shapes for extra in kwargs]
    return samples


def _polar_samples(rng):
    return [Sample((rng.uniform(0.5, 2.0, size=(3, 4)), normal(rng, 3, 4)), label="matrix"),
            Sample((rng.uniform(0.5, 2.0, size=(3, 1)), normal(rng, 4)), label="broadcast")]


OPS = [
    # non-holomorphic ops with their own rules
    OpSpec("conj_physical", ug.conj_physical, np.conj, unary, primitives=("conj_physical",)),
    OpSpec("conj", ug.conj, np.conj, unary),
    OpSpec("real", ug.real, np.real, unary, primitives=("real",)),
    OpSpec("imag", ug.imag, np.imag, unary, primitives=("imag",)),
    OpSpec("angle", ug.angle, np.angle, lambda rng: unary(rng, away_from_zero),
           primitives=("angle",)),
    OpSpec("angle (real)", ug.angle, lambda x: np.where(x < 0, np.pi, 0.0),
           lambda rng: [Sample((normal(rng, 5),))], primitives=("angle",)),
    OpSpec("abs (complex)", ug.abs, np.abs, lambda rng: unary(rng, away_from_zero),
           primitives=("abs",)),
    OpSpec("sgn (complex)", ug.sgn, lambda z: z / np.abs(z),
           lambda rng: unary(rng, away_from_zero)),
    OpSpec("view_as_real", ug.view_as_real, lambda z: np.stack([z.real, z.imag], -1),
           unary, primitives=("view_as_real",)),
    OpSpec("view_as_complex", ug.view_as_complex, lambda x: x[..., 0] + 1j * x[..., 1],
           lambda rng: [Sample((normal(rng, 3, 2),)), Sample((normal(rng, 2, 4, 2),))],
           primitives=("view_as_complex",)),
    OpSpec("complex", ug.complex, lambda re, im: re + 1j * im,
           lambda rng: [Sample((normal(rng, 3, 4), normal(rng, 3, 4)), label="same"),
                        Sample((normal(rng, 3, 1), normal(rng, 4)), label="broadcast")]),
    OpSpec("polar", ug.polar, lambda r, theta: r * np.exp(1j * theta), _polar_samples),
    # holomorphic primitives on complex128 (their real rules at conjugated primals)
    OpSpec("add (complex)", ug.add, np.add, binary, primitives=("add",)),
    OpSpec("sub (complex)", ug.sub, np.subtract, binary, primitives=("sub",)),
    OpSpec("mul (complex)", ug.mul, np.multiply, binary, primitives=("mul",)),
    OpSpec("div (complex)", ug.div, np.divide, lambda rng: binary(rng, away_from_zero),
           primitives=("div",)),
    OpSpec("pow (complex)", ug.pow, np.power,
           lambda rng: [Sample((right_half_plane(rng, 3, 4),
                                 complex_normal(rng, 3, 4) * 0.5))],
           primitives=("pow",)),
    OpSpec("matmul (complex)", ug.matmul, np.matmul,
           lambda rng: [Sample((complex_normal(rng, 3, 4), complex_normal(rng, 4, 2))),
                        Sample((complex_normal(rng, 2, 3, 4), complex_normal(rng, 4)),
                               label="batched")],
           primitives=("matmul",)),
    OpSpec("sum (complex)", lambda x: ug.sum(x, dim=0), lambda x: np.sum(x, axis=0), unary,
           primitives=("sum",)),
    OpSpec("mean (complex)", lambda x: ug.mean(x, dim=-1), lambda x: np.mean(x, axis=-1),
           lambda rng: unary(rng)[:1], primitives=("mean",)),
    OpSpec("neg (complex)", ug.neg, np.negative, unary, primitives=("neg",)),
    OpSpec("inv (complex)", ug.linalg.inv, np.linalg.inv,
           lambda rng: [Sample((well_conditioned(rng, 3, 3),)),
                        Sample((well_conditioned(rng, 2, 2, 2),), label="batch")],
           primitives=("inv",)),
    OpSpec("det (complex)", ug.linalg.det, np.linalg.det,
           lambda rng: [Sample((well_conditioned(rng, 3, 3),))], primitives=("det",)),
    OpSpec("solve (complex)", ug.linalg.solve, np.linalg.solve,
           lambda rng: [Sample((well_conditioned(rng, 3, 3), complex_normal(rng, 3, 2)))],
           primitives=("solve",)),
    OpSpec("matrix_exp (complex)", ug.linalg.matrix_exp,
           lambda a: __import__("scipy.linalg", fromlist=["expm"]).expm(a),
           lambda rng: [Sample((0.5 * complex_normal(rng, 3, 3),))],
           primitives=("matrix_exp",)),
    OpSpec("cholesky (complex)", hermitian_cholesky, hermitian_cholesky_reference,
           lambda rng: [Sample((well_conditioned(rng, 3, 3) @
                                np.conj(well_conditioned(rng, 3, 3)).T,)),
                        Sample((well_conditioned(rng, 3, 3) @
                                np.conj(well_conditioned(rng, 3, 3)).T,), {"upper": True},
                               label="upper")],
           primitives=("cholesky",), grad_atol=1e-4),
    OpSpec("linalg.svd (complex)", svd_abs, svd_abs_reference,
           matrices((4, 3), (3, 4), (2, 3, 3), kwargs=({}, {"full_matrices": False})),
           primitives=("linalg_svd",), grad_atol=1e-4),
    OpSpec("linalg.eigh (complex)", hermitian_eigh_abs, hermitian_eigh_abs_reference,
           matrices((3, 3), (2, 4, 4), kwargs=({}, {"UPLO": "U"})),
           primitives=("linalg_eigh",), grad_atol=1e-4),
    OpSpec("linalg.qr (complex)", qr_abs, qr_abs_reference,
           matrices((4, 3), (3, 4), (3, 3)), primitives=("linalg_qr",), grad_atol=1e-4),
    OpSpec("linalg.pinv (complex)", ug.linalg.pinv, pinv_reference,
           matrices((4, 3), (3, 4)), primitives=("linalg_pinv",), grad_atol=1e-4),
    OpSpec("linalg.lstsq (complex)", lstsq_solution, lstsq_reference,
           lambda rng: [Sample((complex_normal(rng, 5, 3), complex_normal(rng, 5, 2)))],
           grad_atol=1e-4),
    OpSpec("slogdet (complex)", ug.linalg.slogdet, lambda a: tuple(np.linalg.slogdet(a)),
           lambda rng: [Sample((well_conditioned(rng, 3, 3),), label="matrix"),
                        Sample((well_conditioned(rng, 2, 3, 3),), label="batch")],
           primitives=("logabsdet", "slogdet_sign")),
    OpSpec("logdet (complex)", ug.logdet, lambda a: np.log(np.linalg.det(a)),
           lambda rng: [Sample((well_conditioned(rng, 3, 3),), label="matrix")]),
    OpSpec("householder_product (complex)", ug.linalg.householder_product, None,
           lambda rng: [Sample((complex_normal(rng, 4, 3), complex_normal(rng, 3)),
                               label="tall")]),
    _holomorphic("exp", ug.exp, np.exp),
    _holomorphic("log", ug.log, np.log, right_half_plane),
    _holomorphic("sqrt", ug.sqrt, np.sqrt, right_half_plane),
    _holomorphic("sin", ug.sin, np.sin),
    _holomorphic("cos", ug.cos, np.cos),
    _holomorphic("tanh", ug.tanh, np.tanh, lambda rng, *s: 0.5 * complex_normal(rng, *s)),
]
