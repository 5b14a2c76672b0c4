"""The PyTorch examples of ../shared/seeds, copied into examples/seeds/torch_*.py with only
their import lines changed, print what the seeds document.

The seed text lost everything between angle brackets, so its ``z tensor(3., grad_fn=)`` is
compared here as real PyTorch prints it: ``tensor(3., grad_fn=<AddBackward0>)``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

TEXT_NAMES = "torch"  # PyTorch's names in text forms (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "examples" / "seeds"


def run_example(name: str) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    completed = subprocess.run([sys.executable, str(SEEDS / name)], capture_output=True,
                               text=True, env=env, cwd=ROOT, timeout=120)
    assert completed.returncode == 0, completed.stderr
    return completed.stdout.splitlines()


def test_seed_000_backward_and_autograd_grad():
    assert run_example("torch_000_backward_and_grad.py") == [
        "tensor(12.) tensor(4.)",
        "tensor(12.)",
    ]


def test_seed_002_session_relations():
    lines = run_example("torch_002_grad_vs_backward.py")
    assert len(lines) == 5
    number = r"(-?\d+\.\d*)"
    inputs = re.fullmatch(rf"\(tensor\(\[{number}\], requires_grad=True\), "
                          rf"tensor\(\[{number}\], requires_grad=True\)\)", lines[0])
    assert inputs, lines[0]
    x1, x2 = (float(v) for v in inputs.groups())
    assert 0.0 <= x1 < 1.0 and 0.0 <= x2 < 1.0
    y = re.fullmatch(rf"tensor\(\[{number}\], grad_fn=<AddBackward0>\)", lines[1])
    assert y and float(y.group(1)) == pytest.approx(x1 ** 2 + 5 * x2, abs=2e-4)
    grads = re.fullmatch(rf"\(tensor\(\[{number}\]\), tensor\(\[5\.\]\)\)", lines[2])
    assert grads and float(grads.group(1)) == pytest.approx(2 * x1, abs=2e-4)   # dL/dx1 = 2*x1
    assert lines[3] == "None"                                                  # backward returns
    backward = re.fullmatch(rf"\(tensor\(\[{number}\]\), tensor\(\[5\.\]\)\)", lines[4])
    assert backward and 0.0 <= float(backward.group(1)) < 2.0


def test_seed_002_both_interfaces_agree_on_the_same_inputs():
    import unigrad.compat.torch as torch
    torch.manual_seed(7)
    x1 = torch.rand(1, requires_grad=True)
    x2 = torch.rand(1, requires_grad=True)
    y = x1**2 + 5*x2
    by_grad = torch.autograd.grad(y, (x1, x2), torch.ones_like(y), retain_graph=True)
    assert torch.autograd.backward(y, torch.ones_like(y)) is None
    assert torch.equal(by_grad[0], x1.grad) and torch.equal(by_grad[1], x2.grad)
    assert torch.allclose(x1.grad, 2 * x1.detach()) and x2.grad.tolist() == [5.0]


def test_seed_004_variable_backward_runs(tmp_path):
    import runpy
    namespace = runpy.run_path(str(SEEDS / "torch_004_variable_backward.py"))
    assert namespace["y"].tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert namespace["x"].grad_fn is not None


def test_seed_004_tensor_backward_and_autograd_backward():
    assert run_example("torch_004_tensor_and_autograd_backward.py") == [
        "=== tensor.backward ===",
        "x.grad before backward None",
        "y.grad before backward None",
        "z tensor(3., grad_fn=<AddBackward0>)",
        "x.grad tensor(2.)",
        "y.grad tensor(1.)",
        "=== torch.autograd.backward ===",
        "z tensor(3., grad_fn=<AddBackward0>)",
        "x.grad tensor(2.)",
        "y.grad tensor(1.)",
    ]


def test_seed_004_multiple_outputs():
    assert run_example("torch_004_multiple_outputs.py") == [
        "=== torch.autograd.backward 不支持多个output ===",
        "z tensor(3., grad_fn=<AddBackward0>)",
        "x.grad tensor(2.)",
        "y.grad tensor(1.)",
    ]


def test_seed_004_autograd_grad():
    assert run_example("torch_004_autograd_grad.py") == [
        "=== torch.autograd.grad ===",
        "out (tensor(2.),)",
        "out1 (tensor(1.),)",
    ]


def test_seed_004_no_grad():
    assert run_example("torch_004_no_grad.py") == [
        "=== torch.no_grad ===",
        "z.requires_grad True",
        "z.requires_grad False",
    ]


def test_seed_004_enable_grad():
    assert run_example("torch_004_enable_grad.py") == [
        "=== torch.enable_grad ===",
        "z.requires_grad False",
        "z.requires_grad True",
    ]


def test_examples_differ_from_the_seeds_only_in_import_lines():
    for path in SEEDS.glob("torch_*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import torch" not in text.replace("import unigrad.compat.torch as torch", "")
        assert "from torch" not in text
