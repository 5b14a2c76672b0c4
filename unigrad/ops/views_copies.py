"""View copies, writes into views, splits and broadcasting helpers, with PyTorch's names.

All composites of existing differentiable ops (so vjp, jvp, vmap and jit come
with them):

- broadcasting: ``broadcast_tensors``, ``broadcast_shapes`` (a shape tuple);
- splits: ``split_with_sizes``, ``unsafe_split``, ``unsafe_chunk`` (unigrad has
  no storage aliasing to be unsafe about: the same as ``split``/``chunk``) and
  ``Tensor.sum_to_size``;
- the ``*_copy`` variants of the view ops (``diagonal_copy``, ``view_copy``, ...):
  the view, materialized into storage of its own;
- writes into a view of a copy: ``select_scatter``, ``slice_scatter``,
  ``diagonal_scatter`` (differentiable in ``input`` and ``src``), ``put``
  (flat positions) and ``index_reduce`` (``prod``/``mean``/``amax``/``amin``
  along a dimension, with ``scatter_reduce``'s gradients, which are PyTorch's);
- ``unravel_index``: flat indices to one coordinate tensor per dimension.

Example:
    >>> import unigrad as ug
    >>> ug.broadcast_shapes((2, 1), (3,))
    (2, 3)
    >>> ug.slice_scatter(ug.zeros(4), ug.ones(2), start=1, end=3)
    tensor([0., 1., 1., 0.])
    >>> ug.unravel_index(ug.tensor([4, 5]), (2, 3))
    (tensor([1, 1]), tensor([1, 2]))
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .. import backend
from ..backend import from_numpy_dtype, namespace_of
from ..tensor import Tensor, _make_tensor
from . import elementwise as _elementwise
from . import indexing as _indexing
from . import layout as _layout
from . import shape as _shape
from ._dtypes import DEFAULT_INT, torch_dtype_name
from ._primitive import bind
from ._shape_rules import normalize_axis
from ._values import values_for_shape
from .device import clone
from .indexing import Index, IndexArray, index_put_p
from .registry import op
from .scatter import _check_source, _on_vectors, _same_dtype, _vector_index, scatter_reduce

__all__ = ["broadcast_tensors", "broadcast_shapes", "split_with_sizes", "unsafe_split",
           "unsafe_chunk", "sum_to_size", "alias_copy", "diagonal_copy", "expand_copy",
           "narrow_copy", "permute_copy", "select_copy", "squeeze_copy", "t_copy",
           "transpose_copy", "unbind_copy", "unfold_copy", "unsqueeze_copy", "view_copy",
           "split_copy", "split_with_sizes_copy", "detach_copy", "select_scatter",
           "slice_scatter", "diagonal_scatter", "put", "index_reduce", "unravel_index"]


# ============================================================================= broadcasting

def _shape_argument(shape) -> tuple:
    """One shape as a tuple of ints (an int is a 1-D shape)."""
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    if isinstance(shape, Sequence) and all(isinstance(d, (int, np.integer)) for d in shape):
        return tuple(int(d) for d in shape)
    raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of "
                       f"ints, got {shape!r}")


def broadcast_shapes(*shapes) -> tuple:
    """The shape that tensors of ``shapes`` broadcast to (PyTorch returns a ``torch.Size``;
    here a tuple, like ``Tensor.shape``); an int is a 1-D shape.

    Example:
        >>> import unigrad as ug
        >>> ug.broadcast_shapes((2,), (3, 1), (1, 1, 1))
        (1, 3, 2)
    """
    parsed = [_shape_argument(s) for s in shapes]
    for shape in parsed:
        if any(d < 0 for d in shape):
            raise RuntimeError(f"Trying to create tensor with negative dimension "
                               f"{min(shape)}: {list(shape)}")
    ndim = max((len(s) for s in parsed), default=0)
    result = [1] * ndim
    for position, shape in enumerate(parsed):
        for offset in range(1, len(shape) + 1):
            size = shape[-offset]
            if size == 1 or size == result[-offset]:
                continue
            if result[-offset] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {size} at "
                                   f"{-offset}! Mismatching argument at index {position} had "
                                   f"{shape}; but expected shape should be broadcastable to "
                                   f"{result}")
            result[-offset] = size
    return tuple(result)


def broadcast_tensors(*tensors) -> tuple:
    """The tensors broadcast to their common shape (views of the inputs).

    Example:
        >>> import unigrad as ug
        >>> a, b = ug.broadcast_tensors(ug.tensor([[1.0], [2.0]]), ug.tensor([3.0, 4.0, 5.0]))
        >>> a.shape, b.shape
        ((2, 3), (2, 3))
    """
    for position, tensor in enumerate(tensors):
        if not isinstance(tensor, Tensor):
            raise TypeError(f"expected Tensor as element {position} in argument 0, but got "
                            f"{type(tensor).__name__}")
    shapes = [tuple(t.shape) for t in tensors]
    ndim = max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for shape in shapes:  # PyTorch's message names the first mismatching pair
        for offset in range(1, len(shape) + 1):
            size, current = shape[-offset], result[-offset]
            if size != current and size != 1 and current != 1:
                raise RuntimeError(f"The size of tensor a ({current}) must match the size of "
                                   f"tensor b ({size}) at non-singleton dimension "
                                   f"{ndim - offset}")
            if current == 1:
                result[-offset] = size
    return tuple(_shape.broadcast_to(t, tuple(result)) for t in tensors)


# ============================================================================= splits

@op(methods=("split_with_sizes",))
def split_with_sizes(input: Tensor, split_sizes, dim: int = 0) -> tuple:
    """Pieces of ``input`` along ``dim`` of the listed sizes (which sum to its size there).

    Example:
        >>> import unigrad as ug
        >>> ug.split_with_sizes(ug.arange(5.0), [2, 3])
        (tensor([0., 1.]), tensor([2., 3., 4.]))
    """
    return _shape.split(input, list(split_sizes), dim)


@op(methods=("unsafe_split",))
def unsafe_split(input: Tensor, split_size, dim: int = 0) -> tuple:
    """:func:`unigrad.split` (PyTorch's version without view tracking; the same here).

    Example:
        >>> import unigrad as ug
        >>> ug.unsafe_split(ug.arange(5.0), 2)
        (tensor([0., 1.]), tensor([2., 3.]), tensor([4.]))
    """
    return _shape.split(input, split_size, dim)


@op(methods=("unsafe_chunk",))
def unsafe_chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:
    """:func:`unigrad.chunk` (PyTorch's version without view tracking; the same here).

    Example:
        >>> import unigrad as ug
        >>> ug.unsafe_chunk(ug.arange(5.0), 2)
        (tensor([0., 1., 2.]), tensor([3., 4.]))
    """
    return _shape.chunk(input, chunks, dim)


@op(methods=("sum_to_size",))
def sum_to_size(input: Tensor, *size) -> Tensor:
    """``input`` summed down to ``size``, a shape ``input``'s shape expands from
    (``Tensor.sum_to_size``; the sizes as separate ints or one sequence).

    Example:
        >>> import unigrad as ug
        >>> ug.arange(6.0).reshape(2, 3).sum_to_size(1, 3)
        tensor([[3., 5., 7.]])
    """
    target = _shape_argument(size[0] if len(size) == 1 and not isinstance(size[0], int)
                             else size)
    current = tuple(input.shape)
    lead = len(current) - len(target)
    if lead < 0 or any(t != c and t != 1 for t, c in zip(target, current[lead:])):
        raise RuntimeError(f"size {{{list(target)}}} is not expandable to size "
                           f"{{{list(current)}}}.")
    return _shape.sum_to_shape(input, target)


# ============================================================================= view copies

def _copied(result):
    """The view ``result`` (a tensor or a tuple of them) in storage of its own."""
    if isinstance(result, tuple):
        return tuple(clone(piece) for piece in result)
    return clone(result)


def alias_copy(input: Tensor) -> Tensor:
    """A copy of ``input`` (PyTorch's ``alias``, materialized).

    Example:
        >>> import unigrad as ug
        >>> ug.alias_copy(ug.tensor([1.0, 2.0]))
        tensor([1., 2.])
    """
    return clone(input)


def detach_copy(input: Tensor) -> Tensor:
    """A copy of ``input`` cut off from the graph (``detach``, materialized).

    Example:
        >>> import unigrad as ug
        >>> ug.detach_copy(ug.tensor([1.0], requires_grad=True)).requires_grad
        False
    """
    return clone(input.detach())


def diagonal_copy(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """:func:`unigrad.diagonal`, materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.diagonal_copy(ug.arange(4.0).reshape(2, 2))
        tensor([0., 3.])
    """
    return _copied(_layout.diagonal(input, offset, dim1, dim2))


def expand_copy(input: Tensor, size, *, implicit: bool = False) -> Tensor:
    """``input.expand(size)``, materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.expand_copy(ug.tensor([1.0, 2.0]), (2, -1))
        tensor([[1., 2.],
                [1., 2.]])
    """
    return _copied(_shape.expand(input, tuple(size)))


@op(methods=("narrow_copy",))
def narrow_copy(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """:func:`unigrad.narrow`, materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.narrow_copy(ug.arange(5.0), 0, 1, 2)
        tensor([1., 2.])
    """
    return _copied(_shape.narrow(input, dim, start, length))


def permute_copy(input: Tensor, dims) -> Tensor:
    """:func:`unigrad.permute`, materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.permute_copy(ug.zeros(1, 2, 3), (2, 0, 1)).shape
        (3, 1, 2)
    """
    return _copied(_shape.permute(input, tuple(dims)))


def select_copy(input: Tensor, dim: int, index: int) -> Tensor:
    """:func:`unigrad.select`, materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.select_copy(ug.arange(4.0).reshape(2, 2), 1, 0)
        tensor([0., 2.])
    """
    return _copied(_shape.select(input, dim, index))


def squeeze_copy(input: Tensor, dim=None) -> Tensor:
    """:func:`unigrad.squeeze`, materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.squeeze_copy(ug.zeros(1, 2, 1), 0).shape
        (2, 1)
    """
    return _copied(_shape.squeeze(input, dim))


def t_copy(input: Tensor) -> Tensor:
    """:func:`unigrad.t`, materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.t_copy(ug.tensor([[1.0, 2.0]]))
        tensor([[1.],
                [2.]])
    """
    return _copied(_shape.t(input))


def transpose_copy(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """:func:`unigrad.transpose` of two dimensions, materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.transpose_copy(ug.zeros(2, 3, 4), 0, 2).shape
        (4, 3, 2)
    """
    return _copied(_shape.transpose(input, dim0, dim1))


def unbind_copy(input: Tensor, dim: int = 0) -> tuple:
    """:func:`unigrad.unbind`, each slice materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.unbind_copy(ug.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)
        (tensor([1., 3.]), tensor([2., 4.]))
    """
    return _copied(_shape.unbind(input, dim))


def unfold_copy(input: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """``Tensor.unfold`` (windows along ``dimension``), materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.unfold_copy(ug.arange(4.0), 0, 2, 2)
        tensor([[0., 1.],
                [2., 3.]])
    """
    return _copied(_layout.unfold_dimension(input, dimension, size, step))


def unsqueeze_copy(input: Tensor, dim: int) -> Tensor:
    """:func:`unigrad.unsqueeze`, materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.unsqueeze_copy(ug.zeros(2), 0).shape
        (1, 2)
    """
    return _copied(_shape.unsqueeze(input, dim))


def view_copy(input: Tensor, size) -> Tensor:
    """``input.view(size)``, materialized; ``size`` is a shape, or a dtype whose bytes
    reinterpret the last dimension's (not differentiable; computed from the values).

    Example:
        >>> import unigrad as ug
        >>> ug.view_copy(ug.arange(6.0), (2, 3)).shape
        (2, 3)
        >>> ug.view_copy(ug.tensor([1.0], dtype=ug.float32), ug.int32)
        tensor([1065353216], dtype=unigrad.int32)
    """
    if isinstance(size, (int, np.integer, Sequence)):
        return _copied(_shape.view(input, size))
    return _reinterpreted(input, backend.to_numpy_dtype(size))


def _reinterpreted(input: Tensor, dtype: np.dtype) -> Tensor:
    data = values_for_shape("view_copy", input)
    old = data.dtype.itemsize
    if dtype.itemsize != old:
        last = data.shape[-1] if data.ndim else 1
        if not data.ndim or (last * old) % dtype.itemsize:
            raise RuntimeError(f"self.size(-1) must be divisible by {dtype.itemsize // old or 1} "
                               f"to view {torch_dtype_name(data.dtype)} as "
                               f"{torch_dtype_name(dtype)} (different element sizes), but "
                               f"got {last}")
    xp = namespace_of(data)
    contiguous = xp.ascontiguousarray(data) if hasattr(xp, "ascontiguousarray") else data
    return _make_tensor(contiguous.view(dtype).copy())


def split_copy(input: Tensor, split_size, dim: int = 0) -> tuple:
    """:func:`unigrad.split`, each piece materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.split_copy(ug.arange(3.0), 2)
        (tensor([0., 1.]), tensor([2.]))
    """
    return _copied(_shape.split(input, split_size, dim))


def split_with_sizes_copy(input: Tensor, split_sizes, dim: int = 0) -> tuple:
    """:func:`split_with_sizes`, each piece materialized.

    Example:
        >>> import unigrad as ug
        >>> ug.split_with_sizes_copy(ug.arange(3.0), [1, 2])
        (tensor([0.]), tensor([1., 2.]))
    """
    return _copied(split_with_sizes(input, split_sizes, dim))


# ============================================================================= scatters into views

def _written(name: str, input: Tensor, src, index: Index) -> Tensor:
    """``input`` with ``src`` written at ``input[index]`` (a basic index); ``src`` must have
    the slice's shape and is cast to ``input``'s dtype."""
    if not isinstance(src, Tensor):
        raise TypeError(f"{name}(): argument 'src' must be Tensor, not {type(src).__name__}")
    expected = _indexing._indexed_shape(tuple(input.shape), index)
    if tuple(src.shape) != tuple(expected):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{list(src.shape)}, slice size = {list(expected)}")
    if src._data.dtype != input._data.dtype:
        src = _elementwise.cast(src, input._data.dtype)
    return bind(index_put_p, input, src, index=index)


@op(methods=("select_scatter",))
def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of ``input`` with ``src`` written at ``input.select(dim, index)``.

    Differentiable in ``input`` (zero gradient at the written slice) and ``src``.

    Example:
        >>> import unigrad as ug
        >>> ug.select_scatter(ug.zeros(2, 2), ug.ones(2), 0, 1)
        tensor([[0., 0.],
                [1., 1.]])
    """
    shape = tuple(input.shape)
    axis = normalize_axis(dim, len(shape))
    index = int(index)
    if not -shape[axis] <= index < shape[axis]:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(shape)} at dimension {axis}")
    where = Index((slice(None),) * axis + (index % shape[axis],))
    return _written("select_scatter", input, src, where)


@op(methods=("slice_scatter",))
def slice_scatter(input: Tensor, src: Tensor, dim: int = 0, start: int | None = None,
                  end: int | None = None, step: int = 1) -> Tensor:
    """A copy of ``input`` with ``src`` written at the slice ``start:end:step`` along ``dim``.

    Example:
        >>> import unigrad as ug
        >>> ug.slice_scatter(ug.zeros(2, 4), ug.ones(2, 2), dim=1, start=0, step=2)
        tensor([[1., 0., 1., 0.],
                [1., 0., 1., 0.]])
    """
    axis = normalize_axis(dim, input.ndim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    where = Index((slice(None),) * axis + (slice(start, end, step),))
    return _written("slice_scatter", input, src, where)


@op(methods=("diagonal_scatter",))
def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0,
                     dim2: int = 1) -> Tensor:
    """A copy of ``input`` with ``src`` written at ``input.diagonal(offset, dim1, dim2)``
    (``src`` has that diagonal's shape, the diagonal last).

    Example:
        >>> import unigrad as ug
        >>> ug.diagonal_scatter(ug.zeros(2, 3), ug.ones(2), 1)
        tensor([[0., 1., 0.],
                [0., 0., 1.]])
    """
    from .layout import diagonal_planes
    flat, where, axes = diagonal_planes(input, offset, dim1, dim2)
    written = _written("diagonal_scatter", flat, src, Index(where))
    shape = tuple(input.shape)
    planes_shape = tuple(size for axis, size in enumerate(shape) if axis not in axes) + (
        shape[axes[0]], shape[axes[1]])
    return _shape.movedim(_shape.reshape(written, planes_shape), (-2, -1), axes)


# ============================================================================= put / index_reduce

@op(methods=("put",), inplace=("put_",))
def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``source`` written (or added, ``accumulate=True``) at the
    positions ``index`` of ``input`` viewed as 1-D (negative positions count from the end).

    Example:
        >>> import unigrad as ug
        >>> ug.zeros(2, 2).put(ug.tensor([0, -1]), ug.tensor([1.0, 2.0]))
        tensor([[1., 0.],
                [0., 2.]])
    """
    data = _indexing._integer_index("put_", index, IndexError)
    count = math.prod(input.shape)
    if not isinstance(source, Tensor):
        raise TypeError(f"put(): argument 'source' must be Tensor, not {type(source).__name__}")
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {torch_dtype_name(input._data.dtype)} and "
                           f"source.dtype = {torch_dtype_name(source._data.dtype)}")
    if math.prod(source.shape) != data.size:
        raise IndexError(f"put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {math.prod(source.shape)}, "
                         f"index.numel() = {data.size}")
    host = _indexing._known_values(data) if data.size else None
    if host is not None:
        for bad in (int(host.min()), int(host.max())):
            if not -count <= bad < count:
                raise IndexError(f"out of range: tried to access index {bad} on a tensor of "
                                 f"{count} elements.")
    flat = _shape.reshape(input, (-1,))
    values = _shape.reshape(source, (-1,))
    where = Index((IndexArray(data.reshape(-1)),))
    if accumulate:
        written = flat + bind(_indexing.index_add_p, values, index=where, shape=(count,))
    else:
        written = bind(index_put_p, flat, values, index=where)
    return _shape.reshape(written, tuple(input.shape))


_INDEX_REDUCTIONS = ("prod", "mean", "amax", "amin")


@op(methods=("index_reduce",), inplace=("index_reduce_",))
@_on_vectors("index", "source")
def index_reduce(input: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *,
                 include_self: bool = True) -> Tensor:
    """Reduce the slices of ``source`` into ``input`` at positions ``index`` along ``dim``
    with ``reduce`` (``'prod'``, ``'mean'``, ``'amax'`` or ``'amin'``); with
    ``include_self=False`` the old values of written slices are left out. Integer
    ``'mean'`` rounds down. Gradients are PyTorch's (``amax``/``amin`` split among ties).

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> x.index_reduce(0, ug.tensor([0, 0]), ug.tensor([[5.0, 1.0], [2.0, 6.0]]), "amax")
        tensor([[5., 6.],
                [3., 4.]])
    """
    if reduce not in _INDEX_REDUCTIONS:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    axis = normalize_axis(dim, input.ndim)
    data = _vector_index("index_reduce", index, axis, input.shape[axis], negative=False)
    _same_dtype("index_reduce_()", input, source, "source")
    _check_source("index_reduce_", input, source, axis, data.size)
    shape = [1] * input.ndim
    shape[axis] = data.size
    positions = namespace_of(data).broadcast_to(data.reshape(shape), tuple(source.shape))
    return scatter_reduce(input, axis, positions, source, reduce, include_self=include_self)


# ============================================================================= unravel_index

def unravel_index(indices: Tensor, shape) -> tuple:
    """The coordinates in an array of ``shape`` of the flat positions ``indices``: one int64
    tensor per dimension, each of ``indices``' shape. As PyTorch, positions wrap around
    (``-1`` is the last entry) and are not range-checked.

    Example:
        >>> import unigrad as ug
        >>> ug.unravel_index(ug.tensor([4, 1]), (3, 2))
        (tensor([2, 0]), tensor([0, 1]))
    """
    if not isinstance(indices, Tensor):
        raise TypeError(f"unravel_index(): argument 'indices' must be Tensor, not "
                        f"{type(indices).__name__}")
    if indices._data.dtype.kind not in "iu":
        raise TypeError(f"expected 'indices' to be integer dtype, but got "
                        f"torch.{from_numpy_dtype(indices._data.dtype).name}")
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    elif not isinstance(shape, Sequence):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    for size in shape:
        if not isinstance(size, (int, np.integer)):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got "
                            f"{type(size)}")
    shape = tuple(int(size) for size in shape)
    if any(size < 0 for size in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    flat = _elementwise.cast(indices, DEFAULT_INT)
    return tuple(_elementwise.remainder(_elementwise.floor_divide(flat, stride), size)
                 for stride, size in zip(strides, shape))
