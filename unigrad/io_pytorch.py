"""Read PyTorch checkpoints (``.pt``/``.pth`` from ``torch.save``) without PyTorch, safely.

:func:`load_pytorch` reads the zip format that ``torch.save`` writes since
torch 1.6: an archive ``<name>/`` holding ``data.pkl`` (the pickled object),
``data/<key>`` (one raw blob per tensor storage), ``byteorder`` and
``version``. The pickle is read by a restricted unpickler whose
``find_class`` only knows the handful of globals that rebuilding tensors and
containers needs (``collections.OrderedDict``, ``torch._utils._rebuild_*``,
torch's storage classes and dtypes, ``torch.Size``, ``torch.device`` and the
builtins that pickle uses for ``bytes``, ``set`` and ``complex``). Those names
are mapped to small functions of this module; PyTorch is never imported and
any other global (``os.system``, ``builtins.eval``, a model class, ...) stops
the load with :class:`ForbiddenGlobalError` before anything runs.

Every tensor comes back as a plain :class:`unigrad.Tensor` (``nn.Parameter``
too) with ``requires_grad=False``, its dtype (bool, uint8, int8/16/32/64,
float16/32/64, complex64/128) and bit-exact values; views of one storage
(a transpose and a slice of the same tensor, say) each become their own
C-contiguous copy. ``torch.Size`` loads as a tuple, ``torch.device`` as its
string (``"cuda:0"``).

Example (a checkpoint written by hand, holding only numbers):
    >>> import os, pickle, tempfile, zipfile
    >>> from unigrad.io_pytorch import is_pytorch_checkpoint, load_pytorch
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "ckpt.pt")
    ...     with zipfile.ZipFile(path, "w") as archive:
    ...         archive.writestr("ckpt/data.pkl", pickle.dumps({"epoch": 3, "lr": 0.1}, 2))
    ...         archive.writestr("ckpt/byteorder", "little")
    ...     print(is_pytorch_checkpoint(path), load_pytorch(path))
    True {'epoch': 3, 'lr': 0.1}

With a file written by ``torch.save`` (PyTorch is only needed to write it):
    >>> state = load_pytorch("model.pt")  # doctest: +SKIP
    >>> state["fc.weight"].dtype, state["fc.weight"].requires_grad  # doctest: +SKIP
    (unigrad.float32, False)
"""

from __future__ import annotations

import collections
import errno
import io
import os
import pickle
import re
import zipfile
import zlib
from typing import Any

import numpy as np

from . import backend
from .tensor import Tensor, _make_tensor

__all__ = ["load_pytorch", "is_pytorch_checkpoint", "ForbiddenGlobalError"]

_CALLER = "unigrad.load_pytorch"

# torch's legacy storage classes -> NumPy dtype (None: a dtype unigrad lacks)
_STORAGE_DTYPES: dict[str, tuple[str, Any]] = {
    "DoubleStorage": ("float64", np.float64),
    "FloatStorage": ("float32", np.float32),
    "HalfStorage": ("float16", np.float16),
    "LongStorage": ("int64", np.int64),
    "IntStorage": ("int32", np.int32),
    "ShortStorage": ("int16", np.int16),
    "CharStorage": ("int8", np.int8),
    "ByteStorage": ("uint8", np.uint8),
    "BoolStorage": ("bool", np.bool_),
    "ComplexFloatStorage": ("complex64", np.complex64),
    "ComplexDoubleStorage": ("complex128", np.complex128),
    "BFloat16Storage": ("bfloat16", None),
    "QUInt8Storage": ("quint8", None),
    "QInt8Storage": ("qint8", None),
    "QInt32Storage": ("qint32", None),
    "QUInt4x2Storage": ("quint4x2", None),
    "QUInt2x4Storage": ("quint2x4", None),
    "UntypedStorage": ("uint8", np.uint8),  # raw bytes; _rebuild_tensor_v3 gives the dtype
}

# torch dtype names (as pickled: torch.float32, ...) -> NumPy dtype (None: unsupported)
_TORCH_DTYPES: dict[str, Any] = {
    "float64": np.float64, "double": np.float64, "float32": np.float32, "float": np.float32,
    "float16": np.float16, "half": np.float16, "int64": np.int64, "long": np.int64,
    "int32": np.int32, "int": np.int32, "int16": np.int16, "short": np.int16,
    "int8": np.int8, "uint8": np.uint8, "bool": np.bool_, "complex64": np.complex64,
    "cfloat": np.complex64, "complex128": np.complex128, "cdouble": np.complex128,
}
_UNSUPPORTED_TORCH_DTYPES = (
    "bfloat16", "uint16", "uint32", "uint64", "complex32", "chalf", "float8_e4m3fn",
    "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2",
    "qint8", "quint8", "qint32", "quint4x2", "quint2x4", "bits1x8", "bits2x4", "bits4x2",
    "bits8", "bits16", *(f"uint{n}" for n in range(1, 8)), *(f"int{n}" for n in range(1, 8)),
)
_SUPPORTED_NAMES = ("bool, uint8, int8, int16, int32, int64, float16, float32, float64, "
                    "complex64, complex128")

_LEGACY_MAGIC = (0x1950A86A20F9469CFC6C).to_bytes(10, "little")


class ForbiddenGlobalError(pickle.UnpicklingError):
    """A checkpoint's pickle names a global that :func:`load_pytorch` refuses to load."""


class _Corrupt(Exception):
    """Internal: the archive's content is inconsistent (turned into ValueError)."""


class _Inert:
    """Base of the stand-ins find_class hands out: no state can be set on them."""

    __slots__ = ()

    def __setstate__(self, state):
        raise pickle.UnpicklingError(f"{_CALLER}: the pickle tries to set state on {self!r}")

    def __reduce__(self):  # never re-pickled
        raise TypeError(f"{self!r} cannot be pickled")


class _Global(_Inert):
    """A callable allowed global: ``name`` for messages, ``fn`` does the work."""

    __slots__ = ("name", "fn")

    def __init__(self, name: str, fn):
        self.name, self.fn = name, fn

    def __call__(self, *args):
        return self.fn(*args)

    def __repr__(self):
        return f"<allowed global {self.name}>"


class _Marker(_Inert):
    """A non-callable allowed global (a storage class, a dtype, ``torch.Tensor``)."""

    __slots__ = ("kind", "name", "np_dtype")

    def __init__(self, kind: str, name: str, np_dtype=None):
        self.kind, self.name, self.np_dtype = kind, name, np_dtype

    def __repr__(self):
        return f"torch.{self.name}" if self.kind == "dtype" else f"<torch {self.kind} {self.name}>"


class _Storage(_Inert):
    """One ``data/<key>`` blob: raw little- or big-endian bytes and its element dtype."""

    __slots__ = ("key", "dtype_name", "np_dtype", "raw", "big_endian")

    def __init__(self, key, dtype_name, np_dtype, raw, big_endian):
        self.key, self.dtype_name, self.np_dtype = key, dtype_name, np_dtype
        self.raw, self.big_endian = raw, big_endian

    def __repr__(self):
        return f"<storage {self.key!r} of {self.dtype_name}>"


class _Unsupported(_Inert):
    """Placeholder for a tensor of a dtype unigrad lacks; reported with its location."""

    __slots__ = ("dtype_name", "key")

    def __init__(self, dtype_name, key):
        self.dtype_name, self.key = dtype_name, key

    def __repr__(self):
        return f"<{self.dtype_name} tensor of storage {self.key!r}>"


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Unpickler(pickle.Unpickler):
    """Unpickles ``data.pkl`` with an allow-list of globals and storages from the archive."""

    def __init__(self, file, archive: zipfile.ZipFile, prefix: str, big_endian: bool,
                 device, source: str):
        super().__init__(file)
        self._archive, self._prefix, self._big_endian = archive, prefix, big_endian
        self._device, self._source = device, source
        self._storages: dict[str, _Storage] = {}
        self.unsupported: list[_Unsupported] = []
        self._allowed = self._allowed_globals()

    # -- globals -------------------------------------------------------------
    def _allowed_globals(self) -> dict[str, Any]:
        g = _Global
        allowed: dict[str, Any] = {
            "collections.OrderedDict": g("collections.OrderedDict", self._ordered_dict),
            "torch._utils._rebuild_tensor": g("torch._utils._rebuild_tensor",
                                              self._rebuild_tensor),
            "torch._utils._rebuild_tensor_v2": g("torch._utils._rebuild_tensor_v2",
                                                 self._rebuild_tensor_v2),
            "torch._utils._rebuild_tensor_v3": g("torch._utils._rebuild_tensor_v3",
                                                 self._rebuild_tensor_v3),
            "torch._utils._rebuild_parameter": g("torch._utils._rebuild_parameter",
                                                 self._rebuild_parameter),
            "torch._utils._rebuild_parameter_with_state": g(
                "torch._utils._rebuild_parameter_with_state", self._rebuild_parameter),
            "torch._tensor._rebuild_from_type_v2": g("torch._tensor._rebuild_from_type_v2",
                                                     self._rebuild_from_type_v2),
            "torch.Size": g("torch.Size", _size),
            "torch.device": g("torch.device", _device),
            "torch.Tensor": _Marker("tensor type", "Tensor"),
            "torch.nn.parameter.Parameter": _Marker("tensor type", "nn.Parameter"),
            "_codecs.encode": g("_codecs.encode", _encode),
            "builtins.set": g("builtins.set", _set),
            "builtins.frozenset": g("builtins.frozenset", _frozenset),
            "builtins.complex": g("builtins.complex", _complex),
            "builtins.bytearray": g("builtins.bytearray", _bytearray),
        }
        for name, (dtype_name, np_dtype) in _STORAGE_DTYPES.items():
            marker = _Marker("storage", name, (dtype_name, np_dtype))
            allowed[f"torch.{name}"] = marker
            if name == "UntypedStorage":
                allowed["torch.storage.UntypedStorage"] = marker
        for name, np_dtype in _TORCH_DTYPES.items():
            allowed[f"torch.{name}"] = _Marker("dtype", name, np_dtype)
        for name in _UNSUPPORTED_TORCH_DTYPES:
            allowed[f"torch.{name}"] = _Marker("dtype", name, None)
        return allowed

    def find_class(self, module, name):
        if module == "__builtin__":  # protocol-2 pickles name builtins the Python 2 way
            module = "builtins"
        full = f"{module}.{name}"
        found = self._allowed.get(full)
        if found is None:
            raise ForbiddenGlobalError(
                f"{_CALLER} refuses to load the global {full!r} from {self._source!r}: only "
                "tensors, numbers, strings, bytes, None and dicts/lists/tuples/sets of them are "
                "allowed (a pickle can run arbitrary code through globals; save a state_dict() "
                "instead of whole objects)")
        return found

    # -- storages ------------------------------------------------------------
    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"):
            raise pickle.UnpicklingError(f"{_CALLER}: unsupported persistent id {pid!r} in "
                                         f"{self._source!r}")
        _, storage_type, key, _location, numel = pid
        if not (isinstance(storage_type, _Marker) and storage_type.kind == "storage"):
            raise pickle.UnpicklingError(f"{_CALLER}: persistent id {pid!r} names no storage "
                                         "class")
        if not isinstance(key, str) or not _is_int(numel) or numel < 0:
            raise pickle.UnpicklingError(f"{_CALLER}: malformed storage record {pid!r}")
        dtype_name, np_dtype = storage_type.np_dtype
        cached = self._storages.get(key)
        if cached is not None:
            return cached
        member = f"{self._prefix}data/{key}"
        try:
            info = self._archive.getinfo(member)
        except KeyError:
            raise _Corrupt(f"the storage blob {member!r} is missing") from None
        itemsize = np.dtype(np_dtype).itemsize if np_dtype is not None else None
        if itemsize is not None and info.file_size != numel * itemsize:
            raise _Corrupt(f"the storage blob {member!r} holds {info.file_size} bytes, expected "
                           f"{numel} x {itemsize}")
        raw = self._archive.read(member) if np_dtype is not None else b""
        storage = _Storage(key, dtype_name, np_dtype, raw, self._big_endian)
        self._storages[key] = storage
        return storage

    # -- rebuild functions -----------------------------------------------------
    def _ordered_dict(self, *args):
        if args:
            raise pickle.UnpicklingError(f"{_CALLER}: OrderedDict called with arguments")
        return collections.OrderedDict()

    def _tensor(self, storage, offset, size, stride, np_dtype=None, dtype_name=None,
                metadata=None):
        if not isinstance(storage, _Storage):
            raise pickle.UnpicklingError(f"{_CALLER}: a tensor is rebuilt from {storage!r}, "
                                         "not a storage")
        if np_dtype is None and dtype_name is None:  # the storage's own dtype
            np_dtype, dtype_name = storage.np_dtype, storage.dtype_name
        if np_dtype is None or storage.np_dtype is None:
            marker = _Unsupported(dtype_name if np_dtype is None else storage.dtype_name,
                                  storage.key)
            self.unsupported.append(marker)
            return marker
        size, stride = tuple(size), tuple(stride)
        if not (_is_int(offset) and offset >= 0 and len(size) == len(stride)
                and all(_is_int(v) and v >= 0 for v in size + stride)):
            raise _Corrupt(f"storage {storage.key!r}: malformed offset/size/stride "
                           f"{offset!r}/{size!r}/{stride!r}")
        dtype = np.dtype(np_dtype).newbyteorder(">" if storage.big_endian else "<")
        if len(storage.raw) % dtype.itemsize:
            raise _Corrupt(f"storage {storage.key!r} of {len(storage.raw)} bytes does not hold "
                           f"whole {dtype_name} elements")
        flat = np.frombuffer(storage.raw, dtype=dtype)
        numel = 1
        for n in size:
            numel *= n
        if numel:
            last = offset + sum((n - 1) * s for n, s in zip(size, stride))
            if last >= flat.size:
                raise _Corrupt(f"storage {storage.key!r} has {flat.size} elements, a tensor "
                               f"reads element {last}")
            view = np.lib.stride_tricks.as_strided(
                flat[offset:], shape=size, strides=[s * dtype.itemsize for s in stride],
                writeable=False)
        else:
            view = np.empty(size, dtype=dtype)
        array = np.array(view, dtype=np.dtype(np_dtype), order="C", copy=True)
        if metadata:
            if not isinstance(metadata, dict):
                raise _Corrupt(f"storage {storage.key!r}: tensor metadata {metadata!r}")
            if metadata.get("conj"):
                array = np.conj(array)
            if metadata.get("neg"):
                array = np.negative(array)
        return _make_tensor(backend.to_device(array, self._device))

    def _rebuild_tensor(self, storage, offset, size, stride):
        return self._tensor(storage, offset, size, stride)

    def _rebuild_tensor_v2(self, storage, offset, size, stride, requires_grad=False,
                           backward_hooks=None, metadata=None):
        return self._tensor(storage, offset, size, stride, metadata=metadata)

    def _rebuild_tensor_v3(self, storage, offset, size, stride, requires_grad, backward_hooks,
                           dtype, metadata=None):
        if not (isinstance(dtype, _Marker) and dtype.kind == "dtype"):
            raise pickle.UnpicklingError(f"{_CALLER}: _rebuild_tensor_v3 got dtype {dtype!r}")
        return self._tensor(storage, offset, size, stride, np_dtype=dtype.np_dtype,
                            dtype_name=dtype.name, metadata=metadata)

    def _rebuild_parameter(self, data, requires_grad=False, backward_hooks=None, state=None):
        if not isinstance(data, (_Unsupported, Tensor)):
            raise pickle.UnpicklingError(f"{_CALLER}: a parameter wraps {type(data).__name__}")
        return data  # a plain Tensor with requires_grad=False

    def _rebuild_from_type_v2(self, func, new_type, args, state=None):
        if not (isinstance(func, _Global) and func.name.startswith("torch._utils._rebuild_")
                and isinstance(new_type, _Marker) and new_type.kind == "tensor type"
                and isinstance(args, tuple)):
            raise pickle.UnpicklingError(f"{_CALLER}: _rebuild_from_type_v2 of {func!r}, "
                                         f"{new_type!r} is not a plain tensor")
        return func(*args)  # extra Python attributes of the tensor (``state``) are dropped


def _size(*args):
    if not args:
        return ()
    if len(args) != 1 or not all(_is_int(v) for v in tuple(args[0])):
        raise pickle.UnpicklingError(f"{_CALLER}: torch.Size{args!r} is not a size")
    return tuple(args[0])


def _device(*args):
    if not (1 <= len(args) <= 2 and isinstance(args[0], str)
            and (len(args) == 1 or args[1] is None or _is_int(args[1]))):
        raise pickle.UnpicklingError(f"{_CALLER}: torch.device{args!r} is not a device")
    return args[0] if len(args) == 1 or args[1] is None else f"{args[0]}:{args[1]}"


def _encode(text="", encoding="utf-8", *rest):
    if rest or not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise pickle.UnpicklingError(f"{_CALLER}: _codecs.encode is only allowed for bytes")
    return text.encode("latin-1")


def _set(items=()):
    return set(_iterable(items))


def _frozenset(items=()):
    return frozenset(_iterable(items))


def _iterable(items):
    if not isinstance(items, (list, tuple, set, frozenset)):
        raise pickle.UnpicklingError(f"{_CALLER}: a set of {type(items).__name__}")
    return items


def _complex(real=0.0, imag=0.0):
    if not all(isinstance(v, (int, float)) for v in (real, imag)):
        raise pickle.UnpicklingError(f"{_CALLER}: complex({real!r}, {imag!r})")
    return complex(real, imag)


def _bytearray(*args):
    if not args:
        return bytearray()
    if isinstance(args[0], bytes) and len(args) == 1:
        return bytearray(args[0])
    if isinstance(args[0], str) and len(args) == 2 and args[1] in ("latin1", "latin-1"):
        return bytearray(args[0], "latin-1")
    raise pickle.UnpicklingError(f"{_CALLER}: bytearray{args!r} is not allowed")


# ----------------------------------------------------------------------------
# archive handling
# ----------------------------------------------------------------------------

def _pickle_members(names) -> list[str]:
    return [n for n in names if n == "data.pkl" or re.fullmatch(r"[^/]+/data\.pkl", n)]


def is_pytorch_checkpoint(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a zip archive with a ``data.pkl`` (``torch.save``'s format).

    Never raises for a missing or unreadable file: it answers False.

    Example:
        >>> import os, tempfile
        >>> from unigrad.io_pytorch import is_pytorch_checkpoint
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     path = os.path.join(tmp, "notes.txt")
        ...     with open(path, "w") as file:
        ...         _ = file.write("not a checkpoint")
        ...     is_pytorch_checkpoint(path)
        False
    """
    try:
        with zipfile.ZipFile(path) as archive:
            return bool(_pickle_members(archive.namelist()))
    except (OSError, zipfile.BadZipFile, ValueError, TypeError, EOFError):
        return False


def _walk(obj, parts, on_tensor, seen):
    """Call ``on_tensor(marker, parts)`` for each _Unsupported inside dicts/lists/tuples/sets."""
    if isinstance(obj, _Unsupported):
        on_tensor(obj, parts)
    elif isinstance(obj, (dict, list, tuple, set, frozenset)):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        items = obj.items() if isinstance(obj, dict) else enumerate(obj)
        for key, value in items:
            _walk(value, (*parts, key), on_tensor, seen)


def _report_unsupported(result, unsupported, source):
    def raise_for(marker, parts):
        where = "obj" + "".join(f"[{part!r}]" for part in parts)
        raise TypeError(f"{_CALLER}: the tensor {where} in {source!r} has dtype "
                        f"{marker.dtype_name}, which unigrad does not support (supported: "
                        f"{_SUPPORTED_NAMES}); convert it in PyTorch first, e.g. "
                        f"tensor.float(), and save again")

    _walk(result, (), raise_for, set())
    marker = unsupported[0]  # not reachable through containers (e.g. an attribute)
    raise TypeError(f"{_CALLER}: the tensor of storage {marker.key!r} in {source!r} has dtype "
                    f"{marker.dtype_name}, which unigrad does not support (supported: "
                    f"{_SUPPORTED_NAMES})")


def load_pytorch(path: str | os.PathLike, device=None, *, weights_only: bool = True) -> Any:
    """Load a file written by ``torch.save`` (zip format, torch >= 1.6) without PyTorch.

    Returns the saved structure (dicts, OrderedDicts, lists, tuples, sets,
    numbers, strings, bytes, None) with every tensor as a unigrad Tensor of
    the saved dtype, ``requires_grad=False``, on ``device`` (CPU by default;
    ``"cuda"`` needs CuPy). The storage location recorded in the file (for
    example ``cuda:0``) is ignored. Module and optimizer ``state_dict()``\\ s
    load, as do tensors sharing a storage and conjugated/negated views.

    Only the globals that rebuilding tensors needs are resolved; everything
    else is refused, so loading an untrusted file cannot run code.
    ``weights_only`` exists for ``torch.load`` compatibility: unigrad always
    loads this way, and ``weights_only=False`` does not allow more globals.

    Raises:
        ForbiddenGlobalError: (a ``pickle.UnpicklingError``) the pickle names
            any other global, e.g. a whole pickled ``nn.Module`` or
            ``os.system``; the message names the global.
        TypeError: a tensor's dtype is one unigrad lacks (bfloat16, uint16,
            float8, quantized, ...): the message names the dtype and where the
            tensor is (``obj['layer.weight']``); or ``path`` is not a path.
        ValueError: the file is not a valid, complete torch zip checkpoint
            (legacy pre-1.6 format, TorchScript archive, truncated or
            corrupted); the message names the path. Also for a bad ``device``.
        FileNotFoundError, IsADirectoryError: as for ``open``.

    Example:
        >>> import os, pickle, tempfile, zipfile
        >>> from unigrad.io_pytorch import load_pytorch
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     path = os.path.join(tmp, "plain.pt")
        ...     with zipfile.ZipFile(path, "w") as archive:
        ...         archive.writestr("plain/data.pkl", pickle.dumps([1, 2.5, None], 2))
        ...     load_pytorch(path, device="cpu")
        [1, 2.5, None]
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{_CALLER}: path must be a str or os.PathLike, got "
                        f"{type(path).__name__}")
    if not isinstance(weights_only, bool):
        raise TypeError(f"{_CALLER}: weights_only must be a bool, got {weights_only!r}")
    source = os.fspath(path)
    device = backend.CPU if device is None else backend.Device(device)
    if not os.path.exists(source):
        raise FileNotFoundError(errno.ENOENT, f"{_CALLER}: no such file", source)
    if os.path.isdir(source):
        raise IsADirectoryError(errno.EISDIR, f"{_CALLER}: path is a directory, expected a "
                                "checkpoint file", source)
    invalid = f"{_CALLER}: {source!r} is not a valid or complete PyTorch zip checkpoint"
    with open(source, "rb") as file:
        head = file.read(64)
    if not head.startswith(b"PK"):
        if head.startswith(b"\x80") and _LEGACY_MAGIC in head[:32]:
            raise ValueError(f"{_CALLER}: {source!r} is in PyTorch's legacy (pre-1.6, non-zip) "
                             "format, which is not supported; re-save it with PyTorch: "
                             "torch.save(torch.load(path), path) (the zip format is the "
                             "default since torch 1.6)")
        raise ValueError(f"{invalid}: it is not a zip archive" if head else f"{invalid}: the "
                         "file is empty")
    try:
        with zipfile.ZipFile(source) as archive:
            names = archive.namelist()
            members = _pickle_members(names)
            if not members:
                if any(n.endswith("constants.pkl") for n in names):
                    raise _Corrupt("it is a TorchScript archive (torch.jit.save), which is not "
                                   "supported; save the model's state_dict() with torch.save")
                raise _Corrupt("it has no data.pkl")
            if len(members) > 1:
                raise _Corrupt(f"it has several pickles {members}")
            prefix = members[0][: -len("data.pkl")]
            big_endian = False
            if f"{prefix}byteorder" in names:
                order = archive.read(f"{prefix}byteorder").decode("ascii", "replace").strip()
                if order not in ("little", "big"):
                    raise _Corrupt(f"its byteorder record is {order!r}")
                big_endian = order == "big"
            data = archive.read(members[0])
            unpickler = _Unpickler(io.BytesIO(data), archive, prefix, big_endian, device,
                                   source)
            result = unpickler.load()
    except ForbiddenGlobalError:
        raise
    except _Corrupt as error:
        raise ValueError(f"{invalid}: {error}") from error
    except (zipfile.BadZipFile, zipfile.LargeZipFile, pickle.UnpicklingError, EOFError,
            OSError, ValueError, TypeError, KeyError, IndexError, AttributeError,
            RecursionError, MemoryError, UnicodeDecodeError, NotImplementedError,
            zlib.error) as error:
        if isinstance(error, (FileNotFoundError, IsADirectoryError, PermissionError)):
            raise
        raise ValueError(f"{invalid}: {type(error).__name__}: {error}") from error
    if unpickler.unsupported:
        _report_unsupported(result, unpickler.unsupported, source)
    return result
