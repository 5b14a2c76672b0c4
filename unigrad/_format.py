"""The text form of tensors, character for character PyTorch's printer.

``repr(tensor)`` is ``tensor(<values>, <suffixes>)``: the values laid out in
lines of at most ``linewidth`` characters (one formatter, and so one width, for
every value of the tensor), then ``device=``, ``size=``, ``dtype=``,
``grad_fn=``/``requires_grad=True`` and ``tangent=`` suffixes, each moved to a
line of its own when it would pass ``linewidth``. Floating values print in one
of three modes chosen from the finite nonzero values: integral (``2.``), fixed
(``precision`` decimals) or scientific (when the largest is over ``1e8``, the
smallest under ``1e-4``, or their ratio over 1000). Tensors of more than
``threshold`` elements print ``edgeitems`` values at each end of every
dimension around ``...``.

Example:
    >>> import unigrad as ug
    >>> ug.tensor([1.0, 2.5, 3.0], requires_grad=True)
    tensor([1.0000, 2.5000, 3.0000], requires_grad=True)
    >>> ug.tensor([1e-5, 1.0])
    tensor([1.0000e-05, 1.0000e+00])
    >>> with ug.printoptions(precision=2):
    ...     print(ug.tensor([3.14159]))
    tensor([3.14])
"""

from __future__ import annotations

import contextlib
import dataclasses
import math

import numpy as np

from . import _state, backend

__all__ = ["set_printoptions", "get_printoptions", "printoptions", "format_tensor"]

_local = _state.local


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


OPTIONS = _PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision: int | None = None, threshold: float | None = None,
                     edgeitems: int | None = None, linewidth: int | None = None,
                     profile: str | None = None, sci_mode: bool | None = None) -> None:
    """Set how tensors print (process-wide, as PyTorch's ``torch.set_printoptions``).

    ``profile`` (``"default"``, ``"short"`` or ``"full"``) sets the first four
    at once; the others override it. ``sci_mode`` forces (True) or forbids
    (False) scientific notation; None, the default, lets each tensor choose.

    Example:
        >>> import unigrad as ug
        >>> ug.set_printoptions(threshold=5)
        >>> ug.arange(10)
        tensor([0, 1, 2,  ..., 7, 8, 9])
        >>> ug.set_printoptions(profile="default")
        >>> ug.arange(10)
        tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    """
    if profile is not None and profile not in _PROFILES:
        raise ValueError(f"set_printoptions(): profile must be one of {sorted(_PROFILES)}, "
                         f"got {profile!r}")
    for name, value in (("precision", precision), ("edgeitems", edgeitems),
                        ("linewidth", linewidth)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 0):
            raise TypeError(f"set_printoptions(): {name} must be a non-negative int, got "
                            f"{value!r}")
    if threshold is not None and (isinstance(threshold, bool)
                                  or not isinstance(threshold, (int, float))):
        raise TypeError(f"set_printoptions(): threshold must be a number, got {threshold!r}")
    if sci_mode is not None and not isinstance(sci_mode, bool):
        raise TypeError(f"set_printoptions(): sci_mode must be True, False or None, got "
                        f"{sci_mode!r}")
    if profile is not None:
        for name, value in _PROFILES[profile].items():
            setattr(OPTIONS, name, value)
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            setattr(OPTIONS, name, value)
    OPTIONS.sci_mode = sci_mode


def get_printoptions() -> dict:
    """The current print options, as keyword arguments for :func:`set_printoptions`.

    Example:
        >>> import unigrad as ug
        >>> ug.get_printoptions()["precision"]
        4
    """
    return dataclasses.asdict(OPTIONS)


@contextlib.contextmanager
def printoptions(**options):
    """Change the print options for the ``with`` block only."""
    saved = get_printoptions()
    set_printoptions(**options)
    try:
        yield
    finally:
        set_printoptions(**saved)


# ------------------------------------------------------------------------------ values

class _Formatter:
    """One text form, and so one width, for every value of a (real) array."""

    __slots__ = ("floating", "int_mode", "sci_mode", "width")

    def __init__(self, values: np.ndarray):
        values = values.reshape(-1)
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        if not self.floating:
            self.width = max((len(str(value)) for value in values.tolist()), default=1)
            return
        finite = values[np.isfinite(values) & (values != 0)]
        if finite.size == 0:
            return
        magnitudes = np.abs(finite.astype(np.float64))
        smallest, largest = float(magnitudes.min()), float(magnitudes.max())
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        automatic = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        self.sci_mode = automatic if OPTIONS.sci_mode is None else OPTIONS.sci_mode
        precision = OPTIONS.precision
        if self.sci_mode:
            texts = (f"{value:.{precision}e}" for value in finite.tolist())
            self.width = max(len(text) for text in texts)
        elif self.int_mode:
            self.width = max(len(f"{value:.0f}") + 1 for value in finite.tolist())
        else:
            self.width = max(len(f"{value:.{precision}f}") for value in finite.tolist())

    def format(self, value) -> str:
        if not self.floating:
            text = str(value)
        elif self.sci_mode:
            text = f"{value:{self.width}.{OPTIONS.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if math.isfinite(value):
                text += "."
        else:
            text = f"{value:.{OPTIONS.precision}f}"
        return text.rjust(self.width)


class _ComplexFormatter:
    """PyTorch's complex form: the real part, then the signed imaginary part and ``j``,
    each part with its own formatter."""

    __slots__ = ("real", "imag", "width")

    def __init__(self, real: _Formatter, imag: _Formatter):
        self.real = real
        self.imag = imag
        self.width = real.width + imag.width + 1

    def format(self, value) -> str:
        imag_text = (self.imag.format(value.imag) + "j").lstrip()
        if imag_text[0] not in "+-":
            imag_text = "+" + imag_text
        return self.real.format(value.real) + imag_text


def _summarized(array: np.ndarray) -> np.ndarray:
    """The values a summarized print shows (``edgeitems`` at each end of every dimension),
    flattened: the formatter is fitted to these only."""
    edge = OPTIONS.edgeitems
    if array.ndim == 0:
        return array.reshape(-1)
    if array.ndim == 1:
        if array.shape[0] > 2 * edge:
            return np.concatenate([array[:edge], array[array.shape[0] - edge:]])
        return array
    if not edge:
        return array.reshape(-1)[:0]
    rows = range(array.shape[0])
    if array.shape[0] > 2 * edge:
        rows = list(range(edge)) + list(range(array.shape[0] - edge, array.shape[0]))
    return np.concatenate([_summarized(array[row]) for row in rows])


def _vector_text(array: np.ndarray, indent: int, summarize: bool, formatter) -> str:
    element_length = formatter.width + 2
    per_line = max(1, (OPTIONS.linewidth - indent) // element_length)
    edge = OPTIONS.edgeitems
    if summarize and not edge:
        items = ["..."]
    elif summarize and array.shape[0] > 2 * edge:
        items = [formatter.format(value) for value in array[:edge].tolist()] + [" ..."] + \
            [formatter.format(value) for value in array[array.shape[0] - edge:].tolist()]
    else:
        items = [formatter.format(value) for value in array.tolist()]
    lines = [", ".join(items[start:start + per_line]) for start in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_text(array: np.ndarray, indent: int, summarize: bool, formatter) -> str:
    if array.ndim == 0:
        return formatter.format(array.item())
    if array.ndim == 1:
        return _vector_text(array, indent, summarize, formatter)
    edge = OPTIONS.edgeitems
    count = array.shape[0]
    if summarize and count > 2 * edge:
        parts = [_nested_text(array[i], indent + 1, summarize, formatter) for i in range(edge)]
        parts.append("...")
        parts += [_nested_text(array[i], indent + 1, summarize, formatter)
                  for i in range(count - edge, count)]
    else:
        parts = [_nested_text(array[i], indent + 1, summarize, formatter) for i in range(count)]
    return "[" + ("," + "\n" * (array.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def _fitted_formatter(array: np.ndarray, summarize: bool) -> _Formatter:
    return _Formatter(_summarized(array) if summarize else array)


def format_values(array: np.ndarray, indent: int) -> str:
    """The bracketed values of ``array``, lines indented by ``indent`` characters."""
    if array.size == 0:
        return "[]"
    summarize = array.size > OPTIONS.threshold
    if array.dtype == np.float16:
        array = array.astype(np.float32)
    if array.dtype.kind == "c":
        formatter = _ComplexFormatter(_fitted_formatter(array.real, summarize),
                                      _fitted_formatter(array.imag, summarize))
    else:
        formatter = _fitted_formatter(array, summarize)
    return _nested_text(array, indent, summarize, formatter)


# ------------------------------------------------------------------------------ tensors

def _with_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ``, suffix`` for each suffix, starting a new line (indented) for any that
    would pass ``linewidth``."""
    pieces = [text]
    last_line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_length + len(suffix) + 2 > OPTIONS.linewidth:
            pieces.append(",\n" + " " * indent + suffix)
            last_line_length = indent + len(suffix)
        else:
            pieces.append(", " + suffix)
            last_line_length += len(suffix) + 2
    pieces.append(")")
    return "".join(pieces)


def _has_default_dtype(dtype: np.dtype) -> bool:
    """Whether ``dtype=`` is left out: the default float dtype, its complex dtype, int64
    and bool."""
    return dtype in (np.dtype(np.int64), np.dtype(np.bool_), backend.default_float(),
                     backend.default_complex())


def _forward_tangent(tensor):
    """The tangent ``tensor`` carries at the innermost forward-AD level, or None."""
    levels = _local.forward_levels
    if not levels or tensor._extra is None:
        return None
    from .autograd.forward_ad import tangent_of
    return tangent_of(tensor, levels[-1])


def format_tensor(tensor) -> str:
    """``repr(tensor)``: PyTorch's text for a tensor."""
    prefix = "tensor("
    indent = len(prefix)
    array = backend.to_numpy(tensor._data)
    suffixes = []
    if tensor.device.type != backend.default_device().type:
        suffixes.append(f"device='{tensor.device}'")
    dtype_text = f"dtype={backend.from_numpy_dtype(array.dtype)!r}"
    if array.size == 0:
        if array.ndim != 1:
            suffixes.append(f"size={tuple(array.shape)}")
        if array.dtype != backend.default_float():
            suffixes.append(dtype_text)
        body = "[]"
    else:
        if not OPTIONS.edgeitems:
            suffixes.append(f"size={tuple(array.shape)}")
        if not _has_default_dtype(array.dtype):
            suffixes.append(dtype_text)
        body = format_values(array, indent)
    if tensor._grad_fn is not None:
        suffixes.append(f"grad_fn=<{tensor._grad_fn.name()}>")
    elif tensor._requires_grad:
        suffixes.append("requires_grad=True")
    tangent = _forward_tangent(tensor)
    if tangent is not None:
        suffixes.append(f"tangent={format_tensor(tangent)}")
    return _with_suffixes(prefix + body, suffixes, indent)
