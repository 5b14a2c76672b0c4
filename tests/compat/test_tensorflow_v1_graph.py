"""TensorFlow 1 graphs on unigrad (``unigrad.compat.tensorflow.compat.v1``): what the
recorded cases do not cover — errors, graph bookkeeping, feeding, the PINN example.

TensorFlow's own results for graphs are in ``recorded_cases/tensorflow_v1_graph_cases.py``.
"""

from __future__ import annotations

import importlib.util
import pathlib
import threading

import numpy as np
import pytest

import unigrad.compat.tensorflow.compat.v1 as tf
from unigrad.compat.tensorflow import errors

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "pinn_tf1_graph.py"


def test_placeholder_needs_a_graph():
    with pytest.raises(RuntimeError, match="not compatible with eager execution"):
        tf.placeholder(tf.float32)


def test_graph_tensors_have_no_value_outside_a_session():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, shape=[2])
        y = x * 2.0
        with pytest.raises(NotImplementedError, match="only available when eager"):
            y.numpy()
        with pytest.raises(TypeError, match="Python `bool`"):
            bool(y > 1.0)
        with pytest.raises(TypeError, match="symbolic tf.Tensor"):
            float(tf.reduce_sum(y)._data)
        with pytest.raises(errors.InvalidArgumentError, match="must feed a value"):
            np.asarray(y)  # depends on a placeholder: cannot be computed now


def test_feed_free_graph_tensor_gives_a_variable_its_initial_value():
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        w = tf.Variable(tf.random_normal([2, 3]) * 0.0 + 1.5)
        doubled = w * 2.0
        with tf.Session() as sess:
            assert np.array_equal(sess.run(doubled), np.full((2, 3), 3.0, np.float32))


def test_variables_are_read_when_the_session_runs():
    with tf.Graph().as_default():
        w = tf.Variable(1.0)
        y = w * 10.0
        with tf.Session() as sess:
            first = sess.run(y)
            sess.run(w.assign(2.0))  # in a graph, an assignment is an operation to run
            assert (first, sess.run(y)) == (np.float32(10.0), np.float32(20.0))


def test_feed_dict_checks():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, shape=[None, 2], name="x")
        y = x + 1.0
        with tf.Session() as sess:
            with pytest.raises(TypeError, match="key of a feed_dict"):
                sess.run(y, feed_dict={np.zeros(2).tobytes(): 1.0})
            with pytest.raises(ValueError, match=r"shape \(3,\) for Tensor x:0"):
                sess.run(y, feed_dict={x: [1.0, 2.0, 3.0]})
            fed_intermediate = sess.run(y * 2.0, feed_dict={y: [[5.0, 6.0]]})
            assert np.array_equal(fed_intermediate, [[10.0, 12.0]])
        closed = tf.Session()
        closed.close()
        with pytest.raises(RuntimeError, match="closed Session"):
            closed.run(y, feed_dict={x: [[1.0, 2.0]]})


def test_graph_names_and_lookup():
    graph = tf.Graph()
    with graph.as_default():
        a = tf.constant(1.0, name="a")
        b = tf.constant(2.0, name="a")
        total = tf.add(a, b, name="total")
    assert [op.name for op in graph.get_operations()] == ["a", "a_1", "total"]
    assert graph.get_tensor_by_name("total:0") is total
    with pytest.raises(KeyError, match="only has 1 outputs"):
        graph.get_tensor_by_name("total:1")
    with pytest.raises(ValueError, match="looks a like an Operation name"):
        graph.get_tensor_by_name("total")
    assert tf.executing_eagerly()
    with graph.as_default():
        assert not tf.executing_eagerly() and tf.get_default_graph() is graph


def test_unknown_dimensions_follow_ops_and_set_shape():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, shape=[None, 4])
        assert tf.matmul(x, tf.ones([4, 2])).shape.as_list() == [None, 2]
        assert tf.reshape(x, [-1, 2]).shape.as_list() == [None, 2]
        assert x[1:].shape.as_list() == [None, 4]
        with pytest.raises(TypeError, match="unknown first dimension"):
            iter(x)
        x.set_shape([5, 4])
        assert x.shape.as_list() == [5, 4] and len(x) == 5
        with pytest.raises(ValueError, match="not compatible"):
            x.set_shape([6, 4])


def test_eval_and_operation_run_use_the_default_session():
    with tf.Graph().as_default():
        w = tf.Variable(4.0)
        step = tf.train.GradientDescentOptimizer(0.5).minimize(w * w)
        with tf.Session():
            step.run()
            assert (w * 1.0).eval() == np.float32(0.0)
        with pytest.raises(ValueError, match="No default session"):
            step.run()


def test_optimizer_needs_a_function_when_eager():
    w = tf.Variable(3.0)
    optimizer = tf.train.GradientDescentOptimizer(0.5)
    with pytest.raises(RuntimeError, match="should be a function"):
        optimizer.minimize(w * w)
    optimizer.minimize(lambda: w * w)  # eagerly, with a callable loss
    assert float(w.numpy()) == 0.0


def test_global_step_and_initializer_op():
    with tf.Graph().as_default():
        w = tf.get_variable("graph_test_w", initializer=tf.constant([1.0, -1.0]))
        step = tf.train.get_or_create_global_step()
        train = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(w * w), global_step=step)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(train)
            assert sess.run(step) == 3
    tf.reset_default_graph()


def test_disable_eager_execution_builds_graphs_until_reset():
    tf.disable_eager_execution()
    x = tf.placeholder(tf.float32, shape=[])
    assert isinstance(x * 2.0, tf.Tensor) and not tf.executing_eagerly()
    seen = {}
    other = threading.Thread(target=lambda: seen.setdefault("eager", tf.executing_eagerly()))
    other.start()
    other.join()
    assert seen["eager"] is False  # the default graph is the process's
    with tf.Session() as sess:
        assert sess.run(x * 2.0, {x: 4.0}) == np.float32(8.0)
    tf.enable_eager_execution()
    assert tf.executing_eagerly()


def test_tf1_pinn_example_learns_sin():
    spec = importlib.util.spec_from_file_location("pinn_tf1_graph", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(300) < 0.02


def test_graph_variables_print_no_value_assign_in_runs_and_reinitialize():
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        w = tf.get_variable("graph_w", initializer=tf.constant([1.0, 2.0]))
        again = tf.Variable(0.0)
        assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32>"
        assert again.name == "Variable_1:0"
        x = tf.placeholder(tf.float32)
        update = v.assign_add(x)
        assert str(update) == 'Tensor("AssignAdd:0", shape=(), dtype=float32)'
        assert [variable.name for variable in tf.global_variables()] == \
            ["Variable:0", "graph_w:0", "Variable_1:0"]
        with tf.Session() as sess:
            assert (sess.run(update, {x: 2.0}), sess.run(update, {x: 2.0})) == (3.0, 5.0)
            sess.run(tf.global_variables_initializer())
            assert sess.run(v) == 1.0 and sess.run(w).tolist() == [1.0, 2.0]
    tf.reset_default_graph()
    assert repr(tf.Variable(3.0)).endswith("numpy=3.0>")


def test_variable_scope_argument_checks_and_reuse_variables():
    with pytest.raises(ValueError, match="reuse must be"):
        with tf.variable_scope("bad", reuse="yes"):
            pass
    with pytest.raises(TypeError, match="name_or_scope must be a string"):
        with tf.variable_scope(3):
            pass
    with pytest.raises(ValueError, match="default_name is None"):
        with tf.variable_scope(None):
            pass
    with tf.Graph().as_default():
        with tf.variable_scope("shared") as scope:
            w = tf.get_variable("w", shape=[], initializer=tf.ones_initializer())
            scope.reuse_variables()
            assert tf.get_variable("w") is w
        with tf.variable_scope(scope):  # re-entered by object: reuse kept
            assert tf.get_variable("w") is w and tf.get_variable_scope().name == "shared"
    assert tf.get_variable_scope().name == "" and tf.get_variable_scope().reuse is None
    tf.reset_default_graph()
