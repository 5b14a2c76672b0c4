"""Lamb and LARS (MindSpore's nn.Lamb / nn.LARS) against plain NumPy re-implementations.

MindSpore 2.10's CPU build cannot run either ("Unsupported op [Lamb/LARSUpdate] on CPU"), so
the references below are written from MindSpore's sources (nn/optim/lamb.py, lars.py and the
Lamb / LARSUpdate kernels): bias-corrected Adam moments, the update plus weight decay scaled
by ||w|| / ||update|| (1 when a norm is 0); LARS scales each kept gradient (plus decay) by
coefficient * ||w|| / (||g|| + decay * ||w|| + epsilon), clipped to the learning rate.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.optim as optim
from unigrad import nn
from unigrad.compat.mindspore import nn as msnn
from unigrad.nn.parameter import Parameter

SHAPES = {"w": (2, 3), "gamma": (3,), "bias": (3,)}


def _start(seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {name: rng.normal(size=shape) for name, shape in SHAPES.items()}


def _grads(step: int) -> dict:
    rng = np.random.default_rng(100 + step)
    return {name: rng.normal(size=shape) for name, shape in SHAPES.items()}


def _parameters(values: dict) -> list:
    return [Parameter(ug.tensor(value.copy()), name=name) for name, value in values.items()]


def _norm(array: np.ndarray) -> float:
    return float(np.sqrt(np.sum(array * array)))


def _lamb_reference(values: dict, steps: int, settings: dict) -> dict:
    """``settings``: name -> (lr, beta1, beta2, eps, weight_decay applied to it)."""
    values = {name: value.copy() for name, value in values.items()}
    first = {name: np.zeros_like(value) for name, value in values.items()}
    second = {name: np.zeros_like(value) for name, value in values.items()}
    for t in range(1, steps + 1):
        for name, grad in _grads(t).items():
            lr, beta1, beta2, eps, decay = settings[name]
            first[name] = beta1 * first[name] + (1 - beta1) * grad
            second[name] = beta2 * second[name] + (1 - beta2) * grad * grad
            m_hat = first[name] / (1 - beta1 ** t)
            v_hat = second[name] / (1 - beta2 ** t)
            update = m_hat / (np.sqrt(v_hat) + eps) + decay * values[name]
            w_norm, u_norm = _norm(values[name]), _norm(update)
            ratio = w_norm / u_norm if w_norm > 0 and u_norm > 0 else 1.0
            values[name] = values[name] - lr * ratio * update
    return values


def _run(opt, params: list, steps: int, style: str) -> dict:
    for t in range(1, steps + 1):
        grads = [ug.tensor(g) for g in _grads(t).values()]
        if style == "call":
            assert opt(tuple(grads)) is True
        else:
            opt.zero_grad()
            for param, grad in zip(params, grads):
                param.grad = grad
            assert opt.step() is None
    return {param.name: param.detach().numpy() for param in params}


def _assert_close(got: dict, want: dict, rtol: float = 1e-12) -> None:
    assert sorted(got) == sorted(want)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=rtol, atol=1e-14, err_msg=name)


@pytest.mark.parametrize("style", ["call", "step"])
def test_native_lamb_groups_match_the_reference(style):
    start = _start()
    params = _parameters(start)
    opt = optim.Lamb([{"params": params[:1], "lr": 0.05, "weight_decay": 0.1},
                      {"params": params[1:]}], lr=0.02, betas=(0.8, 0.99), eps=1e-4)
    got = _run(opt, params, 4, style)
    settings = {"w": (0.05, 0.8, 0.99, 1e-4, 0.1), "gamma": (0.02, 0.8, 0.99, 1e-4, 0.0),
                "bias": (0.02, 0.8, 0.99, 1e-4, 0.0)}
    _assert_close(got, _lamb_reference(start, 4, settings))
    state = opt.state[params[0]]
    assert sorted(state) == ["exp_avg", "exp_avg_sq", "step"] and state["step"].item() == 4.0


def test_mindspore_lamb_float32_betas_and_decay_filter():
    """A flat list: no decay for 'gamma'; beta1/beta2 are MindSpore's float32 numbers."""
    start = _start(1)
    params = _parameters(start)
    opt = msnn.Lamb(params, learning_rate=0.1, beta1=0.85, beta2=0.95, weight_decay=0.2)
    got = _run(opt, params, 3, "call")
    beta1, beta2 = float(np.float32(0.85)), float(np.float32(0.95))
    settings = {name: (0.1, beta1, beta2, 1e-6, 0.0 if name == "gamma" else 0.2)
                for name in SHAPES}
    _assert_close(got, _lamb_reference(start, 3, settings))
    float64_betas = {name: (0.1, 0.85, 0.95, 1e-6, value[4]) for name, value in settings.items()}
    assert not np.allclose(got["w"], _lamb_reference(start, 3, float64_betas)["w"],
                           rtol=1e-12, atol=0)


def test_lamb_zero_norms_give_ratio_one_and_dynamic_lr():
    zero = Parameter(ug.zeros(3, dtype=ug.float64), name="z")
    other = Parameter(ug.tensor([1.0, 2.0], dtype=ug.float64), name="o")
    opt = optim.Lamb([zero, other], learning_rate=[0.1, 0.01])
    opt((ug.tensor([1.0, -1.0, 0.0], dtype=ug.float64), ug.zeros(2, dtype=ug.float64)))
    # ||w|| = 0: the plain Adam step of lr; a zero update leaves the parameter as it is
    np.testing.assert_allclose(zero.detach().numpy(),
                               [-0.1 / (1 + 1e-6), 0.1 / (1 + 1e-6), 0.0], rtol=1e-12)
    assert other.tolist() == [1.0, 2.0]
    opt((ug.tensor([1.0, -1.0, 0.0], dtype=ug.float64), None))
    # second step, lr 0.01, ||w|| > 0 now: the step has length 0.01 * ||w||
    before = np.array([-0.1, 0.1, 0.0]) / (1 + 1e-6)
    step = zero.detach().numpy() - before
    np.testing.assert_allclose(_norm(step), 0.01 * _norm(before), rtol=1e-12)


def test_lamb_state_dict_round_trip():
    start = _start(2)
    params = _parameters(start)
    opt = optim.Lamb(params, lr=0.05, weight_decay=0.01)
    _run(opt, params, 2, "call")
    saved = opt.state_dict()
    assert saved["param_groups"][0]["betas"] == (0.9, 0.999)
    copies = [Parameter(ug.tensor(p.detach().numpy().copy()), name=p.name) for p in params]
    other = optim.Lamb(copies, lr=0.05, weight_decay=0.01)
    other.load_state_dict(saved)
    for t in (3, 4):
        grads = tuple(ug.tensor(g) for g in _grads(t).values())
        opt(grads)
        other(grads)
    for mine, theirs in zip(params, copies):
        np.testing.assert_array_equal(mine.detach().numpy(), theirs.detach().numpy())
    assert other.state[copies[0]]["step"].item() == 4.0


def _graph_losses(make_optimizer, compiled: bool):
    ug.manual_seed(0)
    model = nn.Linear(3, 2)
    opt = make_optimizer(model.parameters())
    rng = np.random.default_rng(0)

    def step(x, y):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        return loss.detach()

    if compiled:
        step = ug.jit(step)
    losses = [step(ug.tensor(rng.normal(size=(4, 3)).astype(np.float32)),
                   ug.tensor(rng.normal(size=(4, 2)).astype(np.float32))).item()
              for _ in range(5)]
    assert not compiled or 1 <= step.trace_count <= 2  # replayed, not traced each time
    return losses, [p.detach().numpy() for p in model.parameters()]


@pytest.mark.parametrize("make", [
    lambda params: optim.Lamb(params, lr=0.05, weight_decay=0.01),
    lambda params: optim.LARS(optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=0.01),
                              coefficient=0.01, use_clip=True),
], ids=["Lamb", "LARS"])
def test_graph_mode_step_equals_the_eager_one(make):
    eager_losses, eager_params = _graph_losses(make, compiled=False)
    graph_losses, graph_params = _graph_losses(make, compiled=True)
    # float32 parameters: the traced rule may round differently in the last bits
    np.testing.assert_allclose(graph_losses, eager_losses, rtol=1e-6)
    assert eager_losses[-1] != eager_losses[0]
    for got, want in zip(graph_params, eager_params):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"beta1": 1.0}, ValueError,
     "For 'Lamb', the 'beta1' must be in range of (0.0, 1.0), but got 1.0 with type 'float'."),
    ({"beta2": 0.0}, ValueError, "the 'beta2' must be in range of (0.0, 1.0), but got 0.0"),
    ({"beta1": 1}, TypeError,
     "For 'Lamb', the type of 'beta1' should be 'float', but got type 'int'."),
    ({"eps": 0.0}, ValueError,
     "For 'Lamb', the 'eps' must be float and must > 0, but got '0.0' with type 'float'."),
    ({"learning_rate": -0.1}, ValueError,
     "For 'Lamb', the 'learning rate' must be float and must >= 0, but got '-0.1'"),
    ({"weight_decay": -1}, ValueError, "the 'weight_decay' must be float and must >= 0"),
])
def test_mindspore_lamb_errors(kwargs, error, message):
    param = Parameter(ug.tensor([1.0, 2.0]), name="w")
    arguments = {"learning_rate": 0.1, **kwargs}
    with pytest.raises(error) as caught:
        msnn.Lamb([param], **arguments)
    assert message in str(caught.value)
    assert param.tolist() == [1.0, 2.0]


def test_native_lamb_errors_change_nothing():
    param = Parameter(ug.tensor([1.0, 2.0]), name="w")
    with pytest.raises(ValueError, match="Invalid beta parameter at index 0: 1.0"):
        optim.Lamb([param], betas=(1.0, 0.9))
    with pytest.raises(ValueError, match="Invalid epsilon value: -1"):
        optim.Lamb([param], eps=-1)
    opt = optim.Lamb([param], lr=0.1)
    with pytest.raises(ValueError, match="has shape"):
        opt((ug.ones(3),))
    assert param.tolist() == [1.0, 2.0] and not opt.state


# ------------------------------------------------------------------------------------ LARS

def _lars_reference(values: dict, steps: int, lrs: list, momentum: float, decay: float,
                    scale: float, epsilon: float, coefficient: float, use_clip: bool) -> dict:
    """LARS around MindSpore's Momentum on the flat ``SHAPES`` list: 'bias' is filtered out
    of LARS, 'gamma' is not decayed; the gradients arrive multiplied by ``scale``."""
    values = {name: value.copy() for name, value in values.items()}
    buffers = {name: np.zeros_like(value) for name, value in values.items()}
    for t in range(1, steps + 1):
        lr = lrs[min(t - 1, len(lrs) - 1)]
        for name, grad in _grads(t).items():
            grad = grad * scale / scale
            if name != "bias":
                d = 0.0 if name == "gamma" else decay
                w_norm = _norm(values[name])
                c = coefficient * w_norm / (_norm(grad) + d * w_norm + epsilon)
                if use_clip:
                    c = min(c / lr, 1.0) * lr
                grad = (grad + d * values[name]) * c
            buffers[name] = momentum * buffers[name] + grad
            values[name] = values[name] - lr * buffers[name]
    return values


@pytest.mark.parametrize("use_clip", [False, True])
@pytest.mark.parametrize("style", ["call", "step"])
def test_lars_around_momentum_matches_the_reference(use_clip, style):
    start = _start(3)
    params = _parameters(start)
    lrs = [0.5, 0.2, 0.01]
    inner = msnn.Momentum(params, learning_rate=lrs, momentum=0.9, weight_decay=0.1,
                          loss_scale=4.0)
    opt = msnn.LARS(inner, epsilon=1e-3, coefficient=0.05, use_clip=use_clip)
    assert opt.lars_flag == (True, True, False) and opt.decay_flags == (True, False, True)
    assert inner.param_groups[0]["weight_decay"] == 0.0 and inner.loss_scale == 1.0
    scaled = {t: {n: g * 4.0 for n, g in _grads(t).items()} for t in range(1, 4)}
    for t in range(1, 4):
        grads = [ug.tensor(g) for g in scaled[t].values()]
        if style == "call":
            assert opt(tuple(grads)) is True
        else:
            opt.zero_grad()
            for param, grad in zip(params, grads):
                param.grad = grad
            opt.step()
    got = {param.name: param.detach().numpy() for param in params}
    want = _lars_reference(start, 3, lrs, 0.9, 0.1, 4.0, 1e-3, 0.05, use_clip)
    _assert_close(got, want)
    # clipping changes the result here (the early rates are large)
    other = _lars_reference(start, 3, lrs, 0.9, 0.1, 4.0, 1e-3, 0.05, not use_clip)
    assert not np.allclose(got["w"], other["w"])
    assert inner.global_step == 3 and opt.global_step == 3


def test_lars_around_lamb_and_the_default_filter():
    start = {"layer.weight": np.array([3.0, 4.0]), "LayerNorm.gamma": np.array([1.0, 0.0])}
    params = _parameters(start)
    opt = optim.LARS(optim.Lamb(params, lr=0.1))
    assert opt.lars_flag == (True, False)
    grads = (ug.tensor([0.0, 2.0], dtype=ug.float64), ug.tensor([1.0, 1.0], dtype=ug.float64))
    opt(grads)
    c = 0.001 * 5.0 / (2.0 + 1e-5)
    lamb_only = _lamb_reference_single(start["layer.weight"], np.array([0.0, 2.0]) * c)
    np.testing.assert_allclose(params[0].detach().numpy(), lamb_only, rtol=1e-12)
    lamb_plain = _lamb_reference_single(start["LayerNorm.gamma"], np.array([1.0, 1.0]))
    np.testing.assert_allclose(params[1].detach().numpy(), lamb_plain, rtol=1e-12)


def _lamb_reference_single(value: np.ndarray, grad: np.ndarray) -> np.ndarray:
    m_hat, v_hat = grad, grad * grad  # first step: the bias correction cancels
    update = m_hat / (np.sqrt(v_hat) + 1e-6)
    w_norm, u_norm = _norm(value), _norm(update)
    ratio = w_norm / u_norm if w_norm > 0 and u_norm > 0 else 1.0
    return value - 0.1 * ratio * update


def test_lars_errors():
    param = Parameter(ug.tensor([1.0]), name="w")
    with pytest.raises(TypeError, match="the type of 'optimizer' should be 'Optimizer'"):
        msnn.LARS(object())
    sgd = optim.SGD([param], lr=0.1, weight_decay=0.5)
    with pytest.raises(TypeError, match="the type of 'epsilon' should be 'float', but got "
                                        "type 'int'"):
        msnn.LARS(sgd, epsilon=1)
    with pytest.raises(TypeError, match="the type of 'use_clip' should be 'bool'"):
        msnn.LARS(sgd, use_clip=1)
    assert sgd.param_groups[0]["weight_decay"] == 0.5  # untouched by the failed wraps
    other = Parameter(ug.tensor([1.0]), name="v")
    grouped = optim.SGD([{"params": [param], "lr": [0.1, 0.2]}, {"params": [other]}], lr=0.3)
    with pytest.raises(ValueError, match="dynamic learning rate and group learning rate"):
        msnn.LARS(grouped, use_clip=True)
    opt = msnn.LARS(optim.SGD([param], lr=0.1))
    with pytest.raises(ValueError, match="number of gradients"):
        opt((ug.ones(1), ug.ones(1)))
    assert param.tolist() == [1.0]
