"""Op-table specs for ``unigrad/ops/products.py``: inner, tensordot, vdot and the fused
``beta * input + alpha * product`` ops addmm, addmv, addr, baddbmm, addbmm."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, normal


def tensordot_reference(a, b, dims=2):
    if isinstance(dims, list):
        dims = tuple(dims)
    return np.tensordot(a, b, axes=dims)


def scaled(product):
    """The reference of ``beta * input + alpha * product(x, y)``."""
    def reference(input, x, y, *, beta=1, alpha=1):
        result = alpha * product(x, y)
        if beta != 0:
            result = result + beta * input
        return np.broadcast_to(result, np.broadcast_shapes(input.shape, result.shape)).copy()
    return reference


def with_nans(*shape):
    def generate(rng: np.random.Generator) -> np.ndarray:
        values = normal(rng, *shape)
        values.flat[0] = np.nan
        values.flat[-1] = np.inf
        return values
    return generate


OPS = [
    OpSpec("inner", ug.inner, np.inner, lambda rng: [
        Sample((normal(rng, 4), normal(rng, 4)), label="vectors"),
        Sample((normal(rng, 2, 3, 4), normal(rng, 5, 4)), label="nd"),
        Sample((normal(rng), normal(rng, 2, 3)), label="scalar"),
        Sample((normal(rng, 0, 3), normal(rng, 2, 3)), label="empty"),
    ]),
    OpSpec("inner_method", lambda a, b: a.inner(b), np.inner, lambda rng: [
        Sample((normal(rng, 3, 4), normal(rng, 4)), label="matrix_vector")]),
    OpSpec("tensordot", ug.tensordot, tensordot_reference, lambda rng: [
        Sample((normal(rng, 2, 3, 4), normal(rng, 3, 4, 5)), label="default"),
        Sample((normal(rng, 2, 3), normal(rng, 3, 4)), {"dims": 1}, label="dims1"),
        Sample((normal(rng, 2, 3), normal(rng, 4, 5)), {"dims": 0}, label="outer"),
        Sample((normal(rng, 3, 4, 5), normal(rng, 4, 3, 2)), {"dims": ([1, 0], [0, 1])},
               label="lists"),
        Sample((normal(rng, 3, 4), normal(rng, 4, 3)), {"dims": ([-1], [0])},
               label="negative"),
    ]),
    OpSpec("vdot", ug.vdot, np.vdot, lambda rng: [
        Sample((normal(rng, 5), normal(rng, 5)), label="vectors")]),
    OpSpec("vdot_method", lambda a, b: a.vdot(b), np.vdot, lambda rng: [
        Sample((normal(rng, 3), normal(rng, 3)), label="vectors")]),
    OpSpec("addmm", ug.addmm, scaled(np.matmul), lambda rng: [
        Sample((normal(rng, 3, 5), normal(rng, 3, 4), normal(rng, 4, 5)), label="default"),
        Sample((normal(rng, 5), normal(rng, 3, 4), normal(rng, 4, 5)),
               {"beta": 0.5, "alpha": -2.0}, label="broadcast_scaled"),
        Sample((with_nans(3, 5)(rng), normal(rng, 3, 4), normal(rng, 4, 5)), {"beta": 0},
               label="beta0_nan"),
        Sample((normal(rng, 3, 5), normal(rng, 3, 0), normal(rng, 0, 5)), label="empty_inner"),
    ]),
    OpSpec("addmv", ug.addmv, scaled(np.matmul), lambda rng: [
        Sample((normal(rng, 3), normal(rng, 3, 4), normal(rng, 4)), label="default"),
        Sample((normal(rng), normal(rng, 3, 4), normal(rng, 4)), {"beta": 2.0, "alpha": 0.5},
               label="scalar_input"),
        Sample((with_nans(3)(rng), normal(rng, 3, 4), normal(rng, 4)), {"beta": 0},
               label="beta0_nan"),
    ]),
    OpSpec("addr", ug.addr, scaled(np.outer), lambda rng: [
        Sample((normal(rng, 3, 4), normal(rng, 3), normal(rng, 4)), label="default"),
        Sample((normal(rng, 1, 4), normal(rng, 3), normal(rng, 4)), {"alpha": 3.0},
               label="broadcast"),
        Sample((with_nans(3, 4)(rng), normal(rng, 3), normal(rng, 4)), {"beta": 0},
               label="beta0_nan"),
    ]),
    OpSpec("baddbmm", ug.baddbmm, scaled(np.matmul), lambda rng: [
        Sample((normal(rng, 2, 3, 5), normal(rng, 2, 3, 4), normal(rng, 2, 4, 5)),
               label="default"),
        Sample((normal(rng, 3, 5), normal(rng, 2, 3, 4), normal(rng, 2, 4, 5)),
               {"beta": -1.0, "alpha": 0.25}, label="broadcast_scaled"),
        Sample((with_nans(2, 3, 5)(rng), normal(rng, 2, 3, 4), normal(rng, 2, 4, 5)),
               {"beta": 0}, label="beta0_nan"),
    ]),
    OpSpec("addbmm", ug.addbmm, scaled(lambda x, y: np.matmul(x, y).sum(0)), lambda rng: [
        Sample((normal(rng, 3, 5), normal(rng, 2, 3, 4), normal(rng, 2, 4, 5)),
               label="default"),
        Sample((normal(rng, 5), normal(rng, 2, 3, 4), normal(rng, 2, 4, 5)),
               {"beta": 0.5, "alpha": 2.0}, label="broadcast_scaled"),
        Sample((with_nans(3, 5)(rng), normal(rng, 2, 3, 4), normal(rng, 2, 4, 5)), {"beta": 0},
               label="beta0_nan"),
    ]),
    OpSpec("add_product_methods",
           lambda c, a, b, v: (c.addmm(a, b), c.addbmm(a.unsqueeze(0), b.unsqueeze(0)),
                               c.addr(a[:, 0], b[0]), v.addmv(a, b[:, 0])),
           lambda c, a, b, v: (c + a @ b, c + a @ b, c + np.outer(a[:, 0], b[0]),
                               v + a @ b[:, 0]),
           lambda rng: [Sample((normal(rng, 3, 5), normal(rng, 3, 4), normal(rng, 4, 5),
                                normal(rng, 3)), label="matrices")]),
]
