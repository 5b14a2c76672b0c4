"""``unigrad.ops.decompositions`` against PyTorch: values and gradients of svd, eigh, qr,
pinv, lstsq, matrix_rank, cond and the spectral norms, at edge cases (repeated singular
values / eigenvalues, rank deficiency, empty batches, wide and tall matrices).

Vectors are compared through sign-invariant functions (their absolute values), since their
signs are LAPACK's choice."""

from __future__ import annotations

import math

import numpy as np
import pytest

import unigrad as ug

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.torch


def compare(ug_fn, torch_fn, *arrays, seed=0, atol=1e-9):
    """Values of every floating output and the gradients of every input under a random
    cotangent on them."""
    ours = [ug.tensor(np.asarray(a, dtype=np.float64), requires_grad=True) for a in arrays]
    theirs = [torch.tensor(np.asarray(a, dtype=np.float64), requires_grad=True) for a in arrays]
    got, want = ug_fn(*ours), torch_fn(*theirs)
    got = list(got) if isinstance(got, tuple) else [got]
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    rng = np.random.default_rng(seed)
    ug_total, torch_total = 0.0, 0.0
    for g, w in zip(got, want):
        assert tuple(g.shape) == tuple(w.shape)
        np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(), atol=atol,
                                   rtol=1e-7)
        if w.dtype.is_floating_point and w.requires_grad:
            weights = rng.standard_normal(tuple(w.shape))
            ug_total = ug_total + (g * ug.tensor(weights)).sum()
            torch_total = torch_total + (w * torch.tensor(weights)).sum()
    if isinstance(torch_total, float):
        return
    want_grads = torch.autograd.grad(torch_total, theirs, allow_unused=True)
    got_grads = ug.autograd.grad(ug_total, ours, allow_unused=True)
    for g, w in zip(got_grads, want_grads):
        expected = np.zeros(g.shape) if w is None else w.numpy()
        np.testing.assert_allclose(g.numpy(), expected, atol=atol * 100, rtol=1e-6)


def random(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


SHAPES = [(4, 3), (3, 4), (3, 3), (2, 4, 3), (2, 3, 5), (1, 1)]


# ----------------------------------------------------------------------------- svd

@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("full_matrices", [False, True])
def test_linalg_svd_values_and_gradients(shape, full_matrices):
    k = min(shape[-2:])

    def loss(module):
        def fn(a):
            u, s, vh = module.linalg.svd(a, full_matrices=full_matrices)
            return u[..., :k].abs(), s, vh[..., :k, :].abs()
        return fn
    compare(loss(ug), loss(torch), random(*shape))


@pytest.mark.parametrize("some", [True, False])
def test_torch_svd_returns_v(some):
    a = random(3, 5, seed=1)

    def fn(module):  # the first k vectors (the rest of a full basis is arbitrary)
        return lambda x: tuple(part[..., :3].abs() if part.ndim > 1 else part
                               for part in module.svd(x, some=some))
    compare(fn(ug), fn(torch), a)
    ours, theirs = ug.svd(ug.tensor(a), compute_uv=False), torch.svd(torch.tensor(a),
                                                                      compute_uv=False)
    assert [tuple(p.shape) for p in ours] == [tuple(p.shape) for p in theirs]
    assert float(ours.U.abs().sum()) == 0.0 and float(ours.V.abs().sum()) == 0.0
    U, S, V = ug.svd(ug.tensor(a))
    np.testing.assert_allclose((U @ ug.diag(S) @ V.mT).numpy(), a, atol=1e-12)


def test_svdvals_of_repeated_singular_values_has_finite_gradient():
    compare(lambda a: ug.linalg.svdvals(a), lambda a: torch.linalg.svdvals(a), np.eye(3))
    compare(lambda a: ug.linalg.svd(a)[1], lambda a: torch.linalg.svd(a)[1], np.eye(3) * 2)


def test_svd_vectors_at_repeated_singular_values_are_not_finite_as_in_torch():
    a = np.diag([2.0, 2.0, 1.0])
    ours = ug.tensor(a, requires_grad=True)
    theirs = torch.tensor(a, requires_grad=True)
    ug.linalg.svd(ours)[0].abs().sum().backward()
    torch.linalg.svd(theirs)[0].abs().sum().backward()
    assert not np.isfinite(theirs.grad.numpy()).all()
    assert not np.isfinite(ours.grad.numpy()).all()


def test_svd_of_empty_batch_and_empty_matrix():
    for shape in [(0, 3, 3), (3, 0), (0, 2)]:
        ours = ug.linalg.svd(ug.tensor(np.zeros(shape)))
        theirs = torch.linalg.svd(torch.zeros(shape, dtype=torch.float64))
        assert [tuple(p.shape) for p in ours] == [tuple(p.shape) for p in theirs]


# ----------------------------------------------------------------------------- eigh

@pytest.mark.parametrize("UPLO", ["L", "U"])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (1, 1)])
def test_eigh_values_and_gradients(shape, UPLO):
    def fn(module):
        def eigh(a):
            values, vectors = module.linalg.eigh(a, UPLO=UPLO)
            return values, vectors.abs()
        return eigh
    compare(fn(ug), fn(torch), random(*shape, seed=2))
    compare(lambda a: ug.linalg.eigvalsh(a, UPLO), lambda a: torch.linalg.eigvalsh(a, UPLO),
            random(*shape, seed=3))


def test_eigh_reads_one_triangle():
    a = np.array([[2.0, 100.0], [1.0, 3.0]])
    np.testing.assert_allclose(ug.linalg.eigvalsh(ug.tensor(a)).numpy(),
                               torch.linalg.eigvalsh(torch.tensor(a)).numpy())
    np.testing.assert_allclose(ug.linalg.eigvalsh(ug.tensor(a), UPLO="U").numpy(),
                               torch.linalg.eigvalsh(torch.tensor(a), UPLO="U").numpy())


def test_eigh_vectors_at_repeated_eigenvalues_are_not_finite_as_in_torch():
    a = np.diag([1.0, 1.0, 3.0])
    ours = ug.tensor(a, requires_grad=True)
    theirs = torch.tensor(a, requires_grad=True)
    (ug.linalg.eigh(ours)[1] ** 3).sum().backward()
    (torch.linalg.eigh(theirs)[1] ** 3).sum().backward()
    assert not np.isfinite(theirs.grad.numpy()).all()
    assert not np.isfinite(ours.grad.numpy()).all()
    compare(lambda x: ug.linalg.eigvalsh(x), lambda x: torch.linalg.eigvalsh(x), a)


# ----------------------------------------------------------------------------- qr

@pytest.mark.parametrize("shape, mode", [((4, 3), "reduced"), ((3, 4), "reduced"),
                                         ((3, 3), "complete"), ((3, 5), "complete"),
                                         ((2, 5, 2), "reduced"), ((2, 2, 4), "reduced")])
def test_qr_values_and_gradients(shape, mode):
    def fn(module):
        def qr(a):
            q, r = module.linalg.qr(a, mode=mode)
            return q.abs(), r.abs()
        return qr
    compare(fn(ug), fn(torch), random(*shape, seed=4))


def test_qr_mode_r_and_errors():
    a = random(4, 3, seed=5)
    q, r = ug.linalg.qr(ug.tensor(a), mode="r")
    want_q, want_r = torch.linalg.qr(torch.tensor(a), mode="r")
    assert tuple(q.shape) == tuple(want_q.shape) == (0,)
    np.testing.assert_allclose(np.abs(r.numpy()), np.abs(want_r.numpy()), atol=1e-12)
    x = ug.tensor(a, requires_grad=True)
    with pytest.raises(RuntimeError, match="mode='r'"):
        ug.linalg.qr(x, mode="r")[1].sum().backward()
    with pytest.raises(RuntimeError, match="not differentiable when mode='complete'"):
        ug.linalg.qr(x, mode="complete")[0].sum().backward()
    with pytest.raises(RuntimeError, match="unrecognized mode"):
        ug.linalg.qr(x, mode="full")
    compare(lambda t: ug.qr(t, some=False)[1].abs(), lambda t: torch.qr(t, some=False)[1].abs(),
            random(3, 4, seed=6))


# ----------------------------------------------------------------------------- pinv, lstsq

@pytest.mark.parametrize("shape", SHAPES)
def test_pinv_values_and_gradients(shape):
    compare(ug.linalg.pinv, torch.linalg.pinv, random(*shape, seed=7))


def test_pinv_rank_deficient_tolerances_and_hermitian():
    low = random(4, 2, seed=8) @ random(2, 3, seed=9)
    compare(ug.linalg.pinv, torch.linalg.pinv, low)
    compare(lambda a: ug.linalg.pinv(a, atol=0.5), lambda a: torch.linalg.pinv(a, atol=0.5),
            random(3, 3, seed=10))
    compare(lambda a: ug.linalg.pinv(a, rtol=0.3), lambda a: torch.linalg.pinv(a, rtol=0.3),
            random(3, 3, seed=11))
    symmetric = random(3, 3, seed=12)
    symmetric = symmetric + symmetric.T
    compare(lambda a: ug.linalg.pinv(a, hermitian=True),
            lambda a: torch.linalg.pinv(a, hermitian=True), symmetric)
    compare(lambda a: ug.pinverse(a, rcond=0.2), lambda a: torch.pinverse(a, rcond=0.2),
            random(3, 4, seed=13))


@pytest.mark.parametrize("driver", [None, "gels", "gelsy", "gelsd", "gelss"])
@pytest.mark.parametrize("a_shape, b_shape", [((5, 3), (5, 2)), ((3, 5), (3, 2)),
                                              ((2, 4, 3), (2, 4, 1)), ((4, 3), (4,))])
def test_lstsq_fields_as_torch_cpu(a_shape, b_shape, driver):
    a, b = random(*a_shape, seed=14), random(*b_shape, seed=15)
    if driver == "gels" and a_shape[-2] < a_shape[-1]:
        driver = "gelsd"  # gels is the minimum-norm QR solve only for full-rank tall input
    ours = ug.linalg.lstsq(ug.tensor(a), ug.tensor(b), driver=driver)
    theirs = torch.linalg.lstsq(torch.tensor(a), torch.tensor(b), driver=driver)
    for got, want in zip(ours, theirs):
        assert tuple(got.shape) == tuple(want.shape)
        assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
        np.testing.assert_allclose(got.numpy(), want.numpy(), atol=1e-9)
    compare(lambda x, y: ug.linalg.lstsq(x, y, driver=driver).solution,
            lambda x, y: torch.linalg.lstsq(x, y, driver=driver).solution, a, b)


def test_lstsq_rank_deficient_gives_minimum_norm_solution():
    a = random(5, 2, seed=16) @ random(2, 3, seed=17)
    b = random(5, 2, seed=18)
    ours = ug.linalg.lstsq(ug.tensor(a), ug.tensor(b))
    theirs = torch.linalg.lstsq(torch.tensor(a), torch.tensor(b))
    np.testing.assert_allclose(ours.solution.numpy(), theirs.solution.numpy(), atol=1e-9)
    assert int(ours.rank) == int(theirs.rank) == 2


# ----------------------------------------------------------------------------- rank, cond, norms

def test_matrix_rank_tolerances():
    low = random(3, 4, 2, seed=19) @ random(3, 2, 4, seed=20)
    cases = [{}, {"atol": 1.0}, {"rtol": 0.5}, {"atol": 0.1, "rtol": 0.2}, {"hermitian": True}]
    for kwargs in cases:
        matrix = low + np.swapaxes(low, -1, -2) if kwargs.get("hermitian") else low
        got = ug.linalg.matrix_rank(ug.tensor(matrix), **kwargs)
        want = torch.linalg.matrix_rank(torch.tensor(matrix), **kwargs)
        np.testing.assert_array_equal(got.numpy(), want.numpy())
        assert got.dtype == ug.int64
    got = ug.linalg.matrix_rank(ug.tensor(low), 0.5)
    np.testing.assert_array_equal(got.numpy(), torch.linalg.matrix_rank(torch.tensor(low),
                                                                        0.5).numpy())
    tolerance = np.array([0.1, 100.0, 0.0])
    got = ug.linalg.matrix_rank(ug.tensor(low), atol=ug.tensor(tolerance))
    want = torch.linalg.matrix_rank(torch.tensor(low), atol=torch.tensor(tolerance))
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert int(ug.linalg.matrix_rank(ug.zeros(3, 3))) == 0


@pytest.mark.parametrize("p", [None, 2, -2, "fro", "nuc", 1, -1, math.inf, -math.inf])
def test_cond(p):
    a = random(2, 3, 3, seed=21)
    ours = ug.linalg.cond(ug.tensor(a), p)
    np.testing.assert_allclose(ours.numpy(), torch.linalg.cond(torch.tensor(a), p).numpy(),
                               rtol=1e-10)
    if p in (None, 2, -2, "nuc"):  # torch's backward of fro / 1 / inf fails (inplace inv)
        compare(lambda x: ug.linalg.cond(x, p), lambda x: torch.linalg.cond(x, p), a)
    singular = np.diag([1.0, 0.0, 2.0])
    np.testing.assert_array_equal(ug.linalg.cond(ug.tensor(singular), p).numpy(),
                                  torch.linalg.cond(torch.tensor(singular), p).numpy())


def test_cond_of_rectangular_matrices():
    for p in (None, 2, -2):
        compare(lambda x, p=p: ug.linalg.cond(x, p), lambda x, p=p: torch.linalg.cond(x, p),
                random(4, 2, seed=22))
    with pytest.raises(RuntimeError):
        ug.linalg.cond(ug.tensor(random(4, 2)), "fro")


@pytest.mark.parametrize("ord", ["nuc", 2, -2])
def test_spectral_matrix_norms(ord):
    a = random(3, 2, 4, seed=23)
    compare(lambda x: ug.linalg.matrix_norm(x, ord), lambda x: torch.linalg.matrix_norm(x, ord),
            a)
    compare(lambda x: ug.linalg.matrix_norm(x, ord, dim=(2, 0), keepdim=True),
            lambda x: torch.linalg.matrix_norm(x, ord, dim=(2, 0), keepdim=True), a)
    compare(lambda x: ug.linalg.norm(x, ord), lambda x: torch.linalg.norm(x, ord), a[0])
    compare(lambda x: ug.linalg.norm(x, ord, dim=(0, 1)),
            lambda x: torch.linalg.norm(x, ord, dim=(0, 1)), a)


def test_norm_nuc_and_errors():
    a = random(3, 2, 4, seed=24)
    compare(lambda x: ug.norm(x, p="nuc", dim=(0, 2)),
            lambda x: torch.norm(x, p="nuc", dim=(0, 2)), a)
    compare(lambda x: ug.norm(x, p="nuc", keepdim=True),
            lambda x: torch.norm(x, p="nuc", keepdim=True), a[0])
    compare(lambda x: ug.norm(x, p="nuc"), lambda x: torch.norm(x, p="nuc"), np.zeros((2, 3)))
    with pytest.raises(RuntimeError, match="2-tuple"):
        ug.norm(ug.tensor(a), p="nuc")
    with pytest.raises(RuntimeError, match="not supported"):
        ug.linalg.matrix_norm(ug.tensor(a), 3)


def test_errors_name_the_problem():
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        ug.linalg.svd(ug.tensor([1.0, 2.0]))
    with pytest.raises(RuntimeError, match="square"):
        ug.linalg.eigh(ug.tensor(random(2, 3)))
    with pytest.raises(RuntimeError, match="UPLO"):
        ug.linalg.eigvalsh(ug.tensor(random(2, 2)), UPLO="X")
    with pytest.raises(RuntimeError, match="floating point"):
        ug.linalg.svdvals(ug.tensor([[1, 2], [3, 4]]))
    with pytest.raises(RuntimeError, match="driver"):
        ug.linalg.lstsq(ug.tensor(random(3, 2)), ug.tensor(random(3, 1)), driver="gesv")
