"""``Dropout``: zero elements at random while training, identity in evaluation mode.

Example:
    >>> import unigrad as ug
    >>> drop = ug.nn.Dropout(p=0.5)
    >>> drop
    Dropout(p=0.5, inplace=False)
    >>> drop.eval()(ug.ones(3))
    tensor([1., 1., 1.])
"""

from __future__ import annotations

import numbers

from ...ops.nn_functional import dropout
from ...tensor import Tensor
from ..cell import Cell


def _probability(p, keep_prob) -> float:
    if keep_prob is not None:
        if p is not None and p != 0.5:
            raise TypeError("Dropout: pass either 'p' (PyTorch) or 'keep_prob' (MindSpore), "
                            "not both")
        if isinstance(keep_prob, bool) or not isinstance(keep_prob, numbers.Real) or \
                not 0.0 < keep_prob <= 1.0:
            raise ValueError(f"For 'Dropout', the 'keep_prob' must be a number in range (0, 1], "
                             f"but got {keep_prob}")
        return 1.0 - float(keep_prob)
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return float(p)


class Dropout(Cell):
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``.

    Active only in training mode (``train()``, the default); ``eval()`` makes
    it the identity. The mask comes from the generator seeded by
    ``ug.manual_seed``. MindSpore's ``keep_prob=`` keyword (``1 - p``) is
    accepted.

    Example:
        >>> import unigrad as ug
        >>> _ = ug.manual_seed(0)
        >>> out = ug.nn.Dropout(keep_prob=0.75)(ug.ones(8))
        >>> sorted(set(round(v, 4) for v in out.tolist()))
        [0.0, 1.3333]
    """

    def __init__(self, p: float = 0.5, inplace: bool = False, *, keep_prob: float | None = None):
        super().__init__()
        self.p = _probability(p, keep_prob)
        self.keep_prob = 1.0 - self.p
        self.inplace = bool(inplace)

    def construct(self, input: Tensor) -> Tensor:
        return dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


__all__ = ["Dropout"]
