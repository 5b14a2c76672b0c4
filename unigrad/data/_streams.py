"""Stream transformations shared by the DataLoader and the MindSpore and TensorFlow
dataset front-ends: batching, buffered shuffling and repetition.

Example:
    >>> from unigrad.data._streams import batches, repeated
    >>> list(batches(iter(range(5)), 2, drop_last=True))
    [[0, 1], [2, 3]]
    >>> list(repeated(lambda: iter("ab"), 2))
    ['a', 'b', 'a', 'b']
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator

import numpy as np

__all__ = ["batches", "buffer_shuffle", "repeated"]


def batches(items: Iterator, batch_size: int, drop_last: bool) -> Iterator[list]:
    """Consecutive lists of ``batch_size`` items of ``items``; a shorter last list
    unless ``drop_last``. The one batching rule of every front-end.

    Example:
        >>> from unigrad.data._streams import batches
        >>> list(batches(iter("abcde"), 2, drop_last=False))
        [['a', 'b'], ['c', 'd'], ['e']]
    """
    while True:
        batch = list(itertools.islice(items, batch_size))
        if not batch or (drop_last and len(batch) < batch_size):
            return
        yield batch


def buffer_shuffle(items: Iterable, buffer_size: int, rng: np.random.Generator) -> Iterator:
    """``items`` shuffled through a buffer of ``buffer_size``: each output is drawn
    uniformly from the buffer and replaced by the next input (a full shuffle when the
    buffer holds everything), as ``tf.data`` and ``mindspore.dataset`` shuffle.

    Example:
        >>> import numpy as np
        >>> from unigrad.data._streams import buffer_shuffle
        >>> sorted(buffer_shuffle(range(6), 3, np.random.default_rng(0)))
        [0, 1, 2, 3, 4, 5]
        >>> list(buffer_shuffle(range(4), 1, np.random.default_rng(0)))
        [0, 1, 2, 3]
    """
    iterator = iter(items)
    buffer = list(itertools.islice(iterator, buffer_size))
    for item in iterator:
        position = int(rng.integers(len(buffer)))
        yield buffer[position]
        buffer[position] = item
    while buffer:
        yield buffer.pop(int(rng.integers(len(buffer))))


def repeated(make_iterator: Callable[[], Iterator], count: int | None) -> Iterator:
    """The items of ``make_iterator()`` over ``count`` passes (forever for None or a
    negative count); each pass calls ``make_iterator`` again.

    Example:
        >>> from unigrad.data._streams import repeated
        >>> list(repeated(lambda: iter([1]), 3))
        [1, 1, 1]
    """
    passes = itertools.count() if count is None or count < 0 else range(count)
    for _ in passes:
        yield from make_iterator()
