"""MindSpore cases: ``mindspore.common.initializer`` and the layers with MindSpore's defaults
(see mindspore_cases.py for the conventions). Layers get fixed weights
(``weight_init=ms.Tensor(array)``) so that outputs and gradients are comparable."""

from __future__ import annotations

import numpy as np

from . import case


def _draws(seed: int, *shape: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


_IMAGE = _draws(1, 2, 2, 5, 5)
_KERNEL = _draws(2, 4, 2, 3, 3)
_BIAS = _draws(3, 4)
_VECTOR = np.array([-4.0, -1.5, -0.3, 0.0, 0.4, 2.0, 3.5], np.float32)


def _arrays(values) -> list:
    """A Tensor or a (nested) tuple/list of Tensors as NumPy arrays."""
    if isinstance(values, (tuple, list)):
        return [_arrays(value) for value in values]
    return values.asnumpy()


def _output_and_grads(ms, net, *inputs) -> list:
    """``net(*inputs)``, and the gradients of its sum w.r.t. the first input and the
    trainable Parameters."""
    def forward(*arguments):
        return net(*arguments).sum()
    grad_function = ms.value_and_grad(forward, grad_position=0, weights=net.trainable_params())
    _, (input_grad, weight_grads) = grad_function(*inputs)
    return [_arrays(net(*inputs)), _arrays(input_grad), _arrays(weight_grads)]


def _inside(cell) -> str:
    """The text inside a Cell's ``repr`` brackets (``Name(...)`` in MindSpore 2.10)."""
    return repr(cell)[len(type(cell).__name__) + 1:-1].strip()


def _head(cell) -> str:
    """A conv's :func:`_inside` up to ``weight_init`` (the rest shows an object address)."""
    return _inside(cell).split(", weight_init=")[0]


# ------------------------------------------------------------------------ initializer


@case
def case_layers_initializer_deterministic(ms):
    init = ms.common.initializer
    values = [init.initializer("ones", [2, 3]), init.initializer(init.Zero(), (2,)),
              init.initializer(init.Constant(2.5), 3), init.initializer(3, (2,), ms.int32),
              init.initializer("Identity", (2, 3)), init.initializer(init.One(), [1, 2],
                                                                      ms.float16)]
    return [[value.asnumpy() for value in values], [str(value.dtype) for value in values]]


@case
def case_layers_initializer_fills_numpy_array_in_place(ms):
    init = ms.common.initializer
    ones, constant = np.zeros((2, 2), np.float32), np.zeros(3, np.float64)
    returned = [init.One()(ones), init.Constant(-1.5)(constant)]
    return [ones, constant, returned[0] is None, returned[1] is None]


@case
def case_layers_initializer_tensor_is_returned(ms):
    init = ms.common.initializer
    tensor = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    result = init.initializer(tensor, [2, 3])
    return [result.asnumpy(), result is tensor]


@case
def case_layers_initializer_random_statistics(ms):
    init = ms.common.initializer
    shape = (64, 32)
    checks = {}
    normal = init.initializer(init.Normal(sigma=0.2, mean=1.0), shape).asnumpy()
    checks["normal"] = [abs(normal.mean() - 1.0) < 0.02, abs(normal.std() - 0.2) < 0.02]
    uniform = init.initializer("uniform", shape).asnumpy()
    checks["uniform"] = [bool(np.abs(uniform).max() <= 0.07), bool(uniform.max() > 0.06)]
    truncated = init.initializer(init.TruncatedNormal(sigma=1.0, a=-0.5, b=0.5), shape)
    checks["truncated"] = bool(np.abs(truncated.asnumpy()).max() <= 0.5)
    bound = (6 / (64 + 32)) ** 0.5
    xavier = init.initializer(init.XavierUniform(), shape).asnumpy()
    checks["xavier_uniform"] = [bool(np.abs(xavier).max() <= bound),
                                bool(np.abs(xavier).max() > 0.9 * bound)]
    xavier_normal = init.initializer("xavier_normal", shape).asnumpy()
    checks["xavier_normal"] = bool(abs(xavier_normal.std() - (2 / 96) ** 0.5) < 0.015)
    he_bound = (2.0 ** 0.5) * (3 / 32) ** 0.5
    he = init.initializer(init.HeUniform(), shape).asnumpy()
    checks["he_uniform"] = [bool(np.abs(he).max() <= he_bound),
                            bool(np.abs(he).max() > 0.9 * he_bound)]
    he_out = init.initializer(init.HeNormal(mode="fan_out", nonlinearity="relu"), shape)
    checks["he_normal"] = bool(abs(he_out.asnumpy().std() - (2 / 64) ** 0.5) < 0.015)
    return [checks, [list(normal.shape), str(he_out.dtype)]]


@case(same_message=True)
def case_layers_initializer_unknown_name(ms):
    return ms.common.initializer.initializer("foo", (2,))


@case(same_message=True)
def case_layers_initializer_bad_shape(ms):
    return ms.common.initializer.initializer("ones", (2, 0))


@case(same_message=True)
def case_layers_initializer_bad_init_type(ms):
    return ms.common.initializer.initializer([1.0], (2,))


@case(same_message=True)
def case_layers_initializer_tensor_shape_mismatch(ms):
    return ms.common.initializer.initializer(ms.Tensor(np.ones(3, np.float32)), [2])


# ------------------------------------------------------------------------ convolutions


@case(rtol=1e-5, atol=1e-5)
def case_layers_conv2d_same_stride_with_bias(ms):
    conv = ms.nn.Conv2d(2, 4, 3, stride=2, has_bias=True, weight_init=ms.Tensor(_KERNEL),
                        bias_init=ms.Tensor(_BIAS))
    return _output_and_grads(ms, conv, ms.Tensor(_IMAGE))


@case(rtol=1e-5, atol=1e-5)
def case_layers_conv2d_pad_mode_pad_and_valid(ms):
    padded = ms.nn.Conv2d(2, 4, 3, pad_mode="pad", padding=(1, 0, 2, 1),
                          weight_init=ms.Tensor(_KERNEL))
    valid = ms.nn.Conv2d(2, 4, 3, pad_mode="valid", dilation=2, weight_init=ms.Tensor(_KERNEL))
    grouped = ms.nn.Conv2d(2, 4, 3, group=2, weight_init=ms.Tensor(_KERNEL[:, :1]))
    image = ms.Tensor(_IMAGE)
    return [_output_and_grads(ms, padded, image), valid(image).asnumpy(),
            grouped(image).asnumpy()]


@case
def case_layers_conv2d_defaults(ms):
    conv = ms.nn.Conv2d(2, 4, 3)
    named = [(p.name, list(p.shape), p.requires_grad) for p in conv.get_parameters()]
    with_bias = ms.nn.Conv2d(2, 4, (3, 2), stride=2, pad_mode="pad", padding=1, has_bias=True)
    fan_in_bound = 1 / (2 * 3 * 2) ** 0.5
    return [named, _head(conv), _head(with_bias),
            _inside(ms.nn.Conv2d(2, 4, 3, weight_init="ones")).split("weight_init=")[1],
            list(conv(ms.Tensor(_IMAGE)).shape),
            bool(np.abs(with_bias.bias.asnumpy()).max() <= fan_in_bound),
            bool(np.abs(conv.weight.asnumpy()).max() <= 1 / 18 ** 0.5)]


@case(rtol=1e-5, atol=1e-5)
def case_layers_conv1d_weight_layout(ms):
    kernel = _KERNEL[:, :, 0, :]
    conv = ms.nn.Conv1d(2, 4, 3, stride=2, pad_mode="pad", padding=1, dilation=2,
                        has_bias=True, weight_init=ms.Tensor(kernel),
                        bias_init=ms.Tensor(_BIAS))
    signal = ms.Tensor(_IMAGE[:, :, 0, :])
    same = ms.nn.Conv1d(2, 4, 3, weight_init=ms.Tensor(kernel))
    return [_output_and_grads(ms, conv, signal), same(signal).asnumpy(),
            list(ms.nn.Conv1d(2, 4, 3).weight.shape), _head(conv)]


@case(rtol=1e-5, atol=1e-5)
def case_layers_conv3d(ms):
    kernel = _draws(4, 2, 1, 2, 2, 2)
    volume = ms.Tensor(_IMAGE[:, :, :3, :].reshape(1, 1, 4, 3, 5))
    conv = ms.nn.Conv3d(1, 2, 2, weight_init=ms.Tensor(kernel))
    return [_output_and_grads(ms, conv, volume), _head(conv)]


# ------------------------------------------------------------------------ pooling


@case
def case_layers_pool2d_modes(ms):
    image = ms.Tensor(_IMAGE)
    pools = [ms.nn.MaxPool2d(), ms.nn.MaxPool2d(2, 2), ms.nn.MaxPool2d(3, 2, pad_mode="same"),
             ms.nn.MaxPool2d(3, 2, pad_mode="pad", padding=1),
             ms.nn.AvgPool2d(2, 2), ms.nn.AvgPool2d(3, 2, pad_mode="same"),
             ms.nn.AvgPool2d((2, 3), (1, 2), pad_mode="pad", padding=1,
                             count_include_pad=False)]
    return [[pool(image).asnumpy() for pool in pools], [_inside(pool) for pool in pools]]


@case(rtol=1e-5, atol=1e-6)
def case_layers_pool_gradients(ms):
    image = ms.Tensor(_IMAGE)
    max_grad = ms.grad(lambda x: ms.nn.MaxPool2d(3, 2, pad_mode="same")(x).sum())(image)
    avg_grad = ms.grad(lambda x: ms.nn.AvgPool2d(3, 2, pad_mode="same")(x).sum())(image)
    return [max_grad.asnumpy(), avg_grad.asnumpy()]


@case
def case_layers_pool1d(ms):
    signal = ms.Tensor(_IMAGE[:, :, 0, :])
    pools = [ms.nn.MaxPool1d(2, 2), ms.nn.AvgPool1d(3, 1), ms.nn.MaxPool1d(3, 2, pad_mode="same")]
    return [[pool(signal).asnumpy() for pool in pools], [_inside(pool) for pool in pools]]


# ------------------------------------------------------------------------ normalization


@case(rtol=1e-5, atol=1e-6)
def case_layers_batchnorm2d_train_then_eval(ms):
    bn = ms.nn.BatchNorm2d(2, momentum=0.8,
                           gamma_init=ms.Tensor(np.array([1.5, 0.5], np.float32)),
                           beta_init=ms.Tensor(np.array([0.1, -0.2], np.float32)))
    bn.set_train(True)
    image = ms.Tensor(_IMAGE)
    trained = _output_and_grads(ms, bn, image)
    moving = [bn.moving_mean.asnumpy(), bn.moving_variance.asnumpy()]
    bn.set_train(False)
    return [trained, moving, bn(image).asnumpy(),
            sorted(p.requires_grad for p in bn.get_parameters())]


@case(rtol=1e-5, atol=1e-6)
def case_layers_batchnorm_use_batch_statistics(ms):
    always = ms.nn.BatchNorm2d(2, use_batch_statistics=True)
    never = ms.nn.BatchNorm2d(2, use_batch_statistics=False, moving_mean_init=0.5,
                              moving_var_init=4.0)
    image = ms.Tensor(_IMAGE)
    return [always(image).asnumpy(), always.moving_mean.asnumpy(),
            never.set_train(True)(image).asnumpy(), never.moving_variance.asnumpy()]


@case(rtol=1e-5, atol=1e-6)
def case_layers_batchnorm1d(ms):
    bn = ms.nn.BatchNorm1d(2).set_train(True)
    flat = bn(ms.Tensor(_IMAGE[:, :, 0, 0] * 2)).asnumpy()
    sequence = bn(ms.Tensor(_IMAGE[:, :, 0, :])).asnumpy()
    return [flat, sequence, bn.moving_mean.asnumpy(), bn.moving_variance.asnumpy()]


@case(same_message=True)
def case_layers_batchnorm2d_rejects_2d_input(ms):
    return ms.nn.BatchNorm2d(3)(ms.Tensor(np.ones((2, 3), np.float32)))


@case
def case_layers_batchnorm_repr(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.bn = ms.nn.BatchNorm2d(2)

    net = Net()
    return [_inside(net.bn),
            [p.name for p in net.get_parameters()]]


@case(rtol=1e-5, atol=1e-6)
def case_layers_layernorm(ms):
    gamma = _draws(5, 3, 5)
    beta = _draws(6, 3, 5)
    norm = ms.nn.LayerNorm((3, 5), begin_norm_axis=1, begin_params_axis=1,
                           gamma_init=ms.Tensor(gamma), beta_init=ms.Tensor(beta))
    last = ms.nn.LayerNorm((5,))
    x = ms.Tensor(_IMAGE[0, :, :3, :])
    return [_output_and_grads(ms, norm, x), last(x).asnumpy(), norm.epsilon,
            [p.name for p in norm.get_parameters()]]


@case(rtol=1e-5, atol=1e-6)
def case_layers_groupnorm(ms):
    norm = ms.nn.GroupNorm(2, 4, gamma_init=ms.Tensor(_BIAS), beta_init=ms.Tensor(-_BIAS))
    x = ms.Tensor(np.concatenate([_IMAGE, _IMAGE[:, ::-1] * 2], axis=1))
    return [_output_and_grads(ms, norm, x), _inside(norm)]


@case(rtol=1e-6, atol=1e-7)
def case_layers_embedding(ms):
    table = _draws(7, 5, 3)
    embedding = ms.nn.Embedding(5, 3, embedding_table=ms.Tensor(table))
    ids = ms.Tensor(np.array([[0, 4, 4], [2, 1, 0]], np.int32))

    def forward(indices):
        return (embedding(indices) * ms.Tensor(np.arange(3, dtype=np.float32))).sum()

    grads = ms.grad(forward, grad_position=None, weights=embedding.trainable_params())(ids)
    padded = ms.nn.Embedding(5, 3, padding_idx=1)
    return [embedding(ids).asnumpy(), _arrays(grads), padded.embedding_table.asnumpy()[1],
            [p.name for p in embedding.get_parameters()], str(embedding(ids).dtype),
            bool(np.abs(padded.embedding_table.asnumpy()).max() < 0.1)]


# ------------------------------------------------------------------------ activations, losses


@case(rtol=1e-4, atol=1e-6)
def case_layers_activations(ms):
    cells = [ms.nn.ELU(), ms.nn.CELU(2.0), ms.nn.HSwish(), ms.nn.HSigmoid(),
             ms.nn.SiLU(), ms.nn.ReLU6(), ms.nn.Mish(), ms.nn.Softsign(), ms.nn.LogSigmoid(),
             ms.nn.Tanhshrink(), ms.nn.Hardtanh(-2.0, 1.5), ms.nn.SoftShrink(0.3),
             ms.nn.HShrink(), ms.nn.Softmin(), ms.nn.GLU()]
    x = ms.Tensor(np.concatenate([_VECTOR, [1.0]]).astype(np.float32))
    results = []
    for cell in cells:
        output, input_grad, _ = _output_and_grads(ms, cell, x)
        results.append([output, input_grad, _inside(cell)])
    prelu = ms.nn.PReLU(2, ms.Tensor(np.array([0.1, 0.3], np.float32)))
    results.append([_output_and_grads(ms, prelu, ms.Tensor(_IMAGE[:, :, 0, :])),
                    _inside(prelu), list(ms.nn.PReLU().w.shape)])
    return results


@case(rtol=1e-5, atol=1e-6)
def case_layers_losses(ms):
    probabilities = ms.Tensor(np.array([[0.2, 0.9], [0.6, 0.1]], np.float32))
    targets = ms.Tensor(np.array([[0.0, 1.0], [1.0, 0.0]], np.float32))
    weight = ms.Tensor(np.array([1.0, 2.0], np.float32))
    full_weight = ms.Tensor(np.array([[1.0, 2.0], [0.5, 3.0]], np.float32))
    log_probabilities = ms.Tensor(np.log(np.array([[0.3, 0.7], [0.6, 0.4]], np.float32)))
    labels = ms.Tensor(np.array([1, 0], np.int32))
    x, y = ms.Tensor(_VECTOR), ms.Tensor(_VECTOR[::-1].copy())
    values = {
        "bce": ms.nn.BCELoss()(probabilities, targets),
        "bce_weighted_sum": ms.nn.BCELoss(full_weight, "sum")(probabilities, targets),
        "nll": ms.nn.NLLLoss()(log_probabilities, labels),
        "nll_weighted_none": ms.nn.NLLLoss(weight, reduction="none")(log_probabilities, labels),
        "nll_ignore": ms.nn.NLLLoss(ignore_index=0)(log_probabilities, labels),
        "kl_mean": ms.nn.KLDivLoss()(log_probabilities, targets),
        "kl_sum": ms.nn.KLDivLoss("sum")(log_probabilities, targets),
        "kl_batchmean": ms.nn.KLDivLoss("batchmean")(log_probabilities, targets),
        "huber": ms.nn.HuberLoss()(x, y),
        "huber_delta_none": ms.nn.HuberLoss("none", 2.0)(x, y),
    }
    reprs = [_inside(ms.nn.BCELoss()), _inside(ms.nn.HuberLoss()), _inside(ms.nn.KLDivLoss())]
    return [{name: value.asnumpy() for name, value in values.items()}, reprs]


@case(same_message=True)
def case_layers_loss_bad_reduction(ms):
    return ms.nn.BCELoss(reduction="average")


def _errors(factories) -> list:
    """``[type name, message]`` of what each factory raises (``None`` if it does not)."""
    outcomes = []
    for factory in factories:
        try:
            factory()
            outcomes.append(None)
        except (TypeError, ValueError) as error:
            outcomes.append([type(error).__name__, str(error).split("\n")[0]])
    return outcomes


@case
def case_layers_constructor_errors(ms):
    nn = ms.nn
    wrong_kernel = ms.Tensor(np.ones((4, 2, 2, 2), np.float32))
    return _errors([
        lambda: nn.Conv2d(2, 4, 3, pad_mode="foo"), lambda: nn.Conv2d(2, 4, 3, padding=1),
        lambda: nn.Conv2d(2, 4, 3, weight_init=wrong_kernel), lambda: nn.Conv2d(3, 4, 3, group=2),
        lambda: nn.Conv1d(2, 4, 3, weight_init=ms.Tensor(_KERNEL)),
        lambda: nn.MaxPool2d(2, pad_mode="foo"), lambda: nn.MaxPool2d(2, padding=1),
        lambda: nn.BatchNorm2d(0), lambda: nn.BatchNorm2d(2, momentum=1.5),
        lambda: nn.GroupNorm(3, 4), lambda: nn.LayerNorm(3),
        lambda: nn.Embedding(3, 2, padding_idx=5)])


# ------------------------------------------------------------------------ recurrent


def _set_weights(ms, net) -> list:
    """Fill every Parameter with fixed draws (seeded by its name); returns the names in
    the order of ``trainable_params``."""
    names = [p.name for p in net.trainable_params()]
    for param in net.trainable_params():
        seed = sorted(names).index(param.name) + 10
        param.set_data(ms.Tensor(0.5 * _draws(seed, *param.shape)))
    return names


def _recurrent_case(ms, net, hx=None) -> list:
    names = _set_weights(ms, net)
    x = ms.Tensor(_draws(30, 2, 4, 3))

    def forward(inputs):
        output, state = net(inputs) if hx is None else net(inputs, hx)
        states = state if isinstance(state, tuple) else (state,)
        return output.sum() + sum((s * s).sum() for s in states)

    grads = ms.grad(forward, grad_position=0, weights=net.trainable_params())(x)
    output, state = net(x) if hx is None else net(x, hx)
    return [names, _arrays(output), _arrays(state), _arrays(grads)]


@case(rtol=1e-4, atol=1e-5)
def case_layers_lstm_bidirectional_two_layers(ms):
    net = ms.nn.LSTM(3, 4, num_layers=2, batch_first=True, bidirectional=True)
    return _recurrent_case(ms, net)


@case(rtol=1e-4, atol=1e-5)
def case_layers_gru_with_initial_state(ms):
    net = ms.nn.GRU(3, 4)
    return _recurrent_case(ms, net, ms.Tensor(_draws(31, 1, 4, 4)))


@case(rtol=1e-4, atol=1e-5)
def case_layers_rnn_relu(ms):
    net = ms.nn.RNN(3, 4, nonlinearity="relu", batch_first=True, has_bias=False)
    return _recurrent_case(ms, net)


# ------------------------------------------------------------------------ transposed, wrappers


@case(rtol=1e-5, atol=1e-5)
def case_layers_conv2d_transpose(ms):
    kernel = _draws(8, 2, 4, 3, 3)
    image = ms.Tensor(_IMAGE[:1, :, :3, :3])
    results = []
    for keywords in [{"stride": 2}, {"stride": 2, "pad_mode": "valid"},
                     {"stride": 2, "pad_mode": "pad", "padding": 1},
                     {"stride": 2, "pad_mode": "pad", "padding": 1, "output_padding": 1},
                     {"stride": 2, "pad_mode": "pad", "padding": (0, 1, 1, 0)},
                     {"stride": 2, "dilation": 2, "has_bias": True,
                      "bias_init": ms.Tensor(_BIAS)}]:
        conv = ms.nn.Conv2dTranspose(2, 4, 3, weight_init=ms.Tensor(kernel), **keywords)
        results.append(_output_and_grads(ms, conv, image))
    small_kernel = ms.nn.Conv2dTranspose(2, 4, 2, stride=3,
                                         weight_init=ms.Tensor(kernel[:, :, :2, :2]))
    default = ms.nn.Conv2dTranspose(2, 4, 3, stride=2, pad_mode="pad", padding=1)
    return [results, small_kernel(image).asnumpy(), _head(default),
            [(p.name, list(p.shape)) for p in default.get_parameters()]]


@case(rtol=1e-6, atol=1e-7)
def case_layers_with_eval_cell(ms):
    dense = ms.nn.Dense(3, 2, weight_init=ms.Tensor(_KERNEL[0, 0, :2, :]),
                        bias_init=ms.Tensor(_BIAS[:2]))
    net = ms.nn.WithEvalCell(dense, ms.nn.MSELoss())
    data = ms.Tensor(_IMAGE[0, 0, :4, :3])
    label = ms.Tensor(_IMAGE[0, 1, :4, :2])
    loss, outputs, passed_label = net(data, label)
    cast = ms.nn.WithEvalCell(dense, ms.nn.MSELoss(), add_cast_fp32=True)
    return [loss.asnumpy(), outputs.asnumpy(), passed_label.asnumpy(),
            cast(data, label)[0].asnumpy(), [p.name for p in net.trainable_params()]]


@case(rtol=1e-4, atol=1e-5)
def case_layers_single_step_cells(ms):
    x = ms.Tensor(_draws(32, 4, 3))
    h = ms.Tensor(_draws(33, 4, 2))
    c = ms.Tensor(_draws(34, 4, 2))
    results = []
    for cell, state in [(ms.nn.RNNCell(3, 2, nonlinearity="relu"), h),
                        (ms.nn.GRUCell(3, 2), h), (ms.nn.LSTMCell(3, 2), (h, c)),
                        (ms.nn.RNNCell(3, 2, has_bias=False), h)]:
        names = _set_weights(ms, cell)

        def forward(inputs, cell=cell, state=state):
            out = cell(inputs, state)
            return sum((o * o).sum() for o in out) if isinstance(out, tuple) else out.sum()

        grads = ms.grad(forward, grad_position=0, weights=cell.trainable_params())(x)
        results.append([names, _arrays(cell(x, state)), _arrays(grads), _inside(cell)])
    return results


@case(rtol=1e-5, atol=1e-6)
def case_layers_adaptive_pooling_selu_mae_rmse(ms):
    image = ms.Tensor(_IMAGE)
    signal = ms.Tensor(_IMAGE[:, :, 0, :])
    pools = [ms.nn.AdaptiveAvgPool2d((2, 3)), ms.nn.AdaptiveAvgPool2d(1),
             ms.nn.AdaptiveMaxPool2d((3, 2))]
    outputs = [_output_and_grads(ms, pool, image)[:2] for pool in pools]
    outputs += [_output_and_grads(ms, pool, signal[..., :4])[:2]
                for pool in (ms.nn.AdaptiveAvgPool1d(2), ms.nn.AdaptiveMaxPool1d(2))]
    values, indices = ms.nn.AdaptiveMaxPool2d(2, return_indices=True)(image)
    x, y = ms.Tensor(_VECTOR), ms.Tensor(_VECTOR[::-1].copy())
    losses = [ms.nn.MAELoss()(x, y), ms.nn.MAELoss("sum")(x, y), ms.nn.MAELoss("none")(x, y),
              ms.nn.RMSELoss()(x, y)]
    return [outputs, values.asnumpy(), indices.asnumpy().astype(np.int64),
            ms.nn.SeLU()(x).asnumpy(), [loss.asnumpy() for loss in losses],
            [_inside(cell) for cell in (pools[0], pools[2], ms.nn.SeLU(), ms.nn.MAELoss())],
            [name for name, _ in ms.nn.RMSELoss().cells_and_names()]]


@case(same_message=True)
def case_layers_adaptive_pool1d_needs_divisible_length(ms):
    return ms.nn.AdaptiveAvgPool1d(3)(ms.Tensor(_IMAGE[:, :, 0, :]))


@case(rtol=1e-5, atol=1e-5)  # the gradients of a normalized sum are ~0 (rounding noise)
def case_layers_batchnorm3d_padding_dropout(ms):
    volume = ms.Tensor(_IMAGE.reshape(1, 2, 5, 2, 5))
    bn = ms.nn.BatchNorm3d(2, momentum=0.5).set_train(True)
    trained = _output_and_grads(ms, bn, volume)
    moving = [bn.bn2d.moving_mean.asnumpy(), bn.bn2d.moving_variance.asnumpy()]
    rows = ms.Tensor(_IMAGE[0, :, :3, :])
    image = ms.Tensor(_IMAGE[:1, :, :3, :])
    volume = ms.Tensor(_IMAGE[:1].reshape(1, 1, 2, 5, 5))
    pads = [(ms.nn.ZeroPad2d((1, 0, 2, 1)), image), (ms.nn.ConstantPad1d((1, 2), 0.5), rows),
            (ms.nn.ConstantPad2d(1, -1), image),
            (ms.nn.ConstantPad3d((1, 0, 0, 1, 1, 0), 2.0), volume),
            (ms.nn.ReflectionPad1d((1, 2)), rows), (ms.nn.ReflectionPad2d(1), image),
            (ms.nn.ReplicationPad1d(2), rows), (ms.nn.ReplicationPad2d((0, 1, 2, 0)), image),
            (ms.nn.ReplicationPad3d(1), volume)]
    padded = [_output_and_grads(ms, pad, x)[:2] for pad, x in pads]
    drops = [ms.nn.Dropout1d(), ms.nn.Dropout2d(0.3), ms.nn.Dropout3d()]
    for drop in drops:
        drop.set_train(False)
    outputs = [drop(ms.Tensor(_IMAGE)).asnumpy() for drop in drops]
    return [trained, moving, [p.name for p in bn.get_parameters()], padded, outputs,
            [_inside(cell) for cell in [pads[0][0], pads[1][0], *drops]]]


@case
def case_layers_padding_dropout_errors(ms):
    nn = ms.nn
    return _errors([lambda: nn.ZeroPad2d((1, 2, 3)), lambda: nn.ConstantPad1d(1, "a"),
                    lambda: nn.Dropout2d(1.5), lambda: nn.Dropout1d(1),
                    lambda: nn.BatchNorm3d(2)(ms.Tensor(_IMAGE))])


@case(rtol=1e-5, atol=1e-5)
def case_layers_conv2d_same_padding_splits(ms):
    image = ms.Tensor(_IMAGE)
    convs = [ms.nn.Conv2d(2, 4, 2, weight_init=ms.Tensor(_KERNEL[:, :, :2, :2])),
             ms.nn.Conv2d(2, 4, 3, dilation=2, weight_init=ms.Tensor(_KERNEL)),
             ms.nn.Conv2d(2, 4, (3, 2), stride=(3, 2), weight_init=ms.Tensor(_KERNEL[..., :2]))]
    return [_output_and_grads(ms, conv, image)[:2] for conv in convs]


@case(rtol=1e-5, atol=1e-6)
def case_layers_resampling(ms):
    image = ms.Tensor(_IMAGE[:, :, :4, :4])
    layers = [(ms.nn.PixelShuffle(2), ms.Tensor(_IMAGE[:, :, :4, :4].reshape(1, 4, 4, 4))),
              (ms.nn.PixelUnshuffle(2), image), (ms.nn.Unflatten(1, (2, 1)), image),
              (ms.nn.Upsample(scale_factor=2.0, recompute_scale_factor=True), image),
              (ms.nn.Upsample(size=(5, 7), mode="bilinear", align_corners=False), image),
              (ms.nn.Upsample(size=(6, 6), mode="bilinear", align_corners=True), image)]
    return [[_output_and_grads(ms, layer, x)[:2] for layer, x in layers],
            [_inside(layer) for layer, _ in layers[:4]]]


@case
def case_layers_upsample_refusals(ms):
    image = ms.Tensor(_IMAGE)
    return _errors([lambda: ms.nn.Upsample(scale_factor=2.0)(image),
                    lambda: ms.nn.Upsample(size=(6, 6), align_corners=True)(image),
                    lambda: ms.nn.Upsample(size=6, mode="linear")(image),
                    lambda: ms.nn.Upsample(size=6, mode="cubic")(image)])


@case(rtol=1e-5, atol=1e-5)
def case_layers_conv1d_transpose(ms):
    signal = ms.Tensor(_IMAGE[:, :, 0, :])
    results = []
    for keywords in [{"stride": 2}, {"stride": 2, "pad_mode": "valid"},
                     {"stride": 2, "pad_mode": "pad", "padding": 1, "dilation": 2},
                     {"has_bias": True}]:
        conv = ms.nn.Conv1dTranspose(2, 4, 3, **keywords)
        _set_weights(ms, conv)
        results.append(_output_and_grads(ms, conv, signal))
    conv = ms.nn.Conv1dTranspose(2, 4, 3, pad_mode="pad", padding=1)
    return [results, _head(conv), [(p.name, list(p.shape)) for p in conv.get_parameters()]]


@case(rtol=1e-5, atol=1e-6)
def case_layers_more_losses(ms):
    x = ms.Tensor(_IMAGE[0, 0, :3, :4])
    y = ms.Tensor(_IMAGE[0, 1, :3, :4])
    signs = ms.Tensor(np.sign(_IMAGE[1, 0, :3, :4]).astype(np.float32))
    row_signs = ms.Tensor(np.array([1, -1, 1], np.int32))
    binary = ms.Tensor((_IMAGE[1, 1, :3, :4] > 0).astype(np.float32))
    positive = ms.Tensor(np.abs(_IMAGE[1, 1, :3, :4]) + 0.1)
    cases = [(ms.nn.MarginRankingLoss(0.5), (x, y, signs)),
             (ms.nn.MarginRankingLoss(reduction="none"), (x, y, signs)),
             (ms.nn.CosineEmbeddingLoss(0.2), (x, y, row_signs)),
             (ms.nn.CosineEmbeddingLoss(reduction="none"), (x, y, row_signs)),
             (ms.nn.HingeEmbeddingLoss(0.7), (x, signs)),
             (ms.nn.MultiLabelSoftMarginLoss(), (x, binary)),
             (ms.nn.MultiLabelSoftMarginLoss(ms.Tensor(np.array([1.0, 2.0, 0.5, 1.0],
                                                                np.float32)), "none"),
              (x, binary)),
             (ms.nn.PoissonNLLLoss(), (x, positive)),
             (ms.nn.PoissonNLLLoss(log_input=False, full=True), (positive, positive * 2)),
             (ms.nn.GaussianNLLLoss(), (x, y, positive)),
             (ms.nn.GaussianNLLLoss(full=True, reduction="sum"), (x, y, positive))]
    results = []
    for loss, arguments in cases:
        value = loss(*arguments)
        grad = ms.grad(lambda first, loss=loss, rest=arguments[1:]: loss(first, *rest).sum())(
            arguments[0])
        results.append([value.asnumpy(), grad.asnumpy()])
    return results


@case(rtol=1e-5, atol=1e-6)
def case_layers_threshold_softmax2d_shuffle_lppool(ms):
    image = ms.Tensor(_IMAGE)
    layers = [(ms.nn.Threshold(0.1, -2.0), image), (ms.nn.Softmax2d(), image),
              (ms.nn.ChannelShuffle(2), ms.Tensor(_IMAGE.reshape(1, 4, 5, 5))),
              (ms.nn.LPPool2d(2, 2), image), (ms.nn.LPPool2d(3, (2, 3), stride=1), image),
              (ms.nn.LPPool1d(2, 2), ms.Tensor(_IMAGE[:, :, 0, :])),
              (ms.nn.LPPool1d(1, 3, stride=2, ceil_mode=True), ms.Tensor(_IMAGE[:, :, 0, :]))]
    return [[_output_and_grads(ms, layer, x)[:2] for layer, x in layers],
            [_inside(layer) for layer, _ in layers[:4]]]
