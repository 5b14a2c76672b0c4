"""Random sampling (PyTorch semantics): generators and their state, ``randperm``,
``normal``, ``bernoulli``, ``multinomial``, ``poisson``, ``randint_like``, and the
process-wide default float dtype and device.

Every sampler takes ``generator=`` (:class:`Generator`; the default one, seeded
by ``manual_seed``, when None). Under ``ug.vmap`` samplers follow the vmap's
``randomness`` flag, as ``rand`` does; inside ``ug.jit`` they draw at every call
of the compiled function (:mod:`unigrad.ops.random_draw`).
As in PyTorch, samples are not differentiable with respect to their
parameters: a sample from an input that requires grad requires grad too, with
zero gradient. The in-place fillers (``x.uniform_()``, ...) are in
:mod:`unigrad.ops._random_fill`.

Example:
    >>> import unigrad as ug
    >>> g = ug.Generator().manual_seed(0)
    >>> ug.randperm(4, generator=g).sort().values
    tensor([0, 1, 2, 3])
"""

from __future__ import annotations

import numpy as np

from .. import _state, backend
from ..backend import DEFAULT_INT
from ..interpreters.batching import BatchTracer, per_example, randomness_levels
from ..tensor import Tensor, _make_tensor
from . import _random_fill  # noqa: F401  (declares the in-place fillers)
from ._generators import Generator, default_generator
from ._shape_rules import broadcast_shapes
from ._values import known_values
from .creation import (
    _draw,
    _finish,
    _floating_sample,
    _not_implemented,
    _random_integers,
    _size_argument,
)
from .elementwise import cast, where
from .random_draw import draw
from .reduce import argmax, cumsum, sum
from .registry import op

__all__ = ["Generator", "default_generator", "initial_seed", "seed", "get_rng_state",
           "set_rng_state", "set_default_dtype", "get_default_dtype", "set_default_device",
           "get_default_device", "randperm", "normal", "bernoulli", "multinomial", "poisson",
           "randint_like"]

_local = _state.local


# ----------------------------------------------------------------------------- global state

def initial_seed() -> int:
    """The seed of the default generator (``torch.initial_seed``).

    Example:
        >>> import unigrad as ug
        >>> _ = ug.manual_seed(42)
        >>> ug.initial_seed()
        42
    """
    return default_generator.initial_seed()


def seed() -> int:
    """Seed the default generator from the OS's entropy; returns the seed (``torch.seed``).

    Example:
        >>> import unigrad as ug
        >>> s = ug.seed()
        >>> ug.initial_seed() == s
        True
        >>> _ = ug.manual_seed(0)
    """
    return default_generator.seed()


def get_rng_state() -> Tensor:
    """The default generator's state as a uint8 tensor (``torch.get_rng_state``).

    Example:
        >>> import unigrad as ug
        >>> state = ug.get_rng_state()
        >>> a = ug.rand(2)
        >>> ug.set_rng_state(state)
        >>> bool((ug.rand(2) == a).all())
        True
    """
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    """Restore the default generator's state from :func:`get_rng_state`.

    Example:
        >>> import unigrad as ug
        >>> ug.set_rng_state(ug.get_rng_state())
    """
    default_generator.set_state(new_state)


def set_default_dtype(d) -> None:
    """Set the default floating dtype (float32 at start; float16 and float64 allowed).

    It is the dtype of Python floats made tensors, of ``zeros``/``rand``/...
    without ``dtype=``, and of integer tensors promoted by floats. Process-wide.

    Example:
        >>> import unigrad as ug
        >>> ug.set_default_dtype(ug.float64)
        >>> ug.tensor([1.5]).dtype
        unigrad.float64
        >>> ug.set_default_dtype(ug.float32)
    """
    try:
        np_dtype = backend.to_numpy_dtype(d) if d is not float else None
    except TypeError:
        np_dtype = None
    if np_dtype is None or np_dtype.kind != "f":
        what = "invalid dtype object: " if not isinstance(d, backend.DType) else ""
        raise TypeError(f"{what}only floating-point types are supported as the default type")
    backend._DEFAULTS["float"] = np_dtype


def get_default_dtype() -> backend.DType:
    """The default floating dtype (see :func:`set_default_dtype`).

    Example:
        >>> import unigrad as ug
        >>> ug.get_default_dtype()
        unigrad.float32
    """
    return backend.from_numpy_dtype(backend.default_float())


def set_default_device(device) -> None:
    """Set the device of new tensors made without ``device=`` (None: back to ``cpu``).

    Example:
        >>> import unigrad as ug
        >>> ug.set_default_device("cpu")
        >>> ug.get_default_device()
        device(type='cpu')
    """
    device = None if device is None else backend.Device(device)
    backend._DEFAULTS["device"] = None if device == backend.CPU else device


def get_default_device() -> backend.Device:
    """The device of new tensors made without ``device=`` (``cpu`` unless set).

    Example:
        >>> import unigrad as ug
        >>> str(ug.get_default_device())
        'cpu'
    """
    return backend.default_device()


# ----------------------------------------------------------------------------- helpers

def _is_batched(tensor: Tensor) -> bool:
    return type(tensor._data) is not np.ndarray and hasattr(tensor._data, "__unigrad_abstract__")


def _without_gradient(sample: Tensor, *inputs) -> Tensor:
    """``sample``, attached with zero gradient to the inputs that require grad (as
    PyTorch's ``NormalBackward``/``BernoulliBackward``/``PoissonBackward``)."""
    if not _local.grad_enabled:
        return sample
    for value in inputs:
        if isinstance(value, Tensor) and value._requires_grad:
            sample = where(_make_tensor(np.array(True)), sample, cast(value, sample.dtype))
    return sample


def _floating_input(input, kernel: str) -> Tensor:
    if not isinstance(input, Tensor):
        raise TypeError(f"input must be a Tensor, got {type(input).__name__}")
    if input._data.dtype.kind != "f":
        raise _not_implemented(kernel, input._data.dtype)
    return input


def _uniform_like(name: str, shape: tuple, generator, dtype) -> Tensor:
    array, levels = _draw(name, generator, shape, "uniform", (0.0, 1.0), dtype)
    return per_example(_make_tensor(array), levels)


def _broadcast_shape(shapes: list) -> tuple:
    try:
        return broadcast_shapes(*shapes)
    except ValueError:
        a, b = shapes
        axis = next(i for i in range(1, min(len(a), len(b)) + 1)
                    if a[-i] != b[-i] and 1 not in (a[-i], b[-i]))
        raise RuntimeError(f"The size of tensor a ({a[-axis]}) must match the size of tensor b "
                           f"({b[-axis]}) at non-singleton dimension "
                           f"{max(len(a), len(b)) - axis}") from None


# ----------------------------------------------------------------------------- samplers

def randperm(n: int, *, generator: Generator | None = None, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """A random permutation of ``0 .. n-1`` (int64 unless ``dtype``).

    Example:
        >>> import unigrad as ug
        >>> p = ug.randperm(5)
        >>> p.dtype, sorted(p.tolist())
        (unigrad.int64, [0, 1, 2, 3, 4])
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"randperm(): argument 'n' must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    np_dtype = DEFAULT_INT if dtype is None else backend.to_numpy_dtype(dtype)
    if requires_grad and np_dtype.kind not in "fc":
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")
    array, levels = _draw("randperm", generator, (int(n),), "permutation", (), np_dtype)
    return per_example(_finish(array, None, device, requires_grad), levels)


def normal(mean, std=1.0, size=None, *, generator: Generator | None = None, dtype=None,
           device=None, requires_grad: bool = False) -> Tensor:
    """Samples of ``N(mean, std**2)``, as ``torch.normal``'s four forms.

    ``normal(mean_tensor, std_tensor)`` (broadcast), ``normal(mean_tensor, std=1.0)``,
    ``normal(mean_float, std_tensor)``, ``normal(mean_float, std_float, size)``.

    Example:
        >>> import unigrad as ug
        >>> ug.normal(ug.zeros(2, 3), 1.0).shape
        (2, 3)
        >>> ug.normal(2.0, 0.0, (2,))
        tensor([2., 2.])
    """
    tensor_mean, tensor_std = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not tensor_mean and not tensor_std:
        if size is None:
            raise TypeError(f"normal() received an invalid combination of arguments - got "
                            f"({type(mean).__name__}, {type(std).__name__}), but expected "
                            f"(float mean, float std, tuple of ints size)")
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        shape = _size_argument(size, "normal", 3)
        return _floating_sample("normal", "normal_kernel_cpu", (shape,), generator, dtype,
                                device, requires_grad, "normal", (mean, std))
    if size is not None or dtype is not None or device is not None or requires_grad:
        raise TypeError("normal(): 'size', 'dtype', 'device' and 'requires_grad' are only "
                        "accepted with float mean and std")
    tensors = [t for t in (mean, std) if isinstance(t, Tensor)]
    for t in tensors:
        _floating_input(t, "normal_kernel_cpu")
    if tensor_std:
        values = known_values(std)
        if values is not None and (values < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    result_dtype = tensors[0]._data.dtype if len(tensors) == 1 else backend.promote_types(
        mean._data.dtype, std._data.dtype)
    shape = _broadcast_shape([tuple(t.shape) for t in tensors])
    array, levels = _draw("normal", generator, shape, "normal", (0.0, 1.0), result_dtype)
    noise = per_example(_make_tensor(array), levels)
    mean_value = mean.detach() if tensor_mean else mean
    std_value = std.detach() if tensor_std else std
    sample = cast(mean_value + std_value * noise, result_dtype)
    return _without_gradient(sample, mean, std)


@op(methods=("bernoulli",))
def bernoulli(input: Tensor, p: float | None = None, *,
              generator: Generator | None = None) -> Tensor:
    """0/1 samples (``input``'s dtype): 1 with probability ``input`` (or ``p`` when given).

    Example:
        >>> import unigrad as ug
        >>> ug.bernoulli(ug.tensor([0.0, 1.0, 1.0]))
        tensor([0., 1., 1.])
    """
    if p is None:
        _floating_input(input, "bernoulli_tensor_cpu_p_")
        values = known_values(input)
        if values is not None and not ((values >= 0) & (values <= 1)).all():
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
        probability = input.detach()
    else:
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        probability = p
    dtype = input._data.dtype
    noise = _uniform_like("bernoulli", tuple(input.shape), generator, np.float64)
    sample = cast(noise < probability, dtype)
    return _without_gradient(sample, input)


@op(methods=("multinomial",))
def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,
                generator: Generator | None = None) -> Tensor:
    """Category indices (int64) drawn from the (unnormalized) probabilities in the last
    dim of a 1-D or 2-D ``input``; without ``replacement`` each index at most once.

    Example:
        >>> import unigrad as ug
        >>> ug.multinomial(ug.tensor([0.0, 1.0, 0.0]), 2, replacement=True)
        tensor([1, 1])
        >>> sorted(ug.multinomial(ug.tensor([1.0, 0.0, 2.0]), 2).tolist())
        [0, 2]
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"multinomial(): argument 'input' must be Tensor, not "
                        f"{type(input).__name__}")
    if input._data.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{backend.from_numpy_dtype(input._data.dtype).name}")
    if input.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if isinstance(num_samples, bool) or not isinstance(num_samples, (int, np.integer)):
        raise TypeError(f"multinomial(): argument 'num_samples' must be int, not "
                        f"{type(num_samples).__name__}")
    categories = input.shape[-1]
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    values = known_values(input)
    if values is not None:
        if not (np.isfinite(values) & (values >= 0)).all():
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if (values.sum(-1) <= 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        if not replacement and ((values > 0).sum(-1) < num_samples).any():
            raise RuntimeError("invalid multinomial distribution (with replacement=False, not "
                               "enough non-negative category to sample)")
    probabilities = input.detach()
    if replacement:
        return _multinomial_with_replacement(probabilities, int(num_samples), generator)
    return _multinomial_without_replacement(probabilities, int(num_samples), generator)


def _multinomial_with_replacement(probabilities: Tensor, count: int, generator) -> Tensor:
    """Inverse CDF: the index of the first cumulative probability above a uniform draw."""
    draws = _uniform_like("multinomial", tuple(probabilities.shape[:-1]) + (count,), generator,
                          probabilities._data.dtype)
    last = probabilities.shape[-1] - 1
    if not (_is_batched(probabilities) or _is_batched(draws)):  # NumPy, row by row
        cdf = np.cumsum(backend.to_numpy(probabilities._data), -1)
        cdf = (cdf / cdf[..., -1:]).reshape(-1, last + 1)
        uniform = backend.to_numpy(draws._data).reshape(len(cdf), count)
        index = np.stack([np.searchsorted(row, u, side="right") for row, u in zip(cdf, uniform)])
        return _make_tensor(np.minimum(index, last).astype(DEFAULT_INT).reshape(draws.shape))
    cdf = cumsum(probabilities, -1)
    cdf = cdf / cdf[..., -1:]
    below = cast(draws.unsqueeze(-1) >= cdf.unsqueeze(-2), DEFAULT_INT)
    index = sum(below, -1)
    return where(index > last, last, index)


def _multinomial_without_replacement(probabilities: Tensor, count: int, generator) -> Tensor:
    """The ``count`` largest keys ``p / Exponential(1)`` (PyTorch's algorithm), largest first."""
    shape = tuple(probabilities.shape)
    array, levels = _draw("multinomial", generator, shape, "exponential", (1.0,),
                          probabilities._data.dtype)
    keys = probabilities / per_example(_make_tensor(array), levels)
    if not _is_batched(keys):  # NumPy: one stable sort
        order = np.argsort(-backend.to_numpy(keys._data), axis=-1, kind="stable")
        return _make_tensor(order[..., :count].astype(DEFAULT_INT))
    chosen = []
    positions = _make_tensor(np.arange(shape[-1]))
    for _ in range(count):  # inside vmap: successive arg-maxima
        index = argmax(keys, -1, keepdim=True)
        chosen.append(index)
        keys = where(positions == index, -1.0, keys)
    from .shape import cat
    return cat(chosen, -1)


def poisson(input: Tensor, generator: Generator | None = None) -> Tensor:
    """Poisson samples with rates ``input`` (``input``'s dtype).

    Example:
        >>> import unigrad as ug
        >>> ug.poisson(ug.tensor([0.0, 0.0]))
        tensor([0., 0.])
    """
    _floating_input(input, "poisson_cpu")
    values = known_values(input)
    if values is not None and (values < 0).any():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    dtype = input._data.dtype
    if type(input._data) is BatchTracer:  # each element draws for itself: no batch dim named
        randomness_levels("poisson")  # vmap's randomness check
        sample = _elementwise_draw(input.detach(), generator, dtype)
    else:  # the rates are an operand of the draw (a Tensor: so is the result)
        drawn, levels = _draw("poisson", generator, tuple(input.shape), "poisson", (), dtype,
                              operands=(input.detach(),))
        sample = per_example(drawn, levels)
    return _without_gradient(sample, input)


def _elementwise_draw(input: Tensor, generator, dtype) -> Tensor:
    """Poisson draws for a vmap-batched ``input``: drawn on the whole batch, re-wrapped."""
    data = input._data
    if type(data) is BatchTracer:
        inner = data.value if isinstance(data.value, Tensor) else _make_tensor(data.value)
        return data.interpreter.wrap(_elementwise_draw(inner, generator, dtype), data.dim)
    return draw("poisson", (), tuple(input.shape), dtype, generator, (input,))


def randint_like(input: Tensor, low: int = 0, high: int | None = None, *,
                 generator: Generator | None = None, dtype=None, device=None,
                 requires_grad: bool = False) -> Tensor:
    """:func:`randint` shaped like ``input`` (its dtype unless ``dtype``):
    ``randint_like(input, high)`` or ``randint_like(input, low, high)``.

    Example:
        >>> import unigrad as ug
        >>> x = ug.randint_like(ug.zeros(2, 3, dtype=ug.int32), 5)
        >>> x.shape, x.dtype
        ((2, 3), unigrad.int32)
    """
    if high is None:
        low, high = 0, low
    for name, value in (("low", low), ("high", high)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"randint_like(): argument '{name}' must be int, not "
                            f"{type(value).__name__}")
    np_dtype = input._data.dtype if dtype is None else backend.to_numpy_dtype(dtype)
    return _random_integers("randint_like", int(low), int(high), tuple(input.shape), generator,
                            np_dtype, device, requires_grad)

