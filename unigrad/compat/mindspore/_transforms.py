"""MindSpore's gradient transforms, ``jit`` and context over unigrad's.

``grad``/``value_and_grad``/``GradOperation`` are unigrad's (which already
return MindSpore's structures); this module only makes the values MindSpore
Tensors: the arguments the user's function sees and every tensor in the
result. In ``GRAPH_MODE`` a gradient function compiles itself with
``unigrad.jit``, as MindSpore's does.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> x, y = ms.Tensor(1.0), ms.Tensor(2.0)
    >>> ms.grad(lambda x, y: x ** 2 + y, grad_position=(0, 1))(x, y)
    (Tensor(shape=[], dtype=Float32, value= 2), Tensor(shape=[], dtype=Float32, value= 1))
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable

import numpy as np

from ... import _state, context
from ...graph.jit import jit as _ug_jit
from ...nn.cell import Cell as _UgCell
from ...ops import manual_seed as _manual_seed
from ...tensor import Tensor as _UgTensor
from ...transforms import functional as _functional
from ...transforms.gradop import GradOperation as _UgGradOperation
from ...transforms.positions import get_grad as _ug_get_grad
from ...transforms.positions import normalize_grad_position as _normalize_grad_position
from ...transforms.vectorize import vmap as _ug_vmap
from ._tensor import to_ms

__all__ = ["grad", "value_and_grad", "get_grad", "GradOperation", "jit", "jit_class", "mutable",
           "set_context",
           "get_context", "GRAPH_MODE", "PYNATIVE_MODE", "set_seed", "get_seed", "vmap", "jvp",
           "vjp", "jacfwd", "jacrev"]

GRAPH_MODE = context.GRAPH_MODE
PYNATIVE_MODE = context.PYNATIVE_MODE

_local = _state.local
_global = _state.global_state


def _ms_arguments(fn: Callable) -> Callable:
    """``fn`` seeing MindSpore Tensors: the handles a transform or a trace passes in are
    re-classed before ``fn`` runs, and ``fn``'s results after."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        return to_ms(fn(*to_ms(args), **to_ms(kwargs)))
    return call


def _ms_results(fn: Callable, compile_in_graph_mode: bool = True) -> Callable:
    """``fn`` returning MindSpore Tensors; in GRAPH_MODE (outside a trace) it runs compiled."""
    compiled: list = []

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if compile_in_graph_mode and _global.execution_mode == GRAPH_MODE \
                and _local.trace is None:
            if not compiled:
                compiled.append(_ug_jit(fn))
            return to_ms(compiled[0](*args, **kwargs))
        return to_ms(fn(*args, **kwargs))
    return call


class _RepeatedInputs:
    """A Tensor object passed at several positions is one input to MindSpore's PyNative
    gradients: every one of those positions gets its total gradient (``grad(f, (0, 1))(x,
    x)`` is ``(df/dx, df/dx)``, not the two partial derivatives), at every order. (Compiled
    graphs, GRAPH_MODE and ``jit``, keep one input per position, as MindSpore's do.)

    The function runs with the group's representative (its first differentiated position)
    at all of the group's positions; afterwards the other differentiated positions of the
    group get the representative's gradient.
    """

    def __init__(self, args: tuple, differentiated: tuple):
        positions: dict[int, list[int]] = {}
        for index, value in enumerate(args):
            if isinstance(value, _UgTensor):
                positions.setdefault(id(value), []).append(index)
        order = [index for index in differentiated if isinstance(args[index], _UgTensor)]
        self.substitutes: dict[int, int] = {}  # position -> its representative's position
        self.copies: list[tuple[int, int]] = []  # (gradient slot, the representative's slot)
        for group in positions.values():
            if len(group) < 2:
                continue
            chosen = [index for index in group if index in order]
            representative = chosen[0] if chosen else group[0]
            self.substitutes.update((index, representative) for index in group
                                    if index != representative)
            self.copies.extend((order.index(index), order.index(representative))
                               for index in chosen[1:])

    def shared(self, input_grads: tuple) -> tuple:
        """``input_grads`` (one entry per differentiated Tensor position, or ``(position,
        gradient)`` pairs) with each repeated position given its representative's gradient."""
        grads = list(input_grads)
        for slot, source in self.copies:
            entry = input_grads[source]
            grads[slot] = (grads[slot][0], entry[1]) if isinstance(entry, tuple) else entry
        return tuple(grads)


def _with_repeated_inputs(make_transform: Callable, fn: Callable, differentiated: Callable,
                          share: Callable, sens_param: bool) -> Callable:
    """``make_transform(fn)`` treating a Tensor passed at several positions as one input
    (:class:`_RepeatedInputs`). ``differentiated(inputs)`` gives the positions differentiated
    for a call's inputs (the sensitivity left out), ``share(result, repeated)`` fixes that
    call's result. Each pattern of repeated positions gets its own transform (and compiled
    graph in GRAPH_MODE)."""
    by_pattern: dict = {}

    def transform_for(substitutes: dict) -> Callable:
        key = tuple(sorted(substitutes.items()))
        if key not in by_pattern:
            if not substitutes:
                by_pattern[key] = make_transform(fn)
            else:
                @functools.wraps(fn)
                def tied(*args, **kwargs):
                    return fn(*(args[substitutes.get(index, index)]
                                for index in range(len(args))), **kwargs)
                by_pattern[key] = make_transform(tied)
        return by_pattern[key]

    transform_for({})  # built now: the transform checks its arguments when it is created

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if _global.execution_mode == GRAPH_MODE or _local.trace is not None:
            return transform_for({})(*args, **kwargs)  # graphs: each position is its own input
        inputs = args[:-1] if sens_param and "sens" not in kwargs else args
        repeated = _RepeatedInputs(inputs, differentiated(inputs))
        result = transform_for(repeated.substitutes)(*args, **kwargs)
        return share(result, repeated) if repeated.copies else result
    return call


def _grad_transform(kind: Callable, fn: Callable, grad_position, weights, has_aux: bool,
                    return_ids: bool, sens_param: bool, with_value: bool) -> Callable:
    """``kind`` (unigrad's grad or value_and_grad) over MindSpore Tensors, a Tensor passed
    at several positions being one input."""
    positions = _normalize_grad_position(grad_position)
    several = positions is not None and not positions.bare

    def differentiated(inputs: tuple) -> tuple:
        return positions.indices if positions is not None else ()

    def share(result, repeated: _RepeatedInputs):
        if not several:
            return result
        grads = result[1] if with_value else result[0] if has_aux else result
        grads = repeated.shared(grads) if weights is None else \
            (repeated.shared(grads[0]), grads[1])
        if with_value:
            return result[0], grads
        return (grads, result[1]) if has_aux else grads

    return _with_repeated_inputs(
        lambda tied: _ms_results(kind(_ms_arguments(tied), grad_position, weights, has_aux,
                                      return_ids, sens_param)),
        fn, differentiated, share, sens_param)


def grad(fn: Callable, grad_position=0, weights=None, has_aux: bool = False,
         return_ids: bool = False, sens_param: bool = False) -> Callable:
    """``mindspore.grad``: the gradient function of ``fn`` (a function or a Cell).

    ``grad_position`` (int or tuple of ints, or None) picks inputs,
    ``weights`` (a Parameter, a list or a ParameterTuple) picks Parameters;
    the result nests like MindSpore's: one position -> a bare gradient, a
    tuple -> a tuple, positions and weights -> ``(input_grads, weight_grads)``.
    ``has_aux=True`` differentiates the first output only and returns
    ``(grads, (aux, ...))``. Both None -> ``ValueError``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> w = ms.Parameter(ms.Tensor([2.0, 3.0]), name="w")
        >>> f = lambda x: (w * x).sum()
        >>> ms.grad(f, grad_position=0, weights=[w])(ms.Tensor([1.0, 1.0]))
        (Tensor(shape=[2], dtype=Float32, value= [2.00000000e+000, 3.00000000e+000]), \
(Tensor(shape=[2], dtype=Float32, value= [1.00000000e+000, 1.00000000e+000]),))
        >>> ms.grad(f, grad_position=None, weights=None)
        Traceback (most recent call last):
        ...
        ValueError: `grad_position` and `weight` can not be None at the same time.
    """
    return _grad_transform(_functional.grad, fn, grad_position, weights, has_aux, return_ids,
                           sens_param, with_value=False)


def value_and_grad(fn: Callable, grad_position=0, weights=None, has_aux: bool = False,
                   return_ids: bool = False, sens_param: bool = False) -> Callable:
    """``mindspore.value_and_grad``: like :func:`grad`, returning ``(value, grads)`` where
    ``value`` is everything ``fn`` returned.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> value, g = ms.value_and_grad(lambda x: (x * x).sum())(ms.Tensor([1.0, 2.0]))
        >>> print(value, g)
        5.0 [2. 4.]
    """
    return _grad_transform(_functional.value_and_grad, fn, grad_position, weights, has_aux,
                           return_ids, sens_param, with_value=True)


def vmap(fn: Callable, in_axes=0, out_axes=0) -> Callable:
    """``mindspore.vmap``: ``fn`` mapped over an axis of its inputs, in one batched pass.

    ``in_axes`` is an int, None or a tuple (one entry per positional argument,
    each an int, None or a nested structure of them); ``out_axes`` places the
    mapped axis in the outputs. ``fn`` may be a Cell.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> ms.vmap(lambda x, y: x * y, in_axes=(0, None))(ms.Tensor([[1.0, 2.0], [3.0, 4.0]]),
        ...                                                 ms.Tensor(2.0))
        Tensor(shape=[2, 2], dtype=Float32, value=
        [[2.00000000e+000, 4.00000000e+000],
         [6.00000000e+000, 8.00000000e+000]])
    """
    @functools.wraps(fn)
    def call(*args, **kwargs):
        _check_vmap_axes(in_axes, args)  # MindSpore checks the axes when called
        mapped = _ug_vmap(_ms_arguments(fn), in_axes=in_axes, out_axes=out_axes)
        return to_ms(mapped(*args, **kwargs))
    return call


def _check_vmap_axes(in_axes, args: tuple) -> None:
    """MindSpore's checks of ``in_axes`` against the arguments (RuntimeError, its wording)."""
    if isinstance(in_axes, (tuple, list)) and len(in_axes) != len(args):
        raise RuntimeError(f"When vmap`s 'in_axes' is a tuple or list, and its size must be "
                           f"equal to the number of arguments of 'fn': {len(args)}, but got "
                           f"size: {len(in_axes)}.")
    pairs = _axis_pairs(in_axes if isinstance(in_axes, (tuple, list)) else [in_axes] * len(args),
                        args)
    if pairs and all(axis is None for axis, _ in pairs):
        raise RuntimeError(f"The 'in_axes' of 'vmap' cannot be all None while 'fn' is not a "
                           f"'CellList', but got {in_axes}.")
    sizes = []
    for axis, value in pairs:
        if axis is None or not hasattr(value, "shape"):
            continue
        rank = len(value.shape)
        if not -rank <= axis < rank:
            raise RuntimeError(f"The axis: {axis} in 'in_axes' is out of bounds for array of "
                               f"dimension [{-rank},{rank}).")
        sizes.append(value.shape[axis])
        if sizes[-1] != sizes[0]:
            raise RuntimeError(f"The 'axis_size' of each argument in the scope of 'vmap' should "
                               f"be equal, but got {sizes[0]} and {sizes[-1]}.")


def _axis_pairs(axes, values) -> list:
    """``[(axis, leaf), ...]``: each leaf of ``values`` with the axis ``axes`` gives it (an axis
    applies to every leaf below it; a tuple of axes pairs with a tuple of values)."""
    if isinstance(axes, (tuple, list)) and isinstance(values, (tuple, list)) \
            and len(axes) == len(values):
        return [pair for axis, value in zip(axes, values) for pair in _axis_pairs(axis, value)]
    if axes is not None and (isinstance(axes, bool) or not isinstance(axes, int)):
        raise RuntimeError(f"The axis in vmap`s 'in_axes' can only be of type Int or None, but "
                           f"got {axes!r}.")
    if isinstance(values, (tuple, list)):
        return [pair for value in values for pair in _axis_pairs(axes, value)]
    if isinstance(values, dict):
        return [pair for value in values.values() for pair in _axis_pairs(axes, value)]
    return [(axes, values)]


def jvp(fn: Callable, inputs, v, has_aux: bool = False):
    """``mindspore.jvp``: ``(outputs, jvp_outputs)``, ``fn``'s value and its derivative
    along ``v`` (forward mode); ``inputs``/``v`` are a Tensor or a tuple of Tensors.
    ``has_aux=True``: ``fn`` returns ``(out, aux...)`` and the result is
    ``(out, jvp_out, aux)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> def cube(x):
        ...     return x ** 3
        >>> out, tangent = ms.jvp(cube, ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 1.0]))
        >>> print(out, tangent)
        [1. 8.] [ 3. 12.]
    """
    return to_ms(_functional.jvp(_ms_arguments(fn), inputs, v, has_aux=has_aux))


def vjp(fn: Callable, *inputs, weights=None, has_aux: bool = False):
    """``mindspore.vjp``: ``(outputs, vjp_fn)`` (``(outputs, vjp_fn, aux)`` with
    ``has_aux``); ``vjp_fn(v)`` returns one gradient per input, as a tuple.

    With ``weights`` (a Parameter, a list or a ParameterTuple) ``vjp_fn(v)``
    returns ``(input_grads, weight_grads)``; the weight gradients nest like
    :func:`grad`'s (one Parameter -> a bare Tensor).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> def product(x, y):
        ...     return x * y
        >>> out, vjp_fn = ms.vjp(product, ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))
        >>> print(out, vjp_fn(ms.Tensor([1.0, 1.0])))
        [3. 8.] (Tensor(shape=[2], dtype=Float32, value= [3.00000000e+000, 4.00000000e+000]), \
Tensor(shape=[2], dtype=Float32, value= [1.00000000e+000, 2.00000000e+000]))
    """
    outputs, vjp_fn, *aux = _functional.vjp(_ms_arguments(fn), *inputs, has_aux=has_aux)
    if weights is not None:
        vjp_fn = _vjp_with_weights(fn, inputs, weights, has_aux)
    return to_ms((outputs, _ms_results(vjp_fn, compile_in_graph_mode=False), *aux))


def _vjp_with_weights(fn: Callable, inputs: tuple, weights, has_aux: bool) -> Callable:
    """``vjp_fn`` that also returns the gradients of ``weights``: ``fn``'s gradient with the
    cotangent as its sensitivity, all inputs as a tuple."""
    positions = tuple(range(len(inputs)))
    gradient = _functional.grad(_ms_arguments(fn), positions, weights, has_aux=has_aux,
                                sens_param=True)

    def vjp_fn(*v):
        grads = gradient(*inputs, v[0] if len(v) == 1 else v)
        input_grads, weight_grads = grads[0] if has_aux else grads
        if len(positions) == 1:
            input_grads = (input_grads,)
        return input_grads, weight_grads
    return vjp_fn


def jacfwd(fn: Callable, grad_position=0, has_aux: bool = False) -> Callable:
    """``mindspore.jacfwd``: the Jacobian of ``fn`` by forward mode.

    Each block has shape ``output.shape + input.shape``; an int
    ``grad_position`` gives one block per output, a tuple a tuple of blocks.
    ``has_aux=True``: ``(jacobian, aux)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> def square(x):
        ...     return x ** 2
        >>> ms.jacfwd(square)(ms.Tensor([1.0, 3.0]))
        Tensor(shape=[2, 2], dtype=Float32, value=
        [[2.00000000e+000, 0.00000000e+000],
         [0.00000000e+000, 6.00000000e+000]])
    """
    return _ms_results(_functional.jacfwd(_ms_arguments(fn), grad_position=grad_position,
                                          has_aux=has_aux), compile_in_graph_mode=False)


def jacrev(fn: Callable, grad_position=0, has_aux: bool = False) -> Callable:
    """``mindspore.jacrev``: the Jacobian of ``fn`` by reverse mode (same structure as
    :func:`jacfwd`).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> def product(x, y):
        ...     return x * y
        >>> ms.jacrev(product, grad_position=1)(ms.Tensor([1.0, 3.0]), ms.Tensor([2.0, 4.0]))
        Tensor(shape=[2, 2], dtype=Float32, value=
        [[1.00000000e+000, 0.00000000e+000],
         [0.00000000e+000, 3.00000000e+000]])
    """
    return _ms_results(_functional.jacrev(_ms_arguments(fn), grad_position=grad_position,
                                          has_aux=has_aux), compile_in_graph_mode=False)


def check_hook_fn(hook_fn) -> None:
    """MindSpore's check of a hook function (Cell hooks, ``ops.HookBackward``).

    Example:
        >>> from unigrad.compat.mindspore._transforms import check_hook_fn
        >>> check_hook_fn(print)
        >>> check_hook_fn(3)
        Traceback (most recent call last):
        ...
        TypeError: Expected a callable hook function, but got int.
    """
    if not callable(hook_fn):
        raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")


def get_grad(gradients, identifier):
    """``mindspore.get_grad``: the gradient of a position (int) or a Parameter in a
    ``return_ids=True`` result; ``RuntimeError`` when it is not there.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> x, y = ms.Tensor(3.0), ms.Tensor(4.0)
        >>> grads = ms.grad(lambda x, y: x * y, (0, 1), return_ids=True)(x, y)
        >>> ms.get_grad(grads, 1)
        Tensor(shape=[], dtype=Float32, value= 3)
    """
    return to_ms(_ug_get_grad(gradients, identifier))


class GradOperation(_UgGradOperation):
    """``mindspore.ops.GradOperation(get_all=False, get_by_list=False, sens_param=False)``.

    ``GradOperation(...)(fn[, weights])(*inputs[, sens])``: the first input's
    gradient by default; ``get_all`` -> all inputs' (a tuple); ``get_by_list``
    -> the weights' gradients; both -> ``(input_grads, weight_grads)``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> f = lambda x, y: x * y
        >>> ops.GradOperation(get_all=True)(f)(ms.Tensor(2.0), ms.Tensor(5.0))
        (Tensor(shape=[], dtype=Float32, value= 5), Tensor(shape=[], dtype=Float32, value= 2))
    """

    def __call__(self, fn: Callable, weights=None) -> Callable:
        if not callable(fn):
            raise TypeError(f"GradOperation: fn must be a callable (a function or a Cell), got "
                            f"{type(fn).__name__}")
        def differentiated(inputs: tuple) -> tuple:
            return tuple(range(len(inputs))) if self.get_all else ()

        def share(result, repeated: _RepeatedInputs):
            if self.get_by_list:
                return repeated.shared(result[0]), result[1]
            return repeated.shared(result)

        return _with_repeated_inputs(
            lambda tied: _ms_results(super(GradOperation, self).__call__(_ms_arguments(tied),
                                                                         weights)),
            fn, differentiated, share, self.sens_param)


def jit(function: Callable | None = None, *args, fn: Callable | None = None, **options):
    """``mindspore.jit``: compile ``function`` into a graph (``unigrad.jit``).

    Works as ``@ms.jit``, ``@ms.jit(...)`` and ``ms.jit(fn)``, also on a Cell's
    ``construct``. MindSpore's compile options (``input_signature``,
    ``capture_mode``, ``jit_level``, ``jit_config``...) are accepted and
    ignored. Results are MindSpore Tensors.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> @ms.jit
        ... def f(x):
        ...     return (x * 2).sum()
        >>> f(ms.Tensor([1.0, 2.0]))
        Tensor(shape=[], dtype=Float32, value= 6)
        >>> ms.jit(capture_mode="ast")(lambda x: x + 1)(ms.Tensor(1.0))
        Tensor(shape=[], dtype=Float32, value= 2)
    """
    if function is None:
        function = fn
    if function is None:
        return lambda f: jit(f, *args, **options)
    if not callable(function):
        raise TypeError(f"For 'jit', the argument 'function' must be a function or a Cell, "
                        f"but got {type(function).__name__}")
    # a Cell already hands MindSpore Tensors to its construct, which the compiler converts
    compiled = _ug_jit(function if isinstance(function, _UgCell) else _ms_arguments(function))

    @functools.wraps(function)
    def call(*call_args, **call_kwargs):
        return to_ms(compiled(*call_args, **call_kwargs))

    call.compiled = compiled  # type: ignore[attr-defined]
    return call


def jit_class(cls: type) -> type:
    """``mindspore.jit_class``: mark a class of your own (not a Cell) as usable inside
    compiled functions; returns ``cls``. unigrad's compiler runs any Python class's methods
    (their tensor operations are traced), so the mark is MindSpore's ``__ms_class__`` flag
    only.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> @ms.jit_class
        ... class Scale:
        ...     def __init__(self, factor):
        ...         self.factor = factor
        ...     def apply(self, x):
        ...         return x * self.factor
        >>> ms.jit(lambda x: Scale(3).apply(x))(ms.Tensor([1.0, 2.0]))
        Tensor(shape=[2], dtype=Float32, value= [3.00000000e+000, 6.00000000e+000])
    """
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    if issubclass(cls, _UgCell):
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot be "
                        f"used for nn.Cell: {cls}.")
    cls.__ms_class__ = True
    return cls


def _holds_only_tensors_and_numbers(value, seen: set) -> bool:
    """Whether ``value`` is a Tensor or a number, or tuples, lists and dicts nesting them
    without referring to themselves."""
    if isinstance(value, (tuple, list, dict)):
        if id(value) in seen:
            return False
        seen.add(id(value))
        items = value.values() if isinstance(value, dict) else value
        result = all(_holds_only_tensors_and_numbers(item, seen) for item in items)
        seen.discard(id(value))
        return result
    return isinstance(value, (_UgTensor, int, float))


def mutable(input_data, dynamic_len: bool = False):
    """``mindspore.mutable(input_data, dynamic_len=False)``: mark a number, a Tensor, or a
    tuple/list/dict of them as a variable input of a compiled function (MindSpore otherwise
    treats such values as constants). unigrad differentiates tuples, lists and dicts of
    Tensors as they are, so ``input_data`` is returned unchanged after MindSpore's checks.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> pair = ms.mutable((ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])))
        >>> ms.grad(lambda z: (z[0] * z[1]).sum())(pair)
        (Tensor(shape=[2], dtype=Float32, value= [3.00000000e+000, 4.00000000e+000]), \
Tensor(shape=[2], dtype=Float32, value= [1.00000000e+000, 2.00000000e+000]))
        >>> ms.mutable(1, dynamic_len=True)
        Traceback (most recent call last):
        ...
        TypeError: For 'mutable', when the variable_len is True, the first input should be \
list or tuple, but got: int
    """
    if not _holds_only_tensors_and_numbers(input_data, set()):
        raise TypeError(f"For 'mutable', the 'input_data' should be one of (bool, int, float, "
                        f"Tensor, tuple, list, dict) or their nested structures with no "
                        f"self-reference, but got {type(input_data).__name__}: {input_data}.")
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', the second input should be bool, but got: "
                        f"{type(input_data).__name__}")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError(f"For 'mutable', when the variable_len is True, the first input should "
                        f"be list or tuple, but got: {type(input_data).__name__}")
    return input_data


# ------------------------------------------------------------------------------ context

_CONTEXT_DEFAULTS = {
    "device_target": "CPU", "device_id": 0, "save_graphs": False, "save_graphs_path": ".",
    "jit_level": "", "max_call_depth": 1000, "jit_config": None, "pynative_synchronize": False,
    "enable_graph_kernel": False, "graph_kernel_flags": "", "max_device_memory": "1024GB",
    "mempool_block_size": "1GB", "print_file_path": "", "deterministic": "OFF",
    "check_bprop": False, "runtime_num_threads": 30, "enable_compile_cache": False,
    "compile_cache_path": ".", "memory_optimize_level": "O0", "ascend_config": None,
    "gpu_config": None, "inter_op_parallel_num": 0, "op_timeout": 900, "enable_reduce_precision":
    True, "variable_memory_max_size": "0", "reserve_class_name_in_scope": True,
    "aoe_tune_mode": "", "disable_format_transform": False, "env_config_path": "",
    "enable_dump": False, "save_dump_path": ".", "debug_level": 0, "support_binary": False,
}
_DEVICE_TARGETS = ("CPU", "GPU", "Ascend")
_context: dict = dict(_CONTEXT_DEFAULTS)


def set_context(**kwargs) -> None:
    """``mindspore.set_context``: ``mode`` switches between ``GRAPH_MODE`` and
    ``PYNATIVE_MODE``; MindSpore's device and compiler settings
    (``device_target="CPU"``, ``save_graphs``, ``jit_config``...) are kept for
    :func:`get_context` and have no other effect. An unknown key is a
    ``ValueError``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
        >>> ms.get_context("device_target"), ms.get_context("mode") == ms.PYNATIVE_MODE
        ('CPU', True)
    """
    unknown = sorted(key for key in kwargs if key != "mode" and key not in _CONTEXT_DEFAULTS)
    if unknown:
        raise ValueError(f"For 'context.set_context', the keyword argument {unknown[0]} is not "
                         f"recognized! For detailed usage of 'set_context', please refer to "
                         f"the MindSpore official website.")
    target = kwargs.get("device_target")
    if target is not None and target not in _DEVICE_TARGETS:
        raise ValueError(f"For 'context.set_context', 'device_target' must be one of "
                         f"{list(_DEVICE_TARGETS)}, but got {target!r}")
    if "mode" in kwargs:
        mode = kwargs["mode"]
        if isinstance(mode, bool) or mode not in (GRAPH_MODE, PYNATIVE_MODE):
            raise ValueError(f"For 'context.set_context', the argument 'mode' should be "
                             f"context.GRAPH_MODE (0) or context.PYNATIVE_MODE (1), but got "
                             f"{mode!r}.")
        context.set_context(mode=mode)
    for key, value in kwargs.items():
        if key != "mode":
            _context[key] = value


def get_context(attr_key: str):
    """``mindspore.get_context``: the value of one setting (``"mode"``,
    ``"device_target"``...); ``ValueError`` for an unknown key."""
    if attr_key == "mode":
        return context.get_context("mode")
    if attr_key not in _context:
        raise ValueError(f"For 'context.get_context', the argument {attr_key!r} is not "
                         f"supported.")
    return _context[attr_key]


_seed: list = [None]


def set_seed(seed: int) -> None:
    """``mindspore.set_seed``: seed unigrad's generator and NumPy's global one.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> ms.set_seed(1); a = ops.randn((2,))
        >>> ms.set_seed(1); b = ops.randn((2,))
        >>> bool((a == b).all()), ms.get_seed()
        (True, 1)
    """
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"For 'set_seed', the argument 'seed' must be int, but got "
                        f"{type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"For 'set_seed', the argument 'seed' must be >= 0, but got {seed}")
    _manual_seed(int(seed))
    np.random.seed(int(seed) % 2 ** 32)
    _seed[0] = int(seed)


def get_seed() -> int | None:
    """The seed last given to :func:`set_seed` (None if never set)."""
    return _seed[0]
