"""Every op of the op table at edge values under ``ug.jit`` gives what eager gives.

Edge values: 0, -0.0, ±inf, nan, ±huge (1e308; 3e38 in float32) and ±tiny (the
smallest subnormal). Two checks:

- per spec, its first floating sample with every float element replaced by a
  cycling pattern of edge values: ``jit(f)`` equals ``f`` (the same graph
  ``test_jit_op_table.py`` compiles, so no extra kernels), and raises the same
  exception type where eager raises;
- every fusable primitive the op table binds, with the parameters it binds it
  with, on every combination of edge values of its float operands, in one fused
  kernel per float dtype: each primitive's ``scalar`` expression against its
  ``impl``.

"Equal" means the same nan positions, the same sign bit elsewhere (so -0.0 is not
0.0) and finite values within 4 units in the last place (numba's libm and NumPy's
may round transcendental functions differently by an ulp).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import unigrad as ug
from unigrad.graph.fusion import FusedKernel, numba_available
from unigrad.ops._primitive import bind
from unigrad.tensor import Tensor

from ..ops import harness
from .test_jit_op_table import _array_positions, _function, _outputs

# ops warn about their arguments (kl_div's reduction...): not what is tested here
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

SPECS, _ = harness.load_specs()
CASES, _ = harness.build_cases(SPECS)
MAXIMUM_ULPS = 4


def edge_values(dtype) -> np.ndarray:
    """0, -0.0, inf, -inf, nan, ±huge and ±tiny as ``dtype``."""
    dtype = np.dtype(dtype)
    huge = 1e308 if dtype == np.float64 else 3e38
    tiny = np.nextafter(dtype.type(0), dtype.type(1))
    return np.array([0.0, -0.0, np.inf, -np.inf, np.nan, huge, -huge, tiny, -tiny], dtype)


def assert_same_values(actual: np.ndarray, expected: np.ndarray, what: str) -> None:
    """Equal shapes and dtypes; floats: nan and sign bits alike, finite values within
    :data:`MAXIMUM_ULPS`; other dtypes exactly equal."""
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    if expected.dtype.kind == "c":
        assert_same_values(actual.real, expected.real, f"{what} (real part)")
        assert_same_values(actual.imag, expected.imag, f"{what} (imaginary part)")
        return
    if expected.dtype.kind != "f":
        np.testing.assert_array_equal(actual, expected, err_msg=what)
        return
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(actual), nan, err_msg=f"{what}: nan positions")
    np.testing.assert_array_equal(np.signbit(actual[~nan]), np.signbit(expected[~nan]),
                                  err_msg=f"{what}: signs (of zeros too)")
    np.testing.assert_array_max_ulp(actual[~nan], expected[~nan], maxulp=MAXIMUM_ULPS)


# ----------------------------------------------------------------------------- every op

def _first_float_samples() -> list:
    """Each jittable spec's first sample with a real floating array argument."""
    chosen: dict = {}
    for case in CASES:
        if case.spec.name in chosen or not case.spec.jit:
            continue
        if any(isinstance(a, np.ndarray) and a.dtype.kind == "f" for a in case.sample.args):
            chosen[case.spec.name] = case
    return list(chosen.values())


def _edge_arguments(sample) -> list[np.ndarray]:
    """The sample's traced arrays, real floating ones filled with edge values: argument
    ``k`` shifts the cycle by ``k`` more each period, so arguments meet in varied pairs."""
    values = edge_values(np.float64)
    arrays = []
    for k, position in enumerate(_array_positions(sample)):
        array = sample.args[position]
        if array.dtype.kind != "f":
            arrays.append(array)
            continue
        index = np.arange(array.size)
        edges = np.copy(array, order="K")  # the layout make_tensor gives: the same kernels
        edges[...] = values[(index + k * (index // len(values) + 1)) % len(values)].reshape(
            array.shape)
        arrays.append(edges)
    return arrays


_VALUE_CHECK = ("eager checks the input's values and raises; the traced graph checks nothing "
                "at run time")
KNOWN_DIFFERENCES = {
    "binary_cross_entropy": _VALUE_CHECK + " (input in [0, 1])",
    "gaussian_nll_loss": _VALUE_CHECK + " (var >= 0)",
}
EDGE_PARAMS = [
    pytest.param(case.spec, case.sample, id=case.spec.name,
                 marks=[pytest.mark.xfail(reason=KNOWN_DIFFERENCES[case.spec.name],
                                          strict=True)]
                 if case.spec.name in KNOWN_DIFFERENCES else [])
    for case in _first_float_samples()]


def _run(function, tensors) -> tuple[list | None, Exception | None]:
    try:
        return _outputs(function(*tensors)), None
    except Exception as error:  # compared with the other mode's
        return None, error


@pytest.mark.parametrize("spec, sample", EDGE_PARAMS)
def test_op_at_edge_values_jit_equals_eager(spec, sample):
    function = _function(spec, sample, _array_positions(sample))
    tensors = [harness.make_tensor(array) for array in _edge_arguments(sample)]
    with np.errstate(all="ignore"):
        expected, eager_error = _run(function, tensors)
        actual, jit_error = _run(ug.jit(function), tensors)
    if eager_error is not None or jit_error is not None:
        assert type(jit_error) is type(eager_error), (
            f"eager raised {eager_error!r}, jit raised {jit_error!r}")
        return
    assert len(actual) == len(expected)
    for index, (value, reference) in enumerate(zip(actual, expected)):
        assert_same_values(value, reference, f"output {index}")


# ----------------------------------------------------------------------------- every kernel

@functools.cache
def _fusable_binds() -> list:
    """``(prim, args, params)`` for each distinct fusable bind of the op table's first
    samples: one per primitive, parameters and operand kinds."""
    binds: dict = {}
    with np.errstate(all="ignore"), harness.recording_binds() as records:
        for case in _first_float_samples():
            try:
                harness.call(case.spec, case.sample, harness.make_args(case.sample))
            except Exception:  # noqa: S112 - a sample that raises binds nothing to record
                continue
    for prim, args, params, out in records:
        out = _concrete(out)
        if prim.scalar is None or out is None or out.dtype.kind not in "fb":
            continue
        arrays = [_concrete(a) for a in args]
        if any(array is None for a, array in zip(args, arrays) if _is_array(a)):
            continue  # bound while tracing (a control-flow op's body): no values
        kinds = tuple(type(a).__name__ if array is None else array.dtype.kind
                      for a, array in zip(args, arrays))
        if any(len(kind) == 1 and kind not in "fbiu" for kind in kinds):
            continue
        binds.setdefault((prim.name, repr(sorted(params.items(), key=str)), kinds),
                         (prim, args, params))
    return list(binds.values())


def _is_array(value) -> bool:
    return isinstance(value, (Tensor, np.ndarray)) or hasattr(value, "shape")


def _concrete(value) -> np.ndarray | None:
    """The NumPy array of a Tensor or array with values (None: a traced value, or no array)."""
    data = value._data if isinstance(value, Tensor) else value
    return data if isinstance(data, np.ndarray) else None


def _combination_planes(dtype) -> list[np.ndarray]:
    """Three arrays that together hold every triple of edge values."""
    values = edge_values(dtype)
    count = len(values)
    index = np.arange(count ** 3)
    return [values[index // count ** 2], values[index // count % count], values[index % count]]


def _operands(args: tuple, planes: list, size: int) -> list:
    """The bind's operands: float arrays become the edge planes, in order; other arrays
    (masks, integers) are repeated to ``size``; Python numbers stay."""
    operands = []
    floats = 0
    for value in args:
        array = _concrete(value)
        if array is None:
            operands.append(value)
            continue
        if array.dtype.kind == "f":
            operands.append(planes[floats])
            floats += 1
        else:
            operands.append(np.resize(array.ravel(), size))
    return operands


@pytest.mark.skipif(not numba_available(), reason="fused kernels need numba")
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
def test_every_fused_primitive_at_every_edge_value_combination(dtype):
    planes = _combination_planes(dtype)
    binds = _fusable_binds()
    calls = [(prim, _operands(args, planes, planes[0].size), params)
             for prim, args, params in binds]
    # every array operand is an argument of the jitted program, so nothing is folded
    arrays = [operand for _, operands, _ in calls for operand in operands
              if isinstance(operand, np.ndarray)]
    slots = {id(array): index for index, array in enumerate(arrays)}

    def program(*tensors):
        return [bind(prim, *(tensors[slots[id(o)]] if isinstance(o, np.ndarray) else o
                             for o in operands), **params)
                for prim, operands, params in calls]

    tensors = [ug.from_numpy(array) for array in arrays]
    jitted = ug.jit(program)
    with np.errstate(all="ignore"):
        expected = [harness.to_numpy(out) for out in program(*tensors)]
        actual = [harness.to_numpy(out) for out in jitted(*tensors)]
    fused = [eqn.prim for eqn in jitted.graph.eqns if isinstance(eqn.prim, FusedKernel)]
    assert len(fused) == 1  # one kernel holds every primitive (a no-op cast may go)
    assert {eqn.prim.name for eqn in fused[0].body.eqns} == {prim.name for prim, _, _ in calls}
    failures = []
    for (prim, _, params), value, reference in zip(calls, actual, expected):
        try:
            assert_same_values(value, reference, f"{prim.name}({params})")
        except AssertionError as error:  # every primitive that differs is reported
            failures.append(str(error))
    assert not failures, "\n".join(failures)
