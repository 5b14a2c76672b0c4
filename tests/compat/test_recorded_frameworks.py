"""unigrad's TensorFlow and MindSpore front-ends against results recorded from the real ones.

The cases live in ``tests/compat/recorded_cases``; ``tools/record_frameworks.py``
recorded them with TensorFlow and MindSpore into ``tests/records/*.json``.
Here every case runs on ``unigrad.compat.tensorflow``/``mindspore`` and its
result must match the record: floats to the case's tolerance, integers,
booleans, strings, dtypes and shapes exactly; a recorded exception must be
raised with the same type name (and the same message where the case says so).
Known gaps are listed in ``KNOWN_DIFFERENCES`` and xfail strictly.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf

from .recorded_cases import collect, encode, mindspore_cases, run, tensorflow_cases

RECORDS = Path(__file__).resolve().parent.parent / "records"
FRONT_ENDS = {"tensorflow": (tf, tensorflow_cases), "mindspore": (ms, mindspore_cases)}

# case name -> why unigrad's result differs from the record (xfail, strict)
KNOWN_DIFFERENCES = {
    "case_optimizer_momentum_nesterov_weight_decay":
        "MindSpore 2.10's CPU ApplyMomentum kernel ignores use_nesterov=True (plain momentum); "
        "unigrad follows the documented Nesterov formula",
    "case_optimizer_adagrad_no_update_slots":
        "MindSpore 2.10's CPU ApplyAdagrad kernel ignores update_slots=False (it still "
        "accumulates); unigrad follows the documented rule (accumulator frozen)",
}


def _load(framework: str) -> dict:
    return json.loads((RECORDS / f"{framework}.json").read_text())["cases"]


def _parameters() -> list:
    parameters = []
    for framework, (_, module) in FRONT_ENDS.items():
        recorded = _load(framework)
        for name, function in collect(module).items():
            marks = []
            if name in KNOWN_DIFFERENCES:
                marks.append(pytest.mark.xfail(reason=KNOWN_DIFFERENCES[name], strict=True))
            parameters.append(pytest.param(framework, name, function, recorded.get(name),
                                           id=f"{framework}-{name}", marks=marks))
    return parameters


def _compare(actual, expected, where: str, rtol: float, atol: float) -> None:
    """Assert that the encoded ``actual`` matches the recorded ``expected``."""
    if isinstance(expected, dict) and "array" in expected:
        assert isinstance(actual, dict) and "array" in actual, \
            f"{where}: expected an array, got {actual!r}"
        assert actual["dtype"] == expected["dtype"], \
            f"{where}: dtype {actual['dtype']} != recorded {expected['dtype']}"
        assert actual["shape"] == expected["shape"], \
            f"{where}: shape {actual['shape']} != recorded {expected['shape']}"
        _compare_numbers(np.asarray(actual["array"]), np.asarray(expected["array"]), where,
                         rtol, atol)
    elif isinstance(expected, dict):
        assert isinstance(actual, dict) and sorted(actual) == sorted(expected), \
            f"{where}: keys {actual!r} != recorded {sorted(expected)}"
        for key in expected:
            _compare(actual[key], expected[key], f"{where}[{key!r}]", rtol, atol)
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), \
            f"{where}: {actual!r} != recorded {expected!r}"
        for index, (left, right) in enumerate(zip(actual, expected)):
            _compare(left, right, f"{where}[{index}]", rtol, atol)
    elif isinstance(expected, float):
        assert isinstance(actual, (int, float)) and not isinstance(actual, bool), \
            f"{where}: expected a float, got {actual!r}"
        _compare_numbers(np.asarray(float(actual)), np.asarray(expected), where, rtol, atol)
    else:
        assert type(actual) is type(expected) and actual == expected, \
            f"{where}: {actual!r} != recorded {expected!r}"


def _compare_numbers(actual: np.ndarray, expected: np.ndarray, where: str, rtol: float,
                     atol: float) -> None:
    if expected.dtype.kind == "f" or actual.dtype.kind == "f":
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, err_msg=where)
    else:
        np.testing.assert_array_equal(actual, expected, err_msg=where)


@pytest.mark.parametrize(("framework", "name", "function", "recorded"), _parameters())
def test_case_matches_record(framework, name, function, recorded):
    assert recorded is not None, f"{name} has no record: run tools/record_frameworks.py " \
                                 f"{framework}"
    front_end = FRONT_ENDS[framework][0]
    if "error" in recorded:
        expected = recorded["error"]
        with pytest.raises(Exception) as caught:
            function(front_end)
        names = [cls.__name__ for cls in type(caught.value).__mro__]
        assert expected["type"] in names, (
            f"raised {type(caught.value).__name__}: {caught.value}; the framework raised "
            f"{expected['type']}: {expected['message']}")
        if function.same_message:
            assert str(caught.value) == expected["message"]
        return
    _compare(encode(function(front_end)), recorded["value"], name, function.rtol,
             function.atol)


def test_every_record_has_a_case():
    for framework, (_, module) in FRONT_ENDS.items():
        stale = sorted(set(_load(framework)) - set(collect(module)))
        assert not stale, f"{framework} records cases that no longer exist: {stale}"


def _recorder():
    """``tools/record_frameworks.py`` imported by path (it is a script, not a package)."""
    path = RECORDS.parent.parent / "tools" / "record_frameworks.py"
    spec = importlib.util.spec_from_file_location("record_frameworks", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("framework", sorted(FRONT_ENDS))
def test_recorder_loads_the_same_cases(framework):
    before = set(sys.modules)
    try:
        package, module = _recorder().load_cases(framework)
        assert list(package.collect(module)) == list(collect(FRONT_ENDS[framework][1]))
    finally:  # the recorder's top-level 'recorded_cases' package is not left behind
        for name in set(sys.modules) - before:
            del sys.modules[name]


def test_recorder_layout_round_trips():
    document = {"framework": "tensorflow", "versions": {"tensorflow": "2.21.0"},
                "recorded": "2026-01-01",
                "cases": {"case_a": run(lambda tf: np.arange(3, dtype=np.int32), None),
                          "case_b": run(lambda tf: 1 / 0, None)}}
    text = _recorder()._layout(document)
    assert json.loads(text) == document
    assert len(text.splitlines()) == 4  # header, one line per case, closing braces
    assert document["cases"]["case_a"] == {"value": {"dtype": "int32", "shape": [3],
                                                     "array": [0, 1, 2]}}
    assert document["cases"]["case_b"] == {"error": {"type": "ZeroDivisionError",
                                                     "message": "division by zero"}}


@pytest.mark.parametrize("framework", sorted(FRONT_ENDS))
def test_records_name_their_framework_and_version(framework):
    document = json.loads((RECORDS / f"{framework}.json").read_text())
    assert document["framework"] == framework
    assert document["versions"][framework]
    assert document["recorded"]


def test_comparison_detects_differences():
    encoded = encode([np.array([1.0, 2.0], np.float32), 3, "x"])
    _compare(encoded, encoded, "same", 1e-6, 1e-7)
    changed = encode([np.array([1.0, 2.001], np.float32), 3, "x"])
    with pytest.raises(AssertionError):
        _compare(changed, encoded, "value", 1e-6, 1e-7)
    with pytest.raises(AssertionError, match="dtype"):
        _compare(encode([np.array([1.0, 2.0]), 3, "x"]), encoded, "dtype", 1e-6, 1e-7)
    with pytest.raises(AssertionError):
        _compare(encode([np.array([1.0, 2.0], np.float32), 4, "x"]), encoded, "int", 1e-6,
                 1e-7)
