"""``unigrad.ops.linalg_solvers`` against PyTorch: values and gradients of the triangular and
Cholesky solvers (with torch's full-factor gradient), LU factor/unpack/solve (pivots, wide
and tall matrices, batches), the ``_ex`` variants' ``info``, matrix_exp, matrix_power,
multi_dot, vecdot, tensorsolve/tensorinv, vander and householder_product; plus det/slogdet/
logdet at singular matrices and negative determinants."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch

from .torch_comparison import compare as _compare  # noqa: E402


def compare(ug_fn, torch_fn, *arrays, seed=0, grad=True, atol=1e-9):
    """:func:`torch_comparison.compare` with dtypes and LAPACK-level tolerances."""
    _compare(ug_fn, torch_fn, *arrays, seed=seed, grad=grad, atol=atol, rtol=1e-9,
             grad_atol=1e-8, grad_rtol=1e-7, check_dtype=True)





rng = np.random.default_rng(7)
SQUARE = rng.standard_normal((2, 4, 4))
RHS = rng.standard_normal((2, 4, 3))
LOWER = np.tril(rng.standard_normal((4, 4))) + 3 * np.eye(4)
LOWER_GARBAGE = LOWER + np.triu(rng.standard_normal((4, 4)), 1)  # an unread upper triangle


def test_cholesky_solve_reads_one_triangle():
    """Values ignore the other triangle (torch's gradient there multiplies by the unread
    entries, which unigrad does not reproduce: see the README)."""
    b = RHS[0]
    for upper, factor in ((False, LOWER_GARBAGE), (True, LOWER_GARBAGE.T)):
        got = ug.cholesky_solve(ug.tensor(b), ug.tensor(factor), upper)
        want = torch.cholesky_solve(torch.tensor(b), torch.tensor(factor), upper)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-10)


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unitriangular", [True, False])
def test_solve_triangular(upper, left, unitriangular):
    b = RHS if left else np.swapaxes(RHS, -1, -2)
    kwargs = {"upper": upper, "left": left, "unitriangular": unitriangular}
    compare(lambda a, x: ug.linalg.solve_triangular(a, x, **kwargs),
            lambda a, x: torch.linalg.solve_triangular(a, x, **kwargs), SQUARE + 3 * np.eye(4), b)


def test_solve_triangular_broadcasts_batches():
    compare(lambda a, x: ug.linalg.solve_triangular(a, x, upper=False),
            lambda a, x: torch.linalg.solve_triangular(a, x, upper=False),
            LOWER, rng.standard_normal((3, 1, 4, 2)))


@pytest.mark.parametrize("transpose", [True, False])
def test_triangular_solve_returns_solution_and_copy(transpose):
    compare(lambda b, a: ug.triangular_solve(b, a, upper=False, transpose=transpose),
            lambda b, a: torch.triangular_solve(b, a, upper=False, transpose=transpose),
            RHS[0], LOWER_GARBAGE)
    result = ug.triangular_solve(ug.tensor(RHS[0]), ug.tensor(LOWER))
    assert type(result).__name__ == "triangular_solve"
    assert result.cloned_coefficient is not None


@pytest.mark.parametrize("upper", [True, False])
def test_cholesky_solve_gradient_reaches_the_unread_triangle(upper):
    factor = LOWER.T if upper else LOWER
    compare(lambda b, f: ug.cholesky_solve(b, f, upper),
            lambda b, f: torch.cholesky_solve(b, f, upper), RHS[0], factor)


@pytest.mark.parametrize("upper", [True, False])
def test_cholesky_inverse(upper):
    factor = LOWER.T if upper else LOWER
    compare(lambda f: ug.cholesky_inverse(f, upper), lambda f: torch.cholesky_inverse(f, upper),
            factor)


@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (3, 5), (1, 1), (0, 0), (2, 0, 3)])
def test_lu_factor_and_unpack(shape):
    a = np.random.default_rng(1).standard_normal(shape)
    compare(lambda x: ug.linalg.lu_factor_ex(x), lambda x: torch.linalg.lu_factor_ex(x), a)
    compare(lambda x: ug.linalg.lu(x), lambda x: torch.linalg.lu(x), a)
    compare(lambda x: ug.lu_unpack(*ug.linalg.lu_factor(x)),
            lambda x: torch.lu_unpack(*torch.linalg.lu_factor(x)), a)


def test_lu_pivots_are_one_based_int32_as_lapack():
    a = np.array([[1.0, 2.0, 0.0], [4.0, 1.0, 1.0], [-5.0, 0.0, 2.0]])
    got = ug.linalg.lu_factor(ug.tensor(a)).pivots
    want = torch.linalg.lu_factor(torch.tensor(a)).pivots
    assert got.dtype == ug.int32
    assert got.tolist() == want.tolist() == [3, 3, 3]
    assert type(ug.linalg.lu_factor(ug.tensor(a))).__name__ == "linalg_lu_factor"


def test_lu_factor_of_a_singular_matrix():
    a = np.zeros((3, 3))
    a[0, 0] = 1.0
    with pytest.raises(RuntimeError, match=r"U\[2,2\] is zero"):
        torch.linalg.lu_factor(torch.tensor(a))
    with pytest.raises(RuntimeError, match=r"U\[2,2\] is zero"):
        ug.linalg.lu_factor(ug.tensor(a))
    compare(lambda x: ug.linalg.lu_factor_ex(x), lambda x: torch.linalg.lu_factor_ex(x), a,
            grad=False)
    assert ug.linalg.lu_factor_ex(ug.tensor(a)).info.item() == 2


def test_lu_without_pivoting_is_refused_as_on_torch_cpu():
    with pytest.raises(RuntimeError, match="LU without pivoting is not implemented on the CPU"):
        ug.linalg.lu_factor(ug.eye(2), pivot=False)


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [True, False])
def test_lu_solve(left, adjoint):
    LU, pivots = torch.linalg.lu_factor(torch.tensor(SQUARE))
    b = RHS if left else np.swapaxes(RHS, -1, -2)
    compare(lambda f, x: ug.linalg.lu_solve(f, ug.tensor(pivots.numpy()), x, left=left,
                                            adjoint=adjoint),
            lambda f, x: torch.linalg.lu_solve(f, pivots, x, left=left, adjoint=adjoint),
            LU.detach().numpy(), b)
    compare(lambda x, f: ug.lu_solve(x, f, ug.tensor(pivots.numpy())),
            lambda x, f: torch.lu_solve(x, f, pivots), RHS, LU.detach().numpy())


def test_torch_lu_with_infos():
    compare(lambda x: ug.lu(x, get_infos=True), lambda x: torch.lu(x, get_infos=True), SQUARE)


def test_ex_variants_report_info_without_raising():
    singular = np.zeros((2, 3, 3))
    singular[0] = np.eye(3)
    singular[1, 0, 0] = 1.0
    ours, theirs = ug.linalg.inv_ex(ug.tensor(singular)), torch.linalg.inv_ex(
        torch.tensor(singular))
    assert ours.info.tolist() == theirs.info.tolist() == [0, 2]
    np.testing.assert_allclose(ours.inverse[0].numpy(), np.eye(3))
    assert not np.isfinite(ours.inverse[1].numpy()).all()
    with pytest.raises(ug.linalg.LinAlgError):
        ug.linalg.inv_ex(ug.tensor(singular), check_errors=True)
    not_positive = -np.eye(3)
    got = ug.linalg.cholesky_ex(ug.tensor(not_positive))
    want = torch.linalg.cholesky_ex(torch.tensor(not_positive))
    assert got.info.item() == want.info.item() == 1
    assert got.info.dtype == ug.int32
    with pytest.raises(ug.linalg.LinAlgError, match="leading minor of order 1"):
        ug.linalg.cholesky_ex(ug.tensor(not_positive), check_errors=True)
    solved = ug.linalg.solve_ex(ug.tensor(singular), ug.ones((2, 3, 1), dtype=ug.float64))
    assert solved.info.tolist() == [0, 2]


def test_ex_variants_values_and_gradients():
    spd = SQUARE @ np.swapaxes(SQUARE, -1, -2) + np.eye(4)
    compare(lambda x: ug.linalg.cholesky_ex(x), lambda x: torch.linalg.cholesky_ex(x), spd)
    compare(lambda x: ug.linalg.inv_ex(x), lambda x: torch.linalg.inv_ex(x), SQUARE)
    compare(lambda x, y: ug.linalg.solve_ex(x, y), lambda x, y: torch.linalg.solve_ex(x, y),
            SQUARE, RHS)


@pytest.mark.parametrize("scale", [0.1, 1.0, 5.0])
def test_matrix_exp(scale):
    compare(ug.matrix_exp, torch.matrix_exp, SQUARE * scale, atol=1e-8)


def test_matrix_exp_second_order_matches_torch():
    a = SQUARE[0] * 0.5
    ours = ug.tensor(a, requires_grad=True)
    theirs = torch.tensor(a, requires_grad=True)
    (g_ours,) = ug.autograd.grad(ug.matrix_exp(ours).sum(), ours, create_graph=True)
    (g_theirs,) = torch.autograd.grad(torch.matrix_exp(theirs).sum(), theirs, create_graph=True)
    (h_ours,) = ug.autograd.grad((g_ours ** 2).sum(), ours)
    (h_theirs,) = torch.autograd.grad((g_theirs ** 2).sum(), theirs)
    np.testing.assert_allclose(h_ours.numpy(), h_theirs.numpy(), rtol=1e-8, atol=1e-9)


@pytest.mark.parametrize("n", [0, 1, 2, 5, -1, -3])
def test_matrix_power(n):
    compare(lambda x: ug.linalg.matrix_power(x, n), lambda x: torch.linalg.matrix_power(x, n),
            SQUARE + 3 * np.eye(4))
    compare(lambda x: x.matrix_power(n), lambda x: x.matrix_power(n), SQUARE[0] + 3 * np.eye(4))


def test_multi_dot_and_chain_matmul():
    shapes = [(3,), (3, 4), (4, 5), (5,)]
    arrays = [rng.standard_normal(s) for s in shapes]
    compare(lambda *m: ug.linalg.multi_dot(list(m)), lambda *m: torch.linalg.multi_dot(list(m)),
            *arrays)
    matrices = [rng.standard_normal(s) for s in [(2, 3), (3, 4), (4, 2)]]
    compare(ug.chain_matmul, torch.chain_matmul, *matrices)
    with pytest.raises(RuntimeError, match="multi_dot"):
        ug.linalg.multi_dot([ug.ones(2)])


def test_vecdot_and_diagonal():
    compare(lambda x, y: ug.linalg.vecdot(x, y, dim=-2),
            lambda x, y: torch.linalg.vecdot(x, y, dim=-2), RHS, RHS[:1])
    compare(lambda x: ug.linalg.diagonal(x, offset=-1),
            lambda x: torch.linalg.diagonal(x, offset=-1), RHS)


def test_tensorsolve_and_tensorinv():
    a = (np.eye(6) * 3 + rng.standard_normal((6, 6))).reshape(2, 3, 6)
    compare(ug.linalg.tensorsolve, torch.linalg.tensorsolve, a, rng.standard_normal((2, 3)))
    compare(lambda x, y: ug.linalg.tensorsolve(x, y, dims=(0,)),
            lambda x, y: torch.linalg.tensorsolve(x, y, dims=(0,)),
            np.moveaxis(a, -1, 0), rng.standard_normal((2, 3)))
    compare(lambda x: ug.linalg.tensorinv(x, ind=1), lambda x: torch.linalg.tensorinv(x, ind=1),
            (np.eye(4) * 3 + rng.standard_normal((4, 4))).reshape(4, 2, 2))


def test_vander():
    x = np.array([2.0, 0.0, -1.5, 3.0])
    compare(lambda v: ug.linalg.vander(v), lambda v: torch.linalg.vander(v), x)
    compare(lambda v: ug.linalg.vander(v, N=6), lambda v: torch.linalg.vander(v, N=6),
            rng.standard_normal((2, 3)))
    compare(lambda v: ug.vander(v, 3, True), lambda v: torch.vander(v, 3, True), x, grad=False)
    compare(lambda v: ug.vander(v), lambda v: torch.vander(v), x, grad=False)
    ints = [1, 2, 3]
    assert ug.vander(ug.tensor(ints)).tolist() == torch.vander(torch.tensor(ints)).tolist()
    assert ug.vander(ug.tensor(ints, dtype=ug.int32)).dtype == ug.int64
    with pytest.raises(RuntimeError, match="N must be greater than 1"):
        ug.linalg.vander(ug.tensor([1.0, 2.0]), N=1)


def test_householder_product():
    a = rng.standard_normal((2, 5, 3))
    tau = rng.standard_normal((2, 2))
    compare(ug.linalg.householder_product, torch.linalg.householder_product, a, tau)
    compare(lambda x, t: x.orgqr(t), lambda x, t: x.orgqr(t), a[0], tau[0])


def test_det_slogdet_logdet_at_singular_and_negative_determinants():
    negative = np.array([[0.0, 2.0], [1.0, 0.0]])
    compare(ug.det, torch.det, negative)
    compare(lambda x: ug.slogdet(x), lambda x: torch.slogdet(x), negative)
    got, want = ug.logdet(ug.tensor(negative)), torch.logdet(torch.tensor(negative))
    assert np.isnan(got.item()) and np.isnan(want.item())
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    compare(ug.det, torch.det, singular, grad=False)
    sign, logabsdet = ug.slogdet(ug.tensor(singular))
    assert sign.item() == 0.0 and logabsdet.item() == -np.inf
    assert ug.logdet(ug.tensor(singular)).item() == torch.logdet(torch.tensor(singular)).item()
