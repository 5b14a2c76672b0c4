"""Python's operators on :class:`Tensor`, and the Tensor methods that are not ops.

Every op declares its own Tensor method names where it is defined
(:func:`unigrad.ops.registry.op`); this module maps Python's operator protocol
(``__add__``...) to the ops and declares the conversion methods (``float``,
``to``, ``new_zeros``...). :func:`install` attaches the operators.
"""

from __future__ import annotations

from ..autograd.node import present_as
from ..tensor import Tensor
from . import creation, integer_math, shape
from . import elementwise as ew
from .registry import op


def _swap(fn):
    def reflected(self, other):
        return fn(other, self)
    return reflected


def _reflected_sub(self, other):
    """``other - self``; with a number ``other``, PyTorch's ``RsubBackward1`` node over
    ``self`` alone."""
    difference = ew.sub(other, self)
    return difference if isinstance(other, Tensor) else present_as(difference, "RsubBackward1",
                                                                     self)


# ``2 * x`` and ``1 + x`` compute ``x * 2`` and ``x + 1``: the same values, and the tensor
# comes first among the node's operands, as in PyTorch
OPERATORS = {
    "__add__": ew.add, "__radd__": ew.add,
    "__sub__": ew.sub, "__rsub__": _reflected_sub,
    "__mul__": ew.mul, "__rmul__": ew.mul,
    "__truediv__": ew.div, "__rtruediv__": _swap(ew.div),
    "__floordiv__": ew.floor_divide, "__rfloordiv__": _swap(ew.floor_divide),
    "__mod__": ew.remainder, "__rmod__": _swap(ew.remainder),
    "__pow__": ew.pow, "__rpow__": _swap(ew.pow),
    "__neg__": ew.neg, "__pos__": lambda self: self, "__abs__": ew.abs,
    "__eq__": ew.eq, "__ne__": ew.ne, "__lt__": ew.lt, "__le__": ew.le,
    "__gt__": ew.gt, "__ge__": ew.ge,
    **integer_math.OPERATORS,  # & | ^ ~ << >>: bitwise (logical on bools), as in PyTorch
}

_INPLACE_OPERATORS = {"__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_",
                      "__itruediv__": "div_", "__ipow__": "pow_",
                      **integer_math.INPLACE_OPERATORS}

# ----------------------------------------------------------------------------- conversions
# Tensor methods that are not ops of their own: each is declared with the method names
# that reach it (unigrad.ops.registry.op), like every op.

@op(methods=("where",))
def _where(self, condition, other):
    """``Tensor.where(condition, other)``: ``self`` where ``condition`` holds, else ``other``."""
    return ew.where(condition, self, other)


def _cast_to(dtype: str):
    def convert(self):
        return ew.cast(self, dtype)
    convert.__doc__ = f"This tensor as {dtype}."
    return convert


for _method_name, _dtype in (("float", "float32"), ("double", "float64"), ("half", "float16"),
                             ("long", "int64"), ("int", "int32"), ("short", "int16"),
                             ("char", "int8"), ("byte", "uint8"), ("bool", "bool")):
    op(methods=(_method_name,))(_cast_to(_dtype))


@op(methods=("view_as", "reshape_as"))
def _reshape_as(self, other):
    """This tensor reshaped to ``other``'s shape."""
    return shape.reshape(self, tuple(other.shape))


@op(methods=("new_zeros",))
def _new_zeros(self, *size, dtype=None, device=None, requires_grad: bool = False):
    """Zeros of ``size`` with this tensor's dtype (unless ``dtype``)."""
    return creation.zeros(*size, dtype=dtype or self.dtype, device=device or self.device,
                    requires_grad=requires_grad)


@op(methods=("new_ones",))
def _new_ones(self, *size, dtype=None, device=None, requires_grad: bool = False):
    """Ones of ``size`` with this tensor's dtype (unless ``dtype``)."""
    return creation.ones(*size, dtype=dtype or self.dtype, device=device or self.device,
                    requires_grad=requires_grad)


@op(methods=("new_full",))
def _new_full(self, size, value, dtype=None, device=None, requires_grad: bool = False):
    """``size`` filled with ``value``, with this tensor's dtype (unless ``dtype``)."""
    return creation.full(size, value, dtype=dtype or self.dtype, device=device or self.device,
                    requires_grad=requires_grad)


@op(methods=("new_tensor",))
def _new_tensor(self, data, dtype=None):
    """A tensor of ``data`` with this tensor's dtype (unless ``dtype``)."""
    return creation.tensor(data, dtype=dtype or self.dtype)


@op(methods=("to",))
def _to(self, *args, dtype=None, device=None, copy: bool = False, non_blocking: bool = False):
    """Convert dtype and/or device: ``t.to(ug.float64)``, ``t.to("cpu")``, ``t.to(other)``."""
    from .. import backend
    for arg in args:
        if isinstance(arg, Tensor):
            dtype, device = arg.dtype, arg.device
        elif isinstance(arg, (str, backend.Device)) and not (isinstance(arg, str) and
                                                              arg in backend._BY_NAME):
            device = arg
        else:
            dtype = arg
    result = self
    if dtype is not None:
        result = ew.cast(result, dtype)
    if device is not None:
        result = _to_device(result, backend.Device(device))
    if copy and result is self:
        result = clone(self)
    return result


def _to_device(tensor: Tensor, device):
    from .device import to_device
    if tensor.device == device:
        return tensor
    return to_device(tensor, device)


@op(methods=("clone",))
def clone(self) -> Tensor:
    """A copy with its own storage; differentiable (gradient flows to ``self``)."""
    from .device import clone as _clone
    return _clone(self)


@op(methods=("cpu",))
def _cpu(self):
    """This tensor on the CPU."""
    return _to(self, device="cpu")


@op(methods=("cuda",))
def _cuda(self, device=None):
    """This tensor on a CUDA device (the current one, or ``device``)."""
    return _to(self, device=f"cuda:{device}" if device is not None else "cuda")


@op(methods=("contiguous",))
def _contiguous(self):
    """This tensor (storage layout is NumPy's business)."""
    return self


@op(methods=("type_as",))
def _type_as(self, other):
    """This tensor cast to ``other``'s dtype."""
    if not isinstance(other, Tensor):
        raise TypeError(f"type_as(): argument 'other' (position 1) must be Tensor, not "
                        f"{type(other).__name__}")
    return ew.cast(self, other.dtype)


def _property(fn):
    return property(fn)


def _last_two_adjoint(self):
    """``Tensor.mH`` / ``Tensor.adjoint()``: the conjugate transpose of the last two
    dimensions."""
    from .linalg import _adjoint
    return _adjoint(self)


def _matrix_transpose(self):
    """``Tensor.H``: the conjugate transpose of a matrix."""
    if len(self.shape) != 2:
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got "
                           f"{len(self.shape)}-D tensor.")
    return _last_two_adjoint(self)


def _last_two_transposed(self):
    return shape.transpose(self, -2, -1)


def _part(name: str):
    """``Tensor.real`` / ``Tensor.imag``: views that can be read and assigned (``z.real = x``
    writes ``x`` into the real parts)."""
    def read(self):
        from . import complex_numbers
        return getattr(complex_numbers, name)(self)

    def write(self, value):
        read(self).copy_(value)
    return property(read, write, doc=f"The {name} part: a view of a complex tensor.")


PROPERTIES = {
    "T": lambda self: shape.transpose(self),
    "mT": _last_two_transposed,
    "mH": _last_two_adjoint,
    "H": _matrix_transpose,
}
def _tensor_type(self, dtype=None, non_blocking: bool = False, **kwargs):
    """``Tensor.type()``: PyTorch's type name (``'torch.FloatTensor'``); with ``dtype`` (a
    dtype or such a name) the tensor converted to it (itself when it already is).

    Example:
        >>> import unigrad as ug
        >>> x = ug.ones(2)
        >>> x.type(), x.type("torch.DoubleTensor").dtype, x.type(ug.int64)
        ('torch.FloatTensor', unigrad.float64, tensor([1, 1]))
    """
    from ..backend import DType, from_numpy_dtype
    from ._dtypes import _TORCH_NAMES, torch_tensor_type
    if dtype is None:
        return torch_tensor_type(self._data.dtype, on_gpu=self.device.type == "cuda")
    device = None
    if isinstance(dtype, str):
        name = dtype.removeprefix("torch.")
        if name.startswith("cuda."):
            name, device = name.removeprefix("cuda."), "cuda"
        by_name = {f"{value}Tensor": key for key, value in _TORCH_NAMES.items()}
        if name not in by_name:
            raise ValueError(f"invalid type: {dtype!r}")
        dtype = from_numpy_dtype(by_name[name])
    elif not isinstance(dtype, DType):
        raise TypeError("dtype must be a type, str, or dtype object")
    result = self if self.dtype == dtype else ew.cast(self, dtype)
    return result.to(device) if device is not None else result


def _same_values(self, other) -> bool:
    """``Tensor.equal(other)``: True when both have the same shape and elements (PyTorch's
    ``torch.equal``; NaN is never equal).

    Example:
        >>> import unigrad as ug
        >>> ug.tensor([1.0, 2.0]).equal(ug.tensor([1.0, 2.0])), ug.ones(2).equal(ug.ones(3))
        (True, False)
    """
    if not isinstance(other, Tensor):
        raise TypeError(f"equal(): argument 'other' must be Tensor, not {type(other).__name__}")
    if self._data.shape != other._data.shape:
        return False
    from ..backend import to_numpy
    return bool((to_numpy(self._data) == to_numpy(other._data)).all())


METHODS = {"adjoint": _last_two_adjoint, "type": _tensor_type, "equal": _same_values}
SETTABLE_PROPERTIES = {"real": _part("real"), "imag": _part("imag")}


def install() -> None:
    """Attach operators, methods and properties to :class:`Tensor`."""
    from . import inplace, linalg  # noqa: F401  (inplace declares copy_, zero_, fill_...)
    for name, fn in OPERATORS.items():
        setattr(Tensor, name, fn)
    Tensor.__matmul__ = linalg.matmul  # directly: ``x @ w`` is on the hot path
    Tensor.__rmatmul__ = _swap(linalg.matmul)
    Tensor.__hash__ = object.__hash__
    Tensor.__array_ufunc__ = None
    for operator, method in _INPLACE_OPERATORS.items():
        setattr(Tensor, operator, getattr(Tensor, method))
    for name, fn in PROPERTIES.items():
        setattr(Tensor, name, _property(fn))
    for name, descriptor in SETTABLE_PROPERTIES.items():
        setattr(Tensor, name, descriptor)
    for name, method in METHODS.items():
        setattr(Tensor, name, method)
