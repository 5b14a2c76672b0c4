"""Activation checkpointing: trade compute for memory (PyTorch's ``torch.utils.checkpoint``,
JAX's ``jax.checkpoint``).

``checkpoint(fn, *args)`` runs ``fn`` without recording its intermediate
values and records a single graph node instead. Its backward runs ``fn``
again with recording on (replaying the random state, so dropout masks
match) and pulls the incoming gradients back through that fresh graph.
Peak memory then holds the activations of one checkpointed segment at a
time instead of the whole network's.

The node's inputs are the tensor arguments and the tensors requiring grad
that ``fn`` reads from its closure (parameters), found by watching the
primitives it applies; both get exactly the gradients of the plain
computation, to any order.

Example:
    >>> import unigrad as ug
    >>> w = ug.tensor([0.5, -1.0], requires_grad=True)
    >>> x = ug.tensor([1.0, 2.0], requires_grad=True)
    >>> y = ug.checkpoint(lambda x: ug.tanh(x * w) * 2.0, x)
    >>> y.sum().backward()
    >>> x.grad, w.grad
    (tensor([ 0.7864, -0.1413]), tensor([1.5729, 0.2826]))
"""

from __future__ import annotations

from collections.abc import Callable

from .. import _state
from ..autograd.grad_mode import enable_grad, no_grad
from ..ops._generators import default_generator
from ..tensor import Tensor
from ._closure import closure_tensors
from ._core import lift, pullback
from .custom import _apply, _Outputs, _RuleFunction
from .tree import tree_flatten, tree_unflatten

__all__ = ["checkpoint"]

_local = _state.local


class Checkpoint(_RuleFunction):
    """The graph node of a ``checkpoint`` call (``CheckpointBackward``)."""


def checkpoint(fn: Callable, *args, **kwargs):
    """``fn(*args, **kwargs)``, keeping no activations: backward recomputes them.

    Tensors among ``args`` and ``kwargs`` (any pytree) and the tensors
    requiring grad that ``fn`` reads from its closure get the same gradients
    as without checkpointing, through ``.backward()``, ``autograd.grad``,
    ``grad`` (with ``weights``) and to any order. The outputs may be any
    pytree; non-tensor leaves pass through. The random state is saved and
    replayed in the recomputation; other side effects of ``fn`` happen again
    in every backward pass. With grad mode off, inside a forward-mode level,
    or when nothing requires grad, this is just ``fn(*args, **kwargs)``.

    Example:
        >>> import unigrad as ug
        >>> layer = lambda x: ug.tanh(x) ** 2
        >>> x = ug.tensor([0.5, 1.0], requires_grad=True)
        >>> ug.autograd.grad(ug.checkpoint(layer, x).sum(), x)
        (tensor([0.7269, 0.6397]),)
        >>> ug.autograd.grad(layer(x).sum(), x)
        (tensor([0.7269, 0.6397]),)
    """
    if not callable(fn):
        raise TypeError(f"checkpoint expects a callable, got {type(fn).__name__}")
    if not _local.grad_enabled or _local.forward_levels:
        return fn(*args, **kwargs)
    leaves, treedef = tree_flatten((args, kwargs))
    argument_tensors = [leaf for leaf in leaves if isinstance(leaf, Tensor)]
    random_state = _random_state()
    with no_grad(), closure_tensors(argument_tensors) as closure:
        outputs = fn(*args, **kwargs)
    closed_over = _with_returned_tensors(closure.tensors, argument_tensors, outputs)
    if not closed_over and not any(t._requires_grad for t in argument_tensors):
        return outputs
    rule = _CheckpointRule(fn, treedef, leaves, outputs, closed_over, random_state)
    results = _apply(Checkpoint, argument_tensors + closed_over, rule)
    return rule.outputs.rebuilt(results)


def _with_returned_tensors(found: list, argument_tensors: list, outputs) -> list:
    """The closure tensors plus any tensor requiring grad that ``fn`` returned unchanged."""
    known = {id(t) for t in found} | {id(t) for t in argument_tensors}
    result = list(found)
    for leaf in tree_flatten(outputs)[0]:
        if isinstance(leaf, Tensor) and leaf._requires_grad and id(leaf) not in known:
            known.add(id(leaf))
            result.append(leaf)
    return result


class _CheckpointRule:
    forward_mode_error = "checkpoint: forward mode is handled before the graph node"

    def __init__(self, fn: Callable, treedef, leaves: list, outputs, closed_over: list,
                 random_state):
        self.fn = fn
        self.treedef = treedef
        self.template = [None if isinstance(leaf, Tensor) else leaf for leaf in leaves]
        self.argument_count = sum(isinstance(leaf, Tensor) for leaf in leaves)
        self.closed_over = closed_over
        self.random_state = random_state
        self.outputs = _Outputs(outputs)

    def forward(self, inputs: tuple) -> tuple:
        return self.outputs.handed_over(), inputs[:self.argument_count]

    def backward(self, ctx, grads: tuple) -> tuple:
        recording = _local.grad_enabled
        arguments = list(ctx.saved_tensors)
        with _replayed(self.random_state), enable_grad():
            handles = [_recomputation_input(t) for t in arguments]
            args, kwargs = self._arguments(handles)
            outputs = self.fn(*args, **kwargs)
        recomputed = [leaf for leaf in tree_flatten(outputs)[0] if isinstance(leaf, Tensor)]
        if len(recomputed) != len(grads):
            raise RuntimeError(f"checkpoint: the recomputation of {_name(self.fn)} returned "
                               f"{len(recomputed)} tensors but the forward pass returned "
                               f"{len(grads)}")
        inputs = handles + self.closed_over
        targets = _distinct_targets(inputs)
        # the recomputed graph leads into the graph recorded before the checkpoint (through
        # the argument views and closure tensors computed from others): this pass delivers
        # gradients up to the targets and never beyond, the outer pass carries them further
        found = pullback(recomputed, list(grads), targets, create_graph=recording,
                         retain_graph=recording, stop=targets)
        by_target = {id(t): g for t, g in zip(targets, found)}
        return tuple(by_target.get(id(t)) for t in inputs)

    def _arguments(self, tensors: list) -> tuple:
        leaves = list(self.template)
        tensors = iter(tensors)
        for i, leaf in enumerate(self.template):
            if leaf is None:
                leaves[i] = next(tensors)
        return tree_unflatten(self.treedef, leaves)


def _recomputation_input(tensor: Tensor) -> Tensor:
    """What ``fn`` gets in the recomputation in place of a saved argument: an identity view
    (a recorded backward pass differentiates through it to the argument), or a detached
    copy when the argument needs no gradient."""
    if not tensor._requires_grad or tensor._data.dtype.kind not in "fc":
        return tensor.detach()
    return lift(tensor)


def _graph_key(tensor: Tensor):
    """Where a backward pass delivers ``tensor``'s gradient: its node, or itself for a leaf."""
    return tensor._grad_fn if tensor._grad_fn is not None else tensor


def _distinct_targets(tensors: list) -> list:
    """The tensors requiring grad, one per graph key (aliases of one node would each receive
    the node's whole gradient, which the outer pass then adds up twice)."""
    keys = set()
    targets = []
    for tensor in tensors:
        if not tensor._requires_grad or _graph_key(tensor) in keys:
            continue
        keys.add(_graph_key(tensor))
        targets.append(tensor)
    return targets


def _name(fn) -> str:
    return getattr(fn, "__name__", None) or type(fn).__name__


def _random_state() -> Tensor:
    return default_generator.get_state()


class _replayed:
    """Run a block with the random generator in ``state``, then put back the state it had
    (inside ``ug.jit`` both happen at every call: the state is read and set by primitives)."""

    def __init__(self, state: Tensor):
        self.state = state

    def __enter__(self):
        self.previous = default_generator.get_state()
        default_generator.set_state(self.state)
        return self

    def __exit__(self, *exc) -> bool:
        default_generator.set_state(self.previous)
        return False
