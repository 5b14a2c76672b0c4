"""``tf.signal``: TensorFlow's fast Fourier transforms on :mod:`unigrad.fft`.

- ``fft``, ``ifft``, ``fft2d``, ``ifft2d``, ``fft3d``, ``ifft3d`` transform the
  innermost 1, 2 or 3 axes of a complex64/complex128 tensor (a real input is a
  ``TypeError``, TensorFlow's "not in the list of allowed values");
- ``rfft``, ``rfft2d``, ``rfft3d`` take a real float32/float64 tensor and give
  complex64/complex128 (the innermost axis keeps ``fft_length // 2 + 1``
  frequencies); ``irfft``, ``irfft2d``, ``irfft3d`` invert them, ``fft_length``
  defaulting to ``2 * (n - 1)`` on the innermost axis (the other axes keep
  their size). ``fft_length`` crops or zero-pads the input, as in TensorFlow;
- ``fftshift(x, axes=None)`` / ``ifftshift`` roll the zero frequency to the
  centre (all axes by default) and back.

All are differentiable; complex gradients follow TensorFlow's convention, which
is PyTorch's (``conj(df/dz) * upstream``, the conjugate Wirtinger derivative).
The inverse transforms scale by ``1/n``, as TensorFlow and NumPy do.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.signal.fft(tf.constant([1 + 0j, 2, 3, 4], dtype=tf.complex64)).numpy()
    array([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j], dtype=complex64)
    >>> spectrum = tf.signal.rfft(tf.constant([1.0, 0.0, -1.0, 0.0]))
    >>> spectrum.numpy()
    array([0.+0.j, 2.+0.j, 0.+0.j], dtype=complex64)
    >>> tf.signal.irfft(spectrum).numpy()
    array([ 1.,  0., -1.,  0.], dtype=float32)
"""

from __future__ import annotations

import unigrad as ug
from unigrad import fft as _fft
from unigrad.tensor import Tensor as _UgTensor

from ._tensor import Tensor, as_tf, operand
from .math import _ret

__all__ = ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft", "irfft", "rfft2d",
           "irfft2d", "rfft3d", "irfft3d", "fftshift", "ifftshift"]

# TensorFlow's names of dtypes in its attribute errors
_TF_NAMES = {"float32": "float", "float64": "double", "float16": "half", "bool": "bool"}


def _tf_name(dtype) -> str:
    return _TF_NAMES.get(dtype.name, dtype.name)


def _check_rank(x: _UgTensor, rank: int, op_name: str) -> None:
    if x.ndim < rank:
        raise ValueError(f"Shape must be at least rank {rank} but is rank {x.ndim} for "
                         f"'{{{{node {op_name}}}}} = {op_name}'")


def _complex_operand(value, op_name: str, rank: int) -> _UgTensor:
    x = operand(value, "input")
    if not x.is_complex():
        raise TypeError(f"Value for attr 'Tcomplex' of {_tf_name(x.dtype)} is not in the list "
                        f"of allowed values: complex64, complex128 ; NodeDef: {op_name}")
    _check_rank(x, rank, op_name)
    return x


def _real_operand(value, op_name: str, rank: int) -> _UgTensor:
    x = operand(value, "input_tensor")
    if x.dtype not in (ug.float32, ug.float64):
        raise TypeError(f"Value for attr 'Treal' of {_tf_name(x.dtype)} is not in the list of "
                        f"allowed values: float, double ; NodeDef: {op_name}")
    _check_rank(x, rank, op_name)
    return x


def _lengths(fft_length, rank: int, op_name: str) -> tuple | None:
    """``fft_length`` (a list, tuple or int32 tensor of ``rank`` ints) as a tuple, or None."""
    if fft_length is None:
        return None
    if isinstance(fft_length, _UgTensor):
        fft_length = fft_length.tolist()
    if isinstance(fft_length, int):
        fft_length = [fft_length]
    lengths = tuple(int(n) for n in fft_length)
    if len(lengths) != rank:
        raise ValueError(f"Shape must be rank 1 with {rank} elements for fft_length of "
                         f"'{op_name}', got {list(lengths)}")
    if any(n < 0 for n in lengths):
        raise ValueError(f"{op_name}: fft_length must be non-negative, got {list(lengths)}")
    return lengths


def _innermost(rank: int) -> tuple:
    return tuple(range(-rank, 0))


def _complex_transform(tf_name: str, op_name: str, inverse: bool, rank: int):
    transform = _fft.ifftn if inverse else _fft.fftn

    def fn(input, name: str | None = None) -> Tensor:
        x = _complex_operand(input, op_name, rank)
        return as_tf(transform(x, dim=_innermost(rank)))
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = (f"``tf.signal.{tf_name}(input, name=None)``: the "
                  f"{'inverse ' if inverse else ''}discrete Fourier transform over the "
                  f"innermost {rank} ax{'is' if rank == 1 else 'es'} of a complex64/complex128 "
                  f"tensor (same dtype out).")
    return fn


def _rfft(tf_name: str, op_name: str, rank: int):
    def fn(input_tensor, fft_length=None, name: str | None = None) -> Tensor:
        x = _real_operand(input_tensor, op_name, rank)
        lengths = _lengths(fft_length, rank, op_name)
        return as_tf(_fft.rfftn(x, s=lengths, dim=_innermost(rank)))
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = (f"``tf.signal.{tf_name}(input_tensor, fft_length=None, name=None)``: the "
                  f"real-input FFT over the innermost {rank} ax{'is' if rank == 1 else 'es'} "
                  f"(float32 -> complex64, float64 -> complex128); ``fft_length`` crops or "
                  f"zero-pads the input first.")
    return fn


def _irfft(tf_name: str, op_name: str, rank: int):
    def fn(input_tensor, fft_length=None, name: str | None = None) -> Tensor:
        x = _complex_operand(input_tensor, op_name, rank)
        lengths = _lengths(fft_length, rank, op_name)
        if lengths is None:
            shape = tuple(x.shape)
            lengths = (*shape[x.ndim - rank:-1], 2 * (shape[-1] - 1))
        return as_tf(_fft.irfftn(x, s=lengths, dim=_innermost(rank)))
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = (f"``tf.signal.{tf_name}(input_tensor, fft_length=None, name=None)``: the "
                  f"inverse of ``{tf_name[1:]}``, a real tensor (complex64 -> float32); "
                  f"``fft_length`` defaults to ``2 * (n - 1)`` on the innermost axis.")
    return fn


fft = _complex_transform("fft", "FFT", False, 1)
ifft = _complex_transform("ifft", "IFFT", True, 1)
fft2d = _complex_transform("fft2d", "FFT2D", False, 2)
ifft2d = _complex_transform("ifft2d", "IFFT2D", True, 2)
fft3d = _complex_transform("fft3d", "FFT3D", False, 3)
ifft3d = _complex_transform("ifft3d", "IFFT3D", True, 3)
rfft = _rfft("rfft", "RFFT", 1)
rfft2d = _rfft("rfft2d", "RFFT2D", 2)
rfft3d = _rfft("rfft3d", "RFFT3D", 3)
irfft = _irfft("irfft", "IRFFT", 1)
irfft2d = _irfft("irfft2d", "IRFFT2D", 2)
irfft3d = _irfft("irfft3d", "IRFFT3D", 3)


def _axes(axes) -> tuple | None:
    if axes is None:
        return None
    if isinstance(axes, _UgTensor):
        axes = axes.tolist()
    if isinstance(axes, int):
        return (axes,)
    return tuple(int(a) for a in axes)


def fftshift(x, axes=None, name: str | None = None) -> Tensor:
    """``tf.signal.fftshift``: roll the zero-frequency term to the centre of ``axes`` (all
    axes when None).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.fftshift(tf.constant([0, 1, 2, -3, -2, -1])).numpy()
        array([-3, -2, -1,  0,  1,  2], dtype=int32)
    """
    x = operand(x, "x")
    return _ret(_fft.fftshift(x, dim=_axes(axes)), x)


def ifftshift(x, axes=None, name: str | None = None) -> Tensor:
    """``tf.signal.ifftshift``: the inverse of :func:`fftshift`.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.ifftshift(tf.constant([-2, -1, 0, 1, 2])).numpy()
        array([ 0,  1,  2, -2, -1], dtype=int32)
    """
    x = operand(x, "x")
    return _ret(_fft.ifftshift(x, dim=_axes(axes)), x)


# framing, windows and short-time transforms live in their own module (it uses the transforms
# above)
from ._signal_frames import (  # noqa: E402
    frame,
    hamming_window,
    hann_window,
    inverse_stft,
    kaiser_window,
    overlap_and_add,
    stft,
    vorbis_window,
)

__all__ += ["frame", "hamming_window", "hann_window", "inverse_stft", "kaiser_window",
            "overlap_and_add", "stft", "vorbis_window"]
from ._signal_spectral import (  # noqa: E402
    dct,
    idct,
    inverse_mdct,
    inverse_stft_window_fn,
    kaiser_bessel_derived_window,
    linear_to_mel_weight_matrix,
    mdct,
    mfccs_from_log_mel_spectrograms,
)

__all__ += ["dct", "idct", "inverse_stft_window_fn", "kaiser_bessel_derived_window",
            "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms", "mdct",
            "inverse_mdct"]
