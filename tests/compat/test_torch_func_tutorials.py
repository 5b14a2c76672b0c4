"""The torch.func tutorials' vmap patterns, written as the tutorials write them.

Each test is the tutorial's code with ``import torch`` replaced by
``import unigrad.compat.torch as torch`` (per-sample gradients, model ensembling,
Jacobians, Hessians and batched Jacobians); the numbers are checked against a Python
loop, and against PyTorch itself where it is installed.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.torch as torch
import unigrad.compat.torch.nn as nn
import unigrad.compat.torch.nn.functional as F
from unigrad.compat.torch.func import (
    functional_call,
    grad,
    hessian,
    jacfwd,
    jacrev,
    stack_module_state,
    vjp,
    vmap,
)

TEXT_NAMES = "torch"  # PyTorch's names in text forms (tests/conftest.py)

try:
    import torch as real_torch
except ImportError:  # the cross-checks below are skipped
    real_torch = None


class SimpleCNN(nn.Module):
    """The per-sample-gradients tutorial's model (smaller)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.fc1 = nn.Linear(4 * 3 * 3, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        return F.log_softmax(x, dim=1)


def test_per_sample_gradients_tutorial():
    torch.manual_seed(0)
    batch_size = 8
    data = torch.randn(batch_size, 1, 8, 8)
    targets = torch.randint(10, (batch_size,))
    model = SimpleCNN()

    def loss_fn(predictions, targets):
        return F.nll_loss(predictions, targets)

    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.detach() for k, v in model.named_buffers()}

    def compute_loss(params, buffers, sample, target):
        batch = sample.unsqueeze(0)
        targets = target.unsqueeze(0)
        predictions = functional_call(model, (params, buffers), (batch,))
        return loss_fn(predictions, targets)

    ft_compute_grad = grad(compute_loss)
    ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
    ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)

    for index in range(batch_size):
        model.zero_grad()
        loss_fn(model(data[index].unsqueeze(0)), targets[index].unsqueeze(0)).backward()
        for name, parameter in model.named_parameters():
            np.testing.assert_allclose(ft_per_sample_grads[name][index].numpy(),
                                       parameter.grad.numpy(), rtol=1e-4, atol=1e-6)


def test_model_ensembling_tutorial():
    torch.manual_seed(0)
    num_models = 5
    minibatches = torch.randn(num_models, 16, 6)
    models = [nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3))
              for _ in range(num_models)]
    params, buffers = stack_module_state(models)
    base_model = models[0]

    def fmodel(params, buffers, x):
        return functional_call(base_model, (params, buffers), (x,))

    predictions_diff_minibatch = vmap(fmodel)(params, buffers, minibatches)
    predictions_same_minibatch = vmap(fmodel, in_dims=(0, 0, None))(params, buffers,
                                                                      minibatches[0])
    for index, model in enumerate(models):
        np.testing.assert_allclose(predictions_diff_minibatch[index].detach().numpy(),
                                   model(minibatches[index]).detach().numpy(), rtol=1e-5)
        np.testing.assert_allclose(predictions_same_minibatch[index].detach().numpy(),
                                   model(minibatches[0]).detach().numpy(), rtol=1e-5)


def _predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


def test_jacobians_tutorial():
    torch.manual_seed(0)
    d = 6
    weight = torch.randn(d, d, dtype=torch.float64)
    bias = torch.randn(d, dtype=torch.float64)
    x = torch.randn(d, dtype=torch.float64)

    # vjp against the identity, one row at a time, as the tutorial starts
    _, vjp_fn = vjp(lambda x: _predict(weight, bias, x), x)
    unit_vectors = torch.eye(d, dtype=torch.float64)
    rows = [vjp_fn(vector)[0] for vector in unit_vectors]
    jacobian_rows = torch.stack(rows)
    # ... then the same with vmap, then jacrev and jacfwd
    (jacobian_vmap,) = vmap(vjp_fn)(unit_vectors)
    jacobian_rev = jacrev(_predict, argnums=2)(weight, bias, x)
    jacobian_fwd = jacfwd(_predict, argnums=2)(weight, bias, x)
    expected = (1 - np.tanh(weight.numpy() @ x.numpy() + bias.numpy()) ** 2)[:, None] \
        * weight.numpy()
    for jacobian in (jacobian_rows, jacobian_vmap, jacobian_rev, jacobian_fwd):
        np.testing.assert_allclose(jacobian.numpy(), expected, rtol=1e-12)
    weight_jacobian, bias_jacobian = jacrev(_predict, argnums=(0, 1))(weight, bias, x)
    assert tuple(weight_jacobian.shape) == (d, d, d) and tuple(bias_jacobian.shape) == (d, d)


def test_batched_jacobians_and_hessians_tutorial():
    torch.manual_seed(0)
    batch_size, d = 4, 5
    weight = torch.randn(d, d, dtype=torch.float64)
    bias = torch.randn(d, dtype=torch.float64)
    x = torch.randn(batch_size, d, dtype=torch.float64)
    compute_batch_jacobian = vmap(jacrev(_predict, argnums=2), in_dims=(None, None, 0))
    batch_jacobian = compute_batch_jacobian(weight, bias, x)
    assert tuple(batch_jacobian.shape) == (batch_size, d, d)
    for index in range(batch_size):
        np.testing.assert_allclose(batch_jacobian[index].numpy(),
                                   jacrev(_predict, argnums=2)(weight, bias, x[index]).numpy(),
                                   rtol=1e-12)
    hess_api = hessian(_predict, argnums=2)(weight, bias, x[0])
    hess_fwdrev = jacfwd(jacrev(_predict, argnums=2), argnums=2)(weight, bias, x[0])
    np.testing.assert_allclose(hess_api.numpy(), hess_fwdrev.numpy(), rtol=1e-12)
    assert tuple(hess_api.shape) == (d, d, d)
    batch_hessian = vmap(hessian(_predict, argnums=2), in_dims=(None, None, 0))(weight, bias, x)
    np.testing.assert_allclose(batch_hessian[0].numpy(), hess_api.numpy(), rtol=1e-12)


@pytest.mark.torch
@pytest.mark.skipif(real_torch is None, reason="torch is not installed")
def test_the_tutorials_numbers_match_pytorch():
    rng = np.random.default_rng(0)
    d = 5
    weight, bias = rng.standard_normal((d, d)), rng.standard_normal(d)
    xs = rng.standard_normal((3, d))

    def real_predict(w, b, x):
        return real_torch.nn.functional.linear(x, w, b).tanh()

    args = (torch.tensor(weight), torch.tensor(bias), torch.tensor(xs))
    real_args = tuple(real_torch.tensor(a) for a in (weight, bias, xs))
    ours = vmap(hessian(_predict, argnums=2), in_dims=(None, None, 0))(*args)
    theirs = real_torch.func.vmap(real_torch.func.hessian(real_predict, argnums=2),
                                  in_dims=(None, None, 0))(*real_args)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10)
    ours = jacrev(_predict, argnums=(0, 1))(args[0], args[1], args[2][0])
    theirs = real_torch.func.jacrev(real_predict, argnums=(0, 1))(*real_args[:2],
                                                                  real_args[2][0])
    for mine, real in zip(ours, theirs):
        np.testing.assert_allclose(mine.numpy(), real.numpy(), rtol=1e-10)


def test_autograd_functional_vectorize_matches_the_loop():
    from unigrad.compat.torch.autograd.functional import hessian as functional_hessian
    from unigrad.compat.torch.autograd.functional import jacobian

    torch.manual_seed(0)
    inputs = (torch.randn(3, dtype=torch.float64), torch.randn(3, dtype=torch.float64))
    unused = torch.randn(2, dtype=torch.float64)

    def f(a, b, c):
        return (a * b).tanh(), (a ** 2).sum()

    for vectorized, looped in zip(
            [block for row in jacobian(f, (*inputs, unused), vectorize=True) for block in row],
            [block for row in jacobian(f, (*inputs, unused)) for block in row]):
        np.testing.assert_allclose(vectorized.numpy(), looped.numpy(), rtol=1e-12)
    np.testing.assert_allclose(
        functional_hessian(lambda a: (a ** 3).sum(), inputs[0], vectorize=True).numpy(),
        np.diag(6 * inputs[0].numpy()), rtol=1e-12)
    with pytest.raises(RuntimeError, match="strict=True"):
        jacobian(f, (*inputs, unused), strict=True, vectorize=True)
