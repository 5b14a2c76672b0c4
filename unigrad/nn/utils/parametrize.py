"""Parametrizations of module tensors: register_parametrization, remove_parametrizations,
is_parametrized, cached (``torch.nn.utils.parametrize``).
"""

from __future__ import annotations

__all__: list[str] = []
