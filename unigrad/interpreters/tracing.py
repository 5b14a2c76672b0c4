"""The tracing interpreter: primitives become equations of a graph instead of being computed.

Active while ``ug.jit`` traces a function (a :class:`unigrad.graph.tracer.Trace`
pushes it): each primitive is handed to the trace, which records an equation
whose output is an abstract :class:`~unigrad.graph.tracer.Tracer` (shape and
dtype from the primitive's shape rule), and the Tensor-level half (wrapping,
tape recording) is the eager interpreter's :func:`~unigrad.interpreters.eager.make_result`,
so ``grad`` inside ``jit`` runs the same vjp rules on tracers.

Example:
    >>> import unigrad as ug
    >>> compiled = ug.jit(lambda x: ug.tanh(x) * 2.0)
    >>> [eqn.prim.name for eqn in compiled.lower(ug.ones(3)).raw_graph.eqns]
    ['tanh', 'mul']
"""

from __future__ import annotations

from ..backend import ndarray
from . import Interpreter
from .eager import make_result, notify


class TraceInterpreter(Interpreter):
    """Hands every primitive to its graph trace."""

    __slots__ = ("trace",)

    def __init__(self, trace):
        super().__init__()
        self.trace = trace

    def process(self, prim, args: tuple, params: dict):
        trace = self.trace
        out, any_tensor, requires_grad = trace.bind(prim, args, params)
        if not any_tensor:
            notify(prim, args, params, out)
            return out
        result = make_result(prim, args, params, out, requires_grad, False)
        if type(out) is ndarray:  # folded from constants: a constant of the graph
            trace.note_created(result)
        return result
