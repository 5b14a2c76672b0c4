"""``torch.nn`` spelled on unigrad: Modules, Parameters, layers and losses.

The classes are unigrad's own (:class:`unigrad.nn.Module` is PyTorch's
``nn.Module`` with ``forward``); every name of PyTorch's ``torch.nn`` that
:mod:`unigrad.nn` provides is exported here under that name, with
``functional``, ``init`` and ``utils`` as submodules. ``PYTORCH_NAMES`` lists
PyTorch's names, provided or not.

Example:
    >>> import unigrad.compat.torch as torch
    >>> import unigrad.compat.torch.nn as nn
    >>> _ = torch.manual_seed(0)
    >>> model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    >>> model(torch.ones(2, 3)).shape
    torch.Size([2, 1])
    >>> sum(p.numel() for p in model.parameters())
    21
"""

import unigrad.nn as _native

from . import functional, init, utils

# torch.nn's module classes and parameter types (PyTorch 2.13)
PYTORCH_NAMES = (
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
    "AdaptiveLogSoftmaxWithLoss", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d", "AlphaDropout", "AvgPool1d", "AvgPool2d", "AvgPool3d", "BCELoss",
    "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "Bilinear", "CELU",
    "CTCLoss", "ChannelShuffle", "CircularPad1d", "CircularPad2d", "CircularPad3d",
    "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "Container", "Conv1d", "Conv2d",
    "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "CosineEmbeddingLoss",
    "CosineSimilarity", "CrossEntropyLoss", "CrossMapLRN2d", "Dropout", "Dropout1d",
    "Dropout2d", "Dropout3d", "ELU", "Embedding", "EmbeddingBag", "FeatureAlphaDropout",
    "Flatten", "Fold", "FractionalMaxPool2d", "FractionalMaxPool3d", "GELU", "GLU", "GRU",
    "GRUCell", "GaussianNLLLoss", "GroupNorm", "Hardshrink", "Hardsigmoid", "Hardswish",
    "Hardtanh", "HingeEmbeddingLoss", "HuberLoss", "Identity", "InstanceNorm1d",
    "InstanceNorm2d", "InstanceNorm3d", "KLDivLoss", "L1Loss", "LPPool1d", "LPPool2d",
    "LPPool3d", "LSTM", "LSTMCell", "LayerNorm", "LazyBatchNorm1d", "LazyBatchNorm2d",
    "LazyBatchNorm3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d",
    "LazyConvTranspose2d", "LazyConvTranspose3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d",
    "LazyInstanceNorm3d", "LazyLinear", "LeakyReLU", "Linear", "LinearCrossEntropyLoss",
    "LinearCrossEntropyOptions", "LocalResponseNorm", "LogSigmoid", "LogSoftmax", "MSELoss",
    "MarginRankingLoss", "MaxPool1d", "MaxPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d",
    "MaxUnpool3d", "Mish", "Module", "ModuleDict", "ModuleList", "MultiLabelMarginLoss",
    "MultiLabelSoftMarginLoss", "MultiMarginLoss", "MultiheadAttention", "NLLLoss",
    "NLLLoss2d", "PReLU", "PairwiseDistance", "ParameterDict", "ParameterList", "PixelShuffle",
    "PixelUnshuffle", "PoissonNLLLoss", "RMSNorm", "RNN", "RNNBase", "RNNCell", "RNNCellBase",
    "RReLU", "ReLU", "ReLU6", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
    "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "SELU", "Sequential", "SiLU",
    "Sigmoid", "SmoothL1Loss", "SoftMarginLoss", "Softmax", "Softmax2d", "Softmin", "Softplus",
    "Softshrink", "Softsign", "SyncBatchNorm", "Tanh", "Tanhshrink", "Threshold",
    "Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
    "TransformerEncoderLayer", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
    "Unflatten", "Unfold", "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d",
    "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "Parameter", "Buffer", "UninitializedParameter",
    "UninitializedBuffer",
)

for _name in PYTORCH_NAMES:
    if hasattr(_native, _name):
        globals()[_name] = getattr(_native, _name)

__all__ = [_name for _name in PYTORCH_NAMES if _name in globals()] + ["functional", "init",
                                                                        "utils"]
