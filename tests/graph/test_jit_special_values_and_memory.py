"""Graph mode at special values and over time.

Fused kernels give what eager gives at special values (inf/nan, NumPy's error model),
never a ``ZeroDivisionError``: ``1/0``, ``rsqrt(0)``, ``x*log(x)`` at 0, ``0/0`` and the
gradient of ``x/norm(x)`` at 0, forward and under ``jit(grad)``. Memory stays bounded: one
compiled kernel serves every input size, compile reports are bounded, and a compiling
call's arguments are freed as soon as they are unused; compiled kernels are kept in
memory up to ``ug.graph.kernel_cache_size()`` (least recently used first out), and one
pushed out still serves the functions that hold it.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import weakref

import numpy as np
import pytest

import unigrad as ug
from unigrad.graph import kernel_cache

FUNCTIONS = {
    "exp of 1/x": lambda x: ug.exp(1.0 / x),
    "rsqrt": lambda x: ug.rsqrt(x) * 2.0,
    "x log x": lambda x: x * ug.log(x) + 1.0,
    "0/0": lambda x: (x / x) * 2.0,
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_jit_matches_eager_at_zero(name):
    function = FUNCTIONS[name]
    x = ug.tensor([0.0, 0.0, 2.0])
    with np.errstate(all="ignore"):
        expected = function(x).numpy()
        actual = ug.jit(function)(x).numpy()
    np.testing.assert_array_equal(actual, expected)


def test_jit_of_grad_matches_eager_at_zero():
    gradient = ug.grad(lambda x: (x / ug.linalg.norm(x)).sum())
    x = ug.zeros(3)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(ug.jit(gradient)(x).numpy(), gradient(x).numpy())


def test_integer_division_by_zero_raises_as_eager_does():
    x = ug.tensor([0, 1, 2])
    for function in (lambda x: ug.floor_divide(x, x) + 1, lambda x: ug.remainder(x, x) + 1):
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            function(x)
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            ug.jit(function)(x)


def _count_kernel_loads(monkeypatch) -> list:
    """Patch the kernel cache so that every kernel loaded (not found in memory) is listed."""
    loaded = []
    load = kernel_cache._load

    def counting_load(source):
        loaded.append(source)
        return load(source)
    monkeypatch.setattr(kernel_cache, "_load", counting_load)
    return loaded


def test_one_compiled_kernel_serves_every_size(monkeypatch):
    function = ug.jit(lambda x: ug.tanh(x) * 2.0 + ug.exp(x) * 0.5)
    function(ug.ones(3))
    loaded = _count_kernel_loads(monkeypatch)
    for size in (5, 17, 64):
        x = ug.linspace(-1.0, 1.0, size)
        np.testing.assert_allclose(function(x).numpy(),
                                   (ug.tanh(x) * 2.0 + ug.exp(x) * 0.5).numpy(), rtol=1e-6)
    assert function.trace_count == 4 and loaded == []  # the kernel's source holds no size


@pytest.fixture
def kernel_cache_size():
    """The in-memory kernel cache's size, restored after the test."""
    size = ug.graph.kernel_cache_size()
    yield size
    ug.graph.set_kernel_cache_size(size)


def _kernel_source(value: float) -> str:
    return f"@_numba.njit(error_model='numpy')\ndef kernel(x):\n    return x * {value!r}\n"


def test_the_kernels_kept_in_memory_are_the_most_recently_used(kernel_cache_size, monkeypatch):
    monkeypatch.setenv("UNIGRAD_CACHE_DIR", "")  # compiled in memory only
    ug.graph.set_kernel_cache_size(2)
    first = kernel_cache.load_kernel(_kernel_source(1.5))
    forgotten = weakref.ref(first)
    kernel_cache.load_kernel(_kernel_source(2.5))
    assert kernel_cache.load_kernel(_kernel_source(1.5)) is first  # now the most recent
    third = kernel_cache.load_kernel(_kernel_source(3.5))  # pushes 2.5 out
    assert list(kernel_cache._RECENT) == [_kernel_source(1.5), _kernel_source(3.5)]
    assert ug.graph.kernel_cache_size() == 2
    ug.graph.set_kernel_cache_size(1)  # shrinking drops the least recently used
    assert list(kernel_cache._RECENT) == [_kernel_source(3.5)] and third(2.0) == 7.0
    del first
    gc.collect()
    assert forgotten() is None  # neither the cache nor its module keeps it


def test_a_kernel_pushed_out_of_memory_still_serves_the_functions_holding_it(
        kernel_cache_size, monkeypatch, tmp_path):
    monkeypatch.setenv("UNIGRAD_CACHE_DIR", str(tmp_path))
    function = ug.jit(lambda x: ug.tanh(x) * 2.0 + ug.sin(x) * 0.25)
    x = ug.linspace(-1.0, 1.0, 6)
    expected = (ug.tanh(x) * 2.0 + ug.sin(x) * 0.25).numpy()
    np.testing.assert_allclose(function(x).numpy(), expected, rtol=1e-6)
    ug.graph.set_kernel_cache_size(0)
    gc.collect()
    loaded = _count_kernel_loads(monkeypatch)
    np.testing.assert_allclose(function(x).numpy(), expected, rtol=1e-6)
    # a new size traces again: its kernel is the one the first trace still holds
    np.testing.assert_allclose(function(ug.zeros(3)).numpy(), np.zeros(3), atol=0)
    # a new rank: numba compiles the held kernel for 2-d arrays, finding its module by name
    np.testing.assert_allclose(function(x.reshape(2, 3)).numpy(), expected.reshape(2, 3),
                               rtol=1e-6)
    assert loaded == [] and function.trace_count == 3


def test_a_kernel_no_function_holds_goes_with_its_module(kernel_cache_size, monkeypatch,
                                                         tmp_path):
    monkeypatch.setenv("UNIGRAD_CACHE_DIR", str(tmp_path))

    def kernel_modules() -> list:
        return [name for name, module in list(sys.modules.items())
                if name.startswith("unigrad_kernel_")
                and str(getattr(module, "__file__", "")).startswith(str(tmp_path))]
    kernel = kernel_cache.load_kernel(_kernel_source(0.5))
    assert kernel(np.ones(2))[0] == 0.5 and len(kernel_modules()) == 1
    ug.graph.set_kernel_cache_size(0)
    assert kernel(np.ones(2, np.float32))[0] == 0.5  # held: still compiles new versions
    forgotten = weakref.ref(kernel)
    del kernel
    gc.collect()
    assert forgotten() is None and kernel_modules() == []


@pytest.mark.parametrize("size, error, message", [
    ("8", TypeError, "'size' must be an int, got str"),
    (True, TypeError, "'size' must be an int, got bool"),
    (-1, ValueError, "'size' must be >= 0, got -1"),
])
def test_a_bad_kernel_cache_size_is_refused(kernel_cache_size, size, error, message):
    with pytest.raises(error, match=message):
        ug.graph.set_kernel_cache_size(size)
    assert ug.graph.kernel_cache_size() == kernel_cache_size


def test_compile_reports_are_bounded():
    from unigrad.graph.jit import REPORTS_KEPT
    function = ug.jit(lambda x: x * 2.0, cache_size=4)
    for size in range(1, REPORTS_KEPT + 6):
        function(ug.ones(size))
    reports = function.compile_report()
    assert len(reports) == REPORTS_KEPT and function.trace_count == REPORTS_KEPT + 5
    assert reports[-1].signature == f"(f32[{REPORTS_KEPT + 5}])"


def test_arguments_of_a_compiling_call_go_without_the_cyclic_collector():
    function = ug.jit(lambda x, w: (x * w).sum())
    enabled = gc.isenabled()
    gc.disable()
    try:
        x, w = ug.ones(4), ug.ones(4, requires_grad=True)
        references = [weakref.ref(x), weakref.ref(w)]
        function(x, w).backward()
        del x, w
        assert all(reference() is None for reference in references)
    finally:
        if enabled:
            gc.enable()


# kernels kept in memory by no cache, only by the function: the second process's kernel
# loads the first's machine code, finding its module by name while the function holds it
_KERNEL_PROGRAM = """
import unigrad as ug
ug.graph.set_kernel_cache_size(0)
f = ug.jit(lambda x: ug.tanh(x) * 2.0 + ug.exp(x) * ug.sin(x))
print(float(f(ug.ones(5)).sum()))
"""


def _run_program(cache: str) -> str:
    environment = dict(os.environ, UNIGRAD_CACHE_DIR=cache)
    completed = subprocess.run([sys.executable, "-c", _KERNEL_PROGRAM], capture_output=True,
                               text=True, env=environment, timeout=300)
    assert completed.returncode == 0, completed.stderr[-2000:]
    return completed.stdout


def test_fused_kernels_are_compiled_once_per_machine(tmp_path):
    first = _run_program(str(tmp_path))
    kernels = tmp_path / "kernels"
    sources = sorted(path.name for path in kernels.glob("kernel_*.py"))
    compiled = sorted(path.name for path in kernels.rglob("*.nbc"))
    assert len(sources) == 1 and compiled  # the source and numba's machine code are kept
    assert _run_program(str(tmp_path)) == first  # the next process loads them
    assert sorted(path.name for path in kernels.glob("kernel_*.py")) == sources


def test_without_a_usable_cache_directory_kernels_compile_in_memory(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    expected = _run_program("")  # UNIGRAD_CACHE_DIR empty: no disk cache
    assert _run_program(str(blocker)) == expected  # cannot be created: compiled in memory
    assert not (tmp_path / "kernels").exists()


def test_the_kernel_directory_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv("UNIGRAD_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(kernel_cache, "MAXIMUM_KERNELS", 5)
    for value in range(8):
        lines = ["@_numba.njit", "def kernel(x):", f"    return x + {value}", ""]
        assert kernel_cache.load_kernel("\n".join(lines))(1) == 1 + value
    assert len(list((tmp_path / "kernels").glob("kernel_*.py"))) <= 6


def test_numba_is_imported_only_when_a_fused_kernel_is_needed():
    script = (
        "import sys, unigrad as ug\n"
        "a, b = ug.ones(3, 4), ug.ones(4, 2)\n"
        "ug.jit(lambda a, b: ug.relu(a @ b))(a, b)\n"
        "print('numba' in sys.modules)\n"
        "ug.jit(lambda x: ug.tanh(ug.exp(x) * 2.0 + 1.0))(a)\n"
        "print('numba' in sys.modules)\n")
    pytest.importorskip("numba")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, env={**os.environ, "UNIGRAD_CACHE_DIR": ""})
    assert result.stdout.split() == ["False", "True"]
