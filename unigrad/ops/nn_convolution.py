"""Sliding windows (unfold/fold primitives) and the convolutions built on them.

``unfold_windows`` is im2col: one strided view of the (padded) input, copied
once, with the kernel offsets as axes; ``fold_windows`` (col2im) scatter-adds
windows back, looping over kernel offsets only. Each is the other's vjp, so a
convolution (unfold + one matmul), a transposed convolution (one matmul +
fold) and a pool (unfold + a reduction, :mod:`unigrad.ops.nn_pooling`) are
composites differentiable to any order.

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> x = ug.arange(16.0).reshape(1, 1, 4, 4)
    >>> F.max_pool2d(x, 2)
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .. import _state
from ..autograd.node import present_as
from ..backend import namespace_of
from ..interpreters.batching import over_leading_dims
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, shape_of
from .linalg import matmul
from .registry import op
from .shape import pad, reshape, squeeze, transpose_axes, unsqueeze

_local = _state.local

# ----------------------------------------------------------------------------- primitives


def _window_counts(padded: tuple, kernel: tuple, stride: tuple, dilation: tuple) -> tuple:
    """Windows per axis; zero where a window does not fit (public functions reject that)."""
    return tuple(max(0, (size - d * (k - 1) - 1) // s + 1)
                 for size, k, s, d in zip(padded, kernel, stride, dilation))


def _padded_shape(spatial: tuple, padding: tuple) -> tuple:
    return tuple(n + before + after for n, (before, after) in zip(spatial, padding))


def _unfold_rule(x, kernel, stride, dilation, padding, pad_value):
    shape = shape_of(x)
    lead, spatial = shape[:len(shape) - len(kernel)], shape[len(shape) - len(kernel):]
    counts = _window_counts(_padded_shape(spatial, padding), kernel, stride, dilation)
    return lead + tuple(kernel) + counts, dtype_of(x)


def _unfold_impl(x, kernel, stride, dilation, padding, pad_value):
    xp = namespace_of(x)
    lead = x.ndim - len(kernel)
    if any(before or after for before, after in padding):
        padded = xp.full(x.shape[:lead] + _padded_shape(x.shape[lead:], padding), pad_value,
                         dtype=x.dtype)
        inner = tuple(slice(before, before + n) for n, (before, _) in
                      zip(x.shape[lead:], padding))
        padded[(Ellipsis,) + inner] = x
        x = padded
    counts = _window_counts(x.shape[lead:], kernel, stride, dilation)
    spatial_strides = x.strides[lead:]
    strides = (x.strides[:lead] + tuple(st * d for st, d in zip(spatial_strides, dilation))
               + tuple(st * s for st, s in zip(spatial_strides, stride)))
    windows = xp.lib.stride_tricks.as_strided(x, x.shape[:lead] + tuple(kernel) + counts,
                                              strides)
    return xp.ascontiguousarray(windows)


def _fold_rule(columns, spatial, kernel, stride, dilation, padding):
    shape = shape_of(columns)
    lead = shape[:len(shape) - 2 * len(kernel)]
    return lead + tuple(spatial), dtype_of(columns)


def _fold_impl(columns, spatial, kernel, stride, dilation, padding):
    xp = namespace_of(columns)
    rank = len(kernel)
    lead = columns.shape[:columns.ndim - 2 * rank]
    counts = columns.shape[columns.ndim - rank:]
    padded = xp.zeros(lead + _padded_shape(spatial, padding), dtype=columns.dtype)
    every_window = (slice(None),) * rank
    for offsets in itertools.product(*(range(k) for k in kernel)):
        target = tuple(slice(o * d, o * d + s * (c - 1) + 1, s) for o, d, s, c in
                       zip(offsets, dilation, stride, counts))
        padded[(Ellipsis,) + target] += columns[(Ellipsis,) + offsets + every_window]
    inner = tuple(slice(before, before + n) for n, (before, _) in zip(spatial, padding))
    return padded[(Ellipsis,) + inner]


def _unfold_vjp(g, out, needs, x, kernel, stride, dilation, padding, pad_value):
    spatial = tuple(x.shape[len(x.shape) - len(kernel):])
    return (fold_windows(g, spatial, kernel, stride, dilation, padding),)


def _unfold_jvp(tangents, out, x, kernel, stride, dilation, padding, pad_value):
    # the tangent of a padding value is zero whatever the value (-inf for max pooling)
    return unfold_windows(tangents[0], kernel, stride, dilation, padding, 0.0)


def _fold_vjp(g, out, needs, columns, spatial, kernel, stride, dilation, padding):
    return (unfold_windows(g, kernel, stride, dilation, padding, 0.0),)


unfold_p = Primitive("unfold_windows", _unfold_impl, _unfold_rule, kind="linear",
                     vjp=_unfold_vjp, jvp=_unfold_jvp, backward_name="Im2ColBackward0",
                     saves="nothing", batch=over_leading_dims())
fold_p = Primitive("fold_windows", _fold_impl, _fold_rule, kind="linear",
                   vjp=_fold_vjp, backward_name="Col2ImBackward0", saves="nothing",
                   batch=over_leading_dims())


def unfold_windows(input, kernel: tuple, stride: tuple, dilation: tuple, padding: tuple,
                   pad_value: float = 0.0):
    """All windows of the trailing ``len(kernel)`` axes: shape ``(*lead, *kernel, *counts)``.

    ``padding`` holds one ``(before, after)`` pair per window axis, filled with
    ``pad_value``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.ops.nn_convolution import unfold_windows
        >>> unfold_windows(ug.arange(4.0), (2,), (1,), (1,), ((0, 0),))
        tensor([[0., 1., 2.],
                [1., 2., 3.]])
    """
    return bind(unfold_p, input, kernel=tuple(kernel), stride=tuple(stride),
                dilation=tuple(dilation), padding=tuple(tuple(p) for p in padding),
                pad_value=float(pad_value))


def fold_windows(columns, spatial: tuple, kernel: tuple, stride: tuple, dilation: tuple,
                 padding: tuple):
    """Sum windows laid out as :func:`unfold_windows` makes them back into ``spatial`` axes.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.ops.nn_convolution import fold_windows
        >>> fold_windows(ug.ones((2, 3)), (4,), (2,), (1,), (1,), ((0, 0),))
        tensor([1., 2., 2., 1.])
    """
    return bind(fold_p, columns, spatial=tuple(spatial), kernel=tuple(kernel),
                stride=tuple(stride), dilation=tuple(dilation),
                padding=tuple(tuple(p) for p in padding))


# ----------------------------------------------------------------------------- argument checks

def _tuple_argument(value, rank: int, name: str, context: str = "convolution") -> tuple:
    """An int or a list of ints as a ``rank``-tuple: a TypeError (PyTorch's argument parser)
    for anything but ints, a RuntimeError for a list of another length."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),) * rank
    if not isinstance(value, (tuple, list)) or not all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
        raise TypeError(f"{context}: argument '{name}' must be an int or a tuple of ints, got "
                        f"{value!r}")
    if len(value) == 1 and rank > 1:
        return (int(value[0]),) * rank
    if len(value) == rank:
        return tuple(int(v) for v in value)
    raise RuntimeError(f"expected {name} to be a single integer value or a list of {rank} values "
                       f"to match the {context} dimensions, but got {name}={_listed(value)}")


def _listed(value):
    return list(value) if isinstance(value, (tuple, list)) else value


def _size_text(shape) -> str:
    return " x ".join(str(n) for n in shape)


def _validate_reduction_free(stride, dilation, padding):
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")


def _conv_padding(padding, kernel: tuple, stride: tuple, dilation: tuple) -> tuple:
    """``(before, after)`` pairs from an int, a tuple, ``'valid'`` or ``'same'``."""
    rank = len(kernel)
    if isinstance(padding, str):
        if padding == "valid":
            return ((0, 0),) * rank
        if padding != "same":
            raise RuntimeError(f"Invalid padding string: {padding!r}")
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        pairs = []
        for k, d in zip(kernel, dilation):
            total = d * (k - 1)
            pairs.append((total // 2, total - total // 2))
        return tuple(pairs)
    amounts = _tuple_argument(padding, rank, "padding")
    if any(p < 0 for p in amounts):
        raise RuntimeError("negative padding is not supported")
    return tuple((p, p) for p in amounts)


# ----------------------------------------------------------------------------- convolution

def _convolution(input, weight, bias, stride, padding, dilation, groups, rank: int, name: str):
    input_shape = tuple(input.shape)
    if len(input_shape) not in (rank + 1, rank + 2):
        raise RuntimeError(f"Expected {rank + 1}D (unbatched) or {rank + 2}D (batched) input to "
                           f"{name}, but got input of size: {list(input_shape)}")
    weight_shape = tuple(weight.shape)
    if len(weight_shape) != rank + 2:
        raise RuntimeError(f"{name}: expected weight to be {rank + 2}-dimensional (out_channels, "
                           f"in_channels / groups, *kernel_size), but got weight of size "
                           f"{list(weight_shape)}")
    stride = _tuple_argument(stride, rank, "stride")
    dilation = _tuple_argument(dilation, rank, "dilation")
    kernel = weight_shape[2:]
    _validate_reduction_free(stride, dilation, ())
    padding = _conv_padding(padding, kernel, stride, dilation)
    if not isinstance(groups, (int, np.integer)) or groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    batched = len(input_shape) == rank + 2
    if not batched:  # PyTorch: a batch of one (UnsqueezeBackward0), squeezed off at the end
        input = unsqueeze(input, 0)
    batch, channels = tuple(input.shape[:2])
    out_channels = weight_shape[0]
    if out_channels % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size [{list(weight_shape)}] "
                           f"instead")
    if channels != weight_shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight_shape)}, expected "
                           f"input{list(input.shape)} to have {weight_shape[1] * groups} "
                           f"channels, but got {channels} channels instead")
    if bias is not None and tuple(bias.shape) != (out_channels,):
        raise RuntimeError(f"Given weight of size {list(weight_shape)}, expected bias to be "
                           f"1-dimensional with {out_channels} elements, but got bias of size "
                           f"{list(bias.shape)} instead")
    padded = _padded_shape(tuple(input.shape[2:]), padding)
    extents = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    if any(p < e for p, e in zip(padded, extents)):
        raise RuntimeError(f"Calculated padded input size per channel: ({_size_text(padded)}). "
                           f"Kernel size: ({_size_text(extents)}). Kernel size can't be greater "
                           f"than actual input size")
    if any(before != after for before, after in padding):  # 'same' with an even extent
        # PyTorch pads the extra after-padding first (a ConstantPadNdBackward0 node)
        input = pad(input, tuple(width for before, after in reversed(padding)
                                 for width in (0, after - before)))
        padding = tuple((before, before) for before, _ in padding)
    operands = (input, weight, bias)
    # the batch axis joins the window counts (a window axis of extent 1), so the columns come
    # out as (groups, C_in / groups * kernel, N * L) and each group is one GEMM
    grouped = reshape(input, (batch, groups, channels // groups) + tuple(input.shape[2:]))
    grouped = transpose_axes(grouped, (1, 2, 0) + tuple(range(3, rank + 3)))
    columns = unfold_windows(grouped, (1,) + kernel, (1,) + stride, (1,) + dilation,
                             ((0, 0),) + padding)
    counts = tuple(columns.shape[-rank:])
    window = weight_shape[1] * math.prod(kernel)
    columns = reshape(columns, (groups, window, batch * math.prod(counts)))
    weight = reshape(weight, (groups, out_channels // groups, window))
    if groups == 1:
        output = matmul(reshape(weight, (out_channels, window)),
                        reshape(columns, columns.shape[1:]))
    else:
        output = matmul(weight, columns)
    output = reshape(output, (out_channels, batch) + counts)
    output = transpose_axes(output, (1, 0) + tuple(range(2, rank + 2)))
    if bias is not None:
        output = output + reshape(bias, (out_channels,) + (1,) * rank)
    output = present_as(output, "ConvolutionBackward0", *operands)
    return output if batched else squeeze(output, 0)


@op(autocast="lower")
def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups: int = 1):
    """1-D convolution (cross-correlation) over ``(N, C_in, L)`` or ``(C_in, L)`` input.

    ``weight`` is ``(C_out, C_in / groups, kernel)``; ``padding`` is an int, a
    1-tuple, ``'valid'`` or ``'same'``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.conv1d(ug.tensor([[[1.0, 2.0, 3.0, 4.0]]]), ug.tensor([[[1.0, -1.0]]]))
        tensor([[[-1., -1., -1.]]])
    """
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


@op(autocast="lower")
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups: int = 1):
    """2-D convolution (cross-correlation) over ``(N, C_in, H, W)`` or ``(C_in, H, W)`` input.

    ``weight`` is ``(C_out, C_in / groups, kH, kW)``; ``stride``, ``padding``
    and ``dilation`` are ints or pairs, ``padding`` may also be ``'valid'`` or
    ``'same'`` (stride 1 only). Computed as im2col plus one matmul.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> x = ug.ones((1, 1, 3, 3))
        >>> F.conv2d(x, ug.ones((1, 1, 2, 2)), padding=1)[0, 0]
        tensor([[1., 2., 2., 1.],
                [2., 4., 4., 2.],
                [2., 4., 4., 2.],
                [1., 2., 2., 1.]])
    """
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


@op(autocast="lower")
def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups: int = 1):
    """3-D convolution over ``(N, C_in, D, H, W)`` or ``(C_in, D, H, W)`` input.

    ``weight`` is ``(C_out, C_in / groups, kD, kH, kW)``; arguments as in :func:`conv2d`.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.conv3d(ug.ones((1, 1, 3, 3, 3)), ug.ones((2, 1, 2, 2, 2))).shape
        (1, 2, 2, 2, 2)
    """
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _transposed_geometry(input_shape: tuple, weight_shape: tuple, stride, padding,
                         output_padding, dilation, rank: int, name: str) -> tuple:
    """Checked ``stride, padding, output_padding, dilation`` tuples and the output size."""
    stride = _tuple_argument(stride, rank, "stride")
    padding = _tuple_argument(padding, rank, "padding")
    output_padding = _tuple_argument(output_padding, rank, "output_padding")
    dilation = _tuple_argument(dilation, rank, "dilation")
    _validate_reduction_free(stride, dilation, padding)
    if any(p < 0 for p in output_padding):
        raise RuntimeError(f"{name}: negative output_padding is not supported")
    if any(o >= s and o >= d for o, s, d in zip(output_padding, stride, dilation)):
        raise RuntimeError(f"{name}: output padding must be smaller than either stride or "
                           f"dilation, but got output_padding={list(output_padding)}, "
                           f"stride={list(stride)} and dilation={list(dilation)}")
    sizes = tuple((n - 1) * s - 2 * p + d * (k - 1) + o + 1 for n, k, s, p, o, d in zip(
        input_shape[-rank:], weight_shape[2:], stride, padding, output_padding, dilation))
    if any(size <= 0 for size in sizes):
        raise RuntimeError(f"{name}: given input size per channel: "
                           f"({_size_text(input_shape[-rank:])}). Calculated output size per "
                           f"channel: ({_size_text(sizes)}). Output size is too small")
    return stride, padding, output_padding, dilation, sizes


def _check_transposed_operands(input_shape: tuple, weight_shape: tuple, bias, groups,
                               rank: int, name: str) -> None:
    if len(input_shape) not in (rank + 1, rank + 2):
        raise RuntimeError(f"Expected {rank + 1}D (unbatched) or {rank + 2}D (batched) input to "
                           f"{name}, but got input of size: {list(input_shape)}")
    if len(weight_shape) != rank + 2:
        raise RuntimeError(f"{name}: expected weight to be {rank + 2}-dimensional (in_channels, "
                           f"out_channels / groups, *kernel_size), but got weight of size "
                           f"{list(weight_shape)}")
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    channels = input_shape[-rank - 1]
    if weight_shape[0] != channels or channels % groups:
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight_shape)}, expected "
                           f"input{list(input_shape)} to have {weight_shape[0]} channels (a "
                           f"multiple of groups={groups}), but got {channels} channels instead")
    out_channels = weight_shape[1] * groups
    if bias is not None and tuple(bias.shape) != (out_channels,):
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight_shape)}, expected "
                           f"bias to be 1-dimensional with {out_channels} elements, but got bias "
                           f"of size {list(bias.shape)} instead")


def _transposed_convolution(input, weight, bias, stride, padding, output_padding, groups,
                            dilation, rank: int, name: str):
    """The vjp of convolution w.r.t. its input: one grouped matmul, then ``fold_windows``."""
    input_shape, weight_shape = tuple(input.shape), tuple(weight.shape)
    _check_transposed_operands(input_shape, weight_shape, bias, groups, rank, name)
    stride, padding, output_padding, dilation, sizes = _transposed_geometry(
        input_shape, weight_shape, stride, padding, output_padding, dilation, rank, name)
    batched = len(input_shape) == rank + 2
    if not batched:
        input = unsqueeze(input, 0)
    operands = (input, weight, bias)
    batch, channels, spatial = input.shape[0], input.shape[1], tuple(input.shape[2:])
    kernel, group_out = weight_shape[2:], weight_shape[1]
    # rows: (C_in / groups) per group; columns: every (batch, position) as in _convolution
    grouped = reshape(input, (batch, groups, channels // groups) + spatial)
    grouped = transpose_axes(grouped, (1, 2, 0) + tuple(range(3, rank + 3)))
    grouped = reshape(grouped, (groups, channels // groups, batch * math.prod(spatial)))
    taps = reshape(weight, (groups, channels // groups, group_out * math.prod(kernel)))
    columns = matmul(transpose_axes(taps, (0, 2, 1)), grouped)
    columns = reshape(columns, (groups, group_out, 1) + kernel + (batch,) + spatial)
    # output_padding past the windows' reach is zeros, appended after folding
    beyond = tuple(max(0, o - p) for o, p in zip(output_padding, padding))
    pairs = ((0, 0),) + tuple((p, p - o + e) for p, o, e in zip(padding, output_padding, beyond))
    folded = fold_windows(columns, (batch,) + tuple(n - e for n, e in zip(sizes, beyond)),
                          (1,) + kernel, (1,) + stride, (1,) + dilation, pairs)
    if any(beyond):
        folded = pad(folded, tuple(w for e in reversed(beyond) for w in (0, e)))
    output = transpose_axes(folded, (2, 0, 1) + tuple(range(3, rank + 3)))
    output = reshape(output, (batch, groups * group_out) + sizes)
    if bias is not None:
        output = output + reshape(bias, (groups * group_out,) + (1,) * rank)
    output = present_as(output, "ConvolutionBackward0", *operands)
    return output if batched else squeeze(output, 0)


@op(autocast="lower")
def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups: int = 1, dilation=1):
    """1-D transposed convolution ("deconvolution") over ``(N, C_in, L)`` or ``(C_in, L)``.

    ``weight`` is ``(C_in, C_out / groups, kernel)``; the output has
    ``(L - 1) * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1``
    positions. It is the gradient of :func:`conv1d` w.r.t. its input.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.conv_transpose1d(ug.tensor([[[1.0, 2.0]]]), ug.tensor([[[1.0, 1.0, 1.0]]]), stride=2)
        tensor([[[1., 1., 3., 2., 2.]]])
    """
    return _transposed_convolution(input, weight, bias, stride, padding, output_padding, groups,
                                   dilation, 1, "conv_transpose1d")


@op(autocast="lower")
def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups: int = 1, dilation=1):
    """2-D transposed convolution over ``(N, C_in, H, W)`` or ``(C_in, H, W)``.

    ``weight`` is ``(C_in, C_out / groups, kH, kW)``; see :func:`conv_transpose1d`.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.conv_transpose2d(ug.ones((1, 1, 2, 2)), ug.ones((1, 1, 2, 2)))[0, 0]
        tensor([[1., 2., 1.],
                [2., 4., 2.],
                [1., 2., 1.]])
    """
    return _transposed_convolution(input, weight, bias, stride, padding, output_padding, groups,
                                   dilation, 2, "conv_transpose2d")


@op(autocast="lower")
def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups: int = 1, dilation=1):
    """3-D transposed convolution over ``(N, C_in, D, H, W)`` or ``(C_in, D, H, W)``.

    ``weight`` is ``(C_in, C_out / groups, kD, kH, kW)``; see :func:`conv_transpose1d`.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.conv_transpose3d(ug.ones((1, 2, 2, 2, 2)), ug.ones((2, 3, 2, 2, 2)), stride=2).shape
        (1, 3, 4, 4, 4)
    """
    return _transposed_convolution(input, weight, bias, stride, padding, output_padding, groups,
                                   dilation, 3, "conv_transpose3d")


@op(autocast="lower")
def conv_tbc(input, weight, bias, pad: int = 0):
    """1-D convolution of time-batch-channel input: ``(T, N, C_in)`` -> ``(T', N, C_out)``.

    ``weight`` is ``(kernel, C_in, C_out)``, ``bias`` is ``(C_out,)`` and
    ``pad`` zero-pads the time axis at both ends.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.conv_tbc(ug.ones((4, 1, 2)), ug.ones((3, 2, 1)), ug.zeros(1), 1)[:, 0, 0]
        tensor([4., 6., 6., 4.])
    """
    if len(input.shape) != 3 or len(weight.shape) != 3 or len(bias.shape) != 1:
        raise RuntimeError(f"conv_tbc: expected a 3-D input, a 3-D weight and a 1-D bias, but got "
                           f"input of size {list(input.shape)}, weight of size "
                           f"{list(weight.shape)} and bias of size {list(bias.shape)}")
    if input.shape[2] != weight.shape[1] or bias.shape[0] != weight.shape[2]:
        raise RuntimeError(f"conv_tbc: input channels {input.shape[2]} and bias size "
                           f"{bias.shape[0]} must match weight of size {list(weight.shape)} "
                           f"(kernel, in_channels, out_channels)")
    output = _convolution(transpose_axes(input, (1, 2, 0)), transpose_axes(weight, (2, 1, 0)),
                          bias, 1, pad, 1, 1, 1, "conv_tbc")
    return present_as(transpose_axes(output, (2, 0, 1)), "ConvTbcBackward0", input, weight, bias)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """PyTorch's ``F.unfold``: ``(N, C, H, W)`` -> ``(N, C * kH * kW, L)`` sliding blocks.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.unfold(ug.ones((1, 2, 3, 3)), 2).shape
        (1, 8, 4)
    """
    if len(input.shape) not in (3, 4):
        raise RuntimeError(f"Input Error: Only 3D or 4D input Tensors are supported (got "
                           f"{len(input.shape)}D)")
    kernel = _tuple_argument(kernel_size, 2, "kernel_size", "unfold")
    dilation = _tuple_argument(dilation, 2, "dilation", "unfold")
    stride = _tuple_argument(stride, 2, "stride", "unfold")
    amounts = _tuple_argument(padding, 2, "padding", "unfold")
    _validate_reduction_free(stride, dilation, amounts)
    columns = unfold_windows(input, kernel, stride, dilation, tuple((p, p) for p in amounts))
    lead = tuple(columns.shape[:-4])
    blocks = math.prod(columns.shape[-2:])
    columns = reshape(columns, lead[:-1] + (lead[-1] * math.prod(kernel), blocks))
    return present_as(columns, "Im2ColBackward0", input)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """PyTorch's ``F.fold``: sums ``(N, C * kH * kW, L)`` blocks into ``(N, C, *output_size)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.fold(ug.ones((1, 4, 4)), (3, 3), 2)[0, 0]
        tensor([[1., 2., 1.],
                [2., 4., 2.],
                [1., 2., 1.]])
    """
    if len(input.shape) not in (2, 3):
        raise RuntimeError(f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are "
                           f"supported (got {len(input.shape)}D)")
    spatial = _tuple_argument(output_size, 2, "output_size", "fold")
    kernel = _tuple_argument(kernel_size, 2, "kernel_size", "fold")
    dilation = _tuple_argument(dilation, 2, "dilation", "fold")
    stride = _tuple_argument(stride, 2, "stride", "fold")
    amounts = _tuple_argument(padding, 2, "padding", "fold")
    _validate_reduction_free(stride, dilation, amounts)
    padding = tuple((p, p) for p in amounts)
    counts = _window_counts(_padded_shape(spatial, padding), kernel, stride, dilation)
    lead = tuple(input.shape[:-2])
    blocks, length = tuple(input.shape[-2:])
    if blocks % math.prod(kernel) or length != math.prod(counts):
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product "
                           f"of kernel_size ({math.prod(kernel)}) and its last dimension to match "
                           f"the calculated number of sliding blocks {_size_text(counts)} = "
                           f"{math.prod(counts)}, but got input of size {list(input.shape)}")
    columns = reshape(input, lead + (blocks // math.prod(kernel),) + kernel + counts)
    return present_as(fold_windows(columns, spatial, kernel, stride, dilation, padding),
                      "Col2ImBackward0", input)


__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d", "conv_tbc", "unfold", "fold"]
