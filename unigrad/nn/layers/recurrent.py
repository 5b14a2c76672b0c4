"""Recurrent layers: RNN, LSTM, GRU and their Cells (PyTorch's parameters and state_dict keys).
"""

from __future__ import annotations

__all__: list[str] = []
