"""Custom differentiable operations: ``Function`` with ``forward``/``backward`` (PyTorch API).

A ``Function`` subclass declares ``forward(ctx, *args)`` (or ``forward(*args)``
plus ``setup_context(ctx, inputs, output)``) and ``backward(ctx, *grads)``;
``Fn.apply(*args)`` runs ``forward`` without recording and attaches one graph
node, named ``<ClassName>Backward``, whose rule calls ``backward``.

How the node fits the engine (which gives every node one incoming cotangent):

- one output: the output's ``grad_fn`` is the Function's node itself;
- several outputs: the Function's node receives a :class:`_GradPack` (one slot
  per output, summed slot-wise by ``+``), and each differentiable output gets a
  small ``<ClassName>Backward`` select node that packs its cotangent into its
  slot and forwards it to the Function's node. ``backward`` therefore runs
  once per backward pass, with every output's gradient (zeros, or None after
  ``ctx.set_materialize_grads(False)``, for outputs that received none).

Saved tensors live in the node's ``saved`` slot, so the engine version-checks
them and frees them after a backward pass without ``retain_graph``; saved
outputs are stored without their ``grad_fn`` (no reference cycle) and get it
back when ``backward`` records (``create_graph=True``).

Example:
    >>> import unigrad as ug
    >>> class Cube(ug.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x ** 3
    ...     @staticmethod
    ...     def backward(ctx, grad):
    ...         (x,) = ctx.saved_tensors
    ...         return grad * 3 * x ** 2
    >>> x = ug.tensor(2.0, requires_grad=True)
    >>> y = Cube.apply(x)
    >>> y.backward()
    >>> x.grad, y.grad_fn.name()
    (tensor(12.), 'CubeBackward')
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _state
from ..abstract import ShapedArray
from ..tensor import Tensor, _make_tensor, shared_counter, version_of
from .grad_mode import no_grad
from .graph import PackedValue, pack_saved
from .node import _INFERENCE_SAVE_ERROR, RELEASED, record

_local = _state.local
_global = _state.global_state

ERR_ONCE_DIFFERENTIABLE = ("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")

_PACK_PLACEHOLDER = np.empty((), dtype=np.float64)


class _GradPack:
    """The cotangents of a multi-output Function: ``slots[i]`` for output ``i``.

    It poses as a 0-d float64 value (the placeholder the select nodes point
    at) so the engine's shape/dtype conformation leaves it untouched.
    """

    __slots__ = ("slots",)
    shape = ()
    dtype = _PACK_PLACEHOLDER.dtype

    def __init__(self, slots: dict):
        self.slots = slots

    def __add__(self, other: _GradPack) -> _GradPack:
        merged = dict(self.slots)
        for index, value in other.slots.items():
            merged[index] = value if index not in merged else merged[index] + value
        return _GradPack(merged)

    __radd__ = __add__


class _BackwardRule:
    """The primitive-like object a Function's node runs (what the engine calls ``prim``)."""

    __slots__ = ("name", "backward_name", "vjp", "jvp", "saves_inputs", "saves_output",
                 "differentiable", "is_view", "kind", "saved_for",
                 "saves_lone_first")

    def __init__(self, name: str, vjp: Callable, saves_inputs: bool):
        self.name = name
        self.backward_name = name
        self.vjp = vjp
        self.jvp = None
        self.saves_inputs = saves_inputs
        self.saves_output = False
        self.differentiable = True
        self.is_view = False
        self.saved_for = None
        self.saves_lone_first = saves_inputs
        self.kind = "other"

    def __repr__(self) -> str:
        return f"<backward rule {self.name}>"


class FunctionCtx:
    """The ``ctx`` a Function's ``forward``/``setup_context`` and ``backward`` share."""

    def __init__(self, needs_input_grad: tuple):
        self.needs_input_grad = needs_input_grad
        self.materialize_grads = True
        self._to_save = None
        self._dirty = ()
        self._non_differentiable = ()
        self._node = None
        self._input_count = len(needs_input_grad)
        self._output_slots = {}

    def save_for_backward(self, *tensors) -> None:
        """Keep ``tensors`` (or None) for ``backward``; read them back with ``saved_tensors``."""
        for i, tensor in enumerate(tensors):
            if tensor is not None and not isinstance(tensor, Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} "
                                f"is not a Tensor or None (got {type(tensor).__name__})")
        self._to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        """Keep ``tensors`` for ``jvp`` (read back with ``saved_tensors`` during forward)."""
        self.save_for_backward(*tensors)

    def mark_dirty(self, *tensors) -> None:
        """Declare inputs that ``forward`` modified in place (they must be returned)."""
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Declare outputs that get no gradient (they will not require grad)."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With False, ``backward`` gets None instead of zeros for outputs without a gradient."""
        self.materialize_grads = bool(value)

    @property
    def saved_tensors(self) -> tuple:
        """The tensors given to ``save_for_backward``, checked against in-place modification."""
        node = self._node() if self._node is not None else None
        if node is None:
            return tuple(self._to_save or ())
        saved = node.saved
        if saved is RELEASED:
            from .engine import ERR_BACKWARD_TWICE
            raise RuntimeError(ERR_BACKWARD_TWICE)
        if not node.prim.saves_inputs:
            return ()
        count = self._input_count
        result = []
        for i, (value, version) in enumerate(zip(saved[count:], node.versions[count:])):
            if type(value) is PackedValue:  # saved through saved_tensors_hooks
                value = value.unpack()
            elif value is not None and version_of(value) != version:
                from .engine import _version_message
                raise RuntimeError(_version_message(value._data, node, version_of(value), version,
                                                    value))
            if i in self._output_slots and _local.grad_enabled:
                value = _output_with_history(node, value, self._output_slots[i])
            result.append(value)
        return tuple(result)


def _output_with_history(node, alias: Tensor, output_index) -> Tensor:
    """A saved output, reattached to the graph so a recorded ``backward`` differentiates it."""
    tensor = _make_tensor(alias._data, True)
    if output_index is None:
        tensor._grad_fn = node
    else:
        packed = _make_tensor(_PACK_PLACEHOLDER, True)
        packed._grad_fn = node
        record(_select_rule(node.prim.name), (packed,), {"index": output_index}, tensor)
    tensor._vc = shared_counter(alias)
    return tensor


class _FunctionMeta(type):
    """Gives every Function subclass its own pair of backward rules."""

    def __init__(cls, name, bases, namespace):
        super().__init__(name, bases, namespace)
        backward_name = f"{name}Backward"

        def vjp(grad, out, needs, *saved, **params):
            return _function_vjp(cls, grad, needs, **params)
        cls._rule_without_saved = _BackwardRule(backward_name, vjp, saves_inputs=False)
        cls._rule_with_saved = _BackwardRule(backward_name, vjp, saves_inputs=True)


class Function(metaclass=_FunctionMeta):
    """Base class of custom differentiable operations; call them with ``apply``.

    Example:
        >>> import unigrad as ug
        >>> class Double(ug.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         return x * 2
        ...     @staticmethod
        ...     def backward(ctx, grad):
        ...         return grad * 2
        >>> x = ug.tensor([1.0, 2.0], requires_grad=True)
        >>> Double.apply(x).sum().backward()
        >>> x.grad
        tensor([2., 2.])
    """

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs: tuple, output) -> None:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward mode AD.")

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward``; when an input requires grad, record one node that calls ``backward``."""
        recorders = getattr(_local, "recorders", None)
        if recorders:  # TensorFlow-style tapes record this call as one op
            from .recording import note_results, substitute
            args, tracking = substitute(args)
            result = cls._apply_and_record(*args, **kwargs)
            note_results(tracking, result)
            return result
        return cls._apply_and_record(*args, **kwargs)

    @classmethod
    def _apply_and_record(cls, *args, **kwargs):
        recording = _local.grad_enabled and any(
            isinstance(a, Tensor) and a._requires_grad for a in args)
        ctx = FunctionCtx(tuple(isinstance(a, Tensor) and a._requires_grad and recording
                                for a in args))
        with no_grad():
            if cls.setup_context is not Function.setup_context:
                # under a functional transform (torch.func.grad...), forward sees its inputs
                # as plain values, as PyTorch's unwrapped tensors: x.numpy() works there
                plain = tuple(a.detach() if isinstance(a, Tensor) else a for a in args) \
                    if _local.transform_depth else args
                output = cls.forward(*plain, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
        is_tuple = isinstance(output, tuple)
        outputs = list(output) if is_tuple else [output]
        _alias_returned_inputs(ctx, args, outputs)
        if _local.forward_levels:
            _propagate_tangents(cls, ctx, args, outputs)
        if recording:
            _attach_node(cls, ctx, args, outputs)
        else:
            ctx._to_save = None
        return tuple(outputs) if is_tuple else outputs[0]


def _alias_returned_inputs(ctx: FunctionCtx, args: tuple, outputs: list) -> None:
    """An input returned as is (not marked dirty) becomes a new tensor sharing its storage."""
    dirty = {id(t) for t in ctx._dirty}
    inputs = {id(a) for a in args if isinstance(a, Tensor)}
    for i, out in enumerate(outputs):
        if isinstance(out, Tensor) and id(out) in inputs and id(out) not in dirty:
            alias = _make_tensor(out._data)
            alias._vc = shared_counter(out)
            if ctx._to_save is not None:
                ctx._to_save = tuple(alias if s is out else s for s in ctx._to_save)
            outputs[i] = alias


def _attach_node(cls, ctx: FunctionCtx, args: tuple, outputs: list) -> None:
    for tensor in ctx._dirty:
        if tensor._requires_grad and tensor._grad_fn is None:
            raise RuntimeError("a leaf Variable that requires grad has been used in an in-place "
                               "operation.")
    non_differentiable = {id(t) for t in ctx._non_differentiable}
    differentiable = [i for i, out in enumerate(outputs)
                      if isinstance(out, Tensor) and out._data.dtype.kind in "fc"
                      and id(out) not in non_differentiable]
    single = len(outputs) == 1
    params = {"ctx": ctx,
              "input_shapes": tuple(a.shape if isinstance(a, Tensor) else None for a in args),
              "output_metas": tuple((out._data.shape, out._data.dtype)
                                    if isinstance(out, Tensor) else None for out in outputs)}
    head = outputs[0] if single and differentiable else _make_tensor(_PACK_PLACEHOLDER)
    record(cls._rule_without_saved, args, params, head)
    if ctx._dirty:  # inputs modified in place got a new history: their views must see it
        _state.global_state.history_generation += 1
    node = head._grad_fn
    ctx._node = weakref.ref(node)
    if not single:
        select = _select_rule(cls._rule_without_saved.name)
        for i in differentiable:
            record(select, (head,), {"index": i}, outputs[i])
    _store_saved(cls, ctx, node, args, outputs, single)


def _store_saved(cls, ctx: FunctionCtx, node, args: tuple, outputs: list, single: bool) -> None:
    """Put the saved tensors in the node, after one abstract value per input.

    The engine reads the inputs' shapes and dtypes from the first entries,
    version-checks the tensors and frees them all after a non-retaining pass.
    """
    if ctx._to_save is None:
        return
    saved = [ShapedArray(a.shape, a._data.dtype) if isinstance(a, Tensor) else None
             for a in args]
    versions = [None] * len(args)
    for i, tensor in enumerate(ctx._to_save):
        if tensor is None:
            saved.append(None)
            versions.append(None)
            continue
        if tensor.is_inference():
            raise RuntimeError(_INFERENCE_SAVE_ERROR)
        position = next((k for k, out in enumerate(outputs) if out is tensor), None)
        if position is not None and tensor._grad_fn is not None:
            alias = _make_tensor(tensor._data)
            alias._vc = shared_counter(tensor)
            ctx._output_slots[i] = None if single else position
            tensor = alias
        saved.append(tensor)
        versions.append(version_of(tensor))
    ctx._to_save = None
    node.prim = cls._rule_with_saved
    node.saved = tuple(saved)
    node.versions = versions
    node.metas = None
    if _global.saved_hooks_active:
        pack_saved(node, None)


@functools.cache
def _select_rule(name: str) -> _BackwardRule:
    return _BackwardRule(name, _select_vjp, saves_inputs=False)


def _select_vjp(grad, out, needs, packed, *, index):
    return (_GradPack({index: grad}),)


def _function_vjp(cls, grad, needs: tuple, *, ctx: FunctionCtx, input_shapes: tuple,
                  output_metas: tuple):
    recording = _local.grad_enabled
    slots = grad.slots if isinstance(grad, _GradPack) else {0: grad}
    grad_outputs = []
    for i, meta in enumerate(output_metas):
        value = slots.get(i)
        if value is None:
            if meta is not None and ctx.materialize_grads:
                value = np.zeros(*meta)
        if value is not None and not isinstance(value, Tensor):
            value = _make_tensor(value)
        grad_outputs.append(value)
    result = cls.backward(ctx, *grad_outputs)
    grads = _validated_grads(cls, result, needs, input_shapes)
    if recording:
        return grads
    return tuple(g._data if isinstance(g, Tensor) else g for g in grads)


def _validated_grads(cls, result, needs: tuple, input_shapes: tuple) -> tuple:
    name = f"{cls.__name__}Backward"
    grads = result if isinstance(result, tuple) else (result,)
    expected = len(needs)
    if len(grads) > expected and all(g is None for g in grads[expected:]):
        grads = grads[:expected]
    if len(grads) != expected:
        raise RuntimeError(f"function {name} returned an incorrect number of gradients "
                           f"(expected {expected}, got {len(grads)})")
    checked = []
    for i, (g, need) in enumerate(zip(grads, needs)):
        if g is None or not need:
            checked.append(None)
            continue
        if not isinstance(g, Tensor):
            raise TypeError(f"function {name} returned a gradient of type {type(g).__name__} at "
                            f"index {i}; expected a Tensor or None")
        shape = input_shapes[i]
        if tuple(g.shape) != shape and not _expandable(shape, tuple(g.shape)):
            raise RuntimeError(f"Function {name} returned an invalid gradient at index {i} - got "
                               f"{list(g.shape)} but expected shape compatible with "
                               f"{list(shape)}")
        checked.append(g)
    return tuple(checked)


def _expandable(shape: tuple, target: tuple) -> bool:
    try:
        return np.broadcast_shapes(shape, target) == target
    except ValueError:
        return False


def _propagate_tangents(cls, ctx: FunctionCtx, args: tuple, outputs: list) -> None:
    from ..ops.creation import zeros_like
    from .forward_ad import _conform_tangent, tangent_of
    levels = _local.forward_levels
    for depth, level in enumerate(list(levels)):
        tangents = [tangent_of(a, level) for a in args]
        if all(t is None for t in tangents):
            continue
        tangents = [zeros_like(a) if t is None and isinstance(a, Tensor) else t
                    for t, a in zip(tangents, args)]
        _local.forward_levels = levels[:depth]  # outer levels see the tangent computation
        try:
            result = cls.jvp(ctx, *tangents)
        finally:
            _local.forward_levels = levels
        results = result if isinstance(result, tuple) else (result,)
        for out, tangent in zip(outputs, results):
            if isinstance(out, Tensor) and tangent is not None and out._data.dtype.kind in "fc":
                out._extra_dict().setdefault("tangents", {})[level] = \
                    _conform_tangent(tangent, out)


def once_differentiable(backward: Callable) -> Callable:
    """Decorate a Function's ``backward`` that cannot itself be differentiated.

    It runs without recording; differentiating its result raises a RuntimeError.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.autograd import once_differentiable
        >>> class Square(ug.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x
        ...     @staticmethod
        ...     @once_differentiable
        ...     def backward(ctx, grad):
        ...         (x,) = ctx.saved_tensors
        ...         return grad * 2 * x
        >>> x = ug.tensor(3.0, requires_grad=True)
        >>> ug.autograd.grad(Square.apply(x), x)
        (tensor(6.),)
    """
    @functools.wraps(backward)
    def wrapper(ctx, *grad_outputs: Any):
        with no_grad():
            result = backward(ctx, *grad_outputs)
        if not _local.grad_enabled or not any(isinstance(g, Tensor) and g._requires_grad
                                              for g in grad_outputs):
            return result
        grads = result if isinstance(result, tuple) else (result,)
        wrapped = tuple(_delayed_error(g) for g in grads)
        return wrapped if isinstance(result, tuple) else wrapped[0]
    return wrapper


def _raise_once_differentiable(grad, out, needs, *inputs):
    raise RuntimeError(ERR_ONCE_DIFFERENTIABLE)


_DELAYED_ERROR = _BackwardRule("Error", _raise_once_differentiable, saves_inputs=False)


def _delayed_error(grad):
    """``grad`` attached to a node that raises when a backward pass reaches it."""
    if not isinstance(grad, Tensor) or grad._data.dtype.kind not in "fc":
        return grad
    source = _make_tensor(grad._data, True)
    result = _make_tensor(grad._data)
    record(_DELAYED_ERROR, (source,), {}, result)
    return result
