"""The eager interpreter: compute a primitive on backend arrays now and record it on the tape.

It is the bottom of every interpreter stack: :func:`unigrad.ops._primitive.bind`
calls it directly when no other interpreter is active (the hot path: one
thread-local read), and the other interpreters reach it through their parents.

:func:`make_result` is the Tensor-level half every interpreter shares: wrap the
output array (a backend array, a graph tracer or a batched value) in a Tensor,
record it on the tape when an input requires grad, mark inference tensors.

Example:
    >>> import unigrad as ug
    >>> from unigrad.interpreters.eager import bind_eager
    >>> from unigrad.ops.elementwise import mul_p
    >>> y = bind_eager(mul_p, (ug.tensor([2.0], requires_grad=True), 3.0), {})
    >>> y, y.grad_fn.name()
    (tensor([6.], grad_fn=<MulBackward0>), 'MulBackward0')
"""

from __future__ import annotations

import linecache

from .. import _state
from ..autograd.node import record as _record
from ..autograd.node import record_single as _record_single
from ..backend import namespace_of, ndarray
from ..tensor import Tensor, shared_counter

_local = _state.local
_global = _state.global_state

# Hooks ``fn(prim, args, params, out)`` called after every eager or traced bind (empty: no
# cost). Replaced copy-on-write by closure discovery, appended to by the op-table harness.
observers: list = []

_new_tensor = object.__new__
_NO_PARAMS: dict = {}


def bind_eager(prim, args: tuple, params: dict):
    """``prim(*args, **params)`` computed now; a Tensor (recorded) when an argument is one."""
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
        raise explain(prim, args, params, error) from error
    if out.__class__ is not ndarray and not isinstance(out, ndarray):
        out = namespace_of(out).asarray(out)
    if not any_tensor:
        notify(prim, args, params, out)
        return out
    shares_memory = prim.is_view and _may_share_memory(out, arrays[0])
    return make_result(prim, args, params, out, requires_grad, shares_memory)


def notify(prim, args, params, out) -> None:
    if observers:
        for observer in observers:
            observer(prim, args, params, out)


def make_result(prim, args: tuple, params: dict, out, requires_grad: bool,
                shares_memory: bool) -> Tensor:
    """The Tensor holding ``out``, the result of ``prim(*args)``, recorded on the tape.

    ``requires_grad``: whether a Tensor argument requires grad; ``shares_memory``:
    whether ``out`` is a view of the first argument's data (it then shares that
    tensor's version counter).
    """
    notify(prim, args, params, out)
    result = _new_tensor(result_class(args))
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
    local = _local
    if requires_grad and local.grad_enabled and prim.differentiable and out.dtype.kind in "fc":
        _record(prim, args, params, result)
        if base is not None and base._requires_grad:
            result._extra = {"view_of": (base, prim, params)}
    elif local.inference_mode:
        result._extra = {"inference": True}
    return result


def bind_first_tensor(prim, x: Tensor, constant=_NO_PARAMS, params=_NO_PARAMS):
    """``prim(x, **params)`` or ``prim(x, constant)`` where only ``x`` is a Tensor.

    The hot path of one-tensor ops (``tanh(x)``, ``x * 0.5``, ``x.sum(1)``,
    ``x.reshape(...)``, ``x[i]``): with no interpreter active, the same result
    and recording as :func:`bind_eager`, with the argument loop and the general
    record unrolled for a single Tensor operand; otherwise the innermost
    interpreter takes it, as :func:`unigrad.ops._primitive.bind` does. Anything
    unusual (observers, inference mode, anomaly mode) goes through :func:`bind_eager`.
    """
    local = _local
    interpreter = local.interpreter
    if interpreter is not None:
        return interpreter.process(prim, (x,) if constant is _NO_PARAMS else (x, constant),
                                   params)
    if observers or local.inference_mode or _global.anomaly_enabled:
        return bind_eager(prim, (x,) if constant is _NO_PARAMS else (x, constant), params)
    data = x._data
    try:
        if constant is not _NO_PARAMS:
            out = prim.impl(data, constant)
        else:
            out = prim.impl(data, **params) if params else prim.impl(data)
    except (ValueError, IndexError, TypeError) as error:
        args = (x,) if constant is _NO_PARAMS else (x, constant)
        raise explain(prim, args, params, error) from error
    if out.__class__ is not ndarray and not isinstance(out, ndarray):
        out = namespace_of(out).asarray(out)
    cls = x.__class__
    result = _new_tensor(Tensor if cls is Tensor else cls._result_class)
    result._data = out
    result._grad = None
    result._extra = None
    view = prim.is_view and _may_share_memory(out, data)
    result._vc = shared_counter(x) if view else None
    if x._requires_grad and local.grad_enabled and prim.differentiable and out.dtype.kind in "fc":
        args = (x,) if constant is _NO_PARAMS else (x, constant)
        _record_single(prim, args, x, result, params)
        if view:
            result._extra = {"view_of": (x, prim, params)}
    else:
        result._requires_grad = False
        result._grad_fn = None
    return result


def result_class(args: tuple) -> type:
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


def explain(prim, args, params, error: Exception) -> Exception:
    """Turn a backend error into PyTorch's exception type, naming the op and its arguments.

    Operands that do not broadcast get PyTorch's RuntimeError, naming the first
    dimension that disagrees. Any other error keeps its meaning but not its
    backend class: an argument of the wrong type is a TypeError, a dimension
    or index out of range an IndexError, and a value the backend refused
    (``ValueError`` from NumPy) PyTorch's RuntimeError. Errors that unigrad's
    own code raised on purpose, and unigrad's exception classes, keep their
    class. The caller chains the original error (``raise explain(...) from error``).

    Example:
        >>> import numpy as np, unigrad as ug
        >>> from unigrad.ops.elementwise import clip_p
        >>> try:
        ...     np.clip(np.ones(2), "a", None)
        ... except TypeError as error:
        ...     message = explain(clip_p, (ug.ones(2),), {"min": "a", "max": None}, error)
        >>> type(message).__name__
        'TypeError'
        >>> print(message)  # doctest: +NORMALIZE_WHITESPACE
        clip(): argument 'min' must be a Tensor or a number, got str
        (arguments: Tensor(shape=[2], dtype=float32), min='a', max=None)
    """
    if prim.kind == "elementwise" and "broadcast" in str(error):
        mismatch = _broadcast_mismatch([getattr(a, "shape", ()) for a in args])
        if mismatch is not None:
            return RuntimeError(mismatch)
    described = ", ".join([_describe(a) for a in args] +
                          [f"{key}={_describe(value)}" for key, value in params.items()])
    culprit = _non_numeric_argument(args, params) if prim.kind == "elementwise" else None
    headline = f"{prim.name}(): {error}"
    if culprit is not None and isinstance(error, TypeError):
        headline = (f"{prim.name}(): argument {culprit[0]} must be a Tensor or a number, "
                    f"got {type(culprit[1]).__name__}")
    numbers_only = prim.kind == "elementwise" and culprit is None
    message = f"{headline} (arguments: {described})"
    try:
        return _pytorch_class(error, numbers_only)(message)
    except TypeError:  # one of unigrad's exception classes that takes other arguments
        return RuntimeError(message)


def _pytorch_class(error: Exception, numbers_only: bool) -> type:
    """The builtin exception class PyTorch raises for what ``error`` reports.

    ``numbers_only``: the op is elementwise and every argument is a tensor or
    a number, so a backend TypeError refused their dtypes (``True - True``),
    which PyTorch's kernels report as a RuntimeError.
    """
    if type(error).__module__.startswith("unigrad."):  # unigrad's own (BatchingError, ...)
        return type(error)
    if type(error).__name__ == "LinAlgError":  # NumPy's or CuPy's: PyTorch's is a RuntimeError
        from ..ops.linalg import LinAlgError
        return LinAlgError
    if isinstance(error, IndexError):  # NumPy's AxisError too: PyTorch's dimension errors
        return IndexError
    if type(error) in (TypeError, ValueError) and _raised_by_unigrad(error):
        return type(error)
    if isinstance(error, TypeError) and not numbers_only:  # an argument of the wrong type
        return TypeError
    return RuntimeError


def _raised_by_unigrad(error: Exception) -> bool:
    """Whether unigrad's own code raised ``error`` with a ``raise`` statement (not NumPy)."""
    frame = error.__traceback__
    if frame is None:
        return False
    while frame.tb_next is not None:
        frame = frame.tb_next
    module = frame.tb_frame.f_globals.get("__name__", "")
    if module != "unigrad" and not module.startswith("unigrad."):
        return False
    line = linecache.getline(frame.tb_frame.f_code.co_filename, frame.tb_lineno)
    return line.lstrip().startswith("raise")


def _non_numeric_argument(args: tuple, params: dict) -> tuple | None:
    """The first operand or parameter that is neither a tensor, an array nor a number."""
    named = [(f"{position}", value) for position, value in enumerate(args)]
    named += [(f"'{key}'", value) for key, value in params.items()]
    for name, value in named:
        if value is None or isinstance(value, (Tensor, ndarray, bool, int, float, complex)):
            continue
        if hasattr(value, "dtype"):  # NumPy scalars, backend arrays
            continue
        return name, value
    return None


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
