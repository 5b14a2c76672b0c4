"""The digits demo: MindSpore-style training with loss scaling, clipping and accumulation."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("tqdm")
pytest.importorskip("sklearn")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import unigrad as ug  # noqa: E402
from unigrad.cli import main  # noqa: E402
from unigrad.demos import DemoOptions, digits  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def data():
    return digits.load_data()


def test_data_is_standardized_and_split(data):
    assert data.x_train.shape == (1347, 64) and data.x_test.shape == (450, 64)
    assert data.x_train.dtype == np.float32
    assert np.allclose(data.x_train.mean(axis=0), 0, atol=1e-5)
    assert np.array_equal(data.onehot_train.argmax(axis=1), data.y_train)
    assert sorted(set(data.y_test.tolist())) == list(range(10))


def test_quick_run_prints_the_table_and_writes_the_png(tmp_path, capsys):
    assert main(["demo", "digits", "--quick", "--out", str(tmp_path), "--no-progress"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    header = next(index for index, line in enumerate(lines) if line.startswith("digits: mode"))
    assert "test accuracy" in lines[header] and "skipped (overflow)" in lines[header]
    row = lines[header + 2].split()
    assert row[0] == "eager" and row[1] == str(3 * (1347 // 64))
    assert float(row[3].rstrip("%")) > 90.0
    png = tmp_path / "digits.png"
    assert f"plot: {png}" in captured.out
    assert png.read_bytes()[:8] == PNG_SIGNATURE
    assert captured.err == ""  # --no-progress


def test_accumulated_micro_batches_equal_one_full_batch(data):
    # two micro-batches of 16 (each loss scaled by 1/2) give the gradient of one batch of 32
    micro = digits.train(digits.DigitsConfig(epochs=1, batch_size=16, accumulate_steps=2),
                         data, seed=1)
    full = digits.train(digits.DigitsConfig(epochs=1, batch_size=32, accumulate_steps=1),
                        data, seed=1)
    assert len(micro.losses) == len(full.losses) == 1347 // 32
    np.testing.assert_allclose(micro.losses, full.losses, rtol=2e-4)
    assert micro.accuracy == pytest.approx(full.accuracy, abs=0.01)


def test_loss_scaled_update_skips_overflow_and_shrinks_the_scale():
    w = ug.nn.Parameter(ug.tensor([1.0, -1.0]), name="w")
    scaler = ug.amp.DynamicLossScaler(scale_value=8.0, scale_factor=2, scale_window=2)
    update = digits.LossScaledUpdate(ug.optim.SGD([w], lr=0.5), scaler, clip_norm=10.0)
    assert update((ug.tensor([8.0, 16.0]),)) is True  # unscaled (1, 2), within the clip norm
    assert w.tolist() == [0.5, -2.0]
    assert update((ug.tensor([float("nan"), 0.0]),)) is False
    assert w.tolist() == [0.5, -2.0] and update.skipped == 1 and update.updates == 1
    assert float(scaler.scale_value) == 4.0


def test_jit_gives_the_same_accuracy(data, tmp_path):
    result = digits.run(DemoOptions(quick=True, jit=True, out=tmp_path, progress=False))
    assert result.metrics["jit_accuracy"] == pytest.approx(result.metrics["accuracy"], abs=0.01)
    assert result.metrics["speedup"] > 0
    assert "faster than eager" in result.table
    assert (tmp_path / "digits.png").read_bytes()[:8] == PNG_SIGNATURE


@pytest.mark.parametrize("field, value", [("epochs", 0), ("batch_size", 1.5),
                                          ("momentum", 1.0), ("clip_norm", 0)])
def test_config_rejects_bad_values(field, value):
    with pytest.raises(ValueError, match=field):
        digits.DigitsConfig(**{field: value})


def test_too_large_a_batch_is_a_clear_error(data):
    with pytest.raises(ValueError, match="exceeds the 1347 training images"):
        digits.train(digits.DigitsConfig(epochs=1, batch_size=1000, accumulate_steps=2), data)


@pytest.mark.slow
def test_full_run_reaches_the_target_accuracy_eager_and_compiled(tmp_path):
    result = digits.run(DemoOptions(jit=True, out=tmp_path, progress=False))
    assert result.metrics["accuracy"] > 0.95
    assert result.metrics["jit_accuracy"] > 0.95
    assert result.metrics["jit_accuracy"] == pytest.approx(result.metrics["accuracy"], abs=0.01)
    assert result.metrics["skipped"] == 0
