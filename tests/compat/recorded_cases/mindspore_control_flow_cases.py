"""MindSpore cases: the loop operators ``ops.WhileLoop``, ``ops.ForiLoop`` and ``ops.Scan``
in PyNative mode, inside ``ms.jit`` (loops whose trip count depends on the data) and under
``ms.grad``; their errors. Conventions: see ``mindspore_cases.py``.
"""

from __future__ import annotations

import numpy as np

from . import case


def _numpy(tree):
    """Tensors of a (nested) result as NumPy arrays; containers as lists."""
    if isinstance(tree, (list, tuple)):
        return [_numpy(value) for value in tree]
    if tree is None or isinstance(tree, (bool, int, float, str)):
        return tree
    return np.asarray(tree.asnumpy())


def _error(function) -> list:
    """The type name and message of what ``function()`` raises."""
    try:
        function()
    except Exception as error:  # noqa: BLE001 - the error is the result
        return [type(error).__name__, str(error)]
    return ["no error", ""]


@case
def case_control_flow_ops_reprs(ms):
    ops = ms.ops
    return [repr(ops.WhileLoop()), repr(ops.ForiLoop()), repr(ops.Scan())]


@case
def case_control_flow_while_loop_pynative(ms):
    ops = ms.ops
    x = ms.Tensor(np.array([1.0, 3.0], np.float32))
    doubled = ops.WhileLoop()(lambda v: v.sum() < 20, lambda v: v * 2, x)
    counted = ops.WhileLoop()(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 3), (0, x))
    plain = ops.WhileLoop()(lambda v: v < 100, lambda v: v + 7, 10)
    return [_numpy(doubled), _numpy(counted), type(counted).__name__, plain]


@case
def case_control_flow_fori_loop_pynative(ms):
    ops = ms.ops
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    total = ops.ForiLoop()(0, 4, lambda i, v: v + i, x)
    numbers = ops.ForiLoop()(2, 5, lambda i, v: v * i, 1)
    rolled = ops.ForiLoop()(0, 3, lambda i, v: v * 2, x, unroll=False)
    return [_numpy(total), numbers, _numpy(rolled)]


@case
def case_control_flow_scan_pynative(ms):
    ops = ms.ops
    xs = [ms.Tensor(np.float32(v)) for v in (1.0, 2.0, 3.0)]
    carry, ys = ops.Scan()(lambda c, e: (c + e, c * e), ms.Tensor(np.float32(0.0)), xs)
    numbers = ops.Scan()(lambda c, e: (c + e, c), 5, (1, 2))
    empty = ops.Scan()(lambda c, e: (c + e, c), 5, [])
    return [_numpy(carry), type(ys).__name__, _numpy(ys), list(numbers), list(empty)]


def _halve(carry):
    return carry[0] / 2, carry[1] + 1


def _above_one(carry):
    return carry[0].max() > 1


def _triple(index, value):
    return value * 3 + index


def _accumulate(carry, element):
    return carry + element, carry * 2


@case(rtol=1e-5)
def case_control_flow_loops_in_jit(ms):
    ops = ms.ops

    @ms.jit
    def halvings(x):
        return ops.WhileLoop()(_above_one, _halve, (x, ms.Tensor(0, ms.int32)))

    @ms.jit
    def tripled(x, n):
        return ops.ForiLoop()(0, n, _triple, x, unroll=False)

    @ms.jit
    def cumulative(xs):
        return ops.Scan()(_accumulate, ms.Tensor(np.float32(0.0)), [xs[0], xs[1], xs[2]],
                          unroll=False)

    xs = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    return [_numpy(halvings(ms.Tensor(np.array([3.0, 40.0], np.float32)))),
            _numpy(halvings(ms.Tensor(np.array([0.5, 1.5], np.float32)))),
            _numpy(tripled(ms.Tensor(np.float32(1.5)), ms.Tensor(3, ms.int32))),
            _numpy(tripled(ms.Tensor(np.float32(2.0)), ms.Tensor(5, ms.int32))),
            _numpy(cumulative(xs))]


def _square_and_shift(value):
    return value * value + 0.5


def _small(value):
    return value.sum() < 10


def _sine_step(index, value):
    return ms_sin(value) * 1.5


def ms_sin(value):
    return value.sin()


def _multiply_step(carry, element):
    return carry * element, carry + element


@case(rtol=1e-5)
def case_control_flow_loops_gradients(ms):
    ops = ms.ops

    def grown(x):
        return ops.WhileLoop()(_small, _square_and_shift, x).sum()

    def rolled(x):
        return ops.ForiLoop()(0, 3, _sine_step, x).sum()

    def scanned(x):
        carry, ys = ops.Scan()(_multiply_step, x, [x, x * 2])
        return carry.sum() + ys[1].sum()

    x = ms.Tensor(np.array([1.5, 0.5], np.float32))
    return [_numpy(ms.grad(grown)(x)), _numpy(ms.grad(rolled)(x)), _numpy(ms.grad(scanned)(x)),
            _numpy(ms.grad(ms.jit(rolled))(x))]


@case
def case_control_flow_loops_bad_arguments(ms):
    ops = ms.ops
    x = ms.Tensor(np.float32(1.0))
    return [_error(lambda: ops.WhileLoop()(3, lambda v: v, x))[0],
            _error(lambda: ops.WhileLoop()(lambda v: v < 3, lambda v: v.undefined(), x))[0],
            _error(lambda: ops.ForiLoop()(0.5, 3, lambda i, v: v, x))[0],
            _error(lambda: ops.ForiLoop()(0, 3, "f", x))[0],
            _error(lambda: ops.Scan()(lambda c, e: (c, e), x, x))[0],
            _error(lambda: ops.Scan()(lambda c, e: c, x, [x, x]))[0]]


@case(same_message=True)
def case_control_flow_loops_error_messages(ms):
    ops = ms.ops
    x = ms.Tensor(np.float32(1.0))
    return [_error(lambda: ops.WhileLoop()(3, lambda v: v, x)),
            _error(lambda: ops.ForiLoop()(0.5, 3, lambda i, v: v, x)),
            _error(lambda: ops.ForiLoop()(0, 3, "f", x)),
            _error(lambda: ops.WhileLoop()(lambda v: v < 3, lambda v: v.undefined(), x))]
