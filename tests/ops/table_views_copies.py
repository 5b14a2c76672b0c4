"""Op-table specs for ``unigrad/ops/views_copies.py``: broadcast_tensors, split_with_sizes,
unsafe_split/unsafe_chunk, sum_to_size, the ``*_copy`` view copies, select/slice/diagonal
scatters, put, index_reduce and unravel_index."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, away_from_zero, distinct, normal
from .table_reduce import cases


def ints(*values) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def split_reference(x, sizes, dim=0):
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis=dim))


def sum_to_size_reference(x, *size):
    lead = x.ndim - len(size)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size)
                                      if s == 1 and x.shape[lead + i] != 1)
    return np.sum(x, axis=axes, keepdims=True).reshape(size)


def select_scatter_reference(x, src, dim, index):
    out = np.moveaxis(x.copy(), dim, 0)
    out[index] = np.moveaxis(src, dim, 0) if src.ndim else src
    return np.moveaxis(out, 0, dim)


def slice_scatter_reference(x, src, dim=0, start=None, end=None, step=1):
    out = x.copy()
    out[(slice(None),) * (dim % x.ndim) + (slice(start, end, step),)] = src
    return out


def diagonal_scatter_reference(x, src, offset=0, dim1=0, dim2=1):
    out = np.moveaxis(x.copy(), (dim1, dim2), (-2, -1))
    rows, cols = out.shape[-2:]
    for k in range(src.shape[-1]):
        i, j = k + max(-offset, 0), k + max(offset, 0)
        out[..., i, j] = src[..., k]
    del rows, cols
    return np.moveaxis(out, (-2, -1), (dim1, dim2))


def put_reference(x, index, source, accumulate=False):
    flat = x.copy().reshape(-1)
    if accumulate:
        np.add.at(flat, index.reshape(-1), source.reshape(-1))
    else:
        flat[index.reshape(-1)] = source.reshape(-1)
    return flat.reshape(x.shape)


def index_reduce_reference(x, dim, index, source, reduce, include_self=True):
    out = np.moveaxis(x.copy(), dim, 0)
    values = np.moveaxis(source, dim, 0)
    if not include_self:
        out[index] = {"prod": 1.0, "mean": 0.0, "amax": -np.inf, "amin": np.inf}[reduce]
    if reduce == "mean":
        count = np.ones(out.shape[0]) if include_self else np.zeros(out.shape[0])
        np.add.at(count, index, 1.0)
        np.add.at(out, index, values)
        out = out / np.where(count == 0, 1.0, count).reshape((-1,) + (1,) * (out.ndim - 1))
    else:
        {"prod": np.multiply, "amax": np.maximum, "amin": np.minimum}[reduce].at(
            out, index, values)
    return np.moveaxis(out, 0, dim)


def index_reduce_spec(reduce: str, include_self: bool = True) -> OpSpec:
    # input and source values never coincide (a tie between them shares the gradient)
    generate = away_from_zero if reduce == "prod" else distinct

    def values(rng, *shape):
        return generate(rng, *shape) + (0.0 if reduce == "prod" else 0.01)

    def call(x, dim, index, source):
        return ug.index_reduce(x, dim, index, source, reduce, include_self=include_self)

    def reference(x, dim, index, source):
        return index_reduce_reference(x, dim, index, source, reduce, include_self)

    def samples(rng):
        return [
            Sample((generate(rng, 3, 4), 0, ints(0, 2, 0), values(rng, 3, 4)), label="dim0"),
            Sample((generate(rng, 2, 3), -1, ints(2, 2, 1, 2), values(rng, 2, 4)),
                   label="negative_dim"),
            Sample((generate(rng, 2, 3), 1, ints(), values(rng, 2, 0)), label="empty_index"),
        ]
    suffix = "" if include_self else "_exclude_self"
    return OpSpec(f"index_reduce_{reduce}{suffix}", call, reference, samples)


def unravel_reference(indices, shape):
    return tuple(np.unravel_index(indices % int(np.prod(shape)), shape))


OPS = [
    OpSpec("broadcast_tensors", ug.broadcast_tensors,
           lambda *arrays: tuple(np.broadcast_arrays(*arrays)), lambda rng: [
               Sample((normal(rng, 3, 1), normal(rng, 1, 4)), label="matrix"),
               Sample((normal(rng, 2, 3), normal(rng), normal(rng, 3)), label="three"),
               Sample((normal(rng, 0, 1), normal(rng, 2)), label="empty"),
               Sample((normal(rng, 2),), label="one"),
           ]),
    OpSpec("split_with_sizes", ug.split_with_sizes, split_reference, lambda rng: [
        Sample((normal(rng, 5, 2), [2, 3]), label="dim0"),
        Sample((normal(rng, 2, 5), [1, 0, 4], -1), label="zero_piece_negative_dim"),
    ]),
    OpSpec("split_with_sizes_method", lambda x: x.split_with_sizes([1, 2], dim=1),
           lambda x: split_reference(x, [1, 2], 1), cases(normal, ("matrix", (2, 3), {}))),
    OpSpec("unsafe_split", ug.unsafe_split,
           lambda x, size, dim=0: tuple(np.split(x, range(size, x.shape[dim], size), axis=dim)),
           lambda rng: [Sample((normal(rng, 5, 2), 2), label="dim0"),
                        Sample((normal(rng, 2, 4), 2, 1), label="dim1")]),
    OpSpec("unsafe_chunk", lambda x: x.unsafe_chunk(2, 1),
           lambda x: tuple(np.split(x, [3], axis=1)), cases(normal, ("matrix", (2, 5), {}))),
    OpSpec("sum_to_size", lambda x, *size: x.sum_to_size(*size), sum_to_size_reference,
           lambda rng: [
               Sample((normal(rng, 2, 3), 3), label="lead"),
               Sample((normal(rng, 2, 3, 4), 3, 1), label="lead_and_unit"),
               Sample((normal(rng, 2, 3), 2, 3), label="same"),
               Sample((normal(rng, 0, 3), 1, 3), label="empty"),
           ]),
    OpSpec("alias_copy", ug.alias_copy, np.copy, cases(normal, ("matrix", (2, 3), {}),
                                                       ("scalar", (), {}))),
    OpSpec("diagonal_copy", ug.diagonal_copy,
           lambda x, offset=0, dim1=0, dim2=1: np.diagonal(x, offset, dim1, dim2).copy(),
           cases(normal, ("matrix", (3, 4), {"offset": 1}),
                 ("batched", (2, 3, 4), {"dim1": -1, "dim2": 0}))),
    OpSpec("expand_copy", ug.expand_copy,
           lambda x, size: np.broadcast_to(x, (2, 3)).copy(),
           lambda rng: [Sample((normal(rng, 3), (2, -1)), label="new_dim"),
                        Sample((normal(rng, 2, 1), (2, 3)), label="unit")]),
    OpSpec("narrow_copy", lambda x: x.narrow_copy(1, 1, 2), lambda x: x[:, 1:3].copy(),
           cases(normal, ("matrix", (2, 4), {}))),
    OpSpec("permute_copy", ug.permute_copy, lambda x, dims: np.transpose(x, dims).copy(),
           lambda rng: [Sample((normal(rng, 2, 3, 4), (2, 0, 1)))]),
    OpSpec("select_copy", ug.select_copy, lambda x, dim, index: np.take(x, index, axis=dim),
           lambda rng: [Sample((normal(rng, 2, 3), 1, -1))]),
    OpSpec("squeeze_copy", ug.squeeze_copy,
           lambda x, dim=None: np.squeeze(x, dim).copy(),
           lambda rng: [Sample((normal(rng, 1, 2, 1),), label="all"),
                        Sample((normal(rng, 1, 2, 1), (0, 2)), label="dims")]),
    OpSpec("t_copy", ug.t_copy, lambda x: x.T.copy(), cases(normal, ("matrix", (2, 3), {}),
                                                            ("vector", (3,), {}))),
    OpSpec("transpose_copy", ug.transpose_copy, lambda x, a, b: np.swapaxes(x, a, b).copy(),
           lambda rng: [Sample((normal(rng, 2, 3, 4), 0, -1))]),
    OpSpec("unbind_copy", ug.unbind_copy,
           lambda x, dim=0: tuple(np.moveaxis(x, dim, 0)), lambda rng: [
               Sample((normal(rng, 2, 3), 1))]),
    OpSpec("unfold_copy", ug.unfold_copy,
           lambda x, d, size, step: np.lib.stride_tricks.sliding_window_view(
               x, size, axis=d)[::step].copy(),
           lambda rng: [Sample((normal(rng, 5, 2), 0, 2, 2))]),
    OpSpec("unsqueeze_copy", ug.unsqueeze_copy, lambda x, dim: np.expand_dims(x, dim),
           lambda rng: [Sample((normal(rng, 2, 3), -1))]),
    OpSpec("view_copy", ug.view_copy, lambda x, size: x.reshape(size),
           lambda rng: [Sample((normal(rng, 2, 3), (3, -1)))]),
    OpSpec("split_copy", ug.split_copy, lambda x, size: tuple(np.split(x, [2])),
           lambda rng: [Sample((normal(rng, 3, 2), 2))]),
    OpSpec("split_with_sizes_copy", ug.split_with_sizes_copy, split_reference,
           lambda rng: [Sample((normal(rng, 2, 5), [3, 2], 1))]),
    OpSpec("select_scatter", ug.select_scatter, select_scatter_reference, lambda rng: [
        Sample((normal(rng, 3, 4), normal(rng, 4), 0, 1), label="dim0"),
        Sample((normal(rng, 2, 3, 4), normal(rng, 2, 4), -2, -1), label="negative"),
        Sample((normal(rng, 3), normal(rng), 0, 2), label="vector"),
    ]),
    OpSpec("slice_scatter", ug.slice_scatter, slice_scatter_reference, lambda rng: [
        Sample((normal(rng, 4, 3), normal(rng, 4, 3)), label="whole"),
        Sample((normal(rng, 2, 6), normal(rng, 2, 3), 1, 0, 5, 2), label="step"),
        Sample((normal(rng, 2, 6), normal(rng, 2, 2), -1, -2), label="negative_start"),
        Sample((normal(rng, 2, 6), normal(rng, 2, 0), 1, 4, 4), label="empty"),
    ]),
    OpSpec("diagonal_scatter", ug.diagonal_scatter, diagonal_scatter_reference, lambda rng: [
        Sample((normal(rng, 3, 3), normal(rng, 3)), label="square"),
        Sample((normal(rng, 3, 4), normal(rng, 3), 1), label="above"),
        Sample((normal(rng, 3, 4), normal(rng, 2), -1), label="below"),
        Sample((normal(rng, 2, 3, 4), normal(rng, 3, 2), 0, 0, 2), label="batched"),
        Sample((normal(rng, 2, 3), normal(rng, 0), 5), label="empty"),
    ]),
    OpSpec("put", ug.put, put_reference, lambda rng: [
        Sample((normal(rng, 2, 3), ints(0, 5, -2), normal(rng, 3)), label="matrix"),
        Sample((normal(rng, 2, 3), ints([1, 4]), normal(rng, 2, 1)), label="index_2d"),
        Sample((normal(rng), ints(0), normal(rng, 1)), label="scalar"),
    ]),
    OpSpec("put_accumulate", lambda x, i, s: x.put(i, s, accumulate=True),
           lambda x, i, s: put_reference(x, i, s, True), lambda rng: [
               Sample((normal(rng, 2, 3), ints(0, 5, 0, -1), normal(rng, 4)))]),
    OpSpec("put_inplace", lambda x, i, s: (x * 1.0).put_(i, s), put_reference, lambda rng: [
        Sample((normal(rng, 2, 3), ints(1, 3), normal(rng, 2)))]),
    *(index_reduce_spec(reduce) for reduce in ("prod", "mean", "amax", "amin")),
    *(index_reduce_spec(reduce, False) for reduce in ("prod", "mean", "amax", "amin")),
    OpSpec("index_reduce_inplace",
           lambda x, i, s: (x * 1.0).index_reduce_(0, i, s, "amax"),
           lambda x, i, s: index_reduce_reference(x, 0, i, s, "amax"), lambda rng: [
               Sample((distinct(rng, 3, 2), ints(1, 1), distinct(rng, 2, 2)))]),
    OpSpec("unravel_index", ug.unravel_index, unravel_reference, lambda rng: [
        Sample((ints(0, 5, 11, -1), (3, 4)), label="vector"),
        Sample((ints([3, 7], [1, 0]), (2, 2, 2)), label="matrix"),
        Sample((np.array(4, dtype=np.int64), 6), label="int_shape"),
    ], grad=False, float32=False),
]
