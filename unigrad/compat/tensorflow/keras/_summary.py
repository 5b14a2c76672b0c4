"""``Model.summary()``: Keras 3's table of layers, output shapes and parameter counts.

The table is laid out as Keras' ``rich`` table is when its output is not a
terminal: columns at Keras' relative positions of a line of
``min(88, terminal columns - 4)`` characters (108 with a "Connected to"
column for non-sequential graphs), each column narrowed evenly to fit, heavy
box-drawing lines around the header and light ones between rows.

Example:
    >>> from unigrad.compat.tensorflow.keras._summary import readable_memory_size
    >>> readable_memory_size(52.0), readable_memory_size(4096.0)
    ('52.00 B', '4.00 KB')
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable

import numpy as np

__all__ = ["print_summary", "readable_memory_size"]


def readable_memory_size(size: float) -> str:
    """A byte count in Keras' units (B, KB, MB, ... by powers of 1024), two decimals."""
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def _memory(weights: list) -> float:
    unique = {id(weight): weight for weight in weights}.values()
    return sum(math.prod(tuple(weight.shape)) * np.dtype(weight.dtype.name).itemsize
               for weight in unique)


def _count(weights: list) -> int:
    return int(sum(math.prod(tuple(weight.shape)) for weight in weights))


def _column_widths(positions: list, line_length: int) -> list[int]:
    """The cell widths (padding included) of rich's table: Keras' widths plus padding, then
    narrowed evenly (rich's ``ratio_reduce``) to fit the line inside the borders."""
    widths, current = [], 0
    for position in positions:
        width = int(position * line_length) - current
        if width < 4:
            raise ValueError("Insufficient console width to print summary.")
        widths.append(width + 2)
        current += width
    excess = sum(widths) - (line_length - len(widths) - 1)
    remaining, ratio_left, reduced = excess, len(widths), []
    for width in widths:
        distributed = min(width, round(remaining / ratio_left)) if excess > 0 else 0
        reduced.append(width - distributed)
        remaining -= distributed
        ratio_left -= 1
    return reduced


def _wrap(text: str, width: int) -> list[str]:
    """Greedy word wrapping, a word longer than a line cut with an ellipsis, as rich's
    cells wrap."""
    lines, line = [], ""
    for word in text.split(" "):
        if len(word) > width:
            word = word[:width - 1] + "…"
        candidate = f"{line} {word}" if line else word
        if len(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = word
    lines.append(line)
    return lines


def _render_row(cells: list[str], widths: list[int], alignments: list[str],
                separator: str) -> list[str]:
    wrapped = [_wrap(cell, width - 2) for cell, width in zip(cells, widths)]
    height = max(len(lines) for lines in wrapped)
    rendered = []
    for index in range(height):
        parts = []
        for lines, width, alignment in zip(wrapped, widths, alignments):
            text = lines[index] if index < len(lines) else ""
            text = text.rjust(width - 2) if alignment == "right" else text.ljust(width - 2)
            parts.append(f" {text} ")
        rendered.append(separator + separator.join(parts) + separator)
    return rendered


def _rule(widths: list[int], left: str, line: str, middle: str, right: str) -> str:
    return left + middle.join(line * width for width in widths) + right


def render_table(header: list[str], rows: list[list[str]], alignments: list[str],
                 positions: list[float], line_length: int) -> list[str]:
    """The table's lines: a heavy header box, then the rows separated by light rules.

    Example:
        >>> print("\\n".join(render_table(["Name", "Count"], [["a", "1"]], ["left", "right"],
        ...                                [0.5, 1.0], 24)))
        ┏━━━━━━━━━━┳━━━━━━━━━━━┓
        ┃ Name     ┃     Count ┃
        ┡━━━━━━━━━━╇━━━━━━━━━━━┩
        │ a        │         1 │
        └──────────┴───────────┘
    """
    widths = _column_widths(positions, line_length)
    lines = [_rule(widths, "┏", "━", "┳", "┓"), *_render_row(header, widths, alignments, "┃"),
             _rule(widths, "┡", "━", "╇", "┩")]
    for index, row in enumerate(rows):
        if index:
            lines.append(_rule(widths, "├", "─", "┼", "┤"))
        lines.extend(_render_row(row, widths, alignments, "│"))
    lines.append(_rule(widths, "└", "─", "┴", "┘"))
    return lines


def _shape_text(shapes) -> str:
    def one(shape) -> str:
        return "(" + ", ".join(str(size) for size in shape) + ")"

    if isinstance(shapes, list):
        return "[" + ", ".join(one(shape) for shape in shapes) + "]" if len(shapes) > 1 \
            else one(shapes[0])
    return one(shapes)


def print_summary(model, rows: list[tuple], sequential_like: bool, line_length: int | None,
                  positions: list | None, print_fn: Callable | None) -> None:
    """Print ``model``'s summary; ``rows`` holds ``(layer, output_shapes, connections)``
    (see ``Model.summary`` for an example)."""
    if sequential_like:
        default_length, positions = 88, positions or [0.45, 0.80, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
        alignments = ["left", "left", "right"]
    else:
        default_length, positions = 108, positions or [0.3, 0.56, 0.74, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        alignments = ["left", "left", "right", "left"]
    line_length = line_length or min(default_length, shutil.get_terminal_size().columns - 4)
    if positions[-1] > 1:
        positions = [position / line_length for position in positions]
    table_rows = []
    for layer, shapes, connections in rows:
        params = f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"
        cells = [f"{layer.name} ({type(layer).__name__})",
                 "?" if shapes is None else _shape_text(shapes), params]
        if not sequential_like:
            cells.append(connections)
        table_rows.append(cells)
    trainable, non_trainable = model.trainable_weights, model.non_trainable_weights
    optimizer = getattr(model, "optimizer", None)
    optimizer_variables = list(optimizer.variables) if getattr(model, "compiled", False) and \
        optimizer is not None and getattr(optimizer, "built", False) else None
    total = _count(trainable) + _count(non_trainable) + _count(optimizer_variables or [])
    memory = _memory(trainable) + _memory(non_trainable) + _memory(optimizer_variables or [])
    lines = [f'Model: "{model.name}"',
             *render_table(header, table_rows, alignments, positions, line_length),
             f" Total params: {total:,} ({readable_memory_size(memory)})",
             f" Trainable params: {_count(trainable):,} "
             f"({readable_memory_size(_memory(trainable))})",
             f" Non-trainable params: {_count(non_trainable):,} "
             f"({readable_memory_size(_memory(non_trainable))})"]
    if optimizer_variables is not None:
        lines.append(f" Optimizer params: {_count(optimizer_variables):,} "
                     f"({readable_memory_size(_memory(optimizer_variables))})")
    text = "\n".join(lines) + "\n"
    if print_fn is None:
        print(text, end="")
    else:
        print_fn(text)
