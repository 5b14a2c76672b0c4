"""``torch.nn.utils.parametrizations``: :mod:`unigrad.nn.utils.parametrizations`'s names."""

from unigrad.nn.utils.parametrizations import *  # noqa: F403
from unigrad.nn.utils.parametrizations import __all__ as _native_all

__all__ = list(_native_all)
