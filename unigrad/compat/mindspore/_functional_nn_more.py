"""More ``mindspore.ops`` neural-network functions, spelled from one table over
:mod:`unigrad.nn.functional`: activations, convolutions, pools, normalisations and
losses, with MindSpore 2.10's argument names, order and defaults (``leaky_relu``'s
``alpha=0.2``, ``smooth_l1_loss``'s ``reduction='none'``, ``conv2d``'s ``pad_mode``).
The rows and the factory work as in :mod:`._functional_more`. Imported into
:mod:`unigrad.compat.mindspore.ops`.

Example:
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore import ops
    >>> x = ms.Tensor([[-2.0, 0.5, 3.0]])
    >>> print(ops.leaky_relu(x), ops.hardtanh(x))
    [[-0.4  0.5  3. ]] [[-1.   0.5  1. ]]
    >>> print(ops.huber_loss(x, ops.zeros_like(x)))
    1.375
"""

from __future__ import annotations

from ... import ops as _ug
from ...nn import functional as _F
from ._functional_more import _publish
from ._primitive_classes import _fast_gelu
from .dtype import to_ms_dtype


def _divisor(divisor_override: int):
    return divisor_override or None


def _conv(convolve, dimensions: int, owner: str):
    """MindSpore's ``conv{1,2,3}d``: ``pad_mode`` 'valid', 'same' or 'pad' (``padding`` an
    int, one per axis, or a (before, after) pair per axis)."""
    def convolved(input, weight, bias, stride, pad_mode, padding, dilation, groups):
        if pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"For '{owner}', the 'pad_mode' must be one of ['valid', 'same', "
                             f"'pad'], but got '{pad_mode}'")
        if pad_mode != "pad":
            if padding not in (0, (0,) * dimensions, (0,) * 2 * dimensions):
                raise ValueError(f"For '{owner}', the 'padding' must be 0 when 'pad_mode' is "
                                 f"'{pad_mode}', but got {padding}")
            padding = pad_mode
        elif isinstance(padding, (tuple, list)) and len(padding) == 2 * dimensions:
            pairs = [padding[i:i + 2] for i in range(0, len(padding), 2)]
            input = _F.pad(input, [amount for pair in reversed(pairs) for amount in pair])
            padding = 0
        return convolve(input, weight, bias, stride=stride, padding=padding, dilation=dilation,
                        groups=groups)
    return convolved


_CONV1D = _conv(_F.conv1d, 1, "conv1d")
_CONV2D = _conv(_F.conv2d, 2, "conv2d")
_CONV3D = _conv(_F.conv3d, 3, "conv3d")


def _glu(x, axis: int):
    if x.shape[axis] % 2:
        raise ValueError(f"For 'Split', x_shape[{axis % x.ndim}] must be divisible by "
                         f"output_num = 2, but got {x.shape[axis]}")
    return _F.glu(x, axis)


def _adaptive_avg_pool1d(input, output_size: int):
    if input.shape[-1] % output_size:
        raise ValueError(f"For adaptive_avg_pool1d input's last dimension must be divisible by "
                         f"output size {output_size}, but got {input.shape[-1]}.")
    return _F.adaptive_avg_pool1d(input, output_size)


def _channel_shuffle(x, groups: int):
    if x.ndim <= 3:
        raise TypeError(f"For ChannelShuffle, expect input with > 3 dims, but got {x.ndim}.")
    return _F.channel_shuffle(x, groups)


def _multi_margin_loss(input, target, p: int, margin: int, weight, reduction: str):
    for name, value in (("p", p), ("margin", margin)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For 'multi_margin_loss', the type of '{name}' must be int, but got "
                            f"{type(value)}.")
    return _F.multi_margin_loss(input, target, p, margin, weight, reduction=reduction)


def _fold(input, output_size, kernel_size, dilation, padding, stride):
    size = output_size.tolist() if hasattr(output_size, "tolist") else output_size
    return _F.fold(input, tuple(size), kernel_size, dilation, padding, stride)


def _lrn(x, depth_radius: int, bias: float, alpha: float, beta: float, norm_region: str):
    """MindSpore's LRN: x / (bias + alpha * sum of squares over 2 * depth_radius + 1
    channels) ** beta (the core's ``local_response_norm`` divides alpha by the window)."""
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"For 'LRN', the 'norm_region' must be 'ACROSS_CHANNELS', but got "
                         f"'{norm_region}'")
    window = 2 * depth_radius + 1
    return _F.local_response_norm(x, window, alpha * window, beta, bias)


def _kl_div(logits, labels, reduction: str):
    """MindSpore's 'mean' is the mean over every element (the core warns about that, so it
    is taken here as the sum over the number of elements)."""
    if reduction != "mean":
        return _F.kl_div(logits, labels, reduction=reduction)
    return _F.kl_div(logits, labels, reduction="sum") / logits.numel()


# the options MindSpore's interpolate accepts, per mode and input rank
_RESIZE_OPTIONS = {
    "nearest": {3: (), 4: (), 5: ("scale_factor",)},
    "linear": {3: ("align_corners",)},
    "bilinear": {4: ("align_corners",)},
    "bicubic": {4: ("align_corners",)},
    "area": {3: ("scale_factor",), 4: ("scale_factor",), 5: ("scale_factor",)},
    "nearest-exact": {3: (), 4: ()},
    "trilinear": {5: ("align_corners", "scale_factor")},
}


def _interpolate(input, size, scale_factor, mode: str, align_corners, recompute_scale_factor):
    """``F.interpolate`` with MindSpore's checks of which mode takes which option."""
    ranks = _RESIZE_OPTIONS.get(mode)
    if ranks is None:
        raise ValueError(f"For 'interpolate', 'mode' must be in '{list(_RESIZE_OPTIONS)}', but "
                         f"got {mode}")
    if input.ndim not in ranks:
        raise ValueError(f"For 'interpolate', {mode} only support '{list(ranks)}'D, but got "
                         f"{input.ndim}D")
    if mode == "area" and size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        if size is not None:
            raise ValueError("For 'interpolate', it is incorrect to set 'recompute_scale_factor' "
                             "to True after specifying an explicit 'size'.")
    elif scale_factor is not None and "scale_factor" not in ranks[input.ndim]:
        raise ValueError(f"For 'interpolate', 'scale_factor' option cannot currently be set "
                         f"with the mode = {mode} and dim = {input.ndim}D.")
    if align_corners is not None and "align_corners" not in ranks[input.ndim]:
        raise ValueError(f"For 'interpolate', 'align_corners' option cannot currently be set "
                         f"with the mode = {mode} and dim = {input.ndim}D.")
    return _F.interpolate(input, size, scale_factor, mode, align_corners,
                          recompute_scale_factor)


def _nll_loss(inputs, target, weight, ignore_index: int, reduction: str,
              label_smoothing: float):
    """The core's nll_loss, mixed as MindSpore does with label smoothing: (1 - s) * loss +
    s / classes * (minus the weighted sum of inputs over the classes, reduced alike)."""
    loss = _F.nll_loss(inputs, target, weight, ignore_index=ignore_index, reduction=reduction)
    if not label_smoothing:
        return loss
    class_dim = 0 if inputs.ndim == 1 else 1
    weighted = inputs if weight is None else _ug.mul(
        inputs, _ug.reshape(weight, (-1,) + (1,) * (inputs.ndim - class_dim - 1)))
    kept = _ug.ne(target, ignore_index)
    smooth = _ug.where(kept, _ug.neg(_ug.sum(weighted, dim=class_dim)), 0.0)
    if reduction != "none":
        smooth = _ug.sum(smooth)
    if reduction == "mean":
        counted = _ug.ones_like(target, dtype=inputs.dtype) if weight is None else \
            weight[_ug.where(kept, target, 0)]
        smooth = _ug.div(smooth, _ug.sum(_ug.where(kept, counted, 0.0)))
    smoothing = label_smoothing / inputs.shape[class_dim]
    return _ug.add(_ug.mul(loss, 1.0 - label_smoothing), _ug.mul(smooth, smoothing))


def _softmin(x, axis: int, dtype):
    return _F.softmin(x, dim=axis, dtype=None if dtype is None else to_ms_dtype(dtype))


_ROWS = (
    # activations
    ("celu", lambda x, alpha=1.0: _F.celu(x, alpha), "CELU"),
    ("elu", lambda input_x, alpha=1.0: _F.elu(input_x, alpha), "ELU"),
    ("gelu", lambda input, approximate="none": _F.gelu(input, approximate=approximate),
     "GELU (exact, or approximate='tanh')"),
    ("fast_gelu", lambda x: _fast_gelu(x), "x * sigmoid(1.702 x)"),
    ("glu", lambda x, axis=-1: _glu(x, axis), "the first half of x gated by the second's"),
    ("hardshrink", lambda input, lambd=0.5: _F.hardshrink(input, lambd),
     "input where |input| > lambd, else 0"),
    ("softshrink", lambda input, lambd=0.5: _F.softshrink(input, lambd),
     "input shrunk towards 0 by lambd"),
    ("soft_shrink", lambda input, lambd=0.5: _F.softshrink(input, lambd),
     "input shrunk towards 0 by lambd"),
    ("hardsigmoid", lambda input: _F.hardsigmoid(input), "relu6(input + 3) / 6"),
    ("hardswish", lambda input: _F.hardswish(input), "input * relu6(input + 3) / 6"),
    ("hardtanh", lambda input, min_val=-1.0, max_val=1.0: _F.hardtanh(input, min_val, max_val),
     "input clipped to [min_val, max_val]"),
    ("leaky_relu", lambda input, alpha=0.2: _F.leaky_relu(input, alpha),
     "input, times alpha where negative"),
    ("logsigmoid", lambda x: _F.logsigmoid(x), "log(sigmoid(x))"),
    ("mish", lambda x: _F.mish(x), "x * tanh(softplus(x))"),
    ("prelu", lambda input, weight: _F.prelu(input, weight),
     "input, times weight (per channel) where negative"),
    ("relu6", lambda x: _F.relu6(x), "min(max(x, 0), 6)"),
    ("selu", lambda input_x: _F.selu(input_x), "scaled ELU"),
    ("silu", lambda input: _F.silu(input), "input * sigmoid(input)"),
    ("softmin", lambda x, axis=-1, *, dtype=None: _softmin(x, axis, dtype), "softmax(-x)"),
    ("softplus", lambda input, beta=1, threshold=20: _F.softplus(input, beta, threshold),
     "log(1 + exp(beta * input)) / beta (linear above threshold)"),
    ("softsign", lambda x: _F.softsign(x), "x / (1 + |x|)"),
    ("tanhshrink", lambda input: _F.tanhshrink(input), "input - tanh(input)"),
    ("threshold", lambda input, thr, value: _F.threshold(input, thr, value),
     "input where above thr, else value"),
    ("dense", lambda input, weight, bias=None: _F.linear(input, weight, bias),
     "input @ weight.T + bias"),
    ("cosine_similarity", lambda x1, x2, dim=1, eps=1e-08:
        _F.cosine_similarity(x1, x2, dim, eps),
     "the cosine of the angle between x1 and x2 along dim"),
    ("pixel_shuffle", lambda input, upscale_factor: _F.pixel_shuffle(input, upscale_factor),
     "channels moved into upscale_factor times larger height and width"),
    ("pixel_unshuffle", lambda input, downscale_factor:
        _F.pixel_unshuffle(input, downscale_factor),
     "height and width blocks moved into channels"),
    ("channel_shuffle", lambda x, groups: _channel_shuffle(x, groups),
     "the channels regrouped across groups"),
    ("pdist", lambda input, p=2.0: _F.pdist(input, p),
     "the p-norm distances between the rows of input, upper triangle"),
    ("dropout1d", lambda input, p=0.5, training=True: _F.dropout1d(input, p, training),
     "whole channels zeroed with probability p (the rest scaled by 1 / (1 - p))"),
    ("dropout2d", lambda input, p=0.5, training=True: _F.dropout2d(input, p, training),
     "whole channels zeroed with probability p (the rest scaled by 1 / (1 - p))"),
    ("dropout3d", lambda input, p=0.5, training=True: _F.dropout3d(input, p, training),
     "whole channels zeroed with probability p (the rest scaled by 1 / (1 - p))"),
    ("bidense", lambda input1, input2, weight, bias=None:
        _F.bilinear(input1, input2, weight, bias),
     "input1 @ weight @ input2 + bias, per output feature"),
    ("pad", lambda input_x, padding, mode="constant", value=None:
        _F.pad(input_x, padding, mode, value),
     "input_x padded ((before, after) per axis from the last)"),
    ("interpolate", lambda input, size=None, scale_factor=None, mode="nearest",
        align_corners=None, recompute_scale_factor=None: _interpolate(
            input, size, scale_factor, mode, align_corners, recompute_scale_factor),
     "input resized to size (or by scale_factor)"),
    ("upsample", lambda input, size=None, scale_factor=None, mode="nearest",
        align_corners=None, recompute_scale_factor=None: _interpolate(
            input, size, scale_factor, mode, align_corners, recompute_scale_factor),
     "input resized to size (or by scale_factor)"),
    ("unfold", lambda input, kernel_size, dilation=1, padding=0, stride=1:
        _F.unfold(input, kernel_size, dilation, padding, stride),
     "the sliding blocks of input as columns"),
    ("fold", lambda input, output_size, kernel_size, dilation=1, padding=0, stride=1:
        _fold(input, output_size, kernel_size, dilation, padding, stride),
     "columns of sliding blocks summed back into an output_size image"),
    ("affine_grid", lambda theta, size, align_corners=False:
        _F.affine_grid(theta, size, align_corners),
     "the sampling grid of the affine maps theta"),
    ("grid_sample", lambda input, grid, mode="bilinear", padding_mode="zeros",
        align_corners=None: _F.grid_sample(input, grid, mode, padding_mode, align_corners),
     "input sampled at the grid's normalised coordinates"),
    ("lrn", lambda x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
        norm_region="ACROSS_CHANNELS": _lrn(x, depth_radius, bias, alpha, beta, norm_region),
     "local response normalisation across channels"),
    # convolutions and pools
    ("conv1d", lambda input, weight, bias=None, stride=1, pad_mode="valid", padding=0,
        dilation=1, groups=1: _CONV1D(input, weight, bias, stride, pad_mode, padding,
                                      dilation, groups),
     "the 1-D convolution (cross-correlation)"),
    ("conv2d", lambda input, weight, bias=None, stride=1, pad_mode="valid", padding=0,
        dilation=1, groups=1: _CONV2D(input, weight, bias, stride, pad_mode, padding,
                                      dilation, groups),
     "the 2-D convolution (cross-correlation)"),
    ("conv3d", lambda input, weight, bias=None, stride=1, pad_mode="valid", padding=0,
        dilation=1, groups=1: _CONV3D(input, weight, bias, stride, pad_mode, padding,
                                      dilation, groups),
     "the 3-D convolution (cross-correlation)"),
    ("conv_transpose2d", lambda input, weight, bias=None, stride=1, padding=0,
        output_padding=0, groups=1, dilation=1: _F.conv_transpose2d(
            input, weight, bias, stride, padding, output_padding, groups, dilation),
     "the 2-D transposed convolution"),
    ("max_unpool1d", lambda x, indices, kernel_size, stride=None, padding=0, output_size=None:
        _F.max_unpool1d(x, indices, kernel_size, stride, padding, output_size),
     "the inverse of max_pool1d: x put back at indices, zeros elsewhere"),
    ("max_unpool2d", lambda x, indices, kernel_size, stride=None, padding=0, output_size=None:
        _F.max_unpool2d(x, indices, kernel_size, stride, padding, output_size),
     "the inverse of max_pool2d: x put back at indices, zeros elsewhere"),
    ("max_unpool3d", lambda x, indices, kernel_size, stride=None, padding=0, output_size=None:
        _F.max_unpool3d(x, indices, kernel_size, stride, padding, output_size),
     "the inverse of max_pool3d: x put back at indices, zeros elsewhere"),
    ("avg_pool1d", lambda input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
        count_include_pad=True: _F.avg_pool1d(input_x, kernel_size, stride, padding,
                                              ceil_mode, count_include_pad),
     "the 1-D average pool"),
    ("avg_pool2d", lambda input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
        count_include_pad=True, divisor_override=0: _F.avg_pool2d(
            input_x, kernel_size, stride, padding, ceil_mode, count_include_pad,
            _divisor(divisor_override)),
     "the 2-D average pool"),
    ("avg_pool3d", lambda input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
        count_include_pad=True, divisor_override=0: _F.avg_pool3d(
            input_x, kernel_size, stride, padding, ceil_mode, count_include_pad,
            _divisor(divisor_override)),
     "the 3-D average pool"),
    ("max_pool2d", lambda x, kernel_size, stride=None, padding=0, dilation=1,
        return_indices=False, ceil_mode=False: _F.max_pool2d(
            x, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode,
            return_indices=return_indices),
     "the 2-D max pool ((output, indices) when return_indices)"),
    ("max_pool3d", lambda x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
        return_indices=False: _F.max_pool3d(
            x, kernel_size, stride, padding, dilation, ceil_mode=ceil_mode,
            return_indices=return_indices),
     "the 3-D max pool ((output, indices) when return_indices)"),
    ("lp_pool1d", lambda x, norm_type, kernel_size, stride=None, ceil_mode=False:
        _F.lp_pool1d(x, norm_type, kernel_size, stride, ceil_mode),
     "the 1-D power-average pool"),
    ("lp_pool2d", lambda x, norm_type, kernel_size, stride=None, ceil_mode=False:
        _F.lp_pool2d(x, norm_type, kernel_size, stride, ceil_mode),
     "the 2-D power-average pool"),
    ("adaptive_avg_pool1d", lambda input, output_size:
        _adaptive_avg_pool1d(input, output_size),
     "the 1-D average pool to output_size"),
    ("adaptive_avg_pool2d", lambda input, output_size:
        _F.adaptive_avg_pool2d(input, output_size),
     "the 2-D average pool to output_size"),
    ("adaptive_avg_pool3d", lambda input, output_size:
        _F.adaptive_avg_pool3d(input, output_size),
     "the 3-D average pool to output_size"),
    ("adaptive_max_pool1d", lambda input, output_size:
        _F.adaptive_max_pool1d(input, output_size),
     "the 1-D max pool to output_size"),
    ("adaptive_max_pool2d", lambda input, output_size, return_indices=False:
        _F.adaptive_max_pool2d(input, output_size, return_indices),
     "the 2-D max pool to output_size ((output, indices) when return_indices)"),
    ("adaptive_max_pool3d", lambda input, output_size, return_indices=False:
        _F.adaptive_max_pool3d(input, output_size, return_indices),
     "the 3-D max pool to output_size ((output, indices) when return_indices)"),
    # normalisations
    ("batch_norm", lambda input_x, running_mean, running_var, weight, bias, training=False,
        momentum=0.1, eps=1e-05: _F.batch_norm(input_x, running_mean, running_var, weight,
                                               bias, training, momentum, eps),
     "batch normalisation (with the running statistics unless training)"),
    ("layer_norm", lambda input, normalized_shape, weight=None, bias=None, eps=1e-05:
        _F.layer_norm(input, normalized_shape, weight, bias, eps),
     "normalisation over the trailing normalized_shape axes"),
    ("group_norm", lambda input, num_groups, weight=None, bias=None, eps=1e-05:
        _F.group_norm(input, num_groups, weight, bias, eps),
     "normalisation over groups of channels"),
    # losses
    ("binary_cross_entropy", lambda logits, labels, weight=None, reduction="mean":
        _F.binary_cross_entropy(logits, labels, weight, reduction=reduction),
     "the binary cross entropy of probabilities logits against labels"),
    ("kl_div", lambda logits, labels, reduction="mean":
        _kl_div(logits, labels, reduction),
     "labels * (log(labels) - logits), the Kullback-Leibler divergence"),
    ("nll_loss", lambda inputs, target, weight=None, ignore_index=-100, reduction="mean",
        label_smoothing=0.0: _nll_loss(inputs, target, weight, ignore_index, reduction,
                                       label_smoothing),
     "the negative log likelihood of the target classes, optionally label-smoothed"),
    ("huber_loss", lambda input, target, reduction="mean", delta=1.0:
        _F.huber_loss(input, target, reduction=reduction, delta=delta),
     "the Huber loss"),
    ("smooth_l1_loss", lambda input, target, beta=1.0, reduction="none":
        _F.smooth_l1_loss(input, target, reduction=reduction, beta=beta),
     "the smooth L1 loss (unreduced by default)"),
    ("mse_loss_ext", lambda input, target, reduction="mean":
        _F.mse_loss(input, target, reduction=reduction),
     "the mean squared error"),
    ("soft_margin_loss", lambda input, target, reduction="mean":
        _F.soft_margin_loss(input, target, reduction=reduction),
     "log(1 + exp(-target * input))"),
    ("margin_ranking_loss", lambda input1, input2, target, margin=0.0, reduction="mean":
        _F.margin_ranking_loss(input1, input2, target, margin, reduction=reduction),
     "max(0, -target * (input1 - input2) + margin)"),
    ("cosine_embedding_loss", lambda input1, input2, target, margin=0.0, reduction="mean":
        _F.cosine_embedding_loss(input1, input2, target, margin, reduction=reduction),
     "the cosine embedding loss"),
    ("hinge_embedding_loss", lambda inputs, targets, margin=1.0, reduction="mean":
        _F.hinge_embedding_loss(inputs, targets, margin, reduction=reduction),
     "the hinge embedding loss"),
    ("multilabel_soft_margin_loss", lambda input, target, weight=None, reduction="mean":
        _F.multilabel_soft_margin_loss(input, target, weight, reduction=reduction),
     "the multi-label one-versus-all logistic loss"),
    ("multilabel_margin_loss", lambda input, target, reduction="mean":
        _F.multilabel_margin_loss(input, target, reduction=reduction),
     "the multi-label hinge loss"),
    ("multi_margin_loss", lambda input, target, p=1, margin=1, weight=None, reduction="mean":
        _multi_margin_loss(input, target, p, margin, weight, reduction),
     "the multi-class hinge loss"),
    ("triplet_margin_loss", lambda anchor, positive, negative, margin=1.0, p=2, eps=1e-06,
        swap=False, reduction="mean": _F.triplet_margin_loss(
            anchor, positive, negative, margin, p, eps, swap, reduction=reduction),
     "the triplet margin loss"),
    ("gaussian_nll_loss", lambda x, target, var, full=False, eps=1e-06, reduction="mean":
        _F.gaussian_nll_loss(x, target, var, full, eps, reduction),
     "the Gaussian negative log likelihood"),
)

__all__ = _publish(_ROWS, globals(), __name__)
