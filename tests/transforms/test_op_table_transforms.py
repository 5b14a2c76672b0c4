"""``ug.jvp`` and ``ug.vjp`` on every op of the op table.

For the first differentiable sample of each spec: forward mode through the
transform agrees with central differences, and the two modes agree with each
other by the inner-product identity ``<v, J u> == <J^T v, u>``.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from tests.ops import harness

SPECS, _ = harness.load_specs()
CASES, _ = harness.build_cases(SPECS)


def first_cases() -> list:
    chosen, seen = [], set()
    for case in CASES:
        spec, sample = case.spec, case.sample
        if (spec.name in seen or not spec.grad or not spec.jvp
                or not sample.differentiable_indices()):
            continue
        seen.add(spec.name)
        chosen.append(pytest.param(spec, sample, id=case.case_id))
    return chosen


def as_function(spec, sample):
    """``f(*differentiable_args) -> tuple of float outputs`` for the sample."""
    indices = sample.differentiable_indices()

    def f(*chosen):
        args = harness.make_args(sample)
        for index, value in zip(indices, chosen):
            args[index] = value
        return tuple(harness.float_outputs(harness.call(spec, sample, args)))

    primals = tuple(harness.make_tensor(sample.args[i]) for i in indices)
    return f, primals


@pytest.mark.parametrize("spec, sample", first_cases())
def test_jvp_and_vjp_agree_with_each_other_and_finite_differences(spec, sample, rng):
    f, primals = as_function(spec, sample)
    tangents = tuple(harness.make_tensor(rng.standard_normal(p.shape)) for p in primals)
    out, tangent_out = ug.jvp(f, primals, tangents)
    for o in out:
        assert not o.requires_grad
    indices = sample.differentiable_indices()
    directions = {i: t.numpy() for i, t in zip(indices, tangents)}
    numeric = harness.central_difference(
        lambda t: harness.evaluate(spec, sample, harness.shifted(sample, directions, t)),
        spec.eps)
    for got, expected in zip(tangent_out, numeric):
        np.testing.assert_allclose(got.numpy(), expected, rtol=spec.grad_rtol,
                                   atol=spec.grad_atol)

    out_again, pull = ug.vjp(f, *primals)
    cotangents = tuple(harness.make_tensor(rng.standard_normal(o.shape)) for o in out_again)
    pulled = pull(cotangents)
    assert len(pulled) == len(primals)
    left = harness.inner(list(cotangents), list(tangent_out))
    right = harness.inner(list(pulled), list(tangents))
    assert abs(left - right) <= 1e-8 + 1e-6 * abs(left), (left, right)
