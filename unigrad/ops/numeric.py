"""Predicates, fills, spacings, histograms and numerical gradients, as in PyTorch.

Composites of existing ops: ``isin``, ``isneginf``, ``isposinf``, ``isreal``,
``positive``, ``rsub``, ``fill``, ``trapz`` (the old name of ``trapezoid``) and
``gradient`` (second-order accurate central differences, differentiable).
Creation functions: ``scalar_tensor``, ``logspace``, ``empty_strided`` and the
``Tensor.new_empty`` method. One non-differentiable primitive: the bin counts
behind ``histogram``.

Example:
    >>> import unigrad as ug
    >>> ug.isin(ug.tensor([1, 2, 3]), ug.tensor([2, 5]))
    tensor([False,  True, False])
    >>> ug.gradient(ug.tensor([1.0, 4.0, 9.0, 16.0]))
    (tensor([3., 4., 6., 7.]),)
"""

from __future__ import annotations

import numbers
from collections import namedtuple

import numpy as np

from .. import backend
from ..interpreters.batching import RuleFor, looped_batch_rule
from ..tensor import Tensor
from . import creation as _creation
from . import elementwise as _elementwise
from . import indexing as _indexing
from . import reduce as _reduce
from . import scans as _scans
from . import shape as _shape
from . import sorting as _sorting
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, normalize_axis
from .registry import op

__all__ = ["isin", "isneginf", "isposinf", "isreal", "positive", "rsub", "fill",
           "scalar_tensor", "logspace", "trapz", "histogram", "gradient", "empty_strided"]


def _as_operand(value):
    """A Tensor for a Python/NumPy number (as PyTorch wraps scalars), else ``value``."""
    if isinstance(value, (numbers.Number, np.generic)):
        return _creation.tensor(value)
    return value


def _np_dtype(value) -> np.dtype:
    """The NumPy dtype of a Tensor, a tracer or an array."""
    return backend.to_numpy_dtype(value.dtype)


def _is_floating(value) -> bool:
    return _np_dtype(value).kind == "f"


# ============================================================================= predicates

@op()
def isin(elements, test_elements, *, assume_unique: bool = False, invert: bool = False):
    """Whether each element of ``elements`` occurs in ``test_elements`` (either may be a
    number); ``invert=True`` gives the opposite. NaN is in nothing. Not differentiable.

    Example:
        >>> import unigrad as ug
        >>> ug.isin(ug.tensor([[1, 2], [3, 4]]), ug.tensor([2, 3]))
        tensor([[False,  True],
                [ True, False]])
        >>> ug.isin(ug.tensor([1.0, 2.0]), 2, invert=True)
        tensor([ True, False])
    """
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError("isin() received an invalid combination of arguments: expected at "
                        "least one of 'elements' and 'test_elements' to be a Tensor")
    elements, test_elements = _as_operand(elements), _as_operand(test_elements)
    shape = tuple(elements.shape)
    flat, tests = _shape._promoted([_shape.reshape(elements, (-1,)),
                                    _shape.reshape(test_elements, (-1,))])
    count, size = int(tests.shape[0]), int(flat.shape[0])
    if count < 10.0 * size ** 0.145:  # few tests: compare all pairs (PyTorch's rule)
        found = _reduce.any(_elementwise.eq(_shape.reshape(flat, (-1, 1)),
                                            _shape.reshape(tests, (1, -1))), 1)
    else:  # many: look each element up in the sorted tests
        ordered = _sorting.sort(tests).values
        positions = _elementwise.clip(_sorting.searchsorted(ordered, flat), max=count - 1)
        found = _elementwise.eq(_indexing.gather(ordered, 0, positions), flat)
    if invert:
        found = _elementwise.logical_not(found)
    return _shape.reshape(found, shape)


def _infinite_with_sign(input, compare):
    if not _is_floating(input):
        return _elementwise.ne(input, input)  # integers are never infinite: all False
    return _elementwise.isinf(input) & compare(input, 0)


@op(methods=("isneginf",))
def isneginf(input):
    """Whether each element is negative infinity.

    Example:
        >>> import unigrad as ug
        >>> ug.isneginf(ug.tensor([-float("inf"), 1.0, float("inf")]))
        tensor([ True, False, False])
    """
    return _infinite_with_sign(input, _elementwise.lt)


@op(methods=("isposinf",))
def isposinf(input):
    """Whether each element is positive infinity.

    Example:
        >>> import unigrad as ug
        >>> ug.isposinf(ug.tensor([-float("inf"), 1.0, float("inf")]))
        tensor([False, False,  True])
    """
    return _infinite_with_sign(input, _elementwise.gt)


@op(methods=("isreal",))
def isreal(input):
    """Whether each element is real: True everywhere for real dtypes, ``imag == 0`` for
    complex ones.

    Example:
        >>> import unigrad as ug
        >>> ug.isreal(ug.tensor([1.0, float("nan")])).all()
        tensor(True)
    """
    if _np_dtype(input).kind == "c":
        return _creation.tensor(np.asarray(input._data).imag == 0)
    return _elementwise.eq(input, input) | _elementwise.ne(input, input)


@op(methods=("positive",))
def positive(input):
    """``input`` itself (unary ``+``); not defined for bool tensors.

    Example:
        >>> import unigrad as ug
        >>> ug.positive(ug.tensor([-1.0, 2.0]))
        tensor([-1.,  2.])
    """
    if _np_dtype(input).kind == "b":
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


@op()
def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` (:func:`sub` with its operands swapped).

    Example:
        >>> import unigrad as ug
        >>> ug.rsub(ug.tensor([1.0, 2.0]), 5.0, alpha=2)
        tensor([3., 1.])
    """
    return _elementwise.sub(other, input, alpha=None if alpha == 1 else alpha)


# ============================================================================= fills and creation

@op()
def fill(input, value):
    """A tensor like ``input`` filled with ``value`` (a number or a 0-d tensor, cast to
    ``input``'s dtype); the out-of-place :meth:`Tensor.fill_`. The gradient goes to a
    tensor ``value`` (summed); ``input`` gets zeros.

    Example:
        >>> import unigrad as ug
        >>> ug.fill(ug.tensor([1, 2, 3]), 2.7)
        tensor([2, 2, 2])
    """
    if isinstance(value, Tensor) and value.ndim != 0:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{value.ndim} dimensions.")
    dtype = _np_dtype(input) if isinstance(input, Tensor) else _np_dtype(input)
    value = _elementwise.cast(_as_operand(value), dtype)
    return _elementwise.where(True, value, input)


@op()
def scalar_tensor(s, *, dtype=None, layout=None, device=None, requires_grad: bool = False,
                  pin_memory: bool = False) -> Tensor:
    """A 0-d tensor holding the number ``s`` (float32 unless ``dtype``).

    Example:
        >>> import unigrad as ug
        >>> ug.scalar_tensor(3)
        tensor(3.)
    """
    if isinstance(s, Tensor):
        s = s.item()
    return _creation.tensor(s, dtype=dtype or backend.default_float(), device=device,
                            requires_grad=requires_grad)


@op()
def logspace(start, end, steps: int, base: float = 10.0, *, dtype=None, layout=None,
             device=None, requires_grad: bool = False) -> Tensor:
    """``steps`` values ``base ** t`` for ``t`` evenly spaced from ``start`` to ``end``.

    Example:
        >>> import unigrad as ug
        >>> ug.logspace(0, 2, 3)
        tensor([  1.,  10., 100.])
        >>> ug.logspace(0, 3, 4, base=2, dtype=ug.int64)
        tensor([1, 2, 4, 8])
    """
    if not isinstance(steps, (int, np.integer)) or steps < 0:
        raise RuntimeError(f"number of steps must be non-negative, got {steps!r}")
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, base)]
    exponents = np.linspace(float(values[0]), float(values[1]), int(steps))
    powers = np.power(float(values[2]), exponents)
    np_dtype = backend.to_numpy_dtype(dtype) if dtype is not None else backend.default_float()
    return _creation.tensor(powers.astype(np_dtype), device=device, requires_grad=requires_grad)


@op(methods=("new_empty",))
def _new_empty(self, *size, dtype=None, layout=None, device=None, requires_grad: bool = False,
               pin_memory: bool = False) -> Tensor:
    """``Tensor.new_empty(size)``: an uninitialised tensor (zeros here) with this tensor's
    dtype and device unless given."""
    return _creation.zeros(*size, dtype=dtype or self.dtype, device=device or self.device,
                           requires_grad=requires_grad)


@op()
def empty_strided(size, stride, *, dtype=None, layout=None, device=None,
                  requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """An uninitialised tensor of ``size`` (zeros here); ``stride`` is checked and then
    left to NumPy (its storage is always dense).

    Example:
        >>> import unigrad as ug
        >>> ug.empty_strided((2, 3), (1, 2)).shape
        (2, 3)
    """
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, "
                           f"got strides: {list(stride)}")
    return _creation.zeros(size, dtype=dtype, device=device, requires_grad=requires_grad)


# ============================================================================= integration

@op()
def trapz(y, x=None, *, dx=None, dim: int = -1):
    """The old name of :func:`trapezoid`: ``trapz(y, x, dim=-1)`` or
    ``trapz(y, dx=1, dim=-1)``.

    Example:
        >>> import unigrad as ug
        >>> ug.trapz(ug.tensor([1.0, 2.0, 3.0]), dx=2)
        tensor(8.)
    """
    return _scans.trapezoid(y, x, dx=dx, dim=dim)


# ============================================================================= histogram

HistogramResult = namedtuple("histogram", ("hist", "bin_edges"))


def _histogram_impl(x, edges, *weight):
    xp = backend.namespace_of(x)
    counts, _ = np.histogram(backend.to_numpy(x).ravel(), bins=backend.to_numpy(edges),
                             weights=backend.to_numpy(weight[0]).ravel() if weight else None)
    return xp.asarray(counts.astype(x.dtype))


histogram_counts_p = Primitive(
    "histogram_counts", _histogram_impl,
    lambda x, edges, *weight: ((edges.shape[0] - 1,), dtype_of(x)),
    differentiable=False, batch=RuleFor(looped_batch_rule))


def _bin_edges(input, bins: int, range):
    """``bins + 1`` equal-width edges over ``range`` or the data's range (widened by 0.5
    each side when it is a single point; [0, 1] for empty data)."""
    dtype = _np_dtype(input)
    if range is None and int(np.prod(tuple(input.shape))) == 0:
        range = (0.0, 1.0)
    if range is not None:
        low, high = (float(v) for v in range)
        if low > high:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                               f"{low:g} max {high:g} for dimension 0")
        if low == high:
            low, high = low - 0.5, high + 0.5
        return _creation.tensor(np.linspace(low, high, bins + 1).astype(dtype))
    flat = _shape.reshape(input, (-1,))
    low, high = _reduce.amin(flat), _reduce.amax(flat)
    same = _elementwise.eq(low, high)
    low = _elementwise.where(same, low - 0.5, low)
    high = _elementwise.where(same, high + 0.5, high)
    # as torch.linspace: counted from the nearer end, so both ends are exact
    step = (high - low) / bins
    positions = np.arange(bins + 1)
    from_low = _creation.tensor(positions.astype(dtype))
    from_high = _creation.tensor((bins - positions).astype(dtype))
    lower_half = _creation.tensor(positions < (bins + 1) // 2)
    return _elementwise.where(lower_half, low + step * from_low, high - step * from_high)


@op(methods=("histogram",))
def histogram(input, bins, *, range=None, weight=None, density: bool = False):
    """A histogram of the (flattened, floating) ``input``: ``bins`` equal bins over
    ``range`` (the data's range by default), or the edges given as a 1-D tensor ``bins``.
    The last bin includes its right edge; values outside are ignored. ``weight``: each
    element's weight; ``density``: normalised to integrate to 1. Not differentiable.

    Returns ``histogram(hist, bin_edges)``.

    Example:
        >>> import unigrad as ug
        >>> hist, bin_edges = ug.histogram(ug.tensor([1.0, 2.0, 1.0]), bins=4, range=(0.0, 3.0))
        >>> hist
        tensor([0., 2., 1., 0.])
        >>> bin_edges
        tensor([0.0000, 0.7500, 1.5000, 2.2500, 3.0000])
    """
    if not _is_floating(input):
        raise NotImplementedError(f'"histogramdd" not implemented for '
                                  f"'{_torch_type_name(_np_dtype(input))}'")
    if isinstance(bins, Tensor):
        if bins.ndim != 1:
            raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but "
                               f"got {bins.ndim} dimensions in the bins tensor for dimension 0")
        if _np_dtype(bins) != _np_dtype(input):
            raise RuntimeError("torch.histogramdd: input tensor and bins tensors should have the "
                               "same dtype")
        edges = bins
    else:
        if not isinstance(bins, (int, np.integer)) or isinstance(bins, bool) or bins <= 0:
            raise RuntimeError(f"torch.histogramdd(): bins must be > 0, but got {bins} for "
                               f"dimension 0")
        edges = _bin_edges(input, int(bins), range)
    operands = [input, edges]
    if weight is not None:
        if tuple(weight.shape) != tuple(input.shape):
            raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have "
                               "the same shape as the input tensor excluding its innermost "
                               "dimension")
        if _np_dtype(weight) != _np_dtype(input):
            raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor "
                               "and weight tensor should have the same dtype")
        operands.append(weight)
    hist = bind(histogram_counts_p, *operands)
    if isinstance(edges, Tensor):
        edges = edges.detach()
    if density:
        hist = hist / (_reduce.sum(hist) * _scans.diff(edges))
    return HistogramResult(hist, edges)


def _torch_type_name(dtype: np.dtype) -> str:
    names = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
             "bool": "Bool"}
    return names.get(np.dtype(dtype).name, np.dtype(dtype).name)


# ============================================================================= gradient

def _gradient_dims(input, dim) -> tuple:
    ndim = input.ndim
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, (int, np.integer)) else tuple(dim)
    axes = tuple(normalize_axis(d, ndim) for d in dims)
    if len(set(axes)) != len(axes):
        raise RuntimeError("dim appears multiple times in the list of dims")
    return axes


def _gradient_spacings(spacing, axes: tuple, dim_given: bool) -> list:
    """One spacing per axis: a number or a 1-D coordinates tensor."""
    if spacing is None:
        spacing = 1
    if isinstance(spacing, Tensor):
        raise TypeError("gradient(): argument 'spacing' must be a number, or a tuple of "
                        "numbers or of Tensors, not Tensor")
    if not isinstance(spacing, (list, tuple)):
        return [spacing] * len(axes)
    if len(spacing) != len(axes):
        given = "dim argument was given" if dim_given else "dim argument was not given"
        what = f"'len(dim) = {len(axes)}'" if dim_given else f"'self.dim() = {len(axes)}'"
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar, or a "
                           f"list of length equal to {what}, since {given}, but got a list of "
                           f"length {len(spacing)}")
    for value in spacing:
        if isinstance(value, Tensor) and value.ndim != 1:
            raise RuntimeError(f"torch.gradient expected each element of spacing to have one "
                               f"dimension, but got an element with {value.ndim} dimensions!")
    return list(spacing)


def _along(value, axis: int, ndim: int):
    """A 1-D tensor reshaped to lie along ``axis`` of an ``ndim``-d tensor."""
    return _shape.reshape(value, tuple(-1 if i == axis else 1 for i in range(ndim)))


def _uniform_derivative(f, axis: int, h, edge_order: int):
    narrow, n = _shape.narrow, f.shape[axis]
    inner = (narrow(f, axis, 2, n - 2) - narrow(f, axis, 0, n - 2)) / (2.0 * h)
    f0, f1 = narrow(f, axis, 0, 1), narrow(f, axis, 1, 1)
    g0, g1 = narrow(f, axis, n - 1, 1), narrow(f, axis, n - 2, 1)
    if edge_order == 1:
        first, last = (f1 - f0) / h, (g0 - g1) / h
    else:
        f2, g2 = narrow(f, axis, 2, 1), narrow(f, axis, n - 3, 1)
        first = (-1.5 * f0 + 2.0 * f1 - 0.5 * f2) / h
        last = (0.5 * g2 - 2.0 * g1 + 1.5 * g0) / h
    return _shape.concat([first, inner, last], axis)


def _coordinate_derivative(f, axis: int, x, edge_order: int):
    """Second-order central differences on the (possibly uneven) coordinates ``x``."""
    narrow, n, ndim = _shape.narrow, f.shape[axis], f.ndim
    dx = _along(_scans.diff(x), axis, ndim)
    left, right = narrow(dx, axis, 0, n - 2), narrow(dx, axis, 1, n - 2)
    total = left + right
    inner = (-right / (left * total) * narrow(f, axis, 0, n - 2)
             + (right - left) / (left * right) * narrow(f, axis, 1, n - 2)
             + left / (right * total) * narrow(f, axis, 2, n - 2))
    f0, f1 = narrow(f, axis, 0, 1), narrow(f, axis, 1, 1)
    g0, g1 = narrow(f, axis, n - 1, 1), narrow(f, axis, n - 2, 1)
    d0, d_last = narrow(dx, axis, 0, 1), narrow(dx, axis, n - 2, 1)
    if edge_order == 1:
        first, last = (f1 - f0) / d0, (g0 - g1) / d_last
    else:
        f2, g2 = narrow(f, axis, 2, 1), narrow(f, axis, n - 3, 1)
        d1, d_before = narrow(dx, axis, 1, 1), narrow(dx, axis, n - 3, 1)
        first = (-(2.0 * d0 + d1) / (d0 * (d0 + d1)) * f0 + (d0 + d1) / (d0 * d1) * f1
                 - d0 / (d1 * (d0 + d1)) * f2)
        last = (d_last / (d_before * (d_before + d_last)) * g2
                - (d_last + d_before) / (d_before * d_last) * g1
                + (2.0 * d_last + d_before) / (d_last * (d_before + d_last)) * g0)
    return _shape.concat([first, inner, last], axis)


@op()
def gradient(input, *, spacing=1, dim=None, edge_order: int = 1) -> tuple:
    """The derivative of ``input`` along each of ``dim`` (all dims by default) by
    second-order accurate central differences, with one- or two-sided first- or
    second-order differences at the edges (``edge_order``). ``spacing``: a number, one
    number per dim, or one 1-D coordinates tensor per dim. Differentiable.

    Example:
        >>> import unigrad as ug
        >>> ug.gradient(ug.tensor([[1.0, 4.0, 9.0], [2.0, 3.0, 5.0]]), dim=1)
        (tensor([[3.0000, 4.0000, 5.0000],
                [1.0000, 1.5000, 2.0000]]),)
    """
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    axes = _gradient_dims(input, dim)
    spacings = _gradient_spacings(spacing, axes, dim is not None)
    shape = tuple(input.shape)
    for axis, step in zip(axes, spacings):
        if shape[axis] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least "
                               "edge_order+1")
        if isinstance(step, Tensor) and tuple(step.shape) != (shape[axis],):
            raise RuntimeError(f"torch.gradient expected each tensor to be on the same device "
                               f"and of size {shape[axis]} along dim {axis}, got "
                               f"{tuple(step.shape)}")
    if _np_dtype(input).kind not in "fc":
        input = _elementwise.cast(input, backend.default_float())
    results = []
    for axis, step in zip(axes, spacings):
        if isinstance(step, Tensor):
            results.append(_coordinate_derivative(input, axis, step, edge_order))
        else:
            results.append(_uniform_derivative(input, axis, step, edge_order))
    return tuple(results)
