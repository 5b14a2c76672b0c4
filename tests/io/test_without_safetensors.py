"""Without the safetensors package: importing unigrad works, save/load say what to install."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import unigrad as ug
from unigrad.io import load, save


@pytest.fixture
def no_safetensors(monkeypatch):
    """Make ``import safetensors`` fail as if the package were not installed."""
    for name in list(sys.modules):
        if name == "safetensors" or name.startswith("safetensors."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "safetensors", None)
    monkeypatch.setitem(sys.modules, "safetensors.numpy", None)


def test_save_raises_import_error_and_writes_nothing(tmp_path, no_safetensors):
    with pytest.raises(ImportError) as info:
        save({"w": ug.tensor([1.0])}, tmp_path / "ckpt.safetensors")
    assert str(info.value) == ("ug.save needs the safetensors package: "
                               "pip install 'unigrad[io]'")
    assert os.listdir(tmp_path) == []


def test_load_raises_import_error(tmp_path, no_safetensors):
    path = tmp_path / "ckpt.safetensors"
    path.write_bytes(b"anything")
    with pytest.raises(ImportError) as info:
        load(path)
    assert str(info.value) == ("ug.load needs the safetensors package: "
                               "pip install 'unigrad[io]'")


def test_bad_objects_are_reported_before_the_missing_package(tmp_path, no_safetensors):
    with pytest.raises(TypeError, match=r"cannot save a set at obj\['x'\]"):
        save({"x": set()}, tmp_path / "ckpt.safetensors")


def test_importing_unigrad_does_not_import_safetensors():
    code = ("import sys, unigrad, unigrad.io; "
            "assert 'safetensors' not in sys.modules, 'safetensors was imported'")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
