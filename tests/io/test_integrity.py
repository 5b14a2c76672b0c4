"""Checkpoint integrity: checksums, strict headers, the streamed layout, deep nesting,
stale temporary files and paths that are not regular files."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tracemalloc
import zlib
from collections import OrderedDict

import numpy as np
import pytest

import unigrad as ug
import unigrad.io as unigrad_io
from unigrad.io import load, save

from .helpers import assert_bit_exact

safetensors = pytest.importorskip("safetensors")
st_numpy = pytest.importorskip("safetensors.numpy")

INVALID = "is not a valid or complete unigrad/safetensors checkpoint"


def split(data: bytes) -> tuple[dict, bytes]:
    """A safetensors file's parsed header and its data region."""
    length = int.from_bytes(data[:8], "little")
    return json.loads(data[8:8 + length]), data[8 + length:]


def load_error(path, **kwargs) -> str:
    with pytest.raises(ValueError) as info:
        load(path, **kwargs)
    message = str(info.value)
    assert message.startswith(f"ug.load: {str(path)!r} {INVALID}: "), message
    return message


def mixed_state(rng) -> dict:
    return OrderedDict([
        ("fc.weight", ug.tensor(rng.standard_normal((3, 4)))),
        ("fc.bias", ug.tensor(rng.standard_normal(4).astype(np.float32))),
        ("steps", ug.tensor(np.arange(5, dtype=np.int16))),
        ("mask", ug.tensor(np.array([True, False, True]))),
        ("scale", ug.tensor(np.float16(1.5))),
        ("codes", ug.tensor(np.arange(7, dtype=np.uint8))),
        ("counts", ug.tensor(np.arange(3, dtype=np.int64))),
        ("empty", ug.zeros(0, 2)),
        ("z", ug.tensor(np.array([1 + 2j, -3j], np.complex64))),
    ])


# ------------------------------------------------------------ byte compatibility

def test_streamed_file_matches_what_safetensors_writes(ckpt, rng):
    state = mixed_state(rng)
    save(state, ckpt)
    ours, our_data = split(ckpt.read_bytes())
    stored = {name: state[name].numpy() for name in state if name != "z"}
    stored["z"] = np.stack((state["z"].numpy().real, state["z"].numpy().imag), axis=-1)
    theirs, their_data = split(st_numpy.save(stored))
    metadata = ours.pop("__metadata__")
    assert list(ours.items()) == list(theirs.items())  # same entries, order and offsets
    assert our_data == their_data
    assert sorted(metadata) == ["unigrad", "unigrad.checksums"]
    length = int.from_bytes(ckpt.read_bytes()[:8], "little")
    assert length % 8 == 0
    for name, array in st_numpy.load_file(os.fspath(ckpt)).items():
        np.testing.assert_array_equal(array, stored[name])
        assert array.dtype == stored[name].dtype
    with safetensors.safe_open(os.fspath(ckpt), framework="np") as file:
        assert sorted(file.keys()) == sorted(stored)


def test_checksums_are_the_crc32_of_each_tensors_bytes(ckpt, rng):
    state = mixed_state(rng)
    save(state, ckpt)
    header, data = split(ckpt.read_bytes())
    checksums = json.loads(header["__metadata__"]["unigrad.checksums"])
    assert checksums["algorithm"] == "crc32"
    for name, entry in header.items():
        if name != "__metadata__":
            begin, end = entry["data_offsets"]
            assert checksums["tensors"][name] == f"{zlib.crc32(data[begin:end]):08x}"


def test_non_contiguous_big_endian_and_complex_tensors_round_trip(ckpt, rng):
    base = rng.standard_normal((4, 6))
    obj = {"t": ug.tensor(base).t(), "big": base.astype(">f8")[::2],
           "c": ug.tensor((base + 1j * base).astype(np.complex128))[:, ::3]}
    save(obj, ckpt)
    loaded = load(ckpt)
    assert_bit_exact(loaded["t"], base.T)
    assert_bit_exact(loaded["big"], base[::2])
    np.testing.assert_array_equal(loaded["c"].numpy(), (base + 1j * base)[:, ::3])


# ------------------------------------------------------------------ checksums

def test_a_flipped_data_byte_names_the_tensor_and_the_file(ckpt):
    save({"w": ug.tensor([1.0, 2.0]), "b": ug.tensor([3.0]), "epoch": 7}, ckpt)
    data = bytearray(ckpt.read_bytes())
    header, _ = split(bytes(data))
    begin = 8 + int.from_bytes(data[:8], "little") + header["w"]["data_offsets"][0]
    data[begin + 6] ^= 0x10
    ckpt.write_bytes(data)
    message = load_error(ckpt)
    assert "the bytes of tensor 'w' do not match their checksum" in message
    assert "'b'" not in message
    unchecked = load(ckpt, verify=False)
    assert unchecked["w"].tolist() != [1.0, 2.0] and unchecked["b"].tolist() == [3.0]


def test_a_changed_number_in_the_structure_is_a_header_error(ckpt):
    save({"w": ug.tensor([1.0]), "epoch": 7}, ckpt)
    data = ckpt.read_bytes()
    assert data.count(b'\\"epoch\\",7') == 1
    ckpt.write_bytes(data.replace(b'\\"epoch\\",7', b'\\"epoch\\",5'))
    message = load_error(ckpt)
    assert "its header (metadata or tensor table) does not match its checksum" in message
    assert load(ckpt, verify=False)["epoch"] == 5


def test_a_changed_dtype_or_shape_in_the_table_is_a_header_error(ckpt):
    save({"a": ug.tensor([1, 2], dtype=ug.uint8), "m": ug.ones(2, 3)}, ckpt)
    data = ckpt.read_bytes()
    for old, new in [(b'"dtype":"U8"', b'"dtype":"I8"'), (b'"shape":[2,3]', b'"shape":[3,2]')]:
        assert data.count(old) == 1
        ckpt.write_bytes(data.replace(old, new))
        assert "its header (metadata or tensor table)" in load_error(ckpt)


def test_removed_or_renamed_checksum_entry_is_detected(ckpt):
    save({"w": ug.tensor([1.0])}, ckpt)
    data = ckpt.read_bytes()
    ckpt.write_bytes(data.replace(b'"unigrad.checksums"', b'"unigrad.checksumz"'))
    assert "lacks the 'unigrad.checksums' entry" in load_error(ckpt)
    assert load(ckpt, verify=False)["w"].tolist() == [1.0]
    ckpt.write_bytes(data.replace(b'"unigrad":', b'"unigrab":'))
    assert "has the 'unigrad.checksums' entry but no 'unigrad' metadata" in load_error(ckpt)


@pytest.mark.parametrize("checksums, reason", [
    ('{"algorithm":"sha1","header":"00000000","tensors":{}}', "checksum entry is malformed"),
    ('{"algorithm":"crc32","header":"0000000","tensors":{}}', "checksum entry is malformed"),
    ('{"algorithm":"crc32","header":"HEADER","tensors":{}}', "do not list the same tensors"),
    ('{"algorithm":"crc32","header":"HEADER","tensors":{"w":"00000000","x":"00000000"}}',
     "do not list the same tensors"),
    ("[1, 2]", "checksum entry is malformed"),
    ('{"algorithm":"crc32","algorithm":"crc32"}', "its checksum entry has the key 'algorithm'"),
])
def test_malformed_checksum_entries_are_rejected(ckpt, checksums, reason):
    document = json.dumps({"format": "unigrad", "version": 2, "tree": {"tensor": "w"},
                           "nodes": []})
    table = {"w": {"dtype": "F64", "shape": [1], "data_offsets": [0, 8]}}
    header = unigrad_io._header_checksum({"unigrad": document}, table)
    st_numpy.save_file({"w": np.ones(1)}, os.fspath(ckpt), metadata={
        "unigrad": document, "unigrad.checksums": checksums.replace("HEADER", header)})
    assert reason in load_error(ckpt)
    assert load(ckpt, verify=False).tolist() == [1.0]


def test_version_1_files_without_checksums_still_load(ckpt):
    tree = {"dict": [["w", {"tensor": "w"}], ["opt", {"tuple": [1, [2.5, None]]}],
                     ["inner", {"ordered_dict": [[3, {"float": "inf"}]]}]]}
    st_numpy.save_file({"w": np.arange(3.0)}, os.fspath(ckpt), metadata={
        "unigrad": json.dumps({"format": "unigrad", "version": 1, "tree": tree})})
    loaded = load(ckpt)
    assert list(loaded) == ["w", "opt", "inner"]
    assert_bit_exact(loaded["w"], np.arange(3.0))
    assert loaded["opt"] == (1, [2.5, None])
    assert loaded["inner"] == OrderedDict([(3, float("inf"))])
    assert type(loaded["inner"]) is OrderedDict


def test_version_1_trees_may_not_use_version_2_references(ckpt):
    st_numpy.save_file({}, os.fspath(ckpt), metadata={
        "unigrad": json.dumps({"format": "unigrad", "version": 1, "tree": [{"node": 0}]})})
    assert "unexpected node {'node': 0}" in load_error(ckpt)


def test_foreign_files_load_with_and_without_verification(ckpt):
    st_numpy.save_file({"a": np.ones(2, np.float32)}, os.fspath(ckpt), metadata={"k": "v"})
    for verify in (True, False):
        assert_bit_exact(load(ckpt, verify=verify)["a"], np.ones(2, np.float32))


def test_every_data_byte_flip_is_detected(ckpt, rng):
    save({"w": ug.tensor(rng.standard_normal(4).astype(np.float32)),
          "n": ug.tensor(np.arange(3, dtype=np.int16))}, ckpt)
    data = ckpt.read_bytes()
    start = 8 + int.from_bytes(data[:8], "little")
    for position in range(start, len(data)):
        for mask in (0x01, 0x80):
            flipped = bytearray(data)
            flipped[position] ^= mask
            ckpt.write_bytes(flipped)
            assert "do not match their checksum" in load_error(ckpt)


def test_200_random_flips_are_detected_or_harmless(ckpt):
    """Random single-byte changes anywhere in the file: every data flip is detected;
    a header flip is detected unless it turned padding into other JSON whitespace."""
    obj = {"model": {"w": ug.tensor(np.linspace(-1, 1, 12).reshape(3, 4)),
                     "n": ug.tensor(np.arange(4, dtype=np.int32))},
           "optimizer": {"lr": 0.01, "betas": (0.9, 0.999), "step": 12}, "epoch": 7}
    save(obj, ckpt)
    data = ckpt.read_bytes()
    start = 8 + int.from_bytes(data[:8], "little")
    header_end = data.rindex(b"}", 0, start) + 1
    chooser = random.Random(22)
    detected = {"data": 0, "header": 0}
    harmless = 0
    for trial in range(200):
        region = "data" if trial % 2 else "header"
        position = chooser.randrange(start, len(data)) if region == "data" else \
            chooser.randrange(0, start)
        flipped = bytearray(data)
        flipped[position] ^= chooser.randrange(1, 256)
        ckpt.write_bytes(flipped)
        try:
            loaded = load(ckpt)
        except ValueError as error:
            message = str(error)
            assert str(ckpt) in message
            if region == "data":
                assert "the bytes of tensor 'model." in message, message
            detected[region] += 1
            continue
        assert region == "header" and position >= header_end, (position, flipped[position])
        assert flipped[position] in b" \t\r\n"
        assert_bit_exact(loaded["model"]["w"], np.linspace(-1, 1, 12).reshape(3, 4))
        assert loaded["optimizer"] == obj["optimizer"] and loaded["epoch"] == 7
        harmless += 1
    assert detected["data"] == 100
    assert detected["header"] + harmless == 100 and detected["header"] >= 90


# --------------------------------------------------------------- duplicate keys

def raw_file(path, header: bytes, data: bytes = b"") -> None:
    header += b" " * (-len(header) % 8)
    path.write_bytes(len(header).to_bytes(8, "little") + header + data)


@pytest.mark.parametrize("header, key", [
    (b'{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},'
     b'"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}', "'a'"),
    (b'{"__metadata__":{"k":"1","k":"2"}}', "'k'"),
    (b'{"__metadata__":{},"__metadata__":{}}', "'__metadata__'"),
    (b'{"a":{"dtype":"U8","dtype":"U8","shape":[1],"data_offsets":[0,1]}}', "'dtype'"),
])
def test_duplicate_keys_in_the_safetensors_header_are_rejected(ckpt, header, key):
    raw_file(ckpt, header, b"\x00")
    assert f"its header has the key {key} twice" in load_error(ckpt)


def test_duplicate_keys_in_the_unigrad_metadata_are_rejected(ckpt):
    document = ('{"format":"unigrad","version":1,"tree":{"dict":[["a",1]]},'
                '"tree":{"dict":[["a",2]]}}')
    st_numpy.save_file({}, os.fspath(ckpt), metadata={"unigrad": document})
    assert "its unigrad metadata has the key 'tree' twice" in load_error(ckpt)
    st_numpy.save_file({}, os.fspath(ckpt), metadata={"unigrad": json.dumps(
        {"format": "unigrad", "version": 1, "tree": {"dict": [["a", 1], ["a", 2]]}})})
    assert "a dict has the key 'a' twice" in load_error(ckpt)


# ------------------------------------------------------------------ deep nesting

def nest(depth: int, kind: str):
    value: object = ug.tensor([float(depth)])
    for level in range(depth):
        value = {"list": [value], "tuple": (value,), "dict": {level: value},
                 "mixed": [{"k": (value,)}]}[kind]
    return value


@pytest.mark.parametrize("kind", ["list", "tuple", "dict", "mixed"])
def test_structures_nested_thousands_deep_round_trip(ckpt, kind):
    depth = 1500
    save(nest(depth, kind), ckpt)
    loaded = load(ckpt)
    levels = 0
    while not isinstance(loaded, ug.Tensor):
        loaded = next(iter(loaded.values())) if isinstance(loaded, dict) else loaded[0]
        levels += 1
    assert levels == depth * (3 if kind == "mixed" else 1)
    assert loaded.tolist() == [float(depth)]
    header, _ = split(ckpt.read_bytes())
    assert len(json.loads(header["__metadata__"]["unigrad"])["nodes"]) == levels


def test_deep_circular_references_are_still_found(tmp_path):
    outer = inner = []
    for _ in range(1200):
        inner.append([])
        inner = inner[0]
    inner.append(outer)
    with pytest.raises(ValueError, match="contains itself"):
        save(outer, tmp_path / "loop.safetensors")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("nodes, reason", [
    ([[{"node": 1}], [{"node": 1}]], "invalid container reference"),
    ([[{"node": 0}]], "invalid container reference"),
    ([[], []], "1 containers that nothing refers to"),
    ([[{"node": 5}]], "invalid container reference"),
    ([[{"node": True}], []], "invalid container reference"),
    ([{"set": []}], "unexpected node"),
])
def test_malformed_container_tables_are_rejected(ckpt, nodes, reason):
    document = {"format": "unigrad", "version": 2, "tree": {"node": 0}, "nodes": nodes}
    text = json.dumps(document)
    checksums = json.dumps({"algorithm": "crc32", "tensors": {},
                            "header": unigrad_io._header_checksum({"unigrad": text}, {})})
    st_numpy.save_file({}, os.fspath(ckpt), metadata={"unigrad": text,
                                                      "unigrad.checksums": checksums})
    assert reason in load_error(ckpt)


# --------------------------------------------------------- stale temporary files

def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_next_save_removes_stale_temporary_files_of_that_target_only(ckpt):
    directory = ckpt.parent
    stale = directory / f".ckpt.safetensors.{dead_pid()}.abcd_123.tmp"
    live = directory / f".ckpt.safetensors.{os.getpid()}.abcd_123.tmp"
    other_target = directory / f".other.safetensors.{dead_pid()}.abcd_123.tmp"
    old_naming = directory / ".ckpt.safetensors.abcd_123.tmp"
    not_ours = directory / f".ckpt.safetensors.{dead_pid()}.notours.tmp"
    for path in (stale, live, other_target, old_naming, not_ours):
        path.write_bytes(b"partial")
    save({"v": 1}, ckpt)
    assert not stale.exists()
    assert live.exists() and other_target.exists() and old_naming.exists() and not_ours.exists()
    assert load(ckpt) == {"v": 1}


def test_temporary_files_carry_the_writers_pid(ckpt, monkeypatch):
    seen = []
    real = unigrad_io._stored_bytes

    def spy(array):
        seen.extend(name for name in os.listdir(ckpt.parent) if name.endswith(".tmp"))
        return real(array)

    monkeypatch.setattr(unigrad_io, "_stored_bytes", spy)
    save({"w": ug.ones(2)}, ckpt)
    assert len(seen) == 1 and seen[0].startswith(f".ckpt.safetensors.{os.getpid()}.")
    assert os.listdir(ckpt.parent) == ["ckpt.safetensors"]


# ------------------------------------------------------------------ bounded memory

def test_saving_does_not_copy_the_whole_checkpoint(ckpt):
    state = {f"w{index}": ug.ones(256, 1024) for index in range(16)}  # 16 x 1 MiB
    transposed = {f"t{index}": ug.ones(1024, 256).t() for index in range(4)}
    tracemalloc.start()
    try:
        save(state, ckpt)
        contiguous_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        save(transposed, ckpt)
        copied_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert contiguous_peak < 1 * 2**20  # no 16 MiB file image, no tensor copies
    assert copied_peak < 2 * 2**20      # one 1 MiB tensor copy at a time


# ------------------------------------------------------------ non-regular files

def test_loading_dev_null_is_a_value_error():
    with pytest.raises(ValueError) as info:
        load("/dev/null")
    assert str(info.value) == ("ug.load: '/dev/null' is a character device, not a regular "
                               "checkpoint file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_loading_a_fifo_is_a_value_error_and_does_not_block(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=r"is a FIFO \(named pipe\), not a regular checkpoint"):
        load(fifo)


# ------------------------------------------------------------- torch.save / load

def test_torch_load_detects_corruption_and_torch_save_cleans_up(tmp_path):
    import unigrad.compat.torch as torch
    path = tmp_path / "state.pth"
    torch.save({"w": torch.ones(3)}, path)
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x01
    path.write_bytes(data)
    with pytest.raises(ValueError, match="the bytes of tensor 'w' do not match"):
        torch.load(path)
    pickled = os.fsencode(tmp_path / "set.pth")  # pickled (not a checkpoint), bytes path
    stale = tmp_path / f".set.pth.{dead_pid()}.abcdefgh.tmp"
    stale.write_bytes(b"partial")
    torch.save({1, 2}, pickled)
    assert torch.load(pickled, weights_only=False) == {1, 2}
    assert sorted(os.listdir(tmp_path)) == ["set.pth", "state.pth"]
