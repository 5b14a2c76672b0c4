"""Algebraic simplification: rewrite eqns to cheaper equivalents.

Rewrites ``x*1``, ``1*x``, ``x+0``, ``0+x``, ``x-0``, ``x/1`` and ``neg(neg(x))`` to ``x``;
a transpose of a transpose to one transpose (or to ``x`` when the axes compose to the
identity), a reshape of a reshape to one reshape, and reshapes, broadcasts and casts
that change nothing to their operand. A var defined by broadcasting a constant (what a
sum's backward pass makes of the ones it starts from) counts as that constant, as does
a literal array whose elements are all equal. An eqn is replaced by an operand only
when the operand has exactly the eqn output's shape and dtype. ``x*0`` is left alone
(``nan*0`` is ``nan``). The eqns this leaves unused are for dead code elimination.

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

from collections.abc import Callable

import numpy as np

from ..ir import Atom, Eqn, Graph, Literal, Var, redirected, substitute

# name -> (the neutral constant, the operand positions where it may stand)
_NEUTRAL_OPERANDS = {"add": (0, (0, 1)), "sub": (0, (1,)), "mul": (1, (0, 1)), "div": (1, (1,))}


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
        rule = _RULES.get(eqn.prim.name)
        result = rule(eqn, producers) if rule is not None else None
        if isinstance(result, Eqn):
            eqn = result
        elif result is not None and _same_type(result, eqn.out):
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


def _same_type(atom: Atom, var: Var) -> bool:
    return tuple(atom.shape) == var.shape and np.dtype(atom.dtype) == var.dtype


def _constant(atom: Atom, producers: dict):
    """The number every element of ``atom`` holds when that is known, else None."""
    if isinstance(atom, Literal):
        number = atom.scalar()
        if number is None and atom.is_array and atom.value.size:
            first = atom.value.flat[0]
            number = first.item() if bool((atom.value == first).all()) else None
        return number
    producer = producers.get(atom)
    if producer is not None and producer.prim.name == "broadcast_to":
        return _constant(producer.inputs[0], producers)
    return None


def _drop_neutral_operand(eqn: Eqn, producers: dict) -> Atom | None:
    """``x+0``, ``0+x``, ``x-0``, ``x*1``, ``1*x``, ``x/1`` -> ``x``."""
    neutral, positions = _NEUTRAL_OPERANDS[eqn.prim.name]
    for position in positions:
        other = eqn.inputs[1 - position]
        if _constant(eqn.inputs[position], producers) == neutral and _same_type(other, eqn.out):
            return other
    return None


def _double_negation(eqn: Eqn, producers: dict) -> Atom | None:
    inner = producers.get(eqn.inputs[0])
    return inner.inputs[0] if inner is not None and inner.prim.name == "neg" else None


def _compose_transposes(eqn: Eqn, producers: dict) -> Atom | Eqn | None:
    operand = eqn.inputs[0]
    ndim = eqn.out.ndim
    axes = tuple(int(axis) % ndim for axis in eqn.params["axes"])
    inner = producers.get(operand)
    if inner is not None and inner.prim.name == "transpose":
        inner_axes = tuple(int(axis) % ndim for axis in inner.params["axes"])
        axes = tuple(inner_axes[axis] for axis in axes)
        operand = inner.inputs[0]
    if axes == tuple(range(ndim)):
        return operand
    if operand is eqn.inputs[0]:
        return None
    return Eqn(eqn.prim, [operand], eqn.out, {**eqn.params, "axes": axes})


def _compose_reshapes(eqn: Eqn, producers: dict) -> Atom | Eqn | None:
    operand = eqn.inputs[0]
    inner = producers.get(operand)
    if inner is None or inner.prim.name != "reshape":
        return operand  # kept only when the reshape changes nothing
    source = inner.inputs[0]
    return source if _same_type(source, eqn.out) else Eqn(eqn.prim, [source], eqn.out,
                                                          eqn.params)


def _operand(eqn: Eqn, producers: dict) -> Atom:
    """A broadcast or cast that may change nothing: its operand (kept when types match)."""
    return eqn.inputs[0]


_RULES: dict[str, Callable[[Eqn, dict], Atom | Eqn | None]] = {
    **dict.fromkeys(_NEUTRAL_OPERANDS, _drop_neutral_operand),
    "neg": _double_negation,
    "transpose": _compose_transposes,
    "reshape": _compose_reshapes,
    "broadcast_to": _operand,
    "cast": _operand,
}
