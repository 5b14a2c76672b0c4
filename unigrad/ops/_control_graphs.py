"""Functions traced to graphs for the control-flow primitives (the branches and loop bodies).

A :class:`Branch` is a Python function traced once on abstract values: a graph
from ``(constants..., arguments...)`` to its results, where the constants are
what the function read from outside (tensors it closes over, values of the
enclosing ``ug.jit`` trace, ``.grad`` of Parameters). The control-flow
primitives (:mod:`unigrad.ops.control`) hold branches in their params, run
them with generated code (:meth:`Branch.call`) and derive from them the
branches their own rules need: the vjp, the jvp and the batched (vmap) form of
a branch are branches too, traced from the branch's graph, and cached on it.

The primitives have one output each: their results are carried as one flat
vector (a :class:`Layout` packs them in a dtype all of them fit in and unpacks
them with ordinary, differentiable ops).

Example:
    >>> import numpy as np, unigrad as ug
    >>> from unigrad.abstract import ShapedArray
    >>> from unigrad.ops._control_graphs import trace_branch
    >>> weight = ug.tensor([2.0, 3.0])
    >>> traced = trace_branch(lambda x: x * weight + 1.0, [ShapedArray((2,), np.float32)])
    >>> print(traced.branch.graph)
    graph(%0: f32[2], %1: f32[2]) {
      %2: f32[2] = mul(%1, %0)
      %3: f32[2] = add(%2, 1.0)
      return (%3)
    }
    >>> traced.constants[0] is weight
    True
    >>> traced.branch.call(np.array([2.0, 3.0], np.float32), np.ones(2, np.float32))
    (array([3., 4.], dtype=float32),)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .. import _state
from ..abstract import ShapedArray
from ..backend import namespace_of
from ..tensor import Tensor, _make_tensor
from ..transforms.tree import tree_flatten, tree_unflatten

_local = _state.local

#: calls of a branch (loop iterations) after which its code is regenerated with fused loops
FUSE_AFTER_CALLS = 32


class Branch:
    """A traced function: ``graph`` maps ``(constants..., arguments...)`` to its results.

    ``num_constants`` inputs come first; ``out_tree`` is the structure of the
    function's result (its leaves are the first outputs; any outputs after them
    are the new values of tensors the function wrote in place).
    """

    __slots__ = ("graph", "num_constants", "out_tree", "name", "derived", "_program", "_calls",
                 "__weakref__")

    def __init__(self, graph, num_constants: int, out_tree, name: str):
        self.graph = graph
        self.num_constants = num_constants
        self.out_tree = out_tree
        self.name = name
        self.derived: dict = {}  # (what, key) -> Branch: its vjp, jvp and batched forms
        self._program = None
        self._calls = 0

    @property
    def impure(self) -> bool:
        """Whether the traced function has effects beyond its results (a random draw, a
        print): the control-flow eqn holding it is then never folded, merged or removed."""
        return any(eqn.impure for eqn in self.graph.eqns)

    @property
    def in_avals(self) -> list[ShapedArray]:
        return [var.aval for var in self.graph.inputs]

    @property
    def out_avals(self) -> list[ShapedArray]:
        return [ShapedArray(atom.shape, atom.dtype) for atom in self.graph.outputs]

    def call(self, *arrays) -> tuple:
        """Run the branch on backend arrays with its generated code.

        The first :data:`FUSE_AFTER_CALLS` calls run code without fused loops (no
        compilation beyond Python's); a branch called more often (a long loop's
        body) is then compiled with its elementwise chains fused.
        """
        calls = self._calls
        if calls < FUSE_AFTER_CALLS:
            self._calls = calls + 1
            if calls == 0 or calls + 1 == FUSE_AFTER_CALLS:
                self._program = self._generate(fused=calls > 0)
        return self._program.function(*arrays)

    def _generate(self, fused: bool):
        from ..graph import codegen, passes
        from ..graph.jit import optimize_graph
        graph = optimize_graph(self.graph) if fused else passes.optimize(self.graph)
        identifier = "".join(c if c.isalnum() else "_" for c in self.name)
        return codegen.generate(graph, name=identifier)

    def interpret(self, *values) -> list:
        """Run the branch op by op through ``bind`` (Tensors on the tape, tracers, duals)."""
        from ..graph.jit import interpret
        return interpret(self.graph, list(values))

    def text_lines(self) -> list[str]:
        """The branch's graph, one line per eqn, for the enclosing graph's text."""
        return [f"{self.name}:"] + ["  " + line for line in self.graph.text().splitlines()]

    def __repr__(self) -> str:
        return f"<{self.name}: {len(self.graph.eqns)} eqns>"


@dataclass
class Traced:
    """A function traced to a branch, and what its constants are outside."""

    branch: Branch
    #: per constant input, what the primitive's caller passes for it: a Tensor (the
    #: enclosing function's view of it is read when the primitive is bound), or an array
    constants: list
    #: the tensors the function wrote in place, in output order after the results:
    #: ("data", tensor) for contents, ("grad", tensor) for .grad
    effects: list = field(default_factory=list)

    @property
    def out_leaves(self) -> int:
        """How many outputs are the function's results (the rest are effects)."""
        return len(self.branch.graph.outputs) - len(self.effects)


def trace_branch(fn: Callable, avals: list, in_tree=None, *, name: str = "branch",
                 num_constants: int = 0, allow_effects: bool = False) -> Traced:
    """Trace ``fn`` on Tensors of the given abstract values: ``fn(*tensors)``, or with an
    ``in_tree``, ``fn(tree)`` of the tensors unflattened with it.

    The branch's constants are what ``fn`` read from outside, then the first
    ``num_constants`` arguments.

    Inside an enclosing ``ug.jit`` trace the function is traced in a trace of
    its own opened inside it, so what it reads from the enclosing function
    becomes constants. Results that are Python numbers become constant arrays.
    In-place writes to tensors from outside are effects (``allow_effects``), else
    an error.
    """
    from ..graph.ir import Graph, Literal, Var
    from ..graph.tracer import Trace, Tracer
    trace = Trace()
    try:
        with trace:
            arguments = []
            for aval in avals:
                var = Var(aval.shape, aval.dtype)
                trace.inputs.append(var)
                arguments.append(_make_tensor(Tracer(var, trace)))
            result = fn(*arguments) if in_tree is None else fn(tree_unflatten(in_tree, arguments))
            leaves, out_tree = tree_flatten(result)
            outputs = []
            for leaf in leaves:
                if isinstance(leaf, Tensor):
                    outputs.append(trace.tensor_atom(leaf))
                elif isinstance(leaf, Tracer):
                    outputs.append(trace.atom(leaf))
                elif isinstance(leaf, (bool, int, float, complex, np.ndarray, np.generic)):
                    outputs.append(Literal(_python_constant(leaf)))
                else:
                    raise TypeError(f"{name} must return tensors or numbers (a pytree of them), "
                                    f"got {type(leaf).__name__}")
            found = trace.effects()
        effects = []
        for record, atom in found.data:
            effects.append(("data", record.tensor))
            outputs.append(atom)
        for record, atom in found.grads:
            if atom is None:
                raise NotImplementedError(
                    f"{name}: setting .grad to None inside a branch or loop traced by ug.jit "
                    f"is not supported; set it after the branch")
            effects.append(("grad", record.tensor))
            outputs.append(atom)
        if effects and not allow_effects:
            raise NotImplementedError(
                f"{name}: in-place writes to tensors from outside a loop body are not "
                f"supported inside ug.jit; carry the value through the loop instead")
        explicit = trace.inputs[:len(avals)]
        constant_vars, constants = _constants(trace, explicit)
        outer = _local.trace
        if outer is not None:
            for read, _ in trace.guards:
                outer.add_guard(read)
        graph = Graph(constant_vars + explicit, trace.eqns, outputs)
        branch = Branch(graph, len(constant_vars) + num_constants, out_tree, name)
        return Traced(branch, constants, effects)
    finally:
        trace.close()


def _python_constant(value):
    """A Python number as the array unigrad would make of it (float32 for floats)."""
    if isinstance(value, bool):
        return np.array(value)
    if isinstance(value, int):
        return np.array(value, dtype=np.int64)
    if isinstance(value, float):
        return np.array(value, dtype=np.float32)
    return np.asarray(value)


def _constants(trace, explicit: list) -> tuple[list, list]:
    """The trace's inputs beyond ``explicit`` and, for each, what the caller passes for it."""
    outside = {}
    for record in trace.captures.values():
        if not record.alias:
            outside[record.storage.var] = record.tensor
        if record.grad_var is not None:
            outside[record.grad_var] = record.grad_outer
    for storage in trace.storages.values():
        if storage.owner is None:  # a bare value of the enclosing trace (or an array)
            outside.setdefault(storage.var, storage.data)
    explicit_set = set(explicit)
    variables = [var for var in trace.inputs if var not in explicit_set]
    return variables, [outside[var] for var in variables]


# ============================================================================= packing

class Layout:
    """How several arrays travel as one flat vector: their shapes, dtypes and offsets.

    The vector's dtype is one every array converts to and back without loss
    (NumPy's result type of theirs: float32 and int32 travel as float64).

    Example:
        >>> import numpy as np
        >>> from unigrad.abstract import ShapedArray
        >>> layout = Layout([ShapedArray((2,), np.float32), ShapedArray((), np.int64)])
        >>> packed = layout.pack([np.array([1.5, 2.5], np.float32), np.array(3)])
        >>> packed, layout.dtype, layout.size
        (array([1.5, 2.5, 3. ]), dtype('float64'), 3)
        >>> [v.tolist() for v in layout.unpack(packed)]
        [[1.5, 2.5], 3]
    """

    __slots__ = ("avals", "dtype", "offsets", "size")

    def __init__(self, avals: list):
        self.avals = [ShapedArray(tuple(a.shape), np.dtype(a.dtype)) for a in avals]
        self.dtype = np.result_type(*[a.dtype for a in self.avals]) if self.avals \
            else np.dtype(np.float32)
        self.offsets = []
        offset = 0
        for aval in self.avals:
            self.offsets.append(offset)
            offset += math.prod(aval.shape)
        self.size = offset

    def __eq__(self, other) -> bool:
        return isinstance(other, Layout) and self.avals == other.avals

    def __hash__(self) -> int:
        return hash(tuple(self.avals))

    def __repr__(self) -> str:
        from ..graph.ir import Var
        return f"[{', '.join(Var(a.shape, a.dtype).type_text() for a in self.avals)}]"

    def pack(self, arrays) -> object:
        """The arrays as one flat vector (backend arrays in, one out)."""
        if not self.avals:
            return np.zeros(0, self.dtype)
        xp = namespace_of(arrays[0]) if hasattr(arrays[0], "shape") else np
        return xp.concatenate([xp.asarray(a, dtype=self.dtype).reshape(-1) for a in arrays])

    def unpack(self, packed) -> list:
        """The arrays (or Tensors, through differentiable ops) from the flat vector."""
        from .elementwise import cast
        from .shape import reshape
        pieces = []
        for aval, offset in zip(self.avals, self.offsets):
            size = math.prod(aval.shape)
            piece = packed if size == self.size else packed[offset:offset + size]
            if tuple(aval.shape) != (size,):
                piece = reshape(piece, aval.shape)
            if aval.dtype != self.dtype:
                piece = cast(piece, aval.dtype)
            pieces.append(piece)
        return pieces
