"""Dynamic parameters: index arrays that are traced values become operands of their eqn.

Indexing primitives take their index arrays as parameters (an
:class:`~unigrad.ops.indexing.IndexArray`, alone or inside an
:class:`~unigrad.ops.indexing.Index`), which is right in eager mode: an index
is data about *where*, never differentiated. Inside ``ug.jit`` an integer index
tensor can be an argument of the jitted function, so its array is a tracer
with a known shape and dtype but no values. :func:`lift` turns such an eqn into
one whose primitive is a :class:`DynamicParamsPrimitive`: the traced index
arrays become extra (trailing) operands and the parameters keep numbered
:class:`Slot` placeholders, filled with the operands' values when the kernel,
the shape rule or a derivative rule runs. Everything that evaluates an eqn
(interpreter, generated code, constant folding, the verifier) works unchanged,
because it only calls ``prim.impl`` and ``prim.shape``.

Parameter objects take part by providing ``_param_arrays()`` (their arrays) and
``_with_param_arrays(arrays)`` (a copy holding other arrays).

Example:
    >>> import unigrad as ug
    >>> @ug.jit
    ... def pick(x, i):
    ...     return x[i]
    >>> pick(ug.tensor([10.0, 20.0, 30.0]), ug.tensor([2, 0]))
    tensor([30., 10.])
    >>> pick(ug.tensor([10.0, 20.0, 30.0]), ug.tensor([1, 1]))   # same graph, new indices
    tensor([20., 20.])
    >>> pick.trace_count
    1
"""

from __future__ import annotations

import numpy as np

from ..ops._primitive import Primitive


class Slot:
    """Placeholder for the ``position``-th dynamic operand inside a parameter."""

    __slots__ = ("position", "shape", "dtype")

    def __init__(self, position: int, shape: tuple, dtype):
        self.position = position
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return f"Slot({self.position})"


def has_param_arrays(value) -> bool:
    return hasattr(value, "_param_arrays")


def _map_params(params: dict, replace) -> dict:
    """``params`` with every array inside a parameter object passed through ``replace``."""
    mapped = {}
    for key, value in params.items():
        if has_param_arrays(value):
            arrays = value._param_arrays()
            new = [replace(array) for array in arrays]
            if any(n is not a for n, a in zip(new, arrays)):
                value = value._with_param_arrays(new)
        mapped[key] = value
    return mapped


def dynamic_arrays(params: dict, is_dynamic) -> list:
    """The arrays inside ``params``' parameter objects for which ``is_dynamic`` holds."""
    found = []
    for value in params.values():
        if has_param_arrays(value):
            found.extend(a for a in value._param_arrays() if is_dynamic(a))
    return found


def lift(prim: Primitive, params: dict, is_dynamic) -> tuple:
    """``(prim', params', dynamic)``: the dynamic arrays of ``params`` moved out into slots.

    ``dynamic`` lists the arrays (tracers) to append to the eqn's operands, in slot order.
    """
    dynamic: list = []
    slots: dict = {}

    def to_slot(array):
        if not is_dynamic(array):
            return array
        key = id(array)
        if key not in slots:
            slots[key] = Slot(len(dynamic), array.shape, array.dtype)
            dynamic.append(array)
        return slots[key]

    template = _map_params(params, to_slot)
    return DynamicParamsPrimitive(prim, template, len(dynamic)), {}, dynamic


def _fill(template: dict, values: tuple) -> dict:
    return _map_params(template, lambda a: values[a.position] if isinstance(a, Slot) else a)


def _placeholder(aval):
    """A zero-strided stand-in of an abstract index array (shape rules read shapes only)."""
    return np.broadcast_to(np.zeros((), dtype=aval.dtype), tuple(aval.shape))


class DynamicParamsPrimitive(Primitive):
    """``base`` whose parameter ``template`` reads its last ``count`` operands (unregistered)."""

    __slots__ = ("base", "template", "count")

    def __init__(self, base: Primitive, template: dict, count: int):  # no registration
        self.base = base
        self.template = template
        self.count = count
        self.name = base.name
        self.kind = base.kind
        self.saves = "inputs and output" if base.saves_output else "inputs"
        self.saves_inputs = True
        self.saves_output = base.saves_output
        self.batch = None
        self.autocast = base.autocast
        self.scalar = self.expression = self.simplify = self.ufunc = None
        self.impure = base.impure
        self.result_memory = base.result_memory
        self.complex_gradient = base.complex_gradient
        self.differentiable = base.differentiable
        self.backward_name = base.backward_name
        self.is_view = False
        self.saved_for = None
        self.saves_lone_first = True
        self.impl = self._impl
        self.shape = self._shape
        self.vjp = self._vjp if base.vjp is not None else None
        self.jvp = self._jvp if base.jvp is not None else None

    def _split(self, operands: tuple) -> tuple:
        cut = len(operands) - self.count
        return operands[:cut], operands[cut:]

    def _impl(self, *operands):
        static, dynamic = self._split(operands)
        return self.base.impl(*static, **_fill(self.template, dynamic))

    def _shape(self, *avals):
        static, dynamic = self._split(avals)
        return self.base.shape(*static, **_fill(self.template,
                                                tuple(_placeholder(a) for a in dynamic)))

    def _vjp(self, g, out, needs, *operands):
        static, dynamic = self._split(operands)
        cotangents = self.base.vjp(g, out, needs[:len(static)], *static,
                                   **_fill(self.template, _arrays(dynamic)))
        return tuple(cotangents) + (None,) * self.count

    def _jvp(self, tangents, out, *operands):
        static, dynamic = self._split(operands)
        return self.base.jvp(tangents[:len(static)], out, *static,
                             **_fill(self.template, _arrays(dynamic)))

    def __repr__(self) -> str:
        return f"<primitive {self.name} (dynamic params)>"


def _arrays(values: tuple) -> tuple:
    """Index operands as arrays (derivative rules may receive them as Tensors)."""
    return tuple(getattr(v, "_data", v) for v in values)
