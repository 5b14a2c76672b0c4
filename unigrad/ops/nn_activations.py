"""Activations, softmax and one-hot encoding of ``unigrad.nn.functional``.

``softmax``, ``log_softmax`` and ``one_hot`` are primitives; the activations
are composites of elementwise ops.

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> F.log_softmax(ug.tensor([0.0, 0.0]), dim=0)
    tensor([-0.6931, -0.6931])
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _state, backend
from ..autograd.node import present_as
from ..backend import namespace_of
from ..interpreters.batching import over_axes, over_leading_dims
from ..tensor import Tensor
from . import creation
from ._dtypes import float_operand
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, normalize_axis, shape_of
from .elementwise import (
    abs,
    cast,
    clip,
    exp,
    expm1,
    log,
    log1p,
    relu,
    sigmoid,
    softplus,
    tanh,
    where,
)
from .inplace import apply_inplace
from .reduce import argmax, sum
from .registry import op
from .scatter import scatter
from .shape import chunk, reshape

_local = _state.local

# ----------------------------------------------------------------------------- softmax


def _same_rule(x, axis):
    return shape_of(x), dtype_of(x)


def _shifted(x, axis):
    return x - x.max(axis=axis, keepdims=True)


def _log_softmax_impl(x, axis):
    if x.size == 0:
        return x.copy()
    xp = namespace_of(x)
    shifted = _shifted(x, axis)
    shifted -= xp.log(xp.exp(shifted).sum(axis=axis, keepdims=True))
    return shifted


def _softmax_impl(x, axis):
    if x.size == 0:
        return x.copy()
    exponentials = namespace_of(x).exp(_shifted(x, axis))
    exponentials /= exponentials.sum(axis=axis, keepdims=True)
    return exponentials


def _log_softmax_vjp(g, out, needs, x, axis):
    return (g - exp(out) * sum(g, dim=axis, keepdim=True),)


def _log_softmax_jvp(tangents, out, x, axis):
    t = tangents[0]
    return t - sum(exp(out) * t, dim=axis, keepdim=True)


def _softmax_vjp(g, out, needs, x, axis):
    return (out * (g - sum(g * out, dim=axis, keepdim=True)),)


def _softmax_jvp(tangents, out, x, axis):
    t = tangents[0]
    return out * (t - sum(out * t, dim=axis, keepdim=True))


# Primitives rather than max/exp/sum/log composites: one fused, stable kernel whose backward
# needs only the output (one node instead of six on the cross_entropy hot path, about 3x
# faster forward+backward on 256x10 logits; see test_nn_functional).
log_softmax_p = Primitive("log_softmax", _log_softmax_impl, _same_rule, vjp=_log_softmax_vjp,
                          jvp=_log_softmax_jvp, saves="output", autocast="float32",
                          batch=over_axes("axis"))
softmax_p = Primitive("softmax", _softmax_impl, _same_rule, vjp=_softmax_vjp, jvp=_softmax_jvp,
                      saves="output", autocast="float32", batch=over_axes("axis"))


def _softmax_axis(input, dim, name: str):
    ndim = len(input.shape)
    if dim is None:
        warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the "
                      f"call to include dim=X as an argument.", stacklevel=3)
        dim = 0 if ndim in (0, 1, 3) else 1
    axis = normalize_axis(dim, ndim)
    return None if ndim == 0 else axis


def _softmax_input(input, dtype, name: str = "softmax"):
    """The floating input of a softmax: ``input`` cast to ``dtype``; integers are refused
    (PyTorch's NotImplementedError), a Python list becomes a float tensor."""
    if dtype is not None:
        input = cast(input, dtype)
    data = getattr(input, "_data", None)
    if data is not None and data.dtype.kind not in "fc":
        from ._dtypes import torch_dtype_name
        raise NotImplementedError(f'"{name}_lastdim_kernel_impl" not implemented for '
                                  f"'{torch_dtype_name(data.dtype)}' (pass a floating input or "
                                  f"dtype=)")
    return float_operand(input)


@op(methods=("softmax",))
def softmax(input, dim: int | None = None, _stacklevel: int = 3, dtype=None):
    """``exp(input) / sum(exp(input), dim)``, computed stably.

    Example:
        >>> import unigrad as ug
        >>> ug.softmax(ug.tensor([[1.0, 1.0, 1.0, 1.0]]), dim=1)
        tensor([[0.2500, 0.2500, 0.2500, 0.2500]])
    """
    axis = _softmax_axis(input, dim, "softmax")
    return bind(softmax_p, _softmax_input(input, dtype), axis=axis)


@op(methods=("log_softmax",))
def log_softmax(input, dim: int | None = None, _stacklevel: int = 3, dtype=None):
    """``log(softmax(input, dim))`` without overflow or underflow.

    Example:
        >>> import unigrad as ug
        >>> ug.log_softmax(ug.tensor([1000.0, 1000.0]), dim=0)
        tensor([-0.6931, -0.6931])
    """
    axis = _softmax_axis(input, dim, "log_softmax")
    return bind(log_softmax_p, _softmax_input(input, dtype, "log_softmax"), axis=axis)


def _logsigmoid_impl(x):
    xp = namespace_of(x)
    return -(xp.maximum(-x, 0) + xp.log1p(xp.exp(-xp.abs(x)))).astype(x.dtype, copy=False)


# A primitive: composites of the stable formula max(-x, 0) + log1p(exp(-|x|)) have kinks at
# x = 0 (relu, abs) that break first- and second-order derivatives exactly there, where
# zero-initialized logits sit; log(sigmoid(x)) underflows to -inf for very negative x.
logsigmoid_p = Primitive("logsigmoid", _logsigmoid_impl, lambda x: (shape_of(x), dtype_of(x)),
                         kind="elementwise", vjp=lambda g, out, needs, x: (g * sigmoid(-x),),
                         backward_name="LogSigmoidBackward0")


def logsigmoid(input):
    """``log(sigmoid(input))`` without overflow or underflow.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.logsigmoid(ug.tensor([0.0, -200.0]))
        tensor([  -0.6931, -200.0000])
    """
    return bind(logsigmoid_p, float_operand(input))


# ----------------------------------------------------------------------------- one_hot

def _one_hot_impl(x, num_classes):
    xp = namespace_of(x)
    return (x[..., None] == xp.arange(num_classes)).astype(np.int64)


one_hot_p = Primitive("one_hot", _one_hot_impl,
                      lambda x, num_classes: (shape_of(x) + (num_classes,), np.dtype(np.int64)),
                      differentiable=False, batch=over_leading_dims())


def one_hot(tensor, num_classes: int = -1):
    """Integer class indices -> int64 one-hot rows of length ``num_classes`` (inferred if -1).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.one_hot(ug.tensor([0, 2]), 3)
        tensor([[1, 0, 0],
                [0, 0, 1]])
    """
    data = tensor._data if isinstance(tensor, Tensor) else tensor
    if data.dtype.kind not in "iu":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    trace = _state.local.trace
    if trace is not None and isinstance(tensor, Tensor):
        data = trace.read(tensor)  # ug.jit: its traced value (a constant made there has values)
    if hasattr(data, "__unigrad_abstract__"):  # ug.jit or vmap: no values to check or infer
        if num_classes == -1:
            error = data._concrete_error("Reading the values")
            raise type(error)(f"one_hot: num_classes=-1 infers the number of classes from the "
                              f"values of 'tensor', which are not known here: pass num_classes "
                              f"explicitly. ({error})")
        return bind(one_hot_p, tensor, num_classes=int(num_classes))
    host = backend.to_numpy(data)
    if num_classes == -1:
        if host.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(host.max()) + 1
    elif host.size:
        if int(host.min()) < 0:
            raise RuntimeError("Class values must be non-negative.")
        if int(host.max()) >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    return bind(one_hot_p, tensor, num_classes=int(num_classes))


# ----------------------------------------------------------------------------- activations

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def leaky_relu(input, negative_slope: float = 0.01, inplace: bool = False):
    """``input`` where positive, ``negative_slope * input`` elsewhere.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.leaky_relu(ug.tensor([-2.0, 3.0]), 0.1)
        tensor([-0.2000,  3.0000])
    """
    if inplace:
        return apply_inplace(input, leaky_relu, negative_slope)
    input = float_operand(input)
    return present_as(where(input > 0, input, input * negative_slope), "LeakyReluBackward0",
                      input)


def leaky_relu_(input, negative_slope: float = 0.01):
    """In-place :func:`leaky_relu`; returns ``input``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.leaky_relu_(ug.tensor([-2.0, 3.0]), 0.5)
        tensor([-1.,  3.])
    """
    return apply_inplace(input, leaky_relu, negative_slope)


def elu(input, alpha: float = 1.0, inplace: bool = False):
    """``input`` where positive, ``alpha * (exp(input) - 1)`` elsewhere.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.elu(ug.tensor([0.0, 2.0]))
        tensor([0., 2.])
    """
    if inplace:
        return apply_inplace(input, elu, alpha)
    input = float_operand(input)
    # clip keeps expm1 of large positives (inf, then inf * 0 = nan in backward) out of the
    # discarded branch
    output = where(input > 0, input, expm1(clip(input, max=0.0)) * alpha)
    return present_as(output, "EluBackward0", input)


def elu_(input, alpha: float = 1.0):
    """In-place :func:`elu`; returns ``input``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.elu_(ug.tensor([-100.0, 2.0]), 2.0)
        tensor([-2.,  2.])
    """
    return apply_inplace(input, elu, alpha)


def selu(input, inplace: bool = False):
    """``scale * elu(input, alpha)`` with the self-normalizing constants of Klambauer et al.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.selu(ug.tensor([-1.0, 1.0]))
        tensor([-1.1113,  1.0507])
    """
    if inplace:
        return apply_inplace(input, selu)
    input = float_operand(input)
    return present_as(elu(input, _SELU_ALPHA) * _SELU_SCALE, "EluBackward0", input)


def selu_(input):
    """In-place :func:`selu`; returns ``input``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.selu_(ug.tensor([0.0, 1.0]))
        tensor([0.0000, 1.0507])
    """
    return apply_inplace(input, selu)


def celu(input, alpha: float = 1.0, inplace: bool = False):
    """``max(0, input) + min(0, alpha * (exp(input / alpha) - 1))``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.celu(ug.tensor([-100.0, 2.0]), alpha=0.5)
        tensor([-0.5000,  2.0000])
    """
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    if inplace:
        return apply_inplace(input, celu, alpha)
    input = float_operand(input)
    output = where(input > 0, input, expm1(clip(input, max=0.0) / alpha) * alpha)
    return present_as(output, "CeluBackward0", input)


def celu_(input, alpha: float = 1.0):
    """In-place :func:`celu`; returns ``input``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.celu_(ug.tensor([-100.0, 2.0]))
        tensor([-1.,  2.])
    """
    return apply_inplace(input, celu, alpha)


def rrelu(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False):
    """Randomized leaky ReLU: negative inputs times a slope drawn from ``U(lower, upper)``.

    In training each element draws its own slope from unigrad's generator
    (``ug.manual_seed``); otherwise the slope is ``(lower + upper) / 2``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.rrelu(ug.tensor([-1.0, 2.0]), 0.25, 0.75)
        tensor([-0.5000,  2.0000])
    """
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if inplace:
        return apply_inplace(input, rrelu, lower, upper, training)
    input = float_operand(input)
    if not training:
        output = leaky_relu(input, (lower + upper) / 2)
    else:
        draws = creation.rand_like(input, dtype=input.dtype, device=input.device)
        output = where(input > 0, input, input * (draws * (upper - lower) + lower))
    return present_as(output, "RreluWithNoiseBackward0", input)


def rrelu_(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False):
    """In-place :func:`rrelu`; returns ``input``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.rrelu_(ug.tensor([-3.0, 2.0]), 0.1, 0.1, training=True)
        tensor([-0.3000,  2.0000])
    """
    return apply_inplace(input, rrelu, lower, upper, training)


def hardtanh(input, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False):
    """``input`` clamped to ``[min_val, max_val]``; the gradient is 0 at and beyond the bounds.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.hardtanh(ug.tensor([-3.0, 0.5, 3.0]))
        tensor([-1.0000,  0.5000,  1.0000])
    """
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return apply_inplace(input, hardtanh, min_val, max_val)
    input = float_operand(input)
    output = where(input <= min_val, min_val, where(input >= max_val, max_val, input))
    return present_as(output, "HardtanhBackward0", input)


def hardtanh_(input, min_val: float = -1.0, max_val: float = 1.0):
    """In-place :func:`hardtanh`; returns ``input``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.hardtanh_(ug.tensor([-3.0, 0.5]))
        tensor([-1.0000,  0.5000])
    """
    return apply_inplace(input, hardtanh, min_val, max_val)


def relu6(input, inplace: bool = False):
    """``min(max(input, 0), 6)``: :func:`hardtanh` over ``[0, 6]``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.relu6(ug.tensor([-1.0, 3.0, 9.0]))
        tensor([0., 3., 6.])
    """
    return hardtanh(input, 0.0, 6.0, inplace)


def relu_(input):
    """In-place ``relu``; returns ``input``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.relu_(ug.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """
    return apply_inplace(input, relu)


def hardsigmoid(input, inplace: bool = False):
    """``relu6(input + 3) / 6``, a piecewise-linear sigmoid.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.hardsigmoid(ug.tensor([-4.0, 0.0, 1.5, 4.0]))
        tensor([0.0000, 0.5000, 0.7500, 1.0000])
    """
    if inplace:
        return apply_inplace(input, hardsigmoid)
    input = float_operand(input)
    output = where(input <= -3.0, 0.0, where(input >= 3.0, 1.0, input / 6.0 + 0.5))
    return present_as(output, "HardsigmoidBackward0", input)


def hardswish(input, inplace: bool = False):
    """``input * relu6(input + 3) / 6`` (MobileNetV3).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.hardswish(ug.tensor([-4.0, 0.0, 1.5, 4.0]))
        tensor([0.0000, 0.0000, 1.1250, 4.0000])
    """
    if inplace:
        return apply_inplace(input, hardswish)
    input = float_operand(input)
    output = where(input <= -3.0, 0.0, where(input < 3.0, input * (input + 3.0) / 6.0, input))
    return present_as(output, "HardswishBackward0", input)


def mish(input, inplace: bool = False):
    """``input * tanh(softplus(input))``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.mish(ug.tensor([-1.0, 0.0, 1.0]))
        tensor([-0.3034,  0.0000,  0.8651])
    """
    if inplace:
        return apply_inplace(input, mish)
    input = float_operand(input)
    return present_as(input * tanh(softplus(input)), "MishBackward0", input)


def softsign(input):
    """``input / (1 + |input|)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.softsign(ug.tensor([-3.0, 1.0]))
        tensor([-0.7500,  0.5000])
    """
    input = float_operand(input)
    return input / (abs(input) + 1.0)


def tanhshrink(input):
    """``input - tanh(input)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.tanhshrink(ug.tensor([0.0, 1.0]))
        tensor([0.0000, 0.2384])
    """
    input = float_operand(input)
    return input - tanh(input)


def threshold(input, threshold: float, value: float, inplace: bool = False):
    """``input`` where ``input > threshold``, ``value`` elsewhere.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.threshold(ug.tensor([0.5, 2.0]), 1.0, -5.0)
        tensor([-5.,  2.])
    """
    if inplace:
        return apply_inplace(input, _threshold, threshold, value)
    return present_as(where(input > threshold, input, value), "ThresholdBackward0", input)


def threshold_(input, threshold: float, value: float):
    """In-place :func:`threshold`; returns ``input``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.threshold_(ug.tensor([0.5, 2.0]), 1.0, 0.0)
        tensor([0., 2.])
    """
    return apply_inplace(input, _threshold, threshold, value)


_threshold = threshold


def hardshrink(input, lambd: float = 0.5):
    """``input`` where ``|input| > lambd``, 0 elsewhere.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.hardshrink(ug.tensor([-1.0, 0.25, 0.75]))
        tensor([-1.0000,  0.0000,  0.7500])
    """
    input = float_operand(input)
    output = where((input >= -lambd) & (input <= lambd), 0.0, input)
    return present_as(output, "HardshrinkBackward0", input)


def softshrink(input, lambd: float = 0.5):
    """``input`` moved ``lambd`` toward 0, and 0 where ``|input| <= lambd``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.softshrink(ug.tensor([-1.0, 0.25, 0.75]))
        tensor([-0.5000,  0.0000,  0.2500])
    """
    input = float_operand(input)
    if lambd < 0:
        dtype = np.dtype(dtype_of(input._data))
        raise RuntimeError(f"lambda must be in range [0, {np.finfo(dtype).max:.6g}] for input "
                           f"dtype {_TYPE_NAMES.get(dtype.name, dtype.name)}, but found {lambd}")
    output = where(input > lambd, input - lambd, where(input < -lambd, input + lambd, 0.0))
    return present_as(output, "SoftshrinkBackward0", input)


_TYPE_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double"}


def prelu(input, weight):
    """``input`` where positive, ``weight * input`` elsewhere, one slope per channel (dim 1).

    ``weight`` holds one slope or one per channel (``input.shape[1]``; a
    0-D or 1-D ``input`` has one channel).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.prelu(ug.tensor([[-1.0, -1.0], [2.0, -2.0]]), ug.tensor([0.1, 0.5]))
        tensor([[-0.1000, -0.5000],
                [ 2.0000, -1.0000]])
    """
    input = float_operand(input)
    slopes = tuple(weight.shape)
    if len(slopes) > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {len(slopes)}")
    count = math.prod(slopes)
    channels = input.shape[1] if len(input.shape) > 1 else 1
    if count != 1 and count != channels:
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                           f"parameter numbers = {count} and channel size = {channels}.")
    ndim = len(input.shape)
    if len(slopes) != ndim:  # PyTorch's view of the weight: input's rank, the slopes on dim 1
        weight = reshape(weight, tuple(count if axis == 1 else 1 for axis in range(ndim)))
    viewed = weight
    if count != 1:  # the slopes broadcast from (channels, 1, ...), as the gradient sums them
        weight = reshape(weight, (channels,) + (1,) * (ndim - 2))
    elif slopes:
        weight = reshape(weight, ())
    return present_as(where(input > 0, input, weight * input), "PreluKernelBackward0", input,
                      viewed)


def glu(input, dim: int = -1):
    """Gated linear unit: the first half of ``input`` along ``dim`` times sigmoid of the second.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.glu(ug.tensor([[1.0, 2.0, 0.0, 100.0]]))
        tensor([[0.5000, 2.0000]])
    """
    if len(input.shape) == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    axis = normalize_axis(dim, len(input.shape))
    if input.shape[axis] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {axis} is size "
                           f"{input.shape[axis]}")
    input = float_operand(input)
    first, second = chunk(input, 2, axis)
    return present_as(first * sigmoid(second), "GluBackward0", input)


def softmin(input, dim: int | None = None, _stacklevel: int = 3, dtype=None):
    """``softmax(-input, dim)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.softmin(ug.tensor([0.0, 0.0, 1000.0]), dim=0)
        tensor([0.5000, 0.5000, 0.0000])
    """
    axis = _softmax_axis(input, dim, "softmin")
    return bind(softmax_p, -_softmax_input(input, dtype), axis=axis)


def gumbel_softmax(logits, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1):
    """A sample of the Gumbel-softmax (concrete) distribution over ``dim``.

    ``softmax((logits + g) / tau, dim)`` with Gumbel(0, 1) noise ``g`` from
    unigrad's generator. ``hard=True`` returns one-hot rows whose gradient
    is the soft sample's (straight-through). ``eps`` is deprecated and unused.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> sample = F.gumbel_softmax(ug.zeros(2, 3), hard=True)
        >>> sample.sum(dim=-1)
        tensor([1., 1.])
    """
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    logits = float_operand(logits)
    draws = creation.rand_like(logits, dtype=logits.dtype, device=logits.device)
    gumbels = -log(-log1p(-draws))  # -log of Exponential(1) samples
    soft = softmax((logits + gumbels) / tau, dim)
    if not hard:
        return soft
    index = argmax(soft, dim, keepdim=True)
    one_hot_rows = scatter(creation.zeros_like(logits), dim, index, value=1.0)
    return one_hot_rows - soft.detach() + soft


__all__ = ["softmax", "log_softmax", "logsigmoid", "one_hot", "leaky_relu", "leaky_relu_",
           "elu", "elu_", "selu", "selu_", "celu", "celu_", "rrelu", "rrelu_", "hardtanh",
           "hardtanh_", "relu6", "relu_", "hardsigmoid", "hardswish", "mish", "softsign",
           "tanhshrink", "threshold", "threshold_", "hardshrink", "softshrink", "prelu", "glu",
           "softmin", "gumbel_softmax"]
