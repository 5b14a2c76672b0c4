"""Pytrees: nested tuples, lists, dicts (and registered classes) of leaves.

Transforms accept and return pytrees: ``grad`` of a function of a dict of
tensors returns a dict of gradients. Containers are tuples (namedtuples
included), lists, dicts and classes registered with
:func:`register_pytree_node`; ``None`` is an empty container (it has no
leaves, as in JAX); everything else is a leaf. Dicts keep their insertion
order.

Example:
    >>> from unigrad.transforms.tree import tree_flatten, tree_unflatten
    >>> leaves, treedef = tree_flatten({"w": 1, "b": (2, None, [3])})
    >>> leaves
    [1, 2, 3]
    >>> tree_unflatten(treedef, [10, 20, 30])
    {'w': 10, 'b': (20, None, [30])}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

__all__ = ["PyTreeDef", "register_pytree_node", "tree_flatten", "tree_unflatten", "tree_leaves",
           "tree_map", "tree_structure"]


class _Handler(NamedTuple):
    flatten: Callable[[Any], tuple[Iterable, Any]]
    unflatten: Callable[[Any, list], Any]


_REGISTRY: dict[type, _Handler] = {}


def register_pytree_node(cls: type, flatten: Callable, unflatten: Callable) -> None:
    """Make ``cls`` a container: ``flatten(obj) -> (children, aux)``, ``unflatten(aux, children)``.

    Example:
        >>> from unigrad.transforms.tree import register_pytree_node, tree_leaves
        >>> class Pair:
        ...     def __init__(self, a, b):
        ...         self.a, self.b = a, b
        >>> register_pytree_node(Pair, lambda p: ((p.a, p.b), None),
        ...                      lambda aux, children: Pair(*children))
        >>> tree_leaves([Pair(1, 2), 3])
        [1, 2, 3]
    """
    if not isinstance(cls, type):
        raise TypeError(f"register_pytree_node: cls must be a class, got {type(cls).__name__}")
    if not callable(flatten) or not callable(unflatten):
        raise TypeError("register_pytree_node: flatten and unflatten must be callables")
    _REGISTRY[cls] = _Handler(flatten, unflatten)


class PyTreeDef:
    """The shape of a pytree with its leaves taken out (compare with ``==``)."""

    __slots__ = ("kind", "aux", "children", "num_leaves")

    def __init__(self, kind, aux, children: tuple):
        self.kind = kind
        self.aux = aux
        self.children = children
        self.num_leaves = 1 if kind is _LEAF else sum(c.num_leaves for c in children)

    def __eq__(self, other) -> bool:
        return (isinstance(other, PyTreeDef) and self.kind is other.kind
                and self.aux == other.aux and self.children == other.children)

    def __hash__(self) -> int:
        return hash((id(self.kind), _hashable(self.aux), self.children))

    def __repr__(self) -> str:
        return f"PyTreeDef({_describe(self)})"


_LEAF = object()
_NONE = object()


def _hashable(aux):
    try:
        hash(aux)
        return aux
    except TypeError:
        return repr(aux)


def _describe(treedef: PyTreeDef) -> str:
    if treedef.kind is _LEAF:
        return "*"
    if treedef.kind is _NONE:
        return "None"
    inner = ", ".join(_describe(c) for c in treedef.children)
    if treedef.kind is tuple:
        return f"({inner}{',' if len(treedef.children) == 1 else ''})"
    if treedef.kind is list:
        return f"[{inner}]"
    if treedef.kind is dict:
        return "{" + ", ".join(f"{k!r}: {_describe(c)}"
                               for k, c in zip(treedef.aux, treedef.children)) + "}"
    return f"{treedef.kind.__name__}({inner})"


_LEAF_DEF = PyTreeDef(_LEAF, None, ())
_NONE_DEF = PyTreeDef(_NONE, None, ())


def _flatten_into(tree, leaves: list, is_leaf) -> PyTreeDef:
    if tree is None:
        return _NONE_DEF
    if is_leaf is not None and is_leaf(tree):
        leaves.append(tree)
        return _LEAF_DEF
    cls = type(tree)
    if cls is tuple or cls is list:
        return PyTreeDef(cls, None, tuple(_flatten_into(c, leaves, is_leaf) for c in tree))
    if cls is dict:
        keys = tuple(tree)
        return PyTreeDef(dict, keys, tuple(_flatten_into(tree[k], leaves, is_leaf) for k in keys))
    handler = _REGISTRY.get(cls)
    if handler is not None:
        children, aux = handler.flatten(tree)
        return PyTreeDef(cls, aux, tuple(_flatten_into(c, leaves, is_leaf) for c in children))
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):  # namedtuple
        return PyTreeDef(cls, None, tuple(_flatten_into(c, leaves, is_leaf) for c in tree))
    for base in (tuple, list, dict):  # other subclasses (e.g. ParameterTuple) flatten as their base
        if isinstance(tree, base):
            return _flatten_into(base(tree) if base is not dict else dict(tree), leaves, is_leaf)
    leaves.append(tree)
    return _LEAF_DEF


def tree_flatten(tree, is_leaf: Callable[[Any], bool] | None = None) -> tuple[list, PyTreeDef]:
    """``(leaves, treedef)``: the leaves in order and the structure to rebuild the tree.

    ``is_leaf(node)`` returning True stops the descent at ``node``.
    """
    leaves: list = []
    treedef = _flatten_into(tree, leaves, is_leaf)
    return leaves, treedef


def _build(treedef: PyTreeDef, leaves: Iterable):
    kind = treedef.kind
    if kind is _LEAF:
        return next(leaves)
    if kind is _NONE:
        return None
    children = [_build(c, leaves) for c in treedef.children]
    if kind is tuple or kind is list:
        return kind(children)
    if kind is dict:
        return dict(zip(treedef.aux, children))
    handler = _REGISTRY.get(kind)
    if handler is not None:
        return handler.unflatten(treedef.aux, children)
    return kind(*children)  # namedtuple


def tree_unflatten(treedef: PyTreeDef, leaves: Iterable):
    """Rebuild a tree of ``treedef``'s structure from ``leaves``."""
    leaves = list(leaves)
    if len(leaves) != treedef.num_leaves:
        raise ValueError(f"tree_unflatten: the structure has {treedef.num_leaves} leaves but "
                         f"{len(leaves)} were given")
    return _build(treedef, iter(leaves))


def tree_leaves(tree, is_leaf: Callable[[Any], bool] | None = None) -> list:
    """The leaves of ``tree`` in flattening order."""
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf: Callable[[Any], bool] | None = None) -> PyTreeDef:
    """The :class:`PyTreeDef` of ``tree``."""
    return tree_flatten(tree, is_leaf)[1]


def tree_map(fn: Callable, tree, *rest, is_leaf: Callable[[Any], bool] | None = None):
    """Apply ``fn`` leaf-wise over ``tree`` (and trees of the same structure in ``rest``).

    Example:
        >>> from unigrad.transforms.tree import tree_map
        >>> tree_map(lambda a, b: a + b, {"x": 1, "y": [2]}, {"x": 10, "y": [20]})
        {'x': 11, 'y': [22]}
    """
    leaves, treedef = tree_flatten(tree, is_leaf)
    others = []
    for other in rest:
        other_leaves, other_def = tree_flatten(other, is_leaf)
        if other_def != treedef:
            raise ValueError(f"tree_map: structures differ: {treedef} and {other_def}")
        others.append(other_leaves)
    return tree_unflatten(treedef, [fn(*args) for args in zip(leaves, *others)])
