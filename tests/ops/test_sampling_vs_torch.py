"""Random sampling against PyTorch: the same calls, spelled identically, give results of
the same shape, dtype, range and ``requires_grad``, the same error types, the same (zero)
gradients, and matching moments; ``set_default_dtype`` has the same effects."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.compat.torch as ours

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.torch, pytest.mark.usefixtures("restore_random_defaults")]


@pytest.fixture(autouse=True)
def _restore_torch_defaults():
    torch.manual_seed(0)
    yield
    torch.set_default_dtype(torch.float32)


def as_numpy(tensor) -> np.ndarray:
    return tensor.detach().numpy()


def dtype_name(dtype) -> str:
    return str(dtype).split(".")[-1]


CALLS = {
    "randint_high_size": lambda m: m.randint(3, (4,)),
    "randint_low_high_size": lambda m: m.randint(-2, 5, (2, 3)),
    "randint_keywords": lambda m: m.randint(low=2, high=5, size=(3,)),
    "randint_high_keyword_size": lambda m: m.randint(5, size=(2,)),
    "randint_list_size": lambda m: m.randint(3, [2, 2]),
    "randint_float_dtype": lambda m: m.randint(0, 3, (3,), dtype=m.float64),
    "randint_bool": lambda m: m.randint(0, 2, (5,), dtype=m.bool),
    "randint_requires_grad": lambda m: m.randint(0, 3, (3,), dtype=m.float32, requires_grad=True),
    "randint_scalar": lambda m: m.randint(4, ()),
    "randperm": lambda m: m.randperm(5),
    "randperm_empty": lambda m: m.randperm(0),
    "randperm_float": lambda m: m.randperm(4, dtype=m.float32),
    "rand_like_requires_grad": lambda m: m.rand_like(m.zeros(2, dtype=m.float64),
                                                     requires_grad=True),
    "randn_like": lambda m: m.randn_like(m.zeros(2, 3)),
    "randint_like_high": lambda m: m.randint_like(m.zeros(2, 2), 5),
    "randint_like_low_high": lambda m: m.randint_like(m.zeros(3, dtype=m.int32), 3, 5),
    "normal_tensors": lambda m: m.normal(m.zeros(2, 1), m.ones(3)),
    "normal_mean_tensor": lambda m: m.normal(m.zeros(2, dtype=m.float64), 1.0),
    "normal_std_tensor": lambda m: m.normal(0.0, m.ones(2, dtype=m.float64)),
    "normal_floats": lambda m: m.normal(0.0, 1.0, (2, 3)),
    "normal_int_mean_float": lambda m: m.normal(2, 1.0, (2,)),
    "normal_dtype": lambda m: m.normal(0.0, 1.0, size=(2,), dtype=m.float64),
    "normal_zero_std": lambda m: m.normal(m.tensor([1.0, 2.0]), 0.0),
    "bernoulli": lambda m: m.bernoulli(m.tensor([0.0, 1.0, 1.0])),
    "bernoulli_p": lambda m: m.bernoulli(m.zeros(3, dtype=m.float64), 1.0),
    "bernoulli_method": lambda m: m.tensor([1.0, 0.0]).bernoulli(),
    "multinomial_replacement": lambda m: m.multinomial(m.tensor([0.0, 1.0, 0.0]), 4, True),
    "multinomial_rows": lambda m: m.multinomial(m.tensor([[0.0, 1.0], [1.0, 0.0]]), 1),
    "multinomial_all": lambda m: m.multinomial(m.tensor([1.0, 2.0, 3.0]), 3).sort().values,
    "multinomial_method": lambda m: m.tensor([0.0, 0.0, 2.0]).multinomial(1),
    "poisson_zero": lambda m: m.poisson(m.zeros(2, 2, dtype=m.float64)),
    "rand_tuple": lambda m: m.rand((2, 3)),
    "randn_dtype": lambda m: m.randn(2, dtype=m.float64),
    "uniform_": lambda m: m.zeros(4).uniform_(2.0, 2.0),
    "normal_": lambda m: m.zeros(3, dtype=m.float64).normal_(4.0, 0.0),
    "random_int8": lambda m: m.zeros(3, dtype=m.int8).random_(5, 6),
    "random_to": lambda m: m.zeros(3).random_(1),
    "bernoulli_int": lambda m: m.zeros(3, dtype=m.int64).bernoulli_(1.0),
    "bernoulli_tensor_p": lambda m: m.zeros(3).bernoulli_(m.tensor([1.0, 0.0, 1.0])),
    "geometric_int": lambda m: m.zeros(2, dtype=m.int32).geometric_(0.999999),
}

DETERMINISTIC = {"randperm_empty", "normal_zero_std", "bernoulli",
                 "bernoulli_p", "bernoulli_method", "multinomial_replacement",
                 "multinomial_rows", "multinomial_all", "multinomial_method", "poisson_zero",
                 "uniform_", "normal_", "random_int8", "random_to", "bernoulli_int",
                 "bernoulli_tensor_p", "geometric_int"}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_same_shape_dtype_and_flags(name):
    got, want = CALLS[name](ours), CALLS[name](torch)
    assert tuple(got.shape) == tuple(want.shape)
    assert dtype_name(got.dtype) == dtype_name(want.dtype)
    assert got.requires_grad == want.requires_grad
    if name in DETERMINISTIC:
        np.testing.assert_array_equal(as_numpy(got), as_numpy(want))
    if name.startswith("randint") and got.dtype != ug.bool:
        low = -2 if "low_high_size" in name else 0
        assert as_numpy(got).min() >= low
    if name.startswith("randperm"):
        assert sorted(as_numpy(got).tolist()) == sorted(as_numpy(want).tolist())


ERRORS = {
    "randint_int_size": lambda m: m.randint(3, 2),
    "randint_low_ge_high": lambda m: m.randint(5, 3, (2,)),
    "randint_empty_range": lambda m: m.randint(0, (2,)),
    "randint_uint8_bound": lambda m: m.randint(0, 300, (2,), dtype=m.uint8),
    "randint_int_requires_grad": lambda m: m.randint(0, 3, (2,), requires_grad=True),
    "randperm_negative": lambda m: m.randperm(-1),
    "rand_int_dtype": lambda m: m.rand(2, dtype=m.int64),
    "randn_like_int": lambda m: m.randn_like(m.zeros(2, dtype=m.int64)),
    "randint_like_bad_range": lambda m: m.randint_like(m.zeros(2), 5, 3),
    "normal_negative_std": lambda m: m.normal(0.0, -1.0, (2,)),
    "normal_negative_std_tensor": lambda m: m.normal(m.zeros(2), m.tensor([1.0, -1.0])),
    "normal_no_size": lambda m: m.normal(0.0, 1.0),
    "normal_int_mean": lambda m: m.normal(m.zeros(2, dtype=m.int64), 1.0),
    "normal_shapes": lambda m: m.normal(m.zeros(2), m.ones(3)),
    "bernoulli_bad_p": lambda m: m.bernoulli(m.tensor([0.0, 1.5])),
    "bernoulli_int": lambda m: m.bernoulli(m.tensor([0, 1])),
    "multinomial_too_many": lambda m: m.multinomial(m.tensor([1.0, 2.0]), 3),
    "multinomial_negative": lambda m: m.multinomial(m.tensor([1.0, -2.0]), 1),
    "multinomial_nan": lambda m: m.multinomial(m.tensor([1.0, float("nan")]), 1),
    "multinomial_inf": lambda m: m.multinomial(m.tensor([1.0, float("inf")]), 1),
    "multinomial_zero_sum": lambda m: m.multinomial(m.tensor([0.0, 0.0]), 1),
    "multinomial_3d": lambda m: m.multinomial(m.zeros(2, 2, 2), 1),
    "multinomial_0d": lambda m: m.multinomial(m.tensor(1.0), 1),
    "multinomial_zero_samples": lambda m: m.multinomial(m.tensor([1.0, 2.0]), 0),
    "multinomial_int": lambda m: m.multinomial(m.tensor([1, 2]), 1),
    "poisson_negative": lambda m: m.poisson(m.tensor([1.0, -1.0])),
    "poisson_int": lambda m: m.poisson(m.tensor([1, 2])),
    "uniform_int": lambda m: m.zeros(2, dtype=m.int64).uniform_(),
    "uniform_reversed": lambda m: m.zeros(2).uniform_(3, 1),
    "normal_int": lambda m: m.zeros(2, dtype=m.int64).normal_(),
    "normal_negative": lambda m: m.zeros(2).normal_(0, -1),
    "exponential_int": lambda m: m.zeros(2, dtype=m.int64).exponential_(),
    "exponential_zero": lambda m: m.zeros(2).exponential_(0),
    "random_reversed": lambda m: m.zeros(2).random_(5, 3),
    "random_uint8_bound": lambda m: m.zeros(2, dtype=m.uint8).random_(0, 300),
    "bernoulli_bad": lambda m: m.zeros(2).bernoulli_(1.5),
    "geometric_zero": lambda m: m.zeros(2).geometric_(0),
    "geometric_missing_p": lambda m: m.zeros(2).geometric_(),
    "cauchy_int": lambda m: m.zeros(2, dtype=m.int64).cauchy_(),
    "cauchy_negative": lambda m: m.zeros(2).cauchy_(0, -1),
    "log_normal_int": lambda m: m.zeros(2, dtype=m.int64).log_normal_(),
    "log_normal_zero": lambda m: m.zeros(2).log_normal_(0, 0),
    "leaf_requires_grad": lambda m: m.zeros(2, requires_grad=True).uniform_(),
    "set_rng_state_size": lambda m: m.set_rng_state(m.zeros(3, dtype=m.uint8)),
    "set_rng_state_dtype": lambda m: m.set_rng_state(m.zeros(5056)),
    "set_default_dtype_int": lambda m: m.set_default_dtype(m.int64),
    "manual_seed_overflow": lambda m: m.manual_seed(2 ** 64),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_same_error_types(name):
    with pytest.raises(Exception) as want:
        ERRORS[name](torch)
    with pytest.raises(want.type):
        ERRORS[name](ours)


@pytest.mark.parametrize("sampler", ["normal", "normal_std", "bernoulli", "poisson",
                                     "exponential_"])
def test_zero_gradients_like_torch(sampler):
    def run(m):
        mean = m.tensor([0.5, 2.0], dtype=m.float64, requires_grad=True)
        if sampler == "normal":
            out = m.normal(mean, mean * 0.5)
        elif sampler == "normal_std":
            out = m.normal(1.0, mean)
        elif sampler == "bernoulli":
            out = m.bernoulli(mean * 0.25)
        elif sampler == "poisson":
            out = m.poisson(mean)
        else:
            out = (mean * 2.0).exponential_()
        assert out.requires_grad
        (out * 3.0).sum().backward()
        return as_numpy(mean.grad)
    np.testing.assert_array_equal(run(ours), run(torch))
    np.testing.assert_array_equal(run(ours), [0.0, 0.0])


@pytest.mark.parametrize("name, make", [
    ("normal", lambda m: m.normal(m.full((20000,), 3.0), 2.0)),
    ("poisson", lambda m: m.poisson(m.full((20000,), 7.0))),
    ("exponential_", lambda m: m.zeros(20000).exponential_(0.5)),
    ("geometric_", lambda m: m.zeros(20000).geometric_(0.2)),
    ("log_normal_", lambda m: m.zeros(20000).log_normal_(0.0, 0.25)),
    ("random_", lambda m: m.zeros(20000).random_(-3, 4)),
    ("uniform_", lambda m: m.zeros(20000).uniform_(-1, 3)),
])
def test_moments_match_torch(name, make):
    torch.manual_seed(0)
    got, want = as_numpy(make(ours)).astype(np.float64), as_numpy(make(torch)).astype(np.float64)
    assert abs(got.mean() - want.mean()) < 6 * want.std() / np.sqrt(len(want))
    assert abs(got.std() / want.std() - 1) < 0.06
    if name != "normal":  # bounded below: the same support
        assert (got.min() >= 0) == (want.min() >= 0) and got.min() >= min(want.min(), 0) - 3


def test_random_default_ranges_match_torch():
    for dtype, top in (("uint8", 255), ("int8", 127), ("int16", 32767), ("bool", 1)):
        got = as_numpy(ours.zeros(4000, dtype=getattr(ours, dtype)).random_()).astype(int)
        want = as_numpy(torch.zeros(4000, dtype=getattr(torch, dtype)).random_()).astype(int)
        for drawn in (got, want):
            assert drawn.min() >= 0 and drawn.max() <= top and drawn.max() >= 0.98 * top
    got = as_numpy(ours.zeros(4000).random_())
    want = as_numpy(torch.zeros(4000).random_())
    assert got.max() <= 2 ** 24 and 0.5 < got.max() / want.max() < 2


def test_default_dtype_effects_match_torch():
    for m in (ours, torch):
        m.set_default_dtype(m.float64)
    calls = [lambda m: m.tensor([1.5]), lambda m: m.tensor(2), lambda m: m.zeros(2),
             lambda m: m.ones(1), lambda m: m.rand(2), lambda m: m.randn(2),
             lambda m: m.arange(0.0, 1.0, 0.5), lambda m: m.arange(3),
             lambda m: m.linspace(0, 1, 3), lambda m: m.eye(2), lambda m: m.full((1,), 1.5),
             lambda m: m.full((1,), 2), lambda m: m.tensor([1, 2]) * 1.5,
             lambda m: m.tensor([1, 2]) / 2, lambda m: m.sqrt(m.tensor([4])),
             lambda m: m.tensor([1.0], dtype=m.float32) * 1.5,
             lambda m: m.normal(0.0, 1.0, (1,)), lambda m: m.empty(1)]
    for call in calls:
        assert dtype_name(call(ours).dtype) == dtype_name(call(torch).dtype)
    assert dtype_name(ours.get_default_dtype()) == dtype_name(torch.get_default_dtype())


def test_state_sizes_and_seeds():
    assert ours.get_rng_state().dtype == ug.uint8
    assert ours.manual_seed(-1).initial_seed() == torch.manual_seed(-1).initial_seed()
    assert ours.manual_seed(123).initial_seed() == torch.manual_seed(123).initial_seed() == 123
    assert ours.Generator().manual_seed(5).initial_seed() == 5
    assert str(ours.get_default_device()) == str(torch.get_default_device())
