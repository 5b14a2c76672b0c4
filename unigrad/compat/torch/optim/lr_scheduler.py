"""``torch.optim.lr_scheduler``: learning-rate schedules (:mod:`unigrad.optim.lr_scheduler`'s).

Example:
    >>> import unigrad.compat.torch as torch
    >>> w = torch.tensor(1.0, requires_grad=True)
    >>> opt = torch.optim.SGD([w], lr=1.0)
    >>> sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    >>> opt.step(); sched.step()
    >>> sched.get_last_lr()
    [0.5]
"""

from unigrad.optim.lr_scheduler import *  # noqa: F403
from unigrad.optim.lr_scheduler import __all__ as _native_all
from unigrad.optim.lr_scheduler import _LRScheduler  # noqa: F401 - PyTorch's old name

__all__ = list(_native_all)
