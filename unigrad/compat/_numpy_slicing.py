"""NumPy-style negative-step slices (``x[::-1]``, ``x[:, 4:0:-2]``) for the TF and
MindSpore tensors.

PyTorch refuses a slice step below 1; TensorFlow and MindSpore take any nonzero
step, as NumPy does. :func:`getitem` turns each negative-step slice into a flip
of its dimension followed by a positive-step slice, so the result (and its
gradient) is unigrad's ordinary indexing.

Example:
    >>> import unigrad as ug
    >>> from unigrad.compat._numpy_slicing import getitem
    >>> getitem(ug.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), (slice(None), slice(None, None, -2)))
    tensor([[3., 1.],
            [6., 4.]])
"""

from __future__ import annotations

import numpy as np

import unigrad as ug
from unigrad.tensor import Tensor


def _has_negative_step(key: tuple) -> bool:
    return any(isinstance(item, slice) and item.step is not None and item.step < 0
               for item in key)


def _dims_consumed(item) -> int:
    """How many input dimensions one index item selects from."""
    if item is None:
        return 0
    if isinstance(item, (Tensor, np.ndarray)) and np.dtype(
            item.dtype.np_dtype if isinstance(item, Tensor) else item.dtype).kind == "b":
        return len(item.shape)
    return 1


def _positive_slice(item: slice, size: int) -> slice:
    """The slice of the flipped dimension that picks what ``item`` picks, in order."""
    start, stop, step = item.indices(size)
    return slice(size - 1 - start, size - 1 - stop, -step)


def getitem(tensor: Tensor, key):
    """``tensor[key]`` where slices may have a negative step."""
    items = key if isinstance(key, tuple) else (key,)
    if not _has_negative_step(items):
        return Tensor.__getitem__(tensor, key)
    shape = tuple(tensor.shape)
    explicit = sum(_dims_consumed(item) for item in items if item is not Ellipsis)
    rewritten, flips, dim = [], [], 0
    for item in items:
        if item is Ellipsis:
            dim += len(shape) - explicit
            rewritten.append(item)
            continue
        if isinstance(item, slice) and item.step is not None and item.step < 0:
            if dim >= len(shape):
                raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
            flips.append(dim)
            rewritten.append(_positive_slice(item, shape[dim]))
        else:
            rewritten.append(item)
        dim += _dims_consumed(item)
    flipped = ug.flip(tensor, flips)
    return Tensor.__getitem__(flipped, tuple(rewritten))
