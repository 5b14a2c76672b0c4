"""MindSpore cases: the tutorials, rewritten (see mindspore_cases.py for the conventions).

MindSpore 2.x's tutorials on autograd, higher-order derivation, hooks, mixed
precision, static graph and training, each snippet retold with small data and
fixed weights (set with ``set_data``) so that its results are comparable: the
same API calls in the same structure, only the framework import changes.
Static-graph cases compile under ``@ms.jit`` or ``set_context(mode=GRAPH_MODE)``
and restore PyNative mode before they return.
"""

from __future__ import annotations

import numpy as np

from . import case


def _arrays(values) -> list:
    if isinstance(values, (tuple, list)):
        return [_arrays(value) for value in values]
    return values.asnumpy()


def _tensor(ms, values, dtype=np.float32) -> object:
    return ms.Tensor(np.array(values, dtype))


def _in_graph_mode(function):
    """Run ``function(ms)`` with ``GRAPH_MODE`` set, PyNative mode restored afterwards."""
    def run(ms):
        ms.set_context(mode=ms.GRAPH_MODE)
        try:
            return function(ms)
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    run.__name__ = function.__name__
    return run


# ---------------------------------------------------------------- autograd (beginner/autograd)


def _autograd_data(ms):
    """The tutorial's x, y, w, b: ones(5), zeros(3), and fixed weights (not random)."""
    x = ms.ops.ones(5, ms.float32)
    y = ms.ops.zeros(3, ms.float32)
    w = ms.Parameter(_tensor(ms, np.linspace(-1.0, 1.0, 15).reshape(5, 3)), name="w")
    b = ms.Parameter(_tensor(ms, [0.1, -0.2, 0.3]), name="b")
    return x, y, w, b


def _logits_loss(ms, x, y, w, b):
    z = ms.ops.matmul(x, w) + b
    loss = ms.ops.binary_cross_entropy_with_logits(z, y, ms.ops.ones_like(z),
                                                   ms.ops.ones_like(z))
    return loss, z


@case
def case_tutorial_autograd_function_grad(ms):
    x, y, w, b = _autograd_data(ms)

    def function(x, y, w, b):
        return _logits_loss(ms, x, y, w, b)[0]

    loss = function(x, y, w, b)
    grad_fn = ms.grad(function, (2, 3))
    grads = grad_fn(x, y, w, b)
    return [loss.asnumpy(), _arrays(grads), repr(w), str(loss.dtype), repr(ms.float32)]


@case
def case_tutorial_autograd_stop_gradient_and_aux(ms):
    x, y, w, b = _autograd_data(ms)

    def function_with_logits(x, y, w, b):
        return _logits_loss(ms, x, y, w, b)

    def function_stop_gradient(x, y, w, b):
        loss, z = _logits_loss(ms, x, y, w, b)
        return loss, ms.ops.stop_gradient(z)

    both = ms.grad(function_with_logits, (2, 3))(x, y, w, b)
    stopped = ms.grad(function_stop_gradient, (2, 3))(x, y, w, b)
    aux = ms.grad(function_with_logits, (2, 3), has_aux=True)(x, y, w, b)
    return [_arrays(both), _arrays(stopped), _arrays(aux[0]), _arrays(aux[1])]


@case
def case_tutorial_autograd_network_value_and_grad(ms):
    class Network(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(_tensor(ms, np.linspace(-1.0, 1.0, 15).reshape(5, 3)),
                                  name="w")
            self.b = ms.Parameter(_tensor(ms, [0.1, -0.2, 0.3]), name="b")

        def construct(self, x):
            return ms.ops.matmul(x, self.w) + self.b

    model = Network()
    loss_fn = ms.nn.BCEWithLogitsLoss()
    x = ms.ops.ones(5, ms.float32)
    y = ms.ops.zeros(3, ms.float32)

    def forward_fn(x, y):
        z = model(x)
        return loss_fn(z, y)

    grad_fn = ms.value_and_grad(forward_fn, None, weights=model.trainable_params())
    loss, grads = grad_fn(x, y)
    return [loss.asnumpy(), _arrays(grads), [p.name for p in model.trainable_params()],
            repr(model), repr(loss_fn)]


@case
def case_tutorial_autograd_same_tensor_twice(ms):
    def product(x, y):
        return (x * y * y).sum()

    def squared_times(a, b):
        return (a * a * b).sum()

    def first_derivative(a, b):
        return ms.grad(squared_times)(a, b)

    x = _tensor(ms, [1.0, 2.0, 3.0])
    y = _tensor(ms, [1.0, 1.0, 1.0])
    with_ids = ms.grad(product, (0, 1), return_ids=True)(x, x)
    sens = ms.ops.GradOperation(get_all=True, sens_param=True)(lambda a, b: a * b)(x, x, x)
    return [_arrays(ms.grad(product, (0, 1))(x, x)), _arrays(ms.grad(product, 0)(x, x)),
            _arrays(ms.grad(product, (0, 1))(x, y)), [with_ids[1][0], _arrays(with_ids[1][1])],
            _arrays(ms.ops.GradOperation(get_all=True)(product)(x, x)), _arrays(sens),
            _arrays(ms.grad(first_derivative, (0, 1))(x, x))]


@case
@_in_graph_mode
def case_tutorial_autograd_same_tensor_twice_graph_mode(ms):
    def product(x, y):
        return (x * y * y).sum()

    x = _tensor(ms, [1.0, 2.0, 3.0])
    y = _tensor(ms, [1.0, 1.0, 1.0])
    return _arrays([ms.grad(product, (0, 1))(x, x), ms.grad(product, (0, 1))(x, y)])


@case
def case_tutorial_autograd_int_parameter(ms):
    step = ms.Parameter(ms.Tensor(3, ms.int32), name="step")
    weights = ms.Parameter(_tensor(ms, [1.0, 2.0]), name="weights")
    described = [step.requires_grad, weights.requires_grad, repr(step), str(step.dtype),
                 repr(ms.int32), repr(ms.float16), str(ms.bool_), repr(step.clone())]

    class Counter(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(_tensor(ms, [1.0, 2.0]), name="w")
            self.step = ms.Parameter(ms.Tensor(3, ms.int32), name="step")

        def construct(self, x):
            return (x * self.w).sum()

    net = Counter()
    trainable = [p.name for p in net.trainable_params()]
    net.step.requires_grad = False
    loss, grads = ms.value_and_grad(net, None, net.trainable_params())(_tensor(ms, [1.0, 1.0]))
    return described + [trainable, [p.name for p in net.trainable_params()], loss.asnumpy(),
                        _arrays(grads), repr(net.step)]


# ------------------------------------------------------ higher-order derivation (GradOperation)


def _grad_cell(ms, network, **options):
    """The tutorial's ``Grad``/``GradSec`` Cells: a GradOperation of ``network``."""
    class Grad(ms.nn.Cell):
        def __init__(self, network):
            super().__init__()
            self.grad = ms.ops.GradOperation(**options)
            self.network = network

        def construct(self, *inputs):
            return self.grad(self.network)(*inputs)

    return Grad(network)


@case(rtol=1e-5, atol=1e-6)
def case_tutorial_higher_order_single_input_single_output(ms):
    class Net(ms.nn.Cell):
        def construct(self, x):
            return ms.ops.sin(x)

    x = _tensor(ms, [3.1415926, 0.5])
    first = _grad_cell(ms, Net())
    second = _grad_cell(ms, first)
    third = _grad_cell(ms, second)
    return _arrays([first(x), second(x), third(x)])


@case(rtol=1e-5, atol=1e-6)
def case_tutorial_higher_order_single_input_multiple_outputs(ms):
    class Net(ms.nn.Cell):
        def construct(self, x):
            return ms.ops.sin(x), ms.ops.cos(x)

    x = _tensor(ms, [3.1415926, 1.0])
    first = _grad_cell(ms, Net())
    second = _grad_cell(ms, first)
    return _arrays([first(x), second(x)])


@case(rtol=1e-5, atol=1e-6)
def case_tutorial_higher_order_multiple_inputs_outputs(ms):
    class Net(ms.nn.Cell):
        def construct(self, x, y):
            return ms.ops.sin(x) - ms.ops.cos(y), ms.ops.cos(x) - ms.ops.sin(y)

    x = _tensor(ms, [3.1415926, 0.5])
    y = _tensor(ms, [-3.1415926, 2.0])
    first = _grad_cell(ms, Net(), get_all=True)
    second = _grad_cell(ms, first, get_all=True)
    return _arrays([first(x, y), second(x, y)])


@case(rtol=1e-5, atol=1e-6)
def case_tutorial_higher_order_functional_grad_of_grad(ms):
    def sine(x):
        return ms.ops.sin(x)

    x = _tensor(ms, [0.0, 1.0, 2.0])
    first = ms.grad(sine)
    second = ms.grad(first)
    third = ms.grad(second)
    return _arrays([first(x), second(x), third(x)])


@case(rtol=1e-5, atol=1e-6)
def case_tutorial_forward_reverse_jvp_vjp(ms):
    class Net(ms.nn.Cell):
        def construct(self, x, y):
            return x ** 3 + y

    net = Net()
    x = _tensor(ms, [[1, 2], [3, 4]])
    y = _tensor(ms, [[1, 2], [3, 4]])
    v = _tensor(ms, [[1, 1], [1, 1]])
    output, jvp_out = ms.jvp(net, (x, y), (v, v))
    value, vjp_fn = ms.vjp(net, x, y)
    return _arrays([output, jvp_out, value, vjp_fn(v)])


# ------------------------------------------------------------------------------- hooks


@case
def case_tutorial_hooks_hook_backward(ms):
    seen: list = []

    def hook_fn(grad):
        seen.append(_arrays(grad))

    hook = ms.ops.HookBackward(hook_fn)

    def net(x, y):
        z = x * y
        z = hook(z)
        return z * y

    grads = ms.grad(net, grad_position=(0, 1))(ms.Tensor(1, ms.float32),
                                                ms.Tensor(2, ms.float32))
    return [_arrays(grads), seen]


@case
def case_tutorial_hooks_tensor_register_hook(ms):
    seen: list = []

    def double(grad):
        seen.append(grad.asnumpy())
        return grad * 2

    def net(x):
        y = x * 3
        y.register_hook(double)
        return (y * y).sum()

    x = _tensor(ms, [1.0, -2.0])
    return [_arrays(ms.grad(net)(x)), seen]


@case
def case_tutorial_hooks_insert_gradient_of(ms):
    a, b = _tensor(ms, [1.0]), _tensor(ms, [0.2])

    def clip_gradient(dx):
        ret = dx
        if ret > a:
            ret = a
        if ret < b:
            ret = b
        return ret

    clip = ms.ops.InsertGradientOf(clip_gradient)

    def clip_test(x, y):
        return clip(x) * clip(y)

    x, y = _tensor(ms, [1.1]), _tensor(ms, [0.1])
    return [_arrays(clip_test(x, y)),
            _arrays(ms.ops.GradOperation(get_all=True)(clip_test)(x, y))]


def _dense_relu(ms):
    """Dense(2, 2) with fixed weights followed by ReLU, as a SequentialCell."""
    dense = ms.nn.Dense(2, 2)
    dense.weight.set_data(_tensor(ms, [[1.0, -1.0], [0.5, 2.0]]))
    dense.bias.set_data(_tensor(ms, [0.1, -0.3]))
    return ms.nn.SequentialCell([dense, ms.nn.ReLU()])


@case
def case_tutorial_hooks_cell_forward_and_backward(ms):
    log: list = []

    def forward_pre_hook_fn(cell, inputs):
        log.append(["forward_pre", _arrays(inputs)])

    def forward_hook_fn(cell, inputs, outputs):
        log.append(["forward", _arrays(outputs)])

    def backward_pre_hook_fn(cell, grad_output):
        log.append(["backward_pre", _arrays(grad_output)])

    def backward_hook_fn(cell, grad_input, grad_output):
        log.append(["backward", _arrays(grad_input), _arrays(grad_output)])

    net = _dense_relu(ms)
    dense = net[0]
    handles = [dense.register_forward_pre_hook(forward_pre_hook_fn),
               dense.register_forward_hook(forward_hook_fn),
               dense.register_backward_pre_hook(backward_pre_hook_fn),
               dense.register_backward_hook(backward_hook_fn)]
    x = _tensor(ms, [[1.0, 2.0]])
    grads = ms.grad(net, 0, net.trainable_params())(x)
    hooked = list(log)
    for handle in handles:
        handle.remove()
    log.clear()
    net(x)
    return [_arrays(grads), hooked, log]


# --------------------------------------------------------------------- mixed precision (amp)


def _small_network(ms):
    """Flatten + Dense(4, 3) + ReLU + Dense(3, 2), fixed weights."""
    class Network(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.flatten = ms.nn.Flatten()
            self.dense_relu_sequential = ms.nn.SequentialCell(
                ms.nn.Dense(4, 3), ms.nn.ReLU(), ms.nn.Dense(3, 2))

        def construct(self, x):
            return self.dense_relu_sequential(self.flatten(x))

    net = Network()
    for index, parameter in enumerate(net.trainable_params()):
        shape = parameter.shape
        size = int(np.prod(shape))
        values = np.linspace(-0.5, 0.5, size).reshape(shape) * (1 + index % 2)
        parameter.set_data(_tensor(ms, values))
    return net


def _batch(ms):
    data = _tensor(ms, np.linspace(-1.0, 1.0, 12).reshape(3, 2, 2))
    label = ms.Tensor(np.array([0, 1, 1], np.int32))
    return data, label


@case(rtol=2e-3, atol=2e-3)
def case_tutorial_mixed_precision_auto_o2(ms):
    model = _small_network(ms)
    model = ms.amp.auto_mixed_precision(model, "O2")
    data, _ = _batch(ms)
    logits = model(data)
    return [logits.asnumpy().astype(np.float32), str(logits.dtype),
            [str(p.dtype) for p in model.trainable_params()]]


@case(rtol=2e-3, atol=2e-3)
def case_tutorial_mixed_precision_loss_scaler_train_step(ms):
    model = _small_network(ms)
    model = ms.amp.auto_mixed_precision(model, "O2")
    loss_fn = ms.nn.CrossEntropyLoss()
    optimizer = ms.nn.SGD(model.trainable_params(), 1e-1)
    loss_scaler = ms.amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=2)

    def forward_fn(data, label):
        logits = model(data)
        loss = loss_fn(logits, label)
        loss = loss_scaler.scale(loss)
        return loss, logits

    grad_fn = ms.value_and_grad(forward_fn, None, model.trainable_params(), has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        loss = loss_scaler.unscale(loss)
        is_finite = ms.amp.all_finite(grads)
        if is_finite:
            grads = loss_scaler.unscale(grads)
            optimizer(grads)
        loss_scaler.adjust(is_finite)
        return loss

    data, label = _batch(ms)
    losses = [float(train_step(data, label).asnumpy()) for _ in range(3)]
    return [losses, float(loss_scaler.scale_value.asnumpy()),
            [p.asnumpy().astype(np.float32) for p in model.trainable_params()]]


@case
def case_tutorial_mixed_precision_overflow_skips_update(ms):
    loss_scaler = ms.amp.DynamicLossScaler(scale_value=2 ** 16, scale_factor=2, scale_window=50)
    grads = (_tensor(ms, [1.0, np.inf]), _tensor(ms, [2.0]))
    is_finite = ms.amp.all_finite(grads)
    loss_scaler.adjust(is_finite)
    finite = ms.amp.all_finite((_tensor(ms, [1.0]),))
    scaled = loss_scaler.scale((_tensor(ms, [1.0]), _tensor(ms, [3.0])))
    return [bool(is_finite), bool(finite), float(loss_scaler.scale_value.asnumpy()),
            _arrays(scaled), _arrays(loss_scaler.unscale(_tensor(ms, [2.0 ** 15])))]


@case(rtol=2e-3, atol=2e-3)
def case_tutorial_mixed_precision_to_float(ms):
    model = _small_network(ms)
    model.dense_relu_sequential.to_float(ms.float16)
    data, _ = _batch(ms)
    logits = model(data)
    return [logits.asnumpy().astype(np.float32), str(logits.dtype),
            str(model.trainable_params()[0].dtype)]


@case(rtol=2e-3, atol=2e-3)
def case_tutorial_mixed_precision_static_loss_scaler(ms):
    model = ms.amp.auto_mixed_precision(_sequential_network(ms), "O1")
    loss_fn = ms.nn.CrossEntropyLoss()
    optimizer = ms.nn.Momentum(model.trainable_params(), learning_rate=0.1, momentum=0.9)
    loss_scaler = ms.amp.StaticLossScaler(scale_value=2 ** 8)

    def forward_fn(data, label):
        loss = loss_fn(model(data), label)
        return loss_scaler.scale(loss)

    grad_fn = ms.value_and_grad(forward_fn, None, model.trainable_params())
    data, label = _batch(ms)
    losses = []
    for _ in range(2):
        loss, grads = grad_fn(data, label)
        grads = loss_scaler.unscale(grads)
        if ms.amp.all_finite(grads):
            optimizer(grads)
        losses.append(float(loss_scaler.unscale(loss).asnumpy()))
    return [losses, float(loss_scaler.scale_value.asnumpy()),
            [p.asnumpy().astype(np.float32) for p in model.trainable_params()]]


@case(rtol=2e-3, atol=2e-3)
def case_tutorial_mixed_precision_model_amp_level(ms):
    network = _small_network(ms)
    loss_fn = ms.nn.CrossEntropyLoss()
    optimizer = ms.nn.SGD(network.trainable_params(), learning_rate=0.1, loss_scale=1024.0)
    manager = ms.amp.FixedLossScaleManager(1024.0, drop_overflow_update=False)
    model = ms.train.Model(network, loss_fn, optimizer, amp_level="O2",
                           loss_scale_manager=manager)
    data = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(3, 2, 2)
    label = np.array([0, 1, 1], np.int32)
    dataset = ms.dataset.NumpySlicesDataset({"data": data, "label": label},
                                            shuffle=False).batch(3)
    model.train(2, dataset)
    return [p.asnumpy().astype(np.float32) for p in network.trainable_params()]


def _sequential_network(ms):
    """The small network as one SequentialCell (MindSpore's white-list rewrite reads the
    source of custom Cells, so it needs module-level ones), same weights."""
    model = ms.nn.SequentialCell(ms.nn.Flatten(), ms.nn.Dense(4, 3), ms.nn.ReLU(),
                                 ms.nn.Dense(3, 2))
    for parameter, source in zip(model.trainable_params(),
                                 _small_network(ms).trainable_params()):
        parameter.set_data(source)
    return model


@case(rtol=2e-3, atol=2e-3, same_message=True)
def case_tutorial_mixed_precision_custom_lists(ms):
    data, _ = _batch(ms)
    black = ms.amp.custom_mixed_precision(_sequential_network(ms),
                                          black_list=ms.amp.get_black_list())
    white = ms.amp.custom_mixed_precision(_sequential_network(ms), white_list=[ms.nn.Dense])
    black_out, white_out = black(data), white(data)
    errors = [_error_text(lambda: ms.amp.custom_mixed_precision(_sequential_network(ms))),
              _error_text(lambda: ms.amp.custom_mixed_precision(
                  _sequential_network(ms), white_list=[ms.nn.Dense], black_list=[])),
              _error_text(lambda: ms.amp.custom_mixed_precision(
                  _sequential_network(ms), black_list=ms.nn.Dense))]
    return [black_out.asnumpy().astype(np.float32), str(black_out.dtype),
            white_out.asnumpy().astype(np.float32), str(white_out.dtype),
            [cls.__name__ for cls in ms.amp.get_black_list()], errors]


# ------------------------------------------------------------------------------ static graph


@case
def case_tutorial_static_graph_jit_if_on_tensors(ms):
    @ms.jit
    def choose(x, y):
        if x > y:
            out = x - y
        else:
            out = y * 2
        return out

    return _arrays([choose(ms.Tensor(3.0), ms.Tensor(1.0)),
                    choose(ms.Tensor(1.0), ms.Tensor(3.0))])


@case
def case_tutorial_static_graph_jit_while_and_for(ms):
    @ms.jit
    def count_up(x):
        while x < 10:
            x = x + 3
        return x

    @ms.jit
    def accumulate(x):
        total = ms.ops.zeros_like(x)
        for i in range(4):
            total = total + x * i
        return total

    @ms.jit
    def loop_over_tuple(x):
        out = x
        for factor in (1, 2, 3):
            out = out * factor
        return out

    x = _tensor(ms, [1.0, 2.0])
    return _arrays([count_up(ms.Tensor(1, ms.int32)), accumulate(x), loop_over_tuple(x)])


@case
@_in_graph_mode
def case_tutorial_static_graph_mode_cell_control_flow(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = ms.Parameter(_tensor(ms, [0.5, -1.0]), name="weight")

        def construct(self, x):
            out = x * self.weight
            if out.sum() > 0:
                out = out + 1
            else:
                out = out - 1
            index = 0
            while index < 3:
                out = out * 2
                index += 1
            return out

    net = Net()
    return _arrays([net(_tensor(ms, [4.0, 1.0])), net(_tensor(ms, [1.0, 4.0]))])


@case
def case_tutorial_static_graph_jit_construct_and_grad(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = ms.Parameter(_tensor(ms, [0.5, -1.0]), name="weight")

        @ms.jit
        def construct(self, x):
            out = x * self.weight
            if out.sum() > 0:
                out = out + 1
            else:
                out = out - 1
            for _ in range(2):
                out = out * 2
            return out

    net = Net()
    x = _tensor(ms, [4.0, 1.0])
    grads = ms.grad(net, 0, net.trainable_params())(x)
    return _arrays([net(x), net(-x), grads[0], grads[1]])


@case
def case_tutorial_static_graph_jit_on_a_cell(ms):
    class Net(ms.nn.Cell):
        def construct(self, x):
            if x.sum() > 0:
                x = x + 1
            return x

    compiled = ms.jit(Net())
    return _arrays([compiled(_tensor(ms, [1.0, 2.0])), compiled(_tensor(ms, [-1.0, -2.0]))])


def _error_text(call) -> list:
    """``[type name, message]`` of what ``call()`` raises (the message's first line)."""
    try:
        call()
    except Exception as error:  # noqa: BLE001 - the case records whichever error it is
        return [type(error).__name__, str(error).split("\n")[0]]
    return ["no error", ""]


@case(same_message=True)
def case_tutorial_static_graph_jit_class(ms):
    @ms.jit_class
    class InnerNet:
        def __init__(self, val):
            self.number = val

        def act(self, x, y):
            return self.number * (x + y)

    @ms.jit
    def func(x, y):
        net = InnerNet(2)
        return net.act(x, y)

    class SomeCell(ms.nn.Cell):
        def construct(self, x):
            return x

    out = func(_tensor(ms, [1.0, 2.0]), _tensor(ms, [3.0, 4.0]))
    not_a_class = _error_text(lambda: ms.jit_class(func))
    return [out.asnumpy(), bool(InnerNet.__ms_class__), not_a_class[0],
            _error_text(lambda: ms.jit_class(SomeCell))[0]]


@case
@_in_graph_mode
def case_tutorial_static_graph_mutable_tuple_input(ms):
    class Net(ms.nn.Cell):
        def construct(self, z):
            x = z[0]
            y = z[1]
            return ms.ops.matmul(x, y)

    class GradNetWrtX(ms.nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.grad_op = ms.ops.GradOperation()

        def construct(self, z):
            gradient_function = self.grad_op(self.net)
            return gradient_function(z)

    x = _tensor(ms, [[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]])
    y = _tensor(ms, [[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]])
    z = ms.mutable((x, y))
    return _arrays(GradNetWrtX(Net())(z))


@case(same_message=True)
def case_tutorial_static_graph_mutable_checks(ms):
    values = [ms.mutable(2), ms.mutable(1.5), list(ms.mutable([1, 2], dynamic_len=True))]
    return values + [_error_text(lambda: ms.mutable(1, dynamic_len=True)),
                     _error_text(lambda: ms.mutable(1, dynamic_len=1)),
                     _error_text(lambda: ms.mutable("text"))]


@case
def case_tutorial_static_graph_python_syntax(ms):
    @ms.jit
    def containers(x):
        values = [x, x * 2]
        values.append(x * 3)
        pair = (x + 1, x - 1)
        table = {"a": x, "b": x * 4}
        total = values[0] + values[1] + values[2] + pair[0] * pair[1] + table["b"]
        return total, len(values), table["a"]

    out = containers(_tensor(ms, [1.0, 2.0]))
    return [out[0].asnumpy(), out[1], out[2].asnumpy()]


@case
def case_tutorial_static_graph_grad_of_jit(ms):
    @ms.jit
    def piecewise(x):
        if x.sum() > 0:
            y = x * x
        else:
            y = -x
        return y.sum()

    return _arrays([ms.grad(piecewise)(_tensor(ms, [1.0, 2.0])),
                    ms.grad(piecewise)(_tensor(ms, [-1.0, -2.0]))])


# ----------------------------------------------------------------- training (beginner/train)


@case(rtol=1e-5, atol=1e-6)
def case_tutorial_training_value_and_grad_loop(ms):
    model = _small_network(ms)
    loss_fn = ms.nn.CrossEntropyLoss()
    optimizer = ms.nn.SGD(model.trainable_params(), learning_rate=1e-1)

    def forward_fn(data, label):
        logits = model(data)
        loss = loss_fn(logits, label)
        return loss, logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    data, label = _batch(ms)
    model.set_train()
    losses = [float(train_step(data, label).asnumpy()) for _ in range(4)]
    model.set_train(False)
    pred = model(data)
    correct = int((pred.argmax(1) == label).asnumpy().sum())
    return [losses, correct, [p.asnumpy() for p in model.trainable_params()],
            [p.name for p in optimizer.parameters]]


@case(rtol=1e-5, atol=1e-6)
def case_tutorial_training_model_train_and_eval(ms):
    model_net = _small_network(ms)
    loss_fn = ms.nn.CrossEntropyLoss()
    optimizer = ms.nn.SGD(model_net.trainable_params(), learning_rate=1e-1)
    data = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 2, 2)
    label = np.array([0, 1, 1, 0, 1, 0], np.int32)
    dataset = ms.dataset.NumpySlicesDataset({"data": data, "label": label},
                                            shuffle=False).batch(3)
    model = ms.train.Model(model_net, loss_fn=loss_fn, optimizer=optimizer,
                           metrics={"accuracy"})
    model.train(2, dataset)
    metrics = model.eval(dataset)
    return [metrics, [p.asnumpy() for p in model_net.trainable_params()]]


@case(rtol=1e-5, atol=1e-6)
def case_tutorial_training_train_and_test_loops(ms):
    model = _small_network(ms)
    loss_fn = ms.nn.CrossEntropyLoss()
    optimizer = ms.nn.SGD(model.trainable_params(), learning_rate=1e-1)
    data = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(6, 2, 2)
    label = np.array([0, 1, 1, 0, 1, 0], np.int32)
    dataset = ms.dataset.NumpySlicesDataset({"image": data, "label": label},
                                            shuffle=False).batch(2)

    def forward_fn(data, label):
        logits = model(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    def train_loop(model, dataset):
        size = dataset.get_dataset_size()
        model.set_train()
        return [[batch, size, float(train_step(data, label).asnumpy())]
                for batch, (data, label) in enumerate(dataset.create_tuple_iterator())]

    def test_loop(model, dataset, loss_fn):
        num_batches = dataset.get_dataset_size()
        model.set_train(False)
        total, test_loss, correct = 0, 0, 0
        for data, label in dataset.create_tuple_iterator():
            pred = model(data)
            total += len(data)
            test_loss += float(loss_fn(pred, label).asnumpy())
            correct += int((pred.argmax(1) == label).asnumpy().sum())
        return [test_loss / num_batches, correct / total]

    history = []
    for _ in range(2):
        history.append(train_loop(model, dataset))
        history.append(test_loop(model, dataset, loss_fn))
    return history
