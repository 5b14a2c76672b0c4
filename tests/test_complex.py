"""Complex tensors: dtypes and promotion, printing, PyTorch's gradient convention,
forward mode, optimizers, checkpoints and the errors of ops without complex rules.

The op table (``tests/ops/table_complex_numbers.py``, ``table_spectral.py``) checks each
op's values and derivatives numerically; this file checks the engine-wide behaviour,
against PyTorch where it is installed.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch


def _pair(values, dtype="complex128", requires_grad=True):
    array = np.asarray(values, dtype=dtype)
    return (ug.tensor(array, requires_grad=requires_grad),
            torch.tensor(array, requires_grad=requires_grad))


@pytest.mark.parametrize("left, right", [
    ("complex64", "float64"), ("complex64", "int64"), ("complex128", "float32"),
    ("float32", "complex64"), ("bool", "complex64")])
def test_promotion_matches_pytorch(left, right):
    a = ug.ones(2, dtype=getattr(ug, left if left != "bool" else "bool_"))
    b = ug.ones(2, dtype=getattr(ug, right))
    expected = torch.promote_types(getattr(torch, left), getattr(torch, right))
    assert (a + b).dtype.name == str(expected).removeprefix("torch.")


@pytest.mark.parametrize("dtype, scalar", [("float64", 1j), ("int64", 1j), ("float32", 2j),
                                           ("complex64", 1.5)])
def test_python_scalars_promote_like_pytorch(dtype, scalar):
    ours = ug.ones(2, dtype=getattr(ug, dtype)) * scalar
    theirs = torch.ones(2, dtype=getattr(torch, dtype)) * scalar
    assert ours.dtype.name == str(theirs.dtype).removeprefix("torch.")


def test_python_complex_data_gives_the_default_complex_dtype():
    assert ug.tensor([1 + 2j]).dtype == ug.complex64
    assert ug.tensor(np.array([1 + 2j])).dtype == ug.complex128
    ug.set_default_dtype(ug.float64)
    try:
        assert ug.tensor([1j]).dtype == ug.complex128
        assert repr(ug.tensor([1j])) == "tensor([0.+1.j])"
    finally:
        ug.set_default_dtype(ug.float32)


@pytest.mark.parametrize("values, dtype", [
    ([1 + 2j, 3 - 1j], "complex64"), ([1.5 + 2j, 3 - 1j], "complex64"),
    ([1.5 + 2.25j, -3 - 1j], "complex128"), ([[1e-5 + 2j, 3 - 1j], [0, 1j]], "complex64"),
    (1 + 1j, "complex64"), ([float("nan") + 1j, 2], "complex64"),
    ([0.3294 - 1.1382j, 0.0476 + 1.0162j, -0.3081 - 0.6237j], "complex64")])
def test_repr_matches_pytorch(values, dtype):
    ours = repr(ug.tensor(values, dtype=getattr(ug, dtype)))
    theirs = repr(torch.tensor(values, dtype=getattr(torch, dtype)))
    assert ours == theirs.replace("torch.", "unigrad.")


def test_gradients_of_a_complex_program_match_pytorch():
    zu, zt = _pair([0.3 + 1.2j, -0.7 + 0.4j, 1.1 - 0.9j])
    wu, wt = _pair([[0.5 - 0.2j, 1.0 + 0.3j, -0.4j]] * 2)
    xu, xt = _pair([0.2, -1.5], dtype="float64")
    results = []
    for z, w, x, lib in ((zu, wu, xu, ug), (zt, wt, xt, torch)):
        hidden = lib.tanh(w @ lib.exp(z) / (1 + z.abs().sum())) * x
        loss = (hidden.abs() ** 2).sum() + lib.angle(hidden).sum() + hidden.real.sum() * 0.3
        loss = loss + (lib.sqrt(z + 2) * z.conj()).imag.sum()
        loss.backward()
        results.append([t.grad.detach().numpy() for t in (z, w, x)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def test_second_order_gradients_match_pytorch():
    zu, zt = _pair([0.3 + 1.2j, -0.7 + 0.4j])
    results = []
    for z, lib, grad in ((zu, ug, ug.autograd.grad), (zt, torch, torch.autograd.grad)):
        loss = (lib.exp(z) * z.conj()).abs().sum()
        (first,) = grad(loss, z, create_graph=True)
        (second,) = grad((first.real ** 2).sum() + first.imag.sum(), z)
        results.append(second.detach().numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-10)


def test_forward_mode_matches_pytorch():
    import torch.autograd.forward_ad as torch_forward

    import unigrad.autograd.forward_ad as forward
    primal = np.array([0.3 + 1.2j, -0.7 + 0.4j])
    tangent = np.array([1.0 - 0.5j, 0.2 + 2j])
    with forward.dual_level():
        z = forward.make_dual(ug.tensor(primal), ug.tensor(tangent))
        out = forward.unpack_dual(ug.sin(z) * z.abs() + z.angle()).tangent
    with torch_forward.dual_level():
        z = torch_forward.make_dual(torch.tensor(primal), torch.tensor(tangent))
        expected = torch_forward.unpack_dual(torch.sin(z) * z.abs() + z.angle()).tangent
    np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=1e-12)


def test_real_and_imag_are_assignable_views():
    z = ug.tensor([1 + 2j, 3 - 1j])
    z.real[0] = 10.0
    z.imag = ug.tensor([0.5, 0.5])
    assert z.tolist() == [10 + 0.5j, 3 + 0.5j]


@pytest.mark.parametrize("name, options", [("SGD", {"lr": 0.1, "momentum": 0.9}),
                                           ("Adam", {"lr": 0.1}),
                                           ("Adam", {"lr": 0.1, "amsgrad": True,
                                                     "weight_decay": 0.1}),
                                           ("AdamW", {"lr": 0.1})])
def test_optimizers_update_complex_parameters_like_pytorch(name, options):
    start = np.array([1 + 2j, -0.5 + 0.3j, 2 - 1j])
    ours = ug.nn.Parameter(ug.tensor(start))
    theirs = torch.tensor(start, requires_grad=True)
    optimizers = (getattr(ug.optim, name)([ours], **options),
                  getattr(torch.optim, name)([theirs], **options))
    for _ in range(5):
        for parameter, optimizer, lib in ((ours, optimizers[0], ug),
                                          (theirs, optimizers[1], torch)):
            optimizer.zero_grad()
            loss = (lib.abs(parameter - 0.5j) ** 2).sum() + lib.real(parameter.sum() * (1 + 1j))
            loss.backward()
            optimizer.step()
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-12)


def test_checkpoints_round_trip_complex_tensors(tmp_path):
    path = tmp_path / "complex.safetensors"
    saved = {"a": ug.tensor([[1 + 2j, 3 - 1j]]), "b": ug.tensor([0.5j], dtype=ug.complex128)}
    ug.save(saved, path)
    loaded = ug.load(path)
    for key, value in saved.items():
        assert loaded[key].dtype == value.dtype
        assert loaded[key].tolist() == value.tolist()


def test_primitives_without_complex_rules_refuse_complex_gradients():
    z = ug.tensor([1 + 1j, 2 - 1j], requires_grad=True)
    out = ug.maximum(z, ug.tensor([0j, 0j]))
    with pytest.raises(RuntimeError, match="derivative of maximum is not implemented for "
                                           "complex tensors"):
        out.abs().sum().backward()
    assert z.grad is None


def test_bad_complex_arguments_raise_pytorch_errors():
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with "
                                           "non-complex dtypes"):
        ug.imag(ug.ones(2))
    with pytest.raises(RuntimeError, match="last dimension of size 2"):
        ug.view_as_complex(ug.ones(3, 3))
    with pytest.raises(RuntimeError, match="Expected object of scalar type Float but got "
                                           "scalar type Double for second argument"):
        ug.complex(ug.ones(2), ug.ones(2, dtype=ug.float64))
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for real "
                                           "scalar outputs"):
        ug.tensor(1j, requires_grad=True).mul(2).backward()
    with pytest.raises(RuntimeError, match='Invalid normalization mode: "sideways"'):
        ug.fft.fft(ug.ones(4), norm="sideways")
    with pytest.raises(RuntimeError, match="rfft expects a real input tensor"):
        ug.fft.rfft(ug.ones(4, dtype=ug.complex64))


def test_complex_sampling_has_unit_variance():
    ug.manual_seed(0)
    sample = ug.randn(20000, dtype=ug.complex128)
    assert sample.dtype == ug.complex128
    assert abs(float((sample.abs() ** 2).mean()) - 1.0) < 0.05
    assert abs(float(sample.real.var()) - 0.5) < 0.03


def test_gradcheck_handles_complex_inputs_and_outputs():
    z = ug.tensor([0.3 + 1.1j, -0.5 + 0.2j], dtype=ug.complex128, requires_grad=True)
    x = ug.tensor([0.7, -1.2], dtype=ug.float64, requires_grad=True)
    assert ug.autograd.gradcheck(
        lambda z, x: (z.exp() * x, (z * z.conj()).real.sum() + z.angle().sum()), (z, x),
        check_forward_ad=True, check_batched_grad=True, check_batched_forward_grad=True)
    assert ug.autograd.gradgradcheck(lambda z: (z.sin() * z).abs(), (z,))

    class Unconjugated(ug.autograd.Function):  # the holomorphic rule without the conjugate
        @staticmethod
        def forward(ctx, value):
            ctx.save_for_backward(value)
            return value * value

        @staticmethod
        def backward(ctx, grad):
            (value,) = ctx.saved_tensors
            return 2 * grad * value

    assert not ug.autograd.gradcheck(Unconjugated.apply, (z,), raise_exception=False)
    with pytest.raises(ug.autograd.GradcheckError, match="Jacobian mismatch"):
        ug.autograd.gradcheck(Unconjugated.apply, (z,))
