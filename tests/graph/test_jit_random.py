"""Random numbers inside ``ug.jit``: drawn at every call, the same stream as eager code.

The draws are one impure primitive (``random_draw``, ``unigrad/ops/random_draw.py``):
the compiled code draws from the generator at run time, so the same seed gives the
same numbers eagerly and jitted, call after call, and leaves the generator in the
same state; the graph passes never fold, merge or drop a draw.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.nn.functional as F
from unigrad.interpreters.batching import BatchingError


def values(tensor) -> np.ndarray:
    return np.asarray(tensor.detach().numpy())


def eager_and_jitted(function, *args, calls: int = 2, seed: int = 0, compiler=ug.jit) -> tuple:
    """``function``'s results over ``calls`` calls from ``seed``, eagerly and compiled (by
    ``compiler``), and the generator states each run ends with."""
    runs = []
    for run in (function, compiler(function)):
        ug.manual_seed(seed)
        results = [values(run(*args)) for _ in range(calls)]
        runs.append((results, values(ug.get_rng_state())))
    (eager, eager_state), (jitted, jitted_state) = runs
    return eager, jitted, eager_state, jitted_state


def assert_same_stream(function, *args, calls: int = 2, compiler=ug.jit) -> list:
    eager, jitted, eager_state, jitted_state = eager_and_jitted(function, *args, calls=calls,
                                                                compiler=compiler)
    for first, second in zip(eager, jitted):
        np.testing.assert_array_equal(first, second)
    np.testing.assert_array_equal(eager_state, jitted_state)
    assert not np.array_equal(jitted[0], jitted[1])  # each call draws new numbers
    return jitted


def test_creation_functions_draw_the_eager_stream_at_every_call():
    def draws(x):
        return (x + ug.rand(3), x * ug.randn(3), ug.randint(0, 100, (3,)),
                ug.normal(0.5, 2.0, (3,)), ug.randn(2, dtype=ug.complex64),
                ug.rand_like(x, dtype=ug.float64))

    def stacked(x):
        parts = draws(x)
        return ug.cat([ug.real(parts[4]), ug.imag(parts[4])] +
                      [part.to(ug.float64) for part in parts[:4] + parts[5:]])

    jitted = assert_same_stream(stacked, ug.ones(3))
    assert jitted[0].shape == (19,)
    assert [part.dtype for part in ug.jit(draws)(ug.ones(3))] == [
        ug.float32, ug.float32, ug.int64, ug.float32, ug.complex64, ug.float64]


def test_samplers_and_in_place_fillers_draw_the_eager_stream():
    def sampled(x):
        with ug.no_grad():
            filled = [ug.zeros(3).uniform_(2.0, 3.0), ug.zeros(3).normal_(1.0, 0.5),
                      ug.zeros(3).exponential_(2.0), ug.zeros(3).geometric_(0.3),
                      ug.zeros(3).cauchy_(), ug.zeros(3).log_normal_(),
                      ug.zeros(3).bernoulli_(0.5), ug.zeros(3, dtype=ug.int64).random_(0, 9)]
        picked = [ug.normal(x, 1.0), ug.bernoulli(x * 0.5), ug.poisson(x * 4.0),
                  ug.randperm(3), ug.multinomial(x + 1.0, 2), ug.multinomial(x + 1.0, 3, True),
                  ug.randint_like(x, 5)]
        return ug.cat([part.to(ug.float32) for part in filled + picked])

    assert_same_stream(sampled, ug.ones(3))


def test_explicit_generators_are_drawn_from_at_run_time():
    closed_over = ug.Generator().manual_seed(7)
    function = ug.jit(lambda x, generator: x + ug.randn(2, generator=generator)
                      + ug.rand(2, generator=closed_over))
    argument = ug.Generator().manual_seed(3)
    default_state = values(ug.get_rng_state())
    first, second = (values(function(ug.zeros(2), argument)) for _ in range(2))
    reference_argument, reference_closed = ug.Generator().manual_seed(3), \
        ug.Generator().manual_seed(7)
    expected = [values(ug.randn(2, generator=reference_argument)
                       + ug.rand(2, generator=reference_closed)) for _ in range(2)]
    np.testing.assert_array_equal(first, expected[0])
    np.testing.assert_array_equal(second, expected[1])
    np.testing.assert_array_equal(values(ug.get_rng_state()), default_state)  # untouched
    np.testing.assert_array_equal(values(argument.get_state()),
                                  values(reference_argument.get_state()))


def test_a_seed_set_between_calls_is_seen_by_the_compiled_function():
    function = ug.jit(lambda x: x + ug.rand(4))
    ug.manual_seed(11)
    first = values(function(ug.zeros(4)))
    ug.manual_seed(11)
    np.testing.assert_array_equal(values(function(ug.zeros(4))), first)
    assert function.trace_count == 1


def test_seeding_and_restoring_the_state_inside_jit_happen_at_every_call():
    def seeded(x):
        ug.manual_seed(5)
        return x + ug.rand(3)

    def replayed(x):
        state = ug.get_rng_state()
        first = ug.randn(3)
        ug.set_rng_state(state)
        return ug.stack([x + first, x + ug.randn(3)])

    function = ug.jit(seeded)
    before = values(ug.get_rng_state())
    compiled = function.lower(ug.zeros(3))
    np.testing.assert_array_equal(values(ug.get_rng_state()), before)  # tracing changed nothing
    assert [eqn.prim.name for eqn in compiled.graph.eqns][:2] == ["random_seed", "random_draw"]
    ug.manual_seed(0)
    first, second = values(function(ug.zeros(3))), values(function(ug.zeros(3)))
    ug.manual_seed(5)
    np.testing.assert_array_equal(first, values(ug.rand(3)))
    np.testing.assert_array_equal(first, second)
    assert ug.initial_seed() == 5

    jitted = assert_same_stream(replayed, ug.zeros(3))
    np.testing.assert_array_equal(jitted[0][0], jitted[0][1])


def test_the_graph_keeps_every_draw():
    def function(x):
        unused = ug.rand(5)  # noqa: F841  (drawing advances the generator, as in eager mode)
        return x + ug.rand(3) - ug.rand(3)  # two draws: never merged into one

    compiled = ug.jit(function).lower(ug.zeros(3))
    draws = [eqn for eqn in compiled.graph.eqns if eqn.prim.name == "random_draw"]
    assert [eqn.params["shape"] for eqn in draws] == [(5,), (3,), (3,)]
    assert "random_draw(distribution='uniform'" in str(compiled.graph)
    assert "random_draw" in compiled.source
    jitted = assert_same_stream(function, ug.zeros(3))
    assert np.abs(jitted[0]).max() > 0  # x + a - b with a != b


def test_jit_of_grad_uses_the_forward_mask_in_the_backward():
    def loss(x):
        return (F.dropout(x, 0.5) ** 2).sum()

    x = ug.arange(1.0, 9.0)
    gradients = assert_same_stream(ug.grad(loss), x)
    kept = gradients[0] != 0
    np.testing.assert_allclose(gradients[0][kept], 8.0 * values(x)[kept])  # d(2x)^2/dx

    runs = []
    for function in (ug.value_and_grad(loss), ug.jit(ug.value_and_grad(loss))):
        ug.manual_seed(0)
        value, gradient = function(x)
        runs.append((value.item(), values(gradient), values(ug.get_rng_state())))
    (value, gradient, state), (expected_value, expected_gradient, expected_state) = runs
    assert value == expected_value
    assert value == pytest.approx((gradient ** 2).sum() / 16)  # kept: 4x^2, gradient 8x
    np.testing.assert_array_equal(gradient, expected_gradient)
    np.testing.assert_array_equal(state, expected_state)


def test_checkpoint_replays_the_forward_draws_under_jit():
    from unigrad.transforms.checkpoint import checkpoint

    def loss(x):
        return (checkpoint(lambda v: F.dropout(v, 0.5) * v, x) ** 2).sum()

    gradients = assert_same_stream(ug.grad(loss), ug.arange(1.0, 9.0))
    assert (gradients[0] != 0).any()


def test_grad_of_jit_uses_the_forward_mask():
    def loss(x):
        return (F.dropout(x, 0.5) ** 2).sum()

    x = ug.arange(1.0, 9.0)
    ug.manual_seed(1)
    expected = values(ug.grad(loss)(x))
    ug.manual_seed(1)
    np.testing.assert_array_equal(values(ug.grad(ug.jit(loss))(x)), expected)


def test_dropout_layer_in_training_mode_under_jit():
    layer = ug.nn.Dropout(0.5)
    jitted = assert_same_stream(layer, ug.ones(4, 5))
    assert set(np.unique(jitted[0])) <= {0.0, 2.0}
    layer.eval()
    assert values(ug.jit(layer)(ug.ones(2))).tolist() == [1.0, 1.0]
    for function in (lambda x: F.alpha_dropout(x, 0.3, training=True),
                     lambda x: F.dropout2d(x, 0.5), lambda x: F.rrelu(x, training=True)):
        assert_same_stream(function, -ug.ones(2, 3, 2, 2))


def test_vmap_randomness_flags_inside_jit():
    def add_noise(row):
        return row + ug.rand(3)

    batch = ug.zeros(4, 3)
    for randomness in ("same", "different"):
        jitted = assert_same_stream(ug.vmap(add_noise, randomness=randomness), batch)
        assert len({tuple(row) for row in jitted[0]}) == (1 if randomness == "same" else 4)
    with pytest.raises(BatchingError, match="randomness error mode"):
        ug.jit(ug.vmap(add_noise))(batch)


def test_tensorflow_and_mindspore_graphs_draw_at_every_call():
    import unigrad.compat.mindspore as ms
    import unigrad.compat.tensorflow as tf

    assert_same_stream(lambda x: tf.nn.dropout(x, 0.5) + tf.random.uniform((4,)),
                       tf.ones((4,)), compiler=tf.function)
    cell = ms.nn.Dropout(p=0.5)
    cell.set_train(True)
    assert_same_stream(lambda x: cell(x), ms.Tensor(np.ones(6, np.float32)), compiler=ms.jit)
    runs = []
    try:
        for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):  # a Cell compiled by GRAPH_MODE
            ms.set_context(mode=mode)
            ms.set_seed(0)
            runs.append([cell(ms.Tensor(np.ones(6, np.float32))).asnumpy() for _ in range(2)])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.array_equal(*runs[1])


def test_bad_arguments_are_refused_before_drawing():
    from unigrad.ops.random_draw import draw

    state = values(ug.get_rng_state())
    with pytest.raises(TypeError, match="generator must be a unigrad.Generator"):
        ug.jit(lambda x: x + ug.rand(2, generator="seed"))(ug.zeros(2))
    with pytest.raises(ValueError, match="unknown distribution 'gamma'"):
        draw("gamma", (), (2,), np.float32)
    np.testing.assert_array_equal(values(ug.get_rng_state()), state)
