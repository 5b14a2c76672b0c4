"""The optimizers added for torch.optim parity: calling styles, graph mode, errors, state."""

from __future__ import annotations

import json

import numpy as np
import pytest

import unigrad as ug
import unigrad.optim as optim
from unigrad import nn
from unigrad.nn.parameter import Parameter

NEW = ["Adadelta", "Adafactor", "Adagrad", "Adamax", "ASGD", "NAdam", "RAdam", "RMSprop",
       "Rprop"]
GRAPH_READY = NEW
OPTIONS = {"Adadelta": {"lr": 0.5, "weight_decay": 0.1}, "Adafactor": {"lr": 0.05},
           "Adagrad": {"lr": 0.1, "lr_decay": 0.1}, "Adamax": {"lr": 0.05},
           "ASGD": {"lr": 0.05, "t0": 1}, "NAdam": {"lr": 0.05}, "RAdam": {"lr": 0.05},
           "RMSprop": {"lr": 0.01, "momentum": 0.5, "centered": True, "weight_decay": 0.1},
           "Rprop": {"lr": 0.01, "maximize": True}}


def _params(seed: int = 0, dtype=np.float64) -> list:
    rng = np.random.default_rng(seed)
    return [Parameter(ug.tensor(rng.normal(size=shape).astype(dtype)), name=f"p{i}")
            for i, shape in enumerate([(2, 3), (3,)])]


def _grads(step: int, dtype=np.float64) -> list:
    rng = np.random.default_rng(100 + step)
    return [ug.tensor(rng.normal(size=shape).astype(dtype)) for shape in [(2, 3), (3,)]]


def _values(params) -> list:
    return [p.detach().numpy().copy() for p in params]


@pytest.mark.parametrize("name", NEW)
def test_mindspore_call_equals_pytorch_step(name):
    by_step, by_call = _params(), _params()
    step_opt = getattr(optim, name)(by_step, **OPTIONS[name])
    call_opt = getattr(optim, name)(by_call, **OPTIONS[name])
    for step in range(3):
        for param, grad in zip(by_step, _grads(step)):
            param.grad = grad
        step_opt.step()
        assert call_opt(tuple(_grads(step))) is True
    for mine, other in zip(_values(by_step), _values(by_call)):
        np.testing.assert_array_equal(mine, other)
    assert all(p.grad is None for p in by_call)  # opt(grads) never touches .grad


@pytest.mark.parametrize("name", NEW)
def test_learning_rate_alias_and_its_conflict(name):
    opt = getattr(optim, name)(_params(), learning_rate=0.25)
    assert opt.param_groups[0]["lr"] == 0.25
    with pytest.raises(TypeError, match=f"{name}\\(\\) got both 'lr' and its alias "
                                        "'learning_rate'"):
        getattr(optim, name)(_params(), lr=0.1, learning_rate=0.25)


@pytest.mark.parametrize("name", NEW)
def test_dynamic_learning_rate_follows_its_schedule(name):
    """A list lr (MindSpore) equals setting each step's rate by hand."""
    scheduled, manual = _params(), _params()
    options = {k: v for k, v in OPTIONS[name].items() if k != "lr"}
    rates = [0.05, 0.02, 0.01]
    scheduled_opt = getattr(optim, name)(scheduled, lr=rates, **options)
    manual_opt = getattr(optim, name)(manual, lr=rates[0], **options)
    for step, rate in enumerate(rates + [rates[-1]]):
        manual_opt.param_groups[0]["lr"] = rate
        scheduled_opt(tuple(_grads(step)))
        manual_opt(tuple(_grads(step)))
    for mine, other in zip(_values(scheduled), _values(manual)):
        np.testing.assert_allclose(mine, other, rtol=1e-14, atol=1e-15)


def _jit_losses(make_optimizer, compiled: bool):
    ug.manual_seed(0)
    model = nn.Linear(3, 2)
    rng = np.random.default_rng(0)
    opt = make_optimizer(model.parameters())

    def step(x, y):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        return loss.detach()

    if compiled:
        step = ug.jit(step)
    losses = []
    for _ in range(8):  # RAdam rectifies from step 6 on
        x = ug.tensor(rng.normal(size=(4, 3)).astype(np.float32))
        y = ug.tensor(rng.normal(size=(4, 2)).astype(np.float32))
        losses.append(step(x, y).item())
    assert not compiled or 1 <= step.trace_count <= 2  # replayed, not traced each time
    return losses, _values(model.parameters()), opt


@pytest.mark.parametrize("name", GRAPH_READY)
def test_graph_mode_step_equals_the_eager_one(name):
    make = lambda params: getattr(optim, name)(params, **OPTIONS[name])  # noqa: E731
    eager_losses, eager_params, eager_opt = _jit_losses(make, compiled=False)
    graph_losses, graph_params, graph_opt = _jit_losses(make, compiled=True)
    # float32 parameters; graph mode divides by traced coefficients where the eager rule
    # multiplies by Python floats, so the two may differ in the last float32 bits
    np.testing.assert_allclose(graph_losses, eager_losses, rtol=1e-6)
    for got, want in zip(graph_params, eager_params):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    eager_state = list(eager_opt.state.values())[0]
    graph_state = list(graph_opt.state.values())[0]
    assert sorted(graph_state) == sorted(eager_state)
    assert graph_state["step"].item() == 8.0


def test_graph_mode_refusals_come_before_anything_changes():
    """LBFGS (a closure loop) and complex parameters are refused in graph mode up front."""
    real, other = Parameter(ug.tensor([1.0, 2.0])), Parameter(ug.tensor([1.0 + 1.0j]))
    opt = optim.Adam([real, other], lr=0.1)
    compiled = ug.jit(lambda grads: opt(grads))
    with pytest.raises(RuntimeError, match="complex parameters are optimized eagerly"):
        compiled((ug.tensor([1.0, 1.0]), ug.tensor([1.0 + 0.0j])))
    assert real.tolist() == [1.0, 2.0] and not opt.state
    weight = Parameter(ug.tensor([3.0]))
    lbfgs = optim.LBFGS([weight])

    def closure():
        lbfgs.zero_grad()
        loss = (weight * weight).sum()
        loss.backward()
        return loss

    with pytest.raises(NotImplementedError, match="LBFGS cannot run inside a traced"):
        ug.jit(lambda: lbfgs.step(closure))()
    assert weight.tolist() == [3.0] and not lbfgs.state


def test_a_refused_complex_parameter_leaves_earlier_groups_untouched():
    real = Parameter(ug.tensor([1.0, 2.0]))
    other = Parameter(ug.tensor([1.0 + 1.0j]))
    opt = optim.Adafactor([{"params": [real]}, {"params": [other]}])
    real.grad = ug.tensor([0.5, 0.5])
    other.grad = ug.tensor([1.0 + 0.0j])
    with pytest.raises(RuntimeError, match="Adafactor does not support complex parameters"):
        opt.step()
    assert real.tolist() == [1.0, 2.0]
    assert not opt.state


@pytest.mark.parametrize("name", ["RMSprop", "Adagrad", "NAdam", "ASGD", "Rprop"])
def test_implementation_flag_types_are_checked(name):
    with pytest.raises(TypeError, match=f"{name}: 'foreach' must be a bool"):
        getattr(optim, name)(_params(), foreach="yes")


def test_adagrad_builds_its_state_with_the_optimizer():
    weight = Parameter(ug.tensor([[1.0, 2.0]]))
    opt = optim.Adagrad([weight], initial_accumulator_value=0.5)
    assert opt.state[weight]["step"].item() == 0.0
    np.testing.assert_array_equal(opt.state[weight]["sum"].numpy(), [[0.5, 0.5]])
    late = Parameter(ug.tensor([3.0]))
    opt.add_param_group({"params": [late]})
    assert late not in opt.state  # as PyTorch: created at its first step
    late.grad = ug.tensor([1.0])
    opt.step()
    assert opt.state[late]["sum"].tolist() == [1.5]


@pytest.mark.parametrize("name", ["RMSprop", "Adamax", "ASGD", "NAdam"])
def test_numbers_for_scalar_state_are_restored_as_tensors(name):
    """A state dict through JSON metadata (str keys, lists for tuples) whose 0-d entries are
    plain numbers, as older PyTorch checkpoints store ``step``, resumes identically."""
    params = _params()
    opt = getattr(optim, name)(params, **OPTIONS[name])
    opt(tuple(_grads(0)))
    saved = opt.state_dict()
    state = {str(index): {key: value.item() if value.ndim == 0 else value
                          for key, value in entry.items()}
             for index, entry in saved["state"].items()}
    groups = json.loads(json.dumps(saved["param_groups"]))
    copies = [Parameter(param.detach().clone()) for param in params]
    fresh = getattr(optim, name)(copies, **OPTIONS[name])
    fresh.load_state_dict({"state": state, "param_groups": groups})
    for copy in copies:
        assert isinstance(fresh.state[copy]["step"], ug.Tensor)
        assert fresh.state[copy]["step"].item() == 1.0
    fresh(tuple(_grads(1)))  # and steps on from there as the original does
    opt(tuple(_grads(1)))
    for param, copy in zip(params, copies):
        np.testing.assert_allclose(copy.detach().numpy(), param.detach().numpy(), rtol=1e-7)
        for key, value in opt.state[param].items():
            np.testing.assert_allclose(fresh.state[copy][key].numpy(), value.numpy(),
                                       rtol=1e-7, err_msg=key)


def test_adafactor_checks_the_shapes_of_its_factored_state():
    weight = Parameter(ug.ones(2, 3))
    opt = optim.Adafactor([weight])
    opt([ug.ones(2, 3)])
    saved = opt.state_dict()
    assert tuple(saved["state"][0]["row_var"].shape) == (2, 1)
    saved["state"][0]["row_var"] = ug.zeros(2, 3)
    with pytest.raises(ValueError, match=r"state 'row_var' of parameter 0 has shape \(2, 3\), "
                                         r"but shape \(2, 1\) was expected"):
        optim.Adafactor([weight]).load_state_dict(saved)


def test_asgd_keeps_its_scalars_in_the_default_float_dtype():
    weight = Parameter(ug.tensor([1.0, 2.0]))
    opt = optim.ASGD([weight], lr=0.1)
    opt([ug.tensor([1.0, 1.0])])
    state = opt.state[weight]
    assert [state[k].dtype for k in ("step", "eta", "mu")] == [ug.float32] * 3
    assert state["eta"].item() == float(np.float32(0.1 / (1 + 1e-4 * 0.1) ** 0.75))


# ----------------------------------------------------------------------------- LBFGS

def _quadratic_closure(opt, weight, target):
    def closure():
        opt.zero_grad()
        loss = ((weight - target) ** 2).sum()
        loss.backward()
        return loss
    return closure


def test_lbfgs_reaches_the_minimum_of_a_quadratic():
    weight = Parameter(ug.tensor([4.0, -3.0, 0.5], dtype=ug.float64))
    target = ug.tensor([1.0, 2.0, 3.0], dtype=ug.float64)
    opt = optim.LBFGS([weight], history_size=5)
    loss = opt.step(_quadratic_closure(opt, weight, target))
    assert loss.item() == pytest.approx(9.0 + 25.0 + 6.25)
    np.testing.assert_allclose(weight.detach().numpy(), [1.0, 2.0, 3.0], atol=1e-8)
    assert opt.state[weight]["n_iter"] >= 1


def test_lbfgs_refuses_gradients_without_a_closure():
    weight = Parameter(ug.ones(2))
    opt = optim.LBFGS([weight])
    with pytest.raises(TypeError, match=r"call opt.step\(closure\)"):
        opt((ug.ones(2),))
    with pytest.raises(TypeError, match="'closure' must be a callable"):
        opt.step(None)
    assert weight.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("kwargs, error, message", [
    ({"line_search_fn": "armijo"}, ValueError,
     "'line_search_fn' must be None or 'strong_wolfe', got 'armijo'"),
    ({"max_iter": 0}, ValueError, "'max_iter' must be >= 1, got 0"),
    ({"history_size": 2.5}, TypeError, "'history_size' must be an int, got float"),
    ({"lr": -1}, ValueError, "Invalid learning rate: -1"),
])
def test_lbfgs_checks_its_arguments(kwargs, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        optim.LBFGS([Parameter(ug.ones(2))], **kwargs)


def test_lbfgs_has_one_parameter_group():
    with pytest.raises(ValueError, match="LBFGS doesn't support per-parameter options"):
        optim.LBFGS([{"params": [Parameter(ug.ones(1))]}, {"params": [Parameter(ug.ones(1))]}])


def test_lbfgs_without_gradients_counts_them_as_zero():
    used, unused = Parameter(ug.tensor([2.0], dtype=ug.float64)), Parameter(ug.ones(2))
    opt = optim.LBFGS([used, unused])

    def closure():
        opt.zero_grad()
        loss = (used * used).sum()
        loss.backward()
        return loss

    opt.step(closure)
    assert abs(used.item()) < 1e-6
    assert unused.tolist() == [1.0, 1.0]
    assert tuple(opt.state[used]["d"].shape) == (3,)


def test_sparse_adam_refuses_complex_parameters_when_built():
    with pytest.raises(ValueError, match=r"Complex params at indices \[\[0, 1\]\]: SparseAdam "
                                         "does not support complex parameters"):
        optim.SparseAdam([Parameter(ug.ones(1)), Parameter(ug.tensor([1j]))])


def test_compat_torch_optim_exports_every_optimizer():
    import unigrad.compat.torch as torch_compat

    for name in NEW + ["LBFGS", "Muon", "SparseAdam", "SGD", "Adam", "AdamW"]:
        assert getattr(torch_compat.optim, name) is getattr(optim, name)


# ------------------------------------------------------------------------------ Muon

def test_muon_graph_mode_is_refused_and_eager_calls_work():
    weight = Parameter(ug.tensor([[1.0, 0.5], [0.0, 2.0]]))
    opt = optim.Muon([weight], lr=0.1)
    with pytest.raises(NotImplementedError, match="Muon cannot run inside a traced"):
        ug.jit(lambda grads: opt(grads))((ug.ones(2, 2),))
    assert weight.tolist() == [[1.0, 0.5], [0.0, 2.0]] and not opt.state
    assert opt((ug.tensor([[1.0, 0.0], [0.0, 1.0]]),)) is True
    assert sorted(opt.state[weight]) == ["momentum_buffer"]


@pytest.mark.parametrize("kwargs, error, message", [
    ({"ns_steps": 100}, ValueError, "Number of steps must be less than 100"),
    ({"ns_coefficients": (1.0, 2.0)}, ValueError, "Coefficients must be a tuple of exactly 3"),
    ({"momentum": -0.5}, ValueError, "momentum should be >= 0 but is: -0.5"),
    ({"weight_decay": -1.0}, ValueError, "weight decay should be >= 0 but is: -1.0"),
    ({"ns_steps": 2.0}, TypeError, "'ns_steps' must be an int >= 0, got 2.0"),
])
def test_muon_checks_its_arguments_when_built(kwargs, error, message):
    with pytest.raises(error, match=message):
        optim.Muon([Parameter(ug.ones(2, 2))], **kwargs)
