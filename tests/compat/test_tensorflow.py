"""unigrad.compat.tensorflow: TensorFlow's names, dtypes, reprs and gradients on unigrad.

TensorFlow itself is not installed: results are checked against closed forms.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.compat.tensorflow as tf
import unigrad.compat.tensorflow.compat.v1 as tf1
from unigrad.compat.tensorflow._tensor import EagerTensor  # the concrete class of results


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


# ----------------------------------------------------------------------------- names, reprs

def test_every_exported_name_resolves():
    for module in (tf, tf.math, tf.nn, tf.random, tf.compat.v1):
        for name in module.__all__:
            assert getattr(module, name) is not None, (module.__name__, name)
    assert tf.compat.v1 is tf1 and tf1.Variable is tf.Variable


@pytest.mark.parametrize("module, name", [(tf, "contrib"), (tf.math, "reduce_median"),
                                          (tf.nn, "conv9d"), (tf.compat.v1, "no_such")])
def test_unknown_attribute_is_an_attribute_error_naming_it(module, name):
    with pytest.raises(AttributeError, match=name):
        getattr(module, name)


def test_tensor_reprs_and_str():
    assert repr(tf.constant(2.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=2.0>"
    assert repr(tf.constant([1.0, 2.0, 3.0])) == (
        "<tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 2., 3.], dtype=float32)>")
    assert repr(tf.constant(3)) == "<tf.Tensor: shape=(), dtype=int32, numpy=3>"
    assert str(tf.constant([1.0, 2.0])) == "tf.Tensor([1. 2.], shape=(2,), dtype=float32)"
    v = tf.Variable([1.0, 2.0, 3.0], name="w1")
    assert repr(v) == ("<tf.Variable 'w1:0' shape=(3,) dtype=float32, "
                       "numpy=array([1., 2., 3.], dtype=float32)>")
    assert repr(tf.Variable(1.0)) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>"


def test_constant_dtype_rules_and_shape():
    assert tf.constant(1.0).dtype is tf.float32 and tf.constant(1).dtype is tf.int32
    assert tf.constant(np.array([1.0])).dtype is tf.float64
    assert tf.constant(True).dtype is tf.bool
    assert tf.constant([1, 2], dtype=tf.float64).dtype is tf.float64
    assert tf.constant(7.0, shape=[2, 3]).numpy().tolist() == [[7.0] * 3] * 2
    assert tf.constant([1, 2, 3, 4], shape=(2, 2)).numpy().tolist() == [[1, 2], [3, 4]]
    with pytest.raises(TypeError, match="unsupported shape"):
        tf.constant([1, 2, 3], shape=(2, 2))
    with pytest.raises(TypeError, match="Cannot convert 1.5"):
        tf.constant(1.5, dtype=tf.int32)
    with pytest.raises(TypeError):
        tf.constant("text")


def test_numpy_returns_copies_and_scalars():
    t = tf.constant([1.0, 2.0])
    array = t.numpy()
    array[0] = 99.0
    assert t.numpy().tolist() == [1.0, 2.0]
    assert isinstance(tf.constant(2.0).numpy(), np.float32)
    with pytest.raises(TypeError, match="does not support item assignment"):
        t[0] = 5.0


def test_ops_return_tf_tensors_and_python_scalars_take_the_tensor_dtype():
    x = tf.constant([1.0, 2.0])
    assert type(x * 2) is EagerTensor and type(tf.add(x, 1)) is EagerTensor
    assert tf.add(x, 1).dtype is tf.float32
    assert tf.add(1, 2).dtype is tf.int32 and tf.add(1, 2).numpy() == 3
    assert type(tf.convert_to_tensor(ug.tensor([1.0]))) is EagerTensor
    assert tf.convert_to_tensor(x) is x
    with pytest.raises(ValueError, match="requested dtype float64"):
        tf.convert_to_tensor(x, dtype=tf.float64)


# ----------------------------------------------------------------------------- math

MATH = [("sqrt", np.sqrt, lambda x: 0.5 / np.sqrt(x)), ("exp", np.exp, np.exp),
        ("log", np.log, lambda x: 1 / x), ("sin", np.sin, np.cos),
        ("cos", np.cos, lambda x: -np.sin(x)), ("tanh", np.tanh, lambda x: 1 - np.tanh(x) ** 2),
        ("square", np.square, lambda x: 2 * x), ("abs", np.abs, np.sign),
        ("sigmoid", lambda x: 1 / (1 + np.exp(-x)),
         lambda x: np.exp(-x) / (1 + np.exp(-x)) ** 2)]


@pytest.mark.parametrize("name, f, df", MATH, ids=[m[0] for m in MATH])
def test_unary_math_value_and_gradient(name, f, df):
    data = np.array([0.3, 1.2, 2.5])
    x = tf.constant(data)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = getattr(tf.math, name)(x)
    np.testing.assert_allclose(y.numpy(), f(data), rtol=1e-12)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), df(data), rtol=1e-10)


def test_binary_math_and_reductions():
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    b = tf.constant([[2.0, 2.0], [1.0, 5.0]])
    assert tf.subtract(a, b).numpy().tolist() == [[-1.0, 0.0], [2.0, -1.0]]
    assert tf.multiply(a, b).numpy().tolist() == [[2.0, 4.0], [3.0, 20.0]]
    assert tf.divide(a, 2).numpy().tolist() == [[0.5, 1.0], [1.5, 2.0]]
    assert tf.pow(a, 2).numpy().tolist() == [[1.0, 4.0], [9.0, 16.0]]
    assert tf.maximum(a, b).numpy().tolist() == [[2.0, 2.0], [3.0, 5.0]]
    assert tf.minimum(a, b).numpy().tolist() == [[1.0, 2.0], [1.0, 4.0]]
    assert tf.reduce_sum(a).numpy() == 10.0
    assert tf.reduce_sum(a, axis=[0, 1]).numpy() == 10.0
    assert tf.reduce_mean(a, axis=0).numpy().tolist() == [2.0, 3.0]
    assert tf.reduce_max(a, axis=1, keepdims=True).numpy().tolist() == [[2.0], [4.0]]
    assert tf.reduce_min(a).numpy() == 1.0 and tf.reduce_prod(a).numpy() == 24.0
    assert tf.matmul(a, b, transpose_a=True).numpy().tolist() == \
        (np.array([[1, 2], [3, 4]]).T @ np.array([[2, 2], [1, 5]])).tolist()


def test_array_ops_and_creation():
    a = tf.constant([[1.0, 2.0, 3.0]])
    assert tf.reshape(a, [3, 1]).shape == (3, 1)
    assert tf.transpose(a).shape == (3, 1)
    assert tf.concat([a, a], axis=0).shape == (2, 3) and tf.stack([a, a], axis=1).shape == (1, 2, 3)
    assert tf.expand_dims(a, 0).shape == (1, 1, 3) and tf.squeeze(a).shape == (3,)
    with pytest.raises(ValueError, match="Can not squeeze dim\\[1\\]"):
        tf.squeeze(a, axis=1)
    assert tf.cast(tf.constant([1.7, -1.7]), tf.int32).numpy().tolist() == [1, -1]
    assert tf.ones([2]).dtype is tf.float32 and tf.zeros([2], tf.int32).dtype is tf.int32
    assert tf.ones_like(tf.constant([1, 2])).numpy().tolist() == [1, 1]
    assert tf.fill([2, 2], 3.0).numpy().tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert tf.range(5).dtype is tf.int32 and tf.range(2, 8, 3).numpy().tolist() == [2, 5]
    assert tf.linspace(0.0, 1.0, 5).numpy().tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    cond = tf.constant([True, False])
    assert tf.where(cond, [1.0, 2.0], [3.0, 4.0]).numpy().tolist() == [1.0, 4.0]
    with pytest.raises(ValueError, match="both be non-None"):
        tf.where(cond, [1.0, 2.0])
    x = tf.constant([1.0, 2.0])
    y = tf.identity(x)
    assert y is not x and y.numpy().tolist() == [1.0, 2.0]


def test_nn_namespace():
    x = tf.constant([[-1.0, 0.0, 2.0]])
    assert tf.nn.relu(x).numpy().tolist() == [[0.0, 0.0, 2.0]]
    np.testing.assert_allclose(tf.nn.softmax(x).numpy(),
                               np.exp([[-1, 0, 2]]) / np.exp([-1, 0, 2]).sum(), rtol=1e-6)
    labels = tf.constant([[0.0, 1.0, 0.0]])
    loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=x)
    assert loss.numpy()[0] == pytest.approx(np.log(np.exp([-1, 0, 2]).sum()), rel=1e-6)
    z = tf.constant([0.5])
    ce = tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1.0]), logits=z)
    assert ce.numpy()[0] == pytest.approx(np.log1p(np.exp(-0.5)), rel=1e-6)


def test_random_is_seeded():
    tf.random.set_seed(5)
    a = tf.random.normal([3], mean=1.0, stddev=0.1)
    u = tf.random.uniform([100], minval=2.0, maxval=3.0)
    tf.random.set_seed(5)
    assert np.array_equal(a.numpy(), tf.random.normal([3], mean=1.0, stddev=0.1).numpy())
    assert np.all((u.numpy() >= 2.0) & (u.numpy() < 3.0))
    with pytest.raises(ValueError, match="floating point"):
        tf.random.normal([2], dtype=tf.int32)


# ----------------------------------------------------------------------------- Variable

def test_variable_assign_family():
    v = tf.Variable([1.0, 2.0], name="v")
    assert v.trainable and v.name == "v:0" and v.requires_grad
    assert v.assign([5.0, 6.0]) is v and v.numpy().tolist() == [5.0, 6.0]
    v.assign_add([1.0, 1.0])
    v.assign_sub(tf.constant([0.5, 0.5]))
    assert v.numpy().tolist() == [5.5, 6.5]
    assert v.assign([0.0, 0.0], read_value=False) is None
    assert type(v.read_value()) is EagerTensor
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="dtype"):
        v.assign(tf.constant([1, 2]))
    assert not tf.Variable(1, name="step").requires_grad
    assert not tf.Variable(1.0, trainable=False).trainable
    with pytest.raises(ValueError, match="initial_value"):
        tf.Variable()


def test_tape_watches_trainable_variables_not_constants():
    v = tf.Variable(2.0)
    frozen = tf.Variable(5.0, trainable=False)
    c = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = v * c * frozen
    gv, gc, gf = tape.gradient(y, [v, c, frozen])
    assert type(gv) is EagerTensor and gv.numpy() == 15.0
    assert gc is None and gf is None
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * c
    assert tape.gradient(y, v) is None
    with tf.GradientTape() as tape:
        tape.watch(c)
        y = v * c
    grads = tape.gradient(y, {"v": v, "c": c})
    assert grads["v"].numpy() == 3.0 and grads["c"].numpy() == 2.0
    assert not c.requires_grad
    with tf.GradientTape() as tape:
        y = v * v
    assert tape.gradient(y, c, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy() == 0


def test_tape_is_single_use_unless_persistent_and_nests():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent"):
        tape.gradient(y, x)
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
        z = y * x
    assert tape.gradient(y, x).numpy() == 6.0 and tape.gradient(z, x).numpy() == 27.0
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = x ** 3
        dy = inner.gradient(y, x)
    assert dy.numpy() == 27.0 and outer.gradient(dy, x).numpy() == 18.0


def test_tape_jacobians_are_tf_tensors():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
    jac = tape.jacobian(y, x)
    assert type(jac) is EagerTensor and jac.numpy().tolist() == [[2.0, 0.0], [0.0, 4.0]]


# ----------------------------------------------------------------------------- gradients

def test_gradients_structure_grad_ys_and_unconnected():
    a = tf.Variable([1.0, 2.0])
    b = tf.Variable([3.0, 4.0])
    unused = tf.Variable(0.0)
    y1 = a * b
    y2 = a + a
    grads = tf.gradients([y1, y2], [a, b, unused])
    assert isinstance(grads, list) and len(grads) == 3 and grads[2] is None
    assert grads[0].numpy().tolist() == [5.0, 6.0] and grads[1].numpy().tolist() == [1.0, 2.0]
    assert all(type(g) is EagerTensor for g in grads[:2])
    seeded = tf.gradients(y1, a, grad_ys=tf.constant([10.0, 0.0]))
    assert seeded[0].numpy().tolist() == [30.0, 0.0]
    zero = tf.gradients(y1, [unused], unconnected_gradients="zero")
    assert zero[0].numpy() == 0.0
    partial = tf.gradients(y1 + a, [a], stop_gradients=[y1])
    assert partial[0].numpy().tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="grad_ys"):
        tf.gradients([y1, y2], [a], grad_ys=[tf.constant([1.0, 1.0])])
    with pytest.raises(ValueError, match="unconnected_gradients"):
        tf.gradients(y1, [a], unconnected_gradients="sometimes")
    with pytest.raises(TypeError):
        tf.gradients(y1, [1.0])


def test_v1_gradients_take_tf1_argument_order():
    a = tf.Variable(2.0)
    y = a * a
    assert tf1.gradients(y, [a], None, "gradients", True)[0].numpy() == 4.0


def test_stop_gradient_and_custom_gradient():
    w = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = w * tf.stop_gradient(w)
    assert tape.gradient(y, w).numpy() == 3.0

    @tf.custom_gradient
    def double_grad(x):
        def grad(dy):
            return dy * 2.0
        return tf.identity(x), grad

    with tf.GradientTape() as tape:
        y = double_grad(w) * 5.0
    assert type(y) is EagerTensor and tape.gradient(y, w).numpy() == 10.0


# ----------------------------------------------------------------------------- tf.function

def test_function_traces_per_signature_and_matches_eager():
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return tf.reduce_sum(tf.sin(x) * x)

    data = tf.constant([0.5, 1.5])
    out = f(data)
    assert type(out) is EagerTensor
    assert out.numpy() == pytest.approx(float(np.sum(np.sin([0.5, 1.5]) * [0.5, 1.5])), rel=1e-6)
    f(tf.constant([2.0, 3.0]))
    assert f.experimental_get_tracing_count() == 1 and len(calls) == 1
    f(tf.constant([1.0, 2.0, 3.0]))
    assert f.experimental_get_tracing_count() == 2
    g = tf.function(jit_compile=True)(lambda x: x * 2.0)
    assert g(tf.constant(2.0)).numpy() == 4.0


def test_function_assigns_variables_and_is_differentiable():
    v = tf.Variable(1.0)

    @tf.function
    def bump():
        v.assign_add(2.0)
        return v * 1.0

    assert bump().numpy() == 3.0 and bump().numpy() == 5.0 and v.numpy() == 5.0

    @tf.function
    def loss(x):
        return tf.reduce_sum(v * x * x)

    with tf.GradientTape() as tape:
        value = loss(tf.constant([1.0, 2.0]))
    assert value.numpy() == 25.0 and tape.gradient(value, v).numpy() == 5.0


# ----------------------------------------------------------------------------- TF1

def test_get_variable_glorot_default_and_reuse():
    w = tf.get_variable("w", shape=[3, 5])
    limit = np.sqrt(6.0 / 8.0)
    assert w.dtype is tf.float32 and np.all(np.abs(w.numpy()) <= limit)
    assert w.name == "w:0" and tf.global_variables() == [w]
    with pytest.raises(ValueError, match="already exists"):
        tf.get_variable("w", shape=[3, 5])
    assert tf.get_variable("w", reuse=True) is w
    with pytest.raises(ValueError, match="does not exist"):
        tf.get_variable("nope", shape=[1], reuse=True)
    c = tf.get_variable("c", initializer=tf.constant([1.0, 2.0]))
    assert c.numpy().tolist() == [1.0, 2.0]
    z = tf.get_variable("z", shape=[2], initializer=lambda shape, dtype: np.zeros(shape))
    assert z.numpy().tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="do not specify shape"):
        tf.get_variable("bad", shape=[2], initializer=tf.constant([1.0, 2.0]))


def test_session_run_structures_and_initializer():
    w = tf1.get_variable("w", initializer=tf.constant([1.0, 2.0]))
    w.assign([9.0, 9.0])
    init = tf1.global_variables_initializer()
    with pytest.raises(ValueError, match="No default session"):
        init.run()
    with tf1.Session() as sess:
        assert tf1.get_default_session() is sess
        init.run()
        assert w.numpy().tolist() == [1.0, 2.0]
        fetched = sess.run({"a": [w * 2, (tf.constant(1),)], "init": init})
        assert fetched["a"][0].tolist() == [2.0, 4.0] and fetched["a"][1] == (1,)
        assert fetched["init"] is None and isinstance(fetched["a"][0], np.ndarray)
        with pytest.raises(TypeError, match="invalid type"):
            sess.run(None)
        with pytest.raises(TypeError, match="key of a feed_dict must be a graph tensor"):
            sess.run(w, feed_dict={w: [0.0, 0.0]})  # eager values are not fed
    assert tf1.get_default_session() is None
    with pytest.raises(RuntimeError, match="closed Session"):
        sess.run(w)


def test_tf_optimizers_is_keras_optimizers():
    assert tf.optimizers is tf.keras.optimizers and "optimizers" in tf.__all__
    w = tf.Variable([1.0, 2.0])
    tf.optimizers.SGD(learning_rate=0.5).apply_gradients([(tf.constant([1.0, 1.0]), w)])
    assert w.numpy().tolist() == [0.5, 1.5]
