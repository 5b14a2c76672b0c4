"""Data-dependent selection that works eagerly and inside ``ug.jit``.

Example:
    >>> import unigrad as ug
    >>> ug.cond(ug.tensor(2.0) > 0, lambda x: x * 2, lambda x: -x, ug.tensor([1.0]))
    tensor([2.])
"""

from __future__ import annotations

from collections.abc import Callable

from ..interpreters import has_values
from ..tensor import Tensor


def cond(pred, true_fn: Callable, false_fn: Callable, *operands):
    """``true_fn(*operands)`` if ``pred`` else ``false_fn(*operands)`` (MindSpore/JAX ``cond``).

    Eagerly only the chosen branch runs. Inside ``ug.jit`` ``pred`` has no
    value yet, so both branches are traced and their results selected
    elementwise with :func:`unigrad.where` (both must return the same
    structure of tensors with broadcastable shapes); gradients flow only
    through the chosen branch.

    Example:
        >>> import unigrad as ug
        >>> f = ug.jit(lambda x: ug.cond(x.sum() > 0, lambda v: v * 2, lambda v: -v, x))
        >>> f(ug.tensor([1.0, 2.0])), f(ug.tensor([-3.0]))
        (tensor([2., 4.]), tensor([3.]))
    """
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError("cond: 'true_fn' and 'false_fn' must be callable")
    if isinstance(pred, Tensor) and pred.numel() != 1:
        raise ValueError(f"cond: 'pred' must be a single boolean, got a tensor of shape "
                         f"{tuple(pred.shape)}")
    if not isinstance(pred, Tensor) or has_values(pred):
        return true_fn(*operands) if bool(pred) else false_fn(*operands)
    from ..transforms.tree import tree_flatten, tree_unflatten
    from .elementwise import where
    from .shape import reshape
    true_leaves, true_tree = tree_flatten(true_fn(*operands))
    false_leaves, false_tree = tree_flatten(false_fn(*operands))
    if true_tree != false_tree:
        raise TypeError(f"cond: the branches return different structures: {true_tree} and "
                        f"{false_tree}")
    condition = reshape(pred, ())
    return tree_unflatten(true_tree, [where(condition, a, b)
                                      for a, b in zip(true_leaves, false_leaves)])
