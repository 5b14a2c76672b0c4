"""Attention: scaled_dot_product_attention and multi_head_attention_forward
(``torch.nn.functional``'s signatures).

Both are composites (matmul, masked_fill, softmax, dropout, linear), so they
differentiate to any order and work under ``vmap`` and ``jit``.

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> q = ug.ones(1, 2, 4)
    >>> F.scaled_dot_product_attention(q, q, ug.arange(8.0).reshape(1, 2, 4), is_causal=True)
    tensor([[[0., 1., 2., 3.],
             [2., 3., 4., 5.]]])
"""

from __future__ import annotations

import math
import warnings

from ..backend import bool_
from .creation import ones, zeros, zeros_like
from .elementwise import where
from .linalg import matmul
from .nn_activations import softmax
from .registry import op
from .shape import concat, pad, transpose

_NEG_INF = float("-inf")


def _functional():
    """``nn_functional`` (linear, dropout), which imports this module while loading."""
    from . import nn_functional
    return nn_functional


def _is_bool(tensor) -> bool:
    return tensor.dtype == bool_


def _safe_softmax(scores):
    """Softmax over the last dim whose rows that are all ``-inf`` give zeros (not NaN)."""
    blocked = (scores == _NEG_INF).all(-1, keepdim=True)
    return where(blocked, 0.0, softmax(where(blocked, 0.0, scores), -1))


def _repeat_heads(key, value, query_heads: int, enable_gqa: bool):
    """``key``/``value`` with each head repeated to ``query_heads`` heads (grouped-query)."""
    key_heads = key.shape[-3] if key.ndim >= 3 else 1
    if not enable_gqa or key_heads == query_heads:
        return key, value
    if query_heads % key_heads or query_heads % value.shape[-3]:
        raise RuntimeError(f"scaled_dot_product_attention: number of heads in query "
                           f"({query_heads}) must be divisible by the number of heads in key "
                           f"({key_heads}) and value ({value.shape[-3]}) when enable_gqa=True")
    return (key.repeat_interleave(query_heads // key_heads, -3),
            value.repeat_interleave(query_heads // value.shape[-3], -3))


@op(autocast="lower")
def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p: float = 0.0,
                                 is_causal: bool = False, *, scale: float | None = None,
                                 enable_gqa: bool = False):
    """``softmax(query @ key^T * scale + mask) @ value`` over the last two dims.

    ``attn_mask`` is boolean (True: may attend) or floating (added to the
    scores) and broadcasts to ``(..., L, S)``; ``is_causal`` masks the upper
    triangle instead. ``scale`` defaults to ``1 / sqrt(E)``. Rows that may
    attend nowhere give zeros (PyTorch's math kernel). ``dropout_p`` always
    applies (pass 0.0 in evaluation), drawn from ``ug.manual_seed``'s
    generator. ``enable_gqa`` repeats the key/value heads (dim -3) to match
    the query's.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> q, v = ug.zeros(1, 2, 2), ug.tensor([[[1.0, 2.0], [3.0, 4.0]]])
        >>> mask = ug.tensor([[True, False], [True, True]])
        >>> F.scaled_dot_product_attention(q, q, v, attn_mask=mask)
        tensor([[[1., 2.],
                 [2., 3.]]])
    """
    if query.ndim < 2 or key.ndim < 2 or value.ndim < 2:
        raise RuntimeError(f"scaled_dot_product_attention: expected query, key and value to have "
                           f"at least 2 dimensions, but got {query.ndim}, {key.ndim} and "
                           f"{value.ndim}")
    if query.shape[-1] != key.shape[-1] or key.shape[-2] != value.shape[-2]:
        raise RuntimeError(f"scaled_dot_product_attention: query {tuple(query.shape)}, key "
                           f"{tuple(key.shape)} and value {tuple(value.shape)} do not agree: "
                           f"expected query.size(-1) == key.size(-1) and key.size(-2) == "
                           f"value.size(-2)")
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    if query.ndim >= 3:
        key, value = _repeat_heads(key, value, query.shape[-3], enable_gqa)
    factor = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = matmul(query, transpose(key, -2, -1)) * factor
    if is_causal:
        allowed = ones(query.shape[-2], key.shape[-2], dtype=bool_, device=query.device).tril()
        scores = scores.masked_fill(allowed.logical_not(), _NEG_INF)
    if attn_mask is None:
        weights = softmax(scores, -1)
    else:
        if _is_bool(attn_mask):
            scores = scores.masked_fill(attn_mask.logical_not(), _NEG_INF)
        else:
            scores = scores + attn_mask
        weights = _safe_softmax(scores)
    if dropout_p > 0.0:
        weights = _functional().dropout(weights, dropout_p, True)
    return matmul(weights, value)


# ----------------------------------------------------------------------------- multi-head


def _check_ranks(query, key, value, key_padding_mask, attn_mask, num_heads: int) -> bool:
    """PyTorch's shape checks (AssertionError); returns whether the input is batched."""
    if query.ndim not in (2, 3):
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.ndim}-D query tensor")
    batched = query.ndim == 3
    kind = "batched (3-D)" if batched else "unbatched (2-D)"
    if key.ndim != query.ndim or value.ndim != query.ndim:
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be "
                             f"{query.ndim}-D but found {key.ndim}-D and {value.ndim}-D tensors "
                             f"respectively")
    if key_padding_mask is not None and key_padding_mask.ndim != query.ndim - 1:
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` or "
                             f"{query.ndim - 1}-D but found {key_padding_mask.ndim}-D tensor "
                             f"instead")
    if attn_mask is not None:
        if attn_mask.ndim not in (2, 3):
            raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or "
                                 f"3-D but found {attn_mask.ndim}-D tensor instead")
        expected = (num_heads, query.shape[0], key.shape[0])
        if not batched and attn_mask.ndim == 3 and tuple(attn_mask.shape) != expected:
            raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                 f"{tuple(attn_mask.shape)}")
    return batched


def canonical_mask(mask, name: str, dtype, other=None, other_name: str = ""):
    """A bool mask (True: masked) as 0 / -inf of ``dtype``; a floating mask as it is.

    Warns, as PyTorch does, when ``other`` (the mask it is combined with) has
    another dtype. Shared by :func:`multi_head_attention_forward` and the
    transformer layers.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.ops.nn_attention import canonical_mask
        >>> canonical_mask(ug.tensor([True, False]), "mask", ug.float32)
        tensor([-inf, 0.])
    """
    if mask is None:
        return None
    if other is not None and mask.dtype != other.dtype:
        warnings.warn(f"Support for mismatched {name} and {other_name} is deprecated. Use same "
                      f"type for both instead.", stacklevel=3)
    if _is_bool(mask):
        return zeros_like(mask, dtype=dtype).masked_fill(mask, _NEG_INF)
    if not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {name} are supported")
    return mask


def _projections(query, key, value, in_proj_weight, in_proj_bias, separate: bool,
                 q_proj_weight, k_proj_weight, v_proj_weight) -> tuple:
    linear = _functional().linear
    if separate:
        for name, weight in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if weight is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight "
                                     f"is None")
        weights = (q_proj_weight, k_proj_weight, v_proj_weight)
    else:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        weights = in_proj_weight.chunk(3)
    biases = (None,) * 3 if in_proj_bias is None else in_proj_bias.chunk(3)
    return tuple(linear(x, w, b) for x, w, b in zip((query, key, value), weights, biases))


def _checked_mask(attn_mask, target: int, source: int, heads: int):
    """``attn_mask`` as ``(1 or batch * heads, L, S)`` after PyTorch's shape check."""
    if attn_mask is None:
        return None
    if attn_mask.ndim == 2:
        if tuple(attn_mask.shape) != (target, source):
            raise RuntimeError(f"The shape of the 2D attn_mask is {tuple(attn_mask.shape)}, but "
                               f"should be {(target, source)}.")
        return attn_mask.unsqueeze(0)
    if tuple(attn_mask.shape) != (heads, target, source):
        raise RuntimeError(f"The shape of the 3D attn_mask is {tuple(attn_mask.shape)}, but "
                           f"should be {(heads, target, source)}.")
    return attn_mask


def _static(tensor, name: str, heads: int, head_dim: int):
    if tensor.shape[0] != heads:
        raise AssertionError(f"expecting {name}.size(0) of {heads}, but got {tensor.shape[0]}")
    if tensor.shape[2] != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got "
                             f"{tensor.shape[2]}")
    return tensor


def _append_bias_kv(k, v, bias_k, bias_v, static_k, static_v, attn_mask, key_padding_mask):
    if bias_k is None or bias_v is None:
        if bias_k is not None:
            raise AssertionError("bias_k is set but bias_v is None")
        if bias_v is not None:
            raise AssertionError("bias_v is set but bias_k is None")
        return k, v, attn_mask, key_padding_mask
    if static_k is not None:
        raise AssertionError("bias cannot be added to static key.")
    if static_v is not None:
        raise AssertionError("bias cannot be added to static value.")
    batch = k.shape[1]
    k = concat([k, bias_k.expand(1, batch, bias_k.shape[-1])], 0)
    v = concat([v, bias_v.expand(1, batch, bias_v.shape[-1])], 0)
    return k, v, _pad_last(attn_mask), _pad_last(key_padding_mask)


def _pad_last(mask):
    return None if mask is None else pad(mask, (0, 1))


@op()
def multi_head_attention_forward(query, key, value, embed_dim_to_check: int, num_heads: int,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v,
                                 add_zero_attn: bool, dropout_p: float, out_proj_weight,
                                 out_proj_bias, training: bool = True, key_padding_mask=None,
                                 need_weights: bool = True, attn_mask=None,
                                 use_separate_proj_weight: bool = False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights: bool = True,
                                 is_causal: bool = False):
    """The computation of :class:`~unigrad.nn.MultiheadAttention` (sequence-first inputs).

    ``query`` is ``(L, N, E)`` (or ``(L, E)`` unbatched), ``key``/``value``
    ``(S, N, kdim/vdim)``. Returns ``(attn_output, attn_weights)``; the weights
    are averaged over heads (``(N, L, S)``) when ``average_attn_weights``, per
    head (``(N, heads, L, S)``) otherwise, and None when ``need_weights`` is
    False. Boolean masks mark positions NOT allowed to attend (True = masked).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> x = ug.ones(2, 1, 2)
        >>> eye = ug.eye(2)
        >>> out, weights = F.multi_head_attention_forward(
        ...     x, x, x, 2, 1, ug.cat([eye, eye, eye]), None, None, None, False, 0.0, eye, None)
        >>> out.shape, weights
        ((2, 1, 2), tensor([[[0.5000, 0.5000],
                 [0.5000, 0.5000]]]))
    """
    batched = _check_ranks(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    target, batch, embed_dim = query.shape
    key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask", query.dtype,
                                      attn_mask, "attn_mask")
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None
    else:
        attn_mask = canonical_mask(attn_mask, "attn_mask", query.dtype)
        is_causal = is_causal and key_padding_mask is None
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if tuple(key.shape[:2]) != tuple(value.shape[:2]):
            raise AssertionError(f"key's sequence and batch dims {tuple(key.shape[:2])} do not "
                                 f"match value's {tuple(value.shape[:2])}")
    elif tuple(key.shape) != tuple(value.shape):
        raise AssertionError(f"key shape {tuple(key.shape)} does not match value shape "
                             f"{tuple(value.shape)}")
    q, k, v = _projections(query, key, value, in_proj_weight, in_proj_bias,
                           use_separate_proj_weight, q_proj_weight, k_proj_weight, v_proj_weight)
    heads = batch * num_heads
    attn_mask = _checked_mask(attn_mask, target, key.shape[0], heads)
    k, v, attn_mask, key_padding_mask = _append_bias_kv(k, v, bias_k, bias_v, static_k, static_v,
                                                        attn_mask, key_padding_mask)
    q = transpose(q.reshape(target, heads, head_dim), 0, 1)
    k = (transpose(k.reshape(k.shape[0], heads, head_dim), 0, 1) if static_k is None
         else _static(static_k, "static_k", heads, head_dim))
    v = (transpose(v.reshape(v.shape[0], heads, head_dim), 0, 1) if static_v is None
         else _static(static_v, "static_v", heads, head_dim))
    if add_zero_attn:
        k = concat([k, zeros(heads, 1, head_dim, dtype=k.dtype, device=k.device)], 1)
        v = concat([v, zeros(heads, 1, head_dim, dtype=v.dtype, device=v.device)], 1)
        attn_mask, key_padding_mask = _pad_last(attn_mask), _pad_last(key_padding_mask)
    source = k.shape[1]
    if key_padding_mask is not None:
        for axis, size in enumerate((batch, source)):
            if key_padding_mask.shape[axis] != size:
                raise AssertionError(f"Expected key_padded_mask.shape[{axis}] to be {size}, "
                                     f"but got {key_padding_mask.shape[axis]}")
        padding = key_padding_mask.reshape(batch, 1, 1, source).expand(
            batch, num_heads, 1, source).reshape(heads, 1, source)
        attn_mask = padding if attn_mask is None else attn_mask + padding
    dropout_p = dropout_p if training else 0.0
    if need_weights:
        output, weights = _attend_with_weights(q, k, v, attn_mask, dropout_p)
        weights = weights.reshape(batch, num_heads, target, source)
        if average_attn_weights:
            weights = weights.mean(1)
    else:
        if attn_mask is not None:
            attn_mask = (attn_mask.unsqueeze(0) if attn_mask.shape[0] == 1
                         else attn_mask.reshape(batch, num_heads, -1, source))
        output = scaled_dot_product_attention(
            q.reshape(batch, num_heads, target, head_dim),
            k.reshape(batch, num_heads, source, head_dim),
            v.reshape(batch, num_heads, source, head_dim), attn_mask, dropout_p, is_causal)
        output = output.permute(2, 0, 1, 3)
        weights = None
    output = transpose(output, 0, 1) if need_weights else output
    output = _functional().linear(output.reshape(target * batch, embed_dim), out_proj_weight,
                                  out_proj_bias).reshape(target, batch, -1)
    if not batched:
        output = output.squeeze(1)
        weights = None if weights is None else weights.squeeze(0)
    return output, weights


def _attend_with_weights(q, k, v, attn_mask, dropout_p: float) -> tuple:
    """Attention over ``(heads, L, E)`` keeping the weights (a plain softmax, as PyTorch)."""
    scores = matmul(q * math.sqrt(1.0 / q.shape[-1]), transpose(k, -2, -1))
    if attn_mask is not None:
        scores = scores + attn_mask
    weights = softmax(scores, -1)
    if dropout_p > 0.0:
        weights = _functional().dropout(weights, dropout_p, True)
    return matmul(weights, v), weights


__all__ = ["scaled_dot_product_attention", "multi_head_attention_forward"]
