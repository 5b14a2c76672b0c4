"""Elementwise ops at their edges: broadcast errors, bad operands, kinks."""

import numpy as np
import pytest

import unigrad as ug


def test_operands_that_do_not_broadcast_raise_pytorchs_error():
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of "
                                           r"tensor b \(4\) at non-singleton dimension 1"):
        ug.ones(2, 3) + ug.ones(4)


def test_unary_op_on_a_string_names_what_it_expected():
    with pytest.raises(TypeError, match="expected a Tensor, an array or a number as input, "
                                        "got str"):
        ug.exp("a")


def test_softplus_derivatives_are_exact_at_zero():
    x = ug.tensor(0.0, dtype=ug.float64, requires_grad=True)
    (first,) = ug.autograd.grad(ug.softplus(x), x, create_graph=True)
    (second,) = ug.autograd.grad(first, x)
    assert first.item() == 0.5
    assert second.item() == 0.25


def test_half_precision_prints_like_pytorch():
    assert repr(ug.tensor([1500.0, 2.5], dtype=ug.float16)) == \
        "tensor([1500.0000,    2.5000], dtype=unigrad.float16)"


def test_mean_of_half_precision_accumulates_in_float32():
    values = ug.full((4096,), 1.0001, dtype=ug.float16)
    assert abs(values.mean().item() - 1.0) < 1e-3
    assert values.mean().dtype == ug.float16


def test_lerp_refuses_integers_and_mixed_dtypes_as_pytorch():
    with pytest.raises(NotImplementedError, match="lerp_kernel_scalar.*'Long'"):
        ug.lerp(ug.tensor([1, 2]), ug.tensor([3, 4]), 0.5)
    with pytest.raises(RuntimeError, match="expected dtype float for `end` but got dtype long"):
        ug.lerp(ug.tensor([1.0, 2.0]), ug.tensor([3, 4]), 0.5)
    assert ug.lerp(ug.tensor([1.0, 2.0]), ug.tensor([3.0, 4.0]), ug.tensor(0.5)).tolist() == \
        [2.0, 3.0]


def test_integer_floor_division_by_zero_raises_as_pytorch():
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        ug.floor_divide(ug.tensor([3, 4]), 0)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        ug.tensor([3, 4]) // ug.tensor([1, 0])
    with np.errstate(divide="ignore"):
        assert ug.floor_divide(ug.tensor([3.0, -4.0]), 0).tolist() == [np.inf, -np.inf]


@pytest.mark.torch
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_sigmoid_matches_torch_over_a_wide_range(dtype):
    torch = pytest.importorskip("torch")
    values = np.linspace(-120, 120, 4005).astype(dtype)
    ours = ug.sigmoid(ug.tensor(values)).numpy()
    theirs = torch.sigmoid(torch.from_numpy(values)).numpy()
    assert ours.dtype == theirs.dtype
    # a few ulps apart where the two exp implementations round differently
    rtol = {"float16": 1e-3, "float32": 1e-6, "float64": 1e-15}[dtype]
    np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=0)
