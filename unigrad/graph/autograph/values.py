"""What traced statements carry and check: their variables as tensors, and the errors.

A traced ``if`` or loop carries its variables through a control-flow primitive
as a flat list of tensors: :class:`Spec` splits one variable's value into the
tensors and numbers a graph carries and the Python structure and objects that
stay as they are; :func:`first_outputs`/:func:`second_outputs`/
:func:`merged_state` line up the two branches of an ``if``; :class:`Carry` does
it for a loop. A Python number becomes a tensor of the default dtype, or of the
dtype and shape the statement gives it (``total = 0`` then ``total = total +
x``: the statement is traced again with the number widened, :func:`retrying`).
:class:`Watch` catches Python side effects of a traced body. What cannot be
carried raises :class:`AutographError` naming the file, line and variable.

Example:
    >>> import unigrad as ug
    >>> from unigrad.graph.autograph.values import Spec
    >>> spec = Spec("pair", (ug.tensor(1.0), "label", 2))
    >>> spec.carried()  # the tensor and the number travel through the graph
    [0, 2]
    >>> spec.rebuild([ug.tensor(5.0), ug.tensor(6)])
    (tensor(5.), 'label', tensor(6))
"""

from __future__ import annotations

import collections
from collections.abc import Callable

import numpy as np

from ...tensor import Tensor
from ...transforms.tree import tree_flatten, tree_unflatten
from ..tracer import ConcretizationError
from .lowering import RETURN_VALUE

_NUMBERS = (bool, int, float, np.bool_, np.number)
_CONTAINERS = (list, dict, set, bytearray, collections.deque)
_MISSING = object()


class AutographError(ConcretizationError):
    """Python code under ``ug.jit`` that a traced condition makes impossible to convert (a
    variable defined in one branch only, a loop variable changing shape, a Python side
    effect in a traced branch); the message names the file, line and variable.

    Example:
        >>> from unigrad.graph.autograph import AutographError
        >>> issubclass(AutographError, TypeError)  # as ConcretizationError
        True
    """


class Undefined:
    """The value of a variable before its first assignment (it is reached by ``nonlocal``
    from converted branches, so it needs a binding); using it raises as Python would.

    Example:
        >>> from unigrad.graph.autograph.values import Undefined
        >>> Undefined("y") + 1
        Traceback (most recent call last):
        UnboundLocalError: cannot access local variable 'y' where it is not associated with a value
    """

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def _unbound(self, *args, **kwargs):
        raise UnboundLocalError(f"cannot access local variable '{self.name}' where it is not "
                                f"associated with a value")

    def __getattr__(self, attribute):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        self._unbound()

    __bool__ = __call__ = __iter__ = __len__ = __getitem__ = __add__ = __radd__ = __sub__ = \
        __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = __neg__ = __lt__ = \
        __le__ = __gt__ = __ge__ = __matmul__ = __pow__ = _unbound

    def __repr__(self) -> str:
        return f"<undefined {self.name}>"


class _UndefinedReturn:
    """``retval_`` of a converted function before a ``return`` ran."""

    def __repr__(self) -> str:
        return "<no return value>"


UNDEFINED_RETURN = _UndefinedReturn()


def ld(value):
    """``value``, read by converted code: an :class:`Undefined` raises ``UnboundLocalError``.

    Example:
        >>> from unigrad.graph.autograph.values import Undefined, ld
        >>> ld(3)
        3
        >>> ld(Undefined("y"))
        Traceback (most recent call last):
        UnboundLocalError: cannot access local variable 'y' where it is not associated with a value
    """
    if isinstance(value, Undefined):
        value._unbound()
    return value


def _is_undefined(value) -> bool:
    return isinstance(value, Undefined) or value is UNDEFINED_RETURN


def error(location: str, message: str) -> AutographError:
    """The :class:`AutographError` for the statement at ``location`` (``file:line``)."""
    return AutographError(f"{location}: {message} (ug.jit converts Python control flow whose "
                          f"condition is a traced tensor into graph control flow)")


# ============================================================================ side effects

class Watch:
    """Python objects a traced branch or loop body could change behind the graph's back:
    containers it calls mutating methods of or assigns items of (``results``), attributes
    it assigns (``self.count``), variables of enclosing scopes it assigns (``=total``, a
    ``global`` or ``nonlocal``). Snapshot before, compare after each trace of the body."""

    def __init__(self, frame, watched: tuple):
        self.frame = frame
        self.entries = []
        for expression in watched:
            name, _, attribute = expression.lstrip("=").partition(".")
            owner = self._read(name)
            if owner is _MISSING:
                continue
            if expression.startswith("="):
                self.entries.append((name, None, "=", owner, None))
            elif attribute:
                value = getattr(owner, attribute, Undefined(expression))
                self.entries.append((expression, owner, attribute, value, None))
            elif isinstance(owner, _CONTAINERS):
                self.entries.append((expression, owner, None, owner, _contents(owner)))

    def _read(self, name: str):
        scope = self.frame.f_locals
        return scope[name] if name in scope else self.frame.f_globals.get(name, _MISSING)

    def check(self, construct: str, location: str) -> None:
        for expression, owner, attribute, value, contents in self.entries:
            if attribute == "=":
                changed = self._read(expression) is not value
                what = f"assigns `{expression}`, a variable of an enclosing scope"
            elif attribute is not None:
                changed = getattr(owner, attribute, value) is not value
                what = f"assigns the attribute `{expression}`"
            else:
                changed = _contents(value) != contents
                what = f"modifies `{expression}` (a Python {type(value).__name__})"
            if changed:
                raise error(location, f"the {construct} {what}, a Python side effect: it "
                            f"would happen once while the graph is built, not each "
                            f"time the data takes that path; return the new value "
                            f"as a tensor (assign a variable) instead, or write a "
                            f"tensor in place")


def _contents(container) -> list:
    items = container.items() if isinstance(container, dict) else container
    return [id(item) if not isinstance(item, tuple) else tuple(map(id, item))
            for item in items]


# ============================================================================ carried values

def _variable(name: str) -> str:
    """How errors name a variable of the user's code."""
    return "the return value" if name == RETURN_VALUE else f"`{name}`"


def _describe(leaf) -> str:
    if leaf is None:
        return "None"
    if isinstance(leaf, Tensor):
        from ..ir import Var
        return f"a tensor {Var(tuple(leaf.shape), leaf._data.dtype).type_text()}"
    if _is_undefined(leaf):
        return "undefined"
    return f"a Python {type(leaf).__name__}"


def _as_tensor(value, like: tuple | None = None) -> Tensor:
    """A Python number as a tensor (of the ``(shape, dtype)`` ``like`` when given)."""
    from ...ops.creation import as_tensor, full
    if like is None:
        return as_tensor(value)
    return full(like[0], value, dtype=like[1])


def _type_of(tensor: Tensor) -> tuple:
    return tuple(tensor.shape), tensor.dtype


_KINDS = "biufc"


class _Widen(Exception):
    """A Python number entering a traced statement comes out as a tensor of another dtype or
    shape it converts to (``total = 0`` then ``total = total + x``): trace again with the
    number made a tensor of that type (``like``) from the start. Never reaches the user."""

    def __init__(self, key: tuple, like: tuple):
        super().__init__(key)
        self.key, self.like = key, like


def _widening(key: tuple, number, tensor: Tensor, widened: dict) -> _Widen | None:
    """The :class:`_Widen` making ``number`` the type of ``tensor``, if it converts to it
    and was not widened already."""
    if key in widened or not isinstance(number, _NUMBERS) or not isinstance(tensor, Tensor):
        return None
    kind = np.asarray(number).dtype.kind
    if _KINDS.index(kind) > _KINDS.index(tensor.dtype.kind):
        return None
    return _Widen(key, _type_of(tensor))


def retrying(run: Callable, widened: dict):
    """``run()``, traced again each time it asks for a number to be widened (each number
    widens once, so this ends)."""
    while True:
        try:
            return run()
        except _Widen as widen:
            widened[widen.key] = widen.like


class Spec:
    """One variable's value, split into what a graph carries (tensors, numbers as tensors)
    and what stays Python (its structure, other objects)."""

    __slots__ = ("name", "value", "tree", "leaves")

    def __init__(self, name: str, value):
        self.name = name
        self.value = value
        if _is_undefined(value):
            self.tree, self.leaves = None, []
        else:
            self.leaves, self.tree = tree_flatten(value)

    @property
    def undefined(self) -> bool:
        return _is_undefined(self.value)

    def carried(self) -> list:
        """Positions of the leaves a graph carries."""
        return [i for i, leaf in enumerate(self.leaves) if _is_carried(leaf)]

    def rebuild(self, values: list):
        """This variable with its carried leaves replaced by ``values`` (consumed)."""
        if self.undefined:
            return self.value
        leaves = list(self.leaves)
        for position in self.carried():
            leaves[position] = values.pop(0)
        return tree_unflatten(self.tree, leaves)


# ============================================================================ merging branches

def merged_state(first: list, second: list, outputs: list) -> tuple:
    """The variables after a traced ``if`` (``first``/``second``: the specs of its branches
    in the order they were traced): the cond's outputs, except numbers both branches left
    equal, which stay Python numbers."""
    state = []
    for mine, theirs in zip(first, second):
        if mine.value is UNDEFINED_RETURN:  # the other branch gives the structure
            mine, theirs = theirs, mine
        if mine.undefined:
            state.append(mine.value)
            continue
        leaves = list(mine.leaves)
        same = theirs.tree == mine.tree
        for position in mine.carried():
            value = outputs.pop(0)
            if not (same and isinstance(leaves[position], _NUMBERS) and
                    _same_constant(leaves[position], theirs.leaves[position])):
                leaves[position] = value
        state.append(tree_unflatten(mine.tree, leaves))
    return tuple(state)


def first_outputs(specs: list, widened: dict) -> list:
    """The carried leaves of ``specs`` as tensors (numbers widened as ``widened`` says; an
    undefined return value as zeros of the types the other branch gives it)."""
    outputs = []
    for index, spec in enumerate(specs):
        if spec.value is UNDEFINED_RETURN:
            outputs.extend(_zeros(like) for like in widened.get((index, None), ()))
        for position in spec.carried():
            leaf = spec.leaves[position]
            outputs.append(leaf if isinstance(leaf, Tensor) else
                           _as_tensor(leaf, widened.get((index, position))))
    return outputs


def second_outputs(specs: list, first: tuple, label: str, location: str,
                   widened: dict) -> list:
    """This branch's outputs in the first branch's layout, or an error naming the variable.

    An undefined return value (``retval_`` where the branch did not ``return``; the
    ``do_return`` flag says it is never used) is zeros of the type the other branch
    gives it."""
    first_label, first_specs = first
    reference = iter(first_outputs(first_specs, widened))
    outputs = []
    for index, (mine, theirs) in enumerate(zip(specs, first_specs)):
        if mine.undefined and theirs.undefined:
            continue
        if mine.value is UNDEFINED_RETURN:
            outputs.extend(_zeros(_type_of(next(reference))) for _ in theirs.carried())
            continue
        if theirs.value is UNDEFINED_RETURN:
            if (index, None) not in widened:  # trace again: the first branch fills the slot
                raise _Widen((index, None), [_type_of(_as_tensor(mine.leaves[position]))
                                             for position in mine.carried()])
            outputs.extend(_matching(mine.leaves[position], next(reference), (index, None),
                                     None, widened) for position in mine.carried())
            continue
        if mine.undefined or theirs.undefined:
            defined = first_label if mine.undefined else label
            raise error(location, f"{_variable(mine.name)} is assigned only in the {defined} "
                        f"branch of the `if` and used after it; with a traced "
                        f"condition both branches need it: assign it before the "
                        f"`if` or in both branches")
        if mine.tree != theirs.tree:
            raise error(location, f"{_variable(mine.name)} is {_describe(theirs.value)} in one "
                        f"branch of the `if` and {_describe(mine.value)} in the "
                        f"other; with a traced condition both branches must give "
                        f"it the same structure")
        for position, (leaf, other) in enumerate(zip(mine.leaves, theirs.leaves)):
            if not _is_carried(other) and not _is_carried(leaf):
                if leaf is other or _same_constant(leaf, other):
                    continue
                raise error(location, f"{_variable(mine.name)} holds {other!r} in one branch "
                            f"of the `if` and {leaf!r} in the other: Python objects a "
                            f"traced condition cannot choose between; make them the same "
                            f"or tensors")
            if _is_carried(other) and _is_carried(leaf):
                value = _matching(leaf, next(reference), (index, position), other, widened)
                if value is not None:
                    outputs.append(value)
                    continue
            raise error(location, f"{_variable(mine.name)} is {_describe(other)} in one branch "
                        f"of the `if` and {_describe(leaf)} in the other; with a "
                        f"traced condition both branches must give it the same "
                        f"shape and dtype")
    return outputs


def _is_carried(leaf) -> bool:
    return isinstance(leaf, Tensor) or isinstance(leaf, _NUMBERS)


def _matching(leaf, reference: Tensor, key: tuple, before, widened: dict) -> Tensor | None:
    """``leaf`` as a tensor of ``reference``'s type (None if it has another): a number is
    converted; a tensor where ``before`` was a Python number asks to widen the number."""
    if isinstance(leaf, _NUMBERS):
        kind = _KINDS.index(_number_kind(leaf))
        if kind <= _KINDS.index(reference.dtype.kind):
            return _as_tensor(leaf, _type_of(reference))
        if isinstance(before, _NUMBERS) and key not in widened:  # 1 in one branch, 2.5 in the other
            raise _Widen(key, _type_of(_as_tensor(leaf)))
        return None
    if _type_of(leaf) == _type_of(reference):
        return leaf
    widen = _widening(key, before, leaf, widened)
    if widen is not None:
        raise widen
    return None


def _zeros(like: tuple) -> Tensor:
    """Zeros of the ``(shape, dtype)`` ``like``."""
    from ...ops.creation import zeros
    return zeros(like[0], dtype=like[1])


def _number_kind(value) -> str:
    """``"b"``, ``"i"``, ``"f"`` or ``"c"``: the kind of a Python number."""
    return np.asarray(value).dtype.kind


def _same_constant(leaf, other) -> bool:
    try:
        return type(leaf) is type(other) and bool(leaf == other)
    except Exception:
        return False


# ============================================================================ loop carries

class Carry:
    """The variables of a traced loop as a flat list of tensors, and back."""

    def __init__(self, names: tuple, values: tuple, location: str):
        self.location = location
        self.specs = [Spec(name, value) for name, value in zip(names, values)]
        for spec in self.specs:  # (an undefined return value the loop never sets stays so)
            if isinstance(spec.value, Undefined):
                raise error(location, f"{_variable(spec.name)} is used after the loop (or in "
                            f"its next iteration) but is not defined before it; a "
                            f"traced loop may run zero times: assign it before the "
                            f"loop")
        self.widened: dict = {}  # (variable, leaf) -> (shape, dtype) of numbers made tensors

    @property
    def initial(self) -> list:
        return first_outputs(self.specs, self.widened)

    def state(self, values) -> tuple:
        values = list(values)
        return tuple(spec.rebuild(values) for spec in self.specs)

    def run(self, loop: Callable):
        """``loop()`` (a while_loop of this carry), traced again while numbers widen."""
        return retrying(loop, self.widened)

    def outputs(self, values: tuple) -> list:
        """The body's new values as the loop's carry, or an error naming the variable."""
        initial = iter(self.initial)
        outputs = []
        for index, (spec, value) in enumerate(zip(self.specs, values)):
            new = Spec(spec.name, value)
            if new.tree != spec.tree:
                raise error(self.location, f"{_variable(spec.name)} enters the loop as "
                            f"{_describe(spec.value)} and one iteration makes "
                            f"it {_describe(value)}; a traced loop's variables "
                            f"keep their structure")
            for position, (leaf, before) in enumerate(zip(new.leaves, spec.leaves)):
                if not _is_carried(before):
                    if leaf is before or _same_constant(leaf, before):
                        continue
                    raise error(self.location, f"{_variable(spec.name)} is "
                                f"{_describe(before)} that the traced loop "
                                f"changes; only tensors and numbers can change "
                                f"in it")
                entering = next(initial)
                value = _matching(leaf, entering, (index, position), before, self.widened) \
                    if _is_carried(leaf) else None
                if value is None:
                    raise error(self.location, f"{_variable(spec.name)} enters the loop as "
                                f"{_describe(entering)} and one iteration makes "
                                f"it {_describe(leaf)}; a traced loop's "
                                f"variables keep their shape and dtype")
                outputs.append(value)
        return outputs
