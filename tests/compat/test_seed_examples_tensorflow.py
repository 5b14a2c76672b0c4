"""The TensorFlow example of seed 003 (examples/seeds/tensorflow_003_gradients.py, only its
import line changed) prints the documented gradients; whitespace differs from the seed's
wrapped listing, so both are compared with whitespace removed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "seeds" / "tensorflow_003_gradients.py"

DOCUMENTED = """[array([2., 2., 3.], dtype=float32),
 array([2., 2., 3.], dtype=float32),
 array([5., 4., 7.], dtype=float32),
 array([3., 2., 4.], dtype=float32)]"""


def squeeze(text: str) -> str:
    return "".join(text.split())


def test_seed_003_gradients_with_grad_ys_in_a_session():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    completed = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True,
                               env=env, cwd=ROOT, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert squeeze(completed.stdout) == squeeze(DOCUMENTED)


def test_seed_003_import_line_is_the_only_change():
    text = EXAMPLE.read_text(encoding="utf-8")
    assert "import unigrad.compat.tensorflow as tf" in text
    assert "import tensorflow" not in text
    assert "tf.get_variable('w1', shape=[3])" in text
    assert "grads = tf.gradients([z1, z2], [w1, w2, w3, w4], grad_ys=" in text
