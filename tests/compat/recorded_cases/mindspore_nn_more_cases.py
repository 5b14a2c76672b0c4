"""MindSpore cases: more ``mindspore.nn`` layers, losses and learning-rate schedules (see
mindspore_cases.py for the conventions). Layers get fixed weights so that outputs and
gradients are comparable."""

from __future__ import annotations

import numpy as np

from . import case
from .mindspore_layers_cases import _arrays, _draws, _inside, _output_and_grads


def _failure(function) -> str:
    """``'TypeName: message'`` of what ``function()`` raises (``'no error'`` otherwise)."""
    try:
        function()
    except Exception as error:  # noqa: BLE001 - any error is recorded
        return f"{type(error).__name__}: {error}"
    return "no error"


_MATRIX = np.array([[0.3, -1.2, 0.8], [1.5, 0.1, -0.4]], np.float32)

# ------------------------------------------------------------------------ schedules


@case
def case_nn_more_schedule_functions(ms):
    nn = ms.nn
    return [nn.piecewise_constant_lr([2, 5, 6], [0.1, 0.05, 0.01]),
            nn.exponential_decay_lr(0.1, 0.9, 6, 2, 2),
            nn.exponential_decay_lr(0.1, 0.9, 6, 1, 2, is_stair=True),
            nn.natural_exp_decay_lr(0.1, 0.5, 6, 2, 2),
            nn.natural_exp_decay_lr(0.1, 0.5, 6, 1, 2, is_stair=True),
            nn.inverse_decay_lr(0.1, 0.5, 6, 1, 2),
            nn.inverse_decay_lr(0.1, 0.5, 6, 1, 2, is_stair=True),
            nn.cosine_decay_lr(0.01, 0.1, 8, 2, 3),
            nn.polynomial_decay_lr(0.1, 0.01, 8, 1, 3, 0.5),
            nn.polynomial_decay_lr(0.1, 0.01, 8, 1, 3, 2.0, update_decay_epoch=True),
            nn.warmup_lr(0.1, 6, 2, 2)]


def _over_steps(ms, schedule) -> list:
    rates = [schedule(ms.Tensor(step, ms.int32)) for step in range(7)]
    return [np.stack([rate.asnumpy() for rate in rates]), str(rates[0].dtype)]


@case(rtol=1e-6)
def case_nn_more_schedule_cells(ms):
    nn = ms.nn
    return [_over_steps(ms, nn.ExponentialDecayLR(0.1, 0.9, 2)),
            _over_steps(ms, nn.ExponentialDecayLR(0.1, 0.9, 2, is_stair=True)),
            _over_steps(ms, nn.NaturalExpDecayLR(0.1, 0.3, 2)),
            _over_steps(ms, nn.NaturalExpDecayLR(0.1, 0.3, 2, is_stair=True)),
            _over_steps(ms, nn.InverseDecayLR(0.1, 0.5, 2)),
            _over_steps(ms, nn.InverseDecayLR(0.1, 0.5, 2, is_stair=True)),
            _over_steps(ms, nn.CosineDecayLR(0.01, 0.1, 4)),
            _over_steps(ms, nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5)),
            _over_steps(ms, nn.PolynomialDecayLR(0.1, 0.01, 3, 2.0, update_decay_steps=True)),
            _over_steps(ms, nn.WarmUpLR(0.1, 3))]


@case(rtol=1e-6)
def case_nn_more_schedule_float_step(ms):
    return [ms.nn.WarmUpLR(0.2, 4)(ms.Tensor(1.5, ms.float32)).asnumpy(),
            ms.nn.ExponentialDecayLR(0.1, 0.9, 2)(ms.Tensor(3, ms.int64)).asnumpy()]


@case
def case_nn_more_schedule_errors(ms):
    nn = ms.nn
    calls = [lambda: nn.exponential_decay_lr(0.1, 0.9, 0, 1, 1),
             lambda: nn.exponential_decay_lr(0.1, 0.9, 2.0, 1, 1),
             lambda: nn.exponential_decay_lr(1, 0.9, 2, 1, 1),
             lambda: nn.exponential_decay_lr(-1.0, 0.9, 2, 1, 1),
             lambda: nn.inverse_decay_lr(0.1, 0.9, 2, 1, 1, is_stair=1),
             lambda: nn.cosine_decay_lr(-1.0, 0.9, 2, 1, 1),
             lambda: nn.cosine_decay_lr(1, 0.9, 2, 1, 1),
             lambda: nn.cosine_decay_lr(0.5, 0.1, 2, 1, 1),
             lambda: nn.polynomial_decay_lr(0.1, 1, 2, 1, 1, 1.0),
             lambda: nn.polynomial_decay_lr(0.1, 0.0, 2, 1, 1, 0.0),
             lambda: nn.warmup_lr(1, 2, 1, 1),
             lambda: nn.warmup_lr(0.1, 2, 1, 0),
             lambda: nn.piecewise_constant_lr([2, 1], [0.1, 0.2]),
             lambda: nn.piecewise_constant_lr([2], [0.1, 0.2]),
             lambda: nn.piecewise_constant_lr([2], [1]),
             lambda: nn.piecewise_constant_lr(2, [0.1]),
             lambda: nn.ExponentialDecayLR(0.1, 0.9, 0),
             lambda: nn.NaturalExpDecayLR(1, 0.9, 2),
             lambda: nn.InverseDecayLR(0.1, -0.9, 2),
             lambda: nn.InverseDecayLR(0.1, 0.9, 2, is_stair="no"),
             lambda: nn.WarmUpLR(0.1, 0),
             lambda: nn.WarmUpLR(1, 2),
             lambda: nn.CosineDecayLR(0.5, 0.1, 2),
             lambda: nn.CosineDecayLR(1, 2.0, 2),
             lambda: nn.CosineDecayLR(0.0, 2.0, 1.5),
             lambda: nn.PolynomialDecayLR(1, 0.0, 2, 1.0),
             lambda: nn.PolynomialDecayLR(0.1, 0, 2, 1.0),
             lambda: nn.PolynomialDecayLR(0.1, 0.0, 2, 1.0, update_decay_steps=0),
             lambda: nn.PolynomialDecayLR(0.1, 0.0, 2, -1.0)]
    return [_failure(call) for call in calls]


# ------------------------------------------------------------------------ layers


@case(rtol=1e-5, atol=1e-6)
def case_nn_more_linear_fixed_weights(ms):
    weight, bias = _draws(11, 4, 3), _draws(12, 4)
    linear = ms.nn.Linear(3, 4, weight_init=ms.Tensor(weight), bias_init=ms.Tensor(bias))
    no_bias = ms.nn.Linear(3, 2, bias=False, weight_init="ones")
    x = ms.Tensor(_MATRIX)
    return [_output_and_grads(ms, linear, x), _output_and_grads(ms, no_bias, x),
            [(p.name, p.shape, p.requires_grad) for p in linear.get_parameters()],
            [p.name for p in no_bias.get_parameters()], _inside(linear), _inside(no_bias)]


@case
def case_nn_more_linear_default_init(ms):
    linear = ms.nn.Linear(100, 50)
    weight, bias = linear.weight.asnumpy(), linear.bias.asnumpy()
    bound = 1.0 / np.sqrt(100.0)
    half = ms.nn.Linear(2, 3, dtype=ms.float16)
    half_output = half(ms.Tensor(np.ones((1, 2), np.float16)))
    return [str(half.weight.dtype), str(half.bias.dtype), str(half_output.dtype),
            weight.shape, bias.shape, str(linear.weight.dtype),
            bool(np.abs(weight).max() <= bound), bool(np.abs(weight).max() > 0.9 * bound),
            bool(np.abs(bias).max() <= bound), bool(abs(weight.std() - bound / np.sqrt(3)) < 0.01)]


@case(rtol=1e-5, atol=1e-6)
def case_nn_more_fast_gelu(ms):
    x = ms.Tensor(np.array([-4.0, -1.5, -0.3, 0.0, 0.4, 2.0, 3.5], np.float32))
    return [_output_and_grads(ms, ms.nn.FastGelu(), x), _inside(ms.nn.FastGelu())]


@case
def case_nn_more_tril_triu(ms):
    x = ms.Tensor(np.arange(1, 13, dtype=np.float32).reshape(3, 4))
    batch = ms.Tensor(np.arange(1, 19, dtype=np.int32).reshape(2, 3, 3))
    tril, triu = ms.nn.Tril(), ms.nn.Triu()
    values = [tril(x), tril(x, 1), tril(x, -1), triu(x), triu(x, 2), triu(x, -1), tril(batch),
              triu(batch, 1)]
    return [[value.asnumpy() for value in values], str(tril(batch).dtype), _inside(tril),
            _failure(lambda: tril(x, 0.5))]


@case
def case_nn_more_one_hot(ms):
    indices = ms.Tensor(np.array([[0, 2], [1, 3]], np.int32))
    cells = [ms.nn.OneHot(depth=3), ms.nn.OneHot(axis=0, depth=4, on_value=5.0, off_value=-1.0),
             ms.nn.OneHot(axis=1, depth=3, dtype=ms.int32)]
    outputs = [cell(indices) for cell in cells]
    return [[output.asnumpy() for output in outputs], [str(out.dtype) for out in outputs],
            _inside(cells[0])]


@case
def case_nn_more_range(ms):
    outputs = [ms.nn.Range(1, 8, 3)(), ms.nn.Range(5)(), ms.nn.Range(1.0, 3, 0.5)(),
               ms.nn.Range(6, 0, -2)()]
    return [[output.asnumpy() for output in outputs], [str(out.dtype) for out in outputs],
            _inside(ms.nn.Range(3))]


@case(rtol=1e-6)
def case_nn_more_moments(ms):
    x = ms.Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4) ** 1.5)
    results = [ms.nn.Moments()(x), ms.nn.Moments(axis=1)(x), ms.nn.Moments(axis=(0, 2),
                                                                          keep_dims=True)(x),
               ms.nn.Moments(axis=-1, keep_dims=False)(x)]
    return [[(mean.asnumpy(), variance.asnumpy()) for mean, variance in results],
            _inside(ms.nn.Moments())]


@case(rtol=1e-6)
def case_nn_more_norm(ms):
    x = ms.Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 10)
    cells = [ms.nn.Norm(), ms.nn.Norm(axis=1), ms.nn.Norm(axis=(0, 2), keep_dims=True)]
    return [[cell(x).asnumpy() for cell in cells], [_inside(cell) for cell in cells]]


@case(rtol=1e-5, atol=1e-6)
def case_nn_more_matmul(ms):
    a, b = ms.Tensor(_draws(21, 2, 3, 4)), ms.Tensor(_draws(22, 4, 5))
    c = ms.Tensor(_draws(23, 5, 4))
    outputs = [ms.nn.MatMul()(a, b), ms.nn.MatMul(transpose_x2=True)(a, c),
               ms.nn.MatMul(transpose_x1=True, transpose_x2=True)(ms.Tensor(_draws(24, 4, 3)),
                                                                  c)]
    grads = ms.grad(lambda x, y: ms.nn.MatMul(transpose_x2=True)(x, y).sum(), (0, 1))(a, c)
    return [[output.asnumpy() for output in outputs], _arrays(grads),
            _inside(ms.nn.MatMul(True))]


@case(rtol=1e-5, atol=1e-6)
def case_nn_more_adaptive_pool3d(ms):
    x = ms.Tensor(_draws(31, 1, 2, 4, 4, 6))
    average, maximum = ms.nn.AdaptiveAvgPool3d((2, 1, 3)), ms.nn.AdaptiveMaxPool3d((2, 2, 2))
    return [_output_and_grads(ms, average, x), _output_and_grads(ms, maximum, x),
            _arrays(ms.nn.AdaptiveAvgPool3d(1)(x)), _inside(average), _inside(maximum)]


@case
def case_nn_more_cell_dict(ms):
    cells = ms.nn.CellDict({"dense": ms.nn.Dense(2, 1), "relu": ms.nn.ReLU()})
    cells["tanh"] = ms.nn.Tanh()
    popped = cells.pop("relu")
    return [list(cells.keys()), len(cells), type(popped).__name__, "dense" in cells,
            [type(cell).__name__ for cell in cells.values()]]


# ------------------------------------------------------------------------ losses


@case(rtol=1e-5, atol=1e-7)
def case_nn_more_dice_losses(ms):
    logits, labels = ms.Tensor(_MATRIX), ms.Tensor(np.array([[1, 0, 1], [0, 1, 0]], np.float32))
    weights = ms.Tensor(np.array([[0.5], [2.0], [1.0]], np.float32))
    losses = [ms.nn.DiceLoss(), ms.nn.DiceLoss(smooth=0.5), ms.nn.MultiClassDiceLoss(),
              ms.nn.MultiClassDiceLoss(weights=weights, ignore_indiex=1, activation="sigmoid"),
              ms.nn.MultiClassDiceLoss(activation=None)]
    values = [loss(logits, labels).asnumpy() for loss in losses]
    grad = ms.grad(lambda x: ms.nn.MultiClassDiceLoss()(x, labels))(logits)
    return [values, grad.asnumpy(), [_inside(loss) for loss in losses[:3]]]


@case(rtol=1e-4, atol=1e-6)
def case_nn_more_focal_loss(ms):
    logits = ms.Tensor(_draws(41, 3, 4))
    indices = ms.Tensor(np.array([[1], [0], [3]], np.int32))
    one_hot = ms.Tensor(np.eye(4, dtype=np.float32)[[1, 0, 3]])
    weight = ms.Tensor(np.array([0.5, 1.0, 2.0, 1.5], np.float32))
    maps = ms.Tensor(_draws(42, 2, 3, 2, 2))
    map_labels = ms.Tensor(np.array([[[[0, 2], [1, 1]]], [[[2, 0], [0, 1]]]], np.int32))
    values = [ms.nn.FocalLoss()(logits, indices), ms.nn.FocalLoss(gamma=1.0)(logits, one_hot),
              ms.nn.FocalLoss(weight=weight, reduction="sum")(logits, indices),
              ms.nn.FocalLoss(weight=weight, reduction="none")(logits, one_hot),
              ms.nn.FocalLoss()(maps, map_labels)]
    grad = ms.grad(lambda x: ms.nn.FocalLoss(weight=weight)(x, indices))(logits)
    return [[value.asnumpy() for value in values], grad.asnumpy()]


@case(rtol=1e-5, atol=1e-7)
def case_nn_more_multi_margin_loss(ms):
    x = ms.Tensor(_draws(51, 3, 4))
    target = ms.Tensor(np.array([1, 0, 3], np.int64))
    weight = ms.Tensor(np.array([0.5, 1.0, 2.0, 1.5], np.float32))
    losses = [ms.nn.MultiMarginLoss(), ms.nn.MultiMarginLoss(p=2, margin=0.5),
              ms.nn.MultiMarginLoss(reduction="none", weight=weight),
              ms.nn.MultiMarginLoss(reduction="sum")]
    values = [loss(x, target).asnumpy() for loss in losses]
    values.append(ms.nn.MultiMarginLoss()(x, target, weight).asnumpy())
    grad = ms.grad(lambda y: ms.nn.MultiMarginLoss(p=2)(y, target))(x)
    return [values, grad.asnumpy(), _inside(losses[0])]


@case(rtol=1e-6)
def case_nn_more_loss_base(ms):
    class Squared(ms.nn.LossBase):
        def construct(self, logits, labels):
            return self.get_loss((logits - labels) ** 2, ms.Tensor(np.array([1.0, 2.0, 0.5],
                                                                             np.float32)))

    logits, labels = ms.Tensor(_MATRIX), ms.Tensor(np.zeros((2, 3), np.float32))
    values = [Squared(reduction)(logits, labels).asnumpy() for reduction in ("mean", "sum",
                                                                               "none")]
    half = Squared()(ms.Tensor(_MATRIX.astype(np.float16)), ms.Tensor(np.zeros((2, 3),
                                                                                np.float16)))
    return [values, str(half.dtype), list(Squared().get_axis(logits)), _inside(Squared()),
            _failure(lambda: Squared("max"))]


@case
def case_nn_more_loss_reprs_and_errors(ms):
    nn = ms.nn
    losses = [nn.SoftMarginLoss(), nn.TripletMarginLoss(), nn.MultilabelMarginLoss(),
              nn.L1LossExt(), nn.DiceLoss(), nn.MultiMarginLoss()]
    errors = [_failure(lambda: nn.DiceLoss(smooth=1)), _failure(lambda: nn.DiceLoss(-1.0)),
              _failure(lambda: nn.FocalLoss(gamma=2)),
              _failure(lambda: nn.FocalLoss(weight=[1.0])),
              _failure(lambda: nn.FocalLoss(reduction="max")),
              _failure(lambda: nn.MultiClassDiceLoss(activation="gelu")),
              _failure(lambda: nn.MultiClassDiceLoss(ignore_indiex=1.0)),
              _failure(lambda: nn.SoftMarginLoss("max")),
              _failure(lambda: nn.L1LossExt("max")),
              _failure(lambda: nn.MultiClassDiceLoss(weights=ms.Tensor(np.ones(3, np.float32)))),
              _failure(lambda: nn.MultiClassDiceLoss(weights=[1.0])),
              _failure(lambda: nn.DiceLoss()(ms.Tensor(np.ones(2, np.float32)),
                                             ms.Tensor(np.ones(3, np.float32))))]
    children = [list(nn.FocalLoss().name_cells()),
                list(nn.MultiClassDiceLoss().name_cells())]
    return [[_inside(loss) for loss in losses], errors, children]


# ------------------------------------------------------------------------ attention


def _seeded(ms, cell, seed: int):
    """``cell`` with every Parameter set from seeded draws (scaled down), by name order."""
    for index, parameter in enumerate(sorted(cell.get_parameters(), key=lambda p: p.name)):
        parameter.set_data(ms.Tensor(0.5 * _draws(seed + index, *parameter.shape)))
    return cell


def _names_and_shapes(cell) -> list:
    return [[parameter.name, list(parameter.shape)] for parameter in cell.get_parameters()]


class _First:
    """A callable giving the first output of an attention (for :func:`_output_and_grads`)."""

    def __init__(self, attention, **options):
        self.attention, self.options = attention, options

    def __call__(self, query, key):
        return self.attention(query, key, key, **self.options)[0]

    def trainable_params(self):
        return self.attention.trainable_params()


@case(rtol=1e-4, atol=1e-6)
def case_nn_more_multihead_attention(ms):
    attention = _seeded(ms, ms.nn.MultiheadAttention(4, 2), 100)
    query, key = ms.Tensor(_draws(61, 3, 2, 4)), ms.Tensor(_draws(62, 5, 2, 4))
    output, weights = attention(query, key, key)
    mask = ms.Tensor(np.array([[False, False, True, False, True], [False] * 5]))
    masked = attention(query, key, key, key_padding_mask=mask, average_attn_weights=False)
    return [_names_and_shapes(attention), output.asnumpy(), weights.asnumpy(),
            [value.asnumpy() for value in masked],
            len(attention(query, key, key, need_weights=False)),
            _output_and_grads(ms, _First(attention), query, key)]


@case(rtol=1e-4, atol=1e-6)
def case_nn_more_multihead_attention_options(ms):
    separate = _seeded(ms, ms.nn.MultiheadAttention(4, 2, kdim=3, vdim=3, batch_first=True),
                       200)
    extra = _seeded(ms, ms.nn.MultiheadAttention(4, 1, has_bias=False, add_bias_kv=True,
                                                 add_zero_attn=True), 300)
    query, key = ms.Tensor(_draws(63, 2, 3, 4)), ms.Tensor(_draws(64, 2, 5, 3))
    outputs = separate(query, key, key)
    float_mask = ms.Tensor(np.triu(np.full((3, 3), -1e9, np.float32), 1))
    extra_outputs = extra(ms.Tensor(_draws(65, 3, 2, 4)), ms.Tensor(_draws(66, 3, 2, 4)),
                          ms.Tensor(_draws(67, 3, 2, 4)), attn_mask=float_mask)
    return [_names_and_shapes(separate), _names_and_shapes(extra),
            [value.asnumpy() for value in outputs], [value.asnumpy() for value in extra_outputs],
            _failure(lambda: ms.nn.MultiheadAttention(5, 2))]


@case(rtol=1e-4, atol=1e-5)
def case_nn_more_transformer_layers(ms):
    nn = ms.nn
    encoder_layer = _seeded(ms, nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0), 400)
    first = _seeded(ms, nn.TransformerEncoderLayer(4, 2, 6, 0.0, "gelu", norm_first=True,
                                                   batch_first=True), 500)
    decoder_layer = _seeded(ms, nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0), 600)
    src, tgt = ms.Tensor(_draws(71, 3, 2, 4)), ms.Tensor(_draws(72, 2, 2, 4))
    return [_names_and_shapes(encoder_layer), _names_and_shapes(decoder_layer),
            _output_and_grads(ms, encoder_layer, src), first(src).asnumpy(),
            decoder_layer(tgt, src).asnumpy(),
            sorted(name for name, _ in encoder_layer.name_cells().items())]


@case(rtol=1e-4, atol=1e-5)
def case_nn_more_transformer_stacks(ms):
    nn = ms.nn
    layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0)
    encoder = nn.TransformerEncoder(layer, 2, nn.LayerNorm((4,)))
    fresh = [not np.array_equal(encoder.layers[index].dense1.weight.asnumpy(),
                                layer.dense1.weight.asnumpy()) for index in range(2)]
    encoder = _seeded(ms, encoder, 700)
    decoder = _seeded(ms, nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 6, 0.0), 1),
                      800)
    transformer = _seeded(ms, nn.Transformer(4, 2, 1, 1, 6, dropout=0.0), 900)
    src, tgt = ms.Tensor(_draws(73, 3, 2, 4)), ms.Tensor(_draws(74, 2, 2, 4))
    return [_names_and_shapes(encoder), _names_and_shapes(decoder),
            _names_and_shapes(transformer), encoder(src).asnumpy(),
            decoder(tgt, src).asnumpy(), transformer(src, tgt).asnumpy(), fresh,
            _failure(lambda: transformer(src, ms.Tensor(np.ones((2, 2, 3), np.float32))))]


@case
def case_nn_more_transformer_init_and_errors(ms):
    nn = ms.nn
    transformer = nn.Transformer(8, 2, 1, 1, 16)
    attention = nn.MultiheadAttention(8, 2)
    weight = transformer.encoder.layers[0].dense1.weight.asnumpy()
    bound = np.sqrt(6.0 / (8 + 16))
    return [bool(np.abs(weight).max() <= bound), float(attention.in_proj_bias.asnumpy().max()),
            bool(np.abs(attention.in_proj_weight.asnumpy()).max() <= np.sqrt(6.0 / 32)),
            _failure(lambda: nn.TransformerEncoderLayer(4, 2, activation="tanh")),
            _failure(lambda: nn.TransformerEncoderLayer(4, 2, activation=nn.ReLU())),
            _failure(lambda: nn.TransformerEncoderLayer(4, 2, activation=nn.Tanh())),
            _failure(lambda: nn.TransformerEncoderLayer(4, 2, activation=3)),
            _failure(lambda: nn.TransformerDecoderLayer(4, 2, activation=abs))]


# ------------------------------------------------------------------------ metrics

_SCORES = np.array([[0.2, 0.5, 0.3], [0.6, 0.3, 0.1], [0.1, 0.2, 0.7], [0.3, 0.4, 0.3],
                    [0.5, 0.1, 0.4]], np.float32)
_CLASSES = np.array([2, 0, 2, 0, 1], np.int32)


def _evaluate(metric, batches: list, **options):
    """``metric`` fed ``batches`` of ``(y_pred, y)``, then ``eval(**options)``."""
    metric.clear()
    for batch in batches:
        metric.update(*batch)
    return metric.eval(**options)


@case
def case_nn_more_metrics_fbeta_precision_recall(ms):
    train = ms.train
    one_hot = np.eye(3, dtype=np.float32)[_CLASSES]
    batches = [(ms.Tensor(_SCORES[:3]), ms.Tensor(_CLASSES[:3])),
               (_SCORES[3:], one_hot[3:])]
    multilabel = [(np.array([[1, 0, 1], [0, 1, 1]]), np.array([[1, 1, 0], [0, 1, 1]]))]
    return [_evaluate(train.F1(), batches), _evaluate(train.Fbeta(0.5), batches, average=True),
            _evaluate(train.Precision(), batches), _evaluate(train.Recall(), batches),
            _evaluate(train.Precision(), batches, average=True),
            _evaluate(train.Recall(), batches, average=True),
            _evaluate(train.Precision("multilabel"), multilabel),
            _evaluate(train.Recall("multilabel"), multilabel, average=True),
            _evaluate(train.Precision("multilabel"), multilabel, average=True)]


@case
def case_nn_more_metrics_topk_perplexity_dice(ms):
    train = ms.train
    batches = [(_SCORES, _CLASSES)]
    indexed = train.TopKCategoricalAccuracy(2).set_indexes([1, 2])
    indexed.update("unused", _SCORES, _CLASSES)
    return [float(_evaluate(train.Top1CategoricalAccuracy(), batches)),
            float(_evaluate(train.TopKCategoricalAccuracy(2), batches)),
            float(_evaluate(train.Top5CategoricalAccuracy(),
                            [(np.tile(_SCORES, 2), _CLASSES)])), float(indexed.eval()),
            _evaluate(train.Perplexity(), batches),
            _evaluate(train.Perplexity(ignore_label=2), batches),
            _evaluate(train.Dice(), [(_SCORES, np.eye(3)[_CLASSES]), (_SCORES[:2],
                                                                       np.eye(3)[[1, 0]])])]


@case
def case_nn_more_metrics_errors(ms):
    train = ms.train
    return [_failure(lambda: train.Fbeta(0)), _failure(lambda: train.TopKCategoricalAccuracy(0)),
            _failure(lambda: train.TopKCategoricalAccuracy(1.5)),
            _failure(lambda: train.Precision("regression")).split(" in ")[0],  # a set
            _failure(lambda: train.Perplexity(ignore_label=1.0)),
            _failure(lambda: train.Dice(1)), _failure(lambda: train.F1().eval()),
            _failure(lambda: train.Recall().eval()), _failure(lambda: train.Dice().eval()),
            _failure(lambda: train.Perplexity().eval()),
            _failure(lambda: train.TopKCategoricalAccuracy(1).eval()),
            _failure(lambda: _evaluate(train.F1(), [(_SCORES, _CLASSES)], average=1)),
            _failure(lambda: _evaluate(train.F1(), [(_SCORES, _CLASSES + 1)])),
            _failure(lambda: _evaluate(train.Precision(), [(_SCORES, _CLASSES + 1)])),
            _failure(lambda: _evaluate(train.Recall(), [(_SCORES, _CLASSES),
                                                        (_SCORES[:, :2], _CLASSES)])),
            _failure(lambda: _evaluate(train.Precision(), [(_SCORES, _CLASSES),
                                                           (_SCORES[:, :2], _CLASSES)])),
            _failure(lambda: _evaluate(train.Dice(), [(_SCORES, _CLASSES)])),
            _failure(lambda: train.F1().update(_SCORES)),
            _failure(lambda: train.Precision("multilabel").update(_SCORES, _SCORES))]


# ------------------------------------------------------------------------ pad, time


@case(rtol=1e-5, atol=1e-6)
def case_nn_more_pad(ms):
    x = ms.Tensor(np.arange(1, 25, dtype=np.float32).reshape(2, 3, 4))
    cells = [ms.nn.Pad(((1, 1), (2, 0))), ms.nn.Pad(((0, 0), (2, 1), (1, 3)), "REFLECT"),
             ms.nn.Pad(((1, 0), (2, 1), (0, 2)), mode="SYMMETRIC")]
    matrix = ms.Tensor(_MATRIX)
    outputs = [cells[0](matrix), cells[1](x), cells[2](x)]
    grad = ms.grad(lambda value: (cells[2](value) * ms.Tensor(_draws(81, 3, 6, 6))).sum())(x)
    return [[output.asnumpy() for output in outputs], grad.asnumpy(), _inside(cells[0]),
            _failure(lambda: ms.nn.Pad([1])), _failure(lambda: ms.nn.Pad(((1,),))),
            _failure(lambda: ms.nn.Pad(((1, 1),), "x")),
            _failure(lambda: ms.nn.Pad(((1, 1),) * 5))]


@case(rtol=1e-5, atol=1e-6)
def case_nn_more_time_distributed(ms):
    dense = ms.nn.Dense(3, 2, weight_init=ms.Tensor(_draws(82, 2, 3)),
                        bias_init=ms.Tensor(_draws(83, 2)))
    layer = ms.nn.TimeDistributed(dense, time_axis=1)
    batched = ms.nn.TimeDistributed(dense, time_axis=-2, reshape_with_axis=0)
    x = ms.Tensor(_draws(84, 4, 5, 3))
    return [_output_and_grads(ms, layer, x), batched(x).asnumpy(),
            [p.name for p in layer.get_parameters()],
            _failure(lambda: ms.nn.TimeDistributed(3, 1)),
            _failure(lambda: ms.nn.TimeDistributed(ms.nn.ReLU(), 1.0)),
            _failure(lambda: layer(ms.Tensor(_MATRIX)))]


@case(rtol=1e-5, atol=1e-6)
def case_nn_more_lrn(ms):
    x = ms.Tensor(_draws(85, 1, 6, 2, 3))
    cells = [ms.nn.LRN(), ms.nn.LRN(2, 2.0, 0.5, 0.75), ms.nn.LRN(0, 1.0, 1.0, 1.0)]
    return [[cell(x).asnumpy() for cell in cells], _output_and_grads(ms, cells[1], x),
            _inside(cells[0]), _failure(lambda: ms.nn.LRN(depth_radius=1.5)),
            _failure(lambda: ms.nn.LRN(bias=1)), _failure(lambda: ms.nn.LRN(norm_region="x")),
            _failure(lambda: ms.nn.LRN(depth_radius=-1))]


@case
def case_nn_more_rrelu(ms):
    x = ms.Tensor(np.linspace(-3, 3, 400, dtype=np.float32))
    output = ms.nn.RReLU(0.2, 0.4)(x).asnumpy()
    slopes = output[:200] / x.asnumpy()[:200]
    fixed = ms.nn.RReLU(0.5, 0.5)(x).asnumpy()
    return [bool(np.all(output[200:] == x.asnumpy()[200:])),
            bool(slopes.min() >= 0.2 - 1e-6), bool(slopes.max() <= 0.4 + 1e-6),
            bool(slopes.std() > 0.03), fixed, str(ms.nn.RReLU()(x).dtype),
            _inside(ms.nn.RReLU()), _failure(lambda: ms.nn.RReLU(0.5, 0.2)),
            _failure(lambda: ms.nn.RReLU("a"))]


@case(rtol=1e-5, atol=1e-6)
def case_nn_more_ctc_loss(ms):
    logits = ms.Tensor(_draws(86, 6, 2, 4))
    log_probs = ms.nn.LogSoftmax(-1)(logits)
    targets = ms.Tensor(np.array([[1, 2, 2], [3, 1, 0]], np.int32))
    input_lengths = ms.Tensor(np.array([6, 5], np.int32))
    target_lengths = ms.Tensor(np.array([3, 2], np.int32))
    arguments = (targets, input_lengths, target_lengths)
    values = [ms.nn.CTCLoss()(log_probs, *arguments), ms.nn.CTCLoss(reduction="sum")(
        log_probs, *arguments), ms.nn.CTCLoss(blank=3, reduction="none")(log_probs, *arguments)]
    grad = ms.grad(lambda x: ms.nn.CTCLoss()(ms.nn.LogSoftmax(-1)(x), *arguments))(logits)
    return [[value.asnumpy() for value in values], grad.asnumpy(), _inside(ms.nn.CTCLoss())]


@case(rtol=1e-5, atol=1e-6)
def case_nn_more_pool3d(ms):
    nn = ms.nn
    x = ms.Tensor(_draws(87, 2, 2, 5, 4, 5))
    cells = [nn.MaxPool3d(2, 1), nn.MaxPool3d((2, 3, 2), 2, "same"),
             nn.MaxPool3d(3, 2, "pad", 1, ceil_mode=True), nn.AvgPool3d(2, 1),
             nn.AvgPool3d(3, 2, "same"), nn.AvgPool3d(3, 2, "pad", (1, 0, 1)),
             nn.AvgPool3d(3, 2, "pad", 1, count_include_pad=False),
             nn.AvgPool3d(2, 2, "pad", 1, ceil_mode=True, divisor_override=3)]
    return [[cell(x).asnumpy() for cell in cells],
            [_output_and_grads(ms, cell, x) for cell in (cells[1], cells[4], cells[6])],
            cells[0](ms.Tensor(_draws(88, 2, 3, 3, 3))).asnumpy(),
            [_inside(cell) for cell in cells[:5]]]


@case(rtol=1e-5, atol=1e-6)
def case_nn_more_maxpool3d_indices_dilation(ms):
    x = ms.Tensor(_draws(89, 1, 2, 5, 5, 5))
    values, indices = ms.nn.MaxPool3d(2, 2, "pad", 1, return_indices=True)(x)
    dilated = ms.nn.MaxPool3d(2, 1, "pad", 0, dilation=2)(x)
    return [values.asnumpy(), indices.asnumpy().astype(np.int64), str(indices.dtype)[:3],
            dilated.asnumpy(),
            _failure(lambda: ms.nn.MaxPool3d(2, 1, dilation=2)),
            _failure(lambda: ms.nn.MaxPool3d(0)), _failure(lambda: ms.nn.MaxPool3d(2.0)),
            _failure(lambda: ms.nn.AvgPool3d(2, pad_mode="full")),
            _failure(lambda: ms.nn.AvgPool3d(2, padding=(1, 1))),
            _failure(lambda: ms.nn.AvgPool3d(2, divisor_override=0))]


@case
def case_nn_more_metrics_confusion_matrix_auc(ms):
    train = ms.train
    matrices = [_evaluate(train.ConfusionMatrix(3, normalize), [(_SCORES, _CLASSES),
                                                               (_SCORES[:2], _CLASSES[:2])])
                for normalize in ("no_norm", "target", "prediction", "all")]
    binary = _evaluate(train.ConfusionMatrix(2, threshold=0.35),
                       [(np.array([0.3, 0.6, 0.4, 0.1]), np.array([0, 1, 0, 1]))])
    indices = _evaluate(train.ConfusionMatrix(3, "target"), [(ms.Tensor(_CLASSES),
                                                             ms.Tensor(_CLASSES[::-1]))])
    x, y = np.array([0.0, 0.2, 0.5, 1.0]), np.array([0.0, 0.6, 0.7, 1.0])
    return [matrices, binary, indices, float(train.auc(x, y)),
            float(train.auc(x[::-1], y[::-1])),
            float(train.auc(np.array([0.5, 0.0, 1.0]), np.array([0.8, 0.0, 1.0]), reorder=True)),
            _failure(lambda: train.ConfusionMatrix(2.0)),
            _failure(lambda: train.ConfusionMatrix(2, "label")),
            _failure(lambda: train.ConfusionMatrix(2, threshold=1)),
            _failure(lambda: train.ConfusionMatrix(2).eval()),
            _failure(lambda: train.ConfusionMatrix(2).update(np.ones((2, 2, 2)), np.ones(2))),
            _failure(lambda: train.auc([0.0, 1.0], np.ones(2))),
            _failure(lambda: train.auc(np.ones(3), np.ones(2))),
            _failure(lambda: train.auc(np.ones(1), np.ones(1))),
            _failure(lambda: train.auc(np.ones((2, 2)), np.ones((2, 2)))),
            _failure(lambda: train.auc(np.array([0.0, 1.0, 0.5]), np.ones(3)))]


@case(rtol=1e-6)
def case_nn_more_max_unpool(ms):
    nn = ms.nn
    x2 = ms.Tensor(_draws(90, 1, 2, 2, 2))
    indices2 = ms.Tensor(np.array([[[[0, 3], [9, 14]], [[5, 2], [13, 10]]]], np.int64))
    x1 = ms.Tensor(_draws(91, 2, 1, 3))
    indices1 = ms.Tensor(np.array([[[1, 2, 4]], [[0, 3, 4]]], np.int64))
    pooled, indices3 = nn.MaxPool3d(2, 2, "pad", 0, return_indices=True)(
        ms.Tensor(_draws(92, 1, 1, 4, 4, 4)))
    outputs = [nn.MaxUnpool2d(2)(x2, indices2), nn.MaxUnpool2d(2, 2)(x2, indices2, (5, 5)),
               nn.MaxUnpool1d(2)(x1, indices1), nn.MaxUnpool1d(3, 2, 1)(x1, indices1),
               nn.MaxUnpool3d(2)(pooled, indices3)]
    grad = ms.grad(lambda value: (nn.MaxUnpool2d(2)(value, indices2) ** 2).sum())(x2)
    return [[output.asnumpy() for output in outputs], grad.asnumpy(),
            _inside(nn.MaxUnpool2d(2))]


@case
def case_nn_more_metrics_roc(ms):
    train = ms.train
    binary = _evaluate(train.ROC(pos_label=1), [(np.array([0.1, 0.4, 0.35, 0.8, 0.4]),
                                                 np.array([0, 0, 1, 1, 1]))])
    positive_two = _evaluate(train.ROC(), [(ms.Tensor(np.array([0.2, 0.7, 0.7, 0.1])),
                                            np.array([1, 0, 1, 0]))])
    square = _evaluate(train.ROC(class_num=3), [(_SCORES[:3], np.array([0, 1, 2]))])
    wide = _evaluate(train.ROC(class_num=3), [(_SCORES[:4], np.array([2, 0, 1, 0]))])
    return [binary, positive_two, square, wide,
            _failure(lambda: train.ROC(class_num=1.0)),
            _failure(lambda: train.ROC().eval()),
            _failure(lambda: train.ROC(class_num=2).update(np.ones(3), np.ones(3))),
            _failure(lambda: train.ROC(class_num=3, pos_label=1).update(_SCORES, _CLASSES)),
            _failure(lambda: train.ROC(class_num=2).update(_SCORES, _CLASSES)),
            _failure(lambda: train.ROC().update(np.ones((2, 2, 2)), np.ones(2))),
            _failure(lambda: _evaluate(train.ROC(), [(np.ones(3), np.ones(3))])),
            _failure(lambda: _evaluate(train.ROC(), [(np.ones(3), np.zeros(3))]))]
