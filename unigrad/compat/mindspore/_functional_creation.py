"""``mindspore.tensor``: MindSpore 2.x's function spelling of the ``Tensor`` constructor."""

from __future__ import annotations

from ._tensor import Tensor

__all__ = ["tensor"]


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg: bool = False,
           device=None) -> Tensor:
    """``mindspore.tensor(input_data, dtype=None, ...)``: a new Tensor, as ``Tensor(...)``
    (the dtype follows the data: float32 for Python floats, int64 for ints).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> ms.tensor([1, 2])
        Tensor(shape=[2], dtype=Int64, value= [1, 2])
        >>> ms.tensor(1.5, ms.float64)
        Tensor(shape=[], dtype=Float64, value= 1.5)
    """
    return Tensor(input_data, dtype=dtype, shape=shape, init=init, const_arg=const_arg,
                  device=device)
