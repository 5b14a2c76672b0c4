"""torch.autograd.graph on the torch front-end against PyTorch: saved-tensor hooks (what is
packed, gradients through unpacking), save_on_cpu, disable_saved_tensors_hooks,
register_multi_grad_hook and Node."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import unigrad.compat.torch as ut  # noqa: E402

pytestmark = pytest.mark.torch
TEXT_NAMES = "torch"

VALUES = np.array([[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]])

PROGRAMS = {
    "square": lambda m, x: (x * x).sum(),
    "exp": lambda m, x: x.exp().sum(),
    "sin_then_mul": lambda m, x: (m.sin(x) * x).sum(),
    "matmul": lambda m, x: (x @ x.t()).sum(),
    "tanh_chain": lambda m, x: m.tanh(m.tanh(x)).sum(),
    "scaled": lambda m, x: (x * 3.0 + 1.0).sum(),
}


def _run(module, program, hooks):
    """Gradient of ``program`` and the shapes packed while recording it."""
    x = module.tensor(VALUES, requires_grad=True)
    packed = []

    def pack(tensor):
        packed.append(tuple(tensor.shape))
        return tensor.detach().numpy().copy()

    def unpack(array):
        return module.tensor(array)
    if hooks:
        with module.autograd.graph.saved_tensors_hooks(pack, unpack):
            loss = program(module, x)
    else:
        loss = program(module, x)
    loss.backward()
    return x.grad.numpy(), packed


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_saved_tensor_hooks_see_what_pytorch_saves_and_unpacked_values_give_its_gradient(name):
    program = PROGRAMS[name]
    want_grad, want_packed = _run(torch, program, hooks=True)
    got_grad, got_packed = _run(ut, program, hooks=True)
    np.testing.assert_allclose(got_grad, want_grad, rtol=1e-12)
    np.testing.assert_allclose(got_grad, _run(ut, program, hooks=False)[0], rtol=1e-12)
    assert sorted(got_packed) == sorted(want_packed)


def test_unpacked_values_are_what_backward_uses():
    x = ut.tensor([1.0, 2.0], requires_grad=True)
    with ut.autograd.graph.saved_tensors_hooks(lambda t: t.detach() * 0 + 10.0, lambda t: t):
        y = (x * x).sum()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [20.0, 20.0])  # d(x*x) read back as 10 * 2


def test_hooks_nest_innermost_first_and_end_with_their_block():
    calls = []
    x = ut.ones(2, requires_grad=True)
    outer = ut.autograd.graph.saved_tensors_hooks(lambda t: calls.append("outer") or t,
                                                  lambda t: t)
    inner = ut.autograd.graph.saved_tensors_hooks(lambda t: calls.append("inner") or t,
                                                  lambda t: t)
    with outer:
        with inner:
            x.exp()
        x.sin()
    x.cos()
    assert calls == ["inner", "outer"]


def test_second_order_through_hooks_matches_pytorch():
    grads = []
    for module in (torch, ut):
        x = module.tensor([0.3, -1.2], dtype=module.float64, requires_grad=True)
        with module.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            y = (x.exp() * x.sin()).sum()
        (first,) = module.autograd.grad(y, x, create_graph=True)
        (second,) = module.autograd.grad(first.sum(), x)
        grads.append(second.detach().numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-12)


def test_custom_function_saved_tensors_go_through_the_hooks():
    packed = []

    class Cube(ut.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x ** 2

    x = ut.tensor([1.0, 2.0], requires_grad=True)
    with ut.autograd.graph.saved_tensors_hooks(lambda t: packed.append(1) or t.detach().numpy() * 1,
                                               lambda a: ut.tensor(a)):
        y = Cube.apply(x).sum()
    assert packed
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 12.0])


def test_save_on_cpu_gives_the_same_gradients():
    for name, program in PROGRAMS.items():
        x = ut.tensor(VALUES, requires_grad=True)
        with ut.autograd.graph.save_on_cpu(pin_memory=False):
            loss = program(ut, x)
        loss.backward()
        np.testing.assert_allclose(x.grad.numpy(), _run(torch, program, hooks=False)[0],
                                   rtol=1e-12, err_msg=name)


def test_disable_saved_tensors_hooks_refuses_hooks_with_the_message():
    for module in (torch, ut):
        graph = module.autograd.graph
        with graph.disable_saved_tensors_hooks("saved hooks are off here"):
            with pytest.raises(RuntimeError, match="saved hooks are off here"):
                with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                    pass
        with graph.saved_tensors_hooks(lambda t: t, lambda t: t):  # allowed again
            pass


def _multi_hook_calls(module, mode, use_b):
    a = module.tensor(1.0, requires_grad=True)
    b = module.tensor(2.0, requires_grad=True)
    c = module.tensor(3.0, requires_grad=True)
    calls = []

    def record(grads):
        if mode == "all":
            calls.append(tuple(None if g is None else float(g) for g in grads))
        else:
            calls.append(float(grads))
    handle = module.autograd.graph.register_multi_grad_hook((a, b, c), record, mode=mode)
    loss = a * 5 + c * 7 + (b * 11 if use_b else 0)
    loss.backward()
    (a * 2).backward()
    handle.remove()
    (a * 3 + b).backward()
    return calls


@pytest.mark.parametrize("mode", ["all", "any"])
@pytest.mark.parametrize("use_b", [True, False])
def test_multi_grad_hook_fires_once_per_pass_as_pytorch(mode, use_b):
    assert _multi_hook_calls(ut, mode, use_b) == _multi_hook_calls(torch, mode, use_b)


def test_multi_grad_hook_refuses_a_bad_mode():
    x = ut.ones(1, requires_grad=True)
    with pytest.raises(ValueError, match="Expects mode to be one of"):
        ut.autograd.graph.register_multi_grad_hook((x,), print, mode="some")


def test_every_grad_fn_is_a_node():
    x = ut.ones(2, requires_grad=True)
    y = (x * 2).sum()
    assert isinstance(y.grad_fn, ut.autograd.graph.Node)
    accumulate = (x * 2).grad_fn.next_functions[0][0]
    assert isinstance(accumulate, ut.autograd.graph.Node) and accumulate.variable is x
    y.grad_fn.metadata["step"] = 3
    assert y.grad_fn.metadata == {"step": 3}
