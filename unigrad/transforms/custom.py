"""Custom derivative rules: JAX's ``custom_vjp``/``custom_jvp``, TensorFlow's
``custom_gradient``, MindSpore's Cell ``bprop`` and ``stop_gradient``.

Every rule that changes reverse mode records one graph node (an
:class:`~unigrad.autograd.Function`) whose backward asks the user's rule.
The forward computation runs without recording; when the backward pass
itself records (``create_graph``, nested transforms) the rule runs on
tensors with grad mode on, so a rule written with unigrad ops is itself
differentiable.

- ``custom_vjp``: ``fwd`` runs in the forward pass, ``bwd`` in the backward
  pass. In a recording backward pass ``fwd`` runs again on the inputs, so the
  residuals depend on them and higher derivatives are exact.
- ``custom_jvp``: forward mode calls the rule at each level where an input
  has a tangent; reverse mode differentiates the rule's tangent output with
  respect to zero tangents (the rule is linear in them, so this gradient is
  its transpose applied to the cotangent).
- ``custom_gradient`` and ``call_with_bprop``: the backward function the user
  wrote is called with the output gradients.

Example:
    >>> import unigrad as ug
    >>> @ug.custom_vjp
    ... def clip_gradient(x):
    ...     return x
    >>> clip_gradient.defvjp(lambda x: (x, None), lambda _, g: (ug.clip(g, -1.0, 1.0),))
    >>> ug.grad(lambda x: clip_gradient(x) * 5.0)(ug.tensor(2.0))
    tensor(1.)
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence

from .. import _state
from ..autograd import forward_ad
from ..autograd.function import Function
from ..autograd.grad_mode import enable_grad, no_grad
from ..tensor import Tensor
from ._closure import closure_tensors
from ._core import detached, pullback, zeros_of
from .tree import tree_flatten, tree_map, tree_unflatten

__all__ = ["stop_gradient", "custom_vjp", "custom_jvp", "custom_gradient", "call_with_bprop"]

_local = _state.local

_VJP_FORWARD_MODE_ERROR = "can't apply forward-mode autodiff (jvp) to a custom_vjp function."
_VARIABLES_KEYWORD_ERROR = ("If using @custom_gradient with a function that uses variables, then "
                            "grad_fn must accept a keyword argument 'variables'.")
_VARIABLE_COUNT_ERROR = "Must return gradient for each variable from @custom_gradient grad_fn."


# ----------------------------------------------------------------------------- stop_gradient

def stop_gradient(value):
    """``value`` unchanged, with no gradient flowing back through any tensor in it.

    Works on pytrees: every tensor leaf comes back detached (no gradient at
    any nesting level of differentiation, no forward-mode tangent); other
    leaves pass through (MindSpore's ``ops.stop_gradient``, JAX's
    ``lax.stop_gradient``, TensorFlow's ``tf.stop_gradient``).

    Example:
        >>> import unigrad as ug
        >>> ug.grad(lambda x: ug.stop_gradient(x) ** 2 + x)(ug.tensor(3.0))
        tensor(1.)
        >>> ug.stop_gradient({"a": ug.tensor(1.0, requires_grad=True), "b": 2})
        {'a': tensor(1.), 'b': 2}
    """
    return tree_map(detached, value)


# ----------------------------------------------------------------------------- shared machinery

class _RuleFunction(Function):
    """A Function whose forward and backward are delegated to a rule object.

    ``rule.forward(inputs) -> (outputs, saved)`` returns the output tensors
    and the tensors to save; ``rule.backward(ctx, grads)`` returns one
    gradient per input.
    """

    @staticmethod
    def forward(ctx, *inputs, rule):
        ctx.rule = rule
        outputs, saved = rule.forward(inputs)
        ctx.save_for_backward(*saved)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    @staticmethod
    def backward(ctx, *grads):
        return ctx.rule.backward(ctx, grads)

    @staticmethod
    def jvp(ctx, *tangents):
        raise TypeError(ctx.rule.forward_mode_error)


class CustomVJP(_RuleFunction):
    """The graph node of a ``custom_vjp`` call (``CustomVJPBackward``)."""


class CustomJVP(_RuleFunction):
    """The graph node of a ``custom_jvp`` call in reverse mode (``CustomJVPBackward``)."""


class CustomGradient(_RuleFunction):
    """The graph node of a ``custom_gradient`` call (``CustomGradientBackward``)."""


class CellBprop(_RuleFunction):
    """The graph node of a Cell with a ``bprop`` method (``CellBpropBackward``)."""


def _apply(function: type, inputs: Sequence, rule) -> list:
    """Run ``function.apply`` on ``inputs`` and return its outputs as a list."""
    result = function.apply(*inputs, rule=rule)
    return list(result) if isinstance(result, tuple) else [result]


def _alias(tensor: Tensor) -> Tensor:
    """A new tensor sharing ``tensor``'s data and version counter, outside any graph.

    Outputs handed to a Function are aliased so that recording their node
    never rewrites a tensor the user already holds (an input or a constant
    returned unchanged).
    """
    return tensor.detach()


def _function_name(fn) -> str:
    return getattr(fn, "__name__", None) or type(fn).__name__


def _has_active_tangent(values: Sequence) -> bool:
    """Whether a tensor among ``values`` carries a tangent at an active forward-AD level."""
    levels = _local.forward_levels
    if not levels:
        return False
    return any(forward_ad.tangent_of(value, level) is not None
               for value in values if isinstance(value, Tensor) for level in levels)


def _resolved_arguments(fun: Callable, args: tuple, kwargs: dict) -> tuple:
    """Keyword arguments moved to their positions (JAX resolves them the same way)."""
    if not kwargs:
        return args
    try:
        bound = inspect.signature(fun).bind(*args, **kwargs)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{_function_name(fun)}: {error}") from error
    bound.apply_defaults()
    if bound.kwargs:
        raise TypeError(f"keyword arguments {sorted(bound.kwargs)} of {_function_name(fun)} "
                        f"could not be resolved to positions")
    return bound.args


def _normalized_argnums(argnums) -> tuple:
    if isinstance(argnums, int):
        argnums = (argnums,)
    argnums = tuple(argnums)
    for index in argnums:
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise TypeError(f"nondiff_argnums must be non-negative ints, got {argnums!r}")
    return argnums


def _as_gradient(value) -> Tensor:
    """A gradient returned by a user's rule, as a Tensor (arrays and numbers are wrapped)."""
    if isinstance(value, Tensor):
        return value
    from ..ops.creation import as_tensor
    return as_tensor(value)


def _zero_tangent(value):
    """The zero tangent of one argument leaf (a Tensor, a number, or None for other leaves)."""
    if isinstance(value, Tensor):
        return zeros_of(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return 0.0
    return None


def _conformed(value, shape: tuple, dtype) -> Tensor:
    """``value`` as a Tensor broadcast to ``shape`` and cast to ``dtype``."""
    from ..ops.elementwise import cast
    from ..ops.shape import broadcast_to
    tensor = _as_gradient(value)
    if tuple(tensor.shape) != tuple(shape):
        tensor = broadcast_to(tensor, tuple(shape))
    if tensor._data.dtype != dtype:
        tensor = cast(tensor, dtype)
    return tensor


class _Arguments:
    """Positional arguments with the tensor leaves of the differentiated ones taken out.

    ``tensors`` are those leaves in order (the inputs of the graph node);
    :meth:`rebuilt` and :meth:`differentiated` put other tensors in their
    places. Positions not in ``differentiated`` are kept as they are.
    """

    def __init__(self, args: tuple, differentiated: Sequence[int]):
        chosen = set(differentiated)
        self.count = len(args)
        self.positions = tuple(i for i in range(len(args)) if i in chosen)
        self.constants = {i: value for i, value in enumerate(args) if i not in chosen}
        self.structures = {}
        self.tensors = []
        for position in self.positions:
            leaves, treedef = tree_flatten(args[position])
            slots = []
            for leaf in leaves:
                if isinstance(leaf, Tensor):
                    slots.append(len(self.tensors))
                    self.tensors.append(leaf)
                else:
                    slots.append(None)
            template = [None if slot is not None else leaf for leaf, slot in zip(leaves, slots)]
            self.structures[position] = (treedef, template, slots)
        self.tensor_count = len(self.tensors)

    def release(self) -> None:
        """Drop the references to the argument tensors (the graph node saves what it needs)."""
        self.tensors = []

    def _value(self, position: int, tensors: Sequence, other: Callable | None):
        treedef, template, slots = self.structures[position]
        leaves = [tensors[slot] if slot is not None
                  else (other(leaf) if other is not None else leaf)
                  for leaf, slot in zip(template, slots)]
        return tree_unflatten(treedef, leaves)

    def differentiated(self, tensors: Sequence, other: Callable | None = None) -> tuple:
        """The differentiated arguments with ``tensors`` as their tensor leaves
        (``other(leaf)`` replaces their other leaves when given)."""
        return tuple(self._value(position, tensors, other) for position in self.positions)

    def nondifferentiated(self) -> tuple:
        return tuple(self.constants[i] for i in sorted(self.constants))

    def rebuilt(self, tensors: Sequence) -> tuple:
        """All positional arguments, with ``tensors`` as the differentiated tensor leaves."""
        return tuple(self.constants[i] if i in self.constants else self._value(i, tensors, None)
                     for i in range(self.count))

    def leaf_gradients(self, cotangents: Sequence, describe: Callable[[], str]) -> list:
        """``(gradient, position)`` (or None) per tensor leaf from one cotangent (a pytree or
        None) per differentiated position."""
        grads = [None] * self.tensor_count
        for position, cotangent in zip(self.positions, cotangents):
            if cotangent is None:
                continue
            treedef, template, slots = self.structures[position]
            if len(slots) == 1 and treedef.num_leaves == 1 and not treedef.children:
                leaves = [cotangent]
            else:
                leaves, cotangent_def = tree_flatten(cotangent, is_leaf=_is_none)
                if cotangent_def != treedef:
                    raise TypeError(f"{describe()}: the cotangent of argument {position} has "
                                    f"structure {cotangent_def}, expected {treedef}")
            for slot, leaf in zip(slots, leaves):
                if slot is None or leaf is None:
                    continue
                grads[slot] = (_as_gradient(leaf), position)
        return grads


def _is_none(value) -> bool:
    return value is None


class _Outputs:
    """A function's output pytree with its tensor leaves taken out (aliased).

    The graph node gets the tensors with :meth:`handed_over`; this object then
    keeps only the structure (a reference to the outputs would make a cycle
    through their node and keep them alive until the garbage collector runs).
    """

    def __init__(self, value):
        leaves, self.treedef = tree_flatten(value)
        self.template = [None if isinstance(leaf, Tensor) else leaf for leaf in leaves]
        self.slots = [i for i, leaf in enumerate(leaves) if isinstance(leaf, Tensor)]
        self.tensors = [_alias(leaves[i]) for i in self.slots]
        self.metas = [(t._data.shape, t._data.dtype) for t in self.tensors]

    def handed_over(self) -> list:
        """The output tensors, forgotten here."""
        tensors, self.tensors = self.tensors, None
        return tensors

    def rebuilt(self, tensors: Sequence):
        """The output structure with ``tensors`` in place of its tensor leaves."""
        leaves = list(self.template)
        for slot, tensor in zip(self.slots, tensors):
            leaves[slot] = tensor
        return tree_unflatten(self.treedef, leaves)

    def tensor_leaves_of(self, value, describe: Callable[[], str]) -> list:
        """The leaves of ``value`` (a pytree like the output) at the output's tensor positions."""
        leaves, treedef = tree_flatten(value)
        if treedef != self.treedef:
            raise TypeError(f"{describe()} must have the structure of the primal output "
                            f"{self.treedef}, but got {treedef}")
        return [leaves[slot] for slot in self.slots]


# ----------------------------------------------------------------------------- custom_vjp

class custom_vjp:
    """A function with a custom reverse-mode rule (JAX's ``jax.custom_vjp``).

    Define the rule with ``f.defvjp(fwd, bwd)``: ``fwd(*args)`` returns
    ``(out, residuals)``, ``bwd(residuals, g)`` (``bwd(*nondiff_args,
    residuals, g)`` with ``nondiff_argnums``) returns a tuple with one
    cotangent per differentiated positional argument (None for zero); ``g``
    and ``out`` share their pytree structure. MindSpore's spelling
    ``f.defbwd(bwd)`` takes ``bwd(*args, out, dout)`` returning one gradient
    per positional argument. Forward mode through the function raises
    TypeError.

    Example:
        >>> import unigrad as ug
        >>> @ug.custom_vjp
        ... def f(x, y):
        ...     return ug.sin(x) * y
        >>> def f_fwd(x, y):
        ...     return f(x, y), (ug.cos(x), ug.sin(x), y)
        >>> def f_bwd(residuals, g):
        ...     cos_x, sin_x, y = residuals
        ...     return (cos_x * g * y, sin_x * g)
        >>> f.defvjp(f_fwd, f_bwd)
        >>> ug.grad(f, grad_position=(0, 1))(ug.tensor(0.0), ug.tensor(2.0))
        (tensor(2.), tensor(0.))
    """

    def __init__(self, fun: Callable, nondiff_argnums=()):
        if not callable(fun):
            raise TypeError(f"custom_vjp expects a callable, got {type(fun).__name__}")
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = _normalized_argnums(nondiff_argnums)
        self.fwd = None
        self.bwd = None
        self.mindspore_bwd = None

    def defvjp(self, fwd: Callable, bwd: Callable) -> None:
        """Set the forward rule ``fwd(*args) -> (out, residuals)`` and ``bwd(residuals, g)``."""
        if not callable(fwd) or not callable(bwd):
            raise TypeError("defvjp expects two callables (fwd, bwd)")
        self.fwd, self.bwd, self.mindspore_bwd = fwd, bwd, None

    def defbwd(self, bwd: Callable) -> custom_vjp:
        """MindSpore's form: ``bwd(*args, out, dout)`` returns one gradient per argument."""
        if not callable(bwd):
            raise TypeError("defbwd expects a callable bwd(*args, out, dout)")
        self.fwd, self.bwd, self.mindspore_bwd = None, None, bwd
        return self

    def __call__(self, *args, **kwargs):
        if self.bwd is None and self.mindspore_bwd is None:
            raise AttributeError(f"No VJP defined for custom_vjp function {self.__name__} "
                                 f"using defvjp.")
        args = _resolved_arguments(self.fun, args, kwargs)
        for index in self.nondiff_argnums:
            if index >= len(args):
                raise TypeError(f"custom_vjp function {self.__name__}: nondiff_argnums "
                                f"{self.nondiff_argnums} out of range for {len(args)} arguments")
        differentiated = [i for i in range(len(args)) if i not in self.nondiff_argnums]
        if self.mindspore_bwd is not None:
            differentiated = range(len(args))
        arguments = _Arguments(args, differentiated)
        if _has_active_tangent(tree_flatten(args)[0]):
            raise TypeError(_VJP_FORWARD_MODE_ERROR)
        recording = _local.grad_enabled and any(t._requires_grad for t in arguments.tensors)
        if not recording:
            with no_grad():
                return self.fun(*args)
        rule = _VjpRule(self, arguments, args)
        outputs = _apply(CustomVJP, arguments.tensors, rule)
        arguments.release()
        return rule.outputs.rebuilt(outputs)


class _VjpRule:
    forward_mode_error = _VJP_FORWARD_MODE_ERROR

    def __init__(self, owner: custom_vjp, arguments: _Arguments, args: tuple):
        self.owner = owner
        self.arguments = arguments
        self.args = args
        self.outputs = None
        self.residuals = None

    def _describe(self) -> str:
        bwd = self.owner.mindspore_bwd or self.owner.bwd
        return (f"Custom VJP bwd rule {_function_name(bwd)} for function "
                f"{self.owner.__name__}")

    def forward(self, inputs: tuple) -> tuple:
        args, self.args = self.args, None
        if self.owner.mindspore_bwd is not None:
            out = self.owner.fun(*args)
        else:
            out, self.residuals = self._run_fwd(args)
        self.outputs = _Outputs(out)
        tensors = self.outputs.handed_over()
        saved = list(inputs)
        if self.owner.mindspore_bwd is not None:
            saved += tensors
        return tensors, saved

    def _run_fwd(self, args: tuple) -> tuple:
        result = self.owner.fwd(*args)
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            raise TypeError(f"Custom VJP fwd rule {_function_name(self.owner.fwd)} for function "
                            f"{self.owner.__name__} must produce a pair (list or tuple of length "
                            f"two) where the first element represents the primal output and the "
                            f"second element represents residuals, but got "
                            f"{type(result).__name__}")
        return result[0], result[1]

    def backward(self, ctx, grads: tuple) -> tuple:
        recording = _local.grad_enabled
        saved = ctx.saved_tensors
        count = self.arguments.tensor_count
        inputs = saved[:count]
        dout = self.outputs.rebuilt(grads)
        if self.owner.mindspore_bwd is not None:
            out = self.outputs.rebuilt(saved[count:])
            result = self.owner.mindspore_bwd(*self.arguments.rebuilt(inputs), out, dout)
            return self._mindspore_gradients(result, inputs)
        residuals = self.residuals
        if recording and any(t._requires_grad for t in inputs):
            with enable_grad():
                _, residuals = self._run_fwd(self.arguments.rebuilt(inputs))
        result = self.owner.bwd(*self.arguments.nondifferentiated(), residuals, dout)
        return self._jax_gradients(result, inputs)

    def _jax_gradients(self, result, inputs: Sequence) -> tuple:
        expected = len(self.arguments.positions)
        if not isinstance(result, (tuple, list)):
            raise TypeError(f"{self._describe()} must produce a tuple with one entry per "
                            f"differentiated argument ({expected}), but got "
                            f"{type(result).__name__}")
        if len(result) != expected:
            raise TypeError(f"{self._describe()} must produce a tuple of length equal to the "
                            f"number of differentiated arguments of the primal function "
                            f"({expected}), but got length {len(result)}")
        return self._checked(self.arguments.leaf_gradients(result, self._describe), inputs,
                             ValueError)

    def _mindspore_gradients(self, result, inputs: Sequence) -> tuple:
        expected = self.arguments.count
        if isinstance(result, Tensor) and expected == 1:
            result = (result,)
        if not isinstance(result, (tuple, list)) or len(result) != expected:
            got = len(result) if isinstance(result, (tuple, list)) else type(result).__name__
            raise ValueError(f"custom_vjp function {self.owner.__name__}: bwd must return one "
                             f"gradient per input ({expected}), but got {got}")
        return self._checked(self.arguments.leaf_gradients(result, self._describe), inputs,
                             ValueError)

    def _checked(self, entries: list, inputs: Sequence, error: type) -> tuple:
        grads = []
        for entry, tensor in zip(entries, inputs):
            if entry is None:
                grads.append(None)
                continue
            grad, position = entry
            if tuple(grad.shape) != tuple(tensor.shape):
                raise error(f"{self._describe()} produced a cotangent of shape "
                            f"{list(grad.shape)} for argument {position}, whose leaf has shape "
                            f"{list(tensor.shape)}")
            grads.append(grad)
        return tuple(grads)


# ----------------------------------------------------------------------------- custom_jvp

class custom_jvp:
    """A function with a custom forward-mode rule, used by reverse mode too (JAX's
    ``jax.custom_jvp``).

    Define the rule with ``@f.defjvp``: ``f_jvp(primals, tangents)`` (with
    ``nondiff_argnums``: ``f_jvp(*nondiff_args, primals, tangents)``) returns
    ``(primal_out, tangent_out)``; or with ``f.defjvps(*jvps)``, one
    ``jvp_i(tangent_i, primal_out, *primals)`` per argument (None: no
    dependence), summed. Forward mode calls the rule at every level where an
    argument has a tangent (zeros for the others); reverse mode transposes
    the rule, which must be linear in the tangents.

    Example:
        >>> import unigrad as ug
        >>> @ug.custom_jvp
        ... def log1pexp(x):
        ...     return ug.log(1.0 + ug.exp(x))
        >>> @log1pexp.defjvp
        ... def log1pexp_jvp(primals, tangents):
        ...     (x,), (t,) = primals, tangents
        ...     return log1pexp(x), t * (1.0 - 1.0 / (1.0 + ug.exp(x)))
        >>> ug.grad(log1pexp)(ug.tensor(100.0, dtype=ug.float64))
        tensor(1., dtype=unigrad.float64)
        >>> ug.jvp(log1pexp, (ug.tensor(0.0),), (ug.tensor(2.0),))[1]
        tensor(1.)
    """

    def __init__(self, fun: Callable, nondiff_argnums=()):
        if not callable(fun):
            raise TypeError(f"custom_jvp expects a callable, got {type(fun).__name__}")
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = _normalized_argnums(nondiff_argnums)
        self.jvp = None

    def defjvp(self, jvp: Callable) -> Callable:
        """Set the rule ``jvp(primals, tangents) -> (primal_out, tangent_out)``; returns it."""
        if not callable(jvp):
            raise TypeError("defjvp expects a callable jvp(primals, tangents)")
        self.jvp = jvp
        return jvp

    def defjvps(self, *jvps: Callable | None) -> None:
        """Set one rule per argument, ``jvp_i(tangent_i, primal_out, *primals)``; None means
        the output does not depend on that argument."""
        if self.nondiff_argnums:
            raise TypeError("Can't use ``defjvps`` with ``nondiff_argnums``.")

        def jvp(primals, tangents):
            if len(jvps) != len(primals):
                raise TypeError(f"custom_jvp function {self.__name__}: defjvps got {len(jvps)} "
                                f"rules for {len(primals)} arguments")
            primal_out = self(*primals)
            total = None
            for rule, tangent in zip(jvps, tangents):
                if rule is None:
                    continue
                term = rule(tangent, primal_out, *primals)
                total = term if total is None else tree_map(lambda a, b: a + b, total, term)
            if total is None:
                total = tree_map(_zero_tangent, primal_out)
            return primal_out, total

        self.jvp = jvp

    def __call__(self, *args, **kwargs):
        if self.jvp is None:
            raise AttributeError(f"No JVP defined for custom_jvp function {self.__name__} "
                                 f"using defjvp.")
        args = _resolved_arguments(self.fun, args, kwargs)
        differentiated = [i for i in range(len(args)) if i not in self.nondiff_argnums]
        arguments = _Arguments(args, differentiated)
        leaves = arguments.tensors
        levels = _local.forward_levels
        recording = _local.grad_enabled and any(t._requires_grad for t in leaves)
        _local.forward_levels = []
        try:
            if recording:
                rule = _JvpRule(self, arguments)
                result = _apply(CustomJVP, leaves, rule)
                outputs = rule.outputs.rebuilt(result)
            else:
                with no_grad():
                    outputs = self.fun(*args)
        finally:
            _local.forward_levels = levels
        if levels:
            outputs = self._with_tangents(arguments, leaves, outputs, levels)
        arguments.release()
        return outputs

    def _with_tangents(self, arguments: _Arguments, leaves: list, outputs, levels: list):
        """``outputs`` carrying the rule's tangent at every level where an argument has one."""
        for depth, level in enumerate(list(levels)):
            tangents = [forward_ad.tangent_of(t, level) for t in leaves]
            if all(t is None for t in tangents):
                continue
            primals = [forward_ad.strip_tangent(t, level) for t in leaves]
            tangents = [t if t is not None else _zero_tangent(p) for t, p in zip(tangents, leaves)]
            _local.forward_levels = levels[:depth]
            try:
                tangent_out = self._tangent_out(arguments, primals, tangents)
            finally:
                _local.forward_levels = levels
            outputs = _attached(outputs, tangent_out, level)
        return outputs

    def _describe(self) -> str:
        return f"Custom JVP rule {_function_name(self.jvp)} for function {self.__name__}"

    def _tangent_out(self, arguments: _Arguments, primals: list, tangents: list):
        """The rule's tangent output for ``primals`` and ``tangents`` (tensor leaves)."""
        result = self.jvp(*arguments.nondifferentiated(), arguments.differentiated(primals),
                          arguments.differentiated(tangents, _zero_tangent))
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            raise TypeError(f"{self._describe()} must produce a pair (list or tuple of length "
                            f"two) representing primal and tangent outputs, but got "
                            f"{type(result).__name__}")
        primal_out, tangent_out = result
        primal_def = tree_flatten(primal_out)[1]
        tangent_def = tree_flatten(tangent_out)[1]
        if primal_def != tangent_def:
            raise TypeError(f"{self._describe()} must produce primal and tangent outputs with "
                            f"equal container (pytree) structures, but got {primal_def} and "
                            f"{tangent_def} respectively.")
        return tangent_out


def _attached(outputs, tangent_out, level):
    """``outputs`` with each float tensor leaf carrying its ``tangent_out`` leaf at ``level``."""
    out_leaves, out_def = tree_flatten(outputs)
    tangent_leaves, tangent_def = tree_flatten(tangent_out)
    if tangent_def != out_def:
        raise TypeError(f"custom_jvp: the tangent output has structure {tangent_def} but the "
                        f"function's output has structure {out_def}")
    result = []
    for out, tangent in zip(out_leaves, tangent_leaves):
        if isinstance(out, Tensor) and out._data.dtype.kind in "fc" and tangent is not None:
            out = forward_ad.attach_tangent(
                out, _conformed(tangent, out._data.shape, out._data.dtype), level)
        result.append(out)
    return tree_unflatten(out_def, result)


class _JvpRule:
    forward_mode_error = "custom_jvp: forward mode is handled before the graph node"

    def __init__(self, owner: custom_jvp, arguments: _Arguments):
        self.owner = owner
        self.arguments = arguments
        self.outputs = None

    def forward(self, inputs: tuple) -> tuple:
        self.outputs = _Outputs(self.owner.fun(*self.arguments.rebuilt(inputs)))
        return self.outputs.handed_over(), list(inputs)

    def backward(self, ctx, grads: tuple) -> tuple:
        recording = _local.grad_enabled
        saved = ctx.saved_tensors
        needs = ctx.needs_input_grad
        primals = list(saved) if recording else [t.detach() for t in saved]
        with enable_grad():
            seeds = [_tangent_seed(t, need) for t, need in zip(saved, needs)]
            tangent_out = self.owner._tangent_out(self.arguments, primals, seeds)
        tangent_leaves = self.outputs.tensor_leaves_of(tangent_out, self._describe)
        roots, cotangents = [], []
        for tangent, grad, (shape, dtype) in zip(tangent_leaves, grads, self.outputs.metas):
            if isinstance(tangent, Tensor) and dtype.kind in "fc" and grad is not None:
                roots.append(_conformed(tangent, shape, dtype))
                cotangents.append(grad)
        targets = [seed for seed, need in zip(seeds, needs) if need]
        found = pullback(roots, cotangents, targets, create_graph=recording,
                         retain_graph=recording)
        by_seed = {id(seed): grad for seed, grad in zip(targets, found)}
        return tuple(by_seed.get(id(seed)) if need else None for seed, need in zip(seeds, needs))

    def _describe(self) -> str:
        return f"the tangent output of {self.owner._describe()}"


def _tangent_seed(tensor: Tensor, needed: bool) -> Tensor:
    """A zero tangent for ``tensor``; a leaf requiring grad when its gradient is needed."""
    return zeros_of(tensor, requires_grad=needed and tensor._data.dtype.kind in "fc")


# ----------------------------------------------------------------------------- custom_gradient

def custom_gradient(f: Callable | None = None) -> Callable:
    """Decorate ``f(*x) -> (y, grad_fn)`` to use ``grad_fn`` as its gradient (TensorFlow's
    ``tf.custom_gradient``).

    ``grad_fn(*dy)`` (one ``dy`` per tensor leaf of ``y``) returns one
    gradient per positional input, a tensor or a list/tuple. When ``f`` reads
    tensors that require grad besides its inputs (TensorFlow's variables, e.g.
    weights in a closure), ``grad_fn`` must accept a keyword ``variables``
    (the list of them) and return ``(grad_xs, grad_vars)``.

    Example:
        >>> import unigrad as ug
        >>> @ug.custom_gradient
        ... def log1pexp(x):
        ...     e = ug.exp(x)
        ...     def grad(upstream):
        ...         return upstream * (1 - 1 / (1 + e))
        ...     return ug.log(1 + e), grad
        >>> x = ug.tensor(100.0, dtype=ug.float64, requires_grad=True)
        >>> log1pexp(x).backward()
        >>> x.grad
        tensor(1., dtype=unigrad.float64)
    """
    if f is None:
        return custom_gradient
    if not callable(f):
        raise TypeError(f"custom_gradient expects a callable, got {type(f).__name__}")

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        return _call_custom_gradient(f, args, kwargs)

    return decorated


def _call_custom_gradient(f: Callable, args: tuple, kwargs: dict):
    if _has_active_tangent(tree_flatten((args, kwargs))[0]):
        raise TypeError(f"forward-mode autodiff (jvp) is not supported through the "
                        f"custom_gradient function {_function_name(f)}")
    if not _local.grad_enabled:
        return _checked_pair(f, f(*args, **kwargs))[0]
    if getattr(_local, "recorders", None):  # the tensors recording tapes watch, as they see them
        from ..autograd.recording import substitute
        args = substitute(args)[0]
    with no_grad(), closure_tensors(tree_flatten((args, kwargs))[0]) as closure:
        y, grad_fn = _checked_pair(f, f(*args, **kwargs))
    variables = closure.tensors
    if variables and not _accepts_variables(grad_fn):
        raise TypeError(_VARIABLES_KEYWORD_ERROR)
    inputs = list(args) + variables
    if not any(isinstance(t, Tensor) and t._requires_grad for t in inputs):
        return y
    rule = _GradientRule(f, y, grad_fn, len(args), variables)
    outputs = _apply(CustomGradient, inputs, rule)
    return rule.outputs.rebuilt(outputs)


def _checked_pair(f: Callable, result) -> tuple:
    if not isinstance(result, (tuple, list)) or len(result) != 2 or not callable(result[1]):
        raise TypeError(f"custom_gradient function {_function_name(f)} must return a pair "
                        f"(y, grad_fn) with a callable grad_fn")
    return result[0], result[1]


def _accepts_variables(grad_fn: Callable) -> bool:
    try:
        parameters = inspect.signature(grad_fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any((p.name == "variables" and p.kind != p.POSITIONAL_ONLY) or p.kind == p.VAR_KEYWORD
               for p in parameters)


def _flat_gradients(value) -> list:
    """TensorFlow's ``nest.flatten`` of gradients: None counts as one (zero) gradient."""
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in _flat_gradients(item)]
    return [value]


class _GradientRule:
    def __init__(self, f: Callable, y, grad_fn: Callable, arg_count: int, variables: list):
        self.name = _function_name(f)
        self.outputs = _Outputs(y)
        self.grad_fn = grad_fn
        self.arg_count = arg_count
        self.variables = variables
        self.forward_mode_error = (f"forward-mode autodiff (jvp) is not supported through the "
                                   f"custom_gradient function {self.name}")

    def forward(self, inputs: tuple) -> tuple:
        return self.outputs.handed_over(), ()

    def backward(self, ctx, grads: tuple) -> tuple:
        flat_dys = list(grads)
        if self.variables:
            result = self.grad_fn(*flat_dys, variables=list(self.variables))
            if not isinstance(result, (tuple, list)) or len(result) != 2:
                raise TypeError(f"grad_fn of custom_gradient function {self.name} must return "
                                f"(grad_xs, grad_vars) when the function uses variables")
            input_grads, variable_grads = result
            variable_grads = _flat_gradients(variable_grads)
            if len(variable_grads) != len(self.variables):
                raise ValueError(_VARIABLE_COUNT_ERROR)
        else:
            input_grads = self.grad_fn(*flat_dys)
            variable_grads = []
        flat = _flat_gradients(input_grads)
        if len(flat) != self.arg_count:
            raise ValueError("custom_gradient function expected to return", self.arg_count,
                             "gradients but returned", len(flat), "instead.")
        return tuple(None if g is None or not need else _as_gradient(g)
                     for g, need in zip(flat + variable_grads, ctx.needs_input_grad))


# ----------------------------------------------------------------------------- Cell bprop

def call_with_bprop(cell, *inputs):
    """Call ``cell.construct(*inputs)`` with ``cell.bprop`` as its backward (MindSpore).

    ``cell.bprop(*inputs, out, dout)`` gets the inputs, the forward result and
    the gradient reaching it, and returns one gradient per input (a tuple; a
    1-tuple for one input). Each gradient of a tensor input must be a tensor
    of its shape (MindSpore's ``check_bprop``): a wrong count or shape raises
    ValueError, a non-tensor TypeError. Tensors the Cell reads besides its
    inputs (its Parameters) get no gradient through it, as in MindSpore.

    Example:
        >>> import unigrad as ug
        >>> class Scaled:
        ...     def construct(self, x):
        ...         return x * 2.0
        ...     def bprop(self, x, out, dout):
        ...         return (dout * 10.0,)
        ...     __call__ = lambda self, *args: ug.transforms.call_with_bprop(self, *args)
        >>> x = ug.tensor([1.0, 2.0], requires_grad=True)
        >>> y = Scaled()(x)
        >>> y.sum().backward()
        >>> y, x.grad
        (tensor([2., 4.], grad_fn=<CellBpropBackward>), tensor([10., 10.]))
    """
    if _has_active_tangent(inputs):
        raise TypeError(f"forward-mode autodiff (jvp) is not supported through the bprop of "
                        f"{type(cell).__name__}")
    recording = _local.grad_enabled and any(
        isinstance(t, Tensor) and t._requires_grad for t in inputs)
    if not recording:
        return cell.construct(*inputs)
    rule = _BpropRule(cell, len(inputs))
    outputs = _apply(CellBprop, inputs, rule)
    return rule.outputs.rebuilt(outputs)


class _BpropRule:
    def __init__(self, cell, input_count: int):
        self.cell = cell
        self.input_count = input_count
        self.outputs = None
        self.constants = None
        self.forward_mode_error = (f"forward-mode autodiff (jvp) is not supported through the "
                                   f"bprop of {type(cell).__name__}")

    def forward(self, inputs: tuple) -> tuple:
        self.outputs = _Outputs(self.cell.construct(*inputs))
        self.constants = [None if isinstance(v, Tensor) else v for v in inputs]
        tensors = [v for v in inputs if isinstance(v, Tensor)]
        outputs = self.outputs.handed_over()
        return outputs, tensors + outputs

    def backward(self, ctx, grads: tuple) -> tuple:
        saved = list(ctx.saved_tensors)
        tensor_count = sum(value is None for value in self.constants)
        tensors = iter(saved[:tensor_count])
        inputs = [next(tensors) if value is None else value for value in self.constants]
        out = self.outputs.rebuilt(saved[tensor_count:])
        dout = self.outputs.rebuilt(grads)
        result = self.cell.bprop(*inputs, out, dout)
        return self._checked(result, inputs)

    def _checked(self, result, inputs: list) -> tuple:
        name = type(self.cell).__name__
        prefix = f"For user defined method 'bprop' of net '{name}'"
        grads = tuple(result) if isinstance(result, (tuple, list)) else (result,)
        if len(grads) != len(inputs):
            raise ValueError(f"{prefix}, the number of return values(gradients) should be equal "
                             f"to the number of input arguments except 'out' and 'dout', which "
                             f"is: {len(inputs)}, but got:{len(grads)}.")
        checked = []
        for i, (grad, value) in enumerate(zip(grads, inputs)):
            if not isinstance(value, Tensor):
                checked.append(None)
                continue
            if not isinstance(grad, Tensor):
                raise TypeError(f"{prefix}, the {i}th return value(gradient of the {i}th "
                                f"argument) should be Tensor, but got {type(grad).__name__}, "
                                f"and the value is {grad}.")
            if tuple(grad.shape) != tuple(value.shape):
                raise ValueError(f"{prefix}, the {i}th return value(gradient of the {i}th "
                                 f"argument) should have the same shape as the {i}th argument, "
                                 f"which is:{tuple(value.shape)}, but got: "
                                 f"{tuple(grad.shape)}.")
            checked.append(grad)
        return tuple(checked)
