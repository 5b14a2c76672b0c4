"""``torch.autograd.forward_ad``: forward-mode AD with dual tensors (unigrad's own).

Example:
    >>> import unigrad.compat.torch as torch
    >>> import unigrad.compat.torch.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     y = torch.exp(fwAD.make_dual(torch.tensor([0.0, 1.0]), torch.ones(2)))
    ...     fwAD.unpack_dual(y).tangent
    tensor([1.0000, 2.7183])
"""

from unigrad.autograd.forward_ad import UnpackedDualTensor, dual_level, make_dual, unpack_dual

__all__ = ["UnpackedDualTensor", "dual_level", "make_dual", "unpack_dual"]
