"""Checkpoints: ``save`` and ``load`` in the safetensors format, never pickle.

A checkpoint is one `safetensors <https://huggingface.co/docs/safetensors>`_
file. Its tensor table holds every tensor of the saved object under a readable
dotted name (``fc.weight`` for a state dict entry ``"fc.weight"``,
``state.0.momentum_buffer`` for an optimizer's nested state), so any
safetensors tool sees natural names. Everything else (the nesting, dict key
types, tuples versus lists, numbers, strings, ``None``) is JSON stored in the
file's ``__metadata__`` under the single key ``"unigrad"``; :func:`load` uses it
to rebuild exactly the saved structure.

The JSON document is ``{"format": "unigrad", "version": 1, "tree": NODE}``
where a NODE is ``null``, ``true``/``false``, an integer, a finite float or a
string standing for itself, a JSON array for a list, or an object with one
tag: ``{"tuple": [NODE, ...]}``, ``{"dict": [[KEY, NODE], ...]}`` (keys are
strings or integers, order kept; ``"ordered_dict"`` for an ``OrderedDict``),
``{"tensor": NAME}`` (an entry of the tensor table), ``{"complex_tensor": NAME}``
(a complex tensor, stored as its real and imaginary parts along a trailing axis
of 2: safetensors has no complex128); a tensor that requires grad adds
``"requires_grad": true``,
``{"float": "inf" | "-inf" | "nan" | "-nan"}`` (JSON has no
non-finite numbers) or ``{"numpy": DTYPE, "value": NODE}`` (a NumPy scalar).

Files are written atomically: to a temporary file in the target's directory,
flushed and synced, then renamed over the target, so a crash or an error never
leaves a half-written checkpoint at the path. Tensor bytes carry no checksum:
:func:`load` detects truncated files and broken headers, not flipped data bits.

Example:
    >>> import os, tempfile
    >>> import unigrad as ug
    >>> from unigrad.io import load, save
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "ckpt.safetensors")
    ...     save({"w": ug.tensor([1.0, 2.0]), "epoch": 3}, path)
    ...     load(path)
    {'w': tensor([1., 2.]), 'epoch': 3}
"""

from __future__ import annotations

import errno
import json
import math
import os
import tempfile
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np

from . import backend
from .tensor import Tensor, _make_tensor

__all__ = ["save", "load"]

METADATA_KEY = "unigrad"
FORMAT_NAME = "unigrad"
FORMAT_VERSION = 1

_SUPPORTED = "Tensors, arrays, numbers, strings, None, dicts, lists or tuples"
# the safetensors dtype codes of unigrad's dtypes (bool, uint8, int8..int64, float16..float64)
_SAFETENSORS_DTYPES = ("BOOL", "U8", "I8", "I16", "I32", "I64", "F16", "F32", "F64")
_NON_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan, "-nan": -math.nan}


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


def _location(parts: tuple) -> str:
    """``obj['optimizer']['state'][0]`` for the keys and indices leading to a value."""
    return "obj" + "".join(f"[{part!r}]" for part in parts)


# ----------------------------------------------------------------------------
# save
# ----------------------------------------------------------------------------

class _Encoder:
    """One pass over the object: the JSON tree plus the tensor table it names."""

    def __init__(self):
        self.tensors: dict[str, np.ndarray] = {}
        self._open_containers: set[int] = set()

    def encode(self, value: Any, parts: tuple) -> Any:
        if isinstance(value, Tensor):
            node = self._tensor(backend.to_numpy(value._data), parts, "a Tensor")
            if value.requires_grad:
                node["requires_grad"] = True
            return node
        if isinstance(value, np.ndarray) or hasattr(value, "__cuda_array_interface__"):
            if isinstance(value, np.ma.MaskedArray):
                raise TypeError(f"ug.save: cannot save a masked array at {_location(parts)} "
                                "(its mask would be lost); expected " + _SUPPORTED)
            return self._tensor(np.asarray(backend.to_numpy(value)), parts, "an array")
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
            return self._container(value, parts)
        kind = _a(type(value).__name__)
        if isinstance(value, np.generic):
            kind = f"a NumPy {value.dtype} scalar"
        raise TypeError(f"ug.save: cannot save {kind} at {_location(parts)}; "
                        f"expected {_SUPPORTED}")

    @staticmethod
    def _scalar(value: Any) -> Any:
        if isinstance(value, float) and not math.isfinite(value):
            if math.isnan(value):
                return {"float": "-nan" if math.copysign(1.0, value) < 0 else "nan"}
            return {"float": "inf" if value > 0 else "-inf"}
        return value

    def _container(self, value, parts: tuple) -> Any:
        if id(value) in self._open_containers:
            raise ValueError(f"ug.save: {_location(parts)} contains itself (a circular "
                             "reference); a checkpoint must be a tree")
        self._open_containers.add(id(value))
        try:
            if isinstance(value, Mapping):
                items = []
                for key, item in value.items():
                    if isinstance(key, bool) or not isinstance(key, (str, int)):
                        raise TypeError(f"ug.save: dict keys must be str or int, got "
                                        f"{type(key).__name__} key {key!r} at "
                                        f"{_location(parts)}")
                    key = str(key) if isinstance(key, str) else int(key)
                    items.append([key, self.encode(item, parts + (key,))])
                return {"ordered_dict" if isinstance(value, OrderedDict) else "dict": items}
            encoded = [self.encode(item, parts + (index,)) for index, item in enumerate(value)]
            return {"tuple": encoded} if isinstance(value, tuple) else encoded
        finally:
            self._open_containers.discard(id(value))

    def _tensor(self, array: np.ndarray, parts: tuple, kind: str) -> dict:
        if array.dtype.byteorder not in ("=", "|"):
            array = array.astype(array.dtype.newbyteorder("="))
        if array.dtype not in backend._BY_NUMPY:
            names = ", ".join(d.name for d in backend._ALL_DTYPES)
            raise TypeError(f"ug.save: cannot save {kind} of dtype {array.dtype} at "
                            f"{_location(parts)}; supported dtypes are {names}")
        tag = "tensor"
        if array.dtype.kind == "c":  # as (real, imaginary) pairs
            array = np.stack((array.real, array.imag), axis=-1)
            tag = "complex_tensor"
        if not array.flags.c_contiguous:
            array = array.copy(order="C")
        name = self._unique_name(parts)
        self.tensors[name] = array
        return {tag: name}

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


def _write_atomically(target: str, payload: bytes) -> None:
    """Write ``payload`` to a temporary file beside ``target``, sync it, rename it over."""
    directory = os.path.dirname(target) or "."
    mode = _target_mode(target)
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(target)}.",
                                     suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
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
    ``{"model": ..., "optimizer": ..., "epoch": 3}``. :func:`load` gives back
    the same structure: same keys of the same types, tuples as tuples, floats
    (``inf`` and ``nan`` too), ints, bools, strings and ``None`` exact.

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

    The whole object is checked before any file is touched. The file is
    written atomically: to a temporary file in the same directory, flushed
    and synced, then renamed onto ``path`` (through a symlink, onto its
    target); on any error the temporary file is removed and an existing file
    at ``path`` is left as it was.

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
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     path = os.path.join(tmp, "optim.safetensors")
        ...     save(state, path)
        ...     loaded = load(path)
        >>> loaded["state"][0]
        {'step': 3, 'exp_avg': tensor([ 0.5000, -1.0000])}
        >>> loaded["param_groups"]
        [{'lr': 0.1, 'betas': (0.9, 0.999), 'params': [0]}]
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
    safetensors = _import_safetensors("ug.save")
    document = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "tree": tree}
    metadata = {METADATA_KEY: json.dumps(document, allow_nan=False, separators=(",", ":"))}
    payload = safetensors.numpy.save(encoder.tensors, metadata=metadata)
    _write_atomically(target, payload)


# ----------------------------------------------------------------------------
# load
# ----------------------------------------------------------------------------

class _CorruptCheckpoint(Exception):
    """The unigrad metadata is malformed (turned into a ValueError naming the path)."""


def _reject_constant(name: str):
    raise _CorruptCheckpoint(f"the metadata holds the non-JSON constant {name}")


def _decode_float(node: Any) -> float:
    if isinstance(node, float):
        return node
    if isinstance(node, dict) and set(node) == {"float"} and node["float"] in _NON_FINITE:
        return _NON_FINITE[node["float"]]
    raise _CorruptCheckpoint(f"expected a float, found {node!r}")


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


def _decode(node: Any, tensors: dict, used: set) -> Any:
    if node is None or isinstance(node, (bool, int, float, str)):
        return node
    if isinstance(node, list):
        return [_decode(item, tensors, used) for item in node]
    if not isinstance(node, dict):
        raise _CorruptCheckpoint(f"unexpected node {node!r}")
    keys = set(node)
    requires_grad = node.get("requires_grad") is True
    if requires_grad:
        keys.discard("requires_grad")
    if keys == {"tensor"} or keys == {"complex_tensor"}:
        (tag,) = keys
        name = node[tag]
        if not isinstance(name, str) or name not in tensors:
            raise _CorruptCheckpoint(f"it names a tensor {name!r} that the file does not hold")
        if name in used:
            raise _CorruptCheckpoint(f"it names the tensor {name!r} twice")
        used.add(name)
        tensor = _complex_from_pairs(name, tensors[name]) if tag == "complex_tensor" else \
            tensors[name]
        return tensor.requires_grad_(True) if requires_grad else tensor
    if keys == {"tuple"} and isinstance(node["tuple"], list):
        return tuple(_decode(item, tensors, used) for item in node["tuple"])
    if len(keys) == 1 and keys <= {"dict", "ordered_dict"} and isinstance(node[min(keys)], list):
        result = OrderedDict() if keys == {"ordered_dict"} else {}
        for entry in node[min(keys)]:
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], (str, int))
                    and not isinstance(entry[0], bool)):
                raise _CorruptCheckpoint(f"malformed dict entry {entry!r}")
            result[entry[0]] = _decode(entry[1], tensors, used)
        return result
    if keys == {"float"}:
        return _decode_float(node)
    if keys == {"numpy", "value"}:
        return _decode_numpy_scalar(node["numpy"], node["value"])
    raise _CorruptCheckpoint(f"unexpected node {node!r}")


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


def _read_tree(text: str) -> Any:
    try:
        document = json.loads(text, parse_constant=_reject_constant)
    except (json.JSONDecodeError, RecursionError) as error:
        raise _CorruptCheckpoint(f"its unigrad metadata is not valid JSON ({error})") from error
    if not (isinstance(document, dict) and document.get("format") == FORMAT_NAME
            and "version" in document and "tree" in document):
        raise _CorruptCheckpoint("its unigrad metadata lacks the format, version or tree entry")
    version = document["version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _CorruptCheckpoint(f"its unigrad metadata has an invalid version {version!r}")
    if version > FORMAT_VERSION:
        raise _CorruptCheckpoint(f"it was written by a newer unigrad (format version "
                                 f"{version}; this unigrad reads version {FORMAT_VERSION})")
    return document["tree"]


def load(path: str | os.PathLike, device: str | backend.Device | None = None) -> Any:
    """Load a checkpoint written by :func:`save` (``torch.load``'s role); never unpickles.

    Returns the saved structure with every tensor as a unigrad Tensor of the
    saved dtype (requiring grad when the saved one did), on ``device`` (CPU by default; a
    ``"cuda"`` device needs CuPy). A safetensors file written by another tool
    (no unigrad metadata) loads as a flat dict name -> Tensor, in the file's
    name order. A PyTorch ``.pt``/``.pth`` file (the zip ``torch.save`` writes)
    loads through :func:`unigrad.io_pytorch.load_pytorch`: tensors, storages and
    containers only, never running code from the file.

    Raises:
        TypeError: ``path`` is not a str or os.PathLike; ``device`` is not a
            device; the file holds a tensor of a dtype unigrad lacks (bfloat16,
            uint16/32/64, complex: its name and dtype are in the message).
        ValueError: the file is not a valid, complete safetensors checkpoint
            (empty, truncated, corrupted header, not safetensors at all) or its
            unigrad metadata does not match its tensors; the message names the
            path and the cause is chained. Also for a malformed ``device``.
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
        >>> state["fc.weight"]
        tensor([[1., 1.],
                [1., 1.]])
        >>> state["fc.bias"].dtype, state["fc.bias"].requires_grad
        (unigrad.float64, False)
    """
    source = _check_path(path, "ug.load")
    device = backend.CPU if device is None else backend.Device(device)
    if not os.path.exists(source):
        raise FileNotFoundError(errno.ENOENT, "ug.load: no such file", source)
    if os.path.isdir(source):
        raise IsADirectoryError(errno.EISDIR, "ug.load: path is a directory, expected a "
                                "checkpoint file", source)
    from .io_pytorch import is_pytorch_checkpoint, load_pytorch
    if is_pytorch_checkpoint(source):  # a PyTorch .pt/.pth zip: read without running code
        return load_pytorch(source, device)
    safetensors = _import_safetensors("ug.load")
    invalid = f"ug.load: {source!r} is not a valid or complete unigrad/safetensors checkpoint"
    try:
        with safetensors.safe_open(source, framework="np") as file:
            metadata = file.metadata() or {}
            names = list(file.keys())
            structured = METADATA_KEY in metadata
            tree = _read_tree(metadata[METADATA_KEY]) if structured else None
            for name in names:
                code = file.get_slice(name).get_dtype()
                if code not in _SAFETENSORS_DTYPES:
                    raise TypeError(f"ug.load: tensor {name!r} in {source!r} has dtype {code}, "
                                    "which unigrad does not support (supported: "
                                    f"{', '.join(_SAFETENSORS_DTYPES)})")
            arrays = {name: file.get_tensor(name) for name in names}
    except safetensors.SafetensorError as error:
        raise ValueError(f"{invalid}: {error}") from error
    except _CorruptCheckpoint as error:
        raise ValueError(f"{invalid}: {error}") from error
    tensors = {}
    for name, array in arrays.items():
        if array.dtype.byteorder not in ("=", "|"):  # only on big-endian machines
            array = array.astype(array.dtype.newbyteorder("="))
        if not (array.flags.writeable and array.flags.c_contiguous):
            array = array.copy(order="C")
        tensors[name] = _make_tensor(backend.to_device(array, device))
    if not structured:
        return tensors
    used: set[str] = set()
    try:
        result = _decode(tree, tensors, used)
        if used != set(tensors):
            unnamed = sorted(set(tensors) - used)
            raise _CorruptCheckpoint(f"its unigrad metadata does not mention the tensors "
                                     f"{unnamed}")
    except (_CorruptCheckpoint, RecursionError) as error:
        raise ValueError(f"{invalid}: its unigrad metadata does not match its tensors: "
                         f"{error}") from error
    return result

