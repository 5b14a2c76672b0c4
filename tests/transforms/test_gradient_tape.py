"""TensorFlow's ``tf.GradientTape`` on the eager engine: watching, structures, single use,
persistence, stop_recording, reset, jacobians, nesting for higher order, errors."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import unigrad as ug
from unigrad import _state

SINGLE_USE = (r"^A non-persistent GradientTape can only be used to compute one set of gradients "
              r"\(or jacobians\)$")


def assert_close(tensor, expected, rtol=1e-6, atol=1e-6):
    assert isinstance(tensor, ug.Tensor)
    np.testing.assert_allclose(tensor.detach().numpy(), expected, rtol=rtol, atol=atol)


@pytest.fixture(autouse=True)
def state_is_restored():
    yield
    assert _state.local.transform_depth == 0
    assert _state.local.grad_enabled


# ------------------------------------------------------------------ watching

def test_watched_constant_gets_its_gradient_and_never_requires_grad():
    x = ug.tensor(3.0)
    with ug.GradientTape() as tape:
        tape.watch(x)
        assert not x.requires_grad  # no tape changes a flag of the tensors it watches
        y = x * x
    assert not x.requires_grad
    assert_close(tape.gradient(y, x), 6.0)
    assert not x.requires_grad and not (x * x).requires_grad


def test_unwatched_constant_gets_none():
    x = ug.tensor(3.0)
    with ug.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None


def test_leaves_requiring_grad_are_watched_automatically():
    w = ug.tensor([1.0, 2.0], requires_grad=True)
    with ug.GradientTape() as tape:
        y = (w ** 2).sum()
    assert_close(tape.gradient(y, w), [2.0, 4.0])
    assert w.requires_grad  # the tape does not touch flags it did not set


def test_watch_accessed_variables_false_only_counts_explicit_watches():
    w = ug.tensor(2.0, requires_grad=True)
    v = ug.tensor(5.0, requires_grad=True)
    with ug.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(v)
        y = w * v
    grad_w, grad_v = tape.gradient(y, [w, v])
    assert grad_w is None
    assert_close(grad_v, 2.0)


def test_intermediate_tensors_are_valid_sources():
    x = ug.tensor(2.0)
    with ug.GradientTape() as tape:
        tape.watch(x)
        hidden = x * 3
        y = hidden ** 2
    assert_close(tape.gradient(y, hidden), 2 * 6.0)


def test_watch_accepts_nested_structures_and_lists_watched_variables():
    a, b, c = ug.tensor(1.0), ug.tensor(2.0), ug.tensor(3.0)
    w = ug.tensor(1.0, requires_grad=True)
    with ug.GradientTape() as tape:
        tape.watch({"a": a, "rest": [b, (c,)]})
        tape.watch(a)
        y = a * b * c * w
    assert tape.watched_variables() == (w,)  # variables only, as TensorFlow's
    grads = tape.gradient(y, {"a": a, "rest": [b, (c,)]})
    assert_close(grads["a"], 6.0)
    assert_close(grads["rest"][0], 3.0)
    assert_close(grads["rest"][1][0], 2.0)


def test_watch_of_a_non_tensor_is_a_value_error():
    tape = ug.GradientTape()
    with tape:
        with pytest.raises(ValueError, match=r"^Passed in object 3.0 of type 'float', not "
                                             r"tf.Tensor or tf.Variable or ExtensionType.$"):
            tape.watch(3.0)
        with pytest.raises(ValueError, match="of type 'NoneType'"):
            tape.watch(None)
        with pytest.raises(ValueError, match="of type 'str'"):
            tape.watch([ug.tensor(1.0), "x"])


def test_watching_an_integer_tensor_warns_and_gives_none():
    x = ug.tensor([1, 2])
    with ug.GradientTape() as tape:
        with pytest.warns(UserWarning, match=r"The dtype of the watched tensor must be floating "
                                             r"\(e.g. tf.float32\), got unigrad.int64"):
            tape.watch(x)
        y = x * 2
    assert not x.requires_grad
    assert tape.gradient(y, x) is None
    x = ug.tensor([1, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with ug.GradientTape() as tape:
            tape.watch(x)
            y = x * 2
    assert tape.gradient(y, x, unconnected_gradients="zero").dtype == x.dtype


def test_outer_tape_keeps_recording_a_tensor_after_the_inner_one_exits():
    x = ug.tensor(1.0)
    with ug.GradientTape() as outer:
        with ug.GradientTape() as inner:
            inner.watch(x)
            outer.watch(x)
        y = x * 4  # the outer tape still records x
    assert not x.requires_grad
    assert_close(outer.gradient(y, x), 4.0)


# ------------------------------------------------------------------ targets, sources, seeds

def test_several_targets_are_summed_and_non_scalar_targets_too():
    x = ug.tensor([1.0, 2.0])
    with ug.GradientTape() as tape:
        tape.watch(x)
        first = x * x
        second = {"k": 3 * x}
    assert_close(tape.gradient([first, second], x), [2.0 + 3.0, 4.0 + 3.0])


def test_source_structure_is_kept():
    a, b = ug.tensor(1.0), ug.tensor([2.0, 3.0])
    with ug.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        y = a * b.sum()
    single = tape.gradient(y, a)
    assert isinstance(single, ug.Tensor)
    as_list = tape.gradient(y, [a, b])
    assert isinstance(as_list, list) and len(as_list) == 2
    as_tuple = tape.gradient(y, (a, b))
    assert isinstance(as_tuple, tuple)
    as_dict = tape.gradient(y, {"b": b, "a": a})
    assert list(as_dict) == ["b", "a"]
    assert_close(as_dict["a"], 5.0)
    assert_close(as_dict["b"], [1.0, 1.0])


def test_output_gradients_weight_each_target():
    x = ug.tensor([1.0, 2.0])
    with ug.GradientTape(persistent=True) as tape:
        tape.watch(x)
        first = x * x
        second = 3 * x
    weights = ug.tensor([10.0, 100.0])
    assert_close(tape.gradient([first, second], x, output_gradients=[weights, None]),
                 [20.0 + 3.0, 400.0 + 3.0])
    assert_close(tape.gradient(first, x, output_gradients=weights), [20.0, 400.0])
    with pytest.raises(ValueError, match="one entry per target"):
        tape.gradient([first, second], x, output_gradients=[weights])


def test_unconnected_sources():
    x, other = ug.tensor(1.0), ug.tensor([1.0, 2.0])
    with ug.GradientTape(persistent=True) as tape:
        tape.watch([x, other])
        y = x * 2
    assert tape.gradient(y, other) is None
    assert tape.gradient(y, other, unconnected_gradients=ug.UnconnectedGradients.NONE) is None
    assert_close(tape.gradient(y, other, unconnected_gradients="zero"), [0.0, 0.0])
    assert_close(tape.gradient(y, other, unconnected_gradients=ug.UnconnectedGradients.ZERO),
                 [0.0, 0.0])
    with pytest.raises(ValueError, match=r"^Unknown value for unconnected_gradients: 'never'$"):
        tape.gradient(y, other, unconnected_gradients="never")


def test_target_equal_to_source_gives_ones():
    x = ug.tensor([1.0, 2.0])
    with ug.GradientTape() as tape:
        tape.watch(x)
    assert_close(tape.gradient(x, x), [1.0, 1.0])


def test_none_target_and_non_tensor_sources_are_type_errors():
    x = ug.tensor(1.0)
    with ug.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * 2
    with pytest.raises(TypeError, match="received None"):
        tape.gradient(None, x)
    with pytest.raises(TypeError, match="sources"):
        tape.gradient(y, [x, 2.0])


# ------------------------------------------------------------------ single use and persistence

def test_non_persistent_tape_computes_one_set_of_gradients():
    x = ug.tensor(2.0)
    with ug.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match=SINGLE_USE):
        tape.gradient(y, x)
    with pytest.raises(RuntimeError, match=SINGLE_USE):
        tape.jacobian(y, x)


@pytest.mark.parametrize("method", ["jacobian", "batch_jacobian"])
def test_jacobians_also_use_up_a_non_persistent_tape(method):
    x = ug.tensor([[1.0, 2.0]])
    with ug.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    getattr(tape, method)(y, x)
    with pytest.raises(RuntimeError, match=SINGLE_USE):
        tape.gradient(y, x)


def test_a_tape_never_entered_cannot_compute_gradients():
    with pytest.raises(RuntimeError, match=SINGLE_USE):
        ug.GradientTape().gradient(ug.tensor(1.0), ug.tensor(1.0))


def test_persistent_tape_can_be_reused():
    x = ug.tensor(3.0)
    with ug.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert_close(tape.gradient(z, x), 4 * 27.0)
    assert_close(tape.gradient(y, x), 6.0)
    assert_close(tape.gradient(z, x), 4 * 27.0)
    assert_close(tape.jacobian(y, x), 6.0)


def test_gradient_inside_a_non_persistent_tape_stops_its_recording():
    x = ug.tensor(2.0)
    with ug.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        assert_close(tape.gradient(y, x), 4.0)
        assert not x.requires_grad
        assert _state.local.transform_depth == 0
        later = x * 3
    assert not later.requires_grad


def test_gradient_inside_a_persistent_tape_warns_and_is_recorded():
    x = ug.tensor(2.0)
    with ug.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x ** 3
        with pytest.warns(UserWarning, match="persistent tape inside its context"):
            first = tape.gradient(y, x)
    assert_close(first, 12.0)
    assert_close(tape.gradient(first, x), 12.0)


def test_two_tapes_recording_the_same_operations():
    x = ug.tensor(2.0)
    with ug.GradientTape() as first, ug.GradientTape() as second:
        first.watch(x)
        second.watch(x)
        y = x ** 3
    assert_close(first.gradient(y, x), 12.0)
    assert_close(second.gradient(y, x), 12.0)
    assert not x.requires_grad


def test_re_entering_an_active_tape_is_a_value_error():
    tape = ug.GradientTape()
    with tape:
        with pytest.raises(ValueError, match=r"^Tape is still recording, This can happen if you "
                                             r"try to re-enter an already-active tape.$"):
            with tape:
                pass


def test_a_used_tape_entered_again_records_afresh():
    x = ug.tensor(2.0)
    tape = ug.GradientTape()
    with tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with tape:
        assert tape.watched_variables() == ()
        tape.watch(x)
        z = x * 5
    assert_close(tape.gradient(z, x), 5.0)


def test_an_exception_inside_the_block_still_exits_the_tape():
    x = ug.tensor(2.0)
    with pytest.raises(KeyError):
        with ug.GradientTape() as tape:
            tape.watch(x)
            raise KeyError("boom")
    assert not x.requires_grad


def test_the_tape_enables_grad_mode_and_restores_it():
    x = ug.tensor(2.0)
    with ug.no_grad():
        with ug.GradientTape() as tape:
            assert ug.is_grad_enabled()
            tape.watch(x)
            y = x * x
        assert not ug.is_grad_enabled()
    assert_close(tape.gradient(y, x), 4.0)


# ------------------------------------------------------------------ stop_recording and reset

def test_stop_recording_pauses_the_tape():
    x = ug.tensor(4.0)
    with ug.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tape.stop_recording():
            unrecorded = x ** 2
        recorded = x ** 2
    assert not unrecorded.requires_grad
    assert tape.gradient(unrecorded, x) is None
    assert_close(tape.gradient(recorded, x), 8.0)


def test_stop_recording_outside_recording_is_a_runtime_error():
    tape = ug.GradientTape()
    message = r"^Trying to stop recording a tape which is not recording.$"
    with pytest.raises(RuntimeError, match=message):
        with tape.stop_recording():
            pass
    with tape:
        pass
    with pytest.raises(RuntimeError, match=message):
        with tape.stop_recording():
            pass


def test_reset_forgets_watched_tensors():
    x = ug.tensor(2.0)
    with ug.GradientTape() as tape:
        tape.watch(x)
        tape.reset()
        assert tape.watched_variables() == ()
        assert not x.requires_grad
        after = x * 3
    assert tape.gradient(after, x) is None


def test_reset_lets_a_used_non_persistent_tape_compute_again():
    x = ug.tensor(2.0)
    with ug.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        tape.gradient(y, x)
    with tape:
        tape.reset()
        tape.watch(x)
        z = x * 7
    assert_close(tape.gradient(z, x), 7.0)


def test_reset_outside_recording_is_a_value_error():
    with pytest.raises(ValueError, match="^Tape is not recording.$"):
        ug.GradientTape().reset()


# ------------------------------------------------------------------ jacobians

def test_jacobian_matches_the_closed_form():
    values = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
    x = ug.tensor(values, dtype=ug.float64)
    with ug.GradientTape() as tape:
        tape.watch(x)
        y = ug.sin(x).sum(axis=1) * x[:, 0]  # y_i = x_i0 * sum_j sin(x_ij)
    jac = tape.jacobian(y, x)
    assert tuple(jac.shape) == (2, 2, 3)
    expected = np.zeros((2, 2, 3))
    for i in range(2):
        expected[i, i] = values[i, 0] * np.cos(values[i])
        expected[i, i, 0] += np.sin(values[i]).sum()
    assert_close(jac, expected, rtol=1e-12, atol=1e-12)
    assert jac.dtype == ug.float64


def test_jacobian_of_a_matrix_product_with_structured_sources():
    a = ug.tensor([[1.0, 2.0], [3.0, 4.0]])
    v = ug.tensor([5.0, -1.0])
    unused = ug.tensor(1.0)
    with ug.GradientTape() as tape:
        tape.watch([a, v, unused])
        y = a @ v
    jac = tape.jacobian(y, {"a": a, "v": v, "unused": unused})
    assert_close(jac["v"], a.numpy())
    expected_a = np.zeros((2, 2, 2))
    expected_a[0, 0] = v.numpy()
    expected_a[1, 1] = v.numpy()
    assert_close(jac["a"], expected_a)
    assert jac["unused"] is None


def test_jacobian_unconnected_zero_has_the_full_shape():
    x, other = ug.tensor([1.0, 2.0]), ug.tensor([[1.0], [2.0], [3.0]])
    with ug.GradientTape() as tape:
        tape.watch([x, other])
        y = x * 2
    jac = tape.jacobian(y, [x, other], unconnected_gradients="zero")
    assert_close(jac[0], 2 * np.eye(2))
    assert tuple(jac[1].shape) == (2, 3, 1)
    assert_close(jac[1], np.zeros((2, 3, 1)))


def test_jacobian_without_pfor_needs_a_persistent_tape():
    x = ug.tensor([1.0, 2.0])
    with ug.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(RuntimeError, match="GradientTape must be created with persistent=True "
                                           "to compute the jacobian"):
        tape.jacobian(y, x, experimental_use_pfor=False)
    assert_close(tape.jacobian(y, x), np.diag([2.0, 4.0]))
    with ug.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    assert_close(tape.jacobian(y, x, experimental_use_pfor=False, parallel_iterations=2),
                 np.diag([2.0, 4.0]))


def test_batch_jacobian_matches_the_closed_form():
    values = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
    weights = np.array([[1.0, -2.0], [0.5, 3.0], [2.0, 1.0]])
    x = ug.tensor(values, dtype=ug.float64)
    w = ug.tensor(weights, dtype=ug.float64)
    with ug.GradientTape() as tape:
        tape.watch(x)
        y = ug.tanh(x @ w)  # [b, 2]
    jac = tape.batch_jacobian(y, x)
    assert tuple(jac.shape) == (2, 2, 3)
    for b in range(2):
        derivative = 1 - np.tanh(values[b] @ weights) ** 2
        assert_close(jac[b], derivative[:, None] * weights.T, rtol=1e-12, atol=1e-12)


def test_batch_jacobian_with_more_dimensions():
    x = ug.tensor(np.arange(12.0).reshape(2, 3, 2))
    with ug.GradientTape() as tape:
        tape.watch(x)
        y = (x * x).sum(axis=2)  # [2, 3]
    jac = tape.batch_jacobian(y, x)
    assert tuple(jac.shape) == (2, 3, 3, 2)
    values = x.numpy()
    expected = np.zeros((2, 3, 3, 2))
    for b in range(2):
        for i in range(3):
            expected[b, i, i] = 2 * values[b, i]
    assert_close(jac, expected)


def test_batch_jacobian_of_an_unconnected_source_is_zeros():
    x, other = ug.tensor([[1.0, 2.0]]), ug.tensor([[3.0, 4.0, 5.0]])
    with ug.GradientTape() as tape:
        tape.watch([x, other])
        y = x * 2
    jac = tape.batch_jacobian(y, other)
    assert tuple(jac.shape) == (1, 2, 3)
    assert_close(jac, np.zeros((1, 2, 3)))


@pytest.mark.parametrize("target_shape, source_shape", [((2, 3), (3, 3)), ((3,), (3, 2)),
                                                        ((3, 2), (3,))])
def test_batch_jacobian_shape_error(target_shape, source_shape):
    source = ug.tensor(np.ones(source_shape))
    target = ug.tensor(np.ones(target_shape))
    with ug.GradientTape() as tape:
        tape.watch(source)
    expected = (f"Need first dimension of target shape ({target_shape}) and source shape "
                f"({source_shape}) to match.")
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        tape.batch_jacobian(target, source)


def test_batch_jacobian_without_pfor_needs_a_persistent_tape():
    x = ug.tensor([[1.0, 2.0]])
    with ug.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(RuntimeError, match="persistent=True to compute the batch_jacobian"):
        tape.batch_jacobian(y, x, experimental_use_pfor=False)


# ------------------------------------------------------------------ nesting

def test_nested_tapes_second_derivative():
    x = ug.tensor(3.0)
    with ug.GradientTape() as t2:
        t2.watch(x)
        with ug.GradientTape() as t1:
            t1.watch(x)
            y = x ** 3
        dy = t1.gradient(y, x)
    assert_close(dy, 27.0)
    assert_close(t2.gradient(dy, x), 18.0)
    assert not x.requires_grad


def test_nested_tapes_third_derivative():
    x = ug.tensor(2.0)
    with ug.GradientTape() as t3:
        t3.watch(x)
        with ug.GradientTape() as t2:
            t2.watch(x)
            with ug.GradientTape() as t1:
                t1.watch(x)
                y = ug.sin(x) * x ** 4
            first = t1.gradient(y, x)
        second = t2.gradient(first, x)
    third = t3.gradient(second, x)
    value = 2.0
    assert_close(first, np.cos(value) * value ** 4 + 4 * np.sin(value) * value ** 3)
    assert_close(second, -np.sin(value) * value ** 4 + 8 * np.cos(value) * value ** 3
                 + 12 * np.sin(value) * value ** 2, rtol=1e-5)
    assert_close(third, -np.cos(value) * value ** 4 - 12 * np.sin(value) * value ** 3
                 + 36 * np.cos(value) * value ** 2 + 24 * np.sin(value) * value, rtol=1e-5)


def test_variables_need_no_watch_for_higher_order():
    x = ug.tensor(1.5, requires_grad=True)
    with ug.GradientTape() as t2:
        with ug.GradientTape() as t1:
            y = x * x * x
        dy = t1.gradient(y, x)
    assert_close(t2.gradient(dy, x), 9.0)


def test_inner_tape_that_does_not_watch_a_constant_gives_none():
    x = ug.tensor(2.0)
    with ug.GradientTape() as outer:
        outer.watch(x)
        with ug.GradientTape() as inner:
            y = x ** 3
        assert inner.gradient(y, x) is None
    assert_close(outer.gradient(y, x), 12.0)


def test_gradient_outside_any_recording_tape_is_not_differentiable():
    x = ug.tensor(2.0)
    with ug.GradientTape() as tape:
        tape.watch(x)
        y = x ** 3
    assert not tape.gradient(y, x).requires_grad


def test_hessian_by_nested_tapes_with_jacobian():
    x = ug.tensor([1.0, 2.0])
    with ug.GradientTape() as outer:
        outer.watch(x)
        with ug.GradientTape() as inner:
            inner.watch(x)
            y = (x ** 3).sum() + x[0] * x[1]
        grad = inner.gradient(y, x)
    hessian = outer.jacobian(grad, x)
    assert_close(hessian, [[6.0, 1.0], [1.0, 12.0]])


def test_grad_inside_a_tape():
    x = ug.tensor(2.0)
    with ug.GradientTape() as tape:
        tape.watch(x)
        slope = ug.grad(lambda v: v ** 3)(x)
    assert_close(slope, 12.0)
    assert_close(tape.gradient(slope, x), 12.0)


def test_tape_inside_grad():
    def slope(v):
        with ug.GradientTape() as tape:
            tape.watch(v)
            y = v ** 3
        return tape.gradient(y, v)

    x = ug.tensor(2.0)
    assert_close(slope(x), 12.0)
    assert_close(ug.grad(slope)(x), 12.0)
    assert_close(ug.grad(ug.grad(slope))(x), 6.0)
    assert not x.requires_grad


# ------------------------------------------------------------------ the recorder's rules

def test_a_target_that_is_a_source_has_gradient_one_watched_or_not():
    x = ug.tensor([1.0, 2.0])
    w = ug.tensor(3.0, requires_grad=True)
    with ug.GradientTape(persistent=True) as tape:
        y = x * 2.0
    assert_close(tape.gradient(x, x), [1.0, 1.0])
    assert_close(tape.gradient([x, y], x), [1.0, 1.0])  # y was never watched
    assert_close(tape.gradient(w, w), 1.0)
    assert tape.watched_variables() == ()


def test_tensors_computed_before_the_tape_are_constants():
    w = ug.tensor(2.0, requires_grad=True)
    before = w * 3.0
    with ug.GradientTape(persistent=True) as tape:
        y = before * w
    assert_close(tape.gradient(y, w), 6.0)  # only the read inside the tape
    assert tape.gradient(y, before) is None


def test_another_threads_tape_sees_none_of_this_threads_ops():
    import threading
    w = ug.tensor(2.0, requires_grad=True)
    ready, done = threading.Event(), threading.Event()
    found = {}

    def other():
        with ug.GradientTape(persistent=True) as tape:
            ready.set()
            done.wait(30)
            mine = w * 5.0
        found["theirs"] = tape.gradient(found["y"], w)
        found["mine"] = tape.gradient(mine, w)

    thread = threading.Thread(target=other)
    thread.start()
    ready.wait(30)
    found["y"] = w * w  # plain code here while the other thread's tape records
    done.set()
    thread.join()
    assert found["theirs"] is None
    assert_close(found["mine"], 5.0)
