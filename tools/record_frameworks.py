"""Record TensorFlow's or MindSpore's results of the shared cases into ``tests/records``.

TensorFlow and MindSpore are too heavy for unigrad's CI, so the tests compare
unigrad's front-ends with results recorded once from the real frameworks.
Run this script with the Python of an environment where the framework is
installed (unigrad is not needed there)::

    /path/to/tf-env/bin/python tools/record_frameworks.py tensorflow
    /path/to/ms-env/bin/python tools/record_frameworks.py mindspore

It imports ``tests/compat/recorded_cases/<framework>_cases.py`` by file path,
runs every case with the real framework module and writes
``tests/records/<framework>.json``: the framework's version, the date, and per
case either ``{"value": ...}`` (arrays as ``{"dtype", "shape", "array"}``) or
``{"error": {"type", "message"}}``. ``tests/compat/test_recorded_frameworks.py``
runs the same cases on unigrad and compares. Re-run it after adding or
changing a case, and commit the JSON file.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import importlib.util
import json
import os
import platform
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
CASES_DIRECTORY = ROOT / "tests" / "compat" / "recorded_cases"
RECORDS_DIRECTORY = ROOT / "tests" / "records"
FRAMEWORKS = ("tensorflow", "mindspore")


def load_cases(framework: str):
    """The case package's helpers and the framework's case module, loaded by file path."""
    spec = importlib.util.spec_from_file_location(
        "recorded_cases", CASES_DIRECTORY / "__init__.py",
        submodule_search_locations=[str(CASES_DIRECTORY)])
    package = importlib.util.module_from_spec(spec)
    sys.modules["recorded_cases"] = package
    spec.loader.exec_module(package)
    return package, importlib.import_module(f"recorded_cases.{framework}_cases")


def import_framework(framework: str) -> tuple[object, dict]:
    """The real framework module (submodules the cases use imported) and its versions."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("GLOG_v", "3")
    if framework == "tensorflow":
        import tensorflow

        versions = {"tensorflow": tensorflow.__version__,
                    "keras": tensorflow.keras.__version__}
        return tensorflow, versions
    import mindspore
    import mindspore.dataset
    import mindspore.nn
    import mindspore.ops  # noqa: F401 - the cases use ms.dataset, ms.nn and ms.ops

    mindspore.set_context(mode=mindspore.PYNATIVE_MODE, device_target="CPU")
    return mindspore, {"mindspore": mindspore.__version__}


def record(framework: str) -> Path:
    """Run every case of ``framework`` and write its record; returns the file written.

    The framework runs in a scratch working directory (MindSpore writes ``rank_0/`` logs
    and compiled graphs into the current one).
    """
    package, module = load_cases(framework)
    results = {}
    start = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        try:
            real, versions = import_framework(framework)
            for name, function in package.collect(module).items():
                results[name] = package.run(function, real)
                failed = "error" in results[name]
                print(f"{name}: {'error ' + results[name]['error']['type'] if failed else 'ok'}")
        finally:
            os.chdir(start)
    document = {
        "framework": framework,
        "versions": {**versions, "numpy": np.__version__, "python": platform.python_version()},
        "recorded": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "cases": results,
    }
    RECORDS_DIRECTORY.mkdir(parents=True, exist_ok=True)
    path = RECORDS_DIRECTORY / f"{framework}.json"
    path.write_text(_layout(document))
    return path


def _layout(document: dict) -> str:
    """The record as JSON with one line per case (small diffs when re-recorded)."""
    header = {key: value for key, value in document.items() if key != "cases"}
    lines = [json.dumps(header)[:-1] + ', "cases": {']
    cases = [f"  {json.dumps(name)}: {json.dumps(result)}"
             for name, result in document["cases"].items()]
    lines.append(",\n".join(cases))
    lines.append("}}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("framework", choices=FRAMEWORKS)
    arguments = parser.parse_args(argv)
    print(f"wrote {record(arguments.framework)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
