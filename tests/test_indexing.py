"""Indexing semantics: views and version counters, setitem and its gradient, masks,
negative and repeated indices, gather/scatter, and the errors PyTorch raises."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad.ops.indexing import Index, IndexArray, normalize_index


def matrix(requires_grad: bool = False) -> ug.Tensor:
    return ug.arange(12.0).reshape(3, 4).requires_grad_(requires_grad)


# ----------------------------------------------------------------------------- reading

def test_basic_index_values_and_negative_indices():
    x = matrix()
    assert x[1].tolist() == [4.0, 5.0, 6.0, 7.0]
    assert x[-1, -2].item() == 10.0
    assert x[:, -1].tolist() == [3.0, 7.0, 11.0]
    assert x[None, ..., 1:3].shape == (1, 3, 2)
    assert x[True].shape == (1, 3, 4)
    assert x[False].shape == (0, 3, 4)


def test_advanced_index_values():
    x = matrix()
    assert x[[2, -3]].tolist() == [[8.0, 9.0, 10.0, 11.0], [0.0, 1.0, 2.0, 3.0]]
    assert x[ug.tensor([0, 2]), ug.tensor([3, 1])].tolist() == [3.0, 9.0]
    assert x[ug.tensor(1)].tolist() == [4.0, 5.0, 6.0, 7.0]
    assert x[[]].shape == (0, 4)
    assert x[[0, 1], :, None].shape == (2, 4, 1)


def test_boolean_mask_values_and_gradient():
    x = matrix(requires_grad=True)
    mask = x > 6.5
    picked = x[mask]
    assert picked.tolist() == [7.0, 8.0, 9.0, 10.0, 11.0]
    (picked * ug.arange(5.0)).sum().backward()
    expected = np.zeros((3, 4))
    expected[mask.numpy()] = np.arange(5.0)
    np.testing.assert_array_equal(x.grad.numpy(), expected)


def test_row_mask_and_numpy_mask():
    x = matrix()
    assert x[ug.tensor([True, False, True])].shape == (2, 4)
    assert x[:, np.array([False, True, True, False])].tolist() == [[1, 2], [5, 6], [9, 10]]


def test_repeated_advanced_indices_accumulate_gradients():
    x = ug.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    x[[0, 0, 1]].sum().backward()
    assert x.grad.tolist() == [2.0, 1.0, 0.0, 0.0]


def test_repeated_indices_second_order():
    x = ug.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x[[0, 0, 2]] ** 3).sum()
    (grad,) = ug.autograd.grad(y, x, create_graph=True)
    assert grad.tolist() == [6.0, 0.0, 27.0]
    (second,) = ug.autograd.grad(grad.sum(), x)
    assert second.tolist() == [12.0, 0.0, 18.0]


def test_iteration_uses_getitem():
    x = matrix(requires_grad=True)
    rows = list(x)
    assert len(rows) == 3 and rows[2].tolist() == [8.0, 9.0, 10.0, 11.0]
    (rows[0] * 2 + rows[2]).sum().backward()
    assert x.grad[:, 0].tolist() == [2.0, 0.0, 1.0]


# ----------------------------------------------------------------------------- views

def test_basic_index_is_a_view_sharing_storage_and_version():
    x = matrix()
    row = x[1]
    assert row._vc is x._vc
    row.fill_(-1.0)
    assert x[1].tolist() == [-1.0] * 4
    assert x._version == 1


def test_advanced_index_is_a_copy():
    x = matrix()
    rows = x[[1]]
    rows.fill_(-1.0)
    assert x[1].tolist() == [4.0, 5.0, 6.0, 7.0]
    assert x._version == 0


def test_inplace_on_view_invalidates_saved_base():
    a = ug.tensor([0.0, 1.0, 2.0], requires_grad=True)
    b = a.exp()  # saves its output for backward
    view = b[1:]
    with ug.no_grad():
        view.mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        b.sum().backward()


def test_version_error_names_expected_version():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1.0
    z = y * y  # saves y
    y[0] = 5.0
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
        z.sum().backward()


# ----------------------------------------------------------------------------- setitem

def test_setitem_values_and_dtype_cast():
    x = ug.zeros(2, 3)
    x[0] = ug.tensor([1.0, 2.0, 3.0])
    x[:, 2] = 7.0
    x[1, [0, 1]] = ug.tensor([4.0, 5.0], dtype=ug.float64)
    assert x.tolist() == [[1.0, 2.0, 7.0], [4.0, 5.0, 7.0]]
    assert x.dtype == ug.float32 and x._version == 3
    counts = ug.zeros(3, dtype=ug.int64)
    counts[1] = 2.7
    assert counts.tolist() == [0, 2, 0]


def test_setitem_with_mask():
    x = ug.tensor([1.0, -2.0, 3.0, -4.0])
    x[x < 0] = 0.0
    assert x.tolist() == [1.0, 0.0, 3.0, 0.0]


def test_setitem_gradient_flows_to_old_values_and_to_value():
    x = ug.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    value = ug.tensor([10.0, 20.0], requires_grad=True)
    y = x * 2.0
    y[0] = value * 3.0
    assert y.grad_fn.name() == "IndexPutBackward0"
    (y * ug.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert x.grad.tolist() == [[0.0, 0.0], [6.0, 8.0]]
    assert value.grad.tolist() == [3.0, 6.0]


def test_setitem_broadcast_value_gradient_is_summed():
    x = ug.zeros(3, 2).requires_grad_()
    value = ug.tensor(2.0, requires_grad=True)
    y = x + 0.0
    y[[0, 2]] = value
    y.sum().backward()
    assert value.grad.item() == 4.0
    assert x.grad.tolist() == [[0.0, 0.0], [1.0, 1.0], [0.0, 0.0]]


def test_setitem_on_leaf_requiring_grad_raises():
    x = ug.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        x[0] = 1.0
    with ug.no_grad():
        x[0] = 1.0
    assert x.tolist() == [1.0, 0.0, 0.0]


def test_setitem_shape_mismatch():
    x = ug.zeros(3)
    with pytest.raises(RuntimeError, match=r"shape mismatch: value tensor of shape \[3\] cannot "
                                           r"be broadcast to indexing result of shape \[2\]"):
        x[[0, 1]] = ug.ones(3)


# ----------------------------------------------------------------------------- index errors

@pytest.mark.parametrize("index, message", [
    (5, "index 5 is out of bounds for dimension 0 with size 3"),
    (-4, "index -4 is out of bounds for dimension 0 with size 3"),
    ((slice(None), 7), "index 7 is out of bounds for dimension 1 with size 4"),
    ([0, 5], "index 5 is out of bounds for dimension 0 with size 3"),
    ((0, 0, 0), "too many indices for tensor of dimension 2"),
    ((Ellipsis, 0, Ellipsis), "an index can only have a single ellipsis"),
    (1.5, r"only integers, slices \(`:`\), ellipsis .* \(got float\)"),
    (np.array([0.5]), "tensors used as indices must be long, int, byte or bool tensors"),
    (np.array([True, False]), r"The shape of the mask \[2\] at index 0 does not match the shape "
                              r"of the indexed tensor \[3, 4\] at index 0"),
])
def test_index_errors(index, message):
    with pytest.raises(IndexError, match=message):
        matrix()[index]


def test_negative_slice_step_is_rejected():
    with pytest.raises(ValueError, match="step must be greater than zero"):
        matrix()[::-1]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        matrix()[::0]


def test_index_descriptions_are_hashable_and_compare_by_value():
    first = normalize_index((slice(1, None), np.array([0, 2])), (3, 4))
    second = normalize_index((slice(1, None), [0, 2]), (3, 4))
    assert first == second and hash(first) == hash(second)
    assert normalize_index([0, 1], (3,)) != normalize_index([1, 0], (3,))
    assert Index((0,)).basic and not Index((IndexArray(np.array([0])),)).basic


# ----------------------------------------------------------------------------- gather family

def test_gather_and_its_gradient():
    x = ug.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    index = ug.tensor([[0, 0], [1, 0]])
    out = ug.gather(x, 1, index)
    assert out.tolist() == [[1.0, 1.0], [4.0, 3.0]]
    out.sum().backward()
    assert x.grad.tolist() == [[2.0, 0.0], [1.0, 1.0]]


def test_scatter_add_accumulates_and_differentiates():
    base = ug.zeros(3, requires_grad=True)
    src = ug.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = ug.scatter_add(base, 0, ug.tensor([0, 2, 0]), src)
    assert out.tolist() == [4.0, 0.0, 2.0]
    (out * ug.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert base.grad.tolist() == [1.0, 10.0, 100.0]
    assert src.grad.tolist() == [1.0, 100.0, 1.0]


def test_scatter_add_in_place_method():
    x = ug.zeros(2, 2)
    x.scatter_add_(1, ug.tensor([[1, 1], [0, 1]]), ug.ones(2, 2))
    assert x.tolist() == [[0.0, 2.0], [1.0, 1.0]]


@pytest.mark.parametrize("call, error, message", [
    (lambda x: ug.gather(x, 0, ug.tensor([[5]])), RuntimeError,
     "index 5 is out of bounds for dimension 0 with size 3"),
    (lambda x: ug.gather(x, 0, ug.tensor([[-1]])), RuntimeError,
     "index -1 is out of bounds for dimension 0 with size 3"),
    (lambda x: ug.gather(x, 0, ug.tensor([0])), RuntimeError,
     "Index tensor must have the same number of dimensions as input tensor"),
    (lambda x: ug.gather(x, 0, ug.tensor([[0, 0, 0, 0, 0]])), RuntimeError,
     r"Size does not match at dimension 1 expected index \[1, 5\] to be no larger than self "
     r"\[3, 4\] apart from dimension 0"),
    (lambda x: ug.gather(x, 0, ug.tensor([[0.0]])), RuntimeError,
     r"gather\(\): Expected dtype int32/int64 for index"),
    (lambda x: ug.gather(x, 2, ug.tensor([[0]])), IndexError, "Dimension out of range"),
    (lambda x: ug.scatter_add(x, 0, ug.tensor([[0, 1]]), ug.ones(1, 1)), RuntimeError,
     r"Expected index \[1, 2\] to be no larger than self \[3, 4\] apart from dimension 0 and to "
     r"be no larger size than src \[1, 1\]"),
    (lambda x: ug.index_select(x, 0, ug.tensor([[0]])), IndexError,
     "Index is supposed to be a vector"),
    (lambda x: ug.index_select(x, 0, ug.tensor([7])), IndexError, "index out of range in self"),
    (lambda x: ug.take(x, ug.tensor([12])), IndexError,
     "out of range: tried to access index 12 on a tensor of 12 elements."),
    (lambda x: x.masked_fill(ug.ones(3, 4), 1.0), RuntimeError,
     "masked_fill_ only supports boolean masks"),
    (lambda x: x.masked_fill(x > 0, ug.ones(2)), RuntimeError,
     "only supports a 0-dimensional value tensor, but got tensor with 1 dimension"),
    (lambda x: ug.take_along_axis(x, ug.tensor([0]), axis=0), ValueError,
     "`indices` and `arr` must have the same number of dimensions"),
    (lambda x: ug.take_along_axis(x, ug.tensor([[4]]), axis=1), IndexError,
     "index 4 is out of bounds for dimension 1 with size 4"),
])
def test_gather_family_errors(call, error, message):
    with pytest.raises(error, match=message):
        call(matrix())


def test_index_select_take_and_masked_fill_values():
    x = matrix()
    assert ug.index_select(x, 1, ug.tensor([3, 0])).tolist() == [[3, 0], [7, 4], [11, 8]]
    assert x.take(ug.tensor([[0, -1]])).tolist() == [[0.0, 11.0]]
    filled = x.masked_fill(x > 9.5, ug.tensor(-1.0))
    assert filled[2].tolist() == [8.0, 9.0, -1.0, -1.0]
    assert ug.tensor([1, 2, 3]).masked_fill(ug.tensor([True, False, True]), 2.9).tolist() \
        == [2, 2, 2]


def test_masked_fill_value_gradient():
    x = ug.tensor([1.0, 2.0, 3.0], requires_grad=True)
    value = ug.tensor(5.0, requires_grad=True)
    ug.masked_fill(x, ug.tensor([True, False, True]), value).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0]
    assert value.grad.item() == 2.0


def test_take_along_axis_matches_numpy():
    rng = np.random.default_rng(0)
    data = rng.standard_normal((3, 5))
    order = np.argsort(data, axis=1)
    got = ug.take_along_axis(ug.tensor(data), ug.tensor(order), axis=1)
    np.testing.assert_array_equal(got.numpy(), np.take_along_axis(data, order, axis=1))
