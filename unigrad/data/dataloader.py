"""The DataLoader: batches of a dataset, in the main process or in worker processes.

Example:
    >>> import unigrad as ug
    >>> from unigrad.data import DataLoader, TensorDataset
    >>> data = TensorDataset(ug.arange(10.0).reshape(5, 2), ug.arange(5))
    >>> loader = DataLoader(data, batch_size=2)
    >>> len(loader)
    3
    >>> [labels.tolist() for _, labels in loader]
    [[0, 1], [2, 3], [4]]
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import multiprocessing.context
import os
import queue
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..ops._generators import Generator
from . import _worker
from .collate import default_collate, default_convert
from .dataset import Dataset, IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, random_seed

__all__ = ["DataLoader"]


class _InfiniteConstantSampler(Sampler):
    """None forever: the placeholder indices of an iterable dataset."""

    def __iter__(self) -> Iterator[None]:
        return itertools.repeat(None)


def _default_context() -> multiprocessing.context.BaseContext:
    """``fork`` where the platform has it (nothing to pickle), else ``spawn``."""
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return multiprocessing.get_context(method)


class DataLoader:
    """Iterate over ``dataset`` in batches, as PyTorch's ``torch.utils.data.DataLoader``.

    ``batch_size`` samples (from ``sampler``, a :class:`RandomSampler` when
    ``shuffle``, else a :class:`SequentialSampler`; or whole batches from
    ``batch_sampler``) are merged by ``collate_fn`` (:func:`default_collate`;
    :func:`default_convert` with ``batch_size=None``). With ``num_workers > 0``
    worker processes (``fork`` where available, else ``spawn``) load the batches,
    ``prefetch_factor`` each ahead, returned in order (unless ``in_order=False``);
    each worker calls ``worker_init_fn(worker_id)`` first, and an error in a worker
    is raised again here with the worker's traceback. ``persistent_workers`` keeps
    them between epochs. An :class:`IterableDataset` is batched as a stream (every
    worker iterates its own copy). ``pin_memory`` is accepted and does nothing.

    Raises:
        ValueError: For negative ``num_workers``, ``timeout`` or ``prefetch_factor``,
            and for options that exclude each other (PyTorch's messages).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.data import DataLoader
        >>> loader = DataLoader(range(6), batch_size=4, shuffle=True,
        ...                     generator=ug.Generator().manual_seed(0))
        >>> [len(batch) for batch in loader]
        [4, 2]
        >>> sorted(ug.cat(list(loader)).tolist())
        [0, 1, 2, 3, 4, 5]
        >>> next(iter(DataLoader([{"x": 1.0}, {"x": 2.0}], batch_size=2)))
        {'x': tensor([1., 2.], dtype=unigrad.float64)}
    """

    _initialized = False

    def __init__(self, dataset: Dataset, batch_size: int | None = 1,
                 shuffle: bool | None = None, sampler: Sampler | Iterable | None = None,
                 batch_sampler: Sampler | Iterable | None = None, num_workers: int = 0,
                 collate_fn: Callable[[list], Any] | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0,
                 worker_init_fn: Callable[[int], None] | None = None,
                 multiprocessing_context=None, generator: Generator | None = None, *,
                 prefetch_factor: int | None = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        prefetch_factor = _check_worker_options(num_workers, timeout, prefetch_factor,
                                                persistent_workers)
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        self._is_iterable = isinstance(dataset, IterableDataset)
        if self._is_iterable:
            _check_iterable_options(shuffle, sampler, batch_sampler)
        else:
            shuffle = bool(shuffle)
        batch_size, drop_last = _check_batch_options(batch_size, shuffle, sampler,
                                                     batch_sampler, drop_last)
        if sampler is None:
            sampler = self._default_sampler(shuffle, generator)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if batch_sampler is not None else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._iterator = None
        self._length_reported = None
        self._initialized = True
        self.check_worker_number_rationality()

    def _default_sampler(self, shuffle: bool, generator: Generator | None) -> Sampler:
        if self._is_iterable:
            return _InfiniteConstantSampler()
        if shuffle:
            return RandomSampler(self.dataset, generator=generator)
        return SequentialSampler(self.dataset)

    @property
    def multiprocessing_context(self):
        """The multiprocessing context of the workers (None: ``fork`` where available)."""
        return self._multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context) -> None:
        if context is not None:
            if self.num_workers == 0:
                raise ValueError(f"multiprocessing_context can only be used with multi-process "
                                 f"loading (num_workers > 0), but got "
                                 f"num_workers={self.num_workers}")
            if isinstance(context, str):
                methods = multiprocessing.get_all_start_methods()
                if context not in methods:
                    raise ValueError(f"multiprocessing_context option should specify a valid "
                                     f"start method in {methods!r}, but got "
                                     f"multiprocessing_context={context!r}")
                context = multiprocessing.get_context(context)
            if not isinstance(context, multiprocessing.context.BaseContext):
                raise TypeError(f"multiprocessing_context option should be a valid context "
                                f"object or a string specifying the start method, but got "
                                f"multiprocessing_context={context}")
        self._multiprocessing_context = context

    def __setattr__(self, name: str, value) -> None:
        if self._initialized and name in ("batch_size", "batch_sampler", "sampler", "drop_last",
                                          "dataset", "persistent_workers"):
            raise ValueError(f"{name} attribute should not be set after "
                             f"{type(self).__name__} is initialized")
        super().__setattr__(name, value)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self) -> Iterator:
        if not (self.persistent_workers and self.num_workers > 0):
            return self._get_iterator()
        if self._iterator is None:
            self._iterator = self._get_iterator()
        else:
            self._iterator._reset(self)
        return self._iterator

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessIterator(self)
        self.check_worker_number_rationality()
        return _MultiProcessIterator(self)

    def __len__(self) -> int:
        """The number of batches (for an iterable dataset, from its ``len``)."""
        if not self._is_iterable:
            return len(self._index_sampler)
        length = len(self.dataset)
        self._length_reported = length
        if self.batch_size is None:
            return length
        if self.drop_last:
            return length // self.batch_size
        return math.ceil(length / self.batch_size)

    def check_worker_number_rationality(self) -> None:
        """Warn when more workers are asked for than this process may use CPUs."""
        if self.num_workers == 0:
            return
        cpuset = hasattr(os, "sched_getaffinity")
        cpus = len(os.sched_getaffinity(0)) if cpuset else os.cpu_count()
        if cpus is not None and self.num_workers <= cpus:
            return
        if cpus is None:
            suggestion = ("DataLoader is not able to compute a suggested max number of worker "
                          "in current system.")
        else:
            suggestion = (f"Our suggested max number of worker in current system is {cpus}"
                          f"{'' if cpuset else ' (`cpuset` is not taken into account)'}, which "
                          f"is smaller than what this DataLoader is going to create.")
        warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in "
                      f"total. {suggestion} Please be aware that excessive worker creation "
                      f"might get DataLoader running slow or even freeze, lower the worker "
                      f"number to avoid potential slowness/freeze if necessary.", stacklevel=2)


def _check_worker_options(num_workers: int, timeout: float, prefetch_factor: int | None,
                          persistent_workers: bool) -> int | None:
    """Validate the worker options; returns the prefetch factor (2 with workers)."""
    if num_workers < 0:
        raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                         "disable multiprocessing.")
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                         "let num_workers > 0 to enable multiprocessing, otherwise set "
                         "prefetch_factor to None.")
    if num_workers > 0 and prefetch_factor is None:
        prefetch_factor = 2
    elif prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")
    return prefetch_factor


def _check_iterable_options(shuffle, sampler, batch_sampler) -> None:
    if shuffle not in (False, None):
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle "
                         f"option, but got shuffle={shuffle}")
    if sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler "
                         f"option, but got sampler={sampler}")
    if batch_sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler "
                         f"option, but got batch_sampler={batch_sampler}")


def _check_batch_options(batch_size, shuffle, sampler, batch_sampler, drop_last):
    """Validate the sampling options; returns the effective ``(batch_size, drop_last)``."""
    if sampler is not None and shuffle:
        raise ValueError("sampler option is mutually exclusive with shuffle")
    if batch_sampler is not None:
        if batch_size != 1 or shuffle or sampler is not None or drop_last:
            raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                             "shuffle, sampler, and drop_last")
        return None, False
    if batch_size is None and drop_last:
        raise ValueError("batch_size=None option disables auto-batching and is mutually "
                         "exclusive with drop_last")
    return batch_size, drop_last


# ----------------------------------------------------------------------------- iterators

class _BaseIterator:
    """What the single- and multi-process iterators share: the index stream, the
    base seed (drawn from the loader's generator each epoch) and the length check."""

    def __init__(self, loader: DataLoader) -> None:
        self._loader = loader
        self._dataset = loader.dataset
        self._is_iterable = loader._is_iterable
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._collate_fn = loader.collate_fn
        self._timeout = loader.timeout
        if loader.pin_memory:
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=3)
        self._sampler_iter = iter(self._index_sampler)
        self._base_seed = random_seed(loader.generator)
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader: DataLoader) -> None:
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0

    def _next_index(self):
        return next(self._sampler_iter)

    def _next_data(self):
        raise NotImplementedError

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        reported = self._loader._length_reported
        if self._is_iterable and reported is not None and self._num_yielded > reported:
            message = (f"Length of IterableDataset {self._dataset} was reported to be "
                       f"{reported}(when accessing len(dataloader)), but {self._num_yielded} "
                       f"samples have been fetched. ")
            if self._num_workers > 0:
                message += ("For multiprocessing data-loading, this could be caused by not "
                            "properly configuring the IterableDataset replica at each worker.")
            warnings.warn(message, stacklevel=2)
        return data

    def __len__(self) -> int:
        return len(self._index_sampler)


class _SingleProcessIterator(_BaseIterator):
    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        if self._timeout != 0:
            raise AssertionError("_SingleProcessDataLoaderIter requires timeout == 0")
        self._fetcher = _worker.make_fetcher(self._is_iterable, self._dataset,
                                             self._auto_collation, self._collate_fn,
                                             self._drop_last)

    def _next_data(self):
        return self._fetcher.fetch(self._next_index())


class _MultiProcessIterator(_BaseIterator):
    """Workers take ``(send_index, index)`` tasks round-robin from their own queues and
    put results on one queue; results are handed out in ``send_index`` order."""

    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        self._in_order = loader.in_order
        self._persistent = loader.persistent_workers
        self._prefetch = loader.prefetch_factor * self._num_workers
        context = loader.multiprocessing_context or _default_context()
        setup = _worker.WorkerSetup(self._is_iterable, self._dataset, self._auto_collation,
                                    self._collate_fn, self._drop_last, self._base_seed,
                                    loader.worker_init_fn, self._num_workers)
        self._result_queue = context.Queue()
        self._done_event = context.Event()
        self._index_queues, self._workers = [], []
        self._shutdown = False
        for worker_id in range(self._num_workers):
            index_queue = context.Queue()
            index_queue.cancel_join_thread()
            process = context.Process(target=_worker.worker_loop, daemon=True,
                                      args=(setup, worker_id, index_queue, self._result_queue,
                                            self._done_event))
            process.start()
            self._index_queues.append(index_queue)
            self._workers.append(process)
        self._start_epoch(first=True)

    def _start_epoch(self, first: bool) -> None:
        self._send_index = 0
        self._received_index = 0
        self._tasks: dict[int, tuple] = {}
        self._outstanding = 0
        self._active = [True] * self._num_workers
        self._worker_cycle = itertools.cycle(range(self._num_workers))
        if not first:
            self._resume_workers()
        for _ in range(self._prefetch):
            self._try_put_index()

    def _reset(self, loader: DataLoader) -> None:
        super()._reset(loader)
        self._start_epoch(first=False)

    def _resume_workers(self) -> None:
        """Persistent workers: drain the last epoch's results, restart their streams."""
        for index_queue in self._index_queues:
            index_queue.put(_worker.ResumeIteration())
        resumed = 0
        while resumed < self._num_workers:
            tag, _ = self._get_data()
            resumed += isinstance(tag, _worker.ResumeIteration)

    def _try_put_index(self) -> None:
        if self._outstanding >= self._prefetch:
            return
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_id = next(self._worker_cycle)
            if self._active[worker_id]:
                break
        else:
            return
        self._index_queues[worker_id].put((self._send_index, index))
        self._tasks[self._send_index] = (worker_id,)
        self._outstanding += 1
        self._send_index += 1

    def _get_data(self):
        """The next message from the workers; raises when one died or time ran out."""
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else math.inf
        while True:
            wait = min(_worker.STATUS_CHECK_INTERVAL, max(deadline - time.monotonic(), 0.0))
            try:
                return self._result_queue.get(timeout=wait)
            except queue.Empty:
                pass
            dead = [str(process.pid) for worker_id, process in enumerate(self._workers)
                    if self._active[worker_id] and not process.is_alive()]
            if dead:
                self._shutdown_workers()
                raise RuntimeError(f"DataLoader worker (pid(s) {', '.join(dead)}) exited "
                                   f"unexpectedly")
            if time.monotonic() >= deadline:
                raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")

    def _next_data(self):
        while True:
            if not self._advance_to_pending_task():
                if not self._persistent:
                    self._shutdown_workers()
                raise StopIteration
            task = self._tasks[self._received_index]
            if len(task) == 2:
                del self._tasks[self._received_index]
                self._received_index += 1
                return self._process(task[1])
            send_index, data = self._get_data()
            self._outstanding -= 1
            if isinstance(data, _worker.IterationEnd):
                self._retire_worker(data.worker_id)
                self._try_put_index()
            elif send_index == self._received_index or not self._in_order:
                del self._tasks[send_index]
                self._received_index += send_index == self._received_index
                return self._process(data)
            else:
                self._tasks[send_index] += (data,)

    def _advance_to_pending_task(self) -> bool:
        """Skip tasks already served or lost to exhausted workers; False when none is left."""
        while self._received_index < self._send_index:
            task = self._tasks.get(self._received_index)
            if task is not None:
                if len(task) == 2 or self._active[task[0]]:
                    return True
                del self._tasks[self._received_index]
            self._received_index += 1
        return False

    def _retire_worker(self, worker_id: int) -> None:
        self._active[worker_id] = False
        if not self._persistent:
            self._index_queues[worker_id].put(None)

    def _process(self, data):
        self._try_put_index()
        if isinstance(data, _worker.ExceptionWrapper):
            data.reraise()
        return _worker.from_transport(data)

    def _shutdown_workers(self) -> None:
        """Stop every worker, wait for it (terminating stragglers) and close the queues."""
        if self._shutdown:
            return
        self._shutdown = True
        self._done_event.set()
        for index_queue in self._index_queues:
            index_queue.put(None)
        for process in self._workers:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join()
        for index_queue in self._index_queues:
            index_queue.close()
        self._result_queue.cancel_join_thread()
        self._result_queue.close()

    def __del__(self) -> None:
        if getattr(self, "_workers", None) is not None:
            try:
                self._shutdown_workers()
            except (OSError, ValueError, AttributeError):  # interpreter shutdown
                pass
