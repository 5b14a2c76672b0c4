"""``torch.nn`` spelled on unigrad: Modules, Parameters, layers and losses.

The classes are unigrad's own (:class:`unigrad.nn.Module` is PyTorch's
``nn.Module`` with ``forward``); only PyTorch's names are exported, with
``functional``, ``init`` and ``utils`` as submodules.

Example:
    >>> import unigrad.compat.torch as torch
    >>> import unigrad.compat.torch.nn as nn
    >>> _ = torch.manual_seed(0)
    >>> model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    >>> model(torch.ones(2, 3)).shape
    (2, 1)
    >>> sum(p.numel() for p in model.parameters())
    21
"""

from unigrad.nn import (
    ELU,
    GELU,
    AvgPool1d,
    AvgPool2d,
    BatchNorm1d,
    BatchNorm2d,
    BCELoss,
    BCEWithLogitsLoss,
    Conv1d,
    Conv2d,
    CrossEntropyLoss,
    Dropout,
    Embedding,
    Flatten,
    Hardtanh,
    HuberLoss,
    Identity,
    L1Loss,
    LayerNorm,
    LeakyReLU,
    Linear,
    LogSigmoid,
    LogSoftmax,
    MaxPool1d,
    MaxPool2d,
    Module,
    ModuleDict,
    ModuleList,
    MSELoss,
    NLLLoss,
    Parameter,
    ReLU,
    ReLU6,
    Sequential,
    Sigmoid,
    SiLU,
    SmoothL1Loss,
    Softmax,
    Softplus,
    Tanh,
    Unflatten,
)

from . import functional, init, utils

__all__ = ["AvgPool1d", "AvgPool2d", "BatchNorm1d", "BatchNorm2d", "BCELoss", "BCEWithLogitsLoss",
           "Conv1d", "Conv2d", "CrossEntropyLoss", "Dropout", "ELU", "Embedding", "Flatten",
           "GELU", "Hardtanh", "HuberLoss", "Identity", "L1Loss", "LayerNorm", "LeakyReLU",
           "Linear", "LogSigmoid", "LogSoftmax", "MaxPool1d", "MaxPool2d", "Module", "ModuleDict",
           "ModuleList", "MSELoss", "NLLLoss", "Parameter", "ReLU", "ReLU6", "Sequential",
           "Sigmoid", "SiLU", "SmoothL1Loss", "Softmax", "Softplus", "Tanh", "Unflatten",
           "functional", "init", "utils"]
