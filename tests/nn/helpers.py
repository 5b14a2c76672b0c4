"""Conversions shared by the ``tests/nn`` comparisons of unigrad with PyTorch."""

from __future__ import annotations

import numpy as np

import unigrad as ug


def as_np(tensor) -> np.ndarray:
    """A unigrad or torch tensor's values as a NumPy array (detached)."""
    return np.asarray(tensor.detach().numpy())


def to_ug(value, grad: bool):
    """An array as a unigrad tensor (requiring grad when floating and ``grad``); else as is."""
    if isinstance(value, np.ndarray):
        return ug.tensor(value, requires_grad=grad and value.dtype.kind == "f")
    return value


def to_torch(value, grad: bool):
    """An array as a torch tensor (requiring grad when floating and ``grad``); else as is."""
    import torch

    if isinstance(value, np.ndarray):
        return torch.tensor(value, requires_grad=grad and value.dtype.kind == "f")
    return value
