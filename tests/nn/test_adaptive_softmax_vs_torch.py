"""``AdaptiveLogSoftmaxWithLoss`` against PyTorch: ``state_dict`` keys and shapes, repr,
``forward``'s output and loss, gradients, ``log_prob``, ``predict`` and errors."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn
from unigrad.nn.layers.adaptive import AdaptiveLogSoftmaxWithLoss

from .helpers import as_np

torch = pytest.importorskip("torch")
# CONFIGS[0]'s last cluster has a zero-size hidden layer (8 // 4 ** 2), as PyTorch allows
pytestmark = [pytest.mark.torch,
              pytest.mark.filterwarnings("ignore:Initializing zero-element tensors")]

CONFIGS = [
    dict(in_features=8, n_classes=10, cutoffs=[3, 6]),
    dict(in_features=6, n_classes=7, cutoffs=[2], div_value=2.0, head_bias=True),
    dict(in_features=16, n_classes=12, cutoffs=(4, 5, 9), div_value=1.5),
]


def pair(config: dict):
    """Both layers in float64, ours holding torch's parameters."""
    theirs = torch.nn.AdaptiveLogSoftmaxWithLoss(**config, dtype=torch.float64)
    ours = AdaptiveLogSoftmaxWithLoss(**config, dtype=ug.float64)
    ours.load_state_dict({k: ug.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    return ours, theirs


def test_it_is_exported_as_nn_adaptive_log_softmax_with_loss():
    assert nn.AdaptiveLogSoftmaxWithLoss is AdaptiveLogSoftmaxWithLoss


@pytest.mark.parametrize("config", CONFIGS)
def test_structure_matches_torch(config):
    ours = AdaptiveLogSoftmaxWithLoss(**config)
    theirs = torch.nn.AdaptiveLogSoftmaxWithLoss(**config)
    assert repr(ours) == repr(theirs)
    assert [(k, v.shape) for k, v in ours.state_dict().items()] == [
        (k, tuple(v.shape)) for k, v in theirs.state_dict().items()]
    for name in ("in_features", "n_classes", "cutoffs", "div_value", "head_bias",
                 "shortlist_size", "n_clusters", "head_size"):
        assert getattr(ours, name) == getattr(theirs, name), name
    assert ours.head.weight.dtype == ug.float32


@pytest.mark.parametrize("config", CONFIGS)
def test_forward_output_loss_and_gradients_match_torch(config):
    ours, theirs = pair(config)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((12, config["in_features"]))
    target = rng.permutation(np.arange(12) % config["n_classes"])  # every cluster is used
    x_ours, x_theirs = ug.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    result = ours(x_ours, ug.tensor(target))
    expected = theirs(x_theirs, torch.tensor(target))
    assert type(result).__name__ == "_ASMoutput" and result._fields == ("output", "loss")
    np.testing.assert_allclose(as_np(result.output), expected.output.detach().numpy(),
                               rtol=1e-10)
    np.testing.assert_allclose(as_np(result.loss), expected.loss.detach().numpy(), rtol=1e-10)
    upstream = rng.standard_normal(12)
    (result.loss + (result.output * ug.tensor(upstream)).sum()).backward()
    (expected.loss + (expected.output * torch.tensor(upstream)).sum()).backward()
    np.testing.assert_allclose(as_np(x_ours.grad), x_theirs.grad.numpy(), rtol=1e-9,
                               atol=1e-12)
    for (name, mine), (_, reference) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_allclose(as_np(mine.grad), reference.grad.numpy(), rtol=1e-9,
                                   atol=1e-12, err_msg=name)


def test_unbatched_input_and_a_single_cluster_batch_match_torch():
    ours, theirs = pair(CONFIGS[0])
    x = np.random.default_rng(1).standard_normal(8)
    for target in (1, 7):
        result = ours(ug.tensor(x), ug.tensor(target))
        expected = theirs(torch.tensor(x), torch.tensor(target))
        assert result.output.shape == () == tuple(expected.output.shape)
        np.testing.assert_allclose(as_np(result.output), expected.output.detach().numpy(),
                                   rtol=1e-10)
        np.testing.assert_allclose(as_np(result.loss), expected.loss.detach().numpy(),
                                   rtol=1e-10)


@pytest.mark.parametrize("config", CONFIGS)
def test_log_prob_matches_torch(config):
    ours, theirs = pair(config)
    x = np.random.default_rng(2).standard_normal((5, config["in_features"]))
    result = ours.log_prob(ug.tensor(x))
    np.testing.assert_allclose(as_np(result), theirs.log_prob(torch.tensor(x)).detach().numpy(),
                               rtol=1e-10)
    np.testing.assert_allclose(np.exp(as_np(result)).sum(axis=1), np.ones(5), rtol=1e-12)


@pytest.mark.parametrize("favoured, expected_kind", [(slice(0, 2), "shortlist"),
                                                     (slice(2, 3), "tail"),
                                                     (None, "mixed")])
def test_predict_matches_torch(favoured, expected_kind):
    config = dict(in_features=6, n_classes=7, cutoffs=[2], div_value=2.0, head_bias=True)
    ours, theirs = pair(config)
    with torch.no_grad():
        if favoured is not None:
            theirs.head.bias[favoured] += 50.0
        theirs.head.bias[2] = 0.0 if favoured is None else theirs.head.bias[2]
    ours.load_state_dict({k: ug.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    x = np.random.default_rng(3).standard_normal((12, 6)) * 3
    predicted = ours.predict(ug.tensor(x))
    reference = theirs.predict(torch.tensor(x))
    assert predicted.dtype == ug.int64
    np.testing.assert_array_equal(as_np(predicted), reference.numpy())
    in_tail = as_np(ours.head(ug.tensor(x)).argmax(dim=1)) >= 2
    kind = {(False, True): "shortlist", (True, False): "tail"}.get(
        (bool(in_tail.all()), bool((~in_tail).all())), "mixed")
    assert kind == expected_kind


@pytest.mark.parametrize("cutoffs, message", [
    ([], "cutoffs should be a sequence of length larger than 0"),
    ([5, 3], "cutoffs should be a sequence of unique, positive integers"),
    ([0, 3], "cutoffs should be a sequence of unique, positive integers"),
    ([3, 3], "cutoffs should be a sequence of unique, positive integers"),
    ([3, 10], "cutoffs should be a sequence of unique, positive integers"),
    ([2.5], "cutoffs should be a sequence of unique, positive integers"),
])
def test_bad_cutoffs_raise_like_torch(cutoffs, message):
    with pytest.raises(ValueError, match=message):
        torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs)
    with pytest.raises(ValueError, match=message):
        AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs)


@pytest.mark.parametrize("input_shape, target, message", [
    ((3, 8), [1, 2], "Input and target should have the same size in the batch dimension."),
    ((2, 8, 1), [1, 2], "1D target tensor expects 2D input tensors, but found inputs with size"),
    ((2, 8), 1, "0D target tensor expects 1D input tensors, but found inputs with size"),
    ((2, 8), [[1], [2]], "0D or 1D target tensor expected, multi-target not supported"),
    ((2, 8), [1, 10], r"Target values should be in \[0, 9\], but values in range \[1, 10\] "
                      r"were found."),
    ((2, 8), [-1, 3], r"Target values should be in \[0, 9\], but values in range \[-1, 3\]"),
])
def test_forward_errors_match_torch(input_shape, target, message):
    ours, theirs = pair(CONFIGS[0])
    with pytest.raises(RuntimeError, match=message):
        theirs(torch.ones(input_shape, dtype=torch.float64), torch.tensor(target))
    with pytest.raises(RuntimeError, match=message):
        ours(ug.ones(input_shape, dtype=ug.float64), ug.tensor(target))


def test_reset_parameters_redraws_every_linear():
    layer = AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6])
    before = {k: as_np(v).copy() for k, v in layer.state_dict().items()}
    layer.reset_parameters()
    after = {k: as_np(v) for k, v in layer.state_dict().items()}
    assert all(not np.array_equal(before[k], after[k]) for k in before if before[k].size)
