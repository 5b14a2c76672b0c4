"""Tracing: run a Python function on abstract values and record every primitive it binds.

While a :class:`Trace` is active (``unigrad._state.local.trace``), :func:`bind`
sends every primitive here instead of computing it: the primitive's shape rule
gives the output's shape and dtype, an :class:`~unigrad.graph.ir.Eqn` is
appended, and the result is a :class:`Tracer` (an abstract array standing where
a backend array would be, inside a Tensor or bare). Nothing is computed, except
primitives whose operands are all constants (folded on the spot).

Tensors that already hold concrete data when the trace first uses them (the
function's arguments, Parameters and other tensors it closes over) become
graph inputs, and are never modified: the trace keeps its own view of each
(:class:`Capture`): the traced value of its contents (a :class:`Storage`,
shared by tensors sharing the array, updated by in-place writes) and its
traced ``.grad``. Everything that reads or writes a captured tensor while the
function is traced goes through that view (:meth:`Trace.read`,
:meth:`Trace.assign`, :meth:`Trace.grad_of`, :meth:`Trace.set_grad`,
:func:`traced_data`), so other threads keep using the same tensors eagerly
while a function compiles. What changed is reported as *effects* for the
caller to replay after each call.

Reading a traced value as a Python number (``if x > 0:``, ``float(x)``,
``x.item()``) raises :class:`ConcretizationError` naming the user's line.

Example:
    >>> import unigrad as ug
    >>> from unigrad.graph.tracer import Trace
    >>> x = ug.ones(3)
    >>> with Trace() as trace:
    ...     y = ug.tanh(x * 2.0)
    ...     with ug.no_grad():
    ...         _ = x.add_(1.0)           # written in the trace's view only
    >>> [eqn.prim.name for eqn in trace.eqns]
    ['mul', 'tanh', 'add']
    >>> x                                 # the tensor itself never changed
    tensor([1., 1., 1.])
    >>> [(record.tensor is x, var is record.var) for record, var in trace.effects().data]
    [(True, False)]
"""

from __future__ import annotations

import os
import traceback
import weakref
from dataclasses import dataclass, field

import numpy as np

from .. import _state
from ..backend import ndarray
from ..interpreters import pop, push
from ..interpreters.array import AbstractArray
from ..interpreters.tracing import TraceInterpreter
from ..tensor import Tensor, _make_tensor
from .dynamic import dynamic_arrays, lift
from .ir import Eqn, Literal, Var, abstract_operand, is_impure

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
        f"not known while the function is traced. ug.jit converts Python if/while/for on "
        f"traced values of functions whose source it can read (unless autograph=False); "
        f"otherwise use ug.cond(pred, true_fn, false_fn, *operands), ug.while_loop, "
        f"ug.fori_loop or ug.where(condition, x, y) to select on data, or mark the argument "
        f"static with ug.jit(fn, static_argnums=...) so each value gets its own graph.")


class Tracer(AbstractArray):
    """An abstract array: a graph variable of one trace.

    It stands where a backend array would be (``Tensor._data``, the arrays vjp
    rules receive); its NumPy-like surface (:class:`~unigrad.interpreters.array.AbstractArray`)
    binds primitives, which the trace records.
    """

    __slots__ = ("var", "trace")

    def __init__(self, var: Var, trace: Trace):
        self.var = var
        self.trace = trace

    @property
    def shape(self) -> tuple:
        return self.var.shape

    @property
    def dtype(self) -> np.dtype:
        return self.var.dtype

    @property
    def size(self) -> int:
        return self.var.size

    def __repr__(self) -> str:
        return f"Tracer<{self.var.type_text()}>"

    def _concrete_error(self, what: str) -> Exception:
        return _concretization_error(what)

    def _check_alive(self) -> None:
        trace = _local.trace
        if self.trace is not trace and (trace is None or not trace.encloses(self.trace)):
            raise _leak_error(self)

    def __setitem__(self, index, value):
        raise TypeError("a traced value cannot be assigned to in place; use Tensor operations "
                        "(x[index] = value on a Tensor is traced)")


def _is_tracer(value) -> bool:
    return type(value) is Tracer


def _is_foreign(data) -> bool:
    """Whether ``data`` stands for an array of another interpreter (a vmap batch): neither a
    concrete array to capture nor a value of a trace."""
    return type(data) is not np.ndarray and type(data) is not Tracer \
        and hasattr(data, "__unigrad_abstract__")


# ============================================================================= the trace

class Storage:
    """One concrete array the trace read: the graph input standing for it at each call and
    its current traced value (the latest in-place write to it, or the input itself).

    Tensors sharing the array (a detached alias, a lifted handle, ``.data``) share it, as
    they share the array in eager mode.
    """

    __slots__ = ("data", "var", "tracer", "value", "owner")

    def __init__(self, data, var: Var, tracer: Tracer):
        self.data = data        # the array itself (kept alive: its id is the storage's key)
        self.var = var          # the graph input reading the array at each call
        self.tracer = tracer    # the input's value
        self.value = tracer     # the current value: a Tracer of this trace
        self.owner: Capture | None = None  # the tensor whose data effect writes it back


@dataclass(eq=False)
class Capture:
    """A tensor from outside the trace that the trace read or wrote, and its view of it.

    The tensor itself is never modified: its traced contents are ``storage.value`` and
    its traced ``.grad`` is ``grad`` (once ``grad_resolved``).
    """

    tensor: Tensor
    storage: Storage
    requires_grad: bool
    source: object = None              # ("arg", index) for arguments, None for captures
    alias: bool = False                # shares the storage of a tensor captured before it
    grad_resolved: bool = False        # whether .grad was read or assigned during the trace
    grad: Tensor | None = None         # the traced .grad (once resolved)
    grad_var: Var | None = None        # an input reading the tensor's existing .grad
    grad_tracer: Tensor | None = None  # the Tensor standing for that existing .grad
    grad_present: bool | None = None   # guard: whether .grad must be present (None: any)
    grad_outer: Tensor | None = None   # the .grad read (an enclosing trace's view of it)

    @property
    def var(self) -> Var:
        """The graph input of the tensor's contents."""
        return self.storage.var

    @property
    def tracer(self) -> Tracer:
        """The traced value of the tensor's contents at the start of the trace."""
        return self.storage.tracer

    @property
    def value(self) -> Tracer:
        """The traced value of the tensor's contents now."""
        return self.storage.value


@dataclass
class Effects:
    """What a traced function did to tensors besides returning values."""

    data: list = field(default_factory=list)   # (Capture, atom): new contents of tensor._data
    grads: list = field(default_factory=list)  # (Capture, atom or None): new .grad


class Trace:
    """One tracing session (a context manager installing itself on the thread).

    Tensors from outside the trace are *captured* on first use: their contents
    become a graph input, and the trace keeps its own view of them (their
    current traced value and ``.grad``, see :class:`Capture`); the tensors
    themselves are never modified, so other threads keep using them eagerly
    while a function compiles. Tensors made during the trace are the trace's
    own and are written directly.
    """

    def __init__(self):
        self.inputs: list[Var] = []
        self.eqns: list[Eqn] = []
        self.captures: dict[int, Capture] = {}   # id(tensor) -> its view
        self.storages: dict[int, Storage] = {}   # id(concrete array) -> its traced storage
        self.created: dict = {}  # id -> weakref of tensors made during the trace (constants)
        self.guards: list = []  # (read, value): Python state the graph was traced with
        self.view_vars: set = set()
        self.active = False
        self._previous = None
        self._interpreter = None

    def __enter__(self) -> Trace:
        self._previous = _local.trace
        _local.trace = self
        self.active = True
        self._interpreter = TraceInterpreter(self)
        push(self._interpreter)
        return self

    def __exit__(self, *exc_info) -> None:
        _local.trace = self._previous
        self.active = False
        pop(self._interpreter)

    def close(self) -> None:
        """Let go of the captured tensors (once the caller is done with the records), breaking
        the storage <-> record cycles so that they go at once, without the cyclic GC."""
        for storage in self.storages.values():
            storage.owner = None
        self.captures = {}
        self.storages = {}
        self.created = {}

    # ---------------------------------------------------------------- inputs
    def capture(self, tensor: Tensor, source=None) -> Capture:
        """The view of ``tensor``, made on first use: its current contents become a graph input.

        An argument (``source`` given) always gets its own input; another tensor
        sharing the array of one captured before it shares that tensor's storage.
        """
        record = self.captures.get(id(tensor))
        if record is not None:
            return record
        data = tensor._data
        if type(data) is Tracer and data.trace is self:
            raise ValueError("a tensor made during the trace has no contents to capture")
        if type(data) is Tracer and not self.encloses(data.trace):
            raise _leak_error(data)
        storage = None if source is not None else self._storage_of(data)
        alias = storage is not None
        if storage is None:
            var = Var(data.shape, data.dtype)
            self.inputs.append(var)
            storage = Storage(data, var, Tracer(var, self))
            self.storages.setdefault(id(data), storage)
        record = Capture(tensor, storage, tensor._requires_grad, source=source, alias=alias)
        if not alias:
            storage.owner = record
        self.captures[id(tensor)] = record
        return record

    def _storage_of(self, data) -> Storage | None:
        storage = self.storages.get(id(data))
        return storage if storage is not None and storage.data is data else None

    def encloses(self, other: Trace) -> bool:
        """Whether ``other`` is a trace this one was opened inside (a branch or loop body
        traced while ``other`` traces the enclosing function): its values are inputs here."""
        outer = self._previous if self.active else None
        while outer is not None:
            if outer is other:
                return True
            outer = outer._previous if outer.active else None
        return False

    def outer_value(self, tracer: Tracer) -> Storage:
        """The storage standing for a bare value of an enclosing trace (an input of this one)."""
        if not self.encloses(tracer.trace):
            raise _leak_error(tracer)
        storage = self._storage_of(tracer)
        if storage is None:
            var = Var(tracer.shape, tracer.dtype)
            self.inputs.append(var)
            storage = self.storages[id(tracer)] = Storage(tracer, var, Tracer(var, self))
        return storage

    def _record_of(self, tensor: Tensor) -> Capture | None:
        """The view of a tensor holding concrete data, captured now if needed; None for a
        constant made during the trace."""
        record = self.captures.get(id(tensor))
        if record is None:
            if self._storage_of(tensor._data) is None and self.is_created(tensor):
                return None
            record = self.capture(tensor)
        return record

    def read(self, tensor: Tensor):
        """The traced contents of ``tensor`` (capturing it on first use): a Tracer, or the
        concrete array of a constant made during the trace (or another interpreter's value,
        as it is)."""
        data = tensor._data
        if type(data) is Tracer and data.trace is self:
            return data
        if _is_foreign(data):
            return data
        record = self._record_of(tensor)
        return data if record is None else record.storage.value

    def peek(self, tensor: Tensor):
        """The traced contents of ``tensor`` if the trace has them, else ``tensor._data``
        (nothing is captured)."""
        data = tensor._data
        if (type(data) is Tracer and data.trace is self) or _is_foreign(data):
            return data
        record = self.captures.get(id(tensor))
        if record is not None:
            return record.storage.value
        storage = self._storage_of(data)
        return data if storage is None else storage.value

    def is_traced(self, tensor: Tensor) -> bool:
        """Whether ``tensor``'s contents are abstract in this trace (no values to read): also
        when an enclosing trace (of the function around a branch or loop body) traces it."""
        data = tensor._data
        if _is_foreign(data):
            return False
        if type(data) is Tracer or id(tensor) in self.captures \
                or self._storage_of(data) is not None:
            return True
        outer = self._previous if self.active else None
        return outer is not None and outer.is_traced(tensor)

    def is_external(self, tensor: Tensor) -> bool:
        """Whether ``tensor`` comes from outside the trace (its contents are, or become on
        first use, a graph input), rather than being made during it."""
        data = tensor._data
        if type(data) is Tracer:
            return data.trace is not self  # an enclosing trace's value comes from outside
        if _is_foreign(data):
            return False
        return id(tensor) in self.captures or self._storage_of(data) is not None \
            or not self.is_created(tensor)

    def make_own(self, tensor: Tensor) -> None:
        """Before writing a tensor made during the trace: a constant becomes a traced value."""
        data = tensor._data
        if type(data) is not Tracer and not _is_foreign(data):
            tensor._data = self.constant(data, data)

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

    def check_concrete(self, tensor: Tensor, what: str) -> None:
        """Raise :class:`ConcretizationError` if ``tensor``'s value is abstract in this trace."""
        if self.is_traced(tensor):
            raise _concretization_error(what)

    # ---------------------------------------------------------------- .grad
    def _grad_record(self, tensor: Tensor) -> Capture | None:
        """The view holding ``tensor``'s traced ``.grad``; None for tensors made during the
        trace (their ``.grad`` is their own)."""
        data = tensor._data
        if type(data) is Tracer or _is_foreign(data):
            return None
        return self._record_of(tensor)

    def grad_of(self, tensor: Tensor):
        """``tensor.grad`` as the traced function sees it.

        A tensor from outside the trace that has a ``.grad`` gets it read as a
        graph input (and the graph is reused only while ``.grad`` is present).
        """
        record = self._grad_record(tensor)
        if record is None:
            return tensor._grad
        if not record.grad_resolved:
            record.grad_resolved = True
            outer = self._previous if self.active else None
            # inside a branch or loop body: the .grad the enclosing function sees at this point
            grad = tensor._grad if outer is None else outer.grad_of(tensor)
            record.grad_outer = grad
            record.grad_present = grad is not None
            if grad is not None:
                grad_data = grad._data
                record.grad_var = Var(grad_data.shape, grad_data.dtype)
                self.inputs.append(record.grad_var)
                record.grad_tracer = _make_tensor(Tracer(record.grad_var, self))
                record.grad = record.grad_tracer
        return record.grad

    def set_grad(self, tensor: Tensor, value) -> None:
        """``tensor.grad = value`` as seen by the traced function (replayed after each call)."""
        record = self._grad_record(tensor)
        if record is None:
            tensor._grad = value
            return
        record.grad_resolved = True  # assigned before any read: the old .grad is never read
        record.grad = value

    def accumulate_grad(self, tensor: Tensor, grad) -> None:
        """The backward pass adds ``grad`` (a Tensor or an array) into ``tensor.grad``."""
        if not isinstance(grad, Tensor):
            grad = _make_tensor(grad)
            if type(grad._data) is not Tracer:
                self.note_created(grad)
        current = self.grad_of(tensor)
        if current is not None:
            from ..ops.elementwise import add
            grad = add(current, grad)
        self.set_grad(tensor, grad)

    def clear_grad(self, tensor: Tensor, set_to_none: bool = True) -> None:
        """``zero_grad`` of one tensor: its traced ``.grad`` becomes None, or zeros."""
        if set_to_none:
            self.set_grad(tensor, None)
            return
        grad = self.grad_of(tensor)
        if grad is None:
            return
        if grad._grad_fn is not None:
            grad.detach_()
        else:
            grad._requires_grad = False
        grad.zero_()

    # ---------------------------------------------------------------- binding
    def bind(self, prim, args: tuple, params: dict):
        """Record ``prim(*args)``; returns ``(out, any_tensor, requires_grad)`` like eager bind."""
        operands = []
        any_tensor = requires_grad = traced = False
        captures = self.captures
        storages = self.storages
        for value in args:
            if isinstance(value, Tensor):
                any_tensor = True
                if value._requires_grad:
                    requires_grad = True
                data = value._data
                if type(data) is not Tracer or data.trace is not self:
                    record = captures.get(id(value))
                    if record is None:
                        record = self._record_of(value)
                        if record is None:  # a constant made during the trace
                            operands.append(Literal(data))
                            continue
                    data = record.storage.value
                    if record.alias and not value._requires_grad and record.storage.owner \
                            is not None and record.storage.owner.requires_grad:
                        data = self._gradient_stopped(data)  # a detached alias: no gradient
                operands.append(data.var)
                traced = True
            elif type(value) is Tracer:
                if value.trace is not self:
                    value = self.outer_value(value).value
                operands.append(value.var)
                traced = True
            else:
                storage = storages.get(id(value))
                if storage is not None and storage.data is value:  # a captured tensor's array
                    operands.append(storage.value.var)
                    traced = True
                else:
                    operands.append(Literal(value))
        if params and dynamic_arrays(params, _is_tracer):  # traced index arrays -> operands
            prim, params, dynamic = lift(prim, params, _is_tracer)
            for tracer in dynamic:
                if tracer.trace is not self:
                    tracer = self.outer_value(tracer).value
                operands.append(tracer.var)
            traced = True
        if not traced and not is_impure(prim, params):  # constants only: fold now (an impure op, a
            # random draw or a print, runs at every call of the compiled function instead)
            values = [operand.value for operand in operands]
            out = prim.impl(*values, **params) if params else prim.impl(*values)
            if not isinstance(out, ndarray) and hasattr(out, "dtype"):
                out = np.asarray(out)
            return out, any_tensor, requires_grad
        try:
            shape, dtype = prim.shape(*(abstract_operand(o) for o in operands), **params)
        except (ValueError, IndexError, TypeError) as error:
            from ..interpreters.eager import explain
            raise explain(prim, args, params, error) from error
        var = Var(shape, dtype)
        self.eqns.append(Eqn(prim, operands, var, params))
        if prim.is_view:
            self.view_vars.add(var)
        return Tracer(var, self), any_tensor, requires_grad

    def _gradient_stopped(self, tracer: Tracer) -> Tracer:
        """``stop_gradient`` of a traced value (what reading a detached alias of a tensor that
        requires grad records: differentiating the graph must not flow through it)."""
        from ..ops.elementwise import stop_gradient_p
        var = Var(tracer.shape, tracer.dtype)
        self.eqns.append(Eqn(stop_gradient_p, [tracer.var], var, {}))
        return Tracer(var, self)

    def assign(self, tensor: Tensor, value) -> None:
        """An in-place write: ``tensor`` now holds ``value`` (a tracer or constant).

        A tensor from outside the trace is written in the trace's view only (its
        storage's traced value; the write is replayed after each call); a tensor
        made during the trace is written directly.
        """
        data = tensor._data
        if type(data) is Tracer and data.trace is self:
            self._check_not_view(data)
            record = None
        elif _is_foreign(data):
            record = None
        else:
            record = self._record_of(tensor)
        if record is None:  # the trace's own tensor
            if type(value) is not Tracer:
                value = self.constant(value, data)
            tensor._bump_version()
            tensor._data = value
            return
        storage = record.storage
        if tensor._extra is not None and tensor._extra.get("inference") \
                and not _local.inference_mode:
            tensor._bump_version()  # raises: an inference tensor outside inference mode
        if type(value) is not Tracer:
            value = self.constant(value, data)
        storage.value = value

    @staticmethod
    def _check_not_view(data: Tracer) -> None:
        if data.var in data.trace.view_vars:
            raise NotImplementedError(
                f"in-place modification of a view inside ug.jit is not supported "
                f"(at {user_frame()}): write to the base tensor, or clone() the view first")

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
        for record in list(self.captures.values()):
            storage = record.storage
            if not record.alias and storage.value is not storage.tracer:
                effects.data.append((record, storage.value.var))
            if not record.grad_resolved:
                continue
            grad = record.grad
            if grad is None:
                if record.grad_present is not False:  # it may be present at a later call
                    effects.grads.append((record, None))
                continue
            data = grad._data
            if grad is record.grad_tracer and type(data) is Tracer and data.var is record.grad_var:
                continue  # the .grad read at the start, unchanged
            effects.grads.append((record, self.tensor_atom(grad)))
        return effects

    def tensor_atom(self, tensor: Tensor):
        """The graph operand holding ``tensor``'s traced contents (capturing it if needed)."""
        return self.atom(self.read(tensor))

    def atom(self, value):
        """The graph operand for a value found in the traced function's results."""
        if type(value) is Tracer:
            if value.trace is not self:
                return self.outer_value(value).value.var
            return value.var
        return Literal(value)


def _leak_error(tracer: Tracer) -> TracerLeakError:
    state = "an earlier" if not tracer.trace.active else "another"
    return TracerLeakError(
        f"a traced value ({tracer.var.type_text()}) from {state} ug.jit trace was used at "
        f"{user_frame()}: traced values exist only while their function is traced; return "
        f"them from the jitted function instead of storing them")


def current_trace() -> Trace | None:
    """The trace active on this thread, if any."""
    return _local.trace


def ensure_captured(tensor: Tensor):
    """Under tracing: make the tensor's current contents traced; returns them (the tensor's
    own data when no trace is active)."""
    trace = _local.trace
    if trace is None:
        return tensor._data
    return trace.read(tensor)


def traced_data(tensor: Tensor):
    """``tensor._data`` as the current thread sees it: its traced value while this thread
    traces a function that captured it (the tensor itself keeps its concrete array)."""
    trace = _local.trace
    if trace is None:
        return tensor._data
    return trace.peek(tensor)


def traced_grad(tensor: Tensor):
    """``tensor._grad`` as the current thread sees it (the trace's view while tracing)."""
    trace = _local.trace
    if trace is None:
        return tensor._grad
    return trace.grad_of(tensor)
