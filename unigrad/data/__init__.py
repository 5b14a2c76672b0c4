"""Datasets, samplers and the DataLoader (``torch.utils.data``'s machinery, native).
"""

__all__: list[str] = []
