"""``mindspore.ops`` writes into views: ``select_scatter``, ``slice_scatter`` and
``diagonal_scatter`` with MindSpore's argument names (``axis``), on unigrad's
differentiable scatters; a ``src`` of the wrong shape is a ``ValueError`` (as in
MindSpore). Imported into :mod:`unigrad.compat.mindspore.ops`.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> print(ops.slice_scatter(ops.zeros((2, 4)), ops.ones((2, 2)), axis=1, start=0, step=2))
    [[1. 0. 1. 0.]
     [1. 0. 1. 0.]]
"""

from __future__ import annotations

from ... import ops as _ug
from .ops import _int, _ms, _tensor

__all__ = ["select_scatter", "slice_scatter", "diagonal_scatter"]


def _shape_checked(owner: str, write, *args):
    """``write(*args)`` with PyTorch's shape RuntimeError as MindSpore's ValueError."""
    try:
        return write(*args)
    except RuntimeError as error:
        if "expected src to have a size" in str(error):
            raise ValueError(f"For '{owner}', {error}") from None
        raise


@_ms
def select_scatter(input, src, axis, index):
    """``input`` with ``src`` written at position ``index`` along ``axis``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.select_scatter(ops.zeros((2, 2)), ops.ones(2), axis=1, index=0))
        [[1. 0.]
         [1. 0.]]
    """
    owner = "select_scatter"
    return _shape_checked(owner, _ug.select_scatter, _tensor(input, owner, "input"),
                          _tensor(src, owner, "src"), _int(axis, owner, "axis"),
                          _int(index, owner, "index"))


def _optional_int(value, owner: str, name: str):
    return None if value is None else _int(value, owner, name)


@_ms
def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    """``input`` with ``src`` written at the slice ``start:end:step`` along ``axis``."""
    owner = "slice_scatter"
    return _shape_checked(owner, _ug.slice_scatter, _tensor(input, owner, "input"),
                          _tensor(src, owner, "src"), _int(axis, owner, "axis"),
                          _optional_int(start, owner, "start"), _optional_int(end, owner, "end"),
                          _int(step, owner, "step"))


@_ms
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """``input`` with ``src`` written on the ``offset`` diagonal of the ``(dim1, dim2)`` planes.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.diagonal_scatter(ops.zeros((3, 3)), ops.ones(2), 1, dim1=1, dim2=0))
        [[0. 0. 0.]
         [1. 0. 0.]
         [0. 1. 0.]]
    """
    owner = "diagonal_scatter"
    return _shape_checked(owner, _ug.diagonal_scatter, _tensor(input, owner, "input"),
                          _tensor(src, owner, "src"), _int(offset, owner, "offset"),
                          _int(dim1, owner, "dim1"), _int(dim2, owner, "dim2"))
