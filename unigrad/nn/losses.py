"""Loss Cells over the functional losses, PyTorch's and MindSpore's names.

Every loss takes ``reduction`` (``'none'``, ``'mean'`` or ``'sum'``; anything
else raises ``ValueError("{reduction} is not a valid value for reduction")``).
The losses MindSpore shares (``MSELoss`` to ``BCEWithLogitsLoss``) take it as
their first argument, as MindSpore does, with PyTorch's deprecated
``size_average``/``reduce`` flags keyword-only; the PyTorch-only losses
(``KLDivLoss`` onwards) take PyTorch's arguments in PyTorch's order. Class
``weight`` and ``pos_weight`` tensors are buffers (they follow ``to()`` and
appear in ``state_dict``), as in PyTorch.

Example:
    >>> import unigrad as ug
    >>> ug.nn.MSELoss()(ug.tensor(20.0), ug.tensor(19.0))
    tensor(1.)
    >>> ug.nn.CrossEntropyLoss(label_smoothing=0.1)(ug.zeros(2, 4), ug.tensor([1, 3]))
    tensor(1.3863)
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable

from ..interpreters import has_values
from ..ops.nn_losses import _KL_REDUCTIONS, LinearCrossEntropyOptions, _reduction
from ..tensor import Tensor
from . import functional as F
from .cell import Cell
from .layers.distance import PairwiseDistance
from .layers.linear import Linear


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
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


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
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


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


class LinearCrossEntropyLoss(_Loss):
    """Cross entropy of ``linear(input)`` with a learnable ``linear`` layer (PyTorch's).

    ``linear`` is a :class:`Linear` from ``in_features`` to
    ``num_classes * prod(out_features)`` outputs, reshaped to
    ``(num_classes, *out_features, in_features)`` in :meth:`forward`, which
    calls :func:`unigrad.nn.functional.linear_cross_entropy`. ``weight`` (class
    weights) is a buffer; ``ignore_index=None`` means -100 for class indices.

    Example:
        >>> import unigrad as ug
        >>> loss = ug.nn.LinearCrossEntropyLoss(3, 4)
        >>> loss
        LinearCrossEntropyLoss(
          in_features=3, num_classes=4, out_features=(), bias=False, reduction=mean, \
ignore_index=None, label_smoothing=0.0, options=None
          (linear): Linear(in_features=3, out_features=4, bias=False)
        )
        >>> _ = ug.nn.init.zeros_(loss.linear.weight)
        >>> loss(ug.ones(2, 3), ug.tensor([0, 2]))
        tensor(1.3863, grad_fn=<...>)
    """

    def __init__(self, in_features: int, num_classes: int, *, out_features: tuple = (),
                 bias: bool = False, device=None, dtype=None, reduction: str = "mean",
                 weight: Tensor | None = None, ignore_index: int | None = None,
                 label_smoothing: float = 0.0, options=None):
        owner = "LinearCrossEntropyLoss"
        weight = _optional_tensor(weight, "weight", owner)
        if weight is not None and tuple(weight.shape) != (num_classes,):
            raise RuntimeError(f"expected weight shape to be {(num_classes,)}, got "
                               f"{tuple(weight.shape)}")
        if isinstance(label_smoothing, bool) or not isinstance(label_smoothing, numbers.Real):
            raise TypeError(f"{owner}: argument 'label_smoothing' must be a real number, "
                            f"got {type(label_smoothing).__name__}")
        if not 0.0 <= label_smoothing <= 1.0:
            raise RuntimeError(f"expected label_smoothing to be in range [0, 1], got "
                               f"{label_smoothing}")
        if options is not None and not isinstance(options, LinearCrossEntropyOptions):
            raise TypeError(f"{owner}: argument 'options' must be a LinearCrossEntropyOptions "
                            f"or None, got {type(options).__name__}")
        out_features = tuple(out_features)
        super().__init__(reduction)
        self.register_buffer("weight", weight)
        self.num_classes, self.out_features = num_classes, out_features
        self.ignore_index = None if ignore_index is None else _ignore_index(ignore_index, owner)
        self.label_smoothing = label_smoothing
        self.linear = Linear(in_features, math.prod(out_features) * num_classes, bias=bias,
                             device=device, dtype=dtype)
        self.options = options

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        shape = (self.num_classes, *self.out_features)
        bias = self.linear.bias
        return F.linear_cross_entropy(
            input, self.linear.weight.reshape(shape + (self.linear.in_features,)), target,
            linear_bias=None if bias is None else bias.reshape(shape), weight=self.weight,
            reduction=self.reduction, ignore_index=self.ignore_index,
            label_smoothing=self.label_smoothing, options=self.options)

    def extra_repr(self) -> str:
        return (f"in_features={self.linear.in_features}, num_classes={self.num_classes}, "
                f"out_features={self.out_features}, bias={self.linear.bias is not None}, "
                f"reduction={self.reduction}, ignore_index={self.ignore_index}, "
                f"label_smoothing={self.label_smoothing}, options={self.options}")


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


class _TorchLoss(_Loss):
    """A PyTorch-only loss: ``size_average``, ``reduce`` and ``reduction`` in PyTorch's order."""

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean"):
        super().__init__(reduction, size_average, reduce)


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence of log-probabilities ``input`` from ``target``.

    ``reduction='batchmean'`` divides the sum by the batch size (the KL
    divergence); ``log_target=True`` takes ``target`` as log-probabilities.

    Example:
        >>> import unigrad as ug
        >>> loss = ug.nn.KLDivLoss(reduction="batchmean", log_target=True)
        >>> loss(ug.log(ug.tensor([[0.5, 0.5]])), ug.log(ug.tensor([[0.25, 0.75]])))
        tensor(0.1308)
    """

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean",
                 log_target: bool = False):
        if reduction in _KL_REDUCTIONS and size_average is None and reduce is None:
            Cell.__init__(self)
            self.reduction = reduction
        else:
            super().__init__(reduction, size_average, reduce)
        self.log_target = log_target

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class PoissonNLLLoss(_TorchLoss):
    """Poisson negative log likelihood (see ``F.poisson_nll_loss``).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.PoissonNLLLoss()(ug.tensor([0.0, 1.0]), ug.tensor([1.0, 2.0]))
        tensor(0.8591)
    """

    def __init__(self, log_input: bool = True, full: bool = False, size_average=None,
                 eps: float = 1e-8, reduce=None, reduction: str = "mean"):
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def construct(self, log_input: Tensor, target: Tensor) -> Tensor:
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full,
                                  eps=self.eps, reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    """Gaussian negative log likelihood with predicted variances (see ``F.gaussian_nll_loss``).

    Example:
        >>> import unigrad as ug
        >>> loss = ug.nn.GaussianNLLLoss()
        >>> loss(ug.tensor([1.0, 3.0]), ug.tensor([0.0, 1.0]), ug.tensor([1.0, 2.0]))
        tensor(0.9233)
    """

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean"):
        super().__init__(reduction)
        self.full = full
        self.eps = eps

    def construct(self, input: Tensor, target: Tensor, var) -> Tensor:
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps,
                                   reduction=self.reduction)


class _MarginLoss(_TorchLoss):
    """Holds ``margin`` (first, as in PyTorch) and the reduction."""

    def __init__(self, margin: float, size_average=None, reduce=None,
                 reduction: str = "mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin


class MarginRankingLoss(_MarginLoss):
    """``max(0, -y * (x1 - x2) + margin)`` (see ``F.margin_ranking_loss``).

    Example:
        >>> import unigrad as ug
        >>> loss = ug.nn.MarginRankingLoss(margin=0.5)
        >>> loss(ug.tensor([1.0, 1.0]), ug.tensor([0.0, 0.0]), ug.tensor([1.0, -1.0]))
        tensor(0.7500)
    """

    def __init__(self, margin: float = 0.0, size_average=None, reduce=None,
                 reduction: str = "mean"):
        super().__init__(margin, size_average, reduce, reduction)

    def construct(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin,
                                     reduction=self.reduction)


class HingeEmbeddingLoss(_MarginLoss):
    """``x`` where ``y`` is 1, ``max(0, margin - x)`` where ``y`` is -1.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.HingeEmbeddingLoss()(ug.tensor([0.3, 0.3]), ug.tensor([1.0, -1.0]))
        tensor(0.5000)
    """

    def __init__(self, margin: float = 1.0, size_average=None, reduce=None,
                 reduction: str = "mean"):
        super().__init__(margin, size_average, reduce, reduction)

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return F.hinge_embedding_loss(input, target, margin=self.margin,
                                      reduction=self.reduction)


class CosineEmbeddingLoss(_MarginLoss):
    """``1 - cos(x1, x2)`` where ``y`` is 1, ``max(0, cos(x1, x2) - margin)`` where -1.

    Example:
        >>> import unigrad as ug
        >>> loss = ug.nn.CosineEmbeddingLoss()
        >>> loss(ug.tensor([[1.0, 0.0]]), ug.tensor([[0.0, 1.0]]), ug.tensor([1]))
        tensor(1.)
    """

    def __init__(self, margin: float = 0.0, size_average=None, reduce=None,
                 reduction: str = "mean"):
        super().__init__(margin, size_average, reduce, reduction)

    def construct(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin,
                                       reduction=self.reduction)


class TripletMarginLoss(_MarginLoss):
    """``max(d(a, p) - d(a, n) + margin, 0)`` with the p-norm distance ``d``.

    Example:
        >>> import unigrad as ug
        >>> loss = ug.nn.TripletMarginLoss(eps=0.0)
        >>> loss(ug.tensor([[0.0, 0.0]]), ug.tensor([[3.0, 4.0]]), ug.tensor([[0.0, 1.0]]))
        tensor(5.)
    """

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                 swap: bool = False, size_average=None, reduce=None, reduction: str = "mean"):
        super().__init__(margin, size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got "
                             f"{margin} instead")
        self.p = p
        self.eps = eps
        self.swap = swap

    def construct(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p,
                                     eps=self.eps, swap=self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """:class:`TripletMarginLoss` with any ``distance_function(x1, x2)``.

    The default distance is a :class:`PairwiseDistance` submodule, as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> loss = ug.nn.TripletMarginWithDistanceLoss(
        ...     distance_function=lambda x1, x2: (x1 - x2).abs().sum(-1))
        >>> loss(ug.zeros(1, 2), ug.ones(1, 2), ug.zeros(1, 2))
        tensor(3.)
    """

    def __init__(self, *, distance_function: Callable | None = None, margin: float = 1.0,
                 swap: bool = False, reduction: str = "mean"):
        super().__init__(reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater "
                             f"than 0, got {margin} instead")
        self.distance_function = (PairwiseDistance() if distance_function is None
                                  else distance_function)
        self.margin = margin
        self.swap = swap

    def construct(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_with_distance_loss(
            anchor, positive, negative, distance_function=self.distance_function,
            margin=self.margin, swap=self.swap, reduction=self.reduction)


class MultiMarginLoss(_TorchLoss):
    """Multi-class hinge loss (see ``F.multi_margin_loss``); ``weight`` is a buffer.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.MultiMarginLoss()(ug.tensor([[0.1, 0.2, 0.4, 0.8]]), ug.tensor([3]))
        tensor(0.3250)
    """

    def __init__(self, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
                 size_average=None, reduce=None, reduction: str = "mean"):
        super().__init__(size_average, reduce, reduction)
        if p != 1 and p != 2:
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.ndim != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got "
                             f"{weight.ndim}D instead")
        self.register_buffer("weight", _optional_tensor(weight, "weight", "MultiMarginLoss"))
        self.p = p
        self.margin = margin

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin,
                                   weight=self.weight, reduction=self.reduction)


class MultiLabelMarginLoss(_TorchLoss):
    """Multi-label hinge loss over ``-1``-terminated target class lists.

    Example:
        >>> import unigrad as ug
        >>> loss = ug.nn.MultiLabelMarginLoss()
        >>> loss(ug.tensor([[0.1, 0.2, 0.4, 0.8]]), ug.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_TorchLoss):
    """Per-class logistic losses averaged over the classes; ``weight`` is a buffer.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.MultiLabelSoftMarginLoss()(ug.tensor([[0.0, 2.0]]), ug.tensor([[1.0, 0.0]]))
        tensor(1.4100)
    """

    def __init__(self, weight: Tensor | None = None, size_average=None, reduce=None,
                 reduction: str = "mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", _optional_tensor(weight, "weight",
                                                        "MultiLabelSoftMarginLoss"))

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight,
                                             reduction=self.reduction)


class SoftMarginLoss(_TorchLoss):
    """Two-class logistic loss ``log(1 + exp(-y * x))``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.SoftMarginLoss()(ug.tensor([0.0, 2.0]), ug.tensor([1.0, -1.0]))
        tensor(1.4100)
    """

    def construct(self, input: Tensor, target: Tensor) -> Tensor:
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class CTCLoss(_Loss):
    """Connectionist temporal classification loss (see ``F.ctc_loss``).

    Example:
        >>> import unigrad as ug
        >>> log_probs = ug.log(ug.full((2, 1, 2), 0.5))
        >>> ug.nn.CTCLoss(reduction="sum")(log_probs, ug.tensor([[1]]), [2], [1])
        tensor(0.2877)
    """

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False):
        super().__init__(reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def construct(self, log_probs: Tensor, targets: Tensor, input_lengths,
                  target_lengths) -> Tensor:
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                          self.reduction, self.zero_infinity)


class NLLLoss2d(NLLLoss):
    """PyTorch's deprecated alias of :class:`NLLLoss` (warns ``FutureWarning``).

    Example:
        >>> import warnings
        >>> import unigrad as ug
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     loss = ug.nn.NLLLoss2d()
        >>> loss(ug.tensor([[-0.5, -1.0]]), ug.tensor([1]))
        tensor(1.)
    """

    def __init__(self, weight: Tensor | None = None, size_average=None,
                 ignore_index: int = -100, reduce=None, reduction: str = "mean"):
        warnings.warn("`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a "
                      "drop-in replacement and see https://pytorch.org/docs/main/nn.html"
                      "#torch.nn.NLLLoss for more details.", FutureWarning, stacklevel=2)
        super().__init__(weight, ignore_index, reduction, size_average=size_average,
                         reduce=reduce)


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
           "BCELoss", "BCEWithLogitsLoss", "KLDivLoss", "PoissonNLLLoss", "GaussianNLLLoss",
           "MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss", "TripletMarginLoss",
           "TripletMarginWithDistanceLoss", "MultiMarginLoss", "MultiLabelMarginLoss",
           "MultiLabelSoftMarginLoss", "SoftMarginLoss", "CTCLoss", "NLLLoss2d",
           "SoftmaxCrossEntropyWithLogits", "LinearCrossEntropyLoss", "LinearCrossEntropyOptions"]
