"""TensorFlow cases: control flow (``tf.cond``, ``tf.case``, ``tf.switch_case``,
``tf.while_loop``, ``tf.scan``, ``tf.foldl``, ``tf.foldr``, ``tf.map_fn``) eagerly, inside
``tf.function`` (one trace serving every branch) and under ``tf.GradientTape``; their errors;
the ``tf.compat.v1`` spellings. Conventions: see ``tensorflow_cases.py``.
"""

from __future__ import annotations

import numpy as np

from . import case


def _numpy(tree):
    """Tensors of a (nested) result as NumPy arrays; containers kept as lists and dicts."""
    if isinstance(tree, dict):
        return {key: _numpy(value) for key, value in tree.items()}
    if isinstance(tree, (list, tuple)):
        return [_numpy(value) for value in tree]
    if tree is None or isinstance(tree, (bool, int, float, str)):
        return tree
    return np.asarray(tree.numpy())


def _kind(tree) -> str:
    """The container kinds of a result (``tuple``, ``list``, ``dict``...), nested."""
    if isinstance(tree, dict):
        return "dict(" + ",".join(f"{k}:{_kind(v)}" for k, v in sorted(tree.items())) + ")"
    if isinstance(tree, (list, tuple)):
        return type(tree).__name__ + "(" + ",".join(_kind(v) for v in tree) + ")"
    return "tensor" if hasattr(tree, "numpy") else type(tree).__name__


def _error(function) -> list:
    """The type name and message of what ``function()`` raises."""
    try:
        function()
    except Exception as error:  # noqa: BLE001 - the error is the result
        return [type(error).__name__, str(error)]
    return ["no error", ""]


# ------------------------------------------------------------------------ tf.cond


@case
def case_control_flow_cond_eager_both_branches(tf):
    x = tf.constant([1.0, -3.0])
    results = [tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x),
               tf.cond(tf.reduce_sum(x) < 0, lambda: x * 2.0, lambda: -x),
               tf.cond(True, lambda: tf.constant(1), lambda: tf.constant(2))]
    return _numpy(results)


@case
def case_control_flow_cond_structures_kept(tf):
    x = tf.constant(2.0)
    single = tf.cond(x > 0, lambda: [x * 3.0], lambda: [x])
    nested = tf.cond(x > 0, lambda: {"a": x, "b": (x + 1.0, x * x)},
                     lambda: {"a": -x, "b": (x, x)})
    return [_kind(single), _numpy(single), _kind(nested), _numpy(nested)]


@case
def case_control_flow_cond_function_one_trace(tf):
    @tf.function
    def choose(x):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: x - 10.0)

    first = choose(tf.constant([1.0, 2.0]))
    second = choose(tf.constant([-1.0, -2.0]))
    return [first.numpy(), second.numpy(), choose.experimental_get_tracing_count()]


@case
def case_control_flow_cond_gradient_tape(tf):
    x = tf.Variable([1.0, 2.0])
    grads = []
    for sign in (1.0, -1.0):
        with tf.GradientTape() as tape:
            y = tf.cond(tf.reduce_sum(x) * sign > 0, lambda: tf.reduce_sum(x * x * x),
                        lambda: tf.reduce_sum(tf.sin(x)))
        grads.append(tape.gradient(y, x).numpy())
    return grads


@case(rtol=1e-5)
def case_control_flow_cond_gradient_in_function(tf):
    w = tf.Variable([0.5, -1.5])

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            y = tf.cond(tf.reduce_sum(x * w) > 0, lambda: tf.reduce_sum(tf.exp(x * w)),
                        lambda: tf.reduce_sum(w * w) * 3.0)
        return y, tape.gradient(y, w)

    first = step(tf.constant([2.0, 0.0]))
    second = step(tf.constant([0.0, 2.0]))
    return [_numpy(first), _numpy(second), step.experimental_get_tracing_count()]


@case
def case_control_flow_cond_missing_or_bad_functions(tf):
    x = tf.constant(1.0)
    return [_error(lambda: tf.cond(x > 0, None, lambda: x)),
            _error(lambda: tf.cond(x > 0, lambda: x)),
            _error(lambda: tf.cond(x > 0, lambda: x, 3.0)),
            _error(lambda: tf.cond(x > 0, 3.0, lambda: x))]


@case
def case_control_flow_cond_bad_predicates_in_function(tf):
    def dtype(x):
        return tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.int32))

    def python_bool(x):
        return tf.cond(True, lambda: x, lambda: -x)

    def float_predicate(x):
        return tf.cond(x, lambda: x, lambda: -x)

    return [_error(lambda: tf.function(dtype)(tf.constant(1.0)))[0],
            _error(lambda: tf.function(python_bool)(tf.constant(1.0)))[0],
            _error(lambda: tf.function(float_predicate)(tf.constant(1.0)))[0]]


# ------------------------------------------------------------------------ tf.case


@case
def case_control_flow_case_first_true_and_default(tf):
    def pick(x):
        return tf.case([(x < 0, lambda: x * 0.0), (x < 10, lambda: x * 2.0),
                        (x < 20, lambda: x * 3.0)], default=lambda: x + 100.0)

    values = [pick(tf.constant(v)).numpy() for v in (-5.0, 5.0, 15.0, 50.0)]
    traced = tf.function(pick)
    in_graph = [traced(tf.constant(v)).numpy() for v in (-5.0, 5.0, 15.0, 50.0)]
    return [values, in_graph, traced.experimental_get_tracing_count()]


@case
def case_control_flow_case_without_default_and_exclusive(tf):
    x = tf.constant(3.0)
    last = tf.case([(x > 5, lambda: x), (x > 1, lambda: x * 10.0)])
    exclusive = tf.case([(x > 5, lambda: x), (x > 1, lambda: -x)], default=lambda: x * 0.0,
                        exclusive=True)
    single = tf.case([(x > 1, lambda: [x * 2.0])], default=lambda: [x])
    kept = tf.case([(x > 1, lambda: [x * 2.0])], default=lambda: [x], strict=True)
    return [last.numpy(), exclusive.numpy(), _kind(single), _kind(kept)]


@case
def case_control_flow_case_runtime_errors(tf):
    x = tf.constant(3.0)
    return [_error(lambda: tf.case([(x > 5, lambda: x), (x > 4, lambda: -x)]))[0],
            _error(lambda: tf.case([(x > 1, lambda: x), (x > 2, lambda: -x)],
                                   default=lambda: x, exclusive=True))[0]]


@case(same_message=True)
def case_control_flow_case_bad_pairs(tf):
    x = tf.constant(3.0)
    return [_error(lambda: tf.case(lambda: x)),
            _error(lambda: tf.case([(True, lambda: x)])),
            _error(lambda: tf.case([(x > 1, lambda: x, 3)]))[0]]


# ------------------------------------------------------------------------ tf.switch_case


@case
def case_control_flow_switch_case_indices(tf):
    x = tf.constant(2.0)
    branches = [lambda: x + 1.0, lambda: x * 10.0, lambda: -x]
    plain = [tf.switch_case(tf.constant(i), branches).numpy() for i in (0, 1, 2, 7, -1)]
    with_default = [tf.switch_case(tf.constant(i), branches, default=lambda: x * 0.5).numpy()
                    for i in (1, 7, -1)]
    as_dict = tf.switch_case(tf.constant(1), {1: lambda: x * 4.0, 0: lambda: x}).numpy()
    as_pairs = tf.switch_case(tf.constant(0), [(1, lambda: x * 4.0), (0, lambda: x)]).numpy()
    return [plain, with_default, as_dict, as_pairs]


@case
def case_control_flow_switch_case_function_and_gradient(tf):
    w = tf.Variable(3.0)

    @tf.function
    def run(index):
        with tf.GradientTape() as tape:
            y = tf.switch_case(index, [lambda: w * w, lambda: tf.sin(w), lambda: w * 5.0])
        return y, tape.gradient(y, w)

    results = [_numpy(run(tf.constant(i))) for i in (0, 1, 2, 9)]
    return [results, run.experimental_get_tracing_count()]


@case(same_message=True)
def case_control_flow_switch_case_bad_arguments(tf):
    x = tf.constant(2.0)
    return [_error(lambda: tf.switch_case(1, [lambda: x]))[0],
            _error(lambda: tf.switch_case(tf.constant(1.0), [lambda: x])),
            _error(lambda: tf.switch_case(tf.constant(0), [])),
            _error(lambda: tf.switch_case(tf.constant(0), [(0, lambda: x), (2, lambda: x)])),
            _error(lambda: tf.switch_case(tf.constant(0), [(0, 3.0)]))]


# ------------------------------------------------------------------------ tf.while_loop


@case
def case_control_flow_while_loop_eager(tf):
    counted = tf.while_loop(lambda i, x: i < 5, lambda i, x: (i + 1, x * 2.0),
                            [0, tf.constant(1.0)])
    single = tf.while_loop(lambda x: x < 100.0, lambda x: [x * 3.0], [tf.constant(1.0)])
    paired = tf.while_loop(lambda x: x < 100.0, lambda x: (x * 3.0,), (tf.constant(2.0),))
    return [_kind(counted), _numpy(counted), str(counted[0].dtype.name), _kind(single),
            _numpy(single), _kind(paired), _numpy(paired)]


@case
def case_control_flow_while_loop_nested_and_maximum_iterations(tf):
    def body(x, state):
        return x + 1.0, {"total": state["total"] + x, "count": state["count"] + 1}

    result = tf.while_loop(lambda x, state: x < 100.0, body,
                           (tf.constant(0.0), {"total": tf.constant(0.0),
                                               "count": tf.constant(0)}),
                           maximum_iterations=4)
    capped = tf.while_loop(lambda x: x < 100.0, lambda x: (x * 3.0,), (tf.constant(1.0),),
                           maximum_iterations=tf.constant(2))
    return [_kind(result), _numpy(result), _numpy(capped)]


@case
def case_control_flow_while_loop_function_data_dependent(tf):
    @tf.function
    def halvings(x):
        return tf.while_loop(lambda v, n: tf.reduce_max(v) > 1.0,
                             lambda v, n: (v / 2.0, n + 1), (x, tf.constant(0)))

    first = halvings(tf.constant([3.0, 40.0]))
    second = halvings(tf.constant([0.5, 1.5]))
    return [_numpy(first), _numpy(second), halvings.experimental_get_tracing_count(),
            _kind(first)]


@case(rtol=1e-5)
def case_control_flow_while_loop_gradients(tf):
    x = tf.Variable(1.5)
    with tf.GradientTape() as tape:
        y = tf.while_loop(lambda v: v < 10.0, lambda v: [v * v + 0.5], [x])[0]
    eager = tape.gradient(y, x)

    @tf.function
    def traced(v0):
        with tf.GradientTape() as inner:
            inner.watch(v0)
            out = tf.while_loop(lambda v, i: v < 10.0, lambda v, i: (v * v + 0.5, i + 1),
                                (v0, 0))
        return out[0], out[1], inner.gradient(out[0], v0)

    return [y.numpy(), eager.numpy(), _numpy(traced(tf.constant(1.5))),
            _numpy(traced(tf.constant(5.0)))]


@case
def case_control_flow_while_loop_bad_arguments(tf):
    x = tf.constant(1.0)
    return [_error(lambda: tf.while_loop(3, lambda v: v, [x])),
            _error(lambda: tf.while_loop(lambda v: v < 3.0, None, [x])),
            _error(lambda: tf.while_loop(lambda v: v < 3.0, lambda v: v, [x],
                                         parallel_iterations=0)),
            _error(lambda: tf.while_loop(lambda v: v < 3.0, lambda v: (v + 1.0, v), [x]))[0],
            _error(lambda: tf.function(lambda v: tf.while_loop(
                lambda a: a < 3.0, lambda a: (a, a), [v]))(x))[0],
            _error(lambda: tf.function(lambda v: tf.while_loop(
                lambda a: tf.reduce_sum(a) < 3.0, lambda a: tf.concat([a, a], 0), [v]))(
                tf.constant([1.0])))[0]]


# ------------------------------------------------------------------------ scan, folds, map_fn


@case
def case_control_flow_scan_forms(tf):
    elems = tf.constant([1.0, 2.0, 3.0, 4.0])
    plain = tf.scan(lambda a, x: a + x, elems)
    started = tf.scan(lambda a, x: a * x, elems, initializer=tf.constant(2.0))
    backwards = tf.scan(lambda a, x: a + x, elems, reverse=True)
    paired = tf.scan(lambda a, x: (a[0] + x[0], a[1] * x[1]),
                     (elems, elems * 2.0), initializer=(tf.constant(0.0), tf.constant(1.0)))
    return [_numpy(plain), _numpy(started), _numpy(backwards), _kind(paired), _numpy(paired)]


@case(rtol=1e-5)
def case_control_flow_scan_function_and_gradient(tf):
    w = tf.Variable(0.5)

    @tf.function
    def run(xs):
        with tf.GradientTape() as tape:
            states = tf.scan(lambda h, x: tf.tanh(h * w + x), xs, initializer=tf.constant(0.1))
            loss = tf.reduce_sum(states)
        return states, tape.gradient(loss, w)

    first = run(tf.constant([1.0, -2.0, 0.5]))
    second = run(tf.constant([0.0, 3.0, 1.0]))
    return [_numpy(first), _numpy(second), run.experimental_get_tracing_count()]


@case
def case_control_flow_folds(tf):
    elems = tf.constant([1.0, 2.0, 3.0])
    return _numpy([tf.foldl(lambda a, x: a * 10.0 + x, elems),
                   tf.foldr(lambda a, x: a * 10.0 + x, elems),
                   tf.foldl(lambda a, x: a - x, elems, initializer=tf.constant(100.0)),
                   tf.foldr(lambda a, x: a - x, elems, initializer=tf.constant(100.0)),
                   tf.foldl(lambda a, x: a + x[0] * x[1], (elems, elems),
                            initializer=tf.constant(0.0)),
                   tf.function(lambda e: tf.foldr(lambda a, x: a * 2.0 + x, e))(elems)])


@case(rtol=1e-5)
def case_control_flow_map_fn(tf):
    elems = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    rows = tf.map_fn(lambda row: tf.reduce_sum(row * row), elems)
    pairs = tf.map_fn(lambda x: (x[0] * 2.0, x[1] + x[0]), (elems, elems))
    typed = tf.map_fn(lambda row: tf.cast(tf.reduce_sum(row), tf.int32), elems,
                      fn_output_signature=tf.int32)
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.map_fn(lambda v: tf.sin(v) * v, x))
    traced = tf.function(lambda e: tf.map_fn(lambda row: row * 3.0, e))(elems)
    return [_numpy(rows), _kind(pairs), _numpy(pairs), _numpy(typed),
            tape.gradient(y, x).numpy(), _numpy(traced)]


@case
def case_control_flow_map_fn_bad_elements(tf):
    return [_error(lambda: tf.map_fn(lambda x: x * 2.0, [1.0, 2.0])),
            _error(lambda: tf.map_fn(lambda x: (x, x), tf.constant([1.0, 2.0])))[0]]


# ------------------------------------------------------------------------ TF1 spellings and graphs


@case
def case_control_flow_v1_spellings_unwrap_singletons(tf):
    v1 = tf.compat.v1
    x = tf.constant(2.0)
    results = [v1.cond(x > 0, lambda: [x * 3.0], lambda: [x]),
               v1.cond(x > 0, lambda: [x * 3.0], lambda: [x], strict=True),
               v1.cond(x > 0, fn1=lambda: x, fn2=lambda: -x),
               v1.while_loop(lambda v: v < 100.0, lambda v: v * 3.0, [x]),
               v1.while_loop(lambda v: v < 100.0, lambda v: [v * 3.0], [x],
                             return_same_structure=True),
               v1.while_loop(lambda v: v < 100.0, lambda v: v * 3.0, [x], maximum_iterations=2),
               tf.function(lambda v: v1.while_loop(lambda a: a < 100.0, lambda a: a * 3.0,
                                                   [v]))(x)]
    return [[_kind(result) for result in results], _numpy(results)]


@case
def case_control_flow_v1_graph_cond_and_while(tf):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[])
        chosen = v1.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)
        counted = v1.while_loop(lambda v: v < 50.0, lambda v: v * 3.0, [x])
        with v1.Session() as sess:
            return [sess.run(chosen, feed_dict={x: 4.0}), sess.run(chosen, feed_dict={x: -4.0}),
                    sess.run(counted, feed_dict={x: 2.0})]
