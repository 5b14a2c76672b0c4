"""Discrete Fourier transforms with PyTorch's ``torch.fft`` semantics, differentiable.

Three primitives carry every transform, each over a tuple of (negative) axes:

- ``fft_c2c``: complex to complex, forward or inverse;
- ``fft_r2c``: real to the one-sided complex spectrum (last axis ``n // 2 + 1``);
- ``fft_c2r``: one-sided spectrum back to a real signal of a given length.

Their vjps are the adjoint transforms with the dual normalization
(``"backward"`` <-> ``"forward"``, ``"ortho"`` itself), by PyTorch's complex
convention (the cotangent is ``dL/dx + i dL/dy``); ``fft_c2r``'s doubles the
bins that stand for two in the full spectrum, as PyTorch's does. The public
functions (``ug.fft.fft`` ... in :mod:`unigrad.fft`) resize inputs to ``n`` /
``s`` with differentiable slices and zero padding, and spell ``hfft`` /
``ihfft`` through conjugates of the real transforms.

Example:
    >>> import unigrad as ug
    >>> ug.fft.fft(ug.tensor([1.0, 2.0, 3.0, 4.0]))
    tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    >>> x = ug.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    >>> ug.fft.rfft(x).abs().sum().backward()
    >>> x.grad
    tensor([-0.7071,  1.2929,  0.7071,  2.7071])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import backend
from ..backend import namespace_of
from ..interpreters.batching import over_leading_dims
from ..tensor import Tensor
from . import creation as _creation
from . import elementwise as _elementwise
from . import layout as _layout
from . import shape as _shape
from ._dtypes import torch_dtype_name
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, shape_of
from .complex_numbers import conj, real

# the public functions are spelled ug.fft.<name> (unigrad/fft.py), not ug.<name>
__all__: list = []

_NORMS = ("backward", "forward", "ortho")
_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


# ----------------------------------------------------------------------------- primitives

def _c2c_impl(x, axes, forward, norm):
    fft = namespace_of(x).fft
    return (fft.fftn if forward else fft.ifftn)(x, axes=axes, norm=norm)


def _c2c_rule(x, axes, forward, norm):
    return shape_of(x), np.dtype(dtype_of(x))


fft_c2c_p = Primitive(
    "fft_c2c", _c2c_impl, _c2c_rule, kind="linear", saves="nothing",
    vjp=lambda g, out, needs, x, axes, forward, norm: (
        bind(fft_c2c_p, g, axes=axes, forward=not forward, norm=_DUAL[norm]),),
    backward_name="FftC2CBackward0", complex_gradient="own", batch=over_leading_dims(),
    result_memory="fresh")


def _r2c_impl(x, axes, norm):
    return namespace_of(x).fft.rfftn(x, axes=axes, norm=norm)


def _r2c_rule(x, axes, norm):
    shape = list(shape_of(x))
    shape[axes[-1]] = shape[axes[-1]] // 2 + 1
    return tuple(shape), backend.complex_of(np.dtype(dtype_of(x)))


def _r2c_vjp(g, out, needs, x, axes, norm):
    # the adjoint of "full transform, keep the first n // 2 + 1 bins": zero-pad the
    # cotangent back to n bins, apply the adjoint transform, keep the real part
    size = shape_of(x)[axes[-1]]
    padded = _zero_padded(g, axes[-1], size)
    full = bind(fft_c2c_p, padded, axes=axes, forward=False, norm=_DUAL[norm])
    return (real(full),)


fft_r2c_p = Primitive(
    "fft_r2c", _r2c_impl, _r2c_rule, kind="linear", saves="nothing", vjp=_r2c_vjp,
    backward_name="FftR2CBackward0", complex_gradient="own", batch=over_leading_dims(),
    result_memory="fresh")


def _c2r_sizes(x, axes, size):
    shape = shape_of(x)
    return tuple(shape[axis] for axis in axes[:-1]) + (size,)


def _c2r_impl(x, axes, size, norm):
    return namespace_of(x).fft.irfftn(x, s=_c2r_sizes(x, axes, size), axes=axes, norm=norm)


def _c2r_rule(x, axes, size, norm):
    shape = list(shape_of(x))
    shape[axes[-1]] = size
    return tuple(shape), backend.real_of(np.dtype(dtype_of(x)))


def _c2r_vjp(g, out, needs, x, axes, size, norm):
    # PyTorch's rule: the one-sided transform of the cotangent, with the bins that stand
    # for two in the Hermitian-extended spectrum (all but 0 and, for even sizes, n / 2)
    # counted twice
    spectrum = bind(fft_r2c_p, g, axes=axes, norm=_DUAL[norm])
    bins = size // 2 + 1
    doubled = size - bins
    weights = np.ones(bins)
    weights[1:1 + doubled] = 2.0
    weights = weights.reshape((bins,) + (1,) * (-axes[-1] - 1))
    return (spectrum * weights.astype(backend.real_of(np.dtype(dtype_of(spectrum)))),)


fft_c2r_p = Primitive(
    "fft_c2r", _c2r_impl, _c2r_rule, kind="linear", saves="nothing", vjp=_c2r_vjp,
    backward_name="FftC2RBackward0", complex_gradient="own", batch=over_leading_dims(),
    result_memory="fresh")


def _zero_padded(value, axis: int, size: int):
    """``value`` with zeros appended along ``axis`` up to ``size`` entries."""
    current = shape_of(value)[axis]
    if current == size:
        return value
    if not isinstance(value, Tensor) and not hasattr(value, "__unigrad_abstract__"):
        widths = [(0, 0)] * len(shape_of(value))
        widths[axis] = (0, size - current)
        return namespace_of(value).pad(value, widths)
    return _resized(value, axis, size)


# ----------------------------------------------------------------------------- argument handling

def _check_norm(norm) -> str:
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')
    return norm


def _as_tensor(name: str, input) -> Tensor:
    if not isinstance(input, Tensor):
        raise TypeError(f"fft_{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return input


def _complex_input(input: Tensor) -> Tensor:
    """Real and integral inputs of complex transforms become complex (int -> default)."""
    kind = input._data.dtype.kind
    if kind == "c":
        return input
    return _elementwise.cast(input, backend.complex_of(input._data.dtype))


def _real_input(name: str, input: Tensor) -> Tensor:
    kind = input._data.dtype.kind
    if kind == "c":
        raise RuntimeError(f"{name} expects a real input tensor, but got "
                           f"{torch_dtype_name(input._data.dtype)}")
    if kind != "f":
        return _elementwise.cast(input, backend.default_float())
    return input


def _axis(name: str, dim, ndim: int) -> int:
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise TypeError(f"fft_{name}(): argument 'dim' must be int, not {type(dim).__name__}")
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(ndim, 1)}, {max(ndim, 1) - 1}], but got {dim})")
    return int(dim) - ndim if dim >= 0 else int(dim)


def _resized(x: Tensor, axis: int, size: int) -> Tensor:
    """``x`` trimmed or zero-padded along ``axis`` to ``size`` entries (differentiable)."""
    current = x.shape[axis]
    if size == current:
        return x
    if size < current:
        return _shape.narrow(x, axis, 0, size)
    zeros_shape = list(x.shape)
    zeros_shape[axis] = size - current
    return _shape.cat([x, _creation.zeros(tuple(zeros_shape), dtype=x.dtype)], axis)


def _check_size(name: str, size) -> int:
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise TypeError(f"fft_{name}(): argument 'n' must be int, not {type(size).__name__}")
    if size < 1:
        raise RuntimeError(f"Invalid number of data points ({size}) specified")
    return int(size)


def _axes_and_sizes(name: str, input: Tensor, s, dim) -> tuple[tuple, tuple]:
    """PyTorch's rule for ``s`` and ``dim`` of the n-dimensional transforms: the axes
    (negative, in order) and the signal size along each."""
    ndim = input.ndim
    if dim is not None:
        dims = (dim,) if isinstance(dim, (int, np.integer)) else tuple(dim)
        axes = tuple(_axis(name, d, ndim) for d in dims)
        if len(set(axes)) != len(axes):
            raise RuntimeError("FFT dims must be unique")
        if s is not None and len(tuple(s)) != len(axes):
            raise RuntimeError(f"When given, dim and shape arguments must have the same "
                               f"length, got {len(axes)} dims and {len(tuple(s))} shape")
    elif s is not None:
        count = len(tuple(s))
        if count > ndim:
            raise RuntimeError(f"Got shape with {count} values but input tensor only has "
                               f"{ndim} dimensions.")
        axes = tuple(range(-count, 0))
    else:
        axes = tuple(range(-ndim, 0))
    if s is None:
        sizes = tuple(input.shape[axis] for axis in axes)
    else:
        sizes = tuple(input.shape[axis] if size == -1 else _check_size(name, size)
                      for axis, size in zip(axes, tuple(s)))
    return axes, sizes


def _one_dim(name: str, input: Tensor, n, dim) -> tuple[tuple, tuple]:
    axis = _axis(name, dim, input.ndim)
    size = input.shape[axis] if input.ndim else 1
    if input.ndim == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    return (axis,), ((size if n is None else _check_size(name, n)),)


def _c2c(name: str, input, axes, sizes, norm, forward: bool) -> Tensor:
    x = _complex_input(input)
    for axis, size in zip(axes, sizes):
        x = _resized(x, axis, size)
    return bind(fft_c2c_p, x, axes=axes, forward=forward, norm=_check_norm(norm))


def _r2c(name: str, input, axes, sizes, norm) -> Tensor:
    x = _real_input(name, input)
    for axis, size in zip(axes, sizes):
        x = _resized(x, axis, size)
    return bind(fft_r2c_p, x, axes=axes, norm=_check_norm(norm))


def _c2r(name: str, input, axes, sizes, last_given: bool, norm) -> Tensor:
    x = _complex_input(input)
    last = axes[-1]
    size = sizes[-1] if last_given else 2 * (x.shape[last] - 1)
    if size < 1:
        raise RuntimeError(f"Invalid number of data points ({size}) specified")
    for axis, other in zip(axes[:-1], sizes[:-1]):
        x = _resized(x, axis, other)
    x = _resized(x, last, size // 2 + 1)
    return bind(fft_c2r_p, x, axes=axes, size=size, norm=_check_norm(norm))


# ----------------------------------------------------------------------------- one dimension

def fft(input, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The one-dimensional discrete Fourier transform along ``dim``.

    ``n`` trims or zero-pads the signal first; ``norm`` is ``"backward"`` (no
    scaling, the default), ``"ortho"`` (``1/sqrt(n)``) or ``"forward"`` (``1/n``).

    Example:
        >>> import unigrad as ug
        >>> ug.fft.fft(ug.tensor([1.0, 0.0, 0.0, 0.0]), n=2)
        tensor([1.+0.j, 1.+0.j])
    """
    input = _as_tensor("fft", input)
    axes, sizes = _one_dim("fft", input, n, dim)
    return _c2c("fft", input, axes, sizes, norm, True)


def ifft(input, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of :func:`fft` (``"backward"`` scales by ``1/n``).

    Example:
        >>> import unigrad as ug
        >>> ug.fft.ifft(ug.fft.fft(ug.tensor([1.0, 2.0]))).real
        tensor([1., 2.])
    """
    input = _as_tensor("ifft", input)
    axes, sizes = _one_dim("ifft", input, n, dim)
    return _c2c("ifft", input, axes, sizes, norm, False)


def rfft(input, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The transform of a real signal: the ``n // 2 + 1`` non-negative frequencies.

    Example:
        >>> import unigrad as ug
        >>> ug.fft.rfft(ug.tensor([1.0, 2.0, 3.0, 4.0]))
        tensor([10.+0.j, -2.+2.j, -2.+0.j])
    """
    input = _as_tensor("rfft", input)
    axes, sizes = _one_dim("rfft", input, n, dim)
    return _r2c("rfft", input, axes, sizes, norm)


def irfft(input, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The real signal of length ``n`` (default ``2 * (m - 1)``) whose one-sided
    spectrum is ``input``; the inverse of :func:`rfft`.

    Example:
        >>> import unigrad as ug
        >>> ug.fft.irfft(ug.fft.rfft(ug.tensor([1.0, 2.0, 3.0])), n=3)
        tensor([1., 2., 3.])
    """
    input = _as_tensor("irfft", input)
    axes, sizes = _one_dim("irfft", input, n, dim)
    return _c2r("irfft", input, axes, sizes, n is not None, norm)


def hfft(input, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The transform of a Hermitian-symmetric signal given by its first half: a real
    spectrum of length ``n`` (default ``2 * (m - 1)``).

    Example:
        >>> import unigrad as ug
        >>> ug.fft.hfft(ug.tensor([1.0 + 0j, 2.0 + 0j]), n=3)
        tensor([ 5., -1., -1.])
    """
    input = _as_tensor("hfft", input)
    axes, sizes = _one_dim("hfft", input, n, dim)
    return _c2r("hfft", conj(_complex_input(input)), axes, sizes, n is not None,
                _DUAL[_check_norm(norm)])


def ihfft(input, n: int | None = None, dim: int = -1, norm: str | None = None) -> Tensor:
    """The inverse of :func:`hfft`: the first half of a Hermitian signal from its real
    spectrum.

    Example:
        >>> import unigrad as ug
        >>> ug.fft.ihfft(ug.tensor([5.0, -1.0, -1.0]))
        tensor([1.-0.j, 2.-0.j])
    """
    input = _as_tensor("ihfft", input)
    axes, sizes = _one_dim("ihfft", input, n, dim)
    return conj(_r2c("ihfft", input, axes, sizes, _DUAL[_check_norm(norm)]))


# ----------------------------------------------------------------------------- n dimensions

def fftn(input, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
         norm: str | None = None) -> Tensor:
    """The n-dimensional transform over ``dim`` (default: the last ``len(s)`` dimensions,
    or all), each trimmed or zero-padded to ``s``.

    Example:
        >>> import unigrad as ug
        >>> ug.fft.fftn(ug.ones(2, 2))
        tensor([[4.+0.j, 0.+0.j],
                [0.+0.j, 0.+0.j]])
    """
    input = _as_tensor("fftn", input)
    axes, sizes = _axes_and_sizes("fftn", input, s, dim)
    return _c2c("fftn", input, axes, sizes, norm, True)


def ifftn(input, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
          norm: str | None = None) -> Tensor:
    """The inverse of :func:`fftn`.

    Example:
        >>> import unigrad as ug
        >>> ug.fft.ifftn(ug.fft.fftn(ug.ones(2, 2))).real
        tensor([[1., 1.],
                [1., 1.]])
    """
    input = _as_tensor("ifftn", input)
    axes, sizes = _axes_and_sizes("ifftn", input, s, dim)
    return _c2c("ifftn", input, axes, sizes, norm, False)


def rfftn(input, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
          norm: str | None = None) -> Tensor:
    """The n-dimensional transform of a real signal, one-sided along the last of ``dim``.

    Example:
        >>> import unigrad as ug
        >>> ug.fft.rfftn(ug.ones(2, 4)).shape
        (2, 3)
    """
    input = _as_tensor("rfftn", input)
    axes, sizes = _axes_and_sizes("rfftn", input, s, dim)
    return _r2c("rfftn", input, axes, sizes, norm)


def irfftn(input, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
           norm: str | None = None) -> Tensor:
    """The inverse of :func:`rfftn`: a real signal whose last dimension has ``s[-1]``
    entries (default ``2 * (m - 1)``).

    Example:
        >>> import unigrad as ug
        >>> ug.fft.irfftn(ug.fft.rfftn(ug.ones(2, 3)), s=(2, 3))
        tensor([[1., 1., 1.],
                [1., 1., 1.]])
    """
    input = _as_tensor("irfftn", input)
    axes, sizes = _axes_and_sizes("irfftn", input, s, dim)
    return _c2r("irfftn", input, axes, sizes, s is not None, norm)


def hfftn(input, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
          norm: str | None = None) -> Tensor:
    """The n-dimensional :func:`hfft`: the real spectrum of a signal that is Hermitian
    over ``dim``, given by its half along the last of them.

    Example:
        >>> import unigrad as ug
        >>> ug.fft.hfftn(ug.ones(2, 2, dtype=ug.complex64), s=(2, 2))
        tensor([[4., 0.],
                [0., 0.]])
    """
    input = _as_tensor("hfftn", input)
    axes, sizes = _axes_and_sizes("hfftn", input, s, dim)
    return _c2r("hfftn", conj(_complex_input(input)), axes, sizes, s is not None,
                _DUAL[_check_norm(norm)])


def ihfftn(input, s: Sequence[int] | None = None, dim: Sequence[int] | None = None,
           norm: str | None = None) -> Tensor:
    """The inverse of :func:`hfftn`.

    Example:
        >>> import unigrad as ug
        >>> ug.fft.ihfftn(ug.ones(2, 2))
        tensor([[1.-0.j, 0.-0.j],
                [0.-0.j, 0.-0.j]])
    """
    input = _as_tensor("ihfftn", input)
    axes, sizes = _axes_and_sizes("ihfftn", input, s, dim)
    return conj(_r2c("ihfftn", input, axes, sizes, _DUAL[_check_norm(norm)]))


def _two_dimensional(nd_function, name: str):
    def transform(input, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1),
                  norm: str | None = None) -> Tensor:
        return nd_function(input, s=s, dim=dim, norm=norm)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"``{nd_function.__name__}`` over two dimensions (default the last "
                         f"two).\n\n    Example:\n        >>> import unigrad as ug\n"
                         f"        >>> ug.fft.{name}(ug.ones(1, 2, 2)).shape[0]\n        1\n")
    return transform


fft2 = _two_dimensional(fftn, "fft2")
ifft2 = _two_dimensional(ifftn, "ifft2")
rfft2 = _two_dimensional(rfftn, "rfft2")
irfft2 = _two_dimensional(irfftn, "irfft2")
hfft2 = _two_dimensional(hfftn, "hfft2")
ihfft2 = _two_dimensional(ihfftn, "ihfft2")


# ----------------------------------------------------------------------------- helpers

def _frequencies(name: str, n, d, values, dtype, device, requires_grad) -> Tensor:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"fft_{name}(): argument 'n' must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError(f"{name} expects n >= 0, but got n={n}")
    np_dtype = backend.default_float() if dtype is None else backend.to_numpy_dtype(dtype)
    array = (values(int(n)) / (n * d) if n else np.zeros(0)).astype(np_dtype)
    return _creation.tensor(array, device=device, requires_grad=requires_grad)


def fftfreq(n: int, d: float = 1.0, *, dtype=None, device=None,
            requires_grad: bool = False) -> Tensor:
    """The sample frequencies of an ``n``-point transform with sample spacing ``d``.

    Example:
        >>> import unigrad as ug
        >>> ug.fft.fftfreq(4)
        tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
    """
    return _frequencies("fftfreq", n, d, lambda count: np.concatenate(
        (np.arange(0, (count - 1) // 2 + 1), np.arange(-(count // 2), 0))).astype(np.float64),
        dtype, device, requires_grad)


def rfftfreq(n: int, d: float = 1.0, *, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """The non-negative sample frequencies of :func:`rfft` of ``n`` points.

    Example:
        >>> import unigrad as ug
        >>> ug.fft.rfftfreq(4)
        tensor([0.0000, 0.2500, 0.5000])
    """
    return _frequencies("rfftfreq", n, d,
                        lambda count: np.arange(0, count // 2 + 1).astype(np.float64),
                        dtype, device, requires_grad)


def _shift(name: str, input, dim, sign: int) -> Tensor:
    input = _as_tensor(name, input)
    if dim is None:
        dims = tuple(range(input.ndim))
    elif isinstance(dim, (int, np.integer)):
        dims = (int(dim),)
    else:
        dims = tuple(dim)
    if not dims:
        return input
    shifts = tuple(sign * (input.shape[d] // 2) for d in dims)
    return _layout.roll(input, shifts, dims)


def fftshift(input, dim=None) -> Tensor:
    """Move the zero frequency to the centre of ``dim`` (default: every dimension).

    Example:
        >>> import unigrad as ug
        >>> ug.fft.fftshift(ug.fft.fftfreq(4))
        tensor([-0.5000, -0.2500,  0.0000,  0.2500])
    """
    return _shift("fftshift", input, dim, 1)


def ifftshift(input, dim=None) -> Tensor:
    """The inverse of :func:`fftshift`.

    Example:
        >>> import unigrad as ug
        >>> ug.fft.ifftshift(ug.fft.fftshift(ug.fft.fftfreq(5)))
        tensor([ 0.0000,  0.2000,  0.4000, -0.4000, -0.2000])
    """
    return _shift("ifftshift", input, dim, -1)


PUBLIC = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
          "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fftfreq",
          "rfftfreq", "fftshift", "ifftshift")
