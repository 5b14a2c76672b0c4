"""``unigrad.ops.views_copies`` against PyTorch: values and gradients of the broadcasting
helpers, splits, view copies, select/slice/diagonal scatters, put and index_reduce at
ties, NaN, zeros, empty pieces, negative dims and integer dtypes; unravel_index; the
errors PyTorch raises."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import unigrad as ug

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch


def _outputs(result) -> list:
    return list(result) if isinstance(result, tuple) else [result]


def compare(ug_fn, torch_fn, *arrays, seed=0, grad=True):
    """Values of every output and the gradients of every float input under random
    cotangents; integer arrays are passed as int64 tensors (not differentiated)."""
    def make(module, a, **kwargs):
        a = np.asarray(a)
        if a.dtype.kind == "f":
            return module.tensor(a.astype(np.float64), requires_grad=grad, **kwargs)
        return module.tensor(a)
    ours = [make(ug, a) for a in arrays]
    theirs = [make(torch, a) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # index_reduce is "beta" in torch
        got, want = _outputs(ug_fn(*ours)), _outputs(torch_fn(*theirs))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert tuple(g.shape) == tuple(w.shape)
        assert g.detach().numpy().dtype == w.detach().numpy().dtype
        np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(), atol=1e-12,
                                   rtol=1e-12, equal_nan=True)
    if not grad:
        return
    rng = np.random.default_rng(seed)
    weights = [rng.standard_normal(tuple(w.shape)) for w in want]
    floats = [i for i, a in enumerate(arrays) if np.asarray(a).dtype.kind == "f"]
    if not floats:
        return
    ug_loss = sum((g * ug.tensor(v)).sum() for g, v in zip(got, weights))
    torch_loss = sum((w * torch.tensor(v)).sum() for w, v in zip(want, weights))
    ug_grads = ug.autograd.grad(ug_loss, [ours[i] for i in floats], allow_unused=True)
    torch_grads = torch.autograd.grad(torch_loss, [theirs[i] for i in floats],
                                      allow_unused=True)
    for g, w in zip(ug_grads, torch_grads):
        if w is None:
            assert g is None or not np.any(g.numpy())
            continue
        np.testing.assert_allclose(g.numpy(), w.numpy(), atol=1e-10, rtol=1e-10)


def raises_like(ug_fn, torch_fn):
    """Both raise the same exception type."""
    with pytest.raises(Exception) as theirs:
        torch_fn()
    with pytest.raises(type(theirs.value)):
        ug_fn()


# ----------------------------------------------------------------------------- broadcasting

@pytest.mark.parametrize("shapes", [((2,), (3, 1), (1, 1, 1)), ((0, 1), (3,)), (5, (2, 1)),
                                    ((),), ()])
def test_broadcast_shapes(shapes):
    assert ug.broadcast_shapes(*shapes) == tuple(torch.broadcast_shapes(*shapes))


def test_broadcast_shapes_errors():
    raises_like(lambda: ug.broadcast_shapes((2,), (3,)),
                lambda: torch.broadcast_shapes((2,), (3,)))
    with pytest.raises(RuntimeError, match="broadcast a dimension of length 3"):
        ug.broadcast_shapes((2,), (3,))


def test_broadcast_tensors_values_and_grads():
    rng = np.random.default_rng(0)
    compare(ug.broadcast_tensors, torch.broadcast_tensors, rng.standard_normal((3, 1)),
            rng.standard_normal(4), np.array(2.5))
    compare(ug.broadcast_tensors, torch.broadcast_tensors, np.zeros((0, 1)), np.ones(3))
    compare(ug.broadcast_tensors, torch.broadcast_tensors, np.array([1, 2]), np.ones((2, 1)))


def test_broadcast_tensors_error():
    raises_like(lambda: ug.broadcast_tensors(ug.zeros(2), ug.zeros(3)),
                lambda: torch.broadcast_tensors(torch.zeros(2), torch.zeros(3)))


# ----------------------------------------------------------------------------- splits

def test_splits():
    x = np.arange(10.0).reshape(2, 5)
    compare(lambda t: t.split_with_sizes([2, 0, 3], -1),
            lambda t: t.split_with_sizes([2, 0, 3], -1), x)
    compare(lambda t: ug.split_with_sizes(t, [1, 1]), lambda t: torch.split_with_sizes(t, [1, 1]),
            x)
    compare(lambda t: ug.unsafe_split(t, 2, 1), lambda t: torch.unsafe_split(t, 2, 1), x)
    compare(lambda t: t.unsafe_chunk(3, 1), lambda t: t.unsafe_chunk(3, 1), x)
    compare(lambda t: ug.unsafe_chunk(t, 4, 0), lambda t: torch.unsafe_chunk(t, 4, 0),
            np.zeros((0, 2)))
    raises_like(lambda: ug.split_with_sizes(ug.zeros(3), [1, 1]),
                lambda: torch.split_with_sizes(torch.zeros(3), [1, 1]))


@pytest.mark.parametrize("size", [(3,), (2, 1), (1, 3), (2, 3), (1,), ()])
def test_sum_to_size(size):
    x = np.random.default_rng(1).standard_normal((2, 3))
    if size:
        compare(lambda t: t.sum_to_size(*size), lambda t: t.sum_to_size(*size), x)
    compare(lambda t: t.sum_to_size(size), lambda t: t.sum_to_size(size), x)


def test_sum_to_size_integer_and_error():
    compare(lambda t: t.sum_to_size(3), lambda t: t.sum_to_size(3),
            np.arange(6).reshape(2, 3), grad=False)
    raises_like(lambda: ug.zeros(2, 3).sum_to_size(3, 3),
                lambda: torch.zeros(2, 3).sum_to_size(3, 3))
    with pytest.raises(RuntimeError, match=r"size \{\[3, 3\]\} is not expandable"):
        ug.zeros(2, 3).sum_to_size(3, 3)


# ----------------------------------------------------------------------------- view copies

COPIES = [
    ("alias_copy", (), {}),
    ("detach_copy", (), {}),
    ("diagonal_copy", (1, 0, 2), {}),
    ("expand_copy", ((2, 2, 3, 4),), {}),
    ("narrow_copy", (2, -3, 2), {}),
    ("permute_copy", ((2, 0, 1),), {}),
    ("select_copy", (1, -1), {}),
    ("squeeze_copy", (), {}),
    ("t_copy", (), {"shape": (2, 3)}),
    ("transpose_copy", (0, -1), {}),
    ("unbind_copy", (1,), {}),
    ("unfold_copy", (2, 2, 1), {}),
    ("unsqueeze_copy", (-1,), {}),
    ("view_copy", ((4, -1),), {}),
    ("split_copy", (2, 2), {}),
    ("split_with_sizes_copy", ([1, 3], 2), {}),
]


@pytest.mark.parametrize("name, args, options", COPIES, ids=[c[0] for c in COPIES])
def test_copies(name, args, options):
    x = np.random.default_rng(2).standard_normal(options.get("shape", (2, 3, 4)))
    grad = name != "detach_copy"
    compare(lambda t: getattr(ug, name)(t, *args), lambda t: getattr(torch, name)(t, *args), x,
            grad=grad)
    compare(lambda t: getattr(ug, name)(t, *args), lambda t: getattr(torch, name)(t, *args),
            np.arange(np.prod(x.shape)).reshape(x.shape), grad=False)


def test_copies_own_their_storage():
    x = ug.arange(6.0).reshape(2, 3)
    copy = ug.t_copy(x)
    x.add_(1.0)
    assert copy.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    assert ug.narrow_copy(x, 0, 0, 1).grad_fn is None


# ----------------------------------------------------------------------------- scatters

def test_select_scatter():
    rng = np.random.default_rng(3)
    compare(lambda x, s: ug.select_scatter(x, s, 0, -1),
            lambda x, s: torch.select_scatter(x, s, 0, -1),
            rng.standard_normal((3, 4)), rng.standard_normal(4))
    compare(lambda x, s: x.select_scatter(s, -2, 1), lambda x, s: x.select_scatter(s, -2, 1),
            rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 4)))
    compare(lambda x, s: ug.select_scatter(x, s, 0, 1),
            lambda x, s: torch.select_scatter(x, s, 0, 1), np.arange(3), np.array(7))
    raises_like(lambda: ug.select_scatter(ug.zeros(2, 3), ug.zeros(2), 0, 0),
                lambda: torch.select_scatter(torch.zeros(2, 3), torch.zeros(2), 0, 0))
    raises_like(lambda: ug.select_scatter(ug.zeros(2, 3), ug.zeros(3), 0, 5),
                lambda: torch.select_scatter(torch.zeros(2, 3), torch.zeros(3), 0, 5))


@pytest.mark.parametrize("args", [(1, 0, 5, 2), (1, -2, None), (0, None, None, 3), (1, 4, 4),
                                  (1, -10, 1), (1, 5, 9)])
def test_slice_scatter(args):
    x = np.random.default_rng(4).standard_normal((4, 6))
    dim, start, end, step = (args + (None, 1))[:4] if len(args) == 2 else (args + (1,))[:4]
    index = (slice(None),) * dim + (slice(start, end, step),)
    src = np.random.default_rng(5).standard_normal(x[index].shape)
    compare(lambda t, s: ug.slice_scatter(t, s, *args),
            lambda t, s: torch.slice_scatter(t, s, *args), x, src)


def test_slice_scatter_errors():
    raises_like(lambda: ug.slice_scatter(ug.zeros(2, 3), ug.zeros(2, 2), 1, 0, 1),
                lambda: torch.slice_scatter(torch.zeros(2, 3), torch.zeros(2, 2), 1, 0, 1))
    raises_like(lambda: ug.slice_scatter(ug.zeros(2, 3), ug.zeros(2, 2), 1, 0, 3, 0),
                lambda: torch.slice_scatter(torch.zeros(2, 3), torch.zeros(2, 2), 1, 0, 3, 0))


@pytest.mark.parametrize("shape, args", [((3, 3), ()), ((3, 4), (1,)), ((4, 3), (-2,)),
                                         ((2, 3, 4), (0, 0, 2)), ((2, 3, 4), (1, -1, 1)),
                                         ((2, 3), (5,))])
def test_diagonal_scatter(shape, args):
    rng = np.random.default_rng(6)
    src_shape = tuple(torch.zeros(shape).diagonal(*args).shape)
    compare(lambda x, s: ug.diagonal_scatter(x, s, *args),
            lambda x, s: torch.diagonal_scatter(x, s, *args),
            rng.standard_normal(shape), rng.standard_normal(src_shape))


def test_diagonal_scatter_errors():
    raises_like(lambda: ug.diagonal_scatter(ug.zeros(2, 3), ug.zeros(3)),
                lambda: torch.diagonal_scatter(torch.zeros(2, 3), torch.zeros(3)))
    raises_like(lambda: ug.diagonal_scatter(ug.zeros(2, 3), ug.zeros(2), 0, 1, 1),
                lambda: torch.diagonal_scatter(torch.zeros(2, 3), torch.zeros(2), 0, 1, 1))


# ----------------------------------------------------------------------------- put

def test_put():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 3))
    compare(lambda t, i, s: t.put(i, s), lambda t, i, s: t.put(i, s), x,
            np.array([0, -1, 4]), rng.standard_normal(3))
    compare(lambda t, i, s: ug.put(t, i, s, accumulate=True),
            lambda t, i, s: torch.put(t, i, s, accumulate=True),
            x, np.array([[0, 5], [0, 5]]), rng.standard_normal((2, 2)))
    compare(lambda t, i, s: t.put(i, s, True), lambda t, i, s: t.put(i, s, True),
            np.arange(6), np.array([1, 1]), np.array([3, 4]))
    compare(lambda t, i, s: t.put(i, s), lambda t, i, s: t.put(i, s), x,
            np.zeros(0, dtype=np.int64), np.zeros(0))


def test_put_inplace():
    x, y = ug.zeros(2, 2), torch.zeros(2, 2)
    assert x.put_(ug.tensor([3]), ug.tensor([1.0])) is x
    y.put_(torch.tensor([3]), torch.tensor([1.0]))
    assert x.tolist() == y.tolist()


def test_put_errors():
    raises_like(lambda: ug.zeros(2, 3).put(ug.tensor([10]), ug.tensor([1.0])),
                lambda: torch.zeros(2, 3).put(torch.tensor([10]), torch.tensor([1.0])))
    raises_like(lambda: ug.zeros(2, 3).put(ug.tensor([1, 2]), ug.tensor([1.0])),
                lambda: torch.zeros(2, 3).put(torch.tensor([1, 2]), torch.tensor([1.0])))
    raises_like(lambda: ug.zeros(2, 3).put(ug.tensor([1]), ug.tensor([1])),
                lambda: torch.zeros(2, 3).put(torch.tensor([1]), torch.tensor([1])))
    with pytest.raises(IndexError, match="tried to access index 10 on a tensor of 6"):
        ug.zeros(2, 3).put(ug.tensor([10]), ug.tensor([1.0]))


# ----------------------------------------------------------------------------- index_reduce

@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
def test_index_reduce_ties_and_zeros(reduce, include_self):
    x = np.array([[1.0, 5.0, 3.0], [0.0, 2.0, 2.0]])
    source = np.array([[5.0, 2.0, 3.0], [5.0, 0.0, 4.0], [1.0, 2.0, 2.0]])
    index = np.array([0, 0, 1])
    compare(lambda t, i, s: t.index_reduce(0, i, s, reduce, include_self=include_self),
            lambda t, i, s: t.index_reduce(0, i, s, reduce, include_self=include_self),
            x, index, source)


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
def test_index_reduce_other_dims_nan_and_ints(reduce):
    rng = np.random.default_rng(8)
    compare(lambda t, i, s: ug.index_reduce(t, -1, i, s, reduce),
            lambda t, i, s: torch.index_reduce(t, -1, i, s, reduce),
            rng.standard_normal((2, 3)), np.array([2, 0, 2, 2]), rng.standard_normal((2, 4)))
    compare(lambda t, i, s: t.index_reduce(0, i, s, reduce, include_self=False),
            lambda t, i, s: t.index_reduce(0, i, s, reduce, include_self=False),
            np.array([[1, -2], [3, 4]]), np.array([0, 0]), np.array([[-2, 3], [-4, 4]]))
    compare(lambda t, i, s: t.index_reduce(0, i, s, reduce),
            lambda t, i, s: t.index_reduce(0, i, s, reduce),
            np.array([1.0, 2.0]), np.array([1, 1]), np.array([np.nan, 3.0]), grad=False)
    compare(lambda t, i, s: t.index_reduce(1, i, s, reduce),
            lambda t, i, s: t.index_reduce(1, i, s, reduce),
            rng.standard_normal((2, 3)), np.zeros(0, dtype=np.int64), np.zeros((2, 0)))
    compare(lambda t, i, s: t.index_reduce(0, i, s, reduce),
            lambda t, i, s: t.index_reduce(0, i, s, reduce),
            np.array(2.0), np.array(0), np.array(3.0))


def test_index_reduce_inplace_and_errors():
    x = ug.ones(3)
    assert x.index_reduce_(0, ug.tensor([1]), ug.tensor([4.0]), "prod") is x
    assert x.tolist() == [1.0, 4.0, 1.0]
    raises_like(lambda: ug.zeros(2, 3).index_reduce(0, ug.tensor([0]), ug.ones(1, 3), "sum"),
                lambda: torch.zeros(2, 3).index_reduce(0, torch.tensor([0]), torch.ones(1, 3),
                                                       "sum"))
    raises_like(lambda: ug.zeros(3).index_reduce(0, ug.tensor([5]), ug.ones(1), "amax"),
                lambda: torch.zeros(3).index_reduce(0, torch.tensor([5]), torch.ones(1), "amax"))
    raises_like(lambda: ug.zeros(2, 3).index_reduce(0, ug.tensor([0]), ug.ones(1, 2), "amax"),
                lambda: torch.zeros(2, 3).index_reduce(0, torch.tensor([0]), torch.ones(1, 2),
                                                       "amax"))


# ----------------------------------------------------------------------------- unravel_index

@pytest.mark.parametrize("indices, shape", [([4, 1], (3, 2)), ([-1, 6, -7, 0], (2, 3)),
                                            (5, 7), ([[1234], [5678]], (10, 10, 10, 10)),
                                            ([0], ()), ([], (2, 2))])
def test_unravel_index(indices, shape):
    data = np.asarray(indices, dtype=np.int64)
    got = ug.unravel_index(ug.tensor(data), shape)
    want = torch.unravel_index(torch.tensor(data), shape)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.numpy().dtype == np.int64
        np.testing.assert_array_equal(g.numpy(), w.numpy())


def test_unravel_index_int32_and_errors():
    got = ug.unravel_index(ug.tensor(np.array([5], dtype=np.int32)), (2, 3))
    want = torch.unravel_index(torch.tensor([5], dtype=torch.int32), (2, 3))
    assert [g.tolist() for g in got] == [w.tolist() for w in want]
    assert got[0].dtype == ug.int64
    raises_like(lambda: ug.unravel_index(ug.tensor([1.0]), (2, 3)),
                lambda: torch.unravel_index(torch.tensor([1.0]), (2, 3)))
    raises_like(lambda: ug.unravel_index(ug.tensor([1]), (2, -3)),
                lambda: torch.unravel_index(torch.tensor([1]), (2, -3)))
    raises_like(lambda: ug.unravel_index(ug.tensor([1]), (2, 1.5)),
                lambda: torch.unravel_index(torch.tensor([1]), (2, 1.5)))


@pytest.mark.parametrize("source, dtype", [(np.float32, "int32"), (np.float32, "float64"),
                                           (np.float64, "int16"), (np.int64, "float64")])
def test_view_copy_dtype(source, dtype):
    data = np.arange(8).reshape(2, 4).astype(source)
    got = ug.view_copy(ug.tensor(data), getattr(ug, dtype))
    want = torch.view_copy(torch.tensor(data), getattr(torch, dtype))
    assert tuple(got.shape) == tuple(want.shape)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    raises_like(lambda: ug.view_copy(ug.zeros(3, dtype=ug.float32), ug.float64),
                lambda: torch.view_copy(torch.zeros(3), torch.float64))
