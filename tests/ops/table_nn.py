"""Op-table specs for ``unigrad.nn.functional`` (``unigrad/ops/nn_*.py``).

The references are plain NumPy written independently of the implementation:
convolutions and pools loop over kernel offsets with slicing (no strided
views), losses follow PyTorch's formulas.
"""

from __future__ import annotations

import itertools

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F

from .spec import OpSpec, Sample, away_from_zero, distinct, normal, positive

# ----------------------------------------------------------------------------- references


def _pairs(value, rank: int) -> tuple:
    return (value,) * rank if isinstance(value, int) else tuple(value)


def conv_reference(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    rank = w.ndim - 2
    unbatched = x.ndim == rank + 1
    if unbatched:
        x = x[None]
    stride, dilation = _pairs(stride, rank), _pairs(dilation, rank)
    kernel = w.shape[2:]
    if padding == "same":
        padding = [(d * (k - 1) // 2, d * (k - 1) - d * (k - 1) // 2)
                   for k, d in zip(kernel, dilation)]
    else:
        padding = [(p, p) for p in _pairs(padding, rank)]
    x = np.pad(x, [(0, 0), (0, 0)] + padding)
    counts = [(n - d * (k - 1) - 1) // s + 1
              for n, k, s, d in zip(x.shape[2:], kernel, stride, dilation)]
    in_group, out_group = w.shape[1], w.shape[0] // groups
    out = np.zeros((x.shape[0], w.shape[0], *counts))
    for g in range(groups):
        inputs = x[:, g * in_group:(g + 1) * in_group]
        for offsets in itertools.product(*(range(k) for k in kernel)):
            window = inputs[(Ellipsis,) + tuple(
                slice(o * d, o * d + s * (c - 1) + 1, s)
                for o, d, s, c in zip(offsets, dilation, stride, counts))]
            taps = w[(slice(g * out_group, (g + 1) * out_group), slice(None)) + offsets]
            out[:, g * out_group:(g + 1) * out_group] += np.einsum("nc...,oc->no...", window,
                                                                   taps)
    if b is not None:
        out += b.reshape((-1,) + (1,) * rank)
    return out[0] if unbatched else out


def _pool_counts(n, k, s, p, d, ceil_mode):
    span = n + 2 * p - d * (k - 1) - 1
    count = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (count - 1) * s >= n + p:
        count -= 1
    return count


def _pool_windows(x, kernel, stride, padding, dilation, ceil_mode, fill):
    """Each kernel offset's slab of the padded input, and the output counts."""
    counts = [_pool_counts(n, k, s, p, d, ceil_mode) for n, k, s, p, d in
              zip(x.shape[-2:], kernel, stride, padding, dilation)]
    extra = [max(0, (c - 1) * s + d * (k - 1) + 1 - n - 2 * p) for c, n, k, s, p, d in
             zip(counts, x.shape[-2:], kernel, stride, padding, dilation)]
    widths = [(0, 0)] * (x.ndim - 2) + [(p, p + e) for p, e in zip(padding, extra)]
    padded = np.pad(x, widths, constant_values=fill)
    slabs = []
    for offsets in itertools.product(*(range(k) for k in kernel)):
        slabs.append(padded[(Ellipsis,) + tuple(
            slice(o * d, o * d + s * (c - 1) + 1, s)
            for o, d, s, c in zip(offsets, dilation, stride, counts))])
    return slabs


def max_pool_reference(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    kernel = _pairs(kernel_size, 2)
    stride = kernel if stride is None else _pairs(stride, 2)
    slabs = _pool_windows(x, kernel, stride, _pairs(padding, 2), _pairs(dilation, 2), ceil_mode,
                          -np.inf)
    return np.max(slabs, axis=0)


def avg_pool_reference(x, kernel_size, stride=None, padding=0, ceil_mode=False,
                       count_include_pad=True):
    kernel = _pairs(kernel_size, 2)
    stride = kernel if stride is None else _pairs(stride, 2)
    padding = _pairs(padding, 2)
    total = np.sum(_pool_windows(x, kernel, stride, padding, (1, 1), ceil_mode, 0.0), axis=0)
    # PyTorch's divisor: the window clipped to the padded input, or to the input itself
    divisors = []
    for axis, (n, k, s, p) in enumerate(zip(x.shape[-2:], kernel, stride, padding)):
        start = np.arange(total.shape[x.ndim - 2 + axis]) * s - p
        end = np.minimum(start + k, n + p)
        if not count_include_pad:
            start, end = np.maximum(start, 0), np.minimum(end, n)
        divisors.append(end - start)
    return total / np.outer(*divisors)


def log_softmax_reference(x, dim):
    if x.ndim == 0:
        return np.zeros_like(x)
    shifted = x - x.max(axis=dim, keepdims=True) if x.size else x
    return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))


def softmax_reference(x, dim):
    return np.exp(log_softmax_reference(x, dim))


def _reduce(loss, reduction):
    return {"mean": np.mean, "sum": np.sum}.get(reduction, lambda v: v)(loss)


def nll_reference(logp, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    class_axis = 0 if logp.ndim == 1 else 1
    classes = logp.shape[class_axis]
    weight = np.ones(classes) if weight is None else weight
    moved = np.moveaxis(logp, class_axis, -1)
    valid = target != ignore_index
    safe = np.where(valid, target, 0)
    picked = np.take_along_axis(moved, safe[..., None], -1)[..., 0]
    nll = -picked * weight[safe] * valid
    smooth = -(moved * weight).sum(-1) * valid / classes
    loss = (1 - label_smoothing) * nll + label_smoothing * smooth
    if reduction == "mean":
        return loss.sum() / (weight[safe] * valid).sum()
    return _reduce(loss, reduction)


def cross_entropy_reference(x, target, weight=None, ignore_index=-100, reduction="mean",
                            label_smoothing=0.0):
    class_axis = 0 if x.ndim == 1 else 1
    logp = log_softmax_reference(x, class_axis)
    if target.dtype.kind != "f":
        return nll_reference(logp, target, weight, ignore_index, reduction, label_smoothing)
    classes = x.shape[class_axis]
    target = target * (1 - label_smoothing) + label_smoothing / classes
    if weight is not None:
        target = target * weight.reshape((classes,) + (1,) * (x.ndim - 1 - class_axis))
    loss = -(logp * target).sum(axis=class_axis)
    return loss.sum() / (x.size // classes) if reduction == "mean" else _reduce(loss, reduction)


def bce_reference(x, t, weight=None, reduction="mean"):
    loss = -(t * np.maximum(np.log(x), -100) + (1 - t) * np.maximum(np.log1p(-x), -100))
    return _reduce(loss if weight is None else loss * weight, reduction)


def bce_logits_reference(x, t, weight=None, reduction="mean", pos_weight=None):
    log_sigmoid = -np.logaddexp(0.0, -x)
    log_rest = -np.logaddexp(0.0, x)
    positive_weight = 1.0 if pos_weight is None else pos_weight
    loss = -(positive_weight * t * log_sigmoid + (1 - t) * log_rest)
    return _reduce(loss if weight is None else loss * weight, reduction)


def layer_norm_reference(x, shape, weight=None, bias=None, eps=1e-5):
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    centered = x - x.mean(axis=axes, keepdims=True)
    out = centered / np.sqrt((centered ** 2).mean(axis=axes, keepdims=True) + eps)
    out = out if weight is None else out * weight
    return out if bias is None else out + bias


def batch_norm_reference(x, running_mean, running_var, weight=None, bias=None, training=False,
                         eps=1e-5):
    shape = (-1,) + (1,) * (x.ndim - 2)
    if training:
        axes = (0,) + tuple(range(2, x.ndim))
        mean = x.mean(axis=axes, keepdims=True)
        var = x.var(axis=axes, keepdims=True)
    else:
        mean, var = running_mean.reshape(shape), running_var.reshape(shape)
    out = (x - mean) / np.sqrt(var + eps)
    out = out if weight is None else out * weight.reshape(shape)
    return out if bias is None else out + bias.reshape(shape)


def unfold_reference(x, kernel_size, dilation=1, padding=0, stride=1):
    kernel = _pairs(kernel_size, 2)
    slabs = _pool_windows(x, kernel, _pairs(stride, 2), _pairs(padding, 2),
                          _pairs(dilation, 2), False, 0.0)
    stacked = np.stack(slabs, axis=2)  # (N, C, kh * kw, oh, ow)
    return stacked.reshape(x.shape[0], -1, stacked.shape[-2] * stacked.shape[-1])


def fold_reference(columns, output_size, kernel_size, dilation=1, padding=0, stride=1):
    kernel, padding = _pairs(kernel_size, 2), _pairs(padding, 2)
    stride, dilation = _pairs(stride, 2), _pairs(dilation, 2)
    size = [n + 2 * p for n, p in zip(output_size, padding)]
    counts = [(n - d * (k - 1) - 1) // s + 1 for n, k, s, d in zip(size, kernel, stride, dilation)]
    blocks = columns.reshape(columns.shape[0], -1, *kernel, *counts)
    out = np.zeros((columns.shape[0], blocks.shape[1], *size))
    for i, j in itertools.product(range(kernel[0]), range(kernel[1])):
        for a, c in itertools.product(range(counts[0]), range(counts[1])):
            out[:, :, a * stride[0] + i * dilation[0], c * stride[1] + j * dilation[1]] += \
                blocks[:, :, i, j, a, c]
    return out[:, :, padding[0]:padding[0] + output_size[0],
               padding[1]:padding[1] + output_size[1]]


def dropout_reference(x, p):
    keep = np.random.default_rng(0).random(x.shape) >= p
    return x * keep / (1 - p)


def seeded_dropout(x, p):
    ug.manual_seed(0)
    return F.dropout(x, p)


def fresh_batch_norm(x, weight, bias):
    """Training-mode batch_norm with new running statistics on every call."""
    channels = x.shape[1]
    return F.batch_norm(x, ug.zeros(channels, dtype=x.dtype), ug.ones(channels, dtype=x.dtype),
                        weight, bias, training=True)


# ----------------------------------------------------------------------------- samples

def conv2d_samples(rng):
    x, w, b = normal(rng, 2, 3, 5, 5), normal(rng, 4, 3, 3, 3), normal(rng, 4)
    return [
        Sample((x, w, b), label="plain"),
        Sample((x, w, b), {"stride": 2, "padding": 1}, label="stride_padding"),
        Sample((normal(rng, 1, 3, 6, 7), w), {"dilation": 2, "padding": (2, 1)}, label="dilation"),
        Sample((normal(rng, 2, 4, 5, 5), normal(rng, 6, 2, 3, 2)), {"groups": 2, "stride": (2, 1)},
               label="groups"),
        Sample((normal(rng, 3, 5, 5), normal(rng, 2, 3, 2, 3)), {"padding": "same"},
               label="unbatched_same"),
        Sample((normal(rng, 2, 5, 5, 3).transpose(0, 3, 1, 2), w), label="noncontiguous"),
        Sample((normal(rng, 0, 3, 5, 5), w, b), label="empty_batch"),
    ]


def conv1d_samples(rng):
    return [
        Sample((normal(rng, 2, 3, 7), normal(rng, 4, 3, 3), normal(rng, 4)),
               {"stride": 2, "padding": 2, "dilation": 2}, label="stride_dilation"),
        Sample((normal(rng, 2, 4, 6), normal(rng, 4, 2, 2)), {"groups": 2, "padding": "same"},
               label="groups_same"),
        Sample((normal(rng, 3, 5), normal(rng, 2, 3, 5)), label="unbatched_full_kernel"),
    ]


def unfold_samples(rng):
    return [Sample((normal(rng, 2, 3, 5, 6), (2, 3)), {"dilation": (1, 2), "padding": 1,
                                                       "stride": 2})]


def fold_samples(rng):
    return [Sample((normal(rng, 2, 8, 12), (5, 6), 2), {"padding": 1, "stride": 2})]


def max_pool_samples(rng):
    return [
        Sample((distinct(rng, 2, 3, 4, 4), 2), label="kernel2"),
        Sample((distinct(rng, 1, 2, 7, 6), 3), {"stride": 2, "padding": 1, "ceil_mode": True},
               label="ceil_padding"),
        Sample((distinct(rng, 2, 7, 7), (3, 2)), {"stride": (2, 1), "dilation": 2},
               label="unbatched_dilation"),
        Sample((distinct(rng, 2, 6, 5, 4).transpose(0, 3, 1, 2), 2), label="noncontiguous"),
    ]


def avg_pool_samples(rng):
    return [
        Sample((normal(rng, 2, 3, 4, 4), 2), label="kernel2"),
        Sample((normal(rng, 1, 2, 7, 6), 3), {"stride": 2, "padding": 1, "ceil_mode": True},
               label="ceil_include_pad"),
        Sample((normal(rng, 1, 2, 7, 6), 3), {"stride": 2, "padding": 1, "ceil_mode": True,
                                              "count_include_pad": False},
               label="ceil_exclude_pad"),
        Sample((normal(rng, 2, 5, 5), (2, 3)), {"stride": 1, "padding": (1, 0),
                                                "count_include_pad": False},
               label="unbatched_exclude_pad"),
    ]


def softmax_samples(rng):
    return [
        Sample((normal(rng, 3, 4) * 3, 1), label="rows"),
        Sample((normal(rng, 4, 3).T, 0), label="noncontiguous"),
        Sample((normal(rng, 2, 3, 4), -1), label="last"),
        Sample((np.asarray(normal(rng)), 0), label="scalar"),
        Sample((normal(rng, 0, 4), 1), label="empty"),
    ]


def _targets(rng, classes, *shape, ignore=None):
    target = rng.integers(0, classes, size=shape)
    if ignore is not None:
        target.flat[0] = ignore
    return target


def cross_entropy_samples(rng):
    weight = positive(rng, 5)
    samples = []
    for reduction in ("mean", "sum", "none"):
        samples += [
            Sample((normal(rng, 4, 5), _targets(rng, 5, 4, ignore=-100)),
                   {"reduction": reduction}, label=f"ignored_{reduction}"),
            Sample((normal(rng, 4, 5), _targets(rng, 5, 4), weight),
                   {"reduction": reduction, "label_smoothing": 0.2}, diff=(0,),
                   label=f"weight_smoothing_{reduction}"),
            Sample((normal(rng, 2, 5, 3), _targets(rng, 5, 2, 3, ignore=1), weight),
                   {"ignore_index": 1, "reduction": reduction, "label_smoothing": 0.1},
                   diff=(0,), label=f"spatial_{reduction}"),
            Sample((normal(rng, 3, 5), rng.dirichlet(np.ones(5), 3), weight),
                   {"reduction": reduction, "label_smoothing": 0.1}, diff=(0, 1),
                   label=f"probabilities_{reduction}"),
        ]
    samples += [
        Sample((normal(rng, 5), np.array(2)), label="unbatched"),
        Sample((normal(rng, 5, 4).T, _targets(rng, 5, 4)), label="noncontiguous"),
        Sample((normal(rng, 0, 5), _targets(rng, 5, 0)), {"reduction": "sum"}, label="empty"),
    ]
    return samples


def nll_samples(rng):
    weight = positive(rng, 4)
    return [Sample((normal(rng, 5, 4), _targets(rng, 4, 5, ignore=-100), weight),
                   {"reduction": reduction}, diff=(0,), label=reduction)
            for reduction in ("mean", "sum", "none")]


def regression_samples(generate):
    def samples(rng):
        result = [Sample((normal(rng, 3, 4), normal(rng, 3, 4) + generate(rng, 3, 4)),
                         {"reduction": reduction}, label=reduction)
                  for reduction in ("mean", "sum", "none")]
        result.append(Sample((np.asarray(1.5), np.asarray(0.2)), label="scalar"))
        return result
    return samples


def probabilities(rng, *shape):
    return rng.uniform(0.05, 0.95, size=shape)


def bce_samples(rng):
    return [Sample((probabilities(rng, 3, 4), probabilities(rng, 3, 4), positive(rng, 4)),
                   {"reduction": reduction}, label=reduction)
            for reduction in ("mean", "sum", "none")] + [
        Sample((probabilities(rng, 0, 2), probabilities(rng, 0, 2)), {"reduction": "sum"},
               label="empty")]


def weighted_regression_samples(generate):
    def samples(rng):
        return [Sample((normal(rng, 3, 4), normal(rng, 3, 4) + generate(rng, 3, 4),
                        positive(rng, 3, 4)))]
    return samples


def bce_logits_samples(rng):
    return [Sample((normal(rng, 3, 4) * 3, probabilities(rng, 3, 4), positive(rng, 4),
                    positive(rng, 4)), {"reduction": reduction}, label=reduction)
            for reduction in ("mean", "sum", "none")] + [
        Sample((np.zeros((2, 2)), probabilities(rng, 2, 2)), label="zero_logits")]


def layer_norm_samples(rng):
    return [
        Sample((normal(rng, 2, 3, 4), (3, 4), normal(rng, 3, 4), normal(rng, 3, 4)),
               label="affine"),
        Sample((normal(rng, 4, 5).T, (4,)), label="noncontiguous"),
    ]


def batch_norm_samples(rng):
    return [
        Sample((normal(rng, 4, 3, 2, 2), normal(rng, 3), normal(rng, 3)), label="images"),
        Sample((normal(rng, 5, 2), normal(rng, 2), normal(rng, 2)), label="features"),
    ]


def batch_norm_eval_samples(rng):
    return [Sample((normal(rng, 4, 3, 5), normal(rng, 3), positive(rng, 3), normal(rng, 3),
                    normal(rng, 3)), label="eval")]


def embedding_samples(rng):
    return [
        Sample((np.array([[0, 2, 4], [2, 2, 1]]), normal(rng, 5, 3)), label="plain"),
        # the padding row gets no gradient by design: value check only (see test_nn_functional)
        Sample((np.array([[0, 2, 4], [2, 2, 1]]), normal(rng, 5, 3)), {"padding_idx": 2},
               diff=(), label="padding"),
        Sample((np.array(3), normal(rng, 5, 2)), label="scalar"),
    ]


def linear_samples(rng):
    return [
        Sample((normal(rng, 2, 3), normal(rng, 4, 3), normal(rng, 4)), label="bias"),
        Sample((normal(rng, 2, 5, 3), normal(rng, 3, 4).T), label="batched_noncontiguous"),
        Sample((normal(rng, 3), normal(rng, 4, 3)), label="vector"),
    ]


def activation_samples(generate):
    def samples(rng):
        return [Sample((generate(rng, 3, 4),)), Sample((generate(rng, 4, 1).T,)),
                Sample((np.asarray(generate(rng)),)), Sample((generate(rng, 0, 3),))]
    return samples


def hardtanh_values(rng, *shape):
    """Values away from the kinks at -1 and 1."""
    return rng.choice([-1.6, -0.5, 0.4, 1.5], size=shape) + rng.uniform(-0.1, 0.1, size=shape)


def one_hot_samples(rng):
    return [Sample((rng.integers(0, 4, size=(2, 3)), 4)), Sample((np.array([1, 0, 2]),))]


# ----------------------------------------------------------------------------- the table

OPS = [
    OpSpec("conv2d", F.conv2d, conv_reference, conv2d_samples,
           primitives=("unfold_windows", "fold_windows")),
    OpSpec("conv1d", F.conv1d, conv_reference, conv1d_samples),
    OpSpec("unfold", F.unfold, unfold_reference, unfold_samples,
           primitives=("unfold_windows",)),
    OpSpec("fold", F.fold, fold_reference, fold_samples, primitives=("fold_windows",)),
    OpSpec("max_pool2d", F.max_pool2d, max_pool_reference, max_pool_samples),
    OpSpec("avg_pool2d", F.avg_pool2d, avg_pool_reference, avg_pool_samples),
    OpSpec("softmax", F.softmax, softmax_reference, softmax_samples, primitives=("softmax",)),
    OpSpec("log_softmax", F.log_softmax, log_softmax_reference, softmax_samples,
           primitives=("log_softmax",)),
    OpSpec("one_hot", F.one_hot,
           lambda x, n=None: np.eye(x.max() + 1 if n is None else n, dtype=np.int64)[x],
           one_hot_samples, primitives=("one_hot",), grad=False),
    OpSpec("cross_entropy", F.cross_entropy, cross_entropy_reference, cross_entropy_samples,
           primitives=("class_selector", "log_softmax")),
    OpSpec("nll_loss", F.nll_loss, nll_reference, nll_samples,
           primitives=("class_selector",)),
    OpSpec("mse_loss", F.mse_loss, lambda x, t, reduction="mean": _reduce((x - t) ** 2, reduction),
           regression_samples(normal)),
    OpSpec("l1_loss", F.l1_loss, lambda x, t, reduction="mean": _reduce(np.abs(x - t), reduction),
           regression_samples(away_from_zero)),
    OpSpec("binary_cross_entropy", F.binary_cross_entropy, bce_reference, bce_samples,
           primitives=("binary_cross_entropy",)),
    OpSpec("weighted_mse_loss", lambda x, t, w: F.mse_loss(x, t, weight=w),
           lambda x, t, w: np.sum((x - t) ** 2 * w) / np.sum(w),
           weighted_regression_samples(normal)),
    OpSpec("weighted_l1_loss", lambda x, t, w: F.l1_loss(x, t, weight=w),
           lambda x, t, w: np.sum(np.abs(x - t) * w) / np.sum(w),
           weighted_regression_samples(away_from_zero)),
    OpSpec("binary_cross_entropy_with_logits",
           lambda x, t, w=None, pw=None, reduction="mean": F.binary_cross_entropy_with_logits(
               x, t, w, reduction=reduction, pos_weight=pw),
           lambda x, t, w=None, pw=None, reduction="mean": bce_logits_reference(
               x, t, w, reduction, pw),
           bce_logits_samples),
    OpSpec("logsigmoid", F.logsigmoid, lambda x: -np.logaddexp(0.0, -x),
           activation_samples(lambda rng, *shape: normal(rng, *shape) * 4),
           primitives=("logsigmoid",)),
    # a random op: vmap's default randomness="error" refuses it, as torch.func does
    # (tests/transforms/test_vmap.py tests the three randomness modes)
    OpSpec("dropout", seeded_dropout, dropout_reference,
           lambda rng: [Sample((normal(rng, 4, 5), 0.3)), Sample((normal(rng, 3, 2).T, 0.5))],
           vmap=False),
    OpSpec("layer_norm", F.layer_norm, layer_norm_reference, layer_norm_samples),
    # vmap refuses it, as torch.func does: the running statistics are shared tensors updated
    # in place with per-example values (tests/transforms/test_vmap.py tests the error)
    OpSpec("batch_norm", fresh_batch_norm,
           lambda x, w, b: batch_norm_reference(x, None, None, w, b, training=True),
           batch_norm_samples, vmap=False),
    OpSpec("batch_norm_eval", F.batch_norm, batch_norm_reference, batch_norm_eval_samples),
    OpSpec("embedding", F.embedding, lambda i, w, padding_idx=None: w[i], embedding_samples),
    OpSpec("linear", F.linear,
           lambda x, w, b=None: x @ w.T if b is None else x @ w.T + b, linear_samples),
    OpSpec("leaky_relu", lambda x: F.leaky_relu(x, 0.2),
           lambda x: np.where(x > 0, x, 0.2 * x), activation_samples(away_from_zero)),
    OpSpec("elu", lambda x: F.elu(x, 1.5),
           lambda x: np.where(x > 0, x, 1.5 * np.expm1(np.minimum(x, 0))),
           activation_samples(away_from_zero)),
    OpSpec("hardtanh", F.hardtanh, lambda x: np.clip(x, -1, 1),
           activation_samples(hardtanh_values)),
]
