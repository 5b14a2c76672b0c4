"""TensorFlow cases: ``tf.keras`` layers and models (see tensorflow_cases.py for the
conventions).

Layers get fixed weights (``set_weights`` with arrays from
``np.random.default_rng(0)``), so outputs and gradients are comparable with
Keras'; names are given explicitly or counted after ``clear_session()``.
"""

from __future__ import annotations

import numpy as np

from . import case


def _random_weights(layer, seed: int = 0) -> list:
    """Give ``layer`` (built) normal weights of its shapes; returns them."""
    generator = np.random.default_rng(seed)
    weights = [generator.standard_normal(tuple(w.shape)).astype(np.float32) * 0.5
               for w in layer.weights]
    layer.set_weights(weights)
    return weights


def _inputs(shape, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _forward_and_gradients(tf, layer, x, **kwargs) -> list:
    """The layer's output on ``x`` and the gradients of ``sum(output ** 2)``."""
    with tf.GradientTape() as tape:
        output = layer(x, **kwargs)
        loss = tf.reduce_sum(output * output)
    gradients = tape.gradient(loss, layer.trainable_variables)
    return [output.numpy(), [g.numpy() for g in gradients]]


# ------------------------------------------------------------------------ Layer basics


@case(rtol=1e-5, atol=1e-6)
def case_keras_layer_dense_forward_gradients(tf):
    layer = tf.keras.layers.Dense(3, activation="tanh", name="dense_fixed")
    layer.build((None, 4))
    _random_weights(layer)
    result = _forward_and_gradients(tf, layer, _inputs((2, 4)))
    return result + [[(v.name, v.path, tuple(v.shape), v.trainable) for v in layer.weights],
                     layer.count_params(), layer.built]


@case
def case_keras_layer_auto_names(tf):
    tf.keras.backend.clear_session()
    names = [tf.keras.layers.Dense(1).name for _ in range(3)]
    names += [tf.keras.layers.BatchNormalization().name, tf.keras.layers.MaxPooling2D().name,
              tf.keras.layers.Conv2D(1, 1).name, tf.keras.layers.LSTM(1).name,
              tf.keras.layers.SimpleRNN(1).name, tf.keras.layers.GlobalAveragePooling2D().name]
    tf.keras.backend.clear_session()
    return names + [tf.keras.layers.Dense(1).name]


@case
def case_keras_layer_build_on_call(tf):
    layer = tf.keras.layers.Dense(2, name="lazy")
    before = [layer.built, len(layer.weights)]
    layer(np.ones((3, 5), np.float32))
    return before + [layer.built, [tuple(w.shape) for w in layer.weights],
                     layer(np.ones((1, 5))).dtype.name]


@case(same_message=True)
def case_keras_layer_set_weights_wrong_count(tf):
    layer = tf.keras.layers.Dense(2, name="dense")
    layer.build((None, 3))
    layer.set_weights([np.zeros((3, 2))])


@case(same_message=True)
def case_keras_layer_set_weights_wrong_shape(tf):
    layer = tf.keras.layers.Dense(2, name="dense")
    layer.build((None, 3))
    layer.set_weights([np.zeros((4, 2)), np.zeros(2)])


@case(same_message=True)
def case_keras_layer_count_params_unbuilt(tf):
    return tf.keras.layers.Dense(2, name="dense_unbuilt").count_params()


@case(same_message=True)
def case_keras_layer_dense_incompatible_input(tf):
    layer = tf.keras.layers.Dense(2, name="dense")
    layer(np.ones((1, 3), np.float32))
    return layer(np.ones((1, 4), np.float32))


@case(same_message=True)
def case_keras_layer_dense_bad_units(tf):
    return tf.keras.layers.Dense(0)


@case(same_message=True)
def case_keras_layer_unknown_keyword(tf):
    return tf.keras.layers.Dense(2, colour="red")


@case(rtol=1e-5)
def case_keras_layer_regularizer_losses(tf):
    layer = tf.keras.layers.Dense(2, kernel_regularizer=tf.keras.regularizers.L2(0.1),
                                  bias_regularizer="l1", bias_initializer="ones",
                                  name="regularized")
    layer.build((None, 3))
    _random_weights(layer)
    return [[loss.numpy() for loss in layer.losses], len(layer.losses)]


@case(rtol=1e-5)
def case_keras_layer_activity_regularizer_and_add_loss(tf):
    class Penalized(tf.keras.layers.Layer):
        def call(self, inputs):
            self.add_loss(tf.reduce_sum(inputs))
            return inputs * 2.0

    layer = Penalized(activity_regularizer=tf.keras.regularizers.L1(0.5), name="penalized")
    layer(np.array([[1.0, -2.0]], np.float32))
    first = [loss.numpy() for loss in layer.losses]
    layer(np.array([[3.0, 1.0]], np.float32))
    return [first, [loss.numpy() for loss in layer.losses]]


@case
def case_keras_layer_trainable_freeze(tf):
    layer = tf.keras.layers.BatchNormalization(name="bn")
    layer.build((None, 3))
    counts = [len(layer.trainable_weights), len(layer.non_trainable_weights),
              [v.trainable for v in layer.weights]]
    layer.trainable = False
    return counts + [len(layer.trainable_weights), len(layer.non_trainable_weights),
                     [v.trainable for v in layer.weights], layer.trainable]


@case
def case_keras_layer_custom_add_weight(tf):
    class Scale(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.factor = self.add_weight(shape=(input_shape[-1],), initializer="ones",
                                          name="factor")
            self.count = self.add_weight(shape=(), initializer="zeros", trainable=False,
                                         name="count", dtype="int32")

        def call(self, inputs, training=None):
            return inputs * self.factor * (2.0 if training else 1.0)

    layer = Scale(name="scale")
    out = layer(np.array([[1.0, 2.0]], np.float32))
    trained = layer(np.array([[1.0, 2.0]], np.float32), training=True)
    return [out.numpy(), trained.numpy(), [(v.path, v.dtype.name if hasattr(v.dtype, "name")
                                            else str(v.dtype), v.trainable)
                                           for v in layer.weights],
            len(layer.trainable_weights)]


@case
def case_keras_layer_dense_get_config(tf):
    config = tf.keras.layers.Dense(3, activation="relu", use_bias=False, name="cfg",
                                   kernel_regularizer="l2").get_config()
    return {key: config[key] for key in ("name", "trainable", "units", "activation",
                                         "use_bias", "kernel_initializer",
                                         "bias_initializer", "kernel_regularizer",
                                         "bias_regularizer", "dtype")}


# ------------------------------------------------------------------------ other layers


@case(rtol=1e-5, atol=1e-5)
def case_keras_layer_conv2d_valid_strided(tf):
    layer = tf.keras.layers.Conv2D(3, (3, 2), strides=(2, 1), activation="relu",
                                   name="conv")
    layer.build((None, 7, 6, 2))
    _random_weights(layer)
    return _forward_and_gradients(tf, layer, _inputs((2, 7, 6, 2))) + [
        [v.path for v in layer.weights], [tuple(v.shape) for v in layer.weights]]


@case(rtol=1e-5, atol=1e-5)
def case_keras_layer_conv2d_same_dilated_grouped(tf):
    same = tf.keras.layers.Conv2D(4, 3, strides=2, padding="same", name="same")
    same.build((None, 5, 6, 2))
    _random_weights(same)
    dilated = tf.keras.layers.Conv2D(2, 2, dilation_rate=2, padding="same", groups=2,
                                     name="dilated")
    dilated.build((None, 5, 5, 4))
    _random_weights(dilated, seed=3)
    return [_forward_and_gradients(tf, same, _inputs((1, 5, 6, 2))),
            _forward_and_gradients(tf, dilated, _inputs((1, 5, 5, 4), seed=2)),
            tuple(dilated.kernel.shape)]


@case(rtol=1e-5, atol=1e-5)
def case_keras_layer_conv1d_paddings(tf):
    results = []
    for padding in ("valid", "same", "causal"):
        layer = tf.keras.layers.Conv1D(2, 3, padding=padding, dilation_rate=2,
                                       name=f"conv_{padding}")
        layer.build((None, 7, 3))
        _random_weights(layer)
        results.append(_forward_and_gradients(tf, layer, _inputs((2, 7, 3))))
    return results


@case(rtol=1e-6, atol=1e-6)
def case_keras_layer_pooling(tf):
    x = _inputs((2, 5, 5, 3))
    layers = tf.keras.layers
    return [layers.MaxPooling2D()(x).numpy(),
            layers.MaxPooling2D(3, strides=2, padding="same")(x).numpy(),
            layers.AveragePooling2D(2)(x).numpy(),
            layers.AveragePooling2D(2, padding="same")(x).numpy(),
            layers.AveragePooling2D((3, 2), strides=(2, 3), padding="same")(x).numpy(),
            layers.GlobalAveragePooling2D()(x).numpy(),
            layers.GlobalAveragePooling2D(keepdims=True)(x).numpy(),
            layers.GlobalMaxPooling2D()(x).numpy(),
            layers.MaxPooling1D(2, padding="same")(x[:, 0]).numpy(),
            layers.AveragePooling1D(2, strides=1)(x[:, 0]).numpy(),
            layers.GlobalAveragePooling1D()(x[:, 0]).numpy()]


@case(rtol=1e-6)
def case_keras_layer_pooling_gradient(tf):
    x = tf.Variable(_inputs((1, 4, 4, 2)))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.keras.layers.MaxPooling2D()(x) * 2.0) + tf.reduce_sum(
            tf.keras.layers.AveragePooling2D(3, strides=2, padding="same")(x))
    return tape.gradient(y, x).numpy()


@case
def case_keras_layer_flatten_reshape_activation(tf):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 10.0
    layers = tf.keras.layers
    return [layers.Flatten()(x).numpy(), layers.Reshape((4, 3))(x).numpy(),
            layers.Reshape((-1, 2))(x).numpy().shape, layers.Activation("relu")(x).numpy(),
            layers.Flatten()(np.ones((2,), np.float32)).numpy()]


@case
def case_keras_layer_reshape_bad_size(tf):
    return tf.keras.layers.Reshape((5,))(np.ones((2, 6), np.float32))


@case
def case_keras_layer_dropout(tf):
    layer = tf.keras.layers.Dropout(0.25)
    x = np.ones((400, 50), np.float32)
    inference = layer(x).numpy()
    trained = layer(x, training=True).numpy()
    kept = trained != 0
    return [inference, sorted(set(np.round(trained, 4).ravel().tolist())),
            bool(0.7 < kept.mean() < 0.8), layer.rate]


@case(same_message=True)
def case_keras_layer_dropout_bad_rate(tf):
    return tf.keras.layers.Dropout(1.5)


@case(rtol=1e-6)
def case_keras_layer_embedding(tf):
    layer = tf.keras.layers.Embedding(5, 3, name="embed")
    layer.build()
    _random_weights(layer)
    ids = np.array([[0, 4, 1], [2, 2, 3]], np.int32)
    with tf.GradientTape() as tape:
        out = layer(ids)
        loss = tf.reduce_sum(out * out)
    gradient = tape.gradient(loss, layer.embeddings)
    return [out.numpy(), tf.convert_to_tensor(gradient).numpy(), layer.embeddings.path,
            [tuple(w.shape) for w in layer.weights]]


@case(rtol=1e-5, atol=1e-5)
def case_keras_layer_batch_normalization(tf):
    layer = tf.keras.layers.BatchNormalization(momentum=0.9, name="bn")
    layer.build((None, 3, 2))
    generator = np.random.default_rng(0)
    layer.set_weights([generator.uniform(0.5, 1.5, 2).astype(np.float32),
                       generator.standard_normal(2).astype(np.float32),
                       generator.standard_normal(2).astype(np.float32),
                       generator.uniform(0.5, 1.5, 2).astype(np.float32)])
    x = _inputs((4, 3, 2)) * 2.0 + 1.0
    trained = _forward_and_gradients(tf, layer, x, training=True)
    moving = [layer.moving_mean.numpy(), layer.moving_variance.numpy()]
    inference = layer(x).numpy()
    layer.trainable = False
    frozen = layer(x, training=True).numpy()
    return [trained, moving, inference, frozen, [v.path for v in layer.weights]]


@case(rtol=1e-5, atol=1e-5)
def case_keras_layer_layer_normalization(tf):
    layer = tf.keras.layers.LayerNormalization(name="ln")
    layer.build((None, 3, 4))
    _random_weights(layer)
    multi = tf.keras.layers.LayerNormalization(axis=[1, 2], epsilon=1e-5, name="ln_multi")
    multi.build((None, 3, 4))
    x = _inputs((2, 3, 4)) * 3.0
    return [_forward_and_gradients(tf, layer, x), multi(x).numpy(),
            [tuple(w.shape) for w in multi.weights], [v.path for v in layer.weights]]


@case(rtol=1e-5, atol=1e-6)
def case_keras_layer_merging(tf):
    a, b = _inputs((2, 3)), _inputs((2, 3), seed=2)
    layers = tf.keras.layers
    return [layers.Concatenate()([a, b]).numpy(), layers.Concatenate(axis=0)([a, b]).numpy(),
            layers.Add()([a, b, a]).numpy(), layers.Subtract()([a, b]).numpy(),
            layers.Multiply()([a, b]).numpy(), layers.Average()([a, b]).numpy(),
            layers.Maximum()([a, b]).numpy(), layers.Minimum()([a, b]).numpy()]


@case(same_message=True)
def case_keras_layer_merge_single_input(tf):
    return [tf.keras.layers.Add()([np.ones((1, 2), np.float32)]).numpy(),
            tf.keras.layers.Concatenate()([np.ones((1, 2), np.float32)]).numpy()]


# ------------------------------------------------------------------------ recurrent


def _recurrent(tf, layer, x, **kwargs):
    layer(x)
    _random_weights(layer)
    with tf.GradientTape() as tape:
        outputs = layer(x, **kwargs)
        flat = outputs if isinstance(outputs, (list, tuple)) else [outputs]
        loss = sum(tf.reduce_sum(item * item) for item in flat)
    gradients = tape.gradient(loss, layer.trainable_variables)
    return [[item.numpy() for item in flat], [g.numpy() for g in gradients],
            [(v.path, tuple(v.shape)) for v in layer.weights]]


@case(rtol=1e-5, atol=1e-5)
def case_keras_layer_simple_rnn(tf):
    x = _inputs((2, 4, 3))
    return [_recurrent(tf, tf.keras.layers.SimpleRNN(5, name="rnn"), x),
            _recurrent(tf, tf.keras.layers.SimpleRNN(2, return_sequences=True,
                                                     return_state=True, go_backwards=True,
                                                     activation="relu", name="rnn_b"), x)]


@case(rtol=1e-5, atol=1e-5)
def case_keras_layer_lstm(tf):
    x = _inputs((2, 4, 3))
    return [_recurrent(tf, tf.keras.layers.LSTM(5, name="lstm"), x),
            _recurrent(tf, tf.keras.layers.LSTM(2, return_sequences=True, return_state=True,
                                                name="lstm_b"), x)]


@case(rtol=1e-5, atol=1e-5)
def case_keras_layer_gru(tf):
    x = _inputs((2, 4, 3))
    return [_recurrent(tf, tf.keras.layers.GRU(5, name="gru"), x),
            _recurrent(tf, tf.keras.layers.GRU(2, return_sequences=True, return_state=True,
                                               name="gru_b"), x),
            _recurrent(tf, tf.keras.layers.GRU(3, reset_after=False, name="gru_c"), x)]


@case(rtol=1e-5, atol=1e-5)
def case_keras_layer_lstm_initial_state(tf):
    layer = tf.keras.layers.LSTM(2, return_state=True, name="lstm_s")
    x = _inputs((1, 3, 2))
    layer(x)
    _random_weights(layer)
    state = [np.full((1, 2), 0.5, np.float32), np.full((1, 2), -0.5, np.float32)]
    return [item.numpy() for item in layer(x, initial_state=state)] + [
        layer.cell.bias.numpy().shape]


@case
def case_keras_layer_lstm_default_bias(tf):
    layer = tf.keras.layers.LSTM(2, name="lstm_bias")
    layer(np.ones((1, 2, 3), np.float32))
    gru = tf.keras.layers.GRU(2, name="gru_bias")
    gru(np.ones((1, 2, 3), np.float32))
    return [layer.weights[2].numpy(), gru.weights[2].numpy()]


# ------------------------------------------------------------------------ initializers etc.


@case
def case_keras_layer_deterministic_initializers(tf):
    init = tf.keras.initializers
    return [init.Zeros()((2, 3)).numpy(), init.Ones()((2,)).numpy(),
            init.Constant(0.5)((2, 2)).numpy(), init.Identity(gain=3.0)((2, 3)).numpy(),
            init.get("ones")((1,)).numpy(), type(init.get("glorot_uniform")).__name__,
            type(init.get("he_normal")).__name__, init.Zeros()((2,), dtype="float64").numpy()]


@case
def case_keras_layer_random_initializer_shapes(tf):
    init = tf.keras.initializers
    result = []
    for initializer in (init.GlorotUniform(seed=1), init.GlorotNormal(seed=1),
                        init.HeNormal(seed=1), init.HeUniform(seed=1), init.LecunNormal(seed=1),
                        init.RandomNormal(seed=1), init.RandomUniform(seed=1),
                        init.TruncatedNormal(seed=1), init.Orthogonal(seed=1)):
        value = initializer((4, 3)).numpy()
        result.append([type(initializer).__name__, value.shape, value.dtype.name])
    return result


@case(same_message=True)
def case_keras_layer_initializer_unknown(tf):
    return tf.keras.initializers.get("no_such_init")


@case(rtol=1e-6)
def case_keras_layer_activations(tf):
    x = np.linspace(-4.0, 4.0, 9).astype(np.float32)
    act = tf.keras.activations
    names = ["relu", "sigmoid", "tanh", "softmax", "gelu", "elu", "selu", "softplus",
             "softsign", "swish", "silu", "leaky_relu", "linear", "exponential", "hard_sigmoid"]
    values = [np.asarray(act.get(name)(x)) for name in names]
    return values + [act.relu(x, negative_slope=0.1, max_value=2.0, threshold=1.0).numpy(),
                     act.gelu(x, approximate=True).numpy(), act.get("swish").__name__,
                     act.get(None).__name__]


@case(same_message=True)
def case_keras_layer_activation_unknown(tf):
    return tf.keras.activations.get("no_such_activation")


@case(rtol=1e-6)
def case_keras_layer_regularizers(tf):
    x = np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)
    reg = tf.keras.regularizers
    return [reg.L1(0.3)(x).numpy(), reg.L2(0.2)(x).numpy(),
            reg.L1L2(l1=0.1, l2=0.4)(x).numpy(), reg.l2()(x).numpy(), reg.l1_l2()(x).numpy(),
            reg.get("l1").get_config(), reg.L1L2(0.1, 0.2).get_config()]


# ------------------------------------------------------------------------ models


def _dense_stack(tf, name: str):
    return tf.keras.Sequential([tf.keras.Input((3,)),
                                tf.keras.layers.Dense(4, activation="relu", name="hidden"),
                                tf.keras.layers.Dense(2, name="output")], name=name)


def _summary_text(model) -> str:
    lines = []
    model.summary(print_fn=lines.append)
    return "".join(lines)


@case(rtol=1e-5, atol=1e-6)
def case_keras_model_sequential(tf):
    model = _dense_stack(tf, "stack")
    _random_weights(model)
    x = _inputs((5, 3))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x) ** 2)
    gradients = tape.gradient(loss, model.trainable_variables)
    return [model(x).numpy(), [g.numpy() for g in gradients],
            [v.path for v in model.weights], [layer.name for layer in model.layers],
            model.built, model.count_params(), [w.shape for w in model.get_weights()]]


@case
def case_keras_model_sequential_summary(tf):
    model = _dense_stack(tf, "stack")
    model.add(tf.keras.layers.BatchNormalization(name="norm"))
    return _summary_text(model)


@case
def case_keras_model_sequential_built_on_call(tf):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="first"),
                                 tf.keras.layers.Dense(1, name="second")], name="lazy_stack")
    built_before = model.built
    model(np.ones((4, 3), np.float32))
    return [built_before, model.built, [v.path for v in model.weights], _summary_text(model)]


@case
def case_keras_model_sequential_add_pop(tf):
    model = tf.keras.Sequential(name="grow")
    model.add(tf.keras.Input((2,)))
    model.add(tf.keras.layers.Dense(3, name="a"))
    model.add(tf.keras.layers.Dense(1, name="b"))
    names = [layer.name for layer in model.layers]
    popped = model.pop()
    return [names, popped.name, [layer.name for layer in model.layers],
            model(np.ones((2, 2), np.float32)).shape.as_list()]


@case(same_message=True)
def case_keras_model_sequential_pop_empty(tf):
    return tf.keras.Sequential().pop()


@case(same_message=True)
def case_keras_model_sequential_add_non_layer(tf):
    return tf.keras.Sequential().add(3)


@case(rtol=1e-5, atol=1e-6)
def case_keras_model_functional_multi_io(tf):
    left = tf.keras.Input((3,), name="left")
    right = tf.keras.Input((2,), name="right")
    shared = tf.keras.layers.Dense(4, activation="tanh", name="shared")
    joined = tf.keras.layers.Concatenate(name="join")([shared(left), right])
    first = tf.keras.layers.Dense(1, name="head_a")(joined)
    second = tf.keras.layers.Dense(2, name="head_b")(shared(left))
    model = tf.keras.Model(inputs=[left, right], outputs=[first, second], name="multi")
    _random_weights(model)
    x_left, x_right = _inputs((2, 3)), _inputs((2, 2), seed=2)
    with tf.GradientTape() as tape:
        out_a, out_b = model([x_left, x_right])
        loss = tf.reduce_sum(out_a) + tf.reduce_sum(out_b * out_b)
    gradients = tape.gradient(loss, model.trainable_variables)
    return [out_a.numpy(), out_b.numpy(), [g.numpy() for g in gradients],
            [layer.name for layer in model.layers], [v.path for v in model.weights],
            type(model).__name__, first.shape, list(joined.shape), _summary_text(model)]


@case
def case_keras_model_functional_summary_chain(tf):
    inputs = tf.keras.Input((8, 8, 1), name="image")
    x = tf.keras.layers.Conv2D(4, 3, padding="same", name="conv")(inputs)
    x = tf.keras.layers.MaxPooling2D(name="pool")(x)
    x = tf.keras.layers.Flatten(name="flat")(x)
    outputs = tf.keras.layers.Dense(3, name="logits")(x)
    model = tf.keras.Model(inputs, outputs, name="cnn")
    return [_summary_text(model), [layer.name for layer in model.layers], outputs.shape]


@case
def case_keras_model_functional_dict_inputs(tf):
    a = tf.keras.Input((2,), name="a")
    b = tf.keras.Input((2,), name="b")
    total = tf.keras.layers.Add(name="sum")([a, b])
    model = tf.keras.Model(inputs={"a": a, "b": b}, outputs=total, name="dict_model")
    return model({"a": np.ones((1, 2), np.float32), "b": np.full((1, 2), 2.0, np.float32)})\
        .numpy()


@case
def case_keras_model_input_tensors(tf):
    x = tf.keras.Input(shape=(3,), name="features")
    y = tf.keras.Input(shape=(2,), batch_size=4, dtype="int32", name="ids")
    z = tf.keras.Input(batch_shape=(None, 5, 2), name="seq")
    return [x.shape, x.dtype, x.name, y.shape, y.dtype, z.shape,
            tf.keras.layers.Dense(2)(x).shape,
            tf.keras.layers.LSTM(3, return_sequences=True)(z).shape,
            tf.keras.layers.Embedding(10, 4)(y).shape]


@case(rtol=1e-5, atol=1e-6)
def case_keras_model_subclassed(tf):
    class TwoLayers(tf.keras.Model):
        def __init__(self):
            super().__init__(name="two_layers")
            self.hidden = tf.keras.layers.Dense(4, activation="relu", name="hidden")
            self.dropout = tf.keras.layers.Dropout(0.5, name="drop")
            self.out = tf.keras.layers.Dense(1, name="out")

        def call(self, inputs, training=False):
            return self.out(self.dropout(self.hidden(inputs), training=training))

    model = TwoLayers()
    x = _inputs((3, 2))
    model(x)
    _random_weights(model)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x) ** 2)
    gradients = tape.gradient(loss, model.trainable_variables)
    return [model(x).numpy(), [g.numpy() for g in gradients],
            [v.path for v in model.weights], [layer.name for layer in model.layers],
            _summary_text(model)]


@case(rtol=1e-5, atol=1e-6)
def case_keras_model_adam_training_step(tf):
    model = _dense_stack(tf, "trained")
    _random_weights(model)
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.1)
    x, y = _inputs((6, 3)), _inputs((6, 2), seed=4)
    losses = []
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        losses.append(loss.numpy())
    return [losses, model.get_weights()]


@case(rtol=1e-5, atol=1e-6)
def case_keras_model_tf_function_step(tf):
    model = _dense_stack(tf, "compiled")
    model(np.ones((1, 3), np.float32))
    _random_weights(model)
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.05)
    x, y = _inputs((4, 3)), _inputs((4, 2), seed=5)

    @tf.function
    def step(features, targets):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(features) - targets) ** 2)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss

    losses = [step(x, y).numpy() for _ in range(3)]
    return [losses, model.get_weights()]


@case(rtol=1e-5, atol=1e-6)
def case_keras_model_batchnorm_in_model(tf):
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(3, name="d"),
                                 tf.keras.layers.BatchNormalization(name="bn")], name="bnm")
    model.set_weights([np.abs(w) + 0.1 for w in _random_weights(model)])
    x = _inputs((5, 3))
    trained = model(x, training=True).numpy()
    return [trained, model(x).numpy(), [w for w in model.get_weights()],
            len(model.trainable_weights), len(model.non_trainable_weights)]


@case(same_message=True)
def case_keras_model_save_weights_bad_suffix(tf):
    return _dense_stack(tf, "saved").save_weights("/tmp/unigrad_keras_weights.h5")


@case
def case_keras_model_unbuilt_summary(tf):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="later")], name="unbuilt")
    return [_summary_text(model), model.built]


@case(rtol=1e-5, atol=1e-6)
def case_keras_model_build_inside_tf_function(tf):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="a"),
                                 tf.keras.layers.BatchNormalization(name="bn")], name="traced")

    @tf.function
    def forward(x):
        return model(x, training=True)

    x = _inputs((4, 3))
    first = forward(x)
    return [tuple(first.shape), [v.path for v in model.weights],
            model.get_layer("bn").moving_mean.numpy().shape, model.built]


@case(rtol=1e-5, atol=1e-6)
def case_keras_layer_nested_custom_layers(tf):
    class Block(tf.keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.first = tf.keras.layers.Dense(3, name="first")
            self.stack = [tf.keras.layers.Dense(3, name="inner_a"),
                          tf.keras.layers.Dense(2, name="inner_b")]

        def call(self, inputs):
            hidden = self.first(inputs)
            for layer in self.stack:
                hidden = layer(hidden)
            return hidden

    block = Block(name="block")
    x = _inputs((2, 4))
    block(x)
    _random_weights(block)
    return [block(x).numpy(), [v.path for v in block.weights],
            [v.name for v in block.weights], len(block.trainable_weights),
            hasattr(block, "layers")]


@case
def case_keras_layer_symbolic_input_output(tf):
    x = tf.keras.Input((3,), name="x_in")
    layer = tf.keras.layers.Dense(2, name="proj")
    y = layer(x)
    model = tf.keras.Model(x, y, name="io")
    return [layer.input.name, layer.output.shape, [t.name for t in model.inputs],
            [t.shape for t in model.outputs], model.input.name, model.output.shape]


@case
def case_keras_layer_more_configs(tf):
    conv = tf.keras.layers.Conv2D(4, 3, strides=2, padding="same", name="c").get_config()
    norm = tf.keras.layers.BatchNormalization(name="n").get_config()
    pool = tf.keras.layers.MaxPooling2D(name="p").get_config()
    return [{key: conv[key] for key in ("filters", "kernel_size", "strides", "padding",
                                        "dilation_rate", "groups", "activation",
                                        "data_format")},
            {key: norm[key] for key in ("axis", "momentum", "epsilon", "center", "scale")},
            {key: pool[key] for key in ("pool_size", "strides", "padding", "data_format")},
            tf.keras.layers.Dropout(0.3, name="d").get_config()["rate"],
            tf.keras.layers.Embedding(4, 2, name="e").get_config()["output_dim"]]


@case
def case_keras_model_summary_after_fit(tf):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, name="d")],
                                name="fitted")
    model.compile(optimizer=tf.keras.optimizers.Adam(0.1), loss="mse")
    before = _summary_text(model)
    model.fit(np.ones((4, 2), np.float32), np.ones((4, 1), np.float32), epochs=1, verbose=0)
    return [before, _summary_text(model)]


@case(rtol=1e-5, atol=1e-6)
def case_keras_model_functional_operators(tf):
    tf.keras.backend.clear_session()
    x = tf.keras.Input((3,), name="x_ops")
    hidden = tf.keras.layers.Dense(3, name="residual_dense")(x)
    residual = (hidden + x) * 0.5 - 1.0
    outputs = tf.keras.layers.Dense(2, name="ops_head")(2.0 / (1.0 + residual ** 2))
    model = tf.keras.Model(x, [outputs, residual[:, :2], -x], name="ops")
    _random_weights(model)
    results = model(_inputs((2, 3)))
    return [[r.numpy() for r in results], [layer.name for layer in model.layers],
            _summary_text(model), [tuple(t.shape) for t in model.outputs]]


@case(same_message=True)
def case_keras_layer_input_never_called(tf):
    return tf.keras.layers.Dense(2, name="never_called").input


@case(rtol=1e-5, atol=1e-5)
def case_keras_layer_recurrent_dropout_inference(tf):
    x = _inputs((2, 4, 3))
    lstm = tf.keras.layers.LSTM(3, dropout=0.2, recurrent_dropout=0.3, name="lstm_d")
    gru = tf.keras.layers.GRU(2, recurrent_dropout=0.5, reset_after=False, name="gru_d")
    return [_recurrent(tf, lstm, x), _recurrent(tf, gru, x),
            {key: lstm.get_config()[key] for key in ("dropout", "recurrent_dropout")}]
