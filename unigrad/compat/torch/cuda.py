"""``torch.cuda`` on unigrad: CUDA devices are CuPy's, available only with CuPy and a GPU.

On a machine without them (the CPU-only case), as in a CPU build of PyTorch,
``is_available()`` is False, ``device_count()`` is 0, the seeding functions are
silently ignored, and the functions that need a device raise
``AssertionError("Torch not compiled with CUDA enabled")``. unigrad draws random
numbers for every device from one generator (``torch.manual_seed``), so
``manual_seed``/``manual_seed_all`` never change the CPU stream.

Example:
    >>> import unigrad.compat.torch as torch
    >>> device = "cuda" if torch.cuda.is_available() else "cpu"
    >>> torch.ones(2, device=device).sum().item()
    2.0
"""

from __future__ import annotations

import contextlib
import warnings

import unigrad as _ug
from unigrad import amp as _amp

__all__ = ["is_available", "device_count", "current_device", "synchronize", "manual_seed",
           "manual_seed_all", "seed", "seed_all", "get_device_name", "set_device",
           "is_initialized", "init", "empty_cache", "device", "amp"]

_NOT_COMPILED = "Torch not compiled with CUDA enabled"


def _cupy():
    """CuPy, when it is installed and sees at least one GPU; else None."""
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0:
            return cupy
    except Exception:  # noqa: BLE001 - no CuPy, no driver, no device: all mean "no CUDA"
        return None
    return None


def _require():
    cupy = _cupy()
    if cupy is None:
        raise AssertionError(_NOT_COMPILED)
    return cupy


def is_available() -> bool:
    """Whether a CUDA device can be used (CuPy installed and a GPU present).

    Example:
        >>> import unigrad.compat.torch as torch
        >>> isinstance(torch.cuda.is_available(), bool)
        True
    """
    return _cupy() is not None


def device_count() -> int:
    """The number of CUDA devices (0 without CuPy or a GPU)."""
    cupy = _cupy()
    return 0 if cupy is None else int(cupy.cuda.runtime.getDeviceCount())


def is_initialized() -> bool:
    """Whether CUDA can be used (unigrad initializes CuPy lazily, on first use)."""
    return is_available()


def init() -> None:
    """Initialize CUDA (raises without a device, as a CPU build of PyTorch does)."""
    _require()


def current_device() -> int:
    """The index of the current CUDA device."""
    return int(_require().cuda.runtime.getDevice())


def set_device(device) -> None:
    """Make ``device`` (an index, ``"cuda:N"`` or a device) the current CUDA device."""
    cupy = _require()
    cupy.cuda.Device(_index(device)).use()


def synchronize(device=None) -> None:
    """Wait for every kernel queued on ``device`` (default: the current one) to finish."""
    cupy = _require()
    with cupy.cuda.Device(_index(device) if device is not None else current_device()):
        cupy.cuda.runtime.deviceSynchronize()


def get_device_name(device=None) -> str:
    """The name of a CUDA device (default: the current one)."""
    cupy = _require()
    index = _index(device) if device is not None else current_device()
    name = cupy.cuda.runtime.getDeviceProperties(index)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


def empty_cache() -> None:
    """Return CuPy's cached free GPU memory to the driver (nothing to do without CUDA)."""
    cupy = _cupy()
    if cupy is not None:
        cupy.get_default_memory_pool().free_all_blocks()


def manual_seed(seed: int) -> None:
    """Accepted and ignored: unigrad has one random stream for every device (seed it with
    ``torch.manual_seed``); PyTorch also ignores this call without CUDA."""
    int(seed)


def manual_seed_all(seed: int) -> None:
    """Accepted and ignored, as :func:`manual_seed`."""
    int(seed)


def seed() -> None:
    """Accepted and ignored, as :func:`manual_seed`."""


def seed_all() -> None:
    """Accepted and ignored, as :func:`manual_seed`."""


def _index(device) -> int:
    if isinstance(device, int):
        return device
    text = str(device)
    kind, _, index = text.partition(":")
    if kind != "cuda":
        raise ValueError(f"Expected a cuda device, but got: {text}")
    return int(index) if index else current_device()


@contextlib.contextmanager
def device(index):
    """Context manager: ``index`` is the current CUDA device inside the block."""
    cupy = _require()
    with cupy.cuda.Device(_index(index)):
        yield


class _Amp:
    """``torch.cuda.amp``: PyTorch's deprecated spelling of CUDA autocast."""

    @staticmethod
    def autocast(enabled: bool = True, dtype=None, cache_enabled: bool = True):
        """``torch.cuda.amp.autocast(...)``: float16 autocast where CUDA is available;
        without it, as PyTorch does, a warning and a disabled (no-op) context."""
        if enabled and not is_available():
            warnings.warn("User provided device_type of 'cuda', but CUDA is not available. "
                          "Disabling", UserWarning, stacklevel=2)
            enabled = False
        return _amp.autocast(dtype=_ug.float16 if dtype is None else dtype, enabled=enabled)


amp = _Amp()
