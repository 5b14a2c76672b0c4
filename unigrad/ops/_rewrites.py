"""Algebraic simplifications a primitive can declare (its ``simplify`` field).

Each rule is ``rule(eqn, producers) -> Atom | Eqn | None``: given a graph
equation of the primitive (``eqn.inputs``, ``eqn.params``, ``eqn.out``) and the
equations that produced the vars seen so far, it returns an operand that
equals the result (the pass uses it only when its shape and dtype match the
output), a cheaper equivalent equation, or None. The graph pass
:func:`unigrad.graph.passes.simplify.algebraic_simplification` applies them.

Example:
    >>> import numpy as np
    >>> from unigrad.graph.ir import Eqn, Literal, Var
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> x, y = Var((3,), np.float32), Var((3,), np.float32)
    >>> mul = PRIMITIVES["mul"]
    >>> mul.simplify(Eqn(mul, [x, Literal(1.0)], y, {}), {}) is x
    True
"""

from __future__ import annotations

from collections.abc import Callable


def constant_value(atom, producers: dict):
    """The number every element of ``atom`` holds when that is known, else None.

    A literal, or a var made by broadcasting one (what a sum's backward pass
    makes of the ones it starts from).
    """
    if hasattr(atom, "value"):  # a Literal
        number = atom.scalar()
        if number is None and atom.is_array and atom.value.size:
            first = atom.value.flat[0]
            number = first.item() if bool((atom.value == first).all()) else None
        return number
    producer = producers.get(atom)
    if producer is not None and producer.prim.name == "broadcast_to":
        return constant_value(producer.inputs[0], producers)
    return None


def same_type(atom, var) -> bool:
    """Whether ``atom`` has exactly ``var``'s shape and dtype (it may then replace it)."""
    import numpy as np
    return tuple(atom.shape) == tuple(var.shape) and np.dtype(atom.dtype) == var.dtype


def neutral_operand(neutral: float, positions: tuple) -> Callable:
    """``x op neutral -> x`` for the operand ``positions`` where ``neutral`` may stand
    (``x+0``, ``0+x``, ``x-0``, ``x*1``, ``1*x``, ``x/1``). ``x*0`` is never rewritten
    (``nan*0`` is ``nan``)."""
    def drop_neutral_operand(eqn, producers: dict):
        for position in positions:
            other = eqn.inputs[1 - position]
            if constant_value(eqn.inputs[position], producers) == neutral \
                    and same_type(other, eqn.out):
                return other
        return None
    return drop_neutral_operand


def involution(eqn, producers: dict):
    """``f(f(x)) -> x`` (``neg(neg(x))``)."""
    inner = producers.get(eqn.inputs[0])
    return inner.inputs[0] if inner is not None and inner.prim is eqn.prim else None


def operand_when_unchanged(eqn, producers: dict):
    """A broadcast, cast or reshape that may change nothing: its operand (kept only when
    the types match)."""
    return eqn.inputs[0]


def compose_transposes(eqn, producers: dict):
    """A transpose of a transpose -> one transpose, or its operand for the identity."""
    operand = eqn.inputs[0]
    ndim = len(eqn.out.shape)
    axes = tuple(int(axis) % ndim for axis in eqn.params["axes"])
    inner = producers.get(operand)
    if inner is not None and inner.prim is eqn.prim:
        inner_axes = tuple(int(axis) % ndim for axis in inner.params["axes"])
        axes = tuple(inner_axes[axis] for axis in axes)
        operand = inner.inputs[0]
    if axes == tuple(range(ndim)):
        return operand
    if operand is eqn.inputs[0]:
        return None
    from ..graph.ir import Eqn
    return Eqn(eqn.prim, [operand], eqn.out, {**eqn.params, "axes": axes})


def compose_reshapes(eqn, producers: dict):
    """A reshape of a reshape -> one reshape; a reshape that changes nothing -> its operand."""
    operand = eqn.inputs[0]
    inner = producers.get(operand)
    if inner is None or inner.prim is not eqn.prim:
        return operand  # kept only when the reshape changes nothing
    source = inner.inputs[0]
    if same_type(source, eqn.out):
        return source
    from ..graph.ir import Eqn
    return Eqn(eqn.prim, [source], eqn.out, eqn.params)
