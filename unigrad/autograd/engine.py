"""The backward engine: iterative, dependency-counted reverse accumulation.

One call of :func:`run_backward` walks the graph from the roots once:

1. count, for every node and leaf reachable from the roots, how many edges
   lead into it (iteratively, so a 100,000-op chain needs no recursion);
2. with ``inputs`` given, keep only the nodes from which an input is
   reachable;
3. run each node when all its incoming cotangents have arrived: tensor hooks,
   ``retain_grad``, pre-hooks, the primitive's vjp rule, post-hooks; sum each
   result to its input's shape and dtype (broadcasting is undone here, once);
4. free each cotangent as it is consumed and each node's saved values after
   it ran, unless ``retain_graph``.

With ``create_graph`` the rules run on Tensors with grad mode on, so the
backward pass is itself recorded; otherwise they run on plain arrays.
"""

from __future__ import annotations

import math
import re
import traceback

import numpy as np

from .. import _state
from ..backend import ndarray
from ..tensor import Tensor, _grad_lock, _make_tensor, bump_version, version_of
from .graph import MULTI_GRAD_HOOKS, PackedValue, begin_backward
from .node import RELEASED, Node, refresh_stale_view

_local = _state.local
_global = _state.global_state

ERR_BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward.")


def run_backward(roots, seeds, *, retain_graph: bool, create_graph: bool,
                 inputs=None, accumulate: bool = True, stop=None, within=None):
    """Propagate ``seeds`` (one per root) back through the graph.

    ``inputs`` (Tensors) restricts the pass to them: with ``accumulate`` their
    ``.grad`` is accumulated, otherwise their gradients are returned in order
    (``None`` where an input is unreachable). ``stop`` (Tensors) are treated as
    constants: each still receives (and captures) its gradient, but nothing
    flows past it (TensorFlow's ``stop_gradients``). ``within`` (a set of nodes: what a
    TensorFlow-style recorder recorded) limits the pass to those nodes: any other node
    is a constant, as a stop is.
    """
    for tensor in list(roots) + list(inputs or ()) + list(stop or ()):
        if tensor._extra is not None:
            refresh_stale_view(tensor)
    stops = {t._grad_fn if t._grad_fn is not None else t for t in stop} if stop else None
    if within is not None:
        stops = _Outside(within, stops)
    buffers: dict = {}
    starts = []
    for root, seed in zip(roots, seeds):
        target = root._grad_fn if root._grad_fn is not None else root
        if target in buffers:
            buffers[target] = buffers[target] + seed
        else:
            buffers[target] = seed
            starts.append(target)

    deps = _count_dependencies(starts)
    captures = None
    needed = None
    if inputs is not None:
        captures = {}
        keys = []
        for tensor in inputs:
            key = tensor._grad_fn if tensor._grad_fn is not None else tensor
            keys.append(key)
            captures[key] = None
        needed = _needed_nodes(starts, captures, stops)
    if MULTI_GRAD_HOOKS:
        begin_backward(lambda key: key in deps and (needed is None or key in needed))

    previous_mode, previous_autocast = _local.grad_enabled, _local.autocast_dtype
    _local.grad_enabled = create_graph
    _local.autocast_dtype = None  # backward runs in the dtypes the forward chose (PyTorch)
    try:
        _execute(starts, buffers, deps, captures, needed, retain_graph, create_graph,
                 accumulate, stops)
    finally:
        _local.grad_enabled = previous_mode
        _local.autocast_dtype = previous_autocast

    if captures is None:
        return None
    results = []
    assigned: set = set()
    for key in keys:
        value = captures[key]
        if value is not None and not isinstance(value, Tensor):
            value = _make_tensor(_owned(value, assigned))
        results.append(value)
    return results


class _Outside:
    """The nodes a restricted pass treats as stops: those outside ``within``, and the
    explicit ``stops``."""

    __slots__ = ("within", "stops")

    def __init__(self, within, stops):
        self.within = within
        self.stops = stops

    def __contains__(self, node) -> bool:
        return node not in self.within or (self.stops is not None and node in self.stops)


def _count_dependencies(starts) -> dict:
    """Incoming-edge counts of every node and leaf reachable from ``starts``."""
    deps: dict = {}
    stack = [s for s in starts if type(s) is Node]
    if len(stack) > 1:
        return _count_dependencies_of_roots(stack)
    pop = stack.pop
    push = stack.append
    while stack:
        for edge in pop().edges:
            if edge is None:
                continue
            count = deps.get(edge)
            if count is None:
                deps[edge] = 1
                if type(edge) is Node:
                    push(edge)
            else:
                deps[edge] = count + 1
    return deps


def _count_dependencies_of_roots(stack: list) -> dict:
    """:func:`_count_dependencies` for several roots: one root may lie in another's graph,
    so each node's edges are counted once however it was reached."""
    deps: dict = {}
    expanded = set()
    while stack:
        node = stack.pop()
        if node in expanded:
            continue
        expanded.add(node)
        for edge in node.edges:
            if edge is None:
                continue
            count = deps.get(edge)
            deps[edge] = 1 if count is None else count + 1
            if type(edge) is Node and edge not in expanded:
                stack.append(edge)
    return deps


def _needed_nodes(starts, captures, stops=None) -> set:
    """Nodes from which some capture key is reachable (they must run); a stop node never runs."""
    order = []
    stack = [(s, False) for s in starts if type(s) is Node]
    visited = set()
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if node in visited:
            continue
        visited.add(node)
        stack.append((node, True))
        for edge in node.edges:
            if type(edge) is Node and edge not in visited:
                stack.append((edge, False))
    needed = set()
    for node in order:  # children before parents
        if stops is not None and node in stops:
            continue
        for edge in node.edges:
            if edge is not None and (edge in captures or edge in needed):
                needed.add(node)
                break
    return needed


def _execute(starts, buffers, deps, captures, needed, retain_graph, create_graph, accumulate,
             stops=None):
    ready = [s for s in starts if deps.get(s, 0) == 0]
    assigned: set = set()
    pop_ready = ready.pop
    push_ready = ready.append
    pop_buffer = buffers.pop
    get_buffer = buffers.get
    # graph mode takes the general path too: saved tensors from outside the trace are read
    # through its view (_unpack_inputs)
    slow_mode = create_graph or _global.anomaly_enabled or _local.trace is not None
    release = not retain_graph
    while ready:
        node = pop_ready()
        grad = pop_buffer(node, None)
        if type(node) is not Node:
            _finish_leaf(node, grad, captures, accumulate, create_graph, assigned)
            continue
        hooks = node.hooks
        if hooks is not None and grad is not None:
            grad = _run_tensor_hooks(node, hooks, grad, create_graph)
        if captures is not None and node in captures:
            captures[node] = grad
        edges = node.edges
        if grad is None or (needed is not None and node not in needed) \
                or (stops is not None and node in stops):
            for edge in edges:
                if edge is not None:
                    remaining = deps[edge] - 1
                    deps[edge] = remaining
                    if remaining == 0:
                        push_ready(edge)
            continue
        if hooks is None and not slow_mode:
            # the common case, inlined: no hooks, no recording, no anomaly checks
            prim = node.prim
            inputs = node.metas
            if inputs is None:
                saved = node.saved
                if saved is RELEASED:
                    raise RuntimeError(ERR_BACKWARD_TWICE)
                inputs = []
                for value, version in zip(saved, node.versions):
                    if version is None:
                        inputs.append(value)
                    elif (0 if value._vc is None else value._vc[0]) == version:
                        inputs.append(value._data)
                    else:
                        raise RuntimeError(_version_message(value._data, node,
                                                            version_of(value), version, value))
            out = node.out
            if out is not None:
                out = _unpack_output(node, out, False)
            elif prim.saves_output:
                raise RuntimeError(ERR_BACKWARD_TWICE)
            if grad.dtype.kind == "c":  # custom Function rules handle complex values themselves
                grads = getattr(prim, "complex_vjp", prim.vjp)(grad, out, node.needs, *inputs,
                                                               **node.params)
            else:
                grads = prim.vjp(grad, out, node.needs, *inputs, **node.params)
            if release and (prim.saves_inputs or prim.saves_output):
                node.saved = RELEASED
                node.out = None
        else:
            grads, inputs = _run_node(node, hooks, grad, retain_graph, create_graph)
        i = -1
        for edge in edges:
            i += 1
            if edge is None:
                continue
            g = grads[i]
            if g is not None:
                x = inputs[i]
                if g.shape != x.shape or (g.dtype is not x.dtype and g.dtype != x.dtype):
                    g = _conform(g, x.shape, x.dtype)
                previous = get_buffer(edge)
                buffers[edge] = g if previous is None else previous + g
            remaining = deps[edge] - 1
            deps[edge] = remaining
            if remaining == 0:
                push_ready(edge)


def _run_node(node: Node, hooks, grad, retain_graph: bool, create_graph: bool):
    """Run one node's vjp rule; returns its cotangents and the inputs it saw."""
    prim = node.prim
    if hooks is not None and hooks.pre_hooks:
        for hook in hooks.pre_hooks:
            replaced = hook((_wrap(grad),))
            if replaced is not None:
                if not isinstance(replaced, (tuple, list)) or len(replaced) != 1:
                    count = len(replaced) if isinstance(replaced, (tuple, list)) else 1
                    raise RuntimeError(f"hook '{_hook_name(hook)}' has returned an incorrect "
                                       f"number of values (got {count}, but expected 1)")
                grad = _unwrap_like(replaced[0], create_graph, hook, grad)
    inputs = node.metas
    if inputs is None:
        saved = node.saved
        if saved is RELEASED:
            raise RuntimeError(ERR_BACKWARD_TWICE)
        inputs = _unpack_inputs(node, saved, create_graph)
    out = node.out
    if out is not None:
        out = _unpack_output(node, out, create_graph)
    elif prim.saves_output:
        raise RuntimeError(ERR_BACKWARD_TWICE)
    try:
        if grad.dtype.kind == "c":
            grads = getattr(prim, "complex_vjp", prim.vjp)(grad, out, node.needs, *inputs,
                                                           **node.params)
        else:
            grads = prim.vjp(grad, out, node.needs, *inputs, **node.params)
    except Exception:
        if hooks is not None and hooks.forward_trace is not None:
            _report_forward_trace(node)
        raise
    if not retain_graph and (prim.saves_inputs or prim.saves_output):
        node.saved = RELEASED
        node.out = None
    if _global.anomaly_enabled:
        from .anomaly import check_node_outputs
        check_node_outputs(node, grads)
    if hooks is not None and hooks.post_hooks:
        for hook in hooks.post_hooks:
            hook(tuple(_wrap(g) for g in grads), (_wrap(grad),))
    return grads, inputs


def _unpack_inputs(node: Node, saved, create_graph: bool):
    """Saved inputs, version-checked (``_execute`` inlines the plain-array case).

    Under ``ug.jit`` a saved tensor from outside the trace is read through the
    trace's view of it (its traced value; the tensor itself holds its concrete array).
    """
    trace = _local.trace
    inputs = []
    # saved through saved_tensors_hooks: unpacked last operand first, as they were packed
    unpacked = {position: saved[position].unpack() for position in reversed(range(len(saved)))
                if type(saved[position]) is PackedValue}
    for position, (value, version) in enumerate(zip(saved, node.versions)):
        if position in unpacked:
            value = unpacked[position]
            inputs.append(value if create_graph else value._data)
        elif version is not None:
            if version_of(value) != version:
                raise RuntimeError(_version_message(value._data, node, version_of(value), version,
                                                    value))
            if create_graph:
                inputs.append(value)
            else:
                inputs.append(value._data if trace is None else trace.read(value))
        else:
            inputs.append(value)
    return inputs


def _unpack_output(node: Node, data, create_graph: bool):
    counter = node.out_counter
    if type(data) is PackedValue:  # saved through saved_tensors_hooks
        data = data.unpack()._data
    elif counter is not None and counter[0] != node.out_version:
        raise RuntimeError(_version_message(data, node, counter[0], node.out_version, None,
                                            output=True))
    if not create_graph:
        return data
    tensor = _make_tensor(data, True)
    tensor._grad_fn = node
    tensor._vc = counter
    hooks = node.hooks
    if hooks is not None and hooks.out_tangents:
        tensor._extra_dict()["tangents"] = hooks.out_tangents
    return tensor


_BACKWARD_SUFFIX = re.compile(r"Backward\d*$")


def _version_message(data, node: Node, current: int, expected: int, tensor, output=False) -> str:
    from ..backend import from_numpy_dtype, namespace_of
    names = _global.text_names
    if names == "torch":  # PyTorch's legacy type name and its op name: [torch.FloatTensor [3]]
        from ..ops._dtypes import torch_tensor_type
        kind = torch_tensor_type(data.dtype, on_gpu=namespace_of(data) is not np)
    else:
        kind = from_numpy_dtype(data.dtype).name
    if output:
        producer = node
    elif tensor is not None and tensor._grad_fn is not None:
        producer = tensor._grad_fn
    else:
        producer = None
    if producer is None:
        role = "" if tensor is not None and tensor._grad_fn is None else \
            f", which is an input of {node.name()},"
    else:
        name = producer.name()
        shown = _BACKWARD_SUFFIX.sub("", name) if names == "torch" else name
        role = f", which is output 0 of {shown},"
    hint = ("Hint: the backtrace further above shows the operation that failed to compute its "
            "gradient. The variable in question was changed in there or anywhere later. Good luck!"
            if _global.anomaly_enabled else
            "Hint: enable anomaly detection to find the operation that failed to compute its "
            f"gradient, with {names}.autograd.set_detect_anomaly(True"
            f"{', check_nan=False' if names == 'torch' else ''}).")
    return (f"one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [{kind} {list(data.shape)}]{role} is at version {current}; "
            f"expected version {expected} instead. {hint}")


def _conform(g, shape, dtype):
    """Sum a cotangent to its input's shape and cast it to the input's dtype.

    Plain arrays (nothing is being recorded) are reduced directly: summing the
    leading axes away first leaves a fresh array of the right shape, which
    ``.grad`` can then own without a copy.
    """
    if g.shape != shape:
        if isinstance(g, ndarray):
            g = _sum_array_to_shape(g, shape)
        else:
            from ..ops.shape import sum_to_shape
            g = sum_to_shape(g, shape)
    if g.dtype != dtype:
        if g.dtype.kind == "c" and dtype.kind != "c":
            from ..ops.complex_numbers import real  # a real input's share: the real part
            g = real(g)
        if g.dtype != dtype:
            from ..ops.elementwise import cast
            g = cast(g, dtype)
    return g


def _sum_array_to_shape(g, shape: tuple):
    if g.size == math.prod(shape):  # unit dimensions differ, or a reshape's cotangent
        return g.reshape(shape)
    lead = g.ndim - len(shape)
    if lead:
        g = g.sum(axis=tuple(range(lead)))
    kept = tuple(axis for axis, size in enumerate(shape) if size == 1 and g.shape[axis] != 1)
    if kept:
        g = g.sum(axis=kept, keepdims=True)
    return g


def _wrap(value):
    if value is None or isinstance(value, Tensor):
        return value
    return _make_tensor(value)


def _unwrap_like(value, create_graph: bool, hook, grad):
    """A hook's replacement for ``grad``, checked as PyTorch checks it: same size and dtype."""
    if not isinstance(value, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(value).__name__}'")
    old = grad._data if isinstance(grad, Tensor) else grad
    new = value._data
    if old is not None and new.shape != old.shape:
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the size of value "
                           f"(was {list(old.shape)} got {list(new.shape)})")
    if old is not None and new.dtype != old.dtype:
        from ..ops._dtypes import torch_tensor_type
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the type of value (was "
                           f"{torch_tensor_type(old.dtype)} got {torch_tensor_type(new.dtype)})")
    return value if create_graph else new


def _hook_name(hook) -> str:
    return getattr(hook, "__name__", None) or type(hook).__name__


def _run_tensor_hooks(node: Node, hooks, grad, create_graph: bool):
    for hook in list(hooks.tensor_hooks):
        replaced = hook(_wrap(grad))
        if replaced is not None:
            grad = _unwrap_like(replaced, create_graph, hook, grad)
    if hooks.retained is not None:
        _set_retained_grad(node, hooks.retained, grad, create_graph)
    return grad


def _set_retained_grad(node: Node, retained, grad, create_graph: bool) -> None:
    tensor = retained()
    if tensor is None or tensor._grad_fn is not node:
        return
    value = grad if create_graph else _owned(grad, None)
    trace = _local.trace
    if trace is not None:  # ug.jit: into the traced .grad (replayed after each call)
        trace.accumulate_grad(tensor, value)
        return
    with _grad_lock:
        if tensor._grad is None:
            tensor._grad = _wrap(value) if create_graph else _make_tensor(value)
        else:
            tensor._grad = _accumulated(tensor._grad, value, create_graph)


def _owned(array, assigned):
    """An array that no other gradient or user buffer aliases."""
    if not isinstance(array, ndarray):
        return array.copy()
    if array.base is not None or not array.flags.writeable or not array.flags.c_contiguous \
            or (assigned is not None and id(array) in assigned):
        array = array.copy()
    if assigned is not None:
        assigned.add(id(array))
    return array


def _accumulated(existing: Tensor, value, create_graph: bool) -> Tensor:
    if create_graph or existing._grad_fn is not None or isinstance(value, Tensor) \
            or _local.trace is not None:
        from ..ops.elementwise import add
        return add(existing, value if isinstance(value, Tensor) else _make_tensor(value))
    existing._data += value
    bump_version(existing)
    return existing


def _finish_leaf(leaf: Tensor, grad, captures, accumulate, create_graph, assigned) -> None:
    extra = leaf._extra
    if grad is not None and extra is not None and extra.get("hooks"):
        for hook in list(extra["hooks"]):
            replaced = hook(_wrap(grad))
            if replaced is not None:
                grad = _unwrap_like(replaced, create_graph, hook, grad)
    if captures is not None:
        if leaf in captures:
            captures[leaf] = grad
            if accumulate and grad is not None:
                _accumulate_into(leaf, grad, create_graph, assigned)
        return
    if grad is None or not accumulate:
        return
    _accumulate_into(leaf, grad, create_graph, assigned)


def _accumulate_into(leaf: Tensor, grad, create_graph: bool, assigned) -> None:
    trace = _local.trace
    if trace is not None:  # graph mode: the trace keeps the traced .grad of captured tensors
        trace.accumulate_grad(leaf, grad if create_graph or isinstance(grad, Tensor)
                              else _owned(grad, assigned))
    else:
        with _grad_lock:
            if leaf._grad is None:
                leaf._grad = grad if create_graph else _make_tensor(_owned(grad, assigned))
            else:
                leaf._grad = _accumulated(leaf._grad, grad, create_graph)
    extra = leaf._extra
    if extra is not None and extra.get("post_accumulate_hooks"):
        for hook in list(extra["post_accumulate_hooks"]):
            hook(leaf)


def _report_forward_trace(node: Node) -> None:
    import sys
    frames = "".join(traceback.format_list(node.hooks.forward_trace))
    sys.stderr.write(f"Error detected in {node.name()}. Traceback of forward call that caused "
                     f"the error:\n{frames}")
