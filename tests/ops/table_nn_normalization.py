"""Op-table specs for the normalization, distance, bag and bilinear functions of nn.functional.

The references are plain NumPy written from PyTorch's documented formulas,
independently of the implementation (loops over bags and pairs, explicit
channel windows).
"""

from __future__ import annotations

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F

from .spec import OpSpec, Sample, away_from_zero, distinct, normal

# ----------------------------------------------------------------------------- references


def _per_channel(value, ndim):
    return value.reshape((-1,) + (1,) * (ndim - 2))


def instance_norm_reference(x, weight=None, bias=None, eps=1e-5):
    axes = tuple(range(2, x.ndim))
    mu = x.mean(axis=axes, keepdims=True)
    variance = ((x - mu) ** 2).mean(axis=axes, keepdims=True)
    output = (x - mu) / np.sqrt(variance + eps)
    if weight is not None:
        output = output * _per_channel(weight, x.ndim)
    if bias is not None:
        output = output + _per_channel(bias, x.ndim)
    return output


def group_norm_reference(x, groups, weight=None, bias=None, eps=1e-5):
    n, c = x.shape[:2]
    output = np.empty_like(x)
    size = c // groups
    for sample in range(n):
        for group in range(groups):
            block = x[sample, group * size:(group + 1) * size]
            output[sample, group * size:(group + 1) * size] = (
                (block - block.mean()) / np.sqrt(block.var() + eps))
    if weight is not None:
        output = output * _per_channel(weight, x.ndim)
    if bias is not None:
        output = output + _per_channel(bias, x.ndim)
    return output


def rms_norm_reference(x, shape, weight=None, eps=None):
    if eps is None:
        eps = np.finfo(x.dtype).eps
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    output = x / np.sqrt((x * x).mean(axis=axes, keepdims=True) + eps)
    return output if weight is None else output * weight


def local_response_norm_reference(x, size, alpha=1e-4, beta=0.75, k=1.0):
    channels = x.shape[1]
    output = np.empty_like(x)
    for channel in range(channels):
        low, high = channel - size // 2, channel + (size - 1) // 2
        window = x[:, max(low, 0):min(high, channels - 1) + 1]
        total = (window ** 2).sum(axis=1)
        output[:, channel] = x[:, channel] / (k + alpha / size * total) ** beta
    return output


def _p_norm(values, p, axis, keepdims=False):
    magnitude = np.abs(values)
    if p == np.inf:
        return magnitude.max(axis=axis, keepdims=keepdims)
    if p == 0:
        return (magnitude != 0).sum(axis=axis, keepdims=keepdims).astype(values.dtype)
    return (magnitude ** p).sum(axis=axis, keepdims=keepdims) ** (1.0 / p)


def normalize_reference(x, p=2.0, dim=1, eps=1e-12):
    return x / np.maximum(_p_norm(x, p, dim, keepdims=True), eps)


def cosine_similarity_reference(x1, x2, dim=1, eps=1e-8):
    x1, x2 = np.broadcast_arrays(x1, x2)
    norm1 = np.maximum(np.sqrt((x1 * x1).sum(axis=dim)), eps)
    norm2 = np.maximum(np.sqrt((x2 * x2).sum(axis=dim)), eps)
    return (x1 * x2).sum(axis=dim) / (norm1 * norm2)


def pairwise_distance_reference(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return _p_norm(x1 - x2 + eps, p, -1, keepdims=keepdim)


def pdist_reference(x, p=2.0):
    n = x.shape[0]
    return np.array([_p_norm(x[i] - x[j], p, 0) for i in range(n) for j in range(i + 1, n)])


def embedding_bag_reference(indices, weight, offsets=None, mode="mean",
                            per_sample_weights=None, include_last_offset=False, padding_idx=None):
    if indices.ndim == 2:
        bags = list(indices)
        scales = None if per_sample_weights is None else list(per_sample_weights)
    else:
        ends = list(offsets[1:]) + ([] if include_last_offset else [len(indices)])
        starts = offsets[:-1] if include_last_offset else offsets
        bags = [indices[start:end] for start, end in zip(starts, ends)]
        scales = (None if per_sample_weights is None else
                  [per_sample_weights[start:end] for start, end in zip(starts, ends)])
    output = np.zeros((len(bags), weight.shape[1]))
    for number, bag in enumerate(bags):
        kept = [position for position, index in enumerate(bag) if index != padding_idx]
        if not kept:
            continue
        rows = weight[bag[kept]]
        if scales is not None:
            rows = rows * scales[number][kept][:, None]
        output[number] = {"sum": rows.sum(0), "mean": rows.mean(0), "max": rows.max(0)}[mode]
    return output


def bilinear_reference(x1, x2, weight, bias=None):
    output = np.einsum("...i,oij,...j->...o", x1, weight, x2)
    return output if bias is None else output + bias


# ----------------------------------------------------------------------------- ops under test


def instance_norm_with_running(x, weight, bias):
    """Training-mode instance_norm that also updates (fresh) running statistics."""
    channels = x.shape[1]
    return F.instance_norm(x, ug.zeros(channels, dtype=x.dtype), ug.ones(channels, dtype=x.dtype),
                           weight, bias)


# ----------------------------------------------------------------------------- samples


def instance_norm_samples(rng):
    return [Sample((normal(rng, 2, 3, 4), normal(rng, 3), normal(rng, 3)), label="1d"),
            Sample((normal(rng, 2, 2, 3, 2), normal(rng, 2), normal(rng, 2)), label="2d")]


def plain_instance_norm_samples(rng):
    return [Sample((normal(rng, 2, 3, 5),), label="no_affine"),
            Sample((normal(rng, 1, 2, 2, 2, 2),), {"eps": 1e-3}, label="3d")]


def group_norm_samples(rng):
    return [Sample((normal(rng, 2, 4, 3), 2, normal(rng, 4), normal(rng, 4)), label="affine"),
            Sample((normal(rng, 3, 6), 3), label="no_spatial"),
            Sample((normal(rng, 1, 2, 2, 3), 1), {"eps": 1e-3}, label="one_group")]


def rms_norm_samples(rng):
    return [Sample((normal(rng, 2, 3, 4), (3, 4), normal(rng, 3, 4)), label="weight"),
            Sample((normal(rng, 3, 5), (5,)), {"eps": 1e-6}, label="eps"),
            Sample((normal(rng, 4), [4]), label="default_eps")]


def local_response_norm_samples(rng):
    return [Sample((normal(rng, 2, 5, 3), 3), {"alpha": 0.5, "beta": 0.75, "k": 1.0},
                   label="3d_odd"),
            Sample((normal(rng, 1, 4, 2, 2), 2), {"alpha": 0.3, "beta": 0.5, "k": 2.0},
                   label="4d_even"),
            Sample((normal(rng, 1, 3, 2, 1, 2), 4), {"alpha": 1.0}, label="5d_wide")]


def normalize_samples(rng):
    return [Sample((away_from_zero(rng, 3, 4),), label="default"),
            Sample((away_from_zero(rng, 3, 4),), {"p": 1.0, "dim": 0}, label="p1"),
            Sample((away_from_zero(rng, 2, 3, 2),), {"p": 3.0, "dim": -1}, label="p3"),
            Sample((away_from_zero(rng, 2, 3) * 1e-3,), {"eps": 0.01}, label="clamped")]


def cosine_similarity_samples(rng):
    return [Sample((normal(rng, 3, 4), normal(rng, 3, 4)), label="rows"),
            Sample((normal(rng, 3, 1, 4), normal(rng, 1, 2, 4)), {"dim": -1}, label="broadcast"),
            # the clamp is invisible to the gradient (as PyTorch's), which central differences
            # cannot see: value check here, gradient against torch in test_normalization_vs_torch
            Sample((normal(rng, 2, 3) * 1e-5, normal(rng, 2, 3)), {"eps": 1e-4}, diff=(),
                   label="clamped")]


def pairwise_distance_samples(rng):
    return [Sample((away_from_zero(rng, 3, 4), away_from_zero(rng, 3, 4)), label="p2"),
            Sample((away_from_zero(rng, 3, 4), distinct(rng, 3, 4)), {"p": 1.0, "keepdim": True},
                   label="p1_keepdim"),
            Sample((distinct(rng, 2, 5), distinct(rng, 1, 5) + 0.1), {"p": np.inf},
                   label="inf_broadcast"),
            Sample((normal(rng, 4), normal(rng, 4)), {"p": 3.0}, label="vector")]


def pdist_samples(rng):
    return [Sample((normal(rng, 4, 3),), label="p2"),
            Sample((distinct(rng, 3, 2),), {"p": 1.0}, label="p1"),
            Sample((normal(rng, 4, 2),), {"p": np.inf}, label="inf"),
            Sample((normal(rng, 3, 3),), {"p": 2.5}, label="p2.5")]


def embedding_bag_samples(rng):
    indices = np.array([0, 2, 4, 2, 1, 3])
    return [
        Sample((indices, normal(rng, 5, 3), np.array([0, 2, 2, 5])), {"mode": "sum"},
               label="sum_empty_bag"),
        Sample((indices, normal(rng, 5, 3), np.array([0, 3])), {"mode": "mean"}, label="mean"),
        Sample((indices, distinct(rng, 5, 3), np.array([0, 1, 4])), {"mode": "max"},
               label="max"),
        Sample((np.array([[0, 2], [4, 4], [1, 3]]), normal(rng, 5, 2)), {"mode": "mean"},
               label="2d_input"),
        Sample((indices, normal(rng, 5, 2), np.array([0, 2, 4, 6])),
               {"mode": "sum", "include_last_offset": True}, label="last_offset"),
        Sample((indices, normal(rng, 5, 2), np.array([0, 3])),
               {"mode": "mean", "padding_idx": 2}, label="padding"),
    ]


def embedding_bag_weighted(indices, weight, offsets, per_sample_weights):
    return F.embedding_bag(indices, weight, offsets, mode="sum",
                           per_sample_weights=per_sample_weights)


def embedding_bag_weighted_samples(rng):
    return [Sample((np.array([1, 0, 1, 3]), normal(rng, 4, 2), np.array([0, 1]),
                    normal(rng, 4)), label="per_sample_weights")]


def bilinear_samples(rng):
    return [Sample((normal(rng, 3, 2), normal(rng, 3, 4), normal(rng, 5, 2, 4), normal(rng, 5)),
                   label="bias"),
            Sample((normal(rng, 2, 2, 3), normal(rng, 2, 2, 1), normal(rng, 2, 3, 1)),
                   label="batched_no_bias"),
            Sample((normal(rng, 2), normal(rng, 3), normal(rng, 1, 2, 3)), label="unbatched")]


OPS = [
    OpSpec("nn_norm_instance_norm", F.instance_norm,
           lambda x, eps=1e-5: instance_norm_reference(x, eps=eps), plain_instance_norm_samples),
    # vmap refuses the running-statistics update (shared tensors written with per-example
    # values), as for batch_norm; the plain form above covers vmap
    OpSpec("nn_norm_instance_norm_running", instance_norm_with_running, instance_norm_reference,
           instance_norm_samples, vmap=False),
    OpSpec("nn_norm_group_norm", F.group_norm, group_norm_reference, group_norm_samples),
    OpSpec("nn_norm_rms_norm", F.rms_norm, rms_norm_reference, rms_norm_samples),
    OpSpec("nn_norm_local_response_norm", F.local_response_norm, local_response_norm_reference,
           local_response_norm_samples),
    OpSpec("nn_norm_normalize", F.normalize, normalize_reference, normalize_samples),
    OpSpec("nn_dist_cosine_similarity", F.cosine_similarity, cosine_similarity_reference,
           cosine_similarity_samples),
    OpSpec("nn_dist_pairwise_distance", F.pairwise_distance, pairwise_distance_reference,
           pairwise_distance_samples),
    OpSpec("nn_dist_pdist", F.pdist, pdist_reference, pdist_samples),
    OpSpec("nn_embedding_bag", F.embedding_bag, embedding_bag_reference, embedding_bag_samples),
    OpSpec("nn_embedding_bag_weighted", embedding_bag_weighted,
           lambda i, w, o, s: embedding_bag_reference(i, w, o, "sum", s),
           embedding_bag_weighted_samples),
    OpSpec("nn_bilinear", F.bilinear, bilinear_reference, bilinear_samples),
]
