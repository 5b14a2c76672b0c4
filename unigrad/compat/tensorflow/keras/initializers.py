"""``tf.keras.initializers``: Keras 3's weight initializers and ``get``.

An initializer is called as ``initializer(shape, dtype=None)`` and returns a
``tf.Tensor`` (float32 by default). The random ones draw from NumPy's
generator, seeded by ``seed`` or else from unigrad's global generator (so
``tf.random.set_seed`` makes them reproducible); their numbers are not Keras'
stream, their distributions are. Fans follow Keras: a kernel ``(..., in, out)``
has ``fan_in = in * receptive_field`` and ``fan_out = out * receptive_field``.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.keras.initializers.Constant(2.0)((2,))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 2.], dtype=float32)>
    >>> type(tf.keras.initializers.get("glorot_uniform")).__name__
    'GlorotUniform'
"""

from __future__ import annotations

import math

import numpy as np

import unigrad as ug

from .._tensor import Tensor, _dtype
from .._tensor import constant as _constant_tensor

__all__ = ["Initializer", "Zeros", "Ones", "Constant", "Identity", "RandomNormal",
           "RandomUniform", "TruncatedNormal", "VarianceScaling", "GlorotUniform",
           "GlorotNormal", "HeNormal", "HeUniform", "LecunNormal", "LecunUniform", "Orthogonal",
           "get", "serialize", "zeros", "ones", "constant", "identity", "random_normal",
           "random_uniform", "truncated_normal", "variance_scaling", "glorot_uniform",
           "glorot_normal", "he_normal", "he_uniform", "lecun_normal", "lecun_uniform",
           "orthogonal"]


def _numpy_dtype(dtype) -> np.dtype:
    from unigrad import backend

    return backend.to_numpy_dtype(_dtype("float32" if dtype is None else dtype, "dtype"))


def _shape(shape) -> tuple:
    return tuple(int(size) for size in shape)


class Initializer:
    """Base class: ``initializer(shape, dtype=None)`` gives the initial value as a tensor.

    Subclasses define ``_array(shape, dtype)`` returning a NumPy array.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.initializers.Ones().get_config()
        {}
    """

    def __call__(self, shape, dtype=None) -> Tensor:
        shape = _shape(shape)
        dtype = _numpy_dtype(dtype)
        return _constant_tensor(np.asarray(self._array(shape, dtype), dtype=dtype))

    def _array(self, shape: tuple, dtype: np.dtype) -> np.ndarray:
        raise NotImplementedError

    def get_config(self) -> dict:
        """The constructor's arguments (Keras' ``get_config``)."""
        return {}

    @classmethod
    def from_config(cls, config: dict) -> Initializer:
        """An initializer built from :meth:`get_config`'s dict."""
        return cls(**config)


class Zeros(Initializer):
    """All zeros.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.initializers.Zeros()((2,)).numpy()
        array([0., 0.], dtype=float32)
    """

    def _array(self, shape, dtype):
        return np.zeros(shape, dtype)


class Ones(Initializer):
    """All ones.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.initializers.Ones()((1, 2)).numpy()
        array([[1., 1.]], dtype=float32)
    """

    def _array(self, shape, dtype):
        return np.ones(shape, dtype)


class Constant(Initializer):
    """Every element ``value``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.initializers.Constant(0.5)((2,)).numpy()
        array([0.5, 0.5], dtype=float32)
    """

    def __init__(self, value=0.0):
        self.value = value

    def _array(self, shape, dtype):
        return np.broadcast_to(np.asarray(self.value, dtype), shape).copy()

    def get_config(self) -> dict:
        return {"value": self.value}


class Identity(Initializer):
    """``gain`` times the identity matrix (2-D shapes only).

    Raises:
        ValueError: For a shape that is not 2-D.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.initializers.Identity(gain=2.0)((2, 3)).numpy()
        array([[2., 0., 0.],
               [0., 2., 0.]], dtype=float32)
    """

    def __init__(self, gain: float = 1.0):
        self.gain = gain

    def _array(self, shape, dtype):
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        return self.gain * np.eye(*shape, dtype=dtype)

    def get_config(self) -> dict:
        return {"gain": self.gain}


class _Random(Initializer):
    """An initializer drawing from a NumPy generator seeded by ``seed`` (or unigrad's)."""

    def __init__(self, seed: int | None = None):
        self.seed = seed

    def _generator(self) -> np.random.Generator:
        if self.seed is not None:
            return np.random.default_rng(self.seed)
        return np.random.default_rng(int(ug.generator().integers(0, 2**31 - 1)))

    def get_config(self) -> dict:
        return {"seed": self.seed}


def _truncated(generator: np.random.Generator, shape: tuple, stddev: float) -> np.ndarray:
    """Normal samples with every value beyond two standard deviations drawn again."""
    values = generator.standard_normal(shape)
    outside = np.abs(values) > 2.0
    while outside.any():
        values[outside] = generator.standard_normal(int(outside.sum()))
        outside = np.abs(values) > 2.0
    return values * stddev


class RandomNormal(_Random):
    """Normal samples with ``mean`` and ``stddev``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.initializers.RandomNormal(stddev=0.0, mean=1.0)((2,)).numpy()
        array([1., 1.], dtype=float32)
    """

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: int | None = None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def _array(self, shape, dtype):
        return self.mean + self.stddev * self._generator().standard_normal(shape)

    def get_config(self) -> dict:
        return {"seed": self.seed, "mean": self.mean, "stddev": self.stddev}


class RandomUniform(_Random):
    """Uniform samples in ``[minval, maxval)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> values = tf.keras.initializers.RandomUniform(0.0, 1.0, seed=1)((100,)).numpy()
        >>> bool(values.min() >= 0.0 and values.max() < 1.0)
        True
    """

    def __init__(self, minval: float = -0.05, maxval: float = 0.05, seed: int | None = None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def _array(self, shape, dtype):
        return self._generator().uniform(self.minval, self.maxval, shape)

    def get_config(self) -> dict:
        return {"seed": self.seed, "minval": self.minval, "maxval": self.maxval}


class TruncatedNormal(_Random):
    """Normal samples with ``mean`` and ``stddev``, redrawn beyond two standard deviations.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> values = tf.keras.initializers.TruncatedNormal(stddev=1.0, seed=0)((1000,)).numpy()
        >>> bool(abs(values).max() <= 2.0)
        True
    """

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: int | None = None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def _array(self, shape, dtype):
        return self.mean + _truncated(self._generator(), shape, self.stddev)

    def get_config(self) -> dict:
        return {"seed": self.seed, "mean": self.mean, "stddev": self.stddev}


def compute_fans(shape: tuple, input_axes=None, output_axes=None) -> tuple[int, int]:
    """Keras' ``(fan_in, fan_out)`` of a weight shape (the products of ``input_axes`` and
    ``output_axes`` when both are given).

    Example:
        >>> compute_fans((3, 3, 4, 8))
        (36, 72)
        >>> compute_fans((2, 3, 4), input_axes=[0], output_axes=[1, 2])
        (2, 12)
    """
    if input_axes is not None and output_axes is not None:
        return (math.prod(shape[axis] for axis in input_axes),
                math.prod(shape[axis] for axis in output_axes))
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive_field = math.prod(shape[:-2])
    return shape[-2] * receptive_field, shape[-1] * receptive_field


_MODES = ("fan_in", "fan_out", "fan_avg")
_DISTRIBUTIONS = ("truncated_normal", "untruncated_normal", "uniform")


class VarianceScaling(_Random):
    """Samples with variance ``scale / n`` (``n`` the fan chosen by ``mode``).

    ``distribution``: ``"truncated_normal"`` (the standard deviation corrected for the
    truncation), ``"untruncated_normal"`` or ``"uniform"``.

    Raises:
        ValueError: For a non-positive ``scale`` or an unknown ``mode``/``distribution``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> init = tf.keras.initializers.VarianceScaling(scale=2.0, distribution="uniform", seed=0)
        >>> bool(abs(init((4, 4)).numpy()).max() <= (6.0 / 4) ** 0.5)
        True
    """

    def __init__(self, scale: float = 1.0, mode: str = "fan_in",
                 distribution: str = "truncated_normal", seed: int | None = None,
                 input_axes=None, output_axes=None):
        if scale <= 0.0:
            raise ValueError("Argument `scale` must be positive float. "
                             f"Received: scale={scale}")
        if mode not in _MODES:
            raise ValueError(f"Invalid `mode` argument: expected one of {set(_MODES)}. "
                             f"Received: mode={mode}")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in _DISTRIBUTIONS:
            raise ValueError(f"Invalid `distribution` argument: expected one of "
                             f"{set(_DISTRIBUTIONS)}. Received: distribution={distribution}")
        super().__init__(seed)
        self.scale, self.mode, self.distribution = scale, mode, distribution
        self.input_axes, self.output_axes = input_axes, output_axes

    def _array(self, shape, dtype):
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}
        variance = self.scale / max(1.0, fan[self.mode])
        generator = self._generator()
        if self.distribution == "truncated_normal":
            return _truncated(generator, shape, math.sqrt(variance) / 0.87962566103423978)
        if self.distribution == "untruncated_normal":
            return math.sqrt(variance) * generator.standard_normal(shape)
        limit = math.sqrt(3.0 * variance)
        return generator.uniform(-limit, limit, shape)

    def get_config(self) -> dict:
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed, "input_axes": self.input_axes,
                "output_axes": self.output_axes}


def _variance_scaling_preset(class_name: str, scale: float, mode: str, distribution: str,
                             formula: str) -> type:
    """A :class:`VarianceScaling` with fixed arguments (Glorot, He and LeCun)."""

    def __init__(self, seed: int | None = None, input_axes=None, output_axes=None):
        VarianceScaling.__init__(self, scale=scale, mode=mode, distribution=distribution,
                                 seed=seed, input_axes=input_axes, output_axes=output_axes)

    def get_config(self) -> dict:
        return {"seed": self.seed, "input_axes": self.input_axes,
                "output_axes": self.output_axes}

    doc = (f"{formula}.\n\n    Example:\n        >>> import unigrad.compat.tensorflow as tf\n"
           f"        >>> tf.keras.initializers.{class_name}(seed=0)((3, 2)).shape\n"
           "        TensorShape([3, 2])\n    ")
    return type(class_name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config,
                                                 "__doc__": doc, "__module__": __name__})


GlorotUniform = _variance_scaling_preset(
    "GlorotUniform", 1.0, "fan_avg", "uniform",
    "Uniform in ``[-limit, limit]``, ``limit = sqrt(6 / (fan_in + fan_out))``")
GlorotNormal = _variance_scaling_preset(
    "GlorotNormal", 1.0, "fan_avg", "truncated_normal",
    "Truncated normal with ``stddev = sqrt(2 / (fan_in + fan_out))``")
HeNormal = _variance_scaling_preset(
    "HeNormal", 2.0, "fan_in", "truncated_normal",
    "Truncated normal with ``stddev = sqrt(2 / fan_in)``")
HeUniform = _variance_scaling_preset(
    "HeUniform", 2.0, "fan_in", "uniform",
    "Uniform in ``[-limit, limit]``, ``limit = sqrt(6 / fan_in)``")
LecunNormal = _variance_scaling_preset(
    "LecunNormal", 1.0, "fan_in", "truncated_normal",
    "Truncated normal with ``stddev = sqrt(1 / fan_in)``")
LecunUniform = _variance_scaling_preset(
    "LecunUniform", 1.0, "fan_in", "uniform",
    "Uniform in ``[-limit, limit]``, ``limit = sqrt(3 / fan_in)``")


class Orthogonal(_Random):
    """A (semi-)orthogonal matrix times ``gain``: the Q of a normal matrix's QR decomposition,
    reshaped to ``shape`` (rows: all dimensions but the last).

    Raises:
        ValueError: For a shape of fewer than two dimensions.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> import numpy as np
        >>> q = tf.keras.initializers.Orthogonal(seed=0)((3, 3)).numpy()
        >>> bool(np.allclose(q @ q.T, np.eye(3), atol=1e-5))
        True
    """

    def __init__(self, gain: float = 1.0, seed: int | None = None):
        super().__init__(seed)
        self.gain = gain

    def _array(self, shape, dtype):
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        rows, columns = math.prod(shape[:-1]), shape[-1]
        flat = self._generator().standard_normal((max(rows, columns), min(rows, columns)))
        q, r = np.linalg.qr(flat)
        q = q * np.sign(np.diag(r))
        if rows < columns:
            q = q.T
        return self.gain * q.reshape(shape)

    def get_config(self) -> dict:
        return {"gain": self.gain, "seed": self.seed}


zeros, ones, constant, identity = Zeros, Ones, Constant, Identity
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
variance_scaling, orthogonal = VarianceScaling, Orthogonal
glorot_uniform, glorot_normal, he_normal, he_uniform = GlorotUniform, GlorotNormal, HeNormal, \
    HeUniform
lecun_normal, lecun_uniform = LecunNormal, LecunUniform

_BY_NAME: dict[str, type] = {
    "zeros": Zeros, "ones": Ones, "constant": Constant, "identity": Identity,
    "random_normal": RandomNormal, "random_uniform": RandomUniform,
    "truncated_normal": TruncatedNormal, "variance_scaling": VarianceScaling,
    "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal, "he_normal": HeNormal,
    "he_uniform": HeUniform, "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform,
    "orthogonal": Orthogonal, "uniform": RandomUniform, "normal": RandomNormal}


def get(identifier):
    """The initializer named by ``identifier`` (a snake-case or class name, a
    :func:`serialize`-d dict, an initializer, a callable, or ``None``).

    Raises:
        ValueError: For a name Keras does not know.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> type(tf.keras.initializers.get("he_normal")).__name__
        'HeNormal'
    """
    if identifier is None or isinstance(identifier, Initializer):
        return identifier
    if isinstance(identifier, dict) and "class_name" in identifier:
        by_class = {cls.__name__: cls for cls in _BY_NAME.values()}
        if identifier["class_name"] in by_class:
            return by_class[identifier["class_name"]](**identifier.get("config", {}))
    elif isinstance(identifier, str):
        by_class = {cls.__name__: cls for cls in _BY_NAME.values()}
        cls = _BY_NAME.get(identifier) or by_class.get(identifier)
        if cls is not None:
            return cls()
    elif callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


def serialize(initializer) -> dict:
    """Keras' config dict of an initializer (``module``, ``class_name``, ``config``,
    ``registered_name``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.initializers.serialize(tf.keras.initializers.Zeros())["class_name"]
        'Zeros'
    """
    return {"module": "keras.initializers", "class_name": type(initializer).__name__,
            "config": initializer.get_config(), "registered_name": None}
