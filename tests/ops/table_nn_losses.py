"""Op-table specs for the losses of ``unigrad.nn.functional`` added to ``nn_losses``.

The references are plain NumPy written from PyTorch's documented formulas (loops where the
formula is a loop); samples keep away from the hinges' kinks.
"""

from __future__ import annotations

import math

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F

from .spec import OpSpec, Sample, normal, positive

REDUCTIONS = ("mean", "sum", "none")


def reduce(loss, reduction):
    return {"mean": np.mean, "sum": np.sum}.get(reduction, lambda v: v)(loss)


def signs(rng, *shape):
    return rng.choice([-1.0, 1.0], size=shape)


def log_sigmoid(x):
    return -np.logaddexp(0.0, -x)


# ----------------------------------------------------------------------------- regression

def smooth_l1_reference(x, t, reduction="mean", beta=1.0):
    distance = np.abs(x - t)
    if beta == 0:
        return reduce(distance, reduction)
    return reduce(np.where(distance < beta, 0.5 * distance ** 2 / beta, distance - 0.5 * beta),
                  reduction)


def huber_reference(x, t, reduction="mean", delta=1.0, weight=None):
    distance = np.abs(x - t)
    loss = np.where(distance < delta, 0.5 * distance ** 2, delta * (distance - 0.5 * delta))
    return reduce(loss if weight is None else loss * weight, reduction)


def regression_samples(option: str, values: tuple, weighted: bool = False):
    def samples(rng):
        result = []
        for reduction in REDUCTIONS:
            for value in values:
                x, t = normal(rng, 3, 4) * 2, normal(rng, 3, 4)
                args = (x, t, reduction, value) if option == "delta" else (x, t)
                kwargs = {} if option == "delta" else {"reduction": reduction, option: value}
                result.append(Sample(args, kwargs, label=f"{reduction}_{value}"))
        result.append(Sample((np.asarray(1.5), np.asarray(0.2)), label="scalar"))
        result.append(Sample((normal(rng, 4, 3).T, normal(rng, 3, 4)), label="noncontiguous"))
        if weighted:
            result.append(Sample((normal(rng, 3, 4) * 2, normal(rng, 3, 4), "mean", 0.5,
                                  positive(rng, 3, 4)), label="weighted"))
        return result
    return samples


def kl_reference(x, t, reduction="mean", log_target=False):
    loss = np.exp(t) * (t - x) if log_target else t * (np.log(t) - x)
    if reduction == "batchmean":
        return loss.sum() / (x.shape[0] if x.ndim else 1)
    return reduce(loss, reduction)


def kl_samples(rng):
    result = []
    for reduction in REDUCTIONS + ("batchmean",):
        log_q = np.log(rng.dirichlet(np.ones(4), 3))
        p = rng.dirichlet(np.ones(4), 3)
        result.append(Sample((log_q, p), {"reduction": reduction}, label=reduction))
        result.append(Sample((log_q, np.log(p)), {"reduction": reduction, "log_target": True},
                             label=f"log_target_{reduction}"))
    result.append(Sample((np.asarray(-0.5), np.asarray(0.3)), {"reduction": "sum"},
                         label="scalar"))
    return result


def stirling(t):
    safe = np.where(t > 1, t, 2.0)
    return np.where(t > 1, safe * np.log(safe) - safe + 0.5 * np.log(2 * math.pi * safe), 0.0)


def poisson_reference(x, t, log_input=True, full=False, eps=1e-8, reduction="mean"):
    loss = np.exp(x) - t * x if log_input else x - t * np.log(x + eps)
    return reduce(loss + stirling(t) if full else loss, reduction)


def poisson_samples(rng):
    result = []
    for reduction in REDUCTIONS:
        for log_input, full in ((True, False), (False, True)):
            x = normal(rng, 3, 4) if log_input else positive(rng, 3, 4)
            t = rng.poisson(2.0, (3, 4)).astype(np.float64) + rng.uniform(0, 0.5, (3, 4))
            result.append(Sample((x, t), {"log_input": log_input, "full": full,
                                          "reduction": reduction}, diff=(0,),
                                 label=f"{reduction}_{log_input}_{full}"))
    return result


def gaussian_reference(x, t, var, full=False, eps=1e-6, reduction="mean"):
    if var.shape != x.shape and var.shape == x.shape[:-1]:
        var = var[..., None]
    var = np.maximum(var, eps)
    loss = 0.5 * (np.log(var) + (x - t) ** 2 / var)
    return reduce(loss + 0.5 * math.log(2 * math.pi) if full else loss, reduction)


def gaussian_samples(rng):
    result = []
    for reduction in REDUCTIONS:
        for shape in ((4, 3), (4,), (4, 1), (1, 3)):
            result.append(Sample((normal(rng, 4, 3), normal(rng, 4, 3), positive(rng, *shape)),
                                 {"reduction": reduction, "full": shape == (4,)},
                                 label=f"{reduction}_{shape}"))
    return result


# ----------------------------------------------------------------------------- margins

def margin_ranking_reference(x1, x2, y, margin=0.0, reduction="mean"):
    return reduce(np.maximum(0.0, -y * (x1 - x2) + margin), reduction)


def hinge_embedding_reference(x, y, margin=1.0, reduction="mean"):
    return reduce(np.where(y == 1, x, 0.0) + np.where(y == -1, np.maximum(0.0, margin - x), 0.0),
                  reduction)


def soft_margin_reference(x, y, reduction="mean"):
    return reduce(np.log1p(np.exp(-y * x)), reduction)


def multilabel_soft_margin_reference(x, y, weight=None, reduction="mean"):
    loss = -(y * log_sigmoid(x) + (1 - y) * log_sigmoid(-x))
    if weight is not None:
        loss = loss * weight
    return reduce(loss.mean(axis=-1), reduction)


def cosine_embedding_reference(x1, x2, y, margin=0.0, reduction="mean"):
    axis = x1.ndim - 1
    cosine = (x1 * x2).sum(axis) / np.sqrt(((x1 ** 2).sum(axis) + 1e-12)
                                           * ((x2 ** 2).sum(axis) + 1e-12))
    return reduce(np.where(y == 1, 1 - cosine, np.maximum(0.0, cosine - margin)), reduction)


def pair_distance(x1, x2, p=2.0, eps=1e-6):
    return (np.abs(x1 - x2 + eps) ** p).sum(-1) ** (1.0 / p)


def triplet_reference(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False,
                      reduction="mean"):
    positive_distance = pair_distance(anchor, positive, p, eps)
    negative_distance = pair_distance(anchor, negative, p, eps)
    if swap:
        negative_distance = np.minimum(negative_distance, pair_distance(positive, negative, p,
                                                                        eps))
    return reduce(np.maximum(positive_distance - negative_distance + margin, 0.0), reduction)


def margin_samples(rng):
    result = []
    for reduction in REDUCTIONS:
        for margin in (0.0, 0.4):
            result.append(Sample((normal(rng, 6), normal(rng, 6), signs(rng, 6)),
                                 {"margin": margin, "reduction": reduction}, diff=(0, 1),
                                 label=f"{reduction}_{margin}"))
    return result


def hinge_samples(rng):
    return [Sample((normal(rng, 3, 4), signs(rng, 3, 4)), {"margin": margin,
                                                           "reduction": reduction},
                   diff=(0,), label=f"{reduction}_{margin}")
            for reduction in REDUCTIONS for margin in (1.0, 0.3)]


def soft_margin_samples(rng):
    return [Sample((normal(rng, 3, 4), signs(rng, 3, 4)), {"reduction": reduction}, diff=(0,),
                   label=reduction) for reduction in REDUCTIONS]


def multilabel_soft_samples(rng):
    return [Sample((normal(rng, 3, 4), rng.integers(0, 2, (3, 4)) * 1.0, positive(rng, 4)),
                   {"reduction": reduction}, diff=(0,), label=reduction)
            for reduction in REDUCTIONS] + [
        Sample((normal(rng, 5), rng.integers(0, 2, 5) * 1.0), diff=(0,), label="vector")]


def cosine_samples(rng):
    return [Sample((normal(rng, 5, 3), normal(rng, 5, 3), np.array([1, -1, 1, -1, -1])),
                   {"margin": margin, "reduction": reduction}, label=f"{reduction}_{margin}")
            for reduction in REDUCTIONS for margin in (0.0, -0.5)] + [
        Sample((normal(rng, 3), normal(rng, 3), np.array(1)), label="vector")]


def triplet_samples(rng):
    result = []
    for reduction in REDUCTIONS:
        for p, swap in ((2.0, False), (1.0, True), (3.0, True)):
            result.append(Sample(tuple(normal(rng, 4, 3) for _ in range(3)),
                                 {"p": p, "swap": swap, "margin": 2.0, "reduction": reduction},
                                 label=f"{reduction}_{p}_{swap}"))
    result.append(Sample(tuple(normal(rng, 3) for _ in range(3)), {"margin": 3.0},
                         label="vector"))
    return result


def triplet_distance_samples(rng):
    return [Sample(tuple(normal(rng, 4, 3) for _ in range(3)),
                   {"swap": swap, "margin": 2.0, "reduction": reduction},
                   label=f"{reduction}_{swap}")
            for reduction in REDUCTIONS for swap in (False, True)]


def multi_margin_reference(x, target, p=1, margin=1.0, weight=None, reduction="mean"):
    rows = x.reshape(-1, x.shape[-1])
    target = np.asarray(target).reshape(-1)
    losses = np.zeros(rows.shape[0])
    for n, (row, label) in enumerate(zip(rows, target)):
        for j in range(rows.shape[1]):
            if j != label:
                hinge = max(0.0, margin - row[label] + row[j]) ** p
                losses[n] += hinge * (1.0 if weight is None else weight[label])
    losses /= rows.shape[1]
    return reduce(losses if x.ndim == 2 else losses.reshape(()), reduction)


def multi_margin_samples(rng):
    result = []
    for reduction in REDUCTIONS:
        for p, margin in ((1, 1.0), (2, 0.5)):
            result.append(Sample((normal(rng, 5, 4), np.array([0, 3, 1, 1, 2]), p, margin,
                                  positive(rng, 4)), {"reduction": reduction}, diff=(0,),
                                 label=f"{reduction}_{p}"))
    result.append(Sample((normal(rng, 4), np.array(2)), label="vector"))
    return result


def multilabel_margin_reference(x, target, reduction="mean"):
    rows, labels = x.reshape(-1, x.shape[-1]), np.asarray(target).reshape(-1, x.shape[-1])
    losses = np.zeros(rows.shape[0])
    for n, (row, listed) in enumerate(zip(rows, labels)):
        chosen = []
        for label in listed:
            if label < 0:
                break
            chosen.append(label)
        for j in chosen:
            for k in range(row.size):
                if k not in chosen:
                    losses[n] += max(0.0, 1.0 - (row[j] - row[k]))
    losses /= rows.shape[1]
    return reduce(losses if x.ndim == 2 else losses.reshape(()), reduction)


def multilabel_margin_samples(rng):
    target = np.array([[3, 0, -1, 1], [0, 1, 2, 3], [-1, 2, 0, 0], [2, 2, -1, 0]])
    return [Sample((normal(rng, 4, 4), target), {"reduction": reduction}, label=reduction)
            for reduction in REDUCTIONS] + [
        Sample((normal(rng, 4), np.array([1, 2, -1, 0])), label="vector")]


# ----------------------------------------------------------------------------- ctc

def ctc_through_log_softmax(logits, targets, input_lengths, target_lengths, **kwargs):
    """``ctc_loss`` of ``log_softmax(logits)``, its documented use; the targets (a tuple)
    become a constant tensor inside the op, so ``ug.jit`` sees their values."""
    dim = logits.ndim - 1
    return F.ctc_loss(F.log_softmax(logits, dim), ug.tensor(targets), input_lengths,
                      target_lengths, **kwargs)


def ctc_probability(probabilities, labels, blank):
    """p(labels | probabilities) summed over every alignment path (forward algorithm)."""
    extended = [blank]
    for label in labels:
        extended += [label, blank]
    alpha = np.zeros(len(extended))
    alpha[0] = probabilities[0, blank]
    if len(extended) > 1:
        alpha[1] = probabilities[0, extended[1]]
    for step in range(1, probabilities.shape[0]):
        previous = alpha.copy()
        for s, label in enumerate(extended):
            total = previous[s] + (previous[s - 1] if s >= 1 else 0.0)
            if s >= 2 and label != blank and label != extended[s - 2]:
                total += previous[s - 2]
            alpha[s] = total * probabilities[step, label]
    return alpha[-1] + (alpha[-2] if len(extended) > 1 else 0.0)


def ctc_reference(logits, targets, input_lengths, target_lengths, blank=0, reduction="mean",
                  zero_infinity=False):
    unbatched = logits.ndim == 2
    if unbatched:
        logits, targets = logits[:, None], [targets]
        input_lengths, target_lengths = [input_lengths], [target_lengths]
    shifted = np.exp(logits - logits.max(-1, keepdims=True))
    probabilities = shifted / shifted.sum(-1, keepdims=True)
    losses = []
    for n, (steps, length) in enumerate(zip(input_lengths, target_lengths)):
        labels = list(np.asarray(targets[n]).reshape(-1)[:length])
        losses.append(-np.log(ctc_probability(probabilities[:steps, n], labels, blank)))
    losses = np.array(losses)
    if reduction == "mean":
        return np.mean(losses / np.maximum(target_lengths, 1))
    return reduce(losses[0] if unbatched else losses, reduction)


def ctc_samples(rng):
    targets = ((1, 2, 2), (3, 1, 1), (2, 3, 1))
    result = [Sample((normal(rng, 6, 3, 4), targets, (6, 5, 6), (3, 2, 3)),
                     {"reduction": reduction}, label=reduction) for reduction in REDUCTIONS]
    result.append(Sample((normal(rng, 6, 3, 4), ((1, 1, 1), (0, 0, 2), (2, 2, 2)), (6, 4, 3),
                          (3, 1, 0)), {"blank": 3, "reduction": "sum"}, label="blank_last"))
    result.append(Sample((normal(rng, 5, 3), (1, 2), 5, 2), {"reduction": "none"},
                         label="unbatched"))
    return result


OPS = [
    OpSpec("smooth_l1_loss", F.smooth_l1_loss, smooth_l1_reference,
           regression_samples("beta", (1.0, 0.5, 0.0))),
    OpSpec("huber_loss", F.huber_loss, huber_reference,
           regression_samples("delta", (1.0, 0.3), weighted=True)),
    OpSpec("kl_div", F.kl_div, kl_reference, kl_samples),
    OpSpec("poisson_nll_loss", F.poisson_nll_loss, poisson_reference, poisson_samples),
    OpSpec("gaussian_nll_loss", F.gaussian_nll_loss, gaussian_reference, gaussian_samples),
    OpSpec("margin_ranking_loss", F.margin_ranking_loss, margin_ranking_reference,
           margin_samples),
    OpSpec("hinge_embedding_loss", F.hinge_embedding_loss, hinge_embedding_reference,
           hinge_samples),
    OpSpec("soft_margin_loss", F.soft_margin_loss, soft_margin_reference, soft_margin_samples),
    OpSpec("multilabel_soft_margin_loss", F.multilabel_soft_margin_loss,
           multilabel_soft_margin_reference, multilabel_soft_samples),
    OpSpec("cosine_embedding_loss", F.cosine_embedding_loss, cosine_embedding_reference,
           cosine_samples),
    OpSpec("triplet_margin_loss", F.triplet_margin_loss, triplet_reference, triplet_samples),
    OpSpec("triplet_margin_with_distance_loss", F.triplet_margin_with_distance_loss,
           lambda a, p, n, margin=1.0, swap=False, reduction="mean": triplet_reference(
               a, p, n, margin, 2.0, 1e-6, swap, reduction), triplet_distance_samples),
    OpSpec("multi_margin_loss", F.multi_margin_loss, multi_margin_reference,
           multi_margin_samples),
    OpSpec("multilabel_margin_loss", F.multilabel_margin_loss, multilabel_margin_reference,
           multilabel_margin_samples),
    OpSpec("ctc_loss", ctc_through_log_softmax, ctc_reference, ctc_samples),
]
