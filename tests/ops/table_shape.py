"""Op-table specs for the shape composites and primitives of ``unigrad/ops/shape.py``
beyond reshape/broadcast_to/transpose (those are in ``table_core.py``)."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, normal


def transposed(rng: np.random.Generator, *shape) -> np.ndarray:
    """A non-contiguous array of ``shape`` (the transpose of a C-contiguous one)."""
    return normal(rng, *reversed(shape)).T


def samples(*cases):
    """Samples of a one-tensor op: ``(label, shape or array_fn, args, kwargs)``."""
    def build(rng: np.random.Generator) -> list:
        result = []
        for label, shape, args, kwargs in cases:
            array = shape(rng) if callable(shape) else normal(rng, *shape)
            result.append(Sample((array, *args), kwargs, label=label))
        return result
    return build


def as_tuple(function):
    """An op taking tensors as separate arguments, for list-taking ops (cat, stack)."""
    def op(*tensors, **kwargs):
        return function(list(tensors), **kwargs)
    return op


def numpy_flatten(x, start_dim=0, end_dim=-1):
    if x.ndim == 0:
        return x.reshape(1)
    start, end = start_dim % x.ndim, end_dim % x.ndim
    return x.reshape(x.shape[:start] + (-1,) + x.shape[end + 1:])


def numpy_squeeze(x, dim=None):
    if dim is None:
        return np.squeeze(x)
    dims = dim if isinstance(dim, tuple) else (dim,)
    return np.squeeze(x, tuple(d for d in dims if x.shape[d] == 1))


def numpy_split(x, split_size_or_sections, dim=0):
    if isinstance(split_size_or_sections, list):
        cuts = np.cumsum(split_size_or_sections)[:-1]
    else:
        cuts = list(range(split_size_or_sections, x.shape[dim], split_size_or_sections))
    return tuple(np.split(x, cuts, axis=dim))


def numpy_chunk(x, chunks, dim=0):
    size = -(-x.shape[dim] // chunks)
    return numpy_split(x, size, dim)


def numpy_repeat(x, *sizes):
    return np.tile(x.reshape((1,) * (len(sizes) - x.ndim) + x.shape), sizes)


def numpy_pad(x, pad, mode="constant", value=None):
    widths = [(0, 0)] * x.ndim
    for i in range(len(pad) // 2):
        widths[x.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    crop = tuple(slice(max(-b, 0), d - max(-a, 0)) for d, (b, a) in zip(x.shape, widths))
    x = x[crop]
    widths = [(max(b, 0), max(a, 0)) for b, a in widths]
    numpy_mode = {"constant": "constant", "reflect": "reflect", "replicate": "edge",
                  "circular": "wrap"}[mode]
    if mode == "constant":
        return np.pad(x, widths, constant_values=value or 0)
    return np.pad(x, widths, mode=numpy_mode)


def numpy_narrow(x, dim, start, length):
    return np.take(x, range(start % x.shape[dim], start % x.shape[dim] + length), axis=dim)


OPS = [
    OpSpec("flatten", ug.flatten, numpy_flatten, samples(
        ("all", (2, 3, 4), (), {}),
        ("middle", (2, 3, 4, 2), (1, 2), {}),
        ("negative_end", (2, 3, 4), (), {"start_dim": 1, "end_dim": -1}),
        ("scalar", (), (), {}),
        ("empty", (2, 0, 3), (1,), {}),
        ("transposed", lambda rng: transposed(rng, 3, 4), (), {}))),
    OpSpec("flatten_method", lambda x: x.flatten(1), lambda x: x.reshape(x.shape[0], -1),
           samples(("rank3", (2, 3, 4), (), {}))),
    OpSpec("ravel", ug.ravel, np.ravel, samples(
        ("matrix", (3, 4), (), {}), ("scalar", (), (), {}),
        ("transposed", lambda rng: transposed(rng, 3, 4), (), {}))),
    OpSpec("squeeze", ug.squeeze, numpy_squeeze, samples(
        ("all", (2, 1, 3, 1), (), {}),
        ("one_dim", (2, 1, 3, 1), (1,), {}),
        ("some_not_one", (2, 1, 3), ((0, 1),), {}),
        ("tuple", (1, 2, 1, 1), ((0, -1),), {}),
        ("to_scalar", (1,), (), {}),
        ("empty", (0, 1), (), {}))),
    OpSpec("squeeze_method", lambda x: x.squeeze(-1), lambda x: x.squeeze(-1),
           samples(("column", (3, 1), (), {}))),
    OpSpec("unsqueeze", ug.unsqueeze, lambda x, dim: np.expand_dims(x, dim), samples(
        ("front", (3, 4), (0,), {}),
        ("back", (3, 4), (-1,), {}),
        ("middle", (3, 4), (1,), {}),
        ("scalar", (), (0,), {}),
        ("empty", (0, 3), (1,), {}))),
    OpSpec("unsqueeze_method", lambda x: x.unsqueeze(1), lambda x: x[:, None],
           samples(("vector", (3,), (), {}))),
    OpSpec("concat", as_tuple(ug.concat), lambda *arrays, dim=0: np.concatenate(arrays, dim),
           lambda rng: [
               Sample((normal(rng, 2, 3), normal(rng, 1, 3)), label="rows"),
               Sample((normal(rng, 2, 3), normal(rng, 2, 1), normal(rng, 2, 2)), {"dim": 1},
                      label="three_columns"),
               Sample((normal(rng, 2, 3), normal(rng, 0, 3)), label="with_empty"),
               Sample((transposed(rng, 2, 3), normal(rng, 2, 3)), {"dim": -1},
                      label="transposed"),
               Sample((normal(rng, 3),), label="single"),
           ], primitives=("concat",)),
    OpSpec("cat_axis", lambda x, y: ug.cat((x, y), axis=1),
           lambda x, y: np.concatenate((x, y), 1),
           lambda rng: [Sample((normal(rng, 2, 3), normal(rng, 2, 4)), label="axis")]),
    OpSpec("concat_mixed_dtype", lambda x, y: ug.cat([x, y.to(ug.float32)]),
           lambda x, y: np.concatenate([x, y]),
           lambda rng: [Sample((normal(rng, 2), normal(rng, 3)), label="promote")],
           grad=False, float32=False),
    OpSpec("stack", as_tuple(ug.stack), lambda *arrays, dim=0: np.stack(arrays, dim),
           lambda rng: [
               Sample((normal(rng, 2, 3), normal(rng, 2, 3)), label="front"),
               Sample((normal(rng, 2, 3), normal(rng, 2, 3), normal(rng, 2, 3)), {"dim": -1},
                      label="back"),
               Sample((normal(rng), normal(rng)), label="scalars"),
               Sample((normal(rng, 0, 2), normal(rng, 0, 2)), {"dim": 1}, label="empty"),
           ]),
    OpSpec("split", ug.split, numpy_split, samples(
        ("size", (5, 2), (2,), {}),
        ("sections", (2, 6), ([1, 0, 5],), {"dim": 1}),
        ("exact", (4,), (2,), {}),
        ("transposed", lambda rng: transposed(rng, 3, 4), (3,), {"dim": 1}))),
    OpSpec("split_method", lambda x: x.split([2, 1]), lambda x: (x[:2], x[2:]),
           samples(("vector", (3,), (), {}))),
    OpSpec("chunk", ug.chunk, numpy_chunk, samples(
        ("uneven", (5, 2), (3,), {}),
        ("even", (2, 6), (3,), {"dim": 1}),
        ("more_chunks_than_rows", (2, 2), (4,), {}))),
    OpSpec("unbind", ug.unbind, lambda x, dim=0: tuple(np.moveaxis(x, dim, 0)), samples(
        ("rows", (3, 2), (), {}), ("columns", (3, 2), (1,), {}))),
    OpSpec("narrow", ug.narrow, numpy_narrow, samples(
        ("middle", (5, 3), (0, 1, 3), {}),
        ("negative_start", (2, 5), (1, -3, 2), {}),
        ("empty", (2, 5), (1, 2, 0), {}))),
    OpSpec("select", ug.select, lambda x, dim, index: np.take(x, index, axis=dim), samples(
        ("row", (3, 4), (0, 1), {}), ("negative", (3, 4), (1, -1), {}))),
    OpSpec("tile", ug.tile, np.tile, samples(
        ("matrix", (2, 3), ((2, 3),), {}),
        ("short_dims", (2, 3), ((2,),), {}),
        ("more_dims", (2,), ((2, 1, 3),), {}),
        ("scalar", (), ((3,),), {}),
        ("zero", (2, 3), ((0, 1),), {}))),
    OpSpec("repeat", lambda x, *sizes: x.repeat(*sizes), numpy_repeat, samples(
        ("matrix", (2, 3), (2, 1), {}),
        ("new_leading", (2,), (3, 2), {}),
        ("scalar", (), (2, 2), {}),
        ("empty", (0, 2), (2, 2), {}))),
    OpSpec("repeat_interleave", ug.repeat_interleave,
           lambda x, repeats, dim=None: np.repeat(x, repeats, axis=dim), samples(
               ("flat", (2, 3), (2,), {}),
               ("dim", (2, 3), (3,), {"dim": 1}),
               ("counts", (3, 2), ([1, 0, 2],), {"dim": 0}),
               ("scalar", (), (3,), {}))),
    OpSpec("flip", ug.flip, lambda x, dims: np.flip(x, dims), samples(
        ("one_dim", (3, 4), ((0,),), {}),
        ("both", (3, 4), ((0, -1),), {}),
        ("int_dim", (3, 4), (1,), {}),
        ("scalar", (), ((),), {}),
        ("empty", (0, 3), ((1,),), {}),
        ("transposed", lambda rng: transposed(rng, 3, 4), ((1,),), {})),
           primitives=("flip",)),
    OpSpec("pad", ug.pad, numpy_pad, samples(
        ("last_dim", (2, 3), ((1, 2),), {}),
        ("two_dims_value", (2, 3), ((1, 0, 2, 1),), {"value": 1.5}),
        ("crop", (3, 4), ((-1, 2, 1, -2),), {}),
        ("empty", (0, 3), ((1, 1),), {}),
        ("transposed", lambda rng: transposed(rng, 3, 4), ((1, 1, 1, 1),), {})),
           primitives=("pad",)),
    OpSpec("pad_modes", ug.pad, numpy_pad, samples(
        ("reflect", (2, 4), ((2, 3),), {"mode": "reflect"}),
        ("reflect_2d", (2, 3, 4), ((1, 2, 2, 1),), {"mode": "reflect"}),
        ("replicate", (1, 2, 3), ((2, 1, 0, 3),), {"mode": "replicate"}),
        ("circular", (2, 4), ((1, 3),), {"mode": "circular"}))),
    OpSpec("tril", ug.tril, lambda x, diagonal=0: np.tril(x, diagonal), samples(
        ("square", (3, 3), (), {}),
        ("wide_offset", (3, 4), (1,), {}),
        ("batched_negative", (2, 3, 3), (-1,), {}),
        ("empty", (0, 3), (), {}),
        ("transposed", lambda rng: transposed(rng, 3, 4), (), {})), primitives=("tril",)),
    OpSpec("triu", ug.triu, lambda x, diagonal=0: np.triu(x, diagonal), samples(
        ("square", (3, 3), (), {}),
        ("tall_offset", (4, 3), (-1,), {}),
        ("batched", (2, 3, 3), (1,), {}),
        ("transposed", lambda rng: transposed(rng, 3, 4), (), {})), primitives=("triu",)),
    OpSpec("triangle_methods", lambda x: x.tril() + x.triu(1), lambda x: x,
           samples(("square", (3, 3), (), {}))),
    OpSpec("movedim", ug.movedim, np.moveaxis, samples(
        ("one", (2, 3, 4), (0, -1), {}),
        ("tuple", (2, 3, 4), ((0, 1), (2, 0)), {}),
        ("transposed", lambda rng: transposed(rng, 3, 4), (1, 0), {}))),
]
