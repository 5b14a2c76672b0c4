"""PyTorch's in-place gradient clipping: unigrad.nn.utils.clip_grad_norm_ / clip_grad_value_
(and get_total_norm / clip_grads_with_norm_), closed form and against torch."""

from __future__ import annotations

import math

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.utils as utils

NONFINITE = ("The total norm of order {} for gradients from `parameters` is non-finite, so it "
             "cannot be clipped. To disable this error and scale the gradients by the non-finite "
             "norm anyway, set `error_if_nonfinite=False`")


def param_with_grad(grad, dtype=ug.float32):
    param = ug.zeros(np.shape(grad), dtype=dtype, requires_grad=True)
    param.grad = ug.tensor(grad, dtype=dtype)
    return param


def test_clip_grad_norm_closed_form():
    a, b = param_with_grad([3.0]), param_with_grad([[0.0, 4.0]])
    total = utils.clip_grad_norm_([a, b], max_norm=1.0)
    assert total.shape == () and total.item() == 5.0
    coefficient = 1.0 / (5.0 + 1e-6)
    np.testing.assert_allclose(a.grad.numpy(), [3.0 * coefficient], rtol=1e-7)
    np.testing.assert_allclose(b.grad.numpy(), [[0.0, 4.0 * coefficient]], rtol=1e-7)


def test_clip_grad_norm_leaves_small_gradients_alone():
    a = param_with_grad([0.3, -0.4])
    total = utils.clip_grad_norm_(a, max_norm=10.0)  # a single Tensor works too
    assert total.item() == pytest.approx(0.5)
    assert a.grad.tolist() == ug.tensor([0.3, -0.4]).tolist()


@pytest.mark.parametrize("norm_type, expected", [(1.0, 9.0), (math.inf, 4.0), ("inf", 4.0),
                                                 (3.0, (27 + 8 + 64) ** (1 / 3))])
def test_clip_grad_norm_types(norm_type, expected):
    a, b = param_with_grad([3.0, -2.0]), param_with_grad([4.0])
    total = utils.clip_grad_norm_([a, b], max_norm=2.0, norm_type=norm_type)
    assert total.item() == pytest.approx(expected, rel=1e-6)
    coefficient = 2.0 / (expected + 1e-6)
    np.testing.assert_allclose(a.grad.numpy(), np.array([3.0, -2.0]) * coefficient, rtol=1e-6)


def test_parameters_without_grad_are_skipped_and_empty_gives_zero():
    a, frozen = param_with_grad([6.0, 8.0]), ug.zeros(2, requires_grad=True)
    total = utils.clip_grad_norm_([frozen, a], 5.0)
    assert total.item() == 10.0 and frozen.grad is None
    np.testing.assert_allclose(a.grad.numpy(), [3.0, 4.0], rtol=1e-6)
    for empty in ([], [frozen]):
        total = utils.clip_grad_norm_(empty, 1.0)
        assert total.tolist() == 0.0 and total.dtype == ug.float32 and total.shape == ()
    assert utils.get_total_norm([]).tolist() == 0.0


def test_generators_are_accepted_and_an_empty_one_warns():
    params = [param_with_grad([6.0, 8.0])]
    total = utils.clip_grad_norm_((p for p in params), 5.0)
    assert total.item() == 10.0
    with pytest.warns(UserWarning, match="`parameters` is an empty generator"):
        utils.clip_grad_norm_((p for p in []), 1.0)


def test_error_if_nonfinite_raises_before_changing_anything():
    for bad, norm_type in ((float("nan"), 2.0), (float("inf"), 2.0), (float("inf"), "inf")):
        a, b = param_with_grad([1.0, bad]), param_with_grad([2.0])
        with pytest.raises(RuntimeError) as info:
            utils.clip_grad_norm_([a, b], 1.0, norm_type=norm_type, error_if_nonfinite=True)
        assert str(info.value) == NONFINITE.format(float(norm_type))
        assert b.grad.tolist() == [2.0] and a.grad.tolist()[0] == 1.0
    a = param_with_grad([1.0, float("inf")])
    with np.errstate(invalid="ignore"):  # inf * 0
        total = utils.clip_grad_norm_([a], 1.0)  # PyTorch scales by the non-finite norm
    assert math.isinf(total.item())
    assert math.isnan(a.grad.tolist()[1]) and a.grad.tolist()[0] == 0.0


def test_float16_gradients_do_not_overflow_the_norm():
    a = param_with_grad([300.0] * 4, dtype=ug.float16)  # 300 ** 2 overflows float16
    total = utils.clip_grad_norm_([a], 1.0)
    assert total.dtype == ug.float16 and total.item() == 600.0
    np.testing.assert_allclose(a.grad.numpy(), [0.5] * 4, rtol=1e-3)
    assert a.grad.dtype == ug.float16


def test_clip_is_not_recorded():
    w = ug.tensor([1.0, 2.0], requires_grad=True)
    w.grad = w * 2.0  # a gradient that is itself part of a graph (create_graph=True)
    total = utils.clip_grad_norm_([w], 1.0)
    assert total.grad_fn is None and not total.requires_grad
    np.testing.assert_allclose(w.grad.detach().numpy(), np.array([2.0, 4.0]) / (20 ** 0.5 + 1e-6),
                               rtol=1e-6)


def test_clip_grad_value():
    a, b = param_with_grad([-3.0, 0.5, 2.0]), param_with_grad([[0.1, -0.2]])
    frozen = ug.zeros(1, requires_grad=True)
    assert utils.clip_grad_value_([a, frozen, b], clip_value=1.0) is None
    assert a.grad.tolist() == [-1.0, 0.5, 1.0]
    assert b.grad.tolist() == ug.tensor([[0.1, -0.2]]).tolist() and frozen.grad is None
    utils.clip_grad_value_(a, 0)
    assert a.grad.tolist() == [0.0, 0.0, 0.0]


def test_get_total_norm_and_clip_grads_with_norm():
    grads = [ug.tensor([3.0]), ug.tensor([[4.0]])]
    assert utils.get_total_norm(grads).item() == 5.0
    assert utils.get_total_norm(grads[0], norm_type=1).item() == 3.0
    a = param_with_grad([6.0, 8.0])
    assert utils.clip_grads_with_norm_([a], 5.0, ug.tensor(10.0)) is None
    np.testing.assert_allclose(a.grad.numpy(), [3.0, 4.0], rtol=1e-6)
    utils.clip_grads_with_norm_([a], 1.0, 5.0)  # a number works as the total norm
    np.testing.assert_allclose(a.grad.numpy(), [0.6, 0.8], rtol=1e-6)


def test_argument_errors_come_before_any_change():
    a = param_with_grad([6.0, 8.0])
    cases = [
        (TypeError, r"clip_grad_norm_\(\): the argument 'parameters' must be a Tensor or an "
                    r"iterable of Tensors, but got int", lambda: utils.clip_grad_norm_(3, 1.0)),
        (TypeError, r"but element 1 is str", lambda: utils.clip_grad_norm_([a, "b"], 1.0)),
        (TypeError, r"the argument 'max_norm' must be a number, but got str",
         lambda: utils.clip_grad_norm_([a], "1")),
        (ValueError, r"the argument 'max_norm' must be >= 0, but got -1.0",
         lambda: utils.clip_grad_norm_([a], -1.0)),
        (ValueError, r"the argument 'max_norm' must be >= 0, but got nan",
         lambda: utils.clip_grad_norm_([a], float("nan"))),
        (ValueError, r"the argument 'norm_type' must be a number or 'inf', but got 'fro'",
         lambda: utils.clip_grad_norm_([a], 1.0, norm_type="fro")),
        (TypeError, r"the argument 'foreach' must be None or a bool, but got str",
         lambda: utils.clip_grad_norm_([a], 1.0, foreach="yes")),
        (TypeError, r"clip_grad_value_\(\): the argument 'clip_value' must be a number",
         lambda: utils.clip_grad_value_([a], None)),
        (ValueError, r"clip_grad_value_\(\): the argument 'clip_value' must be >= 0, but got "
                     r"-0.5", lambda: utils.clip_grad_value_([a], -0.5)),
        (TypeError, r"clip_grad_value_\(\): the argument 'parameters' .* but got NoneType",
         lambda: utils.clip_grad_value_(None, 1.0)),
        (TypeError, r"the argument 'total_norm' must be a Tensor or a number, but got str",
         lambda: utils.clip_grads_with_norm_([a], 1.0, "5")),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()
        assert a.grad.tolist() == [6.0, 8.0]
    assert utils.clip_grad_norm_([a], ug.tensor(5.0)).item() == 10.0  # a 0-d Tensor max_norm


# ------------------------------------------------------------------ against PyTorch

@pytest.mark.torch
@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.5, 0.5, math.inf, "inf"])
@pytest.mark.parametrize("max_norm", [0.1, 1.0, 1e3])
def test_clip_grad_norm_matches_torch(rng, norm_type, max_norm):
    torch = pytest.importorskip("torch")
    shapes = [(3, 4), (5,), (), (2, 1, 3)]
    grads = [rng.standard_normal(shape).astype(np.float32) for shape in shapes]
    ours = [param_with_grad(g) for g in grads] + [ug.zeros(2, requires_grad=True)]
    theirs = [torch.zeros(g.shape, requires_grad=True) for g in grads]
    for param, grad in zip(theirs, grads):
        param.grad = torch.tensor(grad)
    theirs.append(torch.zeros(2, requires_grad=True))
    our_total = utils.clip_grad_norm_(ours, max_norm, norm_type=norm_type)
    their_total = torch.nn.utils.clip_grad_norm_(theirs, max_norm, norm_type=norm_type)
    assert our_total.dtype == ug.float32 and their_total.dtype == torch.float32
    np.testing.assert_allclose(our_total.item(), their_total.item(), rtol=1e-6)
    for mine, reference in zip(ours[:-1], theirs[:-1]):
        np.testing.assert_allclose(mine.grad.numpy(), reference.grad.numpy(), rtol=1e-6,
                                   atol=1e-7)
    np.testing.assert_allclose(
        utils.get_total_norm([p.grad for p in ours[:-1]], norm_type).item(),
        torch.nn.utils.get_total_norm([p.grad for p in theirs[:-1]], norm_type).item(),
        rtol=1e-6)


@pytest.mark.torch
def test_nonfinite_message_and_float16_match_torch():
    torch = pytest.importorskip("torch")
    param = torch.zeros(2, requires_grad=True)
    param.grad = torch.tensor([float("nan"), 1.0])
    with pytest.raises(RuntimeError) as info:
        torch.nn.utils.clip_grad_norm_([param], 1.0, error_if_nonfinite=True)
    assert str(info.value) == NONFINITE.format(2.0)
    half = torch.zeros(4, dtype=torch.float16, requires_grad=True)
    half.grad = torch.full((4,), 300.0, dtype=torch.float16)
    their_total = torch.nn.utils.clip_grad_norm_([half], 1.0)
    ours = param_with_grad([300.0] * 4, dtype=ug.float16)
    our_total = utils.clip_grad_norm_([ours], 1.0)
    assert our_total.item() == their_total.item()
    np.testing.assert_allclose(ours.grad.numpy(), half.grad.numpy(), rtol=1e-3)


@pytest.mark.torch
@pytest.mark.parametrize("clip_value", [0.0, 0.3, 5.0])
def test_clip_grad_value_matches_torch(rng, clip_value):
    torch = pytest.importorskip("torch")
    grads = [rng.standard_normal(shape).astype(np.float32) for shape in ((3, 4), (6,))]
    ours = [param_with_grad(g) for g in grads]
    theirs = [torch.zeros(g.shape, requires_grad=True) for g in grads]
    for param, grad in zip(theirs, grads):
        param.grad = torch.tensor(grad)
    utils.clip_grad_value_(ours, clip_value)
    torch.nn.utils.clip_grad_value_(theirs, clip_value)
    for mine, reference in zip(ours, theirs):
        np.testing.assert_array_equal(mine.grad.numpy(), reference.grad.numpy())


def test_vector_norm_of_nan_is_nan():
    # the total norm is built from vector_norm: a NaN gradient must not give a zero norm
    for order in (2, 3, 1, math.inf):
        assert math.isnan(ug.vector_norm(ug.tensor([1.0, float("nan")]), order).item())
    zero = ug.zeros(3, requires_grad=True)
    ug.vector_norm(zero).backward()
    assert zero.grad.tolist() == [0.0, 0.0, 0.0]
