"""Distance functions of ``unigrad.nn.functional``: cosine similarity and p-norm distances.

Composites of primitives with PyTorch's signatures, values and gradients
(a zero difference or a zero vector gets a zero gradient, as in PyTorch).

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> F.pairwise_distance(ug.tensor([[0.0, 0.0]]), ug.tensor([[3.0, 4.0]]), eps=0.0)
    tensor([5.])
"""

from __future__ import annotations

import numbers

import numpy as np

from ..backend import namespace_of
from ..tensor import Tensor, _make_tensor
from ._dtypes import float_operand
from .elementwise_math import clamp_min
from .reduce import norm, vector_norm
from .reduce import sum as total
from .registry import op
from .views_copies import broadcast_tensors


def _norm_clamped_below(vectors, dim: int, eps: float):
    """The 2-norm over ``dim`` (kept) at least ``eps``, differentiated as the plain norm.

    PyTorch clamps the norms in place without recording it, so the clamp is
    invisible to the gradient; the same here with a detached correction.
    """
    norms = vector_norm(vectors, 2, dim, keepdim=True)
    return norms + (clamp_min(norms, eps) - norms).detach()


@op(autocast="float32")
def cosine_similarity(x1, x2, dim: int = 1, eps: float = 1e-8):
    """``sum(x1 / max(|x1|, eps) * x2 / max(|x2|, eps))`` over ``dim`` (inputs broadcast).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.cosine_similarity(ug.tensor([[1.0, 0.0], [1.0, 1.0]]), ug.tensor([[1.0, 1.0]]))
        tensor([0.7071, 1.0000])
    """
    x1, x2 = broadcast_tensors(float_operand(x1), float_operand(x2))
    return total((x1 / _norm_clamped_below(x1, dim, eps))
                 * (x2 / _norm_clamped_below(x2, dim, eps)), dim)


def _check_p(p, name: str) -> float:
    if isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise TypeError(f"{name}: argument 'p' must be a real number, got {type(p).__name__}")
    return float(p)


@op(autocast="float32")
def pairwise_distance(x1, x2, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False):
    """The ``p``-norm of ``x1 - x2 + eps`` over the last dimension (inputs broadcast).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.pairwise_distance(ug.tensor([[1.0, 1.0]]), ug.tensor([[0.0, 0.0]]), p=1.0)
        tensor([2.0000])
    """
    p = _check_p(p, "pairwise_distance")
    difference = float_operand(x1) - float_operand(x2) + eps
    return norm(difference, p, -1 if difference.ndim else None, keepdim)


@op(autocast="float32")
def pdist(input, p: float = 2.0):
    """The ``p``-norm distances between all pairs of rows ``i < j`` of a 2-D input.

    The result has ``N * (N - 1) / 2`` entries, pair ``(0, 1)`` first, in row-major order.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.pdist(ug.tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]]))
        tensor([ 5., 10.,  5.])
    """
    p = _check_p(p, "pdist")
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    input = float_operand(input)
    first, second = np.triu_indices(input.shape[0], 1)
    xp = namespace_of(input._data) if isinstance(input, Tensor) else np
    rows = [_make_tensor(xp.asarray(indices.astype(np.int64))) for indices in (first, second)]
    return norm(input[rows[0]] - input[rows[1]], p, 1)


__all__ = ["cosine_similarity", "pairwise_distance", "pdist"]
