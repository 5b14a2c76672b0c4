"""Op-table specs for ``unigrad/ops/numeric.py``: isin, isneginf/isposinf/isreal, positive,
rsub, fill, trapz, histogram and gradient (the creation functions are value-only: see
``tests/ops/test_numeric_vs_torch.py``)."""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, normal


def with_infinities(rng: np.random.Generator) -> np.ndarray:
    values = normal(rng, 3, 4)
    values[0, 1], values[1, 2], values[2, 0] = np.inf, -np.inf, np.nan
    return values


def isin_reference(elements, test_elements, *, assume_unique=False, invert=False):
    return np.isin(elements, test_elements, invert=invert)


def trapz_reference(y, x=None, *, dx=None, dim=-1):
    if x is not None:
        return np.trapezoid(y, x, axis=dim)
    return np.trapezoid(y, dx=1.0 if dx is None else dx, axis=dim)


def histogram_reference(x, bins, *, range=None, weight=None, density=False):
    hist, edges = np.histogram(x.ravel(), bins, range=range, density=density,
                               weights=None if weight is None else weight.ravel())
    return hist.astype(x.dtype), edges.astype(x.dtype)


def gradient_reference(x, *, spacing=1, dim=None, edge_order=1):
    axes = tuple(range(x.ndim)) if dim is None else (dim,) if isinstance(dim, int) else dim
    steps = spacing if isinstance(spacing, (list, tuple)) else [spacing] * len(axes)
    if len(axes) == 1:
        return (np.gradient(x, *steps, axis=axes[0], edge_order=edge_order),)
    return tuple(np.gradient(x, *steps, axis=axes, edge_order=edge_order))


def repeated_values(rng: np.random.Generator) -> tuple:
    elements = rng.integers(0, 6, size=(3, 4)).astype(np.float64)
    return elements, np.array([1.0, 3.0, 3.0, 7.0])


def coordinates(rng: np.random.Generator, n: int) -> np.ndarray:
    return np.cumsum(rng.uniform(0.5, 1.5, size=n))


OPS = [
    OpSpec("isin", ug.isin, isin_reference, lambda rng: [
        Sample(repeated_values(rng), label="matrix"),
        Sample(repeated_values(rng), {"invert": True}, label="invert"),
        Sample((repeated_values(rng)[0], np.array(3.0)), label="scalar_test"),
        Sample((np.array(3.0), np.array([1.0, 3.0])), label="scalar_elements"),
        Sample((np.zeros((0, 2)), np.array([1.0])), label="empty"),
        Sample((repeated_values(rng)[0], rng.integers(0, 40, size=30).astype(np.float64)),
               label="many_tests_sorted"),
        Sample((np.arange(6.0).reshape(2, 3), np.arange(2.0, 40.0)), {"invert": True},
               label="many_tests_invert"),
        Sample((with_infinities(rng), np.array([np.nan, np.inf])), label="nan_inf"),
    ], grad=False),
    OpSpec("isneginf", ug.isneginf, np.isneginf, lambda rng: [
        Sample((with_infinities(rng),), label="inf_nan"), Sample((np.array(-np.inf),),
                                                                   label="scalar")], grad=False),
    OpSpec("isposinf", ug.isposinf, np.isposinf, lambda rng: [
        Sample((with_infinities(rng),), label="inf_nan"), Sample((np.zeros(0),),
                                                                   label="empty")], grad=False),
    OpSpec("isreal", ug.isreal, np.isreal, lambda rng: [
        Sample((with_infinities(rng),), label="inf_nan")], grad=False),
    OpSpec("inf_predicate_methods", lambda x: (x.isneginf(), x.isposinf(), x.isreal()),
           lambda x: (np.isneginf(x), np.isposinf(x), np.isreal(x)),
           lambda rng: [Sample((with_infinities(rng),), label="inf_nan")], grad=False),
    OpSpec("positive", ug.positive, np.positive, lambda rng: [
        Sample((normal(rng, 3, 4),), label="matrix"), Sample((normal(rng),), label="scalar")]),
    OpSpec("rsub", ug.rsub, lambda x, y, alpha=1: y - alpha * x, lambda rng: [
        Sample((normal(rng, 3, 4), normal(rng, 3, 4)), label="same"),
        Sample((normal(rng, 3, 1), normal(rng, 1, 4)), {"alpha": 2.5}, label="broadcast"),
        Sample((normal(rng, 3), 2.0), label="number"),
    ]),
    OpSpec("fill", ug.fill, lambda x, v: np.full_like(x, v), lambda rng: [
        Sample((normal(rng, 3, 4), 2.5), label="number"),
        Sample((normal(rng, 3, 4), normal(rng)), label="tensor_value"),
        Sample((with_infinities(rng), normal(rng)), diff=(1,), label="inf_input"),
    ]),
    OpSpec("trapz", ug.trapz, trapz_reference, lambda rng: [
        Sample((normal(rng, 3, 5),), label="default"),
        Sample((normal(rng, 3, 5),), {"dx": 0.5, "dim": 0}, label="dx_dim0"),
        Sample((normal(rng, 3, 5), coordinates(rng, 5)), label="x_1d"),
    ]),
    OpSpec("histogram", ug.histogram, histogram_reference, lambda rng: [
        Sample((normal(rng, 20), 5), label="data_range"),
        Sample((normal(rng, 4, 5), 4), {"range": (-1.0, 1.0)}, label="range"),
        Sample((normal(rng, 20), np.array([-1.0, 0.0, 0.5, 2.0])), label="edges"),
    ], primitives=("histogram_counts",), grad=False),
    OpSpec("histogram_weight_density",
           lambda x, w: ug.histogram(x, 3, weight=w, density=True),
           lambda x, w: histogram_reference(x, 3, weight=w, density=True),
           lambda rng: [Sample((normal(rng, 20), normal(rng, 20)), label="vector")], grad=False),
    OpSpec("histogram_method", lambda x: x.histogram(3).hist,
           lambda x: np.histogram(x, 3)[0].astype(x.dtype),
           lambda rng: [Sample((normal(rng, 12),), label="vector")], grad=False),
    OpSpec("gradient", ug.gradient, gradient_reference, lambda rng: [
        Sample((normal(rng, 6),), label="vector"),
        Sample((normal(rng, 4, 5),), label="all_dims"),
        Sample((normal(rng, 4, 5),), {"spacing": 0.5, "dim": 1, "edge_order": 2},
               label="spacing_edge2"),
        Sample((normal(rng, 4, 5),), {"spacing": [2.0, 0.5], "dim": [-1, 0]},
               label="spacing_list"),
        Sample((normal(rng, 3),), {"edge_order": 2}, label="edge2_minimal"),
    ]),
    OpSpec("gradient_coordinates",
           lambda y, x, edge_order: ug.gradient(y, spacing=(x,), dim=1, edge_order=edge_order),
           lambda y, x, edge_order: (np.gradient(y, x, axis=1, edge_order=edge_order),),
           lambda rng: [
               Sample((normal(rng, 3, 5), coordinates(rng, 5), 1), label="edge1"),
               Sample((normal(rng, 3, 5), coordinates(rng, 5), 2), label="edge2"),
           ]),
]
