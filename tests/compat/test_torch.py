"""unigrad.compat.torch: PyTorch's names, signatures, reprs and results on unigrad's engine."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.compat.torch as torch
import unigrad.compat.torch.nn as nn
import unigrad.compat.torch.nn.functional as F
from unigrad.compat.torch.autograd import Variable
from unigrad.compat.torch.autograd import functional as AF

TEXT_NAMES = "torch"  # PyTorch's names in text forms (tests/conftest.py)

# ----------------------------------------------------------------------------- names

def test_every_exported_name_resolves():
    for module in (torch, torch.autograd, torch.autograd.functional, torch.nn, F, nn.init,
                   nn.utils, torch.optim, torch.optim.lr_scheduler, torch.func):
        for name in module.__all__:
            assert getattr(module, name) is not None, (module.__name__, name)


def test_core_objects_are_unigrad_objects():
    assert torch.Tensor is ug.Tensor and torch.tensor is ug.tensor
    assert torch.nn.functional is F and torch.nn.Linear is ug.nn.Linear
    assert torch.autograd.Variable is ug.autograd.Variable
    assert torch.optim.SGD is ug.optim.SGD


def test_dtypes():
    assert torch.float is torch.float32 is ug.float32
    assert torch.double is torch.float64 and torch.long is torch.int64
    assert torch.half is torch.float16 and torch.int is torch.int32 and torch.bool is ug.bool_
    assert torch.tensor(1.0).dtype is torch.float32
    assert torch.tensor(1).dtype is torch.long
    assert torch.get_default_dtype() is torch.float32


@pytest.mark.parametrize("module, name", [(torch, "vmap_typo"), (torch.nn, "Dense"),
                                          (F, "no_such_fn"), (torch.func, "functional_call2"),
                                          (torch.optim, "Momentum")])
def test_unknown_attribute_is_an_attribute_error_naming_it(module, name):
    with pytest.raises(AttributeError, match=name):
        getattr(module, name)


def test_nn_functional_imports_both_ways():
    import importlib
    assert importlib.import_module("unigrad.compat.torch.nn.functional") is torch.nn.functional
    from unigrad.compat.torch.optim.lr_scheduler import StepLR
    assert StepLR is ug.optim.lr_scheduler.StepLR


# ----------------------------------------------------------------------------- math

UNARY = [("sin", np.sin, np.cos), ("cos", np.cos, lambda x: -np.sin(x)),
         ("exp", np.exp, np.exp), ("tanh", np.tanh, lambda x: 1 - np.tanh(x) ** 2),
         ("sqrt", np.sqrt, lambda x: 0.5 / np.sqrt(x)), ("log", np.log, lambda x: 1 / x),
         ("sigmoid", lambda x: 1 / (1 + np.exp(-x)),
          lambda x: np.exp(-x) / (1 + np.exp(-x)) ** 2)]


@pytest.mark.parametrize("name, f, df", UNARY, ids=[u[0] for u in UNARY])
def test_unary_math_value_and_gradient(name, f, df):
    data = np.array([0.3, 1.2, 2.5])
    x = torch.tensor(data, dtype=torch.float64, requires_grad=True)
    y = getattr(torch, name)(x)
    np.testing.assert_allclose(y.detach().numpy(), f(data), rtol=1e-12)
    (g,) = torch.autograd.grad(y.sum(), x)
    np.testing.assert_allclose(g.numpy(), df(data), rtol=1e-10)


def test_reductions_matmul_cat_stack_where():
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    assert torch.sum(a, dim=1).tolist() == [3.0, 7.0]
    assert torch.mean(a, 0, keepdim=True).tolist() == [[2.0, 3.0]]
    values, indices = torch.max(a, dim=1)
    assert values.tolist() == [2.0, 4.0] and indices.tolist() == [1, 1]
    assert torch.matmul(a, a).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    assert torch.cat([a, a], dim=0).shape == (4, 2)
    assert torch.stack([a, a]).shape == (2, 2, 2)
    assert torch.where(a > 2, a, torch.zeros_like(a)).tolist() == [[0.0, 0.0], [3.0, 4.0]]
    (g,) = torch.autograd.grad(torch.matmul(a, a).sum(), a)
    np.testing.assert_allclose(g.numpy(), np.ones((2, 2)) @ a.detach().numpy().T
                               + a.detach().numpy().T @ np.ones((2, 2)))


def test_creation_and_seed():
    assert torch.zeros(2, 3).shape == (2, 3) and torch.ones(2).tolist() == [1.0, 1.0]
    assert torch.full((2,), 7.0).tolist() == [7.0, 7.0]
    assert torch.arange(0, 5, 2).tolist() == [0, 2, 4]
    assert torch.linspace(0, 1, 3).tolist() == [0.0, 0.5, 1.0]
    assert torch.eye(2).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    torch.manual_seed(3)
    first = torch.randn(4)
    torch.manual_seed(3)
    assert torch.equal(first, torch.randn(4))
    assert torch.empty(3).shape == (3,) and torch.rand(2, 2).shape == (2, 2)


def test_equal_isclose_allclose_numel_is_tensor():
    a = torch.tensor([1.0, 2.0])
    assert torch.equal(a, torch.tensor([1.0, 2.0])) is True
    assert torch.equal(a, torch.tensor([1.0, 2.0, 3.0])) is False
    assert torch.isclose(a, torch.tensor([1.0, 2.5])).tolist() == [True, False]
    assert torch.allclose(a, a + 1e-9) and not torch.allclose(a, a + 1.0)
    assert torch.numel(torch.zeros(2, 5)) == 10
    assert torch.is_tensor(a) and not torch.is_tensor(1.0)
    with pytest.raises(TypeError, match="argument 'input' must be Tensor"):
        torch.numel([1, 2])


# ----------------------------------------------------------------------------- grad modes

def test_grad_modes():
    x = torch.tensor(1.0, requires_grad=True)
    with torch.no_grad():
        assert not (x * 2).requires_grad and not torch.is_grad_enabled()
        with torch.enable_grad():
            assert (x * 2).requires_grad
    with torch.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    with torch.inference_mode():
        assert not (x * 2).requires_grad
    assert torch.is_grad_enabled()


def test_variable_and_backward_accumulate():
    x = Variable(torch.ones(2, 2), requires_grad=True)
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    assert x.grad.tolist() == [[6.0, 6.0], [6.0, 6.0]]


def test_autograd_errors_follow_pytorch():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        (x * 2).backward()
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        y.backward()


def test_autograd_function_and_gradcheck():
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x ** 2

    x = torch.tensor([1.0, 2.0], dtype=torch.double, requires_grad=True)
    Cube.apply(x).sum().backward()
    assert x.grad.tolist() == [3.0, 12.0]
    assert torch.autograd.gradcheck(Cube.apply, (x,))
    assert torch.autograd.gradgradcheck(lambda t: (t ** 3).sum(), (x,))


def test_forward_ad():
    import unigrad.compat.torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        dual = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        tangent = fwAD.unpack_dual(dual * dual).tangent
    assert tangent.tolist() == [2.0, 4.0]


# ----------------------------------------------------------------------------- autograd.functional

def cubic(x):
    return (x ** 3).sum()


def test_functional_jacobian_structures():
    x = torch.tensor([1.0, 2.0])
    y = torch.tensor([3.0, 5.0])
    jac = AF.jacobian(lambda a: a ** 2, x)
    assert isinstance(jac, ug.Tensor) and jac.tolist() == [[2.0, 0.0], [0.0, 4.0]]
    ja, jb = AF.jacobian(lambda a, b: a * b, (x, y))
    assert ja.tolist() == [[3.0, 0.0], [0.0, 5.0]] and jb.tolist() == [[1.0, 0.0], [0.0, 2.0]]
    (j_out0, j_out1) = AF.jacobian(lambda a: (a.sum(), a * 2), x)
    assert j_out0.tolist() == [1.0, 1.0] and j_out1.tolist() == [[2.0, 0.0], [0.0, 2.0]]
    nested = AF.jacobian(lambda a, b: (a * b, a + b), (x, y))
    assert len(nested) == 2 and len(nested[0]) == 2
    assert nested[1][1].tolist() == [[1.0, 0.0], [0.0, 1.0]]
    unused = AF.jacobian(lambda a, b: a * 2, (x, y))
    assert unused[1].tolist() == [[0.0, 0.0], [0.0, 0.0]]
    with pytest.raises(RuntimeError, match="independent of input 1"):
        AF.jacobian(lambda a, b: a * 2, (x, y), strict=True)
    with pytest.raises(ValueError, match="strategy"):
        AF.jacobian(lambda a: a, x, strategy="sideways")
    with pytest.raises(TypeError, match="must be either a Tensor or a tuple of Tensors"):
        AF.jacobian(lambda a: a, [1.0, 2.0])


def test_functional_hessian_vjp_jvp_hvp_vhp_closed_forms():
    x = torch.tensor([1.0, 2.0])
    v = torch.tensor([1.0, -1.0])
    assert AF.hessian(cubic, x).tolist() == [[6.0, 0.0], [0.0, 12.0]]
    out, g = AF.vjp(lambda a: a ** 2, x, v)
    assert out.tolist() == [1.0, 4.0] and g.tolist() == [2.0, -4.0]
    out, t = AF.jvp(lambda a: a ** 2, x, v)
    assert out.tolist() == [1.0, 4.0] and t.tolist() == [2.0, -4.0]
    out, hv = AF.hvp(cubic, x, v)
    assert out.item() == 9.0 and hv.tolist() == [6.0, -12.0]
    out, vh = AF.vhp(cubic, x, v)
    assert out.item() == 9.0 and vh.tolist() == [6.0, -12.0]
    with pytest.raises(RuntimeError, match="v can only be None"):
        AF.vjp(lambda a: a ** 2, x)
    with pytest.raises(RuntimeError, match="invalid size"):
        AF.vjp(lambda a: a ** 2, x, torch.ones(3))
    with pytest.raises(RuntimeError, match="should return a single Tensor|single element"):
        AF.hessian(lambda a: a * 2, x)
    assert not out.requires_grad and not hv.requires_grad


def test_functional_create_graph_keeps_the_graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    _, g = AF.vjp(cubic, x, create_graph=True)
    assert g.requires_grad
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [6.0, 12.0]


# ----------------------------------------------------------------------------- torch.func

def test_func_grad_argnums_and_aux():
    f = lambda a, b: (a * a * b).sum()  # noqa: E731
    a, b = torch.tensor([1.0, 2.0]), torch.tensor(3.0)
    assert torch.func.grad(f)(a, b).tolist() == [6.0, 12.0]
    ga, gb = torch.func.grad(f, argnums=(0, 1))(a, b)
    assert ga.tolist() == [6.0, 12.0] and gb.item() == 5.0
    g, aux = torch.func.grad(lambda t: ((t ** 2).sum(), {"n": t.sum()}), has_aux=True)(a)
    assert g.tolist() == [2.0, 4.0] and aux["n"].item() == 3.0
    grad, (value, aux) = torch.func.grad_and_value(lambda t: ((t ** 2).sum(), t * 0),
                                                   has_aux=True)(a)
    assert value.item() == 5.0 and grad.tolist() == [2.0, 4.0] and aux.tolist() == [0.0, 0.0]
    assert torch.func.grad(torch.func.grad(lambda t: t ** 3))(torch.tensor(2.0)).item() == 12.0
    with pytest.raises(RuntimeError, match="scalar Tensor"):
        torch.func.grad(lambda t: t * 2)(a)
    with pytest.raises(RuntimeError, match="tuple"):
        torch.func.grad(lambda t: t.sum(), has_aux=True)(a)
    with pytest.raises(RuntimeError, match="argnums"):
        torch.func.grad(f, argnums=2.5)


def test_func_vjp_jvp_jacobians():
    x = torch.tensor([1.0, 2.0])
    out, vjp_fn = torch.func.vjp(lambda t: t ** 2, x)
    assert out.tolist() == [1.0, 4.0] and vjp_fn(torch.ones(2))[0].tolist() == [2.0, 4.0]
    out, tangent = torch.func.jvp(lambda t: t ** 2, (x,), (torch.ones(2),))
    assert tangent.tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError, match="Expected primals to be a tuple"):
        torch.func.jvp(lambda t: t, x, (x,))
    assert torch.func.jacrev(lambda t: t ** 2)(x).tolist() == [[2.0, 0.0], [0.0, 4.0]]
    assert torch.func.jacfwd(lambda t: t ** 2)(x).tolist() == [[2.0, 0.0], [0.0, 4.0]]
    assert torch.func.hessian(cubic)(x).tolist() == [[6.0, 0.0], [0.0, 12.0]]


# ----------------------------------------------------------------------------- nn, optim, compile

def test_nn_module_training_step_matches_unigrad_optimizer():
    def make():
        ug.manual_seed(0)
        return nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1))

    x, target = torch.ones(4, 3), torch.zeros(4, 1)
    model_a, model_b = make(), make()
    opt_a = torch.optim.Adam(model_a.parameters(), lr=0.1)
    opt_b = ug.optim.Adam(model_b.parameters(), lr=0.1)
    for model, opt in ((model_a, opt_a), (model_b, opt_b)):
        for _ in range(3):
            opt.zero_grad()
            F.mse_loss(model(x), target).backward()
            opt.step()
    for pa, pb in zip(model_a.parameters(), model_b.parameters()):
        np.testing.assert_array_equal(pa.detach().numpy(), pb.detach().numpy())


def test_sgd_step_closed_form_and_clip_grad_norm():
    w = nn.Parameter(torch.tensor([3.0, 4.0]))
    opt = torch.optim.SGD([w], lr=0.5)
    (w * w).sum().backward()
    total = nn.utils.clip_grad_norm_([w], max_norm=5.0)
    assert total.item() == pytest.approx(10.0)
    np.testing.assert_allclose(w.grad.numpy(), [3.0, 4.0], rtol=1e-6)
    opt.step()
    np.testing.assert_allclose(w.detach().numpy(), [1.5, 2.0], rtol=1e-6)


def test_init_and_functional():
    w = torch.empty(3, 4)
    nn.init.xavier_uniform_(w)
    bound = np.sqrt(6.0 / 7.0)
    assert np.all(np.abs(w.numpy()) <= bound)
    logits = torch.tensor([[1.0, 2.0, 3.0]])
    np.testing.assert_allclose(F.softmax(logits, dim=-1).numpy(),
                               np.exp([[1, 2, 3]]) / np.exp([1, 2, 3]).sum(), rtol=1e-6)
    loss = F.cross_entropy(logits, torch.tensor([2]))
    assert loss.item() == pytest.approx(np.log(np.exp([1, 2, 3]).sum()) - 3, rel=1e-6)


def test_compile_is_jit_and_ignores_options():
    calls = []

    def f(x):
        calls.append(1)
        return torch.sin(x) * 2

    compiled = torch.compile(f, backend="inductor", mode="max-autotune", fullgraph=True)
    x = torch.tensor([0.5, 1.0])
    np.testing.assert_allclose(compiled(x).numpy(), 2 * np.sin([0.5, 1.0]), rtol=1e-6)
    compiled(torch.tensor([0.1, 0.2]))
    assert len(calls) == 1 and compiled.trace_count == 1
    assert torch.compile(f, disable=True) is f
    with pytest.raises(TypeError, match="callable"):
        torch.compile(3)


# ----------------------------------------------------------------------------- real PyTorch

@pytest.mark.torch
def test_against_real_pytorch():
    real = pytest.importorskip("torch")
    data = np.array([[0.5, -1.0], [2.0, 0.25]], dtype=np.float32)

    def program(lib, functional):
        x = lib.tensor(data, requires_grad=True)
        y = (lib.tanh(x) * lib.exp(x)).sum() + lib.matmul(x, x).pow(2).mean()
        (g,) = lib.autograd.grad(y, x)
        jac = functional.jacobian(lambda t: lib.sin(t) * t, lib.tensor(data[0]))
        hess = functional.hessian(lambda t: (t ** 3).sum(), lib.tensor(data[1]))
        return y.item(), g.detach().numpy(), jac.numpy(), hess.numpy()

    mine = program(torch, AF)
    import torch.autograd.functional as real_functional
    theirs = program(real, real_functional)
    assert mine[0] == pytest.approx(theirs[0], rel=1e-5)
    for a, b in zip(mine[1:], theirs[1:]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert repr(torch.tensor(2.0, requires_grad=True) * 3) == \
        repr(real.tensor(2.0, requires_grad=True) * 3)
