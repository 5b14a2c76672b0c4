"""``Flatten`` merges a range of dimensions into one; ``Unflatten`` splits one back.

Example:
    >>> import unigrad as ug
    >>> ug.nn.Flatten()(ug.zeros(2, 3, 4)).shape
    (2, 12)
    >>> ug.nn.Unflatten(1, (3, 4))(ug.zeros(2, 12)).shape
    (2, 3, 4)
"""

from __future__ import annotations

import math

import numpy as np

from ...ops.shape import flatten, reshape
from ...tensor import Tensor
from ..cell import Cell


def _int(value, name: str, owner: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{owner}: argument '{name}' must be an int, got {type(value).__name__}")
    return int(value)


class Flatten(Cell):
    """Merge dimensions ``start_dim..end_dim`` (default: all but the batch dimension).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Flatten(0, 1)
        Flatten(start_dim=0, end_dim=1)
        >>> ug.nn.Flatten(0, 1)(ug.zeros(2, 3, 4)).shape
        (6, 4)
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1):
        super().__init__()
        self.start_dim = _int(start_dim, "start_dim", "Flatten")
        self.end_dim = _int(end_dim, "end_dim", "Flatten")

    def construct(self, input: Tensor) -> Tensor:
        return flatten(input, self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Cell):
    """Split dimension ``dim`` into ``unflattened_size`` (one entry may be -1).

    Example:
        >>> import unigrad as ug
        >>> ug.nn.Unflatten(-1, (2, -1))(ug.zeros(5, 6)).shape
        (5, 2, 3)
    """

    def __init__(self, dim: int, unflattened_size):
        super().__init__()
        self.dim = _int(dim, "dim", "Unflatten")
        if not isinstance(unflattened_size, (tuple, list)) or not unflattened_size:
            raise TypeError(f"unflattened_size must be a non-empty tuple of ints, but found "
                            f"type {type(unflattened_size).__name__}")
        sizes = tuple(_int(n, "unflattened_size", "Unflatten") for n in unflattened_size)
        if sizes.count(-1) > 1 or any(n < -1 for n in sizes):
            raise ValueError(f"Unflatten: unflattened_size may hold one -1 and otherwise "
                             f"non-negative sizes, got {sizes}")
        self.unflattened_size = sizes

    def construct(self, input: Tensor) -> Tensor:
        shape = tuple(input.shape)
        if not -len(shape) <= self.dim < len(shape):
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-len(shape)}, {len(shape) - 1}], but got {self.dim})")
        axis = self.dim % len(shape)
        sizes = self.unflattened_size
        known = math.prod(n for n in sizes if n != -1)
        if -1 in sizes:
            if known == 0 or shape[axis] % known:
                raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up "
                                   f"to the size of dim {self.dim} ({shape[axis]}) in the input "
                                   f"tensor")
            sizes = tuple(shape[axis] // known if n == -1 else n for n in sizes)
        elif known != shape[axis]:
            raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to "
                               f"the size of dim {self.dim} ({shape[axis]}) in the input tensor")
        return reshape(input, shape[:axis] + sizes + shape[axis + 1:])

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


__all__ = ["Flatten", "Unflatten"]
