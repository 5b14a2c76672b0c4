"""Ready-made parametrizations (``torch.nn.utils.parametrizations``): weight_norm,
spectral_norm and orthogonal, each registered with
:func:`unigrad.nn.utils.parametrize.register_parametrization` under PyTorch's names
(``parametrizations.weight.original0``/``original1``, ``parametrizations.weight.0._u``).
"""

from __future__ import annotations

import numpy as np

from ... import linalg, ops
from ...autograd.grad_mode import no_grad
from ...backend import to_numpy
from ...tensor import Tensor, bump_version
from ..cell import Cell, Module
from ..functional import normalize
from . import parametrize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]

_ORTHOGONAL_MAPS = ("matrix_exp", "cayley", "householder")


def _tensor_named(module: Cell, name: str) -> Tensor:
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    return weight


def norm_except_dim(weight: Tensor, dim: int) -> Tensor:
    """The 2-norm of ``weight`` over every dimension but ``dim`` (kept as size 1); the norm
    of the whole tensor, 0-d, when ``dim == -1`` (PyTorch's ``norm_except_dim``)."""
    if dim == -1:
        return (weight * weight).sum().sqrt()
    keep = dim % weight.ndim
    axes = tuple(axis for axis in range(weight.ndim) if axis != keep)
    return (weight * weight).sum(dim=axes, keepdim=True).sqrt()


class _WeightNorm(Module):
    """``weight = g * v / ||v||`` with the norm taken over every dimension but ``dim``."""

    def __init__(self, dim: int | None = 0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        return weight_v * (weight_g / norm_except_dim(weight_v, self.dim))

    def right_inverse(self, weight: Tensor) -> tuple[Tensor, Tensor]:
        return norm_except_dim(weight, self.dim), weight


def weight_norm(module: Cell, name: str = "weight", dim: int | None = 0) -> Cell:
    """Reparametrize ``module.<name>`` by its magnitude ``original0`` (``g``) and direction
    ``original1`` (``v``): ``weight = g * v / ||v||``, the norm over every dimension but
    ``dim`` (the whole tensor when ``dim`` is None). Old checkpoints with ``weight_g`` and
    ``weight_v`` keys still load.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.parametrizations import weight_norm
        >>> layer = weight_norm(ug.nn.Linear(3, 2))
        >>> [(name, tuple(p.shape)) for name, p in layer.named_parameters()]
        [('bias', (2,)), ('parametrizations.weight.original0', (2, 1)), \
('parametrizations.weight.original1', (2, 3))]
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def rename_old_keys(state_dict, prefix, local_metadata, strict, missing_keys,
                        unexpected_keys, error_msgs) -> None:
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(g_key)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(v_key)

    module._register_load_state_dict_pre_hook(rename_old_keys)
    return module


class _SpectralNorm(Module):
    """``weight / sigma``, ``sigma`` the largest singular value of the weight (as a matrix,
    ``dim`` first) estimated by power iteration on the buffers ``_u`` and ``_v``."""

    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim % ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            matrix = self._reshape_weight_to_matrix(weight)
            rows, columns = matrix.shape
            self.register_buffer("_u", normalize(ops.randn(rows, dtype=weight.dtype),
                                                 dim=0, eps=eps))
            self.register_buffer("_v", normalize(ops.randn(columns, dtype=weight.dtype),
                                                 dim=0, eps=eps))
            self._power_method(matrix, 15)

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            order = (self.dim, *(d for d in range(weight.ndim) if d != self.dim))
            weight = weight.permute(*order)
        return weight.flatten(1)

    def _power_method(self, matrix: Tensor, iterations: int) -> None:
        """Refine ``_u`` and ``_v`` in place (without recording)."""
        with no_grad():
            for _ in range(iterations):
                _write(self._u, normalize(ops.mv(matrix, self._v), dim=0, eps=self.eps))
                _write(self._v, normalize(ops.mv(matrix.mH, self._u), dim=0, eps=self.eps))

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return normalize(weight, dim=0, eps=self.eps)
        matrix = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(matrix, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = ops.vdot(u, ops.mv(matrix, v))
        return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def _write(target: Tensor, value: Tensor) -> None:
    target._data[...] = value._data
    bump_version(target)


def spectral_norm(module: Cell, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Cell:
    """Divide ``module.<name>`` by its spectral norm, estimated with ``n_power_iterations``
    steps of power iteration per training-mode access (buffers
    ``parametrizations.<name>.0._u`` and ``_v``). ``dim`` is the output dimension (1 for
    transposed convolutions, else 0, when None).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.parametrizations import spectral_norm
        >>> _ = ug.manual_seed(0)
        >>> layer = spectral_norm(ug.nn.Linear(4, 3))
        >>> sorted(layer.state_dict())
        ['bias', 'parametrizations.weight.0._u', 'parametrizations.weight.0._v', \
'parametrizations.weight.original']
        >>> round(float(ug.linalg.matrix_norm(layer.weight.detach(), 2)), 3)
        1.0
    """
    weight = _tensor_named(module, name)
    if dim is None:
        transposed = type(module).__name__.startswith("ConvTranspose")
        dim = 1 if transposed else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module


class _Orthogonal(Module):
    """An orthogonal (unitary) matrix from an unconstrained one: ``matrix_exp`` or
    ``cayley`` of the skew part of its lower triangle, or a product of Householder
    reflectors; with the trivialization, relative to the ``base`` buffer."""

    def __init__(self, weight: Tensor, orthogonal_map: str, *, use_trivialization: bool = True):
        super().__init__()
        if weight.is_complex() and orthogonal_map == "householder":
            raise ValueError("The householder parametrization does not support complex "
                             "tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, weight: Tensor) -> Tensor:
        rows, columns = weight.shape[-2:]
        transposed = rows < columns
        if transposed:
            weight = weight.mT
            rows, columns = columns, rows
        if self.orthogonal_map == "householder":
            reflectors = weight.tril(-1)
            tau = 2.0 / (1.0 + (reflectors * reflectors).sum(dim=-2))
            signs = ops.trunc(weight.diagonal(dim1=-2, dim2=-1)).unsqueeze(-2)
            result = linalg.householder_product(reflectors, tau) * signs
        else:
            result = self._skew_map(weight.tril(), rows, columns)
        base = self._buffers.get("base")
        if base is not None:
            result = base @ result
        return result.mT if transposed else result

    def _skew_map(self, lower: Tensor, rows: int, columns: int) -> Tensor:
        if rows != columns:
            zeros = ops.zeros(*lower.shape[:-1], rows - columns, dtype=lower.dtype)
            lower = ops.cat([lower, zeros], dim=-1)
        skew = lower - lower.mH
        if self.orthogonal_map == "matrix_exp":
            result = linalg.matrix_exp(skew)
        else:
            identity = ops.eye(rows, dtype=skew.dtype)
            result = linalg.solve(identity - 0.5 * skew, identity + 0.5 * skew)
        return result[..., :columns]

    def right_inverse(self, matrix: Tensor) -> Tensor:
        if tuple(matrix.shape) != tuple(self.shape):
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {matrix.shape}.")
        with no_grad():
            return self._preimage(matrix)

    def _preimage(self, matrix: Tensor) -> Tensor:
        original = matrix
        rows, columns = matrix.shape[-2:]
        transposed = rows < columns
        if transposed:
            matrix = matrix.mT
            rows, columns = columns, rows
        if "base" not in self._buffers:
            if self.orthogonal_map != "householder":
                raise NotImplementedError("It is not possible to assign to the matrix "
                                          "exponential or the Cayley parametrizations when "
                                          "use_trivialization=False.")
            reflectors = _householder_reflectors(matrix)
            return reflectors.mT if transposed else reflectors
        if rows != columns:
            extra = ops.randn(*matrix.shape[:-1], rows - columns, dtype=matrix.dtype)
            matrix = _make_orthogonal(ops.cat([matrix, extra], dim=-1))
        elif not _is_orthogonal(matrix):
            matrix = _make_orthogonal(matrix)
        else:
            matrix = matrix.clone()
        self.base = matrix
        return -ops.eye(*original.shape[-2:], dtype=original.dtype).expand(*original.shape) \
            .clone()


def _is_orthogonal(matrix: Tensor) -> bool:
    rows, columns = matrix.shape[-2:]
    tolerance = 10.0 * rows * float(np.finfo(to_numpy(matrix._data).dtype).eps)
    gram = (matrix.mH @ matrix).numpy()
    return bool(np.allclose(gram, np.eye(columns), rtol=1e-5, atol=tolerance))


def _make_orthogonal(matrix: Tensor) -> Tensor:
    """The Q of ``matrix = QR`` with the diagonal of R non-negative."""
    q, r = linalg.qr(matrix)
    return q * r.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


def _householder_reflectors(matrix: Tensor) -> Tensor:
    """LAPACK's ``geqrf`` reflectors of ``matrix`` with the diagonal replaced by the signs
    ``forward`` reads back (PyTorch's ``right_inverse`` without trivialization)."""
    array = to_numpy(matrix._data)
    flat = array.reshape(-1, *array.shape[-2:])
    result = np.empty_like(flat)
    for index, item in enumerate(flat):
        packed, tau = np.linalg.qr(item, mode="raw")
        packed = packed.T.copy()
        diagonal = np.sign(np.diagonal(packed)).copy()
        diagonal[tau == 0.0] *= -1
        np.fill_diagonal(packed, diagonal)
        result[index] = packed
    return Tensor(result.reshape(array.shape))


def orthogonal(module: Cell, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Cell:
    """Constrain the matrix (or batch of matrices) ``module.<name>`` to be orthogonal
    (``Q^H Q = I`` for tall, ``Q Q^H = I`` for wide matrices).

    ``orthogonal_map`` is ``"matrix_exp"`` (the default for square or complex matrices),
    ``"cayley"`` or ``"householder"`` (the default otherwise). The current value is kept
    as the starting point (PyTorch's trivialization, buffer ``base``).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils.parametrizations import orthogonal
        >>> layer = orthogonal(ug.nn.Linear(3, 3))
        >>> bool(((layer.weight.T @ layer.weight - ug.eye(3)).abs() < 1e-5).all())
        True
    """
    weight = _tensor_named(module, name)
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of "
                         f"{weight.ndim} dimensions.")
    if orthogonal_map is None:
        square = weight.shape[-2] == weight.shape[-1]
        orthogonal_map = "matrix_exp" if square or weight.is_complex() else "householder"
    if orthogonal_map not in _ORTHOGONAL_MAPS:
        raise ValueError(f'orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    parametrization = _Orthogonal(weight, orthogonal_map,
                                  use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, parametrization, unsafe=True)
    return module
