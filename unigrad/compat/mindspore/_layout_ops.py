"""``mindspore.ops`` layout functions: stacking, grids, diagonals, roll/rotate, splitting and
index generators, with MindSpore's argument names (``axis``, ``inputs``...) and defaults
(``meshgrid`` indexes ``'xy'``; ``ops.diag`` is TensorFlow's ``tensor_diag``: a rank-k
input gives a rank-2k output). Imported into :mod:`unigrad.compat.mindspore.ops`.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> print(ops.diag(ms.Tensor([1.0, 2.0])))
    [[1. 0.]
     [0. 2.]]
"""

from __future__ import annotations

from ... import ops as _ug
from ...ops.layout import tensor_diagonal
from .ops import _int, _ms, _tensor, _tensors

__all__ = ["hstack", "vstack", "dstack", "column_stack", "meshgrid", "diag", "diagflat",
           "diagonal", "diag_embed", "trace", "kron", "roll", "rot90", "tensor_split", "hsplit",
           "vsplit", "dsplit", "atleast_1d", "atleast_2d", "atleast_3d", "flipud", "fliplr",
           "block_diag", "cartesian_prod", "combinations", "tril_indices", "triu_indices"]


@_ms
def hstack(tensors):
    """Concatenate column-wise (along axis 0 for 1-D tensors)."""
    return _ug.hstack(_tensors(tensors, "hstack", "tensors"))


@_ms
def vstack(inputs):
    """Concatenate row-wise (1-D tensors become rows)."""
    return _ug.vstack(_tensors(inputs, "vstack", "inputs"))


@_ms
def dstack(inputs):
    """Concatenate along the third axis (after making each input at least 3-D)."""
    return _ug.dstack(_tensors(inputs, "dstack", "inputs"))


@_ms
def column_stack(tensors):
    """Stack 1-D tensors as columns (others concatenate along axis 1)."""
    return _ug.column_stack(_tensors(tensors, "column_stack", "tensors"))


@_ms
def meshgrid(*inputs, indexing: str = "xy"):
    """Coordinate grids; ``indexing='xy'`` (the default) swaps the first two axes."""
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    if not isinstance(indexing, str):
        raise TypeError(f"For 'meshgrid', the 'indexing' must be str, but got "
                        f"{type(indexing).__name__}")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'meshgrid', the 'indexing' must be 'xy' or 'ij', but got "
                         f"{indexing!r}")
    return _ug.meshgrid(*_tensors(list(inputs), "meshgrid", "inputs"), indexing=indexing)


@_ms
def diag(input):
    """A rank-``2k`` tensor with ``input`` (rank ``k``) on its diagonal."""
    x = _tensor(input, "diag", "input")
    if not x.ndim:
        raise ValueError("For 'diag', the rank of 'input' must be at least 1")
    return tensor_diagonal(x)


@_ms
def diagflat(input, offset: int = 0):
    """The flattened ``input`` as the ``offset``-th diagonal of a square matrix."""
    return _ug.diagflat(_tensor(input, "diagflat", "input"), _int(offset, "diagflat", "offset"))


@_ms
def diagonal(input, offset: int = 0, dim1: int = 0, dim2: int = 1):
    """The ``offset``-th diagonal of the ``(dim1, dim2)`` planes, as the last axis."""
    return _ug.diagonal(_tensor(input, "diagonal", "input"), offset, dim1, dim2)


@_ms
def diag_embed(input, offset: int = 0, dim1: int = -2, dim2: int = -1):
    """Matrices in axes ``(dim1, dim2)`` with the last axis of ``input`` on a diagonal."""
    return _ug.diag_embed(_tensor(input, "diag_embed", "input"), offset, dim1, dim2)


@_ms
def trace(input):
    """The sum of the main diagonal of a 2-D tensor."""
    return _ug.trace(_tensor(input, "trace", "input"))


@_ms
def kron(input, other):
    """The Kronecker product."""
    return _ug.kron(_tensor(input, "kron", "input"), _tensor(other, "kron", "other"))


@_ms
def roll(input, shifts, dims=None):
    """Shift entries cyclically along ``dims`` (the flattened tensor when None)."""
    return _ug.roll(_tensor(input, "roll", "input"), shifts, dims)


@_ms
def rot90(input, k, dims):
    """Rotate by 90 degrees ``k`` times in the plane ``dims``."""
    return _ug.rot90(_tensor(input, "rot90", "input"), _int(k, "rot90", "k"), dims)


@_ms
def tensor_split(input, indices_or_sections, axis: int = 0):
    """Split along ``axis`` into ``n`` near-equal pieces or at the listed indices."""
    return _ug.tensor_split(_tensor(input, "tensor_split", "input"), indices_or_sections,
                            _int(axis, "tensor_split", "axis"))


@_ms
def hsplit(input, indices_or_sections):
    """:func:`tensor_split` along axis 1 (axis 0 for 1-D input)."""
    return _ug.hsplit(_tensor(input, "hsplit", "input"), indices_or_sections)


@_ms
def vsplit(input, indices_or_sections):
    """:func:`tensor_split` along axis 0."""
    return _ug.vsplit(_tensor(input, "vsplit", "input"), indices_or_sections)


@_ms
def dsplit(input, indices_or_sections):
    """:func:`tensor_split` along axis 2."""
    return _ug.dsplit(_tensor(input, "dsplit", "input"), indices_or_sections)


def _atleast(name: str, promote, inputs):
    if isinstance(inputs, (tuple, list)):
        return tuple(promote(_tensor(t, name, "inputs")) for t in inputs)
    return promote(_tensor(inputs, name, "inputs"))


@_ms
def atleast_1d(inputs):
    """``inputs`` (a tensor, or a tuple/list of them) with at least one axis each."""
    return _atleast("atleast_1d", _ug.atleast_1d, inputs)


@_ms
def atleast_2d(inputs):
    """``inputs`` (a tensor, or a tuple/list of them) with at least two axes each."""
    return _atleast("atleast_2d", _ug.atleast_2d, inputs)


@_ms
def atleast_3d(inputs):
    """``inputs`` (a tensor, or a tuple/list of them) with at least three axes each."""
    return _atleast("atleast_3d", _ug.atleast_3d, inputs)


@_ms
def flipud(input):
    """Reverse the order along axis 0."""
    return _ug.flipud(_tensor(input, "flipud", "input"))


@_ms
def fliplr(input):
    """Reverse the order along axis 1."""
    return _ug.fliplr(_tensor(input, "fliplr", "input"))


@_ms
def block_diag(*inputs):
    """A block-diagonal matrix of 0-D, 1-D or 2-D tensors."""
    return _ug.block_diag(*(_tensor(t, "block_diag", "inputs") for t in inputs))


@_ms
def cartesian_prod(*inputs):
    """All tuples of one entry from each 1-D tensor, as rows."""
    return _ug.cartesian_prod(*(_tensor(t, "cartesian_prod", "inputs") for t in inputs))


@_ms
def combinations(input, r: int = 2, with_replacement: bool = False):
    """The length-``r`` combinations of a 1-D tensor's entries, as rows."""
    return _ug.combinations(_tensor(input, "combinations", "input"),
                            _int(r, "combinations", "r"), with_replacement)


@_ms
def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None):
    """The ``(2, N)`` coordinates of the lower triangle of a ``row`` x ``col`` matrix."""
    for name, value in (("row", row), ("col", col), ("offset", offset)):
        _int(value, "tril_indices", name)
    if row < 0 or col < 0:
        raise ValueError("For 'tril_indices', 'row' and 'col' must be non-negative")
    return _ug.tril_indices(row, col, offset, dtype=dtype)


@_ms
def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None):
    """The ``(2, N)`` coordinates of the upper triangle of a ``row`` x ``col`` matrix."""
    for name, value in (("row", row), ("col", col), ("offset", offset)):
        _int(value, "triu_indices", name)
    if row < 0 or col < 0:
        raise ValueError("For 'triu_indices', 'row' and 'col' must be non-negative")
    return _ug.triu_indices(row, col, offset, dtype=dtype)
