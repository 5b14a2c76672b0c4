"""Complex numbers and Fourier transforms under the three frameworks' names: ``torch.fft`` and
``torch.complex``/``real``/... against real PyTorch (values and gradients), ``tf.signal`` /
``tf.complex`` / ``tf.math.real``... and ``mindspore.ops.fft``/``complex``... against NumPy
and PyTorch's gradient convention."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
import unigrad.compat.torch as torch
from unigrad.compat.mindspore import ops

real_torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 8))
Z = RNG.standard_normal((3, 8)) + 1j * RNG.standard_normal((3, 8))
C3 = RNG.standard_normal((2, 4, 6, 5)) + 1j * RNG.standard_normal((2, 4, 6, 5))


def _array(value) -> np.ndarray:
    if isinstance(value, real_torch.Tensor):
        return value.detach().resolve_conj().resolve_neg().numpy()
    return np.asarray(value)


def _close(actual, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(_array(actual), _array(expected), rtol=rtol, atol=atol)


# ============================================================================ torch


TORCH_CASES = [
    ("fft", X, {}), ("fft", Z, {"n": 5, "norm": "ortho"}), ("ifft", Z, {"dim": 0}),
    ("rfft", X, {"n": 10}), ("irfft", Z, {"n": 9, "norm": "forward"}), ("hfft", Z, {}),
    ("ihfft", X, {"norm": "ortho"}), ("fft2", Z, {}), ("ifft2", Z, {"s": (4, 6)}),
    ("rfft2", X, {}), ("irfft2", Z, {"s": (3, 7)}), ("hfft2", Z, {}), ("ihfft2", X, {}),
    ("fftn", C3, {"dim": (1, 3)}), ("ifftn", C3, {}), ("rfftn", C3.real, {"s": (3, 4)}),
    ("irfftn", C3, {"dim": (0, 2)}), ("hfftn", C3, {"dim": (1, 2)}), ("ihfftn", C3.real, {}),
]


@pytest.mark.parametrize("name, value, kwargs", TORCH_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(TORCH_CASES)])
def test_torch_fft_values_and_gradients_match_pytorch(name, value, kwargs):
    ours = torch.tensor(value, requires_grad=True)
    theirs = real_torch.tensor(value, requires_grad=True)
    out = getattr(torch.fft, name)(ours, **kwargs)
    expected = getattr(real_torch.fft, name)(theirs, **kwargs)
    assert str(out.dtype).split(".")[-1] == str(expected.dtype).split(".")[-1]
    assert tuple(out.shape) == tuple(expected.shape)
    _close(out.detach().numpy(), expected, rtol=1e-9, atol=1e-9)
    # a real loss touching real and imaginary parts (or the real output) unevenly
    weights = RNG.standard_normal(tuple(expected.shape))
    if expected.is_complex():
        loss = (torch.real(out) * torch.tensor(weights)).sum() + (torch.imag(out) ** 2).sum()
        loss_ref = (expected.real * real_torch.tensor(weights)).sum() + (expected.imag ** 2).sum()
    else:
        loss = (out * torch.tensor(weights)).sum()
        loss_ref = (expected * real_torch.tensor(weights)).sum()
    loss.backward()
    loss_ref.backward()
    _close(ours.grad.numpy(), theirs.grad, rtol=1e-8, atol=1e-9)


def test_torch_real_to_complex_to_real_program_with_complex_parameter():
    signal = RNG.standard_normal((2, 16))
    filt = RNG.standard_normal(9) + 1j * RNG.standard_normal(9)
    results = []
    for lib in (torch, real_torch):
        x = lib.tensor(signal, dtype=lib.float32, requires_grad=True)
        w = lib.tensor(filt, dtype=lib.complex64, requires_grad=True)
        spectrum = lib.fft.rfft(x) * w
        y = lib.fft.irfft(spectrum, n=16)
        loss = (y ** 2).sum() + lib.abs(w).sum() + lib.angle(spectrum).sum()
        loss.backward()
        results.append([_array(t) if lib is real_torch else t.detach().numpy()
                        for t in (y, loss, x.grad, w.grad)])
    for ours, theirs in zip(*results):
        _close(ours, theirs, rtol=1e-4, atol=1e-4)
    assert results[0][3].dtype == np.complex64


def test_torch_complex_functions_match_pytorch():
    re, im = RNG.standard_normal(4), RNG.standard_normal(4)
    ours = [torch.tensor(re, requires_grad=True), torch.tensor(im, requires_grad=True)]
    theirs = [real_torch.tensor(re, requires_grad=True), real_torch.tensor(im, requires_grad=True)]
    for lib, (a, b) in ((torch, ours), (real_torch, theirs)):
        z = lib.complex(a, b)
        p = lib.polar(lib.abs(a), b)
        loss = (lib.real(lib.conj(z) * p).sum() + lib.imag(lib.sgn(z)).sum()
                + lib.view_as_real(lib.conj_physical(z)).pow(3).sum()
                + lib.angle(lib.view_as_complex(lib.stack([a, b], -1))).sum())
        loss.backward()
    for mine, ref in zip(ours, theirs):
        _close(mine.grad.numpy(), ref.grad, rtol=1e-9, atol=1e-9)
    z = torch.tensor([[1 + 2j, 3 - 1j], [0.5j, 2]])
    ref = real_torch.tensor([[1 + 2j, 3 - 1j], [0.5j, 2]])
    _close(torch.adjoint(z).numpy(), real_torch.adjoint(ref))
    assert torch.is_complex(z) and not torch.is_complex(torch.ones(1))
    assert not torch.is_conj(z)
    _close(torch.resolve_conj(z).numpy(), z.numpy())
    _close(torch.resolve_neg(z).numpy(), z.numpy())
    np.testing.assert_array_equal(torch.isreal(z).numpy(), _array(real_torch.isreal(ref)))
    assert torch.complex64 is torch.cfloat and torch.complex128 is torch.cdouble
    assert torch.tensor([1 + 1j]).dtype == torch.complex64


def test_torch_fft_out_and_errors():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    out = torch.zeros(3, dtype=torch.complex64)
    result = torch.fft.rfft(x, out=out)
    assert result is out
    _close(out.numpy(), np.fft.rfft([1.0, 2.0, 3.0, 4.0]))
    freq = torch.zeros(4)
    torch.fft.fftfreq(4, out=freq)
    _close(freq.numpy(), np.fft.fftfreq(4))
    target = torch.zeros(2, dtype=torch.complex64)
    torch.angle(torch.tensor([1j, -1 + 0j]), out=torch.zeros(2))
    torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), out=target)
    _close(target.numpy(), [1 + 3j, 2 + 4j])
    with pytest.raises(RuntimeError, match="can't be cast"):  # complex into a real out
        torch.fft.fft(x, out=torch.zeros(4))
    with pytest.raises(RuntimeError):
        torch.fft.rfft(torch.tensor([1j, 2j]))
    with pytest.raises(RuntimeError):
        real_torch.fft.rfft(real_torch.tensor([1j, 2j]))
    with pytest.raises(TypeError):
        torch.real(x, out=x)
    with pytest.raises(RuntimeError, match="adjoint"):
        torch.adjoint(x)
    _close(torch.fft.fftshift(torch.tensor([0.0, 1, 2, -3, -2, -1])).numpy(),
           [-3, -2, -1, 0, 1, 2])
    _close(torch.fft.ifftshift(torch.tensor([-3.0, -2, -1, 0, 1, 2])).numpy(),
           [0, 1, 2, -3, -2, -1])
    _close(torch.fft.rfftfreq(5, d=0.5).numpy(), np.fft.rfftfreq(5, d=0.5))


# ============================================================================ tensorflow


def test_tf_signal_complex_transforms_match_numpy():
    z64 = tf.constant(C3.astype(np.complex64))
    for fn, ref, rank in ((tf.signal.fft, np.fft.fftn, 1), (tf.signal.ifft, np.fft.ifftn, 1),
                          (tf.signal.fft2d, np.fft.fftn, 2), (tf.signal.ifft2d, np.fft.ifftn, 2),
                          (tf.signal.fft3d, np.fft.fftn, 3), (tf.signal.ifft3d, np.fft.ifftn, 3)):
        out = fn(z64)
        assert isinstance(out, tf.Tensor) and out.dtype == tf.complex64
        _close(out.numpy(), ref(C3, axes=tuple(range(-rank, 0))), rtol=1e-4, atol=1e-4)
    assert tf.signal.fft(tf.constant(Z)).dtype == tf.complex128
    with pytest.raises(TypeError, match="not in the list of allowed values"):
        tf.signal.fft(tf.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match="Treal"):
        tf.signal.rfft(tf.constant([1j]))
    with pytest.raises(ValueError, match="rank"):
        tf.signal.fft2d(tf.constant([1j]))


def test_tf_signal_real_transforms_match_numpy():
    x32 = tf.constant(X.astype(np.float32))
    spectrum = tf.signal.rfft(x32)
    assert spectrum.dtype == tf.complex64 and tuple(spectrum.shape) == (3, 5)
    _close(spectrum.numpy(), np.fft.rfft(X), rtol=1e-4, atol=1e-5)
    _close(tf.signal.rfft(x32, fft_length=[6]).numpy(), np.fft.rfft(X, n=6), rtol=1e-4,
           atol=1e-5)
    back = tf.signal.irfft(spectrum)
    assert back.dtype == tf.float32 and tuple(back.shape) == (3, 8)
    _close(back.numpy(), X, rtol=1e-4, atol=1e-5)
    _close(tf.signal.irfft(tf.constant(Z), fft_length=tf.constant([7])).numpy(),
           np.fft.irfft(Z, n=7))
    assert tf.signal.rfft(tf.constant(X)).dtype == tf.complex128
    _close(tf.signal.rfft2d(tf.constant(X)).numpy(), np.fft.rfft2(X))
    _close(tf.signal.irfft2d(tf.constant(Z)).numpy(), np.fft.irfft2(Z, s=(3, 14)))
    _close(tf.signal.rfft3d(tf.constant(C3.real), fft_length=[4, 4, 4]).numpy(),
           np.fft.rfftn(C3.real, s=(4, 4, 4), axes=(-3, -2, -1)))
    _close(tf.signal.irfft3d(tf.constant(C3)).numpy(),
           np.fft.irfftn(C3, s=(4, 6, 8), axes=(-3, -2, -1)))
    _close(tf.signal.fftshift(tf.constant(X)).numpy(), np.fft.fftshift(X))
    _close(tf.signal.ifftshift(tf.constant(X), axes=1).numpy(), np.fft.ifftshift(X, axes=1))
    _close(tf.signal.fftshift(tf.constant(X), axes=[0]).numpy(), np.fft.fftshift(X, axes=0))


def test_tf_complex_math_and_dtypes():
    z = tf.complex(tf.constant([3.0, -1.0]), tf.constant([4.0, 0.0]))
    assert z.dtype == tf.complex64 == tf.dtypes.complex64
    assert tf.dtypes.complex128 is tf.complex128
    _close(tf.math.real(z).numpy(), [3.0, -1.0])
    _close(tf.math.imag(z).numpy(), [4.0, 0.0])
    _close(tf.math.angle(z).numpy(), np.angle([3 + 4j, -1 + 0j]))
    _close(tf.math.conj(z).numpy(), [3 - 4j, -1 + 0j])
    _close(tf.abs(z).numpy(), [5.0, 1.0])
    assert tf.abs(z).dtype == tf.float32 and tf.math.real(z).dtype == tf.float32
    x = tf.constant([-2.0, 3.0])
    assert tf.math.real(x) is x and tf.math.conj(x) is x
    _close(tf.math.imag(x).numpy(), [0.0, 0.0])
    _close(tf.math.angle(x).numpy(), [np.pi, 0.0])
    _close(tf.cast(z, tf.float32).numpy(), [3.0, -1.0])
    assert tf.cast(x, tf.complex128).dtype == tf.complex128
    _close(tf.dtypes.cast(x, tf.complex64).numpy(), [-2 + 0j, 3 + 0j])
    assert tf.dtypes.complex is tf.complex
    with pytest.raises(TypeError):
        tf.complex(tf.constant([1.0]), tf.constant([1.0], dtype=tf.float64))
    with pytest.raises(TypeError):
        tf.complex(tf.constant([1]), tf.constant([1]))


def test_tf_gradients_follow_pytorch_convention():
    values = Z[0].astype(np.complex64)
    weights = RNG.standard_normal(5).astype(np.float32)
    z = tf.Variable(values)
    with tf.GradientTape() as tape:
        spectrum = tf.signal.fft(z)
        loss = tf.reduce_sum(tf.math.real(spectrum) * 2.0) + tf.reduce_sum(
            tf.abs(tf.signal.rfft(tf.math.imag(z), fft_length=[8])) * weights)
    grad = tape.gradient(loss, z)
    ref = real_torch.tensor(values, requires_grad=True)
    ref_loss = (real_torch.fft.fft(ref).real * 2.0).sum() + (
        real_torch.fft.rfft(ref.imag, n=8).abs() * real_torch.tensor(weights)).sum()
    ref_loss.backward()
    _close(grad.numpy(), ref.grad, rtol=1e-4, atol=1e-4)
    # cast complex -> real keeps the real part; its gradient is g + 0i
    w = tf.Variable(values)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(tf.cast(w, tf.float32)))
    _close(tape.gradient(loss, w).numpy(), 2 * values.real + 0j, rtol=1e-5)


# ============================================================================ mindspore


def test_mindspore_fft_functions_match_numpy():
    x = ms.Tensor(X.astype(np.float32))
    z = ms.Tensor(Z)
    cases = [
        (ops.fft(x), np.fft.fft(X)), (ops.ifft(z, n=5, dim=0), np.fft.ifft(Z, n=5, axis=0)),
        (ops.rfft(x, norm="ortho"), np.fft.rfft(X, norm="ortho")),
        (ops.irfft(z, n=9), np.fft.irfft(Z, n=9)), (ops.hfft(z), np.fft.hfft(Z)),
        (ops.ihfft(ms.Tensor(X)), np.fft.ihfft(X)), (ops.fft2(z), np.fft.fft2(Z)),
        (ops.ifft2(z, s=(2, 4)), np.fft.ifft2(Z, s=(2, 4))), (ops.rfft2(x), np.fft.rfft2(X)),
        (ops.irfft2(z), np.fft.irfft2(Z)), (ops.fftn(ms.Tensor(C3)), np.fft.fftn(C3)),
        (ops.ifftn(ms.Tensor(C3), dim=(1, 2)), np.fft.ifftn(C3, axes=(1, 2))),
        (ops.rfftn(ms.Tensor(C3.real), s=(3, 3)), np.fft.rfftn(C3.real, s=(3, 3), axes=(-2, -1))),
        (ops.irfftn(ms.Tensor(C3)), np.fft.irfftn(C3)),
        (ops.fftshift(x), np.fft.fftshift(X)), (ops.ifftshift(x, dim=1), np.fft.ifftshift(X, 1)),
    ]
    for out, expected in cases:
        assert isinstance(out, ms.Tensor)
        _close(out.asnumpy(), expected, rtol=1e-4, atol=1e-4)
    assert ops.fft(x).dtype == ms.complex64 and ops.fft(ms.Tensor(X)).dtype == ms.complex128
    assert ops.fft(ms.Tensor([1, 2, 3], ms.int32)).dtype == ms.complex64
    assert ops.irfft(ops.rfft(x)).dtype == ms.float32
    with pytest.raises(TypeError):
        ops.fft([1.0, 2.0])
    with pytest.raises(ValueError):
        ops.fft(x, n=0)
    with pytest.raises(ValueError):
        ops.fft(x, dim=2)
    with pytest.raises(TypeError):
        ops.rfft(z)
    with pytest.raises(ValueError):
        ops.fft(x, norm="bogus")


def test_mindspore_complex_functions_and_dtypes():
    assert repr(ms.complex64) == "mindspore.complex64" and ms.dtype.complex128 == ms.complex128
    z = ops.complex(ms.Tensor([3.0, 0.0]), ms.Tensor([4.0, -1.0]))
    assert z.dtype == ms.complex64
    _close(ops.real(z).asnumpy(), [3.0, 0.0])
    _close(ops.imag(z).asnumpy(), [4.0, -1.0])
    _close(ops.conj(z).asnumpy(), [3 - 4j, 1j])
    _close(ops.angle(z).asnumpy(), np.angle([3 + 4j, -1j]))
    _close(ops.view_as_real(z).asnumpy(), [[3.0, 4.0], [0.0, -1.0]])
    _close(ops.polar(ms.Tensor([2.0]), ms.Tensor([np.pi / 2])).asnumpy(), [2j], atol=1e-6)
    x = ms.Tensor([1.0, -2.0])
    assert ops.real(x) is x and ops.conj(x) is x
    _close(ops.imag(x).asnumpy(), [0.0, 0.0])
    with pytest.raises(TypeError):
        ops.angle(x)
    with pytest.raises(TypeError):
        ops.view_as_real(x)
    with pytest.raises(TypeError):
        ops.complex(ms.Tensor([1.0]), ms.Tensor([1.0], ms.float64))
    assert ops.add(x, 1.0).dtype == ms.float32  # ops.complex does not shadow the builtin there


def test_mindspore_gradients_follow_pytorch_convention():
    values = Z[1]

    def net(z):
        spectrum = ops.fft(z)
        return ops.reduce_sum(ops.real(spectrum) ** 2) + ops.reduce_sum(
            ops.angle(ops.ifft(z, n=6)))

    grad = ms.grad(net)(ms.Tensor(values))
    ref = real_torch.tensor(values, requires_grad=True)
    loss = (real_torch.fft.fft(ref).real ** 2).sum() + real_torch.fft.ifft(ref, n=6).angle().sum()
    loss.backward()
    _close(grad.asnumpy(), ref.grad, rtol=1e-8, atol=1e-8)
