"""Checkpoints: ``save`` and ``load`` in the safetensors format, never pickle.

A checkpoint is one `safetensors <https://huggingface.co/docs/safetensors>`_
file. Its tensor table holds every tensor of the saved object under a readable
dotted name (``fc.weight`` for a state dict entry ``"fc.weight"``,
``state.0.momentum_buffer`` for an optimizer's nested state), so any
safetensors tool sees natural names. Everything else (the nesting, dict key
types, tuples versus lists, numbers, strings, ``None``) is JSON stored in the
file's ``__metadata__`` under the key ``"unigrad"``; :func:`load` uses it to
rebuild exactly the saved structure.

The JSON document is ``{"format": "unigrad", "version": 2, "tree": NODE,
"nodes": [CONTAINER, ...]}``. A NODE is ``null``, ``true``/``false``, an
integer, a finite float or a string standing for itself, ``{"node": INDEX}``
for the container at that index of ``nodes``, ``{"tensor": NAME}`` (an entry
of the tensor table), ``{"complex_tensor": NAME}`` (a complex tensor, stored as
its real and imaginary parts along a trailing axis of 2: safetensors has no
complex128); a tensor that requires grad adds ``"requires_grad": true``,
``{"float": "inf" | "-inf" | "nan" | "-nan"}`` (JSON has no non-finite
numbers) or ``{"numpy": DTYPE, "value": NODE}`` (a NumPy scalar). A CONTAINER
is a JSON array of NODEs for a list, ``{"tuple": [NODE, ...]}`` or
``{"dict": [[KEY, NODE], ...]}`` (keys are strings or integers, order kept;
``"ordered_dict"`` for an ``OrderedDict``). The containers form a flat table in
which a container only refers to later ones, so the JSON is equally shallow
however deeply the saved object nests. Version 1 files (the same nodes, with
containers nested inline in ``"tree"``) still load.

Integrity: the metadata entry ``"unigrad.checksums"`` holds a CRC-32 of every
tensor's stored bytes and one of the header (the other metadata and each
tensor's name, dtype, shape and offsets). :func:`load` checks them and raises
ValueError naming the file and the tensor (or the header) whose bytes changed;
``load(path, verify=False)`` skips the checks. Duplicate JSON keys, offsets
outside the file, sizes that disagree with the shapes and over-deep JSON are
rejected before anything is allocated. Files without checksums (version 1,
or written by another safetensors tool) load with nothing to verify.

Files are written atomically, tensor by tensor (no copy of the whole file in
memory): to a temporary file ``.NAME.PID.RANDOM.tmp`` in the target's
directory, flushed and synced, then renamed over the target, so a crash or an
error never leaves a half-written checkpoint at the path. A temporary file
that a killed save left behind is removed by the next save to the same path
once its writer's process is gone.

Example:
    >>> import os, tempfile
    >>> import unigrad as ug
    >>> from unigrad.io import load, save
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "ckpt.safetensors")
    ...     save({"w": ug.tensor([1.0, 2.0]), "epoch": 3}, path)
    ...     with open(path, "r+b") as file:  # flip one bit of the last stored byte
    ...         _ = file.seek(-1, os.SEEK_END)
    ...         last = file.read(1)[0]
    ...         _ = file.seek(-1, os.SEEK_END)
    ...         _ = file.write(bytes([last ^ 1]))
    ...     try:
    ...         load(path)
    ...     except ValueError as error:
    ...         print(str(error).split(": ", 2)[2].split("; ")[0])
    ...     load(path, verify=False)
    the bytes of tensor 'w' do not match their checksum (stored 2e3fa576, computed 593895e0)
    {'w': tensor([1., 8.]), 'epoch': 3}
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
import tempfile
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any, BinaryIO

import numpy as np

from . import backend
from .tensor import Tensor, _make_tensor

__all__ = ["save", "load"]

METADATA_KEY = "unigrad"
CHECKSUM_KEY = "unigrad.checksums"
FORMAT_NAME = "unigrad"
FORMAT_VERSION = 2
CHECKSUM_ALGORITHM = "crc32"

_SUPPORTED = "Tensors, arrays, numbers, strings, None, dicts, lists or tuples"
# safetensors dtype codes of unigrad's dtypes, in the order safetensors lays tensors out
# (its dtype ranking, largest first; ties by name)
_SAFETENSORS_CODES = {np.dtype(np.int64): "I64", np.dtype(np.float64): "F64",
                      np.dtype(np.float32): "F32", np.dtype(np.int32): "I32",
                      np.dtype(np.float16): "F16", np.dtype(np.int16): "I16",
                      np.dtype(np.int8): "I8", np.dtype(np.uint8): "U8",
                      np.dtype(np.bool_): "BOOL"}
_SAFETENSORS_DTYPES = tuple(_SAFETENSORS_CODES.values())
_NUMPY_DTYPES = {code: np.dtype(dtype.newbyteorder("<").str)
                 for dtype, code in _SAFETENSORS_CODES.items()}
_LAYOUT_RANK = {code: rank for rank, code in enumerate(_SAFETENSORS_DTYPES)}
# bytes per element of every whole-byte safetensors dtype; sub-byte ones have no size here
_ITEM_SIZES = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "F8_E8M0": 1,
               "I16": 2, "U16": 2, "F16": 2, "BF16": 2, "I32": 4, "U32": 4, "F32": 4,
               "I64": 8, "U64": 8, "F64": 8, "C64": 8}
_SUB_BYTE_DTYPES = ("F4", "F6_E2M3", "F6_E3M2")
_MAX_HEADER_BYTES = 100_000_000  # safetensors' own limit
_NON_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan, "-nan": -math.nan}
_CONTAINER_TAGS = ("tuple", "dict", "ordered_dict")


# ----------------------------------------------------------------------------
# Shared helpers
# ----------------------------------------------------------------------------

def _import_safetensors(caller: str):
    """The ``safetensors`` package with its NumPy API, or a clear ImportError."""
    try:
        import safetensors
        import safetensors.numpy
    except ImportError as error:
        raise ImportError(f"{caller} needs the safetensors package: "
                          "pip install 'unigrad[io]'") from error
    return safetensors


def _check_path(path: Any, caller: str) -> str:
    """``path`` as a str (it may be any os.PathLike), or a TypeError/ValueError."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"{caller}: path must be a str or os.PathLike, "
                        f"got {type(path).__name__}")
    text = os.fsdecode(os.fspath(path))
    if not text:
        raise ValueError(f"{caller}: path must name a file, got an empty string")
    return text


def _a(noun: str) -> str:
    """``noun`` with its indefinite article: ``a set``, ``an object``."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _parts(path: tuple | None) -> tuple:
    """The keys and indices leading to a value from its path ``(parent path, key)``, a
    linked list, so that a child's path costs O(1) however deep it is."""
    keys = []
    while path is not None:
        path, key = path
        keys.append(key)
    return tuple(reversed(keys))


def _location(path: tuple | None) -> str:
    """``obj['optimizer']['state'][0]`` for the path leading to a value."""
    return "obj" + "".join(f"[{part!r}]" for part in _parts(path))


def _checksum(data) -> str:
    """The CRC-32 of a bytes-like object as 8 lowercase hex digits (fixed width)."""
    return f"{zlib.crc32(data):08x}"


def _header_checksum(metadata: Mapping, table: Mapping) -> str:
    """The checksum of everything in a header but the checksums: the metadata entries
    and each tensor's name, dtype, shape and offsets, in a canonical order."""
    entries = sorted([name, entry["dtype"], entry["shape"], entry["data_offsets"]]
                     for name, entry in table.items())
    canonical = [sorted([key, value] for key, value in metadata.items() if key != CHECKSUM_KEY),
                 entries]
    return _checksum(json.dumps(canonical, separators=(",", ":")).encode("utf-8"))


# ----------------------------------------------------------------------------
# save: the object as JSON nodes plus a tensor table
# ----------------------------------------------------------------------------

class _Frame:
    """A container being encoded: its remaining entries and the JSON list it fills."""

    def __init__(self, value: Any, path: tuple | None, entries: Iterator, items: list,
                 keyed: bool):
        self.value, self.path, self.entries = value, path, entries
        self.items, self.keyed = items, keyed

    def add(self, key: Any, node: Any) -> None:
        self.items.append([key, node] if self.keyed else node)


class _Encoder:
    """One iterative pass over the object: the root NODE, the container table
    (``nodes``, each container before the ones it holds) and the tensor table."""

    def __init__(self):
        self.tensors: dict[str, Any] = {}  # name -> the array as given (stored at write time)
        self.nodes: list = []
        self._open_containers: set[int] = set()
        self._frames: list[_Frame] = []

    def encode(self, value: Any, parts: tuple) -> Any:
        path = None
        for part in parts:
            path = (path, part)
        root = self._node(value, path)
        while self._frames:
            frame = self._frames[-1]
            entry = next(frame.entries, None)
            if entry is None:
                self._frames.pop()
                self._open_containers.discard(id(frame.value))
                continue
            key, item = entry
            frame.add(key, self._node(item, (frame.path, key)))
        return root

    def _node(self, value: Any, path: tuple | None) -> Any:
        if isinstance(value, Tensor):
            node = self._tensor(value._data, path, "a Tensor")
            if value.requires_grad:
                node["requires_grad"] = True
            return node
        if isinstance(value, np.ndarray) or hasattr(value, "__cuda_array_interface__"):
            if isinstance(value, np.ma.MaskedArray):
                raise TypeError(f"ug.save: cannot save a masked array at "
                                f"{_location(path)} (its mask would be lost); "
                                f"expected {_SUPPORTED}")
            return self._tensor(value, path, "an array")
        if isinstance(value, np.generic) and value.dtype in backend._BY_NUMPY \
                and value.dtype.kind != "c":
            return {"numpy": value.dtype.name, "value": self._scalar(value.item())}
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, str):
            return str(value)
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            return self._scalar(float(value))
        if isinstance(value, (Mapping, list, tuple)):
            return self._open(value, path)
        kind = _a(type(value).__name__)
        if isinstance(value, np.generic):
            kind = f"a NumPy {value.dtype} scalar"
        raise TypeError(f"ug.save: cannot save {kind} at {_location(path)}; "
                        f"expected {_SUPPORTED}")

    @staticmethod
    def _scalar(value: Any) -> Any:
        if isinstance(value, float) and not math.isfinite(value):
            if math.isnan(value):
                return {"float": "-nan" if math.copysign(1.0, value) < 0 else "nan"}
            return {"float": "inf" if value > 0 else "-inf"}
        return value

    def _open(self, value, path: tuple | None) -> dict:
        """Give the container the next index of the table; its entries follow later."""
        if id(value) in self._open_containers:
            raise ValueError(f"ug.save: {_location(path)} contains itself (a circular "
                             "reference); a checkpoint must be a tree")
        self._open_containers.add(id(value))
        items: list = []
        if isinstance(value, Mapping):
            tag = "ordered_dict" if isinstance(value, OrderedDict) else "dict"
            self.nodes.append({tag: items})
            entries = self._dict_entries(value, path)
        else:
            self.nodes.append({"tuple": items} if isinstance(value, tuple) else items)
            entries = enumerate(value)
        self._frames.append(_Frame(value, path, entries, items, isinstance(value, Mapping)))
        return {"node": len(self.nodes) - 1}

    @staticmethod
    def _dict_entries(value: Mapping, path: tuple | None) -> Iterator:
        for key, item in value.items():
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                raise TypeError(f"ug.save: dict keys must be str or int, got "
                                f"{type(key).__name__} key {key!r} at "
                                f"{_location(path)}")
            yield (str(key) if isinstance(key, str) else int(key)), item

    def _tensor(self, array: Any, path: tuple | None, kind: str) -> dict:
        dtype = np.dtype(array.dtype).newbyteorder("=")
        if dtype not in backend._BY_NUMPY:
            names = ", ".join(d.name for d in backend._ALL_DTYPES)
            raise TypeError(f"ug.save: cannot save {kind} of dtype {dtype} at "
                            f"{_location(path)}; supported dtypes are {names}")
        name = self._unique_name(_parts(path))
        self.tensors[name] = array
        return {"complex_tensor" if dtype.kind == "c" else "tensor": name}

    def _unique_name(self, parts: tuple) -> str:
        base = ".".join(str(part) for part in parts) or "tensor"
        try:
            base.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: the tree keeps the exact key
            base = base.encode("utf-8", "backslashreplace").decode("utf-8")
        name, suffix = base, 0
        while name in self.tensors or name == "__metadata__":
            suffix += 1
            name = f"{base}#{suffix}"
        return name


# ----------------------------------------------------------------------------
# save: the file, written tensor by tensor
# ----------------------------------------------------------------------------

def _stored_layout(array: Any) -> tuple[str, list[int]]:
    """The safetensors dtype code and shape ``array`` is stored with (no data touched)."""
    dtype = np.dtype(array.dtype).newbyteorder("=")
    shape = [int(size) for size in array.shape]
    if dtype.kind == "c":  # as (real, imaginary) pairs
        return _SAFETENSORS_CODES[np.dtype(f"f{dtype.itemsize // 2}")], shape + [2]
    return _SAFETENSORS_CODES[dtype], shape


def _stored_bytes(array: Any) -> np.ndarray:
    """``array``'s stored bytes: on the host, little-endian, complex as pairs, C order.
    Copies only what needs converting, one tensor at a time."""
    host = np.asarray(backend.to_numpy(array))
    if host.dtype.kind == "c":
        host = np.stack((host.real, host.imag), axis=-1)
    host = host.astype(host.dtype.newbyteorder("<"), copy=False)
    if not host.flags.c_contiguous:
        host = host.copy(order="C")
    return host.reshape(-1).view(np.uint8)


def _header_bytes(metadata: dict, table: dict) -> bytes:
    """The 8-byte little-endian length, then the JSON header padded with spaces to a
    multiple of 8 bytes (what the safetensors package writes)."""
    text = json.dumps({"__metadata__": metadata, **table}, ensure_ascii=False,
                      separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)
    return len(text).to_bytes(8, "little") + text


def _checkpoint_writer(document: str, tensors: dict) -> Callable[[BinaryIO], None]:
    """A function writing the checkpoint to a file: the tensors in safetensors' layout
    order, each checksummed as it is written, then the header into the space reserved
    for it (checksums are fixed-width hex, so the final header has the reserved size)."""
    order = sorted(tensors, key=lambda name: (_LAYOUT_RANK[_stored_layout(tensors[name])[0]],
                                              name))
    table, offset = {}, 0
    for name in order:
        code, shape = _stored_layout(tensors[name])
        size = math.prod(shape) * _ITEM_SIZES[code]
        table[name] = {"dtype": code, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    metadata = {METADATA_KEY: document}
    sums = {name: "0" * 8 for name in order}
    checksums = {"algorithm": CHECKSUM_ALGORITHM, "header": _header_checksum(metadata, table),
                 "tensors": sums}

    def header() -> bytes:
        return _header_bytes({**metadata, CHECKSUM_KEY: json.dumps(
            checksums, ensure_ascii=False, separators=(",", ":"))}, table)

    def write(file: BinaryIO) -> None:
        reserved = len(header())
        file.seek(reserved)
        for name in order:
            data = _stored_bytes(tensors[name])
            sums[name] = _checksum(data)
            file.write(data)
            del data  # at most one converted copy alive: free it before the next
        final = header()
        if len(final) != reserved:  # cannot happen: every checksum has 8 hex digits
            raise RuntimeError("ug.save: the checkpoint header changed size")
        file.seek(0)
        file.write(final)

    return write


# ----------------------------------------------------------------------------
# save: atomic replacement and stale temporary files
# ----------------------------------------------------------------------------

def _target_mode(target: str) -> int:
    """Permission bits for the new file: the old file's, else ``0o666`` less the umask."""
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        pass
    umask = None
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    umask = int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        umask = None
    if umask is None:
        umask = os.umask(0o022)
        os.umask(umask)
    return 0o666 & ~umask


def _process_is_alive(pid: int) -> bool:
    """Whether process ``pid`` runs on this machine (True when unsure)."""
    if os.name != "posix" or pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # PermissionError: alive, another user's
        return True
    return True


def _remove_stale_temporaries(directory: str, basename: str) -> None:
    """Remove the temporary files of saves to ``basename`` whose process died (killed
    mid-write). Only regular files of this user named ``.BASENAME.PID.XXXXXXXX.tmp``
    (our naming) whose PID runs no process are removed: a concurrent writer's
    process is alive, so its file stays. Best effort: errors are ignored."""
    pattern = re.compile(r"\." + re.escape(basename) + r"\.([0-9]{1,10})\.[a-z0-9_]{8}\.tmp")
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        match = pattern.fullmatch(name)
        if match is None or _process_is_alive(int(match.group(1))):
            continue
        path = os.path.join(directory, name)
        try:
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode) and (os.name != "posix"
                                               or info.st_uid == os.geteuid()):
                os.unlink(path)
        except OSError:
            pass


def _write_atomically(target: str | bytes, payload: bytes | Callable[[BinaryIO], None]) -> None:
    """Write ``payload`` (bytes, or a function writing to a binary file) to a temporary
    file beside ``target``, sync it, rename it over ``target``. On any error (or
    interrupt) the temporary file is removed and ``target`` is left as it was."""
    target = os.fsdecode(target)
    directory = os.path.dirname(target) or "."
    basename = os.path.basename(target)
    mode = _target_mode(target)
    _remove_stale_temporaries(directory, basename)
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{basename}.{os.getpid()}.",
                                     suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            if callable(payload):
                payload(file)
            else:
                file.write(payload)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    if os.name == "posix":  # make the rename itself durable
        try:
            dir_fd = os.open(directory, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(dir_fd)
        except OSError:
            pass
        finally:
            os.close(dir_fd)


def save(obj: Any, path: str | os.PathLike) -> None:
    """Save ``obj`` to ``path`` as a safetensors checkpoint (``torch.save``'s role).

    ``obj`` is a state dict (name -> Tensor) or any nesting of dicts (str or
    int keys), lists, tuples, Tensors, NumPy arrays, NumPy scalars, Python
    numbers, bools, strings and ``None``, such as an optimizer's state dict or
    ``{"model": ..., "optimizer": ..., "epoch": 3}``, nested as deeply as
    wanted. :func:`load` gives back the same structure: same keys of the same
    types, tuples as tuples, floats (``inf`` and ``nan`` too), ints, bools,
    strings and ``None`` exact.

    Tensors are stored from their data: copied to the CPU, bit-exact, with
    their dtype and, as ``torch.save`` does, whether they require grad (they
    load as leaves; a state dict's tensors are detached and do not).
    ``OrderedDict`` (what ``state_dict()`` returns) loads as ``OrderedDict``.
    Some things come back changed:

    * a tensor that appears twice (tied weights) is stored twice and loads as
      two equal, separate tensors;
    * NumPy arrays and Parameters load as plain Tensors;
    * other Mappings load as dicts, namedtuples as tuples, and subclasses of
      int, float and str as the base type.

    Every tensor's bytes and the header get a CRC-32 checksum, which
    :func:`load` verifies. The file is readable by the ``safetensors``
    package and tools (the structure and checksums are ``__metadata__``).

    The whole object is checked before any file is touched. The file is
    written atomically and streamed, one tensor at a time (the extra memory is
    at most one tensor's converted copy, for a non-contiguous, complex or GPU
    tensor): to a temporary file in the same directory, flushed and synced,
    then renamed onto ``path`` (through a symlink, onto its target). On any
    error, a ``MemoryError`` or an ``OSError`` such as a full disk included,
    the same exception propagates, the temporary file is removed and an
    existing file at ``path`` is left as it was. A temporary file left by a
    save that was killed is removed by the next save to ``path``.

    Raises:
        TypeError: ``path`` is not a str or os.PathLike; ``obj`` holds a value
            of another type (the message names where), or a dict key that is
            not a str or int.
        ValueError: ``obj`` contains itself; ``path`` is empty.
        FileNotFoundError: the directory of ``path`` does not exist.
        IsADirectoryError: ``path`` is a directory.
        ImportError: the ``safetensors`` package is not installed.

    Example:
        >>> import os, tempfile
        >>> import unigrad as ug
        >>> from unigrad.io import load, save
        >>> state = {"state": {0: {"step": 3, "exp_avg": ug.tensor([0.5, -1.0])}},
        ...          "param_groups": [{"lr": 0.1, "betas": (0.9, 0.999), "params": [0]}]}
        >>> deep = [0]
        >>> for _ in range(2000):
        ...     deep = [deep]
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     path = os.path.join(tmp, "optim.safetensors")
        ...     save(state, path)
        ...     loaded = load(path)
        ...     save(deep, path)
        ...     deep_again = load(path)
        >>> loaded["state"][0]
        {'step': 3, 'exp_avg': tensor([ 0.5000, -1.0000])}
        >>> loaded["param_groups"]
        [{'lr': 0.1, 'betas': (0.9, 0.999), 'params': [0]}]
        >>> depth = 0
        >>> while isinstance(deep_again, list):
        ...     deep_again, depth = deep_again[0], depth + 1
        >>> depth, deep_again
        (2001, 0)
    """
    target = _check_path(path, "ug.save")
    encoder = _Encoder()
    tree = encoder.encode(obj, ())
    if os.path.islink(target):
        target = os.path.realpath(target)
    directory = os.path.dirname(target) or "."
    if not os.path.exists(directory):
        raise FileNotFoundError(errno.ENOENT, "ug.save: the directory does not exist",
                                directory)
    if not os.path.isdir(directory):
        raise NotADirectoryError(errno.ENOTDIR, "ug.save: the parent of the path is not a "
                                 "directory", directory)
    if os.path.isdir(target):
        raise IsADirectoryError(errno.EISDIR, "ug.save: path is a directory, expected a file "
                                "name", target)
    _import_safetensors("ug.save")  # the format's package: loading the file needs it
    document = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "tree": tree,
                "nodes": encoder.nodes}
    text = json.dumps(document, allow_nan=False, separators=(",", ":"))
    _write_atomically(target, _checkpoint_writer(text, encoder.tensors))


# ----------------------------------------------------------------------------
# load: the header, read and checked before any tensor is
# ----------------------------------------------------------------------------

class _CorruptCheckpoint(Exception):
    """The file is malformed (turned into a ValueError naming the path)."""


def _reject_constant(name: str):
    raise _CorruptCheckpoint(f"its JSON holds the non-JSON constant {name}")


def _unique_keys(where: str) -> Callable[[list], dict]:
    """A JSON ``object_pairs_hook`` rejecting an object that repeats a key."""
    def hook(pairs: list) -> dict:
        result = dict(pairs)
        if len(result) != len(pairs):
            seen: set = set()
            for key, _ in pairs:
                if key in seen:
                    raise _CorruptCheckpoint(f"{where} has the key {key!r} twice")
                seen.add(key)
        return result
    return hook


def _parse_json(text: str | bytes, where: str) -> Any:
    """Strict JSON: no duplicate keys, no NaN/Infinity; depth errors are corruption."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text, object_pairs_hook=_unique_keys(where),
                          parse_constant=_reject_constant)
    except UnicodeDecodeError as error:
        raise _CorruptCheckpoint(f"{where} is not UTF-8 ({error})") from error
    except RecursionError as error:
        raise _CorruptCheckpoint(f"{where} nests too deeply") from error
    except ValueError as error:  # JSONDecodeError, or an integer of over 4300 digits
        raise _CorruptCheckpoint(f"{where} is not valid JSON ({error})") from error


def _natural(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check_entry(name: str, entry: Any) -> None:
    """One tensor table entry: a dtype code, a shape and offsets that agree in size."""
    if not (isinstance(entry, dict) and {"dtype", "shape", "data_offsets"} <= set(entry)):
        raise _CorruptCheckpoint(f"the header entry of tensor {name!r} is not "
                                 "{dtype, shape, data_offsets}")
    code, shape, offsets = entry["dtype"], entry["shape"], entry["data_offsets"]
    if not isinstance(code, str) or code not in _ITEM_SIZES and code not in _SUB_BYTE_DTYPES:
        raise _CorruptCheckpoint(f"tensor {name!r} has an unknown dtype {code!r}")
    if not (isinstance(shape, list) and all(_natural(size) for size in shape)):
        raise _CorruptCheckpoint(f"tensor {name!r} has an invalid shape {shape!r}")
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(map(_natural, offsets))
            and offsets[0] <= offsets[1]):
        raise _CorruptCheckpoint(f"tensor {name!r} has invalid data offsets {offsets!r}")
    if code in _ITEM_SIZES:  # exact integers: no overflow, nothing allocated
        size = math.prod(shape) * _ITEM_SIZES[code]
        if offsets[1] - offsets[0] != size:
            raise _CorruptCheckpoint(
                f"tensor {name!r} of dtype {code} and shape {shape} needs {size} bytes, but "
                f"its data offsets {offsets} span {offsets[1] - offsets[0]}")


def _check_layout(table: dict, data_size: int) -> None:
    """The tensors' bytes tile the data region exactly: no gap, overlap or overrun."""
    position = 0
    for name, entry in sorted(table.items(), key=lambda item: item[1]["data_offsets"]):
        begin, end = entry["data_offsets"]
        if end > data_size:
            raise _CorruptCheckpoint(f"tensor {name!r} has data offsets {[begin, end]} past "
                                     f"the end of the data ({data_size} bytes)")
        if begin != position:
            problem = "overlap another tensor's" if begin < position else "leave a gap before"
            raise _CorruptCheckpoint(f"the data offsets {[begin, end]} of tensor {name!r} "
                                     f"{problem} (expected it to begin at {position})")
        position = end
    if position != data_size:
        raise _CorruptCheckpoint(f"its tensors cover {position} bytes but the data region "
                                 f"holds {data_size}")


def _read_header(source: str) -> tuple[dict, dict, int]:
    """The metadata (str -> str), tensor table and data offset of a safetensors file,
    checked against the file's size before anything is allocated for a tensor."""
    with open(source, "rb") as file:
        file_size = os.fstat(file.fileno()).st_size
        prefix = file.read(8)
        if len(prefix) < 8:
            raise _CorruptCheckpoint(f"it has {len(prefix)} bytes, fewer than the 8-byte "
                                     "header length")
        length = int.from_bytes(prefix, "little")
        if length > file_size - 8 or length > _MAX_HEADER_BYTES:
            raise _CorruptCheckpoint(f"its header length {length} is larger than the file "
                                     f"({file_size} bytes) allows")
        header = _parse_json(file.read(length), "its header")
    if not isinstance(header, dict):
        raise _CorruptCheckpoint(f"its header is a JSON {type(header).__name__}, "
                                 "not an object")
    metadata = header.pop("__metadata__", None)
    metadata = {} if metadata is None else metadata
    if not (isinstance(metadata, dict)
            and all(isinstance(value, str) for value in metadata.values())):
        raise _CorruptCheckpoint("its __metadata__ is not an object of string values")
    for name, entry in header.items():
        _check_entry(name, entry)
    _check_layout(header, file_size - 8 - length)
    return metadata, header, 8 + length


def _check_dtypes(table: dict, source: str) -> None:
    for name, entry in table.items():
        if entry["dtype"] not in _SAFETENSORS_DTYPES:
            raise TypeError(f"ug.load: tensor {name!r} in {source!r} has dtype "
                            f"{entry['dtype']}, which unigrad does not support (supported: "
                            f"{', '.join(_SAFETENSORS_DTYPES)})")


def _read_checksums(metadata: dict, table: dict) -> dict | None:
    """The tensors' checksums (name -> hex) after checking the header's; None when the
    file has none (version 1, or another tool's safetensors file)."""
    if CHECKSUM_KEY not in metadata:
        return None
    checksums = _parse_json(metadata[CHECKSUM_KEY], "its checksum entry")
    hexadecimal = re.compile("[0-9a-f]{8}")

    def valid(value: Any) -> bool:
        return isinstance(value, str) and hexadecimal.fullmatch(value) is not None

    if not (isinstance(checksums, dict) and checksums.get("algorithm") == CHECKSUM_ALGORITHM
            and valid(checksums.get("header")) and isinstance(checksums.get("tensors"), dict)
            and all(map(valid, checksums["tensors"].values()))):
        text = metadata[CHECKSUM_KEY]
        shown = repr(text) if len(text) <= 200 else repr(text[:200]) + "..."
        raise _CorruptCheckpoint(f"its checksum entry is malformed: {shown}")
    computed = _header_checksum(metadata, table)
    if computed != checksums["header"]:
        raise _CorruptCheckpoint(f"its header (metadata or tensor table) does not match its "
                                 f"checksum (stored {checksums['header']}, computed "
                                 f"{computed}); the file is corrupted")
    sums = checksums["tensors"]
    if set(sums) != set(table):
        missing = sorted(set(table) - set(sums)) or sorted(set(sums) - set(table))
        raise _CorruptCheckpoint(f"its checksums do not list the same tensors as its table "
                                 f"(differing: {missing})")
    return sums


def _read_tensors(source: str, table: dict, data_start: int, sums: dict | None) -> dict:
    """The arrays of a checked table (by name), read straight into place in file order,
    each verified against its checksum when ``sums`` is given."""
    arrays = {}
    with open(source, "rb", buffering=0) as file:
        for name in sorted(table, key=lambda name: table[name]["data_offsets"]):
            entry = table[name]
            array = np.empty(entry["shape"], _NUMPY_DTYPES[entry["dtype"]])
            data = memoryview(array.reshape(-1).view(np.uint8))
            file.seek(data_start + entry["data_offsets"][0])
            filled = 0
            while filled < len(data):
                count = file.readinto(data[filled:])
                if not count:
                    raise _CorruptCheckpoint(f"it ended inside the data of tensor {name!r}")
                filled += count
            if sums is not None:
                _verify(name, data, sums[name])
            arrays[name] = array
    return {name: arrays[name] for name in sorted(arrays)}


def _verify(name: str, data: memoryview, expected: str) -> None:
    computed = _checksum(data)
    if computed != expected:
        raise _CorruptCheckpoint(f"the bytes of tensor {name!r} do not match their checksum "
                                 f"(stored {expected}, computed {computed}); the file is "
                                 "corrupted")


# ----------------------------------------------------------------------------
# load: the structure, rebuilt without recursion
# ----------------------------------------------------------------------------

def _decode_float(node: Any) -> float:
    if isinstance(node, float):
        return node
    if isinstance(node, dict) and set(node) == {"float"} and node["float"] in _NON_FINITE:
        return _NON_FINITE[node["float"]]
    raise _CorruptCheckpoint(f"expected a float, found {node!r}")


def _decode_numpy_scalar(dtype_name: Any, value: Any) -> np.generic:
    try:
        dtype = backend.to_numpy_dtype(dtype_name) if isinstance(dtype_name, str) else None
    except TypeError:
        dtype = None
    if dtype is None or dtype.name != dtype_name or dtype.kind == "c":
        raise _CorruptCheckpoint(f"unknown NumPy scalar dtype {dtype_name!r}")
    if dtype.kind == "b":
        valid = isinstance(value, bool)
    elif dtype.kind in "iu":
        valid = isinstance(value, int) and not isinstance(value, bool)
        valid = valid and np.iinfo(dtype).min <= value <= np.iinfo(dtype).max
    else:
        value = _decode_float(value)
        valid = True
    if not valid:
        raise _CorruptCheckpoint(f"invalid value {value!r} for a NumPy {dtype_name} scalar")
    return dtype.type(value)


def _complex_from_pairs(name: str, pairs: Tensor) -> Tensor:
    """A complex tensor from its stored (real, imaginary) pairs."""
    array = pairs._data
    if array.dtype.kind != "f" or array.dtype == np.float16 or not array.shape \
            or array.shape[-1] != 2:
        raise _CorruptCheckpoint(f"the complex tensor {name!r} is not stored as float32/64 "
                                 f"pairs (shape {tuple(array.shape)}, dtype {array.dtype})")
    xp = backend.namespace_of(array)
    values = xp.empty(array.shape[:-1], backend.complex_of(array.dtype))
    values.real, values.imag = array[..., 0], array[..., 1]
    return _make_tensor(values)


def _is_container(node: Any) -> bool:
    return isinstance(node, list) or (isinstance(node, dict) and len(node) == 1
                                      and min(node) in _CONTAINER_TAGS
                                      and isinstance(node[min(node)], list))


def _children(container: Any) -> list:
    """The NODE list of a container (a dict's entries are ``[KEY, NODE]`` pairs)."""
    return container if isinstance(container, list) else container[min(container)]


def _nodes_from_tree(tree: Any) -> tuple[Any, list]:
    """A version 1 tree (containers nested inline) as the version 2 root and table."""
    nodes: list = []

    def lift(node: Any) -> Any:
        if _is_container(node):
            nodes.append(node)
            return {"node": len(nodes) - 1}
        if isinstance(node, dict) and "node" in node:
            raise _CorruptCheckpoint(f"unexpected node {node!r}")
        return node

    root = lift(tree)
    index = 0
    while index < len(nodes):  # breadth first: a container's children get later indices
        container = nodes[index]
        items = _children(container)
        if isinstance(container, dict) and min(container) != "tuple":
            lifted = [[entry[0], lift(entry[1])] if isinstance(entry, list) and len(entry) == 2
                      else entry for entry in items]
        else:
            lifted = [lift(item) for item in items]
        nodes[index] = lifted if isinstance(container, list) else {min(container): lifted}
        index += 1
    return root, nodes


class _Decoder:
    """Rebuild the saved object from the root NODE and container table: containers
    from the last to the first, so the later ones they hold are already built."""

    def __init__(self, tensors: dict):
        self.tensors = tensors
        self.used: set[str] = set()
        self.values: list = []
        self.referenced: list[bool] = []

    def decode(self, root: Any, nodes: list) -> Any:
        self.values = [None] * len(nodes)
        self.referenced = [False] * len(nodes)
        for index in range(len(nodes) - 1, -1, -1):
            self.values[index] = self._container(nodes[index], index)
        result = self._node(root, -1)
        if not all(self.referenced):
            raise _CorruptCheckpoint(f"its node table holds {self.referenced.count(False)} "
                                     "containers that nothing refers to")
        if self.used != set(self.tensors):
            raise _CorruptCheckpoint(f"its unigrad metadata does not mention the tensors "
                                     f"{sorted(set(self.tensors) - self.used)}")
        return result

    def _container(self, node: Any, index: int) -> Any:
        if not _is_container(node):
            raise _CorruptCheckpoint(f"unexpected node {node!r}")
        if isinstance(node, list):
            return [self._node(item, index) for item in node]
        (tag,) = node
        if tag == "tuple":
            return tuple(self._node(item, index) for item in node[tag])
        result = OrderedDict() if tag == "ordered_dict" else {}
        for entry in node[tag]:
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], (str, int))
                    and not isinstance(entry[0], bool)):
                raise _CorruptCheckpoint(f"malformed dict entry {entry!r}")
            if entry[0] in result:
                raise _CorruptCheckpoint(f"a dict has the key {entry[0]!r} twice")
            result[entry[0]] = self._node(entry[1], index)
        return result

    def _node(self, node: Any, parent: int) -> Any:
        if node is None or isinstance(node, (bool, int, float, str)):
            return node
        if not isinstance(node, dict):
            raise _CorruptCheckpoint(f"unexpected node {node!r}")
        keys = set(node)
        if keys == {"node"}:
            return self._reference(node["node"], parent)
        requires_grad = node.get("requires_grad") is True
        if requires_grad:
            keys.discard("requires_grad")
        if keys == {"tensor"} or keys == {"complex_tensor"}:
            return self._tensor(min(keys), node[min(keys)], requires_grad)
        if keys == {"float"}:
            return _decode_float(node)
        if keys == {"numpy", "value"}:
            return _decode_numpy_scalar(node["numpy"], node["value"])
        raise _CorruptCheckpoint(f"unexpected node {node!r}")

    def _reference(self, index: Any, parent: int) -> Any:
        if not (_natural(index) and parent < index < len(self.values)) \
                or self.referenced[index]:
            raise _CorruptCheckpoint(f"invalid container reference {{'node': {index!r}}} in "
                                     f"container {parent}")
        self.referenced[index] = True
        return self.values[index]

    def _tensor(self, tag: str, name: Any, requires_grad: bool) -> Tensor:
        if not isinstance(name, str) or name not in self.tensors:
            raise _CorruptCheckpoint(f"it names a tensor {name!r} that the file does not hold")
        if name in self.used:
            raise _CorruptCheckpoint(f"it names the tensor {name!r} twice")
        self.used.add(name)
        tensor = self.tensors[name]
        if tag == "complex_tensor":
            tensor = _complex_from_pairs(name, tensor)
        return tensor.requires_grad_(True) if requires_grad else tensor


def _read_document(text: str) -> tuple[int, Any, list]:
    """The version, root NODE and container table of the unigrad metadata."""
    document = _parse_json(text, "its unigrad metadata")
    if not (isinstance(document, dict) and document.get("format") == FORMAT_NAME
            and "version" in document and "tree" in document):
        raise _CorruptCheckpoint("its unigrad metadata lacks the format, version or tree entry")
    version = document["version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _CorruptCheckpoint(f"its unigrad metadata has an invalid version {version!r}")
    if version > FORMAT_VERSION:
        raise _CorruptCheckpoint(f"it was written by a newer unigrad (format version "
                                 f"{version}; this unigrad reads version {FORMAT_VERSION})")
    if version == 1:
        return (version, *_nodes_from_tree(document["tree"]))
    if not isinstance(document.get("nodes"), list):
        raise _CorruptCheckpoint("its unigrad metadata lacks the nodes entry")
    return version, document["tree"], document["nodes"]


def _check_regular_file(source: str) -> None:
    """A ValueError for a device, FIFO or socket: reading one would block or fail."""
    mode = os.stat(source).st_mode
    if stat.S_ISREG(mode):
        return
    kinds = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))
    kind = next((name for test, name in kinds if test(mode)), "not a regular file")
    raise ValueError(f"ug.load: {source!r} is {kind}, not a regular checkpoint file")


def load(path: str | os.PathLike, device: str | backend.Device | None = None, *,
         verify: bool = True) -> Any:
    """Load a checkpoint written by :func:`save` (``torch.load``'s role); never unpickles.

    Returns the saved structure with every tensor as a unigrad Tensor of the
    saved dtype (requiring grad when the saved one did), on ``device`` (CPU by default; a
    ``"cuda"`` device needs CuPy). A safetensors file written by another tool
    (no unigrad metadata) loads as a flat dict name -> Tensor, in the file's
    name order. A PyTorch ``.pt``/``.pth`` file (the zip ``torch.save`` writes)
    loads through :func:`unigrad.io_pytorch.load_pytorch`: tensors, storages and
    containers only, never running code from the file.

    The header is read and checked first: duplicate JSON keys, over-deep JSON,
    unknown dtypes, shapes that disagree with the data offsets and offsets
    outside the file are rejected before any tensor is allocated. With
    ``verify=True`` (the default) the CRC-32 checksums :func:`save` stores
    are checked: any changed byte of a tensor or of the header raises
    ValueError naming the tensor (or the header) and the file. Files with
    no checksums (an older unigrad's, other tools') have nothing to verify.
    ``verify=False`` skips the checksums, to salvage a damaged file.

    Raises:
        TypeError: ``path`` is not a str or os.PathLike; ``device`` is not a
            device; the file holds a tensor of a dtype unigrad lacks (bfloat16,
            uint16/32/64, complex: its name and dtype are in the message).
        ValueError: the file is not a valid, complete safetensors checkpoint
            (empty, truncated, corrupted header or data, not safetensors at
            all) or its unigrad metadata does not match its tensors; the message
            names the path and the cause is chained. Also when ``path`` is not a
            regular file (``/dev/null``, a FIFO) and for a malformed ``device``.
        FileNotFoundError: there is no file at ``path``.
        IsADirectoryError: ``path`` is a directory.
        ImportError: the ``safetensors`` package is not installed.

    Example:
        >>> import os, tempfile
        >>> import unigrad as ug
        >>> from unigrad.io import load, save
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     path = os.path.join(tmp, "model.safetensors")
        ...     save({"fc.weight": ug.ones(2, 2), "fc.bias": ug.zeros(2, dtype=ug.float64)}, path)
        ...     state = load(path, device="cpu")
        ...     unchecked = load(path, verify=False)
        >>> state["fc.weight"]
        tensor([[1., 1.],
                [1., 1.]])
        >>> state["fc.bias"].dtype, state["fc.bias"].requires_grad
        (unigrad.float64, False)
        >>> unchecked["fc.bias"]
        tensor([0., 0.], dtype=unigrad.float64)
        >>> load("/dev/null")
        Traceback (most recent call last):
        ...
        ValueError: ug.load: '/dev/null' is a character device, not a regular checkpoint file
    """
    source = _check_path(path, "ug.load")
    device = backend.CPU if device is None else backend.Device(device)
    if not os.path.exists(source):
        raise FileNotFoundError(errno.ENOENT, "ug.load: no such file", source)
    if os.path.isdir(source):
        raise IsADirectoryError(errno.EISDIR, "ug.load: path is a directory, expected a "
                                "checkpoint file", source)
    _check_regular_file(source)
    from .io_pytorch import is_pytorch_checkpoint, load_pytorch
    if is_pytorch_checkpoint(source):  # a PyTorch .pt/.pth zip: read without running code
        return load_pytorch(source, device)
    _import_safetensors("ug.load")  # the format's package, as documented (not used to read)
    invalid = f"ug.load: {source!r} is not a valid or complete unigrad/safetensors checkpoint"
    try:
        arrays, root, nodes = _read_arrays(source, verify)
    except _CorruptCheckpoint as error:
        raise ValueError(f"{invalid}: {error}") from error
    tensors = {}
    for name, array in arrays.items():
        if not array.dtype.isnative:  # only on big-endian machines
            array = array.astype(array.dtype.newbyteorder("="))
        if not (array.flags.writeable and array.flags.c_contiguous):
            array = array.copy(order="C")
        tensors[name] = _make_tensor(backend.to_device(array, device))
    if root is None and nodes is None:
        return tensors
    try:
        return _Decoder(tensors).decode(root, nodes)
    except _CorruptCheckpoint as error:
        raise ValueError(f"{invalid}: its unigrad metadata does not match its tensors: "
                         f"{error}") from error


def _read_arrays(source: str, verify: bool) -> tuple[dict, Any, Any]:
    """The file's arrays (checksums verified), root NODE and container table (both None
    for a file without unigrad metadata)."""
    metadata, table, data_start = _read_header(source)
    structured = METADATA_KEY in metadata or CHECKSUM_KEY in metadata
    if structured and METADATA_KEY not in metadata:
        raise _CorruptCheckpoint(f"it has the {CHECKSUM_KEY!r} entry but no {METADATA_KEY!r} "
                                 "metadata")
    sums = _read_checksums(metadata, table) if verify else None
    root = nodes = None
    if structured:
        version, root, nodes = _read_document(metadata[METADATA_KEY])
        if verify and version >= 2 and sums is None:
            raise _CorruptCheckpoint(f"its version {version} metadata lacks the "
                                     f"{CHECKSUM_KEY!r} entry")
    _check_dtypes(table, source)
    return _read_tensors(source, table, data_start, sums), root, nodes
