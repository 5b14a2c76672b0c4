"""Op-table specs for the reductions of ``unigrad/ops/reduce.py`` beyond sum and mean."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, away_from_zero, distinct, normal, positive


def numpy_reduction(function):
    """A NumPy reference accepting PyTorch's ``dim``/``keepdim`` spelling too."""
    def reference(x, dim=None, keepdim=False, *, axis=None, keepdims=False, **extra):
        axis = dim if dim is not None else axis
        if isinstance(axis, list):
            axis = tuple(axis)
        return function(x, axis=axis, keepdims=keepdim or keepdims, **extra)
    return reference


def transposed(generate, *shape):
    """A non-contiguous array of ``shape`` (the transpose of a C-contiguous one)."""
    return lambda rng: generate(rng, *reversed(shape)).T


def cases(generate, *entries):
    """Samples of a one-tensor op: ``(label, shape or array_fn, kwargs)`` entries."""
    def samples(rng: np.random.Generator) -> list:
        result = []
        for label, shape, kwargs in entries:
            array = shape(rng) if callable(shape) else generate(rng, *shape)
            result.append(Sample((array,), kwargs, label=label))
        return result
    return samples


REDUCTIONS = (
    ("all", (3, 4), {}),
    ("dim0", (3, 4), {"dim": 0}),
    ("dim_negative_keepdim", (2, 3, 4), {"dim": -1, "keepdim": True}),
    ("dims_tuple", (2, 3, 4), {"dim": (0, 2)}),
    ("axis_keepdims", (3, 4), {"axis": 1, "keepdims": True}),
    ("scalar", (), {}),
)


def with_zeros(count: int):
    """A (3, 4) array with ``count`` zeros in each row (prod's special cases)."""
    def generate(rng: np.random.Generator) -> np.ndarray:
        values = away_from_zero(rng, 3, 4)
        values[:, :count] = 0.0
        return values
    return generate


def max_with_indices(function, arg_function):
    def reference(x, dim, keepdim=False):
        return (function(x, axis=dim, keepdims=keepdim),
                arg_function(x, axis=dim, keepdims=keepdim))
    return reference


def logsumexp_reference(x, dim=None, keepdim=False):
    axis = tuple(dim) if isinstance(dim, (list, tuple)) else dim
    shift = np.max(x, axis=axis, keepdims=True)
    result = np.log(np.sum(np.exp(x - shift), axis=axis, keepdims=True)) + shift
    return result if keepdim else np.squeeze(result, axis=axis)


def norm_reference(x, p="fro", dim=None, keepdim=False):
    axis = tuple(dim) if isinstance(dim, (list, tuple)) else dim
    magnitude = np.abs(x)
    if p == "fro" or p == 2:
        return np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdim))
    if p == np.inf:
        return np.max(magnitude, axis=axis, keepdims=keepdim)
    if p == -np.inf:
        return np.min(magnitude, axis=axis, keepdims=keepdim)
    if p == 0:
        return np.sum(x != 0, axis=axis, keepdims=keepdim).astype(x.dtype)
    return np.sum(magnitude ** p, axis=axis, keepdims=keepdim) ** (1.0 / p)


def variance_reference(root: bool):
    def reference(x, dim=None, unbiased=None, keepdim=False, *, correction=None, ddof=None,
                  axis=None):
        axis = tuple(dim) if isinstance(dim, (list, tuple)) else (dim if dim is not None
                                                                  else axis)
        if correction is None:
            correction = ddof if ddof is not None else (0 if unbiased is False else 1)
        result = np.var(x, axis=axis, ddof=correction, keepdims=keepdim)
        return np.sqrt(result) if root else result
    return reference


def cumsum_reference(x, dim):
    return np.cumsum(x.reshape(-1) if x.ndim == 0 else x, axis=dim).reshape(x.shape)


VARIANCE_CASES = (
    ("all", (3, 4), {}),
    ("dim1", (3, 4), {"dim": 1}),
    ("biased", (3, 4), {"dim": 0, "unbiased": False}),
    ("correction_keepdim", (2, 3, 4), {"dim": (0, 2), "correction": 2, "keepdim": True}),
    ("ddof", (3, 4), {"axis": 1, "ddof": 0}),
    ("transposed", transposed(normal, 3, 4), {"dim": 1}),
)

NORM_CASES = (
    ("fro", (3, 4), {}),
    ("p1_dim", (3, 4), {"p": 1, "dim": 1}),
    ("p3_keepdim", (3, 4), {"p": 3, "dim": 0, "keepdim": True}),
    ("p2_dims", (2, 3, 4), {"p": 2, "dim": (0, 2)}),
    ("inf", (3, 4), {"p": float("inf"), "dim": 1}),
    ("minus_inf", (3, 4), {"p": float("-inf")}),
    ("p0", (3, 4), {"p": 0}),
    ("scalar", (), {}),
    ("transposed", transposed(away_from_zero, 3, 4), {"dim": 0}),
)

OPS = [
    OpSpec("prod", ug.prod, numpy_reduction(np.prod), cases(
        away_from_zero, *REDUCTIONS,
        ("empty_dim", (0, 3), {"dim": 0}),
        ("one_zero_per_row", with_zeros(1), {"dim": 1}),
        ("transposed", transposed(away_from_zero, 3, 4), {"dim": 0})), primitives=("prod",)),
    OpSpec("prod_two_zeros", ug.prod, numpy_reduction(np.prod), cases(
        away_from_zero, ("two_zeros_per_row", with_zeros(2), {"dim": 1})),
        second_order=False),
    OpSpec("prod_method", lambda x: x.prod(dim=1), lambda x: np.prod(x, axis=1),
           cases(away_from_zero, ("matrix", (3, 4), {}))),
    OpSpec("amax", ug.amax, numpy_reduction(np.amax), cases(
        distinct, *REDUCTIONS, ("empty_other_dim", (0, 3), {"dim": 1}),
        ("transposed", transposed(distinct, 3, 4), {"dim": 1})), primitives=("amax",)),
    OpSpec("amin", ug.amin, numpy_reduction(np.amin), cases(
        distinct, *REDUCTIONS, ("transposed", transposed(distinct, 3, 4), {"dim": 1})),
        primitives=("amin",)),
    OpSpec("max_all", ug.max, np.max, cases(distinct, ("matrix", (3, 4), {}),
                                            ("scalar", (), {}))),
    OpSpec("max_dim", ug.max, max_with_indices(np.max, np.argmax), cases(
        distinct, ("dim1", (3, 4), {"dim": 1}), ("keepdim", (2, 3, 4), {"dim": 0, "keepdim": True}),
        ("transposed", transposed(distinct, 3, 4), {"dim": -1}),
        ("empty_other_dim", (0, 3), {"dim": 1})), primitives=("argmax",)),
    OpSpec("max_binary", ug.max, np.maximum, lambda rng: [
        Sample((distinct(rng, 3, 1), distinct(rng, 1, 4) + 0.1), label="broadcast")]),
    OpSpec("max_method", lambda x: x.max(dim=0).values, lambda x: np.max(x, axis=0),
           cases(distinct, ("matrix", (3, 4), {}))),
    OpSpec("min_all", ug.min, np.min, cases(distinct, ("matrix", (3, 4), {}))),
    OpSpec("min_dim", ug.min, max_with_indices(np.min, np.argmin), cases(
        distinct, ("dim1", (3, 4), {"dim": 1}), ("keepdim", (2, 3, 4), {"dim": 2, "keepdim": True}),
        ("scalar", (), {"dim": 0})), primitives=("argmin",)),
    OpSpec("min_binary", ug.min, np.minimum, lambda rng: [
        Sample((distinct(rng, 3, 1), distinct(rng, 1, 4) + 0.1), label="broadcast")]),
    OpSpec("argmax", ug.argmax, numpy_reduction(np.argmax), cases(
        distinct, ("flat", (3, 4), {}), ("dim1", (3, 4), {"dim": 1}),
        ("keepdim", (2, 3, 4), {"dim": 0, "keepdim": True}), ("flat_keepdim", (3, 4),
                                                               {"keepdim": True}),
        ("scalar", (), {})), grad=False, primitives=("argmax",)),
    OpSpec("argmin", ug.argmin, numpy_reduction(np.argmin), cases(
        distinct, ("flat", (3, 4), {}), ("dim0", (3, 4), {"dim": 0}),
        ("transposed", transposed(distinct, 3, 4), {"dim": 1})), grad=False,
        primitives=("argmin",)),
    OpSpec("all", ug.all, numpy_reduction(np.all), lambda rng: [
        Sample((rng.random((3, 4)) < 0.8,), {"dim": 1}, label="bool_dim"),
        Sample((np.array([[1.0, 0.0], [2.0, 3.0]]),), {}, label="float"),
        Sample((np.zeros((0, 3), dtype=bool),), {"dim": 0}, label="empty"),
    ], grad=False, primitives=("all",)),
    OpSpec("any", ug.any, numpy_reduction(np.any), lambda rng: [
        Sample((rng.random((3, 4)) < 0.2,), {"dim": 0, "keepdim": True}, label="bool_keepdim"),
        Sample((np.array([[0.0, 0.0], [2.0, 0.0]]),), {"dim": 1}, label="float"),
    ], grad=False, primitives=("any",)),
    OpSpec("count_nonzero", ug.count_nonzero,
           lambda x, dim=None: np.count_nonzero(x, axis=dim), lambda rng: [
               Sample((np.array([[0.0, 1.5, 0.0], [2.0, 3.0, 0.0]]),), {}, label="all"),
               Sample((np.array([[0.0, 1.5, 0.0], [2.0, 3.0, 0.0]]),), {"dim": 1}, label="dim1"),
           ], grad=False),
    OpSpec("cumsum", ug.cumsum, cumsum_reference, cases(
        normal, ("dim1", (3, 4), {"dim": 1}), ("dim0", (3, 4), {"dim": 0}),
        ("negative_dim", (2, 3, 4), {"dim": -2}), ("scalar", (), {"dim": 0}),
        ("empty", (0, 3), {"dim": 0}),
        ("transposed", transposed(normal, 3, 4), {"dim": 1})), primitives=("cumsum",)),
    OpSpec("var", ug.var, variance_reference(False), cases(normal, *VARIANCE_CASES)),
    OpSpec("std", ug.std, variance_reference(True), cases(normal, *VARIANCE_CASES)),
    OpSpec("var_std_methods", lambda x: (x.var(1), x.std(dim=0, unbiased=False)),
           lambda x: (np.var(x, axis=1, ddof=1), np.std(x, axis=0)),
           cases(normal, ("matrix", (3, 4), {}))),
    OpSpec("logsumexp", ug.logsumexp, logsumexp_reference, cases(
        normal, ("dim1", (3, 4), {"dim": 1}), ("keepdim", (2, 3, 4), {"dim": 0, "keepdim": True}),
        ("dims_tuple", (2, 3, 4), {"dim": (0, 2)}), ("scalar", (), {"dim": 0}),
        ("large", lambda rng: normal(rng, 3, 4) + 500.0, {"dim": 1}),
        ("transposed", transposed(normal, 3, 4), {"dim": 0}))),
    OpSpec("norm", ug.norm, norm_reference, cases(away_from_zero, *NORM_CASES)),
    OpSpec("norm_method", lambda x: x.norm(dim=1), lambda x: np.linalg.norm(x, axis=1),
           cases(positive, ("matrix", (3, 4), {}))),
    OpSpec("vector_norm", ug.vector_norm,
           lambda x, ord=2, dim=None: np.linalg.norm(x.reshape(-1), ord) if dim is None
           else np.linalg.norm(x, ord, axis=dim),
           cases(away_from_zero, ("default", (3, 4), {}), ("ord1_dim", (3, 4),
                                                           {"ord": 1, "dim": 1}))),
]
