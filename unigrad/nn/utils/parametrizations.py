"""Ready-made parametrizations: weight_norm, spectral_norm, orthogonal
(``torch.nn.utils.parametrizations``).
"""

from __future__ import annotations

__all__: list[str] = []
