"""Dropout layers: zero elements (or whole channels) at random while training.

``Dropout``; ``Dropout1d/2d/3d`` drop whole channels; ``AlphaDropout`` and
``FeatureAlphaDropout`` keep a SELU network's statistics. All are the
identity in evaluation mode.

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

from ...ops.nn_functional import (
    alpha_dropout,
    dropout,
    dropout1d,
    dropout2d,
    dropout3d,
    feature_alpha_dropout,
)
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


class _DropoutNd(Cell):
    """The ``p``/``inplace`` pair and the repr shared by PyTorch's dropout layers."""

    def __init__(self, p: float = 0.5, inplace: bool = False):
        super().__init__()
        self.p = _probability(p, None)
        self.inplace = bool(inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(_DropoutNd):
    """Zero whole channels of ``(N, C, L)`` or ``(C, L)`` input with probability ``p``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Dropout1d(0.2)
        Dropout1d(p=0.2, inplace=False)
    """

    def construct(self, input: Tensor) -> Tensor:
        return dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zero whole channels of ``(N, C, H, W)`` input with probability ``p``.

    Example:
        >>> import unigrad as ug
        >>> _ = ug.manual_seed(0)
        >>> out = ug.nn.Dropout2d()(ug.ones(1, 8, 2, 2))
        >>> sorted(set(out.flatten().tolist()))
        [0.0, 2.0]
    """

    def construct(self, input: Tensor) -> Tensor:
        return dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Zero whole channels of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input with probability ``p``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Dropout3d().eval()(ug.ones(1, 1, 1, 1, 2))
        tensor([[[[[1., 1.]]]]])
    """

    def construct(self, input: Tensor) -> Tensor:
        return dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Dropout for SELU networks that keeps the input's mean and variance (while training).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.AlphaDropout(0.2).eval()(ug.tensor([1.0, -1.0]))
        tensor([ 1., -1.])
    """

    def construct(self, input: Tensor) -> Tensor:
        return alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """:class:`AlphaDropout` of whole channels (dimension 1).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.FeatureAlphaDropout(0.3)
        FeatureAlphaDropout(p=0.3, inplace=False)
    """

    def construct(self, input: Tensor) -> Tensor:
        return feature_alpha_dropout(input, self.p, self.training)


__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
           "FeatureAlphaDropout"]
