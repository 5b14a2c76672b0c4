"""In-place operations: write an op's result into a tensor's storage.

An in-place op bumps the tensor's version counter (shared with its views and
detached aliases), so a backward pass that saved the old value fails with
PyTorch's version error instead of silently using the new one. When the op is
recorded, the tensor's history is rebased onto the new node, which saw a
snapshot of the old value.

Example:
    >>> import unigrad as ug
    >>> x = ug.tensor([1.0, 2.0])
    >>> _ = x.add_(1.0)
    >>> x
    tensor([2., 3.])
    >>> x._version
    1
"""

from __future__ import annotations

import numbers

from .. import _state
from ..interpreters.batching import check_batched_write
from ..tensor import Tensor, _make_tensor
from .registry import op

_local = _state.local
_global = _state.global_state


def _snapshot(tensor: Tensor) -> Tensor:
    """An alias carrying the tensor's history with a private copy of its current data."""
    alias = _make_tensor(tensor._data.copy(), tensor._requires_grad)
    alias._grad_fn = tensor._grad_fn
    return alias


def refresh_stale_view(tensor: Tensor) -> None:
    """Re-derive a view's history when its base's history has moved on.

    An in-place op on the base (or on another view of it) gives the base a new
    node; a view made earlier still points at the old one. As PyTorch does, the
    view is re-derived from the base's current history the next time it is used.
    A chain of views (a view of a view ...) is walked without recursion, and only
    up to the first ancestor checked since the last history rewrite anywhere.
    """
    extra = tensor._extra
    if extra is None or "view_of" not in extra:
        return
    generation = _global.history_generation
    if extra.get("fresh_at") == generation:
        return
    chain = [tensor]
    base = extra["view_of"][0]
    while base._extra is not None and "view_of" in base._extra \
            and base._extra.get("fresh_at") != generation:
        chain.append(base)
        base = base._extra["view_of"][0]
    for view in reversed(chain):  # the outermost base first: each view sees a fresh base
        _rederive_view(view)
        view._extra["fresh_at"] = generation


def _rederive_view(view: Tensor) -> None:
    """Point ``view``'s history at its base's current node when it points elsewhere."""
    base, prim, params = view._extra["view_of"]
    node = view._grad_fn
    current = base if base._grad_fn is None else base._grad_fn
    if node is None or node.edges[0] is current:
        return
    from ._primitive import bind
    view._grad_fn = bind(prim, base, **params)._grad_fn


def note_history_rewritten() -> None:
    """Record that some tensor got a new history in place: every view must be rechecked."""
    _global.history_generation += 1


def _rebase_view_chain(view: Tensor, new_value: Tensor) -> None:
    """After an in-place op on a view, give its bases (and the view) histories that see it.

    As PyTorch's CopySlices: the base's new value is "old base with the view's
    region replaced by the new view value", and the view becomes a view of
    that new base. A chain of views is rebased from the written view outwards,
    without recursion.
    """
    from ._primitive import bind
    refresh_stale_view(view._extra["view_of"][0])
    chain = []  # (view, its base's new value), innermost first
    while True:
        base, prim, params = view._extra["view_of"]
        write_back = prim.write_back
        if write_back is None:
            raise RuntimeError(f"in-place modification of a view created by {prim.name} is "
                               "not supported when its base requires grad; clone() the view "
                               "first")
        new_value = write_back(_snapshot(base), new_value, **params)
        chain.append((view, new_value))
        if base._extra is None or "view_of" not in base._extra:
            break
        view = base
    for view, new_base_value in reversed(chain):  # the outermost base first
        base, prim, params = view._extra["view_of"]
        base._grad_fn = new_base_value._grad_fn
        base._requires_grad = True
        view._grad_fn = bind(prim, base, **params)._grad_fn


def apply_inplace(tensor: Tensor, fn, *args, **kwargs) -> Tensor:
    """Compute ``fn(tensor, *args)`` and store it into ``tensor`` in place."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"in-place ops need a Tensor, got {type(tensor).__name__}")
    tensor._leaf_inplace_check()
    trace = _local.trace
    if trace is not None:
        return _apply_traced(trace, tensor, fn, args, kwargs)
    recording = _local.grad_enabled and (tensor._requires_grad or any(
        isinstance(a, Tensor) and a._requires_grad for a in args))
    source = _snapshot(tensor) if recording and tensor._requires_grad else tensor.detach()
    tangents = tensor._extra.get("tangents") if tensor._extra is not None else None
    if tangents:  # forward-mode AD: the op sees the old tangent and yields the new one
        source._extra_dict()["tangents"] = tangents
    result = fn(source, *args, **kwargs)
    data = _checked_result(tensor, result)
    if hasattr(tensor._data, "__unigrad_abstract__") or hasattr(data, "__unigrad_abstract__"):
        # a vmap batch is immutable: the write is functional (the tensor takes the result)
        check_batched_write(tensor, data)
        tensor._bump_version()
        tensor._data = _cast_to(tensor, data)
    else:
        if not tensor._data.flags.writeable:
            raise RuntimeError("unsupported operation: more than one element of the written-to "
                               "tensor refers to a single memory location. Please clone() the "
                               "tensor before performing the operation.")
        tensor._bump_version()
        tensor._data[...] = data
    _finish_history(tensor, result, tangents, recording)
    return tensor


def _checked_result(tensor: Tensor, result):
    """The array of an in-place op's result, checked against the written tensor."""
    data = result._data if isinstance(result, Tensor) else result
    if data.shape != tensor._data.shape:
        raise RuntimeError(f"output with shape {list(tensor._data.shape)} doesn't match the "
                           f"broadcast shape {list(data.shape)}")
    target_kind = tensor._data.dtype.kind
    if data.dtype != tensor._data.dtype and target_kind != "f" and data.dtype.kind == "f":
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{tensor.dtype.name.capitalize()}")
    return data


def _finish_history(tensor: Tensor, result, tangents, recording: bool) -> None:
    """After an in-place write: the tensor's tangents and history become the result's."""
    if isinstance(result, Tensor) and (tangents or (result._extra is not None and
                                                    result._extra.get("tangents"))):
        tensor._extra_dict()["tangents"] = result._extra.get("tangents", {}) \
            if result._extra is not None else {}
    if recording and isinstance(result, Tensor) and result._grad_fn is not None:
        tensor._grad_fn = result._grad_fn
        tensor._requires_grad = True
        if tensor._extra is not None and "view_of" in tensor._extra:
            _rebase_view_chain(tensor, result)
        note_history_rewritten()  # after every change: views checked before it are rechecked


def _apply_traced(trace, tensor: Tensor, fn, args: tuple, kwargs: dict) -> Tensor:
    """:func:`apply_inplace` under ``ug.jit``: the write becomes the tensor's new traced value.

    A tensor from outside the trace (an argument, a Parameter, a closed-over
    tensor) is never modified: the trace's view of it takes the new value, and
    the write is replayed after each call. A tensor made during the trace is
    written (and its history rebased) as in eager mode.
    """
    recording = _local.grad_enabled and (tensor._requires_grad or any(
        isinstance(a, Tensor) and a._requires_grad for a in args))
    tangents = tensor._extra.get("tangents") if tensor._extra is not None else None
    if trace.is_external(tensor):
        if tangents or (recording and tensor._requires_grad):
            raise _external_history_error()
        source = _make_tensor(trace.read(tensor))
        result = fn(source, *args, **kwargs)
        if isinstance(result, Tensor) and ((recording and result._grad_fn is not None) or (
                result._extra is not None and result._extra.get("tangents"))):
            raise _external_history_error()
        trace.assign(tensor, _cast_to(tensor, _checked_result(tensor, result)))
        return tensor
    trace.make_own(tensor)
    source = _snapshot(tensor) if recording and tensor._requires_grad else tensor.detach()
    if tangents:
        source._extra_dict()["tangents"] = tangents
    result = fn(source, *args, **kwargs)
    trace.assign(tensor, _cast_to(tensor, _checked_result(tensor, result)))
    _finish_history(tensor, result, tangents, recording)
    return tensor


def _external_history_error() -> NotImplementedError:
    from ..graph.tracer import user_frame
    return NotImplementedError(
        f"in-place modification of a tensor from outside the function (an argument, a "
        f"Parameter or a closed-over tensor) that would give it a gradient history or a "
        f"forward-mode tangent is not supported inside ug.jit (at {user_frame()}): clone() "
        f"it first, or write it under ug.no_grad()")


def _cast_to(tensor: Tensor, data):
    return data.astype(tensor._data.dtype) if data.dtype != tensor._data.dtype else data


@op(methods=("copy_",))
def copy_(self: Tensor, src, non_blocking: bool = False) -> Tensor:
    """Copy ``src`` (broadcast) into this tensor; differentiable with respect to ``src``."""
    from .elementwise import cast
    from .shape import broadcast_to
    if not isinstance(src, Tensor):
        src = _make_tensor(_as_array(src))
    return apply_inplace(self, lambda old, s: broadcast_to(cast(s, old._data.dtype),
                                                           tuple(old.shape)), src)


def _as_array(value):
    from ..tensor import as_array
    return as_array(value)


@op(methods=("zero_",))
def zero_(self: Tensor) -> Tensor:
    """Fill with zeros in place."""
    self._leaf_inplace_check()
    if _local.grad_enabled and self._requires_grad:
        return apply_inplace(self, lambda old: old * 0.0)
    if _local.trace is not None:
        return _assign_traced(self, 0)
    self._bump_version()
    self._data[...] = 0
    return self


@op(methods=("fill_",))
def fill_(self: Tensor, value) -> Tensor:
    """Fill with ``value`` in place."""
    if isinstance(value, Tensor):
        return copy_(self, value)
    if not isinstance(value, numbers.Number) and not (hasattr(value, "dtype")
                                                       and getattr(value, "ndim", 1) == 0):
        raise TypeError(f"fill_(): argument 'value' must be a Tensor or a number, not "
                        f"{type(value).__name__}")
    self._leaf_inplace_check()
    if _local.grad_enabled and self._requires_grad:
        return apply_inplace(self, lambda old: old * 0.0 + value)
    if _local.trace is not None:
        return _assign_traced(self, value)
    self._bump_version()
    self._data[...] = value
    return self


def _assign_traced(tensor: Tensor, value) -> Tensor:
    """Graph mode: ``tensor`` now holds the constant ``value`` everywhere (in the trace's
    view of it, for a tensor from outside the trace)."""
    _local.trace.assign(tensor, value)
    return tensor


def _scalar_value(method: str, value):
    """``value`` of ``addcmul_``/``addcdiv_``: a Python or NumPy real number, as PyTorch."""
    if isinstance(value, Tensor) or not isinstance(value, numbers.Real):
        raise TypeError(f"{method}(): argument 'value' must be Number, not "
                        f"{type(value).__name__}")
    return value


@op(methods=("addcmul_",))
def addcmul_(self: Tensor, tensor1, tensor2, *, value=1) -> Tensor:
    """``self += value * tensor1 * tensor2`` in place (PyTorch ``Tensor.addcmul_``); returns self.

    Differentiable with respect to all three tensors when recorded.

    Example:
        >>> import unigrad as ug
        >>> v = ug.tensor([1.0, 2.0])
        >>> v.addcmul_(ug.tensor([3.0, 4.0]), ug.tensor([0.5, 2.0]), value=2)
        tensor([ 4., 18.])
    """
    value = _scalar_value("addcmul_", value)
    if value == 1:
        return apply_inplace(self, lambda old, a, b: old + a * b, tensor1, tensor2)
    return apply_inplace(self, lambda old, a, b: old + (a * value) * b, tensor1, tensor2)


@op(methods=("addcdiv_",))
def addcdiv_(self: Tensor, tensor1, tensor2, *, value=1) -> Tensor:
    """``self += value * tensor1 / tensor2`` in place (PyTorch ``Tensor.addcdiv_``); returns self.

    Differentiable with respect to all three tensors when recorded.

    Example:
        >>> import unigrad as ug
        >>> p = ug.tensor([1.0, 2.0])
        >>> p.addcdiv_(ug.tensor([3.0, 4.0]), ug.tensor([2.0, 8.0]), value=-2)
        tensor([-2.,  1.])
    """
    value = _scalar_value("addcdiv_", value)
    if value == 1:
        return apply_inplace(self, lambda old, a, b: old + a / b, tensor1, tensor2)
    return apply_inplace(self, lambda old, a, b: old + (a * value) / b, tensor1, tensor2)
