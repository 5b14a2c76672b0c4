"""Random sampling (``unigrad.ops.sampling``, the random part of ``creation`` and the
in-place fillers): distribution moments with fixed seeds, exact reproducibility with
``manual_seed`` and ``Generator``, RNG state round trips, shapes, dtypes and errors,
vmap/jit behaviour, and the process-wide default dtype and device."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug

N = 20000


pytestmark = pytest.mark.usefixtures("restore_random_defaults")


def values(tensor) -> np.ndarray:
    return np.asarray(tensor.detach()._data, dtype=np.float64)


# ----------------------------------------------------------------------------- moments

@pytest.mark.parametrize("sample, mean, variance", [
    (lambda: ug.rand(N), 0.5, 1 / 12),
    (lambda: ug.randn(N), 0.0, 1.0),
    (lambda: ug.normal(2.0, 3.0, (N,)), 2.0, 9.0),
    (lambda: ug.normal(ug.full((N,), -1.0), 0.5), -1.0, 0.25),
    (lambda: ug.normal(1.0, ug.full((N,), 2.0)), 1.0, 4.0),
    (lambda: ug.normal(ug.zeros(N), ug.full((N,), 2.0)), 0.0, 4.0),
    (lambda: ug.bernoulli(ug.full((N,), 0.3)), 0.3, 0.21),
    (lambda: ug.bernoulli(ug.zeros(N), 0.8), 0.8, 0.16),
    (lambda: ug.poisson(ug.full((N,), 4.0)), 4.0, 4.0),
    (lambda: ug.randint(0, 10, (N,)), 4.5, 8.25),
    (lambda: ug.randint_like(ug.zeros(N), 3, 7), 4.5, 1.25),
    (lambda: ug.zeros(N).uniform_(-2, 4), 1.0, 3.0),
    (lambda: ug.zeros(N).normal_(5.0, 2.0), 5.0, 4.0),
    (lambda: ug.zeros(N).exponential_(2.0), 0.5, 0.25),
    (lambda: ug.zeros(N).random_(0, 4), 1.5, 1.25),
    (lambda: ug.zeros(N).bernoulli_(0.25), 0.25, 0.1875),
    (lambda: ug.zeros(N).geometric_(0.5), 2.0, 2.0),
    (lambda: ug.zeros(N, dtype=ug.float64).log_normal_(0.0, 0.5),
     np.exp(0.125), (np.exp(0.25) - 1) * np.exp(0.25)),
], ids=["rand", "randn", "normal_floats", "normal_mean_tensor", "normal_std_tensor",
        "normal_tensors", "bernoulli_input", "bernoulli_p", "poisson", "randint", "randint_like",
        "uniform_", "normal_", "exponential_", "random_", "bernoulli_", "geometric_",
        "log_normal_"])
def test_moments(sample, mean, variance):
    drawn = values(sample())
    assert drawn.shape == (N,)
    standard_error = np.sqrt(variance / N)
    assert abs(drawn.mean() - mean) < 5 * standard_error
    assert abs(drawn.var() - variance) < 0.1 * variance


def test_cauchy_median_and_quartiles():
    drawn = values(ug.zeros(N, dtype=ug.float64).cauchy_(1.0, 2.0))
    q1, median, q3 = np.quantile(drawn, [0.25, 0.5, 0.75])
    assert abs(median - 1.0) < 0.1 and abs(q1 + 1.0) < 0.15 and abs(q3 - 3.0) < 0.15


def test_ranges():
    assert set(values(ug.randint(3, 6, (500,))).astype(int)) == {3, 4, 5}
    assert set(values(ug.zeros(500, dtype=ug.int32).random_(-2, 1)).astype(int)) == {-2, -1, 0}
    assert set(values(ug.zeros(200, dtype=ug.bool).random_()).astype(int)) == {0, 1}
    x = values(ug.zeros(500, dtype=ug.uint8).random_())
    assert x.min() >= 0 and x.max() <= 255 and x.max() > 200
    f = values(ug.zeros(2000).random_())
    assert (f == np.round(f)).all() and f.min() >= 0 and f.max() <= 2 ** 24 and f.max() > 2 ** 23
    d = values(ug.zeros(2000, dtype=ug.float64).random_(5, None))
    assert d.min() >= 5 and d.max() > 2 ** 52
    assert values(ug.zeros(100).random_(3)).max() < 3
    assert values(ug.zeros(100).random_(**{"from": 7, "to": 9})).min() >= 7
    y = values(ug.zeros(300).uniform_(**{"from": -1.0}))
    assert y.min() >= -1 and y.max() < 1 and y.min() < -0.9
    assert (values(ug.zeros(200).geometric_(0.9)) >= 1).all()
    assert (values(ug.zeros(200).exponential_()) >= 0).all()
    assert (values(ug.zeros(200).log_normal_()) > 0).all()


def test_multinomial_frequencies_and_distinctness():
    weights = ug.tensor([1.0, 0.0, 3.0, 4.0])
    counts = np.bincount(values(ug.multinomial(weights, N, replacement=True)).astype(int),
                         minlength=4) / N
    np.testing.assert_allclose(counts, [0.125, 0.0, 0.375, 0.5], atol=0.015)
    rows = ug.multinomial(ug.tensor([[1.0, 1.0, 1.0, 0.0], [0.0, 0.0, 2.0, 5.0]]), 2)
    assert rows.dtype == ug.int64 and rows.shape == (2, 2)
    first = values(rows)[0]
    assert len(set(first)) == 2 and 3 not in first
    assert sorted(values(rows)[1]) == [2, 3]
    # without replacement the first pick follows the weights
    firsts = np.array([int(ug.multinomial(ug.tensor([1.0, 3.0]), 2)[0]) for _ in range(2000)])
    assert abs(firsts.mean() - 0.75) < 0.04
    full = ug.multinomial(ug.tensor([5.0, 1.0, 2.0]), 3)
    assert sorted(values(full).astype(int)) == [0, 1, 2]


def test_randperm_is_a_permutation_and_uniform():
    for n in (0, 1, 7):
        p = ug.randperm(n)
        assert p.dtype == ug.int64 and sorted(values(p).astype(int)) == list(range(n))
    assert ug.randperm(4, dtype=ug.float32).dtype == ug.float32
    firsts = np.bincount([int(ug.randperm(3)[0]) for _ in range(3000)], minlength=3) / 3000
    np.testing.assert_allclose(firsts, [1 / 3] * 3, atol=0.04)


# ----------------------------------------------------------------------------- reproducibility

SAMPLERS = {
    "rand": lambda g: ug.rand(3, generator=g),
    "randn": lambda g: ug.randn(2, 2, generator=g),
    "randint": lambda g: ug.randint(0, 100, (4,), generator=g),
    "randint_like": lambda g: ug.randint_like(ug.zeros(3), 50, generator=g),
    "rand_like": lambda g: ug.rand_like(ug.zeros(3), generator=g),
    "randn_like": lambda g: ug.randn_like(ug.zeros(3), generator=g),
    "randperm": lambda g: ug.randperm(6, generator=g),
    "normal": lambda g: ug.normal(ug.zeros(3), ug.ones(3), generator=g),
    "normal_size": lambda g: ug.normal(0.0, 1.0, (3,), generator=g),
    "bernoulli": lambda g: ug.bernoulli(ug.full((8,), 0.5), generator=g),
    "multinomial": lambda g: ug.multinomial(ug.ones(5), 3, generator=g),
    "poisson": lambda g: ug.poisson(ug.full((4,), 3.0), g),
    "uniform_": lambda g: ug.zeros(3).uniform_(generator=g),
    "normal_": lambda g: ug.zeros(3).normal_(generator=g),
    "exponential_": lambda g: ug.zeros(3).exponential_(generator=g),
    "random_": lambda g: ug.zeros(3).random_(generator=g),
    "bernoulli_": lambda g: ug.zeros(8).bernoulli_(generator=g),
    "geometric_": lambda g: ug.zeros(3).geometric_(0.3, generator=g),
    "cauchy_": lambda g: ug.zeros(3).cauchy_(generator=g),
    "log_normal_": lambda g: ug.zeros(3).log_normal_(generator=g),
}


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_generator_reproducible_and_independent(name):
    sample = SAMPLERS[name]
    g = ug.Generator().manual_seed(1234)
    first = values(sample(g))
    default_before = ug.get_rng_state()
    second = values(sample(ug.Generator().manual_seed(1234)))
    np.testing.assert_array_equal(first, second)
    # drawing from a private generator leaves the default one alone
    np.testing.assert_array_equal(values(ug.get_rng_state()), values(default_before))
    # the default generator is used for generator=None and is seeded by manual_seed
    ug.manual_seed(77)
    a = values(sample(None))
    ug.manual_seed(77)
    np.testing.assert_array_equal(values(sample(None)), a)


def test_manual_seed_returns_default_generator_and_keeps_streams():
    g = ug.manual_seed(3)
    assert g is ug.default_generator and isinstance(g, ug.Generator)
    assert ug.initial_seed() == 3
    # the stream of seed s is NumPy's default_rng(s) (unchanged by this module)
    np.testing.assert_array_equal(values(ug.rand(4, dtype=ug.float64)),
                                  np.random.default_rng(3).random(4))
    assert ug.manual_seed(-1).initial_seed() == 2 ** 64 - 1
    with pytest.raises(ValueError, match="Overflow"):
        ug.manual_seed(2 ** 64)
    with pytest.raises(TypeError, match="int seed"):
        ug.manual_seed("1")


def test_seed_is_fresh_and_recorded():
    s1 = ug.seed()
    assert ug.initial_seed() == s1
    assert ug.seed() != s1
    g = ug.Generator()
    s = g.seed()
    assert g.initial_seed() == s and 0 <= s < 2 ** 64


def test_rng_state_round_trip_exact():
    ug.manual_seed(11)
    ug.randn(3)  # move the stream along (and leave a buffered half word)
    ug.randint(0, 5, (3,), dtype=ug.int32)
    state = ug.get_rng_state()
    assert state.dtype == ug.uint8 and state.shape == (48,)
    a = values(ug.rand(5)), values(ug.randint(0, 2 ** 40, (3,)))
    ug.rand(100)
    ug.set_rng_state(state)
    b = values(ug.rand(5)), values(ug.randint(0, 2 ** 40, (3,)))
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert ug.initial_seed() == 11
    np.testing.assert_array_equal(values(ug.get_rng_state()), values(ug.get_rng_state()))
    # a state moves between generators
    g = ug.Generator().set_state(state)
    np.testing.assert_array_equal(values(ug.rand(5, generator=g)), a[0])
    assert g.get_state() is not state and g.initial_seed() == 11


def test_rng_state_errors():
    with pytest.raises(TypeError, match="uint8"):
        ug.set_rng_state(ug.zeros(48))
    with pytest.raises(RuntimeError, match="size 48 .* size to be 3"):
        ug.set_rng_state(ug.zeros(3, dtype=ug.uint8))
    with pytest.raises(TypeError, match="got list"):
        ug.set_rng_state([1, 2])


def test_generator_object():
    g = ug.Generator("cpu")
    assert str(g.device) == "cpu"
    assert g.initial_seed() == 67280421310721
    assert g.manual_seed(5) is g and g.set_state(g.get_state()) is g
    with pytest.raises(RuntimeError, match="only device 'cpu'"):
        ug.Generator("cuda")
    with pytest.raises(TypeError, match="generator must be a unigrad.Generator"):
        ug.rand(2, generator=np.random.default_rng(0))


def test_generators_share_nothing():
    g1, g2 = ug.Generator().manual_seed(1), ug.Generator().manual_seed(1)
    a = values(ug.rand(3, generator=g1))
    ug.rand(50, generator=g2.manual_seed(2))
    np.testing.assert_array_equal(values(ug.rand(3, generator=g1.manual_seed(1))), a)


# ----------------------------------------------------------------------------- shapes, dtypes

def test_randint_forms_and_dtypes():
    assert ug.randint(3, (4,)).shape == (4,)
    assert ug.randint(3, [2, 2]).shape == (2, 2)
    assert ug.randint(2, 5, (3,)).shape == (3,)
    assert ug.randint(5, size=(2,)).shape == (2,)
    assert ug.randint(high=5, size=(2,)).shape == (2,)
    assert ug.randint(low=2, high=5, size=(2,)).shape == (2,)
    assert ug.randint(5, ()).shape == ()
    assert ug.randint(0, 2, (3,), dtype=ug.bool).dtype == ug.bool
    x = ug.randint(0, 4, (3,), dtype=ug.float32, requires_grad=True)
    assert x.dtype == ug.float32 and x.requires_grad and x.is_leaf
    assert ug.randint(0, 4, (3,), dtype=ug.int8).dtype == ug.int8


def test_randint_errors():
    with pytest.raises(TypeError, match="'size' \\(position 2\\) must be tuple of ints, not int"):
        ug.randint(3, 2)
    with pytest.raises(TypeError, match="'size'"):
        ug.randint(low=1, high=3)
    with pytest.raises(TypeError, match="missing required argument 'size'"):
        ug.randint(3)
    with pytest.raises(TypeError, match="'high' must be int"):
        ug.randint((3,))
    with pytest.raises(RuntimeError, match="from=5 >= to=3"):
        ug.randint(5, 3, (2,))
    with pytest.raises(RuntimeError, match="from=0 >= to=0"):
        ug.randint(0, (2,))
    with pytest.raises(RuntimeError, match="out of bounds for uint8"):
        ug.randint(0, 300, (2,), dtype=ug.uint8)
    with pytest.raises(RuntimeError, match="Only Tensors of floating point"):
        ug.randint(0, 3, (2,), requires_grad=True)


def test_float_samplers_dtypes_and_errors():
    assert ug.rand(2, dtype=ug.float64).dtype == ug.float64
    assert ug.randn(2, dtype=ug.float16).dtype == ug.float16
    assert ug.rand((2, 3)).shape == (2, 3)
    assert ug.randn(2, requires_grad=True).requires_grad
    with pytest.raises(NotImplementedError, match="check_uniform_bounds.*Long"):
        ug.rand(2, dtype=ug.int64)
    with pytest.raises(NotImplementedError, match="normal_kernel_cpu.*Long"):
        ug.randn_like(ug.zeros(2, dtype=ug.int64))
    like = ug.rand_like(ug.zeros(2, dtype=ug.float64), requires_grad=True)
    assert like.dtype == ug.float64 and like.requires_grad


def test_normal_forms_dtypes_and_errors():
    assert ug.normal(ug.zeros(2, 1), ug.ones(3)).shape == (2, 3)
    assert ug.normal(ug.zeros(2, dtype=ug.float64), 1.0).dtype == ug.float64
    assert ug.normal(0.0, ug.ones(2, dtype=ug.float64)).dtype == ug.float64
    assert ug.normal(2, 1.0, (2,)).dtype == ug.float32
    assert ug.normal(0.0, 1.0, size=(2,), dtype=ug.float64).dtype == ug.float64
    np.testing.assert_array_equal(values(ug.normal(ug.tensor([1.0, 2.0]), 0.0)), [1.0, 2.0])
    with pytest.raises(RuntimeError, match="std >= 0.0, but found std -1"):
        ug.normal(0.0, -1.0, (2,))
    with pytest.raises(RuntimeError, match="all elements of std >= 0.0"):
        ug.normal(ug.zeros(2), ug.tensor([1.0, -1.0]))
    with pytest.raises(TypeError, match="invalid combination"):
        ug.normal(0.0, 1.0)
    with pytest.raises(NotImplementedError, match="normal_kernel_cpu"):
        ug.normal(ug.zeros(2, dtype=ug.int64), 1.0)
    with pytest.raises(RuntimeError, match="size of tensor|broadcast|shape"):
        ug.normal(ug.zeros(2), ug.ones(3))


def test_bernoulli_multinomial_poisson_errors():
    assert ug.bernoulli(ug.zeros(3, dtype=ug.float64)).dtype == ug.float64
    np.testing.assert_array_equal(values(ug.bernoulli(ug.tensor([0.0, 1.0]))), [0.0, 1.0])
    assert ug.tensor([0.2, 0.7]).bernoulli().shape == (2,)
    with pytest.raises(RuntimeError, match="p_in >= 0 && p_in <= 1"):
        ug.bernoulli(ug.tensor([0.0, 1.5]))
    with pytest.raises(NotImplementedError, match="bernoulli_tensor_cpu_p_"):
        ug.bernoulli(ug.tensor([0, 1]))
    with pytest.raises(RuntimeError, match="p to be in \\[0, 1\\]"):
        ug.bernoulli(ug.zeros(2), 1.5)
    cases = [
        ((ug.tensor([1.0, 2.0]), 3), "n_sample > prob_dist.size\\(-1\\)"),
        ((ug.tensor([1.0, -2.0]), 1), "`inf`, `nan` or element < 0"),
        ((ug.tensor([1.0, float("nan")]), 1), "`inf`, `nan` or element < 0"),
        ((ug.tensor([1.0, float("inf")]), 1), "`inf`, `nan` or element < 0"),
        ((ug.tensor([0.0, 0.0]), 1), "sum of probabilities <= 0"),
        ((ug.zeros(2, 2, 2), 1), "1 or 2 dim"),
        ((ug.tensor(1.0), 1), "1 or 2 dim"),
        ((ug.tensor([1.0, 2.0]), 0), "n_sample <= 0"),
        ((ug.tensor([1, 2]), 1), "floating-point dtypes"),
        ((ug.tensor([1.0, 0.0, 2.0]), 3), "not enough non-negative category"),
    ]
    for args, message in cases:
        with pytest.raises(RuntimeError, match=message):
            ug.multinomial(*args)
    assert ug.tensor([1.0, 2.0]).multinomial(1).shape == (1,)
    with pytest.raises(RuntimeError, match="non-negative"):
        ug.poisson(ug.tensor([1.0, -1.0]))
    with pytest.raises(NotImplementedError, match="poisson_cpu"):
        ug.poisson(ug.tensor([1, 2]))
    assert ug.poisson(ug.zeros(2, 3, dtype=ug.float64)).dtype == ug.float64
    with pytest.raises(RuntimeError, match="negative dimension -1"):
        ug.randperm(-1)
    with pytest.raises(RuntimeError, match="from=5 >= to=3"):
        ug.randint_like(ug.zeros(2), 5, 3)
    assert ug.randint_like(ug.zeros(2, dtype=ug.int32), 3, 5).dtype == ug.int32


# ----------------------------------------------------------------------------- gradients

def test_samples_have_zero_gradient_like_torch():
    mean = ug.tensor([0.5, 1.0], requires_grad=True)
    std = ug.tensor([1.0, 2.0], requires_grad=True)
    out = ug.normal(mean, std)
    assert out.requires_grad
    (out * 3.0).sum().backward()
    np.testing.assert_array_equal(values(mean.grad), [0.0, 0.0])
    np.testing.assert_array_equal(values(std.grad), [0.0, 0.0])
    p = ug.tensor([0.2, 0.9], requires_grad=True)
    rates = ug.tensor([1.0, 3.0], requires_grad=True)
    (ug.bernoulli(p).sum() + ug.poisson(rates).sum()).backward()
    np.testing.assert_array_equal(values(p.grad), [0.0, 0.0])
    np.testing.assert_array_equal(values(rates.grad), [0.0, 0.0])
    with ug.no_grad():
        assert not ug.normal(mean, 1.0).requires_grad


# ----------------------------------------------------------------------------- in-place fillers

FILLERS = {
    "uniform_": lambda x: x.uniform_(),
    "normal_": lambda x: x.normal_(),
    "exponential_": lambda x: x.exponential_(),
    "random_": lambda x: x.random_(0, 5),
    "bernoulli_": lambda x: x.bernoulli_(0.5),
    "geometric_": lambda x: x.geometric_(0.5),
    "cauchy_": lambda x: x.cauchy_(),
    "log_normal_": lambda x: x.log_normal_(),
}


@pytest.mark.parametrize("name", sorted(FILLERS))
def test_filler_returns_self_bumps_version_and_guards_leaves(name):
    fill = FILLERS[name]
    x = ug.zeros(2, 3)
    view = x[0]
    assert fill(x) is x and x._version == 1
    assert values(x).shape == (2, 3) and x.dtype == ug.float32
    np.testing.assert_array_equal(values(view), values(x)[0])  # storage written in place
    leaf = ug.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        fill(leaf)
    with ug.no_grad():
        assert fill(leaf) is leaf
    source = ug.ones(3, requires_grad=True)
    y = source * 2.0
    fill(y)
    assert y.requires_grad and y.grad_fn is not None
    y.sum().backward()
    np.testing.assert_array_equal(values(source.grad), [0.0, 0.0, 0.0])


def test_saved_tensor_overwritten_by_filler_fails_backward():
    a = ug.ones(3, requires_grad=True)
    b = a * 1.0
    c = b * b  # saves b
    b.uniform_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        c.sum().backward()


def test_filler_errors_and_integer_support():
    long = ug.zeros(3, dtype=ug.int64)
    with pytest.raises(NotImplementedError, match='"check_uniform_bounds" not implemented for '
                                                  "'Long'"):
        long.uniform_()
    with pytest.raises(NotImplementedError, match="normal_kernel_cpu"):
        long.normal_()
    with pytest.raises(RuntimeError, match="Exponential distribution is a continuous"):
        long.exponential_()
    with pytest.raises(RuntimeError, match="Cauchy distribution is a continuous"):
        long.cauchy_()
    with pytest.raises(NotImplementedError, match="log_normal_cpu"):
        long.log_normal_()
    assert set(values(long.bernoulli_()).astype(int)) <= {0, 1}
    assert (values(long.geometric_(0.5)) >= 1).all()
    x = ug.zeros(2)
    for call, message in [
        (lambda: x.uniform_(3, 1), "from=3 > to=1"),
        (lambda: x.normal_(0, -1), "std >= 0.0, but found std -1"),
        (lambda: x.exponential_(0), "lambda > 0.0, but found lambda=0"),
        (lambda: x.geometric_(0), "p to be in \\(0, 1\\), but got p=0"),
        (lambda: x.geometric_(1.5), "but got p=1.5"),
        (lambda: x.bernoulli_(1.5), "p to be in \\[0, 1\\], but got p=1.5"),
        (lambda: x.cauchy_(0, -1), "sigma > 0.0, but found sigma=-1"),
        (lambda: x.log_normal_(0, 0), "std > 0.0, but found std=0"),
        (lambda: x.random_(5, 3), "from=5 >= to=3"),
        (lambda: ug.zeros(2, dtype=ug.uint8).random_(0, 300), "to - 1 is out of bounds"),
    ]:
        with pytest.raises(RuntimeError, match=message):
            call()
    assert x._version == 0  # every refusal came before any write
    with pytest.raises(TypeError, match="'from' must be int"):
        x.random_(0.5, 2)
    with pytest.raises(TypeError, match="multiple values"):
        x.uniform_(0.0, **{"from": 1.0})
    np.testing.assert_array_equal(values(ug.zeros(3).bernoulli_(ug.tensor([1.0, 0.0, 1.0]))),
                                  [1.0, 0.0, 1.0])


# ----------------------------------------------------------------------------- vmap and jit

def test_vmap_randomness_policy():
    x = ug.zeros(3, 4)
    with pytest.raises(Exception, match="randomness error mode"):
        ug.vmap(lambda v: v + ug.normal(v, 1.0))(x)
    same = values(ug.vmap(lambda v: ug.normal(v, 1.0), randomness="same")(x))
    assert (same == same[0]).all()
    different = values(ug.vmap(lambda v: ug.normal(v, 1.0), randomness="different")(x))
    assert len({tuple(row) for row in different}) == 3
    ug.manual_seed(5)
    perms = values(ug.vmap(lambda v: ug.randperm(4), randomness="different")(x))
    assert all(sorted(row) == [0, 1, 2, 3] for row in perms)
    filled = values(ug.vmap(lambda v: v.clone().uniform_(), randomness="different")(x))
    assert filled.shape == (3, 4) and len({tuple(row) for row in filled}) == 3
    picks = values(ug.vmap(lambda v: ug.multinomial(v + 1.0, 2), randomness="different")(x))
    assert picks.shape == (3, 2) and all(len(set(row)) == 2 for row in picks)
    weights = ug.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    drawn = values(ug.vmap(lambda w: ug.multinomial(w, 3, True), randomness="same")(weights))
    np.testing.assert_array_equal(drawn, [[1, 1, 1], [2, 2, 2]])
    drawn = values(ug.vmap(lambda w: ug.multinomial(w, 1), randomness="different")(weights))
    np.testing.assert_array_equal(drawn, [[1], [2]])
    rates = ug.tensor([[0.0, 0.0], [1000.0, 1000.0]])
    drawn = values(ug.vmap(ug.poisson, randomness="different")(rates))
    assert (drawn[0] == 0).all() and (drawn[1] > 800).all()
    with pytest.raises(Exception, match="randomness error mode"):
        ug.vmap(ug.poisson)(rates)


# ----------------------------------------------------------------------------- defaults

def test_default_dtype_switching():
    assert ug.get_default_dtype() == ug.float32
    ug.set_default_dtype(ug.float64)
    assert ug.get_default_dtype() == ug.float64
    assert ug.tensor([1.5]).dtype == ug.float64
    assert ug.tensor(2.5).dtype == ug.float64
    assert ug.tensor([1, 2]).dtype == ug.int64
    assert ug.tensor(np.float32(1.0)).dtype == ug.float32
    for made in (ug.zeros(2), ug.ones(2), ug.empty(2), ug.rand(2), ug.randn(2),
                 ug.arange(0.0, 1.0, 0.5), ug.linspace(0, 1, 3), ug.eye(2),
                 ug.full((2,), 1.5), ug.normal(0.0, 1.0, (2,))):
        assert made.dtype == ug.float64
    assert ug.arange(3).dtype == ug.int64
    assert ug.full((2,), 1).dtype == ug.int64
    assert (ug.tensor([1, 2]) * 1.5).dtype == ug.float64
    assert (ug.tensor([1, 2]) / 2).dtype == ug.float64
    assert ug.sqrt(ug.tensor([4])).dtype == ug.float64
    assert (ug.tensor([1.0], dtype=ug.float32) * 1.5).dtype == ug.float32
    ug.set_default_dtype(ug.float16)
    assert ug.zeros(1).dtype == ug.float16
    ug.set_default_dtype(ug.float32)
    assert ug.tensor([1.5]).dtype == ug.float32 and ug.zeros(1).dtype == ug.float32


def test_default_dtype_errors():
    for bad in (ug.int64, ug.bool, int, "int32"):
        with pytest.raises(TypeError, match="only floating-point types are supported"):
            ug.set_default_dtype(bad)
    assert ug.get_default_dtype() == ug.float32


def test_default_device():
    assert str(ug.get_default_device()) == "cpu"
    ug.set_default_device("cpu")
    assert ug.get_default_device() == "cpu"
    assert ug.zeros(2).device == "cpu"
    ug.set_default_device(None)
    assert str(ug.get_default_device()) == "cpu"
    with pytest.raises(ValueError, match="device must be"):
        ug.set_default_device("tpu")
