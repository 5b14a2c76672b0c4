"""Pooling: max/avg/lp pools in 1, 2 and 3 dimensions, adaptive and fractional pools,
max_unpool (``torch.nn.functional``'s signatures).
"""

from __future__ import annotations

__all__: list[str] = []
