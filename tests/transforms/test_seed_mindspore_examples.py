"""The MindSpore examples of seeds 003 and 004, names changed to unigrad.

Seed 004's network is ``MSELoss(Dense(3, 1, has_bias=False)(x).squeeze(), y)``
with weight ``[[2, 3, 4]]``, ``x = [[1, 2, 3]]``, ``y = 19``: logits 20, loss 1.
(Seed 004 misprints ``out1`` of the multi-output example: it is 1.0, see
API.md.)
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn


class SeedNet(nn.Cell):
    """Seed 004's ``Net(3, 1)``, written as in the seed: returns ``(loss, logits)``."""

    def __init__(self, in_channel: int = 3, out_channel: int = 1):
        super().__init__()
        self.fc = nn.Dense(in_channel, out_channel, has_bias=False)
        self.loss = nn.MSELoss()

    def construct(self, x, y):
        logits = self.fc(x).squeeze()
        loss = self.loss(logits, y)
        return loss, logits


class SeedNet2(SeedNet):
    """Seed 004's ``Net2``: returns ``loss + logits``."""

    def construct(self, x, y):
        logits = self.fc(x).squeeze()
        loss = self.loss(logits, y)
        return loss + logits


def seed_net(cls=SeedNet):
    net = cls(3, 1)
    net.fc.weight.set_data(ug.tensor([[2, 3, 4]], ug.float32))
    return net


@pytest.fixture
def net():
    return seed_net()


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
    assert values(ug.grad(seed_net(SeedNet2), grad_position=0)(*inputs)) == [[6.0, 9.0, 12.0]]


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
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.matmul = ug.matmul
            self.z = nn.Parameter(ug.tensor(np.array([1.0], np.float32)), name="z")

        def construct(self, x, y):
            x = x * self.z
            return self.matmul(x, y)

    class GradNetWrtX(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x, y):
            return ug.grad(self.net)(x, y)

    x = ug.tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], dtype=ug.float32)
    y = ug.tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], dtype=ug.float32)
    output = GradNetWrtX(Net())(x, y)
    np.testing.assert_allclose(output.numpy(), [[1.41, 1.6, 6.6], [1.41, 1.6, 6.6]], rtol=1e-6)
    assert output.dtype == ug.float32


def test_weight_listing(net):
    assert [(p.name, p.data.tolist()) for p in net.trainable_params()] == [
        ("fc.weight", [[2.0, 3.0, 4.0]])]


def test_loss_scale_block(net, inputs):
    """Seed 004's StaticLossScaler example: scaled, unscaled, all finite."""
    loss_scale = ug.amp.StaticLossScaler(1024.)
    printed = []

    def forward_fn(x, y):
        loss, logits = net(x, y)
        printed.append(loss.item())
        loss = loss_scale.scale(loss)
        return loss, logits

    value_and_grad_func = ug.value_and_grad(forward_fn, grad_position=None,
                                            weights=net.trainable_params(), has_aux=True)
    (loss, logits), grad = value_and_grad_func(*inputs)
    assert printed == [1.0] and loss.item() == 1024.0 and logits.item() == 20.0
    assert isinstance(grad, tuple) and values(grad[0]) == [[2048.0, 4096.0, 6144.0]]
    loss = loss_scale.unscale(loss)
    grad = loss_scale.unscale(grad)
    assert loss.item() == 1.0
    assert isinstance(grad, tuple) and values(grad[0]) == [[2.0, 4.0, 6.0]]
    state = ug.amp.all_finite(grad)
    assert state.dtype == ug.bool and bool(state) is True


def test_clip_by_global_norm_of_the_seed_grads(net, inputs):
    """Seed 004's clipping line: ``grad = ops.clip_by_global_norm(grad)`` (norm sqrt(56))."""
    grad = ug.grad(net, None, net.trainable_params(), has_aux=True)(*inputs)[0]
    clipped = ug.ops.clip_by_global_norm(grad)
    np.testing.assert_allclose(clipped[0].numpy(), np.array([[2.0, 4.0, 6.0]]) / np.sqrt(56.0),
                               rtol=1e-6)
