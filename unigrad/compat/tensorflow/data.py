"""``tf.data``: ``tf.data.Dataset`` over :mod:`unigrad.data`'s stream machinery.

A dataset is a re-iterable stream of elements: TensorFlow tensors, or tuples
and dicts of them (Python lists are converted to tensors, as TensorFlow's).
Transformations (``batch``, ``shuffle``, ``map``, ``repeat``...) return new
datasets and run eagerly, element by element, when the dataset is iterated.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> dataset = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [4.0, 5.0, 6.0]))
    >>> for x, y in dataset.map(lambda x, y: (x * 2, y)).batch(2):
    ...     print(x.numpy(), y.numpy())
    [2 4] [4. 5.]
    [6] [6.]
    >>> int(dataset.cardinality())
    3
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from types import SimpleNamespace

import numpy as np

from ...data._streams import batches, buffer_shuffle, repeated
from ...data.collate import stack_structures
from ...data.sampler import random_seed
from ...tensor import Tensor as _UgTensor
from ...transforms.tree import tree_flatten, tree_map, tree_unflatten
from ._tensor import Tensor, as_tf_tree, convert_to_tensor
from .errors import InvalidArgumentError
from .tensor_spec import TensorSpec

__all__ = ["AUTOTUNE", "Dataset", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY",
           "experimental"]

AUTOTUNE = -1
"""Let ``tf.data`` pick a buffer size or parallelism (accepted; everything runs eagerly)."""
INFINITE_CARDINALITY = -1
"""The cardinality of a dataset that never ends."""
UNKNOWN_CARDINALITY = -2
"""The cardinality of a dataset whose length is only known by iterating it."""


def _is_leaf(value) -> bool:
    return isinstance(value, (list, _UgTensor, np.ndarray))


def _flatten(element) -> tuple[list, object]:
    """The leaves of an element (lists count as one leaf) and its structure."""
    return tree_flatten(element, is_leaf=_is_leaf)


def _to_tensors(element, dtypes: list | None = None):
    """``element`` with every leaf converted to a TensorFlow tensor (of ``dtypes``)."""
    leaves, structure = _flatten(element)
    dtypes = dtypes or [None] * len(leaves)
    return tree_unflatten(structure, [convert_to_tensor(leaf, dtype=dtype)
                                      for leaf, dtype in zip(leaves, dtypes)])


def _call(function: Callable, element):
    """``function(*element)`` for a tuple element, else ``function(element)``."""
    if isinstance(element, tuple):
        return function(*element)
    return function(element)


class Dataset:
    """A stream of elements, as ``tf.data.Dataset``. Make one with a static
    constructor (``from_tensor_slices``, ``from_tensors``, ``range``, ``zip``,
    ``from_generator``); iterate it with ``for`` or :meth:`as_numpy_iterator`.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> dataset = tf.data.Dataset.range(10).filter(lambda x: x % 3 == 0)
        >>> list(dataset.repeat(2).skip(1).take(4).as_numpy_iterator())
        [np.int64(3), np.int64(6), np.int64(9), np.int64(0)]
    """

    def __init__(self, make_iterator: Callable[[], Iterator], cardinality: int,
                 kind: str = "Dataset") -> None:
        self._make_iterator = make_iterator
        self._cardinality = cardinality
        self._kind = kind

    def __repr__(self) -> str:
        return f"<_{self._kind}>"

    def __iter__(self) -> Iterator:
        return iter(self._make_iterator())

    def __len__(self) -> int:
        if self._cardinality == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if self._cardinality == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return self._cardinality

    def cardinality(self) -> Tensor:
        """The number of elements as an int64 scalar: ``tf.data.INFINITE_CARDINALITY``
        (-1) for an endless dataset, ``tf.data.UNKNOWN_CARDINALITY`` (-2) when it
        cannot be known without iterating (``filter``, ``from_generator``)."""
        return convert_to_tensor(self._cardinality, dtype="int64")

    def as_numpy_iterator(self) -> Iterator:
        """The elements with NumPy values instead of tensors."""
        for element in self:
            yield tree_map(lambda leaf: leaf.numpy(), element)

    # ------------------------------------------------------------------ constructors

    @staticmethod
    def from_tensor_slices(tensors, name: str | None = None) -> Dataset:
        """One element per index of the first dimension of ``tensors`` (a tensor or a
        tuple/dict of tensors with equal first dims).

        Raises:
            ValueError: For scalar leaves or first dims that differ.
        """
        del name
        converted = _to_tensors(tensors)
        leaves, structure = _flatten(converted)
        if any(leaf.ndim == 0 for leaf in leaves):
            raise ValueError("Unbatching a tensor is only supported for rank >= 1")
        size = leaves[0].shape[0]
        if any(leaf.shape[0] != size for leaf in leaves):
            raise ValueError(f"Dimensions {size} and "
                             f"{next(leaf.shape[0] for leaf in leaves if leaf.shape[0] != size)}"
                             f" are not compatible")

        def make_iterator():
            for position in range(size):
                yield tree_unflatten(structure, [leaf[position] for leaf in leaves])
        return Dataset(make_iterator, size, "TensorSliceDataset")

    @staticmethod
    def from_tensors(tensors, name: str | None = None) -> Dataset:
        """A dataset of one element, ``tensors``."""
        del name
        element = _to_tensors(tensors)
        return Dataset(lambda: iter([element]), 1, "TensorDataset")

    @staticmethod
    def range(*args, output_type=None, name: str | None = None) -> Dataset:
        """``range(stop)``, ``range(start, stop)`` or ``range(start, stop, step)`` as
        int64 scalars (or ``output_type``)."""
        del name
        values = range(*args)
        dtype = "int64" if output_type is None else output_type
        return Dataset(lambda: (convert_to_tensor(value, dtype=dtype) for value in values),
                       len(values), "RangeDataset")

    @staticmethod
    def zip(*args, datasets=None, name: str | None = None) -> Dataset:
        """Elements of several datasets side by side (a tuple, or the structure of a
        tuple/dict of datasets), as long as the shortest.

        Raises:
            TypeError: For a member that is not a Dataset.
        """
        del name
        structure_source = datasets if datasets is not None else (
            args[0] if len(args) == 1 else args)
        members, structure = tree_flatten(structure_source)
        if not all(isinstance(member, Dataset) for member in members):
            raise TypeError("Invalid `datasets`. `datasets` is expected to be a (nested) "
                            "structure of `tf.data.Dataset` objects.")
        finite = [member._cardinality for member in members if member._cardinality >= 0]
        unknown = any(member._cardinality == UNKNOWN_CARDINALITY for member in members)
        cardinality = min(finite) if finite else (
            UNKNOWN_CARDINALITY if unknown else INFINITE_CARDINALITY)
        if unknown and (not finite or min(finite) > 0):
            cardinality = UNKNOWN_CARDINALITY

        def make_iterator():
            for items in zip(*members):
                yield tree_unflatten(structure, list(items))
        return Dataset(make_iterator, cardinality, "ZipDataset")

    @staticmethod
    def from_generator(generator: Callable, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name: str | None = None) -> Dataset:
        """The values ``generator(*args)`` yields, converted to tensors of
        ``output_signature``'s (a structure of :class:`TensorSpec`) dtypes, or of
        ``output_types``.

        Raises:
            TypeError: For a ``generator`` that is not callable or neither
                ``output_signature`` nor ``output_types``.
            ValueError: For a yielded value of a shape the signature excludes.
        """
        del name
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        if output_signature is None:
            if output_types is None:
                raise TypeError("The `output_types` argument can not be None when "
                                "`output_signature` is None.")
            output_signature = tree_map(
                lambda dtype: TensorSpec(None, dtype), output_types)
            if output_shapes is not None:
                specs, structure = tree_flatten(output_signature)
                shapes = tree_flatten(output_shapes, is_leaf=lambda v: isinstance(
                    v, (list, tuple)) and all(d is None or isinstance(d, int) for d in v))[0]
                output_signature = tree_unflatten(structure, [
                    TensorSpec(shape, spec.dtype) for spec, shape in zip(specs, shapes)])
        specs = tree_flatten(output_signature)[0]
        arguments = tuple(args or ())

        def make_iterator():
            for value in generator(*arguments):
                element = _to_tensors(value, [spec.dtype for spec in specs])
                for leaf, spec in zip(_flatten(element)[0], specs):
                    if not spec.shape.is_compatible_with(tuple(leaf.shape)):
                        raise ValueError(f"`generator` yielded an element of shape "
                                         f"{tuple(leaf.shape)} where an element of shape "
                                         f"{spec.shape} was expected.")
                yield element
        return Dataset(make_iterator, UNKNOWN_CARDINALITY, "FlatMapDataset")

    # ------------------------------------------------------------------ transformations

    def batch(self, batch_size: int, drop_remainder: bool = False, num_parallel_calls=None,
              deterministic=None, name: str | None = None) -> Dataset:
        """Consecutive elements stacked into batches of ``batch_size`` (a smaller last
        one unless ``drop_remainder``).

        Raises:
            InvalidArgumentError: For a ``batch_size`` below one (a ValueError).
        """
        del num_parallel_calls, deterministic, name
        if batch_size < 1:
            raise InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        count = self._cardinality
        if count >= 0:
            count = count // batch_size if drop_remainder else math.ceil(count / batch_size)

        def make_iterator():
            for elements in batches(iter(self), batch_size, drop_remainder):
                yield as_tf_tree(stack_structures(elements))
        return Dataset(make_iterator, count, "BatchDataset")

    def unbatch(self, name: str | None = None) -> Dataset:
        """Each element split along its first dimension into elements."""
        del name

        def make_iterator():
            for element in self:
                leaves, structure = _flatten(element)
                for position in range(leaves[0].shape[0]):
                    yield tree_unflatten(structure, [leaf[position] for leaf in leaves])
        return Dataset(make_iterator, UNKNOWN_CARDINALITY, "UnbatchDataset")

    def shuffle(self, buffer_size: int, seed: int | None = None,
                reshuffle_each_iteration: bool | None = None,
                name: str | None = None) -> Dataset:
        """Elements drawn at random from a buffer of ``buffer_size`` (a uniform
        shuffle when it holds the whole dataset). Each iteration reshuffles unless
        ``reshuffle_each_iteration=False``; ``seed`` makes the orders reproducible.

        Raises:
            InvalidArgumentError: For a ``buffer_size`` below one (a ValueError).
        """
        del name
        if buffer_size < 1 and buffer_size != AUTOTUNE:
            raise InvalidArgumentError(None, None, "buffer_size must be greater than zero or "
                                       "UNKNOWN_CARDINALITY")
        size = self._cardinality if buffer_size == AUTOTUNE and self._cardinality > 0 else \
            max(buffer_size, 1)
        base_seed = random_seed() if seed is None else seed
        reshuffle = reshuffle_each_iteration is None or reshuffle_each_iteration
        epochs = itertools.count()

        def make_iterator():
            epoch = next(epochs) if reshuffle else 0
            rng = np.random.default_rng([base_seed, epoch])
            return buffer_shuffle(self, size, rng)
        return Dataset(make_iterator, self._cardinality, "ShuffleDataset")

    def map(self, map_func: Callable, num_parallel_calls=None, deterministic=None,
            name: str | None = None) -> Dataset:
        """``map_func`` applied to each element (its members as arguments when it is a
        tuple); results become tensors."""
        del num_parallel_calls, deterministic, name
        return Dataset(lambda: (_to_tensors(_call(map_func, element)) for element in self),
                       self._cardinality, "MapDataset")

    def filter(self, predicate: Callable, name: str | None = None) -> Dataset:
        """The elements for which ``predicate`` (called as in :meth:`map`) is true."""
        del name
        return Dataset(lambda: (element for element in self
                                if bool(_call(predicate, element))),
                       UNKNOWN_CARDINALITY, "FilterDataset")

    def repeat(self, count: int | None = None, name: str | None = None) -> Dataset:
        """The dataset ``count`` times over (forever for None or -1)."""
        del name
        size = self._cardinality
        if size == 0 or (count is not None and count == 0):
            cardinality = 0
        elif count is None or count < 0:
            cardinality = INFINITE_CARDINALITY if size != UNKNOWN_CARDINALITY else size
        else:
            cardinality = size * count if size >= 0 else size
        return Dataset(lambda: repeated(self.__iter__, count), cardinality, "RepeatDataset")

    def take(self, count: int, name: str | None = None) -> Dataset:
        """The first ``count`` elements (all for -1)."""
        del name
        if count < 0:
            return Dataset(self.__iter__, self._cardinality, "TakeDataset")
        size = self._cardinality
        cardinality = count if size == INFINITE_CARDINALITY else (
            min(size, count) if size >= 0 else size)
        return Dataset(lambda: itertools.islice(self, count), cardinality, "TakeDataset")

    def skip(self, count: int, name: str | None = None) -> Dataset:
        """All but the first ``count`` elements (none for -1)."""
        del name
        if count < 0:
            return Dataset(lambda: iter(()), 0, "SkipDataset")
        size = self._cardinality
        cardinality = max(size - count, 0) if size >= 0 else size
        return Dataset(lambda: itertools.islice(self, count, None), cardinality, "SkipDataset")

    def enumerate(self, start: int = 0, name: str | None = None) -> Dataset:
        """``(index, element)`` pairs, the index an int64 scalar from ``start``."""
        del name
        return Dataset(lambda: ((convert_to_tensor(position, dtype="int64"), element)
                                for position, element in enumerate(self, start)),
                       self._cardinality, "EnumerateDataset")

    def prefetch(self, buffer_size: int, name: str | None = None) -> Dataset:
        """The same dataset (prefetching is a no-op: elements are made eagerly)."""
        del buffer_size, name
        return Dataset(self.__iter__, self._cardinality, "PrefetchDataset")

    def cache(self, filename: str = "", name: str | None = None) -> Dataset:
        """The same elements, kept in memory after the first complete pass and read
        from there afterwards (``filename`` is accepted; nothing is written)."""
        del filename, name
        stored: list = []
        complete = [False]

        def make_iterator():
            if complete[0]:
                yield from stored
                return
            stored.clear()
            for element in self:
                stored.append(element)
                yield element
            complete[0] = True
        return Dataset(make_iterator, self._cardinality, "CacheDataset")


def _cardinality(dataset: Dataset) -> Tensor:
    return dataset.cardinality()


experimental = SimpleNamespace(AUTOTUNE=AUTOTUNE, INFINITE_CARDINALITY=INFINITE_CARDINALITY,
                               UNKNOWN_CARDINALITY=UNKNOWN_CARDINALITY,
                               cardinality=_cardinality)
"""``tf.data.experimental``: ``AUTOTUNE``, the cardinality constants and ``cardinality``."""
