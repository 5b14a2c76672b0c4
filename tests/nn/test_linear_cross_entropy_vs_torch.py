"""``linear_cross_entropy``, ``LinearCrossEntropyLoss`` and ``LinearCrossEntropyOptions``
against PyTorch: values, input/weight/bias gradients, ``state_dict`` keys, repr, warnings
and errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.functional as F
from unigrad import nn

from ..ops.torch_comparison import compare
from .helpers import as_np

torch = pytest.importorskip("torch")
TF = torch.nn.functional
pytestmark = pytest.mark.torch


@pytest.fixture
def rng():
    return np.random.default_rng(42)


def functional_pair(target, class_weight=None, options=False, **kwargs):
    """The functional in both libraries over ``(input, linear_weight[, linear_bias])``."""
    def ours(x, w, b=None):
        weight = None if class_weight is None else ug.tensor(class_weight)
        chosen = nn.LinearCrossEntropyOptions() if options else None
        return F.linear_cross_entropy(x, w, ug.tensor(target), linear_bias=b, weight=weight,
                                      options=chosen, **kwargs)

    def theirs(x, w, b=None):
        weight = None if class_weight is None else torch.tensor(class_weight)
        chosen = torch.nn.LinearCrossEntropyOptions() if options else None
        return TF.linear_cross_entropy(x, w, torch.tensor(target), linear_bias=b,
                                       weight=weight, options=chosen, **kwargs)
    return ours, theirs


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("kwargs", [{}, {"label_smoothing": 0.3}, {"ignore_index": 2},
                                    {"ignore_index": -100, "label_smoothing": 0.1}])
def test_class_indices_match_torch(reduction, kwargs, rng):
    target = np.array([0, 2, 4, 2, kwargs.get("ignore_index", 1)])
    ours, theirs = functional_pair(target, rng.uniform(0.5, 2.0, 5), reduction=reduction,
                                   **kwargs)
    compare(ours, theirs, rng.standard_normal((5, 3)), rng.standard_normal((5, 3)),
            rng.standard_normal(5))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_k_dimensional_weight_matches_torch(reduction, rng):
    target = rng.integers(0, 4, (3, 2, 2))
    ours, theirs = functional_pair(target, reduction=reduction, label_smoothing=0.2)
    compare(ours, theirs, rng.standard_normal((3, 5)), rng.standard_normal((4, 2, 2, 5)),
            rng.standard_normal((4, 2, 2)))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_class_probabilities_match_torch(reduction, rng):
    target = rng.dirichlet(np.ones(4), 3)
    ours, theirs = functional_pair(target, rng.uniform(0.5, 2.0, 4), reduction=reduction,
                                   label_smoothing=0.25)
    compare(ours, theirs, rng.standard_normal((3, 2)), rng.standard_normal((4, 2)))


def test_unbatched_input_and_options_match_torch(rng):
    ours, theirs = functional_pair(np.array(3))
    compare(ours, theirs, rng.standard_normal(4), rng.standard_normal((6, 4)),
            rng.standard_normal(6))
    for reduction in ("mean", "sum", "none"):
        ours, theirs = functional_pair(rng.integers(0, 6, 8), options=True, reduction=reduction)
        compare(ours, theirs, rng.standard_normal((8, 4)), rng.standard_normal((6, 4)),
                rng.standard_normal(6))


def test_float32_result_matches_torch(rng):
    x, w = rng.standard_normal((4, 3)).astype(np.float32), rng.standard_normal((5, 3))
    target = np.array([1, 0, 4, 2])
    result = F.linear_cross_entropy(ug.tensor(x), ug.tensor(w.astype(np.float32)),
                                    ug.tensor(target))
    expected = TF.linear_cross_entropy(torch.tensor(x), torch.tensor(w.astype(np.float32)),
                                       torch.tensor(target))
    assert result.dtype == ug.float32
    np.testing.assert_allclose(as_np(result), expected.numpy(), rtol=1e-6)


def test_unsupported_options_warn_like_torch(rng):
    x, w = ug.tensor(rng.standard_normal((2, 3))), ug.tensor(rng.standard_normal((4, 3)))
    with pytest.warns(UserWarning, match=r"``options`` ignored; chunked path needs"):
        F.linear_cross_entropy(x, w, ug.tensor([1, 2]), label_smoothing=0.1,
                               options=nn.LinearCrossEntropyOptions())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F.linear_cross_entropy(x, w, ug.tensor([1, 2]), options=nn.LinearCrossEntropyOptions())


@pytest.mark.parametrize("shapes, target, kwargs, message", [
    (((2, 3, 1), (4, 1)), [1, 2], {}, "expected input with dimensionality 1 or 2, got 3"),
    (((2, 3), (4,)), [1, 2], {}, "expected linear_weight with dimensionality at least 2, got 1"),
    (((2, 3), (4, 2)), [1, 2], {}, r"expected equal input and linear_weight last dimensions "
                                   r"\(in_features\), got 3 and 2, respectively"),
    (((2, 3), (4, 3), (3,)), [1, 2], {}, r"expected linear_bias shape \(4,\), got \(3,\)"),
    (((3,), (4, 2, 3)), 1, {}, "K-dimensional loss defined by linear_weight shape"),
    (((2, 3), (4, 3)), [[0.5, 0.5, 0, 0]] * 2, {"ignore_index": 1},
     "ignore_index cannot be specified when target contains probabilities"),
])
def test_errors_match_torch(shapes, target, kwargs, message):
    arrays = [np.ones(shape) for shape in shapes]
    bias = arrays[2] if len(arrays) > 2 else None
    with pytest.raises(RuntimeError, match=message):
        TF.linear_cross_entropy(torch.tensor(arrays[0]), torch.tensor(arrays[1]),
                                torch.tensor(target), linear_bias=None if bias is None else
                                torch.tensor(bias), **kwargs)
    with pytest.raises(RuntimeError, match=message):
        F.linear_cross_entropy(ug.tensor(arrays[0]), ug.tensor(arrays[1]), ug.tensor(target),
                               linear_bias=None if bias is None else ug.tensor(bias), **kwargs)


def test_options_repr_defaults_and_validation():
    assert repr(nn.LinearCrossEntropyOptions()) == repr(torch.nn.LinearCrossEntropyOptions())
    custom = dict(allow_retain_graph=True, batch_chunk_size=8, chunking_method="aspect_ratio:2",
                  acc_policy="compact")
    assert repr(nn.LinearCrossEntropyOptions(**custom)) == repr(
        torch.nn.LinearCrossEntropyOptions(**custom))
    assert nn.LinearCrossEntropyOptions(acc_dtype=ug.float32).acc_dtype == ug.float32
    for kwargs, message in [({"acc_policy": "fast"}, "invalid acc_policy: 'fast'"),
                            ({"chunking_method": "aspect_ratio:0"}, "invalid chunking_method"),
                            ({"chunking_method": "square"}, "invalid chunking_method"),
                            ({"batch_chunk_size": 0}, "batch_chunk_size must be positive int"),
                            ({"acc_dtype": ug.int32}, "acc_dtype must be one of")]:
        with pytest.raises(ValueError, match=message):
            nn.LinearCrossEntropyOptions(**kwargs)
    with pytest.raises(TypeError, match="options"):
        F.linear_cross_entropy(ug.ones(2, 3), ug.ones(4, 3), ug.tensor([1, 2]), options={})
    with pytest.raises(AttributeError):
        nn.LinearCrossEntropyOptions().batch_chunk_size = 4


@pytest.mark.parametrize("kwargs", [
    {},
    {"bias": True, "reduction": "sum", "label_smoothing": 0.1},
    {"out_features": (2,), "bias": True, "ignore_index": 0, "reduction": "none"},
])
def test_module_matches_torch(kwargs, rng):
    class_weight = rng.uniform(0.5, 2.0, 4)
    ours = nn.LinearCrossEntropyLoss(3, 4, weight=ug.tensor(class_weight), dtype=ug.float64,
                                     **kwargs)
    theirs = torch.nn.LinearCrossEntropyLoss(3, 4, weight=torch.tensor(class_weight),
                                             dtype=torch.float64, **kwargs)
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    ours.load_state_dict({k: ug.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    x = rng.standard_normal((5, 3))
    target = rng.integers(0, 4, (5,) + tuple(kwargs.get("out_features", ())))
    x_ours, x_theirs = ug.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    result, expected = ours(x_ours, ug.tensor(target)), theirs(x_theirs, torch.tensor(target))
    np.testing.assert_allclose(as_np(result), expected.detach().numpy(), rtol=1e-10)
    result.sum().backward()
    expected.sum().backward()
    np.testing.assert_allclose(as_np(x_ours.grad), x_theirs.grad.numpy(), rtol=1e-10,
                               atol=1e-12)
    for (name, mine), (_, reference) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_allclose(as_np(mine.grad), reference.grad.numpy(), rtol=1e-10,
                                   atol=1e-12, err_msg=name)


def test_module_defaults_and_errors():
    loss = nn.LinearCrossEntropyLoss(3, 4)
    assert loss.linear.weight.shape == (4, 3) and loss.linear.bias is None
    assert loss.weight is None and loss.ignore_index is None and loss.options is None
    assert list(loss.state_dict()) == ["linear.weight"]
    with pytest.raises(RuntimeError, match=r"expected weight shape to be \(4,\), got \(3,\)"):
        nn.LinearCrossEntropyLoss(3, 4, weight=ug.ones(3))
    with pytest.raises(RuntimeError, match=r"expected label_smoothing to be in range \[0, 1\]"):
        nn.LinearCrossEntropyLoss(3, 4, label_smoothing=1.5)
    with pytest.raises(ValueError, match="avg is not a valid value for reduction"):
        nn.LinearCrossEntropyLoss(3, 4, reduction="avg")
    with pytest.raises(TypeError, match="options"):
        nn.LinearCrossEntropyLoss(3, 4, options="chunked")
