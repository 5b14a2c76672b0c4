"""Statistics and geometry: covariance and correlation, pairwise and p-norm distances,
renormalization and the cross product, with PyTorch's names, checks and gradients.

All are composites of differentiable ops; under ``amp.autocast`` ``cdist``, ``dist`` and
``renorm`` run in float32, as in PyTorch. The p-norms behind ``cdist``, ``dist`` and
``renorm`` have PyTorch's gradients where a naive formula has none: 0 at zero
distance (and at zero components for ``p < 1``), and for ``cdist`` with ``p = inf``
the whole gradient to every component at the maximum (``dist`` shares it, as
``torch.norm``).

Example:
    >>> import unigrad as ug
    >>> ug.cdist(ug.tensor([[0.0, 0.0]]), ug.tensor([[3.0, 4.0], [1.0, 0.0]]))
    tensor([[5., 1.]])
    >>> ug.cross(ug.tensor([1.0, 0.0, 0.0]), ug.tensor([0.0, 1.0, 0.0]), dim=0)
    tensor([0., 0., 1.])
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..tensor import Tensor
from . import elementwise as _elementwise
from . import reduce as _reduce
from . import shape as _shape
from ._dtypes import coerce_operands, torch_dtype_name
from ._shape_rules import normalize_axis
from ._values import known_values
from .registry import op

__all__ = ["cov", "corrcoef", "cdist", "dist", "renorm", "cross", "linalg_cross"]

_COMPUTE_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                  "donot_use_mm_for_euclid_dist")


def _pnorm(diff, p: float, dim, *, ties_share: bool):
    """``sum(|diff| ** p, dim) ** (1 / p)`` (``p`` not ``-inf``) with PyTorch's gradients (see the
    module docstring); ``ties_share``: at ``p = inf`` ties share the gradient (``norm``)
    instead of each receiving all of it (``cdist``)."""
    abs, where, sum = _elementwise.abs, _elementwise.where, _reduce.sum
    if p == 0:
        return sum(where(diff != 0, 1.0, diff * 0.0), dim)
    if p == 1:
        return sum(abs(diff), dim)
    if p == 2:
        return _reduce._safe_root(sum(diff * diff, dim), 2)
    magnitude = abs(diff)
    if p == math.inf:
        if ties_share or 0 in tuple(diff.shape):
            return _reduce.amax(magnitude, dim) if 0 not in tuple(diff.shape) else \
                sum(magnitude, dim)
        peak = _reduce.amax(magnitude, dim, True).detach()
        at_peak = where(magnitude == peak, magnitude - peak, 0.0)
        return sum(at_peak, dim) + _shape.squeeze(peak, dim)
    zero = magnitude == 0
    powered = where(zero, 0.0, where(zero, 1.0, magnitude) ** float(p))
    if p > 0:
        return _reduce._safe_root(sum(powered, dim), float(p))
    # p < 0: 0 (and a zero gradient, as PyTorch) where a component is 0
    has_zero = sum(_elementwise.cast(zero, magnitude.dtype), dim) > 0
    total = sum(powered, dim)
    return where(has_zero, 0.0, where(has_zero, 1.0, total) ** (1.0 / p))


def _check_floating(name: str, value, label: str) -> None:
    if value._data.dtype.kind != "f":
        raise RuntimeError(f"{name} only supports floating-point dtypes, {label} got: "
                           f"{torch_dtype_name(value._data.dtype)}")


@op(autocast="float32")
def cdist(x1: Tensor, x2: Tensor, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The p-norm distances between the rows of ``x1`` (``(..., P, M)``) and of ``x2``
    (``(..., R, M)``): a ``(..., P, R)`` tensor; batch dims broadcast.

    ``compute_mode`` is validated and otherwise ignored (distances are computed
    directly). The gradient at zero distance is 0, as in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> ug.cdist(ug.tensor([[0.0, 0.0], [1.0, 1.0]]), ug.tensor([[3.0, 4.0]]), p=1.0)
        tensor([[7.],
                [5.]])
    """
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    for label, value in (("X1", x1), ("X2", x2)):
        if len(tuple(value.shape)) < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {label} got: "
                               f"{len(tuple(value.shape))}D")
    for label, value in (("X1", x1), ("X2", x2)):
        _check_floating("cdist", value, label)
    columns1, columns2 = tuple(x1.shape)[-1], tuple(x2.shape)[-1]
    if columns1 != columns2:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {columns1} "
                           f"X2: {columns2}")
    if x1._data.dtype != x2._data.dtype:
        raise RuntimeError(f"expected scalar type {torch_dtype_name(x1._data.dtype)} but found "
                           f"{torch_dtype_name(x2._data.dtype)}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    diff = _shape.unsqueeze(x1, -2) - _shape.unsqueeze(x2, -3)
    return _pnorm(diff, float(p), -1, ties_share=False)


@op(methods=("dist",), autocast="float32")
def dist(input: Tensor, other: Tensor, p: float = 2) -> Tensor:
    """The ``p``-norm of ``input - other`` (broadcast), a 0-d tensor, with ``torch.norm``'s
    gradients (0 at zero distance).

    Example:
        >>> import unigrad as ug
        >>> ug.dist(ug.tensor([1.0, 2.0]), ug.tensor([4.0, 6.0]))
        tensor(5.)
    """
    for value in (input, other):
        if isinstance(value, Tensor) and value._data.dtype.kind not in "fc":
            raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                               f"Got {torch_dtype_name(value._data.dtype)} instead.")
    diff = _elementwise.sub(input, other)
    if diff.dtype.kind == "c":
        diff = _elementwise.abs(diff)  # the distance of the magnitudes of the differences
    axes = tuple(range(len(tuple(diff.shape))))
    if p == -math.inf:
        return _reduce.vector_norm(diff, float(p), axes)
    return _pnorm(diff, float(p), axes, ties_share=True)


@op(methods=("renorm",), inplace=("renorm_",), autocast="float32")
def renorm(input: Tensor, p: float, dim: int, maxnorm: float) -> Tensor:
    """Each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` scaled to norm
    ``maxnorm`` (by ``maxnorm / (norm + 1e-7)``, as in PyTorch); the others unchanged.

    Example:
        >>> import unigrad as ug
        >>> ug.renorm(ug.tensor([[3.0, 4.0], [0.3, 0.4]]), p=2, dim=0, maxnorm=1.0)
        tensor([[0.6000, 0.8000],
                [0.3000, 0.4000]])
    """
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    ndim = len(tuple(input.shape))
    if ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {ndim} dimensions")
    if input._data.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {torch_dtype_name(input._data.dtype)}")
    axis = normalize_axis(dim, ndim)
    others = tuple(i for i in range(ndim) if i != axis)
    magnitudes = _elementwise.abs(input) if input._data.dtype.kind == "c" else input
    norms = _shape.reshape(_pnorm(magnitudes, float(p), others, ties_share=True),
                           tuple(-1 if i == axis else 1 for i in range(ndim)))
    factor = _elementwise.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)
    return input * factor


# ----------------------------------------------------------------------------- cov / corrcoef

def _check_weights(name: str, weights, observations: int, kinds: str, kind_name: str) -> None:
    if not isinstance(weights, Tensor):
        raise TypeError(f"cov(): argument '{name}' must be Tensor, not {type(weights).__name__}")
    ndim = len(tuple(weights.shape))
    if ndim > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                           f"{name} with {ndim} dimensions")
    if weights._data.dtype.kind not in kinds:
        raise RuntimeError(f"cov(): expected {name} to have {kind_name} dtype but got {name} "
                           f"with {torch_dtype_name(weights._data.dtype)} dtype")
    count = int(np.prod(tuple(weights.shape), dtype=np.int64))
    if count != observations:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {count} != {observations}")
    if observations and (known := known_values(weights)) is not None and bool((known < 0).any()):
        raise RuntimeError(f"cov(): {name} cannot be negative")


@op(methods=("cov",))
def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None,
        aweights: Tensor | None = None) -> Tensor:
    """The covariance matrix of the variables in the rows of ``input`` (a 1-D input is one
    variable), with integer frequency weights ``fweights``, floating observation weights
    ``aweights`` and Bessel's ``correction``, as ``torch.cov`` (and ``numpy.cov``).

    Where the degrees of freedom are ``<= 0`` PyTorch warns and divides by 0.

    Example:
        >>> import unigrad as ug
        >>> ug.cov(ug.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
        tensor([[ 1., -1.],
                [-1.,  1.]])
    """
    shape = tuple(input.shape)
    if len(shape) > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {len(shape)} dimensions")
    if input._data.dtype == np.bool_:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = _shape.reshape(input, (1, -1)) if len(shape) < 2 else input
    observations = tuple(x.shape)[1]
    sum, where = _reduce.sum, _elementwise.where
    weights = None
    if fweights is not None:
        _check_weights("fweights", fweights, observations, "iu", "integral")
        weights = fweights
    if aweights is not None:
        _check_weights("aweights", aweights, observations, "f", "floating point")
        weights = aweights if weights is None else weights * aweights
    with np.errstate(divide="ignore", invalid="ignore"):
        if weights is None:
            total = observations
            average = sum(x, 1) / observations if observations else sum(x, 1) * math.nan
        else:
            total = sum(weights)
            if (known := known_values(total)) is not None and not bool(known != 0):
                raise RuntimeError("cov(): weights sum to zero, can't be normalized")
            average = sum(x * weights, 1) / total
        if weights is not None and aweights is not None and correction != 0:
            factor = total - sum(weights * aweights) * correction / total
        else:
            factor = total - correction
        if isinstance(factor, Tensor):
            if (known := known_values(factor)) is not None and bool(known <= 0):
                _warn_degrees_of_freedom()
            factor = where(factor <= 0, 0, factor)
        elif factor <= 0:
            _warn_degrees_of_freedom()
            factor = 0
        centered = x - _shape.unsqueeze(average, 1)
        weighted = centered if weights is None else centered * weights
        from .linalg import matmul
        weighted = _shape.transpose(weighted, 0, 1)
        if weighted.dtype.kind == "c":  # complex: x conj(x)^T
            from .complex_numbers import conj
            weighted = conj(weighted)
        product = matmul(centered, weighted)
        if not isinstance(factor, Tensor):
            factor = float(factor)
        result = _elementwise.div(product, factor)
    return _shape.squeeze(result)


def _warn_degrees_of_freedom() -> None:
    warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than "
                  "the number of observations.", UserWarning, stacklevel=3)


@op(methods=("corrcoef",))
def corrcoef(input: Tensor) -> Tensor:
    """The Pearson correlation coefficients of the variables in the rows of ``input``
    (``cov`` normalized by the standard deviations, clipped to ``[-1, 1]``), as
    ``torch.corrcoef``.

    Example:
        >>> import unigrad as ug
        >>> ug.corrcoef(ug.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 5.0]]))
        tensor([[1.0000, 0.7206],
                [0.7206, 1.0000]])
    """
    ndim = len(tuple(input.shape))
    if ndim > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got "
                           f"an input with {ndim} dimensions")
    covariance = cov(input)
    with np.errstate(divide="ignore", invalid="ignore"):
        if not tuple(covariance.shape):
            return covariance / covariance
        count = tuple(covariance.shape)[0]
        variances = _shape.reshape(covariance, (-1,))[::count + 1]
        if variances.dtype.kind == "c":
            from .complex_numbers import real
            variances = real(variances)
        deviation = _elementwise.sqrt(variances)
        covariance = covariance / _shape.reshape(deviation, (-1, 1))
        covariance = covariance / _shape.reshape(deviation, (1, -1))
    if covariance.dtype.kind == "c":  # PyTorch clips the real and imaginary parts
        from .complex_numbers import complex, imag, real
        return complex(_elementwise.clip(real(covariance), -1, 1),
                       _elementwise.clip(imag(covariance), -1, 1))
    return _elementwise.clip(covariance, -1, 1)


# ----------------------------------------------------------------------------- cross

def _cross_along(input, other, axis: int):
    select = _shape.select
    a = [select(input, axis, i) for i in range(3)]
    b = [select(other, axis, i) for i in range(3)]
    return _shape.stack([a[1] * b[2] - a[2] * b[1],
                         a[2] * b[0] - a[0] * b[2],
                         a[0] * b[1] - a[1] * b[0]], axis)


@op()
def linalg_cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (``torch.linalg.cross``; other dims
    broadcast).

    Example:
        >>> import unigrad as ug
        >>> ug.linalg.cross(ug.tensor([[1.0, 2.0, 3.0]]), ug.tensor([[0.0, 1.0, 0.0]]))
        tensor([[-3.,  0.,  1.]])
    """
    input, other = coerce_operands(input, other)
    shape1, shape2 = tuple(input.shape), tuple(other.shape)
    if len(shape1) != len(shape2):
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    axis = normalize_axis(dim, len(shape1))
    if shape1[axis] != 3 or shape2[axis] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{shape1[axis]} and {shape2[axis]}")
    for position, (size1, size2) in enumerate(zip(shape1, shape2)):
        if size1 != size2 and 1 not in (size1, size2):
            raise RuntimeError(f"The size of tensor a ({size1}) must match the size of tensor b "
                               f"({size2}) at non-singleton dimension {position}")
    return _cross_along(input, other, axis)


@op(methods=("cross",))
def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (``torch.cross``). Without ``dim``,
    the first dimension of size 3, with PyTorch's deprecation warning.

    Example:
        >>> import unigrad as ug
        >>> ug.cross(ug.tensor([[1, 0, 0]]), ug.tensor([[0, 1, 0]]), dim=1)
        tensor([[0, 0, 1]])
    """
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\n"
                      "Please either pass the dim explicitly or simply use torch.linalg.cross.\n"
                      "The default value of dim will change to agree with that of linalg.cross "
                      "in a future release.", UserWarning, stacklevel=2)
        sizes = tuple(input.shape)
        if 3 not in sizes:
            raise RuntimeError("no dimension of size 3 in input")
        dim = sizes.index(3)
    return linalg_cross(input, other, dim=dim)

