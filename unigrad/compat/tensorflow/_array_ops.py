"""TensorFlow's array and creation ops (``tf.reshape``, ``tf.concat``, ``tf.ones``...).

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.concat([tf.ones([1, 2]), tf.zeros([1, 2])], axis=0).numpy().tolist()
    [[1.0, 1.0], [0.0, 0.0]]
    >>> tf.range(3)
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([0, 1, 2], dtype=int32)>
"""

from __future__ import annotations

import numpy as np

import unigrad as ug
from unigrad.tensor import Tensor as _UgTensor

from ._dtypes import as_dtype
from ._tensor import Tensor, _dtype, as_tf, constant, operand
from .math import _axis, _pair, _ret

# TensorFlow's dtypes as argument defaults
_TF_FLOAT32 = as_dtype("float32")
_TF_INT32 = as_dtype("int32")

__all__ = ["reshape", "transpose", "concat", "stack", "unstack", "expand_dims", "squeeze",
           "identity", "cast", "tile", "ones", "zeros", "ones_like", "zeros_like", "fill",
           "range", "linspace", "eye", "matmul", "where", "shape", "size", "rank",
           "clip_by_value", "gather"]


def _shape_arg(shape, name: str) -> tuple:
    if isinstance(shape, _UgTensor):
        shape = shape.tolist()
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    try:
        return tuple(int(n) for n in shape)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a list or tuple of ints, got {shape!r}") from None


def reshape(tensor, shape, name: str | None = None) -> Tensor:
    """``tf.reshape``: the same values in a new shape (one entry may be -1)."""
    x = operand(tensor, "tensor")
    return _ret(ug.reshape(x, _shape_arg(shape, "shape")), x)


def transpose(a, perm=None, conjugate: bool = False, name: str = "transpose") -> Tensor:
    """``tf.transpose``: permute the axes (reverse them when ``perm`` is None).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.transpose(tf.constant([[1, 2, 3]])).shape
        TensorShape([3, 1])
    """
    x = operand(a, "a")
    perm = tuple(reversed(range(x.ndim))) if perm is None else _shape_arg(perm, "perm")
    return _ret(ug.permute(x, perm), x)


def concat(values, axis, name: str = "concat") -> Tensor:
    """``tf.concat``: join a list of tensors along the existing ``axis``."""
    if not isinstance(values, (list, tuple)) or not values:
        raise ValueError("values must be a non-empty list of tensors")
    tensors = [operand(v, f"values[{i}]") for i, v in enumerate(values)]
    return _ret(ug.cat(tensors, int(axis)), *tensors)


def stack(values, axis: int = 0, name: str = "stack") -> Tensor:
    """``tf.stack``: join a list of same-shaped tensors along a new ``axis``."""
    if not isinstance(values, (list, tuple)) or not values:
        raise ValueError("values must be a non-empty list of tensors")
    tensors = [operand(v, f"values[{i}]") for i, v in enumerate(values)]
    return _ret(ug.stack(tensors, int(axis)), *tensors)


def unstack(value, num: int | None = None, axis: int = 0, name: str = "unstack") -> list:
    """``tf.unstack``: the slices along ``axis`` as a list."""
    x = operand(value, "value")
    if num is not None and num != x.shape[axis]:
        raise ValueError(f"Cannot infer argument `num` from shape {x.shape}: got num={num}")
    return [_ret(part, x) for part in ug.unbind(x, int(axis))]


def expand_dims(input, axis, name: str | None = None) -> Tensor:
    """``tf.expand_dims``: insert a length-1 axis at ``axis``."""
    x = operand(input, "input")
    return _ret(ug.unsqueeze(x, int(axis)), x)


def squeeze(input, axis=None, name: str | None = None) -> Tensor:
    """``tf.squeeze``: drop length-1 axes (only those in ``axis`` when given).

    Raises:
        ValueError: When an axis in ``axis`` does not have length 1.
    """
    x = operand(input, "input")
    axes = _axis(axis)
    if axes is None:
        return _ret(ug.squeeze(x), x)
    axes = axes if isinstance(axes, tuple) else (axes,)
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError(f"Can not squeeze dim[{a}], expected a dimension of 1, got "
                             f"{x.shape[a]}")
    keep = [n for i, n in enumerate(x.shape) if i not in {a % x.ndim for a in axes}]
    return _ret(ug.reshape(x, tuple(keep)), x)


def identity(input, name: str | None = None) -> Tensor:
    """``tf.identity``: a tensor with the same value (differentiable, gradient passes through)."""
    x = operand(input, "input")
    return as_tf(ug.clone(x))


def cast(x, dtype, name: str | None = None) -> Tensor:
    """``tf.cast``: convert to ``dtype`` (float to int truncates toward zero)."""
    x = operand(x, "x")
    return _ret(ug.cast(x, _dtype(dtype, "dtype")), x)


def tile(input, multiples, name: str | None = None) -> Tensor:
    """``tf.tile``: repeat the tensor ``multiples[i]`` times along axis ``i``."""
    x = operand(input, "input")
    return _ret(ug.tile(x, _shape_arg(multiples, "multiples")), x)


def ones(shape, dtype=_TF_FLOAT32, name: str | None = None) -> Tensor:
    """``tf.ones``: a tensor of ones (float32 by default)."""
    return constant(1, dtype=dtype, shape=_shape_arg(shape, "shape"))


def zeros(shape, dtype=_TF_FLOAT32, name: str | None = None) -> Tensor:
    """``tf.zeros``: a tensor of zeros (float32 by default)."""
    return constant(0, dtype=dtype, shape=_shape_arg(shape, "shape"))


def ones_like(input, dtype=None, name: str | None = None) -> Tensor:
    """``tf.ones_like``: ones with the shape (and dtype unless given) of ``input``."""
    x = operand(input, "input")
    return constant(1, dtype=x.dtype if dtype is None else dtype, shape=x.shape)


def zeros_like(input, dtype=None, name: str | None = None) -> Tensor:
    """``tf.zeros_like``: zeros with the shape (and dtype unless given) of ``input``."""
    x = operand(input, "input")
    return constant(0, dtype=x.dtype if dtype is None else dtype, shape=x.shape)


def fill(dims, value, name: str | None = None) -> Tensor:
    """``tf.fill``: a tensor of shape ``dims`` filled with the scalar ``value``."""
    scalar = value if isinstance(value, _UgTensor) else constant(value)
    if scalar.numel() != 1:
        raise ValueError(f"value must be a scalar, got shape {tuple(scalar.shape)}")
    return constant(scalar, shape=_shape_arg(dims, "dims"))


def range(start, limit=None, delta=1, dtype=None, name: str = "range") -> Tensor:  # noqa: A001
    """``tf.range``: ``start, start + delta, ...`` below ``limit`` (``range(n)``: 0..n-1).

    The dtype is int32 for int arguments, float32 when any is a float.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.range(1, 2, 0.25).numpy().tolist()
        [1.0, 1.25, 1.5, 1.75]
    """
    if limit is None:
        start, limit = 0, start
    values = [v.item() if isinstance(v, _UgTensor) else v for v in (start, limit, delta)]
    if delta == 0:
        raise ValueError("delta must be nonzero")
    if dtype is None:
        dtype = ug.float32 if any(isinstance(v, float) for v in values) else ug.int32
    return constant(np.arange(*values), dtype=dtype)


def linspace(start, stop, num, name: str | None = None, axis: int = 0) -> Tensor:
    """``tf.linspace``: ``num`` evenly spaced values from ``start`` to ``stop`` inclusive."""
    if axis != 0:
        raise ValueError("linspace: only axis=0 is supported for scalar start and stop")
    return constant(np.linspace(float(start), float(stop), int(num)), dtype=ug.float32)


def eye(num_rows: int, num_columns: int | None = None, batch_shape=None, dtype=_TF_FLOAT32,
        name: str | None = None) -> Tensor:
    """``tf.eye``: an identity matrix (or a batch of them)."""
    matrix = np.eye(int(num_rows), None if num_columns is None else int(num_columns))
    if batch_shape is not None:
        matrix = np.broadcast_to(matrix, (*_shape_arg(batch_shape, "batch_shape"),
                                          *matrix.shape))
    return constant(matrix, dtype=dtype)


def matmul(a, b, transpose_a: bool = False, transpose_b: bool = False, adjoint_a: bool = False,
           adjoint_b: bool = False, a_is_sparse: bool = False, b_is_sparse: bool = False,
           output_type=None, name: str | None = None) -> Tensor:
    """``tf.linalg.matmul``: the matrix product, optionally transposing either operand.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> a = tf.constant([[1.0, 2.0]])
        >>> tf.matmul(a, a, transpose_b=True).numpy().tolist()
        [[5.0]]
    """
    a, b = _pair(a, b)
    left = ug.transpose(a, -2, -1) if (transpose_a or adjoint_a) else a
    right = ug.transpose(b, -2, -1) if (transpose_b or adjoint_b) else b
    result = ug.matmul(left, right)
    if output_type is not None:
        result = ug.cast(result, _dtype(output_type, "output_type"))
    return _ret(result, a, b)


def where(condition, x=None, y=None, name: str | None = None) -> Tensor:
    """``tf.where``: ``x`` where ``condition`` else ``y``; with neither, the coordinates of the
    true elements (an int64 tensor of shape ``(n, rank)``).

    Raises:
        ValueError: When only one of ``x`` and ``y`` is given.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.where(tf.constant([True, False, True])).numpy().tolist()
        [[0], [2]]
    """
    cond = operand(condition, "condition")
    if x is None and y is None:
        return constant(np.argwhere(np.asarray(cond)), dtype=ug.int64)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    x, y = _pair(x, y)
    return _ret(ug.where(cond, x, y), x, y)


def shape(input, out_type=_TF_INT32, name: str | None = None) -> Tensor:
    """``tf.shape``: the shape as a 1-D integer tensor."""
    x = operand(input, "input")
    return constant(list(x.shape), dtype=out_type)


def size(input, out_type=_TF_INT32, name: str | None = None) -> Tensor:
    """``tf.size``: the number of elements as a scalar integer tensor."""
    x = operand(input, "input")
    return constant(x.numel(), dtype=out_type)


def rank(input, name: str | None = None) -> Tensor:
    """``tf.rank``: the number of dimensions as a scalar int32 tensor."""
    x = operand(input, "input")
    return constant(x.ndim, dtype=ug.int32)


def clip_by_value(t, clip_value_min, clip_value_max, name: str | None = None) -> Tensor:
    """``tf.clip_by_value``: clamp ``t`` into ``[clip_value_min, clip_value_max]``."""
    x = operand(t, "t")
    return _ret(ug.clamp(x, clip_value_min, clip_value_max), x)


def gather(params, indices, validate_indices=None, axis=None, batch_dims: int = 0,
           name: str | None = None) -> Tensor:
    """``tf.gather``: the slices of ``params`` at ``indices`` along ``axis`` (default 0).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.gather(tf.constant([10.0, 20.0, 30.0]), [2, 0]).numpy().tolist()
        [30.0, 10.0]
    """
    if batch_dims != 0:
        raise ValueError("gather: only batch_dims=0 is supported")
    x = operand(params, "params")
    index = indices if isinstance(indices, _UgTensor) else constant(indices, dtype=ug.int64)
    axis = 0 if axis is None else int(axis)
    flat = ug.index_select(x, axis, ug.reshape(index, (-1,)))
    shape = (*x.shape[:axis % x.ndim], *index.shape, *x.shape[axis % x.ndim + 1:])
    return _ret(ug.reshape(flat, shape), x)
