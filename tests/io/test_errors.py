"""ug.save / ug.load errors: bad objects and paths, atomic writes, broken files."""

from __future__ import annotations

import errno
import json
import os
import pickle

import numpy as np
import pytest

import unigrad as ug
import unigrad.io as unigrad_io
from unigrad.io import load, save

from .helpers import FailingFile

safetensors = pytest.importorskip("safetensors")
st_numpy = pytest.importorskip("safetensors.numpy")

EXPECTED = "expected Tensors, arrays, numbers, strings, None, dicts, lists or tuples"
INVALID = "is not a valid or complete unigrad/safetensors checkpoint"


def checkpoint_object(rng) -> dict:
    """A realistic training checkpoint: model, optimizer, epoch."""
    weight = ug.tensor(rng.standard_normal((8, 4)).astype(np.float32))
    return {
        "model": {"fc.weight": weight, "fc.bias": ug.zeros(8),
                  "bn.num_batches_tracked": ug.tensor(12)},
        "optimizer": {"state": {0: {"step": 12, "exp_avg": ug.ones(8, 4)},
                                1: {"step": 12, "exp_avg": ug.ones(8)}},
                      "param_groups": [{"lr": 1e-3, "betas": (0.9, 0.999), "eps": float("inf"),
                                        "params": [0, 1], "foreach": None}]},
        "epoch": 3,
    }


# ----------------------------------------------------------------- bad objects

class Opaque:
    pass


@pytest.mark.parametrize("obj, message", [
    ({"optimizer": {"state": {0: {1, 2}}}},
     "ug.save: cannot save a set at obj['optimizer']['state'][0]; " + EXPECTED),
    ([1, (2, frozenset())], "cannot save a frozenset at obj[1][1]; " + EXPECTED),
    ({"x": 1 + 2j}, "cannot save a complex at obj['x']; "),
    ({"x": b"bytes"}, "cannot save a bytes at obj['x']; "),
    ({"x": Opaque()}, "cannot save an Opaque at obj['x']; "),
    ({"f": len}, "cannot save a builtin_function_or_method at obj['f']; "),
    (np.complex64(1), "cannot save a NumPy complex64 scalar at obj; "),
    ({"s": [np.array(["a", "b"])]}, "cannot save an array of dtype <U1 at obj['s'][0]; "
                                    "supported dtypes are bool, uint8"),
    ({"o": np.array([None], dtype=object)}, "cannot save an array of dtype object at obj['o']"),
    ({"u": np.zeros(2, np.uint32)}, "cannot save an array of dtype uint32 at obj['u']"),
    ({"m": np.ma.masked_array([1.0], mask=[True])}, "cannot save a masked array at obj['m']"),
])
def test_unsupported_values_raise_type_error_naming_the_location(tmp_path, obj, message):
    path = tmp_path / "bad.safetensors"
    with pytest.raises(TypeError) as info:
        save(obj, path)
    assert message in str(info.value)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("key, shown", [
    (1.5, "float key 1.5"), ((1, 2), "tuple key (1, 2)"), (None, "NoneType key None"),
    (True, "bool key True"), (np.int64(3), "int64 key "),
])
def test_dict_keys_must_be_str_or_int(tmp_path, key, shown):
    with pytest.raises(TypeError, match="dict keys must be str or int") as info:
        save({"outer": {key: 1}}, tmp_path / "bad.safetensors")
    assert f"got {shown}" in str(info.value) and "at obj['outer']" in str(info.value)
    assert os.listdir(tmp_path) == []


def test_circular_references_raise_value_error(tmp_path):
    loop = [1]
    loop.append(loop)
    with pytest.raises(ValueError, match=r"obj\['a'\]\[1\] contains itself"):
        save({"a": loop}, tmp_path / "bad.safetensors")
    table = {}
    table["self"] = table
    with pytest.raises(ValueError, match=r"obj\['self'\] contains itself"):
        save(table, tmp_path / "bad.safetensors")
    assert os.listdir(tmp_path) == []


def test_a_bad_object_leaves_an_existing_file_untouched(ckpt):
    save({"v": ug.tensor([1.0])}, ckpt)
    before = ckpt.read_bytes()
    with pytest.raises(TypeError, match=r"obj\['late'\]\[2\]"):
        save({"v": ug.tensor([2.0]), "late": [1, 2, {3}]}, ckpt)
    assert ckpt.read_bytes() == before
    assert os.listdir(ckpt.parent) == [ckpt.name]


# ------------------------------------------------------------------ bad paths

@pytest.mark.parametrize("path", [3, None, ["a"], 2.5])
def test_save_and_load_reject_non_path_arguments(path):
    with pytest.raises(TypeError, match="ug.save: path must be a str or os.PathLike, got"):
        save({}, path)
    with pytest.raises(TypeError, match="ug.load: path must be a str or os.PathLike, got"):
        load(path)


def test_empty_path_is_a_value_error():
    with pytest.raises(ValueError, match="ug.save: path must name a file"):
        save({}, "")
    with pytest.raises(ValueError, match="ug.load: path must name a file"):
        load("")


def test_save_into_a_missing_directory_names_it(tmp_path):
    missing = tmp_path / "no" / "such"
    with pytest.raises(FileNotFoundError) as info:
        save({"v": 1}, missing / "ckpt.safetensors")
    assert info.value.errno == errno.ENOENT
    assert info.value.filename == str(missing)
    assert str(missing) in str(info.value) and "directory does not exist" in str(info.value)
    assert os.listdir(tmp_path) == []


def test_save_onto_a_directory_or_under_a_file(tmp_path):
    with pytest.raises(IsADirectoryError) as info:
        save({"v": 1}, tmp_path)
    assert info.value.filename == str(tmp_path)
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    with pytest.raises(NotADirectoryError) as info:
        save({"v": 1}, plain / "ckpt.safetensors")
    assert info.value.filename == str(plain)
    assert sorted(os.listdir(tmp_path)) == ["plain.txt"]


def test_bytes_paths_work(tmp_path):
    path = os.fsencode(tmp_path / "b.safetensors")
    save({"v": 2}, path)
    assert load(path) == {"v": 2}


def test_load_missing_file_and_directory(tmp_path):
    missing = tmp_path / "missing.safetensors"
    with pytest.raises(FileNotFoundError) as info:
        load(missing)
    assert info.value.filename == str(missing) and str(missing) in str(info.value)
    with pytest.raises(IsADirectoryError) as info:
        load(tmp_path)
    assert info.value.filename == str(tmp_path)


def test_load_rejects_bad_devices(ckpt):
    save({"v": 1}, ckpt)
    with pytest.raises(TypeError, match="device must be"):
        load(ckpt, device=3.5)
    with pytest.raises(ValueError, match="device must be"):
        load(ckpt, device="tpu")


# ------------------------------------------------------------------- atomicity

@pytest.fixture
def existing(ckpt, rng):
    """A checkpoint already at the path; the test checks it survives a failed save."""
    save(checkpoint_object(rng), ckpt)
    return ckpt, ckpt.read_bytes()


def assert_untouched(path, before) -> None:
    assert path.read_bytes() == before
    assert os.listdir(path.parent) == [path.name]  # no temporary file left behind
    assert load(path)["epoch"] == 3


def test_serializer_failure_leaves_the_old_file(existing, monkeypatch, rng):
    path, before = existing

    def broken_stored_bytes(array):
        raise RuntimeError("serializer exploded")

    monkeypatch.setattr(unigrad_io, "_stored_bytes", broken_stored_bytes)
    with pytest.raises(RuntimeError, match="serializer exploded"):
        save({"epoch": 4, "w": ug.ones(3)}, path)
    assert_untouched(path, before)


def test_partial_write_failure_removes_the_temporary_file(existing, monkeypatch):
    path, before = existing
    real_fdopen = os.fdopen
    seen = {}

    class DiskFull(FailingFile):
        def write(self, data):
            self.file.write(data[: len(data) // 2])
            self.file.flush()
            seen["temporary"] = [name for name in os.listdir(path.parent) if name != path.name]
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: DiskFull(real_fdopen(fd, mode)))
    with pytest.raises(OSError, match="No space left"):
        save({"epoch": 4, "big": ug.zeros(1000)}, path)
    assert len(seen["temporary"]) == 1  # the half-written file existed beside the target
    assert seen["temporary"][0].startswith(".ckpt.safetensors.")
    assert_untouched(path, before)


def test_fsync_failure_after_full_write_removes_the_temporary_file(existing, monkeypatch):
    path, before = existing
    seen = {}

    def failing_fsync(fd):
        seen["size"] = os.fstat(fd).st_size
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="I/O error"):
        save({"epoch": 4}, path)
    assert seen["size"] > 8  # everything was written to the temporary file first
    assert_untouched(path, before)


@pytest.mark.parametrize("error", [OSError("rename failed"), KeyboardInterrupt()])
def test_replace_failure_or_interrupt_leaves_the_old_file(existing, monkeypatch, error):
    path, before = existing

    def failing_replace(source, target):
        assert os.path.getsize(source) > 8
        raise error

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(type(error)):
        save({"epoch": 4}, path)
    assert_untouched(path, before)


def test_failure_without_an_old_file_leaves_nothing(ckpt, monkeypatch):
    monkeypatch.setattr(os, "replace", lambda source, target: (_ for _ in ()).throw(OSError()))
    with pytest.raises(OSError):
        save({"epoch": 4}, ckpt)
    assert os.listdir(ckpt.parent) == []


# ------------------------------------------------------------ truncated files

def assert_invalid(path, cause=True, verify=True) -> ValueError:
    with pytest.raises(ValueError) as info:
        load(path, verify=verify)
    message = str(info.value)
    assert message.startswith(f"ug.load: {str(path)!r} {INVALID}"), message
    if cause:
        assert info.value.__cause__ is not None
    return info.value


@pytest.mark.parametrize("tenths", range(10))
def test_checkpoint_truncated_at_each_tenth_fails_cleanly(existing, tenths):
    path, full = existing
    path.write_bytes(full[: len(full) * tenths // 10])
    error = assert_invalid(path)
    assert any(reason in str(error) for reason in (
        "fewer than the 8-byte header length", "header length", "the data region holds",
        "past the end of the data")), str(error)


def test_truncation_at_every_byte_fails_cleanly(ckpt):
    save({"w": ug.tensor([1.0, 2.0]), "meta": {"k": (1, None)}}, ckpt)
    full = ckpt.read_bytes()
    for length in range(len(full)):
        ckpt.write_bytes(full[:length])
        assert_invalid(ckpt)


def test_trailing_bytes_are_rejected(existing):
    path, full = existing
    path.write_bytes(full + b"\x00" * 8)
    assert_invalid(path)


# ---------------------------------------------------------- corrupted headers

def header_length(data: bytes) -> int:
    return 8 + int.from_bytes(data[:8], "little")


def test_every_header_byte_set_to_0xff_is_detected(ckpt):
    save({"w": ug.tensor([1.0, 2.0]), "opt": {"lr": 0.5, "betas": (0.9, 0.99)}}, ckpt)
    full = ckpt.read_bytes()
    for position in range(header_length(full)):
        if full[position] == 0xFF:
            continue
        ckpt.write_bytes(full[:position] + b"\xff" + full[position + 1:])
        assert_invalid(ckpt)


@pytest.mark.parametrize("old, new", [
    (b'"data_offsets":[0,8]', b'"data_offsets":[0,9]'),  # offsets no longer cover the data
    (b'"shape":[2]', b'"shape":[3]'),                        # shape disagrees with the bytes
    (b'"dtype":"F32"', b'"dtype":"Q32"'),                    # unknown dtype
    (b'{"__metadata__"', b'["__metadata__"'),                # not a JSON object any more
    (b'"w":{"dtype"', b'"v":{"dtype"'),                      # tensor renamed: metadata mismatch
    (b'{\\"tensor\\":\\"w\\"}', b'{\\"tensor\\":\\"v\\"}'),  # metadata names another tensor
    (b'{\\"format\\"', b'[\\"format\\"'),                   # metadata JSON broken
    (b'{\\"tuple\\":[0.9', b'{\\"tupel\\":[0.9'),        # unknown container tag
    (b'\\"betas\\",{\\"node\\":2}', b'\\"betas\\",{\\"node\\":0}'),  # bad reference
])
def test_corrupted_header_fields_are_detected(ckpt, old, new):
    save({"w": ug.tensor([1.0, 2.0]), "opt": {"lr": 0.5, "betas": (0.9, 0.99)}}, ckpt)
    full = ckpt.read_bytes()
    assert full.count(old) == 1, full[:header_length(full)]
    ckpt.write_bytes(full.replace(old, new))
    assert_invalid(ckpt)
    assert_invalid(ckpt, verify=False)  # the structural checks catch it without checksums


@pytest.mark.parametrize("content", [
    b"", b"hello, this is a text file\n", bytes(range(256)) * 4,
    pickle.dumps({"fc.weight": [1.0, 2.0]}),
    b"PK\x03\x04" + b"\x00" * 60,  # the start of a zip (torch.save's format)
    (2).to_bytes(8, "little") + b"[]",  # a header that is JSON but not an object
], ids=["empty", "text", "binary", "pickle", "zip", "list-header"])
def test_files_that_are_not_checkpoints_are_rejected(ckpt, content):
    ckpt.write_bytes(content)
    assert_invalid(ckpt)


# ------------------------------------------------ metadata that does not match

def write_with_metadata(path, tensors: dict, document) -> None:
    text = document if isinstance(document, str) else json.dumps(document)
    st_numpy.save_file(tensors, os.fspath(path), metadata={"unigrad": text})


def doc(tree, version=1) -> dict:
    return {"format": "unigrad", "version": version, "tree": tree}


@pytest.mark.parametrize("tensors, document, reason", [
    ({}, doc({"tensor": "w"}), "names a tensor 'w' that the file does not hold"),
    ({"w": np.ones(2), "x": np.ones(2)}, doc({"dict": [["w", {"tensor": "w"}]]}),
     "does not mention the tensors ['x']"),
    ({"w": np.ones(2)}, doc([{"tensor": "w"}, {"tensor": "w"}]), "names the tensor 'w' twice"),
    ({}, "{not json", "not valid JSON"),
    ({}, '{"format": "unigrad", "version": 1, "tree": NaN}', "non-JSON constant NaN"),
    ({}, {"format": "other", "version": 1, "tree": 1}, "lacks the format, version or tree"),
    ({}, {"format": "unigrad", "tree": 1}, "lacks the format, version or tree"),
    ({}, doc(1, version=3), "written by a newer unigrad (format version 3"),
    ({}, doc(1, version="1"), "invalid version '1'"),
    ({}, doc({"set": [1]}), "unexpected node {'set': [1]}"),
    ({}, doc({"dict": [["a", 1, 2]]}), "malformed dict entry"),
    ({}, doc({"dict": [[1.5, 1]]}), "malformed dict entry"),
    ({}, doc({"float": "big"}), "expected a float, found {'float': 'big'}"),
    ({}, doc({"numpy": "complex64", "value": 1}), "unknown NumPy scalar dtype 'complex64'"),
    ({}, doc({"numpy": "float", "value": 1.0}), "unknown NumPy scalar dtype 'float'"),
    ({}, doc({"numpy": "int8", "value": 300}), "invalid value 300 for a NumPy int8 scalar"),
    ({}, doc({"numpy": "bool", "value": 1}), "invalid value 1 for a NumPy bool scalar"),
    ({}, doc({"numpy": "float32", "value": "x"}), "expected a float"),
    ({}, doc({"tuple": 3}), "unexpected node"),
])
def test_metadata_that_does_not_match_is_rejected(ckpt, tensors, document, reason):
    write_with_metadata(ckpt, tensors, document)
    error = assert_invalid(ckpt)
    assert reason in str(error)


def test_unsupported_dtype_in_a_foreign_file_is_a_type_error(ckpt):
    st_numpy.save_file({"ok": np.ones(2), "counts": np.ones(3, np.uint32)},
                                os.fspath(ckpt))
    with pytest.raises(TypeError) as info:
        load(ckpt)
    message = str(info.value)
    assert "tensor 'counts'" in message and "dtype U32" in message and str(ckpt) in message
