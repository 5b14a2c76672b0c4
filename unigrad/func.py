"""``unigrad.func``: the function transforms in one namespace, as ``torch.func`` groups them.

Example:
    >>> import unigrad as ug
    >>> model = ug.nn.Linear(3, 1)
    >>> params = {k: v.detach() for k, v in model.named_parameters()}
    >>> def loss(params, x, y):
    ...     prediction = ug.func.functional_call(model, params, (x[None],))
    ...     return ((prediction - y) ** 2).mean()
    >>> xs, ys = ug.ones((8, 3)), ug.zeros((8, 1))
    >>> per_sample = ug.func.vmap(ug.func.grad(loss), in_axes=(None, 0, 0))(params, xs, ys)
    >>> tuple(per_sample["weight"].shape)
    (8, 1, 3)
"""

from __future__ import annotations

from .transforms import grad, hessian, jacfwd, jacrev, jvp, linearize, value_and_grad, vjp, vmap
from .transforms.module_state import functional_call, stack_module_state

__all__ = ["vmap", "grad", "value_and_grad", "vjp", "jvp", "linearize", "jacrev", "jacfwd",
           "hessian", "functional_call", "stack_module_state"]
