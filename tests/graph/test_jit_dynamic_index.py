"""Integer index tensors as ug.jit arguments: indices are graph operands, not baked constants."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad.graph.tracer import ConcretizationError

X = np.arange(12.0).reshape(3, 4)

INDEXING_CASES = {
    "getitem": (lambda x, i: x[i], np.array([2, 0, 2])),
    "getitem-2d-index": (lambda x, i: x[:, i], np.array([[3, 0], [1, 1]])),
    "getitem-0d": (lambda x, i: x[i], np.array(1)),
    "gather": (lambda x, i: ug.gather(x, 1, i), np.array([[0, 3], [1, 1], [2, 0]])),
    "take": (lambda x, i: ug.take(x, i), np.array([[11, 0], [5, 5]])),
    "index_select": (lambda x, i: ug.index_select(x, 1, i), np.array([3, 1, 1])),
    "take_along_axis": (lambda x, i: ug.take_along_axis(x, i, 0), np.array([[2, 1, 0, 0]])),
    "scatter_add": (lambda x, i: ug.scatter_add(x, 0, i, x[:1] * 2.0), np.array([[2, 0, 1, 2]])),
    "embedding": (lambda x, i: ug.nn.functional.embedding(i, x), np.array([[0, 2], [1, 1]])),
}


def _other_indices(index: np.ndarray) -> np.ndarray:
    return np.flip(index).copy() if index.ndim else (index + 1) % 3


@pytest.mark.parametrize("name", sorted(INDEXING_CASES))
def test_jit_with_index_argument_matches_eager_and_reuses_the_graph(name):
    fn, index = INDEXING_CASES[name]
    jitted = ug.jit(fn)
    for indices in (index, _other_indices(index)):
        x = ug.tensor(X, dtype=ug.float64)
        i = ug.tensor(indices)
        np.testing.assert_array_equal(jitted(x, i).numpy(), fn(x, i).numpy())
    assert jitted.trace_count == 1


@pytest.mark.parametrize("name", sorted(INDEXING_CASES))
def test_gradients_through_a_traced_index(name):
    fn, index = INDEXING_CASES[name]

    def loss(x, i):
        return (fn(x, i) ** 2).sum()

    x = ug.tensor(X, dtype=ug.float64)
    for indices in (index, _other_indices(index)):
        i = ug.tensor(indices)
        expected = ug.grad(loss)(x, i).numpy()
        np.testing.assert_allclose(ug.jit(ug.grad(loss))(x, i).numpy(), expected)
        np.testing.assert_allclose(ug.grad(ug.jit(loss))(x, i).numpy(), expected)


def test_forward_mode_and_second_order_through_a_traced_index():
    def f(x, i):
        return (x[i] ** 3).sum()

    x = ug.tensor([1.0, 2.0, 3.0], dtype=ug.float64)
    i = ug.tensor([2, 2, 0])
    tangent = ug.tensor([1.0, 1.0, 1.0], dtype=ug.float64)
    _, eager = ug.jvp(lambda x: f(x, i), (x,), (tangent,))
    _, jitted = ug.jvp(lambda x: ug.jit(f)(x, i), (x,), (tangent,))
    assert jitted.item() == pytest.approx(eager.item())  # 3 (2 * 3^2 + 1^2)
    assert eager.item() == pytest.approx(57.0)
    hessian_diagonal = ug.jit(ug.grad(lambda x, i: ug.grad(f)(x, i).sum()))(x, i)
    np.testing.assert_allclose(hessian_diagonal.numpy(), [6.0, 0.0, 36.0])


def test_index_tensor_in_a_closure_is_read_at_every_call():
    index = ug.tensor([0, 1])

    @ug.jit
    def pick(x):
        return x[index]

    x = ug.tensor([5.0, 6.0, 7.0])
    assert pick(x).tolist() == [5.0, 6.0]
    index.copy_(ug.tensor([2, 2]))
    assert pick(x).tolist() == [7.0, 7.0]
    assert pick.trace_count == 1


def test_indices_made_inside_the_function_stay_constants():
    @ug.jit
    def reverse(x):
        return x[ug.arange(2, -1, -1)]

    assert reverse(ug.tensor([1.0, 2.0, 3.0])).tolist() == [3.0, 2.0, 1.0]
    assert "index(" in reverse.graph.text()
    assert len(reverse.graph.inputs) == 1


def test_a_new_index_shape_retraces():
    pick = ug.jit(lambda x, i: x[i])
    x = ug.tensor([1.0, 2.0, 3.0])
    pick(x, ug.tensor([0]))
    pick(x, ug.tensor([0, 1]))
    assert pick.trace_count == 2


def test_boolean_mask_argument_has_a_data_dependent_shape():
    with pytest.raises(ConcretizationError, match="boolean mask"):
        ug.jit(lambda x, m: x[m])(ug.tensor([1.0, 2.0]), ug.tensor([True, False]))


def test_out_of_range_traced_index_fails_when_run():
    pick = ug.jit(lambda x, i: x[i])
    x = ug.tensor([1.0, 2.0, 3.0])
    assert pick(x, ug.tensor([2])).tolist() == [3.0]
    with pytest.raises(IndexError):
        pick(x, ug.tensor([5]))


def test_cross_entropy_with_label_arguments_trains_like_eager():
    ug.manual_seed(0)
    net = ug.nn.Linear(4, 3)
    data = ug.randn(8, 4)
    labels = ug.tensor([0, 1, 2, 0, 1, 2, 0, 1])

    def loss_fn(x, y):
        logits = net(x)
        return ug.nn.functional.cross_entropy(logits, y) + logits[ug.arange(8), y].mean() * 0.0

    grad_fn = ug.value_and_grad(loss_fn, grad_position=None, weights=net.trainable_params())
    eager_loss, eager_grads = grad_fn(data, labels)
    jit_loss, jit_grads = ug.jit(grad_fn)(data, labels)
    assert jit_loss.item() == pytest.approx(eager_loss.item(), rel=1e-6)
    for mine, theirs in zip(jit_grads, eager_grads):
        np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-5,
                                   atol=1e-7)


def test_sparse_softmax_cross_entropy_with_label_arguments_under_jit():
    ug.manual_seed(1)
    net = ug.nn.Dense(4, 3)
    loss = ug.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    grad_fn = ug.value_and_grad(lambda x, y: loss(net(x), y), None, net.trainable_params())
    jitted = ug.jit(grad_fn)
    x = ug.randn(5, 4)
    for labels in ([0, 1, 2, 1, 0], [2, 2, 1, 0, 0]):
        y = ug.tensor(labels)
        (want, want_grads), (got, got_grads) = grad_fn(x, y), jitted(x, y)
        assert got.item() == pytest.approx(want.item(), rel=1e-6)
        for mine, theirs in zip(got_grads, want_grads):
            np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-7)
    assert jitted.trace_count == 1


def test_all_finite_is_part_of_a_jitted_graph():
    check = ug.jit(lambda grads: ug.amp.all_finite(grads))
    assert check((ug.ones(2), ug.tensor([1.0, 2.0]))).item() is True
    assert check((ug.ones(2), ug.tensor([1.0, float("inf")]))).item() is False
    assert check((ug.ones(2), ug.tensor([float("nan"), 0.0]))).item() is False
    assert check.trace_count == 1
