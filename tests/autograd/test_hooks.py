"""Tensor hooks, retain_grad, post-accumulate hooks and Node pre/post hooks."""

from __future__ import annotations

import pytest

import unigrad as ug


def test_tensor_hooks_run_in_order_each_seeing_the_previous_change():
    x = ug.tensor([1.0], requires_grad=True)
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(("first", g.tolist())) or g + 1)
    y.register_hook(lambda g: seen.append(("second", g.tolist())) or g * 10)
    y.sum().backward()
    assert seen == [("first", [1.0]), ("second", [2.0])]
    assert x.grad.tolist() == [40.0]


def test_retain_grad_sees_hooked_value():
    x = ug.tensor([1.0, 1.0], requires_grad=True)
    y = 2 * x
    y.retain_grad()
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert y.grad.tolist() == [10.0, 10.0]
    assert x.grad.tolist() == [20.0, 20.0]
    assert y.retains_grad and not x.retains_grad


def test_retain_grad_accumulates_over_calls():
    x = ug.tensor([1.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    z = (y * y).sum()
    z.backward(retain_graph=True)
    z.backward()
    assert y.grad.tolist() == [12.0]


def test_hook_removed_by_handle():
    x = ug.tensor([1.0], requires_grad=True)
    handle = x.register_hook(lambda g: g * 100)
    handle.remove()
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2.0]


def test_hook_on_leaf_changes_accumulated_grad():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.tolist()) or g * 2)
    (x * 3).sum().backward()
    assert seen == [[3.0, 3.0]]
    assert x.grad.tolist() == [6.0, 6.0]


def test_hook_returning_none_keeps_gradient():
    x = ug.tensor([1.0], requires_grad=True)
    x.register_hook(lambda g: None)
    (x * 5).sum().backward()
    assert x.grad.tolist() == [5.0]


def test_post_accumulate_grad_hook_sees_updated_grad():
    x = ug.tensor([1.0, 1.0], requires_grad=True)
    x.grad = ug.tensor([2.0, 2.0])
    seen = []
    x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.tolist()))
    (x * 3).sum().backward()
    assert seen == [[5.0, 5.0]]


def test_post_accumulate_grad_hook_on_non_leaf_raises():
    y = ug.tensor([1.0], requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="post accumulate grad hooks cannot be registered on "
                                           "non-leaf tensors"):
        y.register_post_accumulate_grad_hook(lambda t: None)


def test_hook_on_tensor_without_grad_raises():
    with pytest.raises(RuntimeError) as info:
        ug.tensor([1.0]).register_hook(lambda g: g)
    assert str(info.value) == "cannot register a hook on a tensor that doesn't require gradient"


def test_hook_fires_for_grad_inputs():
    x = ug.tensor([1.0], requires_grad=True)
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(g.tolist()))
    (g,) = ug.autograd.grad((y * 4).sum(), y)
    assert seen == [[4.0]] and g.tolist() == [4.0]


def test_node_prehook_and_posthook():
    x = ug.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    events = []

    def prehook(grad_outputs):
        events.append(("pre", grad_outputs[0].tolist()))
        return (grad_outputs[0] * 0.0 + 1.0,)

    def posthook(grad_inputs, grad_outputs):
        events.append(("post", [round(v, 4) for v in grad_inputs[0].tolist()],
                       grad_outputs[0].tolist()))

    y.grad_fn.register_prehook(prehook)
    y.grad_fn.register_hook(posthook)
    (y * 5).sum().backward()
    assert events[0] == ("pre", [5.0, 5.0])
    assert events[1] == ("post", [2.7183, 7.3891], [1.0, 1.0])
    assert [round(v, 4) for v in x.grad.tolist()] == [2.7183, 7.3891]


def test_node_hooks_do_not_fire_when_node_is_not_run():
    a = ug.tensor([1.0], requires_grad=True)
    b = ug.tensor([1.0], requires_grad=True)
    branch = b.exp()
    fired = []
    branch.grad_fn.register_prehook(lambda grads: fired.append(True))
    (a * 2 + branch).sum().backward(inputs=[a])
    assert fired == [] and a.grad.tolist() == [2.0]


def test_event_order_matches_pytorch():
    x = ug.tensor([1.0], requires_grad=True)
    y = x * 2
    events = []
    y.retain_grad()
    y.register_hook(lambda g: events.append("tensor hook") or g * 10)
    y.grad_fn.register_prehook(lambda g: events.append("pre hook"))
    y.grad_fn.register_hook(lambda gi, go: events.append("post hook"))
    x.register_post_accumulate_grad_hook(lambda t: events.append("post accumulate"))
    y.sum().backward()
    assert events == ["tensor hook", "pre hook", "post hook", "post accumulate"]
    assert y.grad.tolist() == [10.0]
