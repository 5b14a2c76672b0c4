"""Shape primitives (reshape, broadcast_to, transpose) and shape composites.

Example:
    >>> import unigrad as ug
    >>> x = ug.arange(6.0).reshape(2, 3)
    >>> x.transpose(0, 1).shape
    (3, 2)
"""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, normalize_axis, shape_of


def _as_shape(shape) -> tuple:
    """Accept ``f(2, 3)``, ``f((2, 3))`` and ``f([2, 3])`` spellings of a shape."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
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
    unknown = [i for i, d in enumerate(new_shape) if d == -1]
    if len(unknown) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if any(d < -1 for d in new_shape):
        raise RuntimeError(f"invalid shape dimension {min(new_shape)}")
    known = 1
    for d in new_shape:
        if d != -1:
            known *= d
    if unknown:
        if known == 0 or size % known:
            raise RuntimeError(f"shape '{list(new_shape)}' is invalid for input of size {size}")
        new_shape = tuple(size // known if d == -1 else d for d in new_shape)
    elif known != size:
        raise RuntimeError(f"shape '{list(new_shape)}' is invalid for input of size {size}")
    return new_shape


# ----------------------------------------------------------------------------- primitives

def _reshape_rule(x, shape):
    size = int(np.prod(shape_of(x), dtype=np.int64))
    return _resolve_shape(tuple(shape), size), dtype_of(x)


reshape_p = Primitive("reshape", lambda x, shape: x.reshape(shape), _reshape_rule, kind="linear",
                      saves_inputs=False, backward_name="ViewBackward0", is_view=True,
                      vjp=lambda g, out, needs, x, shape: (g,))


def _broadcast_rule(x, shape):
    from ._shape_rules import broadcast_shapes
    result = broadcast_shapes(shape_of(x), tuple(shape))
    if result != tuple(shape):
        raise ValueError(f"The expanded size of the tensor must match the existing size: cannot "
                         f"broadcast {list(shape_of(x))} to {list(shape)}")
    return result, dtype_of(x)


def _broadcast_impl(x, shape):
    from ..backend import namespace_of
    return namespace_of(x).broadcast_to(x, shape)


broadcast_to_p = Primitive("broadcast_to", _broadcast_impl, _broadcast_rule, kind="linear",
                           saves_inputs=False, backward_name="ExpandBackward0", is_view=True,
                           vjp=lambda g, out, needs, x, shape: (g,))


def _transpose_rule(x, axes):
    shape = shape_of(x)
    return tuple(shape[a] for a in axes), dtype_of(x)


def _transpose_vjp(g, out, needs, x, axes):
    inverse = tuple(int(i) for i in np.argsort(axes))
    return (transpose_axes(g, inverse),)


transpose_p = Primitive("transpose", lambda x, axes: x.transpose(axes), _transpose_rule,
                        kind="linear", saves_inputs=False, backward_name="PermuteBackward0",
                        is_view=True,
                        vjp=_transpose_vjp)


# ----------------------------------------------------------------------------- public functions

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
    shape = _resolve_shape(shape, int(np.prod(current, dtype=np.int64)))
    if current == shape:
        return input
    return bind(reshape_p, input, shape=shape)


def view(input, *shape):
    """Same as :func:`reshape` (unigrad arrays are always viewable or copied)."""
    return reshape(input, *shape)


def broadcast_to(input, shape):
    """``input`` broadcast to ``shape`` without copying.

    Example:
        >>> import unigrad as ug
        >>> ug.broadcast_to(ug.tensor([1.0, 2.0]), (3, 2)).shape
        (3, 2)
    """
    shape = _as_shape((shape,)) if not isinstance(shape, int) else (shape,)
    if tuple(input.shape) == shape:
        return input
    return bind(broadcast_to_p, input, shape=shape)


def expand(input, *sizes):
    """PyTorch's expand: -1 keeps a dimension; new leading dimensions may be added."""
    sizes = _as_shape(sizes)
    current = tuple(input.shape)
    offset = len(sizes) - len(current)
    if offset < 0:
        raise RuntimeError(f"expand: the number of sizes provided ({len(sizes)}) must be greater "
                           f"or equal to the number of dimensions in the tensor ({len(current)})")
    target = tuple(current[i - offset] if d == -1 and i >= offset else d
                   for i, d in enumerate(sizes))
    return broadcast_to(input, target)


def expand_as(input, other):
    return broadcast_to(input, tuple(other.shape))


def sum_to_shape(input, shape: tuple):
    """Sum ``input`` down to ``shape`` (the inverse of broadcasting)."""
    from .reduce import sum
    current = tuple(input.shape)
    shape = tuple(shape)
    if current == shape:
        return input
    lead = len(current) - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, d in enumerate(shape)
                                      if d == 1 and current[i + lead] != 1)
    result = sum(input, axis=axes, keepdims=True) if axes else input
    return reshape(result, shape)


def transpose_axes(input, axes):
    """Permute dimensions by ``axes`` (NumPy's ``transpose``)."""
    axes = tuple(int(a) for a in axes)
    if axes == tuple(range(len(axes))):
        return input
    return bind(transpose_p, input, axes=axes)


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


def transpose(input, dim0=None, dim1=None):
    """Swap two dimensions (PyTorch); with no dims, reverse all (NumPy)."""
    ndim = len(input.shape)
    if dim0 is None and dim1 is None:
        return transpose_axes(input, tuple(reversed(range(ndim))))
    if dim0 is None or dim1 is None:
        raise TypeError("transpose() needs both dim0 and dim1, or neither")
    a = normalize_axis(dim0, ndim)
    b = normalize_axis(dim1, ndim)
    axes = list(range(ndim))
    axes[a], axes[b] = axes[b], axes[a]
    return transpose_axes(input, axes)


swapaxes = swapdims = transpose


def t(input):
    """Transpose a matrix (0-d and 1-d tensors are returned as is)."""
    if len(input.shape) > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{len(input.shape)}D")
    return transpose(input)
