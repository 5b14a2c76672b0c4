"""Resampling: interpolate/upsample, grid_sample/affine_grid, pixel and channel shuffles
(``torch.nn.functional``'s signatures).
"""

from __future__ import annotations

__all__: list[str] = []
