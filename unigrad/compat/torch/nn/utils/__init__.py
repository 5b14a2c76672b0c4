"""``torch.nn.utils``: :mod:`unigrad.nn.utils`'s functions and its ``rnn``, ``parametrize``
and ``parametrizations`` submodules.

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

from unigrad.nn.utils import *  # noqa: F403
from unigrad.nn.utils import __all__ as _native_all

from . import parametrizations, parametrize, rnn

__all__ = list(_native_all)
