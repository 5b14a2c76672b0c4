"""``tf.TensorShape``: a shape whose rank or dimensions may be unknown.

A tuple of ints (``None`` for an unknown dimension), so it compares equal to
tuples and lists, indexes and unpacks as one; with TensorFlow's methods
(``as_list``, ``rank``, ``num_elements``, ``is_fully_defined``,
``is_compatible_with``, ``merge_with``, ``concatenate``) and its text
(``TensorShape([2, 3])``; printed ``(2, 3)``). ``TensorShape(None)`` has an
unknown rank.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> shape = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).shape
    >>> shape
    TensorShape([2, 3])
    >>> print(shape), shape.as_list(), shape.rank, shape.num_elements()
    (2, 3)
    (None, [2, 3], 2, 6)
    >>> shape == (2, 3), shape[1:]
    (True, TensorShape([3]))
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = ["TensorShape"]


class TensorShape(tuple):
    """A static shape: ints, ``None`` for unknown dimensions; ``TensorShape(None)``: unknown
    rank."""

    __slots__ = ()
    _unknown_rank = False

    def __new__(cls, dims: Iterable | int | None = ()):
        if dims is None:
            shape = super().__new__(cls, ())
            if cls is TensorShape:
                return super().__new__(_UnknownRankShape, ())
            return shape
        if isinstance(dims, int):  # TensorShape(3): one dimension of 3 (TF's behaviour)
            dims = (dims,)
        values = []
        for dim in dims:
            if dim is None:
                values.append(None)
                continue
            size = getattr(dim, "value", dim)  # a tf.compat.v1.Dimension
            if size is not None and (isinstance(size, bool) or not hasattr(size, "__index__")):
                raise TypeError(f"TensorShape: a dimension must be an int or None, got "
                                f"{type(size).__name__} {size!r}")
            if size is not None and int(size) < 0:
                raise ValueError(f"TensorShape: dimensions must be non-negative, got {size}")
            values.append(None if size is None else int(size))
        return super().__new__(cls, values)

    # ------------------------------------------------------------------ properties
    @property
    def rank(self) -> int | None:
        """The number of dimensions (None when unknown)."""
        return None if self._unknown_rank else len(self)

    ndims = rank

    @property
    def dims(self) -> list | None:
        """The dimensions as a list of ints and Nones (None when the rank is unknown)."""
        return None if self._unknown_rank else list(self)

    # ------------------------------------------------------------------ queries
    def as_list(self) -> list:
        """The dimensions as a list (``None`` for unknown ones).

        Raises:
            ValueError: the rank is unknown.
        """
        if self._unknown_rank:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self)

    def num_elements(self) -> int | None:
        """The number of elements, or None if any dimension (or the rank) is unknown."""
        if not self.is_fully_defined():
            return None
        return math.prod(self)

    def is_fully_defined(self) -> bool:
        """Whether the rank and every dimension are known."""
        return not self._unknown_rank and all(dim is not None for dim in self)

    def is_compatible_with(self, other) -> bool:
        """Whether some fully defined shape matches both (unknowns match anything)."""
        other = as_shape(other)
        if self._unknown_rank or other._unknown_rank:
            return True
        return len(self) == len(other) and all(
            a is None or b is None or a == b for a, b in zip(self, other))

    def merge_with(self, other) -> TensorShape:
        """The most specific shape compatible with both; a ValueError if there is none."""
        other = as_shape(other)
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        if self._unknown_rank:
            return other
        if other._unknown_rank:
            return self
        return TensorShape(a if a is not None else b for a, b in zip(self, other))

    def concatenate(self, other) -> TensorShape:
        """This shape's dimensions followed by ``other``'s."""
        other = as_shape(other)
        if self._unknown_rank or other._unknown_rank:
            return TensorShape(None)
        return TensorShape(tuple(self) + tuple(other))

    def with_rank(self, rank: int) -> TensorShape:
        """This shape, checked to have ``rank`` dimensions (an unknown rank becomes known)."""
        if self._unknown_rank:
            return TensorShape([None] * rank)
        if len(self) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    # ------------------------------------------------------------------ tuple behaviour
    def __getitem__(self, key):
        if isinstance(key, slice):
            if self._unknown_rank:
                return TensorShape(None)
            return TensorShape(tuple.__getitem__(self, key))
        if self._unknown_rank:
            return None
        return tuple.__getitem__(self, key)

    def __eq__(self, other) -> bool:
        if not isinstance(other, (tuple, list)):
            return NotImplemented
        other_unknown = isinstance(other, TensorShape) and other._unknown_rank
        if self._unknown_rank or other_unknown:
            return self._unknown_rank and other_unknown
        return tuple.__eq__(self, tuple(other))

    def __ne__(self, other) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        if self._unknown_rank:
            return "TensorShape(None)"
        return f"TensorShape({list(self)})"

    def __str__(self) -> str:
        if self._unknown_rank:
            return "<unknown>"
        return tuple.__repr__(tuple(self))

    def __reduce__(self):
        return (TensorShape, (None if self._unknown_rank else tuple(self),))


class _UnknownRankShape(TensorShape):
    """``TensorShape(None)``: nothing is known, not even the number of dimensions."""

    __slots__ = ()
    _unknown_rank = True


def as_shape(shape) -> TensorShape:
    """``shape`` as a TensorShape (TensorFlow's ``tf.TensorShape(shape)`` coercion)."""
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)
