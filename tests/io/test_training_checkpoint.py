"""A model and its optimizer saved with ug.save and restored with ug.load continue bit-exactly."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn

pytest.importorskip("safetensors")


def build(seed: int = 0):
    ug.manual_seed(seed)
    model = nn.Sequential(nn.Linear(3, 8), nn.BatchNorm1d(8), nn.Tanh(), nn.Linear(8, 1))
    optimizer = ug.optim.Adam(model.parameters(), lr=0.05, amsgrad=True)
    return model, optimizer


def train(model, optimizer, x, y, steps: int) -> list:
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = nn.MSELoss()(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


@pytest.mark.parametrize("optimizer_name", ["Adam", "SGD"])
def test_resume_from_a_checkpoint_is_bit_identical(tmp_path, optimizer_name):
    ug.manual_seed(1)
    x = ug.randn(16, 3)
    y = (x ** 2).sum(dim=1, keepdim=True)
    model, optimizer = build()
    if optimizer_name == "SGD":
        optimizer = ug.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    train(model, optimizer, x, y, 3)
    path = tmp_path / "ckpt.safetensors"
    ug.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": 3}, path)

    restored_model, restored_optimizer = build(seed=99)  # different initial weights
    if optimizer_name == "SGD":
        restored_optimizer = ug.optim.SGD(restored_model.parameters(), lr=0.05, momentum=0.9,
                                          nesterov=True)
    checkpoint = ug.load(path)
    assert checkpoint["epoch"] == 3
    restored_model.load_state_dict(checkpoint["model"])
    restored_optimizer.load_state_dict(checkpoint["optimizer"])

    assert train(model, optimizer, x, y, 4) == train(restored_model, restored_optimizer, x, y, 4)
    for (name, mine), (_, theirs) in zip(model.state_dict().items(),
                                         restored_model.state_dict().items()):
        assert mine.numpy().tobytes() == theirs.numpy().tobytes(), name


def test_state_dict_file_uses_the_parameter_paths(tmp_path):
    model, _ = build()
    ug.save(model.state_dict(), tmp_path / "model.safetensors")
    from safetensors.numpy import load_file
    stored = load_file(str(tmp_path / "model.safetensors"))
    assert set(stored) == set(model.state_dict())
    np.testing.assert_array_equal(stored["0.weight"], model[0].weight.numpy(force=True))


def test_truncated_model_checkpoint_fails_cleanly_and_leaves_the_model(tmp_path):
    model, _ = build()
    path = tmp_path / "model.safetensors"
    ug.save(model.state_dict(), path)
    payload = path.read_bytes()
    before = {k: v.numpy().copy() for k, v in model.state_dict().items()}
    for tenth in range(10):
        path.write_bytes(payload[: len(payload) * tenth // 10])
        with pytest.raises(ValueError, match="model.safetensors"):
            model.load_state_dict(ug.load(path))
    for key, value in model.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), before[key])
