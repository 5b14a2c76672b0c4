"""Primitives, their registry, and :func:`bind`, the single dispatch point.

A primitive is declared once, with

- ``impl(*arrays, **params)``: the computation on backend arrays;
- ``shape(*avals, **params) -> (shape, numpy_dtype)``: the output's abstract value;
- ``vjp(g, out, needs, *inputs, **params) -> tuple``: one cotangent per input
  (``None`` where ``needs[i]`` is false), written with unigrad ops so it is
  itself differentiable;
- ``saved_for(needs) -> tuple of bools`` (optional): which inputs the vjp
  reads, given which need a cotangent; the others are not kept alive (nor
  version-checked) and reach the rule as abstract values, as in PyTorch
  (``x * 2`` saves only the 2);
- ``jvp(tangents, out, *inputs, **params)``: derived for ``kind="elementwise"``
  (the Jacobian is diagonal, so the jvp is the vjp applied to each broadcast
  tangent), ``kind="linear"`` (the op applied to the tangents) and
  ``kind="bilinear"`` (one term per input); hand-written otherwise.

Rules see plain backend arrays when the backward pass records nothing, and
Tensors when it does (``create_graph=True``): unigrad ops accept both, and an op
applied only to plain arrays computes directly and returns an array.

Example:
    >>> import unigrad as ug
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> PRIMITIVES["exp"].name
    'exp'
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .. import _state
from ..autograd.node import record as _record
from ..autograd.node import record_single as _record_single
from ..backend import namespace_of, ndarray
from ..tensor import PLAIN_TENSOR_TYPES, Tensor, shared_counter

PRIMITIVES: dict[str, Primitive] = {}

_local = _state.local
_global = _state.global_state

# Test-only hooks ``fn(prim, args, params, out)`` called after every bind (empty: no cost).
_observers: list = []


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


class Primitive:
    """One differentiable (or explicitly non-differentiable) operation."""

    __slots__ = ("name", "impl", "shape", "vjp", "jvp", "kind", "saves_inputs",
                 "saves_output", "differentiable", "backward_name", "is_view", "saved_for",
                 "saves_lone_first")

    def __init__(self, name: str, impl: Callable, shape: Callable, *,
                 vjp: Callable | None = None, jvp: Callable | None = None,
                 kind: str = "other", saves_inputs: bool = True,
                 saves_output: bool = False, differentiable: bool = True,
                 backward_name: str | None = None, is_view: bool = False,
                 saved_for: Callable | None = None):
        if name in PRIMITIVES:
            raise ValueError(f"primitive {name!r} is already registered")
        if kind not in ("elementwise", "linear", "bilinear", "other"):
            raise ValueError(f"kind must be elementwise, linear, bilinear or other, got {kind!r}")
        self.name = name
        self.impl = impl
        self.shape = shape
        self.vjp = vjp
        self.kind = kind
        self.saves_inputs = saves_inputs
        self.saves_output = saves_output
        self.differentiable = differentiable
        self.backward_name = backward_name or f"{_camel(name)}Backward0"
        self.is_view = is_view
        # memoized: it is asked on every recorded op, with a handful of ``needs`` patterns
        self.saved_for = functools.lru_cache(maxsize=32)(saved_for) if saved_for else None
        # whether the first input is saved when it alone needs a gradient (the eager fast path)
        self.saves_lone_first = saves_inputs and (saved_for is None or
                                                  saved_for((True, False))[0])
        if jvp is None and differentiable:
            jvp = _derived_jvp(self, kind)
        self.jvp = jvp
        PRIMITIVES[name] = self

    def __repr__(self) -> str:
        return f"<primitive {self.name}>"

    def __call__(self, *args, **params):
        return bind(self, *args, **params)


def others_need(needs: tuple) -> tuple:
    """``saved_for`` of multilinear ops (mul, matmul, einsum): the vjp reads operand ``i``
    exactly when some other operand needs a gradient."""
    return tuple(any(need for j, need in enumerate(needs) if j != i) for i in range(len(needs)))


def _derived_jvp(prim: Primitive, kind: str) -> Callable | None:
    if kind == "elementwise":
        def elementwise_jvp(tangents, out, *inputs, **params):
            from .shape import broadcast_to
            total = None
            n = len(inputs)
            for i, t in enumerate(tangents):
                if t is None:
                    continue
                needs = tuple(j == i for j in range(n))
                if tuple(t.shape) != tuple(out.shape):
                    t = broadcast_to(t, tuple(out.shape))
                term = prim.vjp(t, out, needs, *inputs, **params)[i]
                total = term if total is None else total + term
            return total
        return elementwise_jvp
    if kind == "linear":
        def linear_jvp(tangents, out, *inputs, **params):
            from .creation import zeros_like
            args = [t if t is not None else (zeros_like(x) if _is_array_like(x) else x)
                    for t, x in zip(tangents, inputs)]
            return bind(prim, *args, **params)
        return linear_jvp
    if kind == "bilinear":
        def bilinear_jvp(tangents, out, *inputs, **params):
            total = None
            for i, t in enumerate(tangents):
                if t is None:
                    continue
                args = list(inputs)
                args[i] = t
                term = bind(prim, *args, **params)
                total = term if total is None else total + term
            return total
        return bilinear_jvp
    return None


def _is_array_like(x) -> bool:
    return isinstance(x, (Tensor, ndarray)) or hasattr(x, "__cuda_array_interface__")


def bind(prim: Primitive, *args, **params):
    """Apply ``prim`` to ``args`` (Tensors, backend arrays or Python scalars).

    With at least one Tensor argument the result is a Tensor, recorded on the
    tape when grad mode is on and an argument requires grad. With only plain
    arrays it computes directly and returns an array (this is how vjp rules run
    fast when nothing needs recording).

    Example:
        >>> import numpy as np, unigrad as ug
        >>> from unigrad.ops._primitive import bind
        >>> from unigrad.ops.elementwise import add_p
        >>> bind(add_p, ug.tensor([1.0]), ug.tensor([2.0]))
        tensor([3.])
        >>> bind(add_p, np.array([1.0]), np.array([2.0]))
        array([3.])
    """
    if len(args) == 1 and type(args[0]) in PLAIN_TENSOR_TYPES:
        return bind_first_tensor(prim, args[0], params=params)
    return _bind_general(prim, args, params)


def _bind_general(prim: Primitive, args: tuple, params: dict):
    """:func:`bind` for any mix of Tensors, arrays and scalars (and for tracing)."""
    trace = _local.trace
    if trace is not None:  # graph mode: record instead of computing
        out, any_tensor, requires_grad = trace.bind(prim, args, params)
        shares_memory = False
    else:
        arrays = []
        any_tensor = False
        requires_grad = False
        for a in args:
            if isinstance(a, Tensor):
                any_tensor = True
                arrays.append(a._data)
                if a._requires_grad:
                    requires_grad = True
            else:
                arrays.append(a)
        try:
            out = prim.impl(*arrays, **params) if params else prim.impl(*arrays)
        except (ValueError, IndexError, TypeError) as error:
            raise _explain(prim, args, params, error) from error
        if out.__class__ is not ndarray and not isinstance(out, ndarray):
            out = namespace_of(out).asarray(out)
        shares_memory = prim.is_view and _may_share_memory(out, arrays[0])
    if _observers:
        for observer in _observers:
            observer(prim, args, params, out)
    if not any_tensor:
        return out
    result = _new_tensor(_result_class(args))
    result._data = out
    result._requires_grad = False
    result._grad_fn = None
    result._grad = None
    result._extra = None
    if shares_memory:
        base = args[0]
        result._vc = shared_counter(base)
    else:
        base = None
        result._vc = None
        if trace is not None and type(out) is ndarray:  # folded from constants: a constant
            trace.note_created(result)
    local = _local
    if requires_grad and local.grad_enabled and prim.differentiable and out.dtype.kind == "f":
        _record(prim, args, params, result)
        if base is not None and base._requires_grad:
            result._extra = {"view_of": (base, prim, params)}
    elif local.inference_mode:
        result._extra = {"inference": True}
    if local.forward_levels:
        from ..autograd.forward_ad import propagate
        propagate(prim, args, params, result)
    return result


_new_tensor = object.__new__
_NO_PARAMS: dict = {}


def bind_first_tensor(prim: Primitive, x: Tensor, constant=_NO_PARAMS, params=_NO_PARAMS):
    """``bind(prim, x, **params)`` or ``bind(prim, x, constant)`` where only ``x`` is a Tensor.

    The hot path of one-tensor ops (``tanh(x)``, ``x * 0.5``, ``x.sum(1)``,
    ``x.reshape(...)``, ``x[i]``): the same result and recording as
    :func:`bind`, with the argument loop and the general record unrolled for a
    single Tensor operand. Anything unusual (observers, forward mode, inference
    mode, anomaly mode) goes through the general path.
    """
    args = (x,) if constant is _NO_PARAMS else (x, constant)
    local = _local
    if _observers or local.forward_levels or local.inference_mode or _global.anomaly_enabled \
            or local.trace is not None:
        return _bind_general(prim, args, params)
    data = x._data
    try:
        if constant is not _NO_PARAMS:
            out = prim.impl(data, constant)
        else:
            out = prim.impl(data, **params) if params else prim.impl(data)
    except (ValueError, IndexError, TypeError) as error:
        raise _explain(prim, args, params, error) from error
    if out.__class__ is not ndarray and not isinstance(out, ndarray):
        out = namespace_of(out).asarray(out)
    cls = x.__class__
    result = _new_tensor(Tensor if cls is Tensor else cls._result_class)
    result._data = out
    result._grad = None
    result._extra = None
    view = prim.is_view and _may_share_memory(out, data)
    result._vc = shared_counter(x) if view else None
    if x._requires_grad and local.grad_enabled and prim.differentiable and out.dtype.kind == "f":
        _record_single(prim, args, x, result, params)
        if view:
            result._extra = {"view_of": (x, prim, params)}
    else:
        result._requires_grad = False
        result._grad_fn = None
    return result


def _result_class(args: tuple) -> type:
    """The class of an op's result: the ``_result_class`` of its first Tensor operand.

    Plain Tensors and Parameters give Tensor; a front-end's Tensor subclass
    (``unigrad.compat.mindspore.Tensor``) keeps its own class, so its results
    print in that framework's style.
    """
    for a in args:
        if isinstance(a, Tensor):
            cls = a.__class__
            return Tensor if cls is Tensor else cls._result_class
    return Tensor


def _may_share_memory(a, b) -> bool:
    return namespace_of(a).may_share_memory(a, b)


def _explain(prim: Primitive, args, params, error: Exception) -> Exception:
    """Turn a backend error into one that names the op and its operands.

    Operands that do not broadcast get PyTorch's RuntimeError, naming the
    first dimension that disagrees.
    """
    if prim.kind == "elementwise" and "broadcast" in str(error):
        mismatch = _broadcast_mismatch([getattr(a, "shape", ()) for a in args])
        if mismatch is not None:
            return RuntimeError(mismatch)
    described = ", ".join(_describe(a) for a in args)
    extra = f" with {params}" if params else ""
    return type(error)(f"{prim.name}(): {error} (operands: {described}{extra})")


def _broadcast_mismatch(shapes: list) -> str | None:
    """PyTorch's message for the first pair of operand shapes that cannot broadcast."""
    names = "ab"
    for first in range(len(shapes)):
        for second in range(first + 1, len(shapes)):
            a, b = tuple(shapes[first]), tuple(shapes[second])
            for offset in range(1, min(len(a), len(b)) + 1):
                if a[-offset] != b[-offset] and 1 not in (a[-offset], b[-offset]):
                    dimension = max(len(a), len(b)) - offset
                    return (f"The size of tensor {names[min(first, 1)]} ({a[-offset]}) must match "
                            f"the size of tensor {names[min(second, 1)]} ({b[-offset]}) at "
                            f"non-singleton dimension {dimension}")
    return None


def _describe(value) -> str:
    if isinstance(value, Tensor):
        return f"Tensor(shape={list(value._data.shape)}, dtype={value._data.dtype})"
    if isinstance(value, ndarray):
        return f"array(shape={list(value.shape)}, dtype={value.dtype})"
    return repr(value)


def defined_primitives() -> dict[str, Primitive]:
    """All registered primitives by name."""
    return dict(PRIMITIVES)
