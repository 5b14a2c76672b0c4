"""Tensor creation: zeros, ones, full, arange, linspace, eye, rand, randn, *_like.

Random functions draw from one seeded generator (:func:`manual_seed`), or the one
passed as ``generator=``, through one primitive (:mod:`unigrad.ops.random_draw`):
inside ``ug.jit`` they draw new numbers at every call of the compiled function, the
same stream as eager code from the same seed.

Example:
    >>> import unigrad as ug
    >>> ug.zeros(2, 3).shape
    (2, 3)
    >>> ug.arange(3)
    tensor([0, 1, 2])
"""

from __future__ import annotations

import sys

import numpy as np

from .. import backend
from ..backend import DEFAULT_INT
from ..interpreters.batching import per_example, randomness_levels
from ..tensor import Tensor, _make_tensor, as_array, checked_requires_grad, note_created
from ._generators import LOCK as _generator_lock  # noqa: F401  (unigrad.nn.init locks with it)
from ._generators import Generator, default_generator, numpy_generator
from ._shape_rules import integer_argument
from .random_draw import draw
from .shape import _as_shape


def manual_seed(seed: int) -> Generator:
    """Seed the default generator (behind ``rand``, ``randn``, ``randint``, dropout,
    initializers and every sampler called without ``generator=``); returns it.

    Example:
        >>> import unigrad as ug
        >>> _ = ug.manual_seed(0)
        >>> a = ug.rand(2)
        >>> _ = ug.manual_seed(0)
        >>> bool((a == ug.rand(2)).all())
        True
    """
    return default_generator.manual_seed(seed)


def generator() -> np.random.Generator:
    """The NumPy generator behind the default generator (``ug.default_generator``).

    Example:
        >>> import unigrad as ug
        >>> type(ug.generator()).__name__
        'Generator'
        >>> ug.generator() is ug.generator()
        True
    """
    return numpy_generator(None)


def _finish(array, dtype, device, requires_grad) -> Tensor:
    if dtype is not None:
        array = array.astype(backend.to_numpy_dtype(dtype), copy=False)
    if device is not None or backend.default_device() is not backend.CPU:
        array = backend.to_device(array, backend.Device(device or backend.default_device()))
    tensor = note_created(_make_tensor(array))
    # the message names the creating function (``ones(): argument 'requires_grad' ...``)
    if requires_grad is not False and checked_requires_grad(
            requires_grad, sys._getframe(1).f_code.co_name):
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
    if data is None:  # Tensor() is an empty tensor, tensor(None) an error (PyTorch)
        raise RuntimeError("tensor(): Could not infer dtype of NoneType: data must be a number, "
                           "a nested list of numbers, an array or a Tensor")
    if device is None and backend.default_device() is not backend.CPU:
        device = backend.default_device()
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
    return backend.default_float() if dtype is None else backend.to_numpy_dtype(dtype)


def _size(size: tuple, function: str) -> tuple:
    """``size`` (``f(2, 3)``, ``f((2, 3))`` or ``f([2, 3])``) as a shape of sizes >= 0.

    A size that is not an int is a TypeError and a negative one PyTorch's
    RuntimeError, both naming ``function`` and the offending size.
    """
    try:
        shape = _as_shape(size)
    except TypeError as error:
        raise TypeError(f"{function}(): argument 'size' must be a tuple of ints: {error}") \
            from error
    for dim in shape:
        if dim < 0:
            raise RuntimeError(f"{function}(): Trying to create tensor with negative dimension "
                               f"{dim}: {list(shape)}")
    return shape


def _number(value, function: str, name: str):
    """``value`` as a Python number (a one-element Tensor gives its item); TypeError else."""
    if isinstance(value, Tensor) and value._data.size == 1:
        value = value.item()
    if not isinstance(value, (int, float, complex, np.number, np.bool_)):
        raise TypeError(f"{function}(): argument '{name}' must be Number, not "
                        f"{type(value).__name__}")
    return value


def zeros(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of zeros (float32 by default).

    Example:
        >>> import unigrad as ug
        >>> ug.zeros(2)
        tensor([0., 0.])
        >>> ug.zeros(2, 3).shape
        (2, 3)
    """
    shape = _size(size, "zeros")
    xp = backend.namespace(device or backend.default_device())
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
    shape = _size(size, "ones")
    xp = backend.namespace(device or backend.default_device())
    return _finish(xp.ones(shape, _default_dtype(dtype)), None, None, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """An uninitialised tensor (zeros here, for reproducibility).

    Example:
        >>> import unigrad as ug
        >>> ug.empty(2, 3).shape
        (2, 3)
    """
    return zeros(_size(size, "empty"), dtype=dtype, device=device, requires_grad=requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor filled with ``fill_value`` (dtype inferred from it as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.full((2,), 7)
        tensor([7, 7])
        >>> ug.full((2,), 0.5)
        tensor([0.5000, 0.5000])
    """
    shape = _size((size,), "full")
    fill_value = _number(fill_value, "full", "fill_value")
    if dtype is None:
        dtype = as_array(fill_value).dtype
    xp = backend.namespace(device or backend.default_device())
    return _finish(xp.full(shape, fill_value, backend.to_numpy_dtype(dtype)), None, None,
                   requires_grad)


def _check_like_input(input, function: str) -> None:
    """``input`` of ``zeros_like`` and its kin: a Tensor (or a backend array); TypeError else."""
    if not isinstance(input, Tensor) and not hasattr(input, "shape"):
        raise TypeError(f"{function}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")


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
    _check_like_input(input, "zeros_like")
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
    _check_like_input(input, "ones_like")
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
    _check_like_input(input, "full_like")
    fill_value = _number(fill_value, "full_like", "fill_value")
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
    values = [_number(value, "arange", name)
              for name, value in (("start", start), ("end", end), ("step", step))]
    _check_range(*values)
    if dtype is None:
        floats = any(isinstance(v, (float, np.floating)) for v in values)
        dtype = backend.default_float() if floats else DEFAULT_INT
    xp = backend.namespace(device or backend.default_device())
    return _finish(xp.arange(*values, dtype=backend.to_numpy_dtype(dtype)), None, None,
                   requires_grad)


def _check_range(start, end, step) -> None:
    """PyTorch's checks of ``arange(start, end, step)``: a nonzero step, finite bounds,
    and ``end`` on the side of ``start`` that ``step`` moves towards."""
    for name, value in (("start", start), ("end", end), ("step", step)):
        if isinstance(value, (complex, np.complexfloating)):
            raise RuntimeError(f"arange(): argument '{name}' must be a real number, got {value}")
    if not (step > 0 or step < 0):  # NaN included
        raise RuntimeError(f"arange(): step must be nonzero, got step={step}")
    if not (np.isfinite(start) and np.isfinite(end)):
        raise RuntimeError(f"arange(): unsupported range: {start:g} -> {end:g} (start and end "
                           "must be finite)")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError(f"arange(): upper bound and lower bound inconsistent with step sign "
                           f"(start={start}, end={end}, step={step})")


def linspace(start, end, steps: int, dtype=None, device=None, requires_grad: bool = False):
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive.

    Example:
        >>> import unigrad as ug
        >>> ug.linspace(0, 1, 5)
        tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
    """
    steps = integer_argument(steps, "linspace", "steps")
    if steps < 0:
        raise RuntimeError(f"linspace(): number of steps must be non-negative, got steps={steps}")
    xp = backend.namespace(device or backend.default_device())
    target = _default_dtype(dtype)
    if target.kind != "f":
        values = xp.linspace(float(start), float(end), int(steps)).astype(target)
    else:
        values = xp.asarray(_spaced_values(float(start), float(end), int(steps), target))
    return _finish(values, None, None, requires_grad)


def _spaced_values(start: float, end: float, steps: int, dtype: np.dtype) -> np.ndarray:
    """PyTorch's linspace values, bit for bit in float32 and float64: the step in
    ``dtype``, the first half counted up from ``start`` and the second half down from
    ``end``, each value ``start + step * i`` rounded once to ``dtype`` (a fused
    multiply-add: computed in extended precision)."""
    low, high = dtype.type(start), dtype.type(end)
    if steps == 1:
        return np.array([low], dtype=dtype)
    step = dtype.type((high - low) / dtype.type(steps - 1)) if steps else dtype.type(0)
    wide = np.longdouble  # x86's 80-bit floats: the product of two doubles rounds once
    index = np.arange(steps).astype(wide)
    halfway = steps // 2
    values = np.where(index < halfway, wide(low) + wide(step) * index,
                      wide(high) - wide(step) * (steps - 1 - index))
    return values.astype(dtype)


def eye(n: int, m: int | None = None, dtype=None, device=None, requires_grad: bool = False):
    """The identity matrix (``n`` x ``m``).

    Example:
        >>> import unigrad as ug
        >>> ug.eye(2, 3)
        tensor([[1., 0., 0.],
                [0., 1., 0.]])
    """
    for name, value in (("n", n), ("m", m)):
        if value is not None and integer_argument(value, "eye", name) < 0:
            raise RuntimeError(f"eye(): {name} must be greater or equal to 0, got {value}")
    xp = backend.namespace(device or backend.default_device())
    return _finish(xp.eye(n, m, dtype=_default_dtype(dtype)), None, None, requires_grad)


def _draw(name: str, generator, shape: tuple, distribution: str, arguments: tuple = (),
          dtype=np.float64, operands: tuple = ()):
    """Samples of ``distribution`` (:func:`unigrad.ops.random_draw.draw`) as ``dtype``, with
    the sizes of the vmap levels drawing per-example numbers in front of ``shape``; returns
    the array (traced under ``ug.jit``: drawn at each call) and those levels (for
    :func:`per_example`)."""
    levels = randomness_levels(name)
    array = draw(distribution, arguments, _batch_sizes(levels) + tuple(shape), dtype,
                 generator, operands)
    return array, levels


def _check_requires_grad(np_dtype: np.dtype, requires_grad: bool) -> None:
    if requires_grad and np_dtype.kind not in "fc":
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")


_TORCH_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char",
                "uint8": "Byte", "bool": "Bool", "float16": "Half", "float32": "Float",
                "float64": "Double", "complex64": "ComplexFloat",
                "complex128": "ComplexDouble"}


def _not_implemented(kernel: str, np_dtype: np.dtype) -> NotImplementedError:
    """PyTorch's error for a sampling kernel that has no version for ``np_dtype``."""
    return NotImplementedError(f'"{kernel}" not implemented for '
                               f"'{_TORCH_NAMES[np.dtype(np_dtype).name]}'")


def _floating_sample(name: str, kernel: str, size: tuple, generator, dtype, device,
                     requires_grad: bool, distribution: str, arguments: tuple) -> Tensor:
    """Samples of a floating dtype, or of a complex one (its real and imaginary parts
    drawn independently)."""
    np_dtype = _default_dtype(dtype)
    if np_dtype.kind not in "fc":
        raise _not_implemented(kernel, np_dtype)
    array, levels = _draw(name, generator, _size(size, name), distribution, arguments, np_dtype)
    return per_example(_finish(array, None, device, requires_grad), levels)


def rand(*size, generator: Generator | None = None, dtype=None, device=None,
         requires_grad: bool = False) -> Tensor:
    """Uniform samples in [0, 1) (default float dtype) from ``generator`` (or the default one).

    Example:
        >>> import unigrad as ug
        >>> x = ug.rand(2, 3)
        >>> x.shape, x.dtype
        ((2, 3), unigrad.float32)
        >>> bool(((x >= 0) & (x < 1)).all())
        True
    """
    return _floating_sample("rand", "check_uniform_bounds", size, generator, dtype, device,
                            requires_grad, "uniform", (0.0, 1.0))


def randn(*size, generator: Generator | None = None, dtype=None, device=None,
          requires_grad: bool = False) -> Tensor:
    """Standard normal samples (default float dtype) from ``generator`` (or the default one).

    Example:
        >>> import unigrad as ug
        >>> _ = ug.manual_seed(0)
        >>> a = ug.randn(3)
        >>> _ = ug.manual_seed(0)
        >>> bool((a == ug.randn(3)).all())
        True
    """
    # complex: each part has variance 1/2, so E|z|^2 = 1 (PyTorch's complex normal)
    std = float(np.sqrt(0.5)) if _default_dtype(dtype).kind == "c" else 1.0
    return _floating_sample("randn", "normal_kernel_cpu", size, generator, dtype, device,
                            requires_grad, "normal", (0.0, std))


def _size_argument(size, function: str, position: int) -> tuple:
    if size is None:
        raise TypeError(f"{function}() missing required argument 'size' (pos {position})")
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"{function}(): argument 'size' (position {position}) must be tuple of "
                        f"ints, not {type(size).__name__}")
    return _size((tuple(size),), function)


def _random_integers(name: str, low: int, high: int, shape: tuple, generator, np_dtype,
                     device, requires_grad: bool) -> Tensor:
    """Integers in ``[low, high)`` as ``np_dtype`` (PyTorch's ``random_(from, to)`` checks)."""
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")
    if np_dtype.kind in "iu":
        info = np.iinfo(np_dtype)
        if low < info.min or high - 1 > info.max:
            bound = "from" if low < info.min else "to - 1"
            raise RuntimeError(f"{bound} is out of bounds for {np_dtype.name}")
    _check_requires_grad(np_dtype, requires_grad)
    array, levels = _draw(name, generator, shape, "integers", (low, high), np_dtype)
    return per_example(_finish(array, None, device, requires_grad), levels)


def randint(low=0, high=None, size=None, *, generator: Generator | None = None, dtype=None,
            device=None, requires_grad: bool = False) -> Tensor:
    """Integers in ``[low, high)`` (int64 by default), as ``torch.randint``.

    Called as ``randint(high, size)`` or ``randint(low, high, size)`` (or with
    keywords); ``size`` must be a tuple or list.

    Example:
        >>> import unigrad as ug
        >>> x = ug.randint(0, 10, (2, 3))
        >>> x.shape, x.dtype
        ((2, 3), unigrad.int64)
        >>> bool(((x >= 0) & (x < 10)).all())
        True
        >>> ug.randint(3, (4,)).shape      # randint(high, size)
        (4,)
    """
    position = 3
    if size is None and high is not None:  # randint(high, size)
        low, high, size, position = 0, low, high, 2
    elif high is None:  # randint(high, size=...)
        low, high, position = 0, low, 2
    low, high = integer_argument(low, "randint", "low"), integer_argument(high, "randint", "high")
    shape = _size_argument(size, "randint", position)
    np_dtype = DEFAULT_INT if dtype is None else backend.to_numpy_dtype(dtype)
    return _random_integers("randint", low, high, shape, generator, np_dtype, device,
                            requires_grad)


def _batch_sizes(levels: list) -> tuple:
    """The batch sizes of the vmap levels drawing per-example numbers (outermost first)."""
    return tuple(level.size for level in levels)


def rand_like(input: Tensor, *, generator: Generator | None = None, dtype=None, device=None,
              requires_grad: bool = False) -> Tensor:
    """:func:`rand` with the shape (and dtype) of ``input``.

    Example:
        >>> import unigrad as ug
        >>> x = ug.rand_like(ug.zeros(2, 2))
        >>> x.shape, x.dtype
        ((2, 2), unigrad.float32)
    """
    return rand(*input.shape, generator=generator, dtype=dtype or input.dtype,
                device=device, requires_grad=requires_grad)


def randn_like(input: Tensor, *, generator: Generator | None = None, dtype=None, device=None,
               requires_grad: bool = False) -> Tensor:
    """:func:`randn` with the shape (and dtype) of ``input``.

    Example:
        >>> import unigrad as ug
        >>> x = ug.randn_like(ug.zeros(3, dtype=ug.float64))
        >>> x.shape, x.dtype
        ((3,), unigrad.float64)
    """
    return randn(*input.shape, generator=generator, dtype=dtype or input.dtype,
                 device=device, requires_grad=requires_grad)
