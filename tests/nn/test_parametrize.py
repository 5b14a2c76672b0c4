"""nn.utils.parametrize and nn.utils.parametrizations against PyTorch: names, state_dict keys,
values and gradients."""

from __future__ import annotations

import copy
from collections import OrderedDict

import numpy as np
import pytest

import unigrad as ug
from unigrad.nn.utils import parametrizations, parametrize

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _to_ours(value):
    return ug.tensor(value.detach().numpy().copy())


def _load_torch_state(ours, theirs) -> None:
    state = {name: _to_ours(value) for name, value in theirs.state_dict().items()}
    ours.load_state_dict(state, strict=True)


def _linear_pair(in_features=3, out_features=4, bias=True):
    theirs = torch.nn.Linear(in_features, out_features, bias=bias).double()
    ours = ug.nn.Linear(in_features, out_features, bias=bias).double()
    _load_torch_state(ours, theirs)
    return ours, theirs


def _assert_close(ours, theirs, **tolerance):
    tolerance = tolerance or dict(rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), **tolerance)


def _assert_same_gradients(ours, theirs, x: np.ndarray, **tolerance):
    """One backward through both modules on input ``x``; every parameter's gradient agrees."""
    rng = np.random.default_rng(1)
    cotangent = rng.standard_normal((x.shape[0], ours.weight.shape[0]))
    (ours(ug.tensor(x)) * ug.tensor(cotangent)).sum().backward()
    (theirs(torch.from_numpy(x)) * torch.from_numpy(cotangent)).sum().backward()
    our_params, their_params = dict(ours.named_parameters()), dict(theirs.named_parameters())
    assert list(our_params) == list(their_params)
    for name, param in their_params.items():
        _assert_close(our_params[name].grad, param.grad, **tolerance)


class Symmetric(ug.nn.Module):
    def forward(self, x):
        return x.triu() + x.triu(1).transpose(0, 1)


class TorchSymmetric(torch.nn.Module):
    def forward(self, x):
        return x.triu() + x.triu(1).transpose(0, 1)


class Scale(ug.nn.Module):
    def forward(self, x):
        return 3.0 * x

    def right_inverse(self, x):
        return x / 3.0


class TorchScale(torch.nn.Module):
    def forward(self, x):
        return 3.0 * x

    def right_inverse(self, x):
        return x / 3.0


# ------------------------------------------------------------------------ parametrize
def test_register_parametrization_matches_torch_names_values_and_gradients():
    ours, theirs = _linear_pair(4, 4)
    parametrize.register_parametrization(ours, "weight", Symmetric())
    torch.nn.utils.parametrize.register_parametrization(theirs, "weight", TorchSymmetric())
    assert type(ours).__name__ == type(theirs).__name__ == "ParametrizedLinear"
    assert list(ours.state_dict()) == list(theirs.state_dict()) \
        == ["bias", "parametrizations.weight.original"]
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    _assert_close(ours.weight, theirs.weight)
    x = np.random.default_rng(0).standard_normal((2, 4))
    _assert_same_gradients(ours, theirs, x)
    assert parametrize.is_parametrized(ours) and parametrize.is_parametrized(ours, "weight")
    assert not parametrize.is_parametrized(ours, "bias")
    assert parametrize.type_before_parametrizations(ours) is ug.nn.Linear


def test_chained_parametrizations_and_right_inverse_assignment():
    ours, theirs = _linear_pair(3, 3)
    for register, first, second, module in (
            (parametrize.register_parametrization, Scale(), Symmetric(), ours),
            (torch.nn.utils.parametrize.register_parametrization, TorchScale(),
             TorchSymmetric(), theirs)):
        register(module, "weight", first)
        register(module, "weight", second)
    _assert_close(ours.weight, theirs.weight)
    _assert_close(ours.parametrizations.weight.original, theirs.parametrizations.weight.original)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    # the chain has no right_inverse for Symmetric: assignment fails as in torch
    with pytest.raises(RuntimeError, match="Symmetric does not implement right_inverse"):
        ours.weight = ug.ones(3, 3)


def test_assignment_goes_through_right_inverse_and_keeps_the_original_object():
    ours, theirs = _linear_pair(2, 2)
    parametrize.register_parametrization(ours, "weight", Scale())
    torch.nn.utils.parametrize.register_parametrization(theirs, "weight", TorchScale())
    original = ours.parametrizations.weight.original
    value = np.arange(4.0).reshape(2, 2)
    ours.weight = ug.tensor(value)
    with torch.no_grad():
        theirs.weight = torch.from_numpy(value)
    assert ours.parametrizations.weight.original is original
    _assert_close(original, theirs.parametrizations.weight.original)
    np.testing.assert_allclose(ours.weight.detach().numpy(), value)


def test_parametrization_changing_the_shape_needs_unsafe():
    class Flatten(ug.nn.Module):
        def forward(self, x):
            return x.reshape(-1)

    layer = ug.nn.Linear(2, 2)
    with pytest.raises(ValueError, match="may not change the shape"):
        parametrize.register_parametrization(layer, "weight", Flatten())
    assert not parametrize.is_parametrized(layer) and type(layer) is ug.nn.Linear
    parametrize.register_parametrization(layer, "weight", Flatten(), unsafe=True)
    assert layer.weight.shape == (4,)
    with pytest.raises(ValueError, match="does not have a parameter, a buffer"):
        parametrize.register_parametrization(ug.nn.Linear(2, 2), "missing", Flatten())


@pytest.mark.parametrize("leave_parametrized", [True, False])
def test_remove_parametrizations(leave_parametrized):
    ours, theirs = _linear_pair(2, 2)
    parametrize.register_parametrization(ours, "weight", Scale())
    torch.nn.utils.parametrize.register_parametrization(theirs, "weight", TorchScale())
    original = ours.parametrizations.weight.original
    parametrize.remove_parametrizations(ours, "weight", leave_parametrized=leave_parametrized)
    torch.nn.utils.parametrize.remove_parametrizations(theirs, "weight",
                                                       leave_parametrized=leave_parametrized)
    assert type(ours) is ug.nn.Linear and not hasattr(ours, "parametrizations")
    assert ours.weight is original and isinstance(ours.weight, ug.nn.Parameter)
    _assert_close(ours.weight, theirs.weight)
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["bias", "weight"]
    with pytest.raises(ValueError, match="does not have a parametrization on weight"):
        parametrize.remove_parametrizations(ours, "weight")


def test_cached_computes_each_parametrized_tensor_once():
    calls = []

    class Counting(ug.nn.Module):
        def forward(self, x):
            calls.append(1)
            return x * 1.0

    layer = ug.nn.Linear(2, 2)
    parametrize.register_parametrization(layer, "weight", Counting())
    calls.clear()
    with parametrize.cached():
        first, second = layer.weight, layer.weight
    assert first is second and len(calls) == 1
    assert layer.weight is not first and len(calls) == 2


def test_parametrized_module_deep_copies_independently():
    layer = ug.nn.Linear(2, 2)
    parametrize.register_parametrization(layer, "weight", Scale())
    clone = copy.deepcopy(layer)
    with ug.no_grad():
        clone.parametrizations.weight.original.fill_(1.0)
    assert clone.weight.tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert layer.weight.tolist() != clone.weight.tolist()


# ------------------------------------------------------------------- parametrizations
@pytest.mark.parametrize("dim", [0, 1, None, -2])
def test_weight_norm_matches_torch(dim):
    ours, theirs = _linear_pair(3, 4)
    parametrizations.weight_norm(ours, dim=dim)
    torch.nn.utils.parametrizations.weight_norm(theirs, dim=dim)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    for name, value in theirs.state_dict().items():
        _assert_close(ours.state_dict()[name], value)
    _assert_close(ours.weight, theirs.weight)
    _assert_same_gradients(ours, theirs, np.random.default_rng(0).standard_normal((2, 3)))


def test_weight_norm_loads_old_weight_g_weight_v_checkpoints():
    ours, _ = _linear_pair(3, 2)
    parametrizations.weight_norm(ours)
    g, v = ug.tensor([[2.0], [3.0]], dtype=ug.float64), ug.ones(2, 3, dtype=ug.float64)
    ours.load_state_dict({"bias": ug.zeros(2), "weight_g": g, "weight_v": v})
    np.testing.assert_allclose(ours.weight.detach().numpy(),
                               np.array([[2.0] * 3, [3.0] * 3]) / np.sqrt(3.0))


@pytest.mark.parametrize("training", [True, False])
def test_spectral_norm_matches_torch_with_its_power_iteration(training):
    torch.manual_seed(0)
    ours, theirs = _linear_pair(5, 3)
    parametrizations.spectral_norm(ours, n_power_iterations=2)
    torch.nn.utils.parametrizations.spectral_norm(theirs, n_power_iterations=2)
    assert sorted(ours.state_dict()) == sorted(theirs.state_dict())
    _load_torch_state(ours, theirs)
    ours.train(training)
    theirs.train(training)
    for _ in range(2):  # each training-mode access refines u and v
        _assert_close(ours.weight, theirs.weight)
    for name in ("_u", "_v"):
        _assert_close(getattr(ours.parametrizations.weight[0], name),
                      getattr(theirs.parametrizations.weight[0], name))
    _assert_same_gradients(ours, theirs, np.random.default_rng(0).standard_normal((2, 5)))


def test_spectral_norm_on_a_transposed_convolution_uses_dim_1_and_checks_arguments():
    layer = parametrizations.spectral_norm(ug.nn.ConvTranspose2d(2, 3, 2))
    assert layer.parametrizations.weight[0].dim == 1
    with pytest.raises(ValueError, match="n_power_iterations to be positive"):
        parametrizations.spectral_norm(ug.nn.Linear(2, 2), n_power_iterations=0)
    with pytest.raises(IndexError, match="Dimension out of range"):
        parametrizations.spectral_norm(ug.nn.Linear(2, 2), dim=2)


@pytest.mark.parametrize(("shape", "orthogonal_map", "trivialization"), [
    ((4, 4), "matrix_exp", True), ((4, 4), "cayley", True), ((4, 4), "householder", True),
    ((5, 3), "householder", True), ((3, 5), "cayley", True), ((5, 3), "householder", False),
    ((3, 5), "householder", False),
])
def test_orthogonal_matches_torch(shape, orthogonal_map, trivialization):
    out_features, in_features = shape
    ours, theirs = _linear_pair(in_features, out_features)
    torch.nn.utils.parametrizations.orthogonal(theirs, orthogonal_map=orthogonal_map,
                                               use_trivialization=trivialization)
    parametrizations.orthogonal(ours, orthogonal_map=orthogonal_map,
                                use_trivialization=trivialization)
    assert sorted(ours.state_dict()) == sorted(theirs.state_dict())
    if not trivialization:  # no random completion: the preimages agree without copying
        _assert_close(ours.parametrizations.weight.original,
                      theirs.parametrizations.weight.original, rtol=1e-9, atol=1e-12)
    _load_torch_state(ours, theirs)
    _assert_close(ours.weight, theirs.weight, rtol=1e-9, atol=1e-12)
    weight = ours.weight.detach().numpy()
    gram = weight.T @ weight if out_features >= in_features else weight @ weight.T
    np.testing.assert_allclose(gram, np.eye(min(shape)), atol=1e-10)
    _assert_same_gradients(ours, theirs, np.random.default_rng(0).standard_normal((2, shape[1])),
                           rtol=1e-8, atol=1e-11)


def test_orthogonal_rejects_vectors_and_unknown_maps():
    with pytest.raises(ValueError, match="Expected a matrix or batch of matrices"):
        parametrizations.orthogonal(ug.nn.Linear(2, 2), "bias")
    with pytest.raises(ValueError, match='orthogonal_map has to be one of'):
        parametrizations.orthogonal(ug.nn.Linear(2, 2), orthogonal_map="qr")


# ------------------------------------------------------------ hook-based weight_norm
@pytest.mark.parametrize("dim", [0, 1, None])
def test_old_style_weight_norm_matches_torch(dim):
    from unigrad.nn.utils.weight_norm import remove_weight_norm, weight_norm
    ours, theirs = _linear_pair(3, 4)
    with pytest.warns(FutureWarning, match="deprecated in favor of"):
        weight_norm(ours, dim=dim)
    with pytest.warns(FutureWarning):
        torch.nn.utils.weight_norm(theirs, dim=dim)
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["bias", "weight_g", "weight_v"]
    for name, value in theirs.state_dict().items():
        _assert_close(ours.state_dict()[name], value)
    with torch.no_grad():
        theirs.weight_g.mul_(2.0)
    with ug.no_grad():
        ours.weight_g.mul_(2.0)
    _assert_same_gradients(ours, theirs, np.random.default_rng(0).standard_normal((2, 3)))
    with pytest.raises(RuntimeError, match="Cannot register two weight_norm hooks"), \
            pytest.warns(FutureWarning):
        weight_norm(ours, dim=dim)
    remove_weight_norm(ours)
    torch.nn.utils.remove_weight_norm(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["bias", "weight"]
    _assert_close(ours.weight, theirs.weight)
    with pytest.raises(ValueError, match="weight_norm of 'weight' not found"):
        remove_weight_norm(ours)


# ---------------------------------------------------------- hook-based spectral_norm
@pytest.mark.parametrize("training", [True, False])
def test_old_style_spectral_norm_matches_torch(training):
    from unigrad.nn.utils.spectral_norm import remove_spectral_norm, spectral_norm
    ours, theirs = _linear_pair(5, 3)
    spectral_norm(ours, n_power_iterations=2)
    torch.nn.utils.spectral_norm(theirs, n_power_iterations=2)
    assert list(ours.state_dict()) == list(theirs.state_dict()) \
        == ["bias", "weight_orig", "weight_u", "weight_v"]
    assert ours.state_dict()._metadata[""] == theirs.state_dict()._metadata[""]
    _load_torch_state(ours, theirs)
    ours.train(training)
    theirs.train(training)
    _assert_same_gradients(ours, theirs, np.random.default_rng(0).standard_normal((2, 5)))
    _assert_close(ours.weight, theirs.weight)
    for name in ("weight_u", "weight_v"):
        _assert_close(getattr(ours, name), getattr(theirs, name))
    remove_spectral_norm(ours)
    torch.nn.utils.remove_spectral_norm(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["bias", "weight"]
    _assert_close(ours.weight, theirs.weight)
    assert not ours._state_dict_hooks and not ours._load_state_dict_pre_hooks


def test_old_style_spectral_norm_converts_version_0_checkpoints_as_torch():
    from unigrad.nn.utils.spectral_norm import spectral_norm
    ours, theirs = _linear_pair(4, 3)
    spectral_norm(ours)
    torch.nn.utils.spectral_norm(theirs)
    old = theirs.state_dict()
    old["weight"] = theirs.weight.detach().clone()
    del old["weight_v"]
    old._metadata[""]["spectral_norm"]["weight.version"] = 0
    ours_old = OrderedDict((k, _to_ours(v)) for k, v in old.items())
    ours_old._metadata = copy.deepcopy(old._metadata)
    theirs.load_state_dict(old)
    ours.load_state_dict(ours_old)
    _assert_close(ours.weight_v, theirs.weight_v, rtol=1e-8, atol=1e-10)
