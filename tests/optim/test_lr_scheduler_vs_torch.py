"""The cycling, plateau, restart and chained schedulers and SWA, step by step against PyTorch.

Each schedule runs 30 steps on the same optimizer (two parameter groups) in
both libraries; the learning rates and the momenta they cycle must be equal to
the last bit (the same float operations in the same order), the state dicts
must hold the same entries, and a state dict saved mid-run must resume the
same schedule.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import unigrad as ug
import unigrad.optim as optim
from unigrad.optim import lr_scheduler, swa_utils

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

STEPS = 30


def _optimizer(library: str, kind: str):
    if library == "unigrad":
        make, module = (lambda: ug.nn.Parameter(ug.zeros(2))), optim
    else:
        make, module = (lambda: torch.nn.Parameter(torch.zeros(2))), torch.optim
    groups = [{"params": [make()], "lr": 0.1}, {"params": [make()], "lr": 0.05}]
    if kind == "sgd":
        return module.SGD(groups, lr=0.1, momentum=0.9)
    return module.Adam(groups, lr=0.1)


class Halving:
    """A callable object as CyclicLR's scale_fn: state dicts keep its __dict__."""

    def __init__(self, base: float):
        self.base = base

    def __call__(self, cycle: float) -> float:
        return self.base ** cycle


SCHEDULES = {
    "CyclicLR-triangular": ("sgd", lambda m, o: m.CyclicLR(
        o, base_lr=0.01, max_lr=[0.1, 0.2], step_size_up=4, step_size_down=3)),
    "CyclicLR-triangular2-adam": ("adam", lambda m, o: m.CyclicLR(
        o, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2", base_momentum=0.7,
        max_momentum=0.95)),
    "CyclicLR-exp_range": ("sgd", lambda m, o: m.CyclicLR(
        o, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=3, mode="exp_range", gamma=0.9)),
    "CyclicLR-scale_fn": ("sgd", lambda m, o: m.CyclicLR(
        o, base_lr=0.01, max_lr=0.1, step_size_up=2, scale_fn=Halving(0.8),
        scale_mode="iterations", cycle_momentum=False)),
    "OneCycleLR-cos": ("sgd", lambda m, o: m.OneCycleLR(o, max_lr=[0.5, 1.0], total_steps=31)),
    "OneCycleLR-three_phase-linear-adam": ("adam", lambda m, o: m.OneCycleLR(
        o, max_lr=0.5, epochs=3, steps_per_epoch=11, three_phase=True, anneal_strategy="linear",
        pct_start=0.25, div_factor=10.0, final_div_factor=100.0)),
    "OneCycleLR-no-momentum": ("sgd", lambda m, o: m.OneCycleLR(
        o, max_lr=0.3, total_steps=40, cycle_momentum=False)),
    "CosineAnnealingWarmRestarts": ("sgd", lambda m, o: m.CosineAnnealingWarmRestarts(
        o, T_0=3, T_mult=2, eta_min=0.001)),
    "CosineAnnealingWarmRestarts-T_mult1": ("sgd", lambda m, o: m.CosineAnnealingWarmRestarts(
        o, T_0=4)),
    "ChainedScheduler": ("sgd", lambda m, o: m.ChainedScheduler(
        [m.ConstantLR(o, factor=0.1, total_iters=5), m.ExponentialLR(o, gamma=0.9)])),
    "ChainedScheduler-optimizer": ("sgd", lambda m, o: m.ChainedScheduler(
        [m.LinearLR(o, start_factor=0.2, total_iters=4), m.StepLR(o, step_size=3, gamma=0.5)],
        optimizer=o)),
}


def _moments(opt) -> list:
    return [group.get("momentum", group.get("betas")) for group in opt.param_groups]


def _run(library: str, name: str, steps: int = STEPS):
    kind, build = SCHEDULES[name]
    module = lr_scheduler if library == "unigrad" else torch.optim.lr_scheduler
    opt = _optimizer(library, kind)
    scheduler = build(module, opt)
    trajectory = []
    for _ in range(steps):
        trajectory.append((scheduler.get_last_lr(), _moments(opt)))
        opt.step()
        scheduler.step()
    return trajectory, opt, scheduler


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_schedule_matches_torch(name):
    mine = _run("unigrad", name)[0]
    theirs = _run("torch", name)[0]
    assert mine == theirs
    assert len({tuple(lrs) for lrs, _ in mine}) > 3  # the schedule does move


def _comparable(state: dict) -> dict:
    skip = {"_scale_fn_ref", "_get_lr_called_within_step", "_schedulers", "_is_initial"}
    return {key: value for key, value in state.items() if key not in skip}


@pytest.mark.parametrize("name", [n for n in SCHEDULES if not n.startswith("Chained")])
def test_state_dict_matches_torch(name):
    _, _, mine = _run("unigrad", name, 7)
    _, _, theirs = _run("torch", name, 7)
    mine_state, their_state = _comparable(mine.state_dict()), _comparable(theirs.state_dict())
    assert set(mine_state) == set(their_state)
    for key, value in their_state.items():
        if not callable(value):
            assert mine_state[key] == value, key


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_state_dict_resumes_the_schedule(name):
    kind, build = SCHEDULES[name]
    reference = _run("unigrad", name, 20)[0]
    _, opt, scheduler = _run("unigrad", name, 9)
    saved_optimizer, saved_scheduler = opt.state_dict(), scheduler.state_dict()
    fresh_opt = _optimizer("unigrad", kind)
    fresh = build(lr_scheduler, fresh_opt)
    fresh_opt.load_state_dict(saved_optimizer)
    fresh.load_state_dict(saved_scheduler)
    resumed = []
    for _ in range(11):
        resumed.append((fresh.get_last_lr(), _moments(fresh_opt)))
        fresh_opt.step()
        fresh.step()
    assert resumed == reference[9:]


def test_warm_restarts_fractional_epochs_match_torch():
    results = []
    for library, module in (("unigrad", lr_scheduler), ("torch", torch.optim.lr_scheduler)):
        opt = _optimizer(library, "sgd")
        scheduler = module.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=3, eta_min=0.01)
        values = []
        for epoch in range(6):
            for batch in range(4):
                opt.step()
                scheduler.step(epoch + batch / 4)
                values.append(scheduler.get_last_lr())
        results.append(values)
    assert results[0] == results[1]


PLATEAU_OPTIONS = [
    {"factor": 0.5, "patience": 2},
    {"factor": 0.5, "patience": 1, "cooldown": 2, "min_lr": [0.01, 0.02]},
    {"mode": "max", "threshold_mode": "abs", "threshold": 0.05, "patience": 0},
    {"factor": 0.9, "patience": 0, "eps": 0.005, "min_lr": 0.04},
]
METRICS = [1.0, 0.9, 0.9, 0.95, 0.89, 0.9, 0.8, 0.8, 0.85, 0.81, 0.79, 0.79, 0.7, 0.75, 0.72,
           0.72, 0.72, 0.6, 0.65, 0.66, 0.64, 0.63, 0.7, 0.7, 0.5, 0.55, 0.56, 0.57, 0.5, 0.5]


@pytest.mark.parametrize("options", PLATEAU_OPTIONS, ids=range(len(PLATEAU_OPTIONS)))
def test_reduce_on_plateau_matches_torch(options):
    results = []
    states = []
    for library, module in (("unigrad", lr_scheduler), ("torch", torch.optim.lr_scheduler)):
        opt = _optimizer(library, "sgd")
        scheduler = module.ReduceLROnPlateau(opt, **options)
        values = []
        for metric in METRICS:
            opt.step()
            tensor = ug.tensor if library == "unigrad" else torch.tensor
            scheduler.step(tensor(metric, dtype=ug.float64 if library == "unigrad" else
                                  torch.float64))
            values.append((scheduler.get_last_lr(), scheduler.num_bad_epochs,
                           scheduler.cooldown_counter, scheduler.best))
        results.append(values)
        states.append(scheduler.state_dict())
    assert results[0] == results[1]
    assert len({tuple(v[0]) for v in results[0]}) > 1
    assert set(states[0]) == set(states[1])


def test_reduce_on_plateau_resume_and_errors():
    opt = _optimizer("unigrad", "sgd")
    scheduler = lr_scheduler.ReduceLROnPlateau(opt, mode="max", patience=0)
    scheduler.step(1.0)
    scheduler.step(0.5)
    fresh = lr_scheduler.ReduceLROnPlateau(_optimizer("unigrad", "sgd"))
    fresh.load_state_dict(scheduler.state_dict())
    assert fresh.mode == "max" and fresh.is_better(2.0, 1.0) and fresh.best == 1.0
    with pytest.raises(ValueError, match="Factor should be < 1.0."):
        lr_scheduler.ReduceLROnPlateau(opt, factor=1.0)
    with pytest.raises(ValueError, match="mode other is unknown!"):
        lr_scheduler.ReduceLROnPlateau(opt, mode="other")
    with pytest.raises(ValueError, match="expected 2 min_lrs, got 3"):
        lr_scheduler.ReduceLROnPlateau(opt, min_lr=[0.1, 0.1, 0.1])
    before = fresh.state_dict()
    with pytest.raises(ValueError, match="threshold mode nope is unknown!"):
        fresh.load_state_dict({**before, "threshold_mode": "nope"})
    assert fresh.state_dict() == before


def test_cycling_errors_leave_the_optimizer_alone():
    opt = _optimizer("unigrad", "sgd")
    groups = [dict(g) for g in opt.param_groups]
    with pytest.raises(ValueError, match="max_lr must have the same length as "
                                         "optimizer.param_groups"):
        lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=[0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="mode is invalid and scale_fn is None"):
        lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1, mode="sawtooth")
    with pytest.raises(ValueError, match="You must define either total_steps OR"):
        lr_scheduler.OneCycleLR(opt, max_lr=0.1)
    with pytest.raises(ValueError, match="Expected float between 0 and 1 pct_start"):
        lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=10, pct_start=1)
    with pytest.raises(ValueError, match="Expected positive integer T_0"):
        lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0)
    rms = optim.SGD([ug.nn.Parameter(ug.zeros(1))], lr=0.1)
    del rms.defaults["momentum"]
    with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
        lr_scheduler.OneCycleLR(rms, max_lr=0.1, total_steps=10)
    assert [dict(g) for g in opt.param_groups] == groups


def test_one_cycle_refuses_to_run_past_total_steps():
    opt = _optimizer("unigrad", "sgd")
    scheduler = lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(2):
            opt.step()
            scheduler.step()
        opt.step()
        with pytest.raises(ValueError, match="Tried to step 4 times. The specified number of "
                                             "total steps is 3"):
            scheduler.step()
            scheduler.step()


def test_chained_scheduler_refuses_plateau_and_foreign_optimizers():
    opt, other = _optimizer("unigrad", "sgd"), _optimizer("unigrad", "sgd")
    with pytest.raises(ValueError, match="does not support `ReduceLROnPlateau`"):
        lr_scheduler.ChainedScheduler([lr_scheduler.ReduceLROnPlateau(opt)])
    with pytest.raises(ValueError, match="expects all schedulers to belong to the same"):
        lr_scheduler.ChainedScheduler([lr_scheduler.StepLR(opt, 2), lr_scheduler.StepLR(other, 2)])
    with pytest.raises(ValueError, match="expects at least one scheduler"):
        lr_scheduler.ChainedScheduler([])


# ------------------------------------------------------------------------------ SWA

def _twin_models():
    torch.manual_seed(0)
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4),
                                 torch.nn.Linear(4, 2)).double()
    mine = ug.nn.Sequential(ug.nn.Linear(3, 4), ug.nn.BatchNorm1d(4), ug.nn.Linear(4, 2)).double()
    mine.load_state_dict({k: ug.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    return mine, theirs


def _perturb(mine, theirs, rng):
    for p, q in zip(mine.parameters(), theirs.parameters()):
        delta = rng.standard_normal(tuple(p.shape))
        with torch.no_grad():
            q.add_(torch.tensor(delta))
        p.detach().add_(ug.tensor(delta))


@pytest.mark.parametrize("rule", ["swa", "ema", "ema_multi", "custom", "buffers"])
def test_averaged_model_matches_torch(rule):
    rng = np.random.default_rng(1)
    mine, theirs = _twin_models()
    arguments = {
        "swa": ({}, {}),
        "ema": ({"avg_fn": swa_utils.get_ema_avg_fn(0.8)},
                {"avg_fn": torch.optim.swa_utils.get_ema_avg_fn(0.8)}),
        "ema_multi": ({"multi_avg_fn": swa_utils.get_ema_multi_avg_fn(0.7)},
                      {"multi_avg_fn": torch.optim.swa_utils.get_ema_multi_avg_fn(0.7)}),
        "custom": ({"avg_fn": lambda a, c, n: 0.5 * a + 0.5 * c},
                   {"avg_fn": lambda a, c, n: 0.5 * a + 0.5 * c}),
        "buffers": ({"use_buffers": True}, {"use_buffers": True}),
    }[rule]
    averaged_mine = swa_utils.AveragedModel(mine, **arguments[0])
    averaged_theirs = torch.optim.swa_utils.AveragedModel(theirs, **arguments[1])
    batch = rng.standard_normal((5, 3))
    for _ in range(4):
        _perturb(mine, theirs, rng)
        mine(ug.tensor(batch))  # training mode: moves the BatchNorm statistics
        theirs(torch.tensor(batch))
        averaged_mine.update_parameters(mine)
        averaged_theirs.update_parameters(theirs)
    mine_state, their_state = averaged_mine.state_dict(), averaged_theirs.state_dict()
    assert list(mine_state) == list(their_state)
    for key, value in their_state.items():
        np.testing.assert_allclose(mine_state[key].numpy(), value.numpy(), rtol=1e-13,
                                   atol=1e-15, err_msg=key)
    assert averaged_mine.module is not mine
    assert averaged_mine.module[0].weight is not mine[0].weight


def test_swalr_matches_torch():
    for strategy, epochs in (("cos", 5), ("linear", 3), ("cos", 0)):
        results = []
        for library, module in (("unigrad", swa_utils), ("torch", torch.optim.swa_utils)):
            opt = _optimizer(library, "sgd")
            scheduler = module.SWALR(opt, swa_lr=[0.02, 0.01], anneal_epochs=epochs,
                                     anneal_strategy=strategy)
            values = []
            for _ in range(12):
                values.append(scheduler.get_last_lr())
                opt.step()
                scheduler.step()
            results.append(values)
        assert results[0] == results[1], (strategy, epochs)


def test_update_bn_matches_torch():
    mine, theirs = _twin_models()
    rng = np.random.default_rng(2)
    batches = [rng.standard_normal((4, 3)) for _ in range(3)]
    mine.eval()
    theirs.eval()
    swa_utils.update_bn([(ug.tensor(b), 0) for b in batches], mine)
    torch.optim.swa_utils.update_bn([(torch.tensor(b), 0) for b in batches], theirs)
    assert not mine.training and mine[1].momentum == 0.1
    for key in ("1.running_mean", "1.running_var", "1.num_batches_tracked"):
        np.testing.assert_allclose(mine.state_dict()[key].numpy(),
                                   theirs.state_dict()[key].numpy(), rtol=1e-13, err_msg=key)


def test_averaged_model_errors():
    model = ug.nn.Linear(2, 2)
    with pytest.raises(AssertionError, match="Only one of avg_fn and multi_avg_fn"):
        swa_utils.AveragedModel(model, avg_fn=swa_utils.get_swa_avg_fn(),
                                multi_avg_fn=swa_utils.get_swa_multi_avg_fn())
    with pytest.raises(ValueError, match=r"Invalid decay value 1.5 provided"):
        swa_utils.get_ema_avg_fn(1.5)
    with pytest.raises(ValueError, match="anneal_epochs must be equal or greater than 0"):
        swa_utils.SWALR(optim.SGD(model.parameters(), lr=0.1), swa_lr=0.1, anneal_epochs=-1)
