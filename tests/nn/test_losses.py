"""Loss Cells: closed forms, NumPy references, PyTorch cross-checks, argument errors."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn

from .helpers import as_np

REDUCTIONS = ("none", "mean", "sum")


def check_loss_against_torch(ours, theirs, torch, input, target, rng, atol=1e-10):
    """Same loss value and the same input gradient (through ``.backward()``)."""
    x_ours = ug.tensor(input, requires_grad=True)
    x_theirs = torch.tensor(input, requires_grad=True)
    loss, expected = ours(x_ours, ug.tensor(target)), theirs(x_theirs, torch.tensor(target))
    np.testing.assert_allclose(as_np(loss), expected.detach().numpy(), rtol=1e-9, atol=atol)
    upstream = rng.standard_normal(tuple(expected.shape))
    (loss * ug.tensor(upstream)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    np.testing.assert_allclose(as_np(x_ours.grad), x_theirs.grad.numpy(), rtol=1e-9, atol=atol)


# ----------------------------------------------------------------------------- regression


def test_mse_and_l1_closed_forms():
    x, y = ug.tensor([1.0, -2.0, 4.0]), ug.tensor([0.0, 0.0, 1.0])
    assert nn.MSELoss()(x, y).item() == pytest.approx(14 / 3)
    assert nn.MSELoss("sum")(x, y).item() == 14.0
    assert nn.MSELoss(reduction="none")(x, y).tolist() == [1.0, 4.0, 9.0]
    assert nn.L1Loss()(x, y).item() == 2.0
    assert nn.L1Loss("none")(x, y).tolist() == [1.0, 2.0, 3.0]
    assert nn.MSELoss()(ug.tensor(20.0), ug.tensor(19.0)).item() == 1.0  # seed 004
    assert nn.MSELoss(size_average=False).reduction == "sum"
    assert nn.L1Loss(reduce=False).reduction == "none"


def test_smooth_l1_and_huber_closed_forms():
    x, y = ug.tensor([0.5, -3.0, 0.0]), ug.zeros(3)
    assert nn.SmoothL1Loss("none", beta=2.0)(x, y).tolist() == [0.0625, 2.0, 0.0]
    assert nn.SmoothL1Loss("none", beta=0.0)(x, y).tolist() == [0.5, 3.0, 0.0]
    assert nn.HuberLoss("none", delta=2.0)(x, y).tolist() == [0.125, 4.0, 0.0]
    assert nn.HuberLoss("sum")(x, y).item() == pytest.approx(0.125 + 2.5)


@pytest.mark.torch
@pytest.mark.parametrize("name, kwargs", [
    ("MSELoss", {}), ("L1Loss", {}), ("SmoothL1Loss", {}), ("SmoothL1Loss", {"beta": 0.5}),
    ("SmoothL1Loss", {"beta": 0.0}), ("HuberLoss", {}), ("HuberLoss", {"delta": 0.3})])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_regression_losses_match_torch(rng, name, kwargs, reduction):
    torch = pytest.importorskip("torch")
    ours = getattr(nn, name)(reduction=reduction, **kwargs)
    theirs = getattr(torch.nn, name)(reduction=reduction, **kwargs)
    input, target = rng.standard_normal((4, 5)), rng.standard_normal((4, 5))
    check_loss_against_torch(ours, theirs, torch, input, target, rng)


# ----------------------------------------------------------------------------- classification


def test_cross_entropy_closed_forms():
    logits = ug.zeros(2, 4)
    assert nn.CrossEntropyLoss()(logits, ug.tensor([1, 3])).item() == pytest.approx(math.log(4))
    x = ug.tensor([[2.0, 0.0], [0.0, 2.0]])
    expected = math.log(1 + math.exp(-2))
    assert nn.CrossEntropyLoss()(x, ug.tensor([0, 1])).item() == pytest.approx(expected)
    assert nn.CrossEntropyLoss(ignore_index=1)(x, ug.tensor([0, 1])).item() == pytest.approx(
        expected)
    hard = nn.CrossEntropyLoss(reduction="none")(x, ug.tensor([[1.0, 0.0], [0.5, 0.5]]))
    assert hard.tolist() == pytest.approx([expected, expected + 1.0])
    smoothed = nn.CrossEntropyLoss(label_smoothing=0.5)(x, ug.tensor([0, 0]))
    # target (0.75, 0.25) for both rows; -log p = (e, 2 + e) and (2 + e, e)
    assert smoothed.item() == pytest.approx(0.5 * ((0.75 * expected + 0.25 * (2 + expected))
                                                   + (0.75 * (2 + expected) + 0.25 * expected)))


@pytest.mark.torch
@pytest.mark.parametrize("weighted, ignore_index, label_smoothing", list(itertools.product(
    (False, True), (-100, 2), (0.0, 0.2))))
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape", [(6, 4), (3, 4, 2, 3), (4,)])
def test_cross_entropy_with_class_indices_matches_torch(rng, weighted, ignore_index,
                                                        label_smoothing, reduction, shape):
    torch = pytest.importorskip("torch")
    weight = rng.uniform(0.5, 2.0, 4) if weighted else None
    kwargs = {"ignore_index": ignore_index, "reduction": reduction,
              "label_smoothing": label_smoothing}
    ours = nn.CrossEntropyLoss(None if weight is None else ug.tensor(weight), **kwargs)
    theirs = torch.nn.CrossEntropyLoss(None if weight is None else torch.tensor(weight),
                                       **kwargs)
    target_shape = shape[:1] + shape[2:] if len(shape) > 1 else ()
    target = rng.integers(0, 4, target_shape)
    if target.ndim:
        target.flat[0] = 2  # make sure ignore_index=2 skips something
        target.flat[-1] = 3  # ... but not everything
    else:
        target = np.array(1 if ignore_index == 2 else 2)
    check_loss_against_torch(ours, theirs, torch, rng.standard_normal(shape) * 2, target, rng)


@pytest.mark.torch
@pytest.mark.parametrize("weighted, label_smoothing", list(itertools.product((False, True),
                                                                             (0.0, 0.3))))
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape", [(5, 3), (2, 3, 4)])
def test_cross_entropy_with_probabilities_matches_torch(rng, weighted, label_smoothing,
                                                        reduction, shape):
    torch = pytest.importorskip("torch")
    weight = rng.uniform(0.5, 2.0, 3) if weighted else None
    ours = nn.CrossEntropyLoss(None if weight is None else ug.tensor(weight),
                               reduction=reduction, label_smoothing=label_smoothing)
    theirs = torch.nn.CrossEntropyLoss(None if weight is None else torch.tensor(weight),
                                       reduction=reduction, label_smoothing=label_smoothing)
    target = rng.dirichlet(np.ones(3), size=(shape[0],) + shape[2:])
    target = np.moveaxis(target, -1, 1)
    check_loss_against_torch(ours, theirs, torch, rng.standard_normal(shape), target, rng)


@pytest.mark.torch
@pytest.mark.parametrize("weighted, ignore_index", list(itertools.product((False, True),
                                                                          (-100, 1))))
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_loss_matches_torch(rng, weighted, ignore_index, reduction):
    torch = pytest.importorskip("torch")
    weight = rng.uniform(0.5, 2.0, 3) if weighted else None
    ours = nn.NLLLoss(None if weight is None else ug.tensor(weight), ignore_index, reduction)
    theirs = torch.nn.NLLLoss(None if weight is None else torch.tensor(weight),
                              ignore_index=ignore_index, reduction=reduction)
    log_probabilities = np.log(rng.dirichlet(np.ones(3), size=6))
    target = np.array([0, 1, 2, 1, 0, 2])
    check_loss_against_torch(ours, theirs, torch, log_probabilities, target, rng)


def test_nll_loss_closed_form_and_weight_buffer():
    loss = nn.NLLLoss(weight=ug.tensor([1.0, 3.0]))
    value = loss(ug.tensor([[-0.5, -1.0], [-2.0, -0.1]]), ug.tensor([0, 1]))
    assert value.item() == pytest.approx((0.5 * 1 + 0.1 * 3) / 4)
    assert list(loss.state_dict()) == ["weight"]
    assert list(nn.NLLLoss().state_dict()) == []
    assert loss.to(ug.float64).weight.dtype == ug.float64


# ----------------------------------------------------------------------------- binary


def test_bce_closed_forms():
    p, y = ug.tensor([0.5, 0.9]), ug.tensor([1.0, 0.0])
    values = nn.BCELoss(reduction="none")(p, y).tolist()
    assert values == pytest.approx([math.log(2), -math.log(0.1)])
    weighted = nn.BCELoss(weight=ug.tensor([2.0, 0.0]), reduction="sum")(p, y)
    assert weighted.item() == pytest.approx(2 * math.log(2))
    logits = ug.tensor([0.0, 100.0, -100.0])
    targets = ug.tensor([1.0, 1.0, 1.0])
    values = nn.BCEWithLogitsLoss(reduction="none")(logits, targets).tolist()
    assert values == pytest.approx([math.log(2), 0.0, 100.0])  # stable at large logits
    positive = nn.BCEWithLogitsLoss(pos_weight=ug.tensor([3.0]), reduction="sum")
    assert positive(ug.tensor([0.0]), ug.tensor([1.0])).item() == pytest.approx(3 * math.log(2))
    assert list(positive.state_dict()) == ["pos_weight"]


@pytest.mark.torch
@pytest.mark.parametrize("weighted", (False, True))
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_bce_matches_torch(rng, weighted, reduction):
    torch = pytest.importorskip("torch")
    weight = rng.uniform(0.5, 2.0, (4, 3)) if weighted else None
    ours = nn.BCELoss(None if weight is None else ug.tensor(weight), reduction)
    theirs = torch.nn.BCELoss(None if weight is None else torch.tensor(weight),
                              reduction=reduction)
    check_loss_against_torch(ours, theirs, torch, rng.uniform(0.05, 0.95, (4, 3)),
                             rng.uniform(0, 1, (4, 3)), rng)


@pytest.mark.torch
@pytest.mark.parametrize("weighted, positive", list(itertools.product((False, True),
                                                                      (False, True))))
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_bce_with_logits_matches_torch(rng, weighted, positive, reduction):
    torch = pytest.importorskip("torch")
    weight = rng.uniform(0.5, 2.0, 3) if weighted else None
    pos_weight = rng.uniform(0.5, 4.0, 3) if positive else None
    ours = nn.BCEWithLogitsLoss(None if weight is None else ug.tensor(weight), reduction,
                                None if pos_weight is None else ug.tensor(pos_weight))
    theirs = torch.nn.BCEWithLogitsLoss(
        None if weight is None else torch.tensor(weight), reduction=reduction,
        pos_weight=None if pos_weight is None else torch.tensor(pos_weight))
    check_loss_against_torch(ours, theirs, torch, rng.standard_normal((4, 3)) * 3,
                             rng.integers(0, 2, (4, 3)).astype(np.float64), rng)


# ----------------------------------------------------------------------------- MindSpore


def test_softmax_cross_entropy_with_logits(rng):
    logits = rng.standard_normal((5, 4))
    indices = np.array([0, 3, 1, 1, 2])
    log_p = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    expected = -log_p[np.arange(5), indices]
    dense = nn.SoftmaxCrossEntropyWithLogits()
    one_hot = np.eye(4)[indices].astype(np.int32)  # labels are cast to the logits' dtype
    np.testing.assert_allclose(as_np(dense(ug.tensor(logits), ug.tensor(one_hot))), expected,
                               rtol=1e-12)
    sparse = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    x = ug.tensor(logits, requires_grad=True)
    loss = sparse(x, ug.tensor(indices))
    assert loss.item() == pytest.approx(expected.mean())
    loss.backward()
    np.testing.assert_allclose(as_np(x.grad), (np.exp(log_p) - np.eye(4)[indices]) / 5,
                               rtol=1e-12)
    soft = rng.dirichlet(np.ones(4), size=5)
    summed = nn.SoftmaxCrossEntropyWithLogits(reduction="sum")(ug.tensor(logits),
                                                               ug.tensor(soft))
    assert summed.item() == pytest.approx(-(soft * log_p).sum())
    with pytest.raises(ValueError, match="'labels' must be in \\[0, 4\\)"):
        sparse(ug.tensor(logits), ug.tensor([0, 1, 2, 3, 4]))
    with pytest.raises(ValueError, match="'labels' must be in \\[0, 4\\)"):
        sparse(ug.tensor(logits), ug.tensor([0, 1, 2, 3, -100]))
    with pytest.raises(ValueError, match="with sparse=True 'labels' must have shape \\(5,\\)"):
        sparse(ug.tensor(logits), ug.tensor(one_hot))
    with pytest.raises(ValueError, match="'labels' must have the shape of 'logits'"):
        dense(ug.tensor(logits), ug.tensor(indices))
    with pytest.raises(ValueError, match="'logits' must be 1-D or 2-D"):
        dense(ug.zeros(2, 3, 4), ug.zeros(2, 3, 4))
    with pytest.raises(TypeError, match="'sparse' must be a bool"):
        nn.SoftmaxCrossEntropyWithLogits(sparse=1)


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize("cls", ["MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "NLLLoss",
                                 "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss",
                                 "SoftmaxCrossEntropyWithLogits"])
def test_invalid_reduction_is_a_value_error(cls):
    with pytest.raises(ValueError, match="^elementwise is not a valid value for reduction$"):
        getattr(nn, cls)(reduction="elementwise")


def test_loss_argument_errors():
    with pytest.raises(ValueError, match="label_smoothing must be between 0.0 and 1.0. Got: 1.5"):
        nn.CrossEntropyLoss(label_smoothing=1.5)
    with pytest.raises(TypeError, match="'weight' must be a ug.Tensor or None, got list"):
        nn.CrossEntropyLoss(weight=[1.0, 2.0])
    with pytest.raises(ValueError, match="'weight' must be a 1-D tensor"):
        nn.NLLLoss(weight=ug.ones(2, 2))
    with pytest.raises(TypeError, match="'ignore_index' must be an int"):
        nn.CrossEntropyLoss(ignore_index=1.5)
    with pytest.raises(ValueError, match="smooth_l1_loss does not support negative values"):
        nn.SmoothL1Loss(beta=-1.0)
    with pytest.raises(ValueError, match="huber_loss does not support non-positive values"):
        nn.HuberLoss(delta=0.0)
    with pytest.raises(TypeError, match="'pos_weight' must be a ug.Tensor"):
        nn.BCEWithLogitsLoss(pos_weight=2.0)
    with pytest.raises(IndexError, match="Target 5 is out of bounds"):
        nn.CrossEntropyLoss()(ug.zeros(2, 3), ug.tensor([0, 5]))
    with pytest.raises(RuntimeError, match="ignore_index is not supported for floating point"):
        nn.CrossEntropyLoss(ignore_index=0)(ug.zeros(2, 3), ug.zeros(2, 3))
    with pytest.raises(ValueError, match="Target size \\(\\[2\\]\\) must be the same as input"):
        nn.BCEWithLogitsLoss()(ug.zeros(2, 1), ug.zeros(2))
    with pytest.warns(UserWarning, match="Using a target size"):
        nn.MSELoss()(ug.zeros(2, 1), ug.zeros(2))
    with pytest.warns(UserWarning, match="Using a target size"):
        nn.HuberLoss()(ug.zeros(2, 1), ug.zeros(2))


def test_losses_have_plain_reprs():
    assert repr(nn.MSELoss()) == "MSELoss()"
    assert repr(nn.CrossEntropyLoss()) == "CrossEntropyLoss()"
