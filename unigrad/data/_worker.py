"""DataLoader worker processes: the worker loop, the fetchers it shares with the
single-process path, the transport of tensors (as NumPy arrays) and of errors.

Example:
    >>> from unigrad.data import get_worker_info
    >>> print(get_worker_info())      # None outside a worker process
    None
"""

from __future__ import annotations

import itertools
import os
import queue
import random
import sys
import traceback
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import backend
from ..backend import int64
from ..ops._generators import default_generator
from ..ops.creation import tensor
from ..tensor import Tensor, _make_tensor
from .collate import _map_container, default_collate
from .dataset import TensorDataset

__all__ = ["WorkerInfo", "get_worker_info"]

STATUS_CHECK_INTERVAL = 1.0
"""Seconds between the main process's checks for dead workers."""
WORKER_POLL_INTERVAL = 0.1
"""Seconds between a waiting worker's checks for a dead parent or the end of loading (an
iterator collected with its queues may have closed them before telling the workers)."""


@dataclass(frozen=True, slots=True)
class WorkerInfo:
    """What :func:`get_worker_info` returns inside a worker process: its ``id``
    (``0 .. num_workers - 1``), ``num_workers``, the ``seed`` unigrad, ``random`` and
    NumPy were seeded with, and ``dataset``, this process's copy of the dataset.

    Example:
        >>> from unigrad.data import WorkerInfo
        >>> info = WorkerInfo(id=1, num_workers=2, seed=7, dataset=None)
        >>> info.id, info.num_workers, info.worker_method
        (1, 2, 'multiprocessing')
    """

    id: int
    num_workers: int
    seed: int
    dataset: Any
    rng: Any = None
    worker_method: str | None = "multiprocessing"


_worker_info: WorkerInfo | None = None


def get_worker_info() -> WorkerInfo | None:
    """The :class:`WorkerInfo` of the current DataLoader worker process, or None in
    the main process. An :class:`~unigrad.data.IterableDataset` uses it to give each
    worker its own share of the stream.

    Example:
        >>> from unigrad.data import get_worker_info
        >>> get_worker_info() is None
        True
    """
    return _worker_info


# ----------------------------------------------------------------------------- messages

class ExceptionWrapper:
    """An exception caught in a worker, with its traceback text, to re-raise in the
    main process (``Caught ValueError in DataLoader worker process 0. Original
    Traceback ...``).

    Example:
        >>> from unigrad.data._worker import ExceptionWrapper
        >>> try:
        ...     raise ValueError("bad item")
        ... except ValueError:
        ...     wrapper = ExceptionWrapper(where="in DataLoader worker process 0")
        >>> try:
        ...     wrapper.reraise()
        ... except ValueError as error:
        ...     print(str(error).splitlines()[0])
        Caught ValueError in DataLoader worker process 0.
    """

    def __init__(self, exc_info=None, where: str = "in background") -> None:
        exc_info = sys.exc_info() if exc_info is None else exc_info
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        """Raise the exception again, as its own type when that can take a message."""
        message = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            message = KeyErrorMessage(message)
        try:
            exception = self.exc_type(message)
        except Exception:
            raise RuntimeError(message) from None
        raise exception


class KeyErrorMessage(str):
    """A message that ``KeyError`` prints as is (it would otherwise show its repr)."""

    def __repr__(self) -> str:
        return self


@dataclass(frozen=True)
class IterationEnd:
    """A worker's iterable dataset is exhausted."""

    worker_id: int


@dataclass(frozen=True)
class ResumeIteration:
    """The main process starts a new epoch with persistent workers."""


@dataclass(frozen=True)
class _TensorPayload:
    array: np.ndarray
    tensor_type: type


def to_transport(data):
    """``data`` with its tensors replaced by NumPy payloads, to cross processes."""
    if isinstance(data, Tensor):
        return _TensorPayload(backend.to_numpy(data._data), type(data))
    return _map_container(data, to_transport, lambda value: value, keep_tuples=True)


def from_transport(data):
    """:func:`to_transport` undone: payloads become tensors of their type again."""
    if isinstance(data, _TensorPayload):
        result = _make_tensor(data.array)
        if data.tensor_type is not Tensor:
            try:
                result.__class__ = data.tensor_type
            except TypeError:
                pass
        return result
    return _map_container(data, from_transport, lambda value: value, keep_tuples=True)


# ----------------------------------------------------------------------------- fetchers

class MapFetcher:
    """Fetches items (or a batch of items, collated) of a map-style dataset by index."""

    def __init__(self, dataset, auto_collation: bool, collate_fn, drop_last: bool) -> None:
        del drop_last
        self.dataset, self.auto_collation, self.collate_fn = dataset, auto_collation, collate_fn

    def fetch(self, index):
        """The collated item(s) at ``index`` (a list of indices when batching)."""
        if not self.auto_collation:
            return self.collate_fn(self.dataset[index])
        if self.collate_fn is default_collate and type(self.dataset) is TensorDataset \
                and all(type(position) is int for position in index):
            # what collating the rows gives, as one gather per tensor instead of a getitem
            # per row and tensor and a stack per tensor
            return [data[tensor(index, dtype=int64, device=data.device)]
                    for data in self.dataset.tensors]
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.collate_fn(self.dataset.__getitems__(index))
        return self.collate_fn([self.dataset[position] for position in index])


class IterableFetcher:
    """Takes the next item (or ``len(index)`` items, collated) from an iterable
    dataset's stream; raises StopIteration when it is exhausted (or, with
    ``drop_last``, when only a short batch is left)."""

    def __init__(self, dataset, auto_collation: bool, collate_fn, drop_last: bool) -> None:
        self.iterator = iter(dataset)
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.ended = False

    def fetch(self, index):
        """The next collated item or batch of the stream."""
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            return self.collate_fn(next(self.iterator))
        items = list(itertools.islice(self.iterator, len(index)))
        self.ended = len(items) < len(index)
        if not items or (self.drop_last and self.ended):
            raise StopIteration
        return self.collate_fn(items)


def make_fetcher(iterable: bool, dataset, auto_collation: bool, collate_fn, drop_last: bool):
    """The fetcher for a dataset of the given kind."""
    kind = IterableFetcher if iterable else MapFetcher
    return kind(dataset, auto_collation, collate_fn, drop_last)


# ----------------------------------------------------------------------------- the loop

@dataclass(frozen=True)
class WorkerSetup:
    """What a worker process needs, apart from its queues."""

    iterable: bool
    dataset: Any
    auto_collation: bool
    collate_fn: Any
    drop_last: bool
    base_seed: int
    init_fn: Any
    num_workers: int


def seed_worker(base_seed: int, worker_id: int) -> int:
    """Seed unigrad's default generator, ``random`` and NumPy's global generator for
    worker ``worker_id``; returns its seed ``base_seed + worker_id``."""
    seed = base_seed + worker_id
    default_generator.manual_seed(seed % 2 ** 64)
    random.seed(seed)
    np.random.seed(np.random.SeedSequence([worker_id, base_seed]).generate_state(4))
    return seed


def worker_loop(setup: WorkerSetup, worker_id: int, index_queue, result_queue,
                done_event) -> None:
    """Serve ``(send_index, index)`` requests from ``index_queue`` with results (or
    wrapped errors) on ``result_queue`` until told to stop (None) or the parent dies."""
    global _worker_info
    parent = os.getppid()
    seed = seed_worker(setup.base_seed, worker_id)
    _worker_info = WorkerInfo(id=worker_id, num_workers=setup.num_workers, seed=seed,
                              dataset=setup.dataset)
    where = f"in DataLoader worker process {worker_id}"
    pending_error, fetcher = None, None
    try:
        if setup.init_fn is not None:
            setup.init_fn(worker_id)
        fetcher = make_fetcher(setup.iterable, setup.dataset, setup.auto_collation,
                               setup.collate_fn, setup.drop_last)
    except Exception:
        pending_error = ExceptionWrapper(where=where)
    exhausted = False
    try:
        while os.getppid() == parent:
            try:
                request = index_queue.get(timeout=WORKER_POLL_INTERVAL)
            except queue.Empty:
                if done_event.is_set():  # the main process may not reach us through the queue
                    break
                continue
            if request is None:
                break
            if isinstance(request, ResumeIteration):
                result_queue.put((request, None))
                exhausted = False
                fetcher = make_fetcher(setup.iterable, setup.dataset, setup.auto_collation,
                                       setup.collate_fn, setup.drop_last)
                continue
            if done_event.is_set() or exhausted:
                continue
            send_index, index = request
            if pending_error is not None:
                result, pending_error = pending_error, None
            else:
                result, exhausted = _serve(fetcher, index, worker_id, where)
            result_queue.put((send_index, result))
            del result
    except KeyboardInterrupt:
        pass
    if done_event.is_set():
        result_queue.cancel_join_thread()
        result_queue.close()


def _serve(fetcher, index, worker_id: int, where: str) -> tuple[Any, bool]:
    """``(message, exhausted)`` for one request."""
    try:
        return to_transport(fetcher.fetch(index)), False
    except StopIteration:
        return IterationEnd(worker_id), True
    except Exception:
        return ExceptionWrapper(where=where), False
