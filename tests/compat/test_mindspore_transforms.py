"""MindSpore transforms, Cell hooks, custom backward and composites beyond the recorded cases:
result classes, handles, repeated calls, graph mode, and nothing changed on bad input.

The values checked here are the ones MindSpore 2.10 gives for the same calls (see
``recorded_cases/mindspore_transforms_cases.py`` for the recorded ones).
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
from unigrad.compat.mindspore import nn, ops


@pytest.fixture(autouse=True)
def _pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _cube(x):
    return x ** 3


class _Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([2.0, 3.0]), name="w")

    def construct(self, x):
        return (x * self.w).sum()


def test_new_names_are_exported():
    for name in ("jvp", "vjp", "jacfwd", "jacrev", "tensor"):
        assert name in ms.__all__ and callable(getattr(ms, name))
    for name in ("HookBackward", "MultitypeFuncGraph", "Map", "Partial"):
        assert name in ops.__all__
    assert "ForwardValueAndGrad" in nn.__all__


def test_transform_results_are_mindspore_tensors():
    x, v = ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 1.0])
    out, tangent = ms.jvp(_cube, x, v)
    _, vjp_fn = ms.vjp(_cube, x)
    results = [out, tangent, *vjp_fn(v), ms.jacfwd(_cube)(x), ms.jacrev(_cube)(x)]
    assert all(type(value) is ms.Tensor for value in results)
    np.testing.assert_array_equal(tangent.asnumpy(), [3.0, 12.0])


def test_vjp_fn_can_be_called_again_with_another_cotangent():
    _, vjp_fn = ms.vjp(_cube, ms.Tensor([1.0, 2.0]))
    first = vjp_fn(ms.Tensor([1.0, 1.0]))[0].asnumpy()
    second = vjp_fn(ms.Tensor([2.0, 0.0]))[0].asnumpy()
    np.testing.assert_array_equal(first, [3.0, 12.0])
    np.testing.assert_array_equal(second, [6.0, 0.0])


def test_jacobians_in_graph_mode_match_pynative():
    x = ms.Tensor([1.0, 2.0])
    ms.set_context(mode=ms.GRAPH_MODE)
    forward, reverse = ms.jacfwd(_cube)(x).asnumpy(), ms.jacrev(_cube)(x).asnumpy()
    np.testing.assert_array_equal(forward, [[3.0, 0.0], [0.0, 12.0]])
    np.testing.assert_array_equal(reverse, forward)


def test_removed_hooks_no_longer_run():
    calls = []
    cell = nn.ReLU()
    handles = [cell.register_forward_pre_hook(lambda c, inputs: calls.append("pre")),
               cell.register_forward_hook(lambda c, inputs, outputs: calls.append("forward")),
               cell.register_backward_pre_hook(lambda c, grad_output: calls.append("bpre")),
               cell.register_backward_hook(lambda c, gin, gout: calls.append("backward"))]
    ms.grad(cell)(ms.Tensor([1.0]))
    assert calls == ["pre", "forward", "bpre", "backward"]
    for handle in handles:
        handle.remove()
    calls.clear()
    np.testing.assert_array_equal(ms.grad(cell)(ms.Tensor([1.0])).asnumpy(), [1.0])
    assert calls == []


def test_hooks_see_mindspore_tensors():
    seen = []
    cell = nn.ReLU()
    cell.register_backward_hook(lambda c, gin, gout: seen.extend([*gin, *gout]))
    ms.grad(cell)(ms.Tensor([2.0]))
    assert seen and all(type(value) is ms.Tensor for value in seen)


@pytest.mark.parametrize("register", ["register_forward_pre_hook", "register_forward_hook",
                                      "register_backward_pre_hook", "register_backward_hook"])
def test_hook_fn_must_be_callable(register):
    with pytest.raises(TypeError, match="^Expected a callable hook function, but got int.$"):
        getattr(nn.ReLU(), register)(3)


def test_bprop_weight_dict_leaves_parameter_gradient_zero_and_weights_unchanged():
    class Net(_Scaled):
        def bprop(self, x, out, dout):
            return (dout * x,), {self.w: dout * 100}

    net = Net()
    x_grad, (w_grad,) = ms.grad(net, grad_position=0, weights=net.trainable_params())(
        ms.Tensor([1.0, 2.0]))
    np.testing.assert_array_equal(x_grad.asnumpy(), [1.0, 2.0])
    np.testing.assert_array_equal(w_grad.asnumpy(), [0.0, 0.0])
    np.testing.assert_array_equal(net.w.asnumpy(), [2.0, 3.0])


def test_hook_backward_called_once_per_backward_with_all_gradients():
    seen = []
    hook = ops.HookBackward(lambda grads: seen.append(len(grads)))

    def net(x, y):
        a, b = hook(x, y)
        return a * b

    ms.grad(net, grad_position=(0, 1))(ms.Tensor(2.0), ms.Tensor(5.0))
    assert seen == [2]


def test_multitype_func_graph_rejects_numpy_arrays():
    graph = ops.MultitypeFuncGraph("graph")
    graph.register("Tensor")(lambda x: x)
    graph.register("Number")(lambda x: x)
    with pytest.raises(TypeError, match="can not be numpy.ndarray"):
        graph(np.ones(2))


def test_forward_value_and_grad_error_changes_nothing():
    net = _Scaled()
    with pytest.raises(TypeError, match="'weights' must be Parameters array"):
        nn.ForwardValueAndGrad(net, weights=net.w, get_by_list=True)
    np.testing.assert_array_equal(net.w.asnumpy(), [2.0, 3.0])
    assert [p.name for p in net.trainable_params()] == ["w"]
