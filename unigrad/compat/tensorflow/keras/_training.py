"""Keras' training loop: the mixin ``Trainer`` that ``Model`` inherits.

``compile`` picks the optimizer, loss and metrics; ``fit`` runs the train step
(``GradientTape`` over the compiled loss plus ``sum(model.losses)``, then
``optimizer.apply_gradients``) over the batches of each epoch, with callbacks
and optional validation; ``evaluate``, ``predict`` and the ``*_on_batch``
methods run single passes. The logs are Keras' names (``"loss"``, the metric
names, ``"val_..."``) with Python float values; the reported loss is the mean
over the epoch's batches weighted by their sizes.

The model provides ``__call__(x, training=...)``, ``trainable_variables``,
``losses``, ``name`` and, for some callbacks, ``get_weights``/``set_weights``
and ``save_weights``.
"""

from __future__ import annotations

import warnings

import numpy as np

import unigrad as ug

from .._tensor import Tensor, as_tf
from .._transforms import GradientTape
from . import metrics as metrics_module
from . import optimizers as optimizers_module
from ._compile import CompileLoss, CompileMetrics, output_names_of
from ._data_adapter import (
    EpochIterator,
    class_weight_to_sample_weights,
    flatten,
    map_structure,
    train_validation_split,
    unpack_x_y_sample_weight,
)
from .callbacks import CallbackList, History, pythonify_logs

__all__ = ["Trainer"]

_OPTIMIZERS = {spelling: getattr(optimizers_module, name)
               for name in ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax",
                            "Nadam", "Ftrl")
               for spelling in (name, name.lower())}


def get_optimizer(identifier):
    """An optimizer from a class name, as written or in lower case (``"rmsprop"``, ``"Adam"``;
    Keras' defaults), or an optimizer instance.

    Raises:
        ValueError: For anything else.

    Example:
        >>> get_optimizer("rmsprop").learning_rate
        <tf.Variable 'learning_rate:0' shape=() dtype=float32, numpy=0.001>
    """
    if isinstance(identifier, optimizers_module.Optimizer):
        return identifier
    if isinstance(identifier, str) and identifier in _OPTIMIZERS:
        return _OPTIMIZERS[identifier]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


def _batch_size(x) -> int:
    return int(next(leaf for leaf in flatten(x) if leaf is not None).shape[0])


class Trainer:
    """``compile``/``fit``/``evaluate``/``predict`` of Keras models (a mixin of ``Model``).

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.tensorflow as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        >>> history = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0)
        >>> sorted(history.history), len(history.history["loss"])
        (['loss'], 2)
    """

    compiled = False
    optimizer = None
    loss = None
    stop_training = False
    _compile_loss = None
    _compile_metrics = None
    _loss_tracker = None
    steps_per_execution = 1

    # ------------------------------------------------------------------ compile
    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None,
                weighted_metrics=None, run_eagerly: bool = False, steps_per_execution: int = 1,
                jit_compile="auto", auto_scale_loss: bool = True) -> None:
        """Set the optimizer (an instance or a name such as ``"adam"``), the loss (a ``Loss``,
        a function or a name such as ``"mse"``) and the metrics to report; a loss or metrics
        left out keep those of an earlier ``compile``.

        Raises:
            ValueError: For an unknown optimizer, or metrics that are not a list or dict.
        """
        optimizer = get_optimizer(optimizer)
        names = output_names_of(self)
        compile_loss = CompileLoss(loss, loss_weights, names) if loss is not None else None
        compile_metrics = (CompileMetrics(metrics, weighted_metrics, names)
                           if metrics is not None or weighted_metrics is not None else None)
        self.optimizer = optimizer
        if compile_loss is not None:  # as in Keras, a compile without loss or metrics keeps
            self._compile_loss = compile_loss  # those of the previous one
            self.loss = loss
        if compile_metrics is not None:
            self._compile_metrics = compile_metrics
        self.run_eagerly = run_eagerly
        self.jit_compile = False if jit_compile == "auto" else bool(jit_compile)
        self.steps_per_execution = steps_per_execution
        self.stop_training = False
        self._loss_tracker = metrics_module.Mean(name="loss")
        self.compiled = True

    # ------------------------------------------------------------------ metrics
    @property
    def metrics(self) -> list:
        """The loss tracker and the compiled metrics (one ``compile_metrics`` entry)."""
        if not self.compiled:
            return []
        found = [self._loss_tracker]
        if self._compile_metrics is not None:
            found.append(self._compile_metrics)
        if self._compile_loss is not None:
            found.extend(self._compile_loss.metrics)
        return found

    @property
    def metrics_names(self) -> list:
        """The names of :attr:`metrics`: ``"loss"``, ``"compile_metrics"`` (with metrics), and
        ``"<output>_loss"`` for each output of a model with several losses."""
        return [metric.name for metric in self.metrics]

    @property
    def metrics_variables(self) -> list:
        """The state variables of every metric."""
        return [variable for metric in self.metrics for variable in metric.variables]

    def reset_metrics(self) -> None:
        """Zero every metric's state."""
        for metric in self.metrics:
            metric.reset_state()

    def get_metrics_result(self) -> dict:
        """The current result of every metric, by name (compiled metrics one by one)."""
        results = {}
        for metric in self.metrics:
            if isinstance(metric, CompileMetrics) and not metric.built:
                continue
            value = metric.result()
            results.update(value if isinstance(value, dict) else {metric.name: value})
        return results

    # --------------------------------------------------------------- the steps
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None,
                     training: bool = True):
        """The compiled loss plus the sum of every regularization loss of the model.

        Raises:
            ValueError: When there is no loss at all.
        """
        del x, training
        parts = []
        if self._compile_loss is not None:
            compiled = self._compile_loss(y, y_pred, sample_weight)
            parts.extend([compiled] if compiled is not None else [])
        parts.extend(as_tf(extra.to(ug.float32).sum()) for extra in self.losses)
        if not parts:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        total = parts[0]
        for part in parts[1:]:
            total = total + part
        return as_tf(total)

    def compute_metrics(self, x, y, y_pred, sample_weight=None) -> dict:
        """Update the compiled metrics with a batch; returns :meth:`get_metrics_result`."""
        del x
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def train_step(self, data) -> dict:
        """One optimizer update on a batch ``(x, y, sample_weight)``; returns the logs."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)  # builds the weights of an unbuilt model first
            loss = self.compute_loss(x, y, y_pred, sample_weight, training=True)
        if self._compile_metrics is not None:  # a bad metric raises before any update
            self._compile_metrics.ensure_built(y, y_pred)
        variables = list(self.trainable_variables)
        self._loss_tracker.update_state(loss.detach(), sample_weight=_batch_size(x))
        if variables:
            gradients = tape.gradient(loss, variables)
            self.optimizer.apply_gradients(zip(gradients, variables))
        else:
            warnings.warn("The model does not have any trainable weights.", stacklevel=2)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data) -> dict:
        """The loss and metrics of a batch, without updating; returns the logs."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x, y, y_pred, sample_weight, training=False)
        self._loss_tracker.update_state(loss.detach(), sample_weight=_batch_size(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        """The model's output for a batch."""
        x, _, _ = unpack_x_y_sample_weight(data)
        return self(x, training=False)

    # -------------------------------------------------------------------- loops
    def _check_compiled(self) -> None:
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the model.")

    def _callbacks(self, callbacks, verbose, epochs: int, steps, add_history: bool = False):
        if isinstance(callbacks, CallbackList):
            return callbacks
        return CallbackList(callbacks, add_history=add_history, add_progbar=verbose != 0,
                            verbose=verbose, epochs=epochs, steps=steps, model=self)

    def fit(self, x=None, y=None, batch_size=None, epochs: int = 1, verbose="auto",
            callbacks=None, validation_split: float = 0.0, validation_data=None, shuffle=True,
            class_weight=None, sample_weight=None, initial_epoch: int = 0,
            steps_per_epoch=None, validation_steps=None, validation_batch_size=None,
            validation_freq=1) -> History:
        """Train for ``epochs`` epochs of ``batch_size`` (32) batches; returns the
        :class:`History` of the epoch logs (``loss``, metrics, ``val_*``).

        Raises:
            ValueError: Before ``compile``, or for inputs that cannot be batched together.
        """
        self._check_compiled()
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = train_validation_split(
                (x, y, sample_weight), validation_split)
        iterator = EpochIterator(x, y, sample_weight, batch_size=batch_size,
                                 steps_per_epoch=steps_per_epoch, shuffle=shuffle,
                                 class_weight=class_weight)
        callbacks = self._callbacks(callbacks, verbose, epochs, iterator.num_batches,
                                    add_history=True)
        self.stop_training = False
        callbacks.on_train_begin()
        epoch_logs: dict | None = None
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callbacks.on_epoch_begin(epoch)
            logs: dict = {}
            for begin, end, batches in self._executions(iterator):
                callbacks.on_train_batch_begin(begin)
                for batch in batches:
                    logs = self.train_step(batch)
                callbacks.on_train_batch_end(end, logs)
                if self.stop_training:
                    break
            epoch_logs = dict(self.get_metrics_result() or logs)
            if validation_data is not None and self._should_evaluate(epoch, validation_freq):
                epoch_logs.update(self._validation_logs(
                    validation_data, validation_batch_size or batch_size, validation_steps,
                    callbacks))
            callbacks.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        callbacks.on_train_end(logs=epoch_logs)
        return self.history

    def _validation_logs(self, validation_data, batch_size, steps, callbacks) -> dict:
        val_x, val_y, val_sample_weight = unpack_x_y_sample_weight(validation_data)
        logs = self.evaluate(val_x, val_y, sample_weight=val_sample_weight,
                             batch_size=batch_size, steps=steps, callbacks=callbacks,
                             return_dict=True)
        return {f"val_{name}": value for name, value in logs.items()}

    @staticmethod
    def _should_evaluate(epoch: int, validation_freq) -> bool:
        if isinstance(validation_freq, int):
            return (epoch + 1) % validation_freq == 0
        if isinstance(validation_freq, list):
            return epoch + 1 in validation_freq
        raise ValueError("Expected `validation_freq` to be a list or int. Received: "
                         f"validation_freq={validation_freq} of the type "
                         f"{type(validation_freq)}.")

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict: bool = False, **kwargs):
        """The loss and metrics over the data (one pass, in order): a float for the loss
        alone, else a list in :attr:`metrics_names` order, or a dict (``return_dict``).

        Raises:
            ValueError: Before ``compile``, or for unknown keyword arguments.
        """
        self._check_compiled()
        if kwargs:
            raise ValueError(f"Arguments not recognized: {kwargs}")
        iterator = EpochIterator(x, y, sample_weight, batch_size=batch_size,
                                 steps_per_epoch=steps)
        callbacks = self._callbacks(callbacks, verbose, 1, iterator.num_batches)
        callbacks.on_test_begin()
        self.reset_metrics()
        logs: dict = {}
        for begin, end, batches in self._executions(iterator):
            callbacks.on_test_batch_begin(begin)
            for batch in batches:
                logs = self.test_step(batch)
            callbacks.on_test_batch_end(end, logs)
        logs = pythonify_logs(self.get_metrics_result() or logs)
        callbacks.on_test_end(logs)
        return logs if return_dict else self._in_metric_order(logs)

    def _in_metric_order(self, logs: dict):
        names = [member.name for metric in self.metrics
                 for member in (metric.metrics if isinstance(metric, CompileMetrics)
                                else [metric])]
        ordered = [logs[name] for name in names if name in logs]
        ordered += [logs[key] for key in sorted(logs) if key not in names]
        return ordered[0] if len(ordered) == 1 else ordered

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs for ``x``, batch by batch, as NumPy arrays."""
        iterator = EpochIterator(x, batch_size=batch_size, steps_per_epoch=steps)
        callbacks = self._callbacks(callbacks, verbose, 1, iterator.num_batches)
        callbacks.on_predict_begin()
        outputs: list = []
        for begin, end, batches in self._executions(iterator):
            callbacks.on_predict_batch_begin(begin)
            batch_outputs = _concatenate([self.predict_step(batch) for batch in batches])
            outputs.append(batch_outputs)
            callbacks.on_predict_batch_end(end, {"outputs": batch_outputs})
        callbacks.on_predict_end()
        return _concatenate(outputs)

    def _executions(self, iterator):
        """``(begin_step, end_step, batches)``: the batches in groups of
        ``steps_per_execution``, as Keras runs them between two batch callbacks (the last
        group may be shorter; its end step is counted as if it were full)."""
        size = max(1, int(self.steps_per_execution))
        group: list = []
        begin = 0
        for step, batch in iterator:
            if not group:
                begin = step
            group.append(batch)
            if len(group) == size:
                yield begin, begin + size - 1, group
                group = []
        if group:
            yield begin, begin + size - 1, group

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                       return_dict: bool = False):
        """One train step on one batch (metrics reset first); the logs as in
        :meth:`evaluate`.

        Raises:
            ValueError: Before ``compile``, or for both ``sample_weight`` and
                ``class_weight``.
        """
        self._check_compiled()
        if class_weight is not None:
            if sample_weight is not None:
                raise ValueError("Arguments `sample_weight` and `class_weight` cannot be "
                                 f"specified at the same time. Received: sample_weight="
                                 f"{sample_weight}, class_weight={class_weight}")
            sample_weight = class_weight_to_sample_weights(y, class_weight)
        self.reset_metrics()
        logs = pythonify_logs(self.train_step(self._one_batch(x, y, sample_weight)))
        return logs if return_dict else self._in_metric_order(logs)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict: bool = False):
        """The loss and metrics of one batch (metrics reset first).

        Raises:
            ValueError: Before ``compile``.
        """
        self._check_compiled()
        self.reset_metrics()
        logs = pythonify_logs(self.test_step(self._one_batch(x, y, sample_weight)))
        return logs if return_dict else self._in_metric_order(logs)

    def predict_on_batch(self, x):
        """The model's output for one batch, as NumPy arrays."""
        return _concatenate([self.predict_step(self._one_batch(x, None, None))])

    @staticmethod
    def _one_batch(x, y, sample_weight) -> tuple:
        iterator = EpochIterator(x, y, sample_weight, batch_size=_size_of(x))
        return next(iter(iterator))[1]


def _size_of(x) -> int:
    leaves = flatten(x)
    return max(1, int(np.shape(leaves[0])[0])) if leaves and np.ndim(leaves[0]) else 1


def _concatenate(outputs: list):
    """The batches' outputs (tensors, arrays, or structures of them) joined along the first
    axis, as NumPy arrays."""
    first = outputs[0]
    if isinstance(first, (list, tuple, dict)):
        leaves = [flatten(output) for output in outputs]
        joined = iter([_concatenate([batch[index] for batch in leaves])
                       for index in range(len(leaves[0]))])
        return map_structure(lambda _: next(joined), first)
    return np.concatenate([np.asarray(output.numpy()) if isinstance(output, Tensor)
                           else np.asarray(output) for output in outputs])
