"""PyTorch's ModuleInfo database against ``unigrad.compat.torch.nn``.

For every ModuleInfo in ``torch.testing._internal.common_modules.module_db`` whose module
class ``unigrad.compat.torch.nn`` provides (decided at collection, so new layers join by
themselves), every CPU float64 sample is run through both libraries:

- both modules are built from the sample's constructor arguments and cast to float64;
  torch's ``state_dict`` is loaded into ours with ``strict=True`` (the keys must match);
- training mode, and eval mode too when the ModuleInfo says they differ;
- the forward outputs must agree, and so must the ``state_dict`` afterwards (running
  statistics); then one random cotangent on the floating outputs gives the gradients of the
  inputs and of every parameter (by name), which must agree as well.

Modules whose output is random in training mode (dropout, RReLU) are compared on shapes and
dtypes only there. One test id per (module, mode, sample index); known disagreements are strict
xfails in ``KNOWN_DIFFERENCES`` keyed by test-id prefix.
"""

from __future__ import annotations

import contextlib
import functools

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("expecttest")

import unigrad as ug  # noqa: E402
import unigrad.compat.torch as ours_torch  # noqa: E402
import unigrad.compat.torch.nn as ours_nn  # noqa: E402

from .opinfo_runner import Unsupported, _flatten, _translate  # noqa: E402

pytestmark = pytest.mark.torch

# test-id prefix -> why unigrad disagrees with torch there
KNOWN_DIFFERENCES: dict[str, str] = {}

# modules whose training-mode output is random: shapes and dtypes only
RANDOM_IN_TRAINING = frozenset({
    "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
    "RReLU", "FractionalMaxPool2d", "FractionalMaxPool3d",
})

# samples with more elements than this in any input are skipped (the suite must stay fast)
MAX_INPUT_ELEMENTS = 20_000

VALUE_TOLERANCE = dict(rtol=1e-7, atol=1e-9)
GRADIENT_TOLERANCE = dict(rtol=1e-6, atol=1e-8)


def _module_db() -> list:
    from torch.testing._internal.common_modules import module_db
    return list(module_db)


def _class_name(info) -> str:
    return info.module_cls.__name__


def _is_provided(info) -> bool:
    return hasattr(ours_nn, _class_name(info))


def _modes(info) -> tuple[bool, ...]:
    return (True, False) if info.train_and_eval_differ else (True,)


@functools.cache
def _samples(info, training: bool) -> list:
    """The ModuleInfo's CPU float64 samples (generated once: each test uses one of them).

    torch modules built for the samples remember their constructor arguments, so that one
    passed to another module's constructor (TransformerEncoder's ``encoder_layer``) can be
    rebuilt as unigrad's."""
    import torch
    with _recording_constructor_arguments():
        return list(info.module_inputs_func(info, device="cpu", dtype=torch.float64,
                                            requires_grad=True, training=training))


_CONSTRUCTOR_ARGUMENTS = "_unigrad_test_constructor_arguments"


@contextlib.contextmanager
def _recording_constructor_arguments():
    import torch
    originals = {}
    for name in ours_nn.__all__:
        cls = getattr(torch.nn, name, None)
        if isinstance(cls, type) and issubclass(cls, torch.nn.Module) and cls not in originals:
            originals[cls] = cls.__dict__.get("__init__")

    def recording(init):
        @functools.wraps(init)
        def record(self, *args, **kwargs):
            init(self, *args, **kwargs)
            object.__setattr__(self, _CONSTRUCTOR_ARGUMENTS, (args, kwargs))
        return record

    for cls, init in originals.items():
        if init is not None:
            cls.__init__ = recording(init)
    try:
        yield
    finally:
        for cls, init in originals.items():
            if init is not None:
                cls.__init__ = init


def _case_id(info, training: bool, index: int) -> str:
    return f"{info.name}-{'train' if training else 'eval'}-{index}"


def _known_reason(case_id: str) -> str | None:
    for prefix, reason in KNOWN_DIFFERENCES.items():
        if case_id == prefix or case_id.startswith(prefix + "-"):
            return reason
    return None


def _cases() -> list:
    cases = []
    for info in _module_db():
        if not _is_provided(info):
            continue
        for training in _modes(info):
            for index in range(len(_samples(info, training))):
                case_id = _case_id(info, training, index)
                reason = _known_reason(case_id)
                marks = pytest.mark.xfail(reason=reason, strict=True) if reason else ()
                cases.append(pytest.param(info, training, index, id=case_id, marks=marks))
    return cases


CASES = _cases()
PROVIDED = [info for info in _module_db() if _is_provided(info)]


# ----------------------------------------------------------------------------- building

def _to_ours(value, leaves: list, memo: dict):
    """A sample's argument as unigrad's. A torch tensor passed twice becomes one unigrad
    tensor (gradients flow through both uses); torch's functions (an ``activation=F.gelu``)
    become ``unigrad.compat.torch``'s of the same name; the rest as for OpInfo samples."""
    import torch
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_to_ours(v, leaves, memo) for v in value)
    if isinstance(value, dict):
        return {k: _to_ours(v, leaves, memo) for k, v in value.items()}
    if isinstance(value, torch.Tensor):
        if id(value) not in memo:
            memo[id(value)] = _translate(value, leaves)
        return memo[id(value)]
    if isinstance(value, torch.nn.Module):
        recorded = getattr(value, _CONSTRUCTOR_ARGUMENTS, None)
        if recorded is None or not hasattr(ours_nn, type(value).__name__):
            raise Unsupported(f"the torch module {type(value).__name__} as an argument")
        args, kwargs = _to_ours(recorded, [], {})
        return getattr(ours_nn, type(value).__name__)(*args, **kwargs).to(ug.float64)
    if callable(value) and not isinstance(value, type):
        name = getattr(value, "__name__", "")
        for namespace in (ours_nn.functional, ours_torch):
            if hasattr(namespace, name):
                return getattr(namespace, name)
        raise Unsupported(f"the function {name!r} as an argument")
    return _translate(value, leaves)


def _build_pair(info, sample, training: bool, inputs: tuple):
    """torch's module and ours from the sample's constructor arguments, ours holding
    torch's float64 state. Lazy modules first see the forward inputs (``inputs``: torch's
    args and kwargs, then ours) without recording, which materializes their parameters."""
    import torch
    constructor = sample.constructor_input
    torch_module = info.module_cls(*constructor.args, **constructor.kwargs).to(torch.float64)
    args = _to_ours(tuple(constructor.args), [], {})
    kwargs = _to_ours(dict(constructor.kwargs), [], {})
    our_module = getattr(ours_nn, _class_name(info))(*args, **kwargs).to(ug.float64)
    torch_module.train(training)
    our_module.train(training)
    if info.is_lazy:
        torch_args, torch_kwargs, our_args, our_kwargs = inputs
        with torch.no_grad():
            torch_module(*torch_args, **torch_kwargs)
        with ug.no_grad():
            our_module(*our_args, **our_kwargs)
        torch_module.to(torch.float64)
        our_module.to(ug.float64)
    state = {name: ug.tensor(value.detach().numpy().copy())
             for name, value in torch_module.state_dict().items()}
    our_module.load_state_dict(state, strict=True)
    return torch_module, our_module


def _too_large(sample) -> bool:
    import torch
    values = _flatten(list(sample.forward_input.args) + list(sample.forward_input.kwargs.values()))
    return any(isinstance(v, torch.Tensor) and v.numel() > MAX_INPUT_ELEMENTS for v in values)


# --------------------------------------------------------------------------- comparing

def _compare_values(got, want, what: str, values: bool) -> None:
    import torch
    got_leaves, want_leaves = _flatten(got), _flatten(want)
    assert len(got_leaves) == len(want_leaves), f"{what}: {len(got_leaves)} vs " \
                                                f"{len(want_leaves)} outputs"
    for position, (g, w) in enumerate(zip(got_leaves, want_leaves)):
        if not isinstance(w, torch.Tensor):
            assert g == w, f"{what}[{position}]: {g!r} != {w!r}"
            continue
        assert isinstance(g, ug.Tensor), f"{what}[{position}]: {type(g).__name__} not a Tensor"
        assert tuple(g.shape) == tuple(w.shape), f"{what}[{position}] shape"
        assert str(g.dtype).split(".")[-1] == str(w.dtype).split(".")[-1], f"{what} dtype"
        if values:
            np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(),
                                       err_msg=f"{what}[{position}]", equal_nan=True,
                                       **VALUE_TOLERANCE)


def _differentiable_outputs(got, want) -> list:
    import torch
    return [(g, w) for g, w in zip(_flatten(got), _flatten(want))
            if isinstance(w, torch.Tensor) and w.requires_grad and w.is_floating_point()]


def _compare_gradients(torch_module, our_module, leaves: list, got, want) -> None:
    import torch
    pairs = _differentiable_outputs(got, want)
    if not pairs:
        return
    rng = np.random.default_rng(0)
    cotangents = [rng.standard_normal(tuple(w.shape)) for _, w in pairs]
    torch_params = dict(torch_module.named_parameters())
    our_params = dict(our_module.named_parameters())
    assert sorted(torch_params) == sorted(our_params), "parameter names"
    names = [name for name, p in torch_params.items() if p.requires_grad]
    torch_inputs = [t for t, _ in leaves] + [torch_params[name] for name in names]
    our_inputs = [o for _, o in leaves] + [our_params[name] for name in names]
    want_grads = torch.autograd.grad([w for _, w in pairs], torch_inputs,
                                     [torch.from_numpy(c) for c in cotangents],
                                     allow_unused=True)
    got_grads = ug.autograd.grad([g for g, _ in pairs], our_inputs,
                                 [ug.tensor(c) for c in cotangents], allow_unused=True)
    labels = [f"input {i}" for i in range(len(leaves))] + names
    for label, g, w in zip(labels, got_grads, want_grads):
        if w is None:
            assert g is None or not np.any(g.numpy()), f"gradient of {label}: torch has none"
            continue
        assert g is not None, f"gradient of {label}: unigrad has none"
        np.testing.assert_allclose(g.numpy(), w.numpy(), err_msg=f"gradient of {label}",
                                   equal_nan=True, **GRADIENT_TOLERANCE)


def check_case(info, training: bool, index: int) -> None:
    """Run sample ``index`` of ``info`` in the given mode through both libraries."""
    import torch
    sample = _samples(info, training)[index]
    if _too_large(sample):
        pytest.skip("input too large for a fast test")
    torch.manual_seed(0)
    try:
        leaves: list = []
        memo: dict = {}
        args = _to_ours(tuple(sample.forward_input.args), leaves, memo)
        kwargs = _to_ours(dict(sample.forward_input.kwargs), leaves, memo)
        inputs = (sample.forward_input.args, sample.forward_input.kwargs, args, kwargs)
        torch_module, our_module = _build_pair(info, sample, training, inputs)
    except Unsupported as error:
        pytest.skip(f"untranslatable argument: {error}")
    want = torch_module(*sample.forward_input.args, **sample.forward_input.kwargs)
    got = our_module(*args, **kwargs)
    deterministic = not (training and _class_name(info) in RANDOM_IN_TRAINING)
    _compare_values(got, want, "output", values=deterministic)
    _compare_values(list(our_module.state_dict().values()),
                    list(torch_module.state_dict().values()), "state after forward", True)
    if deterministic:
        _compare_gradients(torch_module, our_module, leaves, got, want)


@pytest.mark.parametrize(("info", "training", "index"), CASES)
def test_module_sample_agrees_with_torch(info, training, index):
    check_case(info, training, index)


def test_known_differences_name_provided_cases():
    ids = {case.id for case in CASES}
    stale = [prefix for prefix in KNOWN_DIFFERENCES
             if not any(i == prefix or i.startswith(prefix + "-") for i in ids)]
    assert not stale, f"KNOWN_DIFFERENCES entries matching no test: {stale}"


def test_agreement_rate_on_provided_modules():
    """The fraction of provided ModuleInfo entries whose every sample agrees (for the README);
    at least 80% must."""
    differing = {case.values[0].name for case in CASES if case.marks}
    agreeing = [info.name for info in PROVIDED if info.name not in differing]
    print(f"\nModuleInfo entries provided: {len(PROVIDED)} of {len(_module_db())}; "
          f"agreeing on every sample: {len(agreeing)} ({len(agreeing) / len(PROVIDED):.0%})")
    assert PROVIDED and len(agreeing) >= 0.8 * len(PROVIDED), (len(agreeing), len(PROVIDED))


def test_report_modules_not_provided():
    """Informational: the ModuleInfo module classes unigrad.compat.torch.nn lacks."""
    missing = sorted({_class_name(info) for info in _module_db() if not _is_provided(info)})
    print(f"\nModuleInfo classes not provided ({len(missing)}): {', '.join(missing)}")
    assert len(missing) + len(PROVIDED) >= len({_class_name(i) for i in _module_db()})
