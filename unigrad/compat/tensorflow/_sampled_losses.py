"""TensorFlow's candidate-sampling losses: ``tf.nn.nce_loss`` and ``tf.nn.sampled_softmax_loss``
(logits of the true classes and of ``num_sampled`` sampled ones, corrected by the log of their
expected counts), with ``tf.nn.compute_accidental_hits``; as composites of unigrad's ops.

``sampled_values`` (``(sampled_candidates, true_expected_count, sampled_expected_count)``)
fixes the sample; without it the classes are drawn without replacement from the log-uniform
(Zipfian) distribution ``P(c) = log((c + 2) / (c + 1)) / log(num_classes + 1)``, as
TensorFlow's default sampler does (with NumPy's generator, so not TensorFlow's draws).

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> sample = (tf.constant([2, 3]), tf.constant([[0.5]]), tf.constant([0.5, 0.5]))
    >>> loss = tf.nn.nce_loss(tf.ones((4, 2)), tf.zeros(4), [[1]], tf.ones((1, 2)), 2, 4,
    ...                       sampled_values=sample)
    >>> loss.numpy().round(4)
    array([5.5827], dtype=float32)
"""

from __future__ import annotations

import collections

import numpy as np

import unigrad as ug

from ._host import host_array
from ._tensor import Tensor, as_tf, constant, operand
from .math import _ret

__all__ = ["nce_loss", "sampled_softmax_loss", "compute_accidental_hits"]

ComputeAccidentalHits = collections.namedtuple("ComputeAccidentalHits",
                                               ["indices", "ids", "weights"])


def compute_accidental_hits(true_classes, sampled_candidates, num_true: int, seed=None,
                            name: str | None = None) -> ComputeAccidentalHits:
    """Where a sampled candidate equals one of a row's true classes: ``(indices, ids,
    weights)``, the row, the candidate's position and ``-FLT_MAX`` for each hit, row by row.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> hits = tf.nn.compute_accidental_hits([[1], [3]], [3, 1, 0], num_true=1)
        >>> hits.indices.numpy(), hits.ids.numpy()
        (array([0, 1], dtype=int32), array([1, 0]))
    """
    truth = host_array(operand(true_classes, "true_classes")).reshape(-1, int(num_true))
    sampled = host_array(operand(sampled_candidates, "sampled_candidates")).reshape(-1)
    rows, positions = np.nonzero((truth[:, :, None] == sampled[None, None, :]).any(axis=1))
    weights = np.full(rows.size, -np.finfo(np.float32).max, np.float32)
    return ComputeAccidentalHits(constant(rows.astype(np.int32)),
                                 constant(positions.astype(np.int64)), constant(weights))


def _log_uniform_sample(num_true: int, num_sampled: int, num_classes: int, seed,
                        labels: np.ndarray) -> tuple:
    """``num_sampled`` distinct classes drawn log-uniformly, and the expected counts of the
    true and sampled classes under that unique sampling."""
    if num_sampled > num_classes:
        raise ValueError(f"num_sampled ({num_sampled}) must not exceed num_classes "
                         f"({num_classes}) for unique sampling")
    generator = np.random.default_rng(seed)
    chosen, tries = [], 0
    while len(chosen) < num_sampled:
        draw = int(np.exp(generator.random() * np.log(num_classes + 1))) - 1
        tries += 1
        if 0 <= draw < num_classes and draw not in chosen:
            chosen.append(draw)

    def expected(classes: np.ndarray) -> np.ndarray:
        probability = np.log((classes + 2.0) / (classes + 1.0)) / np.log(num_classes + 1.0)
        return (-np.expm1(tries * np.log1p(-probability))).astype(np.float32)

    sampled = np.array(chosen, np.int64)
    return sampled, expected(labels.reshape(-1, num_true)), expected(sampled)


def _sampled_logits(weights, biases, labels, inputs, num_sampled: int, num_classes: int,
                    num_true: int, sampled_values, remove_accidental_hits: bool,
                    seed) -> tuple:
    """TensorFlow's ``_compute_sampled_logits``: ``(logits, labels)`` of shape
    ``[batch, num_true + num_sampled]``."""
    if isinstance(weights, (list, tuple)):
        if len(weights) != 1:
            raise NotImplementedError("sharded weights (a list of several tensors) are not "
                                      "supported; pass one [num_classes, dim] tensor")
        weights = weights[0]
    table, x = operand(weights, "weights"), operand(inputs, "inputs")
    bias = operand(biases, "biases")
    truth = ug.cast(operand(labels, "labels"), ug.int64)
    flat_truth = ug.reshape(truth, (-1,))
    if sampled_values is None:
        sampled_values = _log_uniform_sample(num_true, num_sampled, num_classes, seed,
                                             host_array(truth))
    sampled, true_count, sampled_count = (  # not differentiated, as in TensorFlow
        operand(value, "sampled_values").detach() for value in sampled_values)
    sampled = ug.cast(sampled, ug.int64)
    all_ids = ug.cat([flat_truth, sampled], 0)
    all_w = ug.cast(ug.index_select(table, 0, all_ids), x.dtype)
    all_b = ug.cast(ug.index_select(bias, 0, all_ids), x.dtype)
    count = flat_truth.shape[0]
    true_w = ug.reshape(ug.narrow(all_w, 0, 0, count), (-1, num_true, table.shape[1]))
    sampled_w = ug.narrow(all_w, 0, count, all_w.shape[0] - count)
    true_logits = ug.sum(ug.unsqueeze(x, 1) * true_w, -1) + \
        ug.reshape(ug.narrow(all_b, 0, 0, count), (-1, num_true))
    sampled_logits = ug.matmul(x, ug.transpose(sampled_w, 0, 1)) + \
        ug.narrow(all_b, 0, count, all_b.shape[0] - count)
    if remove_accidental_hits:
        hits = compute_accidental_hits(truth, sampled, num_true)
        mask = np.zeros(tuple(sampled_logits.shape), np.float32)
        mask[host_array(hits.indices), host_array(hits.ids)] = host_array(hits.weights)
        sampled_logits = sampled_logits + ug.tensor(mask.astype(x.dtype.np_dtype))
    true_logits = true_logits - ug.log(ug.cast(true_count, x.dtype))
    sampled_logits = sampled_logits - ug.log(ug.cast(sampled_count, x.dtype))
    logits = ug.cat([true_logits, sampled_logits], 1)
    targets = ug.cat([ug.ones_like(true_logits) / num_true, ug.zeros_like(sampled_logits)], 1)
    return logits, targets, (table, bias, x)


def nce_loss(weights, biases, labels, inputs, num_sampled: int, num_classes: int,
             num_true: int = 1, sampled_values=None, remove_accidental_hits: bool = False,
             name: str = "nce_loss") -> Tensor:
    """The noise-contrastive estimation loss per example: the logistic loss of telling the
    ``num_true`` true classes (``labels``, ``[batch, num_true]``) from ``num_sampled``
    sampled ones, with class embeddings ``weights`` (``[num_classes, dim]``) and ``biases``.
    """
    logits, targets, sources = _sampled_logits(weights, biases, labels, inputs, num_sampled,
                                               num_classes, num_true, sampled_values,
                                               remove_accidental_hits, None)
    losses = ug.relu(logits) - logits * targets + ug.log1p(ug.exp(-ug.abs(logits)))
    return _ret(ug.sum(losses, 1), *sources)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled: int, num_classes: int,
                         num_true: int = 1, sampled_values=None,
                         remove_accidental_hits: bool = True, seed=None,
                         name: str = "sampled_softmax_loss") -> Tensor:
    """The softmax cross-entropy per example over the true classes and ``num_sampled``
    sampled ones (an estimate of the full softmax loss for large ``num_classes``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> sample = (tf.constant([2, 3]), tf.constant([[0.5]]), tf.constant([0.5, 0.5]))
        >>> tf.nn.sampled_softmax_loss(tf.ones((4, 2)), tf.zeros(4), [[1]], tf.ones((1, 2)), 2,
        ...                            4, sampled_values=sample).numpy().round(4)
        array([1.0986], dtype=float32)
    """
    logits, targets, sources = _sampled_logits(weights, biases, labels, inputs, num_sampled,
                                               num_classes, num_true, sampled_values,
                                               remove_accidental_hits, seed)
    losses = -ug.sum(targets * ug.log_softmax(logits, dim=1), 1)
    return as_tf(_ret(losses, *sources))
