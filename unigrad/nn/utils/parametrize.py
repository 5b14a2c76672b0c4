"""Parametrizations of module tensors: register_parametrization, remove_parametrizations,
is_parametrized, cached (``torch.nn.utils.parametrize``).

Registering a parametrization ``f`` on ``module.weight`` moves the tensor to
``module.parametrizations.weight.original`` (``original0``, ``original1``, ... when
``f.right_inverse`` returns several tensors) and turns ``module.weight`` into a property that
computes ``f(original)`` on every access (once per :func:`cached` block). The module's class
becomes a subclass named ``Parametrized<Class>``, as in PyTorch, and ``state_dict`` keys are
PyTorch's (``parametrizations.weight.original``).
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator, Sequence

from ...autograd.grad_mode import no_grad
from ...tensor import Tensor, bump_version
from ..cell import Cell
from ..containers import ModuleDict, ModuleList
from ..parameter import Parameter

__all__ = ["ParametrizationList", "cached", "is_parametrized", "register_parametrization",
           "remove_parametrizations", "type_before_parametrizations"]

_cache_depth = 0
_cache: dict = {}


@contextlib.contextmanager
def cached() -> Iterator[None]:
    """Inside this block each parametrized tensor is computed once, on its first access.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import parametrize
        >>> class Double(ug.nn.Module):
        ...     def forward(self, x):
        ...         return 2 * x
        >>> layer = ug.nn.Linear(2, 2)
        >>> _ = parametrize.register_parametrization(layer, "weight", Double())
        >>> with parametrize.cached():
        ...     layer.weight is layer.weight
        True
        >>> layer.weight is layer.weight
        False
    """
    global _cache_depth
    _cache_depth += 1
    try:
        yield
    finally:
        _cache_depth -= 1
        if not _cache_depth:
            _cache.clear()


def _register_parameter_or_buffer(module: Cell, name: str, value: Tensor) -> None:
    if isinstance(value, Parameter):
        module.register_parameter(name, value)
    else:
        module.register_buffer(name, value)


def _set_data(destination: Tensor, source: Tensor) -> None:
    """``destination.set_(source)``: the same tensor object now holds ``source``'s values."""
    destination._data = source._data
    bump_version(destination)


def _check_tensor(value, what: str) -> None:
    if not isinstance(value, Tensor):
        raise ValueError(f"{what} must return a tensor. Got {type(value).__name__}.")


def _check_like(value: Tensor, reference: Tensor, message: str, names: tuple[str, str]) -> None:
    """A ValueError unless ``value`` has ``reference``'s dtype and shape."""
    for attribute in ("dtype", "shape"):
        got, expected = getattr(value, attribute), getattr(reference, attribute)
        if got != expected:
            raise ValueError(f"{message.format(attribute)}\n{names[0]}.{attribute}: {expected}\n"
                             f"{names[1]}.{attribute}: {got}")


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor and its original value(s) (``original`` or
    ``original0``, ``original1``, ...); calling it computes the parametrized tensor."""

    def __init__(self, modules: Sequence[Cell], original: Tensor, unsafe: bool = False):
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        with no_grad():
            new = original
            for module in reversed(list(self)):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
        if not isinstance(new, (Tensor, Sequence)):
            raise ValueError(f"'right_inverse' must return a Tensor or a Sequence of tensors "
                             f"(list, tuple...). Got {type(new).__name__}")
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            self._register_single(original, new)
        else:
            self._register_several(original, new)
        if not unsafe:
            result = self()
            _check_tensor(result, "A parametrization")
            _check_like(result, original, "Registering a parametrization may not change the {} "
                        "of the tensor, unless `unsafe` flag is enabled.",
                        ("unparametrized", "parametrized"))

    def _register_single(self, original: Tensor, new: Tensor) -> None:
        if original.dtype != new.dtype:
            raise ValueError(f"When `right_inverse` outputs one tensor, it may not change the "
                             f"dtype.\noriginal.dtype: {original.dtype}\n"
                             f"right_inverse(original).dtype: {new.dtype}")
        with no_grad():
            _set_data(original, new)
        _register_parameter_or_buffer(self, "original", original)

    def _register_several(self, original: Tensor, tensors: Sequence) -> None:
        for index, tensor in enumerate(tensors):
            if not isinstance(tensor, Tensor):
                raise ValueError(f"'right_inverse' must return a Tensor or a Sequence of tensors "
                                 f"(list, tuple...). Got element {index} of the sequence with "
                                 f"type {type(tensor).__name__}.")
            if isinstance(original, Parameter):
                tensor = Parameter(tensor, original.requires_grad)
            else:
                tensor = tensor.detach().requires_grad_(original.requires_grad)
            _register_parameter_or_buffer(self, f"original{index}", tensor)

    def right_inverse(self, value: Tensor) -> None:
        """Set the original tensor(s) so that the parametrized tensor becomes ``value``
        (what assigning ``module.weight = value`` does)."""
        with no_grad():
            for module in reversed(list(self)):
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(f"parametrization {type(module).__name__} does not "
                                       f"implement right_inverse.")
                value = module.right_inverse(value)
            if self.is_tensor:
                self._set_original(self.original, value, "original")
                return
            if not isinstance(value, Sequence) or len(value) != self.ntensors:
                raise ValueError(f"'right_inverse' must return a sequence of tensors of length "
                                 f"{self.ntensors}. Got {type(value).__name__}")
            for index, tensor in enumerate(value):
                name = f"original{index}"
                self._set_original(getattr(self, name), tensor, name)

    @staticmethod
    def _set_original(original: Tensor, value, name: str) -> None:
        if not isinstance(value, Tensor):
            raise ValueError(f"`right_inverse` should return a tensor. Got "
                             f"{type(value).__name__}")
        _check_like(value, original, "The tensor returned by `right_inverse` must have the "
                    "same {} as the original tensor", (name, "right_inverse(value)"))
        _set_data(original, value)

    def forward(self) -> Tensor:
        modules = list(self)
        if self.is_tensor:
            result = modules[0](self.original)
        else:
            result = modules[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in modules[1:]:
            result = module(result)
        return result


def _default_deepcopy(self, memo: dict):
    replica = memo.get(id(self))
    if replica is not None:
        return replica
    replica = self.__new__(type(self))
    memo[id(self)] = replica
    replica.__dict__.update(copy.deepcopy(self.__dict__, memo))
    return replica


def _refuse_pickling(self):
    raise RuntimeError("Serialization of parametrized modules is only supported through "
                       "state_dict(). See: https://pytorch.org/tutorials/beginner/saving_loading"
                       "_models.html#saving-loading-a-general-checkpoint-for-inference-and-"
                       "or-resuming-training")


def _inject_new_class(module: Cell) -> None:
    cls = type(module)
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,),
                            {"__getstate__": _refuse_pickling,
                             "__deepcopy__": _default_deepcopy})


def _inject_property(module: Cell, tensor_name: str) -> None:
    def get_parametrized(self) -> Tensor:
        parametrization = self.parametrizations[tensor_name]
        if not _cache_depth:
            return parametrization()
        key = (id(self), tensor_name)
        if key not in _cache:
            _cache[key] = parametrization()
        return _cache[key]

    def set_original(self, value: Tensor) -> None:
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(type(module), tensor_name, property(get_parametrized, set_original))


def register_parametrization(module: Cell, tensor_name: str, parametrization: Cell, *,
                             unsafe: bool = False) -> Cell:
    """Make ``module.<tensor_name>`` the value of ``parametrization(original)``.

    ``parametrization`` is a Module whose ``forward`` maps the original tensor(s) to the
    parametrized one; an optional ``right_inverse`` maps a value back (used at registration
    and when ``module.<tensor_name>`` is assigned). Registering again on the same tensor
    chains the parametrizations. Unless ``unsafe``, the dtype and shape must be kept.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import parametrize
        >>> class Symmetric(ug.nn.Module):
        ...     def forward(self, x):
        ...         return x.triu() + x.triu(1).transpose(0, 1)
        >>> layer = ug.nn.Linear(3, 3)
        >>> _ = parametrize.register_parametrization(layer, "weight", Symmetric())
        >>> bool((layer.weight == layer.weight.T).all()), type(layer).__name__
        (True, 'ParametrizedLinear')
        >>> list(layer.state_dict())
        ['bias', 'parametrizations.weight.original']
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            _check_added_parametrization(module, tensor_name, parametrization)
        parametrizations = module.parametrizations[tensor_name]
        parametrizations.append(parametrization)
        parametrizations.unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._params:
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a "
                         f"parametrized element with name '{tensor_name}'")
    return module


def _check_added_parametrization(module: Cell, tensor_name: str, parametrization: Cell) -> None:
    current = getattr(module, tensor_name)
    names = (f"module.{tensor_name}", f"parametrization(module.{tensor_name})")
    result = parametrization(current)
    _check_tensor(result, "A parametrization")
    _check_like(result, current, "Registering a parametrization may not change the {} of the "
                "tensor, unless the `unsafe` flag is enabled.", names)
    if not hasattr(parametrization, "right_inverse"):
        return
    try:
        inverse = parametrization.right_inverse(result)
    except NotImplementedError:
        return
    if not isinstance(inverse, Tensor):
        raise ValueError(f"parametrization.right_inverse must return a tensor. Got: "
                         f"{type(inverse).__name__}")
    _check_like(inverse, current, f"The tensor returned by parametrization.right_inverse must "
                f"have the same {{}} as module.{tensor_name}, unless the `unsafe` flag is "
                f"enabled.", (f"module.{tensor_name}", "returned"))


def is_parametrized(module: Cell, tensor_name: str | None = None) -> bool:
    """Whether ``module`` has a parametrization (on ``tensor_name``, when given).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import parametrize
        >>> parametrize.is_parametrized(ug.nn.Linear(2, 2))
        False
    """
    parametrizations = getattr(module, "parametrizations", None)
    if not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module: Cell, tensor_name: str,
                            leave_parametrized: bool = True) -> Cell:
    """Undo :func:`register_parametrization` on ``tensor_name``: it becomes a plain parameter
    (or buffer) again, holding the parametrized value (``leave_parametrized=True``, the same
    tensor object as the original) or the original one.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import parametrize
        >>> class Double(ug.nn.Module):
        ...     def forward(self, x):
        ...         return 2 * x
        >>> layer = ug.nn.Linear(1, 1, bias=False)
        >>> _ = ug.nn.init.ones_(layer.weight)
        >>> _ = parametrize.register_parametrization(layer, "weight", Double())
        >>> _ = parametrize.remove_parametrizations(layer, "weight")
        >>> layer.weight, type(layer).__name__
        (Parameter containing:
        tensor([[2.]], requires_grad=True), 'Linear')
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with no_grad():
                _set_data(original, getattr(module, tensor_name))
    elif leave_parametrized:
        value = getattr(module, tensor_name)
        original = Parameter(value.detach()) if value.requires_grad else value.detach()
    else:
        raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor that "
                         "is parametrized in terms of a sequence of tensors.")
    delattr(type(module), tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = type(module).__bases__[0]
    return module


def type_before_parametrizations(module: Cell) -> type:
    """The class of ``module`` before any parametrization was registered on it.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import parametrize
        >>> parametrize.type_before_parametrizations(ug.nn.Linear(1, 1)).__name__
        'Linear'
    """
    cls = type(module)
    return cls.__bases__[0] if is_parametrized(module) else cls
