"""``unigrad.ops.scatter`` against PyTorch: values and gradients of the index-writing,
masked and scatter ops at duplicates, ties, zeros, NaN, empty indices, negative dims and
integer dtypes; nonzero/argwhere (and their refusal under vmap/jit); list and range
indices in ``Tensor.__getitem__``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import unigrad as ug
from unigrad.graph.tracer import ConcretizationError
from unigrad.interpreters.batching import BatchingError

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch


def both(array):
    """The same integer or boolean array as a unigrad and a torch tensor."""
    array = np.asarray(array)
    return ug.tensor(array), torch.tensor(array)


def compare(ug_fn, torch_fn, *arrays, seed=0, grad=True):
    """Values of the output and the gradients of every float input under a random
    cotangent (and, with ``grad="second"``, the gradients of a function of those)."""
    ours = [ug.tensor(np.asarray(a, dtype=np.float64), requires_grad=True) for a in arrays]
    theirs = [torch.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)
              for a in arrays]
    got, want = ug_fn(*ours), torch_fn(*theirs)
    assert tuple(got.shape) == tuple(want.shape)
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), atol=1e-12,
                               rtol=1e-12)
    if not grad:
        return
    weights = np.random.default_rng(seed).standard_normal(tuple(want.shape))
    second = grad == "second"
    ug_grads = ug.autograd.grad((got * ug.tensor(weights)).sum(), ours, allow_unused=True,
                                create_graph=second)
    torch_grads = torch.autograd.grad((want * torch.tensor(weights)).sum(), theirs,
                                      allow_unused=True, create_graph=second)
    for g, w in zip(ug_grads, torch_grads):
        if w is None:
            assert g is None or not np.any(g.detach().numpy())
            continue
        np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(), atol=1e-10,
                                   rtol=1e-10)
    if second:
        pairs = [(g, w) for g, w in zip(ug_grads, torch_grads) if w is not None]
        # the cubes make the totals depend on the inputs also where the op is linear
        ug_total = sum(((g * g).sum() for g, _ in pairs), sum((x ** 3).sum() for x in ours))
        torch_total = sum(((w * w).sum() for _, w in pairs),
                          sum((x ** 3).sum() for x in theirs))
        for g, w in zip(ug.autograd.grad(ug_total, ours, allow_unused=True),
                        torch.autograd.grad(torch_total, theirs, allow_unused=True)):
            if w is None:
                assert g is None or not np.any(g.numpy())
                continue
            np.testing.assert_allclose(g.numpy(), w.numpy(), atol=1e-10, rtol=1e-10)


RNG = np.random.default_rng(7)
X = RNG.standard_normal((3, 4))


# ----------------------------------------------------------------------------- index_*

@pytest.mark.parametrize("dim, index, shape", [(0, [2, 0, 2], (3, 4)), (1, [3, 3], (3, 2)),
                                               (-1, [0], (3, 1)), (0, [], (0, 4))])
def test_index_add(dim, index, shape):
    ug_index, torch_index = both(np.array(index, dtype=np.int64))
    source = RNG.standard_normal(shape)
    compare(lambda x, s: ug.index_add(x, dim, ug_index, s, alpha=1.5),
            lambda x, s: torch.index_add(x, dim, torch_index, s, alpha=1.5), X, source,
            grad="second")


def test_index_add_integers_and_scalar():
    got = ug.zeros(3, dtype=ug.int64).index_add(0, ug.tensor([0, 0]), ug.tensor([5, 7]),
                                                 alpha=2)
    assert got.tolist() == [24, 0, 0] and got.dtype == ug.int64
    assert ug.tensor(2.0).index_add(0, ug.tensor([0]), ug.tensor(3.0)).item() == 5.0


def test_index_copy_and_fill():
    ug_index, torch_index = both([2, 0])
    source = RNG.standard_normal((2, 4))
    compare(lambda x, s: x.index_copy(0, ug_index, s),
            lambda x, s: x.index_copy(0, torch_index, s), X, source, grad="second")
    ug_index, torch_index = both([3, 1, 3])  # a filled slice counts once for the value
    compare(lambda x, v: x.index_fill(1, ug_index, v[0]),
            lambda x, v: x.index_fill(1, torch_index, v[0]), X, np.array([2.5]))
    ug_index, torch_index = both([-1, 1, 3])  # negatives wrap (torch's backward then fails)
    compare(lambda x: x.index_fill(1, ug_index, 2.5),
            lambda x: x.index_fill(1, torch_index, 2.5), X, grad=False)
    value = ug.tensor(2.5, requires_grad=True)
    ug.zeros(3, 4).index_fill(1, ug_index, value).sum().backward()
    assert value.grad.item() == 6.0
    compare(lambda x: x.index_fill(0, ug.tensor([1]), -3.0),
            lambda x: x.index_fill(0, torch.tensor([1]), -3.0), X)
    got = ug.zeros(3, dtype=ug.int32).index_fill(0, ug.tensor([1]), 7)
    assert got.tolist() == [0, 7, 0] and got.dtype == ug.int32


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put(accumulate):
    rows, torch_rows = both([0, 2, 0])
    cols, torch_cols = both([1, 3, 1])
    if accumulate:  # repeated positions add up (a plain write with duplicates is unspecified)
        compare(lambda x, v: x.index_put((rows, cols), v, accumulate=True),
                lambda x, v: x.index_put((torch_rows, torch_cols), v, accumulate=True),
                X, RNG.standard_normal(3), grad="second")
    mask, torch_mask = both(X > 0)
    compare(lambda x, v: x.index_put((mask,), v, accumulate=accumulate),
            lambda x, v: x.index_put((torch_mask,), v, accumulate=accumulate),
            X, np.array(1.5))
    compare(lambda x, v: x.index_put((rows[:2],), v, accumulate=accumulate),
            lambda x, v: x.index_put((torch_rows[:2],), v, accumulate=accumulate),
            X, RNG.standard_normal(4))


def test_inplace_variants():
    x = ug.zeros(3, 2)
    assert x.index_add_(0, ug.tensor([1]), ug.ones(1, 2)) is x
    x.index_fill_(1, ug.tensor([0]), 5.0).index_copy_(0, ug.tensor([2]),
                                                      ug.tensor([[8.0, 9.0]]))
    x.index_put_((ug.tensor([0]), ug.tensor([1])), ug.tensor(4.0), accumulate=True)
    x.scatter_(1, ug.tensor([[1], [1], [0]]), 2.0)
    x.scatter_reduce_(0, ug.tensor([[0, 0]]), ug.tensor([[10.0, 10.0]]), "amax")
    x.masked_scatter_(ug.tensor([[False, True], [False, False], [False, False]]),
                      ug.tensor([-1.0]))
    t = torch.zeros(3, 2)
    t.index_add_(0, torch.tensor([1]), torch.ones(1, 2))
    t.index_fill_(1, torch.tensor([0]), 5.0).index_copy_(0, torch.tensor([2]),
                                                         torch.tensor([[8.0, 9.0]]))
    t.index_put_((torch.tensor([0]), torch.tensor([1])), torch.tensor(4.0), accumulate=True)
    t.scatter_(1, torch.tensor([[1], [1], [0]]), 2.0)
    t.scatter_reduce_(0, torch.tensor([[0, 0]]), torch.tensor([[10.0, 10.0]]), "amax")
    t.masked_scatter_(torch.tensor([[False, True], [False, False], [False, False]]),
                      torch.tensor([-1.0]))
    assert x.tolist() == t.tolist()
    assert x._version == 7


def test_inplace_gradient():
    base = ug.tensor(X, requires_grad=True)
    y = base * 1.0
    y.index_add_(1, ug.tensor([0, 0]), ug.ones(3, 2, dtype=ug.float64))
    (y * y).sum().backward()
    torch_base = torch.tensor(X, requires_grad=True)
    t = torch_base * 1.0
    t.index_add_(1, torch.tensor([0, 0]), torch.ones(3, 2, dtype=torch.float64))
    (t * t).sum().backward()
    np.testing.assert_allclose(base.grad.numpy(), torch_base.grad.numpy())


# ----------------------------------------------------------------------------- masked

@pytest.mark.parametrize("shape, mask_shape", [((3, 4), (3, 4)), ((3, 4), (4,)),
                                               ((3, 1), (3, 4)), ((3, 4), ())])
def test_masked_select(shape, mask_shape):
    x = RNG.standard_normal(shape)
    mask, torch_mask = both(RNG.standard_normal(mask_shape) > 0)
    compare(lambda a: ug.masked_select(a, mask), lambda a: torch.masked_select(a, torch_mask),
            x)


def test_masked_scatter():
    mask, torch_mask = both(X > 0)
    source = RNG.standard_normal(20)
    compare(lambda x, s: x.masked_scatter(mask, s), lambda x, s: x.masked_scatter(torch_mask, s),
            X, source, grad="second")
    row, torch_row = both([True, False, False, True])  # broadcast along the rows
    compare(lambda x, s: x.masked_scatter(row, s), lambda x, s: x.masked_scatter(torch_row, s),
            X, source)


def test_masked_errors():
    with pytest.raises(RuntimeError, match="ones in mask"):
        ug.zeros(3).masked_scatter(ug.tensor([True, True, True]), ug.zeros(2))
    with pytest.raises(RuntimeError, match="dtype"):
        ug.zeros(3).masked_scatter(ug.tensor([True, True, True]), ug.zeros(3, dtype=ug.float64))
    with pytest.raises(RuntimeError, match="BoolTensor"):
        ug.masked_select(ug.zeros(3), ug.tensor([1, 0, 1]))
    with pytest.raises(RuntimeError, match="size of the mask"):
        ug.masked_select(ug.zeros(3), ug.tensor([True, False]))
    with pytest.raises(RuntimeError, match="only supports boolean masks"):
        ug.zeros(3).masked_scatter(ug.tensor([1, 0, 1]), ug.zeros(3))


def test_masked_scatter_broadcasts_the_input():
    mask, torch_mask = both([[True, False, True], [False, True, False]])
    compare(lambda x, s: ug.masked_scatter(x, mask, s),
            lambda x, s: torch.masked_scatter(x, torch_mask, s), X[:2, :1], np.arange(5.0))


# ----------------------------------------------------------------------------- scatter

INDEX = np.array([[0, 2, 1, 0], [2, 2, 0, 0]])
SRC = RNG.standard_normal((2, 4))


def test_scatter_src_and_value():
    index = np.array([[0, 2, 1, 1], [2, 0, 0, 2]])  # distinct positions per column
    ug_index, torch_index = both(index)
    compare(lambda x, s: x.scatter(0, ug_index, s), lambda x, s: x.scatter(0, torch_index, s),
            X, SRC, grad="second")
    compare(lambda x: x.scatter(0, ug_index, 1.25), lambda x: x.scatter(0, torch_index, 1.25),
            X)
    compare(lambda x: ug.scatter(x, -1, ug_index[:, :2], value=-2.0),
            lambda x: torch.scatter(x, -1, torch_index[:, :2], value=-2.0), X)


@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_reduce_argument(reduce):
    ug_index, torch_index = both(INDEX)
    got = ug.tensor(X).scatter(0, ug_index, ug.tensor(SRC), reduce=reduce)
    want = torch.tensor(X).scatter(0, torch_index, torch.tensor(SRC), reduce=reduce)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)
    got = ug.tensor(X).scatter(0, ug_index, 3.0, reduce=reduce)
    want = torch.tensor(X).scatter(0, torch_index, 3.0, reduce=reduce)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_scatter_reduce(reduce, include_self):
    ug_index, torch_index = both(INDEX)
    compare(lambda x, s: x.scatter_reduce(0, ug_index, s, reduce, include_self=include_self),
            lambda x, s: x.scatter_reduce(0, torch_index, s, reduce, include_self=include_self),
            X, SRC, grad="second")


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["amax", "amin"])
def test_scatter_reduce_ties_split_evenly(reduce, include_self):
    x = np.array([[1.0, 2.0], [3.0, 3.0]])
    src = np.array([[3.0, 2.0], [3.0, 2.0], [1.0, 3.0]])
    ug_index, torch_index = both([[1, 0], [1, 0], [0, 1]])
    compare(lambda a, s: a.scatter_reduce(0, ug_index, s, reduce, include_self=include_self),
            lambda a, s: a.scatter_reduce(0, torch_index, s, reduce, include_self=include_self),
            x, src)


@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_prod_with_zeros(include_self):
    x = np.array([2.0, 0.0, 3.0, 4.0])
    src = np.array([0.0, 5.0, 0.0, 0.0, 2.0, 7.0])
    ug_index, torch_index = both([0, 0, 1, 2, 2, 3])  # one zero at 0 and 1, two at 2
    compare(lambda a, s: a.scatter_reduce(0, ug_index, s, "prod", include_self=include_self),
            lambda a, s: a.scatter_reduce(0, torch_index, s, "prod", include_self=include_self),
            x, src)
    single, torch_single = both([0, 0, 1, 3, 3, 3])  # at most one zero per position
    compare(lambda a, s: a.scatter_reduce(0, single, s, "prod", include_self=include_self),
            lambda a, s: a.scatter_reduce(0, torch_single, s, "prod",
                                          include_self=include_self), x, src, grad="second")


def test_scatter_reduce_nan_and_integers():
    ug_index, torch_index = both([0, 0, 1])
    src = np.array([1.0, np.nan, 3.0])
    for reduce in ("amax", "amin", "sum", "prod", "mean"):
        got = ug.zeros(2).scatter_reduce(0, ug_index, ug.tensor(src, dtype=ug.float32), reduce)
        want = torch.zeros(2).scatter_reduce(0, torch_index, torch.tensor(src).float(), reduce)
        np.testing.assert_array_equal(got.numpy(), want.numpy())
    for include_self in (True, False):
        for reduce in ("sum", "prod", "mean", "amax", "amin"):
            base = np.array([-7, 1, 4])
            got = ug.tensor(base).scatter_reduce(0, ug_index, ug.tensor([3, 2, 9]), reduce,
                                                 include_self=include_self)
            want = torch.tensor(base).scatter_reduce(0, torch_index, torch.tensor([3, 2, 9]),
                                                     reduce, include_self=include_self)
            assert got.tolist() == want.tolist() and got.dtype == ug.int64, (reduce,
                                                                             include_self)


def test_scatter_empty_index_and_scalar():
    empty = ug.zeros((0, 4), dtype=ug.int64)
    assert ug.tensor(X).scatter_reduce(0, empty, ug.tensor(SRC), "amax").tolist() == X.tolist()
    assert ug.tensor(X).scatter(0, empty, ug.tensor(SRC)).tolist() == X.tolist()
    got = ug.tensor(2.0).scatter(0, ug.tensor(0), ug.tensor(5.0))
    assert got.shape == () and got.item() == 5.0


def test_scatter_errors():
    with pytest.raises(RuntimeError, match="reduce argument must be either add or multiply"):
        ug.zeros(3).scatter(0, ug.tensor([0]), ug.ones(1), reduce="sum")
    with pytest.raises(RuntimeError, match="sum, prod, mean, amax or amin"):
        ug.zeros(3).scatter_reduce(0, ug.tensor([0]), ug.ones(1), "max")
    with pytest.raises(RuntimeError, match="out of bounds"):
        ug.zeros(3).scatter(0, ug.tensor([3]), ug.ones(1))
    with pytest.raises(RuntimeError, match="dtype"):
        ug.zeros(3).scatter(0, ug.tensor([0]), ug.ones(1, dtype=ug.float64))
    with pytest.raises(IndexError, match="out of bounds"):
        ug.zeros(3).index_copy(0, ug.tensor([3]), ug.ones(1))
    with pytest.raises(IndexError, match="out of bounds"):
        ug.zeros(3).index_add(0, ug.tensor([-1]), ug.ones(1))
    with pytest.raises(RuntimeError, match="dtype"):
        ug.zeros(3).index_add(0, ug.tensor([0]), ug.ones(1, dtype=ug.float64))
    with pytest.raises(RuntimeError, match="shape"):
        ug.zeros(3, 2).index_add(0, ug.tensor([0]), ug.ones(1, 3))
    with pytest.raises(RuntimeError, match="0-dimensional"):
        ug.zeros(3).index_fill(0, ug.tensor([0]), ug.ones(2))
    with pytest.raises(RuntimeError, match="dtypes match"):
        ug.zeros(3).index_put((ug.tensor([0]),), ug.ones(1, dtype=ug.float64))


@pytest.mark.parametrize("reduce", ["prod", "amax", "mean"])
def test_scatter_under_vmap(reduce):
    xs = RNG.standard_normal((5, 3, 4))
    srcs = RNG.standard_normal((5, 2, 4))
    index = ug.tensor(INDEX)
    got = ug.vmap(lambda x, s: x.scatter_reduce(0, index, s, reduce))(ug.tensor(xs),
                                                                      ug.tensor(srcs))
    for k in range(5):
        want = torch.tensor(xs[k]).scatter_reduce(0, torch.tensor(INDEX),
                                                  torch.tensor(srcs[k]), reduce)
        np.testing.assert_allclose(got[k].numpy(), want.numpy(), rtol=1e-12)


# ----------------------------------------------------------------------------- nonzero

@pytest.mark.parametrize("array", [np.array([[1, 0], [0, 2]]), np.array(3.0), np.array(0),
                                   np.zeros((2, 0)), np.array([True, False, True]),
                                   np.array([0.0, np.nan, -0.0, 2.0])])
def test_nonzero_and_argwhere(array):
    ours, theirs = both(array)
    for got, want in ((ug.nonzero(ours), torch.nonzero(theirs)),
                      (ours.argwhere(), theirs.argwhere())):
        assert got.dtype == ug.int64 and tuple(got.shape) == tuple(want.shape)
        assert got.tolist() == want.tolist()
    got, want = ours.nonzero(as_tuple=True), theirs.nonzero(as_tuple=True)
    assert len(got) == len(want)
    assert [g.tolist() for g in got] == [w.tolist() for w in want]


def test_data_dependent_shapes_are_refused_under_vmap_and_jit():
    batch = ug.tensor(RNG.standard_normal((3, 4)))
    with pytest.raises(BatchingError, match="nonzero"):
        ug.vmap(ug.nonzero)(batch)
    with pytest.raises(BatchingError, match="nonzero"):
        ug.vmap(ug.argwhere)(batch)
    with pytest.raises(BatchingError, match="boolean mask"):
        ug.vmap(ug.masked_select)(batch, batch > 0)
    with pytest.raises(ConcretizationError, match="nonzero"):
        ug.jit(ug.nonzero)(batch)
    with pytest.raises(ConcretizationError, match="boolean mask"):
        ug.jit(lambda x: ug.masked_select(x, x > 0))(batch)
    # an unbatched mask gives every example the same shape: allowed, as x[mask] is
    mask = ug.tensor([True, False, True, True])
    got = ug.vmap(lambda x: ug.masked_select(x, mask))(batch)
    np.testing.assert_array_equal(got.numpy(), batch.numpy()[:, [0, 2, 3]])


# ----------------------------------------------------------------------------- __getitem__

def test_getitem_with_lists_of_tensors_and_ranges():
    x = np.arange(12.0).reshape(3, 4)
    ours, theirs = ug.tensor(x), torch.tensor(x)
    cases = [
        lambda t, m: t[[m.tensor([0, 1]), m.tensor([1, 0])]],
        lambda t, m: t[[m.tensor(0), m.tensor(1)]],
        lambda t, m: t[range(2)],
        lambda t, m: t[range(1, 3), range(2)],
        lambda t, m: t[[range(2), [1, 2]]],
        lambda t, m: t[[[0, 1], [1, 0]]],
        lambda t, m: t[[0, slice(1, 3)]],
        lambda t, m: t[[0, None]],
        lambda t, m: t[[True, False, True]],
        lambda t, m: t[[m.tensor(0), 1]],
        lambda t, m: t[range(0)],
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns that list-as-tuple is deprecated
        for case in cases:
            got, want = case(ours, ug), case(theirs, torch)
            assert tuple(got.shape) == tuple(want.shape)
            assert got.tolist() == want.tolist()


def test_setitem_and_gradient_with_list_of_tensors():
    rows, cols = ug.tensor([0, 2]), ug.tensor([1, 1])
    x = ug.tensor(X, requires_grad=True)
    x[[rows, cols]].sum().backward()
    want = np.zeros_like(X)
    want[[0, 2], [1, 1]] = 1.0
    np.testing.assert_array_equal(x.grad.numpy(), want)
    y = ug.zeros(3, 4)
    y[[rows, cols]] = 5.0
    y[range(1, 2)] = -1.0
    assert y.tolist() == [[0.0, 5.0, 0.0, 0.0], [-1.0] * 4, [0.0, 5.0, 0.0, 0.0]]


@pytest.mark.parametrize("reduce", ["prod", "amax", "mean", "sum"])
def test_scatter_reduce_under_jit(reduce):
    def loss(x, src, index):
        return (x.scatter_reduce(0, index, src, reduce, include_self=False) ** 2).sum()

    compiled = ug.jit(ug.grad(loss, grad_position=(0, 1)))
    x, src = ug.tensor(X), ug.tensor(SRC)
    for index in (INDEX, INDEX[::-1].copy()):  # new index values reuse the graph
        got = compiled(x, src, ug.tensor(index))
        want = ug.grad(loss, grad_position=(0, 1))(x, src, ug.tensor(index))
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-12)
