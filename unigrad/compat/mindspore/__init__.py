"""MindSpore's spelling of unigrad: ``import unigrad.compat.mindspore as ms``.

MindSpore code runs with only its import lines changed
(``import mindspore as ms`` -> ``import unigrad.compat.mindspore as ms``,
``from mindspore import nn, ops`` -> ``from unigrad.compat.mindspore import nn, ops``,
``from mindspore.amp import ...`` -> ``from unigrad.compat.mindspore.amp import ...``).
Names, arguments, return structures and printed forms are MindSpore's; the
computation is unigrad's.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> x = ms.Tensor(1.0)
    >>> y = ms.Tensor(2.0)
    >>> def net(x, y):
    ...     return x**2+y
    >>> out = ms.grad(net, grad_position=0)(x, y)
    >>> print("out", out)
    out 2.0
    >>> out
    Tensor(shape=[], dtype=Float32, value= 2)
"""

from . import amp, common, dataset, dtype, nn, ops, train
from ._checkpoint import *  # noqa: F403 - save_checkpoint, load_checkpoint, ...
from ._checkpoint import __all__ as _checkpoint_names
from ._functional_creation import tensor
from ._printing import set_print_style
from ._tensor import Parameter, ParameterTuple, Tensor
from ._transforms import (
    GRAPH_MODE,
    PYNATIVE_MODE,
    get_context,
    get_grad,
    get_seed,
    grad,
    jacfwd,
    jacrev,
    jit,
    jit_class,
    jvp,
    mutable,
    set_context,
    set_seed,
    value_and_grad,
    vjp,
    vmap,
)
from .dtype import (
    bool_,
    complex64,
    complex128,
    double,
    dtype_to_nptype,
    float16,
    float32,
    float64,
    float_,
    get_py_obj_dtype,
    half,
    int8,
    int16,
    int32,
    int64,
    int_,
    intc,
    intp,
    pytype_to_dtype,
    short,
    single,
    uint8,
)

__all__ = ["Tensor", "Parameter", "ParameterTuple", "grad", "value_and_grad", "get_grad", "jit",
           "jit_class", "mutable",
           "set_context", "get_context", "GRAPH_MODE", "PYNATIVE_MODE", "set_seed", "get_seed",
           "nn", "ops", "amp", "dtype", "bool_", "int8", "int16", "int32", "int64", "uint8",
           "float16", "float32", "float64", "complex64", "complex128", "half", "single", "double",
           "float_", "int_", "short", "intc", "intp", "dtype_to_nptype", "pytype_to_dtype",
           "get_py_obj_dtype", "is_tensor", "vmap", "jvp", "vjp", "jacfwd", "jacrev", "tensor",
           "common", "train", "set_print_style", *_checkpoint_names]


def is_tensor(obj) -> bool:
    """Whether ``obj`` is a Tensor (``mindspore.is_tensor``)."""
    from ...tensor import Tensor as _UgTensor
    return isinstance(obj, _UgTensor)
