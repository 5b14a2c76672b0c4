"""MindSpore cases: operator classes (see mindspore_cases.py for the conventions).

Each case loops over several classes (``ops.Tan()(x)``, ``ops.Argmax(axis=0)(x)``...)
and returns ``{class name: result}``: values, dtypes, reprs and ``ms.grad`` of a sum.
"""

from __future__ import annotations

import inspect

import numpy as np

from . import case

# inputs inside every unary op's domain (Acosh gets 1 + these)
_UNIT = np.array([[0.1, 0.35, 0.6], [0.85, 0.2, 0.45]], np.float32)
_SIGNED = np.array([[-1.5, 0.5, 2.0], [3.0, -2.0, 0.25]], np.float32)
_OTHER = np.array([[2.0, -0.75, 1.5], [-1.25, 3.0, 0.5]], np.float32)

_UNIT_OPS = ("Tan", "Asin", "Atan", "Sinh", "Cosh", "Asinh", "Atanh", "Log1p", "Expm1",
             "Erfc", "Erfinv", "Logit", "Softplus", "Softsign", "Mish", "SeLU")
_SIGNED_OPS = ("Round", "Ceil", "HSwish", "HSigmoid", "GeLU", "FastGeLU", "ReLU6", "Elu")
_FLOAT_BINARY = ("Atan2", "FloorDiv", "FloorMod", "Mod", "SquaredDifference", "Xdivy")


def _unary_inputs(ms, name: str):
    if name == "Acosh":
        return ms.Tensor(_UNIT + 1.0)
    return ms.Tensor(_UNIT if name in _UNIT_OPS else _SIGNED * 2.0 + 0.125)


def _grad_of_sum(ms, primitive, *inputs):
    grads = ms.grad(lambda *args: primitive(*args).sum(), grad_position=0)(*inputs)
    return grads.asnumpy()


@case(rtol=1e-5, atol=1e-6)
def case_primitives_unary_values_and_grads(ms):
    results = {}
    for name in _UNIT_OPS + _SIGNED_OPS + ("Acosh",):
        x = _unary_inputs(ms, name)
        primitive = getattr(ms.ops, name)()
        results[name] = primitive(x).asnumpy()
        if name not in ("Round", "Ceil"):
            results[name + " grad"] = _grad_of_sum(ms, primitive, x)
    return results


@case
def case_primitives_unary_masks_and_trace(ms):
    x = ms.Tensor(np.array([[1.0, np.nan, -np.inf], [0.5, np.inf, 2.0], [3.0, 4.0, 5.0]],
                           np.float32))
    flags = ms.Tensor(np.array([True, False, True]))
    return {"IsNan": ms.ops.IsNan()(x).asnumpy(), "IsInf": ms.ops.IsInf()(x).asnumpy(),
            "LogicalNot": ms.ops.LogicalNot()(flags).asnumpy(),
            "Trace": ms.ops.Trace()(ms.Tensor(_SIGNED[:, :2])).asnumpy()}


@case(rtol=1e-5, atol=1e-6)
def case_primitives_binary_values_and_grads(ms):
    x, y = ms.Tensor(_SIGNED), ms.Tensor(_OTHER)
    results = {}
    for name in _FLOAT_BINARY:
        primitive = getattr(ms.ops, name)()
        results[name] = primitive(x, y).asnumpy()
    for name in ("Atan2", "SquaredDifference", "Xdivy"):
        results[name + " grad"] = _grad_of_sum(ms, getattr(ms.ops, name)(), x, y)
    positive = ms.Tensor(np.abs(_OTHER))
    results["Xlogy"] = ms.ops.Xlogy()(x, positive).asnumpy()
    weight = ms.Tensor(np.float32(0.25))
    results["Lerp"] = ms.ops.Lerp()(x, y, weight).asnumpy()
    return results


@case
def case_primitives_logical_and_bitwise(ms):
    p = ms.Tensor(np.array([True, True, False, False]))
    q = ms.Tensor(np.array([True, False, True, False]))
    a = ms.Tensor(np.array([12, 10, 7, 0], np.int32))
    b = ms.Tensor(np.array([10, 6, 1, 5], np.int32))
    return {"LogicalAnd": ms.ops.LogicalAnd()(p, q).asnumpy(),
            "LogicalOr": ms.ops.LogicalOr()(p, q).asnumpy(),
            "BitwiseAnd": ms.ops.BitwiseAnd()(a, b).asnumpy(),
            "BitwiseOr": ms.ops.BitwiseOr()(a, b).asnumpy(),
            "BitwiseXor": ms.ops.BitwiseXor()(a, b).asnumpy()}


@case
def case_primitives_reprs(ms):
    ops = ms.ops
    return [repr(primitive) for primitive in (
        ops.Tan(), ops.Atan2(), ops.Elu(), ops.Logit(), ops.Logit(eps=0.25), ops.Argmax(),
        ops.Argmin(axis=0, output_type=ms.int64), ops.ArgMaxWithValue(),
        ops.ArgMinWithValue(axis=1, keep_dims=True), ops.ReduceAll(), ops.ReduceAny(True),
        ops.CumSum(), ops.CumProd(True, True), ops.OneHot(), ops.OneHot(axis=0),
        ops.GatherD(), ops.Split(1, 3), ops.Unstack(), ops.Flatten(), ops.Size(), ops.Rank(),
        ops.Sort(), ops.Sort(0, True), ops.TopK(), ops.TopK(sorted=False))]


@case
def case_primitives_index_values(ms):
    x = ms.Tensor(_SIGNED)
    results = {}
    for name, primitive in (("Argmax", ms.ops.Argmax()), ("Argmin", ms.ops.Argmin(axis=0)),
                            ("Argmax int64", ms.ops.Argmax(0, ms.int64))):
        results[name] = primitive(x).asnumpy()
    for name, primitive in (("ArgMaxWithValue", ms.ops.ArgMaxWithValue()),
                            ("ArgMinWithValue", ms.ops.ArgMinWithValue(1, True))):
        results[name] = [part.asnumpy() for part in primitive(x)]
    for name, primitive in (("Sort", ms.ops.Sort()), ("Sort descending", ms.ops.Sort(0, True))):
        results[name] = [part.asnumpy() for part in primitive(x)]
    results["TopK"] = [part.asnumpy() for part in ms.ops.TopK()(x, 2)]
    return results


@case(rtol=1e-5, atol=1e-6)
def case_primitives_value_grads(ms):
    x = ms.Tensor(_SIGNED)
    return {"ArgMaxWithValue": _grad_of_sum(ms, lambda t: ms.ops.ArgMaxWithValue(1)(t)[1], x),
            "Sort": _grad_of_sum(ms, lambda t: ms.ops.Sort()(t)[0] * ms.Tensor(_OTHER), x),
            "TopK": _grad_of_sum(ms, lambda t: ms.ops.TopK()(t, 2)[0], x)}


@case(rtol=1e-5, atol=1e-6)
def case_primitives_cumulative(ms):
    x = ms.Tensor(_SIGNED)
    results = {}
    for name in ("CumSum", "CumProd"):
        for exclusive in (False, True):
            for reverse in (False, True):
                primitive = getattr(ms.ops, name)(exclusive, reverse)
                key = f"{name} exclusive={exclusive} reverse={reverse}"
                results[key] = primitive(x, 1).asnumpy()
                results[key + " grad"] = _grad_of_sum(ms, lambda t, p=primitive: p(t, 1), x)
    return results


@case
def case_primitives_reduce_logical(ms):
    mask = ms.Tensor(_SIGNED > 0)
    return {"ReduceAll": ms.ops.ReduceAll()(mask).asnumpy(),
            "ReduceAll axis": ms.ops.ReduceAll(True)(mask, 1).asnumpy(),
            "ReduceAny": ms.ops.ReduceAny()(mask, 0).asnumpy(),
            "ReduceAny axes": ms.ops.ReduceAny(True)(mask, (0, 1)).asnumpy()}


@case
def case_primitives_layout(ms):
    x = ms.Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    indices = ms.Tensor(np.array([0, 2, 1], np.int32))
    on, off = ms.Tensor(np.float32(5.0)), ms.Tensor(np.float32(-1.0))
    index = ms.Tensor(np.array([[1, 0], [1, 1]], np.int64))
    return {"Split": [part.asnumpy() for part in ms.ops.Split(2, 2)(x)],
            "Unstack": [part.asnumpy() for part in ms.ops.Unstack(1)(x)],
            "Flatten": ms.ops.Flatten()(x).asnumpy(),
            "Size": ms.ops.Size()(x), "Rank": ms.ops.Rank()(x),
            "OneHot": ms.ops.OneHot()(indices, 3, on, off).asnumpy(),
            "OneHot axis 0": ms.ops.OneHot(0)(indices, 4, on, off).asnumpy(),
            "GatherD": ms.ops.GatherD()(ms.Tensor(_SIGNED[:, :2]), 1, index).asnumpy()}


@case
def case_primitives_split_not_divisible(ms):
    return [part.asnumpy() for part in ms.ops.Split(0, 4)(ms.Tensor(_SIGNED))]


@case
def case_primitives_elu_alpha_not_one(ms):
    return ms.ops.Elu(alpha=2.0)(ms.Tensor(_SIGNED)).asnumpy()


@case
def case_primitives_signatures(ms):
    names = ("Tan", "Atan2", "Elu", "Logit", "Argmax", "ArgMinWithValue", "ReduceAny", "CumProd",
             "OneHot", "GatherD", "Split", "Unstack", "Size", "Sort", "TopK", "Gather", "Pad",
             "L2Normalize", "Meshgrid", "BiasAdd", "Eye", "Addcmul")
    return {name: [(parameter.name, str(parameter.default))
                   for parameter in inspect.signature(getattr(ms.ops, name)).parameters.values()]
            for name in names}


@case(rtol=1e-5, atol=1e-6)
def case_primitives_gather_and_normalize(ms):
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) - 5.0)
    indices = ms.Tensor(np.array([[2, 0], [1, 1]], np.int32))
    batched = ms.Tensor(np.array([[1, 0], [2, 2], [3, 0]], np.int32))
    pairs = ms.Tensor(np.array([[0, 1], [2, 3]], np.int32))
    results = {"Gather": ms.ops.Gather()(x, indices, 1).asnumpy(),
               "Gather axis 0": ms.ops.Gather()(x, ms.Tensor(np.array([2, 0], np.int32)),
                                                0).asnumpy(),
               "Gather batch_dims": ms.ops.Gather(1)(x, batched, 1).asnumpy(),
               "GatherNd": ms.ops.GatherNd()(x, pairs).asnumpy(),
               "L2Normalize": ms.ops.L2Normalize(axis=1)(x).asnumpy(),
               "L2Normalize eps": ms.ops.L2Normalize(0, 100.0)(x).asnumpy()}
    for name, primitive in (("Gather grad", lambda t: ms.ops.Gather()(t, indices, 1)),
                            ("GatherNd grad", lambda t: ms.ops.GatherNd()(t, pairs)),
                            ("L2Normalize grad",
                             lambda t: ms.ops.L2Normalize(1)(t) * ms.Tensor(np.float32(2.0)))):
        results[name] = _grad_of_sum(ms, primitive, x)
    return results


@case(rtol=1e-5, atol=1e-6)
def case_primitives_safe_arithmetic(ms):
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    y = ms.Tensor(np.array([0.0, 1.0, 2.0, 0.0], np.float32))
    value = ms.Tensor(np.float32(0.5))
    return {"DivNoNan": ms.ops.DivNoNan()(x, y).asnumpy(),
            "MulNoNan": ms.ops.MulNoNan()(x, y).asnumpy(),
            "Addcmul": ms.ops.Addcmul()(x, x, y, value).asnumpy(),
            "DivNoNan grad": _grad_of_sum(ms, ms.ops.DivNoNan(), x, y),
            "Addcmul grad": _grad_of_sum(ms, lambda t: ms.ops.Addcmul()(t, t, y, value), x)}


@case
def case_primitives_creation_and_layout(ms):
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    image = ms.Tensor(np.ones((2, 3, 2), np.float32))
    bias = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    return {"ScatterNd": ms.ops.ScatterNd()(ms.Tensor(np.array([[1], [3]], np.int32)),
                                            ms.Tensor(np.array([5.0, 6.0], np.float32)),
                                            (5,)).asnumpy(),
            "Meshgrid": [grid.asnumpy() for grid in ms.ops.Meshgrid()(
                (ms.Tensor(np.array([1, 2], np.int32)), ms.Tensor(np.array([3, 4, 5], np.int32))))],
            "Meshgrid ij": [grid.asnumpy() for grid in ms.ops.Meshgrid("ij")(
                (ms.Tensor(np.array([1.0, 2.0], np.float32)),
                 ms.Tensor(np.array([3.0, 4.0, 5.0], np.float32))))],
            "Pad": ms.ops.Pad(((1, 0), (0, 2)))(x).asnumpy(),
            "BiasAdd": ms.ops.BiasAdd()(image, bias).asnumpy(),
            "BiasAdd NHWC": ms.ops.BiasAdd("NHWC")(ms.Tensor(np.ones((2, 3), np.float32)),
                                                   bias).asnumpy(),
            "Eye": ms.ops.Eye()(2, 3, ms.int32).asnumpy(),
            "Eye float": ms.ops.Eye()(3, 2, ms.float32).asnumpy(),
            "LinSpace": ms.ops.LinSpace()(ms.Tensor(np.float32(0.0)), ms.Tensor(np.float32(1.0)),
                                          5).asnumpy(),
            "reprs": [repr(p) for p in (ms.ops.Gather(), ms.ops.GatherNd(), ms.ops.L2Normalize(),
                                        ms.ops.L2Normalize(-1, 1e-12), ms.ops.Meshgrid(),
                                        ms.ops.Meshgrid("ij"), ms.ops.Pad(((1, 0), (0, 2))),
                                        ms.ops.BiasAdd(), ms.ops.BiasAdd("NHWC"), ms.ops.Eye(),
                                        ms.ops.LinSpace(), ms.ops.DivNoNan(), ms.ops.Addcmul())]}


@case
def case_primitives_flatten_scalar(ms):
    return ms.ops.Flatten()(ms.Tensor(np.float32(2.0))).asnumpy()


@case(same_message=True)
def case_primitives_pad_needs_paddings(ms):
    return repr(ms.ops.Pad())


@case
def case_primitives_tensor_scatter_update_and_range(ms):
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    indices = ms.Tensor(np.array([[0, 0], [2, 1]], np.int32))
    updates = ms.Tensor(np.array([-1.0, -2.0], np.float32))
    update = ms.ops.TensorScatterUpdate()
    rows = update(x, ms.Tensor(np.array([[1]], np.int32)),
                  ms.Tensor(np.array([[-1.0, -2.0, -3.0, -4.0]], np.float32)))
    updates_grad = ms.grad(lambda u: (update(x, indices, u) * x).sum())(updates)
    return {"elements": update(x, indices, updates).asnumpy(), "rows": rows.asnumpy(),
            "updates grad": updates_grad.asnumpy(),
            "Range": ms.ops.Range()(ms.Tensor(1), ms.Tensor(7), ms.Tensor(2)).asnumpy(),
            "Range float": ms.ops.Range()(ms.Tensor(np.float32(1.0)), ms.Tensor(np.float32(3.0)),
                                          ms.Tensor(np.float32(0.5))).asnumpy(),
            "reprs": [repr(update), repr(ms.ops.Range()), repr(ms.ops.Range(10))]}


@case
def case_primitives_unknown_enum_values(ms):
    results = []
    for make in (lambda: ms.ops.BiasAdd("ABC"), lambda: ms.ops.Meshgrid("zz")):
        try:
            make()
        except ValueError as error:
            results.append(str(error).split("\n")[0])
    return results


@case(same_message=True)
def case_primitives_pad_paddings_list(ms):
    return repr(ms.ops.Pad([[1, 0]]))


@case
def case_primitives_l2_normalize_axis_checks(ms):
    results = [repr(ms.ops.L2Normalize([1])), repr(ms.ops.L2Normalize((-1,)))]
    for axis in ((0, 1), 1.5):
        try:
            ms.ops.L2Normalize(axis)
        except TypeError as error:
            results.append(str(error).split(", later")[0])
    return results


_MATRIX = np.array([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0], [2.0, 2.0, 5.0]], np.float32)


@case(rtol=1e-5, atol=1e-6)
def case_primitives_more_unary_and_binary(ms):
    x, y = ms.Tensor(_MATRIX), ms.Tensor(_MATRIX[::-1].copy() + 0.25)
    results = {}
    for name in ("Identity", "Trunc", "Lgamma", "Digamma", "Sinc", "Inv", "L2Loss"):
        results[name] = getattr(ms.ops, name)()(x).asnumpy()
    for name in ("TruncateDiv", "TruncateMod", "Hypot", "IsClose"):
        results[name] = getattr(ms.ops, name)()(x, y).asnumpy()
    results["Heaviside"] = ms.ops.Heaviside()(ms.Tensor(np.array([-1.0, 0.0, 2.0], np.float32)),
                                              ms.Tensor(np.full(3, 0.5, np.float32))).asnumpy()
    results["Invert"] = ms.ops.Invert()(ms.Tensor(np.array([1, -3], np.int32))).asnumpy()
    results["IsClose loose"] = ms.ops.IsClose(rtol=0.5, atol=0.1)(x, y).asnumpy()
    for name in ("Identity", "Lgamma", "Sinc", "Inv", "L2Loss"):
        results[name + " grad"] = _grad_of_sum(ms, getattr(ms.ops, name)(), x)
    results["Hypot grad"] = _grad_of_sum(ms, ms.ops.Hypot(), x, y)
    return results


@case
def case_primitives_triangles_slices_scans(ms):
    x = ms.Tensor(_MATRIX)
    mask = ms.Tensor(_MATRIX > 2)
    results = {"Tril": ms.ops.Tril()(x).asnumpy(), "Tril 1": ms.ops.Tril(1)(x).asnumpy(),
               "Triu -1": ms.ops.Triu(diagonal=-1)(x).asnumpy(),
               "Slice": ms.ops.Slice()(x, (0, 1), (2, -1)).asnumpy(),
               "ReverseV2": ms.ops.ReverseV2((1,))(x).asnumpy(),
               "ReverseV2 both": ms.ops.ReverseV2([0, 1])(x).asnumpy(),
               "MaskedFill": ms.ops.MaskedFill()(x, mask, ms.Tensor(np.float32(9.0))).asnumpy(),
               "MaskedSelect": ms.ops.MaskedSelect()(x, mask).asnumpy(),
               "Cummax": [part.asnumpy() for part in ms.ops.Cummax(axis=0)(x)],
               "Cummin": [part.asnumpy() for part in ms.ops.Cummin(1)(x)],
               "Slice grad": _grad_of_sum(ms, lambda t: ms.ops.Slice()(t, (1, 0), (1, 2)), x)}
    results["reprs"] = [repr(p) for p in (
        ms.ops.Tril(), ms.ops.Triu(2), ms.ops.Slice(), ms.ops.Cummax(0), ms.ops.Cummin(axis=1),
        ms.ops.ReverseV2((0,)), ms.ops.ReverseV2([1]), ms.ops.IsClose(), ms.ops.Identity(),
        ms.ops.MaskedFill(), ms.ops.L2Loss(), ms.ops.Invert())]
    return results
