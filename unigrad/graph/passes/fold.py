"""Constant folding: evaluate now the eqns whose operands are all literals.

Example:
    >>> import numpy as np, unigrad
    >>> from unigrad.graph.ir import Eqn, Graph, Literal, Var
    >>> from unigrad.graph.passes.fold import constant_folding
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> y = Var((), np.float64)
    >>> graph = Graph([], [Eqn(PRIMITIVES["add"], [Literal(1.0), Literal(2.0)], y, {})], [y])
    >>> constant_folding(graph).outputs
    [Literal(3.0:f64)]
"""

from __future__ import annotations

import numpy as np

from ..ir import Eqn, Graph, Literal, redirected, substitute

# Results with more elements than this stay eqns rather than becoming large constants.
LARGEST_FOLDED_SIZE = 4096


def constant_folding(graph: Graph) -> Graph:
    """``graph`` with every all-literal eqn replaced by the literal it computes.

    Folding repeats along chains (a folded value makes its users all-literal). Impure
    primitives (``impure = True``), results of more than ``LARGEST_FOLDED_SIZE``
    elements and eqns whose evaluation fails (left to fail when the graph runs) stay.
    A folded value is an array with exactly the eqn output's shape and dtype.

    Example:
        >>> import numpy as np, unigrad
        >>> from unigrad.graph.ir import Eqn, Graph, Literal, Var
        >>> from unigrad.ops._primitive import PRIMITIVES
        >>> x, two, y = Var((2,), np.float32), Var((), np.float32), Var((2,), np.float32)
        >>> graph = Graph([x], [
        ...     Eqn(PRIMITIVES["add"], [Literal(np.float32(1)), Literal(np.float32(1))], two, {}),
        ...     Eqn(PRIMITIVES["mul"], [x, two], y, {})], [y])
        >>> print(constant_folding(graph))
        graph(%0: f32[2]) {
          %1: f32[2] = mul(%0, 2.0:f32)
          return (%1)
        }
    """
    mapping: dict = {}
    eqns = []
    for eqn in graph.eqns:
        eqn = redirected(eqn, mapping)
        value = _folded_value(eqn)
        if value is None:
            eqns.append(eqn)
        else:
            mapping[eqn.out] = Literal(value)
    return graph.replace(eqns=eqns, outputs=substitute(graph.outputs, mapping))


def _folded_value(eqn: Eqn) -> np.ndarray | None:
    """The value of an all-literal eqn, or None when it is not to be folded."""
    if (eqn.impure or eqn.out.size > LARGEST_FOLDED_SIZE
            or not all(isinstance(atom, Literal) for atom in eqn.inputs)):
        return None
    try:
        with np.errstate(all="ignore"):  # 1/0 folds to inf; whether that matters is for run time
            value = np.array(eqn.prim.impl(*(atom.value for atom in eqn.inputs), **eqn.params),
                             dtype=eqn.out.dtype)
    except Exception:  # left to fail, with the runtime's context, when the graph runs
        return None
    return value if value.shape == eqn.out.shape else None
