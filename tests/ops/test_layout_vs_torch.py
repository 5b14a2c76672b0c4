"""``unigrad.ops.layout`` against PyTorch: values, dtypes and gradients of the stacking,
diagonal, roll/rotate, splitting and index-generating ops, at edge cases (empty,
negative dims, offsets past the edge, NaN/inf, integer dtypes) and their errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import unigrad as ug

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch


def as_list(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def compare(call, *arrays, seed=0):
    """``call(module, *tensors)`` with ``module`` unigrad and torch: every output's value,
    shape and dtype, and every floating input's gradient under a random cotangent."""
    arrays = [np.asarray(a) for a in arrays]
    ours = [ug.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
    theirs = [torch.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
    got, want = as_list(call(ug, *ours)), as_list(call(torch, *theirs))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert tuple(g.shape) == tuple(w.shape)
        assert str(g.dtype).split(".")[-1] == str(w.dtype).split(".")[-1]
        np.testing.assert_array_equal(np.asarray(g.detach()._data), w.detach().numpy())
    floating = [(g, w) for g, w in zip(got, want) if w.dtype.is_floating_point and w.numel()]
    inputs = [(o, t) for o, t in zip(ours, theirs) if t.requires_grad]
    if not floating or not inputs:
        return
    rng = np.random.default_rng(seed)
    ug_total = torch_total = 0
    for g, w in floating:
        weights = rng.standard_normal(tuple(w.shape))
        ug_total = ug_total + (g * ug.tensor(weights)).sum()
        torch_total = torch_total + (w * torch.tensor(weights)).sum()
    ug_grads = ug.autograd.grad(ug_total, [o for o, _ in inputs], allow_unused=True)
    torch_grads = torch.autograd.grad(torch_total, [t for _, t in inputs], allow_unused=True)
    for g, w in zip(ug_grads, torch_grads):
        if w is None:
            assert g is None or not np.any(np.asarray(g._data))
            continue
        np.testing.assert_allclose(np.asarray(g._data), w.numpy(), atol=1e-12)


RNG = np.random.default_rng(7)
MATRIX = RNG.standard_normal((3, 4))
CUBE = RNG.standard_normal((2, 3, 4))
VECTOR = RNG.standard_normal(3)
SPECIAL = np.array([1.0, np.nan, np.inf, -np.inf])
INTS = np.arange(12, dtype=np.int32).reshape(3, 4)

CASES = {
    "atleast_1d_scalar": (lambda m, x: m.atleast_1d(x), np.float64(2.0)),
    "atleast_2d_several": (lambda m, x, y: m.atleast_2d(x, y), np.float64(1.0), VECTOR),
    "atleast_3d_list": (lambda m, x, y: m.atleast_3d([x, y]), VECTOR, MATRIX),
    "hstack_vectors": (lambda m, x, y: m.hstack([x, y]), VECTOR, np.zeros(0)),
    "hstack_matrices": (lambda m, x, y: m.hstack((x, y)), MATRIX, MATRIX[:, :1]),
    "vstack": (lambda m, x, y: m.vstack([x, y]), MATRIX[0], MATRIX),
    "row_stack": (lambda m, x, y: m.row_stack([x, y]), VECTOR, VECTOR),
    "dstack": (lambda m, x, y: m.dstack([x, y]), MATRIX, MATRIX),
    "column_stack": (lambda m, x, y, z: m.column_stack([x, y, z]), VECTOR, MATRIX[:, :2],
                     np.ones((3, 1))),
    "column_stack_ints": (lambda m, x, y: m.column_stack([x, y]), INTS[0], INTS[1]),
    "meshgrid_xy": (lambda m, x, y, z: m.meshgrid(x, y, z, indexing="xy"), VECTOR, MATRIX[0],
                    np.float64(5.0)),
    "meshgrid_ij": (lambda m, x, y: m.meshgrid([x, y], indexing="ij"), VECTOR, MATRIX[0]),
    "diagonal_offset": (lambda m, x: m.diagonal(x, 2, -1, 0), CUBE),
    "diagonal_past_edge": (lambda m, x: m.diagonal(x, -5), MATRIX),
    "diagonal_method": (lambda m, x: x.diagonal(-1, 2, 1), CUBE),
    "diag_embed_dims": (lambda m, x: m.diag_embed(x, 1, 0, 2), MATRIX),
    "diag_embed_swapped": (lambda m, x: m.diag_embed(x, -2, -1, -2), MATRIX),
    "diag_embed_special": (lambda m, x: m.diag_embed(x), SPECIAL),
    "diag_vector": (lambda m, x: m.diag(x, -1), VECTOR),
    "diag_matrix": (lambda m, x: x.diag(1), MATRIX),
    "diag_ints": (lambda m, x: m.diag(x), INTS),
    "diagflat": (lambda m, x: m.diagflat(x, 2), MATRIX[:2, :2]),
    "trace": (lambda m, x: m.trace(x), MATRIX),
    "trace_ints": (lambda m, x: x.trace(), INTS),
    "trace_empty": (lambda m, x: m.trace(x), np.zeros((0, 3))),
    "kron": (lambda m, x, y: m.kron(x, y), MATRIX[:2], CUBE[:, :2]),
    "kron_ints_floats": (lambda m, x, y: m.kron(x, y), INTS[:2, :2], VECTOR),
    "roll_flat": (lambda m, x: m.roll(x, -7), MATRIX),
    "roll_dims": (lambda m, x: x.roll((1, 5), (-1, 0)), CUBE),
    "roll_same_dim_twice": (lambda m, x: m.roll(x, [1, 1], [0, 0]), MATRIX),
    "roll_empty_dims": (lambda m, x: m.roll(x, 1, ()), MATRIX),
    "roll_ints": (lambda m, x: m.roll(x, 1, 1), INTS),
    "rot90": (lambda m, x: m.rot90(x), MATRIX),
    "rot90_negative": (lambda m, x: x.rot90(-3, [2, -3]), CUBE),
    "rot90_twice": (lambda m, x: m.rot90(x, 2, (1, 2)), CUBE),
    "flipud": (lambda m, x: m.flipud(x), CUBE),
    "fliplr": (lambda m, x: x.fliplr(), MATRIX),
    "tensor_split_sections": (lambda m, x: m.tensor_split(x, 3, dim=1), MATRIX),
    "tensor_split_indices": (lambda m, x: m.tensor_split(x, [-2, 3, 1, 10], -1), CUBE),
    "tensor_split_method": (lambda m, x: x.tensor_split((1,)), MATRIX),
    "tensor_split_tensor_indices": (lambda m, x, i: m.tensor_split(x, i, 1), MATRIX,
                                    np.array([1, 3])),
    "tensor_split_tensor_sections": (lambda m, x, i: m.tensor_split(x, i), MATRIX,
                                     np.array(2)),
    "hsplit": (lambda m, x: m.hsplit(x, 2), MATRIX),
    "hsplit_vector": (lambda m, x: x.hsplit([1]), VECTOR),
    "vsplit": (lambda m, x: m.vsplit(x, [2, 2]), MATRIX),
    "dsplit": (lambda m, x: x.dsplit(4), CUBE),
    "unflatten": (lambda m, x: m.unflatten(x, -1, (2, -1)), CUBE),
    "unflatten_method": (lambda m, x: x.unflatten(0, [1, 3]), MATRIX),
    "unfold": (lambda m, x: x.unfold(1, 2, 1), MATRIX),
    "unfold_overlap_step": (lambda m, x: x.unfold(-1, 3, 2), CUBE),
    "unfold_scalar": (lambda m, x: x.unfold(0, 1, 1), np.float64(3.0)),
    "unfold_size_zero": (lambda m, x: x.unfold(0, 0, 2), MATRIX),
    "block_diag": (lambda m, x, y, z: m.block_diag(x, y, z), MATRIX, np.float64(3.0), VECTOR),
    "block_diag_promotes": (lambda m, x, y: m.block_diag(x, y), INTS[:2], np.ones((2, 0))),
    "block_diag_none": (lambda m: m.block_diag(),),
    "cartesian_prod": (lambda m, x, y: m.cartesian_prod(x, y), VECTOR, MATRIX[0]),
    "cartesian_prod_ints": (lambda m, x, y, z: m.cartesian_prod(x, y, z), INTS[0], INTS[1],
                            INTS[2, :1]),
    "combinations": (lambda m, x: m.combinations(x, 3), MATRIX[0]),
    "combinations_replacement": (lambda m, x: m.combinations(x, with_replacement=True),
                                 VECTOR),
    "combinations_zero": (lambda m, x: m.combinations(x, 0), VECTOR),
    "combinations_too_many": (lambda m, x: m.combinations(x, 4), VECTOR),
    "combinations_ints": (lambda m, x: m.combinations(x), INTS[0]),
    "tril_indices": (lambda m: m.tril_indices(4, 3, -1),),
    "triu_indices": (lambda m: m.triu_indices(3, 5, 2),),
    "triu_indices_int32": (lambda m: m.triu_indices(3, 3, dtype=m.int32),),
    "tril_indices_empty": (lambda m: m.tril_indices(0, 4),),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    call, *arrays = CASES[name]
    compare(call, *arrays)


def test_diag_embed_keeps_infinities_off_the_diagonal_zero():
    out = ug.diag_embed(ug.tensor(SPECIAL))
    assert np.isnan(np.asarray(out._data)).sum() == 1
    assert np.count_nonzero(np.asarray(out._data)) == 4


@pytest.mark.parametrize("offset", [0, 1, -1])
def test_diagonal_is_a_view_writes_reach_the_input(offset):
    ours, theirs = ug.zeros((3, 4)), torch.zeros(3, 4)
    ours.diagonal(offset).add_(1.0)
    theirs.diagonal(offset).add_(1.0)
    np.testing.assert_array_equal(np.asarray(ours._data), theirs.numpy())
    assert np.shares_memory(np.asarray(ours.diagonal(offset)._data), np.asarray(ours._data))


def test_meshgrid_warns_without_indexing_only():
    a = ug.tensor([1.0, 2.0])
    with pytest.warns(UserWarning, match="indexing argument"):
        grids = ug.meshgrid(a, a)
    assert [tuple(g.shape) for g in grids] == [(2, 2), (2, 2)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ug.meshgrid(a, a, indexing="ij")


def test_cartesian_prod_single_tensor_is_returned():
    x = ug.tensor([1.0, 2.0])
    assert ug.cartesian_prod(x) is x


def test_atleast_returns_input_when_rank_suffices():
    x = ug.ones((2, 3))
    assert ug.atleast_2d(x) is x
    assert isinstance(ug.atleast_1d(x, x), tuple)


ERRORS = {
    "diag_3d": (lambda m: m.diag(m.ones(2, 2, 2)), RuntimeError, "Supports 1D or 2D"),
    "trace_vector": (lambda m: m.trace(m.ones(2)), RuntimeError, "expected a matrix"),
    "diagonal_same_dims": (lambda m: m.diagonal(m.ones(2, 2), 0, 1, -1), RuntimeError,
                           "cannot be identical"),
    "diagonal_dim_range": (lambda m: m.diagonal(m.ones(2, 2), 0, 0, 2), IndexError,
                           "Dimension out of range"),
    "diag_embed_same_dims": (lambda m: m.diag_embed(m.ones(2), 0, 0, 0), RuntimeError,
                             "cannot be identical"),
    "roll_misaligned": (lambda m: m.roll(m.ones(2, 2), (1, 2), (0,)), RuntimeError,
                        "shifts and dimensions must align"),
    "roll_flat_two_shifts": (lambda m: m.roll(m.ones(2, 2), (1, 2)), RuntimeError,
                             "shifts and dimensions must align"),
    "rot90_vector": (lambda m: m.rot90(m.ones(2)), RuntimeError, "total dims >= 2"),
    "rot90_same": (lambda m: m.rot90(m.ones(2, 2), 1, (0, -2)), RuntimeError,
                   "rotation dims to be different"),
    "rot90_three_dims": (lambda m: m.rot90(m.ones(2, 2), 1, (0, 1, 1)), RuntimeError,
                         "rotation dims == 2"),
    "flipud_scalar": (lambda m: m.flipud(m.tensor(1.0)), RuntimeError, ">= 1-d"),
    "fliplr_vector": (lambda m: m.fliplr(m.ones(2)), RuntimeError, ">= 2-d"),
    "tensor_split_zero": (lambda m: m.tensor_split(m.ones(3), 0), RuntimeError,
                          "larger than 0"),
    "tensor_split_scalar": (lambda m: m.tensor_split(m.tensor(1.0), 2), RuntimeError,
                            "at least a 1-dimensional"),
    "tensor_split_float_indices": (lambda m: m.tensor_split(m.ones(3), m.tensor([1.0])),
                                   RuntimeError, "dtype of long"),
    "hsplit_uneven": (lambda m: m.hsplit(m.ones(4), 3), RuntimeError, "not divisible"),
    "vsplit_vector": (lambda m: m.vsplit(m.ones(4), 2), RuntimeError, "at least 2 dimension"),
    "dsplit_matrix": (lambda m: m.dsplit(m.ones(2, 2), 2), RuntimeError,
                      "at least 3 dimension"),
    "unflatten_sizes": (lambda m: m.unflatten(m.ones(6), 0, (4, -1)), RuntimeError,
                        "don't multiply up"),
    "unflatten_empty_sizes": (lambda m: m.unflatten(m.ones(6), 0, ()), RuntimeError,
                              "sizes must be non-empty"),
    "unflatten_two_inferred": (lambda m: m.unflatten(m.ones(6), 0, (-1, -1)), RuntimeError,
                               "only one dimension can be inferred"),
    "unfold_too_big": (lambda m: m.ones(3).unfold(0, 4, 1), RuntimeError,
                       "maximum size for tensor at dimension 0 is 3 but size is 4"),
    "unfold_step": (lambda m: m.ones(3).unfold(0, 2, 0), RuntimeError, "step is 0"),
    "meshgrid_matrix": (lambda m: m.meshgrid(m.ones(2, 2), indexing="ij"), RuntimeError,
                        "Expected 0D or 1D tensor"),
    "meshgrid_dtypes": (lambda m: m.meshgrid(m.ones(2), m.ones(2, dtype=m.int64),
                                             indexing="ij"), RuntimeError, "same dtype"),
    "meshgrid_indexing": (lambda m: m.meshgrid(m.ones(2), indexing="ji"), RuntimeError,
                          "indexing must be one of"),
    "block_diag_3d": (lambda m: m.block_diag(m.ones(2, 2, 2)), RuntimeError,
                      "2 or fewer dimensions"),
    "combinations_matrix": (lambda m: m.combinations(m.ones(2, 2)), RuntimeError,
                            "Expect a 1D vector"),
    "combinations_negative": (lambda m: m.combinations(m.ones(3), -1), RuntimeError,
                              "non-negative"),
    "cartesian_prod_matrix": (lambda m: m.cartesian_prod(m.ones(2, 2), m.ones(2)),
                              RuntimeError, "Expect a 1D vector"),
    "tril_indices_negative": (lambda m: m.tril_indices(3, -1), RuntimeError,
                              "col must be non-negative"),
    "kron_number": (lambda m: m.kron(m.ones(2), 3), TypeError, "must be Tensor"),
    "hstack_tensor": (lambda m: m.hstack(m.ones(2)), TypeError, "tensors"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    call, error, message = ERRORS[name]
    with pytest.raises(error, match=message):
        call(torch)
    with pytest.raises(error, match=message):
        call(ug)


JIT_CASES = {
    "diagonal": lambda x: ug.diagonal(x, 1),
    "diag_embed": lambda x: ug.diag_embed(x, -1, 0, 2),
    "roll": lambda x: ug.roll(x, (1, 2), (0, 1)),
    "rot90": lambda x: ug.rot90(x, 3),
    "unfold": lambda x: x.unfold(1, 2, 1),
    "kron": lambda x: ug.kron(x, x),
    "tensor_split": lambda x: ug.tensor_split(x, [1, 3], 1),
    "trace": lambda x: ug.trace(x),
    "block_diag": lambda x: ug.block_diag(x, x[0]),
    "meshgrid": lambda x: ug.meshgrid(x[0], x[1], indexing="xy"),
}


@pytest.mark.parametrize("name", sorted(JIT_CASES))
def test_jit_matches_eager(name):
    function = JIT_CASES[name]
    x = ug.tensor(MATRIX)
    eager, compiled = as_list(function(x)), as_list(ug.jit(function)(x))
    assert len(eager) == len(compiled)
    for e, c in zip(eager, compiled):
        np.testing.assert_array_equal(np.asarray(c._data), np.asarray(e._data))
