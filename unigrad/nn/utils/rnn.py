"""Variable-length sequences for the recurrent layers: PackedSequence, pack_padded_sequence,
pad_packed_sequence, pad_sequence, pack_sequence, unpad_sequence, unpack_sequence.
"""

from __future__ import annotations

__all__: list[str] = []
