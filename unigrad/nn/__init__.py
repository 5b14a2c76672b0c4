"""Neural-network building blocks; ``unigrad.nn.functional`` holds the stateless functions."""

from . import functional

__all__ = ["functional"]
