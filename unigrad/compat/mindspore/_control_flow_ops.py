"""MindSpore's loop operators: ``ops.WhileLoop``, ``ops.ForiLoop`` and ``ops.Scan``.

In PyNative mode they run as the Python loops MindSpore documents (values that
are not tensors stay Python values; ``ms.grad`` differentiates through the
iterations). Inside ``ms.jit`` (and GRAPH_MODE) a ``WhileLoop`` is one
``while_loop`` primitive whose trip count may depend on the data; a
``ForiLoop`` or ``Scan`` with ``unroll=False`` is one loop primitive
(:mod:`unigrad.ops.control`), with ``unroll=True`` it is unrolled while
tracing, as MindSpore unrolls it while compiling. An error inside the loop
function is MindSpore's ``ValueError("Invalid loop_func, ...")``. Imported into
:mod:`unigrad.compat.mindspore.ops`.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> ops.WhileLoop()(lambda x: x < 100, lambda x: x + 7, 10)
    101
    >>> ops.ForiLoop()(0, 4, lambda i, x: x + i, ms.Tensor([1.0, 2.0]))
    Tensor(shape=[2], dtype=Float32, value= [7.00000000e+000, 8.00000000e+000])
"""

from __future__ import annotations

import types
from collections.abc import Callable

from ... import ops as _ug
from ...graph.tracer import current_trace
from ...tensor import Tensor as _UgTensor
from ...transforms.tree import tree_flatten, tree_map
from ._tensor import to_ms
from .ops import Primitive

__all__ = ["WhileLoop", "ForiLoop", "Scan"]

_FUNCTION_TYPES = (types.FunctionType, types.MethodType)


def _check_type(owner: str, name: str, value, valid: tuple) -> None:
    """MindSpore's ``check_value_type``: a ``TypeError`` naming the argument."""
    if isinstance(value, bool) and bool not in valid or not isinstance(value, valid):
        names = [kind.__name__ for kind in valid]
        shown = f"one of '{names}'" if len(names) > 1 else f"'{names[0]}'"
        raise TypeError(f"For '{owner}', the type of '{name}' should be {shown}, but got type "
                        f"'{type(value).__name__}'.")


def _running(loop: Callable):
    """``loop()``, an error raised inside it as MindSpore's ``ValueError``."""
    try:
        return loop()
    except Exception as error:  # noqa: BLE001 - MindSpore wraps every error of the loop
        raise ValueError(f"Invalid loop_func, please check input arguments and return value, "
                         f"error info: {error}") from error


def _seeing_ms(function: Callable) -> Callable:
    """``function`` receiving MindSpore Tensors (the loop primitives pass plain ones)."""
    return lambda *args: function(*to_ms(args))


class _LoopOperator(Primitive):
    """A loop operator: called with MindSpore's keyword arguments too."""

    def __call__(self, *args, **kwargs):
        return to_ms(self.compute(*args, **kwargs))


class WhileLoop(_LoopOperator):
    """``ops.WhileLoop()(cond_func, loop_func, init_val)``: ``val = loop_func(val)`` while
    ``cond_func(val)``, from ``init_val`` (a tensor, number or tuple/list/dict of them).

    Inside ``ms.jit`` the loop is one ``while_loop`` primitive (its trip count may
    depend on the data; differentiable): ``loop_func`` must then keep every
    value's shape and dtype, and numbers in ``init_val`` become tensors.

    Raises:
        TypeError: When ``cond_func`` or ``loop_func`` is not a function.
        ValueError: When the loop raises (``Invalid loop_func, ...``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> @ms.jit
        ... def halvings(x):
        ...     return ops.WhileLoop()(lambda c: c[0].max() > 1, lambda c: (c[0] / 2, c[1] + 1),
        ...                            (x, ms.Tensor(0, ms.int32)))
        >>> halvings(ms.Tensor([3.0, 40.0]))[1], halvings(ms.Tensor([0.5, 1.5]))[1]
        (Tensor(shape=[], dtype=Int32, value= 6), Tensor(shape=[], dtype=Int32, value= 1))
    """

    def compute(self, cond_func: Callable, loop_func: Callable, init_val):
        _check_type("WhileLoop", "cond_func", cond_func, _FUNCTION_TYPES)
        _check_type("WhileLoop", "loop_func", loop_func, _FUNCTION_TYPES)
        if current_trace() is None:
            return _running(lambda: self._python_loop(cond_func, loop_func, init_val))
        return _running(lambda: _ug.while_loop(_seeing_ms(cond_func), _seeing_ms(loop_func),
                                               init_val))

    @staticmethod
    def _python_loop(cond_func: Callable, loop_func: Callable, value):
        while cond_func(value):
            value = loop_func(value)
        return value


class ForiLoop(_LoopOperator):
    """``ops.ForiLoop()(lower, upper, loop_func, init_val, unroll=True)``:
    ``val = loop_func(i, val)`` for ``i`` in ``range(lower, upper)``.

    In PyNative mode ``i`` is a Python int. Inside ``ms.jit``, with
    ``unroll=False`` or tensor bounds, the loop is one primitive (a ``scan``
    for bounds known while tracing, a ``while_loop`` otherwise) and ``i`` an
    int64 tensor; with ``unroll=True`` and int bounds it is unrolled.

    Raises:
        TypeError: When ``lower`` or ``upper`` is not an int or a Tensor, or ``loop_func``
            is not a function.
        ValueError: When the loop raises (``Invalid loop_func, ...``).

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> power = ms.jit(lambda x, n: ops.ForiLoop()(0, n, lambda i, v: v * 2, x,
        ...                                            unroll=False))
        >>> power(ms.Tensor(1.5), ms.Tensor(3, ms.int32))
        Tensor(shape=[], dtype=Float32, value= 12)
    """

    def compute(self, lower, upper, loop_func: Callable, init_val, unroll: bool = True):
        _check_type("ForiLoop", "lower", lower, (int, _UgTensor))
        _check_type("ForiLoop", "upper", upper, (int, _UgTensor))
        _check_type("ForiLoop", "loop_func", loop_func, _FUNCTION_TYPES)
        bounds_known = isinstance(lower, int) and isinstance(upper, int)
        if current_trace() is None or (unroll and bounds_known):
            return _running(lambda: self._python_loop(lower, upper, loop_func, init_val))
        return _running(lambda: _ug.fori_loop(lower, upper, _seeing_ms(loop_func), init_val))

    @staticmethod
    def _python_loop(lower, upper, loop_func: Callable, value):
        for index in range(lower, upper):
            value = loop_func(index, value)
        return value


class Scan(_LoopOperator):
    """``ops.Scan()(loop_func, init, xs, length=None, unroll=True)``:
    ``carry, y = loop_func(carry, x)`` for each ``x`` of the list or tuple ``xs`` (or
    ``length`` times with ``x`` None when ``xs`` is None); returns ``(carry, ys)``
    with the ``y`` in a list.

    Inside ``ms.jit`` with ``unroll=False`` and ``xs`` tensors of one shape (or
    None), the loop is one ``scan`` primitive (differentiable to any order);
    otherwise it is unrolled.

    Raises:
        TypeError: When ``loop_func`` is not a function, ``xs`` not a list, tuple or None,
            or ``length`` not an int when ``xs`` is None.
        ValueError: When the loop raises (``Invalid loop_func, ...``), e.g. when
            ``loop_func`` does not return a pair.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import ops
        >>> ops.Scan()(lambda carry, x: (carry + x, carry * x), 0, [1, 2, 3])
        (6, [0, 2, 9])
    """

    def compute(self, loop_func: Callable, init, xs, length=None, unroll: bool = True):
        _check_type("Scan", "loop_func", loop_func, _FUNCTION_TYPES)
        if xs is not None:
            _check_type("Scan", "xs", xs, (list, tuple))
        else:
            _check_type("Scan", "length", length, (int,))
        elements = [None] * length if xs is None else list(xs)
        if current_trace() is None or unroll or not _stackable(elements, xs is None):
            return _running(lambda: self._python_loop(loop_func, init, elements))
        return _running(lambda: self._primitive_loop(loop_func, init, elements, xs is None))

    @staticmethod
    def _python_loop(loop_func: Callable, carry, elements: list):
        outputs = []
        for element in elements:
            carry, output = loop_func(carry, element)
            outputs.append(output)
        return carry, outputs

    @staticmethod
    def _primitive_loop(loop_func: Callable, init, elements: list, no_xs: bool):
        xs = None if no_xs else _ug.stack(elements)
        carry, stacked = _ug.scan(_seeing_ms(_pair_returning(loop_func)), init, xs,
                                  length=len(elements))
        if not tree_flatten(stacked)[0]:
            return carry, [stacked] * len(elements)
        return carry, [tree_map(lambda ys, i=i: ys[i], stacked) for i in range(len(elements))]


def _pair_returning(loop_func: Callable) -> Callable:
    def step(carry, element):
        result = loop_func(carry, element)
        if not isinstance(result, tuple) or len(result) != 2:
            raise ValueError(f"loop_func must return a tuple (carry, y), got "
                             f"{type(result).__name__}")
        return result
    return step


def _stackable(elements: list, no_xs: bool) -> bool:
    """Whether the scanned elements travel as one stacked tensor (tensors of one shape and
    dtype), or there are none (``xs`` None)."""
    if no_xs:
        return True
    if not elements or not all(isinstance(e, _UgTensor) for e in elements):
        return False
    first = elements[0]
    return all(tuple(e.shape) == tuple(first.shape) and e.dtype == first.dtype
               for e in elements)
