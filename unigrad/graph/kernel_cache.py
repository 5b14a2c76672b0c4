"""Fused kernels compiled once per machine: numba's on-disk cache for generated sources.

numba caches a compiled function next to the file that defines it, keyed by
the file's contents, so a kernel defined by ``exec`` is compiled again in every
process. :func:`load_kernel` instead writes each kernel's source to a file
named after its hash in the cache directory (``$UNIGRAD_CACHE_DIR``, else
``~/.cache/unigrad/kernels``) and imports it with ``cache=True``: the first
process compiles and stores the machine code, the next ones load it. When the
directory cannot be written, or ``UNIGRAD_CACHE_DIR`` is empty, the kernel is
compiled in memory as before.

Example:
    >>> from unigrad.graph.kernel_cache import load_kernel
    >>> lines = ["@_numba.njit", "def kernel(x):", "    return 2 * x", ""]
    >>> double = load_kernel(chr(10).join(lines))
    >>> double(21)
    42
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
from pathlib import Path

import numpy as np

__all__ = ["load_kernel", "cache_directory"]

MAXIMUM_KERNELS = 2000  # kernels kept on disk; beyond it the least recently written go
_LOADING = threading.Lock()

_PREAMBLE = "import numpy as np\nimport numba as _numba\n"


def cache_directory() -> Path | None:
    """Where kernel sources and their compiled code are kept (None: no disk cache)."""
    configured = os.environ.get("UNIGRAD_CACHE_DIR")
    if configured is not None:
        return Path(configured) / "kernels" if configured else None
    return Path.home() / ".cache" / "unigrad" / "kernels"


def load_kernel(source: str, name: str = "kernel"):
    """The function ``name`` defined by ``source`` (numba-decorated kernels), compiled with
    numba's on-disk cache when a cache directory is usable."""
    directory = cache_directory()
    if directory is not None:
        try:
            return _from_file(directory, source, name)
        except OSError:
            pass  # read-only or full: compile in memory
    import numba
    scope = {"np": np, "_numba": numba}
    exec(compile(source, "<unigrad fused kernel>", "exec"), scope)  # noqa: S102 - our source
    return scope[name]


def _from_file(directory: Path, source: str, name: str):
    text = _PREAMBLE + source.replace("_numba.njit(", "_numba.njit(cache=True, ").replace(
        "_numba.njit\n", "_numba.njit(cache=True)\n")
    digest = hashlib.sha256(text.encode()).hexdigest()[:32]
    path = directory / f"kernel_{digest}.py"
    if not path.exists():
        directory.mkdir(parents=True, exist_ok=True)
        # written whole under a temporary name, then renamed: a concurrent reader sees the
        # complete file or none
        handle, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
        _prune(directory)
    module_name = f"unigrad_kernel_{digest}"
    with _LOADING:  # another thread must not see the module before it is complete
        module = sys.modules.get(module_name)
        if module is None:
            spec = importlib.util.spec_from_file_location(module_name, path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module  # numba's cached code finds its module by name
            try:
                spec.loader.exec_module(module)
            except BaseException:
                del sys.modules[module_name]
                raise
    return getattr(module, name)


def _prune(directory: Path) -> None:
    """Keep the directory bounded: past :data:`MAXIMUM_KERNELS` sources, remove the oldest
    tenth (sources and numba's files for them); a file another process removed first is
    skipped."""
    sources = list(directory.glob("kernel_*.py"))
    if len(sources) <= MAXIMUM_KERNELS:
        return
    def written(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0
    sources.sort(key=written)
    for source in sources[:max(1, len(sources) // 10)]:
        for path in [source, *(directory / "__pycache__").glob(source.stem + ".*")]:
            try:
                path.unlink()
            except OSError:
                pass
