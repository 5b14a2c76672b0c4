"""``tf.keras.callbacks``: hooks that ``fit``, ``evaluate`` and ``predict`` call.

A ``Callback`` gets ``set_model``/``set_params`` and the ``on_{train,test,
predict}_{begin,end}``, ``on_epoch_{begin,end}`` and ``on_{train,test,
predict}_batch_{begin,end}`` calls with the ``logs`` dict (metric name ->
Python float). ``fit`` always adds a :class:`History` (returned, and kept as
``model.history``) and, unless ``verbose=0``, a :class:`ProgbarLogger`.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> seen = []
    >>> callback = tf.keras.callbacks.LambdaCallback(
    ...     on_epoch_end=lambda epoch, logs: seen.append((epoch, logs["loss"])))
    >>> callback.on_epoch_end(0, {"loss": 0.5})
    >>> seen
    [(0, 0.5)]
"""

from __future__ import annotations

import csv
import math
import os
import warnings
from collections.abc import Callable

import numpy as np

from ._progress import Progbar, print_message

__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger", "EarlyStopping",
           "ModelCheckpoint", "LearningRateScheduler", "LambdaCallback", "ReduceLROnPlateau",
           "TerminateOnNaN", "CSVLogger"]


def pythonify_logs(logs) -> dict:
    """``logs`` sorted by name, nested dicts merged in, values made Python floats where they
    convert (Keras' ``pythonify_logs``).

    Example:
        >>> import numpy as np
        >>> pythonify_logs({"loss": np.float32(0.5), "extra": {"acc": 1}, "name": "x"})
        {'acc': 1.0, 'loss': 0.5, 'name': 'x'}
    """
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
            continue
        try:
            result[key] = float(value.numpy() if hasattr(value, "numpy") else value)
        except (TypeError, ValueError):
            result[key] = value
    return result


class Callback:
    """Base class of the callbacks: every hook does nothing; ``self.model`` is the model being
    trained and ``self.params`` the run's ``{"verbose", "epochs", "steps"}``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> class Printer(tf.keras.callbacks.Callback):
        ...     def on_epoch_end(self, epoch, logs=None):
        ...         print(f"epoch {epoch}: {logs}")
        >>> Printer().on_epoch_end(1, {"loss": 0.25})
        epoch 1: {'loss': 0.25}
    """

    def __init__(self):
        self.params = None
        self._model = None

    def set_params(self, params: dict) -> None:
        """Keep the run's parameters."""
        self.params = params

    def set_model(self, model) -> None:
        """Keep the model the hooks act on."""
        self._model = model

    @property
    def model(self):
        """The model being trained, evaluated or run."""
        return self._model

    def on_batch_begin(self, batch, logs=None):
        """Called by the default :meth:`on_train_batch_begin`."""

    def on_batch_end(self, batch, logs=None):
        """Called by the default :meth:`on_train_batch_end`."""

    def on_epoch_begin(self, epoch, logs=None):
        """At the start of each training epoch."""

    def on_epoch_end(self, epoch, logs=None):
        """At the end of each training epoch, with the epoch's (and validation) logs."""

    def on_train_batch_begin(self, batch, logs=None):
        """Before each training batch."""
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        """After each training batch, with the running logs."""
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        """Before each evaluation batch."""

    def on_test_batch_end(self, batch, logs=None):
        """After each evaluation batch."""

    def on_predict_batch_begin(self, batch, logs=None):
        """Before each prediction batch."""

    def on_predict_batch_end(self, batch, logs=None):
        """After each prediction batch (``logs["outputs"]``)."""

    def on_train_begin(self, logs=None):
        """At the start of ``fit``."""

    def on_train_end(self, logs=None):
        """At the end of ``fit``, with the last epoch's logs."""

    def on_test_begin(self, logs=None):
        """At the start of ``evaluate``."""

    def on_test_end(self, logs=None):
        """At the end of ``evaluate``."""

    def on_predict_begin(self, logs=None):
        """At the start of ``predict``."""

    def on_predict_end(self, logs=None):
        """At the end of ``predict``."""


_HOOKS = ("on_batch_begin", "on_batch_end", "on_epoch_begin", "on_epoch_end",
          "on_train_batch_begin", "on_train_batch_end", "on_test_batch_begin",
          "on_test_batch_end", "on_predict_batch_begin", "on_predict_batch_end",
          "on_train_begin", "on_train_end", "on_test_begin", "on_test_end", "on_predict_begin",
          "on_predict_end")


def _forward(hook: str) -> Callable:
    """A ``CallbackList`` method calling ``hook`` of every callback (logs made floats), with
    Keras' argument passing: ``logs`` by keyword to the batch hooks, by position to the
    others."""
    if hook.endswith(("batch_begin", "batch_end")):
        def call_all(self, number: int, logs=None):
            logs = pythonify_logs(logs)
            for callback in self.callbacks:
                getattr(callback, hook)(number, logs=logs)
    elif hook.startswith("on_epoch"):
        def call_all(self, number: int, logs=None):
            logs = pythonify_logs(logs)
            for callback in self.callbacks:
                getattr(callback, hook)(number, logs)
    else:
        def call_all(self, logs=None):
            logs = pythonify_logs(logs)
            for callback in self.callbacks:
                getattr(callback, hook)(logs)

    call_all.__name__ = hook
    call_all.__doc__ = f"``{hook}`` of every callback, the logs made Python floats."
    return call_all


class History(Callback):
    """Records the logs of every epoch: ``history`` maps each log name to its list of values,
    ``epoch`` lists the epoch numbers. ``fit`` returns it.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> history = tf.keras.callbacks.History()
        >>> history.on_train_begin()
        >>> history.on_epoch_end(0, {"loss": 0.5})
        >>> history.on_epoch_end(1, {"loss": 0.25})
        >>> history.history, history.epoch
        ({'loss': [0.5, 0.25]}, [0, 1])
    """

    def __init__(self):
        super().__init__()
        self.history: dict = {}
        self.epoch: list = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        if self.model is not None:
            self.model.history = self


class ProgbarLogger(Callback):
    """Prints Keras' progress bar: ``Epoch 1/2`` (when there are several epochs), then
    ``2/2 ━━━━━━━━━━━━━━━━━━━━ 0s 3ms/step - loss: 0.4321`` (``verbose=1``, redrawn each
    step) or one line per epoch (``verbose=2``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> logger = tf.keras.callbacks.ProgbarLogger()
        >>> logger.set_params({"verbose": 2, "epochs": 2, "steps": 1})
        >>> logger.on_epoch_begin(0)
        Epoch 1/2
        >>> logger.on_epoch_end(0, {"loss": 0.25})  # doctest: +ELLIPSIS
        1/1 - 0s -...step - loss: 0.2500
    """

    def __init__(self):
        super().__init__()
        self.seen = 0
        self.progbar = None
        self.target = None
        self.verbose = 1
        self.epochs = 1
        self._called_in_fit = False

    def set_params(self, params: dict) -> None:
        super().set_params(params)
        self.verbose = 1 if params["verbose"] == "auto" else params["verbose"]
        self.epochs = params["epochs"]
        self.target = params["steps"]

    def _reset(self) -> None:
        self.seen = 0
        self.progbar = None

    def _bar(self) -> Progbar:
        if self.progbar is None:
            self.progbar = Progbar(target=self.target, verbose=self.verbose)
        return self.progbar

    def _update(self, batch: int, logs) -> None:
        bar = self._bar()
        self.seen = batch + 1
        if self.verbose == 1:
            bar.update(self.seen, list((logs or {}).items()), finalize=False)

    def _finalize(self, logs) -> None:
        bar = self._bar()
        if self.target is None:
            self.target = bar.target = self.seen
        bar.update(self.target, list((logs or {}).items()), finalize=True)

    def on_train_begin(self, logs=None):
        self._called_in_fit = True

    def on_test_begin(self, logs=None):
        if not self._called_in_fit:
            self._reset()
            self._bar()

    def on_predict_begin(self, logs=None):
        self._reset()
        self._bar()

    def on_epoch_begin(self, epoch, logs=None):
        self._reset()
        self._bar()
        if self.verbose and self.epochs > 1:
            print_message(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch, logs=None):
        self._update(batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        if not self._called_in_fit:
            self._update(batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        self._update(batch, None)

    def on_epoch_end(self, epoch, logs=None):
        self._finalize(logs)

    def on_test_end(self, logs=None):
        if not self._called_in_fit:
            self._finalize(logs)

    def on_predict_end(self, logs=None):
        self._finalize(logs)


class CallbackList(Callback):
    """Several callbacks called as one: ``CallbackList(callbacks=None, add_history=False,
    add_progbar=False, model=None, **params)``; ``fit`` builds one (adding a
    :class:`History` and a :class:`ProgbarLogger`) unless given one.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> callbacks = tf.keras.callbacks.CallbackList(add_history=True)
        >>> [type(callback).__name__ for callback in callbacks.callbacks]
        ['History']
    """

    def __init__(self, callbacks=None, add_history: bool = False, add_progbar: bool = False,
                 model=None, **params):
        super().__init__()
        self.callbacks = list(_flatten(callbacks)) if callbacks else []
        self._history = next((c for c in self.callbacks if isinstance(c, History)), None)
        self._progbar = next((c for c in self.callbacks if isinstance(c, ProgbarLogger)), None)
        if self._history is None and add_history:
            self._history = History()
            self.callbacks.append(self._history)
        if self._progbar is None and add_progbar:
            self._progbar = ProgbarLogger()
            self.callbacks.append(self._progbar)
        self.set_model(model)
        self.set_params(params)

    def set_params(self, params: dict) -> None:
        self.params = params
        if params:
            for callback in self.callbacks:
                callback.set_params(params)

    def set_model(self, model) -> None:
        if not model:
            return
        super().set_model(model)
        if self._history:
            model.history = self._history
        for callback in self.callbacks:
            callback.set_model(model)

    def append(self, callback: Callback) -> None:
        """Add ``callback`` at the end."""
        self.callbacks.append(callback)


for _hook in _HOOKS:
    setattr(CallbackList, _hook, _forward(_hook))


def _flatten(callbacks):
    for item in callbacks:
        if isinstance(item, (list, tuple)):
            yield from _flatten(item)
        else:
            yield item


class _MonitorCallback(Callback):
    """A callback watching one log value (``monitor``) for improvements: lower for losses and
    errors, higher for accuracies (``mode="auto"``), or as ``mode`` says."""

    def __init__(self, monitor: str = "val_loss", mode: str = "auto", baseline=None,
                 min_delta=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto "
                          "mode.", stacklevel=3)
            mode = "auto"
        self.monitor = monitor
        self.mode = mode
        self.best = baseline
        self.min_delta = abs(min_delta)
        self.monitor_op = None

    def _set_monitor_op(self) -> None:
        if self.mode in ("min", "max"):
            self.monitor_op = np.less if self.mode == "min" else np.greater
        else:
            self.monitor_op = self._automatic_op()
        if self.monitor_op is np.less:
            self.min_delta *= -1

    def _automatic_op(self):
        name = self.monitor.removeprefix("val_")
        operation = np.less if name == "loss" else None
        for metric in _all_metrics(self.model):
            direction = getattr(metric, "_direction", None)
            if metric.name == name and direction is not None:
                operation = np.greater if direction == "up" else np.less
        if operation is None:
            raise ValueError(f"{type(self).__name__} callback received monitor={self.monitor}, "
                             "but Keras isn't able to automatically determine whether that "
                             "metric should be maximized or minimized. Pass `mode='max'` in "
                             "order to monitor based on the highest metric value, or pass "
                             "`mode='min'` in order to use the lowest value.")
        return operation

    def _is_improvement(self, value, reference) -> bool:
        if reference is None:
            return True
        return bool(self.monitor_op(value - self.min_delta, reference))


def _all_metrics(model) -> list:
    """The model's metrics with the compiled metrics' members listed one by one."""
    found = []
    for metric in getattr(model, "metrics", None) or []:
        members = getattr(metric, "metrics", None)
        found.extend(members if isinstance(members, list) else [metric])
    return found


class EarlyStopping(_MonitorCallback):
    """Stop training when ``monitor`` has not improved (by more than ``min_delta``) for
    ``patience`` epochs.

    ``EarlyStopping(monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
    baseline=None, restore_best_weights=False, start_from_epoch=0)``; with
    ``restore_best_weights``, the weights of the best epoch are put back at the end.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> stopper = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1)
        >>> class Model:
        ...     stop_training = False
        ...     metrics = []
        >>> stopper.set_model(Model())
        >>> stopper.on_train_begin()
        >>> for epoch, loss in enumerate([0.5, 0.4, 0.45]):
        ...     stopper.on_epoch_end(epoch, {"loss": loss})
        >>> stopper.model.stop_training, stopper.stopped_epoch
        (True, 2)
    """

    def __init__(self, monitor: str = "val_loss", min_delta=0, patience: int = 0,
                 verbose: int = 0, mode: str = "auto", baseline=None,
                 restore_best_weights: bool = False, start_from_epoch: int = 0):
        super().__init__(monitor, mode, min_delta=min_delta)
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.wait = 0
        self.stopped_epoch = 0
        self.restore_best_weights = restore_best_weights
        self.best_weights = None
        self.start_from_epoch = start_from_epoch

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = None
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        current = self._monitored(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print_message(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print_message("Restoring model weights from the end of the best epoch: "
                              f"{self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def _monitored(self, logs):
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(logs)}", stacklevel=3)
        return value


class ModelCheckpoint(_MonitorCallback):
    """Save the model (or its weights) after each epoch (or every ``save_freq`` batches) to
    ``filepath``, which may hold ``{epoch:02d}`` and log fields such as ``{val_loss:.2f}``.

    ``ModelCheckpoint(filepath, monitor="val_loss", verbose=0, save_best_only=False,
    save_weights_only=False, mode="auto", save_freq="epoch", initial_value_threshold=None)``;
    weights go through the model's ``save_weights`` (the path must end in ``.weights.h5``),
    whole models through ``save`` (``.keras`` or ``.h5``).

    Raises:
        ValueError: For a path with the wrong ending, or an unknown ``save_freq``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> checkpoint = tf.keras.callbacks.ModelCheckpoint("w{epoch:02d}.weights.h5",
        ...                                                 save_weights_only=True)
        >>> checkpoint._file_path(2, None, {"loss": 0.5})
        'w03.weights.h5'
    """

    def __init__(self, filepath, monitor: str = "val_loss", verbose: int = 0,
                 save_best_only: bool = False, save_weights_only: bool = False,
                 mode: str = "auto", save_freq="epoch", initial_value_threshold=None):
        super().__init__(monitor, mode, initial_value_threshold)
        self.verbose = verbose
        self.filepath = os.fspath(filepath)
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = None
        self._current_epoch = 0
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {save_freq}. Expected save_freq are "
                             "'epoch' or integer values")
        if save_weights_only and not self.filepath.endswith(".weights.h5"):
            raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, the "
                             "filepath provided must end in `.weights.h5` (Keras weights "
                             f"format). Received: filepath={self.filepath}")
        if not save_weights_only and not self.filepath.endswith((".keras", ".h5")):
            raise ValueError("The filepath provided must end in `.keras` (Keras model format). "
                             f"Received: filepath={self.filepath}")

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            self._save(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        if self.save_freq == "epoch":
            self._save(epoch, None, logs)

    def _should_save_on_batch(self, batch: int) -> bool:
        if self.save_freq == "epoch":
            return False
        if self._last_batch_seen is None or batch <= self._last_batch_seen:
            self._batches_seen_since_last_saving += batch + 1
        else:
            self._batches_seen_since_last_saving += batch - self._last_batch_seen
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def _file_path(self, epoch: int, batch, logs) -> str:
        logs = logs or {}
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as error:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". '
                           f"Reason: {error}") from None

    def _should_save(self, epoch: int, logs, filepath: str) -> bool:
        if not self.save_best_only:
            if self.verbose > 0:
                print_message(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            return True
        current = (logs or {}).get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available.",
                          stacklevel=3)
            return True
        best = "None" if self.best is None else f"{self.best:.5f}"
        if self._is_improvement(current, self.best):
            if self.verbose > 0:
                print_message(f"\nEpoch {epoch + 1}: {self.monitor} improved from {best} to "
                              f"{current:.5f}, saving model to {filepath}")
            self.best = current
            return True
        if self.verbose > 0:
            print_message(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best}")
        return False

    def _save(self, epoch: int, batch, logs) -> None:
        filepath = self._file_path(epoch, batch, logs)
        if os.path.isdir(filepath):
            raise OSError("Please specify a non-directory filepath for ModelCheckpoint. "
                          f"Filepath used is an existing directory: {filepath}")
        if not self._should_save(epoch, logs, filepath):
            return
        directory = os.path.dirname(filepath)
        if directory:
            os.makedirs(directory, exist_ok=True)
        if self.save_weights_only:
            self.model.save_weights(filepath, overwrite=True)
        else:
            self.model.save(filepath, overwrite=True)
        if self.verbose > 0:
            print_message(f"\nEpoch {epoch + 1}: finished saving model to {filepath}")


def _current_rate(optimizer) -> float:
    rate = optimizer.learning_rate
    return float(rate.numpy() if hasattr(rate, "numpy") else rate)


class LearningRateScheduler(Callback):
    """Set the optimizer's learning rate at the start of each epoch to
    ``schedule(epoch, learning_rate)`` (or ``schedule(epoch)``); logs ``learning_rate``.

    Raises:
        ValueError: When ``schedule`` returns something other than a float.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> class Model:
        ...     optimizer = tf.keras.optimizers.SGD(0.1)
        >>> scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch, rate: rate / 2)
        >>> scheduler.set_model(Model())
        >>> scheduler.on_epoch_begin(0)
        >>> float(Model.optimizer.learning_rate)
        0.05000000074505806
    """

    def __init__(self, schedule: Callable, verbose: int = 0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        optimizer = self.model.optimizer
        if not hasattr(optimizer, "learning_rate"):
            raise ValueError('Optimizer must have a "learning_rate" attribute.')
        try:
            rate = self.schedule(epoch, _current_rate(optimizer))
        except TypeError:  # schedule(epoch), Keras' older form
            rate = self.schedule(epoch)
        if not isinstance(rate, (float, np.float32, np.float64)):
            raise ValueError(f"The output of the `schedule` function should be a float. Got: "
                             f"{rate}")
        optimizer.learning_rate = float(rate)
        if self.verbose > 0:
            print_message(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate "
                          f"to {rate}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = _current_rate(self.model.optimizer)


class ReduceLROnPlateau(_MonitorCallback):
    """Multiply the learning rate by ``factor`` (down to ``min_lr``) when ``monitor`` has not
    improved by ``min_delta`` for ``patience`` epochs, then wait ``cooldown`` epochs.

    ``ReduceLROnPlateau(monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto",
    min_delta=1e-4, cooldown=0, min_lr=0.0)``; logs ``learning_rate``.

    Raises:
        ValueError: For ``factor >= 1``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> class Model:
        ...     optimizer = tf.keras.optimizers.SGD(0.1)
        ...     metrics = []
        >>> reducer = tf.keras.callbacks.ReduceLROnPlateau("loss", factor=0.5, patience=1)
        >>> reducer.set_model(Model())
        >>> reducer.on_train_begin()
        >>> for epoch, loss in enumerate([0.5, 0.5]):
        ...     reducer.on_epoch_end(epoch, {"loss": loss})
        >>> float(Model.optimizer.learning_rate)
        0.05000000074505806
    """

    def __init__(self, monitor: str = "val_loss", factor: float = 0.1, patience: int = 10,
                 verbose: int = 0, mode: str = "auto", min_delta: float = 1e-4,
                 cooldown: int = 0, min_lr: float = 0.0, **kwargs):
        super().__init__(monitor, mode, min_delta=min_delta)
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0. Received "
                             f"factor={factor}")
        self.factor = factor
        self.min_lr = min_lr
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self.best = None
        self.cooldown_counter = 0
        self.wait = 0

    def in_cooldown(self) -> bool:
        """Whether the cooldown after a reduction is still running."""
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        logs = logs if logs is not None else {}
        logs["learning_rate"] = _current_rate(self.model.optimizer)
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Learning rate reduction is conditioned on metric `{self.monitor}` "
                          f"which is not available. Available metrics are: {','.join(logs)}.",
                          stacklevel=2)
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience and self._reduce(epoch):
                self.cooldown_counter = self.cooldown
                self.wait = 0

    def _reduce(self, epoch: int) -> bool:
        old_rate = _current_rate(self.model.optimizer)
        if old_rate <= np.float32(self.min_lr):
            return False
        new_rate = max(old_rate * self.factor, self.min_lr)
        self.model.optimizer.learning_rate = new_rate
        if self.verbose > 0:
            print_message(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to "
                          f"{new_rate}.")
        return True


class LambdaCallback(Callback):
    """A callback from functions: ``LambdaCallback(on_epoch_begin=None, on_epoch_end=None,
    on_train_begin=None, on_train_end=None, on_train_batch_begin=None,
    on_train_batch_end=None, **kwargs)`` (other hooks as keyword arguments).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> callback = tf.keras.callbacks.LambdaCallback(
        ...     on_train_begin=lambda logs: print("start"))
        >>> callback.on_train_begin({})
        start
    """

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_train_begin=None,
                 on_train_end=None, on_train_batch_begin=None, on_train_batch_end=None,
                 **kwargs):
        super().__init__()
        self.__dict__.update(kwargs)
        for name, function in (("on_epoch_begin", on_epoch_begin),
                               ("on_epoch_end", on_epoch_end),
                               ("on_train_begin", on_train_begin),
                               ("on_train_end", on_train_end),
                               ("on_train_batch_begin", on_train_batch_begin),
                               ("on_train_batch_end", on_train_batch_end)):
            if function is not None:
                setattr(self, name, function)


class TerminateOnNaN(Callback):
    """Stop training (or raise, ``raise_error=True``) when a batch's loss is NaN or infinite.

    Raises:
        RuntimeError: With ``raise_error=True``, at the first invalid loss.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> class Model:
        ...     stop_training = False
        >>> callback = tf.keras.callbacks.TerminateOnNaN()
        >>> callback.set_model(Model())
        >>> callback.on_batch_end(3, {"loss": float("nan")})
        Batch 3: Invalid loss, terminating training
        >>> callback.model.stop_training
        True
    """

    def __init__(self, raise_error: bool = False):
        super().__init__()
        self.raise_error = raise_error

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is None or not (math.isnan(loss) or math.isinf(loss)):
            return
        if self.raise_error:
            raise RuntimeError(f"NaN or Inf loss encountered at batch {batch}. Loss value: "
                               f"{loss}. Terminating training immediately.")
        print_message(f"Batch {batch}: Invalid loss, terminating training")
        self.model.stop_training = True


class CSVLogger(Callback):
    """Write each epoch's logs as a row of a CSV file: ``CSVLogger(filename, separator=",",
    append=False)``. The columns are ``epoch`` and the log names, sorted (with ``val_``
    columns added when the first epoch has none); missing values are ``NA``.

    Example:
        >>> import os, tempfile
        >>> import unigrad.compat.tensorflow as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
        >>> logger = tf.keras.callbacks.CSVLogger(path)
        >>> logger.on_train_begin()
        >>> logger.on_epoch_end(0, {"loss": 0.5, "val_loss": 0.75})
        >>> logger.on_train_end()
        >>> print(open(path).read().replace("\\r", ""))
        epoch,loss,val_loss
        0,0.5,0.75
        <BLANKLINE>
    """

    def __init__(self, filename, separator: str = ",", append: bool = False):
        super().__init__()
        self.sep = separator
        self.filename = os.fspath(filename)
        self.append = append
        self.writer = None
        self.keys = None
        self.append_header = True
        self.csv_file = None

    def on_train_begin(self, logs=None):
        if self.append and os.path.exists(self.filename):
            with open(self.filename) as existing:
                self.append_header = not existing.readline()
        if self.csv_file and not self.csv_file.closed:
            self.csv_file.close()
        self.csv_file = open(self.filename, "a" if self.append else "w")  # noqa: SIM115
        self.writer = None
        self.keys = None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
            if self.keys and not any(key.startswith("val_") for key in self.keys):
                self.keys += [f"val_{key}" for key in self.keys]
        if self.writer is None:
            dialect = type("Dialect", (csv.excel,), {"delimiter": self.sep})
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch", *self.keys],
                                         dialect=dialect)
            if self.append_header:
                self.writer.writeheader()
        self.writer.writerow({"epoch": epoch, **{key: _csv_value(logs.get(key, "NA"))
                                                 for key in self.keys}})
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file and not self.csv_file.closed:
            self.csv_file.close()
        self.writer = None


def _csv_value(value):
    """A log value for the CSV file: strings and numbers as they are, sequences quoted."""
    if isinstance(value, str) or (isinstance(value, np.ndarray) and value.ndim == 0):
        return value
    if hasattr(value, "__iter__"):
        return f'"[{", ".join(map(str, value))}]"'
    return value
