"""WithLossCell, TrainOneStepCell, TrainOneStepWithLossScaleCell and the loss-scale update Cells."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad import nn

X = ug.tensor([[1.0, 2.0, 3.0]])
Y = ug.tensor([[19.0]])


def seed_dense():
    """Seed 004's Dense(3, 1, has_bias=False) with weight [[2, 3, 4]]: loss 1, grad [[2, 4, 6]]."""
    dense = nn.Dense(3, 1, has_bias=False)
    dense.weight.set_data(ug.tensor([[2.0, 3.0, 4.0]]))
    return dense


def loss_net(dense=None):
    return nn.WithLossCell(seed_dense() if dense is None else dense, nn.MSELoss())


def test_with_loss_cell_keeps_names_and_computes_the_loss():
    net = loss_net()
    assert net(X, Y).item() == 1.0
    assert [p.name for p in net.trainable_params()] == ["weight"]
    assert isinstance(net.backbone_network, nn.Dense)


def test_train_one_step_updates_like_the_hand_formula():
    dense = seed_dense()
    step = nn.TrainOneStepCell(loss_net(dense), ug.optim.SGD(dense.trainable_params(), lr=0.1))
    loss = step(X, Y)
    assert loss.item() == 1.0 and not loss.requires_grad
    np.testing.assert_allclose(dense.weight.numpy(force=True), [[1.8, 2.6, 3.4]], rtol=1e-6)
    assert dense.weight.grad is None  # MindSpore style never touches .grad
    # second step from the new weights: logits 1.8+5.2+10.2 = 17.2, grad 2*(17.2-19)*x
    step(X, Y)
    expected = np.array([[1.8, 2.6, 3.4]]) - 0.1 * 2 * (17.2 - 19.0) * np.array([[1.0, 2.0, 3.0]])
    np.testing.assert_allclose(dense.weight.numpy(force=True), expected, rtol=1e-5)


def test_sens_scales_the_gradient_and_return_grad_names_it():
    dense = seed_dense()
    optimizer = ug.optim.SGD(dense.trainable_params(), lr=0.1)
    step = nn.TrainOneStepCell(loss_net(dense), optimizer, sens=2.0, return_grad=True)
    loss, grads = step(X, Y)
    assert loss.item() == 1.0 and list(grads) == ["weight"]
    assert grads["weight"].tolist() == [[4.0, 8.0, 12.0]]
    np.testing.assert_allclose(dense.weight.numpy(force=True), [[1.6, 2.2, 2.8]], rtol=1e-6)


def test_train_one_step_errors():
    dense = seed_dense()
    optimizer = ug.optim.SGD(dense.trainable_params(), lr=0.1)
    with pytest.raises(ValueError, match="The input argument of 'sens' can not be 0."):
        nn.TrainOneStepCell(loss_net(dense), optimizer, sens=0)
    with pytest.raises(TypeError, match="'sens' must be a number"):
        nn.TrainOneStepCell(loss_net(dense), optimizer, sens="1")
    with pytest.raises(TypeError, match="'optimizer' must be a ug.optim optimizer"):
        nn.TrainOneStepCell(loss_net(dense), object())
    with pytest.raises(TypeError, match="'return_grad' must be bool"):
        nn.TrainOneStepCell(loss_net(dense), optimizer, return_grad=1)


def test_train_one_step_trains_a_small_regression():
    ug.manual_seed(0)
    x = ug.linspace(-1.0, 1.0, 32).reshape(32, 1)
    y = 3.0 * x - 0.5
    model = nn.Dense(1, 1)
    step = nn.TrainOneStepCell(nn.WithLossCell(model, nn.MSELoss()),
                               ug.optim.SGD(model.trainable_params(), lr=0.2))
    losses = [step(x, y).item() for _ in range(200)]
    assert losses[-1] < 1e-6 < losses[0]
    np.testing.assert_allclose(model.weight.numpy(force=True), [[3.0]], rtol=1e-3)
    np.testing.assert_allclose(model.bias.numpy(force=True), [-0.5], atol=1e-3)


# --------------------------------------------------------------- loss scaling
def test_dynamic_update_cell_rule():
    manager = nn.DynamicLossScaleUpdateCell(1024.0, scale_factor=2, scale_window=2)
    scale = nn.Parameter(ug.tensor(1024.0), "scale_sense", requires_grad=False)
    history = []
    for overflow in [False, False, False, True, False, False, False]:
        returned = manager(scale, overflow)
        assert returned is overflow
        history.append(float(scale))
    assert history == [1024.0, 2048.0, 2048.0, 1024.0, 1024.0, 2048.0, 2048.0]


def test_dynamic_update_cell_never_below_one():
    manager = nn.DynamicLossScaleUpdateCell(2.0, scale_factor=4, scale_window=100)
    scale = nn.Parameter(ug.tensor(2.0), "s", requires_grad=False)
    manager(scale, True)
    assert float(scale) == 1.0
    manager(scale, True)
    assert float(scale) == 1.0


def test_update_cell_errors():
    with pytest.raises(TypeError, match="'loss_scale_value' must be a float or int"):
        nn.DynamicLossScaleUpdateCell("1024", 2, 2)
    with pytest.raises(ValueError, match="'scale_window' must be a positive"):
        nn.DynamicLossScaleUpdateCell(1024.0, 2, 0)
    with pytest.raises(ValueError, match="'loss_scale_value' must be a positive"):
        nn.FixedLossScaleUpdateCell(-1.0)


def scaled_step(scale_sense, lr=0.1):
    dense = seed_dense()
    step = nn.TrainOneStepWithLossScaleCell(
        loss_net(dense), ug.optim.SGD(dense.trainable_params(), lr=lr), scale_sense)
    return dense, step


def test_loss_scale_step_matches_the_unscaled_step():
    dense, step = scaled_step(nn.FixedLossScaleUpdateCell(1024.0))
    loss, overflow, scale = step(X, Y)
    assert loss.item() == 1.0 and not bool(overflow) and scale.item() == 1024.0
    np.testing.assert_allclose(dense.weight.numpy(force=True), [[1.8, 2.6, 3.4]], rtol=1e-6)
    assert float(step.scale_sense) == 1024.0


def test_loss_scale_with_a_tensor_scale_and_set_sense_scale():
    dense, step = scaled_step(ug.tensor([8.0]))
    assert step.scale_sense.shape == (1,)
    step.set_sense_scale(ug.tensor([16.0]))
    _, overflow, scale = step(X, Y)
    assert scale.item() == 16.0 and not bool(overflow)
    np.testing.assert_allclose(dense.weight.numpy(force=True), [[1.8, 2.6, 3.4]], rtol=1e-6)
    with pytest.raises(TypeError, match="The input type must be Tensor"):
        step.set_sense_scale(4.0)


def test_overflow_skips_the_update_bit_identically_and_shrinks_the_scale():
    dense, step = scaled_step(nn.DynamicLossScaleUpdateCell(3e38, 2, 1000))
    before = dense.weight.numpy(force=True).copy()
    loss, overflow, scale = step(X, Y)  # 1 * 3e38 * 2 * ... overflows float32
    assert bool(overflow) and loss.item() == 1.0 and scale.item() == np.float32(3e38)
    assert dense.weight.numpy(force=True).tobytes() == before.tobytes()
    assert float(step.scale_sense) == np.float32(1.5e38)
    # the scale keeps shrinking until the step is clean, then the update happens
    for _ in range(200):
        _, overflow, _ = step(X, Y)
        if not bool(overflow):
            break
    assert not bool(overflow)
    np.testing.assert_allclose(dense.weight.numpy(force=True), [[1.8, 2.6, 3.4]], rtol=1e-5)


def test_loss_scale_cell_errors():
    dense = seed_dense()
    optimizer = ug.optim.SGD(dense.trainable_params(), lr=0.1)
    with pytest.raises(ValueError, match=r"the shape of 'scale_sense' must be \(1,\) or \(\), "
                                         r"but got \(2,\)"):
        nn.TrainOneStepWithLossScaleCell(loss_net(dense), optimizer, ug.tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="the 'scale_sense' must be Cell or Tensor, but got "
                                        "'scale_sense' type: float"):
        nn.TrainOneStepWithLossScaleCell(loss_net(dense), optimizer, 1024.0)
