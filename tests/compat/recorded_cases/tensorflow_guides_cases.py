"""TensorFlow cases: the snippets of TensorFlow's guides on automatic differentiation,
advanced automatic differentiation, variables, tensors and basic training loops, rewritten
with fixed values (the guides draw random ones). Conventions: see ``tensorflow_cases.py``.
"""

from __future__ import annotations

import numpy as np

from . import case

_W = np.array([[0.5, -1.0], [1.5, 0.25], [-0.75, 2.0]], np.float32)


def _value(tensor):
    return None if tensor is None else np.asarray(tensor.numpy())


@case
def case_guide_autodiff_sources_in_structures(tf):
    w = tf.Variable(_W, name="w")
    b = tf.Variable(tf.zeros(2, dtype=tf.float32), name="b")
    x = [[1.0, 2.0, 3.0]]
    with tf.GradientTape(persistent=True) as tape:
        y = x @ w + b
        loss = tf.reduce_mean(y ** 2)
    dl_dw, dl_db = tape.gradient(loss, [w, b])
    by_name = tape.gradient(loss, {"w": w, "b": b})
    return [_value(dl_dw), _value(dl_db), _value(by_name["b"]), sorted(by_name)]


@case
def case_guide_autodiff_what_is_watched(tf):
    x0 = tf.Variable(3.0, name="x0")
    x1 = tf.Variable(3.0, name="x1", trainable=False)
    x2 = tf.Variable(2.0, name="x2") + 1.0
    x3 = tf.constant(3.0, name="x3")
    with tf.GradientTape() as tape:
        y = (x0 ** 2) + (x1 ** 2) + (x2 ** 2)
    grads = tape.gradient(y, [x0, x1, x2, x3])
    return [_value(g) for g in grads] + [[v.name for v in tape.watched_variables()]]


@case
def case_guide_autodiff_watch_accessed_false(tf):
    x0 = tf.Variable(0.0)
    x1 = tf.Variable(10.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x1)
        y0 = tf.math.sin(x0)
        y1 = tf.nn.softplus(x1)
        y = y0 + y1
        ys = tf.reduce_sum(y)
    grad = tape.gradient(ys, {"x0": x0, "x1": x1})
    return [_value(grad["x0"]), _value(grad["x1"])]


@case
def case_guide_autodiff_intermediate_and_persistent(tf):
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    return [_value(tape.gradient(z, y)), _value(tape.gradient(z, x)),
            _value(tape.gradient(y, x))]


@case
def case_guide_autodiff_non_scalar_targets(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y0 = x ** 2
        y1 = 1 / x
        y = x * [3.0, 4.0]
    return [_value(tape.gradient({"y0": y0, "y1": y1}, x)), _value(tape.gradient(y, x))]


@case
def case_guide_autodiff_elementwise_sigmoid(tf):
    x = tf.linspace(-10.0, 10.0, 9)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.sigmoid(x)
    return _value(tape.gradient(y, x))


@case
def case_guide_autodiff_control_flow(tf):
    x = tf.constant(1.0)
    v0 = tf.Variable(2.0)
    v1 = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        if x > 0.0:
            result = v0
        else:
            result = v1 ** 2
    dv0, dv1 = tape.gradient(result, [v0, v1])
    return [_value(dv0), _value(dv1), _value(tape.gradient(result, x))]


@case
def case_guide_autodiff_gradient_is_none_cases(tf):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = y * y
    unconnected = tape.gradient(z, x)
    x = tf.Variable(2.0)
    for _ in range(2):
        with tf.GradientTape() as tape:
            y2 = x + 1
        replaced = tape.gradient(y2, x)
        x = x + 1  # a tensor now, not a variable
    numpy_x = tf.Variable([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float32)
    with tf.GradientTape() as tape:
        x2 = numpy_x ** 2
        y3 = np.mean(x2, axis=0)
        y3 = tf.reduce_mean(y3, axis=0)
    through_numpy = tape.gradient(y3, numpy_x)
    integer = tf.constant(10)
    with tf.GradientTape() as tape:
        tape.watch(integer)
        y4 = integer * integer
    integer_grad = tape.gradient(y4, integer)
    x0 = tf.Variable(3.0)
    x1 = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        x1.assign_add(x0)
        y5 = x1 ** 2
    stateful = tape.gradient(y5, x0)
    return [_value(unconnected), _value(replaced), _value(through_numpy), _value(integer_grad),
            _value(stateful)]


@case
def case_guide_autodiff_zero_for_unconnected(tf):
    x = tf.Variable([2.0, 2.0])
    y = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = y ** 2
    return _value(tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))


@case
def case_guide_advanced_stop_recording_and_reset(tf):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        x_sq = x * x
        with tape.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    stopped = tape.gradient(z, {"x": x, "y": y})
    reset = True
    with tf.GradientTape() as tape:
        y_sq = y * y
        if reset:
            tape.reset()
        z = x * x + y_sq
    after_reset = tape.gradient(z, {"x": x, "y": y})
    with tf.GradientTape() as tape:
        y_sq = y ** 2
        z = x ** 2 + tf.stop_gradient(y_sq)
    stop_gradient = tape.gradient(z, {"x": x, "y": y})
    return [_value(stopped["x"]), _value(stopped["y"]), _value(after_reset["x"]),
            _value(after_reset["y"]), _value(stop_gradient["x"]), _value(stop_gradient["y"])]


@case
def case_guide_advanced_custom_gradient_clip(tf):
    @tf.custom_gradient
    def clip_gradients(y):
        def backward(dy):
            return tf.clip_by_norm(dy, 0.5)
        return y, backward

    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        output = clip_gradients(v * v)
    return _value(tape.gradient(output, v))


@case
def case_guide_advanced_multiple_tapes(tf):
    x0 = tf.constant(0.0)
    x1 = tf.constant(0.0)
    with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
        tape0.watch(x0)
        tape1.watch(x1)
        y0 = tf.math.sin(x0)
        y1 = tf.nn.sigmoid(x1)
        y = y0 + y1
        ys = tf.reduce_sum(y)
    return [_value(tape0.gradient(ys, x0)), _value(tape1.gradient(ys, x1))]


@case
def case_guide_advanced_higher_order(tf):
    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        dy_dx = t1.gradient(y, x)
    d2y_dx2 = t2.gradient(dy_dx, x)
    return [_value(dy_dx), _value(d2y_dx2)]


@case(rtol=1e-3, atol=1e-6)  # float32 tanh' = 1 - tanh^2 near saturation
def case_guide_advanced_input_gradient_regularization(tf):
    x = tf.constant([[1.0, -2.0, 0.5]])
    layer_w = tf.Variable(_W)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.tanh(x @ layer_w)
            out = tf.reduce_sum(y ** 2)
        g1 = t1.gradient(out, x)
        g1_mag = tf.norm(g1)
    return [_value(g1), _value(g1_mag), _value(t2.gradient(g1_mag, layer_w))]


@case(rtol=1e-3, atol=1e-6)  # float32 tanh' = 1 - tanh^2 near saturation
def case_guide_advanced_jacobians(tf):
    x = tf.linspace(-3.0, 3.0, 5)
    delta = tf.Variable(0.5)
    with tf.GradientTape() as tape:
        y = tf.nn.sigmoid(x + delta)
    scalar_source = tape.jacobian(y, delta)
    x = tf.constant([[1.0, 2.0, -1.0], [0.5, -0.5, 2.0]])
    w = tf.Variable(_W)
    with tf.GradientTape(persistent=True) as tape:
        y = tf.tanh(x @ w)
    full = tape.jacobian(y, w)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.tanh(x @ w)
    batch = tape.batch_jacobian(y, x)
    return [_value(scalar_source), list(full.shape), _value(full)[1, 0], _value(batch)]


@case(rtol=1e-3, atol=1e-6)  # float32 tanh' = 1 - tanh^2 near saturation
def case_guide_advanced_hessian_of_a_loss(tf):
    x = tf.constant([[1.0, 2.0, -1.0]])
    w = tf.Variable(_W)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            loss = tf.reduce_mean(tf.tanh(x @ w) ** 2)
        g = t1.gradient(loss, w)
    h = t2.jacobian(g, w)
    return [list(h.shape), _value(tf.reshape(h, [6, 6]))]


@case
def case_guide_variables(tf):
    my_variable = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    bool_variable = tf.Variable([False, False, False, True])
    complex_variable = tf.Variable([5 + 4j, 6 + 1j])
    a = tf.Variable([2.0, 3.0])
    a.assign([1, 2])
    b = tf.Variable(a)
    a.assign([5, 6])
    added = a.assign_add([2, 3])
    subtracted = a.assign_sub([7, 9])
    first = tf.Variable(my_variable + 1, name="Mark")
    second = tf.Variable(my_variable + 1, name="Mark")
    step_counter = tf.Variable(1, trainable=False)
    return [str(my_variable.shape), my_variable.dtype.name,
            _value(tf.convert_to_tensor(my_variable)), _value(tf.math.argmax(my_variable)),
            _value(tf.reshape(my_variable, [1, 4])), _value(bool_variable),
            _value(tf.math.real(complex_variable)), _value(tf.math.imag(complex_variable)),
            complex_variable.dtype.name, _value(b), _value(added), _value(subtracted),
            first.name, second.name, bool(np.all((first == second).numpy())),
            step_counter.trainable]


@case(same_message=True)
def case_guide_variables_assign_wrong_shape(tf):
    a = tf.Variable([2.0, 3.0])
    a.assign([1.0, 2.0, 3.0])


@case
def case_guide_tensors_basics(tf):
    rank_0 = tf.constant(4)
    rank_1 = tf.constant([2.0, 3.0, 4.0])
    rank_2 = tf.constant([[1, 2], [3, 4], [5, 6]], dtype=tf.float16)
    a = tf.constant([[1, 2], [3, 4]])
    b = tf.constant([[1, 1], [1, 1]])
    c = tf.constant([[4.0, 5.0], [10.0, 1.0]])
    rank_4 = tf.zeros([3, 2, 4, 5])
    return [repr(rank_0), repr(rank_1), repr(rank_2), _value(tf.add(a, b)),
            _value(a * b), _value(a @ b), _value(tf.reduce_max(c)), _value(tf.math.argmax(c)),
            _value(tf.nn.softmax(c)), str(rank_4.dtype), rank_4.ndim, str(rank_4.shape),
            int(tf.size(rank_4).numpy()), _value(tf.rank(rank_4)), _value(tf.shape(rank_4))]


@case
def case_guide_tensors_indexing_reshaping_broadcasting(tf):
    rank_1 = tf.constant([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])
    rank_2 = tf.constant([[1, 2], [3, 4], [5, 6]])
    x = tf.constant([[1], [2], [3]])
    reshaped = tf.reshape(x, [1, 3])
    rank_3 = tf.reshape(tf.range(24), [3, 2, 4])
    the_f64 = tf.constant([2.2, 3.3, 4.4], dtype=tf.float64)
    the_f16 = tf.cast(the_f64, dtype=tf.float16)
    the_u8 = tf.cast(the_f16, dtype=tf.uint8)
    y = tf.range(1, 4)
    return [_value(rank_1[0]), _value(rank_1[-1]), _value(rank_1[1:4]), _value(rank_1[::2]),
            _value(rank_1[::-1]), _value(rank_2[1, 1]), _value(rank_2[:, 1]),
            _value(rank_2[1, :]), _value(rank_2[1:, :]), _value(reshaped),
            _value(tf.reshape(rank_3, [-1])), _value(tf.reshape(rank_3, [3 * 2, 4])),
            _value(the_u8), _value(tf.multiply(x, 2)), _value(x * y),
            _value(tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3]))]


@case
def case_guide_basic_training_loop(tf):
    true_w, true_b = 3.0, 2.0
    x = tf.linspace(-2.0, 2.0, 20)
    y = x * true_w + true_b + tf.sin(3.0 * x) * 0.1

    class MyModel(tf.Module):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)

        def __call__(self, x):
            return self.w * x + self.b

    def loss(target_y, predicted_y):
        return tf.reduce_mean(tf.square(target_y - predicted_y))

    model = MyModel()
    history = []
    for _ in range(10):
        with tf.GradientTape() as t:
            current_loss = loss(y, model(x))
        dw, db = t.gradient(current_loss, [model.w, model.b])
        model.w.assign_sub(0.1 * dw)
        model.b.assign_sub(0.1 * db)
        history.append(float(current_loss.numpy()))
    return [history, float(model.w.numpy()), float(model.b.numpy()),
            [v.name for v in model.variables]]
