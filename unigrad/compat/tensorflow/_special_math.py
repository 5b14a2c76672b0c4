"""TensorFlow's special functions: ``tf.math.erfcx``, ``tf.math.ndtri``, ``tf.math.zeta``,
``tf.math.igamma``, ``tf.math.igammac`` and the ``tf.math.special`` namespace (the Bessel
functions ``bessel_i0``, ``bessel_i0e``, ``bessel_i1``, ``bessel_i1e``, ``bessel_j0``,
``bessel_j1``, ``bessel_y0``, ``bessel_y1``, ``bessel_k0``, ``bessel_k0e``, ``bessel_k1``,
``bessel_k1e``), with TensorFlow's argument names.

``tf.math`` re-exports them. Unlike TensorFlow, ``igamma``/``igammac`` are not differentiable
with respect to ``a`` (unigrad follows PyTorch there).

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.math.special.bessel_j0(tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.       , 0.7651977], dtype=float32)>
    >>> tf.math.igamma(tf.constant([1.0]), tf.constant([1.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.63212055], dtype=float32)>
"""

from __future__ import annotations

import types
from collections.abc import Callable

import unigrad as ug
from unigrad.tensor import Tensor as _UgTensor

from ._tensor import Tensor, as_tf, operand, to_tensor

__all__ = ["erfcx", "ndtri", "zeta", "igamma", "igammac", "special"]




def _unary(tf_name: str, namespace: str, op: Callable) -> Callable:
    def fn(x, name: str | None = None) -> Tensor:
        return as_tf(op(operand(x, "x")))
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = (f"``{namespace}.{tf_name}(x, name=None)``: elementwise, differentiable "
                  f"(unigrad's ``{op.__name__}``).")
    return fn


def _pair(first, second, names: tuple) -> tuple:
    """Both operands as tensors, a Python value taking the dtype of the tensor beside it."""
    if isinstance(first, _UgTensor):
        return first, to_tensor(second, like=first)
    if isinstance(second, _UgTensor):
        return to_tensor(first, like=second), second
    return operand(first, names[0]), operand(second, names[1])


erfcx = _unary("erfcx", "tf.math", ug.erfcx)
ndtri = _unary("ndtri", "tf.math", ug.ndtri)


def zeta(x, q, name: str | None = None) -> Tensor:
    """``tf.math.zeta``: the Hurwitz zeta function ``sum_k (k + q) ** -x``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.zeta(tf.constant([2.0]), 1.0)
        <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.644934], dtype=float32)>
    """
    return as_tf(ug.zeta(*_pair(x, q, ("x", "q"))))


def igamma(a, x, name: str | None = None) -> Tensor:
    """``tf.math.igamma``: the regularized lower incomplete gamma function ``P(a, x)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.igamma(tf.constant([2.0]), tf.constant([1.0]))
        <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.26424113], dtype=float32)>
    """
    return as_tf(ug.igamma(*_pair(a, x, ("a", "x"))))


def igammac(a, x, name: str | None = None) -> Tensor:
    """``tf.math.igammac``: the regularized upper incomplete gamma function ``1 - P(a, x)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.igammac(tf.constant([2.0]), tf.constant([1.0]))
        <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.7357589], dtype=float32)>
    """
    return as_tf(ug.igammac(*_pair(a, x, ("a", "x"))))


special = types.ModuleType("unigrad.compat.tensorflow.math.special",
                           "``tf.math.special``: the Bessel functions unigrad provides.")
for _name, _op in (("bessel_i0", ug.i0), ("bessel_i0e", ug.i0e), ("bessel_i1", ug.i1),
                   ("bessel_i1e", ug.i1e), ("bessel_j0", ug.bessel_j0),
                   ("bessel_j1", ug.bessel_j1), ("bessel_y0", ug.bessel_y0),
                   ("bessel_y1", ug.bessel_y1), ("bessel_k0", ug.modified_bessel_k0),
                   ("bessel_k0e", ug.scaled_modified_bessel_k0),
                   ("bessel_k1", ug.modified_bessel_k1),
                   ("bessel_k1e", ug.scaled_modified_bessel_k1)):
    setattr(special, _name, _unary(_name, "tf.math.special", _op))
special.__all__ = sorted(name for name in vars(special) if name.startswith("bessel"))
