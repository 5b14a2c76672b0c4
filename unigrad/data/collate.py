"""Collation: turning a list of samples into one batch (``default_collate``) and
NumPy data into tensors (``default_convert``), with PyTorch's type rules.

Example:
    >>> from unigrad.data import default_collate
    >>> default_collate([(1, 0.5), (2, 1.5)])
    [tensor([1, 2]), tensor([0.5000, 1.5000], dtype=unigrad.float64)]
"""

from __future__ import annotations

import collections.abc
import copy
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from ..ops.creation import as_tensor, tensor
from ..ops.shape import stack
from ..tensor import Tensor
from ..transforms.tree import tree_flatten, tree_unflatten

__all__ = ["default_collate", "default_convert"]

_STRING_OR_OBJECT = re.compile(r"[SaUO]")
_ERROR_FORMAT = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or "
                 "lists; found {}")


def default_convert(data):
    """``data`` with every NumPy array or scalar inside turned into a tensor (dicts,
    lists and namedtuples keep their type, tuples become lists, as PyTorch's);
    anything else is returned unchanged. Arrays of strings or objects stay arrays.

    Example:
        >>> import numpy as np
        >>> from unigrad.data import default_convert
        >>> default_convert({"x": np.array([1, 2]), "name": "a"})
        {'x': tensor([1, 2]), 'name': 'a'}
        >>> default_convert((np.float32(1.5), 3))
        [tensor(1.5000), 3]
    """
    if isinstance(data, Tensor):
        return data
    if _is_numpy(data):
        if isinstance(data, np.ndarray) and _STRING_OR_OBJECT.search(data.dtype.str):
            return data
        return as_tensor(data)
    return _map_container(data, default_convert, lambda value: value)


def _is_numpy(value) -> bool:
    return type(value).__module__ == "numpy" and not isinstance(value, (np.str_, np.bytes_))


def _map_container(data, function: Callable, leaf: Callable, keep_tuples: bool = False):
    """``function`` applied to each member of a mapping or sequence ``data``, keeping
    its type where it can be rebuilt (tuples become lists unless ``keep_tuples``);
    ``leaf(data)`` otherwise."""
    if isinstance(data, collections.abc.Mapping):
        return _rebuild_mapping(data, {key: function(data[key]) for key in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(function(item) for item in data))
    if isinstance(data, tuple):
        items = [function(item) for item in data]
        return tuple(items) if keep_tuples else items
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild_sequence(data, [function(item) for item in data])
    return leaf(data)


def _rebuild_mapping(original, values: dict):
    try:
        if isinstance(original, collections.abc.MutableMapping):
            clone = copy.copy(original)
            clone.update(values)
            return clone
        return type(original)(values)
    except TypeError:
        return values


def _rebuild_sequence(original, values: list):
    try:
        if isinstance(original, collections.abc.MutableSequence):
            clone = copy.copy(original)
            for position, value in enumerate(values):
                clone[position] = value
            return clone
        return type(original)(values)
    except TypeError:
        return values


# ----------------------------------------------------------------------------- collate

def _collate_tensors(batch, *, collate_fn_map=None):
    return stack(batch, 0)


def _collate_numpy_arrays(batch, *, collate_fn_map=None):
    if _STRING_OR_OBJECT.search(batch[0].dtype.str):
        raise TypeError(_ERROR_FORMAT.format(batch[0].dtype))
    return collate([as_tensor(array) for array in batch], collate_fn_map=collate_fn_map)


def _collate_numpy_scalars(batch, *, collate_fn_map=None):
    return as_tensor(np.asarray(batch))


def _collate_floats(batch, *, collate_fn_map=None):
    return tensor(batch, dtype=np.float64)


def _collate_ints(batch, *, collate_fn_map=None):
    return tensor(batch)


def _collate_strings(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map: dict[type | tuple[type, ...], Callable] = {
    Tensor: _collate_tensors,
    np.ndarray: _collate_numpy_arrays,
    (np.bool_, np.number, np.object_): _collate_numpy_scalars,
    float: _collate_floats,
    int: _collate_ints,
    str: _collate_strings,
    bytes: _collate_strings,
}


def collate(batch: list | tuple, *, collate_fn_map: dict | None = None) -> Any:
    """Collate ``batch`` (a list of samples of one structure): the first sample's type
    picks a function of ``collate_fn_map`` (exact type first, then the first key it is
    an instance of); mappings, namedtuples and sequences are collated member by member
    (tuples give lists). Extend it with your own ``collate_fn_map``.

    Raises:
        RuntimeError: For sequences of unequal lengths.
        TypeError: For a type nothing handles.

    Example:
        >>> from unigrad.data.collate import collate
        >>> collate([[1, "a"], [2, "b"]], collate_fn_map={int: lambda b, **_: sum(b),
        ...                                              str: lambda b, **_: "".join(b)})
        [3, 'ab']
    """
    element = batch[0]
    if collate_fn_map is not None:
        function = collate_fn_map.get(type(element))
        if function is None:
            function = next((collate_fn_map[key] for key in collate_fn_map
                             if isinstance(element, key)), None)
        if function is not None:
            return function(batch, collate_fn_map=collate_fn_map)
    if isinstance(element, collections.abc.Mapping):
        return _rebuild_mapping(element, {
            key: collate([sample[key] for sample in batch], collate_fn_map=collate_fn_map)
            for key in element})
    if isinstance(element, tuple) and hasattr(element, "_fields"):
        return type(element)(*(collate(samples, collate_fn_map=collate_fn_map)
                               for samples in zip(*batch)))
    if isinstance(element, collections.abc.Sequence):
        size = len(element)
        if any(len(sample) != size for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        columns = [collate(samples, collate_fn_map=collate_fn_map)
                   for samples in zip(*batch)]
        return columns if isinstance(element, tuple) else _rebuild_sequence(element, columns)
    raise TypeError(_ERROR_FORMAT.format(type(element)))


def default_collate(batch: list) -> Any:
    """Stack a list of samples into a batch, as PyTorch's: tensors and NumPy arrays
    are stacked along a new first dim, Python ints become an int64 tensor, floats a
    float64 one, bools a bool one, strings stay a list; dicts, namedtuples, lists and
    tuples (as lists) are collated member by member.

    Raises:
        RuntimeError: For samples whose lists or tensors differ in size.
        TypeError: For a sample type it cannot collate.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.data import default_collate
        >>> batch = default_collate([{"x": ug.tensor([1.0, 2.0]), "ok": True},
        ...                          {"x": ug.tensor([3.0, 4.0]), "ok": False}])
        >>> batch["x"]
        tensor([[1., 2.],
                [3., 4.]])
        >>> batch["ok"]
        tensor([ True, False])
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)


def stack_structures(elements: list) -> Any:
    """Elements of one nested structure (tuples, lists, dicts) stacked leaf by leaf:
    tensor leaves with :func:`unigrad.stack`, others with ``numpy.stack``; the
    structure (tuples included) is kept. The batching of the MindSpore and
    TensorFlow front-ends.

    Raises:
        ValueError: For elements of different structures.

    Example:
        >>> import numpy as np
        >>> from unigrad.data.collate import stack_structures
        >>> stack_structures([(np.array(1), {"y": np.array([2.0])}),
        ...                   (np.array(3), {"y": np.array([4.0])})])
        (array([1, 3]), {'y': array([[2.],
               [4.]])})
    """
    flattened = [tree_flatten(element) for element in elements]
    structure = flattened[0][1]
    if any(spec != structure for _, spec in flattened):
        raise ValueError(f"Cannot batch elements of different structures: {structure} and "
                         f"{next(spec for _, spec in flattened if spec != structure)}")
    columns = zip(*(leaves for leaves, _ in flattened))
    return tree_unflatten(structure, [_stack_leaves(list(column)) for column in columns])


def _stack_leaves(leaves: list):
    if isinstance(leaves[0], Tensor):
        return stack(leaves, 0)
    return np.stack(leaves)
