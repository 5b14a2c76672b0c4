"""Op-table specs for the 3-D and transposed convolutions and the pools of
``unigrad/ops/nn_convolution.py`` and ``unigrad/ops/nn_pooling.py``.

The references are plain NumPy written independently of the implementation:
windows are taken with slicing per kernel offset (transposed convolutions
scatter-add per kernel offset), adaptive and fractional pools loop over output
positions, as PyTorch's formulas describe them.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F

from .spec import OpSpec, Sample, distinct, normal, positive
from .table_nn import conv_reference

# ----------------------------------------------------------------------------- references


def _tuple(value, rank: int) -> tuple:
    return (value,) * rank if isinstance(value, int) else tuple(value)


def conv_transpose_reference(x, w, b=None, stride=1, padding=0, output_padding=0, groups=1,
                             dilation=1):
    rank = w.ndim - 2
    unbatched = x.ndim == rank + 1
    if unbatched:
        x = x[None]
    stride, padding = _tuple(stride, rank), _tuple(padding, rank)
    output_padding, dilation = _tuple(output_padding, rank), _tuple(dilation, rank)
    kernel, spatial = w.shape[2:], x.shape[2:]
    full = [(n - 1) * s + d * (k - 1) + 1 + o for n, k, s, d, o in
            zip(spatial, kernel, stride, dilation, output_padding)]
    in_group, out_group = x.shape[1] // groups, w.shape[1]
    out = np.zeros((x.shape[0], out_group * groups, *full))
    for g in range(groups):
        inputs = x[:, g * in_group:(g + 1) * in_group]
        for offsets in itertools.product(*(range(k) for k in kernel)):
            target = tuple(slice(j * d, j * d + s * (n - 1) + 1, s) for j, d, s, n in
                           zip(offsets, dilation, stride, spatial))
            taps = w[(slice(g * in_group, (g + 1) * in_group), slice(None)) + offsets]
            out[(slice(None), slice(g * out_group, (g + 1) * out_group)) + target] += np.einsum(
                "nc...,co->no...", inputs, taps)
    sizes = [f - 2 * p for f, p in zip(full, padding)]
    out = out[(Ellipsis,) + tuple(slice(p, p + n) for p, n in zip(padding, sizes))]
    if b is not None:
        out = out + b.reshape((-1,) + (1,) * rank)
    return out[0] if unbatched else out


def conv_tbc_reference(x, w, b, pad=0):
    out = conv_reference(x.transpose(1, 2, 0), w.transpose(2, 1, 0), b, padding=pad)
    return out.transpose(2, 0, 1)


def _pool_slabs(x, kernel, stride, padding, dilation, ceil_mode, fill):
    """Each kernel offset's slab of the padded input (PyTorch's output-size rule)."""
    rank = len(kernel)
    counts, extra = [], []
    for n, k, s, p, d in zip(x.shape[-rank:], kernel, stride, padding, dilation):
        span = n + 2 * p - d * (k - 1) - 1
        count = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (count - 1) * s >= n + p:
            count -= 1
        counts.append(count)
        extra.append(max(0, (count - 1) * s + d * (k - 1) + 1 - n - 2 * p))
    widths = [(0, 0)] * (x.ndim - rank) + [(p, p + e) for p, e in zip(padding, extra)]
    padded = np.pad(x, widths, constant_values=fill)
    return [padded[(Ellipsis,) + tuple(slice(o * d, o * d + s * (c - 1) + 1, s)
                                       for o, d, s, c in zip(offsets, dilation, stride, counts))]
            for offsets in itertools.product(*(range(k) for k in kernel))], counts


def _window(kernel_size, stride, rank):
    kernel = _tuple(kernel_size, rank)
    return kernel, kernel if stride is None else _tuple(stride, rank)


def max_pool_reference(rank):
    def reference(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
        kernel, stride = _window(kernel_size, stride, rank)
        slabs, _ = _pool_slabs(x, kernel, stride, _tuple(padding, rank), _tuple(dilation, rank),
                               ceil_mode, -np.inf)
        return np.max(slabs, axis=0)
    return reference


def _avg_divisor(x, kernel, stride, padding, counts, count_include_pad):
    """PyTorch's divisor: the window clipped to the padded input (or to the input)."""
    rank = len(kernel)
    divisor = np.ones(())
    for n, k, s, p, c in zip(x.shape[-rank:], kernel, stride, padding, counts):
        start = np.arange(c) * s - p
        end = np.minimum(start + k, n + p)
        if not count_include_pad:
            start, end = np.maximum(start, 0), np.minimum(end, n)
        divisor = np.multiply.outer(divisor, end - start)
    return divisor


def avg_pool_reference(rank):
    def reference(x, kernel_size, stride=None, padding=0, ceil_mode=False,
                  count_include_pad=True, divisor_override=None):
        kernel, stride = _window(kernel_size, stride, rank)
        padding = _tuple(padding, rank)
        slabs, counts = _pool_slabs(x, kernel, stride, padding, (1,) * rank, ceil_mode, 0.0)
        total = np.sum(slabs, axis=0)
        if divisor_override is not None:
            return total / divisor_override
        return total / _avg_divisor(x, kernel, stride, padding, counts, count_include_pad)
    return reference


def lp_pool_reference(rank):
    def reference(x, norm_type, kernel_size, stride=None, ceil_mode=False):
        kernel, stride = _window(kernel_size, stride, rank)
        slabs, counts = _pool_slabs(x ** norm_type, kernel, stride, (0,) * rank, (1,) * rank,
                                    ceil_mode, 0.0)
        divisor = _avg_divisor(x, kernel, stride, (0,) * rank, counts, True)
        return (np.sum(slabs, axis=0) / divisor * math.prod(kernel)) ** (1.0 / norm_type)
    return reference


def max_unpool_reference(rank):
    def reference(x, indices, kernel_size, stride=None, padding=0, output_size=None):
        kernel, stride = _window(kernel_size, stride, rank)
        padding = _tuple(padding, rank)
        if output_size is None:
            output_size = [(n - 1) * s + k - 2 * p for n, k, s, p in
                           zip(x.shape[-rank:], kernel, stride, padding)]
        lead = x.shape[:-rank]
        out = np.zeros(lead + (math.prod(output_size),))
        np.put_along_axis(out, indices.reshape(lead + (-1,)), x.reshape(lead + (-1,)), axis=-1)
        return out.reshape(lead + tuple(output_size))
    return reference


def _adaptive_windows(length: int, size: int) -> list:
    return [(i * length // size, -(-(i + 1) * length // size)) for i in range(size)]


def adaptive_reference(rank, reduce):
    def reference(x, output_size):
        sizes = [n if s is None else s for s, n in
                 zip(_tuple(output_size, rank) if output_size is not None else (None,) * rank,
                     x.shape[-rank:])]
        out = np.zeros(x.shape[:-rank] + tuple(sizes))
        windows = [_adaptive_windows(n, s) for n, s in zip(x.shape[-rank:], sizes)]
        for position in itertools.product(*(range(s) for s in sizes)):
            region = tuple(slice(*windows[a][i]) for a, i in enumerate(position))
            block = x[(Ellipsis,) + region].reshape(x.shape[:-rank] + (-1,))
            out[(Ellipsis,) + position] = reduce(block, axis=-1)
        return out
    return reference


def _fractional_starts(sample: float, length: int, size: int, pool: int) -> list:
    alpha = (length - pool) / (size - 1) if size > 1 else 0.0
    starts = [int((i + sample) * alpha) - int(sample * alpha) for i in range(size - 1)]
    return starts + [length - pool]


def fractional_reference(rank):
    # PyTorch's sample columns: (width, height) in 2-D, (time, height, width) in 3-D
    columns = (1, 0) if rank == 2 else (0, 1, 2)

    def reference(x, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                  _random_samples=None):
        kernel = _tuple(kernel_size, rank)
        if output_size is None:
            sizes = [int(n * r) for n, r in zip(x.shape[-rank:], _tuple(output_ratio, rank))]
        else:
            sizes = _tuple(output_size, rank)
        unbatched = x.ndim == rank + 1
        planes = x[None] if unbatched else x
        out = np.zeros(planes.shape[:2] + tuple(sizes))
        for n, c in itertools.product(range(planes.shape[0]), range(planes.shape[1])):
            starts = [_fractional_starts(_random_samples[n, c, columns[a]], length, size, k)
                      for a, (length, size, k) in enumerate(zip(x.shape[-rank:], sizes, kernel))]
            for position in itertools.product(*(range(s) for s in sizes)):
                region = tuple(slice(starts[a][i], starts[a][i] + kernel[a])
                               for a, i in enumerate(position))
                out[(n, c) + position] = planes[(n, c) + region].max()
        return out[0] if unbatched else out
    return reference


# ----------------------------------------------------------------------------- samples

def conv3d_samples(rng):
    return [
        Sample((normal(rng, 2, 2, 4, 5, 4), normal(rng, 3, 2, 2, 3, 2), normal(rng, 3)),
               {"stride": (1, 2, 1), "padding": 1, "dilation": (2, 1, 1)}, label="batched"),
        Sample((normal(rng, 4, 3, 4, 3), normal(rng, 4, 2, 2, 2, 1)),
               {"groups": 2, "padding": "same"}, label="unbatched_groups_same"),
    ]


def conv_transpose1d_samples(rng):
    return [
        Sample((normal(rng, 2, 4, 5), normal(rng, 4, 3, 3), normal(rng, 3)),
               {"stride": 2, "padding": 1, "output_padding": 1}, label="stride_output_padding"),
        Sample((normal(rng, 4, 3), normal(rng, 4, 1, 2)),
               {"groups": 2, "dilation": 3, "stride": 1, "output_padding": 2},
               label="unbatched_groups_dilation"),
    ]


def conv_transpose2d_samples(rng):
    return [
        Sample((normal(rng, 2, 3, 3, 4), normal(rng, 3, 2, 3, 2), normal(rng, 2)),
               {"stride": (2, 3), "padding": (1, 0), "output_padding": (1, 2)},
               label="stride_padding"),
        Sample((normal(rng, 1, 4, 3, 3), normal(rng, 4, 3, 2, 2)),
               {"groups": 2, "dilation": 2, "padding": 2}, label="groups_dilation"),
    ]


def conv_transpose3d_samples(rng):
    return [Sample((normal(rng, 1, 2, 2, 3, 2), normal(rng, 2, 2, 2, 2, 2), normal(rng, 2)),
                   {"stride": 2, "padding": (1, 0, 0), "output_padding": (0, 1, 0)})]


def conv_tbc_samples(rng):
    return [Sample((normal(rng, 6, 2, 3), normal(rng, 3, 3, 4), normal(rng, 4), 1))]


def max_pool1d_samples(rng):
    return [
        Sample((distinct(rng, 2, 3, 9), 3), {"stride": 2, "padding": 1, "ceil_mode": True},
               label="ceil_padding"),
        Sample((distinct(rng, 3, 8), 2), {"dilation": 3, "stride": 1}, label="unbatched"),
    ]


def max_pool3d_samples(rng):
    return [
        Sample((distinct(rng, 1, 2, 4, 5, 4), 2), {"stride": (1, 2, 2), "padding": (1, 0, 1)},
               label="padding"),
        Sample((distinct(rng, 2, 5, 4, 5), (2, 2, 3)), {"ceil_mode": True, "stride": 2},
               label="unbatched_ceil"),
    ]


def avg_pool1d_samples(rng):
    return [
        Sample((normal(rng, 2, 3, 9), 3), {"stride": 2, "padding": 1, "ceil_mode": True,
                                           "count_include_pad": False}, label="exclude_pad"),
        Sample((normal(rng, 3, 7), 2), {"ceil_mode": True}, label="unbatched_ceil"),
    ]


def avg_pool3d_samples(rng):
    return [
        Sample((normal(rng, 1, 2, 5, 4, 5), 3), {"stride": 2, "padding": 1, "ceil_mode": True},
               label="include_pad"),
        Sample((normal(rng, 2, 4, 5, 4), (2, 3, 2)), {"padding": (1, 1, 0),
                                                      "count_include_pad": False},
               label="unbatched_exclude_pad"),
        Sample((normal(rng, 1, 2, 4, 4, 4), 2), {"divisor_override": 3}, label="divisor"),
    ]


def lp_pool_samples(rank):
    def samples(rng):
        return [
            Sample((positive(rng, 2, 3, *(5,) * rank), 2.0, 2), label="norm2"),
            Sample((positive(rng, 3, *(5,) * rank), 3.0, 2, 2, True), label="unbatched_ceil"),
        ]
    return samples


def _unpool_indices(rng, shape, kernel: int, rank: int) -> np.ndarray:
    """Distinct flat indices: one random position inside each non-overlapping window."""
    counts = shape[-rank:]
    positions = [np.arange(c).reshape((-1,) + (1,) * (rank - a - 1)) * kernel
                 + rng.integers(0, kernel, size=shape[:-rank] + counts)
                 for a, c in enumerate(counts)]
    flat = positions[0]
    for position, c in zip(positions[1:], counts[1:]):
        flat = flat * (c * kernel) + position
    return flat.astype(np.int64)


def max_unpool_samples(rank):
    def samples(rng):
        shape, unbatched = (2, 3) + (3,) * rank, (2,) + (2,) * rank
        return [
            Sample((normal(rng, *shape), _unpool_indices(rng, shape, 2, rank), 2),
                   label="default_size"),
            Sample((normal(rng, *unbatched), _unpool_indices(rng, unbatched, 2, rank), 2),
                   {"output_size": (5,) * rank}, label="unbatched_output_size"),
        ]
    return samples


def adaptive_samples(rank, values):
    def samples(rng):
        sizes = {1: [3, (4,)], 2: [(3, None), 2], 3: [(2, 3, 1), 3]}[rank]
        return [
            Sample((values(rng, 2, 3, *(7, 5, 4)[:rank]), sizes[0]), label="batched"),
            Sample((values(rng, 2, *(5, 6, 3)[:rank]), sizes[1]), label="unbatched"),
        ]
    return samples


def fractional_samples(rank):
    def samples(rng):
        shape = (2, 2) + (7, 6, 5)[:rank]
        return [
            Sample((distinct(rng, *shape), 2),
                   {"output_size": (4, 3, 3)[:rank],
                    "_random_samples": rng.uniform(size=(2, 2, rank))}, label="output_size"),
            Sample((distinct(rng, *shape[1:]), (3, 2, 2)[:rank]),
                   {"output_ratio": (0.5, 0.6, 0.4)[:rank],
                    "_random_samples": rng.uniform(size=(1, 2, rank))},
                   label="unbatched_ratio"),
        ]
    return samples


def _fractional(function):
    """The op with ``_random_samples`` given as a Tensor (the harness passes arrays as-is)."""
    def call(input, kernel_size, **kwargs):
        kwargs["_random_samples"] = ug.tensor(kwargs["_random_samples"], dtype=input.dtype)
        return function(input, kernel_size, **kwargs)
    return call


# ----------------------------------------------------------------------------- the table

OPS = [
    OpSpec("conv3d", F.conv3d, conv_reference, conv3d_samples),
    OpSpec("conv_transpose1d", F.conv_transpose1d, conv_transpose_reference,
           conv_transpose1d_samples),
    OpSpec("conv_transpose2d", F.conv_transpose2d, conv_transpose_reference,
           conv_transpose2d_samples),
    OpSpec("conv_transpose3d", F.conv_transpose3d, conv_transpose_reference,
           conv_transpose3d_samples),
    OpSpec("conv_tbc", F.conv_tbc, conv_tbc_reference, conv_tbc_samples),
    OpSpec("max_pool1d", F.max_pool1d, max_pool_reference(1), max_pool1d_samples),
    OpSpec("max_pool3d", F.max_pool3d, max_pool_reference(3), max_pool3d_samples),
    OpSpec("avg_pool1d", F.avg_pool1d, avg_pool_reference(1), avg_pool1d_samples),
    OpSpec("avg_pool3d", F.avg_pool3d, avg_pool_reference(3), avg_pool3d_samples),
    OpSpec("lp_pool1d", F.lp_pool1d, lp_pool_reference(1), lp_pool_samples(1)),
    OpSpec("lp_pool2d", F.lp_pool2d, lp_pool_reference(2), lp_pool_samples(2)),
    OpSpec("lp_pool3d", F.lp_pool3d, lp_pool_reference(3), lp_pool_samples(3)),
    OpSpec("max_unpool1d", F.max_unpool1d, max_unpool_reference(1), max_unpool_samples(1)),
    OpSpec("max_unpool2d", F.max_unpool2d, max_unpool_reference(2), max_unpool_samples(2)),
    OpSpec("max_unpool3d", F.max_unpool3d, max_unpool_reference(3), max_unpool_samples(3)),
    OpSpec("adaptive_avg_pool1d", F.adaptive_avg_pool1d, adaptive_reference(1, np.mean),
           adaptive_samples(1, normal)),
    OpSpec("adaptive_avg_pool2d", F.adaptive_avg_pool2d, adaptive_reference(2, np.mean),
           adaptive_samples(2, normal)),
    OpSpec("adaptive_avg_pool3d", F.adaptive_avg_pool3d, adaptive_reference(3, np.mean),
           adaptive_samples(3, normal)),
    OpSpec("adaptive_max_pool1d", F.adaptive_max_pool1d, adaptive_reference(1, np.max),
           adaptive_samples(1, distinct)),
    OpSpec("adaptive_max_pool2d", F.adaptive_max_pool2d, adaptive_reference(2, np.max),
           adaptive_samples(2, distinct)),
    OpSpec("adaptive_max_pool3d", F.adaptive_max_pool3d, adaptive_reference(3, np.max),
           adaptive_samples(3, distinct)),
    OpSpec("fractional_max_pool2d", _fractional(F.fractional_max_pool2d),
           fractional_reference(2), fractional_samples(2)),
    OpSpec("fractional_max_pool3d", _fractional(F.fractional_max_pool3d),
           fractional_reference(3), fractional_samples(3)),
]
