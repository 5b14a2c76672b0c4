"""The hook-based (deprecated) weight normalization of ``torch.nn.utils.weight_norm``:
``weight`` is replaced by the Parameters ``weight_g`` (magnitude) and ``weight_v``
(direction), and a forward pre-hook recomputes ``weight = g * v / ||v||`` before every call.
:func:`unigrad.nn.utils.parametrizations.weight_norm` is the current form.
"""

from __future__ import annotations

import warnings

from ...tensor import Tensor
from ..cell import Cell
from ..parameter import Parameter
from .parametrizations import norm_except_dim

__all__ = ["remove_weight_norm", "weight_norm"]


class WeightNorm:
    """The forward pre-hook that recomputes ``<name>`` from ``<name>_g`` and ``<name>_v``."""

    def __init__(self, name: str, dim: int | None):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module: Cell) -> Tensor:
        magnitude = getattr(module, self.name + "_g")
        direction = getattr(module, self.name + "_v")
        return direction * (magnitude / norm_except_dim(direction, self.dim))

    @staticmethod
    def apply(module: Cell, name: str, dim: int | None) -> WeightNorm:
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning,
                      stacklevel=3)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same "
                                   f"parameter {name}")
        hook = WeightNorm(name, dim)
        weight = getattr(module, name)
        magnitude = norm_except_dim(weight, hook.dim).detach()
        del module._params[name]
        module.register_parameter(name + "_g", Parameter(magnitude))
        module.register_parameter(name + "_v", Parameter(weight.detach()))
        setattr(module, name, hook.compute_weight(module))
        module.register_forward_pre_hook(hook)
        return hook

    def remove(self, module: Cell) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._params[self.name + "_g"]
        del module._params[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.detach()))

    def __call__(self, module: Cell, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: Cell, name: str = "weight", dim: int | None = 0) -> Cell:
    """Replace ``module.<name>`` by ``<name>_g`` and ``<name>_v`` (deprecated PyTorch API;
    the norm is over every dimension but ``dim``, or the whole tensor when None).

    Example:
        >>> import warnings
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.weight_norm import weight_norm
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     layer = weight_norm(ug.nn.Linear(3, 2))
        >>> list(layer.state_dict())
        ['bias', 'weight_g', 'weight_v']
        >>> layer.weight_g.shape, layer(ug.ones(4, 3)).shape
        ((2, 1), (4, 2))
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: Cell, name: str = "weight") -> Cell:
    """Undo :func:`weight_norm`: ``<name>`` becomes one Parameter again.

    Example:
        >>> import warnings
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.weight_norm import remove_weight_norm, weight_norm
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     layer = remove_weight_norm(weight_norm(ug.nn.Linear(3, 2)))
        >>> list(layer.state_dict())
        ['bias', 'weight']
    """
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
