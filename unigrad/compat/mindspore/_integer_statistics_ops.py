"""``mindspore.ops`` integer, bitwise and statistics functions with MindSpore's argument
names (``bitwise_and(input, other)``, ``renorm(input, p, axis, maxnorm)``,
``cdist(x1, x2, p=2.0)``...), on unigrad's ops. Imported into
:mod:`unigrad.compat.mindspore.ops`.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> print(ops.bitwise_and(ms.Tensor([12, 10]), ms.Tensor([6, 3])))
    [4 2]
    >>> print(ops.cdist(ms.Tensor([[0.0, 0.0]]), ms.Tensor([[3.0, 4.0]])))
    [[5.]]
"""

from __future__ import annotations

import numbers

from ... import ops as _ug
from .ops import _int, _ms, _operand, _tensor

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
           "bitwise_right_shift", "invert", "gcd", "lcm", "ldexp", "nextafter", "cov", "cdist",
           "dist", "renorm", "cross"]


def _binary(ms_name: str, op, *, scalars: bool = True):
    def fn(input, other):
        read = _operand if scalars else _tensor
        return op(read(input, ms_name, "input"), read(other, ms_name, "other"))
    fn.__name__ = fn.__qualname__ = ms_name
    fn.__doc__ = (f"``ops.{ms_name}(input, other)``: elementwise with broadcasting (unigrad's "
                  f"``{op.__name__}``).")
    return _ms(fn)


bitwise_and = _binary("bitwise_and", _ug.bitwise_and)
bitwise_or = _binary("bitwise_or", _ug.bitwise_or)
bitwise_xor = _binary("bitwise_xor", _ug.bitwise_xor)
bitwise_left_shift = _binary("bitwise_left_shift", _ug.bitwise_left_shift)
bitwise_right_shift = _binary("bitwise_right_shift", _ug.bitwise_right_shift)
gcd = _binary("gcd", _ug.gcd, scalars=False)
lcm = _binary("lcm", _ug.lcm, scalars=False)
nextafter = _binary("nextafter", _ug.nextafter, scalars=False)


@_ms
def invert(x):
    """``ops.invert(x)``: every bit of the integers in ``x`` flipped.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.invert(ms.Tensor([0, 5])))
        [-1 -6]
    """
    return _ug.bitwise_not(_tensor(x, "invert", "x"))


@_ms
def ldexp(x, other):
    """``ops.ldexp(x, other)``: ``x * 2 ** other``; differentiable.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.ldexp(ms.Tensor([1.0, 3.0]), ms.Tensor([2, -1])))
        [4.  1.5]
    """
    return _ug.ldexp(_tensor(x, "ldexp", "x"), _tensor(other, "ldexp", "other"))


@_ms
def cov(input, *, correction: int = 1, fweights=None, aweights=None):
    """``ops.cov(input, *, correction=1, fweights=None, aweights=None)``: the covariance
    matrix of the variables in the rows of ``input``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.cov(ms.Tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])))
        [[ 1. -1.]
         [-1.  1.]]
    """
    return _ug.cov(_tensor(input, "cov", "input"), correction=_int(correction, "cov",
                                                                   "correction"),
                   fweights=fweights, aweights=aweights)


@_ms
def cdist(x1, x2, p: float = 2.0):
    """``ops.cdist(x1, x2, p=2.0)``: the p-norm distances between the rows of ``x1`` and
    ``x2`` (batch dims broadcast).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.cdist(ms.Tensor([[0.0, 0.0]]), ms.Tensor([[3.0, 4.0]]), p=1.0))
        [[7.]]
    """
    if isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise TypeError(f"For 'cdist', the 'p' must be float, but got {type(p).__name__}")
    return _ug.cdist(_tensor(x1, "cdist", "x1"), _tensor(x2, "cdist", "x2"), float(p))


@_ms
def dist(input, other, p: float = 2):
    """``ops.dist(input, other, p=2)``: the p-norm of ``input - other``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.dist(ms.Tensor([1.0, 2.0]), ms.Tensor([4.0, 6.0])))
        5.0
    """
    return _ug.dist(_tensor(input, "dist", "input"), _tensor(other, "dist", "other"), p)


@_ms
def renorm(input, p: int, axis: int, maxnorm: float):
    """``ops.renorm(input, p, axis, maxnorm)``: slices along ``axis`` with a ``p``-norm above
    ``maxnorm`` scaled down to it (``p`` an int >= 1, as MindSpore requires).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.renorm(ms.Tensor([[1.0, 1, 1], [2, 2, 2], [3, 3, 3]]), 1, 0, 6.0))
        [[1. 1. 1.]
         [2. 2. 2.]
         [2. 2. 2.]]
    """
    p = _int(p, "renorm", "p")
    if p < 1:
        raise ValueError(f"For 'renorm', the 'p' must be greater than or equal to 1, but got {p}")
    if isinstance(maxnorm, bool) or not isinstance(maxnorm, numbers.Real):
        raise TypeError(f"For 'renorm', the 'maxnorm' must be float, but got "
                        f"{type(maxnorm).__name__}")
    return _ug.renorm(_tensor(input, "renorm", "input"), p, _int(axis, "renorm", "axis"),
                      float(maxnorm))


@_ms
def cross(input, other, dim=None):
    """``ops.cross(input, other, dim=None)``: the cross product of 3-vectors along ``dim``
    (without it, the first dimension of size 3).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.cross(ms.Tensor([[1, 0, 0]]), ms.Tensor([[0, 1, 0]])))
        [[0 0 1]]
    """
    input, other = _tensor(input, "cross", "input"), _tensor(other, "cross", "other")
    if dim is None:
        sizes = tuple(input.shape)
        if 3 not in sizes:
            raise ValueError("For 'cross', no dimension of 'input' has size 3")
        dim = sizes.index(3)
    return _ug.linalg_cross(input, other, dim=_int(dim, "cross", "dim"))
