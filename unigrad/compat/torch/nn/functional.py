"""``torch.nn.functional`` (``import unigrad.compat.torch.nn.functional as F``).

The functions are :mod:`unigrad.nn.functional`'s, which already take
PyTorch's arguments (``F.cross_entropy(input, target, reduction="mean")``,
``F.softmax(input, dim)``...).

Example:
    >>> import unigrad.compat.torch as torch
    >>> import unigrad.compat.torch.nn.functional as F
    >>> F.relu(torch.tensor([-1.0, 2.0]))
    tensor([0., 2.])
    >>> F.mse_loss(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 4.0]))
    tensor(2.)
"""

from unigrad.nn.functional import (
    avg_pool2d,
    batch_norm,
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    conv1d,
    conv2d,
    cross_entropy,
    dropout,
    elu,
    embedding,
    fold,
    gelu,
    hardtanh,
    l1_loss,
    layer_norm,
    leaky_relu,
    linear,
    log_softmax,
    logsigmoid,
    max_pool2d,
    mse_loss,
    nll_loss,
    one_hot,
    pad,
    relu,
    sigmoid,
    silu,
    softmax,
    softplus,
    tanh,
    unfold,
)

__all__ = ["avg_pool2d", "batch_norm", "binary_cross_entropy", "binary_cross_entropy_with_logits",
           "conv1d", "conv2d", "cross_entropy", "dropout", "elu", "embedding", "fold", "gelu",
           "hardtanh", "l1_loss", "layer_norm", "leaky_relu", "linear", "log_softmax",
           "logsigmoid", "max_pool2d", "mse_loss", "nll_loss", "one_hot", "pad", "relu",
           "sigmoid", "silu", "softmax", "softplus", "tanh", "unfold"]
