"""Code generation: a graph becomes the source of a Python function calling kernels directly.

Each eqn is one line ``vN = kernel(operands, params)`` where the kernel is the
primitive's backend implementation (a NumPy ufunc for most elementwise ops),
so running the graph costs one Python call per kernel and nothing else: no
Tensor objects, no dispatch, no tape. Eqns that carry an ``_out`` param (set
by the buffer-reuse pass) write into the buffer of a dead operand with
``out=``. Fused eqns call their generated kernel. A few structural ops are
written as array expressions instead of kernel calls (``a @ b`` for matrix
products, ``x.T``, ``x.reshape(...)``, ``x.sum(...)``): the same computation as
the primitive's kernel, without the call through it.

Example:
    >>> import numpy as np
    >>> from unigrad.graph.codegen import generate
    >>> from unigrad.graph.ir import Eqn, Graph, Literal, Var
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> x, y = Var((2,), np.float64), Var((2,), np.float64)
    >>> program = generate(Graph([x], [Eqn(PRIMITIVES["tanh"], [x], y, {})], [y]))
    >>> print(program.source)
    def graph_function(a0):
        v0 = tanh(a0)
        return (v0,)
    >>> program.function(np.zeros(2))
    (array([0., 0.]),)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .ir import Graph, Var

_SIMPLE = (bool, int, str, type(None))


@dataclass
class Program:
    """Generated source and the function compiled from it."""

    source: str
    function: object
    constants: dict


class _Namer:
    """Names for inputs, vars and the constants the source refers to."""

    def __init__(self, graph: Graph):
        self.names: dict = {var: f"a{i}" for i, var in enumerate(graph.inputs)}
        self.constants: dict = {"_asarray": np.asarray}
        self.by_object: dict = {}
        self.count = 0

    def var(self, var: Var) -> str:
        name = self.names.get(var)
        if name is None:
            name = self.names[var] = f"v{self.count}"
            self.count += 1
        return name

    def constant(self, value, hint: str = "c") -> str:
        key = id(value)
        name = self.by_object.get(key)
        if name is None:
            name = f"{hint}{len(self.constants)}"
            self.constants[name] = value
            self.by_object[key] = name
        return name

    def kernel(self, prim) -> str:
        impl = prim.impl
        if isinstance(impl, np.ufunc) and impl.__name__.isidentifier():
            name = impl.__name__
            existing = self.constants.get(name)
            if existing is None or existing is impl:
                self.constants[name] = impl
                return name
        base = "".join(c if c.isalnum() else "_" for c in prim.name)
        return self.constant(impl, f"{base}_")

    def operand(self, atom) -> str:
        if isinstance(atom, Var):
            return self.var(atom)
        return self.value(atom.value)

    def value(self, value) -> str:
        if isinstance(value, _SIMPLE):
            return repr(value)
        if isinstance(value, float) and math.isfinite(value):
            return repr(value)
        if isinstance(value, tuple) and all(isinstance(v, _SIMPLE) for v in value):
            return repr(value)
        return self.constant(value)


def _expression(eqn, operands: list, namer) -> str | None:
    """The eqn as an array expression, when it has one and writes no ``out=`` buffer."""
    writer = getattr(eqn.prim, "expression", None)
    if writer is None or "_out" in eqn.params or not all(isinstance(a, Var) for a in eqn.inputs):
        return None
    return writer(eqn, operands, namer)


def _body_lines(graph: Graph, namer: _Namer, direct: bool) -> list[str]:
    """One line (or a few) per eqn; ``direct``: fused kernels are called without their wrapper."""
    lines = []
    for eqn in graph.eqns:
        emit = getattr(eqn.prim, "emit_direct" if direct else "emit", None)
        if emit is not None:  # fused kernels write their own call
            lines.extend("    " + line for line in emit(eqn, namer))
            continue
        operands = [namer.operand(a) for a in eqn.inputs]
        expression = _expression(eqn, operands, namer)
        if expression is not None:
            if not eqn.out.shape:
                expression = f"_asarray({expression})"
            lines.append(f"    {namer.var(eqn.out)} = {expression}")
            continue
        buffer = eqn.params.get("_out")
        params = [f"{key}={namer.value(value)}" for key, value in eqn.params.items()
                  if not key.startswith("_")]
        if buffer is not None:
            params.append(f"out={namer.var(buffer)}")
        call = f"{namer.kernel(eqn.prim)}({', '.join(operands + params)})"
        if not eqn.out.shape and buffer is None:
            call = f"_asarray({call})"  # NumPy reductions to 0-d return scalars
        lines.append(f"    {namer.var(eqn.out)} = {call}")
    results = ", ".join(namer.operand(a) for a in graph.outputs)
    lines.append(f"    return ({results}{',' if len(graph.outputs) == 1 else ''})")
    return lines


def _fast_path_condition(graph: Graph, namer: _Namer) -> str | None:
    """When the direct variant may run: NumPy arrays, C-contiguous where a kernel writes."""
    fused = [eqn for eqn in graph.eqns if hasattr(eqn.prim, "emit_direct")]
    arrays = [v for v in graph.inputs if v.shape]
    if not fused or not arrays:
        return None
    written = {b for eqn in fused for b in (eqn.params.get("_out") or ()) if b is not None}
    checks = [f"type({namer.var(arrays[0])}) is _ndarray"]
    checks += [f"{namer.var(v)}.flags.c_contiguous" for v in graph.inputs if v in written]
    return " and ".join(checks)


def generate(graph: Graph, name: str = "graph_function") -> Program:
    """The Python source of ``graph`` as a function of its inputs, and that function.

    With fused kernels, the function calls the compiled loops directly on NumPy
    arrays and hands other arrays (CuPy) to ``{name}_generic``, which runs each
    fused region through its wrapper (op by op off NumPy).
    """
    namer = _Namer(graph)
    signature = ", ".join(namer.var(v) for v in graph.inputs)
    generic = [f"def {name}_generic({signature}):"] + _body_lines(graph, namer, direct=False)
    condition = _fast_path_condition(graph, namer)
    if condition is None:
        lines = [f"def {name}({signature}):"] + _body_lines(graph, namer, direct=False)
    else:
        namer.constants["_ndarray"] = np.ndarray
        lines = ([f"def {name}({signature}):", f"    if not ({condition}):",
                  f"        return {name}_generic({signature})"]
                 + _body_lines(graph, namer, direct=True) + [""] + generic)
    source = "\n".join(lines)
    scope = dict(namer.constants)
    exec(compile(source, f"<unigrad graph {name}>", "exec"), scope)  # noqa: S102 - our own source
    return Program(source, scope[name], namer.constants)
