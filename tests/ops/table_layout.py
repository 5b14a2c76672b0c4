"""Op-table specs for ``unigrad/ops/layout.py``: atleast_*d, hstack/vstack/dstack/
column_stack, meshgrid, diag/diag_embed/diagonal/diagflat/trace, kron, roll, rot90,
tensor_split/hsplit/vsplit/dsplit, unflatten, flipud/fliplr, Tensor.unfold, block_diag,
cartesian_prod, combinations, tril_indices/triu_indices."""

from __future__ import annotations

import itertools

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, normal
from .table_reduce import cases, transposed


def diag_embed_reference(x, offset=0, dim1=-2, dim2=-1):
    n = x.shape[-1]
    k = abs(offset)
    out = np.zeros(x.shape[:-1] + (n + k, n + k), dtype=x.dtype)
    rows = np.arange(n) + max(-offset, 0)
    cols = np.arange(n) + max(offset, 0)
    out[..., rows, cols] = x
    ndim = x.ndim + 1
    return np.moveaxis(out, (-2, -1), (dim1 % ndim, dim2 % ndim))


def unfold_reference(x, dimension, size, step):
    if x.ndim == 0:
        return x.reshape(1)[:size]
    windows = np.lib.stride_tricks.sliding_window_view(x, size, axis=dimension)
    index = [slice(None)] * windows.ndim
    index[dimension % x.ndim] = slice(None, None, step)
    return windows[tuple(index)]


def block_diag_reference(*arrays):
    blocks = [np.atleast_2d(a) for a in arrays]
    out = np.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)))
    row = col = 0
    for b in blocks:
        out[row:row + b.shape[0], col:col + b.shape[1]] = b
        row, col = row + b.shape[0], col + b.shape[1]
    return out


def cartesian_reference(*arrays):
    if len(arrays) == 1:
        return arrays[0]
    return np.array(list(itertools.product(*arrays))).reshape(-1, len(arrays))


def combinations_reference(x, r=2, with_replacement=False):
    generate = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    chosen = list(generate(range(len(x)), r))
    return x[np.array(chosen, dtype=np.int64).reshape(len(chosen), r)]


def split_reference(function):
    return lambda x, indices_or_sections: tuple(function(x, indices_or_sections))


def pair(first, second, label, **kwargs):
    return lambda rng: Sample((normal(rng, *first), normal(rng, *second)), kwargs, label=label)


def samples(*makers):
    return lambda rng: [make(rng) for make in makers]


def one(shape, label, **kwargs):
    def make(rng):
        array = shape(rng) if callable(shape) else normal(rng, *shape)
        return Sample((array,), kwargs, label=label)
    return make


ATLEAST = (("scalar", (), {}), ("vector", (3,), {}), ("matrix", (2, 3), {}),
           ("cube", (2, 3, 2), {}), ("empty", (0,), {}),
           ("transposed", transposed(normal, 3, 4), {}))

OPS = [
    OpSpec("atleast_1d", ug.atleast_1d, np.atleast_1d, cases(normal, *ATLEAST)),
    OpSpec("atleast_2d", ug.atleast_2d, np.atleast_2d, cases(normal, *ATLEAST)),
    OpSpec("atleast_3d", ug.atleast_3d, np.atleast_3d, cases(normal, *ATLEAST)),
    OpSpec("atleast_several", lambda x, y: ug.atleast_2d(x, y),
           lambda x, y: tuple(np.atleast_2d(x, y)), samples(pair((), (3,), "scalar_vector"))),
    OpSpec("hstack", lambda x, y: ug.hstack([x, y]), lambda x, y: np.hstack([x, y]), samples(
        pair((2,), (3,), "vectors"), pair((2, 1), (2, 3), "matrices"),
        pair((), (2,), "scalar_vector"), pair((0,), (2,), "empty"))),
    OpSpec("vstack", lambda x, y: ug.vstack([x, y]), lambda x, y: np.vstack([x, y]), samples(
        pair((3,), (3,), "vectors"), pair((1, 3), (2, 3), "matrices"),
        pair((2, 2, 2), (1, 2, 2), "cubes"))),
    OpSpec("row_stack", lambda x, y: ug.row_stack((x, y)), lambda x, y: np.vstack([x, y]),
           samples(pair((3,), (2, 3), "vector_matrix"))),
    OpSpec("dstack", lambda x, y: ug.dstack([x, y]), lambda x, y: np.dstack([x, y]), samples(
        pair((3,), (3,), "vectors"), pair((2, 3), (2, 3), "matrices"),
        pair((), (), "scalars"), pair((2, 3, 1), (2, 3, 2), "cubes"))),
    OpSpec("column_stack", lambda x, y: ug.column_stack([x, y]),
           lambda x, y: np.column_stack([x, y]), samples(
               pair((3,), (3,), "vectors"), pair((3,), (3, 2), "vector_matrix"),
               pair((), (), "scalars"))),
    OpSpec("meshgrid", lambda x, y, **kw: ug.meshgrid(x, y, **kw),
           lambda x, y, **kw: tuple(np.meshgrid(x, y, **kw)), samples(
               pair((2,), (3,), "ij", indexing="ij"), pair((2,), (3,), "xy", indexing="xy"),
               pair((0,), (3,), "empty", indexing="ij"))),
    OpSpec("meshgrid_three", lambda x, y, z: ug.meshgrid([x, y, z], indexing="xy"),
           lambda x, y, z: tuple(np.meshgrid(x, y, z, indexing="xy")), lambda rng: [
               Sample((normal(rng, 2), normal(rng, 3), normal(rng, 4)), label="xy")]),
    OpSpec("diagonal", ug.diagonal, lambda x, offset=0, dim1=0, dim2=1: np.diagonal(
        x, offset, dim1, dim2), cases(
            normal, ("square", (3, 3), {}), ("above", (3, 4), {"offset": 1}),
            ("below", (4, 3), {"offset": -2}), ("past_edge", (3, 3), {"offset": 4}),
            ("batched_dims", (2, 3, 4), {"offset": 1, "dim1": -1, "dim2": 0}),
            ("empty", (0, 3), {}), ("transposed", transposed(normal, 3, 4), {"offset": -1}))),
    OpSpec("diagonal_method", lambda x: x.diagonal(0, 1, 2),
           lambda x: np.diagonal(x, 0, 1, 2), cases(normal, ("cube", (2, 3, 3), {}))),
    OpSpec("diag_embed", ug.diag_embed, diag_embed_reference, cases(
        normal, ("vector", (3,), {}), ("above", (3,), {"offset": 2}),
        ("below_batched", (2, 3), {"offset": -1}),
        ("dims", (2, 3), {"offset": 1, "dim1": 0, "dim2": 2}),
        ("swapped_dims", (2, 3), {"offset": 1, "dim1": -1, "dim2": -2}),
        ("empty", (0,), {}), ("transposed", transposed(normal, 3, 4), {}))),
    OpSpec("diag", ug.diag, lambda x, diagonal=0: np.diag(x, diagonal), cases(
        normal, ("vector", (3,), {}), ("vector_above", (3,), {"diagonal": 1}),
        ("matrix", (3, 4), {}), ("matrix_below", (4, 3), {"diagonal": -1}),
        ("transposed", transposed(normal, 3, 4), {"diagonal": 2}))),
    OpSpec("diagflat", ug.diagflat, lambda x, offset=0: np.diagflat(x, offset), cases(
        normal, ("matrix", (2, 2), {}), ("vector_below", (3,), {"offset": -1}),
        ("scalar", (), {}))),
    OpSpec("trace", ug.trace, np.trace, cases(
        normal, ("square", (3, 3), {}), ("wide", (2, 4), {}), ("empty", (0, 3), {}),
        ("transposed", transposed(normal, 3, 4), {}))),
    OpSpec("kron", ug.kron, np.kron, samples(
        pair((2,), (3,), "vectors"), pair((2, 2), (3, 1), "matrices"),
        pair((2,), (2, 3), "ranks_differ"), pair((), (3,), "scalar"),
        pair((0, 2), (2, 2), "empty"))),
    OpSpec("roll", ug.roll, lambda x, shifts, dims=None: np.roll(x, shifts, dims), cases(
        normal, ("flat", (3, 4), {"shifts": 5}), ("dim", (3, 4), {"shifts": -1, "dims": 1}),
        ("dims", (2, 3, 4), {"shifts": (1, -2), "dims": (0, -1)}),
        ("whole_turn", (3,), {"shifts": 3, "dims": 0}), ("empty", (0, 3), {"shifts": 1}),
        ("scalar", (), {"shifts": 2}),
        ("transposed", transposed(normal, 3, 4), {"shifts": 2, "dims": 0}))),
    OpSpec("rot90", ug.rot90, lambda x, k=1, dims=(0, 1): np.rot90(x, k, dims), cases(
        normal, ("once", (2, 3), {}), ("twice", (2, 3), {"k": 2}),
        ("three_times", (2, 3), {"k": 3}), ("negative", (2, 3), {"k": -1}),
        ("none", (2, 3), {"k": 4}), ("dims", (2, 3, 4), {"k": 1, "dims": (2, 0)}),
        ("transposed", transposed(normal, 3, 4), {"k": 1}))),
    OpSpec("flipud", ug.flipud, np.flipud, cases(normal, ("vector", (3,), {}),
                                                 ("matrix", (3, 2), {}))),
    OpSpec("fliplr", ug.fliplr, np.fliplr, cases(normal, ("matrix", (3, 2), {}),
                                                 ("cube", (2, 3, 2), {}))),
    OpSpec("tensor_split", ug.tensor_split,
           lambda x, indices_or_sections, dim=0: tuple(np.array_split(
               x, indices_or_sections, dim)), cases(
               normal, ("sections", (7, 2), {"indices_or_sections": 3}),
               ("more_sections", (2, 2), {"indices_or_sections": 3, "dim": 1}),
               ("indices", (7,), {"indices_or_sections": [1, 5]}),
               ("indices_negative_dim", (2, 7), {"indices_or_sections": [-2, 3, 1, 10],
                                                 "dim": -1}),
               ("empty", (0, 3), {"indices_or_sections": 2}))),
    OpSpec("hsplit", ug.hsplit, split_reference(np.hsplit), cases(
        normal, ("vector", (4,), {"indices_or_sections": 2}),
        ("matrix", (2, 6), {"indices_or_sections": [1, 3]}))),
    OpSpec("vsplit", ug.vsplit, split_reference(np.vsplit), cases(
        normal, ("matrix", (4, 2), {"indices_or_sections": 2}))),
    OpSpec("dsplit", ug.dsplit, split_reference(np.dsplit), cases(
        normal, ("cube", (1, 2, 4), {"indices_or_sections": [3]}))),
    OpSpec("unflatten", ug.unflatten,
           lambda x, dim, sizes: x.reshape(
               x.shape[:dim % x.ndim] + tuple(sizes) + x.shape[dim % x.ndim + 1:]), cases(
               normal, ("inner", (2, 6), {"dim": 1, "sizes": (2, 3)}),
               ("inferred", (6, 2), {"dim": -2, "sizes": (-1, 2)}),
               ("single", (3,), {"dim": 0, "sizes": (3,)}))),
    OpSpec("tensor_unfold", lambda x, dimension, size, step: x.unfold(dimension, size, step),
           unfold_reference, cases(
               normal, ("windows", (5,), {"dimension": 0, "size": 2, "step": 1}),
               ("strided", (3, 7), {"dimension": 1, "size": 3, "step": 2}),
               ("first_dim", (5, 2), {"dimension": -2, "size": 5, "step": 3}),
               ("scalar", (), {"dimension": 0, "size": 1, "step": 1}),
               ("size_zero", (3,), {"dimension": 0, "size": 0, "step": 1}),
               ("transposed", transposed(normal, 3, 4), {"dimension": 0, "size": 2,
                                                         "step": 1})),
           primitives=("unfold_windows",)),
    OpSpec("block_diag", lambda x, y, z: ug.block_diag(x, y, z), block_diag_reference,
           lambda rng: [
               Sample((normal(rng, 2, 2), normal(rng), normal(rng, 3)), label="mixed"),
               Sample((normal(rng, 1, 3), normal(rng, 2, 0), normal(rng, 2, 1)), label="empty")]),
    OpSpec("cartesian_prod", lambda *xs: ug.cartesian_prod(*xs), cartesian_reference,
           lambda rng: [Sample((normal(rng, 2), normal(rng, 3)), label="two"),
                        Sample((normal(rng, 2), normal(rng, 1), normal(rng, 2)), label="three"),
                        Sample((normal(rng, 3),), label="one")]),
    OpSpec("combinations", ug.combinations, combinations_reference, cases(
        normal, ("pairs", (4,), {}), ("triples", (4,), {"r": 3}),
        ("with_replacement", (3,), {"r": 2, "with_replacement": True}),
        ("too_many", (2,), {"r": 3}))),
    OpSpec("tril_indices", ug.tril_indices,
           lambda row, col, offset=0: np.stack(np.tril_indices(row, offset, col)), lambda rng: [
               Sample((3, 3), label="square"), Sample((3, 4, 1), label="above"),
               Sample((4, 2), {"offset": -1}, label="below"), Sample((0, 3), label="empty")],
           grad=False, float32=False),
    OpSpec("triu_indices", ug.triu_indices,
           lambda row, col, offset=0: np.stack(np.triu_indices(row, offset, col)), lambda rng: [
               Sample((3, 3), label="square"), Sample((3, 4, -1), label="below"),
               Sample((2, 4), {"offset": 2}, label="above")],
           grad=False, float32=False),
]
