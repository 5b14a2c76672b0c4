"""``gradcheck`` / ``gradgradcheck``: pass on correct rules, fail with PyTorch's messages."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad.autograd import Function, GradcheckError, gradcheck, gradgradcheck


def f64(values, requires_grad=True):
    return ug.tensor(values, dtype=ug.float64, requires_grad=requires_grad)


class WrongSquare(Function):
    """Claims d(x²)/dx = 3x: the check must catch it."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x


class FirstOrderOnlySquare(Function):
    """Right first derivative; its backward is not differentiable (a constant 2x)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * ug.tensor(2 * x.detach().numpy())


def test_passes_on_correct_gradients():
    x = f64([[0.3, -1.2, 2.0]])
    y = f64([[1.5], [0.7]])
    assert gradcheck(lambda a, b: (a * b).sin() / (1.0 + b * b), (x, y)) is True
    assert gradcheck(lambda a: (a.exp().sum(), a * 2), (x,)) is True


def test_fails_with_pytorch_message():
    x = f64([1.0, 2.0])
    with pytest.raises(GradcheckError) as info:
        gradcheck(WrongSquare.apply, (x,))
    message = str(info.value)
    assert message.startswith("Jacobian mismatch for output 0 with respect to input 0,\n"
                              "numerical:tensor(")
    assert "\nanalytical:tensor(" in message
    numerical = message.split("numerical:")[1].split("analytical:")[0]
    assert "4." in numerical and "2." in numerical
    assert isinstance(info.value, RuntimeError)


def test_raise_exception_false_returns_false():
    x = f64([1.0, 2.0])
    assert gradcheck(WrongSquare.apply, (x,), raise_exception=False) is False
    assert gradcheck(WrongSquare.apply, (x,), raise_exception=False, fast_mode=True) is False
    assert gradcheck(lambda t: t * t, (x,), fast_mode=True) is True


def test_single_tensor_input_and_inputs_restored():
    x = f64([0.1, 0.2, 0.3])
    assert gradcheck(ug.tanh, x)
    assert x.tolist() == [0.1, 0.2, 0.3]


def test_non_double_input_warns():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double "
                                         "precision floating point or complex. This check will "
                                         "likely fail if all the inputs are not of double "
                                         "precision floating point or complex."):
        gradcheck(lambda t: t * 2, (x,), raise_exception=False)


def test_float32_sin_fails_at_default_tolerance():
    x = ug.tensor([0.3, 1.1, 2.5], requires_grad=True)
    with pytest.warns(UserWarning):
        assert gradcheck(ug.sin, (x,), raise_exception=False) is False


def test_no_input_requires_grad():
    with pytest.raises(ValueError, match="gradcheck expects at least one input tensor to "
                                         "require gradient"):
        gradcheck(lambda t: t * 2, (f64([1.0], requires_grad=False),))


def test_unused_input_has_zero_jacobian():
    a, b = f64([1.0, 2.0]), f64([3.0])
    assert gradcheck(lambda x, y: x * 2, (a, b))


def test_gradgradcheck_passes_and_fails():
    x = f64([0.4, 1.3])
    assert gradgradcheck(lambda t: (t ** 3).sin(), (x,)) is True
    assert gradgradcheck(lambda t: t * t, (x,), grad_outputs=(f64([1.0, -2.0]),)) is True
    assert gradcheck(FirstOrderOnlySquare.apply, (x,)) is True
    assert gradgradcheck(FirstOrderOnlySquare.apply, (x,), raise_exception=False) is False


def test_forward_mode_check():
    x = f64([0.4, 1.3])
    assert gradcheck(lambda t: t.exp() * t, (x,), check_forward_ad=True)


def test_agrees_with_torch_on_failure_verdict():
    torch = pytest.importorskip("torch")
    values = np.array([0.3, 1.1, 2.5])
    expected = torch.autograd.gradcheck(torch.sin, (torch.tensor(values, requires_grad=True),))
    assert gradcheck(ug.sin, (f64(values),)) is expected
