"""Padding layers: constant, zero, reflection, replication and circular padding
(1, 2 and 3 dimensions).
"""

from __future__ import annotations

__all__: list[str] = []
