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


@pytest.fixture
def restore_random_defaults():
    """Start from seed 0 with the float32 / cpu defaults, and leave the generator state and
    the defaults as they were (``pytestmark = pytest.mark.usefixtures(...)``)."""
    import unigrad as ug
    state = ug.get_rng_state()
    ug.manual_seed(0)
    yield
    ug.set_default_dtype(ug.float32)
    ug.set_default_device(None)
    ug.set_rng_state(state)
