"""``load_pytorch``: real ``torch.save`` files load bit-exactly, without torch, and safely."""

from __future__ import annotations

import collections
import pickle
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest

import unigrad as ug
from unigrad.io_pytorch import ForbiddenGlobalError, is_pytorch_checkpoint, load_pytorch

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch


def assert_same(loaded, original, where="obj"):
    """``loaded`` mirrors ``original``: same containers, keys, numbers; tensors bit-exact."""
    if isinstance(original, torch.Tensor):
        assert type(loaded) is ug.Tensor, where
        want = original.detach().resolve_conj().resolve_neg().contiguous().numpy()
        got = loaded.numpy()
        assert got.dtype == want.dtype, where
        assert got.shape == want.shape, where
        assert got.tobytes() == want.tobytes(), where
        assert loaded.requires_grad is False, where
    elif isinstance(original, dict):
        assert type(loaded) is type(original), where
        assert list(loaded.keys()) == list(original.keys()), where
        for key in original:
            assert_same(loaded[key], original[key], f"{where}[{key!r}]")
    elif isinstance(original, (list, tuple)):
        assert type(loaded) is type(original), where
        assert len(loaded) == len(original), where
        for i, (a, b) in enumerate(zip(loaded, original)):
            assert_same(a, b, f"{where}[{i}]")
    elif isinstance(original, float) and original != original:
        assert loaded != loaded, where
    else:
        assert type(loaded) is type(original) and loaded == original, where


def save_and_load(obj, path):
    torch.save(obj, path)
    assert is_pytorch_checkpoint(path)
    loaded = load_pytorch(path)
    assert_same(loaded, obj)
    return loaded


# --------------------------------------------------------------------------- modules/optimizers

def test_module_state_dicts(tmp_path):
    torch.manual_seed(0)
    model = torch.nn.ModuleDict({
        "fc": torch.nn.Linear(4, 3),
        "conv": torch.nn.Conv2d(3, 5, kernel_size=3, padding=1, bias=False),
        "bn": torch.nn.BatchNorm2d(5),
        "lstm": torch.nn.LSTM(4, 6, num_layers=2, bidirectional=True),
    })
    model["bn"](torch.randn(2, 5, 4, 4))  # running stats and num_batches_tracked move
    state = model.state_dict()
    loaded = save_and_load(state, tmp_path / "model.pt")
    assert isinstance(loaded, collections.OrderedDict)
    assert loaded["bn.num_batches_tracked"].dtype == ug.int64
    assert loaded["bn.num_batches_tracked"].item() == 1
    assert loaded["lstm.weight_hh_l1_reverse"].shape == (24, 6)
    assert loaded["conv.weight"].shape == (5, 3, 3, 3)


def test_whole_parameters_load_as_plain_tensors(tmp_path):
    param = torch.nn.Parameter(torch.randn(3, 2))
    torch.save({"p": param}, tmp_path / "p.pt")
    loaded = load_pytorch(tmp_path / "p.pt")
    assert type(loaded["p"]) is ug.Tensor and loaded["p"].requires_grad is False
    assert loaded["p"].numpy().tobytes() == param.detach().numpy().tobytes()


@pytest.mark.parametrize("make", [
    lambda params: torch.optim.SGD(params, lr=0.1, momentum=0.9, nesterov=True),
    lambda params: torch.optim.Adam(params, lr=1e-3, amsgrad=True),
], ids=["sgd_momentum", "adam"])
def test_optimizer_state_dicts_after_a_step(tmp_path, make):
    torch.manual_seed(1)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
    optimizer = make(model.parameters())
    for _ in range(2):
        optimizer.zero_grad()
        model(torch.randn(5, 3)).pow(2).mean().backward()
        optimizer.step()
    state = optimizer.state_dict()
    loaded = save_and_load({"model": model.state_dict(), "optimizer": state, "epoch": 7},
                           tmp_path / "ckpt.pth")
    groups = loaded["optimizer"]["param_groups"]
    assert groups[0]["params"] == [0, 1, 2, 3]
    assert set(loaded["optimizer"]["state"]) == {0, 1, 2, 3}


# --------------------------------------------------------------------------- values and dtypes

SUPPORTED = [torch.float16, torch.float32, torch.float64, torch.int8, torch.int16, torch.int32,
             torch.int64, torch.uint8, torch.bool, torch.complex64, torch.complex128]


def make_tensor(dtype, shape=(3, 4)):
    gen = torch.Generator().manual_seed(3)
    if dtype.is_complex:
        return torch.randn(shape, dtype=dtype, generator=gen)
    if dtype.is_floating_point:
        t = torch.randn(shape, generator=gen).to(dtype)
        t.view(-1)[:3] = torch.tensor([float("inf"), float("nan"), -0.0]).to(dtype)
        return t
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=gen).bool()
    info = torch.iinfo(dtype)
    t = torch.randint(-100 if info.min < 0 else 0, 100, shape, generator=gen).to(dtype)
    t.view(-1)[:2] = torch.tensor([info.min, info.max], dtype=dtype)
    return t


def test_every_supported_dtype_bit_exact(tmp_path):
    obj = {str(dtype): make_tensor(dtype) for dtype in SUPPORTED}
    obj["scalar"] = torch.tensor(2.5, dtype=torch.float64)
    obj["empty"] = torch.zeros(0, 3)
    loaded = save_and_load(obj, tmp_path / "dtypes.pt")
    for dtype in SUPPORTED:
        assert str(loaded[str(dtype)].dtype) == "unigrad." + str(dtype).split(".")[1]
    assert loaded["scalar"].shape == () and loaded["empty"].shape == (0, 3)


def test_views_sharing_one_storage(tmp_path):
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    obj = {"base": base, "t": base.t(), "slice": base[1:3, ::2], "row": base[2],
           "again": base, "expanded": torch.arange(3.0).expand(4, 3),
           "conj": torch.randn(3, dtype=torch.complex64).conj(), "neg": torch.randn(3).neg()}
    path = tmp_path / "views.pt"
    torch.save(obj, path)
    with zipfile.ZipFile(path) as archive:  # the views really share storages in the file
        blobs = [n for n in archive.namelist() if "/data/" in n]
    assert len(blobs) == 4
    loaded = load_pytorch(path)
    assert_same(loaded, obj)
    assert loaded["t"].numpy().flags.c_contiguous
    assert loaded["t"].shape == (6, 4)
    assert loaded["expanded"].shape == (4, 3)


def test_complex_tensors(tmp_path):
    real, imag = torch.randn(2, 3, dtype=torch.float64), torch.randn(2, 3, dtype=torch.float64)
    z = torch.complex(real, imag)
    loaded = save_and_load({"z": z, "z64": z.to(torch.complex64)}, tmp_path / "complex.pt")
    assert loaded["z"].dtype == ug.complex128 and loaded["z64"].dtype == ug.complex64


def test_nested_structures_and_plain_values(tmp_path):
    obj = {
        "list": [torch.ones(2), [torch.zeros(1, dtype=torch.int32), 3], (1.5, None)],
        "tuple": (torch.eye(2), "text", True),
        1: {"deep": {"deeper": torch.tensor([1, 2], dtype=torch.int16)}},
        "numbers": [0, -7, 2**70, 1e-300, float("inf"), float("nan"), 1 + 2j],
        "bytes": b"\x00\xffraw",
        "set": {1, 2, 3},
        "size": torch.Size([2, 3]),
        "device": torch.device("cpu"),
        "ordered": collections.OrderedDict(b=1, a=torch.ones(1)),
    }
    path = tmp_path / "nested.pt"
    torch.save(obj, path)
    loaded = load_pytorch(path)
    for key in ("list", "tuple", 1, "numbers", "ordered"):
        assert_same(loaded[key], obj[key])
    assert loaded["bytes"] == b"\x00\xffraw"
    assert loaded["set"] == {1, 2, 3}
    assert loaded["size"] == (2, 3)
    assert loaded["device"] == "cpu"
    assert load_pytorch(path, device="cpu")[1]["deep"]["deeper"].dtype == ug.int16
    torch.save(3.25, tmp_path / "number.pt")
    assert load_pytorch(tmp_path / "number.pt") == 3.25


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.uint16])
def test_unsupported_dtype_names_dtype_and_entry(tmp_path, dtype):
    path = tmp_path / "bf.pt"
    torch.save({"ok": torch.ones(2), "layer": {"weight": torch.ones(2, dtype=dtype)}}, path)
    name = str(dtype).split(".")[1]
    with pytest.raises(TypeError, match=rf"obj\['layer'\]\['weight'\].*{name}"):
        load_pytorch(path)


# --------------------------------------------------------------------------- without torch

def test_loads_in_a_process_without_torch(tmp_path):
    torch.manual_seed(2)
    model = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2))
    state = model.state_dict()
    state["view"] = state["0.weight"].transpose(0, 3)
    torch.save(state, tmp_path / "m.pt")
    out = tmp_path / "out"
    out.mkdir()
    script = textwrap.dedent(f"""
        import sys
        import numpy as np
        from unigrad.io_pytorch import load_pytorch
        state = load_pytorch({str(tmp_path / "m.pt")!r})
        assert "torch" not in sys.modules, "torch was imported"
        for i, (name, tensor) in enumerate(state.items()):
            np.save({str(out)!r} + f"/{{i}}.npy", tensor.numpy())
        print(",".join(state))
        """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().split(",") == list(state)
    for i, tensor in enumerate(state.values()):
        got = np.load(out / f"{i}.npy")
        want = tensor.contiguous().numpy()
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


# --------------------------------------------------------------------------- malicious files

def write_checkpoint(path, pickle_bytes, extra=()):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("evil/data.pkl", pickle_bytes)
        archive.writestr("evil/byteorder", "little")
        for name, data in extra:
            archive.writestr(name, data)


@pytest.mark.parametrize("module, name, arg", [
    ("os", "system", "touch {marker}"),
    ("builtins", "eval", "open({marker!r}, 'w').write('x')"),
    ("__builtin__", "exec", "open({marker!r}, 'w').write('x')"),
    ("subprocess", "Popen", "touch {marker}"),
    ("posix", "system", "touch {marker}"),
])
def test_forbidden_globals_are_refused_before_running(tmp_path, module, name, arg):
    marker = tmp_path / "pwned"
    text = arg.format(marker=str(marker)).encode()
    # {"x": module.name(text)} as a protocol-2 pickle: GLOBAL + REDUCE
    payload = (b"\x80\x02}q\x00X\x01\x00\x00\x00xc" + f"{module}\n{name}\n".encode()
               + b"X" + len(text).to_bytes(4, "little") + text + b"\x85Rs.")
    path = tmp_path / "evil.pt"
    write_checkpoint(path, payload)
    shown = f"builtins.{name}" if module == "__builtin__" else f"{module}.{name}"
    with pytest.raises(ForbiddenGlobalError, match=rf"refuses to load the global '{shown}'"):
        load_pytorch(path)
    assert isinstance(ForbiddenGlobalError("x"), pickle.UnpicklingError)
    assert not marker.exists()


def test_a_pickled_module_is_refused(tmp_path):
    path = tmp_path / "whole.pt"
    torch.save(torch.nn.Linear(2, 2), path)
    with pytest.raises(ForbiddenGlobalError, match="torch.nn.modules.linear.Linear"):
        load_pytorch(path)


def test_a_tensor_cannot_read_past_its_storage(tmp_path):
    pickled = (b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n((X\x07\x00\x00\x00storage"
               b"ctorch\nFloatStorage\nX\x01\x00\x00\x000X\x03\x00\x00\x00cpuK\x02tQ"
               b"K\x00K\x64\x85K\x01\x85\x89ctorch\nSize\n)RtR.")
    # the _rebuild_tensor_v2 args: storage, offset 0, size (100,), stride (1,), False, Size()
    path = tmp_path / "oob.pt"
    write_checkpoint(path, pickled, [("evil/data/0", np.ones(2, np.float32).tobytes())])
    with pytest.raises(ValueError, match="oob.pt.*2 elements, a tensor reads element 99"):
        load_pytorch(path)
    in_bounds = pickled.replace(b"K\x00K\x64\x85", b"K\x01K\x01\x85")  # offset 1, size (1,)
    write_checkpoint(tmp_path / "ok.pt", in_bounds,
                     [("evil/data/0", np.array([1, 2], np.float32).tobytes())])
    assert load_pytorch(tmp_path / "ok.pt").tolist() == [2.0]


# --------------------------------------------------------------------------- invalid files

def test_truncated_and_corrupt_files_name_the_path(tmp_path):
    good = tmp_path / "good.pt"
    torch.save({"w": torch.randn(64, 64)}, good)
    data = good.read_bytes()
    for name, content in [("truncated.pt", data[: len(data) // 2]), ("empty.pt", b""),
                          ("text.pt", b"hello, not a checkpoint"),
                          ("tail.pt", data[:-30])]:
        path = tmp_path / name
        path.write_bytes(content)
        assert not is_pytorch_checkpoint(path) or name == "tail.pt"
        with pytest.raises(ValueError, match=name):
            load_pytorch(path)


def test_zip_without_data_pkl_and_missing_storage(tmp_path):
    path = tmp_path / "nodata.pt"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("x/other.txt", "hi")
    assert not is_pytorch_checkpoint(path)
    with pytest.raises(ValueError, match="nodata.pt.*no data.pkl"):
        load_pytorch(path)
    good = tmp_path / "good.pt"
    torch.save({"w": torch.ones(3)}, good)
    broken = tmp_path / "nostorage.pt"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(broken, "w") as dst:
        for item in src.namelist():
            if "/data/" not in item:
                dst.writestr(item, src.read(item))
    with pytest.raises(ValueError, match="nostorage.pt.*missing"):
        load_pytorch(broken)


def test_legacy_format_is_explained(tmp_path):
    path = tmp_path / "legacy.pt"
    torch.save({"w": torch.ones(2)}, path, _use_new_zipfile_serialization=False)
    with pytest.raises(ValueError, match="legacy.*not supported.*torch.save"):
        load_pytorch(path)


def test_path_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_pytorch(tmp_path / "missing.pt")
    with pytest.raises(IsADirectoryError):
        load_pytorch(tmp_path)
    with pytest.raises(TypeError):
        load_pytorch(123)
    assert not is_pytorch_checkpoint(tmp_path / "missing.pt")


def test_big_endian_byteorder_record_is_respected(tmp_path):
    original = torch.arange(6, dtype=torch.float32).reshape(2, 3) / 3
    little = tmp_path / "little.pt"
    torch.save({"w": original}, little)
    big = tmp_path / "big.pt"
    with zipfile.ZipFile(little) as src, zipfile.ZipFile(big, "w") as dst:
        for item in src.namelist():
            data = src.read(item)
            if item.endswith("/byteorder"):
                data = b"big"
            elif "/data/" in item and not item.endswith("serialization_id"):
                data = np.frombuffer(data, "<f4").astype(">f4").tobytes()
            dst.writestr(item, data)
    loaded = load_pytorch(big)["w"]
    assert loaded.dtype == ug.float32
    assert loaded.numpy().tobytes() == original.numpy().tobytes()
