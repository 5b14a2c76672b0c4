"""TensorFlow 1's initializers (``tf.compat.v1.zeros_initializer``, ...,
``tf.compat.v1.initializers``): Keras' initializers with TensorFlow 1's defaults and
call signature ``initializer(shape, dtype=None, partition_info=None)``.

Example:
    >>> import unigrad.compat.tensorflow.compat.v1 as tf
    >>> tf.constant_initializer(0.5)([2]).numpy()
    array([0.5, 0.5], dtype=float32)
    >>> tf.random_normal_initializer().stddev  # TF1's default (Keras' is 0.05)
    1.0
"""

from __future__ import annotations

from types import SimpleNamespace

from .keras import initializers as _keras

__all__ = ["zeros_initializer", "ones_initializer", "constant_initializer",
           "random_normal_initializer", "truncated_normal_initializer",
           "random_uniform_initializer", "glorot_uniform_initializer",
           "glorot_normal_initializer", "variance_scaling_initializer", "orthogonal_initializer",
           "initializers"]


class _TensorFlow1Call:
    """TF1's call: ``partition_info`` is accepted (and has no effect)."""

    def __call__(self, shape, dtype=None, partition_info=None):
        return super().__call__(shape, dtype=dtype)


class zeros_initializer(_TensorFlow1Call, _keras.Zeros):  # noqa: N801 - TF1's names
    """Zeros (``tf.compat.v1.zeros_initializer(dtype=tf.float32)``)."""

    def __init__(self, dtype=None):
        super().__init__()


class ones_initializer(_TensorFlow1Call, _keras.Ones):  # noqa: N801
    """Ones."""

    def __init__(self, dtype=None):
        super().__init__()


class constant_initializer(_TensorFlow1Call, _keras.Constant):  # noqa: N801
    """A constant ``value`` (broadcast to the shape)."""

    def __init__(self, value=0, dtype=None, verify_shape: bool = False):
        super().__init__(value)


class random_normal_initializer(_TensorFlow1Call, _keras.RandomNormal):  # noqa: N801
    """``N(mean, stddev**2)`` samples; TF1's defaults ``mean=0.0, stddev=1.0``."""

    def __init__(self, mean: float = 0.0, stddev: float = 1.0, seed=None, dtype=None):
        super().__init__(mean=mean, stddev=stddev, seed=seed)


class truncated_normal_initializer(_TensorFlow1Call, _keras.TruncatedNormal):  # noqa: N801
    """Normal samples redrawn beyond two standard deviations; ``stddev=1.0``."""

    def __init__(self, mean: float = 0.0, stddev: float = 1.0, seed=None, dtype=None):
        super().__init__(mean=mean, stddev=stddev, seed=seed)


class random_uniform_initializer(_TensorFlow1Call, _keras.RandomUniform):  # noqa: N801
    """Uniform samples in ``[minval, maxval)``; TF1's defaults ``0`` and ``None`` (which
    means ``1``)."""

    def __init__(self, minval: float = 0.0, maxval: float | None = None, seed=None, dtype=None):
        super().__init__(minval=minval, maxval=maxval, seed=seed)

    def _array(self, shape, dtype):
        maxval = 1.0 if self.maxval is None else self.maxval
        return self._generator().uniform(self.minval, maxval, shape)


class variance_scaling_initializer(_TensorFlow1Call, _keras.VarianceScaling):  # noqa: N801
    """Variance ``scale / fan``; TF1's default distribution ``"truncated_normal"``."""

    def __init__(self, scale: float = 1.0, mode: str = "fan_in",
                 distribution: str = "truncated_normal", seed=None, dtype=None):
        super().__init__(scale=scale, mode=mode, distribution=distribution, seed=seed)


class glorot_uniform_initializer(_TensorFlow1Call, _keras.GlorotUniform):  # noqa: N801
    """Uniform in ``+-sqrt(6 / (fan_in + fan_out))`` (``get_variable``'s default)."""

    def __init__(self, seed=None, dtype=None):
        super().__init__(seed=seed)


class glorot_normal_initializer(_TensorFlow1Call, _keras.GlorotNormal):  # noqa: N801
    """Truncated normal with variance ``2 / (fan_in + fan_out)``."""

    def __init__(self, seed=None, dtype=None):
        super().__init__(seed=seed)


class orthogonal_initializer(_TensorFlow1Call, _keras.Orthogonal):  # noqa: N801
    """A (semi-)orthogonal matrix times ``gain``."""

    def __init__(self, gain: float = 1.0, seed=None, dtype=None):
        super().__init__(gain=gain, seed=seed)


#: ``tf.compat.v1.initializers``: the same initializers under their short names.
initializers = SimpleNamespace(
    zeros=zeros_initializer, ones=ones_initializer, constant=constant_initializer,
    random_normal=random_normal_initializer, truncated_normal=truncated_normal_initializer,
    random_uniform=random_uniform_initializer, glorot_uniform=glorot_uniform_initializer,
    glorot_normal=glorot_normal_initializer, variance_scaling=variance_scaling_initializer,
    orthogonal=orthogonal_initializer)
