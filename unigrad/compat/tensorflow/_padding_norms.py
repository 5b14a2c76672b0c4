"""``tf.pad``, ``tf.clip_by_norm``, ``tf.einsum`` and ``tf.device`` with TensorFlow's arguments.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> t = tf.constant([[1, 2, 3], [4, 5, 6]])
    >>> tf.pad(t, [[0, 0], [1, 1]], "SYMMETRIC").numpy()
    array([[1, 1, 2, 3, 3],
           [4, 4, 5, 6, 6]], dtype=int32)
    >>> tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0).numpy()
    array([0.6, 0.8], dtype=float32)
"""

from __future__ import annotations

import contextlib
import re

import numpy as np

import unigrad as ug

from ._tensor import Tensor, operand
from .errors import InvalidArgumentError
from .math import _ret

__all__ = ["pad", "clip_by_norm", "einsum", "device"]

_MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


def _paddings(paddings, rank: int) -> list[tuple[int, int]]:
    """``paddings`` as one ``(before, after)`` pair of non-negative ints per dimension."""
    if isinstance(paddings, ug.Tensor):
        paddings = paddings.tolist()
    pairs = np.asarray(paddings)
    if pairs.shape != (rank, 2) or pairs.dtype.kind not in "iu":
        raise ValueError(f"pad: paddings must be an integer array of shape [{rank}, 2] (one "
                         f"[before, after] pair per dimension of the input), got {paddings!r}")
    if (pairs < 0).any():
        raise ValueError(f"pad: paddings must be non-negative, got {pairs.tolist()}")
    return [(int(before), int(after)) for before, after in pairs]


def pad(tensor, paddings, mode: str = "CONSTANT", constant_values=0,
        name: str | None = None) -> Tensor:
    """``tf.pad``: pad each dimension by ``paddings[d] = [before, after]``.

    ``mode`` is ``"CONSTANT"`` (fill with ``constant_values``), ``"REFLECT"``
    (mirror without the edge; each padding at most the size minus 1) or
    ``"SYMMETRIC"`` (mirror with the edge; at most the size), case-insensitive.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.pad(tf.constant([[1, 2, 3]]), [[1, 0], [0, 2]], constant_values=9).numpy()
        array([[9, 9, 9, 9, 9],
               [1, 2, 3, 9, 9]], dtype=int32)
    """
    x = operand(tensor, "tensor")
    if not isinstance(mode, str) or mode.upper() not in _MODES:
        raise ValueError(f"pad: mode must be one of {', '.join(_MODES)}, got {mode!r}")
    mode = mode.upper()
    pairs = _paddings(paddings, x.ndim)
    if mode == "CONSTANT":
        widths = tuple(size for pair in reversed(pairs) for size in pair)
        value = constant_values.item() if isinstance(constant_values, ug.Tensor) \
            else constant_values
        return _ret(ug.pad(x, widths, value=value), x)
    result = x
    for axis, (before, after) in enumerate(pairs):
        if not (before or after):
            continue
        size = x.shape[axis]
        limit = size - 1 if mode == "REFLECT" else size
        if before > limit or after > limit:
            raise InvalidArgumentError(
                None, None, f"pad: in {mode} mode the paddings of dimension {axis} must be at "
                f"most {limit} (its size {size}), got [{before}, {after}]")
        positions = np.pad(np.arange(size), (before, after), mode=mode.lower())
        result = ug.index_select(result, axis, ug.tensor(positions, dtype=ug.int64))
    return _ret(result, x)


def clip_by_norm(t, clip_norm, axes=None, name: str | None = None) -> Tensor:
    """``tf.clip_by_norm``: ``t * clip_norm / max(norm(t, axes), clip_norm)``, the L2 norm
    over ``axes`` (all of them by default).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.clip_by_norm(tf.constant([[3.0, 4.0], [0.3, 0.4]]), 1.0, axes=[1]).numpy()
        array([[0.6, 0.8],
               [0.3, 0.4]], dtype=float32)
    """
    x = operand(t, "t")
    if axes is not None:
        axes = [int(a) for a in (axes.tolist() if isinstance(axes, ug.Tensor) else
                                 np.atleast_1d(axes))]
    norm = ug.sqrt(ug.sum(x * x, dim=axes, keepdim=True))
    limit = operand(clip_norm, "clip_norm")
    scale = limit / ug.maximum(norm, limit)
    return _ret(x * scale, x)


def einsum(equation: str, *inputs, **kwargs) -> Tensor:
    """``tf.einsum``: Einstein summation over ``inputs`` (``"ij,jk->ik"``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.einsum("ij,j->i", tf.constant([[1.0, 2.0], [3.0, 4.0]]),
        ...           tf.constant([1.0, 1.0])).numpy()
        array([3., 7.], dtype=float32)
    """
    unknown = set(kwargs) - {"name", "optimize"}
    if unknown:
        raise TypeError(f"einsum: unexpected keyword arguments {sorted(unknown)}")
    if not isinstance(equation, str):
        raise TypeError(f"einsum: equation must be a str, got {type(equation).__name__}")
    tensors = [operand(value, f"inputs[{i}]") for i, value in enumerate(inputs)]
    return _ret(ug.einsum(equation, *tensors), *tensors)


_DEVICE = re.compile(r"^(/job:\w+)?(/replica:\d+)?(/task:\d+)?"
                     r"(/(device:)?(CPU|GPU|TPU|cpu|gpu|tpu)(:\d+)?)?$")


@contextlib.contextmanager
def device(device_name: str | None):
    """``tf.device``: a placement scope. Operations run where unigrad runs them (the CPU,
    or CuPy's GPU for tensors already there), as TensorFlow's soft placement does when the
    named device is absent; the name is checked.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> with tf.device("/GPU:0"):
        ...     (tf.constant(2.0) * 3).numpy()
        np.float32(6.0)
    """
    if device_name is not None and (not isinstance(device_name, str)
                                    or not _DEVICE.match(device_name)):
        raise ValueError(f"device: expected a device name such as '/CPU:0' or '/GPU:0', got "
                         f"{device_name!r}")
    yield
