"""``torch.save`` / ``torch.load`` on unigrad.

``torch.save`` writes unigrad's checkpoint format (safetensors with the nesting in
its metadata: :func:`unigrad.save`). ``torch.load`` reads those, and also real
PyTorch ``.pt``/``.pth`` files (the zip format ``torch.save`` writes) through a
restricted unpickler that only rebuilds tensors, storages and plain containers
(:mod:`unigrad.io_pytorch`): no code in a file ever runs, with or without
``weights_only``. ``f`` may be a path or a binary file object.

Example:
    >>> import io
    >>> import unigrad.compat.torch as torch
    >>> buffer = io.BytesIO()
    >>> torch.save({"w": torch.ones(2), "step": 3}, buffer)
    >>> _ = buffer.seek(0)
    >>> torch.load(buffer)
    {'w': tensor([1., 1.]), 'step': 3}
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any

import unigrad as _ug
from unigrad import io_pytorch
from unigrad.backend import Device

__all__ = ["save", "load"]


def _is_path(f) -> bool:
    return isinstance(f, (str, bytes, os.PathLike))


def _check_file_object(f, mode: str, caller: str) -> None:
    needed = "write" if mode == "w" else "read"
    if not callable(getattr(f, needed, None)):
        raise TypeError(f"{caller}: f must be a path (str or os.PathLike) or a binary file "
                        f"object with {needed}(), got {type(f).__name__}")


def save(obj: Any, f, pickle_module=None, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True) -> None:
    """Save ``obj`` (state dicts, optimizer states, nested containers of tensors and
    numbers) to ``f``, a path or a writable binary file object, in unigrad's format.

    ``pickle_module`` and ``pickle_protocol`` are accepted for compatibility and have no
    effect: nothing is pickled.
    """
    if _is_path(f):
        _ug.save(obj, f)
        return
    _check_file_object(f, "w", "torch.save")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "checkpoint.safetensors")
        _ug.save(obj, path)
        with open(path, "rb") as written:
            shutil.copyfileobj(written, f)


def _device(map_location) -> Device | None:
    if map_location is None:
        return None
    if isinstance(map_location, (str, Device)):
        return Device(map_location)
    raise TypeError(f"torch.load: map_location must be None, a device or a device string "
                    f"such as 'cpu'; unigrad does not take {type(map_location).__name__}")


def load(f, map_location=None, pickle_module=None, *, weights_only: bool = True, mmap=None,
         **pickle_load_args) -> Any:
    """Load what :func:`save` wrote, or a PyTorch ``.pt``/``.pth`` checkpoint, from ``f``
    (a path or a readable binary file object), tensors on ``map_location``.

    PyTorch checkpoints are read without PyTorch and without executing any code:
    a file that needs another Python object than tensors, storages, numbers, strings
    and containers raises an error naming it, whatever ``weights_only`` says.
    """
    device = _device(map_location)
    if _is_path(f):
        return _load_path(f, device, weights_only)
    _check_file_object(f, "r", "torch.load")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "checkpoint")
        with open(path, "wb") as copy:
            shutil.copyfileobj(f, copy)
        return _load_path(path, device, weights_only)


def _load_path(path, device, weights_only: bool):
    if io_pytorch.is_pytorch_checkpoint(path):
        return io_pytorch.load_pytorch(path, device, weights_only=weights_only)
    return _ug.load(path, device=device)
