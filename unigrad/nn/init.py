"""Initializers: PyTorch's ``torch.nn.init`` functions and MindSpore's ``initializer``.

The ``*_`` functions fill a Tensor or Parameter in place (without recording
anything for autograd, as under ``no_grad``) and return it. Random values come
from the generator seeded by ``ug.manual_seed`` (or the ``generator=`` passed
in: a ``ug.Generator``/``torch.Generator`` or a NumPy generator), so a seeded
program initializes the same way every run.
:func:`initializer` is MindSpore's: it makes a new Tensor from a name such as
``'he_uniform'``, a number or a Tensor.

Example:
    >>> import unigrad as ug
    >>> w = ug.nn.init.constant_(ug.empty(2, 3), 0.5)
    >>> w
    tensor([[0.5000, 0.5000, 0.5000],
            [0.5000, 0.5000, 0.5000]])
    >>> _ = ug.manual_seed(0)
    >>> a = ug.nn.init.kaiming_uniform_(ug.empty(4, 3)).clone()
    >>> _ = ug.manual_seed(0)
    >>> bool((a == ug.nn.init.kaiming_uniform_(ug.empty(4, 3))).all())
    True
"""

from __future__ import annotations

import math
import numbers
import statistics
import warnings

import numpy as np

from ..backend import DType, float32, from_numpy_dtype, to_device, to_numpy, to_numpy_dtype
from ..ops import creation
from ..ops._generators import Generator, numpy_generator
from ..tensor import Tensor, _make_tensor

_LINEAR_LIKE = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                "conv_transpose3d", "sigmoid")


# ----------------------------------------------------------------------------- helpers

def _check_tensor(tensor, name: str) -> None:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"{name}(): argument 'tensor' must be a ug.Tensor, "
                        f"got {type(tensor).__name__}")


def _check_floating(tensor: Tensor, name: str) -> None:
    _check_tensor(tensor, name)
    if not tensor.dtype.is_floating_point:
        raise TypeError(f"{name}(): expected a floating-point tensor, got {tensor.dtype.name}")


def _check_number(value, name: str, function: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{function}(): argument '{name}' must be a real number, "
                        f"got {type(value).__name__}")
    return float(value)


def _write(tensor: Tensor, values) -> Tensor:
    """Store ``values`` (broadcast, cast) into ``tensor``'s storage without recording a node."""
    data = tensor._data
    array = np.broadcast_to(np.asarray(values), data.shape).astype(data.dtype)
    tensor._bump_version()
    data[...] = to_device(array, tensor.device)
    return tensor


def _rng(generator) -> np.random.Generator:
    """The NumPy generator to draw from: the global one for None, a ``ug.Generator``'s
    (``torch.Generator``), or a NumPy generator as it is."""
    if generator is None:
        return creation.generator()
    if isinstance(generator, np.random.Generator):
        return generator
    if isinstance(generator, Generator):
        return numpy_generator(generator)
    raise TypeError(f"generator must be a torch.Generator (ug.Generator) or a "
                    f"numpy.random.Generator, got {type(generator).__name__}")


def _draw(generator, method: str, *args, shape) -> np.ndarray:
    """Float64 draws from the seeded generator (under its lock when it is the global one)."""
    if generator is None:
        with creation._generator_lock:
            return getattr(creation.generator(), method)(*args, size=shape)
    return getattr(_rng(generator), method)(*args, size=shape)


def _empty_warning(tensor: Tensor) -> bool:
    if 0 in tuple(tensor.shape):
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return True
    return False


# ----------------------------------------------------------------------------- gains and fans

def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended gain for ``nonlinearity`` (PyTorch's table).

    ``linear``, the convolutions and ``sigmoid`` give 1, ``tanh`` 5/3,
    ``relu`` sqrt(2), ``leaky_relu`` sqrt(2 / (1 + slope ** 2)) with the
    slope ``param`` (default 0.01) and ``selu`` 3/4.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.init.calculate_gain("tanh")
        1.6666666666666667
        >>> round(ug.nn.init.calculate_gain("leaky_relu", 0.2), 4)
        1.3868
    """
    if nonlinearity in _LINEAR_LIKE:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, bool) or not isinstance(param, numbers.Real):
            raise ValueError(f"negative_slope {param} not a valid number")
        else:
            slope = float(param)
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fans_of_shape(shape: tuple) -> tuple[int, int]:
    if len(shape) < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive_field = math.prod(shape[2:])
    return shape[1] * receptive_field, shape[0] * receptive_field


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """``(fan_in, fan_out)``: ``shape[1]`` and ``shape[0]`` times the receptive field size.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.init._calculate_fan_in_and_fan_out(ug.empty(8, 3, 5, 5))
        (75, 200)
    """
    _check_tensor(tensor, "_calculate_fan_in_and_fan_out")
    return _fans_of_shape(tuple(tensor.shape))


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    valid_modes = ["fan_in", "fan_out"]
    mode = mode.lower() if isinstance(mode, str) else mode
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


# ----------------------------------------------------------------------------- fills

def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill ``tensor`` with ``val``.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.init.constant_(ug.empty(3), 2.5)
        tensor([2.5000, 2.5000, 2.5000])
    """
    _check_tensor(tensor, "constant_")
    if isinstance(val, Tensor):
        if val.numel() != 1:
            raise ValueError(f"constant_(): 'val' must be a number or a one-element tensor, "
                             f"got a tensor of shape {tuple(val.shape)}")
        val = val.item()
    if not isinstance(val, (numbers.Number, np.generic)):
        raise TypeError(f"constant_(): argument 'val' must be a number, got {type(val).__name__}")
    if isinstance(val, float) and not tensor.dtype.is_floating_point and val != int(val):
        raise TypeError(f"constant_(): cannot fill the {tensor.dtype.name} tensor with {val}")
    return _write(tensor, val)


def ones_(tensor: Tensor) -> Tensor:
    """Fill ``tensor`` with ones.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.init.ones_(ug.empty(2))
        tensor([1., 1.])
    """
    return constant_(tensor, 1)


def zeros_(tensor: Tensor) -> Tensor:
    """Fill ``tensor`` with zeros.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.init.zeros_(ug.empty(2, dtype=ug.int64))
        tensor([0, 0])
    """
    return constant_(tensor, 0)


def eye_(tensor: Tensor) -> Tensor:
    """Fill the 2-D ``tensor`` with the identity matrix (ones on the main diagonal).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.init.eye_(ug.empty(2, 3))
        tensor([[1., 0., 0.],
                [0., 1., 0.]])
    """
    _check_tensor(tensor, "eye_")
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _write(tensor, np.eye(*tensor.shape))


# ----------------------------------------------------------------------------- random fills

def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    """Fill ``tensor`` with samples of the uniform distribution on ``[a, b)``.

    Example:
        >>> import unigrad as ug
        >>> w = ug.nn.init.uniform_(ug.empty(1000), -0.5, 0.5)
        >>> bool((w >= -0.5).all() and (w < 0.5).all())
        True
    """
    _check_floating(tensor, "uniform_")
    a, b = _check_number(a, "a", "uniform_"), _check_number(b, "b", "uniform_")
    if a > b:
        raise ValueError(f"uniform_(): expected a <= b, but got a={a}, b={b}")
    return _write(tensor, _draw(generator, "uniform", a, b, shape=tuple(tensor.shape)))


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    """Fill ``tensor`` with samples of the normal distribution ``N(mean, std ** 2)``.

    Example:
        >>> import unigrad as ug
        >>> w = ug.nn.init.normal_(ug.empty(10000), mean=3.0, std=0.1)
        >>> round(float(w.mean()), 1), round(float(w.std()), 2)
        (3.0, 0.1)
    """
    _check_floating(tensor, "normal_")
    mean = _check_number(mean, "mean", "normal_")
    std = _check_number(std, "std", "normal_")
    if std < 0:
        raise ValueError(f"normal_(): expected std >= 0, but got std={std}")
    return _write(tensor, _draw(generator, "normal", mean, std, shape=tuple(tensor.shape)))


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _truncated_standard_normal(lower: float, upper: float, shape: tuple, generator) -> np.ndarray:
    """Standard normal samples restricted to ``[lower, upper]`` (in standard units).

    Rejection sampling when the interval holds a fair share of the mass (every
    practical case: +-2 std keeps 95%); the inverse CDF otherwise.
    """
    count = math.prod(shape)
    low_cdf, high_cdf = _normal_cdf(lower), _normal_cdf(upper)
    if high_cdf - low_cdf >= 0.05:
        samples = np.empty(count)
        missing = np.arange(count)
        while missing.size:
            draws = _draw(generator, "standard_normal", shape=(missing.size,))
            inside = (draws >= lower) & (draws <= upper)
            samples[missing[inside]] = draws[inside]
            missing = missing[~inside]
        return samples.reshape(shape)
    levels = _draw(generator, "uniform", low_cdf, high_cdf, shape=(count,))
    tiny = np.finfo(np.float64).tiny
    levels = np.clip(levels, tiny, 1.0 - np.finfo(np.float64).epsneg)
    quantile = np.vectorize(statistics.NormalDist().inv_cdf, otypes=[np.float64])
    return np.clip(quantile(levels), lower, upper).reshape(shape)


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator=None) -> Tensor:
    """Fill ``tensor`` from ``N(mean, std ** 2)`` truncated to ``[a, b]`` (absolute bounds).

    Example:
        >>> import unigrad as ug
        >>> w = ug.nn.init.trunc_normal_(ug.empty(1000), std=1.0, a=-0.5, b=0.5)
        >>> bool((w.abs() <= 0.5).all())
        True
    """
    _check_floating(tensor, "trunc_normal_")
    mean = _check_number(mean, "mean", "trunc_normal_")
    std = _check_number(std, "std", "trunc_normal_")
    a, b = _check_number(a, "a", "trunc_normal_"), _check_number(b, "b", "trunc_normal_")
    if std <= 0:
        raise ValueError(f"trunc_normal_(): expected std > 0, but got std={std}")
    if a >= b:
        raise ValueError(f"trunc_normal_(): expected a < b, but got a={a}, b={b}")
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                      "distribution of values may be incorrect.", stacklevel=2)
    unit = _truncated_standard_normal((a - mean) / std, (b - mean) / std, tuple(tensor.shape),
                                      generator)
    return _write(tensor, np.clip(unit * std + mean, a, b))


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Glorot uniform: ``U(-bound, bound)``, ``bound = gain * sqrt(6 / (fan_in + fan_out))``.

    Example:
        >>> import unigrad as ug
        >>> w = ug.nn.init.xavier_uniform_(ug.empty(30, 20))
        >>> bool((w.abs() <= (6 / 50) ** 0.5).all())
        True
    """
    _check_floating(tensor, "xavier_uniform_")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = _check_number(gain, "gain", "xavier_uniform_") * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Glorot normal: ``N(0, std ** 2)``, ``std = gain * sqrt(2 / (fan_in + fan_out))``.

    Example:
        >>> import unigrad as ug
        >>> w = ug.nn.init.xavier_normal_(ug.empty(200, 300))
        >>> round(float(w.std()), 2)
        0.06
    """
    _check_floating(tensor, "xavier_normal_")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = _check_number(gain, "gain", "xavier_normal_") * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float:
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator=None) -> Tensor:
    """He uniform: ``U(-bound, bound)``, ``bound = gain * sqrt(3 / fan)``.

    ``a`` is the negative slope of the leaky ReLU that follows (used by
    ``calculate_gain``); ``mode`` picks ``'fan_in'`` (forward variance) or
    ``'fan_out'`` (backward variance). PyTorch's Linear and Conv layers use
    ``a=sqrt(5)``, which gives ``bound = 1 / sqrt(fan_in)``.

    Example:
        >>> import unigrad as ug
        >>> w = ug.nn.init.kaiming_uniform_(ug.empty(8, 4), a=5 ** 0.5)
        >>> bool((w.abs() <= 0.5).all())
        True
    """
    _check_floating(tensor, "kaiming_uniform_")
    if _empty_warning(tensor):
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator=None) -> Tensor:
    """He normal: ``N(0, std ** 2)``, ``std = gain / sqrt(fan)`` (see :func:`kaiming_uniform_`).

    Example:
        >>> import unigrad as ug
        >>> w = ug.nn.init.kaiming_normal_(ug.empty(500, 200), mode="fan_out",
        ...                                nonlinearity="relu")
        >>> round(float(w.std()), 3)
        0.063
    """
    _check_floating(tensor, "kaiming_normal_")
    if _empty_warning(tensor):
        return tensor
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def orthogonal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """A (semi-)orthogonal matrix times ``gain``, from the QR decomposition of a normal matrix.

    Dimensions after the first are flattened: the ``(rows, cols)`` view has
    orthonormal rows (``rows <= cols``) or columns (``rows >= cols``).

    Example:
        >>> import unigrad as ug
        >>> q = ug.nn.init.orthogonal_(ug.empty(3, 5))
        >>> bool(((q @ q.T) - ug.eye(3)).abs().max() < 1e-5)
        True
    """
    _check_floating(tensor, "orthogonal_")
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    gain = _check_number(gain, "gain", "orthogonal_")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flattened = _draw(generator, "standard_normal", shape=(rows, cols))
    if rows < cols:
        flattened = flattened.T
    q, r = np.linalg.qr(flattened)
    signs = np.sign(np.diag(r))
    q = q * np.where(signs == 0, 1.0, signs)  # a unique, uniformly distributed Q
    if rows < cols:
        q = q.T
    return _write(tensor, (q * gain).reshape(tuple(tensor.shape)))


# ----------------------------------------------------------------------------- MindSpore

def _he(name: str, std_to_fill):
    def fill(tensor: Tensor) -> Tensor:
        return std_to_fill(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu")
    fill.__name__ = name
    return fill


_NAMED_INITIALIZERS = {
    "zeros": zeros_,
    "ones": ones_,
    "normal": lambda t: normal_(t, 0.0, 0.01),
    "uniform": lambda t: uniform_(t, -0.07, 0.07),
    "truncatednormal": lambda t: trunc_normal_(t, 0.0, 0.01, -0.02, 0.02),
    "xavier_uniform": xavier_uniform_,
    "xavieruniform": xavier_uniform_,
    "xavier_normal": xavier_normal_,
    "xaviernormal": xavier_normal_,
    "he_uniform": _he("he_uniform", kaiming_uniform_),
    "heuniform": _he("he_uniform", kaiming_uniform_),
    "he_normal": _he("he_normal", kaiming_normal_),
    "henormal": _he("he_normal", kaiming_normal_),
    "orthogonal": orthogonal_,
    "identity": eye_,
    "eye": eye_,
}


def _shape_argument(shape) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in shape):
        raise TypeError(f"For 'initializer', the argument 'shape' must be an int or a tuple/list "
                        f"of ints, but got {shape!r}")
    if any(n < 0 for n in shape):
        raise ValueError(f"For 'initializer', the argument 'shape' must not contain negative "
                         f"sizes, but got {tuple(shape)}")
    return tuple(int(n) for n in shape)


def initializer(init, shape=None, dtype: DType = float32) -> Tensor:
    """A new Tensor of ``shape`` and ``dtype`` filled as ``init`` says (MindSpore).

    ``init`` is a name (case-insensitive): ``'zeros'``, ``'ones'``,
    ``'normal'`` (sigma 0.01), ``'uniform'`` (U(-0.07, 0.07)),
    ``'truncatedNormal'`` (sigma 0.01, cut at 2 sigma), ``'xavier_uniform'``,
    ``'xavier_normal'``, ``'he_uniform'``, ``'he_normal'`` (gain sqrt(2),
    fan_in), ``'orthogonal'``, ``'identity'``; a number (a constant fill);
    or a Tensor, whose shape must equal ``shape`` (its values are copied and
    cast to ``dtype``). Random values come from the ``ug.manual_seed`` generator.

    Example:
        >>> import unigrad as ug
        >>> ug.nn.init.initializer("ones", (2, 2))
        tensor([[1., 1.],
                [1., 1.]])
        >>> ug.nn.init.initializer(0.5, 3, ug.float64)
        tensor([0.5000, 0.5000, 0.5000], dtype=unigrad.float64)
        >>> w = ug.nn.init.initializer("truncatedNormal", (1000,))
        >>> bool((w.abs() <= 0.02).all())
        True
    """
    np_dtype = to_numpy_dtype(dtype)
    if isinstance(init, Tensor):
        shape = tuple(init.shape) if shape is None else _shape_argument(shape)
        if tuple(init.shape) != shape:
            raise ValueError(f"For 'initializer', the shape of the 'init' Tensor "
                             f"{tuple(init.shape)} must equal the argument 'shape' {shape}")
        return _make_tensor(to_device(to_numpy(init._data).astype(np_dtype), init.device))
    if shape is None:
        raise ValueError("For 'initializer', the argument 'shape' is required unless 'init' is "
                         "a Tensor")
    shape = _shape_argument(shape)
    if isinstance(init, str):
        fill = _NAMED_INITIALIZERS.get(init.lower())
        if fill is None:
            names = ("zeros", "ones", "normal", "uniform", "truncatedNormal", "xavier_uniform",
                     "xavier_normal", "he_uniform", "he_normal", "orthogonal", "identity")
            raise ValueError(f"For 'initializer', the argument 'init' must be one of {names} "
                             f"(case-insensitive), a number or a Tensor, but got {init!r}")
        if from_numpy_dtype(np_dtype).is_floating_point or fill in (zeros_, ones_, eye_):
            return fill(_make_tensor(np.zeros(shape, np_dtype)))
        raise TypeError(f"For 'initializer', '{init}' needs a floating-point dtype, "
                        f"got {from_numpy_dtype(np_dtype).name}")
    if isinstance(init, (numbers.Number, np.generic)) and not isinstance(init, (bool, np.bool_)):
        return constant_(_make_tensor(np.zeros(shape, np_dtype)), init)
    raise TypeError(f"For 'initializer', the argument 'init' must be a str, a number or a "
                    f"Tensor, but got {type(init).__name__}")


__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_",
           "zeros_", "eye_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_",
           "kaiming_normal_", "orthogonal_", "initializer"]
