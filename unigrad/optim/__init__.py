"""Optimizers (``SGD``, ``Momentum``, ``Adam``, ``AdamW``) and learning-rate schedulers.

Every optimizer works PyTorch-style (``loss.backward(); opt.step()``) and
MindSpore-style (``opt(grads)`` with gradients in ``opt.parameters`` order).
Schedulers live in :mod:`unigrad.optim.lr_scheduler`, as in PyTorch.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0, 2.0]), name="w")
    >>> opt = optim.Adam([w], lr=0.1)
    >>> scheduler = optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    >>> for _ in range(2):
    ...     opt.zero_grad()
    ...     (w * w).sum().backward()
    ...     opt.step()
    ...     scheduler.step()
    >>> scheduler.get_last_lr()
    [0.025]
"""

from . import lr_scheduler, swa_utils
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .sgd import SGD, Momentum

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW", "lr_scheduler"]
