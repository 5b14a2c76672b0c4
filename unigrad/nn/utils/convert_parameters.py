"""Flattening parameters into one vector and back: parameters_to_vector,
vector_to_parameters (``torch.nn.utils.convert_parameters``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ...ops import cat
from ...tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_same_device(tensors: list[Tensor]) -> None:
    devices = {str(tensor.device) for tensor in tensors}
    if len(devices) > 1:
        raise TypeError(f"Found two parameters on different devices, this is currently not "
                        f"supported (devices: {sorted(devices)})")


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """The parameters flattened and concatenated into one 1-D tensor (differentiable).

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import parameters_to_vector
        >>> layer = ug.nn.Linear(2, 1)
        >>> _ = ug.nn.init.ones_(layer.weight); _ = ug.nn.init.zeros_(layer.bias)
        >>> parameters_to_vector(layer.parameters())
        tensor([1., 1., 0.], grad_fn=<CatBackward0>)
    """
    tensors = list(parameters)
    _check_same_device(tensors)
    return cat([tensor.reshape(-1) for tensor in tensors])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Set each parameter's data to its slice of the 1-D ``vec`` (in order, as
    ``parameters_to_vector`` laid them out); the parameters then view ``vec``'s memory.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.nn.utils import vector_to_parameters
        >>> layer = ug.nn.Linear(2, 1)
        >>> vector_to_parameters(ug.tensor([1.0, 2.0, 3.0]), layer.parameters())
        >>> layer.weight.tolist(), layer.bias.tolist()
        ([[1.0, 2.0]], [3.0])
    """
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    tensors = list(parameters)
    _check_same_device(tensors)
    total = sum(tensor.numel() for tensor in tensors)
    if vec.ndim != 1 or vec.numel() != total:
        raise RuntimeError(f"vector_to_parameters: 'vec' must be 1-D with {total} elements "
                           f"(the parameters' total size), got shape {tuple(vec.shape)}")
    pointer = 0
    for tensor in tensors:
        count = tensor.numel()
        tensor.data = vec[pointer:pointer + count].view(tensor.shape)
        pointer += count
