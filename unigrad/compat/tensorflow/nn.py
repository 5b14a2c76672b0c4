"""``tf.nn``: activations and the common losses with TensorFlow's argument names.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.nn.relu(tf.constant([-1.0, 2.0])).numpy().tolist()
    [0.0, 2.0]
    >>> tf.nn.softmax(tf.constant([0.0, 0.0])).numpy().tolist()
    [0.5, 0.5]
"""

from __future__ import annotations

import unigrad as ug
import unigrad.nn.functional as F

from ._sorting import top_k
from ._tensor import Tensor, operand
from .math import _pair, _ret, sigmoid, softplus, tanh

__all__ = ["relu", "relu6", "sigmoid", "tanh", "softplus", "softmax", "log_softmax", "elu",
           "leaky_relu", "gelu", "silu", "swish", "l2_loss",
           "sigmoid_cross_entropy_with_logits", "softmax_cross_entropy_with_logits"]
__all__ += ["top_k"]


def relu(features, name: str | None = None) -> Tensor:
    """``tf.nn.relu``: ``max(features, 0)``."""
    x = operand(features, "features")
    return _ret(ug.relu(x), x)


def relu6(features, name: str | None = None) -> Tensor:
    """``tf.nn.relu6``: ``min(max(features, 0), 6)``."""
    x = operand(features, "features")
    return _ret(F.hardtanh(x, 0.0, 6.0), x)


def _softmax_like(op, logits, axis) -> Tensor:
    x = operand(logits, "logits")
    return _ret(op(x, dim=-1 if axis is None else int(axis)), x)


def softmax(logits, axis: int | None = None, name: str | None = None) -> Tensor:
    """``tf.nn.softmax`` along ``axis`` (default: the last)."""
    return _softmax_like(ug.softmax, logits, axis)


def log_softmax(logits, axis: int | None = None, name: str | None = None) -> Tensor:
    """``tf.nn.log_softmax`` along ``axis`` (default: the last)."""
    return _softmax_like(ug.log_softmax, logits, axis)


def elu(features, name: str | None = None) -> Tensor:
    """``tf.nn.elu``: ``features`` if positive else ``exp(features) - 1``."""
    x = operand(features, "features")
    return _ret(F.elu(x), x)


def leaky_relu(features, alpha: float = 0.2, name: str | None = None) -> Tensor:
    """``tf.nn.leaky_relu``: ``features`` if positive else ``alpha * features``."""
    x = operand(features, "features")
    return _ret(F.leaky_relu(x, alpha), x)


def gelu(features, approximate: bool = False, name: str | None = None) -> Tensor:
    """``tf.nn.gelu`` (exact, or the tanh approximation)."""
    x = operand(features, "features")
    return _ret(F.gelu(x, approximate="tanh" if approximate else "none"), x)


def silu(features, beta: float = 1.0, name: str | None = None) -> Tensor:
    """``tf.nn.silu`` (``swish``): ``features * sigmoid(beta * features)``."""
    x = operand(features, "features")
    return _ret(F.silu(x) if beta == 1.0 else x * ug.sigmoid(x * beta), x)


swish = silu


def l2_loss(t, name: str | None = None) -> Tensor:
    """``tf.nn.l2_loss``: ``sum(t ** 2) / 2``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.l2_loss(tf.constant([1.0, 2.0])).numpy()
        np.float32(2.5)
    """
    x = operand(t, "t")
    return _ret((x * x).sum() * 0.5, x)


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name: str | None = None) -> Tensor:
    """``tf.nn.sigmoid_cross_entropy_with_logits``: elementwise logistic loss (no reduction).

    Raises:
        ValueError: When ``labels`` or ``logits`` is missing or their shapes differ.
    """
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    logits, labels = _pair(logits, labels)
    if tuple(labels.shape) != tuple(logits.shape):
        raise ValueError(f"logits and labels must have the same shape ({tuple(logits.shape)} vs "
                         f"{tuple(labels.shape)})")
    return _ret(F.binary_cross_entropy_with_logits(logits, labels, reduction="none"),
                logits, labels)


def softmax_cross_entropy_with_logits(labels, logits, axis: int = -1,
                                      name: str | None = None) -> Tensor:
    """``tf.nn.softmax_cross_entropy_with_logits``: ``-sum(labels * log_softmax(logits))``
    along ``axis``, one loss per example.

    Its gradients are TensorFlow's: ``softmax(logits) - labels`` for the logits (exact when
    each row of ``labels`` sums to 1) and ``-log_softmax(logits)`` for the labels.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> loss = tf.nn.softmax_cross_entropy_with_logits(
        ...     labels=[[0.0, 1.0]], logits=tf.constant([[0.0, 0.0]]))
        >>> round(float(loss[0]), 4)
        0.6931
    """
    logits, labels = _pair(logits, labels)
    axis = int(axis)
    log_probabilities = ug.log_softmax(logits, dim=axis)
    loss = -(labels * log_probabilities.detach()).sum(axis)
    # zero-valued, with gradient softmax(logits) - labels for the logits
    surrogate = ug.logsumexp(logits, dim=axis) - (labels.detach() * logits).sum(axis)
    return _ret(loss + (surrogate - surrogate.detach()), logits, labels)

# the convolutions/pooling, the per-example losses and the statistics/normalization ops live
# in their own modules (they use the helpers above)
from ._block_rearrange import depth_to_space, space_to_batch, space_to_depth  # noqa: E402
from ._morphology import dilation2d, erosion2d  # noqa: E402
from ._nn_convolution import (  # noqa: E402
    atrous_conv2d,
    atrous_conv2d_transpose,
    conv1d,
    conv1d_transpose,
    conv2d,
    conv2d_transpose,
    conv3d,
    conv3d_transpose,
    conv_transpose,
    convolution,
    depthwise_conv2d,
    separable_conv2d,
)
from ._nn_losses import (  # noqa: E402
    collapse_repeated,
    compute_average_loss,
    ctc_loss,
    log_poisson_loss,
    scale_regularization_loss,
    sparse_softmax_cross_entropy_with_logits,
    weighted_cross_entropy_with_logits,
)
from ._nn_normalization import (  # noqa: E402
    batch_norm_with_global_normalization,
    batch_normalization,
    bias_add,
    crelu,
    dropout,
    embedding_lookup,
    local_response_normalization,
    lrn,
    moments,
    normalize_moments,
    selu,
    sufficient_statistics,
    weighted_moments,
)
from ._nn_pooling import (  # noqa: E402
    avg_pool,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    max_pool,
    max_pool1d,
    max_pool2d,
    max_pool3d,
    max_pool_with_argmax,
    pool,
)
from ._reductions import (  # noqa: E402
    approx_max_k,
    approx_min_k,
    in_top_k,
    l2_normalize,
    zero_fraction,
)
from ._safe_math import softsign  # noqa: E402
from ._sampled_losses import compute_accidental_hits, nce_loss, sampled_softmax_loss  # noqa: E402

__all__ += ["depth_to_space", "space_to_batch", "space_to_depth", "dilation2d", "erosion2d",
            "collapse_repeated", "ctc_loss"]
__all__ += ["atrous_conv2d", "atrous_conv2d_transpose", "conv3d_transpose", "conv_transpose",
            "separable_conv2d"]
__all__ += ["avg_pool", "avg_pool1d", "avg_pool2d", "avg_pool3d", "conv1d", "conv1d_transpose",
            "conv2d", "conv2d_transpose", "conv3d", "convolution", "depthwise_conv2d",
            "max_pool", "max_pool1d", "max_pool2d", "max_pool3d", "pool"]
__all__ += ["compute_average_loss", "log_poisson_loss", "scale_regularization_loss",
            "sparse_softmax_cross_entropy_with_logits", "weighted_cross_entropy_with_logits"]
__all__ += ["batch_norm_with_global_normalization", "max_pool_with_argmax"]
__all__ += ["batch_normalization", "bias_add", "crelu", "dropout", "embedding_lookup",
            "local_response_normalization", "lrn", "moments", "normalize_moments", "selu",
            "sufficient_statistics", "weighted_moments"]
__all__ += ["compute_accidental_hits", "nce_loss", "sampled_softmax_loss"]
__all__ += ["approx_max_k", "approx_min_k", "in_top_k", "l2_normalize", "zero_fraction",
            "softsign"]
