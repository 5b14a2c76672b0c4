"""``mindspore.common.initializer``: Initializer objects and :func:`initializer`.

An :class:`Initializer` fills a NumPy array in place when called
(``Normal()(array)``); :func:`initializer` makes a new MindSpore Tensor of a
shape and dtype filled by an Initializer, an alias name (``'normal'``,
``'he_uniform'``...), a number, or returns a given Tensor. The values come
from unigrad's initialization functions (:mod:`unigrad.nn.init`), drawn from
the generator seeded by ``ms.set_seed``/``ug.manual_seed``; unlike MindSpore,
the Tensor is filled at once (MindSpore fills it lazily, printing
``<uninitialized>`` until then).

Example:
    >>> import numpy as np
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore.common.initializer import initializer, Constant, Normal
    >>> initializer(Constant(2), (2, 2), ms.float32)
    Tensor(shape=[2, 2], dtype=Float32, value=
    [[2.00000000e+000, 2.00000000e+000],
     [2.00000000e+000, 2.00000000e+000]])
    >>> w = initializer(Normal(sigma=0.5), [1000])
    >>> bool(0.45 < float(w.std()) < 0.55)
    True
"""

from __future__ import annotations

import numbers

import numpy as np

from ....nn import init as _init
from ....tensor import Tensor as _UgTensor
from ....tensor import _make_tensor
from .._tensor import Tensor
from ..dtype import float32, to_ms_dtype

__all__ = ["Initializer", "initializer", "TruncatedNormal", "Normal", "Uniform", "HeUniform",
           "HeNormal", "XavierUniform", "XavierNormal", "One", "Zero", "Constant", "Identity",
           "Orthogonal"]


def _fill_array(array: np.ndarray, fill) -> None:
    """Run the unigrad in-place initializer ``fill`` on a float copy of ``array``'s shape and
    store the result into ``array`` (cast to its dtype)."""
    dtype = array.dtype if np.issubdtype(array.dtype, np.floating) else np.float64
    tensor = _make_tensor(np.zeros(array.shape, dtype))
    fill(tensor)
    array[...] = np.asarray(tensor._data).astype(array.dtype)


class Initializer:
    """The base class of initializers: ``Initializer(**kwargs)`` keeps its arguments;
    subclasses define ``_initialize(array)``, which fills a NumPy array in place, run by
    calling the object.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import Initializer
        >>> class Twos(Initializer):
        ...     def _initialize(self, arr):
        ...         arr.fill(2)
        >>> array = np.zeros(3, np.float32)
        >>> Twos()(array)
        >>> array
        array([2., 2., 2.], dtype=float32)
    """

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._seed = None

    def _initialize(self, *kwargs):
        raise NotImplementedError("Must be overridden!")

    def __call__(self, arr: np.ndarray) -> None:
        return self._initialize(arr)


class Zero(Initializer):
    """``Zero()``: fills with 0 (alias ``'zeros'``).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import Zero
        >>> array = np.ones(2, np.float32)
        >>> Zero()(array)
        >>> array
        array([0., 0.], dtype=float32)
    """

    def _initialize(self, arr: np.ndarray) -> None:
        arr.fill(0)


class One(Initializer):
    """``One()``: fills with 1 (alias ``'ones'``).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import One
        >>> array = np.zeros(2, np.float32)
        >>> One()(array)
        >>> array
        array([1., 1.], dtype=float32)
    """

    def _initialize(self, arr: np.ndarray) -> None:
        arr.fill(1)


class Constant(Initializer):
    """``Constant(value)``: fills with ``value``.

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import Constant
        >>> array = np.zeros(2, np.float32)
        >>> Constant(2.5)(array)
        >>> array
        array([2.5, 2.5], dtype=float32)
    """

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr: np.ndarray) -> None:
        arr.fill(self.value)


class Normal(Initializer):
    """``Normal(sigma=0.01, mean=0.0)``: draws from N(mean, sigma**2) (alias ``'normal'``).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import Normal
        >>> array = np.zeros(4000, np.float32)
        >>> Normal(sigma=2.0, mean=1.0)(array)
        >>> bool(abs(array.mean() - 1.0) < 0.2 and abs(array.std() - 2.0) < 0.2)
        True
    """

    def __init__(self, sigma: float = 0.01, mean: float = 0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma = sigma
        self.mean = mean

    def _initialize(self, arr: np.ndarray) -> None:
        if self.sigma < 0:
            raise ValueError("sigma < 0")
        _fill_array(arr, lambda tensor: _init.normal_(tensor, self.mean, self.sigma))


class Uniform(Initializer):
    """``Uniform(scale=0.07)``: draws from U(-scale, scale) (alias ``'uniform'``).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import Uniform
        >>> array = np.zeros(1000, np.float32)
        >>> Uniform(scale=0.5)(array)
        >>> bool(array.min() >= -0.5 and array.max() <= 0.5 and array.max() > 0.45)
        True
    """

    def __init__(self, scale: float = 0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, arr: np.ndarray) -> None:
        _fill_array(arr, lambda tensor: _init.uniform_(tensor, -self.scale, self.scale))


class TruncatedNormal(Initializer):
    """``TruncatedNormal(sigma=0.01, mean=0.0, a=-2.0, b=2.0)``: N(mean, sigma**2) cut to
    the interval ``[a, b]`` (absolute bounds; alias ``'truncatednormal'``).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import TruncatedNormal
        >>> array = np.zeros(1000, np.float32)
        >>> TruncatedNormal(sigma=1.0, a=-0.5, b=0.5)(array)
        >>> bool(array.min() >= -0.5 and array.max() <= 0.5)
        True
    """

    def __init__(self, sigma: float = 0.01, mean: float = 0.0, a: float = -2.0, b: float = 2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma = sigma
        self.mean = mean
        self.a = a
        self.b = b

    def _initialize(self, arr: np.ndarray) -> None:
        if self.sigma < 0:
            raise ValueError("sigma < 0")
        _fill_array(arr, lambda tensor: _init.trunc_normal_(tensor, self.mean, self.sigma,
                                                            self.a, self.b))


class XavierUniform(Initializer):
    """``XavierUniform(gain=1)``: U(-bound, bound) with
    ``bound = gain * sqrt(6 / (fan_in + fan_out))`` (alias ``'xavier_uniform'``).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import XavierUniform
        >>> array = np.zeros((30, 20), np.float32)
        >>> XavierUniform()(array)
        >>> bool(np.abs(array).max() <= (6 / 50) ** 0.5)
        True
    """

    def __init__(self, gain: float = 1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr: np.ndarray) -> None:
        _fill_array(arr, lambda tensor: _init.xavier_uniform_(tensor, self.gain))


class XavierNormal(Initializer):
    """``XavierNormal(gain=1)``: N(0, sigma**2) with
    ``sigma = gain * sqrt(2 / (fan_in + fan_out))`` (alias ``'xavier_normal'``).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import XavierNormal
        >>> array = np.zeros((100, 100), np.float32)
        >>> XavierNormal(gain=2)(array)
        >>> bool(abs(array.std() - 0.2) < 0.01)
        True
    """

    def __init__(self, gain: float = 1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr: np.ndarray) -> None:
        _fill_array(arr, lambda tensor: _init.xavier_normal_(tensor, self.gain))


class _He(Initializer):
    """The arguments shared by :class:`HeUniform` and :class:`HeNormal`."""

    def __init__(self, negative_slope: float = 0, mode: str = "fan_in",
                 nonlinearity: str = "leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = mode
        self.nonlinearity = nonlinearity

    def _fill(self, tensor: _UgTensor) -> _UgTensor:
        raise NotImplementedError("Must be overridden!")

    def _initialize(self, arr: np.ndarray) -> None:
        _fill_array(arr, self._fill)


class HeUniform(_He):
    """``HeUniform(negative_slope=0, mode='fan_in', nonlinearity='leaky_relu')``:
    U(-bound, bound) with ``bound = gain * sqrt(3 / fan)`` (alias ``'he_uniform'``).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import HeUniform
        >>> array = np.zeros((50, 24), np.float32)
        >>> HeUniform()(array)
        >>> bool(np.abs(array).max() <= 0.5 and np.abs(array).max() > 0.45)
        True
    """

    def _fill(self, tensor: _UgTensor) -> _UgTensor:
        return _init.kaiming_uniform_(tensor, self.negative_slope, self.mode.lower(),
                                      self.nonlinearity)


class HeNormal(_He):
    """``HeNormal(negative_slope=0, mode='fan_in', nonlinearity='leaky_relu')``:
    N(0, sigma**2) with ``sigma = gain / sqrt(fan)`` (alias ``'he_normal'``).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import HeNormal
        >>> array = np.zeros((200, 50), np.float32)
        >>> HeNormal()(array)
        >>> bool(abs(array.std() - 0.2) < 0.01)
        True
    """

    def _fill(self, tensor: _UgTensor) -> _UgTensor:
        return _init.kaiming_normal_(tensor, self.negative_slope, self.mode.lower(),
                                     self.nonlinearity)


class Identity(Initializer):
    """``Identity()``: the identity matrix (2-D arrays only; alias ``'identity'``).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import Identity
        >>> array = np.zeros((2, 3), np.float32)
        >>> Identity()(array)
        >>> array
        array([[1., 0., 0.],
               [0., 1., 0.]], dtype=float32)
    """

    def _initialize(self, arr: np.ndarray) -> None:
        if arr.ndim != 2:
            raise ValueError(f"For Identity initializer, the dimension of the initialized tensor "
                             f"should be 2, but got {arr.ndim}.")
        _fill_array(arr, _init.eye_)


class Orthogonal(Initializer):
    """``Orthogonal(gain=1.0)``: a (semi-)orthogonal matrix times ``gain`` (alias
    ``'orthogonal'``).

    Example:
        >>> import numpy as np
        >>> from unigrad.compat.mindspore.common.initializer import Orthogonal
        >>> array = np.zeros((3, 3), np.float32)
        >>> Orthogonal()(array)
        >>> bool(np.allclose(array @ array.T, np.eye(3), atol=1e-5))
        True
    """

    def __init__(self, gain: float = 1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr: np.ndarray) -> None:
        _fill_array(arr, lambda tensor: _init.orthogonal_(tensor, self.gain))


_ALIASES = {"zero": Zero, "zeros": Zero, "one": One, "ones": One,
            "xaviernormal": XavierNormal, "xavier_normal": XavierNormal,
            "xavieruniform": XavierUniform, "xavier_uniform": XavierUniform,
            "heuniform": HeUniform, "he_uniform": HeUniform,
            "henormal": HeNormal, "he_normal": HeNormal, "identity": Identity,
            "orthogonal": Orthogonal, "uniform": Uniform, "normal": Normal,
            "truncatednormal": TruncatedNormal}


def _shape_of(shape) -> tuple:
    """``shape`` as a tuple of positive ints (MindSpore's check)."""
    if isinstance(shape, list):
        shape = tuple(shape)
    elif isinstance(shape, numbers.Number):
        shape = (shape,)
    for value in shape:
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ValueError(f"For 'initializer', the argument 'shape' is invalid, the value of "
                             f"'shape' must be positive integer, but got {shape}")
    return shape


def _checked_tensor(init: _UgTensor, shape) -> _UgTensor:
    """``init`` itself when ``shape`` equals its shape (MindSpore compares even ``None``)."""
    shape = list(shape) if isinstance(shape, (tuple, list)) else [shape]
    if tuple(init.shape) != tuple(shape):
        raise ValueError(f"For 'initializer', the shape of the 'init' argument should be same as "
                         f"the argument 'shape', but got the 'init' shape {list(init.shape)} "
                         f"and the 'shape' {shape}.")
    return init


def initializer(init, shape=None, dtype=float32) -> Tensor:
    """A Tensor of ``shape`` and ``dtype`` filled by ``init``: an :class:`Initializer`, an
    alias name (``'zeros'``, ``'ones'``, ``'normal'``, ``'uniform'``,
    ``'truncatedNormal'``, ``'xavier_uniform'``, ``'xavier_normal'``, ``'he_uniform'``,
    ``'he_normal'``, ``'identity'``, ``'orthogonal'``; case-insensitive) or a number; a
    Tensor ``init`` is returned as it is (its shape must equal ``shape``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore.common.initializer import initializer, One
        >>> initializer(One(), [1, 2], ms.int32)
        Tensor(shape=[1, 2], dtype=Int32, value=
        [[1, 1]])
        >>> initializer("zeros", 2)
        Tensor(shape=[2], dtype=Float32, value= [0.00000000e+000, 0.00000000e+000])
        >>> initializer("foo", 2)
        Traceback (most recent call last):
        ...
        ValueError: For 'initializer', the class corresponding to 'foo' was not found.
    """
    if not isinstance(init, (_UgTensor, numbers.Number, str, Initializer)):
        raise TypeError(f"For 'initializer', the type of the 'init' argument should be 'Tensor', "
                        f"'number', 'string' or 'initializer', but got {type(init)}.")
    if isinstance(init, _UgTensor):
        return _checked_tensor(init, shape)
    if shape is not None:
        shape = _shape_of(shape)
    if isinstance(init, str):
        initializer_class = _ALIASES.get(init.lower())
        if initializer_class is None:
            raise ValueError(f"For 'initializer', the class corresponding to '{init}' was not "
                             f"found.")
        init = initializer_class()
    elif isinstance(init, numbers.Number):
        init = Constant(init)
    if shape is None:
        raise AttributeError(f"'{type(init).__name__}' object has no attribute 'shape'")
    array = np.zeros(shape, to_ms_dtype(dtype).np_dtype)
    init(array)
    return Tensor(array, dtype)
