"""The losses of torch.nn.functional and their modules against PyTorch: values, gradients,
module signatures, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.functional as F
from unigrad import nn

from .helpers import as_np, to_torch, to_ug

torch = pytest.importorskip("torch")
TF = torch.nn.functional
pytestmark = pytest.mark.torch

REDUCTIONS = ("none", "mean", "sum")


def check_against_torch(ours, theirs, *arrays, grads=None, rtol=1e-10, atol=1e-12):
    """Same value and the same gradients of the floating arrays listed in ``grads``
    (default: all), for a random upstream gradient."""
    grads = range(len(arrays)) if grads is None else grads
    ug_args = [to_ug(a, i in grads) for i, a in enumerate(arrays)]
    torch_args = [to_torch(a, i in grads) for i, a in enumerate(arrays)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result, expected = ours(*ug_args), theirs(*torch_args)
    np.testing.assert_allclose(as_np(result), expected.detach().numpy(), rtol=rtol, atol=atol)
    upstream = np.random.default_rng(3).standard_normal(tuple(expected.shape))
    (result * ug.tensor(upstream)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    for ug_arg, torch_arg in zip(ug_args, torch_args):
        if isinstance(torch_arg, torch.Tensor) and torch_arg.requires_grad:
            np.testing.assert_allclose(as_np(ug_arg.grad), torch_arg.grad.numpy(), rtol=rtol,
                                       atol=atol)


def both(name, **kwargs):
    """``F.name`` of both libraries with the same keyword arguments."""
    return (lambda *a: getattr(F, name)(*a, **kwargs),
            lambda *a: getattr(TF, name)(*a, **kwargs))


def signs(rng, *shape) -> np.ndarray:
    return rng.choice([-1.0, 1.0], size=shape)


# ----------------------------------------------------------------------------- regression


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("beta", [1.0, 0.5, 0.0])
def test_smooth_l1_loss(rng, reduction, beta):
    check_against_torch(*both("smooth_l1_loss", reduction=reduction, beta=beta),
                        rng.standard_normal((4, 5)), rng.standard_normal((4, 5)))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("delta", [1.0, 0.3])
def test_huber_loss(rng, reduction, delta):
    check_against_torch(*both("huber_loss", reduction=reduction, delta=delta),
                        rng.standard_normal((4, 5)), rng.standard_normal((4, 5)))
    check_against_torch(lambda x, t, w: F.huber_loss(x, t, reduction, delta, w),
                        lambda x, t, w: TF.huber_loss(x, t, reduction, delta, w),
                        rng.standard_normal((3, 2)), rng.standard_normal((3, 2)),
                        rng.uniform(0.5, 2, (3, 2)))


def test_smooth_l1_broadcast_warning_and_deprecated_flags(rng):
    with pytest.warns(UserWarning, match="Using a target size"):
        F.smooth_l1_loss(ug.ones(3, 1), ug.ones(3))
    check_against_torch(*both("smooth_l1_loss", size_average=False), rng.standard_normal(4),
                        rng.standard_normal(4))
    check_against_torch(*both("smooth_l1_loss", reduce=False), rng.standard_normal(4),
                        rng.standard_normal(4))


@pytest.mark.parametrize("reduction", REDUCTIONS + ("batchmean",))
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div(rng, reduction, log_target):
    input = np.log(rng.dirichlet(np.ones(4), size=3))
    target = rng.dirichlet(np.ones(4), size=3)
    target[0, 1] = 0.0  # xlogy: 0 * log(0) is 0
    if log_target:
        target = np.log(rng.dirichlet(np.ones(4), size=3))
    check_against_torch(*both("kl_div", reduction=reduction, log_target=log_target), input,
                        target, grads=(0,))
    if log_target:  # both arguments differentiable where the target is positive
        check_against_torch(*both("kl_div", reduction=reduction, log_target=True), input,
                            target)


def test_kl_div_mean_warns_and_scalar_batchmean():
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        F.kl_div(ug.zeros(2), ug.ones(2))
    check_against_torch(*both("kl_div", reduction="batchmean"), np.array(-1.0), np.array(0.5))
    with pytest.raises(ValueError, match="bad is not a valid value for reduction"):
        F.kl_div(ug.zeros(2), ug.ones(2), reduction="bad")


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("log_input, full", [(True, False), (False, False), (True, True),
                                             (False, True)])
def test_poisson_nll_loss(rng, reduction, log_input, full):
    input = rng.standard_normal((3, 4)) if log_input else rng.uniform(0.1, 3.0, (3, 4))
    target = rng.poisson(2.0, (3, 4)).astype(np.float64)
    target[0, :3] = [0.0, 1.0, 5.0]
    check_against_torch(*both("poisson_nll_loss", log_input=log_input, full=full,
                              reduction=reduction), input, target, grads=(0,))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("var_shape", [(4, 3), (4,), (4, 1), (1, 3)])
@pytest.mark.parametrize("full", [False, True])
def test_gaussian_nll_loss(rng, reduction, var_shape, full):
    var = rng.uniform(0.1, 2.0, var_shape)
    var.reshape(-1)[0] = 1e-8  # below eps: clamped, the gradient passes through
    check_against_torch(*both("gaussian_nll_loss", full=full, reduction=reduction),
                        rng.standard_normal((4, 3)), rng.standard_normal((4, 3)), var)


def test_gaussian_nll_loss_float_var_and_errors(rng):
    check_against_torch(lambda x, t: F.gaussian_nll_loss(x, t, 0.5),
                        lambda x, t: TF.gaussian_nll_loss(x, t, 0.5),
                        rng.standard_normal((2, 3)), rng.standard_normal((2, 3)))
    x = ug.zeros(4, 3)
    with pytest.raises(ValueError, match="var is of incorrect size"):
        F.gaussian_nll_loss(x, x, ug.ones(3, 4))
    with pytest.raises(ValueError, match="var is of incorrect size"):
        F.gaussian_nll_loss(x, x, ug.ones(2, 3))
    with pytest.raises(ValueError, match="var has negative entry/entries"):
        F.gaussian_nll_loss(x, x, -ug.ones(4, 3))
    with pytest.raises(ValueError, match="var has negative entry/entries"):
        F.gaussian_nll_loss(x, x, -1.0)
    with pytest.raises(ValueError, match="bad is not valid"):
        F.gaussian_nll_loss(x, x, ug.ones(4, 3), reduction="bad")


# ----------------------------------------------------------------------------- margins


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("margin", [0.0, 0.5])
def test_margin_ranking_loss(rng, reduction, margin):
    check_against_torch(*both("margin_ranking_loss", margin=margin, reduction=reduction),
                        rng.standard_normal(6), rng.standard_normal(6), signs(rng, 6),
                        grads=(0, 1))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("margin", [1.0, 0.2])
def test_hinge_embedding_loss(rng, reduction, margin):
    check_against_torch(*both("hinge_embedding_loss", margin=margin, reduction=reduction),
                        rng.standard_normal((3, 4)), signs(rng, 3, 4), grads=(0,))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_soft_margin_loss(rng, reduction):
    check_against_torch(*both("soft_margin_loss", reduction=reduction),
                        rng.standard_normal((3, 4)), signs(rng, 3, 4), grads=(0,))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_multilabel_soft_margin_loss(rng, reduction, weighted):
    arrays = [rng.standard_normal((3, 4)), rng.integers(0, 2, (3, 4)) * 1.0]
    if weighted:
        arrays.append(rng.uniform(0.5, 2.0, 4))
    check_against_torch(
        lambda *a: F.multilabel_soft_margin_loss(*a, reduction=reduction),
        lambda *a: TF.multilabel_soft_margin_loss(*a, reduction=reduction), *arrays, grads=(0,))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("margin", [0.0, 0.3, -0.5])
def test_cosine_embedding_loss(rng, reduction, margin):
    check_against_torch(*both("cosine_embedding_loss", margin=margin, reduction=reduction),
                        rng.standard_normal((5, 3)), rng.standard_normal((5, 3)),
                        np.array([1, -1, 1, -1, -1]), grads=(0, 1))
    check_against_torch(*both("cosine_embedding_loss", margin=margin, reduction=reduction),
                        rng.standard_normal(3), rng.standard_normal(3), np.array(-1),
                        grads=(0, 1))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("p, swap, margin", [(2.0, False, 1.0), (1.0, True, 0.5),
                                             (3.0, True, 2.0), (2.0, True, 1.0)])
def test_triplet_margin_loss(rng, reduction, p, swap, margin):
    arrays = [rng.standard_normal((5, 3)) for _ in range(3)]
    check_against_torch(*both("triplet_margin_loss", margin=margin, p=p, swap=swap,
                              reduction=reduction), *arrays)
    check_against_torch(*both("triplet_margin_loss", margin=margin, p=p, swap=swap,
                              reduction=reduction), *[a[0] for a in arrays])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("swap", [False, True])
def test_triplet_margin_with_distance_loss(rng, reduction, swap):
    arrays = [rng.standard_normal((5, 3)) for _ in range(3)]
    check_against_torch(*both("triplet_margin_with_distance_loss", swap=swap,
                              reduction=reduction), *arrays)

    def l1(x1, x2):
        return (x1 - x2).abs().sum(-1)
    check_against_torch(*both("triplet_margin_with_distance_loss", distance_function=l1,
                              margin=0.7, swap=swap, reduction=reduction), *arrays)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("p, margin", [(1, 1.0), (2, 0.5), (1, 2.0)])
@pytest.mark.parametrize("weighted", [False, True])
def test_multi_margin_loss(rng, reduction, p, margin, weighted):
    weight = rng.uniform(0.5, 2.0, 4) if weighted else None
    ours = lambda x, t: F.multi_margin_loss(  # noqa: E731
        x, t, p, margin, None if weight is None else ug.tensor(weight), reduction=reduction)
    theirs = lambda x, t: TF.multi_margin_loss(  # noqa: E731
        x, t, p, margin, None if weight is None else torch.tensor(weight), reduction=reduction)
    check_against_torch(ours, theirs, rng.standard_normal((5, 4)), np.array([0, 3, 1, 1, 2]))
    check_against_torch(ours, theirs, rng.standard_normal(4), np.array(2))
    check_against_torch(ours, theirs, rng.standard_normal(4), np.array([1]))
    if not weighted:  # a 0-D input is one sample of one class
        check_against_torch(ours, theirs, np.array(0.7), np.array(0))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multilabel_margin_loss(rng, reduction):
    target = np.array([[3, 0, -1, 1], [0, 1, 2, 3], [-1, 2, 0, 0], [2, 2, -1, 0]])
    check_against_torch(*both("multilabel_margin_loss", reduction=reduction),
                        rng.standard_normal((4, 4)), target)
    check_against_torch(*both("multilabel_margin_loss", reduction=reduction),
                        rng.standard_normal(4), np.array([1, 2, -1, 0]))
    check_against_torch(*both("multilabel_margin_loss", reduction=reduction), np.array(0.7),
                        np.array(0))


def test_margin_loss_errors_match_torch():
    x = ug.zeros(3, 4)
    with pytest.raises(RuntimeError, match="margin_ranking_loss : All input tensors should have "
                                           "same dimension"):
        F.margin_ranking_loss(ug.zeros(3), ug.zeros(3, 1), ug.zeros(3))
    with pytest.raises(RuntimeError, match="0D or 1D target tensor expected"):
        F.cosine_embedding_loss(x, x, ug.ones(3, 1))
    with pytest.raises(RuntimeError, match=r"0D target tensor expects 1D input tensors, but "
                                           r"found inputs with sizes \[3, 4\] and \[3, 4\]."):
        F.cosine_embedding_loss(x, x, ug.tensor(1.0))
    with pytest.raises(RuntimeError, match="anchor 2D, positive 1D, and negative 2D inputs"):
        F.triplet_margin_loss(x, ug.zeros(4), x)
    with pytest.raises(ValueError, match="margin must be greater than 0, got 0"):
        F.triplet_margin_loss(x, x, x, margin=0)
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        F.multi_margin_loss(x, ug.tensor([0, 1, 2]), p=3)
    with pytest.raises(ValueError, match="weight must be one-dimensional"):
        F.multi_margin_loss(x, ug.tensor([0, 1, 2]), weight=ug.ones(1, 4))
    with pytest.raises(RuntimeError, match="target out of range"):
        F.multi_margin_loss(x, ug.tensor([0, 1, 4]))
    with pytest.raises(RuntimeError, match=r"Expected target size \[3\], but got \[2\]"):
        F.multi_margin_loss(x, ug.tensor([0, 1]))
    with pytest.raises(RuntimeError, match=r"inconsistent weight size, expected 4 but got \[3\]"):
        F.multi_margin_loss(x, ug.tensor([0, 1, 2]), weight=ug.ones(3))
    with pytest.raises(RuntimeError, match="Expected non-empty vector or matrix"):
        F.multi_margin_loss(ug.zeros(2, 3, 4), ug.tensor([0, 1]))
    with pytest.raises(RuntimeError, match=r"inconsistent target size: \[3\] for input of size: "
                                           r"\[3, 4\]"):
        F.multilabel_margin_loss(x, ug.tensor([0, 1, 2]))
    with pytest.raises(RuntimeError, match="argument #2 'target' is out of range"):
        F.multilabel_margin_loss(x, ug.tensor([[0, 1, 5, -1]] * 3))
    with pytest.raises(RuntimeError, match="smooth_l1_loss does not support negative values"):
        F.smooth_l1_loss(x, x, beta=-1.0)
    with pytest.raises(RuntimeError, match="huber_loss does not support non-positive values"):
        F.huber_loss(x, x, delta=0.0)
    with pytest.raises(ValueError, match="Weights and input must have the same size"):
        F.huber_loss(x, x, weight=ug.ones(4))
    with pytest.raises(ValueError, match="bad is not valid"):
        F.multilabel_soft_margin_loss(x, x, reduction="bad")
    with pytest.raises(ValueError, match="bad is not a valid value for reduction"):
        F.soft_margin_loss(x, x, reduction="bad")


# ----------------------------------------------------------------------------- modules


MODULES = [
    ("KLDivLoss", (), {"reduction": "batchmean"}, "kl"),
    ("KLDivLoss", (None, None, "sum", True), {}, "kl"),
    ("PoissonNLLLoss", (False, True), {"reduction": "sum"}, "poisson"),
    ("PoissonNLLLoss", (), {}, "poisson"),
    ("GaussianNLLLoss", (), {"full": True, "eps": 0.1}, "gaussian"),
    ("MarginRankingLoss", (0.3,), {}, "ranking"),
    ("HingeEmbeddingLoss", (0.5,), {"reduction": "none"}, "hinge"),
    ("CosineEmbeddingLoss", (0.2,), {}, "cosine"),
    ("TripletMarginLoss", (0.5, 1.0), {"swap": True}, "triplet"),
    ("TripletMarginWithDistanceLoss", (), {"margin": 2.0}, "triplet"),
    ("MultiMarginLoss", (2, 0.5), {}, "classes"),
    ("MultiLabelMarginLoss", (), {"reduction": "sum"}, "labels"),
    ("MultiLabelSoftMarginLoss", (), {}, "soft_labels"),
    ("SoftMarginLoss", (None, False), {}, "hinge"),
]


def module_inputs(rng, kind: str) -> list:
    floats = rng.standard_normal((4, 3))
    return {
        "kl": [np.log(rng.dirichlet(np.ones(3), 4)), rng.dirichlet(np.ones(3), 4)],
        "poisson": [rng.uniform(0.2, 2.0, (4, 3)), rng.poisson(2.0, (4, 3)) * 1.0],
        "gaussian": [floats, rng.standard_normal((4, 3)), rng.uniform(0.05, 1.0, (4, 3))],
        "ranking": [floats[:, 0], floats[:, 1], signs(rng, 4)],
        "hinge": [floats, signs(rng, 4, 3)],
        "cosine": [floats, rng.standard_normal((4, 3)), np.array([1, -1, -1, 1])],
        "triplet": [floats, rng.standard_normal((4, 3)), rng.standard_normal((4, 3))],
        "classes": [floats, np.array([0, 2, 1, 1])],
        "labels": [floats, np.array([[2, -1, 0], [0, 1, 2], [1, 0, -1], [-1, 0, 0]])],
        "soft_labels": [floats, rng.integers(0, 2, (4, 3)) * 1.0],
    }[kind]


@pytest.mark.parametrize("name, args, kwargs, kind", MODULES)
def test_loss_module_matches_torch(rng, name, args, kwargs, kind):
    ours, theirs = getattr(nn, name)(*args, **kwargs), getattr(torch.nn, name)(*args, **kwargs)
    assert ours.reduction == theirs.reduction
    assert repr(ours) == repr(theirs)
    check_against_torch(ours, theirs, *module_inputs(rng, kind), grads=(0,))


def test_loss_modules_hold_weights_as_buffers():
    weight = ug.tensor([1.0, 2.0, 3.0])
    assert list(nn.MultiMarginLoss(weight=weight).state_dict()) == ["weight"]
    assert list(nn.MultiLabelSoftMarginLoss(weight).state_dict()) == ["weight"]
    assert list(nn.MultiLabelSoftMarginLoss().state_dict()) == []
    with pytest.raises(ValueError, match="MultiMarginLoss: expected weight to be None or 1D"):
        nn.MultiMarginLoss(weight=ug.ones(1, 3))
    with pytest.raises(ValueError, match="TripletMarginLoss: expected margin to be greater "
                                         "than 0, got -1 instead"):
        nn.TripletMarginLoss(margin=-1)
    with pytest.raises(ValueError, match="bad is not a valid value for reduction"):
        nn.SoftMarginLoss(reduction="bad")
    with pytest.warns(UserWarning, match="please use reduction='sum' instead"):
        assert nn.KLDivLoss(size_average=False).reduction == "sum"
    with pytest.warns(UserWarning, match="please use reduction='none' instead"):
        assert nn.HingeEmbeddingLoss(1.0, None, False).reduction == "none"


def test_nll_loss_2d_warns_and_matches_torch(rng):
    with pytest.warns(FutureWarning, match="`NLLLoss2d` has been deprecated"):
        ours = nn.NLLLoss2d(ug.tensor([1.0, 2.0, 0.5]), None, 1)
    with pytest.warns(FutureWarning):
        theirs = torch.nn.NLLLoss2d(torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64), None, 1)
    input = np.log(rng.dirichlet(np.ones(3), (2, 2, 2))).transpose(0, 3, 1, 2).copy()
    target = np.array([[[0, 1], [2, 2]], [[1, 0], [0, 2]]])
    check_against_torch(ours, theirs, input, target)


# ----------------------------------------------------------------------------- ctc


def ctc_log_probs(rng, steps: int, batch: int, classes: int) -> np.ndarray:
    return np.log(rng.dirichlet(np.ones(classes), (steps, batch)))


CTC_CASES = [  # input lengths, padded targets (no blank), target lengths
    ([6, 5, 6], [[1, 2, 2], [3, 1, 1], [2, 3, 1]], [3, 2, 3]),
    ([6, 6, 3], [[1, 1, 1], [3, 3, 2], [2, 2, 2]], [3, 2, 1]),
    ([6, 4, 1], [[1, 2, 3], [3, 1, 2], [2, 3, 1]], [0, 2, 1]),
]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("case", range(len(CTC_CASES)))
@pytest.mark.parametrize("blank", [0, 3])
def test_ctc_loss_padded_targets(rng, reduction, case, blank):
    inputs, targets, lengths = CTC_CASES[case]
    targets = np.array(targets)
    if blank == 3:
        targets = np.where(targets == 3, 0, targets)
    ours, theirs = both("ctc_loss", reduction=reduction, blank=blank)
    check_against_torch(lambda lp, t: ours(lp, t, inputs, lengths),
                        lambda lp, t: theirs(lp, t, inputs, lengths),
                        ctc_log_probs(rng, 6, 3, 4), targets, rtol=1e-9)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_ctc_loss_concatenated_targets_and_tensor_lengths(rng, reduction):
    inputs, lengths = np.array([7, 5]), np.array([3, 2])
    targets = np.array([1, 2, 2, 4, 1])
    check_against_torch(*both("ctc_loss", reduction=reduction), ctc_log_probs(rng, 7, 2, 5),
                        targets, inputs, lengths, grads=(0,), rtol=1e-9)


def test_ctc_loss_unbatched_and_logits_gradient(rng):
    check_against_torch(lambda lp, t: F.ctc_loss(lp, t, 5, 2, reduction="none"),
                        lambda lp, t: TF.ctc_loss(lp, t, torch.tensor(5), torch.tensor(2),
                                                  reduction="none"),
                        ctc_log_probs(rng, 5, 1, 3)[:, 0], np.array([1, 2]), rtol=1e-9)
    # through log_softmax (the usual use) PyTorch's extra exp(log_probs) term cancels
    check_against_torch(lambda x, t: F.ctc_loss(F.log_softmax(x, 2), t, [5, 4], [2, 1]),
                        lambda x, t: TF.ctc_loss(TF.log_softmax(x, 2), t, [5, 4], [2, 1]),
                        rng.standard_normal((5, 2, 3)), np.array([[1, 2], [2, 0]]), rtol=1e-9)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_ctc_loss_infeasible_alignment(rng, reduction):
    """An input too short for its target: an infinite loss, or 0 (and no gradient) with
    ``zero_infinity``."""
    log_probs = ctc_log_probs(rng, 6, 2, 4)
    arguments = (np.array([[1, 2, 2], [3, 1, 1]]), [2, 5], [3, 2])
    result = F.ctc_loss(ug.tensor(log_probs), ug.tensor(arguments[0]), *arguments[1:],
                        reduction=reduction)
    expected = TF.ctc_loss(torch.tensor(log_probs), torch.tensor(arguments[0]),
                           *arguments[1:], reduction=reduction)
    np.testing.assert_allclose(as_np(result), expected.numpy(), rtol=1e-10)
    assert np.isinf(as_np(result)).any()
    ours, theirs = both("ctc_loss", reduction=reduction, zero_infinity=True)
    check_against_torch(lambda lp, t: ours(lp, t, *arguments[1:]),
                        lambda lp, t: theirs(lp, t, *arguments[1:]), log_probs, arguments[0],
                        rtol=1e-9)


def test_ctc_loss_module_and_errors(rng):
    log_probs = ctc_log_probs(rng, 6, 2, 4)
    targets = np.array([[1, 2, 2], [3, 1, 1]])
    ours, theirs = nn.CTCLoss(blank=0, zero_infinity=True), torch.nn.CTCLoss(0, "mean", True)
    assert repr(ours) == repr(theirs)
    check_against_torch(lambda lp, t: ours(lp, t, [6, 5], [3, 2]),
                        lambda lp, t: theirs(lp, t, [6, 5], [3, 2]), log_probs, targets,
                        rtol=1e-9)
    lp, t = ug.tensor(log_probs), ug.tensor(targets)
    with pytest.raises(RuntimeError, match="input_lengths must be of size batch_size"):
        F.ctc_loss(lp, t, [6], [3, 2])
    with pytest.raises(RuntimeError, match="target_lengths must be of size batch_size"):
        F.ctc_loss(lp, t, [6, 5], [3])
    with pytest.raises(RuntimeError, match="blank must be in label range"):
        F.ctc_loss(lp, t, [6, 5], [3, 2], blank=4)
    with pytest.raises(RuntimeError, match="Expected input_lengths to have value at most 6, "
                                           "but got value 7"):
        F.ctc_loss(lp, t, [7, 5], [3, 2])
    with pytest.raises(RuntimeError, match="Expected tensor to have size at least 4 at "
                                           "dimension 1, but got size 3"):
        F.ctc_loss(lp, t, [6, 5], [4, 2])
    with pytest.raises(RuntimeError, match="Expected tensor to have size 5 at dimension 0, "
                                           "but got size 4"):
        F.ctc_loss(lp, ug.tensor([1, 2, 2, 3]), [6, 5], [3, 2])
    with pytest.raises(ValueError, match="bad is not a valid value for reduction"):
        F.ctc_loss(lp, t, [6, 5], [3, 2], reduction="bad")
