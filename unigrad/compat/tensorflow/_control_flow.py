"""TensorFlow's control flow: ``tf.cond``, ``tf.case``, ``tf.switch_case``, ``tf.while_loop``,
``tf.scan``, ``tf.foldl``, ``tf.foldr`` and ``tf.map_fn``, spelled over :mod:`unigrad.ops.control`.

Eagerly they run as the Python they stand for (only the chosen branch, one
iteration after another, recorded by a ``GradientTape``). Inside
``tf.function`` each becomes one ``cond``/``while_loop``/``scan`` primitive of
the traced graph: calls taking other branches or other trip counts reuse the
trace, and gradients flow through them. TensorFlow's branch functions take no
arguments (they close over tensors); loop functions take the loop variables as
separate positional arguments. ``tf.compat.v1``'s spellings differ where
TensorFlow 1 did: :func:`cond_v1` and :func:`while_loop_v1` unwrap
single-element results.

Example:
    >>> import unigrad.compat.tensorflow as tf
    >>> @tf.function
    ... def collatz_steps(n):
    ...     return tf.while_loop(lambda n, steps: n > 1, lambda n, steps: (tf.cond(
    ...         n % 2 == 0, lambda: n // 2, lambda: 3 * n + 1), steps + 1), (n, 0))[1]
    >>> collatz_steps(tf.constant(6)), collatz_steps(tf.constant(7))
    (<tf.Tensor: shape=(), dtype=int32, numpy=8>, <tf.Tensor: shape=(), dtype=int32, numpy=16>)
    >>> collatz_steps.experimental_get_tracing_count()
    1
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import numpy as np

import unigrad as ug
from unigrad.graph.tracer import current_trace
from unigrad.interpreters import has_values
from unigrad.ops.control import compiled_loops
from unigrad.tensor import Tensor as _UgTensor
from unigrad.transforms.tree import tree_flatten, tree_map, tree_unflatten

from ._tensor import Tensor, as_tf_tree, constant, convert_to_tensor
from .errors import InvalidArgumentError

__all__ = ["cond", "cond_v1", "case", "switch_case", "while_loop", "while_loop_v1", "scan",
           "foldl", "foldr", "map_fn"]


# ============================================================================= helpers

def _records_own_graph(function: Callable) -> Callable:
    """Mark ``function`` as adding its own operations to a TF1 graph: the graph builder
    must not defer the call (its closures read the graph's tensors)."""
    function._defers_in_graphs = True
    return function


def _as_tensors(tree, like=None):
    """The leaves of ``tree`` as TensorFlow tensors: tensors as they are, Python numbers
    converted (to the dtype of the matching leaf of ``like`` when given)."""
    leaves, structure = tree_flatten(tree)
    likes = tree_flatten(like)[0] if like is not None else [None] * len(leaves)
    converted = []
    for leaf, model in zip(leaves, likes):
        if isinstance(leaf, _UgTensor):
            converted.append(leaf)
        elif isinstance(model, _UgTensor):
            converted.append(constant(leaf, dtype=model.dtype))
        else:
            converted.append(convert_to_tensor(leaf))
    return tree_unflatten(structure, converted)


def _staged_for_graph_tensors(tensors: list):
    """A context in which loops over TF1 graph tensors (no values until a Session runs)
    become loop primitives, recorded as one operation of the graph."""
    if current_trace() is None and not has_values(*tensors):
        return compiled_loops()
    return contextlib.nullcontext()


def _unpack_if_singleton(result):
    """TensorFlow 1's non-strict mode: a one-element list or tuple stands for its element."""
    if isinstance(result, (list, tuple)) and len(result) == 1:
        return result[0]
    return result


def _check_callable(function, message: str) -> None:
    if not callable(function):
        raise TypeError(message)


# ============================================================================= cond

@_records_own_graph
def cond(pred, true_fn: Callable | None = None, false_fn: Callable | None = None,
         name: str | None = None):
    """``tf.cond``: ``true_fn()`` if ``pred`` else ``false_fn()``.

    The functions take no arguments and return the same structure of tensors.
    Eagerly only the chosen one runs; inside ``tf.function`` both are traced
    once and the data chooses at every call (``pred`` must then be a boolean
    tensor, not a Python bool).

    Raises:
        TypeError: When a function is missing or not callable, or inside
            ``tf.function`` when ``pred`` is a Python bool.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.constant([1.0, -3.0])
        >>> tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x)
        <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-1.,  3.], dtype=float32)>
    """
    return _cond(pred, true_fn, false_fn, strict=True)


@_records_own_graph
def cond_v1(pred, true_fn: Callable | None = None, false_fn: Callable | None = None,
            strict: bool = False, name: str | None = None, fn1: Callable | None = None,
            fn2: Callable | None = None):
    """``tf.compat.v1.cond``: :func:`cond`, where a one-element list or tuple result stands
    for its element unless ``strict``; ``fn1``/``fn2`` are the old names of the functions.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> from unigrad.compat.tensorflow._control_flow import cond_v1
        >>> cond_v1(tf.constant(True), lambda: [tf.constant(1.0)], lambda: [tf.constant(2.0)])
        <tf.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    if fn1 is not None:
        if true_fn is not None:
            raise TypeError("cond(): 'true_fn' and 'fn1' may not be set simultaneously.")
        true_fn = fn1
    if fn2 is not None:
        if false_fn is not None:
            raise TypeError("cond(): 'false_fn' and 'fn2' may not be set simultaneously.")
        false_fn = fn2
    return _cond(pred, true_fn, false_fn, strict=strict)


def _cond(pred, true_fn, false_fn, strict: bool):
    if true_fn is None:
        raise TypeError("cond(): 'true_fn' argument required")
    if false_fn is None:
        raise TypeError("cond(): 'false_fn' argument required")
    _check_callable(true_fn, "'true_fn' must be callable.")
    _check_callable(false_fn, "'false_fn' must be callable.")
    pred = _predicate(pred, "pred")
    if not strict:
        true_fn, false_fn = _unpacking(true_fn), _unpacking(false_fn)
    if has_values(pred):  # eager: the chosen branch's result as it is, as TensorFlow does
        return true_fn() if bool(pred) else false_fn()
    result = ug.cond(pred, lambda: true_fn(), lambda: false_fn())
    return as_tf_tree(result)


def _unpacking(function: Callable) -> Callable:
    return lambda: _unpack_if_singleton(function())


def _predicate(pred, name: str):
    """``pred`` as a tensor; inside a traced function it must be a boolean tensor."""
    if isinstance(pred, bool) and current_trace() is not None:
        raise TypeError(f"{name} must not be a Python bool: got {pred}")
    if not isinstance(pred, _UgTensor):
        return convert_to_tensor(pred)
    dtype = np.dtype(pred._data.dtype)
    if not has_values(pred) and dtype != np.bool_:
        raise InvalidArgumentError(None, None, f"Input '{name}' passed {dtype.name} expected "
                                               f"bool")
    return pred


# ============================================================================= case

@_records_own_graph
def case(pred_fn_pairs, default: Callable | None = None, exclusive: bool = False,
         strict: bool = False, name: str = "case"):
    """``tf.case``: the function of the first pair whose predicate holds, else ``default``.

    ``pred_fn_pairs`` is a list of ``(boolean tensor, function)`` pairs. Without
    ``default`` the last pair's function is the default. Eagerly it is an
    ``InvalidArgumentError`` when no predicate holds and there is no
    ``default``, or when ``exclusive`` and several hold (inside ``tf.function``
    these run-time checks are not made: the first true predicate wins, the
    default otherwise). A one-element list result stands for its element unless
    ``strict``. Inside ``tf.function`` it is one ``cond`` primitive.

    Raises:
        TypeError: When ``pred_fn_pairs`` is not a list of (boolean tensor, callable) pairs.
        InvalidArgumentError: Eagerly, when the predicates break the rules above.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.constant(5.0)
        >>> tf.case([(x < 0, lambda: -x), (x < 10, lambda: x * 2.0)], default=lambda: x)
        <tf.Tensor: shape=(), dtype=float32, numpy=10.0>
    """
    predicates, actions = _case_pairs(pred_fn_pairs, exclusive)
    last_predicate = None
    if default is None:
        last_predicate, default = predicates[-1], actions[-1]
        predicates, actions = predicates[:-1], actions[:-1]
    functions = [*actions, default]
    if not strict:
        functions = [_unpacking(function) for function in functions]
    if has_values(*predicates) and (last_predicate is None or has_values(last_predicate)):
        held = [bool(predicate) for predicate in predicates]
        _check_case(held, exclusive, last_predicate)
        chosen = held.index(True) if True in held else len(held)
        return functions[chosen]()
    index = _first_true(predicates)
    return as_tf_tree(ug.switch(index, [lambda f=f: f() for f in functions]))


def _case_pairs(pred_fn_pairs, exclusive: bool) -> tuple[list, list]:
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError(f"'pred_fn_pairs' must be a list, tuple, or dict. Received: "
                        f"{type(pred_fn_pairs)}")
    if isinstance(pred_fn_pairs, dict):
        if not exclusive and current_trace() is None:
            raise ValueError("Unordered dictionaries are not supported for the 'pred_fn_pairs' "
                             "argument when `exclusive=False` and eager mode is enabled.")
        pred_fn_pairs = list(pred_fn_pairs.items())
    if not pred_fn_pairs:
        raise ValueError("'pred_fn_pairs' must not be empty")
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        predicate, function = pair
        if not isinstance(predicate, _UgTensor):
            raise TypeError(f"pred must be a Tensor, got: {predicate}")
        if np.dtype(predicate._data.dtype) != np.bool_:
            raise TypeError(f"pred must be Tensor of type bool, got dtype "
                            f"{np.dtype(predicate._data.dtype).name}")
        if not callable(function):
            raise TypeError(f"fn for pred {predicate!r} must be callable.")
    return [pair[0] for pair in pred_fn_pairs], [pair[1] for pair in pred_fn_pairs]


def _check_case(held: list, exclusive: bool, last_predicate) -> None:
    """TensorFlow's run-time assertions of ``tf.case`` (eager only)."""
    if exclusive and sum(held) > 1:
        raise InvalidArgumentError(None, None, f"Input error: exclusive=True: more than 1 "
                                               f"conditions evaluated as True: {held}")
    if last_predicate is not None and not any(held) and not bool(last_predicate):
        raise InvalidArgumentError(None, None, f"Input error: None of conditions evaluated as "
                                               f"True: {held + [False]}")


def _first_true(predicates: list):
    """The position of the first true predicate, ``len(predicates)`` when none holds."""
    if not predicates:
        return ug.tensor(0)
    flags = [ug.reshape(ug.cast(predicate, ug.int32), ()) for predicate in predicates]
    return ug.argmax(ug.stack([*flags, ug.ones((), dtype=ug.int32)]))


# ============================================================================= switch_case

@_records_own_graph
def switch_case(branch_index, branch_fns, default: Callable | None = None,
                name: str = "switch_case"):
    """``tf.switch_case``: ``branch_fns[branch_index]()``; an index out of range runs
    ``default`` (without one, the last branch).

    ``branch_fns`` is a list of functions, a list of ``(int, function)`` pairs or a
    dict ``{int: function}`` whose keys are ``0 ... n-1``. Inside ``tf.function``
    it is one ``cond`` primitive chosen by the data at every call.

    Raises:
        TypeError: When ``branch_index`` is not an integer tensor or a function is not
            callable.
        ValueError: When ``branch_fns`` is empty or its keys are not ``0 ... n-1``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> x = tf.constant(2.0)
        >>> branches = [lambda: x + 1.0, lambda: x * 10.0]
        >>> tf.switch_case(tf.constant(1), branches), tf.switch_case(tf.constant(7), branches)
        (<tf.Tensor: shape=(), dtype=float32, numpy=20.0>,
         <tf.Tensor: shape=(), dtype=float32, numpy=20.0>)
    """
    functions = _indexed_functions(branch_fns, default, branch_index)
    count = len(functions)
    if has_values(branch_index):
        index = int(branch_index)
        return functions[index if 0 <= index < count else count - 1]()
    index = ug.where(ug.logical_or(branch_index < 0, branch_index >= count), count - 1,
                     branch_index)
    return as_tf_tree(ug.switch(index, [lambda f=f: f() for f in functions]))


def _indexed_functions(branch_fns, default, branch_index) -> list:
    if not isinstance(branch_index, _UgTensor):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    if np.dtype(branch_index._data.dtype).kind not in "iu":
        raise TypeError(f"'branch_index' must be an integer Tensor, got <dtype: "
                        f"'{np.dtype(branch_index._data.dtype).name}'>")
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError("'branch_fns' must be a list, tuple, or dict")
    pairs = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(branch_fns)
    if all(callable(function) for function in pairs):
        pairs = list(enumerate(pairs))
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'branch_fns' must be a 2-tuple. Received {pair}.")
        key, function = pair
        if not isinstance(key, int):
            raise TypeError(f"key must be a Python `int`, got {type(key)}")
        if not callable(function):
            raise TypeError(f"fn for key {key} must be callable.")
    keys = [pair[0] for pair in pairs]
    if min(keys) < 0 or max(keys) >= len(keys) or len(set(keys)) != len(keys):
        raise ValueError(f"branch indices (keys) must form contiguous range of [0 to "
                         f"{len(keys)}) but found {{{','.join(map(str, sorted(keys)))}}}")
    functions = [function for _, function in sorted(pairs, key=lambda pair: pair[0])]
    return functions + ([default] if default is not None else [])


# ============================================================================= while_loop

@_records_own_graph
def while_loop(cond: Callable, body: Callable, loop_vars, shape_invariants=None,
               parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
               maximum_iterations=None, name: str | None = None):
    """``tf.while_loop``: ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)``.

    ``loop_vars`` is a list or tuple (of tensors, numbers or nested structures of
    them); ``cond`` and ``body`` take its items as separate arguments, and
    ``body`` returns items of the same structure (a lone tensor stands for a
    one-item list). The result has the structure of ``loop_vars`` (eagerly, as
    in TensorFlow, the list or tuple the body returned last); at most
    ``maximum_iterations`` iterations run. Inside ``tf.function`` the loop is
    one ``while_loop`` primitive whose trip count may depend on the data,
    differentiable (the iterates are saved, as TensorFlow does); every loop
    variable keeps its shape and dtype there. ``shape_invariants``,
    ``parallel_iterations``, ``back_prop`` and ``swap_memory`` are accepted.

    Raises:
        TypeError: When ``cond`` or ``body`` is not callable, or ``loop_vars`` is not a
            list or tuple.
        ValueError: When ``loop_vars`` is empty, ``body`` returns another structure, or
            (inside ``tf.function``) a loop variable changes shape.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.while_loop(lambda i, x: i < 3, lambda i, x: [i + 1, x * 2.0],
        ...               [0, tf.constant(1.5)])
        [<tf.Tensor: shape=(), dtype=int32, numpy=3>,
         <tf.Tensor: shape=(), dtype=float32, numpy=12.0>]
    """
    return _while(cond, body, loop_vars, parallel_iterations, maximum_iterations,
                  same_structure=True)


@_records_own_graph
def while_loop_v1(cond: Callable, body: Callable, loop_vars, shape_invariants=None,
                  parallel_iterations: int = 10, back_prop: bool = True,
                  swap_memory: bool = False, name: str | None = None, maximum_iterations=None,
                  return_same_structure: bool = False):
    """``tf.compat.v1.while_loop``: :func:`while_loop`, where a single loop variable comes
    back on its own (not in a list) unless ``return_same_structure``.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> from unigrad.compat.tensorflow._control_flow import while_loop_v1
        >>> while_loop_v1(lambda x: x < 100.0, lambda x: x * 3.0, [tf.constant(1.0)])
        <tf.Tensor: shape=(), dtype=float32, numpy=243.0>
    """
    return _while(cond, body, loop_vars, parallel_iterations, maximum_iterations,
                  same_structure=return_same_structure)


def _while(cond, body, loop_vars, parallel_iterations, maximum_iterations,
           same_structure: bool):
    _check_callable(cond, "'cond' must be callable.")
    _check_callable(body, "'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    if not isinstance(loop_vars, (list, tuple)):
        raise TypeError(f"'loop_vars' must be a list or tuple of loop variables (cond and body "
                        f"take its items as arguments), got {type(loop_vars).__name__}")
    if not loop_vars:
        raise ValueError("'loop_vars' must be provided.")
    items = tuple(_as_tensors(list(loop_vars)))
    step = _LoopStep(body, items)
    eager = current_trace() is None and has_values(*tree_flatten(items)[0])
    with _staged_for_graph_tensors(tree_flatten(items)[0]):
        if maximum_iterations is None:
            final = ug.while_loop(lambda carry: cond(*carry), step, items)
        else:
            limit = _maximum_iterations(maximum_iterations)
            _, final = ug.while_loop(
                lambda carry: ug.logical_and(carry[0] < limit, cond(*carry[1])),
                lambda carry: (carry[0] + 1, step(carry[1])),
                (constant(0, dtype=limit.dtype), items))
    final = as_tf_tree(_as_tensors(list(final), like=list(items)), keep=tuple(
        tree_flatten(list(loop_vars))[0]))
    if not same_structure and len(final) == 1:
        return final[0]
    # eagerly TensorFlow returns the container the body returned last; traced, loop_vars' one
    container = step.returned if eager and step.returned is not None else type(loop_vars)
    if issubclass(container, tuple) and hasattr(container, "_fields"):  # a namedtuple
        return container(*final)
    return container(final)


def _maximum_iterations(value) -> Tensor:
    limit = value if isinstance(value, _UgTensor) else convert_to_tensor(value)
    if limit.dim() != 0:
        raise ValueError(f"'maximum_iterations' must be a scalar. Received shape: "
                         f"{tuple(limit.shape)}")
    return limit


class _LoopStep:
    """``body(*loop_vars)`` as a function of the tuple of loop variables: its result checked
    against the loop variables' structure (and, traced, their shapes), numbers converted."""

    def __init__(self, body: Callable, items: tuple):
        self.body = body
        self.items = items
        self.structure = tree_flatten(list(items))[1]
        self.returned = None  # the container type of the body's last result (list, tuple...)

    def __call__(self, carry: tuple) -> tuple:
        result = self.body(*carry)
        if not isinstance(result, (list, tuple)):
            result = [result]
        self.returned = type(result)
        leaves, structure = tree_flatten(list(result))
        if structure.num_leaves != self.structure.num_leaves or len(result) != len(carry):
            raise ValueError(f"while_loop: 'body' must return the same structure as "
                             f"'loop_vars' {self.structure}, got {structure}")
        result = tree_unflatten(self.structure, leaves)
        result = tuple(_as_tensors(result, like=list(carry)))
        if current_trace() is not None:
            _check_shapes(carry, result)
        return result


def _check_shapes(before: tuple, after: tuple) -> None:
    for entering, leaving in zip(tree_flatten(before)[0], tree_flatten(after)[0]):
        if tuple(entering.shape) != tuple(leaving.shape):
            raise ValueError(f"Input tensor enters the loop with shape {tuple(entering.shape)}, "
                             f"but has shape {tuple(leaving.shape)} after one iteration. To "
                             f"allow the shape to vary across iterations, use the "
                             f"`shape_invariants` argument of tf.while_loop to specify a "
                             f"less-specific shape.")


# ============================================================================= scan, folds, map_fn

def _elements(elems) -> tuple[list, object]:
    """The leaves of ``elems`` as tensors with a leading axis, and their structure."""
    leaves, structure = tree_flatten(elems)
    tensors = [leaf if isinstance(leaf, _UgTensor) else convert_to_tensor(leaf)
               for leaf in leaves]
    if not tensors:
        raise ValueError("'elems' must hold at least one tensor")
    if any(tensor.dim() == 0 for tensor in tensors):
        raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
    return tensors, structure


def _first_and_rest(tensors: list, structure, reverse: bool) -> tuple:
    """The first (last when ``reverse``) element of each leaf, as the structure, and the
    leaves without it."""
    position = -1 if reverse else 0
    first = tree_unflatten(structure, [tensor[position] for tensor in tensors])
    rest = [tensor[:-1] if reverse else tensor[1:] for tensor in tensors]
    return first, rest


def _accumulator_step(fn: Callable, accumulator_structure, emit: bool) -> Callable:
    """``fn(accumulator, x)`` as a scan body: the new accumulator, and it again as the
    output when ``emit``."""
    def step(accumulator, element):
        new = fn(accumulator, element)
        leaves, structure = tree_flatten(new)
        if structure.num_leaves != accumulator_structure.num_leaves:
            raise ValueError(f"'fn' must return the structure of the accumulator "
                             f"{accumulator_structure}, got {structure}")
        new = _as_tensors(tree_unflatten(accumulator_structure, leaves), like=accumulator)
        return new, (new if emit else None)
    return step


def _scan(fn: Callable, elems, initializer, reverse: bool, emit: bool, what: str):
    _check_callable(fn, f"{what}: 'fn' must be callable, got {type(fn).__name__}")
    tensors, structure = _elements(elems)
    if initializer is None:
        initial, tensors = _first_and_rest(tensors, structure, reverse)
    else:
        initial = _as_tensors(initializer)
    accumulator_structure = tree_flatten(initial)[1]
    xs = tree_unflatten(structure, tensors)
    with _staged_for_graph_tensors(tensors):
        final, outputs = ug.scan(_accumulator_step(fn, accumulator_structure, emit), initial,
                                 xs, length=int(tensors[0].shape[0]), reverse=reverse)
    if not emit:
        return as_tf_tree(final)
    if initializer is None:  # the first element is the first output
        outputs = tree_map(lambda first, rest: ug.cat(
            [rest, ug.unsqueeze(first, 0)] if reverse else [ug.unsqueeze(first, 0), rest]),
            initial, outputs)
    return as_tf_tree(outputs)


@_records_own_graph
def scan(fn: Callable, elems, initializer=None, parallel_iterations: int = 10,
         back_prop: bool = True, swap_memory: bool = False, infer_shape: bool = True,
         reverse: bool = False, name: str | None = None):
    """``tf.scan``: the accumulators ``a = fn(a, x)`` over the first axis of ``elems``,
    stacked.

    ``elems`` is a tensor or a nested structure of tensors of one length; ``fn``
    gets the accumulator and one slice (with ``elems``' structure) and returns
    the new accumulator (with ``initializer``'s structure). Without
    ``initializer`` the first slice is the first accumulator (and output).
    ``reverse`` scans from the end. Inside ``tf.function`` it is one ``scan``
    primitive (differentiable to any order).

    Raises:
        TypeError: When ``fn`` is not callable.
        ValueError: When an element of ``elems`` is a scalar or ``fn`` returns another
            structure.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.scan(lambda a, x: a + x, tf.constant([1.0, 2.0, 3.0, 4.0]))
        <tf.Tensor: shape=(4,), dtype=float32, numpy=array([ 1.,  3.,  6., 10.], dtype=float32)>
    """
    return _scan(fn, elems, initializer, bool(reverse), emit=True, what="scan")


@_records_own_graph
def foldl(fn: Callable, elems, initializer=None, parallel_iterations: int = 10,
          back_prop: bool = True, swap_memory: bool = False, name: str | None = None):
    """``tf.foldl``: the final accumulator of ``a = fn(a, x)`` from the first element of
    ``elems`` to the last (the first one is the initial accumulator without
    ``initializer``).

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.foldl(lambda a, x: a * 10.0 + x, tf.constant([1.0, 2.0, 3.0]))
        <tf.Tensor: shape=(), dtype=float32, numpy=123.0>
    """
    return _scan(fn, elems, initializer, False, emit=False, what="foldl")


@_records_own_graph
def foldr(fn: Callable, elems, initializer=None, parallel_iterations: int = 10,
          back_prop: bool = True, swap_memory: bool = False, name: str | None = None):
    """``tf.foldr``: :func:`foldl` from the last element of ``elems`` to the first.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.foldr(lambda a, x: a * 10.0 + x, tf.constant([1.0, 2.0, 3.0]))
        <tf.Tensor: shape=(), dtype=float32, numpy=321.0>
    """
    return _scan(fn, elems, initializer, True, emit=False, what="foldr")


@_records_own_graph
def map_fn(fn: Callable, elems, dtype=None, parallel_iterations: int | None = None,
           back_prop: bool = True, swap_memory: bool = False, infer_shape: bool = True,
           name: str | None = None, fn_output_signature=None):
    """``tf.map_fn``: ``fn`` applied to every slice of ``elems`` along the first axis, the
    results stacked.

    ``fn`` gets one slice (with ``elems``' structure). Its result must have the
    structure of ``elems`` unless ``fn_output_signature`` (or the older ``dtype``)
    describes it. It runs one slice after another (inside ``tf.function``: one
    ``scan`` primitive); :func:`~unigrad.compat.tensorflow.vectorized_map` is the
    batched form.

    Raises:
        TypeError: When ``fn`` is not callable.
        ValueError: When an element of ``elems`` is a scalar, or ``fn`` returns another
            structure than ``elems`` without an output signature.

    Example:
        >>> import unigrad.compat.tensorflow as tf
        >>> tf.map_fn(lambda row: tf.reduce_sum(row * row), tf.constant([[1.0, 2.0],
        ...                                                              [3.0, 4.0]]))
        <tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 5., 25.], dtype=float32)>
    """
    _check_callable(fn, f"map_fn: 'fn' must be callable, got {type(fn).__name__}")
    tensors, structure = _elements(elems)
    signature = fn_output_signature if fn_output_signature is not None else dtype

    def apply(carry, element):
        result = fn(element)
        if signature is None:
            result_structure = tree_flatten(result)[1]
            if result_structure.num_leaves != structure.num_leaves:
                raise ValueError(f"map_fn: 'fn' must return the structure of 'elems' "
                                 f"{structure} unless 'fn_output_signature' is given, got "
                                 f"{result_structure}")
        return carry, _as_tensors(result)

    with _staged_for_graph_tensors(tensors):
        _, outputs = ug.scan(apply, (), tree_unflatten(structure, tensors),
                             length=int(tensors[0].shape[0]))
    return as_tf_tree(outputs)
