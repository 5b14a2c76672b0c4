"""MindSpore's composite operators: ``HookBackward``, ``MultitypeFuncGraph``, ``Map``,
``Partial``.

``HookBackward`` is an identity whose backward pass shows (and may replace)
the gradients flowing through it; ``MultitypeFuncGraph`` dispatches on the
types of its arguments; ``Map`` applies a function across sequences;
``Partial`` fixes leading arguments.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> ops.Map()(ops.mul, (ms.Tensor(1.0), ms.Tensor(2.0)), (ms.Tensor(3.0), ms.Tensor(4.0)))
    (Tensor(shape=[], dtype=Float32, value= 3), Tensor(shape=[], dtype=Float32, value= 8))
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable

import numpy as np

from ...tensor import Tensor as _UgTensor
from ...transforms.custom import custom_vjp
from ._tensor import to_ms
from ._transforms import check_hook_fn
from .ops import Primitive

__all__ = ["HookBackward", "InsertGradientOf", "MultitypeFuncGraph", "Map", "Partial"]


class HookBackward(Primitive):
    """``HookBackward(hook_fn, cell_id="")``: returns its inputs unchanged (a bare value
    for one input, a tuple for several); in the backward pass ``hook_fn(grads)`` gets the
    tuple of their gradients and may return a replacement tuple.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> seen = []
        >>> def hook_fn(grads):
        ...     seen.append(grads[0])
        ...     return (grads[0] * 10,)
        >>> hook = ops.HookBackward(hook_fn)
        >>> def net(x, y):
        ...     return hook(x * y) * y
        >>> ms.grad(net, grad_position=(0, 1))(ms.Tensor(1.0), ms.Tensor(2.0))
        (Tensor(shape=[], dtype=Float32, value= 40), Tensor(shape=[], dtype=Float32, value= 22))
        >>> seen, hook
        ([Tensor(shape=[], dtype=Float32, value= 2)], Prim[HookBackward]<cell_id=>)
    """

    def __init__(self, hook_fn: Callable, cell_id: str = ""):
        super().__init__()
        check_hook_fn(hook_fn)
        self.hook_fn = hook_fn
        self.cell_id = cell_id
        self.add_prim_attr("cell_id", cell_id)
        self._identity = custom_vjp(_identity).defbwd(self._backward)

    def compute(self, *inputs):
        return self._identity(*inputs)

    def _backward(self, *arguments):
        dout = arguments[-1]
        grads = tuple(dout) if isinstance(dout, (tuple, list)) else (dout,)
        replaced = self.hook_fn(to_ms(grads))
        return grads if replaced is None else tuple(replaced)


class InsertGradientOf(Primitive):
    """``InsertGradientOf(f)``: returns its input unchanged; in the backward pass the input's
    gradient is ``f(gradient)`` (a gradient clip, a gradient print).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> clip = ops.InsertGradientOf(lambda dx: ops.clamp(dx, 0.2, 1.0))
        >>> ops.GradOperation(get_all=True)(lambda x, y: clip(x) * clip(y))(
        ...     ms.Tensor([1.1]), ms.Tensor([0.1]))
        (Tensor(shape=[1], dtype=Float32, value= [2.00000003e-001]), Tensor(shape=[1], \
dtype=Float32, value= [1.00000000e+000]))
    """

    def __init__(self, f: Callable):
        super().__init__()
        if not callable(f):
            raise TypeError(f"For 'InsertGradientOf', the argument 'f' must be a function, but "
                            f"got {type(f).__name__}")
        self.f = f
        self._identity = custom_vjp(_identity).defbwd(self._backward)

    def compute(self, input_x):
        return self._identity(input_x)

    def _backward(self, *arguments):
        dout = arguments[-1]  # (after the inputs and the output)
        return (self.f(to_ms(dout)),)


def _identity(*inputs):
    return inputs[0] if len(inputs) == 1 else inputs


# MindSpore's type names and what each matches, tried in registration order
_TYPE_CHECKS: dict[str, Callable] = {
    "Number": lambda value: isinstance(value, numbers.Number),
    "Bool": lambda value: isinstance(value, bool),
    "Int": lambda value: isinstance(value, int) and not isinstance(value, bool),
    "Float": lambda value: isinstance(value, float),
    "Tensor": lambda value: isinstance(value, _UgTensor),
    "Tuple": lambda value: isinstance(value, tuple),
    "List": lambda value: isinstance(value, list),
    "String": lambda value: isinstance(value, str),
    "Dictionary": lambda value: isinstance(value, dict),
    "None": lambda value: value is None,
    "Function": callable,
}


class MultitypeFuncGraph:
    """``MultitypeFuncGraph(name, read_value=False)``: one function per signature of type
    names (``"Number"``, ``"Tensor"``, ``"Tuple"``, ``"List"``, ``"String"``, ``"Bool"``,
    ``"Int"``, ``"Float"``, ``"Dictionary"``, ``"None"``, ``"Function"``), registered with
    ``@graph.register(*type_names)``; a call runs the first registered one whose types
    match its arguments (``ValueError`` when none does; a lone function is always run).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> add = ops.MultitypeFuncGraph("add")
        >>> @add.register("Number", "Number")
        ... def add_scalar(x, y):
        ...     return x + y
        >>> @add.register("Tensor", "Tensor")
        ... def add_tensor(x, y):
        ...     return ops.add(x, y) * 2
        >>> add(1, 2), add(ms.Tensor(1.0), ms.Tensor(2.0))
        (3, Tensor(shape=[], dtype=Float32, value= 6))
    """

    def __init__(self, name: str, read_value: bool = False):
        self.name = name
        self.read_value = read_value
        self.entries: list[tuple[tuple[str, ...], Callable]] = []

    def register(self, *type_names: str) -> Callable:
        """Decorator: register the function for arguments of ``type_names``."""
        def deco(fn: Callable) -> Callable:
            for type_name in type_names:
                if type_name not in _TYPE_CHECKS:
                    raise RuntimeError(f"Unsupported type name: {type_name}!")
            self.entries.append((type_names, fn))
            return fn
        return deco

    def __call__(self, *args):
        if any(isinstance(value, np.ndarray) for value in args):
            raise TypeError("For 'MultitypeFuncGraph', the input can not be numpy.ndarray")
        if len(self.entries) == 1:  # MindSpore calls a lone function without matching
            return to_ms(self.entries[0][1](*args))
        for type_names, fn in self.entries:
            if len(type_names) == len(args) and all(
                    _TYPE_CHECKS[name](value) for name, value in zip(type_names, args)):
                return to_ms(fn(*args))
        signatures = [(names, fn.__name__) for names, fn in self.entries]
        raise ValueError(f"For 'MultitypeFuncGraph', cannot find fn match given args. Got "
                         f"(sigs, fn): {signatures}, and (dtype, args): "
                         f"{tuple(type(value).__name__ for value in args)}.")


class Map:
    """``Map(ops=None, reverse=False)``: ``Map()(fn, *sequences)`` is the tuple of
    ``fn(*items)`` over the sequences' items, one level deep (``HyperMap`` recurses);
    with ``ops`` given the call takes only the sequences.

    Example:
        >>> from unigrad.compat.mindspore import ops
        >>> ops.Map(ops.partial(max, 0))([-1, 2], [3, -4])
        (3, 2)
    """

    def __init__(self, ops: Callable | None = None, reverse: bool = False):
        if ops is not None and not callable(ops):
            raise TypeError(f"For 'Map', 'ops' must be callable, but got {type(ops).__name__}")
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        fn, sequences = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        if not callable(fn):
            raise TypeError(f"For 'Map', the function must be callable, but got "
                            f"{type(fn).__name__}")
        return tuple(fn(*items) for items in zip(*sequences))


class Partial(Primitive):
    """``Partial()(fn, *args)``: ``fn`` with its leading arguments fixed.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> add_one = ops.Partial()(ops.add, ms.Tensor(1.0))
        >>> add_one(ms.Tensor(2.0))
        Tensor(shape=[], dtype=Float32, value= 3)
    """

    def __init__(self):
        super().__init__()
        self.add_prim_attr("side_effect_propagate", 1)

    def __call__(self, fn: Callable, *args):
        if not callable(fn):
            raise TypeError(f"For 'Partial', the function must be callable, but got "
                            f"{type(fn).__name__}")
        return functools.partial(fn, *args)
