"""``mindspore.ops`` decompositions with MindSpore's arguments and result orders: ``svd``
(``s, u, v``; ``s`` alone with ``compute_uv=False``), ``qr`` and ``pinv``, on unigrad's
differentiable ops (:mod:`unigrad.ops.decompositions`). Imported into
:mod:`unigrad.compat.mindspore.ops`. Real dtypes only.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> print(ops.svd(ms.Tensor([[3.0, 0.0], [0.0, -4.0]]), compute_uv=False))
    [4. 3.]
"""

from __future__ import annotations

from ... import linalg as _linalg
from ...ops.linalg import _adjoint
from ._tensor import to_ms
from .ops import _bool, _tensor

__all__ = ["svd", "qr", "pinv"]


def _matrix(input, owner: str, name: str):
    x = _tensor(input, owner, name)
    if len(tuple(x.shape)) < 2:
        raise ValueError(f"For '{owner}', the dimension of '{name}' must be at least 2, but got "
                         f"{len(tuple(x.shape))}")
    return x


def svd(input, full_matrices: bool = False, compute_uv: bool = True):
    """``(s, u, v)`` with ``input = u diag(s) v^T`` (``s`` alone with ``compute_uv=False``)."""
    x = _matrix(input, "svd", "input")
    full = _bool(full_matrices, "svd", "full_matrices")
    if not _bool(compute_uv, "svd", "compute_uv"):
        return to_ms(_linalg.svdvals(x))
    u, s, vh = _linalg.svd(x, full_matrices=full)
    return to_ms(s), to_ms(u), to_ms(_adjoint(vh))


def qr(input, mode: str = "reduced"):
    """``(Q, R)`` with ``input = Q R``; ``mode`` is ``'reduced'`` or ``'complete'``."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"For 'qr', the 'mode' must be 'reduced' or 'complete', but got {mode}")
    q, r = _linalg.qr(_matrix(input, "qr", "input"), mode=mode)
    return to_ms(q), to_ms(r)


def pinv(x, *, atol=None, rtol=None, hermitian: bool = False):
    """The Moore-Penrose pseudo-inverse (singular values at most ``max(atol, rtol * largest)``
    dropped; PyTorch's defaults)."""
    return to_ms(_linalg.pinv(_matrix(x, "pinv", "x"), atol=atol, rtol=rtol,
                              hermitian=_bool(hermitian, "pinv", "hermitian")))
