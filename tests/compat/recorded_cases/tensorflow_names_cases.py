"""TensorFlow cases: names (see tensorflow_cases.py for the conventions)."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import case

# ------------------------------------------------------------------------ tf.DType

_DTYPE_NAMES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string",
                "half", "double"]


@case
def case_names_dtype_text(tf):
    return [[repr(getattr(tf, name)), str(getattr(tf, name)), getattr(tf, name).name,
             getattr(tf.dtypes, name) is getattr(tf, name)] for name in _DTYPE_NAMES]


@case
def case_names_dtype_properties(tf):
    rows = []
    for name in _DTYPE_NAMES[:-3]:
        dtype = getattr(tf, name)
        rows.append([dtype.is_floating, dtype.is_integer, dtype.is_complex, dtype.is_bool,
                     dtype.is_unsigned, dtype.size, repr(dtype.real_dtype),
                     repr(dtype.base_dtype), dtype.as_datatype_enum,
                     dtype.as_numpy_dtype.__name__, isinstance(dtype, tf.DType),
                     isinstance(dtype, tf.dtypes.DType)])
    return rows


@case
def case_names_dtype_limits(tf):
    rows = []
    for name in ["float16", "float32", "float64", "int8", "int32", "int64", "uint8", "uint64"]:
        dtype = getattr(tf, name)
        rows.append([float(dtype.min), float(dtype.max)])
    return rows + [list(tf.int32.limits), list(tf.uint8.limits)]


@case(same_message=True)
def case_names_dtype_bool_min(tf):
    return tf.bool.min


@case(same_message=True)
def case_names_dtype_complex_max(tf):
    return tf.complex64.max


@case
def case_names_dtype_float_limits(tf):
    return [list(tf.float32.limits), list(tf.float64.limits), list(tf.bool.limits)]


@case(same_message=True)
def case_names_dtype_half_limits(tf):
    return tf.float16.limits


@case
def case_names_dtype_equality(tf):
    return [tf.float32 == np.float32, tf.float32 == np.dtype("float32"), tf.float32 == "float32",
            tf.float32 == tf.float64, tf.float32 != "float64", tf.float32 == None,  # noqa: E711
            tf.float32 == 3, tf.int8 == np.int8, tf.constant(1.0).dtype == tf.float32,
            tf.constant(1.0).dtype is tf.float32, tf.Variable(1).dtype is tf.int32,
            {tf.float32: "x"}[tf.constant(2.0).dtype], tf.float32.is_compatible_with("float32"),
            tf.float32.is_compatible_with(np.float32), tf.float32.is_compatible_with(tf.float64)]


@case
def case_names_as_dtype(tf):
    values = ["float32", "float", "double", "half", np.float64, np.dtype("int8"), float, bool,
              tf.int16, 1, 3, np.str_]
    return [repr(tf.as_dtype(value)) for value in values] + [
        tf.dtypes.as_dtype("int64") is tf.int64, tf.as_dtype(np.float32) is tf.float32]


@case(same_message=True)
def case_names_as_dtype_unknown_name(tf):
    return tf.as_dtype("foo")


@case(same_message=True)
def case_names_as_dtype_none(tf):
    return tf.as_dtype(None)


@case(same_message=True)
def case_names_constant_bad_dtype(tf):
    return tf.constant(1.0, dtype="foo")


@case
def case_names_dtype_arguments(tf):
    x = tf.constant([1.5, 2.5])
    return [tf.cast(x, tf.int32).numpy(), tf.zeros((2,), dtype=tf.int64).numpy(),
            tf.ones((1,), tf.float64).numpy(), tf.constant([1, 2], dtype=tf.float32).numpy(),
            tf.constant([1, 2], dtype="float64").numpy(),
            tf.cast(x, np.float16).numpy(), repr(tf.cast(x, tf.float64).dtype),
            tf.range(3, dtype=tf.float32).numpy(), tf.fill((2,), tf.constant(3)).numpy(),
            tf.argmax(x, output_type=tf.int32).numpy(),
            tf.random.uniform((2,), dtype=tf.float64).dtype.name,
            tf.Variable([1, 2], dtype=tf.float32).numpy(), repr(tf.Variable(1.0).dtype),
            str(tf.constant(1, dtype=tf.int8)), repr(tf.constant([1.0], tf.float64))]


# ------------------------------------------------------------------------ tf.print


def _printed(tf, *inputs, **options) -> str:
    """What ``tf.print`` writes to a ``file://`` stream."""
    path = os.path.join(tempfile.mkdtemp(), "printed.txt")
    tf.print(*inputs, output_stream="file://" + path, **options)
    with open(path, encoding="utf-8") as file:
        return file.read()


@case
def case_names_print_floats(tf):
    values = [0.1, 1 / 3, 1e-8, 123456789.0, 1e20, 2.0, -0.5, 1e-5, 1e6, 1e7, 12345.678, 100.0,
              1234567.0, 3e-6, float("nan"), float("inf"), float("-inf")]
    return [_printed(tf, tf.constant(value)) for value in values] + [
        _printed(tf, tf.constant(1 / 3, tf.float64)), _printed(tf, tf.constant(0.1, tf.float64)),
        _printed(tf, tf.constant(1e16, tf.float64)), _printed(tf, tf.constant(0.1, tf.float16)),
        _printed(tf, tf.constant([0.1, 1e-8, 123456789.0]))]


@case
def case_names_print_ints_bools(tf):
    return [_printed(tf, tf.constant(7)), _printed(tf, tf.constant(-3)),
            _printed(tf, tf.constant(True)), _printed(tf, tf.constant([True, False])),
            _printed(tf, tf.constant(2 ** 40, tf.int64)),
            _printed(tf, tf.constant([1, 2], tf.uint8)),
            _printed(tf, tf.constant([1 + 2j, 3j]))]


@case
def case_names_print_summarize(tf):
    return [_printed(tf, tf.range(10)), _printed(tf, tf.range(10), summarize=-1),
            _printed(tf, tf.range(10), summarize=0), _printed(tf, tf.range(6), summarize=None),
            _printed(tf, tf.reshape(tf.range(12), (3, 4))),
            _printed(tf, tf.reshape(tf.range(100), (10, 10))),
            _printed(tf, tf.reshape(tf.range(7), (7, 1))),
            _printed(tf, tf.zeros((0,))), _printed(tf, tf.constant([[1.0]]))]


@case
def case_names_print_high_rank(tf):
    return [_printed(tf, tf.reshape(tf.range(60), (3, 4, 5))),
            _printed(tf, tf.reshape(tf.range(24.0), (2, 3, 4)), summarize=1),
            _printed(tf, tf.reshape(tf.range(16), (2, 2, 2, 2))),
            _printed(tf, tf.reshape(tf.range(20), (5, 2, 2)), summarize=1),
            _printed(tf, tf.reshape(tf.range(3), (1, 1, 3)))]


@case
def case_names_print_structures(tf):
    return [_printed(tf, "hello", 3, 2.5, [1, tf.constant(2)], {"a": tf.constant([1.0, 2.0])},
                     (tf.constant(1),), None, True),
            _printed(tf, ["x", 1.5, tf.constant(1)]), _printed(tf, ("a",)),
            _printed(tf, [{"k": tf.constant([1, 2])}, "s"]), _printed(tf, {"b": 1, "a": 2}),
            _printed(tf, []), _printed(tf), _printed(tf, "{}", tf.constant(1)),
            _printed(tf, np.array([1.0, 2.0])), _printed(tf, tf.Variable([1.0, 2.0])),
            _printed(tf, tf.constant(1), tf.constant(2), sep=", ", end="!\n")]


@case
def case_names_print_file_appends(tf):
    path = os.path.join(tempfile.mkdtemp(), "log.txt")
    tf.print("one", output_stream="file://" + path)
    tf.print("two", tf.constant([1.5]), output_stream="file://" + path)
    with open(path, encoding="utf-8") as file:
        return file.read()


@case
def case_names_print_in_function(tf):
    path = "file://" + os.path.join(tempfile.mkdtemp(), "log.txt")

    @tf.function
    def step(x):
        tf.print("x:", x, {"twice": x * 2}, output_stream=path)
        tf.print("no tensors", output_stream=path)
        return x + 1

    step(tf.constant([1.0, 2.0]))
    step(tf.constant([3.0, 4.0]))
    with open(path[len("file://"):], encoding="utf-8") as file:
        return file.read()


@case(same_message=True)
def case_names_print_bad_stream(tf):
    return tf.print(tf.constant(1), output_stream="nope")


@case(same_message=True)
def case_names_print_unknown_keyword(tf):
    return tf.print(tf.constant(1), foo=2)


# ------------------------------------------------------------------------ tf.TensorSpec


@case
def case_names_tensor_spec_text(tf):
    specs = [tf.TensorSpec((2, None)), tf.TensorSpec([2, 3], tf.int32, name="x"),
             tf.TensorSpec(None), tf.TensorSpec(()), tf.TensorSpec(None, "float64"),
             tf.TensorSpec(tf.TensorShape([None, 4]), dtype=np.int64)]
    return [[repr(spec), str(spec), repr(spec.shape), repr(spec.dtype), spec.name]
            for spec in specs]


@case
def case_names_tensor_spec_compatible(tf):
    spec = tf.TensorSpec((2, None))
    return [spec.is_compatible_with(tf.zeros((2, 5))), spec.is_compatible_with(tf.zeros((3, 5))),
            spec.is_compatible_with(tf.zeros((2, 5), tf.int32)),
            spec.is_compatible_with(tf.zeros((2,))),
            spec.is_compatible_with(tf.TensorSpec((2, 4))),
            spec.is_compatible_with(tf.TensorSpec((2, None))),
            tf.TensorSpec((2, 4)).is_compatible_with(spec),
            tf.TensorSpec(None).is_compatible_with(tf.zeros((1, 2, 3))),
            spec.is_compatible_with(np.zeros((2, 3), np.float32)),
            spec.is_compatible_with([[1.0, 2.0], [3.0, 4.0]]),
            spec.is_compatible_with(tf.Variable(tf.zeros((2, 1))))]


@case
def case_names_tensor_spec_from_tensor_equality(tf):
    spec = tf.TensorSpec((2, None))
    return [repr(tf.TensorSpec.from_tensor(tf.constant([1, 2]))),
            repr(tf.TensorSpec.from_tensor(tf.constant([[1.0]]), name="n")),
            spec == tf.TensorSpec((2, None)), spec == tf.TensorSpec((2, None), name="q"),
            spec == tf.TensorSpec((2, 4)), spec != tf.TensorSpec((2, None), tf.int32),
            hash(spec) == hash(tf.TensorSpec((2, None))), spec == (2, None)]


@case(same_message=True)
def case_names_tensor_spec_bad_dtype(tf):
    return tf.TensorSpec((2,), "foo")


@case
def case_names_tensor_spec_bad_shape(tf):
    return tf.TensorSpec("ab")


@case
def case_names_function_input_signature(tf):
    @tf.function(input_signature=[tf.TensorSpec((None,), tf.float32)])
    def double(x):
        return x * 2

    return [double(tf.constant([1.0, 2.0])).numpy(), double(tf.constant([3.0])).numpy(),
            double([1.0, 2.0]).numpy(), double(np.array([1.0, 2.0])).numpy()]


@case(same_message=True)
def case_names_function_signature_wrong_dtype(tf):
    @tf.function(input_signature=[tf.TensorSpec((None,), tf.float32)])
    def double(x):
        return x * 2

    return double(tf.constant([1, 2]))


@case(same_message=True)
def case_names_function_signature_wrong_shape(tf):
    @tf.function(input_signature=[tf.TensorSpec((None,), tf.float32)])
    def double(x):
        return x * 2

    return double(tf.constant([[1.0]]))


@case(same_message=True)
def case_names_function_signature_too_many(tf):
    @tf.function(input_signature=[tf.TensorSpec((None,), tf.float32)])
    def double(x):
        return x * 2

    return double(tf.constant([1.0]), tf.constant(1.0))


# ------------------------------------------------------------------------ complex Variables


def _parts(value) -> list:
    """A complex value as its real and imaginary parts (JSON has no complex numbers)."""
    array = np.asarray(value)
    return [np.real(array), np.imag(array)]


@case
def case_names_complex_variable_text(tf):
    scalar = tf.Variable(1 + 2j, name="z")
    vector = tf.Variable(np.array([1 + 1j, 2 - 1j]), dtype=tf.complex64, name="w")
    return [repr(scalar), str(scalar), repr(scalar.dtype), repr(vector), repr(vector.dtype),
            scalar.trainable, _parts((scalar * 2).numpy()), _parts((vector + vector).numpy()),
            _parts((vector * tf.constant(1j, tf.complex64)).numpy())]


@case
def case_names_complex_variable_assign(tf):
    v = tf.Variable(np.array([1 + 1j, 2 - 1j]), dtype=tf.complex64)
    v.assign([3 + 0j, 1j])
    first = v.numpy()
    v.assign_add(tf.constant([1 + 1j, 1 + 1j], tf.complex64))
    second = v.numpy()
    v.assign_sub([0.5 + 0j, 0.5j])
    return [_parts(first), _parts(second), _parts(v.numpy()), repr(v)]


@case
def case_names_complex_variable_gradients(tf):
    z = tf.Variable(np.array([1 + 2j, -0.5 + 1j]), dtype=tf.complex64)
    with tf.GradientTape(persistent=True) as tape:
        magnitude = tf.reduce_sum(tf.math.real(z * tf.math.conj(z)))
        product = tf.reduce_sum(z * z)
        real_part = tf.reduce_sum(tf.math.real(z) * 3.0)
    return [_parts(tape.gradient(magnitude, z).numpy()), _parts(tape.gradient(product, z).numpy()),
            _parts(tape.gradient(real_part, z).numpy())]


@case
def case_names_complex_variable_holomorphic_gradient(tf):
    z = tf.Variable(1 + 2j)
    with tf.GradientTape() as tape:
        y = z * z * tf.constant(1 - 1j, tf.complex128)
    return _parts(tape.gradient(y, z).numpy())


# ------------------------------------------------------------------------ negative-step slicing


@case
def case_names_negative_step_slicing(tf):
    t = tf.reshape(tf.range(12), (3, 4))
    v = tf.Variable([1.0, 2.0, 3.0, 4.0])
    return [t[::-1].numpy(), t[:, ::-2].numpy(), t[::-1, 1:3].numpy(), t[2:0:-1].numpy(),
            v[::-1].numpy(), v[::-3].numpy(), v[3:0:-2].numpy(), tf.constant([1, 2, 3])[::-1]
            .numpy()]


@case
def case_names_negative_step_slicing_gradient(tf):
    v = tf.Variable([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v[::-2] * tf.constant([10.0, 20.0]))
    return tape.gradient(y, v).numpy()


# ------------------------------------------------------------------------ tf.math: more names


def _value_and_gradient(tf, function, *values):
    """``function``'s value at Variables of ``values`` and the gradients of its sum."""
    variables = [tf.Variable(value) for value in values]
    with tf.GradientTape() as tape:
        result = function(*variables)
        total = tf.reduce_sum(result)
    gradients = tape.gradient(total, variables)
    return [result.numpy()] + [None if g is None else tf.convert_to_tensor(g).numpy()
                               for g in gradients]


_DATA = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0], [0.5, 2.0, 2.0], [-1.0, 0.0, 7.0]],
                 np.float32)


@case
def case_names_segment_sorted(tf):
    ids = tf.constant([0, 0, 2, 2])
    return [_value_and_gradient(tf, lambda x, f=f: f(x, ids), _DATA)
            for f in (tf.math.segment_sum, tf.math.segment_mean, tf.math.segment_max,
                      tf.math.segment_min, tf.math.segment_prod)]


@case
def case_names_segment_unsorted(tf):
    ids = tf.constant([2, 0, 2, -1])
    return [_value_and_gradient(tf, lambda x, f=f: f(x, ids, 4), _DATA)
            for f in (tf.math.unsorted_segment_sum, tf.math.unsorted_segment_mean,
                      tf.math.unsorted_segment_max, tf.math.unsorted_segment_min,
                      tf.math.unsorted_segment_prod, tf.math.unsorted_segment_sqrt_n)]


@case
def case_names_segment_ties_and_ints(tf):
    ties = _value_and_gradient(tf, lambda x: tf.math.segment_max(x, [0, 0, 1]),
                               np.array([2.0, 2.0, 1.0], np.float32))
    ints = tf.constant([3, 1, 4, 1])
    return [ties, tf.math.segment_sum(ints, [0, 1, 1, 3]).numpy(),
            tf.math.unsorted_segment_max(ints, [1, 1, 0, 0], 3).numpy(),
            tf.math.unsorted_segment_min(ints, [1, 1, 0, 0], 3).numpy(),
            tf.math.segment_mean(tf.constant([[1.0], [3.0]]), tf.constant([0, 0], tf.int64))
            .numpy()]


@case
def case_names_segment_unsorted_ids(tf):
    return tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0]), [1, 0, 0])


@case
def case_names_safe_division(tf):
    x = np.array([1.0, 0.0, -2.0, 3.0], np.float32)
    y = np.array([0.0, 0.0, 4.0, 2.0], np.float32)
    return [_value_and_gradient(tf, tf.math.divide_no_nan, x, y),
            _value_and_gradient(tf, tf.math.multiply_no_nan, x, y),
            _value_and_gradient(tf, tf.math.xdivy, x, y),
            _value_and_gradient(tf, tf.math.reciprocal_no_nan, y),
            tf.math.multiply_no_nan(tf.constant([np.inf, np.nan]), tf.constant([0.0, 0.0]))
            .numpy(),
            tf.math.divide_no_nan(tf.constant([np.inf, 1.0]), tf.constant([0.0, np.inf]))
            .numpy()]


@case
def case_names_divide_no_nan_ints(tf):
    return tf.math.divide_no_nan(tf.constant([1, 2]), tf.constant([0, 1]))


@case(rtol=1e-5, atol=1e-6)
def case_names_elementwise_more(tf):
    x = np.array([-1.5, 0.25, 2.0], np.float32)
    y = np.array([0.5, 1.0, -3.0], np.float32)
    return [_value_and_gradient(tf, tf.math.squared_difference, x, y),
            _value_and_gradient(tf, tf.math.log_sigmoid, x),
            _value_and_gradient(tf, tf.math.softsign, x),
            _value_and_gradient(tf, tf.nn.softsign, x),
            _value_and_gradient(tf, lambda a: tf.math.scalar_mul(3.0, a), x),
            _value_and_gradient(tf, lambda a: tf.math.erfcinv(a), np.array([0.5, 1.2], np.float32)),
            tf.math.rint(tf.constant([0.5, 1.5, 2.5, -0.5, -1.7])).numpy(),
            tf.math.logical_xor(tf.constant([True, False, True]), [True, True, False]).numpy(),
            tf.math.squared_difference(tf.constant([1, 5]), tf.constant([4, 2])).numpy(),
            tf.math.nextafter(tf.constant([1.0, 0.0], tf.float64),
                              tf.constant([2.0, -1.0], tf.float64)).numpy(),
            tf.math.scalar_mul(tf.constant(2), tf.constant([1, 2])).numpy()]


@case(rtol=1e-5, atol=1e-6)
def case_names_special_more(tf):
    return [_value_and_gradient(tf, tf.math.lbeta, np.array([[1.0, 2.0, 0.5], [3.0, 1.5, 2.0]],
                                                              np.float32)),
            tf.math.polygamma(tf.constant([0.0, 1.0, 2.0]), tf.constant([1.5, 2.0, 3.0])).numpy(),
            _value_and_gradient(tf, lambda x: tf.math.polyval([1.0, -2.0, 3.0], x),
                                np.array([0.5, 2.0], np.float32)),
            tf.math.polyval([], tf.constant([1.0, 2.0])).numpy(),
            tf.math.polyval([tf.constant(2), 1], tf.constant([3, 4])).numpy(),
            tf.math.accumulate_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]),
                                  tf.constant([5.0, 6.0])]).numpy()]


@case
def case_names_polyval_not_list(tf):
    return tf.math.polyval(tf.constant([1.0, 2.0]), tf.constant(1.0))


@case(rtol=1e-5, atol=1e-6)
def case_names_reductions_more(tf):
    x = np.array([[3.0, -4.0, 0.0], [1.0, 2.0, 2.0]], np.float32)
    return [_value_and_gradient(tf, tf.math.reduce_euclidean_norm, x),
            _value_and_gradient(tf, lambda a: tf.math.reduce_euclidean_norm(a, axis=1,
                                                                           keepdims=True), x),
            tf.math.reduce_euclidean_norm(tf.constant([[1, 2], [3, 4]]), axis=0).numpy(),
            tf.math.count_nonzero(tf.constant(x)).numpy(),
            tf.math.count_nonzero(tf.constant(x), axis=1, keepdims=True).numpy(),
            tf.math.count_nonzero(tf.constant([True, False]), dtype=tf.int32).numpy(),
            tf.math.zero_fraction(tf.constant(x)).numpy(),
            tf.math.zero_fraction(tf.constant([0, 1, 2, 0])).numpy()]


@case(rtol=1e-5, atol=1e-6)
def case_names_scans(tf):
    x = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]], np.float32)
    rows = []
    for exclusive in (False, True):
        for reverse in (False, True):
            rows.append(_value_and_gradient(
                tf, lambda a, e=exclusive, r=reverse: tf.math.cumprod(a, 1, e, r), x))
            rows.append(_value_and_gradient(
                tf, lambda a, e=exclusive, r=reverse: tf.math.cumulative_logsumexp(a, 0, e, r),
                x))
            rows.append(tf.math.cumsum(tf.constant(x), axis=1, exclusive=exclusive,
                                       reverse=reverse).numpy())
    return rows + [tf.math.cumprod(tf.constant([2, 3, 4])).numpy()]


@case
def case_names_ordering_checks(tf):
    return [tf.math.is_non_decreasing([1, 1, 2]).numpy(),
            tf.math.is_non_decreasing(tf.constant([[1, 2], [2, 1]])).numpy(),
            tf.math.is_strictly_increasing([1, 1, 2]).numpy(),
            tf.math.is_strictly_increasing(tf.constant([1.0, 2.0, 5.0])).numpy(),
            tf.math.is_strictly_increasing([3]).numpy(),
            tf.math.invert_permutation([3, 4, 0, 2, 1]).numpy(),
            tf.math.invert_permutation(tf.constant([1, 0], tf.int64)).numpy()]


@case
def case_names_invert_permutation_bad(tf):
    return tf.math.invert_permutation([0, 0, 1])


@case(rtol=1e-5, atol=1e-6)
def case_names_l2_normalize(tf):
    x = np.array([[3.0, 4.0], [0.0, 0.0], [1.0, -1.0]], np.float32)
    return [_value_and_gradient(tf, tf.math.l2_normalize, x),
            _value_and_gradient(tf, lambda a: tf.math.l2_normalize(a, axis=1), x),
            _value_and_gradient(tf, lambda a: tf.nn.l2_normalize(a, axis=0, epsilon=0.5), x),
            tf.linalg.l2_normalize(tf.constant([1.0, 1.0])).numpy()]


@case
def case_names_in_top_k(tf):
    predictions = tf.constant([[0.1, 0.9, 0.5], [0.8, 0.2, 0.8], [0.3, 0.3, 0.3]])
    return [tf.math.in_top_k([1, 2, 0], predictions, 1).numpy(),
            tf.math.in_top_k([2, 1, 1], predictions, 2).numpy(),
            tf.nn.in_top_k(tf.constant([0, 1, 2], tf.int64), predictions, k=3).numpy(),
            tf.math.in_top_k([0], tf.constant([[np.nan, 1.0]]), 2).numpy()]


@case
def case_names_confusion_matrix(tf):
    return [tf.math.confusion_matrix([1, 2, 4], [2, 2, 4]).numpy(),
            tf.math.confusion_matrix([0, 1, 1], [1, 1, 0], num_classes=3).numpy(),
            tf.math.confusion_matrix([0, 1], [1, 1], weights=[0.5, 2.0], dtype=tf.float32)
            .numpy(),
            tf.math.confusion_matrix(tf.constant([0, 2], tf.int64), [2, 2]).numpy()]


@case
def case_names_confusion_matrix_out_of_range(tf):
    return tf.math.confusion_matrix([0, 3], [1, 1], num_classes=3)


@case(rtol=1e-5, atol=1e-6)
def case_names_math_softmax(tf):
    x = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], np.float32)
    return [_value_and_gradient(tf, tf.math.softmax, x),
            _value_and_gradient(tf, lambda a: tf.math.log_softmax(a, axis=0), x)]


# ------------------------------------------------------------------------ tf.nn: more names

_IMAGE = (np.arange(2 * 5 * 5 * 2, dtype=np.float32).reshape(2, 5, 5, 2) % 7 - 3) / 4
_FILTERS = (np.arange(3 * 3 * 2 * 3, dtype=np.float32).reshape(3, 3, 2, 3) % 5 - 2) / 3


@case(rtol=1e-5, atol=1e-5)
def case_names_conv2d(tf):
    rows = []
    for strides, padding in ((1, "SAME"), (2, "SAME"), (1, "VALID"), ([1, 2, 1, 1], "VALID"),
                             (1, [[0, 0], [1, 0], [2, 1], [0, 0]])):
        rows.append(_value_and_gradient(
            tf, lambda x, w, s=strides, p=padding: tf.nn.conv2d(x, w, s, p), _IMAGE, _FILTERS))
    rows.append(_value_and_gradient(
        tf, lambda x, w: tf.nn.conv2d(x, w, 1, "SAME", dilations=2), _IMAGE, _FILTERS))
    rows.append(_value_and_gradient(
        tf, lambda x, w: tf.nn.convolution(x, w, padding="SAME"), _IMAGE, _FILTERS))
    return rows


@case(rtol=1e-5, atol=1e-5)
def case_names_conv1d_conv3d(tf):
    signal = _IMAGE[:, 0]
    volume = _IMAGE.reshape(2, 5, 5, 2, 1)[:, :3, :4]
    return [_value_and_gradient(tf, lambda x, w: tf.nn.conv1d(x, w, 2, "SAME"), signal,
                                _FILTERS[0]),
            _value_and_gradient(tf, lambda x, w: tf.nn.conv1d(x, w, 1, "VALID", dilations=2),
                                signal, _FILTERS[0]),
            _value_and_gradient(tf, lambda x, w: tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], "SAME"),
                                volume, _FILTERS[:2, :2, :2, :1, :2])]


@case(rtol=1e-5, atol=1e-5)
def case_names_conv_transpose_depthwise(tf):
    small = _IMAGE[:, :3, :3]
    rows = []
    for output_shape, strides, padding in (((2, 6, 6, 3), 2, "SAME"), ((2, 5, 5, 3), 2, "SAME"),
                                           ((2, 7, 7, 3), 2, "VALID"),
                                           ((2, 8, 8, 3), 2, "VALID"),
                                           ((2, 3, 3, 3), 1, "SAME")):
        rows.append(_value_and_gradient(
            tf, lambda x, w, o=output_shape, s=strides, p=padding:
            tf.nn.conv2d_transpose(x, w, o, s, p), small, _FILTERS.transpose(0, 1, 3, 2)))
    rows.append(_value_and_gradient(
        tf, lambda x, w: tf.nn.conv1d_transpose(x, w, (2, 6, 3), 2), small[:, 0],
        _FILTERS[0].transpose(0, 2, 1)))
    rows.append(_value_and_gradient(
        tf, lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME"), _IMAGE,
        _FILTERS[:, :, :, :2]))
    rows.append(_value_and_gradient(
        tf, lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "VALID"), _IMAGE,
        _FILTERS[:, :, :, :1]))
    return rows


@case(rtol=1e-5, atol=1e-6)
def case_names_pooling(tf):
    rows = []
    for pool in (tf.nn.max_pool2d, tf.nn.avg_pool2d, tf.nn.max_pool, tf.nn.avg_pool):
        for ksize, strides, padding in ((2, 2, "VALID"), (2, 2, "SAME"), (3, 1, "SAME"),
                                        ([1, 3, 2, 1], [1, 2, 1, 1], "SAME")):
            rows.append(_value_and_gradient(
                tf, lambda x, f=pool, k=ksize, s=strides, p=padding: f(x, k, s, p), _IMAGE))
    signal = _IMAGE[:, 0]
    volume = np.sin(np.arange(64, dtype=np.float32)).reshape(2, 4, 4, 2, 1)  # no ties
    rows += [_value_and_gradient(tf, lambda x: tf.nn.max_pool1d(x, 2, 2, "SAME"), signal),
             _value_and_gradient(tf, lambda x: tf.nn.avg_pool1d(x, 3, 1, "SAME"), signal),
             _value_and_gradient(tf, lambda x: tf.nn.max_pool3d(x, 2, 2, "VALID"), volume),
             _value_and_gradient(tf, lambda x: tf.nn.avg_pool3d(x, 2, 2, "SAME"), volume),
             _value_and_gradient(tf, lambda x: tf.nn.pool(x, [2, 2], "AVG", strides=[2, 2],
                                                          padding="SAME"), _IMAGE),
             _value_and_gradient(tf, lambda x: tf.nn.pool(x, [3], "MAX"), signal)]
    return rows


@case
def case_names_conv2d_bad_padding(tf):
    return tf.nn.conv2d(tf.zeros((1, 3, 3, 1)), tf.zeros((2, 2, 1, 1)), 1, "FULL")


@case(rtol=1e-5, atol=1e-6)
def case_names_nn_losses(tf):
    logits = np.array([[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]], np.float32)
    labels = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 1.0]], np.float32)
    return [
        _value_and_gradient(tf, lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=[2, 1], logits=x), logits),
        _value_and_gradient(tf, lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(
            tf.constant([[0, 1]], tf.int64), tf.reshape(x, (1, 2, 3))), logits),
        _value_and_gradient(tf, lambda x, z: tf.nn.weighted_cross_entropy_with_logits(
            z, x, 2.5), logits, labels),
        _value_and_gradient(tf, lambda x, z: tf.nn.sigmoid_cross_entropy_with_logits(z, x),
                            logits, labels),
        _value_and_gradient(tf, lambda x, z: tf.nn.softmax_cross_entropy_with_logits(z, x),
                            logits, labels),
        _value_and_gradient(tf, lambda x: tf.nn.log_poisson_loss(labels * 3, x), logits),
        _value_and_gradient(tf, lambda x: tf.nn.log_poisson_loss(labels * 3, x, True), logits),
        tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 4.0])).numpy(),
        tf.nn.compute_average_loss(tf.constant([1.0, 2.0]), sample_weight=[0.5, 1.0],
                                   global_batch_size=4).numpy(),
        tf.nn.scale_regularization_loss(tf.constant([0.5, 1.0])).numpy()]


@case
def case_names_sparse_softmax_bad_label(tf):
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[3],
                                                          logits=tf.constant([[0.0, 1.0]]))


@case(same_message=True)
def case_names_sparse_softmax_bad_rank(tf):
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[1]],
                                                          logits=tf.constant([[0.0, 1.0]]))


@case(rtol=1e-5, atol=1e-6)
def case_names_moments_batch_norm(tf):
    x = _IMAGE[:, :2, :3]
    mean = np.array([0.5, -0.25], np.float32)
    variance = np.array([2.0, 0.5], np.float32)

    def moments(a, keepdims=False):
        m, v = tf.nn.moments(a, axes=[0, 1, 2], keepdims=keepdims)
        return m * 2.0 + v

    count, total, squares, _ = tf.nn.sufficient_statistics(tf.constant(x), [0, 2])
    shifted = tf.nn.sufficient_statistics(tf.constant(x), [1], shift=0.5, keepdims=True)
    return [_value_and_gradient(tf, moments, x),
            _value_and_gradient(tf, lambda a: moments(a, True), x),
            [t.numpy() for t in tf.nn.moments(tf.constant(x), axes=1)],
            [count.numpy(), total.numpy(), squares.numpy()],
            [t.numpy() for t in shifted],
            [t.numpy() for t in tf.nn.normalize_moments(count, total, squares, None)],
            [t.numpy() for t in tf.nn.normalize_moments(*shifted)],
            [t.numpy() for t in tf.nn.weighted_moments(tf.constant(x), [0, 1],
                                                       tf.constant([[[[1.0]]], [[[3.0]]]]))],
            [t.numpy() for t in tf.nn.weighted_moments(tf.constant([1.0, 2.0]), 0, [0.0, 0.0])],
            _value_and_gradient(tf, lambda a, m, v, o, s: tf.nn.batch_normalization(
                a, m, v, o, s, 1e-3), x, mean, variance, mean * 2, variance / 2),
            _value_and_gradient(tf, lambda a: tf.nn.batch_normalization(a, mean, variance, None,
                                                                        None, 0.0), x)]


@case(rtol=1e-5, atol=1e-6)
def case_names_nn_small_ops(tf):
    x = np.array([[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]], np.float32)
    table = np.arange(12, dtype=np.float32).reshape(4, 3) / 3
    return [_value_and_gradient(tf, lambda a, b: tf.nn.bias_add(a, b), x,
                                np.array([1.0, 2.0, 3.0], np.float32)),
            _value_and_gradient(tf, lambda a, b: tf.nn.bias_add(a, b, data_format="NCHW"),
                                _IMAGE[:, :, :2, :2].transpose(0, 3, 1, 2),
                                np.array([1.0, -1.0], np.float32)),
            _value_and_gradient(tf, tf.nn.crelu, x),
            _value_and_gradient(tf, lambda a: tf.nn.crelu(a, axis=0), x),
            _value_and_gradient(tf, tf.nn.selu, x),
            _value_and_gradient(tf, lambda t: tf.nn.embedding_lookup(t, [[3, 0], [1, 3]]), table),
            _value_and_gradient(tf, lambda t: tf.nn.embedding_lookup(t, [2, 3], max_norm=2.0),
                                table),
            _value_and_gradient(tf, lambda a: tf.nn.local_response_normalization(
                a, depth_radius=1, bias=1.0, alpha=0.5, beta=0.75), _IMAGE),
            _value_and_gradient(tf, lambda a: tf.nn.lrn(a), _IMAGE),
            tf.nn.zero_fraction(tf.constant(x)).numpy()]


@case
def case_names_embedding_lookup_out_of_range(tf):
    return tf.nn.embedding_lookup(tf.zeros((3, 2)), [0, 3])


@case
def case_names_dropout(tf):
    x = tf.ones((200,))
    dropped = tf.nn.dropout(x, rate=0.25, seed=1).numpy()
    kept = dropped[dropped != 0]
    shared = tf.nn.dropout(tf.ones((4, 50)), 0.5, noise_shape=(4, 1)).numpy()
    return [bool(np.all(np.isclose(kept, 1 / 0.75))), bool(0 < kept.size < 200),
            bool(np.all(shared.min(axis=1) == shared.max(axis=1))),
            tf.nn.dropout(tf.constant([1.0, 2.0]), rate=0.0).numpy()]


@case(same_message=True)
def case_names_dropout_bad_rate(tf):
    return tf.nn.dropout(tf.ones((2,)), rate=1.0)


@case(same_message=True)
def case_names_dropout_ints(tf):
    return tf.nn.dropout(tf.constant([1, 2]), rate=0.5)


# ------------------------------------------------------------------------ tf.linalg: more names

_MATRIX = np.array([[4.0, 1.0, -2.0], [1.0, 5.0, 0.5], [-2.0, 0.5, 6.0]], np.float32)


@case(rtol=1e-5, atol=1e-5)
def case_names_linalg_layout(tf):
    batch = np.stack([_MATRIX, _MATRIX[::-1]])[:, :, :2]
    return [_value_and_gradient(tf, tf.linalg.matrix_transpose, batch),
            _value_and_gradient(tf, tf.linalg.adjoint, batch),
            tf.linalg.adjoint(tf.constant([[1 + 2j, 3 - 1j]])).numpy().imag,
            tf.linalg.matrix_transpose(tf.constant([[1 + 2j, 3j]]), conjugate=True).numpy()
            .imag,
            _value_and_gradient(tf, lambda a: tf.linalg.band_part(a, 1, 0), batch),
            _value_and_gradient(tf, lambda a: tf.linalg.band_part(a, -1, 0), _MATRIX),
            tf.linalg.band_part(tf.ones((3, 4), tf.int32), 0, -1).numpy(),
            tf.linalg.band_part(tf.ones((3, 4)), tf.constant(1), tf.constant(2)).numpy(),
            _value_and_gradient(tf, lambda a, d: tf.linalg.set_diag(a, d), batch,
                                np.array([[10.0, 20.0], [30.0, 40.0]], np.float32)),
            _value_and_gradient(tf, tf.linalg.tensor_diag_part,
                                np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2)),
            tf.linalg.eye(2, 3, dtype=tf.int32).numpy(),
            tf.linalg.einsum("ij,jk->ik", tf.constant(_MATRIX), tf.constant(_MATRIX)).numpy()]


@case
def case_names_band_part_too_wide(tf):
    return tf.linalg.band_part(tf.ones((2, 2)), 3, 0)


@case(rtol=1e-4, atol=1e-5)
def case_names_linalg_cholesky_normalize(tf):
    factors, perm = tf.linalg.lu(tf.constant(_MATRIX))
    return [_value_and_gradient(tf, tf.linalg.cholesky, _MATRIX),
            [t.numpy() for t in tf.linalg.normalize(tf.constant(_MATRIX))],
            [t.numpy() for t in tf.linalg.normalize(tf.constant(_MATRIX), ord=1, axis=1)],
            [t.numpy() for t in tf.linalg.normalize(tf.constant(_MATRIX), ord="fro",
                                                    axis=[0, 1])],
            _value_and_gradient(tf, lambda a: tf.linalg.normalize(a, axis=0)[0], _MATRIX),
            tf.linalg.lu_matrix_inverse(factors, perm).numpy()]


@case(rtol=1e-5, atol=1e-6)
def case_names_global_norm_clip(tf):
    a = np.array([3.0, 4.0], np.float32)
    b = np.array([[12.0]], np.float32)
    clipped, norm = tf.clip_by_global_norm([tf.constant(a), None, tf.constant(b)], 6.5)
    unclipped, _ = tf.clip_by_global_norm([tf.constant(a)], 10.0)
    forced, used = tf.clip_by_global_norm([tf.constant(a)], 1.0, use_norm=tf.constant(2.0))

    def clipped_sum(x, y):
        out, _ = tf.clip_by_global_norm([x, y], 6.5)
        return out[0] * 2.0 + tf.reduce_sum(out[1])

    return [tf.linalg.global_norm([tf.constant(a), None, tf.constant(b)]).numpy(),
            [clipped[0].numpy(), clipped[1], clipped[2].numpy(), norm.numpy()],
            unclipped[0].numpy(), [forced[0].numpy(), used.numpy()],
            _value_and_gradient(tf, clipped_sum, a, b),
            _value_and_gradient(tf, lambda x, y: tf.linalg.global_norm([x, y]), a, b)]


@case
def case_names_global_norm_not_list(tf):
    return tf.linalg.global_norm(tf.constant([1.0]))


# ------------------------------------------------------------------------ tf.signal: more names


@case(rtol=1e-5, atol=1e-6)
def case_names_signal_windows(tf):
    rows = []
    for length in (1, 2, 5, 8):
        rows.append([tf.signal.hann_window(length).numpy(),
                     tf.signal.hann_window(length, periodic=False).numpy(),
                     tf.signal.hamming_window(length).numpy(),
                     tf.signal.hamming_window(length, periodic=False, dtype=tf.float64).numpy(),
                     tf.signal.kaiser_window(length).numpy(),
                     tf.signal.kaiser_window(length, beta=2.5, dtype=tf.float64).numpy(),
                     tf.signal.vorbis_window(length).numpy()])
    return rows + [tf.signal.hann_window(0).numpy()]


@case(rtol=1e-5, atol=1e-6)
def case_names_signal_frame(tf):
    x = np.arange(14, dtype=np.float32).reshape(2, 7) / 3
    return [tf.signal.frame(tf.constant(x), 3, 2).numpy(),
            tf.signal.frame(tf.constant(x), 3, 2, pad_end=True, pad_value=-1.0).numpy(),
            tf.signal.frame(tf.constant(x), 2, 1, axis=0).numpy(),
            tf.signal.frame(tf.range(5), 6, 1).numpy(),
            tf.signal.frame(tf.range(5), 4, 3, pad_end=True).numpy(),
            _value_and_gradient(tf, lambda a: tf.signal.frame(a, 4, 2) * 2.0, x),
            _value_and_gradient(tf, lambda a: tf.signal.overlap_and_add(a, 2),
                                x.reshape(2, 7, 1)[:, :6].reshape(2, 2, 3)),
            tf.signal.overlap_and_add(tf.ones((3, 4), tf.int32), 2).numpy()]


@case(rtol=1e-4, atol=1e-4)
def case_names_signal_stft(tf):
    wave = np.sin(np.arange(40, dtype=np.float32) * 0.3) + np.cos(np.arange(40) * 1.1)
    wave = wave.astype(np.float32)
    spectrum = tf.signal.stft(tf.constant(wave), frame_length=8, frame_step=4)
    padded = tf.signal.stft(tf.constant(wave[None]), 10, 3, fft_length=16, pad_end=True,
                            window_fn=tf.signal.hamming_window)
    unwindowed = tf.signal.stft(tf.constant(wave), 8, 8, window_fn=None)
    inverse = tf.signal.inverse_stft(spectrum, 8, 4)

    def power(x):
        s = tf.signal.stft(x, frame_length=8, frame_step=4)
        return tf.math.real(s * tf.math.conj(s))

    return [spectrum.numpy().real, spectrum.numpy().imag, list(padded.shape),
            padded.numpy().real, unwindowed.numpy().imag, inverse.numpy(),
            _value_and_gradient(tf, power, wave)]


@case
def case_names_signal_frame_bad_step(tf):
    return tf.signal.frame(tf.range(5), 2, 0)


@case
def case_names_signal_frame_odd_sizes(tf):
    return [tf.signal.frame(tf.range(5), 0, 1).numpy(), tf.signal.frame(tf.range(5), 2, -1)
            .numpy()]


# ------------------------------------------------------------------------ tf: more top-level ops


@case(rtol=1e-5, atol=1e-6)
def case_names_top_level_math(tf):
    x = np.array([0.25, -0.5], np.float32)
    return [_value_and_gradient(tf, f, x) for f in (tf.acos, tf.asin, tf.atan, tf.sinh,
                                                     tf.cosh, tf.asinh, tf.atanh, tf.floor)] + [
        _value_and_gradient(tf, tf.atan2, x, x[::-1].copy()),
        _value_and_gradient(tf, lambda a: tf.acosh(a + 2.0), x),
        _value_and_gradient(tf, lambda a: tf.scalar_mul(2.5, a), x),
        tf.truncatemod(tf.constant([-7, 7]), 3).numpy(),
        tf.truncatediv(tf.constant([-7, 7]), 2).numpy(),
        tf.truncatediv(tf.constant([-7.0, 7.0]), 2.0).numpy(),
        _value_and_gradient(tf, tf.realdiv, x, np.array([2.0, -4.0], np.float32)),
        tf.saturate_cast(tf.constant([-5.0, 300.0, 7.6]), tf.uint8).numpy(),
        tf.saturate_cast(tf.constant([70000, -70000]), tf.int16).numpy(),
        tf.saturate_cast(tf.constant([1e39], tf.float64), tf.float32).numpy(),
        tf.saturate_cast(tf.constant([1.5, -2.5]), tf.int32).numpy()]


@case
def case_names_realdiv_ints(tf):
    return tf.realdiv(tf.constant([1]), tf.constant([2]))


@case(rtol=1e-5, atol=1e-6)
def case_names_shape_ops(tf):
    x = np.arange(12, dtype=np.float32).reshape(3, 4) / 4
    return [
        _value_and_gradient(tf, lambda a: tf.broadcast_to(a[0], [2, 4]), x),
        _value_and_gradient(tf, lambda a: tf.repeat(a, [1, 0, 2], axis=0), x),
        _value_and_gradient(tf, lambda a: tf.repeat(a, 2), x[:1, :2]),
        tf.repeat(tf.constant([[1, 2], [3, 4]]), 2, axis=1).numpy(),
        _value_and_gradient(tf, lambda a: tf.reverse(a, [0, 1]) * tf.range(4.0), x),
        tf.reverse(tf.constant([[1, 2], [3, 4]]), [-1]).numpy(),
        _value_and_gradient(tf, lambda a: tf.slice(a, [1, 1], [2, -1]) * 3.0, x),
        [p.numpy() for p in tf.split(tf.constant(x), 2, axis=1)],
        [p.numpy() for p in tf.split(tf.constant(x), [1, -1, 1], axis=1)],
        _value_and_gradient(tf, lambda a: tf.split(a, [2, 1])[0] * 2.0, x),
        _value_and_gradient(tf, lambda a: tf.reverse_sequence(a, [2, 4, 1], seq_axis=1), x),
        tf.reverse_sequence(tf.constant(x), tf.constant([3, 1, 0, 2], tf.int64), seq_axis=0,
                            batch_axis=1).numpy(),
        [s.numpy() for s in tf.shape_n([tf.zeros((2, 3)), tf.zeros(())])],
        tf.shape_n([tf.zeros((2,))], out_type=tf.int64)[0].numpy(),
        [t.numpy() for t in tf.identity_n([tf.constant(1), tf.constant([2.0])])],
        tf.ensure_shape(tf.constant(x), [None, 4]).numpy()]


@case
def case_names_split_uneven(tf):
    return tf.split(tf.range(5), 2)


@case
def case_names_slice_too_big(tf):
    return tf.slice(tf.range(5), [3], [4])


@case
def case_names_ensure_shape_mismatch(tf):
    return tf.ensure_shape(tf.zeros((2, 3)), [2, 2])


@case
def case_names_broadcast_to_bad(tf):
    return tf.broadcast_to(tf.constant([1, 2, 3]), [2, 2])


@case(rtol=1e-5, atol=1e-6)
def case_names_one_hot_sequence_mask(tf):
    return [tf.one_hot([0, 2, -1, 5], 3).numpy(),
            tf.one_hot(tf.constant([[1], [0]]), 2, on_value=5, off_value=-1).numpy(),
            tf.one_hot([1, 0], 3, axis=0).numpy(),
            tf.one_hot([1], 2, dtype=tf.int64).numpy(),
            tf.one_hot([1], 2, on_value=2.5).numpy(),
            _value_and_gradient(tf, lambda on: tf.one_hot([1, 0, 1], 2, on_value=on,
                                                          off_value=0.5), np.float32(3.0)),
            tf.sequence_mask([1, 3, 0]).numpy(), tf.sequence_mask([1, 3], 5).numpy(),
            tf.sequence_mask(tf.constant([[1], [2]]), 3, dtype=tf.float32).numpy()]


@case(rtol=1e-5, atol=1e-6)
def case_names_gather_scatter_nd(tf):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 8
    return [_value_and_gradient(tf, lambda a: tf.gather_nd(a, [[1, 2], [0, 0], [1, 2]]), x),
            _value_and_gradient(tf, lambda a: tf.gather_nd(a, [[[1, 0, 3]], [[0, 2, 1]]]), x),
            _value_and_gradient(tf, lambda a: tf.gather_nd(a, [[1]]), x),
            tf.gather_nd(tf.constant([[1, 2], [3, 4]]), tf.constant([[1, 1]], tf.int64))
            .numpy(),
            _value_and_gradient(tf, lambda u: tf.scatter_nd([[1], [3], [1]], u, [5]),
                                np.array([1.0, 2.0, 3.0], np.float32)),
            tf.scatter_nd([[0, 1], [1, 0]], tf.constant([5, 6]), tf.constant([2, 2])).numpy(),
            tf.scatter_nd([[1]], tf.constant([[1.0, 2.0]]), [3, 2]).numpy()]


@case
def case_names_gather_nd_out_of_range(tf):
    return tf.gather_nd(tf.zeros((2, 2)), [[2, 0]])


@case(rtol=1e-5, atol=1e-6)
def case_names_partition_stitch(tf):
    data = np.arange(10, dtype=np.float32).reshape(5, 2)
    parts = tf.dynamic_partition(tf.constant(data), [1, 0, 2, 1, 0], 4)

    def stitched(a, b):
        return tf.dynamic_stitch([[3, 0], [1, 2, 0]], [a, b]) * tf.range(1.0, 5.0)[:, None]

    y, idx, count = tf.unique_with_counts(tf.constant([4, 1, 4, 2, 1, 4]))
    y64, idx64, count64 = tf.unique_with_counts([1.5, 1.5], out_idx=tf.int64)
    return [[p.numpy() for p in parts],
            [p.numpy() for p in tf.dynamic_partition(tf.constant([[1, 2], [3, 4]]),
                                                     [[0, 1], [1, 1]], 2)],
            _value_and_gradient(tf, stitched, data[:2], data[2:5]),
            tf.dynamic_stitch([tf.constant([1]), tf.constant([0])],
                              [tf.constant([10]), tf.constant([20])]).numpy(),
            [y.numpy(), idx.numpy(), count.numpy()], [y64.numpy(), idx64.numpy(),
                                                      count64.numpy()]]


@case
def case_names_misc_top_level(tf):
    return [tf.is_tensor(tf.constant(1)), tf.is_tensor(tf.Variable(1.0)), tf.is_tensor(1.0),
            tf.is_tensor(np.array([1.0])), tf.get_static_value(tf.constant([1, 2])),
            tf.get_static_value(3), tf.no_op() is None, tf.newaxis is None,
            tf.constant([[1, 2]])[tf.newaxis].numpy()]


@case(rtol=1e-5, atol=1e-5)
def case_names_conv_more(tf):
    volume = np.sin(np.arange(2 * 3 * 4 * 4 * 2, dtype=np.float32)).reshape(2, 3, 4, 4, 2)
    kernel = np.cos(np.arange(2 * 2 * 2 * 3 * 2, dtype=np.float32)).reshape(2, 2, 2, 3, 2)
    return [
        _value_and_gradient(tf, lambda x, w: tf.nn.conv3d_transpose(x, w, (2, 6, 8, 8, 3), 2),
                            volume, kernel),
        _value_and_gradient(tf, lambda x, w: tf.nn.conv_transpose(x, w, (2, 5, 5, 3), 2,
                                                                  "VALID"),
                            _IMAGE[:, :2, :2], _FILTERS.transpose(0, 1, 3, 2)),
        _value_and_gradient(tf, lambda x, w: tf.nn.atrous_conv2d(x, w, 2, "SAME"), _IMAGE,
                            _FILTERS),
        _value_and_gradient(tf, lambda x, w: tf.nn.atrous_conv2d_transpose(
            x, w, (2, 5, 5, 3), 2, "SAME"), _IMAGE, _FILTERS.transpose(0, 1, 3, 2)),
        _value_and_gradient(tf, lambda x, d, p: tf.nn.separable_conv2d(
            x, d, p, [1, 1, 1, 1], "SAME"), _IMAGE, _FILTERS[:, :, :, :2],
            np.cos(np.arange(12, dtype=np.float32)).reshape(1, 1, 4, 3)),
        _value_and_gradient(tf, lambda x, d, p: tf.nn.separable_conv2d(
            x, d, p, [1, 2, 2, 1], "VALID"), _IMAGE, _FILTERS[:, :, :, :1],
            np.cos(np.arange(6, dtype=np.float32)).reshape(1, 1, 2, 3))]


@case
def case_names_atrous_rate_zero(tf):
    return tf.nn.atrous_conv2d(tf.zeros((1, 3, 3, 1)), tf.zeros((2, 2, 1, 1)), 0, "SAME")


@case(rtol=1e-5, atol=1e-6)
def case_names_block_rearrange(tf):
    x = np.arange(2 * 4 * 6 * 3, dtype=np.float32).reshape(2, 4, 6, 3)
    deep = np.arange(2 * 2 * 3 * 8, dtype=np.float32).reshape(2, 2, 3, 8)
    return [_value_and_gradient(tf, lambda a: tf.nn.space_to_depth(a, 2) * tf.range(12.0), x),
            _value_and_gradient(tf, lambda a: tf.nn.depth_to_space(a, 2) * tf.range(2.0), deep),
            _value_and_gradient(tf, lambda a: tf.space_to_batch_nd(a, [2, 3], [[0, 2], [1, 2]])
                                * tf.range(3.0), x),
            tf.space_to_batch(tf.constant(x[0, :, :, 0][None, :, :, None]), [2, 2],
                              [[0, 0], [0, 0]]).numpy(),
            tf.space_to_batch_nd(tf.constant(x[:, :, 0]), [2], [[1, 1]]).numpy(),
            _value_and_gradient(tf, lambda a: tf.batch_to_space(a, [2, 1], [[1, 0], [0, 2]])
                                * tf.range(3.0), x),
            tf.batch_to_space(tf.space_to_batch_nd(tf.constant(x), [2, 3], [[0, 2], [1, 2]]),
                              [2, 3], [[0, 2], [1, 2]]).numpy()]


@case
def case_names_depth_to_space_bad_channels(tf):
    return tf.nn.depth_to_space(tf.zeros((1, 1, 1, 3)), 2)


@case
def case_names_space_to_batch_not_divisible(tf):
    return tf.space_to_batch_nd(tf.zeros((1, 3, 2, 1)), [2, 2], [[0, 0], [0, 0]])


@case(rtol=1e-4, atol=1e-4)
def case_names_signal_dct(tf):
    x = np.array([[1.0, 2.0, -1.0, 0.5, 3.0], [0.0, 1.0, 4.0, -2.0, 1.0]], np.float32)
    rows = []
    for kind in (1, 2, 3, 4):
        for norm in ((None,) if kind == 1 else (None, "ortho")):
            rows.append(_value_and_gradient(
                tf, lambda a, k=kind, m=norm: tf.signal.dct(a, type=k, norm=m), x))
            rows.append(tf.signal.idct(tf.constant(x), type=kind, norm=norm).numpy())
    rows += [tf.signal.dct(tf.constant(x), n=3).numpy(), tf.signal.dct(tf.constant(x), n=7)
             .numpy(), tf.signal.dct(tf.constant(x, tf.float64), norm="ortho").numpy(),
             _value_and_gradient(tf, tf.signal.mfccs_from_log_mel_spectrograms, x)]
    return rows


@case(same_message=True)
def case_names_signal_dct_bad_norm(tf):
    return tf.signal.dct(tf.constant([1.0, 2.0]), norm="full")


@case(same_message=True)
def case_names_signal_dct_ortho_type1(tf):
    return tf.signal.dct(tf.constant([1.0, 2.0]), type=1, norm="ortho")


@case(rtol=1e-4, atol=1e-5)
def case_names_signal_mel(tf):
    return [tf.signal.linear_to_mel_weight_matrix().numpy(),
            tf.signal.linear_to_mel_weight_matrix(4, 9, 16000, 50.0, 7000.0).numpy(),
            tf.signal.linear_to_mel_weight_matrix(3, 6, 8000, dtype=tf.float64).numpy()]


@case(same_message=True)
def case_names_signal_mel_above_nyquist(tf):
    return tf.signal.linear_to_mel_weight_matrix(4, 9, 8000, 100.0, 4500.0)


@case(rtol=1e-4, atol=1e-5)
def case_names_signal_windows_more(tf):
    wave = np.cos(np.arange(32, dtype=np.float32) * 0.7).astype(np.float32)
    stft = tf.signal.stft(tf.constant(wave), 8, 2)
    window_fn = tf.signal.inverse_stft_window_fn(2)
    return [window_fn(8, tf.float32).numpy(), window_fn(6, dtype=tf.float64).numpy(),
            tf.signal.inverse_stft(stft, 8, 2, window_fn=window_fn).numpy(),
            tf.signal.kaiser_bessel_derived_window(8).numpy(),
            tf.signal.kaiser_bessel_derived_window(6, beta=3.0, dtype=tf.float64).numpy()]


@case(rtol=1e-4, atol=1e-5)
def case_names_linalg_banded(tf):
    compact = np.array([[[1.0, -1.0, 2.0, 9.0], [4.0, 5.0, 6.0, 7.0], [9.0, 0.5, 1.0, -2.0]]],
                       np.float32)
    rhs = np.arange(8, dtype=np.float32).reshape(1, 4, 2) / 4
    dense = np.array([[4.0, 1.0, 0.0], [2.0, 5.0, -1.0], [0.0, 1.0, 6.0]], np.float32)
    sequence = [tf.constant(compact[0, 0]), tf.constant(compact[0, 1]),
                tf.constant(compact[0, 2])]
    lower_bands = np.array([[2.0, 3.0, 4.0], [7.0, 2.0, 3.0]], np.float32)
    upper_bands = np.array([[2.0, 3.0, 4.0, 9.0], [-1.0, -2.0, -3.0, -4.0]], np.float32)
    return [_value_and_gradient(tf, tf.linalg.tridiagonal_matmul, compact, rhs),
            tf.linalg.tridiagonal_matmul(sequence, tf.constant(rhs[0]), "sequence").numpy(),
            tf.linalg.tridiagonal_matmul(tf.constant(dense), tf.ones((3, 1)), "matrix").numpy(),
            _value_and_gradient(tf, tf.linalg.tridiagonal_solve, compact, rhs),
            _value_and_gradient(tf, lambda d, r: tf.linalg.tridiagonal_solve(d, r),
                                compact, rhs[:, :, 0]),
            tf.linalg.tridiagonal_solve(tf.constant(compact), tf.constant(rhs.transpose(0, 2, 1)),
                                        transpose_rhs=True).numpy(),
            tf.linalg.tridiagonal_solve(tf.constant(dense), tf.ones((3,)), "matrix").numpy(),
            tf.linalg.tridiagonal_solve(sequence, tf.constant(rhs[0]), "sequence").numpy(),
            _value_and_gradient(tf, tf.linalg.banded_triangular_solve, lower_bands,
                                np.ones((3, 2), np.float32)),
            _value_and_gradient(tf, lambda b, r: tf.linalg.banded_triangular_solve(
                b, r, lower=False), upper_bands, np.ones((4, 1), np.float32)),
            tf.linalg.banded_triangular_solve(tf.constant(upper_bands), tf.ones((4, 1)),
                                              lower=False, adjoint=True).numpy(),
            tf.linalg.banded_triangular_solve(tf.constant(lower_bands[:1]), tf.ones((3, 1)))
            .numpy()]


@case(rtol=1e-5, atol=1e-6)
def case_names_strided_slice(tf):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    return [_value_and_gradient(tf, lambda a: tf.strided_slice(a, [0, 2, 3], [2, 0, 0],
                                                               [1, -1, -2]) * 2.0, x),
            tf.strided_slice(tf.constant(x), [1, 0, 0], [2, 3, 4], shrink_axis_mask=1).numpy(),
            tf.strided_slice(tf.constant(x), [0, 1], [0, 2], begin_mask=1, end_mask=1,
                             new_axis_mask=0).numpy(),
            tf.strided_slice(tf.constant(x), [0, 1], [1, 3], ellipsis_mask=1).numpy(),
            tf.strided_slice(tf.constant(x), [0, 0, 1], [1, 1, 3], new_axis_mask=2).numpy(),
            tf.strided_slice(tf.range(10), [8], [1], [-3]).numpy(),
            tf.strided_slice(tf.range(10), [-3], [0], end_mask=1).numpy()]


@case(rtol=1e-5, atol=1e-6)
def case_names_more_nn_math(tf):
    image = np.sin(np.arange(2 * 5 * 5 * 2, dtype=np.float32)).reshape(2, 5, 5, 2)
    values, where = tf.nn.max_pool_with_argmax(tf.constant(image), 2, 2, "SAME")
    values_b, where_b = tf.nn.max_pool_with_argmax(tf.constant(image), [1, 3, 2, 1], 1,
                                                   "VALID", include_batch_in_index=True,
                                                   output_dtype=tf.int32)
    top = tf.math.approx_max_k(tf.constant([[3.0, 1.0, 4.0, 1.0, 5.0], [9.0, 2.0, 6.0, 5.0,
                                                                         3.0]]), 2)
    return [values.numpy(), where.numpy(), values_b.numpy(), where_b.numpy(),
            _value_and_gradient(tf, lambda a: tf.nn.max_pool_with_argmax(a, 2, 2, "SAME")[0],
                                image),
            _value_and_gradient(tf, lambda a, m, v, b, g: tf.nn
                                .batch_norm_with_global_normalization(a, m, v, b, g, 0.01, True),
                                image, np.array([0.5, -0.5], np.float32),
                np.array([2.0, 1.0], np.float32), np.array([0.1, 0.2], np.float32),
                np.array([3.0, -1.0], np.float32)),
            tf.nn.batch_norm_with_global_normalization(
                tf.constant(image), tf.constant([0.5, -0.5]), tf.constant([2.0, 1.0]),
                tf.constant([0.1, 0.2]), tf.constant([3.0, -1.0]), 0.01, False).numpy(),
            top.values.numpy(), top.indices.numpy(),
            tf.nn.approx_max_k(tf.constant([1.0, 7.0, 3.0]), 1).values.numpy(),
            tf.histogram_fixed_width_bins(tf.constant([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0]),
                                          [0.0, 5.0], nbins=5).numpy(),
            tf.histogram_fixed_width_bins(tf.constant([-1.0, 0.0, 3.0, 7.0], tf.float64),
                                          tf.constant([0.0, 5.0], tf.float64), nbins=5,
                                          dtype=tf.int64).numpy(),
            tf.histogram_fixed_width_bins(tf.constant([0.1, 0.3, 0.7]), [0.0, 1.0]).numpy()]


@case
def case_names_approx_max_k_ints(tf):
    return tf.math.approx_max_k(tf.constant([1, 7, 3]), 1)


@case
def case_names_histogram_bins_ints(tf):
    return tf.histogram_fixed_width_bins(tf.constant([-1, 0, 3, 7]), [0, 5], nbins=5)


@case(rtol=1e-4, atol=1e-5)
def case_names_signal_mdct(tf):
    wave = np.sin(np.arange(24, dtype=np.float32) * 0.9).astype(np.float32)
    spectra = tf.signal.mdct(tf.constant(wave), 8)
    return [spectra.numpy(), tf.signal.mdct(tf.constant(wave[None]), 8, pad_end=True,
                                            norm="ortho").numpy(),
            tf.signal.mdct(tf.constant(wave), 4, window_fn=None).numpy(),
            tf.signal.inverse_mdct(spectra).numpy(),
            tf.signal.inverse_mdct(tf.signal.mdct(tf.constant(wave), 8, norm="ortho"),
                                   norm="ortho").numpy(),
            tf.signal.inverse_mdct(spectra, window_fn=None).numpy(),
            _value_and_gradient(tf, lambda a: tf.signal.mdct(a, 8, window_fn=tf.signal
                                                             .hann_window), wave)]


@case(same_message=True)
def case_names_signal_mdct_bad_length(tf):
    return tf.signal.mdct(tf.ones(12), 6)


@case(rtol=1e-5, atol=1e-6)
def case_names_morphology(tf):
    image = np.sin(np.arange(2 * 5 * 5 * 2, dtype=np.float32) * 1.3).reshape(2, 5, 5, 2)
    kernel = np.cos(np.arange(3 * 2 * 2, dtype=np.float32)).reshape(3, 2, 2) / 2
    return [_value_and_gradient(tf, lambda x, k: tf.nn.dilation2d(x, k, [1, 1, 1, 1], "SAME",
                                                                  "NHWC", [1, 1, 1, 1]),
                                image, kernel),
            _value_and_gradient(tf, lambda x, k: tf.nn.dilation2d(x, k, [1, 2, 1, 1], "VALID",
                                                                  "NHWC", [1, 1, 2, 1]),
                                image, kernel),
            _value_and_gradient(tf, lambda x, k: tf.nn.erosion2d(x, k, [1, 1, 2, 1], "SAME",
                                                                 "NHWC", [1, 2, 1, 1]),
                                image, kernel)]


@case
def case_names_small_utilities(tf):
    paddings, crops = tf.required_space_to_batch_paddings([5, 7], [2, 3])
    based = tf.required_space_to_batch_paddings([5, 7], [2, 3], base_paddings=[[1, 0], [0, 2]])
    collapsed, lengths = tf.nn.collapse_repeated(tf.constant([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]]),
                                                 [5, 3])
    return [[t.numpy() for t in tf.tuple([tf.constant(1), tf.constant([2.0])])],
            tf.guarantee_const(tf.constant([1.5])).numpy(),
            tf.bitcast(tf.constant([1.0]), tf.int32).numpy(),
            tf.bitcast(tf.constant([1, 2], tf.int32), tf.int64).numpy(),
            tf.bitcast(tf.constant([1], tf.int32), tf.uint8).numpy(),
            tf.bitcast(tf.constant([[1.5, -2.0]], tf.float64), tf.int64).numpy(),
            repr(tf.timestamp().dtype), float(tf.timestamp()) > 1.6e9,
            paddings.numpy(), crops.numpy(), [t.numpy() for t in based],
            collapsed.numpy(), lengths.numpy(),
            tf.nn.space_to_batch(tf.reshape(tf.range(4), (1, 2, 2, 1)), [2, 2],
                                 [[0, 0], [0, 0]]).numpy()]


@case
def case_names_bitcast_bad_shape(tf):
    return tf.bitcast(tf.constant([1, 2, 3], tf.int32), tf.int64)


@case
def case_names_function_signature_keywords_and_nesting(tf):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32),
                                  (tf.TensorSpec([], tf.int32), tf.TensorSpec([2], tf.float32))])
    def combine(values, pair):
        count, offset = pair
        return tf.reduce_sum(values) * tf.cast(count, tf.float32) + offset

    return [combine(tf.constant([1.0, 2.0]), (tf.constant(2), tf.constant([0.5, 1.0]))).numpy(),
            combine(values=[1.0, 1.0], pair=(3, [0.0, 1.0])).numpy(),
            combine([4.0], pair=(tf.constant(1), np.array([1.0, 2.0], np.float32))).numpy()]


@case(same_message=True)
def case_names_function_signature_missing(tf):
    @tf.function(input_signature=[tf.TensorSpec([None]), tf.TensorSpec([])])
    def scale(values, factor):
        return values * factor

    return scale(tf.constant([1.0]))


@case(rtol=1e-4, atol=1e-5)
def case_names_ctc_loss(tf):
    logits = np.sin(np.arange(6 * 2 * 4, dtype=np.float32) * 0.7).reshape(6, 2, 4)
    labels = np.array([[1, 2, 2], [3, 1, 0]], np.int32)
    return [_value_and_gradient(tf, lambda x: tf.nn.ctc_loss(labels, x, [3, 2], [6, 5]),
                                logits),
            _value_and_gradient(tf, lambda x: tf.nn.ctc_loss(labels % 3, x, [3, 2], [6, 6],
                                                             logits_time_major=False,
                                                             blank_index=-1),
                                logits.transpose(1, 0, 2).copy()),
            tf.nn.ctc_loss(tf.constant(labels % 3 + 1), tf.constant(logits), [2, 1], [6, 6],
                           blank_index=0).numpy(),
            tf.nn.ctc_loss(tf.constant([[2, 0]]), tf.constant(logits[:, :1]), [2], [6],
                           blank_index=1).numpy()]


@case(rtol=1e-5, atol=1e-6)
def case_names_index_ops_in_function(tf):
    @tf.function
    def step(labels, ids, logits):
        return [tf.one_hot(labels, 3),
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits),
                tf.nn.embedding_lookup(tf.reshape(tf.range(6.0), (3, 2)), ids),
                tf.math.unsorted_segment_max(tf.range(3.0), ids, 3),
                tf.math.unsorted_segment_sqrt_n(tf.range(3.0), ids, 3),
                tf.gather_nd(logits, tf.stack([tf.range(3), labels], axis=1)),
                tf.math.in_top_k(labels, logits, 1),
                tf.reverse_sequence(logits, labels + 1, seq_axis=1),
                tf.math.confusion_matrix(labels, ids, num_classes=3),
                tf.histogram_fixed_width_bins(tf.cast(labels, tf.float32), [0.0, 3.0], 3),
                tf.math.invert_permutation(ids),
                tf.sequence_mask(labels, 3)]

    logits = tf.constant([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0], [2.0, 2.0, 1.0]])
    first = step(tf.constant([0, 2, 1]), tf.constant([2, 0, 1]), logits)
    second = step(tf.constant([2, 1, 0]), tf.constant([1, 2, 0]), logits)
    return [[t.numpy() for t in first], [t.numpy() for t in second]]


@case(rtol=1e-5, atol=1e-5)
def case_names_sampled_losses(tf):
    weights = np.sin(np.arange(6 * 3, dtype=np.float32)).reshape(6, 3)
    biases = np.cos(np.arange(6, dtype=np.float32)) / 2
    inputs = np.cos(np.arange(2 * 3, dtype=np.float32) * 0.5).reshape(2, 3)
    labels = np.array([[1, 4], [0, 2]], np.int64)
    sample = (tf.constant([2, 5, 1], tf.int64), tf.constant([[0.3, 0.2], [0.6, 0.25]]),
              tf.constant([0.25, 0.1, 0.3]))
    hits = tf.nn.compute_accidental_hits(labels, sample[0], num_true=2)
    return [
        [hits.indices.numpy(), hits.ids.numpy(), hits.weights.numpy()],
        _value_and_gradient(tf, lambda w, b, x: tf.nn.nce_loss(
            w, b, labels, x, 3, 6, num_true=2, sampled_values=sample), weights, biases, inputs),
        _value_and_gradient(tf, lambda w, b, x: tf.nn.nce_loss(
            w, b, labels, x, 3, 6, num_true=2, sampled_values=sample,
            remove_accidental_hits=True), weights, biases, inputs),
        _value_and_gradient(tf, lambda w, b, x: tf.nn.sampled_softmax_loss(
            w, b, labels, x, 3, 6, num_true=2, sampled_values=sample), weights, biases, inputs),
        _value_and_gradient(tf, lambda w, b, x: tf.nn.sampled_softmax_loss(
            w, b, labels[:, :1], x, 3, 6, sampled_values=(sample[0], sample[1][:, :1],
                                                          sample[2]),
            remove_accidental_hits=False), weights, biases, inputs)]


@case
def case_names_sampled_softmax_default_sampler(tf):
    loss = tf.nn.sampled_softmax_loss(tf.ones((50, 4)), tf.zeros(50),
                                      tf.constant([[3], [7]], tf.int64),
                                      tf.ones((2, 4)), 5, 50, seed=1)
    return [list(loss.shape), loss.dtype.name, bool(np.all(np.isfinite(loss.numpy())))]
