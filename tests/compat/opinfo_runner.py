"""Run PyTorch's own OpInfo samples through ``unigrad.compat.torch`` and compare.

PyTorch ships an operator test database
(``torch.testing._internal.common_methods_invocations.op_db``): for about 700
ops, an :class:`OpInfo` with sample inputs. :func:`check_entry` runs every
CPU float64 sample of one entry (int64 or bool for integer-only ops) through
torch and through unigrad, and compares

- the outputs (shapes, dtypes and values; shapes and dtypes only for random ops
  and uninitialized memory), and
- the vjp: the gradients of every input that requires grad, under one random
  cotangent on the floating outputs (after the sample's
  ``output_process_fn_grad``, which makes decompositions sign-invariant).

Our side of the call is resolved from the entry:

- an ``op`` that is a Python function written in torch's test modules (a
  lambda such as ``lambda x, n: torch.polygamma(n, x)``) is run as written with
  its global ``torch`` bound to :mod:`unigrad.compat.torch`;
- otherwise the entry's dotted name (``linalg.det``, ``nn.functional.gelu``) is
  looked up in :mod:`unigrad.compat.torch`, and failing that taken as a Tensor
  method of the sample's input (``__radd__``, ``masked_fill``).

An entry is *provided* when that resolution finds something.

Example:
    >>> from tests.compat.opinfo_runner import entries, check_entry
    >>> outcome = check_entry(entries("sin")[0])
    >>> outcome.status, outcome.samples > 0
    ('pass', True)
"""

from __future__ import annotations

import collections.abc
import dataclasses
import functools
import types
from dataclasses import dataclass

import numpy as np

import unigrad as ug
import unigrad.compat.torch as ours

# ops whose values are random or uninitialized memory: shapes and dtypes only
RANDOM_OR_UNINITIALIZED = frozenset({
    "bernoulli", "cauchy", "exponential", "geometric", "log_normal", "multinomial", "normal",
    "uniform", "rand_like", "randn", "randn_like", "randint", "randint_like", "randperm",
    "empty", "empty_like", "empty_permuted", "empty_strided", "new_empty", "new_empty_strided",
    "nn.functional.dropout", "nn.functional.dropout2d", "nn.functional.dropout3d",
    "nn.functional.alpha_dropout", "nn.functional.feature_alpha_dropout",
    "nn.functional.rrelu", "nn.functional.fractional_max_pool2d",
    "nn.functional.fractional_max_pool3d", "svd_lowrank", "pca_lowrank",
})

# decompositions whose vectors are unique up to sign only (LAPACK builds choose differently):
# their values are compared as absolute values; the samples' output_process_fn_grad makes the
# gradients sign-invariant
SIGN_AMBIGUOUS = frozenset({"svd", "linalg.svd", "linalg.eigh"})

VALUE_TOLERANCE = dict(rtol=1e-7, atol=1e-8)
GRADIENT_TOLERANCE = dict(rtol=1e-6, atol=1e-7)


class Unsupported(Exception):
    """A sample uses something the comparison cannot translate (a ``torch.Generator``,
    a memory format, a sparse layout); the sample is skipped, not failed."""


@dataclass
class Outcome:
    """What :func:`check_entry` found: ``status`` is ``"pass"``, ``"fail"`` or
    ``"skip"`` (no sample could be translated); ``samples`` how many were compared."""

    name: str
    status: str
    samples: int = 0
    reason: str = ""


@functools.cache
def _torch():
    import torch
    return torch


@functools.cache
def database() -> tuple:
    """Every OpInfo of the installed PyTorch."""
    from torch.testing._internal.common_methods_invocations import op_db
    return tuple(op_db)


def entry_id(entry) -> str:
    """``name`` or ``name.variant``: unique across the database."""
    return f"{entry.name}.{entry.variant_test_name}" if entry.variant_test_name else entry.name


def entries(name: str | None = None) -> list:
    """The OpInfo entries (of one op name, if given)."""
    return [e for e in database() if name is None or e.name == name]


def _lookup(namespace, dotted: str):
    value = namespace
    for part in dotted.split("."):
        value = getattr(value, part, None)
        if value is None:
            return None
    return value


def _is_test_lambda(function) -> bool:
    return (isinstance(function, types.FunctionType)
            and function.__module__.startswith("torch.testing"))


def _rebound(function):
    """``function`` with its global ``torch`` (and closed-over functions) bound to ours."""
    closure = function.__closure__
    if closure:
        cells = []
        for cell in closure:
            content = cell.cell_contents
            if callable(content) and hasattr(content, "__name__") and \
                    getattr(content, "__module__", "") and \
                    str(getattr(content, "__module__", "")).startswith("torch") \
                    and not _is_test_lambda(content):
                translated = _lookup(ours, content.__name__)
                if translated is None:
                    raise Unsupported(f"closes over torch's {content.__name__}")
                content = translated
            elif _is_test_lambda(content):
                content = _rebound(content)
            cells.append(types.CellType(content))
        closure = tuple(cells)
    namespace = dict(function.__globals__)
    namespace["torch"] = ours
    return types.FunctionType(function.__code__, namespace, function.__name__,
                              function.__defaults__, closure)


def our_callable(entry):
    """The unigrad callable for ``entry`` (see the module docstring), or None."""
    if _is_test_lambda(entry.op):
        return _rebound(entry.op)
    function = _lookup(ours, entry.name)
    if function is not None and callable(function):
        return function
    method_name = entry.name
    if hasattr(ug.Tensor, method_name):
        return lambda input, *args, **kwargs: getattr(input, method_name)(*args, **kwargs)
    return None


def is_provided(entry) -> bool:
    """Whether ``unigrad.compat.torch`` has the entry's op: its dotted name, or (for an
    undotted name) a Tensor method of that name."""
    return _lookup(ours, entry.name) is not None or (
        "." not in entry.name and hasattr(ug.Tensor, entry.name))


# ----------------------------------------------------------------------------- translation

def _translate(value, leaves: list):
    """A torch argument as unigrad's; tensors that require grad are appended to ``leaves``."""
    torch = _torch()
    if isinstance(value, torch.Tensor):
        for seen, translated in leaves:
            if seen is value:  # the same tensor passed twice: one leaf, as in torch
                return translated
        if value.layout != torch.strided:
            raise Unsupported(f"layout {value.layout}")
        if value._is_zerotensor():
            array = np.zeros(tuple(value.shape), dtype=str(value.dtype).removeprefix("torch."))
        else:
            array = value.detach().resolve_conj().resolve_neg().numpy().copy()
        result = ug.tensor(array, requires_grad=value.requires_grad)
        if value.requires_grad:
            leaves.append((value, result))
        return result
    if isinstance(value, torch.dtype):
        translated = getattr(ours, str(value).removeprefix("torch."), None)
        if translated is None:
            raise Unsupported(f"dtype {value}")
        return translated
    if isinstance(value, torch.Size):
        return tuple(value)
    if type(value).__name__ == "LinearCrossEntropyOptions":  # a frozen dataclass of strings
        return ug.nn.LinearCrossEntropyOptions(**dataclasses.asdict(value))
    if isinstance(value, torch.device):
        return str(value)
    if isinstance(value, (torch.Generator, torch.memory_format, torch.layout)):
        raise Unsupported(type(value).__name__)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*(_translate(v, leaves) for v in value))
    if isinstance(value, (list, tuple)):
        return type(value)(_translate(v, leaves) for v in value)
    if isinstance(value, dict):
        return {k: _translate(v, leaves) for k, v in value.items()}
    if callable(value) and not isinstance(value, type):
        raise Unsupported("a callable argument")
    return value


def _flatten(value) -> list:
    torch = _torch()
    if isinstance(value, (torch.Tensor, ug.Tensor)):
        return [value]
    if isinstance(value, collections.abc.Sequence) and not isinstance(value, str):
        return [leaf for item in value for leaf in _flatten(item)]
    return [value]


def _as_numpy(value) -> np.ndarray:
    if isinstance(value, ug.Tensor):
        return np.asarray(value.detach().numpy())
    return value.detach().resolve_conj().resolve_neg().numpy()


def _dtype_name(value) -> str:
    return str(value.dtype).split(".")[-1]


# ----------------------------------------------------------------------------- comparison

def _determined_part(entry, position: int, values: np.ndarray, rank: int) -> np.ndarray:
    """An SVD's vectors without the null-space completion of ``full_matrices`` (any
    orthonormal basis will do there): the first ``rank`` columns of U (and of torch.svd's V),
    the first ``rank`` rows of linalg.svd's Vh."""
    if position == 0 or (position == 2 and entry.name == "svd"):
        return values[..., :, :rank]
    if position == 2:
        return values[..., :rank, :]
    return values


def _is_random(entry, sample) -> bool:
    """Whether this sample's values are random: a random op, or dropout asked of an
    attention op (``dropout_p > 0``; multi_head_attention_forward takes it as its 11th
    argument and applies it in training only)."""
    if entry.name in RANDOM_OR_UNINITIALIZED or sample.kwargs.get("dropout_p", 0) > 0:
        return True
    if entry.name == "nn.functional.multi_head_attention_forward":
        return sample.args[9] > 0 and sample.kwargs.get("training", True)
    return False


def _compare_outputs(entry, got, want, random: bool = False) -> None:
    got_leaves, want_leaves = _flatten(got), _flatten(want)
    if len(got_leaves) != len(want_leaves):
        raise AssertionError(f"{len(got_leaves)} outputs, torch gives {len(want_leaves)}")
    torch = _torch()
    for position, (g, w) in enumerate(zip(got_leaves, want_leaves)):
        if not isinstance(w, torch.Tensor):
            if isinstance(g, ug.Tensor):
                g = g.item() if g.ndim == 0 else g.tolist()
            if isinstance(w, float) and isinstance(g, (int, float)):
                np.testing.assert_allclose(g, w, **VALUE_TOLERANCE)
            elif g != w:
                raise AssertionError(f"output {position}: {g!r}, torch gives {w!r}")
            continue
        if not isinstance(g, ug.Tensor):
            raise AssertionError(f"output {position} is {type(g).__name__}, torch gives a tensor")
        if tuple(g.shape) != tuple(w.shape):
            raise AssertionError(f"output {position}: shape {tuple(g.shape)}, "
                                 f"torch gives {tuple(w.shape)}")
        if _dtype_name(g) != _dtype_name(w):
            raise AssertionError(f"output {position}: dtype {_dtype_name(g)}, "
                                 f"torch gives {_dtype_name(w)}")
        if random:
            continue
        got_values, want_values = _as_numpy(g), _as_numpy(w)
        if entry.name in SIGN_AMBIGUOUS:
            got_values, want_values = np.abs(got_values), np.abs(want_values)
            if entry.name in ("svd", "linalg.svd") and len(want_leaves) == 3:
                rank = tuple(want_leaves[1].shape)[-1]
                got_values = _determined_part(entry, position, got_values, rank)
                want_values = _determined_part(entry, position, want_values, rank)
        np.testing.assert_allclose(got_values, want_values, equal_nan=True,
                                   err_msg=f"output {position}", **VALUE_TOLERANCE)


def _floating_pairs(got, want) -> list:
    torch = _torch()
    return [(g, w) for g, w in zip(_flatten(got), _flatten(want))
            if isinstance(w, torch.Tensor) and w.requires_grad
            and (w.dtype.is_floating_point or w.dtype.is_complex)
            and w.grad_fn is not None and isinstance(g, ug.Tensor)]


def _weights(rng: np.random.Generator, output) -> np.ndarray:
    """Random weights for one output (complex for complex outputs)."""
    shape = tuple(output.shape)
    weights = rng.standard_normal(shape)
    if output.dtype.is_complex:
        weights = weights + 1j * rng.standard_normal(shape)
    return weights


def _compare_gradients(leaves: list, got, want, rng: np.random.Generator) -> None:
    torch = _torch()
    pairs = _floating_pairs(got, want)
    if not pairs or not leaves:
        return
    ours_total, theirs_total = None, None
    for g, w in pairs:
        # a real loss Re(sum(conj(c) * out)): its gradient is the vjp of the cotangent c
        weights = _weights(rng, w)
        ours_term = ug.real(g * ug.conj(ug.tensor(weights))).sum()
        theirs_term = torch.real(w * torch.tensor(weights).conj()).sum()
        ours_total = ours_term if ours_total is None else ours_total + ours_term
        theirs_total = theirs_term if theirs_total is None else theirs_total + theirs_term
    theirs_leaves = [t for t, _ in leaves]
    our_leaves = [u for _, u in leaves]
    want_grads = torch.autograd.grad(theirs_total, theirs_leaves, allow_unused=True)
    got_grads = ug.autograd.grad(ours_total, our_leaves, allow_unused=True)
    for position, (g, w) in enumerate(zip(got_grads, want_grads)):
        expected = (np.zeros(tuple(theirs_leaves[position].shape))
                    if w is None or w._is_zerotensor() else w.resolve_conj().numpy())
        actual = np.zeros(expected.shape) if g is None else _as_numpy(g)
        np.testing.assert_allclose(actual, expected, equal_nan=True,
                                   err_msg=f"gradient of input {position}", **GRADIENT_TOLERANCE)


def _call_ours(function, sample, leaves: list):
    input = _translate(sample.input, leaves)
    args = _translate(tuple(sample.args), leaves)
    kwargs = _translate(dict(sample.kwargs), leaves)
    return function(input, *args, **kwargs)


def _process(sample, output):
    process = sample.output_process_fn_grad
    if _is_test_lambda(process) and process.__code__.co_names:
        process = _rebound(process) if isinstance(output, ug.Tensor) or (
            isinstance(output, (tuple, list)) and any(isinstance(o, ug.Tensor) for o in output)
        ) else process
    return process(output)


def check_entry(entry, *, limit: int | None = None, complex_samples: bool = False) -> Outcome:
    """Compare unigrad with torch on every CPU float64 sample of ``entry`` (int64 or bool
    samples for ops without floating-point ones; complex128 ones with ``complex_samples``)."""
    torch = _torch()
    name = entry_id(entry)
    function = our_callable(entry)
    if function is None:
        return Outcome(name, "skip", reason="not provided")
    dtypes = entry.supported_dtypes("cpu")
    candidates = (torch.complex128,) if complex_samples else (torch.float64, torch.int64,
                                                              torch.bool)
    dtype = next((d for d in candidates if d in dtypes), None)
    if dtype is None:
        return Outcome(name, "skip", reason=f"torch has no {' or '.join(map(str, candidates))} "
                                            f"samples")
    requires_grad = bool(entry.supports_autograd) and (dtype.is_floating_point or
                                                       dtype.is_complex)
    torch.manual_seed(0)
    samples = entry.sample_inputs("cpu", dtype, requires_grad=requires_grad)
    compared, skipped = 0, []
    rng = np.random.default_rng(0)
    for index, sample in enumerate(samples):
        if limit is not None and compared >= limit:
            break
        leaves: list = []
        try:
            got = _call_ours(function, sample, leaves)
        except Unsupported as reason:
            skipped.append(str(reason))
            continue
        except Exception as error:  # noqa: BLE001 - torch accepted this sample; we must too
            return Outcome(name, "fail", compared,
                           f"sample {index}: {type(error).__name__}: {error}"[:300])
        torch.manual_seed(0)
        want = entry.op(sample.input, *sample.args, **sample.kwargs)
        try:
            random = _is_random(entry, sample)
            _compare_outputs(entry, got, want, random)
            if requires_grad and not random:
                _compare_gradients(leaves, _process(sample, got), _process(sample, want), rng)
        except Unsupported as reason:
            skipped.append(str(reason))
            continue
        except Exception as error:  # noqa: BLE001
            return Outcome(name, "fail", compared,
                           f"sample {index}: {type(error).__name__}: {error}"[:300])
        compared += 1
    if not compared:
        reasons = "; ".join(sorted(set(skipped)))
        return Outcome(name, "skip", 0, f"no translatable sample: {reasons}")
    return Outcome(name, "pass", compared)
