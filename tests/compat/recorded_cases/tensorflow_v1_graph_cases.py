"""TensorFlow cases: TensorFlow 1 graphs (``tf.compat.v1``): placeholders with unknown
dimensions, ``Session.run`` with ``feed_dict`` and nested fetches, graph tensors' text,
``tf.gradients`` of graph tensors (to second order, ``stop_gradients``, unconnected) and the
``train`` optimizers. Each case builds its own graph (``Graph().as_default()``).
Conventions: see ``tensorflow_cases.py``.
"""

from __future__ import annotations

import collections

import numpy as np

from . import case

_POINTS = np.array([[0.1], [0.5], [-0.3]], np.float32)


@case
def case_v1_placeholder_feeds_of_two_sizes(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[None, 2])
        total = tf.reduce_sum(x * 2.0, axis=1)
        with v1.Session() as sess:
            first = sess.run(total, feed_dict={x: [[1.0, 2.0], [3.0, 4.0]]})
            second = sess.run(total, feed_dict={x: np.ones((3, 2))})
        return [first, second, str(total), repr(x), total.shape.as_list()]


@case
def case_v1_graph_tensor_texts(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[None, 1])
        anything = v1.placeholder(tf.float32)
        c = tf.constant(2.0)
        w = tf.constant(np.ones((1, 3), np.float32))
        hidden = tf.tanh(tf.matmul(x, w) + 1.0)
        mean = tf.reduce_mean(tf.square(hidden))
        sliced = x[:, 0:1] * c
        flat = tf.reshape(x, [-1])
        joined = tf.concat([x, x], 1)
        size = tf.shape(x)
        tensors = [x, anything, c, hidden, mean, sliced, flat, joined, size]
        return ([str(t) for t in tensors] + [repr(t) for t in tensors]
                + [x.name, x.op.name, x.op.type, str(hidden.shape)])


@case
def case_v1_gradients_with_respect_to_tensors(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        a = tf.constant(0.0)
        b = 2.0 * a
        plain = v1.gradients(a + b, [a, b])
        stopped = v1.gradients(a + b, [a, b], stop_gradients=[a, b])
        with v1.Session() as sess:
            return sess.run([plain, stopped])


@case
def case_v1_gradients_second_order(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[None, 1])
        w = tf.Variable(np.array([[0.7, -1.2]], np.float32))
        v = tf.Variable(np.array([[0.5], [0.25]], np.float32))
        u = tf.matmul(tf.tanh(tf.matmul(x, w)), v)
        u_x = tf.gradients(u, x)[0]
        u_xx = tf.gradients(u_x, x)[0]
        residual = tf.reduce_mean(tf.square(u_xx - u))
        grads = tf.gradients(residual, [w, v])
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            return sess.run([u_x, u_xx, residual, grads], feed_dict={x: _POINTS})


@case
def case_v1_gradients_unconnected(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[2])
        c = tf.constant([1.0, 2.0])
        y = tf.reduce_sum(x * x)
        none = tf.gradients(y, [c])
        zero = tf.gradients(y, [c], unconnected_gradients="zero")
        with v1.Session() as sess:
            return [none, sess.run(zero, feed_dict={x: [1.0, 2.0]})]


@case
def case_v1_missing_feed(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[None, 1])
        with v1.Session() as sess:
            return sess.run(x * 2.0)


@case(same_message=True)
def case_v1_feed_of_wrong_shape(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[None, 1])
        with v1.Session() as sess:
            return sess.run(x * 2.0, feed_dict={x: [1.0, 2.0]})


@case
def case_v1_session_fetch_structures(tf):
    v1 = tf.compat.v1
    pair = collections.namedtuple("pair", "first second")
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[], name="x")
        doubled = tf.multiply(x, 2.0, name="doubled")
        with v1.Session() as sess:
            result = sess.run({"a": [doubled, (x,)], "b": pair(doubled, "x:0")},
                              feed_dict={"x:0": 1.5})
            return [result["a"], list(result["b"]), type(result["b"]).__name__]


def _train(tf, make_optimizer, steps: int = 3):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[None, 1])
        target = v1.placeholder(tf.float32, shape=[None, 1])
        w = tf.Variable(np.array([[0.3, -0.2]], np.float32))
        v = tf.Variable(np.array([[1.0], [0.5]], np.float32))
        step = tf.Variable(0, trainable=False, dtype=tf.int64)
        loss = tf.reduce_mean(tf.square(tf.matmul(tf.tanh(tf.matmul(x, w)), v) - target))
        train = make_optimizer(v1.train).minimize(loss, global_step=step)
        feed = {x: _POINTS, target: np.array([[1.0], [0.0], [0.5]], np.float32)}
        losses = []
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(steps):
                losses.append(sess.run([loss, train], feed_dict=feed)[0])
            return [losses, sess.run([w, v, step])]


@case
def case_v1_train_gradient_descent(tf):
    return _train(tf, lambda train: train.GradientDescentOptimizer(0.5))


@case
def case_v1_train_momentum_nesterov(tf):
    return _train(tf, lambda train: train.MomentumOptimizer(0.3, 0.9, use_nesterov=True))


@case
def case_v1_train_adam(tf):
    return _train(tf, lambda train: train.AdamOptimizer(0.1))


@case
def case_v1_train_rmsprop(tf):
    return _train(tf, lambda train: train.RMSPropOptimizer(0.05, momentum=0.5))


@case
def case_v1_train_adagrad(tf):
    return _train(tf, lambda train: train.AdagradOptimizer(0.3))


@case
def case_v1_compute_and_apply_gradients(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        w = tf.Variable(2.0)
        unused = tf.Variable(1.0)
        loss = w * w
        optimizer = v1.train.GradientDescentOptimizer(0.25)
        pairs = optimizer.compute_gradients(loss, var_list=[w, unused])
        apply = optimizer.apply_gradients(pairs)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            grads = sess.run([pairs[0][0]])
            sess.run(apply)
            return [grads, pairs[1][0] is None, sess.run(w), type(apply).__name__,
                    apply.type]


@case
def case_v1_variable_scopes(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        with v1.variable_scope("net"):
            with v1.variable_scope("layer", initializer=v1.constant_initializer(0.5)):
                w = v1.get_variable("w", shape=[2])
                plain = tf.Variable(1.0, name="plain")
            with v1.variable_scope("layer", reuse=True):
                again = v1.get_variable("w")
        with v1.variable_scope("net/layer", reuse=v1.AUTO_REUSE):
            auto = v1.get_variable("w")
            fresh = v1.get_variable("b", shape=[], initializer=v1.zeros_initializer())
        with v1.variable_scope(None, default_name="block"):
            first = v1.get_variable("k", shape=[], initializer=v1.ones_initializer())
        with v1.variable_scope(None, default_name="block"):
            second = v1.get_variable("k", shape=[], initializer=v1.ones_initializer())
        with v1.variable_scope("outer", reuse=True):
            inherited = v1.get_variable_scope().reuse
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = sess.run([w, fresh, first])
        return [w.name, plain.name, again is w, auto is w, fresh.name, first.name, second.name,
                inherited, values, [v.name for v in v1.global_variables()]]


@case(same_message=True)
def case_v1_variable_scope_reuse_missing(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        with v1.variable_scope("missing", reuse=True):
            v1.get_variable("nothing", shape=[1])


@case
def case_v1_placeholder_with_default(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        rate = v1.placeholder_with_default(0.5, shape=[])
        scaled = rate * 4.0
        with v1.Session() as sess:
            return [sess.run(scaled), sess.run(scaled, feed_dict={rate: 0.25}), str(rate)]


@case
def case_v1_initializer_defaults(tf):
    v1 = tf.compat.v1
    normal = v1.random_normal_initializer()
    uniform = v1.random_uniform_initializer()
    return [float(v1.constant_initializer(2.0)([2])[0]), list(v1.zeros_initializer()([2, 3]).shape),
            normal.stddev, uniform.minval, uniform.maxval,
            float(v1.ones_initializer()([1], dtype=tf.float64)[0])]


@case
def case_v1_softmax_regression_program(tf):
    v1 = tf.compat.v1
    rng = np.random.default_rng(0)
    features = rng.standard_normal((60, 4)).astype(np.float32)
    labels = np.eye(2, dtype=np.float32)[(features[:, 0] + features[:, 1] > 0).astype(int)]
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 4])
        y_ = v1.placeholder(tf.float32, [None, 2])
        w = tf.Variable(tf.zeros([4, 2]))
        b = tf.Variable(tf.zeros([2]))
        logits = tf.matmul(x, w) + b
        loss = tf.reduce_mean(v1.nn.softmax_cross_entropy_with_logits_v2(labels=y_,
                                                                         logits=logits))
        step = v1.train.GradientDescentOptimizer(0.5).minimize(loss)
        correct = tf.equal(tf.argmax(tf.nn.softmax(logits), 1), tf.argmax(y_, 1))
        accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for start in range(0, 60, 20):
                sess.run(step, feed_dict={x: features[start:start + 20],
                                          y_: labels[start:start + 20]})
            return sess.run([loss, accuracy, w, b], feed_dict={x: features, y_: labels})
