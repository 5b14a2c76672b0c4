"""``tf.print``: print tensors (and Python structures holding them) as TensorFlow does.

The printing is an (impure) primitive of unigrad's graph, so inside ``tf.function`` it
prints at every call, with that call's values, as TensorFlow's ``PrintV2`` op does.
A tensor prints its values without commas, ``summarize`` values at each end of every
axis with ``...`` between (all of them for ``summarize=-1``); floats with the fewest
of 6/9 (float32) or 15/17 (float64) significant digits that give the value back,
bools as ``1``/``0``. A Python value prints as ``pprint`` writes it, tensors inside
replaced by their text; a string input is written as it is.

Example:
    >>> import sys
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.print(tf.range(10), {"a": tf.constant([0.1, 1 / 3])}, output_stream=sys.stdout)
    [0 1 2 ... 7 8 9] {'a': [0.1 0.333333343]}
"""

from __future__ import annotations

import collections
import os
import pprint
import sys

import numpy as np

import unigrad as ug
from unigrad.ops._primitive import Primitive
from unigrad.tensor import Tensor as _UgTensor

__all__ = ["print_v2", "format_tensor"]

# significant digits: the short form, then the one that always round-trips
_DIGITS = {np.dtype(np.float32): (6, 9), np.dtype(np.float64): (15, 17)}
_DEFAULT_STREAM = sys.stderr  # the default argument: sys.stderr as it is at the call


def _float_text(value: np.floating) -> str:
    if value.dtype == np.float16:  # TensorFlow prints half as float
        value = np.float32(value)
    short, full = _DIGITS[value.dtype]
    if not np.isfinite(value):
        return str(float(value)).replace("Infinity", "inf")
    text = f"{float(value):.{short}g}"
    if value.dtype.type(text) != value:
        text = f"{float(value):.{full}g}"
    return text


def _element_text(value) -> str:
    if isinstance(value, np.floating):
        return _float_text(value)
    if isinstance(value, np.bool_):
        return str(int(value))
    if isinstance(value, np.complexfloating):
        return "?"
    return str(value)


def _array_text(array: np.ndarray, summarize: int, depth: int) -> str:
    size = array.shape[0]
    shown = range(size) if summarize < 0 or size <= 2 * summarize else \
        [*range(summarize), None, *range(size - summarize, size)]
    if array.ndim == 1:
        if summarize == 0 and size:
            return "[ ...]"
        parts = ["..." if i is None else _element_text(array[i]) for i in shown]
        return "[" + " ".join(parts) + "]"
    separator = "\n" * (array.ndim - 1) + " " * (depth + 1)
    parts = ["..." if i is None else _array_text(array[i], summarize, depth + 1) for i in shown]
    return "[" + separator.join(parts) + "]"


def format_tensor(tensor, summarize: int = 3) -> str:
    """A tensor's text as ``tf.print`` writes it (``summarize`` values at each end of every
    axis; all for ``-1``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> from unigrad.compat.tensorflow._printing import format_tensor
        >>> print(format_tensor(tf.constant([[1.5, 2.0], [True, 1e-8]]), summarize=1))
        [[1.5 2]
         [1 1e-08]]
    """
    return _format_array(np.asarray(tensor.numpy()), summarize)


def _format_array(array: np.ndarray, summarize: int) -> str:
    if array.ndim == 0:
        return _element_text(array[()])
    return _array_text(array, summarize, 0)


def _placeholder(template: str) -> str:
    """A placeholder that does not occur in ``template`` (TensorFlow's ``{}``, then
    ``{1}``, ``{2}``...)."""
    candidate, number = "{}", 0
    while candidate in template:
        number += 1
        candidate = "{" + str(number) + "}"
    return candidate


def _replace_tensors(value, replace):
    """``value`` with every tensor replaced by ``replace(tensor)``; dict keys in sorted order,
    as TensorFlow's ``nest`` flattens them."""
    if isinstance(value, _UgTensor):
        return replace(value)
    if isinstance(value, collections.OrderedDict):
        return collections.OrderedDict(
            (key, _replace_tensors(value[key], replace)) for key in sorted(value))
    if isinstance(value, dict):
        return {key: _replace_tensors(item, replace) for key, item in value.items()}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*(_replace_tensors(item, replace) for item in value))
    if isinstance(value, (list, tuple)):
        return type(value)(_replace_tensors(item, replace) for item in value)
    return value


def _input_template(value, tensors: list) -> list:
    """The text pieces around the tensors of one input (tensors appended to ``tensors``)."""
    if isinstance(value, str):
        return [value]
    found: list = []

    def take(tensor):
        found.append(tensor)
        return marker

    marker = _placeholder(pprint.pformat(_replace_tensors(value, lambda tensor: "")))
    template = pprint.pformat(_replace_tensors(value, take)).replace(f"'{marker}'", marker)
    tensors.extend(found)
    return template.split(marker)


def _layout(inputs: tuple, sep: str) -> tuple:
    """``(pieces, tensors)``: the printed text is ``pieces[0] + t0 + pieces[1] + t1 ...``."""
    pieces, tensors = [""], []
    for position, value in enumerate(inputs):
        parts = _input_template(value, tensors)
        pieces[-1] += (sep if position else "") + parts[0]
        pieces.extend(parts[1:])
    return tuple(pieces), tensors


def _print_impl(anchor, *arrays, pieces: tuple, summarize: int, end: str, stream: str):
    """Write the text; ``anchor`` (a 0-d operand) keeps a print of no tensors in the graph."""
    texts = [_format_array(np.asarray(array), summarize) for array in arrays]
    _write("".join(piece + text for piece, text in zip(pieces, [*texts, ""])) + end, stream)
    return np.zeros((), np.bool_)


_print_p = Primitive("tensorflow_print", _print_impl, lambda *avals, **params: (
    (), np.dtype(np.bool_)), differentiable=False, impure=True)


def _stream_name(output_stream) -> str:
    """``output_stream`` as ``"stdout"``, ``"stderr"`` or a ``file://`` path, checked."""
    if output_stream is _DEFAULT_STREAM or output_stream is sys.stderr:
        return "stderr"
    if output_stream is sys.stdout:
        return "stdout"
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    raise ValueError(f"Unsupported output stream, logging level, or file.{output_stream}. "
                     "Supported streams are sys.stdout, sys.stderr, tf.logging.info, "
                     "tf.logging.warning, tf.logging.error. File needs to be in the form of "
                     "'file://<filepath>'.")


def _write(text: str, stream: str) -> None:
    if stream.startswith("file://"):
        with open(stream[len("file://"):], "a", encoding="utf-8") as file:
            file.write(text)
        return
    target = sys.stdout if stream == "stdout" else sys.stderr
    target.write(text)
    target.flush()


def print_v2(*inputs, output_stream=sys.stderr, summarize: int | None = 3, sep: str = " ",
             end: str = os.linesep, name: str | None = None, **kwargs) -> None:
    """``tf.print``: write ``inputs`` (tensors, strings, Python structures with tensors)
    separated by ``sep`` and followed by ``end`` to ``output_stream`` (``sys.stdout``,
    ``sys.stderr`` or ``"file://<path>"``, which is appended to).

    Raises:
        ValueError: For another ``output_stream``, or an unknown keyword argument.

    Example:
        >>> import sys
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.print("x:", tf.reshape(tf.range(6), (2, 3)), output_stream=sys.stdout)
        x: [[0 1 2]
         [3 4 5]]
        >>> tf.print(tf.constant(1 / 3), tf.constant(True), sep=", ", output_stream=sys.stdout)
        0.333333343, 1
    """
    del name
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments for tf.print: {kwargs}")
    stream = _stream_name(output_stream)
    pieces, tensors = _layout(inputs, sep)
    summarize = 3 if summarize is None else int(summarize)
    _print_p(ug.zeros(()), *tensors, pieces=pieces, summarize=summarize, end=end, stream=stream)
