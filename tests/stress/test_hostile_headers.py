"""Hostile safetensors headers: ug.load answers a ValueError (TypeError for a dtype unigrad
lacks) naming the file, before allocating anything, never a crash, RecursionError,
MemoryError or raw OSError."""

from __future__ import annotations

import json
import os
import tracemalloc

import pytest

import unigrad as ug
from unigrad.io import load, save

pytestmark = pytest.mark.stress

safetensors = pytest.importorskip("safetensors")
st_numpy = pytest.importorskip("safetensors.numpy")

INVALID = "is not a valid or complete unigrad/safetensors checkpoint"


@pytest.fixture
def ckpt(tmp_path):
    """A checkpoint path in a fresh temporary directory."""
    return tmp_path / "ckpt.safetensors"


def entry(dtype="U8", shape=(1,), offsets=(0, 1)) -> dict:
    return {"dtype": dtype, "shape": list(shape), "data_offsets": list(offsets)}


def write(path, header, data: bytes = b"", length: int | None = None) -> None:
    """A safetensors file from a header (a dict, or raw bytes) and a data region."""
    text = header if isinstance(header, bytes) else json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    prefix = (len(text) if length is None else length).to_bytes(8, "little")
    path.write_bytes(prefix + text + data)


def assert_rejected(path, reason: str, error_type=ValueError) -> None:
    tracemalloc.start()
    try:
        with pytest.raises(error_type) as info:
            load(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert str(path) in message, message
    assert reason in message, message
    assert peak < 16 * 2**20  # nothing sized by the header was allocated


@pytest.mark.parametrize("table, data, reason", [
    ({"a": entry(offsets=(0, 1))}, b"", "past the end of the data (0 bytes)"),
    ({"a": entry(shape=(4,), offsets=(0, 4))}, b"\0" * 2, "past the end of the data"),
    ({"a": entry(shape=(2,), offsets=(0, 2)), "b": entry(shape=(2,), offsets=(1, 3))},
     b"\0" * 3, "overlap another tensor's"),
    ({"a": entry(offsets=(1, 2))}, b"\0" * 2, "leave a gap before"),
    ({"a": entry()}, b"\0" * 9, "its tensors cover 1 bytes but the data region holds 9"),
    ({"a": entry(dtype="F32", shape=(3,), offsets=(0, 8))}, b"\0" * 8,
     "needs 12 bytes, but its data offsets [0, 8] span 8"),
    ({"a": entry(dtype="F64", shape=(2**40, 2**40), offsets=(0, 8))}, b"\0" * 8,
     "needs 9671406556917033397649408 bytes"),
    ({"a": entry(dtype="F64", shape=(2**62,), offsets=(0, 2**65))}, b"\0" * 8,
     "past the end of the data"),
    ({"a": entry(dtype="Q32")}, b"\0", "unknown dtype 'Q32'"),
    ({"a": entry(dtype=5)}, b"\0", "unknown dtype 5"),
    ({"a": entry(shape=(-1,))}, b"\0", "invalid shape [-1]"),
    ({"a": entry(shape=(1.0,))}, b"\0", "invalid shape [1.0]"),
    ({"a": entry(shape=(True,))}, b"\0", "invalid shape [True]"),
    ({"a": {**entry(), "shape": "1"}}, b"\0", "invalid shape '1'"),
    ({"a": entry(offsets=(0, 1, 2))}, b"\0", "invalid data offsets [0, 1, 2]"),
    ({"a": entry(offsets=(1, 0))}, b"\0", "invalid data offsets [1, 0]"),
    ({"a": {"dtype": "U8", "shape": [1]}}, b"\0", "is not {dtype, shape, data_offsets}"),
    ({"a": [1]}, b"", "is not {dtype, shape, data_offsets}"),
    ({"__metadata__": {"k": 1}}, b"", "__metadata__ is not an object of string values"),
    ({"__metadata__": {"k": None}}, b"", "__metadata__ is not an object of string values"),
    ({"__metadata__": ["k"]}, b"", "__metadata__ is not an object of string values"),
    ({"__metadata__": {"unigrad": {"format": "unigrad"}}}, b"",
     "__metadata__ is not an object of string values"),
])
def test_malformed_tensor_tables_are_value_errors(ckpt, table, data, reason):
    write(ckpt, table, data)
    assert_rejected(ckpt, reason)


def test_unsupported_dtypes_are_type_errors_naming_tensor_and_file(ckpt):
    write(ckpt, {"a": entry(dtype="BF16", shape=(2,), offsets=(0, 4))}, b"\0" * 4)
    assert_rejected(ckpt, "tensor 'a'", TypeError)
    write(ckpt, {"a": entry(dtype="F4", shape=(2,), offsets=(0, 1))}, b"\0")
    assert_rejected(ckpt, "has dtype F4, which unigrad does not support", TypeError)


@pytest.mark.parametrize("header, length, reason", [
    (b'{"a":1}', 2**20, "its header length 1048576 is larger than the file"),
    (b'{}', 2**63 + 5, "is larger than the file"),
    (b'{"\xff\xfe":1}', None, "its header is not UTF-8"),
    (b'{"a":', None, "its header is not valid JSON"),
    (b'{"a":NaN}', None, "non-JSON constant NaN"),
    (b'{"a":{"dtype":"U8","shape":[' + b"9" * 5000 + b'],"data_offsets":[0,1]}}', None,
     "Exceeds the limit (4300 digits)"),
    (b'[' * 200_000 + b']' * 200_000, None, "its header nests too deeply"),
    (b'{"a":' * 100_000 + b'1' + b'}' * 100_000, None, "its header nests too deeply"),
    (b'[]', None, "its header is a JSON list, not an object"),
    (b'"text"', None, "its header is a JSON str, not an object"),
])
def test_malformed_header_bytes_are_value_errors(ckpt, header, length, reason):
    write(ckpt, header, length=length)
    assert_rejected(ckpt, reason)


def test_files_shorter_than_the_length_prefix(ckpt):
    for size in range(8):
        ckpt.write_bytes(b"\x10" * size)
        assert_rejected(ckpt, f"it has {size} bytes, fewer than the 8-byte header length")


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("metadata, where", [
    ({"unigrad": DEEP}, "unigrad metadata"),
    ({"unigrad": '{"format":"unigrad","version":1,"tree":' + "[" * 5000 + "]" * 5000 + "}"},
     "unigrad metadata"),
    ({"unigrad": "{}", "unigrad.checksums": DEEP}, "checksum entry"),
])
def test_deep_json_inside_the_metadata_is_a_value_error(ckpt, metadata, where):
    st_numpy.save_file({}, os.fspath(ckpt), metadata=metadata)
    assert_rejected(ckpt, f"its {where} nests too deeply")


def test_deep_version_1_trees_decode_without_recursion(ckpt):
    tree = "[" * 600 + "]" * 600  # the JSON parser copes; a recursive decoder would not
    document = '{"format":"unigrad","version":1,"tree":' + tree + "}"
    st_numpy.save_file({}, os.fspath(ckpt), metadata={"unigrad": document})
    value = load(ckpt)
    depth = 0
    while value:
        value, depth = value[0], depth + 1
    assert depth == 599 and value == []


@pytest.mark.parametrize("header", [
    b'{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},'
    b'"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}',
    b'{"__metadata__":{"unigrad":"1","unigrad":"2"}}',
])
def test_duplicate_keys_are_value_errors(ckpt, header):
    write(ckpt, header, b"\0")
    assert_rejected(ckpt, "twice")


def test_every_truncation_of_a_real_checkpoint_is_a_value_error(ckpt):
    save({"w": ug.tensor([1.0, 2.0]), "opt": {"betas": (0.9, 0.99)}}, ckpt)
    full = ckpt.read_bytes()
    for length in range(0, len(full), 3):
        ckpt.write_bytes(full[:length])
        with pytest.raises(ValueError, match=INVALID):
            load(ckpt)
