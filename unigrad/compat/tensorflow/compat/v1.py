"""``tf.compat.v1`` (``import unigrad.compat.tensorflow.compat.v1 as tf``): TensorFlow 1's
names over the same eager engine: everything of ``tf`` plus ``get_variable``, ``Session``,
``global_variables_initializer``, ``disable_eager_execution`` and TF1's ``gradients``.

Example:
    >>> import unigrad.compat.tensorflow.compat.v1 as tf
    >>> tf.disable_eager_execution()
    >>> with tf.Session() as sess:
    ...     print(sess.run(tf.constant([1.0, 2.0]) * 2))
    [2. 4.]
"""

from unigrad.compat.tensorflow import *  # noqa: F403

from .._v1 import (  # noqa: F401 - TF1's spellings replace or extend tf's
    AUTO_REUSE,
    InteractiveSession,
    Session,
    disable_eager_execution,
    disable_v2_behavior,
    enable_eager_execution,
    executing_eagerly,
    get_default_session,
    get_variable,
    global_variables,
    global_variables_initializer,
    gradients,
    reset_default_graph,
    trainable_variables,
    variables_initializer,
)

__all__ = sorted({name for name in globals() if not name.startswith("_")})
