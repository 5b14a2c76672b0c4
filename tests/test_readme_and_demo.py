"""The README's promises: its two commands, its examples, the demo, and ``.ci/run``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CI_SCRIPT = ROOT / ".ci" / "run"

DEMO_COMMAND = ('python3 -m venv .venv && .venv/bin/pip install -q ".[demo]" '
                "&& .venv/bin/python -m unigrad demo")
TEST_COMMAND = ('python3 -m venv .venv-test && .venv-test/bin/pip install -q ".[test]" '
                "&& .venv-test/bin/python -m pytest")


def readme_commands() -> list[str]:
    """The command lines of the README's leading ``bash`` blocks, before the first prose."""
    commands = []
    in_block = False
    for line in README.read_text().splitlines()[1:]:
        if line.startswith("```"):
            in_block = not in_block
        elif in_block:
            commands.append(line)
        elif line.strip() and commands:
            break
    return commands


def run_demo(*arguments: str) -> subprocess.CompletedProcess:
    """Run ``python -m unigrad`` in a fresh interpreter from the repository root."""
    return subprocess.run([sys.executable, "-m", "unigrad", *arguments], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


def test_readme_starts_with_title_sentence_and_the_two_commands():
    lines = README.read_text().splitlines()
    assert lines[0] == "# unigrad"
    first_block = next(index for index, line in enumerate(lines) if line.startswith("```"))
    prose = [line for line in lines[1:first_block] if line.strip()]
    assert len(prose) == 1 and prose[0].endswith(".")
    assert readme_commands() == [DEMO_COMMAND, TEST_COMMAND]


def test_ci_script_runs_the_readme_test_command_strictly():
    script = CI_SCRIPT.read_text()
    assert script.startswith("#!/usr/bin/env bash")
    assert "set -euo pipefail" in script
    assert TEST_COMMAND in script.splitlines()
    assert "rm -rf .venv-test" in script
    assert "|| true" not in script and "|| :" not in script
    assert CI_SCRIPT.stat().st_mode & 0o111, ".ci/run must be executable"


_README_DOCTEST = """
import doctest, sys
result = doctest.testfile(sys.argv[1], module_relative=False, verbose=False,
                          optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
print("attempted", result.attempted)
sys.exit(1 if result.failed else 0)
"""


def test_readme_examples_run():
    """Every ``>>>`` example in the README prints what the README says, in a fresh
    interpreter as a reader runs them (importing a front-end there is its first import)."""
    completed = subprocess.run([sys.executable, "-c", _README_DOCTEST, str(README)],
                               capture_output=True, text=True, cwd=README.parent, timeout=600)
    assert completed.returncode == 0, f"README examples failed:\n{completed.stdout[-6000:]}"
    attempted = int(completed.stdout.rsplit("attempted", 1)[1].split()[0])
    assert attempted > 20


def test_readme_performance_table_is_filled_in():
    text = README.read_text()
    assert "PERFORMANCE_TABLE" not in text
    table = text.split("## Performance", 1)[1].split("## ", 1)[0]
    assert re.search(r"\| *chain *\|", table) and re.search(r"\| *mlp *\|", table)


def test_readme_op_list_is_generated_from_the_registry():
    """The README's op list names every public op of every family (regenerate it with
    ``python tools/readme_ops.py``)."""
    from tools.readme_ops import current, render
    assert current() == render(), "README op list is stale: run python tools/readme_ops.py"


def test_demo_prints_the_seed_gradients_and_a_falling_loss():
    result = run_demo("tour")
    assert result.returncode == 0, result.stderr
    output = result.stdout
    assert "z.backward()                -> dz/dx = 12, dz/dy = 4" in output
    assert "ug.autograd.grad(z, (x, y)) -> dz/dx = 12, dz/dy = 4" in output
    assert "ug.grad(net, (0, 1))(x, y)  -> dz/dx = 12, dz/dy = 4   (MindSpore)" in output
    assert "GradientTape().gradient     -> dz/dx = 12, dz/dy = 4   (TensorFlow)" in output
    assert "f'(2)  = 12" in output
    assert "f''(2) = 12" in output
    losses = [float(value) for value in re.findall(r"loss (\S+)", output)]
    assert len(losses) >= 3
    assert losses[0] == pytest.approx(3.55, rel=1e-3)
    assert all(later <= earlier for earlier, later in zip(losses, losses[1:]))
    assert losses[-1] < 1e-6
    final = re.search(r"final\s+loss \S+\s+w (\S+)\s+b (\S+)", output)
    assert final is not None
    assert float(final.group(1)) == pytest.approx(3.0, abs=1e-3)
    assert float(final.group(2)) == pytest.approx(0.5, abs=1e-3)


def test_demo_options(tmp_path):
    help_result = run_demo("--help")
    assert help_result.returncode == 0
    assert "usage: python -m unigrad" in help_result.stdout
    for name in ("pinn", "digits", "dialects"):
        assert f"\n  {name} " in help_result.stdout

    short = run_demo("tour", "--steps", "1")
    assert short.returncode == 0, short.stderr
    assert re.search(r"final\s+loss 1\.32e\+00\s+w 1\.1000\s+b 0\.5000", short.stdout)

    bad = run_demo("tour", "--steps", "-1")
    assert bad.returncode == 2
    assert "argument --steps: expected a non-negative integer, got '-1'" in bad.stderr

    unknown = run_demo("demo", "sudoku")
    assert unknown.returncode == 2
    assert "invalid choice: 'sudoku' (choose from pinn, digits, dialects)" in unknown.stderr

    for module in ("matplotlib", "tqdm", "sklearn"):
        pytest.importorskip(module)
    quick = run_demo("demo", "pinn", "--quick", "--out", str(tmp_path))
    assert quick.returncode == 0, quick.stderr
    assert "pinn: mode" in quick.stdout
    assert (tmp_path / "pinn.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
