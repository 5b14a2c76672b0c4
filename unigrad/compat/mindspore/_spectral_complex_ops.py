"""``mindspore.ops`` complex numbers and Fourier transforms with MindSpore 2.x's arguments,
on :mod:`unigrad.ops.complex_numbers` and :mod:`unigrad.fft`. Imported into
:mod:`unigrad.compat.mindspore.ops`.

- ``real``, ``imag``, ``conj`` (a real input: itself, zeros, itself), ``angle``
  (complex input only), ``complex(real, imag)``, ``polar(abs, angle)``,
  ``view_as_real``;
- ``fft``, ``ifft``, ``rfft``, ``irfft``, ``hfft``, ``ihfft`` (``input, n=None,
  dim=-1, norm=None``), ``fft2``, ``ifft2``, ``rfft2``, ``irfft2`` (``input,
  s=None, dim=(-2, -1), norm=None``), ``fftn``, ``ifftn``, ``rfftn``, ``irfftn``
  (``input, s=None, dim=None, norm=None``), ``fftshift`` / ``ifftshift``
  (``input, dim=None``). Integer and float16/float32 inputs give complex64,
  float64 gives complex128, as in MindSpore.

Everything is differentiable. MindSpore's complex gradients are taken to follow
PyTorch's convention (the conjugate Wirtinger derivative, ``dL/dx + i dL/dy``),
which is unigrad's.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> print(ops.fft(ms.Tensor([1.0, 2.0, 3.0, 4.0])))
    [10.+0.j -2.+2.j -2.+0.j -2.-2.j]
    >>> z = ops.complex(ms.Tensor([3.0]), ms.Tensor([4.0]))
    >>> z
    Tensor(shape=[1], dtype=Complex64, value= [3+4j])
    >>> print(ops.abs(z), ops.angle(z))
    [5.] [0.9272952]
"""

from __future__ import annotations

import numbers

from ... import fft as _fft
from ...ops import complex_numbers as _complex
from ...ops import creation as _creation
from ...ops.elementwise import cast as _cast
from ...tensor import Tensor as _UgTensor
from ._tensor import to_ms
from .dtype import to_ms_dtype
from .ops import _int, _tensor

__all__ = ["real", "imag", "conj", "angle", "complex", "polar", "view_as_real", "fft", "ifft",
           "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
           "rfftn", "irfftn", "fftshift", "ifftshift"]

_NORMS = (None, "backward", "forward", "ortho")


def _input(value, owner: str, name: str = "input") -> _UgTensor:
    if not isinstance(value, _UgTensor):
        raise TypeError(f"For '{owner}', the input '{name}' must be a Tensor, but got "
                        f"{type(value).__name__}")
    return value


# ----------------------------------------------------------------------------- complex numbers

def real(input) -> _UgTensor:
    """The real parts of a complex tensor (a new tensor); a real tensor is returned as it is.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.real(ms.Tensor([1.5 + 2j, -1j], ms.complex64)))
        [ 1.5 -0. ]
    """
    x = _input(input, "real")
    if not x.is_complex():
        return x
    return to_ms(_complex.real(x).clone())


def imag(input) -> _UgTensor:
    """The imaginary parts of a complex tensor; zeros of its dtype for a real tensor.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.imag(ms.Tensor([1.5 + 2j], ms.complex64)), ops.imag(ms.Tensor([1.0])))
        [2.] [0.]
    """
    x = _input(input, "imag")
    if not x.is_complex():
        return to_ms(_creation.zeros_like(x))
    return to_ms(_complex.imag(x).clone())


def conj(input) -> _UgTensor:
    """The complex conjugate; a real tensor is returned as it is.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.conj(ms.Tensor([1.3 + 0.4j], ms.complex64)))
        [1.3-0.4j]
    """
    x = _input(input, "conj")
    if not x.is_complex():
        return x
    return to_ms(_complex.conj_physical(x))


def angle(input) -> _UgTensor:
    """The argument ``atan2(imag, real)`` of a complex64/complex128 tensor (float32/float64).

    Raises:
        TypeError: For a tensor of another dtype.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.angle(ms.Tensor([1j, -1 + 0j], ms.complex64)))
        [1.5707964 3.1415927]
    """
    x = _input(input, "angle")
    if not x.is_complex():
        raise TypeError(f"For 'angle', the dtype of 'input' must be complex64 or complex128, "
                        f"but got {to_ms_dtype(x.dtype)}")
    return to_ms(_complex.angle(x))


def _float_pair(owner: str, first, second, names: tuple) -> tuple:
    a, b = _tensor(first, owner, names[0]), _tensor(second, owner, names[1])
    for value, name in ((a, names[0]), (b, names[1])):
        if value.dtype.name not in ("float32", "float64"):
            raise TypeError(f"For '{owner}', the dtype of '{name}' must be float32 or float64, "
                            f"but got {to_ms_dtype(value.dtype)}")
    if a.dtype != b.dtype:
        raise TypeError(f"For '{owner}', the dtypes of '{names[0]}' and '{names[1]}' must be the "
                        f"same, but got {to_ms_dtype(a.dtype)} and {to_ms_dtype(b.dtype)}")
    return a, b


def complex(real, imag) -> _UgTensor:  # noqa: A001 - MindSpore's name
    """``real + 1j * imag`` from two float32 (-> complex64) or float64 (-> complex128) tensors.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.complex(ms.Tensor([1.0, 2.0]), ms.Tensor([0.5, -1.0])))
        [1.+0.5j 2.-1.j ]
    """
    re, im = _float_pair("complex", real, imag, ("real", "imag"))
    return to_ms(_complex.complex(re, im))


def polar(abs, angle) -> _UgTensor:  # noqa: A002 - MindSpore's argument names
    """``abs * (cos(angle) + 1j * sin(angle))`` from two float32/float64 tensors.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.polar(ms.Tensor([2.0]), ms.Tensor([0.0])))
        [2.+0.j]
    """
    magnitude, phase = _float_pair("polar", abs, angle, ("abs", "angle"))
    return to_ms(_complex.polar(magnitude, phase))


def view_as_real(input) -> _UgTensor:
    """A real tensor with a last axis of 2 holding the real and imaginary parts.

    Raises:
        TypeError: For a tensor that is not complex.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.view_as_real(ms.Tensor([2 + 1j, 2 - 1j], ms.complex64)))
        [[ 2.  1.]
         [ 2. -1.]]
    """
    x = _input(input, "view_as_real")
    if not x.is_complex():
        raise TypeError(f"For 'view_as_real', the input must be a complex Tensor, but got "
                        f"{to_ms_dtype(x.dtype)}")
    return to_ms(_complex.view_as_real(x))


# ----------------------------------------------------------------------------- transforms

def _signal(input, owner: str, real_only: bool = False) -> _UgTensor:
    x = _input(input, owner)
    kind = x._data.dtype.kind
    if kind == "b" or (real_only and kind == "c"):
        allowed = "int16, int32, int64, float16, float32, float64" + \
            ("" if real_only else ", complex64, complex128")
        raise TypeError(f"For '{owner}', the dtype of 'input' must be one of [{allowed}], but got "
                        f"{to_ms_dtype(x.dtype)}")
    if kind in "iu" or x.dtype.name == "float16":
        x = _cast(x, "float32")
    return x


def _check_norm(norm, owner: str) -> None:
    if norm not in _NORMS:
        raise ValueError(f"For '{owner}', the 'norm' must be one of ['backward', 'forward', "
                         f"'ortho'], but got {norm!r}")


def _dim(dim, ndim: int, owner: str) -> int:
    dim = _int(dim, owner, "dim")
    if not -ndim <= dim < ndim:
        raise ValueError(f"For '{owner}', the 'dim' must be in range [{-ndim}, {ndim}), but got "
                         f"{dim}")
    return dim


def _ints(values, owner: str, name: str) -> tuple | None:
    if values is None:
        return None
    if isinstance(values, numbers.Integral) and not isinstance(values, bool):
        values = (values,)
    if not isinstance(values, (tuple, list)):
        raise TypeError(f"For '{owner}', the '{name}' must be a tuple of int, but got "
                        f"{type(values).__name__}")
    return tuple(_int(v, owner, name) for v in values)


def _one_dim(owner: str, transform, real_only: bool = False):
    def fn(input, n: int | None = None, dim: int = -1, norm: str | None = None) -> _UgTensor:
        x = _signal(input, owner, real_only)
        _check_norm(norm, owner)
        if n is not None and _int(n, owner, "n") < 1:
            raise ValueError(f"For '{owner}', the 'n' must be greater than or equal to 1, but "
                             f"got {n}")
        return to_ms(transform(x, n=n, dim=_dim(dim, x.ndim, owner), norm=norm))
    fn.__name__ = fn.__qualname__ = owner
    fn.__doc__ = (f"``mindspore.ops.{owner}(input, n=None, dim=-1, norm=None)``: "
                  f"``torch.fft.{owner}``'s transform (:func:`unigrad.fft.{owner}`).")
    return fn


def _many_dims(owner: str, transform, default_dim, real_only: bool = False):
    def fn(input, s=None, dim=default_dim, norm: str | None = None) -> _UgTensor:
        x = _signal(input, owner, real_only)
        _check_norm(norm, owner)
        sizes, dims = _ints(s, owner, "s"), _ints(dim, owner, "dim")
        if sizes is not None and any(size < 1 for size in sizes):
            raise ValueError(f"For '{owner}', the elements of 's' must be greater than or equal "
                             f"to 1, but got {list(sizes)}")
        if dims is not None:
            dims = tuple(_dim(d, x.ndim, owner) for d in dims)
        return to_ms(transform(x, s=sizes, dim=dims, norm=norm))
    fn.__name__ = fn.__qualname__ = owner
    fn.__doc__ = (f"``mindspore.ops.{owner}(input, s=None, dim={default_dim}, norm=None)``: "
                  f"``torch.fft.{owner}``'s transform (:func:`unigrad.fft.{owner}`).")
    return fn


fft = _one_dim("fft", _fft.fft)
ifft = _one_dim("ifft", _fft.ifft)
rfft = _one_dim("rfft", _fft.rfft, real_only=True)
irfft = _one_dim("irfft", _fft.irfft)
hfft = _one_dim("hfft", _fft.hfft)
ihfft = _one_dim("ihfft", _fft.ihfft, real_only=True)
fft2 = _many_dims("fft2", _fft.fftn, (-2, -1))
ifft2 = _many_dims("ifft2", _fft.ifftn, (-2, -1))
rfft2 = _many_dims("rfft2", _fft.rfftn, (-2, -1), real_only=True)
irfft2 = _many_dims("irfft2", _fft.irfftn, (-2, -1))
fftn = _many_dims("fftn", _fft.fftn, None)
ifftn = _many_dims("ifftn", _fft.ifftn, None)
rfftn = _many_dims("rfftn", _fft.rfftn, None, real_only=True)
irfftn = _many_dims("irfftn", _fft.irfftn, None)


def fftshift(input, dim=None) -> _UgTensor:
    """Roll the zero-frequency term to the centre of ``dim`` (all dimensions when None).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.fftshift(ms.Tensor([0, 1, 2, -3, -2, -1])))
        [-3 -2 -1  0  1  2]
    """
    x = _input(input, "fftshift")
    return to_ms(_fft.fftshift(x, dim=_ints(dim, "fftshift", "dim")))


def ifftshift(input, dim=None) -> _UgTensor:
    """The inverse of :func:`fftshift`.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> print(ops.ifftshift(ms.Tensor([-3, -2, -1, 0, 1, 2])))
        [ 0  1  2 -3 -2 -1]
    """
    x = _input(input, "ifftshift")
    return to_ms(_fft.ifftshift(x, dim=_ints(dim, "ifftshift", "dim")))
