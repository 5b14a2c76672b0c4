"""The pinn demo: the loss holds the network's second derivative, and it converges."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("tqdm")
pytest.importorskip("sklearn")

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import unigrad as ug  # noqa: E402
from unigrad.cli import main  # noqa: E402
from unigrad.demos import DemoOptions, pinn  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_quick_run_prints_the_table_and_writes_the_png(tmp_path, capsys):
    assert main(["demo", "pinn", "--quick", "--out", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    header = next(index for index, line in enumerate(lines) if line.startswith("pinn: mode"))
    assert "max |u - sin(pi x)| (1001 pts)" in lines[header]
    assert set(lines[header + 1].replace(" ", "")) == {"-"}
    row = lines[header + 2].split()
    assert row[0] == "eager" and row[1] == str(pinn.QUICK.steps)
    assert float(row[3]) < 2e-2  # max error after the quick 200 steps
    png = tmp_path / "pinn.png"
    assert f"plot: {png}" in captured.out
    assert png.read_bytes()[:8] == PNG_SIGNATURE
    assert "pinn (eager)" in captured.err  # the progress bar


def test_residual_loss_matches_the_analytic_second_derivative():
    # u = tanh(a x + b): u' = a (1 - u^2), u'' = -2 a^2 u (1 - u^2)
    a, b = 1.5, -0.25
    model = ug.nn.Sequential(ug.nn.Linear(1, 1), ug.nn.Tanh())
    with ug.no_grad():
        model[0].weight.fill_(a)
        model[0].bias.fill_(b)
    x = np.array([0.1, 0.4, 0.9], dtype=np.float32)
    forcing = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    u = np.tanh(a * x + b)
    u_xx = -2 * a ** 2 * u * (1 - u ** 2)
    boundary = np.tanh(np.array([b, a + b]))
    expected = np.mean((u_xx - forcing) ** 2) + 3.0 * np.mean(boundary ** 2)
    loss = pinn.residual_loss(model, ug.tensor(x.reshape(-1, 1)),
                              ug.tensor(forcing.reshape(-1, 1)), boundary_weight=3.0)
    assert loss.item() == pytest.approx(expected, rel=1e-5)
    loss.backward()  # differentiable with respect to the parameters
    assert model[0].weight.grad is not None and np.isfinite(model[0].weight.grad.numpy()).all()


def test_the_exact_solution_has_zero_residual():
    points = ug.linspace(0.0, 1.0, 7)
    assert np.allclose(pinn.exact_forcing(points).numpy(),
                       -(math.pi ** 2) * pinn.exact_solution(points.numpy()), atol=1e-5)


def test_training_is_seeded_and_deterministic():
    config = pinn.PinnConfig(steps=15, width=8, points=16)
    first = pinn.train(config, seed=3)
    again = pinn.train(config, seed=3)
    other = pinn.train(config, seed=4)
    assert first.losses == again.losses
    assert first.losses != other.losses
    assert first.losses[-1] < first.losses[0]


def test_jit_trains_the_same_network(tmp_path):
    result = pinn.run(DemoOptions(quick=True, jit=True, out=tmp_path, progress=False))
    assert result.metrics["jit_max_error"] == pytest.approx(result.metrics["max_error"],
                                                            rel=0.05, abs=1e-4)
    assert result.metrics["speedup"] > 0
    assert re.search(r"graph \(ug\.jit\)\s+200\s", result.table)
    assert "faster per step than eager" in result.table


@pytest.mark.parametrize("field, value", [("steps", 0), ("width", 2.5), ("points", True),
                                          ("learning_rate", -1.0)])
def test_config_rejects_bad_values(field, value):
    with pytest.raises(ValueError, match=field):
        pinn.PinnConfig(**{field: value})


@pytest.mark.slow
def test_full_run_reaches_the_target_error(tmp_path):
    result = pinn.run(DemoOptions(out=tmp_path, progress=False))
    assert result.metrics["steps"] == pinn.FULL.steps
    assert result.metrics["max_error"] < 1e-2
    assert result.metrics["seconds"] < 60
