"""``torch.accelerator`` on unigrad: the current accelerator is CUDA (CuPy) when
``torch.cuda.is_available()``, else there is none.

Example:
    >>> import unigrad.compat.torch as torch
    >>> device = torch.accelerator.current_accelerator() if torch.accelerator.is_available() \\
    ...     else torch.device("cpu")
    >>> torch.zeros(1, device=device).device.type in ("cpu", "cuda")
    True
"""

from __future__ import annotations

from unigrad.backend import Device

from . import cuda

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index",
           "set_device_index", "synchronize"]


def is_available() -> bool:
    """Whether an accelerator (a CUDA GPU through CuPy) can be used."""
    return cuda.is_available()


def current_accelerator(check_available: bool = False) -> Device | None:
    """``device(type='cuda')`` where CUDA is available, else None."""
    return Device("cuda") if cuda.is_available() else None


def device_count() -> int:
    """The number of accelerator devices (0 without one)."""
    return cuda.device_count()


def current_device_index() -> int:
    """The index of the current accelerator device."""
    return cuda.current_device()


def set_device_index(device) -> None:
    """Make ``device`` the current accelerator device."""
    cuda.set_device(device)


def synchronize(device=None) -> None:
    """Wait for the work queued on the accelerator to finish."""
    cuda.synchronize(device)
