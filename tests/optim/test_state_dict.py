"""Optimizer ``state_dict``/``load_state_dict``: PyTorch's layout, exact resumption, errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

import unigrad as ug
import unigrad.optim as optim
from unigrad.nn.parameter import Parameter

from ._harness import make_params, problem

CASES = [
    ("SGD", lambda p: optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("SGD-groups", lambda p: optim.SGD([{"params": p[:1], "lr": 0.3}, {"params": p[1:]}],
                                       lr=0.1, momentum=0.8, dampening=0.1)),
    ("Momentum", lambda p: optim.Momentum(p, [0.1, 0.05, 0.02, 0.01, 0.005], 0.9,
                                          weight_decay=0.01)),
    ("Adam", lambda p: optim.Adam(p, lr=0.01, amsgrad=True, weight_decay=0.1)),
    ("AdamW-groups", lambda p: optim.AdamW([{"params": p[:2]}, {"params": p[2:], "lr": 0.1}],
                                           lr=0.01, betas=(0.8, 0.99))),
]


def _jsonish(value):
    """What ug.save's JSON metadata gives back: str keys, lists for tuples; Tensors kept."""
    if isinstance(value, dict):
        return {str(k): _jsonish(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonish(v) for v in value]
    if isinstance(value, ug.Tensor):
        return value
    return json.loads(json.dumps(value))


def _train(opt, params, grads):
    for step in grads:
        opt(tuple(ug.tensor(g) for g in step))


@pytest.mark.parametrize("through_json", [False, True])
@pytest.mark.parametrize("name, make", CASES, ids=[c[0] for c in CASES])
def test_round_trip_resumes_bit_identically(name, make, through_json):
    init, grads = problem(seed=31, steps=6)
    params = make_params(init)
    opt = make(params)
    _train(opt, params, grads[:3])
    saved = opt.state_dict()
    if through_json:
        saved = _jsonish(saved)
    copies = make_params([p.detach().numpy() for p in params])
    fresh = make(copies)
    fresh.load_state_dict(saved)
    if name == "Momentum":  # the dynamic learning rate resumes at entry 3
        assert saved["global_step"] == 3 and fresh.get_lr() == opt.get_lr() == 0.01
    _train(opt, params, grads[3:])
    _train(fresh, copies, grads[3:])
    for a, b in zip(params, copies):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
    assert repr(fresh) == repr(opt)


def test_layout_is_pytorchs():
    init, grads = problem(seed=32)
    params = make_params(init)
    opt = optim.Adam([{"params": params[:1]}, {"params": params[1:], "lr": 0.1}], lr=0.01)
    params[1].grad = ug.tensor(grads[0][1])
    opt.step()
    sd = opt.state_dict()
    assert set(sd) == {"state", "param_groups"}
    assert list(sd["state"]) == [1]  # only the parameter that was updated has state
    assert set(sd["state"][1]) == {"step", "exp_avg", "exp_avg_sq"}
    assert sd["state"][1]["step"].item() == 1.0
    assert [g["params"] for g in sd["param_groups"]] == [[0], [1, 2]]
    assert sd["param_groups"][1]["lr"] == 0.1 and sd["param_groups"][0]["lr"] == 0.01
    assert sd["param_groups"][0]["betas"] == (0.9, 0.999)


def test_dynamic_learning_rate_saves_the_step_counter():
    w = Parameter(ug.ones(1))
    opt = optim.SGD([w], learning_rate=[0.1, 0.2])
    opt([ug.ones(1)])
    sd = opt.state_dict()
    assert sd["global_step"] == 1 and sd["param_groups"][0]["lr"] == (0.1, 0.2)
    fresh = optim.SGD([Parameter(ug.ones(1))], learning_rate=[0.1, 0.2])
    fresh.load_state_dict(_jsonish(sd))
    assert fresh.get_lr() == 0.2 and fresh.param_groups[0]["lr"] == (0.1, 0.2)


def test_no_aliasing_between_the_optimizer_and_the_dicts():
    w = Parameter(ug.tensor([1.0, 2.0]))
    opt = optim.SGD([w], lr=0.1, momentum=0.9)
    opt([ug.ones(2)])
    saved = opt.state_dict()
    opt([ug.ones(2)])  # the saved dict is a snapshot
    np.testing.assert_array_equal(saved["state"][0]["momentum_buffer"].numpy(), [1.0, 1.0])
    fresh = optim.SGD([w], lr=0.1, momentum=0.9)
    fresh.load_state_dict(saved)
    saved["state"][0]["momentum_buffer"].fill_(100.0)
    saved["param_groups"][0]["lr"] = 5.0
    np.testing.assert_array_equal(fresh.state[w]["momentum_buffer"].numpy(), [1.0, 1.0])
    assert fresh.param_groups[0]["lr"] == 0.1


def test_loaded_state_is_cast_to_the_parameter_dtype():
    w64 = Parameter(ug.tensor([1.0, 2.0], dtype=ug.float64))
    source = optim.Adam([w64], lr=0.1)
    source([ug.tensor([1.0, -1.0], dtype=ug.float64)])
    w32 = Parameter(ug.tensor([1.0, 2.0]))
    target = optim.Adam([w32], lr=0.1)
    target.load_state_dict(source.state_dict())
    assert target.state[w32]["exp_avg"].dtype == ug.float32
    assert target.state[w32]["step"].item() == 1.0
    target([ug.tensor([1.0, -1.0])])
    assert target.state[w32]["step"].item() == 2.0


def test_a_numeric_step_becomes_a_tensor():
    w = Parameter(ug.tensor([1.0]))
    opt = optim.Adam([w], lr=0.1)
    opt.load_state_dict({"state": {0: {"step": 4, "exp_avg": ug.zeros(1),
                                       "exp_avg_sq": np.zeros(1, np.float32)}},
                         "param_groups": [{"params": [0], "lr": 0.1}]})
    assert isinstance(opt.state[w]["step"], ug.Tensor) and opt.state[w]["step"].item() == 4.0
    assert isinstance(opt.state[w]["exp_avg_sq"], ug.Tensor)
    opt([ug.tensor([1.0])])
    assert opt.state[w]["step"].item() == 5.0


def _trained():
    w, b = Parameter(ug.tensor([1.0, 2.0]), name="w"), Parameter(ug.tensor([3.0]), name="b")
    opt = optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.2}], lr=0.1, momentum=0.9)
    opt([ug.ones(2), ug.ones(1)])
    return opt, (w, b)


@pytest.mark.parametrize("mutate, error, message", [
    (lambda sd: sd["param_groups"].pop(), ValueError,
     "^loaded state dict has a different number of parameter groups$"),
    (lambda sd: sd["param_groups"][1]["params"].append(7), ValueError,
     "^loaded state dict contains a parameter group that doesn't match the size of optimizer's "
     "group$"),
    (lambda sd: sd["state"][0].update(momentum_buffer=ug.ones(3)), ValueError,
     r"state 'momentum_buffer' of parameter 0 has shape \(3,\), but the parameter has shape "
     r"\(2,\)"),
    (lambda sd: sd["state"].update({5: {}}), ValueError, "entry for parameter 5, which none"),
    (lambda sd: sd["param_groups"][0].update(lr=-1.0), ValueError, "Invalid learning rate: -1"),
    (lambda sd: sd["param_groups"][0].update(nesterov=True, dampening=0.5), ValueError,
     "Nesterov momentum requires"),
    (lambda sd: sd.pop("state"), ValueError, "has no 'state' entry"),
    (lambda sd: sd["state"].update({0: [1.0]}), ValueError, "must be a dict, got list"),
    (lambda sd: sd.update(global_step=-1), ValueError, "'global_step' must be an int >= 0"),
])
def test_load_errors_change_nothing(mutate, error, message):
    opt, params = _trained()
    before = (repr(opt), {k: v["momentum_buffer"].tolist() for k, v in opt.state.items()})
    sd = opt.state_dict()
    mutate(sd)
    with pytest.raises(error, match=message):
        opt.load_state_dict(sd)
    after = (repr(opt), {k: v["momentum_buffer"].tolist() for k, v in opt.state.items()})
    assert before == after
    with pytest.raises(TypeError, match="expected a dict, got list"):
        opt.load_state_dict([])


def test_a_step_entry_must_be_one_number():
    w = Parameter(ug.tensor([1.0]))
    opt = optim.Adam([w], lr=0.1)
    with pytest.raises(ValueError, match=r"state 'step' of parameter 0 must hold one number, "
                                         r"got shape \(2,\)"):
        opt.load_state_dict({"state": {0: {"step": ug.ones(2), "exp_avg": ug.zeros(1),
                                           "exp_avg_sq": ug.zeros(1)}},
                             "param_groups": [{"params": [0], "lr": 0.1}]})
    assert len(opt.state) == 0


def test_deepcopy_and_pickle_keep_parameters_and_state_together():
    import copy
    import pickle

    w = Parameter(ug.tensor([1.0, 2.0]), name="w")
    opt = optim.Adam([w], lr=0.1)
    opt([ug.ones(2)])
    for clone in (copy.deepcopy(opt), pickle.loads(pickle.dumps(opt))):
        (param,) = clone.parameters
        assert param is not w and param.name == "w"
        assert list(clone.state) == [param]
        clone([ug.ones(2)])
        opt_copy_value = param.detach().numpy()
        assert clone.state[param]["step"].item() == 2.0
        assert not np.array_equal(opt_copy_value, w.detach().numpy())
    np.testing.assert_allclose(w.detach().numpy(), [0.9, 1.9], rtol=1e-6)
