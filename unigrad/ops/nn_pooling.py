"""Pooling: max/avg/lp pools in 1, 2 and 3 dimensions, adaptive and fractional pools,
max_unpool (``torch.nn.functional``'s signatures).

Every pool works on the trailing ``rank`` axes, so ``(N, C, *spatial)`` and
unbatched ``(C, *spatial)`` inputs share one code path. Max pools find each
window's first maximum (PyTorch's scan order) with one ``argmax`` over the
windows, then gather the input at those flat indices: values, indices and the
gradient (all of it to the chosen element) are PyTorch's. Average pools are a
window sum over :func:`~unigrad.ops.nn_convolution.unfold_windows`; adaptive
average pools are one small averaging matrix product per axis.

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> x = ug.tensor([[[1.0, 5.0, 2.0, 4.0, 3.0, 0.0]]])
    >>> F.max_pool1d(x, 2, return_indices=True)
    (tensor([[[5., 4., 3.]]]), tensor([[[1, 3, 4]]]))
    >>> F.adaptive_avg_pool1d(x, 2)
    tensor([[[2.6667, 2.3333]]])
"""

from __future__ import annotations

import math

import numpy as np

from .. import _state
from ..autograd.node import present_as
from ..backend import int64, namespace_of, to_numpy_dtype
from ..tensor import Tensor
from ._dtypes import float_operand
from .creation import arange, rand, tensor, zeros
from .elementwise import abs, cast, pow, where
from .indexing import gather, index_select
from .linalg import matmul
from .nn_convolution import (
    _tuple_argument,
    _unfold_impl,
    _validate_reduction_free,
    unfold_windows,
)
from .reduce import argmax, mean, sum
from .registry import op
from .scatter import scatter
from .shape import moveaxis, permute, reshape, squeeze, unsqueeze

_RANK_NAMES = {1: "1d", 2: "2d", 3: "3d"}

# ----------------------------------------------------------------------------- shared helpers


def _check_input(input, rank: int, name: str) -> tuple:
    """The input's shape, refused unless it is ``(N, C, *spatial)`` or ``(C, *spatial)``."""
    shape = tuple(input.shape)
    if len(shape) not in (rank + 1, rank + 2) or 0 in shape[-rank - 1:]:
        raise RuntimeError(f"{name}(): Expected {rank + 1}D or {rank + 2}D input tensor (batch "
                           f"mode) with non-zero sizes for the non-batch dimensions, but got "
                           f"input of size {list(shape)}")
    return shape


def _stride_argument(stride, kernel: tuple, rank: int, context: str) -> tuple:
    """``stride`` as a tuple; None (or empty) means the kernel size, as in PyTorch."""
    if stride is None or (isinstance(stride, (tuple, list)) and len(stride) == 0):
        return kernel
    return _tuple_argument(stride, rank, "stride", context)


def _pool_geometry(input, kernel_size, stride, padding, dilation, ceil_mode, rank: int,
                   name: str):
    """Window parameters and ``(before, after)`` padding (``after`` covers ceil_mode overhang)."""
    shape = _check_input(input, rank, name)
    kernel = _tuple_argument(kernel_size, rank, "kernel_size", "pooling")
    stride = _stride_argument(stride, kernel, rank, "pooling")
    amounts = _tuple_argument(padding, rank, "padding", "pooling")
    dilation = _tuple_argument(dilation, rank, "dilation", "pooling")
    if any(k <= 0 for k in kernel):
        raise RuntimeError(f"{name}: kernel size should be greater than zero, but got "
                           f"kernel_size={list(kernel)}")
    _validate_reduction_free(stride, dilation, amounts)
    for p, k, d in zip(amounts, kernel, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(f"{name}: pad should be at most half of effective kernel size, "
                               f"but got pad={p}, kernel_size={k} and dilation={d}")
    counts, pairs = [], []
    for n, k, s, p, d in zip(shape[-rank:], kernel, stride, amounts, dilation):
        span = n + 2 * p - d * (k - 1) - 1
        count = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (count - 1) * s >= n + p:
            count -= 1
        counts.append(count)
        overhang = max(0, (count - 1) * s + d * (k - 1) + 1 - n - 2 * p)
        pairs.append((p, p + overhang))
    if any(c < 1 for c in counts):
        raise RuntimeError(f"{name}: given input size: ({'x'.join(map(str, shape[-rank - 1:]))})."
                           f" Calculated output size: "
                           f"({'x'.join(map(str, shape[-rank - 1:-rank] + tuple(counts)))}). "
                           f"Output size is too small")
    return kernel, stride, dilation, tuple(pairs)


def _device_of(input):
    return input.device if isinstance(input, Tensor) else None


def _gather_planes(input, indices, rank: int):
    """``input`` at the flat per-plane ``indices`` (shape ``(*lead, *counts)``)."""
    lead = tuple(input.shape[:-rank])
    plane = math.prod(input.shape[-rank:])
    counts = tuple(indices.shape[-rank:])
    flat_input = reshape(input, lead + (plane,))
    flat_indices = reshape(indices, lead + (math.prod(counts),))
    return reshape(gather(flat_input, -1, flat_indices), lead + counts)


def _flat_positions(positions: list, spatial: tuple):
    """Row-major flat index of per-axis positions (broadcastable integer tensors)."""
    flat = positions[0]
    for position, size in zip(positions[1:], spatial[1:]):
        flat = flat * size + position
    return flat


def _axis_column(values, axis: int, rank: int):
    """A 1-D tensor shaped to broadcast along window axis ``axis`` of ``rank`` trailing axes."""
    return reshape(values, (values.shape[0],) + (1,) * (rank - axis - 1))


def _unravel(offset, extents: tuple) -> list:
    """Per-axis positions of row-major flat ``offset`` (an integer tensor) in ``extents``."""
    return [(offset // math.prod(extents[axis + 1:])) % extent
            for axis, extent in enumerate(extents)]


def _window_argmax(columns, spatial: tuple, kernel: tuple, stride: tuple, dilation: tuple,
                   padding: tuple):
    """Flat per-plane index of each window's first maximum (columns from ``unfold_windows``)."""
    rank = len(kernel)
    lead = tuple(columns.shape[:-2 * rank])
    counts = tuple(columns.shape[-rank:])
    offset = argmax(reshape(columns, lead + (math.prod(kernel),) + counts), dim=-rank - 1)
    positions = []
    for axis, tap in enumerate(_unravel(offset, kernel)):
        start = arange(counts[axis], device=_device_of(columns)) * stride[axis] - padding[axis][0]
        positions.append(_axis_column(start, axis, rank) + tap * dilation[axis])
    return _flat_positions(positions, spatial)


# ----------------------------------------------------------------------------- max pooling

def _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, rank: int):
    """``(output, indices)`` of an N-d max pool; padding counts as ``-inf``."""
    input, operand = _lifted(float_operand(input), rank)
    name = f"max_pool{_RANK_NAMES[rank]}"
    kernel, stride, dilation, pairs = _pool_geometry(input, kernel_size, stride, padding,
                                                     dilation, ceil_mode, rank, name)
    columns = unfold_windows(input, kernel, stride, dilation, pairs, -math.inf)
    indices = _window_argmax(columns, tuple(input.shape[-rank:]), kernel, stride, dilation,
                             pairs)
    return _presented(_gather_planes(input, indices, rank), "MaxPool{}DWithIndicesBackward0",
                      rank, operand), indices


def _lifted(input, rank: int):
    """``(input to pool, the pool's operand in PyTorch's graph)``.

    PyTorch's 1-d pools are 2-d pools of ``input.unsqueeze(-2)``, squeezed after: while a
    graph is recorded, a 1-d pool here pools that unsqueeze, viewed back to ``input``'s shape,
    which is the operand (None when nothing is recorded: no extra nodes). A 2-d or 3-d pool's
    operand is ``input`` itself.
    """
    if rank > 1:
        return input, input
    if not (_state.local.grad_enabled and isinstance(input, Tensor) and input._requires_grad
            and len(input.shape) in (2, 3)):
        return input, None
    lifted = unsqueeze(input, -2)
    return reshape(lifted, tuple(input.shape)), lifted


def _presented(output, name: str, rank: int, operand):
    """``output`` shown as PyTorch's pool node (``name`` with a ``{}`` for the rank) over
    ``operand`` (from :func:`_lifted`); a 1-d pool's output as a 2-d pool's, squeezed."""
    if rank > 1:
        return present_as(output, name.format(rank), operand)
    if operand is None:
        return output
    shape = tuple(output.shape)
    output = reshape(output, shape[:-1] + (1,) + shape[-1:])
    return squeeze(present_as(output, name.format(2), operand), -2)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode: bool = False, return_indices: bool = False):
    """1-D max pooling returning ``(output, indices)`` whatever ``return_indices`` says.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.max_pool1d_with_indices(ug.tensor([[3.0, 1.0, 4.0, 1.0]]), 2)
        (tensor([[3., 4.]]), tensor([[0, 2]]))
    """
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 1)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode: bool = False, return_indices: bool = False):
    """2-D max pooling returning ``(output, indices)``; indices are flat in each ``H * W`` plane.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.max_pool2d_with_indices(ug.tensor([[[1.0, 3.0], [4.0, 2.0]]]), 2)
        (tensor([[[4.]]]), tensor([[[2]]]))
    """
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 2)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode: bool = False, return_indices: bool = False):
    """3-D max pooling returning ``(output, indices)``; indices are flat in each ``D*H*W`` volume.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.max_pool3d_with_indices(ug.arange(8.0).reshape(1, 2, 2, 2), 2)
        (tensor([[[[7.]]]]), tensor([[[[7]]]]))
    """
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 3)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """1-D max pooling over ``(N, C, L)`` or ``(C, L)``; padding counts as ``-inf``.

    Each window's gradient goes to its first maximum, as in PyTorch;
    ``return_indices=True`` also returns that element's index along ``L``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.max_pool1d(ug.tensor([[1.0, 3.0, 2.0, 0.0, 5.0]]), 2, padding=1)
        tensor([[1., 3., 5.]])
    """
    output, indices = _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 1)
    return (output, indices) if return_indices else output


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """2-D max pooling over ``(N, C, H, W)`` or ``(C, H, W)``; padding counts as ``-inf``.

    The gradient of each window goes to its first maximum, as in PyTorch.
    ``return_indices=True`` also returns each maximum's flat index in its
    ``H * W`` plane.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.max_pool2d(ug.tensor([[[1.0, 3.0], [4.0, 2.0]]]), 2)
        tensor([[[4.]]])
    """
    output, indices = _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 2)
    return (output, indices) if return_indices else output


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """3-D max pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)``; padding counts as ``-inf``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.max_pool3d(ug.arange(27.0).reshape(1, 3, 3, 3), 2, stride=1)[0, 0]
        tensor([[13., 14.],
                [16., 17.]])
    """
    output, indices = _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 3)
    return (output, indices) if return_indices else output


# ----------------------------------------------------------------------------- average pooling

def _pool_divisor(spatial, kernel, stride, padding, declared, count_include_pad, xp, dtype):
    """How many positions each average-pool window divides by (PyTorch's rule)."""
    divisor = None
    for n, k, s, (before, after), p in zip(spatial, kernel, stride, padding, declared):
        counted = xp.zeros(n + before + after, dtype=dtype)
        counted[before - p if count_include_pad else before:before + n + (p if count_include_pad
                                                                          else 0)] = 1
        windows = _unfold_impl(counted, (k,), (s,), (1,), ((0, 0),), 0.0).sum(axis=0)
        divisor = windows if divisor is None else divisor[..., None] * windows
    return divisor


def _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override, rank: int):
    input, operand = _lifted(float_operand(input), rank)
    name = f"avg_pool{_RANK_NAMES[rank]}"
    declared = _tuple_argument(padding, rank, "padding", "pooling")
    kernel, stride, dilation, padding = _pool_geometry(input, kernel_size, stride, padding, 1,
                                                       ceil_mode, rank, name)
    columns = unfold_windows(input, kernel, stride, dilation, padding)
    window_axes = tuple(range(-2 * rank, -rank))
    if divisor_override is not None:
        if divisor_override == 0:
            raise RuntimeError(f"{name}: divisor must be not zero")
        output = sum(columns, dim=window_axes) / float(divisor_override)
        return _presented(output, "AvgPool{}DBackward0", rank, operand)
    uniform = all(after == p for (_, after), p in zip(padding, declared)) and (
        count_include_pad or not any(declared))
    if uniform:
        return _presented(mean(columns, dim=window_axes), "AvgPool{}DBackward0", rank, operand)
    data = input._data if isinstance(input, Tensor) else input
    divisor = _pool_divisor(tuple(input.shape[-rank:]), kernel, stride, padding, declared,
                            count_include_pad, namespace_of(data), data.dtype)
    output = sum(columns, dim=window_axes) / Tensor(divisor)
    return _presented(output, "AvgPool{}DBackward0", rank, operand)


@op(autocast="inputs")
def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True):
    """1-D average pooling over ``(N, C, L)`` or ``(C, L)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.avg_pool1d(ug.tensor([[1.0, 3.0, 2.0, 0.0, 5.0]]), 2, ceil_mode=True)
        tensor([[2., 1., 5.]])
    """
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1)


@op(autocast="inputs")
def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None):
    """2-D average pooling over ``(N, C, H, W)`` or ``(C, H, W)``.

    ``count_include_pad`` counts zero padding in each window's divisor;
    windows that ``ceil_mode`` lets overhang the input never count the overhang.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.avg_pool2d(ug.tensor([[[1.0, 3.0], [4.0, 2.0]]]), 2)
        tensor([[[2.5000]]])
    """
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 2)


@op(autocast="inputs")
def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None):
    """3-D average pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.avg_pool3d(ug.arange(8.0).reshape(1, 2, 2, 2), 2, divisor_override=2)
        tensor([[[[14.]]]])
    """
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 3)


# ----------------------------------------------------------------------------- power-average

def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, rank: int):
    """PyTorch's power-average pool: ``(sum over the window of x ** p) ** (1 / p)``."""
    kernel = _tuple_argument(kernel_size, rank, "kernel_size", "pooling")
    if norm_type == math.inf:
        return _max_pool(abs(input), kernel_size, stride, 0, 1, ceil_mode, rank)[0]
    if norm_type == -math.inf:
        return -_max_pool(-abs(input), kernel_size, stride, 0, 1, ceil_mode, rank)[0]
    averaged = _avg_pool(pow(input, norm_type), kernel_size, stride, 0, ceil_mode, True, None,
                         rank)
    # a window whose powers sum to zero has output zero and, as in PyTorch, gradient zero
    nonzero = averaged != 0
    safe = where(nonzero, averaged, 1.0)
    return where(nonzero, pow(safe * math.prod(kernel), 1.0 / norm_type), 0.0)


@op(autocast="float32")
def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode: bool = False):
    """1-D power-average pooling: each window's ``(sum x ** norm_type) ** (1 / norm_type)``.

    ``norm_type=inf`` is max pooling of ``|x|``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.lp_pool1d(ug.tensor([[3.0, 4.0, 1.0, 1.0]]), 2, 2)
        tensor([[5.0000, 1.4142]])
    """
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


@op(autocast="float32")
def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode: bool = False):
    """2-D power-average pooling over ``(N, C, H, W)`` or ``(C, H, W)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.lp_pool2d(ug.tensor([[[3.0, 0.0], [0.0, 4.0]]]), 2, 2)
        tensor([[[5.]]])
    """
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


@op(autocast="float32")
def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode: bool = False):
    """3-D power-average pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.lp_pool3d(ug.ones(1, 2, 2, 2), 1, 2)
        tensor([[[[8.]]]])
    """
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


# ----------------------------------------------------------------------------- max unpooling

def _unpool_size(shape: tuple, kernel: tuple, stride: tuple, padding: tuple, output_size,
                 name: str) -> tuple:
    """The unpooled spatial size: PyTorch's default, or ``output_size`` checked against it."""
    rank = len(kernel)
    default = tuple((n - 1) * s + k - 2 * p for n, k, s, p in
                    zip(shape[-rank:], kernel, stride, padding))
    if output_size is None:
        sizes = default
    else:
        sizes = tuple(output_size)
        if len(sizes) == rank + 2:
            sizes = sizes[2:]
        if len(sizes) != rank:
            raise ValueError(f"{name}: output_size should be a sequence containing {rank} or "
                             f"{rank + 2} elements, but it has a length of '{len(sizes)}'")
        for axis, (size, base, s) in enumerate(zip(sizes, default, stride)):
            if not base - s < size < base + s:
                raise ValueError(f'{name}: invalid output_size "{list(output_size)}" (dim {axis} '
                                 f'must be between {base - s} and {base + s})')
    if any(size < 0 for size in sizes):
        raise ValueError(f"{name}: output_size must contain non-negative spatial dimensions, "
                         f"but got {list(sizes)}")
    return tuple(int(size) for size in sizes)


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, rank: int):
    name = f"max_unpool{_RANK_NAMES[rank]}"
    shape = _check_input(input, rank, name)
    input, operand = _lifted(input, rank)
    if tuple(indices.shape) != shape:
        raise RuntimeError(f"{name}: expected shape of indices to be same as that of the input "
                           f"tensor ({list(shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")
    if indices.dtype.is_floating_point or indices.dtype.is_complex:
        raise RuntimeError(f"{name}: expected indices to have an integer dtype, but got "
                           f"{indices.dtype}")
    kernel = _tuple_argument(kernel_size, rank, "kernel_size", name)
    stride = _stride_argument(stride, kernel, rank, name)
    padding = _tuple_argument(padding, rank, "padding", name)
    spatial = _unpool_size(shape, kernel, stride, padding, output_size, name)
    plane = math.prod(spatial)
    lead = shape[:-rank]
    flat_indices = reshape(indices, lead + (math.prod(shape[-rank:]),))
    data = flat_indices._data
    if isinstance(data, np.ndarray) and data.size and (data.min() < 0 or data.max() >= plane):
        bad = int(data.max()) if data.max() >= plane else int(data.min())
        raise RuntimeError(f"{name}: Found an invalid max index: {bad} (output volumes are of "
                           f"size {'x'.join(map(str, spatial))})")
    flat_output = zeros(lead + (plane,), dtype=input.dtype, device=_device_of(input))
    values = reshape(input, tuple(flat_indices.shape))
    flat_output = scatter(flat_output, -1, flat_indices, values)
    return _presented(reshape(flat_output, lead + spatial), "MaxUnpool{}DBackward0", rank,
                      operand)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of :func:`max_pool1d`: each value goes to its index, the rest are zero.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> x = ug.tensor([[[1.0, 5.0, 2.0, 4.0]]])
        >>> F.max_unpool1d(*F.max_pool1d(x, 2, return_indices=True), 2)
        tensor([[[0., 5., 0., 4.]]])
    """
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of :func:`max_pool2d` over ``(N, C, H, W)`` or ``(C, H, W)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.max_unpool2d(ug.tensor([[[7.0]]]), ug.tensor([[[2]]]), 2)
        tensor([[[0., 0.],
                 [7., 0.]]])
    """
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Partial inverse of :func:`max_pool3d` over ``(N, C, D, H, W)`` or ``(C, D, H, W)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.max_unpool3d(ug.tensor([[[[7.0]]]]), ug.tensor([[[[7]]]]), 2).flatten()
        tensor([0., 0., 0., 0., 0., 0., 0., 7.])
    """
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


# ----------------------------------------------------------------------------- adaptive pools

def _adaptive_sizes(shape: tuple, output_size, rank: int, name: str) -> tuple:
    """``output_size`` as a ``rank``-tuple; a None entry keeps that axis' input size."""
    if output_size is None or isinstance(output_size, (int, np.integer)):
        items = (output_size,) * rank
    elif isinstance(output_size, (tuple, list)) and len(output_size) in (1, rank):
        items = tuple(output_size) * (rank // len(output_size))
    else:
        raise RuntimeError(f"{name}: output_size must be an int, None or a sequence of {rank} "
                           f"values, but got output_size={output_size!r}")
    sizes = []
    for item, length in zip(items, shape[-rank:]):
        if item is None:
            item = length
        if isinstance(item, bool) or not isinstance(item, (int, np.integer)) or item < 0:
            raise RuntimeError(f"{name}: elements of output_size must be non-negative integers "
                               f"or None, but got output_size={output_size!r}")
        sizes.append(int(item))
    return tuple(sizes)


def _adaptive_bounds(length: int, size: int) -> tuple:
    """PyTorch's windows: ``[floor(i * L / size), ceil((i + 1) * L / size))`` for each ``i``."""
    positions = np.arange(size)
    starts = positions * length // size
    ends = -(-(positions + 1) * length // size)
    return starts, ends


def _adaptive_input(input, output_size, rank: int, name: str):
    shape = _check_input(input, rank, name)
    return shape, _adaptive_sizes(shape, output_size, rank, name)


def _adaptive_avg_pool(input, output_size, rank: int):
    input, operand = _lifted(float_operand(input), rank)
    name = f"adaptive_avg_pool{_RANK_NAMES[rank]}"
    shape, sizes = _adaptive_input(input, output_size, rank, name)
    dtype = to_numpy_dtype(input.dtype)
    output = input
    for axis, (length, size) in enumerate(zip(shape[-rank:], sizes)):
        starts, ends = _adaptive_bounds(length, size)
        positions = np.arange(length)
        inside = (positions >= starts[:, None]) & (positions < ends[:, None])
        averaging = (inside / (ends - starts)[:, None]).T.astype(dtype)
        dim = axis - rank
        moved = moveaxis(output, dim, -1)
        pooled = matmul(moved, tensor(averaging, device=_device_of(input)))
        output = moveaxis(pooled, -1, dim)
    if all(size == 1 for size in sizes):  # PyTorch: input.mean(spatial dims, keepdim=True)
        return _presented(output, "MeanBackward1", rank, operand)
    return _presented(output, "AdaptiveAvgPool{}DBackward0", rank, operand)


@op(autocast="inputs")
def adaptive_avg_pool1d(input, output_size):
    """Average pooling of ``(N, C, L)`` or ``(C, L)`` into ``output_size`` windows.

    Window ``i`` covers ``[floor(i * L / out), ceil((i + 1) * L / out))``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.adaptive_avg_pool1d(ug.tensor([[1.0, 2.0, 3.0, 4.0, 5.0]]), 3)
        tensor([[1.5000, 3.0000, 4.5000]])
    """
    return _adaptive_avg_pool(input, output_size, 1)


@op(autocast="inputs")
def adaptive_avg_pool2d(input, output_size):
    """Average pooling of ``(N, C, H, W)`` or ``(C, H, W)`` to ``output_size`` (None keeps an axis).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.adaptive_avg_pool2d(ug.arange(16.0).reshape(1, 4, 4), (1, None))
        tensor([[[6., 7., 8., 9.]]])
    """
    return _adaptive_avg_pool(input, output_size, 2)


@op(autocast="inputs")
def adaptive_avg_pool3d(input, output_size):
    """Average pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` to ``output_size``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.adaptive_avg_pool3d(ug.arange(8.0).reshape(1, 2, 2, 2), 1)
        tensor([[[[3.5000]]]])
    """
    return _adaptive_avg_pool(input, output_size, 3)


def _adaptive_max_pool(input, output_size, rank: int):
    """``(output, indices)``: each window gathered (short windows repeat their last element)."""
    input, operand = _lifted(float_operand(input), rank)
    name = f"adaptive_max_pool{_RANK_NAMES[rank]}"
    shape, sizes = _adaptive_input(input, output_size, rank, name)
    lead = shape[:-rank]
    windows, widths, starts = input, [], []
    for axis, (length, size) in enumerate(zip(shape[-rank:], sizes)):
        first, ends = _adaptive_bounds(length, size)
        width = int((ends - first).max()) if size else 1
        taps = np.minimum(first[:, None] + np.arange(width), ends[:, None] - 1)
        dim = len(lead) + 2 * axis
        picked = index_select(windows, dim, tensor(taps.reshape(-1), device=_device_of(input)))
        windows = reshape(picked, tuple(picked.shape[:dim]) + (size, width)
                          + tuple(picked.shape[dim + 1:]))
        widths.append(width)
        starts.append(tensor(first, device=_device_of(input)))
    order = tuple(range(len(lead))) + tuple(len(lead) + 2 * a for a in range(rank)) + tuple(
        len(lead) + 2 * a + 1 for a in range(rank))
    flat = reshape(permute(windows, order), lead + sizes + (math.prod(widths),))
    offset = argmax(flat, dim=-1)
    positions = [_axis_column(start, axis, rank) + tap
                 for axis, (start, tap) in enumerate(zip(starts, _unravel(offset, widths)))]
    indices = _flat_positions(positions, shape[-rank:])
    return _presented(_gather_planes(input, indices, rank), "AdaptiveMaxPool{}DBackward0", rank,
                      operand), indices


def adaptive_max_pool1d_with_indices(input, output_size, return_indices: bool = False):
    """Adaptive 1-D max pooling returning ``(output, indices)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.adaptive_max_pool1d_with_indices(ug.tensor([[1.0, 4.0, 2.0, 3.0, 0.0]]), 2)
        (tensor([[4., 3.]]), tensor([[1, 3]]))
    """
    return _adaptive_max_pool(input, output_size, 1)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices: bool = False):
    """Adaptive 2-D max pooling returning ``(output, indices)`` (flat ``H * W`` indices).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.adaptive_max_pool2d_with_indices(ug.arange(9.0).reshape(1, 3, 3), 1)
        (tensor([[[8.]]]), tensor([[[8]]]))
    """
    return _adaptive_max_pool(input, output_size, 2)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices: bool = False):
    """Adaptive 3-D max pooling returning ``(output, indices)`` (flat ``D * H * W`` indices).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.adaptive_max_pool3d_with_indices(ug.arange(8.0).reshape(1, 2, 2, 2), 1)
        (tensor([[[[7.]]]]), tensor([[[[7]]]]))
    """
    return _adaptive_max_pool(input, output_size, 3)


def adaptive_max_pool1d(input, output_size, return_indices: bool = False):
    """Max pooling of ``(N, C, L)`` or ``(C, L)`` into ``output_size`` windows.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.adaptive_max_pool1d(ug.tensor([[1.0, 4.0, 2.0, 3.0, 0.0]]), 3)
        tensor([[4., 4., 3.]])
    """
    output, indices = _adaptive_max_pool(input, output_size, 1)
    return (output, indices) if return_indices else output


def adaptive_max_pool2d(input, output_size, return_indices: bool = False):
    """Max pooling of ``(N, C, H, W)`` or ``(C, H, W)`` to ``output_size`` (None keeps an axis).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.adaptive_max_pool2d(ug.arange(16.0).reshape(1, 4, 4), (2, 1))
        tensor([[[ 7.],
                 [15.]]])
    """
    output, indices = _adaptive_max_pool(input, output_size, 2)
    return (output, indices) if return_indices else output


def adaptive_max_pool3d(input, output_size, return_indices: bool = False):
    """Max pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` to ``output_size``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.adaptive_max_pool3d(ug.arange(8.0).reshape(1, 2, 2, 2), (2, 1, 1)).flatten()
        tensor([3., 7.])
    """
    output, indices = _adaptive_max_pool(input, output_size, 3)
    return (output, indices) if return_indices else output


# ----------------------------------------------------------------------------- fractional pools

def _fractional_sizes(shape: tuple, kernel: tuple, output_size, output_ratio, rank: int,
                      name: str) -> tuple:
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        ratios = (output_ratio,) * rank if isinstance(output_ratio, (int, float)) \
            else tuple(output_ratio)
        if len(ratios) != rank:
            raise ValueError(f"{name} requires output_ratio to either be a single number or a "
                             f"tuple of {rank} numbers, but got {output_ratio!r}")
        sizes = tuple(int(length * ratio) for length, ratio in zip(shape[-rank:], ratios))
    else:
        sizes = _tuple_argument(output_size, rank, "output_size", name)
    axis_names = ("height", "width") if rank == 2 else ("time", "height", "width")
    for axis_name, size, k, length in zip(axis_names, sizes, kernel, shape[-rank:]):
        if size + k - 1 > length:
            raise RuntimeError(f"{name}(): pool {axis_name} {k} too large relative to input "
                               f"{axis_name} {length} (output {axis_name} {size})")
    return sizes


def _fractional_starts(samples, length: int, size: int, pool: int):
    """PyTorch's pseudo-random window starts ``(*samples.shape, size)``, in the samples' dtype.

    Start ``i`` is ``int((i + u) * alpha) - int(u * alpha)`` with
    ``alpha = (length - pool) / (size - 1)``; the last window ends at the input's end.
    """
    scalar = np.dtype(to_numpy_dtype(samples.dtype)).type
    alpha = float(scalar(length - pool) / scalar(size - 1)) if size > 1 else 0.0
    steps = arange(size, dtype=samples.dtype, device=_device_of(samples))
    column = samples[..., None]
    starts = cast((steps + column) * alpha, int64) - cast(column * alpha, int64)
    return where(steps == size - 1, length - pool, starts)


def _checked_samples(samples, input, batch: int, channels: int, rank: int, name: str):
    """``_random_samples`` (drawn when None) checked and cut to ``(batch, channels, rank)``."""
    if samples is None:
        samples = rand(batch, channels, rank, dtype=input.dtype, device=_device_of(input))
    shape = tuple(samples.shape)
    if len(shape) != 3 or shape[2] != rank:
        raise RuntimeError(f"{name}: expected _random_samples of size (N, C, {rank}), but got "
                           f"{list(shape)}")
    if shape[0] < batch:
        raise RuntimeError(f"{name}: expect _random_samples.size(0) no less than input batch "
                           f"size ({batch}), but got {shape[0]}")
    if shape[1] != channels:
        raise RuntimeError(f"{name}: expect _random_samples.size(1) equals to input channel size "
                           f"({channels}), but got {shape[1]}")
    # PyTorch uses the first ``batch`` rows of a larger sample tensor
    return cast(samples[:batch], input.dtype)


def _fractional_windows(samples, spatial: tuple, sizes: tuple, kernel: tuple):
    """Flat per-plane index of every window element: ``(N, C, *sizes, *kernel)``."""
    rank = len(kernel)
    # PyTorch draws the last axis' starts from sample 0 in 2-D and the first axis' in 3-D
    columns = (1, 0) if rank == 2 else (0, 1, 2)
    positions = []
    for axis, (length, size, pool) in enumerate(zip(spatial, sizes, kernel)):
        starts = _fractional_starts(samples[..., columns[axis]], length, size, pool)
        window = (1,) * axis + (size,) + (1,) * (rank - axis - 1)
        taps = (1,) * axis + (pool,) + (1,) * (rank - axis - 1)
        offsets = reshape(arange(pool, device=_device_of(samples)), taps)
        positions.append(reshape(starts, tuple(starts.shape[:2]) + window + (1,) * rank)
                         + offsets)
    return _flat_positions(positions, spatial)


def _fractional_max_pool(input, kernel_size, output_size, output_ratio, _random_samples,
                         rank: int):
    """``(output, indices)`` of a fractional max pool; windows start at random offsets."""
    input = float_operand(input)
    name = f"fractional_max_pool{_RANK_NAMES[rank]}"
    shape = _check_input(input, rank, name)
    kernel = _tuple_argument(kernel_size, rank, "kernel_size", name)
    sizes = _fractional_sizes(shape, kernel, output_size, output_ratio, rank, name)
    batch = shape[0] if len(shape) == rank + 2 else 1
    samples = _checked_samples(_random_samples, input, batch, shape[-rank - 1], rank, name)
    lead = shape[:-rank]
    windows = reshape(_fractional_windows(samples, shape[-rank:], sizes, kernel),
                      lead + sizes + (math.prod(kernel),))
    flat_windows = reshape(windows, lead + (math.prod(sizes) * math.prod(kernel),))
    flat_input = reshape(input, lead + (math.prod(shape[-rank:]),))
    candidates = reshape(gather(flat_input, -1, flat_windows), tuple(windows.shape))
    choice = argmax(candidates, dim=-1, keepdim=True)
    indices = reshape(gather(windows, -1, choice), lead + sizes)
    return _presented(_gather_planes(input, indices, rank), "FractionalMaxPool{}DBackward0", rank,
                      input), indices


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices: bool = False, _random_samples=None):
    """Fractional 2-D max pooling returning ``(output, indices)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> x = ug.arange(25.0).reshape(1, 1, 5, 5)
        >>> F.fractional_max_pool2d_with_indices(x, 2, output_size=2,
        ...     _random_samples=ug.tensor([[[0.5, 0.5]]]))
        (tensor([[[[ 6.,  9.],
                  [21., 24.]]]]), tensor([[[[ 6,  9],
                  [21, 24]]]]))
    """
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, _random_samples,
                                2)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices: bool = False, _random_samples=None):
    """Fractional 3-D max pooling returning ``(output, indices)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> x = ug.arange(27.0).reshape(1, 3, 3, 3)
        >>> F.fractional_max_pool3d_with_indices(x, 2, output_size=1)[0]
        tensor([[[[26.]]]])
    """
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, _random_samples,
                                3)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples=None):
    """Fractional max pooling (Graham, 2014) of ``(N, C, H, W)`` or ``(C, H, W)``.

    ``kernel_size`` windows start at pseudo-random offsets chosen so that the
    output has ``output_size`` (or ``input size * output_ratio``) positions.
    ``_random_samples`` (``(N, C, 2)`` numbers in ``[0, 1)``) fixes the
    offsets; without it they are drawn from unigrad's generator.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> _ = ug.manual_seed(0)
        >>> F.fractional_max_pool2d(ug.randn(2, 3, 9, 9), 3, output_ratio=0.5).shape
        (2, 3, 4, 4)
    """
    output, indices = _fractional_max_pool(input, kernel_size, output_size, output_ratio,
                                           _random_samples, 2)
    return (output, indices) if return_indices else output


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples=None):
    """Fractional max pooling of ``(N, C, D, H, W)`` or ``(C, D, H, W)``; see the 2-D version.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.fractional_max_pool3d(ug.randn(1, 2, 6, 6, 6), 2, output_size=3).shape
        (1, 2, 3, 3, 3)
    """
    output, indices = _fractional_max_pool(input, kernel_size, output_size, output_ratio,
                                           _random_samples, 3)
    return (output, indices) if return_indices else output


__all__ = [
    "max_pool1d", "max_pool2d", "max_pool3d", "max_pool1d_with_indices",
    "max_pool2d_with_indices", "max_pool3d_with_indices", "avg_pool1d", "avg_pool2d",
    "avg_pool3d", "lp_pool1d", "lp_pool2d", "lp_pool3d", "max_unpool1d", "max_unpool2d",
    "max_unpool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
    "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
    "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
    "adaptive_max_pool3d_with_indices", "fractional_max_pool2d", "fractional_max_pool3d",
    "fractional_max_pool2d_with_indices", "fractional_max_pool3d_with_indices",
]
