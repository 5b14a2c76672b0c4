"""``unigrad.ops.statistics`` against PyTorch: values, gradients and errors of cov, corrcoef,
cdist (every p, zero distances, ties at p = inf, batches), dist, renorm and cross."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import unigrad as ug

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch

from .torch_comparison import compare as _compare  # noqa: E402


def compare(ug_fn, torch_fn, *arrays, seed=0, atol=1e-10):
    """:func:`torch_comparison.compare` with the gradients to 1e-8."""
    _compare(ug_fn, torch_fn, *arrays, seed=seed, atol=atol, grad_rtol=1e-8)




def raises_like(ours, theirs, error=RuntimeError):
    with pytest.raises(error) as expected:
        theirs()
    with pytest.raises(error) as got:
        ours()
    assert str(got.value) == str(expected.value).split(" (Triggered")[0]


POINTS = np.array([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0], [0.0, 1.0, 2.0], [3.0, -1.0, 0.5]])
OTHERS = np.array([[0.0, 1.0, 2.0], [1.0, 1.0, 4.0], [2.0, 0.0, 2.0]])


@pytest.mark.parametrize("p", [2.0, 1.0, 0.0, 0.5, 1.5, 3.0, math.inf])
def test_cdist_with_zero_distances_and_ties(p):
    # zero distances (identical rows), zero components and ties of |diff| (p = inf)
    compare(lambda a, b: ug.cdist(a, b, p=p), lambda a, b: torch.cdist(a, b, p=p),
            POINTS, OTHERS)


@pytest.mark.parametrize("mode", ["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                                  "donot_use_mm_for_euclid_dist"])
def test_cdist_batched_and_compute_modes(mode):
    rng = np.random.default_rng(1)
    x1, x2 = rng.standard_normal((2, 1, 4, 3)), rng.standard_normal((3, 5, 3))
    compare(lambda a, b: ug.cdist(a, b, compute_mode=mode),
            lambda a, b: torch.cdist(a, b, compute_mode=mode), x1, x2, atol=1e-9)


def test_cdist_shapes_and_errors():
    assert tuple(ug.cdist(ug.zeros(2, 0, 3), ug.zeros(4, 3)).shape) == (2, 0, 4)
    np.testing.assert_array_equal(np.asarray(ug.cdist(ug.ones(2, 0), ug.ones(4, 0))._data),
                                  np.zeros((2, 4), dtype=np.float32))
    x, tx = ug.ones(2, 3), torch.ones(2, 3)
    raises_like(lambda: ug.cdist(x, x, compute_mode="bad"),
                lambda: torch.cdist(tx, tx, compute_mode="bad"), ValueError)
    raises_like(lambda: ug.cdist(x, x, p=-1.0), lambda: torch.cdist(tx, tx, p=-1.0))
    raises_like(lambda: ug.cdist(x[0], x), lambda: torch.cdist(tx[0], tx))
    raises_like(lambda: ug.cdist(x, x[:, :2]), lambda: torch.cdist(tx, tx[:, :2]))
    raises_like(lambda: ug.cdist(ug.tensor([[1, 2]]), x[:, :2]),
                lambda: torch.cdist(torch.tensor([[1, 2]]), tx[:, :2]))
    raises_like(lambda: ug.cdist(x, ug.ones(2, 3, dtype=ug.float64)),
                lambda: torch.cdist(tx, torch.ones(2, 3, dtype=torch.float64)))


@pytest.mark.parametrize("p", [2, 1, 3.0, 0.5, math.inf, -1.0, -2.5, 0])
def test_dist(p):
    x = np.array([[1.0, -2.0, 0.5], [0.0, 3.0, -3.0]])
    y = np.array([1.0, 1.0, 3.5])  # a zero component; ties of |x - y| at p = inf
    if p == 0:  # torch.dist(p=0) records no gradient; values only
        got = ug.dist(ug.tensor(x), ug.tensor(y), p)
        assert got.item() == torch.dist(torch.tensor(x), torch.tensor(y), p).item()
        return
    compare(lambda a, b: ug.dist(a, b, p), lambda a, b: torch.dist(a, b, p), x, y)
    compare(lambda a, b: ug.dist(a, b, p), lambda a, b: torch.dist(a, b, p), y, y)


def test_dist_method_and_errors():
    x, tx = ug.tensor([3.0, 4.0]), torch.tensor([3.0, 4.0])
    assert x.dist(ug.zeros(2)).item() == tx.dist(torch.zeros(2)).item()
    raises_like(lambda: ug.dist(ug.tensor([1, 2]), ug.tensor([1, 4])),
                lambda: torch.dist(torch.tensor([1, 2]), torch.tensor([1, 4])))


WEIGHTED = np.array([[1.0, 2.0, 3.0, 0.5], [4.0, 5.0, 6.5, -1.0], [0.0, 2.0, -1.0, 1.0]])


@pytest.mark.parametrize("correction", [1, 0, 2])
def test_cov_weights_and_corrections(correction):
    fweights = torch.tensor([1, 2, 1, 3])
    aweights = np.array([0.5, 1.0, 2.0, 0.25])
    compare(lambda a: ug.cov(a, correction=correction),
            lambda a: torch.cov(a, correction=correction), WEIGHTED)
    compare(lambda a: ug.cov(a, correction=correction, fweights=ug.tensor(fweights.numpy())),
            lambda a: torch.cov(a, correction=correction, fweights=fweights), WEIGHTED)
    compare(lambda a, w: ug.cov(a, correction=correction, aweights=w),
            lambda a, w: torch.cov(a, correction=correction, aweights=w), WEIGHTED, aweights)
    compare(lambda a, w: ug.cov(a, correction=correction, fweights=ug.tensor(fweights.numpy()),
                                aweights=w),
            lambda a, w: torch.cov(a, correction=correction, fweights=fweights, aweights=w),
            WEIGHTED, aweights)


def test_cov_shapes_dtypes_and_degenerate_cases():
    compare(ug.cov, torch.cov, WEIGHTED[0])
    for values in ([[1, 2, 3]], [1, 2, 4]):
        got, want = ug.cov(ug.tensor(values)), torch.cov(torch.tensor(values))
        assert got.dtype == ug.float32 and want.dtype == torch.float32
        np.testing.assert_allclose(got.item(), want.item(), rtol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = torch.cov(torch.tensor(WEIGHTED[:, :1]))
        want_scalar = torch.cov(torch.tensor(3.0))
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        got = ug.cov(ug.tensor(WEIGHTED[:, :1]))
    np.testing.assert_array_equal(np.asarray(got._data), want.numpy())
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        assert math.isnan(ug.cov(ug.tensor(3.0)).item()) and math.isnan(want_scalar.item())


def test_cov_errors():
    x, tx = ug.tensor(WEIGHTED), torch.tensor(WEIGHTED)
    raises_like(lambda: ug.cov(ug.ones(2, 2, 2)), lambda: torch.cov(torch.ones(2, 2, 2)))
    for keyword, ug_weights, torch_weights in (
            ("fweights", ug.tensor([1.0, 2, 1, 1]), torch.tensor([1.0, 2, 1, 1])),
            ("fweights", ug.tensor([-1, 2, 1, 1]), torch.tensor([-1, 2, 1, 1])),
            ("fweights", ug.tensor([1, 2]), torch.tensor([1, 2])),
            ("fweights", ug.tensor([[1, 2, 1, 1]]), torch.tensor([[1, 2, 1, 1]])),
            ("aweights", ug.tensor([-1.0, 2, 1, 1]), torch.tensor([-1.0, 2, 1, 1])),
            ("aweights", ug.tensor([1, 2, 1, 1]), torch.tensor([1, 2, 1, 1])),
            ("aweights", ug.tensor([0.0, 0, 0, 0]), torch.tensor([0.0, 0, 0, 0]))):
        raises_like(lambda k=keyword, w=ug_weights: ug.cov(x, **{k: w}),
                    lambda k=keyword, w=torch_weights: torch.cov(tx, **{k: w}))


def test_corrcoef():
    compare(ug.corrcoef, torch.corrcoef, WEIGHTED)
    compare(ug.corrcoef, torch.corrcoef, WEIGHTED[0])
    constant = [[1.0, 1.0, 1.0], [1.0, 2.0, 3.0]]  # zero variance: NaN, as torch
    np.testing.assert_array_equal(np.asarray(ug.corrcoef(ug.tensor(constant))._data),
                                  torch.corrcoef(torch.tensor(constant)).numpy())
    assert ug.corrcoef(ug.tensor([1, 2, 4])).item() == torch.corrcoef(
        torch.tensor([1, 2, 4])).item()
    assert ug.tensor(WEIGHTED).corrcoef().shape == (3, 3)
    raises_like(lambda: ug.corrcoef(ug.ones(2, 2, 2)), lambda: torch.corrcoef(torch.ones(2, 2, 2)))


@pytest.mark.parametrize("p, dim, maxnorm", [(2, 0, 5.0), (1, 1, 6.0), (3.0, -1, 2.0),
                                             (math.inf, 0, 5.0), (0.5, 0, 20.0), (2, 0, 0.0)])
def test_renorm(p, dim, maxnorm):
    x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [0.0, 0.0, 0.5]])
    compare(lambda a: ug.renorm(a, p, dim, maxnorm), lambda a: torch.renorm(a, p, dim, maxnorm),
            x, atol=1e-9)


def test_renorm_inplace_and_errors():
    x = ug.tensor([[3.0, 4.0], [0.3, 0.4]])
    tx = torch.tensor([[3.0, 4.0], [0.3, 0.4]])
    assert x.renorm_(2, 0, 1.0) is x
    tx.renorm_(2, 0, 1.0)
    np.testing.assert_allclose(np.asarray(x._data), tx.numpy())
    y, ty = ug.ones(2, 3), torch.ones(2, 3)
    raises_like(lambda: ug.renorm(y, -1, 0, 1.0), lambda: torch.renorm(ty, -1, 0, 1.0))
    raises_like(lambda: ug.renorm(y, 2, 0, -1.0), lambda: torch.renorm(ty, 2, 0, -1.0))
    raises_like(lambda: ug.renorm(y[0], 2, 0, 1.0), lambda: torch.renorm(ty[0], 2, 0, 1.0))
    raises_like(lambda: ug.renorm(ug.tensor([[1, 2]]), 2, 0, 1.0),
                lambda: torch.renorm(torch.tensor([[1, 2]]), 2, 0, 1.0))


def test_cross_values_gradients_and_default_dim():
    a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = np.array([[0.0, 1.0, 0.5], [1.0, 0.0, -2.0]])
    compare(lambda x, y: ug.cross(x, y, dim=1), lambda x, y: torch.cross(x, y, dim=1), a, b)
    compare(lambda x, y: ug.cross(x, y, dim=0), lambda x, y: torch.cross(x, y, dim=0), a.T, b.T)
    compare(lambda x, y: ug.linalg.cross(x, y), lambda x, y: torch.linalg.cross(x, y), a, b)
    compare(lambda x, y: ug.linalg.cross(x, y), lambda x, y: torch.linalg.cross(x, y),
            a[:1], b)  # broadcast
    with pytest.warns(UserWarning, match="Using torch.cross without specifying the dim arg"):
        got = ug.cross(ug.tensor(a.T), ug.tensor(b.T))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = torch.cross(torch.tensor(a.T), torch.tensor(b.T))
    np.testing.assert_allclose(np.asarray(got._data), want.numpy())
    ints, tints = ug.tensor([1, 2, 3]), torch.tensor([1, 2, 3])
    got = ints.cross(ug.tensor([3, 4, 5]), dim=0)
    want = tints.cross(torch.tensor([3, 4, 5]), dim=0)
    assert got.dtype == ug.int64 and got.tolist() == want.tolist()


def test_cross_errors():
    a, ta = ug.ones(2, 3), torch.ones(2, 3)
    raises_like(lambda: ug.linalg.cross(a[:, :2], a[:, :2]),
                lambda: torch.linalg.cross(ta[:, :2], ta[:, :2]))
    raises_like(lambda: ug.linalg.cross(a[0], a), lambda: torch.linalg.cross(ta[0], ta))
    raises_like(lambda: ug.linalg.cross(ug.ones(3, 3), a), lambda: torch.linalg.cross(
        torch.ones(3, 3), ta))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raises_like(lambda: ug.cross(a[:, :2], a[:, :2]),
                    lambda: torch.cross(ta[:, :2], ta[:, :2]))


def test_autocast_runs_distances_in_float32():
    # PyTorch's CUDA autocast policy (unigrad's on every device): cdist, dist, renorm in float32
    x = ug.tensor([[0.0, 1.0], [2.0, 3.0]], dtype=ug.float16)
    with ug.amp.autocast():
        assert ug.cdist(x, x).dtype == ug.float32
        assert ug.dist(x, x).dtype == ug.float32
        assert ug.renorm(x, 2, 0, 1.0).dtype == ug.float32
        assert ug.cross(ug.ones(3, dtype=ug.float16), ug.ones(3, dtype=ug.float16),
                        dim=0).dtype == ug.float16
