"""Resampling layers: Upsample, PixelShuffle/PixelUnshuffle, ChannelShuffle, Fold/Unfold.
"""

from __future__ import annotations

__all__: list[str] = []
