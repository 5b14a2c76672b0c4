"""Indexing: ``x[index]``, ``x[index] = value``, gather/scatter and friends (PyTorch semantics).

An index is normalized once into an :class:`Index` (ints, slices, None,
Ellipsis and :class:`IndexArray` items), a hashable primitive parameter: index
arrays never enter the traced inputs. Basic indices (ints, slices, None,
Ellipsis) give views that share storage and version counter with the input
(primitive ``getitem``); advanced ones (integer arrays, boolean masks) copy
(primitive ``index``). Both have ``index_add`` (a scatter-add into zeros) as
their vjp, whose own vjp is indexing again, so every order differentiates.

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
from ..backend import namespace_of
from ..tensor import Tensor, as_array
from ._primitive import Primitive, bind
from ._shape_rules import broadcast_shapes, dtype_of, normalize_axis, shape_of

__all__ = ["gather", "scatter_add", "index_select", "take_along_axis", "take", "masked_fill"]

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


def _invalid_index(item) -> IndexError:
    return IndexError(f"only integers, slices (`:`), ellipsis (`...`), None and long or byte "
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
    elif isinstance(item, (list, tuple)):
        data = np.asarray(item)
        if data.size == 0:
            data = data.astype(np.int64)
    else:
        raise _invalid_index(item)
    kind = data.dtype.kind
    if kind not in "iub":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
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
    """Whether ``data`` is an abstract value of an active ``ug.jit`` trace (no values yet)."""
    if _local.trace is None:
        return False
    from ..graph.tracer import Tracer
    return type(data) is Tracer


def _tensor_index_data(tensor: Tensor):
    """The array of an index tensor; under ``ug.jit`` one made outside the trace becomes a
    graph input (so a new call with other indices reuses the graph instead of baking them in)."""
    trace = _local.trace
    if trace is not None and not trace.is_created(tensor):
        from ..graph.tracer import ensure_captured
        ensure_captured(tensor)
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
    if item.array.size == 0 or is_traced(item.array):  # traced: checked by the kernel at run
        return
    host = backend.to_numpy(item.array)
    low, high = int(host.min()), int(host.max())
    size = shape[dim]
    _check_position(low if low < -size else high, dim, size)


def normalize_index(index, shape: tuple) -> Index:
    """Check ``index`` against ``shape`` and describe it as an :class:`Index`.

    Example:
        >>> from unigrad.ops.indexing import normalize_index
        >>> normalize_index((0, slice(1, None)), (3, 4)).basic
        True
    """
    raw = index if isinstance(index, tuple) else (index,)
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
    return tuple(_probe(shape)[index.on(np)].shape)


def _index_rule(x, index):
    return _indexed_shape(shape_of(x), index), dtype_of(x)


def _index_impl(x, index):
    return x[index.on(namespace_of(x))]


def _index_vjp(g, out, needs, x, index):
    return (bind(index_add_p, g, index=index, shape=tuple(x.shape)),)


getitem_p = Primitive("getitem", _index_impl, _index_rule, kind="linear", saves_inputs=False,
                      is_view=True, backward_name="SliceBackward0", vjp=_index_vjp)
index_p = Primitive("index", _index_impl, _index_rule, kind="linear", saves_inputs=False,
                    backward_name="IndexBackward0", vjp=_index_vjp)


def _select(x, index: Index):
    """``x[index]`` for a normalized index: a view for basic indices, a copy otherwise."""
    return bind(getitem_p if index.basic else index_p, x, index=index)


def _index_add_impl(g, index, shape):
    xp = namespace_of(g)
    items = index.on(xp)
    if index.scatters:
        size = math.prod(shape)
        positions = xp.arange(size).reshape(shape)[items]
        values = xp.broadcast_to(g, positions.shape)
        summed = xp.bincount(positions.ravel(), weights=values.ravel(), minlength=size)
        return summed.reshape(shape).astype(g.dtype, copy=False)
    out = xp.zeros(shape, dtype=g.dtype)
    out[items] = g
    return out


index_add_p = Primitive("index_add", _index_add_impl,
                        lambda g, index, shape: (tuple(shape), dtype_of(g)), kind="linear",
                        saves_inputs=False, backward_name="IndexAddBackward0",
                        vjp=lambda g, out, needs, value, index, shape: (_select(g, index),))


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


index_put_p = Primitive("index_put", _index_put_impl, _index_put_rule, saves_inputs=False,
                        backward_name="IndexPutBackward0", vjp=_index_put_vjp,
                        jvp=_index_put_jvp)


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
                     kind="linear", saves_inputs=False,
                     vjp=lambda g, out, needs, x, dim, index: (
                         bind(scatter_add_p, _scatter_zeros(g, tuple(x.shape)), g, dim=dim,
                              index=index),))


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
                          saves_inputs=False,
                          vjp=lambda g, out, needs, x, src, dim, index: (
                              g if needs[0] else None,
                              bind(gather_p, g, dim=dim, index=index) if needs[1] else None))


# ----------------------------------------------------------------------------- tensor indexing

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
    return _select(input, normalize_index(index, tuple(input.shape)))


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
    if data.size == 0 or is_traced(data):
        return
    host = backend.to_numpy(data)
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
    if data.size and not is_traced(data):
        host = backend.to_numpy(data)
        for bad in (int(host.min()), int(host.max())):
            if not -size <= bad < size:
                raise IndexError(f"out of range: tried to access index {bad} on a tensor of "
                                 f"{size} elements.")
    flat = _select(reshape(input, (-1,)), Index((IndexArray(data.reshape(-1)),)))
    return reshape(flat, tuple(data.shape))


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
    result = where(mask, value, input)
    if tuple(result.shape) != tuple(input.shape):
        raise RuntimeError(f"The size of the mask {list(mask_data.shape)} must be broadcastable "
                           f"to the size of the input {list(input.shape)}")
    return result


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
    if data.size and not is_traced(data) and (int(backend.to_numpy(data).min()) < 0 or
                      int(backend.to_numpy(data).max()) >= size):
        raise IndexError("index out of range in self")
    if ndim == 0:
        from .shape import reshape
        if data.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                               f"{data.size} value(s)")
        return reshape(_select(reshape(input, (1,)), Index((IndexArray(data),))), ())
    return _select(input, Index((slice(None),) * axis + (IndexArray(data),)))


# ----------------------------------------------------------------------------- tensor methods

def _scatter_add_(self: Tensor, dim: int, index, src) -> Tensor:
    """In-place :func:`scatter_add`; returns self."""
    from .inplace import apply_inplace
    return apply_inplace(self, scatter_add, dim, index, src)


def _masked_fill_(self: Tensor, mask, value) -> Tensor:
    """In-place :func:`masked_fill`; returns self."""
    from .inplace import apply_inplace
    return apply_inplace(self, lambda old, m, v: masked_fill(old, m, v), mask, value)


TENSOR_METHODS = {
    "__getitem__": getitem, "__setitem__": setitem, "gather": gather,
    "scatter_add": scatter_add, "scatter_add_": _scatter_add_, "index_select": index_select,
    "take": take, "take_along_dim": take_along_axis, "masked_fill": masked_fill,
    "masked_fill_": _masked_fill_,
}
