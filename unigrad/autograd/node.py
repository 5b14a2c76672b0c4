"""Graph nodes: one per recorded primitive application (the ``grad_fn``)."""

from __future__ import annotations

import traceback

from .. import _state
from ..tensor import Tensor

_global = _state.global_state

RELEASED = object()  # the saved values of a node whose graph was freed


class Node:
    """The backward function of one recorded op.

    ``edges[i]`` is where input ``i``'s cotangent goes: another Node, a leaf
    Tensor (its gradient accumulator), or None when input ``i`` needs no grad.
    """

    __slots__ = ("prim", "params", "saved", "saved_versions", "out_data", "out_version",
                 "out_saved_version", "edges", "metas", "tensor_hooks", "retained",
                 "pre_hooks", "post_hooks", "forward_trace", "__weakref__")

    def name(self) -> str:
        """PyTorch's node name, e.g. ``MulBackward0``."""
        return self.prim.backward_name

    @property
    def next_functions(self):
        """``((node_or_accumulator, 0), ...)`` for each input, as in PyTorch."""
        result = []
        for edge in self.edges:
            if edge is None:
                result.append((None, 0))
            elif type(edge) is Node:
                result.append((edge, 0))
            else:
                result.append((AccumulateGrad(edge), 0))
        return tuple(result)

    def register_hook(self, hook):
        """``hook(grad_inputs, grad_outputs)`` runs after this node computes its grads."""
        if self.post_hooks is None:
            self.post_hooks = []
        return _HookHandle(self.post_hooks, hook)

    def register_prehook(self, hook):
        """``hook(grad_outputs)`` runs before this node; may return replacement grads."""
        if self.pre_hooks is None:
            self.pre_hooks = []
        return _HookHandle(self.pre_hooks, hook)

    def __repr__(self) -> str:
        return f"<{self.prim.backward_name} object at {hex(id(self))}>"


class AccumulateGrad:
    """The view PyTorch gives of a leaf's gradient sink in ``next_functions``."""

    __slots__ = ("variable",)

    def __init__(self, variable: Tensor):
        self.variable = variable

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {hex(id(self))}>"


class _HookHandle:
    """Returned by ``register_hook``: ``remove()`` unregisters the hook."""

    __slots__ = ("_hooks", "_hook")

    def __init__(self, hooks: list, hook):
        self._hooks = hooks
        self._hook = hook
        hooks.append(hook)

    def remove(self) -> None:
        try:
            self._hooks.remove(self._hook)
        except ValueError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def record(prim, args, params, result: Tensor) -> None:
    """Attach a new Node for ``prim(*args)`` to ``result`` (called by ``bind``)."""
    node = Node.__new__(Node)
    node.prim = prim
    node.params = params
    edges = []
    metas = []
    for a in args:
        if isinstance(a, Tensor) and a._requires_grad:
            edges.append(a._grad_fn if a._grad_fn is not None else a)
            data = a._data
            metas.append((data.shape, data.dtype))
        else:
            edges.append(None)
            metas.append(None)
    node.edges = edges
    node.metas = metas
    if prim.saves_inputs:
        node.saved = args
        versions = []
        for a in args:
            if isinstance(a, Tensor):
                if a._extra is not None and a._extra.get("inference"):
                    raise RuntimeError(
                        "Inference tensors cannot be saved for backward. Please do not use "
                        "Tensors created in inference mode in computation tracked by autograd. "
                        "To work around this, you can make a clone to get a normal tensor and "
                        "use it in autograd, or use unigrad.no_grad() instead of "
                        "unigrad.inference_mode().")
                versions.append(a._vc[0])
            else:
                versions.append(None)
        node.saved_versions = versions
    else:
        node.saved = ()
        node.saved_versions = None
    if prim.saves_output:
        node.out_data = result._data
        node.out_version = result._vc
        node.out_saved_version = result._vc[0]
    else:
        node.out_data = None
    node.tensor_hooks = None
    node.retained = None
    node.pre_hooks = None
    node.post_hooks = None
    node.forward_trace = traceback.extract_stack()[:-3] if _global.anomaly_enabled else None
    result._grad_fn = node
    result._requires_grad = True
