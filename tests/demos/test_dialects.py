"""The dialects demo: every front-end computes the same gradients, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from unigrad.demos import DemoOptions, dialects

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
LABELS = [spelling.label for spelling in dialects.SPELLINGS]


def numpy_gradients(problem: dialects.Problem) -> list[np.ndarray]:
    """The backward pass of the demo's model written out by hand, in float64."""
    x, y = problem.x.astype(np.float64), problem.y.astype(np.float64)
    w1, b1, w2, b2 = (weight.astype(np.float64) for weight in problem.weights)
    hidden = np.tanh(x @ w1 + b1)
    d_out = 2 * (hidden @ w2 + b2 - y) / y.size
    d_pre = (d_out @ w2.T) * (1 - hidden ** 2)
    return [x.T @ d_pre, d_pre.sum(axis=0), hidden.T @ d_out, d_out.sum(axis=0)]


@pytest.fixture(scope="module")
def comparison():
    return dialects.compare(dialects.make_problem(seed=0))


def test_every_spelling_matches_the_hand_written_backward_pass(comparison):
    expected = numpy_gradients(dialects.make_problem(seed=0))
    assert comparison.labels == LABELS
    for label, grads in zip(comparison.labels, comparison.grads):
        assert [grad.dtype for grad in grads] == [np.float32] * 4, label
        for grad, reference in zip(grads, expected):
            np.testing.assert_allclose(grad, reference, rtol=1e-5, atol=1e-6, err_msg=label)


def test_the_spellings_agree_bit_for_bit(comparison):
    differences = comparison.max_differences()
    assert all(difference <= 1e-6 for difference in differences)
    identical = dict(zip(comparison.labels, comparison.bit_identical()))
    # the eager spellings run the same primitives in the same order
    assert all(identical[label] for label in LABELS[:4]), identical
    assert max(comparison.losses) - min(comparison.losses) <= 1e-6


def test_problem_is_seeded():
    first, again, other = (dialects.make_problem(seed) for seed in (5, 5, 6))
    assert all(np.array_equal(a, b) for a, b in zip(first.weights, again.weights))
    assert not np.array_equal(first.weights[0], other.weights[0])


def test_quick_run_prints_the_table_and_writes_the_png(tmp_path, capsys):
    for module in ("matplotlib", "tqdm", "sklearn"):
        pytest.importorskip(module)
    import matplotlib

    matplotlib.use("Agg")
    from unigrad.cli import main

    assert main(["demo", "dialects", "--quick", "--out", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    header = next(index for index, line in enumerate(lines)
                  if line.startswith("dialects: gradient"))
    for label in LABELS:
        assert label in lines[header]
    rows = {line.split("  ")[0].strip(): line for line in lines[header + 2:]}
    identical = rows["bit-identical to col 1"].split()[4:]
    assert identical[:4] == ["yes"] * 4
    w1 = rows["d loss/d w1[0, 0]"].split()[4:]
    assert len(w1) == len(LABELS) and len(set(w1)) == 1
    png = tmp_path / "dialects.png"
    assert f"plot: {png}" in captured.out
    assert png.read_bytes()[:8] == PNG_SIGNATURE


def test_run_reports_the_differences(tmp_path):
    pytest.importorskip("matplotlib")
    result = dialects.run(DemoOptions(quick=True, out=tmp_path, progress=False))
    assert set(result.metrics["max_differences"]) == set(LABELS)
    assert max(result.metrics["max_differences"].values()) <= 1e-6
    assert result.figures == [tmp_path / "dialects.png"]
