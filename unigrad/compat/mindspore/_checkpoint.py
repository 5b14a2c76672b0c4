"""MindSpore checkpoints: ``save_checkpoint``, ``load_checkpoint``, ``load_param_into_net``.

A ``.ckpt`` file is MindSpore's protobuf ``Checkpoint`` message (its
``checkpoint.proto``)::

    message Checkpoint { repeated Value value = 1; }
    message Value { required string tag = 1; optional TensorProto tensor = 2; }
    message TensorProto { repeated int64 dims = 1; required string tensor_type = 2;
                          required bytes tensor_content = 3; }

``tag`` is the parameter's name, ``tensor_type`` MindSpore's dtype name
(``Float32``) and ``tensor_content`` the C-order little-endian bytes. The wire
format (varints and length-delimited fields) is encoded and decoded here, so
files are exchanged with the real MindSpore in both directions.

Example:
    >>> import os, tempfile
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> net = nn.Dense(2, 1)
    >>> path = os.path.join(tempfile.mkdtemp(), "dense.ckpt")
    >>> ms.save_checkpoint(net, path)
    >>> ms.load_checkpoint(path)
    {'weight': Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), \
'bias': Parameter (name=bias, shape=(1,), dtype=Float32, requires_grad=True)}
    >>> ms.load_param_into_net(nn.Dense(2, 1), ms.load_checkpoint(path))
    ([], [])
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator

import numpy as np

from ... import backend
from ... import nn as _ugnn
from ...tensor import Tensor as _UgTensor
from ._tensor import Parameter, Tensor
from .dtype import _BY_NUMPY

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]

_VARINT, _FIXED64, _LENGTH_DELIMITED, _FIXED32 = 0, 1, 2, 5
_NUMPY_OF_NAME = {str(ms_type): numpy_dtype for numpy_dtype, ms_type in _BY_NUMPY.items()}
_STRING_TYPE = "str"  # MindSpore stores ``append_dict`` strings as UTF-32 text of this type
_EXTENSION = ".ckpt"


class _CorruptedError(Exception):
    """The bytes are not a well-formed ``Checkpoint`` message."""


# ----------------------------------------------------------------- protobuf wire format

def _encode_varint(value: int) -> bytes:
    """Protobuf's base-128 varint; negative int64 values take ten bytes (two's complement)."""
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _decode_varint(data: bytes, position: int) -> tuple[int, int]:
    """The varint at ``position`` and the position after it."""
    result = shift = 0
    while True:
        if position >= len(data) or shift > 63:
            raise _CorruptedError("truncated varint")
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, position


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited field (strings, bytes, messages)."""
    return (_encode_varint(number << 3 | _LENGTH_DELIMITED) + _encode_varint(len(payload))
            + payload)


def _fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """``(field number, value)`` of each field of a message: an int for varints, bytes for
    length-delimited fields (fixed-width fields are skipped)."""
    position = 0
    while position < len(data):
        key, position = _decode_varint(data, position)
        number, wire_type = key >> 3, key & 7
        if number == 0:
            raise _CorruptedError("field number 0")
        if wire_type == _VARINT:
            value, position = _decode_varint(data, position)
            yield number, value
        elif wire_type == _LENGTH_DELIMITED:
            length, position = _decode_varint(data, position)
            if position + length > len(data):
                raise _CorruptedError("truncated field")
            yield number, data[position:position + length]
            position += length
        elif wire_type in (_FIXED64, _FIXED32):
            position += 8 if wire_type == _FIXED64 else 4
            if position > len(data):
                raise _CorruptedError("truncated fixed field")
        else:
            raise _CorruptedError(f"wire type {wire_type}")


# ------------------------------------------------------------------ tensors <-> messages

def _dims(shape: tuple) -> bytes:
    """The repeated ``dims`` field (not packed, as MindSpore writes it)."""
    return b"".join(_encode_varint(1 << 3 | _VARINT) + _encode_varint(size) for size in shape)


def _tensor_message(array: np.ndarray) -> bytes:
    """A ``TensorProto``: dims, MindSpore's dtype name and the little-endian bytes."""
    if array.dtype.kind == "U":  # MindSpore's text entry: one dim of 0, UTF-32 content
        return (_dims((0,)) + _field(2, _STRING_TYPE.encode())
                + _field(3, array.astype(array.dtype.newbyteorder("<")).tobytes()))
    dims = _dims(array.shape)
    content = np.ascontiguousarray(array, array.dtype.newbyteorder("<")).tobytes()
    return dims + _field(2, str(_BY_NUMPY[array.dtype]).encode()) + _field(3, content)


def _decode_tensor(message: bytes):
    """The array (or ``str``, for a string entry) of a ``TensorProto``."""
    dims, type_name, content = [], None, b""
    for number, value in _fields(message):
        if number == 1 and isinstance(value, int):
            dims.append(value - (1 << 64) if value >= 1 << 63 else value)
        elif number == 2 and isinstance(value, bytes):
            type_name = value.decode("utf-8", "strict")
        elif number == 3 and isinstance(value, bytes):
            content = value
    if type_name == _STRING_TYPE:
        if len(content) % 4:
            raise _CorruptedError("string content")
        return "".join(np.frombuffer(content, "<U1").tolist())
    if type_name not in _NUMPY_OF_NAME or any(size < 0 for size in dims):
        raise _CorruptedError(f"tensor type {type_name!r}")
    dtype = np.dtype(_NUMPY_OF_NAME[type_name]).newbyteorder("<")
    if len(content) != int(np.prod(dims, dtype=np.int64)) * dtype.itemsize:
        raise _CorruptedError("tensor content size")
    return np.frombuffer(content, dtype).astype(dtype.newbyteorder("="), copy=True).reshape(dims)


def _decode_checkpoint(data: bytes) -> dict:
    """``{tag: array or str}`` of a ``Checkpoint`` message, in file order."""
    entries = {}
    for number, value in _fields(data):
        if number != 1 or not isinstance(value, bytes):
            raise _CorruptedError("not a Checkpoint message")
        tag, tensor = None, None
        for inner_number, inner_value in _fields(value):
            if inner_number == 1 and isinstance(inner_value, bytes):
                tag = inner_value.decode("utf-8", "strict")
            elif inner_number == 2 and isinstance(inner_value, bytes):
                tensor = _decode_tensor(inner_value)
        if tag is None or tensor is None:
            raise _CorruptedError("Value without tag or tensor")
        entries[tag] = tensor
    return entries


def _encode_checkpoint(entries: list[tuple[str, np.ndarray]]) -> bytes:
    return b"".join(_field(1, _field(1, name.encode()) + _field(2, _tensor_message(array)))
                    for name, array in entries)


# -------------------------------------------------------------------------------- save

def _entries_of_cell(cell: _ugnn.Cell) -> list[tuple[str, object]]:
    return [(param.name, param) for param in _ugnn.Cell.parameters(cell)]


def _entries_of_list(items: list) -> list[tuple[str, object]]:
    """A list of Parameters, or (decided by its first item, as MindSpore) of
    ``{"name": ..., "data": ...}`` dicts."""
    if items and isinstance(items[0], _ugnn.Parameter):
        for item in items:
            if not isinstance(item, _ugnn.Parameter):
                raise TypeError(f"For save_checkpoint, when save_obj is made up by list of "
                                f"Parameter,the param should be parameter, but got {type(item)}")
        return [(item.name, item) for item in items]
    for item in items:
        if not isinstance(item, dict) or "name" not in item or "data" not in item:
            raise TypeError(f"For save_checkpoint, save_obj should be a list of dict items, and "
                            f"the dict should have key values 'name' and 'value', but got "
                            f"{type(item)} and {item}.")
    return [(item["name"], item["data"]) for item in items]


def _entries_of_dict(items: dict) -> list[tuple[str, object]]:
    for key, value in items.items():
        if not isinstance(key, str) or not isinstance(value, (_ugnn.Parameter, np.ndarray, str)):
            raise TypeError(f"For save_checkpoint, when save_obj is made up by dict, the key "
                            f"should be str andvalue should be Parameter, but got the type of "
                            f"key is {type(key)} andthe type of value is {type(value)}")
    return list(items.items())


def _entries(save_obj) -> list[tuple[str, object]]:
    """``(name, value)`` pairs of a Cell, a list of Parameters or ``{"name", "data"}`` dicts,
    or a dict ``{name: Parameter}``."""
    if isinstance(save_obj, _ugnn.Cell):
        return _entries_of_cell(save_obj)
    if isinstance(save_obj, list):
        return _entries_of_list(save_obj)
    if isinstance(save_obj, dict):
        return _entries_of_dict(save_obj)
    raise TypeError(f"For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or "
                    f"dict, but got {type(save_obj)}.")


def _as_array(name: str, value) -> np.ndarray:
    """The array saved for ``value``: Tensors as they are, ``bool``/``int``/``float``
    as MindSpore's Bool/Int64/Float32 scalars, ``str`` as text."""
    if isinstance(value, str):
        return np.array(value)
    if isinstance(value, _UgTensor):
        array = backend.to_numpy(value._data)
    elif isinstance(value, np.ndarray):
        array = value
    elif isinstance(value, (bool, int, float)):
        array = np.array(value, np.float32 if isinstance(value, float) else None)
    else:
        raise TypeError(f"For 'save_checkpoint', the value of '{name}' must be a Tensor, a "
                        f"Parameter, a number or a str, but got {type(value)}.")
    if array.dtype not in _BY_NUMPY:
        raise TypeError(f"For 'save_checkpoint', the dtype {array.dtype} of '{name}' cannot be "
                        f"saved in a checkpoint.")
    return array


def _check_unsupported(owner: str, **options) -> None:
    """Options of MindSpore that this front-end does not implement must keep their defaults."""
    defaults = {"enc_key": None, "dec_key": None, "async_save": False, "crc_check": False,
                "remove_redundancy": False, "format": "ckpt"}
    for name, value in options.items():
        if value != defaults[name]:
            raise NotImplementedError(f"For '{owner}', '{name}'={value!r} is not supported by "
                                      f"unigrad (only {defaults[name]!r}).")


def _file_name(owner: str, ckpt_file_name) -> str:
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For '{owner}', the argument 'ckpt_file_name' must be string, but got "
                        f"{type(ckpt_file_name)}.")
    return os.path.abspath(ckpt_file_name)


def save_checkpoint(save_obj, ckpt_file_name: str, integrated_save: bool = True,
                    async_save: bool = False, append_dict: dict | None = None, enc_key=None,
                    enc_mode: str = "AES-GCM", choice_func: Callable | None = None,
                    crc_check: bool = False, format: str = "ckpt", **kwargs) -> None:
    """Write ``save_obj`` (a Cell, a list of Parameters or of ``{"name": ..., "data": ...}``
    dicts, or a dict of Parameters) to ``ckpt_file_name`` (``.ckpt`` appended if missing),
    followed by the ``append_dict`` entries; ``choice_func(name)`` keeps a parameter when
    True. As MindSpore, the file is made read-only.

    Example:
        >>> import os, tempfile
        >>> import unigrad.compat.mindspore as ms
        >>> path = os.path.join(tempfile.mkdtemp(), "values")
        >>> ms.save_checkpoint([{"name": "w", "data": ms.Tensor([1.0, 2.0])}], path,
        ...                    append_dict={"lr": 0.5})
        >>> ms.load_checkpoint(path + ".ckpt")
        {'w': Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True), \
'lr': Parameter (name=lr, shape=(), dtype=Float32, requires_grad=True)}
    """
    _check_unsupported("save_checkpoint", enc_key=enc_key, async_save=async_save,
                       crc_check=crc_check, format=format)
    path = _file_name("save_checkpoint", ckpt_file_name)
    if not path.endswith(_EXTENSION):
        path += _EXTENSION
    if append_dict is not None and not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', the type of 'append_dict' must be dict, but "
                        f"got {type(append_dict)}.")
    entries = [(name, value) for name, value in _entries(save_obj)
               if choice_func is None or choice_func(name)]
    entries += list((append_dict or {}).items())
    payload = _encode_checkpoint([(name, _as_array(name, value)) for name, value in entries])
    _write_read_only(path, payload)


def _write_read_only(path: str, payload: bytes) -> None:
    """Replace ``path`` by ``payload`` and make it read-only for its owner (MindSpore)."""
    if os.path.exists(path):
        os.chmod(path, stat.S_IWUSR)
        os.remove(path)
    with open(path, "wb") as handle:
        handle.write(payload)
    os.chmod(path, stat.S_IRUSR)


# -------------------------------------------------------------------------------- load

def _read_checkpoint(path: str) -> dict:
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        return _decode_checkpoint(data)
    except (_CorruptedError, UnicodeDecodeError) as error:
        raise ValueError(f"Failed to read the checkpoint file {path}. The file may be "
                         f"corrupted, and the content cannot be parsed.") from error


def _prefixes(name: str, prefix) -> tuple[str, ...]:
    """``filter_prefix``/``specify_prefix`` as a tuple of strings (None: empty)."""
    if prefix is None:
        return ()
    values = (prefix,) if isinstance(prefix, str) else prefix
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
        raise TypeError(f"For 'load_checkpoint', the type of '{name}' must be string, list[string] "
                        f"or tuple[string] when '{name}' is not None, but got {type(prefix)}.")
    return tuple(values)


def _kept(name: str, filters: tuple, specified: tuple, choice_func) -> bool:
    if filters and name.startswith(filters):
        return False
    if specified and not name.startswith(specified):
        return False
    return choice_func is None or bool(choice_func(name))


def load_checkpoint(ckpt_file_name: str, net=None, strict_load: bool = False,
                    filter_prefix=None, dec_key=None, dec_mode: str = "AES-GCM",
                    specify_prefix=None, choice_func: Callable | None = None,
                    crc_check: bool = False, remove_redundancy: bool = False,
                    format: str = "ckpt") -> dict:
    """``{name: Parameter}`` of a ``.ckpt`` file (string entries stay ``str``), without the
    names starting with ``filter_prefix``, only those starting with ``specify_prefix`` and
    those ``choice_func`` accepts; loaded into ``net`` too when given. A missing, misnamed or
    corrupted file raises ``ValueError``.

    Example:
        >>> import os, tempfile
        >>> import unigrad.compat.mindspore as ms
        >>> path = os.path.join(tempfile.mkdtemp(), "net.ckpt")
        >>> ms.save_checkpoint([{"name": "a.w", "data": ms.Tensor([1.0])},
        ...                     {"name": "b.w", "data": ms.Tensor([2.0])}], path)
        >>> ms.load_checkpoint(path, filter_prefix="a.")
        {'b.w': Parameter (name=b.w, shape=(1,), dtype=Float32, requires_grad=True)}
    """
    _check_unsupported("load_checkpoint", dec_key=dec_key, crc_check=crc_check,
                       remove_redundancy=remove_redundancy, format=format)
    path = _file_name("load_checkpoint", ckpt_file_name)
    if not path.endswith(_EXTENSION):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file format must same with "
                         f"'format', but got file_name:'{ckpt_file_name}', format:'{format}'")
    if not os.path.exists(path):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file: {path} does not exist, "
                         f"please check whether the 'ckpt_file_name' is correct.")
    filters = _prefixes("filter_prefix", filter_prefix)
    specified = _prefixes("specify_prefix", specify_prefix)
    parameters = {name: value if isinstance(value, str) else Parameter(Tensor(value), name)
                  for name, value in _read_checkpoint(path).items()
                  if _kept(name, filters, specified, choice_func)}
    if not parameters:
        raise ValueError("The loaded parameter dict is empty after filter or specify, please "
                         "check whether 'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, parameters, strict_load)
    return parameters


def _check_load_arguments(net, parameter_dict, strict_load) -> None:
    if not isinstance(net, _ugnn.Cell):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got "
                        f"{type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"For 'load_param_into_net', the argument 'parameter_dict' should be a "
                        f"dict, but got {type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (_ugnn.Parameter, str)):
            raise TypeError(f"For 'parameter_dict', the element in the argument 'parameter_dict' "
                            f"should be a 'str' and 'Parameter' , but got {type(key)} and "
                            f"{type(value)}.")
    if not isinstance(strict_load, bool):
        raise TypeError(f"For 'load_param_into_net', the argument 'strict_load' must be bool, but "
                        f"got {type(strict_load)}.")


def _same_kind(first: np.dtype, second: np.dtype) -> bool:
    """Both floating or both signed integers: MindSpore converts between them."""
    return {first.kind, second.kind} in ({"f"}, {"i"})


def _new_value(param, new_param, strict_load: bool) -> np.ndarray:
    """The value ``param`` takes from ``new_param``; ``RuntimeError`` if the shapes differ, or
    the dtypes differ and cannot be converted."""
    if param.shape != new_param.shape:
        raise RuntimeError(
            f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same "
            f"shape as {param.name} in the argument 'parameter_dict'. But got its shape "
            f"{param.shape} in the argument 'net' and shape {new_param.shape} in the argument "
            f"'parameter_dict'.May you need to check whether the checkpoint you loaded is correct "
            f"or the batch size and so on in the 'net' and 'parameter_dict' are same.")
    value = backend.to_numpy(new_param._data)
    target = backend.to_numpy_dtype(param.dtype)
    if value.dtype == target:
        return value.copy()
    if strict_load or not _same_kind(value.dtype, np.dtype(target)):
        raise RuntimeError(
            f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same "
            f"type as {param.name} in the argument 'parameter_dict'. but got its type "
            f"{param.dtype} in the argument 'net' and type {new_param.dtype} in the argument "
            f"'parameter_dict'.May you need to check whether the checkpoint you loaded is "
            f"correct.")
    return value.astype(target)


def _matching_prefix(parameter_dict: dict, missing: list[str]) -> str | None:
    """The prefix that the checkpoint's names carry over the net's (``'net.'`` when the net's
    ``w`` is saved as ``net.w``), as MindSpore's non-strict loading finds it."""
    for name in missing:
        for saved in parameter_dict:
            if saved != name and saved.endswith(name):
                return saved[:-len(name)]
    return None


def load_param_into_net(net, parameter_dict: dict, strict_load: bool = False,
                        remove_redundancy: bool = False) -> tuple[list, list]:
    """Set ``net``'s Parameters from ``parameter_dict`` (``{name: Parameter}``), matched by
    Parameter name; returns ``(param_not_load, ckpt_not_load)``: the net's names left
    unset and the dict's names unused. With ``strict_load=False``, float (or integer)
    values of another width are converted, and a prefix the saved names carry is ignored.
    Every value is checked before any is set: on error nothing changes.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> net = nn.Dense(2, 1)
        >>> weight = ms.Parameter(ms.Tensor([[1.0, 2.0]]), name="weight")
        >>> ms.load_param_into_net(net, {"weight": weight, "step": ms.Parameter(1.0, name="step")})
        (['bias'], ['step'])
        >>> net.weight.asnumpy()
        array([[1., 2.]], dtype=float32)
    """
    _check_load_arguments(net, parameter_dict, strict_load)
    _check_unsupported("load_param_into_net", remove_redundancy=remove_redundancy)
    params = list(_ugnn.Cell.parameters(net))
    ckpt_not_load = list(parameter_dict)
    sources = {param.name: param.name for param in params
               if isinstance(parameter_dict.get(param.name), _ugnn.Parameter)}
    prefix = None
    if not strict_load and len(sources) < len(params):
        prefix = _matching_prefix(parameter_dict, [p.name for p in params
                                                   if p.name not in sources])
    for param in params:
        if param.name not in sources and prefix is not None \
                and prefix + param.name in parameter_dict:
            sources[param.name] = prefix + param.name
    values = [(param, _new_value(param, parameter_dict[sources[param.name]], strict_load))
              for param in params if param.name in sources]
    for param, value in values:
        param.set_data(Tensor(value))
    for param in params:
        if sources.get(param.name) == param.name:
            ckpt_not_load.remove(param.name)
    return [param.name for param in params if param.name not in sources], ckpt_not_load
