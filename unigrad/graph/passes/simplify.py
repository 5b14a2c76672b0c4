"""Algebraic simplification: rewrite eqns to cheaper equivalents.

Each primitive declares the simplifications it takes part in (its ``simplify``
field, rules from :mod:`unigrad.ops._rewrites`); this pass applies them in
order. The declared rules rewrite ``x*1``, ``1*x``, ``x+0``, ``0+x``, ``x-0``, ``x/1``
and ``neg(neg(x))`` to ``x``; a transpose of a transpose to one transpose (or to ``x``
when the axes compose to the identity), a reshape of a reshape to one reshape, and
reshapes, broadcasts and casts that change nothing to their operand. A var defined by
broadcasting a constant (what a sum's backward pass makes of the ones it starts from)
counts as that constant, as does a literal array whose elements are all equal. An eqn
is replaced by an operand only when the operand has exactly the eqn output's shape and
dtype. ``x*0`` is left alone (``nan*0`` is ``nan``). The eqns this leaves unused are
for dead code elimination.

Example:
    >>> import numpy as np, unigrad
    >>> from unigrad.graph.ir import Eqn, Graph, Literal, Var
    >>> from unigrad.graph.passes.simplify import algebraic_simplification
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> x, y = Var((3,), np.float32), Var((3,), np.float32)
    >>> graph = Graph([x], [Eqn(PRIMITIVES["mul"], [x, Literal(1.0)], y, {})], [y])
    >>> algebraic_simplification(graph).outputs == [x]
    True
"""

from __future__ import annotations

from ...ops._rewrites import same_type
from ..ir import Eqn, Graph, Var, redirected, substitute


def algebraic_simplification(graph: Graph) -> Graph:
    """``graph`` with the identities above applied; uses of a removed eqn read its replacement.

    Example:
        >>> import numpy as np, unigrad
        >>> from unigrad.graph.ir import Eqn, Graph, Var
        >>> from unigrad.ops._primitive import PRIMITIVES
        >>> x, y, z = Var((2, 3), np.float32), Var((3, 2), np.float32), Var((2, 3), np.float32)
        >>> transpose = PRIMITIVES["transpose"]
        >>> graph = Graph([x], [Eqn(transpose, [x], y, {"axes": (1, 0)}),
        ...                     Eqn(transpose, [y], z, {"axes": (1, 0)})], [z])
        >>> algebraic_simplification(graph).outputs == [x]
        True
    """
    graph = _transposed_matmuls(graph)
    mapping: dict = {}
    producers: dict = {}
    eqns = []
    for eqn in graph.eqns:
        eqn = redirected(eqn, mapping)
        rule = getattr(eqn.prim, "simplify", None)
        result = rule(eqn, producers) if rule is not None else None
        if isinstance(result, Eqn):
            eqn = result
        elif result is not None and same_type(result, eqn.out):
            mapping[eqn.out] = result
            continue
        eqns.append(eqn)
        producers[eqn.out] = eqn
    return graph.replace(eqns=eqns, outputs=substitute(graph.outputs, mapping))


def _transposed_matmuls(graph: Graph) -> Graph:
    """``transpose(matmul(a, b))`` of matrices -> ``matmul(b.T, a.T)`` when the product has no
    other reader: the result comes out contiguous (a weight gradient ``(x.T @ g).T`` becomes
    ``g.T @ x``, and the transposes of transposes then cancel)."""
    uses = graph.use_counts()
    producers: dict = {}
    eqns = []
    for eqn in graph.eqns:
        inner = producers.get(eqn.inputs[0]) if eqn.prim.name == "transpose" else None
        if inner is not None and inner.prim.name == "matmul" and uses.get(inner.out) == 1 \
                and eqn.out.ndim == 2 and not inner.params \
                and all(isinstance(a, Var) and a.ndim == 2 for a in inner.inputs):
            transpose = eqn.prim
            left, right = inner.inputs
            right_t = Var(right.shape[::-1], right.dtype)
            left_t = Var(left.shape[::-1], left.dtype)
            eqns.append(Eqn(transpose, [right], right_t, {"axes": (1, 0)}))
            eqns.append(Eqn(transpose, [left], left_t, {"axes": (1, 0)}))
            eqn = Eqn(inner.prim, [right_t, left_t], eqn.out, {})
        eqns.append(eqn)
        producers[eqn.out] = eqn
    return graph.replace(eqns=eqns) if len(eqns) != len(graph.eqns) else graph


