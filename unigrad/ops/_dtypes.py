"""Operand coercion for elementwise ops: PyTorch's type promotion on Tensors.

Python scalars stay Python scalars (NumPy treats them as weak, as PyTorch
does), unless their category is higher than the tensor's (``int_tensor * 1.5``
computes in the default float dtype). Plain arrays on both sides are left
alone: that is how vjp rules run on raw arrays.
"""

from __future__ import annotations

import numpy as np

from .. import backend
from ..backend import DEFAULT_INT, default_float, ndarray
from ..tensor import Tensor, _make_tensor, as_array
from . import elementwise as _elementwise

_SCALARS = (bool, int, float, complex)


def _cast_tensor(t: Tensor, dtype: np.dtype) -> Tensor:
    cast = _elementwise.cast
    return cast(t, dtype)


_CONSTANTS: dict = {}
_CONSTANTS_LIMIT = 512


def float_constant(value: float, dtype: np.dtype):
    """A read-only 0-d array holding ``value`` in ``dtype``, cached.

    NumPy computes ``array * 0-d array`` about twice as fast as ``array * float``
    on small arrays (no weak-scalar resolution), and both give the same float
    result, so hot elementwise ops pass Python floats next to float tensors as
    cached 0-d arrays of the tensor's dtype.
    """
    key = (value, dtype)
    constant = _CONSTANTS.get(key)
    if constant is None:
        if len(_CONSTANTS) >= _CONSTANTS_LIMIT:
            _CONSTANTS.clear()
        constant = np.array(value, dtype)
        constant.flags.writeable = False
        _CONSTANTS[key] = constant
    return constant


def to_tensor_operand(value, name: str = "other"):
    """Lists, arrays and NumPy scalars next to a Tensor become Tensors or Python scalars.

    ``name`` is the argument's name in the error for anything else.
    """
    if isinstance(value, Tensor) or type(value) in _SCALARS:
        return value
    if isinstance(value, np.generic) and value.ndim == 0 and value.dtype.kind in "biufc":
        return value.item()
    if isinstance(value, (list, tuple)):
        try:
            return _make_tensor(as_array(value))
        except (ValueError, RuntimeError, TypeError) as error:
            raise TypeError(f"argument '{name}' must be a Tensor, an array or a Python number, "
                            f"not {type(value).__name__}: {error}") from None
    if isinstance(value, ndarray) or hasattr(value, "__cuda_array_interface__"):
        return _make_tensor(as_array(value))
    if hasattr(value, "__unigrad_abstract__"):  # an interpreter's array (vmap batch, tracer)
        return _make_tensor(value)
    if isinstance(value, (bool, int, float, complex)):
        return value
    raise TypeError(f"argument '{name}' must be a Tensor, an array or a Python number, not "
                    f"{type(value).__name__}")


def coerce_operands(*operands, names: tuple = ("input", "other")):
    """Promote operands of an elementwise op the way PyTorch does (``names``: the operands'
    argument names, for errors)."""
    if not any(isinstance(op, Tensor) for op in operands):
        return operands
    operands = [op if isinstance(op, Tensor) else
                to_tensor_operand(op, names[min(i, len(names) - 1)])
                for i, op in enumerate(operands)]
    tensors = [(op._data.ndim, op._data.dtype) for op in operands if isinstance(op, Tensor)]
    scalars = [op for op in operands if not isinstance(op, Tensor)]
    target = backend.result_dtype(tensors, scalars)
    result = []
    for op in operands:
        if isinstance(op, Tensor):
            if op._data.dtype != target:
                op = _cast_tensor(op, target)
        elif target.kind == "f":
            op = float(op)
        elif target.kind in "iu":
            op = int(op)
        result.append(op)
    return result


def float_operand(x):
    """Unary floating ops on integer or bool tensors compute in the default float dtype."""
    if isinstance(x, Tensor):
        if x._data.dtype.kind not in "fc":
            return _cast_tensor(x, default_float())
        return x
    if isinstance(x, np.generic):
        # NumPy scalars come from 0-d arithmetic inside rules: keep them plain arrays
        return np.asarray(x)
    if type(x) in _SCALARS or isinstance(x, (list, tuple)):
        return _make_tensor(as_array(x, default_float()))
    if not hasattr(x, "dtype"):
        raise TypeError(f"expected a Tensor, an array or a number as input, got "
                        f"{type(x).__name__}")
    return x


def true_divide_dtype(a, b):
    """True division of integer tensors gives the default float dtype."""
    a, b = coerce_operands(a, b)
    if isinstance(a, Tensor) and a._data.dtype.kind not in "fc":
        a = _cast_tensor(a, default_float())
    if isinstance(b, Tensor) and b._data.dtype.kind not in "fc":
        b = _cast_tensor(b, default_float())
    if isinstance(a, Tensor) and not isinstance(b, Tensor) and not isinstance(b, complex):
        b = float(b)
    elif isinstance(b, Tensor) and not isinstance(a, Tensor) and not isinstance(a, complex):
        a = float(a)
    return a, b


__all__ = ["coerce_operands", "float_operand", "true_divide_dtype", "to_tensor_operand",
           "DEFAULT_INT"]


# PyTorch's names of dtypes, for its error messages
_TORCH_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
                "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char",
                "uint8": "Byte", "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64",
                "bool": "Bool", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def torch_dtype_name(dtype) -> str:
    """PyTorch's name of a dtype in error messages (``'Float'``, ``'Long'``...)."""
    name = np.dtype(dtype).name
    return _TORCH_NAMES.get(name, name)


def torch_tensor_type(dtype, on_gpu: bool = False) -> str:
    """PyTorch's legacy tensor type name (``'torch.FloatTensor'``, ``'torch.cuda.LongTensor'``).

    Example:
        >>> from unigrad.ops._dtypes import torch_tensor_type
        >>> torch_tensor_type("float64"), torch_tensor_type("int64", on_gpu=True)
        ('torch.DoubleTensor', 'torch.cuda.LongTensor')
    """
    return f"torch.{'cuda.' if on_gpu else ''}{torch_dtype_name(dtype)}Tensor"
