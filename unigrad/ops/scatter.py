"""Index-writing, masked and scatter ops with PyTorch's names, arguments and gradients.

Composites over :mod:`unigrad.ops.indexing`'s primitives: ``index_add`` (a
``scatter_add``), ``index_copy``, ``index_fill``, ``index_put``, ``scatter`` and
``masked_scatter`` (``index_put`` writes), ``masked_select`` (a mask index), and
``scatter_reduce`` with ``sum``/``mean``. One primitive, ``scatter_reduce``,
computes the ``prod``/``amax``/``amin`` reductions; its gradients are PyTorch's:
``amax``/``amin`` split the gradient evenly among ties, ``prod`` is exact where
at most one zero reaches a position (and to first order beyond). ``nonzero`` and
``argwhere`` (integer results whose shape depends on the values) are refused
inside ``ug.vmap`` (batched input) and ``ug.jit``, as ``torch.func`` and JAX do.

Example:
    >>> import unigrad as ug
    >>> ug.index_add(ug.zeros(3), 0, ug.tensor([0, 2, 0]), ug.tensor([1.0, 2.0, 3.0]))
    tensor([4., 0., 2.])
    >>> ug.scatter_reduce(ug.zeros(2), 0, ug.tensor([0, 0, 1]), ug.tensor([1.0, 5.0, 2.0]),
    ...                   "amax")
    tensor([5., 2.])
    >>> ug.nonzero(ug.tensor([0, 3, 0, 4]))
    tensor([[1],
            [3]])
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .. import backend
from ..backend import namespace_of
from ..interpreters.batching import BatchTracer, materialize
from ..tensor import Tensor, _make_tensor
from . import elementwise as _elementwise
from . import indexing as _indexing
from . import shape as _shape
from ._dtypes import DEFAULT_INT
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, normalize_axis, shape_of
from ._values import values_for_shape
from .indexing import (
    Index,
    IndexArray,
    gather_p,
    index_add_p,
    index_put_p,
    scatter_add_p,
)
from .registry import op

__all__ = ["index_add", "index_copy", "index_fill", "index_put", "masked_select",
           "masked_scatter", "scatter", "scatter_reduce", "nonzero", "argwhere"]

_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


# ----------------------------------------------------------------------------- helpers

def _dtype_name(dtype) -> str:
    return backend.from_numpy_dtype(np.dtype(dtype)).name


def _same_dtype(name: str, input: Tensor, other, what: str) -> None:
    theirs = other._data.dtype if isinstance(other, Tensor) else np.asarray(other).dtype
    if theirs != input._data.dtype:
        raise RuntimeError(f"{name}: expected {what} to have the dtype of self "
                           f"({_dtype_name(input._data.dtype)}), got {_dtype_name(theirs)}")


def _vector_index(name: str, index, dim: int, size: int, negative: bool):
    """A 1-D integer index into ``size`` positions along ``dim`` (negative ones allowed when
    ``negative``); IndexError when out of range."""
    data = _indexing._integer_index(name, index, IndexError)
    if data.ndim > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector")
    data = data.reshape(-1)
    host = _indexing._known_values(data) if data.size else None
    if host is not None:
        low, high = int(host.min()), int(host.max())
        lowest = -size if negative else 0
        bad = low if low < lowest else high
        if bad < lowest or bad >= size:
            raise IndexError(f"{name}(): index {bad} is out of bounds for dimension {dim} "
                             f"with size {size}")
    return data


def _on_vectors(*operands: str):
    """Run ``function(input, dim, ...)`` on a 0-d input as on shape (1,), as PyTorch does:
    the 0-d tensors among the arguments named ``operands`` (positional after ``dim``, or
    keywords) become 1-D too, and the result 0-d again."""
    def decorate(function):
        @functools.wraps(function)
        def call(input, dim, *args, **kwargs):
            if input.ndim:
                return function(input, dim, *args, **kwargs)
            normalize_axis(dim, 0)
            args = [_vector(a) if position < len(operands) else a
                    for position, a in enumerate(args)]
            kwargs = {name: _vector(a) if name in operands else a for name, a in kwargs.items()}
            return _shape.reshape(function(_shape.reshape(input, (1,)), 0, *args, **kwargs), ())
        return call
    return decorate


def _vector(value):
    return _shape.reshape(value, (1,)) if isinstance(value, Tensor) and value.ndim == 0 else value


def _slice_index(axis: int, data) -> Index:
    return Index((slice(None),) * axis + (IndexArray(data),))


def _check_source(name: str, input: Tensor, source, axis: int, count: int) -> None:
    expected = tuple(input.shape[:axis]) + (count,) + tuple(input.shape[axis + 1:])
    if tuple(source.shape) != expected:
        raise RuntimeError(f"{name}(): source tensor shape must match self tensor shape, "
                           f"excluding the specified dimension. Got self.shape = "
                           f"{list(input.shape)} source.shape = {list(source.shape)}")


def _along_index(data, axis: int) -> Index:
    """The advanced index writing at ``index[i, j, ...]`` along ``axis``, the identity
    positions elsewhere (where ``scatter`` writes)."""
    xp = namespace_of(data)
    return Index(tuple(IndexArray(item) for item in _indexing._along(data, axis, xp)))


# ----------------------------------------------------------------------------- index_*

@op(methods=("index_add",), inplace=("index_add_",))
@_on_vectors("index", "source")
def index_add(input: Tensor, dim: int, index, source, *, alpha=1) -> Tensor:
    """``input`` with ``alpha * source`` added at positions ``index`` along ``dim``.

    Repeated indices accumulate; ``source`` has ``input``'s shape with
    ``len(index)`` along ``dim`` and ``input``'s dtype.

    Example:
        >>> import unigrad as ug
        >>> x = ug.ones(2, 3)
        >>> x.index_add(1, ug.tensor([0, 2, 0]), ug.ones(2, 3), alpha=2)
        tensor([[5., 1., 3.],
                [5., 1., 3.]])
    """
    axis = normalize_axis(dim, input.ndim)
    data = _vector_index("index_add", index, axis, input.shape[axis], negative=False)
    _same_dtype("index_add_()", input, source, "source")
    _check_source("index_add_", input, source, axis, data.size)
    if alpha != 1:
        source = source * alpha
    shape = [1] * input.ndim
    shape[axis] = data.size
    positions = namespace_of(data).broadcast_to(data.reshape(shape), tuple(source.shape))
    return bind(scatter_add_p, input, source, dim=axis, index=IndexArray(positions))


@op(methods=("index_copy",), inplace=("index_copy_",))
@_on_vectors("index", "source")
def index_copy(input: Tensor, dim: int, index, source) -> Tensor:
    """``input`` with the slices of ``source`` copied to positions ``index`` along ``dim``.

    Example:
        >>> import unigrad as ug
        >>> ug.zeros(3, 2).index_copy(0, ug.tensor([2, 0]), ug.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor([[3., 4.],
                [0., 0.],
                [1., 2.]])
    """
    axis = normalize_axis(dim, input.ndim)
    data = _vector_index("index_copy_", index, axis, input.shape[axis], negative=False)
    _same_dtype("index_copy_()", input, source, "source")
    _check_source("index_copy_", input, source, axis, data.size)
    return bind(index_put_p, input, source, index=_slice_index(axis, data))


@op(methods=("index_fill",), inplace=("index_fill_",))
@_on_vectors("index")
def index_fill(input: Tensor, dim: int, index, value) -> Tensor:
    """``input`` with ``value`` (a number or a 0-d tensor) at positions ``index`` along ``dim``.

    Negative indices count from the end. A tensor ``value`` gets the sum of the
    gradient over the filled slices (each slice once, as PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.zeros(2, 3).index_fill(1, ug.tensor([0, -1]), 7.0)
        tensor([[7., 0., 7.],
                [7., 0., 7.]])
    """
    axis = normalize_axis(dim, input.ndim)
    data = _vector_index("index_fill_", index, axis, input.shape[axis], negative=True)
    host = _indexing._known_values(data) if data.size else None
    if host is not None and type(data) is not BatchTracer:  # each filled slice once
        size = input.shape[axis]
        data = namespace_of(data).asarray(np.unique(np.where(host < 0, host + size, host)))
    where = _slice_index(axis, data)
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but "
                               f"got tensor with {value.ndim} dimension(s).")
        value = _shape.broadcast_to(_elementwise.cast(value, input._data.dtype),
                                    _indexing._indexed_shape(tuple(input.shape), where))
    elif input._data.dtype.kind in "iub":
        value = np.asarray(value).astype(input._data.dtype).item()
    return bind(index_put_p, input, value, index=where)


@op(methods=("index_put",), inplace=("index_put_",))
def index_put(input: Tensor, indices, values, accumulate: bool = False) -> Tensor:
    """``input`` with ``values`` written (or added, ``accumulate=True``) at ``input[indices]``.

    ``indices`` is a tuple of index tensors (integer or boolean), as in
    ``input[indices] = values``; ``values`` broadcasts to the indexed shape.
    With ``accumulate`` repeated positions add up.

    Example:
        >>> import unigrad as ug
        >>> x = ug.zeros(3)
        >>> x.index_put((ug.tensor([0, 0, 2]),), ug.tensor(1.0), accumulate=True)
        tensor([2., 0., 1.])
    """
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"index_put(): argument 'indices' must be tuple of Tensors, not "
                        f"{type(indices).__name__}")
    if len(indices) > input.ndim:
        raise IndexError(f"too many indices for tensor of dimension {input.ndim} (got "
                         f"{len(indices)})")
    where = _indexing.normalize_index(tuple(slice(None) if item is None else item
                                            for item in indices), tuple(input.shape))
    if not isinstance(values, Tensor):
        values = _make_tensor(backend.to_device(np.asarray(values, dtype=input._data.dtype),
                                                input.device))
    elif values._data.dtype != input._data.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{_dtype_name(input._data.dtype)} for the destination and "
                           f"{_dtype_name(values._data.dtype)} for the source.")
    indexed = _indexing._indexed_shape(tuple(input.shape), where)
    values = _shape.broadcast_to(
        _shape.reshape(values, _indexing._value_shape(tuple(values.shape), indexed)), indexed)
    if not accumulate:
        return bind(index_put_p, input, values, index=where)
    return input + bind(index_add_p, values, index=where, shape=tuple(input.shape))


# ----------------------------------------------------------------------------- masked

def _mask_data(name: str, mask):
    data = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if data.dtype.kind != "b":
        if name == "masked_scatter":
            raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with "
                               f"dtype {_dtype_name(data.dtype)}")
        raise RuntimeError(f"{name}: expected BoolTensor for mask")
    return data


def _broadcast_input(name: str, input: Tensor, mask_shape: tuple) -> Tensor:
    """``input`` broadcast against the mask's shape (both broadcast, as in PyTorch)."""
    from ._shape_rules import broadcast_shapes
    try:
        shape = broadcast_shapes(tuple(input.shape), tuple(mask_shape))
    except ValueError:
        raise RuntimeError(f"{name}: the size of the mask {list(mask_shape)} must match the "
                           f"size of the input {list(input.shape)}") from None
    return _shape.broadcast_to(input, shape)


def _broadcast_mask(name: str, input: Tensor, mask) -> Tensor:
    """The boolean ``mask`` broadcast to ``input``'s shape (RuntimeError unless it fits)."""
    data = _mask_data(name, mask)
    mask = mask if isinstance(mask, Tensor) else _make_tensor(backend.to_device(data,
                                                                                input.device))
    try:
        return _shape.broadcast_to(mask, tuple(input.shape))
    except (RuntimeError, ValueError):
        raise RuntimeError(f"{name}: expected mask of shape {list(data.shape)} to be "
                           f"broadcastable to self of shape {list(input.shape)}") from None


@op(methods=("masked_select",))
def masked_select(input: Tensor, mask) -> Tensor:
    """The entries of ``input`` where ``mask`` holds, as a 1-D tensor (both broadcast).

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> ug.masked_select(x, ug.tensor([True, False]))
        tensor([1., 3.])
    """
    data = _mask_data("masked_select()", mask)
    input = _broadcast_input("masked_select()", input, tuple(data.shape))
    mask = _broadcast_mask("masked_select()", input, mask)
    return _indexing.getitem(input, mask)


@op(methods=("masked_scatter",), inplace=("masked_scatter_",))
def masked_scatter(input: Tensor, mask, source: Tensor) -> Tensor:
    """``input`` with the leading entries of ``source`` written, in order, where ``mask`` holds
    (``input`` and ``mask`` broadcast against each other).

    Example:
        >>> import unigrad as ug
        >>> ug.zeros(2, 2).masked_scatter(ug.tensor([True, False]), ug.arange(5.0))
        tensor([[0., 0.],
                [1., 0.]])
    """
    data = _mask_data("masked_scatter", mask)
    _same_dtype("masked_scatter", input, source, "source")
    input = _broadcast_input("masked_scatter", input, tuple(data.shape))
    mask = _broadcast_mask("masked_scatter", input, mask)
    where = _indexing.normalize_index(mask, tuple(input.shape))
    count = _indexing._indexed_shape(tuple(input.shape), where)[0]
    if count > source.numel():
        raise RuntimeError("masked_scatter: Number of elements of source < number of ones in "
                           "mask")
    values = _indexing.getitem(_shape.reshape(source, (-1,)), slice(0, count))
    return bind(index_put_p, input, values, index=where)


# ----------------------------------------------------------------------------- scatter

def _scatter_operands(name: str, input: Tensor, dim: int, index, src):
    """``(axis, index data, src cut to the index's shape)`` after PyTorch's checks."""
    shape = tuple(input.shape)
    axis = normalize_axis(dim, len(shape))
    data = _indexing._integer_index(name, index)
    if isinstance(src, Tensor):
        if src._data.dtype != input._data.dtype:
            raise RuntimeError(f"{name}(): Expected self.dtype to be equal to src.dtype")
        if data.size and src.ndim != data.ndim:
            raise RuntimeError("Index tensor must have the same number of dimensions as src "
                               "tensor")
    if data.size == 0:
        empty = (0,) * len(shape)
        if isinstance(src, Tensor):
            src = _shape.reshape(_indexing.getitem(_shape.reshape(src, (-1,)), slice(0, 0)),
                                 empty)
        return axis, data.reshape(empty), src
    _indexing._check_gather_shapes(shape, tuple(data.shape), axis,
                                   tuple(src.shape) if isinstance(src, Tensor) else None)
    _indexing._check_range(data, axis, shape[axis], allow_negative=False)
    if isinstance(src, Tensor) and tuple(src.shape) != tuple(data.shape):
        src = _indexing.getitem(src, tuple(slice(0, n) for n in data.shape))
    return axis, data, src


@op(methods=("scatter",), inplace=("scatter_",))
@_on_vectors("index", "src")
def scatter(input: Tensor, dim: int, index, src=None, value=None, *,
            reduce: str | None = None) -> Tensor:
    """``input`` with ``src`` (or the number ``value``) written at ``index`` along ``dim``.

    For ``dim=0``: ``out[index[i][j]][j] = src[i][j]``. ``reduce='add'`` or
    ``'multiply'`` combine with the old values instead of replacing them.

    Example:
        >>> import unigrad as ug
        >>> ug.zeros(2, 3).scatter(1, ug.tensor([[2], [0]]), ug.tensor([[1.0], [2.0]]))
        tensor([[0., 0., 1.],
                [2., 0., 0.]])
        >>> ug.zeros(3).scatter(0, ug.tensor([1]), 5.0)
        tensor([0., 5., 0.])
    """
    if src is not None and not isinstance(src, Tensor):
        src, value = None, src
    if (src is None) == (value is None):
        raise TypeError("scatter(): expected exactly one of 'src' (a Tensor) and 'value'")
    if reduce not in (None, "add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    axis, data, src = _scatter_operands("scatter", input, dim, index, src)
    if src is None and reduce is not None:
        from .creation import full
        src = full(tuple(data.shape), value, dtype=input.dtype, device=input.device)
    if reduce == "add":
        return bind(scatter_add_p, input, src, dim=axis, index=IndexArray(data))
    if reduce == "multiply":
        return bind(scatter_reduce_p, input, src, dim=axis, index=IndexArray(data),
                    reduce="prod", include_self=True)
    if src is None:
        if input._data.dtype.kind in "iub":
            value = np.asarray(value).astype(input._data.dtype).item()
        return bind(index_put_p, input, value, index=_along_index(data, axis))
    return bind(index_put_p, input, src, index=_along_index(data, axis))


@op(methods=("scatter_reduce",), inplace=("scatter_reduce_",))
@_on_vectors("index", "src")
def scatter_reduce(input: Tensor, dim: int, index, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    """Reduce ``src`` into ``input`` at ``index`` along ``dim`` (PyTorch's scatter_reduce).

    ``reduce`` is ``'sum'``, ``'prod'``, ``'mean'``, ``'amax'`` or ``'amin'``;
    with ``include_self=False`` the old values at written positions are left
    out (positions nothing is written to keep them). Integer ``'mean'`` rounds
    down. Gradients are PyTorch's (``amax``/``amin`` split among ties).

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([1.0, 2.0])
        >>> src = ug.tensor([3.0, 5.0, 4.0])
        >>> x.scatter_reduce(0, ug.tensor([0, 0, 1]), src, "mean", include_self=False)
        tensor([4., 4.])
    """
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    if not isinstance(src, Tensor):
        raise TypeError(f"scatter_reduce(): argument 'src' must be Tensor, not "
                        f"{type(src).__name__}")
    axis, data, src = _scatter_operands("scatter_reduce", input, dim, index, src)
    where = IndexArray(data)
    if reduce in ("prod", "amax", "amin"):
        return bind(scatter_reduce_p, input, src, dim=axis, index=where, reduce=reduce,
                    include_self=bool(include_self))
    base = input if include_self else bind(index_put_p, input, 0, index=_along_index(data, axis))
    total = bind(scatter_add_p, base, src, dim=axis, index=where)
    if reduce == "sum":
        return total
    from .creation import ones_like, zeros_like
    start = ones_like(input) if include_self else zeros_like(input)
    count = bind(scatter_add_p, start, ones_like(src), dim=axis, index=where)
    count = _elementwise.where(count == 0, 1, count)
    if input._data.dtype.kind in "iub":
        return _elementwise.floor_divide(total, count)
    return total / count


def _scatter_reduce_impl(x, src, dim, index, reduce, include_self):
    xp = namespace_of(x)
    host, values = backend.to_numpy(x), backend.to_numpy(src)
    out = np.array(host, copy=True)
    positions = _indexing._along(index.on(np), dim, np)
    if not include_self:
        out[positions] = _identity(reduce, out.dtype)
    with np.errstate(invalid="ignore", over="ignore"):  # NaN propagates, as in PyTorch
        {"prod": np.multiply, "amax": np.maximum, "amin": np.minimum}[reduce].at(
            out, positions, values)
    return out if xp is np else xp.asarray(out)


def _identity(reduce: str, dtype):
    if reduce == "prod":
        return 1
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    if dtype.kind == "b":
        return reduce == "amin"
    info = np.iinfo(dtype)
    return info.min if reduce == "amax" else info.max


def _partials(x, src, out, dim, index, reduce, include_self):
    """``(d out / d x, d out_at_index / d src)``: the gradient's two linear factors,
    PyTorch's formulas written with differentiable ops."""
    where, cast = _elementwise.where, _elementwise.cast
    dtype = (out._data if isinstance(out, Tensor) else out).dtype

    def gathered(value):
        return bind(gather_p, value, dim=dim, index=index)

    def scattered(start, value):
        return bind(scatter_add_p, start, value, dim=dim, index=index)

    if reduce == "prod":
        masked_self = where(x == 0, 1.0, x)
        d_self = bind(scatter_reduce_p, masked_self, src, dim=dim, index=index, reduce=reduce,
                      include_self=include_self) / masked_self
        src_zero = src == 0
        zeros = _indexing._scatter_zeros(out, tuple(out.shape))
        zeros_reaching = gathered(scattered(zeros, cast(src_zero, dtype)))
        single_zero = src_zero & (zeros_reaching == 1)
        masked_src = where(single_zero, 1.0, src)
        without_zero = bind(scatter_reduce_p, x, masked_src, dim=dim, index=index, reduce=reduce,
                            include_self=include_self)
        d_src = where(single_zero, gathered(without_zero),
                      gathered(out) / where(src_zero, 1.0, src))
    else:
        self_is_result = cast(x == out, dtype)
        src_is_result = cast(src == gathered(out), dtype)
        ties = scattered(self_is_result, src_is_result)
        d_self = self_is_result / ties
        d_src = src_is_result / gathered(ties)
    if not include_self:
        d_self = bind(index_put_p, d_self, 0.0, index=_along_index(index.array, dim))
    return d_self, d_src


def _scatter_reduce_vjp(g, out, needs, x, src, dim, index, reduce, include_self):
    d_self, d_src = _partials(x, src, out, dim, index, reduce, include_self)
    return (g * d_self if needs[0] else None,
            bind(gather_p, g, dim=dim, index=index) * d_src if needs[1] else None)


def _scatter_reduce_jvp(tangents, out, x, src, dim, index, reduce, include_self):
    d_self, d_src = _partials(x, src, out, dim, index, reduce, include_self)
    x_tangent, src_tangent = tangents
    total = None if x_tangent is None else x_tangent * d_self
    if src_tangent is not None:
        start = _indexing._scatter_zeros(out, tuple(out.shape)) if total is None else total
        total = bind(scatter_add_p, start, src_tangent * d_src, dim=dim, index=index)
    return total


def _scatter_reduce_batch(values, dims, dim, index, reduce, include_self):
    """The batching rule: one scatter along the same axis of the whole batch (unbatched
    operands are broadcast along it), as ``scatter_add``'s."""
    (x, src), (x_dim, src_dim) = values, dims
    size = _indexing._level_size(values, dims, [index.array])
    x = materialize(x, x_dim, size)
    src = materialize(src, src_dim, size)
    return bind(scatter_reduce_p, x, src, dim=int(dim) % index.ndim + 1,
                index=_indexing._gather_family_index(index, size), reduce=reduce,
                include_self=include_self), 0


scatter_reduce_p = Primitive(
    "scatter_reduce", _scatter_reduce_impl,
    lambda x, src, dim, index, reduce, include_self: (shape_of(x), dtype_of(x)),
    vjp=_scatter_reduce_vjp, jvp=_scatter_reduce_jvp, saves="inputs and output",
    batch=_scatter_reduce_batch, backward_name="ScatterReduceBackward0")


# ----------------------------------------------------------------------------- n-d scatter

def scatter_nd_into(input: Tensor, indices: Tensor, updates: Tensor, reduce: str | None = None,
                    *, owner: str = "scatter_nd") -> Tensor:
    """``input`` with ``updates`` combined in at the slices ``indices[..., :]`` names (the
    ``tensor_scatter_nd_*`` ops of TensorFlow and MindSpore, not a PyTorch op).

    ``indices`` has shape ``(..., k)`` and indexes the first ``k`` dimensions;
    ``updates`` has shape ``indices.shape[:-1] + input.shape[k:]``. ``reduce`` is
    None (replace), ``'add'``, ``'sub'``, ``'amax'`` or ``'amin'``; repeated
    positions accumulate. ValueError for out-of-range indices or wrong shapes.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.ops.scatter import scatter_nd_into
        >>> scatter_nd_into(ug.zeros(2, 2), ug.tensor([[1, 0], [1, 0]]), ug.ones(2), "add")
        tensor([[0., 0.],
                [2., 0.]])
    """
    depth = indices.shape[-1] if indices.ndim else 0
    if not indices.ndim or depth > input.ndim:
        raise ValueError(f"{owner}: indices must have rank >= 1 and a last dimension of at "
                         f"most rank(input) = {input.ndim}, got shape {list(indices.shape)}")
    outer, inner = tuple(input.shape[:depth]), tuple(input.shape[depth:])
    count, width = math.prod(indices.shape[:-1]), math.prod(inner)
    expected = tuple(indices.shape[:-1]) + inner
    if tuple(updates.shape) != expected:
        raise ValueError(f"{owner}: updates must have shape {list(expected)} "
                         f"(indices.shape[:-1] + input.shape[{depth}:]), got "
                         f"{list(updates.shape)}")
    rows = backend.to_numpy(values_for_shape(owner, indices)).reshape(count, depth)
    outside = ((rows < 0) | (rows >= np.asarray(outer, dtype=np.int64))).any(axis=1)
    if outside.any():
        raise ValueError(f"{owner}: indices {rows[outside][0].tolist()} do not index into "
                         f"shape {list(input.shape)}")
    flat_index = np.ravel_multi_index(tuple(rows.T), outer) if depth else \
        np.zeros(count, np.int64)
    positions = np.broadcast_to(flat_index.reshape(count, 1), (count, width))
    flat = _shape.reshape(input, (math.prod(outer), width))
    values = _shape.reshape(updates, (count, width))
    if reduce is None:
        result = scatter(flat, 0, positions, values)
    elif reduce in ("add", "sub"):
        result = _indexing.scatter_add(flat, 0, positions, values if reduce == "add" else -values)
    elif reduce in ("amax", "amin"):
        result = scatter_reduce(flat, 0, positions, values, reduce)
    else:
        raise ValueError(f"{owner}: reduce must be None, 'add', 'sub', 'amax' or 'amin', got "
                         f"{reduce!r}")
    return _shape.reshape(result, tuple(input.shape))


# ----------------------------------------------------------------------------- nonzero

@op(methods=("nonzero",))
def nonzero(input: Tensor, *, as_tuple: bool = False):
    """The positions of the nonzero entries: an ``(n, ndim)`` int64 tensor, or with
    ``as_tuple=True`` one 1-D int64 tensor per dimension (a 0-d input counts as 1-D).

    Not differentiable; refused inside ``ug.vmap`` and ``ug.jit`` (the result's
    shape depends on the values).

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([[1.0, 0.0], [0.0, 2.0]])
        >>> ug.nonzero(x)
        tensor([[0, 0],
                [1, 1]])
        >>> x.nonzero(as_tuple=True)
        (tensor([0, 1]), tensor([0, 1]))
    """
    if not isinstance(as_tuple, (bool, np.bool_)):
        raise TypeError(f"nonzero(): argument 'as_tuple' must be bool, not "
                        f"{type(as_tuple).__name__}")
    data = values_for_shape("nonzero", input)
    xp = namespace_of(data)
    if as_tuple:
        flat = data.reshape(-1) if data.ndim == 0 else data
        return tuple(_make_tensor(axis.astype(DEFAULT_INT)) for axis in xp.nonzero(flat))
    return _make_tensor(xp.argwhere(data).astype(DEFAULT_INT))


@op(methods=("argwhere",))
def argwhere(input: Tensor) -> Tensor:
    """The positions of the nonzero entries as an ``(n, ndim)`` int64 tensor (``nonzero``).

    Example:
        >>> import unigrad as ug
        >>> ug.argwhere(ug.tensor([0, 5, 7]))
        tensor([[1],
                [2]])
    """
    return nonzero(input)
