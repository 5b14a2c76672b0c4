"""``torch.optim``: ``SGD``, ``Adam``, ``AdamW`` and ``lr_scheduler`` (unigrad's optimizers,
which take PyTorch's arguments).

Example:
    >>> import unigrad.compat.torch as torch
    >>> w = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> opt = torch.optim.SGD([w], lr=0.1)
    >>> (w * w).sum().backward()
    >>> opt.step()
    >>> w
    tensor([0.8000, 1.6000], requires_grad=True)
"""

from unigrad.optim import SGD, Adam, AdamW, Optimizer

from . import lr_scheduler, swa_utils

__all__ = ["Adam", "AdamW", "Optimizer", "SGD", "lr_scheduler"]
