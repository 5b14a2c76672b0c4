"""Graph mode at special values and over time.

Fused kernels give what eager gives at special values (inf/nan, NumPy's error model),
never a ``ZeroDivisionError``: ``1/0``, ``rsqrt(0)``, ``x*log(x)`` at 0, ``0/0`` and the
gradient of ``x/norm(x)`` at 0, forward and under ``jit(grad)``. Memory stays bounded: one
compiled kernel serves every input size, compile reports are bounded, and a compiling
call's arguments are freed as soon as they are unused.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug

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


def test_one_compiled_kernel_serves_every_size():
    from unigrad.graph import fusion
    function = ug.jit(lambda x: ug.tanh(x) * 2.0 + ug.exp(x) * 0.5)
    function(ug.ones(3))
    before = len(fusion._DISPATCHERS)
    for size in (5, 17, 64):
        x = ug.linspace(-1.0, 1.0, size)
        np.testing.assert_allclose(function(x).numpy(),
                                   (ug.tanh(x) * 2.0 + ug.exp(x) * 0.5).numpy(), rtol=1e-6)
    assert len(fusion._DISPATCHERS) == before  # the kernel's source holds no size


def test_compile_reports_are_bounded():
    from unigrad.graph.jit import REPORTS_KEPT
    function = ug.jit(lambda x: x * 2.0, cache_size=4)
    for size in range(1, REPORTS_KEPT + 6):
        function(ug.ones(size))
    reports = function.compile_report()
    assert len(reports) == REPORTS_KEPT and function.trace_count == REPORTS_KEPT + 5
    assert reports[-1].signature == f"(f32[{REPORTS_KEPT + 5}])"


def test_arguments_of_a_compiling_call_go_without_the_cyclic_collector():
    import gc
    import weakref
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


_KERNEL_PROGRAM = """
import unigrad as ug
f = ug.jit(lambda x: ug.tanh(x) * 2.0 + ug.exp(x) * ug.sin(x))
print(float(f(ug.ones(5)).sum()))
"""


def _run_program(cache: str) -> str:
    import os
    import subprocess
    import sys
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
    from unigrad.graph import kernel_cache
    monkeypatch.setenv("UNIGRAD_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(kernel_cache, "MAXIMUM_KERNELS", 5)
    for value in range(8):
        lines = ["@_numba.njit", "def kernel(x):", f"    return x + {value}", ""]
        assert kernel_cache.load_kernel("\n".join(lines))(1) == 1 + value
    assert len(list((tmp_path / "kernels").glob("kernel_*.py"))) <= 6
