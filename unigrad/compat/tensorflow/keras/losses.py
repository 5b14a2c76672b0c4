"""``tf.keras.losses``: Keras 3's loss functions and ``Loss`` classes over unigrad's ops.

A loss function (``mean_squared_error(y_true, y_pred)``) returns one value per
sample (the last axis reduced); a ``Loss`` object (``MeanSquaredError()``)
casts both arguments to its ``dtype`` (float32), weights the per-sample values
by ``sample_weight`` and reduces them (``reduction``: ``"sum_over_batch_size"``
by default, ``"sum"``, ``"mean"``, ``"mean_with_sample_weight"``, or
``"none"``/``None``). Probabilities are clipped to ``[1e-7, 1 - 1e-7]`` as in
Keras.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> mse = tf.keras.losses.MeanSquaredError()
    >>> mse([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    >>> tf.keras.losses.mean_squared_error([[0.0, 1.0]], [[1.0, 1.0]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F

from .. import nn as _nn
from .._tensor import Tensor, _dtype, as_tf, convert_to_tensor
from ..math import divide_no_nan
from ._registry import deserialized, serialized
from .backend import to_snake_case, unique_name

__all__ = ["Loss", "LossFunctionWrapper", "MeanSquaredError", "MeanAbsoluteError",
           "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "CosineSimilarity",
           "Huber", "LogCosh", "Hinge", "SquaredHinge", "CategoricalHinge", "KLDivergence",
           "Poisson", "BinaryCrossentropy", "CategoricalCrossentropy",
           "SparseCategoricalCrossentropy", "mean_squared_error", "mean_absolute_error",
           "mean_absolute_percentage_error", "mean_squared_logarithmic_error",
           "cosine_similarity", "huber", "log_cosh", "hinge", "squared_hinge",
           "categorical_hinge", "kl_divergence", "poisson", "binary_crossentropy",
           "categorical_crossentropy", "sparse_categorical_crossentropy", "get", "serialize",
           "deserialize", "Reduction", "mse", "MSE", "mae", "MAE", "mape", "MAPE", "msle", "MSLE",
           "kld", "KLD", "kullback_leibler_divergence", "logcosh", "BinaryFocalCrossentropy",
           "CategoricalFocalCrossentropy", "Dice", "Tversky", "binary_focal_crossentropy",
           "categorical_focal_crossentropy", "dice", "tversky",
           "CategoricalGeneralizedCrossEntropy", "categorical_generalized_cross_entropy"]

EPSILON = 1e-7  # keras.backend.epsilon()
_REDUCTIONS = ("sum_over_batch_size", "sum", None, "none", "mean", "mean_with_sample_weight")


# ----------------------------------------------------------------------------- helpers

def auto_name(class_name: str) -> str:
    """Keras' ``auto_name``: the snake-case class name, made unique with the layers' counters
    (``_1``, ``_2``... when reused, until ``clear_session``).

    Example:
        >>> auto_name("DoctestLoss"), auto_name("DoctestLoss")
        ('doctest_loss', 'doctest_loss_1')
    """
    return unique_name(to_snake_case(class_name))


def as_tensor(value, dtype=None):
    """``value`` as a TensorFlow tensor, cast to ``dtype`` when given (Keras'
    ``ops.convert_to_tensor(value, dtype)``: tensors of another dtype are cast).

    Example:
        >>> as_tensor([1, 2], "float32")
        <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """
    tensor = value if isinstance(value, Tensor) else convert_to_tensor(value)
    if dtype is not None and tensor.dtype != _dtype(dtype, "dtype"):
        tensor = as_tf(tensor.to(_dtype(dtype, "dtype")))
    return tensor


def squeeze_or_expand_to_same_rank(first, second, expand_rank_1: bool = True):
    """Keras' rank matching: when the ranks differ by one and the longer one ends in a
    dimension of 1, squeeze it (or expand a rank-1 shorter one).

    Example:
        >>> first, second = squeeze_or_expand_to_same_rank(as_tensor([[1.0], [2.0]]),
        ...                                                 as_tensor([[[1.0]], [[2.0]]]))
        >>> tuple(first.shape), tuple(second.shape)
        ((2, 1), (2, 1))
    """
    first_rank, second_rank = len(first.shape), len(second.shape)
    if first_rank == second_rank + 1 and first.shape[-1] == 1:
        if second_rank == 1 and expand_rank_1:
            second = second.unsqueeze(-1)
        else:
            first = first.squeeze(-1)
    if second_rank == first_rank + 1 and second.shape[-1] == 1:
        if first_rank == 1 and expand_rank_1:
            first = first.unsqueeze(-1)
        else:
            second = second.squeeze(-1)
    return first, second


def _pair(y_true, y_pred, match_rank: bool = True):
    """``y_pred`` as a tensor and ``y_true`` cast to its dtype, ranks matched."""
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    return squeeze_or_expand_to_same_rank(y_true, y_pred) if match_rank else (y_true, y_pred)


def _check_same_shape(target, output) -> None:
    if len(target.shape) != len(output.shape):
        raise ValueError("Arguments `target` and `output` must have the same rank (ndim). "
                         f"Received: target.shape={target.shape}, output.shape={output.shape}")
    if tuple(target.shape) != tuple(output.shape):
        raise ValueError("Arguments `target` and `output` must have the same shape. Received: "
                         f"target.shape={target.shape}, output.shape={output.shape}")


def _warn_single_class(y_pred, function: str) -> None:
    """Keras' warning for a categorical loss on a one-unit output."""
    if y_pred.shape and y_pred.shape[-1] == 1:
        warnings.warn(f"In loss {function}, expected y_pred.shape to be (batch_size, "
                      f"num_classes) with num_classes > 1. Received: y_pred.shape="
                      f"{y_pred.shape}. Consider using 'binary_crossentropy' if you only have "
                      "2 classes.", SyntaxWarning, stacklevel=3)


def _clip_probabilities(output):
    return ug.clamp(output, EPSILON, 1.0 - EPSILON)


# ---------------------------------------------------------------------- loss functions

def mean_squared_error(y_true, y_pred):
    """``mean(square(y_true - y_pred), axis=-1)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.mean_squared_error([[1.0, 2.0]], [[2.0, 4.0]]).numpy()
        array([2.5], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    return ug.mean(ug.square(y_true - y_pred), dim=-1)


def mean_absolute_error(y_true, y_pred):
    """``mean(abs(y_true - y_pred), axis=-1)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.mean_absolute_error([[1.0, 2.0]], [[2.0, 4.0]]).numpy()
        array([1.5], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    return ug.mean(ug.abs(y_true - y_pred), dim=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    """``100 * mean(abs((y_true - y_pred) / max(abs(y_true), 1e-7)), axis=-1)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.mean_absolute_percentage_error([[1.0, 2.0]], [[2.0, 3.0]]).numpy()
        array([75.], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    difference = ug.abs((y_true - y_pred) / ug.clamp(ug.abs(y_true), min=EPSILON))
    return ug.mean(difference, dim=-1) * 100.0


def mean_squared_logarithmic_error(y_true, y_pred):
    """``mean(square(log(max(y_pred, 1e-7) + 1) - log(max(y_true, 1e-7) + 1)), axis=-1)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.mean_squared_logarithmic_error([[0.0]], [[1.0]]).numpy()
        array([0.48045287], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    first = ug.log(ug.clamp(y_pred, min=EPSILON) + 1.0)
    second = ug.log(ug.clamp(y_true, min=EPSILON) + 1.0)
    return ug.mean(ug.square(first - second), dim=-1)


def _l2_normalize(x, axis: int):
    """Keras' ``normalize``: ``x * min(rsqrt(sum(x**2)), 1 / 1e-7)`` along ``axis``."""
    inverse_norm = ug.rsqrt(ug.sum(ug.square(x), dim=axis, keepdim=True))
    return x * ug.clamp(inverse_norm, max=1.0 / EPSILON)


def cosine_similarity(y_true, y_pred, axis: int = -1):
    """The negated cosine similarity of ``y_true`` and ``y_pred`` along ``axis``
    (-1: same direction, 1: opposite directions).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.cosine_similarity([[0.0, 1.0], [1.0, 1.0]],
        ...                                   [[1.0, 0.0], [1.0, 1.0]]).numpy()
        array([-0.        , -0.99999994], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    return -ug.sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), dim=axis)


def huber(y_true, y_pred, delta: float = 1.0):
    """Quadratic ``0.5 * e**2`` for ``|e| <= delta``, linear ``delta * |e| - 0.5 * delta**2``
    beyond, averaged over the last axis (``e = y_pred - y_true``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.huber([[0.0, 0.0]], [[0.5, 3.0]]).numpy()  # (0.125 + 2.5) / 2
        array([1.3125], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    error = y_pred - y_true
    absolute = ug.abs(error)
    delta = float(delta)
    return ug.mean(ug.where(absolute <= delta, ug.square(error) * 0.5,
                            absolute * delta - 0.5 * delta * delta), dim=-1)


def log_cosh(y_true, y_pred):
    """``mean(log(cosh(y_pred - y_true)), axis=-1)``, computed as
    ``x + softplus(-2x) - log(2)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.log_cosh([[0.0, 0.0]], [[1.0, -1.0]]).numpy()
        array([0.43378085], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    x = y_pred - y_true
    log_2 = float(np.float32(np.log(2.0)))
    return ug.mean(x + _nn.softplus(x * -2.0) - log_2, dim=-1)


def _hinge_labels(y_true):
    """Labels in {0, 1} become {-1, 1}; other labels are kept."""
    if bool(ug.all((y_true == 0) | (y_true == 1))):
        return y_true * 2.0 - 1.0
    return y_true


def hinge(y_true, y_pred):
    """``mean(max(1 - y_true * y_pred, 0), axis=-1)``; 0/1 labels count as -1/1.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.hinge([[0.0, 1.0]], [[0.5, 0.25]]).numpy()  # (1.5 + 0.75) / 2
        array([1.125], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred, match_rank=False)
    y_true = _hinge_labels(y_true)
    return ug.mean(ug.clamp(1.0 - y_true * y_pred, min=0.0), dim=-1)


def squared_hinge(y_true, y_pred):
    """``mean(square(max(1 - y_true * y_pred, 0)), axis=-1)``; 0/1 labels count as -1/1.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.squared_hinge([[0.0, 1.0]], [[0.5, 0.25]]).numpy()
        array([1.40625], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred, match_rank=False)
    y_true = _hinge_labels(y_true)
    return ug.mean(ug.square(ug.clamp(1.0 - y_true * y_pred, min=0.0)), dim=-1)


def categorical_hinge(y_true, y_pred):
    """``max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0)`` over the last axis.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.categorical_hinge([[0.0, 1.0]], [[0.5, 0.25]]).numpy()
        array([1.25], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred, match_rank=False)
    positive = ug.sum(y_true * y_pred, dim=-1)
    negative = ug.amax((1.0 - y_true) * y_pred, dim=-1)
    return ug.clamp(negative - positive + 1.0, min=0.0)


def kl_divergence(y_true, y_pred):
    """``sum(y_true * log(y_true / y_pred), axis=-1)``, both clipped to ``[1e-7, 1]``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.kl_divergence([[0.5, 0.5]], [[0.25, 0.75]]).numpy()
        array([0.14384106], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred, match_rank=False)
    y_true = ug.clamp(y_true, EPSILON, 1.0)
    y_pred = ug.clamp(y_pred, EPSILON, 1.0)
    return ug.sum(y_true * ug.log(y_true / y_pred), dim=-1)


def poisson(y_true, y_pred):
    """``mean(y_pred - y_true * log(y_pred + 1e-7), axis=-1)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.poisson([[1.0, 2.0]], [[1.0, 1.0]]).numpy()
        array([0.9999998], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred, match_rank=False)
    return ug.mean(y_pred - y_true * ug.log(y_pred + EPSILON), dim=-1)


def attach_logits(output, logits):
    """Remember that ``output`` is the sigmoid or softmax of ``logits`` (Keras' ``output.
    _keras_logits``): the cross-entropies then compute from the logits, without clipping.
    Returns ``output``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> logits = tf.constant([[30.0, 0.0]])
        >>> probabilities = attach_logits(tf.nn.softmax(logits), logits)
        >>> tf.keras.losses.categorical_crossentropy([[0.0, 1.0]], probabilities).numpy()
        array([30.], dtype=float32)
    """
    output._extra_dict()["keras_logits"] = logits
    return output


def _keras_logits(output, from_logits: bool, activation: str = "Softmax",
                  function: str = "categorical_crossentropy"):
    """The logits behind a Keras sigmoid/softmax output (see :func:`attach_logits`), as Keras
    uses them instead of the clipped probabilities."""
    extra = getattr(output, "_extra", None)
    logits = None if extra is None else extra.get("keras_logits")
    if logits is not None:
        if from_logits:
            warnings.warn(f'"`{function}` received `from_logits=True`, but the `output` '
                          f"argument was produced by a {activation} activation and thus does "
                          "not represent logits. Was this intended?", stacklevel=3)
        return logits, True
    return output, from_logits


def binary_crossentropy(y_true, y_pred, from_logits: bool = False,
                        label_smoothing: float = 0.0, axis: int = -1):
    """The mean over ``axis`` of ``-(y * log(p) + (1 - y) * log(1 - p))``, ``p`` clipped to
    ``[1e-7, 1 - 1e-7]`` (or computed stably from logits); ``label_smoothing`` moves the
    labels towards 0.5.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.binary_crossentropy([[0.0, 1.0]], [[0.25, 0.75]]).numpy()
        array([0.2876821], dtype=float32)
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    _check_same_shape(y_true, y_pred)
    output, from_logits = _keras_logits(y_pred, from_logits, "Sigmoid", "binary_crossentropy")
    if from_logits:
        values = _nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=output)
    else:
        output = _clip_probabilities(output)
        values = -(y_true * ug.log(output) + (1 - y_true) * ug.log(1 - output))
    return ug.mean(values, dim=axis)


def categorical_crossentropy(y_true, y_pred, from_logits: bool = False,
                             label_smoothing: float = 0.0, axis: int = -1):
    """``-sum(y_true * log(p), axis)`` with ``p = y_pred / sum(y_pred)`` clipped to
    ``[1e-7, 1 - 1e-7]`` (or ``log_softmax`` of logits); ``label_smoothing`` mixes the
    one-hot labels with the uniform distribution.

    Raises:
        ValueError: For an ``axis`` that is a bool, or labels of another shape.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.categorical_crossentropy([[0.0, 1.0, 0.0]],
        ...                                          [[0.05, 0.95, 0.0]]).numpy()
        array([0.05129331], dtype=float32)
    """
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type "
                         f"{type(axis)}")
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    _warn_single_class(y_pred, "categorical_crossentropy")
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / y_true.shape[-1]
    if len(y_true.shape) < 1:
        raise ValueError("Arguments `target` and `output` must be at least rank 1. Received: "
                         f"target.shape={y_true.shape}, output.shape={y_pred.shape}")
    _check_same_shape(y_true, y_pred)
    output, from_logits = _keras_logits(y_pred, from_logits)
    if from_logits:
        return _nn.softmax_cross_entropy_with_logits(labels=y_true, logits=output, axis=axis)
    output = _clip_probabilities(output / ug.sum(output, dim=axis, keepdim=True))
    return -ug.sum(y_true * ug.log(output), dim=axis)


def _sparse_labels(y_true, y_pred):
    """Integer labels of rank ``y_pred.ndim - 1`` (a trailing dimension of 1 squeezed)."""
    y_true = as_tensor(y_true)
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[-1] == 1:
        y_true = y_true.squeeze(-1)
    if tuple(y_true.shape) != tuple(y_pred.shape[:-1]):
        raise ValueError("Arguments `target` and `output` must have the same shape up until the "
                         f"last dimension: target.shape={y_true.shape}, "
                         f"output.shape={y_pred.shape}")
    return y_true


def _sparse_crossentropy_values(labels, y_pred, from_logits: bool):
    """``-log_softmax(logits)[label]``; probabilities are clipped and logged first."""
    output, from_logits = _keras_logits(y_pred, from_logits, "Softmax",
                                        "sparse_categorical_crossentropy")
    if not from_logits:
        output = ug.log(_clip_probabilities(output))
    log_probabilities = F.log_softmax(output, dim=-1)
    indices = labels.to(ug.int64).unsqueeze(-1)
    return -ug.take_along_dim(log_probabilities, indices, dim=-1).squeeze(-1)


def _sparse_crossentropy(y_true, y_pred, from_logits: bool, ignore_class, axis: int):
    """The per-sample values and the mask of the labels that are not ``ignore_class``."""
    if axis not in (-1, len(as_tensor(y_pred).shape) - 1):
        raise ValueError(f"Only axis=-1 is currently supported. Received: axis={axis}")
    y_pred = as_tensor(y_pred)
    labels = _sparse_labels(y_true, y_pred)
    if ignore_class is None:
        return _sparse_crossentropy_values(labels, y_pred, from_logits), None
    valid = labels != ignore_class
    labels = ug.where(valid, labels, ug.zeros_like(labels))
    values = _sparse_crossentropy_values(labels, y_pred * valid.unsqueeze(-1).to(y_pred.dtype),
                                         from_logits)
    return ug.where(valid, values, ug.zeros_like(values)), valid


def sparse_categorical_crossentropy(y_true, y_pred, from_logits: bool = False,
                                    ignore_class: int | None = None, axis: int = -1):
    """Categorical cross-entropy with integer labels: ``-log(p[label])`` (``p`` clipped to
    ``[1e-7, 1 - 1e-7]``, then normalised by a softmax of its log); samples labelled
    ``ignore_class`` get 0.

    Raises:
        ValueError: For labels whose shape is not ``y_pred.shape[:-1]``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.sparse_categorical_crossentropy([1, 2], [[0.05, 0.95, 0.0],
        ...                                                  [0.1, 0.8, 0.1]]).numpy()
        array([0.05129344, 2.3025851 ], dtype=float32)
    """
    return _sparse_crossentropy(y_true, y_pred, from_logits, ignore_class, axis)[0]


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing: bool = False,
                              alpha: float = 0.25, gamma: float = 2.0,
                              from_logits: bool = False, label_smoothing: float = 0.0,
                              axis: int = -1):
    """Binary cross-entropy scaled by ``(1 - p_t)**gamma`` (``p_t``: the probability given to
    the true label), and by ``alpha``/``1 - alpha`` per class with
    ``apply_class_balancing``; the mean over ``axis``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.binary_focal_crossentropy([[0.0, 1.0]], [[0.25, 0.75]]).numpy()
        array([0.01798013], dtype=float32)
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    logits, from_logits = _keras_logits(y_pred, from_logits, "Sigmoid", "binary_crossentropy")
    if from_logits:
        y_pred = ug.sigmoid(logits)
        crossentropy = _nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=logits)
    else:
        clipped = _clip_probabilities(y_pred)
        crossentropy = -(y_true * ug.log(clipped) + (1 - y_true) * ug.log(1 - clipped))
    true_probability = y_true * y_pred + (1 - y_true) * (1 - y_pred)
    focal = (1.0 - true_probability) ** gamma * crossentropy
    if apply_class_balancing:
        focal = (y_true * alpha + (1 - y_true) * (1 - alpha)) * focal
    return ug.mean(focal, dim=axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha: float = 0.25, gamma: float = 2.0,
                                   from_logits: bool = False, label_smoothing: float = 0.0,
                                   axis: int = -1):
    """Categorical cross-entropy with each class's term scaled by
    ``alpha * (1 - p)**gamma`` (``p``: the normalised, clipped probability).

    Raises:
        ValueError: For an ``axis`` that is a bool.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.categorical_focal_crossentropy([[0.0, 1.0, 0.0]],
        ...                                                [[0.1, 0.8, 0.1]]).numpy()
        array([0.00223144], dtype=float32)
    """
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type "
                         f"{type(axis)}")
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    _warn_single_class(y_pred, "categorical_focal_crossentropy")
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / y_true.shape[-1]
    if from_logits:
        y_pred = F.softmax(y_pred, dim=axis)
    output = _clip_probabilities(y_pred / ug.sum(y_pred, dim=axis, keepdim=True))
    crossentropy = -y_true * ug.log(output)
    return ug.sum((1.0 - output) ** gamma * alpha * crossentropy, dim=axis)


def dice(y_true, y_pred, axis=None):
    """``1 - 2 * sum(y_true * y_pred) / (sum(y_true) + sum(y_pred) + 1e-7)`` over ``axis``
    (everything by default).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.dice([[1.0, 0.0]], [[0.5, 0.5]]).numpy()
        np.float32(0.5)
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    intersection = ug.sum(y_true * y_pred, dim=axis)
    total = ug.sum(y_true, dim=axis) + ug.sum(y_pred, dim=axis) + EPSILON
    return 1 - 2.0 * intersection / total


def tversky(y_true, y_pred, alpha: float = 0.5, beta: float = 0.5, axis=None):
    """``1 - TP / (TP + alpha * FP + beta * FN)`` with soft counts over ``axis`` (Keras'
    assignment: ``FP = sum((1 - y_pred) * y_true)``, ``FN = sum(y_pred * (1 - y_true))``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.tversky([[1.0, 0.0]], [[0.5, 0.5]], alpha=0.7, beta=0.3).numpy()
        np.float32(0.50000006)
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    intersection = ug.sum(y_true * y_pred, dim=axis)
    false_positives = ug.sum((1 - y_pred) * y_true, dim=axis)
    false_negatives = ug.sum(y_pred * (1 - y_true), dim=axis)
    return 1 - intersection / (intersection + false_positives * alpha
                               + false_negatives * beta + EPSILON)


def categorical_generalized_cross_entropy(y_true, y_pred, q: float):
    """The generalized cross-entropy of integer labels, robust to label noise:
    ``(1 - p**q) / q`` with ``p`` the probability given to the label.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.categorical_generalized_cross_entropy(
        ...     [1, 0], [[0.2, 0.8], [0.25, 0.75]], q=0.5).numpy()
        array([0.21114564, 1.        ], dtype=float32)
    """
    y_pred = as_tensor(y_pred)
    labels = as_tensor(y_true).to(ug.int64)
    one_hot = F.one_hot(labels, y_pred.shape[-1]).to(y_pred.dtype)
    probability = ug.sum(y_pred * one_hot, dim=-1)
    return as_tf((1 - probability ** q) / q)


# ----------------------------------------------------------------------------- classes

def _standardize_reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError("Invalid value for argument `reduction`. Expected one of "
                         f"{set(_REDUCTIONS)}. Received: reduction={reduction}")
    return reduction


def reduce_values(values, sample_weight=None, reduction="sum_over_batch_size"):
    """Keras' reduction of (weighted) loss values: none, their sum, or the sum over the
    number of values (or over the sum of the weights for ``"mean_with_sample_weight"``).

    Example:
        >>> reduce_values(as_tensor([1.0, 2.0, 3.0]), reduction="sum").numpy()
        np.float32(6.0)
    """
    if reduction in (None, "none") or tuple(values.shape) in ((), (0,)):
        return values
    total = ug.sum(values)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and sample_weight is not None:
        divisor = ug.sum(sample_weight)
    else:
        divisor = float(np.prod(values.shape))
    return divide_no_nan(total, as_tensor(divisor, total.dtype))


def mask_weights(sample_weight, mask, dtype, reduction):
    """The mask merged into the sample weights: valid entries weigh ``total / valid`` for the
    averaging reductions (so that the mean runs over the valid entries), else 1.

    Example:
        >>> mask_weights(None, as_tensor([True, False]), "float32", "sum_over_batch_size")
        <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 0.], dtype=float32)>
    """
    if mask is None:
        return sample_weight
    mask = as_tensor(mask, dtype)
    if reduction in ("mean", "sum_over_batch_size"):
        valid = float(ug.sum(mask))
        float_mask = mask * (float(np.prod(mask.shape)) / valid if valid else 0.0)
    else:
        float_mask = mask
    if sample_weight is None:
        return float_mask
    float_mask, sample_weight = squeeze_or_expand_to_same_rank(float_mask, sample_weight)
    return sample_weight * float_mask


def reduce_weighted_values(values, sample_weight=None, mask=None,
                           reduction="sum_over_batch_size", dtype=None):
    """``values * sample_weight`` (ranks matched, the mask merged in) reduced by
    ``reduction``.

    Example:
        >>> reduce_weighted_values(as_tensor([1.0, 2.0]), sample_weight=[1.0, 0.0]).numpy()
        np.float32(0.5)
    """
    reduction = _standardize_reduction(reduction)
    values = as_tensor(values, dtype)
    if sample_weight is not None:
        sample_weight = as_tensor(sample_weight, values.dtype)
    sample_weight = mask_weights(sample_weight, mask, values.dtype, reduction)
    if sample_weight is not None:
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        values = values * sample_weight
    return reduce_values(values, sample_weight, reduction)


class Loss:
    """Base class of the Keras losses: subclasses define ``call(y_true, y_pred)`` (per-sample
    values); calling the loss casts, weights and reduces them.

    ``Loss(name=None, reduction="sum_over_batch_size", dtype=None)``.

    Raises:
        ValueError: For an unknown ``reduction``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> class AbsoluteSum(tf.keras.losses.Loss):
        ...     def call(self, y_true, y_pred):
        ...         return tf.reduce_sum(tf.abs(y_true - y_pred), axis=-1)
        >>> loss = AbsoluteSum(reduction="sum")
        >>> loss([[1.0, 2.0], [0.0, 0.0]], [[0.0, 0.0], [1.0, 1.0]]).numpy()
        np.float32(5.0)
    """

    def __init__(self, name: str | None = None, reduction="sum_over_batch_size", dtype=None):
        self.name = name or auto_name(type(self).__name__)
        self.reduction = _standardize_reduction(reduction)
        self._dtype = _dtype(dtype or "float32", "dtype").name

    @property
    def dtype(self) -> str:
        """The dtype of the computation, ``"float32"`` by default."""
        return self._dtype

    def __call__(self, y_true, y_pred, sample_weight=None):
        y_pred = as_tensor(y_pred, self.dtype)
        y_true = as_tensor(y_true, self.dtype)
        values, mask = self._values_and_mask(y_true, y_pred)
        return reduce_weighted_values(values, sample_weight=sample_weight, mask=mask,
                                      reduction=self.reduction, dtype=self.dtype)

    def _values_and_mask(self, y_true, y_pred):
        return self.call(y_true, y_pred), None

    def call(self, y_true, y_pred):
        """The per-sample loss values (subclasses define it)."""
        raise NotImplementedError(f"{type(self).__name__} must define `call(y_true, y_pred)`")

    def get_config(self) -> dict:
        """``{"name": ..., "reduction": ...}`` and the loss's own arguments."""
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config: dict):
        """A loss built from :meth:`get_config`'s dict."""
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A ``Loss`` around a loss function: ``LossFunctionWrapper(fn, reduction=..., name=None,
    dtype=None, **kwargs)`` calls ``fn(y_true, y_pred, **kwargs)`` after matching the ranks.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> loss = tf.keras.losses.LossFunctionWrapper(tf.keras.losses.huber, delta=0.5)
        >>> loss([[0.0, 0.0]], [[0.25, 2.0]]).numpy()  # (0.03125 + 0.875) / 2
        np.float32(0.453125)
    """

    def __init__(self, fn: Callable, reduction="sum_over_batch_size", name: str | None = None,
                 dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self) -> dict:
        return {**super().get_config(), "fn": getattr(self.fn, "__name__", self.fn),
                **self._fn_kwargs}

    def __repr__(self) -> str:
        return f"<LossFunctionWrapper({self.fn}, kwargs={self._fn_kwargs})>"


def _wrapper_class(class_name: str, fn: Callable, default_name: str, options: dict,
                   config_keys: tuple = (), after_name: tuple = ()) -> type:
    """A ``LossFunctionWrapper`` subclass whose constructor takes ``options`` (name: default)
    before ``reduction``, ``name`` and ``dtype``, as Keras' loss classes do (the options in
    ``after_name`` between ``name`` and ``dtype``)."""
    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    parameters = [inspect.Parameter("self", keyword)]
    parameters += [inspect.Parameter(key, keyword, default=value)
                   for key, value in options.items() if key not in after_name]
    parameters += [inspect.Parameter("reduction", keyword, default="sum_over_batch_size"),
                   inspect.Parameter("name", keyword, default=default_name)]
    parameters += [inspect.Parameter(key, keyword, default=options[key]) for key in after_name]
    parameters += [inspect.Parameter("dtype", keyword, default=None)]
    signature = inspect.Signature(parameters)

    def __init__(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self")
        base = {key: arguments.pop(key) for key in ("reduction", "name", "dtype")}
        LossFunctionWrapper.__init__(self, fn, **base, **arguments)
        for key in config_keys:
            setattr(self, key, arguments[key])

    def get_config(self) -> dict:
        return {**Loss.get_config(self), **{key: getattr(self, key) for key in config_keys}}

    __init__.__signature__ = signature
    return type(class_name, (LossFunctionWrapper,), {
        "__init__": __init__, "get_config": get_config, "__module__": __name__,
        "__doc__": f"``{class_name}{str(signature).replace('self, ', '')}``: the Loss of "
                   f":func:`{fn.__name__}`.\n\n    Example:\n"
                   f"        >>> import unigrad.compat.tensorflow as tf\n"
                   f"        >>> tf.keras.losses.{class_name}().name\n"
                   f"        '{default_name}'\n"})


MeanSquaredError = _wrapper_class("MeanSquaredError", mean_squared_error,
                                  "mean_squared_error", {})
MeanAbsoluteError = _wrapper_class("MeanAbsoluteError", mean_absolute_error,
                                   "mean_absolute_error", {})
MeanAbsolutePercentageError = _wrapper_class(
    "MeanAbsolutePercentageError", mean_absolute_percentage_error,
    "mean_absolute_percentage_error", {})
MeanSquaredLogarithmicError = _wrapper_class(
    "MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
    "mean_squared_logarithmic_error", {})
CosineSimilarity = _wrapper_class("CosineSimilarity", cosine_similarity, "cosine_similarity",
                                  {"axis": -1})
Huber = _wrapper_class("Huber", huber, "huber_loss", {"delta": 1.0})
LogCosh = _wrapper_class("LogCosh", log_cosh, "log_cosh", {})
Hinge = _wrapper_class("Hinge", hinge, "hinge", {})
SquaredHinge = _wrapper_class("SquaredHinge", squared_hinge, "squared_hinge", {})
CategoricalHinge = _wrapper_class("CategoricalHinge", categorical_hinge, "categorical_hinge", {})
KLDivergence = _wrapper_class("KLDivergence", kl_divergence, "kl_divergence", {})
Poisson = _wrapper_class("Poisson", poisson, "poisson", {})
BinaryCrossentropy = _wrapper_class(
    "BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
    {"from_logits": False, "label_smoothing": 0.0, "axis": -1},
    ("from_logits", "label_smoothing", "axis"))
CategoricalCrossentropy = _wrapper_class(
    "CategoricalCrossentropy", categorical_crossentropy, "categorical_crossentropy",
    {"from_logits": False, "label_smoothing": 0.0, "axis": -1},
    ("from_logits", "label_smoothing", "axis"))

BinaryFocalCrossentropy = _wrapper_class(
    "BinaryFocalCrossentropy", binary_focal_crossentropy, "binary_focal_crossentropy",
    {"apply_class_balancing": False, "alpha": 0.25, "gamma": 2.0, "from_logits": False,
     "label_smoothing": 0.0, "axis": -1},
    ("from_logits", "label_smoothing", "axis", "apply_class_balancing", "alpha", "gamma"))
CategoricalFocalCrossentropy = _wrapper_class(
    "CategoricalFocalCrossentropy", categorical_focal_crossentropy,
    "categorical_focal_crossentropy",
    {"alpha": 0.25, "gamma": 2.0, "from_logits": False, "label_smoothing": 0.0, "axis": -1},
    ("from_logits", "label_smoothing", "axis", "alpha", "gamma"))
Dice = _wrapper_class("Dice", dice, "dice", {"axis": None}, ("axis",), after_name=("axis",))
Tversky = _wrapper_class("Tversky", tversky, "tversky", {"alpha": 0.5, "beta": 0.5, "axis": None},
                         ("alpha", "beta", "axis"), after_name=("axis",))



class CategoricalGeneralizedCrossEntropy(LossFunctionWrapper):
    """``CategoricalGeneralizedCrossEntropy(q=0.5, reduction="sum_over_batch_size",
    name="categorical_generalized_cross_entropy", dtype=None)``: the Loss of
    :func:`categorical_generalized_cross_entropy`.

    Raises:
        ValueError: For ``q`` outside (0, 1).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> loss = tf.keras.losses.CategoricalGeneralizedCrossEntropy(q=0.5)
        >>> loss([1, 0], [[0.2, 0.8], [0.25, 0.75]]).numpy()
        np.float32(0.6055728)
    """

    def __init__(self, q: float = 0.5, reduction="sum_over_batch_size",
                 name: str = "categorical_generalized_cross_entropy", dtype=None):
        if not 0 < q < 1:
            raise ValueError("q must be in the interval (0, 1)")
        super().__init__(categorical_generalized_cross_entropy, name=name, reduction=reduction,
                         dtype=dtype, q=q)
        self.q = q

    def get_config(self) -> dict:
        return {**Loss.get_config(self), "q": self.q}

class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """``SparseCategoricalCrossentropy(from_logits=False, ignore_class=None,
    reduction="sum_over_batch_size", axis=-1, name="sparse_categorical_crossentropy",
    dtype=None)``: the Loss of :func:`sparse_categorical_crossentropy`; with
    ``ignore_class``, the average runs over the other samples only.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> loss = tf.keras.losses.SparseCategoricalCrossentropy(ignore_class=0)
        >>> loss([1, 0], [[0.5, 0.5], [0.9, 0.1]]).numpy()  # -log(0.5), one valid sample
        np.float32(0.6931472)
    """

    def __init__(self, from_logits: bool = False, ignore_class: int | None = None,
                 reduction="sum_over_batch_size", axis: int = -1,
                 name: str = "sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, name=name, reduction=reduction,
                         dtype=dtype, from_logits=from_logits, ignore_class=ignore_class,
                         axis=axis)
        self.from_logits = from_logits
        self.ignore_class = ignore_class

    def _values_and_mask(self, y_true, y_pred):
        return _sparse_crossentropy(y_true, y_pred, self.from_logits, self.ignore_class,
                                    self._fn_kwargs["axis"])

    def get_config(self) -> dict:
        return {**Loss.get_config(self), "from_logits": self.from_logits,
                "ignore_class": self.ignore_class}


# the short names of ``tf.keras.losses`` (Keras' legacy aliases)
mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh


class Reduction:
    """The legacy reduction names of ``tf.keras.losses.Reduction``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.Reduction.all()
        ('auto', 'none', 'sum', 'sum_over_batch_size')
    """

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls) -> tuple:
        """The four reduction names."""
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key) -> None:
        """Raise ``ValueError`` unless ``key`` is one of :meth:`all`."""
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


# ------------------------------------------------------------------------------ lookup

_CLASSES = (Loss, LossFunctionWrapper, MeanSquaredError, MeanAbsoluteError,
            MeanAbsolutePercentageError, MeanSquaredLogarithmicError, CosineSimilarity, Huber,
            LogCosh, Hinge, SquaredHinge, CategoricalHinge, KLDivergence, Poisson,
            BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy,
            BinaryFocalCrossentropy, CategoricalFocalCrossentropy, Dice, Tversky,
            CategoricalGeneralizedCrossEntropy)
_FUNCTIONS = (mean_squared_error, mean_absolute_error, mean_absolute_percentage_error,
              mean_squared_logarithmic_error, cosine_similarity, huber, log_cosh, hinge,
              squared_hinge, categorical_hinge, kl_divergence, poisson, binary_crossentropy,
              categorical_crossentropy, sparse_categorical_crossentropy,
              binary_focal_crossentropy, categorical_focal_crossentropy, dice, tversky,
              categorical_generalized_cross_entropy)
_BY_NAME: dict = {item.__name__: item for item in _CLASSES + _FUNCTIONS}
_BY_NAME.update({alias: function for function, aliases in (
    (binary_crossentropy, ("bce", "BCE")), (kl_divergence, ("kld", "KLD")),
    (mean_absolute_error, ("mae", "MAE")), (mean_squared_error, ("mse", "MSE")),
    (mean_absolute_percentage_error, ("mape", "MAPE")),
    (mean_squared_logarithmic_error, ("msle", "MSLE"))) for alias in aliases})


def serialize(loss) -> dict | str:
    """A loss function's name, or a ``Loss``'s ``{"class_name", "config"}``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.serialize(tf.keras.losses.Huber(delta=2.0))["config"]["name"]
        'huber_loss'
    """
    return serialized(loss, Loss, "keras.losses")


def deserialize(name, custom_objects: dict | None = None):
    """The loss named by ``name`` (a string or :func:`serialize`'s dict).

    Raises:
        ValueError: For an unknown name.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> config = tf.keras.losses.serialize(tf.keras.losses.Huber())
        >>> tf.keras.losses.deserialize(config).name
        'huber_loss'
    """
    return deserialized(name, {**_BY_NAME, **(custom_objects or {})}, "loss")


def get(identifier):
    """A loss from a name (a function, or an instance for a class name), a config dict, a
    ``Loss`` or a function; ``None`` for ``None``.

    Raises:
        ValueError: For anything that is not a loss.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.losses.get("mse").__name__
        'mean_squared_error'
        >>> tf.keras.losses.get("Huber").name
        'huber_loss'
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        found = deserialize(identifier)
    elif isinstance(identifier, str):
        found = _BY_NAME.get(identifier)
    else:
        found = identifier
    if not callable(found):
        raise ValueError(f"Could not interpret loss identifier: {identifier}")
    return found() if inspect.isclass(found) else found
