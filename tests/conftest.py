"""Shared fixtures: a seeded NumPy generator; the ``slow`` marker."""

from __future__ import annotations

import numpy as np
import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long-running tests (deselect with -m 'not slow')")


@pytest.fixture
def rng() -> np.random.Generator:
    """A NumPy generator with a fixed seed: every test sees the same random values."""
    return np.random.default_rng(20240607)
