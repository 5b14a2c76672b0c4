"""TensorFlow's guarded and composite elementwise math: ``tf.math.divide_no_nan``,
``multiply_no_nan``, ``reciprocal_no_nan``, ``xdivy``, ``squared_difference``,
``logical_xor``, ``log_sigmoid``, ``softsign``, ``rint``, ``scalar_mul``, ``lbeta``,
``polyval``, ``accumulate_n``, ``erfcinv``, ``nextafter``, ``polygamma``, ``tf.realdiv``,
``tf.truncatediv`` and ``tf.saturate_cast``, as composites of unigrad's differentiable ops.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.math.divide_no_nan(tf.constant([1.0, 2.0]), tf.constant([0.0, 4.0])).numpy()
    array([0. , 0.5], dtype=float32)
    >>> tf.math.polyval([1.0, 2.0, 3.0], tf.constant(2.0)).numpy()
    np.float32(11.0)
"""

from __future__ import annotations

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F

from ._dtypes import as_dtype
from ._host import host_array
from ._tensor import Tensor, operand
from .errors import NotFoundError
from .math import _binary, _pair, _ret, _unary, _with_example, _without_gradient, add_n

__all__ = ["divide_no_nan", "multiply_no_nan", "reciprocal_no_nan", "xdivy",
           "squared_difference", "logical_xor", "log_sigmoid", "softsign", "rint", "scalar_mul",
           "lbeta", "polyval", "accumulate_n", "erfcinv", "nextafter", "polygamma", "realdiv",
           "truncatediv", "saturate_cast"]


def _check_floating(x, name: str, op: str) -> None:
    if x.dtype.kind not in "fc":
        raise TypeError(f"{op}: {name} must be a floating-point or complex tensor, got "
                        f"{x.dtype!r}")


def _zero_where(mask, value):
    """``value`` with 0 where ``mask`` holds (the gradient there is 0 too)."""
    return ug.where(mask, ug.zeros_like(value), value)


def divide_no_nan(x, y, name: str | None = None) -> Tensor:
    """``x / y``, or 0 where ``y`` is 0 (even when ``x`` is also 0 or inf).

    Raises:
        TypeError: For integer operands (TensorFlow has no integer kernel).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.divide_no_nan(tf.constant([3.0, 1.0]), tf.constant([0.0, 2.0])).numpy()
        array([0. , 0.5], dtype=float32)
    """
    x, y = _pair(x, y)
    _check_floating(x, "x", "divide_no_nan")
    zero = y == 0
    safe = ug.where(zero, ug.ones_like(y), y)
    return _ret(_zero_where(zero, x / safe), x, y)


def multiply_no_nan(x, y, name: str | None = None) -> Tensor:
    """``x * y``, or 0 where ``y`` is 0 (even when ``x`` is nan or inf).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.multiply_no_nan(tf.constant([float("inf"), 2.0]), [0.0, 3.0]).numpy()
        array([0., 6.], dtype=float32)
    """
    x, y = _pair(x, y)
    _check_floating(x, "x", "multiply_no_nan")
    zero = y == 0
    product = _zero_where(zero, x) * y
    # TensorFlow's gradient with respect to y is x even where y is 0: a zero-valued term
    # whose y-gradient is (finite) x there
    slope = ug.where(zero, ug.nan_to_num(x.detach()), ug.zeros_like(x.detach()))
    return _ret(product + slope * (y - y.detach()), x, y)


def reciprocal_no_nan(x, name: str | None = None) -> Tensor:
    """``1 / x``, or 0 where ``x`` is 0.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.reciprocal_no_nan(tf.constant([0.0, 4.0])).numpy()
        array([0.  , 0.25], dtype=float32)
    """
    x = operand(x, "x")
    _check_floating(x, "x", "reciprocal_no_nan")
    return divide_no_nan(ug.ones_like(x), x)


def xdivy(x, y, name: str | None = None) -> Tensor:
    """``x / y``, or 0 where ``x`` is 0.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.xdivy(tf.constant([0.0, 3.0]), tf.constant([0.0, 2.0])).numpy()
        array([0. , 1.5], dtype=float32)
    """
    x, y = _pair(x, y)
    _check_floating(x, "x", "xdivy")
    zero = x == 0
    safe = ug.where(zero, ug.ones_like(y), y)
    return _ret(_zero_where(zero, x / safe), x, y)


def _squared_difference(x, y):
    difference = x - y
    return difference * ug.conj(difference) if difference.is_complex() else \
        difference * difference


squared_difference = _with_example(
    _binary("squared_difference", _squared_difference),
    "tf.math.squared_difference(tf.constant([1.0, 5.0]), 3.0).numpy()",
    "array([4., 4.], dtype=float32)")
logical_xor = _with_example(
    _binary("logical_xor", ug.logical_xor),
    "tf.math.logical_xor(tf.constant([True, True]), [True, False]).numpy()",
    "array([False,  True])")
log_sigmoid = _with_example(
    _unary("log_sigmoid", F.logsigmoid),
    "tf.math.log_sigmoid(tf.constant([0.0])).numpy()",
    "array([-0.6931472], dtype=float32)")
softsign = _with_example(
    _unary("softsign", F.softsign),
    "tf.math.softsign(tf.constant([-3.0, 1.0])).numpy()",
    "array([-0.75,  0.5 ], dtype=float32)")
erfcinv = _with_example(
    _unary("erfcinv", lambda x: -ug.ndtri(x * 0.5) * (0.5 ** 0.5)),
    "tf.math.erfcinv(tf.constant([1.0])).numpy()",
    "array([-0.], dtype=float32)")
nextafter = _with_example(
    _binary("nextafter", ug.nextafter),
    "tf.math.nextafter(tf.constant([1.0], tf.float64), tf.constant([2.0], tf.float64)).numpy()",
    "array([1.])")


def rint(x, name: str | None = None) -> Tensor:
    """The nearest integer, ties to the even one (``rint(2.5) == 2``), in ``x``'s dtype (no
    gradient, as in TensorFlow).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.rint(tf.constant([0.5, 1.5, -1.7])).numpy()
        array([ 0.,  2., -2.], dtype=float32)
    """
    x = operand(x, "x")
    return _ret(ug.round(x.detach()), x)


def polygamma(a, x, name: str | None = None) -> Tensor:
    """The ``a``-th derivative of the digamma function at ``x`` (``a`` a tensor of whole
    numbers of ``x``'s dtype).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> round(float(tf.math.polygamma(tf.constant(1.0), tf.constant(1.0))), 5)
        1.64493
    """
    a, x = _pair(a, x)
    orders = sorted({int(order) for order in host_array(a).reshape(-1).tolist()})
    result = ug.zeros_like(x + a)
    for order in orders:
        result = ug.where(a == order, ug.polygamma(order, x), result)
    return _ret(result, a, x)


def scalar_mul(scalar, x, name: str | None = None) -> Tensor:
    """``scalar * x`` for a scalar (Python number or 0-d tensor).

    Raises:
        ValueError: When ``scalar`` is not a scalar.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.scalar_mul(2, tf.constant([1.0, 2.0])).numpy()
        array([2., 4.], dtype=float32)
    """
    x, scalar = _pair(x, scalar)
    if scalar.ndim != 0:
        raise ValueError(f"Only scalar multiply works, got shape {tuple(scalar.shape)}")
    return _ret(scalar * x, x, scalar)


def lbeta(x, name: str | None = None) -> Tensor:
    """``log(|Beta(x)|)`` over the last axis: ``sum(lgamma(x)) - lgamma(sum(x))``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> round(float(tf.math.lbeta(tf.constant([1.0, 2.0]))), 5)
        -0.69315
    """
    x = operand(x, "x")
    return _ret(ug.lgamma(x).sum(-1) - ug.lgamma(x.sum(-1)), x)


def polyval(coeffs, x, name: str | None = None) -> Tensor:
    """The polynomial ``coeffs[0] * x**(n-1) + ... + coeffs[n-1]`` at ``x`` (Horner's rule);
    0 for an empty ``coeffs``.

    Raises:
        ValueError: When ``coeffs`` is not a list.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.polyval([2.0, 0.0, 1.0], tf.constant([1.0, 3.0])).numpy()
        array([ 3., 19.], dtype=float32)
    """
    if not isinstance(coeffs, (list, tuple)):
        raise ValueError(f"Argument coeffs must be list type found {type(coeffs)}.")
    x = operand(x, "x")
    if not coeffs:
        return _ret(ug.zeros_like(x), x)
    result = None
    for coefficient in coeffs:
        coefficient = operand(coefficient, "coeffs") if not isinstance(coefficient, (int, float)) \
            else coefficient
        result = coefficient + ug.zeros_like(x) if result is None else result * x + coefficient
    return _ret(result, x)


def accumulate_n(inputs, shape=None, tensor_dtype=None, name: str | None = None) -> Tensor:
    """The elementwise sum of a list of same-shaped tensors (``tf.math.add_n``'s sibling).

    Raises:
        ValueError: For an empty list, or tensors of different shapes or dtypes.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.accumulate_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])]).numpy()
        array([4., 6.], dtype=float32)
    """
    if isinstance(inputs, (list, tuple)) and inputs:
        tensors = [operand(t, f"inputs[{i}]") for i, t in enumerate(inputs)]
        if any(t.dtype != tensors[0].dtype for t in tensors):
            raise ValueError("inputs must be a list of at least one Tensor with the same "
                             "dtype and shape")
        if shape is not None and tuple(shape) != tuple(tensors[0].shape):
            raise ValueError(f"Shape of inputs must match shape {tuple(shape)}")
    return add_n(inputs)


def realdiv(x, y, name: str | None = None) -> Tensor:
    """``x / y`` for floating-point or complex tensors of one dtype.

    Raises:
        NotFoundError: For integer operands (TensorFlow has no CPU kernel for them).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.realdiv(tf.constant([1.0, 3.0]), 2.0).numpy()
        array([0.5, 1.5], dtype=float32)
    """
    x, y = _pair(x, y)
    if x.dtype.kind not in "fc":
        raise NotFoundError(None, None, f"Could not find device for node: {{{{node RealDiv}}}} = "
                                        f"RealDiv[T=DT_{x.dtype.name.upper()}]")
    return _ret(x / y, x, y)


def truncatediv(x, y, name: str | None = None) -> Tensor:
    """Division rounding toward zero (``-7 // 2 == -3``), for integers and floats; no
    gradient, as in TensorFlow.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.truncatediv(tf.constant([-7, 7]), 2).numpy()
        array([-3,  3], dtype=int32)
    """
    x, y = _pair(x, y)
    quotient = _without_gradient(lambda a, b: ug.div(a, b, rounding_mode="trunc"))(x, y)
    return _ret(quotient.to(x.dtype), x, y)


def saturate_cast(value, dtype, name: str | None = None) -> Tensor:
    """``value`` cast to ``dtype`` after clamping it to the range ``dtype`` can hold (so
    ``300`` becomes ``255`` in uint8 rather than wrapping).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.saturate_cast(tf.constant([-5.0, 300.0]), tf.uint8).numpy()
        array([  0, 255], dtype=uint8)
    """
    x = operand(value, "value")
    target = as_dtype(dtype)
    if target.kind in "iu" or (target.kind == "f" and x.dtype.kind == "f"
                               and target.itemsize < x.dtype.itemsize):
        low, high = target.min, target.max
        if x.dtype.kind in "iu":
            info = np.iinfo(x.dtype.np_dtype)
            low, high = max(low, info.min), min(high, info.max)
        if x.dtype.kind == "c":
            x = ug.real(x)
        x = ug.clamp(x, min=low, max=high)
    return _ret(ug.cast(x, target), x)
