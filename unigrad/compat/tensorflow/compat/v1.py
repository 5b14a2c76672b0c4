"""``tf.compat.v1`` (``import unigrad.compat.tensorflow.compat.v1 as tf``): TensorFlow 1's
names: everything of ``tf`` plus graphs and sessions (``placeholder``, ``Session``,
``feed_dict``), ``get_variable``, ``global_variables_initializer``, the optimizers of
``train`` and TF1's ``gradients``. After ``disable_eager_execution()`` (or inside
``with tf.Graph().as_default():``) operations build a graph that a ``Session`` runs.

Example:
    >>> import unigrad.compat.tensorflow.compat.v1 as tf
    >>> with tf.Graph().as_default():
    ...     x = tf.placeholder(tf.float32, shape=[None])
    ...     doubled = x * 2
    ...     with tf.Session() as sess:
    ...         sess.run(doubled, feed_dict={x: [1.0, 2.0]})
    array([2., 4.], dtype=float32)
"""

from unigrad.compat.tensorflow import *  # noqa: F403

from .._control_flow import cond_v1 as cond  # noqa: F401 - TF1's non-strict cond
from .._control_flow import while_loop_v1 as while_loop  # noqa: F401 - one loop var unwrapped
from .._graph import placeholder_with_default  # noqa: F401
from .._printing import print_v2 as print  # noqa: A004, F401 - tf.compat.v1.print
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
from .._v1_initializers import *  # noqa: F403 - TF1's initializers
from .._v1_scopes import VariableScope, get_variable_scope, variable_scope  # noqa: F401
from ..random import normal as random_normal  # noqa: F401 - TF1's spellings of tf.random
from ..random import set_seed as set_random_seed  # noqa: F401
from ..random import truncated_normal  # noqa: F401
from ..random import uniform as random_uniform  # noqa: F401
from . import _v1_nn as nn  # noqa: F401 - tf.nn with TF1's spellings

# (print: tf.compat.v1.print, which a star import must not put in place of the builtin)
__all__ = sorted({name for name in globals() if not name.startswith("_") and name != "print"})
