"""Recorders: what a TensorFlow-style ``GradientTape`` (or graph) sees of the shared tape.

The engine records every op whose input requires grad (PyTorch's rule). A
:class:`Recorder` adds TensorFlow's rule on top, without changing any flag of
a tensor it did not create: while it records, in its own thread, it keeps the
nodes of the ops that read a tensor it *tracks*, and their results become
tracked. It tracks

- the tensors passed to :meth:`Recorder.watch`; one that does not require
  grad is stood in for by a *proxy*: a leaf sharing its data that requires
  grad, used in its place by the ops the recorder sees (the tensor itself is
  untouched, so plain code and other threads never record it);
- trainable variables (leaves that require grad) the moment an op reads them,
  when it watches accessed variables;
- with ``records_everything`` (a TensorFlow graph, ``tf.function``), every
  floating-point tensor an op reads.

Everything computed before a recorder started, in another thread, or while it
was paused is a constant to it: :meth:`Recorder.pullback` runs the engine's
backward pass only through the recorder's own nodes.

Each recording recorder is an interpreter on its thread's stack
(:class:`RecordingInterpreter`): it swaps proxies in for the tensors it
watches and notes the nodes of the results. Custom ``Function`` and jitted
calls, which record their own node, do the same through :func:`substitute`
and :func:`note_results`.

Example:
    >>> import unigrad as ug
    >>> from unigrad.autograd.recording import Recorder
    >>> x = ug.tensor(3.0)
    >>> recorder = Recorder()
    >>> with recorder:
    ...     _ = recorder.watch(x)
    ...     y = x * x
    >>> recorder.pullback([y], [None], [x])
    [tensor(6.)]
    >>> x.requires_grad, y.requires_grad
    (False, True)
"""

from __future__ import annotations

from .. import _state
from ..interpreters import Interpreter, pop, push
from ..tensor import Tensor

__all__ = ["Recorder", "RecordingInterpreter", "substitute", "note_results", "is_proxy",
           "differentiable_form", "active_graph"]

_local = _state.local
_PROXY_MARK = "tape_proxy"


def _recording() -> list:
    """This thread's recording recorders, oldest first."""
    recorders = getattr(_local, "recorders", None)
    if recorders is None:
        recorders = _local.recorders = []
    return recorders


def is_proxy(tensor: Tensor) -> bool:
    """Whether ``tensor`` is a recorder's stand-in for a watched tensor."""
    extra = tensor._extra
    return extra is not None and _PROXY_MARK in extra


def _is_variable(tensor: Tensor) -> bool:
    """A trainable variable: a floating-point leaf that requires grad (not a proxy)."""
    return (tensor._requires_grad and tensor._grad_fn is None and not is_proxy(tensor)
            and tensor._data.dtype.kind in "fc")


def _make_proxy(tensor: Tensor) -> Tensor:
    """A leaf that requires grad, shares ``tensor``'s data and class (its results print
    in the same dialect) and is marked as a proxy."""
    proxy = object.__new__(type(tensor))
    proxy._data = tensor._data
    proxy._requires_grad = True
    proxy._grad_fn = None
    proxy._grad = None
    proxy._vc = None
    proxy._extra = {_PROXY_MARK: True}
    return proxy


def _shared_proxy(tensor: Tensor) -> Tensor | None:
    """The proxy another recording recorder of this thread made for ``tensor`` (one proxy
    per tensor lets nested recorders see each other's gradient computations)."""
    for recorder in _recording():
        entry = recorder.sources.get(id(tensor))
        if entry is not None and entry[0] is tensor and entry[1] is not tensor \
                and entry[1]._data is tensor._data:
            return entry[1]
    return None


class Recorder:
    """The ops one tape (or graph) recorded and the tensors it tracks.

    Parameters
    ----------
    watch_accessed_variables : bool
        Track every trainable variable an op reads while recording.
    records_everything : bool
        Track every floating-point tensor an op reads (a graph's semantics).

    Use it as a context manager (or :meth:`start`/:meth:`stop`); it records
    only in the thread that started it.
    """

    def __init__(self, watch_accessed_variables: bool = True, records_everything: bool = False):
        self.watch_accessed_variables = bool(watch_accessed_variables)
        self.records_everything = bool(records_everything)
        self.nodes: set = set()
        # id(tensor) -> (tensor, the tensor the engine differentiates: itself or its proxy);
        # proxies are entered under their own id too
        self.sources: dict[int, tuple[Tensor, Tensor]] = {}
        self.watched_order: list[Tensor] = []  # explicitly or automatically watched, in order
        self._interpreter: RecordingInterpreter | None = None

    # ------------------------------------------------------------------ recording
    @property
    def recording(self) -> bool:
        return self._interpreter is not None

    def start(self) -> None:
        """Record this thread's ops from now on."""
        if self._interpreter is not None:
            raise RuntimeError("this recorder is already recording")
        self._interpreter = RecordingInterpreter(self)
        push(self._interpreter)
        _recording().append(self)

    def stop(self) -> None:
        """Stop recording (what was recorded stays)."""
        if self._interpreter is None:
            return
        pop(self._interpreter)
        self._interpreter = None
        recorders = _recording()
        recorders[:] = [recorder for recorder in recorders if recorder is not self]

    def __enter__(self) -> Recorder:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def clear(self) -> None:
        """Forget every node and tracked tensor."""
        self.nodes = set()
        self.sources = {}
        self.watched_order = []

    # ------------------------------------------------------------------ tracking
    def watch(self, tensor: Tensor) -> Tensor:
        """Track ``tensor``; returns the tensor the engine differentiates for it."""
        entry = self.sources.get(id(tensor))
        if entry is not None and entry[0] is tensor:
            return entry[1]
        if tensor._requires_grad or tensor._data.dtype.kind not in "fc":
            engine = tensor
        else:
            engine = _shared_proxy(tensor)
            if engine is None:
                engine = _make_proxy(tensor)
            self.sources[id(engine)] = (engine, engine)
        self.sources[id(tensor)] = (tensor, engine)
        self.watched_order.append(tensor)
        return engine

    def engine_tensor(self, tensor: Tensor) -> Tensor | None:
        """What an op reading ``tensor`` uses in its place, when this recorder tracks it
        (watching it first when it is an accessed variable, or always in a graph); None
        when it is a constant to this recorder."""
        engine = self.source(tensor)
        if engine is not None:
            return engine
        if self.records_everything:
            return self.watch(tensor) if tensor._data.dtype.kind in "fc" else None
        if self.watch_accessed_variables and _is_variable(tensor):
            return self.watch(tensor)
        return None

    def source(self, tensor: Tensor) -> Tensor | None:
        """The tensor to differentiate for ``tensor`` as a source (None: not tracked)."""
        entry = self.sources.get(id(tensor))
        if entry is not None and entry[0] is tensor:
            return entry[1]
        grad_fn = tensor._grad_fn
        if grad_fn is not None and grad_fn in self.nodes:
            return tensor
        return None

    def note(self, result) -> None:
        """Keep the nodes of ``result`` (a Tensor or a tuple/list of them)."""
        if isinstance(result, Tensor):
            if result._grad_fn is not None:
                self.nodes.add(result._grad_fn)
            return
        if isinstance(result, (tuple, list)):
            for item in result:
                if isinstance(item, Tensor) and item._grad_fn is not None:
                    self.nodes.add(item._grad_fn)

    # ------------------------------------------------------------------ differentiating
    def pullback(self, outputs: list, cotangents: list, sources: list, *,
                 create_graph: bool = False, stop: list | None = None) -> list:
        """Gradients of ``sum(<output, cotangent>)`` for each source through the recorded
        ops only (None for a source that is not tracked or not reached)."""
        from ..transforms._core import pullback

        # a target that is itself a source has gradient one, watched or not (TensorFlow's)
        itself = {id(output): output if output._requires_grad else _make_proxy(output)
                  for output in outputs if self.source(output) is None
                  and any(output is source for source in sources)}

        def lookup(tensor: Tensor) -> Tensor | None:
            engine = self.source(tensor)
            return itself.get(id(tensor)) if engine is None else engine

        engine_sources = [lookup(source) for source in sources]
        live = [engine for engine in engine_sources if engine is not None]
        if not live:
            return [None] * len(sources)
        stops = None
        if stop:
            stops = [tensor if self.source(tensor) is None else self.source(tensor)
                     for tensor in stop]
        pairs = [(lookup(output), cotangent) for output, cotangent in zip(outputs, cotangents)]
        pairs = [(root, cotangent) for root, cotangent in pairs if root is not None]
        if not pairs:
            return [None] * len(sources)
        grads = pullback([root for root, _ in pairs], [cotangent for _, cotangent in pairs],
                         live, create_graph=create_graph, retain_graph=True,
                         unconnected_as_none=True, stop=stops, within=self.nodes)
        by_source = {id(engine): grad for engine, grad in zip(live, grads)}
        return [None if engine is None else by_source.get(id(engine))
                for engine in engine_sources]


class RecordingInterpreter(Interpreter):
    """A recording :class:`Recorder` on its thread's interpreter stack."""

    __slots__ = ("recorder",)

    def __init__(self, recorder: Recorder):
        super().__init__()
        self.recorder = recorder

    def process(self, prim, args: tuple, params: dict):
        swapped, tracked = _swapped(self.recorder, args)
        result = self.process_parent(prim, swapped, params)
        if tracked:
            self.recorder.note(result)
        return result


def _swapped(recorder: Recorder, args: tuple) -> tuple[tuple, bool]:
    """``args`` with each tensor ``recorder`` tracks replaced by its engine tensor, and
    whether any was tracked."""
    tracked = False
    swapped = None
    for index, arg in enumerate(args):
        if not isinstance(arg, Tensor):
            continue
        engine = recorder.engine_tensor(arg)
        if engine is None:
            continue
        tracked = True
        if engine is not arg:
            if swapped is None:
                swapped = list(args)
            swapped[index] = engine
    return (args if swapped is None else tuple(swapped)), tracked


def substitute(args: tuple) -> tuple[tuple, list]:
    """For an op that records its own node (a custom ``Function``, a jitted call):
    ``args`` as this thread's recording recorders see them, and the recorders that track
    one of them (pass both to :func:`note_results` afterwards)."""
    tracking = []
    for recorder in reversed(_recording()):  # innermost first, as the interpreters run
        args, tracked = _swapped(recorder, args)
        if tracked:
            tracking.append(recorder)
    return args, tracking


def note_results(tracking: list, result) -> None:
    """Let each recorder of :func:`substitute` keep the nodes of ``result``."""
    for recorder in tracking:
        recorder.note(result)


def differentiable_form(tensor: Tensor) -> Tensor | None:
    """``tensor`` itself when it requires grad, else the proxy a recording recorder of this
    thread differentiates for it (a watched constant), else None."""
    if tensor._requires_grad:
        return tensor
    for recorder in reversed(_recording()):
        engine = recorder.source(tensor)
        if engine is not None:
            return engine
    return None


def active_graph() -> Recorder | None:
    """The innermost recording recorder of this thread that records everything (a graph
    being built: ``tf.function``, a TF1 graph), or None."""
    for recorder in reversed(_recording()):
        if recorder.records_everything:
            return recorder
    return None
