"""``mindspore.ops``: operator classes (``ops.MatMul()(a, b)``) and functions (``ops.matmul``).

Operator classes are built once with their attributes and then called on
tensors, as in MindSpore (``ops.ReduceSum(keep_dims=True)(x, axis)``); the
functions take MindSpore's argument names (``axis``, ``keep_dims``,
``input_perm``...). Every one maps onto a unigrad op, so it is
differentiable, and returns MindSpore Tensors.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> a = ms.Tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> print(ops.MatMul(transpose_b=True)(a, a))
    [[ 5. 11.]
     [11. 25.]]
    >>> print(ops.ReduceSum(keep_dims=True)(a, 1))
    [[3.]
     [7.]]
    >>> ops.ReduceSum()
    Prim[ReduceSum]<keep_dims=False>
    >>> ms.grad(lambda x: ops.reduce_sum(ops.square(x)))(a)
    Tensor(shape=[2, 2], dtype=Float32, value=
    [[2.00000000e+000, 4.00000000e+000],
     [6.00000000e+000, 8.00000000e+000]])
"""

from __future__ import annotations

import builtins
import functools
import numbers
from collections.abc import Callable

import numpy as np

from ... import ops as _ug
from ...nn import functional as _F
from ...nn.parameter import Parameter as _UgParameter
from ...ops import clipping as _clipping
from ...tensor import Tensor as _UgTensor
from ...transforms.custom import stop_gradient as _ug_stop_gradient
from ._tensor import Tensor, _axes, to_ms
from ._transforms import GradOperation, grad, value_and_grad, vmap
from .dtype import to_ms_dtype

# ============================================================================ helpers


def _tensor(value, owner: str, name: str = "x") -> _UgTensor:
    """``value`` as a Tensor: Tensors pass through, numbers and arrays are converted."""
    if isinstance(value, _UgTensor):
        return value
    if isinstance(value, (numbers.Number, np.ndarray, np.generic, list)) \
            and not isinstance(value, builtins.complex):
        return Tensor(value)
    raise TypeError(f"For '{owner}', the input '{name}' must be a Tensor, a number or an array, "
                    f"but got {type(value).__name__}")


def _operand(value, owner: str, name: str):
    """A binary op's operand: Python numbers stay numbers (no dtype promotion)."""
    if isinstance(value, (bool, int, float)) and not isinstance(value, np.generic):
        return value
    return _tensor(value, owner, name)


def _tensors(values, owner: str, name: str) -> list:
    if isinstance(values, _UgTensor) or not isinstance(values, (tuple, list)):
        raise TypeError(f"For '{owner}', the input '{name}' must be a tuple or list of Tensors, "
                        f"but got {type(values).__name__}")
    return [_tensor(v, owner, f"{name}[{i}]") for i, v in enumerate(values)]


def _int(value, owner: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"For '{owner}', the '{name}' must be int, but got "
                        f"{type(value).__name__}")
    return int(value)


def _bool(value, owner: str, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"For '{owner}', the '{name}' must be bool, but got "
                        f"{type(value).__name__}")
    return bool(value)


def _shape_arg(shape, owner: str, name: str = "shape") -> tuple:
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        return (int(shape),)
    if isinstance(shape, _UgTensor):
        shape = shape.tolist()
    if not isinstance(shape, (tuple, list)) or not builtins.all(
            isinstance(d, numbers.Integral) and not isinstance(d, bool) for d in shape):
        raise TypeError(f"For '{owner}', the '{name}' must be an int or a tuple of ints, but "
                        f"got {shape!r}")
    return tuple(int(d) for d in shape)


# ============================================================================ operator classes


class Primitive:
    """Base of MindSpore's operator classes: build with attributes, call on tensors.

    ``repr`` is MindSpore's ``Prim[Name]<attr=value, ...>``; ``add_prim_attr``
    records an extra attribute.

    Example:
        >>> from unigrad.compat.mindspore import ops
        >>> ops.MatMul(transpose_a=True)
        Prim[MatMul]<transpose_a=True, transpose_b=False>
    """

    def __init__(self, name: str | None = None):
        self.name = name or type(self).__name__
        self.attrs: dict = {}

    def add_prim_attr(self, name: str, value) -> Primitive:
        self.attrs[name] = value
        return self

    def __call__(self, *args):
        return to_ms(self.compute(*args))

    def compute(self, *args):
        raise NotImplementedError(f"{self.name} does not define compute()")

    def __repr__(self) -> str:
        if not self.attrs:
            return f"Prim[{self.name}]"
        attrs = ", ".join(f"{k}={v}" for k, v in self.attrs.items())
        return f"Prim[{self.name}]<{attrs}>"


def _unary_class(name: str, fn: Callable, doc: str) -> type:
    def compute(self, x):
        return fn(_tensor(x, self.name))
    return type(name, (Primitive,), {"compute": compute, "__doc__": doc,
                                     "__module__": __name__})


def _binary_class(name: str, fn: Callable, doc: str) -> type:
    def compute(self, x, y):
        return fn(_operand(x, self.name, "x"), _operand(y, self.name, "y"))
    return type(name, (Primitive,), {"compute": compute, "__doc__": doc,
                                     "__module__": __name__})


Exp = _unary_class("Exp", _ug.exp, "``Exp()(x)``: e to the power x, elementwise.")
Log = _unary_class("Log", _ug.log, "``Log()(x)``: natural logarithm, elementwise.")
Sqrt = _unary_class("Sqrt", _ug.sqrt, "``Sqrt()(x)``: square root, elementwise.")
Rsqrt = _unary_class("Rsqrt", _ug.rsqrt, "``Rsqrt()(x)``: 1 / sqrt(x), elementwise.")
Square = _unary_class("Square", _ug.square, "``Square()(x)``: x * x, elementwise.")
Sin = _unary_class("Sin", _ug.sin, "``Sin()(x)``: sine, elementwise.")
Cos = _unary_class("Cos", _ug.cos, "``Cos()(x)``: cosine, elementwise.")
Tanh = _unary_class("Tanh", _ug.tanh, "``Tanh()(x)``: hyperbolic tangent, elementwise.")
Sigmoid = _unary_class("Sigmoid", _ug.sigmoid, "``Sigmoid()(x)``: 1 / (1 + exp(-x)).")
ReLU = _unary_class("ReLU", _ug.relu, "``ReLU()(x)``: max(x, 0), elementwise.")
Abs = _unary_class("Abs", _ug.abs, "``Abs()(x)``: absolute value, elementwise.")
Neg = _unary_class("Neg", _ug.neg, "``Neg()(x)``: -x, elementwise.")
Reciprocal = _unary_class("Reciprocal", _ug.reciprocal, "``Reciprocal()(x)``: 1 / x.")
Sign = _unary_class("Sign", _ug.sign, "``Sign()(x)``: -1, 0 or 1, elementwise.")
Erf = _unary_class("Erf", _ug.erf, "``Erf()(x)``: the error function, elementwise.")
Floor = _unary_class("Floor", _ug.floor, "``Floor()(x)``: round down, elementwise.")
IsFinite = _unary_class("IsFinite", _ug.isfinite, "``IsFinite()(x)``: bool mask of finite values.")
OnesLike = _unary_class("OnesLike", _ug.ones_like, "``OnesLike()(x)``: ones of x's shape/dtype.")
ZerosLike = _unary_class("ZerosLike", _ug.zeros_like,
                         "``ZerosLike()(x)``: zeros of x's shape/dtype.")
StopGradient = _unary_class("StopGradient", _ug_stop_gradient,
                            "``StopGradient()(x)``: x, with no gradient flowing back.")

Add = _binary_class("Add", _ug.add, "``Add()(x, y)``: x + y with broadcasting.")
Sub = _binary_class("Sub", _ug.sub, "``Sub()(x, y)``: x - y with broadcasting.")
Mul = _binary_class("Mul", _ug.mul, "``Mul()(x, y)``: x * y with broadcasting.")
Div = _binary_class("Div", _ug.div, "``Div()(x, y)``: x / y with broadcasting.")
RealDiv = _binary_class("RealDiv", _ug.div, "``RealDiv()(x, y)``: x / y with broadcasting.")
Pow = _binary_class("Pow", _ug.pow, "``Pow()(x, y)``: x ** y with broadcasting.")
Maximum = _binary_class("Maximum", _ug.maximum, "``Maximum()(x, y)``: elementwise maximum.")
Minimum = _binary_class("Minimum", _ug.minimum, "``Minimum()(x, y)``: elementwise minimum.")
Equal = _binary_class("Equal", _ug.eq, "``Equal()(x, y)``: x == y (bool).")
NotEqual = _binary_class("NotEqual", _ug.ne, "``NotEqual()(x, y)``: x != y (bool).")
Greater = _binary_class("Greater", _ug.gt, "``Greater()(x, y)``: x > y (bool).")
GreaterEqual = _binary_class("GreaterEqual", _ug.ge, "``GreaterEqual()(x, y)``: x >= y (bool).")
Less = _binary_class("Less", _ug.lt, "``Less()(x, y)``: x < y (bool).")
LessEqual = _binary_class("LessEqual", _ug.le, "``LessEqual()(x, y)``: x <= y (bool).")


class MatMul(Primitive):
    """``MatMul(transpose_a=False, transpose_b=False)(x, y)``: the 2-D matrix product,
    optionally transposing either operand first."""

    def __init__(self, transpose_a: bool = False, transpose_b: bool = False):
        super().__init__()
        self.transpose_a = _bool(transpose_a, "MatMul", "transpose_a")
        self.transpose_b = _bool(transpose_b, "MatMul", "transpose_b")
        self.attrs.update(transpose_a=self.transpose_a, transpose_b=self.transpose_b)

    def compute(self, x, y):
        x, y = _tensor(x, self.name, "x"), _tensor(y, self.name, "y")
        if x.ndim != 2 or y.ndim != 2:
            raise ValueError(f"For '{self.name}', the inputs must be 2-D, but got shapes "
                             f"{x.shape} and {y.shape}; use BatchMatMul or ops.matmul")
        return _product(x, y, self.transpose_a, self.transpose_b)


class BatchMatMul(MatMul):
    """``BatchMatMul(transpose_a=False, transpose_b=False)(x, y)``: batched matrix product
    over the last two axes."""

    def compute(self, x, y):
        x, y = _tensor(x, self.name, "x"), _tensor(y, self.name, "y")
        return _product(x, y, self.transpose_a, self.transpose_b)


def _product(x, y, transpose_a: bool, transpose_b: bool):
    if transpose_a:
        x = _ug.transpose(x, -1, -2)
    if transpose_b:
        y = _ug.transpose(y, -1, -2)
    return _ug.matmul(x, y)


class _Reduce(Primitive):
    _reduce: Callable

    def __init__(self, keep_dims: bool = False):
        super().__init__()
        self.keep_dims = _bool(keep_dims, self.name, "keep_dims")
        self.attrs["keep_dims"] = self.keep_dims

    def compute(self, x, axis=()):
        return type(self)._reduce(_tensor(x, self.name), axis=_axes(axis),
                                  keepdims=self.keep_dims)


class ReduceSum(_Reduce):
    """``ReduceSum(keep_dims=False)(x, axis=())``: sum over ``axis`` (all axes for ``()``)."""

    _reduce = staticmethod(_ug.sum)


class ReduceMean(_Reduce):
    """``ReduceMean(keep_dims=False)(x, axis=())``: mean over ``axis`` (all for ``()``)."""

    _reduce = staticmethod(_ug.mean)


class ReduceMax(_Reduce):
    """``ReduceMax(keep_dims=False)(x, axis=())``: maximum over ``axis``."""

    _reduce = staticmethod(_ug.amax)


class ReduceMin(_Reduce):
    """``ReduceMin(keep_dims=False)(x, axis=())``: minimum over ``axis``."""

    _reduce = staticmethod(_ug.amin)


class ReduceProd(_Reduce):
    """``ReduceProd(keep_dims=False)(x, axis=())``: product over ``axis``."""

    _reduce = staticmethod(_ug.prod)


class Softmax(Primitive):
    """``Softmax(axis=-1)(x)``: exp(x) normalized to sum 1 along ``axis``."""

    def __init__(self, axis: int | tuple = -1):
        super().__init__()
        if isinstance(axis, (tuple, list)):
            if len(axis) != 1:
                raise ValueError(f"For 'Softmax', 'axis' must be an int or a tuple of one int, "
                                 f"but got {axis!r}")
            axis = axis[0]
        self.axis = _int(axis, self.name, "axis")
        self.attrs["axis"] = (self.axis,)

    def compute(self, x):
        return type(self)._fn(_tensor(x, self.name), self.axis)

    _fn = staticmethod(_ug.softmax)


class LogSoftmax(Softmax):
    """``LogSoftmax(axis=-1)(x)``: the log of the softmax along ``axis``."""

    _fn = staticmethod(_ug.log_softmax)


class Reshape(Primitive):
    """``Reshape()(x, shape)``: the same values in a new shape (one entry may be -1)."""

    def compute(self, x, shape):
        return _ug.reshape(_tensor(x, self.name), _shape_arg(shape, self.name))


class Transpose(Primitive):
    """``Transpose()(x, input_perm)``: permute the axes."""

    def compute(self, x, input_perm):
        return _ug.permute(_tensor(x, self.name), *_shape_arg(input_perm, self.name,
                                                              "input_perm"))


class Cast(Primitive):
    """``Cast()(x, dtype)``: convert to ``dtype``."""

    def compute(self, x, dtype):
        return _ug.cast(_tensor(x, self.name), to_ms_dtype(dtype))


class Concat(Primitive):
    """``Concat(axis=0)(tensors)``: join a tuple of tensors along ``axis``."""

    def __init__(self, axis: int = 0):
        super().__init__()
        self.axis = _int(axis, "Concat", "axis")
        self.attrs["axis"] = self.axis

    def compute(self, tensors):
        return _ug.cat(_tensors(tensors, self.name, "input_x"), axis=self.axis)


class Stack(Concat):
    """``Stack(axis=0)(tensors)``: stack same-shaped tensors along a new ``axis``."""

    def compute(self, tensors):
        return _ug.stack(_tensors(tensors, self.name, "input_x"), axis=self.axis)


class ExpandDims(Primitive):
    """``ExpandDims()(x, axis)``: insert an axis of length 1."""

    def compute(self, x, axis):
        return _ug.unsqueeze(_tensor(x, self.name), _int(axis, self.name, "axis"))


class Squeeze(Primitive):
    """``Squeeze(axis=())(x)``: remove axes of length 1 (all of them for ``()``)."""

    def __init__(self, axis: int | tuple = ()):
        super().__init__()
        self.axis = (axis,) if isinstance(axis, int) else tuple(axis)
        self.attrs["axis"] = self.axis

    def compute(self, x):
        return squeeze(_tensor(x, self.name), self.axis or None)


class Tile(Primitive):
    """``Tile()(x, multiples)``: repeat the tensor ``multiples[i]`` times along axis i."""

    def compute(self, x, multiples):
        return _ug.tile(_tensor(x, self.name), _shape_arg(multiples, self.name, "multiples"))


class BroadcastTo(Primitive):
    """``BroadcastTo(shape)(x)``: broadcast to ``shape``."""

    def __init__(self, shape):
        super().__init__()
        self.shape = _shape_arg(shape, "BroadcastTo")
        self.attrs["shape"] = self.shape

    def compute(self, x):
        return _ug.broadcast_to(_tensor(x, self.name), self.shape)


class Shape(Primitive):
    """``Shape()(x)``: the shape as a tuple of ints."""

    def compute(self, x):
        return tuple(_tensor(x, self.name).shape)


class Ones(Primitive):
    """``Ones()(shape, dtype)``: a tensor of ones."""

    def compute(self, shape, dtype=None):
        return ones(shape, dtype)


class Zeros(Primitive):
    """``Zeros()(shape, dtype)``: a tensor of zeros."""

    def compute(self, shape, dtype=None):
        return zeros(shape, dtype)


class Fill(Primitive):
    """``Fill()(dtype, shape, value)``: a tensor of ``value``."""

    def compute(self, dtype, shape, value):
        return fill(dtype, shape, value)


class Select(Primitive):
    """``Select()(condition, x, y)``: x where ``condition`` holds, else y."""

    def compute(self, condition, x, y):
        return select(condition, x, y)


class Assign(Primitive):
    """``Assign()(variable, value)``: write ``value`` into the Parameter ``variable``."""

    def compute(self, variable, value):
        return assign(variable, value)


class AssignAdd(Primitive):
    """``AssignAdd()(variable, value)``: add ``value`` to the Parameter ``variable``."""

    def compute(self, variable, value):
        return assign_add(variable, value)


class HyperMap(Primitive):
    """``HyperMap([ops])(fn, *sequences)``: ``fn`` applied elementwise over the sequences
    (nested tuples/lists are mapped recursively); with an ``ops`` given at construction
    the call takes only the sequences.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> ops.HyperMap()(ops.add, (ms.Tensor(1.0), ms.Tensor(2.0)), (1.0, 1.0))
        (Tensor(shape=[], dtype=Float32, value= 2), Tensor(shape=[], dtype=Float32, value= 3))
    """

    def __init__(self, ops: Callable | None = None, reverse: bool = False):
        super().__init__()
        if ops is not None and not callable(ops):
            raise TypeError(f"For 'HyperMap', 'ops' must be callable, but got "
                            f"{type(ops).__name__}")
        self.ops = ops

    def compute(self, *args):
        fn, sequences = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        if not callable(fn):
            raise TypeError(f"For 'HyperMap', the function must be callable, but got "
                            f"{type(fn).__name__}")
        return _hyper_map(fn, sequences)


def _hyper_map(fn: Callable, sequences: tuple):
    first = sequences[0] if sequences else None
    if isinstance(first, (tuple, list)) and not isinstance(first, _UgTensor):
        if builtins.any(len(s) != len(first) for s in sequences):
            raise ValueError("For 'HyperMap', the sequences must have the same length")
        mapped = [_hyper_map(fn, items) for items in zip(*sequences)]
        return tuple(mapped) if isinstance(first, tuple) else mapped
    return fn(*sequences)


class Depend(Primitive):
    """``Depend()(value, expr)``: ``value`` (execution order is program order here)."""

    def compute(self, value, expr):
        return value


# ============================================================================ functions


def _ms(fn: Callable) -> Callable:
    """A function whose results are MindSpore Tensors."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        return to_ms(fn(*args, **kwargs))
    return call


@_ms
def add(input, other):
    """``input + other`` with broadcasting."""
    return _ug.add(_operand(input, "add", "input"), _operand(other, "add", "other"))


@_ms
def sub(input, other):
    """``input - other`` with broadcasting."""
    return _ug.sub(_operand(input, "sub", "input"), _operand(other, "sub", "other"))


@_ms
def mul(input, other):
    """``input * other`` with broadcasting."""
    return _ug.mul(_operand(input, "mul", "input"), _operand(other, "mul", "other"))


@_ms
def div(input, other, *, rounding_mode=None):
    """``input / other``; ``rounding_mode`` None, ``'floor'`` or ``'trunc'``."""
    result = _ug.div(_operand(input, "div", "input"), _operand(other, "div", "other"))
    if rounding_mode is None:
        return result
    if rounding_mode == "floor":
        return _ug.floor(result)
    if rounding_mode == "trunc":
        return _ug.trunc(result)
    raise ValueError(f"For 'div', 'rounding_mode' must be None, 'floor' or 'trunc', but got "
                     f"{rounding_mode!r}")


@_ms
def pow(input, exponent):  # noqa: A001 - MindSpore's name
    """``input ** exponent`` with broadcasting."""
    return _ug.pow(_operand(input, "pow", "input"), _operand(exponent, "pow", "exponent"))


@_ms
def maximum(input, other):
    """Elementwise maximum."""
    return _ug.maximum(_operand(input, "maximum", "input"), _operand(other, "maximum", "other"))


@_ms
def minimum(input, other):
    """Elementwise minimum."""
    return _ug.minimum(_operand(input, "minimum", "input"), _operand(other, "minimum", "other"))


def _unary_function(name: str, fn: Callable) -> Callable:
    def function(input):
        return to_ms(fn(_tensor(input, name, "input")))
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``ops.{name}(input)``: elementwise, as ``ops.{name.capitalize()}``."
    return function


exp = _unary_function("exp", _ug.exp)
log = _unary_function("log", _ug.log)
sqrt = _unary_function("sqrt", _ug.sqrt)
rsqrt = _unary_function("rsqrt", _ug.rsqrt)
square = _unary_function("square", _ug.square)
sin = _unary_function("sin", _ug.sin)
cos = _unary_function("cos", _ug.cos)
acos = _unary_function("acos", _ug.acos)
arccos = _unary_function("arccos", _ug.arccos)
asin = _unary_function("asin", _ug.asin)
arcsin = _unary_function("arcsin", _ug.arcsin)
atan = _unary_function("atan", _ug.atan)
arctan = _unary_function("arctan", _ug.arctan)
sinh = _unary_function("sinh", _ug.sinh)
cosh = _unary_function("cosh", _ug.cosh)
asinh = _unary_function("asinh", _ug.asinh)
arcsinh = _unary_function("arcsinh", _ug.arcsinh)
acosh = _unary_function("acosh", _ug.acosh)
arccosh = _unary_function("arccosh", _ug.arccosh)
atanh = _unary_function("atanh", _ug.atanh)
arctanh = _unary_function("arctanh", _ug.arctanh)
log2 = _unary_function("log2", _ug.log2)
log10 = _unary_function("log10", _ug.log10)
exp2 = _unary_function("exp2", _ug.exp2)
erfc = _unary_function("erfc", _ug.erfc)
sinc = _unary_function("sinc", _ug.sinc)
deg2rad = _unary_function("deg2rad", _ug.deg2rad)
rad2deg = _unary_function("rad2deg", _ug.rad2deg)
frac = _unary_function("frac", _ug.frac)
signbit = _unary_function("signbit", _ug.signbit)
sgn = _unary_function("sgn", _ug.sgn)
nan_to_num = _unary_function("nan_to_num", _ug.nan_to_num)
lgamma = _unary_function("lgamma", _ug.lgamma)
digamma = _unary_function("digamma", _ug.digamma)
erfinv = _unary_function("erfinv", _ug.erfinv)
bessel_i0 = _unary_function("bessel_i0", _ug.i0)
bessel_i0e = _unary_function("bessel_i0e", _ug.i0e)
bessel_i1 = _unary_function("bessel_i1", _ug.i1)
bessel_i1e = _unary_function("bessel_i1e", _ug.i1e)
bessel_j0 = _unary_function("bessel_j0", _ug.bessel_j0)
bessel_j1 = _unary_function("bessel_j1", _ug.bessel_j1)
bessel_y0 = _unary_function("bessel_y0", _ug.bessel_y0)
bessel_y1 = _unary_function("bessel_y1", _ug.bessel_y1)
bessel_k0 = _unary_function("bessel_k0", _ug.modified_bessel_k0)
bessel_k0e = _unary_function("bessel_k0e", _ug.scaled_modified_bessel_k0)
bessel_k1 = _unary_function("bessel_k1", _ug.modified_bessel_k1)
bessel_k1e = _unary_function("bessel_k1e", _ug.scaled_modified_bessel_k1)


@_ms
def igamma(input, other):
    """The regularized lower incomplete gamma function ``P(input, other)`` (differentiable
    with respect to ``other``)."""
    return _ug.igamma(_operand(input, "igamma", "input"), _operand(other, "igamma", "other"))


@_ms
def igammac(input, other):
    """The regularized upper incomplete gamma function ``Q(input, other) = 1 - P``."""
    return _ug.igammac(_operand(input, "igammac", "input"),
                       _operand(other, "igammac", "other"))


@_ms
def zeta(input, other):
    """The Hurwitz zeta function ``sum_k (k + other) ** -input``."""
    return _ug.zeta(_operand(input, "zeta", "input"), _operand(other, "zeta", "other"))


@_ms
def xlogy(input, other):
    """``input * log(other)``, 0 where ``input`` is 0."""
    return _ug.xlogy(_operand(input, "xlogy", "input"), _operand(other, "xlogy", "other"))
tanh = _unary_function("tanh", _ug.tanh)
sigmoid = _unary_function("sigmoid", _ug.sigmoid)
relu = _unary_function("relu", _ug.relu)
abs = _unary_function("abs", _ug.abs)  # noqa: A001
neg = _unary_function("neg", _ug.neg)
reciprocal = _unary_function("reciprocal", _ug.reciprocal)
sign = _unary_function("sign", _ug.sign)
erf = _unary_function("erf", _ug.erf)
floor = _unary_function("floor", _ug.floor)
isfinite = _unary_function("isfinite", _ug.isfinite)


@_ms
def matmul(input, other):
    """Matrix product with NumPy's broadcasting rules."""
    return _ug.matmul(_tensor(input, "matmul", "input"), _tensor(other, "matmul", "other"))


@_ms
def sum(input, dim=None, keepdim: bool = False, *, dtype=None):  # noqa: A001
    """Sum over ``dim`` (an int, a tuple, or None for all axes)."""
    return _ug.sum(_tensor(input, "sum", "input"), axis=_axes(dim), keepdims=keepdim,
                   dtype=None if dtype is None else to_ms_dtype(dtype))


@_ms
def mean(input, axis=None, keep_dims: bool = False):
    """Mean over ``axis`` (an int, a tuple, or None for all axes)."""
    return _ug.mean(_tensor(input, "mean", "input"), axis=_axes(axis), keepdims=keep_dims)


@_ms
def prod(input, axis=None, keep_dims: bool = False):
    """Product over ``axis``."""
    return _ug.prod(_tensor(input, "prod", "input"), axis=_axes(axis), keepdims=keep_dims)


@_ms
def amax(input, axis=None, keepdims: bool = False):
    """Maximum over ``axis``."""
    return _ug.amax(_tensor(input, "amax", "input"), axis=_axes(axis), keepdims=keepdims)


@_ms
def amin(input, axis=None, keepdims: bool = False):
    """Minimum over ``axis``."""
    return _ug.amin(_tensor(input, "amin", "input"), axis=_axes(axis), keepdims=keepdims)


@_ms
def argmax(input, dim=None, keepdim: bool = False):
    """Index of the maximum (over the flattened tensor when ``dim`` is None)."""
    return _ug.argmax(_tensor(input, "argmax", "input"), axis=dim, keepdims=keepdim)


def reduce_sum(input, axis=(), keep_dims: bool = False):
    """``ReduceSum(keep_dims)(input, axis)`` as a function."""
    return ReduceSum(keep_dims)(input, axis)


def reduce_mean(input, axis=(), keep_dims: bool = False):
    """``ReduceMean(keep_dims)(input, axis)`` as a function."""
    return ReduceMean(keep_dims)(input, axis)


@_ms
def reshape(input, shape):
    """The same values in ``shape`` (one entry may be -1)."""
    return _ug.reshape(_tensor(input, "reshape", "input"), _shape_arg(shape, "reshape"))


@_ms
def transpose(input, input_perm):
    """Permute the axes of ``input`` by ``input_perm``."""
    return _ug.permute(_tensor(input, "transpose", "input"),
                       *_shape_arg(input_perm, "transpose", "input_perm"))


@_ms
def permute(input, axis):
    """Permute the axes of ``input`` (``axis`` is the new order)."""
    return _ug.permute(_tensor(input, "permute", "input"), *_shape_arg(axis, "permute", "axis"))


@_ms
def expand_dims(input_x, axis: int):
    """Insert an axis of length 1 at ``axis``."""
    return _ug.unsqueeze(_tensor(input_x, "expand_dims", "input_x"),
                         _int(axis, "expand_dims", "axis"))


@_ms
def unsqueeze(input, dim: int):
    """Insert an axis of length 1 at ``dim``."""
    return _ug.unsqueeze(_tensor(input, "unsqueeze", "input"), _int(dim, "unsqueeze", "dim"))


@_ms
def squeeze(input, axis=None):
    """Remove axes of length 1 (all of them, or those in ``axis``)."""
    x = _tensor(input, "squeeze", "input")
    if isinstance(axis, (tuple, list)):
        for a in sorted((_int(a, "squeeze", "axis") % builtins.max(x.ndim, 1) for a in axis),
                        reverse=True):
            if x.shape[a] != 1:
                raise ValueError(f"For 'squeeze', the axis {a} of shape {x.shape} has length "
                                 f"{x.shape[a]}, not 1")
            x = _ug.squeeze(x, a)
        return x
    return _ug.squeeze(x, axis)


@_ms
def flatten(input, order: str = "C", *, start_dim: int = 1, end_dim: int = -1):
    """Merge axes ``start_dim..end_dim`` into one (MindSpore's default keeps axis 0)."""
    if order != "C":
        raise ValueError(f"For 'flatten', only order='C' is supported, but got {order!r}")
    return _ug.flatten(_tensor(input, "flatten", "input"), start_dim, end_dim)


@_ms
def cat(tensors, axis: int = 0):
    """Join a tuple or list of tensors along ``axis``."""
    return _ug.cat(_tensors(tensors, "cat", "tensors"), axis=_int(axis, "cat", "axis"))


concat = cat


@_ms
def stack(tensors, axis: int = 0):
    """Stack same-shaped tensors along a new ``axis``."""
    return _ug.stack(_tensors(tensors, "stack", "tensors"), axis=_int(axis, "stack", "axis"))


@_ms
def tile(input, dims):
    """Repeat ``input`` ``dims[i]`` times along axis i."""
    return _ug.tile(_tensor(input, "tile", "input"), _shape_arg(dims, "tile", "dims"))


@_ms
def broadcast_to(input, shape):
    """Broadcast ``input`` to ``shape``."""
    return _ug.broadcast_to(_tensor(input, "broadcast_to", "input"),
                            _shape_arg(shape, "broadcast_to"))


@_ms
def cast(input, dtype):
    """``input`` converted to ``dtype``."""
    return _ug.cast(_tensor(input, "cast", "input"), to_ms_dtype(dtype))


@_ms
def where(condition, input, other):
    """``input`` where ``condition`` holds, else ``other``."""
    return _ug.where(_tensor(condition, "where", "condition"),
                     _operand(input, "where", "input"), _operand(other, "where", "other"))


def select(cond, x, y):
    """``x`` where ``cond`` holds, else ``y`` (``ops.where``)."""
    return where(cond, x, y)


def _dtype_or_default(dtype):
    return to_ms_dtype("float32" if dtype is None else dtype)


@_ms
def ones(shape, dtype=None):
    """A tensor of ones (Float32 unless ``dtype``)."""
    return _ug.ones(_shape_arg(shape, "ones"), dtype=_dtype_or_default(dtype))


@_ms
def zeros(size, dtype=None):
    """A tensor of zeros (Float32 unless ``dtype``)."""
    return _ug.zeros(_shape_arg(size, "zeros", "size"), dtype=_dtype_or_default(dtype))


@_ms
def full(size, fill_value, *, dtype=None):
    """A tensor of ``fill_value``."""
    return _ug.full(_shape_arg(size, "full", "size"), fill_value,
                    dtype=None if dtype is None else to_ms_dtype(dtype))


@_ms
def fill(type, shape, value):  # noqa: A002 - MindSpore's argument name
    """A tensor of ``value`` with dtype ``type``."""
    return _ug.full(_shape_arg(shape, "fill"), value, dtype=to_ms_dtype(type))


@_ms
def ones_like(input, *, dtype=None):
    """Ones with ``input``'s shape (and dtype unless ``dtype``)."""
    return _ug.ones_like(_tensor(input, "ones_like", "input"),
                         dtype=None if dtype is None else to_ms_dtype(dtype))


@_ms
def zeros_like(input, *, dtype=None):
    """Zeros with ``input``'s shape (and dtype unless ``dtype``)."""
    return _ug.zeros_like(_tensor(input, "zeros_like", "input"),
                          dtype=None if dtype is None else to_ms_dtype(dtype))


@_ms
def arange(start=0, end=None, step=1, *, dtype=None):
    """Evenly spaced values in ``[start, end)``."""
    return _ug.arange(start, end, step, dtype=None if dtype is None else to_ms_dtype(dtype))


@_ms
def randn(*size, dtype=None, seed=None):
    """Standard-normal samples of shape ``size`` (seed with ``ms.set_seed``)."""
    shape = _shape_arg(size[0] if len(size) == 1 else size, "randn", "size")
    return _ug.randn(*shape, dtype=_dtype_or_default(dtype))


@_ms
def rand(*size, dtype=None, seed=None):
    """Uniform samples in ``[0, 1)`` of shape ``size``."""
    shape = _shape_arg(size[0] if len(size) == 1 else size, "rand", "size")
    return _ug.rand(*shape, dtype=_dtype_or_default(dtype))


def _seeded(seed, owner: str):
    """``seed=``: None draws from the global generator (``ms.set_seed``), an int from a fresh
    generator seeded with it (the same numbers on every call)."""
    if seed is None:
        return None
    seed = _int(seed, owner, "seed")
    if seed < 0:
        raise ValueError(f"For '{owner}', the 'seed' must be non-negative, but got {seed}")
    return _ug.Generator().manual_seed(seed)


@_ms
def randint(low, high, size, seed=None, *, dtype=None):
    """Integers in ``[low, high)`` of shape ``size`` (a tuple); int64 unless ``dtype``."""
    if not isinstance(size, tuple):
        raise TypeError(f"For 'randint', the 'size' must be tuple, but got "
                        f"{type(size).__name__}")
    return _ug.randint(_int(low, "randint", "low"), _int(high, "randint", "high"), size,
                       generator=_seeded(seed, "randint"),
                       dtype=None if dtype is None else to_ms_dtype(dtype))


@_ms
def randperm(n, seed=0, offset=0, dtype=None):
    """A random permutation of ``0 .. n-1`` (int64 unless ``dtype``); ``n`` must be positive.
    ``seed=0`` (the default) draws from the global generator; ``offset`` is not used."""
    if isinstance(n, _UgTensor):
        n = n.item()
    n = _int(n, "randperm", "n")
    if n <= 0:
        raise ValueError(f"For 'randperm', the 'n' must be positive, but got {n}")
    return _ug.randperm(n, generator=_seeded(seed or None, "randperm"),
                        dtype=None if dtype is None else to_ms_dtype(dtype))


@_ms
def multinomial(input, num_samples, replacement=True, seed=None):
    """``num_samples`` category indices (int64) per row of a 1-D or 2-D ``input`` of weights."""
    return _ug.multinomial(_tensor(input, "multinomial", "input"),
                           _int(num_samples, "multinomial", "num_samples"),
                           _bool(replacement, "multinomial", "replacement"),
                           generator=_seeded(seed, "multinomial"))


@_ms
def bernoulli(input, p=0.5, seed=None):
    """0/1 samples with ``input``'s shape and dtype: 1 with probability ``p`` (a float, or a
    tensor of ``input``'s shape)."""
    x = _tensor(input, "bernoulli", "input")
    generator = _seeded(seed, "bernoulli")
    if isinstance(p, _UgTensor):
        if tuple(p.shape) != tuple(x.shape):
            raise ValueError(f"For 'bernoulli', the shape of 'p' {tuple(p.shape)} must be the "
                             f"shape of 'input' {tuple(x.shape)}")
        return _ug.cast(_ug.bernoulli(p, generator=generator), x.dtype)
    if not 0 <= p <= 1:
        raise ValueError(f"For 'bernoulli', the 'p' must be in [0, 1], but got {p}")
    return _ug.cast(_ug.bernoulli(_ug.zeros(*x.shape, dtype="float64"), p,
                                  generator=generator), x.dtype)


@_ms
def normal(shape, mean, stddev, seed=None):
    """Samples of ``N(mean, stddev**2)``, shaped as ``shape`` broadcast with ``mean`` and
    ``stddev``."""
    shape = _shape_arg(shape, "normal", "shape")
    mean_t = mean if isinstance(mean, _UgTensor) else Tensor(float(mean))
    std_t = stddev if isinstance(stddev, _UgTensor) else Tensor(float(stddev))
    target = np.broadcast_shapes(shape, tuple(mean_t.shape), tuple(std_t.shape))
    noise = _ug.randn(*target, generator=_seeded(seed, "normal"), dtype=mean_t.dtype)
    return mean_t + std_t * noise


@_ms
def softmax(input, axis: int = -1, *, dtype=None):
    """Softmax along ``axis``."""
    x = _tensor(input, "softmax", "input")
    if dtype is not None:
        x = _ug.cast(x, to_ms_dtype(dtype))
    return _ug.softmax(x, _int(axis, "softmax", "axis"))


@_ms
def log_softmax(logits, axis: int = -1):
    """Log of the softmax along ``axis``."""
    return _ug.log_softmax(_tensor(logits, "log_softmax", "logits"),
                           _int(axis, "log_softmax", "axis"))


@_ms
def mse_loss(input, target, reduction: str = "mean"):
    """Mean squared error; ``reduction`` ``'mean'``, ``'sum'`` or ``'none'``."""
    return _F.mse_loss(_tensor(input, "mse_loss", "input"),
                       _tensor(target, "mse_loss", "target"), reduction=reduction)


@_ms
def l1_loss(input, target, reduction: str = "mean"):
    """Mean absolute error; ``reduction`` ``'mean'``, ``'sum'`` or ``'none'``."""
    return _F.l1_loss(_tensor(input, "l1_loss", "input"), _tensor(target, "l1_loss", "target"),
                      reduction=reduction)


@_ms
def cross_entropy(input, target, weight=None, ignore_index: int = -100,
                  reduction: str = "mean", label_smoothing: float = 0.0):
    """Cross entropy of logits ``input`` against class indices or probabilities ``target``."""
    return _F.cross_entropy(_tensor(input, "cross_entropy", "input"),
                            _tensor(target, "cross_entropy", "target"), weight=weight,
                            ignore_index=ignore_index, reduction=reduction,
                            label_smoothing=label_smoothing)


@_ms
def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,
                                     reduction: str = "mean"):
    """Binary cross entropy of logits ``input`` against ``target`` in [0, 1]."""
    return _F.binary_cross_entropy_with_logits(
        _tensor(input, "binary_cross_entropy_with_logits", "input"),
        _tensor(target, "binary_cross_entropy_with_logits", "target"), weight=weight,
        reduction=reduction, pos_weight=pos_weight)


@_ms
def dropout(input, p: float = 0.5, training: bool = True, seed=None):
    """Zero each element with probability ``p`` (scaling the rest) when ``training``."""
    return _F.dropout(_tensor(input, "dropout", "input"), p=p, training=training)


@_ms
def stop_gradient(value):
    """``value`` unchanged, with no gradient flowing back through it (any pytree).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> ms.grad(lambda x: x * ops.stop_gradient(x))(ms.Tensor(3.0))
        Tensor(shape=[], dtype=Float32, value= 3)
    """
    return _ug_stop_gradient(value)


@_ms
def clip_by_global_norm(x, clip_norm: float = 1.0, use_norm=None):
    """Scale the tensors of ``x`` so that their global L2 norm is at most ``clip_norm``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> clipped = ops.clip_by_global_norm((ms.Tensor([3.0, 4.0]),), 1.0)
        >>> type(clipped), print(clipped[0])
        [0.6 0.8]
        (<class 'tuple'>, None)
    """
    return _clipping.clip_by_global_norm(x, clip_norm, use_norm)


@_ms
def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """Clamp a Tensor (or each Tensor of a tuple/list) to ``[clip_value_min, clip_value_max]``."""
    return _clipping.clip_by_value(x, clip_value_min, clip_value_max)


@_ms
def clamp(input, min=None, max=None):  # noqa: A002
    """Clamp ``input`` to ``[min, max]`` (``ops.clip`` too)."""
    return _clipping.clip_by_value(input, min, max)


clip = clamp


@_ms
def all(input, axis=None, keep_dims: bool = False):  # noqa: A001
    """Whether every element (along ``axis``) is true."""
    return _ug.all(_tensor(input, "all", "input"), axis=_axes(axis), keepdims=keep_dims)


@_ms
def any(input, axis=None, keep_dims: bool = False):  # noqa: A001
    """Whether any element (along ``axis``) is true."""
    return _ug.any(_tensor(input, "any", "input"), axis=_axes(axis), keepdims=keep_dims)


def assign(variable, value):
    """Write ``value`` into the Parameter ``variable`` (cast to its dtype); returns it."""
    if not isinstance(variable, _UgParameter):
        raise TypeError(f"For 'Assign', 'variable' must be a Parameter, but got "
                        f"{type(variable).__name__}")
    return to_ms(variable).set_data(value)


def assign_add(variable, value):
    """Add ``value`` to the Parameter ``variable`` in place; returns it."""
    if not isinstance(variable, _UgParameter):
        raise TypeError(f"For 'AssignAdd', 'variable' must be a Parameter, but got "
                        f"{type(variable).__name__}")
    increment = _operand(value, "AssignAdd", "value")
    return to_ms(variable).set_data(variable.detach() + increment)


def depend(value, expr):
    """``value`` (MindSpore uses it to order side effects; here code runs in order)."""
    return value


partial = functools.partial

# the loop operators (WhileLoop, ForiLoop, Scan) build on Primitive
from ._control_flow_ops import *  # noqa: E402, F403

# the decompositions (svd, qr, pinv) use the helpers above
from ._decompositions_ops import *  # noqa: E402, F403

# the composites (HookBackward, MultitypeFuncGraph, Map, Partial) build on Primitive
from ._functional_composite import *  # noqa: E402, F403

# the functions spelled from tables over the core (atan2, max, std...; det, norm, hfft2...;
# celu, conv2d, avg_pool2d, huber_loss...; chunk, gather, eye...)
from ._functional_linalg_more import *  # noqa: E402, F403
from ._functional_more import *  # noqa: E402, F403
from ._functional_nn_more import *  # noqa: E402, F403
from ._functional_scatter_more import *  # noqa: E402, F403
from ._functional_shapes_more import *  # noqa: E402, F403

# the integer, bitwise and statistics functions (bitwise_and, gcd, cov, cdist...) use the
# helpers above, as do the layout functions (hstack, meshgrid, diag, roll, tensor_split...)
from ._integer_statistics_ops import *  # noqa: E402, F403
from ._layout_ops import *  # noqa: E402, F403

# the solvers and matrix functions (matrix_exp, lu_solve, cholesky_solve...) likewise
from ._linalg_solvers_ops import *  # noqa: E402, F403

# the predicates, spacings and products (isneginf, logspace, tensor_dot, addmm...) likewise
from ._numeric_products_ops import *  # noqa: E402, F403

# the operator classes of one table (Sin(), ArgMaxWithValue()...): their functions, lazily
from ._primitive_classes import *  # noqa: E402, F403

# the scatter / mask functions (index_add, tensor_scatter_elements, nonzero...) likewise
from ._scatter_ops import *  # noqa: E402, F403

# the sorting functions (sort, topk, unique, median, quantile...) use the helpers above
from ._sorting_ops import *  # noqa: E402, F403

# the complex numbers and Fourier transforms (real, complex, polar, fft, rfft2, fftshift...)
from ._spectral_complex_ops import *  # noqa: E402, F403

# the writes into views (select_scatter, slice_scatter, diagonal_scatter) likewise
from ._views_copies_ops import *  # noqa: E402, F403

__all__ = [name for name in dir() if not name.startswith("_") and name not in {
    "annotations", "builtins", "functools", "numbers", "np", "Callable", "Tensor", "to_ms",
    "to_ms_dtype"}]
__all__ += ["GradOperation", "grad", "value_and_grad", "vmap"]
__all__ = sorted(set(__all__))
