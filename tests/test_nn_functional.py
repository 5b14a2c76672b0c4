"""``unigrad.nn.functional`` against PyTorch (float64 values and gradients) and its errors."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.functional as F


def _pair(rng, arrays, requires_grad=True):
    """The same float64 arrays as unigrad and torch leaves (integer arrays stay constants)."""
    torch = pytest.importorskip("torch")
    ours, theirs = [], []
    for array in arrays:
        floating = array.dtype.kind == "f" and requires_grad
        ours.append(ug.tensor(array, requires_grad=floating))
        theirs.append(torch.tensor(array, requires_grad=floating))
    return ours, theirs


def assert_matches_torch(ours_fn, torch_fn, arrays, rng, atol=1e-10):
    """Values and gradients (for a random cotangent) of both frameworks agree."""
    torch = pytest.importorskip("torch")
    ours, theirs = _pair(rng, arrays)
    out, expected = ours_fn(*ours), torch_fn(*theirs)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), atol=atol)
    cotangent = rng.standard_normal(tuple(expected.shape))
    out.backward(ug.tensor(cotangent))
    expected.backward(torch.tensor(cotangent))
    for mine, reference in zip(ours, theirs):
        if reference.requires_grad:
            np.testing.assert_allclose(mine.grad.numpy(), reference.grad.numpy(), atol=atol)


@pytest.fixture
def rng():
    return np.random.default_rng(0)


CONV2D_OPTIONS = [
    {}, {"stride": 2, "padding": 1}, {"dilation": 2, "padding": (2, 1)},
    {"stride": (2, 1), "padding": 1, "dilation": (1, 2)}, {"padding": "same"},
    {"padding": "valid", "stride": 3},
]


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:Using padding='same'")
@pytest.mark.parametrize("options", CONV2D_OPTIONS)
def test_conv2d_matches_torch(options, rng):
    torch = pytest.importorskip("torch")
    arrays = [rng.standard_normal((2, 3, 7, 6)), rng.standard_normal((4, 3, 3, 2)),
              rng.standard_normal(4)]
    assert_matches_torch(lambda x, w, b: F.conv2d(x, w, b, **options),
                         lambda x, w, b: torch.nn.functional.conv2d(x, w, b, **options),
                         arrays, rng)


@pytest.mark.torch
def test_conv2d_groups_and_unbatched_match_torch(rng):
    torch = pytest.importorskip("torch")
    assert_matches_torch(lambda x, w: F.conv2d(x, w, groups=2, stride=2, padding=1),
                         lambda x, w: torch.nn.functional.conv2d(x, w, groups=2, stride=2,
                                                                 padding=1),
                         [rng.standard_normal((2, 4, 6, 6)), rng.standard_normal((6, 2, 3, 3))],
                         rng)
    assert_matches_torch(lambda x, w: F.conv2d(x, w, padding=1),
                         lambda x, w: torch.nn.functional.conv2d(x, w, padding=1),
                         [rng.standard_normal((3, 5, 5)), rng.standard_normal((2, 3, 3, 3))], rng)


@pytest.mark.torch
@pytest.mark.parametrize("options", [{}, {"stride": 2, "padding": 2, "dilation": 2},
                                     {"groups": 3, "padding": "same"}])
def test_conv1d_matches_torch(options, rng):
    torch = pytest.importorskip("torch")
    weight_channels = 1 if options.get("groups") == 3 else 3
    assert_matches_torch(lambda x, w: F.conv1d(x, w, **options),
                         lambda x, w: torch.nn.functional.conv1d(x, w, **options),
                         [rng.standard_normal((2, 3, 9)),
                          rng.standard_normal((6, weight_channels, 3))], rng)


POOL_OPTIONS = [
    {"kernel_size": 2}, {"kernel_size": 3, "stride": 2, "padding": 1},
    {"kernel_size": (3, 2), "stride": 2, "ceil_mode": True},
    {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True},
]


@pytest.mark.torch
@pytest.mark.parametrize("options", POOL_OPTIONS + [{"kernel_size": 3, "dilation": 2,
                                                     "padding": 1}])
def test_max_pool2d_matches_torch(options, rng):
    torch = pytest.importorskip("torch")
    distinct = rng.permutation(2 * 3 * 7 * 6).reshape(2, 3, 7, 6) * 0.1
    assert_matches_torch(lambda x: F.max_pool2d(x, **options),
                         lambda x: torch.nn.functional.max_pool2d(x, **options), [distinct], rng)
    _, indices = F.max_pool2d(ug.tensor(distinct), return_indices=True, **options)
    _, expected = torch.nn.functional.max_pool2d(torch.tensor(distinct), return_indices=True,
                                                 **options)
    np.testing.assert_array_equal(indices.numpy(), expected.numpy())


@pytest.mark.torch
@pytest.mark.parametrize("options", POOL_OPTIONS)
@pytest.mark.parametrize("count_include_pad", [True, False])
def test_avg_pool2d_matches_torch(options, count_include_pad, rng):
    torch = pytest.importorskip("torch")
    assert_matches_torch(
        lambda x: F.avg_pool2d(x, count_include_pad=count_include_pad, **options),
        lambda x: torch.nn.functional.avg_pool2d(x, count_include_pad=count_include_pad,
                                                 **options),
        [rng.standard_normal((2, 3, 7, 6))], rng)


CROSS_ENTROPY_CASES = [
    {"target": np.array([0, 3, -100, 2, 1])},
    {"target": np.array([0, 3, 1, 2, 1]), "label_smoothing": 0.2, "weight": True},
    {"target": np.array([0, 3, 1, 2, 1]), "ignore_index": 3, "weight": True},
    {"target": "probabilities", "weight": True, "label_smoothing": 0.1},
]


@pytest.mark.torch
@pytest.mark.parametrize("case", CROSS_ENTROPY_CASES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_matches_torch(case, reduction, rng):
    torch = pytest.importorskip("torch")
    case = dict(case)
    target = case.pop("target")
    if isinstance(target, str):
        target = rng.dirichlet(np.ones(4), 5)
    weight = rng.uniform(0.5, 2.0, 4) if case.pop("weight", False) else None
    ours_target, torch_target = ug.tensor(target), torch.tensor(target)
    ours_weight = None if weight is None else ug.tensor(weight)
    torch_weight = None if weight is None else torch.tensor(weight)
    assert_matches_torch(
        lambda x: F.cross_entropy(x, ours_target, ours_weight, reduction=reduction, **case),
        lambda x: torch.nn.functional.cross_entropy(x, torch_target, torch_weight,
                                                    reduction=reduction, **case),
        [rng.standard_normal((5, 4))], rng)


@pytest.mark.torch
def test_cross_entropy_spatial_and_nll_match_torch(rng):
    torch = pytest.importorskip("torch")
    target = rng.integers(0, 4, (2, 3, 2))
    weight = rng.uniform(0.5, 2.0, 4)
    assert_matches_torch(
        lambda x: F.cross_entropy(x, ug.tensor(target), ug.tensor(weight), ignore_index=1,
                                  label_smoothing=0.3),
        lambda x: torch.nn.functional.cross_entropy(x, torch.tensor(target),
                                                    torch.tensor(weight), ignore_index=1,
                                                    label_smoothing=0.3),
        [rng.standard_normal((2, 4, 3, 2))], rng)
    assert_matches_torch(
        lambda x: F.nll_loss(x, ug.tensor(target[:, 0, 0]), ug.tensor(weight)),
        lambda x: torch.nn.functional.nll_loss(x, torch.tensor(target[:, 0, 0]),
                                               torch.tensor(weight)),
        [rng.standard_normal((2, 4))], rng)


@pytest.mark.torch
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_binary_cross_entropies_match_torch(reduction, rng):
    torch = pytest.importorskip("torch")
    weight = rng.uniform(0.5, 2.0, 4)
    pos_weight = rng.uniform(0.5, 2.0, 4)
    target = rng.uniform(0, 1, (3, 4))
    assert_matches_torch(
        lambda x, t: F.binary_cross_entropy(x, t, ug.tensor(weight), reduction=reduction),
        lambda x, t: torch.nn.functional.binary_cross_entropy(x, t, torch.tensor(weight),
                                                              reduction=reduction),
        [rng.uniform(0.05, 0.95, (3, 4)), target], rng)
    assert_matches_torch(
        lambda x, t: F.binary_cross_entropy_with_logits(
            x, t, ug.tensor(weight), reduction=reduction, pos_weight=ug.tensor(pos_weight)),
        lambda x, t: torch.nn.functional.binary_cross_entropy_with_logits(
            x, t, torch.tensor(weight), reduction=reduction,
            pos_weight=torch.tensor(pos_weight)),
        [rng.standard_normal((3, 4)) * 3, target], rng)


@pytest.mark.torch
def test_binary_cross_entropy_saturated_inputs_match_torch(rng):
    """Why bce is a primitive: inputs of exactly 0 or 1 still get PyTorch's finite gradient."""
    torch = pytest.importorskip("torch")
    probabilities = np.array([0.0, 1.0, 0.5, 1.0])
    target = np.array([0.0, 1.0, 0.5, 0.3])
    ours = ug.tensor(probabilities, requires_grad=True)
    theirs = torch.tensor(probabilities, requires_grad=True)
    F.binary_cross_entropy(ours, ug.tensor(target)).backward()
    torch.nn.functional.binary_cross_entropy(theirs, torch.tensor(target)).backward()
    assert np.isfinite(ours.grad.numpy()).all()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy())


def test_logits_losses_are_stable_and_exact_at_zero():
    logits = ug.tensor([0.0, 500.0, -500.0], requires_grad=True)
    loss = F.binary_cross_entropy_with_logits(logits, ug.tensor([1.0, 1.0, 0.0]),
                                              reduction="sum")
    loss.backward()
    np.testing.assert_allclose(loss.item(), np.log(2.0))
    np.testing.assert_allclose(logits.grad.numpy(), [-0.5, 0.0, 0.0], atol=1e-12)


def test_log_softmax_is_one_stable_node():
    """Why log_softmax is a primitive: one node, exact for huge logits."""
    logits = ug.tensor([[1000.0, 0.0, -1000.0]], requires_grad=True)
    out = F.log_softmax(logits, dim=1)
    assert out.grad_fn.name() == "LogSoftmaxBackward0"
    assert out.grad_fn.next_functions[0][0].variable is logits
    np.testing.assert_allclose(out.detach().numpy(), [[0.0, -1000.0, -2000.0]])
    loss = F.cross_entropy(logits, ug.tensor([1]))
    loss.backward()
    np.testing.assert_allclose(logits.grad.numpy(), [[1.0, -1.0, 0.0]])


@pytest.mark.torch
def test_layer_norm_and_batch_norm_match_torch(rng):
    torch = pytest.importorskip("torch")
    assert_matches_torch(lambda x, w, b: F.layer_norm(x, (3, 4), w, b),
                         lambda x, w, b: torch.nn.functional.layer_norm(x, (3, 4), w, b),
                         [rng.standard_normal((2, 3, 4)), rng.standard_normal((3, 4)),
                          rng.standard_normal((3, 4))], rng)
    running = rng.standard_normal(3), rng.uniform(1.0, 2.0, 3)
    ours_running = [ug.tensor(r) for r in running]
    torch_running = [torch.tensor(r) for r in running]
    for training in (True, False):
        assert_matches_torch(
            lambda x, w, b, training=training: F.batch_norm(
                x, *ours_running, w, b, training=training, momentum=0.3),
            lambda x, w, b, training=training: torch.nn.functional.batch_norm(
                x, *torch_running, w, b, training=training, momentum=0.3),
            [rng.standard_normal((4, 3, 2, 2)), rng.standard_normal(3),
             rng.standard_normal(3)], rng)
        for mine, reference in zip(ours_running, torch_running):
            np.testing.assert_allclose(mine.numpy(), reference.numpy(), atol=1e-12)


def test_batch_norm_updates_running_stats_with_unbiased_variance():
    x = ug.tensor([[1.0], [3.0], [5.0]])
    running_mean, running_var = ug.zeros(1), ug.ones(1)
    F.batch_norm(x, running_mean, running_var, training=True, momentum=0.5)
    np.testing.assert_allclose(running_mean.numpy(), [1.5])
    np.testing.assert_allclose(running_var.numpy(), [0.5 + 0.5 * 4.0])


@pytest.mark.torch
def test_embedding_padding_row_gets_no_gradient(rng):
    torch = pytest.importorskip("torch")
    indices = np.array([[0, 2, 4], [2, 2, 1]])
    assert_matches_torch(
        lambda w: F.embedding(ug.tensor(indices), w, padding_idx=2),
        lambda w: torch.nn.functional.embedding(torch.tensor(indices), w, padding_idx=2),
        [rng.standard_normal((5, 3))], rng)
    weight = ug.tensor(rng.standard_normal((5, 3)), requires_grad=True)
    F.embedding(ug.tensor(indices), weight, padding_idx=2).sum().backward()
    np.testing.assert_array_equal(weight.grad.numpy()[2], 0.0)
    np.testing.assert_array_equal(weight.grad.numpy()[0], 1.0)


def test_dropout_is_reproducible_and_scaled():
    x = ug.ones(1000)
    ug.manual_seed(3)
    first = F.dropout(x, p=0.25)
    ug.manual_seed(3)
    second = F.dropout(x, p=0.25)
    np.testing.assert_array_equal(first.numpy(), second.numpy())
    assert set(np.unique(first.numpy())) == {0.0, np.float32(1 / 0.75)}
    assert 0.15 < float((first == 0).sum()) / 1000 < 0.35
    assert F.dropout(x, p=0.25, training=False) is x
    np.testing.assert_array_equal(F.dropout(x, p=1.0).numpy(), 0.0)


def test_linear_matches_matmul(rng):
    x, w, b = rng.standard_normal((2, 3)), rng.standard_normal((4, 3)), rng.standard_normal(4)
    np.testing.assert_allclose(F.linear(ug.tensor(x), ug.tensor(w), ug.tensor(b)).numpy(),
                               x @ w.T + b)


ERRORS = [
    (lambda: F.conv2d(ug.ones((2, 3)), ug.ones((4, 3, 3, 3))), RuntimeError,
     r"Expected 3D \(unbatched\) or 4D \(batched\) input to conv2d, but got input of size: "
     r"\[2, 3\]"),
    (lambda: F.conv2d(ug.ones((2, 3, 5, 5)), ug.ones((4, 3, 3, 3)), groups=2), RuntimeError,
     r"expected input\[2, 3, 5, 5\] to have 6 channels, but got 3 channels instead"),
    (lambda: F.conv2d(ug.ones((2, 4, 5, 5)), ug.ones((3, 2, 3, 3)), groups=2), RuntimeError,
     "expected weight to be divisible by 2 at dimension 0"),
    (lambda: F.conv2d(ug.ones((1, 1, 5, 5)), ug.ones((1, 1, 3, 3)), stride=2, padding="same"),
     RuntimeError, "padding='same' is not supported for strided convolutions"),
    (lambda: F.conv2d(ug.ones((1, 1, 2, 2)), ug.ones((1, 1, 3, 3))), RuntimeError,
     "Kernel size can't be greater than actual input size"),
    (lambda: F.conv1d(ug.ones((1, 1, 5, 5)), ug.ones((1, 1, 3))), RuntimeError,
     r"Expected 2D \(unbatched\) or 3D \(batched\) input to conv1d"),
    (lambda: F.mse_loss(ug.ones(2), ug.ones(2), reduction="avg"), ValueError,
     "avg is not a valid value for reduction"),
    (lambda: F.cross_entropy(ug.ones((2, 3)), ug.tensor([0, 1]), reduction="total"), ValueError,
     "total is not a valid value for reduction"),
    (lambda: F.dropout(ug.ones(2), p=1.5), ValueError,
     "dropout probability has to be between 0 and 1, but got 1.5"),
    (lambda: F.dropout(ug.ones(2), p=-0.1), ValueError, "between 0 and 1"),
    (lambda: F.max_pool2d(ug.ones((1, 1, 4, 4)), 2, padding=2), RuntimeError,
     "pad should be at most half of effective kernel size"),
    (lambda: F.cross_entropy(ug.ones((3, 4)), ug.tensor([0, 1, 5])), IndexError,
     "Target 5 is out of bounds."),
    (lambda: F.cross_entropy(ug.ones((3, 4)), ug.tensor([0, 1])), ValueError,
     r"Expected input batch_size \(3\) to match target batch_size \(2\)"),
    (lambda: F.cross_entropy(ug.ones((3, 4)), ug.tensor([0, 1, 2]), label_smoothing=1.5),
     RuntimeError, "label_smoothing must be between 0.0 and 1.0"),
    (lambda: F.binary_cross_entropy(ug.tensor([1.5]), ug.tensor([1.0])), RuntimeError,
     "all elements of input should be between 0 and 1"),
    (lambda: F.layer_norm(ug.ones((2, 3)), (4,)), RuntimeError,
     r"Given normalized_shape=\[4\], expected input with shape \[\*, 4\]"),
    (lambda: F.batch_norm(ug.ones((1, 3)), ug.zeros(3), ug.ones(3), training=True), ValueError,
     "Expected more than 1 value per channel when training"),
    (lambda: F.embedding(ug.tensor([0, 5]), ug.ones((3, 2))), IndexError,
     "index out of range in self"),
    (lambda: F.one_hot(ug.tensor([0, 5]), 3), RuntimeError,
     "Class values must be smaller than num_classes."),
]


@pytest.mark.parametrize("call, error, message", ERRORS)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("loss", ["cross_entropy", "nll_loss"])
@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_mean_over_only_ignored_targets_is_nan_with_zero_gradients(loss, smoothing):
    """PyTorch: every target ignored -> NaN loss (0/0) but zero gradients, not NaN ones."""
    x = ug.randn(3, 4, requires_grad=True)
    target = ug.tensor([-100, -100, -100])
    kwargs = {"label_smoothing": smoothing} if loss == "cross_entropy" else {}
    if loss == "nll_loss" and smoothing:
        pytest.skip("nll_loss has no label smoothing")
    value = getattr(F, loss)(x, target, **kwargs)
    value.backward()
    assert np.isnan(value.item())
    assert x.grad.tolist() == [[0.0] * 4] * 3
    weighted = getattr(F, loss)(x, ug.tensor([1, 1, 1]), weight=ug.tensor([1.0, 0.0, 1.0, 1.0]))
    assert np.isnan(weighted.item())
