"""Common subexpression elimination: compute each distinct (primitive, operands, params) once.

Two eqns with the same primitive, the same operands (vars by identity, literals by
value) and equal params compute the same value, so the later one is dropped and its
uses read the earlier one's output. Primitives marked ``impure = True`` (random number
generation) are never merged.

Example:
    >>> import numpy as np, unigrad
    >>> from unigrad.graph.ir import Eqn, Graph, Var
    >>> from unigrad.graph.passes.cse import common_subexpression_elimination
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> x, a, b = Var((2,), np.float32), Var((2,), np.float32), Var((2,), np.float32)
    >>> exp = PRIMITIVES["exp"]
    >>> graph = Graph([x], [Eqn(exp, [x], a, {}), Eqn(exp, [x], b, {})], [a, b])
    >>> result = common_subexpression_elimination(graph)
    >>> len(result.eqns), result.outputs == [a, a]
    (1, True)
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from ..ir import Graph, Literal, Var, redirected, substitute

# Arrays up to this many elements are compared by value, larger ones by identity.
_LARGEST_COMPARED_ARRAY = 64


def common_subexpression_elimination(graph: Graph) -> Graph:
    """``graph`` with every repeated computation replaced by its first occurrence.

    Uses of a dropped eqn's output, graph outputs included, read the kept eqn's output.

    Example:
        >>> import numpy as np, unigrad
        >>> from unigrad.graph.ir import Eqn, Graph, Literal, Var
        >>> from unigrad.ops._primitive import PRIMITIVES
        >>> x = Var((2,), np.float32)
        >>> a, b, c = (Var((2,), np.float32) for _ in range(3))
        >>> mul, add = PRIMITIVES["mul"], PRIMITIVES["add"]
        >>> graph = Graph([x], [Eqn(mul, [x, Literal(2.0)], a, {}),
        ...                     Eqn(mul, [x, Literal(2.0)], b, {}),
        ...                     Eqn(add, [a, b], c, {})], [c])
        >>> print(common_subexpression_elimination(graph))
        graph(%0: f32[2]) {
          %1: f32[2] = mul(%0, 2.0)
          %2: f32[2] = add(%1, %1)
          return (%2)
        }
    """
    mapping: dict = {}
    seen: dict = {}
    eqns = []
    for eqn in graph.eqns:
        eqn = redirected(eqn, mapping)
        if not eqn.impure:
            key = (eqn.prim, tuple(hashable_key(atom) for atom in eqn.inputs),
                   hashable_key(eqn.params))
            if key in seen:
                mapping[eqn.out] = seen[key]
                continue
            seen[key] = eqn.out
        eqns.append(eqn)
    return graph.replace(eqns=eqns, outputs=substitute(graph.outputs, mapping))


def hashable_key(value) -> Hashable:
    """A hashable key, equal for two values exactly when they surely mean the same thing.

    Vars compare by identity; numbers by type and value (``-0.0`` differs from ``0.0``);
    small arrays by dtype, shape and bytes; dtypes and NumPy scalar types by dtype;
    tuples, lists, slices and dicts by their parts; anything unhashable by identity.

    Example:
        >>> import numpy as np
        >>> hashable_key((1, np.array([2, 3]))) == hashable_key((1, np.array([2, 3])))
        True
        >>> hashable_key(0.0) == hashable_key(-0.0), hashable_key([1]) == hashable_key((1,))
        (False, False)
    """
    if isinstance(value, Var):
        return value
    if isinstance(value, Literal):
        return ("literal", hashable_key(value.value))
    if isinstance(value, (np.ndarray, np.generic)):
        array = np.asarray(value)
        if array.size > _LARGEST_COMPARED_ARRAY or array.dtype.hasobject:
            return ("id", id(value))
        return ("array", array.dtype, array.shape, array.tobytes())
    if isinstance(value, (float, complex)):
        return (type(value), repr(value))
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return ("dtype", np.dtype(value))
    if isinstance(value, (tuple, list)):
        return (type(value), tuple(hashable_key(item) for item in value))
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda item: repr(item[0]))
        return (dict, tuple((key, hashable_key(item)) for key, item in items))
    if isinstance(value, slice):
        return (slice, hashable_key(value.start), hashable_key(value.stop),
                hashable_key(value.step))
    try:
        hash(value)
    except TypeError:
        return ("id", id(value))
    return (type(value), value)
