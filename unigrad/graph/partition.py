"""Residuals: the vjp of a traced graph, split into a forward and a backward graph.

When the tape differentiates a jitted call (``ug.grad(ug.jit(f))``,
``loss.backward()`` after ``ug.jit(model)(x)``, a ``GradientTape`` over a
``tf.function``), the call's forward runs once. :func:`trace_joint` traces the
vjp of the forward graph with symbolic cotangents into one *joint* graph
``(inputs, cotangents) -> (results, input cotangents)``; :func:`partition`
splits it by dependence on the cotangents:

- the **forward** graph computes the results, and also returns the
  *residuals*: the values it computed that the backward reads;
- the **backward** graph maps ``(residuals, cotangents)`` to the input
  cotangents.

The forward graph holds exactly what the results need, plus the impure eqns
(printing, random draws) that do not wait for a cotangent: a differentiated
call costs no more than a plain one until its backward runs, and its effects
happen once. What the backward needs beyond the residuals without depending
on the cotangents (``1 - y * y`` for ``y = tanh(x)``) is computed by the
backward graph from them, as PyTorch's partitioner does: it runs once either
way, and the saved residuals stay the forward values an eager tape would save.

Example:
    >>> import numpy as np
    >>> from unigrad.graph.ir import Eqn, Graph, Var
    >>> from unigrad.graph.partition import partition, trace_joint
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> x, y, total = Var((3,), np.float32), Var((3,), np.float32), Var((), np.float32)
    >>> graph = Graph([x], [Eqn(PRIMITIVES["tanh"], [x], y, {}),
    ...                     Eqn(PRIMITIVES["sum"], [y], total, {"axes": (0,),
    ...                                                         "keepdims": False})], [total])
    >>> split = partition(trace_joint(graph, 1, (0,)))
    >>> split.residuals
    [('output', 1)]
    >>> print(split.forward)
    graph(%0: f32[3]) {
      %1: f32[3] = tanh(%0)
      %2: f32[] = sum(%1, axes=(0,), keepdims=False)
      return (%2, %1)
    }
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..tensor import Tensor, _make_tensor
from .ir import Graph, Literal, Var
from .tracer import Trace, Tracer


@dataclass
class VjpGraphs:
    """The two graphs a differentiated jitted call runs, and how they connect.

    ``forward`` maps the call's inputs to its results, then its ``num_effects``
    effect outputs (the new contents of tensors the call writes in place),
    then the residuals it computes; ``backward`` maps the residuals (``residuals[k]`` says where
    its input ``k`` comes from: ``("input", i)``, the call's input ``i``, or
    ``("output", j)``, the forward graph's output ``j``, a result when
    ``j < num_results``, an effect output when ``j < num_results + num_effects``)
    followed by the cotangents of the results listed in ``cotangent_results`` to one
    cotangent per input listed in ``differentiable``.

    Example:
        >>> import unigrad as ug
        >>> f = ug.jit(lambda x, w: (x * w).sum())
        >>> graphs = f.lower(ug.ones(2), ug.ones(2, requires_grad=True)).vjp_graphs()
        >>> graphs.residuals, graphs.cotangent_results, graphs.differentiable
        ([('input', 0)], (0,), (1,))
        >>> print(graphs.backward)
        graph(%0: f32[2], %1: f32[]) {
          %2: f32[1] = reshape(%1, shape=(1,))
          %3: f32[2] = broadcast_to(%2, shape=(2,))
          %4: f32[2] = mul(%3, %0)
          return (%4)
        }
    """

    forward: Graph
    backward: Graph
    num_results: int
    residuals: list
    cotangent_results: tuple
    differentiable: tuple
    num_effects: int = 0

    def __str__(self) -> str:
        returned = self.num_results + self.num_effects
        computed = len(self.forward.outputs) - returned
        inputs = sum(kind == "input" for kind, _ in self.residuals)
        effects = f"{_count(self.num_effects, 'effect output')}, " if self.num_effects else ""
        return "\n".join([
            f"# forward: returns {_count(self.num_results, 'result')}, then {effects}"
            f"{_count(computed, 'residual')}",
            self.forward.text(),
            f"# backward: reads {_count(len(self.residuals), 'residual')} "
            f"({inputs} of them inputs), then {_count(len(self.cotangent_results), 'cotangent')}",
            self.backward.text()])


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


@dataclass
class JointGraph:
    """A graph ``(inputs, cotangents) -> (results, input cotangents)`` (see :func:`trace_joint`).

    Its first ``num_inputs`` inputs are the call's, then one cotangent per result listed
    in ``cotangent_results``; its first ``num_results`` outputs are the results, then
    ``num_effects`` effect outputs (never differentiated), then one cotangent per input
    listed in ``differentiable``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.partition import trace_joint
        >>> graph = ug.jit(lambda x: ug.exp(x).sum()).lower(ug.ones(2)).raw_graph
        >>> joint = trace_joint(graph, 1, (0,))
        >>> joint.num_inputs, len(joint.graph.inputs), joint.cotangent_results
        (1, 2, (0,))
    """

    graph: Graph
    num_inputs: int
    num_results: int
    cotangent_results: tuple
    differentiable: tuple
    num_effects: int = 0


# ============================================================== the vjp on the tape

def record_forward(graph: Graph, differentiable: Sequence[int], primals: Sequence) -> tuple:
    """Evaluate ``graph`` on the tape (grad mode on) from detached ``primals``, the inputs
    listed in ``differentiable`` requiring grad: ``(lifted inputs, outputs)``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.partition import record_forward
        >>> graph = ug.jit(lambda x: (x * x).sum()).lower(ug.ones(2)).raw_graph
        >>> lifted, outputs = record_forward(graph, (0,), [ug.tensor([1.0, 3.0])])
        >>> outputs
        [tensor(10., grad_fn=<SumBackward0>)]
    """
    from .jit import interpret
    wanted = set(differentiable)
    lifted = [p.detach().requires_grad_() if i in wanted else p.detach()
              for i, p in enumerate(primals)]
    return lifted, interpret(graph, lifted)


def differentiated_results(outputs: Sequence, count: int) -> list:
    """The indices of the first ``count`` outputs that are floating Tensors requiring grad.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.partition import differentiated_results
        >>> x = ug.ones(2, requires_grad=True)
        >>> differentiated_results([x * 2, x.argmax(), ug.ones(2), 3.0], 4)
        [0]
    """
    return [i for i, out in enumerate(outputs[:count])
            if isinstance(out, Tensor) and out.requires_grad and out._data.dtype.kind in "fc"]


def pullback(outputs: Sequence, lifted: Sequence, differentiable: Sequence[int],
             cotangents: dict) -> list:
    """The cotangents of the ``differentiable`` inputs (zeros where unused), given
    ``cotangents[i]`` for output ``i`` of :func:`record_forward`.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.partition import pullback, record_forward
        >>> graph = ug.jit(lambda x: (x * x).sum()).lower(ug.ones(2)).raw_graph
        >>> lifted, outputs = record_forward(graph, (0,), [ug.tensor([1.0, 3.0])])
        >>> pullback(outputs, lifted, (0,), {0: ug.tensor(1.0)})
        [tensor([2., 6.])]
    """
    from ..autograd import grad as autograd_grad
    wanted = [lifted[i] for i in differentiable]
    if not cotangents:
        return [None] * len(wanted)
    indices = sorted(cotangents)
    return list(autograd_grad([outputs[i] for i in indices], wanted,
                              [cotangents[i] for i in indices], allow_unused=True,
                              materialize_grads=True))


def trace_joint(graph: Graph, num_results: int, differentiable: Sequence[int],
                num_effects: int = 0) -> JointGraph:
    """The joint graph of the vjp of ``graph`` (whose first ``num_results`` outputs are its
    results, the next ``num_effects`` its effect outputs, returned but not differentiated):
    one cotangent input per result that depends on a ``differentiable`` input, one input
    cotangent output per ``differentiable`` input.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.partition import trace_joint
        >>> graph = ug.jit(lambda x: ug.exp(x).sum()).lower(ug.ones(2)).raw_graph
        >>> [eqn.prim.name for eqn in trace_joint(graph, 1, (0,)).graph.eqns]
        ['exp', 'sum', 'reshape', 'broadcast_to', 'mul']
    """
    from ..amp.autocast import autocast
    from ..autograd.grad_mode import enable_grad
    trace = Trace()
    try:
        # the graph already holds the casts autocast chose when it was traced
        with autocast(enabled=False), trace, enable_grad():
            primals = [_traced_input(trace, var) for var in graph.inputs]
            lifted, outputs = record_forward(graph, differentiable, primals)
            cotangents = {i: _traced_input(trace, outputs[i]._data)
                          for i in differentiated_results(outputs, num_results)}
            grads = pullback(outputs, lifted, differentiable, cotangents)
        returned = outputs[:num_results + num_effects]
        atoms = [_atom(out) for out in returned] + [_atom(g) for g in grads]
        return JointGraph(Graph(list(trace.inputs), list(trace.eqns), atoms), len(graph.inputs),
                          num_results, tuple(cotangents), tuple(differentiable), num_effects)
    finally:
        trace.close()


def _traced_input(trace: Trace, like) -> Tensor:
    """A new graph input of the shape and dtype of ``like`` (a Var or an array), as a Tensor
    of the trace."""
    var = Var(like.shape, like.dtype)
    trace.inputs.append(var)
    return _make_tensor(Tracer(var, trace))


def _atom(value):
    data = value._data if isinstance(value, Tensor) else value
    return data.var if type(data) is Tracer else Literal(data)


# ============================================================== partitioning

def partition(joint: JointGraph) -> VjpGraphs:
    """Split a joint graph into the forward graph (results and residuals) and the backward
    graph (residuals and cotangents to input cotangents) by dependence on the cotangents.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.partition import partition, trace_joint
        >>> graph = ug.jit(lambda x: ug.exp(x).sum()).lower(ug.ones(2)).raw_graph
        >>> split = partition(trace_joint(graph, 1, (0,)))
        >>> split.residuals, [eqn.prim.name for eqn in split.backward.eqns]
        ([('output', 1)], ['reshape', 'broadcast_to', 'mul'])
    """
    graph, num_inputs = joint.graph, joint.num_inputs
    returned = joint.num_results + joint.num_effects
    primals, cotangents = graph.inputs[:num_inputs], graph.inputs[num_inputs:]
    results, input_cotangents = graph.outputs[:returned], graph.outputs[returned:]
    waits = _depending_on(graph, cotangents)
    forward_eqns = _needed(graph.eqns, results, lambda eqn: _impure(eqn) and eqn.out not in waits)
    taken = set(forward_eqns)
    backward_eqns = _needed([eqn for eqn in graph.eqns if eqn not in taken], input_cotangents,
                            _impure)
    residual_vars = _read_from_outside(backward_eqns, input_cotangents, set(cotangents))
    residuals, forward_outputs = _residual_sources(residual_vars, primals, results)
    return VjpGraphs(
        forward=Graph(primals, forward_eqns, forward_outputs),
        backward=Graph(residual_vars + cotangents, backward_eqns, input_cotangents),
        num_results=joint.num_results, residuals=residuals,
        cotangent_results=joint.cotangent_results, differentiable=joint.differentiable,
        num_effects=joint.num_effects)


def _residual_sources(residual_vars: list, primals: list, results: list) -> tuple:
    """Where each residual comes from (``("input", i)`` or ``("output", j)``), and the forward
    graph's outputs: ``results`` (the results and effect outputs), then the residuals that
    are neither inputs nor among them."""
    primal_index = {var: i for i, var in enumerate(primals)}
    outputs = list(results)
    output_index = {atom: i for i, atom in reversed(list(enumerate(results)))
                    if isinstance(atom, Var)}
    sources = []
    for var in residual_vars:
        if var in primal_index:
            sources.append(("input", primal_index[var]))
            continue
        if var not in output_index:
            output_index[var] = len(outputs)
            outputs.append(var)
        sources.append(("output", output_index[var]))
    return sources, outputs


def _impure(eqn) -> bool:
    return eqn.impure


def _depending_on(graph: Graph, sources: Sequence[Var]) -> set:
    """The vars of ``graph`` computed from any of ``sources`` (``sources`` included)."""
    reached = set(sources)
    for eqn in graph.eqns:
        if any(var in reached for var in eqn.input_vars()):
            reached.update(eqn.defined_vars())
    return reached


def _needed(eqns: list, outputs: Sequence, keep) -> list:
    """The eqns (in order) that ``outputs`` or the eqns ``keep`` accepts read, transitively."""
    wanted = {atom for atom in outputs if isinstance(atom, Var)}
    chosen = []
    for eqn in reversed(eqns):
        if keep(eqn) or any(var in wanted for var in eqn.defined_vars()):
            chosen.append(eqn)
            wanted.update(eqn.input_vars())
    chosen.reverse()
    return chosen


def _read_from_outside(eqns: list, outputs: Sequence, excluded: set) -> list:
    """The vars ``eqns`` and ``outputs`` read that neither ``eqns`` define nor ``excluded``
    holds, in order of first use."""
    defined = set()
    found: dict = {}
    for eqn in eqns:
        for var in eqn.input_vars():
            if var not in defined and var not in excluded:
                found.setdefault(var, None)
        defined.update(eqn.defined_vars())
    for atom in outputs:
        if isinstance(atom, Var) and atom not in defined and atom not in excluded:
            found.setdefault(atom, None)
    return list(found)
