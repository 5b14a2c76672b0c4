"""Op-table specs for the control-flow primitives (``unigrad/ops/control.py``): ``cond``
(``cond``/``switch``), ``scan`` (``scan``/``fori_loop``), ``while_loop`` and its vjp.

Eagerly these functions run as plain Python; each spec runs them under
``compiled_loops()`` so they bind their primitives, whose kernel, vjp, jvp, batching
rule and shape rule the table then checks like any other op. ``while_loop``'s reverse
mode is a primitive of its own that is differentiated once (``second_order=False``;
its refusal is tested in ``tests/graph/test_control_flow.py``).
"""

from __future__ import annotations

import numpy as np

import unigrad as ug
from unigrad.ops.control import compiled_loops

from .spec import OpSpec, Sample, normal


def _branchy(x, y):
    with compiled_loops():
        return ug.cond(x.sum() > 0, lambda a, b: a * b + ug.sin(a), lambda a, b: a - b * b, x, y)


def _branchy_reference(x, y):
    return x * y + np.sin(x) if x.sum() > 0 else x - y * y


def _switched(x):
    with compiled_loops():
        index = ug.cast(x.sum() > 1, ug.int64) + ug.cast(x.sum() > 3, ug.int64)
        return ug.switch(index, [ug.tanh, lambda a: a * a, lambda a: ug.exp(-a)], x)


def _switched_reference(x):
    total = x.sum()
    return np.tanh(x) if total <= 1 else (x * x if total <= 3 else np.exp(-x))


def _cond_samples(rng: np.random.Generator) -> list:
    positive = np.abs(normal(rng, 3, 4)) + 0.1
    return [Sample((positive, normal(rng, 3, 4)), label="true branch"),
            Sample((-positive, normal(rng, 1, 4)), label="false branch, broadcast"),
            Sample((np.array(0.5), np.array(-1.5)), label="scalars")]


def _switch_samples(rng: np.random.Generator) -> list:
    return [Sample((np.full((2, 3), value) + 0.01 * normal(rng, 2, 3),), label=label)
            for value, label in ((-0.5, "first"), (0.3, "second"), (1.0, "third"))]


def _recurrence(carry, xs, w):
    with compiled_loops():
        return ug.scan(lambda c, x: (ug.tanh(c * w + x), (c * x).sum()), carry, xs)


def _recurrence_reference(carry, xs, w):
    ys = []
    for x in xs:
        ys.append((carry * x).sum())
        carry = np.tanh(carry * w + x)
    return carry, np.array(ys)


def _reversed_sum(carry, xs):
    with compiled_loops():
        return ug.scan(lambda c, x: (c * 0.5 + x * x, c + x), carry, xs, reverse=True)


def _reversed_sum_reference(carry, xs):
    ys = [None] * len(xs)
    for step in range(len(xs) - 1, -1, -1):
        ys[step] = carry + xs[step]
        carry = carry * 0.5 + xs[step] ** 2
    return carry, np.stack(ys)


def _scan_samples(rng: np.random.Generator) -> list:
    return [Sample((normal(rng, 3), normal(rng, 4, 3), normal(rng, 3)), label="vector carry"),
            Sample((normal(rng), normal(rng, 2), normal(rng)), label="scalar carry")]


def _reversed_samples(rng: np.random.Generator) -> list:
    return [Sample((normal(rng, 2), normal(rng, 3, 2)), label="vector carry")]


def _iterated(x, w):
    with compiled_loops():
        return ug.fori_loop(0, 3, lambda i, v: ug.tanh(v * w) + 0.1 * i, x)


def _iterated_reference(x, w):
    for i in range(3):
        x = np.tanh(x * w) + 0.1 * i
    return x


def _fori_samples(rng: np.random.Generator) -> list:
    return [Sample((normal(rng, 2, 3), normal(rng, 3)), label="broadcast weight")]


def _grown(x):
    with compiled_loops():
        return ug.while_loop(lambda v: ug.abs(v).sum() < 6.0, lambda v: v * 1.5 + 0.25, x)


def _grown_reference(x):
    while np.abs(x).sum() < 6.0:
        x = x * 1.5 + 0.25
    return x


def _while_samples(rng: np.random.Generator) -> list:
    # sums of |x| kept away from the thresholds, so that the trip count holds under the
    # central differences
    return [Sample((np.array([0.31, -0.52, 0.44]),), label="three steps"),
            Sample((np.array([[1.1, 2.3], [0.4, 1.7]]),), label="one step")]


OPS = [
    OpSpec("cond", _branchy, _branchy_reference, _cond_samples, primitives=("cond",)),
    OpSpec("switch", _switched, _switched_reference, _switch_samples, primitives=("cond",)),
    OpSpec("scan", _recurrence, _recurrence_reference, _scan_samples, primitives=("scan",)),
    OpSpec("scan_reverse", _reversed_sum, _reversed_sum_reference, _reversed_samples,
           primitives=("scan",)),
    OpSpec("fori_loop", _iterated, _iterated_reference, _fori_samples, primitives=("scan",)),
    OpSpec("while_loop", _grown, _grown_reference, _while_samples,
           primitives=("while_loop", "while_loop_vjp"), second_order=False),
]


def _detached_in_graph(x):
    """``detach()`` inside ``ug.jit`` of a tensor that requires grad records ``stop_gradient``
    (differentiating the graph must not flow through it; tests/graph/test_jit_fixes.py)."""
    with ug.enable_grad():
        leaf = x.detach().requires_grad_()
        return ug.jit(lambda value: (value * 3.0).detach() - value.detach())(leaf).detach()


OPS.append(OpSpec("stop_gradient", _detached_in_graph, lambda x: x * 2.0,
                  lambda rng: [Sample((normal(rng, 2, 3),), label="matrix")],
                  primitives=("stop_gradient",), grad=False, second_order=False, jvp=False))
