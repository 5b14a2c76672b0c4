"""``torch.nn.utils.rnn``: :mod:`unigrad.nn.utils.rnn`'s names."""

from unigrad.nn.utils.rnn import *  # noqa: F403
from unigrad.nn.utils.rnn import __all__ as _native_all

__all__ = list(_native_all)
