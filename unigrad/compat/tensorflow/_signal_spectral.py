"""TensorFlow's further spectral ops: the cosine transforms ``tf.signal.dct`` / ``idct``
(types I-IV, TensorFlow's FFT-based formulas), ``linear_to_mel_weight_matrix``,
``mfccs_from_log_mel_spectrograms``, ``inverse_stft_window_fn``,
``kaiser_bessel_derived_window`` and the modified DCT ``mdct`` / ``inverse_mdct``, on unigrad's
ops.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.signal.dct(tf.constant([1.0, 2.0, 3.0]), norm="ortho").numpy().round(4)
    array([ 3.4641, -1.4142,  0.    ], dtype=float32)
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F
from unigrad.tensor import Tensor as _UgTensor

from ._dtypes import as_dtype
from ._signal_frames import frame, hann_window, kaiser_window, overlap_and_add, vorbis_window
from ._tensor import Tensor, as_tf, constant, operand
from .math import _ret
from .signal import irfft, rfft

__all__ = ["dct", "idct", "linear_to_mel_weight_matrix",
           "mfccs_from_log_mel_spectrograms", "inverse_stft_window_fn",
           "kaiser_bessel_derived_window", "mdct", "inverse_mdct"]

_TF_FLOAT32 = as_dtype("float32")


def _check_dct(x: _UgTensor, dct_type: int, n, axis: int, norm) -> None:
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        if x.shape[-1] < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def _fit(x: _UgTensor, n) -> _UgTensor:
    if n is None or n == x.shape[-1]:
        return x
    if n < x.shape[-1]:
        return ug.narrow(x, -1, 0, n)
    return F.pad(x, (0, n - x.shape[-1]))


def _weights(size: int, first: float, rest: float, like: _UgTensor) -> _UgTensor:
    values = np.full(size, rest)
    values[0] = first
    return ug.tensor(values.astype(like.dtype.np_dtype))


def _dct(x: _UgTensor, dct_type: int, n, norm) -> _UgTensor:
    x = _fit(x, n)
    size = x.shape[-1]
    if dct_type == 1:
        mirrored = ug.cat([x, ug.flip(ug.narrow(x, -1, 1, size - 2), (-1,))], -1)
        return ug.real(rfft(mirrored))
    phase = np.arange(size) * math.pi * 0.5 / size
    if dct_type == 2:
        scale = ug.tensor((2.0 * np.exp(-1j * phase)).astype(x.dtype.to_complex().np_dtype))
        result = ug.real(ug.narrow(rfft(x, [2 * size]), -1, 0, size) * scale)
        if norm == "ortho":
            first = 0.5 / math.sqrt(size)
            result = result * _weights(size, first, first * math.sqrt(2.0), result)
        return result
    if dct_type == 3:
        if norm == "ortho":
            x = x * _weights(size, math.sqrt(size), math.sqrt(size) * math.sqrt(0.5), x)
        else:
            x = x * float(size)
        scale = ug.tensor((2.0 * np.exp(1j * phase)).astype(x.dtype.to_complex().np_dtype))
        return ug.narrow(irfft(scale * x.to(x.dtype.to_complex()), [2 * size]), -1, 0, size)
    doubled = _dct(x, 2, 2 * size, None)
    result = doubled[..., 1::2]
    return result * (math.sqrt(0.5) / math.sqrt(size)) if norm == "ortho" else result


def _real_signal(value) -> _UgTensor:
    x = operand(value, "input")
    if x.dtype.kind != "f" or x.dtype.itemsize < 4:
        raise TypeError(f"input must be a float32 or float64 tensor, got {x.dtype!r}")
    return x


def dct(input, type: int = 2, n=None, axis: int = -1, norm=None,
        name: str | None = None) -> Tensor:
    """The discrete cosine transform of type 1-4 of the last axis of a float32/float64
    ``input`` (first cropped or zero-padded to ``n``); ``norm="ortho"`` makes types 2-4
    orthonormal.

    Raises:
        ValueError: For another type or norm, ``n < 1``, or ortho with type 1.
        NotImplementedError: For ``axis`` other than -1 (as in TensorFlow).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.dct(tf.constant([1.0, 0.0, 0.0])).numpy().round(4)
        array([2.    , 1.7321, 1.    ], dtype=float32)
    """
    x = _real_signal(input)
    _check_dct(x, type, n, axis, norm)
    return _ret(_dct(x, type, n, norm), x)


def idct(input, type: int = 2, n=None, axis: int = -1, norm=None,
         name: str | None = None) -> Tensor:
    """The inverse of :func:`dct` up to a scale (exact with ``norm="ortho"``): the DCT of the
    inverse type (2 and 3 swap; 1 and 4 are their own).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.constant([1.0, 2.0, 3.0])
        >>> tf.signal.idct(tf.signal.dct(x, norm="ortho"), norm="ortho").numpy().round(4)
        array([1., 2., 3.], dtype=float32)
    """
    x = _real_signal(input)
    _check_dct(x, type, n, axis, norm)
    return _ret(_dct(x, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, norm), x)


def _hertz_to_mel(frequencies):
    return 1127.0 * np.log(1.0 + frequencies / 700.0)


def linear_to_mel_weight_matrix(num_mel_bins: int = 20, num_spectrogram_bins: int = 129,
                                sample_rate=8000, lower_edge_hertz: float = 125.0,
                                upper_edge_hertz: float = 3800.0, dtype=_TF_FLOAT32,
                                name: str | None = None) -> Tensor:
    """``[num_spectrogram_bins, num_mel_bins]`` triangular filters on the mel scale (the
    first, DC, bin maps to nothing), to turn a linear spectrogram into a mel one.

    Raises:
        ValueError: For non-positive counts or rate, a negative or misordered edge, an edge
            above Nyquist, or a non-floating ``dtype``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.linear_to_mel_weight_matrix(2, 5, 8000, 0.0, 4000.0).numpy().round(3)
        array([[0.   , 0.   ],
               [0.602, 0.398],
               [0.   , 0.873],
               [0.   , 0.377],
               [0.   , 0.   ]], dtype=float32)
    """
    target = as_dtype(dtype)
    if isinstance(sample_rate, _UgTensor):
        sample_rate = sample_rate.item()
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower_edge_hertz < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz "
                         f"{upper_edge_hertz:.1f}")
    if sample_rate <= 0.0:
        raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
    if upper_edge_hertz > sample_rate / 2:
        raise ValueError(f"upper_edge_hertz must not be larger than the Nyquist frequency "
                         f"(sample_rate / 2). Got {upper_edge_hertz} for sample_rate: "
                         f"{sample_rate}")
    if target.kind != "f":
        raise ValueError(f"dtype must be a floating point type. Got: {target}")
    work = target.np_dtype.type
    frequencies = np.linspace(work(0), work(sample_rate / 2), num_spectrogram_bins,
                              dtype=target.np_dtype)[1:]
    bins = _hertz_to_mel(frequencies)[:, None]
    edges = np.linspace(_hertz_to_mel(work(lower_edge_hertz)),
                        _hertz_to_mel(work(upper_edge_hertz)), num_mel_bins + 2,
                        dtype=target.np_dtype)
    lower, center, upper = edges[:-2], edges[1:-1], edges[2:]
    rising = (bins - lower) / (center - lower)
    falling = (upper - bins) / (upper - center)
    weights = np.maximum(0, np.minimum(rising, falling))
    return constant(np.pad(weights, [(1, 0), (0, 0)]).astype(target.np_dtype))


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name: str | None = None) -> Tensor:
    """HTK's mel-frequency cepstral coefficients: the type-2 DCT of the last axis scaled by
    ``1 / sqrt(2 * num_mel_bins)``.

    Raises:
        ValueError: For an empty last axis.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.mfccs_from_log_mel_spectrograms(tf.constant([[2.0, 2.0]])).numpy()
        array([[4., 0.]], dtype=float32)
    """
    x = _real_signal(log_mel_spectrograms)
    if x.ndim and x.shape[-1] == 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {x!r}")
    return _ret(_dct(x, 2, None, None) / math.sqrt(2.0 * x.shape[-1]), x)


def inverse_stft_window_fn(frame_step: int, forward_window_fn=hann_window,
                           name: str | None = None) -> Callable:
    """A ``window_fn`` for :func:`inverse_stft` that undoes ``forward_window_fn``'s overlap
    with frames ``frame_step`` apart (Griffin and Lim's equation 7).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.inverse_stft_window_fn(2)(4, tf.float32).numpy()
        array([0., 1., 1., 1.], dtype=float32)
    """
    def window(frame_length: int, dtype) -> Tensor:
        forward = operand(forward_window_fn(frame_length, dtype=dtype), "forward window")
        length, step = int(frame_length), int(frame_step)
        overlaps = -(-length // step)
        squares = F.pad(forward * forward, (0, overlaps * step - length))
        denominator = ug.sum(ug.reshape(squares, (overlaps, step)), 0, keepdim=True)
        denominator = ug.narrow(ug.reshape(ug.tile(denominator, (overlaps, 1)), (-1,)), 0, 0,
                                length)
        safe = ug.where(denominator == 0, ug.ones_like(denominator), denominator)
        return as_tf(ug.where(denominator == 0, ug.zeros_like(forward), forward / safe))
    return window


def kaiser_bessel_derived_window(window_length, beta: float = 12.0, dtype=_TF_FLOAT32,
                                 name: str | None = None) -> Tensor:
    """The Kaiser-Bessel-derived window: the square root of the normalized running sum of
    a Kaiser window of half the length, mirrored.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.kaiser_bessel_derived_window(4, beta=0.0).numpy().round(4)
        array([0.5774, 0.8165, 0.8165, 0.5774], dtype=float32)
    """
    half = int(window_length) // 2
    kaiser = kaiser_window(half + 1, beta, dtype=dtype)
    running = ug.cumsum(kaiser, 0)
    half_window = ug.sqrt(ug.narrow(running, 0, 0, half) / running[-1])
    return as_tf(ug.cat([half_window, ug.flip(half_window, (0,))], 0))


def _windowed(frames: _UgTensor, window_fn, length: int) -> _UgTensor:
    if window_fn is None:
        return frames * (1.0 / math.sqrt(2))
    return frames * window_fn(length, dtype=frames.dtype)


def mdct(signals, frame_length: int, window_fn=vorbis_window, pad_end: bool = False,
         norm=None, name: str | None = None) -> Tensor:
    """The modified DCT of frames of ``frame_length`` samples every ``frame_length // 2``
    (times ``window_fn``'s window; ``1/sqrt(2)`` when None): ``[..., frames,
    frame_length // 2]``, via a type-4 DCT (orthonormal with ``norm="ortho"``).

    Raises:
        ValueError: When ``frame_length`` is not a multiple of 4.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.mdct(tf.ones(8), 4).shape
        TensorShape([3, 2])
    """
    x = _real_signal(signals)
    length = int(frame_length)
    if length % 4:
        raise ValueError("The frame length must be a multiple of 4.")
    framed = _windowed(frame(x, length, length // 2, pad_end=pad_end), window_fn, length)
    quarter = length // 4
    a, b, c, d = (ug.narrow(framed, -1, i * quarter, quarter) for i in range(4))
    rearranged = ug.cat([-ug.flip(c, (-1,)) - d, a - ug.flip(b, (-1,))], -1)
    _check_dct(rearranged, 4, None, -1, norm)
    return _ret(_dct(rearranged, 4, None, norm), x)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name: str | None = None) -> Tensor:
    """The inverse of :func:`mdct` (overlap-added frames; pass the same ``window_fn`` for a
    perfect reconstruction).

    Raises:
        ValueError: When ``mdcts`` is not at least 2-D.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.inverse_mdct(tf.signal.mdct(tf.ones(8), 4)).shape
        TensorShape([8])
    """
    spectra = _real_signal(mdcts)
    if spectra.ndim < 2:
        raise ValueError(f"mdcts must be at least 2-D, got shape {tuple(spectra.shape)}")
    half = spectra.shape[-1]
    _check_dct(spectra, 4, None, -1, norm)
    frames = _dct(spectra, 4, None, "ortho") if norm == "ortho" else \
        (0.5 / half) * _dct(spectra, 4, None, None)
    first = ug.narrow(frames, -1, 0, half // 2)
    second = ug.narrow(frames, -1, half // 2, half - half // 2)
    real = ug.cat([second, -ug.flip(second, (-1,)), -ug.flip(first, (-1,)), -first], -1)
    return _ret(overlap_and_add(_windowed(real, window_fn, 2 * half), half), spectra)
