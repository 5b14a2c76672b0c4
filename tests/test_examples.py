"""The training examples in ``examples/`` run to the end and reach what they promise.

Each example is a PyTorch script with only its imports changed; it asserts its
own result (a PINN's error, a classifier's accuracy), so a zero exit status
means the promise held.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.slow
@pytest.mark.parametrize("name, expected", [
    ("pinn_adam_lbfgs.py", "max |u - sin(pi x)| on [-1, 1]"),
    ("cnn_dataloader.py", "epoch 5: train loss"),
    ("lstm_sequence.py", "epoch 9: train loss"),
])
def test_example_runs(name, expected):
    result = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True,
                            text=True, timeout=600, cwd=EXAMPLES.parent)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    assert expected in result.stdout
