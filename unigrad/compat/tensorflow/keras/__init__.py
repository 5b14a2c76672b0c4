"""``tf.keras`` (the part unigrad provides): :mod:`optimizers` and their schedules.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.keras.optimizers.SGD(learning_rate=0.5).learning_rate
    <tf.Variable 'learning_rate:0' shape=() dtype=float32, numpy=0.5>
"""

from . import optimizers

__all__ = ["optimizers"]
