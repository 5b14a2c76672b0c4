"""TensorFlow's matrix helpers: ``tf.linalg.adjoint``, ``matrix_transpose``, ``band_part``,
``set_diag``, ``tensor_diag_part``, ``cholesky``, ``normalize``, ``lu_matrix_inverse``,
``global_norm`` and ``tf.clip_by_global_norm``, as composites of unigrad's ops.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.linalg.band_part(tf.ones((3, 3)), 0, 1).numpy()
    array([[1., 1., 0.],
           [0., 1., 1.],
           [0., 0., 1.]], dtype=float32)
"""

from __future__ import annotations

import math

import numpy as np

import unigrad as ug
from unigrad.tensor import Tensor as _UgTensor

from ._decompositions import norm
from ._linalg_solvers import inv, lu_reconstruct
from ._tensor import Tensor, as_tf, constant, operand
from .errors import InvalidArgumentError
from .math import _ret

__all__ = ["adjoint", "matrix_transpose", "band_part", "set_diag", "tensor_diag_part",
           "cholesky", "normalize", "lu_matrix_inverse", "global_norm", "clip_by_global_norm"]


def _matrices(value, name: str) -> _UgTensor:
    x = operand(value, name)
    if x.ndim < 2:
        raise ValueError(f"{name} must be at least 2-D (a batch of matrices), got shape "
                         f"{tuple(x.shape)}")
    return x


def matrix_transpose(a, name: str = "matrix_transpose", conjugate: bool = False) -> Tensor:
    """The transpose of the innermost two axes (conjugated with ``conjugate=True``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.matrix_transpose(tf.constant([[1, 2, 3]])).numpy()
        array([[1],
               [2],
               [3]], dtype=int32)
    """
    x = _matrices(a, "a")
    result = ug.transpose(x, -2, -1)
    return _ret(ug.conj(result) if conjugate and x.is_complex() else result, x)


def adjoint(matrix, name: str | None = None) -> Tensor:
    """The conjugate transpose of the innermost two axes.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.adjoint(tf.constant([[1 + 1j, 2]])).numpy()
        array([[1.-1.j],
               [2.-0.j]])
    """
    return matrix_transpose(matrix, conjugate=True)


def band_part(input, num_lower, num_upper, name: str | None = None) -> Tensor:
    """``input`` with everything outside the band of ``num_lower`` subdiagonals and
    ``num_upper`` superdiagonals zeroed (a negative count keeps the whole triangle).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.band_part(tf.ones((3, 3), tf.int32), 1, 0).numpy()
        array([[1, 0, 0],
               [1, 1, 0],
               [0, 1, 1]], dtype=int32)
    """
    x = _matrices(input, "input")
    rows, columns = x.shape[-2:]
    lower, upper = int(num_lower), int(num_upper)
    if lower > rows or upper > columns:
        raise InvalidArgumentError(None, None, f"num_lower must be negative or less or equal to "
                                   f"number of rows ({rows}) got: {lower}" if lower > rows else
                                   f"num_upper must be negative or less or equal to number of "
                                   f"columns ({columns}) got: {upper}")
    offset = np.arange(columns)[None, :] - np.arange(rows)[:, None]
    keep = np.ones((rows, columns), bool)
    if lower >= 0:
        keep &= offset >= -lower
    if upper >= 0:
        keep &= offset <= upper
    return _ret(ug.where(ug.tensor(keep), x, ug.zeros_like(x)), x)


def set_diag(input, diagonal, name: str = "set_diag", k=0, align: str = "RIGHT_LEFT") -> Tensor:
    """``input`` with its main diagonal (of each innermost matrix) replaced by
    ``diagonal`` (shape ``input.shape[:-2] + [min(rows, columns)]``); only ``k=0``.

    Raises:
        NotImplementedError: For ``k`` other than 0.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.set_diag(tf.zeros((2, 3)), [1.0, 2.0]).numpy()
        array([[1., 0., 0.],
               [0., 2., 0.]], dtype=float32)
    """
    x = _matrices(input, "input")
    if k not in (0, (0, 0), [0, 0]):
        raise NotImplementedError(f"tf.linalg.set_diag: only k=0 is supported, got k={k!r}")
    values = diagonal if isinstance(diagonal, _UgTensor) else constant(diagonal, dtype=x.dtype)
    rows, columns = x.shape[-2:]
    size = min(rows, columns)
    if tuple(values.shape) != tuple(x.shape[:-2]) + (size,):
        raise ValueError(f"diagonal must have shape {list(x.shape[:-2]) + [size]}, got "
                         f"{list(values.shape)}")
    mask = ug.tensor(np.eye(rows, columns, dtype=bool))
    padded = ug.diag_embed(values)
    if (rows, columns) != (size, size):
        padded = ug.nn.functional.pad(padded, (0, columns - size, 0, rows - size))
    return _ret(ug.where(mask, padded, x), x, values)


def tensor_diag_part(input, name: str | None = None) -> Tensor:
    """The diagonal of a rank-``2k`` tensor of shape ``D + D``: ``out[i] = input[i, i]``.

    Raises:
        ValueError: When the shape is not two equal halves.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.tensor_diag_part(tf.constant([[1, 2], [3, 4]])).numpy()
        array([1, 4], dtype=int32)
    """
    x = operand(input, "input")
    half = x.ndim // 2
    if x.ndim % 2 or tuple(x.shape[:half]) != tuple(x.shape[half:]):
        raise ValueError(f"input must have an even rank and shape D + D, got {tuple(x.shape)}")
    size = math.prod(x.shape[:half])
    square = ug.reshape(x, (size, size))
    return _ret(ug.reshape(ug.diagonal(square), tuple(x.shape[:half])), x)


def cholesky(input, name: str | None = None) -> Tensor:
    """The lower Cholesky factor ``L`` of each (Hermitian positive-definite) matrix.

    Raises:
        InvalidArgumentError: When a matrix is not positive definite.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.cholesky(tf.constant([[4.0, 2.0], [2.0, 5.0]])).numpy()
        array([[2., 0.],
               [1., 2.]], dtype=float32)
    """
    x = _matrices(input, "input")
    try:
        return _ret(ug.linalg.cholesky(x), x)
    except (RuntimeError, ValueError, np.linalg.LinAlgError) as error:
        raise InvalidArgumentError(None, None, f"Cholesky decomposition was not successful. The"
                                   f" input might not be valid. ({error})") from None


def normalize(tensor, ord="euclidean", axis=None, name: str | None = None) -> tuple:
    """``(tensor / norm, norm)`` with :func:`tf.norm <norm>`'s ``ord`` and ``axis`` (the norm
    keeps its reduced axes).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> unit, size = tf.linalg.normalize(tf.constant([3.0, 4.0]))
        >>> unit.numpy(), size.numpy()
        (array([0.6, 0.8], dtype=float32), array([5.], dtype=float32))
    """
    x = operand(tensor, "tensor")
    size = norm(x, ord=ord, axis=axis, keepdims=True)
    return as_tf(x / size), size


def lu_matrix_inverse(lower_upper, perm, validate_args: bool = False,
                      name: str | None = None) -> Tensor:
    """The inverse of the matrix whose :func:`tf.linalg.lu <lu>` factors are given.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> factors, perm = tf.linalg.lu(tf.constant([[2.0, 0.0], [0.0, 4.0]]))
        >>> tf.linalg.lu_matrix_inverse(factors, perm).numpy()
        array([[0.5 , 0.  ],
               [0.  , 0.25]], dtype=float32)
    """
    return inv(lu_reconstruct(lower_upper, perm))


def _tensor_list(t_list, name: str) -> list:
    if isinstance(t_list, (str, _UgTensor)) or not hasattr(t_list, "__iter__"):
        raise TypeError(f"`{name}` should be a sequence of tensors. Received {type(t_list)}.")
    return [None if t is None else operand(t, name) for t in t_list]


def global_norm(t_list, name: str | None = None) -> Tensor:
    """``sqrt(sum(l2norm(t) ** 2 for t in t_list))``, None entries ignored.

    Raises:
        TypeError: When ``t_list`` is not a sequence.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.global_norm([tf.constant([3.0]), None, tf.constant([[4.0]])]).numpy()
        np.float32(5.0)
    """
    tensors = [t for t in _tensor_list(t_list, "t_list") if t is not None]
    if not tensors:
        return constant(0.0)
    total = sum(ug.sum(ug.square(t)) for t in tensors)
    return as_tf(ug.sqrt(total))


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name: str | None = None) -> tuple:
    """``(clipped, global_norm)``: every tensor scaled by
    ``clip_norm / max(global_norm, clip_norm)`` (None entries stay None).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> clipped, total = tf.clip_by_global_norm([tf.constant([3.0, 4.0])], 1.0)
        >>> clipped[0].numpy(), total.numpy()
        (array([0.6, 0.8], dtype=float32), np.float32(5.0))
    """
    tensors = _tensor_list(t_list, "t_list")
    total = global_norm(tensors) if use_norm is None else operand(use_norm, "use_norm")
    limit = float(clip_norm)
    scale = limit * ug.minimum(1.0 / total, ug.tensor(1.0 / limit, dtype=total.dtype))
    clipped = [None if t is None else as_tf(t * scale.to(t.dtype)) for t in tensors]
    return clipped, total
