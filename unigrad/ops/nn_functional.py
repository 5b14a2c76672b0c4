"""Neural-network functions (``unigrad.nn.functional``) with PyTorch's signatures.

This module holds linear, dropout, normalization and embedding, and gathers
the families of the other ``nn_*`` modules: activations and softmax
(``nn_activations``), convolutions and pools (``nn_convolution``), losses
(``nn_losses``). Everything is a composite of primitives.

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> F.softmax(ug.tensor([0.0, 0.0]), dim=0)
    tensor([0.5000, 0.5000])
"""

from __future__ import annotations

import math

import numpy as np

from .. import _state, backend
from ..autograd.grad_mode import no_grad
from ..backend import namespace_of
from ..interpreters.batching import per_example, randomness_levels
from ..tensor import Tensor, _make_tensor
from . import (
    creation,
    nn_activations,
    nn_attention,
    nn_convolution,
    nn_losses,
    nn_pooling,
    nn_resampling,
)
from ._dtypes import float_operand
from .elementwise import cast, sqrt, where
from .indexing import getitem, is_traced
from .linalg import matmul
from .nn_activations import *  # noqa: F403
from .nn_attention import *  # noqa: F403
from .nn_convolution import *  # noqa: F403
from .nn_losses import *  # noqa: F403
from .nn_pooling import *  # noqa: F403
from .nn_resampling import *  # noqa: F403
from .reduce import mean
from .registry import op
from .shape import reshape, transpose

_local = _state.local

# ----------------------------------------------------------------------------- linear

@op(autocast="lower")
def linear(input, weight, bias=None):
    """``input @ weight.T + bias`` with ``weight`` of shape ``(out_features, in_features)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.linear(ug.ones((2, 3)), ug.ones((4, 3)), ug.zeros(4)).shape
        (2, 4)
    """
    output = matmul(input, transpose(weight) if len(weight.shape) == 2 else weight)
    return output if bias is None else output + bias


# ----------------------------------------------------------------------------- dropout

def dropout(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``.

    The mask comes from the generator seeded by ``ug.manual_seed``; with
    ``training=False`` the input is returned unchanged.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.dropout(ug.ones(4), p=0.5, training=False)
        tensor([1., 1., 1., 1.])
    """
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    data = input._data if isinstance(input, Tensor) else input
    creation._refuse_while_tracing("dropout")
    levels = randomness_levels("dropout")
    with creation._generator_lock:
        draws = creation.generator().random(tuple(level.size for level in levels)
                                            + tuple(data.shape))
    scale = np.where(draws >= p, 1.0 / (1.0 - p) if p < 1.0 else 0.0, 0.0).astype(data.dtype)
    if not levels:
        scale = namespace_of(data).asarray(scale)
    mask = per_example(_make_tensor(scale), levels)
    if inplace:
        return input.mul_(mask)
    return input * (mask if isinstance(input, Tensor) or levels else scale)


# ----------------------------------------------------------------------------- normalization

def _normalized(centered, variance, eps: float):
    return centered * (1.0 / sqrt(variance + eps))


@op(autocast="float32")
def layer_norm(input, normalized_shape, weight=None, bias=None, eps: float = 1e-5):
    """Normalize over the trailing ``normalized_shape`` dimensions, then scale and shift.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.layer_norm(ug.tensor([[1.0, 3.0]]), (2,))
        tensor([[-1.0000,  1.0000]])
    """
    if isinstance(normalized_shape, (int, np.integer)):
        normalized_shape = (int(normalized_shape),)
    normalized_shape = tuple(int(n) for n in normalized_shape)
    shape = tuple(input.shape)
    count = len(normalized_shape)
    if count == 0 or shape[len(shape) - count:] != normalized_shape or count > len(shape):
        expected = ", ".join(str(n) for n in normalized_shape)
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input with "
                           f"shape [*, {expected}], but got input of size{list(shape)}")
    input = float_operand(input)
    axes = tuple(range(len(shape) - count, len(shape)))
    centered = input - mean(input, dim=axes, keepdim=True)
    output = _normalized(centered, mean(centered * centered, dim=axes, keepdim=True), eps)
    if weight is not None:
        output = output * weight
    return output if bias is None else output + bias


def _channel_shaped(value, channels: int, ndim: int):
    return reshape(value, (channels,) + (1,) * (ndim - 2))


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
    channels = shape[1]
    for name, value in (("running_mean", running_mean), ("running_var", running_var),
                        ("weight", weight), ("bias", bias)):
        if value is not None and math.prod(value.shape) != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not "
                               f"{math.prod(value.shape)}")
    input = float_operand(input)
    ndim = len(shape)
    if training:
        per_channel = math.prod(shape) // max(channels, 1)
        if per_channel <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input "
                             f"size {list(shape)}")
        axes = (0,) + tuple(range(2, ndim))
        batch_mean = mean(input, dim=axes, keepdim=True)
        centered = input - batch_mean
        batch_var = mean(centered * centered, dim=axes, keepdim=True)
        output = _normalized(centered, batch_var, eps)
        _update_running(running_mean, batch_mean, momentum)
        _update_running(running_var, batch_var * (per_channel / (per_channel - 1)), momentum)
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError("batch_norm: running_mean and running_var must be given when "
                               "training=False")
        centered = input - _channel_shaped(running_mean, channels, ndim)
        output = _normalized(centered, _channel_shaped(running_var, channels, ndim), eps)
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


# ----------------------------------------------------------------------------- embedding

def embedding(input, weight, padding_idx: int | None = None, max_norm=None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False):
    """Rows of ``weight`` at the integer indices ``input``: shape ``input.shape + (dim,)``.

    The row ``padding_idx`` gets no gradient.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.embedding(ug.tensor([[2, 0]]), ug.arange(6.0).reshape(3, 2))
        tensor([[[4., 5.],
                 [0., 1.]]])
    """
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding: max_norm, scale_grad_by_freq and sparse are not "
                                  "supported")
    count = weight.shape[0]
    if padding_idx is not None:
        if not -count <= padding_idx < count:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx %= count
    indices = input._data if isinstance(input, Tensor) else np.asarray(input)
    if indices.dtype.kind not in "iu":
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got {indices.dtype} instead")
    if indices.size and not is_traced(indices):  # traced indices are checked when run
        host = backend.to_numpy(indices)
        if int(host.min()) < 0 or int(host.max()) >= count:
            raise IndexError("index out of range in self")
    rows = getitem(weight, input if isinstance(input, Tensor) else _make_tensor(indices))
    if padding_idx is None or not isinstance(rows, Tensor) or not rows.requires_grad:
        return rows
    is_padding = reshape(input == padding_idx, tuple(indices.shape) + (1,))
    return where(is_padding, rows.detach(), rows)


# this module's own functions; the other nn_* families add theirs below
_OWN = ["linear", "dropout", "layer_norm", "batch_norm", "embedding"]

__all__ = (_OWN + nn_activations.__all__ + nn_convolution.__all__ + nn_pooling.__all__
           + nn_losses.__all__ + nn_resampling.__all__ + nn_attention.__all__)
