"""``unigrad.ops.scans`` against PyTorch: values and gradients, including cumprod across
zeros, cummax/cummin ties and NaN handling."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch

from .torch_comparison import compare  # noqa: E402

ZEROS = np.array([[2.0, 0.0, 3.0, 0.0, 5.0],
                  [1.0, 2.0, 0.0, 4.0, 5.0],
                  [0.0, 1.5, -2.0, 4.0, 0.5],
                  [1.0, -2.0, 3.0, 4.0, 0.0],
                  [0.0, 0.0, 0.0, 1.0, 2.0]])


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumprod_with_zeros(dim):
    compare(lambda x: ug.cumprod(x, dim), lambda x: torch.cumprod(x, dim), ZEROS)


def test_cumprod_second_order_one_zero_per_row():
    x = ZEROS[1:4]
    rng = np.random.default_rng(1)
    g, w = rng.standard_normal(x.shape), rng.standard_normal(x.shape)
    results = []
    for lib in (ug, torch):
        a, cotangent = lib.tensor(x, requires_grad=True), lib.tensor(g, requires_grad=True)
        (first,) = lib.autograd.grad(lib.cumprod(a, 1), a, cotangent, create_graph=True)
        second = lib.autograd.grad((first * lib.tensor(w)).sum(), (a, cotangent))
        results.append([np.asarray(s._data) if lib is ug else s.numpy() for s in second])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, atol=1e-9, rtol=1e-9)


def test_cumprod_method_integers_and_scalar():
    x = np.array([[1, 2, 3], [4, 0, 6]])
    got = ug.tensor(x).cumprod(1)
    assert got.dtype == ug.int64
    np.testing.assert_array_equal(np.asarray(got._data), torch.tensor(x).cumprod(1).numpy())
    compare(lambda x: ug.cumprod(x, 0), lambda x: torch.cumprod(x, 0), np.array(3.0))


@pytest.mark.parametrize("dim", [0, -1])
def test_logcumsumexp(dim):
    x = np.random.default_rng(2).standard_normal((4, 6)) * 300.0
    x[1, 2] = -np.inf
    compare(lambda x: ug.logcumsumexp(x, dim), lambda x: torch.logcumsumexp(x, dim), x,
            grad=False, atol=1e-9)
    compare(lambda x: x.logcumsumexp(dim), lambda x: x.logcumsumexp(dim),
            np.random.default_rng(3).standard_normal((4, 6)) * 30.0, atol=1e-9)


TIES = np.array([[1.0, 3.0, 3.0, 2.0, 3.0, 0.0],
                 [2.0, 2.0, 2.0, 1.0, 1.0, 5.0],
                 [0.0, -1.0, 0.0, -1.0, 4.0, 4.0]])


@pytest.mark.parametrize("name", ["cummax", "cummin"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cummax_cummin_ties(name, dim):
    compare(lambda x: getattr(ug, name)(x, dim), lambda x: getattr(torch, name)(x, dim), TIES)
    compare(lambda x: getattr(x, name)(dim), lambda x: getattr(x, name)(dim), TIES.T.copy())


@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_cummax_cummin_nan(name):
    x = np.array([[1.0, np.nan, 3.0, np.nan, 0.0], [2.0, 1.0, 3.0, 0.5, np.nan]])
    compare(lambda x: getattr(ug, name)(x, 1), lambda x: getattr(torch, name)(x, 1), x)


def test_cummax_fields_and_scalar():
    values, indices = ug.cummax(ug.tensor([1.0, 3.0, 2.0]), 0)
    assert ug.cummax(ug.tensor([1.0]), 0).indices.dtype == ug.int64
    np.testing.assert_array_equal(np.asarray(indices._data), [0, 1, 1])
    compare(lambda x: ug.cummin(x, 0), lambda x: torch.cummin(x, 0), np.array(2.0))


@pytest.mark.parametrize("kwargs", [{}, {"n": 2}, {"n": 3, "dim": 0}, {"dim": -2}])
def test_diff(kwargs):
    x = np.random.default_rng(4).standard_normal((4, 5))
    compare(lambda x: ug.diff(x, **kwargs), lambda x: torch.diff(x, **kwargs), x)


def test_diff_prepend_append():
    rng = np.random.default_rng(5)
    arrays = rng.standard_normal((3, 4)), rng.standard_normal((3, 2)), rng.standard_normal((3, 1))
    compare(lambda x, p, a: ug.diff(x, 2, prepend=p, append=a),
            lambda x, p, a: torch.diff(x, 2, prepend=p, append=a), *arrays)
    compare(lambda x: x.diff(), lambda x: x.diff(), arrays[0])


NANS = np.array([[1.0, np.nan, 2.0], [np.nan, 3.0, -1.0], [0.5, 0.25, 4.0]])


@pytest.mark.parametrize("kwargs", [{}, {"dim": 0}, {"dim": -1, "keepdim": True},
                                    {"dim": (0, 1)}])
def test_nansum_nanmean(kwargs):
    compare(lambda x: ug.nansum(x, **kwargs), lambda x: torch.nansum(x, **kwargs), NANS)
    compare(lambda x: ug.nanmean(x, **kwargs), lambda x: torch.nanmean(x, **kwargs), NANS)
    compare(lambda x: x.nansum(**kwargs), lambda x: x.nansum(**kwargs), NANS)
    compare(lambda x: x.nanmean(**kwargs), lambda x: x.nanmean(**kwargs), NANS)


def test_nansum_integers():
    got = ug.nansum(ug.tensor([[1, 2], [3, 4]]), 1)
    want = torch.nansum(torch.tensor([[1, 2], [3, 4]]), 1)
    assert got.dtype == ug.int64
    np.testing.assert_array_equal(np.asarray(got._data), want.numpy())


def test_nanmean_all_nan_is_nan():
    x = np.array([[np.nan, 1.0], [np.nan, 2.0]])
    compare(lambda x: ug.nanmean(x, 0), lambda x: torch.nanmean(x, 0), x, grad=False)


@pytest.mark.parametrize("kwargs", [{}, {"dim": 1}, {"dim": -2, "keepdim": True},
                                    {"keepdim": True}])
def test_aminmax(kwargs):
    x = np.random.default_rng(6).permutation(12).reshape(3, 4).astype(np.float64)
    compare(lambda x: ug.aminmax(x, **kwargs), lambda x: torch.aminmax(x, **kwargs), x)
    compare(lambda x: x.aminmax(**kwargs), lambda x: x.aminmax(**kwargs), x)


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
@pytest.mark.parametrize("args, kwargs", [((), {}), ((1,), {}), ((0,), {"correction": 0}),
                                          (((0, 1),), {"keepdim": True, "correction": 2})])
def test_var_mean_std_mean(name, args, kwargs):
    x = np.random.default_rng(7).standard_normal((3, 4))
    compare(lambda x: getattr(ug, name)(x, *args, **kwargs),
            lambda x: getattr(torch, name)(x, *args, **kwargs), x)


@pytest.mark.parametrize("name", ["trapezoid", "cumulative_trapezoid"])
def test_trapezoid(name):
    rng = np.random.default_rng(8)
    y = rng.standard_normal((3, 5))
    x1 = np.cumsum(rng.uniform(0.1, 1.0, 5))
    xn = np.cumsum(rng.uniform(0.1, 1.0, (3, 5)), axis=0)
    ours, theirs = getattr(ug, name), getattr(torch, name)
    compare(lambda y: ours(y), lambda y: theirs(y), y)
    compare(lambda y: ours(y, dx=0.25, dim=0), lambda y: theirs(y, dx=0.25, dim=0), y)
    compare(lambda y, x: ours(y, x), lambda y, x: theirs(y, x), y, x1)
    compare(lambda y, x: ours(y, x, dim=0), lambda y, x: theirs(y, x, dim=0), y, xn)
