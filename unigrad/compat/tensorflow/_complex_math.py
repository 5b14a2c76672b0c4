"""TensorFlow's complex-number functions: ``tf.complex`` and ``tf.math.real``, ``imag``,
``angle``, ``conj``, on :mod:`unigrad.ops.complex_numbers`. Imported into
:mod:`unigrad.compat.tensorflow.math` (``tf.complex`` also into ``tf`` and ``tf.dtypes``).

As in TensorFlow, ``real``/``conj`` of a real tensor return it, ``imag`` gives
zeros and ``angle`` gives ``pi`` where it is negative, 0 elsewhere. Complex
gradients follow TensorFlow's convention, which is PyTorch's (the conjugate
Wirtinger derivative, ``conj(df/dz) * upstream``).

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> z = tf.complex(tf.constant([3.0, 0.0]), tf.constant([4.0, -1.0]))
    >>> z
    <tf.Tensor: shape=(2,), dtype=complex64, numpy=array([3.+4.j, 0.-1.j], dtype=complex64)>
    >>> tf.math.real(z).numpy(), tf.math.imag(z).numpy()
    (array([3., 0.], dtype=float32), array([ 4., -1.], dtype=float32))
    >>> tf.abs(z).numpy()
    array([5., 1.], dtype=float32)
"""

from __future__ import annotations

import unigrad as ug

from ._tensor import Tensor, operand
from .math import _pair, _ret

__all__ = ["complex", "real", "imag", "angle", "conj"]

_COMPLEX_OF = {ug.float32: ug.complex64, ug.float64: ug.complex128}


def complex(real, imag, name: str | None = None) -> Tensor:  # noqa: A001 - TensorFlow's name
    """``tf.complex``: ``real + 1j * imag`` from two float32 (-> complex64) or float64
    (-> complex128) tensors of one dtype, broadcast together.

    Raises:
        TypeError: For other dtypes, or two different ones.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.complex(tf.constant([1.0], dtype=tf.float64), tf.constant([2.0], dtype=tf.float64))
        <tf.Tensor: shape=(1,), dtype=complex128, numpy=array([1.+2.j])>
    """
    re, im = _pair(real, imag)
    if re.dtype not in _COMPLEX_OF:
        raise TypeError(f"Value for attr 'T' of {re.dtype.name} is not in the list of allowed "
                        f"values: float, double")
    if re.dtype != im.dtype:
        raise TypeError(f"cannot compute Complex as input #1(zero-based) was expected to be a "
                        f"{re.dtype.name} tensor but is a {im.dtype.name} tensor")
    return _ret(ug.complex(re, im), re, im)


def real(input, name: str | None = None) -> Tensor:
    """``tf.math.real``: the real parts of a complex tensor (float32 for complex64); a real
    tensor is returned as it is.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.real(tf.constant([-2.25 + 4.75j, 3.25 + 5.75j])).numpy()
        array([-2.25,  3.25])
    """
    x = operand(input, "input")
    if not x.is_complex():
        return _ret(x, x)
    return _ret(ug.clone(ug.real(x)), x)


def imag(input, name: str | None = None) -> Tensor:
    """``tf.math.imag``: the imaginary parts of a complex tensor; zeros for a real tensor.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.imag(tf.constant([-2.25 + 4.75j, 3.25 + 5.75j])).numpy()
        array([4.75, 5.75])
        >>> tf.math.imag(tf.constant([1.0, 2.0])).numpy()
        array([0., 0.], dtype=float32)
    """
    x = operand(input, "input")
    if not x.is_complex():
        return _ret(ug.zeros_like(x), x)
    return _ret(ug.clone(ug.imag(x)), x)


def angle(input, name: str | None = None) -> Tensor:
    """``tf.math.angle``: the argument ``atan2(imag, real)`` of each element (real dtype);
    for a real tensor ``pi`` where it is negative and 0 elsewhere.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.angle(tf.constant([1j, -1 + 0j], dtype=tf.complex64)).numpy()
        array([1.5707964, 3.1415927], dtype=float32)
    """
    x = operand(input, "input")
    return _ret(ug.angle(x), x)


def conj(x, name: str | None = None) -> Tensor:
    """``tf.math.conj``: the complex conjugate; a real tensor is returned as it is.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.conj(tf.constant([1 + 2j])).numpy()
        array([1.-2.j])
    """
    x = operand(x, "x")
    if not x.is_complex():
        return _ret(x, x)
    return _ret(ug.conj_physical(x), x)
