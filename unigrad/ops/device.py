"""Copies between storages and devices (identity primitives with a gradient)."""

from __future__ import annotations

from .. import backend
from ..interpreters.batching import over_leading_dims
from ._primitive import Primitive, bind
from ._shape_rules import dtype_of, shape_of

clone_p = Primitive("clone", lambda x: x.copy(), lambda x: (shape_of(x), dtype_of(x)),
                    kind="linear", vjp=lambda g, out, needs, x: (g,), saves="nothing",
                    batch=over_leading_dims())


def clone(input):
    """A copy with its own storage; the gradient flows through unchanged.

    Example:
        >>> import unigrad as ug
        >>> x = ug.tensor([1.0], requires_grad=True)
        >>> x.clone().grad_fn.name()
        'CloneBackward0'
    """
    return bind(clone_p, input)


def _move(x, device, source):
    return backend.to_device(x, backend.Device(device))


to_device_p = Primitive("to_device", _move, lambda x, device, source: (shape_of(x), dtype_of(x)),
                        kind="linear", backward_name="ToCopyBackward0",
                        vjp=lambda g, out, needs, x, device, source: (
                            bind(to_device_p, g, device=source, source=device),),
                        saves="nothing", batch=over_leading_dims())


def to_device(input, device):
    """``input`` on ``device`` (``'cpu'`` or ``'cuda[:n]'``); differentiable.

    Example:
        >>> import unigrad as ug
        >>> ug.to_device(ug.ones(2), "cpu").device
        device(type='cpu')
    """
    return bind(to_device_p, input, device=str(backend.Device(device)), source=str(input.device))
