"""Learning-rate schedulers: torch step by step, closed forms, state dicts, errors."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

import unigrad as ug
import unigrad.optim as optim
from unigrad.nn.parameter import Parameter
from unigrad.optim import lr_scheduler

BASE_LRS = (0.1, 0.05)
EPOCHS = 25


class Halve:
    """A callable object: LambdaLR saves its ``__dict__``."""

    def __init__(self, every: int):
        self.every = every

    def __call__(self, epoch: int) -> float:
        return 0.5 ** (epoch // self.every)


def _optimizer(module, param_factory, lrs=BASE_LRS):
    groups = [{"params": [param_factory()], "lr": lr} for lr in lrs]
    return module.SGD(groups, lr=lrs[0], momentum=0.9)


def _unigrad_optimizer(lrs=BASE_LRS):
    return _optimizer(optim, lambda: Parameter(ug.zeros(2)), lrs)


SCHEDULERS = {
    "StepLR": lambda m, o: m.StepLR(o, step_size=3, gamma=0.5),
    "MultiStepLR": lambda m, o: m.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3),
    "ExponentialLR": lambda m, o: m.ExponentialLR(o, gamma=0.9),
    "CosineAnnealingLR": lambda m, o: m.CosineAnnealingLR(o, T_max=7, eta_min=0.001),
    "LinearLR": lambda m, o: m.LinearLR(o, start_factor=0.25, end_factor=0.9, total_iters=6),
    "LinearLR-default": lambda m, o: m.LinearLR(o),
    "LambdaLR": lambda m, o: m.LambdaLR(o, lambda e: 1.0 / (e + 1)),
    "LambdaLR-per-group": lambda m, o: m.LambdaLR(o, [lambda e: 0.9 ** e, Halve(4)]),
    "MultiplicativeLR": lambda m, o: m.MultiplicativeLR(o, lambda e: 0.95),
    "ConstantLR": lambda m, o: m.ConstantLR(o, factor=0.5, total_iters=4),
    "PolynomialLR": lambda m, o: m.PolynomialLR(o, total_iters=8, power=2.0),
    "SequentialLR-warmup-cosine": lambda m, o: m.SequentialLR(
        o, [m.LinearLR(o, start_factor=0.1, total_iters=5),
            m.CosineAnnealingLR(o, T_max=15, eta_min=1e-4)], milestones=[5]),
    "SequentialLR-three": lambda m, o: m.SequentialLR(
        o, [m.ConstantLR(o, factor=0.2, total_iters=3), m.ExponentialLR(o, gamma=0.8),
            m.StepLR(o, step_size=2, gamma=0.5)], milestones=[3, 8]),
}


def _trajectory(opt, scheduler, epochs=EPOCHS):
    lrs = [scheduler.get_last_lr()]
    for _ in range(epochs):
        opt.step()
        scheduler.step()
        lrs.append(scheduler.get_last_lr())
        assert lrs[-1] == [g["lr"] for g in opt.param_groups]
    return lrs


@pytest.mark.torch
@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_matches_torch_step_by_step(name):
    torch = pytest.importorskip("torch")
    opt = _unigrad_optimizer()
    mine = _trajectory(opt, SCHEDULERS[name](lr_scheduler, opt))
    topt = _optimizer(torch.optim, lambda: torch.nn.Parameter(torch.zeros(2)))
    theirs = _trajectory(topt, SCHEDULERS[name](torch.optim.lr_scheduler, topt))
    assert mine == theirs  # the same float operations: identical to the last bit
    assert len({tuple(x) for x in mine}) >= 2  # the schedule does move


@pytest.mark.torch
@pytest.mark.parametrize("name", ["StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR",
                                  "LinearLR", "ConstantLR", "PolynomialLR"])
def test_deprecated_epoch_argument_matches_torch(name):
    torch = pytest.importorskip("torch")
    results = []
    for module, flavour, make in [(lr_scheduler, optim, lambda: Parameter(ug.zeros(1))),
                                  (torch.optim.lr_scheduler, torch.optim,
                                   lambda: torch.nn.Parameter(torch.zeros(1)))]:
        opt = _optimizer(flavour, make)
        scheduler = SCHEDULERS[name](module, opt)
        opt.step()
        values = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for epoch in (4, 2, 11, 11, 6):
                scheduler.step(epoch)
                values.append(scheduler.get_last_lr())
        results.append(values)
    assert results[0] == results[1]


# ------------------------------------------------------------------ closed forms (no torch)

def _lrs_of(name, epochs=EPOCHS):
    opt = _unigrad_optimizer()
    return [lr[0] for lr in _trajectory(opt, SCHEDULERS[name](lr_scheduler, opt), epochs)]


def test_closed_forms():
    base = BASE_LRS[0]
    np.testing.assert_allclose(_lrs_of("StepLR"), [base * 0.5 ** (e // 3) for e in range(26)],
                               rtol=1e-13)
    np.testing.assert_allclose(_lrs_of("ExponentialLR"), [base * 0.9 ** e for e in range(26)],
                               rtol=1e-13)
    milestones = [2, 5, 5, 9]
    np.testing.assert_allclose(_lrs_of("MultiStepLR"),
                               [base * 0.3 ** sum(e >= m for m in milestones)
                                for e in range(26)], rtol=1e-13)
    cosine = [0.001 + (base - 0.001) * (1 + math.cos(math.pi * e / 7)) / 2 for e in range(26)]
    np.testing.assert_allclose(_lrs_of("CosineAnnealingLR"), cosine, rtol=1e-12, atol=1e-15)
    linear = [base * (0.25 + 0.65 * min(e, 6) / 6) for e in range(26)]
    np.testing.assert_allclose(_lrs_of("LinearLR"), linear, rtol=1e-13)
    np.testing.assert_allclose(_lrs_of("PolynomialLR"),
                               [base * (1 - min(e, 8) / 8) ** 2 for e in range(26)],
                               rtol=1e-12, atol=1e-16)
    np.testing.assert_allclose(_lrs_of("ConstantLR"),
                               [base * (0.5 if e < 4 else 1.0) for e in range(26)], rtol=1e-13)
    np.testing.assert_allclose(_lrs_of("LambdaLR"), [base / (e + 1) for e in range(26)],
                               rtol=1e-13)


def test_warmup_then_cosine_closed_form():
    base = BASE_LRS[0]
    expected = [base * (0.1 + 0.9 * e / 5) for e in range(5)]
    expected += [1e-4 + (base - 1e-4) * (1 + math.cos(math.pi * t / 15)) / 2
                 for t in range(0, 16)]
    np.testing.assert_allclose(_lrs_of("SequentialLR-warmup-cosine", 20), expected, rtol=1e-12)


def test_the_optimizer_uses_the_scheduled_rate():
    w = Parameter(ug.tensor([0.0], dtype=ug.float64))
    opt = optim.SGD([w], lr=1.0)
    scheduler = lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    for _ in range(5):
        opt([ug.tensor([-1.0], dtype=ug.float64)])
        scheduler.step()
    assert w.item() == 1.0 + 1.0 + 0.5 + 0.5 + 0.25
    assert opt.param_groups[0]["initial_lr"] == 1.0


def test_scheduler_works_with_mindspore_style_momentum():
    opt = optim.Momentum([Parameter(ug.ones(1))], learning_rate=0.1, momentum=0.9)
    scheduler = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # opt(grads) counts as the optimizer step
        opt([ug.ones(1)])
        scheduler.step()
    assert opt.get_lr() == 0.05


# ------------------------------------------------------------------ state dicts

def _jsonish(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("name", ["StepLR", "MultiStepLR", "CosineAnnealingLR",
                                  "LambdaLR-per-group", "SequentialLR-warmup-cosine",
                                  "SequentialLR-three", "LinearLR"])
@pytest.mark.parametrize("through_json", [False, True])
def test_state_dict_round_trip(name, through_json):
    opt = _unigrad_optimizer()
    scheduler = SCHEDULERS[name](lr_scheduler, opt)
    _trajectory(opt, scheduler, epochs=7)
    opt_state, sched_state = opt.state_dict(), scheduler.state_dict()
    if through_json:
        sched_state = _jsonish(sched_state)
    if name == "LambdaLR-per-group":
        scheduler.lr_lambdas[1].every = 3  # saved state restores the callable object's dict
        sched_state["lr_lambdas"][1]["every"] = 3
    fresh_opt = _unigrad_optimizer()
    fresh = SCHEDULERS[name](lr_scheduler, fresh_opt)
    fresh_opt.load_state_dict(opt_state)
    fresh.load_state_dict(sched_state)
    assert fresh.get_last_lr() == scheduler.get_last_lr()
    assert _trajectory(fresh_opt, fresh, 10) == _trajectory(opt, scheduler, 10)


def test_state_dict_is_json_friendly_and_excludes_the_optimizer():
    opt = _unigrad_optimizer()
    scheduler = SCHEDULERS["SequentialLR-three"](lr_scheduler, opt)
    sd = scheduler.state_dict()
    assert "optimizer" not in sd and all("optimizer" not in s for s in sd["_schedulers"])
    assert _jsonish(sd) == sd
    multi = lr_scheduler.MultiStepLR(_unigrad_optimizer(), milestones=[5, 2, 5])
    assert multi.state_dict()["milestones"] == [2, 5, 5]


def test_load_state_dict_errors_change_nothing():
    opt = _unigrad_optimizer()
    scheduler = lr_scheduler.StepLR(opt, step_size=2)
    before = scheduler.state_dict()
    with pytest.raises(ValueError, match="'base_lrs' must hold one rate per parameter group"):
        scheduler.load_state_dict({**before, "base_lrs": [0.1]})
    with pytest.raises(ValueError, match="has no 'last_epoch' entry"):
        scheduler.load_state_dict({"base_lrs": [0.1, 0.1]})
    with pytest.raises(TypeError, match="expected a dict, got str"):
        scheduler.load_state_dict("state")
    with pytest.raises(TypeError, match="'last_epoch' must be an int, got float"):
        scheduler.load_state_dict({**before, "last_epoch": 2.5})
    assert scheduler.state_dict() == before
    sequential = SCHEDULERS["SequentialLR-three"](lr_scheduler, opt)
    with pytest.raises(ValueError, match="'_schedulers' must hold one state dict per scheduler"):
        sequential.load_state_dict({**sequential.state_dict(), "_schedulers": []})


# ------------------------------------------------------------------ errors and warnings

@pytest.mark.parametrize("make, error, message", [
    (lambda o: lr_scheduler.StepLR([1], step_size=2), TypeError, "^list is not an Optimizer$"),
    (lambda o: lr_scheduler.StepLR(o, step_size=0), ValueError, "'step_size' must be >= 1"),
    (lambda o: lr_scheduler.StepLR(o, step_size="3"), TypeError, "'step_size' must be an int"),
    (lambda o: lr_scheduler.StepLR(o, step_size=2, gamma="x"), TypeError,
     "'gamma' must be a real number"),
    (lambda o: lr_scheduler.MultiStepLR(o, milestones=[1.5]), TypeError,
     "'milestones' must be an int"),
    (lambda o: lr_scheduler.LinearLR(o, start_factor=0), ValueError,
     "Starting multiplicative factor expected to be greater than 0"),
    (lambda o: lr_scheduler.LinearLR(o, end_factor=1.5), ValueError,
     "Ending multiplicative factor expected to be between 0 and 1."),
    (lambda o: lr_scheduler.ConstantLR(o, factor=2.0), ValueError,
     "Constant multiplicative factor expected to be between 0 and 1."),
    (lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=0), ValueError, "'T_max' must be > 0"),
    (lambda o: lr_scheduler.LambdaLR(o, [lambda e: 1.0] * 3), ValueError,
     "Expected 2 lr_lambdas, but got 3"),
    (lambda o: lr_scheduler.LambdaLR(o, 0.5), TypeError,
     "lr_lambda should be a function, but got float"),
    (lambda o: lr_scheduler.ExponentialLR(o, gamma=0.5, last_epoch=3), KeyError,
     "param 'initial_lr' is not specified in param_groups\\[0\\]"),
    (lambda o: lr_scheduler.SequentialLR(o, [], milestones=[]), ValueError,
     "expects at least one scheduler"),
    (lambda o: lr_scheduler.SequentialLR(o, [lr_scheduler.StepLR(o, 2)], milestones=[3]),
     ValueError, "number of schedulers 1 and the number of milestones to be equal to 1"),
    (lambda o: lr_scheduler.SequentialLR(
        o, [lr_scheduler.StepLR(o, 2), lr_scheduler.StepLR(_unigrad_optimizer(), 2)], [3]),
     ValueError, "expects all schedulers to belong to the same optimizer"),
])
def test_construction_errors(make, error, message):
    opt = _unigrad_optimizer()
    with pytest.raises(error, match=message):
        make(opt)


def test_errors_leave_the_optimizer_untouched():
    opt = _unigrad_optimizer()
    with pytest.raises(ValueError):
        lr_scheduler.LinearLR(opt, start_factor=0)
    with pytest.raises(KeyError):
        lr_scheduler.StepLR(opt, 2, last_epoch=4)
    assert all("initial_lr" not in g for g in opt.param_groups)
    assert [g["lr"] for g in opt.param_groups] == list(BASE_LRS)


def test_a_mindspore_dynamic_learning_rate_cannot_be_scheduled():
    opt = optim.Momentum([Parameter(ug.ones(1))], learning_rate=[0.1, 0.05], momentum=0.9)
    with pytest.raises(TypeError, match=r"param_groups\[0\]\['lr'\] is a dynamic learning rate "
                                        r"\(tuple of per-step rates\)"):
        lr_scheduler.CosineAnnealingLR(opt, T_max=10)
    assert "initial_lr" not in opt.param_groups[0]
    plain = _unigrad_optimizer()
    scheduler = lr_scheduler.StepLR(plain, 2)
    plain.param_groups[1]["lr"] = [0.1, 0.2]
    plain.step()
    with pytest.raises(TypeError, match=r"param_groups\[1\]\['lr'\] is a dynamic"):
        scheduler.step()


def test_resuming_with_last_epoch():
    opt = _unigrad_optimizer()
    for group in opt.param_groups:
        group["initial_lr"] = group["lr"]
    scheduler = lr_scheduler.ExponentialLR(opt, gamma=0.5, last_epoch=3)
    assert scheduler.last_epoch == 4 and scheduler.base_lrs == list(BASE_LRS)


def test_order_and_get_lr_warnings():
    opt = _unigrad_optimizer()
    scheduler = lr_scheduler.StepLR(opt, step_size=2)
    with pytest.warns(UserWarning, match=r"Detected call of `lr_scheduler.step\(\)` before "
                                         r"`optimizer.step\(\)`"):
        scheduler.step()
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        scheduler.get_lr()
    with pytest.warns(UserWarning, match="The epoch parameter in `scheduler.step\\(\\)`"):
        scheduler.step(4)
    assert scheduler.get_last_lr() == [BASE_LRS[0] * 0.1 ** 2, BASE_LRS[1] * 0.1 ** 2]
