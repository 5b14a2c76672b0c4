"""Tensor API: repr, conversions (item, tolist, NumPy, DLPack), autograd attributes."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug


def test_repr_like_pytorch():
    x = ug.tensor(2.0, requires_grad=True)
    assert repr(ug.tensor(12.0)) == "tensor(12.)"
    assert repr(ug.tensor([1.0, 2.0], requires_grad=True)) == \
        "tensor([1., 2.], requires_grad=True)"
    assert repr(x * 1.0) == "tensor(2., grad_fn=<MulBackward0>)"
    assert repr(ug.tensor([1, 2])) == "tensor([1, 2])"
    assert repr(ug.tensor([0.5], dtype=ug.float64)) == "tensor([0.5000], dtype=unigrad.float64)"


def test_item_and_tolist():
    assert ug.tensor([[3.5]]).item() == 3.5
    assert isinstance(ug.tensor(3).item(), int)
    assert ug.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted to "
                                           "Scalar"):
        ug.tensor([1.0, 2.0]).item()


def test_numpy_conversions_share_memory():
    t = ug.tensor([1.0, 2.0])
    array = t.numpy()
    array[0] = 7.0
    assert t.tolist() == [7.0, 2.0]
    assert np.asarray(t).tolist() == [7.0, 2.0]
    source = np.array([1.0, 2.0])
    shared = ug.from_numpy(source)
    source[1] = 9.0
    assert shared.tolist() == [1.0, 9.0] and shared.dtype == ug.float64


def test_tensor_constructor_copies():
    source = np.array([1.0, 2.0])
    copied = ug.tensor(source)
    source[0] = 5.0
    assert copied.tolist() == [1.0, 2.0]


def test_dlpack_round_trip_with_numpy():
    t = ug.tensor([[1.0, 2.0], [3.0, 4.0]])
    array = np.from_dlpack(t)
    assert array.tolist() == [[1.0, 2.0], [3.0, 4.0]] and array.dtype == np.float32
    back = ug.from_dlpack(np.arange(3.0))
    assert back.tolist() == [0.0, 1.0, 2.0] and back.dtype == ug.float64


def test_autograd_attributes():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    assert x.is_leaf and x.grad_fn is None and x.requires_grad
    assert not y.is_leaf and y.grad_fn.name() == "MulBackward0" and y.requires_grad
    assert ug.tensor([1.0]).is_leaf


def test_grad_setter_and_deleter():
    x = ug.zeros((2, 3), requires_grad=True)
    x.grad = ug.ones((2, 3))
    assert x.grad.tolist() == [[1.0] * 3] * 2
    x.grad = None
    assert x.grad is None
    with pytest.raises(RuntimeError, match=r"attempting to assign a gradient of size '\[3\]' to "
                                           r"a tensor of size '\[2, 3\]'"):
        x.grad = ug.zeros(3)


def test_requires_grad_false_on_non_leaf_raises():
    y = ug.tensor([1.0], requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf "
                                           "variables"):
        y.requires_grad_(False)
    assert y.requires_grad_(True) is y


def test_requires_grad_setter_on_leaf():
    x = ug.tensor([1.0])
    x.requires_grad = True
    assert x.requires_grad
    x.requires_grad_(False)
    assert not x.requires_grad


def test_shape_attributes():
    t = ug.zeros((2, 3, 4))
    assert t.shape == (2, 3, 4) and t.ndim == 3 and t.size() == (2, 3, 4) and t.size(1) == 3
    assert t.numel() == 24 and len(t) == 2 and str(t.device) == "cpu"


def test_detach_is_a_leaf_sharing_data():
    x = ug.tensor([1.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    assert d.is_leaf and not d.requires_grad
    assert d.tolist() == [2.0]


@pytest.mark.parametrize("values, expected", [
    ([True, True], "tensor([True, True])"),
    ([[True], [False]], "tensor([[ True],\n        [False]])"),
    ([float("nan"), 2.0, -1.0], "tensor([nan,  2., -1.])"),
    ([-float("inf"), 1.0], "tensor([-inf, 1.])"),
    ([0.0, float("nan")], "tensor([0., nan])"),
    ([float("nan"), 1.5], "tensor([   nan, 1.5000])"),
    ([1e10, float("nan")], "tensor([1.0000e+10,        nan])"),
])
def test_repr_pads_like_pytorch(values, expected):
    assert repr(ug.tensor(values)) == expected
