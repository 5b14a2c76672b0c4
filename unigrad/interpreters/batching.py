"""The batching interpreter: ``vmap`` runs a per-example function once on the whole batch.

Inside ``ug.vmap(fn)``, each batched argument is a per-example Tensor whose
data is a :class:`BatchTracer`: the whole batch (``value``, a Tensor or an
array of the level below) and the axis its examples lie along (``dim``). The
function sees per-example shapes. When a primitive meets a batched operand of
this level, its declared batching rule ``prim.batch(values, dims, **params) ->
(out, out_dim)`` computes the whole batch's result with the primitives of the
level below (``dims[i]`` is ``None`` for an unbatched operand). Everything else
is handed to the parent interpreter unchanged.

The whole-batch values are ordinary Tensors of the level below, so the tape
records them (``grad`` of a ``vmap``), and per-example Tensors record on the
tape too (``vmap`` of a ``grad``: the vjp rules then run on batched values).
Levels nest (``vmap`` of ``vmap``) and compose with ``jvp`` and ``jit``.

Rules are derived for elementwise primitives (:func:`leading_dims_batch_rule`);
the helpers here (:func:`move_to_front`, :func:`materialize`,
:func:`shift_axes`) keep the hand-written ones short.

Example:
    >>> import unigrad as ug
    >>> ug.vmap(lambda row: row.sum())(ug.ones((3, 4)))
    tensor([4., 4., 4.])
"""

from __future__ import annotations

import weakref

import numpy as np

from .. import _state
from ..abstract import ShapedArray
from ..tensor import Tensor, _make_tensor
from . import Interpreter, running_parent
from .array import AbstractArray

_local = _state.local


class BatchingError(ValueError):
    """A value cannot be batched, or was used outside its ``vmap``."""


class BatchTracer(AbstractArray):
    """A batch of values standing where one example's array would be."""

    __slots__ = ("value", "dim", "interpreter")

    def __init__(self, value, dim: int, interpreter: BatchInterpreter):
        self.value = value
        self.dim = dim
        self.interpreter = interpreter

    @property
    def shape(self) -> tuple:
        shape = tuple(self.value.shape)
        return shape[:self.dim] + shape[self.dim + 1:]

    @property
    def dtype(self) -> np.dtype:
        value = self.value
        return value._data.dtype if isinstance(value, Tensor) else np.dtype(value.dtype)

    def detached(self) -> BatchTracer:
        value = self.value
        if isinstance(value, Tensor):
            value = value.detach()
        return BatchTracer(value, self.dim, self.interpreter)

    def __repr__(self) -> str:
        return f"BatchTracer(shape={self.shape}, dtype={self.dtype}, batch_dim={self.dim})"

    def _concrete_error(self, what: str) -> Exception:
        return BatchingError(
            f"vmap: {what} of a batched value: inside vmap a value stands for a whole batch "
            f"of examples, so Python control flow and conversions cannot depend on it. Use "
            f"ug.where(condition, x, y) to select per example, or pass the value with "
            f"in_axes=None if it is the same for every example.")

    def _check_alive(self) -> None:
        if not self.interpreter.active:
            raise BatchingError(
                "vmap: a batched value was used after its vmap returned; return it from the "
                "vmapped function instead of storing it")


class BatchInterpreter(Interpreter):
    """One ``vmap`` level: batch ``size``, and what random ops do (``randomness``)."""

    __slots__ = ("size", "randomness", "active", "created")

    def __init__(self, size: int, randomness: str = "error"):
        super().__init__()
        self.size = size
        self.randomness = randomness
        self.active = False
        # id -> weakref of the tensors computed inside this vmap (they may take batched
        # values in place; ids of dead tensors get reused, hence the weakrefs)
        self.created: dict = {}

    def __enter__(self):
        self.active = True
        return super().__enter__()

    def __exit__(self, *exc_info) -> None:
        self.active = False
        super().__exit__(*exc_info)

    def process(self, prim, args: tuple, params: dict):
        values = []
        dims = []
        batched = any_tensor = requires_grad = False
        for arg in args:
            data = arg
            if isinstance(arg, Tensor):
                any_tensor = True
                if arg._requires_grad:
                    requires_grad = True
                data = arg._data
            if type(data) is BatchTracer and data.interpreter is self:
                values.append(data.value)
                dims.append(data.dim)
                batched = True
            else:
                values.append(arg)
                dims.append(None)
        if params and _batched_params(params, self):
            batched = True
        if not batched:
            result = self.process_parent(prim, args, params)
            if isinstance(result, Tensor):
                self.created[id(result)] = weakref.ref(result)
            return result
        rule = prim.batch
        if rule is None:
            raise NotImplementedError(
                f"vmap: the primitive {prim.name!r} has no batching rule, so it cannot run "
                f"inside vmap; call it outside vmap or loop over the batch")
        with running_parent(self):
            out, out_dim = rule(tuple(values), tuple(dims), **params)
        if out_dim is None:
            return out
        tracer = BatchTracer(out, out_dim, self)
        if not any_tensor:
            return tracer
        from .eager import make_result
        return make_result(prim, args, params, tracer, requires_grad, False)

    def wrap(self, value, dim: int):
        """The per-example view of ``value`` batched along ``dim`` (a Tensor)."""
        if isinstance(value, Tensor):
            from .eager import result_class
            tensor = _make_tensor(BatchTracer(value, dim, self))
            cls = result_class((value,))
            if cls is not Tensor:
                tensor.__class__ = cls
            return tensor
        return _make_tensor(BatchTracer(value, dim, self))

    def unwrap(self, value, out_dim: int):
        """The whole batch behind a per-example result, batched along ``out_dim`` (a Tensor).

        A result that does not depend on a batched input is broadcast along ``out_dim``.
        """
        data = value._data if isinstance(value, Tensor) else value
        with running_parent(self):
            if type(data) is BatchTracer and data.interpreter is self:
                whole = move_axis(data.value, data.dim, out_dim)
            else:
                whole = materialize(value, None, self.size, out_dim)
        return whole


def check_batched_write(tensor: Tensor, value) -> None:
    """Refuse an in-place write of a batched ``value`` into a tensor that is the same for
    every example and was not computed inside the vmap (a Parameter, a buffer, a closed-over
    tensor): it would keep a value that exists only while the vmap runs."""
    if type(value) is not BatchTracer or type(tensor._data) is BatchTracer:
        return
    made_inside = value.interpreter.created.get(id(tensor))
    if made_inside is None or made_inside() is not tensor:
        raise BatchingError(
            "vmap: an in-place write of a value that differs per example into a tensor that "
            "is the same for every example and was made outside vmap (a parameter, buffer or "
            "closed-over tensor) is not possible: it would hold a batch that exists only "
            "while vmap runs. Write into a copy made inside the function (x = x.clone()), "
            "use the out-of-place op, or pass the tensor batched (in_axes)")


def _batched_params(params: dict, interpreter: BatchInterpreter) -> bool:
    """Whether a parameter object holds arrays batched at this level (index arrays)."""
    from ..graph.dynamic import dynamic_arrays
    return bool(dynamic_arrays(params, lambda a: type(a) is BatchTracer and
                               a.interpreter is interpreter))


# ============================================================================= rule helpers

def ndim_of(value) -> int:
    """The number of dimensions of a Tensor, array or Python number (0)."""
    return getattr(value, "ndim", 0)


def move_axis(value, source: int, destination: int):
    """``value`` with axis ``source`` moved to ``destination`` (a transpose)."""
    ndim = ndim_of(value)
    source %= ndim
    destination %= ndim
    if source == destination:
        return value
    axes = [axis for axis in range(ndim) if axis != source]
    axes.insert(destination, source)
    from ..ops._primitive import bind
    from ..ops.shape import transpose_p
    return bind(transpose_p, value, axes=tuple(axes))


def move_to_front(value, dim: int | None):
    """``value`` with its batch axis first (unchanged when it is not batched)."""
    return value if dim is None else move_axis(value, dim, 0)


def materialize(value, dim: int | None, size: int, destination: int = 0):
    """``value`` batched along ``destination``: moved there, or broadcast when unbatched."""
    if dim is not None:
        return move_axis(value, dim, destination)
    from ..ops._primitive import bind
    from ..ops.shape import broadcast_to_p, reshape_p
    shape = tuple(getattr(value, "shape", ()))
    if not isinstance(value, Tensor) and not hasattr(value, "shape"):
        from ..ops.creation import tensor as to_tensor
        value = to_tensor(value)
        shape = tuple(value.shape)
    expanded = shape[:destination] + (1,) + shape[destination:]
    value = bind(reshape_p, value, shape=expanded)
    return bind(broadcast_to_p, value,
                shape=shape[:destination] + (size,) + shape[destination:])


def shift_axes(axes, ndim: int, offset: int = 1):
    """Per-example axes (an int, tuple of ints or None) as axes of the batched value whose
    batch axis is first: normalized to non-negative and shifted by ``offset``."""
    if axes is None:
        return None
    if isinstance(axes, (tuple, list)):
        return tuple(int(axis) % ndim + offset if ndim else int(axis) + offset
                     for axis in axes)
    return int(axes) % ndim + offset if ndim else int(axes) + offset


def batch_size(values, dims) -> int:
    """The batch size read from the first batched operand."""
    for value, dim in zip(values, dims):
        if dim is not None:
            return int(value.shape[dim])
    raise BatchingError("no batched operand")


class RuleFor:
    """A batching rule written for any primitive of a family, given in a declaration as
    ``batch=over_axes("axes")``: the primitive makes its own rule with ``for_primitive``."""

    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make

    def for_primitive(self, prim):
        return self.make(prim)


def over_axes(name: str) -> RuleFor:
    """``batch=`` of a one-operand primitive whose param ``name`` holds per-example axes."""
    return RuleFor(lambda prim: axes_param_batch_rule(prim, name))


def over_leading_dims() -> RuleFor:
    """``batch=`` of a primitive that maps over the leading dimensions of its operands."""
    return RuleFor(leading_dims_batch_rule)


def _bind(prim, *args, **params):
    from ..ops._primitive import bind
    return bind(prim, *args, **params)


def leading_dims_batch_rule(prim):
    """The rule of a primitive that maps over any leading dimensions of its operands (its
    params name only trailing ones: elementwise ops, matrix ops, windows, triangles,
    copies): the batch axes go first, and batched operands get singleton axes after them
    so their per-example dimensions line up with the others' by NumPy's right-aligned
    broadcasting; then the primitive runs unchanged."""
    def batch_leading_dims(values, dims, **params):
        ranks = [ndim_of(v) - (d is not None) for v, d in zip(values, dims)]
        rank = max(ranks)
        moved = []
        for value, dim, own_rank in zip(values, dims, ranks):
            if dim is not None:
                value = move_to_front(value, dim)
                if own_rank < rank:
                    shape = tuple(value.shape)
                    from ..ops.shape import reshape_p
                    value = _bind(reshape_p, value,
                                  shape=shape[:1] + (1,) * (rank - own_rank) + shape[1:])
            moved.append(value)
        return _bind(prim, *moved, **params), 0
    batch_leading_dims.__name__ = f"batch_{prim.name}"
    return batch_leading_dims


def axes_param_batch_rule(prim, name: str):
    """The rule of a one-operand primitive whose param ``name`` holds per-example axes (an
    int, a tuple of ints or None for all): batch axis first, axes shifted past it.

    ``None`` (every axis) and an axis of a 0-d example act on the example flattened to a
    vector; the result then takes the per-example shape the primitive's shape rule gives.
    """
    def batch_axes(values, dims, **params):
        value = move_to_front(values[0], dims[0])
        axes = params[name]
        rank = ndim_of(value) - 1
        if axes is None or (rank == 0 and axes != ()):
            size = int(value.shape[0])
            flat = _bind(_reshape_p(), value, shape=(size, -1) if rank else (size, 1))
            out = _bind(prim, flat, *values[1:], **{**params, name: 1 if axes is None else
                                                    shift_axes(axes, 1)})
            example = ShapedArray(tuple(value.shape[1:]), value.dtype if not isinstance(
                value, Tensor) else value._data.dtype)
            shape = prim.shape(example, **params)[0]
            return _bind(_reshape_p(), out, shape=(size,) + tuple(shape)), 0
        return _bind(prim, value, *values[1:], **{**params, name: shift_axes(axes, rank)}), 0
    batch_axes.__name__ = f"batch_{prim.name}"
    return batch_axes


def _reshape_p():
    from ..ops.shape import reshape_p
    return reshape_p


def looped_batch_rule(prim):
    """The rule of a primitive whose result for one example depends on the whole example
    in a way no batched call expresses (a per-example normalization): the primitive runs
    once per example and the results are stacked. Correct, not fast: kept for
    non-differentiable helpers."""
    def batch_by_loop(values, dims, **params):
        size = batch_size(values, dims)
        from ..ops.shape import stack
        results = []
        for index in range(size):
            example = [v if d is None else v[(slice(None),) * d + (index,)]
                       for v, d in zip(values, dims)]
            results.append(_bind(prim, *example, **params))
        return stack(results), 0
    batch_by_loop.__name__ = f"batch_{prim.name}"
    return batch_by_loop


# ============================================================================= randomness

def randomness_levels(name: str) -> list:
    """The active vmap levels whose examples draw their own random numbers, outermost first.

    Random ops call it before drawing: a vmap with ``randomness="error"`` makes
    them raise (torch.func's default), ``"same"`` shares one draw between the
    examples, ``"different"`` gives each example its own.
    """
    levels = []
    interpreter = _local.interpreter
    while interpreter is not None:
        if type(interpreter) is BatchInterpreter and interpreter.active:
            if interpreter.randomness == "error":
                raise BatchingError(
                    f"vmap: called random operation {name}() while in randomness error mode. "
                    f"Please either use the 'same' or 'different' randomness flags on vmap or "
                    f"perform the randomness operation out of vmap")
            if interpreter.randomness == "different":
                levels.append(interpreter)
        interpreter = interpreter.parent
    return levels[::-1]


def per_example(tensor: Tensor, levels: list) -> Tensor:
    """``tensor``, drawn with the levels' batch sizes in front, as per-example values."""
    for level in levels:
        tensor = level.wrap(tensor, 0)
    return tensor
