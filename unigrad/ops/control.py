"""Control flow on tensor values: ``cond``, ``switch``, ``while_loop``, ``fori_loop``, ``scan``.

JAX ``lax`` semantics. Eagerly they run as the Python they stand for (only
the chosen branch, one iteration after another, recorded on the tape as
usual). Inside ``ug.jit`` (and ``vmap``) each becomes one primitive
(:mod:`unigrad.ops._control_primitives`) holding its branches or its loop
body as traced graphs, so a data-dependent branch or a loop of 1,000 steps is
one equation of the graph, differentiable in both modes and batchable.

Operands and carries are pytrees (tuples, lists, dicts) of tensors; Python
numbers among them become tensors. A loop's carries keep their shapes and
dtypes from one iteration to the next, and ``cond``'s branches return the same
structure of the same shapes and dtypes.

Example:
    >>> import unigrad as ug
    >>> ug.cond(ug.tensor(2.0) > 0, lambda x: x * 2, lambda x: -x, ug.tensor([1.0]))
    tensor([2.])
    >>> @ug.jit
    ... def newton_sqrt(a):
    ...     step = lambda x: 0.5 * (x + a / x)
    ...     return ug.while_loop(lambda x: (step(x) - x).abs().max() > 1e-6, step, a)
    >>> newton_sqrt(ug.tensor([4.0, 9.0]))
    tensor([2., 3.])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .. import _state
from ..interpreters import has_values
from ..interpreters.array import AbstractArray
from ..tensor import Tensor
from ..transforms.tree import tree_flatten, tree_unflatten
from ._control_graphs import Layout, trace_branch
from ._control_primitives import aval_of, bind_scan, bind_while, cond_p
from ._primitive import bind

__all__ = ["cond", "switch", "while_loop", "fori_loop", "scan", "compiled_loops"]

_local = _state.local


class compiled_loops:
    """``with compiled_loops():`` control flow runs as its primitives even eagerly.

    A loop body (or the branches) is traced once, and its generated code runs at
    every iteration: faster for long loops of small ops, and what ``ug.jit``
    runs. Python side effects in a body then happen once, while it is traced.

    Example:
        >>> import unigrad as ug
        >>> with ug.ops.control.compiled_loops():
        ...     ug.fori_loop(0, 1000, lambda i, x: x * 0.999 + 0.001, ug.tensor(0.0))
        tensor(0.6323)
    """

    __slots__ = ("previous",)

    def __enter__(self) -> None:
        self.previous = _local.staged_control_flow
        _local.staged_control_flow = True

    def __exit__(self, *exc_info) -> None:
        _local.staged_control_flow = self.previous


def _staged() -> bool:
    """Whether control flow must become a primitive: a graph is traced, a vmap is active, or
    :class:`compiled_loops` asks for it."""
    if _local.trace is not None or _local.staged_control_flow:
        return True
    from ..graph.jit import _batching
    return _batching(_local.interpreter)


def is_abstract(value) -> bool:
    """Whether ``value`` (a predicate, an index, a bound) has no concrete value now: traced
    by ``ug.jit``, a vmap batch, or any tensor under :class:`compiled_loops`; control flow on
    it becomes a primitive."""
    if not isinstance(value, Tensor):
        return False
    if _local.staged_control_flow or isinstance(value._data, AbstractArray):
        return True
    trace = _local.trace
    if trace is not None:
        return trace.is_traced(value)
    return not has_values(value)


def _as_tensors(leaves: list, what: str) -> list:
    from .creation import as_tensor
    tensors = []
    for leaf in leaves:
        if isinstance(leaf, Tensor):
            tensors.append(leaf)
        elif isinstance(leaf, (bool, int, float, complex, np.ndarray, np.generic)):
            tensors.append(as_tensor(leaf))
        else:
            raise TypeError(f"{what} must be a pytree of tensors or numbers, got "
                            f"{type(leaf).__name__}")
    return tensors


def _type_text(aval) -> str:
    from ..graph.ir import Var
    return Var(aval.shape, aval.dtype).type_text()


# ============================================================================= cond / switch

def cond(pred, true_fn: Callable, false_fn: Callable, *operands):
    """``true_fn(*operands)`` if ``pred`` else ``false_fn(*operands)`` (``jax.lax.cond``).

    Eagerly only the chosen branch runs. Inside ``ug.jit`` ``pred`` has no value
    yet: both branches are traced and the graph holds one ``cond`` equation that
    runs only the branch the data chooses, at every call, without retracing;
    gradients flow through the chosen branch only. Both branches return the
    same structure of tensors with the same shapes and dtypes. A branch may
    write tensors in place (an optimizer step under ``if all_finite:``): the
    write happens only when that branch is taken.

    Example:
        >>> import unigrad as ug
        >>> f = ug.jit(lambda x: ug.cond(x.sum() > 0, lambda v: v * 2, lambda v: -v, x))
        >>> f(ug.tensor([1.0, 2.0])), f(ug.tensor([-3.0, 1.0])), f.trace_count
        (tensor([2., 4.]), tensor([ 3., -1.]), 1)
    """
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError("cond: 'true_fn' and 'false_fn' must be callable")
    _check_predicate(pred, "cond", "pred")
    if not is_abstract(pred):
        return true_fn(*operands) if bool(pred) else false_fn(*operands)
    from .elementwise import cast
    from .shape import reshape
    index = cast(reshape(pred, ()), np.int64)
    return _staged_switch(index, (false_fn, true_fn), operands, ("false_fn", "true_fn"))


def switch(index, branches: Sequence[Callable], *operands):
    """``branches[index](*operands)``, ``index`` clamped to the branches (``jax.lax.switch``).

    Example:
        >>> import unigrad as ug
        >>> branches = [lambda x: x + 1, lambda x: x * 10, lambda x: -x]
        >>> ug.switch(1, branches, ug.tensor(2.0)), ug.switch(7, branches, ug.tensor(2.0))
        (tensor(20.), tensor(-2.))
        >>> ug.jit(lambda i, x: ug.switch(i, branches, x))(ug.tensor(0), ug.tensor(2.0))
        tensor(3.)
    """
    branches = tuple(branches) if isinstance(branches, (list, tuple)) else branches
    if not isinstance(branches, tuple) or not branches:
        raise ValueError("switch: 'branches' must be a non-empty sequence of callables")
    if not all(callable(b) for b in branches):
        raise TypeError("switch: every entry of 'branches' must be callable")
    _check_predicate(index, "switch", "index", integer=True)
    if not is_abstract(index):
        chosen = min(max(int(index), 0), len(branches) - 1)
        return branches[chosen](*operands)
    from .elementwise import cast
    from .shape import reshape
    return _staged_switch(cast(reshape(index, ()), np.int64), branches, operands,
                          tuple(f"branches[{i}]" for i in range(len(branches))))


def _check_predicate(value, function: str, name: str, integer: bool = False) -> None:
    if isinstance(value, Tensor):
        if value.numel() != 1:
            raise ValueError(f"{function}: '{name}' must be a single "
                             f"{'integer' if integer else 'boolean'}, got a tensor of shape "
                             f"{tuple(value.shape)}")
        if integer and value.dtype.kind not in "iub":
            raise TypeError(f"{function}: '{name}' must be an integer, got a tensor of dtype "
                            f"{value.dtype}")
    elif integer and not isinstance(value, (int, np.integer)):
        raise TypeError(f"{function}: '{name}' must be an integer, got {type(value).__name__}")


def _staged_switch(index, functions: tuple, operands: tuple, names: tuple):
    leaves, in_tree = tree_flatten(operands)
    tensors = _as_tensors(leaves, "cond: the operands")
    avals = [aval_of(t) for t in tensors]
    traced = [trace_branch(lambda args, fn=fn: fn(*args), avals, in_tree, name=name,
                           allow_effects=True) for fn, name in zip(functions, names)]
    _check_same_results(traced, names)
    effects = _unify_effects(traced)
    branches = tuple(t.branch for t in traced)
    constants = [c for t in traced for c in t.constants]
    layout = Layout(branches[0].out_avals)
    packed = bind(cond_p, index, *tensors, *constants, branches=branches,
                  num_operands=len(tensors), layout=layout)
    values = layout.unpack(packed)
    num_results = len(values) - len(effects)
    _apply_effects(effects, values[num_results:])
    return tree_unflatten(branches[0].out_tree, values[:num_results])


def _check_same_results(traced: list, names: tuple) -> None:
    first = traced[0]
    for other, name in zip(traced[1:], names[1:]):
        if other.branch.out_tree != first.branch.out_tree:
            raise TypeError(f"cond: {names[0]} and {name} must return the same structure, "
                            f"got {first.branch.out_tree} and {other.branch.out_tree}")
        mine = first.branch.out_avals[:first.out_leaves]
        theirs = other.branch.out_avals[:other.out_leaves]
        for position, (a, b) in enumerate(zip(mine, theirs)):
            if a != b:
                raise TypeError(f"cond: {names[0]} and {name} must return tensors of the same "
                                f"shape and dtype, got {_type_text(a)} and {_type_text(b)} for "
                                f"output {position}")


def _unify_effects(traced: list) -> list:
    """The in-place writes of any branch; every branch's graph outputs every written
    tensor's new value (a branch that does not write it returns it unchanged)."""
    from ..graph.ir import Var
    union = []
    keys = set()
    for t in traced:
        for effect in t.effects:
            if _effect_key(*effect) not in keys:
                keys.add(_effect_key(*effect))
                union.append(effect)
    if not union:
        return union
    for t in traced:
        graph = t.branch.graph
        results = graph.outputs[:t.out_leaves]
        own = dict(zip([_effect_key(kind, tensor) for kind, tensor in t.effects],
                       graph.outputs[t.out_leaves:]))
        outputs = list(results)
        new_constants = []
        for kind, tensor in union:
            atom = own.get(_effect_key(kind, tensor))
            if atom is None:  # this branch leaves it as it is: it passes the value through
                value = _current(kind, tensor)
                atom = Var(tuple(value.shape), value._data.dtype)
                new_constants.append((atom, value))
            outputs.append(atom)
        count = t.branch.num_constants
        inputs = graph.inputs[:count] + [v for v, _ in new_constants] + graph.inputs[count:]
        t.branch.graph = graph.replace(inputs=inputs, outputs=outputs)
        t.branch.num_constants = count + len(new_constants)
        t.constants = t.constants + [value for _, value in new_constants]
        t.effects = list(union)
    return union


def _effect_key(kind: str, tensor: Tensor) -> tuple:
    """What an effect writes: a tensor's storage (tensors sharing it, such as ``v`` and
    ``v.detach()``, are one), or its ``.grad``."""
    return (kind, id(tensor._data) if kind == "data" else id(tensor))


def _current(kind: str, tensor: Tensor) -> Tensor:
    if kind == "data":
        return tensor
    from ..graph.tracer import traced_grad
    return traced_grad(tensor)


def _apply_effects(effects: list, values: list) -> None:
    if not effects:
        return
    trace = _local.trace
    if trace is None:
        raise NotImplementedError("cond: in-place writes inside a branch are not supported "
                                  "under vmap")
    for (kind, tensor), value in zip(effects, values):
        if kind == "data":
            trace.assign(tensor, trace.read(value))
        else:
            trace.set_grad(tensor, value)


# ============================================================================= loops

def while_loop(cond_fun: Callable, body_fun: Callable, init_val):
    """Repeat ``val = body_fun(val)`` while ``cond_fun(val)`` holds (``jax.lax.while_loop``).

    Inside ``ug.jit`` the loop is one ``while_loop`` equation (the trip count
    may depend on the data). Differentiable in forward mode, and in reverse
    mode as TensorFlow does it: the iterates the backward needs are saved per
    iteration (the gradient of the gradient is not available: use
    :func:`fori_loop` or :func:`scan` for that).

    Example:
        >>> import unigrad as ug
        >>> halve = ug.jit(lambda x: ug.while_loop(lambda c: c[0] > 1, lambda c: (c[0] / 2,
        ...                                                         c[1] + 1), (x, 0)))
        >>> halve(ug.tensor(20.0))
        (tensor(0.6250), tensor(5))
    """
    if not callable(cond_fun) or not callable(body_fun):
        raise TypeError("while_loop: 'cond_fun' and 'body_fun' must be callable")
    if not _staged():
        value = init_val
        while _truth(cond_fun(value), "while_loop"):
            value = body_fun(value)
        return value
    leaves, tree = tree_flatten(init_val)
    init = _as_tensors(leaves, "while_loop: 'init_val'")
    avals = [aval_of(t) for t in init]
    cond_traced = trace_branch(lambda value: _predicate(cond_fun(value)), avals, tree,
                               name="cond_fun")
    body_traced = trace_branch(body_fun, avals, tree, name="body_fun")
    _check_carry(body_traced.branch, tree, avals, "while_loop", "body_fun")
    results = bind_while(cond_traced.branch, cond_traced.constants, body_traced.branch,
                         body_traced.constants, init)
    return tree_unflatten(tree, results)


def _truth(value, function: str) -> bool:
    if isinstance(value, Tensor) and value.numel() != 1:
        raise ValueError(f"{function}: 'cond_fun' must return a single boolean, got a tensor "
                         f"of shape {tuple(value.shape)}")
    return bool(value)


def _predicate(value):
    from .creation import as_tensor
    from .elementwise import cast
    from .shape import reshape
    if not isinstance(value, Tensor):
        value = as_tensor(value)
    if value.numel() != 1:
        raise ValueError(f"while_loop: 'cond_fun' must return a single boolean, got a tensor of "
                         f"shape {tuple(value.shape)}")
    return cast(reshape(value, ()), np.bool_)


def _check_carry(branch, tree, avals: list, function: str, name: str) -> None:
    if branch.out_tree != tree:
        raise TypeError(f"{function}: '{name}' must return the same structure as the loop's "
                        f"carry {tree}, got {branch.out_tree}")
    for position, (before, after) in enumerate(zip(avals, branch.out_avals)):
        if before != after:
            raise TypeError(f"{function}: '{name}' must keep every carry's shape and dtype: "
                            f"carry {position} enters as {_type_text(before)} and leaves as "
                            f"{_type_text(after)}")


def fori_loop(lower, upper, body_fun: Callable, init_val):
    """``val = body_fun(i, val)`` for ``i`` in ``range(lower, upper)`` (``jax.lax.fori_loop``).

    With bounds known while tracing the loop is a :func:`scan` (differentiable
    to any order in reverse mode); with traced bounds a :func:`while_loop`.
    ``i`` is an int64 tensor.

    Example:
        >>> import unigrad as ug
        >>> ug.fori_loop(0, 4, lambda i, x: x + i, ug.tensor(0.0))
        tensor(6.)
        >>> ug.jit(lambda x: ug.fori_loop(0, 3, lambda i, v: v * v, x))(ug.tensor(2.0))
        tensor(256.)
    """
    if not callable(body_fun):
        raise TypeError("fori_loop: 'body_fun' must be callable")
    from .creation import as_tensor
    if not (is_abstract(lower) or is_abstract(upper)):
        start, stop = _bound(lower, "lower"), _bound(upper, "upper")
        if not _staged():
            value = init_val
            for i in range(start, stop):
                value = body_fun(as_tensor(i), value)
            return value

        def step(carry, _):
            i, value = carry
            return (i + 1, body_fun(i, value)), None
        (_, value), _ = scan(step, (as_tensor(start), init_val), None,
                             length=max(stop - start, 0))
        return value
    from .elementwise import cast
    start = cast(as_tensor(lower), np.int64)
    stop = cast(as_tensor(upper), np.int64)
    _, _, value = while_loop(lambda c: c[0] < c[1],
                             lambda c: (c[0] + 1, c[1], body_fun(c[0], c[2])),
                             (start, stop, init_val))
    return value


def _bound(value, name: str) -> int:
    if isinstance(value, Tensor):
        if value.numel() != 1 or value.dtype.kind not in "iu":
            raise TypeError(f"fori_loop: '{name}' must be an integer, got a tensor of shape "
                            f"{tuple(value.shape)} and dtype {value.dtype}")
        return int(value)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"fori_loop: '{name}' must be an integer, got {type(value).__name__}")
    return int(value)


def scan(f: Callable, init, xs=None, length: int | None = None, reverse: bool = False,
         unroll: int = 1):
    """``carry, y = f(carry, x)`` over the leading axis of ``xs``; returns ``(carry, ys)``
    with the ``y`` stacked (``jax.lax.scan``).

    Inside ``ug.jit`` the loop is one ``scan`` equation; reverse mode saves the
    carries entering each step and runs the steps' vjps backwards (itself a
    scan, so any order works). ``unroll`` is accepted for JAX compatibility.

    Example:
        >>> import unigrad as ug
        >>> ug.scan(lambda c, x: (c + x, c * x), ug.tensor(0.0), ug.tensor([1.0, 2.0, 3.0]))
        (tensor(6.), tensor([0., 2., 9.]))
        >>> ug.jit(lambda xs: ug.scan(lambda c, x: (c + x, c), 0.0, xs)[1])(ug.ones(3))
        tensor([0., 1., 2.])
    """
    if not callable(f):
        raise TypeError("scan: 'f' must be callable")
    if isinstance(unroll, bool) or not isinstance(unroll, int) or unroll < 1:
        raise ValueError(f"scan: 'unroll' must be a positive int, got {unroll!r}")
    x_leaves, x_tree = tree_flatten(xs)
    x_tensors = _as_tensors(x_leaves, "scan: 'xs'")
    length = _scan_length(x_tensors, length)
    if not _staged():
        return _python_scan(f, init, xs, x_tensors, x_tree, length, reverse)
    init_leaves, carry_tree = tree_flatten(init)
    carry = _as_tensors(init_leaves, "scan: 'init'")
    carry_avals = [aval_of(t) for t in carry]
    x_avals = [_slice_aval(t) for t in x_tensors]
    y_tree = []

    def step(*leaves):
        c = tree_unflatten(carry_tree, leaves[:len(carry)])
        x = tree_unflatten(x_tree, leaves[len(carry):])
        result = f(c, x)
        if not isinstance(result, tuple) or len(result) != 2:
            raise TypeError("scan: 'f' must return a pair (carry, y)")
        new_leaves, new_tree = tree_flatten(result[0])
        if new_tree != carry_tree:
            raise TypeError(f"scan: 'f' must return a carry of the same structure as 'init' "
                            f"{carry_tree}, got {new_tree}")
        y_leaves, tree = tree_flatten(result[1])
        y_tree.append(tree)
        return [*new_leaves, *y_leaves]

    traced = trace_branch(step, [*carry_avals, *x_avals], name="scan_body")
    body = traced.branch
    for position, (before, after) in enumerate(zip(carry_avals, body.out_avals)):
        if before != after:
            raise TypeError(f"scan: 'f' must keep every carry's shape and dtype: carry "
                            f"{position} enters as {_type_text(before)} and leaves as "
                            f"{_type_text(after)}")
    results = bind_scan(body, traced.constants, carry, x_tensors, length=length,
                        reverse=bool(reverse))
    return (tree_unflatten(carry_tree, results[:len(carry)]),
            tree_unflatten(y_tree[0], results[len(carry):]))


def _slice_aval(tensor: Tensor):
    from ..abstract import ShapedArray
    aval = aval_of(tensor)
    return ShapedArray(aval.shape[1:], aval.dtype)


def _scan_length(x_tensors: list, length) -> int:
    lengths = {int(t.shape[0]) for t in x_tensors if t.dim() > 0}
    if any(t.dim() == 0 for t in x_tensors):
        raise ValueError("scan: every leaf of 'xs' needs a leading axis to scan over, got a "
                         "scalar")
    if len(lengths) > 1:
        raise ValueError(f"scan: every leaf of 'xs' must have the same leading length, got "
                         f"{sorted(lengths)}")
    if length is not None:
        if isinstance(length, bool) or not isinstance(length, (int, np.integer)) or length < 0:
            raise ValueError(f"scan: 'length' must be a non-negative int, got {length!r}")
        if lengths and int(length) not in lengths:
            raise ValueError(f"scan: 'length' {length} does not match the leading length "
                             f"{lengths.pop()} of 'xs'")
        return int(length)
    if not lengths:
        raise ValueError("scan: 'length' is needed when 'xs' is None (nothing to scan over)")
    return lengths.pop()


def _python_scan(f, init, xs, x_tensors: list, x_tree, length: int, reverse: bool):
    from ..transforms.tree import tree_map
    from .creation import as_tensor
    from .shape import stack
    carry = init
    outputs = [None] * length
    for step in (range(length - 1, -1, -1) if reverse else range(length)):
        x = tree_unflatten(x_tree, [t[step] for t in x_tensors]) if x_tensors else xs
        carry, outputs[step] = f(carry, x)
    if not length:
        return carry, None
    ys = tree_map(lambda *values: stack([as_tensor(v) for v in values]), *outputs) \
        if outputs[0] is not None else None
    return carry, ys
