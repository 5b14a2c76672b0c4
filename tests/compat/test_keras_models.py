"""``tf.keras.Model``/``Sequential``: weight files, graph errors, nesting and summaries (the
numbers are checked against Keras in tests/compat/recorded_cases/
tensorflow_keras_layers_cases.py)."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.tensorflow as tf
from unigrad.compat.tensorflow.keras._training import Trainer

keras = tf.keras


def _stack(name: str = "stack") -> keras.Sequential:
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="hidden"),
                             keras.layers.Dense(1, name="out")], name=name)


def test_save_and_load_weights_round_trip(tmp_path):
    model = _stack()
    path = tmp_path / "model.weights.h5"
    model.save_weights(path)
    saved = model.get_weights()
    model.set_weights([np.zeros_like(w) for w in saved])
    model.load_weights(path)
    for loaded, original in zip(model.get_weights(), saved):
        np.testing.assert_array_equal(loaded, original)


def test_weight_files_need_keras_suffix(tmp_path):
    with pytest.raises(ValueError, match=r"\.weights\.h5"):
        _stack().save_weights(tmp_path / "model.h5")
    with pytest.raises(ValueError, match=r"\.weights\.h5"):
        _stack().load_weights(tmp_path / "model.keras")


def test_load_weights_of_another_model_changes_nothing(tmp_path):
    path = tmp_path / "small.weights.h5"
    keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)]).save_weights(path)
    model = _stack()
    before = model.get_weights()
    with pytest.raises(ValueError, match="weights"):
        model.load_weights(path)
    for after, original in zip(model.get_weights(), before):
        np.testing.assert_array_equal(after, original)


def test_models_are_trainers_and_layers():
    inputs = keras.Input((2,))
    functional = keras.Model(inputs, keras.layers.Dense(1)(inputs))
    for model in (_stack(), functional):
        assert isinstance(model, Trainer) and isinstance(model, keras.layers.Layer)
    assert type(functional).__name__ == "Functional"


def test_functional_graph_errors():
    with pytest.raises(ValueError, match="keras.Input"):
        keras.Model(tf.ones((1, 2)), keras.layers.Dense(1)(keras.Input((2,))))
    used, unused = keras.Input((2,)), keras.Input((2,))
    with pytest.raises(ValueError, match="disconnected"):
        keras.Model([used, unused], keras.layers.Dense(1)(used))
    with pytest.raises(ValueError, match="expects 2 input"):
        a, b = keras.Input((1,)), keras.Input((1,))
        keras.Model([a, b], keras.layers.Add()([a, b]))(np.ones((1, 1), np.float32))


def test_models_nest_as_layers():
    inner = _stack("inner")
    inputs = keras.Input((3,))
    outer = keras.Model(inputs, keras.layers.Dense(2, name="head")(inner(inputs)))
    x = np.ones((4, 3), np.float32)
    assert outer(x).shape == (4, 2)
    assert len(outer.weights) == 6
    np.testing.assert_allclose(outer(x), outer.get_layer("head")(inner(x)), rtol=1e-6)


def test_sequential_from_input_shape_argument():
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(4,), name="first")])
    assert model.built and model.count_params() == 10
    assert model.get_layer(index=0).name == "first"
    with pytest.raises(ValueError, match="No such layer"):
        model.get_layer("missing")


def test_subclassed_build_creates_weights():
    class Single(keras.Model):
        def __init__(self):
            super().__init__(name="single")
            self.dense = keras.layers.Dense(3, name="dense")

        def call(self, inputs):
            return self.dense(inputs)

    model = Single()
    model.build((None, 4))
    assert [v.path for v in model.weights] == ["single/dense/kernel", "single/dense/bias"]


def test_summary_prints_what_print_fn_receives(capsys):
    model = _stack()
    lines = []
    model.summary(print_fn=lines.append)
    model.summary()
    assert capsys.readouterr().out == "".join(lines)
    assert "Total params: 11 (44.00 B)" in lines[0]


def test_training_step_with_optimizer_reduces_loss():
    model = _stack()
    optimizer = keras.optimizers.Adam(learning_rate=0.05)
    x = np.random.default_rng(0).standard_normal((16, 3)).astype(np.float32)
    y = x.sum(axis=1, keepdims=True)
    losses = []
    for _ in range(20):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        losses.append(float(loss))
    assert losses[-1] < losses[0] * 0.5
