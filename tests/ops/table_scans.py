"""Op-table specs for ``unigrad/ops/scans.py``: cumprod, logcumsumexp, cummax/cummin,
diff, nansum/nanmean, aminmax, var_mean/std_mean, trapezoid, cumulative_trapezoid."""

from __future__ import annotations

import warnings

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, away_from_zero, distinct, normal
from .table_reduce import cases, transposed


def on_vector(function):
    """A NumPy scan reference ``function(x, axis)`` that treats 0-d input as shape (1,)."""
    def reference(x, dim, **extra):
        if x.ndim == 0:
            return function(x.reshape(1), 0, **extra).reshape(())
        return function(x, dim, **extra)
    return reference


def running_arg(accumulate):
    def indices(x, axis):
        axis = axis % x.ndim
        running = accumulate(x, axis=axis)
        positions = np.arange(x.shape[axis]).reshape(
            [-1 if i == axis else 1 for i in range(x.ndim)])
        return np.maximum.accumulate(np.where(x == running, positions, 0), axis=axis)
    return indices


def running_extreme_reference(accumulate):
    def reference(x, dim):
        if x.ndim == 0:
            return x, np.zeros((), dtype=np.int64)
        return accumulate(x, axis=dim), running_arg(accumulate)(x, dim)
    return reference


def with_zeros(count: int):
    """(3, 5) rows with no zero, one zero, and ``count`` zeros."""
    def generate(rng: np.random.Generator) -> np.ndarray:
        values = away_from_zero(rng, 3, 5)
        values[1, 2] = 0.0
        values[2, [1, 3, 4][:count]] = 0.0
        return values
    return generate


def with_nans(rng: np.random.Generator) -> np.ndarray:
    values = normal(rng, 3, 4)
    values[0, 1] = values[2, 0] = values[2, 3] = np.nan
    return values


def nan_reduction(function):
    def reference(x, dim=None, keepdim=False):
        axis = tuple(dim) if isinstance(dim, list) else dim
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.asarray(function(x, axis=axis, keepdims=keepdim))
    return reference


def aminmax_reference(x, dim=None, keepdim=False):
    return np.amin(x, axis=dim, keepdims=keepdim), np.amax(x, axis=dim, keepdims=keepdim)


def variance_mean_reference(root: bool):
    def reference(x, dim=None, *, correction=1, keepdim=False):
        axis = tuple(dim) if isinstance(dim, list) else dim
        spread = np.var(x, axis=axis, ddof=correction, keepdims=keepdim)
        return (np.sqrt(spread) if root else spread), np.mean(x, axis=axis, keepdims=keepdim)
    return reference


def diff_reference(x, n=1, dim=-1, prepend=None, append=None):
    extra = {}
    if prepend is not None:
        extra["prepend"] = prepend
    if append is not None:
        extra["append"] = append
    return np.diff(x, n=n, axis=dim, **extra)


def trapezoid_reference(y, x=None, *, dx=None, dim=-1):
    if x is not None:
        return np.trapezoid(y, x, axis=dim)
    return np.trapezoid(y, dx=1.0 if dx is None else dx, axis=dim)


def cumulative_trapezoid_reference(y, x=None, *, dx=None, dim=-1):
    y = np.moveaxis(y, dim, -1)
    if x is None:
        widths = 1.0 if dx is None else dx
    else:
        widths = np.diff(np.moveaxis(x, dim, -1) if x.ndim > 1 else x, axis=-1)
    pieces = (y[..., 1:] + y[..., :-1]) * widths * 0.5
    return np.moveaxis(np.cumsum(pieces, axis=-1), -1, dim)


OPS = [
    OpSpec("cumprod", ug.cumprod, on_vector(lambda x, axis: np.cumprod(x, axis=axis)), cases(
        away_from_zero, ("dim1", (3, 4), {"dim": 1}), ("dim0", (3, 4), {"dim": 0}),
        ("negative_dim", (2, 3, 4), {"dim": -2}), ("scalar", (), {"dim": 0}),
        ("empty", (0, 3), {"dim": 0}), ("one_zero", with_zeros(1), {"dim": 1}),
        ("transposed", transposed(away_from_zero, 3, 4), {"dim": 1})), primitives=("cumprod",)),
    # across two zeros of one slice the vjp is exact to first order only (as prod's)
    OpSpec("cumprod_two_zeros", ug.cumprod, lambda x, dim: np.cumprod(x, axis=dim), cases(
        away_from_zero, ("two_zeros", with_zeros(2), {"dim": 1}),
        ("three_zeros", with_zeros(3), {"dim": -1})), second_order=False),
    OpSpec("cumprod_method", lambda x: x.cumprod(0), lambda x: np.cumprod(x, axis=0),
           cases(away_from_zero, ("matrix", (3, 4), {}))),
    OpSpec("logcumsumexp", ug.logcumsumexp,
           on_vector(lambda x, axis: np.logaddexp.accumulate(x, axis=axis)), cases(
               normal, ("dim1", (3, 5), {"dim": 1}), ("dim0", (3, 4), {"dim": 0}),
               ("negative_dim", (2, 3, 4), {"dim": -1}), ("scalar", (), {"dim": 0}),
               ("empty", (0, 3), {"dim": 0}),
               ("large", lambda rng: normal(rng, 3, 6) * 400.0, {"dim": 1}),
               ("transposed", transposed(normal, 3, 4), {"dim": 0}))),
    OpSpec("logcumsumexp_method", lambda x: x.logcumsumexp(0),
           lambda x: np.logaddexp.accumulate(x, axis=0), cases(normal, ("matrix", (3, 4), {}))),
    OpSpec("cummax", ug.cummax, running_extreme_reference(np.maximum.accumulate), cases(
        distinct, ("dim1", (3, 5), {"dim": 1}), ("negative_dim", (2, 3, 4), {"dim": -2}),
        ("scalar", (), {"dim": 0}), ("empty", (0, 3), {"dim": 0}),
        ("transposed", transposed(distinct, 3, 4), {"dim": 1})),
        primitives=("cummax_indices",)),
    OpSpec("cummin", ug.cummin, running_extreme_reference(np.minimum.accumulate), cases(
        distinct, ("dim0", (4, 3), {"dim": 0}), ("negative_dim", (2, 3, 4), {"dim": -1}),
        ("transposed", transposed(distinct, 3, 4), {"dim": 0})),
        primitives=("cummin_indices",)),
    OpSpec("cummax_method", lambda x: x.cummax(0).values,
           lambda x: np.maximum.accumulate(x, axis=0), cases(distinct, ("matrix", (4, 3), {}))),
    OpSpec("diff", ug.diff, diff_reference, lambda rng: [
        Sample((normal(rng, 3, 5),), label="default"),
        Sample((normal(rng, 3, 5),), {"n": 2, "dim": 0}, label="n2_dim0"),
        Sample((normal(rng, 2, 3, 4),), {"dim": -2}, label="negative_dim"),
        Sample((normal(rng, 4),), {"n": 0}, label="n0"),
        Sample((normal(rng, 3),), {"n": 5}, label="n_past_length"),
        Sample((normal(rng, 0, 3),), {"dim": 1}, label="empty"),
        Sample((transposed(normal, 3, 4)(rng),), {"dim": 0}, label="transposed"),
    ]),
    OpSpec("diff_prepend_append", lambda x, p, a: ug.diff(x, 2, 1, prepend=p, append=a),
           lambda x, p, a: np.diff(x, 2, axis=1, prepend=p, append=a), lambda rng: [
               Sample((normal(rng, 3, 4), normal(rng, 3, 1), normal(rng, 3, 2)), label="pend")]),
    OpSpec("diff_method", lambda x: x.diff(), lambda x: np.diff(x),
           cases(normal, ("matrix", (3, 4), {}))),
    OpSpec("nansum", ug.nansum, nan_reduction(np.nansum), cases(
        normal, ("all", (3, 4), {}), ("dim1", (3, 4), {"dim": 1}),
        ("nans_dim0_keepdim", with_nans, {"dim": 0, "keepdim": True}),
        ("nans_all", with_nans, {}), ("negative_dims", (2, 3, 4), {"dim": [-1, 0]}),
        ("scalar", (), {}), ("empty", (0, 3), {"dim": 0}),
        ("transposed", transposed(normal, 3, 4), {"dim": 1}))),
    OpSpec("nanmean", ug.nanmean, nan_reduction(np.nanmean), cases(
        normal, ("all", (3, 4), {}), ("nans_dim1", with_nans, {"dim": 1}),
        ("nans_keepdim", with_nans, {"dim": -2, "keepdim": True}),
        ("scalar", (), {}),
        ("transposed", transposed(normal, 3, 4), {"dim": 0}))),
    OpSpec("nan_methods", lambda x: (x.nansum(1), x.nanmean()),
           lambda x: (np.nansum(x, axis=1), np.nanmean(x)), cases(normal, ("nans", with_nans, {}))),
    OpSpec("aminmax", ug.aminmax, aminmax_reference, cases(
        distinct, ("all", (3, 4), {}), ("dim1", (3, 4), {"dim": 1}),
        ("negative_dim_keepdim", (2, 3, 4), {"dim": -1, "keepdim": True}),
        ("scalar", (), {}), ("empty_other_dim", (0, 3), {"dim": 1}),
        ("transposed", transposed(distinct, 3, 4), {"dim": 0}))),
    OpSpec("aminmax_method", lambda x: x.aminmax(dim=0), lambda x: aminmax_reference(x, 0),
           cases(distinct, ("matrix", (3, 4), {}))),
    OpSpec("var_mean", ug.var_mean, variance_mean_reference(False), cases(
        normal, ("all", (3, 4), {}), ("dim1", (3, 4), {"dim": 1}),
        ("correction0_keepdim", (2, 3, 4), {"dim": (0, -1), "correction": 0, "keepdim": True}),
        ("transposed", transposed(normal, 3, 4), {"dim": 0}))),
    OpSpec("std_mean", ug.std_mean, variance_mean_reference(True), cases(
        normal, ("all", (3, 4), {}), ("dim_negative", (3, 4), {"dim": -1}),
        ("correction2", (2, 5), {"dim": 1, "correction": 2}),
        ("transposed", transposed(normal, 3, 4), {"dim": 1}))),
    OpSpec("trapezoid", ug.trapezoid, trapezoid_reference, lambda rng: [
        Sample((normal(rng, 3, 5),), label="default"),
        Sample((normal(rng, 3, 5),), {"dx": 0.5, "dim": 0}, label="dx_dim0"),
        Sample((normal(rng, 3, 5), np.cumsum(away_from_zero(rng, 5) ** 2)), label="x_1d"),
        Sample((normal(rng, 2, 4, 3), normal(rng, 2, 4, 3)), {"dim": -2}, label="x_nd"),
        Sample((normal(rng, 0, 3),), {"dim": 0}, label="empty"),
        Sample((transposed(normal, 3, 4)(rng),), {"dim": 0}, label="transposed"),
    ]),
    OpSpec("cumulative_trapezoid", ug.cumulative_trapezoid, cumulative_trapezoid_reference,
           lambda rng: [
               Sample((normal(rng, 3, 5),), label="default"),
               Sample((normal(rng, 4, 3),), {"dx": 2.0, "dim": 0}, label="dx_dim0"),
               Sample((normal(rng, 3, 5), np.cumsum(away_from_zero(rng, 5) ** 2)),
                      label="x_1d"),
               Sample((normal(rng, 2, 4, 3), normal(rng, 2, 4, 3)), {"dim": 1}, label="x_nd"),
               Sample((transposed(normal, 3, 4)(rng),), {"dim": -1}, label="transposed"),
           ]),
]
