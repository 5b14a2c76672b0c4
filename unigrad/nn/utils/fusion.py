"""Folding batch normalization into the preceding convolution or linear layer for inference:
fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval, fuse_linear_bn_weights.
"""

from __future__ import annotations

__all__: list[str] = []
