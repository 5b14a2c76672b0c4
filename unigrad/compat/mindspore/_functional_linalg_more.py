"""More ``mindspore.ops`` products, linear algebra and Fourier functions, spelled from
one table over the core's ops (the rows and the factory work as in
:mod:`._functional_more`): ``bmm``, ``mm``, ``mv``, ``dot``, ``outer``, ``einsum``,
``det``, ``inverse``, ``slogdet``, ``cholesky``, the norms, ``hfft2``, ``iou``...
Imported into :mod:`unigrad.compat.mindspore.ops`.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> a = ms.Tensor([[4.0, 1.0], [1.0, 3.0]])
    >>> print(ops.det(a), ops.mv(a, ms.Tensor([1.0, 2.0])))
    11.0 [6. 7.]
    >>> sign, logabs = ops.slogdet(a)
    >>> print(sign, logabs)
    1.0 2.3978953
"""

from __future__ import annotations

from ... import fft as _fft
from ... import linalg as _linalg
from ... import ops as _ug
from ._functional_more import _publish
from ._tensor import _axes
from .dtype import to_ms_dtype
from .ops import _dtype_or_default, _tensors


def _matrix_solve(matrix, rhs, adjoint: bool):
    if adjoint:
        matrix = _ug.conj(_ug.transpose(matrix, -2, -1))
    return _linalg.solve(matrix, rhs)


def _box_area(boxes):
    """The area of (x0, y0, x1, y1) boxes in MindSpore's pixel convention (edges included)."""
    return _ug.mul(_ug.add(_ug.sub(boxes[..., 2], boxes[..., 0]), 1.0),
                   _ug.add(_ug.sub(boxes[..., 3], boxes[..., 1]), 1.0))


def _iou(anchor_boxes, gt_boxes, mode: str):
    """The (M, N) overlaps of M gt_boxes and N anchor_boxes, over their union ('iou') or
    over the gt box ('iof')."""
    if mode not in ("iou", "iof"):
        raise KeyError(f"For 'iou', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
    anchors, truths = _ug.unsqueeze(anchor_boxes, 0), _ug.unsqueeze(gt_boxes, 1)

    def extent(low: int, high: int):
        start = _ug.maximum(anchors[..., low], truths[..., low])
        end = _ug.minimum(anchors[..., high], truths[..., high])
        return _ug.clamp(_ug.add(_ug.sub(end, start), 1.0), min=0.0)

    overlap = _ug.mul(extent(0, 2), extent(1, 3))
    if mode == "iof":
        return _ug.div(overlap, _box_area(truths))
    return _ug.div(overlap, _ug.sub(_ug.add(_box_area(anchors), _box_area(truths)), overlap))


def _cholesky(input_x, upper: bool):
    if input_x.ndim < 2 or input_x.shape[-1] != input_x.shape[-2]:
        raise ValueError(f"For Cholesky, input x must be batch squares, but got shape "
                         f"{list(input_x.shape)}")
    return _linalg.cholesky(input_x, upper=upper)


def _dot(input, other):
    contracted = other.ndim - 2 if other.ndim > 1 else 0
    return _ug.tensordot(input, other, dims=([input.ndim - 1], [contracted]))


def _sign_and_log(input):
    sign, logabs = _linalg.slogdet(input)
    return sign, logabs


_ROWS = (
    # products and linear algebra
    ("fftfreq", lambda n, d=1.0, dtype=None:
        _fft.fftfreq(n, d, dtype=_dtype_or_default(dtype)),
     "the sample frequencies of an n-point FFT"),
    ("rfftfreq", lambda n, d=1.0, dtype=None:
        _fft.rfftfreq(n, d, dtype=_dtype_or_default(dtype)),
     "the sample frequencies of an n-point real FFT"),
    ("hfft2", lambda input, s=None, dim=(-2, -1), norm=None: _fft.hfft2(input, s, dim, norm),
     "the 2-D FFT of a Hermitian-symmetric input"),
    ("hfftn", lambda input, s=None, dim=None, norm=None: _fft.hfftn(input, s, dim, norm),
     "the N-D FFT of a Hermitian-symmetric input"),
    ("ihfft2", lambda input, s=None, dim=(-2, -1), norm=None:
        _fft.ihfft2(input, s, dim, norm), "the inverse of hfft2"),
    ("ihfftn", lambda input, s=None, dim=None, norm=None: _fft.ihfftn(input, s, dim, norm),
     "the inverse of hfftn"),
    ("cond", lambda A, p=None: _linalg.cond(A, p), "the condition number in the p-norm"),
    ("orgqr", lambda input, input2: _linalg.householder_product(input, input2),
     "the Q of a QR factorisation from its Householder reflectors"),
    ("bmm", lambda input_x, mat2: _ug.bmm(input_x, mat2), "batched matrix products"),
    ("mm", lambda input, mat2: _ug.mm(input, mat2), "the matrix product"),
    ("mv", lambda mat, vec: _ug.mv(mat, vec), "the matrix-vector product"),
    ("dot", lambda input, other: _dot(input, other),
     "the product contracting input's last axis with other's second-to-last"),
    ("ger", lambda input, vec2: _ug.outer(input, vec2), "the outer product"),
    ("outer", lambda input, vec2: _ug.outer(input, vec2), "the outer product"),
    ("vecdot", lambda x, y, *, axis=-1: _linalg.vecdot(x, y, dim=axis),
     "sum(conj(x) * y) along axis"),
    ("einsum", lambda equation, *operands: _ug.einsum(
        equation, *_tensors(list(operands), "einsum", "operands")),
     "Einstein summation of the operands"),
    ("det", lambda input: _linalg.det(input), "the determinant"),
    ("matrix_determinant", lambda input: _linalg.det(input), "the determinant"),
    ("inverse", lambda input: _linalg.inv(input), "the matrix inverse"),
    ("logdet", lambda input: _ug.logdet(input), "log of the determinant"),
    ("slogdet", lambda input: _sign_and_log(input), "(sign, log |determinant|)"),
    ("log_matrix_determinant", lambda input: _sign_and_log(input),
     "(sign, log |determinant|)"),
    ("matrix_solve", lambda matrix, rhs, adjoint=False: _matrix_solve(matrix, rhs, adjoint),
     "X with matrix @ X = rhs (the conjugate transpose of matrix when adjoint)"),
    ("iou", lambda anchor_boxes, gt_boxes, mode="iou": _iou(anchor_boxes, gt_boxes, mode),
     "the (M, N) intersection over union (or over the gt box: 'iof') of the boxes"),
    ("cholesky", lambda input_x, upper=False: _cholesky(input_x, upper),
     "the Cholesky factor (lower unless upper)"),
    ("vector_norm", lambda x, ord=2, axis=None, keepdims=False, *, dtype=None:
        _linalg.vector_norm(x, ord, dim=_axes(axis), keepdim=keepdims,
                            dtype=None if dtype is None else to_ms_dtype(dtype)),
     "the vector ord-norm (along axis)"),
    ("matrix_norm", lambda A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None:
        _linalg.matrix_norm(A if dtype is None else _ug.cast(A, to_ms_dtype(dtype)), ord,
                            dim=tuple(axis), keepdim=keepdims),
     "the matrix ord-norm over the two axes"),
    ("norm", lambda A, ord=None, dim=None, keepdim=False, *, dtype=None:
        _linalg.norm(A, ord, dim=_axes(dim), keepdim=keepdim,
                     dtype=None if dtype is None else to_ms_dtype(dtype)),
     "the vector or matrix norm"),)

__all__ = _publish(_ROWS, globals(), __name__)
