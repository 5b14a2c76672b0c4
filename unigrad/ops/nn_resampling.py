"""Resampling: interpolate/upsample, grid_sample/affine_grid, pixel and channel shuffles
(``torch.nn.functional``'s signatures).

Everything is a composite. ``interpolate`` is separable: along each spatial axis,
every output position reads a few input positions ("taps") with fixed weights,
so one axis is one ``index_select`` of all taps, a multiply and a sum. The taps
and weights depend only on the sizes; they are computed in NumPy with PyTorch's
index rules. ``grid_sample`` gathers the taps the grid points at, with weights
that are differentiable functions of the grid.

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> F.interpolate(ug.tensor([[[1.0, 3.0]]]), scale_factor=2, mode="linear")
    tensor([[[1.0000, 1.5000, 2.5000, 3.0000]]])
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..backend import to_numpy_dtype
from ..tensor import Tensor
from .elementwise import abs, cast, floor, fmod, logical_and, round, where
from .indexing import gather, index_select
from .linalg import matmul
from .reduce import sum
from .registry import op
from .shape import expand, reshape, stack, transpose_axes, unsqueeze

# ----------------------------------------------------------------------------- constants


def _constant(values: np.ndarray, like: Tensor) -> Tensor:
    """``values`` as a tensor with ``like``'s floating dtype, on ``like``'s device."""
    data = np.asarray(values, dtype=to_numpy_dtype(like.dtype))
    return Tensor(data, device=like.device)


def _index_constant(values: np.ndarray, like: Tensor) -> Tensor:
    return Tensor(np.asarray(values, dtype=np.int64), device=like.device)


def _size_text(names: str, sizes) -> str:
    return ", ".join(f"{name}: {size}" for name, size in zip(names, sizes))


# ----------------------------------------------------------------------------- taps per axis
# Each builder returns (indices, weights) of shape (out_size, taps); weights None means one
# tap of weight 1. They follow PyTorch's CPU kernels (UpSample.h) index for index.

_CUBIC_A = -0.75  # PyTorch's bicubic coefficient (antialiasing uses Keys' -0.5)


def _cubic_near(x, a: float):
    return ((a + 2) * x - (a + 3)) * x * x + 1


def _cubic_far(x, a: float):
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a


def _cubic_coefficients(t, a: float = _CUBIC_A) -> list:
    """The four cubic-convolution weights of taps ``-1, 0, 1, 2`` at fraction ``t``."""
    return [_cubic_far(t + 1, a), _cubic_near(t, a), _cubic_near(1 - t, a),
            _cubic_far(2 - t, a)]


def _source_scale(in_size: int, out_size: int, align_corners: bool, scale) -> float:
    """PyTorch's ``area_pixel_compute_scale``: input step per output step."""
    if align_corners:
        return (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    return 1.0 / scale if scale is not None and scale > 0 else in_size / out_size


def _source_positions(in_size, out_size, align_corners, scale, cubic: bool) -> np.ndarray:
    ratio = _source_scale(in_size, out_size, align_corners, scale)
    positions = np.arange(out_size, dtype=np.float64)
    if align_corners:
        return ratio * positions
    positions = ratio * (positions + 0.5) - 0.5
    return positions if cubic else np.maximum(positions, 0.0)


def _nearest_taps(in_size, out_size, scale, exact: bool, shortcuts: bool):
    """PyTorch's 2-D nearest kernel (``shortcuts``) copies an unchanged axis and maps a doubled
    one by halving; its other nearest kernels always use the float32 scale."""
    positions = np.arange(out_size)
    if shortcuts and out_size == in_size:
        return positions[:, None], None
    if shortcuts and out_size == 2 * in_size:
        return (positions // 2)[:, None], None
    ratio = (np.float32(1.0 / scale) if scale is not None and scale > 0
             else np.float32(in_size) / np.float32(out_size))
    offsets = positions.astype(np.float32) + (np.float32(0.5) if exact else np.float32(0.0))
    indices = np.floor(offsets * ratio).astype(np.int64)
    return np.minimum(indices, in_size - 1)[:, None], None


def _linear_taps(in_size, out_size, scale, align_corners):
    positions = _source_positions(in_size, out_size, align_corners, scale, cubic=False)
    lower = np.minimum(positions.astype(np.int64), in_size - 1)
    upper = np.minimum(lower + 1, in_size - 1)
    fraction = np.clip(positions - lower, 0.0, 1.0)
    return np.stack([lower, upper], axis=1), np.stack([1.0 - fraction, fraction], axis=1)


def _cubic_taps(in_size, out_size, scale, align_corners):
    positions = _source_positions(in_size, out_size, align_corners, scale, cubic=True)
    base = np.minimum(np.floor(positions).astype(np.int64), in_size - 1)
    fraction = np.clip(positions - base, 0.0, 1.0)
    indices = np.clip(base[:, None] + np.arange(-1, 3), 0, in_size - 1)
    return indices, np.stack(_cubic_coefficients(fraction), axis=1)


def _area_taps(in_size, out_size, scale, align_corners):
    """Adaptive average pooling's windows: ``[floor(i*in/out), ceil((i+1)*in/out))``."""
    positions = np.arange(out_size)
    starts = positions * in_size // out_size
    ends = -(-(positions + 1) * in_size // out_size)
    width = int((ends - starts).max())
    indices = np.minimum(starts[:, None] + np.arange(width), in_size - 1)
    inside = starts[:, None] + np.arange(width) < ends[:, None]
    return indices, inside / (ends - starts)[:, None]


def _triangle(x):
    return np.maximum(0.0, 1.0 - np.abs(x))


def _lanczos(x):
    """Lanczos-3: ``sinc(x) * sinc(x / 3)`` inside ``|x| < 3``."""
    return np.where(np.abs(x) < 3.0, np.sinc(x) * np.sinc(x / 3.0), 0.0)


def _keys_cubic(x):
    x = np.abs(x)
    a = -0.5
    return np.where(x < 1.0, _cubic_near(x, a), np.where(x < 2.0, _cubic_far(x, a), 0.0))


def _antialias_taps(in_size, out_size, scale, align_corners, filter_function, support_radius):
    """PyTorch's antialiased weights: the filter stretched by the downscale factor."""
    ratio = _source_scale(in_size, out_size, align_corners, scale)
    support = support_radius * ratio if ratio >= 1.0 else float(support_radius)
    stretch = 1.0 / ratio if ratio >= 1.0 else 1.0
    centers = ratio * (np.arange(out_size) + 0.5)
    starts = np.maximum((centers - support + 0.5).astype(np.int64), 0)
    ends = np.minimum((centers + support + 0.5).astype(np.int64), in_size)
    width = max(int((ends - starts).max()), 1)
    taps = starts[:, None] + np.arange(width)
    weights = filter_function((taps - centers[:, None] + 0.5) * stretch)
    weights = np.where(taps < ends[:, None], weights, 0.0)
    totals = weights.sum(axis=1, keepdims=True)
    weights = np.divide(weights, totals, out=np.zeros_like(weights), where=totals != 0)
    return np.minimum(taps, in_size - 1), weights


def _antialiased(filter_function, support_radius):
    def taps(in_size, out_size, scale, align_corners):
        return _antialias_taps(in_size, out_size, scale, align_corners, filter_function,
                               support_radius)
    return taps


_TAPS = {"linear": _linear_taps, "bilinear": _linear_taps, "trilinear": _linear_taps,
         "bicubic": _cubic_taps, "area": _area_taps}
_ANTIALIASED_TAPS = {"bilinear": _antialiased(_triangle, 1),
                     "bicubic": _antialiased(_keys_cubic, 2), "lanczos": _antialiased(_lanczos, 3)}


def _resample_axis(input, axis: int, indices: np.ndarray, weights) -> Tensor:
    """Each output position along ``axis``: the weighted sum of its input taps."""
    count, taps = indices.shape
    gathered = index_select(input, axis, _index_constant(indices.reshape(-1), input))
    if weights is None:
        return gathered
    shape = tuple(input.shape)
    gathered = reshape(gathered, shape[:axis] + (count, taps) + shape[axis + 1:])
    weights = _constant(weights.reshape((count, taps) + (1,) * (len(shape) - axis - 1)), input)
    return sum(gathered * weights, dim=axis + 1)


# ----------------------------------------------------------------------------- interpolate

_LINEAR_MODES = ("linear", "bilinear", "trilinear")
_RANK_OF_MODE = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3, "lanczos": 2}
_MODES = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact",
          "lanczos")


def _interpolation_align_corners(mode: str, align_corners):
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
        return False
    return False if align_corners is None else bool(align_corners)


def _is_integer(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _output_geometry(input, size, scale_factor, mode, recompute_scale_factor, rank: int):
    """Output sizes and the scale factors handed to the kernels (None: from the sizes)."""
    spatial = list(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != rank:
                raise ValueError(
                    f"Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {spatial} and output size of {size}. "
                    f"Please provide input tensor in (N, C, d1, d2, ...,dK) format and output "
                    f"size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(n) for n in size):
                raise TypeError(f"expected size to be one of int or Tuple[int] or Tuple[int, int] "
                                f"or Tuple[int, int, int], but got size with types "
                                f"{[type(n) for n in size]}")
            sizes = [int(n) for n in size]
        elif _is_integer(size):
            sizes = [int(size)] * rank
        else:
            raise TypeError(f"expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                            f"Tuple[int, int, int], but got size of type {type(size).__name__}")
        if recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        return sizes, [None] * rank
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != rank:
            raise ValueError(
                f"Input and scale_factor must have the same number of spatial dimensions, but got "
                f"input with spatial dimensions of {spatial} and scale_factor of shape "
                f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                f"and scale_factor in (s1, s2, ...,sK) format.")
        factors = [float(s) for s in scale_factor]
    else:
        factors = [float(scale_factor)] * rank
    sizes = [math.floor(n * s) for n, s in zip(spatial, factors)]
    if recompute_scale_factor or mode == "area":
        return sizes, [None] * rank
    return sizes, factors


def _check_interpolation_mode(mode: str, ndim: int, antialias: bool,
                              align_corners: bool) -> None:
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes "
                         "and requires a 4-D tensor as input")
    wanted = _RANK_OF_MODE.get(mode)
    if mode in _MODES and 3 <= ndim <= 5 and wanted in (None, ndim - 2):
        if mode == "lanczos" and align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if mode == "lanczos" and not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
        return
    if mode in _LINEAR_MODES and 3 <= ndim <= 5:
        raise NotImplementedError(f"Got {ndim}D input, but {mode} mode needs {wanted + 2}D input")
    raise NotImplementedError(
        f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {ndim}D) for the modes: "
        f"nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact "
        f"(got {mode})")


def _check_sizes(spatial: list, sizes: list) -> None:
    if any(n <= 0 for n in spatial) or any(n <= 0 for n in sizes):
        names = "DHW"[3 - len(sizes):]
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"({_size_text(names, spatial)}) output ({_size_text(names, sizes)})")


def _axis_taps(mode: str, antialias: bool, rank: int):
    if mode in ("nearest", "nearest-exact"):
        exact, shortcuts = mode == "nearest-exact", mode == "nearest" and rank == 2
        return lambda in_size, out_size, scale, align_corners: _nearest_taps(
            in_size, out_size, scale, exact, shortcuts)
    return (_ANTIALIASED_TAPS if antialias else _TAPS)[mode]


@op(autocast="inputs")
def interpolate(input, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                recompute_scale_factor=None, antialias: bool = False):
    """Resize the spatial dimensions of ``(N, C, *spatial)`` input, PyTorch's ``F.interpolate``.

    Give ``size`` or ``scale_factor``. ``mode`` is ``'nearest'``, ``'nearest-exact'``,
    ``'linear'`` (3-D input), ``'bilinear'``/``'bicubic'`` (4-D), ``'trilinear'`` (5-D) or
    ``'area'`` (adaptive average pooling). ``antialias=True`` (bilinear/bicubic, and
    ``'lanczos'``, which requires it) widens the filter when downsampling.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> x = ug.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> F.interpolate(x, scale_factor=2, mode="nearest")
        tensor([[[[1., 1., 2., 2.],
                  [1., 1., 2., 2.],
                  [3., 3., 4., 4.],
                  [3., 3., 4., 4.]]]])
        >>> F.interpolate(x, size=(3, 3), mode="bilinear", align_corners=True)
        tensor([[[[1.0000, 1.5000, 2.0000],
                  [2.0000, 2.5000, 3.0000],
                  [3.0000, 3.5000, 4.0000]]]])
    """
    align_corners = _interpolation_align_corners(mode, align_corners)
    ndim = len(input.shape)
    rank = ndim - 2
    sizes, scales = _output_geometry(input, size, scale_factor, mode, recompute_scale_factor,
                                     rank)
    _check_interpolation_mode(mode, ndim, antialias, align_corners)
    if mode not in ("nearest", "nearest-exact") and not input.dtype.is_floating_point:
        raise NotImplementedError(f"interpolate(): mode '{mode}' needs a floating-point input, "
                                  f"but got input of dtype {input.dtype}")
    spatial = list(input.shape[2:])
    _check_sizes(spatial, sizes)
    taps = _axis_taps(mode, antialias, rank)
    output = input
    for axis, (in_size, out_size, scale) in enumerate(zip(spatial, sizes, scales)):
        if out_size == in_size and (mode in _LINEAR_MODES or antialias):
            continue  # PyTorch's linear and antialiased kernels copy an unchanged axis
        indices, weights = taps(in_size, out_size, scale, align_corners)
        output = _resample_axis(output, axis + 2, indices, weights)
    return output


def upsample(input, size=None, scale_factor=None, mode: str = "nearest", align_corners=None):
    """Deprecated spelling of :func:`interpolate` (warns, as PyTorch does).

    Example:
        >>> import warnings
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     F.upsample(ug.tensor([[[1.0, 2.0]]]), scale_factor=2)
        tensor([[[1., 1., 2., 2.]]])
    """
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: :func:`interpolate` with ``mode='nearest'`` (warns, as PyTorch does).

    Example:
        >>> import warnings
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     F.upsample_nearest(ug.tensor([[[1.0, 2.0]]]), size=3)
        tensor([[[1., 1., 2.]]])
    """
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: :func:`interpolate` with ``mode='bilinear', align_corners=True`` (warns).

    Example:
        >>> import warnings
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     F.upsample_bilinear(ug.tensor([[[[0.0, 2.0]]]]), size=(1, 3))
        tensor([[[[0., 1., 2.]]]])
    """
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ----------------------------------------------------------------------------- grid_sample

_GRID_MODES = ("bilinear", "nearest", "bicubic")
_GRID_PADDINGS = ("zeros", "border", "reflection")
_ALIGN_CORNERS_WARNING = ("Default grid_sample and affine_grid behavior has changed to "
                          "align_corners=False since 1.3.0. Please specify align_corners=True if "
                          "the old behavior is desired. See the documentation of grid_sample for "
                          "details.")


def _grid_align_corners(align_corners) -> bool:
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, stacklevel=3)
        return False
    return bool(align_corners)


def _check_grid(input, grid, mode: str) -> None:
    input_shape, grid_shape = list(input.shape), list(grid.shape)
    ndim = len(input_shape)
    if ndim not in (4, 5) or len(grid_shape) != ndim:
        expected = f"{ndim}D" if ndim in (4, 5) else "4D or 5D"
        raise RuntimeError(f"grid_sampler(): expected {expected} input and grid with same number "
                           f"of dimensions, but got input with sizes {input_shape} and grid with "
                           f"sizes {grid_shape}")
    if input_shape[0] != grid_shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but "
                           f"got input with sizes {input_shape} and grid with sizes {grid_shape}")
    if grid_shape[-1] != ndim - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {ndim - 2} in last "
                           f"dimension, but got grid with sizes {grid_shape}")
    if input.dtype != grid.dtype:
        raise RuntimeError(f"grid_sampler(): expected input and grid to have same dtype, but got "
                           f"input with dtype {input.dtype} and grid with dtype {grid.dtype}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"grid_sampler(): expected floating-point input and grid, but "
                                  f"got dtype {input.dtype}")
    if mode == "bicubic" and ndim != 4:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if any(n <= 0 for n in input_shape[2:]):
        raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial dimensions, "
                           f"but input has sizes {input_shape}")


def _unnormalize(coordinate, size: int, align_corners: bool):
    """Grid values in [-1, 1] as pixel positions."""
    if align_corners:
        return (coordinate + 1) / 2 * (size - 1)
    return ((coordinate + 1) * size - 1) / 2


def _clip(coordinate, size: int):
    """Clamp to ``[0, size - 1]``; the gradient is zero on and beyond the edges, as PyTorch's."""
    return where(coordinate > 0, where(coordinate < size - 1, coordinate, float(size - 1)), 0.0)


def _reflect(coordinate, twice_low: int, twice_high: int):
    """Reflect about the borders ``twice_low / 2`` and ``twice_high / 2`` until inside."""
    if twice_low == twice_high:
        return coordinate * 0.0
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    distance = abs(coordinate - low)
    extra = fmod(distance, span)
    flips = floor(distance / span)
    return where(fmod(flips, 2.0) == 0, extra + low, span - extra + low)


def _pad_coordinate(coordinate, size: int, padding_mode: str, align_corners: bool):
    if padding_mode == "border":
        return _clip(coordinate, size)
    if padding_mode == "reflection":
        bounds = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        return _clip(_reflect(coordinate, *bounds), size)
    return coordinate


def _axis_grid_taps(coordinate, size: int, mode: str, padding_mode: str, align_corners: bool):
    """Tap positions and weights along one axis, each (N, taps, points); the positions are
    float tensors without gradient, the weights carry the grid's gradient."""
    position = _unnormalize(coordinate, size, align_corners)
    if mode == "bicubic":
        base = floor(position)
        offsets = _constant(np.arange(-1.0, 3.0).reshape(1, 4, 1), position)
        taps = _pad_coordinate(unsqueeze(base, 1) + offsets, size, padding_mode, align_corners)
        taps = taps if padding_mode == "zeros" else floor(taps)
        return taps, stack(_cubic_coefficients(position - base), dim=1)
    position = _pad_coordinate(position, size, padding_mode, align_corners)
    if mode == "nearest":
        # a zero-valued dependence on the grid: its gradient is zeros (not None), as PyTorch's
        return unsqueeze(round(position), 1), unsqueeze(position * 0.0 + 1.0, 1)
    base = floor(position)
    fraction = position - base
    return stack([base, base + 1], dim=1), stack([1 - fraction, fraction], dim=1)


def _axis_table(coordinate, size: int, stride: int, mode: str, padding_mode: str,
                align_corners: bool):
    """Flat-index offsets (int64) and weights of one axis's taps; zero weight outside."""
    positions, weights = _axis_grid_taps(coordinate, size, mode, padding_mode, align_corners)
    inside = logical_and(positions >= 0, positions <= size - 1)
    offsets = cast(where(inside, positions, 0.0), "int64") * stride
    return offsets, where(inside, weights, 0.0)


def _outer_taps(tables: list, batch: int, points: int):
    """All tap combinations of the axes: summed index offsets and multiplied weights,
    each (N, taps, points)."""
    rank = len(tables)
    index, weight = None, None
    for axis, (offsets, weights) in enumerate(tables):
        taps = offsets.shape[1]
        shape = (batch,) + tuple(taps if a == axis else 1 for a in range(rank)) + (points,)
        offsets, weights = reshape(offsets, shape), reshape(weights, shape)
        index = offsets if index is None else index + offsets
        weight = weights if weight is None else weight * weights
    count = math.prod(index.shape[1:-1])
    return reshape(index, (batch, count, points)), reshape(weight, (batch, count, points))


@op(autocast="float32")
def grid_sample(input, grid, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners=None):
    """Sample ``input`` (N, C, H, W) or (N, C, D, H, W) at the ``grid`` points, PyTorch's way.

    ``grid`` is (N, H_out, W_out, 2) (or (N, D_out, H_out, W_out, 3)) holding ``(x, y[, z])``
    in [-1, 1]; ``mode`` is ``'bilinear'``, ``'nearest'`` or ``'bicubic'`` (4-D only);
    ``padding_mode`` is ``'zeros'``, ``'border'`` or ``'reflection'``. Differentiable with
    respect to ``input`` and ``grid``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> image = ug.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> F.grid_sample(image, ug.tensor([[[[0.0, 0.0], [1.0, -1.0]]]]), align_corners=True)
        tensor([[[[2.5000, 2.0000]]]])
    """
    if mode not in _GRID_MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in _GRID_PADDINGS:
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    align_corners = _grid_align_corners(align_corners)
    _check_grid(input, grid, mode)
    batch, channels, *sizes = tuple(input.shape)
    out_spatial = tuple(grid.shape[1:-1])
    rank = len(sizes)
    points = math.prod(out_spatial)
    strides = [math.prod(sizes[axis + 1:]) for axis in range(rank)]
    tables = [_axis_table(reshape(grid[..., rank - 1 - axis], (batch, points)), size, stride,
                          mode, padding_mode, align_corners)
              for axis, (size, stride) in enumerate(zip(sizes, strides))]
    index, weight = _outer_taps(tables, batch, points)
    count = index.shape[1]
    index = expand(reshape(index, (batch, 1, count * points)), (batch, channels, count * points))
    values = gather(reshape(input, (batch, channels, math.prod(sizes))), 2, index)
    values = reshape(values, (batch, channels, count, points))
    output = sum(values * unsqueeze(weight, 1), dim=2)
    return reshape(output, (batch, channels) + out_spatial)


def _base_coordinates(steps: int, align_corners: bool) -> np.ndarray:
    if steps <= 1:
        return np.zeros(1)
    line = np.linspace(-1.0, 1.0, steps)
    return line if align_corners else line * (steps - 1) / steps


def affine_grid(theta, size, align_corners=None):
    """The sampling grid of a batch of affine maps ``theta`` for :func:`grid_sample`.

    ``theta`` is (N, 2, 3) for ``size = (N, C, H, W)`` or (N, 3, 4) for
    ``size = (N, C, D, H, W)``; the grid is (N, H, W, 2) or (N, D, H, W, 3).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> theta = ug.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> F.affine_grid(theta, (1, 1, 2, 2), align_corners=True)
        tensor([[[[-1., -1.],
                  [ 1., -1.]],
        <BLANKLINE>
                 [[-1.,  1.],
                  [ 1.,  1.]]]])
    """
    align_corners = _grid_align_corners(align_corners)
    if not theta.dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    sizes = [int(n) for n in size]
    if len(sizes) not in (4, 5):
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    rank = len(sizes) - 2
    if len(theta.shape) != 3 or tuple(theta.shape[1:]) != (rank, rank + 1):
        kind = "2D affine matrices of shape Nx2x3" if rank == 2 else \
            "3D affine matrices of shape Nx3x4"
        raise ValueError(f"Expected a batch of {kind} for size {size}. Got "
                         f"{_torch_size(theta.shape)}.")
    spatial = sizes[2:]
    if align_corners and min(spatial) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids "
                      "when align_corners=True. This is not an intended use case of affine_grid. "
                      "See the documentation of affine_grid for details.", stacklevel=2)
    elif min(sizes) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    if theta.shape[0] != sizes[0]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{sizes[0]}, {rank + 1}] but got: [{theta.shape[0]}, {rank + 1}].")
    # (x, y[, z], 1) per output point; x runs along the last spatial axis
    lines = [_base_coordinates(n, align_corners) for n in reversed(spatial)]
    mesh = list(np.meshgrid(*lines[::-1], indexing="ij"))[::-1]
    base = np.stack(mesh + [np.ones(spatial)], axis=-1).reshape(1, -1, rank + 1)
    grid = matmul(_constant(base, theta), transpose_axes(theta, (0, 2, 1)))
    return reshape(grid, (sizes[0],) + tuple(spatial) + (rank,))


def _torch_size(shape) -> str:
    return f"torch.Size({list(shape)})"


# ----------------------------------------------------------------------------- shuffles

def _check_shuffle_input(input, name: str) -> None:
    if len(input.shape) < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input "
                           f"with {len(input.shape)} dimension(s)")


def _check_factor(factor, name: str, argument: str) -> int:
    if not _is_integer(factor):
        raise TypeError(f"{name}(): argument '{argument}' must be int, not "
                        f"{type(factor).__name__}")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {argument}, but got {factor}")
    return int(factor)


def pixel_shuffle(input, upscale_factor: int):
    """``(*, C * r**2, H, W)`` -> ``(*, C, H * r, W * r)``: channels become sub-pixels.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.pixel_shuffle(ug.arange(4.0).reshape(1, 4, 1, 1), 2)
        tensor([[[[0., 1.],
                  [2., 3.]]]])
    """
    _check_shuffle_input(input, "pixel_shuffle")
    factor = _check_factor(upscale_factor, "pixel_shuffle", "upscale_factor")
    *lead, channels, height, width = tuple(input.shape)
    if channels % (factor * factor):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be "
                           f"divisible by the square of upscale_factor, but input.size(-3)="
                           f"{channels} is not divisible by {factor * factor}")
    lead = tuple(lead)
    split = reshape(input, lead + (channels // factor ** 2, factor, factor, height, width))
    start = len(lead)
    moved = transpose_axes(split, tuple(range(start)) + tuple(
        start + axis for axis in (0, 3, 1, 4, 2)))
    return reshape(moved, lead + (channels // factor ** 2, height * factor, width * factor))


def pixel_unshuffle(input, downscale_factor: int):
    """``(*, C, H * r, W * r)`` -> ``(*, C * r**2, H, W)``, the inverse of pixel_shuffle.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.pixel_unshuffle(ug.arange(4.0).reshape(1, 1, 2, 2), 2).flatten()
        tensor([0., 1., 2., 3.])
    """
    _check_shuffle_input(input, "pixel_unshuffle")
    factor = _check_factor(downscale_factor, "pixel_unshuffle", "downscale_factor")
    *lead, channels, height, width = tuple(input.shape)
    for name, axis, extent in (("height", -2, height), ("width", -1, width)):
        if extent % factor:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by "
                               f"downscale_factor, but input.size({axis})={extent} is not "
                               f"divisible by {factor}")
    lead = tuple(lead)
    split = reshape(input, lead + (channels, height // factor, factor, width // factor, factor))
    start = len(lead)
    moved = transpose_axes(split, tuple(range(start)) + tuple(
        start + axis for axis in (0, 2, 4, 1, 3)))
    return reshape(moved, lead + (channels * factor * factor, height // factor, width // factor))


def channel_shuffle(input, groups: int):
    """Interleave the channels of ``(N, C, *)`` input across ``groups`` (ShuffleNet's shuffle).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.channel_shuffle(ug.arange(4.0).reshape(1, 4, 1), 2).flatten()
        tensor([0., 2., 1., 3.])
    """
    shape = tuple(input.shape)
    if len(shape) <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {list(shape)}")
    if not _is_integer(groups):
        raise TypeError(f"channel_shuffle(): argument 'groups' must be int, not "
                        f"{type(groups).__name__}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    batch, channels, *rest = shape
    if channels % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {channels} "
                           f"channels and {groups} groups.")
    split = reshape(input, (batch, int(groups), channels // groups) + tuple(rest))
    moved = transpose_axes(split, (0, 2, 1) + tuple(range(3, len(shape) + 1)))
    return reshape(moved, shape)


def native_channel_shuffle(input, groups: int):
    """The same as :func:`channel_shuffle` (PyTorch's native kernel name).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.native_channel_shuffle(ug.arange(6.0).reshape(1, 6, 1), 3).flatten()
        tensor([0., 2., 4., 1., 3., 5.])
    """
    return channel_shuffle(input, groups)


__all__ = ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear", "grid_sample",
           "affine_grid", "pixel_shuffle", "pixel_unshuffle", "channel_shuffle",
           "native_channel_shuffle"]
