"""Attention layers: MultiheadAttention, Transformer, TransformerEncoder(Layer),
TransformerDecoder(Layer).
"""

from __future__ import annotations

__all__: list[str] = []
