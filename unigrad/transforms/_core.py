"""Machinery every functional transform shares: nesting, lifting inputs, pullbacks.

A transform (``grad``, ``vjp``, ``jacrev``, a recording ``GradientTape``...)
differentiates with the tape engine. To keep transforms composable:

- :func:`lift` gives each differentiated input a fresh handle: a new leaf when
  the input is not on any tape, otherwise an identity view of it, so the
  gradient stops at the handle for this transform while an enclosing
  transform still sees through it to the original tensor.
- :func:`outer_is_recording` says whether the result of this transform must
  itself be differentiable: when an enclosing transform or forward-mode level
  is active. Backward then runs with ``create_graph``.
- :class:`transform_scope` enables grad mode and counts nesting depth while
  the user's function runs (so inner transforms see the outer one).
"""

from __future__ import annotations

from .. import _state
from ..autograd.engine import run_backward
from ..autograd.grad_mode import no_grad
from ..backend import namespace_of
from ..tensor import Tensor, _make_tensor, shared_counter

_local = _state.local


def zeros_of(like: Tensor, shape: tuple | None = None, requires_grad: bool = False) -> Tensor:
    """A tensor of zeros with ``like``'s dtype and device (and shape, unless ``shape``)."""
    data = like._data
    xp = namespace_of(data)
    zeros = xp.zeros_like(data) if shape is None else xp.zeros(shape, dtype=data.dtype)
    return _make_tensor(zeros, requires_grad)


def one_hot(like: Tensor, flat_index: int) -> Tensor:
    """Zeros shaped like ``like`` with a one at ``flat_index`` (of the flattened tensor)."""
    data = like._data
    basis = namespace_of(data).zeros(data.size, dtype=data.dtype)
    basis[flat_index] = 1
    return _make_tensor(basis.reshape(data.shape))


def outer_is_recording() -> bool:
    """True when an enclosing transform, tape or forward-mode level will differentiate
    what the current transform returns."""
    return _local.grad_enabled and (_local.transform_depth > 0 or bool(_local.forward_levels))


class transform_scope:
    """Run the user's function with grad mode on, one transform deeper."""

    __slots__ = ("previous_grad",)

    def __enter__(self):
        self.previous_grad = _local.grad_enabled
        _local.grad_enabled = True
        _local.transform_depth += 1
        return self

    def __exit__(self, *exc) -> bool:
        _local.transform_depth -= 1
        _local.grad_enabled = self.previous_grad
        return False


def lift(x: Tensor) -> Tensor:
    """A handle on ``x`` to differentiate with respect to (call inside a transform_scope).

    Integer and boolean tensors are lifted as float32 copies (MindSpore
    differentiates integer inputs); the caller casts their gradient back.
    """
    data = x._data
    if data.dtype.kind not in "fc":
        from ..backend import float32
        from ..ops.elementwise import cast
        with no_grad():
            x = cast(x, float32)
        data = x._data
    if not x._requires_grad and getattr(_local, "recorders", None):
        from ..autograd.recording import differentiable_form
        watched = differentiable_form(x)  # a constant a recording tape watches
        x = x if watched is None else watched
    if x._requires_grad:
        from ..ops.shape import identity_view
        return identity_view(x)
    handle = _make_tensor(data, True)
    handle._vc = shared_counter(x)
    if x._extra is not None and x._extra.get("tangents"):
        handle._extra_dict()["tangents"] = dict(x._extra["tangents"])
    return handle


def detached(value):
    """``value`` cut from the graph if it is a Tensor (other values pass through)."""
    if isinstance(value, Tensor):
        return value.detach()
    return value


def is_differentiable_output(value) -> bool:
    return isinstance(value, Tensor) and value._requires_grad and value._data.dtype.kind in "fc"


def pullback(outputs, cotangents, targets, *, create_graph: bool, retain_graph: bool,
             unconnected_as_none: bool = False, stop=None, within=None) -> list:
    """Gradients of ``sum(<output_i, cotangent_i>)`` with respect to each target.

    ``cotangents[i]`` is a Tensor shaped like ``outputs[i]`` or None (ones).
    Outputs that are not on the tape contribute nothing; a target the outputs
    do not depend on gets zeros in the target's dtype (None with
    ``unconnected_as_none``). Tensors in ``stop`` are treated as constants.
    """
    roots, seeds = [], []
    for out, cotangent in zip(outputs, cotangents):
        if not is_differentiable_output(out):
            continue
        data = out._data
        if cotangent is None:
            seed = namespace_of(data).ones_like(data)
            if create_graph:
                seed = _make_tensor(seed)
        else:
            seed = _conformed_cotangent(cotangent, data)
            if create_graph:
                if seed is cotangent._data:
                    seed = cotangent
                else:
                    seed = _make_tensor(seed)
            else:
                seed = seed.copy() if seed is cotangent._data else seed
        roots.append(out)
        seeds.append(seed)
    live = [t for t in targets if t._requires_grad]
    found = {}
    if roots and live:
        grads = run_backward(roots, seeds, retain_graph=retain_graph, create_graph=create_graph,
                             inputs=live, accumulate=False, stop=stop,
                             within=within)
        found = {id(t): g for t, g in zip(live, grads)}
    results = []
    for target in targets:
        grad = found.get(id(target))
        if grad is None and not unconnected_as_none:
            grad = zeros_of(target)
        results.append(grad)
    return results


def _conformed_cotangent(cotangent: Tensor, data):
    array = cotangent._data
    if array.shape != data.shape:
        raise ValueError(f"the sensitivity (cotangent) has shape {list(array.shape)} but the "
                         f"output it belongs to has shape {list(data.shape)}")
    if array.dtype != data.dtype:
        array = array.astype(data.dtype)
    return array
