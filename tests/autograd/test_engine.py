"""Tape engine behaviour: accumulation, retain/create graph, inputs=, in-place, long chains."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad.autograd.engine import ERR_BACKWARD_TWICE


def test_grad_accumulates_across_backward_calls():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    for _ in range(3):
        (x * 3).sum().backward()
    assert x.grad.tolist() == [9.0, 9.0]


def test_backward_twice_raises_pytorch_error():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError) as info:
        y.backward()
    assert str(info.value) == ERR_BACKWARD_TWICE
    assert "retain_graph=True" in str(info.value)


def test_backward_twice_is_detected_lazily():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [2.0, 2.0]
    z = x.exp().sum()
    z.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        z.backward()


def test_retain_graph_allows_repeated_backward():
    x = ug.tensor(2.0, requires_grad=True)
    y = x * x
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.item() == 8.0


def test_retain_graph_defaults_to_create_graph():
    x = ug.tensor(2.0, requires_grad=True)
    y = x * x * x
    (first,) = ug.autograd.grad(y, x, create_graph=True)
    (again,) = ug.autograd.grad(y, x)
    assert first.item() == again.item() == 12.0


def test_third_and_fourth_order_of_x_to_the_fourth():
    x = ug.tensor(2.0, requires_grad=True)
    y = x ** 4
    derivatives = []
    current = y
    for _ in range(4):
        (current,) = ug.autograd.grad(current, x, create_graph=True)
        derivatives.append(current.item())
    assert derivatives == [32.0, 48.0, 48.0, 24.0]


def test_create_graph_backward_then_grad_of_grad():
    x = ug.tensor([1.0, 2.0], dtype=ug.float64, requires_grad=True)
    with pytest.warns(UserWarning, match="Using backward\\(\\) with create_graph=True"):
        (x.sin() * x).sum().backward(create_graph=True)
    first = x.grad
    assert first.requires_grad
    (second,) = ug.autograd.grad(first.sum(), x)
    values = np.array([1.0, 2.0])
    assert np.allclose(second.numpy(), 2 * np.cos(values) - values * np.sin(values))


def test_backward_inputs_restricts_accumulation():
    a = ug.tensor([1.0, 2.0], requires_grad=True)
    b = ug.tensor([3.0, 4.0], requires_grad=True)
    (a * b).sum().backward(inputs=[a])
    assert a.grad.tolist() == [3.0, 4.0]
    assert b.grad is None


def test_backward_inputs_empty_list_raises():
    a = ug.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        (a * 2).sum().backward(inputs=[])
    assert str(info.value) == "`inputs` argument to `backward()` cannot be empty."


def test_backward_inputs_non_leaf():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    (y * y).sum().backward(inputs=[y])
    assert y.grad.tolist() == [4.0, 8.0]
    assert x.grad is None


def test_grad_returns_tuple_and_leaves_grad_untouched():
    x = ug.tensor(2.0, requires_grad=True)
    y = ug.tensor(3.0, requires_grad=True)
    result = ug.autograd.grad(x * x * y, (x, y))
    assert isinstance(result, tuple)
    assert [r.item() for r in result] == [12.0, 4.0]
    assert x.grad is None and y.grad is None


def test_grad_with_respect_to_non_leaf():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    hidden = x * 3
    out = (hidden * hidden).sum()
    (g_hidden, g_x) = ug.autograd.grad(out, (hidden, x))
    assert g_hidden.tolist() == [6.0, 12.0]
    assert g_x.tolist() == [18.0, 36.0]


def test_allow_unused_and_materialize_grads():
    x = ug.tensor([2.0, 2.0], requires_grad=True)
    unused = ug.tensor([1.0, 1.0], requires_grad=True)
    out = (x * x).sum()
    result = ug.autograd.grad(out, (x, unused), allow_unused=True, retain_graph=True)
    assert result[0].tolist() == [4.0, 4.0] and result[1] is None
    result = ug.autograd.grad(out, (x, unused), materialize_grads=True, retain_graph=True)
    assert result[1].tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="Expected allow_unused to be True or not passed when "
                                         "materialize_grads=True"):
        ug.autograd.grad(out, (x, unused), allow_unused=False, materialize_grads=True)


def test_unused_input_error_message():
    x = ug.tensor([2.0], requires_grad=True)
    unused = ug.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        ug.autograd.grad((x * x).sum(), (x, unused))
    assert str(info.value) == ("The differentiated Tensor at index 1 appears to not have been "
                               "used in the graph. Set allow_unused=True if this is the desired "
                               "behavior.")


def test_grad_outputs_as_vector_jacobian_product():
    x = ug.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (g,) = ug.autograd.grad(x * x, x, grad_outputs=ug.tensor([1.0, 0.5, 0.0]))
    assert g.tolist() == [2.0, 2.0, 0.0]


def test_broadcasting_gradients_have_input_shapes():
    a = ug.tensor(np.arange(3.0).reshape(3, 1), requires_grad=True)
    b = ug.tensor(np.arange(4.0).reshape(1, 4), requires_grad=True)
    (a * b).sum().backward()
    assert a.grad.shape == (3, 1) and b.grad.shape == (1, 4)
    assert a.grad.tolist() == [[6.0], [6.0], [6.0]]
    assert b.grad.tolist() == [[3.0, 3.0, 3.0, 3.0]]


def test_scalar_broadcast_against_matrix():
    s = ug.tensor(2.0, requires_grad=True)
    m = ug.tensor(np.ones((2, 3)), requires_grad=True)
    (s * m).mean().backward()
    assert s.grad.shape == () and s.grad.item() == pytest.approx(1.0)
    assert np.allclose(m.grad.numpy(), np.full((2, 3), 2.0 / 6))


def test_long_chain_has_no_recursion_limit():
    x = ug.tensor(1.0, dtype=ug.float64, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    y.backward()
    assert x.grad.item() == 1.0


def test_shared_subexpression_sums_contributions():
    x = ug.tensor(3.0, requires_grad=True)
    y = x * x
    z = y + y * y
    z.backward()
    assert x.grad.item() == 2 * 3.0 + 4 * 27.0


def test_next_functions():
    x = ug.tensor([1.0], requires_grad=True)
    c = ug.tensor([2.0])
    y = (x * 2).exp() * c
    assert y.grad_fn.name() == "MulBackward0"
    (first, second) = y.grad_fn.next_functions
    assert first[0].name() == "ExpBackward0"
    assert second == (None, 0)
    (mul,) = first[0].next_functions
    assert mul[0].next_functions[0][0].variable is x


# --------------------------------------------------------------------- in-place and versions

def test_version_counter_bumps_and_views_share_it():
    x = ug.tensor(np.ones((2, 3)))
    reshaped = x.reshape(6)
    transposed = x.transpose(0, 1)
    assert x._version == 0
    x.add_(1.0)
    assert x._version == reshaped._version == transposed._version == 1
    reshaped.mul_(2.0)
    assert x._version == 2 and transposed._version == 2
    assert x.tolist() == [[4.0] * 3] * 2


def test_broadcast_view_shares_version():
    x = ug.tensor([1.0, 2.0])
    expanded = x.broadcast_to((3, 2))
    x.add_(1.0)
    assert expanded._version == 1


def test_detach_shares_storage_and_version():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    out = x.sigmoid()
    out.detach().zero_()
    assert out._version == 1
    with pytest.raises(RuntimeError) as info:
        out.sum().backward()
    message = str(info.value)
    assert message.startswith("one of the variables needed for gradient computation has been "
                              "modified by an inplace operation: [float32 [2]], which is output "
                              "0 of SigmoidBackward0, is at version 1; expected version 0 "
                              "instead.")
    x2 = ug.tensor([1.0])
    x2.detach().add_(1)
    assert x2._version == 1 and x2.tolist() == [2.0]


def test_saved_input_modified_in_place_raises():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1.0
    z = (y * y).sum()
    y.add_(1.0)
    with pytest.raises(RuntimeError, match="which is output 0 of AddBackward0, is at version 1; "
                                           "expected version 0 instead"):
        z.backward()


def test_inplace_on_leaf_requiring_grad_raises():
    x = ug.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        x.add_(1.0)
    assert str(info.value) == ("a leaf Variable that requires grad is being used in an in-place "
                               "operation.")


def test_inplace_on_leaf_under_no_grad_is_allowed_and_bumps_version():
    w = ug.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    with ug.no_grad():
        w.sub_(w.grad * 0.5)
    assert w.tolist() == [0.0, 0.0]
    assert w._version == 1 and w.is_leaf and w.requires_grad


def test_inplace_on_non_leaf_rebases_history():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.mul_(3)
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]


def test_inplace_mul_with_both_operands_requiring_grad():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    w = ug.tensor([3.0, 5.0], requires_grad=True)
    y = x * 1.0
    y.mul_(w)
    (y * y).sum().backward()
    assert x.grad.tolist() == [2 * 1.0 * 9.0, 2 * 2.0 * 25.0]
    assert w.grad.tolist() == [2 * 3.0 * 1.0, 2 * 5.0 * 4.0]


def test_inplace_exp_uses_snapshot_of_old_value():
    x = ug.tensor([0.0, 1.0], dtype=ug.float64, requires_grad=True)
    y = x * 2
    y.exp_()
    y.sum().backward()
    assert np.allclose(x.grad.numpy(), 2 * np.exp([0.0, 2.0]))


def test_detach_in_place():
    x = ug.tensor([1.0], requires_grad=True)
    y = x * 2
    y.detach_()
    assert y.is_leaf and not y.requires_grad and y.grad_fn is None
    z = (x * 3).sum()
    z.backward()
    assert x.grad.tolist() == [3.0]


def test_matches_torch_on_a_mixed_graph():
    torch = pytest.importorskip("torch")
    values = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
    tx = torch.tensor(values, requires_grad=True)
    ty = (tx.sigmoid() * tx.transpose(0, 1).reshape(2, 3) + tx.exp() / 3).mean()
    ty.backward()
    x = ug.tensor(values, requires_grad=True)
    y = (x.sigmoid() * x.transpose(0, 1).reshape(2, 3) + x.exp() / 3).mean()
    y.backward()
    assert np.allclose(x.grad.numpy(), tx.grad.numpy())


def test_roots_that_lie_in_each_others_graph():
    # b depends on a: a's node must be counted and run once, with both seeds summed
    for order in ("ab", "ba"):
        x = ug.tensor([1.0, 2.0], requires_grad=True)
        a = (x * 2).sum()
        b = a * 3
        roots = [a, b] if order == "ab" else [b, a]
        (gx,) = ug.autograd.grad(roots, [x], retain_graph=True)
        assert gx.tolist() == [8.0, 8.0]
        ug.autograd.backward(roots)
        assert x.grad.tolist() == [8.0, 8.0]
