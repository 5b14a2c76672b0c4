"""MindSpore operator classes that are thin over one function, generated from one table.

Each row of ``_ROWS`` names the class, the function it calls (over unigrad
tensors), the call's inputs and the constructor's attributes (MindSpore's
names and defaults, and the function keyword each one feeds).
``_primitive_class`` turns a row into a subclass of ``ops.Primitive``, so the
instance prints as MindSpore's ``Prim[Name]<attr=value, ...>``.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> x = ms.Tensor([[1.0, 5.0, 2.0], [4.0, 3.0, 6.0]])
    >>> ops.ArgMaxWithValue(axis=1)
    Prim[ArgMaxWithValue]<axis=1, keep_dims=False>
    >>> index, value = ops.ArgMaxWithValue(axis=1)(x)
    >>> print(index, value)
    [1 2] [5. 6.]
    >>> print(ops.CumSum(exclusive=True)(x, 1))
    [[0. 1. 6.]
     [0. 4. 7.]]
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

from ... import ops as _ug
from ...backend import int32 as _int32
from .dtype import to_ms_dtype
from .ops import Primitive, _axes, _int, _operand, _tensors

# MindSpore prints a dtype or an enumerated string attribute as its id
_TYPE_IDS = {"Int32": 34, "Int64": 35}
_INDEXING_IDS = {"ij": 0, "xy": 1}
_FORMAT_IDS = {"NCHW": 0, "NHWC": 1}
# the default of an attribute the constructor requires
_REQUIRED = inspect.Parameter.empty


@dataclass(frozen=True)
class _Attribute:
    """A constructor attribute: MindSpore's name and default, the function keyword it
    feeds (None: the function does not take it) and how ``repr`` shows it."""

    name: str
    default: object
    keyword: str | None = None
    shown: Callable = lambda value: value
    example: object = None  # the value the docstring's example passes, when required


@dataclass(frozen=True)
class _Row:
    """One operator class: ``name``, ``function(*inputs, **attribute keywords)``, the
    call's ``inputs`` (optional ones in ``optional`` with their defaults; names in
    ``plain`` are passed as given, not as tensors) and the constructor's attributes."""

    name: str
    function: Callable
    inputs: tuple
    attributes: tuple = ()
    optional: dict = field(default_factory=dict)
    plain: frozenset = frozenset()
    doc: str = ""


# ------------------------------------------------------------------ the functions


def _squared_difference(x, y):
    return _ug.square(_ug.sub(x, y))


def _xdivy(x, y):
    return _ug.where(_ug.eq(x, 0), _ug.zeros_like(_ug.div(x, y)), _ug.div(x, y))


def _gelu_tanh(x):
    return _ug.gelu(x, approximate="tanh")


def _fast_gelu(x):
    return _ug.mul(x, _ug.sigmoid(_ug.mul(x, 1.702)))


def _elu(x, alpha: float):
    if alpha != 1.0:
        raise ValueError(f"For 'Elu', 'alpha' must be 1.0, but got {alpha}")
    return _ug.elu(x, alpha=alpha)


def _logit(x, eps: float):
    return _ug.logit(x, eps=None if eps < 0 else eps)


def _index_of(reduce: Callable, owner: str) -> Callable:
    def index(x, axis: int, output_type):
        return _ug.cast(reduce(x, dim=_int(axis, owner, "axis")), to_ms_dtype(output_type))
    return index


def _index_and_value(reduce: Callable, owner: str) -> Callable:
    def index_and_value(x, axis: int, keep_dims: bool):
        values, indices = reduce(x, _int(axis, owner, "axis"), keepdim=keep_dims)
        return indices, values
    return index_and_value


def _logical_reduce(reduce: Callable) -> Callable:
    def reduced(x, axis, keep_dims: bool):
        return reduce(_ug.cast(x, to_ms_dtype("bool")), axis=_axes(axis), keepdim=keep_dims)
    return reduced


def _cumulative(accumulate: Callable, identity: Callable, owner: str) -> Callable:
    def cumulative(x, axis, exclusive: bool, reverse: bool):
        axis = _int(axis, owner, "axis")
        if reverse:
            x = _ug.flip(x, (axis,))
        result = accumulate(x, axis)
        if exclusive:
            front = identity(_ug.narrow(x, axis, 0, 1))
            result = _ug.cat([front, _ug.narrow(result, axis, 0, x.shape[axis] - 1)], axis)
        return _ug.flip(result, (axis,)) if reverse else result
    return cumulative


def _one_hot(indices, depth: int, on_value, off_value, axis: int):
    hot = _ug.one_hot(_ug.cast(indices, to_ms_dtype("int64")), _int(depth, "OneHot", "depth"))
    result = _ug.where(_ug.cast(hot, to_ms_dtype("bool")), on_value, off_value)
    return _ug.movedim(result, -1, axis)


def _split(x, axis: int, output_num: int):
    size = x.shape[axis]
    if size % output_num:
        raise ValueError(f"For 'Split', x_shape[{axis}] must be divisible by output_num = "
                         f"{output_num}, but got {size}")
    return tuple(_ug.split(x, size // output_num, dim=axis))


def _unstack(x, axis: int):
    return tuple(_ug.unbind(x, axis))


def _flatten(x):
    if not x.ndim:
        raise RuntimeError("For 'Flatten', the input must have at least 1 dimension, but got "
                           "shape ()")
    return _ug.reshape(x, (x.shape[0], -1))


def _size(x) -> int:
    return int(x.numel())


def _rank(x) -> int:
    return x.ndim


def _sort(x, axis: int, descending: bool):
    values, indices = _ug.sort(x, dim=axis, descending=descending)
    return values, _ug.cast(indices, _int32)


def _top_k(x, k: int, sorted: bool):  # noqa: A002 - MindSpore's name
    values, indices = _ug.topk(x, _int(k, "TopK", "k"), dim=-1, sorted=sorted)
    return values, _ug.cast(indices, _int32)


def _gather_d(x, dim: int, index):
    return _ug.gather(x, _int(dim, "GatherD", "dim"), index)


def _gather(params, indices, axis: int, batch_dims: int):
    axis = _int(axis, "Gather", "axis") % params.ndim
    if batch_dims:
        return _ug.stack([_gather(params[i], indices[i], axis - 1, batch_dims - 1)
                          for i in range(params.shape[0])])
    return params[(slice(None),) * axis + (indices,)]


def _gather_nd(x, indices):
    return x[tuple(indices[..., i] for i in range(indices.shape[-1]))]


def _l2_normalize(x, axis, epsilon: float):
    squares = _ug.sum(_ug.square(x), dim=_axis_list(axis), keepdim=True)
    return _ug.div(x, _ug.sqrt(_ug.clamp(squares, min=epsilon)))


def _axis_list(axis) -> list:
    return list(axis) if isinstance(axis, (tuple, list)) else [axis]


def _div_no_nan(x, y):
    zero = _ug.eq(y, 0)
    return _ug.where(zero, 0.0, _ug.div(x, _ug.where(zero, 1.0, y)))


def _mul_no_nan(x, y):
    return _ug.where(_ug.eq(y, 0), 0.0, _ug.mul(x, y))


def _addcmul(input, tensor1, tensor2, value):  # noqa: A002 - MindSpore's name
    return _ug.add(input, _ug.mul(value, _ug.mul(tensor1, tensor2)))


def _scatter_nd(indices, updates, shape):
    from . import ops
    return ops.scatter_nd(indices, updates, shape)


def _tensor_scatter_update(input_x, indices, updates):
    from . import ops
    written = ops.scatter_nd(indices, _ug.ones_like(updates), input_x.shape)
    return _ug.where(_ug.ne(written, 0), ops.scatter_nd(indices, updates, input_x.shape),
                     input_x)


def _range(start, limit, delta):
    return _ug.arange(start.item(), limit.item(), delta.item(), dtype=start.dtype)


def _slice(x, begin, size):
    return x[tuple(slice(start, None if length == -1 else start + length)
                   for start, length in zip(begin, size))]


def _l2_loss(x):
    return _ug.div(_ug.sum(_ug.square(x)), 2.0)


def _running_extreme(scan: Callable, index_dtype, owner: str) -> Callable:
    def running(x, axis: int):
        values, indices = scan(x, _int(axis, owner, "axis"))
        return values, _ug.cast(indices, index_dtype)
    return running


def _truncate_div(x, y):
    return _ug.trunc(_ug.div(x, y))


def _reverse(x, axis):
    return _ug.flip(x, tuple(axis))


def _meshgrid(inputs, indexing: str):
    return tuple(_ug.meshgrid(*_tensors(inputs, "Meshgrid", "inputs"), indexing=indexing))


def _pad(x, paddings):
    flat = [amount for pair in reversed(paddings) for amount in pair]
    return _ug.pad(x, flat)


def _bias_add(x, bias, data_format: str):
    if data_format == "NHWC":
        return _ug.add(x, bias)
    return _ug.add(x, _ug.reshape(bias, (-1,) + (1,) * (x.ndim - 2)))


def _eye(n: int, m: int, dtype):
    return _ug.eye(_int(n, "Eye", "n"), _int(m, "Eye", "m"), dtype=to_ms_dtype(dtype))


def _lin_space(start, stop, num: int):
    return _ug.linspace(float(start), float(stop), _int(num, "LinSpace", "num"))


# ------------------------------------------------------------------ the table

def _unary(name: str, function: Callable, doc: str) -> _Row:
    return _Row(name, function, ("input",), doc=doc)


def _binary(name: str, function: Callable, doc: str) -> _Row:
    return _Row(name, function, ("x", "y"), doc=doc)


def _type_id(dtype) -> int:
    return _TYPE_IDS[str(to_ms_dtype(dtype))]


def _enum_id(ids: dict, owner: str, name: str) -> Callable:
    def shown(value) -> int:
        if value not in ids:
            raise ValueError(f"Failed to convert the value \"{value}\" of input '{name}' of "
                             f"'{owner}' to enum.")
        return ids[value]
    return shown


def _paddings_shown(paddings) -> tuple:
    if not isinstance(paddings, tuple):
        raise TypeError(f"For 'Pad', the type of 'paddings' should be 'tuple', but got type "
                        f"'{type(paddings).__name__}'.")
    return paddings


def _one_axis_shown(axis) -> list | tuple:
    if isinstance(axis, int) and not isinstance(axis, bool):
        return [axis]
    if not isinstance(axis, (tuple, list)):
        raise TypeError(f"For 'L2Normalize', the type of 'axis' should be one of "
                        f"'['list', 'tuple']', but got type '{type(axis).__name__}'.")
    if len(axis) != 1:
        raise TypeError(f"For 'L2Normalize', the length of 'axis' must be 1, but got "
                        f"{len(axis)}")
    return axis


_AXIS_LAST = _Attribute("axis", -1, "axis")
_OUTPUT_TYPE = _Attribute("output_type", to_ms_dtype("int32"), "output_type", _type_id)
_AXIS_FIRST = _Attribute("axis", 0, "axis")
_KEEP_DIMS = _Attribute("keep_dims", False, "keep_dims")
_EXCLUSIVE = _Attribute("exclusive", False, "exclusive")
_REVERSE = _Attribute("reverse", False, "reverse")

_ROWS = (
    _unary("Tan", _ug.tan, "tangent"),
    _unary("Asin", _ug.asin, "arcsine"),
    _unary("Atan", _ug.atan, "arctangent"),
    _unary("Sinh", _ug.sinh, "hyperbolic sine"),
    _unary("Cosh", _ug.cosh, "hyperbolic cosine"),
    _unary("Asinh", _ug.asinh, "inverse hyperbolic sine"),
    _unary("Acosh", _ug.acosh, "inverse hyperbolic cosine"),
    _unary("Atanh", _ug.atanh, "inverse hyperbolic tangent"),
    _unary("Log1p", _ug.log1p, "log(1 + x)"),
    _unary("Expm1", _ug.expm1, "exp(x) - 1"),
    _unary("Erfc", _ug.erfc, "1 - erf(x)"),
    _unary("Erfinv", _ug.erfinv, "the inverse error function"),
    _unary("Round", _ug.round, "rounded half to even"),
    _unary("Ceil", _ug.ceil, "rounded up"),
    _unary("IsNan", _ug.isnan, "a bool mask of NaNs"),
    _unary("IsInf", _ug.isinf, "a bool mask of infinities"),
    _unary("LogicalNot", _ug.logical_not, "logical not"),
    _unary("Softplus", _ug.softplus, "log(1 + exp(x))"),
    _unary("Softsign", _ug.softsign, "x / (1 + |x|)"),
    _unary("HSwish", _ug.hardswish, "x * relu6(x + 3) / 6"),
    _unary("HSigmoid", _ug.hardsigmoid, "relu6(x + 3) / 6"),
    _unary("GeLU", _gelu_tanh, "GELU, tanh approximation"),
    _unary("FastGeLU", _fast_gelu, "x * sigmoid(1.702 x)"),
    _unary("Mish", _ug.mish, "x * tanh(softplus(x))"),
    _unary("SeLU", _ug.selu, "scaled ELU"),
    _unary("ReLU6", _ug.relu6, "min(max(x, 0), 6)"),
    _unary("Trace", _ug.trace, "the sum of a matrix's diagonal"),
    _unary("Identity", _ug.clone, "a copy of input"),
    _unary("Trunc", _ug.trunc, "rounded towards zero"),
    _unary("Lgamma", _ug.lgamma, "log |gamma(x)|"),
    _unary("Digamma", _ug.digamma, "the derivative of lgamma"),
    _unary("Sinc", _ug.sinc, "sin(pi x) / (pi x)"),
    _unary("Inv", _ug.reciprocal, "1 / x"),
    _unary("Invert", _ug.bitwise_not, "bitwise not"),
    _binary("Atan2", _ug.atan2, "atan(x / y) in the quadrant of (y, x)"),
    _binary("FloorDiv", _ug.floor_divide, "x / y rounded down"),
    _binary("FloorMod", _ug.remainder, "x mod y, the sign of y"),
    _binary("Mod", _ug.fmod, "x mod y, the sign of x"),
    _binary("TruncateDiv", _truncate_div, "x / y rounded towards zero"),
    _binary("TruncateMod", _ug.fmod, "x mod y, the sign of x"),
    _binary("Hypot", _ug.hypot, "sqrt(x ** 2 + y ** 2)"),
    _binary("Heaviside", _ug.heaviside, "0 below 0, y at 0, 1 above 0"),
    _binary("SquaredDifference", _squared_difference, "(x - y) ** 2"),
    _binary("Xdivy", _xdivy, "x / y, 0 where x is 0"),
    _binary("Xlogy", _ug.xlogy, "x * log(y), 0 where x is 0"),
    _binary("LogicalAnd", _ug.logical_and, "logical and"),
    _binary("LogicalOr", _ug.logical_or, "logical or"),
    _binary("BitwiseAnd", _ug.bitwise_and, "bitwise and"),
    _binary("BitwiseOr", _ug.bitwise_or, "bitwise or"),
    _binary("BitwiseXor", _ug.bitwise_xor, "bitwise xor"),
    _Row("Lerp", _ug.lerp, ("input", "end", "weight"),
         doc="input + weight * (end - input)"),
    _Row("Elu", _elu, ("input_x",), (_Attribute("alpha", 1.0, "alpha"),),
         doc="ELU (MindSpore allows only alpha=1.0)"),
    _Row("Logit", _logit, ("input",), (_Attribute("eps", -1.0, "eps"),),
         doc="log(x / (1 - x)), x clipped to [eps, 1 - eps] when eps >= 0"),
    _Row("Argmax", _index_of(_ug.argmax, "Argmax"), ("input_x",), (_AXIS_LAST, _OUTPUT_TYPE),
         doc="the index of the largest value along axis"),
    _Row("Argmin", _index_of(_ug.argmin, "Argmin"), ("x",), (_AXIS_LAST, _OUTPUT_TYPE),
         doc="the index of the smallest value along axis"),
    _Row("ArgMaxWithValue", _index_and_value(_ug.max, "ArgMaxWithValue"), ("input",),
         (_AXIS_FIRST, _KEEP_DIMS),
         doc="(index, value) of the largest value along axis"),
    _Row("ArgMinWithValue", _index_and_value(_ug.min, "ArgMinWithValue"), ("input",),
         (_AXIS_FIRST, _KEEP_DIMS),
         doc="(index, value) of the smallest value along axis"),
    _Row("ReduceAll", _logical_reduce(_ug.all), ("input", "axis"), (_KEEP_DIMS,),
         optional={"axis": ()}, plain=frozenset({"axis"}),
         doc="whether all values along axis are true"),
    _Row("ReduceAny", _logical_reduce(_ug.any), ("x", "axis"), (_KEEP_DIMS,),
         optional={"axis": ()}, plain=frozenset({"axis"}),
         doc="whether any value along axis is true"),
    _Row("CumSum", _cumulative(_ug.cumsum, _ug.zeros_like, "CumSum"), ("input", "axis"),
         (_EXCLUSIVE, _REVERSE), plain=frozenset({"axis"}), doc="running sums along axis"),
    _Row("CumProd", _cumulative(_ug.cumprod, _ug.ones_like, "CumProd"), ("x", "axis"),
         (_EXCLUSIVE, _REVERSE), plain=frozenset({"axis"}), doc="running products along axis"),
    _Row("OneHot", _one_hot, ("indices", "depth", "on_value", "off_value"), (_AXIS_LAST,),
         plain=frozenset({"depth"}), doc="on_value at each index, off_value elsewhere"),
    _Row("GatherD", _gather_d, ("x", "dim", "index"), plain=frozenset({"dim"}),
         doc="the values of x at index along dim"),
    _Row("Split", _split, ("input_x",),
         (_AXIS_FIRST, _Attribute("output_num", 1, "output_num")),
         doc="output_num equal parts along axis"),
    _Row("Unstack", _unstack, ("input_x",), (_AXIS_FIRST, _Attribute("num", None)),
         doc="the slices along axis"),
    _Row("Flatten", _flatten, ("input_x",), doc="(batch, everything else)"),
    _Row("Size", _size, ("input_x",), doc="the number of elements, an int"),
    _Row("Rank", _rank, ("x",), doc="the number of dimensions, an int"),
    _Row("Sort", _sort, ("x",), (_AXIS_LAST, _Attribute("descending", False, "descending")),
         doc="(values, int32 indices) sorted along axis"),
    _Row("Gather", _gather, ("input_params", "input_indices", "axis"),
         (_Attribute("batch_dims", 0, "batch_dims"),), plain=frozenset({"axis"}),
         doc="the slices of input_params at input_indices along axis"),
    _Row("GatherNd", _gather_nd, ("input_x", "indices"),
         doc="the elements or slices of input_x at each index tuple in indices"),
    _Row("L2Normalize", _l2_normalize, ("x",),
         (_Attribute("axis", 0, "axis", _one_axis_shown), _Attribute("epsilon", 1e-4, "epsilon")),
         doc="x / sqrt(max(sum(x ** 2, axis), epsilon))"),
    _Row("DivNoNan", _div_no_nan, ("x1", "x2"), doc="x1 / x2, 0 where x2 is 0"),
    _Row("MulNoNan", _mul_no_nan, ("x", "y"), doc="x * y, 0 where y is 0"),
    _Row("Addcmul", _addcmul, ("input", "tensor1", "tensor2", "value"),
         doc="input + value * tensor1 * tensor2"),
    _Row("ScatterNd", _scatter_nd, ("indices", "updates", "shape"), plain=frozenset({"shape"}),
         doc="zeros of shape with updates added at indices"),
    _Row("TensorScatterUpdate", _tensor_scatter_update, ("input_x", "indices", "updates"),
         doc="input_x with the elements or slices at indices replaced by updates"),
    _Row("Range", _range, ("start", "limit", "delta"), (_Attribute("maxlen", 1000000),),
         doc="start, start + delta, ... below limit, of start's dtype"),
    _Row("Meshgrid", _meshgrid, ("inputs",),
         (_Attribute("indexing", "xy", "indexing",
                     _enum_id(_INDEXING_IDS, "Meshgrid", "indexing")),),
         plain=frozenset({"inputs"}), doc="coordinate grids of the 1-D inputs"),
    _Row("Pad", _pad, ("input_x",),
         (_Attribute("paddings", _REQUIRED, "paddings", _paddings_shown, ((1, 0), (0, 2))),),
         doc="input_x padded with zeros, (before, after) per axis"),
    _Row("BiasAdd", _bias_add, ("input_x", "bias"),
         (_Attribute("data_format", "NCHW", "data_format",
                     _enum_id(_FORMAT_IDS, "BiasAdd", "data_format")),),
         doc="input_x + bias along the channel axis"),
    _Row("Eye", _eye, ("n", "m", "t"), plain=frozenset({"n", "m", "t"}),
         doc="an n x m identity matrix of dtype t"),
    _Row("LinSpace", _lin_space, ("start", "stop", "num"), plain=frozenset({"num"}),
         doc="num evenly spaced values from start to stop"),
    _Row("Tril", _ug.tril, ("input",), (_Attribute("diagonal", 0, "diagonal"),),
         doc="input with the elements above the diagonal-th diagonal zeroed"),
    _Row("Triu", _ug.triu, ("input",), (_Attribute("diagonal", 0, "diagonal"),),
         doc="input with the elements below the diagonal-th diagonal zeroed"),
    _Row("Slice", _slice, ("input", "begin", "size"), plain=frozenset({"begin", "size"}),
         doc="the block of size (-1: to the end) starting at begin"),
    _Row("L2Loss", _l2_loss, ("input",), doc="sum(input ** 2) / 2"),
    _Row("Cummax", _running_extreme(_ug.cummax, to_ms_dtype("int64"), "Cummax"), ("input",),
         (_Attribute("axis", _REQUIRED, "axis", example=0),),
         doc="(running maximum, int64 index of it) along axis"),
    _Row("Cummin", _running_extreme(_ug.cummin, _int32, "Cummin"), ("input",),
         (_Attribute("axis", _REQUIRED, "axis", example=0),),
         doc="(running minimum, int32 index of it) along axis"),
    _Row("ReverseV2", _reverse, ("input",),
         (_Attribute("axis", _REQUIRED, "axis", tuple, example=(0,)),),
         doc="input with the axes in axis reversed"),
    _Row("MaskedFill", _ug.masked_fill, ("input_x", "mask", "value"),
         doc="input_x with value where mask is true"),
    _Row("MaskedSelect", _ug.masked_select, ("input", "mask"),
         doc="the 1-D tensor of input's values where mask is true"),
    _Row("IsClose", _ug.isclose, ("input", "other"),
         (_Attribute("rtol", 1e-05, "rtol"), _Attribute("atol", 1e-08, "atol"),
          _Attribute("equal_nan", False, "equal_nan")),
         doc="|input - other| <= atol + rtol * |other|"),
    _Row("TopK", _top_k, ("input_x", "k"), (_Attribute("sorted", True, "sorted"),),
         plain=frozenset({"k"}), doc="(values, int32 indices) of the k largest, last axis"),
)


# ------------------------------------------------------------------ the factory


def _signature(row: _Row) -> inspect.Signature:
    self_parameter = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return inspect.Signature([self_parameter] + [
        inspect.Parameter(attribute.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                          default=attribute.default) for attribute in row.attributes])


def _primitive_class(row: _Row) -> type:
    """The ``Primitive`` subclass that ``row`` describes."""
    signature = _signature(row)

    def __init__(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        Primitive.__init__(self)
        for attribute in row.attributes:
            value = bound.arguments[attribute.name]
            setattr(self, attribute.name, value)
            self.attrs[attribute.name] = attribute.shown(value)

    def compute(self, *inputs):
        required = [name for name in row.inputs if name not in row.optional]
        if not len(required) <= len(inputs) <= len(row.inputs):
            raise TypeError(f"For '{row.name}', the inputs are ({', '.join(row.inputs)}), but "
                            f"got {len(inputs)} of them")
        values = list(inputs) + [row.optional[name] for name in row.inputs[len(inputs):]]
        arguments = [value if name in row.plain else _operand(value, row.name, name)
                     for name, value in zip(row.inputs, values)]
        keywords = {attribute.keyword: getattr(self, attribute.name)
                    for attribute in row.attributes if attribute.keyword}
        return row.function(*arguments, **keywords)

    __init__.__signature__ = signature
    return type(row.name, (Primitive,), {"__init__": __init__, "compute": compute,
                                         "__doc__": _docstring(row), "__module__": __name__})


def _docstring(row: _Row) -> str:
    """What the class computes, and a doctest of its default ``repr``."""
    required = [a for a in row.attributes if a.default is _REQUIRED]
    values = {a.name: a.example if a in required else a.default for a in row.attributes}
    shown = ", ".join(f"{a.name}={a.shown(values[a.name])}" for a in row.attributes)
    call = ", ".join(repr(a.example) for a in required)
    return (f"``{row.name}{str(_signature(row)).replace('self, ', '').replace('self', '')}"
            f"({', '.join(row.inputs)})``: {row.doc}, as MindSpore's ``ops.{row.name}``."
            f"\n\nExample:\n"
            f"    >>> from unigrad.compat.mindspore import ops\n"
            f"    >>> ops.{row.name}({call})\n"
            f"    Prim[{row.name}]{f'<{shown}>' if shown else ''}\n")


globals().update({row.name: _primitive_class(row) for row in _ROWS})

__all__ = [row.name for row in _ROWS]
