"""Neural-network functions (``unigrad.nn.functional``) with PyTorch's signatures.

This module holds linear and bilinear, dropout and its channel and alpha
variants, embedding and embedding_bag, and gathers the families of the other
``nn_*`` modules: activations and softmax (``nn_activations``), convolutions
and pools (``nn_convolution``), losses (``nn_losses``), normalization
(``nn_normalization``), distances (``nn_distance``). Everything is a
composite of primitives.

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> F.softmax(ug.tensor([0.0, 0.0]), dim=0)
    tensor([0.5000, 0.5000])
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _state, backend
from ..autograd.grad_mode import no_grad
from ..autograd.node import present_as
from ..backend import namespace_of
from ..interpreters import has_values
from ..interpreters.batching import per_example
from ..tensor import Tensor, _make_tensor
from . import (
    creation,
    nn_activations,
    nn_attention,
    nn_convolution,
    nn_distance,
    nn_losses,
    nn_normalization,
    nn_pooling,
    nn_resampling,
)
from ._primitive import bind
from .elementwise import cast, where
from .elementwise_math import clamp_min
from .indexing import getitem, is_traced, scatter_add
from .linalg import einsum, matmul
from .nn_activations import *  # noqa: F403
from .nn_attention import *  # noqa: F403
from .nn_convolution import *  # noqa: F403
from .nn_distance import *  # noqa: F403
from .nn_losses import *  # noqa: F403
from .nn_normalization import *  # noqa: F403
from .nn_pooling import *  # noqa: F403
from .nn_resampling import *  # noqa: F403
from .registry import op
from .scatter import index_add, scatter_reduce
from .shape import expand, reshape, reshape_p, transpose_axes
from .sorting import searchsorted

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
    if len(weight.shape) != 2:
        output = matmul(input, weight)
        return output if bias is None else output + bias
    # PyTorch's graph: weight.t() is a node of its own (TBackward0); a 2-d input with a bias is
    # addmm(bias, input, weight.t()), a contiguous one of more dims with a 1-d bias the same
    # over its rows (viewed as a matrix and back); otherwise matmul(input, weight.t()) + bias
    weight_t = present_as(transpose_axes(weight, (1, 0)), "TBackward0", weight)
    shape = tuple(input.shape)
    if bias is None:
        if len(shape) < 3 or not _contiguous(input):
            return matmul(input, weight_t)
        # more dims: PyTorch multiplies the rows as a matrix and views the product back
        rows = bind(reshape_p, input, shape=(math.prod(shape[:-1]), shape[-1]))
        matrix = matmul(rows, weight_t)
        product = bind(reshape_p, matrix, shape=shape[:-1] + (weight.shape[0],))
        return present_as(product, "UnsafeViewBackward0", matrix)
    if len(shape) == 2:
        return present_as(matmul(input, weight_t) + bias, "AddmmBackward0", bias, input, weight_t)
    if len(shape) < 3 or len(bias.shape) != 1 or not _contiguous(input):
        # (a 1-d input: PyTorch's addmm of its (1, n) view, whose double backward sums in
        # another order than matmul's; kept as matmul + bias for unchanged gradients)
        return matmul(input, weight_t) + bias
    rows = bind(reshape_p, input, shape=(math.prod(shape[:-1]), shape[-1]))
    output = present_as(matmul(rows, weight_t) + bias, "AddmmBackward0", bias, rows, weight_t)
    return bind(reshape_p, output, shape=shape[:-1] + (weight.shape[0],))


def _contiguous(input) -> bool:
    """Whether ``input``'s data is C-contiguous (traced or batched data counts as such)."""
    flags = getattr(input._data, "flags", None) if isinstance(input, Tensor) else None
    return flags is None or bool(flags.c_contiguous)


# ----------------------------------------------------------------------------- dropout

def _check_probability(p) -> None:
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _random_masks(name: str, input, shape: tuple, p: float, pairs: tuple) -> list:
    """One uniform draw per element of ``shape``; for each ``(kept, dropped)`` of ``pairs``
    a mask of ``input``'s dtype holding ``kept`` where the draw is at least ``p`` (kept) and
    ``dropped`` elsewhere.

    Inside ``ug.vmap`` every example draws its own mask (the randomness levels); inside
    ``ug.jit`` the draw is made at every call (``unigrad.ops.random_draw``).
    """
    data = input._data if isinstance(input, Tensor) else input
    draws, levels = creation._draw(name, None, shape, "uniform", (0.0, 1.0))
    kept_where = per_example(_make_tensor(draws), levels) >= p
    masks = []
    for kept, dropped in pairs:
        mask = where(kept_where, np.asarray(kept, data.dtype), np.asarray(dropped, data.dtype))
        if not levels and has_values(data) and type(data) is not np.ndarray:
            mask = _make_tensor(namespace_of(data).asarray(mask._data))  # onto input's device
        masks.append(mask if levels or isinstance(input, Tensor) else mask._data)
    return masks


def _apply_mask(input, mask, inplace: bool):
    return input.mul_(mask) if inplace else input * mask


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
    _check_probability(p)
    if not training or p == 0.0:
        return input
    kept = 1.0 / (1.0 - p) if p < 1.0 else 0.0
    mask, = _random_masks("dropout", input, tuple(input.shape), p, ((kept, 0.0),))
    return _apply_mask(input, mask, inplace)


def _feature_shape(shape: tuple, batched: bool) -> tuple:
    """One draw per channel: ``(N, C, 1, ...)``, or ``(C, 1, ...)`` without a batch dim."""
    if not batched:
        return shape[:1] + (1,) * (len(shape) - 1)
    if len(shape) < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return shape[:2] + (1,) * (len(shape) - 2)


def _feature_dropout(name: str, input, p: float, training: bool, inplace: bool,
                     batched: bool):
    if not training or p == 0.0 or math.prod(tuple(input.shape)) == 0:
        return input
    kept = 1.0 / (1.0 - p) if p < 1.0 else 0.0
    shape = _feature_shape(tuple(input.shape), batched)
    mask, = _random_masks(name, input, shape, p, ((kept, 0.0),))
    return _apply_mask(input, mask, inplace)


def dropout1d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of ``(N, C, L)`` or ``(C, L)`` input with probability ``p``.

    The kept channels are scaled by ``1 / (1 - p)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> _ = ug.manual_seed(0)
        >>> out = F.dropout1d(ug.ones(1, 6, 3))
        >>> all(row in ([0.0] * 3, [2.0] * 3) for row in out[0].tolist())
        True
    """
    _check_probability(p)
    ndim = len(tuple(input.shape))
    if ndim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {ndim}D input. "
                           "Note that dropout1d exists to provide channel-wise dropout on inputs "
                           "with 1 spatial dimension, a channel dimension, and an optional batch "
                           "dimension (i.e. 2D or 3D inputs).")
    return _feature_dropout("dropout1d", input, p, training, inplace, ndim == 3)


def dropout2d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of ``(N, C, H, W)`` input with probability ``p``.

    As in PyTorch, a 3-D input is taken as ``(N, C, L)`` (with a warning) and
    other ranks warn that they are deprecated.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.dropout2d(ug.ones(1, 2, 1, 1), training=False).shape
        (1, 2, 1, 1)
    """
    _check_probability(p)
    ndim = len(tuple(input.shape))
    if ndim not in (3, 4):
        warnings.warn(f"dropout2d: Received a {ndim}-D input to dropout2d, which is deprecated "
                      "and will result in an error in a future release. To retain the behavior "
                      "and silence this warning, please use dropout instead. Note that dropout2d "
                      "exists to provide channel-wise dropout on inputs with 2 spatial "
                      "dimensions, a channel dimension, and an optional batch dimension (i.e. 3D "
                      "or 4D inputs).", stacklevel=2)
    if ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise "
                      "1D dropout behavior is desired - input is interpreted as shape (N, C, L), "
                      "where C is the channel dim. This behavior will change in a future release "
                      "to interpret the input as one without a batch dimension, i.e. shape (C, H, "
                      "W). To maintain the 1D channel-wise dropout behavior, please switch to "
                      "using dropout1d instead.", stacklevel=2)
    return _feature_dropout("dropout2d", input, p, training, inplace, True)


def dropout3d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """Zero whole channels of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input with probability ``p``.

    Other ranks warn that they are deprecated, as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.dropout3d(ug.ones(2, 1, 1, 1), p=0.0).shape
        (2, 1, 1, 1)
    """
    _check_probability(p)
    ndim = len(tuple(input.shape))
    if ndim not in (4, 5):
        warnings.warn(f"dropout3d: Received a {ndim}-D input to dropout3d, which is deprecated "
                      "and will result in an error in a future release. To retain the behavior "
                      "and silence this warning, please use dropout instead. Note that dropout3d "
                      "exists to provide channel-wise dropout on inputs with 3 spatial "
                      "dimensions, a channel dimension, and an optional batch dimension (i.e. 4D "
                      "or 5D inputs).", stacklevel=2)
    return _feature_dropout("dropout3d", input, p, training, inplace, ndim == 5)


_SELU_NEGATIVE_LIMIT = 1.7580993408473766  # SELU's scale * alpha: its limit at -infinity


def _alpha_dropout(name: str, input, p: float, training: bool, inplace: bool, shape_of):
    _check_probability(p)
    if not training or p == 0.0 or math.prod(tuple(input.shape)) == 0:
        return input
    if p == 1.0:
        return _apply_mask(input, 0.0, inplace)
    alpha = _SELU_NEGATIVE_LIMIT
    scale = 1.0 / math.sqrt((alpha * alpha * p + 1.0) * (1.0 - p))
    shift = alpha * scale * p
    mask, offset = _random_masks(name, input, shape_of(tuple(input.shape)), p,
                                 ((scale, 0.0), (shift, shift - alpha * scale)))
    output = _apply_mask(input, mask, inplace)
    return output.add_(offset) if inplace else output + offset


def alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False):
    """Dropout for SELU networks: keeps zero mean and unit variance of its input.

    Dropped elements become SELU's negative saturation value; then an affine
    map restores the statistics. Note PyTorch's default ``training=False``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> _ = ug.manual_seed(0)
        >>> out = F.alpha_dropout(ug.randn(10000, dtype=ug.float64), 0.2, training=True)
        >>> abs(float(out.mean())) < 0.05, abs(float(out.std()) - 1.0) < 0.05
        (True, True)
    """
    return _alpha_dropout("alpha_dropout", input, p, training, inplace, lambda shape: shape)


def feature_alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False):
    """:func:`alpha_dropout` of whole channels (dimension 1) of an ``(N, C, *)`` input.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.feature_alpha_dropout(ug.ones(2, 3), 0.5).shape
        (2, 3)
    """
    return _alpha_dropout("feature_alpha_dropout", input, p, training, inplace,
                          lambda shape: _feature_shape(shape, True))


# ----------------------------------------------------------------------------- embedding

def _known_indices(indices, name: str) -> np.ndarray:
    """The index values on the host, for the options that need them (not while traced)."""
    data = indices._data if isinstance(indices, Tensor) else np.asarray(indices)
    if is_traced(data):
        raise NotImplementedError(f"{name}: max_norm and scale_grad_by_freq need the indices' "
                                  f"values (not available inside ug.jit or vmap)")
    return backend.to_numpy(data)


def _renormalize_rows_(weight, indices: np.ndarray, max_norm: float, norm_type: float) -> None:
    """PyTorch's ``embedding_renorm_``: every row of ``weight`` that ``indices`` looks up and
    whose ``norm_type``-norm exceeds ``max_norm`` is scaled by ``max_norm / (norm + 1e-7)``,
    in place and without gradient (each row once, however often it is looked up)."""
    rows = np.unique(indices)
    if not rows.size:
        return
    xp = namespace_of(weight._data)
    positions = xp.asarray(rows)
    selected = weight._data[positions]
    norms = xp.linalg.norm(selected.astype(np.float64), ord=norm_type, axis=1)
    scale = xp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    with no_grad():
        weight._bump_version()
        weight._data[positions] = (selected * scale[:, None]).astype(selected.dtype)


def _gradient_scaled_by_frequency(weight, indices: np.ndarray):
    """``weight`` with the same values, each row's gradient divided by how often ``indices``
    holds it (PyTorch's ``scale_grad_by_freq``)."""
    if not weight.requires_grad:
        return weight
    counts = np.bincount(indices.ravel(), minlength=weight.shape[0])
    scale = (1.0 / np.maximum(counts, 1)).astype(weight._data.dtype)
    scale = _make_tensor(backend.to_device(scale, weight.device))
    constant = weight.detach()
    return constant + (weight - constant) * reshape(scale, (weight.shape[0], 1))


def _lookup_options(name: str, indices, weight, max_norm, norm_type: float,
                    scale_grad_by_freq: bool):
    """Apply ``max_norm`` (in place) and ``scale_grad_by_freq``: the weight to look up in."""
    if max_norm is None and not scale_grad_by_freq:
        return weight
    host = _known_indices(indices, name)
    if max_norm is not None:
        _renormalize_rows_(weight, host, max_norm, norm_type)
    return _gradient_scaled_by_frequency(weight, host) if scale_grad_by_freq else weight


def embedding(input, weight, padding_idx: int | None = None, max_norm=None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False):
    """Rows of ``weight`` at the integer indices ``input``: shape ``input.shape + (dim,)``.

    The row ``padding_idx`` gets no gradient. ``max_norm`` first rescales, in
    place, the looked-up rows whose ``norm_type``-norm exceeds it;
    ``scale_grad_by_freq`` divides each row's gradient by its index's count.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.embedding(ug.tensor([[2, 0]]), ug.arange(6.0).reshape(3, 2))
        tensor([[[4., 5.],
                 [0., 1.]]])
        >>> weight = ug.tensor([[3.0, 4.0], [0.3, 0.4]])
        >>> F.embedding(ug.tensor([0]), weight, max_norm=1.0)
        tensor([[0.6000, 0.8000]])
        >>> weight[0]
        tensor([0.6000, 0.8000])
    """
    if sparse:
        raise NotImplementedError("embedding: sparse=True (sparse gradients) is not supported; "
                                  "gradients are dense")
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
    table = _lookup_options("embedding", indices, weight, max_norm, norm_type,
                            scale_grad_by_freq)
    rows = getitem(table, input if isinstance(input, Tensor) else _make_tensor(indices))
    if padding_idx is not None and isinstance(rows, Tensor) and rows.requires_grad:
        is_padding = reshape(input == padding_idx, tuple(indices.shape) + (1,))
        rows = where(is_padding, rows.detach(), rows)
    return present_as(rows, "EmbeddingBackward0", weight)


def _bag_operands(input, offsets, per_sample_weights, include_last_offset: bool):
    """``input`` flattened to 1-D, the bag ``offsets`` and the flat ``per_sample_weights``."""
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError(f"if input is 2D, then offsets has to be None, as input is treated "
                             f"is a mini-batch of fixed length sequences. However, found offsets "
                             f"of type {type(offsets)}")
        count, length = tuple(input.shape)
        offsets = creation.arange(0, count * length, max(length, 1), dtype=input.dtype,
                                  device=input.device)[:count]
        if per_sample_weights is not None:
            per_sample_weights = reshape(per_sample_weights, (-1,))
        return reshape(input, (-1,)), offsets, per_sample_weights, False
    if input.ndim != 1:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.ndim}")
    if offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if not isinstance(offsets, Tensor) or offsets.ndim != 1:
        raise ValueError("offsets has to be a 1D Tensor")
    return input, offsets, per_sample_weights, include_last_offset


def _check_bag_values(indices, offsets, rows: int) -> None:
    """PyTorch's checks of the index and offset values (skipped while they are traced)."""
    for name, value in (("indices", indices), ("offsets", offsets)):
        if value._data.dtype.kind not in "iu":
            raise RuntimeError(f"embedding_bag: expected {name} of an integer dtype (Long or "
                               f"Int), but got {value.dtype}")
    if is_traced(indices._data) or is_traced(offsets._data):
        return
    host_indices, host_offsets = backend.to_numpy(indices._data), backend.to_numpy(offsets._data)
    outside = np.flatnonzero((host_indices < 0) | (host_indices >= rows))
    if outside.size:
        raise RuntimeError(f"Index {outside[0]} of input takes value "
                           f"{host_indices[outside[0]]} which is not in the valid range "
                           f"[0, {rows})")
    if host_offsets.size and host_offsets[0] != 0:
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                           f"has to start from position 0. However, got {host_offsets[0]}")
    if host_offsets.size and host_offsets[-1] > host_indices.size:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length "
                           f"{host_indices.size} but got offsets[-1] of {host_offsets[-1]}")
    if np.any(np.diff(host_offsets) < 0):
        raise RuntimeError("embedding_bag: offsets must be non-decreasing")


def _bag_padding_idx(padding_idx, rows: int) -> int | None:
    if padding_idx is None:
        return None
    if not -rows <= padding_idx < rows:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{rows} "
                           f"through {rows - 1}, but got {padding_idx}")
    return padding_idx % rows


def _check_bag_mode(mode: str, scale_grad_by_freq: bool, sparse: bool,
                    per_sample_weights) -> None:
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if sparse:
        raise NotImplementedError("embedding_bag: sparse=True (sparse gradients) is not "
                                  "supported; gradients are dense")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' "
                                  f"(got mode='{mode}'). Please open a feature request on "
                                  f"GitHub.")


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type: float = 2,
                  scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights=None, include_last_offset: bool = False,
                  padding_idx: int | None = None):
    """Sum, mean or max of the rows of ``weight`` looked up by each bag of indices.

    A 1-D ``input`` is split into bags starting at ``offsets`` (with
    ``include_last_offset=True`` the last offset ends the last bag); each row
    of a 2-D ``input`` is one bag. Indices equal to ``padding_idx`` are left
    out; an empty bag gives zeros. ``per_sample_weights`` (``mode='sum'``
    only) scales each looked-up row. ``max_norm`` and ``scale_grad_by_freq``
    act as in :func:`embedding` (each row's gradient divided by its index's
    count in ``input``).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> weight = ug.arange(8.0).reshape(4, 2)
        >>> F.embedding_bag(ug.tensor([0, 1, 3]), weight, ug.tensor([0, 2]), mode="sum")
        tensor([[2., 4.],
                [6., 7.]])
        >>> F.embedding_bag(ug.tensor([[0, 2], [1, 1]]), weight, mode="max")
        tensor([[4., 5.],
                [2., 3.]])
    """
    if weight._data.dtype == np.int64 and input._data.dtype.kind == "f":
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is "
                         f"not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if weight.ndim != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.ndim}")
    indices, offsets, per_sample_weights, include_last_offset = _bag_operands(
        input, offsets, per_sample_weights, include_last_offset)
    _check_bag_mode(mode, scale_grad_by_freq, sparse, per_sample_weights)
    rows = weight.shape[0]
    padding_idx = _bag_padding_idx(padding_idx, rows)
    _check_bag_values(indices, offsets, rows)
    bags = _bags(indices, offsets, per_sample_weights, include_last_offset, padding_idx, mode,
                 _lookup_options("embedding_bag", indices, weight, max_norm, norm_type,
                                 scale_grad_by_freq))
    return present_as(bags, "EmbeddingBagBackward0", weight, per_sample_weights)


def _bags(indices, offsets, per_sample_weights, include_last_offset: bool, padding_idx,
          mode: str, weight):
    """The bags of :func:`embedding_bag`, from its checked operands."""
    starts = offsets[:-1] if include_last_offset else offsets
    bag_count, count = starts.shape[0], indices.shape[0]
    positions = creation.arange(count, dtype=offsets.dtype, device=weight.device)
    bag = searchsorted(starts, positions, right=True) - 1
    valid = bag >= 0
    if include_last_offset:
        valid = valid & (positions < offsets[-1])
    if padding_idx is not None:
        valid = valid & (indices != padding_idx)
    bag = where(valid, bag, 0)
    looked_up = getitem(weight, where(valid, indices, 0))
    if per_sample_weights is not None:
        looked_up = looked_up * reshape(per_sample_weights, (count, 1))
    weights_of_valid = cast(valid, weight.dtype)
    target = creation.zeros(bag_count, weight.shape[1], dtype=weight.dtype, device=weight.device)
    spread = expand(reshape(bag, (count, 1)), (count, weight.shape[1]))
    if mode == "max":
        masked = where(reshape(valid, (count, 1)), looked_up, -math.inf)
        largest = scatter_reduce(target, 0, spread, masked, "amax", include_self=False)
        filled = index_add(creation.zeros(bag_count, dtype=weight.dtype, device=weight.device),
                           0, bag, weights_of_valid)
        return where(reshape(filled > 0, (bag_count, 1)), largest, 0.0)
    sums = scatter_add(target, 0, spread, looked_up * reshape(weights_of_valid, (count, 1)))
    if mode == "sum":
        return sums
    counts = index_add(creation.zeros(bag_count, dtype=weight.dtype, device=weight.device), 0,
                       bag, weights_of_valid)
    return sums / reshape(clamp_min(counts, 1.0), (bag_count, 1))


# ----------------------------------------------------------------------------- bilinear

@op(autocast="lower")
def bilinear(input1, input2, weight, bias=None):
    """``y[..., o] = input1[..., i] * weight[o, i, j] * input2[..., j] + bias[o]``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.bilinear(ug.ones(2, 3), ug.ones(2, 4), ug.ones(5, 3, 4), ug.zeros(5)).shape
        (2, 5)
    """
    first, second = tuple(input1.shape), tuple(input2.shape)
    if len(first) != len(second):
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {len(first)} and "
                           f"{len(second)}")
    for axis, (size1, size2) in enumerate(zip(first[:-1], second[:-1])):
        if size1 != size2:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {axis}: "
                               f"got {size1} and {size2}")
    if weight.ndim != 3:
        raise RuntimeError(f"bilinear(): weight must be three-dimensional, but got "
                           f"{weight.ndim} dimensions")
    for name, size, expected in (("input1", first[-1], weight.shape[1]),
                                 ("input2", second[-1], weight.shape[2])):
        if size != expected:
            raise RuntimeError(f"bilinear(): {name} size does not match weight size: got {size} "
                               f"but expected {expected}")
    if bias is not None and tuple(bias.shape) != (weight.shape[0],):
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got "
                           f"{bias.shape[-1] if bias.ndim else 1} but expected {weight.shape[0]}")
    output = einsum("...i,oij,...j->...o", input1, weight, input2)
    return output if bias is None else output + bias


# this module's own functions; the other nn_* families add theirs below
_OWN = ["linear", "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
        "feature_alpha_dropout", "embedding", "embedding_bag", "bilinear"]

__all__ = (_OWN + nn_activations.__all__ + nn_convolution.__all__ + nn_pooling.__all__
           + nn_losses.__all__ + nn_resampling.__all__ + nn_attention.__all__
           + nn_normalization.__all__ + nn_distance.__all__)
