"""``torch.nn.utils.parametrize``: :mod:`unigrad.nn.utils.parametrize`'s names."""

from unigrad.nn.utils.parametrize import *  # noqa: F403
from unigrad.nn.utils.parametrize import __all__ as _native_all

__all__ = list(_native_all)
