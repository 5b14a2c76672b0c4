"""More ``mindspore.ops`` functions, spelled from one table over the core's ops.

Each row of ``_ROWS`` is MindSpore's function name, a lambda whose parameters are
MindSpore 2.10's (names, order, defaults, keyword-only markers) and whose body
calls the core, and a line saying what it computes. ``_spelled`` turns a row into
the public function: the parameters named in ``_TENSOR_PARAMETERS`` become
tensors (Python numbers stay numbers for the second operand onward), the result
becomes MindSpore Tensors, and the signature is MindSpore's. Imported into
:mod:`unigrad.compat.mindspore.ops` (the activations, pools, norms and losses
are in :mod:`._functional_nn_more`, the shapes and creation in
:mod:`._functional_shapes_more`, the linear algebra in :mod:`._functional_linalg_more`).

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> x = ms.Tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
    >>> print(ops.atan2(x, x).shape, ops.argmin(x, 1), ops.numel(x))
    (2, 3) [1 2] 6
    >>> values, indices = ops.cummax(x, 1)
    >>> print(values)
    [[1. 1. 3.]
     [4. 5. 5.]]
    >>> [tuple(part.shape) for part in ops.chunk(x, 2, 1)]
    [(2, 2), (2, 1)]
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from ... import ops as _ug
from ...backend import int32 as _int32
from ...dtype_info import finfo as _finfo
from ...dtype_info import iinfo as _iinfo
from ...tensor import Tensor as _UgTensor
from ._primitive_classes import (
    _running_extreme,
    _top_k,
    _xdivy,
)
from ._tensor import _axes, to_ms
from .dtype import to_ms_dtype
from .ops import _int, _operand, _tensor, _tensors

# the parameter names MindSpore gives its tensor inputs: converted before the core sees them
_TENSOR_PARAMETERS = frozenset({
    "input", "other", "x", "y", "input_x", "x1", "x2", "tensor1", "tensor2", "end", "weight",
    "values", "vec2", "mat2", "mat", "vec", "index", "indices", "mask", "dividend", "divisor",
    "exponent", "A", "input_params", "input_indices", "bias", "lengths", "logits", "labels",
    "target", "targets", "inputs", "input1", "input2", "anchor", "positive", "negative",
    "var", "theta", "grid", "running_mean", "running_var", "segment_ids",
    "matrix", "rhs", "seq_lengths", "tensor", "updates", "anchor_boxes", "gt_boxes", "v"})

_INT64 = to_ms_dtype("int64")


def _converted(name: str, parameter: str, value, first: bool, plain: frozenset):
    """``value`` as the core wants it: tensors for tensor parameters (the first one always a
    tensor, later ones may stay Python numbers), everything else (and ``plain``) as given."""
    if parameter not in _TENSOR_PARAMETERS or parameter in plain or value is None:
        return value
    return _tensor(value, name, parameter) if first else _operand(value, name, parameter)


def _spelled(name: str, compute: Callable, doc: str, module: str,
             plain: frozenset = frozenset()) -> Callable:
    """The public function ``name``: MindSpore's signature (``compute``'s), arguments
    converted to tensors (but those named in ``plain``), results as MindSpore Tensors."""
    signature = inspect.signature(compute)
    first = next(iter(signature.parameters), None)

    def spelled(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = {parameter: _converted(name, parameter, value, parameter == first, plain)
                     for parameter, value in bound.arguments.items()}
        return to_ms(compute(**arguments))

    spelled.__name__ = spelled.__qualname__ = name
    spelled.__signature__ = signature
    spelled.__module__ = module
    spelled.__doc__ = f"``ops.{name}{signature}``: {doc}, as MindSpore's ``ops.{name}``."
    return spelled


def _publish(rows: tuple, namespace: dict, module: str) -> list:
    """Put the function of each ``(name, compute, doc[, plain parameters])`` row into
    ``namespace``; their names."""
    namespace.update({row[0]: _spelled(*row[:3], module, *row[3:]) for row in rows})
    return [row[0] for row in rows]


# ------------------------------------------------------------------ helpers of several rows


def _as_tuple(parts) -> tuple:
    return tuple(parts)


def _power_norm(x, norm_type):
    """MindSpore's clip norm: sum(x ** p) ** (1 / p) (no absolute value), or max |x|."""
    if norm_type == float("inf"):
        return _ug.max(_ug.abs(x))
    return _ug.pow(_ug.sum(_ug.pow(x, norm_type)), 1.0 / norm_type)


def _clip_by_norm(x, max_norm, norm_type, error_if_nonfinite: bool):
    """x (a Tensor, or a tuple or list of them) times max_norm / (total norm + 1e-6) when
    that is below 1, else x itself (the total norm is the norm of the parts' norms)."""
    parts = [x] if isinstance(x, _UgTensor) else _tensors(x, "clip_by_norm", "x")
    total = _power_norm(_ug.stack([_power_norm(part, norm_type) for part in parts]), norm_type)
    if error_if_nonfinite and not bool(_ug.isfinite(total).item()):
        raise RuntimeError(f"For clip_by_norm, the total norm of order {norm_type} from input "
                           f"is non-finite.")
    scale = max_norm / (total.item() + 1e-6)
    if scale >= 1:
        return x
    clipped = [_ug.mul(part, scale) for part in parts]
    return clipped[0] if isinstance(x, _UgTensor) else type(x)(clipped)


def _population_count(input_x):
    """The number of set bits of each integer (two's complement), as UInt8."""
    bits = 8 * input_x.dtype.itemsize
    count = _ug.zeros(tuple(input_x.shape), dtype=to_ms_dtype("int32"))
    for bit in range(bits):
        count = _ug.add(count, _ug.cast(_ug.bitwise_and(
            _ug.bitwise_right_shift(input_x, bit), 1), to_ms_dtype("int32")))
    return _ug.cast(count, to_ms_dtype("uint8"))


def _argmin(input, axis, keepdims: bool):
    index = _ug.argmin(input, dim=axis, keepdim=keepdims) if axis is not None \
        else _ug.argmin(input)
    return _ug.cast(index, _int32)


def _std_or_var(reduce: Callable) -> Callable:
    def reduced(input, axis, ddof, keepdims: bool):
        return reduce(input, dim=_axes(axis), correction=ddof, keepdim=keepdims)
    return reduced


def _count_nonzero(x, axis, keep_dims: bool, dtype):
    nonzero = _ug.cast(_ug.ne(x, 0), to_ms_dtype("int64"))
    return _ug.cast(_ug.sum(nonzero, dim=_axes(axis), keepdim=keep_dims), to_ms_dtype(dtype))


def _cumsum(x, axis, dtype):
    summed = _ug.cumsum(x, _int(axis, "cumsum", "axis"))
    return _ug.cast(summed, x.dtype if dtype is None else to_ms_dtype(dtype))


def _nan_reduce(reduce: Callable) -> Callable:
    """``nansum``/``nanmean``: an integer input keeps its dtype unless ``dtype``."""
    def reduced(input, axis, keepdims: bool, dtype):
        if dtype is None and not input.dtype.is_floating_point and not input.dtype.is_complex:
            dtype = input.dtype
        reduced = reduce(input, dim=_axes(axis), keepdim=keepdims,
                         dtype=None if dtype is None else to_ms_dtype(dtype))
        return reduced if dtype is None else _ug.cast(reduced, to_ms_dtype(dtype))
    return reduced


def _truncate_div(x, y):
    """x / y rounded towards zero; integer operands give integers."""
    if _ug.floor_divide(x, y).dtype.is_floating_point:
        return _ug.div(x, y, rounding_mode="trunc")
    return _ug.floor_divide(_ug.sub(x, _ug.fmod(x, y)), y)










def _nanmedian(input, axis: int, keepdims: bool):
    values, indices = _ug.nanmedian(input, dim=axis, keepdim=keepdims)
    return values, _ug.cast(indices, _INT64)


def _bucketize(input, boundaries, right: bool):
    edges = _tensor(list(boundaries), "bucketize", "boundaries")
    return _ug.bucketize(input, _ug.cast(edges, input.dtype), out_int32=True, right=right)










def _addn(x):
    terms = _tensors(x, "addn", "x")
    total = terms[0]
    for term in terms[1:]:
        total = _ug.add(total, term)
    return total


def _approximate_equal(x, y, tolerance: float):
    return _ug.lt(_ug.abs(_ug.sub(x, y)), tolerance)


def _polygamma(n, input):
    order = n.item() if isinstance(n, _UgTensor) else n
    return _ug.polygamma(_int(order, "polygamma", "n"), input)














def _extreme(reduce: Callable, bound: Callable, owner: str) -> Callable:
    """``ops.max``/``ops.min``: (values, Int64 indices) along ``axis`` of input with
    ``initial`` as a bound and the places where ``where`` is false read as ``initial``; with
    ``axis=None``, (the extreme of all elements, index 0) as MindSpore returns."""
    def extreme(input, axis, keepdims: bool, initial, where):
        if not input.ndim or axis is None:
            whole = input if not input.ndim else reduce(input)
            return whole, _ug.zeros((), dtype=_INT64)
        if initial is not None and (isinstance(initial, bool)
                                    or not isinstance(initial, (int, float))):
            raise TypeError(f"For '{owner}', 'initial' must be a scalar, but got "
                            f"{type(initial)}")
        if where is not None:
            if initial is None:
                raise ValueError("initial value must be provided for where masks")
            input = _ug.where(_tensor(where, owner, "where"), input, initial)
        if initial is not None:
            input = bound(input, _ug.full_like(input, initial))
        values, indices = reduce(input, _int(axis, owner, "axis"), keepdim=keepdims)
        return values, _ug.cast(indices, _INT64)
    return extreme


_MAX = _extreme(_ug.max, _ug.maximum, "max")
_MIN = _extreme(_ug.min, _ug.minimum, "min")


def _unique_consecutive(input, return_inverse: bool, return_counts: bool, dim):
    output, inverse, counts = _ug.unique_consecutive(input, True, True, dim)
    extras = [part for part, wanted in ((inverse, return_inverse), (counts, return_counts))
              if wanted]
    return (output, *extras) if extras else output


def _segment_reduce(reduce: str, owner: str) -> Callable:
    """``unsorted_segment_{sum,prod,max,min}``: the rows of x (segment_ids shape a prefix of
    x's) combined per segment id; ids outside [0, num_segments) are dropped, and an empty
    segment holds the reduction's identity (the dtype's lowest value for max...)."""
    def reduced(x, segment_ids, num_segments: int):
        count = _int(num_segments, owner, "num_segments")
        ids = _ug.reshape(segment_ids, (-1,))
        rows = _ug.reshape(x, (ids.shape[0],) + tuple(x.shape[segment_ids.ndim:]))
        kept = _ug.logical_and(_ug.ge(ids, 0), _ug.lt(ids, count))
        ids, rows = ids[kept], rows[kept]
        base = _ug.full((count,) + tuple(rows.shape[1:]), _identity(reduce, x.dtype),
                        dtype=x.dtype)
        index = _ug.expand(_ug.reshape(_ug.cast(ids, _INT64), (-1,) + (1,) * (rows.ndim - 1)),
                           *rows.shape)
        return _ug.scatter_reduce(base, 0, index, rows, reduce)
    return reduced


def _identity(reduce: str, dtype):
    if reduce in ("sum", "prod"):
        return 0 if reduce == "sum" else 1
    limits = _finfo(dtype) if dtype.is_floating_point else _iinfo(dtype)
    return limits.min if reduce == "amax" else limits.max


def _in_top_k(x1, x2, k: int):
    target = _ug.gather(x1, 1, _ug.unsqueeze(_ug.cast(x2, _INT64), 1))
    larger = _ug.sum(_ug.cast(_ug.gt(x1, target), _INT64), dim=1)
    return _ug.lt(larger, _int(k, "intopk", "k"))








# ------------------------------------------------------------------ the table

_ROWS = (
    # elementwise, and spellings of elementwise ops
    ("absolute", lambda input: _ug.abs(input), "|input|"),
    ("negative", lambda input: _ug.neg(input), "-input"),
    ("positive", lambda input: _ug.positive(input), "input itself"),
    ("inv", lambda x: _ug.reciprocal(x), "1 / x"),
    ("tan", lambda input: _ug.tan(input), "the tangent"),
    ("ceil", lambda input: _ug.ceil(input), "input rounded up"),
    ("trunc", lambda input: _ug.trunc(input), "input rounded towards zero"),
    ("round", lambda input, *, decimals=0: _ug.round(input, decimals=decimals),
     "input rounded half to even to ``decimals`` places"),
    ("expm1", lambda input: _ug.expm1(input), "exp(input) - 1"),
    ("log1p", lambda input: _ug.log1p(input), "log(1 + input)"),
    ("i0", lambda input: _ug.i0(input), "the modified Bessel function of order 0"),
    ("isinf", lambda input: _ug.isinf(input), "a bool mask of infinities"),
    ("isnan", lambda input: _ug.isnan(input), "a bool mask of NaNs"),
    ("isnan_ext", lambda tensor: _ug.isnan(tensor), "a bool mask of NaNs"),
    ("population_count", lambda input_x: _population_count(input_x),
     "the number of set bits of each integer, as UInt8"),
    ("logit", lambda input, eps=None: _ug.logit(input, eps=eps),
     "log(p / (1 - p)), p clipped to [eps, 1 - eps] when eps is given"),
    ("atan2", lambda input, other: _ug.atan2(input, other), "atan(input / other), by quadrant"),
    ("arctan2", lambda input, other: _ug.atan2(input, other), "atan(input / other), by quadrant"),
    ("hypot", lambda input, other: _ug.hypot(input, other), "sqrt(input ** 2 + other ** 2)"),
    ("copysign", lambda x, other: _ug.copysign(x, other), "|x| with the sign of other"),
    ("heaviside", lambda input, values: _ug.heaviside(input, values),
     "0 below 0, values at 0, 1 above 0"),
    ("fmax", lambda input, other: _ug.fmax(input, other), "the maximum, ignoring NaNs"),
    ("fmin", lambda input, other: _ug.fmin(input, other), "the minimum, ignoring NaNs"),
    ("fmod", lambda input, other: _ug.fmod(input, other), "input mod other, the sign of input"),
    ("remainder", lambda input, other: _ug.remainder(input, other),
     "input mod other, the sign of other"),
    ("floor_mod", lambda x, y: _ug.remainder(x, y), "x mod y, the sign of y"),
    ("truncate_mod", lambda x, y: _ug.fmod(x, y), "x mod y, the sign of x"),
    ("floor_divide", lambda input, other: _ug.floor_divide(input, other),
     "input / other rounded down"),
    ("floor_div", lambda x, y: _ug.floor_divide(x, y), "x / y rounded down"),
    ("truncate_div", lambda x, y: _truncate_div(x, y),
     "x / y rounded towards zero"),
    ("divide", lambda input, other, *, rounding_mode=None:
        _ug.div(input, other, rounding_mode=rounding_mode),
     "input / other, optionally rounded ('trunc' or 'floor')"),
    ("true_divide", lambda dividend, divisor: _ug.div(dividend, divisor), "dividend / divisor"),
    ("multiply", lambda input, other: _ug.mul(input, other), "input * other"),
    ("tensor_muls", lambda input, other: _ug.mul(input, other), "input * other"),
    ("subtract", lambda input, other, *, alpha=1: _ug.sub(input, _ug.mul(other, alpha)),
     "input - alpha * other"),
    ("xdivy", lambda x, y: _xdivy(x, y), "x / y, 0 where x is 0"),
    ("float_power", lambda input, exponent: _ug.float_power(input, exponent),
     "input ** exponent in double precision"),
    ("float_power_ext", lambda input, exponent: _ug.float_power(input, exponent),
     "input ** exponent in double precision"),
    ("logaddexp", lambda input, other: _ug.logaddexp(input, other),
     "log(exp(input) + exp(other))"),
    ("logaddexp2", lambda input, other: _ug.logaddexp2(input, other),
     "log2(2 ** input + 2 ** other)"),
    ("lerp", lambda input, end, weight: _ug.lerp(input, end, weight),
     "input + weight * (end - input)"),
    ("addcdiv", lambda input, tensor1, tensor2, value=1:
        _ug.add(input, _ug.mul(value, _ug.div(tensor1, tensor2))),
     "input + value * tensor1 / tensor2"),
    ("addcmul", lambda input, tensor1, tensor2, value=1:
        _ug.add(input, _ug.mul(value, _ug.mul(tensor1, tensor2))),
     "input + value * tensor1 * tensor2"),
    ("addn", lambda x: _addn(x), "the sum of the tensors in x", frozenset({"x"})),
    ("accumulate_n", lambda x: _addn(x), "the sum of the tensors in x", frozenset({"x"})),
    ("mvlgamma", lambda input, p: _ug.mvlgamma(input, p),
     "the multivariate log-gamma function of dimension p"),
    ("polygamma", lambda n, input: _polygamma(n, input),
     "the n-th derivative of the digamma function"),
    # comparisons and logic
    ("eq", lambda input, other: _ug.eq(input, other), "input == other"),
    ("equal", lambda input, other: _ug.eq(input, other), "input == other"),
    ("ne", lambda input, other: _ug.ne(input, other), "input != other"),
    ("not_equal", lambda input, other: _ug.ne(input, other), "input != other"),
    ("gt", lambda input, other: _ug.gt(input, other), "input > other"),
    ("greater", lambda input, other: _ug.gt(input, other), "input > other"),
    ("tensor_gt", lambda input, other: _ug.gt(input, other), "input > other"),
    ("ge", lambda input, other: _ug.ge(input, other), "input >= other"),
    ("greater_equal", lambda input, other: _ug.ge(input, other), "input >= other"),
    ("lt", lambda input, other: _ug.lt(input, other), "input < other"),
    ("less", lambda input, other: _ug.lt(input, other), "input < other"),
    ("tensor_lt", lambda input, other: _ug.lt(input, other), "input < other"),
    ("le", lambda input, other: _ug.le(input, other), "input <= other"),
    ("less_equal", lambda input, other: _ug.le(input, other), "input <= other"),
    ("logical_and", lambda input, other: _ug.logical_and(input, other), "input and other"),
    ("logical_or", lambda input, other: _ug.logical_or(input, other), "input or other"),
    ("logical_xor", lambda input, other: _ug.logical_xor(input, other), "input xor other"),
    ("logical_not", lambda input: _ug.logical_not(input), "not input"),
    ("isclose", lambda input, other, rtol=1e-05, atol=1e-08, equal_nan=False:
        _ug.isclose(input, other, rtol=rtol, atol=atol, equal_nan=equal_nan),
     "|input - other| <= atol + rtol * |other|"),
    ("approximate_equal", lambda x, y, tolerance=1e-05: _approximate_equal(x, y, tolerance),
     "|x - y| < tolerance"),
    # reductions and scans
    ("argmin", lambda input, axis=None, keepdims=False: _argmin(input, axis, keepdims),
     "the Int32 index of the smallest value (along axis)"),
    ("aminmax", lambda input, *, axis=0, keepdims=False:
        _as_tuple(_ug.aminmax(input, dim=axis, keepdim=keepdims)),
     "(minimum, maximum) along axis"),
    ("logsumexp", lambda input, dim, keepdim=False:
        _ug.logsumexp(input, dim=_axes(dim), keepdim=keepdim),
     "log(sum(exp(input))) along dim"),
    ("std", lambda input, axis=None, ddof=0, keepdims=False:
        _std_or_var(_ug.std)(input, axis, ddof, keepdims),
     "the standard deviation (divisor N - ddof)"),
    ("var", lambda input, axis=None, ddof=0, keepdims=False:
        _std_or_var(_ug.var)(input, axis, ddof, keepdims),
     "the variance (divisor N - ddof)"),
    ("std_mean", lambda input, axis=None, ddof=0, keepdims=False:
        _as_tuple(_std_or_var(_ug.std_mean)(input, axis, ddof, keepdims)),
     "(standard deviation, mean)"),
    ("var_mean", lambda input, axis=None, ddof=0, keepdims=False:
        _as_tuple(_std_or_var(_ug.var_mean)(input, axis, ddof, keepdims)),
     "(variance, mean)"),
    ("nansum", lambda input, axis=None, keepdims=False, *, dtype=None:
        _nan_reduce(_ug.nansum)(input, axis, keepdims, dtype),
     "the sum, NaNs counted as zero"),
    ("nanmean", lambda input, axis=None, keepdims=False, *, dtype=None:
        _nan_reduce(_ug.nanmean)(input, axis, keepdims, dtype),
     "the mean of the values that are not NaN"),
    ("nanmedian", lambda input, axis=-1, keepdims=False: _nanmedian(input, axis, keepdims),
     "(median ignoring NaNs, its Int64 index) along axis"),
    ("count_nonzero", lambda x, axis=(), keep_dims=False, dtype=to_ms_dtype("int32"):
        _count_nonzero(x, axis, keep_dims, dtype),
     "the number of non-zero elements (along axis)"),
    ("cumsum", lambda x, axis, dtype=None: _cumsum(x, axis, dtype),
     "running sums along axis (x's dtype unless dtype)"),
    ("cumprod", lambda input, dim, dtype=None:
        _ug.cumprod(input, dim, dtype=None if dtype is None else to_ms_dtype(dtype)),
     "running products along dim"),
    ("cummax", lambda input, axis: _running_extreme(_ug.cummax, _INT64, "cummax")(input, axis),
     "(running maximum, Int64 index of it) along axis"),
    ("cummin", lambda input, axis: _running_extreme(_ug.cummin, _int32, "cummin")(input, axis),
     "(running minimum, Int32 index of it) along axis"),
    ("logcumsumexp", lambda input, axis: _ug.logcumsumexp(input, axis),
     "log of the running sums of exp(input) along axis"),
    ("diff", lambda x, n=1, axis=-1, prepend=None, append=None:
        _ug.diff(x, n, axis, prepend=prepend, append=append),
     "the n-th forward difference along axis"),
    ("diff_ext", lambda input, n=1, dim=-1, prepend=None, append=None:
        _ug.diff(input, n, dim, prepend=prepend, append=append),
     "the n-th forward difference along dim"),
    ("clip_by_norm", lambda x, max_norm, norm_type=2.0, error_if_nonfinite=False:
        _clip_by_norm(x, max_norm, norm_type, error_if_nonfinite),
     "x scaled down to a total norm_type-norm of at most max_norm", frozenset({"x"})),
    ("msort", lambda input: _ug.msort(input), "input sorted along its first axis"),
    ("histc", lambda input, bins=100, min=0.0, max=0.0: _ug.histc(input, bins, min, max),
     "the histogram of input in bins equal bins (min = max: the data's range)"),
    ("bucketize", lambda input, boundaries, *, right=False:
        _bucketize(input, boundaries, right),
     "the Int32 index of the bucket of each value"),
    ("top_k", lambda input_x, k, sorted=True: _top_k(input_x, k, sorted),
     "(values, Int32 indices) of the k largest along the last axis"),
    ("max", lambda input, axis=None, keepdims=False, *, initial=None, where=None:
        _MAX(input, axis, keepdims, initial, where),
     "(maximum, its Int64 index) along axis, initial a lower bound, where a mask"),
    ("min", lambda input, axis=None, keepdims=False, *, initial=None, where=None:
        _MIN(input, axis, keepdims, initial, where),
     "(minimum, its Int64 index) along axis, initial an upper bound, where a mask"),
    ("unique_consecutive", lambda input, return_inverse=False, return_counts=False, dim=None:
        _unique_consecutive(input, return_inverse, return_counts, dim),
     "input with consecutive repeats collapsed (and the inverse indices, counts)"),
    ("unsorted_segment_sum", lambda input_x, segment_ids, num_segments:
        _segment_reduce("sum", "unsorted_segment_sum")(input_x, segment_ids, num_segments),
     "the sums of the rows of input_x per segment id"),
    ("unsorted_segment_prod", lambda x, segment_ids, num_segments:
        _segment_reduce("prod", "unsorted_segment_prod")(x, segment_ids, num_segments),
     "the products of the rows of x per segment id"),
    ("unsorted_segment_max", lambda x, segment_ids, num_segments:
        _segment_reduce("amax", "unsorted_segment_max")(x, segment_ids, num_segments),
     "the maxima of the rows of x per segment id"),
    ("unsorted_segment_min", lambda x, segment_ids, num_segments:
        _segment_reduce("amin", "unsorted_segment_min")(x, segment_ids, num_segments),
     "the minima of the rows of x per segment id"),
    ("intopk", lambda x1, x2, k: _in_top_k(x1, x2, k),
     "whether each row's x2-th value is among its k largest"),
)

# ``max`` and ``min`` stay out of ``ops`` until ops.py's own helpers stop calling the
# builtins by their bare names (``squeeze`` calls ``max(x.ndim, 1)``)
__all__ = _publish(_ROWS, globals(), __name__)
