"""``tf.keras.activations``: Keras 3's activation functions and ``get``.

Each function takes a tensor (or a value convertible to one) and returns a
``tf.Tensor``; :func:`get` turns a name, a function or ``None`` (linear) into
the function, as layers' ``activation=`` arguments do.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.keras.activations.relu(tf.constant([-1.0, 2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>
    >>> tf.keras.activations.get("swish").__name__
    'silu'
"""

from __future__ import annotations

from collections.abc import Callable

import unigrad as ug
import unigrad.nn.functional as F

from .._tensor import Tensor, as_tf, operand
from .losses import attach_logits

__all__ = ["relu", "sigmoid", "tanh", "softmax", "gelu", "elu", "selu", "softplus", "softsign",
           "silu", "swish", "leaky_relu", "linear", "exponential", "hard_sigmoid", "get",
           "serialize"]


def _floating(x) -> Tensor:
    return operand(x, "x")


def relu(x, negative_slope: float = 0.0, max_value: float | None = None,
         threshold: float = 0.0) -> Tensor:
    """``x`` above ``threshold`` (0 elsewhere), capped at ``max_value``, minus
    ``negative_slope * relu(threshold - x)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.relu([-2.0, 1.0, 8.0], negative_slope=0.5, max_value=6.0)
        <tf.Tensor: shape=(3,), dtype=float32, numpy=array([-1.,  1.,  6.], dtype=float32)>
        >>> tf.keras.activations.relu([0.5, 1.0, 3.0], threshold=1.0).numpy()
        array([0., 0., 3.], dtype=float32)
    """
    x = _floating(x)
    if negative_slope != 0.0 and max_value is None and threshold == 0.0:
        return as_tf(F.leaky_relu(x, negative_slope=negative_slope))
    negative_part = F.relu(threshold - x) if negative_slope != 0.0 else None
    if threshold != 0.0:
        result = ug.where(x > threshold, x, ug.zeros_like(x))
    else:
        result = F.relu(x)
    if max_value is not None:
        result = ug.clamp(result, 0.0, max_value)
    if negative_part is not None:
        result = result - negative_slope * negative_part
    return as_tf(result)


def sigmoid(x) -> Tensor:
    """``1 / (1 + exp(-x))``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.sigmoid([0.0]).numpy()
        array([0.5], dtype=float32)
    """
    x = _floating(x)
    return attach_logits(as_tf(ug.sigmoid(x)), x)  # the cross-entropies use the logits


def tanh(x) -> Tensor:
    """The hyperbolic tangent.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.tanh([0.0]).numpy()
        array([0.], dtype=float32)
    """
    return as_tf(ug.tanh(_floating(x)))


def softmax(x, axis: int = -1) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``axis``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.softmax(tf.constant([[0.0, 0.0]])).numpy()
        array([[0.5, 0.5]], dtype=float32)
    """
    x = _floating(x)
    return attach_logits(as_tf(F.softmax(x, dim=axis)), x)  # the cross-entropies use them


def gelu(x, approximate: bool = False) -> Tensor:
    """The Gaussian error linear unit (the tanh approximation when ``approximate``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.gelu([0.0, 1.0]).numpy().round(4)
        array([0.    , 0.8413], dtype=float32)
    """
    return as_tf(F.gelu(_floating(x), approximate="tanh" if approximate else "none"))


def elu(x, alpha: float = 1.0) -> Tensor:
    """``x`` for positive ``x``, ``alpha * (exp(x) - 1)`` otherwise.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.elu([1.0, 0.0]).numpy()
        array([1., 0.], dtype=float32)
    """
    return as_tf(F.elu(_floating(x), alpha=alpha))


def selu(x) -> Tensor:
    """The scaled exponential linear unit.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.selu([1.0]).numpy()
        array([1.050701], dtype=float32)
    """
    return as_tf(F.selu(_floating(x)))


def softplus(x) -> Tensor:
    """``log(exp(x) + 1)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.softplus([0.0]).numpy()
        array([0.6931472], dtype=float32)
    """
    x = _floating(x)
    return as_tf(ug.logaddexp(x, ug.zeros_like(x)))


def softsign(x) -> Tensor:
    """``x / (abs(x) + 1)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.softsign([1.0]).numpy()
        array([0.5], dtype=float32)
    """
    return as_tf(F.softsign(_floating(x)))


def silu(x) -> Tensor:
    """``x * sigmoid(x)`` (also ``swish``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.silu([0.0]).numpy()
        array([0.], dtype=float32)
    """
    return as_tf(F.silu(_floating(x)))


swish = silu


def leaky_relu(x, negative_slope: float = 0.2) -> Tensor:
    """``x`` for positive ``x``, ``negative_slope * x`` otherwise.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.leaky_relu([-1.0, 1.0]).numpy()
        array([-0.2,  1. ], dtype=float32)
    """
    return as_tf(F.leaky_relu(_floating(x), negative_slope=negative_slope))


def linear(x) -> Tensor:
    """The identity: ``x`` unchanged.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.linear(tf.constant([3.0]))
        <tf.Tensor: shape=(1,), dtype=float32, numpy=array([3.], dtype=float32)>
    """
    return x


def exponential(x) -> Tensor:
    """``exp(x)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.exponential([0.0]).numpy()
        array([1.], dtype=float32)
    """
    return as_tf(ug.exp(_floating(x)))


def hard_sigmoid(x) -> Tensor:
    """``relu6(x + 3) / 6``: 0 below -3, 1 above 3, linear between.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.hard_sigmoid([-4.0, 0.0, 1.5]).numpy()
        array([0.  , 0.5 , 0.75], dtype=float32)
    """
    return as_tf(F.hardsigmoid(_floating(x)))


_BY_NAME: dict[str, Callable] = {function.__name__: function for function in (
    relu, sigmoid, tanh, softmax, gelu, elu, selu, softplus, softsign, silu, leaky_relu,
    linear, exponential, hard_sigmoid)}
_BY_NAME["swish"] = silu


def get(identifier) -> Callable:
    """The activation function named by ``identifier`` (a name, a function, or ``None`` for
    :func:`linear`).

    Raises:
        ValueError: For a name Keras does not know.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.get("relu").__name__, tf.keras.activations.get(None).__name__
        ('relu', 'linear')
    """
    if identifier is None:
        return linear
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]
    if callable(identifier) and not isinstance(identifier, str):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")


def serialize(activation: Callable) -> str:
    """The name of a built-in activation function (what ``get_config`` stores).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.keras.activations.serialize(tf.keras.activations.swish)
        'silu'
    """
    return getattr(activation, "__name__", str(activation))
