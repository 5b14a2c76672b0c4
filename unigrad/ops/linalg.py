"""Linear-algebra primitives (matmul, einsum, inv, det, solve, cholesky) and composites.

``matmul`` follows NumPy/PyTorch semantics: 1-D operands are promoted to a row
(left) or a column (right) and the promoted dimension is removed again, leading
dimensions broadcast as batches. ``einsum`` equations are normalised once
(ellipses become letters, size-1 dimensions are broadcast), so the primitive
only sees explicit, consistent subscripts and its vjp is another einsum.

Example:
    >>> import unigrad as ug
    >>> a = ug.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    >>> (a @ ug.tensor([1.0, 1.0])).sum().backward()
    >>> a.grad
    tensor([[1., 1.],
            [1., 1.]])
"""

from __future__ import annotations

import math
import string

import numpy as np

from .. import _state, backend
from ..autograd.node import is_recorded, present_as
from ..backend import namespace_of
from ..interpreters.batching import move_to_front, ndim_of, over_leading_dims
from ..tensor import PLAIN_TENSOR_TYPES, Tensor
from ._dtypes import to_tensor_operand
from ._primitive import Primitive, bind, others_need
from ._shape_rules import broadcast_shapes, dtype_of, shape_of
from .registry import op
from .shape import broadcast_to, reshape, reshape_p, sum_to_shape, transpose_p

_local = _state.local

__all__ = ["matmul", "einsum", "outer", "dot", "mm", "bmm", "mv", "inv", "inverse", "det",
           "slogdet", "logdet", "solve", "cholesky"]


class LinAlgError(RuntimeError):
    """A matrix is singular or not positive-definite (``torch.linalg.LinAlgError``)."""


def _mT(x):
    """Swap the last two dimensions (a view)."""
    ndim = len(x.shape)
    axes = tuple(range(ndim - 2)) + (ndim - 1, ndim - 2)
    return bind(transpose_p, x, axes=axes)


def _adjoint(matrix):
    """The conjugate transpose of the last two dimensions (the transpose when real)."""
    if matrix.dtype.kind == "c":
        from .complex_numbers import conj
        return conj(_mT(matrix))
    return _mT(matrix)


def _dims(shape) -> str:
    return "x".join(str(d) for d in shape)


def _raw_dtype(x) -> np.dtype:
    return x._data.dtype if isinstance(x, Tensor) else np.dtype(x.dtype)


def _raw(x):
    return x._data if isinstance(x, Tensor) else x


# ----------------------------------------------------------------------------- matmul

def _matmul_shape(a_shape: tuple, b_shape: tuple) -> tuple:
    """The output shape of ``a @ b``; RuntimeError naming both shapes when they do not fit."""
    if not a_shape or not b_shape:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{len(a_shape)}D and {len(b_shape)}D")
    inner = b_shape[-2] if len(b_shape) > 1 else b_shape[0]
    if a_shape[-1] != inner:
        rows = a_shape if len(a_shape) > 1 else (1,) + a_shape
        columns = b_shape if len(b_shape) > 1 else b_shape + (1,)
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_dims(rows)} and "
                           f"{_dims(columns)})")
    try:
        batch = broadcast_shapes(a_shape[:-2], b_shape[:-2])
    except ValueError:
        raise RuntimeError(f"matmul(): the batch dimensions of shapes {list(a_shape)} and "
                           f"{list(b_shape)} cannot be broadcast together") from None
    return batch + a_shape[-2:-1] + b_shape[-1:] if len(b_shape) > 1 else batch + a_shape[-2:-1]


def _matmul_impl(a, b):
    if b.ndim == 2 and a.ndim > 2 and a.flags.c_contiguous and a.size:
        # one GEMM over all rows instead of one per batch entry
        return (a.reshape(-1, a.shape[-1]) @ b).reshape(a.shape[:-1] + b.shape[-1:])
    return a @ b


def _matmul_rule(a, b):
    shape = _matmul_shape(shape_of(a), shape_of(b))
    return shape, np.result_type(dtype_of(a), dtype_of(b))


def _matmul_vjp(g, out, needs, a, b):
    a_shape, b_shape = tuple(a.shape), tuple(b.shape)
    if len(a_shape) == 2 and len(b_shape) == 2:
        grad_b = bind(matmul_p, _mT(a), g) if needs[1] else None
        return (bind(matmul_p, g, _mT(b)) if needs[0] else None, grad_b)
    if len(b_shape) == 2 and len(a_shape) > 2 and needs[1]:
        # (..., n, k) @ (k, m): the gradient of b is one GEMM over all rows
        rows = reshape(a, (math.prod(a_shape[:-1]), a_shape[-1]))
        grad_b = bind(matmul_p, _mT(rows), reshape(g, (-1, b_shape[-1])))
        return (bind(matmul_p, g, _mT(b)) if needs[0] else None, grad_b)
    # promote 1-D operands to matrices, differentiate, and reduce batch broadcasting
    a_matrix = a_shape if len(a_shape) > 1 else (1,) + a_shape
    b_matrix = b_shape if len(b_shape) > 1 else b_shape + (1,)
    batch = broadcast_shapes(a_matrix[:-2], b_matrix[:-2])
    g = reshape(g, batch + (a_matrix[-2], b_matrix[-1]))
    grad_a = grad_b = None
    if needs[0]:
        b_promoted = reshape(b, b_matrix) if len(b_shape) == 1 else b
        grad_a = reshape(sum_to_shape(bind(matmul_p, g, _mT(b_promoted)), a_matrix), a_shape)
    if needs[1]:
        a_promoted = reshape(a, a_matrix) if len(a_shape) == 1 else a
        grad_b = reshape(sum_to_shape(bind(matmul_p, _mT(a_promoted), g), b_matrix), b_shape)
    return grad_a, grad_b


def _matmul_expression(eqn, operands: list, namer) -> str | None:
    """``a @ b`` in generated graph code (not for a stack times a matrix: the kernel
    flattens that batch into one GEMM)."""
    a, b = eqn.inputs
    if a.ndim > 2 and b.ndim == 2:
        return None
    return f"{operands[0]} @ {operands[1]}"


def _matmul_batch(values, dims):
    """Per-example vectors become matrices (so no batch axis is read as a matrix axis),
    batch axes go first with ranks aligned, and the added vector axes are dropped again."""
    operands = []
    dropped = []
    for position, (value, dim) in enumerate(zip(values, dims)):
        value = move_to_front(value, dim)
        if ndim_of(value) - (dim is not None) == 1:
            shape = tuple(value.shape)
            value = bind(reshape_p, value, shape=shape[:-1] + (1, shape[-1]) if position == 0
                         else shape + (1,))
            dropped.append(-2 if position == 0 else -1)
        operands.append(value)
    ranks = [ndim_of(v) - (d is not None) for v, d in zip(operands, dims)]
    for position, (value, dim) in enumerate(zip(operands, dims)):
        if dim is not None and ranks[position] < max(ranks):
            shape = tuple(value.shape)
            operands[position] = bind(reshape_p, value, shape=shape[:1] + (1,) * (
                max(ranks) - ranks[position]) + shape[1:])
    out = bind(matmul_p, *operands)
    if dropped:
        shape = list(out.shape)
        for axis in sorted(dropped):
            del shape[axis]
        out = bind(reshape_p, out, shape=tuple(shape))
    return out, 0


matmul_p = Primitive("matmul", _matmul_impl, _matmul_rule, kind="bilinear", vjp=_matmul_vjp,
                     backward_name="MmBackward0", saves=others_need, autocast="lower",
                     expression=_matmul_expression, ufunc="matmul", batch=_matmul_batch,
                     result_memory="fresh contiguous")


def _operand(value):
    """Tensors and backend arrays as they are (rules pass arrays); lists become Tensors."""
    return value if isinstance(value, Tensor) or hasattr(value, "shape") else \
        to_tensor_operand(value)


def _cast_by_autocast(*operands) -> bool:
    """Whether autocast will give these floating operands one dtype (float64 stays)."""
    return _local.autocast_dtype is not None and all(
        o._data.dtype.kind == "f" and o._data.dtype.itemsize < 8 for o in operands)


def _matrix_operands(input, other, name: str):
    input, other = _operand(input), _operand(other)
    for value in (input, other):
        if not hasattr(value, "shape"):
            raise TypeError(f"{name}(): expected Tensor arguments, got {type(value).__name__}")
    if isinstance(input, Tensor) and isinstance(other, Tensor) and \
            input._data.dtype != other._data.dtype and not _cast_by_autocast(input, other):
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{input.dtype.name} != {other.dtype.name}")
    return input, other


@op(methods=("matmul",))
def matmul(input, other):
    """Matrix product with NumPy/PyTorch semantics (1-D operands, batch broadcasting).

    Example:
        >>> import unigrad as ug
        >>> (ug.ones((2, 3, 4)) @ ug.ones((4, 5))).shape
        (2, 3, 5)
        >>> ug.matmul(ug.tensor([1.0, 2.0]), ug.tensor([3.0, 4.0]))
        tensor(11.)
    """
    if type(input) in PLAIN_TENSOR_TYPES and type(other) in PLAIN_TENSOR_TYPES:
        a, b = input._data, other._data
        if a.ndim == 2 and b.ndim == 2 and a.shape[1] == b.shape[0] and a.dtype == b.dtype:
            return bind(matmul_p, input, other)
    input, other = _matrix_operands(input, other, "matmul")
    _matmul_shape(tuple(input.shape), tuple(other.shape))
    ranks = (len(input.shape), len(other.shape))
    if ranks == (1, 2) and is_recorded(input, other):
        # PyTorch's graph for vector @ matrix: unsqueeze, mm, then SqueezeBackward4
        from .shape import unsqueeze
        row = bind(matmul_p, unsqueeze(input, 0), other)
        return present_as(reshape(row, tuple(row.shape[1:])), "SqueezeBackward4", row)
    product = bind(matmul_p, input, other)
    if ranks == (1, 1):
        return present_as(product, "DotBackward0", input, other)
    if ranks == (2, 1):
        return present_as(product, "MvBackward0", input, other)
    return product


@op(methods=("mm",))
def mm(input, mat2):
    """Product of two matrices (2-D only).

    Example:
        >>> import unigrad as ug
        >>> ug.mm(ug.ones((2, 3)), ug.ones((3, 4))).shape
        (2, 4)
    """
    input, mat2 = _matrix_operands(input, mat2, "mm")
    if len(input.shape) != 2:
        raise RuntimeError("self must be a matrix")
    if len(mat2.shape) != 2:
        raise RuntimeError("mat2 must be a matrix")
    return matmul(input, mat2)


@op(methods=("bmm",))
def bmm(input, mat2):
    """Batched product of two stacks of matrices with the same batch size (3-D only).

    Example:
        >>> import unigrad as ug
        >>> ug.bmm(ug.ones((5, 2, 3)), ug.ones((5, 3, 4))).shape
        (5, 2, 4)
    """
    input, mat2 = _matrix_operands(input, mat2, "bmm")
    if len(input.shape) != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if len(mat2.shape) != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    expected = [input.shape[0], input.shape[2]]
    if list(mat2.shape[:2]) != expected:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"{expected} but got: {list(mat2.shape[:2])}.")
    return matmul(input, mat2)


@op(methods=("mv",))
def mv(input, vec):
    """Product of a matrix and a vector.

    Example:
        >>> import unigrad as ug
        >>> ug.mv(ug.tensor([[1.0, 2.0], [3.0, 4.0]]), ug.tensor([1.0, 1.0]))
        tensor([3., 7.])
    """
    input, vec = _matrix_operands(input, vec, "mv")
    if len(input.shape) != 2 or len(vec.shape) != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {len(input.shape)}, "
                           f"{len(vec.shape)}")
    if input.shape[1] != vec.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({input.shape[0]}), mat "
                           f"({_dims(input.shape)}), vec ({vec.shape[0]})")
    return matmul(input, vec)


@op(methods=("dot",), autocast="inputs")
def dot(input, other):
    """Inner product of two 1-D tensors of the same size.

    Example:
        >>> import unigrad as ug
        >>> ug.dot(ug.tensor([1.0, 2.0]), ug.tensor([3.0, 4.0]))
        tensor(11.)
    """
    input, other = _matrix_operands(input, other, "dot")
    if len(input.shape) != 1 or len(other.shape) != 1:
        raise RuntimeError(f"1D tensors expected, but got {len(input.shape)}D and "
                           f"{len(other.shape)}D tensors")
    if input.shape[0] != other.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{input.shape[0]}] and "
                           f"src [{other.shape[0]}] to have the same number of elements, but got "
                           f"{input.shape[0]} and {other.shape[0]} elements respectively")
    return present_as(bind(matmul_p, input, other), "DotBackward0", input, other)


@op(methods=("outer",))
def outer(input, vec2):
    """Outer product of two 1-D tensors: ``out[i, j] = input[i] * vec2[j]``.

    Example:
        >>> import unigrad as ug
        >>> ug.outer(ug.tensor([1.0, 2.0]), ug.tensor([1.0, 10.0, 100.0]))
        tensor([[  1.,  10., 100.],
                [  2.,  20., 200.]])
    """
    input, vec2 = _operand(input), _operand(vec2)
    for name, value in (("self", input), ("vec2", vec2)):
        if len(value.shape) != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got "
                               f"{len(value.shape)}-D")
    return reshape(input, (-1, 1)) * reshape(vec2, (1, -1))


# ----------------------------------------------------------------------------- einsum

class EinsumError(ValueError, RuntimeError):
    """A malformed einsum equation (a ValueError as in NumPy, a RuntimeError as in PyTorch)."""


_SUBSCRIPTS = string.ascii_letters


def _split_term(term: str, position: int) -> tuple[str, bool]:
    """A term's letters (without the ellipsis) and whether it has an ellipsis."""
    has_ellipsis = "..." in term
    letters = term.replace("...", "", 1)
    for character in letters:
        if character not in _SUBSCRIPTS:
            raise EinsumError(f"einsum(): invalid subscript given at index {position} in the "
                              f"equation string, subscripts must be in [a-zA-Z]")
    return letters, has_ellipsis


def _normalize_equation(equation: str, shapes: list) -> tuple[list, str, dict]:
    """Explicit subscripts per operand and for the output, and each letter's size."""
    equation = equation.replace(" ", "")
    if equation.count("->") > 1:
        raise EinsumError("einsum(): found more than one '->' in the equation")
    left, arrow, right = equation.partition("->")
    terms = left.split(",")
    if len(terms) < len(shapes):
        raise EinsumError("einsum(): more operands were provided than specified in the equation")
    if len(terms) > len(shapes):
        raise EinsumError("einsum(): fewer operands were provided than specified in the equation")
    used = set(equation) & set(_SUBSCRIPTS)
    spare = [c for c in _SUBSCRIPTS if c not in used]
    parsed = []
    ellipsis_rank = 0
    for index, (term, shape) in enumerate(zip(terms, shapes)):
        letters, has_ellipsis = _split_term(term, index)
        if has_ellipsis and len(letters) > len(shape) or \
                not has_ellipsis and len(letters) != len(shape):
            raise EinsumError(f"einsum(): the number of subscripts in the equation "
                              f"({len(letters)}) does not match the number of dimensions "
                              f"({len(shape)}) for operand {index}"
                              f"{'' if has_ellipsis else ' and no ellipsis was given'}")
        rank = len(shape) - len(letters) if has_ellipsis else 0
        ellipsis_rank = max(ellipsis_rank, rank)
        parsed.append((term, rank))
    ellipsis_letters = "".join(spare[:ellipsis_rank])
    inputs = [term.replace("...", ellipsis_letters[ellipsis_rank - rank:], 1)
              for term, rank in parsed]
    if arrow:
        _split_term(right, -1)
        output = right.replace("...", ellipsis_letters, 1)
        for letter in output:
            if not any(letter in term for term in inputs):
                raise EinsumError(f"einsum(): output subscript {letter} does not appear in the "
                                  f"equation for any input operand")
            if output.count(letter) > 1:
                raise EinsumError(f"einsum(): output subscript {letter} appears more than once "
                                  f"in the output")
    else:
        counts = {}
        for term in inputs:
            for letter in term:
                counts[letter] = counts.get(letter, 0) + 1
        output = ellipsis_letters + "".join(sorted(
            letter for letter, count in counts.items()
            if count == 1 and letter not in ellipsis_letters))
    sizes = {}
    for index, (term, shape) in enumerate(zip(inputs, shapes)):
        for letter, size in zip(term, shape):
            seen = sizes.setdefault(letter, size)
            if seen == 1:
                sizes[letter] = size
            elif size not in (1, seen):
                raise EinsumError(f"einsum(): subscript {letter} has size {size} for operand "
                                  f"{index} which does not broadcast with previously seen size "
                                  f"{seen}")
    return inputs, output, sizes


def _einsum_impl(*operands, equation):
    return namespace_of(operands[0]).einsum(equation, *operands, optimize=len(operands) > 2)


def _einsum_rule(*operands, equation):
    left, output = equation.split("->")
    sizes = {}
    for term, operand in zip(left.split(","), operands):
        sizes.update(zip(term, shape_of(operand)))
    return tuple(sizes[letter] for letter in output), np.result_type(
        *(dtype_of(operand) for operand in operands))


def _einsum_vjp(g, out, needs, *operands, equation):
    left, output = equation.split("->")
    terms = left.split(",")
    sizes = {}
    for term, operand in zip(terms, operands):
        sizes.update(zip(term, operand.shape))
    spare = [c for c in _SUBSCRIPTS if c not in equation]
    xp = namespace_of(_raw(g))
    dtype = _raw_dtype(g)
    grads = []
    for index, target in enumerate(terms):
        if not needs[index]:
            grads.append(None)
            continue
        factors = [g] + [operand for i, operand in enumerate(operands) if i != index]
        subscripts = [output] + [term for i, term in enumerate(terms) if i != index]
        # a repeated letter (a diagonal) becomes a fresh letter tied to it by an identity
        renamed = ""
        for letter in target:
            if letter in renamed:
                fresh = spare.pop()
                factors.append(xp.eye(sizes[letter], dtype=dtype))
                subscripts.append(letter + fresh)
                letter = fresh
            renamed += letter
        # a letter summed away inside this operand alone: the gradient is broadcast along it
        for letter in renamed:
            if not any(letter in term for term in subscripts):
                factors.append(xp.ones(sizes[letter], dtype=dtype))
                subscripts.append(letter)
        grads.append(bind(einsum_p, *factors, equation=",".join(subscripts) + "->" + renamed))
    return tuple(grads)


def _einsum_batch(values, dims, equation):
    """A fresh subscript letter for the batch axis, first in batched operands and the output."""
    left, output = equation.split("->")
    letter = next(c for c in "zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJIHGFEDCBA"
                  if c not in equation)
    terms = left.split(",")
    operands = []
    for position, (value, dim) in enumerate(zip(values, dims)):
        if dim is not None:
            value = move_to_front(value, dim)
            terms[position] = letter + terms[position]
        operands.append(value)
    return bind(einsum_p, *operands, equation=f"{','.join(terms)}->{letter}{output}"), 0


einsum_p = Primitive("einsum", _einsum_impl, _einsum_rule, kind="bilinear", vjp=_einsum_vjp,
                     backward_name="EinsumBackward0", saves=others_need, autocast="lower",
                     batch=_einsum_batch)


def einsum(equation: str, *operands):
    """Einstein summation, as ``numpy.einsum``/``torch.einsum`` (``...`` and implicit output).

    Example:
        >>> import unigrad as ug
        >>> a = ug.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> ug.einsum("ii->", a)
        tensor(5.)
        >>> ug.einsum("ij,jk->ik", a, ug.eye(2)).shape
        (2, 2)
    """
    if not isinstance(equation, str):
        raise TypeError(f"einsum(): equation must be a str, got {type(equation).__name__}")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise EinsumError("einsum(): must provide at least one operand")
    operands = [_operand(operand) for operand in operands]
    inputs, output, sizes = _normalize_equation(equation, [tuple(o.shape) for o in operands])
    for i, (term, operand) in enumerate(zip(inputs, operands)):
        wanted = tuple(sizes[letter] for letter in term)
        if tuple(operand.shape) != wanted:
            operands[i] = broadcast_to(operand, wanted)
    return bind(einsum_p, *operands, equation=",".join(inputs) + "->" + output)


# ----------------------------------------------------------------------------- square matrices

def _check_square(name: str, a, complex_ok: bool = False) -> None:
    """``a`` is a (batch of) square floating matrix; ``complex_ok``: complex ones too (the
    ops whose derivative rules hold for complex matrices)."""
    shape = tuple(a.shape)
    if len(shape) < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if shape[-1] != shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are "
                           f"{shape[-2]} by {shape[-1]} matrices")
    if isinstance(a, Tensor) and a._data.dtype.kind not in ("fc" if complex_ok else "f"):
        raise RuntimeError(f"linalg.{name}: Expected a floating point tensor as input. Got "
                           f"{a.dtype.name.capitalize()}")


def _per_matrix(value):
    """A batch-shaped value reshaped to broadcast against a batch of matrices."""
    return reshape(value, tuple(value.shape) + (1, 1))


def _inv_impl(a):
    try:
        return namespace_of(a).linalg.inv(a)
    except np.linalg.LinAlgError:
        raise LinAlgError("linalg.inv: The input matrix is singular, the inversion could not be "
                          "completed.") from None


inv_p = Primitive("inv", _inv_impl, lambda a: (shape_of(a), dtype_of(a)),
                  backward_name="LinalgInvExBackward0",
                  vjp=lambda g, out, needs, a: (-bind(matmul_p, _mT(out),
                                                      bind(matmul_p, g, _mT(out))),),
                  jvp=lambda tangents, out, a: -bind(matmul_p, out,
                                                     bind(matmul_p, tangents[0], out)),
                  saves="output", batch=over_leading_dims(), complex_gradient="holomorphic")


def _det_vjp(g, out, needs, a):
    return (_per_matrix(g * out) * _mT(inv(a)),)


def _det_jvp(tangents, out, a):
    from .reduce import sum
    return out * sum(_mT(inv(a)) * tangents[0], axis=(-2, -1))


det_p = Primitive("det", lambda a: namespace_of(a).linalg.det(a),
                  lambda a: (shape_of(a)[:-2], dtype_of(a)),
                  backward_name="LinalgDetBackward0", vjp=_det_vjp, jvp=_det_jvp,
                  saves="inputs and output", batch=over_leading_dims(),
                  complex_gradient="holomorphic")


def _slogdet_impl(a):
    return namespace_of(a).linalg.slogdet(a)[1]


def _is_complex(x) -> bool:
    return dtype_of(x).kind == "c"


def _logdet_vjp(g, out, needs, a):
    # d logabsdet = Re tr(A^-1 dA): the cotangent is g A^-T, g A^-H for complex A
    return (_per_matrix(g) * (_adjoint(inv(a)) if _is_complex(a) else _mT(inv(a))),)


def _trace_inv_times(a, tangent):
    """``tr(A^-1 dA)``, the tangent of ``log det A``."""
    from .reduce import sum
    return sum(_mT(inv(a)) * tangent, axis=(-2, -1))


def _logdet_jvp(tangents, out, a):
    change = _trace_inv_times(a, tangents[0])
    if _is_complex(change):
        from .complex_numbers import real
        return real(change)
    return change


logabsdet_p = Primitive("logabsdet", _slogdet_impl,
                        lambda a: (shape_of(a)[:-2], backend.real_of(dtype_of(a))),
                        backward_name="LinalgSlogdetBackward0", vjp=_logdet_vjp,
                        jvp=_logdet_jvp, batch=over_leading_dims(), complex_gradient="own")


def _slogdet_sign_vjp(g, out, needs, a):
    if not _is_complex(a):  # a real sign (-1, 0 or 1) is piecewise constant
        return (None,)
    # d sign = i Im(tr(A^-1 dA)) sign: the cotangent is i Im(g conj(sign)) A^-H
    from .complex_numbers import conj, imag
    return (_per_matrix(1j * imag(g * conj(out))) * _adjoint(inv(a)),)


def _slogdet_sign_jvp(tangents, out, a):
    if not _is_complex(a):
        from .creation import zeros_like
        return zeros_like(out)
    from .complex_numbers import imag
    return 1j * imag(_trace_inv_times(a, tangents[0])) * out


# the sign of the determinant: det / |det| for a complex one; a real one's (-1, 0 or 1) has no
# gradient
slogdet_sign_p = Primitive("slogdet_sign", lambda a: namespace_of(a).linalg.slogdet(a)[0],
                           lambda a: (shape_of(a)[:-2], dtype_of(a)),
                           backward_name="LinalgSlogdetBackward0", vjp=_slogdet_sign_vjp,
                           jvp=_slogdet_sign_jvp, saves="inputs and output",
                           batch=over_leading_dims(), complex_gradient="own")


@op(methods=("inverse",))
def inv(A):
    """The inverse of a square matrix (or of each matrix in a batch).

    Example:
        >>> import unigrad as ug
        >>> ug.inv(ug.tensor([[2.0, 0.0], [0.0, 4.0]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.2500]])
    """
    A = _operand(A)
    _check_square("inv", A, complex_ok=True)
    return bind(inv_p, A)


inverse = inv


@op(methods=("det",))
def det(A):
    """The determinant of a square matrix (or of each matrix in a batch).

    Its gradient is ``det(A) * inv(A)^T`` (A must be invertible to differentiate).

    Example:
        >>> import unigrad as ug
        >>> ug.det(ug.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor(-2.)
    """
    A = _operand(A)
    _check_square("det", A, complex_ok=True)
    return bind(det_p, A)


@op(methods=("slogdet",))
def slogdet(A):
    """``(sign, logabsdet)`` of the determinant, without overflow.

    For a real ``A`` the sign is -1, 0 or 1 and has no gradient. For a complex ``A`` it is
    ``det / |det|`` (0 when singular) and is differentiable, as in PyTorch; ``logabsdet`` is
    real either way.

    Example:
        >>> import unigrad as ug
        >>> sign, logabsdet = ug.slogdet(ug.tensor([[-2.0, 0.0], [0.0, 3.0]]))
        >>> sign, logabsdet
        (tensor(-1.), tensor(1.7918))
        >>> sign, logabsdet = ug.linalg.slogdet(ug.tensor([[0.0, 2j], [1.0, 0.0]]))
        >>> sign, logabsdet
        (tensor(-0.-1.j), tensor(0.6931))
    """
    from ..transforms._core import detached
    A = _operand(A)
    _check_square("slogdet", A, complex_ok=True)
    # LAPACK's sign in every mode; a real one (-1, 0 or 1) has no gradient
    sign = bind(slogdet_sign_p, A if _is_complex(A) else detached(A))
    return SlogdetResult(sign, bind(logabsdet_p, A))


@op(methods=("logdet",))
def logdet(A):
    """``log(det(A))``: NaN where a real determinant is negative, as in PyTorch; for a
    complex ``A`` the principal complex logarithm, ``log(sign) + logabsdet``.

    Example:
        >>> import unigrad as ug
        >>> ug.logdet(ug.tensor([[2.0, 0.0], [0.0, 3.0]]))
        tensor(1.7918)
        >>> ug.logdet(ug.tensor([[-1.0 + 0j, 0.0], [0.0, 1.0]]))
        tensor(0.+3.1416j)
    """
    from .elementwise import where
    sign, logabsdet = slogdet(A)
    if _is_complex(sign):
        from .elementwise import log
        return log(sign) + logabsdet
    return where(sign < 0, float("nan"), logabsdet)


class SlogdetResult(tuple):
    """``(sign, logabsdet)`` with named fields, like ``torch.return_types.slogdet``."""

    __slots__ = ()

    def __new__(cls, sign, logabsdet):
        return super().__new__(cls, (sign, logabsdet))

    @property
    def sign(self):
        return self[0]

    @property
    def logabsdet(self):
        return self[1]


# ----------------------------------------------------------------------------- solve

def _solve_impl(a, b):
    try:
        return namespace_of(a).linalg.solve(a, b)
    except np.linalg.LinAlgError:
        raise LinAlgError("linalg.solve: The solver failed because the input matrix is "
                          "singular.") from None


def _solve_rule(a, b):
    a_shape, b_shape = shape_of(a), shape_of(b)
    batch = broadcast_shapes(a_shape[:-2], b_shape[:-2])
    return batch + b_shape[-2:], np.result_type(dtype_of(a), dtype_of(b))


def _solve_vjp(g, out, needs, a, b):
    grad_b = bind(solve_p, _mT(a), g)
    grad_a = -bind(matmul_p, grad_b, _mT(out)) if needs[0] else None
    return (sum_to_shape(grad_a, tuple(a.shape)) if grad_a is not None else None,
            sum_to_shape(grad_b, tuple(b.shape)) if needs[1] else None)


def _solve_jvp(tangents, out, a, b):
    tangent_a, tangent_b = tangents
    rhs = tangent_b
    if tangent_a is not None:
        product = bind(matmul_p, tangent_a, out)
        rhs = -product if rhs is None else rhs - product
    return bind(solve_p, a, rhs)


solve_p = Primitive("solve", _solve_impl, _solve_rule, vjp=_solve_vjp,
                    jvp=_solve_jvp, backward_name="LinalgSolveExBackward0",
                    saves="inputs and output", batch=over_leading_dims(),
                    complex_gradient="holomorphic")


def solve(A, B, *, left: bool = True):
    """The solution ``X`` of ``A X = B`` (``X A = B`` with ``left=False``), batched.

    ``B`` is a vector (or a batch of vectors) when it has one dimension less than
    ``A`` and matches ``A.shape[:-1]``, as in ``torch.linalg.solve``.

    Example:
        >>> import unigrad as ug
        >>> ug.solve(ug.tensor([[2.0, 0.0], [0.0, 4.0]]), ug.tensor([2.0, 2.0]))
        tensor([1.0000, 0.5000])
    """
    A, B = _matrix_operands(A, B, "solve")
    _check_square("solve", A, complex_ok=True)
    a_shape, b_shape = tuple(A.shape), tuple(B.shape)
    vector = len(b_shape) == 1 or (len(b_shape) == len(a_shape) - 1 and b_shape == a_shape[:-1])
    if not left:
        if vector:
            raise RuntimeError("linalg.solve: Vector broadcasting of the left hand side is not "
                               "supported for left=False. In this case linalg.solve is "
                               "equivalent to B / A.squeeze(-1)")
        return _mT(solve(_mT(A), _mT(B)))
    matrix = reshape(B, b_shape + (1,)) if vector else B
    m_shape = tuple(matrix.shape)
    if m_shape[-2] != a_shape[-1]:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"AX = B ({_dims(a_shape[-2:])} and {_dims(m_shape[-2:])})")
    try:
        broadcast_shapes(a_shape[:-2], m_shape[:-2])
    except ValueError:
        raise RuntimeError(f"linalg.solve: the batch dimensions of A {list(a_shape)} and B "
                           f"{list(b_shape)} cannot be broadcast together") from None
    result = bind(solve_p, A, matrix)
    return reshape(result, tuple(result.shape)[:-1]) if vector else result


# ----------------------------------------------------------------------------- cholesky

def _cholesky_impl(a):
    try:
        return namespace_of(a).linalg.cholesky(a)
    except np.linalg.LinAlgError:
        raise LinAlgError("linalg.cholesky: The factorization could not be completed because "
                          "the input is not positive-definite.") from None


def _halved_lower_mask(size: int, like):
    """The mask (of ``like``'s dtype) keeping the lower triangle with a halved diagonal."""
    xp = namespace_of(_raw(like))
    dtype = _raw_dtype(like)
    return xp.tri(size, k=-1, dtype=dtype) + xp.eye(size, dtype=dtype) * 0.5


def _lower_mask(size: int, like, diagonal: bool):
    """The lower-triangle mask (of ``like``'s real dtype), with or without the diagonal."""
    xp = namespace_of(_raw(like))
    return xp.tri(size, k=0 if diagonal else -1, dtype=backend.real_of(_raw_dtype(like)))


def _cholesky_vjp(g, out, needs, a):
    # Murray (2016), as PyTorch's cholesky_backward:
    # A_bar = L^-H Phi L^-1 with Phi = (tril(L^H L_bar) + tril(L^H L_bar, -1)^H) / 2
    size = out.shape[-1]
    product = bind(matmul_p, _adjoint(out), g)
    phi = (product * _lower_mask(size, g, True) +
           _adjoint(product * _lower_mask(size, g, False))) * 0.5
    left = bind(solve_p, _adjoint(out), phi)
    return (_adjoint(bind(solve_p, _adjoint(out), _adjoint(left))),)


def _cholesky_jvp(tangents, out, a):
    # dL = L Phi(L^-1 dA L^-H), Phi taking the lower triangle with a halved diagonal
    left = bind(solve_p, out, tangents[0])
    middle = _adjoint(bind(solve_p, out, _adjoint(left)))
    return bind(matmul_p, out, middle * _halved_lower_mask(out.shape[-1], tangents[0]))


cholesky_p = Primitive("cholesky", _cholesky_impl, lambda a: (shape_of(a), dtype_of(a)),
                       vjp=_cholesky_vjp, jvp=_cholesky_jvp,
                       backward_name="LinalgCholeskyExBackward0", saves="output",
                       batch=over_leading_dims(), complex_gradient="own")


def cholesky(A, *, upper: bool = False):
    """The Cholesky factor ``L`` (lower) of a symmetric positive-definite ``A = L L^T``.

    Only the lower triangle of ``A`` is read; ``upper=True`` returns ``L^T``.

    Example:
        >>> import unigrad as ug
        >>> ug.cholesky(ug.tensor([[4.0, 2.0], [2.0, 5.0]]))
        tensor([[2., 0.],
                [1., 2.]])
    """
    A = _operand(A)
    _check_square("cholesky", A, complex_ok=True)
    factor = bind(cholesky_p, A)
    return _adjoint(factor) if upper else factor


# ----------------------------------------------------------------------------- norms

def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim: bool = False):
    """Matrix norm over the two dimensions ``dim``: ``'fro'``, ``'nuc'``, ``1``, ``-1``,
    ``2``, ``-2``, ``inf``, ``-inf`` (``'nuc'``/``2``/``-2`` from the singular values).

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.matrix_norm(ug.tensor([[1.0, -2.0], [3.0, 4.0]]), ord=1)
        tensor(6.)
    """
    from .elementwise import abs
    from .reduce import amax, amin, sum, vector_norm
    A = _operand(A)
    ndim = len(A.shape)
    if ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    rows, columns = (d % ndim for d in dim)
    if ord == "fro":
        return vector_norm(A, 2, (rows, columns), keepdim)
    if ord in (1, -1, float("inf"), float("-inf")):
        summed, kept = (rows, columns) if ord in (1, -1) else (columns, rows)
        totals = sum(abs(A), summed, keepdim=True)
        pick = amax if ord > 0 else amin
        result = pick(totals, kept, keepdim=True)
        if keepdim:
            return result
        return reshape(result, tuple(d for i, d in enumerate(A.shape) if i not in (rows, columns)))
    if ord in ("nuc", 2, -2):
        from .decompositions import spectral_norms
        return spectral_norms(A, ord, rows, columns, keepdim)
    raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")


def linalg_norm(A, ord=None, dim=None, keepdim: bool = False, *, dtype=None):
    """``torch.linalg.norm``: a vector norm, or a matrix norm for 2-D ``dim`` / 2-D input.

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.norm(ug.tensor([[3.0, 0.0], [0.0, 4.0]]))
        tensor(5.)
    """
    from .elementwise import cast
    from .reduce import vector_norm
    A = _operand(A)
    if dtype is not None:
        A = cast(A, dtype)
    if isinstance(dim, int):
        dim = (dim,)
    if ord is None:
        return vector_norm(A, 2, dim, keepdim)
    if dim is None:
        if len(A.shape) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must "
                               f"be 1D or 2D. Got {len(A.shape)}D.")
        dim = tuple(range(len(A.shape)))
    if len(dim) == 2:
        return matrix_norm(A, ord, dim, keepdim)
    if isinstance(ord, str):
        raise RuntimeError(f"linalg.norm: If dim is specified, it mut be of length 1 or 2. Got "
                           f"{list(dim)} with ord={ord!r}")
    return vector_norm(A, ord, dim, keepdim)


@op(methods=("cholesky",))
def _cholesky_method(self, upper: bool = False):
    """``Tensor.cholesky(upper=False)``: :func:`cholesky` of this matrix (PyTorch's method)."""
    return cholesky(self, upper=upper)
