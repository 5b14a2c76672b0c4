"""``torch.autograd.graph``: saved-tensor hooks, multi-gradient hooks and ``Node``
(unigrad's own, :mod:`unigrad.autograd.graph`).

Example:
    >>> import unigrad.compat.torch as torch
    >>> x = torch.ones(2, requires_grad=True)
    >>> with torch.autograd.graph.save_on_cpu():
    ...     y = (x * x).sum()
    >>> y.backward(); x.grad
    tensor([2., 2.])
"""

from unigrad.autograd.graph import (
    Node,
    disable_saved_tensors_hooks,
    register_multi_grad_hook,
    save_on_cpu,
    saved_tensors_hooks,
)

__all__ = ["Node", "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks",
           "register_multi_grad_hook"]
