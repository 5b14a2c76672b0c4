"""The hook-based spectral normalization of ``torch.nn.utils.spectral_norm``: ``weight`` is
replaced by the Parameter ``weight_orig`` and the power-iteration buffers ``weight_u`` and
``weight_v``, and a forward pre-hook recomputes ``weight = weight_orig / sigma`` before every
call. :func:`unigrad.nn.utils.parametrizations.spectral_norm` is the current form.
"""

from __future__ import annotations

from ... import linalg, ops
from ...autograd.grad_mode import no_grad
from ...tensor import Tensor
from ..cell import Cell
from ..functional import normalize
from ..parameter import Parameter
from .parametrizations import _write

__all__ = ["remove_spectral_norm", "spectral_norm"]


class SpectralNorm:
    """The forward pre-hook that sets ``<name>`` to ``<name>_orig`` over its spectral norm."""

    _version: int = 1

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12):
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.name = name
        self.dim = dim
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            order = (self.dim, *(d for d in range(weight.ndim) if d != self.dim))
            weight = weight.permute(*order)
        return weight.reshape(weight.shape[0], -1)

    def compute_weight(self, module: Cell, do_power_iteration: bool) -> Tensor:
        weight = getattr(module, self.name + "_orig")
        u, v = getattr(module, self.name + "_u"), getattr(module, self.name + "_v")
        matrix = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    _write(v, normalize(ops.mv(matrix.t(), u), dim=0, eps=self.eps))
                    _write(u, normalize(ops.mv(matrix, v), dim=0, eps=self.eps))
                u, v = u.clone(), v.clone()
        return weight / ops.dot(u, ops.mv(matrix, v))

    def remove(self, module: Cell) -> None:
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        for suffix in ("", "_u", "_v", "_orig"):
            delattr(module, self.name + suffix)
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Cell, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module, module.training))

    def solve_v_and_rescale(self, matrix: Tensor, u: Tensor, target_sigma: Tensor) -> Tensor:
        """The ``v`` an old (version 0) checkpoint implies, scaled so that ``u W v`` is its
        ``sigma``."""
        v = (linalg.pinv(matrix.t() @ matrix) @ matrix.t() @ u.unsqueeze(1)).squeeze(1)
        return v * (target_sigma / ops.dot(u, ops.mv(matrix, v)))

    @staticmethod
    def apply(module: Cell, name: str, n_power_iterations: int, dim: int,
              eps: float) -> SpectralNorm:
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same "
                                   f"parameter {name}")
        hook = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._params.get(name)
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        with no_grad():
            rows, columns = hook.reshape_weight_to_matrix(weight).shape
            u = normalize(ops.randn(rows, dtype=weight.dtype), dim=0, eps=eps)
            v = normalize(ops.randn(columns, dtype=weight.dtype), dim=0, eps=eps)
        delattr(module, name)
        module.register_parameter(name + "_orig", weight)
        setattr(module, name, weight.detach())
        module.register_buffer(name + "_u", u)
        module.register_buffer(name + "_v", v)
        module.register_forward_pre_hook(hook)
        module._register_state_dict_hook(hook.record_version)
        module._register_load_state_dict_pre_hook(hook.convert_old_checkpoint)
        return hook

    def record_version(self, module: Cell, state_dict: dict, prefix: str,
                       local_metadata: dict) -> None:
        versions = local_metadata.setdefault("spectral_norm", {})
        key = self.name + ".version"
        if key in versions:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        versions[key] = self._version

    def convert_old_checkpoint(self, state_dict: dict, prefix: str, local_metadata: dict,
                               strict: bool, missing_keys: list, unexpected_keys: list,
                               error_msgs: list) -> None:
        """A version-0 checkpoint (``weight``, ``weight_orig``, ``weight_u``) gets its
        ``weight_v``, as PyTorch converts it."""
        version = local_metadata.get("spectral_norm", {}).get(self.name + ".version")
        if version is not None and version >= 1:
            return
        key = prefix + self.name
        if version is None and key not in state_dict \
                and all(key + suffix in state_dict for suffix in ("_orig", "_u", "_v")):
            return
        absent = [key + suffix for suffix in ("_orig", "", "_u") if key + suffix not in state_dict]
        if absent:
            if strict:
                missing_keys.extend(absent)
            return
        with no_grad():
            original = _as_tensor(state_dict[key + "_orig"])
            sigma = (original / _as_tensor(state_dict.pop(key))).mean()
            matrix = self.reshape_weight_to_matrix(original)
            state_dict[key + "_v"] = self.solve_v_and_rescale(
                matrix, _as_tensor(state_dict[key + "_u"]), sigma)


def _as_tensor(value) -> Tensor:
    return value if isinstance(value, Tensor) else Tensor(value)


def spectral_norm(module: Cell, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Cell:
    """Rescale ``module.<name>`` by its spectral norm before every call (deprecated PyTorch
    API); ``dim`` is the output dimension (1 for transposed convolutions, else 0, when None).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.spectral_norm import spectral_norm
        >>> layer = spectral_norm(ug.nn.Linear(4, 3))
        >>> list(layer.state_dict())
        ['bias', 'weight_orig', 'weight_u', 'weight_v']
        >>> layer.weight_u.shape
        (3,)
    """
    if dim is None:
        dim = 1 if type(module).__name__.startswith("ConvTranspose") else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: Cell, name: str = "weight") -> Cell:
    """Undo :func:`spectral_norm`: ``<name>`` becomes one Parameter again.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.spectral_norm import remove_spectral_norm, spectral_norm
        >>> list(remove_spectral_norm(spectral_norm(ug.nn.Linear(4, 3))).state_dict())
        ['bias', 'weight']
    """
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    for hooks in (module._state_dict_hooks, module._load_state_dict_pre_hooks):
        for key, hook in list(hooks.items()):
            owner = getattr(getattr(hook, "__wrapped__", hook), "__self__", None)
            if isinstance(owner, SpectralNorm) and owner.name == name:
                del hooks[key]
    return module
