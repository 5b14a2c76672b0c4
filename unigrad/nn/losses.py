"""Loss Cells over the functional losses, PyTorch's and MindSpore's names.

Every loss takes ``reduction`` (``'none'``, ``'mean'`` or ``'sum'``; anything
else raises ``ValueError("{reduction} is not a valid value for reduction")``)
as its first argument, as MindSpore does; PyTorch's deprecated
``size_average``/``reduce`` flags are keyword-only. Class ``weight`` and
``pos_weight`` tensors are buffers (they follow ``to()`` and appear in
``state_dict``), as in PyTorch.

Example:
    >>> import unigrad as ug
    >>> ug.nn.MSELoss()(ug.tensor(20.0), ug.tensor(19.0))
    tensor(1.)
    >>> ug.nn.CrossEntropyLoss(label_smoothing=0.1)(ug.zeros(2, 4), ug.tensor([1, 3]))
    tensor(1.3863)
"""

from __future__ import annotations

import numbers

from ..interpreters import has_values
from ..ops.elementwise import abs, where
from ..ops.nn_losses import _reduce, _reduction, _warn_broadcast
from ..tensor import Tensor
from . import functional as F
from .cell import Cell


def _optional_tensor(value, name: str, owner: str) -> Tensor | None:
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"{owner}: argument '{name}' must be a ug.Tensor or None, "
                        f"got {type(value).__name__}")
    return value


def _class_weight(weight, owner: str) -> Tensor | None:
    weight = _optional_tensor(weight, "weight", owner)
    if weight is not None and weight.ndim != 1:
        raise ValueError(f"{owner}: 'weight' must be a 1-D tensor with one entry per class, "
                         f"got shape {tuple(weight.shape)}")
    return weight


def _ignore_index(value, owner: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{owner}: argument 'ignore_index' must be an int, "
                        f"got {type(value).__name__}")
    return int(value)


class _Loss(Cell):
    """Holds the validated ``reduction``."""

    def __init__(self, reduction: str = "mean", size_average=None, reduce=None):
        super().__init__()
        self.reduction = _reduction(reduction, size_average, reduce)


class MSELoss(_Loss):
    """Mean squared error ``(input - target) ** 2`` (PyTorch, MindSpore).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.MSELoss(reduction="none")(ug.tensor([1.0, 3.0]), ug.tensor([0.0, 0.0]))
        tensor([1., 9.])
    """

    def __init__(self, reduction: str = "mean", *, size_average=None, reduce=None):
        super().__init__(reduction, size_average, reduce)

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    """Mean absolute error ``|input - target|``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.L1Loss(reduction="sum")(ug.tensor([1.0, -3.0]), ug.tensor([0.0, 0.0]))
        tensor(4.)
    """

    def __init__(self, reduction: str = "mean", *, size_average=None, reduce=None):
        super().__init__(reduction, size_average, reduce)

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """``0.5 d ** 2 / beta`` where ``|d| < beta``, ``|d| - 0.5 beta`` elsewhere (``d = x - y``).

    ``beta=0`` is the L1 loss. (MindSpore's ``SmoothL1Loss`` defaults to
    ``reduction='none'``; this class keeps PyTorch's ``'mean'``.)

    Example:
        >>> import unigrad as ug
        >>> ug.nn.SmoothL1Loss(reduction="none")(ug.tensor([0.5, 3.0]), ug.tensor([0.0, 0.0]))
        tensor([0.1250, 2.5000])
    """

    def __init__(self, reduction: str = "mean", beta: float = 1.0, *, size_average=None,
                 reduce=None):
        super().__init__(reduction, size_average, reduce)
        if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
            raise TypeError(f"SmoothL1Loss: argument 'beta' must be a real number, "
                            f"got {type(beta).__name__}")
        if beta < 0:
            raise ValueError("smooth_l1_loss does not support negative values for beta.")
        self.beta = float(beta)

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        _warn_broadcast(input, target)
        difference = input - target
        distance = abs(difference)
        if self.beta == 0.0:
            return _reduce(distance, self.reduction)
        loss = where(distance < self.beta, difference * difference * (0.5 / self.beta),
                     distance - 0.5 * self.beta)
        return _reduce(loss, self.reduction)


class HuberLoss(_Loss):
    """``0.5 d ** 2`` where ``|d| < delta``, ``delta (|d| - 0.5 delta)`` elsewhere.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.HuberLoss(delta=2.0)(ug.tensor([1.0, 4.0]), ug.tensor([0.0, 0.0]))
        tensor(3.2500)
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0):
        super().__init__(reduction)
        if isinstance(delta, bool) or not isinstance(delta, numbers.Real):
            raise TypeError(f"HuberLoss: argument 'delta' must be a real number, "
                            f"got {type(delta).__name__}")
        if delta <= 0:
            raise ValueError("huber_loss does not support non-positive values for delta.")
        self.delta = float(delta)

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        _warn_broadcast(input, target)
        difference = input - target
        distance = abs(difference)
        loss = where(distance < self.delta, difference * difference * 0.5,
                     (distance - 0.5 * self.delta) * self.delta)
        return _reduce(loss, self.reduction)


class NLLLoss(_Loss):
    """Negative log likelihood of log-probabilities at class indices.

    ``input`` is ``(C,)``, ``(N, C)`` or ``(N, C, d1, ...)``; ``weight``
    rescales classes (the mean divides by the summed weights of the
    targets); targets equal to ``ignore_index`` contribute nothing.

    Example:
        >>> import unigrad as ug
        >>> loss = ug.nn.NLLLoss(weight=ug.tensor([1.0, 3.0]))
        >>> loss(ug.tensor([[-0.5, -1.0], [-2.0, -0.1]]), ug.tensor([0, 1]))
        tensor(0.2000)
    """

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100,
                 reduction: str = "mean", *, size_average=None, reduce=None):
        super().__init__(reduction, size_average, reduce)
        self.register_buffer("weight", _class_weight(weight, "NLLLoss"))
        self.ignore_index = _ignore_index(ignore_index, "NLLLoss")

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(input, target, self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_Loss):
    """Cross entropy of logits against class indices or class probabilities.

    ``input`` is ``(C,)``, ``(N, C)`` or ``(N, C, d1, ...)``. An integer
    ``target`` of shape ``(N, d1, ...)`` holds class indices (entries equal
    to ``ignore_index`` are skipped); a floating ``target`` of the input's
    shape holds probabilities. ``label_smoothing`` mixes the target with the
    uniform distribution; ``weight`` rescales classes.

    Example:
        >>> import unigrad as ug
        >>> logits = ug.tensor([[2.0, 0.0], [0.0, 2.0]])
        >>> ug.nn.CrossEntropyLoss()(logits, ug.tensor([0, 1]))
        tensor(0.1269)
        >>> ug.nn.CrossEntropyLoss()(logits, ug.tensor([[1.0, 0.0], [0.0, 1.0]]))
        tensor(0.1269)
    """

    def __init__(self, weight: Tensor | None = None, ignore_index: int = -100,
                 reduction: str = "mean", label_smoothing: float = 0.0, *, size_average=None,
                 reduce=None):
        super().__init__(reduction, size_average, reduce)
        self.register_buffer("weight", _class_weight(weight, "CrossEntropyLoss"))
        self.ignore_index = _ignore_index(ignore_index, "CrossEntropyLoss")
        if isinstance(label_smoothing, bool) or not isinstance(label_smoothing, numbers.Real):
            raise TypeError(f"CrossEntropyLoss: argument 'label_smoothing' must be a real "
                            f"number, got {type(label_smoothing).__name__}")
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                             f"{label_smoothing}")
        self.label_smoothing = float(label_smoothing)

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(input, target, self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCELoss(_Loss):
    """Binary cross entropy of probabilities in ``[0, 1]`` (logs clamped at -100).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.BCELoss()(ug.tensor([0.5, 0.9]), ug.tensor([1.0, 1.0]))
        tensor(0.3993)
    """

    def __init__(self, weight: Tensor | None = None, reduction: str = "mean", *,
                 size_average=None, reduce=None):
        super().__init__(reduction, size_average, reduce)
        self.register_buffer("weight", _optional_tensor(weight, "weight", "BCELoss"))

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy of logits (a stable ``BCELoss(sigmoid(input))``).

    ``weight`` rescales each element (broadcast); ``pos_weight`` rescales the
    positive term per class (broadcast along the last dimension).

    Example:
        >>> import unigrad as ug
        >>> loss = ug.nn.BCEWithLogitsLoss(pos_weight=ug.tensor([2.0]))
        >>> loss(ug.tensor([0.0]), ug.tensor([1.0]))
        tensor(1.3863)
    """

    def __init__(self, weight: Tensor | None = None, reduction: str = "mean",
                 pos_weight: Tensor | None = None, *, size_average=None, reduce=None):
        super().__init__(reduction, size_average, reduce)
        self.register_buffer("weight", _optional_tensor(weight, "weight", "BCEWithLogitsLoss"))
        self.register_buffer("pos_weight",
                             _optional_tensor(pos_weight, "pos_weight", "BCEWithLogitsLoss"))

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(input, target, self.weight,
                                                  reduction=self.reduction,
                                                  pos_weight=self.pos_weight)


class SoftmaxCrossEntropyWithLogits(_Loss):
    """MindSpore's softmax cross entropy: ``-sum(labels * log_softmax(logits), -1)``.

    ``logits`` is ``(N, C)`` (or ``(C,)``); ``labels`` are one-hot or soft
    probabilities of the same shape, or, with ``sparse=True``, class indices
    ``(N,)`` in ``[0, C)``. The default ``reduction`` is ``'none'`` (one loss
    per sample), as in MindSpore.

    Example:
        >>> import unigrad as ug
        >>> loss = ug.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        >>> loss(ug.tensor([[2.0, 0.0], [0.0, 2.0]]), ug.tensor([0, 1]))
        tensor(0.1269)
        >>> ug.nn.SoftmaxCrossEntropyWithLogits()(ug.zeros(1, 2), ug.tensor([[0, 1]]))
        tensor([0.6931])
    """

    def __init__(self, sparse: bool = False, reduction: str = "none"):
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"For 'SoftmaxCrossEntropyWithLogits', the 'sparse' must be a bool, "
                            f"but got {type(sparse).__name__}")
        self.sparse = sparse

    def construct(self, logits: Tensor, labels: Tensor) -> Tensor:
        owner = "For 'SoftmaxCrossEntropyWithLogits'"
        shape = tuple(logits.shape)
        if len(shape) not in (1, 2):
            raise ValueError(f"{owner}, 'logits' must be 1-D or 2-D (N, C), but got shape "
                             f"{shape}")
        if not isinstance(labels, Tensor):
            raise TypeError(f"{owner}, 'labels' must be a ug.Tensor, "
                            f"got {type(labels).__name__}")
        if self.sparse:
            if tuple(labels.shape) != shape[:-1]:
                raise ValueError(f"{owner}, with sparse=True 'labels' must have shape "
                                 f"{shape[:-1]}, but got {tuple(labels.shape)}")
            if labels.dtype.is_floating_point:
                raise TypeError(f"{owner}, with sparse=True 'labels' must hold integer class "
                                f"indices, but got {labels.dtype}")
            traced = not has_values(labels)  # traced or batched labels have no values yet
            if labels.numel() and not traced and (int(labels.min()) < 0
                                                  or int(labels.max()) >= shape[-1]):
                raise ValueError(f"{owner}, 'labels' must be in [0, {shape[-1]}), but got "
                                 f"values in [{int(labels.min())}, {int(labels.max())}]")
        else:
            if tuple(labels.shape) != shape:
                raise ValueError(f"{owner}, 'labels' must have the shape of 'logits' {shape}, "
                                 f"but got {tuple(labels.shape)}")
            labels = labels.to(logits.dtype)
        return F.cross_entropy(logits, labels, reduction=self.reduction)


__all__ = ["MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "NLLLoss", "CrossEntropyLoss",
           "BCELoss", "BCEWithLogitsLoss", "SoftmaxCrossEntropyWithLogits"]
