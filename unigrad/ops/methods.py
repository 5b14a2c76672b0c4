"""The one table of Tensor methods and operators, attached to :class:`Tensor`.

Each ops module may export ``TENSOR_METHODS`` (name -> function taking the
tensor first); :func:`install` merges them with the table below.
"""

from __future__ import annotations

from ..tensor import Tensor
from . import creation, reduce, shape
from . import elementwise as ew


def _swap(fn):
    def reflected(self, other):
        return fn(other, self)
    return reflected


OPERATORS = {
    "__add__": ew.add, "__radd__": _swap(ew.add),
    "__sub__": ew.sub, "__rsub__": _swap(ew.sub),
    "__mul__": ew.mul, "__rmul__": _swap(ew.mul),
    "__truediv__": ew.div, "__rtruediv__": _swap(ew.div),
    "__floordiv__": ew.floor_divide, "__rfloordiv__": _swap(ew.floor_divide),
    "__mod__": ew.remainder, "__rmod__": _swap(ew.remainder),
    "__pow__": ew.pow, "__rpow__": _swap(ew.pow),
    "__neg__": ew.neg, "__pos__": lambda self: self, "__abs__": ew.abs,
    "__eq__": ew.eq, "__ne__": ew.ne, "__lt__": ew.lt, "__le__": ew.le,
    "__gt__": ew.gt, "__ge__": ew.ge,
    "__and__": ew.logical_and, "__or__": ew.logical_or, "__xor__": ew.logical_xor,
    "__invert__": ew.logical_not,
}

_INPLACE_OPERATORS = {"__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_",
                      "__itruediv__": "div_", "__ipow__": "pow_"}

METHODS = {
    # elementwise
    "add": ew.add, "sub": ew.sub, "mul": ew.mul, "div": ew.div, "true_divide": ew.div,
    "multiply": ew.mul, "subtract": ew.sub, "divide": ew.div, "floor_divide": ew.floor_divide,
    "remainder": ew.remainder, "fmod": ew.fmod,
    "neg": ew.neg, "negative": ew.neg, "pow": ew.pow, "maximum": ew.maximum,
    "minimum": ew.minimum, "exp": ew.exp, "log": ew.log, "log1p": ew.log1p, "expm1": ew.expm1,
    "sqrt": ew.sqrt, "rsqrt": ew.rsqrt, "sin": ew.sin, "cos": ew.cos, "tan": ew.tan,
    "tanh": ew.tanh, "sigmoid": ew.sigmoid, "relu": ew.relu, "erf": ew.erf, "abs": ew.abs,
    "sign": ew.sign, "floor": ew.floor, "ceil": ew.ceil, "round": ew.round, "trunc": ew.trunc,
    "clip": ew.clip, "clamp": ew.clip, "reciprocal": ew.reciprocal, "square": ew.square,
    "where": lambda self, condition, other: ew.where(condition, self, other),
    "eq": ew.eq, "ne": ew.ne, "lt": ew.lt, "le": ew.le, "gt": ew.gt, "ge": ew.ge,
    "logical_and": ew.logical_and, "logical_or": ew.logical_or, "logical_not": ew.logical_not,
    "logical_xor": ew.logical_xor, "isnan": ew.isnan, "isinf": ew.isinf,
    "isfinite": ew.isfinite, "lerp": ew.lerp,
    # dtype conversions
    "astype": ew.cast,
    "float": lambda self: ew.cast(self, "float32"),
    "double": lambda self: ew.cast(self, "float64"),
    "half": lambda self: ew.cast(self, "float16"),
    "long": lambda self: ew.cast(self, "int64"),
    "int": lambda self: ew.cast(self, "int32"),
    "bool": lambda self: ew.cast(self, "bool"),
    # reductions
    "sum": reduce.sum, "mean": reduce.mean,
    # shape
    "reshape": shape.reshape, "view": shape.view, "broadcast_to": shape.broadcast_to,
    "expand": shape.expand, "expand_as": shape.expand_as, "permute": shape.permute,
    "transpose": shape.transpose, "swapaxes": shape.swapaxes, "swapdims": shape.swapaxes,
    "t": shape.t,
    "view_as": lambda self, other: shape.reshape(self, tuple(other.shape)),
    "reshape_as": lambda self, other: shape.reshape(self, tuple(other.shape)),
    # creation helpers
    "new_zeros": lambda self, *size, dtype=None: creation.zeros(*size, dtype=dtype or self.dtype),
    "new_ones": lambda self, *size, dtype=None: creation.ones(*size, dtype=dtype or self.dtype),
    "new_full": lambda self, size, value, dtype=None: creation.full(size, value,
                                                                   dtype=dtype or self.dtype),
    "new_tensor": lambda self, data, dtype=None: creation.tensor(data, dtype=dtype or self.dtype),
}


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


def clone(self) -> Tensor:
    """A copy with its own storage; differentiable (gradient flows to ``self``)."""
    from .device import clone as _clone
    return _clone(self)


METHODS.update({
    "to": _to, "clone": clone,
    "cpu": lambda self: _to(self, device="cpu"),
    "cuda": lambda self, device=None: _to(self, device=f"cuda:{device}" if device is not None
                                          else "cuda"),
    "contiguous": lambda self: self,
    "type_as": lambda self, other: ew.cast(self, other.dtype),
})


def _property(fn):
    return property(fn)


PROPERTIES = {
    "T": lambda self: shape.transpose(self),
    "mT": lambda self: shape.transpose(self, -2, -1),
}


def install(*extra_tables) -> None:
    """Attach operators, methods and properties to :class:`Tensor`."""
    from . import inplace, linalg
    for name, fn in OPERATORS.items():
        setattr(Tensor, name, fn)
    Tensor.__matmul__ = linalg.matmul  # directly: ``x @ w`` is on the hot path
    Tensor.__rmatmul__ = _swap(linalg.matmul)
    Tensor.__hash__ = object.__hash__
    Tensor.__array_ufunc__ = None
    tables = (METHODS, inplace.TENSOR_METHODS) + extra_tables
    for table in tables:
        for name, fn in table.items():
            setattr(Tensor, name, fn)
    for operator, method in _INPLACE_OPERATORS.items():
        setattr(Tensor, operator, getattr(Tensor, method))
    for name, fn in PROPERTIES.items():
        setattr(Tensor, name, _property(fn))
