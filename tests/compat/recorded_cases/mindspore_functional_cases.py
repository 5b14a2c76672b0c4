"""MindSpore cases: the ``mindspore.ops`` functions spelled from tables (see
mindspore_cases.py for the conventions).

Each case calls a group of functions and returns ``{name: result}`` (values with
their dtypes; tuples as lists; Python ints and bools as themselves). A call that
raises is recorded, within its group, as its exception's type name.
"""

from __future__ import annotations

import numpy as np

from . import case

_X = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32)
_Y = np.array([[0.5, 2.0, -1.5], [3.0, -4.0, 2.5]], np.float32)
_UNIT = np.array([[0.1, 0.35, 0.6], [0.85, 0.2, 0.45]], np.float32)
_INTS = np.array([[7, -3, 0], [4, 5, -8]], np.int32)
_SQUARE = np.array([[4.0, 1.0], [1.0, 3.0]], np.float32)


def _plain(value):
    """A case result: Tensors as arrays (complex ones as [real, imaginary]), tuples and lists
    as lists."""
    if hasattr(value, "asnumpy"):
        array = value.asnumpy()
        return [array.real, array.imag] if np.iscomplexobj(array) else array
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    return value


def _results(calls: dict) -> dict:
    results = {}
    for name, call in calls.items():
        try:
            results[name] = _plain(call())
        except Exception as error:  # noqa: BLE001 - recorded as the error's type
            results[name] = f"error: {type(error).__name__}"
    return results


@case(rtol=1e-5, atol=1e-6)
def case_functional_elementwise(ms):
    ops, x, y, unit = ms.ops, ms.Tensor(_X), ms.Tensor(_Y), ms.Tensor(_UNIT)
    return _results({
        "absolute": lambda: ops.absolute(ms.Tensor(_INTS)),
        "negative": lambda: ops.negative(ms.Tensor(_INTS)),
        "positive": lambda: ops.positive(x), "inv": lambda: ops.inv(x),
        "tan": lambda: ops.tan(unit), "ceil": lambda: ops.ceil(y), "trunc": lambda: ops.trunc(y),
        "round": lambda: ops.round(y), "expm1": lambda: ops.expm1(unit),
        "log1p": lambda: ops.log1p(unit), "i0": lambda: ops.i0(x),
        "isinf": lambda: ops.isinf(ms.Tensor([1.0, np.inf, np.nan])),
        "isnan": lambda: ops.isnan(ms.Tensor([1.0, np.inf, np.nan])),
        "logit": lambda: ops.logit(unit), "logit eps": lambda: ops.logit(x, eps=0.25),
        "mvlgamma": lambda: ops.mvlgamma(x + 8.0, 2),
        "polygamma": lambda: ops.polygamma(ms.Tensor(1), x + 8.0),
    })


@case(rtol=1e-5, atol=1e-6)
def case_functional_binary(ms):
    ops, x, y, ints = ms.ops, ms.Tensor(_X), ms.Tensor(_Y), ms.Tensor(_INTS)
    return _results({
        "atan2": lambda: ops.atan2(x, y), "arctan2": lambda: ops.arctan2(x, y),
        "hypot": lambda: ops.hypot(x, y), "copysign": lambda: ops.copysign(x, y),
        "heaviside": lambda: ops.heaviside(ms.Tensor([-1.0, 0.0, 2.0]), ms.Tensor(0.5)),
        "fmax": lambda: ops.fmax(x, y),
        "fmod": lambda: ops.fmod(x, y), "remainder": lambda: ops.remainder(x, y),
        "floor_mod": lambda: ops.floor_mod(ints, 3), "truncate_mod": lambda: ops.truncate_mod(x, y),
        "floor_divide": lambda: ops.floor_divide(x, y), "floor_div": lambda: ops.floor_div(x, y),
        "truncate_div": lambda: ops.truncate_div(ints, ms.Tensor(np.int32(3))),
        "divide": lambda: ops.divide(x, y), "divide floor": lambda: ops.divide(
            x, y, rounding_mode="floor"),
        "true_divide": lambda: ops.true_divide(x, y), "multiply": lambda: ops.multiply(x, y),
        "subtract": lambda: ops.subtract(x, y, alpha=2), "xdivy": lambda: ops.xdivy(x, y),
        "float_power": lambda: ops.float_power(x, 2),
        "logaddexp": lambda: ops.logaddexp(x, y), "logaddexp2": lambda: ops.logaddexp2(x, y),
        "lerp": lambda: ops.lerp(x, y, 0.25),
        "addcdiv": lambda: ops.addcdiv(x, x, y, 0.5), "addcmul": lambda: ops.addcmul(
            x, x, y, ms.Tensor(2.0)),
        "addn": lambda: ops.addn([x, y, x]), "addn one tensor": lambda: ops.addn(x),
    })


@case
def case_functional_comparisons(ms):
    ops, x, y = ms.ops, ms.Tensor(_X), ms.Tensor(_Y)
    names = ("eq", "equal", "ne", "not_equal", "gt", "greater", "tensor_gt", "ge",
             "greater_equal", "lt", "less", "tensor_lt", "le", "less_equal")
    calls = {name: (lambda name=name: getattr(ops, name)(x, y)) for name in names}
    calls["eq number"] = lambda: ops.eq(x, 3.0)
    flags, other = ms.Tensor([True, False, True]), ms.Tensor([True, True, False])
    calls.update({
        "logical_and": lambda: ops.logical_and(flags, other),
        "logical_or": lambda: ops.logical_or(flags, other),
        "logical_xor": lambda: ops.logical_xor(flags, other),
        "logical_not": lambda: ops.logical_not(flags),
        "isclose": lambda: ops.isclose(x, x + 1e-6),
        "approximate_equal": lambda: ops.approximate_equal(x, x + 0.5, 1.0),
    })
    return _results(calls)


@case(rtol=1e-5, atol=1e-6)
def case_functional_reductions(ms):
    ops, x, ints = ms.ops, ms.Tensor(_X), ms.Tensor(_INTS)
    with_nan = ms.Tensor(np.array([[1.0, np.nan, 3.0], [np.nan, 5.0, 2.0]], np.float32))
    return _results({
        "argmin": lambda: ops.argmin(x), "argmin axis": lambda: ops.argmin(x, 1, True),
        "aminmax": lambda: ops.aminmax(x), "aminmax axis": lambda: ops.aminmax(
            x, axis=1, keepdims=True),
        "logsumexp": lambda: ops.logsumexp(x, 1), "std": lambda: ops.std(x),
        "var": lambda: ops.var(x, 1, ddof=1, keepdims=True),
        "std_mean": lambda: ops.std_mean(x, 0), "var_mean": lambda: ops.var_mean(x, 1, 1),
        "nansum": lambda: ops.nansum(with_nan, 1), "nansum ints": lambda: ops.nansum(ints),
        "nanmean": lambda: ops.nanmean(with_nan, 0, True),
        "nanmedian": lambda: ops.nanmedian(with_nan),
        "count_nonzero": lambda: ops.count_nonzero(ints),
        "count_nonzero axis": lambda: ops.count_nonzero(ints, 1, True, ms.int64),
        "histc": lambda: ops.histc(x, 4), "bucketize": lambda: ops.bucketize(x, [0.0, 2.0]),
        "bucketize right": lambda: ops.bucketize(x, [1.0, 3.0], right=True),
        "top_k": lambda: ops.top_k(x, 2), "msort": lambda: ops.msort(x),
    })


@case(rtol=1e-5, atol=1e-6)
def case_functional_scans(ms):
    ops, x, ints = ms.ops, ms.Tensor(_X), ms.Tensor(_INTS)
    return _results({
        "cumsum": lambda: ops.cumsum(x, 1), "cumsum ints": lambda: ops.cumsum(ints, 0),
        "cumsum dtype": lambda: ops.cumsum(ints, 1, ms.float32),
        "cumprod": lambda: ops.cumprod(x, 1), "cummax": lambda: ops.cummax(x, 1),
        "cummin": lambda: ops.cummin(x, 0), "logcumsumexp": lambda: ops.logcumsumexp(x, 1),
        "diff": lambda: ops.diff(x), "diff axis": lambda: ops.diff(x, 1, 0),
        "diff prepend": lambda: ops.diff(x, 1, -1, prepend=ms.Tensor(np.ones((2, 1),
                                                                             np.float32))),
    })


@case
def case_functional_shapes(ms):
    ops, x = ms.ops, ms.Tensor(_X)
    index = ms.Tensor(np.array([[0, 2], [1, 0]], np.int32))
    return _results({
        "chunk": lambda: ops.chunk(x, 2, 1), "split": lambda: ops.split(x, 1),
        "split sections": lambda: ops.split(x, [1, 2], 1), "unbind": lambda: ops.unbind(x, 1),
        "unstack": lambda: ops.unstack(x), "narrow": lambda: ops.narrow(x, 1, 1, 2),
        "index_select": lambda: ops.index_select(x, 1, ms.Tensor([2, 0], ms.int32)),
        "gather": lambda: ops.gather(
            x, ms.Tensor([1, 0], ms.int32), 0),
        "gather_d": lambda: ops.gather_d(x, 1, index),
        "gather_elements": lambda: ops.gather_elements(x, 1, index),
        "gather_nd": lambda: ops.gather_nd(x, index),
        "slice": lambda: ops.slice(x, (0, 1), (-1, 2)),
        "masked_fill": lambda: ops.masked_fill(x, x > 0, 9.0),
        "one_hot": lambda: ops.one_hot(ms.Tensor([0, 2], ms.int32), 3),
        "one_hot values": lambda: ops.one_hot(ms.Tensor([1, 0], ms.int32), 3, ms.Tensor(5.0),
                                              ms.Tensor(-1.0), 0),
        "bias_add": lambda: ops.bias_add(x, ms.Tensor([1.0, 2.0, 3.0])),
        "bias_add 4-D": lambda: ops.bias_add(ops.ones((1, 2, 1, 2)), ms.Tensor([1.0, 2.0])),
    })


@case
def case_functional_layouts(ms):
    ops, x = ms.ops, ms.Tensor(_X)
    cube = ms.Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    square4 = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    wide = ms.Tensor(np.arange(12, dtype=np.float32).reshape(1, 2, 2, 3))
    return _results({
        "moveaxis": lambda: ops.moveaxis(cube, 0, 2), "movedim": lambda: ops.movedim(
            cube, (0, 1), (2, 0)),
        "swapaxes": lambda: ops.swapaxes(cube, 0, 2), "swapdims": lambda: ops.swapdims(
            cube, 1, 2),
        "t": lambda: ops.t(x), "adjoint": lambda: ops.adjoint(cube), "ravel": lambda: ops.ravel(x),
        "flip": lambda: ops.flip(x, (0, 1)), "reverse": lambda: ops.reverse(x, [1]),
        "expand": lambda: ops.expand(ms.Tensor([[1.0], [2.0]]), ms.Tensor([2, 3])),
        "expand_as": lambda: ops.expand_as(ms.Tensor([1.0, 2.0, 3.0]), x),
        "view_as": lambda: ops.view_as(x, ms.Tensor(np.zeros((3, 2), np.float32))),
        "repeat_interleave": lambda: ops.repeat_interleave(x, 2),
        "repeat_interleave axis": lambda: ops.repeat_interleave(x, 2, 1),
        "repeat_elements": lambda: ops.repeat_elements(x, 2, 1),
        "tril": lambda: ops.tril(cube, 1), "triu": lambda: ops.triu(x, -1),
        "row_stack": lambda: ops.row_stack([x, x]),
        "space_to_batch_nd": lambda: ops.space_to_batch_nd(square4, 2, [[0, 0], [0, 0]]),
        "space_to_batch_nd padded": lambda: ops.space_to_batch_nd(wide, [2, 2], [[0, 0], [1, 0]]),
        "space_to_batch_nd 1-D": lambda: ops.space_to_batch_nd(
            ms.Tensor(np.arange(12, dtype=np.float32).reshape(2, 1, 6)), [3], [[0, 0]]),
        "batch_to_space_nd": lambda: ops.batch_to_space_nd(
            ops.space_to_batch_nd(wide, [2, 2], [[0, 0], [1, 0]]), [2, 2], [[0, 0], [1, 0]]),
        "batch_to_space_nd cropped": lambda: ops.batch_to_space_nd(
            ms.Tensor(np.arange(16, dtype=np.float32).reshape(4, 1, 2, 2)), [2, 2],
            [[1, 0], [0, 1]]),
    })


@case
def case_functional_queries_and_creation(ms):
    ops, x, ints = ms.ops, ms.Tensor(_X), ms.Tensor(_INTS)
    return _results({
        "shape": lambda: ops.shape(x), "size": lambda: ops.size(x), "numel": lambda: ops.numel(x),
        "rank": lambda: ops.rank(x), "is_tensor": lambda: ops.is_tensor(x),
        "is_tensor array": lambda: ops.is_tensor(_X),
        "is_floating_point": lambda: [ops.is_floating_point(x), ops.is_floating_point(ints)],
        "is_complex": lambda: ops.is_complex(x),
        "is_nonzero": lambda: [ops.is_nonzero(ms.Tensor([0.5])), ops.is_nonzero(
            ms.Tensor([0]))],
        "eye": lambda: ops.eye(2), "eye int": lambda: ops.eye(2, 3, ms.int32),
        "linspace": lambda: ops.linspace(0, 1, 5), "full_like": lambda: ops.full_like(ints, 2.5),
        "full_like dtype": lambda: ops.full_like(ints, 2.5, dtype=ms.float32),
        "range": lambda: ops.range(0, 7, 2), "range float": lambda: ops.range(0.5, 2.0, 0.5),
        "sequence_mask": lambda: ops.sequence_mask(ms.Tensor([1, 3], ms.int32), 4),
    })


@case(rtol=1e-5, atol=1e-5)
def case_functional_linear_algebra(ms):
    ops, x, square = ms.ops, ms.Tensor(_X), ms.Tensor(_SQUARE)
    batch = ms.Tensor(np.arange(12, dtype=np.float32).reshape(2, 2, 3))
    boxes = ms.Tensor(np.array([[0, 0, 2, 2], [1, 1, 4, 3]], np.float32))
    truths = ms.Tensor(np.array([[0, 0, 1, 1], [1, 0, 3, 2], [2, 2, 5, 5]], np.float32))
    return _results({
        "bmm": lambda: ops.bmm(batch, ops.swapaxes(batch, 1, 2)), "mm": lambda: ops.mm(
            x, ops.t(x)),
        "mv": lambda: ops.mv(x, ms.Tensor([1.0, 2.0, 3.0])), "dot": lambda: ops.dot(x, ops.t(x)),
        "ger": lambda: ops.ger(x[0], x[1]), "outer": lambda: ops.outer(x[0], x[1]),
        "vecdot": lambda: ops.vecdot(x, x),
        "det": lambda: ops.det(square), "matrix_determinant": lambda: ops.matrix_determinant(
            square),
        "inverse": lambda: ops.inverse(square), "logdet": lambda: ops.logdet(square),
        "slogdet": lambda: ops.slogdet(square),
        "log_matrix_determinant": lambda: ops.log_matrix_determinant(square),
        "cholesky": lambda: ops.cholesky(square),
        "cholesky upper": lambda: ops.cholesky(square, upper=True),
        "vector_norm": lambda: ops.vector_norm(x), "vector_norm axis": lambda: ops.vector_norm(
            x, 1, 1, True),
        "matrix_norm": lambda: ops.matrix_norm(x), "norm": lambda: ops.norm(x),
        "matrix_norm nuc": lambda: ops.matrix_norm(x, "nuc", keepdims=True),
        "matrix_norm dtype": lambda: ops.matrix_norm(x, 1, dtype=ms.float64),
        "norm vector": lambda: ops.norm(x[0], 3),
        "iou": lambda: ops.iou(boxes, truths), "iof": lambda: ops.iou(boxes, truths, "iof"),
        "iou mode": lambda: ops.iou(boxes, truths, "giou"),
    })


# MindSpore's CPU tanhshrink drifts by about 1e-5 relative near |x| = 4.5
@case(rtol=5e-5, atol=1e-6)
def case_functional_activations(ms):
    ops, x = ms.ops, ms.Tensor(_X * 0.75)
    names = ("fast_gelu", "hardsigmoid", "hardswish", "logsigmoid", "mish", "relu6", "selu",
             "silu", "softsign", "tanhshrink", "celu", "elu", "gelu", "hardshrink",
             "softshrink", "soft_shrink", "hardtanh", "leaky_relu", "softmin", "softplus")
    calls = {name: (lambda name=name: getattr(ops, name)(x)) for name in names}
    calls.update({
        "celu alpha": lambda: ops.celu(x, 2.0), "gelu tanh": lambda: ops.gelu(x, "tanh"),
        "glu axis": lambda: ops.glu(ms.Tensor(_X[:, :2]), 1),
        "glu odd": lambda: ops.glu(x, 1),
        "hardtanh range": lambda: ops.hardtanh(x, -0.5, 2.0),
        "leaky_relu alpha": lambda: ops.leaky_relu(x, 0.1),
        "softmin axis": lambda: ops.softmin(x, 0), "softplus beta": lambda: ops.softplus(
            x, 2, 1),
        "threshold": lambda: ops.threshold(x, 1.0, -9.0),
        "prelu": lambda: ops.prelu(ms.Tensor(_X.reshape(1, 2, 3)), ms.Tensor([0.25, 0.5])),
        "gelu grad": lambda: ms.grad(lambda t: ops.gelu(t).sum())(x),
    })
    return _results(calls)


@case(rtol=1e-5, atol=1e-6)
def case_functional_layers(ms):
    ops = ms.ops
    image = ms.Tensor(np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4) / 10.0)
    kernel = ms.Tensor(np.linspace(-1.0, 1.0, 36, dtype=np.float32).reshape(2, 2, 3, 3))
    signal = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 2, 8) / 4.0)
    return _results({
        "conv2d": lambda: ops.conv2d(image, kernel),
        "conv2d same": lambda: ops.conv2d(image, kernel, ms.Tensor([1.0, -1.0]),
                                          pad_mode="same"),
        "conv2d pad": lambda: ops.conv2d(image, kernel, stride=2, pad_mode="pad", padding=1),
        "conv1d": lambda: ops.conv1d(signal, ms.Tensor(np.ones((3, 2, 2), np.float32))),
        "dense": lambda: ops.dense(ms.Tensor(_X), ms.Tensor(_Y), ms.Tensor([1.0, 2.0])),
        "avg_pool1d": lambda: ops.avg_pool1d(signal, 2, 2),
        "avg_pool2d": lambda: ops.avg_pool2d(image, 2, 2),
        "max_pool2d": lambda: ops.max_pool2d(image, 2, 2, return_indices=True),
        "lp_pool1d": lambda: ops.lp_pool1d(signal, 2, 2),
        "adaptive_avg_pool1d": lambda: ops.adaptive_avg_pool1d(signal, 4),
        "adaptive_avg_pool1d indivisible": lambda: ops.adaptive_avg_pool1d(signal, 3),
        "adaptive_avg_pool2d": lambda: ops.adaptive_avg_pool2d(image, (2, 3)),
        "adaptive_max_pool2d": lambda: ops.adaptive_max_pool2d(image, 2, True),
        "pixel_shuffle": lambda: ops.pixel_shuffle(ms.Tensor(
            np.arange(8, dtype=np.float32).reshape(1, 4, 1, 2)), 2),
        "pixel_unshuffle": lambda: ops.pixel_unshuffle(image, 2),
        "channel_shuffle": lambda: ops.channel_shuffle(ms.Tensor(
            np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2)), 2),
        "channel_shuffle 3-D": lambda: ops.channel_shuffle(ms.Tensor(
            np.arange(8, dtype=np.float32).reshape(1, 4, 2)), 2),
        "cosine_similarity": lambda: ops.cosine_similarity(ms.Tensor(_X), ms.Tensor(_Y)),
        "pdist": lambda: ops.pdist(ms.Tensor(_X)),
    })


@case(rtol=1e-5, atol=1e-6)
def case_functional_norms(ms):
    ops, x = ms.ops, ms.Tensor(_X.reshape(1, 2, 3))
    gamma, beta = ms.Tensor([1.5, 0.5]), ms.Tensor([0.1, -0.1])
    return _results({
        "batch_norm": lambda: ops.batch_norm(x, ms.Tensor([0.5, -0.5]), ms.Tensor([2.0, 1.0]),
                                             gamma, beta),
        "group_norm": lambda: ops.group_norm(x, 2, gamma, beta),
    })


@case(rtol=1e-5, atol=1e-6)
def case_functional_losses(ms):
    ops, x, y = ms.ops, ms.Tensor(_X), ms.Tensor(_Y)
    unit, sign = ms.Tensor(_UNIT), ms.Tensor(np.array([1.0, -1.0], np.float32))
    classes = ms.Tensor(np.array([2, 0], np.int64))
    labels = ms.Tensor(np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]], np.float32))
    return _results({
        "binary_cross_entropy": lambda: ops.binary_cross_entropy(unit, labels),
        "binary_cross_entropy none": lambda: ops.binary_cross_entropy(
            unit, labels, ms.Tensor(np.full((2, 3), 0.5, np.float32)), "none"),
        "huber_loss": lambda: ops.huber_loss(x, y), "huber_loss delta": lambda: ops.huber_loss(
            x, y, "sum", 2.0),
        "smooth_l1_loss": lambda: ops.smooth_l1_loss(x, y),
        "smooth_l1_loss mean": lambda: ops.smooth_l1_loss(x, y, 0.5, "mean"),
        "margin_ranking_loss": lambda: ops.margin_ranking_loss(x[:, 0], y[:, 0], sign, 0.5),
        "cosine_embedding_loss": lambda: ops.cosine_embedding_loss(x, y, sign, 0.1),
        "hinge_embedding_loss": lambda: ops.hinge_embedding_loss(x, labels * 2 - 1),
        "multilabel_soft_margin_loss": lambda: ops.multilabel_soft_margin_loss(x, labels),
        "multi_margin_loss": lambda: ops.multi_margin_loss(x, classes),
        "multi_margin_loss weighted": lambda: ops.multi_margin_loss(
            x, classes, 2, 2, ms.Tensor([1.0, 2.0, 0.5]), "sum"),
        "multi_margin_loss float margin": lambda: ops.multi_margin_loss(x, classes, 1, 0.5),
        "gaussian_nll_loss": lambda: ops.gaussian_nll_loss(x, y, unit),
    })


@case
def case_functional_errors(ms):
    ops, x = ms.ops, ms.Tensor(_X)
    return _results({
        "chunk zero": lambda: ops.chunk(x, 0),
        "narrow past end": lambda: ops.narrow(x, 1, 2, 5),
        "is_nonzero many": lambda: ops.is_nonzero(x),
        "conv2d pad_mode": lambda: ops.conv2d(ms.Tensor(np.ones((1, 1, 3, 3), np.float32)),
                                              ms.Tensor(np.ones((1, 1, 2, 2), np.float32)),
                                              pad_mode="full"),
        "cholesky not square": lambda: ops.cholesky(x),
    })


@case(rtol=1e-5, atol=1e-6)
def case_functional_segments(ms):
    ops, x = ms.ops, ms.Tensor(_X)
    ids = ms.Tensor(np.array([1, 1], np.int32))
    mask = ms.Tensor(np.array([[True, False, True], [False, True, True]]))
    return _results({
        "max": lambda: ops.max(x), "max axis": lambda: ops.max(x, 1), "min": lambda: ops.min(x),
        "max 0-D": lambda: ops.max(ms.Tensor(2.5)),
        "max initial tensor": lambda: ops.max(x, 1, initial=ms.Tensor(1.0)),
        "max initial": lambda: ops.max(x, 1, initial=4.5),
        "max where": lambda: ops.max(x, 1, initial=0.0, where=mask),
        "max where without initial": lambda: ops.max(x, 1, where=mask),
        "min keepdims": lambda: ops.min(x, 0, True),
        "min initial": lambda: ops.min(x, 0, initial=-3.0),
        "unique_consecutive": lambda: ops.unique_consecutive(
            ms.Tensor([1, 1, 2, 2, 3, 1], ms.int32)),
        "unique_consecutive all": lambda: ops.unique_consecutive(
            ms.Tensor([1, 1, 2, 2, 3, 1], ms.int32), True, True),
        "unsorted_segment_sum": lambda: ops.unsorted_segment_sum(x, ids, 3),
        "unsorted_segment_prod": lambda: ops.unsorted_segment_prod(x, ids, 3),
        "unsorted_segment_max": lambda: ops.unsorted_segment_max(
            x, ms.Tensor([0, 0], ms.int32), 2),
        "unsorted_segment_min": lambda: ops.unsorted_segment_min(
            x, ms.Tensor([1, 0], ms.int32), 3),
        "intopk": lambda: ops.intopk(x, ms.Tensor([2, 1], ms.int32), 1),
        "intopk 2": lambda: ops.intopk(x, ms.Tensor([0, 0], ms.int32), 2),
    })


@case(rtol=1e-5, atol=1e-6)
def case_functional_misc_creation_and_spectra(ms):
    ops, x = ms.ops, ms.Tensor(_X)
    reflectors = ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32))
    return _results({
        "matrix_band_part": lambda: ops.matrix_band_part(x, 0, 1),
        "matrix_band_part all below": lambda: ops.matrix_band_part(x, -1, 0),
        "padding": lambda: ops.padding(ms.Tensor([[1.0], [2.0]]), 4),
        "deepcopy": lambda: ops.deepcopy(x), "dyn_shape": lambda: ops.dyn_shape(x),
        "eps": lambda: ops.eps(x), "tuple_to_array": lambda: ops.tuple_to_array((1, 2)),
        "tuple_to_array floats": lambda: ops.tuple_to_array((1.0, 2)),
        "scalar_to_tensor": lambda: ops.scalar_to_tensor(3),
        "scalar_to_tensor int": lambda: ops.scalar_to_tensor(3, ms.int32),
        "fftfreq": lambda: ops.fftfreq(4), "rfftfreq": lambda: ops.rfftfreq(5, 0.5),
        "tensor_muls": lambda: ops.tensor_muls(x, 2.0), "hfft2": lambda: ops.hfft2(x),
        "ihfft2": lambda: ops.ihfft2(x), "hfftn": lambda: ops.hfftn(x),
        "ihfftn": lambda: ops.ihfftn(x),
        "cond": lambda: ops.cond(ms.Tensor(_SQUARE)),
        "orgqr": lambda: ops.orgqr(reflectors, ms.Tensor([0.5, 0.25])),
    })


@case(rtol=1e-5, atol=1e-6)
def case_functional_resampling(ms):
    ops, x = ms.ops, ms.Tensor(_X)
    image = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    theta = ms.Tensor(np.array([[[0.8, -0.2, 0.1], [0.3, 0.9, -0.2]]], np.float32))
    pooled, indices = ms.ops.max_pool2d(image, 2, 2, return_indices=True)
    return _results({
        "dropout2d eval": lambda: ops.dropout2d(ms.Tensor(_X.reshape(1, 2, 3, 1)), 0.5, False),
        "dropout1d none": lambda: ops.dropout1d(ms.Tensor(_X.reshape(1, 2, 3)), 0.0),
        "bidense": lambda: ops.bidense(x, ms.Tensor(_Y), ms.Tensor(
            np.linspace(-1.0, 1.0, 18, dtype=np.float32).reshape(2, 3, 3)), ms.Tensor(
                [0.5, -0.5])),
        "pad": lambda: ops.pad(x, (1, 2), value=9.0), "pad reflect": lambda: ops.pad(
            x, (1, 1), "reflect"),
        "pad 2-D replicate": lambda: ops.pad(image, (1, 0, 0, 1), "replicate"),
        "interpolate": lambda: ops.interpolate(ms.Tensor(_X.reshape(1, 2, 3)), size=5,
                                               mode="linear"),
        "interpolate bilinear": lambda: ops.interpolate(image, size=(3, 5), mode="bilinear",
                                                        align_corners=True),
        "upsample nearest": lambda: ops.upsample(image, scale_factor=(1.5, 0.5)),
        "upsample recomputed": lambda: ops.upsample(image, scale_factor=(1.5, 0.5),
                                                    recompute_scale_factor=True),
        "interpolate area": lambda: ops.interpolate(image, scale_factor=0.5, mode="area"),
        "interpolate nearest align_corners": lambda: ops.interpolate(
            image, size=(2, 2), align_corners=True),
        "unfold": lambda: ops.unfold(image, 2, stride=2),
        "fold": lambda: ops.fold(ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 4, 4)),
                                 ms.Tensor([3, 3], ms.int32), 2),
        "affine_grid": lambda: ops.affine_grid(theta, (1, 1, 2, 3)),
        "grid_sample": lambda: ops.grid_sample(image, ops.affine_grid(theta, (1, 1, 2, 3)),
                                               align_corners=False),
        "lrn": lambda: ops.lrn(ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 4, 1, 2)),
                               1, 1.0, 0.5, 0.75),
        "max_unpool2d": lambda: ops.max_unpool2d(pooled, indices, 2, 2),
        "avg_pool3d": lambda: ops.avg_pool3d(ms.Tensor(
            np.arange(16, dtype=np.float32).reshape(1, 1, 2, 2, 4)), 2, 2),
        "max_pool3d": lambda: ops.max_pool3d(ms.Tensor(
            np.arange(16, dtype=np.float32).reshape(1, 1, 2, 2, 4)), 2, 2),
        "kl_div": lambda: ops.kl_div(x * 0.1, ms.Tensor(np.abs(_X) / 10)),
        "kl_div sum": lambda: ops.kl_div(x * 0.1, ms.Tensor(np.abs(_X) / 10), "sum"),
    })


@case(rtol=1e-5, atol=1e-6)
def case_functional_solves_sequences_and_clipping(ms):
    ops, x = ms.ops, ms.Tensor(_X)
    grid = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    lengths = ms.Tensor([1, 2, 4], ms.int32)
    return _results({
        "matrix_solve": lambda: ops.matrix_solve(ms.Tensor(_SQUARE), ms.Tensor([[1.0], [2.0]])),
        "matrix_solve adjoint": lambda: ops.matrix_solve(
            ms.Tensor([[4.0, 1.0], [2.0, 3.0]]), ms.Tensor([[1.0, 0.5], [2.0, -1.0]]), True),
        "reverse_sequence": lambda: ops.reverse_sequence(grid, lengths, 1),
        "reverse_sequence batch 1": lambda: ops.reverse_sequence(
            ms.Tensor(np.arange(12, dtype=np.float32).reshape(4, 3)), lengths, 0, 1),
        "isnan_ext": lambda: ops.isnan_ext(ms.Tensor([1.0, np.nan])),
        "float_power_ext": lambda: ops.float_power_ext(x, 2),
        "diff_ext": lambda: ops.diff_ext(x, 1, 0),
        "clip_by_norm": lambda: ops.clip_by_norm(x, 2.0),
        "clip_by_norm large": lambda: ops.clip_by_norm(x, 100.0),
        "clip_by_norm tuple": lambda: ops.clip_by_norm((x, x * 2), 3.0),
        "clip_by_norm 1-norm": lambda: ops.clip_by_norm([x], 5.0, 1.0),
        "clip_by_norm inf-norm": lambda: ops.clip_by_norm([x, x * 0.5], 3.0, float("inf")),
        "clip_by_norm non-finite": lambda: ops.clip_by_norm(
            ms.Tensor([1.0, np.inf]), 1.0, error_if_nonfinite=True),
        "population_count": lambda: ops.population_count(ms.Tensor([7, -1, 0], ms.int16)),
        "population_count int8": lambda: ops.population_count(ms.Tensor([5, -128], ms.int8)),
        "mirror_pad symmetric": lambda: ops.mirror_pad(x, ms.Tensor([[0, 0], [2, 1]]),
                                                       "SYMMETRIC"),
        "mirror_pad reflect": lambda: ops.mirror_pad(x, ms.Tensor([[1, 1], [2, 1]]), "REFLECT"),
    })


def _scattered(ms, name: str, indices, updates) -> list:
    """[returned value, the Parameter's value afterwards] of ``ops.<name>`` on a copy of _X."""
    parameter = ms.Parameter(ms.Tensor(_X), name="p")
    result = getattr(ms.ops, name)(parameter, ms.Tensor(np.array(indices, np.int32)),
                                   ms.Tensor(np.array(updates, np.float32)))
    return [result, parameter.asnumpy()]


@case
def case_functional_scatter_into_parameters(ms):
    rows = np.ones((2, 3), np.float32)
    return _results({
        "scatter_add": lambda: _scattered(ms, "scatter_add", [1, 1], rows),
        "scatter_max": lambda: _scattered(ms, "scatter_max", [[0], [1]], np.full((2, 1, 3), 2.0)),
        "scatter_min": lambda: _scattered(ms, "scatter_min", [0], np.full((1, 3), 0.5)),
        "scatter_update": lambda: _scattered(ms, "scatter_update", [1], np.full((1, 3), 9.0)),
        "scatter_nd_add": lambda: _scattered(ms, "scatter_nd_add", [[0, 1], [0, 1]], [1.0, 2.0]),
        "scatter_nd_sub": lambda: _scattered(ms, "scatter_nd_sub", [[1]], [[1.0, 2.0, 3.0]]),
        "scatter_nd_max": lambda: _scattered(ms, "scatter_nd_max", [[1, 2], [0, 0]], [0.0, 7.0]),
        "scatter_nd_min": lambda: _scattered(ms, "scatter_nd_min", [[1, 2]], [-9.0]),
        "scatter_add into a Tensor": lambda: [ms.ops.scatter_add(
            tensor := ms.Tensor(np.zeros((2, 2), np.float32)), ms.Tensor([1], ms.int32),
            ms.Tensor(np.ones((1, 2), np.float32))), tensor],
        "scatter_add bad shape": lambda: _scattered(ms, "scatter_add", [1], rows),
    })


@case(rtol=1e-5, atol=1e-6)
def case_functional_nll_loss(ms):
    ops = ms.ops
    log_probs = ms.Tensor(np.log(np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3], [0.25, 0.25, 0.5]],
                                          np.float32)))
    target = ms.Tensor(np.array([1, 0, 2], np.int32))
    weight = ms.Tensor([0.5, 2.0, 1.0])
    image = ms.Tensor(np.log(np.full((1, 3, 2, 2), 1 / 3, np.float32)))
    return _results({
        "nll_loss": lambda: ops.nll_loss(log_probs, target),
        "nll_loss none": lambda: ops.nll_loss(log_probs, target, reduction="none"),
        "nll_loss weighted sum": lambda: ops.nll_loss(log_probs, target, weight, reduction="sum"),
        "nll_loss ignore": lambda: ops.nll_loss(log_probs, target, weight, ignore_index=0),
        "nll_loss smoothing": lambda: ops.nll_loss(log_probs, target, label_smoothing=0.2),
        "nll_loss smoothing weighted": lambda: ops.nll_loss(log_probs, target, weight, 1,
                                                            "mean", 0.1),
        "nll_loss smoothing none": lambda: ops.nll_loss(log_probs, target, weight,
                                                        reduction="none", label_smoothing=0.3),
        "nll_loss 4-D": lambda: ops.nll_loss(image, ms.Tensor(np.array([[[0, 1], [2, 1]]],
                                                                       np.int32))),
    })


@case(rtol=1e-5, atol=1e-6)
def case_functional_gradients(ms):
    ops, x, y = ms.ops, ms.Tensor(_X), ms.Tensor(_Y)
    image = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4) / 8.0)
    kernel = ms.Tensor(np.array([[[[1.0, -1.0], [0.5, 2.0]]]], np.float32))

    def grad_of(function, *inputs):
        return ms.grad(lambda *args: function(*args).sum(), grad_position=0)(*inputs)

    return _results({
        "std": lambda: grad_of(lambda t: ops.std(t, 1), x),
        "logsumexp": lambda: grad_of(lambda t: ops.logsumexp(t, 0), x),
        "atan2": lambda: grad_of(ops.atan2, x, y),
        "addcdiv": lambda: grad_of(lambda t: ops.addcdiv(t, t, y, 0.5), x),
        "huber_loss": lambda: grad_of(lambda t: ops.huber_loss(t, y), x),
        "conv2d weight": lambda: ms.grad(lambda w: ops.conv2d(image, w).sum())(kernel),
        "avg_pool2d": lambda: grad_of(lambda t: ops.avg_pool2d(t, 2, 2), image),
        "cumsum": lambda: grad_of(lambda t: ops.cumsum(t * t, 1), x),
        "det": lambda: grad_of(ops.det, ms.Tensor(_SQUARE)),
    })


@case(rtol=1e-5, atol=1e-6)
def case_functional_windows(ms):
    ops, five = ms.ops, ms.Tensor(5, ms.int32)
    return _results({
        "hann_window": lambda: ops.hann_window(5),
        "hann_window symmetric": lambda: ops.hann_window(5, False),
        "hann_window float32": lambda: ops.hann_window(4, dtype=ms.float32),
        "hann_window tensor length": lambda: ops.hann_window(five),
        "hamming_window": lambda: ops.hamming_window(5),
        "hamming_window shaped": lambda: ops.hamming_window(6, False, 0.5, 0.5),
        "kaiser_window": lambda: ops.kaiser_window(5),
        "kaiser_window symmetric": lambda: ops.kaiser_window(5, False, 4.0),
        "bartlett_window": lambda: ops.bartlett_window(five),
        "bartlett_window symmetric": lambda: ops.bartlett_window(five, False),
        "bartlett_window int length": lambda: ops.bartlett_window(5),
        "blackman_window": lambda: ops.blackman_window(five),
        "blackman_window symmetric": lambda: ops.blackman_window(five, False),
    })


@case
def case_functional_row_updates_and_segment_means(ms):
    ops, x = ms.ops, ms.Tensor(_X)
    ones = ms.Tensor(np.ones((2, 3), np.float32))
    return _results({
        "inplace_add": lambda: [ops.inplace_add(x, ones[:1], (1,)), x],
        "inplace_add repeated": lambda: ops.inplace_add(x, ones, (1, 1)),
        "inplace_sub int": lambda: ops.inplace_sub(x, ones[:1], 0),
        "inplace_update": lambda: ops.inplace_update(x, ones * 9, (1, 0)),
        "inplace_update tensor": lambda: ops.inplace_update(x, ones[:1] * 9,
                                                            ms.Tensor([1], ms.int32)),
        "sparse_segment_mean": lambda: ops.sparse_segment_mean(
            x, ms.Tensor([0, 1, 1], ms.int32), ms.Tensor([0, 0, 2], ms.int32)),
    })
