"""MindSpore's loss Cells missing from ``nn.py`` (``nn.BCELoss``, ``nn.NLLLoss``,
``nn.KLDivLoss``, ``nn.HuberLoss``): unigrad's losses under MindSpore's arguments, with
MindSpore's check of ``reduction`` (``'mean'``, ``'sum'`` or ``'none'``).

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> print(nn.HuberLoss(delta=1.0)(ms.Tensor([0.0, 3.0]), ms.Tensor([0.5, 0.0])))
    1.3125
"""

from __future__ import annotations

from ... import nn as _ugnn
from ...nn import functional as _functional
from .nn import Cell, MSELoss

__all__ = ["BCELoss", "NLLLoss", "KLDivLoss", "HuberLoss", "MAELoss", "RMSELoss",
           "MarginRankingLoss", "CosineEmbeddingLoss", "HingeEmbeddingLoss",
           "MultiLabelSoftMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss"]

_REDUCTIONS = ("mean", "sum", "none")


def _checked_reduction(owner: str, reduction: str, allowed: tuple = _REDUCTIONS) -> str:
    if reduction not in allowed:
        raise ValueError(f"For '{owner}', the 'reduction' must be in {list(allowed)}, but got "
                         f"{reduction}.")
    return reduction


class _Loss(Cell):
    """A loss Cell whose ``repr`` shows no arguments, as MindSpore prints them."""

    def extend_repr(self) -> str:
        return ""


class BCELoss(_Loss, _ugnn.BCELoss):
    """``nn.BCELoss(weight=None, reduction='mean')``: binary cross entropy of probabilities
    ``logits`` against ``labels``, each term scaled by ``weight`` when given.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.BCELoss(reduction="sum")(ms.Tensor([0.5, 0.5]), ms.Tensor([0.0, 1.0])))
        1.3862944
    """

    def __init__(self, weight=None, reduction: str = "mean"):
        _ugnn.BCELoss.__init__(self, weight, _checked_reduction("BCELoss", reduction))


class NLLLoss(_Loss, _ugnn.NLLLoss):
    """``nn.NLLLoss(weight=None, ignore_index=-100, reduction='mean')``: the negative
    log-likelihood of log-probabilities ``logits`` (``(N, C)``) at the class ``labels``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> logits = ms.Tensor([[-1.0, -2.0], [-3.0, -0.5]])
        >>> print(nn.NLLLoss()(logits, ms.Tensor([0, 1], ms.int32)))
        0.75
    """

    def __init__(self, weight=None, ignore_index: int = -100, reduction: str = "mean"):
        _ugnn.NLLLoss.__init__(self, weight, ignore_index,
                               _checked_reduction("NLLLoss", reduction))


class KLDivLoss(_Loss):
    """``nn.KLDivLoss(reduction='mean')``: ``labels * (log(labels) - logits)`` for
    log-probabilities ``logits``, averaged over every element (``'mean'``), over the batch
    (``'batchmean'``), summed (``'sum'``) or not reduced (``'none'``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.KLDivLoss(reduction="sum")(ms.Tensor([-1.0, -1.0]), ms.Tensor([0.5, 0.5])))
        0.30685282
    """

    def __init__(self, reduction: str = "mean"):
        super().__init__()
        self.reduction = _checked_reduction("KLDivLoss", reduction, ("mean", "sum", "none",
                                                                     "batchmean"))

    def construct(self, logits, labels):
        if self.reduction == "mean":
            return _functional.kl_div(logits, labels, reduction="none").mean()
        return _functional.kl_div(logits, labels, reduction=self.reduction)


class HuberLoss(_Loss, _ugnn.HuberLoss):
    """``nn.HuberLoss(reduction='mean', delta=1.0)``: ``0.5 * d**2`` where ``|d| <= delta``,
    ``delta * (|d| - 0.5 * delta)`` elsewhere, for ``d = logits - labels``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.HuberLoss(reduction="none")(ms.Tensor([0.5, 3.0]), ms.Tensor([0.0, 0.0])))
        [0.125 2.5  ]
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0):
        _ugnn.HuberLoss.__init__(self, _checked_reduction("HuberLoss", reduction), delta)


class MAELoss(_Loss, _ugnn.L1Loss):
    """``nn.MAELoss(reduction='mean')``: ``|logits - label|``, averaged, summed or not
    reduced.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.MAELoss()(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([1.5, 2.0, 1.0])))
        0.8333333
    """

    def __init__(self, reduction: str = "mean"):
        _ugnn.L1Loss.__init__(self, _checked_reduction("MAELoss", reduction))


class RMSELoss(Cell):
    """``nn.RMSELoss()``: ``sqrt(mean((logits - label) ** 2))``, with MindSpore's child
    ``MSELoss``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.RMSELoss()(ms.Tensor([0.0, 0.0]), ms.Tensor([3.0, 4.0])))
        3.535534
    """

    def __init__(self):
        super().__init__()
        self.MSELoss = MSELoss()  # MindSpore's child name

    def construct(self, logits, label):
        return self.MSELoss(logits, label).sqrt()


class MarginRankingLoss(_Loss, _ugnn.MarginRankingLoss):
    """``nn.MarginRankingLoss(margin=0.0, reduction='mean')``:
    ``max(0, -target * (input1 - input2) + margin)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> loss = nn.MarginRankingLoss(margin=1.0, reduction="none")
        >>> print(loss(ms.Tensor([1.0, 3.0]), ms.Tensor([2.0, 0.0]), ms.Tensor([1.0, 1.0])))
        [2. 0.]
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean"):
        _ugnn.MarginRankingLoss.__init__(
            self, margin, reduction=_checked_reduction("MarginRankingLoss", reduction))


class CosineEmbeddingLoss(_Loss, _ugnn.CosineEmbeddingLoss):
    """``nn.CosineEmbeddingLoss(margin=0.0, reduction='mean')``: ``1 - cos(x1, x2)`` for
    ``labels`` 1, ``max(0, cos(x1, x2) - margin)`` for -1.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> x1, x2 = ms.Tensor([[1.0, 0.0]]), ms.Tensor([[0.0, 1.0]])
        >>> print(nn.CosineEmbeddingLoss()(x1, x2, ms.Tensor([1])))
        1.0
    """

    def __init__(self, margin: float = 0.0, reduction: str = "mean"):
        _ugnn.CosineEmbeddingLoss.__init__(
            self, margin, reduction=_checked_reduction("CosineEmbeddingLoss", reduction))


class HingeEmbeddingLoss(_Loss, _ugnn.HingeEmbeddingLoss):
    """``nn.HingeEmbeddingLoss(margin=1.0, reduction='mean')``: ``logits`` for ``labels``
    1, ``max(0, margin - logits)`` for -1.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> loss = nn.HingeEmbeddingLoss(reduction="none")
        >>> print(loss(ms.Tensor([0.3, 0.3]), ms.Tensor([1.0, -1.0])))
        [0.3 0.7]
    """

    def __init__(self, margin: float = 1.0, reduction: str = "mean"):
        _ugnn.HingeEmbeddingLoss.__init__(
            self, margin, reduction=_checked_reduction("HingeEmbeddingLoss", reduction))


class MultiLabelSoftMarginLoss(_Loss, _ugnn.MultiLabelSoftMarginLoss):
    """``nn.MultiLabelSoftMarginLoss(weight=None, reduction='mean')``: the mean over classes
    of the binary cross entropy of ``sigmoid(x)`` against the 0/1 ``target``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.MultiLabelSoftMarginLoss()(ms.Tensor([[0.0, 0.0]]), ms.Tensor([[1, 0]])))
        0.6931472
    """

    def __init__(self, weight=None, reduction: str = "mean"):
        _ugnn.MultiLabelSoftMarginLoss.__init__(
            self, weight, reduction=_checked_reduction("MultiLabelSoftMarginLoss", reduction))


class PoissonNLLLoss(_Loss, _ugnn.PoissonNLLLoss):
    """``nn.PoissonNLLLoss(log_input=True, full=False, eps=1e-8, reduction='mean')``: the
    negative log-likelihood of ``target`` under a Poisson of rate ``exp(input)`` (or
    ``input`` when ``log_input=False``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.PoissonNLLLoss()(ms.Tensor([0.0, 1.0]), ms.Tensor([1.0, 2.0])))
        0.859141
    """

    def __init__(self, log_input: bool = True, full: bool = False, eps: float = 1e-8,
                 reduction: str = "mean"):
        _ugnn.PoissonNLLLoss.__init__(
            self, log_input, full, eps=eps,
            reduction=_checked_reduction("PoissonNLLLoss", reduction))


class GaussianNLLLoss(_Loss, _ugnn.GaussianNLLLoss):
    """``nn.GaussianNLLLoss(*, full=False, eps=1e-6, reduction='mean')``:
    ``0.5 * (log(var) + (logits - labels) ** 2 / var)`` (``var`` clamped to ``eps``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> one = ms.Tensor([1.0])
        >>> print(nn.GaussianNLLLoss()(ms.Tensor([3.0]), one, one))
        2.0
    """

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean"):
        _ugnn.GaussianNLLLoss.__init__(
            self, full=full, eps=eps, reduction=_checked_reduction("GaussianNLLLoss", reduction))
