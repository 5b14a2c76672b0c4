"""``unigrad`` / ``python -m unigrad``: commands, argument errors, missing demo dependencies."""

from __future__ import annotations

import sys

import pytest

from unigrad import cli
from unigrad.demos import DEMOS, DemoOptions, format_table, run_demos

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def needs_demo_dependencies():
    for module in ("matplotlib", "tqdm", "sklearn"):
        pytest.importorskip(module)


def test_help_lists_the_demos_with_one_line_each(capsys):
    assert cli.main(["--help"]) == 0
    top = capsys.readouterr().out
    assert top.startswith("usage: unigrad")
    assert cli.main(["demo", "--help"]) == 0
    demo = capsys.readouterr().out
    for text in (top, demo):
        for name, module in DEMOS.items():
            line = next(line for line in text.splitlines() if line.strip().startswith(name + " "))
            assert module.DESCRIPTION in line
    for option in ("--quick", "--jit", "--out", "--seed"):
        assert option in demo
    assert 'pip install "unigrad[demo]"' in demo


def test_version(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("unigrad ")


def test_unknown_demo_name_is_a_usage_error(capsys):
    assert cli.main(["demo", "pinn", "sudoku"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "usage: unigrad demo" in captured.err
    assert "invalid choice: 'sudoku' (choose from pinn, digits, dialects)" in captured.err


@pytest.mark.parametrize("arguments, message", [
    (["demo", "--seed", "-1"], "argument --seed: expected a non-negative integer, got '-1'"),
    (["demo", "--seed", "two"], "argument --seed: expected a non-negative integer, got 'two'"),
    (["demo", "--out", ""], "argument --out: expected a folder path"),
    (["demo", "--fast"], "unrecognized arguments: --fast"),
    (["tour", "--steps", "-1"], "argument --steps: expected a non-negative integer"),
    (["tour", "--learning-rate", "0"], "argument --learning-rate: expected a positive number"),
    (["bench"], "invalid choice: 'bench'"),
])
def test_bad_option_values_exit_with_status_2(arguments, message, capsys):
    assert cli.main(arguments) == 2
    assert message in capsys.readouterr().err


def test_out_must_not_be_a_file(tmp_path, capsys):
    existing = tmp_path / "plots.png"
    existing.write_bytes(b"")
    assert cli.main(["demo", "--out", str(existing)]) == 2
    assert "exists and is not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("module, distribution", [("tqdm", "tqdm"), ("sklearn", "scikit-learn"),
                                                  ("matplotlib", "matplotlib")])
def test_missing_demo_dependencies_name_the_pip_command(module, distribution, monkeypatch,
                                                        tmp_path, capsys):
    monkeypatch.setitem(sys.modules, module, None)  # `import module` now raises ImportError
    assert cli.main(["demo", "--quick", "--out", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert distribution in captured.err
    assert 'pip install "unigrad[demo]"' in captured.err
    assert "Traceback" not in captured.err
    assert not any(tmp_path.iterdir())


def test_no_command_runs_every_demo_with_the_defaults(monkeypatch, tmp_path):
    calls = []
    monkeypatch.setattr(cli, "require_demo_dependencies", lambda: None)
    monkeypatch.setattr(cli, "run_demos", lambda names, options: calls.append((names, options)))
    monkeypatch.chdir(tmp_path)
    assert cli.main([]) == 0
    assert calls == [(["pinn", "digits", "dialects"], DemoOptions(out=cli.DEFAULT_OUT))]
    assert (tmp_path / "unigrad-demo-output").is_dir()


def test_demo_names_and_options_are_passed_on(monkeypatch, tmp_path):
    calls = []
    monkeypatch.setattr(cli, "require_demo_dependencies", lambda: None)
    monkeypatch.setattr(cli, "run_demos", lambda names, options: calls.append((names, options)))
    out = tmp_path / "new" / "folder"
    assert cli.main(["demo", "dialects", "pinn", "dialects", "--quick", "--jit", "--seed", "7",
                     "--out", str(out), "--no-progress"]) == 0
    assert calls == [(["dialects", "pinn"], DemoOptions(quick=True, jit=True, out=out, seed=7,
                                                        progress=False))]
    assert out.is_dir()


def test_default_output_folder_is_created_in_the_current_directory(tmp_path, monkeypatch,
                                                                   capsys):
    needs_demo_dependencies()
    monkeypatch.chdir(tmp_path)
    assert cli.main(["demo", "pinn", "--quick", "--no-progress"]) == 0
    png = tmp_path / "unigrad-demo-output" / "pinn.png"
    assert png.read_bytes()[:8] == PNG_SIGNATURE
    assert "plot: unigrad-demo-output/pinn.png" in capsys.readouterr().out


def test_tour_prints_the_seed_gradients(capsys):
    assert cli.main(["tour", "--steps", "1"]) == 0
    output = capsys.readouterr().out
    assert "z.backward()                -> dz/dx = 12, dz/dy = 4" in output
    assert "f''(2) = 12" in output
    assert "final     loss 1.32e+00  w 1.1000  b 0.5000" in output


def test_run_demos_rejects_unknown_names(tmp_path):
    with pytest.raises(ValueError, match="unknown demo 'sudoku'; choose from pinn, digits, "
                                         "dialects"):
        run_demos(["pinn", "sudoku"], DemoOptions(out=tmp_path))


def test_demo_options_reject_a_bad_seed():
    with pytest.raises(ValueError, match="'seed' must be a non-negative int, got -1"):
        DemoOptions(seed=-1)


def test_format_table_aligns_columns_and_checks_its_input():
    table = format_table(["name", "value"], [["a", 1.5], ["longer", 10]])
    assert table.splitlines() == ["name    value", "------  -----", "a         1.5",
                                  "longer     10"]
    with pytest.raises(ValueError, match="row 0 has 1 cells, expected 2"):
        format_table(["name", "value"], [["a"]])
    with pytest.raises(ValueError, match="'align' must hold one '<' or '>' per column"):
        format_table(["name", "value"], [], align="<^")


def test_an_output_folder_that_cannot_be_created_exits_with_status_1(tmp_path, capsys):
    needs_demo_dependencies()
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    assert cli.main(["demo", "pinn", "--quick", "--out", str(blocker / "plots")]) == 1
    captured = capsys.readouterr()
    assert "cannot create the output folder" in captured.err and str(blocker) in captured.err
    assert "Traceback" not in captured.err
