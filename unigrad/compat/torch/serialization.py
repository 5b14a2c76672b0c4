"""``torch.save`` / ``torch.load`` on unigrad.

``torch.save`` writes unigrad's checkpoint format (safetensors with the nesting in
its metadata: :func:`unigrad.save`). ``torch.load`` reads those, and also real
PyTorch ``.pt``/``.pth`` files (the zip format ``torch.save`` writes) through a
restricted unpickler that only rebuilds tensors, storages and plain containers
(:mod:`unigrad.io_pytorch`): no code in a file ever runs, with or without
``weights_only``. ``f`` may be a path or a binary file object.

An object the checkpoint format cannot hold (a whole ``nn.Module``, an
instance of the user's class) is pickled instead, as ``torch.save`` does;
``torch.load`` then needs ``weights_only=False``, PyTorch's explicit consent to
run the code a pickle names (only for files from a trusted source). With the
default ``weights_only=True`` it refuses, naming the first class the file needs.

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
import pickle
import pickletools
import shutil
import tempfile
from typing import Any

import unigrad as _ug
from unigrad import io_pytorch
from unigrad.backend import Device
from unigrad.io import _check_regular_file, _Encoder, _write_atomically

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
    numbers) to ``f``, a path or a writable binary file object, in unigrad's format;
    any other object (a whole model) is pickled with ``pickle_protocol``, as PyTorch
    does, and loads only with ``weights_only=False``.
    """
    if not _fits_checkpoint(obj):
        payload = _PICKLE_MAGIC + (pickle_module or pickle).dumps(
            obj, protocol=max(int(pickle_protocol), 2))
        if _is_path(f):
            _write_atomically(os.fspath(f), payload)
        else:
            _check_file_object(f, "w", "torch.save")
            f.write(payload)
        return
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
    if os.path.exists(path) and not os.path.isdir(path):  # a FIFO or device: refuse, not block
        _check_regular_file(os.fsdecode(os.fspath(path)))
    with open(path, "rb") as file:
        pickled = file.read(len(_PICKLE_MAGIC)) == _PICKLE_MAGIC
        payload = file.read() if pickled else b""
    if pickled:
        return _unpickle(payload, device, weights_only)
    if io_pytorch.is_pytorch_checkpoint(path):
        return io_pytorch.load_pytorch(path, device, weights_only=weights_only)
    return _ug.load(path, device=device)


# ------------------------------------------------------------------------ pickled objects

_PICKLE_MAGIC = b"unigrad pickled object\n"


def _fits_checkpoint(obj) -> bool:
    """Whether unigrad's checkpoint format holds ``obj`` (tensors, numbers, strings and
    containers of them)."""
    try:
        _Encoder().encode(obj, ())
    except (TypeError, ValueError):
        return False
    return True


def _first_global(payload: bytes) -> str:
    """The first class or function a pickle names (``module.qualname``)."""
    strings: list = []
    for opcode, argument, _ in pickletools.genops(payload):
        if opcode.name in ("GLOBAL", "INST"):
            return str(argument).replace(" ", ".")
        if opcode.name == "STACK_GLOBAL" and len(strings) >= 2:
            return f"{strings[-2]}.{strings[-1]}"
        if isinstance(argument, str):
            strings.append(argument)
    return "an object"


def _unpickle(payload: bytes, device, weights_only: bool):
    if weights_only:
        raise pickle.UnpicklingError(
            "Weights only load failed. This file can still be loaded, to do so you have two "
            "options, do those steps only if you trust the source of the checkpoint. "
            "Re-running `torch.load` with `weights_only` set to `False` will likely succeed, "
            "but it can result in arbitrary code execution. Do it only if you got the file "
            f"from a trusted source. WeightsUnpickler error: Unsupported global: GLOBAL "
            f"{_first_global(payload)} was not an allowed global by default.")
    obj = pickle.loads(payload)
    if device is not None and device.type != "cpu" and callable(getattr(obj, "to", None)):
        obj = obj.to(device)
    return obj
