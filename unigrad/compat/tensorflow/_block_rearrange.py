"""TensorFlow's block rearrangements: ``tf.nn.depth_to_space`` / ``space_to_depth`` (moving
``block_size x block_size`` pixel blocks to and from channels) and ``tf.space_to_batch_nd`` /
``space_to_batch`` / ``batch_to_space`` (moving spatial blocks to and from the batch;
``required_space_to_batch_paddings`` computes the paddings they need), as
reshapes and transposes of unigrad tensors (differentiable).

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> x = tf.reshape(tf.range(4), (1, 1, 1, 4))
    >>> tf.nn.depth_to_space(x, 2)[0, :, :, 0].numpy()
    array([[0, 1],
           [2, 3]], dtype=int32)
"""

from __future__ import annotations

import numpy as np

import unigrad as ug
import unigrad.nn.functional as F
from unigrad.tensor import Tensor as _UgTensor

from ._host import host_array
from ._tensor import Tensor, constant, operand
from .errors import InvalidArgumentError
from .math import _ret

__all__ = ["depth_to_space", "space_to_depth", "space_to_batch_nd", "space_to_batch",
           "batch_to_space", "required_space_to_batch_paddings"]


def _block(block_size) -> int:
    size = int(block_size)
    if size < 2:
        raise ValueError(f"Attribute block_size has value {size} which must be at least 2")
    return size


def _channels_last(x: _UgTensor, data_format: str) -> _UgTensor:
    if x.ndim != 4:
        raise ValueError(f"input must be 4-D, got shape {tuple(x.shape)}")
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"data_format must be 'NHWC' or 'NCHW', got {data_format!r}")
    return x if data_format == "NHWC" else ug.permute(x, (0, 2, 3, 1))


def _restore(x: _UgTensor, data_format: str) -> _UgTensor:
    return x if data_format == "NHWC" else ug.permute(x, (0, 3, 1, 2))


def depth_to_space(input, block_size, data_format: str = "NHWC",
                   name: str | None = None) -> Tensor:
    """Move channel groups into ``block_size x block_size`` spatial blocks: ``[B, H, W, C]`` to
    ``[B, H * s, W * s, C / s**2]``.

    Raises:
        InvalidArgumentError: When the channels are not a multiple of ``block_size ** 2``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.depth_to_space(tf.reshape(tf.range(8), (1, 1, 1, 8)), 2).shape
        TensorShape([1, 2, 2, 2])
    """
    x = operand(input, "input")
    size = _block(block_size)
    image = _channels_last(x, data_format)
    batch, height, width, channels = image.shape
    if channels % (size * size):
        raise InvalidArgumentError(None, None, f"Dimension size must be evenly divisible by "
                                   f"{size * size} but is {channels}")
    depth = channels // (size * size)
    blocks = ug.reshape(image, (batch, height, width, size, size, depth))
    result = ug.reshape(ug.permute(blocks, (0, 1, 3, 2, 4, 5)),
                        (batch, height * size, width * size, depth))
    return _ret(_restore(result, data_format), x)


def space_to_depth(input, block_size, data_format: str = "NHWC",
                   name: str | None = None) -> Tensor:
    """The inverse of :func:`depth_to_space`: ``[B, H, W, C]`` to
    ``[B, H / s, W / s, C * s**2]``.

    Raises:
        InvalidArgumentError: When the height or width is not a multiple of ``block_size``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.nn.space_to_depth(tf.reshape(tf.range(4), (1, 2, 2, 1)), 2).numpy()
        array([[[[0, 1, 2, 3]]]], dtype=int32)
    """
    x = operand(input, "input")
    size = _block(block_size)
    image = _channels_last(x, data_format)
    batch, height, width, channels = image.shape
    if height % size or width % size:
        raise InvalidArgumentError(None, None, f"Image width {width} and height {height} should "
                                   f"be divisible by block_size: {size}")
    blocks = ug.reshape(image, (batch, height // size, size, width // size, size, channels))
    result = ug.reshape(ug.permute(blocks, (0, 1, 3, 2, 4, 5)),
                        (batch, height // size, width // size, size * size * channels))
    return _ret(_restore(result, data_format), x)


def _ints(value, name: str) -> np.ndarray:
    array = host_array(value) if isinstance(value, _UgTensor) else np.asarray(value)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{name} must be integers, got {array.dtype}")
    return array.astype(np.int64)


def space_to_batch_nd(input, block_shape, paddings, name: str | None = None) -> Tensor:
    """Zero-pad the spatial axes (1 .. M, ``paddings``: ``[M, 2]``), cut them into blocks of
    ``block_shape`` and move the blocks' offsets into the batch (outermost):
    ``[B, *spatial, ...]`` to ``[B * prod(block_shape), *(padded / block_shape), ...]``.

    Raises:
        InvalidArgumentError: When a padded axis is not a multiple of its block size.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.space_to_batch_nd(tf.reshape(tf.range(4), (1, 2, 2, 1)), [2, 2],
        ...                      [[0, 0], [0, 0]])[:, 0, 0, 0].numpy()
        array([0, 1, 2, 3], dtype=int32)
    """
    x = operand(input, "input")
    blocks = _ints(block_shape, "block_shape").reshape(-1)
    pads = _ints(paddings, "paddings").reshape(-1, 2)
    rank = blocks.size
    if pads.shape[0] != rank or x.ndim < rank + 1:
        raise ValueError(f"paddings must be [{rank}, 2] and input at least {rank + 1}-D")
    flat = [int(n) for pair in reversed(pads.tolist()) for n in pair]
    padded = F.pad(x, tuple([0, 0] * (x.ndim - rank - 1) + flat)) if any(flat) else x
    spatial = padded.shape[1:rank + 1]
    if any(size % block for size, block in zip(spatial, blocks)):
        raise InvalidArgumentError(None, None, f"padded_shape{list(spatial)} is not divisible "
                                   f"by block_shape{blocks.tolist()}")
    batch, rest = padded.shape[0], tuple(padded.shape[rank + 1:])
    split = [batch]
    for size, block in zip(spatial, blocks.tolist()):
        split += [size // block, block]
    reshaped = ug.reshape(padded, (*split, *rest))
    order = [2 + 2 * i for i in range(rank)] + [0] + [1 + 2 * i for i in range(rank)]
    order += list(range(1 + 2 * rank, reshaped.ndim))
    moved = ug.permute(reshaped, tuple(order))
    shape = (batch * int(np.prod(blocks)), *(s // b for s, b in zip(spatial, blocks)), *rest)
    return _ret(ug.reshape(moved, shape), x)


def space_to_batch(input, block_shape, paddings, name: str | None = None) -> Tensor:
    """:func:`space_to_batch_nd` (TensorFlow 2's ``tf.space_to_batch``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.space_to_batch(tf.reshape(tf.range(4), (1, 2, 2, 1)), [2, 2], [[0, 0], [0, 0]]).shape
        TensorShape([4, 1, 1, 1])
    """
    return space_to_batch_nd(input, block_shape, paddings)


def batch_to_space(input, block_shape, crops, name: str | None = None) -> Tensor:
    """The inverse of :func:`space_to_batch_nd`: the batch's block offsets moved back into
    the spatial axes, then ``crops`` (``[M, 2]``) removed from their ends.

    Raises:
        InvalidArgumentError: When the batch is not a multiple of ``prod(block_shape)``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.batch_to_space(tf.reshape(tf.range(4), (4, 1, 1, 1)), [2, 2],
        ...                   [[0, 0], [0, 0]])[0, :, :, 0].numpy()
        array([[0, 1],
               [2, 3]], dtype=int32)
    """
    x = operand(input, "input")
    blocks = _ints(block_shape, "block_shape").reshape(-1)
    cut = _ints(crops, "crops").reshape(-1, 2)
    rank = blocks.size
    count = int(np.prod(blocks))
    if x.shape[0] % count:
        raise InvalidArgumentError(None, None, f"Input batch dimension ({x.shape[0]}) is not "
                                   f"divisible by product of block sizes ({count})")
    batch = x.shape[0] // count
    spatial, rest = tuple(x.shape[1:rank + 1]), tuple(x.shape[rank + 1:])
    reshaped = ug.reshape(x, (*blocks.tolist(), batch, *spatial, *rest))
    order = [rank]
    for i in range(rank):
        order += [rank + 1 + i, i]
    order += list(range(2 * rank + 1, reshaped.ndim))
    merged = ug.reshape(ug.permute(reshaped, tuple(order)),
                        (batch, *(s * b for s, b in zip(spatial, blocks.tolist())), *rest))
    for axis, (start, end) in enumerate(cut.tolist(), start=1):
        merged = ug.narrow(merged, axis, start, merged.shape[axis] - start - end)
    return _ret(merged, x)


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None,
                                     name: str | None = None) -> tuple:
    """``(paddings, crops)``, both ``[M, 2]`` int32: ``base_paddings`` with the ends grown
    so that every padded axis is a multiple of its block size, and those extra ends.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> paddings, crops = tf.required_space_to_batch_paddings([5, 7], [2, 3])
        >>> paddings.numpy().tolist(), crops.numpy().tolist()
        ([[0, 1], [0, 2]], [[0, 1], [0, 2]])
    """
    shape = _ints(input_shape, "input_shape").reshape(-1)
    blocks = _ints(block_shape, "block_shape").reshape(-1)
    base = np.zeros((blocks.size, 2), np.int64) if base_paddings is None else \
        _ints(base_paddings, "base_paddings").reshape(-1, 2)
    full = shape + base[:, 0] + base[:, 1]
    extra = (blocks - full % blocks) % blocks
    paddings = np.stack([base[:, 0], base[:, 1] + extra], axis=1)
    crops = np.stack([np.zeros_like(extra), extra], axis=1)
    return constant(paddings.astype(np.int32)), constant(crops.astype(np.int32))
