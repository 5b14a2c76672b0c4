"""TensorFlow front-end: tf.DType, tf.print's standard streams, tf.TensorSpec's signature check.

Values compared with TensorFlow itself are in recorded_cases/tensorflow_names_cases.py; these
tests cover what a recorded case cannot see (NumPy/unigrad dtype interplay, pickling, the
process's standard streams, the signature check on its own).
"""

from __future__ import annotations

import pickle
import sys

import numpy as np
import pytest

import unigrad as ug
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch
from unigrad.compat.tensorflow.tensor_spec import check_signature

# ------------------------------------------------------------------------ tf.DType


def test_dtype_equals_and_hashes_like_unigrad_and_numpy_dtypes():
    assert tf.float32 == ug.float32 and ug.float32 == tf.float32
    assert hash(tf.float32) == hash(ug.float32)
    assert {ug.int64: "x"}[tf.int64] == "x"
    assert tf.constant([1.0]).dtype == np.float32
    assert tf.float32 != "float64" and tf.float32 != tf.float64


def test_dtype_leaves_unigrads_own_dtypes_alone():
    assert type(ug.float32) is not type(tf.float32)
    assert repr(tf.float32) == "tf.float32"
    assert repr(torch.tensor([1.0]).dtype) == repr(ug.float32)  # the torch dialect's text


def test_dtype_pickles_to_the_same_object():
    assert pickle.loads(pickle.dumps(tf.complex64)) is tf.complex64


def test_tensor_and_variable_dtypes_are_tensorflow_dtypes():
    assert tf.constant(1).dtype is tf.int32
    assert tf.Variable(1.0).dtype is tf.float32
    assert (tf.constant([1.0]) * 2).dtype is tf.float32
    assert repr(tf.constant([1.0])) == \
        "<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>"


def test_unigrad_ops_accept_tensorflow_dtypes():
    assert ug.zeros(2, dtype=tf.float64).dtype == ug.float64
    assert ug.tensor([1, 2]).to(tf.int8).dtype == ug.int8


def test_as_dtype_rejects_an_unknown_name():
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`: 'foo'"):
        tf.as_dtype("foo")


# ------------------------------------------------------------------------ tf.print


def test_print_writes_to_stdout_and_stderr(capsys):
    tf.print(tf.constant([1, 2]), output_stream=sys.stdout)
    tf.print("to stderr", tf.constant(0.5))
    captured = capsys.readouterr()
    assert captured.out == "[1 2]\n"
    assert captured.err == "to stderr 0.5\n"


def test_print_rejects_another_stream_before_writing(capsys):
    with pytest.raises(ValueError, match="Unsupported output stream"):
        tf.print(tf.constant(1), output_stream=open)
    assert capsys.readouterr() == ("", "")


# ------------------------------------------------------------------------ tf.TensorSpec


def test_check_signature_converts_python_values_and_passes_tensors():
    spec = [tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)]
    x = tf.constant([1.0, 2.0])
    converted = check_signature(spec, (x, 3))
    assert converted[0] is x
    assert converted[1].dtype is tf.int32 and int(converted[1]) == 3


def test_check_signature_names_the_parameters_in_its_error():
    def scale(values, factor):
        return values * factor

    spec = [tf.TensorSpec([None]), tf.TensorSpec([])]
    with pytest.raises(TypeError, match=r"for signature: \(values: TensorSpec\(shape=\(None,\), "
                                        r"dtype=tf.float32, name=None\), factor: "):
        check_signature(spec, (tf.constant([1, 2]), 1.0), scale)


def test_check_signature_without_signature_keeps_the_arguments():
    assert check_signature(None, (1, "a")) == (1, "a")


def test_tensor_spec_is_hashable_and_copyable():
    spec = tf.TensorSpec((2, None), tf.int64, name="ids")
    assert {spec: 1}[tf.TensorSpec.from_spec(spec)] == 1
    assert tf.TensorSpec.from_spec(spec, name="other").name == "other"


def test_print_inside_function_prints_at_every_call(capsys):
    @tf.function
    def step(x):
        tf.print("x:", x, output_stream=sys.stdout)
        return x + 1

    step(tf.constant([1.0]))
    step(tf.constant([2.0]))
    assert capsys.readouterr().out == "x: [1]\nx: [2]\n"


# ------------------------------------------------------------------------ layouts TensorFlow's
# CPU kernels lack (recorded cases cannot cover them)


def test_depth_to_space_nchw_is_nhwc_transposed():
    x = tf.reshape(tf.range(2 * 2 * 3 * 8, dtype=tf.float32), (2, 2, 3, 8))
    nhwc = tf.nn.depth_to_space(x, 2).numpy()
    nchw = tf.nn.depth_to_space(tf.transpose(x, (0, 3, 1, 2)), 2, data_format="NCHW").numpy()
    np.testing.assert_array_equal(nchw.transpose(0, 2, 3, 1), nhwc)
    back = tf.nn.space_to_depth(tf.constant(nchw), 2, data_format="NCHW").numpy()
    np.testing.assert_array_equal(back.transpose(0, 2, 3, 1), x.numpy())


def test_approx_min_k_is_the_smallest_k_in_order():
    result = tf.math.approx_min_k(tf.constant([[3.0, 1.0, 4.0, 1.5]]), 2)
    np.testing.assert_array_equal(result.values.numpy(), [[1.0, 1.5]])
    np.testing.assert_array_equal(result.indices.numpy(), [[1, 3]])
    assert result.indices.dtype is tf.int32


def test_values_that_set_a_shape_are_not_baked_into_a_function():
    from unigrad.graph import ConcretizationError

    @tf.function
    def sums(x, ids):
        return tf.math.segment_sum(x, ids)  # the number of segments depends on ids

    with pytest.raises(ConcretizationError):
        sums(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0, 1]))
