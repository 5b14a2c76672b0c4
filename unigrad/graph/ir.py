"""The graph IR: a flat, typed list of equations over variables.

A :class:`Graph` has input :class:`Var` s, a list of :class:`Eqn` s (each one
primitive applied to vars and :class:`Literal` s, defining one new var) and
outputs (vars or literals). Every var carries its shape and dtype; the graph
is in SSA form (each var defined once, before it is used), which
:meth:`Graph.verify` checks together with every primitive's shape rule.

Example:
    >>> import numpy as np
    >>> from unigrad.graph.ir import Eqn, Graph, Literal, Var
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> x = Var((3,), np.float32)
    >>> y = Var((3,), np.float32)
    >>> eqn = Eqn(PRIMITIVES["mul"], [x, Literal(2.0)], y, {})
    >>> graph = Graph([x], [eqn], [y])
    >>> graph.verify()
    >>> print(graph)
    graph(%0: f32[3]) {
      %1: f32[3] = mul(%0, 2.0)
      return (%1)
    }
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

import numpy as np

from ..abstract import ShapedArray

_counter = itertools.count()

_SHORT_DTYPES = {"float16": "f16", "float32": "f32", "float64": "f64", "bool": "bool",
                 "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8"}


class GraphError(ValueError):
    """A graph that breaks an IR invariant (raised by :meth:`Graph.verify`)."""


class Var:
    """A value in a graph: its shape and dtype; identity is the variable."""

    __slots__ = ("shape", "dtype", "serial")

    def __init__(self, shape, dtype):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.serial = next(_counter)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        size = 1
        for d in self.shape:
            size *= d
        return size

    @property
    def aval(self) -> ShapedArray:
        return ShapedArray(self.shape, self.dtype)

    def type_text(self) -> str:
        """``f32[64,32]``: the dtype's short name and the shape."""
        name = _SHORT_DTYPES.get(self.dtype.name, self.dtype.name)
        return f"{name}[{','.join(str(d) for d in self.shape)}]"

    def __repr__(self) -> str:
        return f"Var#{self.serial}:{self.type_text()}"


class Literal:
    """A constant operand: a Python scalar, ``None``, or a backend array baked into the graph."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    @property
    def is_array(self) -> bool:
        return hasattr(self.value, "shape") and hasattr(self.value, "dtype")

    @property
    def shape(self) -> tuple:
        return tuple(getattr(self.value, "shape", ()))

    @property
    def dtype(self) -> np.dtype:
        dtype = getattr(self.value, "dtype", None)
        return np.dtype(dtype) if dtype is not None else np.result_type(self.value)

    def scalar(self):
        """The Python number this literal holds, or None when it is not a single number."""
        value = self.value
        if isinstance(value, (bool, int, float)):
            return value
        if self.is_array and value.size == 1 and value.ndim == 0:
            return value.item()
        return None

    def text(self) -> str:
        value = self.value
        if self.is_array:
            if value.ndim == 0:
                return f"{value.item()!r}:{_SHORT_DTYPES.get(value.dtype.name, value.dtype.name)}"
            return f"const{Var(value.shape, value.dtype).type_text()}"
        return repr(value)

    def __repr__(self) -> str:
        return f"Literal({self.text()})"


Atom = Var | Literal


class Eqn:
    """``out = prim(*inputs, **params)``."""

    __slots__ = ("prim", "inputs", "out", "params")

    def __init__(self, prim, inputs: list, out: Var, params: dict):
        self.prim = prim
        self.inputs = list(inputs)
        self.out = out
        self.params = dict(params)

    @property
    def impure(self) -> bool:
        """Whether the eqn has effects beyond its result (see :func:`is_impure`)."""
        return is_impure(self.prim, self.params)

    def input_vars(self) -> Iterator[Var]:
        return (a for a in self.inputs if isinstance(a, Var))

    def defined_vars(self) -> list:
        """The vars this eqn defines: ``out``, or every result of a fused kernel."""
        return getattr(self.prim, "outputs", None) or [self.out]

    def __repr__(self) -> str:
        return f"Eqn({self.prim.name}, {self.inputs} -> {self.out!r})"


class Graph:
    """Inputs, equations in execution order, outputs (a graph computes values only:
    what the outputs mean to the caller is kept by whoever built the graph)."""

    __slots__ = ("inputs", "eqns", "outputs")

    def __init__(self, inputs: list, eqns: list, outputs: list):
        self.inputs = list(inputs)
        self.eqns = list(eqns)
        self.outputs = list(outputs)

    def replace(self, *, inputs=None, eqns=None, outputs=None) -> Graph:
        """A new graph sharing the unchanged parts."""
        return Graph(self.inputs if inputs is None else inputs,
                     self.eqns if eqns is None else eqns,
                     self.outputs if outputs is None else outputs)

    def producers(self) -> dict:
        """Each eqn-defined var -> its eqn."""
        return {eqn.out: eqn for eqn in self.eqns}

    def use_counts(self) -> dict:
        """How many times each var is read (by eqns and outputs)."""
        counts: dict = {}
        for atom in itertools.chain(
                (a for eqn in self.eqns for a in eqn.inputs), self.outputs):
            if isinstance(atom, Var):
                counts[atom] = counts.get(atom, 0) + 1
        return counts

    def last_uses(self) -> dict:
        """Each var -> the index of the last eqn reading it (``len(eqns)`` for outputs)."""
        last: dict = {}
        for index, eqn in enumerate(self.eqns):
            for var in eqn.input_vars():
                last[var] = index
        for atom in self.outputs:
            if isinstance(atom, Var):
                last[atom] = len(self.eqns)
        return last

    def verify(self) -> None:
        """Check SSA form, that every var is defined before use, and every shape rule.

        Raises :class:`GraphError` naming the first offending eqn.
        """
        defined = set()
        for var in self.inputs:
            if not isinstance(var, Var):
                raise GraphError(f"graph input {var!r} is not a Var")
            if var in defined:
                raise GraphError(f"graph input {var!r} is listed twice")
            defined.add(var)
        for index, eqn in enumerate(self.eqns):
            for atom in eqn.inputs:
                if isinstance(atom, Var) and atom not in defined:
                    raise GraphError(f"eqn {index} ({eqn.prim.name}) reads {atom!r} before it is "
                                     "defined")
                if not isinstance(atom, (Var, Literal)):
                    raise GraphError(f"eqn {index} ({eqn.prim.name}) has operand {atom!r}, "
                                     "expected a Var or a Literal")
            for var in eqn.defined_vars():
                if var in defined:
                    raise GraphError(f"eqn {index} ({eqn.prim.name}) redefines {var!r}")
                defined.add(var)
            _check_shape_rule(index, eqn)
        for atom in self.outputs:
            if isinstance(atom, Var) and atom not in defined:
                raise GraphError(f"graph output {atom!r} is never defined")

    def text(self) -> str:
        """The readable text form (also ``str(graph)``)."""
        names: dict = {}

        def name(atom) -> str:
            if isinstance(atom, Literal):
                return atom.text()
            if atom not in names:
                names[atom] = f"%{len(names)}"
            return names[atom]

        header = ", ".join(f"{name(v)}: {v.type_text()}" for v in self.inputs)
        lines = [f"graph({header}) {{"]
        for eqn in self.eqns:
            operands = ", ".join(name(a) for a in eqn.inputs)
            params = "".join(f", {key}={_param_text(value)}"
                             for key, value in eqn.params.items() if not key.startswith("_"))
            if not operands:
                params = params[2:]
            body = getattr(eqn.prim, "text_body", None)
            lines.append(f"  {name(eqn.out)}: {eqn.out.type_text()} = "
                         f"{eqn.prim.name}({operands}{params})")
            if body is not None:
                lines.extend("    " + line for line in body(eqn, name))
        lines.append(f"  return ({', '.join(name(a) for a in self.outputs)})")
        lines.append("}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return (f"<Graph: {len(self.inputs)} inputs, {len(self.eqns)} eqns, "
                f"{len(self.outputs)} outputs>")


def _param_text(value) -> str:
    if isinstance(value, type) and issubclass(value, np.generic):
        return np.dtype(value).name
    if hasattr(value, "shape") and hasattr(value, "dtype") and getattr(value, "ndim", 0) > 0:
        return f"array{Var(value.shape, value.dtype).type_text()}"
    if isinstance(value, np.dtype):
        return value.name
    return repr(value)


def is_impure(prim, params: dict) -> bool:
    """Whether an op has effects beyond its result (never folded, merged or removed): an
    impure primitive, or one whose branches or loop body (graph params) hold impure ops."""
    if getattr(prim, "impure", False):
        return True
    for value in params.values():
        for item in value if isinstance(value, tuple) else (value,):
            if getattr(item, "impure", False) is True:
                return True
    return False


def abstract_operand(atom):
    """What a shape rule receives for an operand: a ShapedArray, or the literal's value."""
    if isinstance(atom, Var):
        return ShapedArray(atom.shape, atom.dtype)
    value = atom.value
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return ShapedArray(value.shape, value.dtype)
    return value


def _check_shape_rule(index: int, eqn: Eqn) -> None:
    rule = getattr(eqn.prim, "shape", None)
    if rule is None:
        return
    try:
        shape, dtype = rule(*(abstract_operand(a) for a in eqn.inputs), **eqn.params)
    except Exception as error:
        raise GraphError(f"eqn {index} ({eqn.prim.name}): shape rule failed: {error}") from error
    if tuple(shape) != eqn.out.shape or np.dtype(dtype) != eqn.out.dtype:
        raise GraphError(f"eqn {index} ({eqn.prim.name}) defines {eqn.out.type_text()} but its "
                         f"shape rule gives {Var(shape, dtype).type_text()}")


def substitute(atoms: Iterable, mapping: dict) -> list:
    """``atoms`` with every var found in ``mapping`` replaced (transitively resolved by callers)."""
    return [mapping.get(a, a) if isinstance(a, Var) else a for a in atoms]


def redirected(eqn: Eqn, mapping: dict) -> Eqn:
    """``eqn`` reading ``mapping[var]`` instead of each mapped var (itself when none is)."""
    inputs = substitute(eqn.inputs, mapping)
    if any(new is not old for new, old in zip(inputs, eqn.inputs)):
        return Eqn(eqn.prim, inputs, eqn.out, eqn.params)
    return eqn
