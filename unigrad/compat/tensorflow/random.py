"""``tf.random``: ``normal``, ``uniform``, ``poisson``, ``categorical``, ``shuffle`` and
``set_seed`` on unigrad's generator.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.random.set_seed(0)
    >>> a = tf.random.normal([2])
    >>> tf.random.set_seed(0)
    >>> bool((tf.random.normal([2]) == a).numpy().all())
    True
"""

from __future__ import annotations

import unigrad as ug

from ._array_ops import _shape_arg
from ._tensor import Tensor, _dtype, as_tf

__all__ = ["normal", "truncated_normal", "uniform", "set_seed", "poisson", "categorical",
           "shuffle"]


def set_seed(seed: int) -> None:
    """``tf.random.set_seed``: make the random ops reproducible (seeds unigrad's generator)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    ug.manual_seed(seed)


def _check_float(dtype, name: str):
    dtype = _dtype(dtype, "dtype")
    if not dtype.is_floating_point:
        raise ValueError(f"{name}: dtype must be a floating point type, got {dtype.name}")
    return dtype


def normal(shape, mean=0.0, stddev=1.0, dtype=ug.float32, seed: int | None = None,
           name: str | None = None) -> Tensor:
    """``tf.random.normal``: samples from ``N(mean, stddev**2)``."""
    dtype = _check_float(dtype, "normal")
    if seed is not None:
        ug.manual_seed(int(seed))
    sample = ug.randn(*_shape_arg(shape, "shape"), dtype=dtype)
    return as_tf(sample * stddev + mean)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=ug.float32, seed: int | None = None,
                     name: str | None = None) -> Tensor:
    """``tf.random.truncated_normal``: samples of ``N(mean, stddev**2)`` redrawn until
    they lie within two standard deviations of the mean.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> sample = tf.random.truncated_normal([1000], stddev=0.5)
        >>> bool(tf.reduce_all(tf.abs(sample) <= 1.0))
        True
    """
    dtype = _check_float(dtype, "truncated_normal")
    if seed is not None:
        ug.manual_seed(int(seed))
    sample = ug.randn(*_shape_arg(shape, "shape"), dtype=dtype)
    outside = ug.abs(sample) > 2.0
    while bool(outside.any()):
        sample = ug.where(outside, ug.randn(*sample.shape, dtype=dtype), sample)
        outside = ug.abs(sample) > 2.0
    return as_tf(sample * stddev + mean)


def uniform(shape, minval=0, maxval=None, dtype=ug.float32, seed: int | None = None,
            name: str | None = None) -> Tensor:
    """``tf.random.uniform``: samples from ``[minval, maxval)`` (``maxval`` defaults to 1)."""
    dtype = _check_float(dtype, "uniform")
    if seed is not None:
        ug.manual_seed(int(seed))
    maxval = 1.0 if maxval is None else maxval
    sample = ug.rand(*_shape_arg(shape, "shape"), dtype=dtype)
    return as_tf(sample * (maxval - minval) + minval)


def _input(value, name: str):
    """A tensor argument: Tensors pass through, Python values and arrays are converted."""
    return value if isinstance(value, ug.Tensor) else ug.tensor(value)


def poisson(shape, lam, dtype=ug.float32, seed: int | None = None,
            name: str | None = None) -> Tensor:
    """``tf.random.poisson``: ``shape`` samples of each rate in ``lam``; the result's
    shape is ``shape + lam.shape``."""
    dtype = _dtype(dtype, "dtype")
    if seed is not None:
        ug.manual_seed(int(seed))
    rates = _input(lam, "lam")
    shape = _shape_arg(shape, "shape")
    rates = ug.broadcast_to(ug.cast(rates, ug.float64), shape + tuple(rates.shape))
    return as_tf(ug.cast(ug.poisson(rates), dtype))


def categorical(logits, num_samples: int, dtype=None, seed: int | None = None,
                name: str | None = None) -> Tensor:
    """``tf.random.categorical``: ``num_samples`` class indices per row of the 2-D
    ``logits`` (``[batch, classes]``, unnormalized log-probabilities), int64 unless
    ``dtype``."""
    logits = _input(logits, "logits")
    if logits.ndim != 2:
        raise ValueError(f"logits should be a matrix, got shape {list(logits.shape)}")
    dtype = ug.int64 if dtype is None else _dtype(dtype, "dtype")
    if dtype not in (ug.int32, ug.int64):
        raise ValueError(f"categorical: dtype must be int32 or int64, got {dtype.name}")
    if seed is not None:
        ug.manual_seed(int(seed))
    probabilities = ug.softmax(ug.cast(ug.stop_gradient(logits), ug.float64), -1)
    return as_tf(ug.cast(ug.multinomial(probabilities, int(num_samples), replacement=True),
                         dtype))


def shuffle(value, seed: int | None = None, name: str | None = None) -> Tensor:
    """``tf.random.shuffle``: ``value`` with its first dimension randomly permuted."""
    value = _input(value, "value")
    if value.ndim == 0:
        raise ValueError("shuffle: value must be at least 1-D")
    if seed is not None:
        ug.manual_seed(int(seed))
    return as_tf(value[ug.randperm(value.shape[0])])
