"""Op-table specs for ``unigrad/ops/nn_resampling.py``: interpolate, grid_sample,
affine_grid and the pixel/channel shuffles.

The references are plain NumPy written independently of the implementation: they
loop over output positions and evaluate PyTorch's documented formulas directly
(``np.interp`` for linear modes, a cubic kernel of the distance for bicubic, window
means for area, per-point corner sums for grid_sample).
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings

import numpy as np

import unigrad.nn.functional as F

from .spec import OpSpec, Sample, normal

# ----------------------------------------------------------------------------- interpolate


def _output_sizes(spatial, size, scale_factor, rank):
    if size is not None:
        return list(size) if isinstance(size, (tuple, list)) else [size] * rank, [None] * rank
    factors = list(scale_factor) if isinstance(scale_factor, (tuple, list)) else \
        [scale_factor] * rank
    return [math.floor(n * s) for n, s in zip(spatial, factors)], factors


def _step(in_size, out_size, factor, align_corners):
    if align_corners:
        return (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    return 1.0 / factor if factor else in_size / out_size


def _keys(distance, a=-0.75):
    d = abs(distance)
    if d <= 1:
        return (a + 2) * d ** 3 - (a + 3) * d ** 2 + 1
    if d < 2:
        return a * d ** 3 - 5 * a * d ** 2 + 8 * a * d - 4 * a
    return 0.0


def _along(x, axis, function):
    return np.apply_along_axis(function, axis, x)


def _linear_line(line, out_size, factor, align_corners):
    n = len(line)
    if out_size == n:
        return line.copy()
    step = _step(n, out_size, factor, align_corners)
    positions = [step * i if align_corners else max(step * (i + 0.5) - 0.5, 0.0)
                 for i in range(out_size)]
    return np.interp(positions, np.arange(n), line)


def _cubic_line(line, out_size, factor, align_corners):
    n = len(line)
    step = _step(n, out_size, factor, align_corners)
    out = np.zeros(out_size)
    for i in range(out_size):
        source = step * i if align_corners else step * (i + 0.5) - 0.5
        base = math.floor(source)
        for k in range(base - 1, base + 3):
            out[i] += _keys(source - k) * line[min(max(k, 0), n - 1)]
    return out


def _nearest_line(line, out_size, factor, exact, shortcuts):
    n = len(line)
    if shortcuts and out_size in (n, 2 * n):
        return line[np.arange(out_size) * n // out_size]
    step = np.float32(1.0 / factor) if factor else np.float32(n) / np.float32(out_size)
    shift = np.float32(0.5 if exact else 0.0)
    return line[[min(int(np.floor((np.float32(i) + shift) * step)), n - 1)
                 for i in range(out_size)]]


def _area_line(line, out_size, factor, align_corners):
    n = len(line)
    return np.array([line[i * n // out_size:-(-(i + 1) * n // out_size)].mean()
                     for i in range(out_size)])


def _antialias_line(kernel, radius):
    def resample(line, out_size, factor, align_corners):
        n = len(line)
        step = _step(n, out_size, factor, align_corners)
        support = radius * max(step, 1.0)
        out = np.zeros(out_size)
        for i in range(out_size):
            center = step * (i + 0.5)
            taps = range(max(int(center - support + 0.5), 0), min(int(center + support + 0.5), n))
            weights = [kernel((k - center + 0.5) / max(step, 1.0)) for k in taps]
            out[i] = sum(w * line[k] for w, k in zip(weights, taps)) / sum(weights)
        return out
    return resample


_LINES = {"linear": _linear_line, "bilinear": _linear_line, "trilinear": _linear_line,
          "bicubic": _cubic_line, "area": _area_line}
def _lanczos(distance):
    if abs(distance) >= 3:
        return 0.0
    if distance == 0:
        return 1.0
    angle = math.pi * distance
    return 3 * math.sin(angle) * math.sin(angle / 3) / angle ** 2


_ANTIALIASED = {"bilinear": _antialias_line(lambda d: max(0.0, 1.0 - abs(d)), 1),
                "bicubic": _antialias_line(lambda d: _keys(d, -0.5), 2),
                "lanczos": _antialias_line(_lanczos, 3)}


def interpolate_reference(x, size=None, scale_factor=None, mode="nearest", align_corners=None,
                          recompute_scale_factor=None, antialias=False):
    rank = x.ndim - 2
    sizes, factors = _output_sizes(x.shape[2:], size, scale_factor, rank)
    if recompute_scale_factor or mode == "area":
        factors = [None] * rank
    for axis, (out_size, factor) in enumerate(zip(sizes, factors)):
        if mode in ("nearest", "nearest-exact"):
            x = _along(x, axis + 2, functools.partial(
                _nearest_line, out_size=out_size, factor=factor, exact=mode == "nearest-exact",
                shortcuts=mode == "nearest" and rank == 2))
        else:
            x = _along(x, axis + 2, functools.partial(
                (_ANTIALIASED if antialias else _LINES)[mode], out_size=out_size, factor=factor,
                align_corners=bool(align_corners)))
    return x


def interpolate_samples(rng):
    samples = []
    for mode, shape in (("nearest", (2, 2, 5)), ("nearest-exact", (1, 2, 4, 5)),
                        ("area", (1, 2, 5, 4))):
        samples += [Sample((normal(rng, *shape),), {"size": 7, "mode": mode}),
                    Sample((normal(rng, *shape),), {"scale_factor": 0.6, "mode": mode}),
                    Sample((normal(rng, *shape),), {"scale_factor": 2, "mode": mode})]
    for mode, shape in (("linear", (2, 2, 5)), ("bilinear", (1, 2, 4, 3)),
                        ("bicubic", (1, 1, 4, 5)), ("trilinear", (1, 1, 3, 2, 4))):
        rank = len(shape) - 2
        for align_corners in (False, True):
            samples += [
                Sample((normal(rng, *shape),), {"size": (6,) * rank, "mode": mode,
                                                "align_corners": align_corners}),
                Sample((normal(rng, *shape),), {"scale_factor": (1.7,) + (0.6,) * (rank - 1),
                                                "mode": mode, "align_corners": align_corners}),
            ]
        samples.append(Sample((normal(rng, *shape),), {"scale_factor": 1.5, "mode": mode,
                                                       "recompute_scale_factor": True}))
    samples.append(Sample((normal(rng, 1, 1, 8, 5),), {"size": (3, 7), "mode": "lanczos",
                                                       "antialias": True}))
    for mode in ("bilinear", "bicubic"):
        samples += [Sample((normal(rng, 1, 2, 7, 6),), {"size": (3, 4), "mode": mode,
                                                        "antialias": True}),
                    Sample((normal(rng, 1, 1, 3, 4),), {"size": (5, 2), "mode": mode,
                                                        "antialias": True,
                                                        "align_corners": True})]
    return samples


# ----------------------------------------------------------------------------- grid_sample


def _unnormalize(value, size, align_corners):
    return (value + 1) / 2 * (size - 1) if align_corners else ((value + 1) * size - 1) / 2


def _reflect(value, low, high):
    """Reflect ``value`` into ``[low, high]`` by repeated mirroring."""
    if low == high:
        return 0.0
    span = high - low
    value = abs(value - low)
    period = value % (2 * span)
    return low + (period if period <= span else 2 * span - period)


def _padded(value, size, padding_mode, align_corners):
    if padding_mode == "reflection":
        value = _reflect(value, 0, size - 1) if align_corners else _reflect(value, -0.5,
                                                                              size - 0.5)
    if padding_mode != "zeros":
        value = min(max(value, 0), size - 1)
    return value


def _point_value(image, position, mode, padding_mode, align_corners):
    """One channel-vector of output at pixel ``position`` (one coordinate per axis)."""
    sizes = image.shape[1:]
    if mode == "bicubic":
        bases = [math.floor(p) for p in position]
        total = 0.0
        for offsets in itertools.product(range(-1, 3), repeat=len(sizes)):
            taps = [b + o for b, o in zip(bases, offsets)]
            weight = math.prod(_keys(p - t) for p, t in zip(position, taps))
            taps = [t if padding_mode == "zeros" else
                    int(_padded(t, n, padding_mode, align_corners)) for t, n in zip(taps, sizes)]
            if all(0 <= t < n for t, n in zip(taps, sizes)):
                total = total + weight * image[(slice(None),) + tuple(taps)]
        return total
    position = [_padded(p, n, padding_mode, align_corners) for p, n in zip(position, sizes)]
    if mode == "nearest":
        taps = [int(np.rint(p)) for p in position]
        inside = all(0 <= t < n for t, n in zip(taps, sizes))
        return image[(slice(None),) + tuple(taps)] if inside else 0.0
    total = 0.0
    for corner in itertools.product((0, 1), repeat=len(sizes)):
        taps = [math.floor(p) + c for p, c in zip(position, corner)]
        weight = math.prod(1 - abs(p - t) for p, t in zip(position, taps))
        if all(0 <= t < n for t, n in zip(taps, sizes)):
            total = total + weight * image[(slice(None),) + tuple(taps)]
    return total


def grid_sample_reference(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False):
    rank = x.ndim - 2
    out = np.zeros(x.shape[:2] + grid.shape[1:-1])
    for n in range(x.shape[0]):
        for point in itertools.product(*(range(k) for k in grid.shape[1:-1])):
            coordinates = grid[(n,) + point][::-1]
            position = [_unnormalize(c, size, align_corners)
                        for c, size in zip(coordinates, x.shape[2:])]
            out[(n, slice(None)) + point] = _point_value(x[n], position, mode, padding_mode,
                                                         align_corners)
    assert rank == len(grid.shape) - 2
    return out


def _grid(rng, *shape):
    """Grid points in [-1.2, 1.2] kept away from pixel centres and half-pixels (kinks)."""
    return rng.uniform(-1.2, 1.2, size=shape)


def grid_sample_samples(rng):
    """Every mode with every padding mode (align_corners alternating; the torch comparison
    in tests/nn/test_resampling_vs_torch.py covers every combination)."""
    samples = []
    combinations = itertools.product(("bilinear", "nearest", "bicubic"),
                                     ("zeros", "border", "reflection"))
    for number, (mode, padding_mode) in enumerate(combinations):
        samples.append(Sample((normal(rng, 1, 2, 3, 4), _grid(rng, 1, 2, 3, 2)),
                              {"mode": mode, "padding_mode": padding_mode,
                               "align_corners": bool(number % 2)}))
    for mode, padding_mode in (("bilinear", "zeros"), ("nearest", "border"),
                               ("bilinear", "reflection")):
        samples.append(Sample((normal(rng, 2, 1, 2, 3, 2), _grid(rng, 2, 2, 1, 2, 3)),
                              {"mode": mode, "padding_mode": padding_mode,
                               "align_corners": mode == "nearest"}))
    return samples


def affine_grid_reference(theta, size, align_corners=False):
    spatial = size[2:]
    rank = len(spatial)

    def line(n):
        if n <= 1:
            return np.zeros(1)
        points = np.linspace(-1, 1, n)
        return points if align_corners else points * (n - 1) / n

    out = np.zeros((size[0],) + tuple(spatial) + (rank,))
    for index in itertools.product(*(range(n) for n in spatial)):
        point = [line(n)[i] for n, i in zip(spatial, index)][::-1] + [1.0]
        out[(slice(None),) + index] = np.einsum("nij,j->ni", theta, point)
    return out


def affine_grid_samples(rng):
    return [Sample((normal(rng, 2, 2, 3), (2, 3, 4, 5)), {"align_corners": False}),
            Sample((normal(rng, 1, 2, 3), (1, 1, 3, 1)), {"align_corners": True}),
            Sample((normal(rng, 2, 3, 4), (2, 1, 2, 3, 4)), {"align_corners": False}),
            Sample((normal(rng, 1, 3, 4), (1, 2, 3, 2, 2)), {"align_corners": True})]


def quiet_affine_grid(theta, size, align_corners=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return F.affine_grid(theta, size, align_corners)


# ----------------------------------------------------------------------------- shuffles


def pixel_shuffle_reference(x, r):
    *lead, channels, height, width = x.shape
    out = np.zeros(tuple(lead) + (channels // r ** 2, height * r, width * r))
    for c, i, j in itertools.product(range(channels // r ** 2), range(r), range(r)):
        out[..., c, i::r, j::r] = x[..., c * r * r + i * r + j, :, :]
    return out


def pixel_unshuffle_reference(x, r):
    *lead, channels, height, width = x.shape
    out = np.zeros(tuple(lead) + (channels * r * r, height // r, width // r))
    for c, i, j in itertools.product(range(channels), range(r), range(r)):
        out[..., c * r * r + i * r + j, :, :] = x[..., c, i::r, j::r]
    return out


def channel_shuffle_reference(x, groups):
    per_group = x.shape[1] // groups
    order = [g * per_group + k for k in range(per_group) for g in range(groups)]
    return x[:, order]


OPS = [
    OpSpec("interpolate", F.interpolate, interpolate_reference, interpolate_samples),
    OpSpec("grid_sample", F.grid_sample, grid_sample_reference, grid_sample_samples),
    OpSpec("affine_grid", quiet_affine_grid, affine_grid_reference, affine_grid_samples),
    OpSpec("pixel_shuffle", F.pixel_shuffle, pixel_shuffle_reference,
           lambda rng: [Sample((normal(rng, 1, 8, 2, 3), 2)), Sample((normal(rng, 9, 1, 2), 3)),
                        Sample((normal(rng, 2, 1, 4, 1, 1), 2))]),
    OpSpec("pixel_unshuffle", F.pixel_unshuffle, pixel_unshuffle_reference,
           lambda rng: [Sample((normal(rng, 1, 2, 4, 6), 2)), Sample((normal(rng, 1, 3, 3), 3)),
                        Sample((normal(rng, 2, 1, 1, 2, 2), 2))]),
    OpSpec("channel_shuffle", F.channel_shuffle, channel_shuffle_reference,
           lambda rng: [Sample((normal(rng, 2, 6, 3), 3)), Sample((normal(rng, 1, 4, 2, 2), 2))]),
    OpSpec("native_channel_shuffle", F.native_channel_shuffle, channel_shuffle_reference,
           lambda rng: [Sample((normal(rng, 1, 6, 2), 2))]),
]
