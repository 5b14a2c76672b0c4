"""``tf.math`` (and the math at the top of ``tf``) with TensorFlow's argument names.

Arguments may be Tensors, Variables, NumPy arrays or Python values (a Python
number takes the dtype of the tensor it meets, as in TensorFlow); results are
TensorFlow Tensors computed by unigrad's differentiable ops.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> tf.reduce_sum(x, axis=1)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 7.], dtype=float32)>
    >>> tf.math.reduce_max(x).numpy()
    np.float32(4.0)
    >>> tf.add(x, 1).numpy().tolist()
    [[2.0, 3.0], [4.0, 5.0]]
"""

from __future__ import annotations

import math as _math
from collections.abc import Callable

import unigrad as ug
from unigrad.tensor import Tensor as _UgTensor

from ._dtypes import as_dtype
from ._special_math import erfcx, igamma, igammac, ndtri, special, zeta
from ._tensor import Tensor, as_tf, operand, to_tensor

# TensorFlow's dtypes as argument defaults
_TF_INT64 = as_dtype("int64")

__all__ = ["abs", "sqrt", "rsqrt", "exp", "expm1", "log", "log1p", "sin", "cos", "tan", "tanh",
           "sigmoid", "square", "negative", "reciprocal", "sign", "floor", "ceil", "round", "erf",
           "softplus", "is_nan", "is_inf", "is_finite", "add", "subtract", "multiply", "divide",
           "truediv", "floordiv", "mod", "pow", "maximum", "minimum", "equal", "not_equal",
           "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
           "logical_not", "reduce_sum", "reduce_mean", "reduce_max", "reduce_min",
           "reduce_prod", "reduce_logsumexp", "reduce_std", "reduce_variance", "reduce_any",
           "reduce_all", "argmax", "argmin", "add_n", "cumsum"]
__all__ += ["erfcx", "igamma", "igammac", "ndtri", "special", "zeta"]


def _ret(result, *inputs):
    """``result`` as a TensorFlow Tensor; an op that handed back an input gets an alias."""
    if any(result is item for item in inputs):
        if isinstance(result, Tensor):
            return result
        return as_tf(ug.clone(result))
    return as_tf(result)




def _pair(x, y):
    """Both operands as tensors, a Python value taking the dtype of the tensor beside it."""
    if isinstance(x, _UgTensor):
        return x, to_tensor(y, like=x)
    if isinstance(y, _UgTensor):
        return to_tensor(x, like=y), y
    return operand(x, "x"), operand(y, "y")


def _axis(axis):
    if axis is None:
        return None
    if isinstance(axis, _UgTensor):
        axis = axis.tolist()
    if isinstance(axis, (list, tuple)):
        return tuple(int(a) for a in axis)
    return int(axis)


def _unary(tf_name: str, op: Callable) -> Callable:
    def fn(x, name: str | None = None) -> Tensor:
        x = operand(x, "x")
        return _ret(op(x), x)
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = (f"``tf.math.{tf_name}(x, name=None)``: elementwise, differentiable "
                  f"(unigrad's ``{op.__name__}``).")
    return fn


def _without_gradient(op: Callable) -> Callable:
    """``op`` on its inputs cut from the graph: TensorFlow registers no gradient for it
    (``tape.gradient`` through it is None)."""
    def cut(*tensors):
        return op(*(t.detach() for t in tensors))
    cut.__name__ = op.__name__
    return cut


def _binary(tf_name: str, op: Callable) -> Callable:
    def fn(x, y, name: str | None = None) -> Tensor:
        x, y = _pair(x, y)
        return _ret(op(x, y), x, y)
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = (f"``tf.math.{tf_name}(x, y, name=None)``: elementwise with broadcasting "
                  f"(unigrad's ``{op.__name__}``).")
    return fn


def _with_example(fn: Callable, code: str, output: str) -> Callable:
    """``fn`` (made by a factory here) with a doctest example appended to its docstring."""
    fn.__doc__ += (f"\n\n    Example:\n        >>> import unigrad.compat.tensorflow as tf\n"
                   f"        >>> {code}\n        {output}\n")
    return fn


def _reduction(tf_name: str, op: Callable) -> Callable:
    def fn(input_tensor, axis=None, keepdims: bool = False, name: str | None = None) -> Tensor:
        x = operand(input_tensor, "input_tensor")
        axis = _axis(axis)
        if axis == ():
            return _ret(x, x)
        return _ret(op(x, dim=axis, keepdim=bool(keepdims)), x)
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = (f"``tf.math.{tf_name}(input_tensor, axis=None, keepdims=False)``: reduce "
                  f"over ``axis`` (all axes when None).")
    return fn


abs = _unary("abs", ug.abs)  # noqa: A001 - TensorFlow's names
sqrt = _unary("sqrt", ug.sqrt)
rsqrt = _unary("rsqrt", ug.rsqrt)
exp = _unary("exp", ug.exp)
expm1 = _unary("expm1", ug.expm1)
log = _unary("log", ug.log)
log1p = _unary("log1p", ug.log1p)
sin = _unary("sin", ug.sin)
cos = _unary("cos", ug.cos)
tan = _unary("tan", ug.tan)
tanh = _unary("tanh", ug.tanh)
sigmoid = _unary("sigmoid", ug.sigmoid)
square = _unary("square", ug.square)
negative = _unary("negative", ug.neg)
reciprocal = _unary("reciprocal", ug.reciprocal)
sign = _unary("sign", ug.sign)
floor = _unary("floor", _without_gradient(ug.floor))
ceil = _unary("ceil", _without_gradient(ug.ceil))
round = _unary("round", _without_gradient(ug.round))  # noqa: A001
erf = _unary("erf", ug.erf)
acos = _unary("acos", ug.acos)
asin = _unary("asin", ug.asin)
atan = _unary("atan", ug.atan)
sinh = _unary("sinh", ug.sinh)
cosh = _unary("cosh", ug.cosh)
asinh = _unary("asinh", ug.asinh)
acosh = _unary("acosh", ug.acosh)
atanh = _unary("atanh", ug.atanh)
erfc = _unary("erfc", ug.erfc)
atan2 = _binary("atan2", ug.atan2)
xlogy = _binary("xlogy", ug.xlogy)
xlog1py = _binary("xlog1py", ug.xlog1py)
lgamma = _unary("lgamma", ug.lgamma)
digamma = _unary("digamma", ug.digamma)
erfinv = _unary("erfinv", ug.erfinv)
bessel_i0 = _unary("bessel_i0", ug.i0)
bessel_i0e = _unary("bessel_i0e", ug.i0e)
bessel_i1 = _unary("bessel_i1", ug.i1)
bessel_i1e = _unary("bessel_i1e", ug.i1e)
softplus = _unary("softplus", ug.softplus)
is_nan = _unary("is_nan", ug.isnan)
is_inf = _unary("is_inf", ug.isinf)
is_finite = _unary("is_finite", ug.isfinite)
logical_not = _unary("logical_not", ug.logical_not)

add = _binary("add", ug.add)
subtract = _binary("subtract", ug.sub)
multiply = _binary("multiply", ug.mul)
divide = _binary("divide", ug.div)
truediv = _binary("truediv", ug.true_divide)
floordiv = _binary("floordiv", _without_gradient(ug.floor_divide))
mod = _binary("mod", ug.remainder)
pow = _binary("pow", ug.pow)  # noqa: A001
maximum = _binary("maximum", ug.maximum)
minimum = _binary("minimum", ug.minimum)
equal = _binary("equal", ug.eq)
not_equal = _binary("not_equal", ug.ne)
less = _binary("less", ug.lt)
less_equal = _binary("less_equal", ug.le)
greater = _binary("greater", ug.gt)
greater_equal = _binary("greater_equal", ug.ge)
logical_and = _binary("logical_and", ug.logical_and)
logical_or = _binary("logical_or", ug.logical_or)

reduce_sum = _reduction("reduce_sum", ug.sum)
def _mean(x, dim, keepdim: bool):
    """TensorFlow's mean: of integers, the integer sum divided with truncation, in their dtype."""
    if x.dtype.is_floating_point or x.dtype.is_complex:
        return ug.mean(x, dim=dim, keepdim=keepdim)
    axes = range(x.ndim) if dim is None else ((dim,) if isinstance(dim, int) else dim)
    count = _math.prod(x.shape[axis] for axis in axes)
    total = ug.sum(x, dim=dim, keepdim=keepdim)
    return ug.div(total, max(count, 1), rounding_mode="trunc").to(x.dtype)


reduce_mean = _reduction("reduce_mean", _mean)
reduce_max = _reduction("reduce_max", ug.amax)
reduce_min = _reduction("reduce_min", ug.amin)
reduce_prod = _reduction("reduce_prod", ug.prod)
reduce_logsumexp = _reduction("reduce_logsumexp", ug.logsumexp)
reduce_any = _reduction("reduce_any", ug.any)
reduce_all = _reduction("reduce_all", ug.all)


def reduce_variance(input_tensor, axis=None, keepdims: bool = False,
                    name: str | None = None) -> Tensor:
    """``tf.math.reduce_variance``: the population variance (divides by N) over ``axis``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.reduce_variance(tf.constant([1.0, 2.0, 3.0, 4.0])).numpy()
        np.float32(1.25)
    """
    x = operand(input_tensor, "input_tensor")
    return _ret(ug.var(x, dim=_axis(axis), keepdim=bool(keepdims), correction=0), x)


def reduce_std(input_tensor, axis=None, keepdims: bool = False,
               name: str | None = None) -> Tensor:
    """``tf.math.reduce_std``: the population standard deviation over ``axis``."""
    x = operand(input_tensor, "input_tensor")
    return _ret(ug.std(x, dim=_axis(axis), keepdim=bool(keepdims), correction=0), x)


def _arg(op: Callable, input, axis, output_type) -> Tensor:
    x = operand(input, "input")
    result = op(x, dim=0 if axis is None else _axis(axis))
    if output_type is not None:
        result = ug.cast(result, output_type)
    return _ret(result, x)


def argmax(input, axis=None, output_type=_TF_INT64, name: str | None = None) -> Tensor:
    """``tf.math.argmax``: the index of the largest value along ``axis`` (default 0), int64.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.argmax(tf.constant([[1.0, 5.0], [3.0, 2.0]])).numpy().tolist()
        [1, 0]
    """
    return _arg(ug.argmax, input, axis, output_type)


def argmin(input, axis=None, output_type=_TF_INT64, name: str | None = None) -> Tensor:
    """``tf.math.argmin``: the index of the smallest value along ``axis`` (default 0), int64."""
    return _arg(ug.argmin, input, axis, output_type)


def add_n(inputs, name: str | None = None) -> Tensor:
    """``tf.math.add_n``: the elementwise sum of a list of same-shaped tensors.

    Raises:
        ValueError: For an empty list or tensors of different shapes.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.add_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])]).numpy().tolist()
        [4.0, 6.0]
    """
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError("inputs must be a non-empty list of tensors")
    tensors = [operand(t, f"inputs[{i}]") for i, t in enumerate(inputs)]
    shape = tuple(tensors[0].shape)
    for index, t in enumerate(tensors):
        if tuple(t.shape) != shape:
            raise ValueError(f"inputs must all have the same shape: inputs[0] has {shape}, "
                             f"inputs[{index}] has {tuple(t.shape)}")
    total = tensors[0]
    for t in tensors[1:]:
        total = total + t
    return _ret(total, *tensors)


def cumsum(x, axis: int = 0, exclusive: bool = False, reverse: bool = False,
           name: str | None = None) -> Tensor:
    """``tf.math.cumsum``: the running sum along ``axis``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.math.cumsum(tf.constant([1.0, 2.0, 3.0])).numpy().tolist()
        [1.0, 3.0, 6.0]
    """
    x = operand(x, "x")
    axis = int(axis)
    source = ug.flip(x, (axis,)) if reverse else x
    result = ug.cumsum(source, axis)
    if exclusive:
        result = result - source
    if reverse:
        result = ug.flip(result, (axis,))
    return _ret(result, x)

# tf.math.unsorted_segment_sum lives with the scatter ops (they use the helpers above)
from ._scatter_ops import unsorted_segment_sum  # noqa: E402

__all__ += ["unsorted_segment_sum"]

# tf.math.top_k / tf.math.bincount live with the sorting ops (they use the helpers above)
from ._sorting import bincount, top_k  # noqa: E402

__all__ += ["bincount", "top_k"]

# tf.math.floormod / tf.math.truncatemod live with the integer ops (they use the helpers above)
from ._integer_statistics import floormod, truncatemod  # noqa: E402

__all__ += ["floormod", "truncatemod"]

# tf.math.real / imag / angle / conj live with the complex-number ops (they use the helpers above)
from ._complex_math import angle, conj, imag, real  # noqa: E402

__all__ += ["angle", "conj", "imag", "real"]

# the segment reductions, guarded/composite elementwise ops and further reductions live in
# their own modules (they use the helpers above)
from ._reductions import (  # noqa: E402
    approx_max_k,
    approx_min_k,
    confusion_matrix,
    count_nonzero,
    cumprod,
    cumulative_logsumexp,
    in_top_k,
    invert_permutation,
    is_non_decreasing,
    is_strictly_increasing,
    l2_normalize,
    reduce_euclidean_norm,
    zero_fraction,
)
from ._safe_math import (  # noqa: E402
    accumulate_n,
    divide_no_nan,
    erfcinv,
    lbeta,
    log_sigmoid,
    logical_xor,
    multiply_no_nan,
    nextafter,
    polygamma,
    polyval,
    reciprocal_no_nan,
    rint,
    scalar_mul,
    softsign,
    squared_difference,
    xdivy,
)
from ._segment_ops import (  # noqa: E402
    segment_max,
    segment_mean,
    segment_min,
    segment_prod,
    segment_sum,
    unsorted_segment_max,
    unsorted_segment_mean,
    unsorted_segment_min,
    unsorted_segment_prod,
    unsorted_segment_sqrt_n,
)
from .nn import log_softmax, softmax  # noqa: E402

__all__ += ["approx_max_k", "approx_min_k"]
__all__ += ["confusion_matrix", "count_nonzero", "cumprod", "cumulative_logsumexp", "in_top_k",
            "invert_permutation", "is_non_decreasing", "is_strictly_increasing", "l2_normalize",
            "reduce_euclidean_norm", "zero_fraction"]
__all__ += ["accumulate_n", "divide_no_nan", "erfcinv", "lbeta", "log_sigmoid", "logical_xor",
            "multiply_no_nan", "nextafter", "polygamma", "polyval", "reciprocal_no_nan", "rint",
            "scalar_mul", "softsign", "squared_difference", "xdivy"]
__all__ += ["segment_max", "segment_mean", "segment_min", "segment_prod", "segment_sum",
            "unsorted_segment_max", "unsorted_segment_mean", "unsorted_segment_min",
            "unsorted_segment_prod", "unsorted_segment_sqrt_n"]
__all__ += ["log_softmax", "softmax"]
