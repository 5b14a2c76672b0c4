"""Op-table specs for the activations of ``unigrad.nn.functional`` (``nn_activations``).

The references are plain NumPy written from PyTorch's formulas; samples keep away from each
activation's kinks, where central differences are meaningless.
"""

from __future__ import annotations

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F

from .spec import OpSpec, Sample, normal
from .table_nn import activation_samples, softmax_samples

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def away_from(*kinks):
    """A sample generator of values in [-8, 8] at least 0.05 from every kink."""
    def generate(rng, *shape):
        values = rng.uniform(-8.0, 8.0, size=shape)
        for kink in kinks:
            near = np.abs(values - kink) < 0.05
            values = np.where(near, values + 0.1, values)
        return values
    return generate


def elementwise_spec(name, op, reference, *kinks, **options):
    return OpSpec(name, op, reference, activation_samples(away_from(*kinks)), **options)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def prelu_reference(x, weight):
    if weight.size > 1:
        weight = weight.reshape((-1,) + (1,) * (x.ndim - 2))
    return np.where(x > 0, x, weight * x)


def prelu_samples(rng):
    kinked = away_from(0.0)
    return [
        Sample((kinked(rng, 2, 3, 4), rng.uniform(0.1, 0.5, 3)), label="channels"),
        Sample((kinked(rng, 4, 3), rng.uniform(0.1, 0.5, 1)), label="shared"),
        Sample((kinked(rng, 5), rng.uniform(0.1, 0.5, 1)), label="vector"),
        Sample((kinked(rng, 3, 2).T, np.asarray(0.3)), label="noncontiguous_scalar_weight"),
    ]


def glu_reference(x, dim=-1):
    first, second = np.split(x, 2, axis=dim)
    return first * sigmoid(second)


def glu_samples(rng):
    return [Sample((normal(rng, 3, 4),)), Sample((normal(rng, 2, 4, 3), 1), label="middle"),
            Sample((normal(rng, 4, 2).T, 0), label="noncontiguous"),
            Sample((normal(rng, 0, 2),), label="empty")]


def softmin_reference(x, dim):
    if x.ndim == 0:
        return np.ones_like(x)
    shifted = -x - (-x).max(axis=dim, keepdims=True) if x.size else -x
    exponentials = np.exp(shifted)
    return exponentials / exponentials.sum(axis=dim, keepdims=True)


def seeded(function):
    """A random op made repeatable: reseeded before every call (as seeded_dropout)."""
    def call(*args, **kwargs):
        ug.manual_seed(5)
        return function(*args, **kwargs)
    return call


def rrelu_training(x):
    return F.rrelu(x, 0.1, 0.4, training=True)


def gumbel_samples(rng):
    return [Sample((normal(rng, 3, 4),), {"tau": 0.7}, label="soft"),
            Sample((normal(rng, 2, 3),), {"dim": 0}, label="dim0"),
            Sample((normal(rng, 2, 3),), {"hard": True}, label="hard")]


def gumbel_check(logits, tau=1.0, hard=False, dim=-1):
    """Rows that are probabilities (one-hot when hard)."""
    out = seeded(F.gumbel_softmax)(logits, tau, hard, dim=dim)
    return out.sum(dim)


OPS = [
    elementwise_spec("selu", F.selu,
                     lambda x: SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(
                         np.minimum(x, 0))), 0.0),
    elementwise_spec("celu", lambda x: F.celu(x, 0.7),
                     lambda x: np.maximum(x, 0) + np.minimum(0, 0.7 * np.expm1(
                         np.minimum(x, 0) / 0.7)), 0.0),
    elementwise_spec("rrelu_eval", lambda x: F.rrelu(x, 0.1, 0.3),
                     lambda x: np.where(x > 0, x, 0.2 * x), 0.0),
    elementwise_spec("relu6", F.relu6, lambda x: np.minimum(np.maximum(x, 0), 6), 0.0, 6.0),
    elementwise_spec("hardsigmoid", F.hardsigmoid, lambda x: np.clip(x / 6 + 0.5, 0, 1),
                     -3.0, 3.0),
    elementwise_spec("hardswish", F.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6,
                     -3.0, 3.0),
    elementwise_spec("mish", F.mish, lambda x: x * np.tanh(np.log1p(np.exp(x)))),
    elementwise_spec("softsign", F.softsign, lambda x: x / (1 + np.abs(x)), 0.0),
    elementwise_spec("tanhshrink", F.tanhshrink, lambda x: x - np.tanh(x)),
    elementwise_spec("threshold", lambda x: F.threshold(x, 0.5, -2.0),
                     lambda x: np.where(x > 0.5, x, -2.0), 0.5),
    elementwise_spec("hardshrink", lambda x: F.hardshrink(x, 1.5),
                     lambda x: np.where(np.abs(x) > 1.5, x, 0.0), -1.5, 1.5),
    elementwise_spec("softshrink", F.softshrink,
                     lambda x: np.sign(x) * np.maximum(np.abs(x) - 0.5, 0.0), -0.5, 0.5),
    OpSpec("prelu", F.prelu, prelu_reference, prelu_samples),
    OpSpec("glu", F.glu, glu_reference, glu_samples),
    OpSpec("softmin", F.softmin, softmin_reference, softmax_samples),
    # random ops: vmap's default randomness="error" refuses them, as torch.func does; they
    # reseed inside themselves, so ug.jit (which draws at every call) gives eager's values
    OpSpec("rrelu_training", seeded(rrelu_training), None,
           activation_samples(away_from(0.0)), vmap=False),
    OpSpec("gumbel_softmax_rows", gumbel_check,
           lambda x, tau=1.0, hard=False, dim=-1: np.ones(np.delete(x.shape, dim)),
           gumbel_samples, vmap=False),
]
