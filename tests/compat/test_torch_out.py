"""PyTorch's ``out=`` argument on ``unigrad.compat.torch`` functions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import unigrad as ug
import unigrad.compat.torch as torch


def test_out_receives_the_result_and_is_returned():
    out = torch.zeros(2)
    result = torch.add(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), out=out)
    assert result is out
    np.testing.assert_array_equal(out.numpy(), [4.0, 6.0])
    assert out._version == 1


def test_integer_result_goes_into_a_float_out():
    out = torch.zeros(3)
    torch.arange(3, out=out)
    assert out.dtype == torch.float32
    np.testing.assert_array_equal(out.numpy(), [0.0, 1.0, 2.0])


def test_float_result_into_integer_out_is_refused_and_out_unchanged():
    out = torch.tensor([7, 7])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                           "output type Long"):
        torch.sin(torch.tensor([1.0, 2.0]), out=out)
    np.testing.assert_array_equal(out.numpy(), [7, 7])
    assert out._version == 0


def test_out_with_autograd_is_refused_and_out_unchanged():
    x = torch.ones(2, requires_grad=True)
    out = torch.full((2,), 5.0)
    with pytest.raises(RuntimeError, match=r"mul\(\): functions with out=\.\.\. arguments don't "
                                           r"support automatic differentiation"):
        torch.mul(x, 2.0, out=out)
    np.testing.assert_array_equal(out.numpy(), [5.0, 5.0])
    with torch.no_grad():
        torch.mul(x, 2.0, out=out)
    np.testing.assert_array_equal(out.numpy(), [2.0, 2.0])


def test_empty_out_is_resized_silently_and_a_full_one_with_a_warning():
    empty = torch.empty(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.cat([torch.ones(2), torch.zeros(1)], out=empty)
    assert empty.shape == (3,)
    np.testing.assert_array_equal(empty.numpy(), [1.0, 1.0, 0.0])
    full = torch.zeros(1)
    with pytest.warns(UserWarning, match="was resized since it had shape \\[1\\]"):
        torch.exp(torch.zeros(2), out=full)
    np.testing.assert_array_equal(full.numpy(), [1.0, 1.0])


def test_a_view_cannot_be_resized():
    base = torch.zeros(2, 2)
    row = base[0]
    with pytest.raises(RuntimeError, match="cannot resize 'out'"):
        torch.ones(3, out=row)
    np.testing.assert_array_equal(base.numpy(), np.zeros((2, 2)))


def test_writing_into_a_view_reaches_its_base():
    base = torch.zeros(2, 2)
    torch.add(torch.ones(2), 1.0, out=base[1])
    np.testing.assert_array_equal(base.numpy(), [[0.0, 0.0], [2.0, 2.0]])


def test_tuple_results_fill_a_tuple_of_outs():
    values, indices = torch.zeros(2), torch.zeros(2, dtype=torch.long)
    result = torch.max(torch.tensor([[1.0, 3.0], [4.0, 2.0]]), 1, out=(values, indices))
    assert result.values is values and result.indices is indices
    np.testing.assert_array_equal(values.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(indices.numpy(), [1, 0])
    with pytest.raises(TypeError, match="must be a tuple of 2 Tensors"):
        torch.max(torch.ones(2, 2), 1, out=values)


def test_out_must_be_a_tensor():
    with pytest.raises(TypeError, match="argument 'out' must be Tensor, not list"):
        torch.neg(torch.ones(1), out=[0.0])


def test_view_functions_and_unigrad_itself_take_no_out():
    with pytest.raises(TypeError):
        torch.reshape(torch.ones(2), (2, 1), out=torch.zeros(2, 1))
    with pytest.raises(TypeError):
        ug.sin(ug.ones(1), out=ug.zeros(1))
    assert torch.sin.__wrapped_op__ is ug.sin
