"""Op-table spec for ``unigrad.nn.functional.linear_cross_entropy``.

The reference contracts ``input`` with ``linear_weight`` over ``in_features``
in NumPy (``tensordot``), adds the bias and applies the independent NumPy
cross-entropy reference of ``table_nn``.
"""

from __future__ import annotations

import numpy as np

import unigrad.nn.functional as F
from unigrad.nn import LinearCrossEntropyOptions

from .spec import OpSpec, Sample, normal, positive
from .table_nn import cross_entropy_reference


def linear_cross_entropy_call(x, linear_weight, target, linear_bias=None, weight=None, **kwargs):
    return F.linear_cross_entropy(x, linear_weight, target, linear_bias=linear_bias,
                                  weight=weight, **kwargs)


def linear_cross_entropy_reference(x, linear_weight, target, linear_bias=None, weight=None,
                                   reduction="mean", ignore_index=None, label_smoothing=0.0,
                                   options=None):
    logits = np.tensordot(x, linear_weight, axes=([-1], [-1]))
    if linear_bias is not None:
        logits = logits + linear_bias
    return cross_entropy_reference(logits, target, weight,
                                   -100 if ignore_index is None else ignore_index, reduction,
                                   label_smoothing)


def linear_cross_entropy_samples(rng):
    class_weight = positive(rng, 5)
    samples = []
    for reduction in ("mean", "sum", "none"):
        samples += [
            Sample((normal(rng, 4, 3), normal(rng, 5, 3), rng.integers(0, 5, 4)),
                   {"reduction": reduction}, label=f"plain_{reduction}"),
            Sample((normal(rng, 4, 3), normal(rng, 5, 3), np.array([0, 4, -100, 2]),
                    normal(rng, 5), class_weight),
                   {"reduction": reduction, "label_smoothing": 0.2}, diff=(0, 1, 3),
                   label=f"bias_weight_smoothing_{reduction}"),
            Sample((normal(rng, 3, 4), normal(rng, 5, 2, 4), rng.integers(0, 5, (3, 2)),
                    normal(rng, 5, 2), class_weight),
                   {"reduction": reduction, "ignore_index": 1}, diff=(0, 1, 3),
                   label=f"k_dimensional_{reduction}"),
            Sample((normal(rng, 3, 2), normal(rng, 5, 2), rng.dirichlet(np.ones(5), 3)),
                   {"reduction": reduction, "label_smoothing": 0.1},
                   label=f"probabilities_{reduction}"),
            Sample((normal(rng, 4, 3), normal(rng, 5, 3), rng.integers(0, 5, 4)),
                   {"reduction": reduction,
                    "options": LinearCrossEntropyOptions(batch_chunk_size=2)},
                   label=f"options_{reduction}"),
        ]
    samples += [
        Sample((normal(rng, 3), normal(rng, 5, 3), np.array(2), normal(rng, 5)),
               label="unbatched"),
        Sample((normal(rng, 0, 3), normal(rng, 5, 3), np.zeros(0, dtype=np.int64)),
               {"reduction": "sum"}, label="empty"),
    ]
    return samples


OPS = [
    OpSpec("linear_cross_entropy", linear_cross_entropy_call, linear_cross_entropy_reference,
           linear_cross_entropy_samples, primitives=("class_selector", "log_softmax")),
]
