"""Layout composites: stacking, diagonals, rolling and rotating, splitting, and index
generators, with PyTorch's names, arguments and errors.

Everything here is built from the shape and indexing ops (``reshape``, ``cat``,
``narrow``, ``flip``, ``pad``, ``movedim``, ``getitem``, ``index_select``,
:func:`~unigrad.ops.nn_convolution.unfold_windows`), so each op has its vjp,
jvp, batching rule and compiled form for free. ``diagonal`` is a strided view
(in the flattened plane, every ``(cols + 1)``-th entry from the diagonal's first)
and ``diag_embed`` its reverse (each entry padded with ``n`` zeros, flattened
and cut), so neither multiplies by a mask: infinities and NaN stay where they are.

Example:
    >>> import unigrad as ug
    >>> ug.diagonal(ug.arange(9.0).reshape(3, 3), 1)
    tensor([1., 5.])
    >>> ug.roll(ug.arange(4.0), 1)
    tensor([3., 0., 1., 2.])
    >>> ug.tril_indices(3, 3)
    tensor([[0, 1, 1, 2, 2, 2],
            [0, 0, 1, 0, 1, 2]])
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np

from ..tensor import Tensor
from . import creation as _creation
from . import indexing as _indexing
from . import reduce as _reduce
from . import shape as _shape
from ._shape_rules import normalize_axis
from .registry import op

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack", "row_stack", "dstack",
           "column_stack", "meshgrid", "diag", "diag_embed", "diagonal", "diagflat", "trace",
           "kron", "roll", "rot90", "tensor_split", "hsplit", "vsplit", "dsplit", "unflatten",
           "flipud", "fliplr", "block_diag", "cartesian_prod", "combinations", "tril_indices",
           "triu_indices"]


def _ndim(input) -> int:
    return len(tuple(input.shape))


# ============================================================================= atleast / stacking

def _atleast(tensors: tuple, promote):
    """``promote`` applied to one tensor, or to each of several (a tuple back)."""
    if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)):
        return promote(tensors[0])
    if len(tensors) == 1:
        tensors = tensors[0]
    return tuple(promote(t) for t in tensors)


def _at_least_1d(input):
    return _shape.reshape(input, (1,)) if not _ndim(input) else input


def _at_least_2d(input):
    ndim = _ndim(input)
    if ndim >= 2:
        return input
    return _shape.reshape(input, (1, 1) if ndim == 0 else (1,) + tuple(input.shape))


def _at_least_3d(input):
    shape = tuple(input.shape)
    if len(shape) == 0:
        return _shape.reshape(input, (1, 1, 1))
    if len(shape) == 1:
        return _shape.reshape(input, (1,) + shape + (1,))
    if len(shape) == 2:
        return _shape.reshape(input, shape + (1,))
    return input


def atleast_1d(*tensors):
    """``input`` viewed with at least one dimension; several tensors give a tuple.

    Example:
        >>> import unigrad as ug
        >>> ug.atleast_1d(ug.tensor(1.0))
        tensor([1.])
    """
    return _atleast(tensors, _at_least_1d)


def atleast_2d(*tensors):
    """``input`` viewed with at least two dimensions (a 1-D ``(n,)`` becomes ``(1, n)``).

    Example:
        >>> import unigrad as ug
        >>> ug.atleast_2d(ug.tensor([1.0, 2.0]))
        tensor([[1., 2.]])
    """
    return _atleast(tensors, _at_least_2d)


def atleast_3d(*tensors):
    """``input`` viewed with at least three dimensions: ``(n,)`` becomes ``(1, n, 1)``
    and ``(m, n)`` becomes ``(m, n, 1)``.

    Example:
        >>> import unigrad as ug
        >>> ug.atleast_3d(ug.tensor([1.0, 2.0])).shape
        (1, 2, 1)
    """
    return _atleast(tensors, _at_least_3d)


def _stack_inputs(tensors, name: str) -> list:
    return _shape._tensor_list(tensors, name, RuntimeError(
        f"{name} expects a non-empty TensorList"))


def hstack(tensors):
    """Concatenate column-wise: along dim 0 for 1-D tensors, else along dim 1.

    Example:
        >>> import unigrad as ug
        >>> ug.hstack([ug.tensor([1.0, 2.0]), ug.tensor([3.0])])
        tensor([1., 2., 3.])
    """
    parts = [_at_least_1d(t) for t in _stack_inputs(tensors, "hstack")]
    return _shape.cat(parts, 0 if _ndim(parts[0]) == 1 else 1)


def vstack(tensors):
    """Concatenate row-wise (1-D tensors become rows first).

    Example:
        >>> import unigrad as ug
        >>> ug.vstack([ug.tensor([1.0, 2.0]), ug.tensor([3.0, 4.0])])
        tensor([[1., 2.],
                [3., 4.]])
    """
    return _shape.cat([_at_least_2d(t) for t in _stack_inputs(tensors, "vstack")], 0)


row_stack = vstack


def dstack(tensors):
    """Concatenate depth-wise, along dim 2, after :func:`atleast_3d`.

    Example:
        >>> import unigrad as ug
        >>> ug.dstack([ug.tensor([1.0, 2.0]), ug.tensor([3.0, 4.0])])
        tensor([[[1., 3.],
                 [2., 4.]]])
    """
    return _shape.cat([_at_least_3d(t) for t in _stack_inputs(tensors, "dstack")], 2)


def column_stack(tensors):
    """Stack 0-D and 1-D tensors as columns, and concatenate others along dim 1.

    Example:
        >>> import unigrad as ug
        >>> ug.column_stack([ug.tensor([1.0, 2.0]), ug.tensor([3.0, 4.0])])
        tensor([[1., 3.],
                [2., 4.]])
    """
    parts = _stack_inputs(tensors, "column_stack")
    parts = [_shape.reshape(t, (-1, 1)) if _ndim(t) <= 1 else t for t in parts]
    return _shape.cat(parts, 1)


def meshgrid(*tensors, indexing: str | None = None) -> tuple:
    """Coordinate grids from 0-D or 1-D tensors: with ``indexing='ij'`` (the default,
    with PyTorch's warning when not passed) output ``i`` varies along dim ``i``; with
    ``'xy'`` the first two dimensions are swapped.

    Example:
        >>> import unigrad as ug
        >>> rows, cols = ug.meshgrid(ug.tensor([1, 2]), ug.tensor([3, 4, 5]), indexing="ij")
        >>> cols
        tensor([[3, 4, 5],
                [3, 4, 5]])
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the "
                      "indexing argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: '
                           f'{indexing}')
    if not tensors:
        return ()
    for position, t in enumerate(tensors):
        if not isinstance(t, Tensor) and not hasattr(t, "shape"):
            raise TypeError(f"meshgrid(): argument 'tensors' must be tuple of Tensors, but found "
                            f"element of type {type(t).__name__} at pos {position}")
        if _ndim(t) > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               f"got a tensor of shape {list(t.shape)}")
        if t.dtype != tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors = (tensors[1], tensors[0]) + tuple(tensors[2:])
    sizes = tuple(math.prod(tuple(t.shape)) for t in tensors)
    grids = []
    for axis, t in enumerate(tensors):
        spread = _shape.reshape(t, tuple(-1 if i == axis else 1 for i in range(len(sizes))))
        grids.append(_shape.broadcast_to(spread, sizes))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


# ============================================================================= diagonals

def _check_distinct(axis1: int, axis2: int) -> None:
    if axis1 == axis2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {axis1}, {axis2}")


def diagonal_planes(input, offset: int, dim1: int, dim2: int):
    """``(flat, where, axes)``: ``input`` with the ``(dim1, dim2)`` planes moved last and
    flattened, the index of their ``offset`` diagonal in ``flat`` (every ``(cols + 1)``-th
    entry from its first one), and the two normalized axes."""
    ndim = _ndim(input)
    axis1, axis2 = normalize_axis(dim1, ndim), normalize_axis(dim2, ndim)
    _check_distinct(axis1, axis2)
    offset = int(offset)
    planes = _shape.movedim(input, (axis1, axis2), (-2, -1))
    shape = tuple(planes.shape)
    rows, cols = shape[-2:]
    row_start, col_start = max(-offset, 0), max(offset, 0)
    length = max(0, min(rows - row_start, cols - col_start))
    flat = _shape.reshape(planes, shape[:-2] + (rows * cols,))
    start = row_start * cols + col_start if length else 0
    stop = start + (length - 1) * (cols + 1) + 1 if length else 0
    where = (slice(None),) * (len(shape) - 2) + (slice(start, stop, cols + 1),)
    return flat, where, (axis1, axis2)


@op(methods=("diagonal",))
def diagonal(input, offset: int = 0, dim1: int = 0, dim2: int = 1):
    """The diagonal of the ``(dim1, dim2)`` planes as a new last dimension (a view);
    ``offset > 0`` is above the main diagonal, ``offset < 0`` below.

    Example:
        >>> import unigrad as ug
        >>> ug.diagonal(ug.arange(6.0).reshape(2, 3), offset=-1)
        tensor([3.])
    """
    flat, where, _ = diagonal_planes(input, offset, dim1, dim2)
    return _indexing.getitem(flat, where)


_diagonal = diagonal  # ``diag``'s argument named ``diagonal`` hides the function


@op(methods=("diag_embed",))
def diag_embed(input, offset: int = 0, dim1: int = -2, dim2: int = -1):
    """Matrices (in the new dims ``dim1``, ``dim2``) whose ``offset`` diagonal holds the
    last dimension of ``input``; zeros elsewhere.

    Example:
        >>> import unigrad as ug
        >>> ug.diag_embed(ug.tensor([1.0, 2.0]), offset=1)
        tensor([[0., 1., 0.],
                [0., 0., 2.],
                [0., 0., 0.]])
    """
    shape = tuple(input.shape)
    axis1, axis2 = normalize_axis(dim1, len(shape) + 1), normalize_axis(dim2, len(shape) + 1)
    _check_distinct(axis1, axis2)
    offset = int(offset)
    vector = _at_least_1d(input)
    lead, n = tuple(vector.shape)[:-1], tuple(vector.shape)[-1]
    # each entry followed by n zeros, flattened and cut to n * n: entry i lands at (i, i)
    spaced = _shape.pad(_shape.unsqueeze(vector, -1), (0, n))
    flat = _shape.narrow(_shape.reshape(spaced, lead + (n * (n + 1),)), -1, 0, n * n)
    square = _shape.reshape(flat, lead + (n, n))
    k = abs(offset)
    if k:
        square = _shape.pad(square, (k, 0, 0, k) if offset > 0 else (0, k, k, 0))
    return _shape.movedim(square, (-2, -1), (axis1, axis2))


def tensor_diagonal(input):
    """The rank-``2k`` tensor with ``input`` (shape ``D``, rank ``k``) on its diagonal:
    ``out[i..., i...] = input[i...]``, zeros elsewhere (TensorFlow's ``tensor_diag``,
    MindSpore's ``ops.diag``; not a PyTorch name, so not exported).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.ops.layout import tensor_diagonal
        >>> tensor_diagonal(ug.tensor([[1.0, 2.0]])).shape
        (1, 2, 1, 2)
    """
    shape = tuple(input.shape)
    return _shape.reshape(diag_embed(_shape.reshape(input, (-1,))), shape + shape)


@op(methods=("diag",))
def diag(input, diagonal: int = 0):
    """A 1-D ``input`` as the ``diagonal``-th diagonal of a square matrix, or the
    ``diagonal``-th diagonal of a 2-D ``input`` as a vector.

    Example:
        >>> import unigrad as ug
        >>> ug.diag(ug.tensor([1.0, 2.0]))
        tensor([[1., 0.],
                [0., 2.]])
    """
    ndim = _ndim(input)
    if ndim == 1:
        return diag_embed(input, diagonal)
    if ndim == 2:
        return _diagonal(input, diagonal)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {ndim}D")


@op(methods=("diagflat",))
def diagflat(input, offset: int = 0):
    """The flattened ``input`` as the ``offset``-th diagonal of a square matrix.

    Example:
        >>> import unigrad as ug
        >>> ug.diagflat(ug.tensor([[1.0], [2.0]]))
        tensor([[1., 0.],
                [0., 2.]])
    """
    return diag_embed(_shape.reshape(input, (-1,)), offset)


@op(methods=("trace",))
def trace(input):
    """The sum of the main diagonal of a matrix (integers sum in int64).

    Example:
        >>> import unigrad as ug
        >>> ug.trace(ug.arange(9.0).reshape(3, 3))
        tensor(12.)
    """
    if _ndim(input) != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {_ndim(input)}")
    return _reduce.sum(diagonal(input))


@op(methods=("kron",))
def kron(input, other):
    """The Kronecker product: blocks ``input[i] * other`` (the shorter shape padded
    with leading ones).

    Example:
        >>> import unigrad as ug
        >>> ug.kron(ug.tensor([1.0, 2.0]), ug.tensor([1.0, 10.0]))
        tensor([ 1., 10.,  2., 20.])
    """
    for name, value in (("input", input), ("other", other)):
        if not isinstance(value, Tensor) and not hasattr(value, "shape"):
            raise TypeError(f"kron(): argument '{name}' must be Tensor, not "
                            f"{type(value).__name__}")
    ndim = max(_ndim(input), _ndim(other))
    first = (1,) * (ndim - _ndim(input)) + tuple(input.shape)
    second = (1,) * (ndim - _ndim(other)) + tuple(other.shape)
    left = _shape.reshape(input, tuple(x for d in first for x in (d, 1)))
    right = _shape.reshape(other, tuple(x for d in second for x in (1, d)))
    return _shape.reshape(left * right, tuple(a * b for a, b in zip(first, second)))


# ============================================================================= roll / rotate / flip

def _as_tuple(value) -> tuple:
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


def _roll_axis(input, shift: int, axis: int):
    size = tuple(input.shape)[axis]
    if size == 0 or shift % size == 0:
        return input
    shift %= size
    narrow = _shape.narrow
    return _shape.cat([narrow(input, axis, size - shift, shift),
                       narrow(input, axis, 0, size - shift)], axis)


@op(methods=("roll",))
def roll(input, shifts, dims=None):
    """Shift entries cyclically by ``shifts`` along ``dims`` (ints or tuples); without
    ``dims`` the tensor is rolled flattened and reshaped back.

    Example:
        >>> import unigrad as ug
        >>> ug.roll(ug.tensor([[1.0, 2.0], [3.0, 4.0]]), 1, 1)
        tensor([[2., 1.],
                [4., 3.]])
    """
    shifts = tuple(int(s) for s in _as_tuple(shifts))
    dims = () if dims is None else tuple(_as_tuple(dims))
    if not dims:
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                               f"dims:{len(dims)}")
        flat = _roll_axis(_shape.reshape(input, (-1,)), shifts[0], 0)
        return _shape.reshape(flat, tuple(input.shape))
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                           f"dims:{len(dims)}")
    ndim = _ndim(input)
    for shift, dim in zip(shifts, dims):
        input = _roll_axis(input, shift, normalize_axis(dim, ndim))
    return input


@op(methods=("rot90",))
def rot90(input, k: int = 1, dims=(0, 1)):
    """Rotate by 90 degrees ``k`` times in the plane ``dims``, from the first towards
    the second dimension.

    Example:
        >>> import unigrad as ug
        >>> ug.rot90(ug.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor([[2., 4.],
                [1., 3.]])
    """
    dims = tuple(dims)
    ndim = _ndim(input)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {ndim}")
    first, second = normalize_axis(dims[0], ndim), normalize_axis(dims[1], ndim)
    if first == second:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {first} and "
                           f"dim1 = {second}")
    turns = int(k) % 4
    if turns == 1:
        return _shape.transpose(_shape.flip(input, (second,)), first, second)
    if turns == 2:
        return _shape.flip(input, (first, second))
    if turns == 3:
        return _shape.transpose(_shape.flip(input, (first,)), first, second)
    return _shape.identity_view(input) if isinstance(input, Tensor) else input


@op(methods=("flipud",))
def flipud(input):
    """Reverse the order of rows (dim 0).

    Example:
        >>> import unigrad as ug
        >>> ug.flipud(ug.tensor([1.0, 2.0, 3.0]))
        tensor([3., 2., 1.])
    """
    if _ndim(input) < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return _shape.flip(input, (0,))


@op(methods=("fliplr",))
def fliplr(input):
    """Reverse the order of columns (dim 1).

    Example:
        >>> import unigrad as ug
        >>> ug.fliplr(ug.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor([[2., 1.],
                [4., 3.]])
    """
    if _ndim(input) < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return _shape.flip(input, (1,))


# ============================================================================= splitting

def _split_points(indices_or_sections, size: int):
    """The (start, stop) slices of :func:`tensor_split`: ``sections`` near-equal pieces
    (the first ``size % sections`` one longer) or pieces between listed indices."""
    if isinstance(indices_or_sections, Tensor):
        values = indices_or_sections
        if np.dtype(values._data.dtype).kind not in "iu":
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {values.dtype}")
        if values.ndim > 1:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a "
                               f"zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {values.ndim} dims")
        indices_or_sections = values.item() if values.ndim == 0 else values.tolist()
    if isinstance(indices_or_sections, (list, tuple)):
        bounds = [None] + [int(i) for i in indices_or_sections] + [None]
        return list(zip(bounds[:-1], bounds[1:]))
    sections = int(indices_or_sections)
    if sections <= 0:
        raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
    quotient, remainder = divmod(size, sections)
    points, start = [], 0
    for piece in range(sections):
        stop = start + quotient + (1 if piece < remainder else 0)
        points.append((start, stop))
        start = stop
    return points


@op(methods=("tensor_split",))
def tensor_split(input, indices_or_sections, dim: int = 0) -> tuple:
    """Views of ``input`` along ``dim``: ``n`` near-equal pieces (an int), or the pieces
    between the listed indices (a list, or an int64 tensor), sliced as Python slices.

    Example:
        >>> import unigrad as ug
        >>> [p.tolist() for p in ug.tensor_split(ug.arange(5.0), 3)]
        [[0.0, 1.0], [2.0, 3.0], [4.0]]
        >>> [p.tolist() for p in ug.tensor_split(ug.arange(5.0), [1, 4])]
        [[0.0], [1.0, 2.0, 3.0], [4.0]]
    """
    ndim = _ndim(input)
    if ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    axis = normalize_axis(dim, ndim)
    points = _split_points(indices_or_sections, tuple(input.shape)[axis])
    head = (slice(None),) * axis
    return tuple(_indexing.getitem(input, head + (slice(start, stop),)) for start, stop in points)


def _directional_split(name: str, input, indices_or_sections, least: int, axis_of):
    ndim = _ndim(input)
    if ndim < least:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {least} dimension, but "
                           f"got a tensor with {ndim} dimensions!")
    axis = axis_of(ndim)
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(
            indices_or_sections, bool):
        size = tuple(input.shape)[axis]
        sections = int(indices_or_sections)
        if sections == 0 or size % sections:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {axis}, but the "
                               f"size of the dimension {size} is not divisible by the split_size "
                               f"{sections}!")
    return tensor_split(input, indices_or_sections, axis)


@op(methods=("hsplit",))
def hsplit(input, indices_or_sections) -> tuple:
    """:func:`tensor_split` along dim 1 (dim 0 for 1-D input); sections must divide evenly.

    Example:
        >>> import unigrad as ug
        >>> [p.shape for p in ug.hsplit(ug.zeros((2, 4)), 2)]
        [(2, 2), (2, 2)]
    """
    return _directional_split("hsplit", input, indices_or_sections, 1,
                              lambda ndim: 1 if ndim > 1 else 0)


@op(methods=("vsplit",))
def vsplit(input, indices_or_sections) -> tuple:
    """:func:`tensor_split` along dim 0 of an at least 2-D tensor.

    Example:
        >>> import unigrad as ug
        >>> [p.shape for p in ug.vsplit(ug.zeros((4, 2)), [1])]
        [(1, 2), (3, 2)]
    """
    return _directional_split("vsplit", input, indices_or_sections, 2, lambda ndim: 0)


@op(methods=("dsplit",))
def dsplit(input, indices_or_sections) -> tuple:
    """:func:`tensor_split` along dim 2 of an at least 3-D tensor.

    Example:
        >>> import unigrad as ug
        >>> [p.shape for p in ug.dsplit(ug.zeros((1, 2, 4)), 2)]
        [(1, 2, 2), (1, 2, 2)]
    """
    return _directional_split("dsplit", input, indices_or_sections, 3, lambda ndim: 2)


@op(methods=("unflatten",))
def unflatten(input, dim: int, sizes):
    """Split dimension ``dim`` into ``sizes`` (one of which may be -1).

    Example:
        >>> import unigrad as ug
        >>> ug.unflatten(ug.zeros((2, 6)), 1, (3, -1)).shape
        (2, 3, 2)
    """
    shape = tuple(input.shape)
    axis = normalize_axis(dim, len(shape))
    sizes = tuple(int(s) for s in _as_tuple(sizes))
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    size = shape[axis] if shape else 1
    if sizes.count(-1) > 1:
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be inferred")
    known = math.prod(s for s in sizes if s != -1)
    fits = known == size if -1 not in sizes else (known and size % known == 0) or size == 0
    if not fits:
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the "
                           f"size of dim {dim} ({size}) in the input tensor")
    return _shape.reshape(input, shape[:axis] + sizes + shape[axis + 1:])


# ============================================================================= tensor unfold

def unfold_dimension(input, dimension: int, size: int, step: int):
    """``Tensor.unfold``: every window of ``size`` entries, ``step`` apart, along
    ``dimension`` (which becomes the window count), the window as a new last dimension.

    Example:
        >>> import unigrad as ug
        >>> ug.arange(5.0).unfold(0, 2, 2)
        tensor([[0., 1.],
                [2., 3.]])
    """
    from .nn_convolution import unfold_windows
    shape = tuple(input.shape)
    axis = normalize_axis(dimension, len(shape), "dimension")
    length = shape[axis] if shape else 1
    size, step = int(size), int(step)
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {axis} is {length} but size is "
                           f"{size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if not shape:
        return _shape.narrow(_shape.reshape(input, (1,)), 0, 0, size)
    count = (length - size) // step + 1
    moved = _shape.movedim(input, axis, -1)
    if size == 0:  # no entries: the empty result only needs its shape
        empty = _shape.narrow(moved, -1, 0, 0)
        return _shape.movedim(_shape.reshape(empty, tuple(empty.shape)[:-1] + (count, 0)),
                              -2, axis)
    windows = unfold_windows(moved, (size,), (step,), (1,), ((0, 0),))
    return _shape.movedim(windows, -1, axis)


op(methods=("unfold",))(unfold_dimension)


# ============================================================================= block matrices

def block_diag(*tensors):
    """A block-diagonal matrix of the (0-D, 1-D or 2-D) ``tensors``, dtypes promoted.

    Example:
        >>> import unigrad as ug
        >>> ug.block_diag(ug.tensor([[1.0, 2.0]]), ug.tensor(3.0))
        tensor([[1., 2., 0.],
                [0., 0., 3.]])
    """
    blocks = []
    for position, t in enumerate(tensors):
        if _ndim(t) > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                               f"Input {position} has {_ndim(t)} dimensions")
        blocks.append(_at_least_2d(t))
    if not blocks:
        return _creation.zeros((1, 0))
    width = sum(tuple(b.shape)[1] for b in blocks)
    rows, start = [], 0
    for block in blocks:
        columns = tuple(block.shape)[1]
        rows.append(_shape.pad(block, (start, width - start - columns)))
        start += columns
    return _shape.cat(rows, 0) if len(rows) > 1 else rows[0]


def _check_vector(input) -> None:
    if _ndim(input) != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")


def cartesian_prod(*tensors):
    """All tuples of one entry from each 1-D tensor, as rows (a single tensor is
    returned as it is).

    Example:
        >>> import unigrad as ug
        >>> ug.cartesian_prod(ug.tensor([1, 2]), ug.tensor([3, 4]))
        tensor([[1, 3],
                [1, 4],
                [2, 3],
                [2, 4]])
    """
    for t in tensors:
        _check_vector(t)
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return _shape.stack([_shape.reshape(g, (-1,)) for g in grids], 1)


def combinations(input, r: int = 2, with_replacement: bool = False):
    """The length-``r`` combinations of the entries of a 1-D tensor, as rows (in
    :mod:`itertools` order).

    Example:
        >>> import unigrad as ug
        >>> ug.combinations(ug.tensor([1, 2, 3]))
        tensor([[1, 2],
                [1, 3],
                [2, 3]])
    """
    _check_vector(input)
    r = int(r)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _shape.narrow(input, 0, 0, 0)
    generate = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    chosen = np.array(list(generate(range(tuple(input.shape)[0]), r)), dtype=np.int64)
    picked = _indexing.index_select(input, 0, chosen.reshape(-1))
    return _shape.reshape(picked, (len(chosen), r))


# ============================================================================= index generators

def _triangle_indices(numpy_indices, row: int, col: int, offset: int, dtype):
    from .. import int64
    for label, value in (("row", row), ("col", col)):
        if value < 0:
            raise RuntimeError(f"{label} must be non-negative, got{value}")
    if dtype is None:
        dtype = int64
    rows, cols = numpy_indices(int(row), int(offset), int(col))
    return _creation.tensor(np.stack([rows, cols]).astype(np.int64).reshape(2, -1), dtype=dtype)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None,
                 layout=None):
    """The ``(2, N)`` coordinates of the lower triangle (on and below the ``offset``
    diagonal) of a ``row`` x ``col`` matrix, row by row.

    Example:
        >>> import unigrad as ug
        >>> ug.tril_indices(2, 3, 1)
        tensor([[0, 0, 1, 1, 1],
                [0, 1, 0, 1, 2]])
    """
    return _triangle_indices(np.tril_indices, row, col, offset, dtype)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None,
                 layout=None):
    """The ``(2, N)`` coordinates of the upper triangle (on and above the ``offset``
    diagonal) of a ``row`` x ``col`` matrix, row by row.

    Example:
        >>> import unigrad as ug
        >>> ug.triu_indices(3, 3, 1)
        tensor([[0, 0, 1],
                [1, 2, 2]])
    """
    return _triangle_indices(np.triu_indices, row, col, offset, dtype)
