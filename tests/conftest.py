"""Shared fixtures: a seeded NumPy generator; the ``slow`` marker; names and TensorFlow modes
reset per test."""

from __future__ import annotations

import sys

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


@pytest.fixture(autouse=True)
def text_names(request):
    """unigrad's own names in text forms (``unigrad.float32``, shapes as tuples), or
    PyTorch's (``torch.float32``, ``torch.Size``) for tests of the torch front-end: test
    modules that set ``TEXT_NAMES = "torch"`` and the doctests of ``unigrad.compat.torch``.
    Importing the torch front-end switches the process to PyTorch's names; this fixture
    makes each test independent of which modules its worker imported before."""
    from unigrad import _state
    wanted = getattr(request.module, "TEXT_NAMES", "unigrad")
    callspec = getattr(request.node, "callspec", None)
    module_name = callspec.params.get("module_name", "") if callspec is not None else ""
    if str(module_name).startswith("unigrad.compat.torch"):
        wanted = "torch"
    saved = _state.global_state.text_names
    _state.global_state.text_names = wanted
    yield
    _state.global_state.text_names = saved


@pytest.fixture(autouse=True)
def eager_tensorflow():
    """Each test starts and ends with TensorFlow's eager execution (a test that calls
    ``tf.compat.v1.disable_eager_execution()`` leaves no graph mode behind)."""
    yield
    graph = sys.modules.get("unigrad.compat.tensorflow._graph")
    if graph is not None:
        graph.reset_for_tests()
