"""Run an optimizer on fixed parameters and gradient sequences; record the parameters."""

from __future__ import annotations

import numpy as np

import unigrad as ug
from unigrad.nn.parameter import Parameter

SHAPES = [(3, 4), (4,), ()]


def problem(seed: int, dtype=np.float64, steps: int = 6, skip: bool = False):
    """Initial values and per-step gradients; with ``skip`` parameter 1 has none at step 3."""
    rng = np.random.default_rng(seed)
    init = [rng.normal(size=s).astype(dtype) for s in SHAPES]
    grads = [[rng.normal(size=s).astype(dtype) for s in SHAPES] for _ in range(steps)]
    if skip:
        grads[2][1] = None
    return init, grads


def make_params(init) -> list:
    return [Parameter(ug.tensor(a.copy()), name=f"layer{i}.weight") for i, a in enumerate(init)]


def run_unigrad(make_optimizer, init, grads, mode: str):
    """``mode`` 'grad' sets ``.grad`` and calls ``step()``; 'call' calls ``opt(grads)``."""
    params = make_params(init)
    opt = make_optimizer(params)
    history = []
    for step_grads in grads:
        if mode == "grad":
            for p, g in zip(params, step_grads):
                p.grad = None if g is None else ug.tensor(g)
            opt.step()
        else:
            opt(tuple(None if g is None else ug.tensor(g) for g in step_grads))
        history.append([p.detach().numpy().copy() for p in params])
    return history, opt, params


def run_torch(torch, make_optimizer, init, grads):
    params = [torch.nn.Parameter(torch.tensor(a.copy())) for a in init]
    opt = make_optimizer(params)
    history = []
    for step_grads in grads:
        for p, g in zip(params, step_grads):
            p.grad = None if g is None else torch.tensor(g)
        opt.step()
        history.append([p.detach().numpy().copy() for p in params])
    return history, opt, params


def assert_histories_close(mine, reference, dtype) -> None:
    rtol, atol = (1e-12, 1e-14) if np.dtype(dtype) == np.float64 else (2e-6, 2e-7)
    assert len(mine) == len(reference)
    for step, (a_params, b_params) in enumerate(zip(mine, reference)):
        for index, (a, b) in enumerate(zip(a_params, b_params)):
            assert a.dtype == b.dtype, (step, index)
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol,
                                       err_msg=f"step {step}, parameter {index}")
