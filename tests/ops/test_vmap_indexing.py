"""``ug.vmap`` of indexing beyond the op table: batched index arrays (with the data
batched or not, along any axis), gather/scatter_add with a batched index, ``x[i] = v``
under vmap, and gradients through indexing in both orders (``grad`` of ``vmap`` and
``vmap`` of ``grad``). Every result is compared with a Python loop over the examples."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

import unigrad as ug
import unigrad.nn.functional as F
from unigrad.interpreters.batching import BatchingError

BATCH = 4


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(0)


def example(array: np.ndarray, axis: int | None, k: int):
    """Example ``k`` of an argument batched along ``axis`` (the argument itself when None)."""
    return ug.tensor(array if axis is None else np.take(array, k, axis=axis))


def assert_vmap_matches_loop(fn, args: list, in_axes: tuple, **kwargs) -> None:
    """``ug.vmap(fn, in_axes)(*args)`` equals stacking ``fn`` over the examples."""
    got = ug.vmap(fn, in_axes=in_axes, **kwargs)(*[ug.tensor(a) for a in args]).numpy()
    want = np.stack([fn(*[example(a, axis, k) for a, axis in zip(args, in_axes)]).numpy()
                     for k in range(BATCH)])
    assert got.shape == want.shape
    assert_allclose(got, want, rtol=1e-12, atol=1e-12)


# ----------------------------------------------------------------------------- x[index]

INDEXINGS = [
    ("rows", lambda x, i: x[i]),
    ("columns", lambda x, i: x[:, i]),
    ("int_then_array", lambda x, i: x[1, i]),
    ("array_then_int", lambda x, i: x[:, i, 0]),
    ("separated_by_slice", lambda x, i: x[i % 3, :, 2]),
    ("after_ellipsis", lambda x, i: x[..., i]),
    ("after_new_axis", lambda x, i: x[None, :, i]),
]


@pytest.mark.parametrize("name, fn", INDEXINGS, ids=[name for name, _ in INDEXINGS])
@pytest.mark.parametrize("x_axis", [None, 0, 3])
@pytest.mark.parametrize("index_axis", [0, 1])
def test_batched_index_array(rng, name, fn, x_axis, index_axis):
    x = rng.normal(size=(3, 4, 5)) if x_axis is None else \
        np.moveaxis(rng.normal(size=(BATCH, 3, 4, 5)), 0, x_axis).copy()
    index = np.moveaxis(rng.integers(-3, 3, size=(BATCH, 2, 3)), 0, index_axis).copy()
    assert_vmap_matches_loop(fn, [x, index], (x_axis, index_axis))


def test_batched_index_with_unbatched_index(rng):
    x = rng.normal(size=(BATCH, 3, 4))
    rows = rng.integers(0, 3, size=(BATCH, 2, 1))
    columns = np.array([3, 0, 1])
    assert_vmap_matches_loop(lambda x, i, j: x[i, j], [x, rows, columns], (0, 0, None))
    assert_vmap_matches_loop(lambda x, j, i: x[j % 3, :, i], [rng.normal(size=(3, 4, 5)),
                                                              columns,
                                                              rng.integers(0, 5, size=(BATCH, 3))],
                             (None, None, 0))


def test_batched_zero_dim_index(rng):
    x = rng.normal(size=(BATCH, 3, 5))
    index = rng.integers(0, 5, size=BATCH)
    assert_vmap_matches_loop(lambda x, i: x[:, i], [x, index], (0, 0))
    assert_vmap_matches_loop(lambda x, i: x[i], [x[0].T.copy(), index], (None, 0))


def test_batched_index_with_unbatched_mask(rng):
    x = rng.normal(size=(BATCH, 3, 4))
    mask = np.array([True, False, True, True])
    rows = rng.integers(0, 3, size=(BATCH, 3))
    assert_vmap_matches_loop(lambda x, i: x[i, mask], [x, rows], (0, 0))
    assert_vmap_matches_loop(lambda x: x[:, mask], [x], (0,))


def test_batched_mask_is_refused(rng):
    x = ug.tensor(rng.normal(size=(BATCH, 3)))
    with pytest.raises(BatchingError, match="boolean mask"):
        ug.vmap(lambda x, mask: x[mask])(x, x > 0.0)


def test_batched_index_out_of_range_is_reported(rng):
    x = ug.tensor(rng.normal(size=(BATCH, 3)))
    index = ug.tensor(np.array([[0], [1], [2], [3]]))
    with pytest.raises(IndexError, match="out of bounds"):
        ug.vmap(lambda x, i: x[i])(x, index)


def test_batched_index_in_chunks_and_nested(rng):
    x = rng.normal(size=(BATCH, 5))
    index = rng.integers(0, 5, size=(BATCH, 3))
    assert_vmap_matches_loop(lambda x, i: x[i], [x, index], (0, 0), chunk_size=3)
    outer = rng.normal(size=(2, BATCH, 5))
    indices = rng.integers(0, 5, size=(2, BATCH, 3))
    got = ug.vmap(ug.vmap(lambda row, i: row[i]))(ug.tensor(outer), ug.tensor(indices))
    want = np.take_along_axis(outer, indices, axis=2)
    assert_allclose(got.numpy(), want)
    per_outer = rng.integers(0, 5, size=(2, 3))
    got = ug.vmap(lambda x, i: ug.vmap(lambda row: row[i])(x))(ug.tensor(outer),
                                                                 ug.tensor(per_outer))
    assert_allclose(got.numpy(), np.stack([outer[a][:, per_outer[a]] for a in range(2)]))


def test_batched_index_under_jit(rng):
    x = rng.normal(size=(BATCH, 5))
    compiled = ug.jit(ug.vmap(lambda x, i: x[i] * 2.0))
    for _ in range(2):  # a second call with other indices reuses the graph
        index = rng.integers(0, 5, size=(BATCH, 3))
        assert_allclose(compiled(ug.tensor(x), ug.tensor(index)).numpy(),
                        2.0 * np.take_along_axis(x, index, axis=1))


# ----------------------------------------------------------------------------- gather family

@pytest.mark.parametrize("x_axis", [None, 0, 2])
def test_gather_batched_index(rng, x_axis):
    x = rng.normal(size=(3, 4)) if x_axis is None else \
        np.moveaxis(rng.normal(size=(BATCH, 3, 4)), 0, x_axis).copy()
    index = rng.integers(0, 3, size=(BATCH, 2, 4))
    assert_vmap_matches_loop(lambda x, i: ug.gather(x, 0, i), [x, index], (x_axis, 0))
    assert_vmap_matches_loop(lambda x, i: x.gather(-1, i % 4), [x, index], (x_axis, 0))


@pytest.mark.parametrize("in_axes", [(None, 0, None), (0, 0, 0), (None, 0, 0), (0, None, 0)])
def test_scatter_add_batched(rng, in_axes):
    x = rng.normal(size=(BATCH, 3, 4))
    index = rng.integers(0, 3, size=(BATCH, 2, 4))
    source = rng.normal(size=(BATCH, 2, 4))
    args = [a if axis is not None else a[0] for a, axis in zip((x, index, source), in_axes)]
    assert_vmap_matches_loop(lambda x, i, s: ug.scatter_add(x, 0, i, s), args, in_axes)


def test_index_ops_with_batched_index(rng):
    x = rng.normal(size=(3, 4))
    xs = rng.normal(size=(BATCH, 3, 4))
    assert_vmap_matches_loop(ug.take, [x, rng.integers(-12, 12, size=(BATCH, 2, 2))], (None, 0))
    assert_vmap_matches_loop(ug.take, [xs, rng.integers(-12, 12, size=BATCH)], (0, 0))
    assert_vmap_matches_loop(lambda x, i: ug.take_along_axis(x, i, 1),
                             [xs, rng.integers(-4, 4, size=(BATCH, 3, 2))], (0, 0))
    assert_vmap_matches_loop(lambda x, i: ug.take_along_axis(x, i, 1),
                             [x, rng.integers(-4, 4, size=(BATCH, 1, 2))], (None, 0))
    assert_vmap_matches_loop(lambda x, i: ug.index_select(x, 1, i),
                             [xs, rng.integers(0, 4, size=(BATCH, 5))], (0, 0))
    assert_vmap_matches_loop(lambda x, i: ug.index_select(x, 0, i),
                             [x, rng.integers(0, 3, size=BATCH)], (None, 0))


def test_embedding_with_batched_indices(rng):
    weight = rng.normal(size=(6, 3))
    indices = rng.integers(0, 6, size=(BATCH, 2, 3))
    assert_vmap_matches_loop(F.embedding, [indices, weight], (0, None))
    assert_vmap_matches_loop(lambda i, w: F.embedding(i, w, padding_idx=0),
                             [indices, rng.normal(size=(BATCH, 6, 3))], (0, 0))


# ----------------------------------------------------------------------------- x[i] = v

def put_rows(x, i, v):
    y = x.clone()
    y[i] = v
    return y


def put_separated(x, i, v):
    y = x.clone()
    y[i, :, 1] = v
    return y


def test_setitem_batched_index(rng):
    x = rng.normal(size=(BATCH, 3, 4))
    rows = rng.integers(0, 3, size=(BATCH, 2))
    assert_vmap_matches_loop(put_rows, [x[0], rows, rng.normal(size=4)], (None, 0, None))
    assert_vmap_matches_loop(put_rows, [x, rows, rng.normal(size=(BATCH, 2, 4))], (0, 0, 0))
    assert_vmap_matches_loop(put_rows, [np.moveaxis(x, 0, 2).copy(), rows[0],
                                        rng.normal(size=(2, 4, BATCH))], (2, None, 2))
    assert_vmap_matches_loop(put_rows, [x, rows[:, 0], rng.normal(size=BATCH)], (0, 0, 0))


@pytest.mark.parametrize("in_axes", [(0, 0, 0), (0, 0, None), (0, None, 0)])
def test_setitem_separated_advanced_axes(rng, in_axes):
    args = [rng.normal(size=(BATCH, 3, 4, 5)), rng.integers(0, 3, size=(BATCH, 2)),
            rng.normal(size=(BATCH, 2, 4))]
    args = [a if axis is not None else a[0] for a, axis in zip(args, in_axes)]
    assert_vmap_matches_loop(put_separated, args, in_axes)


def test_setitem_number_and_mask(rng):
    def put_number(x, i):
        y = x.clone()
        y[:, i] = 2.5
        return y

    def put_mask(x, v):
        y = x.clone()
        y[np.array([True, False, True])] = v
        return y

    x = rng.normal(size=(BATCH, 3, 4))
    assert_vmap_matches_loop(put_number, [x, rng.integers(0, 4, size=(BATCH, 2))], (0, 0))
    assert_vmap_matches_loop(put_mask, [x, rng.normal(size=(BATCH, 4))], (0, 0))


# ----------------------------------------------------------------------------- gradients

def test_vmap_of_grad_through_indexing(rng):
    xs = rng.normal(size=(BATCH, 5))
    index = np.array([0, 0, 3])
    got = ug.vmap(ug.grad(lambda x: (x[index] ** 2).sum()))(ug.tensor(xs))
    want = np.stack([ug.grad(lambda x: (x[index] ** 2).sum())(ug.tensor(row)).numpy()
                     for row in xs])
    assert_allclose(got.numpy(), want)


@pytest.mark.parametrize("select", [
    lambda x, i: x[i],
    lambda x, i: ug.gather(x, 0, i),
    lambda x, i: ug.take(x, i),
], ids=["getitem", "gather", "take"])
def test_vmap_of_grad_with_batched_index(rng, select):
    xs = rng.normal(size=(BATCH, 5))
    indices = rng.integers(0, 5, size=(BATCH, 3))

    def loss(x, i):
        return (select(x, i) ** 3).sum()

    got = ug.vmap(ug.grad(loss))(ug.tensor(xs), ug.tensor(indices))
    want = np.zeros_like(xs)
    for k in range(BATCH):
        np.add.at(want[k], indices[k], 3.0 * xs[k][indices[k]] ** 2)
    assert_allclose(got.numpy(), want)


def test_grad_of_vmap_through_indexing(rng):
    xs = ug.tensor(rng.normal(size=(BATCH, 5)), requires_grad=True)
    indices = rng.integers(0, 5, size=(BATCH, 3))
    out = ug.vmap(lambda x, i: (x[i] ** 2).sum())(xs, ug.tensor(indices))
    out.sum().backward()
    want = np.zeros((BATCH, 5))
    for k in range(BATCH):
        np.add.at(want[k], indices[k], 2.0 * xs.detach().numpy()[k][indices[k]])
    assert_allclose(xs.grad.numpy(), want)


def test_grad_of_vmap_through_setitem(rng):
    def loss(x, i, v):
        y = x * 1.0
        y[i] = v * 3.0
        return (y ** 2).sum()

    x_data, v_data = rng.normal(size=(BATCH, 5)), rng.normal(size=(BATCH, 2))
    indices = np.stack([rng.permutation(5)[:2] for _ in range(BATCH)])
    x = ug.tensor(x_data, requires_grad=True)
    v = ug.tensor(v_data, requires_grad=True)
    ug.vmap(loss)(x, ug.tensor(indices), v).sum().backward()
    for k in range(BATCH):
        x_k = ug.tensor(x_data[k], requires_grad=True)
        v_k = ug.tensor(v_data[k], requires_grad=True)
        loss(x_k, ug.tensor(indices[k]), v_k).backward()
        assert_allclose(x.grad.numpy()[k], x_k.grad.numpy())
        assert_allclose(v.grad.numpy()[k], v_k.grad.numpy())


def test_vmap_of_grad_through_scatter_add(rng):
    xs = rng.normal(size=(BATCH, 3))
    indices = rng.integers(0, 3, size=(BATCH, 4))
    sources = rng.normal(size=(BATCH, 4))

    def loss(source, x, i):
        return (ug.scatter_add(x, 0, i, source) ** 2).sum()

    got = ug.vmap(ug.grad(loss))(ug.tensor(sources), ug.tensor(xs), ug.tensor(indices))
    want = np.stack([ug.grad(loss)(ug.tensor(sources[k]), ug.tensor(xs[k]),
                                   ug.tensor(indices[k])).numpy() for k in range(BATCH)])
    assert_allclose(got.numpy(), want)
