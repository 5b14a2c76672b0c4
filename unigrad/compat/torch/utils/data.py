"""``torch.utils.data``: :mod:`unigrad.data`'s names."""

from unigrad.data import *  # noqa: F403
from unigrad.data import __all__ as _native_all

__all__ = list(_native_all)
