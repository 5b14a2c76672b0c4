"""Abstract values: what shape rules, graph tracing and unsaved node inputs carry."""

from __future__ import annotations

import numpy as np


class ShapedArray:
    """An abstract value: shape and dtype, no data (what shape rules receive)."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return f"ShapedArray({self.shape}, {self.dtype})"

    def __eq__(self, other):
        return isinstance(other, ShapedArray) and (self.shape, self.dtype) == (other.shape,
                                                                               other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))
