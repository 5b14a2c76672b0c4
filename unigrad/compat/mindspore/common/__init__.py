"""``mindspore.common``: the ``initializer`` module (``from mindspore.common.initializer
import Normal``) and the Tensor classes.

Example:
    >>> from unigrad.compat.mindspore.common import initializer
    >>> initializer.initializer("ones", 2)
    Tensor(shape=[2], dtype=Float32, value= [1.00000000e+000, 1.00000000e+000])
"""

from .._tensor import Parameter, Tensor
from . import initializer

__all__ = ["initializer", "Tensor", "Parameter"]
