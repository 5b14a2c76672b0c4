"""More of ``mindspore.nn``'s losses: the base ``nn.LossBase`` (``get_loss`` weighs and
reduces), ``nn.DiceLoss``, ``nn.MultiClassDiceLoss``, ``nn.FocalLoss`` and the margin losses
(``nn.MultiMarginLoss``, ``nn.SoftMarginLoss``, ``nn.TripletMarginLoss``,
``nn.MultilabelMarginLoss``) and ``nn.L1LossExt``, over the core's functional losses.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import nn
    >>> print(nn.DiceLoss()(ms.Tensor([[1.0, 0.0]]), ms.Tensor([[1.0, 0.0]])))
    5.00679e-06
"""

from __future__ import annotations

import unigrad as _ug

from ...nn import functional as _functional
from ._nn_activations import ReLU6
from ._nn_losses import _checked_reduction
from ._tensor import Tensor
from .nn import Cell, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh

__all__ = ["LossBase", "DiceLoss", "MultiClassDiceLoss", "FocalLoss", "MultiMarginLoss",
           "SoftMarginLoss", "TripletMarginLoss", "MultilabelMarginLoss", "L1LossExt", "CTCLoss"]


class LossBase(Cell):
    """``nn.LossBase(reduction='mean')``: the base of losses; a subclass computes the
    element-wise loss in ``construct`` and returns ``self.get_loss(x, weights=1.0)``, which
    weighs it and takes the mean (``'mean'``), the sum (``'sum'``) or nothing (``'none'``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> class Absolute(nn.LossBase):
        ...     def construct(self, logits, labels):
        ...         return self.get_loss(ms.ops.abs(logits - labels))
        >>> print(Absolute("sum")(ms.Tensor([1.0, 2.0]), ms.Tensor([0.0, 0.0])))
        3.0
    """

    def __init__(self, reduction: str = "mean"):
        super().__init__()
        _checked_reduction(type(self).__name__, reduction)
        self.reduction = reduction
        self.average, self.reduce = reduction == "mean", reduction != "none"

    def get_axis(self, x) -> tuple:
        """Every axis of ``x``: ``(0, 1, ..., x.ndim - 1)``."""
        return tuple(range(x.ndim))

    def get_loss(self, x, weights=1.0):
        """``weights * x`` computed in float32, reduced as ``reduction`` says, in the dtype of
        ``x``."""
        weighted = _ug.multiply(weights, x.float())
        if self.reduce:
            weighted = weighted.mean() if self.average else weighted.sum()
        return weighted.to(x.dtype)

    def construct(self, logits, labels):
        raise NotImplementedError

    def extend_repr(self) -> str:
        return ""


def _check_tensor(owner: str, name: str, value) -> None:
    if not isinstance(value, _ug.Tensor):
        raise TypeError(f"For '{owner}', the '{name}' must be Tensor, but got "
                        f"{type(value).__name__}.")


def checked_smooth(smooth) -> float:
    """Dice's ``smooth`` (the loss's and the metric's): a positive float, as MindSpore checks."""
    if not isinstance(smooth, float):
        raise TypeError(f"The 'smooth' must be float, but got '{type(smooth).__name__}'")
    if smooth <= 0:
        raise ValueError(f"The 'smooth' must be float and must > 0, but got '{smooth}' "
                         f"with type 'float'.")
    return smooth


class DiceLoss(LossBase):
    """``nn.DiceLoss(smooth=1e-5)``: ``1 - 2 * sum(logits * label) / (sum(logits ** 2) +
    sum(label ** 2) + smooth)``, over all elements.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.DiceLoss()(ms.Tensor([0.5, 0.5]), ms.Tensor([1.0, 0.0])))
        0.33333778
    """

    def __init__(self, smooth: float = 1e-5):
        super().__init__()
        self.smooth = checked_smooth(smooth)

    def construct(self, logits, label):
        for name, value in (("logits", logits), ("labels", label)):
            _check_tensor("DiceLoss", name, value)
        if tuple(logits.shape) != tuple(label.shape):
            raise ValueError(f"For 'DiceLoss', the 'logits_shape' should be = label_shape: "
                             f"{tuple(label.shape)}, but got {tuple(logits.shape)}.")
        intersection = (logits * label).sum()
        union = (logits * logits).sum() + (label * label).sum()
        return 1 - 2 * intersection / (union + self.smooth)


_DICE_ACTIVATIONS = {"softmax": Softmax, "logsoftmax": LogSoftmax, "relu": ReLU,
                     "relu6": ReLU6, "tanh": Tanh, "sigmoid": Sigmoid}


class MultiClassDiceLoss(LossBase):
    """``nn.MultiClassDiceLoss(weights=None, ignore_indiex=None, activation='softmax')``:
    the mean over the classes (axis 1) of :class:`DiceLoss` of ``activation(logits)[:, i]``
    and ``label[:, i]``, each scaled by ``weights[i]`` when given; class ``ignore_indiex``
    (MindSpore's spelling) adds nothing but still counts in the mean.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> logits = ms.Tensor([[0.2, 0.8], [0.9, 0.1]])
        >>> print(nn.MultiClassDiceLoss(activation=None)(logits, ms.Tensor([[0.0, 1.0],
        ...                                                               [1.0, 0.0]])))
        0.028670609
    """

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        owner = "MultiClassDiceLoss"
        if weights is not None and not isinstance(weights, Tensor):
            raise TypeError(f"The type of 'weights' should be 'Tensor', but got type "
                            f"'{type(weights).__name__}'.")
        if weights is not None and weights.ndim != 2:
            raise ValueError(f"For '{owner}', the dimension of 'weights' must be 2, but got "
                             f"{weights.ndim}.")
        if ignore_indiex is not None and not isinstance(ignore_indiex, int):
            raise TypeError(f"The type of 'ignore_indiex' should be 'int', but got type "
                            f"'{type(ignore_indiex).__name__}'.")
        self.binarydiceloss = DiceLoss(smooth=1e-5)
        self.weights, self.ignore_indiex = weights, ignore_indiex
        self.activation = _dice_activation(owner, activation)

    def construct(self, logits, label):
        for name, value in (("logits", logits), ("labels", label)):
            _check_tensor("MultiClassDiceLoss", name, value)
        if self.weights is not None and self.weights.shape[0] != label.shape[1]:
            raise ValueError(f"For 'MultiClassDiceLoss', the weight_shape[0] must be equal to "
                             f"label_shape[1], but got weight_shape[0]: {self.weights.shape[0]} "
                             f"and label_shape[1]: {label.shape[1]}.")
        if self.activation is not None:
            logits = self.activation(logits)
        total = 0
        for index in range(label.shape[1]):
            if index != self.ignore_indiex:
                loss = self.binarydiceloss(logits[:, index], label[:, index])
                total = total + (loss if self.weights is None else loss * self.weights[index])
        return total / label.shape[1]


def _dice_activation(owner: str, activation):
    """The activation Cell named by ``activation`` (or the Cell itself, or None)."""
    if isinstance(activation, str):
        if activation not in _DICE_ACTIVATIONS:
            raise ValueError(f"For '{owner}', the 'activation' must be in "
                             f"{list(_DICE_ACTIVATIONS)}, but got {activation}.")
        return _DICE_ACTIVATIONS[activation]()
    if activation is not None and not isinstance(activation, Cell):
        raise TypeError(f"For '{owner}', the 'activation' must be str or Cell, but got "
                        f"{type(activation)}.")
    return activation


class FocalLoss(LossBase):
    """``nn.FocalLoss(weight=None, gamma=2.0, reduction='mean')``: the focal loss
    ``-(1 - p) ** gamma * log(p)`` of the softmax (over axis 1) of ``logits`` at the
    one-hot (or, with one channel, index) ``labels``, averaged over the channels, each class
    weighed by ``weight`` when given, then reduced.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> logits = ms.Tensor([[0.5, 1.5], [2.0, -1.0]])
        >>> print(nn.FocalLoss()(logits, ms.Tensor([[1], [0]], ms.int32)))
        0.011383673
    """

    def __init__(self, weight=None, gamma: float = 2.0, reduction: str = "mean"):
        super().__init__(reduction)
        if not isinstance(gamma, float):
            raise TypeError(f"The type of 'gamma' should be 'float', but got type "
                            f"'{type(gamma).__name__}'.")
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For 'FocalLoss', the type of 'weight' must be a Tensor, but got "
                            f"{type(weight).__name__}.")
        if weight is not None and weight.ndim != 1:
            raise ValueError(f"For 'FocalLoss', the dimension of 'weight' must be 1, but got "
                             f"{weight.ndim}.")
        self.weight, self.gamma = weight, gamma
        self.logsoftmax = LogSoftmax(1)

    def construct(self, logits, labels):
        for name, value in (("logits", logits), ("labels", labels)):
            _check_tensor("FocalLoss", name, value)
        rows, channels = logits.shape[0], logits.shape[1]
        log_probability = self.logsoftmax(logits.reshape(rows, channels, -1))
        labels_3d = labels.reshape(rows, labels.shape[1], -1)
        weight = None if self.weight is None else self.weight.reshape(1, channels, 1)
        if labels.shape[1] == 1:  # class indices: take each position's class
            indices = labels_3d.long()
            log_probability = _ug.gather(log_probability, 1, indices).squeeze(1)
            if weight is not None:
                weight = _ug.gather(weight.expand(rows, channels, labels_3d.shape[2]), 1,
                                    indices).squeeze(1)
        focus = (1.0 - _ug.exp(log_probability)) ** self.gamma
        if weight is not None:
            log_probability = log_probability * weight
        if labels.shape[1] == 1:
            return self.get_loss((-focus * log_probability).mean(1))
        return self.get_loss((-focus * labels_3d * log_probability).mean(-1))


class MultiMarginLoss(LossBase):
    """``nn.MultiMarginLoss(p=1, margin=1.0, reduction='mean', weight=None)``: for each row,
    ``sum_{i != y} max(0, margin - x[y] + x[i]) ** p / C`` (each term scaled by
    ``weight[y]``); called as ``loss(x, target, weight=None)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> x = ms.Tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> print(nn.MultiMarginLoss()(x, ms.Tensor([3], ms.int64)))
        0.325
    """

    def __init__(self, p: int = 1, margin: float = 1.0, reduction: str = "mean", weight=None):
        super().__init__(reduction)
        if p not in (1, 2):
            raise ValueError(f"For 'MultiMarginLoss', the 'p' must be 1 or 2, but got {p}.")
        self.p, self.margin, self.weight = p, margin, weight

    def construct(self, x, target, weight=None):
        for name, value in (("x", x), ("target", target)):
            _check_tensor("MultiMarginLoss", name, value)
        weight = self.weight if self.weight is not None else weight
        return _functional.multi_margin_loss(x, target, self.p, float(self.margin), weight,
                                             reduction=self.reduction)


class _LateReduction(LossBase):
    """A loss whose ``reduction`` is checked when it is called (by the functional loss), as
    MindSpore's primitive does."""

    def __init__(self, reduction: str = "mean"):
        super().__init__()
        self.reduction = reduction


class SoftMarginLoss(_LateReduction):
    """``nn.SoftMarginLoss(reduction='mean')``: ``log(1 + exp(-labels * logits))``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.SoftMarginLoss("none")(ms.Tensor([0.0, 2.0]), ms.Tensor([1.0, -1.0])))
        [0.6931472 2.126928 ]
    """

    def construct(self, logits, labels):
        return _functional.soft_margin_loss(logits, labels, reduction=self.reduction)


class TripletMarginLoss(_LateReduction):
    """``nn.TripletMarginLoss(p=2, swap=False, eps=1e-6, reduction='mean', margin=1.0)``:
    ``max(d(x, positive) - d(x, negative) + margin, 0)`` with ``d`` the ``p``-norm
    distance (``eps`` added to the difference); called as ``loss(x, positive, negative,
    margin=1.0)`` (the constructor's ``margin`` wins unless it is 1.0).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> anchor = ms.Tensor([[0.0, 0.0]])
        >>> print(nn.TripletMarginLoss()(anchor, ms.Tensor([[3.0, 4.0]]), ms.Tensor([[1.0, 0.0]])))
        4.9999995
    """

    def __init__(self, p: int = 2, swap: bool = False, eps: float = 1e-6,
                 reduction: str = "mean", margin: float = 1.0):
        super().__init__(reduction)
        self.p, self.swap, self.eps, self.margin = p, swap, eps, margin

    def construct(self, x, positive, negative, margin=1.0):
        if self.margin != 1.0:
            margin = self.margin
        margin = float(margin.item()) if isinstance(margin, _ug.Tensor) else float(margin)
        return _functional.triplet_margin_loss(x, positive, negative, margin, self.p, self.eps,
                                               self.swap, reduction=self.reduction)


class MultilabelMarginLoss(_LateReduction):
    """``nn.MultilabelMarginLoss(reduction='mean')``: for each row, ``sum_{j, i}
    max(0, 1 - (x[y[j]] - x[i])) / C`` over the target classes ``y[j]`` (up to the first
    ``-1``) and the other classes ``i``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> x = ms.Tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> print(nn.MultilabelMarginLoss()(x, ms.Tensor([[3, 0, -1, 1]], ms.int32)))
        0.85
    """

    def construct(self, x, target):
        return _functional.multilabel_margin_loss(x, target.long(), reduction=self.reduction)


class L1LossExt(LossBase):
    """``nn.L1LossExt(reduction='mean')``: ``|input - target|``, averaged, summed or not
    reduced.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> print(nn.L1LossExt()(ms.Tensor([1.0, 4.0]), ms.Tensor([2.0, 2.0])))
        1.5
    """

    def construct(self, input, target):  # noqa: A002 - MindSpore's argument name
        return _functional.l1_loss(input, target, reduction=self.reduction)



class CTCLoss(_LateReduction):
    """``nn.CTCLoss(blank=0, reduction='mean', zero_infinity=False)``: the connectionist
    temporal classification loss of ``log_probs`` ``(T, N, C)`` against ``targets``, called
    as ``loss(log_probs, targets, input_lengths, target_lengths)``; ``'mean'`` divides each
    sample's loss by its target length before averaging.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> log_probs = ms.ops.log_softmax(ms.ops.zeros((3, 1, 2), ms.float32), -1)
        >>> lengths = ms.Tensor([3], ms.int32), ms.Tensor([1], ms.int32)
        >>> print(nn.CTCLoss(reduction="sum")(log_probs, ms.Tensor([[1]], ms.int32), *lengths))
        0.28768206
    """

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False):
        super().__init__(reduction)
        self.blank, self.zero_infinity = blank, zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        return _functional.ctc_loss(log_probs, targets, input_lengths, target_lengths,
                                    self.blank, self.reduction, self.zero_infinity)
