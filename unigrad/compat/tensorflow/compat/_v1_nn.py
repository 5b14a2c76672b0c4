"""``tf.compat.v1.nn``: ``tf.nn`` plus TensorFlow 1's spellings.

Example:
    >>> import unigrad.compat.tensorflow.compat.v1 as tf
    >>> tf.nn.softmax_cross_entropy_with_logits_v2(labels=[[0.0, 1.0]],
    ...                                            logits=[[0.0, 0.0]]).numpy()
    array([0.6931472], dtype=float32)
"""

from ..nn import *  # noqa: F403
from ..nn import __all__ as _tensorflow2_names
from ..nn import softmax_cross_entropy_with_logits as softmax_cross_entropy_with_logits_v2

__all__ = [*_tensorflow2_names, "softmax_cross_entropy_with_logits_v2"]
