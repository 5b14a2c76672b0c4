"""``mindspore.ops`` predicates, spacings and products with MindSpore's argument names
and defaults: ``isneginf``/``isposinf``/``isreal``, ``logspace`` (float32 unless
``dtype``), ``trapz``, ``inner``, ``tensor_dot`` (``axes``) and ``addmm``/``addmv``/
``addr``/``baddbmm``/``addbmm`` (``beta``, ``alpha``). Imported into
:mod:`unigrad.compat.mindspore.ops`.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> print(ops.tensor_dot(ops.ones((2, 3)), ops.ones((3, 2)), 1))
    [[3. 3.]
     [3. 3.]]
"""

from __future__ import annotations

from ... import ops as _ug
from .ops import _dtype_or_default, _int, _ms, _tensor

__all__ = ["isneginf", "isposinf", "isreal", "logspace", "trapz", "inner", "tensor_dot",
           "addmm", "addmv", "addr", "baddbmm", "addbmm"]


@_ms
def isneginf(input):
    """Whether each element is negative infinity."""
    return _ug.isneginf(_tensor(input, "isneginf", "input"))


@_ms
def isposinf(input):
    """Whether each element is positive infinity."""
    return _ug.isposinf(_tensor(input, "isposinf", "input"))


@_ms
def isreal(input):
    """Whether each element is real (a complex one with zero imaginary part counts)."""
    return _ug.isreal(_tensor(input, "isreal", "input"))


@_ms
def logspace(start, end, steps: int, base: int = 10, *, dtype=None):
    """``steps`` values ``base ** t`` for ``t`` evenly spaced from ``start`` to ``end``
    (Float32 unless ``dtype``)."""
    if _int(steps, "logspace", "steps") < 0:
        raise ValueError(f"For 'logspace', the 'steps' must be non-negative, but got {steps}")
    return _ug.logspace(start, end, steps, base, dtype=_dtype_or_default(dtype))


@_ms
def trapz(y, x=None, *, dx: float = 1.0, dim: int = -1):
    """The trapezoidal rule along ``dim``, with sample points ``x`` or spacing ``dx``."""
    y = _tensor(y, "trapz", "y")
    if x is not None:
        return _ug.trapz(y, _tensor(x, "trapz", "x"), dim=_int(dim, "trapz", "dim"))
    return _ug.trapz(y, dx=dx, dim=_int(dim, "trapz", "dim"))


@_ms
def inner(input, other):
    """The sum product over the last axes (a 0-d operand multiplies)."""
    return _ug.inner(_tensor(input, "inner", "input"), _tensor(other, "inner", "other"))


@_ms
def tensor_dot(x1, x2, axes):
    """Contract ``x1``'s last ``axes`` axes with ``x2``'s first, or the axes
    ``axes[0]`` of ``x1`` with ``axes[1]`` of ``x2``."""
    return _ug.tensordot(_tensor(x1, "tensor_dot", "x1"), _tensor(x2, "tensor_dot", "x2"),
                         dims=axes)


def _scaled(name: str, function, first: str, second: str):
    def call(input, a, b, *, beta=1, alpha=1):
        return function(_tensor(input, name, "input"), _tensor(a, name, first),
                        _tensor(b, name, second), beta=beta, alpha=alpha)
    call.__name__ = name
    call.__doc__ = f"``beta * input + alpha * product({first}, {second})`` (as ``torch.{name}``)."
    return _ms(call)


addmm = _scaled("addmm", _ug.addmm, "mat1", "mat2")
addmv = _scaled("addmv", _ug.addmv, "mat", "vec")
addr = _scaled("addr", _ug.addr, "vec1", "vec2")
addbmm = _scaled("addbmm", _ug.addbmm, "batch1", "batch2")


@_ms
def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)``, batched."""
    return _ug.baddbmm(_tensor(input, "baddbmm", "input"), _tensor(batch1, "baddbmm", "batch1"),
                       _tensor(batch2, "baddbmm", "batch2"), beta=beta, alpha=alpha)
