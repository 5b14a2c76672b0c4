"""Buffer reuse: an op whose operand dies at that op writes its result into the operand's memory.

For eqns computed by a NumPy ufunc, an operand var that (1) is read for the
last time by this eqn, (2) owns its buffer (it was produced by a ufunc or a
fused kernel, not a view of something else, and no view was taken of it),
(3) is not a graph output and (4) has the result's shape and dtype, lends its
buffer: the eqn gets an ``_out`` param and the generated code calls the ufunc
with ``out=``. Graph inputs never lend their buffer, except inputs *donated*
by the caller (a parameter updated in place may receive its new value
directly, so no copy is needed afterwards).

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


def _writes_fresh_buffer(eqn: Eqn) -> bool:
    return isinstance(eqn.prim.impl, np.ufunc) or eqn.prim.name == "fused" if \
        hasattr(eqn.prim, "impl") else eqn.prim.name == "fused"


def reuse_buffers(graph: Graph, donated: dict | None = None) -> Graph:
    """Give ufunc eqns an ``_out`` operand buffer wherever that buffer is free.

    ``donated`` maps graph inputs to the var whose value will be written back
    into them; that var's eqn may compute straight into the input's buffer.
    """
    donated = donated or {}
    last = graph.last_uses()
    outputs = {a for a in graph.outputs if isinstance(a, Var)}
    owned: set = set()
    pinned: set = set()
    for eqn in graph.eqns:
        if getattr(eqn.prim, "is_view", False) or not _writes_fresh_buffer(eqn):
            pinned.update(eqn.input_vars())  # a view (or unknown kernel) may alias its operand
    eqns = []
    writes_into = {value: target for target, value in donated.items()}
    for index, eqn in enumerate(graph.eqns):
        prim = eqn.prim
        if _writes_fresh_buffer(eqn):
            owned.update(eqn.defined_vars())
        if not isinstance(getattr(prim, "impl", None), np.ufunc) or not eqn.out.shape:
            eqns.append(eqn)
            continue
        target = writes_into.get(eqn.out)
        if target is not None and last.get(target, -1) <= index and target not in pinned \
                and (target.shape, target.dtype) == (eqn.out.shape, eqn.out.dtype):
            buffer = target
        else:
            buffer = next((var for var in eqn.input_vars()
                           if var in owned and var not in pinned and var not in outputs
                           and last.get(var) == index
                           and (var.shape, var.dtype) == (eqn.out.shape, eqn.out.dtype)), None)
        if buffer is None:
            eqns.append(eqn)
            continue
        if buffer in owned:
            owned.discard(buffer)
        eqns.append(Eqn(prim, eqn.inputs, eqn.out, {**eqn.params, "_out": buffer}))
    return graph.replace(eqns=eqns)
