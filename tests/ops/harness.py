"""Numerical machinery of the op table: loading specs, running samples, and the checks.

Each ``check_*`` function raises ``AssertionError`` when the op disagrees with
its reference, its shape rules, or central differences; the tests in
``test_op_table.py`` call them for every spec and sample, and the meta-tests
call them on deliberately broken primitives to show that they can fail.
"""

from __future__ import annotations

import contextlib
import importlib
import pathlib
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

import unigrad as ug
from unigrad.abstract import ShapedArray
from unigrad.autograd import forward_ad
from unigrad.interpreters import eager
from unigrad.tensor import Tensor

from .spec import OpSpec, Sample

TABLE_DIRECTORY = pathlib.Path(__file__).parent


# ----------------------------------------------------------------------------- loading

@dataclass
class Case:
    """One spec with one of its samples, and the test id ``<spec.name>-<label or index>``."""

    spec: OpSpec
    sample: Sample
    case_id: str


def load_specs() -> tuple[list[OpSpec], dict[str, str]]:
    """Every ``OPS`` list of ``tests/ops/table_*.py``, and the import errors by module name."""
    specs: list[OpSpec] = []
    errors: dict[str, str] = {}
    for path in sorted(TABLE_DIRECTORY.glob("table_*.py")):
        module_name = f"{__package__}.{path.stem}"
        try:
            module = importlib.import_module(module_name)
        except Exception as error:  # reported by a test instead of breaking collection
            errors[module_name] = f"{type(error).__name__}: {error}"
            continue
        specs.extend(getattr(module, "OPS", []))
    return specs, errors


def spec_rng(spec: OpSpec) -> np.random.Generator:
    """A generator seeded by the spec's name, so samples are the same on every run."""
    return np.random.default_rng(zlib.crc32(spec.name.encode()))


def build_cases(specs: list[OpSpec]) -> tuple[list[Case], dict[str, str]]:
    """All (spec, sample) cases, and the errors raised by ``samples`` by spec name."""
    cases = []
    errors = {}
    for spec in specs:
        try:
            samples = spec.samples(spec_rng(spec))
        except Exception as error:  # reported by a test instead of breaking collection
            errors[spec.name] = f"{type(error).__name__}: {error}"
            continue
        for index, sample in enumerate(samples):
            # 0-d arithmetic gives NumPy scalars: they stand for 0-d arrays, not Python numbers
            sample.args = tuple(np.asarray(a) if isinstance(a, np.generic) else a
                                for a in sample.args)
            cases.append(Case(spec, sample, f"{spec.name}-{sample.label or index}"))
    return cases, errors


# ----------------------------------------------------------------------------- running

def make_tensor(array: np.ndarray, dtype=None, requires_grad: bool = False) -> Tensor:
    """A Tensor over a copy of ``array`` that keeps its memory layout (non-contiguity)."""
    data = np.copy(array, order="K")
    if dtype is not None and data.dtype.kind == "f":
        data = data.astype(dtype, order="K")
    elif dtype is not None and data.dtype.kind == "c":  # float32 runs: complex64
        data = data.astype(np.result_type(dtype, np.complex64), order="K")
    tensor = ug.from_numpy(data)
    if requires_grad:
        tensor.requires_grad_()
    return tensor


def make_args(sample: Sample, dtype=None, requires_grad: tuple = (),
              replace: dict | None = None) -> list:
    """The sample's arguments with arrays turned into Tensors.

    ``replace`` maps argument indices to arrays used instead of the sample's.
    """
    replace = replace or {}
    args = []
    for index, value in enumerate(sample.args):
        value = replace.get(index, value)
        if isinstance(value, np.ndarray):
            value = make_tensor(value, dtype, index in requires_grad)
        args.append(value)
    return args


def call(spec: OpSpec, sample: Sample, args: list):
    return spec.op(*args, **sample.kwargs)


def flatten_outputs(out) -> list:
    """An op's result as a flat list (a Tensor, or nested tuples/lists of them)."""
    if isinstance(out, (tuple, list)):
        return [leaf for item in out for leaf in flatten_outputs(item)]
    return [out]


def to_numpy(value) -> np.ndarray:
    if isinstance(value, Tensor):
        return np.asarray(value._data)
    return np.asarray(value)


def float_outputs(out) -> list:
    """The floating-point and complex Tensor outputs (the ones a gradient can flow through)."""
    return [o for o in flatten_outputs(out)
            if isinstance(o, Tensor) and o._data.dtype.kind in "fc"]


def evaluate(spec: OpSpec, sample: Sample, replace: dict) -> list[np.ndarray]:
    """The op's floating outputs as float64 arrays, with some arguments replaced (no tape)."""
    with ug.no_grad():
        out = call(spec, sample, make_args(sample, replace=replace))
    return [to_numpy(o) for o in float_outputs(out)]


def inner(first: list, second: list) -> float:
    """The real inner product ``sum(Re(conj(a) * b))`` of two lists of arrays (``None``
    counts as zero): for complex values it is the one PyTorch's convention makes the
    vjp the adjoint for (a cotangent is ``dL/dx + i dL/dy``)."""
    total = 0.0
    for a, b in zip(first, second):
        if a is None or b is None:
            continue
        total += float(np.sum(np.real(np.conj(to_numpy(a)) * to_numpy(b))))
    return total


def central_difference(function: Callable[[float], object], eps: float):
    """``(f(eps) - f(-eps)) / (2 eps)`` for a float or a list of arrays."""
    plus, minus = function(eps), function(-eps)
    if isinstance(plus, list):
        return [(p - m) / (2.0 * eps) for p, m in zip(plus, minus)]
    return (plus - minus) / (2.0 * eps)


def shifted(sample: Sample, directions: dict, t: float) -> dict:
    """The differentiable arguments moved by ``t`` along ``directions``."""
    return {i: np.asarray(sample.args[i] + t * direction) for i, direction in directions.items()}


def random_like(rng: np.random.Generator, values) -> list[np.ndarray]:
    """Normal arrays shaped like ``values`` (complex ones for complex values)."""
    arrays = []
    for value in values:
        shape = tuple(value.shape)
        array = rng.standard_normal(size=shape)
        if np.dtype(to_numpy(value).dtype if isinstance(value, Tensor) else value.dtype).kind \
                == "c":
            array = array + 1j * rng.standard_normal(size=shape)
        arrays.append(np.asarray(array))
    return arrays


def assert_scalars_close(analytic: float, numeric: float, atol: float, rtol: float,
                         what: str) -> None:
    difference = abs(analytic - numeric)
    assert difference <= atol + rtol * abs(numeric), (
        f"{what}: autodiff gives {analytic!r}, central differences give {numeric!r} "
        f"(difference {difference:.3g})")


# ----------------------------------------------------------------------------- recording binds

@contextlib.contextmanager
def recording_binds() -> Iterator[list]:
    """Collect ``(prim, args, params, out)`` for every primitive bound inside the block."""
    records: list = []

    def observe(prim, args, params, out):
        records.append((prim, args, params, out))

    eager.observers.append(observe)
    try:
        yield records
    finally:
        eager.observers.remove(observe)


def abstract(value):
    """A ShapedArray for an array or Tensor argument; anything else as is."""
    if isinstance(value, Tensor):
        return ShapedArray(value._data.shape, value._data.dtype)
    if isinstance(value, np.ndarray):
        return ShapedArray(value.shape, value.dtype)
    return value


def shape_rule_mismatch(prim, args, params, out) -> str | None:
    """A description of how ``prim.shape`` disagrees with what ``prim.impl`` returned."""
    try:
        rule_shape, rule_dtype = prim.shape(*(abstract(a) for a in args), **params)
    except Exception as error:
        return f"{prim.name}: shape rule raised {type(error).__name__}: {error}"
    expected = (tuple(out.shape), np.dtype(out.dtype))
    got = (tuple(int(d) for d in rule_shape), np.dtype(rule_dtype))
    if got != expected:
        operands = ", ".join(repr(abstract(a)) for a in args)
        return (f"{prim.name}({operands}, {params}): shape rule gives {got}, "
                f"impl gives {expected}")
    return None


# ----------------------------------------------------------------------------- checks

def check_value(spec: OpSpec, sample: Sample) -> None:
    """``op(*tensors)`` equals ``ref(*arrays)`` (shapes, dtype kinds and values)."""
    out = flatten_outputs(call(spec, sample, make_args(sample)))
    expected = flatten_outputs(spec.ref(*sample.args, **sample.kwargs))
    assert len(out) == len(expected), f"{len(out)} outputs, reference has {len(expected)}"
    for index, (got, want) in enumerate(zip(out, expected)):
        assert isinstance(got, Tensor), f"output {index} is a {type(got).__name__}, not a Tensor"
        got, want = to_numpy(got), np.asarray(want)
        assert got.shape == want.shape, f"output {index}: shape {got.shape}, expected {want.shape}"
        assert got.dtype.kind == want.dtype.kind, (
            f"output {index}: dtype {got.dtype}, expected a {want.dtype} kind")
        if want.dtype.kind in "biu":
            np.testing.assert_array_equal(got, want, err_msg=f"output {index}")
        else:
            np.testing.assert_allclose(got, want, rtol=spec.rtol, atol=spec.atol,
                                       err_msg=f"output {index}")


def check_shape_rules(spec: OpSpec, sample: Sample) -> None:
    """Every primitive bound by the op (forward and backward) has a shape rule == impl."""
    records = record_forward_backward(spec, sample)
    mismatches = [m for m in (shape_rule_mismatch(*r) for r in records) if m is not None]
    assert not mismatches, "\n".join(mismatches)


def check_vjp(spec: OpSpec, sample: Sample, rng: np.random.Generator) -> None:
    """The inner-product identity ``<v, J u> == <J^T v, u>`` against central differences."""
    indices = sample.differentiable_indices()
    args = make_args(sample, requires_grad=indices)
    outputs = float_outputs(call(spec, sample, args))
    cotangents = random_like(rng, outputs)
    directions = dict(zip(indices, random_like(rng, (sample.args[i] for i in indices))))
    grads = vjp(outputs, [args[i] for i in indices], cotangents)
    for index, grad in zip(indices, grads):
        if grad is not None:
            assert tuple(grad.shape) == sample.args[index].shape, (
                f"gradient of argument {index} has shape {tuple(grad.shape)}, "
                f"expected {sample.args[index].shape}")
            assert grad.dtype == sample.args[index].dtype, (
                f"gradient of argument {index} is {grad.dtype}")
    analytic = inner(grads, list(directions.values()))
    numeric = central_difference(
        lambda t: inner(cotangents, evaluate(spec, sample, shifted(sample, directions, t))),
        spec.eps)
    assert_scalars_close(analytic, numeric, spec.grad_atol, spec.grad_rtol, "<J^T v, u>")


def vjp(outputs: list, inputs: list, cotangents: list, create_graph: bool = False) -> list:
    """``J^T v`` for the outputs that require grad (``None`` for inputs they do not reach)."""
    pairs = [(o, v) for o, v in zip(outputs, cotangents) if o.requires_grad]
    if not pairs:
        return [None] * len(inputs)
    seeds = [v if isinstance(v, Tensor) else ug.from_numpy(v) for _, v in pairs]
    return list(ug.autograd.grad([o for o, _ in pairs], inputs, grad_outputs=seeds,
                                 create_graph=create_graph, allow_unused=True))


def check_jvp(spec: OpSpec, sample: Sample, rng: np.random.Generator) -> None:
    """Forward-mode ``J u`` (dual tensors) against central differences, output by output."""
    indices = sample.differentiable_indices()
    directions = dict(zip(indices, random_like(rng, (sample.args[i] for i in indices))))
    with forward_ad.dual_level():
        args = make_args(sample)
        for index, direction in directions.items():
            args[index] = forward_ad.make_dual(args[index], make_tensor(direction))
        outputs = float_outputs(call(spec, sample, args))
        tangents = [forward_ad.unpack_dual(o).tangent for o in outputs]
    numeric = central_difference(
        lambda t: evaluate(spec, sample, shifted(sample, directions, t)), spec.eps)
    assert len(tangents) == len(numeric)
    for index, (tangent, expected) in enumerate(zip(tangents, numeric)):
        got = np.zeros_like(expected) if tangent is None else to_numpy(tangent)
        assert got.shape == expected.shape, (
            f"tangent of output {index} has shape {got.shape}, expected {expected.shape}")
        np.testing.assert_allclose(got, expected, rtol=spec.grad_rtol, atol=spec.grad_atol,
                                   err_msg=f"J u of output {index}")


def check_second_order(spec: OpSpec, sample: Sample, rng: np.random.Generator) -> None:
    """Check the vjp map itself: ``h(x, v) = <J(x)^T v, w>`` differentiated by the tape.

    ``grad(h)`` taken with ``create_graph=True`` through the first-order rules is
    compared, along a random direction of both ``x`` and ``v``, with central
    differences of the first-order vjp.
    """
    indices = sample.differentiable_indices()
    outputs = float_outputs(call(spec, sample, make_args(sample)))
    cotangents = random_like(rng, outputs)
    cotangent_directions = random_like(rng, outputs)
    directions = dict(zip(indices, random_like(rng, (sample.args[i] for i in indices))))
    weights = random_like(rng, (sample.args[i] for i in indices))

    def first_order(replace: dict, cotangent_values: list, create_graph: bool):
        args = make_args(sample, requires_grad=indices, replace=replace)
        inputs = [args[i] for i in indices]
        outputs = float_outputs(call(spec, sample, args))
        return inputs, vjp(outputs, inputs, cotangent_values, create_graph)

    cotangent_leaves = [make_tensor(v, requires_grad=True) for v in cotangents]
    inputs, grads = first_order({}, cotangent_leaves, create_graph=True)
    terms = [ug.real(ug.conj(make_tensor(w)) * g).sum() for g, w in zip(grads, weights)
             if g is not None and g.requires_grad]
    analytic = 0.0
    if terms:
        h = terms[0]
        for term in terms[1:]:
            h = h + term
        leaves = inputs + cotangent_leaves
        second = ug.autograd.grad(h, leaves, allow_unused=True)
        analytic = inner(second, list(directions.values()) + cotangent_directions)

    def h_value(t: float) -> float:
        moved = [np.asarray(v + t * d) for v, d in zip(cotangents, cotangent_directions)]
        _, grads = first_order(shifted(sample, directions, t), moved, create_graph=False)
        return inner(grads, weights)

    numeric = central_difference(h_value, spec.eps)
    assert_scalars_close(analytic, numeric, spec.grad_atol, spec.grad_rtol,
                         "second order <d<J^T v, w>, (u, r)>")


def check_float32(spec: OpSpec, sample: Sample) -> None:
    """float32 inputs give float32 outputs (where float64 gives float64), close in value."""
    wide = flatten_outputs(call(spec, sample, make_args(sample)))
    narrow = flatten_outputs(call(spec, sample, make_args(sample, dtype=np.float32)))
    assert len(wide) == len(narrow)
    for index, (w, n) in enumerate(zip(wide, narrow)):
        w, n = to_numpy(w), to_numpy(n)
        expected_dtype = {np.dtype(np.float64): np.dtype(np.float32),
                          np.dtype(np.complex128): np.dtype(np.complex64)}.get(w.dtype, w.dtype)
        assert n.dtype == expected_dtype, (
            f"output {index}: float32 inputs give {n.dtype}, expected {expected_dtype}")
        if w.dtype.kind in "fc":
            scale = max(1.0, float(np.max(np.abs(w), initial=0.0)))
            np.testing.assert_allclose(n, w, rtol=spec.float32_tol,
                                       atol=spec.float32_tol * scale, err_msg=f"output {index}")
        else:
            np.testing.assert_array_equal(n, w, err_msg=f"output {index}")


def record_forward_backward(spec: OpSpec, sample: Sample) -> list:
    """The binds of one call and of its backward pass (with ones as cotangents)."""
    args = make_args(sample, requires_grad=sample.differentiable_indices() if spec.grad else ())
    with recording_binds() as records:
        outputs = [o for o in float_outputs(call(spec, sample, args)) if o.requires_grad]
        if outputs:
            ug.autograd.backward(outputs, [ug.ones_like(o) for o in outputs])  # complex: 1+0j
    return records


def exercised_primitives(spec: OpSpec, sample: Sample) -> set[str]:
    """Names of the primitives bound by one forward call and its backward pass."""
    return {prim.name for prim, *_ in record_forward_backward(spec, sample)}


# ----------------------------------------------------------------------------- vmap

BATCH = 3


def vmap_layouts(sample: Sample) -> list[tuple]:
    """``in_axes`` layouts to check: every floating array batched along axis 0, then each
    floating array alone batched along its last axis (the others shared)."""
    floating = [i for i, a in enumerate(sample.args)
                if isinstance(a, np.ndarray) and a.dtype.kind in "fc"]
    if not floating:
        return []
    layouts = [tuple(0 if i in floating else None for i in range(len(sample.args)))]
    for index in floating:
        layouts.append(tuple(-1 if i == index else None for i in range(len(sample.args))))
    return layouts


def batched_arrays(sample: Sample, layout: tuple) -> dict:
    """For each batched argument, ``BATCH`` examples stacked along its axis (the sample
    scaled by 1, 0.95, 0.9: signs and bounds such as [0, 1], so each op's domain, are kept)."""
    batched = {}
    for index, axis in enumerate(layout):
        if axis is None:
            continue
        examples = [sample.args[index] * (1.0 - 0.05 * k) for k in range(BATCH)]
        batched[index] = np.stack(examples, axis=axis if axis >= 0 else examples[0].ndim)
    return batched


def check_vmap(spec: OpSpec, sample: Sample) -> None:
    """``ug.vmap(op)`` equals a Python loop over the batch, for each layout of ``in_axes``."""
    for layout in vmap_layouts(sample):
        batched = batched_arrays(sample, layout)
        axes = tuple(None if axis is None else (axis if axis >= 0 else batched[i].ndim - 1)
                     for i, axis in enumerate(layout))
        args = [make_tensor(batched[i]) if i in batched else a
                for i, a in enumerate(make_args(sample))]
        with ug.no_grad():
            out = ug.vmap(lambda *xs: call(spec, sample, list(xs)),
                          in_axes=tuple(None if a is None else a for a in axes))(*args)
            expected = []
            for k in range(BATCH):
                example = {i: np.asarray(np.take(array, k, axis=axes[i]))
                           for i, array in batched.items()}
                expected.append(flatten_outputs(call(spec, sample,
                                                     make_args(sample, replace=example))))
        got = flatten_outputs(out)
        assert len(got) == len(expected[0]), f"vmap gives {len(got)} outputs, the loop " \
                                             f"{len(expected[0])} (in_axes={axes})"
        for position, value in enumerate(got):
            want = np.stack([to_numpy(outputs[position]) for outputs in expected])
            have = to_numpy(value)
            assert have.shape == want.shape, (
                f"vmap output {position} has shape {have.shape}, the loop {want.shape} "
                f"(in_axes={axes})")
            np.testing.assert_allclose(have, want, rtol=1e-10, atol=1e-12, equal_nan=True,
                                       err_msg=f"vmap output {position}, in_axes={axes}")
