"""Datasets, samplers and the DataLoader (``torch.utils.data``'s machinery, native).

The same names are ``unigrad.compat.torch.utils.data``; the MindSpore
(``mindspore.dataset``) and TensorFlow (``tf.data``) front-ends are built on
them.

Example:
    >>> import unigrad as ug
    >>> from unigrad.data import DataLoader, TensorDataset
    >>> loader = DataLoader(TensorDataset(ug.arange(6.0).reshape(3, 2)), batch_size=2)
    >>> [batch[0].shape for batch in loader]
    [(2, 2), (1, 2)]
"""

from ._worker import WorkerInfo as WorkerInfo  # torch keeps it out of __all__ too
from ._worker import get_worker_info
from .collate import default_collate, default_convert
from .dataloader import DataLoader
from .dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .distributed import DistributedSampler
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset",
           "DistributedSampler", "IterableDataset", "RandomSampler", "Sampler",
           "SequentialSampler", "StackDataset", "Subset", "SubsetRandomSampler",
           "TensorDataset", "WeightedRandomSampler", "default_collate",
           "default_convert", "get_worker_info", "random_split"]
