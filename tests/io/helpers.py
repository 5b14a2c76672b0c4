"""Shared helpers for the checkpoint tests: bit-exact tensor comparison."""

from __future__ import annotations

import numpy as np

import unigrad as ug


def assert_bit_exact(loaded, expected) -> None:
    """``loaded`` is a plain unigrad Tensor with ``expected``'s dtype, shape and bytes."""
    assert type(loaded) is ug.Tensor
    want = np.asarray(expected.detach().numpy() if isinstance(expected, ug.Tensor) else expected)
    got = loaded.numpy()
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    assert got.tobytes() == np.ascontiguousarray(want).tobytes()
    assert loaded.requires_grad is False
