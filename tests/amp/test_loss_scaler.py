"""MindSpore's loss scalers (amp.StaticLossScaler, amp.DynamicLossScaler) and amp.all_finite."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.amp as amp
import unigrad.nn.functional as F
from unigrad.nn.parameter import Parameter


def values(tensor) -> list:
    assert isinstance(tensor, ug.Tensor)
    return tensor.tolist()


# ------------------------------------------------------------------ the seed recipe

def test_static_scaler_seed_numbers():
    scaler = amp.StaticLossScaler(1024.)
    scaled = scaler.scale(ug.tensor(1.0))
    assert scaled.item() == 1024.0
    grads = scaler.unscale((ug.tensor([[2048., 4096., 6144.]]),))
    assert type(grads) is tuple and len(grads) == 1
    assert values(grads[0]) == [[2.0, 4.0, 6.0]]
    assert float(scaler.scale_value) == 1024.0


def test_mindspore_migration_guide_recipe():
    # MindSpore's gradient migration guide: Dense(3, 1) with weight [[2, 3, 4]], MSE loss
    weight = Parameter(ug.tensor([[2.0, 3.0, 4.0]]), name="fc.weight")
    scaler = amp.StaticLossScaler(1024.)

    def forward_fn(x, y):
        logits = (x @ weight.T).squeeze()
        return scaler.scale(F.mse_loss(logits, y)), logits

    grad_fn = ug.value_and_grad(forward_fn, grad_position=None, weights=[weight], has_aux=True)
    (loss, logits), grads = grad_fn(ug.tensor([[1.0, 2.0, 3.0]]), ug.tensor(19.0))
    assert loss.item() == 1024.0 and logits.item() == 20.0
    assert values(grads[0]) == [[2048.0, 4096.0, 6144.0]]
    assert scaler.unscale(loss).item() == 1.0
    grads = scaler.unscale(grads)
    assert type(grads) is tuple and values(grads[0]) == [[2.0, 4.0, 6.0]]
    state = amp.all_finite(grads)
    assert state.dtype == ug.bool and state.shape == () and bool(state) is True


def test_scale_value_is_a_float32_parameter_named_scale_value():
    for scaler in (amp.StaticLossScaler(8), amp.DynamicLossScaler(8, 2, 3)):
        parameter = scaler.scale_value
        assert isinstance(parameter, Parameter)
        assert parameter.name == "scale_value"
        assert parameter.requires_grad is False
        assert parameter.dtype == ug.float32 and parameter.shape == ()
        assert float(parameter) == 8.0
        assert isinstance(scaler, amp.LossScaler)
    assert repr(amp.StaticLossScaler(8)) == "StaticLossScaler(scale_value=8.0)"


# ------------------------------------------------------------------ scale / unscale

def test_scale_keeps_nested_structure_and_dtypes():
    scaler = amp.StaticLossScaler(4)
    inputs = (ug.tensor([1.0, 2.0]), [ug.tensor([3], dtype=ug.int32),
                                      (ug.tensor(0.5, dtype=ug.float16),)],
              ug.tensor([1.5], dtype=ug.float64))
    scaled = scaler.scale(inputs)
    assert type(scaled) is tuple and type(scaled[1]) is list and type(scaled[1][1]) is tuple
    assert values(scaled[0]) == [4.0, 8.0] and scaled[0].dtype == ug.float32
    assert values(scaled[1][0]) == [12] and scaled[1][0].dtype == ug.int32
    assert scaled[1][1][0].item() == 2.0 and scaled[1][1][0].dtype == ug.float16
    assert values(scaled[2]) == [6.0] and scaled[2].dtype == ug.float64
    back = scaler.unscale(scaled)
    assert values(back[0]) == [1.0, 2.0] and values(back[1][0]) == [3]
    assert back[1][1][0].item() == 0.5 and values(back[2]) == [1.5]
    assert scaler.unscale([]) == [] and scaler.unscale(()) == ()


def test_float16_is_scaled_in_float32():
    # 65536 itself overflows float16, 0.5 * 65536 does not
    scaler = amp.StaticLossScaler(2 ** 16)
    scaled = scaler.scale(ug.tensor([0.5, 1e-3], dtype=ug.float16))
    assert scaled.dtype == ug.float16
    np.testing.assert_allclose(scaled.numpy(), [32768.0, 65.5], rtol=1e-3)
    assert values(scaler.unscale(scaled)) == pytest.approx([0.5, 1e-3], rel=1e-3)


def test_scale_is_differentiable_inside_grad():
    scaler = amp.DynamicLossScaler(2 ** 5, 2, 10)
    x = ug.tensor([1.0, -2.0, 3.0])
    grads = ug.grad(lambda x: scaler.scale((x * x).sum()))(x)
    assert values(grads) == [64.0, -128.0, 192.0]
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    scaler.unscale(x * 3.0).sum().backward()
    assert values(x.grad) == [3.0 / 32, 3.0 / 32]


def test_scale_rejects_non_tensor_leaves():
    scaler = amp.StaticLossScaler(2)
    with pytest.raises(TypeError, match=r"For 'scale', the argument 'inputs' must be a Tensor"):
        scaler.scale(1.0)
    with pytest.raises(TypeError, match=r"For 'unscale', .* but got str"):
        scaler.unscale((ug.tensor(1.0), "grad"))
    with pytest.raises(TypeError, match=r"but got dict"):
        scaler.scale({"loss": ug.tensor(1.0)})


# ------------------------------------------------------------------ validation

@pytest.mark.parametrize("cls, extra", [(amp.StaticLossScaler, ()),
                                        (amp.DynamicLossScaler, (2, 100))])
def test_scale_value_validation(cls, extra):
    with pytest.raises(ValueError) as info:
        cls(0.5, *extra)
    assert str(info.value) == "The argument 'scale_value' must be > 1, but got 0.5"
    with pytest.raises(ValueError, match=r"must be > 1, but got -3"):
        cls(-3, *extra)
    with pytest.raises(ValueError, match=r"must be > 1, but got nan"):
        cls(float("nan"), *extra)
    with pytest.raises(ValueError, match=r"'scale_value' must be finite, but got inf"):
        cls(float("inf"), *extra)
    for bad in ("1024", True, None, ug.tensor(1024.0), [1024.0]):
        with pytest.raises(TypeError, match=r"The argument 'scale_value' must be float or int"):
            cls(bad, *extra)
    assert float(cls(1.0, *extra).scale_value) == 1.0  # "> 1" in the message, 1.0 is accepted
    assert float(cls(np.float32(16.0), *extra).scale_value) == 16.0


@pytest.mark.parametrize("name", ["scale_factor", "scale_window"])
def test_dynamic_factor_and_window_must_be_positive_ints(name):
    def build(value):
        arguments = {"scale_factor": 2, "scale_window": 10, name: value}
        return amp.DynamicLossScaler(1024, **arguments)

    for bad in (0, -1):
        with pytest.raises(ValueError) as info:
            build(bad)
        assert str(info.value) == f"The argument '{name}' must be a positive int, but got {bad}"
    for bad in (2.0, True, "2", None):
        with pytest.raises(TypeError, match=rf"The argument '{name}' must be int, but got"):
            build(bad)
    assert getattr(build(np.int64(3)), name) == 3


def test_adjust_validates_grads_finite():
    scaler = amp.DynamicLossScaler(1024, 2, 1)
    for bad in (1, 1.0, "yes", None, ug.tensor(1.0)):
        with pytest.raises(TypeError, match=r"For 'adjust', the argument 'grads_finite' must be"):
            scaler.adjust(bad)
    with pytest.raises(ValueError, match=r"must hold one value, but got a Tensor of shape \(2,\)"):
        scaler.adjust(ug.tensor([True, False]))
    assert float(scaler.scale_value) == 1024.0 and int(scaler.counter) == 0  # nothing changed


# ------------------------------------------------------------------ adjust

def test_static_adjust_returns_false_and_keeps_the_scale():
    scaler = amp.StaticLossScaler(64)
    assert scaler.adjust(True) is False
    assert scaler.adjust(False) is False
    assert float(scaler.scale_value) == 64.0


def test_dynamic_adjust_exact_sequence():
    scaler = amp.DynamicLossScaler(1024, 2, 2)
    seen = []
    for finite in (True, True, True, False, True):
        assert scaler.adjust(finite) is True
        seen.append(float(scaler.scale_value))
    assert seen == [1024.0, 2048.0, 2048.0, 1024.0, 1024.0]


def test_dynamic_adjust_mindspore_docstring_example():
    scaler = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=1)
    grads = (ug.tensor([float("nan"), 1.0]),)
    assert scaler.adjust(amp.all_finite(grads)) is True
    assert float(scaler.scale_value) == 512.0


def test_overflow_resets_the_counter():
    scaler = amp.DynamicLossScaler(1024, 2, 3)
    seen = []
    for finite in (True, True, False, True, True, True):
        scaler.adjust(ug.tensor(finite))
        seen.append(float(scaler.scale_value))
    assert seen == [1024.0, 1024.0, 512.0, 512.0, 512.0, 1024.0]
    assert int(scaler.counter) == 0


def test_scale_never_drops_below_one_and_never_grows_past_float32():
    scaler = amp.DynamicLossScaler(3, 4, 1)
    scaler.adjust(False)
    assert float(scaler.scale_value) == 1.0
    scaler.adjust(False)
    assert float(scaler.scale_value) == 1.0
    huge = amp.DynamicLossScaler(2.0 ** 127, 2, 1)
    huge.adjust(True)  # 2 ** 128 overflows float32: the scale stays
    assert float(huge.scale_value) == 2.0 ** 127
    huge.adjust(False)
    assert float(huge.scale_value) == 2.0 ** 126


def _mindspore_rule(scale, counter, finite, factor, window):
    """MindSpore's adjust, verbatim, in float32 NumPy."""
    scale, factor = np.float32(scale), np.float32(factor)
    with np.errstate(over="ignore"):
        product = scale * factor
    grown = product if np.isfinite(product) else scale
    if finite:
        new_scale = grown if counter == window - 1 else scale
    else:
        new_scale = np.maximum(np.float32(1.0), scale / factor)
    return new_scale, ((counter + 1) % window) * int(finite)


@pytest.mark.parametrize("factor, window", [(2, 1), (2, 3), (3, 5), (10, 2)])
def test_dynamic_adjust_matches_the_verbatim_rule(rng, factor, window):
    scaler = amp.DynamicLossScaler(2 ** 15, factor, window)
    scale, counter = np.float32(2 ** 15), 0
    for finite in rng.random(60) < 0.8:
        scaler.adjust(bool(finite))
        scale, counter = _mindspore_rule(scale, counter, bool(finite), factor, window)
        assert float(scaler.scale_value) == float(scale)
        assert int(scaler.counter) == counter


def test_adjust_bumps_the_version_of_the_scale_parameter():
    scaler = amp.DynamicLossScaler(4, 2, 1)
    x = ug.tensor([1.0], requires_grad=True)
    scaled = scaler.scale(x * x)  # the product saves the scale for backward
    scaler.adjust(True)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        scaled.sum().backward()


# ------------------------------------------------------------------ all_finite

def test_all_finite_on_nested_and_special_values():
    finite = (ug.tensor([1.0, -2.0]), [ug.tensor([[3.0]]), (ug.tensor(4.0, dtype=ug.float16),)])
    assert bool(amp.all_finite(finite)) is True
    for bad in (float("inf"), float("-inf"), float("nan")):
        nested = (ug.tensor([1.0]), [ug.tensor([[0.0, bad]], dtype=ug.float64)])
        assert bool(amp.all_finite(nested)) is False
        assert bool(amp.all_finite(ug.tensor([bad]))) is False
    with np.errstate(over="ignore"):
        overflowed = ug.tensor([70000.0]).half()  # beyond float16's range: inf
    assert bool(amp.all_finite(overflowed)) is False


def test_all_finite_integer_empty_and_single_inputs():
    assert bool(amp.all_finite((ug.tensor([1, 2]), ug.tensor([True])))) is True
    for empty in ((), [], ([], ()), (ug.zeros((0, 3)),)):
        result = amp.all_finite(empty)
        assert result.dtype == ug.bool and result.shape == () and bool(result) is True
    assert bool(amp.all_finite(ug.tensor(2.0))) is True


def test_all_finite_is_not_recorded():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    result = amp.all_finite((x * 2.0,))
    assert result.requires_grad is False and result.grad_fn is None
    status = ug.zeros(8)
    assert bool(amp.all_finite((x,), status)) is True


def test_all_finite_rejects_other_inputs():
    with pytest.raises(TypeError, match=r"For 'all_finite', the argument 'inputs' must be a "
                                        r"Tensor .* but got float"):
        amp.all_finite((ug.tensor(1.0), 2.0))
    with pytest.raises(TypeError, match=r"but got NoneType"):
        amp.all_finite(None)
    with pytest.raises(TypeError, match=r"the argument 'status' must be None or a Tensor"):
        amp.all_finite((ug.tensor(1.0),), status=0)
