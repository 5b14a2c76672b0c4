"""Reductions and linear algebra: return types, dtype rules, errors and special gradients.

Values and gradients of every op are checked by the op table (``tests/ops``);
this file covers what the table cannot express.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import unigrad as ug


def leaf(values, dtype=ug.float64) -> ug.Tensor:
    return ug.tensor(values, dtype=dtype, requires_grad=True)


# ----------------------------------------------------------------------------- return types

def test_max_with_dim_returns_values_and_indices():
    x = ug.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])
    result = ug.max(x, dim=1)
    values, indices = result
    assert type(result).__name__ == "max"
    assert result.values is values and result.indices is indices
    np.testing.assert_array_equal(values.numpy(), [5.0, 7.0])
    np.testing.assert_array_equal(indices.numpy(), [1, 0])
    assert indices.dtype == ug.int64
    kept = x.min(dim=0, keepdim=True)
    assert type(kept).__name__ == "min"
    assert kept.values.shape == (1, 3)
    np.testing.assert_array_equal(kept.indices.numpy(), [[0, 1, 0]])


def test_max_without_dim_and_with_tensor_argument():
    x = ug.tensor([[1.0, 5.0], [7.0, 0.0]])
    assert ug.max(x).item() == 7.0
    assert ug.min(x).item() == 0.0
    np.testing.assert_array_equal(ug.max(x, ug.tensor([2.0, 2.0])).numpy(), [[2.0, 5.0],
                                                                            [7.0, 2.0]])
    np.testing.assert_array_equal(ug.max(x, dim=(0, 1)).numpy(), 7.0)


def test_slogdet_returns_sign_and_logabsdet():
    result = ug.slogdet(ug.tensor([[-2.0, 0.0], [0.0, 3.0]]))
    assert result.sign.item() == -1.0
    assert result.logabsdet.item() == pytest.approx(math.log(6.0), rel=1e-6)


def test_linalg_namespace():
    a = ug.tensor([[4.0, 2.0], [2.0, 3.0]])
    assert ug.linalg.det(a).item() == pytest.approx(8.0)
    np.testing.assert_allclose(ug.linalg.inv(a).numpy(), np.linalg.inv(a.numpy()), rtol=1e-6)
    np.testing.assert_allclose(ug.linalg.solve(a, ug.tensor([2.0, 1.0])).numpy(),
                               np.linalg.solve(a.numpy(), [2.0, 1.0]), rtol=1e-6)
    np.testing.assert_allclose(ug.linalg.cholesky(a).numpy(), np.linalg.cholesky(a.numpy()),
                               rtol=1e-6)
    assert ug.linalg.norm(ug.tensor([3.0, 4.0])).item() == pytest.approx(5.0)
    assert issubclass(ug.linalg.LinAlgError, RuntimeError)


def test_tensor_methods():
    x = ug.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x.prod().item() == 24.0
    assert x.amax(dim=0).tolist() == [3.0, 4.0]
    assert x.argmin().item() == 0
    assert x.cumsum(dim=1).tolist() == [[1.0, 3.0], [3.0, 7.0]]
    assert x.det().item() == pytest.approx(-2.0)
    assert x.mm(x).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    assert x.inverse().matmul(x).numpy() == pytest.approx(np.eye(2))
    assert x.all().item() is True and (x > 3).any().item() is True


# ----------------------------------------------------------------------------- dtypes

def test_integer_reductions_give_int64():
    ints = ug.tensor([1, 2, 3], dtype=ug.int32)
    assert ug.sum(ints).dtype == ug.int64
    assert ug.prod(ints).dtype == ug.int64
    assert ug.cumsum(ints, dim=0).dtype == ug.int64
    assert ug.cumsum(ints, dim=0).tolist() == [1, 3, 6]
    assert ug.amax(ints).dtype == ug.int32
    assert ug.max(ints, dim=0).values.dtype == ug.int32
    assert ug.count_nonzero(ug.tensor([0.0, 1.0, 2.0])).dtype == ug.int64
    assert ug.argmax(ug.tensor([0.0, 1.0])).dtype == ug.int64
    assert ug.all(ug.tensor([1.0, 0.0])).dtype == ug.bool
    assert ug.all(ug.tensor([1, 1], dtype=ug.uint8)).dtype == ug.uint8


def test_float_only_reductions_reject_integers():
    ints = ug.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="could not infer output dtype"):
        ug.mean(ints)
    with pytest.raises(RuntimeError, match="std and var only support floating point"):
        ug.var(ints)
    with pytest.raises(RuntimeError, match="Expected a floating point"):
        ug.norm(ints)


def test_float32_stays_float32():
    x = ug.ones((2, 3))
    assert (x @ ug.ones((3, 2))).dtype == ug.float32
    assert ug.einsum("ij->j", x).dtype == ug.float32
    assert ug.var(x).dtype == ug.float32
    assert ug.logsumexp(x, dim=1).dtype == ug.float32


# ----------------------------------------------------------------------------- special gradients

def test_norm_gradient_at_zero_is_zero():
    for p in ("fro", 2, 3, 1.5):
        x = ug.zeros(3, dtype=ug.float64, requires_grad=True)
        ug.norm(x, p=p).backward()
        np.testing.assert_array_equal(x.grad.numpy(), np.zeros(3))
    x = ug.zeros((2, 2), dtype=ug.float64, requires_grad=True)
    ug.linalg.norm(x).backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((2, 2)))


def test_norm_second_derivative_at_zero_is_finite():
    x = ug.zeros(3, dtype=ug.float64, requires_grad=True)
    (grad,) = ug.autograd.grad(ug.norm(x), [x], create_graph=True)
    (second,) = ug.autograd.grad(grad.sum(), [x], allow_unused=True, materialize_grads=True)
    assert np.all(np.isfinite(second.numpy()))


def test_amax_ties_share_the_gradient_and_max_dim_picks_one():
    x = leaf([1.0, 3.0, 3.0])
    ug.amax(x).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.5, 0.5])
    y = leaf([1.0, 3.0, 3.0])
    ug.max(y).backward()
    np.testing.assert_array_equal(y.grad.numpy(), [0.0, 0.5, 0.5])
    z = leaf([1.0, 3.0, 3.0])
    ug.max(z, dim=0).values.backward()
    np.testing.assert_array_equal(z.grad.numpy(), [0.0, 1.0, 0.0])


@pytest.mark.parametrize("values, expected", [
    ([2.0, 0.0, 3.0], [0.0, 6.0, 0.0]),
    ([0.0, 3.0, 0.0], [0.0, 0.0, 0.0]),
    ([2.0, 4.0, 3.0], [12.0, 6.0, 8.0]),
])
def test_prod_gradient_with_zeros(values, expected):
    x = leaf(values)
    ug.prod(x).backward()
    np.testing.assert_array_equal(x.grad.numpy(), expected)


def test_prod_second_derivative_with_one_zero():
    x = leaf([0.0, 2.0, 3.0])
    (grad,) = ug.autograd.grad(ug.prod(x), [x], create_graph=True)
    hessian = np.stack([ug.autograd.grad(grad[i], [x], retain_graph=True)[0].numpy()
                        for i in range(3)])
    np.testing.assert_allclose(hessian, [[0.0, 3.0, 2.0], [3.0, 0.0, 0.0], [2.0, 0.0, 0.0]])


def test_logsumexp_is_stable_and_handles_infinities():
    x = leaf([1000.0, 1000.0])
    value = ug.logsumexp(x, dim=0)
    assert value.item() == pytest.approx(1000.0 + math.log(2.0))
    value.backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.5, 0.5])
    minus_inf = ug.tensor([-math.inf, -math.inf])
    assert ug.logsumexp(minus_inf, dim=0).item() == -math.inf
    assert ug.logsumexp(ug.zeros((0, 2)), dim=0).tolist() == [-math.inf, -math.inf]


def test_matmul_two_dimensional_gradients():
    a = leaf(np.arange(6.0).reshape(2, 3))
    b = leaf(np.arange(12.0).reshape(3, 4))
    (a @ b).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), np.ones((2, 4)) @ b.detach().numpy().T)
    np.testing.assert_allclose(b.grad.numpy(), a.detach().numpy().T @ np.ones((2, 4)))


# ----------------------------------------------------------------------------- empty inputs

def test_reductions_of_empty_inputs():
    empty = ug.zeros((0, 3))
    assert ug.sum(empty, dim=0).tolist() == [0.0, 0.0, 0.0]
    assert ug.prod(empty, dim=0).tolist() == [1.0, 1.0, 1.0]
    assert ug.amax(empty, dim=1).shape == (0,)
    with pytest.raises(IndexError, match="amax\\(\\): Expected reduction dim 0 to have non-zero"):
        ug.amax(empty, dim=0)
    with pytest.raises(IndexError, match="max\\(\\): Expected reduction dim 0"):
        ug.max(empty, dim=0)
    with pytest.raises(RuntimeError, match="Specify the reduction dim with the 'dim' argument"):
        ug.max(ug.zeros(0))
    with pytest.raises(IndexError, match="argmax\\(\\): Expected reduction dim to be specified"):
        ug.argmax(ug.zeros(0))


def test_variance_without_degrees_of_freedom_warns_and_gives_nan():
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        result = ug.var(ug.tensor([1.0]))
    assert math.isnan(result.item())


# ----------------------------------------------------------------------------- errors

def test_matmul_shape_mismatch_names_both_shapes():
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied "
                                           r"\(2x3 and 4x5\)"):
        ug.matmul(ug.ones((2, 3)), ug.ones((4, 5)))
    with pytest.raises(RuntimeError, match=r"\(2x3x4 and 3x5\)"):
        ug.ones((2, 3, 4)) @ ug.ones((3, 5))
    with pytest.raises(RuntimeError, match=r"\[2, 3, 4\] and \[3, 4, 5\] cannot be broadcast"):
        ug.ones((2, 3, 4)) @ ug.ones((3, 4, 5))
    with pytest.raises(RuntimeError, match="at least 1D, but they are 0D and 2D"):
        ug.matmul(ug.tensor(1.0), ug.ones((2, 2)))
    with pytest.raises(RuntimeError, match="same dtype, but got: float32 != float64"):
        ug.matmul(ug.ones((2, 2)), ug.ones((2, 2), dtype=ug.float64))


def test_matrix_product_variants_check_dimensions():
    with pytest.raises(RuntimeError, match="1D tensors expected, but got 2D and 2D tensors"):
        ug.dot(ug.ones((2, 2)), ug.ones((2, 2)))
    with pytest.raises(RuntimeError, match="inconsistent tensor size"):
        ug.dot(ug.ones(3), ug.ones(4))
    with pytest.raises(RuntimeError, match="self must be a matrix"):
        ug.mm(ug.ones(3), ug.ones((3, 2)))
    with pytest.raises(RuntimeError, match="batch1 must be a 3D tensor"):
        ug.bmm(ug.ones((2, 3)), ug.ones((3, 2)))
    with pytest.raises(RuntimeError, match=r"to be: \[2, 3\] but got: \[2, 4\]"):
        ug.bmm(ug.ones((2, 2, 3)), ug.ones((2, 4, 5)))
    with pytest.raises(RuntimeError, match="size mismatch"):
        ug.mv(ug.ones((2, 3)), ug.ones(4))
    with pytest.raises(RuntimeError, match="outer: Expected 1-D argument self, but got 2-D"):
        ug.outer(ug.ones((2, 3)), ug.ones(4))


def test_square_matrix_errors():
    with pytest.raises(RuntimeError, match="A must be batches of square matrices, but they are "
                                           "2 by 3 matrices"):
        ug.inv(ug.ones((2, 3)))
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        ug.det(ug.ones(3))
    with pytest.raises(ug.linalg.LinAlgError, match="singular"):
        ug.inv(ug.zeros((2, 2)))
    with pytest.raises(ug.linalg.LinAlgError, match="singular"):
        ug.solve(ug.zeros((2, 2)), ug.ones(2))
    with pytest.raises(RuntimeError, match=r"Incompatible shapes of A and B for the equation "
                                           r"AX = B \(2x2 and 3x1\)"):
        ug.solve(ug.eye(2), ug.ones(3))


def test_cholesky_of_non_positive_definite_matrix_raises():
    with pytest.raises(ug.linalg.LinAlgError, match="not positive-definite"):
        ug.linalg.cholesky(ug.tensor([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(RuntimeError, match="not positive-definite"):
        ug.cholesky(-ug.eye(2))


@pytest.mark.parametrize("equation, shapes, message", [
    ("ij,jk", [(2, 3)], "fewer operands were provided"),
    ("ij", [(2, 3), (2,)], "more operands were provided"),
    ("ij->k", [(2, 3)], "output subscript k does not appear"),
    ("ijk->ij", [(2, 3)], "number of subscripts in the equation \\(3\\) does not match"),
    ("i1->i", [(2, 3)], "invalid subscript given at index 0"),
    ("ij,jk->ik", [(2, 3), (4, 5)], "subscript j has size 4 for operand 1"),
    ("ij->ii", [(2, 2)], "output subscript i appears more than once"),
    ("i->i->i", [(2,)], "more than one '->'"),
])
def test_einsum_rejects_bad_equations(equation, shapes, message):
    operands = [ug.ones(shape) for shape in shapes]
    with pytest.raises(ValueError, match=message):
        ug.einsum(equation, *operands)
    with pytest.raises(RuntimeError, match=message):
        ug.einsum(equation, *operands)


def test_reduction_dim_errors():
    x = ug.ones((2, 3))
    with pytest.raises(IndexError, match="Dimension out of range"):
        ug.amax(x, dim=2)
    with pytest.raises(IndexError, match="Dimension out of range"):
        ug.max(x, dim=-3)
    with pytest.raises(TypeError, match="either dim= or axis="):
        ug.argmax(x, dim=0, axis=0)
    with pytest.raises(TypeError, match="only one of unbiased=, correction= and ddof="):
        ug.var(x, correction=1, ddof=1)
    with pytest.raises(RuntimeError, match="dim must be a 2-tuple"):
        ug.norm(x, p="nuc", dim=0)


# ----------------------------------------------------------------------------- against PyTorch

@pytest.mark.torch
def test_against_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    data = rng.standard_normal((3, 4))
    data[0, 1] = 0.0
    data[1, 2] = data[1, 0]
    cases = [
        (lambda m, x: m.prod(x, 1), "prod"),
        (lambda m, x: m.amax(x, 1), "amax"),
        (lambda m, x: m.var(x, 0, correction=0), "var"),
        (lambda m, x: m.std(x), "std"),
        (lambda m, x: m.logsumexp(x, 1), "logsumexp"),
        (lambda m, x: m.norm(x, p=3, dim=1), "norm"),
        (lambda m, x: m.cumsum(x, 1), "cumsum"),
        (lambda m, x: m.max(x, 1).values, "max_dim"),
        (lambda m, x: m.einsum("ij,kj->ik", x, x), "einsum"),
        (lambda m, x: m.linalg.det(x[:, :3] + 3.0 * m.eye(3, dtype=x.dtype)), "det"),
    ]
    for function, name in cases:
        ours = ug.tensor(data, requires_grad=True)
        theirs = torch.tensor(data, requires_grad=True)
        out_ours, out_theirs = function(ug, ours), function(torch, theirs)
        np.testing.assert_allclose(out_ours.detach().numpy(), out_theirs.detach().numpy(),
                                   rtol=1e-10, atol=1e-12, err_msg=name)
        weights = rng.standard_normal(out_theirs.shape)
        (out_ours * ug.tensor(weights)).sum().backward()
        (out_theirs * torch.tensor(weights)).sum().backward()
        np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-9,
                                   atol=1e-12, err_msg=name)


def test_sum_of_integers_with_an_explicit_dtype_has_that_dtype():
    x = ug.tensor([[1, 2], [3, 4]])
    assert ug.sum(x, dtype=ug.int32).dtype == ug.int32
    assert ug.sum(x, 1, dtype=ug.int16).tolist() == [3, 7]
    assert ug.sum(x, 1, dtype=ug.int16).dtype == ug.int16
    assert ug.sum(x).dtype == ug.int64
    assert ug.sum(x, dtype=ug.float64).dtype == ug.float64
