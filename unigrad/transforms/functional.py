"""Functional transforms: MindSpore's ``grad``/``value_and_grad``, JAX's ``vjp``/``jvp``/jacobians.

Every transform runs the user's function on fresh handles of its inputs and
differentiates with the same engine as the tape (reverse mode) or with dual
tensors (forward mode, each primitive's ``jvp`` rule). Results of a transform
are plain tensors unless an enclosing transform is differentiating them, so
transforms compose to any order: ``grad(grad(f))``, ``jvp(grad(f))``,
``jacfwd(jacrev(f))``.

Example:
    >>> import unigrad as ug
    >>> f = lambda x: (x ** 3).sum()
    >>> ug.grad(f)(ug.tensor([1.0, 2.0]))
    tensor([ 3., 12.])
    >>> ug.grad(ug.grad(lambda x: x ** 3))(ug.tensor(2.0))
    tensor(12.)
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable

import numpy as np

from .. import _state
from ..autograd import forward_ad
from ..backend import namespace_of
from ..tensor import Tensor, _make_tensor
from ._core import (
    detached,
    lift,
    one_hot,
    outer_is_recording,
    pullback,
    transform_scope,
    zeros_of,
)
from .positions import (
    assemble,
    check_bool,
    check_in_range,
    normalize_grad_position,
    normalize_weights,
)
from .tree import tree_flatten, tree_map, tree_unflatten
from .vectorize import vmap

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "linearize", "jacrev", "jacfwd", "jacobian",
           "hessian", "hvp"]

_local = _state.local
_HAS_AUX_ERROR = "When has_aux is True, origin fn requires more than one outputs."


class _LiftedArgument:
    """One differentiated positional argument: its pytree structure and lifted leaves."""

    __slots__ = ("index", "treedef", "leaves", "handles", "dtypes")

    def __init__(self, index: int, value):
        self.index = index
        self.leaves, self.treedef = tree_flatten(value)
        self.handles = [lift(leaf) if isinstance(leaf, Tensor) else leaf for leaf in self.leaves]
        self.dtypes = [leaf._data.dtype if isinstance(leaf, Tensor) else None
                       for leaf in self.leaves]

    def rebuilt(self):
        return tree_unflatten(self.treedef, self.handles)

    def targets(self) -> list:
        return [h for h in self.handles if isinstance(h, Tensor)]

    def gradient(self, grads: dict):
        """The gradient with this argument's structure (None for non-tensor leaves)."""
        out = []
        for handle, dtype in zip(self.handles, self.dtypes):
            if not isinstance(handle, Tensor):
                out.append(None)
                continue
            g = grads[id(handle)]
            if g._data.dtype != dtype:
                from ..ops.elementwise import cast
                g = cast(g, dtype)
            out.append(g)
        return tree_unflatten(self.treedef, out)


def _is_constant(value) -> bool:
    """A positional argument with no tensor in it (Python scalars are constants)."""
    return not any(isinstance(leaf, Tensor) for leaf in tree_flatten(value)[0])


class _Result:
    __slots__ = ("value", "position_grads", "weight_grads", "aux")


def differentiate(fn: Callable, args: tuple, kwargs: dict, indices: tuple, weights: tuple,
                  has_aux: bool, sens) -> _Result:
    """Run ``fn(*args, **kwargs)`` and pull back through it: the engine of ``grad``,
    ``value_and_grad`` and ``GradOperation``.

    ``indices`` are the positional arguments to differentiate (those holding
    no tensor are constants and skipped), ``weights`` the tensors (Parameters)
    to differentiate in place; ``sens`` is the output sensitivity (None: ones).
    """
    create_graph = outer_is_recording()
    result = _Result()
    with transform_scope():
        lifted = []
        call_args = list(args)
        for index in indices:
            if _is_constant(args[index]):
                continue
            argument = _LiftedArgument(index, args[index])
            create_graph = create_graph or any(
                isinstance(leaf, Tensor) and leaf._requires_grad for leaf in argument.leaves)
            lifted.append(argument)
            call_args[index] = argument.rebuilt()
        outputs = fn(*call_args, **kwargs)
        if has_aux:
            if not isinstance(outputs, (tuple, list)) or len(outputs) < 2:
                raise ValueError(_HAS_AUX_ERROR)
            differentiated = outputs[0]
            aux = tuple(tree_map(detached, item) for item in outputs[1:])
            value = (outputs[0],) + aux
        else:
            differentiated = outputs
            aux = None
            value = outputs
        out_leaves, out_def = tree_flatten(differentiated)
        _check_outputs(out_leaves, "grad")
        cotangents = _cotangents(sens, out_leaves, out_def)
        targets = [t for argument in lifted for t in argument.targets()]
        grads = pullback(out_leaves, cotangents, targets + list(weights),
                         create_graph=create_graph, retain_graph=create_graph)
    by_handle = {id(t): g for t, g in zip(targets, grads)}
    result.position_grads = [(argument.index, argument.gradient(by_handle)) for argument in lifted]
    result.weight_grads = grads[len(targets):]
    result.aux = aux
    result.value = value if create_graph else tree_map(detached, value)
    return result


def _check_outputs(out_leaves: list, name: str) -> None:
    """``fn``'s outputs must be Tensors or numbers (a string has no gradient, not a zero one)."""
    for index, leaf in enumerate(out_leaves):
        if leaf is None or isinstance(leaf, (Tensor, numbers.Number, np.ndarray, np.generic)):
            continue
        raise TypeError(f"{name}: fn must return Tensors or numbers (possibly in tuples, lists "
                        f"or dicts), but its output {index} is of type {type(leaf).__name__}: "
                        f"{leaf!r:.60}")


def _cotangents(sens, out_leaves: list, out_def) -> list:
    """One cotangent per output leaf: ones (sens None) or the matching leaf of ``sens``."""
    if sens is None:
        return [None] * len(out_leaves)
    sens_leaves, sens_def = tree_flatten(sens)
    if len(sens_leaves) != len(out_leaves):
        raise ValueError(f"sens must have one entry per output of fn: fn returned "
                         f"{len(out_leaves)} output(s) but sens has {len(sens_leaves)}")
    cotangents = []
    for i, (leaf, out) in enumerate(zip(sens_leaves, out_leaves)):
        if not isinstance(leaf, Tensor):
            if isinstance(out, Tensor) and isinstance(leaf, (int, float)):
                from ..ops.creation import full_like
                leaf = full_like(out, leaf)
            elif isinstance(out, Tensor):
                raise TypeError(f"sens entry {i} must be a Tensor, got {type(leaf).__name__}")
        cotangents.append(leaf)
    return cotangents


def split_sens(args: tuple, kwargs: dict) -> tuple:
    if "sens" in kwargs:
        kwargs = dict(kwargs)
        return args, kwargs, kwargs.pop("sens")
    if not args:
        raise TypeError("sens_param=True: pass the sensitivity as the last positional argument "
                        "or as sens=")
    return args[:-1], kwargs, args[-1]


def _validated_config(grad_position, weights, has_aux, return_ids, sens_param):
    for name, flag in (("has_aux", has_aux), ("return_ids", return_ids),
                       ("sens_param", sens_param)):
        check_bool("_Grad", name, flag)
    if grad_position is None and weights is None:
        raise ValueError("`grad_position` and `weight` can not be None at the same time.")
    return normalize_grad_position(grad_position), normalize_weights(weights)


def _transformed(fn, kind: str, grad_position, weights, has_aux, return_ids, sens_param):
    if not callable(fn):
        raise TypeError(f"{kind}: fn must be a callable (a function or a Cell), got "
                        f"{type(fn).__name__}")
    positions, weight_spec = _validated_config(grad_position, weights, has_aux, return_ids,
                                               sens_param)

    def run(*args, **kwargs):
        sens = None
        if sens_param:
            args, kwargs, sens = split_sens(args, kwargs)
        if positions is not None:
            check_in_range(positions, len(args))
        result = differentiate(fn, args, kwargs, positions.indices if positions else (),
                               weight_spec.tensors if weight_spec else (), has_aux, sens)
        grads = assemble(positions, result.position_grads, weight_spec, result.weight_grads,
                         return_ids)
        if kind == "value_and_grad":
            return result.value, grads
        if has_aux:
            return grads, result.aux
        return grads

    functools.update_wrapper(run, fn, updated=())
    return run


def grad(fn: Callable, grad_position=0, weights=None, has_aux: bool = False,
         return_ids: bool = False, sens_param: bool = False) -> Callable:
    """The gradient function of ``fn`` (MindSpore's ``mindspore.grad``).

    ``grad_position`` picks inputs (an int or 1-tuple gives one bare gradient,
    a longer tuple a tuple); ``weights`` picks Parameters (one Parameter gives
    a bare gradient, a list or ParameterTuple a tuple); with both the result is
    ``(input_grads, weight_grads)``. Several outputs are summed (ones as the
    sensitivity of each) unless ``has_aux``, which differentiates output 0 and
    returns ``(grads, (aux, ...))`` with no gradient through the aux values.
    ``return_ids`` pairs each gradient with its position or Parameter name;
    ``sens_param`` takes the output sensitivity as the last argument (or
    ``sens=``). Python-scalar inputs are constants and get no gradient.

    Example:
        >>> import unigrad as ug
        >>> net = lambda x, y: x ** 2 + y
        >>> x, y = ug.tensor(1.0), ug.tensor(2.0)
        >>> ug.grad(net, grad_position=0)(x, y)
        tensor(2.)
        >>> ug.grad(net, grad_position=(0, 1))(x, y)
        (tensor(2.), tensor(1.))
    """
    return _transformed(fn, "grad", grad_position, weights, has_aux, return_ids, sens_param)


def value_and_grad(fn: Callable, grad_position=0, weights=None, has_aux: bool = False,
                   return_ids: bool = False, sens_param: bool = False) -> Callable:
    """Like :func:`grad`, returning ``(value, gradients)``; ``value`` is everything ``fn``
    returned (the full output tuple when ``has_aux``).

    Example:
        >>> import unigrad as ug
        >>> f = ug.value_and_grad(lambda x: (x * x).sum())
        >>> f(ug.tensor([1.0, 2.0]))
        (tensor(5.), tensor([2., 4.]))
    """
    return _transformed(fn, "value_and_grad", grad_position, weights, has_aux, return_ids,
                        sens_param)


# ----------------------------------------------------------------------------- reverse mode

def _check_has_aux(has_aux) -> None:
    if not isinstance(has_aux, bool):
        raise TypeError("The 'has_aux' must be bool type.")


def _split_aux(outputs, has_aux: bool):
    if not has_aux:
        return outputs, None
    if not isinstance(outputs, (tuple, list)) or len(outputs) < 2:
        raise ValueError("When 'has_aux' is True, origin 'fn' requires more than one outputs.")
    aux = outputs[1] if len(outputs) == 2 else tuple(outputs[1:])
    return outputs[0], tree_map(detached, aux)


def vjp(fn: Callable, *primals, has_aux: bool = False):
    """``(out, vjp_fn)``: ``vjp_fn(cotangent)`` returns one gradient per primal (a tuple).

    ``cotangent`` has the structure of ``out``. ``vjp_fn`` may be called any
    number of times. With ``has_aux`` ``fn`` returns ``(out, aux)`` and the
    result is ``(out, vjp_fn, aux)``.

    Example:
        >>> import unigrad as ug
        >>> out, vjp_fn = ug.vjp(lambda x, y: x * y, ug.tensor([1.0, 2.0]), ug.tensor(3.0))
        >>> vjp_fn(ug.tensor([1.0, 10.0]))
        (tensor([ 3., 30.]), tensor(21.))
    """
    _check_has_aux(has_aux)
    tracked_outside = outer_is_recording()
    with transform_scope():
        arguments = [_LiftedArgument(i, p) for i, p in enumerate(primals)]
        tracked_outside = tracked_outside or any(
            isinstance(leaf, Tensor) and leaf._requires_grad
            for argument in arguments for leaf in argument.leaves)
        outputs = fn(*(argument.rebuilt() for argument in arguments))
    out, aux = _split_aux(outputs, has_aux)
    out_leaves, out_def = tree_flatten(out)
    targets = [t for argument in arguments for t in argument.targets()]

    def vjp_fn(*cotangent):
        cotangent = cotangent[0] if len(cotangent) == 1 else cotangent
        leaves, treedef = tree_flatten(cotangent)
        if treedef != out_def:
            raise ValueError(f"vjp_fn: the cotangent must have the structure of fn's output "
                             f"{out_def}, got {treedef}")
        create_graph = tracked_outside or outer_is_recording() or any(
            isinstance(c, Tensor) and c._requires_grad for c in leaves)
        cotangents = [c if isinstance(o, Tensor) else None for c, o in zip(leaves, out_leaves)]
        with transform_scope():
            grads = pullback(out_leaves, cotangents, targets, create_graph=create_graph,
                             retain_graph=True)
        by_handle = {id(t): g for t, g in zip(targets, grads)}
        return tuple(argument.gradient(by_handle) for argument in arguments)

    value = out if tracked_outside else tree_map(detached, out)
    if has_aux:
        return value, vjp_fn, aux
    return value, vjp_fn


# ----------------------------------------------------------------------------- forward mode

def _as_primal_tuple(value) -> tuple:
    if isinstance(value, Tensor):
        return (value,)
    if isinstance(value, (tuple, list)):
        return tuple(value)
    raise TypeError("The inputs type must be a Tensor, tuple or list of Tensors.")


def jvp(fn: Callable, primals, tangents, has_aux: bool = False):
    """``(out, tangent_out)``: ``fn``'s value and its directional derivative along ``tangents``.

    True forward mode: each primitive's ``jvp`` rule carries the tangent
    along with the value in one pass. ``primals`` and ``tangents`` are tuples
    (or lists) of the same structure; a single Tensor is accepted for one
    input (MindSpore). With ``has_aux``: ``(out, tangent_out, aux)``.

    Example:
        >>> import unigrad as ug
        >>> ug.jvp(ug.sin, (ug.tensor(0.0),), (ug.tensor(2.0),))
        (tensor(0.), tensor(2.))
    """
    _check_has_aux(has_aux)
    primals = _as_primal_tuple(primals)
    tangents = _as_primal_tuple(tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"v has invalid length: should be {len(primals)}, but got "
                         f"{len(tangents)}")
    tracked_outside = outer_is_recording() or any(
        isinstance(leaf, Tensor) and leaf._requires_grad for leaf in tree_flatten(primals)[0])
    with forward_ad.dual_level(), transform_scope():
        level = _local.forward_levels[-1]
        duals = [_dual_tree(p, t, i, level) for i, (p, t) in enumerate(zip(primals, tangents))]
        outputs = fn(*duals)
        out, aux = _split_aux(outputs, has_aux)
        primal_out = tree_map(lambda o: _primal_part(o, level), out)
        tangent_out = tree_map(lambda o: _tangent_part(o, level), out)
        if aux is not None:
            aux = tree_map(lambda o: _primal_part(o, level), aux)
    if not tracked_outside:
        primal_out, tangent_out = tree_map(detached, (primal_out, tangent_out))
    if has_aux:
        return primal_out, tangent_out, aux
    return primal_out, tangent_out


def _dual_tree(primal, tangent, index: int, level):
    p_leaves, p_def = tree_flatten(primal)
    t_leaves, t_def = tree_flatten(tangent)
    if p_def != t_def:
        raise ValueError(f"primal and tangent arguments to jvp must have the same tree "
                         f"structure; argument {index}: {p_def} and {t_def}")
    duals = []
    for p, t in zip(p_leaves, t_leaves):
        if not isinstance(p, Tensor):
            duals.append(p)
            continue
        if not isinstance(t, Tensor):
            raise TypeError(f"tangent for argument {index} must be a Tensor, got "
                            f"{type(t).__name__}")
        if tuple(t.shape) != tuple(p.shape):
            raise ValueError(f"jvp: tangent shape {list(t.shape)} does not match primal shape "
                             f"{list(p.shape)} (argument {index})")
        if p._data.dtype.kind not in "fc":
            duals.append(p)
            continue
        if _precision(t) != _precision(p):  # (a real tangent of a complex primal is fine)
            raise TypeError(f"jvp: the tangent of argument {index} must have its primal's dtype "
                            f"{p.dtype}, got {t.dtype} (cast it with .to({p.dtype}))")
        duals.append(forward_ad.attach_tangent(p, t, level))
    return tree_unflatten(p_def, duals)


def _precision(tensor: Tensor):
    """The real dtype of a floating or complex tensor's values (float32 for complex64)."""
    return np.finfo(tensor._data.dtype).dtype if tensor._data.dtype.kind in "fc" else None


def _primal_part(value, level):
    if not isinstance(value, Tensor):
        return value
    return forward_ad.strip_tangent(value, level)


def _tangent_part(value, level):
    if not isinstance(value, Tensor):
        return value
    tangent = forward_ad.tangent_of(value, level)
    return zeros_of(value) if tangent is None else tangent


def linearize(fn: Callable, *primals):
    """``(out, jvp_fn)``: ``jvp_fn(*tangents)`` evaluates the linearization at ``primals``
    without running ``fn`` again (JAX's ``linearize``).

    The linear map is kept as a graph (the transpose of ``fn``'s backward
    graph, linear in its cotangent); memory scales like reverse mode.

    Example:
        >>> import unigrad as ug
        >>> out, f_jvp = ug.linearize(lambda x: x ** 3, ug.tensor(2.0))
        >>> f_jvp(ug.tensor(1.0)), f_jvp(ug.tensor(0.5))
        (tensor(12.), tensor(6.))
    """
    out, vjp_fn = vjp(fn, *primals)
    out_leaves, out_def = tree_flatten(out)
    with transform_scope():
        dummies = [zeros_of(o, requires_grad=True) if isinstance(o, Tensor) else o
                   for o in out_leaves]
        pulled = vjp_fn(tree_unflatten(out_def, dummies))
    pulled_leaves, _ = tree_flatten(pulled)
    primal_leaves = [leaf for p in primals for leaf in tree_flatten(p)[0]]
    dummy_targets = [d for d in dummies if isinstance(d, Tensor)]

    def jvp_fn(*tangents):
        if len(tangents) != len(primals):
            raise ValueError(f"jvp_fn expects {len(primals)} tangent(s), got {len(tangents)}")
        tangent_leaves = [leaf for t in tangents for leaf in tree_flatten(t)[0]]
        if len(tangent_leaves) != len(primal_leaves):
            raise ValueError("jvp_fn: tangents must have the structure of the primals")
        create_graph = outer_is_recording() or any(
            isinstance(t, Tensor) and t._requires_grad for t in tangent_leaves)
        with transform_scope():
            results = pullback(pulled_leaves, tangent_leaves, dummy_targets,
                               create_graph=create_graph, retain_graph=True)
        iterator = iter(results)
        return tree_unflatten(out_def, [next(iterator) if isinstance(o, Tensor) else o
                                        for o in out_leaves])

    return out, jvp_fn


# ----------------------------------------------------------------------------- jacobians

def _argnums(argnums, grad_position, count: int, name: str) -> tuple[tuple, bool]:
    """``(indices, single)``: the differentiated positions, counted from the front.

    Errors name the spelling the caller used: ``argnums`` gets torch.func's
    RuntimeErrors, MindSpore's ``grad_position`` its ValueErrors.
    """
    spelling = "argnums"
    if grad_position is not None:
        argnums, spelling = grad_position, "grad_position"
    if isinstance(argnums, bool) or not isinstance(argnums, (int, tuple)):
        raise TypeError(f"{name}: {spelling} must be an int or a tuple of ints, got "
                        f"{type(argnums).__name__}")
    single = isinstance(argnums, int)
    indices = (argnums,) if single else argnums
    for index in indices:
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"{name}: {spelling} must be an int or a tuple of ints, got "
                            f"{argnums!r}")
    refused = ValueError if spelling == "grad_position" else RuntimeError
    if not indices:
        raise refused(f"{name}: {spelling} must be non-empty")
    if len(set(indices)) != len(indices):
        raise refused(f"{name}: {spelling} elements must be unique, got {argnums}")
    for index in indices:
        if not -count <= index < count:
            raise refused(_out_of_range(name, spelling, index, count))
    return tuple(i % count for i in indices), single


def _out_of_range(name: str, spelling: str, index: int, count: int) -> str:
    if spelling == "grad_position":  # MindSpore's wording
        return (f"{name}: The element in grad_position must belong to [0, args_num), got "
                f"grad_position={index} with args_num={count}.")
    return f"{name}: Got argnums={index}, but only {count} positional inputs"


def _check_tensor_arguments(args: tuple, indices: tuple, name: str) -> None:
    for index in indices:
        if not isinstance(args[index], Tensor):
            raise TypeError(f"{name}: argument {index} must be a Tensor to take a Jacobian with "
                            f"respect to it, got {type(args[index]).__name__}")


def _jacobian_structure(out, per_output: Callable, single: bool, indices: tuple):
    """``out``'s structure with each output leaf replaced by its jacobian blocks."""
    out_leaves, out_def = tree_flatten(out)
    blocks = []
    for k, o in enumerate(out_leaves):
        columns = per_output(k, o)
        blocks.append(columns[0] if single else tuple(columns))
    return tree_unflatten(out_def, blocks)


def jacrev(fn: Callable, argnums=0, has_aux: bool = False, *, grad_position=None,
           vectorize: bool = True, chunk_size: int | None = None) -> Callable:
    """The Jacobian of ``fn`` by reverse mode: the vjp of every output element at once.

    Each block has shape ``out.shape + input.shape``; an int ``argnums``
    (MindSpore: ``grad_position``) gives one block per output, a tuple a
    tuple of blocks (indexed ``[output][input]`` when the output is a tuple).
    Outputs may be pytrees. The vjp is run once, batched over the rows of the
    identity by :func:`~unigrad.transforms.vectorize.vmap` (``chunk_size`` rows at a
    time); ``vectorize=False`` runs one vjp per output element instead.

    Example:
        >>> import unigrad as ug
        >>> ug.jacrev(lambda x: x ** 2)(ug.tensor([1.0, 3.0]))
        tensor([[2., 0.],
                [0., 6.]])
    """
    _check_has_aux(has_aux)

    def jacobian_fn(*args):
        indices, single = _argnums(argnums, grad_position, len(args), "jacrev")
        _check_tensor_arguments(args, indices, "jacrev")

        def partial(*chosen):
            full = list(args)
            for i, value in zip(indices, chosen):
                full[i] = value
            return fn(*full)

        out, pull, *aux = vjp(partial, *(args[i] for i in indices), has_aux=has_aux)
        out_leaves, out_def = tree_flatten(out)

        def per_output(k, o):
            if vectorize:
                basis = _identity_rows(o)  # (o.numel(),) + o.shape
                cotangents = [basis if j == k else _zeros_of(leaf)
                              for j, leaf in enumerate(out_leaves)]
                axes = [0 if j == k else None for j in range(len(out_leaves))]
                rows = vmap(lambda *c: pull(tree_unflatten(out_def, list(c))),
                            in_axes=tuple(axes), chunk_size=chunk_size)(*cotangents)
                return [_reshaped(rows[n], tuple(o.shape) + tuple(args[i].shape), args[i])
                        for n, i in enumerate(indices)]
            rows = []
            for flat in range(max(o.numel(), 0)):
                cotangents = [one_hot(leaf, flat) if j == k else _zeros_of(leaf)
                              for j, leaf in enumerate(out_leaves)]
                rows.append(pull(tree_unflatten(out_def, cotangents)))
            return [_stack_rows(rows, n, o, args[i]) for n, i in enumerate(indices)]

        jac = _jacobian_structure(out, per_output, single, indices)
        return (jac, aux[0]) if has_aux else jac

    return jacobian_fn


jacobian = jacrev


def jacfwd(fn: Callable, argnums=0, has_aux: bool = False, *, grad_position=None,
           vectorize: bool = True, randomness: str = "error") -> Callable:
    """The Jacobian of ``fn`` by forward mode: the jvp along every input element at once.

    Same result structure as :func:`jacrev`; cheaper when inputs are fewer
    than outputs. The jvp runs once, batched over the rows of the identity by
    :func:`~unigrad.transforms.vectorize.vmap`; ``vectorize=False`` runs one jvp per
    input element instead.

    Example:
        >>> import unigrad as ug
        >>> ug.jacfwd(lambda x: x.sum() * x)(ug.tensor([1.0, 2.0]))
        tensor([[4., 1.],
                [2., 5.]])
    """
    _check_has_aux(has_aux)

    def jacobian_fn(*args):
        indices, single = _argnums(argnums, grad_position, len(args), "jacfwd")
        _check_tensor_arguments(args, indices, "jacfwd")
        columns_per_input = []
        out = aux = None
        for i in indices:
            x = args[i]
            if vectorize and x.numel():
                basis = _identity_rows(x)
                tangents = [basis if j == i else _zeros_of(a) for j, a in enumerate(args)]
                axes = tuple(0 if j == i else None for j in range(len(args)))

                def pushed(*tangent_args):
                    return jvp(fn, args, tangent_args, has_aux=has_aux)

                out_axes = (None, 0, None) if has_aux else (None, 0)
                result = vmap(pushed, in_axes=axes, out_axes=out_axes,
                              randomness=randomness)(*tangents)
                out = result[0]
                if has_aux:
                    aux = result[2]
                columns_per_input.append(("batched", result[1]))
                continue
            columns = []
            for flat in range(x.numel()):
                tangents = tuple(one_hot(a, flat) if j == i else _zeros_of(a)
                                 for j, a in enumerate(args))
                result = jvp(fn, args, tangents, has_aux=has_aux)
                out, tangent_out = result[0], result[1]
                if has_aux:
                    aux = result[2]
                columns.append(tangent_out)
            columns_per_input.append(("looped", columns))
        if out is None:  # every differentiated input is empty: one plain call for the structure
            result = fn(*args)
            out, aux = _split_aux(result, has_aux)

        def per_output(k, o):
            blocks = []
            for (how, columns), i in zip(columns_per_input, indices):
                if how == "batched":
                    stacked = tree_flatten(columns)[0][k]  # (x.size,) + out.shape
                    blocks.append(_columns_last(stacked, o, args[i]))
                else:
                    blocks.append(_stack_columns([tree_flatten(c)[0][k] for c in columns],
                                                 o, args[i]))
            return blocks

        jac = _jacobian_structure(out, per_output, single, indices)
        return (jac, aux) if has_aux else jac

    return jacobian_fn


def _identity_rows(like: Tensor) -> Tensor:
    """``like.numel()`` basis tensors of ``like``'s shape, stacked: the identity, reshaped."""
    data = like._data
    xp = namespace_of(data)
    size = int(data.size)
    return _make_tensor(xp.eye(size, dtype=data.dtype).reshape((size,) + tuple(data.shape)))


def _reshaped(rows, shape: tuple, like: Tensor):
    """Stacked rows (or None for an input the output does not depend on) as ``shape``."""
    from ..ops.shape import reshape
    if rows is None:
        return zeros_of(like, shape)
    return reshape(rows, shape)


def _columns_last(stacked: Tensor, out: Tensor, x: Tensor) -> Tensor:
    """Columns ``d out / d x[flat]`` stacked first, as ``out.shape + x.shape``."""
    from ..ops.shape import moveaxis, reshape
    return reshape(moveaxis(stacked, 0, -1), tuple(out.shape) + tuple(x.shape))


def _zeros_of(like):
    return zeros_of(like) if isinstance(like, Tensor) else like


def _stack_rows(rows: list, n: int, out: Tensor, x: Tensor) -> Tensor:
    """Rows ``d out[flat] / d x`` (one per output element) as ``out.shape + x.shape``."""
    from ..ops.shape import reshape, stack
    shape = tuple(out.shape) + tuple(x.shape)
    if not rows:
        return _make_tensor(namespace_of(x._data).zeros(shape, dtype=x._data.dtype))
    return reshape(stack([row[n] for row in rows]), shape)


def _stack_columns(columns: list, out: Tensor, x: Tensor) -> Tensor:
    """Columns ``d out / d x[flat]`` (one per input element) as ``out.shape + x.shape``."""
    from ..ops.shape import moveaxis, reshape, stack
    shape = tuple(out.shape) + tuple(x.shape)
    if not columns:
        return _make_tensor(namespace_of(out._data).zeros(shape, dtype=out._data.dtype))
    stacked = stack(columns)  # (x.size,) + out.shape
    return reshape(moveaxis(stacked, 0, -1), shape)


def hessian(fn: Callable, argnums=0, *, grad_position=None, vectorize: bool = True) -> Callable:
    """The Hessian of a scalar ``fn``: ``jacfwd(jacrev(fn))`` (forward over reverse), each a
    batched pass (``vectorize=False``: one pass per element).

    Example:
        >>> import unigrad as ug
        >>> ug.hessian(lambda x: (x ** 3).sum())(ug.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    return jacfwd(jacrev(fn, argnums, grad_position=grad_position, vectorize=vectorize),
                  argnums, grad_position=grad_position, vectorize=vectorize)


def hvp(fn: Callable, primals, tangents):
    """Hessian-vector product of a scalar ``fn`` at ``primals`` along ``tangents``
    (forward over reverse: ``jvp(grad(fn), primals, tangents)[1]``, as in JAX's cookbook).

    Returns one product per primal (a tuple), never forming the Hessian.

    Example:
        >>> import unigrad as ug
        >>> ug.hvp(lambda x: (x ** 3).sum(), (ug.tensor([1.0, 2.0]),),
        ...        (ug.tensor([1.0, 1.0]),))
        (tensor([ 6., 12.]),)
    """
    primals = _as_primal_tuple(primals)
    tangents = _as_primal_tuple(tangents)

    def gradient_of_all(*args):
        out, pull = vjp(fn, *args)
        return pull(_ones_of(out))

    return jvp(gradient_of_all, primals, tangents)[1]


def _ones_of(like: Tensor) -> Tensor:
    if not isinstance(like, Tensor):
        raise TypeError(f"hvp: fn must return a scalar Tensor, got {type(like).__name__}")
    data = like._data
    return _make_tensor(namespace_of(data).ones_like(data))
