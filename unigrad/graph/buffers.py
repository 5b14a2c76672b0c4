"""Buffer reuse: an op whose operand dies at that op writes its result into the operand's memory.

An eqn computed by a NumPy ufunc or a fused kernel may write a result into the
buffer of a var ``b`` when (1) ``b`` owns its memory (a ufunc, a fused kernel
or another allocating kernel made it; graph inputs never qualify unless
donated), (2) ``b`` is read for the last time by this eqn and is not a graph
output, (3) every var that may alias ``b`` (views of it, results of kernels
that might return it) was last read *before* this eqn, and (4) ``b`` has the
result's shape and dtype. The eqn gets an ``_out`` param (one buffer, or for
fused kernels one entry per result) and the generated code passes ``out=``.
Elementwise kernels read each element before writing it, so computing in place
over an operand is safe; (3) excludes overlapping views with another layout.

Inputs *donated* by the caller (a parameter updated in place) may receive the
new value written back into them directly, so no copy is needed afterwards.

Example:
    >>> import numpy as np
    >>> from unigrad.graph.ir import Eqn, Graph, Var
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> x, y, z = (Var((4,), np.float64) for _ in range(3))
    >>> graph = Graph([x], [Eqn(PRIMITIVES["exp"], [x], y, {}),
    ...                     Eqn(PRIMITIVES["tanh"], [y], z, {})], [z])
    >>> reused = reuse_buffers(graph)
    >>> reused.eqns[1].params["_out"] is y
    True
"""

from __future__ import annotations

import numpy as np

from .ir import Eqn, Graph, Var


def _is_fused(eqn: Eqn) -> bool:
    return hasattr(eqn.prim, "emit_direct")  # a FusedKernel


def _computes_into_buffer(eqn: Eqn) -> bool:
    """Whether the generated code can pass ``out=`` to this eqn's kernel."""
    return _is_fused(eqn) or isinstance(getattr(eqn.prim, "impl", None), np.ufunc)


def _allocates(eqn: Eqn) -> bool:
    """Whether the eqn's results are always fresh arrays (never its operands' memory)."""
    return _computes_into_buffer(eqn) or getattr(eqn.prim, "result_memory", None) is not None


def _aliasing(graph: Graph) -> tuple[set, dict]:
    """``(owned, alias_last)``: vars that own their memory, and per owner the last eqn index
    at which any *other* var that may share its memory is read (-1 if none)."""
    last = graph.last_uses()
    roots: dict = {var: {var} for var in graph.inputs}
    owned: set = set()
    alias_last: dict = {}
    for eqn in graph.eqns:
        fresh = _allocates(eqn) and not getattr(eqn.prim, "is_view", False)
        shared = set() if fresh else set().union(*(roots.get(v, {v}) for v in eqn.input_vars()))
        for var in eqn.defined_vars():
            roots[var] = shared | {var}
            if fresh:
                owned.add(var)
            for root in shared:
                alias_last[root] = max(alias_last.get(root, -1), last.get(var, -1))
    return owned, alias_last


def reuse_buffers(graph: Graph, donated: dict | None = None) -> Graph:
    """Give ufunc and fused eqns an ``_out`` buffer wherever a dying operand's buffer is free.

    ``donated`` maps graph inputs to the var whose value will be written back
    into them; that var's eqn may compute straight into the input's buffer.
    """
    writes_into = {value: target for target, value in (donated or {}).items()}
    last = graph.last_uses()
    owned, alias_last = _aliasing(graph)
    # fused loops write through flat views: their buffers must be C-contiguous (a ufunc's
    # result follows its operands' layout; a fused kernel's or a matrix product's is C)
    contiguous = {var for eqn in graph.eqns if getattr(eqn.prim, "result_memory", None) ==
                  "fresh contiguous" for var in eqn.defined_vars()}
    contiguous.update(writes_into.values())  # donated inputs: checked when the code runs

    def free_at(var: Var, index: int, result: Var) -> bool:
        return (last.get(var, -1) <= index and alias_last.get(var, -1) < index
                and (var.shape, var.dtype) == (result.shape, result.dtype))

    eqns = []
    for index, eqn in enumerate(graph.eqns):
        if not _computes_into_buffer(eqn) or not eqn.out.shape:
            eqns.append(eqn)
            continue
        taken: set = set()
        buffers = []
        for result in eqn.defined_vars():
            target = writes_into.get(result)
            if target is not None and target not in taken and free_at(target, index, result):
                buffer = target
            else:
                buffer = next((var for var in eqn.input_vars()
                               if var in owned and var not in taken and last.get(var) == index
                               and free_at(var, index, result)
                               and (var in contiguous or not _is_fused(eqn))), None)
            if buffer is not None:
                taken.add(buffer)
                owned.discard(buffer)
                if buffer in contiguous:
                    contiguous.add(result)
            buffers.append(buffer)
        if not taken:
            eqns.append(eqn)
            continue
        out = tuple(buffers) if _is_fused(eqn) else buffers[0]
        eqns.append(Eqn(eqn.prim, eqn.inputs, eqn.out, {**eqn.params, "_out": out}))
    return graph.replace(eqns=eqns)
