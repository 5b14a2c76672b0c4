"""Op-table specs for ``unigrad/ops/scatter.py``: index_add/copy/fill/put, masked_select,
masked_scatter, scatter, scatter_reduce (sum/prod/mean/amax/amin), nonzero and argwhere."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, away_from_zero, distinct, normal

_UFUNCS = {"sum": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}


def along(index: np.ndarray, dim: int) -> tuple:
    """The NumPy index of the positions ``index[i, j, ...]`` along ``dim``."""
    return tuple(index if d == dim else np.arange(n).reshape(
        [-1 if k == d else 1 for k in range(index.ndim)]) for d, n in enumerate(index.shape))


def cut(src: np.ndarray, index: np.ndarray) -> np.ndarray:
    return src[tuple(slice(0, n) for n in index.shape)]


def index_add_reference(x, dim, index, source, alpha=1):
    out = np.moveaxis(x.copy(), dim, 0)
    np.add.at(out, index, np.moveaxis(source, dim, 0) * alpha)
    return np.moveaxis(out, 0, dim)


def index_copy_reference(x, dim, index, source):
    out = np.moveaxis(x.copy(), dim, 0)
    out[index] = np.moveaxis(source, dim, 0)
    return np.moveaxis(out, 0, dim)


def index_fill_reference(x, dim, index, value):
    if x.ndim == 0:
        return np.asarray(value, dtype=x.dtype).copy()
    out = np.moveaxis(x.copy(), dim, 0)
    out[index] = value
    return np.moveaxis(out, 0, dim)


def index_put_reference(x, indices, values, accumulate=False):
    out = x.copy()
    if accumulate:
        np.add.at(out, indices, np.broadcast_to(values, out[indices].shape))
    else:
        out[indices] = values
    return out


def scatter_reference(x, dim, index, src=None, value=None, reduce=None):
    if x.ndim == 0:
        return scatter_reference(x.reshape(1), 0, index.reshape(1), src if src is None else
                                 src.reshape(1), value, reduce).reshape(())
    out = x.copy()
    where = along(index, dim % x.ndim)
    if src is None:
        src = np.full(index.shape, value)
    src = cut(src, index)
    if reduce is None:
        out[where] = src
    else:
        (np.add if reduce == "add" else np.multiply).at(out, where, src)
    return out


def scatter_reduce_reference(x, dim, index, src, reduce, include_self=True):
    out = x.copy()
    where = along(index, dim % x.ndim)
    src = cut(src, index)
    if reduce == "mean":
        total = scatter_reduce_reference(x, dim, index, src, "sum", include_self)
        count = np.ones_like(x) if include_self else np.zeros_like(x)
        np.add.at(count, where, 1.0)
        return total / np.where(count == 0, 1.0, count)
    if not include_self:
        out[where] = {"sum": 0.0, "prod": 1.0, "amax": -np.inf, "amin": np.inf}[reduce]
    _UFUNCS[reduce].at(out, where, src)
    return out


def masked_scatter_reference(x, mask, source):
    mask = np.broadcast_to(mask, x.shape)
    out = x.copy()
    out[mask] = source.reshape(-1)[:int(mask.sum())]
    return out


def masked_select_reference(x, mask):
    shape = np.broadcast_shapes(x.shape, mask.shape)
    return np.broadcast_to(x, shape)[np.broadcast_to(mask, shape)]


def integers(*values) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def with_zero(rng, *shape):
    values = away_from_zero(rng, *shape)
    values.flat[1] = 0.0
    return values


def index_samples(rng):
    return [
        Sample((normal(rng, 3, 4), 0, integers(2, 0, 2), normal(rng, 3, 4)), label="dim0"),
        Sample((normal(rng, 3, 4), 1, integers(3, 1), normal(rng, 3, 2)), label="dim1"),
        Sample((normal(rng, 2, 3, 4), -1, integers(0), normal(rng, 2, 3, 1)), label="negative"),
        Sample((normal(rng, 3, 2), 0, integers(), normal(rng, 0, 2)), label="empty"),
    ]


def distinct_index_samples(rng):
    return [sample for sample in index_samples(rng) if sample.label != "dim0"] + [
        Sample((normal(rng, 3, 4), 0, integers(2, 0), normal(rng, 2, 4)), label="dim0")]


def scatter_samples(generate):
    def samples(rng):
        return [
            Sample((generate(rng, 3, 4), 0, integers([0, 2, 1, 0], [2, 2, 0, 1]),
                    generate(rng, 2, 4)), label="dim0"),
            Sample((generate(rng, 3, 4), 1, integers([3, 3], [0, 1], [2, 2]),
                    generate(rng, 3, 3)), label="dim1_larger_src"),
            Sample((generate(rng, 2, 3, 4), -2, integers([[0, 0, 1, 2]], [[2, 2, 2, 0]]),
                    generate(rng, 2, 1, 4)), label="negative_dim"),
            Sample((generate(rng, 5), 0, integers(4, 4, 0), generate(rng, 3)), label="vector"),
        ]
    return samples


def reduce_spec(reduce: str, generate, include_self: bool, name: str = "",
                **options) -> OpSpec:
    name = name or f"scatter_reduce_{reduce}" + ("" if include_self else "_exclude_self")

    def call(x, dim, index, src):
        return ug.scatter_reduce(x, dim, index, src, reduce, include_self=include_self)

    def reference(x, dim, index, src):
        return scatter_reduce_reference(x, dim, index, src, reduce, include_self)
    return OpSpec(name, call, reference, scatter_samples(generate), **options)


def nonzero_samples(rng):
    matrix = normal(rng, 3, 4)
    matrix[matrix < 0.2] = 0.0
    return [Sample((matrix,), label="matrix"), Sample((np.array(2.0),), label="scalar"),
            Sample((np.zeros((2, 0)),), label="empty"),
            Sample((np.array([0.0, 1.0, 0.0, -3.0]),), label="vector")]


def mask(*values) -> np.ndarray:
    return np.array(values, dtype=bool)


OPS = [
    OpSpec("index_add", ug.index_add, index_add_reference, index_samples,
           primitives=("scatter_add", "gather")),
    OpSpec("index_add_alpha", lambda x, index, source: x.index_add(1, index, source, alpha=2.5),
           lambda x, index, source: index_add_reference(x, 1, index, source, 2.5),
           lambda rng: [Sample((normal(rng, 2, 3), integers(0, 0, 2), normal(rng, 2, 3)))]),
    OpSpec("index_add_scalar", ug.index_add, lambda x, dim, index, source: x + source,
           lambda rng: [Sample((normal(rng), 0, integers(0), normal(rng)))]),
    # duplicate positions in index_copy are unspecified in PyTorch: distinct indices only
    OpSpec("index_copy", ug.index_copy, index_copy_reference, distinct_index_samples,
           primitives=("index_put", "index")),
    OpSpec("index_fill", ug.index_fill, index_fill_reference, lambda rng: [
        Sample((normal(rng, 3, 4), 0, integers(2, 0, 2), 1.5), label="number"),
        Sample((normal(rng, 3, 4), 1, integers(-1, 1), np.array(-2.0)), label="tensor"),
        Sample((normal(rng, 3, 4), 1, integers(), np.array(-2.0)), label="empty"),
        Sample((normal(rng), 0, integers(0), np.array(4.0)), label="scalar"),
    ]),
    OpSpec("index_put", lambda x, first, second, values, accumulate:
           ug.index_put(x, (first, second), values, accumulate=accumulate),
           lambda x, first, second, values, accumulate:
           index_put_reference(x, (first, second), values, accumulate), lambda rng: [
               Sample((normal(rng, 3, 4), integers(0, 2), integers(1, 3), normal(rng, 2), False),
                      label="write"),
               Sample((normal(rng, 3, 4), integers(0, 2, 0), integers(1, 3, 1),
                       normal(rng, 3), True), label="accumulate"),
               Sample((normal(rng, 3, 4), integers(0, 2, 0), integers(1, 3, 1),
                       normal(rng), True), label="accumulate_broadcast"),
           ], primitives=("index_put", "index_add", "index")),
    OpSpec("index_put_mask", lambda x, where, values: x.index_put((where,), values),
           lambda x, where, values: index_put_reference(x, where, values), lambda rng: [
               Sample((normal(rng, 2, 3), mask([True, False, True], [False, False, True]),
                       normal(rng, 3)))]),
    OpSpec("masked_select", ug.masked_select, masked_select_reference, lambda rng: [
        Sample((normal(rng, 2, 3), mask([True, False, True], [False, False, True])),
               label="same_shape"),
        Sample((normal(rng, 2, 3), mask(True, False, True)), label="broadcast_mask"),
        Sample((normal(rng, 3, 1), mask([True, False], [False, True], [True, True])),
               label="broadcast_input"),
        Sample((normal(rng, 3), mask(False, False, False)), label="none"),
    ], primitives=("index",)),
    OpSpec("masked_scatter", ug.masked_scatter, masked_scatter_reference, lambda rng: [
        Sample((normal(rng, 2, 3), mask([True, False, True], [False, False, True]),
                normal(rng, 4)), label="same_shape"),
        Sample((normal(rng, 2, 2), mask(True, False), normal(rng, 5)), label="broadcast_mask"),
        Sample((normal(rng, 2, 2), mask(False, False), normal(rng, 1)), label="none"),
    ], primitives=("index_put",)),
    OpSpec("scatter_src", ug.scatter, scatter_reference, lambda rng: [
        Sample((normal(rng, 3, 4), 0, integers([0, 2, 1, 1], [2, 0, 0, 2]), normal(rng, 2, 4)),
               label="dim0"),
        Sample((normal(rng, 3, 4), -1, integers([3], [0], [2]), normal(rng, 3, 2)),
               label="larger_src"),
        Sample((normal(rng, 3), 0, np.zeros(0, dtype=np.int64), normal(rng, 0)), label="empty"),
        Sample((normal(rng), 0, np.array(0), normal(rng)), label="scalar"),
    ], primitives=("index_put", "index")),
    OpSpec("scatter_value", lambda x, dim, index: ug.scatter(x, dim, index, value=2.5),
           lambda x, dim, index: scatter_reference(x, dim, index, value=2.5),
           lambda rng: [Sample((normal(rng, 3, 4), 1, integers([0, 3], [1, 1], [2, 0])))]),
    OpSpec("scatter_add_reduce", lambda x, dim, index, src: x.scatter(dim, index, src,
                                                                      reduce="add"),
           lambda x, dim, index, src: scatter_reference(x, dim, index, src, reduce="add"),
           scatter_samples(normal)),
    OpSpec("scatter_multiply", lambda x, dim, index, src: x.scatter(dim, index, src,
                                                                    reduce="multiply"),
           lambda x, dim, index, src: scatter_reference(x, dim, index, src, reduce="multiply"),
           scatter_samples(away_from_zero)),
    reduce_spec("sum", normal, True),
    reduce_spec("sum", normal, False),
    reduce_spec("mean", normal, True),
    reduce_spec("mean", normal, False),
    reduce_spec("prod", away_from_zero, True, primitives=("scatter_reduce",)),
    reduce_spec("prod", away_from_zero, False),
    # at most one zero reaches each position here (the "vector" sample: none twice), so
    # the gradient is exact to second order, as PyTorch's
    reduce_spec("prod", with_zero, True, name="scatter_reduce_prod_one_zero"),
    # distinct values: no ties (where the gradient is split evenly, not a derivative)
    reduce_spec("amax", distinct, True),
    reduce_spec("amax", distinct, False),
    reduce_spec("amin", distinct, True),
    reduce_spec("amin", distinct, False),
    # integer results; the shape depends on the values, so vmap and jit refuse it (tested in
    # test_scatter_vs_torch.py)
    OpSpec("nonzero", ug.nonzero, lambda x: np.argwhere(x), nonzero_samples, grad=False,
           float32=False, vmap=False, jit=False),
    OpSpec("nonzero_tuple", lambda x: ug.nonzero(x, as_tuple=True),
           lambda x: np.nonzero(x.reshape(-1) if x.ndim == 0 else x), nonzero_samples,
           grad=False, float32=False, vmap=False, jit=False),
    OpSpec("argwhere", lambda x: x.argwhere(), np.argwhere, nonzero_samples, grad=False,
           float32=False, vmap=False, jit=False),
]
