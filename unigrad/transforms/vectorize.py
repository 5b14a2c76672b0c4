"""``vmap``: write a function for one example, run it on a batch in one vectorized pass.

JAX's ``jax.vmap(fun, in_axes, out_axes)`` semantics, with ``torch.func.vmap``'s
``chunk_size`` and ``randomness``: ``in_axes`` is an int (or None), or a tuple
with one entry per positional argument, each an int (negative counts from the
end of that argument's dimensions), None (not batched: the same value for every
example) or a pytree of those matching the argument; keyword arguments are not
batched. ``out_axes`` says where the batch axis goes in each output (a prefix
pytree of the outputs). An output that does not depend on a batched input is
broadcast along its output axis. The work is done by the batching interpreter
(:mod:`unigrad.interpreters.batching`), one batched primitive per primitive.

Example:
    >>> import unigrad as ug
    >>> w = ug.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> ug.vmap(lambda x: w @ x)(ug.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))
    tensor([[1., 3.],
            [2., 4.],
            [3., 7.]])
    >>> ug.vmap(lambda a, b: a * b, in_axes=(0, None))(ug.ones((2, 3)), ug.tensor(5.0))
    tensor([[5., 5., 5.],
            [5., 5., 5.]])
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from ..backend import ndarray
from ..interpreters.batching import BatchingError, BatchInterpreter
from ..tensor import Tensor, _make_tensor
from .tree import tree_flatten, tree_unflatten

_RANDOMNESS = ("error", "different", "same")


def vmap(fn: Callable, in_axes=0, out_axes=0, chunk_size: int | None = None, *,
         randomness: str = "error") -> Callable:
    """The batched version of ``fn`` (see the module docstring).

    ``chunk_size`` runs the batch in chunks of that many examples (less memory,
    same result); ``randomness`` is ``"error"`` (random ops raise), ``"different"``
    (each example draws its own numbers) or ``"same"`` (one draw shared by all).

    Example:
        >>> import unigrad as ug
        >>> ug.vmap(ug.dot)(ug.ones((4, 3)), ug.ones((4, 3)))
        tensor([3., 3., 3., 3.])
    """
    if not callable(fn):
        raise TypeError(f"vmap: fn must be callable, got {type(fn).__name__}")
    _check_axes_spec(in_axes, "in_axes")
    _check_axes_spec(out_axes, "out_axes")
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int)
                                   or chunk_size < 1):
        raise ValueError(f"vmap: chunk_size must be a positive int or None, got {chunk_size!r}")
    if randomness not in _RANDOMNESS:
        raise ValueError(f"vmap: randomness must be one of {_RANDOMNESS}, got {randomness!r}")

    @functools.wraps(fn)
    def batched(*args, **kwargs):
        if isinstance(in_axes, (tuple, list)) and len(in_axes) != len(args):
            raise ValueError(f"vmap in_axes must be an int, None, or a tuple of entries "
                             f"corresponding to the positional arguments passed to the "
                             f"function, but got len(in_axes)={len(in_axes)}, "
                             f"len(args)={len(args)}")
        leaves, treedef = tree_flatten(list(args))
        prefix = list(in_axes) if isinstance(in_axes, (tuple, list)) else in_axes
        axes = _broadcast_prefix(prefix, list(args), "in_axes")
        leaves, axes, size = _batched_leaves(leaves, axes)
        if chunk_size is None or chunk_size >= size:
            return _run(fn, treedef, leaves, axes, size, kwargs, out_axes, randomness)
        pieces = []
        for start in range(0, size, chunk_size):
            stop = min(start + chunk_size, size)
            chunk = [leaf if axis is None else _slice(leaf, axis, start, stop)
                     for leaf, axis in zip(leaves, axes)]
            pieces.append(_run(fn, treedef, chunk, axes, stop - start, kwargs, out_axes,
                               randomness))
        return _concatenate(pieces, out_axes)

    return batched


def _check_axes_spec(spec, name: str) -> None:
    leaves, _ = tree_flatten(spec)
    for leaf in leaves:
        if leaf is not None and (isinstance(leaf, bool) or not isinstance(leaf, int)):
            raise TypeError(f"vmap {name} must be an int, None, or (nested) container with "
                            f"those types as leaves, but got {leaf!r}")


def _broadcast_prefix(prefix, tree, name: str) -> list:
    """One axis per leaf of ``tree``: ``prefix`` is a pytree prefix of it with int/None leaves."""
    pairs = _prefix_pairs(prefix, tree)
    if pairs is None:
        raise ValueError(f"vmap {name} specification must be a tree prefix of the "
                         f"corresponding value, got specification {prefix!r} for value tree "
                         f"{tree_flatten(tree)[1]}")
    axes = []
    for axis, subtree in pairs:
        axes.extend([axis] * len(tree_flatten(subtree)[0]))
    return axes


def _prefix_pairs(prefix, tree) -> list | None:
    """``(axis, subtree)`` for each leaf of ``prefix`` (None if it is not a prefix of ``tree``)."""
    if prefix is None or isinstance(prefix, int):
        return [(prefix, tree)]
    if isinstance(prefix, dict):
        if not isinstance(tree, dict) or set(tree) != set(prefix):
            return None
        pairs = [(prefix[key], tree[key]) for key in tree]  # the order tree_flatten uses
    elif isinstance(prefix, (tuple, list)):
        if not isinstance(tree, (tuple, list)) or len(tree) != len(prefix):
            return None
        pairs = list(zip(prefix, tree))
    else:
        return None
    found = []
    for sub_prefix, sub_tree in pairs:
        sub = _prefix_pairs(sub_prefix, sub_tree)
        if sub is None:
            return None
        found.extend(sub)
    return found


def _batched_leaves(leaves: list, axes: list) -> tuple:
    """Leaves as Tensors where batched, axes normalized, and the common batch size."""
    sizes = []
    normalized = []
    converted = []
    for leaf, axis in zip(leaves, axes):
        if axis is None:
            converted.append(leaf)
            normalized.append(None)
            continue
        if isinstance(leaf, ndarray) or (not isinstance(leaf, Tensor) and
                                         hasattr(leaf, "__array__") and hasattr(leaf, "shape")):
            leaf = _make_tensor(np.asarray(leaf))
        if not isinstance(leaf, Tensor):
            raise ValueError(f"vmap was requested to map an argument along axis {axis}, but "
                             f"it is {leaf!r}, not a Tensor (pass in_axes=None for it)")
        ndim = leaf.ndim
        if not -ndim <= axis < ndim:
            raise ValueError(f"vmap was requested to map its argument along axis {axis}, "
                             f"which implies that its rank should be at least "
                             f"{axis + 1 if axis >= 0 else -axis}, but is only {ndim} "
                             f"(its shape is {tuple(leaf.shape)})")
        axis %= ndim
        sizes.append(int(leaf.shape[axis]))
        converted.append(leaf)
        normalized.append(axis)
    if not sizes:
        raise ValueError("vmap must have at least one non-None value in in_axes")
    if len(set(sizes)) > 1:
        described = ", ".join(f"axis {a} of an argument of shape {tuple(leaf.shape)}"
                              for leaf, a in zip(converted, normalized) if a is not None)
        raise ValueError(f"vmap got inconsistent sizes for array axes to be mapped: {described}")
    return converted, normalized, sizes[0]


def _run(fn, treedef, leaves, axes, size, kwargs, out_axes, randomness):
    interpreter = BatchInterpreter(size, randomness)
    with interpreter:
        wrapped = [leaf if axis is None else interpreter.wrap(leaf, axis)
                   for leaf, axis in zip(leaves, axes)]
        outputs = fn(*tree_unflatten(treedef, wrapped), **kwargs)
        out_leaves, out_def = tree_flatten(outputs)
        axes_out = _broadcast_prefix(out_axes, outputs, "out_axes")
        results = []
        for leaf, axis in zip(out_leaves, axes_out):
            results.append(_unbatched_output(interpreter, leaf, axis))
    return tree_unflatten(out_def, results)


def _unbatched_output(interpreter: BatchInterpreter, leaf, axis):
    from ..interpreters.batching import BatchTracer
    data = leaf._data if isinstance(leaf, Tensor) else leaf
    is_batched = type(data) is BatchTracer and data.interpreter is interpreter
    if axis is None:
        if is_batched:
            raise BatchingError("vmap has mapped output but out_axes is None: an output that "
                                "depends on a batched input needs an output axis")
        return leaf
    if not isinstance(leaf, Tensor) and not hasattr(leaf, "shape"):
        if isinstance(leaf, (int, float, bool, complex)):
            from ..ops.creation import tensor as to_tensor
            leaf = to_tensor(leaf)
        else:
            raise TypeError(f"vmap: the function must return Tensors (or pytrees of them), "
                            f"got {type(leaf).__name__}")
    ndim = len(leaf.shape) + 1
    if not -ndim <= axis < ndim:
        raise ValueError(f"vmap out_axes {axis} is out of range for an output of "
                         f"{ndim} dimensions with the batch axis")
    whole = interpreter.unwrap(leaf, axis % ndim)
    if not isinstance(whole, Tensor):
        whole = _make_tensor(whole)
    return whole


def _slice(leaf: Tensor, axis: int, start: int, stop: int) -> Tensor:
    index = (slice(None),) * axis + (slice(start, stop),)
    return leaf[index]


def _concatenate(pieces: list, out_axes):
    from ..ops.shape import cat
    first_leaves, out_def = tree_flatten(pieces[0])
    axes = _broadcast_prefix(out_axes, pieces[0], "out_axes")
    columns = [tree_flatten(piece)[0] for piece in pieces]
    joined = []
    for position, axis in enumerate(axes):
        if axis is None:
            joined.append(first_leaves[position])
            continue
        parts = [leaves[position] for leaves in columns]
        ndim = parts[0].ndim
        joined.append(cat(parts, dim=axis % ndim))
    return tree_unflatten(out_def, joined)
