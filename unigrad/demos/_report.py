"""What every demo shares: options, results, the progress bar, the summary table, plots.

The demo dependencies (matplotlib, tqdm, scikit-learn; ``pip install
"unigrad[demo]"``) are imported inside the functions that need them, so this
module and the demos import without them; :func:`require_demo_dependencies`
checks for them up front with a clear error.

Example:
    >>> print(format_table(["mode", "accuracy"], [["eager", "97.1%"], ["graph", "97.1%"]]))
    mode   accuracy
    -----  --------
    eager     97.1%
    graph     97.1%
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The import name and the distribution name of each demo dependency.
DEMO_DEPENDENCIES: tuple[tuple[str, str], ...] = (
    ("matplotlib", "matplotlib"),
    ("tqdm", "tqdm"),
    ("sklearn", "scikit-learn"),
)

PIP_HINT = 'pip install "unigrad[demo]"'


class DemoDependencyError(ImportError):
    """A demo dependency (matplotlib, tqdm or scikit-learn) is not installed."""

    def __init__(self, missing: Sequence[str]):
        self.missing = tuple(missing)
        super().__init__(f"the demos need {', '.join(self.missing)}, which "
                         f"{'is' if len(self.missing) == 1 else 'are'} not installed; "
                         f"install the demo extra with: {PIP_HINT}")


def require_demo_dependencies() -> None:
    """Import matplotlib, tqdm and scikit-learn, or raise :class:`DemoDependencyError`.

    The error names every missing distribution and the ``pip install`` line
    that brings them in.
    """
    missing = []
    for module_name, distribution in DEMO_DEPENDENCIES:
        try:
            importlib.import_module(module_name)
        except ImportError:
            missing.append(distribution)
    if missing:
        raise DemoDependencyError(missing)


@dataclass(frozen=True)
class DemoOptions:
    """How to run a demo: the command line's ``--quick``, ``--jit``, ``--out`` and ``--seed``.

    ``progress=False`` hides the progress bar (the table is printed either way).

    Example:
        >>> DemoOptions(quick=True).seed
        0
    """

    quick: bool = False
    jit: bool = False
    out: Path = Path("unigrad-demo-output")
    seed: int = 0
    progress: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"DemoOptions: 'seed' must be a non-negative int, got {self.seed!r}")
        object.__setattr__(self, "out", Path(self.out))


@dataclass
class DemoResult:
    """What a demo produced: its summary table, the PNGs it wrote and its key numbers."""

    name: str
    table: str
    figures: list[Path] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)

    def render(self) -> str:
        """The text printed for the demo: the table, then one line per PNG written."""
        lines = [self.table]
        lines += [f"plot: {path}" for path in self.figures]
        return "\n".join(lines)


def format_table(headers: Sequence[str], rows: Sequence[Sequence[Any]],
                 align: str | None = None) -> str:
    """Aligned plain-text columns: the header, a rule of dashes, one line per row.

    ``align`` holds one character per column, ``"<"`` (left) or ``">"``
    (right); by default the first column is left-aligned and the others
    right-aligned. Cells are converted with ``str``.

    Example:
        >>> print(format_table(["a", "value"], [["x", 1.5], ["long name", 10]], align="<<"))
        a          value
        ---------  -----
        x          1.5
        long name  10
    """
    headers = [str(header) for header in headers]
    if align is None:
        align = "<" + ">" * (len(headers) - 1)
    if len(align) != len(headers) or set(align) - {"<", ">"}:
        raise ValueError(f"format_table: 'align' must hold one '<' or '>' per column "
                         f"({len(headers)}), got {align!r}")
    cells = [[str(cell) for cell in row] for row in rows]
    for index, row in enumerate(cells):
        if len(row) != len(headers):
            raise ValueError(f"format_table: row {index} has {len(row)} cells, expected "
                             f"{len(headers)}")
    widths = [max(len(row[column]) for row in [headers, *cells])
              for column in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        parts = [cell.ljust(width) if side == "<" else cell.rjust(width)
                 for cell, width, side in zip(row, widths, align)]
        return "  ".join(parts).rstrip()

    return "\n".join([line(headers), line(["-" * width for width in widths]),
                      *(line(row) for row in cells)])


class _SilentBar:
    """The progress bar's interface, doing nothing (no tqdm needed)."""

    def __enter__(self) -> _SilentBar:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    def update(self, n: int = 1) -> None:
        """Ignore ``n`` finished steps."""

    def set_postfix(self, **values: Any) -> None:
        """Ignore the values to show."""


def progress_bar(total: int, description: str, enabled: bool = True) -> Any:
    """A tqdm progress bar over ``total`` steps on stderr (a silent one when not ``enabled``).

    Use it as a context manager and call ``update(n)``; ``set_postfix`` shows
    the current loss. The silent bar needs no tqdm.

    Example:
        >>> with progress_bar(3, "steps", enabled=False) as bar:
        ...     bar.update(3)
    """
    if not enabled:
        return _SilentBar()
    from tqdm import tqdm

    return tqdm(total=total, desc=description, file=sys.stderr, unit="step", leave=True,
                dynamic_ncols=True, mininterval=0.2)


def new_figure(columns: int, width: float = 5.0, height: float = 4.0) -> tuple[Any, list[Any]]:
    """A headless matplotlib figure (Agg canvas, no pyplot state) with ``columns`` axes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width * columns, height), layout="constrained")
    FigureCanvasAgg(figure)
    axes = [figure.add_subplot(1, columns, index + 1) for index in range(columns)]
    return figure, axes


def save_figure(figure: Any, out: Path, filename: str) -> Path:
    """Write ``figure`` to the PNG ``out/filename`` (``out`` is created if missing)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / filename
    figure.savefig(path, format="png", dpi=110)
    return path


def seconds(value: float) -> str:
    """A duration for the tables: ``"1.23 s"`` or ``"45.6 ms"``.

    Example:
        >>> seconds(1.234), seconds(0.0456)
        ('1.23 s', '45.6 ms')
    """
    return f"{value:.2f} s" if value >= 1.0 else f"{value * 1e3:.1f} ms"
