"""``tf.linalg``: the diagonal ops (``diag``, ``diag_part``, ``tensor_diag``, ``trace``),
``matmul`` and the decompositions, solvers and matrix helpers of the ``_decompositions``,
``_linalg_solvers`` and ``_matrix_ops`` modules, with TensorFlow's argument names, on unigrad's
differentiable ops.

Only a single diagonal ``k`` (an int) with zero padding and the default square shape is
supported; a band of diagonals (``k=(low, high)``), ``num_rows``/``num_cols`` and
``padding_value`` other than 0 raise ``NotImplementedError``.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.linalg.diag_part(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 4.], dtype=float32)>
"""

from __future__ import annotations

import unigrad as ug
from unigrad.ops.layout import tensor_diagonal

from ._array_ops import eye, matmul
from ._banded import banded_triangular_solve, tridiagonal_matmul, tridiagonal_solve
from ._decompositions import eigh, eigvalsh, lstsq, matrix_rank, norm, pinv, qr, svd
from ._integer_statistics import cross
from ._linalg_solvers import (
    cholesky_solve,
    det,
    expm,
    inv,
    logdet,
    lu,
    lu_reconstruct,
    lu_solve,
    matvec,
    slogdet,
    solve,
    triangular_solve,
)
from ._matrix_ops import (
    adjoint,
    band_part,
    cholesky,
    global_norm,
    lu_matrix_inverse,
    matrix_transpose,
    normalize,
    set_diag,
    tensor_diag_part,
)
from ._padding_norms import einsum
from ._products import tensordot
from ._reductions import l2_normalize
from ._tensor import Tensor, operand
from .math import _ret

__all__ = ["diag", "diag_part", "tensor_diag", "trace", "matmul", "cross"]
__all__ += ["tensordot"]
__all__ += ["eigh", "eigvalsh", "lstsq", "matrix_rank", "norm", "pinv", "qr", "svd"]
__all__ += ["cholesky_solve", "det", "expm", "inv", "logdet", "lu", "lu_reconstruct", "lu_solve",
            "matvec", "slogdet", "solve", "triangular_solve"]
__all__ += ["adjoint", "band_part", "cholesky", "einsum", "eye", "global_norm", "l2_normalize",
            "lu_matrix_inverse", "matrix_transpose", "normalize", "set_diag", "tensor_diag_part"]
__all__ += ["banded_triangular_solve", "tridiagonal_matmul", "tridiagonal_solve"]


def _single_diagonal(k, name: str) -> int:
    if isinstance(k, (list, tuple)):
        if len(k) == 2 and k[0] == k[1]:
            return int(k[0])
        raise NotImplementedError(f"tf.linalg.{name}: only a single diagonal k is supported, "
                                  f"got k={k!r}")
    return int(k)


def _zero_padding(padding_value, name: str) -> None:
    if padding_value != 0:
        raise NotImplementedError(f"tf.linalg.{name}: only padding_value=0 is supported")


def diag(diagonal, name: str = "diag", k=0, num_rows: int = -1, num_cols: int = -1,
         padding_value=0, align: str = "RIGHT_LEFT") -> Tensor:
    """Batched matrices whose ``k``-th diagonal holds the last axis of ``diagonal``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.diag(tf.constant([1.0, 2.0])).numpy()
        array([[1., 0.],
               [0., 2.]], dtype=float32)
    """
    x = operand(diagonal, "diagonal")
    offset = _single_diagonal(k, "diag")
    _zero_padding(padding_value, "diag")
    size = int(x.shape[-1]) + abs(offset) if x.ndim else 1
    if num_rows not in (-1, size) or num_cols not in (-1, size):
        raise NotImplementedError("tf.linalg.diag: only square outputs (num_rows = num_cols "
                                  "= the default) are supported")
    return _ret(ug.diag_embed(x, offset), x)


def diag_part(input, name: str = "diag_part", k=0, padding_value=0,
              align: str = "RIGHT_LEFT") -> Tensor:
    """The ``k``-th diagonal of the innermost matrices of ``input``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.diag_part(tf.constant([[1, 2], [3, 4]]), k=1).numpy()
        array([2], dtype=int32)
    """
    x = operand(input, "input")
    if x.ndim < 2:
        raise ValueError(f"input must be at least 2-dimensional, got shape {tuple(x.shape)}")
    _zero_padding(padding_value, "diag_part")
    return _ret(ug.diagonal(x, _single_diagonal(k, "diag_part"), -2, -1), x)


def tensor_diag(diagonal, name: str | None = None) -> Tensor:
    """The rank-``2k`` tensor with ``diagonal`` (rank ``k``) on its diagonal.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.tensor_diag(tf.constant([1.0, 2.0])).numpy()
        array([[1., 0.],
               [0., 2.]], dtype=float32)
    """
    x = operand(diagonal, "diagonal")
    if x.ndim < 1:
        raise ValueError("tensor_diag: input must be at least 1-dimensional")
    return _ret(tensor_diagonal(x), x)


def trace(x, name: str | None = None) -> Tensor:
    """The sum of the main diagonal of each innermost matrix (keeps ``x``'s dtype).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.linalg.trace(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
        <tf.Tensor: shape=(), dtype=float32, numpy=5.0>
    """
    x = operand(x, "x")
    if x.ndim < 2:
        raise ValueError(f"trace: x must be at least 2-dimensional, got shape {tuple(x.shape)}")
    return _ret(ug.sum(ug.diagonal(x, 0, -2, -1), -1).to(x.dtype), x)
