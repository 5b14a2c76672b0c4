"""Fused kernels compiled once per machine, and a bounded number kept in memory.

numba caches a compiled function next to the file that defines it, keyed by
the file's contents, so a kernel defined by ``exec`` is compiled again in every
process. :func:`load_kernel` instead writes each kernel's source to a file
named after its hash in the cache directory (``$UNIGRAD_CACHE_DIR``, else
``~/.cache/unigrad/kernels``) and imports it with ``cache=True``: the first
process compiles and stores the machine code, the next ones load it. When the
directory cannot be written, or ``UNIGRAD_CACHE_DIR`` is empty, the kernel is
compiled in memory as before.

Both caches are bounded. On disk, at most :data:`MAXIMUM_KERNELS` sources (the
oldest written go first). In memory, the :func:`kernel_cache_size` most recently
used kernels (:data:`DEFAULT_KERNEL_CACHE_SIZE` unless :func:`set_kernel_cache_size`
says otherwise); a kernel pushed out stays usable by the compiled functions that
hold it, is reused while one does, and is freed with its module when none does.

Example:
    >>> from unigrad.graph.kernel_cache import load_kernel
    >>> lines = ["@_numba.njit", "def kernel(x):", "    return 2 * x", ""]
    >>> double = load_kernel(chr(10).join(lines))
    >>> double(21)
    42
    >>> load_kernel(chr(10).join(lines)) is double  # loaded once, then served from memory
    True
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
import weakref
from collections import OrderedDict
from pathlib import Path

import numpy as np

__all__ = ["load_kernel", "cache_directory", "kernel_cache_size", "set_kernel_cache_size"]

MAXIMUM_KERNELS = 2000  # kernels kept on disk; beyond it the least recently written go
DEFAULT_KERNEL_CACHE_SIZE = 256  # kernels kept in memory (machine code and numba's records)
_LOADING = threading.RLock()  # also taken by a kernel's finalizer, maybe inside a load

_PREAMBLE = "import numpy as np\nimport numba as _numba\n"

# source -> kernel: the most recently used last
_RECENT: OrderedDict = OrderedDict()
# source -> kernel, for every kernel still alive (pushed out of _RECENT, yet held
# by a compiled function): reused rather than loaded a second time
_ALIVE: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_RECENT_LOCK = threading.Lock()
_capacity = DEFAULT_KERNEL_CACHE_SIZE


def kernel_cache_size() -> int:
    """How many compiled kernels are kept in memory (the most recently used ones).

    Example:
        >>> from unigrad.graph import kernel_cache_size
        >>> kernel_cache_size()
        256
    """
    return _capacity


def set_kernel_cache_size(size: int) -> None:
    """Keep at most ``size`` compiled kernels in memory, the least recently used going first.

    A kernel pushed out is not lost to the jitted functions that use it: they keep
    their own reference, and loading the same kernel again while one does returns
    it. ``0`` keeps only those. Raises ``TypeError`` for a non-integer and
    ``ValueError`` for a negative ``size`` (the setting is then unchanged).

    Example:
        >>> from unigrad.graph import kernel_cache_size, set_kernel_cache_size
        >>> previous = kernel_cache_size()
        >>> set_kernel_cache_size(32)
        >>> kernel_cache_size()
        32
        >>> set_kernel_cache_size(previous)
    """
    global _capacity
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"set_kernel_cache_size(): 'size' must be an int, got "
                        f"{type(size).__name__}")
    if size < 0:
        raise ValueError(f"set_kernel_cache_size(): 'size' must be >= 0, got {size}")
    with _RECENT_LOCK:
        _capacity = size
        _evict()


def _evict() -> None:
    """Drop the least recently used kernels beyond the capacity (the lock is held)."""
    while len(_RECENT) > _capacity:
        _RECENT.popitem(last=False)


def cache_directory() -> Path | None:
    """Where kernel sources and their compiled code are kept (None: no disk cache)."""
    configured = os.environ.get("UNIGRAD_CACHE_DIR")
    if configured is not None:
        return Path(configured) / "kernels" if configured else None
    return Path.home() / ".cache" / "unigrad" / "kernels"


def load_kernel(source: str):
    """The function ``kernel`` that ``source`` defines (numba-decorated functions): from
    memory when it was used recently or is still in use, else compiled with numba's
    on-disk cache when a cache directory is usable, else compiled in memory."""
    kernel = _RECENT.get(source)
    if kernel is None:
        kernel = _ALIVE.get(source)
    if kernel is None:
        with _LOADING:  # one load at a time: no source is loaded twice at once
            kernel = _ALIVE.get(source)
            if kernel is None:
                kernel = _ALIVE[source] = _load(source)
    # _RECENT_LOCK is never taken while _LOADING is held: an evicted kernel's finalizer
    # takes _LOADING while _RECENT_LOCK is held
    with _RECENT_LOCK:
        _RECENT[source] = kernel
        _RECENT.move_to_end(source)
        _evict()
    return kernel


def _load(source: str):
    directory = cache_directory()
    if directory is not None:
        try:
            return _from_file(directory, source)
        except OSError:
            pass  # read-only or full: compile in memory
    import numba
    scope = {"np": np, "_numba": numba}
    exec(compile(source, "<unigrad fused kernel>", "exec"), scope)  # noqa: S102 - our source
    return scope.pop("kernel")  # held by the caches and its users, not by its own globals


def _from_file(directory: Path, source: str):
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
        spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(spec)
        previous = sys.modules.get(module_name)
        sys.modules[module_name] = module  # numba's cached code finds its module by name
        try:
            spec.loader.exec_module(module)
        except BaseException:
            _restore_module(module_name, module, previous)
            raise
    kernel = module.__dict__.pop("kernel")  # the module must not keep its kernel alive
    # numba finds the module by name whenever the kernel compiles or loads a version
    weakref.finalize(kernel, _restore_module, module_name, module, previous)
    return kernel


def _restore_module(module_name: str, module, previous) -> None:
    """Put ``previous`` back as ``module_name`` (None: remove it), if ``module`` is still
    the one registered under that name."""
    with _LOADING:
        if sys.modules.get(module_name) is module:
            if previous is None:
                del sys.modules[module_name]
            else:
                sys.modules[module_name] = previous


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
