"""Loss functions of ``unigrad.nn.functional`` with PyTorch's signatures and reductions.

Class-index targets are turned into a constant "selector" by one primitive
(one-hot rows times class weights, smoothing and the ignore mask, pre-divided
by the mean's denominator), so ``cross_entropy`` records only three nodes:
``log_softmax``, a product and a sum.

Example:
    >>> import unigrad as ug
    >>> import unigrad.nn.functional as F
    >>> logits = ug.tensor([[2.0, 0.0], [0.0, 2.0]], requires_grad=True)
    >>> F.cross_entropy(logits, ug.tensor([0, 1]))
    tensor(0.1269, grad_fn=<SumBackward0>)
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _state, backend
from ..backend import namespace_of
from ..interpreters import has_values
from ..interpreters.batching import looped_batch_rule, move_to_front, ndim_of
from ..tensor import Tensor
from ._dtypes import float_operand
from ._primitive import Primitive, bind
from ._shape_rules import elementwise_rule, shape_of
from .elementwise import abs, log, log1p, maximum, where
from .nn_activations import log_softmax, logsigmoid
from .reduce import mean, sum
from .registry import op
from .shape import reshape

_local = _state.local

_REDUCTIONS = ("none", "mean", "sum")


def _reduction(reduction: str, size_average=None, reduce=None) -> str:
    """The reduction, honouring PyTorch's deprecated ``size_average``/``reduce`` flags."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        return "none" if not reduce else ("mean" if size_average else "sum")
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
    difference = input - target
    loss = difference * difference
    if weight is not None:
        return _weighted(loss, weight, reduction)
    return _reduce(loss, reduction)


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
    if data.size and has_values(data) and not bool(((data >= 0) & (data <= 1)).all()):
        raise RuntimeError("all elements of input should be between 0 and 1")
    loss = bind(binary_cross_entropy_p, input, target)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


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
    return _reduce(loss, reduction)


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
    selector = _class_selector(log_probabilities, target, weight, ignore_index, label_smoothing,
                               reduction)
    product = log_probabilities * selector
    if reduction == "none":
        return sum(product, dim=_class_axis(log_probabilities))
    if reduction == "mean" and has_values(target, weight) and \
            _nothing_counted(target, weight, ignore_index):  # (a traced target has no values)
        return sum(product) + float("nan")  # PyTorch: a NaN loss whose gradients are zero
    return sum(product)


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


__all__ = ["mse_loss", "l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
           "nll_loss", "cross_entropy"]
