"""Loss functions of ``unigrad.nn.functional`` with PyTorch's signatures and reductions.

Class-index targets are turned into a constant "selector" by one primitive
(one-hot rows times class weights, smoothing and the ignore mask, pre-divided
by the mean's denominator), so ``cross_entropy`` records only three nodes:
``log_softmax``, a product and a sum. As in PyTorch, a loss's ``grad_fn``
shows one node of the loss (``NllLossBackward0``, ``MseLossBackward0``...)
over its operands.

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> logits = ug.tensor([[2.0, 0.0], [0.0, 2.0]], requires_grad=True)
    >>> F.cross_entropy(logits, ug.tensor([0, 1]))
    tensor(0.1269, grad_fn=<NllLossBackward0>)
"""

from __future__ import annotations

import builtins
import dataclasses
import math
import warnings

import numpy as np

from .. import _state, backend
from ..autograd.node import present_as
from ..backend import namespace_of
from ..interpreters import has_values
from ..interpreters.batching import looped_batch_rule, move_to_front, ndim_of
from ..tensor import Tensor
from ._dtypes import float_operand
from ._primitive import Primitive, bind
from ._shape_rules import elementwise_rule, shape_of
from .elementwise import abs, clip, exp, log, log1p, maximum, minimum, relu, sqrt, where
from .elementwise_math import clamp_min, xlogy
from .indexing import gather
from .nn_activations import log_softmax, logsigmoid, one_hot
from .nn_distance import pairwise_distance
from .reduce import cumsum, mean, sum
from .registry import op
from .shape import broadcast_to, cat, reshape, squeeze, unsqueeze

_local = _state.local

_REDUCTIONS = ("none", "mean", "sum")


def _reduction(reduction: str, size_average=None, reduce=None) -> str:
    """The reduction, honouring PyTorch's deprecated ``size_average``/``reduce`` flags."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        legacy = "none" if not reduce else ("mean" if size_average else "sum")
        warnings.warn(f"size_average and reduce args will be deprecated, please use "
                      f"reduction='{legacy}' instead.", stacklevel=3)
        return legacy
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _reduce(loss, reduction: str):
    if reduction == "mean":
        return mean(loss)
    if reduction == "sum":
        return sum(loss)
    return loss


def _data(value):
    return value._data if isinstance(value, Tensor) else value


def _weighted(loss, weight, reduction: str):
    """PyTorch's per-element ``weight`` of mse/l1: the mean divides by ``weight.sum()``."""
    if tuple(weight.shape) != tuple(loss.shape):
        raise ValueError("Weights and input must have the same size.")
    loss = loss * weight
    if reduction == "mean":
        return sum(loss) / sum(weight)
    return _reduce(loss, reduction)


def _warn_broadcast(input, target) -> None:
    if tuple(input.shape) != tuple(target.shape):
        warnings.warn(f"Using a target size ({list(target.shape)}) that is different to the "
                      f"input size ({list(input.shape)}). This will likely lead to incorrect "
                      f"results due to broadcasting. Please ensure they have the same size.",
                      stacklevel=3)


def _broadcast_pair(input, target):
    """``input`` and ``target`` expanded to their common shape, as PyTorch's mse, huber and
    smooth L1 losses do first (their nodes' operands are the expanded views)."""
    input_shape, target_shape = tuple(input.shape), tuple(target.shape)
    if input_shape == target_shape:
        return input, target
    try:
        shape = np.broadcast_shapes(input_shape, target_shape)
    except ValueError:
        return input, target  # the arithmetic raises PyTorch's error
    return tuple(broadcast_to(value, shape) if isinstance(value, Tensor) else value
                 for value in (input, target))


@op(autocast="float32")
def mse_loss(input, target, size_average=None, reduce=None, reduction: str = "mean",
             weight=None):
    """Mean squared error ``(input - target) ** 2``, reduced by ``reduction``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.mse_loss(ug.tensor([1.0, 2.0]), ug.tensor([0.0, 0.0]))
        tensor(2.5000)
    """
    reduction = _reduction(reduction, size_average, reduce)
    _warn_broadcast(input, target)
    input, target = _broadcast_pair(input, target)
    difference = input - target
    loss = difference * difference
    if weight is not None:  # PyTorch: pow(input - target, 2) * weight, no loss node
        return _weighted(present_as(loss, "PowBackward0", difference), weight, reduction)
    return present_as(_reduce(loss, reduction), "MseLossBackward0", input, target)


@op(autocast="float32")
def l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean",
            weight=None):
    """Mean absolute error ``|input - target|``, reduced by ``reduction``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.l1_loss(ug.tensor([1.0, -3.0]), ug.tensor([0.0, 0.0]), reduction="sum")
        tensor(4.)
    """
    reduction = _reduction(reduction, size_average, reduce)
    _warn_broadcast(input, target)
    loss = abs(input - target)
    if weight is not None:
        return _weighted(loss, weight, reduction)
    return _reduce(loss, reduction)


# ----------------------------------------------------------------------------- binary

def _bce_impl(x, t):
    with np.errstate(divide="ignore"):
        log_x = np.maximum(np.log(x), -100.0)
        log_rest = np.maximum(np.log1p(-x), -100.0)
    return -(t * log_x + (1 - t) * log_rest)


def _bce_vjp(g, out, needs, x, t):
    grad_x = grad_t = None
    if needs[0]:
        grad_x = g * (x - t) / maximum((1.0 - x) * x, 1e-12)
    if needs[1]:
        grad_t = g * (log1p(-x) - log(x))
    return grad_x, grad_t


# A primitive rather than a composite of clamped logs: a saturated input (exactly 0 or 1,
# common after a float32 sigmoid) has a finite gradient, (x - t) / max(x (1 - x), 1e-12) as in
# PyTorch, where the composite's log rule would give 0 / 0 (tested in test_nn_functional).
binary_cross_entropy_p = Primitive("binary_cross_entropy", _bce_impl, elementwise_rule(),
                                   kind="elementwise", vjp=_bce_vjp)


@op(autocast="float32")
def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction: str = "mean"):
    """Binary cross entropy of probabilities ``input`` in [0, 1] (logs clamped at -100).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.binary_cross_entropy(ug.tensor([0.5, 0.9]), ug.tensor([1.0, 1.0]))
        tensor(0.3993)
    """
    reduction = _reduction(reduction, size_average, reduce)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({list(target.shape)}) that is different to the "
                         f"input size ({list(input.shape)}) is deprecated. Please ensure they "
                         f"have the same size.")
    data = _data(input)
    for name, values in (("input", data), ("target", _data(target))):
        if values.size and has_values(values) and not bool(((values >= 0) & (values <= 1)).all()):
            raise RuntimeError(f"all elements of {name} should be between 0 and 1")
    loss = bind(binary_cross_entropy_p, input, target)
    if weight is not None:
        loss = loss * weight
    if _needs_grad(weight):  # PyTorch: not differentiable in weight; no node of its own here
        return _reduce(loss, reduction)
    return present_as(_reduce(loss, reduction), "BinaryCrossEntropyBackward0", input, target)


@op(autocast="float32")
def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction: str = "mean", pos_weight=None):
    """``binary_cross_entropy(sigmoid(input), target)`` computed stably from logits.

    ``pos_weight`` multiplies the positive term, broadcast along the last axis.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.binary_cross_entropy_with_logits(ug.tensor([0.0, 2.0]), ug.tensor([1.0, 0.0]))
        tensor(1.4100)
    """
    reduction = _reduction(reduction, size_average, reduce)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({list(target.shape)}) must be the same as input size "
                         f"({list(input.shape)})")
    input = float_operand(input)
    log_sigmoid = logsigmoid(input)
    if pos_weight is not None:
        loss = (1.0 - target) * input - (1.0 + (pos_weight - 1.0) * target) * log_sigmoid
    else:
        loss = (1.0 - target) * input - log_sigmoid
    if weight is not None:
        loss = loss * weight
    if _needs_grad(weight) or _needs_grad(pos_weight):  # (PyTorch: not differentiable there)
        return _reduce(loss, reduction)
    return present_as(_reduce(loss, reduction), "BinaryCrossEntropyWithLogitsBackward0", input,
                      target)


def _needs_grad(value) -> bool:
    return isinstance(value, Tensor) and value._requires_grad


# ----------------------------------------------------------------------------- class indices

def _class_axis(input) -> int:
    return 0 if len(input.shape) == 1 else 1


def _check_class_target(input, target) -> None:
    target_data = _data(target)
    if target_data.dtype.kind not in "iu":
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{_type_name(target_data.dtype)}")
    input_shape, target_shape = tuple(input.shape), tuple(target.shape)
    if len(input_shape) == 1:
        if len(target_shape) > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        return
    if target_shape[:1] != input_shape[:1]:
        raise ValueError(f"Expected input batch_size ({input_shape[0]}) to match target "
                         f"batch_size ({target_shape[0] if target_shape else 0}).")
    if target_shape != input_shape[:1] + input_shape[2:]:
        raise RuntimeError(f"Expected target size {list(input_shape[:1] + input_shape[2:])}, "
                           f"got {list(target_shape)}")


def _type_name(dtype) -> str:
    return {"f": "Float", "b": "Bool"}.get(np.dtype(dtype).kind, np.dtype(dtype).name)


def _class_selector_impl(target, *weight, num_classes, ignore_index, label_smoothing,
                         class_axis, normalize, dtype):
    xp = namespace_of(target)
    if target.ndim == 1 and class_axis == 1 and not weight and not label_smoothing and \
            not (target == ignore_index).any():
        # the common case, (N, C) logits with plain class indices: scatter -1/N directly
        selector = xp.zeros((target.shape[0], num_classes), dtype=dtype)
        scale = -1.0 / target.shape[0] if normalize else -1.0
        selector[xp.arange(target.shape[0]), target] = scale if target.shape[0] else 0.0
        return selector
    valid = (target != ignore_index)[..., None]
    hot = ((xp.where(valid[..., 0], target, 0)[..., None] == xp.arange(num_classes)) & valid)
    hot = hot.astype(dtype)
    class_weights = weight[0].astype(dtype, copy=False) if weight else None
    if class_weights is not None:
        hot *= class_weights
    selector = hot
    if label_smoothing:
        spread = valid.astype(dtype) * (label_smoothing / num_classes)
        selector = hot * (1.0 - label_smoothing) + (spread if class_weights is None
                                                    else spread * class_weights)
    total = hot.sum() if normalize else 1.0
    selector *= -1.0 / total if total else 0.0  # an empty mean: the caller adds the NaN
    return xp.moveaxis(selector, -1, class_axis)


def _class_selector_rule(target, *weight, num_classes, ignore_index, label_smoothing,
                         class_axis, normalize, dtype):
    shape = list(shape_of(target))
    shape.insert(class_axis, num_classes)
    return tuple(shape), np.dtype(dtype)


def _class_selector_batch(values, dims, *, num_classes, ignore_index, label_smoothing,
                          class_axis, normalize, dtype):
    """Batched targets: the unnormalized selector of the whole batch, each example divided by
    its own denominator (its summed one-hot weights). Per-example class weights loop."""
    if len(values) > 1 and dims[1] is not None:
        return looped_batch_rule(class_selector_p)(
            values, dims, num_classes=num_classes, ignore_index=ignore_index,
            label_smoothing=label_smoothing, class_axis=class_axis, normalize=normalize,
            dtype=dtype)
    target = move_to_front(values[0], dims[0])
    params = dict(num_classes=num_classes, ignore_index=ignore_index, class_axis=class_axis + 1,
                  normalize=False, dtype=dtype)
    selector = bind(class_selector_p, target, *values[1:], label_smoothing=label_smoothing,
                    **params)
    if not normalize:
        return selector, 0
    hot = selector if not label_smoothing else bind(class_selector_p, target, *values[1:],
                                                    label_smoothing=0.0, **params)
    total = sum(hot, axis=tuple(range(1, ndim_of(hot))), keepdim=True)  # minus the count
    empty = total == 0
    return where(empty, 0.0, selector / where(empty, 1.0, -total)), 0


# One non-differentiable primitive builds the whole constant: the class-index losses then
# record only log_softmax, a product and a sum.
class_selector_p = Primitive("class_selector", _class_selector_impl, _class_selector_rule,
                             differentiable=False, batch=_class_selector_batch)


def _class_selector(input, target, weight, ignore_index: int, label_smoothing: float,
                    reduction: str):
    """Constant weights ``s`` such that the loss is ``sum(log_probabilities * s, class_axis)``.

    ``s`` holds the (smoothed) one-hot rows of ``target`` times the class
    weights, zero at ignored targets, negated and, for ``reduction='mean'``,
    divided by PyTorch's denominator (the summed class weights of the
    non-ignored targets).
    """
    class_axis = _class_axis(input)
    classes = input.shape[class_axis]
    if weight is not None and tuple(weight.shape) != (classes,):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or "
                           f"no classes but got weight tensor of shape: {list(weight.shape)}")
    target_data = _data(target)
    if target_data.size and has_values(target_data):  # traced targets have no values yet
        host = backend.to_numpy(target_data)
        counted = host[host != ignore_index]
        if counted.size and (int(counted.min()) < 0 or int(counted.max()) >= classes):
            bad = int(counted.min()) if int(counted.min()) < 0 else int(counted.max())
            raise IndexError(f"Target {bad} is out of bounds.")
    operands = (target,) if weight is None else (target, _detached(weight))
    return bind(class_selector_p, *operands, num_classes=classes, ignore_index=int(ignore_index),
                label_smoothing=float(label_smoothing), class_axis=class_axis,
                normalize=reduction == "mean", dtype=_data(input).dtype)


def _nll(log_probabilities, target, weight, ignore_index, label_smoothing, reduction):
    """The negative log likelihood, shown as PyTorch's node: NllLossBackward0 over the
    log-probabilities of 1 or 2 dims, NllLoss2DBackward0 over 4 dims and, for other ranks, over
    PyTorch's 4-d view of them (an unreduced loss is viewed back to the target's shape)."""
    shape = tuple(log_probabilities.shape)
    if label_smoothing:  # PyTorch: nll_loss plus a smoothing term, no node of its own
        return _nll_terms(log_probabilities, target, weight, ignore_index, label_smoothing,
                          reduction)
    if len(shape) in (1, 2, 4):
        loss = _nll_terms(log_probabilities, target, weight, ignore_index, 0.0, reduction)
        name = "NllLoss2DBackward0" if len(shape) == 4 else "NllLossBackward0"
        return present_as(loss, name, log_probabilities)
    batch, classes = shape[:2]
    empty = math.prod(shape) == 0
    flat = reshape(log_probabilities, (batch, classes, 0, 0) if empty else (batch, classes, 1, -1))
    target = reshape(target, (batch, 0, 0) if math.prod(target.shape) == 0 else (batch, 1, -1))
    loss = present_as(_nll_terms(flat, target, weight, ignore_index, 0.0, reduction),
                      "NllLoss2DBackward0", flat)
    return reshape(loss, (batch,) + shape[2:]) if reduction == "none" else loss


def _nll_terms(log_probabilities, target, weight, ignore_index, label_smoothing, reduction):
    selector = _class_selector(log_probabilities, target, weight, ignore_index, label_smoothing,
                               reduction)
    if not label_smoothing and _may_hold_infinities(log_probabilities):
        # as PyTorch's gather: a class the target does not pick adds nothing, even at -inf
        # (a plain product would add 0 * -inf = nan)
        log_probabilities = where(selector != 0, log_probabilities, 0.0)
    product = log_probabilities * selector
    if reduction == "none":
        return sum(product, dim=_class_axis(log_probabilities))
    if reduction == "mean" and has_values(target, weight) and \
            _nothing_counted(target, weight, ignore_index):  # (a traced target has no values)
        return sum(product) + float("nan")  # PyTorch: a NaN loss whose gradients are zero
    return sum(product)


def _may_hold_infinities(values) -> bool:
    """False only when ``values`` are known (not traced) and all finite or NaN."""
    data = _data(values)
    if not has_values(data):
        return True
    return bool(namespace_of(data).isinf(data).any())


def _nothing_counted(target, weight, ignore_index: int) -> bool:
    """True when the mean's denominator (summed weights of non-ignored targets) is zero."""
    host = backend.to_numpy(_data(target))
    counted = host[host != ignore_index]
    if weight is None:
        return counted.size == 0
    return float(backend.to_numpy(_data(weight))[counted].sum()) == 0.0


def _detached(value):
    return value.detach() if isinstance(value, Tensor) else value


@op(autocast="float32")
def nll_loss(input, target, weight=None, size_average=None, ignore_index: int = -100,
             reduce=None, reduction: str = "mean"):
    """Negative log likelihood of log-probabilities ``input`` at class indices ``target``.

    ``input`` is ``(C,)``, ``(N, C)`` or ``(N, C, d1, ...)``; targets equal to
    ``ignore_index`` contribute nothing; ``weight`` rescales each class (and
    the mean divides by the summed weights of the targets).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.nll_loss(ug.tensor([[-0.5, -1.0], [-2.0, -0.1]]), ug.tensor([0, 1]))
        tensor(0.3000)
    """
    reduction = _reduction(reduction, size_average, reduce)
    _check_class_target(input, target)
    return _nll(input, target, weight, ignore_index, 0.0, reduction)


@op(autocast="float32")
def cross_entropy(input, target, weight=None, size_average=None, ignore_index: int = -100,
                  reduce=None, reduction: str = "mean", label_smoothing: float = 0.0):
    """Cross entropy of unnormalized logits ``input`` against class indices or probabilities.

    ``input`` is ``(C,)``, ``(N, C)`` or ``(N, C, d1, ...)``. A ``target`` of
    the same shape holds class probabilities; otherwise it holds class
    indices (``ignore_index`` skips entries). ``label_smoothing`` mixes the
    target with the uniform distribution, as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.cross_entropy(ug.zeros((2, 4)), ug.tensor([1, 3]))
        tensor(1.3863)
    """
    reduction = _reduction(reduction, size_average, reduce)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_axis = _class_axis(input)
    if tuple(input.shape) == tuple(target.shape):
        return _probability_cross_entropy(input, target, weight, ignore_index, reduction,
                                          label_smoothing, class_axis)
    _check_class_target(input, target)
    return _nll(log_softmax(input, class_axis), target, weight, ignore_index, label_smoothing,
                reduction)


def _probability_cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing,
                               class_axis):
    if _data(target).dtype.kind != "f":
        raise RuntimeError(f"Expected floating point type for target with class probabilities, "
                           f"got {_type_name(_data(target).dtype)}")
    if ignore_index != -100:
        raise RuntimeError("ignore_index is not supported for floating point target")
    classes = input.shape[class_axis]
    if label_smoothing:
        target = target * (1.0 - label_smoothing) + label_smoothing / classes
    product = log_softmax(input, class_axis) * target
    if weight is not None:
        if tuple(weight.shape) != (classes,):
            raise RuntimeError(f"weight tensor should be defined either for all {classes} "
                               f"classes or no classes but got weight tensor of shape: "
                               f"{list(weight.shape)}")
        product = product * reshape(weight, (classes,) + (1,) * (len(input.shape) - 1 -
                                                                   class_axis))
    if reduction == "none":
        return -sum(product, dim=class_axis)
    total = -sum(product)
    if reduction == "sum":
        return total
    count = math.prod(input.shape) // max(classes, 1)
    return total / float(count) if count else total * float("nan")


# ----------------------------------------------------------------------------- regression

def _check_positive_width(value: float, name: str, loss: str, strict: bool) -> None:
    if value < 0 or (strict and value == 0):
        kind = "non-positive" if strict else "negative"
        raise RuntimeError(f"{loss} does not support {kind} values for {name}.")


@op(autocast="float32")
def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean",
                   beta: float = 1.0):
    """``0.5 d ** 2 / beta`` where ``|d| < beta``, ``|d| - 0.5 beta`` elsewhere (``d = x - y``).

    ``beta=0`` is the L1 loss.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.smooth_l1_loss(ug.tensor([0.5, 3.0]), ug.zeros(2), reduction="none")
        tensor([0.1250, 2.5000])
    """
    _warn_broadcast(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    _check_positive_width(beta, "beta", "smooth_l1_loss", strict=False)
    if beta == 0.0:  # PyTorch's l1_loss: no node of its own
        return _reduce(abs(input - target), reduction)
    input, target = _broadcast_pair(input, target)
    difference = input - target
    distance = abs(difference)
    loss = where(distance < beta, difference * difference * (0.5 / beta), distance - 0.5 * beta)
    return present_as(_reduce(loss, reduction), "SmoothL1LossBackward0", input, target)


@op(autocast="float32")
def huber_loss(input, target, reduction: str = "mean", delta: float = 1.0, weight=None):
    """``0.5 d ** 2`` where ``|d| < delta``, ``delta (|d| - 0.5 delta)`` elsewhere.

    ``weight`` (the input's shape) multiplies each element before the
    reduction (a plain mean).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.huber_loss(ug.tensor([1.0, 4.0]), ug.zeros(2), delta=2.0)
        tensor(3.2500)
    """
    _warn_broadcast(input, target)
    reduction = _reduction(reduction)
    _check_positive_width(delta, "delta", "huber_loss", strict=True)
    input_shape = tuple(input.shape)
    input, target = _broadcast_pair(input, target)
    difference = input - target
    distance = abs(difference)
    loss = where(distance < delta, difference * difference * 0.5, (distance - 0.5 * delta) * delta)
    if weight is not None:  # PyTorch: the unreduced loss node times the weight, then reduced
        if tuple(weight.shape) != input_shape:
            raise ValueError("Weights and input must have the same size.")
        return _reduce(present_as(loss, "HuberLossBackward0", input, target) * weight, reduction)
    return present_as(_reduce(loss, reduction), "HuberLossBackward0", input, target)


_KL_REDUCTIONS = _REDUCTIONS + ("batchmean",)


@op(autocast="float32")
def kl_div(input, target, size_average=None, reduce=None, reduction: str = "mean",
           log_target: bool = False):
    """Kullback-Leibler divergence ``target * (log(target) - input)`` of log-probabilities.

    ``log_target=True`` takes ``target`` as log-probabilities too.
    ``reduction='batchmean'`` divides the sum by the batch size (the KL
    divergence); ``'mean'`` divides by the number of elements (with
    PyTorch's warning).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> log_q = ug.log(ug.tensor([[0.5, 0.5]]))
        >>> F.kl_div(log_q, ug.tensor([[0.25, 0.75]]), reduction="batchmean")
        tensor(0.1308)
    """
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    elif reduction not in _KL_REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns with "
                      "the KL div math definition.'mean' will be changed to behave the same as "
                      "'batchmean' in the next major release.", stacklevel=3)
    if log_target:
        loss = exp(target) * (target - input)
    else:
        loss = xlogy(target, target) - target * input
    if reduction != "batchmean":
        return _reduce(loss, reduction)
    total = sum(loss)
    return total / input.shape[0] if len(input.shape) else total


_STIRLING_HALF_LOG = 0.5 * math.log(2.0 * math.pi)


@op(autocast="float32")
def poisson_nll_loss(input, target, log_input: bool = True, full: bool = False,
                     size_average=None, eps: float = 1e-8, reduce=None,
                     reduction: str = "mean"):
    """Negative log likelihood of ``target ~ Poisson(rate)``, dropping ``log(target!)``.

    With ``log_input`` the input is ``log(rate)`` (``exp(input) - target *
    input``), else the rate itself (``input - target * log(input + eps)``).
    ``full`` adds Stirling's approximation of ``log(target!)`` where ``target > 1``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.poisson_nll_loss(ug.tensor([0.0, 1.0]), ug.tensor([1.0, 2.0]))
        tensor(0.8591)
    """
    reduction = _reduction(reduction, size_average, reduce)
    if log_input:
        loss = exp(input) - target * input
    else:
        loss = input - target * log(input + eps)
    if full:
        counted = target > 1
        safe = where(counted, target, 2.0)
        stirling = safe * log(safe) - safe + 0.5 * log(safe) + _STIRLING_HALF_LOG
        loss = loss + where(counted, stirling, 0.0)
    return _reduce(loss, reduction)


def _gaussian_variance(input, var):
    """``var`` shaped to broadcast against ``input`` by PyTorch's homoscedastic rules."""
    input_shape, var_shape = tuple(input.shape), tuple(var.shape)
    if var_shape == input_shape:
        return var
    if input_shape[:-1] == var_shape:
        return unsqueeze(var, -1)
    mismatched = [size for ours, size in zip(input_shape, var_shape) if ours != size]
    if len(input_shape) == len(var_shape) and builtins.sum(mismatched) == 1:
        return var
    raise ValueError("var is of incorrect size")


@op(autocast="float32")
def gaussian_nll_loss(input, target, var, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean"):
    """Gaussian negative log likelihood ``0.5 (log(var) + (input - target) ** 2 / var)``.

    ``var`` has the input's shape, or one dimension fewer (or one of size 1)
    for a variance shared along it, or is a non-negative float. It is
    clamped below at ``eps`` (the gradient passes through the clamp).
    ``full`` adds ``0.5 log(2 pi)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.gaussian_nll_loss(ug.tensor([1.0, 3.0]), ug.tensor([0.0, 1.0]), ug.tensor([1.0, 2.0]))
        tensor(0.9233)
    """
    if isinstance(var, Tensor):
        data = var._data
        if has_values(data) and bool((backend.to_numpy(data) < 0).any()):
            raise ValueError("var has negative entry/entries")
        var = _gaussian_variance(input, var)
    else:
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = float_operand(input).detach() * 0.0 + float(var)
    if reduction not in _REDUCTIONS:
        raise ValueError(reduction + " is not valid")
    var = var + (clip(var, min=eps) - var).detach()  # clamped values, identity gradient
    difference = input - target
    loss = (log(var) + difference * difference / var) * 0.5
    if full:
        loss = loss + _STIRLING_HALF_LOG
    return _reduce(loss, reduction)


# ----------------------------------------------------------------------------- margins

def _check_same_ndim(loss: str, **tensors) -> None:
    if len({len(tensor.shape) for tensor in tensors.values()}) > 1:
        sizes = ", ".join(f"{name}: {_size_text(tensor)}" for name, tensor in tensors.items())
        raise RuntimeError(f"{loss} : All input tensors should have same dimension but got "
                           f"sizes: {sizes} ")


def _size_text(tensor) -> str:
    return f"torch.Size({list(tensor.shape)})"


@op(autocast="float32")
def margin_ranking_loss(input1, input2, target, margin: float = 0, size_average=None,
                        reduce=None, reduction: str = "mean"):
    """``max(0, -target * (input1 - input2) + margin)``: ranks ``input1`` above ``input2``
    where ``target`` is 1, below where it is -1.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.margin_ranking_loss(ug.tensor([1.0, 1.0]), ug.tensor([0.0, 0.0]),
        ...                       ug.tensor([1.0, -1.0]), reduction="none")
        tensor([0., 1.])
    """
    reduction = _reduction(reduction, size_average, reduce)
    _check_same_ndim("margin_ranking_loss", input1=input1, input2=input2, target=target)
    return _reduce(clamp_min(-target * (input1 - input2) + margin, 0.0), reduction)


@op(autocast="float32")
def hinge_embedding_loss(input, target, margin: float = 1.0, size_average=None, reduce=None,
                         reduction: str = "mean"):
    """``input`` where ``target`` is 1, ``max(0, margin - input)`` where it is -1.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.hinge_embedding_loss(ug.tensor([0.3, 0.3]), ug.tensor([1.0, -1.0]),
        ...                        reduction="none")
        tensor([0.3000, 0.7000])
    """
    reduction = _reduction(reduction, size_average, reduce)
    margin_part = where(target != 1, clamp_min(margin - input, 0.0), 0.0)
    return _reduce(margin_part + where(target != -1, input, 0.0), reduction)


@op(autocast="float32")
def soft_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean"):
    """Two-class logistic loss ``log(1 + exp(-target * input))`` with targets in {1, -1}.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.soft_margin_loss(ug.tensor([0.0, 2.0]), ug.tensor([1.0, -1.0]))
        tensor(1.4100)
    """
    reduction = _reduction(reduction, size_average, reduce)
    loss = _reduce(-logsigmoid(input * target), reduction)
    return present_as(loss, "SoftMarginLossBackward0", input)  # (target: not differentiable)


@op(autocast="float32")
def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction: str = "mean"):
    """Per-class logistic losses against 0/1 ``target``, averaged over the classes (last dim).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.multilabel_soft_margin_loss(ug.tensor([[0.0, 2.0]]), ug.tensor([[1.0, 0.0]]))
        tensor(1.4100)
    """
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    elif reduction not in _REDUCTIONS:
        raise ValueError(reduction + " is not valid")
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = len(input.shape) - 1
    return _reduce(sum(loss, dim=class_dim) / input.shape[class_dim], reduction)


_COSINE_EPSILON = 1e-12


@op(autocast="float32")
def cosine_embedding_loss(input1, input2, target, margin: float = 0, size_average=None,
                          reduce=None, reduction: str = "mean"):
    """``1 - cos(input1, input2)`` where ``target`` is 1, ``max(0, cos - margin)`` where -1.

    Rows of 2-D inputs pair with a 1-D ``target``; 1-D inputs with a 0-D one.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> a, b = ug.tensor([[1.0, 0.0], [1.0, 1.0]]), ug.tensor([[0.0, 1.0], [1.0, 1.0]])
        >>> F.cosine_embedding_loss(a, b, ug.tensor([1, -1]), reduction="none")
        tensor([1., 1.])
    """
    reduction = _reduction(reduction, size_average, reduce)
    axis = len(target.shape)
    if axis > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if len(input1.shape) != axis + 1 or len(input2.shape) != axis + 1:
        raise RuntimeError(f"{axis}D target tensor expects {axis + 1}D input tensors, but found "
                           f"inputs with sizes {list(input1.shape)} and {list(input2.shape)}.")
    products = sum(input1 * input2, dim=axis)
    squares1 = sum(input1 * input1, dim=axis) + _COSINE_EPSILON
    squares2 = sum(input2 * input2, dim=axis) + _COSINE_EPSILON
    cosine = products / sqrt(squares1 * squares2)
    loss = where(target == 1, 1 - cosine, 0.0) + where(target == -1,
                                                        clamp_min(cosine - margin, 0.0), 0.0)
    return _reduce(loss, reduction)


def _check_triplet_inputs(margin: float, anchor, positive, negative) -> None:
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = [len(tensor.shape) for tensor in (anchor, positive, negative)]
    if len(set(dims)) > 1:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the "
                           f"same number of dimensions, but got: anchor {dims[0]}D, positive "
                           f"{dims[1]}D, and negative {dims[2]}D inputs")


def _triplet_loss(distance, anchor, positive, negative, margin: float, swap: bool,
                  reduction: str):
    positive_distance = distance(anchor, positive)
    negative_distance = distance(anchor, negative)
    if swap:
        negative_distance = minimum(negative_distance, distance(positive, negative))
    return _reduce(clamp_min(positive_distance - negative_distance + margin, 0.0), reduction)


@op(autocast="float32")
def triplet_margin_loss(anchor, positive, negative, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, size_average=None, reduce=None,
                        reduction: str = "mean"):
    """``max(d(anchor, positive) - d(anchor, negative) + margin, 0)``, ``d`` the p-norm distance.

    ``d`` is :func:`pairwise_distance` (``p``, ``eps``); ``swap`` uses the
    smaller of ``d(anchor, negative)`` and ``d(positive, negative)``.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> anchor, positive = ug.tensor([[0.0, 0.0]]), ug.tensor([[3.0, 4.0]])
        >>> F.triplet_margin_loss(anchor, positive, ug.tensor([[0.0, 1.0]]), eps=0.0)
        tensor(5.)
    """
    reduction = _reduction(reduction, size_average, reduce)
    _check_triplet_inputs(margin, anchor, positive, negative)

    def distance(x1, x2):
        return pairwise_distance(x1, x2, p, eps)
    return _triplet_loss(distance, anchor, positive, negative, margin, swap, reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean"):
    """:func:`triplet_margin_loss` with any ``distance_function(x1, x2)`` (default
    :func:`pairwise_distance`).

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> def l1(x1, x2):
        ...     return (x1 - x2).abs().sum(-1)
        >>> F.triplet_margin_with_distance_loss(ug.zeros(1, 2), ug.ones(1, 2), ug.zeros(1, 2),
        ...                                     distance_function=l1)
        tensor(3.)
    """
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    _check_triplet_inputs(margin, anchor, positive, negative)
    distance = pairwise_distance if distance_function is None else distance_function
    return _triplet_loss(distance, anchor, positive, negative, margin, swap, reduction)


# ----------------------------------------------------------------------------- multi-class margins

def _margin_rows(input):
    """``input`` as ``(N, C)`` rows: a 1-D input is one row, a 0-D one a row of one class."""
    shape = tuple(input.shape)
    if len(shape) > 2 or shape == (0,):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {list(shape)}")
    return input if len(shape) == 2 else reshape(input, (1, max(math.prod(shape), 1)))


def _check_known_targets(target, low: int, high: int, message: str) -> None:
    data = _data(target)
    if data.size and has_values(data):
        host = backend.to_numpy(data)
        if int(host.min()) < low or int(host.max()) >= high:
            raise RuntimeError(message)


@op(autocast="float32")
def multi_margin_loss(input, target, p: int = 1, margin: float = 1.0, weight=None,
                      size_average=None, reduce=None, reduction: str = "mean"):
    """Multi-class hinge loss: ``sum_j max(0, margin - x[y] + x[j]) ** p / C`` over ``j != y``.

    ``input`` is ``(N, C)`` or ``(C,)``, ``target`` the class indices;
    ``weight`` rescales by the target class.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.multi_margin_loss(ug.tensor([[0.1, 0.2, 0.4, 0.8]]), ug.tensor([3]))
        tensor(0.3250)
    """
    reduction = _reduction(reduction, size_average, reduce)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and len(weight.shape) != 1:
        raise ValueError("weight must be one-dimensional")
    rows = _margin_rows(input)
    count, classes = rows.shape
    if len(target.shape) > 1 or math.prod(target.shape) != count:
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to "
                           f"the number of input samples (batch size). Expected target size "
                           f"[{count}], but got {list(target.shape)}. Input has shape "
                           f"{list(input.shape)}.")
    if weight is not None and tuple(weight.shape) != (classes,):
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got "
                           f"{list(weight.shape)}")
    _check_known_targets(target, 0, classes, "target out of range")
    index = reshape(target, (count, 1))
    hinge = relu(rows - gather(rows, 1, index) + margin)
    if p == 2:
        hinge = hinge * hinge
    if weight is not None:
        hinge = hinge * gather(_detached(weight), 0, reshape(target, (count,)))[:, None]
    hinge = where(one_hot(reshape(target, (count,)), classes) == 1, 0.0, hinge)
    loss = sum(hinge, dim=1) / classes
    loss = _reduce(loss if len(input.shape) == 2 else reshape(loss, tuple(target.shape)),
                   reduction)
    return present_as(loss, "MultiMarginLossBackward0", input)


@op(autocast="float32")
def multilabel_margin_loss(input, target, size_average=None, reduce=None,
                           reduction: str = "mean"):
    """Multi-label hinge loss ``sum_{j, k} max(0, 1 - (x[y_j] - x[k])) / C``.

    ``target`` (the input's shape) lists each row's target classes first,
    ended by -1; ``k`` runs over the non-target classes.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.multilabel_margin_loss(ug.tensor([[0.1, 0.2, 0.4, 0.8]]),
        ...                          ug.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """
    reduction = _reduction(reduction, size_average, reduce)
    rows = _margin_rows(input)
    if tuple(target.shape) != tuple(input.shape):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                           f"{list(input.shape)}")
    classes = rows.shape[1]
    _check_known_targets(target, -1, classes, "argument #2 'target' is out of range")
    labels = reshape(target, tuple(rows.shape))
    listed = cumsum((labels < 0).long(), dim=1) == 0  # before each row's first -1
    hot = one_hot(where(listed, labels, classes), classes + 1)[..., :classes]
    others = sum(hot, dim=1) == 0  # (N, C): classes that are not targets
    scores = gather(rows, 1, where(listed, labels, 0))
    hinge = relu(unsqueeze(rows, 1) - unsqueeze(scores, 2) + 1.0)
    pairs = unsqueeze(listed, 2) & unsqueeze(others, 1)
    loss = sum(where(pairs, hinge, 0.0), dim=(1, 2)) / classes
    loss = _reduce(loss if len(input.shape) == 2 else reshape(loss, ()), reduction)
    return present_as(loss, "MultilabelMarginLossBackward0", input)


# ----------------------------------------------------------------------------- ctc

# The log-probability of unreachable alignment states: finite, so that the log-sum-exp of
# unreachable states (and its gradient) stays finite; a final value below half of it means
# no alignment exists (an infinite loss).
_UNREACHABLE = -1e30


def _host_integers(value, name: str) -> np.ndarray:
    """The values of an integer tensor or sequence ``value`` on the host, as int64."""
    if isinstance(value, Tensor):
        data = value._data
        trace = _local.trace
        if trace is not None:
            data = trace.read(value)
        if hasattr(data, "__unigrad_abstract__"):
            raise RuntimeError(f"ctc_loss: the values of '{name}' are needed to lay out the "
                               f"alignments, but they are not known here (traced or batched)")
        return backend.to_numpy(data).astype(np.int64)
    return np.asarray(value, dtype=np.int64)


def _ctc_layout(log_probs, targets, input_lengths, target_lengths, blank: int,
                unbatched: bool):
    """Host arrays: the padded targets ``(N, S)`` and the lengths, checked as PyTorch does."""
    steps, batch, classes = log_probs.shape
    labels = _host_integers(targets, "targets")
    inputs = _host_integers(input_lengths, "input_lengths").reshape(-1)
    lengths = _host_integers(target_lengths, "target_lengths").reshape(-1)
    if inputs.size != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if lengths.size != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    if inputs.size and int(inputs.max()) > steps:
        raise RuntimeError(f"Expected input_lengths to have value at most {steps}, but got "
                           f"value {int(inputs.max())} (while checking arguments for "
                           f"ctc_loss_allocate_outputs)")
    if unbatched:
        labels = labels.reshape(1, -1)
    if labels.ndim == 1:  # the targets of all samples, concatenated
        if labels.size != int(lengths.sum()):
            raise RuntimeError(f"Expected tensor to have size {int(lengths.sum())} at dimension "
                               f"0, but got size {labels.size} for argument #2 'targets' (while "
                               f"checking arguments for ctc_loss_allocate_outputs)")
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        padded = np.full((batch, int(lengths.max(initial=0))), blank, dtype=np.int64)
        for row, (start, length) in enumerate(zip(starts, lengths)):
            padded[row, :length] = labels[start:start + length]
        return padded, inputs, lengths
    if lengths.size and int(lengths.max()) > labels.shape[1]:
        raise RuntimeError(f"Expected tensor to have size at least {int(lengths.max())} at "
                           f"dimension 1, but got size {labels.shape[1]} for argument #2 "
                           f"'targets' (while checking arguments for ctc_loss_allocate_outputs)")
    return labels, inputs, lengths


def _extended_labels(labels: np.ndarray, lengths: np.ndarray, blank: int):
    """Blank-interleaved labels ``(N, 2S + 1)`` and where a state may skip the one before."""
    batch, width = labels.shape[0], 2 * labels.shape[1] + 1
    extended = np.full((batch, width), blank, dtype=np.int64)
    extended[:, 1::2] = labels
    extended[np.arange(width)[None, :] >= 2 * lengths[:, None] + 1] = blank
    skip = np.zeros((batch, width), dtype=bool)
    skip[:, 2:] = extended[:, 2:] != extended[:, :-2]  # even (blank) states never skip
    return extended, skip


def _log_add3(first, second, third):
    top = maximum(maximum(first, second), third).detach()
    return log(exp(first - top) + exp(second - top) + exp(third - top)) + top


def _shifted_states(alpha, by: int, filler):
    """``alpha`` moved ``by`` states right along the last axis, ``filler`` entering."""
    return cat((filler[:, :by], alpha[:, :-by]), dim=1)


def _ctc_negative_log_likelihood(log_probs, extended, skip, inputs, lengths):
    """``-log p(target | input)`` per sample by the forward (alpha) recursion in log space."""
    steps, batch, _ = log_probs.shape
    width = extended.shape[1]
    dtype = _data(log_probs).dtype
    index = Tensor(np.broadcast_to(extended[None], (steps, batch, width)).copy())
    emissions = gather(log_probs, 2, index)  # (T, N, 2S + 1)
    filler = Tensor(np.full((batch, width), _UNREACHABLE, dtype=dtype))
    start = np.full((batch, width), _UNREACHABLE, dtype=dtype)
    start[:, :2] = 0.0
    start[lengths == 0, 1] = _UNREACHABLE
    alpha = emissions[0] + Tensor(start)
    skip_mask = Tensor(skip)
    for step in range(1, steps):
        moved = where(skip_mask, _shifted_states(alpha, 2, filler), filler) if width > 2 \
            else filler
        advanced = emissions[step] + _log_add3(alpha, _shifted_states(alpha, 1, filler), moved)
        running = Tensor((inputs > step)[:, None])
        alpha = where(running, advanced, alpha)
    last = np.stack([2 * lengths, np.maximum(2 * lengths - 1, 0)], axis=1)
    ends = gather(alpha, 1, Tensor(last))
    ends = where(Tensor(np.stack([np.ones_like(lengths, bool), lengths > 0], axis=1)), ends,
                 _UNREACHABLE)
    top = maximum(ends[:, 0], ends[:, 1]).detach()
    total = log(exp(ends[:, 0] - top) + exp(ends[:, 1] - top)) + top
    empty_input = Tensor(np.where(lengths == 0, 0.0, _UNREACHABLE).astype(dtype))
    return -where(Tensor(inputs > 0), total, empty_input)


def _torch_ctc_gradient_term(log_probs, inputs):
    """Zero, with gradient ``exp(log_probs)`` at the steps inside each input (per sample).

    PyTorch's CTC backward adds this term (it presumes ``log_probs`` come from
    ``log_softmax``, through which it cancels); it is reproduced for equal gradients.
    """
    probabilities = exp(log_probs)
    steps = log_probs.shape[0]
    inside = Tensor((np.arange(steps)[:, None] < inputs[None, :])[..., None])
    counted = where(inside, probabilities - probabilities.detach(), 0.0)
    return sum(counted, dim=(0, 2))


@op(autocast="float32")
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False):
    """Connectionist temporal classification loss of ``log_probs`` against unaligned targets.

    ``log_probs`` is ``(T, N, C)`` (or ``(T, C)`` unbatched) log-probabilities;
    ``targets`` is ``(N, S)`` padded or the concatenated 1-D targets;
    ``input_lengths``/``target_lengths`` (tensors or sequences of ints) give
    each sample's lengths. ``'mean'`` divides each loss by its target length
    before averaging; ``zero_infinity`` zeroes infinite losses (no alignment)
    and their gradients. Gradients equal PyTorch's.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> log_probs = ug.log(ug.full((2, 1, 2), 0.5))
        >>> F.ctc_loss(log_probs, ug.tensor([[1]]), [2], [1], reduction="sum")
        tensor(0.2877)
    """
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    unbatched = len(log_probs.shape) == 2
    if unbatched:
        log_probs = unsqueeze(log_probs, 1)
    elif len(log_probs.shape) != 3:
        raise RuntimeError(f"ctc_loss: expected log_probs to be 2-D (T, C) or 3-D (T, N, C), "
                           f"got shape {list(log_probs.shape)}")
    log_probs = float_operand(log_probs)
    labels, inputs, lengths = _ctc_layout(log_probs, targets, input_lengths, target_lengths,
                                          blank, unbatched)
    extended, skip = _extended_labels(labels, lengths, blank)
    loss = _ctc_negative_log_likelihood(log_probs, extended, skip, inputs, lengths)
    feasible = loss < -0.5 * _UNREACHABLE
    loss = where(feasible, loss + _torch_ctc_gradient_term(log_probs, inputs), float("inf"))
    loss = present_as(loss, "CtcLossBackward0", log_probs)  # PyTorch's node, per sample
    if zero_infinity:  # PyTorch: where(loss == inf, zeros, loss)
        loss = present_as(where(feasible, loss, 0.0), "WhereBackward0", None, loss)
    if reduction == "mean":
        return mean(loss / Tensor(np.maximum(lengths, 1).astype(_data(loss).dtype)))
    if reduction == "sum":
        return sum(loss)
    return squeeze(loss, 0) if unbatched else loss


# ----------------------------------------------------------------------- linear + cross entropy

_ACC_POLICIES = ("accurate", "balanced", "compact", "auto")


@dataclasses.dataclass(frozen=True)
class LinearCrossEntropyOptions:
    """PyTorch's chunking options of :func:`linear_cross_entropy` (validated, as PyTorch does).

    PyTorch's chunked path avoids materializing the whole ``(N, C)`` logits;
    unigrad accepts the options and computes the reference path, whose value
    and gradients are the ones the chunked path approximates.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.LinearCrossEntropyOptions(batch_chunk_size=64)
        LinearCrossEntropyOptions(allow_retain_graph=False, batch_chunk_size=64, \
chunking_method='auto', acc_policy='auto', acc_dtype=None)
    """

    allow_retain_graph: bool = False
    batch_chunk_size: int | None = None
    chunking_method: str | None = "auto"
    acc_policy: str = "auto"
    acc_dtype: object = None

    def __post_init__(self) -> None:
        if self.acc_policy not in _ACC_POLICIES:
            raise ValueError(f"invalid acc_policy: {self.acc_policy!r}")
        if self.chunking_method not in (None, "auto"):
            name, colon, factor = str(self.chunking_method).partition(":")
            factor = factor if colon else "1"
            if name != "aspect_ratio" or not factor.isdigit() or int(factor) <= 0:
                raise ValueError(f"invalid chunking_method: {self.chunking_method!r}")
        size = self.batch_chunk_size
        if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size <= 0):
            raise ValueError(f"batch_chunk_size must be positive int or None, got {size!r}")
        if self.acc_dtype is not None and not _is_accumulation_dtype(self.acc_dtype):
            raise ValueError(f"acc_dtype must be one of {{None, float16, bfloat16, float32, "
                             f"float64}}, got {self.acc_dtype!r}. Pass acc_dtype=None to let "
                             f"the op pick automatically.")


def _is_accumulation_dtype(dtype) -> bool:
    try:
        kind = np.dtype(backend.to_numpy_dtype(dtype))
    except (TypeError, ValueError, KeyError):
        return False
    return kind.name in ("float16", "bfloat16", "float32", "float64")


def _linear_cross_entropy_shapes(input, linear_weight, linear_bias) -> tuple:
    """``(in_features, num_classes, out_features)``, after PyTorch's shape checks."""
    if len(input.shape) not in (1, 2):
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {len(input.shape)}")
    if len(linear_weight.shape) < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got "
                           f"{len(linear_weight.shape)}")
    in_features = input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError(f"expected equal input and linear_weight last dimensions "
                           f"(in_features), got {in_features} and {linear_weight.shape[-1]}, "
                           f"respectively")
    num_classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(num_classes, *out_features)}, got "
                           f"{tuple(linear_bias.shape)}")
    if out_features and len(input.shape) == 1:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape "
                           f"{tuple(linear_weight.shape)} requires batched input, "
                           f"(N, {in_features}), got unbatched input with shape "
                           f"{tuple(input.shape)}")
    return in_features, num_classes, out_features


def _warn_unchunkable(target, reduction, label_smoothing, out_features,
                      linear_bias) -> None:
    """PyTorch's warning when ``options`` ask for the chunked path it cannot take."""
    target_dtype = np.dtype(_data(target).dtype)
    if (not out_features and reduction in _REDUCTIONS and label_smoothing == 0.0
            and target_dtype == np.int64):
        return
    bias_shape = None if linear_bias is None else tuple(linear_bias.shape)
    warnings.warn(f"linear_cross_entropy: ``options`` ignored; chunked path needs reduction in "
                  f"{{'mean','sum','none'}}, label_smoothing == 0, target.dtype == int64, "
                  f"out_features == (). Got reduction={reduction!r}, "
                  f"label_smoothing={label_smoothing}, target.dtype={target_dtype}, "
                  f"out_features={out_features}, linear_bias.shape={bias_shape}.",
                  stacklevel=3)


@op()
def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None,
                         reduction: str = "mean", ignore_index: int | None = None,
                         label_smoothing: float = 0.0, options=None):
    """:func:`cross_entropy` of ``linear(input, linear_weight, linear_bias)`` (PyTorch's).

    ``input`` is ``(in_features,)`` or ``(N, in_features)``; ``linear_weight``
    is ``(C, in_features)`` or ``(C, d1, ..., dK, in_features)`` (a
    K-dimensional loss, batched input only) and ``linear_bias`` ``(C, d1, ...)``.
    ``ignore_index=None`` means -100 for class-index targets and must stay None
    for class probabilities. ``options`` (:class:`LinearCrossEntropyOptions`)
    select PyTorch's chunked path; unigrad computes the same value unchunked.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.nn.functional as F
        >>> F.linear_cross_entropy(ug.ones(2, 3), ug.zeros(4, 3), ug.tensor([1, 3]))
        tensor(1.3863)
    """
    from .nn_functional import linear  # nn_functional imports this module
    in_features, num_classes, out_features = _linear_cross_entropy_shapes(input, linear_weight,
                                                                          linear_bias)
    logits_shape = (*input.shape[:-1], num_classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    if options is not None:
        if not isinstance(options, LinearCrossEntropyOptions):
            raise TypeError(f"linear_cross_entropy: argument 'options' must be a "
                            f"LinearCrossEntropyOptions or None, got {type(options).__name__}")
        _warn_unchunkable(target, reduction, label_smoothing, out_features,
                          linear_bias)
    if out_features:
        rows = math.prod(out_features) * num_classes
        linear_weight = reshape(linear_weight, (rows, in_features))
        linear_bias = None if linear_bias is None else reshape(linear_bias, (rows,))
    logits = linear(input, linear_weight, linear_bias)
    if out_features:
        logits = reshape(logits, logits_shape)
    return cross_entropy(logits, target, weight, reduction=reduction,
                         ignore_index=-100 if ignore_index is None else ignore_index,
                         label_smoothing=label_smoothing)


__all__ = ["mse_loss", "l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
           "nll_loss", "cross_entropy", "smooth_l1_loss", "huber_loss", "kl_div",
           "poisson_nll_loss", "gaussian_nll_loss", "margin_ranking_loss", "hinge_embedding_loss",
           "soft_margin_loss", "multilabel_soft_margin_loss", "cosine_embedding_loss",
           "triplet_margin_loss", "triplet_margin_with_distance_loss", "multi_margin_loss",
           "multilabel_margin_loss", "ctc_loss", "linear_cross_entropy"]
