"""``torch.nn.utils``: gradient clipping (:mod:`unigrad.nn.utils`'s functions).

Example:
    >>> import unigrad.compat.torch as torch
    >>> import unigrad.compat.torch.nn as nn
    >>> w = torch.tensor([3.0, 4.0], requires_grad=True)
    >>> (w * w).sum().backward()
    >>> nn.utils.clip_grad_norm_([w], max_norm=1.0)
    tensor(10.)
    >>> w.grad
    tensor([0.6000, 0.8000])
"""

from unigrad.nn.utils import (
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)

__all__ = ["clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm"]
