"""TensorFlow cases: keras_training (see tensorflow_cases.py for the conventions).

Losses, metrics, and ``compile``/``fit``/``evaluate``/``predict`` of a
``Sequential`` Dense model whose weights are set from fixed NumPy arrays (so
real Keras and unigrad start identical); ``shuffle=False`` throughout.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import os
import re
import tempfile
import warnings

import numpy as np

from . import case

_RANDOM = np.random.default_rng(1234)
_Y_TRUE = _RANDOM.uniform(0.0, 2.0, size=(4, 3)).astype(np.float32)
_Y_PRED = _RANDOM.uniform(0.0, 2.0, size=(4, 3)).astype(np.float32)
_LABELS = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0]], np.float32)
_PROBABILITIES = np.array([[0.2, 0.7, 0.1], [0.5, 0.3, 0.2], [0.1, 0.1, 0.8], [0.6, 0.3, 0.1]],
                          np.float32)
_LOGITS = _RANDOM.normal(size=(4, 3)).astype(np.float32)
_WEIGHTS = np.array([1.0, 0.5, 2.0, 0.0], np.float32)
_X = _RANDOM.normal(size=(10, 3)).astype(np.float32)
_Y = _RANDOM.normal(size=(10, 2)).astype(np.float32)
_CLASSES = np.array([0, 2, 1, 1, 0, 2, 2, 1, 0, 1], np.int64)
_KERNEL = _RANDOM.normal(size=(3, 2)).astype(np.float32)
_KERNEL_3 = _RANDOM.normal(size=(3, 3)).astype(np.float32)


# --------------------------------------------------------------------------- losses

def _reduced(tf, loss_class, y_true, y_pred, **options) -> list:
    """A loss class's value under every reduction, and with sample weights."""
    results = []
    for reduction in ("sum_over_batch_size", "sum", "none", "mean_with_sample_weight"):
        loss = loss_class(reduction=reduction, **options)
        results.append(loss(y_true, y_pred).numpy())
        results.append(loss(y_true, y_pred, sample_weight=_WEIGHTS).numpy())
    return results


@case(rtol=1e-5, atol=1e-6)
def case_keras_loss_regression_classes(tf):
    losses = tf.keras.losses
    return {cls.__name__: _reduced(tf, cls, _Y_TRUE, _Y_PRED) for cls in (
        losses.MeanSquaredError, losses.MeanAbsoluteError, losses.MeanAbsolutePercentageError,
        losses.MeanSquaredLogarithmicError, losses.LogCosh, losses.Huber,
        losses.CosineSimilarity, losses.Poisson)}


@case(rtol=1e-5, atol=1e-6)
def case_keras_loss_huber_delta_and_cosine_axis(tf):
    losses = tf.keras.losses
    return [losses.Huber(delta=0.3)(_Y_TRUE, _Y_PRED).numpy(),
            losses.Huber(delta=0.3, reduction="none")(_Y_TRUE, _Y_PRED).numpy(),
            losses.CosineSimilarity(axis=0, reduction="none")(_Y_TRUE, _Y_PRED).numpy()]


@case(rtol=1e-5, atol=1e-6)
def case_keras_loss_probabilistic_classes(tf):
    losses = tf.keras.losses
    sparse = np.argmax(_LABELS, axis=-1)
    return {
        "bce": _reduced(tf, losses.BinaryCrossentropy, _LABELS, _PROBABILITIES),
        "bce_logits": _reduced(tf, losses.BinaryCrossentropy, _LABELS, _LOGITS,
                               from_logits=True),
        "bce_smoothing": losses.BinaryCrossentropy(label_smoothing=0.2)(
            _LABELS, _PROBABILITIES).numpy(),
        "cce": _reduced(tf, losses.CategoricalCrossentropy, _LABELS, _PROBABILITIES),
        "cce_logits_smoothing": losses.CategoricalCrossentropy(
            from_logits=True, label_smoothing=0.1)(_LABELS, _LOGITS).numpy(),
        "cce_unnormalised": losses.CategoricalCrossentropy()(_LABELS, _Y_PRED).numpy(),
        "scce": _reduced(tf, losses.SparseCategoricalCrossentropy, sparse, _PROBABILITIES),
        "scce_logits": losses.SparseCategoricalCrossentropy(from_logits=True)(
            sparse, _LOGITS).numpy(),
        "scce_column_labels": losses.SparseCategoricalCrossentropy()(
            sparse.reshape(4, 1), _PROBABILITIES).numpy(),
        "scce_ignore": [losses.SparseCategoricalCrossentropy(ignore_class=1)(
            sparse, _PROBABILITIES).numpy(),
            losses.SparseCategoricalCrossentropy(ignore_class=1, reduction="none")(
                sparse, _PROBABILITIES).numpy(),
            losses.SparseCategoricalCrossentropy(ignore_class=1, reduction="sum")(
                sparse, _PROBABILITIES, sample_weight=_WEIGHTS).numpy()],
        "kld": _reduced(tf, losses.KLDivergence, _PROBABILITIES, _PROBABILITIES[::-1]),
        "clipped": losses.BinaryCrossentropy()(np.array([[1.0, 0.0]], np.float32),
                                               np.array([[0.0, 1.0]], np.float32)).numpy(),
    }


@case(rtol=1e-5, atol=1e-6)
def case_keras_loss_hinge_classes(tf):
    losses = tf.keras.losses
    signs = np.where(_LABELS > 0, 1.0, -1.0).astype(np.float32)
    return {"hinge": _reduced(tf, losses.Hinge, _LABELS, _LOGITS),
            "hinge_signs": losses.Hinge()(signs, _LOGITS).numpy(),
            "squared_hinge": _reduced(tf, losses.SquaredHinge, _LABELS, _LOGITS),
            "categorical_hinge": _reduced(tf, losses.CategoricalHinge, _LABELS, _LOGITS)}


@case(rtol=1e-5, atol=1e-6)
def case_keras_loss_functions_and_aliases(tf):
    losses = tf.keras.losses
    return [losses.mse(_Y_TRUE, _Y_PRED).numpy(), losses.MSE(_Y_TRUE, _Y_PRED).numpy(),
            losses.mae(_Y_TRUE, _Y_PRED).numpy(), losses.mape(_Y_TRUE, _Y_PRED).numpy(),
            losses.msle(_Y_TRUE, _Y_PRED).numpy(), losses.kld(_PROBABILITIES, _LABELS).numpy(),
            losses.logcosh(_Y_TRUE, _Y_PRED).numpy(),
            losses.huber(_Y_TRUE, _Y_PRED, delta=0.5).numpy(),
            losses.poisson(_Y_TRUE, _Y_PRED).numpy(),
            losses.cosine_similarity(_Y_TRUE, _Y_PRED).numpy(),
            losses.binary_crossentropy(_LABELS, _PROBABILITIES).numpy(),
            losses.categorical_crossentropy(_LABELS, _PROBABILITIES).numpy(),
            losses.sparse_categorical_crossentropy(np.array([1, 0, 2, 1]),
                                                   _PROBABILITIES).numpy(),
            losses.hinge(_LABELS, _LOGITS).numpy(), losses.squared_hinge(_LABELS, _LOGITS).numpy(),
            losses.categorical_hinge(_LABELS, _LOGITS).numpy(),
            losses.mse(_Y_TRUE[:, :1], _Y_PRED[:, 0]).numpy()]


@case(rtol=1e-5, atol=1e-6)
def case_keras_loss_rank_matching_and_float64(tf):
    losses = tf.keras.losses
    column = _Y_TRUE[:, :1]
    flat = _Y_PRED[:, 0]
    mse = losses.MeanSquaredError()
    as_64 = losses.MeanSquaredError(dtype="float64")(_Y_TRUE, _Y_PRED)
    return [mse(column, flat).numpy(), mse(flat, column).numpy(),
            mse(_Y_TRUE, _Y_PRED, sample_weight=_WEIGHTS.reshape(4, 1)).numpy(),
            mse(_Y_TRUE, _Y_PRED, sample_weight=np.float32(2.0)).numpy(),
            as_64.numpy(), as_64.dtype.name,
            losses.mse(_Y_TRUE.astype(np.float64), _Y_PRED.astype(np.float64)).dtype.name]


@case(rtol=1e-5, atol=1e-6)
def case_keras_loss_gradient_of_crossentropy(tf):
    logits = tf.Variable(_LOGITS)
    with tf.GradientTape() as tape:
        loss = tf.keras.losses.CategoricalCrossentropy(from_logits=True)(_LABELS, logits)
    return [loss.numpy(), tape.gradient(loss, logits).numpy()]


@case
def case_keras_loss_names_and_configs(tf):
    losses = tf.keras.losses
    return [losses.get("mse").__name__, losses.get("mean_squared_error").__name__,
            losses.get("kld").__name__, losses.get("categorical_crossentropy").__name__,
            losses.get("Huber").name, losses.get("BinaryCrossentropy").get_config(),
            losses.MeanSquaredError().get_config(), losses.Huber(delta=2.0).get_config(),
            losses.SparseCategoricalCrossentropy(ignore_class=3).get_config(),
            losses.CategoricalCrossentropy(name="cce", reduction="sum").get_config(),
            losses.MeanSquaredError().name, losses.LogCosh().name, losses.Huber().name,
            losses.Huber().dtype, losses.Reduction.all()]


@case  # the message lists a Python set, in an order that varies from run to run
def case_keras_loss_bad_reduction(tf):
    return tf.keras.losses.MeanSquaredError(reduction="average")


@case(same_message=True)
def case_keras_loss_unknown_name(tf):
    return tf.keras.losses.get("no_such_loss")


@case(same_message=True)
def case_keras_loss_crossentropy_shape_mismatch(tf):
    return tf.keras.losses.categorical_crossentropy(_LABELS, _PROBABILITIES[:, :2])


# -------------------------------------------------------------------------- metrics

def _two_batches(metric, first: tuple, second: tuple) -> list:
    """The metric's result after each of two updates, after a reset, and its config."""
    results = [metric(*first).numpy()]
    metric.update_state(*second)
    results.append(metric.result().numpy())
    metric.reset_state()
    results.append(metric.result().numpy())
    return results + [metric.name, metric.get_config()]


@case(rtol=1e-5, atol=1e-6)
def case_keras_metric_mean_and_sum(tf):
    metrics = tf.keras.metrics
    mean, total = metrics.Mean(), metrics.Sum(name="total")
    mean.update_state(_Y_TRUE)
    mean.update_state(_Y_PRED, sample_weight=_WEIGHTS)
    total.update_state(_Y_TRUE, sample_weight=_WEIGHTS)
    total.update_state(np.float32(3.0))
    scalar = metrics.Mean()
    scalar.update_state(2.0)
    scalar.update_state(4.0, sample_weight=3.0)
    return [mean.result().numpy(), [v.numpy() for v in mean.variables], total.result().numpy(),
            scalar.result().numpy(), metrics.Mean().result().numpy(), repr(mean),
            mean.get_config(), len(total.variables), [v.name for v in mean.variables],
            [v.path for v in mean.variables], repr(mean.variables[1]),
            [v.trainable for v in mean.variables]]


@case(rtol=1e-5, atol=1e-6)
def case_keras_metric_regression(tf):
    metrics = tf.keras.metrics
    first = (_Y_TRUE[:2], _Y_PRED[:2])
    second = (_Y_TRUE[2:], _Y_PRED[2:], _WEIGHTS[2:])
    return {cls.__name__: _two_batches(cls(), first, second) for cls in (
        metrics.MeanSquaredError, metrics.MeanAbsoluteError, metrics.RootMeanSquaredError,
        metrics.MeanAbsolutePercentageError, metrics.MeanSquaredLogarithmicError,
        metrics.LogCoshError, metrics.CosineSimilarity)}


@case(rtol=1e-5, atol=1e-6)
def case_keras_metric_accuracies(tf):
    metrics = tf.keras.metrics
    sparse = np.argmax(_LABELS, axis=-1)
    binary_true = np.array([[1.0], [0.0], [1.0], [0.0]], np.float32)
    binary_pred = np.array([[0.7], [0.6], [0.4], [0.1]], np.float32)
    return {
        "accuracy": _two_batches(metrics.Accuracy(), (sparse, np.array([1, 0, 0, 1])),
                                 (sparse, sparse, _WEIGHTS)),
        "binary": _two_batches(metrics.BinaryAccuracy(), (binary_true, binary_pred),
                               (binary_true, binary_pred, _WEIGHTS)),
        "binary_threshold": _two_batches(metrics.BinaryAccuracy(threshold=0.65),
                                         (binary_true, binary_pred),
                                         (binary_true[:, 0], binary_pred[:, 0])),
        "categorical": _two_batches(metrics.CategoricalAccuracy(), (_LABELS, _PROBABILITIES),
                                    (_LABELS, _LOGITS, _WEIGHTS)),
        "sparse": _two_batches(metrics.SparseCategoricalAccuracy(), (sparse, _PROBABILITIES),
                               (sparse.reshape(4, 1), _LOGITS, _WEIGHTS)),
        "top_k": _two_batches(metrics.TopKCategoricalAccuracy(k=2), (_LABELS, _PROBABILITIES),
                              (_LABELS, _LOGITS, _WEIGHTS)),
        "sparse_top_k": _two_batches(metrics.SparseTopKCategoricalAccuracy(k=1),
                                     (sparse, _PROBABILITIES), (sparse, _LOGITS, _WEIGHTS)),
        "functions": [metrics.binary_accuracy(binary_true, binary_pred).numpy(),
                      metrics.categorical_accuracy(_LABELS, _PROBABILITIES).numpy(),
                      metrics.sparse_categorical_accuracy(sparse, _PROBABILITIES).numpy(),
                      metrics.top_k_categorical_accuracy(_LABELS, _LOGITS, k=2).numpy(),
                      metrics.sparse_top_k_categorical_accuracy(sparse, _LOGITS, k=2).numpy()],
    }


@case(rtol=1e-5, atol=1e-6)
def case_keras_metric_probabilistic_and_hinge(tf):
    metrics = tf.keras.metrics
    sparse = np.argmax(_LABELS, axis=-1)
    first = (_LABELS[:2], _PROBABILITIES[:2])
    second = (_LABELS[2:], _PROBABILITIES[2:], _WEIGHTS[2:])
    results = {cls.__name__: _two_batches(cls(), first, second) for cls in (
        metrics.BinaryCrossentropy, metrics.CategoricalCrossentropy, metrics.KLDivergence,
        metrics.Poisson, metrics.Hinge, metrics.SquaredHinge, metrics.CategoricalHinge)}
    results["sparse"] = _two_batches(metrics.SparseCategoricalCrossentropy(),
                                     (sparse[:2], _PROBABILITIES[:2]),
                                     (sparse[2:], _PROBABILITIES[2:], _WEIGHTS[2:]))
    results["logits"] = _two_batches(metrics.CategoricalCrossentropy(from_logits=True),
                                     (_LABELS, _LOGITS), (_LABELS, _LOGITS, _WEIGHTS))
    return results


@case(rtol=1e-5, atol=1e-6)
def case_keras_metric_confusion(tf):
    metrics = tf.keras.metrics
    y_true = np.array([0, 1, 1, 1, 0, 1], np.float32)
    y_pred = np.array([0.6, 0.2, 0.8, 0.55, 0.1, 0.9], np.float32)
    weights = np.array([1.0, 2.0, 0.5, 1.0, 1.0, 0.0], np.float32)
    results = {cls.__name__: _two_batches(cls(name=cls.__name__.lower()), (y_true, y_pred),
                                          (y_true, y_pred, weights))
               for cls in (metrics.TruePositives, metrics.TrueNegatives, metrics.FalsePositives,
                           metrics.FalseNegatives, metrics.Precision, metrics.Recall)}
    results["thresholds"] = [
        metrics.Precision(thresholds=[0.3, 0.5, 0.7], name="p")(y_true, y_pred).numpy(),
        metrics.Recall(thresholds=[0.3, 0.5, 0.7], name="r")(y_true, y_pred).numpy(),
        metrics.TruePositives(thresholds=[0.15, 0.85], name="t")(y_true, y_pred).numpy()]
    results["top_k_class_id"] = [
        metrics.Precision(top_k=1, name="p")(_LABELS, _PROBABILITIES).numpy(),
        metrics.Recall(top_k=2, name="r")(_LABELS, _PROBABILITIES).numpy(),
        metrics.Precision(class_id=1, name="p")(_LABELS, _PROBABILITIES).numpy(),
        metrics.Recall(class_id=0, name="r")(_LABELS, _PROBABILITIES).numpy()]
    return results


@case
def case_keras_metric_names_and_lookup(tf):
    metrics = tf.keras.metrics
    return [repr(metrics.get("mse")), repr(metrics.get("mae")), metrics.get("accuracy").name,
            metrics.get("binary_accuracy").name, metrics.get("BinaryAccuracy").get_config(),
            metrics.get("Precision").name.startswith("precision"),
            metrics.mse.__name__, metrics.binary_accuracy.__name__,
            metrics.TopKCategoricalAccuracy().get_config(),
            metrics.SparseTopKCategoricalAccuracy().get_config(),
            metrics.Precision(thresholds=0.3, name="p").get_config()]


@case(same_message=True)
def case_keras_metric_unknown_name(tf):
    return tf.keras.metrics.get("no_such_metric")


# ------------------------------------------------------------------------ training

def _dense_model(tf, units: int = 2, kernel=None, activation=None, **options):
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)),
                                 tf.keras.layers.Dense(units, activation=activation, **options)])
    model.set_weights([_KERNEL if kernel is None else kernel,
                       np.linspace(-0.1, 0.1, units).astype(np.float32)])
    return model


class _WeightRecorder:
    """The model's weights at the end of every epoch (through a LambdaCallback)."""

    def __init__(self, tf, model):
        self.weights = []
        self.callback = tf.keras.callbacks.LambdaCallback(
            on_epoch_end=lambda epoch, logs: self.weights.append(
                [np.array(w) for w in model.get_weights()]))


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_sgd_mse_history_and_weights(tf):
    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    recorder = _WeightRecorder(tf, model)
    history = model.fit(_X, _Y, batch_size=4, epochs=3, shuffle=False, verbose=0,
                        callbacks=[recorder.callback])
    return [history.history, history.epoch, recorder.weights, model.metrics_names,
            history.params, history is model.history]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_optimizers_by_name(tf):
    results = {}
    for name in ("sgd", "adam", "rmsprop", "adagrad", "adamax", "nadam", "adamw"):
        model = _dense_model(tf)
        model.compile(optimizer=name, loss="mae")
        history = model.fit(_X, _Y, batch_size=5, epochs=2, shuffle=False, verbose=0)
        results[name] = [history.history["loss"], model.get_weights(),
                         type(model.optimizer).__name__]
    return results


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_softmax_crossentropy_accuracy(tf):
    model = _dense_model(tf, units=3, kernel=_KERNEL_3, activation="softmax")
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy", "acc"])
    history = model.fit(_X, _CLASSES, batch_size=4, epochs=3, shuffle=False, verbose=0,
                        validation_data=(_X[:4], _CLASSES[:4]))
    return [history.history, model.get_weights(), model.predict(_X[:3], verbose=0)]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_one_hot_and_logits(tf):
    model = _dense_model(tf, units=3, kernel=_KERNEL_3)
    one_hot = np.eye(3, dtype=np.float32)[_CLASSES]
    model.compile(optimizer=tf.keras.optimizers.SGD(0.2),
                  loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy", tf.keras.metrics.CategoricalAccuracy(name="ca"),
                           tf.keras.metrics.TopKCategoricalAccuracy(k=2, name="top2")])
    history = model.fit(_X, one_hot, batch_size=3, epochs=2, shuffle=False, verbose=0)
    return [history.history, model.get_weights()]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_binary_crossentropy(tf):
    model = _dense_model(tf, units=1, kernel=_KERNEL[:, :1], activation="sigmoid")
    labels = (_CLASSES > 0).astype(np.float32).reshape(-1, 1)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy",
                  metrics=["accuracy", tf.keras.metrics.Precision(name="precision"),
                           tf.keras.metrics.Recall(name="recall")])
    history = model.fit(_X, labels, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return [history.history, model.get_weights()]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_sample_and_class_weights(tf):
    weighted = _dense_model(tf)
    weighted.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"],
                     weighted_metrics=["mae"])
    sample_weight = np.linspace(0.0, 2.0, 10).astype(np.float32)
    first = weighted.fit(_X, _Y, batch_size=4, epochs=2, shuffle=False, verbose=0,
                         sample_weight=sample_weight)
    classes = _dense_model(tf, units=3, kernel=_KERNEL_3, activation="softmax")
    classes.compile(optimizer=tf.keras.optimizers.SGD(0.1),
                    loss="sparse_categorical_crossentropy", weighted_metrics=["accuracy"])
    second = classes.fit(_X, _CLASSES, batch_size=4, epochs=2, shuffle=False, verbose=0,
                         class_weight={0: 1.0, 1: 3.0, 2: 0.5})
    return [first.history, weighted.get_weights(), second.history, classes.get_weights()]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_validation_split_and_freq(tf):
    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    history = model.fit(_X, _Y, batch_size=3, epochs=4, shuffle=False, verbose=0,
                        validation_split=0.3, validation_freq=2)
    return [history.history, model.get_weights()]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_dataset_and_steps(tf):
    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    dataset = tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(4)
    history = model.fit(dataset, epochs=2, verbose=0, validation_data=dataset)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        capped = model.fit(_X, _Y, batch_size=2, epochs=2, steps_per_epoch=3, shuffle=False,
                           verbose=0)
    ran_out = [str(item.message) for item in caught if "ran out of data" in str(item.message)]
    later = model.fit(_X, _Y, batch_size=5, epochs=3, initial_epoch=1, shuffle=False,
                      verbose=0)
    return [history.history, capped.history, later.history, later.epoch, model.get_weights(),
            ran_out]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_evaluate_predict(tf):
    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse",
                  metrics=["mae", tf.keras.metrics.RootMeanSquaredError(name="rmse")])
    before = model.evaluate(_X, _Y, batch_size=3, verbose=0)
    model.fit(_X, _Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    return [before, model.evaluate(_X, _Y, verbose=0, return_dict=True),
            model.evaluate(_X, _Y, sample_weight=np.arange(10, dtype=np.float32), verbose=0),
            model.predict(_X, batch_size=3, verbose=0), model.predict_on_batch(_X[:2]),
            model.train_on_batch(_X[:4], _Y[:4]),
            model.train_on_batch(_X[:4], _Y[:4], return_dict=True),
            model.test_on_batch(_X, _Y), model.metrics_names, model.get_weights()]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_loss_only_evaluate_is_float(tf):
    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss=tf.keras.losses.Huber(0.5),
                  loss_weights=2.0)
    return [model.evaluate(_X, _Y, verbose=0), model.metrics_names,
            model.train_on_batch(_X, _Y), model.get_weights()]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_regularization_losses(tf):
    model = _dense_model(tf, kernel_regularizer=tf.keras.regularizers.L2(0.1))
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(_X, _Y, batch_size=5, epochs=2, shuffle=False, verbose=0)
    return [history.history, model.get_weights(), model.evaluate(_X, _Y, verbose=0)]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_early_stopping(tf):
    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(1.2), loss="mse")
    stopper = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1,
                                               restore_best_weights=True)
    history = model.fit(_X, _Y, batch_size=10, epochs=20, shuffle=False, verbose=0,
                        callbacks=[stopper])
    patient = _dense_model(tf)
    patient.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
    baseline = tf.keras.callbacks.EarlyStopping(monitor="loss", baseline=0.1, patience=2)
    second = patient.fit(_X, _Y, batch_size=10, epochs=10, shuffle=False, verbose=0,
                         callbacks=[baseline])
    return [history.history, stopper.stopped_epoch, stopper.best_epoch, stopper.best,
            model.get_weights(), second.history, baseline.stopped_epoch]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_learning_rate_callbacks(tf):
    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch, rate: rate * 0.5)
    history = model.fit(_X, _Y, batch_size=5, epochs=3, shuffle=False, verbose=0,
                        callbacks=[scheduler])
    plateau = _dense_model(tf)
    plateau.compile(optimizer=tf.keras.optimizers.SGD(1.5), loss="mse")
    reducer = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1,
                                                   min_delta=0.0)
    second = plateau.fit(_X, _Y, batch_size=10, epochs=5, shuffle=False, verbose=0,
                         callbacks=[reducer])
    return [history.history, model.get_weights(), second.history,
            float(plateau.optimizer.learning_rate.numpy())]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_callback_hooks_order(tf):
    events = []

    class Recorder(tf.keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            events.append(("train_begin", sorted(logs or {})))

        def on_epoch_begin(self, epoch, logs=None):
            events.append(("epoch_begin", epoch))

        def on_train_batch_end(self, batch, logs=None):
            events.append(("batch_end", batch, sorted(logs)))

        def on_test_begin(self, logs=None):
            events.append(("test_begin",))

        def on_epoch_end(self, epoch, logs=None):
            events.append(("epoch_end", epoch, logs))

        def on_train_end(self, logs=None):
            events.append(("train_end", logs))

    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    model.fit(_X, _Y, batch_size=6, epochs=2, shuffle=False, verbose=0, callbacks=[Recorder()],
              validation_data=(_X[:3], _Y[:3]))
    return events


@case
def case_keras_fit_model_checkpoint_files(tf):
    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(1.5), loss="mse")
    with tempfile.TemporaryDirectory() as directory:
        every = tf.keras.callbacks.ModelCheckpoint(
            os.path.join(directory, "all", "w{epoch:02d}-{loss:.2f}.weights.h5"),
            save_weights_only=True)
        best = tf.keras.callbacks.ModelCheckpoint(
            os.path.join(directory, "best{epoch}.weights.h5"), monitor="loss",
            save_best_only=True, save_weights_only=True)
        batches = tf.keras.callbacks.ModelCheckpoint(
            os.path.join(directory, "steps", "e{epoch}-b{batch}.weights.h5"),
            save_weights_only=True, save_freq=3)
        model.fit(_X, _Y, batch_size=10, epochs=4, shuffle=False, verbose=0,
                  callbacks=[every, best])
        model.fit(_X, _Y, batch_size=2, epochs=2, shuffle=False, verbose=0,
                  callbacks=[batches])
        return [sorted(os.listdir(os.path.join(directory, "all"))),
                sorted(name for name in os.listdir(directory) if name not in ("all", "steps")),
                sorted(os.listdir(os.path.join(directory, "steps")))]


@case(same_message=True)
def case_keras_fit_checkpoint_needs_weights_suffix(tf):
    return tf.keras.callbacks.ModelCheckpoint("weights.h5", save_weights_only=True)


def _masked_output(run) -> str:
    """What ``run()`` prints, with the timings masked (they differ from run to run) and the
    progress bar's redraws reduced to their last state."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        run()
    text = re.sub(r"\d+(\.\d+)?(s|ms|us)/step", "T/step", buffer.getvalue())
    text = re.sub(r"\x1b\[1m\d+(:\d+)*s\x1b\[0m", "\x1b[1mTs\x1b[0m", text)
    text = re.sub(r" - \d+s - ", " - Ts - ", text)
    lines = [re.split(r"\x08*\r", line)[-1].rstrip(" ") for line in text.split("\n")]
    return "\n".join(lines)


@case
def case_keras_fit_progress_bar_text(tf):
    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    return [_masked_output(lambda: model.fit(_X, _Y, batch_size=4, epochs=2, shuffle=False,
                                             validation_data=(_X, _Y))),
            _masked_output(lambda: model.fit(_X, _Y, batch_size=4, epochs=2, shuffle=False,
                                             verbose=2)),
            _masked_output(lambda: model.fit(_X, _Y, batch_size=20, shuffle=False, verbose=0)),
            _masked_output(lambda: model.evaluate(_X, _Y, batch_size=4)),
            _masked_output(lambda: model.evaluate(_X, _Y, verbose=2)),
            _masked_output(lambda: model.predict(_X, batch_size=4)),
            _masked_output(lambda: model.fit(_X, _Y, batch_size=4, epochs=1, shuffle=False))]


@case(same_message=True)
def case_keras_fit_before_compile(tf):
    return _dense_model(tf).fit(_X, _Y, verbose=0)


@case(same_message=True)
def case_keras_fit_unknown_optimizer(tf):
    return _dense_model(tf).compile(optimizer="no_such_optimizer", loss="mse")


@case(same_message=True)
def case_keras_fit_without_loss(tf):
    model = _dense_model(tf)
    model.compile(optimizer="sgd")
    return model.fit(_X, _Y, verbose=0)


@case
def case_keras_fit_dataset_with_y(tf):
    model = _dense_model(tf)
    model.compile(optimizer="sgd", loss="mse")
    dataset = tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(4)
    try:
        model.fit(dataset, _Y, verbose=0)
    except ValueError:
        return "ValueError"
    return "no error"


def _signature(function) -> str:
    """The parameters and defaults of ``function`` (type hints left out)."""
    signature = inspect.signature(function)
    parameters = [parameter.replace(annotation=inspect.Parameter.empty)
                  for parameter in signature.parameters.values()]
    return str(signature.replace(parameters=parameters,
                                 return_annotation=inspect.Signature.empty))


@case
def case_keras_loss_signatures(tf):
    losses = tf.keras.losses
    return {name: _signature(getattr(losses, name).__init__) for name in (
        "Loss", "MeanSquaredError", "Huber", "CosineSimilarity", "BinaryCrossentropy",
        "CategoricalCrossentropy", "SparseCategoricalCrossentropy", "KLDivergence")} | {
        name: _signature(getattr(losses, name)) for name in (
            "mse", "huber", "binary_crossentropy", "categorical_crossentropy",
            "sparse_categorical_crossentropy", "cosine_similarity")}


@case
def case_keras_metric_signatures(tf):
    metrics = tf.keras.metrics
    return {name: _signature(getattr(metrics, name).__init__) for name in (
        "Metric", "Mean", "Sum", "MeanMetricWrapper", "BinaryAccuracy", "Accuracy",
        "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy", "BinaryCrossentropy",
        "CategoricalCrossentropy", "SparseCategoricalCrossentropy", "Precision", "Recall",
        "TruePositives", "RootMeanSquaredError", "CosineSimilarity")} | {
        name: _signature(getattr(metrics, name)) for name in (
            "binary_accuracy", "sparse_top_k_categorical_accuracy",
            "top_k_categorical_accuracy")}


@case
def case_keras_fit_trainer_and_callback_signatures(tf):
    model = _dense_model(tf)
    callbacks = tf.keras.callbacks
    result = {name: _signature(getattr(model, name)) for name in (
        "compile", "fit", "evaluate", "predict", "train_on_batch", "test_on_batch",
        "predict_on_batch")}
    result.update({name: _signature(getattr(callbacks, name).__init__) for name in (
        "EarlyStopping", "ModelCheckpoint", "LearningRateScheduler", "ReduceLROnPlateau",
        "LambdaCallback", "TerminateOnNaN", "CallbackList", "History")})
    return result


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_functional_two_inputs(tf):
    first = tf.keras.Input(shape=(3,), name="first")
    second = tf.keras.Input(shape=(2,), name="second")
    joined = tf.keras.layers.Concatenate()([first, second])
    output = tf.keras.layers.Dense(2)(joined)
    model = tf.keras.Model([first, second], output)
    model.set_weights([np.concatenate([_KERNEL, _KERNEL[:2]]), np.zeros(2, np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    inputs = [_X, _Y]
    history = model.fit(inputs, _Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    as_dict = model.evaluate({"first": _X, "second": _Y}, _Y, verbose=0)
    return [history.history, model.get_weights(), as_dict,
            model.predict(inputs, batch_size=3, verbose=0)]


@case
def case_keras_fit_terminate_on_nan(tf):
    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(1e18), loss="mse")
    history = []
    text = _masked_output(lambda: history.append(model.fit(
        _X, _Y, batch_size=2, epochs=3, shuffle=False, verbose=0,
        callbacks=[tf.keras.callbacks.TerminateOnNaN()])))
    return [text, len(history[0].history["loss"])]


@case(rtol=1e-5, atol=1e-6)
def case_keras_metric_auc(tf):
    metrics = tf.keras.metrics
    y_true = np.array([0, 1, 1, 0, 1, 0, 1, 1], np.float32)
    y_pred = np.array([0.13, 0.84, 0.41, 0.62, 0.77, 0.08, 0.29, 0.93], np.float32)
    weights = np.array([1.0, 2.0, 0.5, 1.0, 1.0, 3.0, 1.0, 0.0], np.float32)
    results = {}
    for curve in ("ROC", "PR", "PRGAIN"):
        for summation in ("interpolation", "minoring", "majoring"):
            metric = metrics.AUC(num_thresholds=50, curve=curve, summation_method=summation,
                                 name="auc")
            results[f"{curve}-{summation}"] = _two_batches(metric, (y_true, y_pred),
                                                           (y_true, y_pred, weights))
    results["thresholds"] = metrics.AUC(thresholds=[0.3, 0.6], name="a")(y_true, y_pred).numpy()
    results["logits"] = metrics.AUC(from_logits=True, name="a")(y_true, y_pred * 4 - 2).numpy()
    labels = np.stack([y_true, 1 - y_true], axis=1)
    scores = np.stack([y_pred, y_pred[::-1]], axis=1)
    results["multi_label"] = [
        metrics.AUC(multi_label=True, name="a")(labels, scores).numpy(),
        metrics.AUC(multi_label=True, label_weights=[1.0, 3.0], name="a")(labels,
                                                                         scores).numpy(),
        metrics.AUC(label_weights=[1.0, 3.0], name="a")(labels, scores).numpy(),
        metrics.AUC(multi_label=True, num_labels=2, curve="PR", name="a")(labels,
                                                                          scores).numpy()]
    results["variables"] = [v.name for v in metrics.AUC(name="a").variables]
    return results


@case(same_message=True)
def case_keras_metric_auc_bad_curve(tf):
    return tf.keras.metrics.AUC(curve="Roc")


def _squared_error_sum(y_true, y_pred):
    """A plain loss function: the sum of the two columns' squared errors."""
    squared = (y_true - y_pred) ** 2
    return squared[..., 0] + squared[..., 1]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_custom_loss_metric_and_subclassed_model(tf):
    class Scaled(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(2)

        def call(self, inputs):
            return self.dense(inputs) * 0.5

    def absolute_total(y_true, y_pred):
        return tf.reduce_sum(tf.abs(y_true - y_pred), axis=-1)

    class HalfSquare(tf.keras.losses.Loss):
        def call(self, y_true, y_pred):
            return tf.reduce_mean(tf.square(y_true - y_pred), axis=-1) / 2

    model = Scaled()
    model(_X[:1])
    model.set_weights([_KERNEL, np.zeros(2, np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss=_squared_error_sum,
                  metrics=[absolute_total, HalfSquare(name="half")])
    first = model.fit(_X, _Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss=HalfSquare(reduction="sum"))
    second = model.fit(_X, _Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    return [first.history, second.history, model.get_weights()]


def _two_output_model(tf):
    inputs = tf.keras.Input(shape=(3,))
    regression = tf.keras.layers.Dense(2, name="reg")(inputs)
    classes = tf.keras.layers.Dense(1, activation="sigmoid", name="cls")(inputs)
    model = tf.keras.Model(inputs, [regression, classes])
    model.set_weights([_KERNEL, np.zeros(2, np.float32), _KERNEL[:, :1], np.zeros(1, np.float32)])
    return model


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_two_outputs(tf):
    labels = (_CLASSES > 0).astype(np.float32).reshape(-1, 1)
    model = _two_output_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss=["mse", "binary_crossentropy"],
                  loss_weights=[1.0, 0.5], metrics=[["mae"], ["accuracy"]])
    first = model.fit(_X, [_Y, labels], batch_size=5, epochs=2, shuffle=False, verbose=0)
    evaluated = [model.evaluate(_X, [_Y, labels], verbose=0), model.metrics_names,
                 model.evaluate(_X, [_Y, labels], verbose=0, return_dict=True)]
    by_name = _two_output_model(tf)
    by_name.compile(optimizer=tf.keras.optimizers.SGD(0.1),
                    loss={"reg": "mse", "cls": "binary_crossentropy"},
                    metrics={"cls": "accuracy"}, weighted_metrics={"reg": ["mae"]})
    second = by_name.fit(_X, [_Y, labels], batch_size=5, epochs=1, shuffle=False, verbose=0,
                         sample_weight=np.linspace(0, 1, 10))
    by_dict = by_name.fit(_X, {"reg": _Y, "cls": labels}, batch_size=5, epochs=1,
                          shuffle=False, verbose=0)
    shared = _two_output_model(tf)
    shared.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    third = shared.fit(_X, [_Y, labels], batch_size=10, epochs=1, shuffle=False, verbose=0)
    return [first.history, model.get_weights(), evaluated, second.history, by_dict.history,
            by_name.get_weights(), third.history, shared.predict(_X[:2], verbose=0)]


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_unbuilt_sequential(tf):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer="ones",
                                                       bias_initializer="zeros")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mae", metrics=["mse"])
    history = model.fit(_X, _Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return [history.history, model.get_weights()]


@case(rtol=1e-5, atol=1e-6)
def case_keras_loss_focal_dice_tversky(tf):
    losses = tf.keras.losses
    return {
        "binary_focal": _reduced(tf, losses.BinaryFocalCrossentropy, _LABELS, _PROBABILITIES),
        "binary_focal_options": [
            losses.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.4, gamma=1.5)(
                _LABELS, _PROBABILITIES).numpy(),
            losses.BinaryFocalCrossentropy(from_logits=True, label_smoothing=0.1)(
                _LABELS, _LOGITS).numpy()],
        "categorical_focal": _reduced(tf, losses.CategoricalFocalCrossentropy, _LABELS,
                                      _PROBABILITIES),
        "categorical_focal_logits": losses.CategoricalFocalCrossentropy(
            from_logits=True, alpha=0.5, gamma=1.0, label_smoothing=0.2)(_LABELS,
                                                                         _LOGITS).numpy(),
        "dice": [losses.Dice()(_LABELS, _PROBABILITIES).numpy(),
                 losses.Dice(axis=-1, reduction="none")(_LABELS, _PROBABILITIES).numpy(),
                 losses.dice(_LABELS, _PROBABILITIES, axis=0).numpy()],
        "tversky": [losses.Tversky(alpha=0.7, beta=0.3)(_LABELS, _PROBABILITIES).numpy(),
                    losses.Tversky(axis=-1, reduction="sum")(_LABELS, _PROBABILITIES).numpy()],
        "configs": [losses.BinaryFocalCrossentropy().get_config(),
                    losses.CategoricalFocalCrossentropy().get_config(),
                    losses.Dice().get_config(), losses.Tversky().get_config()],
        "signatures": [_signature(losses.Dice.__init__), _signature(losses.Tversky.__init__),
                       _signature(losses.BinaryFocalCrossentropy.__init__),
                       _signature(losses.binary_focal_crossentropy)],
    }


@case
def case_keras_fit_csv_logger(tf):
    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "log.csv")
        model.fit(_X, _Y, batch_size=5, epochs=2, shuffle=False, verbose=0,
                  callbacks=[tf.keras.callbacks.CSVLogger(path, separator=";")])
        model.fit(_X, _Y, batch_size=5, epochs=1, shuffle=False, verbose=0,
                  validation_data=(_X, _Y),
                  callbacks=[tf.keras.callbacks.CSVLogger(path, append=True)])
        with open(path) as log:
            rows = [line.rstrip("\r\n").split(";" if ";" in line else ",") for line in log]
    return [[row[0] for row in rows], [len(row) for row in rows],
            [[float(value) for value in row[1:] if value != "NA"] for row in rows[1:]]]


@case(rtol=1e-5, atol=1e-6)
def case_keras_metric_fscore_and_r2(tf):
    metrics = tf.keras.metrics
    results = {}
    for average in (None, "micro", "macro", "weighted"):
        for threshold in (None, 0.3):
            results[f"f1-{average}-{threshold}"] = _two_batches(
                metrics.F1Score(average=average, threshold=threshold), (_LABELS, _PROBABILITIES),
                (_LABELS, _PROBABILITIES[::-1], _WEIGHTS))
    results["fbeta"] = _two_batches(metrics.FBetaScore(beta=0.5, average="macro"),
                                    (_LABELS, _PROBABILITIES), (_LABELS, _Y_PRED))
    for aggregation in ("uniform_average", "variance_weighted_average", None):
        results[f"r2-{aggregation}"] = _two_batches(
            metrics.R2Score(class_aggregation=aggregation), (_Y_TRUE[:2], _Y_PRED[:2]),
            (_Y_TRUE[2:], _Y_PRED[2:], _WEIGHTS[2:]))
    results["r2-adjusted"] = metrics.R2Score(num_regressors=2)(_Y, _Y * 0.5 + 0.1).numpy()
    return results


@case(same_message=True)
def case_keras_metric_fbeta_bad_beta(tf):
    return tf.keras.metrics.FBetaScore(beta=1)


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_early_stopping_auto_mode(tf):
    model = _dense_model(tf, units=3, kernel=_KERNEL_3, activation="softmax")
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy", "sparse_categorical_crossentropy"])
    by_accuracy = tf.keras.callbacks.EarlyStopping(monitor="val_accuracy", patience=1)
    by_error = tf.keras.callbacks.EarlyStopping(
        monitor="val_sparse_categorical_crossentropy", patience=2)
    history = model.fit(_X, _CLASSES, batch_size=5, epochs=8, shuffle=False, verbose=0,
                        validation_data=(_X[:5], _CLASSES[:5]),
                        callbacks=[by_accuracy, by_error])
    return [history.history, by_accuracy.stopped_epoch, by_error.stopped_epoch,
            by_accuracy.best, by_error.best]


@case(same_message=True)
def case_keras_fit_early_stopping_unknown_direction(tf):
    model = _dense_model(tf, units=1, kernel=_KERNEL[:, :1], activation="sigmoid")
    model.compile(optimizer="sgd", loss="binary_crossentropy",
                  metrics=[tf.keras.metrics.TruePositives(name="tp")])
    labels = (_CLASSES > 0).astype(np.float32)
    return model.fit(_X, labels, epochs=2, verbose=0, callbacks=[
        tf.keras.callbacks.EarlyStopping(monitor="tp")])


@case(rtol=1e-5, atol=1e-6)
def case_keras_metric_rate_at_constraint(tf):
    metrics = tf.keras.metrics
    y_true = np.array([0, 1, 1, 0, 1, 0, 1, 1], np.float32)
    y_pred = np.array([0.13, 0.84, 0.41, 0.62, 0.77, 0.08, 0.29, 0.93], np.float32)
    weights = np.array([1.0, 2.0, 0.5, 1.0, 1.0, 3.0, 1.0, 0.0], np.float32)
    results = {}
    for cls in (metrics.SensitivityAtSpecificity, metrics.SpecificityAtSensitivity,
                metrics.PrecisionAtRecall, metrics.RecallAtPrecision):
        results[cls.__name__] = [
            _two_batches(cls(0.6, name="m"), (y_true, y_pred), (y_true, y_pred, weights)),
            cls(0.8, num_thresholds=7, name="m")(y_true, y_pred).numpy(),
            cls(0.5, num_thresholds=1, name="m")(y_true, y_pred).numpy(),
            cls(0.5, class_id=1, name="m")(_LABELS, _PROBABILITIES).numpy()]
    return results


@case(rtol=1e-5, atol=1e-6)
def case_keras_metric_correlations(tf):
    metrics = tf.keras.metrics
    return {
        "pearson": _two_batches(metrics.PearsonCorrelation(), (_Y_TRUE[:2], _Y_PRED[:2]),
                                (_Y_TRUE[2:], _Y_PRED[2:], _WEIGHTS[2:])),
        "concordance": _two_batches(metrics.ConcordanceCorrelation(), (_Y_TRUE, _Y_PRED),
                                    (_Y_TRUE, _Y_PRED[::-1], _WEIGHTS)),
        "axis_0": [metrics.pearson_correlation(_Y_TRUE, _Y_PRED, axis=0).numpy(),
                   metrics.concordance_correlation(_Y_TRUE, _Y_PRED, axis=0).numpy()],
    }


@case(rtol=1e-5, atol=1e-6)
def case_keras_fit_steps_per_execution(tf):
    events = []

    class Recorder(tf.keras.callbacks.Callback):
        def on_train_batch_begin(self, batch, logs=None):
            events.append(("train_begin", batch))

        def on_train_batch_end(self, batch, logs=None):
            events.append(("train_end", batch, logs["loss"]))

        def on_test_batch_end(self, batch, logs=None):
            events.append(("test_end", batch))

        def on_predict_batch_end(self, batch, logs=None):
            events.append(("predict_end", batch, list(np.shape(logs["outputs"]))))

    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", steps_per_execution=2)
    history = model.fit(_X, _Y, batch_size=2, epochs=1, shuffle=False, verbose=0,
                        callbacks=[Recorder()], validation_data=(_X, _Y))
    evaluated = model.evaluate(_X, _Y, batch_size=4, verbose=0, callbacks=[Recorder()])
    predicted = model.predict(_X, batch_size=3, verbose=0, callbacks=[Recorder()])
    return [history.history, events, evaluated, predicted, model.get_weights()]


@case
def case_keras_fit_progress_bar_unknown_size(tf):
    model = _dense_model(tf)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    dataset = tf.data.Dataset.from_tensor_slices((_X, _Y)).filter(
        lambda x, y: x[0] > -10.0).batch(4)
    first = _masked_output(lambda: model.fit(dataset, epochs=2, verbose=1))
    return [first, int(dataset.cardinality())]


@case(rtol=1e-5, atol=1e-6)
def case_keras_metric_iou(tf):
    metrics = tf.keras.metrics
    labels = np.array([0, 1, 2, 2, 1, 0, 3, 2], np.int64)
    predictions = np.array([0, 2, 2, 1, 1, 0, 2, 5], np.int64)
    integer_weights = np.array([1, 2, 1, 1, 0, 3, 1, 1], np.int64)
    one_hot = np.eye(3, dtype=np.float32)[np.argmax(_LABELS, axis=-1)]
    return {
        "iou": _two_batches(metrics.IoU(4, [0, 2], name="iou"), (labels, predictions),
                            (labels, predictions, integer_weights)),
        "ignore": metrics.IoU(4, [1, 2], ignore_class=2, name="iou")(labels,
                                                                      predictions).numpy(),
        "mean": _two_batches(metrics.MeanIoU(4, name="m"), (labels, predictions),
                             (labels[::-1], predictions)),
        "binary": _two_batches(metrics.BinaryIoU(threshold=0.4, name="b"),
                               ((_CLASSES > 0).astype(np.float32), _X[:, 0] ** 2 / 3),
                               ((_CLASSES > 1).astype(np.float32), _X[:, 1] ** 2 / 3)),
        "one_hot": [metrics.OneHotIoU(3, [0, 1], name="o")(one_hot, _PROBABILITIES).numpy(),
                    metrics.OneHotMeanIoU(3, name="o")(one_hot, _LOGITS).numpy(),
                    metrics.MeanIoU(3, sparse_y_pred=False, name="o")(
                        np.argmax(_LABELS, axis=-1), _LOGITS).numpy()],
        "variables": [[v.name, v.numpy().dtype.name, list(v.shape)]
                      for v in metrics.MeanIoU(3, name="o").variables],
        "configs": [metrics.MeanIoU(3, name="o").get_config(),
                    metrics.BinaryIoU(name="b").get_config(),
                    metrics.OneHotIoU(3, [1], name="o").get_config()],
    }


@case(rtol=1e-5, atol=1e-6)
def case_keras_loss_generalized_cross_entropy(tf):
    losses = tf.keras.losses
    labels = np.argmax(_LABELS, axis=-1)
    return [_reduced(tf, losses.CategoricalGeneralizedCrossEntropy, labels, _PROBABILITIES),
            losses.CategoricalGeneralizedCrossEntropy(q=0.2)(labels, _PROBABILITIES).numpy(),
            losses.categorical_generalized_cross_entropy(labels, _PROBABILITIES, q=0.7).numpy(),
            losses.CategoricalGeneralizedCrossEntropy().get_config(),
            _signature(losses.CategoricalGeneralizedCrossEntropy.__init__)]


@case(same_message=True)
def case_keras_loss_generalized_cross_entropy_bad_q(tf):
    return tf.keras.losses.CategoricalGeneralizedCrossEntropy(q=1.5)
