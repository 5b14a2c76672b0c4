"""Op-table specs for ``unigrad/ops/nn_attention.py``: scaled_dot_product_attention and
multi_head_attention_forward.

The references are plain NumPy written from the formulas (a loop over batch and heads for
multi-head attention), independent of the implementation.
"""

from __future__ import annotations

import numpy as np

import unigrad.nn.functional as F

from .spec import OpSpec, Sample, normal

# ----------------------------------------------------------------------------- references


def _softmax(scores, safe: bool):
    blocked = np.all(scores == -np.inf, axis=-1, keepdims=True)
    shifted = np.where(blocked, 0.0, scores)
    exps = np.exp(shifted - shifted.max(axis=-1, keepdims=True))
    weights = exps / exps.sum(axis=-1, keepdims=True)
    return np.where(blocked, 0.0, weights) if safe else weights


def attention_reference(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                        scale=None, enable_gqa=False):
    if enable_gqa:
        key = np.repeat(key, query.shape[-3] // key.shape[-3], axis=-3)
        value = np.repeat(value, query.shape[-3] // value.shape[-3], axis=-3)
    factor = 1 / np.sqrt(query.shape[-1]) if scale is None else scale
    scores = np.einsum("...ld,...sd->...ls", query, key) * factor
    if is_causal:
        rows, columns = np.indices(scores.shape[-2:])
        scores = np.where(columns <= rows, scores, -np.inf)
    if attn_mask is not None:
        scores = (np.where(attn_mask, scores, -np.inf) if attn_mask.dtype == bool
                  else scores + attn_mask)
    return _softmax(scores, safe=True) @ value


def multi_head_reference(query, key, value, projections, biases, out_weight, out_bias,
                         num_heads, bias_k=None, bias_v=None, add_zero_attn=False,
                         key_padding_mask=None, attn_mask=None, need_weights=True,
                         average_attn_weights=True):
    """Sequence-first ``(L, N, E)`` multi-head attention, one head of one example at a time."""
    if query.ndim == 2:
        result = multi_head_reference(
            query[:, None], key[:, None], value[:, None], projections, biases, out_weight,
            out_bias, num_heads, bias_k, bias_v, add_zero_attn,
            None if key_padding_mask is None else key_padding_mask[None], attn_mask,
            need_weights, average_attn_weights)
        return result[:, 0] if not need_weights else (result[0][:, 0], result[1][0])
    q, k, v = (x @ w.T + (0.0 if b is None else b)
               for x, w, b in zip((query, key, value), projections, biases))
    target, batch, embed = q.shape
    head = embed // num_heads
    extra = []
    if bias_k is not None:
        k = np.concatenate([k, np.broadcast_to(bias_k, (1, batch, embed))])
        v = np.concatenate([v, np.broadcast_to(bias_v, (1, batch, embed))])
        extra.append(0.0)
    if add_zero_attn:
        k = np.concatenate([k, np.zeros((1, batch, embed))])
        v = np.concatenate([v, np.zeros((1, batch, embed))])
        extra.append(0.0)
    source = k.shape[0]
    outputs = np.zeros((target, batch, embed))
    weights = np.zeros((batch, num_heads, target, source))
    for n in range(batch):
        for h in range(num_heads):
            columns = slice(h * head, (h + 1) * head)
            scores = q[:, n, columns] @ k[:, n, columns].T / np.sqrt(head)
            if attn_mask is not None:
                mask = attn_mask if attn_mask.ndim == 2 else attn_mask[n * num_heads + h]
                mask = np.where(mask, -np.inf, 0.0) if mask.dtype == bool else mask
                scores[:, :mask.shape[-1]] += mask
            if key_padding_mask is not None:
                padding = np.concatenate([key_padding_mask[n], np.zeros(len(extra), bool)])
                scores = np.where(padding, -np.inf, scores)
            weights[n, h] = _softmax(scores, safe=not need_weights)
            outputs[:, n, columns] = weights[n, h] @ v[:, n, columns]
    output = outputs @ out_weight.T + (0.0 if out_bias is None else out_bias)
    if not need_weights:
        return output
    return output, (weights.mean(axis=1) if average_attn_weights else weights)


# ----------------------------------------------------------------------------- wrappers
# multi_head_attention_forward with its arrays positional (the harness makes those Tensors)


def packed_attention(query, key, value, in_weight, in_bias, out_weight, out_bias,
                     key_padding_mask=None, attn_mask=None, *, num_heads=2, need_weights=True,
                     average_attn_weights=True):
    result = F.multi_head_attention_forward(
        query, key, value, query.shape[-1], num_heads, in_weight, in_bias, None, None, False,
        0.0, out_weight, out_bias, key_padding_mask=key_padding_mask, need_weights=need_weights,
        attn_mask=attn_mask, average_attn_weights=average_attn_weights)
    return result if need_weights else result[0]


def packed_reference(query, key, value, in_weight, in_bias, out_weight, out_bias,
                     key_padding_mask=None, attn_mask=None, *, num_heads=2, need_weights=True,
                     average_attn_weights=True):
    return multi_head_reference(query, key, value, np.split(in_weight, 3),
                                np.split(in_bias, 3), out_weight, out_bias, num_heads,
                                key_padding_mask=key_padding_mask, attn_mask=attn_mask,
                                need_weights=need_weights,
                                average_attn_weights=average_attn_weights)


def separate_attention(query, key, value, q_weight, k_weight, v_weight, bias_k, bias_v,
                       out_weight, *, num_heads=2, add_zero_attn=False):
    return F.multi_head_attention_forward(
        query, key, value, query.shape[-1], num_heads, None, None, bias_k, bias_v,
        add_zero_attn, 0.0, out_weight, None, use_separate_proj_weight=True,
        q_proj_weight=q_weight, k_proj_weight=k_weight, v_proj_weight=v_weight)


def separate_reference(query, key, value, q_weight, k_weight, v_weight, bias_k, bias_v,
                       out_weight, *, num_heads=2, add_zero_attn=False):
    return multi_head_reference(query, key, value, (q_weight, k_weight, v_weight),
                                (None,) * 3, out_weight, None, num_heads, bias_k, bias_v,
                                add_zero_attn)


# ----------------------------------------------------------------------------- samples

def attention_samples(rng):
    blocked = rng.random((3, 5)) > 0.4
    blocked[:, 0] = True
    blocked[1] = False
    return [
        Sample((normal(rng, 2, 3, 4), normal(rng, 2, 5, 4), normal(rng, 2, 5, 3)),
               label="plain"),
        Sample((normal(rng, 3, 4), normal(rng, 5, 4), normal(rng, 5, 2), normal(rng, 3, 5)),
               label="float_mask"),
        Sample((normal(rng, 2, 3, 4), normal(rng, 2, 5, 4), normal(rng, 2, 5, 3), blocked),
               label="bool_mask_with_a_blocked_row"),
        Sample((normal(rng, 2, 4, 3), normal(rng, 2, 4, 3), normal(rng, 2, 4, 2)),
               {"is_causal": True, "scale": 0.3}, label="causal"),
        Sample((normal(rng, 1, 4, 3, 2), normal(rng, 1, 2, 3, 2), normal(rng, 1, 2, 3, 2)),
               {"enable_gqa": True}, label="grouped_query"),
    ]


def _projections(rng, embed: int, kdim: int, vdim: int):
    return normal(rng, embed, embed), normal(rng, embed, kdim), normal(rng, embed, vdim)


def packed_samples(rng):
    padding = np.zeros((2, 5), dtype=bool)
    padding[1, 3:] = True
    causal = np.triu(np.ones((3, 5), dtype=bool), 3)
    arrays = (normal(rng, 3, 2, 4), normal(rng, 5, 2, 4), normal(rng, 5, 2, 4),
              normal(rng, 12, 4) * 0.5, normal(rng, 12), normal(rng, 4, 4) * 0.5, normal(rng, 4))
    return [
        Sample(arrays, label="weights_averaged"),
        Sample(arrays + (padding, causal), {"average_attn_weights": False},
               label="bool_masks_per_head_weights"),
        Sample(arrays + (None, normal(rng, 4, 3, 5)), {"need_weights": False},
               label="float_3d_mask_no_weights"),
        Sample((normal(rng, 3, 4), normal(rng, 5, 4), normal(rng, 5, 4), normal(rng, 12, 4),
                normal(rng, 12), normal(rng, 4, 4), normal(rng, 4)), {"num_heads": 1},
               label="unbatched_one_head"),
    ]


def separate_samples(rng):
    return [
        Sample((normal(rng, 3, 2, 4), normal(rng, 5, 2, 3), normal(rng, 5, 2, 2),
                *_projections(rng, 4, 3, 2), normal(rng, 1, 1, 4), normal(rng, 1, 1, 4),
                normal(rng, 4, 4)), {"add_zero_attn": True}, label="kdim_vdim_bias_kv_zero_attn"),
    ]


OPS = [
    OpSpec("scaled_dot_product_attention", F.scaled_dot_product_attention,
           attention_reference, attention_samples),
    OpSpec("multi_head_attention_forward", packed_attention, packed_reference, packed_samples,
           float32_tol=2e-4),
    OpSpec("multi_head_attention_forward_separate", separate_attention, separate_reference,
           separate_samples),
]
