"""Attention: scaled_dot_product_attention and multi_head_attention_forward
(``torch.nn.functional``'s signatures).
"""

from __future__ import annotations

__all__: list[str] = []
