"""Attention layers: MultiheadAttention, Transformer, TransformerEncoder(Layer),
TransformerDecoder(Layer).

They follow PyTorch's modules: the same constructor arguments, parameter
names (``in_proj_weight``, ``out_proj.weight``, ``layers.0.linear1.weight``,
...), initialization and computation (PyTorch's general path; its fused
inference fast path computes the same values).

Example:
    >>> import unigrad as ug
    >>> layer = ug.nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8,
    ...                                       batch_first=True)
    >>> encoder = ug.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    >>> encoder(ug.ones(3, 5, 4)).shape
    (3, 5, 4)
    >>> list(encoder.state_dict())[:3]
    ['layers.0.self_attn.in_proj_weight', 'layers.0.self_attn.in_proj_bias', \
'layers.0.self_attn.out_proj.weight']
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable

import numpy as np

from ...autograd.grad_mode import is_grad_enabled
from ...ops.creation import full
from ...ops.elementwise import gelu, relu, where
from ...ops.indexing import is_traced
from ...ops.nn_attention import canonical_mask, multi_head_attention_forward
from ...ops.shape import transpose, triu
from ...tensor import Tensor
from .. import init
from ..cell import Module
from ..containers import ModuleList
from ._common import device_of, floating_dtype, new_parameter, positive_int
from .activation import GELU, ReLU
from .dropout import Dropout
from .linear import Linear
from .normalization import LayerNorm

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer",
           "TransformerEncoder", "TransformerDecoder", "Transformer"]


class NonDynamicallyQuantizableLinear(Linear):
    """The :class:`Linear` PyTorch uses as ``MultiheadAttention.out_proj`` (same computation).

    Example:
        >>> from unigrad.nn.layers.transformer import NonDynamicallyQuantizableLinear
        >>> NonDynamicallyQuantizableLinear(2, 3)
        NonDynamicallyQuantizableLinear(in_features=2, out_features=3, bias=True)
    """


class MultiheadAttention(Module):
    """Multi-head attention (PyTorch's ``nn.MultiheadAttention``).

    With ``kdim``/``vdim`` equal to ``embed_dim`` the projections are one
    ``in_proj_weight`` ``(3 * embed_dim, embed_dim)``; otherwise
    ``q_proj_weight``, ``k_proj_weight`` and ``v_proj_weight``.
    ``forward(query, key, value, key_padding_mask=None, need_weights=True,
    attn_mask=None, average_attn_weights=True, is_causal=False)`` returns
    ``(attn_output, attn_weights)`` (see
    :func:`~unigrad.nn.functional.multi_head_attention_forward`); with
    ``batch_first`` inputs and output are ``(N, L, E)``.

    Example:
        >>> import unigrad as ug
        >>> attention = ug.nn.MultiheadAttention(4, 2, batch_first=True)
        >>> x = ug.ones(3, 5, 4)
        >>> output, weights = attention(x, x, x)
        >>> output.shape, weights.shape
        ((3, 5, 4), (3, 5, 5))
        >>> list(attention.state_dict())
        ['in_proj_weight', 'in_proj_bias', 'out_proj.weight', 'out_proj.bias']
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, device=None,
                 dtype=None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        dtype, device = floating_dtype(dtype, "MultiheadAttention"), device_of(device)
        if self._qkv_same_embed_dim:
            self.in_proj_weight = new_parameter(0.0, (3 * embed_dim, embed_dim), dtype, device)
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = new_parameter(0.0, (embed_dim, embed_dim), dtype, device)
            self.k_proj_weight = new_parameter(0.0, (embed_dim, self.kdim), dtype, device)
            self.v_proj_weight = new_parameter(0.0, (embed_dim, self.vdim), dtype, device)
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = new_parameter(0.0, (3 * embed_dim,), dtype, device)
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        device=device, dtype=dtype)
        if add_bias_kv:
            self.bias_k = new_parameter(0.0, (1, 1, embed_dim), dtype, device)
            self.bias_v = new_parameter(0.0, (1, 1, embed_dim), dtype, device)
        else:
            self.register_parameter("bias_k", None)
            self.register_parameter("bias_v", None)
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        """PyTorch's initialization: Xavier-uniform projections, zero biases."""
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for weight in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        for bias in (self.bias_k, self.bias_v):
            if bias is not None:
                init.xavier_normal_(bias)

    def forward(self, query: Tensor, key: Tensor, value: Tensor,
                key_padding_mask: Tensor | None = None, need_weights: bool = True,
                attn_mask: Tensor | None = None, average_attn_weights: bool = True,
                is_causal: bool = False) -> tuple:
        key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask", query.dtype,
                                          attn_mask, "attn_mask")
        attn_mask = canonical_mask(attn_mask, "attn_mask", query.dtype)
        batched = query.ndim == 3
        if self.batch_first and batched:
            query, key, value = (transpose(x, 0, 1) for x in (query, key, value))
        output, weights = multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            use_separate_proj_weight=not self._qkv_same_embed_dim,
            q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight, average_attn_weights=average_attn_weights,
            is_causal=is_causal)
        if self.batch_first and batched:
            output = transpose(output, 0, 1)
        return output, weights


# ----------------------------------------------------------------------------- layers

def _activation(activation) -> Callable:
    if isinstance(activation, str):
        if activation == "relu":
            return relu
        if activation == "gelu":
            return gelu
        raise RuntimeError(f"activation should be relu/gelu, not {activation}")
    if not callable(activation):
        raise TypeError(f"activation should be 'relu', 'gelu' or a callable, got "
                        f"{type(activation).__name__}")
    return activation


def _norm(d_model: int, eps: float, bias: bool, device, dtype) -> LayerNorm:
    return LayerNorm(d_model, eps=eps, bias=bias, device=device, dtype=dtype)


class _FeedForwardLayer(Module):
    """What the encoder and decoder layers share: self-attention, the feed-forward block
    (``linear1``, ``dropout``, ``linear2``) and their norms and dropouts."""

    def _build(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float,
               layer_norm_eps: float, batch_first: bool, norm_first: bool, bias: bool,
               device, dtype, attentions: tuple, norms: int) -> None:
        for name in attentions:
            setattr(self, name, MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                   batch_first=batch_first, device=device,
                                                   dtype=dtype))
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, device=device, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, device=device, dtype=dtype)
        self.norm_first = norm_first
        for index in range(1, norms + 1):
            setattr(self, f"norm{index}", _norm(d_model, layer_norm_eps, bias, device, dtype))
        for index in range(1, norms + 1):
            setattr(self, f"dropout{index}", Dropout(dropout))

    def _sa_block(self, x: Tensor, attn_mask, key_padding_mask, is_causal: bool) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x: Tensor, output_dropout: Dropout) -> Tensor:
        return output_dropout(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerEncoderLayer(_FeedForwardLayer):
    """Self-attention then a feed-forward block, each with a residual and a LayerNorm
    (after it, or before it with ``norm_first``).

    ``activation`` is ``'relu'``, ``'gelu'`` or a callable (a Module is
    registered as a child, as in PyTorch).

    Example:
        >>> import unigrad as ug
        >>> layer = ug.nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0)
        >>> layer(ug.ones(5, 3, 4)).shape
        (5, 3, 4)
        >>> [name for name, _ in layer.named_children()][:4]
        ['self_attn', 'linear1', 'dropout', 'linear2']
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable = relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        self._build(d_model, nhead, dim_feedforward, dropout, layer_norm_eps, batch_first,
                    norm_first, bias, device, dtype, ("self_attn",), 2)
        activation = _activation(activation)
        if activation is relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def forward(self, src: Tensor, src_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None, is_causal: bool = False) -> Tensor:
        src_key_padding_mask = canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                              src.dtype, src_mask, "src_mask")
        src_mask = canonical_mask(src_mask, "src_mask", src.dtype)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff_block(self.norm2(x), self.dropout2)
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff_block(x, self.dropout2))


class TransformerDecoderLayer(_FeedForwardLayer):
    """Self-attention, attention over the encoder's ``memory``, then a feed-forward block,
    each with a residual and a LayerNorm (before each with ``norm_first``).

    Example:
        >>> import unigrad as ug
        >>> layer = ug.nn.TransformerDecoderLayer(4, 2, dim_feedforward=8, batch_first=True)
        >>> layer(ug.ones(3, 5, 4), ug.ones(3, 7, 4)).shape
        (3, 5, 4)
        >>> [name for name, _ in layer.named_children()][:2]
        ['self_attn', 'multihead_attn']
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable = relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        self._build(d_model, nhead, dim_feedforward, dropout, layer_norm_eps, batch_first,
                    norm_first, bias, device, dtype, ("self_attn", "multihead_attn"), 3)
        self.activation = _activation(activation)

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None, tgt_is_causal: bool = False,
                memory_is_causal: bool = False) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask,
                                   tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask,
                                    memory_key_padding_mask, memory_is_causal)
            return x + self._ff_block(self.norm3(x), self.dropout3)
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                           memory_is_causal))
        return self.norm3(x + self._ff_block(x, self.dropout3))

    def _mha_block(self, x: Tensor, memory: Tensor, attn_mask, key_padding_mask,
                   is_causal: bool) -> Tensor:
        x = self.multihead_attn(x, memory, memory, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, is_causal=is_causal,
                                need_weights=False)[0]
        return self.dropout2(x)


# ----------------------------------------------------------------------------- stacks

def _clones(layer: Module, count: int) -> ModuleList:
    return ModuleList([copy.deepcopy(layer) for _ in range(count)])


def _why_not_nested(layer) -> str:
    """PyTorch's reason why an encoder cannot use nested tensors ('' when it could)."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attention = layer.self_attn
    reasons = [
        (layer.norm_first, f"{name}.norm_first was True"),
        (not attention.batch_first, f"{name}.self_attn.batch_first was not True(use "
                                    f"batch_first for better inference performance)"),
        (not attention._qkv_same_embed_dim, f"{name}.self_attn._qkv_same_embed_dim was not "
                                            f"True"),
        (attention.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
        (not layer.activation_relu_or_gelu, f"{name}.activation_relu_or_gelu was not True"),
        (layer.norm1.eps != layer.norm2.eps, f"{name}.norm1.eps was not equal to "
                                             f"{name}.norm2.eps"),
        (attention.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd"),
    ]
    return next((reason for failed, reason in reasons if failed), "")


class TransformerEncoder(Module):
    """``num_layers`` deep copies of ``encoder_layer`` applied in turn, then ``norm``.

    As in PyTorch, with ``enable_nested_tensor`` (and a batch-first, post-norm
    ReLU/GELU layer with an even head count and biases), inference without
    gradients given a left-aligned ``src_key_padding_mask`` and no ``mask``
    returns ``norm(0)`` at the padded positions (PyTorch computes it on nested
    tensors); everywhere else the values are those of the general path.

    Example:
        >>> import unigrad as ug
        >>> layer = ug.nn.TransformerEncoderLayer(4, 2, dim_feedforward=8)
        >>> encoder = ug.nn.TransformerEncoder(layer, 2, norm=ug.nn.LayerNorm(4),
        ...                                    enable_nested_tensor=False)
        >>> mask = ug.nn.Transformer.generate_square_subsequent_mask(5)
        >>> encoder(ug.ones(5, 3, 4), mask=mask).shape
        (5, 3, 4)
    """

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int,
                 norm: Module | None = None, enable_nested_tensor: bool = True,
                 mask_check: bool = True) -> None:
        super().__init__()
        self.layers = _clones(encoder_layer, positive_int(num_layers, "num_layers",
                                                          "TransformerEncoder", allow_zero=True))
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        reason = _why_not_nested(encoder_layer)
        if enable_nested_tensor and reason:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {reason}", stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src: Tensor, mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                is_causal: bool | None = None) -> Tensor:
        src_key_padding_mask = canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                              src.dtype, mask, "mask")
        mask = canonical_mask(mask, "mask", src.dtype)
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=is_causal is True,
                           src_key_padding_mask=src_key_padding_mask)
        if self._drops_padding(src, mask, src_key_padding_mask):
            kept = (src_key_padding_mask == 0.0).unsqueeze(-1)
            output = where(kept, output, 0.0)
        return output if self.norm is None else self.norm(output)

    def _drops_padding(self, src: Tensor, mask, padding) -> bool:
        """Whether PyTorch would run this call on nested tensors (batch-first inference with
        a left-aligned key padding mask and no gradient needed), which gives zeros at the
        padded positions before ``norm``."""
        first = self.layers[0]
        if (not self.use_nested_tensor or first.training or src.ndim != 3 or padding is None
                or mask is not None or is_traced(padding._data)):
            return False
        if is_grad_enabled() and any(tensor.requires_grad for tensor in (src,
                                                                          *first.parameters())):
            return False
        kept = np.asarray((padding == 0.0).tolist(), dtype=bool)
        return not np.any(kept[:, 1:] & ~kept[:, :-1])


class TransformerDecoder(Module):
    """``num_layers`` deep copies of ``decoder_layer`` applied in turn, then ``norm``.

    Example:
        >>> import unigrad as ug
        >>> layer = ug.nn.TransformerDecoderLayer(4, 2, dim_feedforward=8)
        >>> decoder = ug.nn.TransformerDecoder(layer, 2)
        >>> decoder(ug.ones(5, 3, 4), ug.ones(6, 3, 4)).shape
        (5, 3, 4)
    """

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int,
                 norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _clones(decoder_layer, positive_int(num_layers, "num_layers",
                                                          "TransformerDecoder", allow_zero=True))
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask,
                           tgt_is_causal=tgt_is_causal is True,
                           memory_is_causal=memory_is_causal)
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """The encoder-decoder Transformer of "Attention Is All You Need" (PyTorch's module).

    ``forward(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
    src_key_padding_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
    memory_is_causal=False)``; every weight matrix is re-drawn Xavier-uniform.

    Example:
        >>> import unigrad as ug
        >>> model = ug.nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1,
        ...                           num_decoder_layers=1, dim_feedforward=8, batch_first=True)
        >>> tgt_mask = model.generate_square_subsequent_mask(6)
        >>> model(ug.ones(2, 5, 4), ug.ones(2, 6, 4), tgt_mask=tgt_mask).shape
        (2, 6, 4)
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable = relu,
                 custom_encoder: Module | None = None, custom_decoder: Module | None = None,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        options = (dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                   norm_first, bias, device, dtype)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(
                TransformerEncoderLayer(d_model, nhead, *options), num_encoder_layers,
                _norm(d_model, layer_norm_eps, bias, device, dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(
                TransformerDecoderLayer(d_model, nhead, *options), num_decoder_layers,
                _norm(d_model, layer_norm_eps, bias, device, dtype))
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None,
                tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                src_is_causal: bool | None = None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False) -> Tensor:
        batch_dim = 0 if self.batch_first else 1
        if src.ndim == 3 and src.shape[batch_dim] != tgt.shape[batch_dim]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device=None, dtype=None) -> Tensor:
        """A ``(sz, sz)`` float mask: 0 on and below the diagonal, ``-inf`` above it.

        Example:
            >>> import unigrad as ug
            >>> ug.nn.Transformer.generate_square_subsequent_mask(3)
            tensor([[0., -inf, -inf],
                    [0., 0., -inf],
                    [0., 0., 0.]])
        """
        return triu(full((sz, sz), float("-inf"), dtype=dtype, device=device), 1)

    def _reset_parameters(self) -> None:
        """Re-draw every parameter with more than one dimension Xavier-uniform."""
        for parameter in self.parameters():
            if parameter.ndim > 1:
                init.xavier_uniform_(parameter)
