"""Matrix decompositions (SVD, symmetric eigendecomposition, QR) and the spectral
functions built on them (pseudo-inverse, rank, condition number, least squares).

Primitives: ``linalg_svd``, ``linalg_eigh`` and ``linalg_qr`` each compute one factor
(``part``) of the decomposition with NumPy's LAPACK routines, batched over leading
dimensions; their vjps and jvps are PyTorch's (``svd_backward``, ``linalg_eig_backward``,
``linalg_qr_backward``) written with unigrad ops, so they differentiate again. As in
PyTorch, the gradients through singular vectors / eigenvectors are only defined for
distinct singular values / eigenvalues (repeated ones give inf/NaN, as torch's do),
and the gradients of the values alone are always defined. ``linalg_pinv`` is a
primitive with PyTorch's ``pinv_backward``/``pinv_jvp``. Only real float32/float64
inputs are supported (complex dtypes are a later task).

Example:
    >>> import unigrad as ug
    >>> ug.linalg.svdvals(ug.tensor([[3.0, 0.0], [0.0, -4.0]]))
    tensor([4., 3.])
    >>> ug.linalg.eigvalsh(ug.tensor([[2.0, 1.0], [1.0, 2.0]]))
    tensor([1., 3.])
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections import OrderedDict, namedtuple

import numpy as np

from .. import backend
from ..interpreters.batching import over_leading_dims
from ..tensor import Tensor
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, shape_of
from .complex_numbers import real, squared_magnitude
from .linalg import _adjoint, _operand, matmul_p, solve_p
from .registry import op

__all__ = ["svd", "qr", "pinverse"]

SvdResult = namedtuple("linalg_svd", ("U", "S", "Vh"))
TorchSvdResult = namedtuple("svd", ("U", "S", "V"))
EighResult = namedtuple("linalg_eigh", ("eigenvalues", "eigenvectors"))
QrResult = namedtuple("linalg_qr", ("Q", "R"))
TorchQrResult = namedtuple("qr", ("Q", "R"))
LstsqResult = namedtuple("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))


def _mm(a, b):
    return bind(matmul_p, a, b)


def _rows(values):
    """``(..., k) -> (..., 1, k)``: scales the columns of a matrix."""
    from .shape import unsqueeze
    return unsqueeze(values, -2)


def _columns(values):
    """``(..., k) -> (..., k, 1)``: scales the rows of a matrix."""
    from .shape import unsqueeze
    return unsqueeze(values, -1)


def _eye_like(size: int, like):
    dtype = like._data.dtype if isinstance(like, Tensor) else np.dtype(like.dtype)
    return np.eye(size, dtype=dtype)


def _gaps(values):
    """``E[i, j] = values[j] - values[i]`` with ones on the diagonal (PyTorch's ``E``)."""
    size = tuple(values.shape)[-1]
    return _rows(values) - _columns(values) + _eye_like(size, values)


def _divide(numerator, denominator):
    with np.errstate(divide="ignore", invalid="ignore"):
        return numerator / denominator


def _check_matrix(name: str, A, complex_ok: bool = False) -> None:
    """``A`` is a (batch of) float32/float64 matrix; ``complex_ok``: complex64/128 too."""
    from ._dtypes import torch_dtype_name
    shape = tuple(A.shape)
    if len(shape) < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    dtype = A._data.dtype if isinstance(A, Tensor) else np.dtype(A.dtype)
    if dtype.kind not in ("fc" if complex_ok else "f"):
        raise RuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as "
                           f"input. Got {torch_dtype_name(dtype)}")
    if dtype.itemsize < 4:  # LAPACK has no half precision (nor has PyTorch's CPU)
        raise NotImplementedError(f'"linalg_{name}_cpu" not implemented for '
                                  f"'{torch_dtype_name(dtype)}'")


# ----------------------------------------------------------------------------- LAPACK calls

# ``linalg.svd`` binds one primitive per factor (and the vjps bind them again): the last few
# factorizations are kept, keyed by the input's bytes, so each costs one LAPACK call. Callers
# get copies, so writing into a result never changes the cache.
_FACTORIZATIONS: OrderedDict = OrderedDict()
_FACTORIZATIONS_LOCK = threading.Lock()
_KEPT = 4
_BUDGET = 256 * 2**20  # bytes: older factorizations go first


def _key(kind: str, a, flavour) -> tuple | None:
    if type(a) is not np.ndarray:
        return None
    data = np.ascontiguousarray(a)
    return (kind, flavour, data.shape, data.dtype.str, hashlib.blake2b(data).digest())


def _cached(kind: str, a, flavour):
    key = _key(kind, a, flavour)
    if key is None:
        return None
    with _FACTORIZATIONS_LOCK:
        return _FACTORIZATIONS.get(key)


def _factorization(kind: str, a, flavour, compute):
    key = _key(kind, a, flavour)
    if key is None:
        return compute()
    with _FACTORIZATIONS_LOCK:
        factors = _FACTORIZATIONS.get(key)
    if factors is not None:
        return factors
    factors = tuple(compute())
    with _FACTORIZATIONS_LOCK:  # (threads may factorize the same input twice; both agree)
        _FACTORIZATIONS[key] = factors
        while len(_FACTORIZATIONS) > _KEPT or (
                len(_FACTORIZATIONS) > 1 and sum(
                    f.nbytes for kept in _FACTORIZATIONS.values() for f in kept) > _BUDGET):
            _FACTORIZATIONS.popitem(last=False)
    return factors


# ----------------------------------------------------------------------------- svd

def _svd_impl(a, part, full_matrices):
    if part == "S":
        cached = _cached("svd", a, False) or _cached("svd", a, True)
        return cached[1].copy() if cached else np.linalg.svd(a, compute_uv=False)
    u, s, vh = _factorization("svd", a, full_matrices,
                              lambda: np.linalg.svd(a, full_matrices=full_matrices))
    return (u if part == "U" else vh).copy()


def _svd_rule(a, part, full_matrices):
    shape = shape_of(a)
    m, n = shape[-2:]
    k = min(m, n)
    batch = shape[:-2]
    if part == "S":  # real, also for complex input
        return batch + (k,), backend.real_of(np.dtype(dtype_of(a)))
    if part == "U":
        return batch + (m, m if full_matrices else k), dtype_of(a)
    return batch + (n if full_matrices else k, n), dtype_of(a)


def _svd_factors(a, full_matrices: bool):
    """``(U, S, Vh)`` of ``a`` narrowed to ``k = min(m, n)`` vectors (from the same LAPACK
    call flavour as the forward, so the signs agree)."""
    from .shape import narrow
    u = bind(svd_p, a, part="U", full_matrices=full_matrices)
    s = bind(svd_p, a, part="S", full_matrices=full_matrices)
    vh = bind(svd_p, a, part="Vh", full_matrices=full_matrices)
    k = tuple(s.shape)[-1]
    if full_matrices:
        u, vh = narrow(u, -1, 0, k), narrow(vh, -2, 0, k)
    return u, s, vh


def _svd_vjp(g, out, needs, a, part, full_matrices):
    from .shape import narrow
    u, s, vh = _svd_factors(a, full_matrices)
    m, n = tuple(a.shape)[-2:]
    k = min(m, n)
    if part == "S":
        return (_mm(u, _columns(g) * vh) if m >= n else _mm(u * _rows(g), vh),)
    gaps = _gaps(s * s)
    if part == "U":
        gu = narrow(g, -1, 0, k) if full_matrices else g
        uhgu = _mm(_adjoint(u), gu)
        inner = _divide(uhgu - _adjoint(uhgu), gaps) * _rows(s)
        inner = _with_phase_diagonal(inner, uhgu, s, 0.5)
        if m > n:
            scaled = _divide(gu, _rows(s))
            left = _mm(u, inner) + scaled - _mm(u, _mm(_adjoint(u), scaled))
            return (_mm(left, vh),)
        return (_mm(u, _mm(inner, vh)),)
    gvh = narrow(g, -2, 0, k) if full_matrices else g
    vhgv = _mm(vh, _adjoint(gvh))
    inner = _columns(s) * _divide(vhgv - _adjoint(vhgv), gaps)
    inner = _with_phase_diagonal(inner, vhgv, s, -0.5)
    if m < n:
        scaled = _divide(gvh, _columns(s))
        right = _mm(inner, vh) + scaled - _mm(_mm(scaled, _adjoint(vh)), vh)
        return (_mm(u, right),)
    return (_mm(u, _mm(inner, vh)),)


def _with_phase_diagonal(inner, product, s, share: float):
    """Complex SVD: ``inner`` with its diagonal replaced by ``share * i Im(diag(product)) / S``.

    A complex SVD is defined up to a common phase of each pair of singular vectors, so a
    (well-defined) loss gives ``Im diag(U^H gU) = -Im diag(V^H gV)``; that phase term,
    ``i Im diag(U^H gU) / S``, is split evenly between the U and V parts (their sum is
    PyTorch's). Real values: ``inner`` as it is.
    """
    if product.dtype.kind != "c":
        return inner
    from .complex_numbers import imag
    from .layout import diag_embed, diagonal
    phase = imag(diagonal(product, 0, -2, -1)) * share
    return inner - diag_embed(diagonal(inner, 0, -2, -1)) + \
        diag_embed(_divide(phase, s) * 1j)


def _pad(x, axis: int, extra: int):
    """Append ``extra`` zero slices along ``axis`` (PyTorch's jvp of the extra vectors
    of ``full_matrices=True``)."""
    from .shape import pad
    if extra == 0:
        return x
    widths = [0, extra] if axis == -1 else [0, 0, 0, extra]
    return pad(x, widths)


def _svd_jvp(tangents, out, a, part, full_matrices):
    from .layout import diag_embed, diagonal
    da = tangents[0]
    u, s, vh = _svd_factors(a, full_matrices)
    m, n = tuple(a.shape)[-2:]
    k = min(m, n)
    v = _adjoint(vh)
    dp = _mm(_adjoint(u), _mm(da, v))
    ds = real(diagonal(dp, 0, -2, -1))
    if part == "S":
        return ds
    dp = dp - diag_embed(ds)
    gaps = _gaps(s * s)
    # complex: the phase i Im diag(dP) / S, split evenly between dU and dV
    phase = _divide(diagonal(dp, 0, -2, -1), s) * 0.5 if dp.dtype.kind == "c" else None
    if part == "U":
        scaled = dp * _rows(s)
        du = _mm(u, _divide(scaled + _adjoint(scaled), gaps))
        if phase is not None:
            du = du + u * _rows(phase)
        if m > k:
            davs = _mm(da, _divide(v, _rows(s)))
            du = du + davs - _mm(u, _mm(_adjoint(u), davs))
            if full_matrices:
                du = _pad(du, -1, m - k)
        return du
    scaled = _columns(s) * dp
    dv = _mm(v, _divide(scaled + _adjoint(scaled), gaps))
    if phase is not None:
        dv = dv - v * _rows(phase)
    if n > k:
        dahus = _mm(_adjoint(da), _divide(u, _rows(s)))
        dv = dv + dahus - _mm(v, _mm(vh, dahus))
    dvh = _adjoint(dv)
    if n > k and full_matrices:
        dvh = _pad(dvh, -2, n - k)
    return dvh


svd_p = Primitive("linalg_svd", _svd_impl, _svd_rule, vjp=_svd_vjp, jvp=_svd_jvp,
                  backward_name="LinalgSvdBackward0", saves="inputs", autocast="float32",
                  batch=over_leading_dims(), complex_gradient="own")


def linalg_svd(A, full_matrices: bool = True, *, driver=None) -> SvdResult:
    """``torch.linalg.svd``: ``(U, S, Vh)`` with ``A = U diag(S) Vh``, S descending.

    ``full_matrices=False`` gives the reduced factors (``k = min(m, n)`` vectors).
    ``driver`` (a CUDA option) is accepted and ignored. For complex ``A``, ``S`` is real
    and the singular vectors are unitary. The gradient through U or Vh needs distinct
    singular values (and, for complex ``A``, a loss that does not depend on their phase).

    Example:
        >>> import unigrad as ug
        >>> U, S, Vh = ug.linalg.svd(ug.tensor([[0.0, 2.0], [1.0, 0.0]]))
        >>> S
        tensor([2., 1.])
        >>> (U @ ug.diag(S) @ Vh).abs()
        tensor([[0., 2.],
                [1., 0.]])
    """
    A = _operand(A)
    _check_matrix("svd", A, complex_ok=True)
    full = bool(full_matrices)
    return SvdResult(*(bind(svd_p, A, part=part, full_matrices=full) for part in ("U", "S", "Vh")))


def svdvals(A, *, driver=None):
    """``torch.linalg.svdvals``: the singular values of ``A`` (descending, batched).

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.svdvals(ug.tensor([[1.0, 0.0], [0.0, -2.0]]))
        tensor([2., 1.])
    """
    A = _operand(A)
    _check_matrix("svdvals", A, complex_ok=True)
    return bind(svd_p, A, part="S", full_matrices=False)


@op(methods=("svd",))
def svd(input, some: bool = True, compute_uv: bool = True) -> TorchSvdResult:
    """``torch.svd``: ``(U, S, V)`` with ``input = U diag(S) V^T`` (note V, not Vh).

    ``some=False`` gives the full U and V; ``compute_uv=False`` gives zero-filled
    ``(m, m)`` and ``(n, n)`` U and V, as PyTorch.

    Example:
        >>> import unigrad as ug
        >>> ug.svd(ug.tensor([[2.0, 0.0], [0.0, 3.0]])).S
        tensor([3., 2.])
    """
    input = _operand(input)
    _check_matrix("svd", input, complex_ok=True)
    if not compute_uv:
        from .creation import zeros
        shape = tuple(input.shape)
        m, n = shape[-2:]
        dtype = input.dtype
        return TorchSvdResult(zeros(shape[:-2] + (m, m), dtype=dtype), svdvals(input),
                              zeros(shape[:-2] + (n, n), dtype=dtype))
    u, s, vh = linalg_svd(input, full_matrices=not some)
    return TorchSvdResult(u, s, _adjoint(vh))


# ----------------------------------------------------------------------------- eigh

def _check_uplo(UPLO) -> str:
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return UPLO.upper()


def _eigh_impl(a, part, uplo):
    if part == "values":
        cached = _cached("eigh", a, uplo)
        return cached[0].copy() if cached else np.linalg.eigvalsh(a, UPLO=uplo)
    return _factorization("eigh", a, uplo, lambda: np.linalg.eigh(a, UPLO=uplo))[1].copy()


def _eigh_rule(a, part, uplo):
    shape = shape_of(a)
    if part == "values":  # real, also for complex Hermitian input
        return shape[:-1], backend.real_of(np.dtype(dtype_of(a)))
    return shape, dtype_of(a)


def _eigh_factors(a, uplo):
    return (bind(eigh_p, a, part="values", uplo=uplo), bind(eigh_p, a, part="vectors", uplo=uplo))


def _eigh_vjp(g, out, needs, a, part, uplo):
    from .layout import diag_embed
    values, vectors = _eigh_factors(a, uplo)
    if part == "values":
        inner = diag_embed(g)
    else:  # the skew-Hermitian part of V^H gV over the eigenvalue gaps
        vhgv = _mm(_adjoint(vectors), g)
        inner = _divide((vhgv - _adjoint(vhgv)) * 0.5, _gaps(values))
    return (_mm(vectors, _mm(inner, _adjoint(vectors))),)


def _eigh_jvp(tangents, out, a, part, uplo):
    from .layout import diag_embed, diagonal
    values, vectors = _eigh_factors(a, uplo)
    dp = _mm(_adjoint(vectors), _mm(tangents[0], vectors))
    dl = diagonal(dp, 0, -2, -1)
    if part == "values":
        return real(dl)
    return _mm(vectors, _divide(dp - diag_embed(dl), _gaps(values)))


eigh_p = Primitive("linalg_eigh", _eigh_impl, _eigh_rule, vjp=_eigh_vjp, jvp=_eigh_jvp,
                   backward_name="LinalgEighBackward0", saves="inputs", autocast="float32",
                   batch=over_leading_dims(), complex_gradient="own")


def _check_square(name: str, A, complex_ok: bool = False) -> None:
    _check_matrix(name, A, complex_ok)
    shape = tuple(A.shape)
    if shape[-1] != shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are "
                           f"{shape[-2]} by {shape[-1]} matrices")


def eigh(A, UPLO: str = "L") -> EighResult:
    """``torch.linalg.eigh``: ``(eigenvalues, eigenvectors)`` of a symmetric matrix,
    eigenvalues ascending; only the ``UPLO`` triangle ('L' or 'U') is read.

    The gradient is symmetric (Hermitian for complex input, PyTorch's); through the
    eigenvectors it needs distinct eigenvalues.

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.eigh(ug.tensor([[2.0, 0.0], [0.0, 1.0]])).eigenvalues
        tensor([1., 2.])
    """
    A = _operand(A)
    _check_square("eigh", A, complex_ok=True)
    uplo = _check_uplo(UPLO)
    return EighResult(*_eigh_factors(A, uplo))


def eigvalsh(A, UPLO: str = "L"):
    """``torch.linalg.eigvalsh``: the eigenvalues (ascending) of a symmetric matrix.

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.eigvalsh(ug.tensor([[1.0, 2.0], [2.0, 1.0]]))
        tensor([-1.,  3.])
    """
    A = _operand(A)
    _check_square("eigvalsh", A, complex_ok=True)
    return bind(eigh_p, A, part="values", uplo=_check_uplo(UPLO))


# ----------------------------------------------------------------------------- qr

def _qr_impl(a, part, mode):
    if mode == "r":
        if part == "Q":
            return np.zeros((0,), dtype=a.dtype)
        return np.linalg.qr(a, mode="r")
    q, r = _factorization("qr", a, mode, lambda: np.linalg.qr(a, mode=mode))
    return (q if part == "Q" else r).copy()


def _qr_rule(a, part, mode):
    shape = shape_of(a)
    m, n = shape[-2:]
    k = m if mode == "complete" else min(m, n)
    if part == "Q":
        return ((0,) if mode == "r" else shape[:-2] + (m, k)), dtype_of(a)
    return shape[:-2] + (k, n), dtype_of(a)


def _check_qr_differentiable(a, mode) -> None:
    m, n = tuple(a.shape)[-2:]
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed "
                           "when mode='r'. Please use linalg.qr(A, mode='reduced') if you are "
                           "going to differentiate through linalg.qr.")
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' "
                           "and nrows > ncols.")


def _copyltu(x):
    """The symmetric (Hermitian, with a real diagonal) matrix with ``x``'s lower triangle."""
    from .shape import tril
    strict = tril(x, -1)
    return strict + _adjoint(strict) + _real_diagonal_part(x)


def _real_diagonal_part(x):
    """``diag(Re(diag(x)))``: the real part of ``x``'s diagonal as a diagonal matrix."""
    from .elementwise import cast
    from .layout import diag_embed, diagonal
    values = diagonal(x, 0, -2, -1)
    if values.dtype.kind == "c":
        values = cast(real(values), values.dtype)
    return diag_embed(values)


def _times_inverse_transpose(x, r):
    """``x R^{-T}`` for an invertible square ``r``."""
    return _adjoint(bind(solve_p, r, _adjoint(x)))


def _times_inverse(x, r):
    """``x R^{-1}`` for an invertible square ``r``."""
    return _adjoint(bind(solve_p, _adjoint(r), _adjoint(x)))


def _qr_tall_vjp(gq, gr, q, r):
    """A = QR with ``m >= n``: ``(gQ + Q copyltu(M)) R^{-T}``, ``M = R gR^T - gQ^T Q``."""
    if gq is None:
        m = _mm(r, _adjoint(gr))
        return _times_inverse_transpose(_mm(q, _copyltu(m)), r)
    m = -_mm(_adjoint(gq), q) if gr is None else _mm(r, _adjoint(gr)) - _mm(_adjoint(gq), q)
    return _times_inverse_transpose(gq + _mm(q, _copyltu(m)), r)


def _qr_vjp(g, out, needs, a, part, mode):
    from .creation import zeros_like
    from .shape import cat, narrow
    _check_qr_differentiable(a, mode)
    q = bind(qr_p, a, part="Q", mode=mode)
    r = bind(qr_p, a, part="R", mode=mode)
    m, n = tuple(a.shape)[-2:]
    gq, gr = (g, None) if part == "Q" else (None, g)
    if m >= n:
        return (_qr_tall_vjp(gq, gr, q, r),)
    # A = [X | Y] with X square: Q, R1 = qr(X) and R2 = Q^T Y
    r1 = narrow(r, -1, 0, m)
    if gr is None:
        gx = _qr_tall_vjp(gq, None, q, r1)
        return (cat([gx, zeros_like(narrow(a, -1, m, n - m))], -1),)
    y = narrow(a, -1, m, n - m)
    gr2 = narrow(gr, -1, m, n - m)
    gx = _qr_tall_vjp(_mm(y, _adjoint(gr2)), narrow(gr, -1, 0, m), q, r1)
    return (cat([gx, _mm(q, gr2)], -1),)


def _qr_tall_jvp(da, q, r):
    from .shape import tril
    c = _mm(_adjoint(q), _times_inverse(da, r))
    lower = tril(c, -1)
    # dR R^-1: upper triangular with a real diagonal (Q^H dQ takes the rest: skew-Hermitian)
    upper = c - lower + _adjoint(lower)
    if c.dtype.kind == "c":
        from .layout import diag_embed, diagonal
        upper = upper - diag_embed(diagonal(c, 0, -2, -1)) + _real_diagonal_part(c)
    return _times_inverse(da, r) - _mm(q, upper), _mm(upper, r)


def _qr_jvp(tangents, out, a, part, mode):
    from .shape import cat, narrow
    _check_qr_differentiable(a, mode)
    da = tangents[0]
    q = bind(qr_p, a, part="Q", mode=mode)
    r = bind(qr_p, a, part="R", mode=mode)
    m, n = tuple(a.shape)[-2:]
    if m >= n:
        dq, dr = _qr_tall_jvp(da, q, r)
        return dq if part == "Q" else dr
    dq, dr1 = _qr_tall_jvp(narrow(da, -1, 0, m), q, narrow(r, -1, 0, m))
    if part == "Q":
        return dq
    y, dy = narrow(a, -1, m, n - m), narrow(da, -1, m, n - m)
    return cat([dr1, _mm(_adjoint(dq), y) + _mm(_adjoint(q), dy)], -1)


qr_p = Primitive("linalg_qr", _qr_impl, _qr_rule, vjp=_qr_vjp, jvp=_qr_jvp,
                 backward_name="LinalgQrBackward0", saves="inputs", autocast="float32",
                 batch=over_leading_dims(), complex_gradient="own")


def linalg_qr(A, mode: str = "reduced") -> QrResult:
    """``torch.linalg.qr``: ``(Q, R)`` with ``A = QR``; ``mode`` is ``'reduced'``,
    ``'complete'`` or ``'r'`` (then Q is an empty tensor).

    Differentiable for ``'reduced'``, and for ``'complete'`` when ``m <= n`` (as PyTorch).

    Example:
        >>> import unigrad as ug
        >>> Q, R = ug.linalg.qr(ug.tensor([[3.0, 1.0], [4.0, 2.0]]))
        >>> (Q @ R).round(decimals=4)
        tensor([[3., 1.],
                [4., 2.]])
    """
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           f"'reduced' (default), 'r', or 'complete'")
    A = _operand(A)
    _check_matrix("qr", A, complex_ok=True)
    return QrResult(bind(qr_p, A, part="Q", mode=mode), bind(qr_p, A, part="R", mode=mode))


@op(methods=("qr",))
def qr(input, some: bool = True) -> QrResult:
    """``torch.qr``: ``linalg.qr`` with ``mode='reduced'`` (``some=False``: ``'complete'``).

    Example:
        >>> import unigrad as ug
        >>> ug.qr(ug.tensor([[2.0, 0.0], [0.0, 3.0]])).R.abs()
        tensor([[2., 0.],
                [0., 3.]])
    """
    return TorchQrResult(*linalg_qr(input, "reduced" if some else "complete"))


# ----------------------------------------------------------------------------- tolerances

def _float_param(value, name: str):
    if value is None:
        return None
    if isinstance(value, Tensor):
        if value.numel() != 1:
            raise RuntimeError(f"{name} must be a number or a one-element tensor in unigrad")
        value = value.item()
    return float(value)


def _tolerances(A, atol, rtol) -> tuple[float, float]:
    """``(atol, rtol)`` with PyTorch's defaults: ``rtol = eps * max(m, n)`` when neither is
    given (or ``atol <= 0``), else 0."""
    atol, rtol = _float_param(atol, "atol"), _float_param(rtol, "rtol")
    if rtol is None:
        if atol is None or atol <= 0:
            m, n = tuple(A.shape)[-2:]
            dtype = A._data.dtype if isinstance(A, Tensor) else np.dtype(A.dtype)
            rtol = float(np.finfo(dtype).eps) * max(m, n)
        else:
            rtol = 0.0
    return (0.0 if atol is None else atol), rtol


def _spectrum(A, hermitian: bool):
    """The singular values (descending) or, with ``hermitian``, ``|eigenvalues|``."""
    from .elementwise import abs
    return abs(eigvalsh(A)) if hermitian else svdvals(A)


# ----------------------------------------------------------------------------- matrix_rank

def _tolerance_array(value, dtype):
    if isinstance(value, Tensor):
        value = value._data
    return np.asarray(value, dtype=dtype)


def matrix_rank(A, tol=None, hermitian: bool = False, *, atol=None, rtol=None):
    """``torch.linalg.matrix_rank``: the number of singular values above
    ``max(atol, rtol * largest)`` (int64); ``atol``/``rtol`` may be numbers or tensors
    broadcasting against the batch. ``tol`` (the old spelling) means ``atol`` with
    ``rtol = 0``; ``hermitian`` uses the eigenvalues of a symmetric matrix.

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.matrix_rank(ug.tensor([[1.0, 2.0], [2.0, 4.0]]))
        tensor(1)
    """
    from ..autograd import no_grad
    from .elementwise import cast, maximum
    from .reduce import amax, sum
    A = _operand(A)
    _check_matrix("matrix_rank", A, complex_ok=True)
    if tol is not None:
        if atol is not None or rtol is not None:
            raise RuntimeError("linalg.matrix_rank: tol cannot be combined with atol or rtol")
        atol, rtol = tol, 0.0
    # the tolerances compare with singular values: real, also for complex A
    dtype = backend.real_of(A._data.dtype if isinstance(A, Tensor) else np.dtype(A.dtype))
    m, n = tuple(A.shape)[-2:]
    default = float(np.finfo(dtype).eps) * max(m, n)
    atol_array = _tolerance_array(0.0 if atol is None else atol, dtype)
    if rtol is not None:
        rtol_array = _tolerance_array(rtol, dtype)
    elif atol is None:
        rtol_array = np.asarray(default, dtype=dtype)
    else:
        rtol_array = np.where(atol_array > 0, 0.0, default).astype(dtype)
    with no_grad():
        spectrum = _spectrum(A, hermitian)
        if tuple(spectrum.shape)[-1] == 0:
            from .creation import zeros
            return zeros(tuple(spectrum.shape)[:-1], dtype="int64")
        largest = amax(spectrum, -1, keepdim=True)
        limit = maximum(largest * rtol_array[..., None], atol_array[..., None])
        return sum(cast(spectrum > limit, "int64"), -1)


# ----------------------------------------------------------------------------- pinv

def _pinv_impl(a, atol, rtol, hermitian):
    if a.size == 0:
        return np.zeros(a.shape[:-2] + a.shape[-2:][::-1], dtype=a.dtype)
    if hermitian:
        values, vectors = np.linalg.eigh(a)
        spectrum = np.abs(values)
    else:
        u, spectrum, vh = np.linalg.svd(a, full_matrices=False)
    limit = np.maximum(spectrum.max(axis=-1, keepdims=True) * rtol, atol)
    with np.errstate(divide="ignore"):
        if hermitian:
            inverse = np.where(spectrum > limit, 1.0 / np.where(spectrum > limit, values, 1), 0)
            return (vectors * inverse[..., None, :].astype(a.dtype)) @ \
                np.swapaxes(vectors, -1, -2).conj()
        inverse = np.where(spectrum > limit, 1.0 / np.where(spectrum > limit, spectrum, 1), 0)
    return np.swapaxes(vh, -1, -2).conj() @ (inverse[..., :, None].astype(a.dtype)
                                             * np.swapaxes(u, -1, -2).conj())


def _pinv_rule(a, atol, rtol, hermitian):
    shape = shape_of(a)
    return shape[:-2] + (shape[-1], shape[-2]), dtype_of(a)


def _pinv_vjp(g, out, needs, a, atol, rtol, hermitian):
    m, n = tuple(a.shape)[-2:]
    pinv_h, g_h = _adjoint(out), _adjoint(g)
    if m <= n:
        k = _mm(g_h, out)
        k_pinv_h = _mm(k, pinv_h)
        grad = (-_adjoint(_mm(out, k)) + k_pinv_h - _mm(_mm(a, out), k_pinv_h)
                + _mm(_mm(pinv_h, out), g_h - _mm(k, a)))
    else:
        k = _mm(out, g_h)
        pinv_h_k = _mm(pinv_h, k)
        grad = (-_adjoint(_mm(k, out)) + _mm(_mm(g_h - _mm(a, k), out), pinv_h) + pinv_h_k
                - _mm(_mm(pinv_h_k, out), a))
    return (grad,)


def _pinv_jvp(tangents, out, a, atol, rtol, hermitian):
    m, n = tuple(a.shape)[-2:]
    da = tangents[0]
    da_h, pinv_h = _adjoint(da), _adjoint(out)
    if m <= n:
        k = _mm(pinv_h, da_h)
        return (_mm(out, k - _adjoint(k) - _mm(k, _mm(a, out)))
                + _mm(da_h - _mm(out, _mm(a, da_h)), _mm(pinv_h, out)))
    k = _mm(out, da)
    k_h = _adjoint(k)
    return (_mm(k_h - k - _mm(_mm(out, a), k_h), out)
            + _mm(_mm(out, pinv_h), da_h - _mm(_mm(da_h, a), out)))


pinv_p = Primitive("linalg_pinv", _pinv_impl, _pinv_rule, vjp=_pinv_vjp, jvp=_pinv_jvp,
                   backward_name="LinalgPinvBackward0", saves="inputs and output",
                   autocast="float32", batch=over_leading_dims(),
                   complex_gradient="own")


def pinv(A, *, atol=None, rtol=None, hermitian: bool = False):
    """``torch.linalg.pinv``: the Moore-Penrose pseudo-inverse, singular values at most
    ``max(atol, rtol * largest)`` treated as zero (PyTorch's defaults and gradient).

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.pinv(ug.tensor([[2.0, 0.0], [0.0, 0.0]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.0000]])
    """
    A = _operand(A)
    _check_matrix("pinv", A, complex_ok=True)
    atol, rtol = _tolerances(A, atol, rtol)
    return bind(pinv_p, A, atol=atol, rtol=rtol, hermitian=bool(hermitian))


@op(methods=("pinverse",))
def pinverse(input, rcond: float = 1e-15):
    """``torch.pinverse``: :func:`pinv` with ``rtol=rcond``.

    Example:
        >>> import unigrad as ug
        >>> ug.pinverse(ug.tensor([[4.0]]))
        tensor([[0.2500]])
    """
    return pinv(input, rtol=rcond)


# ----------------------------------------------------------------------------- lstsq

_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(A, B, rcond=None, *, driver=None) -> LstsqResult:
    """``torch.linalg.lstsq`` (CPU semantics): ``(solution, residuals, rank,
    singular_values)`` of ``min ||A X - B||``.

    The solution is the minimum-norm one (``pinv(A, rtol=rcond) @ B``). As on PyTorch's
    CPU: ``rank`` is returned unless ``driver='gels'``, ``singular_values`` only for
    ``'gelsd'``/``'gelss'``, ``residuals`` (squared column norms of ``A X - B``) only
    when ``m > n``, every matrix has full rank and the driver is not ``'gelsy'``
    (the default); the others are empty tensors.

    Example:
        >>> import unigrad as ug
        >>> A = ug.tensor([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]])
        >>> ug.linalg.lstsq(A, ug.tensor([[1.0], [2.0], [3.0]])).solution
        tensor([[1.],
                [1.]])
    """
    from .creation import zeros
    from .reduce import sum
    from .shape import reshape
    A, B = _operand(A), _operand(B)
    _check_matrix("lstsq", A, complex_ok=True)
    if driver is None:
        driver = "gelsy"
    if driver not in _DRIVERS:
        raise RuntimeError(f"torch.linalg.lstsq: parameter `driver` should be one of "
                           f"{_DRIVERS}")
    a_shape, b_shape = tuple(A.shape), tuple(B.shape)
    vector = len(b_shape) == len(a_shape) - 1
    if len(b_shape) < 1 or (not vector and len(b_shape) < 2):
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be greater or equal to "
                           "other.dim() and (input.dim() - other.dim()) <= 1")
    matrix = reshape(B, b_shape + (1,)) if vector else B
    if tuple(matrix.shape)[-2] != a_shape[-2]:
        raise RuntimeError(f"torch.linalg.lstsq: input.size(-2) should match other.size(-2), "
                           f"but got {a_shape[-2]} and {tuple(matrix.shape)[-2]}")
    m, n = a_shape[-2:]
    dtype = A._data.dtype if isinstance(A, Tensor) else np.dtype(A.dtype)
    rcond = float(np.finfo(dtype).eps) * max(m, n) if rcond is None else float(rcond)
    solution = bind(matmul_p, pinv(A, rtol=max(rcond, 0.0)), matrix)
    empty = zeros((0,), dtype=backend.real_of(dtype))  # residuals, singular values: real
    rank = zeros((0,), dtype="int64")
    if driver != "gels":
        rank = matrix_rank(A, atol=0.0, rtol=max(rcond, 0.0))
    singular_values = empty
    if driver in ("gelsd", "gelss"):
        from ..autograd import no_grad
        with no_grad():
            singular_values = svdvals(A)
    residuals = empty
    if m > n and driver != "gelsy":
        full = matrix_rank(A) if driver == "gels" else rank
        from ._values import values_for_shape
        # the residuals exist only when every matrix has full rank: a value-dependent shape
        if bool(np.all(values_for_shape("linalg.lstsq residuals", full) == n)):
            misfit = bind(matmul_p, A, solution) - matrix
            residuals = sum(squared_magnitude(misfit), -2)
    if vector:
        solution = reshape(solution, tuple(solution.shape)[:-1])
    return LstsqResult(solution, residuals, rank, singular_values)


# ----------------------------------------------------------------------------- norms, cond

def spectral_norms(A, ord, rows: int, columns: int, keepdim: bool):
    """Matrix norms from the singular values over dims ``(rows, columns)``: ``'nuc'``
    (their sum), ``2`` (the largest), ``-2`` (the smallest)."""
    from .reduce import amax, amin, sum
    from .shape import movedim, reshape
    ndim = len(tuple(A.shape))
    moved = movedim(A, (rows, columns), (ndim - 2, ndim - 1))
    spectrum = svdvals(moved)
    if ord == "nuc":
        result = sum(spectrum, -1)
    elif tuple(spectrum.shape)[-1] == 0:  # as PyTorch: 0 for ord=2, no minimum for ord=-2
        if ord == -2:
            raise IndexError("amin(): Expected reduction dim -1 to have non-zero size.")
        result = sum(spectrum, -1)
    else:
        result = (amax if ord == 2 else amin)(spectrum, -1)
    if keepdim:
        shape = list(A.shape)
        shape[rows] = shape[columns] = 1
        result = reshape(result, tuple(shape))
    return result


_COND_ORDERS = (None, 2, -2, "fro", "nuc", 1, -1, math.inf, -math.inf)


def cond(A, p=None):
    """``torch.linalg.cond``: ``norm(A, p) * norm(inv(A), p)``; ``p=None``/``2``/``-2``
    use the singular values (any shape), the others need square invertible matrices
    (singular ones give inf, as PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.cond(ug.tensor([[1.0, 0.0], [0.0, 4.0]]))
        tensor(4.)
    """
    from .elementwise import where
    from .linalg import inv, matrix_norm
    A = _operand(A)
    if p not in _COND_ORDERS:
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    _check_matrix("cond", A, complex_ok=True)
    if p in (None, 2, -2):
        from .reduce import amax, amin
        spectrum = svdvals(A)
        if tuple(spectrum.shape)[-1] == 0:
            from .creation import zeros
            return zeros(tuple(A.shape)[:-2], dtype=A.dtype)
        largest, smallest = amax(spectrum, -1), amin(spectrum, -1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return smallest / largest if p == -2 else largest / smallest
    _check_square("cond", A, complex_ok=True)
    if tuple(A.shape)[-1] == 0:
        from .creation import zeros
        return zeros(tuple(A.shape)[:-2], dtype=A.dtype)
    singular = _singular_matrices(A._data if isinstance(A, Tensor) else A)
    if singular is None:
        return matrix_norm(A, p) * matrix_norm(inv(A), p)
    # as PyTorch: inf where LAPACK's LU finds a matrix singular
    inverse = inv(where(_as_batch_mask(singular, A), _identity_like(A), A))
    value = matrix_norm(A, p) * matrix_norm(inverse, p)
    return where(_as_tensor(singular, value), math.inf, value)


def _singular_matrices(raw):
    """Which matrices of a batch LAPACK cannot invert (None when all can, or inside a
    transform where the values are unknown)."""
    from ..interpreters import has_values
    if type(raw) is not np.ndarray or not has_values(raw):
        return None
    try:
        np.linalg.inv(raw)
        return None
    except np.linalg.LinAlgError:
        pass
    size = raw.shape[-1]
    flags = []
    for matrix in raw.reshape(-1, size, size):
        try:
            np.linalg.inv(matrix)
            flags.append(False)
        except np.linalg.LinAlgError:
            flags.append(True)
    return np.array(flags).reshape(raw.shape[:-2])


def _as_tensor(mask, like):
    from ..tensor import _make_tensor
    return _make_tensor(np.asarray(mask)) if isinstance(like, Tensor) else np.asarray(mask)


def _as_batch_mask(mask, like):
    return _as_tensor(np.asarray(mask)[..., None, None], like)


def _identity_like(A):
    from .creation import eye
    return eye(tuple(A.shape)[-1], dtype=A.dtype)
