"""Safetensors files written by other tools load as flat dicts of unigrad Tensors."""

from __future__ import annotations

import os

import numpy as np
import pytest

import unigrad as ug
from unigrad.io import load

from .helpers import assert_bit_exact

st_numpy = pytest.importorskip("safetensors.numpy")

DTYPES = [np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64,
          np.float16, np.float32, np.float64]


def test_numpy_safetensors_file_loads_as_a_flat_dict(ckpt, rng):
    arrays = {f"layer.{np.dtype(d).name}": (rng.standard_normal((2, 3)) * 10).astype(d)
              for d in DTYPES}
    arrays["scalar"] = np.array(2.5, np.float32)
    arrays["empty"] = np.zeros((0, 4), np.int64)
    st_numpy.save_file(arrays, os.fspath(ckpt))
    loaded = load(ckpt)
    assert type(loaded) is dict
    assert list(loaded) == sorted(arrays)
    for name, array in arrays.items():
        assert_bit_exact(loaded[name], array)


def test_foreign_metadata_without_the_unigrad_key_is_ignored(ckpt):
    st_numpy.save_file({"w": np.arange(3, dtype=np.int32)}, os.fspath(ckpt),
                                metadata={"format": "np", "note": "{not json"})
    loaded = load(ckpt)
    assert list(loaded) == ["w"] and loaded["w"].tolist() == [0, 1, 2]
    assert loaded["w"].dtype == ug.int32


def test_empty_safetensors_file_loads_as_an_empty_dict(ckpt):
    ckpt.write_bytes((2).to_bytes(8, "little") + b"{}")
    assert load(ckpt) == {}


def test_bytes_from_safetensors_numpy_save_load(ckpt):
    ckpt.write_bytes(st_numpy.save({"a": np.array([True, False])}))
    assert_bit_exact(load(ckpt)["a"], np.array([True, False]))


@pytest.mark.torch
def test_file_written_by_safetensors_torch_loads_with_the_same_values(ckpt):
    torch = pytest.importorskip("torch")
    from safetensors.torch import save_file

    generator = torch.Generator().manual_seed(0)
    tensors = {
        "fc.weight": torch.randn(4, 3, generator=generator),
        "fc.bias": torch.randn(4, generator=generator, dtype=torch.float64),
        "half": torch.randn(5, generator=generator).half(),
        "steps": torch.tensor(7),
        "mask": torch.tensor([True, False, True]),
        "bytes": torch.tensor([0, 255], dtype=torch.uint8),
        "i8": torch.tensor([-128, 127], dtype=torch.int8),
        "i16": torch.tensor([-3, 4], dtype=torch.int16),
        "i32": torch.arange(6, dtype=torch.int32).reshape(2, 3),
        "empty": torch.zeros(0, 2),
    }
    save_file(tensors, os.fspath(ckpt))
    loaded = load(ckpt)
    assert sorted(loaded) == sorted(tensors)
    for name, tensor in tensors.items():
        assert_bit_exact(loaded[name], tensor.numpy())


@pytest.mark.torch
def test_bfloat16_from_torch_is_a_clear_type_error(ckpt):
    torch = pytest.importorskip("torch")
    from safetensors.torch import save_file

    save_file({"w": torch.ones(2, dtype=torch.bfloat16)}, os.fspath(ckpt))
    with pytest.raises(TypeError, match="tensor 'w' in .* has dtype BF16, which unigrad does "
                                        "not support"):
        load(ckpt)
