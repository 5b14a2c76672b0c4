"""MindSpore's ops.clip_by_global_norm / ops.clip_by_value: values, structures, errors,
gradients against central differences."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug


def t64(values, requires_grad=False):
    return ug.tensor(values, dtype=ug.float64, requires_grad=requires_grad)


def central_difference(fn, arrays: list, index: int, eps: float = 1e-6) -> np.ndarray:
    """d fn / d arrays[index] by central differences (fn maps float64 arrays to a float)."""
    base = arrays[index]
    grad = np.zeros_like(base)
    for position in np.ndindex(base.shape):
        plus, minus = [a.copy() for a in arrays], [a.copy() for a in arrays]
        plus[index][position] += eps
        minus[index][position] -= eps
        grad[position] = (fn(plus) - fn(minus)) / (2 * eps)
    return grad


def test_family_exports_do_not_shadow_the_elementwise_clip():
    assert ug.clip is ug.ops.clip and ug.clip.__module__ == "unigrad.ops.elementwise"
    assert ug.clamp is ug.ops.clamp
    assert ug.clip_by_value is ug.ops.clip_by_value
    assert ug.clip_by_global_norm is ug.ops.clip_by_global_norm
    assert ug.clip(ug.tensor([-2.0, 2.0]), -1.0, 1.0).tolist() == [-1.0, 1.0]


# ------------------------------------------------------------------ clip_by_global_norm

def test_global_norm_closed_form():
    grads = (ug.tensor([3.0, 0.0]), ug.tensor([[0.0, 4.0]]))  # global norm 5
    clipped = ug.clip_by_global_norm(grads, clip_norm=1.0)
    assert type(clipped) is tuple and len(clipped) == 2
    np.testing.assert_allclose(clipped[0].numpy(), [0.6, 0.0], rtol=1e-6)
    np.testing.assert_allclose(clipped[1].numpy(), [[0.0, 0.8]], rtol=1e-6)
    assert clipped[1].shape == (1, 2)
    halved = ug.clip_by_global_norm(list(grads), 2.5)
    assert type(halved) is tuple
    np.testing.assert_allclose(halved[0].numpy(), [1.5, 0.0], rtol=1e-6)


def test_global_norm_within_the_limit_is_unchanged():
    grads = [ug.tensor([0.3, -0.4]), ug.tensor(0.0)]
    clipped = ug.clip_by_global_norm(grads)  # clip_norm=1.0 by default, norm 0.5
    assert [c.tolist() for c in clipped] == [g.tolist() for g in grads]  # exactly
    zeros = ug.clip_by_global_norm((ug.zeros(3),), 1.0)
    assert zeros[0].tolist() == [0.0, 0.0, 0.0]
    assert ug.clip_by_global_norm(()) == ()


def test_global_norm_numpy_reference_and_dtypes(rng):
    arrays = [rng.standard_normal(shape) * 3 for shape in ((4, 3), (5,), (2, 2, 2))]
    dtypes = (ug.float32, ug.float16, ug.float64)
    tensors = tuple(ug.tensor(a, dtype=d) for a, d in zip(arrays, dtypes))
    rounded = [t.numpy().astype(np.float64) for t in tensors]
    norm = np.sqrt(sum((a ** 2).sum() for a in rounded))
    for clip_norm in (0.5, 2.0, 100.0):
        clipped = ug.clip_by_global_norm(tensors, clip_norm)
        for result, source, original in zip(clipped, rounded, tensors):
            assert result.dtype == original.dtype
            expected = source * clip_norm / max(norm, clip_norm)
            tolerance = 2e-3 if original.dtype == ug.float16 else 1e-6
            np.testing.assert_allclose(result.numpy(), expected, rtol=tolerance, atol=tolerance)


def test_global_norm_nan_and_inf():
    nan = ug.clip_by_global_norm((ug.tensor([1.0, float("nan")]), ug.tensor([2.0])))
    assert all(np.isnan(t.numpy()).all() for t in nan)  # a NaN norm is not silently 0
    with np.errstate(invalid="ignore"):
        (inf,) = ug.clip_by_global_norm((ug.tensor([1.0, float("inf")]),))
    assert inf.tolist()[0] == 0.0 and np.isnan(inf.tolist()[1])


def test_global_norm_of_float64_is_computed_in_float64():
    x = (t64([1.0 + 1e-12, 0.0]),)
    clipped = ug.clip_by_global_norm(x, 0.5)
    assert clipped[0].dtype == ug.float64
    assert clipped[0].tolist()[0] == pytest.approx(0.5, abs=1e-15)


def test_global_norm_of_float16_accumulates_in_float32():
    x = (ug.full((4,), 300.0, dtype=ug.float16),)  # the squares overflow float16
    clipped = ug.clip_by_global_norm(x, 60.0)  # norm 600
    assert clipped[0].dtype == ug.float16
    np.testing.assert_allclose(clipped[0].numpy(), [30.0] * 4, rtol=1e-3)


def test_global_norm_errors():
    x = (ug.tensor([1.0]),)
    with pytest.raises(ValueError) as info:
        ug.clip_by_global_norm(x, use_norm=1.0)
    assert str(info.value) == ("For '_ClipByGlobalNorm', input 'use_norm' only supports None "
                               "currently, but got 'use_norm': 1.0")
    for bad in (0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match=r"For '_ClipByGlobalNorm', the 'clip_norm' must be "
                                             r"a finite number > 0, but got"):
            ug.clip_by_global_norm(x, bad)
    for bad in ("1", None, True, ug.tensor(1.0)):
        with pytest.raises(TypeError, match=r"the 'clip_norm' must be float or int"):
            ug.clip_by_global_norm(x, bad)
    with pytest.raises(TypeError, match=r"the argument 'x' must be a tuple or list of Tensors, "
                                        r"but got Tensor"):
        ug.clip_by_global_norm(ug.tensor([1.0]))
    with pytest.raises(TypeError, match=r"but element 1 is float"):
        ug.clip_by_global_norm([ug.tensor([1.0]), 2.0])


@pytest.mark.parametrize("clip_norm", [0.7, 50.0])
def test_global_norm_gradient_matches_central_differences(rng, clip_norm):
    arrays = [rng.standard_normal((2, 3)), rng.standard_normal(4)]
    weights = [rng.standard_normal((2, 3)), rng.standard_normal(4)]

    def objective(*xs):
        clipped = ug.clip_by_global_norm(xs, clip_norm)
        return sum((c * t64(w)).sum() for c, w in zip(clipped, weights))

    def numeric(raw):
        return float(objective(*(t64(a) for a in raw)))

    grads = ug.grad(objective, grad_position=(0, 1))(*(t64(a) for a in arrays))
    for index, grad in enumerate(grads):
        expected = central_difference(numeric, arrays, index)
        np.testing.assert_allclose(grad.detach().numpy(), expected, rtol=1e-6, atol=1e-8)
    if clip_norm == 50.0:  # within the limit: the identity
        np.testing.assert_allclose(grads[1].detach().numpy(), weights[1], rtol=1e-12)


def test_global_norm_gradient_at_zero_is_finite():
    grad = ug.grad(lambda x: ug.clip_by_global_norm((x,))[0].sum())(t64([0.0, 0.0]))
    assert grad.tolist() == [1.0, 1.0]


# ------------------------------------------------------------------ clip_by_value

def test_clip_by_value_structures():
    x = ug.tensor([-2.0, 0.5, 3.0])
    assert ug.clip_by_value(x, -1.0, 1.0).tolist() == [-1.0, 0.5, 1.0]
    listed = ug.clip_by_value([x, ug.tensor([[9.0]])], -1, 1)
    assert type(listed) is list and [t.tolist() for t in listed] == [[-1.0, 0.5, 1.0], [[1.0]]]
    tupled = ug.clip_by_value((x,), clip_value_min=0.0)
    assert type(tupled) is tuple and tupled[0].tolist() == [0.0, 0.5, 3.0]
    assert ug.clip_by_value(x, clip_value_max=0.0).tolist() == [-2.0, 0.0, 0.0]
    assert ug.clip_by_value([], 0.0) == []


def test_clip_by_value_min_above_max_gives_max_everywhere():
    result = ug.clip_by_value(ug.tensor([-5.0, 0.0, 5.0]), 3.0, 1.0)
    assert result.tolist() == [1.0, 1.0, 1.0]


def test_clip_by_value_bounds_are_cast_to_the_input_dtype():
    ints = ug.tensor([1, 5, 9], dtype=ug.int32)
    result = ug.clip_by_value(ints, 2.7, 7.2)  # MindSpore casts the bounds: 2 and 7
    assert result.dtype == ug.int32 and result.tolist() == [2, 5, 7]
    halves = ug.tensor([0.1, 0.9], dtype=ug.float16)
    result = ug.clip_by_value(halves, ug.tensor(0.25), ug.tensor(0.5, dtype=ug.float64))
    assert result.dtype == ug.float16 and result.tolist() == [0.25, 0.5]


def test_clip_by_value_tensor_bounds_broadcast():
    x = ug.tensor([[0.0, 5.0], [10.0, -3.0]])
    result = ug.clip_by_value(x, ug.tensor([1.0, -1.0]), ug.tensor([[4.0], [8.0]]))
    assert result.tolist() == [[1.0, 4.0], [8.0, -1.0]]


def test_clip_by_value_errors():
    with pytest.raises(ValueError) as info:
        ug.clip_by_value(ug.tensor([1.0]))
    assert str(info.value) == ("For 'clip_by_value', at least one of 'clip_value_min' or "
                               "'clip_value_max' must not be None")
    message = ("For 'clip_by_value', the type of argument 'x' must be Tensor or tuple[Tensor] or "
               "list[Tensor]")
    for bad in (1.0, np.ones(2), [ug.tensor(1.0), 2.0], "x"):
        with pytest.raises(TypeError) as info:
            ug.clip_by_value(bad, 0.0, 1.0)
        assert str(info.value) == message
    for bad in ("0", [0.0], True):
        with pytest.raises(TypeError, match=r"the type of argument 'clip_value_min' must be "
                                            r"Tensor, float, int or None"):
            ug.clip_by_value(ug.tensor([1.0]), bad, 1.0)
    with pytest.raises(TypeError, match=r"argument 'clip_value_max' must be Tensor, float"):
        ug.clip_by_value(ug.tensor([1.0]), 0.0, np.ones(1))


def test_clip_by_value_gradient_matches_central_differences(rng):
    x = rng.uniform(-3, 3, size=(3, 4))
    x[np.abs(np.abs(x) - 1.0) < 0.05] = 0.0  # keep clear of the kinks
    low, high = rng.uniform(-1.2, -0.8, size=(4,)), np.array(1.0)
    weights = rng.standard_normal((3, 4))

    def objective(x, low):
        return (ug.clip_by_value(x, low, float(high)) * t64(weights)).sum()

    def numeric(raw):
        return float(objective(t64(raw[0]), t64(raw[1])))

    grad_x, grad_low = ug.grad(objective, grad_position=(0, 1))(t64(x), t64(low))
    np.testing.assert_allclose(grad_x.detach().numpy(), central_difference(numeric, [x, low], 0),
                               rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(grad_low.detach().numpy(),
                               central_difference(numeric, [x, low], 1), rtol=1e-6, atol=1e-8)
    inside = (x > low) & (x < high)
    np.testing.assert_array_equal(grad_x.detach().numpy(), np.where(inside, weights, 0.0))


def test_clipping_ops_work_on_gradients():
    w = ug.tensor([3.0, 4.0], requires_grad=True)
    grads = ug.grad(lambda: (w * w).sum() / 2, grad_position=None, weights=[w])()
    (clipped,) = ug.clip_by_global_norm(grads, 1.0)
    np.testing.assert_allclose(clipped.detach().numpy(), [0.6, 0.8], rtol=1e-6)
    (bounded,) = ug.clip_by_value(grads, -3.5, 3.5)
    assert bounded.tolist() == [3.0, 3.5]


@pytest.mark.torch
def test_clip_by_value_matches_torch_clamp(rng):
    torch = pytest.importorskip("torch")
    x = rng.standard_normal((5, 6)).astype(np.float32) * 3
    for low, high in ((-1.0, 2.0), (None, 0.5), (-0.5, None), (2.0, -2.0)):
        ours = ug.clip_by_value(ug.tensor(x), low, high)
        theirs = torch.clamp(torch.tensor(x), low, high)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
