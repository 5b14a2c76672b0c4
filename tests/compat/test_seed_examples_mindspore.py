"""The MindSpore examples of ../shared/seeds run on ``unigrad.compat.mindspore``.

Each ``examples/seeds/mindspore_*.py`` is a seed's MindSpore code with only its
import lines changed. It is run in-process (``runpy``, stdout captured) and its
output is compared with the output the seed documents. Seed 004's "运行结果"
blocks after the first two were flattened onto one line when the seed text was
extracted (newlines and runs of spaces collapsed), so those comparisons
normalize whitespace; the others compare exactly.
"""

from __future__ import annotations

import contextlib
import io
import re
import runpy
from pathlib import Path

import numpy as np
import pytest

import unigrad as ug

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "seeds"
SEEDS = ROOT.parent / "shared" / "seeds"

GRAD_X = ("Tensor(shape=[1, 3], dtype=Float32, value= "
          "[[4.00000000e+000, 6.00000000e+000, 8.00000000e+000]])")
GRAD_W = ("Tensor(shape=[1, 3], dtype=Float32, value= "
          "[[2.00000000e+000, 4.00000000e+000, 6.00000000e+000]])")
LOGIT = "(Tensor(shape=[], dtype=Float32, value= 20),)"
MINUS_TWO = "Tensor(shape=[], dtype=Float32, value= -2)"
LOSS_SCALE = (
    "loss 1.0 === loss scale === loss 1024.0 grad (Tensor(shape=[1, 3], dtype=Float32, value= "
    "[[2.04800000e+003, 4.09600000e+003, 6.14400000e+003]]),) === unscale === loss 1.0 grad "
    f"({GRAD_W},) True")

# file -> (documented output, exact?)
EXPECTED = {
    "mindspore_000_grad_wrt_x.py": (
        "[[1.4100001 1.5999999 6.6      ]\n [1.4100001 1.5999999 6.6      ]]\n", True),
    "mindspore_003_grad_wrt_x.py": (
        "[[1.4100001 1.5999999 6.6      ]\n [1.4100001 1.5999999 6.6      ]]\n", True),
    "mindspore_004_01_grad_net_wrt_x.py": ("", True),
    "mindspore_004_02_grad_position.py": ("=== mindspore.grad ===\nout 2.0\nout1 1.0\n", True),
    "mindspore_004_03_grad_multiple_outputs.py": (
        "=== mindspore.grad 多个output ===\nout 3.0\nout1 3.0\n", True),
    "mindspore_004_04_grad_has_aux.py": ("=== mindspore.grad has_aux === out 2.0 out 1.0", False),
    "mindspore_004_05_net_weights_output.py": (
        "=== weight === name: fc.weight data: [[2. 3. 4.]] === output === 1.0 20.0", False),
    "mindspore_004_06_grads_1.py": (f"=== grads 1 === grad [[4. 6. 8.]] logit {LOGIT}", False),
    "mindspore_004_07_grads_2.py": (f"=== grads 2 === grad -2.0 logit {LOGIT}", False),
    "mindspore_004_08_grads_3.py": (
        f"=== grads 3 === grad ({GRAD_X}, {MINUS_TWO}) logit {LOGIT}", False),
    "mindspore_004_09_grads_4.py": (f"=== grads 4 === grad ({GRAD_W},) logits {LOGIT}", False),
    "mindspore_004_10_grads_5.py": (
        f"=== grads 5 === grad ({GRAD_X}, ({GRAD_W},)) logit {LOGIT}", False),
    "mindspore_004_11_grads_6.py": (
        f"=== grads 6 === grad (({GRAD_X}, {MINUS_TWO}), ({GRAD_W},)) logit {LOGIT}", False),
    "mindspore_004_12_grads_7.py": ("=== grads 7 === grad [[ 6. 9. 12.]]", False),
    "mindspore_004_13_grads_sum_net2.py": ("grad [[ 6. 9. 12.]]", False),
    "mindspore_004_15_value_and_grad.py": (
        "=== value and grad === value (Tensor(shape=[], dtype=Float32, value= 1), "
        "Tensor(shape=[], dtype=Float32, value= 20)) "
        f"grad (({GRAD_X}, {MINUS_TWO}), ({GRAD_W},))", False),
    "mindspore_004_16_loss_scale.py": (LOSS_SCALE, False),
    "mindspore_004_17_clip_by_global_norm.py": (LOSS_SCALE, False),
}


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def run_example(name: str) -> tuple[str, dict]:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        namespace = runpy.run_path(str(EXAMPLES / name), run_name="__main__")
    return buffer.getvalue(), namespace


@pytest.fixture(autouse=True)
def _pynative():
    ug.set_context(mode=ug.PYNATIVE_MODE)
    yield
    ug.set_context(mode=ug.PYNATIVE_MODE)


def test_every_mindspore_example_is_checked():
    files = {p.name for p in EXAMPLES.glob("mindspore_*.py")}
    assert files == set(EXPECTED) | {"mindspore_004_14_grads_8_error.py"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_prints_the_documented_output(name):
    expected, exact = EXPECTED[name]
    output, _ = run_example(name)
    if exact:
        assert output == expected
    else:
        assert squash(output) == squash(expected)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not available")
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_documented_output_is_quoted_from_the_seed(name):
    """The expected strings above are the seeds' text (whitespace aside)."""
    seed = next(SEEDS.glob(name.split("_")[1] + "_*.txt")).read_text(encoding="utf-8")
    expected = squash(EXPECTED[name][0])
    if name == "mindspore_004_17_clip_by_global_norm.py":
        expected = squash(EXPECTED["mindspore_004_16_loss_scale.py"][0])
    # seeds 000/003 document their output in "# Out:" comments
    assert expected in squash(seed) or expected in squash(seed.replace("#", " "))


def test_seed_examples_import_lines_only_differ():
    """Apart from comments and import lines, each example's lines occur in its seed."""
    if not SEEDS.is_dir():
        pytest.skip("the seed documents are not available")
    for path in EXAMPLES.glob("mindspore_*.py"):
        seed = squash(next(SEEDS.glob(path.name.split("_")[1] + "_*.txt")).read_text("utf-8"))
        for line in path.read_text("utf-8").splitlines():
            code = line.strip()
            if not code or code.startswith("#") or "unigrad" in code:
                continue
            assert squash(code) in seed, (path.name, code)


def test_grads_8_raises_the_documented_value_error():
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), pytest.raises(ValueError) as info:
        runpy.run_path(str(EXAMPLES / "mindspore_004_14_grads_8_error.py"), run_name="__main__")
    assert str(info.value) == "`grad_position` and `weight` can not be None at the same time."
    assert buffer.getvalue() == "=== grads 8 ===\n"


def test_multiple_outputs_true_value_of_out1():
    """The seed prints ``out`` under the label out1 (a typo); out1 itself is 1.0."""
    _, namespace = run_example("mindspore_004_03_grad_multiple_outputs.py")
    assert float(namespace["out"]) == 3.0
    assert float(namespace["out1"]) == 1.0
    assert type(namespace["out1"]).__module__ == "unigrad.compat.mindspore._tensor"


def test_grad_net_wrt_x_cell_computes_input_gradients():
    """Seed 004's first block only defines GradNetWrtX; use it on a small net."""
    _, namespace = run_example("mindspore_004_01_grad_net_wrt_x.py")
    ms = namespace["ms"]
    nn = namespace["nn"]

    class Product(nn.Cell):
        def construct(self, x, y):
            return x * x * y

    grad = namespace["GradNetWrtX"](Product())(ms.Tensor(2.0), ms.Tensor(3.0))
    assert repr(grad) == "Tensor(shape=[], dtype=Float32, value= 12)"


def test_seed_000_gradient_values():
    _, namespace = run_example("mindspore_000_grad_wrt_x.py")
    output = namespace["output"]
    y = namespace["y"].asnumpy()
    expected = np.ones((2, 3), np.float32) @ y.T
    np.testing.assert_allclose(output.asnumpy(), expected, rtol=1e-6)
    assert output.dtype == namespace["ms"].float32


def test_clip_by_global_norm_block_clips_to_unit_norm():
    _, namespace = run_example("mindspore_004_17_clip_by_global_norm.py")
    grad = namespace["grad"]
    assert isinstance(grad, tuple) and len(grad) == 1
    expected = np.array([[2.0, 4.0, 6.0]], np.float32) / np.sqrt(56.0)
    np.testing.assert_allclose(grad[0].asnumpy(), expected, rtol=1e-6)
    assert repr(grad[0]).startswith("Tensor(shape=[1, 3], dtype=Float32")
