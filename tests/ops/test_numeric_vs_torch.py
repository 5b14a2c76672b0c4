"""``unigrad.ops.numeric`` against PyTorch: isin (NaN, scalars, dtypes), the infinity
predicates, rsub, fill, scalar_tensor, logspace, trapz, histogram (data range, single
point, empty, edges, weights, density) and gradient (values and gradients)."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch

NAN, INF = float("nan"), float("inf")


def same(got, want, atol=1e-6):
    got = np.asarray(got.detach()._data) if isinstance(got, ug.Tensor) else np.asarray(got)
    want = want.detach().numpy()
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, atol=atol, rtol=1e-6, equal_nan=True)


# ----------------------------------------------------------------------------- predicates

@pytest.mark.parametrize("elements, tests", [
    ([1, 2, 3, 2], [2, 5]),
    ([[1.0, NAN], [INF, 2.0]], [NAN, INF, 2.0]),
    ([1.0, 2.0], [2]),
    ([1, 2], [1.5, 2.0]),
    ([], [1.0]),
    ([1.0, 2.0], []),
    (list(range(0, 60, 3)), [float(v) for v in range(0, 60, 2)] + [NAN]),  # the sorted path
])
@pytest.mark.parametrize("invert", [False, True])
def test_isin(elements, tests, invert):
    same(ug.isin(ug.tensor(elements), ug.tensor(tests), invert=invert),
         torch.isin(torch.tensor(elements), torch.tensor(tests), invert=invert))


def test_isin_scalars():
    same(ug.isin(2, ug.tensor([1, 2])), torch.isin(2, torch.tensor([1, 2])))
    same(ug.isin(ug.tensor([[1, 2]]), 2), torch.isin(torch.tensor([[1, 2]]), 2))
    same(ug.isin(ug.tensor([1, 3]), ug.tensor([3, 1]), assume_unique=True),
         torch.isin(torch.tensor([1, 3]), torch.tensor([3, 1]), assume_unique=True))


@pytest.mark.parametrize("values", [[-INF, INF, NAN, 0.0, -1.0], [1, -2, 0], [True, False]])
def test_infinity_predicates(values):
    for name in ("isneginf", "isposinf", "isreal"):
        same(getattr(ug, name)(ug.tensor(values)), getattr(torch, name)(torch.tensor(values)))
        same(getattr(ug.tensor(values), name)(), getattr(torch.tensor(values), name)())


def test_positive_and_rsub():
    x = [1.0, -2.0, NAN]
    same(ug.positive(ug.tensor(x)), torch.positive(torch.tensor(x)))
    same(ug.tensor([1, 2]).positive(), torch.tensor([1, 2]).positive())
    with pytest.raises(RuntimeError, match="bool"):
        ug.positive(ug.tensor([True]))
    same(ug.rsub(ug.tensor(x), 2.0, alpha=3), torch.rsub(torch.tensor(x), 2.0, alpha=3))
    same(ug.rsub(ug.tensor([1, 2]), ug.tensor([[5], [7]])),
         torch.rsub(torch.tensor([1, 2]), torch.tensor([[5], [7]])))
    a, b = ug.tensor([1.0, 2.0], requires_grad=True), ug.tensor([3.0, 5.0], requires_grad=True)
    ug.rsub(a, b, alpha=2).sum().backward()
    assert a.grad.tolist() == [-2.0, -2.0] and b.grad.tolist() == [1.0, 1.0]


# ----------------------------------------------------------------------------- fills, creation

def test_fill():
    same(ug.fill(ug.tensor([1, 2, 3]), 2.7), torch.fill(torch.tensor([1, 2, 3]), 2.7))
    same(ug.fill(ug.tensor([[INF, NAN]]), ug.tensor(4.0)),
         torch.fill(torch.tensor([[INF, NAN]]), torch.tensor(4.0)))
    value = ug.tensor(2.0, requires_grad=True)
    x = ug.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (ug.fill(x, value) * ug.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert value.grad.item() == 6.0 and x.grad.tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(RuntimeError, match="0-dimension value tensor"):
        ug.fill(ug.zeros(2), ug.zeros(2))


def test_scalar_tensor_and_empty_strided():
    for value, dtype in ((3, None), (True, None), (2.5, ug.float64), (7, ug.int64)):
        tdtype = None if dtype is None else getattr(torch, str(dtype).split(".")[-1])
        same(ug.scalar_tensor(value, dtype=dtype), torch.scalar_tensor(value, dtype=tdtype))
    assert ug.empty_strided((2, 3), (3, 1)).shape == (2, 3)
    assert ug.empty_strided((2,), (1,), dtype=ug.int64).dtype == ug.int64
    with pytest.raises(RuntimeError):
        ug.empty_strided((2, 3), (1,))
    made = ug.tensor([1, 2]).new_empty(2, 3)
    assert made.shape == (2, 3) and made.dtype == ug.int64
    assert ug.tensor([1.0]).new_empty((4,), dtype=ug.float64).dtype == ug.float64


@pytest.mark.parametrize("args, kwargs", [
    ((0, 2, 3), {}), ((0, 3, 4), {"base": 2}), ((-1.5, 1.5, 7), {}), ((2, 0, 5), {"base": 3.0}),
    ((0, 1, 1), {}), ((0, 1, 0), {}), ((0, 3, 4), {"base": 2, "dtype": "int32"}),
    ((0, 2, 3), {"dtype": "float64"}),
])
def test_logspace(args, kwargs):
    ours = {**kwargs, **({"dtype": getattr(ug, kwargs["dtype"])} if "dtype" in kwargs else {})}
    theirs = {**kwargs,
              **({"dtype": getattr(torch, kwargs["dtype"])} if "dtype" in kwargs else {})}
    same(ug.logspace(*args, **ours), torch.logspace(*args, **theirs))


def test_trapz():
    y = np.random.default_rng(0).standard_normal((3, 5))
    x = np.cumsum(np.random.default_rng(1).uniform(0.5, 1.5, 5))
    same(ug.trapz(ug.tensor(y)), torch.trapz(torch.tensor(y)))
    same(ug.trapz(ug.tensor(y), dx=0.5, dim=0), torch.trapz(torch.tensor(y), dx=0.5, dim=0))
    same(ug.trapz(ug.tensor(y), ug.tensor(x)), torch.trapz(torch.tensor(y), torch.tensor(x)))


# ----------------------------------------------------------------------------- histogram

@pytest.mark.parametrize("data, bins, kwargs", [
    ([1.0, 2.0, 1.0, 4.0, -3.0], 4, {}),
    ([[1.0, 5.0], [2.0, 3.0]], 2, {}),
    ([2.0, 2.0], 2, {}),
    ([], 3, {}),
    ([1.0, 5.0, NAN, 0.0, 4.0], 2, {"range": (0.0, 4.0)}),
    ([1.0, 2.0, 1.0], 4, {"range": (0.0, 3.0), "density": True}),
    ([0.1, 0.5, 0.9, 1.0], 3, {"range": (0.5, 0.5)}),
])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_histogram(data, bins, kwargs, dtype):
    got = ug.histogram(ug.tensor(data, dtype=getattr(ug, dtype)), bins, **kwargs)
    want = torch.histogram(torch.tensor(data, dtype=getattr(torch, dtype)), bins, **kwargs)
    assert type(got).__name__ == "histogram" and got._fields == ("hist", "bin_edges")
    same(got.hist, want.hist)
    same(got.bin_edges, want.bin_edges)


def test_histogram_edges_and_weights():
    data = np.random.default_rng(2).standard_normal(50)
    weight = np.random.default_rng(3).uniform(0, 2, 50)
    edges = np.array([-1.0, 0.0, 0.25, 2.0])
    for kwargs in ({}, {"density": True}):
        got = ug.histogram(ug.tensor(data), ug.tensor(edges), weight=ug.tensor(weight), **kwargs)
        want = torch.histogram(torch.tensor(data), torch.tensor(edges),
                               weight=torch.tensor(weight), **kwargs)
        same(got.hist, want.hist, atol=1e-12)
        same(got.bin_edges, want.bin_edges)
    got = ug.tensor(data).histogram(5, weight=ug.tensor(weight))
    want = torch.tensor(data).histogram(5, weight=torch.tensor(weight))
    same(got.hist, want.hist, atol=1e-12)


def test_histogram_errors():
    with pytest.raises(NotImplementedError):
        ug.histogram(ug.tensor([1, 2]), 2)
    with pytest.raises(RuntimeError, match="min should not exceed max"):
        ug.histogram(ug.tensor([1.0]), 2, range=(4.0, 1.0))
    with pytest.raises(RuntimeError, match="bins must be > 0"):
        ug.histogram(ug.tensor([1.0]), 0)


# ----------------------------------------------------------------------------- gradient

def gradient_case(shape, kwargs, coordinates=()):
    rng = np.random.default_rng(sum(shape))
    data = rng.standard_normal(shape)
    x = ug.tensor(data, requires_grad=True)
    t = torch.tensor(data, requires_grad=True)
    ours, theirs = dict(kwargs), dict(kwargs)
    if coordinates:
        ours["spacing"] = [ug.tensor(c) for c in coordinates]
        theirs["spacing"] = [torch.tensor(c) for c in coordinates]
    got, want = ug.gradient(x, **ours), torch.gradient(t, **theirs)
    assert isinstance(got, tuple) and len(got) == len(want)
    weights = [rng.standard_normal(tuple(w.shape)) for w in want]
    for g, w in zip(got, want):
        same(g, w, atol=1e-12)
    ug.autograd.backward(sum((g * ug.tensor(c)).sum() for g, c in zip(got, weights)))
    sum((w * torch.tensor(c)).sum() for w, c in zip(want, weights)).backward()
    same(x.grad, t.grad, atol=1e-12)


@pytest.mark.parametrize("shape, kwargs", [
    ((5,), {}), ((5,), {"spacing": 2.0}), ((5, 4), {"edge_order": 2}),
    ((5, 4), {"spacing": [2.0, 0.5]}), ((4, 3, 5), {"dim": (0, -1), "spacing": [2.0, 1.5]}),
    ((4, 3, 5), {"dim": -2, "edge_order": 2, "spacing": 0.25}), ((2, 3), {"dim": 0}),
    ((3,), {"edge_order": 2}),
])
def test_gradient_uniform(shape, kwargs):
    gradient_case(shape, kwargs)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_coordinates(edge_order):
    gradient_case((4, 5), {"dim": (0, 1), "edge_order": edge_order},
                  coordinates=([0.0, 1.0, 3.0, 3.5], [1.0, 3.0, 2.0, 6.0, 6.5]))


def test_gradient_integer_input_and_errors():
    same(ug.gradient(ug.tensor([1, 4, 9]))[0], torch.gradient(torch.tensor([1, 4, 9]))[0])
    with pytest.raises(RuntimeError, match="edge_order"):
        ug.gradient(ug.tensor([1.0, 4.0]), edge_order=2)
    with pytest.raises(RuntimeError, match="edge_order=1 and edge_order=2"):
        ug.gradient(ug.tensor([1.0, 4.0, 9.0]), edge_order=3)
    with pytest.raises(RuntimeError, match="list of length"):
        ug.gradient(ug.ones(2, 3), spacing=[1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="one dimension"):
        ug.gradient(ug.ones(3), spacing=[ug.tensor(2.0)])
