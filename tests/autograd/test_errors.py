"""Error type and exact (PyTorch) wording of each misuse of the tape."""

from __future__ import annotations

import pytest

import unigrad as ug


def test_non_scalar_without_gradient():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        (x * 2).backward()
    assert str(info.value) == "grad can be implicitly created only for scalar outputs"
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        ug.autograd.grad(x * 2, x)


def test_one_element_output_needs_no_gradient():
    x = ug.tensor([3.0], requires_grad=True)
    (x * 2).backward()
    assert x.grad.tolist() == [2.0]


def test_seed_shape_mismatch():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        (x * 2).backward(ug.ones(3))
    assert str(info.value) == ("Mismatch in shape: grad_output[0] has a shape of [3] and "
                               "output[0] has a shape of [2].")


def test_output_does_not_require_grad():
    x = ug.tensor([1.0])
    with pytest.raises(RuntimeError) as info:
        (x * 2).sum().backward()
    assert str(info.value) == ("element 0 of tensors does not require grad and does not have a "
                               "grad_fn")
    with pytest.raises(RuntimeError, match="element 1 of tensors does not require grad"):
        w = ug.tensor([1.0], requires_grad=True)
        ug.autograd.backward([(w * 2).sum(), x.sum()])


def test_numpy_on_tensor_requiring_grad():
    x = ug.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        x.numpy()
    assert str(info.value) == ("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
    assert x.detach().numpy().tolist() == [1.0]


def test_non_leaf_grad_access_warns():
    x = ug.tensor([1.0], requires_grad=True)
    y = x * 2
    with pytest.warns(UserWarning) as record:
        assert y.grad is None
    assert str(record[0].message) == (
        "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
        "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
        "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
        "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
        "instead. See github.com/pytorch/pytorch/pull/30531 for more information.")


def test_retain_grad_without_requires_grad():
    with pytest.raises(RuntimeError) as info:
        ug.tensor([1.0]).retain_grad()
    assert str(info.value) == "can't retain_grad on Tensor that has requires_grad=False"


def test_requires_grad_on_integer_tensor():
    with pytest.raises(RuntimeError, match="only Tensors of floating point and complex dtype "
                                           "can require gradients"):
        ug.tensor([1, 2], requires_grad=True)


def test_requires_grad_false_on_non_leaf():
    x = ug.tensor([1.0], requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf "
                                           "variables."):
        y.requires_grad_(False)


def test_grad_setter_shape_error():
    x = ug.zeros((2, 3), requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        x.grad = ug.zeros(3)
    assert str(info.value) == ("attempting to assign a gradient of size '[3]' to a tensor of size "
                               "'[2, 3]'. Please ensure that the gradient and the tensor are the "
                               "same size")


def test_grad_of_input_not_requiring_grad():
    x = ug.tensor([1.0], requires_grad=True)
    c = ug.tensor([1.0])
    with pytest.raises(RuntimeError, match="One of the differentiated Tensors does not require "
                                           "grad"):
        ug.autograd.grad((x * c).sum(), (x, c))


def test_grad_empty_inputs():
    x = ug.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="grad requires non-empty inputs."):
        ug.autograd.grad((x * 2).sum(), [])


def test_messages_match_torch():
    torch = pytest.importorskip("torch")
    cases = [
        (lambda m: (m.tensor([1.0, 2.0], requires_grad=True) * 2).backward()),
        (lambda m: (m.tensor([1.0]) * 2).sum().backward()),
        (lambda m: m.tensor([1.0], requires_grad=True).numpy()),
    ]
    for case in cases:
        with pytest.raises(RuntimeError) as expected:
            case(torch)
        with pytest.raises(RuntimeError) as actual:
            case(ug)
        assert str(actual.value) == str(expected.value)
