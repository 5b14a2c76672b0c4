"""DistributedSampler: each of ``num_replicas`` processes gets its own share of a dataset.

Example:
    >>> from unigrad.data import DistributedSampler
    >>> [list(DistributedSampler(range(5), num_replicas=2, rank=r, shuffle=False))
    ...  for r in (0, 1)]
    [[0, 2, 4], [1, 3, 0]]
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterator

from ..ops._generators import Generator
from ..ops.sampling import randperm
from .dataset import Dataset
from .sampler import Sampler

__all__ = ["DistributedSampler"]


def _process_group_value(name: str) -> int:
    """``unigrad.distributed.<name>()``: the world size or this process's rank."""
    try:
        distributed = importlib.import_module("unigrad.distributed")
    except ImportError:
        raise RuntimeError("Requires distributed package to be available") from None
    return getattr(distributed, name)()


class DistributedSampler(Sampler[int]):
    """The indices of replica ``rank`` out of ``num_replicas`` (by default the world
    size and rank of :mod:`unigrad.distributed`), as PyTorch's: the (shuffled with
    seed ``seed + epoch`` when ``shuffle``) indices are padded by repeating them to
    a multiple of ``num_replicas`` (or cut to one with ``drop_last``), and the
    replica takes every ``num_replicas``-th from position ``rank``. Call
    :meth:`set_epoch` before each epoch to reshuffle.

    Raises:
        ValueError: For a ``rank`` outside ``[0, num_replicas - 1]``.

    Example:
        >>> from unigrad.data import DistributedSampler
        >>> sampler = DistributedSampler(range(5), num_replicas=2, rank=1, drop_last=True)
        >>> len(sampler), len(list(sampler))
        (2, 2)
        >>> sampler.set_epoch(3)
    """

    def __init__(self, dataset: Dataset, num_replicas: int | None = None,
                 rank: int | None = None, shuffle: bool = True, seed: int = 0,
                 drop_last: bool = False) -> None:
        if num_replicas is None:
            num_replicas = _process_group_value("get_world_size")
        if rank is None:
            rank = _process_group_value("get_rank")
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval "
                             f"[0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        size = len(dataset)
        if drop_last and size % num_replicas != 0:
            self.num_samples = math.ceil((size - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(size / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self) -> Iterator[int]:
        size = len(self.dataset)
        if self.shuffle:
            generator = Generator().manual_seed(self.seed + self.epoch)
            indices = randperm(size, generator=generator).tolist()
        else:
            indices = list(range(size))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            padding = self.total_size - len(indices)
            indices += (indices * math.ceil(padding / len(indices)))[:padding] if padding \
                else []
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Set the epoch: with ``shuffle``, each epoch gives another order (the same on
        every replica)."""
        self.epoch = epoch
