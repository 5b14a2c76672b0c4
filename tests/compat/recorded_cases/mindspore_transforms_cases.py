"""MindSpore cases: transforms (see mindspore_cases.py for the conventions).

``jvp``/``vjp``/``jacfwd``/``jacrev``/``vmap``, Cell hooks and a Cell's own
``bprop``, after MindSpore's autograd, higher-order derivation and hook
tutorials (fixed values). MindSpore compiles the functions ``jvp`` runs, so
they are ``def``s, never lambdas.
"""

from __future__ import annotations

import numpy as np

from . import case


def _arrays(values) -> list:
    if isinstance(values, (tuple, list)):
        return [_arrays(value) for value in values]
    return values.asnumpy()


def _error_line(call) -> list:
    """``[type name, first line of the message]`` of what ``call()`` raises (MindSpore appends
    its C++ call stack to some messages)."""
    try:
        call()
    except Exception as error:  # noqa: BLE001 - the case records whichever error it is
        return [type(error).__name__, str(error).split("\n")[0]]
    return ["no error", ""]


def _matrix(ms, values) -> object:
    return ms.Tensor(np.array(values, np.float32))


def _cube_plus(x, y):
    return x ** 3 + y


def _cube_plus_aux(x, y):
    return x ** 3 + y, y * 2


def _square(x):
    return x ** 2


# ------------------------------------------------------------------------ jvp / vjp


@case
def case_transforms_jvp_two_inputs(ms):
    x = _matrix(ms, [[1, 2], [3, 4]])
    v = _matrix(ms, [[1, 1], [1, 1]])
    return _arrays(ms.jvp(_cube_plus, (x, x), (v, v)))


@case
def case_transforms_jvp_single_tensor_and_aux(ms):
    x = _matrix(ms, [1.0, -2.0])
    plain = ms.jvp(_square, x, _matrix(ms, [0.5, 1.0]))
    with_aux = ms.jvp(_cube_plus_aux, (x, x), (_matrix(ms, [1, 0]), _matrix(ms, [0, 1])),
                      has_aux=True)
    return [len(plain), _arrays(plain), len(with_aux), _arrays(with_aux)]


@case(same_message=True)
def case_transforms_jvp_wrong_tangent_count(ms):
    x = _matrix(ms, [1.0])
    return _arrays(ms.jvp(_cube_plus, (x, x), (x,)))


@case
def case_transforms_vjp_structure(ms):
    x = _matrix(ms, [[1, 2], [3, 4]])
    y = _matrix(ms, [[5, 6], [7, 8]])
    out, vjp_fn = ms.vjp(_cube_plus, x, y)
    grads = vjp_fn(_matrix(ms, [[1, 0], [2, 1]]))
    single_out, single_fn = ms.vjp(_square, x)
    single = single_fn(_matrix(ms, [[1, 1], [1, 1]]))
    return [_arrays(out), type(grads).__name__, _arrays(grads), type(single).__name__,
            len(single), _arrays(single), _arrays(single_out)]


@case
def case_transforms_vjp_has_aux(ms):
    x = _matrix(ms, [1.0, 2.0])
    y = _matrix(ms, [3.0, 4.0])
    result = ms.vjp(_cube_plus_aux, x, y, has_aux=True)
    out, vjp_fn, aux = result
    return [len(result), _arrays(out), _arrays(aux), _arrays(vjp_fn(_matrix(ms, [1, 1])))]


@case(same_message=True)
def case_transforms_vjp_has_aux_single_output(ms):
    return _arrays(ms.vjp(_square, _matrix(ms, [1.0]), has_aux=True)[0])


@case
def case_transforms_vjp_weights(ms):
    w = ms.Parameter(_matrix(ms, [3.0, 4.0]), name="w")

    def scaled(x):
        return x * w

    x = _matrix(ms, [1.0, 2.0])
    _, by_parameter = ms.vjp(scaled, x, weights=w)
    _, by_list = ms.vjp(scaled, x, weights=[w])
    v = _matrix(ms, [1.0, -1.0])
    return [_arrays(by_parameter(v)), _arrays(by_list(v))]


@case
def case_transforms_vjp_tuple_output(ms):
    def both(x, y):
        return x * y, x + y

    out, vjp_fn = ms.vjp(both, _matrix(ms, [1.0, 2.0]), _matrix(ms, [3.0, -1.0]))
    return [_arrays(out), _arrays(vjp_fn((_matrix(ms, [1, 1]), _matrix(ms, [1, 0]))))]


# ------------------------------------------------------------------------ jacobians


@case
def case_transforms_jacfwd_jacrev_positions(ms):
    x = _matrix(ms, [[1, 2], [3, 4]])
    y = _matrix(ms, [[1, 2], [3, 4]])
    forward = ms.jacfwd(_cube_plus, grad_position=(0, 1))(x, y)
    reverse = ms.jacrev(_cube_plus, grad_position=(0, 1))(x, y)
    return [_arrays(forward), _arrays(reverse), _arrays(ms.jacrev(_square)(_matrix(ms, [1, 2])))]


@case
def case_transforms_jacobians_has_aux(ms):
    x = _matrix(ms, [1.0, 2.0])
    y = _matrix(ms, [3.0, 4.0])
    forward = ms.jacfwd(_cube_plus_aux, has_aux=True)(x, y)
    reverse = ms.jacrev(_cube_plus_aux, grad_position=1, has_aux=True)(x, y)
    return [_arrays(forward), _arrays(reverse)]


@case
def case_transforms_hessian_by_jacfwd_of_jacrev(ms):
    def cubes(x):
        return (x ** 3).sum()

    return _arrays(ms.jacfwd(ms.jacrev(cubes))(_matrix(ms, [1.0, 2.0])))


# ------------------------------------------------------------------------ vmap / tensor


@case
def case_transforms_vmap_nested_and_out_axes(ms):
    def product(a, b):
        return a * b

    nested = ms.vmap(ms.vmap(product, in_axes=(0, None)), in_axes=(None, 0))(
        _matrix(ms, [1, 2]), _matrix(ms, [[1, 10], [100, 1000]]))
    moved = ms.vmap(product, in_axes=(1, 0), out_axes=1)(_matrix(ms, [[1, 2], [3, 4]]),
                                                         _matrix(ms, [1, 10]))
    return [_arrays(nested), _arrays(moved)]


def _product(a, b):
    return a * b


def _pair_product(pair):
    return pair[0] * pair[1]


def _with_double(a):
    return a, a * 2


@case
def case_transforms_vmap_nested_in_axes_and_out_axes_tuple(ms):
    pairs = ms.vmap(_pair_product, in_axes=((0, 1),))((_matrix(ms, [1, 2]),
                                                        _matrix(ms, [[1, 2], [3, 4]])))
    both = ms.vmap(_with_double, out_axes=(0, 1))(_matrix(ms, [[1, 2], [3, 4]]))
    return [_arrays(pairs), _arrays(both)]


@case
def case_transforms_vmap_axis_out_of_bounds(ms):
    ones = _matrix(ms, np.ones((2, 3)))
    return _error_line(lambda: ms.vmap(_product, in_axes=(-3, 0))(ones, ones))


@case
def case_transforms_vmap_axis_sizes_differ(ms):
    ones = _matrix(ms, np.ones((2, 3)))
    return _error_line(lambda: ms.vmap(_product, in_axes=(1, 0))(ones, ones))


@case
def case_transforms_vmap_all_axes_none(ms):
    ones = _matrix(ms, np.ones((2, 3)))
    return _error_line(lambda: ms.vmap(_product, in_axes=(None, None))(ones, ones))


@case
def case_transforms_vmap_in_axes_length(ms):
    ones = _matrix(ms, np.ones((2, 3)))
    return _error_line(lambda: ms.vmap(_product, in_axes=(0,))(ones, ones))


@case
def case_transforms_vmap_axis_not_int(ms):
    ones = _matrix(ms, np.ones((2, 3)))
    return _arrays(ms.vmap(_product, in_axes=0.5)(ones, ones))


@case
def case_transforms_tensor_function(ms):
    values = [ms.tensor([1, 2]), ms.tensor(1.5), ms.tensor([1.0], ms.float64),
              ms.tensor(np.array([True]))]
    return [[str(v.dtype), v.shape, v.asnumpy()] for v in values]


# ------------------------------------------------------------------------ Cell hooks


def _hooked_net(ms, log: list):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(_matrix(ms, [2.0, 3.0]), name="w")

        def construct(self, x, y):
            return x * self.w * y

    def forward_pre(cell, inputs):
        log.append(["forward_pre", type(cell).__name__, _arrays(list(inputs))])

    def forward(cell, inputs, outputs):
        log.append(["forward", _arrays(list(inputs)), _arrays(outputs)])

    def backward_pre(cell, grad_output):
        log.append(["backward_pre", type(grad_output).__name__, _arrays(list(grad_output))])

    def backward(cell, grad_input, grad_output):
        log.append(["backward", type(grad_input).__name__, _arrays(list(grad_input)),
                    _arrays(list(grad_output))])

    net = Net()
    handles = [net.register_forward_pre_hook(forward_pre), net.register_forward_hook(forward),
               net.register_backward_hook(backward), net.register_backward_pre_hook(backward_pre)]
    return net, handles


@case
def case_transforms_cell_hooks_order_and_values(ms):
    log: list = []
    net, handles = _hooked_net(ms, log)
    x, y = _matrix(ms, [1.0, 2.0]), _matrix(ms, [3.0, 4.0])
    grads = ms.grad(net, grad_position=(0, 1))(x, y)
    hooked_log = list(log)
    log.clear()
    for handle in handles:
        handle.remove()
    after = ms.grad(net)(x, y)
    return [_arrays(grads), hooked_log, _arrays(after), log]


@case
def case_transforms_cell_hooks_replace_values(ms):
    class Square(ms.nn.Cell):
        def construct(self, x):
            return x * x

    def triple_input(cell, inputs):
        return (inputs[0] * 3,)

    def shift_output(cell, inputs, outputs):
        return outputs + 1

    def double_grad_input(cell, grad_input, grad_output):
        return (grad_input[0] * 2,)

    def scale_grad_output(cell, grad_output):
        return (grad_output[0] * 5,)

    net = Square()
    net.register_forward_pre_hook(triple_input)
    net.register_forward_hook(shift_output)
    net.register_backward_hook(double_grad_input)
    x = _matrix(ms, [1.0, 2.0])
    value, grad = ms.value_and_grad(net)(x)
    pre_scaled = Square()
    pre_scaled.register_backward_pre_hook(scale_grad_output)
    return [_arrays(net(x)), _arrays(value), _arrays(grad), _arrays(ms.grad(pre_scaled)(x))]


# ------------------------------------------------------------------------ Cell bprop


def _bprop_net(ms, with_weight_dict: bool):
    class Scaled(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(_matrix(ms, [2.0, 3.0]), name="w")

        def construct(self, x):
            return x * self.w

        def bprop(self, x, out, dout):
            if with_weight_dict:
                return (dout * 10,), {self.w: dout * 100}
            return (dout * 10,)

    return Scaled()


@case
def case_transforms_bprop_with_weight_dict(ms):
    net = _bprop_net(ms, with_weight_dict=True)
    x = _matrix(ms, [1.0, 2.0])
    both = ms.grad(net, grad_position=0, weights=net.trainable_params())(x)
    by_list = ms.ops.GradOperation(get_by_list=True)(net, net.trainable_params())(x)
    return [_arrays(both), _arrays(by_list), _arrays(net(x))]


@case
def case_transforms_bprop_inputs_only(ms):
    net = _bprop_net(ms, with_weight_dict=False)
    x = _matrix(ms, [1.0, 2.0])
    return _arrays(ms.grad(net, grad_position=0, weights=net.trainable_params())(x))


# ------------------------------------------------------------------------ ops composites


@case
def case_transforms_hook_backward_sees_and_replaces(ms):
    seen: list = []

    def show(grads):
        seen.append([type(grads).__name__, _arrays(list(grads))])

    def scale(grads):
        return (grads[0] * 2, grads[1] * 3)

    shown = ms.ops.HookBackward(show)
    scaled = ms.ops.HookBackward(scale, cell_id="scaled")

    def net(x, y):
        z = shown(x * y)
        return z * y

    def pair(x, y):
        a, b = scaled(x, y)
        return a * b

    x, y = _matrix(ms, 1.0), _matrix(ms, 2.0)
    return [_arrays(ms.grad(net, grad_position=(0, 1))(x, y)), seen,
            _arrays(ms.grad(pair, grad_position=(0, 1))(x, y)), _arrays(shown(x)), repr(shown)]


@case(same_message=True)
def case_transforms_hook_backward_not_callable(ms):
    return repr(ms.ops.HookBackward(1))


@case
def case_transforms_multitype_func_graph_dispatch(ms):
    add = ms.ops.MultitypeFuncGraph("add")

    @add.register("Number", "Number")
    def add_scalar(x, y):
        return x + y

    @add.register("Tensor", "Tensor")
    def add_tensor(x, y):
        return ms.ops.add(x, y) * 2

    kinds = ms.ops.MultitypeFuncGraph("kinds")
    for name in ("Bool", "Number", "Tuple", "List", "String"):
        kinds.register(name)(lambda value, name=name: name)
    hyper = ms.ops.HyperMap()(add, (_matrix(ms, 1.0), 1), (_matrix(ms, 2.0), 2))
    mapped = ms.ops.Map()(add, (_matrix(ms, 1.0), 1), (_matrix(ms, 2.0), 2))
    return [add(1, 2), _arrays(add(_matrix(ms, 1.0), _matrix(ms, 2.0))),
            [kinds(value) for value in (True, 1, 1.5, (1,), [1], "a")],
            _arrays(hyper[0]), hyper[1], _arrays(mapped[0]), mapped[1],
            ms.ops.Map(add)((1, 2), (3, 4)), type(ms.ops.Map()(kinds, [1, 2])).__name__]


@case
def case_transforms_multitype_func_graph_no_match(ms):
    add = ms.ops.MultitypeFuncGraph("add")

    @add.register("Number", "Number")
    def add_scalar(x, y):
        return x + y

    @add.register("Tensor", "Tensor")
    def add_tensor(x, y):
        return x + y

    lone = ms.ops.MultitypeFuncGraph("lone")
    lone.register("Number")(str)
    return [lone("a"), add("a", 1)]


@case
def case_transforms_multitype_func_graph_unknown_type_name(ms):
    graph = ms.ops.MultitypeFuncGraph("graph")
    return _error_line(lambda: graph.register("Foo")(len))


@case
def case_transforms_partial_and_depend(ms):
    add_one = ms.ops.Partial()(ms.ops.add, _matrix(ms, 1.0))
    return [_arrays(add_one(_matrix(ms, 2.0))), repr(ms.ops.Partial()),
            _arrays(ms.ops.partial(ms.ops.add, _matrix(ms, 1.0))(_matrix(ms, 3.0))),
            _arrays(ms.ops.depend(_matrix(ms, 1.0), _matrix(ms, 2.0))),
            _arrays(ms.grad(ms.ops.stop_gradient)(_matrix(ms, [1.0, 2.0])))]


# ------------------------------------------------------------------------ ForwardValueAndGrad


class _Weighted:
    @staticmethod
    def build(ms):
        class Net(ms.nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = ms.Parameter(_matrix(ms, [2.0, 3.0]), name="w")

            def construct(self, x, y):
                return (x * self.w * y).sum()

        return Net()


@case
def case_transforms_forward_value_and_grad(ms):
    net = _Weighted.build(ms)
    x, y = _matrix(ms, [1.0, 2.0]), _matrix(ms, [3.0, 4.0])
    params = net.trainable_params()
    first = ms.nn.ForwardValueAndGrad(net)(x, y)
    every = ms.nn.ForwardValueAndGrad(net, get_all=True)(x, y)
    by_list = ms.nn.ForwardValueAndGrad(net, weights=params, get_by_list=True)(x, y)
    both = ms.nn.ForwardValueAndGrad(net, weights=params, get_all=True, get_by_list=True,
                                     sens_param=True)(x, y, _matrix(ms, 2.0))
    return [_arrays(first), _arrays(every), _arrays(by_list), _arrays(both),
            [p.name for p in ms.nn.ForwardValueAndGrad(net).trainable_params()]]


@case(same_message=True)
def case_transforms_forward_value_and_grad_needs_weights(ms):
    return _arrays(ms.nn.ForwardValueAndGrad(_Weighted.build(ms), get_by_list=True)(
        _matrix(ms, [1.0]), _matrix(ms, [1.0])))


@case(same_message=True)
def case_transforms_forward_value_and_grad_flag_type(ms):
    return _arrays(ms.nn.ForwardValueAndGrad(_Weighted.build(ms), get_all=1)(
        _matrix(ms, [1.0]), _matrix(ms, [1.0])))


# ------------------------------------------------------------------------ tutorials


@case(rtol=1e-5)
def case_transforms_tutorial_higher_order_sin(ms):
    x = _matrix(ms, [0.5, 1.0, 2.0])
    first = ms.grad(ms.ops.sin)
    second = ms.grad(first)
    third = ms.grad(second)
    return _arrays([first(x), second(x), third(x)])


@case(rtol=1e-5)
def case_transforms_tutorial_hessian_vector_product(ms):
    def energy(x):
        return (x ** 3 * ms.ops.sin(x)).sum()

    x = _matrix(ms, [0.5, -1.0])
    _, hvp = ms.jvp(ms.grad(energy), x, _matrix(ms, [1.0, 2.0]))
    hessian = ms.jacfwd(ms.grad(energy))(x)
    return [_arrays(hvp), _arrays(hessian)]


@case(rtol=1e-5)
def case_transforms_tutorial_value_and_grad_has_aux(ms):
    x = _matrix(ms, np.ones(5))
    y = _matrix(ms, np.zeros(3))
    w = ms.Parameter(_matrix(ms, np.arange(15).reshape(5, 3) / 10.0), name="w")
    b = ms.Parameter(_matrix(ms, [0.1, -0.2, 0.3]), name="b")

    def forward(x, y):
        z = ms.ops.matmul(x, w) + b
        loss = ms.ops.binary_cross_entropy_with_logits(z, y, ms.ops.ones_like(z),
                                                       ms.ops.ones_like(z))
        return loss, z

    grad_fn = ms.value_and_grad(forward, None, (w, b), has_aux=True)
    (loss, z), grads = grad_fn(x, y)
    stopped = ms.grad(lambda x, y: ms.ops.stop_gradient(forward(x, y)[0]) + (x * 2).sum())
    return [_arrays(loss), _arrays(z), _arrays(grads), _arrays(stopped(x, y))]


@case
def case_transforms_cell_hooks_nested_order_prepend_kwargs(ms):
    log: list = []

    class Inner(ms.nn.Cell):
        def construct(self, x):
            return x * 3

    class Outer(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()

        def construct(self, x, scale=1.0):
            return self.inner(x * 2) * scale

    def register_all(cell, name):
        cell.register_forward_pre_hook(lambda c, inputs: log.append(f"{name} pre"))
        cell.register_forward_hook(lambda c, inputs, outputs: log.append(f"{name} forward"))
        cell.register_backward_pre_hook(lambda c, grad_output: log.append(f"{name} bpre"))
        cell.register_backward_hook(lambda c, grad_input, grad_output: log.append(
            f"{name} backward {_arrays(list(grad_input))}"))

    def seen_kwargs(cell, args, kwargs):
        log.append(f"kwargs {sorted(kwargs)}")
        return (args[0] + 1,), kwargs

    outer = Outer()
    register_all(outer, "outer")
    register_all(outer.inner, "inner")
    outer.register_forward_hook(lambda c, inputs, outputs: log.append("first"), prepend=True)
    outer.register_forward_pre_hook(seen_kwargs, with_kwargs=True)
    grad = ms.grad(outer)(_matrix(ms, [1.0, 2.0]), scale=_matrix(ms, 0.5))
    return [_arrays(grad), log]


@case
def case_transforms_vjp_weights_has_aux_two_inputs(ms):
    w = ms.Parameter(_matrix(ms, [3.0, 4.0]), name="w")
    b = ms.Parameter(_matrix(ms, [0.5, -1.0]), name="b")

    def affine(x, y):
        return x * w + y * b, x * 2

    x, y = _matrix(ms, [1.0, 2.0]), _matrix(ms, [5.0, 6.0])
    out, vjp_fn, aux = ms.vjp(affine, x, y, weights=ms.ParameterTuple([w, b]), has_aux=True)
    grads = vjp_fn(_matrix(ms, [1.0, -2.0]))
    return [_arrays(out), _arrays(aux), _arrays(grads)]
