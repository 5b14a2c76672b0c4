"""The random primitives: numbers drawn from a generator, and its state, when the program runs.

Every random function (``rand``, ``randn``, ``randint``, ``normal``, ``bernoulli``,
dropout, the in-place fillers ``uniform_``..., the samplers) draws through one
primitive, :data:`random_draw_p`, whose params name what is drawn:

- ``distribution``: a name of :data:`DISTRIBUTIONS` (``"uniform"``, ``"normal"``,
  ``"integers"``, ...), a NumPy sampling routine;
- ``arguments``: its Python-number arguments (``(low, high)``, ``(mean, std)``...);
  array arguments (Poisson's rates) are operands;
- ``shape`` and ``dtype``: the result's (a complex dtype draws its real and
  imaginary parts independently);
- ``generator``: the :class:`~unigrad.ops._generators.Generator` drawn from, or
  None for the default one (resolved when the draw runs, so ``manual_seed``
  between calls is seen).

Eager mode computes it at once. Under ``ug.jit`` the trace records it like any
other primitive, and the generated code calls its ``impl`` at every call of the
compiled function: each call draws new numbers, and the generator advances
through the draws in program order, exactly as the same code run eagerly does
(the same seed gives the same numbers, call after call, and leaves the generator
in the same state). The primitive is declared ``impure``, which the graph passes
honour: constant folding never evaluates it, common subexpression elimination
never merges two draws (two ``rand(3)`` are different numbers), and dead code
elimination keeps a draw whose result is unused, because drawing advances the
generator (as it does eagerly). It is not differentiable: samples are constants
to autograd, so ``jit(grad(f))`` of a function using dropout uses the one mask
drawn in the forward pass in the backward pass as well.

Seeding and the state are primitives too, with the same guarantees:
``random_seed`` (``Generator.manual_seed``, ``ug.manual_seed``), ``random_state``
(``get_state``, ``ug.get_rng_state``: a uint8 array) and ``random_set_state``
(``set_state``, ``ug.set_rng_state``): a jitted function that seeds, or saves and
restores the state around its draws, does so at every call (tracing itself never
changes a generator). The three have a 0-d or state-sized result (what keeps an
impure op's eqn in a graph).

Example:
    >>> import unigrad as ug
    >>> from unigrad.ops.random_draw import draw
    >>> g = ug.Generator().manual_seed(0)
    >>> draw("integers", (0, 10), (4,), "int64", g).tolist()
    [8, 6, 5, 2]
    >>> _ = g.manual_seed(0)
    >>> ug.randint(0, 10, (4,), generator=g).tolist()
    [8, 6, 5, 2]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import backend
from ._generators import LOCK, STATE_BYTES, Generator, numpy_generator
from ._primitive import Primitive, bind


def _uniform(rng: np.random.Generator, size: tuple, low: float, high: float) -> np.ndarray:
    values = rng.random(size)
    return values if (low, high) == (0.0, 1.0) else low + (high - low) * values


def _normal(rng: np.random.Generator, size: tuple, mean: float, std: float) -> np.ndarray:
    values = rng.standard_normal(size)
    return values if (mean, std) == (0.0, 1.0) else mean + std * values


def _integers(rng: np.random.Generator, size: tuple, low: int, high: int) -> np.ndarray:
    dtype = np.int64 if high <= 2 ** 63 else np.uint64  # random_() of a uint64-sized range
    return rng.integers(low, high, size=size, dtype=dtype)


def _cauchy(rng: np.random.Generator, size: tuple, median: float, sigma: float) -> np.ndarray:
    return median + sigma * rng.standard_cauchy(size)


def _permutation(rng: np.random.Generator, size: tuple) -> np.ndarray:
    """Along the last axis, a permutation of ``0 .. size[-1] - 1`` per row."""
    return rng.permuted(np.broadcast_to(np.arange(size[-1]), size), axis=-1)


def _poisson(rng: np.random.Generator, size: tuple, rates) -> np.ndarray:
    return rng.poisson(np.broadcast_to(backend.to_numpy(rates), size))


#: name -> ``sampler(numpy_generator, size, *operands, *arguments)`` (float64 or integers)
DISTRIBUTIONS: dict[str, Callable] = {
    "uniform": _uniform,
    "normal": _normal,
    "integers": _integers,
    "exponential": lambda rng, size, scale: rng.exponential(scale, size),
    "geometric": lambda rng, size, p: rng.geometric(p, size),
    "cauchy": _cauchy,
    "log_normal": lambda rng, size, mean, std: rng.lognormal(mean, std, size),
    "permutation": _permutation,
    "poisson": _poisson,
}


def _draw_impl(*operands, distribution: str, arguments: tuple, shape: tuple, dtype: np.dtype,
               generator: Generator | None) -> np.ndarray:
    """Draw now, under the generator lock (the generated code calls this at every run)."""
    sampler = DISTRIBUTIONS[distribution]
    pairs = dtype.kind == "c"
    size = shape + (2,) if pairs else shape
    rng = numpy_generator(generator)
    with LOCK:
        values = sampler(rng, size, *operands, *arguments)
    if pairs:
        values = values[..., 0] + 1j * values[..., 1]
    return values.astype(dtype, copy=False)


def _draw_shape(*operands, distribution: str, arguments: tuple, shape: tuple, dtype: np.dtype,
                generator: Generator | None) -> tuple:
    return shape, dtype


random_draw_p = Primitive("random_draw", _draw_impl, _draw_shape, differentiable=False,
                          impure=True, result_memory="fresh contiguous")

_DONE = ((), np.dtype(np.bool_))  # the result of an op run for its effect: a 0-d False


def _seed_impl(*, generator: Generator, seed: int) -> np.ndarray:
    generator._reseed(seed)
    return np.zeros((), np.bool_)


def _set_state_impl(state, *, generator: Generator) -> np.ndarray:
    generator._restore(state)
    return np.zeros((), np.bool_)


random_seed_p = Primitive("random_seed", _seed_impl, lambda **params: _DONE,
                          differentiable=False, impure=True)
random_state_p = Primitive("random_state", lambda *, generator: generator._state_bytes(),
                           lambda **params: ((STATE_BYTES,), np.dtype(np.uint8)),
                           differentiable=False, impure=True, result_memory="fresh contiguous")
random_set_state_p = Primitive("random_set_state", _set_state_impl,
                               lambda state, **params: _DONE, differentiable=False, impure=True)


def draw(distribution: str, arguments: tuple, shape: tuple, dtype, generator=None,
         operands: tuple = ()):
    """Samples of ``distribution`` (see :data:`DISTRIBUTIONS`) of ``shape`` and ``dtype`` from
    ``generator`` (a :class:`~unigrad.ops._generators.Generator`; None: the default one).

    Returns a backend array, or under ``ug.jit`` the traced value of a draw made at each
    call of the compiled function. Checks its arguments before anything is drawn.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.ops.random_draw import draw
        >>> draw("normal", (5.0, 0.0), (2,), "float32")
        array([5., 5.], dtype=float32)
        >>> draw("gamma", (), (2,), "float32")
        Traceback (most recent call last):
        ...
        ValueError: random_draw(): unknown distribution 'gamma'; expected one of uniform, \
normal, integers, exponential, geometric, cauchy, log_normal, permutation, poisson
    """
    if distribution not in DISTRIBUTIONS:
        raise ValueError(f"random_draw(): unknown distribution {distribution!r}; expected one "
                         f"of {', '.join(DISTRIBUTIONS)}")
    numpy_generator(generator)  # a TypeError naming generator= for anything else
    return bind(random_draw_p, *operands, distribution=distribution, arguments=tuple(arguments),
                shape=tuple(int(size) for size in shape), dtype=backend.to_numpy_dtype(dtype),
                generator=generator)
