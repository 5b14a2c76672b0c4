"""Tensor products and the fused ``beta * input + alpha * product`` ops, as in PyTorch.

All composites of :func:`~unigrad.ops.linalg.matmul` / :func:`~unigrad.ops.linalg.einsum`
and elementwise ops, so differentiable to any order and traceable: ``inner``,
``tensordot``, ``vdot``, ``addmm``, ``addmv``, ``addr``, ``baddbmm`` and ``addbmm``.
With ``beta=0`` the ``input`` is ignored (NaN and inf in it do not propagate).

Example:
    >>> import unigrad as ug
    >>> ug.inner(ug.tensor([1.0, 2.0]), ug.tensor([3.0, 4.0]))
    tensor(11.)
    >>> ug.addmm(ug.zeros(2, 2), ug.eye(2), ug.ones(2, 2), alpha=3).tolist()
    [[3.0, 3.0], [3.0, 3.0]]
"""

from __future__ import annotations

import numbers
import string

import numpy as np

from ..tensor import Tensor
from . import elementwise as _elementwise
from . import linalg as _linalg
from . import shape as _shape
from ._shape_rules import normalize_axis
from .registry import op

__all__ = ["inner", "tensordot", "vdot", "addmm", "addmv", "addr", "baddbmm", "addbmm"]

_LETTERS = string.ascii_letters


# ============================================================================= contractions

def _contracted_dims(dims, a_ndim: int, b_ndim: int) -> tuple[list, list]:
    """``tensordot``'s ``dims`` as two lists of axes (of ``a`` and of ``b``)."""
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, (int, np.integer)):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > a_ndim or dims > b_ndim:
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        return list(range(a_ndim - dims, a_ndim)), list(range(dims))
    if not isinstance(dims, (list, tuple)) or len(dims) != 2:
        raise RuntimeError(f"tensordot expects dims to be an int or a pair of lists of dims, "
                           f"got {dims!r}")
    first, second = ([d] if isinstance(d, (int, np.integer)) else list(d) for d in dims)
    if len(first) != len(second):
        raise RuntimeError(f"both dimension lists should have same length, got {len(first)} "
                           f"and {len(second)}")
    return ([normalize_axis(d, a_ndim) for d in first],
            [normalize_axis(d, b_ndim) for d in second])


@op()
def tensordot(a, b, dims=2):
    """Contract ``a``'s axes ``dims[0]`` with ``b``'s ``dims[1]`` (or ``a``'s last
    ``dims`` with ``b``'s first ``dims``); the result has ``a``'s free axes then ``b``'s.

    Example:
        >>> import unigrad as ug
        >>> a, b = ug.ones(3, 4, 5), ug.ones(4, 3, 2)
        >>> ug.tensordot(a, b, dims=([1, 0], [0, 1])).shape
        (5, 2)
        >>> ug.tensordot(ug.ones(2, 3), ug.ones(3, 4), dims=1)
        tensor([[3., 3., 3., 3.],
                [3., 3., 3., 3.]])
    """
    a_shape, b_shape = tuple(a.shape), tuple(b.shape)
    a_axes, b_axes = _contracted_dims(dims, len(a_shape), len(b_shape))
    if len(set(a_axes)) != len(a_axes) or len(set(b_axes)) != len(b_axes):
        raise RuntimeError("tensordot: a dimension appears more than once in dims")
    a_wanted, b_wanted = list(a_shape), list(b_shape)
    for i, j in zip(a_axes, b_axes):  # a size-1 side broadcasts, as in PyTorch
        if a_shape[i] != b_shape[j] and 1 not in (a_shape[i], b_shape[j]):
            raise RuntimeError(f"contracted dimensions need to match, but first has size "
                               f"{a_shape[i]} in dim {i} and second has size {b_shape[j]} in "
                               f"dim {j}")
        a_wanted[i] = b_wanted[j] = max(a_shape[i], b_shape[j])
    if tuple(a_wanted) != a_shape:
        a = _shape.broadcast_to(a, tuple(a_wanted))
    if tuple(b_wanted) != b_shape:
        b = _shape.broadcast_to(b, tuple(b_wanted))
    a_term = list(_LETTERS[:len(a_shape)])
    b_term = list(_LETTERS[len(a_shape):len(a_shape) + len(b_shape)])
    for i, j in zip(a_axes, b_axes):
        b_term[j] = a_term[i]
    free = [a_term[i] for i in range(len(a_shape)) if i not in a_axes] + \
           [b_term[j] for j in range(len(b_shape)) if j not in b_axes]
    equation = f"{''.join(a_term)},{''.join(b_term)}->{''.join(free)}"
    return _linalg.einsum(equation, a, b)


@op(methods=("inner",))
def inner(input, other):
    """Inner product over the last dimension: ``out[i..., j...] = sum_k input[i..., k]
    * other[j..., k]``; a 0-d operand multiplies.

    Example:
        >>> import unigrad as ug
        >>> ug.inner(ug.tensor([[1.0, 2.0], [3.0, 4.0]]), ug.tensor([1.0, 1.0]))
        tensor([3., 7.])
    """
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        raise TypeError(f"inner(): argument 'other' must be Tensor, not "
                        f"{type(other if isinstance(input, Tensor) else input).__name__}")
    if input.ndim == 0 or other.ndim == 0:
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes {list(input.shape)} and {list(other.shape)}")
    return tensordot(input, other, dims=([-1], [-1]))


@op(methods=("vdot",))
def vdot(input, other):
    """The dot product of two 1-D tensors, conjugating ``input`` (for real tensors the
    same as :func:`dot`).

    Example:
        >>> import unigrad as ug
        >>> ug.vdot(ug.tensor([1.0, 2.0]), ug.tensor([3.0, 4.0]))
        tensor(11.)
        >>> ug.vdot(ug.tensor([1j]), ug.tensor([1j]))
        tensor(1.+0.j)
    """
    if isinstance(input, Tensor) and input._data.dtype.kind == "c":
        from .complex_numbers import conj
        input = conj(input)
    return _linalg.dot(input, other)


# ============================================================ beta * input + alpha * product

def _check_scalars(input, beta, alpha) -> None:
    for name, value in (("beta", beta), ("alpha", alpha)):
        if isinstance(value, Tensor) or not isinstance(value, numbers.Number):
            raise TypeError(f"argument '{name}' must be Number, not {type(value).__name__}")
        if isinstance(input, Tensor) and input._data.dtype.kind in "biu" and \
                isinstance(value, float) and not float(value).is_integer():
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a "
                               f"floating point number.")


def _scaled_sum(name: str, input, product, beta, alpha):
    """``beta * input + alpha * product`` with ``input`` broadcast to ``product``'s shape
    (it may not enlarge it); ``beta == 0`` ignores ``input``'s values, as PyTorch."""
    shape = tuple(product.shape)
    try:
        input = _shape.broadcast_to(input, shape)
    except (RuntimeError, ValueError) as error:
        raise RuntimeError(f"{name}: the size of input {list(input.shape)} must be broadcastable "
                           f"to the size of the product {list(shape)}") from error
    if alpha != 1:
        product = product * alpha
    if beta == 0:  # input's values (NaN, inf) are ignored; its gradient is zero
        return _elementwise.where(True, product, input)
    return product + (input if beta == 1 else input * beta)


@op(methods=("addmm",), inplace=("addmm_",))
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)`` for 2-D ``mat1``, ``mat2``; ``input``
    broadcasts to the product's shape.

    Example:
        >>> import unigrad as ug
        >>> ug.addmm(ug.ones(2, 2), ug.eye(2), ug.ones(2, 2), beta=2)
        tensor([[3., 3.],
                [3., 3.]])
    """
    _check_scalars(input, beta, alpha)
    if mat1.ndim != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {mat1.ndim}-D tensor")
    if mat2.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {mat2.ndim}-D tensor")
    if mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x"
                           f"{mat1.shape[1]} and {mat2.shape[0]}x{mat2.shape[1]})")
    return _scaled_sum("addmm", input, _linalg.mm(mat1, mat2), beta, alpha)


@op(methods=("addmv",), inplace=("addmv_",))
def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)`` for a 2-D ``mat`` and a 1-D ``vec``.

    Example:
        >>> import unigrad as ug
        >>> ug.addmv(ug.tensor([1.0, 1.0]), ug.eye(2), ug.tensor([2.0, 3.0]))
        tensor([3., 4.])
    """
    _check_scalars(input, beta, alpha)
    return _scaled_sum("addmv", input, _linalg.mv(mat, vec), beta, alpha)


@op(methods=("addr",), inplace=("addr_",))
def addr(input, vec1, vec2, *, beta=1, alpha=1):
    """``beta * input + alpha * outer(vec1, vec2)`` for 1-D ``vec1``, ``vec2``.

    Example:
        >>> import unigrad as ug
        >>> ug.addr(ug.zeros(2, 2), ug.tensor([1.0, 2.0]), ug.tensor([1.0, 3.0]))
        tensor([[1., 3.],
                [2., 6.]])
    """
    _check_scalars(input, beta, alpha)
    for name, value in (("vec1", vec1), ("vec2", vec2)):
        if value.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {value.ndim}-D")
    return _scaled_sum("addr", input, _linalg.outer(vec1, vec2), beta, alpha)


@op(methods=("baddbmm",), inplace=("baddbmm_",))
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)`` for 3-D ``batch1``, ``batch2`` with
    the same batch size.

    Example:
        >>> import unigrad as ug
        >>> ug.baddbmm(ug.zeros(1, 2, 2), ug.ones(1, 2, 3), ug.ones(1, 3, 2), alpha=0.5)
        tensor([[[1.5000, 1.5000],
                 [1.5000, 1.5000]]])
    """
    _check_scalars(input, beta, alpha)
    return _scaled_sum("baddbmm", input, _linalg.bmm(batch1, batch2), beta, alpha)


@op(methods=("addbmm",), inplace=("addbmm_",))
def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b (batch1[b] @ batch2[b])`` for 3-D ``batch1``,
    ``batch2`` with the same batch size.

    Example:
        >>> import unigrad as ug
        >>> ug.addbmm(ug.zeros(2, 2), ug.ones(3, 2, 4), ug.ones(3, 4, 2))
        tensor([[12., 12.],
                [12., 12.]])
    """
    _check_scalars(input, beta, alpha)
    for name, value in (("batch1", batch1), ("batch2", batch2)):
        if value.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    if batch1.shape[0] != batch2.shape[0] or batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{batch1.shape[0]}, {batch1.shape[2]}] but got: "
                           f"[{batch2.shape[0]}, {batch2.shape[1]}].")
    product = _linalg.einsum("bij,bjk->ik", batch1, batch2)
    return _scaled_sum("addbmm", input, product, beta, alpha)
