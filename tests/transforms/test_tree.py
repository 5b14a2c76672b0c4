"""Pytrees: flattening, rebuilding, registered classes, None as an empty node."""

from __future__ import annotations

from collections import OrderedDict, namedtuple

import pytest

import unigrad as ug
from unigrad.transforms.tree import (
    register_pytree_node,
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_structure,
    tree_unflatten,
)

Point = namedtuple("Point", "x y")


def test_round_trip_of_nested_containers():
    tree = {"a": [1, (2, 3)], "b": None, "c": Point(4, {"d": 5})}
    leaves, treedef = tree_flatten(tree)
    assert leaves == [1, 2, 3, 4, 5]
    rebuilt = tree_unflatten(treedef, leaves)
    assert rebuilt == tree and isinstance(rebuilt["c"], Point)


def test_none_is_an_empty_node_and_tensors_are_leaves():
    x = ug.tensor([1.0, 2.0])
    leaves, treedef = tree_flatten((x, None, [x]))
    assert len(leaves) == 2 and leaves[0] is x
    assert treedef.num_leaves == 2
    assert tree_unflatten(treedef, [1, 2]) == (1, None, [2])


def test_dicts_keep_insertion_order_and_subclasses_flatten_as_their_base():
    assert tree_leaves({"b": 1, "a": 2}) == [1, 2]
    assert tree_leaves(OrderedDict(z=1, y=2)) == [1, 2]

    class Params(tuple):
        pass

    assert tree_unflatten(tree_structure(Params((1, 2))), [3, 4]) == (3, 4)


def test_structures_compare_and_describe_themselves():
    assert tree_structure((1, [2])) == tree_structure((5, [6]))
    assert tree_structure((1, [2])) != tree_structure((1, (2,)))
    described = repr(tree_structure({"a": (1,), "b": [None, 2]}))
    assert described == "PyTreeDef({'a': (*,), 'b': [None, *]})"
    assert hash(tree_structure((1, [2]))) == hash(tree_structure((5, [6])))


def test_tree_map_over_several_trees_and_mismatch():
    assert tree_map(lambda a, b: a * b, [1, {"k": 2}], [3, {"k": 4}]) == [3, {"k": 8}]
    with pytest.raises(ValueError, match="structures differ"):
        tree_map(lambda a, b: a, [1, 2], [1, (2,)])


def test_is_leaf_stops_descent():
    assert tree_leaves([(1, 2), (3,)], is_leaf=lambda n: isinstance(n, tuple)) == [(1, 2), (3,)]


def test_registered_class_and_registration_errors():
    class Box:
        def __init__(self, content, label):
            self.content, self.label = content, label

    register_pytree_node(Box, lambda b: ((b.content,), b.label),
                         lambda label, children: Box(children[0], label))
    leaves, treedef = tree_flatten([Box(ug.tensor(1.0), "l")])
    rebuilt = tree_unflatten(treedef, [7])
    assert rebuilt[0].content == 7 and rebuilt[0].label == "l"
    grads = ug.grad(lambda box: box.content * 3)(Box(ug.tensor(2.0), "l"))
    assert isinstance(grads, Box) and grads.content.item() == 3.0
    with pytest.raises(TypeError, match="cls must be a class"):
        register_pytree_node(Box(1, 2), lambda b: ((), None), lambda a, c: None)
    with pytest.raises(TypeError, match="callables"):
        register_pytree_node(Box, None, None)


def test_unflatten_with_the_wrong_leaf_count():
    with pytest.raises(ValueError, match="has 2 leaves but 3 were given"):
        tree_unflatten(tree_structure((1, 2)), [1, 2, 3])
