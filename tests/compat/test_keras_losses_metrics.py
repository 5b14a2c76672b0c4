"""``tf.keras.losses`` and ``tf.keras.metrics``: what the recorded cases cannot show.

The values themselves are compared with Keras 3.15 in the ``case_keras_loss_*`` and
``case_keras_metric_*`` recorded cases; here: gradients, errors that change nothing,
metric state, and that results are TensorFlow tensors.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.tensorflow as tf

Y_TRUE = np.array([[0.0, 1.0], [2.0, 0.5]], np.float32)
Y_PRED = np.array([[0.5, 1.5], [1.0, 0.0]], np.float32)


def test_mean_squared_error_gradient_is_the_analytic_one():
    prediction = tf.Variable(Y_PRED)
    with tf.GradientTape() as tape:
        loss = tf.keras.losses.MeanSquaredError()(Y_TRUE, prediction)
    np.testing.assert_allclose(tape.gradient(loss, prediction).numpy(),
                               2 * (Y_PRED - Y_TRUE) / Y_TRUE.size, rtol=1e-6)


def test_sparse_crossentropy_gradient_from_logits_is_softmax_minus_one_hot():
    logits = tf.Variable([[1.0, 2.0, 0.5]])
    with tf.GradientTape() as tape:
        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)([1], logits)
    softmax = np.exp([1.0, 2.0, 0.5]) / np.exp([1.0, 2.0, 0.5]).sum()
    np.testing.assert_allclose(tape.gradient(loss, logits).numpy()[0],
                               softmax - np.array([0.0, 1.0, 0.0]), rtol=1e-5)


def test_losses_return_float32_tensors_and_leave_inputs_alone():
    y_true, y_pred = Y_TRUE.copy(), Y_PRED.copy()
    value = tf.keras.losses.Huber()(y_true, y_pred, sample_weight=np.array([1.0, 2.0]))
    assert isinstance(value, tf.Tensor) and value.dtype == tf.float32 and value.shape == ()
    np.testing.assert_array_equal(y_true, Y_TRUE)
    np.testing.assert_array_equal(y_pred, Y_PRED)


def test_a_bad_reduction_names_the_argument():
    with pytest.raises(ValueError, match="argument `reduction`.*reduction=mean_of_all"):
        tf.keras.losses.MeanAbsoluteError(reduction="mean_of_all")


def test_loss_and_metric_lookup_errors_name_the_identifier():
    with pytest.raises(ValueError, match="Could not interpret loss identifier: 42"):
        tf.keras.losses.get(42)
    with pytest.raises(ValueError, match="Could not interpret metric identifier: nope"):
        tf.keras.metrics.get("nope")


def test_a_failed_update_leaves_the_metric_state_unchanged():
    metric = tf.keras.metrics.MeanSquaredError()
    metric.update_state(Y_TRUE, Y_PRED)
    before = [variable.numpy() for variable in metric.variables]
    with pytest.raises(Exception):  # noqa: B017 - shapes (2, 2) and (2, 3) cannot broadcast
        metric.update_state(Y_TRUE, np.zeros((2, 3), np.float32))
    assert [variable.numpy() for variable in metric.variables] == before
    assert float(metric.result()) == pytest.approx(0.4375)


def test_metric_variables_are_non_trainable_and_reset_to_zero():
    metric = tf.keras.metrics.Precision(thresholds=[0.3, 0.6])
    metric.update_state([1, 0, 1], [0.5, 0.7, 0.9])
    assert [variable.trainable for variable in metric.variables] == [False, False]
    np.testing.assert_allclose(metric.result().numpy(), [2 / 3, 1 / 2])
    metric.reset_state()
    assert all(not variable.numpy().any() for variable in metric.variables)


def test_custom_metric_subclass_tracks_its_variables():
    class Largest(tf.keras.metrics.Metric):
        def __init__(self):
            super().__init__(name="largest")
            self.largest = self.add_variable((), "zeros", name="largest")

        def update_state(self, values):
            self.largest.assign(max(float(self.largest.numpy()), float(np.max(values))))

        def result(self):
            return tf.identity(self.largest)

    metric = Largest()
    metric.update_state([1.0, 3.0])
    metric.update_state([2.0])
    assert float(metric.result()) == 3.0 and len(metric.variables) == 1
    assert repr(metric) == "<Largest name=largest>"


def test_crossentropy_uses_the_logits_attached_to_an_activation_output():
    from unigrad.compat.tensorflow.keras.losses import attach_logits

    logits = tf.constant([[30.0, 0.0]])
    saturated = tf.nn.softmax(logits)
    clipped = tf.keras.losses.categorical_crossentropy([[0.0, 1.0]], saturated)
    np.testing.assert_allclose(clipped.numpy(), [-np.log(1e-7)], rtol=1e-5)
    attached = attach_logits(tf.nn.softmax(logits), logits)
    exact = tf.keras.losses.categorical_crossentropy([[0.0, 1.0]], attached)
    np.testing.assert_allclose(exact.numpy(), [30.0], rtol=1e-6)
    with pytest.warns(UserWarning, match="received `from_logits=True`, but the `output`"):
        tf.keras.losses.binary_crossentropy([[1.0]], attach_logits(tf.sigmoid([[2.0]]),
                                                                   tf.constant([[2.0]])),
                                            from_logits=True)
