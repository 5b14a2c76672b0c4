"""Normalization functions of ``unigrad.nn.functional`` with PyTorch's signatures.

``layer_norm``, ``batch_norm``, ``instance_norm``, ``group_norm``,
``rms_norm``, ``local_response_norm`` and ``normalize``; all are composites
of primitives. Running statistics are updated in place (without gradient).

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> F.group_norm(ug.tensor([[[1.0, 3.0], [5.0, 7.0]]]), 1)
    tensor([[[-1.3416, -0.4472],
             [ 0.4472,  1.3416]]])
"""

from __future__ import annotations

import math

import numpy as np

from ..autograd.grad_mode import no_grad
from ..autograd.node import present_as
from ..tensor import Tensor
from ._dtypes import float_operand
from .elementwise import cast, sqrt
from .elementwise_math import clamp_min
from .reduce import mean, norm
from .registry import op
from .shape import pad, reshape

# ----------------------------------------------------------------------------- shared helpers


def _normalized(centered, variance, eps: float):
    return centered * (1.0 / sqrt(variance + eps))


def _channel_shaped(value, channels: int, ndim: int):
    return reshape(value, (channels,) + (1,) * (ndim - 2))


def _affine(output, weight, bias, channels: int, ndim: int):
    """``output * weight + bias`` with per-channel (dimension 1) ``weight`` and ``bias``."""
    if weight is not None:
        output = output * _channel_shaped(weight, channels, ndim)
    if bias is not None:
        output = output + _channel_shaped(bias, channels, ndim)
    return output


def _update_running(running, statistic, momentum: float) -> None:
    if running is None:
        return
    with no_grad():
        value = reshape(statistic.detach() if isinstance(statistic, Tensor) else statistic,
                        tuple(running.shape))
        running.mul_(1.0 - momentum).add_(cast(value, running.dtype) * momentum)


def _check_channel_vectors(channels: int, **vectors) -> None:
    for name, value in vectors.items():
        if value is not None and math.prod(value.shape) != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not "
                               f"{math.prod(value.shape)}")


def _check_eps(eps: float, training: bool, name: str) -> None:
    if training and eps <= 0.0:
        raise ValueError(f"{name} eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"{name} eps must be non-negative, but got {eps}")


def _check_shaped_like(normalized_shape: tuple, **values) -> None:
    for name, value in values.items():
        if value is not None and tuple(value.shape) != normalized_shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got "
                               f"{name} of shape {list(value.shape)} and normalized_shape = "
                               f"{list(normalized_shape)}")


def _trailing_axes(input, normalized_shape) -> tuple:
    """The axes of ``input`` that ``normalized_shape`` names (its trailing ones), checked."""
    if isinstance(normalized_shape, (int, np.integer)):
        normalized_shape = (int(normalized_shape),)
    normalized_shape = tuple(int(n) for n in normalized_shape)
    shape = tuple(input.shape)
    count = len(normalized_shape)
    if count == 0 or count > len(shape) or shape[len(shape) - count:] != normalized_shape:
        expected = ", ".join(str(n) for n in normalized_shape)
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input with "
                           f"shape [*, {expected}], but got input of size{list(shape)}")
    return tuple(range(len(shape) - count, len(shape)))


def _per_slice_statistics(input, axes: tuple):
    """The mean over ``axes``, the input minus it and the biased variance (dims kept)."""
    average = mean(input, dim=axes, keepdim=True)
    centered = input - average
    return average, centered, mean(centered * centered, dim=axes, keepdim=True)


# ----------------------------------------------------------------------------- layer norms

@op(autocast="float32")
def layer_norm(input, normalized_shape, weight=None, bias=None, eps: float = 1e-5):
    """Normalize over the trailing ``normalized_shape`` dimensions, then scale and shift.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.layer_norm(ug.tensor([[1.0, 3.0]]), (2,))
        tensor([[-1.0000,  1.0000]])
    """
    axes = _trailing_axes(input, normalized_shape)
    _check_shaped_like(tuple(input.shape)[axes[0]:], weight=weight, bias=bias)
    _, centered, variance = _per_slice_statistics(float_operand(input), axes)
    output = _normalized(centered, variance, eps)
    if weight is not None:
        output = output * weight
    if bias is not None:
        output = output + bias
    return present_as(output, "NativeLayerNormBackward0", input, weight, bias)


@op(autocast="float32")
def rms_norm(input, normalized_shape, weight=None, eps: float | None = None):
    """Divide by the root mean square over the trailing ``normalized_shape`` dims, then scale.

    ``eps=None`` uses the machine epsilon of the input's dtype, as PyTorch.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.rms_norm(ug.tensor([[3.0, 4.0]]), (2,), eps=0.0)
        tensor([[0.8485, 1.1314]])
    """
    axes = _trailing_axes(input, normalized_shape)
    _check_shaped_like(tuple(input.shape)[axes[0]:], weight=weight)
    input = float_operand(input)
    if eps is None:
        eps = float(np.finfo(input._data.dtype).eps)
    # PyTorch's graph: input * rsqrt(input.pow(2).mean(axes, keepdim=True) + eps) [* weight]
    squares = present_as(input * input, "PowBackward0", input)
    shifted = mean(squares, dim=axes, keepdim=True) + eps
    output = input * present_as(1.0 / sqrt(shifted), "RsqrtBackward0", shifted)
    return output if weight is None else output * weight


@op(autocast="float32")
def group_norm(input, num_groups: int, weight=None, bias=None, eps: float = 1e-5):
    """Normalize each of ``num_groups`` groups of channels (dimension 1) of every sample.

    ``weight`` and ``bias`` (one value per channel) then scale and shift.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.group_norm(ug.tensor([[[1.0, 3.0], [5.0, 9.0]]]), 2)
        tensor([[[-1.0000,  1.0000],
                 [-1.0000,  1.0000]]])
    """
    shape = tuple(input.shape)
    if len(shape) < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{len(shape)}")
    if isinstance(num_groups, bool) or not isinstance(num_groups, (int, np.integer)) or \
            num_groups <= 0:
        raise ValueError(f"group_norm: argument 'num_groups' must be a positive int, "
                         f"got {num_groups!r}")
    channels = shape[1]
    if channels % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(shape)} and "
                           f"num_groups={num_groups}")
    if shape[0] * channels // num_groups * math.prod(shape[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"{[shape[0] * channels // num_groups, num_groups] + list(shape[2:])}")
    for name, value in (("weight", weight), ("bias", bias)):
        if value is not None and tuple(value.shape) != (channels,):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of "
                               f"channels in input, but got {name} of shape "
                               f"{list(value.shape)} and input of shape {list(shape)}")
    grouped = reshape(float_operand(input), (shape[0], int(num_groups),
                                             channels // num_groups * math.prod(shape[2:])))
    _, centered, variance = _per_slice_statistics(grouped, (2,))
    output = reshape(_normalized(centered, variance, eps), shape)
    output = _affine(output, weight, bias, channels, len(shape))
    return present_as(output, "NativeGroupNormBackward0", input, weight, bias)


# ----------------------------------------------------------------------------- batch statistics

@op(autocast="inputs")
def batch_norm(input, running_mean, running_var, weight=None, bias=None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5):
    """Normalize each channel (dimension 1) by batch statistics or running statistics.

    With ``training=True`` the batch mean and (biased) variance normalize the
    input and ``running_mean``/``running_var`` are updated in place with
    ``momentum`` (the running variance uses the unbiased estimate, as in
    PyTorch); otherwise the running statistics are used.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> running_mean, running_var = ug.zeros(1), ug.ones(1)
        >>> F.batch_norm(ug.tensor([[1.0], [3.0]]), running_mean, running_var, training=True)
        tensor([[-1.0000],
                [ 1.0000]])
        >>> running_mean
        tensor([0.2000])
    """
    shape = tuple(input.shape)
    if len(shape) < 2:
        raise ValueError(f"batch_norm: expected 2D or higher input (N, C, ...), but got input of "
                         f"size {list(shape)}")
    channels, ndim = shape[1], len(shape)
    _check_channel_vectors(channels, running_mean=running_mean, running_var=running_var,
                           weight=weight, bias=bias)
    _check_eps(eps, training, "batch_norm")
    input = float_operand(input)
    if training:
        per_channel = shape[0] * math.prod(shape[2:])
        if per_channel == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input "
                             f"size {list(shape)}")
        if per_channel == 0:  # an empty batch: nothing to normalize, the statistics stay
            return _affine(input, weight, bias, channels, ndim)
        batch_mean, centered, batch_var = _per_slice_statistics(input,
                                                                (0,) + tuple(range(2, ndim)))
        output = _normalized(centered, batch_var, eps)
        _update_running(running_mean, batch_mean, momentum)
        _update_running(running_var, batch_var * (per_channel / (per_channel - 1)), momentum)
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError("batch_norm: running_mean and running_var must be given when "
                               "training=False")
        centered = input - _channel_shaped(running_mean, channels, ndim)
        output = _normalized(centered, _channel_shaped(running_var, channels, ndim), eps)
    output = _affine(output, weight, bias, channels, ndim)
    if _requires_grad(running_mean) or _requires_grad(running_var):
        return output  # (PyTorch: not differentiable in the running statistics)
    return present_as(output, "NativeBatchNormBackward0", input, weight, bias)


def _requires_grad(value) -> bool:
    return isinstance(value, Tensor) and value._requires_grad


@op(autocast="float32")
def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats: bool = True, momentum: float = 0.1, eps: float = 1e-5):
    """Normalize each channel of each sample over its spatial dimensions (``(N, C, *)``).

    With ``use_input_stats=True`` every sample's own statistics normalize it and
    the given running statistics move by ``momentum`` towards their batch
    averages (unbiased variance); otherwise the running statistics normalize.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.instance_norm(ug.tensor([[[1.0, 3.0], [2.0, 6.0]]]))
        tensor([[[-1.0000,  1.0000],
                 [-1.0000,  1.0000]]])
    """
    shape = tuple(input.shape)
    if len(shape) < 2:
        raise ValueError(f"instance_norm: expected 2D or higher input (N, C, ...), but got input "
                         f"of size {list(shape)}")
    channels, ndim = shape[1], len(shape)
    _check_channel_vectors(channels, running_mean=running_mean, running_var=running_var,
                           weight=weight, bias=bias)
    if not use_input_stats:
        if running_mean is None or running_var is None:
            raise RuntimeError("Expected running_mean and running_var to be defined when "
                               "use_input_stats is false")
        return batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)
    spatial = math.prod(shape[2:])
    if spatial == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size "
                         f"{list(shape)}")
    input = float_operand(input)
    if math.prod(shape) == 0:  # an empty batch: nothing to normalize, the statistics stay
        return _affine(input, weight, bias, channels, ndim)
    axes = tuple(range(2, ndim))
    sample_mean, centered, variance = _per_slice_statistics(input, axes)
    if spatial > 1:
        _update_running(running_mean, mean(sample_mean, dim=0), momentum)
        _update_running(running_var, mean(variance, dim=(0,) + axes) * (spatial / (spatial - 1)),
                        momentum)
    return _affine(_normalized(centered, variance, eps), weight, bias, channels, ndim)


# ----------------------------------------------------------------------------- across channels

@op(autocast="float32")
def local_response_norm(input, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0):
    """Divide by ``(k + alpha * mean of squares over size neighbouring channels) ** beta``.

    The window of ``size`` channels around each channel (dimension 1) is
    zero-padded at the ends; the mean always divides by ``size``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.local_response_norm(ug.tensor([[[2.0], [2.0]]]), 2, alpha=1.0, beta=1.0)
        tensor([[[0.6667],
                 [0.4000]]])
    """
    shape = tuple(input.shape)
    if len(shape) < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input "
                         f"(got {len(shape)} dimensions)")
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise TypeError(f"local_response_norm: argument 'size' must be an int, got "
                        f"{type(size).__name__}")
    if size <= 0:
        raise RuntimeError(f"local_response_norm: the window size should be greater than zero, "
                           f"but got size={size}")
    if math.prod(shape) == 0:
        return input
    squares = input * input
    widths = [0, 0] * (len(shape) - 2) + [size // 2, (size - 1) // 2]
    padded = pad(squares, widths)
    channels = shape[1]
    window = padded[:, 0:channels]
    for offset in range(1, size):
        window = window + padded[:, offset:offset + channels]
    return input / ((window * (alpha / size) + k) ** beta)


def normalize(input, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out=None):
    """Divide by the ``p``-norm over ``dim``, itself at least ``eps``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.normalize(ug.tensor([[3.0, 4.0], [0.0, 0.0]]))
        tensor([[0.6000, 0.8000],
                [0.0000, 0.0000]])
    """
    result = input / clamp_min(norm(input, p, dim, keepdim=True), eps)
    if out is None:
        return result
    return out.copy_(result)


__all__ = ["layer_norm", "batch_norm", "instance_norm", "group_norm", "rms_norm",
           "local_response_norm", "normalize"]
