"""``mindspore.dataset``: GeneratorDataset and NumpySlicesDataset over :mod:`unigrad.data`.
"""

__all__: list[str] = []
