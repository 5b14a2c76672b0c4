"""ug.save / ug.load round trips: bit-exact tensors and exactly rebuilt structures."""

from __future__ import annotations

import math
import os
import stat
import zlib
from collections import OrderedDict

import numpy as np
import pytest

import unigrad as ug
from unigrad.io import load, save

from .helpers import assert_bit_exact

safetensors = pytest.importorskip("safetensors")
from safetensors import safe_open  # noqa: E402

ALL_DTYPES = [np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64,
              np.float16, np.float32, np.float64]


def random_array(rng, dtype, shape) -> np.ndarray:
    """Arbitrary bit patterns (every float NaN payload, inf, subnormal) of ``dtype``."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape))
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    raw = rng.integers(0, 256, size=count * dtype.itemsize, dtype=np.uint8)
    return np.frombuffer(raw.tobytes(), dtype=dtype).reshape(shape).copy()


def file_tensor_names(path) -> list:
    with safe_open(os.fspath(path), framework="np") as file:
        return sorted(file.keys())


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3), (7,), (3, 5)], ids=str)
def test_every_dtype_and_shape_round_trips_bit_exact(ckpt, rng, dtype, shape):
    array = random_array(rng, dtype, shape)
    tensor = ug.tensor(array)
    assert tensor.dtype == ug.backend.from_numpy_dtype(dtype)
    save({"x": tensor}, ckpt)
    loaded = load(ckpt)
    assert list(loaded) == ["x"]
    assert_bit_exact(loaded["x"], array)


def test_float_specials_survive_bit_for_bit(ckpt):
    bits = np.array([0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001,
                     0x7FF0000000000000, 0xFFF0000000000000, 0x8000000000000000, 1],
                    dtype=np.uint64)
    array = bits.view(np.float64)
    save({"specials": ug.tensor(array)}, ckpt)
    got = load(ckpt)["specials"].numpy()
    assert got.view(np.uint64).tolist() == bits.tolist()


@pytest.mark.parametrize("make_view", [
    lambda x: x.t(),
    lambda x: x[:, ::2],
    lambda x: x.transpose(0, 1)[1:],
    lambda x: x.expand(2, 3, 4),
], ids=["t", "strided", "transposed-slice", "broadcast"])
def test_non_contiguous_tensors_are_stored_by_value(ckpt, make_view):
    base = ug.tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    view = make_view(base)
    assert not view._data.flags.c_contiguous
    expected = np.array(view.numpy())  # the logical values, C order
    save({"v": view}, ckpt)
    loaded = load(ckpt)["v"]
    assert_bit_exact(loaded, expected)
    assert loaded.numpy().flags.c_contiguous
    assert base.numpy().tolist() == np.arange(12.0).reshape(3, 4).tolist()


def test_non_contiguous_numpy_array_and_byte_swapped_array(ckpt):
    reversed_view = np.arange(6, dtype=np.int16)[::-1]
    big_endian = np.array([1.5, -2.25, 3.0], dtype=">f4")
    save({"rev": reversed_view, "be": big_endian}, ckpt)
    loaded = load(ckpt)
    assert loaded["rev"].numpy().tolist() == [5, 4, 3, 2, 1, 0]
    assert loaded["rev"].dtype == ug.int16
    assert loaded["be"].numpy().tolist() == [1.5, -2.25, 3.0]
    assert loaded["be"].dtype == ug.float32


def test_flat_state_dict_keeps_natural_names_and_order(ckpt, rng):
    state = {"fc.weight": ug.tensor(rng.standard_normal((3, 2)).astype(np.float32)),
             "fc.bias": ug.tensor(rng.standard_normal(3).astype(np.float32)),
             "bn.num_batches_tracked": ug.tensor(7)}
    save(state, ckpt)
    assert file_tensor_names(ckpt) == ["bn.num_batches_tracked", "fc.bias", "fc.weight"]
    loaded = load(ckpt)
    assert list(loaded) == ["fc.weight", "fc.bias", "bn.num_batches_tracked"]
    for name, tensor in state.items():
        assert_bit_exact(loaded[name], tensor)
    assert loaded["bn.num_batches_tracked"].dtype == ug.int64


def test_parameters_and_grad_tensors_load_as_plain_leaves_that_require_grad(ckpt):
    weight = ug.nn.Parameter(ug.tensor([[1.0, -2.0]]), name="w")
    hidden = weight * 3.0  # a non-leaf with a grad_fn
    (hidden.sum()).backward()
    save({"w": weight, "h": hidden}, ckpt)
    loaded = load(ckpt)
    assert_bit_exact(loaded["w"].detach(), np.array([[1.0, -2.0]], np.float32))
    assert_bit_exact(loaded["h"].detach(), np.array([[3.0, -6.0]], np.float32))
    assert loaded["w"].grad is None and loaded["h"].grad_fn is None
    assert type(loaded["w"]) is ug.Tensor
    assert loaded["w"].requires_grad and loaded["h"].requires_grad  # as torch.save keeps it
    assert loaded["w"].is_leaf and loaded["h"].is_leaf
    assert weight.requires_grad  # saving does not touch the source
    save({"plain": ug.ones(2), "detached": hidden.detach()}, ckpt)
    assert not any(tensor.requires_grad for tensor in load(ckpt).values())


def test_optimizer_like_state_dict_round_trips_exactly(ckpt, rng):
    buffers = [ug.tensor(rng.standard_normal(4).astype(np.float32)) for _ in range(2)]
    state = {
        "state": {0: {"step": 3, "momentum_buffer": buffers[0]},
                  1: {"step": 3, "momentum_buffer": buffers[1]}},
        "param_groups": [{"lr": 0.1, "betas": (0.9, 0.999), "eps": 1e-8, "params": [0, 1],
                          "weight_decay": 0.0, "amsgrad": False, "maximize": None,
                          "name": "default"}],
    }
    save(state, ckpt)
    loaded = load(ckpt)
    assert list(loaded) == ["state", "param_groups"]
    assert list(loaded["state"]) == [0, 1]
    assert all(type(key) is int for key in loaded["state"])
    for index in (0, 1):
        entry = loaded["state"][index]
        assert entry["step"] == 3 and type(entry["step"]) is int
        assert_bit_exact(entry["momentum_buffer"], buffers[index])
    group = loaded["param_groups"][0]
    assert type(loaded["param_groups"]) is list
    assert group == {"lr": 0.1, "betas": (0.9, 0.999), "eps": 1e-8, "params": [0, 1],
                     "weight_decay": 0.0, "amsgrad": False, "maximize": None,
                     "name": "default"}
    assert type(group["betas"]) is tuple and type(group["params"]) is list
    assert type(group["amsgrad"]) is bool and type(group["weight_decay"]) is float
    assert file_tensor_names(ckpt) == ["state.0.momentum_buffer", "state.1.momentum_buffer"]


def test_python_scalars_are_exact_including_non_finite_floats(ckpt):
    values = [math.inf, -math.inf, math.nan, -math.nan, -0.0, 0.0, 5e-324, 1.7976931348623157e308,
              0.1, 1.0, 2**70, -(2**63), 0, True, False, None, "", "inf", "NaN", "ünïcødé \n"]
    save({"values": values, "tuple": tuple(values)}, ckpt)
    loaded = load(ckpt)
    for got_list in (loaded["values"], loaded["tuple"]):
        assert len(got_list) == len(values)
        for got, want in zip(got_list, values):
            assert type(got) is type(want)
            if isinstance(want, float) and math.isnan(want):
                assert math.isnan(got)
                assert math.copysign(1.0, got) == math.copysign(1.0, want)
            elif isinstance(want, float):
                assert got.hex() == want.hex()
            else:
                assert got == want
    assert type(loaded["tuple"]) is tuple and type(loaded["values"]) is list


def test_numpy_scalars_keep_their_type_and_arrays_load_as_tensors(ckpt):
    scalars = [np.float16(0.1), np.float32(np.inf), np.float64(-0.5), np.int8(-128),
               np.uint8(255), np.int64(2**62), np.bool_(True), np.float32(np.nan)]
    array = np.arange(4, dtype=np.int32)
    save({"scalars": scalars, "array": array}, ckpt)
    loaded = load(ckpt)
    for got, want in zip(loaded["scalars"], scalars, strict=True):
        assert type(got) is type(want)
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
    assert_bit_exact(loaded["array"], array)


def test_keys_with_separators_reserved_names_and_collisions_round_trip(ckpt):
    a, b, c, d, e, f = (ug.tensor([float(i)]) for i in range(6))
    obj = {"a.b": a, "a": {"b": b}, "__metadata__": c, "": d, "x#1": e, "x": {1: f}}
    save(obj, ckpt)
    names = file_tensor_names(ckpt)
    assert len(names) == 6 and "__metadata__" not in names
    assert "a.b" in names and "x.1" in names and "x#1" in names
    loaded = load(ckpt)
    assert list(loaded) == ["a.b", "a", "__metadata__", "", "x#1", "x"]
    assert loaded["a.b"].item() == 0.0
    assert loaded["a"]["b"].item() == 1.0
    assert loaded["__metadata__"].item() == 2.0
    assert loaded[""].item() == 3.0
    assert loaded["x#1"].item() == 4.0
    assert list(loaded["x"]) == [1] and loaded["x"][1].item() == 5.0


def test_int_and_str_keys_that_look_alike_stay_distinct(ckpt):
    obj = {1: ug.tensor([1]), "1": ug.tensor([2]), -3: "neg", "unicodé.κλειδί": ug.tensor([3])}
    save(obj, ckpt)
    loaded = load(ckpt)
    assert list(loaded) == [1, "1", -3, "unicodé.κλειδί"]
    assert loaded[1].tolist() == [1] and loaded["1"].tolist() == [2]
    assert loaded[-3] == "neg" and loaded["unicodé.κλειδί"].tolist() == [3]
    assert "unicodé.κλειδί" in file_tensor_names(ckpt)


def test_lone_surrogate_key_round_trips(ckpt):
    key = "bad\ud800key"
    save({key: ug.tensor([1.0]), "plain": "\udfff"}, ckpt)
    loaded = load(ckpt)
    assert list(loaded) == [key, "plain"]
    assert loaded[key].tolist() == [1.0] and loaded["plain"] == "\udfff"


def test_tied_tensor_is_stored_twice_and_loads_as_two_equal_tensors(ckpt):
    shared = ug.tensor([1.0, 2.0])
    save({"encoder.weight": shared, "decoder.weight": shared}, ckpt)
    assert file_tensor_names(ckpt) == ["decoder.weight", "encoder.weight"]
    loaded = load(ckpt)
    assert loaded["encoder.weight"] is not loaded["decoder.weight"]
    assert loaded["encoder.weight"].tolist() == loaded["decoder.weight"].tolist() == [1.0, 2.0]


def test_same_list_twice_is_not_a_cycle(ckpt):
    shared = [1, 2]
    save({"a": shared, "b": shared}, ckpt)
    assert load(ckpt) == {"a": [1, 2], "b": [1, 2]}


def test_ordered_dicts_stay_ordered_other_mappings_and_subclasses_load_as_base_types(ckpt):
    from collections import namedtuple
    from enum import IntEnum

    class Color(IntEnum):
        RED = 1

    class Name(str):
        pass

    Pair = namedtuple("Pair", "x y")
    obj = OrderedDict([("z", Pair(1, 2.5)), ("a", Color.RED), ("n", Name("s"))])
    save(obj, ckpt)
    loaded = load(ckpt)
    assert type(loaded) is OrderedDict and list(loaded) == ["z", "a", "n"]
    save({"inner": obj, "plain": {"k": 1}}, ckpt)
    nested = load(ckpt)
    assert type(nested) is dict and type(nested["inner"]) is OrderedDict
    assert type(nested["plain"]) is dict
    assert type(loaded["z"]) is tuple and loaded["z"] == (1, 2.5)
    assert type(loaded["a"]) is int and loaded["a"] == 1
    assert type(loaded["n"]) is str and loaded["n"] == "s"


@pytest.mark.parametrize("obj", [3, None, "text", [], {}, (), [[]], {"e": {}}, 2.5, [(), {}]],
                         ids=repr)
def test_objects_without_tensors_round_trip(ckpt, obj):
    save(obj, ckpt)
    loaded = load(ckpt)
    assert loaded == obj and type(loaded) is type(obj)
    assert file_tensor_names(ckpt) == []


def test_a_bare_tensor_round_trips(ckpt):
    save(ug.tensor([[1, 2]], dtype=ug.int8), ckpt)
    assert file_tensor_names(ckpt) == ["tensor"]
    loaded = load(ckpt)
    assert_bit_exact(loaded, np.array([[1, 2]], np.int8))


def test_loaded_tensors_own_writable_data_and_device(ckpt):
    save({"x": ug.tensor([1.0, 2.0])}, ckpt)
    first = load(ckpt, device="cpu")["x"]
    second = load(ckpt, device=ug.Device("cpu"))["x"]
    first.add_(1.0)
    assert first.tolist() == [2.0, 3.0] and second.tolist() == [1.0, 2.0]
    assert first.device == ug.Device("cpu")
    assert load(ckpt)["x"].tolist() == [1.0, 2.0]  # the file is untouched


def test_metadata_is_the_structure_and_its_checksums(ckpt):
    save({"w": ug.tensor([1.0]), "epoch": 3}, ckpt)
    with safe_open(os.fspath(ckpt), framework="np") as file:
        metadata = file.metadata()
    assert sorted(metadata) == ["unigrad", "unigrad.checksums"]
    import json
    assert json.loads(metadata["unigrad"]) == {
        "format": "unigrad", "version": 2, "tree": {"node": 0},
        "nodes": [{"dict": [["w", {"tensor": "w"}], ["epoch", 3]]}]}
    checksums = json.loads(metadata["unigrad.checksums"])
    assert checksums["algorithm"] == "crc32" and list(checksums["tensors"]) == ["w"]
    assert checksums["tensors"]["w"] == f"{zlib.crc32(np.float32(1.0).tobytes()):08x}"


def test_str_and_pathlike_paths_and_overwrite(tmp_path):
    path = tmp_path / "model.safetensors"
    save({"v": ug.tensor([1])}, str(path))
    assert load(path)["v"].tolist() == [1]
    save({"v": ug.tensor([2])}, path)
    assert load(str(path))["v"].tolist() == [2]
    assert sorted(os.listdir(tmp_path)) == ["model.safetensors"]


def test_relative_path_in_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save([ug.tensor([4.0])], "rel.safetensors")
    assert load("rel.safetensors")[0].tolist() == [4.0]
    assert os.listdir(tmp_path) == ["rel.safetensors"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_new_files_follow_the_umask_and_overwrites_keep_the_mode(tmp_path):
    old = os.umask(0o027)
    try:
        fresh = tmp_path / "fresh.safetensors"
        save({"v": 1}, fresh)
        assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o640
    finally:
        os.umask(old)
    existing = tmp_path / "existing.safetensors"
    existing.write_bytes(b"old")
    os.chmod(existing, 0o604)
    save({"v": 1}, existing)
    assert stat.S_IMODE(os.stat(existing).st_mode) == 0o604


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_saving_through_a_symlink_writes_its_target(tmp_path):
    target = tmp_path / "real.safetensors"
    save({"v": 1}, target)
    link = tmp_path / "link.safetensors"
    os.symlink(target, link)
    save({"v": 2}, link)
    assert os.path.islink(link)
    assert load(target) == {"v": 2}


def test_cuda_tensors_are_saved_from_a_host_copy_and_load_onto_a_device(ckpt):
    cupy = pytest.importorskip("cupy")
    try:
        has_gpu = cupy.cuda.runtime.getDeviceCount() > 0
    except cupy.cuda.runtime.CUDARuntimeError:
        has_gpu = False
    if not has_gpu:
        pytest.skip("needs a CUDA device")
    on_gpu = ug.tensor([[1.0, 2.0], [3.0, 4.0]], device="cuda")
    save({"t": on_gpu.t(), "raw": cupy.arange(3, dtype=cupy.int16)}, ckpt)
    loaded = load(ckpt, device="cuda")
    assert loaded["t"].device == ug.Device("cuda:0") and loaded["raw"].device.type == "cuda"
    assert loaded["t"].cpu().tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert loaded["raw"].cpu().tolist() == [0, 1, 2] and loaded["raw"].dtype == ug.int16
    on_host = load(ckpt)
    assert on_host["t"].device == ug.Device("cpu") and on_host["t"].tolist() == [[1.0, 3.0],
                                                                                 [2.0, 4.0]]
