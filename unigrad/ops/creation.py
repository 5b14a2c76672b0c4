"""Tensor creation: zeros, ones, full, arange, linspace, eye, rand, randn, *_like.

Random functions draw from one seeded generator (:func:`manual_seed`).

Example:
    >>> import unigrad as ug
    >>> ug.zeros(2, 3).shape
    (2, 3)
    >>> ug.arange(3)
    tensor([0, 1, 2])
"""

from __future__ import annotations

import threading

import numpy as np

from .. import _state, backend
from ..backend import DEFAULT_FLOAT, DEFAULT_INT
from ..interpreters.batching import per_example, randomness_levels
from ..tensor import Tensor, _make_tensor, as_array, note_created
from .shape import _as_shape

_generator_lock = threading.Lock()
_generator = np.random.default_rng(0)


def manual_seed(seed: int):
    """Seed the generator behind ``rand``, ``randn``, ``randint``, dropout and initializers.

    Example:
        >>> import unigrad as ug
        >>> _ = ug.manual_seed(0)
        >>> a = ug.rand(2)
        >>> _ = ug.manual_seed(0)
        >>> bool((a == ug.rand(2)).all())
        True
    """
    global _generator
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise TypeError(f"manual_seed expected an int seed, got {type(seed).__name__}")
    with _generator_lock:
        _generator = np.random.default_rng(int(seed))
    return _generator


def _refuse_while_tracing(name: str) -> None:
    """Random numbers drawn while tracing would be baked into the graph: refuse clearly."""
    if _state.local.trace is not None:
        raise NotImplementedError(
            f"{name}() inside ug.jit is not supported yet: the numbers would be drawn once, "
            f"while tracing, and replayed on every call; draw them outside the compiled "
            f"function and pass them in as an argument")


def generator() -> np.random.Generator:
    """The process-wide NumPy generator used for random tensors.

    Example:
        >>> import unigrad as ug
        >>> ug.manual_seed(3) is ug.generator()
        True
        >>> type(ug.generator()).__name__
        'Generator'
    """
    return _generator


def _finish(array, dtype, device, requires_grad) -> Tensor:
    if dtype is not None:
        array = array.astype(backend.to_numpy_dtype(dtype), copy=False)
    if device is not None:
        array = backend.to_device(array, backend.Device(device))
    tensor = note_created(_make_tensor(array))
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


def tensor(data, dtype=None, requires_grad: bool = False, device=None) -> Tensor:
    """A new tensor holding a copy of ``data``.

    Python floats become float32, ints int64, NumPy arrays keep their dtype.

    Example:
        >>> import unigrad as ug
        >>> ug.tensor([[1, 2], [3, 4]]).dtype
        unigrad.int64
        >>> ug.tensor(2.0, requires_grad=True)
        tensor(2., requires_grad=True)
    """
    return Tensor(data, dtype=dtype, requires_grad=requires_grad, device=device)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """Like :func:`tensor` but shares memory with a NumPy array or Tensor of the same dtype.

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([1.0, 2.0])
        >>> ug.as_tensor(x) is x
        True
        >>> ug.as_tensor([1, 2])
        tensor([1, 2])
    """
    if isinstance(data, Tensor) and (dtype is None or data._data.dtype ==
                                     backend.to_numpy_dtype(dtype)):
        return data
    if isinstance(data, np.ndarray) and (dtype is None or data.dtype ==
                                         backend.to_numpy_dtype(dtype)) and device is None:
        return note_created(_make_tensor(data))
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``array`` (its dtype is kept).

    Example:
        >>> import numpy as np, unigrad as ug
        >>> a = np.zeros(2)
        >>> t = ug.from_numpy(a)
        >>> a[0] = 5.0
        >>> t
        tensor([5., 0.], dtype=unigrad.float64)
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    backend.from_numpy_dtype(array.dtype)
    return note_created(_make_tensor(array))


def from_dlpack(obj) -> Tensor:
    """A tensor sharing memory with any DLPack-exporting array.

    Example:
        >>> import numpy as np, unigrad as ug
        >>> ug.from_dlpack(np.arange(3))
        tensor([0, 1, 2])
    """
    if isinstance(obj, Tensor):
        return obj
    if hasattr(obj, "__cuda_array_interface__"):
        import cupy
        return _make_tensor(cupy.from_dlpack(obj))
    return _make_tensor(np.from_dlpack(obj))


def _default_dtype(dtype):
    return DEFAULT_FLOAT if dtype is None else backend.to_numpy_dtype(dtype)


def zeros(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of zeros (float32 by default).

    Example:
        >>> import unigrad as ug
        >>> ug.zeros(2)
        tensor([0., 0.])
        >>> ug.zeros(2, 3).shape
        (2, 3)
    """
    shape = _as_shape(size)
    xp = backend.namespace(device or "cpu")
    return _finish(xp.zeros(shape, _default_dtype(dtype)), None, None, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of ones (float32 by default).

    Example:
        >>> import unigrad as ug
        >>> ug.ones(2)
        tensor([1., 1.])
        >>> ug.ones(2, dtype=ug.int64)
        tensor([1, 1])
    """
    shape = _as_shape(size)
    xp = backend.namespace(device or "cpu")
    return _finish(xp.ones(shape, _default_dtype(dtype)), None, None, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """An uninitialised tensor (zeros here, for reproducibility).

    Example:
        >>> import unigrad as ug
        >>> ug.empty(2, 3).shape
        (2, 3)
    """
    return zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor filled with ``fill_value`` (dtype inferred from it as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.full((2,), 7)
        tensor([7, 7])
        >>> ug.full((2,), 0.5)
        tensor([0.5000, 0.5000])
    """
    shape = _as_shape((size,)) if not isinstance(size, int) else (size,)
    if dtype is None:
        dtype = as_array(fill_value).dtype
    xp = backend.namespace(device or "cpu")
    return _finish(xp.full(shape, fill_value, backend.to_numpy_dtype(dtype)), None, None,
                   requires_grad)


def _like(input, dtype):
    data = input._data if isinstance(input, Tensor) else np.asarray(input)
    np_dtype = data.dtype if dtype is None else backend.to_numpy_dtype(dtype)
    return data, np_dtype, backend.namespace_of(data)


def zeros_like(input, dtype=None, requires_grad: bool = False, *, device=None):
    """Zeros with the shape (and dtype) of ``input``; plain arrays give plain arrays.

    Example:
        >>> import unigrad as ug
        >>> ug.zeros_like(ug.tensor([[1, 2]]))
        tensor([[0, 0]])
    """
    if not isinstance(input, Tensor):
        return backend.namespace_of(input).zeros_like(input, dtype=dtype)
    data, np_dtype, xp = _like(input, dtype)
    return _finish(xp.zeros(data.shape, np_dtype), None, device, requires_grad)


def ones_like(input, dtype=None, requires_grad: bool = False, *, device=None):
    """Ones with the shape (and dtype) of ``input``.

    Example:
        >>> import unigrad as ug
        >>> ug.ones_like(ug.tensor([1.0, 2.0]))
        tensor([1., 1.])
    """
    if not isinstance(input, Tensor):
        return backend.namespace_of(input).ones_like(input, dtype=dtype)
    data, np_dtype, xp = _like(input, dtype)
    return _finish(xp.ones(data.shape, np_dtype), None, device, requires_grad)


def full_like(input, fill_value, dtype=None, requires_grad: bool = False, *, device=None) -> Tensor:
    """A tensor shaped like ``input`` filled with ``fill_value`` (``input``'s dtype).

    Example:
        >>> import unigrad as ug
        >>> ug.full_like(ug.tensor([1.0, 2.0]), 3.0)
        tensor([3., 3.])
    """
    data, np_dtype, xp = _like(input, dtype)
    return _finish(xp.full(data.shape, fill_value, np_dtype), None, device, requires_grad)


def empty_like(input, dtype=None, requires_grad: bool = False, *, device=None) -> Tensor:
    """An uninitialised tensor shaped like ``input`` (zeros here, as :func:`empty`).

    Example:
        >>> import unigrad as ug
        >>> ug.empty_like(ug.tensor([1, 2])).shape
        (2,)
    """
    return zeros_like(input, dtype=dtype, requires_grad=requires_grad, device=device)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad: bool = False):
    """Values from ``start`` to ``end`` (exclusive); int64 for integer arguments.

    Example:
        >>> import unigrad as ug
        >>> ug.arange(0.0, 1.0, 0.25)
        tensor([0.0000, 0.2500, 0.5000, 0.7500])
    """
    if end is None:
        start, end = 0, start
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if dtype is None:
        dtype = DEFAULT_FLOAT if any(isinstance(v, float) for v in values) else DEFAULT_INT
    xp = backend.namespace(device or "cpu")
    return _finish(xp.arange(*values, dtype=backend.to_numpy_dtype(dtype)), None, None,
                   requires_grad)


def linspace(start, end, steps: int, dtype=None, device=None, requires_grad: bool = False):
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive.

    Example:
        >>> import unigrad as ug
        >>> ug.linspace(0, 1, 5)
        tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
    """
    if not isinstance(steps, (int, np.integer)) or steps < 0:
        raise RuntimeError(f"number of steps must be non-negative, got {steps!r}")
    xp = backend.namespace(device or "cpu")
    return _finish(xp.linspace(float(start), float(end), int(steps)).astype(_default_dtype(dtype)),
                   None, None, requires_grad)


def eye(n: int, m: int | None = None, dtype=None, device=None, requires_grad: bool = False):
    """The identity matrix (``n`` x ``m``).

    Example:
        >>> import unigrad as ug
        >>> ug.eye(2, 3)
        tensor([[1., 0., 0.],
                [0., 1., 0.]])
    """
    xp = backend.namespace(device or "cpu")
    return _finish(xp.eye(n, m, dtype=_default_dtype(dtype)), None, None, requires_grad)


def rand(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Uniform samples in [0, 1) from the seeded generator.

    Example:
        >>> import unigrad as ug
        >>> x = ug.rand(2, 3)
        >>> x.shape, x.dtype
        ((2, 3), unigrad.float32)
        >>> bool(((x >= 0) & (x < 1)).all())
        True
    """
    shape = _as_shape(size)
    _refuse_while_tracing("rand")
    levels = randomness_levels("rand")
    with _generator_lock:
        array = _generator.random(_batch_sizes(levels) + shape, dtype=np.float64)
    return per_example(_finish(array.astype(_default_dtype(dtype)), None, device, requires_grad),
                       levels)


def randn(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Standard normal samples from the seeded generator.

    Example:
        >>> import unigrad as ug
        >>> _ = ug.manual_seed(0)
        >>> a = ug.randn(3)
        >>> _ = ug.manual_seed(0)
        >>> bool((a == ug.randn(3)).all())
        True
    """
    shape = _as_shape(size)
    _refuse_while_tracing("randn")
    levels = randomness_levels("randn")
    with _generator_lock:
        array = _generator.standard_normal(_batch_sizes(levels) + shape)
    return per_example(_finish(array.astype(_default_dtype(dtype)), None, device, requires_grad),
                       levels)


def randint(low, high=None, size=(), dtype=None, device=None) -> Tensor:
    """Integers in ``[low, high)`` from the seeded generator.

    Example:
        >>> import unigrad as ug
        >>> x = ug.randint(0, 10, (2, 3))
        >>> x.shape, x.dtype
        ((2, 3), unigrad.int64)
        >>> bool(((x >= 0) & (x < 10)).all())
        True
        >>> ug.randint(3, (4,)).shape      # PyTorch's randint(high, size)
        (4,)
    """
    if high is None or isinstance(high, (tuple, list)):  # randint(high) / randint(high, size)
        low, high, size = 0, low, size if high is None else high
    levels = randomness_levels("randint")
    shape = _as_shape((size,)) if not isinstance(size, int) else (size,)
    with _generator_lock:
        array = _generator.integers(low, high, size=_batch_sizes(levels) + shape)
    return per_example(_finish(array.astype(DEFAULT_INT if dtype is None else
                                            backend.to_numpy_dtype(dtype)), None, device, False),
                       levels)


def _batch_sizes(levels: list) -> tuple:
    """The batch sizes of the vmap levels drawing per-example numbers (outermost first)."""
    return tuple(level.size for level in levels)


def rand_like(input, dtype=None) -> Tensor:
    """:func:`rand` with the shape (and dtype) of ``input``.

    Example:
        >>> import unigrad as ug
        >>> x = ug.rand_like(ug.zeros(2, 2))
        >>> x.shape, x.dtype
        ((2, 2), unigrad.float32)
    """
    return rand(*input.shape, dtype=dtype or input.dtype)


def randn_like(input, dtype=None) -> Tensor:
    """:func:`randn` with the shape (and dtype) of ``input``.

    Example:
        >>> import unigrad as ug
        >>> x = ug.randn_like(ug.zeros(3, dtype=ug.float64))
        >>> x.shape, x.dtype
        ((3,), unigrad.float64)
    """
    return randn(*input.shape, dtype=dtype or input.dtype)
