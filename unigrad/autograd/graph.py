"""Hooks on the recorded graph (PyTorch's ``torch.autograd.graph``).

- :class:`saved_tensors_hooks` (``pack_hook``, ``unpack_hook``): every tensor an op
  saves for its backward is passed to ``pack_hook`` as it is recorded, and what
  that returns is kept instead; the backward pass calls ``unpack_hook`` on it to
  get the tensor back. :class:`save_on_cpu` is the pair that keeps saved tensors
  in host memory; :class:`disable_saved_tensors_hooks` forbids hooks in a block.
- :func:`register_multi_grad_hook`: one hook over several tensors, called once
  per backward pass with all their gradients (``mode="all"``) or with the first
  one computed (``mode="any"``).
- :class:`Node`: the base class of every ``grad_fn`` (``isinstance`` checks).

Hooks apply to the thread that installs them, innermost pair first, as in PyTorch.

Example:
    >>> import unigrad as ug
    >>> from unigrad.autograd.graph import saved_tensors_hooks
    >>> packed = []
    >>> def pack(tensor):
    ...     packed.append(tuple(tensor.shape))
    ...     return tensor
    >>> x = ug.ones(3, requires_grad=True)
    >>> with saved_tensors_hooks(pack, lambda tensor: tensor):
    ...     y = (x * x).sum()
    >>> packed
    [(3,), (3,)]
    >>> y.backward(); x.grad
    tensor([2., 2., 2.])
"""

from __future__ import annotations

import abc
import weakref
from collections.abc import Callable, Sequence

from .. import _state
from ..tensor import Tensor
from . import node as _node

__all__ = ["Node", "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks",
           "register_multi_grad_hook"]

_local = _state.local
_global = _state.global_state


class Node(abc.ABC):
    """What every ``grad_fn`` is an instance of (recorded ops, custom Functions, the
    ``AccumulateGrad`` sinks of leaves): ``name()``, ``next_functions``, ``metadata``,
    ``register_hook`` and ``register_prehook``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.autograd.graph import Node
        >>> isinstance((ug.ones(2, requires_grad=True) * 2).grad_fn, Node)
        True
    """

    @abc.abstractmethod
    def name(self) -> str:
        """The node's name (``MulBackward0``)."""


Node.register(_node.Node)
Node.register(_node.AccumulateGrad)


# ------------------------------------------------------------------------- saved tensors

class PackedValue:
    """A saved tensor as ``pack_hook`` returned it, with the ``unpack_hook`` that turns it
    back into the tensor the backward pass reads."""

    __slots__ = ("packed", "unpack_hook")

    def __init__(self, packed, unpack_hook: Callable):
        self.packed = packed
        self.unpack_hook = unpack_hook

    def unpack(self) -> Tensor:
        tensor = self.unpack_hook(self.packed)
        if not isinstance(tensor, Tensor):
            raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor but got "
                            f"result of type {type(tensor).__name__}")
        return tensor


def _hook_stack() -> list:
    stack = getattr(_local, "saved_tensor_hooks", None)
    if stack is None:
        stack = _local.saved_tensor_hooks = []
    return stack


def _general_recording(prim, args, params, out) -> None:
    """An observer of every bind while saved-tensor hooks are installed: observers send
    each op through the general recording path, the one that packs saved tensors."""


def pack_saved(node, result: Tensor | None) -> None:
    """Pass what ``node`` saved (inputs, and the output ``result`` when it keeps it)
    through the innermost ``pack_hook`` (called when a node is recorded while hooks are
    installed)."""
    stack = getattr(_local, "saved_tensor_hooks", None)
    if not stack:
        return
    pack_hook, unpack_hook = stack[-1]
    versions = node.versions
    if node.saved and versions is not None:
        saved = list(node.saved)
        # the last operand first, as PyTorch's nodes save them (``a * b`` packs b, then a)
        for position in reversed(range(len(saved))):
            value = saved[position]
            if versions[position] is not None and isinstance(value, Tensor):
                saved[position] = PackedValue(pack_hook(value), unpack_hook)
        node.saved = tuple(saved)
    if result is not None and node.out is not None and not isinstance(node.out, PackedValue):
        node.out = PackedValue(pack_hook(result), unpack_hook)
    node._hooks()  # nodes with hooks take the engine's general path, which unpacks


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Context manager: ``pack_hook(tensor) -> anything`` runs on each tensor saved for
    backward while it is active, ``unpack_hook(packed) -> tensor`` when backward reads it.

    The unpacked tensor must hold the values of the tensor that was packed. Hooks nest
    (the innermost applies) and belong to the thread that entered them.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.autograd.graph import saved_tensors_hooks
        >>> x = ug.tensor([1.0, 2.0], requires_grad=True)
        >>> with saved_tensors_hooks(lambda t: t.detach().numpy().copy(), ug.tensor):
        ...     y = x.exp()
        >>> y.sum().backward(); x.grad
        tensor([2.7183, 7.3891])
    """

    def __init__(self, pack_hook: Callable, unpack_hook: Callable):
        if not callable(pack_hook) or not callable(unpack_hook):
            raise TypeError("saved_tensors_hooks(): pack_hook and unpack_hook must be callable")
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        message = getattr(_local, "saved_hooks_disabled", None)
        if message is not None:
            raise RuntimeError(message)
        from ..interpreters import eager
        _hook_stack().append((self.pack_hook, self.unpack_hook))
        _global.saved_hooks_active += 1
        eager.observers = eager.observers + [_general_recording]
        return self

    def __exit__(self, *exc_info) -> None:
        from ..interpreters import eager
        _hook_stack().pop()
        _global.saved_hooks_active -= 1
        observers = list(eager.observers)
        observers.remove(_general_recording)
        eager.observers = observers


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """Keep the tensors saved for backward in host memory, moved back to their device
    when backward reads them (on a CPU-only machine: a copy). ``pin_memory`` is accepted
    for PyTorch's signature; page-locked memory is left to CuPy.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.autograd.graph import save_on_cpu
        >>> x = ug.tensor([1.0, 2.0], requires_grad=True)
        >>> with save_on_cpu():
        ...     y = (x * x).sum()
        >>> y.backward(); x.grad
        tensor([2., 4.])
    """

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda"):
        self.pin_memory = pin_memory
        self.device_type = device_type

        def pack(tensor: Tensor):
            return tensor.device, tensor.detach().to("cpu", copy=True)

        def unpack(packed) -> Tensor:
            device, host = packed
            return host.to(device)
        super().__init__(pack, unpack)


class disable_saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Context manager in which installing saved-tensor hooks raises ``RuntimeError`` with
    ``error_message`` (for code that must not have its saved tensors repacked).

    Example:
        >>> from unigrad.autograd.graph import disable_saved_tensors_hooks, save_on_cpu
        >>> with disable_saved_tensors_hooks("no hooks here"):
        ...     try:
        ...         save_on_cpu().__enter__()
        ...     except RuntimeError as error:
        ...         print(error)
        no hooks here
    """

    def __init__(self, error_message: str):
        self.error_message = error_message

    def __enter__(self):
        self._previous = getattr(_local, "saved_hooks_disabled", None)
        _local.saved_hooks_disabled = self.error_message
        return self

    def __exit__(self, *exc_info) -> None:
        _local.saved_hooks_disabled = self._previous


# ------------------------------------------------------------------------ multi-grad hooks

MULTI_GRAD_HOOKS: weakref.WeakSet = weakref.WeakSet()


class _MultiGradHook:
    """The state of one :func:`register_multi_grad_hook` over one backward pass."""

    def __init__(self, tensors: Sequence[Tensor], fn: Callable, mode: str):
        self.tensors = [weakref.ref(tensor) for tensor in tensors]
        self.fn = fn
        self.mode = mode
        self.grads: list = [None] * len(tensors)
        self.waiting: set = set()
        self.fired = False
        self.handles = [tensor.register_hook(self._receiver(position))
                        for position, tensor in enumerate(tensors)]

    def begin(self, reachable) -> None:
        """A backward pass starts: wait for the tensors whose gradients it computes."""
        self.grads = [None] * len(self.tensors)
        self.fired = False
        self.waiting = set()
        for position, reference in enumerate(self.tensors):
            tensor = reference()
            if tensor is None:
                continue
            key = tensor._grad_fn if tensor._grad_fn is not None else tensor
            if reachable(key):
                self.waiting.add(position)

    def _receiver(self, position: int):
        def receive(grad):
            if self.mode == "any":
                if not self.fired:
                    self.fired = True
                    self.fn(grad)
                return None
            self.grads[position] = grad
            self.waiting.discard(position)
            if not self.waiting and not self.fired:
                self.fired = True
                self.fn(tuple(self.grads))
            return None
        return receive

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()
        MULTI_GRAD_HOOKS.discard(self)


class _MultiGradHandle:
    __slots__ = ("_hook",)

    def __init__(self, hook: _MultiGradHook):
        self._hook = hook

    def remove(self) -> None:
        """Unregister the hook."""
        self._hook.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.remove()


def register_multi_grad_hook(tensors: Sequence[Tensor], fn: Callable, *,
                             mode: str = "all") -> _MultiGradHandle:
    """Call ``fn`` once per backward pass over several tensors.

    ``mode="all"``: after the gradients of every tensor the pass reaches are computed,
    ``fn(grads)`` with one entry per tensor (None for those it does not reach);
    ``mode="any"``: ``fn(grad)`` with the first gradient computed. Returns a handle with
    ``remove()``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.autograd.graph import register_multi_grad_hook
        >>> a = ug.tensor(1.0, requires_grad=True)
        >>> b = ug.tensor(2.0, requires_grad=True)
        >>> handle = register_multi_grad_hook((a, b), lambda grads: print(grads))
        >>> (a * 3 + b * 4).backward()
        (tensor(3.), tensor(4.))
        >>> handle.remove()
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = list(tensors)
    for position, tensor in enumerate(tensors):
        if not isinstance(tensor, Tensor) or not tensor.requires_grad:
            raise RuntimeError(f"register_multi_grad_hook(): tensors[{position}] must be a "
                               f"Tensor that requires grad")
    if not callable(fn):
        raise TypeError("register_multi_grad_hook(): fn must be callable")
    hook = _MultiGradHook(tensors, fn, mode)
    MULTI_GRAD_HOOKS.add(hook)
    return _MultiGradHandle(hook)


def begin_backward(reachable: Callable) -> None:
    """Tell the multi-grad hooks a backward pass starts (called by the engine);
    ``reachable(node_or_leaf)`` says whether the pass computes that gradient."""
    for hook in list(MULTI_GRAD_HOOKS):
        hook.begin(reachable)
