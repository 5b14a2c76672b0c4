"""TensorFlow's framing and windows for short-time spectra: ``tf.signal.frame``,
``overlap_and_add``, ``stft``, ``inverse_stft`` and the ``hann_window``, ``hamming_window``,
``kaiser_window`` and ``vorbis_window`` functions, as composites of unigrad's ops.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.signal.frame(tf.range(6), frame_length=3, frame_step=2).numpy()
    array([[0, 1, 2],
           [2, 3, 4]], dtype=int32)
    >>> tf.signal.hann_window(4).numpy()
    array([0. , 0.5, 1. , 0.5], dtype=float32)
"""

from __future__ import annotations

import math

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F

from ._dtypes import as_dtype
from ._tensor import Tensor, as_tf, constant, operand
from .errors import InvalidArgumentError
from .math import _ret
from .signal import irfft, rfft

# TensorFlow's dtype as argument default
_TF_FLOAT32 = as_dtype("float32")

__all__ = ["frame", "overlap_and_add", "stft", "inverse_stft", "hann_window", "hamming_window",
           "kaiser_window", "vorbis_window"]


def _positive(value, name: str) -> int:
    value = int(value.item() if hasattr(value, "item") else value)
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value}")
    return value


def _frame_sizes(frame_length, frame_step) -> tuple:
    """``(frame_length, frame_step)`` as ints; TensorFlow's errors for a negative length or a
    zero step (a negative step gives no frames)."""
    length = int(frame_length.item() if hasattr(frame_length, "item") else frame_length)
    step = int(frame_step.item() if hasattr(frame_step, "item") else frame_step)
    if length < 0:
        raise InvalidArgumentError(None, None, f"Requires start <= limit when delta > 0: "
                                   f"0/{length}")
    if step == 0:
        raise InvalidArgumentError(None, None, "Integer division by zero")
    return length, step


def _window_positions(window_length, dtype) -> tuple:
    length = int(window_length)
    if length < 0:
        raise ValueError(f"window_length must be non-negative, got {length}")
    target = as_dtype(dtype)
    if target.kind != "f":
        raise ValueError(f"dtype must be a floating point type, got {target!r}")
    return length, target, ug.arange(length, dtype=target)


def _cosine_window(window_length, periodic: bool, dtype, a: float, b: float) -> Tensor:
    length, target, n = _window_positions(window_length, dtype)
    if length == 1:
        return constant(np.ones(1), dtype=target)
    denominator = length if periodic and length % 2 == 0 else length - 1
    return as_tf(a - b * ug.cos(2 * math.pi * n / denominator))


def hann_window(window_length, periodic: bool = True, dtype=_TF_FLOAT32,
                name: str | None = None) -> Tensor:
    """``0.5 - 0.5 * cos(2 pi n / N)``: ``N`` is the length for a ``periodic`` window of even
    length, else the length - 1 (as in TensorFlow, an odd length is always symmetric).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.hann_window(5).numpy()
        array([0. , 0.5, 1. , 0.5, 0. ], dtype=float32)
    """
    return _cosine_window(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic: bool = True, dtype=_TF_FLOAT32,
                   name: str | None = None) -> Tensor:
    """``0.54 - 0.46 * cos(2 pi n / N)`` (``N`` as in :func:`hann_window`).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.hamming_window(3, periodic=False).numpy().round(6)
        array([0.08, 1.  , 0.08], dtype=float32)
    """
    return _cosine_window(window_length, periodic, dtype, 0.54, 0.46)


def kaiser_window(window_length, beta: float = 12.0, dtype=_TF_FLOAT32,
                  name: str | None = None) -> Tensor:
    """``I0(beta * sqrt(1 - (2 n / (N - 1) - 1) ** 2)) / I0(beta)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.kaiser_window(3, beta=0.0).numpy()
        array([1., 1., 1.], dtype=float32)
    """
    length, target, n = _window_positions(window_length, dtype)
    if length == 1:
        return constant(np.ones(1), dtype=target)
    ratio = 2 * n / (length - 1) - 1
    argument = float(beta) * ug.sqrt(ug.clamp(1 - ratio * ratio, min=0))
    return as_tf(ug.i0(argument) / ug.i0(ug.tensor(float(beta), dtype=target)))


def vorbis_window(window_length, dtype=_TF_FLOAT32, name: str | None = None) -> Tensor:
    """``sin(pi / 2 * sin(pi * (n + 0.5) / N) ** 2)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.vorbis_window(2).numpy()
        array([0.70710677, 0.70710677], dtype=float32)
    """
    length, _, n = _window_positions(window_length, dtype)
    inner = ug.sin(math.pi * (n + 0.5) / length)
    return as_tf(ug.sin(math.pi / 2 * inner * inner))


def _frame_count(size: int, frame_length: int, frame_step: int, pad_end: bool) -> int:
    if pad_end:
        return max(0, -(-size // frame_step))
    return max(0, 1 + (size - frame_length) // frame_step)


def frame(signal, frame_length, frame_step, pad_end: bool = False, pad_value=0, axis: int = -1,
          name: str | None = None) -> Tensor:
    """Overlapping frames of ``frame_length`` samples every ``frame_step`` along ``axis``
    (that axis becomes ``[frames, frame_length]``); ``pad_end`` pads the end with
    ``pad_value`` so that a frame starts at every ``frame_step``-th sample.

    Raises:
        InvalidArgumentError: For a negative ``frame_length`` or a zero ``frame_step``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.frame(tf.range(5), 2, 2, pad_end=True).numpy()
        array([[0, 1],
               [2, 3],
               [4, 0]], dtype=int32)
    """
    x = operand(signal, "signal")
    length, step = _frame_sizes(frame_length, frame_step)
    axis = int(axis) % x.ndim if x.ndim else 0
    moved = ug.movedim(x, axis, -1)
    size = moved.shape[-1]
    count = _frame_count(size, length, step, pad_end)
    needed = (count - 1) * step + length if count else 0
    if pad_end and needed > size:
        moved = F.pad(moved, (0, needed - size), value=float(pad_value))
    starts = np.arange(count)[:, None] * step + np.arange(length)[None, :]
    picked = ug.index_select(moved, -1, ug.tensor(starts.reshape(-1).astype(np.int64)))
    framed = ug.reshape(picked, tuple(moved.shape[:-1]) + (count, length))
    return _ret(ug.movedim(ug.movedim(framed, -1, axis), -1, axis), x)


def overlap_and_add(signal, frame_step, name: str | None = None) -> Tensor:
    """The sum of the frames ``signal[..., frames, frame_length]`` placed ``frame_step``
    apart: a signal of ``(frames - 1) * frame_step + frame_length`` samples.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.overlap_and_add(tf.ones((3, 2)), 1).numpy()
        array([1., 2., 2., 1.], dtype=float32)
    """
    x = operand(signal, "signal")
    if x.ndim < 2:
        raise ValueError(f"signal must be at least 2-D ([..., frames, frame_length]), got "
                         f"shape {tuple(x.shape)}")
    step = _positive(frame_step, "frame_step")
    count, length = x.shape[-2:]
    total = (count - 1) * step + length if count else 0
    positions = np.arange(count)[:, None] * step + np.arange(length)[None, :]
    flat = ug.reshape(x, tuple(x.shape[:-2]) + (count * length,))
    zeros = ug.zeros(tuple(x.shape[:-2]) + (total,), dtype=x.dtype)
    index = ug.tensor(positions.reshape(-1).astype(np.int64))
    return _ret(ug.index_add(zeros, -1, index, flat), x)


def _fft_length(fft_length, frame_length: int) -> int:
    if fft_length is None:
        return 1 << max(0, math.ceil(math.log2(frame_length)))
    return _positive(fft_length, "fft_length")


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end: bool = False, name: str | None = None) -> Tensor:
    """The short-time Fourier transform: frames of ``signals`` (float32/float64) times
    ``window_fn(frame_length, dtype=...)``, each transformed by ``rfft`` of ``fft_length``
    (default: the next power of 2); shape ``[..., frames, fft_length // 2 + 1]``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.stft(tf.ones(16), frame_length=8, frame_step=4).shape
        TensorShape([3, 5])
    """
    x = operand(signals, "signals")
    length = _positive(frame_length, "frame_length")
    framed = frame(x, length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(length, dtype=x.dtype)
    return rfft(framed, [_fft_length(fft_length, length)])


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name: str | None = None) -> Tensor:
    """The inverse of :func:`stft` (without window normalization, as in TensorFlow: pass
    ``tf.signal.inverse_stft_window_fn``'s window for a perfect reconstruction).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.signal.inverse_stft(tf.signal.stft(tf.ones(16), 8, 4), 8, 4).shape
        TensorShape([16])
    """
    spectra = operand(stfts, "stfts")
    length = _positive(frame_length, "frame_length")
    frames = irfft(spectra, [_fft_length(fft_length, length)])
    frames = ug.narrow(frames, -1, 0, min(length, frames.shape[-1]))
    if frames.shape[-1] < length:
        frames = F.pad(frames, (0, length - frames.shape[-1]))
    if window_fn is not None:
        frames = frames * window_fn(length, dtype=frames.dtype)
    return overlap_and_add(frames, frame_step)
