"""Op-table specs for ``unigrad/ops/sorting.py``: sort, argsort, msort, topk, kthvalue,
median, nanmedian, mode, quantile, nanquantile, unique, unique_consecutive, searchsorted,
bucketize, histc, bincount."""

from __future__ import annotations

import warnings

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, distinct, normal
from .table_reduce import cases, transposed

INT = np.int64


def on_vector(function):
    """A reference ``function(x, axis, **extra)`` that treats a 0-d input as shape (1,)."""
    def reference(x, dim=-1, **extra):
        if x.ndim == 0:
            return tuple(np.asarray(r).reshape(()) for r in function(x.reshape(1), 0, **extra))
        return function(x, dim % x.ndim, **extra)
    return reference


def stable_order(x, axis, descending=False):
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    order = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return x.shape[axis] - 1 - np.flip(order, axis)


@on_vector
def sort_reference(x, axis, descending=False, stable=False):
    order = stable_order(x, axis, descending)
    return np.take_along_axis(x, order, axis), order


def argsort_reference(x, dim=-1, descending=False, stable=False):
    return sort_reference(x, dim, descending=descending)[1]


@on_vector
def topk_reference(x, axis, k=None, largest=True, sorted=True):
    order = np.take(stable_order(x, axis, largest), np.arange(k), axis=axis)
    return np.take_along_axis(x, order, axis), order


def topk_call(x, k, **kwargs):
    return ug.topk(x, k, **kwargs)


def topk_ref(x, k, dim=-1, **kwargs):
    return topk_reference(x, dim, k=k, **kwargs)


def select_at(x, axis, order, position, keepdim):
    indices = np.take_along_axis(order, position, axis)
    values = np.take_along_axis(x, indices, axis)
    if not keepdim:
        values, indices = np.squeeze(values, axis), np.squeeze(indices, axis)
    return values, indices


def kthvalue_ref(x, k, dim=-1, keepdim=False):
    def compute(x, axis):
        order = stable_order(x, axis)
        position = np.full(tuple(1 if i == axis else s for i, s in enumerate(x.shape)), k - 1)
        return select_at(x, axis, order, position, keepdim)
    return on_vector(compute)(x, dim)


def median_position(x, axis, ignore_nan):
    n = x.shape[axis]
    count = np.sum(~np.isnan(x), axis=axis, keepdims=True)
    if ignore_nan:
        return np.where(count > 0, (count - 1) // 2, (n - 1) // 2)
    return np.where(count < n, count, (n - 1) // 2)


def median_reference(ignore_nan):
    def reference(x, dim=None, keepdim=False):
        if dim is None:
            flat = x.reshape(-1)
            position = median_position(flat, 0, ignore_nan)
            return select_at(flat, 0, stable_order(flat, 0), position, False)[0]

        def compute(x, axis):
            position = median_position(x, axis, ignore_nan)
            return select_at(x, axis, stable_order(x, axis), position, keepdim)
        return on_vector(compute)(x, dim)
    return reference


def mode_reference(x, dim=-1, keepdim=False):
    def compute(x, axis):
        moved = np.moveaxis(x, axis, -1)
        values = np.empty(moved.shape[:-1], dtype=x.dtype)
        indices = np.empty(moved.shape[:-1], dtype=INT)
        for position in np.ndindex(moved.shape[:-1]):
            row = moved[position]
            uniques, counts = np.unique(row, return_counts=True)
            value = uniques[np.argmax(counts)]
            values[position] = value
            indices[position] = np.flatnonzero(row == value)[-1]
        if keepdim:
            return np.expand_dims(values, axis), np.expand_dims(indices, axis)
        return values, indices
    return on_vector(compute)(x, dim)


def quantile_reference(function):
    def reference(x, q, dim=None, keepdim=False, *, interpolation="linear"):
        if x.ndim == 0:
            x = x.reshape(1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.asarray(function(x, q, axis=dim, keepdims=keepdim, method=interpolation))
    return reference


def unique_reference(x, sorted=True, return_inverse=False, return_counts=False, dim=None):
    values, inverse, counts = np.unique(x if dim is not None else x.reshape(-1),
                                        return_inverse=True, return_counts=True, axis=dim)
    inverse = inverse.reshape(x.shape) if dim is None else inverse.reshape(-1)
    out = [values] + ([inverse] if return_inverse else []) + ([counts] if return_counts else [])
    return out[0] if len(out) == 1 else tuple(out)


def unique_consecutive_reference(x, return_inverse=False, return_counts=False, dim=None):
    axis = 0 if dim is None else dim
    data = x.reshape(-1) if dim is None else x
    values, inverse, counts = [], [], []
    for index in range(data.shape[axis]):
        item = np.take(data, index, axis=axis)
        if values and np.array_equal(values[-1], item):
            counts[-1] += 1
        else:
            values.append(item)
            counts.append(1)
        inverse.append(len(values) - 1)
    out = [np.stack(values, axis=axis)]
    if return_inverse:
        out.append(np.array(inverse, dtype=INT).reshape(x.shape if dim is None else (-1,)))
    if return_counts:
        out.append(np.array(counts, dtype=INT))
    return out[0] if len(out) == 1 else tuple(out)


def searchsorted_reference(sequence, values, *, out_int32=False, right=False, side=None,
                           sorter=None):
    side = side or ("right" if right else "left")
    if sorter is not None:
        sequence = np.take_along_axis(sequence, sorter, -1)
    if sequence.ndim == 1:
        out = np.searchsorted(sequence, values, side)
    else:
        out = np.stack([np.searchsorted(s, v, side) for s, v in
                        zip(sequence.reshape(-1, sequence.shape[-1]),
                            values.reshape(-1, values.shape[-1]))]).reshape(values.shape)
    return np.asarray(out).astype(np.int32 if out_int32 else INT)


def bucketize_reference(values, boundaries, *, out_int32=False, right=False):
    out = np.searchsorted(boundaries, values, "right" if right else "left")
    return np.asarray(out).astype(np.int32 if out_int32 else INT)


def histc_reference(x, bins=100, min=0, max=0):
    low, high = float(min), float(max)
    if low == high and x.size:
        low, high = float(x.min()), float(x.max())
    if low == high:
        low, high = low - 1, high + 1
    return np.histogram(x, bins, range=(low, high))[0].astype(x.dtype)


def bincount_reference(x, weights=None, minlength=0):
    return np.bincount(x, weights=weights, minlength=minlength)


def with_nans(rng: np.random.Generator) -> np.ndarray:
    values = distinct(rng, 3, 5)
    values[0, 1] = values[2, 0] = values[2, 3] = np.nan
    return values


def with_ties(rng: np.random.Generator, *shape) -> np.ndarray:
    """Small integers as floats (many ties), shape (4, 6) unless given."""
    return rng.integers(0, 3, size=shape or (4, 6)).astype(np.float64)


def sorted_rows(rng: np.random.Generator, *shape) -> np.ndarray:
    return np.sort(distinct(rng, *shape), axis=-1)


SORT_CASES = (
    ("dim_last", (3, 5), {}), ("dim0", (4, 3), {"dim": 0}),
    ("descending", (3, 5), {"dim": 1, "descending": True}),
    ("negative_dim_stable", (2, 3, 4), {"dim": -2, "stable": True}),
    ("scalar", (), {"dim": 0}), ("empty", (0, 3), {"dim": 0}),
    ("transposed", transposed(distinct, 3, 4), {"dim": 1}))


def int_array(values) -> np.ndarray:
    return np.asarray(values, dtype=INT)


OPS = [
    OpSpec("sort", ug.sort, sort_reference, cases(distinct, *SORT_CASES),
           primitives=("sort_indices",)),
    # NaN in the values: no derivative to check (central differences of NaN)
    OpSpec("sort_nan", ug.sort, sort_reference, cases(
        distinct, ("nan_ascending", with_nans, {"dim": 1}),
        ("nan_descending", with_nans, {"dim": -1, "descending": True}),
        ("ties", with_ties, {"dim": 1}), ("ties_descending", with_ties, {"descending": True})),
        grad=False),
    OpSpec("sort_method", lambda x: x.sort(0, True).values,
           lambda x: sort_reference(x, 0, descending=True)[0], cases(distinct, ("m", (3, 4), {}))),
    OpSpec("argsort", ug.argsort, argsort_reference, cases(
        distinct, ("default", (3, 5), {}), ("descending_dim0", (4, 3), {"dim": 0,
                                                                           "descending": True}),
        ("ties", with_ties, {"dim": -1}), ("scalar", (), {}),
        ("method_like", transposed(distinct, 3, 4), {"dim": 0})), grad=False),
    OpSpec("msort", ug.msort, lambda x: np.sort(x, axis=0),
           cases(distinct, ("matrix", (4, 3), {}), ("vector", (5,), {}))),
    OpSpec("topk", topk_call, topk_ref, lambda rng: [
        Sample((distinct(rng, 3, 5), 2), label="largest"),
        Sample((distinct(rng, 3, 5), 3), {"largest": False}, label="smallest"),
        Sample((distinct(rng, 4, 3), 4), {"dim": 0}, label="dim0_all"),
        Sample((distinct(rng, 2, 3, 4), 1), {"dim": -2}, label="negative_dim"),
        Sample((distinct(rng, 3, 4), 0), label="k0"),
        Sample((distinct(rng), 1), {"dim": 0}, label="scalar"),
        Sample((transposed(distinct, 3, 4)(rng), 2), {"sorted": True}, label="transposed"),
    ]),
    OpSpec("topk_method", lambda x: x.topk(2).indices, lambda x: topk_ref(x, 2)[1],
           cases(distinct, ("m", (3, 4), {})), grad=False),
    OpSpec("kthvalue", ug.kthvalue, kthvalue_ref, lambda rng: [
        Sample((distinct(rng, 3, 5), 2), label="default"),
        Sample((distinct(rng, 4, 3), 4), {"dim": 0, "keepdim": True}, label="dim0_keepdim"),
        Sample((distinct(rng, 2, 3, 4), 1), {"dim": -2}, label="negative_dim"),
        Sample((distinct(rng), 1), {"dim": 0}, label="scalar"),
        Sample((transposed(distinct, 3, 4)(rng), 3), {"dim": 1}, label="transposed"),
    ]),
    OpSpec("kthvalue_method", lambda x: x.kthvalue(1, 0).values,
           lambda x: kthvalue_ref(x, 1, 0)[0], cases(distinct, ("m", (3, 4), {}))),
    OpSpec("median", ug.median, median_reference(False), cases(
        distinct, ("all_odd", (3, 5), {}), ("all_even", (2, 4), {}),
        ("dim1", (3, 5), {"dim": 1}), ("dim0_even_keepdim", (4, 3), {"dim": 0, "keepdim": True}),
        ("negative_dim", (2, 3, 4), {"dim": -1}), ("scalar", (), {}),
        ("scalar_dim", (), {"dim": 0}),
        ("transposed", transposed(distinct, 3, 4), {"dim": 1}))),
    OpSpec("median_nan", ug.median, median_reference(False), cases(
        distinct, ("nan_dim", with_nans, {"dim": 1}), ("nan_all", with_nans, {})),
        grad=False),
    OpSpec("nanmedian", ug.nanmedian, median_reference(True), cases(
        distinct, ("nan_dim1", with_nans, {"dim": 1}),
        ("nan_dim0_keepdim", with_nans, {"dim": 0, "keepdim": True}),
        ("nan_all", with_nans, {}), ("plain", (3, 4), {"dim": -1}), ("scalar", (), {}))),
    OpSpec("median_methods", lambda x: (x.median(), x.nanmedian(0).values),
           lambda x: (median_reference(False)(x), median_reference(True)(x, 0)[0]),
           cases(distinct, ("m", (3, 4), {}))),
    OpSpec("mode", ug.mode, mode_reference, cases(
        with_ties, ("ties_last", (4, 6), {}), ("ties_dim0_keepdim", (4, 6), {"dim": 0,
                                                                               "keepdim": True}),
        ("scalar", lambda rng: np.asarray(2.0), {})),
        primitives=("mode_indices",), grad=False),
    # distinct values: the mode is the smallest value, and its gradient goes there
    OpSpec("mode_distinct", lambda x: x.mode(1), mode_reference, cases(
        distinct, ("distinct", (3, 4), {}))),
    OpSpec("mode_int", ug.mode, mode_reference, lambda rng: [
        Sample((rng.integers(0, 3, size=(3, 7)),), {"dim": 1}, label="int")]),
    OpSpec("quantile", ug.quantile, quantile_reference(np.quantile), lambda rng: [
        Sample((distinct(rng, 3, 5), 0.3), label="all_scalar_q"),
        Sample((distinct(rng, 3, 5), np.array([0.1, 0.55, 0.9])), {"dim": 1},
               label="tensor_q_dim1"),
        Sample((distinct(rng, 4, 3), np.array([0.2, 0.7])), {"dim": 0, "keepdim": True},
               label="tensor_q_keepdim"),
        Sample((distinct(rng, 2, 3, 4), 0.8), {"dim": -2, "keepdim": True},
               label="negative_dim_keepdim"),
        Sample((distinct(rng, 3, 4), 0.4), {"keepdim": True}, label="all_keepdim"),
        Sample((distinct(rng, 3, 5), 0.25), {"dim": 1}, label="exact_rank"),
        Sample((distinct(rng, 3, 5), 0.3), {"dim": 1, "interpolation": "lower"},
               label="lower"),
        Sample((distinct(rng, 3, 5), 0.3), {"dim": 1, "interpolation": "higher"},
               label="higher"),
        Sample((distinct(rng, 3, 5), np.array([0.3, 0.6])),
               {"dim": 1, "interpolation": "nearest"}, label="nearest"),
        Sample((distinct(rng, 3, 5), np.array([0.3, 0.6])),
               {"dim": 1, "interpolation": "midpoint"}, label="midpoint"),
        Sample((distinct(rng), 0.5), {"dim": 0}, label="scalar"),
        Sample((transposed(distinct, 3, 4)(rng), 0.6), {"dim": 1}, label="transposed"),
    ]),
    OpSpec("quantile_nan", ug.quantile, quantile_reference(np.quantile), lambda rng: [
        Sample((with_nans(rng), 0.5), {"dim": 1}, label="nan_rows")], grad=False),
    OpSpec("nanquantile", ug.nanquantile, quantile_reference(np.nanquantile), lambda rng: [
        Sample((with_nans(rng), 0.3), {"dim": 1}, label="nan_dim1"),
        Sample((with_nans(rng), np.array([0.2, 0.9])), {"dim": 0, "keepdim": True},
               label="nan_tensor_q"),
        Sample((with_nans(rng), 0.6), label="nan_all"),
        Sample((with_nans(rng), 0.6), {"dim": 1, "interpolation": "midpoint"},
               label="nan_midpoint"),
        Sample((distinct(rng, 3, 4), 0.35), {"dim": 1}, label="plain"),
    ]),
    OpSpec("quantile_methods", lambda x: (x.quantile(0.3, 1), x.nanquantile(0.7)),
           lambda x: (np.quantile(x, 0.3, axis=1), np.nanquantile(x, 0.7)),
           cases(distinct, ("m", (3, 4), {}))),
    # unique: the result's shape depends on the values, so vmap and jit refuse it
    # (tests/ops/test_sorting_vs_torch.py::test_value_dependent_shapes_refuse_vmap)
    OpSpec("unique", ug.unique, unique_reference, lambda rng: [
        Sample((with_ties(rng),), label="float_ties"),
        Sample((with_ties(rng),), {"return_inverse": True, "return_counts": True},
               label="inverse_counts"),
        Sample((rng.integers(0, 3, size=(5, 2)),), {"dim": 0, "return_inverse": True,
                                                   "return_counts": True}, label="dim0"),
        Sample((rng.integers(0, 2, size=(2, 6)),), {"dim": 1, "return_counts": True},
               label="dim1"),
        Sample((np.zeros((0,)),), {"return_counts": True}, label="empty"),
    ], grad=False, vmap=False, jit=False),
    OpSpec("unique_consecutive", ug.unique_consecutive, unique_consecutive_reference,
           lambda rng: [
               Sample((np.array([1.0, 1.0, 2.0, 2.0, 3.0, 1.0, 1.0]),),
                      {"return_inverse": True, "return_counts": True}, label="vector"),
               Sample((rng.integers(0, 2, size=(3, 4)),), {"return_inverse": True},
                      label="matrix_flat"),
               Sample((int_array([[1, 1], [1, 1], [0, 2], [1, 1]]),),
                      {"dim": 0, "return_inverse": True, "return_counts": True},
                      label="dim0"),
           ], grad=False, vmap=False, jit=False),
    OpSpec("unique_methods", lambda x: (x.unique(), x.unique_consecutive()),
           lambda x: (np.unique(x), unique_consecutive_reference(x)), lambda rng: [
               Sample((int_array([2, 2, 1, 1, 2]),), label="int")], grad=False, vmap=False,
           jit=False),
    OpSpec("searchsorted", ug.searchsorted, searchsorted_reference, lambda rng: [
        Sample((sorted_rows(rng, 6), normal(rng, 3, 4)), label="vector_sequence"),
        Sample((sorted_rows(rng, 2, 5), normal(rng, 2, 3)), {"right": True},
               label="batched_sequence_right"),
        Sample((sorted_rows(rng, 5), normal(rng, 4)), {"side": "right", "out_int32": True},
               label="side_int32"),
        Sample((np.array([1.0, 2.0, 2.0, 3.0]), np.array([2.0, 0.0, 9.0])), label="ties"),
        Sample((np.array([1.0, 2.0, 3.0]), 2.0), {"right": True}, label="scalar_value"),
        Sample((np.array([3.0, 1.0, 2.0]), np.array([2.5, 0.5])),
               {"sorter": int_array([1, 2, 0])}, label="sorter"),
    ], primitives=("searchsorted",), grad=False),
    OpSpec("bucketize", ug.bucketize, bucketize_reference, lambda rng: [
        Sample((normal(rng, 3, 4), sorted_rows(rng, 5)), label="default"),
        Sample((np.array([1.0, 3.0, 4.0]), np.array([1.0, 3.0, 5.0])), {"right": True},
               label="right"),
        Sample((3.0, np.array([1.0, 3.0, 5.0])), {"out_int32": True}, label="scalar"),
    ], grad=False),
    OpSpec("histc", ug.histc, histc_reference, lambda rng: [
        Sample((normal(rng, 50),), {"bins": 7}, label="data_range"),
        Sample((normal(rng, 4, 6),), {"bins": 4, "min": -1.0, "max": 1.0}, label="range"),
        Sample((np.full((3,), 2.0),), {"bins": 4}, label="constant"),
        Sample((np.zeros((0,)),), {"bins": 3}, label="empty"),
    ], primitives=("histc",), grad=False),
    OpSpec("histc_method", lambda x: x.histc(5, 0.0, 1.0),
           lambda x: histc_reference(x, 5, 0.0, 1.0),
           lambda rng: [Sample((rng.uniform(-0.2, 1.2, size=20),))], grad=False),
    # bincount's result length depends on the values: vmap and jit refuse it (see unique)
    OpSpec("bincount", ug.bincount, bincount_reference, lambda rng: [
        Sample((rng.integers(0, 5, size=12),), label="counts"),
        Sample((rng.integers(0, 5, size=12), normal(rng, 12)), label="weights"),
        Sample((int_array([1, 1]),), {"minlength": 4}, label="minlength"),
        Sample((np.zeros((0,), dtype=INT),), label="empty"),
    ], grad=False, vmap=False, jit=False),
    OpSpec("bincount_method", lambda x: x.bincount(minlength=3), lambda x: np.bincount(
        x, minlength=3), lambda rng: [Sample((int_array([0, 4, 4]),))], grad=False,
        vmap=False, jit=False),
]
