"""Optimizers (PyTorch's ``torch.optim`` set and MindSpore's ``Momentum``) and LR schedulers.

``SGD``, ``Momentum``, ``Adam``, ``AdamW``, ``Adadelta``, ``Adafactor``,
``Adagrad``, ``Adamax``, ``ASGD``, ``LBFGS``, ``Muon``, ``NAdam``, ``RAdam``,
``RMSprop``, ``Rprop`` and ``SparseAdam`` follow PyTorch's formulas, options
and state names; ``Lamb`` and ``LARS`` follow MindSpore's.

Every optimizer works PyTorch-style (``loss.backward(); opt.step()``) and
MindSpore-style (``opt(grads)`` with gradients in ``opt.parameters`` order).
Schedulers live in :mod:`unigrad.optim.lr_scheduler`, as in PyTorch.

Example:
    >>> import unigrad as ug
    >>> import unigrad.optim as optim
    >>> w = ug.nn.Parameter(ug.tensor([1.0, 2.0]), name="w")
    >>> opt = optim.Adam([w], lr=0.1)
    >>> scheduler = optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    >>> for _ in range(2):
    ...     opt.zero_grad()
    ...     (w * w).sum().backward()
    ...     opt.step()
    ...     scheduler.step()
    >>> scheduler.get_last_lr()
    [0.025]
"""

from . import lr_scheduler, swa_utils
from .adadelta import Adadelta
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adamax import Adamax
from .asgd import ASGD
from .lamb import Lamb
from .lars import LARS
from .lbfgs import LBFGS
from .muon import Muon
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD, Momentum
from .sparse_adam import SparseAdam

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW", "Adadelta", "Adafactor", "Adagrad",
           "Adamax", "ASGD", "Lamb", "LARS", "LBFGS", "Muon", "NAdam", "RAdam", "RMSprop", "Rprop",
           "SparseAdam", "lr_scheduler", "swa_utils"]
