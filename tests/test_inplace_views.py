"""In-place ops on views rebase the base's history (PyTorch's CopySlices semantics)."""

import numpy as np
import pytest

import unigrad as ug


def leaf():
    return ug.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)


def test_inplace_on_reshaped_view_reaches_the_base():
    x = leaf()
    y = x * 1.0
    view = y.reshape(2, 2)
    view.mul_(3.0)
    assert y.tolist() == [3.0, 6.0, 9.0, 12.0]
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0, 3.0, 3.0]


def test_inplace_on_sliced_view_with_tensor_operand():
    x = leaf()
    y = x * 2.0
    scale = ug.tensor([10.0, 100.0], requires_grad=True)
    y[1:3].mul_(scale)
    (y * ug.tensor([1.0, 1.0, 1.0, 2.0])).sum().backward()
    assert y.tolist() == [2.0, 40.0, 600.0, 8.0]
    assert x.grad.tolist() == [2.0, 20.0, 200.0, 4.0]
    assert scale.grad.tolist() == [4.0, 6.0]


def test_inplace_on_view_of_view():
    x = leaf()
    y = x * 1.0
    column = y.reshape(2, 2).t()[0]  # elements 0 and 2 of y
    column.mul_(5.0)
    assert y.tolist() == [5.0, 2.0, 15.0, 4.0]
    y.sum().backward()
    assert x.grad.tolist() == [5.0, 1.0, 5.0, 1.0]


def test_view_sees_the_new_history():
    x = leaf()
    y = x * 1.0
    view = y[:2]
    view.add_(1.0)
    (view * view).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 6.0, 0.0, 0.0])


def test_setitem_then_backward():
    x = leaf()
    y = x * 1.0
    y[0] = 7.0
    y.sum().backward()
    assert y.tolist() == [7.0, 2.0, 3.0, 4.0]
    assert x.grad.tolist() == [0.0, 1.0, 1.0, 1.0]


def test_inplace_on_broadcast_view_is_refused_and_changes_nothing():
    x = ug.tensor([1.0, 2.0])
    expanded = x.expand(3, 2)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        expanded.add_(1.0)
    assert x.tolist() == [1.0, 2.0]
    assert x._version == 0


def test_forward_mode_dual_numbers():
    import unigrad.autograd.forward_ad as fwAD
    x = ug.tensor([0.0, 1.0], dtype=ug.float64)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, ug.ones(2, dtype=ug.float64))
        primal, tangent = fwAD.unpack_dual(ug.sin(dual) * dual + dual.sum())
    np.testing.assert_allclose(primal.numpy(), np.sin([0.0, 1.0]) * [0.0, 1.0] + 1.0)
    np.testing.assert_allclose(tangent.numpy(), np.cos([0.0, 1.0]) * [0.0, 1.0]
                               + np.sin([0.0, 1.0]) + 2.0)


def test_make_dual_outside_a_level_is_an_error():
    import unigrad.autograd.forward_ad as fwAD
    with pytest.raises(RuntimeError, match="dual_level"):
        fwAD.make_dual(ug.zeros(2), ug.ones(2))


def test_scaling_saves_only_the_scale_so_later_inplace_changes_are_fine():
    # PyTorch's MulBackward0 saves ``other`` for ``self``'s gradient and ``self``
    # for ``other``'s: with a constant factor the tensor itself is not saved.
    x = leaf()
    h = x * 1.0
    y = h * 2.0
    h.add_(5.0)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0, 2.0]


def test_product_of_two_tensors_still_detects_inplace_changes():
    a = leaf()
    b = ug.tensor([1.0, 1.0, 2.0, 2.0], requires_grad=True)
    p = a * 1.0
    q = p * b
    p.mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        q.sum().backward()


def test_scaled_intermediate_is_not_kept_alive():
    import gc
    import weakref

    x = leaf()
    h = x * 1.0
    alive = weakref.ref(h)
    y = h * 3.0
    del h
    gc.collect()
    assert alive() is None
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0, 3.0, 3.0]


def test_an_earlier_overlapping_view_sees_an_inplace_change_made_through_another_view():
    x = leaf()
    y = x * 1.0
    pair = y[0:2]
    first = y[0]
    first.mul_(2.0)
    assert pair.tolist() == [2.0, 2.0]
    pair.sum().backward()
    assert x.grad.tolist() == [2.0, 1.0, 0.0, 0.0]


def test_a_view_sees_an_inplace_change_of_its_base():
    x = leaf()
    y = x * 1.0
    head = y[:2]
    y.mul_(3.0)
    (head * 1.0).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0, 0.0, 0.0]


def test_backward_from_a_stale_view_uses_its_refreshed_history():
    x = leaf()
    y = x * 1.0
    pair = y[0:2]
    y[0:1].mul_(5.0)
    pair.backward(ug.ones(2))
    assert x.grad.tolist() == [5.0, 1.0, 0.0, 0.0]
