"""Op-table specs for ``unigrad/ops/indexing.py``: ``x[index]``, ``x[index] = value``,
gather/scatter_add, index_select, take_along_axis, take and masked_fill."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, normal


def transposed(rng: np.random.Generator, *shape) -> np.ndarray:
    """A non-contiguous array of ``shape`` (the transpose of a C-contiguous one)."""
    return normal(rng, *reversed(shape)).T


def indexed(rng: np.random.Generator, cases) -> list:
    """Samples of ``x[index]``: ``(label, shape or array_fn, index)``."""
    result = []
    for label, shape, index in cases:
        array = shape(rng) if callable(shape) else normal(rng, *shape)
        result.append(Sample((array, index), label=label))
    return result


def get(x, index):
    return x[index]


def set_copy(x, value, index):
    """``x`` (copied first, so the leaf stays untouched) with ``x[index] = value``."""
    result = x.clone() if isinstance(x, ug.Tensor) else x.copy()
    result[index] = value
    return result


def full_index(index: np.ndarray, dim: int) -> tuple:
    """The advanced index picking ``x[..., index[i, j], ...]`` along ``dim``."""
    dim %= index.ndim
    return tuple(index if d == dim else np.arange(n).reshape([-1 if e == d else 1
                                                             for e in range(index.ndim)])
                 for d, n in enumerate(index.shape))


def numpy_gather(x, dim, index):
    if x.ndim == 0:
        return x.reshape(1)[index]
    return x[full_index(index, dim)]


def numpy_scatter_add(x, dim, index, src):
    out = x.copy()
    np.add.at(out, full_index(index, dim), src[tuple(slice(0, n) for n in index.shape)])
    return out


def numpy_masked_fill(x, mask, value):
    return np.where(mask, value, x)


BASIC = (
    ("int", (3, 4), 1),
    ("negative_int", (3, 4), -1),
    ("all_ints", (3, 4), (2, -3)),
    ("slices", (3, 4), (slice(1, None), slice(None, None, 2))),
    ("none_ellipsis", (2, 3, 4), (None, Ellipsis, 1)),
    ("true", (3,), True),
    ("scalar_ellipsis", (), Ellipsis),
    ("empty_input", (0, 3), (slice(None), 1)),
    ("empty_slice", (3, 4), slice(2, 2)),
    ("transposed", lambda rng: transposed(rng, 3, 4), (slice(1, None), 0)),
)

ADVANCED = (
    ("repeated_list", (3, 4), [0, 0, 2]),
    ("negative_array", (3, 4), np.array([-1, 0, -1])),
    ("matrix_index", (3, 4), (np.array([[0, 1], [2, 0]]),)),
    ("mask", (3, 4), np.array([[True, False, True, False]] * 3)),
    ("row_mask", (3, 4), np.array([True, False, True])),
    ("false_mask", (3, 4), np.zeros(3, dtype=bool)),
    ("slice_then_array", (3, 4), (slice(None), [3, 1, 3])),
    ("broadcast_arrays", (3, 4), (np.array([[0], [2]]), np.array([1, 3, 1]))),
    ("separated_arrays", (2, 3, 4), ([0, 1], slice(None), [3, 0])),
    ("empty_list", (3, 4), []),
    ("scalar_mask", (), np.array(True)),
    ("transposed", lambda rng: transposed(rng, 3, 4), ([2, 0], 1)),
)

OPS = [
    OpSpec("getitem_basic", get, get, lambda rng: indexed(rng, BASIC),
           primitives=("getitem", "index_add")),
    OpSpec("getitem_advanced", get, get, lambda rng: indexed(rng, ADVANCED),
           primitives=("index", "index_add")),
    OpSpec("getitem_tensor_index", lambda x, index: x[index], lambda x, index: x[index],
           lambda rng: [
               Sample((normal(rng, 3, 4), np.array([2, 0, 2])), label="int_tensor"),
               Sample((normal(rng, 3, 4), np.array(1)), label="zero_dim_int_tensor"),
               Sample((normal(rng, 3, 4), normal(rng, 3, 4) > 0), label="bool_tensor"),
           ], primitives=("index",)),
    OpSpec("setitem", set_copy, set_copy, lambda rng: [
        Sample((normal(rng, 3, 4), normal(rng, 4), 1), label="row"),
        Sample((normal(rng, 3, 4), normal(rng, 3, 1), (slice(None), slice(1, 3))),
               label="broadcast_column"),
        Sample((normal(rng, 3, 4), normal(rng, 1, 2, 4), slice(0, 2)), label="leading_one"),
        Sample((normal(rng, 3, 4), normal(rng), (np.array([0, 2]), np.array([1, 3]))),
               label="advanced_scalar_value"),
        Sample((normal(rng, 3, 4), normal(rng, 2, 4), [2, 0]), label="advanced_rows"),
        Sample((normal(rng, 3), normal(rng), np.array([True, False, True])), label="mask"),
        Sample((normal(rng), normal(rng), Ellipsis), label="scalar"),
        Sample((normal(rng, 0, 3), normal(rng, 3), slice(None)), label="empty"),
        Sample((transposed(rng, 3, 4), normal(rng, 3), (slice(None), 0)), label="transposed"),
    ], primitives=("index_put",)),
    OpSpec("setitem_number", lambda x: set_copy(x, 2.5, (slice(None), 0)),
           lambda x: set_copy(x, 2.5, (slice(None), 0)),
           lambda rng: [Sample((normal(rng, 3, 2),), label="column")]),
    OpSpec("gather", ug.gather, numpy_gather, lambda rng: [
        Sample((normal(rng, 3, 4), 0, np.array([[0, 2, 2, 1], [1, 1, 0, 0]])), label="dim0"),
        Sample((normal(rng, 3, 4), 1, np.array([[3, 3], [0, 1], [2, 2]])), label="dim1"),
        Sample((normal(rng, 3, 4), -1, np.array([[1], [0]])), label="smaller_index"),
        Sample((normal(rng, 3, 4), 0, np.zeros((0, 4), dtype=np.int64)), label="empty_index"),
        Sample((normal(rng), 0, np.array(0)), label="scalar"),
        Sample((transposed(rng, 3, 4), 1, np.array([[0, 3], [1, 1], [2, 0]])),
               label="transposed"),
    ], primitives=("gather", "scatter_add")),
    OpSpec("gather_method", lambda x, index: x.gather(1, index),
           lambda x, index: numpy_gather(x, 1, index),
           lambda rng: [Sample((normal(rng, 2, 3), np.array([[2, 0], [1, 1]])), label="dim1")]),
    OpSpec("scatter_add", ug.scatter_add, numpy_scatter_add, lambda rng: [
        Sample((normal(rng, 3, 4), 0, np.array([[0, 2, 2, 1], [0, 1, 0, 0]]), normal(rng, 2, 4)),
               label="dim0_repeated"),
        Sample((normal(rng, 3, 4), 1, np.array([[3, 3], [0, 1]]), normal(rng, 3, 3)),
               label="larger_src"),
        Sample((normal(rng, 3, 4), 0, np.zeros((0, 4), dtype=np.int64), normal(rng, 0, 4)),
               label="empty_index"),
        Sample((transposed(rng, 3, 4), 1, np.array([[0, 0], [1, 1], [2, 3]]),
                transposed(rng, 3, 2)), label="transposed"),
    ], primitives=("scatter_add", "gather")),
    OpSpec("scatter_add_method", lambda x, index, src: x.scatter_add(0, index, src),
           lambda x, index, src: numpy_scatter_add(x, 0, index, src),
           lambda rng: [Sample((normal(rng, 3), np.array([2, 2]), normal(rng, 2)),
                               label="vector")]),
    OpSpec("index_select", ug.index_select,
           lambda x, dim, index: np.take(x, np.reshape(index, -1), axis=dim), lambda rng: [
        Sample((normal(rng, 3, 4), 0, np.array([2, 0, 2])), label="rows"),
        Sample((normal(rng, 3, 4), -1, np.array([1])), label="last_dim"),
        Sample((normal(rng, 3, 4), 1, np.array(3)), label="zero_dim_index"),
        Sample((normal(rng, 3, 4), 0, np.zeros(0, dtype=np.int64)), label="empty_index"),
        Sample((transposed(rng, 3, 4), 1, np.array([0, 3])), label="transposed"),
    ], primitives=("index",)),
    OpSpec("take_along_axis", ug.take_along_axis,
           lambda x, indices, axis=None: np.take_along_axis(x, indices, axis), lambda rng: [
        Sample((normal(rng, 3, 4), np.array([[1], [0], [3]]), 1), label="columns"),
        Sample((normal(rng, 3, 4), np.array([[-1, 0, 2, 1]]), 0), label="broadcast_index"),
        Sample((normal(rng, 1, 4), np.array([[0], [3], [1]]), 1), label="broadcast_input"),
        Sample((normal(rng, 3, 4), np.array([11, 0, -1])), label="flat"),
        Sample((transposed(rng, 3, 4), np.array([[2, 2, 0, 1]]), 0), label="transposed"),
    ], primitives=("gather",)),
    OpSpec("take", ug.take, lambda x, index: np.take(x, index), lambda rng: [
        Sample((normal(rng, 3, 4), np.array([[0, 11], [-1, 5]])), label="matrix_index"),
        Sample((normal(rng, 3, 4), np.array(5)), label="zero_dim_index"),
        Sample((normal(rng), np.array([0, 0])), label="scalar_input"),
        Sample((transposed(rng, 3, 4), np.array([1, 4])), label="transposed"),
    ], primitives=("index",)),
    OpSpec("masked_fill", ug.masked_fill, numpy_masked_fill, lambda rng: [
        Sample((normal(rng, 3, 4), normal(rng, 3, 4) > 0, 0.5), label="full_mask"),
        Sample((normal(rng, 3, 4), normal(rng, 1, 4) > 0, -1.0), label="broadcast_mask"),
        Sample((normal(rng, 3, 4), normal(rng, 3, 1) > 0, normal(rng)), label="tensor_value"),
        Sample((normal(rng), np.array(True), 2.0), label="scalar"),
        Sample((normal(rng, 0, 2), np.zeros((0, 2), dtype=bool), 1.0), label="empty"),
    ]),
    OpSpec("masked_fill_method", lambda x, mask: x.masked_fill(mask, 3.0),
           lambda x, mask: np.where(mask, 3.0, x),
           lambda rng: [Sample((normal(rng, 2, 3), normal(rng, 2, 3) > 0), label="matrix")]),
]
