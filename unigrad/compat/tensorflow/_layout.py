"""``tf.roll`` and ``tf.meshgrid`` with TensorFlow's arguments (``meshgrid`` defaults to
``indexing='xy'``), on unigrad's differentiable ops.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.roll(tf.constant([1, 2, 3]), shift=1, axis=0).numpy()
    array([3, 1, 2], dtype=int32)
"""

from __future__ import annotations

import unigrad as ug

from ._tensor import Tensor, operand
from .math import _axis, _ret

__all__ = ["roll", "meshgrid"]


def roll(input, shift, axis, name: str | None = None) -> Tensor:
    """Shift entries cyclically by ``shift`` along ``axis`` (ints or lists of them; an axis
    named twice shifts by the sum).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.roll(tf.constant([[1, 2], [3, 4]]), shift=[1, 1], axis=[0, 0]).numpy()
        array([[1, 2],
               [3, 4]], dtype=int32)
    """
    x = operand(input, "input")
    shifts, axes = _axis(shift), _axis(axis)
    if isinstance(shifts, tuple) != isinstance(axes, tuple) or (
            isinstance(shifts, tuple) and len(shifts) != len(axes)):
        raise ValueError("tf.roll: shift and axis must have the same size")
    if not isinstance(axes, tuple):
        shifts, axes = (shifts,), (axes,)
    return _ret(ug.roll(x, shifts, axes), x)


def meshgrid(*args, **kwargs) -> list:
    """Coordinate grids from N vectors: ``indexing='xy'`` (default) gives shape
    ``(len(y), len(x), ...)``, ``'ij'`` gives ``(len(x), len(y), ...)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> X, Y = tf.meshgrid(tf.constant([1, 2, 3]), tf.constant([4, 5]))
        >>> X.numpy()
        array([[1, 2, 3],
               [1, 2, 3]], dtype=int32)
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"Invalid keywords: {sorted(kwargs)}")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` must be either 'xy' or 'ij', not {indexing!r}")
    vectors = [ug.reshape(operand(a, "args"), (-1,)) for a in args]
    return [_ret(grid, *vectors) for grid in ug.meshgrid(*vectors, indexing=indexing)]
