"""``tf.keras.metrics``: Keras 3's stateful metrics over unigrad's ops.

A metric accumulates over batches: ``update_state(y_true, y_pred,
sample_weight=None)`` adds a batch to its variables, ``result()`` reads the
value so far, ``reset_state()`` zeroes it; calling it does both an update
and a read. Most metrics are running (weighted) means of a per-sample
function (``MeanMetricWrapper``); the accuracy and loss functions are the
ones of :mod:`..losses` and the functions below.

Example:
    >>> import numpy as np
    >>> import unigrad.compat.tensorflow as tf
    >>> accuracy = tf.keras.metrics.BinaryAccuracy()
    >>> accuracy.update_state(np.array([[1], [0]]), np.array([[0.7], [0.6]]))
    >>> accuracy.result()
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    >>> accuracy.update_state(np.array([[1]]), np.array([[0.9]]))
    >>> float(accuracy.result())
    0.6666666865348816
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable

import numpy as np

import unigrad as ug

from .._tensor import _dtype, as_tf
from ._registry import deserialized, serialized
from .backend import to_snake_case
from .layers.base import KerasVariable
from .losses import _FUNCTIONS as _loss_functions
from .losses import (
    EPSILON,
    as_tensor,
    auto_name,
    binary_crossentropy,
    binary_focal_crossentropy,
    categorical_crossentropy,
    categorical_focal_crossentropy,
    categorical_hinge,
    cosine_similarity,
    divide_no_nan,
    hinge,
    huber,
    kl_divergence,
    log_cosh,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
    poisson,
    sparse_categorical_crossentropy,
    squared_hinge,
    squeeze_or_expand_to_same_rank,
)

_LOSS_FUNCTIONS = frozenset(_loss_functions)

__all__ = ["Metric", "Mean", "Sum", "MeanMetricWrapper", "MeanSquaredError",
           "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError",
           "RootMeanSquaredError", "CosineSimilarity", "LogCoshError", "Accuracy",
           "BinaryAccuracy", "CategoricalAccuracy", "SparseCategoricalAccuracy",
           "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy", "Hinge", "SquaredHinge",
           "CategoricalHinge", "KLDivergence", "Poisson", "BinaryCrossentropy",
           "CategoricalCrossentropy", "SparseCategoricalCrossentropy", "TruePositives",
           "TrueNegatives", "FalsePositives", "FalseNegatives", "Precision", "Recall", "AUC",
           "FBetaScore", "F1Score", "R2Score", "SensitivityAtSpecificity",
           "SpecificityAtSensitivity", "PrecisionAtRecall", "RecallAtPrecision",
           "PearsonCorrelation", "ConcordanceCorrelation", "pearson_correlation",
           "concordance_correlation", "IoU", "BinaryIoU", "MeanIoU", "OneHotIoU",
           "OneHotMeanIoU",
           "binary_accuracy", "categorical_accuracy", "sparse_categorical_accuracy",
           "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy",
           "binary_crossentropy", "categorical_crossentropy", "sparse_categorical_crossentropy",
           "binary_focal_crossentropy", "categorical_focal_crossentropy",
           "hinge", "squared_hinge", "categorical_hinge", "huber", "poisson", "kld", "KLD",
           "kullback_leibler_divergence", "logcosh", "mse", "MSE", "mae", "MAE", "mape", "MAPE",
           "msle", "MSLE", "get", "serialize", "deserialize"]


# ------------------------------------------------------------------------ base classes

class Metric:
    """Base class of the Keras metrics: subclasses make their state with
    :meth:`add_variable` and define ``update_state`` and ``result``.

    ``Metric(dtype=None, name=None)``; ``variables`` lists the state,
    ``reset_state()`` zeroes it, ``metric(*args)`` updates and returns
    ``result()``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> class Count(tf.keras.metrics.Metric):
        ...     def __init__(self, name="count"):
        ...         super().__init__(name=name)
        ...         self.count = self.add_variable((), "zeros", name="count")
        ...     def update_state(self, values):
        ...         self.count.assign_add(float(tf.size(values)))
        ...     def result(self):
        ...         return tf.identity(self.count)
        >>> counter = Count()
        >>> counter([1, 2, 3]).numpy(), counter
        (np.float32(3.0), <Count name=count>)
    """

    def __init__(self, dtype=None, name: str | None = None):
        self.name = name or auto_name(type(self).__name__)
        self._dtype = _dtype(dtype or "float32", "dtype").name
        self._variables: list = []

    @property
    def dtype(self) -> str:
        """The dtype of the metric's state and result, ``"float32"`` by default."""
        return self._dtype

    @property
    def variables(self) -> list:
        """The metric's state variables (non-trainable)."""
        return list(self._variables)

    def add_variable(self, shape, initializer, dtype=None, aggregation: str = "sum",
                     name: str | None = None) -> KerasVariable:
        """A new non-trainable state variable of ``shape``, zeros (or ``initializer``, a
        callable of the shape, or ``"zeros"``/``"ones"``); its path is ``<metric>/<name>``."""
        shape = tuple(shape)
        dtype = np.dtype(dtype or self.dtype)
        if callable(initializer):
            value = np.asarray(initializer(shape), dtype)
        else:
            value = np.full(shape, 1 if initializer == "ones" else 0, dtype)
        name = name or "variable"
        variable = KerasVariable(value, name=name, path=f"{self.name.replace('/', '>')}/{name}",
                                 trainable=False)
        self._variables.append(variable)
        return variable

    def add_weight(self, shape=(), initializer=None, dtype=None, name: str | None = None):
        """:meth:`add_variable` with Keras' older name."""
        return self.add_variable(shape, initializer, dtype=dtype, name=name)

    def reset_state(self) -> None:
        """Zero every state variable."""
        for variable in self._variables:
            variable.assign(np.zeros(tuple(variable.shape), variable.numpy().dtype))

    def update_state(self, *args, **kwargs) -> None:
        """Accumulate a batch (subclasses define it)."""
        raise NotImplementedError(f"{type(self).__name__} must define `update_state`")

    def result(self):
        """The value so far (subclasses define it)."""
        raise NotImplementedError(f"{type(self).__name__} must define `result`")

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self) -> dict:
        """``{"name": ..., "dtype": ...}`` and the metric's own arguments."""
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config: dict):
        """A metric built from :meth:`get_config`'s dict."""
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"

    __str__ = __repr__


def _reduce_to_samplewise_values(values, sample_weight, reduce: Callable, dtype: str):
    """Keras' per-sample reduction: values reduced beyond the weights' rank, weighted, then
    reduced to one value per sample; returns the values and the per-sample weights."""
    values = as_tensor(values, dtype)
    if sample_weight is not None:
        sample_weight = as_tensor(sample_weight, dtype)
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        weight_rank, values_rank = len(sample_weight.shape), len(values.shape)
        if values_rank > weight_rank:
            values = reduce(values, dim=tuple(range(weight_rank, values_rank)))
        sample_weight = ug.broadcast_to(sample_weight, tuple(values.shape))
        values = values * sample_weight
        if weight_rank > 1:
            sample_weight = reduce(sample_weight, dim=tuple(range(1, weight_rank)))
    if len(values.shape) > 1:
        values = reduce(values, dim=tuple(range(1, len(values.shape))))
    return values, sample_weight


class Sum(Metric):
    """``Sum(name="sum", dtype=None)``: the running (weighted) sum of the values.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> total = tf.keras.metrics.Sum()
        >>> total.update_state([1.0, 3.0, 5.0], sample_weight=[1.0, 0.0, 1.0])
        >>> total.result().numpy()
        np.float32(6.0)
    """

    def __init__(self, name: str = "sum", dtype=None):
        super().__init__(dtype=dtype, name=name)
        self.total = self.add_variable((), "zeros", name="total")

    def update_state(self, values, sample_weight=None) -> None:
        values, _ = _reduce_to_samplewise_values(values, sample_weight, ug.sum, self.dtype)
        self.total.assign_add(as_tf(ug.sum(values.detach())))

    def result(self):
        return as_tf(ug.clone(self.total.detach()))


class Mean(Metric):
    """``Mean(name="mean", dtype=None)``: the running (weighted) mean of the values; a value
    of rank > 1 counts as one sample per row.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> mean = tf.keras.metrics.Mean()
        >>> mean.update_state([1.0, 3.0, 5.0, 7.0], sample_weight=[1.0, 1.0, 0.0, 0.0])
        >>> mean.result().numpy()
        np.float32(2.0)
    """

    def __init__(self, name: str = "mean", dtype=None):
        super().__init__(dtype=dtype, name=name)
        self.total = self.add_variable((), "zeros", name="total")
        self.count = self.add_variable((), "zeros", name="count")

    def update_state(self, values, sample_weight=None) -> None:
        values, sample_weight = _reduce_to_samplewise_values(values, sample_weight, ug.mean,
                                                             self.dtype)
        self.total.assign_add(as_tf(ug.sum(values.detach())))
        if sample_weight is not None:
            count = as_tf(ug.sum(sample_weight.detach()))
        else:
            count = as_tensor(float(values.shape[0]) if len(values.shape) else 1.0, self.dtype)
        self.count.assign_add(count)

    def result(self):
        return divide_no_nan(self.total.detach(), self.count.detach())


class MeanMetricWrapper(Mean):
    """``MeanMetricWrapper(fn, name=None, dtype=None, **kwargs)``: the running mean of
    ``fn(y_true, y_pred, **kwargs)``, weighted by ``sample_weight``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> metric = tf.keras.metrics.MeanMetricWrapper(tf.keras.losses.huber, delta=0.5)
        >>> metric.update_state([[0.0, 0.0]], [[0.25, 2.0]])
        >>> metric.result().numpy()
        np.float32(0.453125)
    """

    def __init__(self, fn: Callable, name: str | None = None, dtype=None, **kwargs):
        super().__init__(name=name or auto_name(type(self).__name__), dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs
        if fn in _LOSS_FUNCTIONS:  # lower is better (what EarlyStopping's mode="auto" reads)
            self._direction = "down"

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        super().update_state(values, sample_weight=sample_weight)

    def get_config(self) -> dict:
        return {**super().get_config(), "fn": getattr(self._fn, "__name__", self._fn),
                **self._fn_kwargs}


def _wrapper_class(class_name: str, fn: Callable, default_name: str, options: dict | None = None,
                   leading: tuple = (), config_keys: tuple | None = None) -> type:
    """A ``MeanMetricWrapper`` subclass of ``fn`` whose constructor takes the ``leading``
    options, ``name``, ``dtype`` and the other ``options`` (name: default), in that order;
    ``config_keys`` (all options by default) go into ``get_config``."""
    options = options or {}
    config_keys = tuple(options) if config_keys is None else config_keys
    keyword = inspect.Parameter.POSITIONAL_OR_KEYWORD
    base = [inspect.Parameter("name", keyword, default=default_name),
            inspect.Parameter("dtype", keyword, default=None)]
    first, last = ([inspect.Parameter(key, keyword, default=value)
                    for key, value in options.items() if (key in leading) is wanted]
                   for wanted in (True, False))
    parameters = first + base + last
    signature = inspect.Signature([inspect.Parameter("self", keyword), *parameters])

    def __init__(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self")
        name, dtype = arguments.pop("name"), arguments.pop("dtype")
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **arguments)
        for key, value in arguments.items():
            setattr(self, key, value)
        if fn not in _LOSS_FUNCTIONS:  # the accuracies and the cosine similarity
            self._direction = "up"

    def get_config(self) -> dict:
        return {**Metric.get_config(self), **{key: getattr(self, key) for key in config_keys}}

    __init__.__signature__ = signature
    return type(class_name, (MeanMetricWrapper,), {
        "__init__": __init__, "get_config": get_config, "__module__": __name__,
        "__doc__": f"``{class_name}{str(signature).replace('self, ', '')}``: the running mean "
                   f"of :func:`{fn.__name__}`.\n\n    Example:\n"
                   f"        >>> import unigrad.compat.tensorflow as tf\n"
                   f"        >>> tf.keras.metrics.{class_name}()\n"
                   f"        <{class_name} name={default_name}>\n"})


# ------------------------------------------------------------------ accuracy functions

def _float(tensor):
    return as_tf(tensor.to(ug.float32))


def accuracy(y_true, y_pred):
    """1.0 where ``y_true == y_pred``, else 0.0 (ranks matched).

    Example:
        >>> accuracy([1, 2, 3], [1, 0, 3]).numpy()
        array([1., 0., 1.], dtype=float32)
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return _float(y_true == y_pred)


def binary_accuracy(y_true, y_pred, threshold: float = 0.5):
    """1.0 where ``(y_pred > threshold) == y_true``, else 0.0.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.binary_accuracy([[1.0], [0.0]], [[0.7], [0.6]]).numpy()
        array([[1.],
               [0.]], dtype=float32)
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    predicted = (y_pred > float(threshold)).to(y_true.dtype)
    return _float(y_true == predicted)


def _argmax(x):
    return ug.argmax(x, dim=-1)


def categorical_accuracy(y_true, y_pred):
    """1.0 where the arg-max of one-hot ``y_true`` is that of ``y_pred``, else 0.0.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.categorical_accuracy([[0, 0, 1], [0, 1, 0]],
        ...                                       [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]).numpy()
        array([0., 1.], dtype=float32)
    """
    labels = _argmax(as_tensor(y_true))
    return sparse_categorical_accuracy(labels, y_pred)


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where the integer label ``y_true`` is the arg-max of ``y_pred``, else 0.0.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.sparse_categorical_accuracy([[2], [1]],
        ...                                              [[0.1, 0.6, 0.3], [0.05, 0.95, 0]]).numpy()
        array([0., 1.], dtype=float32)
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    original_shape = tuple(y_true.shape)
    reshape_matches = len(y_true.shape) == len(y_pred.shape) and y_true.shape[-1] == 1
    if reshape_matches:
        y_true = y_true.squeeze(-1)
    matches = _float(y_true == _argmax(y_pred).to(y_true.dtype))
    if reshape_matches:
        matches = matches.reshape(original_shape)
    if len(matches.shape) > 1 and matches.shape[-1] == 1:
        matches = matches.squeeze(-1)
    return as_tf(matches)


def _in_top_k(labels, predictions, k: int):
    """Whether each label's prediction is among the ``k`` largest of its row (ties with the
    k-th value count as in, as in ``tf.math.in_top_k``)."""
    labels = labels.to(ug.int64).reshape(-1)
    predictions = predictions.reshape(-1, predictions.shape[-1])
    target = ug.take_along_dim(predictions, labels.unsqueeze(-1), dim=-1)
    return ug.sum((predictions > target).to(ug.int64), dim=-1) < k


def sparse_top_k_categorical_accuracy(y_true, y_pred, k: int = 5,
                                      from_sorted_ids: bool = False):
    """1.0 where the integer label is among the ``k`` highest predictions, else 0.0
    (``from_sorted_ids``: ``y_pred`` holds class ids, best first).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.sparse_top_k_categorical_accuracy(
        ...     [2, 1], [[0.1, 0.6, 0.3], [0.5, 0.2, 0.3]], k=2).numpy()
        array([1., 0.], dtype=float32)
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype if from_sorted_ids else "int32")
    original_shape = tuple(y_true.shape)
    if from_sorted_ids:
        matches = ug.any(y_true.reshape(-1, 1) == y_pred.reshape(-1, y_pred.shape[-1])[:, :k],
                         dim=1)
    else:
        matches = _in_top_k(y_true, y_pred, k)
    return as_tf(_float(matches).reshape(original_shape))


def top_k_categorical_accuracy(y_true, y_pred, k: int = 5):
    """1.0 where the arg-max of one-hot ``y_true`` is among the ``k`` highest predictions.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.top_k_categorical_accuracy(
        ...     [[0, 0, 1], [0, 1, 0]], [[0.1, 0.6, 0.3], [0.5, 0.2, 0.3]], k=2).numpy()
        array([1., 0.], dtype=float32)
    """
    return sparse_top_k_categorical_accuracy(_argmax(as_tensor(y_true)), y_pred, k=k)


# --------------------------------------------------------------------- mean metrics

MeanSquaredError = _wrapper_class("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper_class("MeanAbsoluteError", mean_absolute_error,
                                   "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper_class(
    "MeanAbsolutePercentageError", mean_absolute_percentage_error,
    "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper_class(
    "MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
    "mean_squared_logarithmic_error")
LogCoshError = _wrapper_class("LogCoshError", log_cosh, "logcosh")
Accuracy = _wrapper_class("Accuracy", accuracy, "accuracy")
BinaryAccuracy = _wrapper_class("BinaryAccuracy", binary_accuracy, "binary_accuracy",
                                {"threshold": 0.5})
CategoricalAccuracy = _wrapper_class("CategoricalAccuracy", categorical_accuracy,
                                     "categorical_accuracy")
SparseCategoricalAccuracy = _wrapper_class("SparseCategoricalAccuracy",
                                           sparse_categorical_accuracy,
                                           "sparse_categorical_accuracy")
TopKCategoricalAccuracy = _wrapper_class("TopKCategoricalAccuracy", top_k_categorical_accuracy,
                                         "top_k_categorical_accuracy", {"k": 5},
                                         leading=("k",))
SparseTopKCategoricalAccuracy = _wrapper_class(
    "SparseTopKCategoricalAccuracy", sparse_top_k_categorical_accuracy,
    "sparse_top_k_categorical_accuracy", {"k": 5, "from_sorted_ids": False}, leading=("k",),
    config_keys=("k",))
Hinge = _wrapper_class("Hinge", hinge, "hinge")
SquaredHinge = _wrapper_class("SquaredHinge", squared_hinge, "squared_hinge")
CategoricalHinge = _wrapper_class("CategoricalHinge", categorical_hinge, "categorical_hinge")
KLDivergence = _wrapper_class("KLDivergence", kl_divergence, "kl_divergence")
Poisson = _wrapper_class("Poisson", poisson, "poisson")
BinaryCrossentropy = _wrapper_class("BinaryCrossentropy", binary_crossentropy,
                                    "binary_crossentropy",
                                    {"from_logits": False, "label_smoothing": 0})
CategoricalCrossentropy = _wrapper_class("CategoricalCrossentropy", categorical_crossentropy,
                                         "categorical_crossentropy",
                                         {"from_logits": False, "label_smoothing": 0,
                                          "axis": -1})
SparseCategoricalCrossentropy = _wrapper_class(
    "SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
    "sparse_categorical_crossentropy", {"from_logits": False, "ignore_class": None, "axis": -1})


def _cosine_similarity_metric(y_true, y_pred, axis: int = -1):
    """The cosine similarity (not negated, unlike the loss)."""
    return -cosine_similarity(y_true, y_pred, axis=axis)


CosineSimilarity = _wrapper_class("CosineSimilarity", _cosine_similarity_metric,
                                  "cosine_similarity", {"axis": -1}, config_keys=())


def pearson_correlation(y_true, y_pred, axis: int = -1):
    """The Pearson correlation of ``y_true`` and ``y_pred`` along ``axis`` (population
    standard deviations).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.pearson_correlation([[1.0, 2.0, 3.0]], [[2.0, 4.0, 7.0]]).numpy()
        array([0.99339914], dtype=float32)
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    true_centered = y_true - ug.mean(y_true, dim=axis, keepdim=True)
    pred_centered = y_pred - ug.mean(y_pred, dim=axis, keepdim=True)
    true_centered = true_centered / ug.std(true_centered, dim=axis, keepdim=True, correction=0)
    pred_centered = pred_centered / ug.std(pred_centered, dim=axis, keepdim=True, correction=0)
    return as_tf(ug.mean(true_centered * pred_centered, dim=axis))


def concordance_correlation(y_true, y_pred, axis: int = -1):
    """Lin's concordance correlation along ``axis``, with Keras' covariance term
    ``(y_true - mean(y_pred)) * (y_pred - mean(y_pred))``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.concordance_correlation([[1.0, 2.0, 3.0]],
        ...                                          [[1.0, 2.0, 3.0]]).numpy()
        array([0.99999994], dtype=float32)
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    true_mean = ug.mean(y_true, dim=axis, keepdim=True)
    pred_mean = ug.mean(y_pred, dim=axis, keepdim=True)
    true_variance = ug.var(y_true - true_mean, dim=axis, keepdim=True, correction=0)
    pred_variance = ug.var(y_pred - pred_mean, dim=axis, keepdim=True, correction=0)
    covariance = (y_true - pred_mean) * (y_pred - pred_mean)
    norm = true_variance + pred_variance + ug.square(true_mean - pred_mean)
    return as_tf(ug.mean(2 * covariance / (norm + EPSILON), dim=axis))


PearsonCorrelation = _wrapper_class("PearsonCorrelation", pearson_correlation,
                                    "pearson_correlation", {"axis": -1})
ConcordanceCorrelation = _wrapper_class("ConcordanceCorrelation", concordance_correlation,
                                        "concordance_correlation", {"axis": -1})


class RootMeanSquaredError(Mean):
    """``RootMeanSquaredError(name="root_mean_squared_error", dtype=None)``: the square root
    of the running mean of ``square(y_pred - y_true)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> rmse = tf.keras.metrics.RootMeanSquaredError()
        >>> rmse.update_state([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [3.0, 0.0]])
        >>> rmse.result().numpy()  # sqrt((1 + 9) / 4)
        np.float32(1.5811388)
    """

    def __init__(self, name: str = "root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._direction = "down"

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        y_true = as_tensor(y_true, self.dtype)
        y_pred = as_tensor(y_pred, self.dtype)
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        super().update_state(ug.square(y_pred - y_true), sample_weight=sample_weight)

    def result(self):
        return as_tf(ug.sqrt(super().result()))


# ------------------------------------------------------------------ confusion metrics

def _thresholds(thresholds, default: float) -> list:
    values = [default] if thresholds is None else (
        list(thresholds) if isinstance(thresholds, (list, tuple)) else [thresholds])
    for value in values:
        if not 0 <= value <= 1 and value != default:
            raise ValueError(f"Threshold values must be in [0, 1]. Received: {value}")
    return [float(value) for value in values]


_NEGATIVE_INFINITY = -1e10  # Keras' NEG_INF: what top-k filtering puts in the other places


def _top_k_only(y_pred, k: int):
    """``y_pred`` with all but the ``k`` largest values of each row set to -1e10."""
    indices = ug.topk(y_pred, k, dim=-1)[1]
    mask = ug.zeros_like(y_pred).scatter(-1, indices, ug.ones_like(indices).to(y_pred.dtype))
    return y_pred * mask + _NEGATIVE_INFINITY * (1 - mask)


def _confusion_counts(y_true, y_pred, thresholds, sample_weight=None, top_k=None,
                      class_id=None, multi_label: bool = False, label_weights=None) -> dict:
    """Keras' ``update_confusion_matrix_variables``: the (weighted) true/false
    positive/negative counts at each threshold, a prediction being positive when strictly
    above it (per label as well with ``multi_label``)."""
    y_pred = as_tensor(y_pred, "float32").detach()
    y_true = as_tensor(y_true, "float32").detach()
    y_pred, y_true = squeeze_or_expand_to_same_rank(y_pred, y_true)
    if sample_weight is not None:
        sample_weight = as_tensor(sample_weight, "float32").unsqueeze(-1)
        sample_weight = squeeze_or_expand_to_same_rank(y_true, sample_weight,
                                                       expand_rank_1=False)[1]
    if top_k is not None:
        y_pred = _top_k_only(y_pred, top_k)
    if class_id is not None:
        y_pred, y_true = y_pred[..., class_id:class_id + 1], y_true[..., class_id:class_id + 1]
    weights = ug.ones_like(y_pred)
    if sample_weight is not None:
        weights = weights * ug.broadcast_to(sample_weight, tuple(y_pred.shape))
    if label_weights is not None and not multi_label:
        weights = weights * as_tensor(label_weights, "float32")
    thresholds = as_tensor(np.asarray(thresholds, np.float64), "float32")
    if multi_label:
        shape, thresholds = (1, -1, y_pred.shape[-1]), thresholds.reshape(-1, 1, 1)
    else:
        shape, thresholds = (1, -1), thresholds.reshape(-1, 1)
    labels = (y_true != 0).to(ug.float32).reshape(shape)
    predicted = (y_pred.reshape(shape) > thresholds).to(ug.float32)
    weights = weights.reshape(shape)
    return {"tp": ug.sum(labels * predicted * weights, dim=1),
            "fp": ug.sum((1 - labels) * predicted * weights, dim=1),
            "tn": ug.sum((1 - labels) * (1 - predicted) * weights, dim=1),
            "fn": ug.sum(labels * (1 - predicted) * weights, dim=1)}


class _ConfusionCount(Metric):
    """The running weighted count of one confusion-matrix cell at each threshold."""

    _cell = ""

    def __init__(self, thresholds=None, name: str | None = None, dtype=None):
        super().__init__(dtype=dtype, name=name)
        self.init_thresholds = thresholds
        self.thresholds = _thresholds(thresholds, 0.5)
        self.accumulator = self.add_variable((len(self.thresholds),), "zeros",
                                             name="accumulator")

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        counts = _confusion_counts(y_true, y_pred, self.thresholds, sample_weight)
        self.accumulator.assign_add(as_tf(counts[self._cell]))

    def result(self):
        value = self.accumulator.detach()
        return as_tf(ug.clone(value[0] if len(self.thresholds) == 1 else value))

    def get_config(self) -> dict:
        return {**super().get_config(), "thresholds": self.init_thresholds}


class TruePositives(_ConfusionCount):
    """``TruePositives(thresholds=None, name=None, dtype=None)``: the weighted number of
    positive labels predicted above the threshold (0.5).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.TruePositives()([0, 1, 1, 1], [1, 0, 1, 1]).numpy()
        np.float32(2.0)
    """

    _cell = "tp"


class TrueNegatives(_ConfusionCount):
    """``TrueNegatives(thresholds=None, name=None, dtype=None)``: the weighted number of
    negative labels predicted at or below the threshold (0.5).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.TrueNegatives()([0, 1, 0, 0], [1, 1, 0, 0]).numpy()
        np.float32(2.0)
    """

    _cell = "tn"


class FalsePositives(_ConfusionCount):
    """``FalsePositives(thresholds=None, name=None, dtype=None)``: the weighted number of
    negative labels predicted above the threshold (0.5).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.FalsePositives()([0, 1, 0, 0], [0, 0, 1, 1]).numpy()
        np.float32(2.0)
    """

    _cell = "fp"


class FalseNegatives(_ConfusionCount):
    """``FalseNegatives(thresholds=None, name=None, dtype=None)``: the weighted number of
    positive labels predicted at or below the threshold (0.5).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.FalseNegatives()([0, 1, 1, 1], [0, 1, 0, 0]).numpy()
        np.float32(2.0)
    """

    _cell = "fn"


class _PrecisionRecall(Metric):
    """Precision (``tp / (tp + fp)``) or recall (``tp / (tp + fn)``) at each threshold."""

    _other = ""
    _other_name = ""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name: str | None = None,
                 dtype=None):
        super().__init__(dtype=dtype, name=name)
        self._direction = "up"
        self.init_thresholds = thresholds
        self.top_k = top_k
        self.class_id = class_id
        self.thresholds = _thresholds(thresholds, 0.5 if top_k is None else _NEGATIVE_INFINITY)
        self.true_positives = self.add_variable((len(self.thresholds),), "zeros",
                                                name="true_positives")
        self._other_count = self.add_variable((len(self.thresholds),), "zeros",
                                              name=self._other_name)
        setattr(self, self._other_name, self._other_count)

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        counts = _confusion_counts(y_true, y_pred, self.thresholds, sample_weight,
                                   self.top_k, self.class_id)
        self.true_positives.assign_add(as_tf(counts["tp"]))
        self._other_count.assign_add(as_tf(counts[self._other]))

    def result(self):
        positives = self.true_positives.detach()
        total = positives + self._other_count.detach()
        value = divide_no_nan(positives, total)
        return as_tf(value[0] if len(self.thresholds) == 1 else value)

    def get_config(self) -> dict:
        return {**super().get_config(), "thresholds": self.init_thresholds,
                "top_k": self.top_k, "class_id": self.class_id}


class Precision(_PrecisionRecall):
    """``Precision(thresholds=None, top_k=None, class_id=None, name=None, dtype=None)``:
    ``true_positives / (true_positives + false_positives)``, a prediction counting as
    positive above the threshold (0.5), or among the ``top_k`` of its row.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.Precision()([0, 1, 1, 1], [1, 0, 1, 1]).numpy()
        np.float32(0.6666667)
    """

    _other = "fp"
    _other_name = "false_positives"


class Recall(_PrecisionRecall):
    """``Recall(thresholds=None, top_k=None, class_id=None, name=None, dtype=None)``:
    ``true_positives / (true_positives + false_negatives)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.Recall()([0, 1, 1, 1], [1, 0, 1, 1]).numpy()
        np.float32(0.6666667)
    """

    _other = "fn"
    _other_name = "false_negatives"


class _AtConstraint(Metric):
    """A rate at the best threshold among those where another rate reaches ``value``: the
    confusion counts at ``num_thresholds`` thresholds evenly spread over [0, 1]."""

    _value_name = ""

    def __init__(self, value: float, num_thresholds: int = 200, class_id=None,
                 name: str | None = None, dtype=None):
        if value < 0 or value > 1:
            raise ValueError(f"Argument `{self._value_name}` must be in the range [0, 1]. "
                             f"Received: {self._value_name}={value}")
        if num_thresholds <= 0:
            raise ValueError("Argument `num_thresholds` must be an integer > 0. Received: "
                             f"num_thresholds={num_thresholds}")
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        setattr(self, self._value_name, value)
        self.value = value
        self.num_thresholds = num_thresholds
        self.class_id = class_id
        self.thresholds = [0.5] if num_thresholds == 1 else (
            [0.0] + [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            + [1.0])
        for cell in ("true_positives", "false_positives", "true_negatives", "false_negatives"):
            setattr(self, cell, self.add_variable((len(self.thresholds),), "zeros", name=cell))

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        counts = _confusion_counts(y_true, y_pred, self.thresholds, sample_weight,
                                   class_id=self.class_id)
        for cell, key in (("true_positives", "tp"), ("false_positives", "fp"),
                          ("true_negatives", "tn"), ("false_negatives", "fn")):
            getattr(self, cell).assign_add(as_tf(counts[key]))

    def _rates(self) -> dict:
        tp, fp = self.true_positives.detach(), self.false_positives.detach()
        tn, fn = self.true_negatives.detach(), self.false_negatives.detach()
        return {"sensitivity": divide_no_nan(tp, tp + fn),
                "specificity": divide_no_nan(tn, tn + fp),
                "precision": divide_no_nan(tp, tp + fp)}

    def _best(self, constrained, dependent):
        feasible = ug.where(constrained >= self.value, dependent, ug.zeros_like(dependent))
        return as_tf(ug.clamp(ug.amax(feasible), min=0.0))

    def get_config(self) -> dict:
        return {**super().get_config(), "class_id": self.class_id,
                "num_thresholds": self.num_thresholds, self._value_name: self.value}


class SensitivityAtSpecificity(_AtConstraint):
    """``SensitivityAtSpecificity(specificity, num_thresholds=200, class_id=None, name=None,
    dtype=None)``: the best recall among the thresholds whose specificity is at least
    ``specificity``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> metric = tf.keras.metrics.SensitivityAtSpecificity(0.5)
        >>> metric([0, 0, 0, 1, 1], [0.0, 0.3, 0.8, 0.3, 0.8]).numpy()
        np.float32(0.5)
    """

    _value_name = "specificity"

    def __init__(self, specificity: float, num_thresholds: int = 200, class_id=None,
                 name: str | None = None, dtype=None):
        super().__init__(specificity, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best(rates["specificity"], rates["sensitivity"])


class SpecificityAtSensitivity(_AtConstraint):
    """``SpecificityAtSensitivity(sensitivity, num_thresholds=200, class_id=None, name=None,
    dtype=None)``: the best specificity among the thresholds whose recall is at least
    ``sensitivity``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> metric = tf.keras.metrics.SpecificityAtSensitivity(0.5)
        >>> float(metric([0, 0, 0, 1, 1], [0.0, 0.3, 0.8, 0.3, 0.8]))
        0.6666666865348816
    """

    _value_name = "sensitivity"

    def __init__(self, sensitivity: float, num_thresholds: int = 200, class_id=None,
                 name: str | None = None, dtype=None):
        super().__init__(sensitivity, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best(rates["sensitivity"], rates["specificity"])


class PrecisionAtRecall(_AtConstraint):
    """``PrecisionAtRecall(recall, num_thresholds=200, class_id=None, name=None,
    dtype=None)``: the best precision among the thresholds whose recall is at least
    ``recall``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> metric = tf.keras.metrics.PrecisionAtRecall(0.5)
        >>> metric([0, 0, 0, 1, 1], [0.0, 0.3, 0.8, 0.3, 0.8]).numpy()
        np.float32(0.5)
    """

    _value_name = "recall"

    def __init__(self, recall: float, num_thresholds: int = 200, class_id=None,
                 name: str | None = None, dtype=None):
        super().__init__(recall, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best(rates["sensitivity"], rates["precision"])


class RecallAtPrecision(_AtConstraint):
    """``RecallAtPrecision(precision, num_thresholds=200, class_id=None, name=None,
    dtype=None)``: the best recall among the thresholds whose precision is at least
    ``precision``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> metric = tf.keras.metrics.RecallAtPrecision(0.5)
        >>> metric([0, 0, 0, 1, 1], [0.0, 0.3, 0.8, 0.3, 0.8]).numpy()
        np.float32(1.0)
    """

    _value_name = "precision"

    def __init__(self, precision: float, num_thresholds: int = 200, class_id=None,
                 name: str | None = None, dtype=None):
        super().__init__(precision, num_thresholds, class_id, name, dtype)

    def result(self):
        rates = self._rates()
        return self._best(rates["precision"], rates["sensitivity"])


class AUC(Metric):
    """The area under the ROC (or precision-recall, ``curve="PR"``) curve, from confusion
    counts at ``num_thresholds`` thresholds spread over [0, 1].

    ``AUC(num_thresholds=200, curve="ROC", summation_method="interpolation", name=None,
    dtype=None, thresholds=None, multi_label=False, num_labels=None, label_weights=None,
    from_logits=False)``; ``summation_method`` is ``"interpolation"`` (trapezoids, or
    Davis and Goadrich's interpolation for PR), ``"minoring"`` or ``"majoring"``.

    Raises:
        ValueError: For ``num_thresholds <= 1``, an unknown curve or summation method, or
            ``num_labels`` without ``multi_label``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.AUC()([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).numpy()
        np.float32(0.75)
    """

    _CURVES = ("ROC", "PR", "PRGAIN")
    _SUMMATIONS = ("interpolation", "minoring", "majoring")

    def __init__(self, num_thresholds: int = 200, curve: str = "ROC",
                 summation_method: str = "interpolation", name: str | None = None, dtype=None,
                 thresholds=None, multi_label: bool = False, num_labels=None,
                 label_weights=None, from_logits: bool = False):
        self._direction = "up"
        curve, summation_method = self._check_options(curve, summation_method)
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            inner = sorted(thresholds)
        else:
            if num_thresholds <= 1:
                raise ValueError("Argument `num_thresholds` must be an integer > 1. Received: "
                                 f"num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self._thresholds = np.array([0.0 - EPSILON] + inner
                                    + [1.0 + EPSILON])
        self.curve, self.summation_method = curve, summation_method
        super().__init__(name=name, dtype=dtype)
        self.multi_label = multi_label
        self.num_labels = num_labels
        self.label_weights = (None if label_weights is None
                              else as_tensor(np.asarray(label_weights), self.dtype))
        self._from_logits = from_logits
        self._built = False
        if num_labels and not multi_label:
            raise ValueError("`num_labels` is needed only when `multi_label` is True.")
        if not multi_label or num_labels:
            self._build((None, num_labels) if multi_label else None)

    def _check_options(self, curve: str, summation_method: str) -> tuple[str, str]:
        if curve not in self._CURVES and curve not in [name.lower() for name in self._CURVES]:
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are '
                             '["PR", "ROC", "PRGAIN"]')
        if summation_method not in self._SUMMATIONS and summation_method not in [
                name.capitalize() for name in self._SUMMATIONS]:
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". '
                             'Expected values are ["interpolation", "majoring", "minoring"]')
        return curve.upper(), summation_method.lower()

    @property
    def thresholds(self) -> list:
        """The thresholds, from just below 0 to just above 1."""
        return list(self._thresholds)

    def _build(self, shape) -> None:
        if self.multi_label:
            if len(shape) != 2:
                raise ValueError("`y_pred` must have rank 2 when `multi_label=True`. Found rank "
                                 f"{len(shape)}. Full shape received for `y_pred`: {shape}")
            self._num_labels = shape[1]
            variable_shape: tuple = (self.num_thresholds, self._num_labels)
        else:
            variable_shape = (self.num_thresholds,)
        for cell in ("true_positives", "false_positives", "true_negatives", "false_negatives"):
            setattr(self, cell, self.add_variable(variable_shape, "zeros", name=cell))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        y_pred = as_tensor(y_pred)
        if not self._built:
            self._build(tuple(y_pred.shape))
        if self._from_logits:
            y_pred = ug.sigmoid(y_pred)
        counts = _confusion_counts(y_true, y_pred, self._thresholds, sample_weight,
                                   multi_label=self.multi_label,
                                   label_weights=None if self.multi_label
                                   else self.label_weights)
        for cell, key in (("true_positives", "tp"), ("false_positives", "fp"),
                          ("true_negatives", "tn"), ("false_negatives", "fn")):
            getattr(self, cell).assign_add(as_tf(counts[key]))

    def _by_label(self, values):
        if not self.multi_label:
            return as_tf(ug.sum(values))
        by_label = ug.sum(values, dim=0)
        if self.label_weights is None:
            return as_tf(ug.mean(by_label))
        return divide_no_nan(ug.sum(by_label * self.label_weights), ug.sum(self.label_weights))

    def _interpolated_pr_auc(self):
        positives = self.true_positives.detach()
        predicted = positives + self.false_positives.detach()
        positive_steps = positives[:-1] - positives[1:]
        predicted_steps = predicted[:-1] - predicted[1:]
        slope = divide_no_nan(positive_steps, ug.clamp(predicted_steps, min=0))
        intercept = positives[1:] - slope * predicted[1:]
        both = (predicted[:-1] > 0) & (predicted[1:] > 0)
        ratio = ug.where(both, divide_no_nan(predicted[:-1], ug.clamp(predicted[1:], min=0)),
                         ug.ones_like(predicted[1:]))
        increments = divide_no_nan(slope * (positive_steps + intercept * ug.log(ratio)),
                                   ug.clamp(positives[1:] + self.false_negatives.detach()[1:],
                                            min=0))
        return self._by_label(increments)

    def result(self):
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolated_pr_auc()
        tp, fp = self.true_positives.detach(), self.false_positives.detach()
        tn, fn = self.true_negatives.detach(), self.false_negatives.detach()
        recall = divide_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = divide_no_nan(fp, fp + tn), recall
        elif self.curve == "PR":
            x, y = recall, divide_no_nan(tp, tp + fp)
        else:
            scale = divide_no_nan(tp + fn, tn + fp)
            recall_gain = ug.where(tp == 0, ug.zeros_like(tp),
                                   1.0 - scale * divide_no_nan(fn, tp))
            precision_gain = ug.where(tp == 0, ug.ones_like(tp),
                                      1.0 - scale * divide_no_nan(fp, tp))
            x, y = ug.clamp(recall_gain, min=0.0), precision_gain
        if self.summation_method == "interpolation":
            heights = (y[:-1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = ug.minimum(y[:-1], y[1:])
        else:
            heights = ug.maximum(y[:-1], y[1:])
        return self._by_label((x[:-1] - x[1:]) * heights)

    def reset_state(self) -> None:
        if self._built:
            super().reset_state()

    def get_config(self) -> dict:
        config = {**super().get_config(), "num_thresholds": self.num_thresholds,
                  "curve": self.curve, "summation_method": self.summation_method,
                  "multi_label": self.multi_label, "num_labels": self.num_labels,
                  "label_weights": self.label_weights, "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return config


class FBetaScore(Metric):
    """The F-beta score per class: ``(1 + beta**2) * precision * recall / (beta**2 *
    precision + recall)`` from the counts of predictions above ``threshold`` (or at the
    row's maximum when None); ``average``: None (per class), ``"micro"``, ``"macro"`` or
    ``"weighted"`` (by the classes' true counts).

    ``FBetaScore(average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None)``.

    Raises:
        ValueError: For an unknown ``average``, a ``beta`` that is not a positive float, a
            ``threshold`` outside (0, 1], or inputs that are not 2-D.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> metric = tf.keras.metrics.FBetaScore(beta=2.0, threshold=0.5)
        >>> metric([[1, 1, 0], [0, 1, 1]], [[0.9, 0.2, 0.6], [0.1, 0.7, 0.8]]).numpy()
        array([0.9999999, 0.5555556, 0.8333332], dtype=float32)
    """

    def __init__(self, average=None, beta: float = 1.0, threshold=None,
                 name: str = "fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError("Invalid `average` argument value. Expected one of: {None, "
                             f"'micro', 'macro', 'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError("Invalid `beta` argument value. It should be a Python float. "
                             f"Received: beta={beta} of type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: "
                             f"beta={beta}")
        if threshold is not None and not isinstance(threshold, float):
            raise ValueError("Invalid `threshold` argument value. It should be a Python float. "
                             f"Received: threshold={threshold} of type '{type(threshold)}'")
        if threshold is not None and not 0.0 < threshold <= 1.0:
            raise ValueError("Invalid `threshold` argument value. It should verify 0 < "
                             f"threshold <= 1. Received: threshold={threshold}")
        self.average = average
        self.beta = beta
        self.threshold = threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, true_shape: tuple, pred_shape: tuple) -> None:
        if len(pred_shape) != 2 or len(true_shape) != 2:
            raise ValueError(f"{type(self).__name__} expects 2D inputs with shape (batch_size, "
                             f"output_dim). Received input shapes: y_pred.shape={pred_shape} "
                             f"and y_true.shape={true_shape}.")
        shape = () if self.average == "micro" else (pred_shape[-1],)
        for cell in ("true_positives", "false_positives", "false_negatives",
                     "intermediate_weights"):
            setattr(self, cell, self.add_variable(shape, "zeros", name=cell))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        y_true = as_tensor(y_true, self.dtype).detach()
        y_pred = as_tensor(y_pred, self.dtype).detach()
        if not self._built:
            self._build(tuple(y_true.shape), tuple(y_pred.shape))
        if self.threshold is None:
            largest = ug.amax(y_pred, dim=-1, keepdim=True)
            predicted = (y_pred >= largest) & (ug.abs(y_pred) > 1e-9)
        else:
            predicted = y_pred > self.threshold
        predicted = predicted.to(y_true.dtype)
        weight = None if sample_weight is None else \
            as_tensor(sample_weight, self.dtype).unsqueeze(1)

        def weighted_sum(values):
            return ug.sum(values if weight is None else values * weight, dim=self.axis)

        self.true_positives.assign_add(as_tf(weighted_sum(predicted * y_true)))
        self.false_positives.assign_add(as_tf(weighted_sum(predicted * (1 - y_true))))
        self.false_negatives.assign_add(as_tf(weighted_sum((1 - predicted) * y_true)))
        self.intermediate_weights.assign_add(as_tf(weighted_sum(y_true)))

    def result(self):
        positives = self.true_positives.detach()
        precision = positives / (positives + self.false_positives.detach() + EPSILON)
        recall = positives / (positives + self.false_negatives.detach() + EPSILON)
        square = self.beta ** 2
        score = precision * recall / (precision * square + recall + EPSILON) * (1 + square)
        if self.average == "weighted":
            weights = self.intermediate_weights.detach()
            return as_tf(ug.sum(score * (weights / (ug.sum(weights) + EPSILON))))
        if self.average is not None:
            return as_tf(ug.mean(score))
        return as_tf(score)

    def reset_state(self) -> None:
        if self._built:
            super().reset_state()

    def get_config(self) -> dict:
        return {**super().get_config(), "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


class F1Score(FBetaScore):
    """``F1Score(average=None, threshold=None, name="f1_score", dtype=None)``: the
    :class:`FBetaScore` with ``beta=1``, the harmonic mean of precision and recall.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> metric = tf.keras.metrics.F1Score(average="macro", threshold=0.5)
        >>> float(metric([[1, 1, 0], [0, 1, 1]], [[0.9, 0.2, 0.6], [0.1, 0.7, 0.8]]))
        0.7777776718139648
    """

    def __init__(self, average=None, threshold=None, name: str = "f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name,
                         dtype=dtype)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["beta"]
        return config


class R2Score(Metric):
    """The coefficient of determination of each output column, ``1 - residual / total``
    sums of squares, averaged (``class_aggregation``: ``"uniform_average"``,
    ``"variance_weighted_average"`` or None for one score per column); ``num_regressors``
    gives the adjusted score.

    ``R2Score(class_aggregation="uniform_average", num_regressors=0, name="r2_score",
    dtype=None)``.

    Raises:
        ValueError: For an unknown ``class_aggregation``, a negative ``num_regressors``, or
            inputs that are not 2-D.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> metric = tf.keras.metrics.R2Score()
        >>> metric([[1.0], [2.0], [3.0]], [[1.0], [2.5], [2.5]]).numpy()
        np.float32(0.75)
    """

    def __init__(self, class_aggregation="uniform_average", num_regressors: int = 0,
                 name: str = "r2_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._direction = "up"
        if class_aggregation not in (None, "uniform_average", "variance_weighted_average"):
            raise ValueError("Invalid value for argument `class_aggregation`. Expected one of "
                             "(None, 'uniform_average', 'variance_weighted_average'). "
                             f"Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError("Invalid value for argument `num_regressors`. Expected a value "
                             f">= 0. Received: num_regressors={num_regressors}")
        self.class_aggregation = class_aggregation
        self.num_regressors = num_regressors
        self.num_samples = self.add_variable((), "zeros", name="num_samples")
        self._built = False

    def _build(self, true_shape: tuple, pred_shape: tuple) -> None:
        if len(pred_shape) != 2 or len(true_shape) != 2:
            raise ValueError("R2Score expects 2D inputs with shape (batch_size, output_dim). "
                             f"Received input shapes: y_pred.shape={pred_shape} and "
                             f"y_true.shape={true_shape}.")
        columns = (pred_shape[-1],)
        for cell, name in (("squared_sum", "squared_sum"), ("sum", "sum"),
                           ("total_mse", "residual"), ("count", "count")):
            setattr(self, cell, self.add_variable(columns, "zeros", name=name))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        y_true = as_tensor(y_true, self.dtype).detach()
        y_pred = as_tensor(y_pred, self.dtype).detach()
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        if not self._built:
            self._build(tuple(y_true.shape), tuple(y_pred.shape))
        weight = as_tensor(1.0 if sample_weight is None else sample_weight, self.dtype)
        if len(weight.shape) == 1:
            weight = weight.unsqueeze(1)
        weight = ug.broadcast_to(weight, tuple(y_true.shape))
        weighted_true = y_true * weight
        self.sum.assign_add(as_tf(ug.sum(weighted_true, dim=0)))
        self.squared_sum.assign_add(as_tf(ug.sum(y_true * weighted_true, dim=0)))
        self.total_mse.assign_add(as_tf(ug.sum((y_true - y_pred) ** 2 * weight, dim=0)))
        self.count.assign_add(as_tf(ug.sum(weight, dim=0)))
        self.num_samples.assign_add(as_tensor(float(np.prod(y_true.shape)), self.dtype))

    def result(self):
        total_sum, count = self.sum.detach(), self.count.detach()
        with np.errstate(divide="ignore", invalid="ignore"):  # no data yet: NaN, as in Keras
            total = self.squared_sum.detach() - total_sum * (total_sum / count)
            raw = 1 - self.total_mse.detach() / total
        raw = ug.where(ug.isinf(raw), ug.zeros_like(raw), raw)
        if self.class_aggregation == "uniform_average":
            score = ug.mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            score = ug.sum(total * raw) / ug.sum(total)
        else:
            score = raw
        return as_tf(self._adjusted(score))

    def _adjusted(self, score):
        samples = float(self.num_samples.numpy())
        if self.num_regressors == 0:
            return score
        if self.num_regressors > samples - 1:
            warnings.warn("More independent predictors than datapoints in adjusted R2 score. "
                          "Falling back to standard R2 score.", stacklevel=3)
            return score
        if self.num_regressors == samples - 1:
            warnings.warn("Division by zero in Adjusted R2 score. Falling back to standard R2 "
                          "score.", stacklevel=3)
            return score
        return 1.0 - (1.0 - score) * (samples - 1.0) / (samples - self.num_regressors - 1.0)

    def get_config(self) -> dict:
        return {**super().get_config(), "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}


class IoU(Metric):
    """The intersection over union of the classes ``target_class_ids``, averaged: from the
    running confusion matrix of integer labels (``sparse_y_true``/``sparse_y_pred`` False:
    the arg-max along ``axis`` of one-hot values). Labels outside ``[0, num_classes)`` and
    ``ignore_class`` are left out. As in Keras, the state is an integer matrix (``dtype``
    int64), so float predictions and weights are truncated.

    ``IoU(num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
    sparse_y_true=True, sparse_y_pred=True, axis=-1)``.

    Raises:
        ValueError: For a target class id outside ``[0, num_classes)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.IoU(3, [0, 2])([0, 1, 2, 2], [0, 2, 2, 1]).numpy()
        np.float32(0.6666666)
    """

    def __init__(self, num_classes: int, target_class_ids, name: str | None = None,
                 dtype=None, ignore_class=None, sparse_y_true: bool = True,
                 sparse_y_pred: bool = True, axis: int = -1):
        super().__init__(name=name, dtype=dtype or "int64")
        self._direction = "up"
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which "
                             f"is [0, {num_classes}).")
        self.num_classes = num_classes
        self.target_class_ids = list(target_class_ids)
        self.ignore_class = ignore_class
        self.sparse_y_true = sparse_y_true
        self.sparse_y_pred = sparse_y_pred
        self.axis = axis
        self.total_cm = self.add_variable((num_classes, num_classes), "zeros",
                                          name="total_confusion_matrix")

    def _classes(self, values, sparse: bool):
        values = as_tensor(values).detach()
        if not sparse:
            values = ug.argmax(values, dim=self.axis)
        return as_tensor(values, self.dtype).reshape(-1)

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        y_true = self._classes(y_true, self.sparse_y_true)
        y_pred = self._classes(y_pred, self.sparse_y_pred)
        if sample_weight is not None and "float" in str(getattr(sample_weight, "dtype", "")) \
                and "int" in self.dtype:
            warnings.warn("You are passing weight as `float`, but dtype is `int`. This may "
                          "result in an incorrect weight due to type casting Consider using "
                          "integer weights.", stacklevel=2)
        weights = as_tensor(1 if sample_weight is None else sample_weight, self.dtype)
        weights = ug.broadcast_to(weights.reshape(-1) if len(weights.shape) > 1 else weights,
                                  tuple(y_true.shape))
        valid = (y_true >= 0) & (y_true < self.num_classes) & (y_pred >= 0) & \
            (y_pred < self.num_classes)
        if self.ignore_class is not None:
            valid = valid & (y_true != self.ignore_class)
        cells = ug.where(valid, y_true, ug.zeros_like(y_true)) * self.num_classes + \
            ug.where(valid, y_pred, ug.zeros_like(y_pred))
        counts = ug.bincount(cells, weights=ug.where(valid, weights, ug.zeros_like(weights)),
                             minlength=self.num_classes ** 2)
        counts = counts.to(self.total_cm.dtype).reshape(self.num_classes, self.num_classes)
        self.total_cm.assign_add(as_tf(counts))

    def result(self):
        matrix = self.total_cm.detach().to(ug.float32)
        true_positives = ug.diagonal(matrix)
        denominator = ug.sum(matrix, dim=0) + ug.sum(matrix, dim=1) - true_positives
        targets = ug.tensor(self.target_class_ids)
        true_positives, denominator = true_positives[targets], denominator[targets]
        valid = (denominator > 1e-9).to(ug.float32)
        iou = ug.where(valid > 0, true_positives / (denominator + EPSILON),
                       ug.zeros_like(denominator))
        return as_tf(ug.sum(iou) / (ug.sum(valid) + EPSILON))

    def get_config(self) -> dict:
        return {**super().get_config(), "num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


class BinaryIoU(IoU):
    """``BinaryIoU(target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None)``: the
    :class:`IoU` of binary labels, predictions at or above ``threshold`` counting as 1.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.BinaryIoU()([0, 1, 1, 0], [0.2, 0.6, 0.4, 0.7]).numpy()
        np.float32(0.33333334)
    """

    def __init__(self, target_class_ids=(0, 1), threshold: float = 0.5,
                 name: str | None = None, dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name,
                         dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        predicted = (as_tensor(y_pred, "float32") >= self.threshold).to(ug.int64)
        super().update_state(as_tensor(y_true, self.dtype), as_tf(predicted), sample_weight)

    def get_config(self) -> dict:
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold,
                "name": self.name, "dtype": self.dtype}


class MeanIoU(IoU):
    """``MeanIoU(num_classes, name=None, dtype=None, ignore_class=None, sparse_y_true=True,
    sparse_y_pred=True, axis=-1)``: the :class:`IoU` averaged over every class.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.MeanIoU(2)([0, 0, 1, 1], [0, 1, 0, 1]).numpy()
        np.float32(0.33333334)
    """

    def __init__(self, num_classes: int, name: str | None = None, dtype=None,
                 ignore_class=None, sparse_y_true: bool = True, sparse_y_pred: bool = True,
                 axis: int = -1):
        super().__init__(num_classes, list(range(num_classes)), name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["target_class_ids"]
        return config


class OneHotIoU(IoU):
    """``OneHotIoU(num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
    sparse_y_pred=False, axis=-1)``: the :class:`IoU` of one-hot labels and scores.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.OneHotIoU(2, [1])([[1, 0], [0, 1]], [[0.2, 0.8], [0.3, 0.7]]).numpy()
        np.float32(0.49999994)
    """

    def __init__(self, num_classes: int, target_class_ids, name: str | None = None,
                 dtype=None, ignore_class=None, sparse_y_pred: bool = False, axis: int = -1):
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["sparse_y_true"]
        return config


class OneHotMeanIoU(MeanIoU):
    """``OneHotMeanIoU(num_classes, name=None, dtype=None, ignore_class=None,
    sparse_y_pred=False, axis=-1)``: the :class:`MeanIoU` of one-hot labels and scores.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.OneHotMeanIoU(2)([[1, 0], [0, 1]], [[0.2, 0.8], [0.3, 0.7]]).numpy()
        np.float32(0.25)
    """

    def __init__(self, num_classes: int, name: str | None = None, dtype=None,
                 ignore_class=None, sparse_y_pred: bool = False, axis: int = -1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict:
        config = super().get_config()
        del config["sparse_y_true"]
        return config


# ------------------------------------------------------------------------------ lookup

mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh

_CLASSES = (Metric, Mean, Sum, MeanMetricWrapper, MeanSquaredError, RootMeanSquaredError,
            MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
            CosineSimilarity, LogCoshError, AUC, FBetaScore, F1Score, R2Score, Precision,
            Recall, SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall,
            RecallAtPrecision, PearsonCorrelation, ConcordanceCorrelation, IoU, BinaryIoU,
            MeanIoU, OneHotIoU, OneHotMeanIoU, TruePositives,
            TrueNegatives, FalsePositives, FalseNegatives, Hinge, SquaredHinge, CategoricalHinge,
            KLDivergence, Poisson, BinaryCrossentropy, CategoricalCrossentropy,
            SparseCategoricalCrossentropy, Accuracy, BinaryAccuracy, CategoricalAccuracy,
            SparseCategoricalAccuracy, TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy)
_BY_NAME: dict = {cls.__name__: cls for cls in _CLASSES}
_BY_NAME.update({to_snake_case(cls.__name__): cls for cls in _CLASSES})
_BY_NAME.update({"bce": BinaryCrossentropy, "BCE": BinaryCrossentropy,
                 "mse": MeanSquaredError, "MSE": MeanSquaredError,
                 "mae": MeanAbsoluteError, "MAE": MeanAbsoluteError,
                 "mape": MeanAbsolutePercentageError, "MAPE": MeanAbsolutePercentageError,
                 "msle": MeanSquaredLogarithmicError, "MSLE": MeanSquaredLogarithmicError})


def serialize(metric) -> dict | str:
    """A metric's ``{"class_name", "config"}`` (a function's name for a function).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.serialize(tf.keras.metrics.Mean())["class_name"]
        'Mean'
    """
    return serialized(metric, Metric, "keras.metrics")


def deserialize(config, custom_objects: dict | None = None):
    """The metric of :func:`serialize`'s dict (or the class or function of a name).

    Raises:
        ValueError: For an unknown name.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.deserialize({"class_name": "Mean", "config": {"name": "m"}}).name
        'm'
    """
    return deserialized(config, {**_BY_NAME, **(custom_objects or {})}, "metric")


def get(identifier):
    """A metric from a name (an instance of the named class), a config dict, a ``Metric`` or
    a function; ``None`` for ``None``.

    Raises:
        ValueError: For anything that is not a metric.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.metrics.get("mse")
        <MeanSquaredError name=mean_squared_error>
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
        raise ValueError(f"Could not interpret metric identifier: {identifier}")
    return found() if inspect.isclass(found) else found

