"""MindSpore's argument rules and return structures for ``grad``/``value_and_grad``.

``grad_position`` and ``weights`` are validated when the transform is built
(before any forward pass), with MindSpore's error types and messages; the
gradients are then assembled into exactly MindSpore's nesting:

=================  ==================  =========================
grad_position      weights             result
=================  ==================  =========================
``0`` or ``(0,)``  None                ``gx0``
``(1, 2)``         None                ``(gx1, gx2)``
None               one Parameter       ``gw``
None               ``[w, b]``          ``(gw, gb)`` (``[]`` -> ``()``)
``0``              ``[w]``             ``(gx0, (gw,))``
=================  ==================  =========================
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tensor import Tensor

_POSITION_TYPE_ERROR = "For 'F.grad', the 'grad_position' must be int or tuple."


@dataclass(frozen=True)
class Positions:
    """Normalised ``grad_position``: the indices, and whether one bare gradient is returned."""

    indices: tuple
    bare: bool


@dataclass(frozen=True)
class Weights:
    """Normalised ``weights``: the tensors, and whether one bare gradient is returned."""

    tensors: tuple
    bare: bool


def check_bool(owner: str, name: str, value) -> None:
    """MindSpore's flag check: ``TypeError("For '_Grad', the 'has_aux' should be bool, ...")``."""
    if not isinstance(value, bool):
        raise TypeError(f"For '{owner}', the '{name}' should be bool, but got "
                        f"{type(value).__name__}")


def normalize_grad_position(grad_position) -> Positions | None:
    """``grad_position`` (None, int, or tuple of ints; bools count as ints) as Positions."""
    if grad_position is None:
        return None
    if isinstance(grad_position, tuple):
        if len(set(grad_position)) != len(grad_position):
            raise ValueError("There are duplicate positions in `grad_position`, please check it")
        indices = []
        for position in grad_position:
            if isinstance(position, bool):
                position = int(position)
            if not isinstance(position, int):
                raise TypeError("For 'F.grad', the element in 'grad_position' must be int.")
            if position < 0:
                raise ValueError("The element in grad_position must be >= 0.")
            indices.append(position)
        return Positions(tuple(indices), bare=len(indices) == 1)
    if isinstance(grad_position, int):  # bool included
        if grad_position < 0:
            raise ValueError("grad_position must be >= 0.")
        return Positions((int(grad_position),), bare=True)
    raise TypeError(_POSITION_TYPE_ERROR)


def normalize_weights(weights) -> Weights | None:
    """``weights``: None, one Parameter/Tensor (bare result), or a list/tuple/ParameterTuple."""
    if weights is None:
        return None
    if isinstance(weights, Tensor):
        return Weights((weights,), bare=True)
    if isinstance(weights, (list, tuple)):
        for i, weight in enumerate(weights):
            if not isinstance(weight, Tensor):
                raise TypeError(f"weights[{i}] must be a Parameter or Tensor, got "
                                f"{type(weight).__name__}")
        return Weights(tuple(weights), bare=False)
    raise TypeError(f"weights must be a Parameter, a list or tuple of Parameters, or a "
                    f"ParameterTuple, got {type(weights).__name__}")


def check_in_range(positions: Positions, count: int) -> None:
    """Positions must name passed positional arguments: ``IndexError`` otherwise."""
    if not positions.indices:
        raise RuntimeError("`grad_position` is an empty tuple: there is nothing to differentiate; "
                           "pass an int or a non-empty tuple of ints")
    for index in positions.indices:
        if index >= count:
            raise IndexError(f"grad_position {index} is out of range: the function was called "
                             f"with {count} positional argument(s)")


def weight_id(weight: Tensor, index: int):
    """The identifier ``return_ids`` pairs with a weight's gradient: its name."""
    name = getattr(weight, "name", None)
    return name if isinstance(name, str) else f"weights[{index}]"


def assemble(positions: Positions | None, position_grads: list, weights: Weights | None,
             weight_grads: list, return_ids: bool):
    """MindSpore's nesting of input and weight gradients (see the module table).

    ``position_grads`` holds ``(index, grad)`` for each differentiated
    position whose argument is a tensor (or pytree of tensors); positions
    holding Python scalars are constants and were left out.
    """
    if return_ids:
        position_items = [(index, grad) for index, grad in position_grads]
        weight_items = [(weight_id(w, i), g) for i, (w, g) in
                        enumerate(zip(weights.tensors if weights else (), weight_grads))]
    else:
        position_items = [grad for _, grad in position_grads]
        weight_items = list(weight_grads)
    inputs_part = None
    if positions is not None:
        if positions.bare and len(position_items) == 1:
            inputs_part = position_items[0]
        else:
            inputs_part = tuple(position_items)
    weights_part = None
    if weights is not None:
        weights_part = weight_items[0] if weights.bare else tuple(weight_items)
    if positions is None:
        return weights_part
    if weights is None:
        return inputs_part
    return (inputs_part, weights_part)


def get_grad(gradients, identifier):
    """The gradient paired with ``identifier`` in a ``return_ids=True`` result.

    ``identifier`` is a position (int) or a Parameter (looked up by name) or a
    name string. ``RuntimeError`` when nothing matches (MindSpore).

    Example:
        >>> import unigrad as ug
        >>> x, y = ug.tensor(3.0), ug.tensor(4.0)
        >>> grads = ug.grad(lambda x, y: x * y, (0, 1), return_ids=True)(x, y)
        >>> ug.get_grad(grads, 1)
        tensor(3.)
    """
    if isinstance(identifier, Tensor):
        key = getattr(identifier, "name", None)
        if not isinstance(key, str):
            raise RuntimeError("get_grad: a tensor identifier must be a Parameter with a name")
    elif isinstance(identifier, (int, str)) and not isinstance(identifier, bool):
        key = identifier
    else:
        raise TypeError(f"get_grad: identifier must be an int position, a Parameter or a name, "
                        f"got {type(identifier).__name__}")
    found = _find(gradients, key)
    if found is _MISSING:
        raise RuntimeError(f"Can not find the gradient for position or Parameter {key!r}; "
                           f"was the gradient computed with return_ids=True?")
    return found


_MISSING = object()


def _find(tree, key):
    if isinstance(tree, tuple):
        if len(tree) == 2 and not isinstance(tree[0], (tuple, Tensor)) and tree[0] == key \
                and type(tree[0]) is type(key):
            return tree[1]
        for item in tree:
            found = _find(item, key)
            if found is not _MISSING:
                return found
    return _MISSING
