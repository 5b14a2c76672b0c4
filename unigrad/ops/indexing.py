"""Indexing: ``x[index]``, ``x[index] = value``, gather/scatter and friends (PyTorch semantics).

An index is normalized once into an :class:`Index` (ints, slices, None,
Ellipsis and :class:`IndexArray` items), a hashable primitive parameter: index
arrays never enter the traced inputs. Basic indices (ints, slices, None,
Ellipsis) give views that share storage and version counter with the input
(primitive ``getitem``); advanced ones (integer arrays, boolean masks) copy
(primitive ``index``). Both have ``index_add`` (a scatter-add into zeros) as
their vjp, whose own vjp is indexing again, so every order differentiates.

Inside ``ug.vmap`` every primitive here has a batching rule: the per-example
index becomes one index into the whole batch (a leading full slice for a
batched input, an ``arange`` over the batch next to batched index arrays), and
``x[index] = value`` writes functionally (the tensor's data becomes the batched
result). A boolean mask that differs per example is refused, since the
result's shape would depend on each example's values.

Example:
    >>> import unigrad as ug
    >>> x = ug.tensor([1.0, 2.0, 3.0], requires_grad=True)
    >>> x[[0, 0, 2]].sum().backward()
    >>> x.grad
    tensor([2., 0., 1.])
"""

from __future__ import annotations

import math
import operator

import numpy as np

from .. import _state, backend
from ..autograd.node import is_recorded, present_as
from ..backend import namespace_of
from ..interpreters.array import AbstractArray
from ..interpreters.batching import (
    BatchingError,
    BatchTracer,
    batch_size,
    check_batched_write,
    materialize,
    move_axis,
    ndim_of,
)
from ..tensor import Tensor, _make_tensor, as_array
from ._primitive import Primitive, bind
from ._shape_rules import broadcast_shapes, dtype_of, normalize_axis, shape_of
from .registry import op

__all__ = ["gather", "scatter_add", "index_select", "take_along_axis", "take_along_dim", "take",
           "masked_fill"]

_local = _state.local


# ----------------------------------------------------------------------------- index description

class IndexArray:
    """An integer or boolean index array as a hashable parameter (hashed by its bytes)."""

    __slots__ = ("array", "_hash")

    def __init__(self, array):
        self.array = array
        self._hash = None

    @property
    def shape(self) -> tuple:
        return tuple(self.array.shape)

    @property
    def ndim(self) -> int:
        return self.array.ndim

    @property
    def is_mask(self) -> bool:
        return self.array.dtype.kind == "b"

    def on(self, xp):
        """The array in the namespace ``xp`` (NumPy or CuPy)."""
        if namespace_of(self.array) is xp:
            return self.array
        return backend.to_numpy(self.array) if xp is np else xp.asarray(self.array)

    def __hash__(self) -> int:
        if self._hash is None:
            host = backend.to_numpy(self.array)
            self._hash = hash((host.shape, host.dtype.str, host.tobytes()))
        return self._hash

    def __eq__(self, other) -> bool:
        if not isinstance(other, IndexArray):
            return NotImplemented
        if other is self:
            return True
        mine, theirs = backend.to_numpy(self.array), backend.to_numpy(other.array)
        return mine.shape == theirs.shape and mine.dtype == theirs.dtype and \
            bool((mine == theirs).all())

    def __repr__(self) -> str:
        return f"IndexArray(shape={list(self.shape)}, dtype={self.array.dtype})"

    def _param_arrays(self) -> list:
        return [self.array]

    def _with_param_arrays(self, arrays: list) -> IndexArray:
        return IndexArray(arrays[0])


class Index:
    """A normalized index: a tuple of ints, slices, None, Ellipsis and IndexArrays.

    ``basic`` is true when it holds no IndexArray; a basic index always ends in
    an Ellipsis so that NumPy returns a view even when every dimension is
    selected by an int.
    """

    __slots__ = ("items", "basic", "scatters")

    def __init__(self, items: tuple):
        arrays = [item for item in items if isinstance(item, IndexArray)]
        self.basic = not arrays
        self.scatters = any(not item.is_mask for item in arrays)
        if self.basic and Ellipsis not in items:
            items = items + (Ellipsis,)
        self.items = items

    def on(self, xp) -> tuple:
        """The index as NumPy/CuPy understand it."""
        if self.basic:
            return self.items
        return tuple(item.on(xp) if isinstance(item, IndexArray) else item
                     for item in self.items)

    def _key(self) -> tuple:
        return tuple(("slice", item.start, item.stop, item.step) if isinstance(item, slice)
                     else item for item in self.items)

    def __hash__(self) -> int:
        return hash(self._key())

    def __eq__(self, other) -> bool:
        return isinstance(other, Index) and self._key() == other._key()

    def __repr__(self) -> str:
        return f"Index({self.items!r})"

    def _param_arrays(self) -> list:
        return [item.array for item in self.items if isinstance(item, IndexArray)]

    def _with_param_arrays(self, arrays: list) -> Index:
        replacements = iter(arrays)
        return Index(tuple(IndexArray(next(replacements)) if isinstance(item, IndexArray)
                           else item for item in self.items))


def _invalid_index(item) -> Exception:
    """PyTorch's error for an index of the wrong kind: a TypeError for a string."""
    error = TypeError if isinstance(item, (str, bytes)) else IndexError
    return error(f"only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                 f"Variables are valid indices (got {type(item).__name__})")


def _slice_part(value, item):
    if value is None:
        return None
    try:
        return operator.index(value)
    except TypeError:
        raise _invalid_index(item) from None


def _convert_item(item):
    """One user index item -> int, slice, None, Ellipsis or IndexArray."""
    if item is None or item is Ellipsis:
        return item
    if isinstance(item, slice):
        step = _slice_part(item.step, item)
        if step is not None and step <= 0:
            raise ValueError("slice step cannot be zero" if step == 0 else
                             "step must be greater than zero")
        return slice(_slice_part(item.start, item), _slice_part(item.stop, item), step)
    if isinstance(item, (bool, np.bool_)):
        return None if item else IndexArray(np.zeros((), dtype=np.bool_))
    if isinstance(item, (int, np.integer)):
        return int(item)
    if isinstance(item, Tensor):
        data = _tensor_index_data(item)
    elif isinstance(item, backend.ndarray) or hasattr(item, "__cuda_array_interface__"):
        data = item
    elif isinstance(item, (list, tuple, range)):
        data = np.asarray([backend.to_numpy(part._data) if isinstance(part, Tensor) else part
                           for part in item])
        if data.size == 0:
            data = data.astype(np.int64)
    else:
        raise _invalid_index(item)
    kind = data.dtype.kind
    if kind not in "iub":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    if type(data) is BatchTracer:
        if kind == "b":
            raise _batched_mask_error()
        return IndexArray(data)  # one index per example: a 0-d one selects like an int
    if is_traced(data):
        if kind == "b":
            from ..graph.tracer import _concretization_error
            raise _concretization_error("Indexing with a boolean mask (its result's shape "
                                        "depends on the values; use ug.where(mask, x, 0) or "
                                        "masked_fill instead)")
        return IndexArray(data)  # a 0-d traced index selects like an int
    if kind == "b":
        return IndexArray(data)
    if data.ndim == 0:
        return int(data)
    return IndexArray(data)


def is_traced(data) -> bool:
    """Whether ``data`` has no values to read here: an abstract value of an active ``ug.jit``
    trace (no values yet), or a batched value inside ``ug.vmap`` (one per example; checks
    on its values are skipped, or made on the whole batch)."""
    if type(data) is BatchTracer:
        return True
    if _local.trace is None:
        return False
    from ..graph.tracer import Tracer
    return type(data) is Tracer


def _known_values(data):
    """The values of an index array as a NumPy array, or None when they are not known yet
    (traced by ``ug.jit``: checked when the graph runs). A batched index (inside
    ``ug.vmap``) gives the whole batch's values, so checking them checks every example."""
    while type(data) is BatchTracer:
        data = data.value
        if isinstance(data, Tensor):
            data = data._data
    if is_traced(data) or isinstance(data, AbstractArray):
        return None
    return backend.to_numpy(data)


def _batched_mask_error() -> BatchingError:
    return BatchingError(
        "vmap: indexing with a boolean mask that is batched (it differs per example) is not "
        "supported: the result's shape would depend on each example's values. Use "
        "ug.where(mask, x, 0) or masked_fill instead, or pass the mask with in_axes=None "
        "if it is the same for every example")


def _tensor_index_data(tensor: Tensor):
    """The array of an index tensor; under ``ug.jit`` one made outside the trace becomes a
    graph input (so a new call with other indices reuses the graph instead of baking them in).
    A batched index (inside ``ug.vmap``) is left as it is: its whole batch is read, and
    captured, by the batching rule."""
    trace = _local.trace
    if trace is not None and type(tensor._data) is not BatchTracer and \
            not trace.is_created(tensor):
        return trace.read(tensor)  # its traced value (the tensor itself is never modified)
    return tensor._data


def _check_position(value: int, dim: int, size: int) -> None:
    if not -size <= value < size:
        raise IndexError(f"index {value} is out of bounds for dimension {dim} with size {size}")


def _check_array(item: IndexArray, dim: int, shape: tuple) -> None:
    if item.is_mask:
        mask_shape = item.shape
        indexed = shape[dim:dim + len(mask_shape)]
        for j, (have, want) in enumerate(zip(mask_shape, indexed)):
            if have != want:
                raise IndexError(f"The shape of the mask {list(mask_shape)} at index {j} does not "
                                 f"match the shape of the indexed tensor {list(shape)} at index "
                                 f"{dim + j}")
        return
    if item.array.size == 0:
        return
    host = _known_values(item.array)
    if host is None:  # traced: checked by the kernel at run
        return
    low, high = int(host.min()), int(host.max())
    size = shape[dim]
    _check_position(low if low < -size else high, dim, size)


def _sequence_as_tuple(index) -> bool:
    """PyTorch's rule for a list index: fewer than 32 items, one of them a tensor, array,
    sequence, slice, Ellipsis or None, and it indexes as the tuple of its items
    (``x[[rows, cols]]`` is ``x[rows, cols]``); otherwise it is one index array."""
    if not isinstance(index, list) or len(index) >= 32:
        return False
    return any(item is None or item is Ellipsis or isinstance(
        item, (Tensor, backend.ndarray, list, tuple, range, slice)) for item in index)


def normalize_index(index, shape: tuple) -> Index:
    """Check ``index`` against ``shape`` and describe it as an :class:`Index`.

    Example:
        >>> from unigrad.ops.indexing import normalize_index
        >>> normalize_index((0, slice(1, None)), (3, 4)).basic
        True
    """
    raw = index if isinstance(index, tuple) else \
        tuple(index) if _sequence_as_tuple(index) else (index,)
    items = tuple(_convert_item(item) for item in raw)
    if sum(item is Ellipsis for item in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = 0
    for item in items:
        if isinstance(item, IndexArray):
            consumed += item.ndim if item.is_mask else 1
        elif isinstance(item, (int, slice)):
            consumed += 1
    ndim = len(shape)
    if consumed > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    dim = 0
    for item in items:
        if item is Ellipsis:
            dim += ndim - consumed
        elif isinstance(item, int):
            _check_position(item, dim, shape[dim])
            dim += 1
        elif isinstance(item, slice):
            dim += 1
        elif isinstance(item, IndexArray):
            _check_array(item, dim, shape)
            dim += item.ndim if item.is_mask else 1
    return Index(items)


# ----------------------------------------------------------------------------- primitives

def _probe(shape: tuple):
    """A zero-strided boolean array of ``shape``: indexing it gives result shapes cheaply."""
    return np.broadcast_to(np.zeros((), dtype=np.bool_), shape)


def _indexed_shape(shape: tuple, index: Index) -> tuple:
    return tuple(_probe(shape)[_probe_index(index)].shape)


def _probe_index(index: Index) -> tuple:
    """``index`` for NumPy; index arrays without values here (traced or batched) become zeros
    of their shape and dtype, which give the same result shape."""
    if index.basic:
        return index.items
    return tuple(_probe_array(item) if isinstance(item, IndexArray) else item
                 for item in index.items)


def _probe_array(item: IndexArray):
    array = item.array
    if isinstance(array, AbstractArray) or is_traced(array):
        return np.broadcast_to(np.zeros((), dtype=array.dtype), tuple(array.shape))
    return item.on(np)


# ----------------------------------------------------------------------------- batching rules

def _batched_here(array) -> bool:
    """Whether an index array is batched at the ``vmap`` level whose rule is running.

    A level runs its rules with its parent innermost, so its own batched values
    are the live ones whose level sits right inside the current interpreter;
    those of enclosing levels are ordinary per-example arrays to the rule.
    """
    return type(array) is BatchTracer and array.interpreter.active and \
        array.interpreter.parent is _local.interpreter


def _level_size(values: tuple, dims: tuple, arrays: list) -> int:
    """The running level's batch size, read from a batched index array or operand."""
    for array in arrays:
        if _batched_here(array):
            return array.interpreter.size
    return batch_size(values, dims)


def _example_shape(value, dim: int | None) -> tuple:
    """One example's shape: the shape of ``value`` without its batch axis ``dim``."""
    shape = tuple(getattr(value, "shape", ()))
    return shape if dim is None else shape[:dim] + shape[dim + 1:]


def _batch_first(tracer: BatchTracer, rank: int):
    """The whole batch of a batched index array (a backend or abstract array), batch axis
    first and singleton axes after it up to ``rank`` per-example dimensions, so that it
    broadcasts against the other index arrays as one example's array does."""
    data = tracer.value
    if isinstance(data, Tensor):
        data = _tensor_index_data(data)
    dim = tracer.dim
    if dim:
        data = data.transpose((dim,) + tuple(axis for axis in range(data.ndim) if axis != dim))
    shape = tuple(data.shape)
    if len(shape) - 1 < rank:
        data = data.reshape(shape[:1] + (1,) * (rank + 1 - len(shape)) + shape[1:])
    return data


def _advanced_positions(items: tuple) -> list:
    """Where an index's advanced entries stand: its index arrays, and its ints when it has
    an index array (NumPy then treats them as 0-d index arrays)."""
    if not any(isinstance(item, IndexArray) for item in items):
        return []
    return [position for position, item in enumerate(items)
            if isinstance(item, (IndexArray, int))]


def _advanced_rank(items: tuple) -> int:
    """The rank of the advanced entries' broadcast shape (a mask gives one axis)."""
    return max((1 if item.is_mask else item.ndim for item in items
                if isinstance(item, IndexArray)), default=0)


def _grouped(positions: list) -> bool:
    """Whether the advanced entries are next to each other: NumPy then puts their axes where
    they stand in the result, and first otherwise."""
    return not positions or positions[-1] - positions[0] == len(positions) - 1


def _axes_before(items: tuple, stop: int, ndim: int) -> tuple:
    """``(input axes consumed, result axes made)`` by the basic entries ``items[:stop]`` of an
    index into ``ndim`` dimensions."""
    consumed = sum(item.ndim if isinstance(item, IndexArray) and item.is_mask else 1
                   for item in items if item is not None and item is not Ellipsis)
    taken = made = 0
    for item in items[:stop]:
        if item is Ellipsis:
            taken += ndim - consumed
            made += ndim - consumed
        elif item is None:
            made += 1
        else:
            taken += 1
            made += isinstance(item, slice)
    return taken, made


def _batch_index(index: Index, shape: tuple, batched_input: bool, size: int) -> tuple:
    """One example's ``index`` (into an input of per-example ``shape``) as an index into the
    whole batch.

    Returns ``(whole, input_axis, out_axis)``: the whole input, its batch axis
    moved to ``input_axis`` (None when ``batched_input`` is false: it has none),
    indexed by ``whole`` gives every example's result, batched along
    ``out_axis``. Without index arrays batched at the running level a full
    slice leads; batched index arrays enter with their batch axis first, next to
    an ``arange`` over the batch that picks each example's part of the input.
    Either way NumPy's placement of the advanced axes (where they stand when
    adjacent, first otherwise) is kept for each example.
    """
    items = index.items
    positions = _advanced_positions(items)
    rank = _advanced_rank(items)
    batched = [isinstance(item, IndexArray) and _batched_here(item.array) for item in items]
    if not any(batched):
        return Index((slice(None),) + items), 0, 0 if _grouped(positions) else rank
    whole = list(items)
    for position, item in enumerate(items):
        if batched[position]:
            if item.is_mask:
                raise _batched_mask_error()
            whole[position] = IndexArray(_batch_first(item.array, rank))
    first = positions[0]
    taken, made = _axes_before(items, first, len(shape))
    input_axis = None
    if batched_input:
        whole.insert(first, IndexArray(np.arange(size).reshape((size,) + (1,) * rank)))
        input_axis = taken
    return Index(tuple(whole)), input_axis, made if _grouped(positions) else 0


def _aligned(value, dim: int | None, rank: int, axis: int):
    """A per-example ``value`` that broadcasts to a result of ``rank`` dimensions, arranged to
    broadcast to the whole batch's result batched along ``axis``: its batch axis (a one when
    it is not batched) at ``axis``, and ones filling up to the rank."""
    from .shape import reshape_p
    if dim is None and ndim_of(value) == 0:
        return value
    shape = tuple(value.shape)
    if dim is None:
        batch, own = (1,), shape
    else:
        value = move_axis(value, dim, 0)
        batch, own = shape[dim:dim + 1], shape[:dim] + shape[dim + 1:]
    while len(own) > rank and own[0] == 1:
        own = own[1:]
    value = bind(reshape_p, value, shape=batch + (1,) * (rank - len(own)) + own)
    return move_axis(value, 0, axis)


def _index_batch(values: tuple, dims: tuple, index: Index) -> tuple:
    """The batching rule of ``getitem`` and ``index``: one indexing of the whole batch (a
    view still when the index stays basic)."""
    x, dim = values[0], dims[0]
    size = _level_size(values, dims, index._param_arrays())
    whole, input_axis, out_axis = _batch_index(index, _example_shape(x, dim), dim is not None,
                                               size)
    if dim is not None:
        x = move_axis(x, dim, input_axis)
    return bind(getitem_p if whole.basic else index_p, x, index=whole), out_axis


def _index_add_batch(values: tuple, dims: tuple, index: Index, shape: tuple) -> tuple:
    """The batching rule of ``index_add``: one scatter into the whole batch's zeros."""
    source, dim = values[0], dims[0]
    size = _level_size(values, dims, index._param_arrays())
    whole, input_axis, out_axis = _batch_index(index, tuple(shape), True, size)
    whole_shape = tuple(shape[:input_axis]) + (size,) + tuple(shape[input_axis:])
    rank = len(_indexed_shape(whole_shape, whole)) - 1
    source = _aligned(source, dim, rank, out_axis)
    return bind(index_add_p, source, index=whole, shape=whole_shape), input_axis


def _index_put_batch(values: tuple, dims: tuple, index: Index) -> tuple:
    """The batching rule of ``index_put``: the whole batch written at once (an unbatched
    input is broadcast along the batch first, as every example gets its own result)."""
    (x, value), (x_dim, value_dim) = values, dims
    size = _level_size(values, dims, index._param_arrays())
    whole, input_axis, out_axis = _batch_index(index, _example_shape(x, x_dim), True, size)
    x = materialize(x, x_dim, size, input_axis)
    rank = len(_indexed_shape(tuple(x.shape), whole)) - 1
    value = _aligned(value, value_dim, rank, out_axis)
    return bind(index_put_p, x, value, index=whole), input_axis


def _gather_family_index(index: IndexArray, size: int) -> IndexArray:
    """A ``gather``/``scatter_add`` index for the whole batch, batch axis first: a batched
    one's whole batch, an unbatched one broadcast along a new leading axis."""
    array = index.array
    if _batched_here(array):
        return IndexArray(_batch_first(array, array.ndim))
    return IndexArray(namespace_of(array).broadcast_to(array, (size,) + tuple(array.shape)))


def _gather_batch(values: tuple, dims: tuple, dim: int, index: IndexArray) -> tuple:
    """The batching rule of ``gather``: a gather along the same axis of the whole batch."""
    x, x_dim = values[0], dims[0]
    size = _level_size(values, dims, [index.array])
    x = materialize(x, x_dim, size)
    return bind(gather_p, x, dim=int(dim) % index.ndim + 1,
                index=_gather_family_index(index, size)), 0


def _scatter_add_batch(values: tuple, dims: tuple, dim: int, index: IndexArray) -> tuple:
    """The batching rule of ``scatter_add``: a scatter along the same axis of the whole
    batch (unbatched operands are broadcast along it)."""
    (x, source), (x_dim, source_dim) = values, dims
    size = _level_size(values, dims, [index.array])
    x = materialize(x, x_dim, size)
    source = materialize(source, source_dim, size)
    return bind(scatter_add_p, x, source, dim=int(dim) % index.ndim + 1,
                index=_gather_family_index(index, size)), 0


def _index_rule(x, index):
    return _indexed_shape(shape_of(x), index), dtype_of(x)


def _index_impl(x, index):
    return x[index.on(namespace_of(x))]


def _index_vjp(g, out, needs, x, index):
    return (bind(index_add_p, g, index=index, shape=tuple(x.shape)),)


def _index_write_back(base, new_view, index):
    return bind(index_put_p, base, new_view, index=index)


getitem_p = Primitive("getitem", _index_impl, _index_rule, kind="linear",
                      is_view=True, backward_name="SliceBackward0", vjp=_index_vjp, saves="nothing",
                      write_back=_index_write_back,
                      batch=_index_batch)
index_p = Primitive("index", _index_impl, _index_rule, kind="linear",
                    backward_name="IndexBackward0", vjp=_index_vjp, saves="nothing",
                    batch=_index_batch)


def _select(x, index: Index):
    """``x[index]`` for a normalized index: a view for basic indices, a copy otherwise."""
    return bind(getitem_p if index.basic else index_p, x, index=index)


def _index_add_impl(g, index, shape):
    xp = namespace_of(g)
    items = index.on(xp)
    if index.scatters:
        size = math.prod(shape)
        positions = xp.arange(size).reshape(shape)[items]
        values = xp.broadcast_to(g, positions.shape).ravel()
        positions = positions.ravel()
        if values.dtype.kind == "c":  # bincount weighs by reals: the two parts apart
            summed = xp.bincount(positions, weights=values.real, minlength=size) + \
                1j * xp.bincount(positions, weights=values.imag, minlength=size)
        else:
            summed = xp.bincount(positions, weights=values, minlength=size)
        return summed.reshape(shape).astype(g.dtype, copy=False)
    out = xp.zeros(shape, dtype=g.dtype)
    out[items] = g
    return out


index_add_p = Primitive("index_add", _index_add_impl,
                        lambda g, index, shape: (tuple(shape), dtype_of(g)), kind="linear",
                        backward_name="IndexAddBackward0",
                        vjp=lambda g, out, needs, value, index, shape: (_select(g, index),),
                        saves="nothing", batch=_index_add_batch)


def _index_put_impl(x, value, index):
    xp = namespace_of(x)
    out = xp.array(x, copy=True)
    out[index.on(xp)] = value
    return out


def _index_put_rule(x, value, index):
    _value_shape(shape_of(value), _indexed_shape(shape_of(x), index))
    return shape_of(x), dtype_of(x)


def _index_put_vjp(g, out, needs, x, value, index):
    return (bind(index_put_p, g, 0.0, index=index) if needs[0] else None,
            _select(g, index) if needs[1] else None)


def _index_put_jvp(tangents, out, x, value, index):
    from .creation import zeros_like
    x_tangent, value_tangent = tangents
    if x_tangent is None:
        x_tangent = zeros_like(x)
    return bind(index_put_p, x_tangent, 0.0 if value_tangent is None else value_tangent,
                index=index)


index_put_p = Primitive("index_put", _index_put_impl, _index_put_rule,
                        backward_name="IndexPutBackward0", vjp=_index_put_vjp,
                        jvp=_index_put_jvp, saves="nothing", batch=_index_put_batch,
                        complex_gradient="holomorphic")


def _value_shape(value_shape: tuple, indexed_shape: tuple) -> tuple:
    """``value_shape`` without leading ones; RuntimeError unless it broadcasts to the result."""
    stripped = tuple(value_shape)
    while stripped and stripped[0] == 1 and len(stripped) > len(indexed_shape):
        stripped = stripped[1:]
    try:
        fits = broadcast_shapes(stripped, indexed_shape) == tuple(indexed_shape)
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(value_shape)} cannot be "
                           f"broadcast to indexing result of shape {list(indexed_shape)}")
    return stripped


def _along(index, dim: int, xp) -> tuple:
    """The advanced index that picks ``x[..., index[i, j, k], ...]`` along ``dim``."""
    ndim = index.ndim
    items = []
    for d in range(ndim):
        if d == dim:
            items.append(index)
        else:
            shape = [1] * ndim
            shape[d] = index.shape[d]
            items.append(xp.arange(index.shape[d]).reshape(shape))
    return tuple(items)


def _gather_impl(x, dim, index):
    xp = namespace_of(x)
    return x[_along(index.on(xp), dim, xp)]


def _scatter_zeros(g, shape: tuple):
    data = g._data if isinstance(g, Tensor) else g
    return namespace_of(data).zeros(shape, dtype=data.dtype)


gather_p = Primitive("gather", _gather_impl, lambda x, dim, index: (index.shape, dtype_of(x)),
                     kind="linear",
                     vjp=lambda g, out, needs, x, dim, index: (
                         bind(scatter_add_p, _scatter_zeros(g, tuple(x.shape)), g, dim=dim,
                              index=index),), saves="nothing", batch=_gather_batch)


def _scatter_add_impl(x, src, dim, index):
    xp = namespace_of(x)
    out = xp.array(x, copy=True)
    positions = _along(index.on(xp), dim, xp)
    if xp is np:
        np.add.at(out, positions, src)
    else:
        import cupyx
        cupyx.scatter_add(out, positions, src)
    return out


scatter_add_p = Primitive("scatter_add", _scatter_add_impl,
                          lambda x, src, dim, index: (shape_of(x), dtype_of(x)), kind="linear",
                          vjp=lambda g, out, needs, x, src, dim, index: (
                              g if needs[0] else None,
                              bind(gather_p, g, dim=dim, index=index) if needs[1] else None),
                          saves="nothing", batch=_scatter_add_batch)


# ----------------------------------------------------------------------------- tensor indexing

@op(methods=("__getitem__",))
def getitem(input, index):
    """``input[index]`` with PyTorch semantics (basic indices give views).

    Example:
        >>> import unigrad as ug
        >>> x = ug.arange(6.0).reshape(2, 3)
        >>> x[1, ::2]
        tensor([3., 5.])
        >>> x[x > 3.0]
        tensor([4., 5.])
    """
    if type(index) is tuple and 1 < len(index) <= len(input.shape) and is_recorded(input) and \
            all(type(item) is int for item in index):
        for item in index:  # PyTorch records one SelectBackward0 per integer
            input = getitem(input, item)
        return input
    result = _select(input, normalize_index(index, tuple(input.shape)))
    if not isinstance(result, Tensor) or result._grad_fn is None:
        return result
    name = _view_node_name(index)
    return result if name is None else present_as(result, name, input)


_FULL_SLICE = slice(None)


def _view_node_name(index) -> str | None:
    """PyTorch's node for an index that takes one integer (``SelectBackward0``) or adds
    one dimension (``UnsqueezeBackward0``) and otherwise keeps every dimension whole; None
    for the others (their node is ours: ``SliceBackward0``, ``IndexBackward0``)."""
    items = index if type(index) is tuple else (index,)
    significant = [item for item in items
                   if not (item is Ellipsis or (type(item) is slice and item == _FULL_SLICE))]
    if len(significant) != 1:
        return None
    item = significant[0]
    if item is None:
        return "UnsqueezeBackward0"
    if isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
        return "SelectBackward0"
    return None


@op(methods=("__setitem__",))
def setitem(input: Tensor, index, value) -> None:
    """``input[index] = value`` in place; differentiable with respect to both.

    The old values get a zero gradient where they were overwritten.

    Example:
        >>> import unigrad as ug
        >>> x = ug.zeros(3)
        >>> x[1:] = ug.tensor([5.0, 6.0])
        >>> x
        tensor([0., 5., 6.])
    """
    from .elementwise import cast
    from .inplace import apply_inplace
    from .shape import reshape
    normalized = normalize_index(index, tuple(input.shape))
    dtype = input._data.dtype
    if isinstance(value, Tensor):
        if value._data.dtype != dtype:
            value = cast(value, dtype)
    else:
        value = backend.to_device(as_array(value, dtype), input.device)
    shape = _value_shape(tuple(value.shape), _indexed_shape(tuple(input.shape), normalized))
    value = reshape(value, shape)
    if _is_batched(input) or _is_batched(value) or \
            any(_is_batched(array) for array in normalized._param_arrays()):
        _assign_batched(input, normalized, value)
        return
    recording = _local.grad_enabled and (input._requires_grad or (
        isinstance(value, Tensor) and value._requires_grad))
    if recording or _has_tangents(input) or _has_tangents(value) or _local.trace is not None:
        apply_inplace(input, lambda old, new: bind(index_put_p, old, new, index=normalized),
                      value)
        return
    input._leaf_inplace_check()
    input._bump_version()
    input._data[normalized.on(namespace_of(input._data))] = \
        value._data if isinstance(value, Tensor) else value


def _is_batched(value) -> bool:
    """Whether ``value`` (a Tensor or an index array) is batched inside ``ug.vmap``."""
    return type(value._data if isinstance(value, Tensor) else value) is BatchTracer


def _assign_batched(input: Tensor, index: Index, value) -> None:
    """``input[index] = value`` inside ``ug.vmap`` with a batched operand.

    Batched values are immutable, so the write is functional, as under
    ``ug.jit``: the tensor's data becomes the ``index_put`` result (batched even
    when only the value or the index was), and its history with it when
    recorded. Views of the tensor do not see the write.
    """
    input._leaf_inplace_check()
    recording = _local.grad_enabled and (input._requires_grad or (
        isinstance(value, Tensor) and value._requires_grad))
    source = _make_tensor(input._data, recording and input._requires_grad)
    if recording and input._requires_grad:
        source._grad_fn = input._grad_fn
    tangents = input._extra.get("tangents") if input._extra is not None else None
    if tangents:  # forward-mode AD: the write sees the old tangent and yields the new one
        source._extra_dict()["tangents"] = tangents
    result = bind(index_put_p, source, value, index=index)
    check_batched_write(input, result._data)
    input._bump_version()
    input._data = result._data
    if tangents or (result._extra is not None and result._extra.get("tangents")):
        input._extra_dict()["tangents"] = result._extra.get("tangents", {}) \
            if result._extra is not None else {}
    if recording and result._grad_fn is not None:
        input._grad_fn = result._grad_fn
        input._requires_grad = True


def _has_tangents(value) -> bool:
    """Whether ``value`` carries forward-mode tangents (then it needs the op's jvp)."""
    return isinstance(value, Tensor) and value._extra is not None and \
        bool(value._extra.get("tangents"))


# ----------------------------------------------------------------------------- gather family

def _index_data(index, name: str):
    """The backend array of an index argument (Tensor, array or nested list of ints)."""
    if isinstance(index, Tensor):
        return _tensor_index_data(index)
    if isinstance(index, backend.ndarray) or hasattr(index, "__cuda_array_interface__"):
        return index
    if isinstance(index, (list, tuple, int, np.integer)):
        data = np.asarray(index)
        return data.astype(np.int64) if data.size == 0 else data
    raise TypeError(f"{name}: index must be a Tensor of integers, got {type(index).__name__}")


def _check_range(data, dim: int, size: int, allow_negative: bool, error=RuntimeError) -> None:
    host = None if data.size == 0 else _known_values(data)
    if host is None:
        return
    low, high = int(host.min()), int(host.max())
    lowest = -size if allow_negative else 0
    bad = low if low < lowest else high
    if bad < lowest or bad >= size:
        raise error(f"index {bad} is out of bounds for dimension {dim} with size {size}")


def _check_gather_shapes(input_shape: tuple, index_shape: tuple, dim: int,
                         src_shape: tuple | None = None) -> None:
    if len(index_shape) != len(input_shape):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for d, size in enumerate(index_shape):
        if d == dim:
            continue
        too_large = size > input_shape[d] or (src_shape is not None and size > src_shape[d])
        if too_large:
            if src_shape is None:
                raise RuntimeError(f"Size does not match at dimension {d} expected index "
                                   f"{list(index_shape)} to be no larger than self "
                                   f"{list(input_shape)} apart from dimension {dim}")
            raise RuntimeError(f"Expected index {list(index_shape)} to be no larger than self "
                               f"{list(input_shape)} apart from dimension {dim} and to be no "
                               f"larger size than src {list(src_shape)}")


def _integer_index(name: str, index, error=RuntimeError):
    data = _index_data(index, name)
    if data.dtype.kind not in "iu":
        raise error(f"{name}(): Expected dtype int32/int64 for index")
    return data


@op(methods=("gather",))
def gather(input, dim: int, index, *, sparse_grad: bool = False):
    """``out[i][j] = input[index[i][j]][j]`` along ``dim`` (PyTorch's gather).

    ``index`` has the same number of dimensions as ``input`` and is no larger
    than it outside ``dim``; the output has the shape of ``index``. ``sparse_grad``
    is accepted for PyTorch compatibility (gradients are always dense).

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> ug.gather(x, 1, ug.tensor([[0, 0], [1, 0]]))
        tensor([[1., 1.],
                [4., 3.]])
    """
    from .shape import reshape
    shape = tuple(input.shape)
    axis = normalize_axis(dim, len(shape))
    data = _integer_index("gather", index)
    if not shape:
        _check_range(data, 0, 1, allow_negative=False)
        flat = bind(gather_p, reshape(input, (1,)), dim=0, index=IndexArray(data.reshape(-1)))
        return reshape(flat, tuple(data.shape))
    _check_gather_shapes(shape, tuple(data.shape), axis)
    _check_range(data, axis, shape[axis], allow_negative=False)
    return bind(gather_p, input, dim=axis, index=IndexArray(data))


@op(methods=("scatter_add",))
def scatter_add(input, dim: int, index, src):
    """Add ``src`` into a copy of ``input`` at ``index`` along ``dim`` (PyTorch's scatter_add).

    For ``dim=0``: ``out[index[i][j]][j] += src[i][j]``; repeated indices accumulate.

    Example:
        >>> import unigrad as ug
        >>> ug.scatter_add(ug.zeros(3), 0, ug.tensor([0, 2, 0]), ug.tensor([1.0, 2.0, 3.0]))
        tensor([4., 0., 2.])
    """
    from .elementwise import cast
    from .shape import reshape
    shape = tuple(input.shape)
    axis = normalize_axis(dim, len(shape))
    data = _integer_index("scatter_add", index)
    if not shape:
        flat = scatter_add(reshape(input, (1,)), 0, data.reshape(-1), reshape(src, (-1,)))
        return reshape(flat, ())
    if isinstance(src, Tensor) and src._data.dtype != input._data.dtype:
        src = cast(src, input._data.dtype)
    if data.size == 0:
        return bind(scatter_add_p, input, getitem(src, (slice(0, 0),) * len(shape)), dim=axis,
                    index=IndexArray(data.reshape((0,) * len(shape))))
    src_shape = tuple(src.shape)
    if len(src_shape) != data.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    _check_gather_shapes(shape, tuple(data.shape), axis, src_shape)
    _check_range(data, axis, shape[axis], allow_negative=False)
    if src_shape != tuple(data.shape):
        src = getitem(src, tuple(slice(0, n) for n in data.shape))
    return bind(scatter_add_p, input, src, dim=axis, index=IndexArray(data))


@op()
def take_along_axis(arr, indices, axis: int | None = None):
    """NumPy's ``take_along_axis``: pick ``arr`` entries at ``indices`` along ``axis``.

    ``arr`` and ``indices`` broadcast against each other outside ``axis``;
    negative indices count from the end; ``axis=None`` works on the flattened
    array.

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([[10.0, 30.0, 20.0], [60.0, 40.0, 50.0]])
        >>> ug.take_along_axis(x, ug.tensor([[1], [-1]]), axis=1)
        tensor([[30.],
                [50.]])
    """
    from .shape import broadcast_to, reshape
    data = _integer_index("take_along_axis", indices, IndexError)
    if axis is None:
        if data.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        arr = reshape(arr, (-1,))
        axis = 0
    shape = tuple(arr.shape)
    if data.ndim != len(shape):
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = normalize_axis(axis, len(shape), "axis")
    outer = broadcast_shapes(shape[:axis] + (1,) + shape[axis + 1:],
                             tuple(data.shape[:axis]) + (1,) + tuple(data.shape[axis + 1:]))
    size = shape[axis]
    _check_range(data, axis, size, allow_negative=True, error=IndexError)
    xp = namespace_of(data)
    data = xp.broadcast_to(xp.where(data < 0, data + size, data),
                           outer[:axis] + (data.shape[axis],) + outer[axis + 1:])
    arr = broadcast_to(arr, outer[:axis] + (size,) + outer[axis + 1:])
    return bind(gather_p, arr, dim=axis, index=IndexArray(data))


@op(methods=("take_along_dim",))
def take_along_dim(input, indices, dim: int | None = None):
    """PyTorch's ``take_along_dim``: :func:`take_along_axis` along ``dim``; with
    ``dim=None`` both ``input`` and ``indices`` are flattened first.

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([[10.0, 30.0], [20.0, 40.0]])
        >>> ug.take_along_dim(x, ug.tensor([[3, 0]]))
        tensor([40., 10.])
    """
    from .shape import reshape
    if dim is None:
        return take_along_axis(reshape(input, (-1,)), reshape(indices, (-1,)), 0)
    return take_along_axis(input, indices, dim)


@op(methods=("take",))
def take(input, index):
    """Entries of ``input`` viewed as 1-D at ``index``; the result has ``index``'s shape.

    Example:
        >>> import unigrad as ug
        >>> ug.take(ug.tensor([[1.0, 2.0], [3.0, 4.0]]), ug.tensor([[0, 3]]))
        tensor([[1., 4.]])
    """
    from .shape import reshape
    data = _integer_index("take", index, IndexError)
    size = math.prod(input.shape)
    host = _known_values(data) if data.size else None
    if host is not None:
        for bad in (int(host.min()), int(host.max())):
            if not -size <= bad < size:
                raise IndexError(f"out of range: tried to access index {bad} on a tensor of "
                                 f"{size} elements.")
    flat = _select(reshape(input, (-1,)), Index((IndexArray(data.reshape(-1)),)))
    return reshape(flat, tuple(data.shape))


@op(methods=("masked_fill",))
def masked_fill(input, mask, value):
    """``input`` with ``value`` where ``mask`` (boolean, broadcast) holds.

    ``value`` is a number or a 0-d tensor (then differentiable too).

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([1.0, 2.0, 3.0])
        >>> ug.masked_fill(x, x > 1.5, 0.0)
        tensor([1., 0., 0.])
    """
    from .elementwise import cast, where
    mask_data = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if mask_data.dtype.kind != "b":
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{backend.from_numpy_dtype(mask_data.dtype).name.replace('32', '')}")
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got "
                               f"tensor with {value.ndim} dimension(s).")
        if value._data.dtype != input._data.dtype:
            value = cast(value, input._data.dtype)
    elif input._data.dtype.kind in "iub":
        value = as_array(value).astype(input._data.dtype).item()
    return where(mask, value, input)


@op(methods=("index_select",))
def index_select(input, dim: int, index):
    """The entries of ``input`` at positions ``index`` (a vector) along ``dim``.

    Example:
        >>> import unigrad as ug
        >>> ug.index_select(ug.tensor([[1.0, 2.0], [3.0, 4.0]]), 0, ug.tensor([1, 1]))
        tensor([[3., 4.],
                [3., 4.]])
    """
    ndim = len(input.shape)
    axis = normalize_axis(dim, ndim)
    data = _integer_index("index_select", index, IndexError)
    if data.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    data = data.reshape(-1)
    size = input.shape[axis] if ndim else 1
    host = _known_values(data) if data.size else None
    if host is not None and (int(host.min()) < 0 or int(host.max()) >= size):
        if axis == 0:
            raise IndexError("index out of range in self")
        bad = int(host.min()) if int(host.min()) < 0 else int(host.max())
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={size} "
                           f"(index_select along dim {axis})")  # PyTorch's, off dim 0
    if ndim == 0:
        from .shape import reshape
        if data.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                               f"{data.size} value(s)")
        return reshape(_select(reshape(input, (1,)), Index((IndexArray(data),))), ())
    return _select(input, Index((slice(None),) * axis + (IndexArray(data),)))


# ----------------------------------------------------------------------------- tensor methods

@op(methods=("scatter_add_",))
def _scatter_add_(self: Tensor, dim: int, index, src) -> Tensor:
    """In-place :func:`scatter_add`; returns self."""
    from .inplace import apply_inplace
    return apply_inplace(self, scatter_add, dim, index, src)


@op(methods=("masked_fill_",))
def _masked_fill_(self: Tensor, mask, value) -> Tensor:
    """In-place :func:`masked_fill`; returns self."""
    from .inplace import apply_inplace
    return apply_inplace(self, lambda old, m, v: masked_fill(old, m, v), mask, value)
