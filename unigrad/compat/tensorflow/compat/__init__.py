"""``tf.compat``: ``tf.compat.v1`` holds TensorFlow 1's API (see :mod:`.v1`)."""

from . import v1

__all__ = ["v1"]
