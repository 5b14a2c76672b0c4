"""Dead code elimination: drop the eqns that no graph output depends on.

Eqns of primitives declared ``impure`` (effects beyond their result) are always kept.

Example:
    >>> import numpy as np, unigrad
    >>> from unigrad.graph.ir import Eqn, Graph, Var
    >>> from unigrad.graph.passes.dce import dead_code_elimination
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> x, used, unused = Var((2,), np.float32), Var((2,), np.float32), Var((2,), np.float32)
    >>> graph = Graph([x], [Eqn(PRIMITIVES["exp"], [x], unused, {}),
    ...                     Eqn(PRIMITIVES["neg"], [x], used, {})], [used])
    >>> [eqn.prim.name for eqn in dead_code_elimination(graph).eqns]
    ['neg']
"""

from __future__ import annotations

from ..ir import Graph, Var


def dead_code_elimination(graph: Graph) -> Graph:
    """``graph`` without the eqns whose value no output needs, directly or through other eqns.

    The inputs (the signature) are kept even when unused; the kept eqns are shared.

    Example:
        >>> import numpy as np, unigrad
        >>> from unigrad.graph.ir import Eqn, Graph, Var
        >>> from unigrad.ops._primitive import PRIMITIVES
        >>> x, y, z = Var((3,), np.float32), Var((3,), np.float32), Var((3,), np.float32)
        >>> graph = Graph([x], [Eqn(PRIMITIVES["exp"], [x], y, {}),
        ...                     Eqn(PRIMITIVES["log"], [y], z, {})], [x])
        >>> dead_code_elimination(graph).eqns
        []
    """
    needed = {atom for atom in graph.outputs if isinstance(atom, Var)}
    kept = []
    for eqn in reversed(graph.eqns):
        if eqn.out in needed or eqn.impure:
            kept.append(eqn)
            needed.update(eqn.input_vars())
    kept.reverse()
    return graph.replace(eqns=kept)
