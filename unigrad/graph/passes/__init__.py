"""Graph-to-graph optimization passes, and :func:`optimize` to run them to a fixed point.

Each pass takes a :class:`~unigrad.graph.ir.Graph` and returns a new one computing the
same outputs from the same inputs; the input graph and its eqns are never changed.

Example:
    >>> import numpy as np, unigrad
    >>> from unigrad.graph.ir import Eqn, Graph, Literal, Var
    >>> from unigrad.graph.passes import optimize
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> x, ones, y = Var((3,), np.float32), Var((3,), np.float32), Var((3,), np.float32)
    >>> graph = Graph([x], [
    ...     Eqn(PRIMITIVES["broadcast_to"], [Literal(np.float32(1))], ones, {"shape": (3,)}),
    ...     Eqn(PRIMITIVES["mul"], [x, ones], y, {})], [y])
    >>> print(optimize(graph))
    graph(%0: f32[3]) {
      return (%0)
    }
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..ir import Graph
from .cse import common_subexpression_elimination
from .dce import dead_code_elimination
from .fold import constant_folding
from .simplify import algebraic_simplification

__all__ = ["PASSES", "algebraic_simplification", "common_subexpression_elimination",
           "constant_folding", "dead_code_elimination", "optimize"]

# Simplification first (it sees broadcast constants before folding makes them arrays),
# dead code elimination last (it removes what the others left unused).
PASSES: tuple[tuple[str, Callable[[Graph], Graph]], ...] = (
    ("algebraic_simplification", algebraic_simplification),
    ("constant_folding", constant_folding),
    ("common_subexpression_elimination", common_subexpression_elimination),
    ("dead_code_elimination", dead_code_elimination),
)

MAX_ROUNDS = 4


def optimize(graph: Graph,
             passes: Sequence[tuple[str, Callable[[Graph], Graph]]] | None = None) -> Graph:
    """Run ``passes`` (``(name, function)`` pairs, :data:`PASSES` by default) in order,
    round after round, until a round changes nothing or ``MAX_ROUNDS`` rounds have run.

    Example:
        >>> import numpy as np, unigrad
        >>> from unigrad.graph.ir import Eqn, Graph, Var
        >>> from unigrad.ops._primitive import PRIMITIVES
        >>> x = Var((2,), np.float32)
        >>> a, b, c = (Var((2,), np.float32) for _ in range(3))
        >>> exp, add = PRIMITIVES["exp"], PRIMITIVES["add"]
        >>> graph = Graph([x], [Eqn(exp, [x], a, {}), Eqn(exp, [x], b, {}),
        ...                     Eqn(add, [a, b], c, {})], [c])
        >>> [eqn.prim.name for eqn in optimize(graph).eqns]
        ['exp', 'add']
        >>> len(optimize(graph, passes=[("dce", dead_code_elimination)]).eqns)
        3
    """
    for _ in range(MAX_ROUNDS):
        before = graph
        for _name, function in PASSES if passes is None else passes:
            graph = function(graph)
        if _unchanged(before, graph):
            break
    return graph


def _unchanged(before: Graph, after: Graph) -> bool:
    """Whether ``after`` has the very same eqns and outputs (a pass shares what it keeps)."""
    return (len(before.eqns) == len(after.eqns) and len(before.outputs) == len(after.outputs)
            and all(old is new for old, new in zip(before.eqns, after.eqns))
            and all(old is new for old, new in zip(before.outputs, after.outputs)))
