"""Complex numbers: parts, conjugates, polar form and the real/complex views.

Gradients follow PyTorch's convention: the cotangent of a complex tensor is the
conjugate Wirtinger derivative of a real loss, ``dL/dx + i dL/dy`` for
``z = x + iy`` (so a plain gradient step ``z - lr * z.grad`` descends).
Holomorphic primitives reuse their real rules at conjugated primals (see
``complex_gradient`` in :mod:`unigrad.ops._primitive`); the ops here are not
holomorphic and carry their own rules:

- primitives ``conj_physical``, ``real``, ``imag``, ``angle``,
  ``view_as_real``, ``view_as_complex``;
- composites ``conj``, ``complex``, ``polar``, ``resolve_conj``,
  ``resolve_neg``, ``is_complex``, ``is_conj``, ``isreal``.

``real`` and ``imag`` are views, as in PyTorch; ``view_as_real`` returns a new
tensor (writes into it do not reach the complex tensor).

Example:
    >>> import unigrad as ug
    >>> z = ug.tensor([3 + 4j], requires_grad=True)
    >>> ug.abs(z).sum().backward()
    >>> z.grad
    tensor([0.6000+0.8000j])
    >>> ug.view_as_real(ug.tensor([1 - 2j]))
    tensor([[ 1., -2.]])
"""

from __future__ import annotations

import numpy as np

from .. import backend
from ..backend import namespace_of
from ..tensor import Tensor
from . import creation as _creation
from . import elementwise as _elementwise
from . import shape as _shape
from ._dtypes import torch_dtype_name
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, shape_of
from .device import clone
from .registry import op
from .views_copies import broadcast_tensors

__all__ = ["conj_physical", "conj", "real", "imag", "angle", "view_as_real", "view_as_complex",
           "complex", "polar", "resolve_conj", "resolve_neg", "is_complex", "is_conj",
           "isreal"]


def _real_dtype(x) -> np.dtype:
    return backend.real_of(np.dtype(dtype_of(x)))


def _is_complex_value(x) -> bool:
    return np.dtype(dtype_of(x)).kind == "c"


# ----------------------------------------------------------------------------- primitives

conj_physical_p = Primitive(
    "conj_physical", lambda x: namespace_of(x).conj(x),
    lambda x: (shape_of(x), dtype_of(x)), kind="elementwise", saves="nothing",
    vjp=lambda g, out, needs, x: (bind(conj_physical_p, g),),
    backward_name="ConjPhysicalBackward0", complex_gradient="own",
    scalar="np.conj({0})", ufunc="conjugate")


def _real_impl(x):
    return x.real


def _imag_impl(x):
    return x.imag


real_p = Primitive(
    "real", _real_impl, lambda x: (shape_of(x), _real_dtype(x)), kind="elementwise",
    saves="nothing", is_view=True, backward_name="RealBackward0", complex_gradient="own",
    # the engine gives a complex input the real cotangent as g + 0i
    vjp=lambda g, out, needs, x: (g,),
    jvp=lambda tangents, out, x: bind(real_p, tangents[0]))
imag_p = Primitive(
    "imag", _imag_impl, lambda x: (shape_of(x), _real_dtype(x)), kind="elementwise",
    saves="nothing", is_view=True, backward_name="ImagBackward0", complex_gradient="own",
    vjp=lambda g, out, needs, x: (g * 1j,),
    jvp=lambda tangents, out, x: bind(imag_p, tangents[0]))


def _angle_impl(x):
    xp = namespace_of(x)
    if x.dtype.kind == "c":
        return xp.angle(x)
    # PyTorch: 0 for x >= 0, pi for x < 0, nan for nan
    return xp.where(x < 0, np.pi, 0.0).astype(x.dtype, copy=False) + x * 0


def _angle_vjp(g, out, needs, x):
    if not _is_complex_value(x):
        return (g * 0.0,)
    # d angle = Im(conj(z) dz) / |z|^2: the cotangent is g * i z / |z|^2 (0 at z = 0)
    squared = _elementwise.abs(x) ** 2
    safe = _elementwise.where(squared == 0, 1.0, squared)
    return (g * 1j * x / safe,)


def _angle_jvp(tangents, out, x):
    t = tangents[0]
    if not _is_complex_value(x):
        return t * 0.0
    squared = _elementwise.abs(x) ** 2
    safe = _elementwise.where(squared == 0, 1.0, squared)
    return bind(imag_p, bind(conj_physical_p, x) * t) / safe


angle_p = Primitive(
    "angle", _angle_impl, lambda x: (shape_of(x), _real_dtype(x)), kind="elementwise",
    vjp=_angle_vjp, jvp=_angle_jvp, backward_name="AngleBackward0", complex_gradient="own")


def _view_as_real_impl(x):
    xp = namespace_of(x)
    return xp.stack((x.real, x.imag), axis=-1)


def _view_as_complex_impl(x):
    xp = namespace_of(x)
    out = xp.empty(x.shape[:-1], backend.complex_of(x.dtype))
    out.real = x[..., 0]
    out.imag = x[..., 1]
    return out


view_as_real_p = Primitive(
    "view_as_real", _view_as_real_impl,
    lambda x: (tuple(shape_of(x)) + (2,), _real_dtype(x)), kind="other", saves="nothing",
    vjp=lambda g, out, needs, x: (bind(view_as_complex_p, g),),
    jvp=lambda tangents, out, x: bind(view_as_real_p, tangents[0]),
    backward_name="ViewAsRealBackward0", complex_gradient="own",
    batch=lambda values, dims: (bind(view_as_real_p, _shape.movedim(values[0], dims[0], 0)
                                     if dims[0] != 0 else values[0]), 0),
    result_memory="fresh contiguous")
view_as_complex_p = Primitive(
    "view_as_complex", _view_as_complex_impl,
    lambda x: (tuple(shape_of(x))[:-1], backend.complex_of(np.dtype(dtype_of(x)))),
    kind="other", saves="nothing",
    vjp=lambda g, out, needs, x: (bind(view_as_real_p, g),),
    jvp=lambda tangents, out, x: bind(view_as_complex_p, tangents[0]),
    backward_name="ViewAsComplexBackward0", complex_gradient="own",
    batch=lambda values, dims: (bind(view_as_complex_p, _shape.movedim(values[0], dims[0], 0)
                                     if dims[0] != 0 else values[0]), 0),
    result_memory="fresh contiguous")


# ----------------------------------------------------------------------------- public functions

def _tensor_argument(name: str, input) -> None:
    if not isinstance(input, Tensor) and not hasattr(input, "dtype"):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")


@op(methods=("conj_physical",), inplace=("conj_physical_",))
def conj_physical(input):
    """The elementwise complex conjugate, computed now (real tensors: unchanged values).

    Example:
        >>> import unigrad as ug
        >>> ug.conj_physical(ug.tensor([1 + 2j]))
        tensor([1.-2.j])
    """
    _tensor_argument("conj_physical", input)
    if not _is_complex_value(input):
        return input if not isinstance(input, Tensor) else clone(input)
    return bind(conj_physical_p, input)


@op(methods=("conj",))
def conj(input):
    """The complex conjugate (``input`` itself for real tensors, as in PyTorch).

    unigrad conjugates eagerly: the result is a new tensor and ``is_conj`` is False.

    Example:
        >>> import unigrad as ug
        >>> ug.conj(ug.tensor([1 + 2j, -1j]))
        tensor([1.-2.j, -0.+1.j])
    """
    _tensor_argument("conj", input)
    if not _is_complex_value(input):
        return input
    return bind(conj_physical_p, input)


@op()
def real(input):
    """The real part, a view of a complex tensor (a real tensor is returned as is).

    Example:
        >>> import unigrad as ug
        >>> ug.real(ug.tensor([1 + 2j, 3 - 1j]))
        tensor([1., 3.])
    """
    _tensor_argument("real", input)
    if not _is_complex_value(input):
        return input
    return bind(real_p, input)


@op()
def imag(input):
    """The imaginary part, a view of a complex tensor.

    Example:
        >>> import unigrad as ug
        >>> ug.imag(ug.tensor([1 + 2j, 3 - 1j]))
        tensor([ 2., -1.])
    """
    _tensor_argument("imag", input)
    if not _is_complex_value(input):
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return bind(imag_p, input)


@op(methods=("angle",))
def angle(input):
    """The argument ``atan2(imag, real)`` of each element (real tensors: 0 or pi).

    Integer inputs compute in the default float dtype. The gradient is 0 at 0.

    Example:
        >>> import unigrad as ug
        >>> ug.angle(ug.tensor([1j, -1.0 + 0j]))
        tensor([1.5708, 3.1416])
    """
    _tensor_argument("angle", input)
    if isinstance(input, Tensor) and input._data.dtype.kind in "biu":
        input = _elementwise.cast(input, backend.default_float())
    return bind(angle_p, input)


@op()
def view_as_real(input):
    """A complex tensor as a real one with a trailing dimension of 2 (real, imaginary).

    Example:
        >>> import unigrad as ug
        >>> ug.view_as_real(ug.tensor([1 + 2j, 3 - 1j]))
        tensor([[ 1.,  2.],
                [ 3., -1.]])
    """
    _tensor_argument("view_as_real", input)
    if not _is_complex_value(input):
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return bind(view_as_real_p, input)


@op()
def view_as_complex(input):
    """A real float32/float64 tensor whose last dimension is 2 as a complex tensor.

    Example:
        >>> import unigrad as ug
        >>> ug.view_as_complex(ug.tensor([[1.0, 2.0], [3.0, -1.0]]))
        tensor([1.+2.j, 3.-1.j])
    """
    _tensor_argument("view_as_complex", input)
    dtype = np.dtype(dtype_of(input))
    if dtype not in (np.float32, np.float64):
        raise RuntimeError(f"view_as_complex is only supported for float and double tensors, "
                           f"but got a tensor of scalar type: "
                           f"{torch_dtype_name(dtype)}")
    shape = tuple(shape_of(input))
    if not shape or shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    return bind(view_as_complex_p, input)


@op()
def complex(real, imag):  # noqa: A001 - PyTorch's name
    """The complex tensor ``real + i * imag`` (same floating dtype, broadcast together).

    Example:
        >>> import unigrad as ug
        >>> ug.complex(ug.tensor([1.0, 2.0]), ug.tensor([0.5, -1.0]))
        tensor([1.+0.5000j, 2.-1.0000j])
    """
    for name, value in (("real", real), ("imag", imag)):
        if not isinstance(value, Tensor):
            raise TypeError(f"complex(): argument '{name}' must be Tensor, not "
                            f"{type(value).__name__}")
    real_dtype, imag_dtype = real._data.dtype, imag._data.dtype
    if real_dtype.kind != "f" or real_dtype == np.float16:
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{torch_dtype_name(real_dtype)} and "
                           f"{torch_dtype_name(imag_dtype)}")
    if real_dtype != imag_dtype:
        raise RuntimeError(f"Expected object of scalar type "
                           f"{torch_dtype_name(real_dtype)} but got scalar type "
                           f"{torch_dtype_name(imag_dtype)} for second argument")
    real, imag = broadcast_tensors(real, imag)
    return bind(view_as_complex_p, _shape.stack([real, imag], -1))


@op()
def polar(abs, angle):  # noqa: A002 - PyTorch's argument names
    """The complex tensor ``abs * (cos(angle) + i sin(angle))``.

    Example:
        >>> import math, unigrad as ug
        >>> ug.polar(ug.tensor([2.0]), ug.tensor([math.pi / 2])).imag
        tensor([2.])
    """
    for name, value in (("abs", abs), ("angle", angle)):
        if not isinstance(value, Tensor):
            raise TypeError(f"polar(): argument '{name}' must be Tensor, not "
                            f"{type(value).__name__}")
    return complex(abs * _elementwise.cos(angle), abs * _elementwise.sin(angle))


@op(methods=("resolve_conj",))
def resolve_conj(input):
    """``input`` (unigrad conjugates eagerly, so there is no lazy conjugation to resolve)."""
    _tensor_argument("resolve_conj", input)
    return input


@op(methods=("resolve_neg",))
def resolve_neg(input):
    """``input`` (unigrad negates eagerly, so there is no lazy negation to resolve)."""
    _tensor_argument("resolve_neg", input)
    return input


@op(methods=("is_conj",))
def is_conj(input) -> bool:
    """False: unigrad has no lazily conjugated tensors (``conj`` computes the conjugate)."""
    _tensor_argument("is_conj", input)
    return False


def squared_magnitude(value):
    """``|value|**2`` as a real value: ``value * value`` when real, ``Re(value * conj(value))``
    when complex (differentiable everywhere, unlike ``abs(value) ** 2``).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.ops.complex_numbers import squared_magnitude
        >>> squared_magnitude(ug.tensor([3 + 4j]))
        tensor([25.])
    """
    if not _is_complex_value(value):
        return value * value
    return bind(real_p, value * bind(conj_physical_p, value))


def is_complex(input) -> bool:
    """Whether ``input``'s dtype is complex.

    Example:
        >>> import unigrad as ug
        >>> ug.is_complex(ug.tensor([1j])), ug.is_complex(ug.tensor([1.0]))
        (True, False)
    """
    _tensor_argument("is_complex", input)
    return _is_complex_value(input)


@op(methods=("isreal",))
def isreal(input):
    """Elementwise: whether each value is real (a complex one with a zero imaginary part).

    Example:
        >>> import unigrad as ug
        >>> ug.isreal(ug.tensor([1 + 0j, 1j]))
        tensor([ True, False])
    """
    _tensor_argument("isreal", input)
    if not _is_complex_value(input):
        return _creation.ones_like(input, dtype=backend.bool_)
    return _elementwise.eq(bind(imag_p, input), 0)
