"""Shape primitives (reshape, broadcast_to, transpose) and shape composites.

Example:
    >>> import unigrad as ug
    >>> x = ug.arange(6.0).reshape(2, 3)
    >>> x.transpose(0, 1).shape
    (3, 2)
"""

from __future__ import annotations

import math

import numpy as np

from ..autograd.node import present_as
from ..backend import namespace_of, promote_types
from ..interpreters.batching import (
    batch_size,
    materialize,
    move_to_front,
    ndim_of,
    over_axes,
    over_leading_dims,
    shift_axes,
)
from ..tensor import Tensor
from . import elementwise as _elementwise
from . import indexing as _indexing
from . import reduce as _reduce
from ._dtypes import to_tensor_operand
from ._primitive import Primitive, bind, bind_first_tensor
from ._rewrites import compose_reshapes, compose_transposes, operand_when_unchanged
from ._shape_rules import (
    broadcast_shapes,
    dtype_of,
    integer_argument,
    normalize_axes,
    normalize_axis,
    shape_of,
)
from .registry import op


def _as_shape(shape) -> tuple:
    """Accept ``f(2, 3)``, ``f((2, 3))`` and ``f([2, 3])`` spellings of a shape."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    for dim in shape:  # the common case: already plain ints (a loop: no generator frame)
        if type(dim) is not int:
            break
    else:
        return shape
    result = []
    for dim in shape:
        if isinstance(dim, Tensor):
            dim = int(dim.item())
        if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
            raise TypeError(f"shape must be a sequence of ints, got {type(dim).__name__} in "
                            f"{tuple(shape)}")
        result.append(int(dim))
    return tuple(result)


def _resolve_shape(new_shape: tuple, size: int) -> tuple:
    """Fill a single -1 and check that the element count is preserved."""
    unknown = 0
    known = 1
    for d in new_shape:
        if d == -1:
            unknown += 1
        elif d < -1:
            raise RuntimeError(f"invalid shape dimension {d}")
        else:
            known *= d
    if unknown > 1:
        raise RuntimeError("only one dimension can be inferred")
    if unknown:
        if known == 0 or size % known:
            raise RuntimeError(f"shape '{list(new_shape)}' is invalid for input of size {size}")
        new_shape = tuple(size // known if d == -1 else d for d in new_shape)
    elif known != size:
        raise RuntimeError(f"shape '{list(new_shape)}' is invalid for input of size {size}")
    return new_shape


# ----------------------------------------------------------------------------- primitives

def _reshape_rule(x, shape):
    size = math.prod(shape_of(x))
    return _resolve_shape(tuple(shape), size), dtype_of(x)


def _reshape_expression(eqn, operands: list, namer) -> str:
    return f"{operands[0]}.reshape({namer.value(tuple(eqn.params['shape']))})"


def _reshape_batch(values, dims, shape):
    x = move_to_front(values[0], dims[0])
    return bind(reshape_p, x, shape=(int(x.shape[0]),) + tuple(shape)), 0


def _reshape_write_back(base, new_view, shape):
    return bind(reshape_p, new_view, shape=tuple(base.shape))


reshape_p = Primitive("reshape", lambda x, shape: x.reshape(shape), _reshape_rule,
                      kind="linear", backward_name="ViewBackward0", is_view=True,
                      write_back=_reshape_write_back,
                      vjp=lambda g, out, needs, x, shape: (g,), saves="nothing",
                      expression=_reshape_expression, simplify=compose_reshapes,
                      batch=_reshape_batch)


def _broadcast_rule(x, shape):
    result = broadcast_shapes(shape_of(x), tuple(shape))
    if result != tuple(shape):
        raise ValueError(f"The expanded size of the tensor must match the existing size: cannot "
                         f"broadcast {list(shape_of(x))} to {list(shape)}")
    return result, dtype_of(x)


def _broadcast_impl(x, shape):
    return namespace_of(x).broadcast_to(x, shape)


def _broadcast_batch(values, dims, shape):
    """Per-example broadcasting: singleton axes after the batch axis align the ranks."""
    x = move_to_front(values[0], dims[0])
    own = tuple(x.shape[1:])
    size = int(x.shape[0])
    x = bind(reshape_p, x, shape=(size,) + (1,) * (len(shape) - len(own)) + own)
    return bind(broadcast_to_p, x, shape=(size,) + tuple(shape)), 0


broadcast_to_p = Primitive("broadcast_to", _broadcast_impl, _broadcast_rule, kind="linear",
                           backward_name="ExpandBackward0", is_view=True,
                           vjp=lambda g, out, needs, x, shape: (g,), saves="nothing",
                           simplify=operand_when_unchanged, batch=_broadcast_batch)


def _transpose_rule(x, axes):
    shape = shape_of(x)
    return tuple(shape[a] for a in axes), dtype_of(x)


def _transpose_vjp(g, out, needs, x, axes):
    inverse = tuple(int(i) for i in np.argsort(axes))
    return (transpose_axes(g, inverse),)


def _transpose_expression(eqn, operands: list, namer) -> str:
    axes = tuple(int(axis) for axis in eqn.params["axes"])
    return f"{operands[0]}.T" if axes == (1, 0) else f"{operands[0]}.transpose({axes!r})"


def _transpose_batch(values, dims, axes):
    x = move_to_front(values[0], dims[0])
    return bind(transpose_p, x, axes=(0,) + shift_axes(axes, len(axes))), 0


def _transpose_write_back(base, new_view, axes):
    inverse = [0] * len(axes)
    for position, axis in enumerate(axes):
        inverse[axis] = position
    return bind(transpose_p, new_view, axes=tuple(inverse))


transpose_p = Primitive("transpose", lambda x, axes: x.transpose(axes), _transpose_rule,
                        kind="linear", backward_name="PermuteBackward0", is_view=True,
                        write_back=_transpose_write_back,
                        vjp=_transpose_vjp, saves="nothing", expression=_transpose_expression,
                        simplify=compose_transposes, batch=_transpose_batch)


# ----------------------------------------------------------------------------- public functions

@op(methods=("reshape",))
def reshape(input, *shape):
    """``input`` with a new shape (one dimension may be -1).

    Example:
        >>> import unigrad as ug
        >>> ug.reshape(ug.zeros(6), (2, -1)).shape
        (2, 3)
    """
    shape = _as_shape(shape)
    current = input.shape
    if current == shape:
        return input
    shape = _resolve_shape(shape, math.prod(current))
    if current == shape:
        return input
    return bind(reshape_p, input, shape=shape)


@op(methods=("view",))
def view(input, *shape):
    """Same as :func:`reshape` (unigrad arrays are always viewable or copied).

    Example:
        >>> import unigrad as ug
        >>> ug.view(ug.arange(6), 2, 3)
        tensor([[0, 1, 2],
                [3, 4, 5]])
    """
    return reshape(input, *shape)


@op(methods=("broadcast_to",))
def broadcast_to(input, shape):
    """``input`` broadcast to ``shape`` without copying.

    Example:
        >>> import unigrad as ug
        >>> ug.broadcast_to(ug.tensor([1.0, 2.0]), (3, 2)).shape
        (3, 2)
    """
    shape = _as_shape((shape,)) if not isinstance(shape, int) else (shape,)
    current = tuple(input.shape)
    if current == shape:
        return input
    _check_expandable(current, shape)
    return bind(broadcast_to_p, input, shape=shape)


def _check_expandable(current: tuple, target: tuple) -> None:
    """PyTorch's error for a shape that ``current`` cannot be broadcast to."""
    if len(target) < len(current):
        raise RuntimeError(f"expand: the number of sizes provided ({len(target)}) must be "
                           f"greater or equal to the number of dimensions in the tensor "
                           f"({len(current)})")
    for offset in range(1, len(current) + 1):
        size, wanted = current[-offset], target[-offset]
        if size != wanted and size != 1:
            raise RuntimeError(f"The expanded size of the tensor ({wanted}) must match the "
                               f"existing size ({size}) at non-singleton dimension "
                               f"{len(target) - offset}.  Target sizes: {list(target)}.  "
                               f"Tensor sizes: {list(current)}")


@op(methods=("expand",))
def expand(input, *sizes):
    """PyTorch's expand: -1 keeps a dimension; new leading dimensions may be added.

    Example:
        >>> import unigrad as ug
        >>> ug.expand(ug.tensor([[1.0], [2.0]]), -1, 3)
        tensor([[1., 1., 1.],
                [2., 2., 2.]])
        >>> ug.expand(ug.tensor([1.0, 2.0]), 3, -1).shape
        (3, 2)
    """
    sizes = _as_shape(sizes)
    current = tuple(input.shape)
    offset = len(sizes) - len(current)
    if offset < 0:
        raise RuntimeError(f"expand: the number of sizes provided ({len(sizes)}) must be greater "
                           f"or equal to the number of dimensions in the tensor ({len(current)})")
    target = tuple(current[i - offset] if d == -1 and i >= offset else d
                   for i, d in enumerate(sizes))
    return broadcast_to(input, target)


@op(methods=("expand_as",))
def expand_as(input, other):
    """``input`` expanded (broadcast) to the shape of ``other``.

    Example:
        >>> import unigrad as ug
        >>> ug.expand_as(ug.tensor([1.0, 2.0]), ug.zeros(3, 2)).shape
        (3, 2)
    """
    return broadcast_to(input, tuple(other.shape))


def sum_to_shape(input, shape: tuple):
    """Sum ``input`` down to ``shape`` (the inverse of broadcasting).

    Example:
        >>> import unigrad as ug
        >>> ug.sum_to_shape(ug.ones(3, 2), (1, 2))
        tensor([[3., 3.]])
    """
    sum = _reduce.sum
    current = tuple(input.shape)
    shape = tuple(shape)
    if current == shape:
        return input
    if math.prod(current) == math.prod(shape):
        # same size: only unit dimensions differ, or a reshape's cotangent comes back
        return reshape(input, shape)
    lead = len(current) - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(shape)
                                      if d == 1 and current[i + lead] != 1)
    result = sum(input, axis=axes, keepdims=True) if axes else input
    return reshape(result, shape)


def transpose_axes(input, axes):
    """Permute dimensions by ``axes`` (NumPy's ``transpose``).

    Example:
        >>> import unigrad as ug
        >>> ug.transpose_axes(ug.zeros(2, 3, 4), (2, 0, 1)).shape
        (4, 2, 3)
    """
    axes = tuple(int(a) for a in axes)
    if axes == tuple(range(len(axes))):
        return input
    return bind(transpose_p, input, axes=axes)


@op(methods=("permute",))
def permute(input, *dims):
    """Reorder dimensions (PyTorch's ``permute``).

    Example:
        >>> import unigrad as ug
        >>> ug.permute(ug.zeros((2, 3, 4)), (2, 0, 1)).shape
        (4, 2, 3)
    """
    dims = _as_shape(dims)
    ndim = len(input.shape)
    if len(dims) != ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {ndim} is not equal to len(dims) = {len(dims)}")
    axes = tuple(normalize_axis(d, ndim) for d in dims)
    if len(set(axes)) != ndim:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return transpose_axes(input, axes)


@op(methods=("transpose", "swapaxes", "swapdims"))
def transpose(input, dim0=None, dim1=None):
    """Swap two dimensions (PyTorch); with no dims, reverse all (NumPy).

    Example:
        >>> import unigrad as ug
        >>> ug.transpose(ug.zeros(2, 3, 4), 0, 1).shape
        (3, 2, 4)
        >>> ug.transpose(ug.zeros(2, 3, 4)).shape
        (4, 3, 2)
    """
    ndim = len(input.shape)
    if dim0 is None and dim1 is None:
        return transpose_axes(input, tuple(reversed(range(ndim))))
    if dim0 is None or dim1 is None:
        raise TypeError("transpose() needs both dim0 and dim1, or neither")
    a = normalize_axis(dim0, ndim)
    b = normalize_axis(dim1, ndim)
    if ndim == 0:  # a 0-d tensor accepts dims 0 and -1
        return input
    axes = list(range(ndim))
    axes[a], axes[b] = axes[b], axes[a]
    return present_as(transpose_axes(input, axes), "TransposeBackward0", input)


swapaxes = swapdims = transpose


@op(methods=("t",))
def t(input):
    """Transpose a matrix (0-d and 1-d tensors are returned as is).

    Example:
        >>> import unigrad as ug
        >>> ug.t(ug.tensor([[1, 2], [3, 4]]))
        tensor([[1, 3],
                [2, 4]])
    """
    if len(input.shape) > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{len(input.shape)}D")
    return present_as(transpose(input), "TBackward0", input)


# ----------------------------------------------------------------------------- more primitives

def _check_concat_shapes(shapes: list, axis: int) -> None:
    first = shapes[0]
    for number, shape in enumerate(shapes[1:], start=1):
        if len(shape) != len(first):
            raise RuntimeError(f"Tensors must have same number of dimensions: got {len(first)} "
                               f"and {len(shape)}")
        for d, (want, have) in enumerate(zip(first, shape)):
            if d != axis and want != have:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {axis}. "
                                   f"Expected size {want} but got size {have} for tensor number "
                                   f"{number} in the list.")


def _concat_rule(*avals, axis, sizes):
    shapes = [shape_of(a) for a in avals]
    _check_concat_shapes(shapes, axis)
    out = list(shapes[0])
    out[axis] = sum(sizes)
    return tuple(out), np.result_type(*(dtype_of(a) for a in avals))


def _concat_impl(*arrays, axis, sizes):
    return namespace_of(arrays[0]).concatenate(arrays, axis=axis)


def _concat_vjp(g, out, needs, *inputs, axis, sizes):
    pieces = []
    start = 0
    for needed, size in zip(needs, sizes):
        pieces.append(narrow(g, axis, start, size) if needed else None)
        start += size
    return tuple(pieces)


def _concat_batch(values, dims, axis, sizes):
    size = batch_size(values, dims)
    batched = [materialize(v, d, size) for v, d in zip(values, dims)]
    rank = ndim_of(batched[0]) - 1
    return bind(concat_p, *batched, axis=shift_axes(axis, rank), sizes=sizes), 0


concat_p = Primitive("concat", _concat_impl, _concat_rule, kind="linear",
                     backward_name="CatBackward0", vjp=_concat_vjp, saves="nothing",
                     batch=_concat_batch)


def _pad_rule(x, widths, value):
    return tuple(d + before + after for d, (before, after) in zip(shape_of(x), widths)), \
        dtype_of(x)


def _pad_impl(x, widths, value):
    return namespace_of(x).pad(x, widths, mode="constant", constant_values=value)


def _pad_vjp(g, out, needs, x, widths, value):
    getitem = _indexing.getitem
    return (getitem(g, tuple(slice(before, before + d) for d, (before, _) in
                             zip(x.shape, widths))),)


def _pad_batch(values, dims, widths, value):
    x = move_to_front(values[0], dims[0])
    return bind(pad_p, x, widths=((0, 0),) + tuple(widths), value=value), 0


pad_p = Primitive("pad", _pad_impl, _pad_rule,
                  backward_name="ConstantPadNdBackward0", vjp=_pad_vjp,
                  jvp=lambda tangents, out, x, widths, value: bind(pad_p, tangents[0],
                                                                   widths=widths, value=0),
                  saves="nothing", batch=_pad_batch, complex_gradient="holomorphic")


def _same_shape_rule(x, **params):
    return shape_of(x), dtype_of(x)


def _flip_impl(x, axes):
    return namespace_of(x).flip(x, axes).copy()


flip_p = Primitive("flip", _flip_impl, _same_shape_rule, kind="linear",
                   vjp=lambda g, out, needs, x, axes: (bind(flip_p, g, axes=axes),),
                   saves="nothing", batch=over_axes("axes"))


def _triangle(name, kernel_name):
    def impl(x, diagonal):
        return getattr(namespace_of(x), kernel_name)(x, diagonal)

    def vjp(g, out, needs, x, diagonal):
        return (bind(primitive, g, diagonal=diagonal),)

    primitive = Primitive(name, impl, _same_shape_rule, kind="linear",
                          vjp=vjp, saves="nothing", batch=over_leading_dims())
    return primitive


tril_p = _triangle("tril", "tril")
triu_p = _triangle("triu", "triu")


# ----------------------------------------------------------------------------- more composites

def _dim(dim, ndim: int, name: str = "dim") -> int:
    return normalize_axis(dim, ndim, name)


@op(methods=("flatten",))
def flatten(input, start_dim: int = 0, end_dim: int = -1):
    """Merge dimensions ``start_dim..end_dim`` into one (a 0-d tensor becomes 1-d).

    Example:
        >>> import unigrad as ug
        >>> ug.flatten(ug.zeros((2, 3, 4)), 1).shape
        (2, 12)
    """
    shape = tuple(input.shape)
    if not shape:
        return reshape(input, (1,))
    start = _dim(start_dim, len(shape))
    end = _dim(end_dim, len(shape))
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    merged = math.prod(shape[start:end + 1])
    return reshape(input, shape[:start] + (merged,) + shape[end + 1:])


@op(methods=("ravel",))
def ravel(input):
    """``input`` as a 1-D tensor.

    Example:
        >>> import unigrad as ug
        >>> ug.ravel(ug.zeros((2, 3))).shape
        (6,)
    """
    return reshape(input, (-1,))


@op(methods=("squeeze",))
def squeeze(input, dim=None):
    """Remove dimensions of size 1 (all, or those among ``dim``, an int or a tuple).

    Example:
        >>> import unigrad as ug
        >>> ug.squeeze(ug.zeros((2, 1, 3, 1)), (1, 2)).shape
        (2, 3, 1)
    """
    shape = tuple(input.shape)
    if dim is None:
        axes = range(len(shape))
    else:
        axes = normalize_axes(dim if isinstance(dim, (tuple, list)) else (dim,), len(shape))
    dropped = {a for a in axes if a < len(shape) and shape[a] == 1}
    squeezed = reshape(input, tuple(d for i, d in enumerate(shape) if i not in dropped))
    # PyTorch's nodes: squeeze() SqueezeBackward0, squeeze(dim) 1, squeeze(dims) 2
    variant = 0 if dim is None else 2 if isinstance(dim, (tuple, list)) else 1
    return present_as(squeezed, f"SqueezeBackward{variant}", input)


@op(methods=("unsqueeze",))
def unsqueeze(input, dim: int):
    """Insert a dimension of size 1 at ``dim`` (``-1`` appends).

    Example:
        >>> import unigrad as ug
        >>> ug.unsqueeze(ug.zeros((2, 3)), -1).shape
        (2, 3, 1)
    """
    shape = tuple(input.shape)
    axis = _dim(dim, len(shape) + 1)
    return present_as(reshape(input, shape[:axis] + (1,) + shape[axis:]), "UnsqueezeBackward0",
                      input)


def _tensor_list(tensors, name: str, empty_error) -> list:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' must be a tuple or list of Tensors, not "
                        f"{type(tensors).__name__}")
    if not tensors:
        raise empty_error
    return list(tensors)


def _one_of(dim, axis, default=0):
    if dim is not None and axis is not None:
        raise TypeError("pass either dim= or axis=, not both")
    return default if dim is None and axis is None else (dim if axis is None else axis)


def concat(tensors, dim: int | None = None, *, axis: int | None = None):
    """Join tensors along an existing dimension (``dim``/``axis``, default 0).

    Example:
        >>> import unigrad as ug
        >>> ug.concat([ug.zeros((2, 3)), ug.ones((1, 3))]).shape
        (3, 3)
    """
    tensors = _tensor_list(tensors, "torch.cat", ValueError(
        "torch.cat(): expected a non-empty list of Tensors"))
    if any(isinstance(t, Tensor) for t in tensors):
        tensors = [t if isinstance(t, Tensor) else to_tensor_operand(t, f"tensors[{i}]")
                   for i, t in enumerate(tensors)]
    # PyTorch's legacy rule: 1-D empty tensors are skipped next to higher-dimensional ones
    if any(len(t.shape) != 1 for t in tensors):
        kept = [t for t in tensors if tuple(t.shape) != (0,)]
        tensors = kept or tensors[:1]
    ndim = len(tensors[0].shape)
    if ndim == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    axis = _dim(_one_of(dim, axis), ndim)
    _check_concat_shapes([tuple(t.shape) for t in tensors], axis)
    sizes = tuple(int(t.shape[axis]) for t in tensors)
    tensors = _promoted(tensors)
    return bind(concat_p, *tensors, axis=axis, sizes=sizes)


cat = concatenate = concat


def _promoted(tensors: list) -> list:
    """The tensors cast to their common dtype (PyTorch's promotion)."""
    cast = _elementwise.cast
    dtypes = [t._data.dtype if isinstance(t, Tensor) else t.dtype for t in tensors]
    target = dtypes[0]
    for dtype in dtypes[1:]:
        target = promote_types(target, dtype)
    return [t if dtype == target else cast(t, target) for t, dtype in zip(tensors, dtypes)]


def stack(tensors, dim: int | None = None, *, axis: int | None = None):
    """Join equally shaped tensors along a new dimension ``dim``.

    Example:
        >>> import unigrad as ug
        >>> ug.stack([ug.zeros(3), ug.ones(3)], dim=1).shape
        (3, 2)
    """
    tensors = _tensor_list(tensors, "stack", RuntimeError("stack expects a non-empty TensorList"))
    return present_as(_stacked(tensors, dim, axis), "StackBackward0", *tensors)


def _stacked(tensors: list, dim, axis):
    first = tuple(tensors[0].shape)
    for entry, t in enumerate(tensors[1:], start=1):
        if tuple(t.shape) != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(first)} at entry 0 and {list(t.shape)} at entry {entry}")
    position = _dim(_one_of(dim, axis), len(first) + 1)
    if len(tensors) > 1 and position < len(first):
        # joined along the existing dimension, then that dimension split in two: one concat
        # and one reshape instead of a reshape per tensor
        joined = concat(tensors, position)
        return reshape(joined, first[:position] + (len(tensors), first[position])
                       + first[position + 1:])
    expanded = [reshape(t, first[:position] + (1,) + first[position:]) for t in tensors]
    if len(expanded) == 1:
        return expanded[0]
    return concat(expanded, position)


@op(methods=("narrow",))
def narrow(input, dim: int, start: int, length: int):
    """The view of ``length`` entries from ``start`` along ``dim``.

    Example:
        >>> import unigrad as ug
        >>> ug.narrow(ug.arange(5.0), 0, 1, 3)
        tensor([1., 2., 3.])
    """
    getitem = _indexing.getitem
    shape = tuple(input.shape)
    axis = _dim(dim, len(shape))
    size = shape[axis]
    if isinstance(start, Tensor):
        start = int(start.item())
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but "
                         f"got {start})")
    start = start % size if start < 0 else start
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return getitem(input, (slice(None),) * axis + (slice(start, start + length),))


@op(methods=("select",))
def select(input, dim: int, index: int):
    """The view at position ``index`` along ``dim`` (that dimension removed).

    Example:
        >>> import unigrad as ug
        >>> ug.select(ug.arange(6.0).reshape(2, 3), 1, -1)
        tensor([2., 5.])
    """
    getitem = _indexing.getitem
    shape = tuple(input.shape)
    axis = _dim(dim, len(shape))
    if not -shape[axis] <= index < shape[axis]:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(shape)} at dimension {axis}")
    return getitem(input, (slice(None),) * axis + (index,))


@op(methods=("unbind",))
def unbind(input, dim: int = 0) -> tuple:
    """All slices along ``dim``, as a tuple of views.

    Example:
        >>> import unigrad as ug
        >>> [t.tolist() for t in ug.unbind(ug.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)]
        [[1.0, 3.0], [2.0, 4.0]]
    """
    shape = tuple(input.shape)
    if not shape:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    axis = _dim(dim, len(shape))
    return tuple(select(input, axis, i) for i in range(shape[axis]))


@op(methods=("split",))
def split(tensor, split_size_or_sections, dim: int = 0) -> tuple:
    """Pieces of ``tensor`` along ``dim``: of size ``split_size`` (the last may be
    smaller), or of the listed sizes.

    Example:
        >>> import unigrad as ug
        >>> [p.shape for p in ug.split(ug.zeros(5), 2)]
        [(2,), (2,), (1,)]
        >>> [p.shape for p in ug.split(ug.zeros((2, 5)), [1, 4], dim=1)]
        [(2, 1), (2, 4)]
    """
    shape = tuple(tensor.shape)
    axis = _dim(dim, len(shape))
    size = shape[axis]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s) for s in split_size_or_sections]
        if sum(sizes) != size or any(s < 0 for s in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} "
                               f"(input tensor's size at dimension {axis}), but got "
                               f"split_sizes={sizes}")
    else:
        step = int(split_size_or_sections)
        if step < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got "
                               f"split_size={step}")
        if step == 0:
            if size:
                raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                                   f"dimension size of {size}")
            return (narrow(tensor, axis, 0, 0),)
        sizes = [min(step, size - start) for start in range(0, size, step)] or [0]
    pieces = []
    start = 0
    for length in sizes:
        pieces.append(narrow(tensor, axis, start, length))
        start += length
    return tuple(pieces)


@op(methods=("chunk",))
def chunk(input, chunks: int, dim: int = 0) -> tuple:
    """Split into ``chunks`` pieces of equal size (the last may be smaller; fewer may result).

    Example:
        >>> import unigrad as ug
        >>> [c.shape for c in ug.chunk(ug.zeros(5), 3)]
        [(2,), (2,), (1,)]
    """
    chunks = integer_argument(chunks, "chunk", "chunks")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    shape = tuple(input.shape)
    axis = _dim(dim, len(shape))
    size = shape[axis]
    if size == 0:
        return tuple(narrow(input, axis, 0, 0) for _ in range(chunks))
    return split(input, -(-size // chunks), axis)


def _repeat_shape(input, sizes: tuple):
    """``input`` tiled ``sizes`` times per dimension (len(sizes) >= ndim)."""
    shape = (1,) * (len(sizes) - len(input.shape)) + tuple(input.shape)
    interleaved = []
    for count, d in zip(sizes, shape):
        interleaved.extend((count, d))
    spread = reshape(input, tuple(x for d in shape for x in (1, d)))
    tiled = broadcast_to(spread, tuple(interleaved))
    return reshape(tiled, tuple(count * d for count, d in zip(sizes, shape)))


@op(methods=("repeat",))
def repeat(input, *sizes):
    """PyTorch's ``Tensor.repeat``: tile ``sizes`` times per dimension (new ones lead).

    Example:
        >>> import unigrad as ug
        >>> ug.tensor([1.0, 2.0]).repeat(2, 2)
        tensor([[1., 2., 1., 2.],
                [1., 2., 1., 2.]])
    """
    sizes = _as_shape(sizes)
    if len(sizes) < len(input.shape):
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    if any(s < 0 for s in sizes):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(sizes)}: "
                           f"{list(sizes)}")
    return _repeat_shape(input, sizes)


@op(methods=("tile",))
def tile(input, dims):
    """Repeat ``input`` ``dims`` times per dimension (missing leading dims count as 1).

    Example:
        >>> import unigrad as ug
        >>> ug.tile(ug.zeros((2, 3)), (2,)).shape
        (2, 6)
    """
    dims = _as_shape((dims,)) if not isinstance(dims, int) else (dims,)
    dims = (1,) * (len(input.shape) - len(dims)) + dims
    return repeat(input, dims)


@op(methods=("repeat_interleave",))
def repeat_interleave(input, repeats=None, dim: int | None = None, *, output_size=None):
    """Repeat each element ``repeats`` times (an int, or one count per element) along ``dim``.

    Without ``dim`` the input is flattened first; ``output_size`` is accepted
    for PyTorch compatibility (the size is always computed).

    Example:
        >>> import unigrad as ug
        >>> ug.repeat_interleave(ug.tensor([1.0, 2.0]), 2)
        tensor([1., 1., 2., 2.])
        >>> ug.repeat_interleave(ug.tensor([2, 1]))
        tensor([0, 0, 1])
    """
    index_select = _indexing.index_select
    if repeats is None:  # repeat_interleave(repeats): each index repeated repeats[i] times
        counts = np.asarray(input.tolist(), dtype=np.int64).reshape(-1)
        return repeat_interleave(Tensor(np.arange(counts.size, dtype=np.int64)), counts)
    if dim is None:
        input = reshape(input, (-1,))
        dim = 0
    shape = tuple(input.shape)
    axis = _dim(dim, len(shape))
    if isinstance(repeats, (int, np.integer)) or (isinstance(repeats, Tensor) and
                                                  repeats.ndim == 0):
        count = int(repeats)
        if count < 0:
            raise RuntimeError("Repeats must be non-negative")
        spread = unsqueeze(input, axis + 1)
        target = shape[:axis + 1] + (count,) + shape[axis + 1:]
        merged = shape[:axis] + (shape[axis] * count,) + shape[axis + 1:]
        return reshape(broadcast_to(spread, target), merged)
    counts = np.asarray(repeats).reshape(-1)
    if counts.size != shape[axis]:
        raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                           f"repeats.size(0) = {counts.size} and input.size({axis}) = "
                           f"{shape[axis]}")
    if (counts < 0).any():
        raise RuntimeError("Repeats must be non-negative")
    return index_select(input, axis, np.repeat(np.arange(shape[axis]), counts))


@op(methods=("flip",))
def flip(input, dims):
    """Reverse the order of entries along ``dims`` (a copy, as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.flip(ug.tensor([[1.0, 2.0], [3.0, 4.0]]), (1,))
        tensor([[2., 1.],
                [4., 3.]])
    """
    if isinstance(dims, int):
        dims = (dims,)
    ndim = len(input.shape)
    axes = tuple(_dim(d, ndim) for d in dims)
    if len(set(axes)) != len(axes):
        raise RuntimeError(f"dim {axes[0]} appears multiple times in the list of dims")
    return bind(flip_p, input, axes=tuple(sorted(axes)) if ndim else ())


def _pad_index(n: int, before: int, after: int, mode: str, dim: int, shape: tuple):
    """Source positions of a reflect/replicate/circular-padded dimension of size ``n``."""
    positions = np.arange(-before, n + after)
    if mode == "replicate":
        return np.clip(positions, 0, n - 1)
    if mode == "circular":
        if before > n or after > n:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        # negative sizes crop first; positive ones then wrap around what is left (PyTorch)
        start, stop = max(-before, 0), n - max(-after, 0)
        kept = stop - start
        return start + np.arange(-max(before, 0), kept + max(after, 0)) % kept
    if before >= n or after >= n:
        raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input "
                           f"dimension, but got: padding ({before}, {after}) at dimension {dim} "
                           f"of input {list(shape)}")
    period = 2 * (n - 1)
    folded = np.abs(positions) % period if period else np.zeros_like(positions)
    return np.where(folded >= n, period - folded, folded)


def pad(input, pad, mode: str = "constant", value=None):
    """Pad (or, with negative sizes, crop) the last dimensions, PyTorch's ``F.pad``.

    ``pad`` lists (before, after) sizes from the last dimension backwards:
    ``(left, right, top, bottom, ...)``. ``mode`` is ``'constant'`` (fill with
    ``value``), ``'reflect'``, ``'replicate'`` or ``'circular'``.

    Example:
        >>> import unigrad as ug
        >>> ug.pad(ug.ones((1, 2)), (1, 2), value=0.5)
        tensor([[0.5000, 1.0000, 1.0000, 0.5000, 0.5000]])
    """
    getitem, index_select = _indexing.getitem, _indexing.index_select
    pad = tuple(int(p) for p in pad)
    shape = tuple(input.shape)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > len(shape):
        raise RuntimeError(f"Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of dimension "
                           f"{len(shape)}")
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant" and value:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    if mode != "constant" and (len(pad) > 6 or len(shape) not in (len(pad) // 2 + 1,
                                                                  len(pad) // 2 + 2)):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {len(shape)}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    widths = [(0, 0)] * len(shape)
    for i in range(len(pad) // 2):
        widths[len(shape) - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    if mode != "constant":
        result = input
        for axis, (before, after) in enumerate(widths):
            if before or after:
                positions = _pad_index(shape[axis], before, after, mode, axis, shape)
                result = index_select(result, axis, positions)
        if mode == "circular":
            return result
        kind = "Reflection" if mode == "reflect" else "Replication"
        return present_as(result, f"{kind}Pad{len(pad) // 2}DBackward0", input)
    for axis, (before, after) in enumerate(widths):
        if shape[axis] + min(before, 0) + min(after, 0) < 0:
            raise RuntimeError(f"narrow(): length must be non-negative. (pad ({before}, {after}) "
                               f"crops more than dimension {axis} of size {shape[axis]})")
    if any(before < 0 or after < 0 for before, after in widths):
        crop = tuple(slice(max(-before, 0), d - max(-after, 0))
                     for d, (before, after) in zip(shape, widths))
        input = getitem(input, crop)
        widths = [(max(before, 0), max(after, 0)) for before, after in widths]
    if not any(before or after for before, after in widths):
        return input
    return bind(pad_p, input, widths=tuple(widths), value=0 if value is None else value)


def _triangle_input(input, name: str):
    if len(input.shape) < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


@op(methods=("tril",))
def tril(input, diagonal: int = 0):
    """The lower triangle of the last two dimensions (entries above ``diagonal`` zeroed).

    Example:
        >>> import unigrad as ug
        >>> ug.tril(ug.ones((2, 3)))
        tensor([[1., 0., 0.],
                [1., 1., 0.]])
    """
    _triangle_input(input, "tril")
    return bind(tril_p, input, diagonal=integer_argument(diagonal, "tril", "diagonal"))


@op(methods=("triu",))
def triu(input, diagonal: int = 0):
    """The upper triangle of the last two dimensions (entries below ``diagonal`` zeroed).

    Example:
        >>> import unigrad as ug
        >>> ug.triu(ug.ones((2, 3)), 1)
        tensor([[0., 1., 1.],
                [0., 0., 1.]])
    """
    _triangle_input(input, "triu")
    return bind(triu_p, input, diagonal=integer_argument(diagonal, "triu", "diagonal"))


@op(methods=("movedim", "moveaxis"))
def movedim(input, source, destination):
    """Move dimensions ``source`` to positions ``destination`` (ints or tuples).

    Example:
        >>> import unigrad as ug
        >>> ug.movedim(ug.zeros((2, 3, 4)), 0, -1).shape
        (3, 4, 2)
    """
    ndim = len(input.shape)
    source = tuple(source) if isinstance(source, (list, tuple)) else (source,)
    destination = tuple(destination) if isinstance(destination, (list, tuple)) else (destination,)
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source "
                           f"({list(source)} dims) should contain the same number of dims as "
                           f"destination ({list(destination)} dims)")
    moved = [_dim(d, ndim) for d in source]
    placed = [_dim(d, ndim) for d in destination]
    for name, dims, given in (("source", moved, source), ("destination", placed, destination)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(given)})")
    rest = iter(d for d in range(ndim) if d not in moved)
    by_position = dict(zip(placed, moved))
    return transpose_axes(input, tuple(by_position[i] if i in by_position else next(rest)
                                       for i in range(ndim)))


moveaxis = movedim


def identity_view(input):
    """A recorded identity view of ``input``: the same data with a node of its own whose
    gradient flows to ``input`` (not exported: transforms use it as a handle on a tensor).
    """
    return bind_first_tensor(reshape_p, input, params={"shape": input._data.shape})


__all__ = ["reshape", "view", "broadcast_to", "expand", "expand_as", "sum_to_shape",
           "transpose_axes", "permute", "transpose", "swapaxes", "swapdims", "t", "flatten",
           "ravel", "squeeze", "unsqueeze", "concat", "cat", "concatenate", "stack", "split",
           "chunk", "tile", "repeat", "repeat_interleave", "flip", "pad", "tril", "triu",
           "movedim", "moveaxis", "narrow", "select", "unbind"]
