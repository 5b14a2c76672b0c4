"""Integer and bitwise math, and the decomposition of floats, with PyTorch's semantics.

Primitives: the bitwise ops (``bitwise_and``/``or``/``xor``/``not``), the shifts (a
shift by a negative amount or by the bit width or more gives 0, or the sign for a
right shift, as in PyTorch), ``gcd`` and ``lcm`` (all non-differentiable, integer
or bool only), ``frexp``'s mantissa (gradient ``g / 2 ** exponent``, as PyTorch)
and exponent, and ``nextafter`` (the gradient passes to ``input`` where it differs from
``other``, as PyTorch).
Composites: ``ldexp`` (``input * 2 ** other``) and ``fix`` (``trunc``).

Floating inputs to the integer ops raise PyTorch's ``NotImplementedError`` (a
``RuntimeError``): ``"bitwise_and_cpu" not implemented for 'Float'``.

Example:
    >>> import unigrad as ug
    >>> ug.bitwise_and(ug.tensor([12, 10]), 6)
    tensor([4, 2])
    >>> ug.tensor([1, 2]) << 3
    tensor([ 8, 16])
    >>> ug.gcd(ug.tensor([12, 7]), ug.tensor([18, 0]))
    tensor([6, 7])
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..backend import default_float
from ..tensor import Tensor
from . import elementwise as _elementwise
from ._dtypes import coerce_operands, float_operand, torch_dtype_name
from ._primitive import PRIMITIVES, Primitive, bind
from ._shape_rules import elementwise_rule, shape_of
from .registry import op

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift",
           "bitwise_right_shift", "gcd", "lcm", "frexp", "ldexp", "nextafter", "fix"]

_same = elementwise_rule()

def _check_kinds(kernel: str, operands, kinds: str):
    """``NotImplementedError`` (PyTorch's) unless every Tensor operand's dtype kind is in
    ``kinds`` (``"biu"``: bool and integers)."""
    for value in operands:
        if isinstance(value, Tensor) and value._data.dtype.kind not in kinds:
            raise NotImplementedError(f'"{kernel}_cpu" not implemented for '
                                      f"'{torch_dtype_name(value._data.dtype)}'")


# ----------------------------------------------------------------------------- primitives

def _integer_binary(name: str, kernel, symbol: str | None = None, ufunc: str | None = None):
    """A non-differentiable elementwise primitive on integers (and bools)."""
    scalar = f"({{0}} {symbol} {{1}})" if symbol else None
    return Primitive(name, kernel, _same, kind="elementwise", differentiable=False,
                     scalar=scalar, ufunc=ufunc)


bitwise_and_p = _integer_binary("bitwise_and", np.bitwise_and, "&", "bitwise_and")
bitwise_or_p = _integer_binary("bitwise_or", np.bitwise_or, "|", "bitwise_or")
bitwise_xor_p = _integer_binary("bitwise_xor", np.bitwise_xor, "^", "bitwise_xor")
gcd_p = _integer_binary("gcd", np.gcd, ufunc="gcd")
lcm_p = _integer_binary("lcm", np.lcm, ufunc="lcm")


def _invert_scalar(operands: list, params: dict, dtype) -> str:
    return f"(not {operands[0]})" if np.dtype(dtype) == np.bool_ else f"(~{operands[0]})"


bitwise_not_p = Primitive("bitwise_not", np.invert, _same, kind="elementwise",
                          differentiable=False, scalar=_invert_scalar, ufunc="invert")


def _shift_impl(left: bool):
    """PyTorch's shifts: amounts outside ``[0, bits)`` give 0 (left, and right of
    non-negative or unsigned values) or -1 (right of negative signed values)."""
    def impl(x, y):
        dtype = np.result_type(x, y)
        x = x.astype(dtype, copy=False) if hasattr(x, "astype") else np.asarray(x, dtype)
        bits = dtype.itemsize * 8
        outside = (y < 0) | (y >= bits)
        amount = np.where(outside, 0, y).astype(dtype, copy=False)
        if left:
            shifted, overflow = np.left_shift(x, amount), 0
        else:
            shifted = np.right_shift(x, amount)
            overflow = np.right_shift(x, bits - 1) if dtype.kind == "i" else 0
        return np.where(outside, overflow, shifted).astype(dtype, copy=False)
    return impl


left_shift_p = Primitive("bitwise_left_shift", _shift_impl(True), _same, kind="elementwise",
                         differentiable=False)
right_shift_p = Primitive("bitwise_right_shift", _shift_impl(False), _same,
                          kind="elementwise", differentiable=False)


def _frexp_exponent_impl(x):
    return np.frexp(x)[1].astype(np.int32, copy=False)


frexp_exponent_p = Primitive("frexp_exponent", _frexp_exponent_impl,
                             lambda x: (shape_of(x), np.dtype(np.int32)), kind="elementwise",
                             differentiable=False)


def _mantissa_vjp(g, out, needs, x):
    # PyTorch: ``grad / exponent.exp2()``, the power in the default float dtype (so 0 for
    # exponents of float64 values beyond float32's range)
    exponent = _elementwise.cast(bind(frexp_exponent_p, x), default_float())
    with np.errstate(over="ignore", divide="ignore"):  # (inf and 0 as in PyTorch)
        return (g / _elementwise.cast(bind(PRIMITIVES["exp2"], exponent), x.dtype),)


frexp_mantissa_p = Primitive("frexp_mantissa", lambda x: np.frexp(x)[0], _same,
                             kind="elementwise", vjp=_mantissa_vjp, backward_name="FrexpBackward0")

# PyTorch: the gradient passes to ``input`` where it differs from ``other`` (0 where they are
# equal), none reaches ``other``
nextafter_p = Primitive("nextafter", np.nextafter, _same, kind="elementwise",
                        vjp=lambda g, out, needs, x, y: (
                            _elementwise.where(x != y, g, 0.0) if needs[0] else None,
                            g * 0.0 if needs[1] else None),
                        ufunc="nextafter")


# ============================================================================= public functions

FrexpResult = namedtuple("frexp", ("mantissa", "exponent"))


def _integer_operands(kernel: str, input, other):
    operands = coerce_operands(input, other)
    if not any(isinstance(value, Tensor) for value in operands):
        raise TypeError(f"{kernel}(): expected at least one Tensor argument")
    _check_kinds(kernel, operands, "biu")
    return operands


def _both_bool(operands) -> bool:
    return all((value._data.dtype == np.bool_) if isinstance(value, Tensor)
               else isinstance(value, bool) for value in operands)


def _bitwise(name: str, prim: Primitive, logical: str, example: str, printed: str):
    logical_prim = PRIMITIVES[logical]

    def bitwise(input, other):
        operands = _integer_operands(name, input, other)
        # on bools the logical op is the same: graphs keep the primitive masks always used
        return bind(logical_prim if _both_bool(operands) else prim, *operands)
    bitwise.__name__ = bitwise.__qualname__ = name
    bitwise.__doc__ = (f"Elementwise bitwise ``{name[8:]}`` of integer or bool tensors "
                       f"(no gradient; floats raise).\n\n"
                       f"Example:\n"
                       f"    >>> import unigrad as ug\n"
                       f"    >>> ug.{name}({example})\n"
                       f"    {printed}\n")
    bitwise.__annotations__ = {"input": "Tensor | int | bool", "other": "Tensor | int | bool",
                               "return": "Tensor"}
    return op(methods=(name,), inplace=(name + "_",))(bitwise)


bitwise_and = _bitwise("bitwise_and", bitwise_and_p, "logical_and",
                       "ug.tensor([12, -3]), 6", "tensor([4, 4])")
bitwise_or = _bitwise("bitwise_or", bitwise_or_p, "logical_or",
                      "ug.tensor([12, -3]), 6", "tensor([14, -1])")
bitwise_xor = _bitwise("bitwise_xor", bitwise_xor_p, "logical_xor",
                       "ug.tensor([12, -3]), 6", "tensor([10, -5])")


@op(methods=("bitwise_not",), inplace=("bitwise_not_",))
def bitwise_not(input: Tensor) -> Tensor:
    """Elementwise bitwise not (``~``): ``-input - 1`` for integers, logical not for bools.

    Example:
        >>> import unigrad as ug
        >>> ug.bitwise_not(ug.tensor([0, 5, -3]))
        tensor([-1, -6,  2])
    """
    _check_kinds("bitwise_not", (input,), "biu")
    if isinstance(input, Tensor) and input._data.dtype == np.bool_:
        return bind(PRIMITIVES["logical_not"], input)
    return bind(bitwise_not_p, input)


def invert(input: Tensor) -> Tensor:
    """The ``~`` operator: :func:`bitwise_not`, with PyTorch's TypeError for floats."""
    if input._data.dtype.kind not in "biu":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return bitwise_not(input)


def _shift_operands(kernel: str, input, other):
    operands = _integer_operands(kernel, input, other)
    if _both_bool(operands):
        raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'Bool\'')
    return operands


@op(methods=("bitwise_left_shift",), inplace=("bitwise_left_shift_",))
def bitwise_left_shift(input: Tensor | int, other: Tensor | int) -> Tensor:
    """``input << other`` for integers; shifts of the bit width or more, or negative
    shifts, give 0 (as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.bitwise_left_shift(ug.tensor([1, -3]), ug.tensor([4, 1]))
        tensor([16, -6])
    """
    return bind(left_shift_p, *_shift_operands("lshift", input, other))


@op(methods=("bitwise_right_shift",), inplace=("bitwise_right_shift_",))
def bitwise_right_shift(input: Tensor | int, other: Tensor | int) -> Tensor:
    """``input >> other`` for integers (arithmetic: the sign is kept); shifts of the bit
    width or more, or negative shifts, give 0 or -1 (as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> ug.bitwise_right_shift(ug.tensor([16, -16]), 2)
        tensor([ 4, -4])
    """
    return bind(right_shift_p, *_shift_operands("rshift", input, other))


def _tensor_pair(name: str, input, other):
    for position, (argument, value) in enumerate((("input", input), ("other", other)), 1):
        if not isinstance(value, Tensor):
            raise TypeError(f"{name}(): argument '{argument}' (position {position}) must be "
                            f"Tensor, not {type(value).__name__}")
    operands = coerce_operands(input, other)
    _check_kinds(name, operands, "iu")
    return operands


@op(methods=("gcd",), inplace=("gcd_",))
def gcd(input: Tensor, other: Tensor) -> Tensor:
    """The elementwise greatest common divisor of integer tensors (non-negative; ``gcd(0, 0)``
    is 0).

    Example:
        >>> import unigrad as ug
        >>> ug.gcd(ug.tensor([4, -6, 0]), ug.tensor([6, 4, 0]))
        tensor([2, 2, 0])
    """
    return bind(gcd_p, *_tensor_pair("gcd", input, other))


@op(methods=("lcm",), inplace=("lcm_",))
def lcm(input: Tensor, other: Tensor) -> Tensor:
    """The elementwise least common multiple of integer tensors (non-negative; 0 if either
    is 0).

    Example:
        >>> import unigrad as ug
        >>> ug.lcm(ug.tensor([4, -6, 0]), ug.tensor([6, 4, 3]))
        tensor([12, 12,  0])
    """
    return bind(lcm_p, *_tensor_pair("lcm", input, other))


@op(methods=("frexp",))
def frexp(input: Tensor) -> FrexpResult:
    """``(mantissa, exponent)`` with ``input = mantissa * 2 ** exponent``, ``|mantissa|`` in
    ``[0.5, 1)`` (0, inf and NaN keep themselves with exponent 0); the exponent is int32.

    The mantissa is differentiable (gradient ``2 ** -exponent``), as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> ug.frexp(ug.tensor([8.0, -3.0, 0.0]))
        frexp(mantissa=tensor([ 0.5000, -0.7500,  0.0000]), exponent=tensor([4, 2, 0], dtype=unigrad.int32))
    """  # noqa: E501
    if not isinstance(input, Tensor) or input._data.dtype.kind != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    return FrexpResult(bind(frexp_mantissa_p, input), bind(frexp_exponent_p, input))


@op(methods=("ldexp",), inplace=("ldexp_",))
def ldexp(input: Tensor, other: Tensor) -> Tensor:
    """``input * 2 ** other`` (integers compute in the default float dtype); differentiable
    in both arguments, as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> ug.ldexp(ug.tensor([1.0, 3.0]), ug.tensor([2, -1]))
        tensor([4.0000, 1.5000])
    """
    if isinstance(input, Tensor) and isinstance(other, Tensor) and \
            other._data.dtype.kind in "biu":
        # PyTorch: an integer exponent computes in the input's floating dtype
        input = float_operand(input)
        other = _elementwise.cast(other, input._data.dtype)
    return _elementwise.mul(input, _elementwise.pow(2.0, other))


@op(methods=("nextafter",), inplace=("nextafter_",))
def nextafter(input: Tensor, other: Tensor) -> Tensor:
    """The next representable float after ``input`` towards ``other`` (floats only).

    As in PyTorch the gradient passes to ``input`` unchanged (0 where ``input == other``)
    and none reaches ``other``.

    Example:
        >>> import unigrad as ug
        >>> x = ug.nextafter(ug.tensor([1.0], dtype=ug.float64), ug.tensor([2.0], dtype=ug.float64))
        >>> (x - 1.0).item()
        2.220446049250313e-16
    """
    operands = coerce_operands(input, other)
    _check_kinds("nextafter", operands, "f")
    return bind(nextafter_p, *operands)


fix = _elementwise.trunc


def _swap(function):
    def reflected(self, other):
        return function(other, self)
    return reflected


# Python's operators on Tensors (installed by unigrad.ops.methods)
OPERATORS = {
    "__and__": bitwise_and, "__rand__": _swap(bitwise_and),
    "__or__": bitwise_or, "__ror__": _swap(bitwise_or),
    "__xor__": bitwise_xor, "__rxor__": _swap(bitwise_xor),
    "__invert__": invert,
    "__lshift__": bitwise_left_shift, "__rlshift__": _swap(bitwise_left_shift),
    "__rshift__": bitwise_right_shift, "__rrshift__": _swap(bitwise_right_shift),
}
INPLACE_OPERATORS = {"__iand__": "bitwise_and_", "__ior__": "bitwise_or_",
                     "__ixor__": "bitwise_xor_", "__ilshift__": "bitwise_left_shift_",
                     "__irshift__": "bitwise_right_shift_"}
