"""``Size``: a tensor's shape as PyTorch gives it, a tuple of ints with its own text form.

Under PyTorch's names (``import unigrad.compat.torch``), ``tensor.shape`` and
``tensor.size()`` return a :class:`Size`; unigrad's own spelling returns plain
tuples. A ``Size`` is a tuple in every way that matters (it compares, hashes and
unpacks as one); slicing, adding and repeating it give a ``Size`` again.

Example:
    >>> from unigrad.size import Size
    >>> shape = Size([2, 3])
    >>> shape.numel(), shape == (2, 3), shape[1:]
    (6, True, unigrad.Size([3]))
    >>> shape + (4,)
    unigrad.Size([2, 3, 4])
"""

from __future__ import annotations

import operator

from . import _state

_global = _state.global_state


def _as_int(item, position: int) -> int:
    """One dimension: an int, or anything with ``__index__`` (a 0-d integer tensor)."""
    if isinstance(item, bool) or not hasattr(item, "__index__"):
        raise TypeError(f"{_global.text_names}.Size() takes an iterable of 'int' (item "
                        f"{position} is '{type(item).__name__}')")
    return operator.index(item)


class Size(tuple):
    """The shape of a tensor: a tuple of non-negative ints.

    Example:
        >>> from unigrad.size import Size
        >>> Size((4, 5)).numel()
        20
    """

    __slots__ = ()

    def __new__(cls, sizes=()):
        if type(sizes) is tuple and all(type(item) is int for item in sizes):
            return tuple.__new__(cls, sizes)
        return tuple.__new__(cls, [_as_int(item, i) for i, item in enumerate(sizes)])

    def numel(self) -> int:
        """The number of elements a tensor of this shape holds (1 for ``Size([])``)."""
        count = 1
        for item in self:
            count *= item
        return count

    def __getitem__(self, index):
        item = tuple.__getitem__(self, index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, count):
        return Size(tuple.__mul__(self, count))

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return f"{_global.text_names}.Size({list(self)})"

    __str__ = __repr__

    def __reduce__(self):
        return (Size, (tuple(self),))
