"""What converted code calls: control flow that decides at run time between Python and graphs.

Each operator looks at its condition: with a value (a Python bool or number, a
tensor holding numbers) it does exactly what the Python statement does; traced
(inside ``ug.jit``) it becomes :func:`~unigrad.ops.control.cond` (an ``if``),
:func:`~unigrad.ops.control.while_loop` (a ``while``, or a ``for`` with a
``break``) or :func:`~unigrad.ops.control.fori_loop` (``for i in range(n)``). The
statement's variables travel through the primitive: ``get_state()`` reads them,
``set_state(values)`` writes them, ``names`` names them in errors
(:mod:`.values` carries them). Python numbers among them become tensors (a loop
counter), other Python objects must come out of a traced statement as they went
in.

What a traced statement cannot express raises :class:`AutographError` naming the
file, line and variable, on the first trace, whichever way the data goes.

Example:
    >>> import unigrad as ug
    >>> from unigrad.graph.autograph import operators as ag
    >>> ag.and_(ug.tensor(2.0) > 1, lambda: ug.tensor(3.0) > 4)
    tensor(False)
    >>> ag.or_(0, lambda: "default")
    'default'
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable

import numpy as np

from ...tensor import Tensor
from ...transforms.tree import tree_unflatten
from ..tracer import ConcretizationError
from .values import (
    UNDEFINED_RETURN,
    Carry,
    Spec,
    Undefined,
    Watch,
    error,
    first_outputs,
    merged_state,
    retrying,
    second_outputs,
)


def is_traced(value) -> bool:
    """Whether ``value`` is a tensor without a value now (traced by ``ug.jit``, or a vmap
    batch), so control flow on it must become a graph.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.autograph.operators import is_traced
        >>> is_traced(ug.ones(2)), is_traced(True)
        (False, False)
        >>> ug.jit(lambda x: ug.tensor(is_traced(x)))(ug.ones(2))
        tensor(True)
    """
    from ...ops.control import is_abstract
    return is_abstract(value)


# ============================================================================ boolean operators

def _bool_tensor(value) -> Tensor:
    from ...ops.creation import as_tensor
    from ...ops.elementwise import cast
    return cast(value if isinstance(value, Tensor) else as_tensor(bool(value)), np.bool_)


def and_(left, right: Callable):
    """``left and right()``: Python's short circuit for values, ``logical_and`` for traced.

    Example:
        >>> from unigrad.graph.autograph.operators import and_
        >>> and_(0, lambda: 1 / 0), and_(2, lambda: 3)
        (0, 3)
    """
    if is_traced(left):
        from ...ops.elementwise import logical_and
        return logical_and(_bool_tensor(left), _bool_tensor(right()))
    if not left:
        return left
    return right()


def or_(left, right: Callable):
    """``left or right()``: Python's short circuit for values, ``logical_or`` for traced.

    Example:
        >>> from unigrad.graph.autograph.operators import or_
        >>> or_(2, lambda: 1 / 0), or_([], lambda: 3)
        (2, 3)
    """
    if is_traced(left):
        from ...ops.elementwise import logical_or
        return logical_or(_bool_tensor(left), _bool_tensor(right()))
    if left:
        return left
    return right()


def not_(value):
    """``not value``; ``logical_not`` for a traced value.

    Example:
        >>> from unigrad.graph.autograph.operators import not_
        >>> not_(0), not_([1])
        (True, False)
    """
    if is_traced(value):
        from ...ops.elementwise import logical_not
        return logical_not(value)
    return not value


# ============================================================================ if

def if_stmt(test, body: Callable, orelse: Callable, get_state: Callable, set_state: Callable,
            names: tuple, location: str, watched: tuple = ()) -> None:
    """Run ``body()`` if ``test`` else ``orelse()``; a traced ``test`` makes one ``cond``
    whose outputs are the variables ``names`` (read by ``get_state``, written back with
    ``set_state``).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.autograph.operators import if_stmt
        >>> def absolute(x):
        ...     state = {"x": x}
        ...     if_stmt(x < 0, lambda: state.update(x=-state["x"]), lambda: None,
        ...             lambda: (state["x"],), lambda values: state.update(x=values[0]),
        ...             ("x",), "example.py:3")
        ...     return state["x"]
        >>> absolute(-2.0), ug.jit(absolute)(ug.tensor(-3.0))
        (2.0, tensor(3.))
    """
    if not is_traced(test):
        if test:
            body()
        else:
            orelse()
        return
    _traced_if(test, body, orelse, get_state, set_state, names, location,
               Watch(sys._getframe(1), watched))


def if_exp(test, true_value: Callable, false_value: Callable, location: str):
    """``true_value() if test else false_value()``; a traced ``test`` makes a ``cond``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.autograph.operators import if_exp
        >>> f = ug.jit(lambda x: if_exp(x > 0, lambda: x, lambda: x * 3, "example.py:1"))
        >>> f(ug.tensor(2.0)), f(ug.tensor(-2.0))
        (tensor(2.), tensor(-6.))
    """
    if not is_traced(test):
        return true_value() if test else false_value()
    box = [Undefined("<conditional expression>")]

    def set_state(values):
        box[0] = values[0]

    _traced_if(test, lambda: set_state((true_value(),)), lambda: set_state((false_value(),)),
               lambda: (box[0],), set_state, ("<conditional expression>",), location, None)
    return box[0]


def _traced_if(test, body, orelse, get_state, set_state, names, location, watch) -> None:
    from ...ops.control import cond
    initial = get_state()
    traced: list = []  # (label, specs) of each branch, in the order cond traces them
    widened: dict = {}  # (variable, leaf) -> (shape, dtype) of Python numbers made tensors

    def branch(function, label):
        def run():
            set_state(initial)
            function()
            if watch is not None:
                watch.check(f"{label} branch of the `if`", location)
            specs = [Spec(name, value) for name, value in zip(names, get_state())]
            traced.append((label, specs))
            if len(traced) == 1:
                return first_outputs(specs, widened)
            return second_outputs(specs, traced[0], label, location, widened)
        return run

    predicate = _predicate(test, location)

    def run_cond():
        traced.clear()
        return cond(predicate, branch(body, "true"), branch(orelse, "false"))

    outputs = list(retrying(run_cond, widened))
    set_state(merged_state(traced[0][1], traced[1][1], outputs))


# ============================================================================ loops

def while_stmt(test: Callable, body: Callable, get_state: Callable, set_state: Callable,
               names: tuple, location: str, watched: tuple = ()) -> None:
    """``while test(): body()``; once ``test()`` is traced the rest of the loop is one
    ``while_loop`` carrying the variables ``names``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.autograph.operators import while_stmt
        >>> def halvings(x):
        ...     state = {"x": x, "n": 0}
        ...     while_stmt(lambda: state["x"] > 1,
        ...                lambda: state.update(x=state["x"] / 2, n=state["n"] + 1),
        ...                lambda: (state["x"], state["n"]),
        ...                lambda values: state.update(x=values[0], n=values[1]),
        ...                ("x", "n"), "example.py:3")
        ...     return state["n"]
        >>> halvings(20.0), ug.jit(halvings)(ug.tensor(20.0))
        (5, tensor(5))
    """
    while True:
        condition = test()
        if is_traced(condition):
            _traced_while(test, body, get_state, set_state, names, location,
                          Watch(sys._getframe(1), watched))
            return
        if not condition:
            return
        body()


def _predicate(value, location: str) -> Tensor:
    """A traced condition as a boolean scalar (a condition of many elements is an error)."""
    from ...ops.elementwise import cast
    tensor = _bool_tensor(value) if not isinstance(value, Tensor) else value
    if tensor.numel() != 1:
        raise error(location, f"the condition is a tensor of shape {tuple(tensor.shape)}; a "
                    f"condition must be a single value (reduce it with .any() or "
                    f".all())")
    return cast(tensor.reshape(()), np.bool_)


def _with_return_placeholder(values: tuple, body: Callable, get_state: Callable,
                             set_state: Callable) -> tuple:
    """``values`` with an undefined return value (a ``return`` inside the loop has not run
    yet) replaced by zeros shaped as a return inside the body makes it: the body is traced
    once on its own to find out (as TensorFlow's AutoGraph does), then forgotten."""
    if not any(value is UNDEFINED_RETURN for value in values):
        return values
    from ...ops._control_graphs import trace_branch
    from ...ops.creation import zeros
    position = next(i for i, value in enumerate(values) if value is UNDEFINED_RETURN)

    def one_iteration():
        set_state(values)
        body()
        result = get_state()[position]
        return () if result is UNDEFINED_RETURN else result

    try:
        traced = trace_branch(one_iteration, [], name="return value probe", allow_effects=True)
    finally:
        set_state(values)
    if not traced.branch.out_avals:  # no path through the body returns
        return values
    placeholder = tree_unflatten(traced.branch.out_tree,
                                 [zeros(aval.shape, dtype=aval.dtype)
                                  for aval in traced.branch.out_avals[:traced.out_leaves]])
    return values[:position] + (placeholder,) + values[position + 1:]


def _traced_while(test, body, get_state, set_state, names, location, watch) -> None:
    from ...ops.control import while_loop
    carry = Carry(names, _with_return_placeholder(get_state(), body, get_state, set_state),
                  location)

    def condition(values):
        set_state(carry.state(values))
        return _predicate(test(), location)

    def step(values):
        set_state(carry.state(values))
        body()
        watch.check("body of the loop", location)
        return carry.outputs(get_state())

    set_state(carry.state(carry.run(lambda: while_loop(condition, step, carry.initial))))


def for_stmt(iterable, extra_test: Callable | None, body: Callable, get_state: Callable,
             set_state: Callable, names: tuple, location: str, watched: tuple = ()) -> None:
    """``for item in iterable: body(item)``, stopping once ``extra_test()`` is false (a
    lowered ``break``/``return``); a ``range`` with traced bounds makes a ``fori_loop``
    (a ``while_loop`` with an ``extra_test``); a traced ``extra_test`` in a Python loop
    makes each further iteration a ``cond``.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.autograph.operators import for_stmt, range_
        >>> def total(n):
        ...     state = {"s": 0}
        ...     for_stmt(range_(n), None, lambda i: state.update(s=state["s"] + i),
        ...              lambda: (state["s"],), lambda values: state.update(s=values[0]),
        ...              ("s",), "example.py:3")
        ...     return state["s"]
        >>> total(4), ug.jit(total)(ug.tensor(4))
        (6, tensor(6))
    """
    frame = sys._getframe(1)
    if isinstance(iterable, TracedRange):
        _traced_range(iterable, extra_test, body, get_state, set_state, names, location,
                      Watch(frame, watched))
        return
    iterator = iter(iterable)
    while True:
        condition = True if extra_test is None else extra_test()
        traced = is_traced(condition)
        if not traced and not condition:
            return
        try:
            item = next(iterator)
        except StopIteration:
            return
        if traced:
            _traced_if(condition, functools.partial(body, item), lambda: None, get_state,
                       set_state, names, location, Watch(frame, watched))
        else:
            body(item)


class TracedRange:
    """``range(start, stop, step)`` with a traced bound: it can only drive a ``for`` loop.

    Example:
        >>> from unigrad.graph.autograph.operators import TracedRange
        >>> list(TracedRange(0, 3, 1))
        Traceback (most recent call last):
        unigrad.graph.tracer.ConcretizationError: range() of a traced value can only drive ...
    """

    def __init__(self, start, stop, step):
        self.start, self.stop, self.step = start, stop, step

    def __iter__(self):
        raise ConcretizationError("range() of a traced value can only drive a `for` loop of a "
                                  "function ug.jit converts (its length is not known while "
                                  "the function is traced)")

    def __repr__(self) -> str:
        return f"range({self.start!r}, {self.stop!r}, {self.step!r})"


def range_(*arguments):
    """``range(*arguments)``, or a :class:`TracedRange` when a bound is traced.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.autograph.operators import range_
        >>> range_(1, 4)
        range(1, 4)
        >>> ug.jit(lambda n: ug.tensor(type(range_(n)).__name__ == "TracedRange"))(ug.tensor(3))
        tensor(True)
    """
    if not any(is_traced(argument) for argument in arguments):
        return range(*arguments)
    if not 1 <= len(arguments) <= 3:
        raise TypeError(f"range expected 1 to 3 arguments, got {len(arguments)}")
    start, stop, step = (0, arguments[0], 1) if len(arguments) == 1 else \
        (arguments[0], arguments[1], arguments[2] if len(arguments) == 3 else 1)
    if is_traced(step):
        raise ConcretizationError("range(): the step of a range driving a converted `for` loop "
                                  "must be known while tracing (a Python int)")
    step = int(step)
    if step == 0:
        raise ValueError("range() arg 3 must not be zero")
    return TracedRange(start, stop, step)


def _traced_range(loop_range: TracedRange, extra_test, body, get_state, set_state, names,
                  location, watch) -> None:
    from ...ops.control import fori_loop, while_loop
    from ...ops.creation import as_tensor
    from ...ops.elementwise import cast, logical_and
    start = cast(as_tensor(loop_range.start), np.int64)
    carry = Carry(names, _with_return_placeholder(get_state(), functools.partial(body, start),
                                                  get_state, set_state), location)

    def run(index, values):
        set_state(carry.state(values))
        body(index)
        watch.check("body of the loop", location)
        return carry.outputs(get_state())

    if extra_test is None and loop_range.step == 1:
        values = carry.run(lambda: fori_loop(loop_range.start, loop_range.stop, run,
                                             carry.initial))
        set_state(carry.state(values))
        return
    stop = cast(as_tensor(loop_range.stop), np.int64)
    step = loop_range.step

    def condition(values):
        index, rest = values[0], values[1:]
        inside = index < stop if step > 0 else index > stop
        if extra_test is None:
            return inside
        set_state(carry.state(rest))
        return logical_and(inside, _predicate(extra_test(), location))

    def advance(values):
        return [values[0] + step] + run(values[0], values[1:])

    values = carry.run(lambda: while_loop(condition, advance, [start] + carry.initial))
    set_state(carry.state(values[1:]))
