"""Op-table specs for the random primitives (``unigrad/ops/random_draw.py``): ``random_draw``,
``random_seed``, ``random_state`` and ``random_set_state``.

Each op seeds (or saves and restores the generator's state) inside itself, so every
call draws the same numbers: the value is compared with NumPy's PCG64 from the same
seed, and the gradient and ``ug.jit`` checks see a deterministic function (under
``ug.jit`` the seeding and the state happen at every call of the compiled function).
vmap's default ``randomness="error"`` refuses random ops, as torch.func does
(``tests/transforms/test_vmap.py`` tests the three modes).
"""

from __future__ import annotations

import numpy as np

import unigrad as ug

from .spec import OpSpec, Sample, normal


def _uniform_from_seed(x):
    ug.manual_seed(3)
    return x * ug.rand(*x.shape, dtype=x.dtype)


def _uniform_reference(x):
    return x * np.random.Generator(np.random.PCG64(3)).random(x.shape)


def _normal_replayed(x):
    """Two draws from one saved state: the same numbers twice."""
    ug.manual_seed(4)
    state = ug.get_rng_state()
    first = ug.randn(*x.shape, dtype=x.dtype)
    ug.set_rng_state(state)
    return x * first + ug.randn(*x.shape, dtype=x.dtype)


def _normal_replayed_reference(x):
    noise = np.random.Generator(np.random.PCG64(4)).standard_normal(x.shape)
    return x * noise + noise


def _samples(rng: np.random.Generator) -> list:
    return [Sample((normal(rng, 3, 4),), label="matrix"), Sample((normal(rng),), label="scalar"),
            Sample((normal(rng, 0, 2),), label="empty")]


OPS = [
    OpSpec("random_draw_seeded", _uniform_from_seed, _uniform_reference, _samples,
           primitives=("random_draw", "random_seed"), vmap=False),
    OpSpec("random_state_replayed", _normal_replayed, _normal_replayed_reference, _samples,
           primitives=("random_state", "random_set_state"), vmap=False),
]
