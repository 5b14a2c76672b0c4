"""Every op of the op table under ``ug.jit``: values and gradients equal eager mode.

For each spec and sample: ``jit(f)(*args) == f(*args)`` for every output, and
``jit(grad(loss))`` == ``grad(loss)`` == ``grad(jit(loss))`` where ``loss`` is
the cotangent-weighted sum of the op's floating outputs. The tables are the
ones in ``tests/ops``, so a new op cannot skip these checks either.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
from unigrad.graph.tracer import ConcretizationError
from unigrad.tensor import Tensor

from ..ops import harness
from ..ops.spec import OpSpec, Sample

SPECS, _ = harness.load_specs()
CASES, _ = harness.build_cases(SPECS)

# random ops (dropout, rrelu, the random primitives) seed inside themselves: under ug.jit the
# seeding and the draws happen at every call, so they are checked like every other op
PARAMS = [pytest.param(case.spec, case.sample, id=case.case_id) for case in CASES
          if case.spec.jit]
GRADIENT_PARAMS = [pytest.param(case.spec, case.sample, id=case.case_id) for case in CASES
                   if case.spec.grad and case.sample.differentiable_indices()
                   and case.spec.jit]
# ops whose result's shape depends on the values: ug.jit refuses them
REFUSED_PARAMS = [pytest.param(case.spec, case.sample, id=case.case_id) for case in CASES
                  if not case.spec.jit]


def _outputs(out) -> list[np.ndarray]:
    return [harness.to_numpy(o) for o in harness.flatten_outputs(out) if isinstance(o, Tensor)]


def _function(spec: OpSpec, sample: Sample, positions: list[int]):
    """The op as a function of the sample's floating arrays (integer index arrays are constants
    made inside: indices are parameters of the indexing primitives, so they cannot be traced)."""
    def function(*tensors):
        args = [ug.from_numpy(a.copy()) if isinstance(a, np.ndarray) else a for a in sample.args]
        for position, tensor in zip(positions, tensors):
            args[position] = tensor
        return spec.op(*args, **sample.kwargs)
    return function


def _array_positions(sample: Sample) -> list[int]:
    return [i for i, a in enumerate(sample.args)
            if isinstance(a, np.ndarray) and a.dtype.kind in "fc"]


@pytest.mark.parametrize("spec, sample", PARAMS)
def test_jit_value_equals_eager(spec: OpSpec, sample: Sample):
    positions = _array_positions(sample)
    function = _function(spec, sample, positions)
    tensors = [harness.make_tensor(sample.args[i]) for i in positions]
    expected = _outputs(function(*tensors))
    jitted = ug.jit(function)
    for _ in range(2):  # the first call traces, the second replays the generated code
        got = _outputs(jitted(*tensors))
        assert len(got) == len(expected)
        for index, (value, reference) in enumerate(zip(got, expected)):
            assert value.shape == reference.shape, f"output {index}"
            assert value.dtype == reference.dtype, f"output {index}"
            np.testing.assert_allclose(value, reference, rtol=1e-7, atol=1e-9,
                                       err_msg=f"output {index}")
    assert jitted.trace_count == 1


@pytest.mark.parametrize("spec, sample", REFUSED_PARAMS)
def test_jit_refuses_value_dependent_shapes(spec: OpSpec, sample: Sample):
    function = lambda *tensors: spec.op(*tensors, **sample.kwargs)  # noqa: E731
    tensors = [harness.make_tensor(a) if isinstance(a, np.ndarray) else a for a in sample.args]
    with pytest.raises(ConcretizationError, match="shape depends on the values"):
        ug.jit(function)(*tensors)


@pytest.mark.parametrize("spec, sample", GRADIENT_PARAMS)
def test_jit_grad_equals_eager(spec: OpSpec, sample: Sample):
    positions = _array_positions(sample)
    function = _function(spec, sample, positions)
    tensors = [harness.make_tensor(sample.args[i]) for i in positions]
    rng = np.random.default_rng(0)
    weights = [ug.from_numpy(rng.standard_normal(o.shape)) if o.dtype.kind in "fc" else None
               for o in _outputs(function(*tensors))]

    def loss(*inputs):
        outs = [o for o in harness.flatten_outputs(function(*inputs)) if isinstance(o, Tensor)]
        total = 0.0
        for out, weight in zip(outs, weights):
            if weight is not None:
                total = total + ug.real(out * weight).sum()  # a real loss of complex outputs
        return total

    grad_positions = tuple(positions.index(i) for i in sample.differentiable_indices())
    expected = ug.grad(loss, grad_position=grad_positions)(*tensors)
    expected = expected if isinstance(expected, tuple) else (expected,)
    for label, gradient_function in (
            ("jit(grad(f))", ug.jit(ug.grad(loss, grad_position=grad_positions))),
            ("grad(jit(f))", ug.grad(ug.jit(loss), grad_position=grad_positions))):
        got = gradient_function(*tensors)
        got = got if isinstance(got, tuple) else (got,)
        for index, (value, reference) in enumerate(zip(got, expected)):
            np.testing.assert_allclose(harness.to_numpy(value), harness.to_numpy(reference),
                                       rtol=1e-7, atol=1e-9,
                                       err_msg=f"{label}: gradient {index}")
