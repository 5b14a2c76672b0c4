"""``torch.nn.functional`` (``import unigrad.compat.torch.nn.functional as F``).

The functions are :mod:`unigrad.nn.functional`'s, which already take
PyTorch's arguments (``F.cross_entropy(input, target, reduction="mean")``,
``F.softmax(input, dim)``...): every name of PyTorch's ``torch.nn.functional``
that unigrad provides is exported here. ``PYTORCH_NAMES`` lists PyTorch's
functions, provided or not.

Example:
    >>> import unigrad.compat.torch as torch
    >>> import unigrad.compat.torch.nn.functional as F
    >>> F.relu(torch.tensor([-1.0, 2.0]))
    tensor([0., 2.])
    >>> F.mse_loss(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 4.0]))
    tensor(2.)
"""

import unigrad.nn.functional as _native

# torch.nn.functional's public functions (PyTorch 2.13)
PYTORCH_NAMES = (
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
    "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d",
    "adaptive_max_pool2d_with_indices", "adaptive_max_pool3d",
    "adaptive_max_pool3d_with_indices", "affine_grid", "alpha_dropout", "avg_pool1d",
    "avg_pool2d", "avg_pool3d", "batch_norm", "bilinear", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "celu", "celu_", "channel_shuffle", "conv1d", "conv2d",
    "conv3d", "conv_tbc", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "cosine_embedding_loss", "cosine_similarity", "cross_entropy", "ctc_loss", "dropout",
    "dropout1d", "dropout2d", "dropout3d", "elu", "elu_", "embedding", "embedding_bag",
    "feature_alpha_dropout", "fold", "fractional_max_pool2d",
    "fractional_max_pool2d_with_indices", "fractional_max_pool3d",
    "fractional_max_pool3d_with_indices", "gaussian_nll_loss", "gelu", "glu", "grid_sample",
    "group_norm", "grouped_mm", "gumbel_softmax", "hardshrink", "hardsigmoid", "hardswish",
    "hardtanh", "hardtanh_", "hinge_embedding_loss", "huber_loss", "instance_norm",
    "interpolate", "kl_div", "l1_loss", "layer_norm", "leaky_relu", "leaky_relu_", "linear",
    "linear_cross_entropy", "local_response_norm", "log_softmax", "logsigmoid", "lp_pool1d",
    "lp_pool2d", "lp_pool3d", "margin_ranking_loss", "max_pool1d", "max_pool1d_with_indices",
    "max_pool2d", "max_pool2d_with_indices", "max_pool3d", "max_pool3d_with_indices",
    "max_unpool1d", "max_unpool2d", "max_unpool3d", "mish", "mse_loss",
    "multi_head_attention_forward", "multi_margin_loss", "multilabel_margin_loss",
    "multilabel_soft_margin_loss", "native_channel_shuffle", "nll_loss", "normalize",
    "one_hot", "pad", "pairwise_distance", "pdist", "pixel_shuffle", "pixel_unshuffle",
    "poisson_nll_loss", "prelu", "relu", "relu6", "relu_", "rms_norm", "rrelu", "rrelu_",
    "scaled_dot_product_attention", "scaled_grouped_mm", "scaled_mm", "selu", "selu_",
    "sigmoid", "silu", "smooth_l1_loss", "soft_margin_loss", "softmax", "softmin", "softplus",
    "softshrink", "softsign", "tanh", "tanhshrink", "threshold", "threshold_",
    "triplet_margin_loss", "triplet_margin_with_distance_loss", "unfold", "upsample",
    "upsample_bilinear", "upsample_nearest",
)

for _name in PYTORCH_NAMES:
    if hasattr(_native, _name):
        globals()[_name] = getattr(_native, _name)

__all__ = [_name for _name in PYTORCH_NAMES if _name in globals()]
