"""Forward-mode AD with dual tensors (PyTorch's ``torch.autograd.forward_ad``).

Inside ``dual_level()``, ``make_dual(primal, tangent)`` attaches a tangent to a
tensor; every primitive applied to dual tensors computes its output tangent
with the primitive's ``jvp`` rule (the same declaration the tape uses), and
``unpack_dual`` reads it back.

Example:
    >>> import unigrad as ug
    >>> import unigrad.autograd.forward_ad as fwAD
    >>> x = ug.tensor([0.0, 1.0])
    >>> with fwAD.dual_level():
    ...     y = ug.sin(fwAD.make_dual(x, ug.ones(2)))
    ...     primal, tangent = fwAD.unpack_dual(y)
    >>> tangent
    tensor([1.0000, 0.5403])
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

from .. import _state
from ..interpreters import pop, push
from ..interpreters.forward import ForwardInterpreter
from ..tensor import Tensor, _make_tensor, shared_counter

_local = _state.local


class UnpackedDualTensor(NamedTuple):
    primal: Tensor
    tangent: Tensor | None


_level_ids = itertools.count()


class dual_level:
    """Context manager opening a forward-AD level; tangents die with it.

    ``__enter__`` returns the nesting depth (0 for the outermost level), the
    number ``make_dual(..., level=)`` accepts. Internally each level gets a
    fresh id, so tangents left on tensors by a closed level never leak into a
    later one.
    """

    def __enter__(self) -> int:
        levels = _active_levels()
        self.level = next(_level_ids)
        levels.append(self.level)
        self._interpreter = ForwardInterpreter()
        push(self._interpreter)
        return len(levels) - 1

    def __exit__(self, *exc) -> bool:
        levels = _active_levels()
        if levels and levels[-1] == self.level:
            levels.pop()
        pop(self._interpreter)
        return False


def _active_levels() -> list:
    levels = getattr(_local, "forward_levels", None)
    if levels is None:
        levels = []
        _local.forward_levels = levels
    return levels


def _current_level(level):
    levels = _active_levels()
    if not levels:
        raise RuntimeError("make_dual/unpack_dual must be used inside a `with dual_level():` block")
    if level is None:
        return levels[-1]
    if not 0 <= level < len(levels):
        raise RuntimeError(f"level {level} is not an active forward-AD level (active: "
                           f"0..{len(levels) - 1})")
    return levels[level]


def _tangents_of(tensor) -> dict:
    """A copy of ``tensor``'s tangents at every level (empty when it has none)."""
    if not isinstance(tensor, Tensor) or tensor._extra is None:
        return {}
    return dict(tensor._extra.get("tangents") or {})


def _alias(tensor: Tensor) -> Tensor:
    """A new tensor with ``tensor``'s data, version counter and place in the graph.

    A leaf that requires grad gets an identity view, so gradients still reach
    the leaf itself; a non-leaf shares its ``grad_fn``.
    """
    if tensor._requires_grad and tensor._grad_fn is None and _local.grad_enabled:
        from ..ops.shape import identity_view
        levels = _local.forward_levels
        _local.forward_levels = []  # tangents are set by the caller
        try:
            return identity_view(tensor)
        finally:
            _local.forward_levels = levels
    alias = _make_tensor(tensor._data, tensor._requires_grad)
    alias._grad_fn = tensor._grad_fn
    alias._vc = shared_counter(tensor)
    return alias


def attach_tangent(tensor: Tensor, tangent: Tensor, level) -> Tensor:
    """A new tensor aliasing ``tensor`` (same history, version counter and other levels'
    tangents) that carries ``tangent`` at the internal level id ``level``."""
    dual = _alias(tensor)
    if tangent._data.dtype != tensor._data.dtype:
        from ..ops.elementwise import cast
        tangent = cast(tangent, tensor._data.dtype)
    tangents = _tangents_of(tensor)
    tangents[level] = tangent
    dual._extra_dict()["tangents"] = tangents
    return dual


def strip_tangent(tensor: Tensor, level) -> Tensor:
    """A new tensor aliasing ``tensor`` without its tangent at level id ``level``."""
    primal = _alias(tensor)
    tangents = _tangents_of(tensor)
    tangents.pop(level, None)
    if tangents:
        primal._extra_dict()["tangents"] = tangents
    return primal


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A tensor with the same data as ``tensor`` carrying ``tangent`` at ``level``."""
    if not isinstance(tensor, Tensor) or not isinstance(tangent, Tensor):
        raise TypeError("make_dual expects Tensors for both primal and tangent")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(f"Trying to set a forward gradient that has a different size than "
                           f"that of the original Tensor, this is not supported. Tensor is of "
                           f"size {list(tensor.shape)} while the given forward gradient is of "
                           f"size {list(tangent.shape)}.")
    if tensor._data.dtype.kind not in "fc":
        raise ValueError("Expected primal to be floating point")
    return attach_tangent(tensor, tangent, _current_level(level))


def tangent_of(tensor, level: int):
    """The tangent of ``tensor`` at ``level`` (None if it has none)."""
    if not isinstance(tensor, Tensor) or tensor._extra is None:
        return None
    tangents = tensor._extra.get("tangents")
    return tangents.get(level) if tangents else None


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)`` of a dual tensor (``tangent`` is None if it has none).

    Outside every ``dual_level`` (and without ``level``) it is ``(tensor, None)``, as in
    PyTorch.

    Example:
        >>> import unigrad as ug
        >>> import unigrad.autograd.forward_ad as fwAD
        >>> fwAD.unpack_dual(ug.ones(2)).tangent is None
        True
    """
    if level is None and not _active_levels():
        return UnpackedDualTensor(tensor, None)
    level = _current_level(level)
    return UnpackedDualTensor(strip_tangent(tensor, level), tangent_of(tensor, level))


def propagate(prim, args, params, result: Tensor) -> None:
    """Compute ``result``'s tangents from its inputs' (called by ``bind``)."""
    levels = _local.forward_levels
    if not prim.differentiable or result._data.dtype.kind not in "fc":
        return
    for depth, level in enumerate(list(levels)):
        tangents = tuple(tangent_of(a, level) for a in args)
        if all(t is None for t in tangents):
            continue
        if prim.jvp is None:
            raise NotImplementedError(f"forward-mode AD is not defined for {prim.name}")
        # the rule runs at the outer levels only: an enclosing jvp differentiates this
        # tangent (nested forward mode), this level does not see its own tangent ops
        prim.check_complex_jvp(result)
        _local.forward_levels = levels[:depth]
        try:
            tangent = prim.jvp(tangents, result, *args, **params)
        finally:
            _local.forward_levels = levels
        if tangent is None:
            continue
        tangent = _conform_tangent(tangent, result)
        result._extra_dict().setdefault("tangents", {})[level] = tangent
    node = result._grad_fn
    if prim.saves_output and node is not None and result._extra is not None:
        # a create_graph backward re-wraps the saved output: give it these tangents back
        tangents = result._extra.get("tangents")
        if tangents:
            node._hooks().out_tangents = tangents


def _conform_tangent(tangent, result: Tensor) -> Tensor:
    from ..ops.elementwise import cast
    from ..ops.shape import broadcast_to
    if not isinstance(tangent, Tensor):
        tangent = _make_tensor(tangent)
    if tuple(tangent.shape) != tuple(result.shape):
        tangent = broadcast_to(tangent, tuple(result.shape))
    if tangent._data.dtype != result._data.dtype:
        tangent = cast(tangent, result._data.dtype)
    return tangent
