"""Op-table specs for the core shape primitives (reshape, broadcast_to, transpose),
the sum and mean reductions, and the copies of ``device.py`` (clone, to_device)."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, normal


def one_input(*cases):
    """Samples of a one-tensor op: ``(label, shape, kwargs)`` or ``(label, array_fn, kwargs)``."""
    def samples(rng: np.random.Generator) -> list:
        result = []
        for label, shape, kwargs in cases:
            array = shape(rng) if callable(shape) else normal(rng, *shape)
            result.append(Sample((array,), kwargs, label=label))
        return result
    return samples


def transposed(*shape):
    """A non-contiguous array of ``shape`` (the transpose of a C-contiguous one)."""
    return lambda rng: normal(rng, *reversed(shape)).T


def sum_to_shape_reference(x: np.ndarray, shape: tuple) -> np.ndarray:
    lead = x.ndim - len(shape)
    summed = x.sum(axis=tuple(range(lead))) if lead else x
    axes = tuple(i for i, d in enumerate(shape) if d == 1 and summed.shape[i] != 1)
    return summed.sum(axis=axes, keepdims=True).reshape(shape)


def numpy_reduction(function):
    """A NumPy reference accepting PyTorch's ``dim``/``keepdim`` spelling too."""
    def reference(x, dim=None, keepdim=False, *, axis=None, keepdims=False):
        axis = dim if dim is not None else axis
        if isinstance(axis, list):
            axis = tuple(axis)
        return function(x, axis=axis, keepdims=keepdim or keepdims)
    return reference


REDUCTION_CASES = (
    ("all", (3, 4), {}),
    ("dim0", (3, 4), {"dim": 0}),
    ("dim_negative_keepdim", (2, 3, 4), {"dim": -1, "keepdim": True}),
    ("dims_tuple", (2, 3, 4), {"dim": (0, 2)}),
    ("axis_keepdims", (3, 4), {"axis": 1, "keepdims": True}),
    ("scalar", (), {}),
    ("transposed", transposed(3, 4), {"dim": 1}),
)

OPS = [
    # reshape primitive
    OpSpec("reshape", ug.reshape, np.reshape, lambda rng: [
        Sample((normal(rng, 3, 4), (4, 3)), label="matrix"),
        Sample((normal(rng, 3, 4), (2, -1)), label="inferred"),
        Sample((normal(rng, 1, 1), ()), label="to_scalar"),
        Sample((normal(rng), (1, 1)), label="from_scalar"),
        Sample((normal(rng, 0, 3), (3, 0)), label="empty"),
        Sample((normal(rng, 4, 3).T, (12,)), label="transposed"),
    ], primitives=("reshape",)),
    OpSpec("view", lambda x: x.view(2, 6), lambda x: x.reshape(2, 6),
           one_input(("matrix", (3, 4), {}))),
    OpSpec("reshape_method", lambda x: x.reshape(-1), lambda x: x.reshape(-1),
           one_input(("matrix", (3, 4), {}), ("transposed", transposed(3, 4), {}))),
    # broadcast_to primitive
    OpSpec("broadcast_to", ug.broadcast_to, np.broadcast_to, lambda rng: [
        Sample((normal(rng, 3, 1), (3, 4)), label="column"),
        Sample((normal(rng, 3, 1), (2, 3, 4)), label="new_leading"),
        Sample((normal(rng), (2, 3)), label="from_scalar"),
        Sample((normal(rng, 1, 3), (0, 3)), label="to_empty"),
        Sample((normal(rng, 4, 1).T, (3, 4)), label="transposed"),
    ], primitives=("broadcast_to",)),
    OpSpec("expand", lambda x: x.expand(2, -1, 4), lambda x: np.broadcast_to(x, (2, x.shape[0], 4)),
           one_input(("keep_dim", (3, 1), {}), ("scalar_row", (1, 1), {}))),
    # transpose primitive
    OpSpec("permute", ug.permute, lambda x, dims: np.transpose(x, dims), lambda rng: [
        Sample((normal(rng, 2, 3, 4), (2, 0, 1)), label="rank3"),
        Sample((normal(rng, 2, 0, 3), (1, 2, 0)), label="empty"),
        Sample((normal(rng, 4, 3).T, (1, 0)), label="transposed"),
    ], primitives=("transpose",)),
    OpSpec("transpose", ug.transpose, lambda x, dim0, dim1: np.swapaxes(x, dim0, dim1),
           lambda rng: [Sample((normal(rng, 2, 3, 4), 0, 2), label="outer"),
                        Sample((normal(rng, 2, 3, 4), -1, 1), label="negative_dim"),
                        Sample((normal(rng, 0, 3), 0, 1), label="empty")]),
    OpSpec("transpose_all", ug.transpose, np.transpose,
           one_input(("rank3", (2, 3, 4), {}), ("scalar", (), {}))),
    OpSpec("t", ug.t, np.transpose,
           one_input(("matrix", (3, 4), {}), ("vector", (4,), {}),
                     ("transposed", transposed(3, 4), {}))),
    OpSpec("property_T", lambda x: x.T, np.transpose, one_input(("matrix", (3, 4), {}))),
    OpSpec("swapaxes", lambda x: x.swapaxes(0, 1), lambda x: np.swapaxes(x, 0, 1),
           one_input(("matrix", (3, 4), {}))),
    OpSpec("sum_to_shape", ug.sum_to_shape, sum_to_shape_reference, lambda rng: [
        Sample((normal(rng, 2, 3, 4), (3, 1)), label="leading_and_inner"),
        Sample((normal(rng, 3, 4), (1, 4)), label="rows"),
        Sample((normal(rng, 3, 4), ()), label="to_scalar"),
        Sample((normal(rng, 0, 4), (4,)), label="empty"),
    ]),
    # reductions
    OpSpec("sum", ug.sum, numpy_reduction(np.sum), one_input(
        *REDUCTION_CASES, ("empty", (0, 3), {}), ("empty_dim0", (0, 3), {"dim": 0})),
        primitives=("sum",)),
    OpSpec("sum_int64", ug.sum, numpy_reduction(np.sum), one_input(
        ("all", lambda rng: rng.integers(-3, 3, size=(3, 4)), {}),
        ("bool_dim", lambda rng: rng.random(size=(3, 4)) < 0.5, {"dim": 1})), grad=False),
    OpSpec("mean", ug.mean, numpy_reduction(np.mean), one_input(
        *REDUCTION_CASES, ("empty_rows", (0, 3), {"dim": 1})), primitives=("mean",)),
    OpSpec("sum_method", lambda x: x.sum(1, keepdim=True), lambda x: x.sum(1, keepdims=True),
           one_input(("matrix", (3, 4), {}))),
    OpSpec("mean_method", lambda x: x.mean(dim=[0, 1]), lambda x: x.mean(axis=(0, 1)),
           one_input(("matrix", (3, 4), {}))),
    # copies
    OpSpec("clone", ug.clone, np.copy, one_input(
        ("matrix", (3, 4), {}), ("scalar", (), {}), ("empty", (0, 3), {}),
        ("transposed", transposed(3, 4), {})), primitives=("clone",)),
    OpSpec("to_device_cpu", lambda x: ug.to_device(x, "cpu"), np.copy,
           one_input(("matrix", (3, 4), {}), ("scalar", (), {})), primitives=("to_device",)),
]
