"""``ug.jit``: trace a function once per signature, optimize the graph, replay generated code.

A call looks up the signature (pytree structure, shapes, dtypes, requires_grad
of tensor leaves, values of other leaves and static arguments, grad mode and
autocast). A new signature is traced (:mod:`unigrad.graph.tracer`), optimized
(:mod:`unigrad.graph.passes`, fusion, buffer reuse) and compiled
(:mod:`unigrad.graph.codegen`); later calls run the generated function on the
current arrays of the arguments and of the tensors the function reads (its
Parameters), write back what it updated in place (parameters, ``.grad``) and
return Tensors. Tracing never modifies those tensors (the trace keeps its own
view of them), so other threads may use them eagerly while a function
compiles, and several threads may call (and compile) jitted functions at once.

Gradients: ``ug.jit(ug.grad(f))`` and ``ug.jit(ug.value_and_grad(f))`` trace the
transform itself, so the vjp rules run on abstract values and one graph holds
the forward (once) and the backward. ``ug.grad(ug.jit(f))`` (or ``backward()``
through a jitted call, or a ``GradientTape`` over a ``tf.function``) records one
node (``JitCallBackward``) and runs the forward once: the first such call of a
signature traces the vjp of its graph with symbolic cotangents and splits it
(:mod:`unigrad.graph.partition`) into a forward program, which also returns the
*residuals* the backward reads, saved on the node like any saved tensor (freed
after a backward without ``retain_graph``), and a backward program mapping the
residuals and the cotangents to the input cotangents. ``Compiled.vjp_graphs()``
prints both. A backward that must itself be differentiable (``create_graph=True``)
runs the jitted vjp of the whole traced graph instead, which recomputes the
forward but is differentiable to any order. A call that writes tensors in place
(a BatchNorm's running statistics) is on the tape too: its forward program also
returns their new contents, written after it ran, and the node keeps copies of
the inputs they overwrite. A call that writes ``.grad`` or updates a tensor that
requires grad (a training step: backward, then the optimizer) returns its
results detached. Under forward mode (``ug.jvp``) the traced graph is evaluated
op by op with the jvp rules. An error the generated code lets through is raised
as eager mode raises it (``numpy.linalg.LinAlgError`` as ``ug.linalg.LinAlgError``).

Example:
    >>> import unigrad as ug
    >>> @ug.jit
    ... def f(x):
    ...     return ug.tanh(x * 2.0).sum()
    >>> f(ug.ones(3))
    tensor(2.8921)
    >>> f(ug.zeros(3)), f.trace_count
    (tensor(0.), 1)
    >>> ug.jit(ug.grad(f))(ug.zeros(2))
    tensor([2., 2.])
"""

from __future__ import annotations

import functools
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .. import _state
from ..autograd.function import Function
from ..backend import ndarray
from ..tensor import Tensor, _make_tensor
from ..transforms.tree import tree_flatten, tree_leaves, tree_unflatten
from . import codegen
from .ir import Graph, Literal, Var
from .partition import VjpGraphs, differentiated_results, pullback, record_forward
from .tracer import Effects, Trace, Tracer

_local = _state.local

DEFAULT_CACHE_SIZE = 64
REPORTS_KEPT = 64  # compile reports a function keeps (its most recent compiles)


@dataclass
class CompileReport:
    """What compiling one signature cost and produced."""

    signature: str
    trace_seconds: float
    optimize_seconds: float
    codegen_seconds: float
    eqns_traced: int
    eqns_optimized: int
    kernels: int
    #: the first run of the generated code, which compiles its fused loops (numba compiles
    #: lazily, on first use); None until the signature has run once
    first_run_seconds: float | None = None

    @property
    def total_seconds(self) -> float:
        """Trace, optimize and code generation (the first run is reported separately)."""
        return self.trace_seconds + self.optimize_seconds + self.codegen_seconds

    def __str__(self) -> str:
        first = "" if self.first_run_seconds is None else (
            f", first run (loop compilation included) {self.first_run_seconds * 1e3:.1f} ms")
        return (f"{self.signature}: traced {self.eqns_traced} ops in "
                f"{self.trace_seconds * 1e3:.1f} ms, optimized to {self.eqns_optimized} "
                f"({self.kernels} kernels) in {self.optimize_seconds * 1e3:.1f} ms, generated "
                f"code in {self.codegen_seconds * 1e3:.1f} ms{first}")


@dataclass
class _Output:
    """How to rebuild one output leaf: from a graph output, a tensor object, or a constant."""

    kind: str            # "tensor", "array", "object", "argument", "python"
    value: object = None  # the output index, the object, the argument index, or the constant


@dataclass
class Compiled:
    """One signature's graph, generated code and the bookkeeping to call it."""

    raw_graph: Graph
    graph: Graph
    program: codegen.Program
    sources: list          # per graph input: ("arg", i) | ("data", tensor) | ("grad", tensor|i)
    guards: list           # (tensor or arg index, shape, dtype, requires_grad, grad_present)
    outputs: list          # _Output per output leaf
    out_treedef: object
    num_results: int       # graph outputs that are results (the rest are effects)
    data_effects: list     # (tensor or arg index, graph output index)
    grad_effects: list     # (tensor or arg index, graph output index or None)
    differentiable: list   # indices of graph inputs that required grad while tracing
    differentiable_results: tuple  # indices of results that required grad while tracing
    report: CompileReport
    # outputs of the program that are its own arrays (constants): handed out as copies
    constant_outputs: frozenset = frozenset()
    # whether a call with grad mode on is one op on the tape (see _on_tape)
    on_tape: bool = False
    # indices of the graph inputs the call's effects overwrite (the tape saves their copies)
    overwritten_inputs: frozenset = frozenset()
    python_guards: list = field(default_factory=list)  # (read, value) that must still hold
    # (weakref of a tensor, owner): a tensor read as sharing the owner's storage (a detached
    # alias); while it lives, it must still share it for the graph to be reused
    alias_guards: list = field(default_factory=list)
    _vjp: object = field(default=None, repr=False)
    # the forward/backward programs of a call on the tape (_SplitPrograms), or the error
    # that building them raised; built by the first such call
    _split: object = field(default=None, repr=False)
    _split_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def source(self) -> str:
        return self.program.source

    def vjp_graphs(self) -> VjpGraphs:
        """The graphs a call on the tape runs: the forward graph returns the results, then
        the residuals; the backward graph reads the residuals, then the cotangents.

        Example:
            >>> import unigrad as ug
            >>> f = ug.jit(lambda x: ug.exp(x).sum())
            >>> print(f.lower(ug.zeros(2, requires_grad=True)).vjp_graphs())
            # forward: returns 1 result, then 1 residual
            graph(%0: f32[2]) {
              %1: f32[2] = exp(%0)
              %2: f32[] = sum(%1, axes=(0,), keepdims=False)
              return (%2, %1)
            }
            # backward: reads 1 residual (0 of them inputs), then 1 cotangent
            graph(%0: f32[2], %1: f32[]) {
              %2: f32[1] = reshape(%1, shape=(1,))
              %3: f32[2] = broadcast_to(%2, shape=(2,))
              %4: f32[2] = mul(%3, %0)
              return (%4)
            }
        """
        if not self.differentiable_results:
            raise ValueError("vjp_graphs: no result of this signature requires grad (call "
                             "the function with an input that requires grad)")
        if not self.on_tape:
            raise ValueError("vjp_graphs: this signature writes .grad or updates a tensor "
                             "that requires grad (it ran its own backward), so its calls are "
                             "not differentiated through the tape")
        split = _split_programs(self)
        if isinstance(split, Exception):
            raise split
        if split.fused or self.graph is self.raw_graph:
            return split.graphs
        import dataclasses
        return dataclasses.replace(split.graphs, forward=_fused(split.graphs.forward),
                                   backward=_fused(split.graphs.backward))

    def to_dot(self) -> str:
        from ..viz import to_dot
        return to_dot(self.graph)

    def __str__(self) -> str:
        return self.graph.text()


class JitFunction:
    """A function compiled per signature (see :func:`jit`).

    Safe to call from several threads: tracing never modifies the tensors it
    reads (other threads keep using them eagerly meanwhile), the cache is
    shared, and a thread calling with a signature another thread is compiling
    waits for that compile instead of tracing again.
    """

    def __init__(self, fn: Callable, static_argnums=(), cache_size: int = DEFAULT_CACHE_SIZE,
                 optimize: bool = True, extra_key: Callable | None = None,
                 autograph: bool = True):
        if not callable(fn):
            raise TypeError(f"jit expected a callable 'fn', got {type(fn).__name__}")
        if isinstance(static_argnums, int):
            static_argnums = (static_argnums,)
        if not all(isinstance(i, int) and not isinstance(i, bool) for i in static_argnums):
            raise TypeError(f"static_argnums must be an int or a tuple of ints, got "
                            f"{static_argnums!r}")
        if not isinstance(cache_size, int) or cache_size < 1:
            raise ValueError(f"cache_size must be a positive int, got {cache_size!r}")
        self.fn = fn
        self.static_argnums = tuple(static_argnums)
        self.cache_size = cache_size
        self.optimize = optimize
        self.extra_key = extra_key
        self.autograph = bool(autograph)
        self._converted = None  # fn with its control flow converted (autograph), once traced
        # Results differentiable by the graph's math rather than by the tape seen while
        # tracing (the jitted vjp of a call: it detaches and re-lifts its primals).
        self.all_results_differentiable = False
        self.trace_count = 0
        # the reports of the most recent compiles (bounded: a function called with ever new
        # shapes keeps no growing history)
        self.reports: deque[CompileReport] = deque(maxlen=max(REPORTS_KEPT, cache_size))
        self._cache: OrderedDict = OrderedDict()
        # all-Tensor positional calls: (shapes/dtypes/requires_grad, modes) -> last compiled
        self._fast: dict = {}
        self._last: Compiled | None = None
        self._bound: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # per instance
        # the cache is shared by the threads calling the function: one lock guards it, and a
        # signature being compiled by one thread is waited for by the others
        self._lock = threading.RLock()
        self._compiling: dict = {}  # signature -> threading.Event set when its compile ends
        functools.update_wrapper(self, fn, updated=())

    # ---------------------------------------------------------------- public
    def __call__(self, *args, **kwargs):
        if getattr(_local, "recorders", None):  # TensorFlow-style tapes record the call
            return _recorded_call(self._call, args, kwargs)
        return self._call(*args, **kwargs)

    def _call(self, *args, **kwargs):
        if _local.trace is not None:  # inside another trace: inline
            return self._traced_call(args, kwargs)
        interpreter = _local.interpreter
        if interpreter is not None and _batching(interpreter):  # inside vmap: run op by op
            return self._traced_call(args, kwargs)
        compiled, leaves = self._compiled_for(args, kwargs)
        if _local.forward_levels:
            return _interpret_call(compiled, leaves)
        return _run(compiled, leaves)

    def _traced_call(self, args: tuple, kwargs: dict):
        """``fn(*args, **kwargs)`` as traced: converted with ``autograph`` (and so are the
        Cells it calls, through :data:`unigrad._state.local.autograph`)."""
        previous = _local.autograph
        _local.autograph = self.autograph
        try:
            return self._function_to_trace()(*args, **kwargs)
        finally:
            _local.autograph = previous

    def _function_to_trace(self) -> Callable:
        """``fn``, with its Python control flow on traced values converted to control-flow
        primitives unless ``autograph=False`` (:mod:`unigrad.graph.autograph`)."""
        if not self.autograph:
            return self.fn
        converted = self._converted
        if converted is None:
            from .autograph import convert
            converted = self._converted = convert(self.fn)
        return converted

    def lower(self, *args, **kwargs) -> Compiled:
        """The compiled form for these arguments (``.graph``, ``.source``, ``.to_dot()``)."""
        return self._compiled_for(args, kwargs)[0]

    @property
    def graph(self) -> Graph | None:
        """The optimized graph of the most recently used signature."""
        return None if self._last is None else self._last.graph

    def compile_report(self) -> list[CompileReport]:
        """One report per compile, oldest first (trace, optimize and codegen times), for
        the last ``max(64, cache_size)`` compiles."""
        return list(self.reports)

    def clear_cache(self) -> None:
        """Forget every compiled signature (the next calls trace again)."""
        with self._lock:
            self._cache.clear()
            self._fast.clear()
            self._last = None

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        try:
            bound = self._bound.get(instance)
        except TypeError:  # not weak-referenceable: a fresh compiled method each access
            bound = None
        if bound is not None:
            return bound
        with self._lock:  # one compiled method per instance, whichever thread asks first
            try:
                bound = self._bound.get(instance)
            except TypeError:
                bound = None
            if bound is None:
                bound = JitFunction(self.fn.__get__(instance, owner), self.static_argnums,
                                    self.cache_size, self.optimize, self.extra_key,
                                    self.autograph)
                try:
                    self._bound[instance] = bound
                except TypeError:
                    pass
        return bound

    def __repr__(self) -> str:
        return f"<ug.jit of {getattr(self.fn, '__qualname__', self.fn)!r}>"

    # ---------------------------------------------------------------- cache
    def _compiled_for(self, args: tuple, kwargs: dict):
        fast_key = None
        if not kwargs and not self.static_argnums:
            fast_key = self._fast_key(args)
            compiled = self._fast.get(fast_key) if fast_key is not None else None
            if compiled is not None:
                leaves = list(args)
                if _guards_hold(compiled, leaves):
                    self._last = compiled
                    return compiled, leaves
        static = []
        dynamic = list(args)
        for index in self.static_argnums:
            position = index if index >= 0 else len(args) + index
            if not 0 <= position < len(args):
                raise ValueError(f"static_argnums {index} is out of range for {len(args)} "
                                 f"positional arguments")
            value = args[position]
            try:
                hash(value)
            except TypeError:
                raise TypeError(f"static argument {index} must be hashable, got "
                                f"{type(value).__name__}") from None
            static.append((position, value))
            dynamic[position] = None
        leaves, treedef = tree_flatten((tuple(dynamic), kwargs))
        key = (treedef, tuple(static), tuple(_leaf_key(leaf) for leaf in leaves),
               _repeated_leaves(leaves), _local.grad_enabled, _local.autocast_dtype,
               None if self.extra_key is None else self.extra_key())
        while True:
            with self._lock:
                variants = self._cache.get(key)
                if variants is not None:
                    self._cache.move_to_end(key)
                    for compiled in variants:
                        if _guards_hold(compiled, leaves):
                            self._last = compiled
                            if fast_key is not None:
                                self._fast[fast_key] = compiled
                            return compiled, leaves
                pending = self._compiling.get(key)
                if pending is None:  # this thread compiles the signature
                    pending = self._compiling[key] = threading.Event()
                    self.trace_count += 1
                    break
            pending.wait()  # another thread compiles this signature: then look again
        try:
            compiled = self._compile(args, kwargs, leaves, treedef, dict(static), key)
            with self._lock:
                variants = self._cache.get(key)
                if variants is None:
                    variants = self._cache[key] = []
                    while len(self._cache) > self.cache_size:
                        self._cache.popitem(last=False)
                        self._fast.clear()
                variants.append(compiled)
                self._last = compiled
                if fast_key is not None:
                    self._fast[fast_key] = compiled
        finally:
            with self._lock:
                del self._compiling[key]
            pending.set()
        return compiled, leaves

    def _fast_key(self, args: tuple):
        """The signature of a call whose arguments are all Tensors (None otherwise)."""
        parts = []
        for arg in args:
            if not isinstance(arg, Tensor):
                return None
            data = arg._data
            parts.append((data.shape, data.dtype, arg._requires_grad))
        return (tuple(parts), _repeated_leaves(args), _local.grad_enabled, _local.autocast_dtype,
                None if self.extra_key is None else self.extra_key())

    def _compile(self, args, kwargs, leaves, treedef, static: dict, key) -> Compiled:
        trace = Trace()
        try:
            return self._trace_and_compile(trace, args, kwargs, leaves, treedef, static, key)
        finally:
            trace.close()  # the records are no longer needed: let go of the tensors they hold

    def _trace_and_compile(self, trace: Trace, args, kwargs, leaves, treedef, static: dict,
                           key) -> Compiled:
        start = time.perf_counter()
        with trace:
            call_leaves = []
            for index, leaf in enumerate(leaves):
                if isinstance(leaf, ndarray):
                    leaf = _make_tensor(leaf)
                if isinstance(leaf, Tensor):
                    if id(leaf) not in trace.captures:
                        trace.capture(leaf, source=("arg", index))
                call_leaves.append(leaf)
            dynamic_args, call_kwargs = tree_unflatten(treedef, call_leaves)
            call_args = [static[i] if i in static else a for i, a in enumerate(dynamic_args)]
            result = self._traced_call(call_args, call_kwargs)
            out_leaves, out_treedef = tree_flatten(result)
            effects = trace.effects()
            outputs, atoms, differentiable_results = _output_specs(trace, out_leaves)
            if self.all_results_differentiable:
                differentiable_results = tuple(i for i, atom in enumerate(atoms)
                                               if atom.dtype.kind in "fc")
        trace_seconds = time.perf_counter() - start
        sources, guards, differentiable, alias_guards = _sources_and_guards(trace, effects)
        guards_of = list(trace.guards)
        data_effects = []
        grad_effects = []
        num_results = len(atoms)
        for record, atom in effects.data:
            data_effects.append((_owner(record), len(atoms)))
            atoms.append(atom)
        for record, atom in effects.grads:
            grad_effects.append((_owner(record), None if atom is None else len(atoms)))
            if atom is not None:
                atoms.append(atom)
        raw = Graph(trace.inputs, trace.eqns, atoms)
        start = time.perf_counter()
        graph = optimize_graph(raw, donated=_donated(trace, effects)) if self.optimize else raw
        optimize_seconds = time.perf_counter() - start
        start = time.perf_counter()
        program = codegen.generate(graph)
        codegen_seconds = time.perf_counter() - start
        report = CompileReport(_describe_signature(key), trace_seconds, optimize_seconds,
                               codegen_seconds, len(raw.eqns), len(graph.eqns), len(graph.eqns))
        self.reports.append(report)
        return Compiled(raw, graph, program, sources, guards, outputs, out_treedef, num_results,
                        data_effects, grad_effects, differentiable, differentiable_results, report,
                        python_guards=guards_of, alias_guards=alias_guards,
                        constant_outputs=_constant_outputs(graph),
                        on_tape=_on_tape(effects, differentiable_results),
                        overwritten_inputs=_overwritten_inputs(trace, effects))


def jit(fn: Callable | None = None, *, static_argnums=(), cache_size: int = DEFAULT_CACHE_SIZE,
        optimize: bool = True, autograph: bool = True):
    """Compile ``fn`` to a graph per signature and replay it (MindSpore GRAPH_MODE, ``jax.jit``).

    ``fn`` may be a function, a Cell (its ``__call__``), or a transform such as
    ``ug.grad(f)``; it can be used as ``@ug.jit`` or ``@ug.jit(static_argnums=1)``.
    Arguments are pytrees; Tensor (and NumPy array) leaves are traced by shape
    and dtype, other leaves and ``static_argnums`` are part of the signature by
    value. Parameters and other tensors the function reads are inputs read at
    each call; in-place updates and ``.grad`` assignments are written back.

    With ``autograph`` (the default), Python ``if``/``while``/``for ... in
    range(n)`` whose condition (or ``n``) is a traced value become ``cond``/
    ``while_loop``/``fori_loop`` (:mod:`unigrad.graph.autograph`), in ``fn`` and
    in the functions, methods and Cells it calls; ``autograph=False`` raises
    :class:`~unigrad.graph.tracer.ConcretizationError` on such statements instead.

    Example:
        >>> import unigrad as ug
        >>> @ug.jit
        ... def clip(x):
        ...     if x.abs().max() > 1.0:
        ...         x = x / x.abs().max()
        ...     return x
        >>> clip(ug.tensor([4.0, -2.0])), clip(ug.tensor([0.5, 0.2])), clip.trace_count
        (tensor([ 1.0000, -0.5000]), tensor([0.5000, 0.2000]), 1)
        >>> double = ug.jit(lambda x: x * 2)
        >>> double(ug.tensor([1.0, 2.0]))
        tensor([2., 4.])
        >>> print(double.lower(ug.tensor([1.0, 2.0])).graph)
        graph(%0: f32[2]) {
          %1: f32[2] = mul(%0, 2.0)
          return (%1)
        }
    """
    if fn is None:
        return lambda f: jit(f, static_argnums=static_argnums, cache_size=cache_size,
                             optimize=optimize, autograph=autograph)
    return JitFunction(fn, static_argnums, cache_size, optimize, autograph=autograph)


# ============================================================================= signatures

def _leaf_key(leaf):
    if isinstance(leaf, Tensor):
        data = leaf._data
        return ("tensor", data.shape, data.dtype, leaf._requires_grad)
    if isinstance(leaf, ndarray):
        return ("array", leaf.shape, leaf.dtype)
    try:
        hash(leaf)
    except TypeError:
        return ("object", id(leaf))
    return ("value", type(leaf), leaf)


def _repeated_leaves(leaves) -> tuple | None:
    """Which tensor arguments are the same object (the trace reads such a tensor once, so
    ``f(x, x)`` and ``f(x, y)`` need different graphs); None when all are distinct."""
    tensors = [id(leaf) for leaf in leaves if isinstance(leaf, (Tensor, ndarray))]
    if len(set(tensors)) == len(tensors):
        return None
    first: dict = {}
    return tuple(first.setdefault(identity, position) for position, identity in
                 enumerate(tensors))


def _describe_signature(key) -> str:
    parts = []
    for leaf in key[2]:
        if leaf[0] in ("tensor", "array"):
            parts.append(Var(leaf[1], leaf[2]).type_text())
        else:
            parts.append(repr(leaf[-1]))
    return f"({', '.join(parts)})"


def _resolve(owner, leaves: list):
    """The tensor an input or effect belongs to at this call (an argument, or a captured one)."""
    return leaves[owner] if isinstance(owner, int) else owner


def _owner(record):
    """Who an effect or input belongs to: an argument index, or the tensor itself."""
    return record.source[1] if record.source is not None else record.tensor


def _sources_and_guards(trace: Trace, effects: Effects):
    """Per graph input where a call reads it; the guards on the tensors the graph read; the
    inputs that required grad; and the aliases that must still share their storage."""
    from ..autograd.recording import is_proxy
    by_var = {}
    guards = []
    wants_grad = set()
    held = {id(record.tensor) for record, _ in effects.grads}
    alias_guards = []
    for record in trace.captures.values():
        owner = _owner(record)
        if record.grad_var is not None:
            by_var[record.grad_var] = ("grad", owner)
        if record.alias:  # reads (and writes) another tensor's storage
            if record.grad_var is not None:
                guards.append((owner, record.var.shape, record.var.dtype, record.requires_grad,
                               record.grad_present))
            elif id(record.tensor) not in held and not is_proxy(record.tensor):
                # (a tape's proxy of an argument is made anew at every call: no guard)
                alias_guards.append((weakref.ref(record.tensor), _owner(record.storage.owner)))
            continue
        by_var[record.var] = ("arg", owner) if record.source is not None else ("data", owner)
        if record.requires_grad and record.var.dtype.kind in "fc":
            wants_grad.add(record.var)
        guards.append((owner, record.var.shape, record.var.dtype, record.requires_grad,
                       record.grad_present))
    sources = [by_var[var] for var in trace.inputs]
    differentiable = [i for i, var in enumerate(trace.inputs) if var in wants_grad]
    return sources, guards, differentiable, alias_guards


def _guards_hold(compiled: Compiled, leaves: list) -> bool:
    for read, value in compiled.python_guards:
        if read() != value:
            return False
    for ref, owner in compiled.alias_guards:
        alias = ref()
        if alias is not None:  # a tensor read as sharing another one's storage still does
            tensor = leaves[owner] if owner.__class__ is int else owner
            if alias._data is not (tensor if isinstance(tensor, ndarray) else tensor._data):
                return False
    for owner, shape, dtype, requires_grad, grad_present in compiled.guards:
        tensor = leaves[owner] if owner.__class__ is int else owner
        if isinstance(tensor, ndarray):
            continue
        data = tensor._data
        if data.shape != shape or data.dtype != dtype or tensor._requires_grad != requires_grad:
            return False
        if grad_present is not None and (tensor._grad is not None) != grad_present:
            return False
    return True


def _output_specs(trace: Trace, out_leaves: list):
    """Per output leaf its _Output, the graph atoms of the results, and the indices of the
    results that required grad while tracing (the others are constants to autograd)."""
    outputs = []
    atoms = []
    differentiable = []
    for leaf in out_leaves:
        if isinstance(leaf, Tensor):
            atom = trace.tensor_atom(leaf)
            record = trace.captures.get(id(leaf))
            if record is not None and not record.alias and record.value is record.tracer:
                # a tensor from outside, unchanged: the object itself
                outputs.append(_Output("argument", record.source[1]) if record.source is not None
                               else _Output("object", leaf))
                continue
            outputs.append(_Output("tensor", len(atoms)))
            if leaf._requires_grad:
                differentiable.append(len(atoms))
            atoms.append(atom)
        elif type(leaf) is Tracer:
            outputs.append(_Output("array", len(atoms)))
            atoms.append(trace.atom(leaf))
        else:
            outputs.append(_Output("python", leaf))
    return outputs, atoms, tuple(differentiable)


def _on_tape(effects: Effects, differentiable_results: tuple) -> bool:
    """Whether a call (grad mode on) is recorded as one op whose results require grad: it
    returns such a result and has not run a backward itself. A function that writes ``.grad``
    or updates a tensor requiring grad (a training step: backward, then an optimizer update)
    returns its results detached, as its eager results could not be differentiated again."""
    return bool(differentiable_results) and not effects.grads and not any(
        record.requires_grad for record, _ in effects.data)


def _overwritten_inputs(trace: Trace, effects: Effects) -> frozenset:
    """The indices of the graph inputs whose tensors the effects overwrite: the contents of
    a tensor written in place, the ``.grad`` of a tensor whose ``.grad`` is assigned."""
    written = {record.var for record, _ in effects.data}
    written.update(record.grad_var for record, _ in effects.grads)
    return frozenset(i for i, var in enumerate(trace.inputs) if var in written)


def _donated(trace: Trace, effects: Effects) -> dict:
    """Graph inputs whose buffers the outputs written back into them may reuse."""
    return {record.var: atom for record, atom in effects.data if isinstance(atom, Var)}


def optimize_graph(graph: Graph, donated: dict | None = None) -> Graph:
    """The standard pipeline: simplification passes, then fusion and buffer reuse."""
    from . import fusion, passes
    graph = passes.optimize(graph)
    graph = fusion.fuse_elementwise(graph)
    from .buffers import reuse_buffers
    return reuse_buffers(graph, donated or {})


# ============================================================================= running

def _read_inputs(compiled: Compiled, leaves: list) -> list:
    arrays = []
    for kind, owner in compiled.sources:
        if kind == "arg":
            leaf = leaves[owner]
            arrays.append(leaf if isinstance(leaf, ndarray) else leaf._data)
        elif kind == "data":
            arrays.append(owner._data)
        else:
            tensor = _resolve(owner, leaves)
            arrays.append(tensor._grad._data)
    return arrays


def _run(compiled: Compiled, leaves: list):
    if compiled.on_tape and _local.grad_enabled:
        return _differentiable_call(compiled, leaves)
    values = _call_program(compiled, _read_inputs(compiled, leaves))
    constants = compiled.constant_outputs
    _apply_effects(compiled, leaves, values, constants)
    return _build_outputs(compiled, leaves, values, None, constants)


def _call_program(compiled: Compiled, arrays, function: Callable | None = None) -> tuple:
    """Run the generated code (``function``, the signature's program by default); the first
    run of a signature is timed into its report. A backend error the code lets through is
    raised as eager mode raises it (NumPy's ``LinAlgError`` as unigrad's, a ``ValueError``
    as PyTorch's ``RuntimeError``...)."""
    function = compiled.program.function if function is None else function
    report = compiled.report
    try:
        if report.first_run_seconds is not None:
            return function(*arrays)
        start = time.perf_counter()
        values = function(*arrays)
        report.first_run_seconds = time.perf_counter() - start
        return values
    except (ValueError, IndexError, TypeError) as error:  # what eager's bind maps too
        mapped = _as_eager_error(error)
        if mapped is error:
            raise
        raise mapped from error


def _as_eager_error(error: Exception) -> Exception:
    """``error`` as the exception class eager mode raises for it (see
    :func:`unigrad.interpreters.eager.explain`), its message kept; ``error`` itself when
    eager raises its class."""
    from ..interpreters.eager import _pytorch_class
    cls = _pytorch_class(error, numbers_only=False)
    if cls is type(error):
        return error
    try:
        return cls(str(error))
    except TypeError:  # one of unigrad's exception classes that takes other arguments
        return RuntimeError(str(error))


def _apply_effects(compiled: Compiled, leaves: list, values, constants: frozenset) -> None:
    for owner, index in compiled.data_effects:
        tensor = _resolve(owner, leaves)
        value = values[index]
        if value is not tensor._data:
            tensor._data[...] = value
        tensor._bump_version()
    for owner, index in compiled.grad_effects:
        tensor = _resolve(owner, leaves)
        if index is None:
            tensor._grad = None
            continue
        value = values[index]
        grad = tensor._grad
        if grad is not None and grad._data.shape == value.shape and grad._grad_fn is None:
            grad._data[...] = value
            grad._bump_version()
        else:
            tensor._grad = _make_tensor(_owned(value, index in constants))


def _build_outputs(compiled: Compiled, leaves: list, values, wrapped,
                   constants: frozenset = frozenset()):
    """The call's result pytree, from the program's ``values`` (the outputs listed in
    ``constants`` are the program's own arrays: copied) or the ``wrapped`` Tensors."""
    results = []
    for spec in compiled.outputs:
        kind = spec.kind
        if kind == "tensor":
            results.append(wrapped[spec.value] if wrapped is not None
                           else _make_tensor(_owned(values[spec.value],
                                                    spec.value in constants)))
        elif kind == "array":
            results.append(wrapped[spec.value]._data if wrapped is not None
                           else _owned(values[spec.value], spec.value in constants))
        elif kind == "argument":
            results.append(leaves[spec.value])
        else:
            results.append(spec.value)
    return tree_unflatten(compiled.out_treedef, results)


def _fresh(value):
    if isinstance(value, ndarray):
        return value
    return np.array(value)


# ============================================================ autodiff through a call

def _evaluate(graph: Graph, values: list, apply: Callable) -> list:
    env = dict(zip(graph.inputs, values))
    for eqn in graph.eqns:
        args = [env[a] if isinstance(a, Var) else a.value for a in eqn.inputs]
        env[eqn.out] = apply(eqn.prim, *args, **eqn.params)
    return [env[a] if isinstance(a, Var) else a.value for a in graph.outputs]


def interpret(graph: Graph, values: list) -> list:
    """Evaluate ``graph`` op by op through ``bind`` (eager Tensors, or tracers when tracing)."""
    from ..ops._primitive import bind
    return _evaluate(graph, values, bind)


def interpret_arrays(graph: Graph, values: list) -> list:
    """Evaluate ``graph`` on backend arrays with each primitive's kernel (no Tensors)."""
    return _evaluate(graph, values, lambda prim, *args, **params: prim.impl(*args, **params))


def _input_tensors(compiled: Compiled, leaves: list) -> list:
    tensors = []
    for kind, owner in compiled.sources:
        tensor = _resolve(owner, leaves)
        if isinstance(tensor, ndarray):
            tensor = _make_tensor(tensor)
        tensors.append(tensor if kind != "grad" else tensor._grad)
    return tensors


def _recorded_call(call, args: tuple, kwargs: dict):
    """``call(*args, **kwargs)`` seen by this thread's recording tapes as one op: the
    tensors they watch are passed as the tensors they differentiate, and the results'
    nodes are theirs."""
    from ..autograd.recording import note_results, substitute
    leaves, definition = tree_flatten((args, kwargs))
    swapped, tracking = substitute(tuple(leaves))
    args, kwargs = tree_unflatten(definition, list(swapped))
    result = call(*args, **kwargs)
    if tracking:
        note_results(tracking, [leaf for leaf in tree_leaves(result) if isinstance(leaf, Tensor)])
    return result


def _batching(interpreter) -> bool:
    """Whether a vmap is active on this thread (its batched values cannot be compiled
    arguments: the function then runs through the batching interpreter instead)."""
    from ..interpreters.batching import BatchInterpreter
    while interpreter is not None:
        if type(interpreter) is BatchInterpreter:
            return True
        interpreter = interpreter.parent
    return False


def _interpret_call(compiled: Compiled, leaves: list):
    """Forward mode (or any eager need): evaluate the traced graph with the real tensors."""
    values = interpret(compiled.raw_graph, _input_tensors(compiled, leaves))
    wrapped = [v if isinstance(v, Tensor) else _make_tensor(np.asarray(v)) for v in values]
    for owner, index in compiled.data_effects:
        tensor = _resolve(owner, leaves)
        tensor.copy_(wrapped[index])
    for owner, index in compiled.grad_effects:
        tensor = _resolve(owner, leaves)
        tensor._grad = None if index is None else wrapped[index].detach()
    return _build_outputs(compiled, leaves, None, wrapped)


def _differentiable_call(compiled: Compiled, leaves: list):
    """Run the graph as one recorded op (:class:`_GraphCall`), then write its effects."""
    tensors = _input_tensors(compiled, leaves)
    if compiled.overwritten_inputs:  # the node keeps their values before the effects
        tensors = _with_copies(tensors, compiled.overwritten_inputs)
    program_outputs = []  # the forward program's outputs, for the effects
    outputs = _GraphCall.apply(compiled, program_outputs, *tensors)
    if not isinstance(outputs, tuple):
        outputs = (outputs,)
    if compiled.data_effects or compiled.grad_effects:
        values, constants = program_outputs
        _apply_effects(compiled, leaves, values, constants)
    return _build_outputs(compiled, leaves, None, list(outputs))


def _with_copies(tensors: list, positions: frozenset) -> list:
    """``tensors`` with those at ``positions`` replaced by copies of their contents (they do
    not require grad: a call overwriting a tensor that does is not on the tape)."""
    return [_make_tensor(tensor._data.copy()) if i in positions else tensor
            for i, tensor in enumerate(tensors)]


def _copied(arrays: list, positions: frozenset) -> list:
    """``arrays`` with those at ``positions`` copied (a program may reuse their buffers)."""
    return [array.copy() if i in positions else array for i, array in enumerate(arrays)] \
        if positions else arrays


def _vjp_function(compiled: Compiled) -> JitFunction:
    """``(inputs..., cotangents...) -> input cotangents``, jitted (and so differentiable):
    the backward of a recorded call whose backward records (``create_graph=True``); it
    recomputes the forward."""
    if compiled._vjp is None:
        graph = compiled.raw_graph
        differentiable = compiled.differentiable
        num_results = compiled.num_results
        float_outputs = [i for i, a in enumerate(graph.outputs[:num_results])
                         if a.dtype.kind in "fc"]
        count = len(graph.inputs)

        def vjp(*values):
            from ..autograd.grad_mode import enable_grad
            primals, cotangents = values[:count], values[count:]
            trace = _local.trace
            if trace is not None:  # the engine reads a seed's array: give it the traced one
                cotangents = [_make_tensor(trace.read(c)) for c in cotangents]
            by_output = dict(zip(float_outputs, cotangents))
            with enable_grad():
                lifted, outputs = record_forward(graph, differentiable, primals)
                grads = pullback(outputs, lifted, differentiable,
                                 {i: by_output[i]
                                  for i in differentiated_results(outputs, num_results)})
            by_index = dict(zip(differentiable, grads))
            return tuple(by_index.get(i) for i in range(count))

        compiled._vjp = JitFunction(vjp)
        compiled._vjp.all_results_differentiable = True
    return compiled._vjp


@dataclass
class _SplitPrograms:
    """The compiled forward (results and residuals) and backward of a call on the tape."""

    graphs: VjpGraphs
    forward: codegen.Program
    backward: codegen.Program
    # outputs that are arrays of the program itself (a constant result, zeros for an unused
    # input): handed out as copies, so that writing into a result or a .grad cannot change them
    constant_results: frozenset
    constant_grads: frozenset
    # the programs start without fused loops (no numba compilation for a call differentiated
    # once or twice); after FUSE_SPLIT_AFTER_CALLS differentiated calls they are regenerated
    # fused from the same graphs (same outputs, so residuals keep their places)
    calls: int = 0
    fused: bool = False

    def count_call(self) -> None:
        self.calls += 1
        if self.calls == FUSE_SPLIT_AFTER_CALLS and not self.fused:
            self.fused = True
            self.forward = codegen.generate(_fused(self.graphs.forward))
            self.backward = codegen.generate(_fused(self.graphs.backward))


#: differentiated calls of a signature after which its forward and backward programs fuse
FUSE_SPLIT_AFTER_CALLS = 3


def _fused(graph: Graph) -> Graph:
    """An optimized graph with its elementwise chains fused and its buffers reused."""
    from . import fusion
    from .buffers import reuse_buffers
    return reuse_buffers(fusion.fuse_elementwise(graph), {})


def _constant_outputs(graph: Graph) -> frozenset:
    return frozenset(i for i, atom in enumerate(graph.outputs)
                     if isinstance(atom, Literal) and atom.is_array)


def _owned(value, constant: bool):
    """A program's output as an array the caller may keep and write into."""
    return value.copy() if constant else _fresh(value)


def _split_programs(compiled: Compiled):
    """The signature's :class:`_SplitPrograms`, built by the first call needing them; or the
    error building them raised (the call then keeps the recomputing backward, which
    reports a vjp that cannot be traced when a backward runs, as eager mode does)."""
    split = compiled._split
    if split is None:
        with compiled._split_lock:
            split = compiled._split
            if split is None:
                try:
                    split = _compile_split(compiled)
                except Exception as error:  # kept: raised by vjp_graphs()
                    split = error
                compiled._split = split
    return split


def _compile_split(compiled: Compiled) -> _SplitPrograms:
    from . import passes
    from .partition import partition, trace_joint
    optimize = compiled.graph is not compiled.raw_graph  # the function's optimize flag
    raw = compiled.raw_graph
    joint = trace_joint(raw, compiled.num_results, compiled.differentiable,
                        num_effects=len(raw.outputs) - compiled.num_results)
    if optimize:  # before splitting: common subexpressions of forward and backward merge
        joint.graph = passes.optimize(joint.graph)
    graphs = partition(joint)
    if optimize:  # fused later (FUSE_SPLIT_AFTER_CALLS); buffers are reused at once
        graphs.forward = passes.optimize(graphs.forward)
        graphs.backward = passes.optimize(graphs.backward)
    split = _SplitPrograms(graphs, codegen.generate(_reusing(graphs.forward, optimize)),
                           codegen.generate(_reusing(graphs.backward, optimize)),
                           _constant_outputs(graphs.forward), _constant_outputs(graphs.backward))
    split.fused = not optimize
    return split


def _reusing(graph: Graph, optimize: bool) -> Graph:
    from .buffers import reuse_buffers
    return reuse_buffers(graph, {}) if optimize else graph


class _GraphCall(Function):
    """One jitted call on the tape (``JitCallBackward``): forward runs the forward program
    and saves its residuals; backward runs the backward program on them (or, when the
    backward records, the jitted vjp of the traced graph). The program's outputs and which
    of them are its constants are appended to ``program_outputs`` (the caller writes the
    effect outputs into their tensors)."""

    @staticmethod
    def forward(ctx, compiled, program_outputs, *tensors):
        ctx.compiled = compiled
        split = _split_programs(compiled)
        arrays = [t._data for t in tensors]
        if isinstance(split, Exception):  # the program writing into the inputs it overwrites
            values = _call_program(compiled, _copied(arrays, compiled.overwritten_inputs))
            constants = compiled.constant_outputs
        else:
            split.count_call()
            values = _call_program(compiled, arrays, split.forward.function)
            constants = split.constant_results
        results = tuple(_make_tensor(_owned(v, i in constants))
                        for i, v in enumerate(values[:compiled.num_results]))
        residuals = () if isinstance(split, Exception) else _residual_tensors(
            split.graphs, tensors, results, values)
        program_outputs += (values, constants)
        # the inputs too, for a backward that records (it differentiates the graph anew)
        ctx.save_for_backward(*tensors, *residuals)
        differentiable = compiled.differentiable_results
        ctx.mark_non_differentiable(*(r for i, r in enumerate(results) if i not in differentiable))
        return results

    @staticmethod
    def backward(ctx, *cotangents):
        compiled = ctx.compiled
        saved = ctx.saved_tensors
        count = len(compiled.raw_graph.inputs)
        split = compiled._split
        if _local.grad_enabled or isinstance(split, Exception):
            float_cotangents = [c for c, a in zip(cotangents, compiled.raw_graph.outputs)
                                if a.dtype.kind in "fc"]
            grads = _vjp_function(compiled)(*saved[:count], *float_cotangents)
            return (None, None, *grads)
        graphs = split.graphs
        arrays = [t._data for t in saved[count:]]
        arrays += [cotangents[i]._data for i in graphs.cotangent_results]
        values = _call_program(compiled, arrays, split.backward.function)
        grads = [None] * count
        for position, (index, value) in enumerate(zip(graphs.differentiable, values)):
            if value is not None:
                grads[index] = _make_tensor(_owned(value, position in split.constant_grads))
        return (None, None, *grads)


def _residual_tensors(graphs: VjpGraphs, tensors: tuple, results: tuple, values) -> list:
    """Per residual the tensor holding it: an input, a result, or a new tensor of a value
    only the forward program returned (saved, they are version-checked and freed as any
    saved tensor)."""
    residuals = []
    for kind, index in graphs.residuals:
        if kind == "input":
            residuals.append(tensors[index])
        elif index < graphs.num_results:
            residuals.append(results[index])
        else:
            residuals.append(_make_tensor(_fresh(values[index])))
    return residuals


# the node's name: ``JitCallBackward`` (the rules were named when the class was made)
_GraphCall.__name__ = _GraphCall.__qualname__ = "JitCall"
for _rule in (_GraphCall._rule_without_saved, _GraphCall._rule_with_saved):
    _rule.name = _rule.backward_name = "JitCallBackward"
del _rule
