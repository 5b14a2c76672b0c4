"""``tf.keras.backend``: Keras' global state (automatic names) and ``clear_session``.

Keras names a layer after its class in snake case, uniquified per process
(``dense``, ``dense_1``, ...); :func:`clear_session` starts the counters again.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> from unigrad.compat.tensorflow.keras import backend
    >>> backend.clear_session()
    >>> [tf.keras.layers.Dense(1).name for _ in range(2)]
    ['dense', 'dense_1']
"""

from __future__ import annotations

import collections
import gc
import re

__all__ = ["clear_session", "floatx", "get_uid"]

_name_counts: collections.defaultdict = collections.defaultdict(int)


def to_snake_case(name: str) -> str:
    """A class name as Keras' automatic name prefix: ``"MaxPooling2D"`` -> ``"max_pooling2d"``.

    Example:
        >>> to_snake_case("BatchNormalization"), to_snake_case("MaxPooling2D")
        ('batch_normalization', 'max_pooling2d')
    """
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


def unique_name(prefix: str) -> str:
    """``prefix`` the first time, then ``prefix_1``, ``prefix_2``, ... (until
    :func:`clear_session`).

    Example:
        >>> clear_session()
        >>> unique_name("block"), unique_name("block")
        ('block', 'block_1')
    """
    count = _name_counts[prefix]
    _name_counts[prefix] += 1
    return f"{prefix}_{count}" if count else prefix


def get_uid(prefix: str = "") -> int:
    """How many times ``prefix`` has been asked for, counting this call (``keras.backend.get_uid``).

    Example:
        >>> clear_session()
        >>> get_uid("x"), get_uid("x")
        (1, 2)
    """
    _name_counts[prefix] += 1
    return _name_counts[prefix]


def clear_session(free_memory: bool = True) -> None:
    """Reset Keras' global state: automatic names start again from ``dense``, ``dense_1``, ...

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> from unigrad.compat.tensorflow.keras import backend
        >>> first = tf.keras.layers.Dense(1).name
        >>> backend.clear_session()
        >>> tf.keras.layers.Dense(1).name
        'dense'
    """
    _name_counts.clear()
    if free_memory:
        gc.collect()


def floatx() -> str:
    """The default float type of Keras' variables: ``'float32'``.

    Example:
        >>> floatx()
        'float32'
    """
    return "float32"
