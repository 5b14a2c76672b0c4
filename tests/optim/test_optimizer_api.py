"""The Optimizer API: construction, groups, aliases, both calling styles, errors, repr."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import unigrad as ug
import unigrad.optim as optim
from unigrad.nn.parameter import Parameter, ParameterTuple


def _params():
    return [Parameter(ug.tensor([1.0, 2.0]), name="fc.weight"),
            Parameter(ug.tensor([0.5]), name="fc.bias")]


def _snapshot(opt, params):
    return ([p.detach().numpy().copy() for p in params],
            [None if p.grad is None else p.grad.numpy().copy() for p in params],
            repr(opt), dict(opt.state), opt.global_step)


def _assert_unchanged(before, after):
    for a, b in zip(before[0], after[0]):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(before[1], after[1]):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_array_equal(a, b)
    assert before[2:] == after[2:]


# ------------------------------------------------------------------ construction

@pytest.mark.parametrize("cls", [optim.SGD, optim.Adam, optim.AdamW])
def test_empty_parameter_list(cls):
    with pytest.raises(ValueError, match="^optimizer got an empty parameter list$"):
        cls([], lr=0.1)
    with pytest.raises(ValueError, match="^optimizer got an empty parameter list$"):
        cls(iter(()), lr=0.1)
    with pytest.raises(ValueError, match="^optimizer got an empty parameter list$"):
        optim.Momentum([], 0.1, 0.9)


def test_parameter_in_two_groups():
    w, b = _params()
    with pytest.raises(ValueError, match="^some parameters appear in more than one parameter "
                                         "group$"):
        optim.SGD([{"params": [w, b]}, {"params": [w]}], lr=0.1)


def test_add_param_group_error_changes_nothing():
    w, b = _params()
    opt = optim.SGD([w], lr=0.1)
    with pytest.raises(ValueError, match="more than one parameter group"):
        opt.add_param_group({"params": [b, w]})
    with pytest.raises(ValueError, match="Invalid learning rate: -1"):
        opt.add_param_group({"params": [b], "lr": -1})
    with pytest.raises(TypeError, match="param_group must be a dict, but got list"):
        opt.add_param_group([b])
    assert len(opt.param_groups) == 1 and opt.parameters == (w,)
    opt.add_param_group({"params": b, "momentum": 0.5})
    assert opt.parameters == (w, b)
    assert opt.param_groups[1]["lr"] == 0.1 and opt.param_groups[1]["momentum"] == 0.5


@pytest.mark.parametrize("bad, kind", [(np.ones(2), "numpy.ndarray"), (1.5, "builtins.float"),
                                       ("w", "builtins.str")])
def test_non_tensor_parameter(bad, kind):
    with pytest.raises(TypeError, match=f"optimizer can only optimize Tensors, but one of the "
                                        f"params is {kind}"):
        optim.SGD([Parameter(ug.ones(1)), bad], lr=0.1)


def test_non_leaf_tensor():
    x = ug.tensor([1.0], requires_grad=True)
    with pytest.raises(ValueError, match="^can't optimize a non-leaf Tensor$"):
        optim.Adam([x * 2])


def test_params_container_errors():
    w = Parameter(ug.ones(2))
    with pytest.raises(TypeError, match="iterable of Tensors or dicts, but got Parameter"):
        optim.SGD(w, lr=0.1)
    with pytest.raises(TypeError, match="ordering of tensors in sets will change"):
        optim.SGD({w}, lr=0.1)
    with pytest.raises(TypeError, match=r"put a single parameter group in a list"):
        optim.SGD({"params": [w]}, lr=0.1)
    with pytest.raises(TypeError, match="iterable of Tensors or dicts, but got int"):
        optim.SGD(3, lr=0.1)
    with pytest.raises(ValueError, match="must have a 'params' entry"):
        optim.SGD([{"lr": 0.1}], lr=0.1)


def test_duplicate_parameter_in_a_group_warns_like_torch():
    w = Parameter(ug.ones(2))
    with pytest.warns(UserWarning, match="duplicate parameters"):
        optim.SGD([w, w], lr=0.1)


def test_mindspore_group_dicts_and_order_params():
    w, b = _params()
    opt = optim.Momentum([{"params": [w], "weight_decay": 0.01, "lr": 0.5, "order_params": [w, b]},
                          {"params": [b]}], 0.1, 0.9)
    assert [g["lr"] for g in opt.param_groups] == [0.5, 0.1]
    assert [g["weight_decay"] for g in opt.param_groups] == [0.01, 0.0]
    assert all("order_params" not in g for g in opt.param_groups)
    assert isinstance(opt.parameters, ParameterTuple) and opt.parameters == (w, b)


def test_named_parameters_are_accepted():
    w, b = _params()
    opt = optim.SGD([("fc.weight", w), ("fc.bias", b)], lr=0.1)
    assert opt.param_groups[0]["param_names"] == ["fc.weight", "fc.bias"]
    assert opt.parameters == (w, b)
    with pytest.raises(ValueError, match="Some param names are missing"):
        optim.SGD([("fc.weight", w), b], lr=0.1)


def test_user_group_dict_is_not_mutated():
    w = Parameter(ug.ones(2))
    group = {"params": [w], "lr": 0.5}
    optim.Adam([group])
    assert group == {"params": [w], "lr": 0.5}


# ------------------------------------------------------------------ hyper-parameters

@pytest.mark.parametrize("make, message", [
    (lambda p: optim.SGD(p, lr=-0.1), "Invalid learning rate: -0.1"),
    (lambda p: optim.SGD(p, lr=0.1, momentum=-0.5), "Invalid momentum value: -0.5"),
    (lambda p: optim.SGD(p, lr=0.1, weight_decay=-1), "Invalid weight_decay value: -1"),
    (lambda p: optim.SGD(p, lr=0.1, nesterov=True),
     "Nesterov momentum requires a momentum and zero dampening"),
    (lambda p: optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.1, nesterov=True),
     "Nesterov momentum requires a momentum and zero dampening"),
    (lambda p: optim.Adam(p, lr=-1e-3), "Invalid learning rate: -0.001"),
    (lambda p: optim.Adam(p, eps=-1e-8), "Invalid epsilon value: -1e-08"),
    (lambda p: optim.Adam(p, betas=(1.0, 0.999)), "Invalid beta parameter at index 0: 1.0"),
    (lambda p: optim.Adam(p, betas=(0.9, -0.1)), "Invalid beta parameter at index 1: -0.1"),
    (lambda p: optim.AdamW(p, beta2=1.5), "Invalid beta parameter at index 1: 1.5"),
    (lambda p: optim.AdamW(p, weight_decay=-0.01), "Invalid weight_decay value: -0.01"),
    (lambda p: optim.Momentum(p, 0.1, -0.9), "Invalid momentum value: -0.9"),
    (lambda p: optim.Momentum(p, -0.1, 0.9), "Invalid learning rate: -0.1"),
    (lambda p: optim.Momentum(p, 0.1, 0.9, weight_decay=-1.0),
     "Invalid weight_decay value: -1.0"),
    (lambda p: optim.SGD(p, learning_rate=[0.1, -0.2]), "Invalid learning rate: -0.2"),
    (lambda p: optim.SGD(p, learning_rate=[]), "SGD: a dynamic learning rate .* must not be empty"),
    (lambda p: optim.SGD(p, lr=ug.ones((2, 2))),
     r"SGD: a Tensor learning rate must be 0-d \(a rate\) or 1-d"),
    (lambda p: optim.SGD(p, lr=0.1, loss_scale=0.0), "Invalid loss_scale value: 0"),
    (lambda p: optim.Momentum(p, 0.1, 0.9, loss_scale=-2.0), "Invalid loss_scale value: -2.0"),
    (lambda p: optim.SGD([{"params": p, "lr": -3}], lr=0.1), "Invalid learning rate: -3"),
    (lambda p: optim.Adam([{"params": p, "betas": (0.9, 1.0)}]),
     "Invalid beta parameter at index 1: 1.0"),
])
def test_invalid_values_have_pytorch_messages(make, message):
    with pytest.raises(ValueError, match=f"^{message}"):
        make(_params())


@pytest.mark.parametrize("make, message", [
    (lambda p: optim.SGD(p, lr="0.1"), "SGD: 'lr' must be a real number, got str"),
    (lambda p: optim.SGD(p, lr=0.1, momentum=None), "'momentum' must be a real number"),
    (lambda p: optim.SGD(p, lr=0.1, nesterov="yes"), "SGD: 'nesterov' must be a bool, got str"),
    (lambda p: optim.Adam(p, betas=0.9), "'betas' must be a pair of floats"),
    (lambda p: optim.Adam(p, amsgrad=1), "'amsgrad' must be a bool, got int"),
    (lambda p: optim.Momentum(p, 0.1, 0.9, use_nesterov=None), "'use_nesterov' must be a bool"),
    (lambda p: optim.SGD(p, lr=True), "'lr' must be a real number, got bool"),
])
def test_wrong_types_are_type_errors(make, message):
    with pytest.raises(TypeError, match=message):
        make(_params())


@pytest.mark.parametrize("make, message", [
    (lambda p: optim.SGD(p, lr=0.1, learning_rate=0.1),
     r"SGD\(\) got both 'lr' and its alias 'learning_rate'"),
    (lambda p: optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, use_nesterov=True),
     "got both 'nesterov' and its alias 'use_nesterov'"),
    (lambda p: optim.Adam(p, betas=(0.9, 0.99), beta1=0.8), "got both 'betas' and its aliases"),
    (lambda p: optim.Adam(p, amsgrad=True, use_amsgrad=True), "got both 'amsgrad'"),
    (lambda p: optim.AdamW(p, lr=0.1, learning_rate=0.2), r"AdamW\(\) got both 'lr'"),
    (lambda p: optim.Momentum(p, 0.1, 0.9, lr=0.1),
     r"Momentum\(\) got both 'learning_rate' and its alias 'lr'"),
    (lambda p: optim.Momentum(p),
     r"missing 2 required positional arguments: 'learning_rate' and 'momentum'"),
    (lambda p: optim.Momentum(p, lr=0.1),
     r"missing 1 required positional argument: 'momentum'"),
    (lambda p: optim.Momentum(p, momentum=0.9),
     r"missing 1 required positional argument: 'learning_rate'"),
])
def test_alias_conflicts_and_missing_arguments(make, message):
    with pytest.raises(TypeError, match=message):
        make(_params())


def test_mindspore_spellings_are_aliases():
    p = _params()
    sgd = optim.SGD(p, learning_rate=0.2, momentum=0.9, use_nesterov=True)
    assert sgd.param_groups[0]["lr"] == 0.2 and sgd.param_groups[0]["nesterov"] is True
    adam = optim.Adam(p, learning_rate=0.01, beta1=0.8, beta2=0.9, use_amsgrad=True)
    group = adam.param_groups[0]
    assert (group["lr"], group["betas"], group["amsgrad"]) == (0.01, (0.8, 0.9), True)
    assert optim.Adam(p, beta2=0.9).param_groups[0]["betas"] == (0.9, 0.9)
    momentum = optim.Momentum(p, lr=0.3, momentum=0.8)
    assert momentum.get_lr() == 0.3 and momentum.use_nesterov is False
    assert optim.AdamW(p).param_groups[0]["weight_decay"] == 0.01
    assert optim.AdamW(p).param_groups[0]["decoupled_weight_decay"] is True
    assert optim.SGD(p).param_groups[0]["lr"] == 1e-3


# ------------------------------------------------------------------ parameters / get_lr

def test_parameters_property():
    w, b = _params()
    opt = optim.Adam([{"params": [b]}, {"params": [w]}])
    assert isinstance(opt.parameters, ParameterTuple) and opt.parameters == (b, w)
    clones = opt.parameters.clone(prefix="accumulate_", init="zeros")
    assert [c.name for c in clones] == ["accumulate_.fc.bias", "accumulate_.fc.weight"]
    plain = ug.tensor([1.0], requires_grad=True)
    mixed = optim.SGD([plain, w], lr=0.1)
    assert type(mixed.parameters) is tuple and mixed.parameters == (plain, w)


def test_get_lr_is_a_float_of_group_zero():
    opt = optim.SGD([{"params": _params()[:1], "lr": 0.25}, {"params": _params()[1:]}], lr=0.1)
    assert opt.get_lr() == 0.25 and isinstance(opt.get_lr(), float)


# ------------------------------------------------------------------ zero_grad / step

def test_zero_grad_both_ways():
    w, b = _params()
    opt = optim.SGD([w, b], lr=0.1)
    (w.sum() * 3).backward()
    grad = w.grad
    opt.zero_grad(set_to_none=False)
    assert w.grad is grad and grad.tolist() == [0.0, 0.0]
    assert b.grad is None
    opt.zero_grad()
    assert w.grad is None
    with pytest.raises(TypeError, match="'set_to_none' must be a bool"):
        opt.zero_grad(set_to_none="no")


def test_zero_grad_detaches_a_recorded_gradient():
    w = Parameter(ug.tensor([1.0, 2.0]))
    opt = optim.SGD([w], lr=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the reference-cycle warning of create_graph=True
        (w ** 3).sum().backward(create_graph=True)
    assert w.grad.requires_grad
    opt.zero_grad(set_to_none=False)
    assert not w.grad.requires_grad and w.grad.grad_fn is None
    assert w.grad.tolist() == [0.0, 0.0]


def test_step_with_closure_returns_the_loss_and_records_inside_no_grad():
    w = Parameter(ug.tensor([3.0]))
    opt = optim.SGD([w], lr=0.25)
    calls = []

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        calls.append(loss.requires_grad)
        loss.backward()
        return loss

    with ug.no_grad():
        loss = opt.step(closure)
    assert calls == [True]
    assert loss.item() == 9.0 and w.item() == 1.5
    with pytest.raises(TypeError, match="'closure' must be callable"):
        opt.step(closure=3)


def test_step_without_any_gradient_changes_no_parameter():
    w, b = _params()
    opt = optim.Adam([w, b])
    opt.step()
    assert w.tolist() == [1.0, 2.0] and b.tolist() == [0.5] and len(opt.state) == 0


# ------------------------------------------------------------------ MindSpore call

def test_call_returns_true_and_does_not_touch_grad():
    w, b = _params()
    opt = optim.SGD([w, b], lr=0.5)
    w.grad = ug.tensor([10.0, 10.0])
    grad = w.grad
    assert opt([ug.tensor([1.0, 1.0]), ug.tensor([2.0])]) is True
    assert w.grad is grad and grad.tolist() == [10.0, 10.0] and b.grad is None
    assert w.tolist() == [0.5, 1.5] and b.tolist() == [-0.5]
    assert opt.construct((None, ug.tensor([1.0]))) is True
    assert w.tolist() == [0.5, 1.5] and b.tolist() == [-1.0]


@pytest.mark.parametrize("cls, kwargs", [(optim.SGD, {"lr": 0.1, "momentum": 0.9}),
                                         (optim.Momentum, {"learning_rate": 0.1,
                                                           "momentum": 0.9}),
                                         (optim.Adam, {}), (optim.AdamW, {})])
def test_call_errors_change_nothing(cls, kwargs):
    w, b = _params()
    opt = cls([w, b], **kwargs)
    opt([ug.ones(2), ug.ones(1)])  # some state to protect
    before = _snapshot(opt, [w, b])
    name = cls.__name__
    with pytest.raises(ValueError, match=rf"For '{name}', the number of gradients \(1\) must "
                                         r"equal the number of parameters \(2\)"):
        opt([ug.ones(2)])
    with pytest.raises(ValueError, match=r"gradient of parameter 'fc.bias' has shape \(2,\), "
                                         r"but the parameter has shape \(1,\)"):
        opt((ug.ones(2), ug.ones(2)))
    with pytest.raises(TypeError, match="gradient of parameter 'fc.weight' must be a Tensor or "
                                        "None, but got list"):
        opt(([1.0, 1.0], ug.ones(1)))
    with pytest.raises(TypeError, match="'gradients' must be a tuple or list of Tensors"):
        opt(ug.ones(2))
    _assert_unchanged(before, _snapshot(opt, [w, b]))


def test_call_error_names_the_index_of_an_unnamed_parameter():
    a, b = ug.tensor([1.0], requires_grad=True), ug.tensor([1.0, 2.0], requires_grad=True)
    opt = optim.SGD([a, b], lr=0.1)
    with pytest.raises(ValueError, match=r"gradient of parameter 1 has shape \(3,\)"):
        opt((ug.ones(1), ug.ones(3)))
    assert a.tolist() == [1.0] and b.tolist() == [1.0, 2.0]


def test_integer_parameters_cannot_take_a_gradient():
    counter = Parameter(ug.tensor([1, 2]), name="counter")
    w = Parameter(ug.tensor([1.0]), name="w")
    opt = optim.SGD([w, counter], lr=0.1)
    with pytest.raises(TypeError, match="parameter 'counter' has dtype int64; only "
                                        "floating-point and complex parameters"):
        opt((ug.ones(1), ug.tensor([1, 1])))
    assert w.tolist() == [1.0] and counter.tolist() == [1, 2]
    assert opt((ug.ones(1), None)) is True


# ------------------------------------------------------------------ repr

def test_repr_like_pytorch():
    w, b = _params()
    opt = optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.01}], lr=0.1, momentum=0.9)
    switches = "    differentiable: False\n    foreach: None\n    fused: None\n"
    assert repr(opt) == ("SGD (\nParameter Group 0\n    dampening: 0\n" + switches +
                         "    lr: 0.1\n    maximize: False\n    momentum: 0.9\n"
                         "    nesterov: False\n    weight_decay: 0\n\nParameter Group 1\n"
                         "    dampening: 0\n" + switches + "    lr: 0.01\n    maximize: False\n"
                         "    momentum: 0.9\n    nesterov: False\n    weight_decay: 0\n)")
    assert repr(optim.Adam([w])) == (
        "Adam (\nParameter Group 0\n    amsgrad: False\n    betas: (0.9, 0.999)\n"
        "    capturable: False\n    decoupled_weight_decay: False\n    differentiable: False\n"
        "    eps: 1e-08\n    foreach: None\n    fused: None\n    lr: 0.001\n"
        "    maximize: False\n    weight_decay: 0\n)")


def test_no_warnings_in_a_plain_training_step():
    w = Parameter(ug.tensor([1.0, 2.0]))
    opt = optim.AdamW([w], lr=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.zero_grad()
        (w * w).sum().backward()
        opt.step()
    # AdamW's first step: decay by (1 - lr * wd), then move lr against the gradient's sign
    np.testing.assert_allclose(w.detach().numpy(), [0.999 - 0.1, 1.998 - 0.1], rtol=1e-6)


def test_a_custom_optimizer_subclass_gets_both_calling_styles():
    class SignSGD(optim.Optimizer):
        def __init__(self, params, lr=0.1):
            super().__init__(params, {"lr": lr})

        def _update_group(self, group, params, grads, lr):
            for param, grad in zip(params, grads):
                param.sub_(grad.sign(), alpha=lr)

    w = Parameter(ug.tensor([1.0, 2.0]), name="w")
    opt = SignSGD([w], lr=0.5)
    opt([ug.tensor([3.0, -0.1])])
    w.grad = ug.tensor([1.0, 1.0])
    opt.step()
    assert w.tolist() == [0.0, 2.0]
    with pytest.raises(ValueError, match="Invalid learning rate: -1"):
        SignSGD([w], lr=-1)
    with pytest.raises(NotImplementedError, match="Optimizer does not define an update rule"):
        optim.Optimizer([w], {"lr": 0.1})([ug.ones(2)])
