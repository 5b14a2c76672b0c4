"""Every optimizer against PyTorch's own optimizer database (``common_optimizers.optim_db``).

For each ``OptimizerInfo`` whose optimizer unigrad provides and each of its
CPU option sets (``optim_inputs_func``), the same float64 parameters and
gradients go through ``torch.optim`` and ``unigrad.optim``; the parameters
after every step, the per-parameter state and the group hyper-parameters must
agree. Mid-run a fresh unigrad optimizer resumes from PyTorch's state dict
and later from its own. The database's error inputs
(``optim_error_inputs_func``) must raise the same exception types and
messages. No option set is skipped; the known differences are strict xfails
listed in ``_DIFFERENCES``, the error inputs skipped are in ``_ERROR_SKIPS``,
each with its reason. SparseAdam (sparse gradients only) is checked for
PyTorch's refusal of dense gradients, LBFGS with closures.
"""

from __future__ import annotations

import inspect
import re
import warnings

import numpy as np
import pytest

import unigrad as ug
import unigrad.optim as optim
from unigrad.nn.parameter import Parameter

torch = pytest.importorskip("torch")
pytest.importorskip("expecttest")
common = pytest.importorskip("torch.testing._internal.common_optimizers")

pytestmark = pytest.mark.torch

SHAPES = [(2, 3), (3,), (), (2, 2, 3)]
MATRIX_SHAPES = [(2, 3), (4, 2), (3, 3), (1, 3)]  # Muon optimizes matrices only
STEPS = 5
RESUME_FROM_TORCH = 2  # before this step, a fresh optimizer loads PyTorch's state dict
RESUME_FROM_OWN = 3  # before this step, a fresh optimizer loads the previous one's state dict
RTOL, ATOL = 1e-10, 1e-13
LBFGS_ATOL = 1e-11

# optimizers whose update rule runs through the plain gradient loop below
_SPECIAL = {"LBFGS", "SparseAdam"}
_INFOS = {info.name: info for info in common.optim_db if info.name in optim.__all__}

# error inputs unigrad deliberately treats differently
_ERROR_SKIPS = {
    "Tensor lr must be 1-element": "a 1-D lr is MindSpore's per-step schedule in unigrad",
    "betas must be either both floats": "unigrad reads 0-d Tensor betas as numbers",
    "as a Tensor is not supported for capturable=False and foreach=True":
        "unigrad has no foreach kernels; Tensor hyper-parameters are read as numbers",
    "SparseAdam requires dense parameter tensors": "unigrad has no sparse tensors",
}


def _to_unigrad(value, params: dict | None = None):
    """PyTorch values as unigrad's: tensors (``params`` maps parameters by id), containers."""
    if isinstance(value, torch.Tensor):
        if params is not None and id(value) in params:
            return params[id(value)]
        converted = ug.tensor(value.detach().numpy().copy())
        if params is not None:
            converted = params.setdefault(id(value), Parameter(converted))
            if value.grad is not None:
                converted.grad = _to_unigrad(value.grad)
        return converted
    if isinstance(value, dict):
        return {k: _to_unigrad(v, params) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_to_unigrad(v, params) for v in value)
    return value


def _problem(seed: int, complex_values: bool = False, name: str = ""):
    """Initial values and per-step gradients for ``name``'s optimizer; parameter 1 has no
    gradient at step 3."""
    rng = np.random.default_rng(seed)
    shapes = MATRIX_SHAPES if name == "Muon" else SHAPES

    def draw(shape):
        if complex_values:
            return rng.normal(size=shape) + 1j * rng.normal(size=shape)
        return rng.normal(size=shape)

    init = [draw(s) for s in shapes]
    grads = [[draw(s) for s in shapes] for _ in range(STEPS)]
    grads[3][1] = None
    return init, grads


def _assert_same(mine, theirs, what: str, atol: float = ATOL) -> None:
    """A unigrad value equals a PyTorch one (tensors: same dtype, values within RTOL)."""
    if isinstance(theirs, torch.Tensor):
        assert isinstance(mine, ug.Tensor), what
        theirs = theirs.detach().numpy()
        assert mine.numpy().dtype == theirs.dtype, what
        np.testing.assert_allclose(mine.numpy(), theirs, rtol=RTOL, atol=atol, err_msg=what)
    elif isinstance(theirs, (list, tuple)):
        assert isinstance(mine, (list, tuple)) and len(mine) == len(theirs), what
        for index, (a, b) in enumerate(zip(mine, theirs)):
            _assert_same(a, b, f"{what}[{index}]", atol)
    elif isinstance(theirs, float):
        assert mine == pytest.approx(theirs, rel=RTOL, abs=atol), what
    else:
        assert type(mine) is type(theirs) and mine == theirs, what


def _assert_states_equal(mine, theirs, atol: float = ATOL, numbers: tuple = ()) -> None:
    """Same state entries and values per parameter, same group hyper-parameters; the
    entries named in ``numbers`` may be a number where PyTorch has a 0-d Tensor."""
    mine_sd, theirs_sd = mine.state_dict(), theirs.state_dict()
    assert sorted(mine_sd["state"]) == sorted(theirs_sd["state"])
    for index, entry in theirs_sd["state"].items():
        assert sorted(mine_sd["state"][index]) == sorted(entry), index
        for name, value in entry.items():
            if name in numbers and isinstance(value, torch.Tensor):
                value = value.item()
            _assert_same(mine_sd["state"][index][name], value, f"state[{index}][{name!r}]",
                         atol)
    for mine_group, group in zip(mine_sd["param_groups"], theirs_sd["param_groups"]):
        # PyTorch's implementation switches are accepted but not stored by unigrad
        assert set(group) - set(mine_group) <= {"foreach", "fused", "capturable",
                                                "differentiable"}
        for key, value in mine_group.items():
            expected = group[key]
            if isinstance(expected, torch.Tensor):
                expected = expected.item()
            assert value == expected, key


# option sets where unigrad knowingly differs from PyTorch (strict xfail: they must fail)
_DIFFERENCES = {
    ("Muon", "Tensor lr"): "unigrad reads a Tensor lr as a Python float; PyTorch's Muon "
                           "computes 1 - lr * weight_decay in the tensor's float32",
}


def _optim_inputs(names, exact: bool = True):
    """The database's option sets of ``names``; ``exact``: marks the known differences."""
    for name in names:
        for entry in _INFOS[name].optim_inputs_func(device="cpu"):
            reason = _DIFFERENCES.get((name, entry.desc)) if exact else None
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(name, entry.kwargs, id=f"{name}-{entry.desc}", marks=marks)


def _make_pair(name: str, kwargs: dict, init: list, extra: dict | None = None):
    tparams = [torch.nn.Parameter(torch.tensor(value)) for value in init]
    uparams = [Parameter(ug.tensor(value.copy()), name=f"p{i}") for i, value in enumerate(init)]
    theirs = getattr(torch.optim, name)(tparams, **kwargs)
    mine = getattr(optim, name)(uparams, **_to_unigrad(kwargs), **(extra or {}))
    return tparams, uparams, theirs, mine


def _resume(optimizer, kwargs: dict, state_dict: dict):
    """A new optimizer like ``optimizer`` (same class and parameters, built with ``kwargs``)
    that loads ``state_dict``; PyTorch's values are converted for unigrad's optimizers."""
    params = [p for group in optimizer.param_groups for p in group["params"]]
    if isinstance(optimizer, torch.optim.Optimizer):
        fresh = type(optimizer)(params, **kwargs)
    else:
        fresh = type(optimizer)(params, **_to_unigrad(kwargs))
        state_dict = _to_unigrad(state_dict)
    fresh.load_state_dict(state_dict)
    return fresh


def _run_both(name: str, kwargs: dict, complex_values: bool = False, extra=None) -> None:
    init, grads = _problem(seed=len(name) + 7 * len(kwargs), complex_values=complex_values,
                           name=name)
    tparams, uparams, theirs, mine = _make_pair(name, kwargs, init, extra)
    for step, step_grads in enumerate(grads):
        if step == RESUME_FROM_TORCH:  # both resume from PyTorch's state dict
            mine = _resume(mine, kwargs, theirs.state_dict())
            theirs = _resume(theirs, kwargs, theirs.state_dict())
        elif step == RESUME_FROM_OWN:  # each resumes from its own
            mine = _resume(mine, kwargs, mine.state_dict())
            theirs = _resume(theirs, kwargs, theirs.state_dict())
        for tparam, uparam, grad in zip(tparams, uparams, step_grads):
            tparam.grad = None if grad is None else torch.tensor(grad)
            uparam.grad = None if grad is None else ug.tensor(grad)
        theirs.step()
        mine.step()
        for index, (tparam, uparam) in enumerate(zip(tparams, uparams)):
            _assert_same(uparam.detach(), tparam.detach(), f"step {step}, parameter {index}")
    _assert_states_equal(mine, theirs)


@pytest.mark.parametrize("name, kwargs", list(_optim_inputs(sorted(set(_INFOS) - _SPECIAL))))
def test_updates_state_and_groups_match_torch(name, kwargs):
    _run_both(name, kwargs)


@pytest.mark.parametrize("name, kwargs", list(_optim_inputs(sorted(
    n for n in set(_INFOS) - _SPECIAL if _INFOS[n].supports_complex))))
def test_complex_parameters_match_torch(name, kwargs):
    _run_both(name, kwargs, complex_values=True)


@pytest.mark.parametrize("name, kwargs", list(_optim_inputs(sorted(set(_INFOS) - _SPECIAL),
                                                            exact=False)))
def test_float32_updates_match_torch(name, kwargs):
    """float32 parameters stay float32 and follow PyTorch to float32 rounding."""
    init, grads = _problem(seed=1, name=name)
    init = [value.astype(np.float32) for value in init]
    tparams, uparams, theirs, mine = _make_pair(name, kwargs, init)
    for step_grads in grads:
        for tparam, uparam, grad in zip(tparams, uparams, step_grads):
            tparam.grad = None if grad is None else torch.tensor(grad.astype(np.float32))
            uparam.grad = None if grad is None else ug.tensor(grad.astype(np.float32))
        theirs.step()
        mine.step()
    for tparam, uparam in zip(tparams, uparams):
        assert uparam.detach().numpy().dtype == np.float32
        np.testing.assert_allclose(uparam.detach().numpy(), tparam.detach().numpy(),
                                   rtol=2e-5, atol=2e-6)


def _accepts(name: str, keyword: str) -> bool:
    return keyword in inspect.signature(getattr(torch.optim, name)).parameters


@pytest.mark.parametrize("name", sorted(n for n in set(_INFOS) - _SPECIAL
                                        if _accepts(n, "foreach")))
def test_implementation_flags_change_nothing(name):
    """``foreach``/``fused`` (where PyTorch has them) give PyTorch's default results."""
    flags = {"foreach": True}
    if "fused" in _INFOS[name].supported_impls:
        flags["fused"] = True
    _run_both(name, {}, extra=flags)


# ----------------------------------------------------------------------------- LBFGS

_LBFGS_MATRIX = np.diag(np.linspace(1.0, 4.0, 9)) + 0.1


def _lbfgs_loss(flat: np.ndarray) -> tuple[float, np.ndarray]:
    """A smooth, well-conditioned convex test function and its gradient."""
    target = np.linspace(-1.0, 1.0, flat.size)
    shifted = flat - target
    loss = 0.5 * shifted @ _LBFGS_MATRIX @ shifted + 0.05 * np.sum(shifted ** 4)
    return float(loss), _LBFGS_MATRIX @ shifted + 0.2 * shifted ** 3


def _lbfgs_closure(lib, params: list):
    """Sets every ``.grad`` from :func:`_lbfgs_loss` (the same numbers in both libraries)."""

    def closure():
        flat = np.concatenate([p.detach().numpy().reshape(-1) for p in params])
        loss, grad = _lbfgs_loss(flat)
        offset = 0
        for p in params:
            size = int(np.prod(p.shape))
            p.grad = lib.tensor(grad[offset:offset + size].reshape(tuple(p.shape)))
            offset += size
        return lib.tensor(loss)

    return closure


@pytest.mark.parametrize("name, kwargs", list(_optim_inputs(["LBFGS"])))
def test_lbfgs_matches_torch(name, kwargs):
    init = [np.full((2, 3), 2.0), np.array([-1.5, 0.5, 3.0])]
    tparams = [torch.nn.Parameter(torch.tensor(value)) for value in init]
    uparams = [Parameter(ug.tensor(value.copy())) for value in init]
    theirs = torch.optim.LBFGS(tparams, **kwargs)
    mine = optim.LBFGS(uparams, **_to_unigrad(kwargs))
    for step in range(3):
        if step == 1:
            mine = _resume(mine, kwargs, theirs.state_dict())
            theirs = _resume(theirs, kwargs, theirs.state_dict())
        elif step == 2:
            mine = _resume(mine, kwargs, mine.state_dict())
            theirs = _resume(theirs, kwargs, theirs.state_dict())
        expected = theirs.step(_lbfgs_closure(torch, tparams))
        got = mine.step(_lbfgs_closure(ug, uparams))
        assert float(got) == pytest.approx(float(expected), rel=RTOL)
        for index, (tparam, uparam) in enumerate(zip(tparams, uparams)):
            _assert_same(uparam.detach(), tparam.detach(), f"step {step}, parameter {index}")
        # near convergence the curvature history holds tiny differences of nearly equal
        # numbers (dot products summed in another order), so they are compared absolutely
        # a Tensor lr is read as a number by unigrad, so the state's t (= lr) is one
        _assert_states_equal(mine, theirs, atol=LBFGS_ATOL, numbers=("t",))


def test_lbfgs_strong_wolfe_with_complex_parameters_matches_torch():
    init = np.array([1.0 + 2.0j, -0.5 + 0.25j, 2.0 - 1.0j])
    tparam = torch.nn.Parameter(torch.tensor(init))
    uparam = Parameter(ug.tensor(init.copy()))

    def closure_for(lib, param):
        def closure():
            values = param.detach().numpy().view(np.float64)
            loss, grad = _lbfgs_loss(np.concatenate([values, values[:3]]))
            param.grad = lib.tensor((grad[:6] + np.concatenate([grad[6:], np.zeros(3)]))
                                    .view(np.complex128))
            return lib.tensor(loss)
        return closure

    theirs = torch.optim.LBFGS([tparam], line_search_fn="strong_wolfe", max_iter=6)
    mine = optim.LBFGS([uparam], line_search_fn="strong_wolfe", max_iter=6)
    for _ in range(2):
        theirs.step(closure_for(torch, tparam))
        mine.step(closure_for(ug, uparam))
    _assert_same(uparam.detach(), tparam.detach(), "parameter")
    _assert_states_equal(mine, theirs, atol=LBFGS_ATOL)


# ------------------------------------------------------------------------ SparseAdam

@pytest.mark.parametrize("name, kwargs", list(_optim_inputs(["SparseAdam"])))
def test_sparse_adam_refuses_dense_gradients_like_torch(name, kwargs):
    init, grads = _problem(seed=3)
    tparams, uparams, theirs, mine = _make_pair(name, kwargs, init)
    theirs.step()  # no gradients: nothing happens in either library
    mine.step()
    for tparam, uparam, grad in zip(tparams, uparams, grads[0]):
        tparam.grad = torch.tensor(grad)
        uparam.grad = ug.tensor(grad)
    with pytest.raises(RuntimeError) as expected:
        theirs.step()
    with pytest.raises(RuntimeError) as got:
        mine.step()
    assert str(got.value) == str(expected.value)
    assert not mine.state
    for uparam, value in zip(uparams, init):
        np.testing.assert_array_equal(uparam.detach().numpy(), value)


# ---------------------------------------------------------------------------- errors

def _error_inputs():
    for name in sorted(_INFOS):
        info = _INFOS[name]
        for entry in info.optim_error_inputs_func(device="cpu", dtype=torch.float64):
            reason = next((why for text, why in _ERROR_SKIPS.items()
                           if text in entry.error_regex), None)
            marks = [pytest.mark.skip(reason=reason)] if reason else []
            yield pytest.param(name, entry, id=f"{name}-{entry.error_regex[:40]}", marks=marks)


@pytest.mark.parametrize("name, entry", list(_error_inputs()))
def test_error_inputs_raise_torch_errors(name, entry):
    given = entry.optimizer_error_input
    params = given.params
    if params is None:
        params = [Parameter(ug.ones(2, 2, dtype=ug.float64))]
    else:
        params = _to_unigrad(params, params={})
    kwargs = _to_unigrad(given.kwargs)
    cls = getattr(optim, name)
    with warnings.catch_warnings():
        warnings.simplefilter("error" if entry.error_type is UserWarning else "ignore")
        with pytest.raises(entry.error_type, match=entry.error_regex):
            if entry.error_on == common.OptimizerErrorEnum.CONSTRUCTION_ERROR:
                cls(params, **kwargs)
            else:
                cls(params, **kwargs).step()


@pytest.mark.parametrize("name, kwargs", [
    ("RMSprop", {"lr": -0.1}), ("RMSprop", {"eps": -1.0}), ("RMSprop", {"alpha": -0.5}),
    ("RMSprop", {"weight_decay": -1.0}), ("Adagrad", {"initial_accumulator_value": -1.0}),
    ("Adagrad", {"eps": -1.0}), ("Adadelta", {"rho": -0.1}), ("Adadelta", {"eps": -1e-6}),
    ("Adamax", {"betas": (0.9, 1.5)}), ("Adamax", {"eps": -1.0}),
    ("NAdam", {"weight_decay": -0.1}), ("RAdam", {"eps": -1.0}),
    ("RAdam", {"betas": (-0.1, 0.9)}), ("Rprop", {"etas": (0.5, 0.9)}),
    ("Rprop", {"etas": (0.0, 1.5)}), ("ASGD", {"lr": -1.0}),
    ("Adafactor", {"lr": -0.1}), ("Adafactor", {"eps": (None, -1.0)}),
    ("Adafactor", {"weight_decay": -0.5}), ("SparseAdam", {"eps": 0.0}),
    ("SparseAdam", {"lr": 0.0}), ("LBFGS", {"lr": -1.0}),
])
def test_hyper_parameter_errors_have_torch_messages(name, kwargs):
    with pytest.raises(ValueError) as expected:
        getattr(torch.optim, name)([torch.nn.Parameter(torch.ones(2))], **kwargs)
    with pytest.raises(ValueError, match=re.escape(str(expected.value))):
        getattr(optim, name)([Parameter(ug.ones(2))], **kwargs)


@pytest.mark.parametrize("name", sorted(n for n in _INFOS if _accepts(n, "differentiable")))
def test_differentiable_is_refused_clearly(name):
    with pytest.raises(NotImplementedError, match="differentiable=True is not supported"):
        getattr(optim, name)([Parameter(ug.ones(2))], differentiable=True)
