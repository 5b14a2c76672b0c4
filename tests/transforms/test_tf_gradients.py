"""TensorFlow's ``tf.gradients`` semantics on the eager tape: list results, grad_ys,
stop_gradients, unconnected gradients, integer constants, errors and nesting."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad.autograd.engine import run_backward


def assert_close(tensor, expected, dtype=None, rtol=1e-6, atol=1e-7):
    assert isinstance(tensor, ug.Tensor)
    np.testing.assert_allclose(tensor.detach().numpy(), expected, rtol=rtol, atol=atol)
    if dtype is not None:
        assert tensor.dtype == dtype


def leaf(values, dtype=None):
    return ug.tensor(values, dtype=dtype, requires_grad=True)


# ------------------------------------------------------------------ seed 003

def test_seed_003_sum_over_ys_with_grad_ys():
    weights = [leaf([0.3, -1.2, 2.5]), leaf([1.0, 0.0, -0.5]), leaf([4.0, 2.0, 1.0]),
               leaf([-3.0, 0.25, 0.75])]
    first, second, third, fourth = weights
    z1 = first + second + third
    z2 = third + fourth
    grads = ug.gradients([z1, z2], weights,
                         grad_ys=[ug.tensor([2.0, 2.0, 3.0]), ug.tensor([3.0, 2.0, 4.0])])
    assert isinstance(grads, list) and len(grads) == 4
    expected = [[2, 2, 3], [2, 2, 3], [5, 4, 7], [3, 2, 4]]
    for grad, values in zip(grads, expected):
        assert_close(grad, values, dtype=ug.float32)
    assert grads[0].numpy().dtype == np.float32


# ------------------------------------------------------------------ basic semantics

def test_returns_a_list_even_for_a_single_x():
    x = leaf(2.0)
    grads = ug.gradients(x * x, x)
    assert isinstance(grads, list) and len(grads) == 1
    assert_close(grads[0], 4.0)
    grads = ug.gradients((x * x,), (x,))
    assert isinstance(grads, list) and len(grads) == 1


def test_several_ys_are_summed():
    x = leaf(3.0)
    grads = ug.gradients([x * x, 5 * x, x ** 3], [x])
    assert_close(grads[0], 2 * 3.0 + 5 + 3 * 9.0)


def test_non_scalar_y_gives_the_gradient_of_its_sum():
    x = leaf([1.0, 2.0, 3.0])
    y = ug.stack([x * x, 3 * x])  # shape (2, 3)
    assert_close(ug.gradients(y, x)[0], 2 * np.array([1.0, 2.0, 3.0]) + 3)


def test_grad_ys_with_none_entries_mean_ones():
    x = leaf([1.0, 2.0])
    grads = ug.gradients([x * x, 4 * x], [x], grad_ys=[None, ug.tensor([10.0, 100.0])])
    assert_close(grads[0], [2.0 + 40.0, 4.0 + 400.0])


def test_single_grad_y_tensor_for_a_single_y():
    x = leaf([1.0, 2.0])
    assert_close(ug.gradients(x * x, x, grad_ys=ug.tensor([3.0, -1.0]))[0], [6.0, -4.0])


def test_the_graph_is_not_consumed():
    x = leaf(2.0)
    y = x ** 3
    first = ug.gradients(y, x)[0]
    second = ug.gradients(y, x)[0]
    assert_close(first, 12.0)
    assert_close(second, 12.0)
    y.backward()
    assert_close(x.grad, 12.0)


def test_gradients_do_not_touch_dot_grad():
    x = leaf([1.0, 2.0])
    ug.gradients((x * x).sum(), x)
    assert x.grad is None


def test_float64_gradients_keep_their_dtype():
    x = leaf([1.0, 2.0], dtype=ug.float64)
    grad = ug.gradients((x ** 2).sum(), x)[0]
    assert grad.dtype == ug.float64
    assert_close(grad, [2.0, 4.0])


# ------------------------------------------------------------------ stop_gradients

def test_stop_gradients_give_partial_derivatives():
    a = ug.tensor(0.0, requires_grad=True)
    b = 2 * a
    stopped = ug.gradients(a + b, [a, b], stop_gradients=[a, b])
    assert [g.item() for g in stopped] == [1.0, 1.0]
    total = ug.gradients(a + b, [a, b])
    assert [g.item() for g in total] == [3.0, 1.0]


def test_stop_gradient_on_an_intermediate_blocks_only_paths_through_it():
    a = leaf(2.0)
    b = a * a          # db/da = 4
    c = 3 * b + a      # dc/da = 3 * 4 + 1 = 13 in full
    assert_close(ug.gradients(c, a)[0], 13.0)
    assert_close(ug.gradients(c, a, stop_gradients=b)[0], 1.0)
    assert_close(ug.gradients(c, [a, b], stop_gradients=[b])[1], 3.0)


def test_stopping_a_y_disconnects_everything_behind_it():
    a = leaf(2.0)
    b = a * a
    grads = ug.gradients(b, [a, b], stop_gradients=[b])
    assert grads[0] is None
    assert_close(grads[1], 1.0)


def test_stop_gradients_leave_the_graph_usable():
    a = leaf(2.0)
    b = a * a
    c = b * 3
    ug.gradients(c, a, stop_gradients=[b])
    assert_close(ug.gradients(c, a)[0], 12.0)


def test_engine_stop_option_without_inputs_does_not_run_the_stopped_node():
    a = leaf(2.0)
    b = a * a
    c = b + a
    run_backward([c], [np.ones((), dtype=np.float32)], retain_graph=True, create_graph=False,
                 stop=[b])
    assert_close(a.grad, 1.0)


# ------------------------------------------------------------------ unconnected and constants

@pytest.mark.parametrize("mode", [None, "none", ug.UnconnectedGradients.NONE])
def test_unconnected_x_gets_none(mode):
    x, other = leaf(1.0), leaf([1.0, 2.0])
    kwargs = {} if mode is None else {"unconnected_gradients": mode}
    grads = ug.gradients(x * 2, [x, other], **kwargs)
    assert_close(grads[0], 2.0)
    assert grads[1] is None


@pytest.mark.parametrize("mode", ["zero", ug.UnconnectedGradients.ZERO])
def test_unconnected_x_gets_zeros_like_x(mode):
    x, other = leaf(1.0), leaf([1.0, 2.0], dtype=ug.float64)
    grads = ug.gradients(x * 2, [x, other], unconnected_gradients=mode)
    assert_close(grads[1], [0.0, 0.0], dtype=ug.float64)


def test_x_that_does_not_require_grad_is_a_constant():
    constant = ug.tensor(3.0)
    x = leaf(2.0)
    grads = ug.gradients(x * constant, [x, constant])
    assert_close(grads[0], 3.0)
    assert grads[1] is None


def test_integer_xs_are_constants():
    integers = ug.tensor([1, 2, 3])
    x = leaf([1.0, 1.0, 1.0])
    y = (x * integers).sum()
    assert ug.gradients(y, [x, integers])[1] is None
    zero = ug.gradients(y, [x, integers], unconnected_gradients="zero")[1]
    assert zero.dtype == integers.dtype
    np.testing.assert_array_equal(zero.numpy(), [0, 0, 0])


def test_integer_y_gives_no_gradient():
    x = leaf([1.0, 2.0])
    assert ug.gradients(ug.tensor([1, 2]), x) == [None]


def test_y_equal_to_x_gives_ones():
    x = leaf([1.0, 2.0])
    assert_close(ug.gradients(x, x)[0], [1.0, 1.0])


def test_repeated_xs_each_get_the_gradient():
    x = leaf(2.0)
    first, second = ug.gradients(x * x, [x, x])
    assert_close(first, 4.0)
    assert_close(second, 4.0)


# ------------------------------------------------------------------ errors

def test_grad_ys_count_mismatch():
    x = leaf(1.0)
    with pytest.raises(ValueError, match=r"^Passed 1 grad_ys for 2 ys$"):
        ug.gradients([x * 2, x * 3], [x], grad_ys=[ug.tensor(1.0)])


def test_unknown_unconnected_gradients_value():
    x = leaf(1.0)
    with pytest.raises(ValueError, match=r"^Unknown value for unconnected_gradients: 'zeros'$"):
        ug.gradients(x * 2, [x], unconnected_gradients="zeros")
    with pytest.raises(ValueError, match=r"Unknown value for unconnected_gradients: 0"):
        ug.gradients(x * 2, [x], unconnected_gradients=0)


@pytest.mark.parametrize("arguments, name", [
    ({"ys": [1.0], "xs": None}, "ys"),
    ({"ys": None, "xs": [1.0]}, "xs"),
    ({"ys": None, "xs": None, "stop_gradients": [3]}, "stop_gradients"),
    ({"ys": None, "xs": None, "grad_ys": [2.0]}, "grad_ys"),
])
def test_non_tensor_arguments_raise_type_error_naming_them(arguments, name):
    x = leaf(1.0)
    call = {"ys": x * 2, "xs": [x]}
    call.update({key: value for key, value in arguments.items() if value is not None})
    with pytest.raises(TypeError, match=name):
        ug.gradients(**call)


def test_ys_of_the_wrong_type_raise_type_error():
    with pytest.raises(TypeError, match="ys must be a Tensor or a list of Tensors"):
        ug.gradients("loss", [leaf(1.0)])


def test_grad_y_shape_mismatch_is_a_value_error():
    x = leaf([1.0, 2.0])
    with pytest.raises(ValueError):
        ug.gradients(x * 2, [x], grad_ys=[ug.tensor([1.0, 2.0, 3.0])])


# ------------------------------------------------------------------ nesting

def test_gradients_of_gradients_give_second_derivatives():
    x = leaf(2.0)
    first = ug.gradients(x ** 3, x)[0]
    assert_close(first, 12.0)
    second = ug.gradients(first, x)[0]
    assert_close(second, 12.0)  # 6x
    third = ug.gradients(second, x)[0]
    assert_close(third, 6.0)


def test_gradients_inside_a_tape_are_differentiable_by_it():
    x = ug.tensor(2.0)
    with ug.GradientTape() as tape:
        tape.watch(x)
        first = ug.gradients(x ** 3, x)[0]
    assert_close(first, 12.0)
    assert_close(tape.gradient(first, x), 12.0)
    assert not x.requires_grad


def test_gradients_inside_grad():
    def slope(v):
        return ug.gradients(v ** 3, v)[0]
    assert_close(ug.grad(slope)(ug.tensor(2.0)), 12.0)


def test_outside_any_transform_linear_results_need_no_graph():
    x = leaf([1.0, 2.0])
    grad = ug.gradients(x * 3, x)[0]
    assert not grad.requires_grad
    y = (x ** 2).sum()
    with ug.no_grad():
        grad = ug.gradients(y, x)[0]
    assert not grad.requires_grad
    assert_close(grad, [2.0, 4.0])
