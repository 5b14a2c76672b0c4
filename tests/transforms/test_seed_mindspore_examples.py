"""The MindSpore examples of seeds 003 and 004, names changed to unigrad.

Seed 004's network is ``MSELoss(Dense(3, 1, has_bias=False)(x).squeeze(), y)``
with weight ``[[2, 3, 4]]``, ``x = [[1, 2, 3]]``, ``y = 19``: logits 20, loss 1.
Until the nn issue lands ``Dense``/``MSELoss``, the test spells them out with
the same math. (Seed 004 misprints ``out1`` of the multi-output example: it is
1.0, see API.md.) The loss-scale part of seed 004 waits for the amp issue.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug

from .conftest import NamedParameter


class SeedNet:
    """Seed 004's ``Net(3, 1)``: returns ``(loss, logits)``."""

    def __init__(self):
        self.weight = NamedParameter([[2.0, 3.0, 4.0]], "fc.weight")

    def trainable_params(self) -> list:
        return [self.weight]

    def __call__(self, x, y):
        logits = ug.matmul(x, self.weight.T).squeeze()
        loss = ((logits - y) ** 2).mean()
        return loss, logits


class SeedNet2(SeedNet):
    """Seed 004's ``Net2``: returns ``loss + logits``."""

    def __call__(self, x, y):
        loss, logits = super().__call__(x, y)
        return loss + logits


@pytest.fixture
def net():
    return SeedNet()


@pytest.fixture
def inputs():
    return ug.tensor([[1.0, 2.0, 3.0]]), ug.tensor(19.0)


def values(tensor):
    assert isinstance(tensor, ug.Tensor)
    assert tensor.dtype == ug.float32
    return tensor.numpy().tolist()


def test_forward(net, inputs):
    loss, logits = net(*inputs)
    assert loss.item() == 1.0 and logits.item() == 20.0
    assert [p.name for p in net.trainable_params()] == ["fc.weight"]


def test_grads_1_first_input(net, inputs):
    grad, logit = ug.grad(net, grad_position=0, weights=None, has_aux=True)(*inputs)
    assert values(grad) == [[4.0, 6.0, 8.0]]
    assert isinstance(logit, tuple) and len(logit) == 1 and logit[0].item() == 20.0


def test_grads_2_second_input(net, inputs):
    grad, logit = ug.grad(net, grad_position=1, weights=None, has_aux=True)(*inputs)
    assert values(grad) == -2.0 and logit[0].item() == 20.0


def test_grads_3_both_inputs(net, inputs):
    grad, _ = ug.grad(net, grad_position=(0, 1), weights=None, has_aux=True)(*inputs)
    assert values(grad[0]) == [[4.0, 6.0, 8.0]] and values(grad[1]) == -2.0


def test_grads_4_weights(net, inputs):
    grad, logits = ug.grad(net, grad_position=None, weights=net.trainable_params(),
                           has_aux=True)(*inputs)
    assert isinstance(grad, tuple) and len(grad) == 1
    assert values(grad[0]) == [[2.0, 4.0, 6.0]] and logits[0].item() == 20.0


def test_grads_5_first_input_and_weights(net, inputs):
    grad, _ = ug.grad(net, grad_position=0, weights=net.trainable_params(),
                      has_aux=True)(*inputs)
    assert values(grad[0]) == [[4.0, 6.0, 8.0]]
    assert isinstance(grad[1], tuple) and values(grad[1][0]) == [[2.0, 4.0, 6.0]]


def test_grads_6_inputs_and_weights(net, inputs):
    grad, _ = ug.grad(net, grad_position=(0, 1), weights=net.trainable_params(),
                      has_aux=True)(*inputs)
    (gx, gy), (gw,) = grad
    assert values(gx) == [[4.0, 6.0, 8.0]] and values(gy) == -2.0
    assert values(gw) == [[2.0, 4.0, 6.0]]


def test_grads_7_without_aux_sums_outputs(net, inputs):
    grad = ug.grad(net, grad_position=0, weights=None, has_aux=False)(*inputs)
    assert values(grad) == [[6.0, 9.0, 12.0]]
    assert values(ug.grad(SeedNet2(), grad_position=0)(*inputs)) == [[6.0, 9.0, 12.0]]


def test_grads_8_both_none(net):
    with pytest.raises(ValueError, match="`grad_position` and `weight` can not be None at the "
                                         "same time."):
        ug.grad(net, grad_position=None, weights=None, has_aux=True)


def test_value_and_grad(net, inputs):
    value, grad = ug.value_and_grad(net, grad_position=(0, 1), weights=net.trainable_params(),
                                    has_aux=True)(*inputs)
    assert [v.item() for v in value] == [1.0, 20.0]
    (gx, gy), (gw,) = grad
    assert values(gx) == [[4.0, 6.0, 8.0]] and values(gy) == -2.0
    assert values(gw) == [[2.0, 4.0, 6.0]]


def test_scalar_net_examples():
    x, y = ug.tensor(1.0), ug.tensor(2.0)

    def net(x, y):
        return x ** 2 + y

    assert ug.grad(net, grad_position=0)(x, y).item() == 2.0
    assert ug.grad(net, grad_position=1)(x, y).item() == 1.0

    def net_two_outputs(x, y):
        return x ** 2 + y, x

    assert ug.grad(net_two_outputs, grad_position=0)(x, y).item() == 3.0
    assert ug.grad(net_two_outputs, grad_position=1)(x, y).item() == 1.0  # seed misprints 3.0
    out, _ = ug.grad(net_two_outputs, grad_position=0, has_aux=True)(x, y)
    assert out.item() == 2.0
    out, _ = ug.grad(net_two_outputs, grad_position=1, has_aux=True)(x, y)
    assert out.item() == 1.0


def test_seed_003_grad_of_a_cell_with_matmul():
    class Net:
        def __init__(self):
            self.z = NamedParameter(np.array([1.0], np.float32), "z")

        def __call__(self, x, y):
            return ug.matmul(x * self.z, y)

    class GradNetWrtX:
        def __init__(self, net):
            self.net = net

        def __call__(self, x, y):
            return ug.grad(self.net)(x, y)

    x = ug.tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], dtype=ug.float32)
    y = ug.tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], dtype=ug.float32)
    output = GradNetWrtX(Net())(x, y)
    np.testing.assert_allclose(output.numpy(), [[1.41, 1.6, 6.6], [1.41, 1.6, 6.6]], rtol=1e-6)
    assert output.dtype == ug.float32
