"""Datasets: map-style (``__getitem__``/``__len__``) and iterable-style (``__iter__``).

The classes of ``torch.utils.data``: :class:`Dataset`, :class:`IterableDataset`,
:class:`TensorDataset`, :class:`StackDataset`, :class:`ConcatDataset`,
:class:`ChainDataset`, :class:`Subset` and :func:`random_split`.

Example:
    >>> import unigrad as ug
    >>> from unigrad.data import TensorDataset, Subset
    >>> data = TensorDataset(ug.arange(6).reshape(3, 2), ug.tensor([0, 1, 0]))
    >>> len(data), data[1]
    (3, (tensor([2, 3]), tensor(1)))
    >>> Subset(data, [2, 0])[0][1]
    tensor(0)
"""

from __future__ import annotations

import bisect
import itertools
import math
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, TypeVar

from ..ops._generators import Generator, default_generator
from ..ops.sampling import randperm
from ..tensor import Tensor

__all__ = ["ChainDataset", "ConcatDataset", "Dataset", "IterableDataset", "StackDataset",
           "Subset", "TensorDataset", "random_split"]

T_co = TypeVar("T_co", covariant=True)
T = TypeVar("T")


class Dataset(Generic[T_co]):
    """A map-style dataset: subclasses define ``__getitem__(index)`` (and usually
    ``__len__``). ``a + b`` concatenates two datasets (:class:`ConcatDataset`).

    Example:
        >>> from unigrad.data import Dataset
        >>> class Squares(Dataset):
        ...     def __len__(self):
        ...         return 4
        ...     def __getitem__(self, index):
        ...         return index * index
        >>> both = Squares() + Squares()
        >>> len(both), both[5]
        (8, 1)
    """

    def __getitem__(self, index) -> T_co:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset[T_co]) -> ConcatDataset[T_co]:
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co], Iterable[T_co]):
    """A dataset that is a stream: subclasses define ``__iter__``. With worker
    processes every worker iterates its own copy; split the stream with
    :func:`~unigrad.data.get_worker_info` to avoid duplicates. ``a + b`` chains
    two streams (:class:`ChainDataset`).

    Example:
        >>> from unigrad.data import IterableDataset
        >>> class Count(IterableDataset):
        ...     def __init__(self, stop):
        ...         self.stop = stop
        ...     def __iter__(self):
        ...         return iter(range(self.stop))
        >>> list(Count(2) + Count(3))
        [0, 1, 0, 1, 2]
    """

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other: Dataset[T_co]) -> ChainDataset:
        return ChainDataset([self, other])


class TensorDataset(Dataset[tuple[Tensor, ...]]):
    """Rows of tensors that share their first dimension: item ``i`` is
    ``tuple(tensor[i] for tensor in tensors)``.

    Raises:
        AssertionError: When the tensors' first dimensions differ.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.data import TensorDataset
        >>> data = TensorDataset(ug.tensor([[1.0, 2.0], [3.0, 4.0]]), ug.tensor([7, 8]))
        >>> len(data), data[0]
        (2, (tensor([1., 2.]), tensor(7)))
    """

    tensors: tuple[Tensor, ...]

    def __init__(self, *tensors: Tensor) -> None:
        if any(tensor.size(0) != tensors[0].size(0) for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class StackDataset(Dataset[T_co]):
    """Datasets of equal length zipped: positional datasets give tuples, keyword
    datasets give dicts.

    Raises:
        ValueError: When both kinds are given, none is given or the lengths differ.

    Example:
        >>> from unigrad.data import StackDataset
        >>> StackDataset([1, 2], ["a", "b"])[1]
        (2, 'b')
        >>> StackDataset(x=[1, 2], y=["a", "b"])[0]
        {'x': 1, 'y': 'a'}
    """

    datasets: tuple | dict

    def __init__(self, *args: Dataset[T_co], **kwargs: Dataset[T_co]) -> None:
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or"
                             "``dict``- (via ``kwargs``) like input/output, but both types "
                             "are given.")
        if not args and not kwargs:
            raise ValueError("At least one dataset should be passed")
        datasets = list(args or kwargs.values())
        self._length = len(datasets[0])
        if any(self._length != len(dataset) for dataset in datasets):
            raise ValueError("Size mismatch between datasets")
        self.datasets = args or kwargs

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {key: dataset[index] for key, dataset in self.datasets.items()}
        return tuple(dataset[index] for dataset in self.datasets)

    def __len__(self) -> int:
        return self._length


class ConcatDataset(Dataset[T_co]):
    """Map-style datasets one after another (``cumulative_sizes`` holds the running
    lengths); negative indices count from the end.

    Raises:
        AssertionError: For no dataset or an :class:`IterableDataset`.

    Example:
        >>> from unigrad.data import ConcatDataset
        >>> data = ConcatDataset([[1, 2], [3, 4, 5]])
        >>> len(data), data[2], data[-1], data.cumulative_sizes
        (5, 3, 5, [2, 5])
    """

    datasets: list[Dataset[T_co]]
    cumulative_sizes: list[int]

    @staticmethod
    def cumsum(sequence: Iterable) -> list[int]:
        """The running totals of the lengths of ``sequence``'s datasets."""
        return list(itertools.accumulate(len(dataset) for dataset in sequence))

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(dataset, IterableDataset) for dataset in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - start]


class ChainDataset(IterableDataset):
    """Iterable datasets chained one after another (lazily).

    Raises:
        AssertionError: When iterated or measured with a non-iterable dataset inside.

    Example:
        >>> from unigrad.data import ChainDataset, IterableDataset
        >>> class Letters(IterableDataset):
        ...     def __iter__(self):
        ...         return iter("ab")
        >>> list(ChainDataset([Letters(), Letters()]))
        ['a', 'b', 'a', 'b']
    """

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = datasets

    def __iter__(self):
        for dataset in self.datasets:
            _require_iterable(dataset)
            yield from dataset

    def __len__(self) -> int:
        total = 0
        for dataset in self.datasets:
            _require_iterable(dataset)
            total += len(dataset)
        return total


def _require_iterable(dataset) -> None:
    if not isinstance(dataset, IterableDataset):
        raise AssertionError("ChainDataset only supports IterableDataset")


class Subset(Dataset[T_co]):
    """The items of ``dataset`` at ``indices``, in that order.

    Example:
        >>> from unigrad.data import Subset
        >>> part = Subset([10, 11, 12, 13], [3, 1])
        >>> len(part), part[0], part.__getitems__([1, 0])
        (2, 13, [11, 13])
    """

    dataset: Dataset[T_co]
    indices: Sequence[int]

    def __init__(self, dataset: Dataset[T_co], indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __getitems__(self, indices: list[int]) -> list:
        """The items at several positions (the DataLoader fetches a batch with this)."""
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[i] for i in indices])
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset: Dataset[T], lengths: Sequence[int | float],
                 generator: Generator | None = default_generator) -> list[Subset[T]]:
    """Split ``dataset`` into non-overlapping random :class:`Subset` s of the given
    ``lengths``, or of fractions of its length (``floor(fraction * len)`` each, the
    remainder handed out one at a time, round-robin).

    Raises:
        ValueError: For a fraction outside [0, 1] or lengths not summing to ``len(dataset)``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.data import random_split
        >>> train, test = random_split(range(10), [0.7, 0.3], generator=ug.Generator())
        >>> len(train), len(test), sorted(list(train) + list(test)) == list(range(10))
        (7, 3, True)
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_of_fractions(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = randperm(sum(lengths), generator=generator).tolist()
    ends = itertools.accumulate(lengths)
    return [Subset(dataset, indices[end - length:end]) for end, length in zip(ends, lengths)]


def _lengths_of_fractions(total: int, fractions: Sequence[float]) -> list[int]:
    lengths = []
    for position, fraction in enumerate(fractions):
        if fraction < 0 or fraction > 1:
            raise ValueError(f"Fraction at index {position} is not between 0 and 1")
        lengths.append(math.floor(total * fraction))
    for step in range(total - sum(lengths)):
        lengths[step % len(lengths)] += 1
    for position, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"Length of split at index {position} is 0. This might result in an "
                          f"empty dataset.", stacklevel=3)
    return lengths
