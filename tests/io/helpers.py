"""Shared helpers for the checkpoint tests: bit-exact tensor comparison, a file whose
writes a test can make fail."""

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


class FailingFile:
    """A file object (from ``os.fdopen``) whose ``write`` a subclass overrides to inject a
    failure; everything else goes to the real file, which the ``with`` block closes."""

    def __init__(self, file):
        self.file = file

    def __getattr__(self, name):
        return getattr(self.file, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.file.close()
