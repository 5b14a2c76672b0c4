"""``tf.tensordot`` (also ``tf.linalg.tensordot``) with TensorFlow's arguments, on
unigrad's differentiable :func:`unigrad.tensordot`.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> tf.tensordot(tf.ones((2, 3)), tf.ones((3, 2)), axes=1).numpy()
    array([[3., 3.],
           [3., 3.]], dtype=float32)
"""

from __future__ import annotations

import unigrad as ug

from ._tensor import Tensor, operand
from .math import _pair, _ret

__all__ = ["tensordot"]


def tensordot(a, b, axes, name: str | None = None) -> Tensor:
    """Contract ``a``'s last ``axes`` axes with ``b``'s first ``axes`` (a scalar), or the
    axes ``axes[0]`` of ``a`` with ``axes[1]`` of ``b`` (a pair of ints or of lists).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.tensordot(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]), axes=[0, 0]).numpy()
        np.float32(11.0)
    """
    if isinstance(axes, ug.Tensor):
        axes = axes.tolist()
    a, b = _pair(operand(a, "a"), operand(b, "b"))
    return _ret(ug.tensordot(a, b, dims=axes), a, b)
