"""parameters_to_vector and vector_to_parameters.
"""

from __future__ import annotations

__all__: list[str] = []
