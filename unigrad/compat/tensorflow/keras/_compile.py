"""What ``Model.compile`` keeps: the loss and the metrics, resolved at the first batch.

Strings are resolved as Keras does once the label and output shapes are known
(``"accuracy"`` becomes the binary, sparse or categorical accuracy that fits).
A model with several outputs (a list, tuple or dict of them) gets one loss per
output (the same one, a list, or a dict by output name), reported as
``<output>_loss`` besides the weighted total, and metrics named
``<output>_<metric>``.
"""

from __future__ import annotations

import unigrad as ug

from .._tensor import as_tf
from . import losses as losses_module
from . import metrics as metrics_module
from ._data_adapter import flatten
from .backend import to_snake_case
from .losses import LossFunctionWrapper

__all__ = ["CompileLoss", "CompileMetrics", "resolve_loss", "resolve_metric", "output_names_of"]


def _object_name(item) -> str:
    """Keras' ``get_object_name``: a ``name`` attribute, else the snake-case function or class
    name."""
    if hasattr(item, "name"):
        return item.name
    if hasattr(item, "__name__"):
        return to_snake_case(item.__name__)
    return to_snake_case(type(item).__name__)


def _is_binary_or_sparse(y_true, y_pred) -> tuple[bool, bool]:
    """Whether the output has one unit (binary) and whether the labels are class indices."""
    true_shape, pred_shape = tuple(y_true.shape), tuple(y_pred.shape)
    binary = pred_shape[-1] == 1
    sparse = len(true_shape) < len(pred_shape) or (true_shape[-1] == 1 and pred_shape[-1] > 1)
    return binary, sparse


def resolve_metric(identifier, y_true, y_pred):
    """The metric object for a ``compile`` entry: ``"accuracy"``/``"acc"`` become the binary,
    sparse or categorical accuracy that fits the shapes; other names are looked up; plain
    functions are wrapped. It is named as given (a string) or by its own name.

    Example:
        >>> import numpy as np
        >>> labels, scores = np.zeros((2, 1)), np.full((2, 3), 0.5)
        >>> resolve_metric("acc", labels, scores)
        <SparseCategoricalAccuracy name=acc>
    """
    if identifier is None:
        raise ValueError("Expected metric, received `None`")
    if str(identifier).lower() in ("accuracy", "acc"):
        binary, sparse = _is_binary_or_sparse(y_true, y_pred)
        cls = (metrics_module.BinaryAccuracy if binary else
               metrics_module.SparseCategoricalAccuracy if sparse else
               metrics_module.CategoricalAccuracy)
        metric = cls(name=str(identifier))
    else:
        metric = metrics_module.get(identifier)
    name = identifier if isinstance(identifier, str) else _object_name(metric)
    if not isinstance(metric, metrics_module.Metric):
        metric = metrics_module.MeanMetricWrapper(metric)
    metric.name = name
    return metric


def resolve_loss(identifier, y_true, y_pred):
    """The ``Loss`` object for ``compile(loss=...)``: ``"crossentropy"``/``"ce"`` pick the
    binary, sparse or categorical cross-entropy; functions are wrapped, named as given.

    Example:
        >>> import numpy as np
        >>> resolve_loss("ce", np.zeros((2, 1)), np.full((2, 1), 0.5)).fn.__name__
        'binary_crossentropy'
    """
    if str(identifier).lower() in ("crossentropy", "ce"):
        binary, sparse = _is_binary_or_sparse(y_true, y_pred)
        loss = (losses_module.binary_crossentropy if binary else
                losses_module.sparse_categorical_crossentropy if sparse else
                losses_module.categorical_crossentropy)
    else:
        loss = losses_module.get(identifier)
    if isinstance(loss, losses_module.Loss):
        return loss
    name = identifier if isinstance(identifier, str) else _object_name(loss)
    return LossFunctionWrapper(loss, name=name)


def output_names_of(model) -> list | None:
    """The names of a functional model's outputs (the layers that make them), else None.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> inputs = tf.keras.Input(shape=(2,))
        >>> model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, name="score")(inputs))
        >>> output_names_of(model)
        ['score']
    """
    names = getattr(model, "output_names", None)
    if names:
        return list(names)
    histories = [getattr(tensor, "_keras_history", None)
                 for tensor in getattr(model, "outputs", None) or []]
    if histories and all(histories):
        return [history[0].name for history in histories]
    return None


def _is_structure(value) -> bool:
    return isinstance(value, (list, tuple, dict))


def _outputs(y_pred, names: list | None) -> tuple[list, list | None]:
    """The model's outputs as a list, with their names (dict outputs by key)."""
    if isinstance(y_pred, dict):
        keys = names if names and set(names) == set(y_pred) else sorted(y_pred)
        return [y_pred[key] for key in keys], keys
    if isinstance(y_pred, (list, tuple)):
        return list(y_pred), names if names and len(names) == len(y_pred) else None
    return [y_pred], names if names and len(names) == 1 else None


def _per_output(value, count: int, names: list | None, argument: str) -> list:
    """A compile argument or a batch's labels/weights, one entry per output: a single value
    for every output, a list in output order, or a dict by output name."""
    if not _is_structure(value):
        return [value] * count
    if isinstance(value, dict):
        if names is None or not set(value) <= set(names):
            raise ValueError(f"Expected keys {names} in {argument}, but found "
                             f"{argument}.keys()={list(value)}")
        return [value.get(name) for name in names]
    if len(value) != count:
        raise ValueError(f"`{argument}` must have one entry per model output: the model has "
                         f"{count} outputs, got {len(value)} entries")
    return list(value)


class CompileLoss:
    """The ``compile`` loss: one resolved loss per output, scaled by ``loss_weights`` and
    summed; with several losses, each output's unweighted loss is also tracked as
    ``<name>_loss`` (a ``Mean`` over the batches, weighted by their sizes).

    Example:
        >>> import numpy as np
        >>> loss = CompileLoss(["mse", "mae"], loss_weights=[1.0, 0.5], output_names=["a", "b"])
        >>> float(loss([np.zeros((2, 1)), np.zeros((2, 1))],
        ...            [np.ones((2, 1)), np.ones((2, 1))]))
        1.5
        >>> [metric.name for metric in loss.metrics]
        ['a_loss', 'b_loss']
    """

    def __init__(self, loss, loss_weights=None, output_names: list | None = None):
        if loss_weights and not isinstance(loss_weights, (list, tuple, dict, float)):
            raise ValueError("Expected `loss_weights` argument to be a float (single output "
                             "case) or a list, tuple, or dict (multiple output case). Received "
                             f"instead: loss_weights={loss_weights} of type "
                             f"{type(loss_weights)}")
        self._user_loss = loss
        self._user_loss_weights = loss_weights
        self._output_names = output_names
        self._names: list | None = None
        self._losses: list = []
        self.metrics: list = []

    def _build(self, y_true: list, y_pred: list) -> None:
        count = len(y_pred)
        user = self._user_loss
        if count == 1 and isinstance(user, (list, tuple, dict)):
            user = flatten(user)[0]
        losses = _per_output(user, count, self._names, "loss")
        weights = _per_output(self._user_loss_weights, count, self._names, "loss_weights")
        self._losses = [None if loss is None else
                        (resolve_loss(loss, truth, prediction), weight)
                        for loss, weight, truth, prediction in zip(losses, weights, y_true,
                                                                   y_pred)]
        resolved = [entry for entry in self._losses if entry is not None]
        if len(resolved) > 1:
            names = self._names or [entry[0].name if entry else None for entry in self._losses]
            self.metrics = [metrics_module.Mean(name=f"{name}_loss")
                            for name, entry in zip(names, self._losses) if entry is not None]

    def __call__(self, y_true, y_pred, sample_weight=None):
        y_pred, self._names = _outputs(y_pred, self._output_names)
        y_true = _per_output(y_true, len(y_pred), self._names, "y")
        sample_weights = _per_output(sample_weight, len(y_pred), self._names, "sample_weight")
        if not self._losses:
            self._build(y_true, y_pred)
        trackers = iter(self.metrics)
        total = None
        for entry, truth, prediction, weight in zip(self._losses, y_true, y_pred,
                                                     sample_weights):
            if entry is None:
                continue
            loss, loss_weight = entry
            value = loss(truth, prediction, weight).to(ug.float32)
            tracker = next(trackers, None)
            if tracker is not None:
                tracker.update_state(value.detach(), sample_weight=int(prediction.shape[0]))
            if loss_weight is not None:
                value = value * float(loss_weight)
            total = value if total is None else total + value
        return None if total is None else as_tf(total)


class CompileMetrics(metrics_module.Metric):
    """The metrics given to ``compile`` (and the weighted ones), built at the first batch:
    ``metrics`` lists them, ``result()`` is a dict of their results (a weighted metric named
    like another is reported as ``weighted_<name>``; with several outputs, names are
    prefixed by the output's).

    Example:
        >>> import numpy as np
        >>> metrics = CompileMetrics(["mae"], ["mae"])
        >>> metrics.update_state(np.zeros((2, 1)), np.ones((2, 1)), np.array([1.0, 0.0]))
        >>> {name: float(value) for name, value in metrics.result().items()}
        {'mae': 1.0, 'weighted_mae': 1.0}
    """

    def __init__(self, metrics, weighted_metrics, output_names: list | None = None):
        super().__init__(name="compile_metrics")
        for argument, value in (("metrics", metrics), ("weighted_metrics", weighted_metrics)):
            if value and not isinstance(value, (list, tuple, dict)):
                raise ValueError(f"Expected `{argument}` argument to be a list, tuple, or dict. "
                                 f"Received instead: {argument}={value} of type {type(value)}")
        self._user_metrics = metrics
        self._user_weighted_metrics = weighted_metrics
        self._output_names = output_names
        self._names: list | None = None
        self._plain: list = []  # (output index, prefix, metric)
        self._weighted: list = []
        self.built = False

    @property
    def metrics(self) -> list:
        """The member metrics (empty until built)."""
        return [metric for _, _, metric in self._plain + self._weighted]

    @property
    def variables(self) -> list:
        return [variable for metric in self.metrics for variable in metric.variables]

    def _build_set(self, user, y_true: list, y_pred: list, argument: str) -> list:
        if not user:
            return []
        count = len(y_pred)
        if count == 1:
            per_output = [flatten(user)]
        else:
            per_output = [flatten(entry) if entry is not None else []
                          for entry in _per_output(user, count, self._names, argument)]
        prefixes = self._names if count > 1 and self._names else [None] * count
        return [(index, prefixes[index], resolve_metric(item, y_true[index], y_pred[index]))
                for index, items in enumerate(per_output) for item in items]

    def build(self, y_true: list, y_pred: list) -> None:
        """Resolve the metrics now that the label and output shapes are known."""
        self._plain = self._build_set(self._user_metrics, y_true, y_pred, "metrics")
        self._weighted = self._build_set(self._user_weighted_metrics, y_true, y_pred,
                                         "weighted_metrics")
        self.built = True

    def ensure_built(self, y_true, y_pred) -> tuple[list, list]:
        """Build on the first batch (unknown metric names raise here); returns the labels and
        outputs as lists, one entry per output."""
        y_pred, self._names = _outputs(y_pred, self._output_names)
        y_true = _per_output(y_true, len(y_pred), self._names, "y")
        if not self.built:
            self.build(y_true, y_pred)
        return y_true, y_pred

    def update_state(self, y_true, y_pred, sample_weight=None) -> None:
        y_true, y_pred = self.ensure_built(y_true, y_pred)
        sample_weights = _per_output(sample_weight, len(y_pred), self._names, "sample_weight")
        for index, _, metric in self._plain:
            metric.update_state(y_true[index], y_pred[index])
        for index, _, metric in self._weighted:
            metric.update_state(y_true[index], y_pred[index], sample_weights[index])

    def reset_state(self) -> None:
        for metric in self.metrics:
            metric.reset_state()

    def result(self) -> dict:
        if not self.built:
            raise ValueError("Cannot get result() since the metric has not yet been built.")
        results: dict = {}
        counts: dict = {}
        for _, prefix, metric in self._plain:
            name = f"{prefix}_{metric.name}" if prefix else metric.name
            results[_unique(name, counts)] = metric.result()
        for _, prefix, metric in self._weighted:
            name = f"{prefix}_{metric.name}" if prefix else metric.name
            if name in counts:
                name = f"{prefix}_weighted_{metric.name}" if prefix else \
                    f"weighted_{metric.name}"
            results[_unique(name, counts)] = metric.result()
        return results


def _unique(name: str, counts: dict) -> str:
    """``name``, or ``name_1``, ``name_2``... when already used."""
    if name not in counts:
        counts[name] = 1
        return name
    counts[name] += 1
    return f"{name}_{counts[name] - 1}"
