"""Every op of every ``tests/ops/table_*.py`` against NumPy, central differences and its rules.

Per spec and sample (ids ``<spec.name>-<sample label or index>``): the value,
shape rule == impl for every primitive bound, the vjp by the inner-product
identity, the jvp (forward mode), second order, and float32. Coverage tests
fail when a registered primitive is exercised by no spec. Meta-tests show that
the vjp and second-order checks catch deliberately wrong rules.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from unigrad.ops._primitive import PRIMITIVES, Primitive
from unigrad.ops._shape_rules import elementwise_rule
from unigrad.tensor import Tensor

from . import harness
from .spec import OpSpec, Sample, normal

SPECS, IMPORT_ERRORS = harness.load_specs()
CASES, SAMPLE_ERRORS = harness.build_cases(SPECS)

PARAMS = [pytest.param(case.spec, case.sample, id=case.case_id) for case in CASES]
# the gradient checks run where the spec has gradients and the sample a floating array
GRADIENT_PARAMS = [pytest.param(case.spec, case.sample, id=case.case_id) for case in CASES
                   if case.spec.grad and case.sample.differentiable_indices()]


def test_tables_load():
    problems = {**IMPORT_ERRORS, **SAMPLE_ERRORS}
    assert not problems, "\n".join(f"{name}: {error}" for name, error in problems.items())


def test_spec_names_are_unique():
    names = [spec.name for spec in SPECS]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    assert not duplicates, f"spec names used more than once: {duplicates}"


@pytest.mark.parametrize("spec, sample", PARAMS)
def test_value(spec: OpSpec, sample: Sample):
    if spec.ref is None:
        pytest.skip("spec has no reference")
    harness.check_value(spec, sample)


@pytest.mark.parametrize("spec, sample", PARAMS)
def test_shape_rules(spec: OpSpec, sample: Sample):
    harness.check_shape_rules(spec, sample)


@pytest.mark.parametrize("spec, sample", GRADIENT_PARAMS)
def test_vjp(spec: OpSpec, sample: Sample, rng: np.random.Generator):
    harness.check_vjp(spec, sample, rng)


@pytest.mark.parametrize("spec, sample", GRADIENT_PARAMS)
def test_jvp(spec: OpSpec, sample: Sample, rng: np.random.Generator):
    if not spec.jvp:
        pytest.skip("spec has jvp=False")
    harness.check_jvp(spec, sample, rng)


@pytest.mark.parametrize("spec, sample", GRADIENT_PARAMS)
def test_second_order(spec: OpSpec, sample: Sample, rng: np.random.Generator):
    if not spec.second_order:
        pytest.skip("spec has second_order=False")
    harness.check_second_order(spec, sample, rng)


@pytest.mark.parametrize("spec, sample", PARAMS)
def test_float32(spec: OpSpec, sample: Sample):
    if not spec.float32:
        pytest.skip("spec has float32=False")
    harness.check_float32(spec, sample)


# ----------------------------------------------------------------------------- coverage

@functools.cache
def exercised_by_spec() -> dict[str, set[str]]:
    """Primitive names bound by each spec's samples (forward and backward)."""
    exercised: dict[str, set[str]] = {}
    for case in CASES:
        names = exercised.setdefault(case.spec.name, set())
        try:
            names |= harness.exercised_primitives(case.spec, case.sample)
        except Exception:  # the failure is reported by that case's own tests
            continue
    return exercised


def test_every_primitive_is_covered():
    exercised = set().union(*exercised_by_spec().values())
    declared = {name for spec in SPECS for name in spec.primitives}
    # test_*: primitives the test suite declares itself (tests/test_new_primitive.py)
    package = {name for name in PRIMITIVES if not name.startswith("test_")}
    missing = sorted(package - exercised - declared)
    assert not missing, f"primitives exercised by no op-table spec: {missing}"


def test_declared_primitives_are_registered_and_bound():
    exercised = exercised_by_spec()
    problems = []
    for spec in SPECS:
        for name in spec.primitives:
            if name not in PRIMITIVES:
                problems.append(f"{spec.name}: {name!r} is not a registered primitive")
            elif name not in exercised.get(spec.name, set()):
                problems.append(f"{spec.name}: declares {name!r} but its samples never bind it")
    assert not problems, "\n".join(problems)


# ----------------------------------------------------------------------------- meta-tests

def cube_vjp_scaled(factor: float):
    """The vjp of ``x ** 3`` multiplied by ``factor`` (1.0 is the correct rule)."""
    def vjp(g, out, needs, x):
        return (g * x * x * (3.0 * factor),)
    return vjp


def cube_vjp_detached(g, out, needs, x):
    """Correct first-order vjp of ``x ** 3`` that hides its dependence on ``x``."""
    if isinstance(x, Tensor):
        x = x.detach()
    return (g * x * x * 3.0,)


@pytest.fixture
def temporary_primitive():
    """Register test-only primitives; remove them from the registry afterwards."""
    names = []

    def register(name: str, vjp) -> OpSpec:
        prim = Primitive(name, lambda x: x * x * x, elementwise_rule(), kind="elementwise",
                         vjp=vjp)
        names.append(name)
        return OpSpec(name, prim, lambda x: x ** 3,
                      lambda rng: [Sample((normal(rng, 3, 4),))])

    yield register
    for name in names:
        PRIMITIVES.pop(name, None)


def only_sample(spec: OpSpec) -> Sample:
    return spec.samples(harness.spec_rng(spec))[0]


def test_meta_correct_rule_passes(temporary_primitive, rng):
    spec = temporary_primitive("_test_cube_correct", cube_vjp_scaled(1.0))
    harness.check_vjp(spec, only_sample(spec), rng)
    harness.check_second_order(spec, only_sample(spec), rng)
    harness.check_jvp(spec, only_sample(spec), rng)


def test_meta_wrong_vjp_is_caught(temporary_primitive, rng):
    spec = temporary_primitive("_test_cube_wrong_vjp", cube_vjp_scaled(2.001))
    with pytest.raises(AssertionError, match="central differences"):
        harness.check_vjp(spec, only_sample(spec), rng)


def test_meta_wrong_jvp_is_caught(temporary_primitive, rng):
    spec = temporary_primitive("_test_cube_wrong_jvp", cube_vjp_scaled(2.001))
    with pytest.raises(AssertionError, match="J u"):
        harness.check_jvp(spec, only_sample(spec), rng)


def test_meta_wrong_second_order_is_caught(temporary_primitive, rng):
    spec = temporary_primitive("_test_cube_wrong_second_order", cube_vjp_detached)
    harness.check_vjp(spec, only_sample(spec), rng)
    with pytest.raises(AssertionError, match="second order"):
        harness.check_second_order(spec, only_sample(spec), rng)


def test_meta_wrong_shape_rule_is_caught():
    name = "_test_wrong_shape_rule"
    prim = Primitive(name, lambda x: x.sum(axis=0), elementwise_rule(), kind="other")
    spec = OpSpec(name, prim, lambda x: x.sum(axis=0), lambda rng: [Sample((normal(rng, 3, 4),))],
                  grad=False)
    try:
        with pytest.raises(AssertionError, match="shape rule gives"):
            harness.check_shape_rules(spec, only_sample(spec))
    finally:
        PRIMITIVES.pop(name, None)


def test_meta_wrong_value_is_caught():
    spec = OpSpec("_test_wrong_value", lambda x: x * 2.0, lambda x: x * 2.001,
                  lambda rng: [Sample((normal(rng, 3, 4),))])
    with pytest.raises(AssertionError):
        harness.check_value(spec, only_sample(spec))


@pytest.mark.parametrize("spec, sample", PARAMS)
def test_vmap(spec: OpSpec, sample: Sample):
    if not spec.vmap:
        pytest.skip("vmap refuses this op (see its spec)")
    if not harness.vmap_layouts(sample):
        pytest.skip("no floating array argument to batch")
    harness.check_vmap(spec, sample)
