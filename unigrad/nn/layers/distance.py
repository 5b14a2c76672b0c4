"""Distance layers: ``CosineSimilarity`` and ``PairwiseDistance`` (PyTorch).

Example:
    >>> import unigrad as ug
    >>> ug.nn.CosineSimilarity(dim=0)(ug.tensor([1.0, 0.0]), ug.tensor([1.0, 1.0]))
    tensor(0.7071)
"""

from __future__ import annotations

from ...ops.nn_functional import cosine_similarity, pairwise_distance
from ...tensor import Tensor
from ..cell import Cell


class CosineSimilarity(Cell):
    """Cosine similarity of ``x1`` and ``x2`` along ``dim``, norms clamped below by ``eps``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.CosineSimilarity()
        CosineSimilarity()
        >>> ug.nn.CosineSimilarity()(ug.tensor([[3.0, 4.0]]), ug.tensor([[4.0, 3.0]]))
        tensor([0.9600])
    """

    def __init__(self, dim: int = 1, eps: float = 1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def construct(self, x1: Tensor, x2: Tensor) -> Tensor:
        return cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Cell):
    """The ``p``-norm of ``x1 - x2 + eps`` over the last dimension.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.PairwiseDistance(eps=0.0)(ug.tensor([[3.0, 4.0]]), ug.zeros(1, 2))
        tensor([5.])
    """

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False):
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def construct(self, x1: Tensor, x2: Tensor) -> Tensor:
        return pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


__all__ = ["CosineSimilarity", "PairwiseDistance"]
