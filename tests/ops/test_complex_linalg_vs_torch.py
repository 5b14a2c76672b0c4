"""Complex ``slogdet``, ``logdet`` and ``householder_product`` against PyTorch: values,
reverse-mode gradients (PyTorch's conjugate Wirtinger convention, the complex sign's
gradient included), forward-mode tangents and second derivatives, in complex128; and the
real behaviour left as it was (a real sign has no gradient)."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.autograd.forward_ad as ug_fwd

torch = pytest.importorskip("torch")
import torch.autograd.forward_ad as torch_fwd  # noqa: E402

pytestmark = pytest.mark.torch

ATOL = 1e-10


def _complex(rng, shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def _cotangent(rng, value: np.ndarray) -> np.ndarray:
    """A random cotangent of ``value``'s shape and dtype."""
    if np.iscomplexobj(value):
        return _complex(rng, value.shape).astype(value.dtype)
    return rng.standard_normal(value.shape).astype(value.dtype)


def _outputs(result) -> list:
    return list(result) if isinstance(result, tuple) else [result]


def _close(got, want, atol=ATOL):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, atol=atol, rtol=1e-9)


def compare(ug_fn, torch_fn, *arrays, seed=0, atol=ATOL):
    """Values, then the gradients of every input for random cotangents of every output."""
    rng = np.random.default_rng(seed)
    ug_in = [ug.tensor(a, requires_grad=True) for a in arrays]
    torch_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    got, want = _outputs(ug_fn(*ug_in)), _outputs(torch_fn(*torch_in))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _close(g.detach().numpy(), w.detach().numpy(), atol)
    cotangents = [_cotangent(rng, w.detach().numpy()) for w in want]
    ug_grads = ug.autograd.grad(got, ug_in, [ug.tensor(c) for c in cotangents])
    torch_grads = torch.autograd.grad(want, torch_in, [torch.tensor(c) for c in cotangents])
    for g, w in zip(ug_grads, torch_grads):
        _close(g.numpy(), w.numpy(), atol)


def compare_jvp(ug_fn, torch_fn, *arrays, seed=0, atol=ATOL):
    """Forward-mode tangents of every output for random tangents of every input."""
    rng = np.random.default_rng(seed)
    tangents = [_cotangent(rng, a) for a in arrays]
    with torch_fwd.dual_level():
        duals = [torch_fwd.make_dual(torch.tensor(a), torch.tensor(t))
                 for a, t in zip(arrays, tangents)]
        want = [torch_fwd.unpack_dual(out).tangent.numpy()
                for out in _outputs(torch_fn(*duals))]
    with ug_fwd.dual_level():
        duals = [ug_fwd.make_dual(ug.tensor(a), ug.tensor(t)) for a, t in zip(arrays, tangents)]
        got = [ug_fwd.unpack_dual(out).tangent.numpy() for out in _outputs(ug_fn(*duals))]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _close(g, w, atol)


rng = np.random.default_rng(11)
SQUARE = _complex(rng, (3, 4, 4))
SINGLE = _complex(rng, (3, 3))
TALL = _complex(rng, (2, 5, 3))
TAU = _complex(rng, (2, 3))
# a determinant on the negative real axis, the branch cut of log: -4 exactly
NEGATIVE = np.array([[-2.0, 0.0], [0.0, 2.0]], dtype=np.complex128)


def _slogdet(module):
    return lambda a: tuple(module.linalg.slogdet(a))


@pytest.mark.parametrize("matrix", [SQUARE, SINGLE, NEGATIVE], ids=["batch", "single", "negative"])
def test_slogdet_values_and_gradients(matrix):
    compare(_slogdet(ug), _slogdet(torch), matrix)


def test_slogdet_sign_alone_and_logabsdet_alone():
    """Each output's gradient on its own (the other output unused)."""
    compare(lambda a: ug.linalg.slogdet(a).sign, lambda a: torch.linalg.slogdet(a).sign, SQUARE,
            seed=1)
    compare(lambda a: ug.linalg.slogdet(a).logabsdet,
            lambda a: torch.linalg.slogdet(a).logabsdet, SQUARE, seed=2)


def test_slogdet_dtypes():
    sign, logabsdet = ug.linalg.slogdet(ug.tensor(SINGLE))
    assert sign.dtype == ug.complex128 and logabsdet.dtype == ug.float64
    sign, logabsdet = ug.slogdet(ug.tensor(SINGLE.astype(np.complex64)))
    assert sign.dtype == ug.complex64 and logabsdet.dtype == ug.float32
    want = torch.linalg.slogdet(torch.tensor(SINGLE.astype(np.complex64)))
    np.testing.assert_allclose(sign.numpy(), want.sign.numpy(), atol=1e-5)
    np.testing.assert_allclose(logabsdet.numpy(), want.logabsdet.numpy(), atol=1e-5)


def test_slogdet_sign_has_unit_modulus_and_singular_is_zero():
    sign, _ = ug.linalg.slogdet(ug.tensor(SQUARE))
    np.testing.assert_allclose(np.abs(sign.numpy()), 1.0, atol=1e-12)
    singular = np.ones((3, 3), dtype=np.complex128)
    got = ug.linalg.slogdet(ug.tensor(singular))
    want = torch.linalg.slogdet(torch.tensor(singular))
    assert got.sign.numpy() == want.sign.numpy() == 0
    assert got.logabsdet.numpy() == want.logabsdet.numpy() == -np.inf


@pytest.mark.parametrize("matrix", [SQUARE, SINGLE, NEGATIVE], ids=["batch", "single", "negative"])
def test_logdet_values_and_gradients(matrix):
    compare(ug.logdet, torch.logdet, matrix, seed=3)


def test_logdet_principal_branch():
    got = ug.logdet(ug.tensor(NEGATIVE)).numpy()
    np.testing.assert_allclose(got, np.log(4.0) + 1j * np.pi, atol=1e-15)
    _close(got, torch.logdet(torch.tensor(NEGATIVE)).numpy())


def test_slogdet_and_logdet_method_forms():
    a = ug.tensor(SINGLE)
    _close(a.logdet().numpy(), torch.tensor(SINGLE).logdet().numpy())
    _close(a.slogdet()[0].numpy(), torch.tensor(SINGLE).slogdet()[0].numpy())


@pytest.mark.parametrize("matrix", [SQUARE, NEGATIVE], ids=["batch", "negative"])
def test_slogdet_and_logdet_forward_mode(matrix):
    compare_jvp(_slogdet(ug), _slogdet(torch), matrix, seed=4)
    compare_jvp(ug.logdet, torch.logdet, matrix, seed=5)


def test_slogdet_second_derivative():
    """The gradient of a scalar function of the first gradient (create_graph)."""
    def run(module, a, weights):
        sign, logabsdet = module.linalg.slogdet(a)
        loss = (sign * weights[0]).real.sum() + (logabsdet * weights[1].real).sum()
        (first,) = module.autograd.grad(loss, a, create_graph=True)
        (second,) = module.autograd.grad((first * weights[2]).real.sum(), a)
        return second

    rng = np.random.default_rng(6)
    weights = [_complex(rng, (3,)), _complex(rng, (3,)), _complex(rng, (3, 4, 4))]
    got = run(ug, ug.tensor(SQUARE, requires_grad=True), [ug.tensor(w) for w in weights])
    want = run(torch, torch.tensor(SQUARE, requires_grad=True),
               [torch.tensor(w) for w in weights])
    _close(got.numpy(), want.numpy(), 1e-9)


def test_real_slogdet_unchanged():
    """A real sign carries no gradient; logabsdet's gradient is A^-T as before."""
    real = np.array([[-2.0, 1.0], [0.5, 3.0]])
    a = ug.tensor(real, requires_grad=True)
    sign, logabsdet = ug.linalg.slogdet(a)
    assert not sign.requires_grad and sign.dtype == ug.float64
    logabsdet.backward()
    np.testing.assert_allclose(a.grad.numpy(), np.linalg.inv(real).T, atol=1e-14)
    compare(lambda x: ug.slogdet(x).logabsdet, lambda x: torch.slogdet(x).logabsdet, real)
    assert np.isnan(ug.logdet(ug.tensor(real)).numpy())


@pytest.mark.parametrize("shape, steps", [((4, 4), 4), ((5, 3), 3), ((5, 3), 2), ((2, 5, 3), 3)],
                         ids=["square", "tall", "fewer-reflectors", "batch"])
def test_householder_product_values_and_gradients(shape, steps):
    rng = np.random.default_rng(sum(shape) + steps)
    matrix = _complex(rng, shape)
    tau = _complex(rng, shape[:-2] + (steps,))
    compare(ug.linalg.householder_product, torch.linalg.householder_product, matrix, tau,
            seed=steps)


def test_householder_product_forward_mode_and_orgqr():
    compare_jvp(ug.linalg.householder_product, torch.linalg.householder_product, TALL, TAU)
    _close(ug.orgqr(ug.tensor(TALL), ug.tensor(TAU)).numpy(),
           torch.orgqr(torch.tensor(TALL), torch.tensor(TAU)).numpy())


def test_householder_product_rebuilds_q_of_geqrf():
    """With LAPACK's reflectors (torch.geqrf), the product is the unitary Q of the QR."""
    reflectors, tau = torch.geqrf(torch.tensor(TALL[0]))
    q = ug.linalg.householder_product(ug.tensor(reflectors.numpy()), ug.tensor(tau.numpy()))
    want = torch.linalg.qr(torch.tensor(TALL[0])).Q.numpy()
    _close(q.numpy(), want)
    np.testing.assert_allclose(q.numpy().conj().T @ q.numpy(), np.eye(3), atol=1e-12)


def test_householder_product_dtype_mismatch_raises():
    with pytest.raises(RuntimeError, match="tau dtype"):
        ug.linalg.householder_product(ug.tensor(TALL), ug.tensor(TAU.real))
