"""Tracing: run a Python function on abstract values and record every primitive it binds.

While a :class:`Trace` is active (``unigrad._state.local.trace``), :func:`bind`
sends every primitive here instead of computing it: the primitive's shape rule
gives the output's shape and dtype, an :class:`~unigrad.graph.ir.Eqn` is
appended, and the result is a :class:`Tracer` (an abstract array standing where
a backend array would be, inside a Tensor or bare). Nothing is computed, except
primitives whose operands are all constants (folded on the spot).

Tensors that already hold concrete data when an op first reads them (the
function's arguments, Parameters and other tensors it closes over) become
graph inputs: their ``_data`` is swapped for a tracer for the duration of the
trace (so in-place updates and ``.grad`` writes are seen as values), and
restored afterwards. What changed is reported as *effects* for the caller to
replay.

Reading a traced value as a Python number (``if x > 0:``, ``float(x)``,
``x.item()``) raises :class:`ConcretizationError` naming the user's line.

Example:
    >>> import unigrad as ug
    >>> from unigrad.graph.tracer import Trace
    >>> x = ug.ones(3)
    >>> with Trace() as trace:
    ...     traced = trace.capture(x)
    ...     y = ug.tanh(x * 2.0)
    >>> [eqn.prim.name for eqn in trace.eqns]
    ['mul', 'tanh']
    >>> x                     # restored when the trace ends
    tensor([1., 1., 1.])
"""

from __future__ import annotations

import os
import traceback
import weakref
from dataclasses import dataclass, field

import numpy as np

from .. import _state
from ..backend import ndarray
from ..tensor import Tensor, _make_tensor
from .dynamic import dynamic_arrays, lift
from .ir import Eqn, Literal, Var, abstract_operand

_local = _state.local
_PACKAGE_DIRECTORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class ConcretizationError(TypeError):
    """A traced value was needed as a concrete Python value (control flow on data)."""


class TracerLeakError(RuntimeError):
    """A traced value escaped the function being traced and was used afterwards."""


def user_frame() -> str:
    """``file:line (code)`` of the innermost stack frame outside the unigrad package."""
    for frame in reversed(traceback.extract_stack()):
        filename = os.path.abspath(frame.filename)
        if not filename.startswith(_PACKAGE_DIRECTORY):
            code = f" `{frame.line.strip()}`" if frame.line else ""
            return f"{frame.filename}:{frame.lineno}{code}"
    return "<unknown>"


def _concretization_error(what: str) -> ConcretizationError:
    return ConcretizationError(
        f"{what} of a traced value at {user_frame()}: inside ug.jit (graph mode) values are "
        f"not known while the function is traced, so Python control flow cannot depend on "
        f"them. Use ug.ops.cond(pred, true_fn, false_fn, *operands) or ug.ops.where(condition, "
        f"x, y) to select on data, or mark the argument static with "
        f"ug.jit(fn, static_argnums=...) so each value gets its own graph.")


class Tracer:
    """An abstract array: a graph variable of one trace, with NumPy-like methods.

    It stands where a backend array would be (``Tensor._data``, the arrays vjp
    rules receive); arithmetic and array methods bind primitives on the trace.
    """

    __slots__ = ("var", "trace")
    __array_priority__ = 1000

    def __init__(self, var: Var, trace: Trace):
        self.var = var
        self.trace = trace

    # ---------------------------------------------------------------- abstract value
    @property
    def shape(self) -> tuple:
        return self.var.shape

    @property
    def dtype(self) -> np.dtype:
        return self.var.dtype

    @property
    def ndim(self) -> int:
        return len(self.var.shape)

    @property
    def size(self) -> int:
        return self.var.size

    def __len__(self) -> int:
        if not self.var.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.var.shape[0]

    def __repr__(self) -> str:
        return f"Tracer<{self.var.type_text()}>"

    # ---------------------------------------------------------------- concretization
    def __bool__(self):
        raise _concretization_error("Python bool() (an `if`, `while`, `and`/`or` or `assert`)")

    def __float__(self):
        raise _concretization_error("float()")

    def __int__(self):
        raise _concretization_error("int()")

    def __index__(self):
        raise _concretization_error("Use as an index or int")

    def item(self):
        raise _concretization_error(".item()")

    def tolist(self):
        raise _concretization_error(".tolist()")

    def __array__(self, dtype=None, copy=None):
        raise _concretization_error("Conversion to a NumPy array")

    def __iter__(self):
        if not self.var.shape:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.var.shape[0]))

    # ---------------------------------------------------------------- array methods
    def _tensor(self) -> Tensor:
        if self.trace is not _local.trace:
            raise _leak_error(self)
        return _make_tensor(self)

    def copy(self):
        return self  # values in a graph are immutable: a copy is the value itself

    def astype(self, dtype, copy=True):
        from ..ops.elementwise import cast
        return cast(self, np.dtype(dtype))

    def reshape(self, *shape):
        shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
        return self._tensor().reshape(tuple(shape))._data

    def ravel(self):
        return self.reshape(-1)

    def transpose(self, *axes):
        axes = axes[0] if len(axes) == 1 and isinstance(axes[0], (tuple, list)) else axes
        if not axes:
            axes = tuple(reversed(range(self.ndim)))
        return self._tensor().permute(*axes)._data

    @property
    def T(self):
        return self.transpose()

    def sum(self, axis=None, keepdims=False, dtype=None):
        result = self._tensor().sum(dim=axis, keepdim=keepdims)._data
        return result if dtype is None else result.astype(dtype)

    def all(self, axis=None, keepdims=False):
        return self._tensor().all(dim=axis, keepdim=keepdims)._data if axis is not None \
            else self._tensor().all()._data

    def any(self, axis=None, keepdims=False):
        return self._tensor().any(dim=axis, keepdim=keepdims)._data if axis is not None \
            else self._tensor().any()._data

    def mean(self, axis=None, keepdims=False):
        return self._tensor().mean(dim=axis, keepdim=keepdims)._data

    def __getitem__(self, index):
        return self._tensor()[_unwrap_index(index)]._data

    def __setitem__(self, index, value):
        raise TypeError("a traced value cannot be assigned to in place; use Tensor operations "
                        "(x[index] = value on a Tensor is traced)")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        function = _ufunc_function(ufunc.__name__)
        if method != "__call__" or function is None or kwargs:
            raise TypeError(f"numpy.{ufunc.__name__} cannot be traced: use the unigrad op "
                            f"instead (inside ug.jit, values are abstract)")
        return function(*inputs)

    def __array_function__(self, func, types, args, kwargs):
        function = _FUNCTIONS.get(func.__name__)
        if function is None:
            raise TypeError(f"numpy.{func.__name__} cannot be traced: use the unigrad op instead "
                            f"(inside ug.jit, values are abstract)")
        return _unwrap(function(*(_wrap(x) for x in args),
                                **{k: _wrap(v) for k, v in kwargs.items()}))


def _is_tracer(value) -> bool:
    return type(value) is Tracer


def _wrap(value):
    return _make_tensor(value) if type(value) is Tracer else value


def _unwrap(value):
    return value._data if isinstance(value, Tensor) else value


def _unwrap_index(index):
    if isinstance(index, tuple):
        return tuple(_wrap(i) for i in index)
    return _wrap(index)


def _bind_named(name: str, *operands):
    """Bind a primitive on raw operands (NumPy semantics, as vjp rules on arrays get)."""
    from ..ops._primitive import PRIMITIVES, bind
    for operand in operands:
        if type(operand) is Tracer and operand.trace is not _local.trace:
            raise _leak_error(operand)
    return bind(PRIMITIVES[name], *operands)


def _operator(name: str, reflected: bool = False):
    if reflected:
        def method(self, other):
            return _bind_named(name, other, self)
    else:
        def method(self, other):
            return _bind_named(name, self, other)
    return method


# NumPy ufunc (and operator) -> primitive of the same meaning
_UFUNC_PRIMITIVES = {
    "add": "add", "subtract": "sub", "multiply": "mul", "true_divide": "div", "divide": "div",
    "power": "pow", "maximum": "maximum", "minimum": "minimum", "remainder": "remainder",
    "floor_divide": "floordiv", "greater": "gt", "greater_equal": "ge", "less": "lt",
    "less_equal": "le", "equal": "eq", "not_equal": "ne", "logical_and": "logical_and",
    "logical_or": "logical_or", "logical_xor": "logical_xor", "logical_not": "logical_not",
    "negative": "neg", "exp": "exp", "log": "log", "log1p": "log1p", "expm1": "expm1",
    "sqrt": "sqrt", "tanh": "tanh", "sin": "sin", "cos": "cos", "tan": "tan",
    "absolute": "abs", "sign": "sign", "floor": "floor", "ceil": "ceil", "isnan": "isnan",
    "isinf": "isinf", "isfinite": "isfinite", "matmul": "matmul"}

for _dunder, _ufunc in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"),
                        ("truediv", "true_divide"), ("pow", "power"), ("matmul", "matmul"),
                        ("mod", "remainder"), ("floordiv", "floor_divide")):
    setattr(Tracer, f"__{_dunder}__", _operator(_UFUNC_PRIMITIVES[_ufunc]))
    setattr(Tracer, f"__r{_dunder}__", _operator(_UFUNC_PRIMITIVES[_ufunc], reflected=True))
for _dunder, _ufunc in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"),
                        ("ge", "greater_equal"), ("eq", "equal"), ("ne", "not_equal"),
                        ("and", "logical_and"), ("or", "logical_or"), ("xor", "logical_xor")):
    setattr(Tracer, f"__{_dunder}__", _operator(_UFUNC_PRIMITIVES[_ufunc]))
Tracer.__hash__ = object.__hash__
Tracer.__neg__ = lambda self: _bind_named("neg", self)
Tracer.__abs__ = lambda self: _bind_named("abs", self)
Tracer.__invert__ = lambda self: _bind_named("logical_not", self)


def _ufunc_function(name: str):
    primitive = _UFUNC_PRIMITIVES.get(name)
    if primitive is None:
        return None
    return lambda *operands: _bind_named(primitive, *operands)


def _function_table() -> dict:
    import unigrad as ug
    return {"where": ug.where, "broadcast_to": ug.broadcast_to,
            "sum": lambda a, axis=None, keepdims=False, dtype=None: ug.sum(a, dim=axis,
                                                                             keepdim=keepdims),
            "reshape": lambda a, shape: ug.reshape(a, shape),
            "transpose": lambda a, axes=None: a.permute(*(axes or reversed(range(a.ndim)))),
            "zeros_like": lambda a, dtype=None: ug.zeros_like(a, dtype=dtype),
            "ones_like": lambda a, dtype=None: ug.ones_like(a, dtype=dtype),
            "clip": lambda a, a_min=None, a_max=None: ug.clip(a, a_min, a_max),
            "concatenate": lambda arrays, axis=0: ug.cat(list(arrays), dim=axis),
            "stack": lambda arrays, axis=0: ug.stack(list(arrays), dim=axis)}


class _LazyTable(dict):
    def __init__(self, build):
        super().__init__()
        self._build = build

    def get(self, key, default=None):
        if not self:
            self.update(self._build())
        return super().get(key, default)


_FUNCTIONS = _LazyTable(_function_table)


# ============================================================================= the trace

@dataclass
class Capture:
    """A tensor whose concrete state became graph inputs, and what it was before the trace."""

    tensor: Tensor
    var: Var
    tracer: Tracer
    data: object
    grad: object
    grad_fn: object
    requires_grad: bool
    extra: object
    version: int | None
    grad_var: Var | None = None        # an input reading the tensor's existing .grad
    grad_tracer: Tensor | None = None  # the Tensor put in .grad for the trace
    grad_present: bool | None = None   # guard: whether .grad must be present (None: any)
    source: object = None              # ("arg", index) for arguments, None for captures


@dataclass
class Effects:
    """What a traced function did to tensors besides returning values."""

    data: list = field(default_factory=list)   # (Capture, atom): new contents of tensor._data
    grads: list = field(default_factory=list)  # (Capture, atom or None): new .grad


class Trace:
    """One tracing session (a context manager installing itself on the thread)."""

    def __init__(self):
        self.inputs: list[Var] = []
        self.eqns: list[Eqn] = []
        self.captures: dict[int, Capture] = {}
        self.grad_written: set[int] = set()
        self.created: dict = {}  # id -> weakref of tensors made during the trace (constants)
        self.guards: list = []  # (read, value): Python state the graph was traced with
        self.view_vars: set = set()
        self.active = False
        self._previous = None

    def __enter__(self) -> Trace:
        self._previous = _local.trace
        _local.trace = self
        self.active = True
        return self

    def __exit__(self, *exc_info) -> None:
        _local.trace = self._previous
        self.active = False
        self.restore()

    # ---------------------------------------------------------------- inputs
    def capture(self, tensor: Tensor, source=None) -> Tracer:
        """Make ``tensor``'s current contents a graph input (once) and return its tracer."""
        record = self.captures.get(id(tensor))
        if record is not None:
            data = tensor._data
            if type(data) is Tracer:
                return data
            raise TracerLeakError("a tensor's data was replaced by a concrete array while it "
                                  "was being traced (set_data inside ug.jit is not supported)")
        data = tensor._data
        if type(data) is Tracer:
            return data
        if self.is_created(tensor):  # a constant made during the trace, now written to
            tensor._data = self.constant(data, data)
            return tensor._data
        var = Var(data.shape, data.dtype)
        self.inputs.append(var)
        tracer = Tracer(var, self)
        counter = tensor._vc
        record = Capture(tensor, var, tracer, data, tensor._grad, tensor._grad_fn,
                         tensor._requires_grad, tensor._extra,
                         None if counter is None else counter[0], source=source)
        self.captures[id(tensor)] = record
        tensor._data = tracer
        if id(tensor) not in self.grad_written:
            grad = tensor._grad
            record.grad_present = grad is not None
            if grad is not None:
                grad_data = grad._data
                record.grad_var = Var(grad_data.shape, grad_data.dtype)
                self.inputs.append(record.grad_var)
                record.grad_tracer = _make_tensor(Tracer(record.grad_var, self))
                tensor._grad = record.grad_tracer
        return tracer

    def note_created(self, tensor: Tensor) -> None:
        self.created[id(tensor)] = weakref.ref(tensor)

    def is_created(self, tensor: Tensor) -> bool:
        """Whether ``tensor`` was made during this trace (ids of dead tensors get reused)."""
        ref = self.created.get(id(tensor))
        return ref is not None and ref() is tensor

    def add_guard(self, read) -> None:
        """``read()`` must give the same value at a later call for this graph to be reused."""
        if all(existing is not read for existing, _ in self.guards):
            self.guards.append((read, read()))

    def captured_value(self, tensor: Tensor):
        """The concrete array a tensor held before the trace (its own data if not captured)."""
        record = self.captures.get(id(tensor))
        return tensor._data if record is None else record.data

    def note_grad_write(self, tensor: Tensor) -> None:
        """A ``.grad`` assignment: before the tensor is captured, its old grad is never read."""
        self.grad_written.add(id(tensor))

    # ---------------------------------------------------------------- binding
    def bind(self, prim, args: tuple, params: dict):
        """Record ``prim(*args)``; returns ``(out, any_tensor, requires_grad)`` like eager bind."""
        operands = []
        any_tensor = requires_grad = traced = False
        for value in args:
            if isinstance(value, Tensor):
                any_tensor = True
                if value._requires_grad:
                    requires_grad = True
                data = value._data
                if type(data) is not Tracer:
                    if self.is_created(value):
                        operands.append(Literal(data))
                        continue
                    data = self.capture(value)
                elif data.trace is not self:
                    raise _leak_error(data)
                operands.append(data.var)
                traced = True
            elif type(value) is Tracer:
                if value.trace is not self:
                    raise _leak_error(value)
                operands.append(value.var)
                traced = True
            else:
                operands.append(Literal(value))
        if params and dynamic_arrays(params, _is_tracer):  # traced index arrays -> operands
            prim, params, dynamic = lift(prim, params, _is_tracer)
            for tracer in dynamic:
                if tracer.trace is not self:
                    raise _leak_error(tracer)
                operands.append(tracer.var)
            traced = True
        if not traced:  # constants only: fold now
            values = [operand.value for operand in operands]
            out = prim.impl(*values, **params) if params else prim.impl(*values)
            if not isinstance(out, ndarray) and hasattr(out, "dtype"):
                out = np.asarray(out)
            return out, any_tensor, requires_grad
        try:
            shape, dtype = prim.shape(*(abstract_operand(o) for o in operands), **params)
        except (ValueError, IndexError, TypeError) as error:
            from ..ops._primitive import _explain
            raise _explain(prim, args, params, error) from error
        var = Var(shape, dtype)
        self.eqns.append(Eqn(prim, operands, var, params))
        if prim.is_view:
            self.view_vars.add(var)
        return Tracer(var, self), any_tensor, requires_grad

    def assign(self, tensor: Tensor, value) -> None:
        """An in-place write: ``tensor`` now holds ``value`` (a tracer or constant)."""
        data = tensor._data
        if type(data) is Tracer and data.var in self.view_vars:
            raise NotImplementedError(
                f"in-place modification of a view inside ug.jit is not supported "
                f"(at {user_frame()}): write to the base tensor, or clone() the view first")
        if type(value) is not Tracer:
            value = self.constant(value, tensor)
        tensor._data = value

    def constant(self, value, like) -> Tracer:
        """A tracer holding a constant array (broadcast to ``like``'s shape and dtype)."""
        from ..ops._primitive import PRIMITIVES
        array = np.asarray(value, dtype=like.dtype)
        var = Var(tuple(like.shape), array.dtype)
        self.eqns.append(Eqn(PRIMITIVES["broadcast_to"], [Literal(array)], var,
                             {"shape": tuple(like.shape)}))
        return Tracer(var, self)

    # ---------------------------------------------------------------- finishing
    def effects(self) -> Effects:
        """Data and ``.grad`` changes of the captured tensors (call before the trace ends)."""
        effects = Effects()
        for record in self.captures.values():
            tensor = record.tensor
            if tensor._data is not record.tracer:
                effects.data.append((record, self.atom(tensor._data)))
            grad = tensor._grad
            initial = record.grad_tracer if record.grad_var is not None else record.grad
            if grad is initial and (grad is None or record.grad_tracer is None
                                    or grad._data is record.grad_tracer._data):
                continue
            effects.grads.append((record, None if grad is None else self.atom(grad._data)))
        return effects

    def atom(self, value):
        """The graph operand for a value found in the traced function's results."""
        if type(value) is Tracer:
            if value.trace is not self:
                raise _leak_error(value)
            return value.var
        return Literal(value)

    def restore(self) -> None:
        """Put every captured tensor back as it was before the trace."""
        for record in self.captures.values():
            tensor = record.tensor
            tensor._data = record.data
            tensor._grad = record.grad
            tensor._grad_fn = record.grad_fn
            tensor._requires_grad = record.requires_grad
            tensor._extra = record.extra
            if record.version is not None:
                tensor._vc[0] = record.version
            elif tensor._vc is not None:
                tensor._vc = None


def _leak_error(tracer: Tracer) -> TracerLeakError:
    state = "an earlier" if not tracer.trace.active else "another"
    return TracerLeakError(
        f"a traced value ({tracer.var.type_text()}) from {state} ug.jit trace was used at "
        f"{user_frame()}: traced values exist only while their function is traced; return "
        f"them from the jitted function instead of storing them")


def current_trace() -> Trace | None:
    """The trace active on this thread, if any."""
    return _local.trace


def ensure_captured(tensor: Tensor) -> None:
    """Before an in-place write under tracing: make the tensor's current contents traced."""
    trace = _local.trace
    if trace is not None and type(tensor._data) is not Tracer:
        trace.capture(tensor)
