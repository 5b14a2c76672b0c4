"""dtype inference and promotion follow PyTorch (Python scalars never upcast a float32 tensor)."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug


def test_python_floats_become_float32():
    assert ug.tensor([1.0, 2.0]).dtype == ug.float32
    assert ug.tensor(3.5).dtype == ug.float32
    assert ug.tensor([[1, 2.5]]).dtype == ug.float32


def test_python_ints_become_int64_and_bools_bool():
    assert ug.tensor([1, 2]).dtype == ug.int64
    assert ug.tensor(True).dtype == ug.bool


@pytest.mark.parametrize("dtype", [np.float64, np.float16, np.int32, np.int64, np.bool_])
def test_numpy_arrays_keep_their_dtype(dtype):
    assert ug.tensor(np.zeros(2, dtype=dtype))._data.dtype == np.dtype(dtype)


def test_explicit_dtype_keeps_python_values_exact():
    assert ug.tensor([0.1], dtype=ug.float64).tolist() == [0.1]
    assert ug.tensor([1, 2], dtype=ug.float32).dtype == ug.float32


def test_int_tensor_times_python_float_is_float32():
    result = ug.tensor([1, 2]) * 1.5
    assert result.dtype == ug.float32 and result.tolist() == [1.5, 3.0]


def test_float32_tensor_times_python_float_stays_float32():
    assert (ug.tensor([1.0, 2.0]) * 2.5).dtype == ug.float32
    assert (ug.tensor([1.0], dtype=ug.float16) + 1.0).dtype == ug.float16


def test_zero_dim_tensor_does_not_promote_dimensioned_tensor():
    result = ug.tensor([1.0, 2.0]) + ug.tensor(1.0, dtype=ug.float64)
    assert result.dtype == ug.float32


def test_dimensioned_tensors_promote():
    assert (ug.tensor([1.0]) + ug.tensor([1.0], dtype=ug.float64)).dtype == ug.float64
    assert (ug.tensor([1], dtype=ug.int32) + ug.tensor([1], dtype=ug.int64)).dtype == ug.int64


def test_true_division_of_ints_is_float32():
    result = ug.tensor([1, 2]) / ug.tensor([2, 4])
    assert result.dtype == ug.float32 and result.tolist() == [0.5, 0.5]
    assert (ug.tensor([3]) / 2).dtype == ug.float32


def test_requires_grad_on_int_tensor_raises():
    with pytest.raises(RuntimeError, match="only Tensors of floating point and complex dtype "
                                           "can require gradients"):
        ug.tensor([1, 2], requires_grad=True)


def test_gradient_dtype_matches_input_dtype():
    x32 = ug.tensor([1.0], requires_grad=True)
    x64 = ug.tensor([1.0], dtype=ug.float64, requires_grad=True)
    (x32 * x64).sum().backward()
    assert x32.grad.dtype == ug.float32 and x64.grad.dtype == ug.float64


def test_promotion_matches_torch():
    torch = pytest.importorskip("torch")
    cases = [
        (lambda m: m.tensor([1, 2]) * 1.5),
        (lambda m: m.tensor([1.0, 2.0]) * 2.5),
        (lambda m: m.tensor([1.0, 2.0]) + m.tensor(1.0, dtype=m.float64)),
        (lambda m: m.tensor([1], dtype=m.int32) + m.tensor([1], dtype=m.int64)),
        (lambda m: m.tensor([1, 2]) / m.tensor([2, 4])),
        (lambda m: m.tensor([1], dtype=m.int32) * 2),
    ]
    for case in cases:
        assert str(case(torch).dtype).replace("torch.", "") == case(ug).dtype.name
