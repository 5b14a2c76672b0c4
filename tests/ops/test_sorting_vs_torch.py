"""``unigrad.ops.sorting`` against PyTorch: values, indices and gradients at ties, NaN,
empty and 0-d inputs, negative dims and integer dtypes, and PyTorch's errors."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad.interpreters.batching import BatchingError

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch

NAN = float("nan")
TIES = np.array([[3.0, 1.0, 2.0, 1.0, 3.0, 2.0, 1.0],
                 [0.5, 0.5, -1.0, 4.0, 4.0, 0.5, -1.0]])
WITH_NAN = np.array([[3.0, NAN, 1.0, 2.0, NAN],
                     [2.0, 1.0, 1.0, 5.0, 0.0],
                     [NAN, NAN, NAN, NAN, NAN]])
DISTINCT = np.array([[0.3, -1.2, 2.5, 0.7, -0.4],
                     [1.1, 0.2, -2.0, 3.3, 0.9],
                     [-0.6, 1.8, 0.0, -1.5, 2.2]])


def as_numpy(value) -> np.ndarray:
    if isinstance(value, torch.Tensor):
        return value.detach().numpy()
    return np.asarray(value.detach()._data)


def assert_same(got, want) -> None:
    got, want = as_numpy(got), as_numpy(want)
    assert got.shape == want.shape
    assert got.dtype == want.dtype, f"{got.dtype} vs {want.dtype}"
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True)


def compare(name, array, *args, grad=True, **kwargs):
    """``ug.<name>`` and ``torch.<name>`` on ``array``: every output, and the gradient of a
    random combination of the floating outputs."""
    ours = ug.tensor(array, requires_grad=grad)
    theirs = torch.tensor(array, requires_grad=grad)
    got, want = getattr(ug, name)(ours, *args, **kwargs), getattr(torch, name)(theirs, *args,
                                                                             **kwargs)
    got = list(got) if isinstance(got, tuple) else [got]
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w)
    if not grad:
        return
    rng = np.random.default_rng(0)
    weights = [rng.standard_normal(tuple(w.shape)) for w in want]
    ug_total = sum(((g * ug.tensor(v)).sum() for g, v, w in zip(got, weights, want)
                    if w.dtype.is_floating_point), ug.tensor(0.0))
    torch_total = sum(((w * torch.tensor(v)).sum() for v, w in zip(weights, want)
                       if w.dtype.is_floating_point), torch.tensor(0.0, dtype=torch.float64))
    (ug_grad,) = ug.autograd.grad(ug_total, ours)
    (torch_grad,) = torch.autograd.grad(torch_total, theirs)
    np.testing.assert_allclose(as_numpy(ug_grad), torch_grad.numpy(), rtol=1e-12, atol=1e-12)


# ----------------------------------------------------------------------------- sort / topk

@pytest.mark.parametrize("dim", [0, 1, -1, -2])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_stable_ties_and_gradient(dim, descending):
    compare("sort", TIES, stable=True, dim=dim, descending=descending)
    compare("argsort", TIES, stable=True, dim=dim, descending=descending, grad=False)
    compare("sort", TIES, dim=dim, descending=descending)  # CPU sorts stably either way


@pytest.mark.parametrize("descending", [False, True])
def test_sort_nan_is_largest(descending):
    compare("sort", WITH_NAN, 1, descending, grad=False)
    compare("argsort", WITH_NAN, dim=-1, descending=descending, grad=False)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.bool_])
def test_sort_integer_and_bool(dtype):
    array = (TIES * 2).astype(dtype)
    compare("sort", array, 1, True, grad=False)
    compare("sort", array, 0, grad=False)
    compare("argsort", array, stable=True, dim=1, grad=False)


def test_sort_empty_and_scalar():
    compare("sort", np.zeros((0, 3)), 0)
    compare("sort", np.array(2.5), 0)
    compare("msort", TIES)
    compare("argsort", np.array(1.5), grad=False)


def test_sort_dim_out_of_range():
    with pytest.raises(IndexError, match="Dimension out of range"):
        ug.sort(ug.ones((2, 3)), 2)


@pytest.mark.parametrize("k, dim, largest", [(3, 1, True), (2, 0, False), (5, -1, True),
                                             (0, 1, True)])
def test_topk_distinct(k, dim, largest):
    compare("topk", DISTINCT, k, dim, largest)


def test_topk_ties_values_and_errors():
    got, want = ug.topk(ug.tensor(TIES), 3), torch.topk(torch.tensor(TIES), 3)
    assert_same(got.values, want.values)
    assert_same(got.indices, torch.tensor([[0, 4, 2], [3, 4, 0]]))  # ties in index order
    compare("topk", np.array(4.0), 1)
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        ug.topk(ug.ones(3), 4)


# ----------------------------------------------------------------------------- order statistics

@pytest.mark.parametrize("k, dim, keepdim", [(1, 1, False), (3, 0, True), (5, -1, False)])
def test_kthvalue_distinct(k, dim, keepdim):
    compare("kthvalue", DISTINCT, k, dim, keepdim)


def test_kthvalue_ties_values_and_errors():
    got, want = ug.kthvalue(ug.tensor(TIES), 4, 1), torch.kthvalue(torch.tensor(TIES), 4, 1)
    assert_same(got.values, want.values)
    compare("kthvalue", np.array(2.0), 1)
    with pytest.raises(RuntimeError, match="kthvalue\\(\\): selected number k out of range"):
        ug.kthvalue(ug.ones(3), 4)


@pytest.mark.parametrize("name", ["median", "nanmedian"])
@pytest.mark.parametrize("dim, keepdim", [(1, False), (0, True), (-1, True)])
def test_median_dim_distinct(name, dim, keepdim):
    compare(name, DISTINCT, dim, keepdim)
    compare(name, DISTINCT[:, :4], dim, keepdim)  # even length: the lower median


@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_nan(name):
    compare(name, WITH_NAN, 1, grad=False)
    compare(name, WITH_NAN[:2], grad=False)
    compare(name, WITH_NAN[:2], 1)  # the gradient goes to the selected element


@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_whole_median_shares_gradient_among_ties(name):
    compare(name, np.array([3.0, 1.0, 2.0, 2.0, 5.0, 2.0]))
    compare(name, TIES)
    compare(name, np.array(4.0))
    compare(name, np.zeros((0,)), grad=False)


def test_median_empty_dim_error():
    with pytest.raises(IndexError, match="Expected reduction dim 0 to have non-zero size"):
        ug.median(ug.zeros((0, 3)), 0)


def test_median_integers():
    compare("median", (TIES * 2).astype(np.int64), 1, grad=False)
    compare("median", (TIES * 2).astype(np.int64), grad=False)


@pytest.mark.parametrize("dim, keepdim", [(1, False), (0, True), (-1, False)])
def test_mode_ties(dim, keepdim):
    compare("mode", TIES, dim, keepdim)
    compare("mode", (TIES * 2).astype(np.int64), dim, keepdim, grad=False)


def test_mode_scalar_and_empty():
    compare("mode", np.array(3.0))
    with pytest.raises(IndexError, match="mode\\(\\): Expected reduction dim 0"):
        ug.mode(ug.zeros((0,)))


# ----------------------------------------------------------------------------- quantile

@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile_interpolations(name, interpolation):
    q = np.array([0.0, 0.125, 0.3, 0.5, 0.875, 1.0])
    compare(name, DISTINCT, 0.3, 1, interpolation=interpolation)
    for dim, keepdim in [(None, False), (None, True), (1, False), (0, True), (-1, True)]:
        ours, theirs = ug.tensor(DISTINCT, requires_grad=True), torch.tensor(
            DISTINCT, requires_grad=True)
        ug_q, torch_q = ug.tensor(q, requires_grad=True), torch.tensor(q, requires_grad=True)
        got = getattr(ug, name)(ours, ug_q, dim, keepdim, interpolation=interpolation)
        want = getattr(torch, name)(theirs, torch_q, dim, keepdim, interpolation=interpolation)
        assert_same(got, want)
        weights = np.random.default_rng(1).standard_normal(tuple(want.shape))
        ug_grads = ug.autograd.grad((got * ug.tensor(weights)).sum(), (ours, ug_q),
                                    allow_unused=True)
        torch_grads = torch.autograd.grad((want * torch.tensor(weights)).sum(),
                                          (theirs, torch_q), allow_unused=True)
        for g, w in zip(ug_grads, torch_grads):
            if g is None or w is None:  # lower/higher/nearest: no gradient reaches q
                assert w is None or not w.any()
                assert g is None or not np.any(as_numpy(g))
                continue
            np.testing.assert_allclose(as_numpy(g), w.numpy(), rtol=1e-10, atol=1e-12)


def test_quantile_nan_and_scalar():
    compare("quantile", WITH_NAN, 0.4, 1, grad=False)
    compare("nanquantile", WITH_NAN, 0.4, 1, grad=False)
    compare("nanquantile", WITH_NAN[:2], 0.4, 1)
    compare("quantile", np.array(2.0), 0.5)
    compare("quantile", np.array(2.0), 0.5, 0, True)
    compare("quantile", DISTINCT.astype(np.float32), 0.7, grad=False)


def test_quantile_errors():
    x = ug.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="input tensor must be non-empty"):
        ug.quantile(ug.zeros((0,)), 0.5)
    with pytest.raises(RuntimeError, match="input tensor must be either float or double"):
        ug.quantile(ug.tensor([1, 2]), 0.5)
    with pytest.raises(RuntimeError, match="q must be in the range \\[0, 1\\] but got 1.5"):
        ug.quantile(x, 1.5)
    with pytest.raises(RuntimeError, match="q values must be in the range"):
        ug.quantile(x, ug.tensor([0.5, -0.1], dtype=ug.float32))
    with pytest.raises(RuntimeError, match="q tensor must be same dtype"):
        ug.quantile(x, ug.tensor([0.5], dtype=ug.float64))
    with pytest.raises(RuntimeError, match="q must be a scalar or 1D tensor"):
        ug.quantile(x, ug.tensor([[0.5]]))
    with pytest.raises(RuntimeError, match="interpolation must be one of"):
        ug.quantile(x, 0.5, interpolation="cubic")


# ----------------------------------------------------------------------------- unique

def compare_plain(ours, theirs) -> None:
    ours = list(ours) if isinstance(ours, tuple) else [ours]
    theirs = list(theirs) if isinstance(theirs, tuple) else [theirs]
    assert len(ours) == len(theirs)
    for g, w in zip(ours, theirs):
        assert_same(g, w)


@pytest.mark.parametrize("kwargs", [{}, {"return_inverse": True},
                                    {"return_counts": True, "return_inverse": True},
                                    {"dim": 0, "return_inverse": True, "return_counts": True},
                                    {"dim": -1, "return_counts": True}])
@pytest.mark.parametrize("array", [TIES, (TIES * 2).astype(np.int64), WITH_NAN,
                                   np.array([[1, 1], [0, 2], [1, 1]])])
def test_unique(kwargs, array):
    if "dim" in kwargs and np.isnan(array).any():
        pytest.skip("PyTorch's unique(dim) with NaN is ill-defined")
    compare_plain(ug.unique(ug.tensor(array), **kwargs),
                  torch.unique(torch.tensor(array), **kwargs))
    compare_plain(ug.tensor(array).unique(**kwargs), torch.tensor(array).unique(**kwargs))


@pytest.mark.parametrize("kwargs", [{}, {"return_inverse": True, "return_counts": True},
                                    {"dim": 0, "return_inverse": True, "return_counts": True},
                                    {"dim": 1, "return_counts": True}])
def test_unique_consecutive(kwargs):
    array = np.array([[1, 1, 2, 2, 3], [1, 1, 2, 2, 0], [4, 4, 4, 4, 4], [4, 4, 4, 4, 4]])
    compare_plain(ug.unique_consecutive(ug.tensor(array), **kwargs),
                  torch.unique_consecutive(torch.tensor(array), **kwargs))
    compare_plain(ug.unique_consecutive(ug.tensor([], dtype=ug.int64), return_counts=True),
                  torch.unique_consecutive(torch.tensor([], dtype=torch.int64),
                                           return_counts=True))


def test_value_dependent_shapes_refuse_vmap():
    for function, dtype in ((ug.unique, ug.float32), (ug.bincount, ug.int64),
                            (ug.unique_consecutive, ug.float32)):
        with pytest.raises(BatchingError, match="its result's shape depends on each example's"):
            ug.vmap(function)(ug.ones((2, 3), dtype=dtype))


# ----------------------------------------------------------------------------- searching

SEQUENCE = np.array([1.0, 2.0, 2.0, 3.0, 5.0])
QUERIES = np.array([[2.0, NAN, 0.0], [5.0, 4.0, 1.0]])


@pytest.mark.parametrize("kwargs", [{}, {"right": True}, {"side": "right"},
                                    {"side": "left", "out_int32": True}])
def test_searchsorted(kwargs):
    compare_plain(ug.searchsorted(ug.tensor(SEQUENCE), ug.tensor(QUERIES), **kwargs),
                  torch.searchsorted(torch.tensor(SEQUENCE), torch.tensor(QUERIES), **kwargs))
    rows = np.stack([SEQUENCE, SEQUENCE * 2])
    compare_plain(ug.searchsorted(ug.tensor(rows), ug.tensor(QUERIES), **kwargs),
                  torch.searchsorted(torch.tensor(rows), torch.tensor(QUERIES), **kwargs))
    compare_plain(ug.searchsorted(ug.tensor(SEQUENCE), 2.0, **kwargs),
                  torch.searchsorted(torch.tensor(SEQUENCE), 2.0, **kwargs))


def test_searchsorted_sorter_mixed_dtypes_and_errors():
    unsorted, sorter = [3.0, 1.0, 2.0], [1, 2, 0]
    compare_plain(ug.searchsorted(ug.tensor(unsorted), ug.tensor([2.5, 0.0]),
                                  sorter=ug.tensor(sorter)),
                  torch.searchsorted(torch.tensor(unsorted), torch.tensor([2.5, 0.0]),
                                     sorter=torch.tensor(sorter)))
    compare_plain(ug.searchsorted(ug.tensor([1, 2, 3]), ug.tensor([2.5])),
                  torch.searchsorted(torch.tensor([1, 2, 3]), torch.tensor([2.5])))
    with pytest.raises(RuntimeError, match="side and right can't be set to opposites"):
        ug.searchsorted(ug.tensor(SEQUENCE), ug.tensor([1.0]), side="left", right=True)
    with pytest.raises(RuntimeError, match="side can only be 'left' or 'right'"):
        ug.searchsorted(ug.tensor(SEQUENCE), ug.tensor([1.0]), side="up")
    with pytest.raises(RuntimeError, match="first N-1 dimensions"):
        ug.searchsorted(ug.tensor([[1.0, 2.0]]), ug.tensor([1.0]))


@pytest.mark.parametrize("right", [False, True])
def test_bucketize(right):
    boundaries = [1.0, 3.0, 5.0]
    values = [[1.0, 5.0, 6.0], [2.0, 3.0, 0.0]]
    compare_plain(ug.bucketize(ug.tensor(values), ug.tensor(boundaries), right=right),
                  torch.bucketize(torch.tensor(values), torch.tensor(boundaries), right=right))
    compare_plain(ug.bucketize(3, ug.tensor(boundaries), right=right, out_int32=True),
                  torch.bucketize(3, torch.tensor(boundaries), right=right, out_int32=True))
    with pytest.raises(RuntimeError, match="boundaries tensor must be 1 dimension"):
        ug.bucketize(ug.tensor([1.0]), ug.tensor([[1.0, 2.0]]))


# ----------------------------------------------------------------------------- counting

@pytest.mark.parametrize("args", [(4,), (4, 0.0, 4.0), (3, -1.0, 1.0), (100,), (5, 2.0, 2.0)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_histc(args, dtype):
    array = np.array([1.0, 2.0, 1.0, NAN if len(args) == 3 and args[1] == 0 else 4.0, 0.5,
                      -0.75, 1.0, 3.999, 2.0], dtype=dtype)
    compare_plain(ug.histc(ug.tensor(array), *args), torch.histc(torch.tensor(array), *args))
    compare_plain(ug.tensor(array).histc(*args), torch.tensor(array).histc(*args))


def test_histc_edge_cases_and_errors():
    for array in ([1.0, 1.0], [], [0.0, 1.0]):
        compare_plain(ug.histc(ug.tensor(array), bins=4), torch.histc(torch.tensor(array),
                                                                         bins=4))
    with pytest.raises(RuntimeError, match="max must be larger than min"):
        ug.histc(ug.tensor([1.0]), min=2, max=1)
    with pytest.raises(RuntimeError, match="is not finite"):
        ug.histc(ug.tensor([1.0, NAN]))
    with pytest.raises(NotImplementedError, match="not implemented for 'int64'"):
        ug.histc(ug.tensor([1, 2]))


@pytest.mark.parametrize("weights_dtype", [None, np.float32, np.float64, np.int64])
def test_bincount(weights_dtype):
    values = np.array([0, 3, 1, 1, 3, 3])
    if weights_dtype is None:
        compare_plain(ug.bincount(ug.tensor(values)), torch.bincount(torch.tensor(values)))
        compare_plain(ug.tensor(values).bincount(minlength=7),
                      torch.tensor(values).bincount(minlength=7))
        return
    weights = np.array([0.5, 1.0, 2.0, -1.0, 0.25, 3.0]).astype(weights_dtype)
    compare_plain(ug.bincount(ug.tensor(values), ug.tensor(weights), 2),
                  torch.bincount(torch.tensor(values), torch.tensor(weights), 2))


def test_bincount_empty_and_errors():
    compare_plain(ug.bincount(ug.tensor([], dtype=ug.int64)),
                  torch.bincount(torch.tensor([], dtype=torch.int64)))
    compare_plain(ug.bincount(ug.tensor([], dtype=ug.int64), minlength=2),
                  torch.bincount(torch.tensor([], dtype=torch.int64), minlength=2))
    for bad in ([-1], [[1]]):
        with pytest.raises(RuntimeError, match="1-d non-negative integral inputs"):
            ug.bincount(ug.tensor(bad))
    with pytest.raises(RuntimeError, match="minlength should be >= 0"):
        ug.bincount(ug.tensor([1]), minlength=-1)
    with pytest.raises(RuntimeError, match="same length as input"):
        ug.bincount(ug.tensor([1, 2]), ug.tensor([1.0]))
