"""``torch.optim``: every PyTorch optimizer (``SGD``, ``Adam``, ``AdamW``, ``Adadelta``,
``Adafactor``, ``Adagrad``, ``Adamax``, ``ASGD``, ``LBFGS``, ``Muon``, ``NAdam``, ``RAdam``,
``RMSprop``, ``Rprop``, ``SparseAdam``) and ``lr_scheduler`` (unigrad's optimizers, which
take PyTorch's arguments).

Example:
    >>> import unigrad.compat.torch as torch
    >>> w = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> opt = torch.optim.SGD([w], lr=0.1)
    >>> (w * w).sum().backward()
    >>> opt.step()
    >>> w
    tensor([0.8000, 1.6000], requires_grad=True)
"""

from unigrad.optim import (
    ASGD,
    LBFGS,
    SGD,
    Adadelta,
    Adafactor,
    Adagrad,
    Adam,
    Adamax,
    AdamW,
    Muon,
    NAdam,
    Optimizer,
    RAdam,
    RMSprop,
    Rprop,
    SparseAdam,
)

from . import lr_scheduler, swa_utils

__all__ = ["ASGD", "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "LBFGS",
           "Muon", "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SGD", "SparseAdam",
           "lr_scheduler", "swa_utils"]
