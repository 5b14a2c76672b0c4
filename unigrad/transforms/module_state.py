"""Modules as functions of their parameters: ``functional_call`` and ``stack_module_state``.

``functional_call(module, params_and_buffers, args)`` runs a module with some of
its parameters and buffers replaced by the given tensors (``torch.func``'s
signature), so transforms can differentiate or batch a model with respect to
its weights: per-sample gradients, model ensembling, meta-learning. The module
gets its own tensors back when the call returns or raises.

``stack_module_state(models)`` stacks the parameters and buffers of models of
one architecture along a new first axis; with ``vmap(..., in_axes=(0, 0, None))``
over ``functional_call`` it runs an ensemble in one batched pass.

Example:
    >>> import unigrad as ug
    >>> model = ug.nn.Linear(2, 1)
    >>> weights = {"weight": ug.ones((1, 2)), "bias": ug.zeros(1)}
    >>> ug.func.functional_call(model, weights, (ug.tensor([[1.0, 2.0]]),))
    tensor([[3.]])
"""

from __future__ import annotations

from collections.abc import Mapping

from ..tensor import Tensor

__all__ = ["functional_call", "stack_module_state"]


def _merged(params_and_buffers) -> dict:
    """One dict from a dict or a tuple/list of dicts (a name given twice is an error)."""
    if isinstance(params_and_buffers, Mapping):
        return dict(params_and_buffers)
    if isinstance(params_and_buffers, (tuple, list)) and all(
            isinstance(d, Mapping) for d in params_and_buffers):
        merged: dict = {}
        for mapping in params_and_buffers:
            repeated = sorted(set(merged) & set(mapping))
            if repeated:
                raise ValueError(f"functional_call got multiple values for keys {repeated}, "
                                 f"which are used in multiple dictionaries")
            merged.update(mapping)
        return merged
    raise TypeError(f"functional_call: expected parameter_and_buffer_dicts to be a dict, or "
                    f"a list/tuple of dicts, but got {type(params_and_buffers).__name__}")


def _slot(module, name: str) -> tuple:
    """``(registry, key)`` holding the parameter or buffer ``name`` (dotted) of ``module``."""
    *path, key = name.split(".")
    owner = module
    for part in path:
        child = owner._cells.get(part) if hasattr(owner, "_cells") else None
        if child is None:
            raise AttributeError(f"{type(owner).__name__} has no submodule {part!r} (while "
                                 f"replacing {name!r} in functional_call)")
        owner = child
    for registry in (owner._params, owner._buffers):
        if key in registry:
            return registry, key
    raise AttributeError(f"{type(owner).__name__} has no parameter or buffer {key!r} (while "
                         f"replacing {name!r} in functional_call)")


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False):
    """``module(*args, **kwargs)`` with the named parameters and buffers replaced.

    ``parameter_and_buffer_dicts`` maps dotted names (as ``named_parameters()``
    gives them) to Tensors, or is a tuple of such dicts. ``args`` is a tuple (a
    single non-tuple value is one argument). ``strict=True`` requires every
    parameter and buffer to be given. With ``tie_weights`` a tensor shared by
    several names is replaced everywhere when one of its names is given.

    Example:
        >>> import unigrad as ug
        >>> model = ug.nn.Linear(3, 1)
        >>> params = {k: v.detach() for k, v in model.named_parameters()}
        >>> x = ug.ones((4, 3))
        >>> bool((ug.func.functional_call(model, params, (x,)) == model(x)).all())
        True
    """
    replacements = _merged(parameter_and_buffer_dicts)
    for name, value in replacements.items():
        if not isinstance(value, Tensor):
            raise TypeError(f"functional_call: the value given for {name!r} must be a Tensor, "
                            f"got {type(value).__name__}")
    if strict:
        expected = {name for name, _ in module.named_parameters(remove_duplicate=False)} | {
            name for name, _ in module.named_buffers(remove_duplicate=False)}
        missing = sorted(expected - set(replacements))
        unexpected = sorted(set(replacements) - expected)
        if missing or unexpected:
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}: "
                               f"missing key(s): {missing}, unexpected key(s): {unexpected}")
    if tie_weights:
        replacements = _with_tied_names(module, replacements)
    slots = [(_slot(module, name), value) for name, value in replacements.items()]
    originals = [(registry, key, registry[key]) for (registry, key), _ in slots]
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    try:
        for (registry, key), value in slots:
            registry[key] = value
        return module(*args, **(kwargs or {}))
    finally:
        for registry, key, original in originals:
            registry[key] = original


def _with_tied_names(module, replacements: dict) -> dict:
    """Also replace the other names of a tensor shared under several names."""
    names_of: dict = {}
    for name, tensor in list(module.named_parameters(remove_duplicate=False)) + list(
            module.named_buffers(remove_duplicate=False)):
        names_of.setdefault(id(tensor), []).append(name)
    result = dict(replacements)
    for names in names_of.values():
        given = [name for name in names if name in replacements]
        if len(given) > 1 and any(replacements[n] is not replacements[given[0]] for n in given):
            raise ValueError(f"functional_call got multiple values for tied weights {given}")
        if given:
            for name in names:
                result.setdefault(name, replacements[given[0]])
    return result


def stack_module_state(models) -> tuple[dict, dict]:
    """``(params, buffers)``: each model's tensors stacked along a new first axis.

    The models must share one class and one training mode. Stacked parameters
    are new leaves that require grad when the originals do (the originals are
    not linked to them).

    Example:
        >>> import unigrad as ug
        >>> models = [ug.nn.Linear(3, 2) for _ in range(5)]
        >>> params, buffers = ug.func.stack_module_state(models)
        >>> tuple(params["weight"].shape), params["weight"].requires_grad
        ((5, 2, 3), True)
    """
    from ..ops.shape import stack
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or not any(m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same "
                           "training/eval mode.")
    first = type(models[0])
    if not all(type(m) is first for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked(tensors: list, name: str) -> Tensor:
        requiring = [t.requires_grad for t in tensors]
        if any(requiring) and not all(requiring):
            raise RuntimeError(f"Expected {name} from each model to have the same "
                               f".requires_grad")
        result = stack([t.detach() for t in tensors])
        return result.requires_grad_() if all(requiring) else result

    params = {name: stacked([dict(m.named_parameters())[name] for m in models], name)
              for name, _ in models[0].named_parameters()}
    buffers = {name: stacked([dict(m.named_buffers())[name] for m in models], name)
               for name, _ in models[0].named_buffers()}
    return params, buffers
