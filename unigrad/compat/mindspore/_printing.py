"""MindSpore's text for tensor values (the ``value=`` part of ``repr``).

The layout is MindSpore's C++ printer's: elements separated by ``", "``;
floats in scientific notation with an 8-digit mantissa (4 for float16) in a
15-character field (11 for float16), integers and booleans right-aligned to
the widest element shown; a 1-D tensor of more than 1000 elements shows its
first and last three (``a, b, c ... x, y, z``) and breaks its line after every
24 integers or 12 floats/booleans; in two or more dimensions every dimension
longer than 6 shows its first and last three (a row ``...`` between rows).

Exponents have three digits by default (``5.00000000e-001``), as MindSpore 2.3
prints them and the seed documents show; MindSpore 2.10 prints two
(``5.00000000e-01``): :func:`set_print_style` chooses.

Example:
    >>> import numpy as np
    >>> from unigrad.compat.mindspore._printing import format_value
    >>> format_value(np.array([0.5, -2.0], np.float32))
    '[5.00000000e-001, -2.00000000e+000]'
    >>> print(format_value(np.arange(14, dtype=np.int32).reshape(2, 7)))
    [[ 0,  1,  2 ...  4,  5,  6],
     [ 7,  8,  9 ... 11, 12, 13]]
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import numpy as np

__all__ = ["format_value", "set_print_style", "print_style"]

_EDGE_ITEMS = 3
_ONE_DIMENSION_THRESHOLD = 1000  # a 1-D tensor longer than this is summarized
_DIMENSION_THRESHOLD = 6  # in 2-D and up, a dimension longer than this is summarized
_PER_LINE = {"integer": 24, "other": 12}  # 1-D elements per line
_STYLES = {"2.3": 3, "2.10": 2}  # MindSpore version -> exponent digits
_style = {"exponent_digits": 3}


def set_print_style(version: str) -> None:
    """Print tensor values as MindSpore ``version`` does: ``"2.3"`` (three exponent digits,
    ``4.00000000e+000``: the default, the seed documents' style) or ``"2.10"`` (two,
    ``4.00000000e+00``). A unigrad extension: MindSpore has no such switch.

    Raises:
        ValueError: For another version.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> ms.set_print_style("2.10")
        >>> ms.Tensor([4.0, 0.5])
        Tensor(shape=[2], dtype=Float32, value= [ 4.00000000e+00,  5.00000000e-01])
        >>> ms.set_print_style("2.3")
    """
    if version not in _STYLES:
        raise ValueError(f"set_print_style: version must be one of {sorted(_STYLES)}, got "
                         f"{version!r}")
    _style["exponent_digits"] = _STYLES[version]


@contextlib.contextmanager
def print_style(version: str) -> Iterator[None]:
    """:func:`set_print_style` inside the block only."""
    previous = _style["exponent_digits"]
    set_print_style(version)
    try:
        yield
    finally:
        _style["exponent_digits"] = previous


def _scientific(value: float, precision: int) -> str:
    mantissa, _, exponent = f"{value:.{precision}e}".partition("e")
    digits = _style["exponent_digits"]
    return f"{mantissa}e{exponent[0]}{int(exponent[1:]):0{digits}d}"


def _float_text(value, width: int, precision: int) -> str:
    value = float(value)
    if np.isnan(value):
        text = "nan"
    elif np.isinf(value):
        text = "inf" if value > 0 else "-inf"
    else:
        text = _scientific(value, precision)
    return text.rjust(width)


def _complex_text(value) -> str:
    """``3+4j``, ``-1.5-2j``, ``0+0.1j``: both parts as a C++ stream writes them."""
    value = complex(value)
    return f"{value.real:g}{value.imag:+g}j"


def _scalar_text(value) -> str:
    """A 0-d tensor's value as a C++ stream writes it (6 significant digits)."""
    if isinstance(value, (bool, np.bool_)):
        return "True" if value else "False"
    if isinstance(value, (complex, np.complexfloating)):
        return _complex_text(value)
    if isinstance(value, (float, np.floating)):
        return f"{float(value):g}"
    return str(value)


def _shown_indices(length: int, summarize: bool) -> list:
    """Indices shown along a dimension of ``length`` (None marks the ``...``)."""
    if summarize:
        return list(range(_EDGE_ITEMS)) + [None] + list(range(length - _EDGE_ITEMS, length))
    return list(range(length))


def _summarized(array: np.ndarray, dimension: int) -> bool:
    length = array.shape[dimension]
    if array.ndim == 1:
        return array.size > _ONE_DIMENSION_THRESHOLD
    return length > _DIMENSION_THRESHOLD


def _shown_elements(array: np.ndarray) -> np.ndarray:
    """The elements that appear in the text (the summarized parts left out)."""
    for dimension in range(array.ndim):
        if _summarized(array, dimension):
            keep = list(range(_EDGE_ITEMS)) + list(range(array.shape[dimension] - _EDGE_ITEMS,
                                                         array.shape[dimension]))
            array = np.take(array, keep, axis=dimension)
    return array.ravel()


def _element_formatter(array: np.ndarray) -> tuple[Callable, str]:
    """(element -> text, the line-breaking kind) for ``array``'s dtype."""
    if array.dtype.kind == "f":
        half = array.dtype == np.float16
        width, precision = (11, 4) if half else (15, 8)
        return (lambda value: _float_text(value, width, precision)), "other"
    if array.dtype.kind == "b":
        return (lambda value: ("True" if value else "False").rjust(5)), "other"
    if array.dtype.kind == "c":  # no alignment, as MindSpore writes them
        return _complex_text, "other"
    shown = _shown_elements(array)
    width = max((len(str(value)) for value in shown.tolist()), default=1)
    return (lambda value: str(value).rjust(width)), "integer"


def _row(array: np.ndarray, element: Callable, summarize: bool) -> str:
    """A 1-D block: ``[a, b, c]`` (``[a, b, c ... x, y, z]`` when summarized)."""
    indices = _shown_indices(len(array), summarize)
    text = "["
    for position, index in enumerate(indices):
        if index is None:
            text += " ..."
        else:
            text += ("" if position == 0 else " " if indices[position - 1] is None else ", ")
            text += element(array[index])
    return text + "]"


def _block(array: np.ndarray, element: Callable, depth: int) -> str:
    """A block of two or more dimensions, its rows one per line (``...`` for the
    summarized middle of a long dimension)."""
    if array.ndim == 1:
        return _row(array, element, len(array) > _DIMENSION_THRESHOLD)
    indices = _shown_indices(array.shape[0], array.shape[0] > _DIMENSION_THRESHOLD)
    indent = " " * (depth + 1)
    text = "["
    for position, index in enumerate(indices):
        part = "..." if index is None else _block(array[index], element, depth + 1)
        if position:
            text += ("\n" if indices[position - 1] is None else ",\n") + indent
        text += part
    return text + "]"


def format_value(array: np.ndarray) -> str:
    """The ``value=`` text of a tensor holding ``array`` (see the module docstring)."""
    if array.ndim == 0:
        return _scalar_text(array.item())
    if array.size == 0:
        return ""
    element, kind = _element_formatter(array)
    if array.ndim == 1:
        return _one_dimensional(array, element, _PER_LINE[kind])
    return _block(array, element, 0)


def _one_dimensional(array: np.ndarray, element: Callable, per_line: int) -> str:
    """A 1-D tensor: summarized beyond 1000 elements, else a line break after every
    ``per_line`` elements (``", \\n "`` between lines, ``"\\n "`` after the last)."""
    if array.size > _ONE_DIMENSION_THRESHOLD:
        return _row(array, element, True)
    texts = [element(value) for value in array]
    lines = [", ".join(texts[start:start + per_line])
             for start in range(0, len(texts), per_line)]
    text = ", \n ".join(lines)
    if len(texts) % per_line == 0:
        text += "\n "
    return f"[{text}]"
