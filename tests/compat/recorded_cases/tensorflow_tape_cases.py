"""TensorFlow cases: what a GradientTape watches and records (variables read before or
inside it, watch, reset, stop_recording, nesting, threads) and ``tf.gradients``/``tf.hessians``
inside ``tf.function``. Conventions: see ``tensorflow_cases.py``.
"""

from __future__ import annotations

import threading

import numpy as np

from . import case


def _value(tensor):
    """A gradient as NumPy (None stays None)."""
    return None if tensor is None else np.asarray(tensor.numpy())


def _values(tensors) -> list:
    return [_value(tensor) for tensor in tensors]


@case
def case_tape_tensor_from_variable_before_tape_is_constant(tf):
    v = tf.Variable(2.0)
    x2 = v + 1.0
    with tf.GradientTape(persistent=True) as tape:
        y = x2 ** 2
    return _values([tape.gradient(y, x2), tape.gradient(y, v)])


@case
def case_tape_watch_tensor_computed_before(tf):
    v = tf.Variable(2.0)
    x2 = v + 1.0
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x2)
        y = x2 ** 2
    return _values([tape.gradient(y, x2), tape.gradient(y, v)])


@case
def case_tape_variable_read_inside(tf):
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v * v)
    return _value(tape.gradient(y, v))


@case
def case_tape_reset_discards_records(tf):
    x = tf.constant(2.0)
    v = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x + v * v
        tape.reset()
        z = x * 3.0 + v * 5.0
    return _values([tape.gradient(y, x), tape.gradient(y, v), tape.gradient(z, x),
                    tape.gradient(z, v)])


@case
def case_tape_reset_then_watch(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        tape.reset()
        tape.watch(x)
        y = x ** 3
    return _value(tape.gradient(y, x))


@case
def case_tape_watched_variables(tf):
    first = tf.Variable(1.0, name="first")
    second = tf.Variable(2.0, name="second")
    frozen = tf.Variable(3.0, name="frozen", trainable=False)
    c = tf.constant(4.0)
    with tf.GradientTape() as tape:
        tape.watch(c)
        _ = second * first + frozen * c
    return [v.name for v in tape.watched_variables()]


@case
def case_tape_watched_variables_explicit_only(tf):
    first = tf.Variable(1.0, name="first")
    second = tf.Variable(2.0, name="second")
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(second)
        y = second * first
    return [[v.name for v in tape.watched_variables()], _values(tape.gradient(y, [first,
                                                                                 second]))]


@case
def case_tape_non_trainable_variable(tf):
    frozen = tf.Variable(3.0, trainable=False)
    with tf.GradientTape(persistent=True) as tape:
        y = frozen * frozen
    unwatched = tape.gradient(y, frozen)
    with tf.GradientTape() as tape:
        tape.watch(frozen)
        y = frozen * frozen
    return _values([unwatched, tape.gradient(y, frozen)])


@case
def case_tape_nested_second_order_constant(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x ** 3
        dy_dx = inner.gradient(y, x)
    return _values([dy_dx, outer.gradient(dy_dx, x)])


@case
def case_tape_nested_second_order_variable(tf):
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.reduce_sum(tf.sin(v) * v)
        g = inner.gradient(y, v)
        s = tf.reduce_sum(g * g)
    return _values([g, outer.gradient(s, v)])


@case
def case_tape_inner_only_watches(tf):
    x = tf.constant(3.0)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x ** 3
        dy_dx = inner.gradient(y, x)
    return _values([dy_dx, outer.gradient(dy_dx, x)])


@case
def case_tape_stop_recording_pauses_only_this_tape(tf):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape(persistent=True) as inner:
            inner.watch(x)
            with inner.stop_recording():
                y = x * x
            z = x * 5.0
    return _values([inner.gradient(y, x), outer.gradient(y, x), inner.gradient(z, x)])


@case
def case_tape_watch_accessed_false(tf):
    v = tf.Variable(2.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * v
    return [_value(tape.gradient(y, v)), len(tape.watched_variables())]


@case
def case_tape_non_persistent_twice(tf):
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    return _value(tape.gradient(y, x))


@case
def case_tape_source_is_target(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
    return _value(tape.gradient(x, x))


@case
def case_tape_unconnected_zero_and_output_gradients(tf):
    x = tf.constant([1.0, 2.0])
    w = tf.constant(5.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = x * x
    return _values([tape.gradient(y, w, unconnected_gradients="zero"),
                    tape.gradient(y, x, output_gradients=tf.constant([3.0, -1.0])),
                    tape.gradient(y, w)])


@case
def case_tape_jacobians(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x * tf.reduce_sum(x)
    return _values([tape.jacobian(y, x), tape.batch_jacobian(y, x)])


@case
def case_tape_custom_gradient_and_function_inside(tf):
    @tf.custom_gradient
    def clipped(x):
        def grad(dy):
            return tf.clip_by_value(dy, -0.5, 0.5)
        return tf.identity(x), grad

    @tf.function
    def cube(x):
        return x * x * x

    x = tf.constant(2.0)
    v = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = clipped(x * 4.0)
        z = cube(x) + cube(v)
    return _values([tape.gradient(y, x), tape.gradient(z, x), tape.gradient(z, v)])


@case
def case_tape_other_thread_ops_not_recorded(tf):
    v = tf.Variable(2.0)
    opened, computed = threading.Event(), threading.Event()
    results = {}

    def other():
        opened.wait(30)
        results["y"] = v * v
        with tf.GradientTape() as own:
            y_own = v * 4.0
        results["own"] = own.gradient(y_own, v)
        computed.set()

    thread = threading.Thread(target=other)
    thread.start()
    with tf.GradientTape(persistent=True) as tape:
        opened.set()
        computed.wait(30)
        mine = v * 3.0
    thread.join()
    return _values([tape.gradient(results["y"], v), tape.gradient(mine, v), results["own"]])


@case
def case_gradients_of_constants_in_function(tf):
    @tf.function
    def both():
        a = tf.constant(0.0)
        b = 2.0 * a
        return (tf.gradients(a + b, [a, b]),
                tf.gradients(a + b, [a, b], stop_gradients=[a, b]))

    plain, stopped = both()
    return [_values(plain), _values(stopped)]


@case
def case_gradients_in_function_of_argument(tf):
    @tf.function
    def second(x):
        y = tf.reduce_sum(x ** 3)
        (g,) = tf.gradients(y, x)
        return g, tf.gradients(g, x, grad_ys=tf.ones_like(x))[0]

    return _values(second(tf.constant([1.0, 2.0])))


@case
def case_gradients_unconnected_in_function(tf):
    @tf.function
    def f(x):
        c = tf.constant(3.0)
        return tf.gradients(x * 2.0, [x, c]), tf.gradients(
            x * 2.0, [c], unconnected_gradients="zero")

    first, second = f(tf.constant(1.0))
    return [_values(first), _values(second)]


@case
def case_hessians_in_function(tf):
    @tf.function
    def h(x):
        return tf.hessians(tf.reduce_sum(x ** 3), x)

    return _values(h(tf.constant([1.0, 2.0])))
