"""``torch.optim.swa_utils``: :mod:`unigrad.optim.swa_utils`'s names."""

from unigrad.optim.swa_utils import *  # noqa: F403
from unigrad.optim.swa_utils import __all__ as _native_all

__all__ = list(_native_all)
