"""``tf.keras.layers``, initializers, activations and regularizers: what the recorded cases
(tests/compat/recorded_cases/tensorflow_keras_layers_cases.py) cannot check, such as
random statistics, state left unchanged on errors, and symbolic calls."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.tensorflow as tf

keras = tf.keras


# ------------------------------------------------------------------------ initializers


@pytest.mark.parametrize(("initializer", "low", "high"), [
    (keras.initializers.GlorotUniform(seed=0), -np.sqrt(6 / 90), np.sqrt(6 / 90)),
    (keras.initializers.HeUniform(seed=0), -np.sqrt(6 / 40), np.sqrt(6 / 40)),
    (keras.initializers.RandomUniform(-0.2, 0.3, seed=0), -0.2, 0.3),
])
def test_uniform_initializers_fill_their_range(initializer, low, high):
    values = initializer((40, 50)).numpy()
    assert values.dtype == np.float32 and values.shape == (40, 50)
    assert values.min() >= low and values.max() <= high
    assert values.min() < low * 0.95 and values.max() > high * 0.95


@pytest.mark.parametrize(("initializer", "stddev"), [
    (keras.initializers.HeNormal(seed=1), np.sqrt(2 / 200)),
    (keras.initializers.GlorotNormal(seed=1), np.sqrt(2 / 300)),
    (keras.initializers.LecunNormal(seed=1), np.sqrt(1 / 200)),
    (keras.initializers.RandomNormal(stddev=0.3, seed=1), 0.3),
])
def test_normal_initializers_have_keras_standard_deviation(initializer, stddev):
    values = initializer((200, 100)).numpy()
    assert abs(values.std() - stddev) < 0.05 * stddev
    assert abs(values.mean()) < 0.05 * stddev


def test_truncated_normal_is_within_two_standard_deviations():
    values = keras.initializers.TruncatedNormal(mean=1.0, stddev=0.5, seed=3)((5000,)).numpy()
    assert values.min() >= 0.0 and values.max() <= 2.0
    assert abs(values.mean() - 1.0) < 0.02


def test_orthogonal_rows_or_columns_are_orthonormal():
    wide = keras.initializers.Orthogonal(gain=2.0, seed=0)((3, 5)).numpy()
    tall = keras.initializers.Orthogonal(seed=0)((6, 4)).numpy()
    np.testing.assert_allclose(wide @ wide.T, 4.0 * np.eye(3), atol=1e-5)
    np.testing.assert_allclose(tall.T @ tall, np.eye(4), atol=1e-5)


def test_seeded_initializers_repeat_and_global_seed_reproduces():
    first = keras.initializers.GlorotUniform(seed=7)((3, 3)).numpy()
    np.testing.assert_array_equal(first, keras.initializers.GlorotUniform(seed=7)((3, 3)))
    tf.random.set_seed(11)
    unseeded = keras.initializers.RandomNormal()((4,)).numpy()
    tf.random.set_seed(11)
    np.testing.assert_array_equal(unseeded, keras.initializers.RandomNormal()((4,)).numpy())


def test_initializer_argument_errors():
    with pytest.raises(ValueError, match="2D"):
        keras.initializers.Identity()((2, 2, 2))
    with pytest.raises(ValueError, match="scale"):
        keras.initializers.VarianceScaling(scale=0.0)
    with pytest.raises(ValueError, match="mode"):
        keras.initializers.VarianceScaling(mode="fan_sum")
    with pytest.raises(ValueError, match="identifier"):
        keras.initializers.get(3.5)


def test_regularizer_errors_and_get():
    with pytest.raises(ValueError, match="l2"):
        keras.regularizers.L2(-1.0)
    with pytest.raises(ValueError, match="identifier"):
        keras.regularizers.get("l3")
    assert keras.regularizers.get(None) is None
    assert keras.regularizers.l1_l2 is keras.regularizers.L1L2


# ------------------------------------------------------------------------ Layer state


def test_weights_are_tf_variables_with_keras_names():
    layer = keras.layers.Dense(2, kernel_initializer="ones", name="named")
    layer.build((None, 1))
    kernel = layer.kernel
    assert isinstance(kernel, tf.Variable)
    assert (kernel.name, kernel.path) == ("kernel", "named/kernel")
    assert repr(kernel) == "<Variable path=named/kernel, shape=(1, 2), dtype=float32, " \
                           "value=[[1. 1.]]>"


def test_set_weights_error_changes_nothing():
    layer = keras.layers.Dense(2, kernel_initializer="ones", name="atomic")
    layer.build((None, 3))
    with pytest.raises(ValueError, match="not compatible"):
        layer.set_weights([np.zeros((3, 2)), np.zeros(5)])
    np.testing.assert_array_equal(layer.kernel.numpy(), np.ones((3, 2)))


def test_symbolic_call_keeps_batch_statistics():
    layer = keras.layers.BatchNormalization(name="symbolic_bn")
    inputs = keras.Input((3,))
    outputs = layer(inputs, training=True)
    assert outputs.shape == (None, 3)
    np.testing.assert_array_equal(layer.moving_mean.numpy(), np.zeros(3))
    np.testing.assert_array_equal(layer.moving_variance.numpy(), np.ones(3))


def test_symbolic_shapes_keep_unknown_dimensions():
    sequence = keras.Input(batch_shape=(None, None, 4))
    outputs = keras.layers.GRU(3, return_sequences=True)(sequence)
    assert outputs.shape == (None, None, 3)
    assert keras.layers.Dense(5).compute_output_shape((None, 7, 2)) == (None, 7, 5)


def test_losses_restart_at_each_outer_call():
    class Counting(keras.layers.Layer):
        def call(self, inputs):
            self.add_loss(tf.reduce_sum(inputs))
            return inputs

    layer = Counting()
    layer(tf.ones((2,)))
    layer(tf.ones((3,)))
    assert [float(loss) for loss in layer.losses] == [3.0]


def test_training_flag_reaches_inner_layers():
    class Wrapper(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.dropout = keras.layers.Dropout(0.5)

        def call(self, inputs):
            return self.dropout(inputs)

    layer = Wrapper()
    np.testing.assert_array_equal(layer(np.ones((10,), np.float32)), np.ones(10))
    trained = layer(np.ones((1000,), np.float32), training=True).numpy()
    assert set(np.unique(trained)) == {0.0, 2.0}


def test_dropout_noise_shape_shares_the_mask():
    outputs = keras.layers.Dropout(0.5, noise_shape=(None, 1))(
        np.ones((50, 6), np.float32), training=True).numpy()
    assert all(len(set(row)) == 1 for row in outputs)


def test_frozen_layer_is_not_differentiated():
    layer = keras.layers.Dense(1, name="frozen")
    layer.build((None, 2))
    layer.trainable = False
    assert layer.trainable_variables == [] and not layer.kernel.trainable
    layer.trainable = True
    assert len(layer.trainable_variables) == 2


def test_layers_run_inside_tf_function():
    layer = keras.layers.Dense(2, kernel_initializer="ones", name="traced")
    layer.build((None, 2))

    @tf.function
    def forward(x):
        return layer(x) * 2.0

    np.testing.assert_array_equal(forward(tf.ones((1, 2))).numpy(), [[4.0, 4.0]])


def test_argument_errors():
    with pytest.raises(ValueError, match="groups"):
        keras.layers.Conv2D(3, 2, groups=2)
    with pytest.raises(ValueError, match="padding"):
        keras.layers.MaxPooling2D(padding="full")
    with pytest.raises(ValueError, match="trainable"):
        keras.layers.Dense(1, trainable="yes")
    with pytest.raises(NotImplementedError, match="mask_zero"):
        keras.layers.Embedding(3, 2, mask_zero=True)
    with pytest.raises(NotImplementedError, match="stateful"):
        keras.layers.LSTM(2, stateful=True)


def test_activations_get_and_serialize():
    assert keras.activations.get("swish") is keras.activations.silu
    assert keras.activations.serialize(keras.activations.get("relu")) == "relu"
    with pytest.raises(ValueError, match="identifier"):
        keras.activations.get("nope")


def test_layers_build_and_update_inside_tf_function():
    model = keras.Sequential([keras.layers.Dense(3, kernel_initializer="ones"),
                              keras.layers.BatchNormalization()])

    @tf.function
    def forward(x):
        return model(x, training=True)

    forward(tf.ones((2, 2)))
    forward(tf.ones((2, 2)))
    np.testing.assert_allclose(model.layers[1].moving_mean.numpy(),
                               np.full(3, 2.0 * (1 - 0.99 ** 2)), rtol=1e-5)


@pytest.mark.parametrize("layer", [
    keras.layers.Dense(3, activation="relu", kernel_regularizer="l2"),
    keras.layers.Conv2D(2, 3, strides=2, padding="same", bias_initializer="ones"),
    keras.layers.BatchNormalization(momentum=0.9),
    keras.layers.LayerNormalization(epsilon=1e-5),
    keras.layers.LSTM(2, return_sequences=True),
    keras.layers.GRU(2, reset_after=False),
    keras.layers.Embedding(4, 2),
    keras.layers.MaxPooling2D(3, padding="same"),
    keras.layers.Dropout(0.2),
])
def test_from_config_rebuilds_an_equal_config(layer):
    rebuilt = type(layer).from_config(layer.get_config())
    assert rebuilt.get_config() == layer.get_config()


def test_channels_first_equals_transposed_channels_last():
    x = np.random.default_rng(0).standard_normal((2, 6, 5, 3)).astype(np.float32)
    last = keras.layers.Conv2D(4, 3, strides=2, padding="same")
    first = keras.layers.Conv2D(4, 3, strides=2, padding="same", data_format="channels_first")
    last.build((None, 6, 5, 3))
    first.build((None, 3, 6, 5))
    first.set_weights(last.get_weights())
    np.testing.assert_allclose(first(x.transpose(0, 3, 1, 2)).numpy().transpose(0, 2, 3, 1),
                               last(x).numpy(), rtol=1e-5, atol=1e-6)
    pooled = keras.layers.AveragePooling2D(2, padding="same", data_format="channels_first")
    np.testing.assert_allclose(pooled(x.transpose(0, 3, 1, 2)).numpy().transpose(0, 2, 3, 1),
                               keras.layers.AveragePooling2D(2, padding="same")(x).numpy(),
                               rtol=1e-6)


def test_recurrent_layer_equals_its_cell_stepped():
    layer = keras.layers.GRU(3, return_sequences=True)
    x = np.random.default_rng(1).standard_normal((2, 4, 5)).astype(np.float32)
    outputs = layer(x).numpy()
    state = [tf.zeros((2, 3))]
    for step in range(4):
        output, state = layer.cell(x[:, step], state)
        np.testing.assert_allclose(output.numpy(), outputs[:, step], rtol=1e-6)


def test_recurrent_dropout_mask_is_shared_across_steps():
    layer = keras.layers.SimpleRNN(4, dropout=0.5, use_bias=False, activation="linear",
                                   kernel_initializer="identity", recurrent_initializer="zeros",
                                   return_sequences=True)
    outputs = layer(np.ones((3, 5, 4), np.float32), training=True).numpy()
    assert set(np.unique(outputs)) <= {0.0, 2.0}
    np.testing.assert_array_equal(outputs, np.broadcast_to(outputs[:, :1], outputs.shape))
    np.testing.assert_array_equal(layer(np.ones((3, 5, 4), np.float32)).numpy(),
                                  np.ones((3, 5, 4)))


@pytest.mark.parametrize("layer_class", [keras.layers.LSTM, keras.layers.GRU,
                                         keras.layers.SimpleRNN])
def test_recurrent_dropout_only_while_training(layer_class):
    plain = layer_class(3, return_sequences=True)
    dropped = layer_class(3, dropout=0.4, recurrent_dropout=0.3, return_sequences=True)
    x = np.random.default_rng(2).standard_normal((2, 4, 5)).astype(np.float32)
    plain(x)
    dropped(x)
    dropped.set_weights(plain.get_weights())
    np.testing.assert_allclose(dropped(x).numpy(), plain(x).numpy(), rtol=1e-6)
    assert not np.allclose(dropped(x, training=True).numpy(), plain(x).numpy())
    assert dropped.get_config()["recurrent_dropout"] == 0.3


def test_weight_constraints_are_refused_not_ignored():
    for make in (lambda: keras.layers.Dense(1, kernel_constraint="non_neg"),
                 lambda: keras.layers.Conv2D(1, 1, bias_constraint="non_neg"),
                 lambda: keras.layers.LSTM(1, recurrent_constraint="non_neg"),
                 lambda: keras.layers.BatchNormalization(gamma_constraint="non_neg")):
        with pytest.raises(NotImplementedError, match="constraint"):
            make()
