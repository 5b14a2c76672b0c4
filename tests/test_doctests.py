"""Every docstring example in the unigrad package runs and prints what it says."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import unigrad

OPTION_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def package_modules() -> list[str]:
    """Names of ``unigrad`` and all of its submodules, sorted."""
    names = {unigrad.__name__}
    for module_info in pkgutil.walk_packages(unigrad.__path__, prefix=f"{unigrad.__name__}."):
        names.add(module_info.name)
    return sorted(names)


def test_the_walk_finds_the_core_modules():
    names = package_modules()
    for expected in ("unigrad", "unigrad.tensor", "unigrad.autograd.engine", "unigrad.cli",
                     "unigrad.ops.elementwise"):
        assert expected in names


@pytest.mark.parametrize("module_name", package_modules())
def test_module_doctests(module_name):
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=OPTION_FLAGS, verbose=False, report=True)
    assert result.failed == 0, (
        f"{result.failed} of {result.attempted} doctest examples failed in {module_name}; "
        "the failing examples are in the captured stdout")
