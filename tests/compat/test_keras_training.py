"""``Model.compile``/``fit``/``evaluate``/``predict`` and the callbacks: what the recorded
cases cannot show.

The numbers (losses, metrics, weights after each epoch, progress-bar text) are compared
with Keras 3.15 in the ``case_keras_fit_*`` recorded cases; here: nothing changes on bad
input, printing goes to standard output, checkpoints load back, shuffling covers the data.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import unigrad.compat.tensorflow as tf

X = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
Y = np.stack([X.sum(axis=1), X[:, 0] - X[:, 2]], axis=1)


def dense_model():
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])
    model.set_weights([np.full((3, 2), 0.1, np.float32), np.zeros(2, np.float32)])
    return model


def weights_of(model) -> list:
    return [weight.copy() for weight in model.get_weights()]


def test_a_bad_compile_keeps_the_previous_configuration():
    model = dense_model()
    model.compile(optimizer="sgd", loss="mse")
    optimizer = model.optimizer
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier: fast"):
        model.compile(optimizer="fast", loss="mae")
    assert model.optimizer is optimizer and model.loss == "mse"


def test_fit_with_mismatched_sample_counts_changes_nothing():
    model = dense_model()
    model.compile(optimizer="sgd", loss="mse")
    before = weights_of(model)
    with pytest.raises(ValueError, match="Data cardinality is ambiguous"):
        model.fit(X, Y[:5], verbose=0)
    for weight, original in zip(model.get_weights(), before):
        np.testing.assert_array_equal(weight, original)
    assert int(model.optimizer.iterations.numpy()) == 0


def test_fit_rejects_both_sample_and_class_weights():
    model = dense_model()
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match="`sample_weight` and `class_weight`"):
        model.train_on_batch(X, Y, sample_weight=np.ones(8), class_weight={0: 1.0})


def test_verbose_zero_prints_nothing_and_verbose_two_one_line_per_epoch(capsys):
    model = dense_model()
    model.compile(optimizer="sgd", loss="mse")
    model.fit(X, Y, epochs=2, verbose=0)
    assert capsys.readouterr().out == ""
    model.fit(X, Y, batch_size=4, epochs=2, verbose=2)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" - ")[0] for line in lines] == ["Epoch 1/2", "2/2", "Epoch 2/2", "2/2"]
    assert re.fullmatch(r"2/2 - \d+s - \d+(s|ms|us)/step - loss: \d+\.\d{4}", lines[1])


def test_shuffled_epochs_visit_every_sample_once_in_a_new_order():
    from unigrad.compat.tensorflow.keras._data_adapter import EpochIterator

    tf.random.set_seed(0)
    iterator = EpochIterator(X, Y, batch_size=3, shuffle=True)
    epochs = [np.concatenate([batch[0].numpy() for _, batch in iterator]) for _ in range(3)]
    for rows in epochs:
        assert sorted(map(tuple, rows)) == sorted(map(tuple, X))
    assert any(not np.array_equal(rows, epochs[0]) for rows in epochs[1:])
    assert [step for step, _ in iterator] == [0, 1, 2]


def test_model_checkpoint_weights_load_back(tmp_path):
    model = dense_model()
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    path = tmp_path / "model-{epoch}.weights.h5"
    model.fit(X, Y, epochs=2, verbose=0, callbacks=[
        tf.keras.callbacks.ModelCheckpoint(str(path), save_weights_only=True)])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model-1.weights.h5",
                                                          "model-2.weights.h5"]
    restored = dense_model()
    restored.load_weights(str(tmp_path / "model-2.weights.h5"))
    for weight, trained in zip(restored.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(weight, trained)


def test_early_stopping_restores_the_best_weights():
    model = dense_model()
    model.compile(optimizer=tf.keras.optimizers.SGD(1.5), loss="mse")  # diverges
    best = []
    model.fit(X, Y, batch_size=8, epochs=10, verbose=0, callbacks=[
        tf.keras.callbacks.LambdaCallback(
            on_epoch_begin=lambda epoch, logs: best.append(weights_of(model))),
        tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2,
                                         restore_best_weights=True)])
    history = model.history.history["loss"]
    assert len(history) < 10
    best_epoch = int(np.argmin(history))
    # the weights at the end of the best epoch are those at the start of the next one
    for weight, expected in zip(model.get_weights(), best[best_epoch + 1]):
        np.testing.assert_array_equal(weight, expected)


def test_terminate_on_nan_can_raise():
    model = dense_model()
    model.compile(optimizer=tf.keras.optimizers.SGD(1e18), loss="mse")
    with pytest.raises(RuntimeError, match="NaN or Inf loss encountered at batch"):
        model.fit(X, Y, batch_size=2, epochs=3, verbose=0,
                  callbacks=[tf.keras.callbacks.TerminateOnNaN(raise_error=True)])


def test_predict_on_a_dataset_returns_numpy():
    model = dense_model()
    dataset = tf.data.Dataset.from_tensor_slices(X).batch(3)
    predictions = model.predict(dataset, verbose=0)
    assert isinstance(predictions, np.ndarray) and predictions.dtype == np.float32
    np.testing.assert_allclose(predictions, X @ np.full((3, 2), 0.1), rtol=1e-6)


def test_an_unknown_metric_fails_before_any_update():
    model = dense_model()
    model.compile(optimizer="sgd", loss="mse", metrics=["no_such_metric"])
    before = weights_of(model)
    with pytest.raises(ValueError, match="Could not interpret metric identifier: no_such_metric"):
        model.fit(X, Y, verbose=0)
    for weight, original in zip(model.get_weights(), before):
        np.testing.assert_array_equal(weight, original)
    assert int(model.optimizer.iterations.numpy()) == 0


def test_epoch_and_train_hooks_get_their_logs_by_position():
    seen = []
    model = dense_model()
    model.compile(optimizer="sgd", loss="mse")
    model.fit(X, Y, epochs=1, verbose=0, callbacks=[tf.keras.callbacks.LambdaCallback(
        on_epoch_end=lambda number, values: seen.append((number, sorted(values))),
        on_train_end=lambda values: seen.append(sorted(values)))])
    assert seen == [(0, ["loss"]), ["loss"]]
