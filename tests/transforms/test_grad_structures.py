"""MindSpore's return structures for grad / value_and_grad / GradOperation, row by row.

The tables are sections 1.4, 1.7 and 2.2 of
``shared/reference/mindspore_tensorflow_semantics.md``; ``ProductNet`` is
``sum(x * y * z * w) + b`` with closed-form gradients (see conftest).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import unigrad as ug

from .conftest import GB, GW, GX, GY, GZ, VALUE


def close(tensor, expected) -> bool:
    assert isinstance(tensor, ug.Tensor), f"expected a Tensor, got {type(tensor).__name__}"
    np.testing.assert_allclose(tensor.numpy(), expected)
    return True


# ------------------------------------------------------------------ grad_position / weights table

def test_int_position_gives_bare_gradient(net, xyz):
    assert close(ug.grad(net, 0)(*xyz), GX)
    assert close(ug.grad(net, 2)(*xyz), GZ)


def test_one_tuple_position_gives_bare_gradient(net, xyz):
    assert close(ug.grad(net, (1,))(*xyz), GY)


def test_tuple_position_gives_tuple(net, xyz):
    gy, gz = ug.grad(net, (1, 2))(*xyz)
    assert close(gy, GY) and close(gz, GZ)
    assert isinstance(ug.grad(net, (1, 2))(*xyz), tuple)


def test_bool_positions_count_as_ints(net, xyz):
    assert close(ug.grad(net, True)(*xyz), GY)
    gx, gy = ug.grad(net, (False, True))(*xyz)
    assert close(gx, GX) and close(gy, GY)


def test_single_parameter_gives_bare_gradient(net, xyz):
    assert close(ug.grad(net, None, net.w)(*xyz), GW)


def test_list_of_one_parameter_gives_one_tuple(net, xyz):
    result = ug.grad(net, None, [net.w])(*xyz)
    assert isinstance(result, tuple) and len(result) == 1 and close(result[0], GW)


def test_several_parameters(net, xyz):
    gw, gb = ug.grad(net, None, net.trainable_params())(*xyz)
    assert close(gw, GW) and close(gb, GB)


def test_empty_weights_give_empty_tuple(net, xyz):
    assert ug.grad(net, None, [])(*xyz) == ()
    assert ug.grad(net, 0, [])(*xyz)[1] == ()


def test_position_and_single_parameter(net, xyz):
    gx, gw = ug.grad(net, 0, net.w)(*xyz)
    assert close(gx, GX) and close(gw, GW)


def test_position_and_parameter_list(net, xyz):
    gx, weights = ug.grad(net, 0, [net.w])(*xyz)
    assert close(gx, GX) and isinstance(weights, tuple) and close(weights[0], GW)


def test_positions_and_parameters(net, xyz):
    (gy, gz), (gw, gb) = ug.grad(net, (1, 2), net.trainable_params())(*xyz)
    assert close(gy, GY) and close(gz, GZ) and close(gw, GW) and close(gb, GB)


def test_positions_and_single_parameter(net, xyz):
    (gy, gz), gw = ug.grad(net, (1, 2), net.w)(*xyz)
    assert close(gy, GY) and close(gz, GZ) and close(gw, GW)


@pytest.mark.parametrize("grad_position, weights, shape", [
    (0, None, "gx"), ((1, 2), None, "(gy, gz)"), (None, "w", "gw"), (None, ["w"], "(gw,)"),
    (None, ["w", "b"], "(gw, gb)"), (None, [], "()"), (0, "w", "(gx, gw)"),
    (0, ["w"], "(gx, (gw,))"), ((1, 2), ["w", "b"], "((gy, gz), (gw, gb))"),
])
def test_value_and_grad_wraps_the_grad_structure(net, xyz, grad_position, weights, shape):
    resolved = (getattr(net, weights) if isinstance(weights, str) else
                None if weights is None else [getattr(net, name) for name in weights])
    value, grads = ug.value_and_grad(net, grad_position, resolved)(*xyz)
    assert close(value, VALUE)
    expected = ug.grad(net, grad_position, resolved)(*xyz)
    assert describe(grads) == describe(expected) == re.sub(r"g[a-z]", "T", shape)


def describe(tree) -> str:
    """The nesting of a result with every tensor written as T."""
    if isinstance(tree, tuple):
        inner = ", ".join(describe(item) for item in tree)
        return f"({inner},)" if len(tree) == 1 else f"({inner})"
    return "T" if isinstance(tree, ug.Tensor) else repr(tree)


# ------------------------------------------------------------------ outputs, aux, constants

def test_several_outputs_are_summed():
    x, y = ug.tensor(1.0), ug.tensor(2.0)
    net = lambda x, y: (x ** 2 + y, x)  # noqa: E731
    assert close(ug.grad(net, 0)(x, y), 3.0)
    assert close(ug.grad(net, 1)(x, y), 1.0)


def test_output_returning_a_parameter_gets_a_ones_gradient(net):
    x, y = ug.tensor(2.0), ug.tensor(3.0)
    fn = lambda x, y: (x * y * net.b, x, net.b)  # noqa: E731
    gx, gb = ug.grad(fn, 0, net.b)(x, y)
    assert close(gx, 3.0 + 1.0) and close(gb, 6.0 + 1.0)


def test_has_aux_differentiates_output_zero_and_returns_aux_tuple():
    x, y = ug.tensor(1.0), ug.tensor(2.0)
    net = lambda x, y: (x ** 2 + y, x)  # noqa: E731
    grad, aux = ug.grad(net, 0, has_aux=True)(x, y)
    assert close(grad, 2.0)
    assert isinstance(aux, tuple) and len(aux) == 1 and close(aux[0], 1.0)
    value, grad = ug.value_and_grad(net, 0, has_aux=True)(x, y)
    assert isinstance(value, tuple) and len(value) == 2
    assert close(value[0], 3.0) and close(value[1], 1.0) and close(grad, 2.0)


def test_aux_is_cut_from_the_graph():
    x = ug.tensor(2.0)
    inner = ug.grad(lambda x: (x ** 2, x ** 3), 0, has_aux=True)
    # an outer grad through the aux value sees no gradient
    outer = ug.grad(lambda x: inner(x)[1][0] + 0 * x)(x)
    assert close(outer, 0.0)
    assert not inner(x)[1][0].requires_grad


def test_has_aux_with_one_output_raises():
    with pytest.raises(ValueError, match="When has_aux is True, origin fn requires more than one"):
        ug.grad(lambda x: x * 2, has_aux=True)(ug.tensor(1.0))


def test_python_scalar_inputs_are_constants():
    assert ug.grad(lambda x, y: x * y)(1, 2) == ()
    assert ug.grad(lambda x, y: x * y, (0, 1))(1.0, 2) == ()
    assert close(ug.grad(lambda x, y: x * y, (0, 1))(ug.tensor(3.0), 2)[0], 2.0)


def test_integer_tensor_inputs_are_differentiated():
    grad = ug.grad(lambda x, y: x * y, 0)(ug.tensor([2], dtype=ug.int32),
                                          ug.tensor([3], dtype=ug.int32))
    assert grad.dtype == ug.int32 and grad.tolist() == [3]


def test_unused_input_gets_zeros():
    grads = ug.grad(lambda x, y: x * 2, (0, 1))(ug.tensor(1.0), ug.tensor([1.0, 2.0]))
    assert close(grads[1], [0.0, 0.0])


def test_pytree_inputs_and_outputs():
    params = {"w": ug.tensor([1.0, 2.0]), "b": [ug.tensor(3.0), 7]}
    fn = lambda p: {"out": (p["w"] ** 2).sum() * p["b"][0], "extra": [p["w"]]}  # noqa: E731
    grads = ug.grad(fn)(params)
    assert set(grads) == {"w", "b"} and isinstance(grads["b"], list)
    assert close(grads["w"], [2 * 1 * 3 + 1, 2 * 2 * 3 + 1])
    assert close(grads["b"][0], 5.0) and grads["b"][1] is None


def test_keyword_arguments_pass_through_undifferentiated():
    fn = lambda x, scale=1.0: (x * scale).sum()  # noqa: E731
    assert close(ug.grad(fn)(ug.tensor([1.0, 2.0]), scale=3.0), [3.0, 3.0])


# ------------------------------------------------------------------ sens_param, return_ids

def test_sens_param_last_argument_and_keyword():
    fn = lambda x: x * x  # noqa: E731
    x, sens = ug.tensor([1.0, 2.0]), ug.tensor([3.0, 5.0])
    assert close(ug.grad(fn, sens_param=True)(x, sens), [6.0, 20.0])
    assert close(ug.grad(fn, sens_param=True)(x, sens=sens), [6.0, 20.0])
    value, grad = ug.value_and_grad(fn, sens_param=True)(x, sens)
    assert close(value, [1.0, 4.0]) and close(grad, [6.0, 20.0])


def test_sens_param_with_several_outputs_takes_a_tuple():
    fn = lambda x, y: (x * y, x + y)  # noqa: E731
    x, y = ug.tensor(2.0), ug.tensor(3.0)
    gx, gy = ug.grad(fn, (0, 1), sens_param=True)(x, y, (ug.tensor(1.0), ug.tensor(10.0)))
    assert close(gx, 3.0 + 10.0) and close(gy, 2.0 + 10.0)


def test_sens_param_errors():
    fn = lambda x: x * x  # noqa: E731
    with pytest.raises(ValueError, match="shape"):
        ug.grad(fn, sens_param=True)(ug.tensor([1.0, 2.0]), ug.tensor([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="one entry per output"):
        ug.grad(fn, sens_param=True)(ug.tensor(1.0), (ug.tensor(1.0), ug.tensor(1.0)))
    with pytest.raises(TypeError, match="sensitivity"):
        ug.grad(fn, sens_param=True)()


def test_return_ids_rows(net, xyz):
    position, grad = ug.grad(net, 0, return_ids=True)(*xyz)
    assert position == 0 and close(grad, GX)
    (p1, g1), (p2, g2) = ug.grad(net, (1, 2), return_ids=True)(*xyz)
    assert (p1, p2) == (1, 2) and close(g1, GY) and close(g2, GZ)
    (px, gx), (name, gw) = ug.grad(net, 0, net.w, return_ids=True)(*xyz)
    assert (px, name) == (0, "w") and close(gx, GX) and close(gw, GW)
    (px, gx), ((name, gw),) = ug.grad(net, 0, [net.w], return_ids=True)(*xyz)
    assert name == "w"
    positions, weights = ug.grad(net, (1, 2), net.trainable_params(), return_ids=True)(*xyz)
    assert [p for p, _ in positions] == [1, 2] and [n for n, _ in weights] == ["w", "b"]
    assert ug.grad(lambda a, b: a * b, 0, return_ids=True)(1, 2) == ()


def test_get_grad_by_position_and_parameter(net, xyz):
    grads = ug.grad(net, (0, 1), net.trainable_params(), return_ids=True)(*xyz)
    assert close(ug.get_grad(grads, 1), GY)
    assert close(ug.get_grad(grads, net.b), GB)
    with pytest.raises(RuntimeError, match="Can not find"):
        ug.get_grad(grads, 2)
    with pytest.raises(TypeError, match="identifier"):
        ug.get_grad(grads, 1.5)


# ------------------------------------------------------------------ errors (section 7)

def test_both_none_raises():
    with pytest.raises(ValueError, match="`grad_position` and `weight` can not be None at"):
        ug.grad(lambda x: x, None, None)
    with pytest.raises(ValueError, match="can not be None"):
        ug.value_and_grad(lambda x: x, None)


@pytest.mark.parametrize("bad", [[0, 1], 1.0, "0"])
def test_grad_position_of_wrong_type(bad):
    with pytest.raises(TypeError, match="For 'F.grad', the 'grad_position' must be int or tuple."):
        ug.grad(lambda x: x, bad)


def test_grad_position_element_of_wrong_type():
    with pytest.raises(TypeError, match="the element in 'grad_position' must be int"):
        ug.grad(lambda x: x, (0, "1"))


def test_negative_positions():
    with pytest.raises(ValueError, match="^grad_position must be >= 0.$"):
        ug.grad(lambda x: x, -1)
    with pytest.raises(ValueError, match="The element in grad_position must be >= 0."):
        ug.grad(lambda x: x, (0, -1))


def test_duplicate_positions():
    with pytest.raises(ValueError, match="There are duplicate positions in `grad_position`"):
        ug.grad(lambda x, y: x, (1, 1))


def test_empty_position_tuple_raises_when_called():
    fn = ug.grad(lambda x: x * 2, ())
    with pytest.raises(RuntimeError, match="empty"):
        fn(ug.tensor(1.0))


def test_position_out_of_range():
    with pytest.raises(IndexError, match="grad_position 1 is out of range"):
        ug.grad(lambda x: x * 2, (0, 1))(ug.tensor(1.0))
    with pytest.raises(IndexError, match="grad_position 0"):
        ug.grad(lambda: ug.tensor(1.0), 0)()


@pytest.mark.parametrize("flag", ["has_aux", "return_ids", "sens_param"])
def test_non_bool_flags(flag):
    with pytest.raises(TypeError, match=f"For '_Grad', the '{flag}' should be bool, but got str"):
        ug.grad(lambda x: x, **{flag: "yes"})


def test_bad_weights_and_fn():
    with pytest.raises(TypeError, match="weights must be"):
        ug.grad(lambda x: x, None, {"w": ug.tensor(1.0)})
    with pytest.raises(TypeError, match=r"weights\[1\] must be a Parameter"):
        ug.grad(lambda x: x, None, [ug.tensor(1.0), 2.0])
    with pytest.raises(TypeError, match="fn must be a callable"):
        ug.grad(3)


def test_failed_call_leaves_inputs_untouched(net, xyz):
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(IndexError):
        ug.grad(net, 3)(x, *xyz[1:])
    assert x.grad is None and net.w.grad is None and x.is_leaf


def test_transforms_never_touch_dot_grad(net, xyz):
    ug.grad(net, (0, 1), net.trainable_params())(*xyz)
    assert net.w.grad is None and net.b.grad is None


def test_works_inside_no_grad(net, xyz):
    with ug.no_grad():
        assert close(ug.grad(net, 0)(*xyz), GX)
        assert not ug.is_grad_enabled()


# ------------------------------------------------------------------ GradOperation (section 2.2)

def two_inputs(x, y):
    return x * y


def test_gradoperation_default_is_first_input():
    x, y = ug.tensor(2.0), ug.tensor(5.0)
    assert close(ug.ops.GradOperation()(two_inputs)(x, y), 5.0)
    assert close(ug.ops.GradOperation()(lambda x: x * x)(x), 4.0)
    assert ug.ops.GradOperation()(lambda: ug.tensor(1.0))() == ()


def test_gradoperation_get_all():
    x, y = ug.tensor(2.0), ug.tensor(5.0)
    one = ug.ops.GradOperation(get_all=True)(lambda x: x * x)(x)
    assert isinstance(one, tuple) and len(one) == 1 and close(one[0], 4.0)
    gx, gy = ug.ops.GradOperation(get_all=True)(two_inputs)(x, y)
    assert close(gx, 5.0) and close(gy, 2.0)
    assert ug.ops.GradOperation(get_all=True)(lambda: ug.tensor(1.0))() == ()


def test_gradoperation_get_by_list(net, xyz):
    by_list = ug.ops.GradOperation(get_by_list=True)
    assert close(by_list(net, net.w)(*xyz), GW)
    single = by_list(net, (net.w,))(*xyz)
    assert isinstance(single, tuple) and len(single) == 1 and close(single[0], GW)
    assert by_list(net, [])(*xyz) == ()
    assert by_list(net)(*xyz) == ()


def test_gradoperation_get_all_and_get_by_list(net, xyz):
    both = ug.ops.GradOperation(get_all=True, get_by_list=True)
    inputs, gw = both(net, net.w)(*xyz)
    assert len(inputs) == 3 and close(inputs[0], GX) and close(gw, GW)
    inputs, weights = both(net, (net.w,))(*xyz)
    assert len(weights) == 1 and close(weights[0], GW)
    inputs, (gw, gb) = both(net, net.trainable_params())(*xyz)
    assert close(inputs[2], GZ) and close(gb, GB)
    x = ug.tensor(3.0)
    (gx,), weights = both(lambda x: x * x)(x)
    assert close(gx, 6.0) and weights == ()
    assert both(lambda: ug.tensor(1.0))() == ((), ())


def test_gradoperation_sens_param():
    grad_op = ug.ops.GradOperation(sens_param=True)
    assert close(grad_op(lambda x: x * x)(ug.tensor([1.0, 2.0]), ug.tensor([1.0, 3.0])),
                 [2.0, 12.0])
    assert close(grad_op(lambda x: x * x)(ug.tensor(2.0), sens=ug.tensor(10.0)), 40.0)


@pytest.mark.parametrize("flag", ["get_all", "get_by_list", "sens_param"])
def test_gradoperation_non_bool_flags(flag):
    with pytest.raises(TypeError, match=f"For 'GradOperation', the '{flag}' should be bool, but "
                                        f"got int"):
        ug.ops.GradOperation(**{flag: 1})


def test_gradoperation_weights_without_get_by_list(net):
    with pytest.raises(ValueError, match="get_by_list"):
        ug.ops.GradOperation()(net, net.w)
