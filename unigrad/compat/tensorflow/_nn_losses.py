"""TensorFlow's per-example losses: ``tf.nn.sparse_softmax_cross_entropy_with_logits``,
``weighted_cross_entropy_with_logits``, ``log_poisson_loss``, the distribution helpers
``compute_average_loss`` and ``scale_regularization_loss``, the connectionist temporal
classification loss ``ctc_loss`` (dense labels) and its label helper ``collapse_repeated``,
as composites of unigrad's ops.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> loss = tf.nn.sparse_softmax_cross_entropy_with_logits(
    ...     labels=[1], logits=tf.constant([[0.0, 0.0]]))
    >>> loss.numpy().round(4)
    array([0.6931], dtype=float32)
"""

from __future__ import annotations

import math

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F

from ._host import host_array, known_array
from ._tensor import Tensor, as_tf, constant, operand
from .errors import InvalidArgumentError
from .math import _pair, _ret

__all__ = ["sparse_softmax_cross_entropy_with_logits", "weighted_cross_entropy_with_logits",
           "log_poisson_loss", "compute_average_loss", "scale_regularization_loss",
           "collapse_repeated", "ctc_loss"]


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None,
                                             name: str | None = None) -> Tensor:
    """``-log_softmax(logits)[..., labels]``: one loss per example, for integer class ids
    ``labels`` (shape ``logits.shape[:-1]``).

    Raises:
        ValueError: When the shapes disagree or ``logits`` is a scalar.
        InvalidArgumentError: For a label outside ``[0, num_classes)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> logits = tf.constant([[2.0, 0.0], [0.0, 0.0]])
        >>> tf.nn.sparse_softmax_cross_entropy_with_logits([0, 1], logits).numpy()
        array([0.12692805, 0.6931472 ], dtype=float32)
    """
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    scores = operand(logits, "logits")
    ids = operand(labels, "labels")
    if scores.ndim == 0:
        raise ValueError(f"Logits cannot be scalars - received shape {tuple(scores.shape)}.")
    if tuple(ids.shape) != tuple(scores.shape[:-1]):
        raise ValueError(f"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                         f"labels.shape={tuple(ids.shape)} of rank {ids.ndim} and "
                         f"logits.shape={tuple(scores.shape)} of rank {scores.ndim}")
    classes = scores.shape[-1]
    known = known_array(ids)  # checked when known (not while tf.function traces)
    if known is not None and known.size and (known.min() < 0 or known.max() >= classes):
        bad = known[(known < 0) | (known >= classes)][0]
        raise InvalidArgumentError(None, None, f"Received a label value of {bad} which is "
                                   f"outside the valid range of [0, {classes}).  Label values: "
                                   f"{' '.join(str(v) for v in known.reshape(-1).tolist())}")
    index = ug.unsqueeze(ug.cast(ids, ug.int64), -1)
    picked = ug.gather(ug.log_softmax(scores, dim=-1), -1, index)
    return _ret(-ug.squeeze(picked, -1), scores)


def weighted_cross_entropy_with_logits(labels, logits, pos_weight,
                                       name: str | None = None) -> Tensor:
    """The logistic loss with positives weighted by ``pos_weight``:
    ``(1 - z) * x + (1 + (q - 1) * z) * log(1 + exp(-x))``, computed stably.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.weighted_cross_entropy_with_logits([1.0], tf.constant([0.0]), 2.0).numpy()
        array([1.3862944], dtype=float32)
    """
    logits, labels = _pair(logits, labels)
    if tuple(labels.shape) != tuple(logits.shape):
        raise ValueError(f"logits and labels must have the same shape ({tuple(logits.shape)} vs "
                         f"{tuple(labels.shape)})")
    weight = operand(pos_weight, "pos_weight") if not isinstance(pos_weight, (int, float)) \
        else pos_weight
    log_weight = 1 + (weight - 1) * labels
    softplus_negative = ug.log1p(ug.exp(-ug.abs(logits))) + ug.relu(-logits)
    return _ret((1 - labels) * logits + log_weight * softplus_negative, logits, labels)


def log_poisson_loss(targets, log_input, compute_full_loss: bool = False,
                     name: str | None = None) -> Tensor:
    """The Poisson negative log-likelihood ``exp(c) - z * c`` for log-rates ``c``; with
    ``compute_full_loss``, plus Stirling's ``z * log(z) - z + 0.5 * log(2 * pi * z)``
    where ``z > 1``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.log_poisson_loss(tf.constant([2.0]), tf.constant([0.0])).numpy()
        array([1.], dtype=float32)
    """
    log_input, targets = _pair(log_input, targets)
    if tuple(targets.shape) != tuple(log_input.shape):
        raise ValueError(f"log_input and targets must have the same shape "
                         f"({tuple(log_input.shape)} vs {tuple(targets.shape)})")
    result = ug.exp(log_input) - log_input * targets
    if compute_full_loss:
        safe = ug.where(targets > 1, targets, ug.ones_like(targets))
        stirling = safe * ug.log(safe) - safe + 0.5 * ug.log(2 * math.pi * safe)
        result = result + ug.where(targets > 1, stirling, ug.zeros_like(stirling))
    return _ret(result, log_input, targets)


def compute_average_loss(per_example_loss, sample_weight=None,
                         global_batch_size=None) -> Tensor:
    """The per-example losses (times ``sample_weight``) summed and divided by
    ``global_batch_size`` (default: the number of examples, one replica).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0])).numpy()
        np.float32(2.0)
    """
    losses = operand(per_example_loss, "per_example_loss")
    if sample_weight is not None:
        losses = losses * operand(sample_weight, "sample_weight")
    if global_batch_size is None:
        global_batch_size = losses.shape[0] if losses.ndim else 1
    if isinstance(global_batch_size, bool) or int(global_batch_size) <= 0:
        raise ValueError(f"global_batch_size must be a positive int, got {global_batch_size!r}")
    return as_tf(ug.sum(losses) / constant(int(global_batch_size), dtype=losses.dtype))


def scale_regularization_loss(regularization_loss) -> Tensor:
    """The regularization loss divided by the number of replicas (one here: unchanged).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.scale_regularization_loss(tf.constant(0.5)).numpy()
        np.float32(0.5)
    """
    loss = operand(regularization_loss, "regularization_loss")
    return as_tf(ug.sum(loss) / 1)


def collapse_repeated(labels, seq_length, name: str | None = None) -> tuple:
    """Merge runs of a repeated label in each row of ``labels`` (``[batch, max_length]``,
    the first ``seq_length[i]`` entries of row ``i``): ``(collapsed, new_lengths)``, the
    rows zero-padded to the longest.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> collapsed, lengths = tf.nn.collapse_repeated([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]],
        ...                                              [5, 3])
        >>> collapsed.numpy(), lengths.numpy()
        (array([[1, 2, 3],
               [4, 0, 0]], dtype=int32), array([3, 1], dtype=int32))
    """
    rows = host_array(operand(labels, "labels"))  # the output's shape depends on them
    lengths = host_array(operand(seq_length, "seq_length"))
    if rows.ndim != 2 or lengths.shape != rows.shape[:1]:
        raise ValueError(f"labels must be [batch, max_length] and seq_length [batch], got "
                         f"{list(rows.shape)} and {list(lengths.shape)}")
    kept = []
    for row, length in zip(rows, lengths.tolist()):
        values = row[:length]
        kept.append(values[np.r_[True, values[1:] != values[:-1]]] if values.size else values)
    width = max((len(k) for k in kept), default=0)
    collapsed = np.zeros((rows.shape[0], width), rows.dtype)
    for index, values in enumerate(kept):
        collapsed[index, :len(values)] = values
    return constant(collapsed), constant(np.array([len(k) for k in kept], lengths.dtype))


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major: bool = True,
             unique=None, blank_index=None, name: str | None = None) -> Tensor:
    """The CTC loss (negative log-probability of each label sequence) of unnormalized
    ``logits`` (``[frames, batch, classes]``, or ``[batch, frames, classes]`` when not
    ``logits_time_major``) against dense ``labels`` (``[batch, max_label_length]``, the first
    ``label_length[i]`` entries of row ``i``); ``blank_index`` (default 0, negative counts from
    the end) is the blank class. One loss per example.

    Raises:
        ValueError: For a sparse ``labels`` (not supported) or mismatched batch sizes.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> loss = tf.nn.ctc_loss([[1]], tf.zeros((2, 1, 2)), [1], [2])
        >>> loss.numpy().round(4)
        array([0.2877], dtype=float32)
    """
    if label_length is None:
        raise ValueError("labels must be a dense Tensor with label_length (SparseTensor labels "
                         "are not supported)")
    scores = operand(logits, "logits")
    if scores.ndim != 3:
        raise ValueError(f"logits must be 3-D, got shape {tuple(scores.shape)}")
    if not logits_time_major:
        scores = ug.transpose(scores, 0, 1)
    classes = scores.shape[-1]
    blank = 0 if blank_index is None else int(blank_index) % classes
    targets, target_lengths, input_lengths = (
        ug.cast(operand(value, name), ug.int64) for value, name in
        ((labels, "labels"), (label_length, "label_length"), (logit_length, "logit_length")))
    sizes = (targets.shape[0], target_lengths.numel(), input_lengths.numel(), scores.shape[1])
    if len(set(sizes)) != 1:
        raise ValueError(f"labels, label_length, logit_length and logits must have the same "
                         f"batch size, got {', '.join(str(n) for n in sizes)}")
    log_probabilities = ug.log_softmax(scores, dim=-1)
    losses = F.ctc_loss(log_probabilities, targets, ug.reshape(input_lengths, (-1,)),
                        ug.reshape(target_lengths, (-1,)), blank=blank, reduction="none")
    return _ret(losses.to(scores.dtype), scores)
