"""TensorFlow spelled on unigrad: ``import unigrad.compat.tensorflow as tf``.

``tf.constant``, ``tf.Variable``, ``tf.GradientTape``, ``tf.gradients``,
``tf.function`` and the math of ``tf``, ``tf.math``, ``tf.nn`` and
``tf.random`` run on unigrad's engine and return TensorFlow-style tensors
(``<tf.Tensor: shape=(), dtype=float32, numpy=2.0>``). TensorFlow 1 programs
(``tf.get_variable``, ``tf.Session``) also run, evaluated eagerly; the same
names are under ``tf.compat.v1``.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> w = tf.Variable([1.0, 2.0], name="w")
    >>> x = tf.constant([3.0, 4.0])
    >>> with tf.GradientTape() as tape:
    ...     loss = tf.reduce_sum(tf.square(w * x))
    >>> tape.gradient(loss, w)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([18., 64.], dtype=float32)>
"""

import unigrad as _ug
from unigrad.transforms import UnconnectedGradients

from . import bitwise, data, dtypes, errors, keras, linalg, math, nn, random, signal
from ._array_ops import (
    cast,
    clip_by_value,
    concat,
    expand_dims,
    eye,
    fill,
    gather,
    identity,
    linspace,
    matmul,
    ones,
    ones_like,
    range,
    rank,
    reshape,
    shape,
    size,
    squeeze,
    stack,
    tile,
    transpose,
    unstack,
    where,
    zeros,
    zeros_like,
)
from ._block_rearrange import (
    batch_to_space,
    required_space_to_batch_paddings,
    space_to_batch,
    space_to_batch_nd,
)
from ._complex_math import complex
from ._control_flow import case, cond, foldl, foldr, map_fn, scan, switch_case, while_loop
from ._decompositions import norm
from ._layout import meshgrid, roll
from ._matrix_ops import clip_by_global_norm
from ._padding_norms import clip_by_norm, device, einsum, pad
from ._passthrough_ops import bitcast, guarantee_const, timestamp, tuple  # noqa: A004
from ._printing import print_v2 as print  # noqa: A004 - TensorFlow's name
from ._products import tensordot
from ._reductions import histogram_fixed_width_bins
from ._safe_math import realdiv, saturate_cast, truncatediv
from ._scatter_ops import (
    boolean_mask,
    tensor_scatter_nd_add,
    tensor_scatter_nd_max,
    tensor_scatter_nd_min,
    tensor_scatter_nd_sub,
    tensor_scatter_nd_update,
)
from ._shape_ops import (
    broadcast_to,
    dynamic_partition,
    dynamic_stitch,
    ensure_shape,
    gather_nd,
    get_static_value,
    identity_n,
    is_tensor,
    newaxis,
    no_op,
    one_hot,
    repeat,
    reverse,
    reverse_sequence,
    scatter_nd,
    sequence_mask,
    shape_n,
    slice,
    split,
    strided_slice,
    unique_with_counts,
)
from ._sorting import argsort, histogram_fixed_width, searchsorted, sort, unique
from ._tensor import Tensor, Variable, constant, convert_to_tensor
from ._transforms import (
    GradientTape,
    custom_gradient,
    function,
    gradients,
    hessians,
    recompute_grad,
    stop_gradient,
    vectorized_map,
)
from ._v1 import (
    AUTO_REUSE,
    InteractiveSession,
    Session,
    executing_eagerly,
    get_default_session,
    get_variable,
    global_variables,
    global_variables_initializer,
    reset_default_graph,
    trainable_variables,
    variables_initializer,
)
from ._views_copies import broadcast_dynamic_shape, broadcast_static_shape, unravel_index
from .dtypes import (  # TensorFlow's dtype names, spelled once in tf.dtypes
    DType,
    as_dtype,
    bool,  # noqa: A004
    complex64,
    complex128,
    double,
    float16,
    float32,
    float64,
    half,
    int8,
    int16,
    int32,
    int64,
    string,
    uint8,
    uint16,
    uint32,
    uint64,
)
from .math import (
    abs,
    acos,
    acosh,
    add,
    add_n,
    argmax,
    argmin,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    cos,
    cosh,
    cumsum,
    divide,
    equal,
    exp,
    floor,
    greater,
    greater_equal,
    less,
    less_equal,
    log,
    logical_and,
    logical_not,
    logical_or,
    maximum,
    minimum,
    multiply,
    negative,
    not_equal,
    pow,
    reduce_all,
    reduce_any,
    reduce_logsumexp,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_std,
    reduce_sum,
    reduce_variance,
    round,
    scalar_mul,
    sigmoid,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    truediv,
    truncatemod,
)
from .module import Module, name_scope
from .tensor_shape import TensorShape
from .tensor_spec import TensorSpec

optimizers = keras.optimizers  # tf.optimizers is tf.keras.optimizers, as in TensorFlow 2

# (module, tensor_shape, tensor_spec: modules TensorFlow lacks; print: tf.print, which a star
# import must not put in place of the builtin; newaxis: None, an attribute only)
__all__ = sorted(name for name in dir() if not name.startswith("_") and name not in (
    "module", "tensor_shape", "tensor_spec", "print", "newaxis"))

import sys as _sys  # noqa: E402

from . import _graph  # noqa: E402 - TF1 graphs: every op function above records in a graph
from . import _v1_train as train  # noqa: E402 - TF1's optimizers (tf.compat.v1.train)
from ._graph import Graph, get_default_graph, init_scope, placeholder  # noqa: E402

for _namespace in (_sys.modules[__name__], bitwise, dtypes, linalg, math, nn, random, signal):
    _graph.install(_namespace)
__all__ = sorted({*__all__, "Graph", "get_default_graph", "init_scope", "placeholder", "train"})

from . import compat  # noqa: E402 - tf.compat.v1 re-exports the names above

__all__ = sorted([*__all__, "compat"])
