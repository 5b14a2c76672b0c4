"""Graph-mode fixes (issue 19): constant results handed out as copies, backend errors raised
as eager raises them, ``slogdet``'s and ``cholesky_ex``'s graph forms equal to eager, and
calls that write tensors in place (a BatchNorm in training) differentiated on the tape."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import unigrad as ug
from unigrad.ops.linalg import LinAlgError


def assert_close(actual, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(), rtol=rtol,
                               atol=atol)


# ----------------------------------------------------------------------------- constant results

@pytest.mark.parametrize("requires_grad", [False, True], ids=["plain", "on_tape"])
def test_a_constant_result_is_a_copy_each_call(requires_grad):
    f = ug.jit(lambda x: (x.sum(), ug.zeros(2)))
    x = ug.ones(3, requires_grad=requires_grad)
    _, constant = f(x)
    constant.add_(1.0)
    again = f(x)[1]
    np.testing.assert_array_equal(again.numpy(), [0.0, 0.0])
    assert again is not constant


def test_a_constant_grad_written_by_a_call_is_a_copy_each_call():
    weight = ug.ones(2, requires_grad=True)

    def reset(x):
        weight.grad = ug.zeros(2)
        return x * 2.0
    f = ug.jit(reset)
    f(ug.ones(2))
    weight.grad.add_(5.0)
    f(ug.ones(2))
    np.testing.assert_array_equal(weight.grad.numpy(), [0.0, 0.0])


# ----------------------------------------------------------------------------- errors

def test_a_backend_linalg_error_is_raised_as_eager_raises_it():
    nan_matrix = ug.tensor(np.full((3, 3), np.nan))
    for function in (ug.linalg.svdvals, ug.linalg.eigvalsh):
        with np.errstate(all="ignore"), pytest.raises(LinAlgError) as eager_error:
            function(nan_matrix)
        with np.errstate(all="ignore"), pytest.raises(LinAlgError) as jit_error:
            ug.jit(function)(nan_matrix)
        assert isinstance(jit_error.value, RuntimeError)  # PyTorch's class, not NumPy's
        assert "converge" in str(jit_error.value) and "converge" in str(eager_error.value)


def test_an_error_unigrad_raises_at_run_time_keeps_its_class_and_message():
    checked = ug.jit(lambda a: ug.linalg.cholesky_ex(a, check_errors=True).L)
    checked(ug.eye(2))
    with pytest.raises(LinAlgError, match="leading minor of order 2"):
        checked(ug.tensor([[1.0, 2.0], [2.0, 1.0]]))


# ----------------------------------------------------------------------------- slogdet

def test_slogdet_sign_in_graph_mode_is_lapacks():
    matrix = ug.tensor(np.array([[np.inf, 0.0], [np.nan, 1.0]]))
    with np.errstate(all="ignore"):
        eager, jitted = ug.slogdet(matrix), ug.jit(ug.slogdet)(matrix)
    np.testing.assert_array_equal(jitted[0].numpy(), eager.sign.numpy())
    assert float(eager.sign) == 1.0


def test_a_real_slogdet_sign_has_no_gradient_in_either_mode():
    matrix = ug.tensor([[-2.0, 1.0], [0.5, 3.0]], requires_grad=True)

    def loss(a):
        sign, logabsdet = ug.slogdet(a)
        return (sign * logabsdet).sum()
    assert not ug.slogdet(matrix).sign.requires_grad
    expected = ug.grad(loss)(matrix)  # sign * d logabsdet: -A^-T
    assert_close(expected, -ug.inv(matrix).mT)
    assert_close(ug.grad(ug.jit(loss))(matrix), expected)
    assert_close(ug.jit(ug.grad(loss))(matrix), expected)


# ----------------------------------------------------------------------------- cholesky_ex

def test_cholesky_ex_reports_a_failure_in_graph_mode_as_eager():
    failing = [[4.0, 2.0, 0.5], [2.0, -1.0, 1.0], [0.5, 1.0, 3.0]]
    good = [[4.0, 2.0, 0.5], [2.0, 5.0, 1.0], [0.5, 1.0, 3.0]]
    batch = ug.tensor([failing, good])
    eager = ug.linalg.cholesky_ex(batch)
    jitted = ug.jit(ug.linalg.cholesky_ex)(batch)
    np.testing.assert_array_equal(eager.info.numpy(), [2, 0])
    np.testing.assert_array_equal(jitted.info.numpy(), [2, 0])
    np.testing.assert_allclose(jitted.L.numpy(), eager.L.numpy())
    # the failing matrix: the factor of its leading 1 x 1 block over its lower triangle
    np.testing.assert_allclose(eager.L.numpy()[0], [[2.0, 0, 0], [2.0, -1.0, 0], [0.5, 1, 3]])
    np.testing.assert_allclose(eager.L.numpy()[1], np.linalg.cholesky(np.array(good)),
                               rtol=1e-6)


def test_cholesky_ex_gradient_in_graph_mode_is_choleskys():
    matrix = ug.tensor([[4.0, 2.0], [2.0, 5.0]], requires_grad=True)

    def loss(a):
        return ug.linalg.cholesky_ex(a, upper=True).L.pow(2).sum()
    expected = ug.grad(lambda a: ug.linalg.cholesky(a, upper=True).pow(2).sum())(matrix)
    assert_close(ug.grad(loss)(matrix), expected)
    assert_close(ug.grad(ug.jit(loss))(matrix), expected)


# ----------------------------------------------------------------------------- in-place effects

def batch_norm_model():
    ug.manual_seed(0)
    return ug.nn.Sequential(ug.nn.Linear(4, 3), ug.nn.Tanh(), ug.nn.BatchNorm1d(3))


def train(model, call, steps=3):
    """``steps`` SGD steps of ``sum(call(x) ** 2)``; the losses and the last gradients."""
    optimizer = ug.optim.SGD(model.parameters(), lr=0.1)
    rng = np.random.default_rng(1)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = (call(ug.tensor(rng.standard_normal((5, 4)).astype(np.float32))) ** 2).sum()
        loss.backward()
        optimizer.step()
        losses.append(float(loss))
    return losses, [p.grad for p in model.parameters()]


def assert_same_state(model, reference):
    for (name, value), (_, expected) in zip(model.state_dict().items(),
                                            reference.state_dict().items()):
        np.testing.assert_allclose(value.numpy(), expected.numpy(), rtol=1e-5, atol=1e-6,
                                   err_msg=name)


def test_a_jitted_batch_norm_in_training_is_differentiated_as_eager():
    eager = batch_norm_model()
    model = copy.deepcopy(eager)
    jitted = ug.jit(model)
    expected_losses, expected_grads = train(eager, eager)
    losses, grads = train(model, jitted)
    np.testing.assert_allclose(losses, expected_losses, rtol=1e-5)
    for grad, expected in zip(grads, expected_grads):
        assert_close(grad, expected)
    assert_same_state(model, eager)  # the running statistics too
    assert jitted.trace_count == 1
    graphs = jitted.lower(ug.ones(5, 4)).vjp_graphs()
    assert graphs.num_effects == 3  # running mean, running variance, batches tracked
    assert "then 3 effect outputs" in str(graphs)


def test_a_graph_mode_cell_with_batch_norm_trains_as_eager():
    eager = batch_norm_model()
    model = copy.deepcopy(eager)
    expected_losses, expected_grads = train(eager, eager)
    ug.set_context(mode=ug.GRAPH_MODE)
    try:
        losses, grads = train(model, model)
    finally:
        ug.set_context(mode=ug.PYNATIVE_MODE)
    np.testing.assert_allclose(losses, expected_losses, rtol=1e-5)
    for grad, expected in zip(grads, expected_grads):
        assert_close(grad, expected)
    assert_same_state(model, eager)


def test_second_order_through_a_call_that_writes_in_place_is_eagers():
    eager = batch_norm_model()
    model = copy.deepcopy(eager)
    x = ug.tensor(np.random.default_rng(2).standard_normal((5, 4)).astype(np.float32))
    second = []
    for module, call in ((eager, eager), (model, ug.jit(model))):
        weight = module[0].weight
        (gradient,) = ug.autograd.grad((call(x) ** 3).sum(), [weight], create_graph=True)
        second.append(ug.autograd.grad(gradient.sum(), [weight])[0])
    assert_close(second[1], second[0], rtol=1e-4, atol=1e-4)
    assert_same_state(model, eager)


def test_second_order_through_a_jitted_call_reads_the_cotangents():
    weight = ug.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
    x = ug.tensor([[1.0, 2.0], [-1.0, 0.5]])
    second = []
    for call in (lambda a: a @ weight.mT, ug.jit(lambda a: a @ weight.mT)):
        (gradient,) = ug.autograd.grad((call(x) ** 3).sum(), [weight], create_graph=True)
        second.append(ug.autograd.grad(gradient.sum(), [weight])[0])
    assert_close(second[1], second[0])


def test_a_call_that_ran_its_own_backward_returns_detached_results():
    weight = ug.ones(2, requires_grad=True)

    def step(x):
        loss = (x * weight).sum()
        loss.backward()
        return loss
    jitted = ug.jit(step)
    loss = jitted(ug.tensor([1.0, 2.0]))
    assert float(loss) == 3.0 and not loss.requires_grad
    np.testing.assert_array_equal(weight.grad.numpy(), [1.0, 2.0])
    with pytest.raises(ValueError, match="ran its own backward"):
        jitted.lower(ug.tensor([1.0, 2.0])).vjp_graphs()


def test_the_recomputing_backward_of_a_call_writing_in_place_reads_the_old_values(monkeypatch):
    def refuse(joint):
        raise NotImplementedError("no partition today")
    monkeypatch.setattr("unigrad.graph.partition.partition", refuse)
    eager = batch_norm_model()
    model = copy.deepcopy(eager)
    expected_losses, expected_grads = train(eager, eager)
    losses, grads = train(model, ug.jit(model))
    np.testing.assert_allclose(losses, expected_losses, rtol=1e-5)
    for grad, expected in zip(grads, expected_grads):
        assert_close(grad, expected)
    assert_same_state(model, eager)


@pytest.mark.parametrize("split", [True, False], ids=["residuals", "recomputing"])
def test_a_call_differentiates_at_the_values_before_its_in_place_writes(split, monkeypatch):
    if not split:
        monkeypatch.setattr("unigrad.graph.partition.partition", lambda joint: 1 / 0)
    scale = ug.tensor([1.0, 2.0])

    def scaled(x):
        total = (x * scale).sum()
        with ug.no_grad():
            scale.mul_(3.0)
        return total
    f = ug.jit(scaled)
    x = ug.ones(2, requires_grad=True)
    f(x).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(scale.numpy(), [3.0, 6.0])


@pytest.mark.parametrize("detached", [
    lambda x: x.detach(),            # an argument: a detached alias of a captured tensor
    lambda x: x.data,
    lambda x: (x * 2.0).detach(),    # a value computed in the graph
])
def test_detach_cuts_the_gradient_of_a_jitted_call(detached):
    function = lambda x: (detached(x) * x).sum()  # noqa: E731
    x = ug.tensor([1.0, 2.0])
    expected = ug.grad(function)(x)
    np.testing.assert_allclose(ug.grad(ug.jit(function))(x).numpy(), expected.numpy())
    np.testing.assert_allclose(ug.jit(ug.grad(function))(x).numpy(), expected.numpy())


def test_the_same_tensor_passed_twice_gets_its_own_graph():
    product = ug.jit(lambda a, b: a * b * b)
    x, y = ug.tensor([1.0, 2.0, 3.0]), ug.tensor([1.0, 1.0, 1.0])
    assert product(x, x).tolist() == [1.0, 8.0, 27.0]
    assert product(x, y).tolist() == [1.0, 2.0, 3.0]
    assert product(y, y).tolist() == [1.0, 1.0, 1.0] and product.trace_count == 2
