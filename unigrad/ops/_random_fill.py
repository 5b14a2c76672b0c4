"""In-place random fillers (Tensor methods, as PyTorch): ``uniform_``, ``normal_``,
``exponential_``, ``random_``, ``bernoulli_``, ``geometric_``, ``cauchy_``, ``log_normal_``.

Each takes ``generator=``, returns the tensor, bumps its version counter and
refuses a leaf that requires grad (outside ``no_grad``). On a tensor with a
history the new values have zero gradient, as in PyTorch. Under ``ug.vmap``
they follow the ``randomness`` flag; inside ``ug.jit`` they draw at every call
(:mod:`unigrad.ops.random_draw`).

Example:
    >>> import unigrad as ug
    >>> x = ug.zeros(3)
    >>> x.uniform_(2.0, 3.0) is x
    True
    >>> bool(((x >= 2) & (x < 3)).all()), x._version
    (True, 1)
"""

from __future__ import annotations

import math

import numpy as np

from .. import _state
from ..interpreters.batching import per_example
from ..tensor import Tensor, _make_tensor
from ._generators import Generator
from .creation import _TORCH_NAMES, _draw, _not_implemented
from .elementwise import cast, where
from .inplace import apply_inplace
from .registry import op

_local = _state.local
_TRUE = np.array(True)


def _dtype_name(tensor: Tensor) -> str:
    return _TORCH_NAMES[tensor._data.dtype.name]


def _require_floating(tensor: Tensor, kernel: str, complex_ok: bool = False) -> None:
    if tensor._data.dtype.kind not in ("fc" if complex_ok else "f"):
        raise _not_implemented(kernel, tensor._data.dtype)


def _require_continuous(tensor: Tensor, distribution: str) -> None:
    if tensor._data.dtype.kind != "f":
        raise RuntimeError(f"{distribution} distribution is a continuous probability "
                           f"distribution. dtype must be a floating point but you specified "
                           f"{_dtype_name(tensor)}")


def _write(self: Tensor, value: Tensor) -> Tensor:
    """Store ``value`` (self's shape and dtype, maybe per-example) into ``self``."""
    batched = type(value._data) is not np.ndarray or type(self._data) is not np.ndarray
    recording = _local.grad_enabled and self._requires_grad
    if batched or recording or not self._data.flags.writeable:
        return apply_inplace(self, lambda old: where(_make_tensor(_TRUE), value, old))
    self._bump_version()
    self._data[...] = value._data
    return self


def _fill(self: Tensor, name: str, generator, distribution: str, arguments: tuple) -> Tensor:
    """Fill ``self`` with samples of ``distribution`` (:mod:`unigrad.ops.random_draw`)."""
    if not isinstance(self, Tensor):
        raise TypeError(f"{name}() needs a Tensor, got {type(self).__name__}")
    self._leaf_inplace_check()
    array, levels = _draw(name, generator, tuple(self.shape), distribution, arguments,
                          self._data.dtype)
    return _write(self, per_example(_make_tensor(array), levels))


def _from_to(name: str, args: tuple, kwargs: dict, defaults: tuple) -> tuple:
    """The ``from``/``to`` arguments (``from`` is a Python keyword: passed as ``**{'from': a}``)."""
    unknown = set(kwargs) - {"from", "to"}
    if unknown or len(args) > 2:
        raise TypeError(f"{name}() takes 'from' and 'to' (and generator=), got "
                        f"{len(args)} positional and {sorted(unknown)}")
    names = ("from", "to")
    values = dict(zip(names, defaults))
    for key, value in zip(names, args):
        if key in kwargs:
            raise TypeError(f"{name}() got multiple values for argument '{key}'")
        values[key] = value
    values.update(kwargs)
    return values["from"], values["to"]


@op(methods=("uniform_",))
def uniform_(self: Tensor, *args, generator: Generator | None = None, **kwargs) -> Tensor:
    """Fill with samples from ``[from, to)`` (defaults 0 and 1): ``x.uniform_(from, to)``.

    Example:
        >>> import unigrad as ug
        >>> x = ug.zeros(4).uniform_(-1, 1)
        >>> bool(((x >= -1) & (x < 1)).all())
        True
    """
    low, high = _from_to("uniform_", args, kwargs, (0.0, 1.0))
    _require_floating(self, "check_uniform_bounds")
    if low > high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={low} > to={high}")
    return _fill(self, "uniform_", generator, "uniform", (low, high))


@op(methods=("normal_",))
def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *,
            generator: Generator | None = None) -> Tensor:
    """Fill with samples of ``N(mean, std**2)``.

    Example:
        >>> import unigrad as ug
        >>> ug.zeros(2).normal_(5.0, 0.0)
        tensor([5., 5.])
    """
    _require_floating(self, "normal_kernel_cpu", complex_ok=True)
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    if self._data.dtype.kind == "c":  # PyTorch: each part N(mean, std**2 / 2)
        std = std / math.sqrt(2.0)
    return _fill(self, "normal_", generator, "normal", (mean, std))


@op(methods=("exponential_",))
def exponential_(self: Tensor, lambd: float = 1.0, *,
                 generator: Generator | None = None) -> Tensor:
    """Fill with samples of the exponential distribution of rate ``lambd``.

    Example:
        >>> import unigrad as ug
        >>> bool((ug.zeros(5).exponential_(2.0) >= 0).all())
        True
    """
    _require_continuous(self, "Exponential")
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    return _fill(self, "exponential_", generator, "exponential", (1.0 / lambd,))


def _random_bounds(self: Tensor, args: tuple, kwargs: dict) -> tuple:
    """``[low, high)`` of ``random_``: ``random_()``, ``random_(to)``, ``random_(from, to)``
    and ``random_(from, None)`` (up to the dtype's largest value, or 2**mantissa for floats)."""
    dtype = self._data.dtype
    if dtype.kind == "f":
        top = 2 ** (np.finfo(dtype).nmant + 1) + 1
    elif dtype.kind == "b":
        top = 2
    else:
        top = int(np.iinfo(dtype).max) + 1
    if len(args) == 1 and not kwargs:  # random_(to)
        low, high = 0, args[0]
    else:
        low, high = _from_to("random_", args, kwargs, (0, None))
        high = top if high is None else high
    for key, value in (("from", low), ("to", high)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"random_(): argument '{key}' must be int, not "
                            f"{type(value).__name__}")
    low, high = int(low), int(high)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if low < info.min:
            raise RuntimeError(f"from is out of bounds for {dtype.name}")
        if high - 1 > info.max:
            raise RuntimeError(f"to - 1 is out of bounds for {dtype.name}")
    return low, high


@op(methods=("random_",))
def random_(self: Tensor, *args, generator: Generator | None = None, **kwargs) -> Tensor:
    """Fill with integers from ``[from, to)``: ``random_()`` (the dtype's range),
    ``random_(to)``, ``random_(from, to)``, ``random_(from, None)``.

    Example:
        >>> import unigrad as ug
        >>> x = ug.zeros(6, dtype=ug.int64).random_(3, 5)
        >>> sorted(set(x.tolist()) | {3, 4})
        [3, 4]
    """
    low, high = _random_bounds(self, args, kwargs)
    return _fill(self, "random_", generator, "integers", (low, high))


@op(methods=("bernoulli_",))
def bernoulli_(self: Tensor, p=0.5, *, generator: Generator | None = None) -> Tensor:
    """Fill with 0/1: 1 with probability ``p`` (a float or a tensor broadcast to self).

    Example:
        >>> import unigrad as ug
        >>> ug.zeros(3).bernoulli_(ug.tensor([0.0, 1.0, 0.0]))
        tensor([0., 1., 0.])
    """
    if isinstance(p, Tensor):
        if p._data.dtype.kind != "f":
            raise _not_implemented("bernoulli_tensor_cpu_p_", p._data.dtype)
        if type(p._data) is np.ndarray and not ((p._data >= 0) & (p._data <= 1)).all():
            raise RuntimeError("bernoulli_ expects all elements of p to be in [0, 1]")
        p = p.detach()
    elif not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    self._leaf_inplace_check()
    array, levels = _draw("bernoulli_", generator, tuple(self.shape), "uniform", (0.0, 1.0))
    noise = per_example(_make_tensor(array), levels)
    from .shape import broadcast_to
    return _write(self, broadcast_to(cast(noise < p, self._data.dtype), tuple(self.shape)))


@op(methods=("geometric_",))
def geometric_(self: Tensor, p: float, *, generator: Generator | None = None) -> Tensor:
    """Fill with the number of Bernoulli(``p``) trials up to the first success (1, 2, ...).

    Example:
        >>> import unigrad as ug
        >>> bool((ug.zeros(5).geometric_(0.5) >= 1).all())
        True
    """
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")
    return _fill(self, "geometric_", generator, "geometric", (p,))


@op(methods=("cauchy_",))
def cauchy_(self: Tensor, median: float = 0.0, sigma: float = 1.0, *,
            generator: Generator | None = None) -> Tensor:
    """Fill with samples of the Cauchy distribution (``median``, scale ``sigma``).

    Example:
        >>> import unigrad as ug
        >>> ug.zeros(3).cauchy_().shape
        (3,)
    """
    _require_continuous(self, "Cauchy")
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma}")
    return _fill(self, "cauchy_", generator, "cauchy", (median, sigma))


@op(methods=("log_normal_",))
def log_normal_(self: Tensor, mean: float = 1.0, std: float = 2.0, *,
                generator: Generator | None = None) -> Tensor:
    """Fill with ``exp(N(mean, std**2))`` samples.

    Example:
        >>> import unigrad as ug
        >>> bool((ug.zeros(4).log_normal_() > 0).all())
        True
    """
    _require_floating(self, "log_normal_cpu")
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std}")
    return _fill(self, "log_normal_", generator, "log_normal", (mean, std))
