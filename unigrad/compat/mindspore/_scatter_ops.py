"""``mindspore.ops`` index-writing, scatter and mask functions with MindSpore's argument names
and orders (``index_add(x, indices, y, axis)``, ``tensor_scatter_elements(input_x, indices,
updates, axis, reduction)``...), on unigrad's scatter ops. Imported into
:mod:`unigrad.compat.mindspore.ops`.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> print(ops.masked_select(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([True, False, True])))
    [1. 3.]
"""

from __future__ import annotations

import numpy as np

from ... import ops as _ug
from ...ops.scatter import scatter_nd_into
from .ops import _int, _ms, _operand, _tensor

__all__ = ["index_add", "index_fill", "masked_select", "masked_scatter", "scatter",
           "tensor_scatter_elements", "nonzero", "argwhere", "scatter_nd", "tensor_scatter_add",
           "tensor_scatter_sub", "tensor_scatter_max", "tensor_scatter_min"]


@_ms
def index_add(x, indices, y, axis, use_lock: bool = True, check_index_bound: bool = True):
    """``y`` added to ``x`` at the positions ``indices`` (1-D) along ``axis``; returns the sum
    (``x`` itself is left unchanged).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.index_add(ms.Tensor([[1.0, 2.0]]), ms.Tensor([1, 1]),
        ...                     ms.Tensor([[5.0, 6.0]]), 1))
        [[ 1. 13.]]
    """
    return _ug.index_add(_tensor(x, "index_add", "x"), _int(axis, "index_add", "axis"),
                         _tensor(indices, "index_add", "indices"),
                         _tensor(y, "index_add", "y"))


@_ms
def index_fill(x, axis, index, value):
    """``x`` with ``value`` (a number or a 0-d Tensor) at the positions ``index`` along
    ``axis``."""
    return _ug.index_fill(_tensor(x, "index_fill", "x"), _int(axis, "index_fill", "axis"),
                          _tensor(index, "index_fill", "index"),
                          _operand(value, "index_fill", "value"))


@_ms
def masked_select(input, mask):
    """The entries of ``input`` where ``mask`` holds (both broadcast), as a 1-D Tensor."""
    return _ug.masked_select(_tensor(input, "masked_select", "input"),
                             _tensor(mask, "masked_select", "mask"))


@_ms
def masked_scatter(input, mask, source):
    """``input`` with the leading entries of ``source`` written in order where ``mask``
    (broadcast to ``input``) holds."""
    return _ug.masked_scatter(_tensor(input, "masked_scatter", "input"),
                              _tensor(mask, "masked_scatter", "mask"),
                              _tensor(source, "masked_scatter", "source"))


@_ms
def scatter(input, axis, index, src):
    """``input`` with ``src`` written at ``index`` along ``axis`` (``tensor_scatter_elements``
    without a reduction)."""
    return _ug.scatter(_tensor(input, "scatter", "input"), _int(axis, "scatter", "axis"),
                       _tensor(index, "scatter", "index"), _tensor(src, "scatter", "src"))


@_ms
def tensor_scatter_elements(input_x, indices, updates, axis: int = 0, reduction: str = "none"):
    """``updates`` written (``reduction='none'``) or added (``'add'``) into ``input_x`` at
    ``indices`` along ``axis``; negative indices count from the end.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.tensor_scatter_elements(ms.Tensor([0.0, 0.0, 0.0]), ms.Tensor([-1, 0]),
        ...                                   ms.Tensor([1.0, 2.0]), 0, "add"))
        [2. 0. 1.]
    """
    owner = "tensor_scatter_elements"
    x = _tensor(input_x, owner, "input_x")
    axis = _int(axis, owner, "axis")
    index = _tensor(indices, owner, "indices")
    if reduction not in ("none", "add"):
        raise ValueError(f"For '{owner}', 'reduction' must be 'none' or 'add', but got "
                         f"{reduction!r}")
    size = x.shape[axis]
    wrapped = np.asarray(index.numpy())
    wrapped = _ug.tensor(np.where(wrapped < 0, wrapped + size, wrapped))
    values = _tensor(updates, owner, "updates")
    if reduction == "add":
        return _ug.scatter_add(x, axis, wrapped, values)
    return _ug.scatter(x, axis, wrapped, values)


@_ms
def nonzero(input, *, as_tuple: bool = False):
    """The int64 positions of the nonzero entries: an ``(n, ndim)`` Tensor, or with
    ``as_tuple=True`` one 1-D Tensor per dimension."""
    return _ug.nonzero(_tensor(input, "nonzero", "input"), as_tuple=as_tuple)


@_ms
def argwhere(input):
    """The int64 positions of the nonzero entries, an ``(n, ndim)`` Tensor."""
    return _ug.argwhere(_tensor(input, "argwhere", "input"))


@_ms
def scatter_nd(indices, updates, shape):
    """A new Tensor of ``shape`` (zeros) with ``updates`` added at ``indices[..., :]``
    (repeated positions accumulate).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.scatter_nd(ms.Tensor([[0], [2], [0]]), ms.Tensor([1.0, 2.0, 3.0]), (3,)))
        [4. 0. 2.]
    """
    if not isinstance(shape, tuple) or not shape or any(int(n) < 1 for n in shape):
        raise ValueError(f"For 'scatter_nd', 'shape' must be a non-empty tuple of positive "
                         f"ints, but got {shape!r}")
    values = _tensor(updates, "scatter_nd", "updates")
    return scatter_nd_into(_ug.zeros(shape, dtype=values.dtype),
                           _tensor(indices, "scatter_nd", "indices"), values, "add",
                           owner="scatter_nd")


def _tensor_scatter(reduce: str, owner: str):
    @_ms
    def function(input_x, indices, updates):
        x = _tensor(input_x, owner, "input_x")
        return scatter_nd_into(x, _tensor(indices, owner, "indices"),
                               _tensor(updates, owner, "updates"), reduce, owner=owner)
    function.__name__ = function.__qualname__ = owner
    function.__doc__ = (f"``input_x`` with ``updates`` combined ({reduce}) at the slices "
                        f"``indices[..., :]`` names.")
    return function


tensor_scatter_add = _tensor_scatter("add", "tensor_scatter_add")
tensor_scatter_sub = _tensor_scatter("sub", "tensor_scatter_sub")
tensor_scatter_max = _tensor_scatter("amax", "tensor_scatter_max")
tensor_scatter_min = _tensor_scatter("amin", "tensor_scatter_min")
