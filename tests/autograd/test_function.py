"""Custom ``Function``: forward/backward, ctx API, checks on backward's results, higher order."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad.autograd import Function, once_differentiable
from unigrad.autograd.engine import ERR_BACKWARD_TWICE


def f64(values, requires_grad=True):
    return ug.tensor(values, dtype=ug.float64, requires_grad=requires_grad)


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x ** 2


class Exp(Function):
    """Saves its own output, as ``torch.exp``'s backward does."""

    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result


class Scale(Function):
    """A tensor input and a Python number, with setup_context."""

    @staticmethod
    def forward(x, factor):
        return x * factor

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.factor = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.factor, None


class SplitExp(Function):
    """Two outputs: ``2x`` and ``exp(x)``."""

    @staticmethod
    def forward(ctx, x):
        doubled = x * 2
        exponential = x.exp()
        ctx.save_for_backward(exponential)
        return doubled, exponential

    @staticmethod
    def backward(ctx, grad_doubled, grad_exponential):
        (exponential,) = ctx.saved_tensors
        return grad_doubled * 2 + grad_exponential * exponential


def test_forward_and_backward_values_and_node_name():
    x = f64([1.0, 2.0])
    y = Cube.apply(x)
    assert np.allclose(y.detach().numpy(), [1.0, 8.0])
    assert y.grad_fn.name() == "CubeBackward"
    assert y.grad_fn.next_functions[0][0].variable is x
    y.sum().backward()
    assert np.allclose(x.grad.numpy(), [3.0, 12.0])


def test_forward_runs_without_recording():
    seen = {}

    class Probe(Function):
        @staticmethod
        def forward(ctx, x):
            inner = x * 2
            seen["grad_enabled"] = ug.is_grad_enabled()
            seen["inner_requires_grad"] = inner.requires_grad
            return inner

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    out = Probe.apply(f64([1.0]))
    assert seen == {"grad_enabled": False, "inner_requires_grad": False}
    assert out.requires_grad and ug.is_grad_enabled()


def test_no_input_requires_grad_records_nothing():
    out = Cube.apply(f64([2.0], requires_grad=False))
    assert out.grad_fn is None and not out.requires_grad
    with ug.no_grad():
        out = Cube.apply(f64([2.0]))
    assert out.grad_fn is None


def test_setup_context_and_non_tensor_argument():
    x = f64([1.0, 2.0])
    out = Scale.apply(x, 3.0)
    assert np.allclose(out.detach().numpy(), [3.0, 6.0])
    out.sum().backward()
    assert np.allclose(x.grad.numpy(), [3.0, 3.0])


def test_needs_input_grad():
    seen = []

    class Mul(Function):
        @staticmethod
        def forward(ctx, a, b, label):
            seen.append(ctx.needs_input_grad)
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad * b, grad * a, None

    a, b = f64([2.0]), f64([5.0], requires_grad=False)
    Mul.apply(a, b, "label").sum().backward()
    assert seen == [(True, False, False)]
    assert a.grad.tolist() == [5.0]


def test_output_saved_for_backward_and_higher_order():
    x = f64(0.5)
    y = Exp.apply(x)
    (first,) = ug.autograd.grad(y, x, create_graph=True)
    (second,) = ug.autograd.grad(first, x, create_graph=True)
    (third,) = ug.autograd.grad(second, x)
    for value in (first, second, third):
        assert value.item() == pytest.approx(np.exp(0.5))


def test_third_order_through_saved_input():
    x = f64(2.0)
    (first,) = ug.autograd.grad(Cube.apply(x), x, create_graph=True)
    (second,) = ug.autograd.grad(first, x, create_graph=True)
    (third,) = ug.autograd.grad(second, x)
    assert (first.item(), second.item(), third.item()) == (12.0, 12.0, 6.0)


def test_multiple_outputs_backward_once_with_both_gradients():
    calls = []

    class Counted(SplitExp):
        @staticmethod
        def backward(ctx, grad_doubled, grad_exponential):
            calls.append((grad_doubled.tolist(), grad_exponential.tolist()))
            return SplitExp.backward(ctx, grad_doubled, grad_exponential)

    x = f64([0.0, 1.0])
    doubled, exponential = Counted.apply(x)
    assert doubled.grad_fn.name() == "CountedBackward"
    (doubled.sum() * 3 + exponential.sum()).backward()
    assert calls == [([3.0, 3.0], [1.0, 1.0])]
    assert np.allclose(x.grad.numpy(), 6 + np.exp([0.0, 1.0]))


def test_multiple_outputs_unused_output_gets_zeros_or_none():
    received = []

    class Recorder(SplitExp):
        @staticmethod
        def forward(ctx, x, materialize):
            ctx.set_materialize_grads(materialize)
            return SplitExp.forward(ctx, x)

        @staticmethod
        def backward(ctx, grad_doubled, grad_exponential):
            received.append(grad_exponential)
            return grad_doubled * 2, None

    x = f64([1.0, 2.0])
    Recorder.apply(x, True)[0].sum().backward()
    Recorder.apply(x, False)[0].sum().backward()
    assert received[0].tolist() == [0.0, 0.0]
    assert received[1] is None
    assert x.grad.tolist() == [4.0, 4.0]


def test_multiple_outputs_second_order():
    x = f64([0.0, 1.0])
    _, exponential = SplitExp.apply(x)
    (first,) = ug.autograd.grad((exponential * exponential).sum(), x, create_graph=True)
    assert np.allclose(first.detach().numpy(), 2 * np.exp(2 * np.array([0.0, 1.0])))
    (second,) = ug.autograd.grad(first.sum(), x)
    assert np.allclose(second.numpy(), 4 * np.exp(2 * np.array([0.0, 1.0])))


def test_wrong_number_of_gradients():
    class F1(Function):
        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, grad):
            return grad

    with pytest.raises(RuntimeError) as info:
        F1.apply(f64([1.0]), f64([2.0])).sum().backward()
    assert str(info.value) == ("function F1Backward returned an incorrect number of gradients "
                               "(expected 2, got 1)")


def test_extra_none_gradients_are_allowed():
    class Extra(Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1.0

        @staticmethod
        def backward(ctx, grad):
            return grad, None, None

    a = f64([1.0])
    Extra.apply(a).sum().backward()
    assert a.grad.tolist() == [1.0]


def test_wrongly_shaped_gradient():
    class F2(Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1.0

        @staticmethod
        def backward(ctx, grad):
            return ug.ones(2, dtype=ug.float64)

    with pytest.raises(RuntimeError) as info:
        F2.apply(f64([1.0, 2.0, 3.0])).sum().backward()
    assert str(info.value) == ("Function F2Backward returned an invalid gradient at index 0 - "
                               "got [2] but expected shape compatible with [3]")


def test_broadcastable_gradient_is_summed_to_the_input_shape():
    class Wide(Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1.0

        @staticmethod
        def backward(ctx, grad):
            return ug.ones((4, 3), dtype=ug.float64)

    a = f64([1.0, 2.0, 3.0])
    Wide.apply(a).sum().backward()
    assert a.grad.tolist() == [4.0, 4.0, 4.0]


def test_saved_tensor_modified_in_place_raises_version_error():
    x = f64([1.0, 2.0])
    base = x * 1.0
    y = Cube.apply(base)
    with ug.no_grad():
        base.add_(1.0)
    with pytest.raises(RuntimeError, match=r"modified by an inplace operation: \[float64 \[2\]\], "
                                           r"which is output 0 of MulBackward0, is at version 1; "
                                           r"expected version 0 instead"):
        y.sum().backward()


def test_saved_tensors_freed_after_backward():
    x = f64([1.0])
    ctx_holder = {}

    class Keep(Cube):
        @staticmethod
        def forward(ctx, x):
            ctx_holder["ctx"] = ctx
            return Cube.forward(ctx, x)

    y = Keep.apply(x)
    y.sum().backward()
    with pytest.raises(RuntimeError) as info:
        y.sum().backward()
    assert str(info.value) == ERR_BACKWARD_TWICE
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        _ = ctx_holder["ctx"].saved_tensors


def test_retain_graph_allows_second_backward():
    x = f64([1.0])
    y = Cube.apply(x)
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    assert x.grad.tolist() == [6.0]


def test_function_saving_nothing_can_backward_twice():
    x = f64([1.0])
    y = Scale.apply(x, 2.0)
    y.sum().backward()
    y.sum().backward()
    assert x.grad.tolist() == [4.0]


def test_mark_non_differentiable():
    class SortedWithIndex(Function):
        @staticmethod
        def forward(ctx, x):
            index = ug.tensor(np.argsort(x.detach().numpy()))
            ordered = ug.tensor(np.sort(x.detach().numpy()))
            flag = x * 0.0
            ctx.mark_non_differentiable(flag)
            return ordered, index, flag

        @staticmethod
        def backward(ctx, grad_ordered, grad_index, grad_flag):
            return grad_ordered

    x = f64([3.0, 1.0])
    ordered, index, flag = SortedWithIndex.apply(x)
    assert ordered.requires_grad
    assert not index.requires_grad and not flag.requires_grad
    assert index.tolist() == [1, 0]


def test_mark_dirty_rebases_history():
    class AddOneInPlace(Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1.0)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad

    leaf = f64([1.0, 2.0])
    y = leaf * 3
    z = AddOneInPlace.apply(y)
    assert z is y
    assert y.grad_fn.name() == "AddOneInPlaceBackward"
    assert y.tolist() == [4.0, 7.0]
    y.sum().backward()
    assert leaf.grad.tolist() == [3.0, 3.0]


def test_mark_dirty_on_leaf_requiring_grad_raises():
    class Dirty(Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1.0)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad

    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        Dirty.apply(f64([1.0]))


def test_returned_input_is_a_new_tensor_sharing_storage():
    class Identity(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 5

    x = f64([1.0, 2.0])
    y = Identity.apply(x)
    assert y is not x and x.is_leaf and not y.is_leaf
    y.sum().backward()
    assert x.grad.tolist() == [5.0, 5.0]


def test_create_graph_records_backward():
    x = f64(3.0)

    class Square(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, grad):
            (a,) = ctx.saved_tensors
            return grad * 2 * a

    (first,) = ug.autograd.grad(Square.apply(x), x, create_graph=True)
    assert first.item() == 6.0 and first.requires_grad
    (second,) = ug.autograd.grad(first, x)
    assert second.item() == 2.0


class OnceSquare(Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * 2 * a


def test_once_differentiable_first_order_works():
    x = f64(3.0)
    OnceSquare.apply(x).backward()
    assert x.grad.item() == 6.0


def test_once_differentiable_double_backward_raises():
    x = f64(3.0)
    y = OnceSquare.apply(x) ** 2
    (first,) = ug.autograd.grad(y, x, create_graph=True)
    assert first.item() == 108.0
    with pytest.raises(RuntimeError) as info:
        first.backward()
    assert str(info.value) == ("trying to differentiate twice a function that was marked with "
                               "@once_differentiable")


def test_once_differentiable_runs_backward_without_recording():
    seen = []

    class Probe(Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1.0

        @staticmethod
        @once_differentiable
        def backward(ctx, grad):
            seen.append(ug.is_grad_enabled())
            return grad

    x = f64(1.0)
    ug.autograd.grad(Probe.apply(x) * x, x, create_graph=True)
    assert seen == [False]


def test_exported_names():
    from unigrad.autograd.function import once_differentiable as direct
    assert direct is once_differentiable
    assert ug.autograd.Function is Function


def test_forward_mode_uses_jvp():
    import unigrad.autograd.forward_ad as fwAD

    class Sine(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x)
            return x.sin()

        @staticmethod
        def backward(ctx, grad):
            raise AssertionError("forward mode must not call backward")

        @staticmethod
        def jvp(ctx, tangent):
            (x,) = ctx.saved_tensors
            return tangent * x.cos()

    x = f64([0.0, 1.0], requires_grad=False)
    with fwAD.dual_level():
        out = Sine.apply(fwAD.make_dual(x, ug.ones(2, dtype=ug.float64)))
        tangent = fwAD.unpack_dual(out).tangent
    assert np.allclose(tangent.numpy(), np.cos([0.0, 1.0]))


def test_matches_torch_on_a_custom_function():
    torch = pytest.importorskip("torch")

    class TorchCube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x ** 2

    values = [0.5, -1.5, 2.0]
    expected = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    (TorchCube.apply(expected) * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum() \
        .backward()
    x = f64(values)
    (Cube.apply(x) * ug.tensor([1.0, 2.0, 3.0], dtype=ug.float64)).sum().backward()
    assert np.allclose(x.grad.numpy(), expected.grad.numpy())
