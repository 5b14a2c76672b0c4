"""One comparison of a unigrad function with its PyTorch twin: values and vjp gradients.

Used by the ``tests/ops/test_*_vs_torch.py`` files (which skip without torch).

Example:
    >>> import numpy as np, unigrad as ug, torch
    >>> compare(ug.sin, torch.sin, np.array([0.5, 1.0]))
"""

from __future__ import annotations

import warnings

import numpy as np

import unigrad as ug


def leaves(arrays) -> tuple[list, list]:
    """The same float64 arrays as unigrad and torch leaves that require grad."""
    import torch
    return ([ug.tensor(a, requires_grad=True) for a in arrays],
            [torch.tensor(a, requires_grad=True) for a in arrays])


def as_list(out) -> list:
    return list(out) if isinstance(out, tuple) else [out]


def compare(ug_fn, torch_fn, *arrays, seed: int = 0, grad: bool = True, atol: float = 1e-10,
            rtol: float = 1e-10, grad_atol: float = 1e-9, grad_rtol: float = 1e-9,
            check_dtype: bool = False) -> None:
    """Every output's shape and values (and dtype with ``check_dtype``), then every input's
    gradient under one random cotangent on the floating outputs that require grad."""
    import torch
    ours, theirs = leaves([np.asarray(a, dtype=np.float64) for a in arrays])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got, want = as_list(ug_fn(*ours)), as_list(torch_fn(*theirs))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert tuple(g.shape) == tuple(w.shape)
        if check_dtype:
            assert str(g.dtype).split(".")[-1] == str(w.dtype).split(".")[-1]
        np.testing.assert_allclose(np.asarray(g.detach()._data), w.detach().numpy(),
                                   atol=atol, rtol=rtol)
    if not grad:
        return
    rng = np.random.default_rng(seed)
    ug_total, torch_total = None, None
    for g, w in zip(got, want):
        if not w.dtype.is_floating_point or not w.requires_grad:
            continue
        weights = rng.standard_normal(tuple(w.shape))
        ug_term = (g * ug.tensor(weights)).sum()
        torch_term = (w * torch.tensor(weights)).sum()
        ug_total = ug_term if ug_total is None else ug_total + ug_term
        torch_total = torch_term if torch_total is None else torch_total + torch_term
    if torch_total is None:
        return
    ug_grads = ug.autograd.grad(ug_total, ours, allow_unused=True)
    torch_grads = torch.autograd.grad(torch_total, theirs, allow_unused=True)
    for g, w in zip(ug_grads, torch_grads):
        if w is None:
            assert g is None or not np.any(np.asarray(g._data))
            continue
        np.testing.assert_allclose(np.asarray(g._data), w.numpy(), atol=grad_atol,
                                   rtol=grad_rtol)
