"""nn.utils: parameters_to_vector / vector_to_parameters and batch-norm fusion, against PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad.nn import utils

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _copy_state(ours, theirs) -> None:
    ours.load_state_dict({name: ug.tensor(value.detach().numpy().copy())
                          for name, value in theirs.state_dict().items()})


def _batch_norm_pair(cls_name: str, features: int):
    """A BatchNorm in eval mode with non-trivial statistics and affine parameters."""
    theirs = getattr(torch.nn, cls_name)(features).double()
    rng = np.random.default_rng(3)
    with torch.no_grad():
        theirs.running_mean.copy_(torch.from_numpy(rng.standard_normal(features)))
        theirs.running_var.copy_(torch.from_numpy(rng.uniform(0.5, 2.0, features)))
        theirs.weight.copy_(torch.from_numpy(rng.standard_normal(features)))
        theirs.bias.copy_(torch.from_numpy(rng.standard_normal(features)))
    ours = getattr(ug.nn, cls_name)(features).double()
    _copy_state(ours, theirs)
    return ours.eval(), theirs.eval()


def test_parameters_to_vector_and_back_match_torch():
    theirs = torch.nn.Linear(3, 2).double()
    ours = ug.nn.Linear(3, 2).double()
    _copy_state(ours, theirs)
    vector = utils.parameters_to_vector(ours.parameters())
    expected = torch.nn.utils.parameters_to_vector(theirs.parameters())
    np.testing.assert_array_equal(vector.detach().numpy(), expected.detach().numpy())
    vector.sum().backward()  # differentiable, like torch's cat
    assert ours.weight.grad.tolist() == [[1.0] * 3] * 2
    new = np.arange(8.0)
    utils.vector_to_parameters(ug.tensor(new), ours.parameters())
    torch.nn.utils.vector_to_parameters(torch.from_numpy(new), theirs.parameters())
    for name, param in theirs.named_parameters():
        np.testing.assert_array_equal(dict(ours.named_parameters())[name].detach().numpy(),
                                      param.detach().numpy())


def test_vector_to_parameters_checks_its_arguments():
    layer = ug.nn.Linear(2, 1)
    before = layer.weight.tolist()
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        utils.vector_to_parameters([1.0, 2.0, 3.0], layer.parameters())
    with pytest.raises(RuntimeError, match="must be 1-D with 3 elements"):
        utils.vector_to_parameters(ug.zeros(4), layer.parameters())
    assert layer.weight.tolist() == before


@pytest.mark.parametrize(("conv", "bn", "transpose"), [
    ("Conv1d", "BatchNorm1d", False), ("Conv2d", "BatchNorm2d", False),
    ("ConvTranspose2d", "BatchNorm2d", True),
])
def test_fuse_conv_bn_eval_matches_torch(conv, bn, transpose):
    their_conv = getattr(torch.nn, conv)(2, 3, 2).double().eval()
    our_conv = getattr(ug.nn, conv)(2, 3, 2).double().eval()
    _copy_state(our_conv, their_conv)
    our_bn, their_bn = _batch_norm_pair(bn, 3)
    ours = utils.fuse_conv_bn_eval(our_conv, our_bn, transpose=transpose)
    theirs = torch.nn.utils.fuse_conv_bn_eval(their_conv, their_bn, transpose=transpose)
    assert ours is not our_conv and type(ours) is type(our_conv)
    for name, param in theirs.named_parameters():
        got = dict(ours.named_parameters())[name]
        assert isinstance(got, ug.nn.Parameter) and got.requires_grad
        np.testing.assert_allclose(got.detach().numpy(), param.detach().numpy(), rtol=1e-12)
    shape = (1, 2, 4) if conv == "Conv1d" else (1, 2, 4, 4)
    x = np.random.default_rng(0).standard_normal(shape)
    np.testing.assert_allclose(ours(ug.tensor(x)).detach().numpy(),
                               our_bn(our_conv(ug.tensor(x))).detach().numpy(), rtol=1e-10,
                               atol=1e-12)


def test_fuse_linear_bn_eval_matches_torch_and_checks_modes():
    their_linear = torch.nn.Linear(4, 3).double().eval()
    our_linear = ug.nn.Linear(4, 3).double().eval()
    _copy_state(our_linear, their_linear)
    our_bn, their_bn = _batch_norm_pair("BatchNorm1d", 3)
    ours = utils.fuse_linear_bn_eval(our_linear, our_bn)
    theirs = torch.nn.utils.fuse_linear_bn_eval(their_linear, their_bn)
    for name, param in theirs.named_parameters():
        np.testing.assert_allclose(dict(ours.named_parameters())[name].detach().numpy(),
                                   param.detach().numpy(), rtol=1e-12)
    with pytest.raises(AssertionError, match="Fusion only for eval!"):
        utils.fuse_linear_bn_eval(our_linear.train(), our_bn)
    with pytest.raises(AssertionError, match="linear.out_features == bn.num_features"):
        utils.fuse_linear_bn_eval(ug.nn.Linear(4, 2).eval(), our_bn)


def test_fuse_conv_bn_weights_without_bias_or_affine():
    rng = np.random.default_rng(0)
    weight = rng.standard_normal((3, 2, 1, 1))
    mean, var = rng.standard_normal(3), rng.uniform(0.5, 2.0, 3)
    ours = utils.fuse_conv_bn_weights(ug.tensor(weight), None, ug.tensor(mean), ug.tensor(var),
                                      1e-5, None, None)
    theirs = torch.nn.utils.fuse_conv_bn_weights(torch.from_numpy(weight), None,
                                                 torch.from_numpy(mean), torch.from_numpy(var),
                                                 1e-5, None, None)
    for got, want in zip(ours, theirs):
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-12)
        assert got.requires_grad == want.requires_grad
