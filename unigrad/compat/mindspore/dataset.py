"""``mindspore.dataset``: GeneratorDataset and NumpySlicesDataset over :mod:`unigrad.data`.

A dataset is a re-iterable stream of rows, each a tuple of named columns held
as NumPy arrays; iterators hand the columns out as MindSpore Tensors (or NumPy
arrays with ``output_numpy=True``). Sources that can be indexed are visited by
:mod:`unigrad.data`'s samplers (shuffled by default, as MindSpore's), and
``batch``/``shuffle``/``repeat`` use its stream machinery.

Example:
    >>> import numpy as np
    >>> import unigrad.compat.mindspore as ms
    >>> data = ms.dataset.NumpySlicesDataset({"x": np.arange(6).reshape(3, 2),
    ...                                       "y": np.array([0, 1, 0])}, shuffle=False)
    >>> for x, y in data.batch(2).create_tuple_iterator():
    ...     print(x.shape, y.asnumpy().tolist())
    (2, 2) [0, 1]
    (1, 2) [0]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from ... import backend
from ...data._streams import batches, buffer_shuffle, repeated
from ...data.collate import stack_structures
from ...data.distributed import DistributedSampler
from ...data.sampler import RandomSampler, SequentialSampler, random_seed
from ...tensor import Tensor as _UgTensor
from ._tensor import Tensor

__all__ = ["Dataset", "GeneratorDataset", "NumpySlicesDataset"]

_MAX_INT32 = 2147483647


def _as_array(value) -> np.ndarray:
    """One column value as a NumPy array (tensors are copied out of the engine)."""
    if isinstance(value, _UgTensor):
        return np.array(backend.to_numpy(value._data))
    return np.asarray(value)


def _as_row(item, column_count: int | None) -> tuple:
    """A source item as a row: a tuple of arrays (a non-tuple item is one column).

    Raises:
        RuntimeError: When the number of columns differs from ``column_count``.
    """
    values = item if isinstance(item, tuple) else (item,)
    if column_count is not None and len(values) != column_count:
        raise RuntimeError(f"the size of column_names is: {column_count} and number of "
                           f"returned NumPy array is: {len(values)}")
    return tuple(_as_array(value) for value in values)


def _check_positive(value, name: str, low: int = 1) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= _MAX_INT32:
        raise ValueError(f"Input {name} is not within the required interval of "
                         f"[{low}, {_MAX_INT32}].")


class Dataset:
    """A stream of rows with named columns (MindSpore's ``Dataset``); the
    transformations return new datasets.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> data = ms.dataset.NumpySlicesDataset([1, 2, 3], shuffle=False)
        >>> data.get_col_names(), data.repeat(2).get_dataset_size()
        (['column_0'], 6)
    """

    def __init__(self, make_rows: Callable[[], Iterator[tuple]], column_names: list[str],
                 size: int | None, batch_size: int = 1, repeat_count: int = 1) -> None:
        self._make_rows = make_rows
        self._column_names = list(column_names)
        self._size = size
        self._batch_size = batch_size
        self._repeat_count = repeat_count

    def _derived(self, make_rows, size: int | None, column_names: list[str] | None = None,
                 **settings) -> Dataset:
        names = self._column_names if column_names is None else column_names
        options = {"batch_size": self._batch_size, "repeat_count": self._repeat_count}
        options.update(settings)
        return Dataset(make_rows, names, size, **options)

    # ------------------------------------------------------------------ information

    def get_col_names(self) -> list[str]:
        """The column names, in order."""
        return list(self._column_names)

    def get_batch_size(self) -> int:
        """The batch size of the last ``batch`` (1 without one)."""
        return self._batch_size

    def get_repeat_count(self) -> int:
        """The count of the last ``repeat`` (1 without one, -1 forever)."""
        return self._repeat_count

    def get_dataset_size(self) -> int:
        """The number of rows (batches after ``batch``) one pass yields; -1 when it
        repeats forever. Sources of unknown length are counted by iterating them."""
        if self._size is None:
            self._size = sum(1 for _ in self._make_rows())
        return self._size

    # ------------------------------------------------------------------ transformations

    def batch(self, batch_size: int, drop_remainder: bool = False, num_parallel_workers=None,
              **kwargs) -> Dataset:
        """Consecutive rows stacked column by column into batches of ``batch_size``
        (a smaller last one unless ``drop_remainder``).

        Raises:
            ValueError: For a ``batch_size`` outside [1, 2147483647].
            NotImplementedError: For ``per_batch_map``.
        """
        del num_parallel_workers
        _check_positive(batch_size, "batch_size")
        if kwargs.get("per_batch_map") is not None:
            raise NotImplementedError("batch: per_batch_map is not supported")
        size = self._size
        if size is not None and size >= 0:
            size = size // batch_size if drop_remainder else math.ceil(size / batch_size)

        def make_rows():
            for rows in batches(self._make_rows(), batch_size, drop_remainder):
                yield stack_structures(rows)
        return self._derived(make_rows, size, batch_size=batch_size)

    def shuffle(self, buffer_size: int) -> Dataset:
        """Rows drawn at random from a buffer of ``buffer_size`` (a global shuffle
        when it holds every row); every pass draws a new order.

        Raises:
            ValueError: For a ``buffer_size`` outside [2, 2147483647].
        """
        _check_positive(buffer_size, "buffer_size", low=2)
        return self._derived(lambda: buffer_shuffle(
            self._make_rows(), buffer_size, np.random.default_rng(random_seed())), self._size)

    def map(self, operations, input_columns=None, output_columns=None,
            num_parallel_workers=None, **kwargs) -> Dataset:
        """Apply ``operations`` (a callable or a list, applied in turn) to the
        ``input_columns`` (the first column by default), given as NumPy arrays; the
        results replace those columns (named ``output_columns`` when given).

        Raises:
            ValueError: For an unknown input column.
            RuntimeError: When the results do not match the output columns.
        """
        del num_parallel_workers, kwargs
        functions = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        inputs = [input_columns] if isinstance(input_columns, str) else list(
            input_columns or self._column_names[:1])
        outputs = [output_columns] if isinstance(output_columns, str) else list(
            output_columns or inputs)
        unknown = [name for name in inputs if name not in self._column_names]
        if unknown:
            raise ValueError(f"Invalid input_columns, column name: {unknown[0]} does not exist "
                             f"in the dataset columns {self._column_names}.")
        positions = [self._column_names.index(name) for name in inputs]
        names = self._map_column_names(inputs, outputs)

        def apply(row: tuple) -> tuple:
            values = tuple(row[position] for position in positions)
            for function in functions:
                result = function(*values)
                values = result if isinstance(result, tuple) else (result,)
            if len(values) != len(outputs):
                raise RuntimeError(f"map: the operations returned {len(values)} columns but "
                                   f"output_columns names {len(outputs)}")
            kept = tuple(value for position, value in enumerate(row)
                         if position not in positions)
            first = min(positions)
            arrays = tuple(_as_array(value) for value in values)
            return kept[:first] + arrays + kept[first:]
        return self._derived(lambda: map(apply, self._make_rows()), self._size, names)

    def _map_column_names(self, inputs: list[str], outputs: list[str]) -> list[str]:
        """The column names after ``map``: the outputs where the first input was."""
        kept = [name for name in self._column_names if name not in inputs]
        first = min(self._column_names.index(name) for name in inputs)
        return kept[:first] + outputs + kept[first:]

    def repeat(self, count: int | None = None) -> Dataset:
        """The dataset ``count`` times over (forever for None or -1)."""
        forever = count is None or count == -1
        size = -1 if forever else (None if self._size is None else self._size * count)
        return self._derived(lambda: repeated(self._make_rows, None if forever else count),
                             size, repeat_count=-1 if forever else count)

    def take(self, count: int = -1) -> Dataset:
        """The first ``count`` rows (all for -1)."""
        if count == -1:
            return self._derived(self._make_rows, self._size)
        size = count if self._size is None or self._size < 0 else min(count, self._size)
        return self._derived(lambda: itertools.islice(self._make_rows(), count), size)

    def skip(self, count: int) -> Dataset:
        """All but the first ``count`` rows."""
        size = None if self._size is None else (self._size if self._size < 0 else
                                                max(self._size - count, 0))
        return self._derived(lambda: itertools.islice(self._make_rows(), count, None), size)

    # ------------------------------------------------------------------ iteration

    def create_tuple_iterator(self, columns: Sequence[str] | None = None, num_epochs: int = -1,
                              output_numpy: bool = False, do_copy: bool = True) -> Iterator:
        """Rows as lists of Tensors (NumPy arrays with ``output_numpy``) of
        ``columns`` (all by default), for one pass.

        Raises:
            ValueError: For an unknown column.
        """
        del num_epochs, do_copy
        positions = self._positions(columns)
        for row in self._make_rows():
            yield [_output(row[position], output_numpy) for position in positions]

    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: bool = False,
                             do_copy: bool = True) -> Iterator[dict]:
        """Rows as dicts from column name to Tensor (NumPy array with
        ``output_numpy``), for one pass."""
        del num_epochs, do_copy
        for row in self._make_rows():
            yield {name: _output(value, output_numpy)
                   for name, value in zip(self._column_names, row)}

    def __iter__(self) -> Iterator:
        return self.create_tuple_iterator()

    def _positions(self, columns) -> list[int]:
        if columns is None:
            return list(range(len(self._column_names)))
        names = [columns] if isinstance(columns, str) else list(columns)
        unknown = [name for name in names if name not in self._column_names]
        if unknown:
            raise ValueError(f"Invalid columns, column name: {unknown[0]} does not exist in "
                             f"the dataset columns {self._column_names}.")
        return [self._column_names.index(name) for name in names]


def _output(array: np.ndarray, output_numpy: bool):
    return array if output_numpy else Tensor(array)


def _index_sampler(size: int, shuffle: bool, num_samples: int | None, sampler,
                   num_shards: int | None, shard_id: int | None):
    """The indices a random-accessible source is read at, from :mod:`unigrad.data`'s
    samplers: sharded, shuffled or in order, at most ``num_samples`` of them."""
    if sampler is not None:
        if shuffle or num_shards is not None:
            raise RuntimeError("sampler and shuffle/num_shards cannot be specified at the same "
                               "time")
        return sampler
    if num_shards is not None:
        if shard_id is None or not 0 <= shard_id < num_shards:
            raise ValueError(f"Input shard_id is not within the required interval of "
                             f"[0, {num_shards - 1}].")
        indices = DistributedSampler(range(size), num_replicas=num_shards, rank=shard_id,
                                     shuffle=shuffle, seed=random_seed() if shuffle else 0)
    elif shuffle:
        indices = RandomSampler(range(size))
    else:
        indices = SequentialSampler(range(size))
    if num_samples is None:
        return indices
    return _Limited(indices, num_samples)


class _Limited:
    """The first ``count`` indices of a sampler."""

    def __init__(self, sampler, count: int) -> None:
        self.sampler, self.count = sampler, count

    def __iter__(self) -> Iterator[int]:
        return itertools.islice(iter(self.sampler), self.count)

    def __len__(self) -> int:
        return min(len(self.sampler), self.count)


class GeneratorDataset(Dataset):
    """Rows from a Python ``source``: random-accessible (``source[index]`` and
    ``len``), iterable, or a generator function; each item is a tuple of arrays (or
    one array) named by ``column_names``. A random-accessible source is shuffled
    unless ``shuffle=False`` (or a ``sampler`` is given); ``num_samples`` limits
    the rows and ``num_shards``/``shard_id`` pick a shard.

    Raises:
        ValueError: Without ``column_names``, or for ``shuffle``, ``sampler`` or
            sharding with a source that cannot be indexed.

    Example:
        >>> import numpy as np
        >>> import unigrad.compat.mindspore as ms
        >>> def pairs():
        ...     for i in range(3):
        ...         yield np.array([i, i]), np.array(i * 0.5)
        >>> data = ms.dataset.GeneratorDataset(pairs, column_names=["x", "y"])
        >>> [row["y"].asnumpy().item() for row in data.create_dict_iterator()]
        [0.0, 0.5, 1.0]
        >>> data.get_dataset_size()
        3
    """

    def __init__(self, source, column_names=None, column_types=None, schema=None,
                 num_samples: int | None = None, num_parallel_workers: int = 1,
                 shuffle: bool | None = None, sampler=None, num_shards: int | None = None,
                 shard_id: int | None = None, python_multiprocessing: bool = True,
                 max_rowsize=None) -> None:
        del column_types, num_parallel_workers, python_multiprocessing, max_rowsize
        if column_names is None and schema is None:
            raise ValueError("GeneratorDataset: Neither columns_names nor schema are provided.")
        names = [column_names] if isinstance(column_names, str) else list(column_names)
        if num_samples is not None:
            _check_positive(num_samples, "num_samples", low=0)
        indexable = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if indexable:
            indices = _index_sampler(len(source), shuffle is None or shuffle, num_samples,
                                     sampler, num_shards, shard_id)
            make_rows = _indexed_rows(source, indices, len(names))
            size = len(indices) if hasattr(indices, "__len__") else None
        else:
            if shuffle or sampler is not None or num_shards is not None:
                raise ValueError("shuffle, sampler and num_shards need a random-accessible "
                                 "source (with __getitem__ and __len__).")
            make_rows = _streamed_rows(source, num_samples, len(names))
            size = None
        super().__init__(make_rows, names, size)
        self.source = source


def _indexed_rows(source, indices, column_count: int) -> Callable[[], Iterator[tuple]]:
    def make_rows():
        for index in indices:
            yield _as_row(source[index], column_count)
    return make_rows


def _streamed_rows(source, num_samples: int | None,
                   column_count: int) -> Callable[[], Iterator[tuple]]:
    def make_rows():
        items = source() if callable(source) and not hasattr(source, "__iter__") \
            else iter(source)
        if num_samples is not None:
            items = itertools.islice(items, num_samples)
        for item in items:
            yield _as_row(item, column_count)
    return make_rows


class NumpySlicesDataset(GeneratorDataset):
    """Rows sliced along the first dimension of ``data``: a list or array gives one
    column, a tuple one column per member, a dict one column per key (its keys are
    the default names; otherwise ``column_0``, ``column_1``...). Shuffled unless
    ``shuffle=False``.

    Raises:
        ValueError: For columns of different lengths or a ``column_names`` of the
            wrong length.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> data = ms.dataset.NumpySlicesDataset(([1, 2, 3], [4.0, 5.0, 6.0]), shuffle=False)
        >>> data.get_col_names()
        ['column_0', 'column_1']
        >>> [[t.asnumpy().item() for t in row] for row in data.take(2)]
        [[1, 4.0], [2, 5.0]]
    """

    def __init__(self, data, column_names=None, num_samples: int | None = None,
                 num_parallel_workers: int = 1, shuffle: bool | None = None, sampler=None,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        columns, default_names = _slice_columns(data)
        names = default_names if column_names is None else (
            [column_names] if isinstance(column_names, str) else list(column_names))
        if len(names) != len(columns):
            raise ValueError(f"NumpySlicesDataset: column_names has {len(names)} names but the "
                             f"data has {len(columns)} columns")
        super().__init__(_ColumnSlices(columns), column_names=names, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)


def _slice_columns(data) -> tuple[list[np.ndarray], list[str]]:
    """The columns of ``data`` as arrays, and their default names."""
    if isinstance(data, dict):
        columns, names = [_as_array(value) for value in data.values()], list(data)
    else:
        members = data if isinstance(data, tuple) else (data,)
        columns = [_as_array(value) for value in members]
        names = [f"column_{position}" for position in range(len(columns))]
    if any(column.ndim == 0 for column in columns):
        raise ValueError("NumpySlicesDataset: every column needs a first dimension to slice")
    if any(len(column) != len(columns[0]) for column in columns):
        raise ValueError("NumpySlicesDataset: all columns must have the same length along the "
                         "first dimension")
    return columns, names


class _ColumnSlices:
    """Rows ``index`` of a list of column arrays (a random-accessible source)."""

    def __init__(self, columns: list[np.ndarray]) -> None:
        self.columns = columns

    def __len__(self) -> int:
        return len(self.columns[0])

    def __getitem__(self, index: int) -> tuple:
        return tuple(column[index] for column in self.columns)
