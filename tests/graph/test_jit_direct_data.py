"""ug.jit never reads or writes a user tensor's ``_data``/``_grad`` directly while tracing.

Each feature that used to touch the arrays of a tensor (a Parameter's data, a
``.grad``, a buffer) now goes through the trace's view of it: compiled, it
gives what eager gives at every call (not the values seen while tracing), and
tracing leaves the user's tensors as they were. What cannot be traced says so.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.functional as F
from unigrad import nn
from unigrad.graph import ConcretizationError
from unigrad.graph.tracer import current_trace
from unigrad.nn.parameter import Parameter, clear_grad


def arrays_of(*tensors):
    """Snapshot of the arrays and ``.grad`` arrays of tensors (copies, and the objects)."""
    return [(t._data, t._data.copy(), None if t._grad is None else t._grad._data.copy(),
             t._grad) for t in tensors]


def assert_unchanged(snapshot, *tensors):
    for (data, copy, grad, grad_tensor), tensor in zip(snapshot, tensors):
        assert tensor._data is data
        np.testing.assert_array_equal(tensor._data, copy)
        assert tensor._grad is grad_tensor
        if grad is not None:
            np.testing.assert_array_equal(tensor._grad._data, grad)


def assert_same(got, want):
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    elif want is None:
        assert got is None
    else:
        np.testing.assert_allclose(np.asarray(got.detach().numpy()),
                                   np.asarray(want.detach().numpy()), rtol=1e-6, atol=1e-7)


def run_both(make_state, make_step, inputs, state_tensors):
    """Run ``step`` eagerly and compiled on fresh equal states; compare results and tensors.

    ``make_state()`` builds the state; ``make_step(state)`` the step function;
    ``state_tensors(state)`` the tensors to compare (and to check for mutation while
    tracing). The compiled step is lowered first (tracing only) and must leave them as
    they were.
    """
    eager_state, graph_state = make_state(), make_state()
    eager_step, jitted = make_step(eager_state), ug.jit(make_step(graph_state))
    before = arrays_of(*state_tensors(graph_state))
    jitted.lower(*inputs[0])
    assert_unchanged(before, *state_tensors(graph_state))
    for args in inputs:
        assert_same(jitted(*args), eager_step(*args))
        for got, want in zip(state_tensors(graph_state), state_tensors(eager_state)):
            assert_same(got, want)
            assert_same(got._grad, want._grad)
    return jitted


# ----------------------------------------------------------------------------- clear_grad


@pytest.mark.parametrize("set_to_none", [True, False])
def test_clear_grad_inside_jit_clears_the_traced_grad(set_to_none):
    def make_state():
        w = Parameter(ug.tensor([1.0, 2.0]), name="w")
        w.grad = ug.tensor([5.0, 5.0])
        return w

    def make_step(w):
        def step(x):
            (w * x).sum().backward()
            seen = w.grad * 1.0
            clear_grad(w, set_to_none)
            return seen
        return step

    inputs = [(ug.tensor([1.0, 3.0]),), (ug.tensor([-2.0, 4.0]),), (ug.tensor([0.5, 1.0]),)]
    run_both(make_state, make_step, inputs, lambda w: (w,))


# ----------------------------------------------------------------------------- set_data


def test_set_data_of_an_outside_parameter_is_refused_inside_jit():
    w = Parameter(ug.tensor([1.0, 2.0]), name="w")
    before = arrays_of(w)

    def step(x):
        w.set_data(x * 2.0)
        return x

    with pytest.raises(NotImplementedError, match=r"set_data.*ug\.jit.*copy_"):
        ug.jit(step)(ug.tensor([3.0, 4.0]))
    assert_unchanged(before, w)


def test_set_data_of_a_parameter_made_inside_jit_is_traced():
    outside = Parameter(ug.tensor([10.0, 20.0]), name="outside")

    def step(x):
        inner = Parameter(ug.zeros(2), name="inner")
        inner.set_data(x * outside)  # reads the traced values of both
        return inner * 1.0

    jitted = ug.jit(step)
    before = arrays_of(outside)
    jitted.lower(ug.tensor([1.0, 1.0]))
    assert_unchanged(before, outside)
    for x in (ug.tensor([1.0, 2.0]), ug.tensor([3.0, -1.0])):
        np.testing.assert_array_equal(jitted(x).detach().numpy(), step(x).detach().numpy())
    with ug.no_grad():
        outside.copy_(ug.tensor([1.0, 1.0]))
    np.testing.assert_array_equal(jitted(ug.tensor([3.0, 4.0])).detach().numpy(), [3.0, 4.0])


# ----------------------------------------------------------------------------- loss scaling


@pytest.mark.filterwarnings("ignore:overflow encountered")  # the eager overflowing steps
@pytest.mark.parametrize("scale_window", [1, 2])
def test_dynamic_loss_scaler_adjust_inside_jit(scale_window):
    def make_state():
        w = Parameter(ug.tensor([1.0, -1.0]), name="w")
        return w, ug.amp.DynamicLossScaler(scale_value=2.0 ** 126, scale_factor=2,
                                           scale_window=scale_window)

    def make_step(state):
        w, scaler = state

        def step(x):
            grads = ug.grad(lambda x: scaler.scale((w * x).sum()), None, (w,))(x)
            grads = scaler.unscale(grads)
            finite = ug.amp.all_finite(grads)
            assert scaler.adjust(finite) is True
            return grads[0], finite
        return step

    def tensors(state):
        w, scaler = state
        return w, scaler.scale_value, scaler.counter

    # finite steps grow the scale at the end of each window unless scale * 2 overflows
    # (at 2**127, with scale_window=1); an overflow halves it and restarts the counter
    values = [[1.0, 2.0], [3.0, 4.0], [0.5, 0.25], [0.25, 0.25], [0.125, 0.0],
              [float("inf"), 1.0], [0.5, 0.5], [0.25, 0.5], [1.0, 0.5]]
    inputs = [(ug.tensor(v),) for v in values]
    jitted = run_both(make_state, make_step, inputs, tensors)
    assert jitted.trace_count == 1


@pytest.mark.parametrize("finite", [True, False])
def test_dynamic_loss_scaler_adjust_with_a_python_bool_inside_jit(finite):
    def make_state():
        return ug.amp.DynamicLossScaler(scale_value=8.0, scale_factor=2, scale_window=3)

    def make_step(scaler):
        def step(x):
            assert scaler.adjust(finite) is True
            return scaler.scale(x)
        return step

    inputs = [(ug.tensor([1.0, 2.0]),), (ug.tensor([3.0, 4.0]),), (ug.tensor([0.5, 1.0]),),
              (ug.tensor([1.0, 1.0]),)]
    run_both(make_state, make_step, inputs, lambda s: (s.scale_value, s.counter))


def test_all_finite_reads_the_current_values_of_an_outside_parameter():
    w = Parameter(ug.tensor([1.0, 2.0]), name="w")
    check = ug.jit(lambda x: ug.amp.all_finite((w, x)))
    x = ug.tensor([0.0])
    assert bool(check(x)) is True
    w.set_data(ug.tensor([float("inf"), 2.0]))  # a new array, not an in-place write
    assert bool(check(x)) is False
    assert check.trace_count == 1


def test_dynamic_loss_scale_update_cell_assigns_without_touching_the_array_directly():
    manager = nn.DynamicLossScaleUpdateCell(1024.0, scale_factor=2, scale_window=1)
    scale = Parameter(ug.tensor([1024.0]), name="scale_sense", requires_grad=False)
    array, history = scale._data, []
    for overflow in (False, False, True):
        manager(scale, ug.tensor(overflow))
        history.append(scale.tolist())
    assert history == [[2048.0], [4096.0], [2048.0]]
    assert scale._data is array  # written in place (fill_), still the same storage


def test_assign_scale_inside_jit_writes_the_traced_value():
    from unigrad.nn.wrappers import _assign_scale
    scale = Parameter(ug.tensor([8.0]), name="scale_sense", requires_grad=False)
    before = arrays_of(scale)

    def step(x):
        _assign_scale(scale, 2.0)
        return x * scale

    jitted = ug.jit(step)
    jitted.lower(ug.tensor([1.0]))
    assert_unchanged(before, scale)
    assert jitted(ug.tensor([3.0])).tolist() == [6.0]
    assert scale.tolist() == [2.0]


def test_train_one_step_with_loss_scale_cell_refuses_clearly_inside_jit():
    net = nn.Dense(3, 1, has_bias=False)
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    step = nn.TrainOneStepWithLossScaleCell(
        loss_net, ug.optim.SGD(net.trainable_params(), lr=0.1),
        scale_sense=nn.DynamicLossScaleUpdateCell(2.0 ** 10, 2, 1000))
    before = arrays_of(net.weight, step.scale_sense)
    with pytest.raises(ConcretizationError, match=r"\.item\(\) of a traced value"):
        ug.jit(step)(ug.tensor([[1.0, 2.0, 3.0]]), ug.tensor([[19.0]]))
    assert_unchanged(before, net.weight, step.scale_sense)


# ----------------------------------------------------------------------------- GradAccumulator


def test_grad_accumulator_inside_jit():
    def make_state():
        w = Parameter(ug.tensor([1.0, -1.0]), name="w")
        optimizer = ug.optim.SGD([w], lr=0.5)
        return w, ug.GradAccumulator(optimizer, accumulate_steps=2)

    def make_step(state):
        w, accumulator = state
        grad_fn = ug.grad(lambda x: (w * w * x).sum(), None, (w,))

        def step(x1, x2):
            assert accumulator(grad_fn(x1)) is False  # buffered
            assert accumulator(grad_fn(x2)) is True   # the update with the sum, then cleared
            return w * 1.0
        return step

    def tensors(state):
        w, accumulator = state
        return (w,) + tuple(accumulator.inner_grads)

    inputs = [(ug.tensor([1.0, 2.0]), ug.tensor([0.5, 0.5])),
              (ug.tensor([-1.0, 3.0]), ug.tensor([2.0, 0.0]))]
    run_both(make_state, make_step, inputs, tensors)


def test_grad_accumulator_buffers_keep_their_storage_eagerly():
    w = Parameter(ug.tensor([1.0, 1.0]), name="w")
    accumulator = ug.GradAccumulator(ug.optim.SGD([w], lr=1.0), accumulate_steps=2)
    buffer = accumulator.inner_grads[0]
    array, version = buffer._data, buffer._version
    accumulator((ug.tensor([0.5, 0.0]),))
    assert buffer.tolist() == [0.5, 0.0]
    accumulator((ug.tensor([0.25, 1.0]),))
    assert buffer._data is array and buffer.tolist() == [0.0, 0.0]
    assert buffer._version == version + 3
    assert w.tolist() == [0.25, 0.0]


# ----------------------------------------------------------------------------- Embedding


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.0, float("inf")])
def test_embedding_max_norm_inside_jit(norm_type):
    def make_state():
        ug.manual_seed(0)
        return nn.Embedding(6, 3, max_norm=1.0, norm_type=norm_type)

    def make_step(table):
        def step(indices):
            return table(indices).sum(-1)
        return step

    inputs = [(ug.tensor([[0, 2, 2], [5, 1, 0]]),), (ug.tensor([[3, 3, 4], [4, 1, 1]]),),
              (ug.tensor([[5, 0, 3], [2, 2, 2]]),)]
    run_both(make_state, make_step, inputs, lambda table: (table.weight,))


def test_embedding_max_norm_eager_numbers():
    ug.manual_seed(0)
    table = nn.Embedding(5, 4, max_norm=0.5, padding_idx=1)
    weight = table.weight.detach().numpy().copy()
    rows = table(ug.tensor([[3, 1, 3], [0, 4, 0]]))
    want = weight.copy()
    for row in (0, 1, 3, 4):
        norm = np.linalg.norm(weight[row].astype(np.float64))
        if norm > 0.5:
            want[row] = (weight[row] * (0.5 / (norm + 1e-7))).astype(np.float32)
    np.testing.assert_array_equal(table.weight.detach().numpy(), want)
    np.testing.assert_array_equal(rows.detach().numpy(), want[[[3, 1, 3], [0, 4, 0]]])
    np.testing.assert_array_equal(want[2], weight[2])  # not looked up: unchanged


def test_embedding_scale_grad_by_freq_inside_jit():
    def make_state():
        ug.manual_seed(1)
        return nn.Embedding(5, 2, scale_grad_by_freq=True)

    def make_step(table):
        def step(indices):
            table.weight.grad = None
            (table(indices) * ug.tensor([1.0, 2.0])).sum().backward()
            return table.weight.grad * 1.0
        return step

    inputs = [(ug.tensor([[0, 2, 2], [4, 2, 0]]),), (ug.tensor([[1, 1, 1], [3, 4, 3]]),),
              (ug.tensor([[0, 1, 2], [3, 4, 0]]),)]
    run_both(make_state, make_step, inputs, lambda table: (table.weight,))


# ----------------------------------------------------------------------------- one_hot


def test_one_hot_inside_jit_needs_num_classes():
    f = ug.jit(lambda labels: F.one_hot(labels, 4) * 2)
    for labels in ([0, 3, 1], [2, 2, 0]):
        np.testing.assert_array_equal(f(ug.tensor(labels)).numpy(),
                                      F.one_hot(ug.tensor(labels), 4).numpy() * 2)
    with pytest.raises(ConcretizationError, match="num_classes"):
        ug.jit(lambda labels: F.one_hot(labels))(ug.tensor([0, 3, 1]))


def test_one_hot_of_a_constant_inside_jit_infers_num_classes():
    f = ug.jit(lambda x: x * F.one_hot(ug.tensor([0, 2]))[:, :, None].sum())
    np.testing.assert_array_equal(f(ug.tensor([1.0, 2.0])).numpy(), [2.0, 4.0])


# ----------------------------------------------------------------------------- backward(inputs=)


def test_backward_into_an_outside_non_leaf_inside_jit():
    def make_state():
        x = ug.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3.0  # a non-leaf made outside the compiled function
        return x, y

    def make_step(state):
        x, y = state

        def step(a):
            (y * a).sum().backward(inputs=[y], retain_graph=True)
            return y.grad * 1.0
        return step

    inputs = [(ug.tensor([1.0, 2.0]),), (ug.tensor([-3.0, 0.5]),)]
    run_both(make_state, make_step, inputs, lambda state: state)


def test_direct_writes_inside_a_traced_function_leave_the_user_tensor_alone():
    w = Parameter(ug.tensor([1.0, 2.0]), name="w")
    array = w._data

    def step(x):
        if current_trace() is not None:
            (w * x).sum().backward()
            clear_grad(w, set_to_none=False)
            assert w._data is array and w._grad is None
        return x

    ug.jit(step)(ug.tensor([1.0, 1.0]))
    assert w._data is array and w.grad.tolist() == [0.0, 0.0]  # replayed after the call
