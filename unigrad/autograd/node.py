"""Graph nodes: one per recorded primitive application (the ``grad_fn``)."""

from __future__ import annotations

import traceback

from .. import _state
from ..abstract import ShapedArray
from ..tensor import Tensor

_global = _state.global_state

RELEASED = object()  # the saved values of a node whose graph was freed


class NodeHooks:
    """Rarely used per-node state, allocated on first use to keep recording cheap."""

    __slots__ = ("tensor_hooks", "retained", "pre_hooks", "post_hooks", "forward_trace",
                 "out_tangents", "metadata")

    def __init__(self):
        self.tensor_hooks = []
        self.retained = None
        self.pre_hooks = []
        self.post_hooks = []
        self.forward_trace = None
        self.out_tangents = None  # forward-mode tangents of the saved output
        self.metadata = None


class Node:
    """The backward function of one recorded op.

    ``edges[i]`` is where input ``i``'s cotangent goes: another Node, a leaf
    Tensor (its gradient accumulator), or None when input ``i`` needs no grad.
    ``saved`` holds the inputs (when the primitive saves them; an input its vjp
    does not read is kept as its abstract value) and ``versions`` their version
    numbers at save time; when the primitive saves no inputs, ``metas`` holds
    the abstract values (:class:`~unigrad.abstract.ShapedArray`) of the
    differentiable ones instead. ``out`` is the output's data when the primitive saves it,
    checked against ``out_counter`` (the output's version counter, linked when
    one is first created) and ``out_version``. ``needs[i]`` tells the rule whether
    input ``i`` needs a cotangent. Abstract values and ``needs`` tuples are
    interned and shared between nodes.
    """

    # ``presented`` (PyTorch's node name, its operands' edges; see present_as) is set only
    # on the nodes of named composites: read it with getattr(node, "presented", None).
    __slots__ = ("prim", "params", "saved", "versions", "metas", "out", "out_counter",
                 "out_version", "edges", "needs", "hooks", "presented", "__weakref__")

    def name(self) -> str:
        """PyTorch's node name, e.g. ``MulBackward0``."""
        presented = getattr(self, "presented", None)
        return self.prim.backward_name if presented is None else presented[0]

    @property
    def metadata(self) -> dict:
        """A dict for the user's own notes about this node (PyTorch's ``Node.metadata``)."""
        hooks = self._hooks()
        if hooks.metadata is None:
            hooks.metadata = {}
        return hooks.metadata

    def _hooks(self) -> NodeHooks:
        if self.hooks is None:
            self.hooks = NodeHooks()
        return self.hooks

    @property
    def next_functions(self):
        """``((node_or_accumulator, 0), ...)`` for each input, as in PyTorch."""
        result = []
        presented = getattr(self, "presented", None)
        for edge in self.edges if presented is None else presented[1]:
            if edge is None:
                result.append((None, 0))
            elif type(edge) is Node:
                result.append((edge, 0))
            else:
                result.append((AccumulateGrad(edge), 0))
        return tuple(result)

    def register_hook(self, hook):
        """``hook(grad_inputs, grad_outputs)`` runs after this node computes its grads."""
        return _HookHandle(self._hooks().post_hooks, hook)

    def register_prehook(self, hook):
        """``hook(grad_outputs)`` runs before this node; may return replacement grads."""
        return _HookHandle(self._hooks().pre_hooks, hook)

    def __repr__(self) -> str:
        return f"<{self.name()} object at {hex(id(self))}>"

    # PyTorch's views of what the node saved (properties: a __getattr__ would slow every
    # attribute read of every node in the backward pass)
    def _saved_operand(self, position: int, attribute: str):
        saved = self.saved
        if saved is RELEASED:
            from .engine import ERR_BACKWARD_TWICE  # (the engine imports this module)
            raise RuntimeError(ERR_BACKWARD_TWICE)
        if isinstance(saved, tuple) and position < len(saved) and \
                isinstance(saved[position], Tensor):
            return saved[position]
        raise AttributeError(f"'{self.name()}' object has no attribute '{attribute}'")

    @property
    def _saved_self(self) -> Tensor:
        """The first operand the node saved (the tensor itself), as PyTorch's node."""
        return self._saved_operand(0, "_saved_self")

    @property
    def _saved_other(self) -> Tensor:
        """The second operand the node saved (the tensor itself)."""
        return self._saved_operand(1, "_saved_other")

    @property
    def _saved_result(self) -> Tensor:
        """The output the node saved: a new tensor with its values and this ``grad_fn``."""
        if self.saved is RELEASED:
            from .engine import ERR_BACKWARD_TWICE
            raise RuntimeError(ERR_BACKWARD_TWICE)
        output = self.out
        if output is None:
            raise AttributeError(f"'{self.name()}' object has no attribute '_saved_result'")
        from ..tensor import _make_tensor
        data = output.unpack()._data if hasattr(output, "unpack") else output
        result = _make_tensor(data, True)
        result._grad_fn = self
        return result


def is_recorded(*operands) -> bool:
    """Whether an op on ``operands`` is recorded on the tape now (grad mode on and an
    operand that requires grad).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.autograd.node import is_recorded
        >>> is_recorded(ug.ones(2, requires_grad=True), 2.0), is_recorded(ug.ones(2))
        (True, False)
    """
    return _state.local.grad_enabled and any(
        isinstance(operand, Tensor) and operand._requires_grad for operand in operands)


def present_as(result, name: str, *operands):
    """Show the node that made ``result`` as PyTorch's node ``name`` over ``operands``.

    A composite (``linear``, ``mse_loss``...) records the nodes of the primitives it
    is made of; PyTorch records one node of its own. This renames the composite's last
    node and gives it ``operands`` (in PyTorch's order) as its ``next_functions``, so that
    ``grad_fn`` prints, and graph walks see, what PyTorch's would; backward still runs the
    composite's rules. Returns ``result``; does nothing when ``result`` records no node of
    its own.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.autograd.node import present_as
        >>> x = ug.tensor([1.0, 2.0], requires_grad=True)
        >>> y = present_as((x - 1.0) * (x - 1.0), "SquareOfShiftBackward0", x)
        >>> y.grad_fn, len(y.grad_fn.next_functions)
        (<SquareOfShiftBackward0 object at 0x...>, 1)
        >>> y.sum().backward(); x.grad
        tensor([0., 2.])
    """
    node = result._grad_fn if isinstance(result, Tensor) else None
    if type(node) is not Node:
        return result
    edges = []
    for operand in operands:  # (one loop: this runs for every named composite)
        if isinstance(operand, Tensor):
            producer = operand._grad_fn
            if producer is node:  # the composite returned an operand's own node
                return result
            edges.append((operand if producer is None else producer)
                         if operand._requires_grad else None)
        else:
            edges.append(None)
    node.presented = (name, tuple(edges))
    return result


class AccumulateGrad:
    """The view PyTorch gives of a leaf's gradient sink in ``next_functions``."""

    __slots__ = ("variable",)

    def __init__(self, variable: Tensor):
        self.variable = variable

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    @property
    def next_functions(self) -> tuple:
        """A leaf's sink leads nowhere: ``()``."""
        return ()

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


_new_node = object.__new__


_AVALS: dict = {}


def _interned_aval(key) -> ShapedArray:
    """One shared, immutable ShapedArray per (shape, dtype): no allocation per recorded op."""
    if len(_AVALS) >= 4096:
        _AVALS.clear()
    aval = _new_node(ShapedArray)
    aval.shape, aval.dtype = key
    _AVALS[key] = aval
    return aval


_NEEDS: dict = {}


def _needs_tuple(key) -> tuple:
    """The shared ``needs`` tuple for ``key = (input count, bit mask)``, first input highest."""
    count, mask = key
    needs = tuple(bool(mask >> (count - 1 - i) & 1) for i in range(count))
    _NEEDS[key] = needs
    return needs


_INFERENCE_SAVE_ERROR = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use unigrad.no_grad() instead of "
    "unigrad.inference_mode().")


def refresh_stale_view(tensor: Tensor) -> None:
    """See :func:`unigrad.ops.inplace.refresh_stale_view` (imported lazily: ops import us)."""
    from ..ops.inplace import refresh_stale_view as refresh
    refresh(tensor)


def _check_special_input(tensor: Tensor) -> None:
    """Inputs with extra state: inference tensors cannot be saved; stale views are refreshed."""
    if tensor._extra.get("inference"):
        raise RuntimeError(_INFERENCE_SAVE_ERROR)
    refresh_stale_view(tensor)


def _aval_of(data) -> ShapedArray:
    return _aval_of_key((data.shape, data.dtype))


def _aval_of_key(key) -> ShapedArray:
    aval = _AVALS.get(key)
    return aval if aval is not None else _interned_aval(key)


def _keep_only_needed(node: Node, prim, args: tuple) -> None:
    """Replace saved inputs the vjp will not read by their abstract values."""
    keep = prim.saved_for(node.needs)
    saved = list(args)
    versions = node.versions
    for i, a in enumerate(args):
        if not keep[i] and isinstance(a, Tensor):
            saved[i] = _aval_of(a._data)
            versions[i] = None
    node.saved = tuple(saved)


def record(prim, args, params, result: Tensor) -> None:
    """Attach a new Node for ``prim(*args)`` to ``result`` (called by ``bind``)."""
    node = _new_node(Node)
    node.prim = prim
    node.params = params
    edges = []
    mask = 0  # bit i set when input i needs a cotangent
    if prim.saves_inputs:
        versions = []
        for a in args:
            mask <<= 1
            if isinstance(a, Tensor):
                if a._extra is not None:
                    _check_special_input(a)
                if a._requires_grad:
                    fn = a._grad_fn
                    edges.append(a if fn is None else fn)
                    mask |= 1
                else:
                    edges.append(None)
                counter = a._vc
                versions.append(0 if counter is None else counter[0])
            else:
                edges.append(None)
                versions.append(None)
        node.saved = args
        node.versions = versions
        node.metas = None
    else:
        metas = []
        for a in args:
            mask <<= 1
            if isinstance(a, Tensor) and a._requires_grad:
                if a._extra is not None:
                    refresh_stale_view(a)
                fn = a._grad_fn
                edges.append(a if fn is None else fn)
                mask |= 1
                data = a._data
                key = (data.shape, data.dtype)
                aval = _AVALS.get(key)
                if aval is None:
                    aval = _interned_aval(key)
                metas.append(aval)
            else:
                edges.append(None)
                metas.append(None)
        node.saved = ()
        node.versions = None
        node.metas = metas
    node.edges = edges
    key = (len(edges), mask)
    needs = _NEEDS.get(key)
    node.needs = needs if needs is not None else _needs_tuple(key)
    if prim.saved_for is not None:
        _keep_only_needed(node, prim, args)
    node.out = result._data if prim.saves_output else None
    counter = result._vc  # a view's output shares its base's counter; others get one lazily
    node.out_counter = counter
    node.out_version = 0 if counter is None else counter[0]
    node.hooks = None
    if _global.anomaly_enabled:
        node._hooks().forward_trace = traceback.extract_stack()[:-3]
    result._grad_fn = node
    result._requires_grad = True
    if _global.saved_hooks_active:
        from .graph import pack_saved  # (graph imports this module)
        pack_saved(node, result)


_ONE_NEEDED = (True,)
_FIRST_NEEDED = (True, False)
_UNVERSIONED = {1: (None,), 2: (None, None)}  # shared: nodes never modify their versions
_LONE_METAS: dict = {}


def _lone_metas(key) -> tuple:
    """The shared ``metas`` of a node whose first input, of this shape and dtype, is its only
    Tensor: one tuple per (shape, dtype, arity) instead of a list per recorded op."""
    if len(_LONE_METAS) >= 4096:
        _LONE_METAS.clear()
    shape, dtype, count = key
    metas = (_aval_of_key((shape, dtype)),) + (None,) * (count - 1)
    _LONE_METAS[key] = metas
    return metas
_NO_PARAMS: dict = {}  # shared and never mutated: the params of ops that take none


def record_single(prim, args: tuple, x: Tensor, result: Tensor, params: dict = _NO_PARAMS) -> None:
    """:func:`record` when ``args[0] is x`` is the only Tensor and it requires grad.

    Unrolled for the eager hot path (``bind_first_tensor``); anomaly mode never
    comes here, and the node it builds is the one :func:`record` would build.
    """
    if x._extra is not None:
        if prim.saves_lone_first:
            _check_special_input(x)
        else:
            refresh_stale_view(x)
    node = _new_node(Node)
    node.prim = prim
    node.params = params
    fn = x._grad_fn
    if len(args) == 1:
        node.edges = [x if fn is None else fn]
        node.needs = _ONE_NEEDED
    else:
        node.edges = [x if fn is None else fn, None]
        node.needs = _FIRST_NEEDED
    if prim.saves_inputs and not prim.saves_lone_first:
        node.saved = (_aval_of(x._data),) + args[1:]
        node.versions = _UNVERSIONED[len(args)]
        node.metas = None
    elif prim.saves_inputs:
        counter = x._vc
        node.saved = args
        node.versions = [0 if counter is None else counter[0]] if len(args) == 1 else \
            [0 if counter is None else counter[0], None]
        node.metas = None
    else:
        data = x._data
        key = (data.shape, data.dtype, len(args))
        metas = _LONE_METAS.get(key)
        node.saved = ()
        node.versions = None
        node.metas = metas if metas is not None else _lone_metas(key)
    node.out = result._data if prim.saves_output else None
    counter = result._vc  # a view shares its base's counter; other outputs get one lazily
    node.out_counter = counter
    node.out_version = 0 if counter is None else counter[0]
    node.hooks = None
    result._grad_fn = node
    result._requires_grad = True
