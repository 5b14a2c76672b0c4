"""Samplers: the order in which a :class:`~unigrad.data.DataLoader` visits indices.

Random samplers draw from a unigrad :class:`~unigrad.Generator` (``generator=``);
without one each pass seeds a fresh generator from the default one, so
``ug.manual_seed`` makes them reproducible.

Example:
    >>> from unigrad.data import BatchSampler, SequentialSampler
    >>> list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False))
    [[0, 1], [2, 3], [4]]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Generic, TypeVar

import numpy as np

from ..ops._generators import Generator
from ..ops.creation import randint, tensor
from ..ops.sampling import multinomial, randperm
from ..tensor import Tensor
from ._streams import batches

__all__ = ["BatchSampler", "RandomSampler", "Sampler", "SequentialSampler",
           "SubsetRandomSampler", "WeightedRandomSampler"]

T_co = TypeVar("T_co", covariant=True)

_SEED_BOUND = 2 ** 63 - 1


def random_seed(generator: Generator | None = None) -> int:
    """A non-negative int64 seed drawn from ``generator`` (the default one for None)."""
    return int(randint(0, _SEED_BOUND, (), generator=generator).item())


def _fresh_generator(generator: Generator | None) -> Generator:
    """``generator``, or a new one seeded from the default generator when None."""
    if generator is not None:
        return generator
    return Generator().manual_seed(random_seed())


def _check_positive_int(value, name: str, allow_bool: bool = False) -> None:
    if (isinstance(value, bool) and not allow_bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{name} should be a positive integer value, but got {name}={value}")


def _check_bool(value, name: str, error: type[Exception] = ValueError) -> None:
    if not isinstance(value, bool):
        raise error(f"{name} should be a boolean value, but got {name}={value}")


class Sampler(Generic[T_co]):
    """Base class of samplers: subclasses define ``__iter__`` (indices or batches of
    them) and, when they can, ``__len__``.

    Example:
        >>> from unigrad.data import Sampler
        >>> class Reversed(Sampler):
        ...     def __init__(self, n):
        ...         self.n = n
        ...     def __iter__(self):
        ...         return iter(range(self.n - 1, -1, -1))
        >>> list(Reversed(3))
        [2, 1, 0]
    """

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    """The indices ``0 .. len(data_source) - 1`` in order.

    Example:
        >>> from unigrad.data import SequentialSampler
        >>> list(SequentialSampler("abc"))
        [0, 1, 2]
    """

    data_source: Sized

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler[int]):
    """Random indices into ``data_source``: shuffled permutations (as many as
    ``num_samples`` needs), or with ``replacement`` independent uniform draws.

    Raises:
        TypeError: For a non-bool ``replacement``.
        ValueError: For a ``num_samples`` that is not a positive int.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.data import RandomSampler
        >>> order = list(RandomSampler(range(5), generator=ug.Generator().manual_seed(1)))
        >>> sorted(order)
        [0, 1, 2, 3, 4]
        >>> len(RandomSampler(range(5), replacement=True, num_samples=12))
        12
    """

    data_source: Sized
    replacement: bool

    def __init__(self, data_source: Sized, replacement: bool = False,
                 num_samples: int | None = None, generator: Generator | None = None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        _check_bool(replacement, "replacement", TypeError)
        _check_positive_int(self.num_samples, "num_samples", allow_bool=True)  # as torch

    @property
    def num_samples(self) -> int:
        """How many indices one pass yields (``len(data_source)`` by default)."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        size, count = len(self.data_source), self.num_samples
        generator = _fresh_generator(self.generator)
        if self.replacement:
            for start in range(0, count, 32):
                yield from randint(0, size, (min(32, count - start),),
                                   generator=generator).tolist()
            return
        for _ in range(count // size):
            yield from randperm(size, generator=generator).tolist()
        yield from randperm(size, generator=generator).tolist()[:count % size]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    """The given ``indices`` in a random order (without replacement).

    Example:
        >>> from unigrad.data import SubsetRandomSampler
        >>> sorted(SubsetRandomSampler([4, 7, 9]))
        [4, 7, 9]
    """

    indices: Sequence[int]

    def __init__(self, indices: Sequence[int], generator: Generator | None = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for position in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[position]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler[int]):
    """``num_samples`` indices ``0 .. len(weights) - 1`` drawn with probabilities
    proportional to ``weights`` (need not sum to one).

    Raises:
        ValueError: For a ``num_samples`` that is not a positive int, a non-bool
            ``replacement`` or ``weights`` that are not one-dimensional.

    Example:
        >>> from unigrad.data import WeightedRandomSampler
        >>> list(WeightedRandomSampler([0.0, 0.0, 1.0], 3))
        [2, 2, 2]
        >>> sorted(WeightedRandomSampler([1.0, 1.0, 1.0], 3, replacement=False))
        [0, 1, 2]
    """

    weights: Tensor
    num_samples: int
    replacement: bool

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True,
                 generator: Generator | None = None) -> None:
        _check_positive_int(num_samples, "num_samples")
        _check_bool(replacement, "replacement")
        weights_tensor = tensor(np.asarray(weights.tolist() if isinstance(weights, Tensor)
                                           else weights, dtype=np.float64))
        if weights_tensor.ndim != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights_tensor.shape)}")
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        draws = multinomial(self.weights, self.num_samples, self.replacement,
                            generator=self.generator)
        yield from draws.tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list[int]]):
    """Lists of ``batch_size`` indices from ``sampler``; the last one is shorter
    unless ``drop_last`` drops it.

    Raises:
        ValueError: For a ``batch_size`` that is not a positive int or a non-bool
            ``drop_last``.

    Example:
        >>> from unigrad.data import BatchSampler
        >>> list(BatchSampler(range(7), 3, drop_last=True))
        [[0, 1, 2], [3, 4, 5]]
        >>> len(BatchSampler(range(7), 3, drop_last=False))
        3
    """

    def __init__(self, sampler: Sampler[int] | Iterable[int], batch_size: int,
                 drop_last: bool) -> None:
        _check_positive_int(batch_size, "batch_size")
        _check_bool(drop_last, "drop_last")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        return batches(iter(self.sampler), self.batch_size, self.drop_last)

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return math.ceil(len(self.sampler) / self.batch_size)

