"""``tf.random``: ``normal``, ``uniform`` and ``set_seed`` on unigrad's generator.

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

__all__ = ["normal", "uniform", "set_seed"]


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


def uniform(shape, minval=0, maxval=None, dtype=ug.float32, seed: int | None = None,
            name: str | None = None) -> Tensor:
    """``tf.random.uniform``: samples from ``[minval, maxval)`` (``maxval`` defaults to 1)."""
    dtype = _check_float(dtype, "uniform")
    if seed is not None:
        ug.manual_seed(int(seed))
    maxval = 1.0 if maxval is None else maxval
    sample = ug.rand(*_shape_arg(shape, "shape"), dtype=dtype)
    return as_tf(sample * (maxval - minval) + minval)
