"""Elementwise fusion: runs of elementwise eqns of one shape become one compiled loop.

Scanning the graph in order, each elementwise eqn joins the open group of its
output shape; a group closes (and is emitted as one ``fused`` eqn) just
before the first eqn outside it that reads one of its values. Operands from
outside a group must have the group's shape or hold a single element, so
the kernel is one flat loop over the elements. Values used only inside the
group never touch memory.

The kernel is a numba-compiled loop (the ``[jit]`` extra). Without numba this
pass changes nothing and every elementwise op runs as its own NumPy ufunc
(the buffer-reuse pass still avoids allocations). A fused kernel given
non-NumPy arrays (CuPy) runs its body op by op instead.

Kernels follow NumPy's error model (inf and nan, never an exception) and are
compiled once per loop, whatever the array sizes; the compiled loops are
cached on disk and, in memory, up to :func:`~unigrad.graph.kernel_cache_size`
of them, the least recently used going first
(:func:`~unigrad.graph.set_kernel_cache_size` changes the bound; a jitted
function keeps the kernels it uses whatever the bound).

Example:
    >>> import numpy as np
    >>> import unigrad as ug
    >>> from unigrad.graph.fusion import scalar_expression
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> scalar_expression(PRIMITIVES["tanh"], ["x"], {}, np.dtype(np.float32))
    'np.float32(np.tanh(x))'
    >>> previous = ug.graph.kernel_cache_size()
    >>> ug.graph.set_kernel_cache_size(64)  # keep at most 64 compiled loops in memory
    >>> ug.graph.kernel_cache_size()
    64
    >>> ug.graph.set_kernel_cache_size(previous)
"""

from __future__ import annotations

import importlib.util
import math
import sys

import numpy as np

from .ir import Eqn, Graph, Var
from .kernel_cache import load_kernel

_MINIMUM_GROUP = 2  # a lone op gains nothing from a compiled loop

_HELPERS = '''
@_numba.njit(inline="always", error_model="numpy")
def _maximum(a, b):
    return a if (a > b or a != a) else b

@_numba.njit(inline="always", error_model="numpy")
def _minimum(a, b):
    return a if (a < b or a != a) else b

@_numba.njit(inline="always", error_model="numpy")
def _sigmoid(x):
    if x >= 0:
        return 1 / (1 + np.exp(-x))
    z = np.exp(x)
    return z / (1 + z)
'''


def numba_available() -> bool:
    """Whether the ``[jit]`` extra's numba is installed.

    Found without importing it: numba's import (about a quarter of a second) waits
    until a fused kernel is loaded, so compiling a graph with nothing to fuse (a
    BLAS-bound MLP) never pays it.

    Example:
        >>> from unigrad.graph.fusion import numba_available
        >>> isinstance(numba_available(), bool)
        True
    """
    if "numba" in sys.modules:  # imported, or blocked with None
        return sys.modules["numba"] is not None
    return importlib.util.find_spec("numba") is not None


def scalar_expression(prim, operands: list[str], params: dict, dtype: np.dtype) -> str | None:
    """One element of ``prim`` applied to scalar operand expressions, or None if not fusable.

    The expression is the primitive's own declaration (its ``scalar`` field), typed
    to the output dtype.
    """
    expression = getattr(prim, "scalar_expression", None)
    expression = expression(operands, params, dtype) if expression is not None else None
    if expression is None:
        return None
    return f"np.{dtype.name}({expression})" if dtype.kind != "b" else f"bool({expression})"


def typed_number(value, dtype: np.dtype) -> str:
    """A Python number as a scalar of ``dtype`` in kernel source."""
    if isinstance(value, bool):
        return repr(value)
    if not math.isfinite(float(value)):  # numba types np.inf / np.nan, not float strings
        number = float(value)
        name = "np.nan" if math.isnan(number) else ("np.inf" if number > 0 else "-np.inf")
        return f"np.{dtype.name}({name})"
    return f"np.{dtype.name}({value!r})"


class FusedKernel:
    """The ``prim`` of a fused eqn: a body graph, its numba kernel and an op-by-op fallback."""

    name = "fused"
    impure = False
    result_memory = "fresh contiguous"  # outputs are new C-contiguous arrays (or out= buffers)
    kind = "other"
    shape = None  # verified through its body

    def __init__(self, body: Graph, shape: tuple, outputs: list, probe: int = 0):
        self.body = body
        self.out_shape = shape
        self.outputs = outputs  # vars of the enclosing graph this kernel defines
        self._kernel = None
        self._results = tuple((shape, v.dtype) for v in body.outputs)
        self._probe = probe  # an operand that is a graph value (its type tells the backend)
        self.source = _kernel_source(body)

    def __repr__(self) -> str:
        return f"<fused kernel of {len(self.body.eqns)} ops>"

    def text_body(self, eqn: Eqn, name) -> list[str]:
        return ["# " + line for line in self.body.text().splitlines()]

    def compile(self):
        """The numba dispatcher of this kernel's loop (shared by kernels of the same source,
        so a retrace or another function with the same loop compiles nothing new). This
        kernel keeps it: the bounded in-memory cache may let it go, this kernel does not."""
        if self._kernel is None:
            self._kernel = load_kernel(_HELPERS + self.source)
        return self._kernel

    def __call__(self, *inputs, out=None):
        """Run the kernel; returns a tuple of output arrays (the body's outputs).

        ``out`` optionally gives, per output, a C-contiguous buffer to write into (or None).
        """
        if type(inputs[self._probe]) is not np.ndarray:
            from .jit import interpret_arrays
            return tuple(interpret_arrays(self.body, list(inputs)))
        if out is None:
            outputs = tuple(np.empty(shape, dtype) for shape, dtype in self._results)
        else:
            outputs = tuple(np.empty(shape, dtype) if buffer is None or
                            not buffer.flags.c_contiguous else buffer
                            for buffer, (shape, dtype) in zip(out, self._results))
        (self._kernel or self.compile())(*inputs, *outputs)
        if out is not None:
            for buffer, result in zip(out, outputs):
                if buffer is not None and buffer is not result:
                    buffer[...] = result
        return outputs

    def emit(self, eqn: Eqn, namer) -> list[str]:
        kernel = namer.constant(self, "fused_")
        operands = [namer.operand(a) for a in eqn.inputs]
        buffers = eqn.params.get("_out")
        if buffers is not None:
            listed = ", ".join("None" if b is None else namer.var(b) for b in buffers)
            operands.append(f"out=({listed},)")
        targets = ", ".join(namer.var(v) for v in self.outputs)
        return [f"{targets}, = {kernel}({', '.join(operands)})"]

    def emit_direct(self, eqn: Eqn, namer) -> list[str]:
        """The call of the compiled loop itself on NumPy arrays, outputs allocated inline."""
        kernel = namer.constant(self.compile(), "kernel_")
        buffers = eqn.params.get("_out") or (None,) * len(self.outputs)
        lines = []
        for var, buffer, (shape, dtype) in zip(self.outputs, buffers, self._results):
            if buffer is not None:
                lines.append(f"{namer.var(var)} = {namer.var(buffer)}")
            else:
                lines.append(f"{namer.var(var)} = _empty({shape!r}, {namer.constant(dtype)})")
        namer.constants["_empty"] = np.empty
        operands = [namer.operand(a) for a in eqn.inputs] + [namer.var(v) for v in self.outputs]
        lines.append(f"{kernel}({', '.join(operands)})")
        return lines


def _kernel_source(body: Graph) -> str:
    """``kernel(inputs..., outputs...)``: a loop evaluating the body per element.

    Operands of any layout are read flat (``ravel`` is a view of a contiguous array);
    outputs are C-contiguous arrays of the result shape, written through flat views. The
    source holds no sizes (the loop runs over the first output's), so inputs of other
    shapes with the same broadcasting reuse one compiled kernel.
    """
    names = {}
    size = body.outputs[0].size if body.outputs else 0
    lines = []
    inputs = []
    for index, var in enumerate(body.inputs):
        inputs.append(f"x{index}")
        if var.size == 1 and size != 1:
            lines.append(f"    s{index} = x{index}.ravel()[0]")
            names[var] = f"s{index}"
        else:
            lines.append(f"    f{index} = x{index}.ravel()")
            names[var] = f"f{index}[i]"
    loop = []
    for index, eqn in enumerate(body.eqns):
        operands = []
        scalar_dtype = _scalar_dtype(eqn)
        for atom in eqn.inputs:
            if isinstance(atom, Var):
                operands.append(names[atom])
            else:
                operands.append(typed_number(atom.scalar(), scalar_dtype))
        expression = scalar_expression(eqn.prim, operands, eqn.params, eqn.out.dtype)
        loop.append(f"        t{index} = {expression}")
        names[eqn.out] = f"t{index}"
    outputs = []
    for index, var in enumerate(body.outputs):
        outputs.append(f"y{index}")
        lines.append(f"    o{index} = y{index}.reshape(y{index}.size)")
        loop.append(f"        o{index}[i] = {names[var]}")
    header = f"def kernel({', '.join(inputs + outputs)}):"
    return "\n".join(["@_numba.njit(error_model=\"numpy\")", header] + lines +
                     ["    for i in range(y0.size):"] + loop) + "\n"


def _scalar_dtype(eqn: Eqn) -> np.dtype:
    """The dtype a Python number operand takes (NumPy's weak scalars: the array's float dtype)."""
    for atom in eqn.inputs:
        if isinstance(atom, Var) and atom.dtype.kind == "f":
            return atom.dtype
    return eqn.out.dtype if eqn.out.dtype.kind == "f" else np.dtype(np.float64)


def _fusable(eqn: Eqn) -> bool:
    if isinstance(eqn.prim, FusedKernel) or eqn.out.dtype.kind not in "fb" or not eqn.out.shape:
        return False
    operands = []
    for atom in eqn.inputs:
        if isinstance(atom, Var):
            if atom.shape != eqn.out.shape and atom.size != 1:
                return False
            if atom.dtype.kind not in "fbiu":
                return False
            operands.append("x")
        elif atom.is_array and atom.value.size != 1:
            if atom.shape != eqn.out.shape or atom.dtype.kind not in "fbiu":
                return False
            operands.append("x")
        elif atom.scalar() is None:
            return False
        else:
            operands.append("x")
    return scalar_expression(eqn.prim, operands, eqn.params, eqn.out.dtype) is not None


class _Group:
    def __init__(self):
        self.eqns: list[Eqn] = []
        self.defined: set = set()


def fuse_elementwise(graph: Graph) -> Graph:
    """Replace runs of fusable elementwise eqns by ``fused`` eqns (no-op without numba).

    Example:
        >>> import numpy as np
        >>> from unigrad.graph.ir import Eqn, Graph, Var
        >>> from unigrad.ops._primitive import PRIMITIVES
        >>> x, y, z = (Var((4,), np.float64) for _ in range(3))
        >>> graph = Graph([x], [Eqn(PRIMITIVES["exp"], [x], y, {}),
        ...                     Eqn(PRIMITIVES["tanh"], [y], z, {})], [z])
        >>> fused = fuse_elementwise(graph)
        >>> [eqn.prim.name for eqn in fused.eqns] == (["fused"] if numba_available()
        ...                                           else ["exp", "tanh"])
        True
    """
    if not numba_available():
        return graph
    uses = _consumers(graph)
    output_vars = {a for a in graph.outputs if isinstance(a, Var)}
    open_groups: dict = {}
    eqns: list = []

    def close(key):
        group = open_groups.pop(key)
        eqns.extend(_emit(group, uses, output_vars))

    for eqn in graph.eqns:
        reads = set(eqn.input_vars())
        fusable = _fusable(eqn)
        for key in list(open_groups):
            group = open_groups[key]
            if reads & group.defined and not (fusable and key == eqn.out.shape):
                close(key)
        if fusable:
            group = open_groups.setdefault(eqn.out.shape, _Group())
            group.eqns.append(eqn)
            group.defined.add(eqn.out)
        else:
            eqns.append(eqn)
    for key in list(open_groups):
        close(key)
    return graph.replace(eqns=eqns)


def _consumers(graph: Graph) -> dict:
    consumers: dict = {}
    for eqn in graph.eqns:
        for var in eqn.input_vars():
            consumers.setdefault(var, []).append(eqn)
    return consumers


def _emit(group: _Group, uses: dict, output_vars: set) -> list:
    if len(group.eqns) < _MINIMUM_GROUP:
        return group.eqns
    members = set(map(id, group.eqns))
    inputs: list = []  # vars, and array literals (passed to the kernel like vars)
    seen = set()
    for eqn in group.eqns:
        for atom in eqn.inputs:
            key = atom if isinstance(atom, Var) else id(atom)
            if isinstance(atom, Var) and atom in group.defined or key in seen:
                continue
            if isinstance(atom, Var) or (atom.is_array and atom.value.size != 1):
                seen.add(key)
                inputs.append(atom)
    outputs = [eqn.out for eqn in group.eqns
               if eqn.out in output_vars or any(id(c) not in members
                                                for c in uses.get(eqn.out, ()))]
    body_inputs = [Var(v.shape, v.dtype) for v in inputs]
    mapping = {(a if isinstance(a, Var) else id(a)): body for a, body in zip(inputs, body_inputs)}
    body_eqns = []
    for eqn in group.eqns:
        operands = [mapping.get(a if isinstance(a, Var) else id(a), a) for a in eqn.inputs]
        out = Var(eqn.out.shape, eqn.out.dtype)
        mapping[eqn.out] = out
        body_eqns.append(Eqn(eqn.prim, operands, out, eqn.params))
    body = Graph(body_inputs, body_eqns, [mapping[v] for v in outputs])
    probe = next((i for i, a in enumerate(inputs) if isinstance(a, Var)), 0)
    kernel = FusedKernel(body, group.eqns[0].out.shape, outputs, probe)
    # one eqn per fused kernel; its ``out`` is the first result, the others come with it
    return [Eqn(kernel, inputs, outputs[0], {})] if outputs else []
