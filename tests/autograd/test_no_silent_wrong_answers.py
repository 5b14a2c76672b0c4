"""Regressions: calls that once gave a silently wrong answer now match PyTorch (or raise).

Every expected value below is PyTorch 2.13's for the same call.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.functional as F

NAN = math.nan


# ----------------------------------------------------------------------------- hooks

def test_tensor_hook_changing_the_size_raises_and_leaves_grad_unset():
    x = ug.ones(2, 3, requires_grad=True)
    x.register_hook(lambda g: ug.ones(3))
    with pytest.raises(RuntimeError, match=r"hook '<lambda>' has changed the size of value "
                                           r"\(was \[2, 3\] got \[3\]\)"):
        (x * 2).sum().backward()
    assert x.grad is None


def test_hook_on_an_intermediate_changing_the_size_raises():
    x = ug.ones(2, 3, requires_grad=True)
    y = x * 2

    def double_rows(grad):
        return ug.cat([grad, grad])
    y.register_hook(double_rows)
    with pytest.raises(RuntimeError, match="hook 'double_rows' has changed the size of value"):
        y.sum().backward()


def test_hook_changing_the_dtype_raises_with_pytorch_type_names():
    x = ug.ones(2, requires_grad=True)
    x.register_hook(lambda g: g.double())
    with pytest.raises(RuntimeError, match=r"has changed the type of value \(was "
                                           r"torch.FloatTensor got torch.DoubleTensor\)"):
        (x * 2).sum().backward()


def test_hook_returning_a_non_tensor_is_a_type_error():
    x = ug.ones(2, requires_grad=True)
    x.register_hook(lambda g: 3)
    with pytest.raises(TypeError, match="expected Variable, but hook returned 'int'"):
        (x * 2).sum().backward()


def test_node_pre_hook_returning_the_wrong_count_or_size_raises():
    x = ug.ones(2, 3, requires_grad=True)
    y = x * 2
    y.grad_fn.register_prehook(lambda grads: (ug.ones(3),))
    with pytest.raises(RuntimeError, match="has changed the size of value"):
        y.sum().backward()
    z = x * 3
    z.grad_fn.register_prehook(lambda grads: (grads[0], grads[0]))
    with pytest.raises(RuntimeError, match=r"incorrect number of values \(got 2, but "
                                           r"expected 1\)"):
        z.sum().backward()


def test_hook_returning_a_same_shaped_replacement_still_works():
    x = ug.ones(2, 3, requires_grad=True)
    x.register_hook(lambda g: g * 10)
    (x * 2).sum().backward()
    assert x.grad.tolist() == [[20.0] * 3] * 2


# ----------------------------------------------------------------------------- -inf logits

def test_cross_entropy_with_a_minus_infinity_logit():
    logits = ug.tensor([[0.0, -math.inf, 2.0]], requires_grad=True)
    loss = F.cross_entropy(logits, ug.tensor([0]))
    assert loss.item() == pytest.approx(2.1269280110429727, rel=1e-6)
    loss.backward()
    np.testing.assert_allclose(logits.grad.numpy(), [[-0.8807970, 0.0, 0.8807970]], rtol=1e-6)


def test_nll_loss_of_log_softmax_with_minus_infinity():
    log_probabilities = F.log_softmax(ug.tensor([[0.0, -math.inf, 2.0], [1.0, 1.0, 1.0]]), 1)
    loss = F.nll_loss(log_probabilities, ug.tensor([0, 2]), reduction="none")
    np.testing.assert_allclose(loss.numpy(), [2.1269280, 1.0986123], rtol=1e-6)
    weighted = F.nll_loss(ug.tensor([[0.0, -math.inf, 2.0]]), ug.tensor([0]),
                          weight=ug.tensor([1.0, 0.0, 1.0]))
    assert weighted.item() == 0.0


def test_cross_entropy_with_minus_infinity_under_jit():
    def loss(logits, target):
        return F.cross_entropy(logits, target)
    logits, target = ug.tensor([[0.0, -math.inf, 2.0]]), ug.tensor([0])
    assert ug.jit(loss)(logits, target).item() == pytest.approx(2.1269280110429727, rel=1e-6)


def test_probability_targets_and_label_smoothing_keep_pytorch_non_finite_results():
    logits = ug.tensor([[0.0, -math.inf, 2.0]])
    assert math.isnan(F.cross_entropy(logits, ug.tensor([[1.0, 0.0, 0.0]])).item())
    assert F.cross_entropy(logits, ug.tensor([0]), label_smoothing=0.1).item() == math.inf


# ----------------------------------------------------------------------------- NaN extremes

def _gradient(fn, values):
    x = ug.tensor(values, requires_grad=True)
    fn(x).sum().backward()
    return x.grad.tolist()


@pytest.mark.parametrize("reduce", [ug.max, ug.min])
def test_max_and_min_send_the_gradient_to_the_nan_entries(reduce):
    assert _gradient(reduce, [1.0, NAN, 3.0]) == [0.0, 1.0, 0.0]
    assert _gradient(reduce, [3.0, NAN, NAN, 3.0]) == [0.0, 0.5, 0.5, 0.0]
    assert _gradient(reduce, [3.0, 3.0, 1.0 if reduce is ug.max else 5.0]) == [0.5, 0.5, 0.0]


def test_amax_keeps_pytorch_nan_gradient():
    assert all(math.isnan(v) for v in _gradient(ug.amax, [1.0, NAN, 3.0]))


@pytest.mark.parametrize("pairwise, expected", [(ug.maximum, [0.0, 2.0, 2.0]),
                                                 (ug.minimum, [2.0, 2.0, 0.0])])
def test_maximum_and_minimum_give_both_operands_the_gradient_at_nan(pairwise, expected):
    def against_reversed(x):
        return pairwise(x, x.flip(0))
    assert _gradient(against_reversed, [1.0, NAN, 3.0]) == expected
    assert _gradient(against_reversed, [3.0, NAN, NAN, 3.0]) == [1.0, 2.0, 2.0, 1.0]


def test_relu_passes_the_gradient_at_nan():
    assert _gradient(ug.relu, [1.0, NAN, -3.0]) == [1.0, 1.0, 0.0]


# ----------------------------------------------------------------------------- second order

def test_relu_second_derivative_is_zero_not_an_error():
    x = ug.tensor([1.0, -2.0, 0.3, -0.7], dtype=ug.float64, requires_grad=True)
    (first,) = ug.autograd.grad(F.relu(x).sum(), x, create_graph=True)
    assert first.requires_grad and first.tolist() == [1.0, 0.0, 1.0, 0.0]
    (second,) = ug.autograd.grad(first.sum(), x)
    assert second.tolist() == [0.0, 0.0, 0.0, 0.0]
    assert ug.grad(ug.grad(lambda v: ug.relu(v)))(ug.tensor(1.5)).item() == 0.0


# ----------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("make", [
    lambda: ug.tensor([1.0], requires_grad="yes"),
    lambda: ug.Tensor([1.0], requires_grad="yes"),
    lambda: ug.ones(2).requires_grad_("yes"),
    lambda: ug.ones(2, requires_grad="yes"),
    lambda: ug.zeros_like(ug.ones(2), requires_grad="yes"),
])
def test_requires_grad_must_be_a_bool(make):
    with pytest.raises(TypeError, match="argument 'requires_grad'.* must be bool, not str"):
        make()


def test_setting_requires_grad_to_a_non_bool_is_refused_unchanged():
    x = ug.ones(2)
    with pytest.raises(RuntimeError, match="requires_grad must be a bool"):
        x.requires_grad = "yes"
    assert x.requires_grad is False


@pytest.mark.parametrize("condition", [ug.tensor([1.0, 0.0]), ug.tensor([1, 0])])
def test_where_needs_a_boolean_condition(condition):
    with pytest.raises(RuntimeError, match="where expected condition to be a boolean tensor, "
                                           "but got a tensor with dtype (Float|Long)"):
        ug.where(condition, ug.ones(2), ug.zeros(2))


def test_grad_of_a_function_returning_a_string_raises():
    with pytest.raises(TypeError, match="grad: fn must return Tensors or numbers.*output 0 is "
                                        "of type str"):
        ug.grad(lambda x: "abc")(ug.tensor(1.0))
    with pytest.raises(TypeError, match="output 1 is of type str"):
        ug.value_and_grad(lambda x: (x, "abc"))(ug.tensor(1.0))


def test_jvp_refuses_a_tangent_of_another_precision():
    with pytest.raises(TypeError, match="tangent of argument 0 must have its primal's dtype"):
        ug.jvp(lambda x: x * 2, (ug.ones(1),), (ug.ones(1, dtype=ug.float64),))
    primal = ug.tensor([1 + 2j], dtype=ug.complex128)  # a real tangent of a complex primal
    assert ug.jvp(lambda z: z * 2, (primal,), (ug.ones(1, dtype=ug.float64),))[1].tolist() == \
        [2 + 0j]


def test_torch_func_jvp_accepts_a_floating_tangent_of_another_dtype_as_pytorch():
    import unigrad.compat.torch as torch
    from unigrad.compat.torch.func import jvp
    out, tangent = jvp(lambda x: x * 2, (torch.ones(1),), (torch.ones(1, dtype=torch.float64),))
    assert out.tolist() == [2.0] and tangent.tolist() == [2.0]
    with pytest.raises(RuntimeError, match="different size than that of the original Tensor"):
        jvp(lambda x: x * 2, (torch.ones(1),), (torch.ones(2),))


# ----------------------------------------------------------------------------- deep view chains

def _view_chain(base, length):
    view = base
    for step in range(length):
        view = view.view((2, 2) if step % 2 == 0 else (4,))
    return view


@pytest.mark.parametrize("length", [1_000, 3_001])
def test_a_long_view_chain_sees_an_in_place_change_of_its_base(length):
    x = ug.zeros(4, requires_grad=True)
    base = x * 1.0
    view = _view_chain(base, length)
    base.mul_(3.0)
    (view * ug.tensor([1.0, 2.0, 3.0, 4.0]).reshape(view.shape)).sum().backward()
    assert x.grad.tolist() == [3.0, 6.0, 9.0, 12.0]


@pytest.mark.parametrize("length", [1_000, 3_001])
def test_an_in_place_op_through_a_long_view_chain_reaches_the_base(length):
    x = ug.ones(4, requires_grad=True)
    base = x * 1.0
    view = _view_chain(base, length)
    view.mul_(ug.tensor([1.0, 2.0, 3.0, 4.0]).reshape(view.shape))
    assert base.tolist() == [1.0, 2.0, 3.0, 4.0]
    (base * base).sum().backward()
    assert x.grad.tolist() == [2.0, 8.0, 18.0, 32.0]
