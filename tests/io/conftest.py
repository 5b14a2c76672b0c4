"""Fixtures for the checkpoint tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def ckpt(tmp_path):
    """A checkpoint path in a fresh temporary directory (nothing exists there yet)."""
    return tmp_path / "ckpt.safetensors"
