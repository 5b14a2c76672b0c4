"""``torch.utils``: the ``data`` submodule."""

from . import data

__all__ = ["data"]
