"""The ``unigrad demo`` programs: three small end-to-end uses of the one engine.

- ``pinn``: a physics-informed network (PyTorch spelling, second derivatives
  inside the loss);
- ``digits``: an MLP classifier on scikit-learn's digits (MindSpore spelling,
  loss scaling, clipping, gradient accumulation; eager vs ``ug.jit``);
- ``dialects``: one model's gradients through the PyTorch, TensorFlow and
  MindSpore front-ends and ``ug.jit(ug.grad(...))``, side by side.

Each demo module has ``NAME``, ``DESCRIPTION`` and ``run(options) ->
DemoResult``. They need the ``[demo]`` extra (matplotlib, tqdm,
scikit-learn), imported lazily so that this package imports without it.
Run them with ``python -m unigrad demo`` (see :mod:`unigrad.cli`) or here:

Example:
    >>> from unigrad import demos
    >>> list(demos.DEMOS)
    ['pinn', 'digits', 'dialects']
    >>> print(demos.describe())
      pinn      PyTorch style: solve u'' = -pi^2 sin(pi x) ...
      digits    MindSpore style: digits classifier ...
      dialects  one model's gradients via the torch, tf and ms front-ends ...
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from types import ModuleType
from typing import TextIO

from . import dialects, digits, pinn
from ._report import (
    DemoDependencyError,
    DemoOptions,
    DemoResult,
    format_table,
    require_demo_dependencies,
)

#: The demos by name, in the order ``unigrad demo`` runs them.
DEMOS: dict[str, ModuleType] = {module.NAME: module for module in (pinn, digits, dialects)}

__all__ = ["DEMOS", "DemoDependencyError", "DemoOptions", "DemoResult", "describe",
           "format_table", "require_demo_dependencies", "run_demos"]


def describe(indent: str = "  ") -> str:
    """One line per demo: its name and what it shows."""
    width = max(len(name) for name in DEMOS)
    return "\n".join(f"{indent}{name.ljust(width)}  {module.DESCRIPTION}"
                     for name, module in DEMOS.items())


def run_demos(names: Sequence[str], options: DemoOptions,
              stream: TextIO | None = None) -> list[DemoResult]:
    """Run the named demos in order, printing each one's header, table and PNG paths.

    Checks the demo dependencies first (:class:`DemoDependencyError` names
    what is missing) and rejects unknown names with a ValueError listing the
    valid ones. Progress bars go to stderr, everything else to ``stream``
    (default: stdout).
    """
    unknown = [name for name in names if name not in DEMOS]
    if unknown:
        raise ValueError(f"unknown demo {', '.join(map(repr, unknown))}; choose from "
                         f"{', '.join(DEMOS)}")
    require_demo_dependencies()
    stream = sys.stdout if stream is None else stream
    results = []
    total_start = time.perf_counter()
    for index, name in enumerate(names):
        module = DEMOS[name]
        if index:
            print(file=stream)
        print(f"== {name}: {module.DESCRIPTION}", file=stream, flush=True)
        start = time.perf_counter()
        result = module.run(options)
        print(result.render(), file=stream)
        print(f"({name} took {time.perf_counter() - start:.1f} s)", file=stream, flush=True)
        results.append(result)
    if len(names) > 1:
        print(f"\n{len(names)} demos in {time.perf_counter() - total_start:.1f} s; plots in "
              f"{options.out}", file=stream)
    return results
