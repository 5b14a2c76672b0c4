"""``torch.nn.init``: in-place initializers (:mod:`unigrad.nn.init`'s, PyTorch's names).

Example:
    >>> import unigrad.compat.torch as torch
    >>> import unigrad.compat.torch.nn as nn
    >>> w = torch.empty(2, 3)
    >>> nn.init.constant_(w, 0.5)
    tensor([[0.5000, 0.5000, 0.5000],
            [0.5000, 0.5000, 0.5000]])
    >>> nn.init.calculate_gain("relu")
    1.4142135623730951
"""

from unigrad.nn.init import (
    calculate_gain,
    constant_,
    eye_,
    kaiming_normal_,
    kaiming_uniform_,
    normal_,
    ones_,
    orthogonal_,
    trunc_normal_,
    uniform_,
    xavier_normal_,
    xavier_uniform_,
    zeros_,
)

__all__ = ["calculate_gain", "constant_", "eye_", "kaiming_normal_", "kaiming_uniform_",
           "normal_", "ones_", "orthogonal_", "trunc_normal_", "uniform_", "xavier_normal_",
           "xavier_uniform_", "zeros_"]
