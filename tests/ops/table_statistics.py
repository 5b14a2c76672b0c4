"""Op-table specs for ``unigrad/ops/statistics.py``: cov, corrcoef, cdist, dist, renorm,
cross and linalg.cross."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, normal, positive

# ----------------------------------------------------------------------------- references


def cov_reference(x, *, correction=1, fweights=None, aweights=None):
    return np.asarray(np.cov(x, ddof=correction, fweights=fweights, aweights=aweights))


def cdist_reference(x1, x2, p=2.0, compute_mode=None):
    diff = np.abs(x1[..., :, None, :] - x2[..., None, :, :])
    if p == np.inf:
        return diff.max(-1)
    if p == 0:
        return (diff != 0).sum(-1).astype(x1.dtype)
    return (diff ** p).sum(-1) ** (1.0 / p)


def dist_reference(x, y, p=2):
    diff = np.abs(x - y).ravel()
    if p == np.inf:
        return np.asarray(diff.max())
    return np.asarray((diff ** p).sum() ** (1.0 / p))


def renorm_reference(x, p, dim, maxnorm):
    axes = tuple(i for i in range(x.ndim) if i != dim % x.ndim)
    norms = (np.abs(x) ** p).sum(axis=axes, keepdims=True) ** (1.0 / p)
    return x * np.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)


def cross_reference(x, y, dim=None):
    if dim is None:
        dim = list(x.shape).index(3)
    return np.cross(x, y, axis=dim)


def linalg_cross_reference(x, y, dim=-1):
    return np.cross(x, y, axis=dim)


# ----------------------------------------------------------------------------- samples


def cov_samples(rng: np.random.Generator) -> list:
    observations = 6
    return [Sample((normal(rng, 3, observations),), label="matrix"),
            Sample((normal(rng, observations),), label="vector"),
            Sample((normal(rng, 2, observations),), {"correction": 0}, label="correction_0"),
            Sample((normal(rng, 3, observations),),
                   {"fweights": rng.integers(1, 4, size=observations)}, label="fweights"),
            Sample((normal(rng, 3, observations),),
                   {"fweights": rng.integers(1, 4, size=observations),
                    "aweights": positive(rng, observations)}, label="both_weights"),
            Sample((normal(rng, 2, observations),), {"aweights": positive(rng, observations),
                                                     "correction": 2}, label="aweights"),
            Sample((rng.integers(-3, 4, size=(2, observations)),), label="int64")]


def with_weights(function):
    """Weights passed as keywords become Tensors (the harness converts positional arrays)."""
    def call(x, **kwargs):
        for name in ("fweights", "aweights"):
            weights = kwargs.get(name)
            if isinstance(weights, np.ndarray):  # aweights in the input's floating dtype
                floating = weights.dtype.kind == "f" and x.dtype.is_floating_point
                kwargs[name] = ug.tensor(weights, dtype=x.dtype if floating else None)
        return function(x, **kwargs)
    return call


def cdist_samples(rng: np.random.Generator) -> list:
    samples = []
    for p in (2.0, 1.0, 3.0, 0.5, np.inf, 0.0):
        samples.append(Sample((normal(rng, 4, 3), normal(rng, 5, 3)), {"p": p}, label=f"p{p}"))
    samples += [Sample((normal(rng, 2, 3, 4), normal(rng, 2, 5, 4)), label="batched"),
                Sample((normal(rng, 1, 3, 2), normal(rng, 2, 4, 2)), {"p": 1.5},
                       label="broadcast_batch"),
                Sample((normal(rng, 0, 3), normal(rng, 2, 3)), label="empty"),
                Sample((normal(rng, 3, 2), normal(rng, 2, 2)),
                       {"compute_mode": "donot_use_mm_for_euclid_dist"}, label="compute_mode")]
    return samples


def dist_samples(rng: np.random.Generator) -> list:
    return [Sample((normal(rng, 3, 4), normal(rng, 3, 4)), label="p2"),
            Sample((normal(rng, 3, 4), normal(rng, 1, 4)), {"p": 1}, label="p1_broadcast"),
            Sample((normal(rng, 5), normal(rng, 5)), {"p": 3.0}, label="p3"),
            Sample((normal(rng, 5), normal(rng, 5)), {"p": 0.7}, label="p0.7"),
            Sample((normal(rng, 2, 3), normal(rng, 2, 3)), {"p": np.inf}, label="inf"),
            Sample((normal(rng, 2, 3), normal(rng, 2, 3)), {"p": -1.5}, label="negative"),
            Sample((normal(rng), normal(rng)), label="scalar")]


def renorm_rows(rng: np.random.Generator, *shape) -> np.ndarray:
    """Slices along dim 0 with norms well below or well above 1."""
    values = normal(rng, *shape)
    scale = np.where(np.arange(shape[0]) % 2 == 0, 0.05, 3.0)
    scale = scale.reshape((-1,) + (1,) * (len(shape) - 1))
    return values * scale


def renorm_samples(rng: np.random.Generator) -> list:
    return [Sample((renorm_rows(rng, 4, 3), 2, 0, 1.0), label="p2"),
            Sample((renorm_rows(rng, 4, 3), 1, 0, 1.0), label="p1"),
            Sample((renorm_rows(rng, 4, 2, 3), 3.0, 0, 1.0), label="p3_3d"),
            Sample((renorm_rows(rng, 4, 3).T.copy(), 2, -1, 1.0), label="last_dim")]


def cross_samples(rng: np.random.Generator) -> list:
    return [Sample((normal(rng, 4, 3), normal(rng, 4, 3)), {"dim": 1}, label="rows"),
            Sample((normal(rng, 3, 4), normal(rng, 3, 4)), {"dim": 0}, label="columns"),
            Sample((normal(rng, 1, 3), normal(rng, 4, 3)), {"dim": -1}, label="broadcast"),
            Sample((rng.integers(-3, 4, size=(2, 3)), rng.integers(-3, 4, size=(2, 3))),
                   {"dim": 1}, label="int64")]


OPS = [
    OpSpec("cov", with_weights(ug.cov), cov_reference, cov_samples, ("matmul",)),
    OpSpec("corrcoef", ug.corrcoef, lambda x: np.asarray(np.corrcoef(x)),
           lambda rng: [Sample((normal(rng, 3, 6),), label="matrix"),
                        Sample((normal(rng, 2, 5),), label="two")]),
    OpSpec("cdist", ug.cdist, cdist_reference, cdist_samples),
    OpSpec("dist", ug.dist, dist_reference, dist_samples),
    OpSpec("renorm", ug.renorm, renorm_reference, renorm_samples),
    OpSpec("cross", ug.cross, cross_reference, cross_samples),
    OpSpec("linalg_cross", ug.linalg.cross, linalg_cross_reference,
           lambda rng: cross_samples(rng)[::2]),
]
